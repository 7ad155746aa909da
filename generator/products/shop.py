"""The shop PDF: a deck for a print shop, one card a page with 3 mm bleed and its TrimBox
(`--layout shop`; PDF/X-1a with `--pdfx`; faces then backs, or interleaved with `--interleave`)."""
from __future__ import annotations

from .contents import Deck
from .declaration import ProductDeclaration
from .pdf import add_pdf


def make(deck: Deck, plan, opts) -> None:
    from ..layout.cards import shop_pages
    art = deck.art
    faces = art.expanded()
    with deck.laid_out():
        pages = shop_pages(faces, art.expanded_backs(), art.size, opts.interleave)
    add_pdf(plan, f"{art.stem}-shop.pdf", f"{art.title}: {len(faces)} cards, one a page with bleed", pages,
            opts.cmyk, pdfx=opts.pdfx,
            what=f"{art.title} for a print shop: one card a page, 3 mm bleed, TrimBox", **PRODUCT.entry)


PRODUCT = ProductDeclaration(
    name="shop", takes=(Deck,), files="STEM-shop.pdf", make=make, rank=20,
    entry=dict(stock="a print shop's card stock", shop=True, order=70),
    wanted=lambda opts: "shop" in opts.layouts)
