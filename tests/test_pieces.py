"""Printed pieces: Sorry's men, the Cubes paper pieces and set-up, the Capitals wall rack. Counts of
pieces, their sizes against the boards', that their nets fold, and the smallest text."""
import math
import shutil

import pytest

from generator.paper import PAPERS
from pypdf import PdfReader

from conftest import ROOT, drawn_items
from fuzzing import run_cli
from generator.draw import Ellipse, Path, Text
from generator.layout.foldups import CUT, cuboid, standing_height, tent
from generator.spec import load_spec
from generator.units import pt


def board(name: str):
    """A shipped board spec, read when a test asks (not at collection, in every test process; the
    loader keeps what it has read)."""
    return load_spec(ROOT / "boards" / f"{name}.yaml")


def cut_boxes(page) -> list[tuple[float, float]]:
    """The sizes (w, h) of every outline drawn in the cut style: one a piece."""
    out = []
    for item, _ in drawn_items(page.root):
        if isinstance(item, Path) and item.style == CUT:
            xs = [op[1] for op in item.ops if op[0] in "ML"]
            ys = [op[2] for op in item.ops if op[0] in "ML"]
            out.append((round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2)))
    return out


def smallest_text(pages) -> float:
    sizes = [item.size * math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
             for p in pages for item, m in drawn_items(p.root) if isinstance(item, Text)]
    assert sizes
    return min(sizes)


# ---------------------------------------------------------------- Sorry

def test_a_man_fits_a_division_and_stands_as_tall_as_the_spec_says():
    from generator.games.sorry.pieces import load_men, standee
    men = load_men(board("sorry"))
    assert men.square == board("sorry").data["square"] == 30
    net = standee(men)
    front = net.face("front").region.bounds
    assert standing_height(men.width, men.depth, front[3] - front[1]) == pytest.approx(men.height)
    assert men.width <= men.square and men.depth <= men.square and men.token <= men.square
    # Four men stand in a start (a circle of 1.05 squares' radius on the board): their floors, two by
    # two, lie within it.
    r = 1.05 * men.square
    assert math.hypot(men.width + 1, men.depth + 1) <= r


def test_sixteen_men_four_of_each_colour():
    from generator.games.sorry.pieces import load_men, men_pages, standee
    men = load_men(board("sorry"))
    pages = men_pages(men, PAPERS["a4"], "Sorry")
    assert len(pages) == 2                       # standees, then the tokens instead
    net = standee(men)
    w, h = (round(v, 2) for v in net.size)
    assert cut_boxes(pages[0]).count((w, h)) == 16
    tokens = [e for e, _ in drawn_items(pages[1].root) if isinstance(e, Ellipse) and e.rx == pytest.approx(men.token / 2)]
    assert len(tokens) == 16
    for _, colour in men.colours:
        assert sum(1 for t in tokens if t.style.fill == colour) == 4
    assert smallest_text(pages) >= pt(6)


def test_a_man_larger_than_a_division_is_refused_at_its_line(tmp_path):
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    path = tmp_path / "boards" / "sorry.yaml"
    text = path.read_text()
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("men:"))
    path.write_text(text.replace("token: 24", "token: 31"))
    code, _, err, _ = run_cli(["validate", "boards/sorry.yaml"], tmp_path)
    assert code == 1 and f"boards/sorry.yaml:{line}: men.token: is 31 mm: a man must fit a division" in err, err


def test_the_men_pdf_is_built(output):
    pdf = PdfReader(output / "sorry" / "sorry-men-a4.pdf")
    assert len(pdf.pages) == 2


# ---------------------------------------------------------------- fold-ups

@pytest.mark.parametrize("w,d,h", [(30, 30, 30), (30, 30, 54), (12, 20, 8)])
def test_a_cuboid_net_folds_into_its_box(w, d, h):
    net = cuboid(w, d, h)
    faces = {f.name: f.region.bounds for f in net.faces}
    sizes = {k: (round(b[2] - b[0], 6), round(b[3] - b[1], 6)) for k, b in faces.items()}
    assert [sizes[f"wall {k}"] for k in (1, 2, 3, 4)] == [(w, h), (d, h), (w, h), (d, h)]
    assert sizes["top"] == sizes["bottom"] == (w, d)
    # The walls run round the box once: the seam tab starts where the fourth wall ends, 2(w + d) on.
    walls_end = faces["wall 4"][2] - faces["wall 1"][0]
    assert walls_end == pytest.approx(2 * (w + d))
    # Top and bottom hinge on the first wall: they share its edges.
    assert faces["top"][3] == pytest.approx(faces["wall 1"][1]) and faces["bottom"][1] == pytest.approx(faces["wall 1"][3])
    # Six faces, seven tabs (a seam, three under the top, three under the bottom), one fold per shared edge.
    assert len(net.faces) == 6 and len(net.glue) == 7 and len(net.folds) == 3 + 2 + 6 + 1
    assert net.outline.is_valid and net.outline.geom_type == "Polygon"


def test_a_tent_standee_stands_on_its_floor():
    net = tent(12, 25, 7)
    front, back = net.face("front").region.bounds, net.face("back").region.bounds
    face = front[3] - front[1]
    assert face == pytest.approx(back[3] - back[1]) == pytest.approx(math.hypot(25, 3.5))
    assert standing_height(12, 7, face) == pytest.approx(25)
    # The ridge joins the faces at the head's top; the feet fold at the bottom of each face.
    ys = sorted(round(l.coords[0][1], 6) for l in net.folds)
    assert ys == pytest.approx([back[1], front[1], front[3]])
    assert net.size[0] == pytest.approx(12)


# ---------------------------------------------------------------- Cubes

@pytest.mark.parametrize("four", [False, True])
def test_paper_pieces_are_the_kits_counts_and_sizes(four):
    from generator.games.cubes.paper_pieces import load_pieces, pieces_pages
    pp = load_pieces(board("cubes_kit"), four)
    k = pp.kit
    assert (k.cube, k.king_height, k.pawn_height, k.pawn_d) == (30, 54, 25, 12)     # the patent's sizes
    pages = pieces_pages(pp, PAPERS["a4"])
    boxes = [b for p in pages for b in cut_boxes(p)]
    cube, king, pawn = cuboid(30, 30, 30), cuboid(30, 30, 54), tent(12, 25, pp.pawn_depth)

    def count(net):
        return boxes.count(tuple(round(v, 2) for v in net.size))
    assert count(cube) == k.cubes - k.kings == (45 if four else 34)
    assert count(king) == k.kings == (4 if four else 2)
    assert count(pawn) == k.players * k.pawns_each == (20 if four else 18)
    assert pawn.size[0] == pytest.approx(12) and pp.pawn_depth <= 12
    assert smallest_text(pages) >= pt(6)
    # The last sheet shows the set-up: each player's king cube and pawns by cell.
    texts = [t.text for t, _ in drawn_items(pages[-1].root) if isinstance(t, Text)]
    for p, (name, _) in enumerate(pp.players):
        line = next(t for t in texts if t.startswith(f"{name}: king cube"))
        assert pp.setup["kings"][p] in line and all(c in line for c in pp.setup["pawns"][p])


def test_the_pieces_pdfs_are_built(output):
    for tag in ("2p", "4p"):
        assert len(PdfReader(output / "cubes" / f"paper-pieces-{tag}-a4.pdf").pages) >= 10


# ---------------------------------------------------------------- Capitals

def test_the_wall_rack_has_a_lane_per_length_as_long_as_its_pieces():
    from generator.draw import Rect
    from generator.games.capitals.sorting import LANE, rack_pages
    from generator.games.capitals.walls import load_walls
    ws = load_walls(board("capitals_walls"))
    pages = rack_pages(ws, PAPERS["a4"])
    assert len(pages) == 1 and len(rack_pages(ws, PAPERS["letter"])) == 1
    lanes = sorted(round(r.w, 3) for r, _ in drawn_items(pages[0].root) if isinstance(r, Rect) and r.style.fill == LANE)
    assert lanes == sorted(round(u * ws.square + 2 * ws.extension, 3) for u in ws.counts)
    texts = [t.text for t, _ in drawn_items(pages[0].root) if isinstance(t, Text)]
    for units, n in ws.counts.items():
        assert f"{n} piece{'s' if n > 1 else ''}" in texts
    assert sum(ws.counts.values()) == 123
    assert smallest_text(pages) >= pt(6)


def test_a_fold_shows_on_the_face_and_on_the_white_glue_foot():
    """Sorry's men: each fold line a dark shade of the man's colour (3:1 or more against white, the
    glue foot's card) over a pale line (it shows on the coloured face too)."""
    from generator.colour import WHITE, contrast_ratio
    from generator.draw import Path
    from generator.games.sorry.pieces import load_men, men_pages
    men = load_men(load_spec(ROOT / "boards" / "sorry.yaml"))
    page = men_pages(men, PAPERS["a4"], "Sorry")[0]
    dashed = [it for it, _ in drawn_items(page.root) if isinstance(it, Path) and it.style.dash]
    under = [it for it, _ in drawn_items(page.root) if isinstance(it, Path) and it.style.stroke == WHITE and not it.style.dash]
    assert dashed and len(under) >= len([d for d in dashed if d.style.stroke != WHITE])
    for d in dashed:
        assert contrast_ratio(d.style.stroke, WHITE) >= 3.0, d.style.stroke.hex()


def test_the_king_cubes_crown_reads_the_same_way_on_its_top_as_on_its_walls():
    """The top folds back over the box from the first wall's top edge, so its far edge in the net
    goes to the back: its art reads upright from the front, as the walls' do (turned, it was
    upside down against them)."""
    from generator.layout.foldups import cuboid
    net = cuboid(30, 30, 54)
    turns = {f.name: f.turn for f in net.faces}
    assert turns["top"] == turns["wall 1"] == 0.0
    top, wall = net.face("top").region.bounds, net.face("wall 1").region.bounds
    assert top[3] == pytest.approx(wall[1]) and top[0] == pytest.approx(wall[0])   # hinged on wall 1's top edge
