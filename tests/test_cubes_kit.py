"""The Cubes laser kit: its geometry, and the SVG and DXF it writes, read back."""
import math
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import pytest
from shapely.geometry import LineString, Polygon, box
from shapely.ops import unary_union
from shapely.strtree import STRtree

from conftest import ROOT
from generator.products.laser_kit import add_laser_kit
from generator.errors import SpecError
from generator.laser.export import sheet_svg
from generator.laser.joints import box_joints, mates
from generator.laser.nest import nest
from generator.outputs import Plan
from generator.games.cubes.kit import (cube_panels, cube_parts, cup_layer, cup_lines, kit_parts, load_kit, pawn_plates,
                                       player_look, rail_break, rail_layer)
from generator.spec import load_spec

SVG = "{http://www.w3.org/2000/svg}"
KIT_YAML = ROOT / "boards" / "cubes_kit.yaml"


@pytest.fixture(scope="module")
def kit():
    return load_kit(load_spec(KIT_YAML))


@pytest.fixture(scope="module")
def parts(kit):
    """The two-player kit's parts, made once for the tests that read them (none changes them)."""
    return kit_parts(kit)


@pytest.fixture(scope="module")
def kit_out(tmp_path_factory, kit):
    """The board's layers and one cube's parts, written as the build writes them (the same nest
    and writers, the same names: each material has its own sheets). The rail layer's thousands of
    dashes are written as SVG only, to keep the test quick."""
    out = tmp_path_factory.mktemp("cubes-kit")
    parts = [cup_layer(kit)] + cube_parts(kit) + pawn_plates(kit, 1)
    plan = Plan()
    add_laser_kit(load_spec(KIT_YAML), parts, kit.sheet, kit.kerf, kit.margin, kit.spacing, plan, "cubes-2p")
    plan.write_into(out)
    rail_sheet, = nest([rail_layer(kit)], *kit.sheet, kerf=kit.kerf, margin=kit.margin, spacing=kit.spacing)
    (out / "cubes-2p-rail-layer-sheet1.svg").write_text(sheet_svg(rail_sheet))
    return out


def cut_rings(svg_path):
    root = ET.parse(svg_path).getroot()
    g = next(el for el in root.iter(SVG + "g") if el.get("id") == "CUT")
    rings = []
    for path in g.iter(SVG + "path"):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
        rings.append(Polygon(list(zip(nums[::2], nums[1::2]))))
    return rings


def cup_cells(rings, kit):
    """Cup holes (the small round rings), grouped by the cell they lie in; the board's inner
    corner (where the cells start) on the sheet."""
    cups = [r.centroid for r in rings if r.area < 30]
    board = max(rings, key=lambda r: r.area).bounds   # its cut runs kerf/2 outside the part
    x0, y0 = board[0] + kit.kerf / 2 + kit.stop_margin, board[1] + kit.kerf / 2 + kit.stop_margin
    cells = defaultdict(list)
    for c in cups:
        cells[(int((c.x - x0) // kit.cell), int((c.y - y0) // kit.cell))].append((c.x, c.y))
    return cells, x0, y0


@pytest.fixture(scope="module")
def cut_cups(kit_out, kit):
    return cup_cells(cut_rings(kit_out / "cubes-2p-cup-layer-sheet1.svg"), kit)


# ---------------------------------------------------------------- the cups

def test_cup_square_sides_are_turned_atan_one_half(cut_cups, kit):
    """"un carré décalé de 26,5 degrés": measured on the cut file, the sides of the square of each
    cell's four cups make atan(1/2) = 26.57 degrees with the cell's sides (not its diagonals)."""
    cells, x0, y0 = cut_cups
    assert len(cells) == 100 and all(len(v) == 4 for v in cells.values())
    for (col, row), cups in cells.items():
        cx, cy = sum(x for x, _ in cups) / 4, sum(y for _, y in cups) / 4
        # the square is centred in its cell (the cut file's cups are shifted only with the sheet)
        assert (cx - x0 - (col + 0.5) * kit.cell, cy - y0 - (row + 0.5) * kit.cell) == pytest.approx((0, 0), abs=0.01)
        corners = sorted(cups, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
        sides = [(corners[(i + 1) % 4][0] - corners[i][0], corners[(i + 1) % 4][1] - corners[i][1]) for i in range(4)]
        lengths = [math.hypot(*s) for s in sides]
        assert max(lengths) - min(lengths) < 0.01                       # a square ...
        assert math.dist(corners[0], corners[2]) == pytest.approx(math.dist(corners[1], corners[3]), abs=0.01)
        for sx, sy in sides:                                             # ... whose sides are turned
            assert math.degrees(math.atan2(sy, sx)) % 90 == pytest.approx(math.degrees(math.atan(0.5)), abs=0.05)


def test_cup_lines_are_one_even_lattice(cut_cups, kit):
    """The cups' columns (and rows) are evenly spaced across the cell and from cell to cell: a
    quarter cell apart, the outermost an eighth of a cell in from the cell's sides."""
    cells, x0, y0 = cut_cups
    for axis, origin in ((0, x0), (1, y0)):
        values = sorted(c[axis] - origin for cups in cells.values() for c in cups)
        lines, group = [], [values[0]]              # the cups' lines: runs of equal coordinates
        for a, b in zip(values, values[1:]):
            if b - a > 1:
                lines.append(sum(group) / len(group))
                group = []
            group.append(b)
        lines.append(sum(group) / len(group))
        assert len(lines) == 4 * kit.grid
        assert lines[0] == pytest.approx(kit.cell / 8, abs=0.01)
        assert [b - a for a, b in zip(lines, lines[1:])] == pytest.approx([kit.cell / 4] * (len(lines) - 1), abs=0.01)


def test_each_cup_lines_up_with_its_homologues_only(cut_cups, kit):
    cells, x0, y0 = cut_cups

    def kind(col, row, x, y):  # which of the four cups, by its offset from its cell centre
        return (round(x - x0 - (col + 0.5) * kit.cell, 1), round(y - y0 - (row + 0.5) * kit.cell, 1))

    def line(v, origin):       # which line of the board's lattice a cup is on
        return round((v - origin - kit.cell / 8) / (kit.cell / 4))
    for row in range(kit.grid):       # along a row, a cup's horizontal line holds its homologues only
        line_y = defaultdict(set)
        for col in range(kit.grid):
            for x, y in cells[(col, row)]:
                line_y[line(y, y0)].add(kind(col, row, x, y))
        assert len(line_y) == 4 and all(len(kinds) == 1 for kinds in line_y.values())
    for col in range(kit.grid):       # and likewise down a column
        line_x = defaultdict(set)
        for row in range(kit.grid):
            for x, y in cells[(col, row)]:
                line_x[line(x, x0)].add(kind(col, row, x, y))
        assert len(line_x) == 4 and all(len(kinds) == 1 for kinds in line_x.values())


def test_dxf_cup_layer_matches(kit_out):
    import ezdxf        # (here, not at the top: 0.3 s in every test process that collects this module)
    doc = ezdxf.readfile(kit_out / "cubes-2p-cup-layer-sheet1.dxf")
    assert doc.header["$INSUNITS"] == 4
    cuts = [e for e in doc.modelspace().query("LWPOLYLINE") if e.dxf.layer == "CUT"]
    assert all(e.closed for e in cuts)
    assert len(cuts) == 1 + 400  # the layer's outline and its 400 cups


# ---------------------------------------------------------------- the rails

@pytest.fixture(scope="module")
def rails(kit):
    return rail_layer(kit).outline


def test_no_rail_across_a_pegs_path(kit, rails):
    """"discontinus pour permettre le mouvement dans les deux directions": a peg sliding the whole
    length of any cup line (its path: the peg's width and play) meets no rail but its own, which
    runs in its notch, and passes every other rail (and the border) with the gap to spare."""
    pieces = list(rails.geoms)
    tree = STRtree(pieces)
    lines = cup_lines(kit)
    lo, hi = lines[0], lines[-1]          # a peg's centre goes no further than the outermost lines
    notch = kit.rail_w + 0.3
    for v in lines:
        for line in (LineString([(lo, v), (hi, v)]), LineString([(v, lo), (v, hi)])):
            path = line.buffer((kit.peg_d + kit.fit) / 2, cap_style="flat")
            in_notch = line.buffer(notch / 2, cap_style="flat")
            near = [pieces[i] for i in tree.query(path.buffer(kit.rail_gap - 1e-6), predicate="intersects")]
            # within the gap of the path: the line's own rail, lying in the notch, and nothing else
            assert near and all(d.within(in_notch) for d in near), line


def test_every_cup_line_keeps_its_rail(kit, rails):
    """Each cup line has a dash of rail between every two crossings (so the peg's notch always
    finds it again), centred between them, and no rail covers a cup."""
    lines = cup_lines(kit)
    dash = kit.cell / 4 - 2 * rail_break(kit.peg_d, kit.fit, kit.rail_gap)
    assert dash > 2.5
    dashes = list(rails.geoms)[1:]          # (the border first)
    tree = STRtree(dashes)                  # (the dashes a strip meets, found as d.intersects(strip) finds them)
    for v in lines:
        for along_x in (True, False):
            strip = (box(0, v - 0.01, kit.inner, v + 0.01) if along_x else box(v - 0.01, 0, v + 0.01, kit.inner))
            on_line = [dashes[i] for i in tree.query(strip, predicate="intersects")]
            assert len(on_line) == len(lines) - 1
            for d, (a, b) in zip(sorted(on_line, key=lambda d: d.centroid.x if along_x else d.centroid.y),
                                 zip(lines, lines[1:])):
                x0, y0, x1, y1 = d.bounds
                lo, hi = (x0, x1) if along_x else (y0, y1)
                assert (hi - lo, (lo + hi) / 2) == pytest.approx((dash, (a + b) / 2))
    cups = unary_union([Polygon(r) for r in cup_layer(kit).outline.interiors])
    assert rails.intersection(cups).is_empty


def test_rail_layer_cut_file_has_every_dash(kit_out, kit):
    rings = cut_rings(kit_out / "cubes-2p-rail-layer-sheet1.svg")
    n = 4 * kit.grid
    assert len(rings) == 2 + 2 * n * (n - 1)   # the border's two rings and every dash
    dash = kit.cell / 4 - 2 * rail_break(kit.peg_d, kit.fit, kit.rail_gap) + kit.kerf
    sizes = {tuple(sorted((round(r.bounds[2] - r.bounds[0], 2), round(r.bounds[3] - r.bounds[1], 2))))
             for r in rings if r.area < 10}
    assert sizes == {(round(kit.rail_w + kit.kerf, 2), round(dash, 2))}


# ---------------------------------------------------------------- cubes, pegs, pawns

def test_peg_marks_put_the_pegs_in_the_cups(cut_cups, kit):
    """The bottom plate's scored peg marks, seen from above once the plate is turned over (its
    marked face goes down), are where the cut file's cups are round the cell centre. Not turned
    over, they would be the square of the other hand, and miss."""
    cells, x0, y0 = cut_cups
    cups = sorted((round(x - x0 - 0.5 * kit.cell, 2), round(y - y0 - 0.5 * kit.cell, 2)) for x, y in cells[(0, 0)])
    bottom = next(p for p in cube_parts(kit) if p.name == "bottom")
    c = kit.cube / 2
    circles = [Polygon(s.coords) for s in bottom.score if s.is_closed and Polygon(s.coords).area > 10]
    marks = [(p.centroid.x - c, p.centroid.y - c) for p in circles]
    assert len(marks) == 4
    assert all(p.within(bottom.outline) for p in circles)
    turned_over = sorted((round(-x, 2), round(y, 2)) for x, y in marks)
    assert max(math.dist(a, b) for a, b in zip(turned_over, cups)) < 0.02
    as_cut = sorted((round(x, 2), round(y, 2)) for x, y in marks)
    assert max(math.dist(a, b) for a, b in zip(as_cut, cups)) > 5
    # every mark, its cross included, is on the plate
    assert all(s.within(bottom.outline) for s in bottom.score)


def test_assembled_heights_from_the_parts(kit):
    """Cube 30 mm, king cube 54, pawn 25 (its head's top to its foot), and "un pion posé sur un
    cube arrive exactement à la hauteur d'un cube-roi"; measured on the parts as cut."""
    t = kit.t("cube")
    plain = {p.name: p for p in cube_parts(kit)}
    king = {p.name: p for p in cube_parts(kit, king=True)}

    def height(part):
        return part.outline.bounds[3] - part.outline.bounds[1]
    for parts in (plain, king):
        assert parts["bottom"].outline.bounds == pytest.approx((0, 0, 30, 30))
        assert parts["bottom"].outline.area == pytest.approx(900)        # a whole plate under the walls
        assert {height(parts[w]) for w in ("front", "back", "left", "right")} == {height(parts["front"])}
    ring_t = kit.t("ring")
    cube_h = t + height(plain["front"]) + ring_t          # bottom plate, walls (with the top), ring
    king_h = t + height(king["front"])
    pawn = unary_union([p.outline for p in pawn_plates(kit, 1)])
    pawn_h = pawn.bounds[3] - pawn.bounds[1]
    assert (cube_h, king_h, pawn_h) == pytest.approx((30, 54, 25))
    recess_floor = cube_h - ring_t                          # the pawn stands on the top panel, in the ring's hole
    assert ring_t == kit.recess_depth
    assert recess_floor + pawn_h == pytest.approx(king_h)
    # the pawn's foot (a cross of two plates) fits the 13 mm recess
    foot = math.hypot(kit.pawn_d / 2, kit.t("pawn") / 2)
    assert foot < kit.recess_d / 2
    ring = plain["ring"].outline
    assert ring.interiors and Polygon(ring.interiors[0]).minimum_rotated_rectangle.length / 4 == pytest.approx(
        kit.recess_d, abs=0.05)


@pytest.mark.parametrize("king", [False, True])
def test_cube_walls_mate_and_stand_on_a_plain_bottom(kit, king):
    """Corners and top are finger-jointed (every edge meets its mate); the walls' feet and the
    bottom plate are plain, so the plate is whole under the pegs."""
    panels = {p.name: p for p in cube_panels(kit, king)}
    lengths = {name: (p.w, p.h, p.w, p.h) for name, p in panels.items()}
    joints = [j for j in box_joints(list(panels.values())) if "bottom" not in (j[0], j[2])]
    assert len(joints) == 8
    for a, ea, b, eb in joints:
        assert mates(panels[a].edges[ea], lengths[a][ea], panels[b].edges[eb], lengths[b][eb]), (a, ea, b, eb)
    assert all(panels[w].edges[2].kind == "plain" for w in ("front", "back", "left", "right"))
    assert all(e.kind == "plain" for e in panels["bottom"].edges)


@pytest.mark.parametrize("four", [False, True])
def test_counts_and_every_part_in_one_piece(four):
    kit = load_kit(load_spec(KIT_YAML), four_player=four)
    parts = kit_parts(kit)
    rings = sum(p.quantity for p in parts if p.name == "ring")
    tops = sum(p.quantity for p in parts if p.name == "top")
    bottoms = sum(p.quantity for p in parts if p.name == "bottom")
    pegs = sum(p.quantity for p in parts if p.name == "peg")
    pawns = sum(p.quantity for p in parts if p.name.startswith("pawn A"))
    assert (tops, bottoms, rings, pegs, pawns) == ((49, 49, 45, 196, 20) if four else (36, 36, 34, 144, 18))
    assert kit.grid == (11 if four else 10)
    for p in parts:
        if p.name == "rail layer":   # the border and its dashes, laid together (kiss cut)
            n = 4 * kit.grid
            assert len(p.outline.geoms) == 1 + 2 * n * (n - 1) and p.outline.is_valid
        else:
            assert p.outline.geom_type == "Polygon" and p.outline.is_valid, p.name


def _broken_kit(tmp_path, old, new):
    text = KIT_YAML.read_text()
    assert old in text
    path = tmp_path / "cubes_kit.yaml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(SpecError) as exc:
        load_kit(load_spec(path))
    return exc.value


def test_kit_errors_name_the_field(tmp_path):
    err = _broken_kit(tmp_path, "clearance: 1.0", "clearance: 8")
    assert err.field == "cube.clearance" and "past the cube's side" in err.message
    err = _broken_kit(tmp_path, "gap: 0.3", "gap: 1.5")
    assert err.field == "rails.gap" and "long" in err.message


def test_real_kit_sheets_do_not_overlap(kit, parts):
    from shapely.strtree import STRtree
    from generator.laser.nest import nest
    parts = [p for p in parts if p.name != "rail layer"]   # alone on its sheet
    for material in {p.material for p in parts}:
        sheets = nest([p for p in parts if p.material == material], *kit.sheet, kerf=kit.kerf,
                      margin=kit.margin, spacing=kit.spacing)
        for s in sheets:
            tree = STRtree(s.cut_paths)
            for i, g in enumerate(s.cut_paths):
                x0, y0, x1, y1 = g.bounds
                assert x0 >= kit.margin - 1e-6 and y0 >= kit.margin - 1e-6
                assert x1 <= s.width - kit.margin + 1e-6 and y1 <= s.height - kit.margin + 1e-6
                # (the parts whose boxes come within the spacing of its box: the box round
                # g.buffer(spacing), without offsetting each of hundreds of outlines)
                d = kit.spacing - 1e-3
                for j in tree.query(box(x0 - d, y0 - d, x1 + d, y1 + d)):
                    assert j == i, f"{material}: parts {i} and {j} closer than the spacing"


def test_our_dxf_viewer_draws_the_sheet(kit_out):
    import io
    from PIL import Image
    from generator.laser.export import dxf_png
    im = Image.open(io.BytesIO(dxf_png(kit_out / "cubes-2p-cube-sheet1.dxf"))).convert("RGB")
    colours = {c for _, c in im.getcolors(maxcolors=100000)}
    assert (220, 0, 0) in colours and (0, 0, 220) in colours   # cuts and scored labels / peg marks


def test_a_kit_without_a_variants_setup_is_the_specs_error(tmp_path):
    """Found by the fuzz campaign (a kit cut short): a four-player kit with no four-player setup
    was an internal error in a build; it is the spec's error at `setup`."""
    from generator.games.cubes import CHECKS
    text = KIT_YAML.read_text()
    cut = text[:text.index("  four_player:\n    players: [South")]
    path = tmp_path / "cubes_kit.yaml"
    path.write_text(cut)
    spec = load_spec(path)
    with pytest.raises(SpecError) as exc:
        CHECKS["cubes-kit"](spec)
    assert exc.value.field == "setup" and "four-player setup" in exc.value.message


@pytest.mark.parametrize("what", ["players", "kings", "pawns"])
def test_a_setup_short_of_a_player_is_the_specs_error(tmp_path, what):
    """Found by the fuzz campaign (the kit cut off after two of the four-player setup's pawn lists):
    a player with no pieces was an internal error in the 4p build (IndexError); a setup gives every
    player of its kit a name, a king and pawns, else it is the spec's error at that list's line."""
    from generator.games.cubes import CHECKS
    text = KIT_YAML.read_text()
    start = text.index("  four_player:\n    players: [South")
    block = text[start:]
    lines = block.splitlines(keepends=True)
    if what == "pawns":       # the last two pawn lists gone
        at = [i for i, line in enumerate(lines) if line.startswith("      - [")]
        lines = lines[:at[2]] + lines[at[3] + 1:]
    else:                     # the last name, or king, of the list
        i = next(i for i, line in enumerate(lines) if line.startswith(f"    {what}: ["))
        lines[i] = lines[i][:lines[i].rindex(",")] + "]\n"
    path = tmp_path / "cubes_kit.yaml"
    path.write_text(text[:start] + "".join(lines))
    spec = load_spec(path)
    with pytest.raises(SpecError) as exc:
        CHECKS["cubes-kit"](spec)
    assert exc.value.field == f"setup.four_player.{what}" and "4 players: one each" in exc.value.message
    written = path.read_text()
    assert exc.value.line == written[:written.index(f"    {what}:", start)].count("\n") + 1


def _checked_kit(tmp_path, replacements):
    """The kit spec with these (old, new) edits, checked as a build checks it: its error."""
    from generator.games.cubes import CHECKS
    text = KIT_YAML.read_text()
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "cubes_kit.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as exc:
        CHECKS["cubes-kit"](load_spec(path))
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "engrave_inset:" in row and "laser:" in row)
    return exc.value, line


def test_engraving_closer_to_a_cut_than_the_inset_is_the_specs_error(tmp_path):
    """laser.engrave_inset is checked when the spec is read: the frame's cell names keep 0.61 mm
    from its cut lines, so 0.7 is refused at that line, naming the part and the distance."""
    err, line = _checked_kit(tmp_path, [("engrave_inset: 0.5", "engrave_inset: 0.7")])
    assert (err.field, err.line) == ("laser.engrave_inset", line)
    assert "engraving of the frame's left bar comes 0.61 mm from a cut line" in err.message
    # With room everywhere else (a wide frame, a wide margin round the grid), an inset that
    # leaves nothing of the dark pawn heads is refused too.
    err, line = _checked_kit(tmp_path, [("engrave_inset: 0.5", "engrave_inset: 5"),
                                        ("stop: {width: 10, margin: 1.0}", "stop: {width: 30, margin: 10}")])
    assert (err.field, err.line) == ("laser.engrave_inset", line)
    assert "leaves nothing of the engraving of the pawn plate A, White" in err.message
    # The most the schema takes (2,000 mm) clears the cup layer's grid away first: said so, at once.
    err, line = _checked_kit(tmp_path, [("engrave_inset: 0.5", "engrave_inset: 2000")])
    assert "leaves nothing of the engraving of the cup layer" in err.message


def test_the_kits_engraving_keeps_the_inset(kit, parts):
    """The kit as shipped: every engraving 0.5 mm or more from its part's cut lines (the pawn
    heads clipped clear of their slot), the pegs' notches grooves right across the peg."""
    from generator.laser.parts import engraving_clearance
    gaps = {p.name: engraving_clearance(p, kit.kerf) for p in parts if p.engrave}
    # Every player's pawn A (his initial), the second's pawn B (dark), the kings' tops.
    assert set(gaps) == {"cup layer", "frame bottom", "frame left", "top", "pawn A p1", "pawn A p2", "pawn B p2"}
    assert min(gaps.values()) >= kit.engrave_inset
    peg = next(p for p in parts if p.name == "peg")
    assert not peg.engrave and len(peg.grooves) == 1
    (notches,) = peg.grooves
    assert notches.bounds == pytest.approx(peg.outline.bounds, abs=1e-3)   # open at all four ends


def test_pnp_validate_says_the_inset_in_one_line(tmp_path):
    from fuzzing import run_cli
    (tmp_path / "boards").mkdir()
    text = KIT_YAML.read_text().replace("engrave_inset: 0.5", "engrave_inset: 0.7", 1)
    (tmp_path / "boards" / "cubes_kit.yaml").write_text(text)
    code, out, err, _ = run_cli(["validate", "boards/cubes_kit.yaml"], tmp_path)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "engrave_inset: 0.7" in row)
    assert code == 1 and "Traceback" not in err
    assert f"boards/cubes_kit.yaml:{line}: laser.engrave_inset: the engraving of the frame's left bar comes 0.61 mm" in err


@pytest.mark.parametrize("names,problem", [('[White, "white"]', 'two players named "White" and "white"'),
                                           ('[White, "Black: x"]', "a name"),
                                           ('[White, "Bl\\u202eack"]', "bidi control")])
def test_the_kits_default_names_pass_the_one_name_check(tmp_path, names, problem):
    """A record without `players` plays with the kit's setup names: they pass the check every name
    passes (issue 23), else the kit spec's error at their line (they once gave a game of "White"
    against "white")."""
    from generator.games.cubes import CHECKS
    text = KIT_YAML.read_text().replace("    players: [White, Black]", f"    players: {names}", 1)
    path = tmp_path / "cubes_kit.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as exc:
        CHECKS["cubes-kit"](load_spec(path))
    assert exc.value.field.startswith("setup.two_player.players") and problem in exc.value.message, exc.value
    assert exc.value.line == text[:text.index(f"    players: {names}")].count("\n") + 1


# ---------------------------------------------------------------- each player's pieces, as built

def _sheet_parts(svg_path):
    """A laser sheet's closed cuts (each a ring: a part's outline or a hole) and its engraved
    areas (each path filled even-odd), read from the SVG."""
    root = ET.parse(svg_path).getroot()
    layers = {g.get("id"): g for g in root.iter(SVG + "g")}

    def rings(d):
        out = []
        for sub in re.findall(r"M[^M]*", d):
            nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", sub)]
            out.append(list(zip(nums[::2], nums[1::2])))
        return out
    cuts = [Polygon(r) for p in layers["CUT"].iter(SVG + "path") for r in rings(p.get("d")) if len(r) > 2]
    engraved = []
    for p in layers["ENGRAVE"].iter(SVG + "path"):
        area = Polygon()
        for r in rings(p.get("d")):
            if len(r) > 2:
                area = area.symmetric_difference(Polygon(r).buffer(0))
        engraved.append(area)
    return cuts, engraved


@pytest.mark.parametrize("tag", ["2p", "4p"])
def test_no_two_players_pieces_share_a_look_on_the_laser_kit(output, tag):
    """Read from the cube-stock sheets the build wrote (the pawns share the cubes' stock): each
    pawn plate and king top with what is engraved on it. The pawn plates fall into two looks a
    player (plates A and B), each cut pawns_each times, none shared with another player (players 1
    and 3 once had one look, and every king the same crown); each king's top is its own."""
    kit = load_kit(load_spec(KIT_YAML), tag == "4p")
    pawns, kings = [], []
    for svg in sorted((output / "cubes" / f"kit-{tag}").glob(f"cubes-{tag}-cube-sheet*.svg")):
        cuts, engraved = _sheet_parts(svg)
        tree = STRtree(engraved)

        def look(outline):
            inside = [engraved[i] for i in tree.query(outline, predicate="intersects")]
            inside = [g for g in inside if g.representative_point().within(outline)]
            return round(sum(g.area for g in inside), 1), len(inside)

        def sized(w, h):     # (a pawn B's slot takes 0.3 mm off its head's top)
            return [c for c in cuts if sorted((c.bounds[2] - c.bounds[0], c.bounds[3] - c.bounds[1])) ==
                    pytest.approx(sorted((w + kit.kerf, h + kit.kerf)), abs=0.5)]
        pawns += [look(c) for c in sized(kit.pawn_d, kit.pawn_height)]
        kings += [sig for sig in (look(c) for c in sized(kit.cube, kit.cube)) if sig[1]]   # plain tops: nothing
    assert len(pawns) == 2 * kit.players * kit.pawns_each
    counts = defaultdict(int)
    for sig in pawns:
        counts[sig] += 1
    assert len(counts) == 2 * kit.players and set(counts.values()) == {kit.pawns_each}, counts
    assert len(kings) == kit.kings == kit.players and len(set(kings)) == kit.players, kings


@pytest.mark.parametrize("tag", ["2p", "4p"])
def test_no_two_players_pieces_share_a_look_on_paper(output, tag, tmp_path):
    """Read from the paper pieces' PDF: on the pawns' sheets each pawn carries its player's
    initial, as many as he has pawns, on his colour; no two players share an initial or a colour."""
    import subprocess

    import numpy as np
    from PIL import Image

    from conftest import need
    kit = load_kit(load_spec(KIT_YAML), tag == "4p")
    pdf = output / "cubes" / f"paper-pieces-{tag}-a4.pdf"
    # The pawns' pages: "Pawns" among a page's first three lines (poppler's text of every page at
    # once, a form feed between pages: pypdf's text of each page took 2 s of the test's 2.6)
    text = subprocess.run([need("pdftotext"), "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    pages = [n for n, page in enumerate(text.split("\f"), 1) if "Pawns" in [line.strip() for line in
                                                                           page.split("\n")[:3]]]
    assert pages
    initials, colours = defaultdict(int), defaultdict(list)
    dpi = 100
    for n in pages:
        html = subprocess.run([need("pdftotext"), "-bbox", "-f", str(n), "-l", str(n), str(pdf), "-"],
                              capture_output=True, text=True, check=True).stdout
        stem = tmp_path / f"p{n}"
        subprocess.run([need("pdftoppm"), "-r", str(dpi), "-png", "-singlefile", "-f", str(n), "-l", str(n), str(pdf),
                        str(stem)], check=True)
        im = np.asarray(Image.open(f"{stem}.png").convert("RGB"), dtype=float)
        for x0, y0, x1, y1, word in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                                                 r'([A-Z])<', html):
            initials[word] += 1
            # The pawn's ground, 1.5 mm left of its letter, half way down it.
            px, py = (float(x0) / 72 - 1.5 / 25.4) * dpi, (float(y0) + float(y1)) / 2 / 72 * dpi
            colours[word].append(im[int(py), int(px)])
    names = [player_look(kit, k).initial for k in range(1, kit.players + 1)]
    assert sorted(initials) == sorted(names) and len(set(names)) == kit.players, initials
    assert all(count >= kit.pawns_each for count in initials.values()), initials
    grounds = {w: np.median(np.array(c), axis=0) for w, c in colours.items()}
    for a in grounds:
        for b in grounds:
            if a < b:
                assert np.abs(grounds[a] - grounds[b]).sum() > 60, (a, b, grounds)


@pytest.mark.parametrize("tag", ["2p", "4p"])
def test_the_frame_is_four_jointed_bars_on_an_offcut_the_print_list_names(output, tag):
    """Cut whole, the frame took a 600 x 400 mm sheet of 6 mm plywood for 5 % of it. Read from the
    frame's sheet: four bars, each the frame's width, together the frame's area (the dovetails
    lock into their sockets: the same area); they lie within an offcut that they fill more than
    half of, and the print list's stock for the file is that offcut."""
    kit = load_kit(load_spec(KIT_YAML), tag == "4p")
    folder = output / "cubes" / f"kit-{tag}"
    sheets = sorted(folder.glob(f"cubes-{tag}-frame-sheet*.svg"))
    assert len(sheets) == 1
    cuts, engraved = _sheet_parts(sheets[0])
    assert len(cuts) == 4
    o, w = kit.outer, kit.stop_w
    k = kit.kerf
    for bar in cuts:
        x0, y0, x1, y1 = bar.bounds
        assert sorted((x1 - x0, y1 - y0))[0] == pytest.approx(w + k, abs=0.01)       # the frame's width
        assert sorted((x1 - x0, y1 - y0))[1] < o                                     # shorter than the frame
    frame = o * o - (o - 2 * w) ** 2
    assert sum(c.area for c in cuts) == pytest.approx(frame, rel=0.02)
    assert len(engraved) >= 2 * kit.grid                       # the letters and numbers, on their bars
    x1 = max(c.bounds[2] for c in cuts) + 5
    y1 = max(c.bounds[3] for c in cuts) + 5
    assert frame / (x1 * y1) > 0.5, (x1, y1)
    listing = " ".join((output / "cubes" / "README.txt").read_text(encoding="utf-8").split())
    entry = listing.split(f"kit-{tag}/{sheets[0].name} (or .dxf)", 1)[1][:400]
    assert f"cut from birch plywood 6 mm, an offcut of {x1:.0f} x {y1:.0f} mm" in entry, entry
