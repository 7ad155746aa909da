"""The sheet: a deck's cards imposed on the build's paper with crop marks, faces and duplex backs,
for home printing (`--layout sheet`)."""
from __future__ import annotations

from .contents import Deck
from .declaration import ProductDeclaration
from .pdf import add_pdf


def make(deck: Deck, plan, opts) -> None:
    from ..layout.cards import impose_cards, sheet_pages
    art, paper = deck.art, opts.paper
    faces = art.expanded()
    with deck.laid_out():
        layout = impose_cards(art.size, *paper.size)
        pages = sheet_pages(faces, art.expanded_backs(), layout, opts.flip, opts.back_offset, art.title)
    add_pdf(plan, f"{art.stem}-sheet-{paper.name}.pdf", f"{art.title}: {len(faces)} cards on {paper.label}", pages,
            opts.cmyk, what=f"{art.title}: {len(faces)} cards, {layout.per_sheet} a sheet, faces and backs",
            flip=opts.flip, paper=paper.name, **PRODUCT.entry)


PRODUCT = ProductDeclaration(
    name="sheet", takes=(Deck,), files="STEM-sheet-PAPER.pdf", make=make, rank=10,
    entry=dict(stock="card stock, 250-300 g/m2", sides=2, order=10, make="print at 100 %; cut on the crop marks",
               step="Cards: print the sheets two-sided, cut on the crop marks.",
               tools=["craft knife or scissors", "metal ruler"]),
    wanted=lambda opts: "sheet" in opts.layouts)
