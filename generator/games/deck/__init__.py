"""Your own deck (`kind: deck`): any card game's cards, from a list in the spec or a CSV beside it,
drawn by named layouts of shapes, text, pictures and icons, with everything the project's own decks
get (the sheet with duplex backs, the shop pages, the contact sheet, the tuck box, the print list).
docs/your-own-deck.md is the spec's reference; `starter/` is a small deck showing every feature.

No spec of this kind ships with the project (`specs` is empty): a deck is built where it is named.
A deck's build may run as two jobs side by side, one for each of PARTS (its PDFs, its contact
sheet), or whole as one (part None).
"""
from __future__ import annotations

from ..declaration import GameDeclaration

TITLE = "Your own deck"
PARTS = ("print", "contact")     # products.py: "contact" its contact sheet, "print" every other product


def check(spec):
    from .load import load_deck
    return load_deck(spec)



GAMES = (GameDeclaration(id="deck", title=TITLE, specs=(), checks={"deck": check},
                         parts={"deck": PARTS}),)
