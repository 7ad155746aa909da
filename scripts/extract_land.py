"""Make boards/data/ne_110m_land.json, the coastlines the Capitals board is drawn from.

Source: Natural Earth 1:110m Cultural Vectors, Admin 0 - Countries (public domain,
https://www.naturalearthdata.com/), as shipped inside the geopandas 0.14.4 wheel
(geopandas/datasets/naturalearth_lowres/). The countries are merged into land (the board shows
1961's world, so today's borders are not kept), Antarctica is dropped (the board stops at 55 S),
and the outlines are simplified to 0.05 degree and rounded to 0.01 degree.

Run once, by hand, when the extract is to be remade (nothing is fetched at build time):
    pip download --no-deps geopandas==0.14.4 -d /tmp/gpd && unzip -o /tmp/gpd/*.whl 'geopandas/datasets/*' -d /tmp/gpd
    pip install pyshp shapely
    python scripts/extract_land.py /tmp/gpd/geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp
"""
import json
import sys
from pathlib import Path

import shapefile                      # pyshp
from shapely.geometry import shape
from shapely.ops import unary_union

OUT = Path(__file__).resolve().parent.parent / "boards" / "data" / "ne_110m_land.json"


def main(shp: str) -> None:
    reader = shapefile.Reader(shp)
    names = [f[0] for f in reader.fields[1:]]
    geoms = []
    for rec in reader.shapeRecords():
        attrs = dict(zip(names, rec.record))
        if attrs.get("name") == "Antarctica":
            continue
        geoms.append(shape(rec.shape.__geo_interface__).buffer(0))
    land = unary_union(geoms).simplify(0.05, preserve_topology=True)
    polys = list(land.geoms) if land.geom_type == "MultiPolygon" else [land]
    rings = []
    for p in sorted(polys, key=lambda p: -p.area):
        rings.append([[[round(x, 2), round(y, 2)] for x, y in ring.coords]
                      for ring in [p.exterior, *p.interiors]])
    OUT.write_text(json.dumps({
        "source": "Natural Earth 1:110m Admin 0 - Countries (public domain), via geopandas 0.14.4's "
                  "naturalearth_lowres; merged into land, Antarctica dropped; made by scripts/extract_land.py",
        "units": "degrees: [longitude, latitude]",
        "polygons": rings,
    }, separators=(",", ":")) + "\n")
    print(f"{OUT}: {len(rings)} polygons, {sum(len(r) for p in rings for r in p)} points")


if __name__ == "__main__":
    main(sys.argv[1])
