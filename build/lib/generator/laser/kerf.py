"""Kerf compensation, in one place.

The beam burns away a kerf k wide, centred on the path. To get a part at its nominal size the
path runs k/2 outside every outer contour and k/2 inside every hole: an offset of the part's
material by +k/2 (sharp corners kept sharp: a mitred offset), which does both at once.
"""
from __future__ import annotations

import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.strtree import STRtree


def _offset(geom, distance: float):
    return shapely.buffer(geom, distance, join_style="mitre", mitre_limit=10.0)


def compensate(outline: Polygon | MultiPolygon, kerf: float) -> Polygon | MultiPolygon:
    if kerf == 0:
        return outline
    if kerf < 0:
        raise ValueError("kerf must be 0 or more (mm)")
    if isinstance(outline, MultiPolygon) and len(outline.geoms) > 8:
        # A part of many islands (the Cubes rail layer's thousands of dashes): offset each on its
        # own, a tenth of the time of offsetting the whole; the same result as long as no two
        # offset islands touch (else they merge, and the whole is offset as one).
        pieces = _offset(list(outline.geoms), kerf / 2)
        left, right = STRtree(pieces).query(pieces, predicate="intersects")
        if (left == right).all():
            return MultiPolygon(list(pieces))
    return _offset(outline, kerf / 2)
