"""The laser layer, checked by reading back what it writes."""
import re
import xml.etree.ElementTree as ET

import pytest
from shapely.geometry import Polygon, box

from generator.laser.export import LAYERS, add_sheets, sheet_svg
from generator.outputs import Plan
from generator.laser.joints import box_joints, box_panels, mates
from generator.laser.kerf import compensate
from generator.laser.nest import NestError, nest
from generator.laser.parts import Part, text_polygons, text_score_lines

SVG = "{http://www.w3.org/2000/svg}"


def svg_rings(svg: str, group: str):
    root = ET.fromstring(svg)
    g = next(el for el in root.iter(SVG + "g") if el.get("id") == group)
    rings = []
    for path in g.iter(SVG + "path"):
        for sub in re.findall(r"M[^MZ]*Z?", path.get("d")):
            nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", sub)]
            rings.append(list(zip(nums[::2], nums[1::2])))
    return rings


def bounds(points):
    xs, ys = zip(*points)
    return (min(xs), min(ys), max(xs), max(ys))


def framed_part():
    """40 x 30 mm with a 10 x 10 mm hole: one outer contour, one hole."""
    outer = box(0, 0, 40, 30)
    hole = box(15, 10, 25, 20)
    return Part("frame", Polygon(outer.exterior.coords, [hole.exterior.coords]))


@pytest.mark.parametrize("kerf", [0.0, 0.15, 0.3])
def test_kerf_grows_outer_and_shrinks_holes_in_the_svg(kerf):
    sheet = nest([framed_part()], 100, 100, kerf=kerf, margin=5)[0]
    rings = sorted(svg_rings(sheet_svg(sheet), "CUT"), key=lambda r: -Polygon(r).area)
    assert len(rings) == 2
    ox0, oy0, ox1, oy1 = bounds(rings[0])
    hx0, hy0, hx1, hy1 = bounds(rings[1])
    assert (ox1 - ox0, oy1 - oy0) == pytest.approx((40 + kerf, 30 + kerf), abs=1e-3)   # k/2 per side out
    assert (hx1 - hx0, hy1 - hy0) == pytest.approx((10 - kerf, 10 - kerf), abs=1e-3)   # k/2 per side in
    # the hole stays centred in the part
    assert ((hx0 + hx1) / 2 - ox0, (hy0 + hy1) / 2 - oy0) == pytest.approx((20 + kerf / 2, 15 + kerf / 2), abs=1e-3)


def test_kerf_keeps_finger_corners_sharp():
    panel = box_panels(30, 30, 30, 3)[0].part(3)
    grown = compensate(panel.outline, 0.2)
    assert len(grown.exterior.coords) == len(panel.outline.exterior.coords)
    assert grown.bounds == pytest.approx((-0.1, -0.1, 30.1, 30.1))


@pytest.mark.parametrize("t", [2.0, 3.0, 4.0])
def test_box_panels_make_a_30mm_cube(t):
    panels = box_panels(30, 30, 30, t)
    parts = {p.name: p.part(t) for p in panels}
    assert set(parts) == {"front", "back", "left", "right", "top", "bottom"}
    for p in parts.values():
        assert p.outline.bounds == pytest.approx((0, 0, 30, 30))     # outer size at kerf 0
        assert p.outline.is_valid
    # Every joint: equal lengths, complementary fingers.
    by_name = {p.name: p for p in panels}
    for a, ea, b, eb in box_joints(panels):
        pa, pb = by_name[a], by_name[b]
        la, lb = (pa.w, pa.h)[ea % 2], (pb.w, pb.h)[eb % 2]
        assert mates(pa.edges[ea], la, pb.edges[eb], lb), (a, ea, b, eb)
    # Every voxel of the shell belongs to exactly one panel: the material adds up to the shell.
    material = sum(p.outline.area for p in parts.values()) * t
    assert material == pytest.approx(30 ** 3 - (30 - 2 * t) ** 3)


def test_nested_parts_stay_apart_and_on_the_sheet():
    parts = [p.part(3, quantity=12) for p in box_panels(30, 30, 30, 3)] + [framed_part()]
    sheets = nest(parts, 300, 200, kerf=0.2, margin=5, spacing=3)
    placed = [c for s in sheets for c in s.cut_paths]
    assert len(placed) == 6 * 12 + 1
    for s in sheets:
        for c in s.cut_paths:
            x0, y0, x1, y1 = c.bounds
            assert x0 >= 5 - 1e-6 and y0 >= 5 - 1e-6 and x1 <= 295 + 1e-6 and y1 <= 195 + 1e-6
        for i, a in enumerate(s.cut_paths):
            for b in s.cut_paths[i + 1:]:
                assert a.distance(b) >= 3 - 1e-6
    assert len(sheets) == 2


def test_part_too_big_for_the_sheet():
    with pytest.raises(NestError, match="does not fit"):
        nest([Part("board", box(0, 0, 400, 400))], 300, 200)


def test_svg_is_in_mm_with_the_laser_colours():
    part = framed_part()
    part.score = text_score_lines("A1", 3, 8, 4)
    part.engrave = text_polygons("O", 30, 8, 5)
    svg = sheet_svg(nest([part], 100, 60)[0])
    root = ET.fromstring(svg)
    assert root.get("width") == "100mm" and root.get("height") == "60mm" and root.get("viewBox") == "0 0 100 60"
    groups = {g.get("id"): g for g in root.iter(SVG + "g")}
    assert groups["CUT"].get("stroke") == "#FF0000" and groups["SCORE"].get("stroke") == "#0000FF"
    assert groups["ENGRAVE"].get("fill") == "#000000"
    assert float(groups["CUT"].get("stroke-width")) <= 0.01
    assert svg_rings(svg, "SCORE") and svg_rings(svg, "ENGRAVE")
    # Each group an Inkscape layer, named as the DXF's layers, in the order they run.
    ink = "{http://www.inkscape.org/namespaces/inkscape}"
    layers = [g for g in root.iter(SVG + "g") if g.get(ink + "groupmode") == "layer"]
    assert [g.get(ink + "label") for g in layers] == [g.get("id") for g in layers] == [n for n, _ in LAYERS]


def test_engraved_letter_keeps_its_counter():
    (o,) = text_polygons("O", 0, 10, 10)
    assert len(o.interiors) == 1


def test_dxf_reads_back_in_mm_with_closed_cut_polylines(tmp_path):
    part = framed_part()
    part.score = text_score_lines("A1", 3, 8, 4)
    sheet = nest([part], 100, 60, kerf=0.2)[0]
    plan = Plan()
    add_sheets([sheet], plan, "test")
    written = plan.write_into(tmp_path)
    dxf = next(p for p in written if p.suffix == ".dxf")
    import ezdxf        # (here, not at the top: 0.3 s in every test process that collects this module)
    doc = ezdxf.readfile(dxf)
    assert doc.header["$INSUNITS"] == 4
    assert {"CUT", "SCORE", "ENGRAVE"} <= {layer.dxf.name for layer in doc.layers}
    cuts = [e for e in doc.modelspace().query("LWPOLYLINE") if e.dxf.layer == "CUT"]
    assert len(cuts) == 2 and all(e.closed for e in cuts)
    widths = sorted(max(p[0] for p in e.get_points()) - min(p[0] for p in e.get_points()) for e in cuts)
    assert widths == pytest.approx([10 - 0.2, 40 + 0.2], abs=1e-3)
    assert any(p.suffix == ".png" for p in written) and any(p.suffix == ".svg" for p in written)


def test_nesting_fills_the_room_beside_a_tall_part_and_the_ends_of_rows():
    """A tall part and many small ones: the small ones stack in the room beside the tall one (one
    sheet, not two); small parts fill the ends of rows of larger ones."""
    from shapely.geometry import box
    from generator.laser.nest import material_use, nest
    from generator.laser.parts import Part
    big = Part("board", box(0, 0, 330, 330))
    small = Part("ring", box(0, 0, 30, 30), quantity=45)
    sheets = nest([big, small], 600, 400, kerf=0.15, margin=5, spacing=3)
    assert len(sheets) == 1 and len(sheets[0].parts) == 46
    use, w, h = material_use(sheets[0])
    assert use == pytest.approx((330 * 330 + 45 * 900) / (600 * 400)) and w <= 595 and h <= 395
    # Parts never overlap and keep the spacing.
    cuts = sheets[0].cut_paths
    for i, a in enumerate(cuts):
        for b in cuts[i + 1:]:
            assert a.distance(b) >= 3 - 1e-6
    rows = nest([Part("wall", box(0, 0, 30, 26), quantity=17), Part("pawn", box(0, 0, 12, 25))],
                600, 400, margin=5, spacing=3)
    assert len(rows) == 1 and max(c.bounds[3] for c in rows[0].cut_paths) <= 5 + 26 + 1e-6   # one row


def test_the_cubes_kit_shares_stock_and_reports_its_use(output):
    """The pawns are cut from the cubes' stock (birch plywood 3 mm) and the rings beside the cup
    layer (birch plywood 1 mm): no sheet of their own; the print list says what each sheet's parts
    take of it, and which sparse sheets an offcut will do for."""
    for tag in ("2p", "4p"):
        names = sorted(p.name for p in (output / "cubes" / f"kit-{tag}").glob("*.svg"))
        assert not any("-pawn-" in n or "-ring-" in n for n in names), names
    text = (output / "cubes" / "README.txt").read_text()
    flat = " ".join(text.split())
    sheets = len(list((output / "cubes").glob("kit-*/*.svg")))
    assert sheets >= 12 and flat.count("its parts take") == 2 * sheets     # the SVG's entry and the PNG's
    assert "acrylic 1.5 mm, sheet 1 of 1; its parts take 1 % of the sheet, all within" in flat
    import re
    first = re.search(r"cubes-2p-cube-sheet1\.svg \(or \.dxf\) Cubes kit, 2 players: birch plywood 3 mm, "
                      r"sheet 1 of 2; its parts take (\d+) %", flat)
    assert first and int(first.group(1)) >= 64
