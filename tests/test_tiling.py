"""Tiling a large drawing over home sheets, and the Cubes paper board that uses it."""
import pytest
from pypdf import PdfReader
from shapely.geometry import box
from shapely.ops import unary_union

from conftest import ROOT
from generator.draw import Drawing, Ellipse, Style, apply
from generator.layout.marks import SAFE_MARGIN
from generator.layout.tiling import plan_tiles, tile_pages
from generator.units import PAPER_SIZES


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(334, 334), (600, 250), (150, 150)])
def test_tiles_cover_the_drawing_with_the_overlap(paper, size):
    W, H = size
    plan = plan_tiles(W, H, *PAPER_SIZES[paper], overlap=12)
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
    w, h = PAPER_SIZES["a4"]
    pages = tile_pages(art, w, h, overlap=12)
    plan = plan_tiles(334, 334, w, h, 12)
    # Map each page's targets back to drawing coordinates: the same points on both sides of a join.
    per_tile = []
    for t, page in zip(plan.tiles, pages):
        per_tile.append({(round(x - SAFE_MARGIN + t.x, 3), round(y - SAFE_MARGIN + t.y, 3)) for x, y in _targets(page)})
    left, right = per_tile[0], per_tile[1]
    shared = left & right
    assert len(shared) >= 2 and all(x == pytest.approx(plan.stride_x) for x, _ in shared)


def test_cubes_paper_board(output):
    out = output / "cubes"
    large = PdfReader(out / "paper-board-2p-large.pdf").pages[0]
    k = 72 / 25.4
    board_mm = 10 * 31 + 24  # 10 cells of 30 + 1 mm, and the labels' margins
    b = 3  # the large page's bleed all round; the TrimBox is the board
    assert [float(v) for v in large.mediabox][2:] == pytest.approx([(board_mm + 2 * b) * k] * 2, abs=0.01)
    assert [float(v) for v in large.trimbox] == pytest.approx([b * k, b * k, (board_mm + b) * k, (board_mm + b) * k],
                                                              abs=0.01)
    assert (out / "paper-board-4p-tiles-a4.pdf").exists() and (out / "paper-board-2p.png").exists()
    # On Letter, the 334 mm board takes 2 x 2 sheets.
    from generator.games.cubes.kit import load_kit
    from generator.games.cubes.paper import paper_board
    from generator.spec import load_spec
    board = paper_board(load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml")))
    assert len(tile_pages(board, *PAPER_SIZES["letter"], title="Cubes")) == 4
