"""Every laser sheet a build writes, read the way an operator's software reads it.

The files are read here by readers of our own, apart from the writers and from ezdxf: the DXF as
group codes (LWPOLYLINE and LINE; a HATCH's boundary vertices without their arcs, as Inkscape's
DXF import reads them), the SVG's paths as their points. On every sheet: the DXF engraves what
the SVG does (area within 0.5 %), the layers are named alike, a piece inside an opening is cut
before the material round it, and no score line crosses or touches a cut. The sheets' parts (as
the build nests them) say the rest: engraving keeps the spec's inset from every cut, grooves open
onto their part's edge, every score line lies on its part.
"""
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Polygon
from shapely.strtree import STRtree

from conftest import ROOT

SVG = "{http://www.w3.org/2000/svg}"
INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"
AREA_TOLERANCE = 0.005        # the DXF's engraved area within 0.5 % of the SVG's
ROUNDING = 0.0015             # mm: both files' coordinates are rounded to 0.001 mm


# ---------------------------------------------------------------- an SVG reader

def svg_layers(path: Path) -> dict[str, list[list[tuple[list, bool]]]]:
    """Layer name (Inkscape's label) -> its paths, each a list of (points, closed) subpaths, and
    the sheet's height under "height". Our SVGs draw with M, L and Z only; anything else is a
    failure, not something to skip."""
    root = ET.parse(path).getroot()
    layers = {"height": float(root.get("viewBox").split()[3])}
    for g in root.iter(SVG + "g"):
        if g.get(INKSCAPE + "groupmode") != "layer":
            continue
        paths = []
        for p in g.iter(SVG + "path"):
            d = p.get("d")
            assert re.fullmatch(r"[MLZ0-9.\- ]*", d), d[:80]
            subs = []
            for sub in re.findall(r"M[^M]*", d):
                nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", sub)]
                subs.append((list(zip(nums[::2], nums[1::2])), sub.rstrip().endswith("Z")))
            paths.append(subs)
        label = g.get(INKSCAPE + "label")
        layers.setdefault("labels", []).append(label)
        layers[cut_kind(label)] = paths
    return layers


def cut_kind(layer: str) -> str:
    """A layer by what it does: a kiss cut (the Cubes rail layer's, named with its depth) is a cut."""
    return "CUT" if layer.startswith("KISS-CUT") else layer


def signed_area(pts) -> float:
    """Positive for a ring that turns counter-clockwise (y up)."""
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1])) / 2


def even_odd(rings) -> shapely.Geometry:
    """The area inside an odd number of the rings: their symmetric difference, taken two by two
    (in a tree: one ring at a time into the growing whole took a sheet's hundreds of rings 1.7 s)."""
    areas = shapely.make_valid(np.array([shapely.polygons(r) for r in rings if len(r) > 2], dtype=object))
    while len(areas) > 1:
        paired = shapely.symmetric_difference(areas[:len(areas) // 2 * 2:2], areas[1:len(areas) // 2 * 2:2])
        areas = np.concatenate([paired, areas[len(areas) // 2 * 2:]])
    return areas[0] if len(areas) else shapely.Polygon()


def svg_engraved(layers) -> float:
    return sum(even_odd([pts for pts, _ in subs]).area for subs in layers.get("ENGRAVE", []))


def svg_lines(layers, name: str) -> list[LineString]:
    """A layer's paths as lines (a closed one back to its start)."""
    return [shapely.linestrings(pts + [pts[0]] if closed else pts)
            for subs in layers.get(name, []) for pts, closed in subs if len(pts) > 1]


# ---------------------------------------------------------------- a DXF reader

def dxf_entities(path: Path) -> tuple[list[str], list[dict]]:
    """The layer table's names, and the ENTITIES section as dicts: kind, layer, and each group
    code's values in order."""
    lines = [line.strip() for line in path.read_text(encoding="utf-8").split("\n")]
    pairs = zip(lines[0::2], lines[1::2])       # (a last line alone, the file's end, is no pair)
    layers, entities, section, current, table = [], [], None, None, None
    for code, value in pairs:
        if code == "2" and current is None and section is None:
            section = value
            continue
        if code == "0":
            if current is not None:
                entities.append(current)
                current = None
            if value == "ENDSEC":
                section = None
            elif value == "TABLE":
                table = True
            elif section == "ENTITIES":
                current = {"kind": value, "codes": []}
            continue
        if section == "TABLES" and table and code == "2" and value == "LAYER":
            table = "LAYER"
        elif section == "TABLES" and table == "LAYER" and code == "2":
            layers.append(value)
        elif current is not None:
            if code == "8":
                current["layer"], current["layer_name"] = cut_kind(value), value
            current["codes"].append((code, value))
    return layers, entities


def polyline_vertices(entity: dict) -> list[tuple[float, float, float]]:
    """An LWPOLYLINE's (x, y, bulge) vertices."""
    out = []
    for code, value in entity["codes"]:
        if code == "10":
            out.append([float(value), None, 0.0])
        elif code == "20":
            out[-1][1] = float(value)
        elif code == "42":
            out[-1][2] = float(value)
    return [tuple(v) for v in out]


def closed(entity: dict) -> bool:
    return any(code == "70" and int(value) & 1 for code, value in entity["codes"])


def bulge_arc(x0: float, y0: float, x1: float, y1: float, b: float) -> tuple[float, float, float, float, float]:
    """The arc a bulged segment is (worked out here: a bulge is tan of a quarter of the arc's
    angle, positive counter-clockwise): its centre, radius, start angle and signed sweep."""
    theta = 4 * math.atan(b)
    chord = math.hypot(x1 - x0, y1 - y0)
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    k = chord / 2 / math.tan(theta / 2)            # from the chord's middle to the centre, leftwards
    cx, cy = mx - (y1 - y0) / chord * k, my + (x1 - x0) / chord * k
    return cx, cy, math.hypot(x0 - cx, y0 - cy), math.atan2(y0 - cy, x0 - cx), theta


def with_arcs(verts, is_closed: bool, step: float = 0.05) -> list[tuple[float, float]]:
    """Points along an LWPOLYLINE, its bulged segments sampled as the arcs they are."""
    pts = []
    n = len(verts)
    for i in range(n if is_closed else n - 1):
        (x0, y0, b), (x1, y1, _) = verts[i], verts[(i + 1) % n]
        pts.append((x0, y0))
        if b:
            cx, cy, r, a0, theta = bulge_arc(x0, y0, x1, y1, b)
            count = max(2, math.ceil(abs(theta) * r / step))
            pts += [(cx + r * math.cos(a0 + theta * j / count), cy + r * math.sin(a0 + theta * j / count))
                    for j in range(1, count)]
    if not is_closed:
        pts.append(verts[-1][:2])
    return pts


def polyline_bounds(verts, is_closed: bool) -> tuple[float, float, float, float]:
    """An LWPOLYLINE's bounds, its arcs' included: its vertices, and each arc's points due east,
    north, west and south of its centre that its sweep passes."""
    xs, ys = [v[0] for v in verts], [v[1] for v in verts]
    n = len(verts)
    for i in range(n if is_closed else n - 1):
        (x0, y0, b), (x1, y1, _) = verts[i], verts[(i + 1) % n]
        if b:
            cx, cy, r, a0, theta = bulge_arc(x0, y0, x1, y1, b)
            start = a0 if theta > 0 else a0 + theta            # the sweep counter-clockwise from start
            for q in range(4):
                if (q * math.pi / 2 - start) % (2 * math.pi) <= abs(theta):
                    xs.append(cx + r * math.cos(q * math.pi / 2))
                    ys.append(cy + r * math.sin(q * math.pi / 2))
    return min(xs), min(ys), max(xs), max(ys)


def dxf_engraved_without_arcs(entities) -> float:
    """The ENGRAVE layer's area as a reader with no arcs in hatch boundaries reads it: each
    HATCH's polyline boundaries by their vertices alone, filled even-odd, and the closed
    polylines (bulges read as straight lines) filled together even-odd, as a laser program's fill
    takes a layer's closed shapes."""
    area, rings = 0.0, []
    for e in entities:
        if e.get("layer") != "ENGRAVE":
            continue
        if e["kind"] == "HATCH":
            paths, current = [], None
            for code, value in e["codes"]:
                if code == "93":
                    current = []
                    paths.append(current)
                elif code == "10" and current is not None:
                    current.append([float(value), 0.0])
                elif code == "20" and current is not None and current:
                    current[-1][1] = float(value)
            area += even_odd(paths).area
        elif e["kind"] == "LWPOLYLINE" and closed(e):
            rings.append([v[:2] for v in polyline_vertices(e)])
    return area + even_odd(rings).area


# ---------------------------------------------------------------- the build's sheets

def sheet_files(output: Path) -> list[tuple[Path, Path]]:
    pairs = [(p, p.with_suffix(".dxf")) for p in sorted(output.rglob("*.svg"))]
    assert pairs and all(dxf.exists() for _, dxf in pairs)
    return pairs


@pytest.fixture(scope="module")
def read_sheets(output):
    """Every sheet of the build: (name, SVG layers, DXF layer table, DXF entities)."""
    return [(str(svg.relative_to(output)), svg_layers(svg), *dxf_entities(dxf)) for svg, dxf in sheet_files(output)]


def test_the_dxf_read_without_arcs_engraves_what_the_svg_does(read_sheets):
    """Inkscape's DXF import (and readers like it) drop the arcs of a HATCH's boundaries: read
    so, the pawn discs had no area at all (543 mm2 to 0). Every sheet's DXF engraving, read by a
    reader that takes no arc there, is the SVG's within 0.5 %; it has no arcs, and its outlines
    and holes turn opposite ways (a nonzero fill leaves what an even-odd one leaves)."""
    engraved = {}
    for name, layers, _, entities in read_sheets:
        in_svg, in_dxf = svg_engraved(layers), dxf_engraved_without_arcs(entities)
        assert abs(in_dxf - in_svg) <= AREA_TOLERANCE * in_svg + 1e-9, (name, in_svg, in_dxf)
        mine = [e for e in entities if e.get("layer") == "ENGRAVE"]
        assert all(e["kind"] == "LWPOLYLINE" and closed(e) for e in mine), name
        assert not any(b for e in mine for *_, b in polyline_vertices(e)), name
        signed = sum(signed_area([v[:2] for v in polyline_vertices(e)]) for e in mine)
        assert abs(signed - in_dxf) <= 1e-6 * max(1.0, in_dxf), name     # outlines ccw, holes cw
        if in_svg:
            engraved[name] = in_svg
    # The sheets that engrave: the Cubes kits' cube sheets (the king's crown; the dark pawn
    # heads, the pawns sharing the cubes' stock), cup layer, frame and peg sheets, for two and
    # four players.
    assert len(engraved) == 10 and all(a > 30 for a in engraved.values()), engraved


def test_svg_layers_are_the_dxf_layers(read_sheets):
    """The SVG's groups are Inkscape layers named as the DXF's layers, in the order they run;
    every entity of the DXF is on one of them."""
    for name, layers, table, entities in read_sheets:
        names = layers["labels"]
        # The rail layer is kiss-cut: its cut layer says so, with its depth (the film's 0.5 mm).
        assert names == ["ENGRAVE", "SCORE", "KISS-CUT-0.5mm" if "rail-layer" in name else "CUT"], name
        assert [t for t in table if t not in ("0", "Defpoints")] == names, name
        assert {e.get("layer_name") for e in entities} <= set(names), name


def contours_in_order(layers) -> list:
    """The CUT layer's paths in file order: a closed one as its polygon, an open one as its line."""
    out = []
    for subs in layers["CUT"]:
        for pts, is_closed in subs:
            out.append(shapely.polygons(pts) if is_closed else shapely.linestrings(pts))
    return out


def test_inner_contours_are_cut_before_the_material_round_them(read_sheets):
    """On every sheet, whatever lies inside a closed cut (a hole inside an outline, a slit inside
    its panel, the rail layer's 3,120 and 3,784 dashes inside their border's opening) is cut
    before it, in the SVG and in the DXF, whose cuts come in the SVG's order."""
    for name, layers, _, entities in read_sheets:
        cuts = contours_in_order(layers)
        dxf_cuts = [e for e in entities if e.get("layer") == "CUT"]
        assert len(dxf_cuts) == len(cuts), name
        # The DXF's k-th cut is the SVG's k-th (y up there): the same bounds within 0.01 mm.
        h = layers["height"]
        for svg_cut, e in zip(cuts, dxf_cuts):
            x0, y0, x1, y1 = polyline_bounds(polyline_vertices(e), closed(e))
            assert max(abs(a - b) for a, b in zip((x0, h - y1, x1, h - y0), svg_cut.bounds)) < 0.01, name
        polygons = [(k, c) for k, c in enumerate(cuts) if isinstance(c, Polygon)]
        tree = STRtree([c for _, c in polygons])
        late = []
        points = [c.representative_point() if isinstance(c, Polygon) else c.interpolate(0.5, normalized=True)
                  for c in cuts]
        for k, j in zip(*tree.query(points, predicate="within")):     # (each cut's point, within which)
            c = cuts[k]
            outer_k, outer = polygons[j]
            if outer_k != k and outer.area > (c.area if isinstance(c, Polygon) else 0) and outer_k < k:
                late.append((int(k), outer_k))
        late.sort()
        assert not late, f"{name}: {len(late)} contours cut after the one round them, first {late[:3]}"


def test_no_score_line_crosses_or_touches_a_cut(read_sheets):
    """A score line that runs into a cut scores the waste or the next part (the rail layer's
    label crossed its border's inner cut by 0.28 mm): on every sheet every scored line keeps off
    every cut line (a fold runs to its part's edge, half the kerf from the cut)."""
    closest = {}
    for name, layers, _, entities in read_sheets:
        scores = svg_lines(layers, "SCORE")
        assert len(scores) == sum(1 for e in entities if e.get("layer") == "SCORE"), name
        if not scores:
            continue
        cuts = svg_lines(layers, "CUT")
        tree = STRtree(cuts)
        _, distances = tree.query_nearest(scores, return_distance=True, all_matches=False)
        closest[name] = float(distances.min())
        assert closest[name] > 0.02 + ROUNDING, (name, closest[name])
    assert len(closest) >= 20 and min(closest.values()) < 0.1   # folds that run to their part's edge


# ---------------------------------------------------------------- the sheets' parts

@pytest.fixture(scope="module")
def nested_sheets():
    """Every laser sheet, as each game's build nests it (its parts and their cut paths), caught
    where the build hands the sheets to the writers: (file stem, sheet). Only the products that
    make laser sheets (those whose module has add_laser_kit) are run: the others hand over none,
    and test_the_nested_sheets_are_the_builds holds these to every sheet the build wrote."""
    import importlib
    import generator.laser.export as export
    import generator.products as products
    from generator.options import BuildOptions
    from generator.games import GAMES, load_game_specs
    from generator.outputs import Plan
    from generator.pipeline import plan_game
    caught = []
    real, every = export.add_sheets, products.products
    makers = tuple(p for p in every() if hasattr(importlib.import_module(p.module), "add_laser_kit"))
    assert {p.name for p in makers} >= {"laser-kit", "tuck-box"}, [p.name for p in makers]

    def add_sheets(sheets, plan, stem):     # add_laser_kit imports it when called: patchable
        for i, sheet in enumerate(sheets, 1):
            caught.append((f"{stem}-{sheet.material + '-' if sheet.material else ''}sheet{i}", sheet))
        real(sheets, plan, stem)
    export.add_sheets = add_sheets
    products.products = lambda: makers          # make_files asks it for the products to run
    try:
        plan = Plan()
        for game in GAMES:
            plan_game(game, load_game_specs(game, ROOT), BuildOptions(), plan=plan)
    finally:
        export.add_sheets, products.products = real, every
    return caught


def test_the_nested_sheets_are_the_builds(nested_sheets, output):
    assert sorted(stem for stem, _ in nested_sheets) == sorted(dxf.stem for _, dxf in sheet_files(output))


def test_engraving_keeps_the_inset_from_every_cut(nested_sheets):
    """Engraving run up to a cut scorches its edge (the pawn discs and peg crosses came to
    0.075 mm of theirs): every engraved area keeps laser.engrave_inset from every cut line of
    its sheet, its part's or a neighbour's. Grooves (a peg's notches) must open onto their part's
    edge, and do. Only the Cubes kit engraves; its spec says the inset."""
    from generator.games.cubes.kit import load_kit
    from generator.spec import load_spec
    inset = load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml")).engrave_inset
    assert inset == 0.5
    least, grooved = {}, set()
    for stem, sheet in nested_sheets:
        cuts = [ring for c in sheet.cut_paths for ring in shapely.get_rings(c)] + \
               [line for p in sheet.parts for line in p.cuts]
        tree = STRtree(cuts)
        for part, cut in zip(sheet.parts, sheet.cut_paths):
            for area in part.engrave:
                assert stem.startswith("cubes-"), stem
                _, d = tree.query_nearest(area, return_distance=True, all_matches=False)
                least[stem] = min(least.get(stem, math.inf), float(d.min()))
            for groove in part.grooves:
                edge = part.outline.boundary
                assert groove.difference(part.outline).area < 1e-6 and groove.distance(edge) < 1e-6, stem
                grooved.add(stem)
    # Engraved: the cube sheet with the kings' crowns, the cup layer, frame and pawn sheets, for
    # two and four players; grooved: the peg sheets.
    assert len(least) == 8 and min(least.values()) >= inset, least
    assert sorted(grooved) == ["cubes-2p-peg-sheet1", "cubes-4p-peg-sheet1"]


def test_every_score_line_lies_on_its_part(nested_sheets):
    for stem, sheet in nested_sheets:
        for part in sheet.parts:
            assert all(line.covered_by(part.outline) for line in part.score), (stem, part.name)


def test_the_rail_layer_is_called_a_kiss_cut_wherever_its_file_is_named(output):
    """Cut through, the rail layer's 3,122 dashes fall out of their liner: an operator must set a
    kiss cut, and the sheet says so, with its depth (the film's thickness), in the SVG's title and
    cut layer, the DXF's layer table and cut entities, and the print list's entry for the file."""
    from generator.games.cubes.kit import load_kit
    from generator.spec import load_spec
    depth = load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml")).t("rail_layer")
    said, layer = f"kiss-cut {depth:g} mm deep", f"KISS-CUT-{depth:g}mm"
    sheets = sorted(output.rglob("*rail-layer-sheet*.svg"))
    assert len(sheets) == 2 and depth == 0.5
    for svg in sheets:
        root = ET.parse(svg).getroot()
        assert said in root.find(SVG + "title").text, svg.name
        labels = [g.get(INKSCAPE + "label") for g in root.iter(SVG + "g") if g.get(INKSCAPE + "groupmode") == "layer"]
        assert labels[-1] == layer and not any(g.get("id") == "CUT" for g in root.iter(SVG + "g")), labels
        table, entities = dxf_entities(svg.with_suffix(".dxf"))
        assert layer in table and "CUT" not in table
        assert len([e for e in entities if e.get("layer_name") == layer]) > 3000
        entry = (svg.parent.parent / "README.txt").read_text(encoding="utf-8").split(
            f"\n{svg.relative_to(svg.parent.parent)} (or .dxf)\n", 1)[1].split("\n\n", 1)[0]
        assert said in " ".join(entry.split()), entry
