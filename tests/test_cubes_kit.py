"""The Cubes laser kit, read back from the SVG and DXF it writes."""
import math
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import ezdxf
import pytest
from shapely.geometry import Polygon

from conftest import build_game, ROOT
from generator.games.cubes.kit import cube_parts, kit_parts, load_kit
from generator.spec import load_spec

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def kit_out(tmp_path_factory):
    return build_game(tmp_path_factory, "cubes")


def cut_rings(svg_path):
    root = ET.parse(svg_path).getroot()
    g = next(el for el in root.iter(SVG + "g") if el.get("id") == "cut")
    rings = []
    for path in g.iter(SVG + "path"):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
        rings.append(Polygon(list(zip(nums[::2], nums[1::2]))))
    return rings


def cup_cells(rings, kit):
    """Cup holes (the small round rings), grouped by the cell they lie in."""
    cups = [r.centroid for r in rings if r.area < 30]
    board = max(rings, key=lambda r: r.area).bounds
    x0, y0 = board[0] + kit.stop_margin, board[1] + kit.stop_margin
    cells = defaultdict(list)
    for c in cups:
        cells[(int((c.x - x0) // kit.cell), int((c.y - y0) // kit.cell))].append((c.x, c.y))
    return cells, x0, y0


def test_cup_square_is_turned_atan_one_half(kit_out):
    kit = load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml"))
    cells, x0, y0 = cup_cells(cut_rings(kit_out / "kit-2p" / "cubes-2p-cup-layer-sheet1.svg"), kit)
    assert len(cells) == 100 and all(len(v) == 4 for v in cells.values())
    for (col, row), cups in cells.items():
        cx, cy = sum(x for x, _ in cups) / 4, sum(y for _, y in cups) / 4
        # the cups' centre is the cell's centre (to within the kerf's shift of the sheet)
        assert (cx - x0 - (col + 0.5) * kit.cell, cy - y0 - (row + 0.5) * kit.cell) == pytest.approx((0, 0), abs=0.2)
        # the cups form a square about the centre (equal radii, quarter turns apart) ...
        radii = [math.hypot(x - cx, y - cy) for x, y in cups]
        assert max(radii) - min(radii) < 0.02
        angles = sorted(math.degrees(math.atan2(y - cy, x - cx)) % 90 for x, y in cups)
        # ... turned atan(1/2) = 26.565 degrees from the cell's sides
        for a in angles:
            assert a == pytest.approx(math.degrees(math.atan(0.5)), abs=0.1)


def test_each_cup_lines_up_with_its_homologues_only(kit_out):
    kit = load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml"))
    cells, x0, y0 = cup_cells(cut_rings(kit_out / "kit-2p" / "cubes-2p-cup-layer-sheet1.svg"), kit)

    def kind(col, row, x, y):  # which of the four cups, by its offset from its cell centre
        return (round(x - x0 - (col + 0.5) * kit.cell, 1), round(y - y0 - (row + 0.5) * kit.cell, 1))
    for row in range(kit.grid):       # along a row, a cup's horizontal line holds its homologues only
        line_y = defaultdict(set)
        for col in range(kit.grid):
            for x, y in cells[(col, row)]:
                line_y[round(y, 1)].add(kind(col, row, x, y))
        assert len(line_y) == 4 and all(len(kinds) == 1 for kinds in line_y.values())
    for col in range(kit.grid):       # and likewise down a column
        line_x = defaultdict(set)
        for row in range(kit.grid):
            for x, y in cells[(col, row)]:
                line_x[round(x, 1)].add(kind(col, row, x, y))
        assert len(line_x) == 4 and all(len(kinds) == 1 for kinds in line_x.values())


def test_dxf_cup_layer_matches(kit_out):
    doc = ezdxf.readfile(kit_out / "kit-2p" / "cubes-2p-cup-layer-sheet1.dxf")
    assert doc.header["$INSUNITS"] == 4
    cuts = [e for e in doc.modelspace().query("LWPOLYLINE") if e.dxf.layer == "CUT"]
    assert all(e.closed for e in cuts)
    assert len(cuts) == 1 + 400  # the layer's outline and its 400 cups


def test_cube_is_30mm_and_pawn_on_cube_meets_king():
    kit = load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml"))
    parts = {p.name: p for p in cube_parts(kit)}
    # the box at kerf 0: 30 x 30 in plan, 29 high, plus the 1 mm ring = 30
    assert parts["front"].outline.bounds == pytest.approx((0, 0, 30, 29))
    assert parts["bottom"].outline.bounds == pytest.approx((0, 0, 30, 30))
    assert 29 + kit.t("ring") == kit.cube == 30
    king = {p.name: p for p in cube_parts(kit, king=True)}
    assert king["front"].outline.bounds == pytest.approx((0, 0, 30, 54))
    # The patent: "un pion posé sur un cube arrive exactement à la hauteur d'un cube-roi".
    # The pawn stands in the recess: 30 - 1 + 25 = 54.
    assert kit.cube - kit.recess_depth + kit.pawn_height == pytest.approx(kit.king_height)


@pytest.mark.parametrize("four", [False, True])
def test_counts_and_every_part_in_one_piece(four):
    kit = load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml"), four_player=four)
    parts = kit_parts(kit)
    rings = sum(p.quantity for p in parts if p.name == "ring")
    tops = sum(p.quantity for p in parts if p.name == "top")
    pawns = sum(p.quantity for p in parts if p.name.startswith("pawn A"))
    assert (tops, rings, pawns) == ((49, 45, 20) if four else (36, 34, 18))
    assert kit.grid == (11 if four else 10)
    for p in parts:
        assert p.outline.geom_type == "Polygon" and p.outline.is_valid, p.name


def test_pegs_clear_the_finger_joints():
    kit = load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml"))
    # the farthest peg edge from the cube's centre stays inside the wall thickness
    assert 2 * kit.u + kit.peg_d / 2 <= kit.cube / 2 - kit.t("cube")


def test_real_kit_sheets_do_not_overlap():
    from shapely.strtree import STRtree
    from generator.laser.nest import nest
    kit = load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml"))
    parts = kit_parts(kit)
    for material in {p.material for p in parts}:
        sheets = nest([p for p in parts if p.material == material], *kit.sheet, kerf=kit.kerf,
                      margin=kit.margin, spacing=kit.spacing)
        for s in sheets:
            tree = STRtree(s.cut_paths)
            for i, g in enumerate(s.cut_paths):
                x0, y0, x1, y1 = g.bounds
                assert x0 >= kit.margin - 1e-6 and y0 >= kit.margin - 1e-6
                assert x1 <= s.width - kit.margin + 1e-6 and y1 <= s.height - kit.margin + 1e-6
                for j in tree.query(g.buffer(kit.spacing - 1e-3)):
                    assert j == i, f"{material}: parts {i} and {j} closer than the spacing"


def test_our_dxf_viewer_draws_the_sheet(kit_out):
    import io
    from PIL import Image
    from generator.laser.export import dxf_png
    im = Image.open(io.BytesIO(dxf_png(kit_out / "kit-2p" / "cubes-2p-cube-sheet1.dxf"))).convert("RGB")
    colours = {c for _, c in im.getcolors(maxcolors=100000)}
    assert (220, 0, 0) in colours and (0, 0, 220) in colours   # cuts and scored labels / peg marks
