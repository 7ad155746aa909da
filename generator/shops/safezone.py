"""A shop's safe zone checked: the text and icons of a card side that lie within the shop's safe
margin of the trim (where its cutter may take them off), by card and element.

What is checked is what a reader would miss: every text (its ink box from the font's ascent and
descent and its advance width) and every picture that does not run out to an edge of the trim (a
picture that does is the card's art, carried into the bleed on purpose). Shapes (frames, bands,
backgrounds) are design, not information: a border cut a little off is still a border.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..draw.drawing import Group, Image, Text, apply, compose

EDGE = 0.01   # mm: a picture within this of the trim's edge is art carried into the bleed


@dataclass(frozen=True)
class Finding:
    card: str          # the card, as the deck's caption names it ("×10  25 miles", "back")
    element: str       # the text, or "a picture"
    distance: float    # mm from the product's trim, inside (negative: past it)

    def line(self) -> str:
        where = "past the trim" if self.distance < 0 else f"{self.distance:.1f} mm from the trim"
        return f"{self.card}: {self.element} {where}"


def _items(group: Group, m):
    m = compose(m, group.transform)
    for item in group.items:
        if isinstance(item, Group):
            yield from _items(item, m)
        else:
            yield item, m


def _box(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _ink(item: Text) -> list[tuple[float, float]]:
    """The corners of a text's ink: its glyphs' outlines (their points bound the curves), or, for
    a font whose outlines cannot be read, its advance width and the font's ascent and descent."""
    from ..draw.fonts import text_outline
    try:
        pts = [(op[i], op[i + 1]) for op in text_outline(item.font, item.text, item.x, item.y, item.size,
                                                         item.direction, item.context)
               for i in range(1, len(op) - 1, 2)]
    except Exception:  # noqa: BLE001  (a font read from a spec's folder: the metrics will do)
        pts = []
    if pts:
        x0, y0, x1, y1 = _box(pts)
    else:
        x0, x1 = item.x, item.x + item.font.width(item.text, item.size)
        y0, y1 = item.y - item.font.ascent * item.size, item.y - item.font.descent * item.size
    return [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]


def element_boxes(side, card_w: float, card_h: float):
    """(what, box in the card's mm) of every text and every icon-like picture of a card side."""
    for item, m in _items(side.root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
        if isinstance(item, Text):
            if not item.text.strip():
                continue
            corners = [apply(m, x, y) for x, y in _ink(item)]
            text = item.text if len(item.text) <= 30 else item.text[:29] + "…"
            yield f"text {text!r}", _box(corners)
        elif isinstance(item, Image):
            box = _box([apply(m, x, y) for x in (item.x, item.x + item.w) for y in (item.y, item.y + item.h)])
            if box[0] <= EDGE or box[1] <= EDGE or box[2] >= card_w - EDGE or box[3] >= card_h - EDGE:
                continue     # art to the edge and into the bleed
            yield "a picture", box


def check_side(side, caption: str, card_w: float, card_h: float, margin: float,
               to_product=None) -> list[Finding]:
    """What of this side lies within `margin` mm of the trim. to_product: card mm -> product mm
    (a card fitted to a product a little larger or smaller: its trim is then the product's),
    given as (scale, product width, product height)."""
    found = []
    s, pw, ph = to_product or (1.0, card_w, card_h)
    ox, oy = (pw - s * card_w) / 2, (ph - s * card_h) / 2
    for what, (x0, y0, x1, y1) in element_boxes(side, card_w, card_h):
        x0, x1 = ox + s * x0, ox + s * x1
        y0, y1 = oy + s * y0, oy + s * y1
        distance = min(x0, y0, pw - x1, ph - y1)
        if distance < margin - 1e-6:
            found.append(Finding(caption, what, distance))
    return found


def card_name(caption: str) -> str:
    """A card's name from its contact-sheet caption ("×10  25 miles": 25 miles)."""
    return re.sub(r"^\s*×\d+\s+", "", caption).strip() or "a card"


def check_deck(art, margin: float, to_product=None) -> list[Finding]:
    """Every distinct face and back of a DeckArt (build.DeckArt) checked."""
    size = art.size
    found = []
    for face, _count, caption in art.faces:
        found += check_side(face, card_name(caption), size.width, size.height, margin, to_product)
    for back, caption in art.distinct_backs():
        found += check_side(back, caption, size.width, size.height, margin, to_product)
    # A side shared by several cards is listed once.
    return list(dict.fromkeys(found))
