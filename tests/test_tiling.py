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
    from conftest import drawn_items
    return [apply(m, it.cx, it.cy) for it, m in drawn_items(page.root)
            if isinstance(it, Ellipse) and it.style.stroke is not None and it.style.fill is None]


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


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(808, 387), (334, 334), (600, 250)])
def test_the_columns_share_the_width_evenly(paper, size):
    """No sheet carries a sliver: Capitals' map on Letter left its last column two squares wide
    (sheets 4 and 8, 85 % blank). Every column's window is as wide as the others."""
    plan = plan_tiles(*size, *PAPERS[paper].size, overlap=12)
    widths = {round(t.w, 6) for t in plan.tiles}
    assert len(widths) == 1, widths


@pytest.fixture(scope="module")
def capitals_map():
    """The Capitals map, drawn once for both papers (tiling places it, never changes it)."""
    from generator.games.capitals.board import draw_board
    from generator.games.capitals.data import load_board
    from generator.spec import load_spec
    return draw_board(load_board(load_spec(ROOT / "boards" / "capitals_world_map.yaml")))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_registration_target_prints_over_the_maps_text(paper, capitals_map):
    """The half-targets of Capitals' tiles (sheet 7 of A4) printed over the map's column numbers:
    on every sheet, no target (its circle and cross) touches a piece of the map's text that the
    sheet prints (within its window)."""
    from generator.draw.drawing import Text, compose
    pages = tile_pages(capitals_map, *PAPERS[paper].size, title="Capitals board")
    touched = []
    for n, page in enumerate(pages, 1):
        texts, targets = [], []

        def walk(group, m, clip):
            m = compose(m, group.transform)
            if group.clip is not None:
                c = group.clip
                (x0, y0), (x1, y1) = apply(m, c.x, c.y), apply(m, c.x + c.w, c.y + c.h)
                clip = box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
            for it in group.items:
                if hasattr(it, "items"):
                    walk(it, m, clip)
                elif isinstance(it, Text) and it.text.strip():
                    w = it.font.width(it.text, it.size)
                    (x0, y0), (x1, y1) = apply(m, it.x, it.y - it.size * 0.72), apply(m, it.x + w, it.y)
                    shape = box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
                    if clip is not None:
                        shape = shape.intersection(clip)
                    if not shape.is_empty and shape.area > 0.5:
                        texts.append((it.text, it.size * abs(m[3]), shape))
                elif isinstance(it, Ellipse) and abs(it.rx - 1.8) < 1e-6:
                    targets.append(box(*apply(m, it.cx - 3.0, it.cy - 3.0), *apply(m, it.cx + 3.0, it.cy + 3.0)))
        walk(page.root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), None)
        assert targets
        touched += [(n, t, size) for t, size, shape in texts if any(shape.intersects(tg) for tg in targets)]
    # The key's small print on the strip of the last row may meet a column join's target where the
    # strip leaves no room; the map's column numbers and row letters (its large print) never.
    assert not [(n, t) for n, t, size in touched if size >= 4.0], touched
