"""A board's tiles: the board at full size over home sheets of the build's paper, with overlap and
registration half-targets, and a small PNG preview of the whole board."""
from __future__ import annotations

from .contents import Board
from .declaration import ProductDeclaration
from .pdf import add_pdf

PREVIEW_DPI = 50


def make(content: Board, plan, opts) -> None:
    from ..draw.raster import png_bytes
    from ..layout.tiling import tile_pages
    board, title, paper = content.drawing, content.title, opts.paper
    tiles = tile_pages(board, *paper.size, title=title)
    add_pdf(plan, f"{content.stem}-tiles-{paper.name}.pdf", title, tiles, opts.cmyk,
            what=f"{title} in {len(tiles)} tiles", paper=paper.name, **PRODUCT.entry)
    plan.add_bytes(f"{content.stem}.png", lambda: png_bytes(board, dpi=PREVIEW_DPI), what=f"{title}, a preview",
                   preview=True, order=91)


PRODUCT = ProductDeclaration(
    name="tiles", takes=(Board,), files="STEM-tiles-PAPER.pdf, STEM.png", make=make, rank=20,
    entry=dict(stock="paper or thin card, 120-200 g/m2", sides=1, order=30,
               make="print at 100 %; trim the dashed edges, lay each tile over its neighbour so the half-targets "
                    "close, tape",
               step="Board: trim the tiles' dashed edges, lay each over its neighbour so the targets close, "
                    "tape them from behind (or have the large page printed).",
               tools=["craft knife or scissors", "metal ruler", "clear tape"]))
