"""What a `kind: deck` spec holds: a deck, which gets what every deck gets (the sheet with duplex
backs, the shop pages, the PNG contact sheet, the tuck box: generator/products/), from the cards
load.load_deck has read and drawn."""
from __future__ import annotations

from collections import Counter

from ...colour import BLACK, WHITE, parse_colour, readable_on
from ...paper import Paper
from ...products.contents import BoxLook, Deck, DeckArt, stem_of
from .load import load_deck

# The contact sheet's pixels at most: every distinct face at 110 dpi while that is at most this
# (about 100 faces of 63 x 88 mm), less for more (1,000 faces at 38 dpi, a card 95 px wide), and
# text smaller than CONTACT_GREEK_PX drawn as grey bars: a picture to look a deck over (its colours,
# art, titles), made in a second or two, not a print.
CONTACT_PIXELS = 16_000_000
CONTACT_GREEK_PX = 6.0


def deck_art(spec) -> DeckArt:
    deck = load_deck(spec)
    drawn = deck.art
    art = DeckArt(stem_of(spec), deck.title, deck.size, contact_pixels=CONTACT_PIXELS,
                  contact_greek_px=CONTACT_GREEK_PX)
    for card, face in zip(deck.cards, drawn.faces):
        name = card.fields.get("name") or card.fields.get("title") or f"card {card.number}"
        art.faces.append((face, card.count, f"×{card.count}  {name}"))
    # The back most cards have is the deck's (the tuck box shows it); where cards differ, each
    # card's own goes behind it.
    weight = Counter()
    for card, back in zip(deck.cards, drawn.backs):
        weight[id(back)] += card.count
    by_id = {id(b): b for b in drawn.backs}
    art.back = by_id[weight.most_common(1)[0][0]]
    if len(by_id) > 1:
        art.backs = [(back, f"back: {name}") for back, name in zip(drawn.backs, drawn.back_layouts)]
    return art


def _box(spec) -> BoxLook:
    """The box's colour (the spec's box.colour, else the back's background, else white) and its ink."""
    deck = load_deck(spec)
    box = spec.data.get("box", {})
    if "colour" in box:
        colour = spec.colour(("box", "colour"), deck.palette)
    else:
        colour = WHITE
        back = deck.layouts.get(deck.back_template)
        if back is not None and back.background and "{" not in back.background:
            colour = parse_colour(back.background, deck.palette)
    ink = spec.colour(("box", "ink"), deck.palette) if "ink" in box else readable_on(colour, BLACK, WHITE)
    return BoxLook(colour, ink)


# A deck's build in two parts that can run side by side (two jobs, on two cores): its contact
# sheet, and everything else (the sheet, the shop pages, the tuck box, any product added), about
# as long for a large deck.
CONTACT = "contact"


def contents(specs: dict, paper: Paper, part: str | None = None) -> list:
    """Each deck spec's deck, for every product (part None), for its contact sheet alone
    (part "contact") or for every other product (part "print")."""
    out = []
    for spec in specs.values():
        if spec.kind != "deck":
            continue
        art = deck_art(spec)
        out.append(Deck(spec, art, None if spec.data.get("tuck_box") is False else _box(spec),
                        only=(CONTACT,) if part == "contact" else None, skip=(CONTACT,) if part == "print" else ()))
    return out
