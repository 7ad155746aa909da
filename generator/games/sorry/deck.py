"""The Sorry pack: the spec as dataclasses, and the faces (the marking readable from every side)."""
from __future__ import annotations

from dataclasses import dataclass

from ...build import DeckArt, stem_of
from ...colour import Colour
from ...draw import Drawing, Style, rotate
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
    pal = {k: spec.colour(("palette", k)) for k in d["palette"]}
    face = {k: spec.colour(("face", k), pal) for k in d.get("face", {})}
    back = {k: spec.colour(("back", k), pal) for k in ("colour", "ink")}
    back["title"] = d["back"]["title"]
    seen = {}
    for i, c in enumerate(d["cards"]):
        if c["marking"] in seen:
            raise spec.error(("cards", i, "marking"), f'"{c["marking"]}" is listed twice (first at cards[{seen[c["marking"]]}])')
        seen[c["marking"]] = i
    deck = SorryDeck(d["title"], CardSize(d["card"]["width"], d["card"]["height"], d["card"]["bleed"]),
                     d["card"].get("corner_radius", 0.0), pal, face, back, d["cards"])
    if "expected_total" in d and deck.total != d["expected_total"]:
        raise spec.error(("expected_total",), f"the cards' counts add up to {deck.total}, not {d['expected_total']}")
    return deck


def draw_face(deck: SorryDeck, card: dict) -> Drawing:
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    paper = deck.face.get("colour", deck.palette["paper"])
    ink = deck.face.get("ink", deck.palette["ink"])
    accent = deck.face.get("accent", deck.palette["red"])
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=accent))
    d.rect(3.5, 3.5, W - 7, H - 7, Style(fill=paper), r=deck.radius)
    mark = card["marking"]
    sorry = mark == "Sorry"
    # The big marking, centred; the word Sorry set smaller to fit across.
    d.fit_text(8, 26, W - 16, 20 if not sorry else 11, mark.upper() if sorry else mark, accent if sorry else ink,
               max_size=40)
    # The marking in each corner, each turned to face one side of the table (the patent's "12").
    small = "S" if sorry else mark
    for turn in (0, 90, 180, 270):
        with d.group(rotate(turn, W / 2, H / 2)):
            if turn in (0, 180):
                d.fit_text(6, 6, 12, 5, small, ink, align="left")
            else:   # the long sides: the corner box turned a quarter, kept inside the panel
                d.fit_text(W / 2 - H / 2 + 6, H / 2 - W / 2 + 6, 10, 4.2, small, ink, align="left")
    d.text_block(8, 54, W - 16, card["rule"], 2.7, ink, font="sans", align="centre")
    return d


def draw_back(deck: SorryDeck) -> Drawing:
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=deck.back["colour"]))
    d.rect(5, 5, W - 10, H - 10, Style(stroke=deck.back["ink"], width=0.8), r=deck.radius)
    for turn in (0, 180):
        with d.group(rotate(turn, W / 2, H / 2)):
            d.fit_text(9, 18, W - 18, 9, deck.back["title"], deck.back["ink"])
    colours = [deck.palette[k] for k in ("red", "blue", "yellow", "green") if k in deck.palette]
    for k, c in enumerate(colours):
        d.circle(W / 2 + (k - 1.5) * 8, H / 2, 3, Style(fill=c, stroke=deck.back["ink"], width=0.4))
    return d


def deck_art(spec: Spec) -> DeckArt:
    deck = load_deck(spec)
    art = DeckArt(stem_of(spec), deck.title, deck.size, back=draw_back(deck))
    for c in deck.cards:
        art.faces.append((draw_face(deck, c), c["count"], f"×{c['count']}  {c['marking']}"))
    return art
