"""Mille Bornes card faces and back, drawn once in mm for every backend.

Layout of a face (trim 0..W x 0..H, art out to the bleed): the category colour fills the card to
the bleed; a panel inset 3.5 mm carries the corner index (top-left, and turned at bottom-right,
so it reads in a fanned hand either way up), the symbol, the category, the name and a one-line
rule. Everything that must survive the cut stays at least 5 mm inside the trim.
"""
from __future__ import annotations

from ...draw import Drawing, PathBuilder, Rect, Style, compose, rotate, scale, translate
from ...draw.drawing import fit_size, text_block_height
from ...draw.fonts import get_font
from .deck import MilleBornesCard, MilleBornesDeck
from .symbols import NUMBERED_SYMBOLS, SYMBOLS

INSET = 3.5      # panel inset from the trim, mm
PAD = 2.0        # panel padding, mm


def _index(d: Drawing, card: MilleBornesCard, x: float, y: float, w: float) -> None:
    d.fit_text(x, y, w, 3.6, card.index, card.category.ink, max_size=6.0, align="left")


def draw_face(card: MilleBornesCard, deck: MilleBornesDeck) -> Drawing:
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    cat = card.category
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=cat.colour))
    px, py, pw, ph = INSET, INSET, W - 2 * INSET, H - 2 * INSET
    panel = Rect(px, py, pw, ph, Style(fill=cat.panel), r=max(0.0, deck.corner_radius))
    d.add(panel)
    if cat.bar is not None and cat.key == "immunity":
        # The patent's "oblique bar consisting of a wide green stroke", behind the picture.
        with d.group(clip=Rect(px, py, pw, ph, Style(), r=panel.r)):
            d.polygon([(px - 5, py + ph * 0.78), (px + pw + 5, py + ph * 0.12),
                       (px + pw + 5, py + ph * 0.36), (px - 5, py + ph * 1.02)], Style(fill=cat.bar))
    elif cat.bar is not None:
        # Parade cards: the green of the patent as a band under the index.
        d.rect(px, py + 10.5, pw, 1.2, Style(fill=cat.bar))

    x0 = px + PAD
    iw = pw - 2 * PAD
    _index(d, card, x0, py + PAD, 18)
    with d.group(rotate(180, W / 2, H / 2)):
        _index(d, card, x0, py + PAD, 18)

    # The picture: 40 mm square under the index.
    sym_size = 40.0
    sx, sy = (W - sym_size) / 2, py + 12.5
    if card.category.key == "progress":
        # Numeral on top; the road (the lower half of its box) runs up to the text block.
        _progress_numeral(d, card, deck, x0, py + 8.5, iw)
        sym_size, sy = 36.0, py + 17.0
        sx = (W - sym_size) / 2
    with d.group(compose(translate(sx, sy), scale(sym_size / 100))):
        if card.symbol in NUMBERED_SYMBOLS:
            NUMBERED_SYMBOLS[card.symbol](d, deck.palette, cat.panel, card.limit)
        else:
            SYMBOLS[card.symbol](d, deck.palette, cat.panel)

    # Category label, name and rule, from y = 58.5 mm down.
    y = py + 55.0
    if cat.bar is not None and cat.key == "immunity":
        # The bar passes behind the text block, which stays plain for legibility.
        # As tall as its text: label, name (one line or two), rule, and a margin under it, which
        # keeps it clear of the turned index below.
        extra = (len(_name_lines(card.name, pw - 2 * PAD)) - 1) * (NAME_STEP - 1.0)
        rule_h = text_block_height(card.rule, RULE_SIZE, pw - 2 * PAD - 2) if card.rule else 0.0
        d.rect(px + 1.2, y - 1.5, pw - 2.4, 1.5 + 10.5 + extra + rule_h + 2.0,
               Style(fill=cat.panel, stroke=cat.colour, width=0.35), r=1.5)
    label = cat.label.upper()
    if card.points:
        label += f"  ·  {card.points} POINTS"
    d.fit_text(x0, y, iw, 2.0, label, cat.ink, font="sans", max_size=3.0)
    lines = _name_lines(card.name, iw)
    for k, line in enumerate(lines):
        d.fit_text(x0, y + 3.6 + k * NAME_STEP, iw, 3.8 if len(lines) == 1 else 3.3, line, deck.palette["black"],
                   max_size=NAME_SIZE)
    if card.rule:
        # Under a two-line name the rule closes up a little (the name's second line has no caps).
        d.text_block(x0 + 1, y + 10.5 + (len(lines) - 1) * (NAME_STEP - 1.0), iw - 2, card.rule, RULE_SIZE,
                     deck.palette["black"], font="sans", align="centre")
    return d


NAME_SIZE = 5.6    # mm: a card's name, as large as this where it fits
NAME_STEP = 4.6    # mm from one line of a two-line name to the next
RULE_SIZE = 2.45   # mm (6.9 pt): the one-line rule


def _name_lines(name: str, width: float) -> list[str]:
    """A name on one line, or on two balanced lines when one line would squeeze it to less than
    four fifths of the others' size ("Ace of the steering wheel")."""
    font = get_font("sans-bold")
    cap = 3.8 / font.cap_height
    if min(NAME_SIZE, cap, width / font.width(name, 1.0)) >= 0.8 * min(NAME_SIZE, cap):
        return [name]
    words = name.split()
    splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    if not splits:
        return [name]
    return list(min(splits, key=lambda pair: max(font.width(t, 1.0) for t in pair)))


def _progress_numeral(d: Drawing, card, deck, x, y, w) -> None:
    """The distance in big numerals, one colour per digit as the patent lists them."""
    font = get_font("sans-bold")
    text = str(card.miles)
    cap_h = 17.0
    size = fit_size(text, font, w, cap_h)
    total = font.width(text, size)
    cx = x + (w - total) / 2
    base = y + (cap_h + font.cap_height * size) / 2
    colours = list(card.numeral_colours)
    for i, ch in enumerate(text):
        colour = colours[min(i, len(colours) - 1)]
        d.text(cx, base, ch, size, colour, font="sans-bold")
        cx += font.width(ch, size)
    d.fit_text(x, base + 2.0, w, 2.6, "MILES", deck.palette["slate"], max_size=4.0)


def draw_back(deck: MilleBornesDeck) -> Drawing:
    """One back for the deck, the same either way up (a card's back should not betray it)."""
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    bk = deck.back
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=bk.colour))
    d.rect(INSET, INSET, W - 2 * INSET, H - 2 * INSET, Style(stroke=bk.ink, width=0.8), r=deck.corner_radius)
    d.rect(INSET + 1.6, INSET + 1.6, W - 2 * INSET - 3.2, H - 2 * INSET - 3.2,
           Style(stroke=bk.accent, width=0.35), r=max(0.0, deck.corner_radius - 1.2))
    # A winding road through the middle, point-symmetric about the centre.
    cx, cy = W / 2, H / 2
    # It stays in the band between the two titles (each about 13 mm tall from its edge).
    road = (PathBuilder().move(INSET + 1, cy + 13).curve(cx - 26, cy + 13, cx - 12, cy - 2, cx, cy)
            .curve(cx + 12, cy + 2, cx + 26, cy - 13, W - INSET - 1, cy - 13))
    d.path(road, Style(stroke=bk.ink, width=7.0, cap="butt"))
    d.path(road, Style(stroke=bk.colour, width=5.4, cap="butt"))
    d.path(road, Style(stroke=bk.accent, width=0.6, cap="butt", dash=(2.2, 1.8)))
    for turn in (0, 180):
        with d.group(rotate(turn, cx, cy)):
            d.fit_text(INSET + 5, INSET + 9, W - 2 * INSET - 10, 5.2, bk.title, bk.ink)
            if bk.subtitle:
                d.fit_text(INSET + 5, INSET + 16.5, W - 2 * INSET - 10, 2.6, bk.subtitle, bk.accent, font="sans")
    d.circle(cx, cy, 6.5, Style(fill=bk.accent, stroke=bk.ink, width=0.8))
    d.fit_text(cx - 5, cy - 1.6, 10, 3.2, "1000", bk.colour)
    return d
