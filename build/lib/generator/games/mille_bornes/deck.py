"""The Mille Bornes deck spec, as dataclasses, with the checks a schema cannot make."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...colour import Colour
from ...layout.cardsize import CardSize
from ...spec import Spec
from .symbols import NUMBERED_SYMBOLS, PALETTE_NAMES, SYMBOLS


@dataclass(frozen=True)
class Category:
    key: str
    label: str
    colour: Colour
    panel: Colour
    ink: Colour
    bar: Colour | None


@dataclass(frozen=True)
class MilleBornesCard:
    id: str
    name: str
    category: Category
    count: int
    symbol: str
    index: str
    rule: str | None = None
    miles: int | None = None
    numeral_colours: tuple[Colour, ...] = ()
    points: int | None = None
    limit: int | None = None


@dataclass
class Back:
    colour: Colour
    ink: Colour
    accent: Colour
    title: str
    subtitle: str | None


@dataclass
class MilleBornesDeck:
    spec: Spec
    title: str
    size: CardSize
    corner_radius: float
    palette: dict[str, Colour]
    categories: dict[str, Category]
    back: Back
    cards: list[MilleBornesCard] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(c.count for c in self.cards)

    def expanded(self) -> list[MilleBornesCard]:
        """One entry per physical card, in deck order."""
        return [c for c in self.cards for _ in range(c.count)]


def load_deck(spec: Spec) -> MilleBornesDeck:
    data = spec.data
    palette = {name: spec.colour(("palette", name)) for name in data["palette"]}
    missing = [n for n in PALETTE_NAMES if n not in palette]
    if missing:
        raise spec.error(("palette",), f"the symbols need these palette colours: {', '.join(missing)}")
    cats = {}
    for key, c in data["categories"].items():
        p = ("categories", key)
        colour = spec.colour(p + ("colour",), palette)
        cats[key] = Category(
            key, c["label"], colour,
            spec.colour(p + ("panel",), palette) if "panel" in c else palette["white"],
            spec.colour(p + ("ink",), palette) if "ink" in c else colour,
            spec.colour(p + ("bar",), palette) if "bar" in c else None)
    b = data["back"]
    back = Back(spec.colour(("back", "colour"), palette), spec.colour(("back", "ink"), palette),
                spec.colour(("back", "accent"), palette) if "accent" in b else palette["white"],
                b["title"], b.get("subtitle"))
    size = CardSize.of(data["card"])
    deck = MilleBornesDeck(spec, data["title"], size, data["card"].get("corner_radius", 0.0),
                           palette, cats, back)
    seen: dict[str, int] = {}
    for i, c in enumerate(data["cards"]):
        p = ("cards", i)
        if c["id"] in seen:
            raise spec.error(p + ("id",), f'duplicate card id "{c["id"]}" (first at cards[{seen[c["id"]]}])')
        seen[c["id"]] = i
        if c["category"] not in cats:
            raise spec.error(p + ("category",), f'category "{c["category"]}" is not defined under categories')
        if c["category"] == "progress":
            for need in ("miles", "numeral_colours"):
                if need not in c:
                    raise spec.error(p + (need,), "missing required key (progress cards need miles and numeral_colours)")
        if c["category"] == "precedence" and "points" not in c:
            raise spec.error(p + ("points",), "missing required key (precedence cards carry their bonus)")
        if c["symbol"] in NUMBERED_SYMBOLS and "limit" not in c:
            raise spec.error(p + ("limit",), f'missing required key (the {c["symbol"]} sign shows a number)')
        if c["symbol"] not in SYMBOLS and c["symbol"] not in NUMBERED_SYMBOLS:
            raise spec.error(p + ("symbol",), f'no drawing for symbol "{c["symbol"]}"')
        numerals = tuple(spec.colour(p + ("numeral_colours", k), palette)
                         for k in range(len(c.get("numeral_colours", []))))
        deck.cards.append(MilleBornesCard(c["id"], c["name"], cats[c["category"]], c["count"], c["symbol"],
                                          c["index"], c.get("rule"), c.get("miles"), numerals,
                                          c.get("points"), c.get("limit")))
    if "expected_total" in data and deck.total != data["expected_total"]:
        raise spec.error(("expected_total",),
                         f"the cards' counts add up to {deck.total}, not {data['expected_total']}")
    return deck
