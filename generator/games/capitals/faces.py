"""Card faces as the patent's Fig. 3: country, capital, the square (D-22), the flag, the
alphabetical rank, the letters of the capital (the wall length), and the population bracket.
Special cards add their wall and their rule."""
from __future__ import annotations

import math

from ...products.contents import DeckArt, stem_of
from ...draw import Drawing, Style, rotate
from ...draw.drawing import text_block_height
from ...draw.fonts import get_font
from ...spec import Spec
from .data import Country, Deck, load_deck
from .flags import draw_flag


def _corner_number(d: Drawing, x: float, y: float, value: str, label: str, ink, paper, align: str) -> None:
    """A number in a small box with its meaning under it (so no one has to ask what 7 means)."""
    w = 11
    bx = x if align == "left" else x - w
    d.rect(bx, y, w, 8.5, Style(fill=paper, stroke=ink, width=0.35), r=1.2)
    d.fit_text(bx + 0.8, y + 1.4, w - 1.6, 5.2, value, ink)
    d.fit_text(bx - 1, y + 9.3, w + 2, 1.8, label, ink, font="sans")


def _descent(text: str, font_name: str, size: float) -> float:
    """How far below its baseline the text's lowest glyph reaches (mm at this size)."""
    font = get_font(font_name)
    glyf = font.tt["glyf"]
    low = min((getattr(glyf[font.glyph_name(ch)], "yMin", 0) for ch in text), default=0)
    return max(0.0, -low / font.upm * size)


def draw_face(deck: Deck, c: Country) -> Drawing:
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    pal = deck.palette
    ink, paper = pal["ink"], pal["paper"]
    band = pal["special"] if c.is_special else pal["frame"]
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=band))
    d.rect(3, 3, W - 6, H - 6, Style(fill=paper), r=deck.radius)
    # The country's name across the top, on the frame colour.
    d.rect(3, 3, W - 6, 11, Style(fill=band), r=deck.radius)
    d.rect(3, 8, W - 6, 6, Style(fill=band))
    d.fit_text(6, 5.2, W - 12, 6.2, c.name.upper(), paper)
    # Rank (top left) and letters (top right), as in Fig. 3.
    _corner_number(d, 5.5, 16.5, str(c.rank), "RANK", ink, paper, "left")
    _corner_number(d, W - 5.5, 16.5, str(c.letters), "LETTERS", ink, paper, "right")
    # The flag, as large as fits between the corner numbers' column and the capital.
    box_w, box_h = W - 34, (22.0 if c.is_special else 28.0)
    fw, fh = box_w, box_w * c.ratio
    if fh > box_h:
        fw, fh = box_h / c.ratio, box_h
    fx, fy = (W - fw) / 2, 16.5 + (box_h - fh) / 2
    draw_flag(d, c.flag, fx, fy, fw, fh, deck.flag_colours, ink if c.outline else None)
    # The capital and its square.
    y = 16.5 + box_h + 3.5
    size = d.fit_text(6, y, W - 12, 5.4, c.capital.upper(), ink, max_size=8)
    # "CAPITAL" goes under the name's lowest point: the J of REYKJAVIK reaches below the line.
    below = y + 5.4 + _descent(c.capital.upper(), "sans-bold", size) + 0.7
    d.fit_text(6, max(y + 6.5, below), W - 12, 1.9, "CAPITAL", ink, font="sans")
    d.rect(W / 2 - 14, y + 10.5, 28, 11, Style(fill=band.mix(paper, 0.85), stroke=band, width=0.5), r=1.5)
    d.fit_text(W / 2 - 12, y + 12.2, 24, 7.4, c.coords, ink)
    # Bottom: the population bracket, with its marker colour; or the special card's wall and rule.
    if c.is_special:
        rule = c.special_rule()
        size = 2.6
        while text_block_height(rule, size, W - 14) > 7.6 and size > 1.6:
            size -= 0.1
        d.text_block(7, y + 23.8, W - 14, rule, size, ink, align="centre")
    pop_y = H - 9.5
    marker = deck.bracket_colour(c.bracket)
    d.circle(9.5, pop_y + 2.2, 2.4, Style(fill=marker, stroke=ink, width=0.3))
    label = "NO POPULATION" if c.population is None else f"POPULATION BRACKET {c.bracket}"
    d.fit_text(13.5, pop_y + 0.6, W - 34 if c.is_special else W - 22, 3.0, label, ink, font="sans", align="left")
    if c.is_special:
        s = c.special
        badge = str(s["units"]) if "units" in s else (f"\u2264{s['right_angle']}" if "right_angle" in s else "\u2014")
        d.circle(W - 11, pop_y + 1.2, 5.2, Style(fill=band))
        d.fit_text(W - 15, pop_y - 1.2, 8, 4.8, badge, paper)
    return d


def draw_back(deck: Deck) -> Drawing:
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    bg, ink = deck.back["colour"], deck.back["ink"]
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=bg))
    d.rect(5, 5, W - 10, H - 10, Style(stroke=ink, width=0.6), r=deck.radius)
    # A globe of meridians and parallels: the same both ways up, like the title.
    cx, cy, r = W / 2, H / 2, 16
    line = Style(stroke=ink, width=0.45)
    d.circle(cx, cy, r, line)
    for k in (0.35, 0.7):
        d.ellipse(cx, cy, r * k, r, line)
    d.line(cx, cy - r, cx, cy + r, line)
    for lat in (-50, -25, 0, 25, 50):
        yy = cy + r * math.sin(math.radians(lat))
        half = r * math.cos(math.radians(lat))
        d.line(cx - half, yy, cx + half, yy, line)
    d.fit_text(9, 13, W - 18, 7, deck.back["title"], ink)
    d.fit_text(9, 23, W - 18, 2.6, deck.back["subtitle"].upper(), ink, font="sans")
    with d.group(rotate(180, W / 2, H / 2)):
        d.fit_text(9, 13, W - 18, 7, deck.back["title"], ink)
        d.fit_text(9, 23, W - 18, 2.6, deck.back["subtitle"].upper(), ink, font="sans")
    return d


def deck_art(spec: Spec) -> DeckArt:
    deck = load_deck(spec)
    art = DeckArt(stem_of(spec), deck.title, deck.size, back=draw_back(deck))
    for c in deck.countries:
        art.faces.append((draw_face(deck, c), 1, f"{c.rank}. {c.name}"))
    return art
