"""The contact sheet: every distinct face and back of a deck once, captioned, as a PNG to look a
deck over (not to print)."""
from __future__ import annotations

from .contents import Deck
from .declaration import ProductDeclaration

DPI = 110.0     # a large deck's sheet is made smaller than this to stay within its contact_pixels


def make(deck: Deck, plan, opts) -> None:
    from ..draw.raster import png_bytes
    from ..layout.cards import contact_sheet
    art = deck.art
    with deck.laid_out():
        sheet = contact_sheet([(f, cap) for f, _, cap in art.faces] + art.distinct_backs(), art.size,
                              title=f"{art.title}: {len(art.expanded())} cards, {len(art.faces)} faces")
    dpi = DPI
    if art.contact_pixels:
        dpi = min(dpi, (art.contact_pixels / (sheet.width / 25.4 * sheet.height / 25.4)) ** 0.5)
    plan.add_bytes(f"{art.stem}-contact.png", lambda: png_bytes(sheet, dpi=dpi, greek_px=art.contact_greek_px),
                   what=f"{art.title}: every face once, to look over", **PRODUCT.entry)


PRODUCT = ProductDeclaration(name="contact", takes=(Deck,), files="STEM-contact.png", make=make, rank=30,
                             entry=dict(preview=True, order=90))
