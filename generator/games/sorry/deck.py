"""The Sorry pack: the spec as dataclasses, and the faces (the marking readable from every side)."""
from __future__ import annotations

from dataclasses import dataclass

from ...products.contents import DeckArt, stem_of
from ...colour import Colour
from ...draw import Drawing, Style, rotate
from ...draw.drawing import text_block_height
from ...layout.cardsize import CardSize
from ...spec import Spec


@dataclass
class SorryDeck:
    title: str
    size: CardSize
    radius: float
    palette: dict[str, Colour]
    face: dict
    back: dict
    cards: list[dict]

    @property
    def total(self) -> int:
        return sum(c["count"] for c in self.cards)


def load_deck(spec: Spec) -> SorryDeck:
    d = spec.data
    pal = spec.palette(needs=("paper", "ink", "red"))
    face = {k: spec.colour(("face", k), pal) for k in d.get("face", {})}
    back = {k: spec.colour(("back", k), pal) for k in ("colour", "ink")}
    back["title"] = d["back"]["title"]
    seen = {}
    for i, c in enumerate(d["cards"]):
        if c["marking"] in seen:
            raise spec.error(("cards", i, "marking"), f'"{c["marking"]}" is listed twice (first at cards[{seen[c["marking"]]}])')
        seen[c["marking"]] = i
    deck = SorryDeck(d["title"], CardSize.of(d["card"]),
                     d["card"].get("corner_radius", 0.0), pal, face, back, d["cards"])
    if "expected_total" in d and deck.total != d["expected_total"]:
        raise spec.error(("expected_total",), f"the cards' counts add up to {deck.total}, not {d['expected_total']}")
    return deck


RULE_BOX = (11.0, 52.0, 41.0, 23.0)   # x, y, w, h (mm): the rule, clear of the four corner indices
RULE_SIZES = (4.0, 2.6)               # mm: the largest the rule is set at, and the smallest (7.4 pt)


def draw_face(deck: SorryDeck, card: dict) -> Drawing:
    """The marking large in the top half, legible across a table; the card's rule in the bottom
    half, as large as it fits; the marking again in each corner, each turned to face one side of
    the table (the patent's Figure 1, at 12: "readable with equal facility by all players")."""
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    paper = deck.face.get("colour", deck.palette["paper"])
    ink = deck.face.get("ink", deck.palette["ink"])
    accent = deck.face.get("accent", deck.palette["red"])
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=accent))
    d.rect(3.5, 3.5, W - 7, H - 7, Style(fill=paper), r=deck.radius)
    mark = card["marking"]
    sorry = mark == "Sorry"
    # The big marking, centred in the top half; the word Sorry set to the width.
    # (Kept 10 mm in from the sides: the turned corner indices stand in the top corners.)
    box_h = 28.0 if not sorry else 11.0
    d.fit_text(10, 16 + (28.0 - box_h) / 2, W - 20, box_h, mark.upper() if sorry else mark,
               accent if sorry else ink, max_size=60)
    d.line(14, 49, W - 14, 49, Style(stroke=accent, width=0.5))
    small = "S" if sorry else mark
    for turn in (0, 90, 180, 270):
        with d.group(rotate(turn, W / 2, H / 2)):
            if turn in (0, 180):
                d.fit_text(6, 6, 12, 5, small, ink, align="left")
            else:   # the long sides: the corner box turned a quarter, kept inside the panel
                d.fit_text(W / 2 - H / 2 + 6, H / 2 - W / 2 + 6, 10, 4.2, small, ink, align="left")
    x, y, w, h = RULE_BOX
    size = RULE_SIZES[0]
    while size > RULE_SIZES[1] and text_block_height(card["rule"], size, w, leading=1.2) > h:
        size = round(size - 0.1, 2)
    used = text_block_height(card["rule"], size, w, leading=1.2)
    d.text_block(x, y + max(0.0, (h - used) / 2), w, card["rule"], size, ink, font="sans", align="centre",
                 leading=1.2)
    return d


def draw_back(deck: SorryDeck) -> Drawing:
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=deck.back["colour"]))
    d.rect(5, 5, W - 10, H - 10, Style(stroke=deck.back["ink"], width=0.8), r=deck.radius)
    for turn in (0, 180):
        with d.group(rotate(turn, W / 2, H / 2)):
            d.fit_text(9, 18, W - 18, 9, deck.back["title"], deck.back["ink"])
    # The four colours' dots on a band of the paper colour, so a dot of the back's own colour
    # shows as a dot, not as a ring.
    colours = [deck.palette[k] for k in ("red", "blue", "yellow", "green") if k in deck.palette]
    n = len(colours)
    d.rect(W / 2 - 4 * n - 1, H / 2 - 4.5, 8 * n + 2, 9, Style(fill=deck.back["ink"]), r=4.5)
    ink = deck.face.get("ink", deck.palette["ink"])
    for k, c in enumerate(colours):
        d.circle(W / 2 + (k - (n - 1) / 2) * 8, H / 2, 3, Style(fill=c, stroke=ink, width=0.3))
    return d


def deck_art(spec: Spec) -> DeckArt:
    deck = load_deck(spec)
    art = DeckArt(stem_of(spec), deck.title, deck.size, back=draw_back(deck))
    for c in deck.cards:
        art.faces.append((draw_face(deck, c), c["count"], f"×{c['count']}  {c['marking']}"))
    return art
