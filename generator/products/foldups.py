"""Fold-up pieces: a game's pieces to print, cut and fold (Sorry's men, the Cubes' paper pieces),
packed by the game on the build's paper, `NAME-PAPER.pdf`. Pieces too big for the paper are the
spec's error."""
from __future__ import annotations

from .contents import Pieces
from .declaration import ProductDeclaration
from .pdf import add_pdf


def make(pieces: Pieces, plan, opts) -> None:
    from ..layout.cards import LayoutError
    paper = opts.paper
    try:
        pages = pieces.pages(paper)
    except LayoutError as exc:
        raise pieces.spec.error(pieces.field, f"{pieces.fits} do not fit {paper.label} paper ({exc})") from None
    add_pdf(plan, f"{pieces.name}-{paper.name}.pdf", pieces.title, pages, opts.cmyk, paper=paper.name,
            **{**PRODUCT.entry, **pieces.info})


PRODUCT = ProductDeclaration(
    name="fold-ups", takes=(Pieces,), files="NAME-PAPER.pdf", make=make, rank=50,
    entry=dict(stock="card stock, 250-300 g/m2", sides=1, order=40))
