"""An index card of each deck, the smallest product this project can hold: proof that a product is
one file. Nothing outside this folder names it; with this folder in PNP_PRODUCTS_PATH, every deck of
every game (and every deck of a user's own) gets `STEM-index-PAPER.pdf`, one page listing its faces
with their counts, in the print list with the rest, and `pnp build --index-columns N` sets it in N
columns."""
from __future__ import annotations

from generator.products.contents import Deck
from generator.products.declaration import ProductDeclaration
from generator.products.pdf import add_pdf

SIZE = 2.8          # mm: the list's text (8 pt)
LEAD = 3.6


def make(deck: Deck, plan, opts) -> None:
    from generator.colour import Colour
    from generator.draw import Drawing
    art, paper = deck.art, opts.paper
    columns = opts.extra.get("index_columns", 3)
    x0, y0, w, h = paper.printable
    page = Drawing(*paper.size)
    ink = Colour(rgb=(0, 0, 0))
    cards = len(art.expanded())
    page.text(x0, y0 + 6, f"{art.title}: {cards} cards, {len(art.faces)} faces", 5.0, ink)
    rows = int((h - 12) // LEAD)
    lines = [caption if "×" in caption else f"×{count}  {caption}" for _, count, caption in art.faces]
    if len(lines) > rows * columns:
        lines = lines[:rows * columns - 1] + [f"and {len(lines) - rows * columns + 1} more"]
    width = w / columns
    for i, line in enumerate(lines):
        col, row = divmod(i, rows)
        page.text(x0 + col * width, y0 + 12 + (row + 1) * LEAD, line[:int(width / (SIZE * 0.55))], SIZE, ink,
                  font="sans")
    add_pdf(plan, f"{art.stem}-index-{paper.name}.pdf", f"{art.title}: index", [page], opts.cmyk,
            what=f"{art.title}: an index card of its {len(art.faces)} faces", paper=paper.name, **PRODUCT.entry)


def options(parser) -> None:
    parser.add_argument("--index-columns", type=int, choices=range(1, 7), metavar="N",
                        help="the decks' index cards in N columns (default 3)")


PRODUCT = ProductDeclaration(name="index-card", takes=(Deck,), files="STEM-index-PAPER.pdf", make=make, rank=95,
                             options=options, entry=dict(stock="paper, any", sides=1, order=95))
