"""A board's large page: the whole board on one page for a print shop, as a card's shop page: the
page is the trim plus the bleed all round, TrimBox the board, BleedBox the page (PDF/X with --pdfx)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .contents import Board
from .declaration import ProductDeclaration
from .pdf import add_pdf

if TYPE_CHECKING:
    from ..draw import Drawing


def large_page(board: Drawing) -> tuple[Drawing, tuple, tuple]:
    """The board on one page, the art running into the bleed: (page, trim box, bleed box)."""
    from ..draw import Drawing, Rect, Style, translate
    from ..layout.marks import BOARD_BLEED
    b = BOARD_BLEED
    page = Drawing(board.width + 2 * b, board.height + 2 * b)
    page.place(board, translate(b, b), clip=Rect(-b, -b, board.width + 2 * b, board.height + 2 * b, Style()))
    return page, (b, b, board.width, board.height), (0.0, 0.0, page.width, page.height)


def make(content: Board, plan, opts) -> None:
    from ..layout.marks import BOARD_BLEED
    board, title = content.drawing, content.title
    add_pdf(plan, f"{content.stem}-large.pdf", title, [large_page(board)], opts.cmyk, pdfx=opts.pdfx,
            what=f"{title}, whole, {board.width:.0f} x {board.height:.0f} mm with {BOARD_BLEED:g} mm bleed, "
                 "TrimBox, for a print shop", **PRODUCT.entry)


PRODUCT = ProductDeclaration(
    name="large", takes=(Board,), files="STEM-large.pdf", make=make, rank=10,
    entry=dict(shop=True, stock="a print shop's paper or card, mounted on board if you like", order=71))
