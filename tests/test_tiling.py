"""Tiling a large drawing over home sheets, and the Cubes paper board that uses it."""
import pytest
from pypdf import PdfReader
from shapely.geometry import box
from shapely.ops import unary_union

from conftest import ROOT
from generator.draw import Drawing, Ellipse, Style, apply
from generator.layout.marks import SAFE_MARGIN
from generator.layout.tiling import GAP, pack_tiles, plan_tiles, tile_pages
from generator.paper import PAPERS


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(334, 334), (600, 250), (150, 150)])
def test_tiles_cover_the_drawing_with_the_overlap(paper, size):
    W, H = size
    plan = plan_tiles(W, H, *PAPERS[paper].size, overlap=12)
    windows = [box(t.x, t.y, t.x + t.w, t.y + t.h) for t in plan.tiles]
    assert unary_union(windows).equals(box(0, 0, W, H))
    for t in plan.tiles:  # every window fits inside the safe area of its sheet
        assert t.w <= plan.page_w - 2 * SAFE_MARGIN and t.h <= plan.page_h - 2 * SAFE_MARGIN
    for a in plan.tiles:  # horizontal neighbours share exactly the overlap
        for b in plan.tiles:
            if b.row == a.row and b.col == a.col + 1:
                assert a.x + a.w - b.x == pytest.approx(12)
    if (W, H) == (150, 150):
        assert len(plan.tiles) == 1


def _targets(page):
    """Centres of registration targets (their circles) on a page, in page mm."""
    out = []

    def walk(group, m):
        from generator.draw import compose
        m = compose(m, group.transform)
        for it in group.items:
            if hasattr(it, "items"):
                walk(it, m)
            elif isinstance(it, Ellipse) and it.style.stroke is not None and it.style.fill is None:
                out.append(apply(m, it.cx, it.cy))
    walk(page.root, (1, 0, 0, 1, 0, 0))
    return out


def test_neighbours_share_their_targets():
    art = Drawing(334, 334)
    art.rect(0, 0, 334, 334, Style(fill=None, stroke=None))
    w, h = PAPERS["a4"].size
    pages = tile_pages(art, w, h, overlap=12)
    plan = plan_tiles(334, 334, w, h, 12)
    count, placed = pack_tiles(plan)
    assert len(pages) == count
    # Map each window's targets back to drawing coordinates: the same points on both sides of a join.
    per_tile = {}
    for p in placed:
        t = p.tile
        near = [(x, y) for x, y in _targets(pages[p.sheet])
                if p.x - 4 <= x <= p.x + t.w + 4 and p.y - 4 <= y <= p.y + t.h + 4]
        per_tile[(t.row, t.col)] = {(round(x - p.x + t.x, 3), round(y - p.y + t.y, 3)) for x, y in near}
    for (a, b), along in ((((0, 0), (0, 1)), "x"), (((0, 0), (1, 0)), "y"), (((1, 0), (1, 1)), "x")):
        shared = per_tile[a] & per_tile[b]
        stride = plan.stride_x if along == "x" else plan.stride_y
        assert len(shared) >= 2 and all((x if along == "x" else y) == pytest.approx(stride) for x, y in shared)


def test_small_windows_share_a_sheet_and_nothing_overlaps():
    """The 334 mm board on A4: two full windows, and the two strips of its last row on one sheet,
    each window with its caption inside the sheet's safe area, apart from the other by the gap."""
    w, h = PAPERS["a4"].size
    plan = plan_tiles(334, 334, w, h, 12)
    count, placed = pack_tiles(plan)
    assert (len(plan.tiles), count) == (4, 3)
    for p in placed:
        assert SAFE_MARGIN <= p.x and p.x + p.tile.w <= plan.page_w - SAFE_MARGIN
        assert SAFE_MARGIN <= p.y and p.y + p.tile.h + p.caption_h <= plan.page_h - SAFE_MARGIN
    last = [p for p in placed if p.sheet == 2]
    assert len(last) == 2
    upper, lower = sorted(last, key=lambda p: p.y)
    assert lower.y - (upper.y + upper.tile.h + upper.caption_h) >= GAP


def test_cubes_paper_board(output):
    out = output / "cubes"
    large = PdfReader(out / "paper-board-2p-large.pdf").pages[0]
    k = 72 / 25.4
    board_mm = 10 * 31 + 24  # 10 cells of 30 + 1 mm, and the labels' margins
    b = 3  # the large page's bleed all round; the TrimBox is the board
    trim = [float(v) for v in large.trimbox]
    assert trim[2] - trim[0] == pytest.approx(board_mm * k, abs=0.01)
    assert trim[3] - trim[1] > board_mm * k                       # the set-up's key under the board
    assert [float(v) for v in large.mediabox] == pytest.approx([0, 0, trim[2] + b * k, trim[3] + b * k], abs=0.01)
    assert (out / "paper-board-4p-tiles-a4.pdf").exists() and (out / "paper-board-2p.png").exists()
    # On A4 and Letter, the board takes 3 sheets: its last row's two strips share one.
    assert len(PdfReader(out / "paper-board-2p-tiles-a4.pdf").pages) == 3
    board = _board(four=False)
    assert len(tile_pages(board, *PAPERS["letter"].size, title="Cubes")) == 3


def _board(four: bool):
    from generator.games.cubes.kit import load_kit
    from generator.games.cubes.paper import paper_board
    from generator.games.cubes.referee import setup_position
    from generator.spec import load_spec
    spec = load_spec(ROOT / "boards" / "cubes_kit.yaml")
    return paper_board(load_kit(spec, four), *setup_position(spec, four))


@pytest.mark.parametrize("four, kings, pawns", [(False, 2, 18), (True, 4, 20)])
def test_the_paper_board_shows_the_set_up(four, kings, pawns):
    """A crown on each king cube's cell and a ring on each pawn's, each with its player's initial."""
    from generator.draw import Path, Text
    from generator.games.cubes.paper import SETUP
    items = []

    def walk(group):
        for it in group.items:
            if hasattr(it, "items"):
                walk(it)
            else:
                items.append(it)
    walk(_board(four).root)
    crowns = [it for it in items if isinstance(it, Path) and it.style.stroke == SETUP]
    rings = [it for it in items if isinstance(it, Ellipse) and it.style.stroke == SETUP]
    initials = [it.text for it in items if isinstance(it, Text) and it.fill == SETUP]
    assert (len(crowns), len(rings)) == (kings, pawns)
    assert len(initials) == kings + pawns
    assert set(initials) == ({"W", "B"} if not four else {"S", "W", "N", "E"})
