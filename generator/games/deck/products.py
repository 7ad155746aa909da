"""What a `kind: deck` spec holds: a deck, which gets what every deck gets (the sheet with duplex
backs, the shop pages, the PNG contact sheet, the tuck box: generator/products/), from the cards
load.load_deck has read and drawn."""
from __future__ import annotations

from collections import Counter

from ...colour import BLACK, WHITE, parse_colour, readable_on
from ...errors import SpecError, show
from ...paper import Paper
from ...products.contents import BoxLook, Deck, DeckArt, stem_of
from .load import load_deck

# The contact sheet's pixels at most: every distinct face at 110 dpi while that is at most this
# (about 100 faces of 63 x 88 mm), less for more (1,000 faces at 38 dpi, a card 95 px wide), and
# text smaller than CONTACT_GREEK_PX drawn as grey bars: a picture to look a deck over (its colours,
# art, titles), made in a second or two, not a print.
CONTACT_PIXELS = 16_000_000
CONTACT_GREEK_PX = 6.0


def _try_pictures(spec, deck) -> None:
    """Each SVG the deck draws, drawn once small, here in the job's worker process (never in the
    command's own, which a signal must stop at once): one cairosvg cannot draw is the error of the
    line that names it, in `validate` as in `build`."""
    from ...draw.images import Picture, PictureError, try_drawing
    for rel, picture in list(deck.pictures.items()):
        if isinstance(picture, Picture):
            try:
                try_drawing(picture)
            except PictureError as exc:
                where = spec.field_showing(rel)
                message = f"{show(rel)}: {exc}"
                raise (spec.error(where, message) if where else SpecError(spec.file, None, "", message)) from None


def deck_fonts(deck) -> list[str]:
    """The deck's own fonts (not the shipped one), regular then bold, in the spec's order."""
    return [name for family_name, family in deck.families.items() if family_name != "sans"
            for name in (family.regular, family.bold)]


def deck_art(spec) -> DeckArt:
    deck = load_deck(spec)
    drawn = deck.art
    art = DeckArt(stem_of(spec), deck.title, deck.size, contact_pixels=CONTACT_PIXELS,
                  contact_greek_px=CONTACT_GREEK_PX, product=spec.data["card"].get("product"))
    from ...draw.fonts import MissingLetter, text_width
    for card, face in zip(deck.cards, drawn.faces):
        key = "name" if card.fields.get("name") else "title" if card.fields.get("title") else None
        name = card.fields[key] if key else f"card {card.number}"
        caption = f"×{card.count}  {name}"
        try:
            text_width("sans", caption, 1.0)      # the contact sheet's caption: every letter in a font
        except MissingLetter as exc:
            raise card.error(key, f"{card.label()}: on the contact sheet, {exc}") from None
        art.faces.append((face, card.count, caption))
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
    from ...draw.fonts import set_fallbacks
    out = []
    for spec in specs.values():
        if spec.kind != "deck":
            continue
        # The deck's own fonts set what the shipped one lacks on its box, its contact sheet's
        # captions and its print list (a Japanese title in a deck with a Japanese font).
        deck = load_deck(spec)
        set_fallbacks(deck_fonts(deck))
        if part != "contact":           # (once a build: by the job of its PDFs)
            _try_pictures(spec, deck)
        art = deck_art(spec)
        out.append(Deck(spec, art, None if spec.data.get("tuck_box") is False else _box(spec),
                        only=(CONTACT,) if part == "contact" else None, skip=(CONTACT,) if part == "print" else ()))
    return out
