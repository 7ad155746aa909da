"""Text on a card: a small markup (**bold**, *italic*, :icon:), wrapped to a box, aligned, and
shrunk until it fits, never below its minimum (6 pt at the least: README "Print details").

Text is measured with the fonts' own advance widths (draw/fonts.py), as every backend draws it.
A line breaks at spaces (and at a line break in the text); a word wider than the box does not fit
at that size. The box holds the block from the first line's cap height to the last line's
descender, so nothing printed leaves it. The size is the largest, in steps of 0.1 pt from the
element's size down to its minimum, at which the text fits; if it fits at none, that is the spec's
error, never clipped or smaller text.

An inline icon is as tall as ICON_SCALE times the font's cap height, its middle on the middle of
the capitals, its width from its picture's proportions: it sits in the line like a letter.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...units import MM_PER_INCH

PT = MM_PER_INCH / 72          # mm in a point
ICON_SCALE = 1.3               # an inline icon's height, in cap heights
STEP = 0.1                     # pt: the sizes tried
ICON_NAME = re.compile(r":([A-Za-z][A-Za-z0-9_-]*):")


class TextError(ValueError):
    """What is wrong with a text's markup (an unknown icon, an unclosed **)."""


@dataclass(frozen=True)
class Family:
    """A font family: the Font names for regular, bold, italic and bold italic."""
    regular: str
    bold: str
    italic: str
    bold_italic: str

    def of(self, bold: bool, italic: bool) -> str:
        return (self.bold_italic if bold and italic else self.bold if bold else self.italic if italic
                else self.regular)


@dataclass(frozen=True)
class Piece:
    """A run of text in one style, or an icon (text is None), inside a word."""
    text: str | None
    bold: bool = False
    italic: bool = False
    icon: str | None = None


Word = tuple[Piece, ...]
BREAK = None                   # a line break in the text, among the words


def parse(text: str, icons) -> list:
    """The words of a marked-up text (each a tuple of Pieces), with BREAK where a line breaks.
    `icons`: the names an :icon: may use. A backslash before * : or \\ writes the character."""
    words: list = []
    current: list[Piece] = []
    buf: list[str] = []
    bold = italic = False
    opened = {"**": None, "*": None}

    def flush_run():
        if buf:
            current.append(Piece("".join(buf), bold, italic))
            buf.clear()

    def end_word():
        flush_run()
        if current:
            words.append(tuple(current))
            current.clear()

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in "*:\\":
            buf.append(text[i + 1])
            i += 2
            continue
        if ch == "*":
            k = 3 if text.startswith("***", i) else 2 if text.startswith("**", i) else 1
            flush_run()
            if k >= 2:
                bold = not bold
                opened["**"] = i if bold else None
            if k != 2:
                italic = not italic
                opened["*"] = i if italic else None
            i += k
            continue
        if ch == ":":
            m = ICON_NAME.match(text, i)
            if m:
                name = m.group(1)
                if name not in icons:
                    from difflib import get_close_matches
                    guess = get_close_matches(name, list(icons), n=1)
                    hint = f" (did you mean :{guess[0]}:?)" if guess else \
                        (f"; the icons are {', '.join(sorted(icons))}" if icons else "; the spec has no icons:")
                    raise TextError(f"unknown icon :{name}:{hint}" + ("" if guess else "; write \\: for a colon"))
                flush_run()
                current.append(Piece(None, bold, italic, icon=name))
                i = m.end()
                continue
        if ch == "\n":
            end_word()
            words.append(BREAK)
            i += 1
            continue
        if ch in " \t\r":
            end_word()
            i += 1
            continue
        buf.append(ch)
        i += 1
    end_word()
    for mark, at in opened.items():
        if at is not None:
            raise TextError(f"{mark} opened at character {at + 1} is never closed")
    return words


@dataclass
class Placed:
    """A piece set at its place: x from the line's left end (mm), in its font, or an icon."""
    x: float
    width: float
    piece: Piece
    font: str | None


@dataclass
class Setting:
    """Text set in a box: its size (pt), its lines (each placed pieces and a width), and the
    block's height (mm)."""
    size_pt: float
    lines: list[tuple[list[Placed], float]]
    height: float


class Measure:
    """Widths of words at a size, for one family and icon set (icons: name -> aspect w/h)."""

    def __init__(self, family: Family, base_bold: bool, base_italic: bool, icons: dict[str, float]):
        from ...draw.fonts import get_font
        self.family, self.icons = family, icons
        self.base_bold, self.base_italic = base_bold, base_italic
        self.get_font = get_font
        regular = get_font(family.of(base_bold, base_italic))
        self.cap = regular.cap_height
        self.descent = -regular.descent
        self._unit: dict[tuple[str, str], float] = {}

    def font_of(self, piece: Piece) -> str:
        return self.family.of(piece.bold or self.base_bold, piece.italic ^ self.base_italic)

    def unit_width(self, text: str, font: str) -> float:
        key = (text, font)
        w = self._unit.get(key)
        if w is None:
            w = self._unit[key] = self.get_font(font).width(text, 1.0)
        return w

    def icon_height(self, size_mm: float) -> float:
        return ICON_SCALE * self.cap * size_mm

    def piece_width(self, piece: Piece, size_mm: float) -> float:
        if piece.icon is not None:
            return self.icon_height(size_mm) * self.icons[piece.icon]
        return self.unit_width(piece.text, self.font_of(piece)) * size_mm

    def missing_glyphs(self, words) -> str:
        """Characters of the text its fonts have no glyph for ("" if none)."""
        missing = []
        for word in words:
            for piece in word or ():
                if piece.icon is None:
                    cmap = self.get_font(self.font_of(piece)).tt.getBestCmap()
                    missing += [c for c in piece.text if ord(c) not in cmap and c not in missing]
        return "".join(missing)


def set_lines(words, measure: Measure, size_pt: float, width: float, leading: float) -> Setting | None:
    """The words broken into lines at size_pt within width (mm); None if a word is wider."""
    s = size_pt * PT
    lines: list[tuple[list[Placed], float]] = []
    line: list[Placed] = []
    x = 0.0
    space_font = None
    for word in words:
        if word is BREAK:
            lines.append((line, x))
            line, x, space_font = [], 0.0, None
            continue
        widths = [measure.piece_width(p, s) for p in word]
        w = sum(widths)
        if w > width + 1e-6:
            return None
        gap = measure.unit_width(" ", space_font) * s if line else 0.0
        if line and x + gap + w > width + 1e-6:
            lines.append((line, x))
            line, x, gap = [], 0.0, 0.0
        x += gap
        for p, pw in zip(word, widths):
            line.append(Placed(x, pw, p, None if p.icon is not None else measure.font_of(p)))
            x += pw
        last = word[-1]
        space_font = measure.font_of(last)
    lines.append((line, x))
    height = (measure.cap + measure.descent) * s + (len(lines) - 1) * leading * s
    return Setting(size_pt, lines, height)


def fit(words, measure: Measure, size_pt: float, min_pt: float, width: float, height: float,
        leading: float) -> Setting | None:
    """The largest size from size_pt down to min_pt (in STEPs) at which the words fit the box, or
    None. Sizes are searched by halving: a text that fits at a size fits at every smaller one (a
    smaller size never makes a line longer), so the largest is found in a few settings."""
    steps = int(round((size_pt - min_pt) / STEP))

    def at(k: int) -> Setting | None:
        size = round(min_pt + k * STEP, 3) if k < steps else size_pt
        setting = set_lines(words, measure, size, width, leading)
        return setting if setting is not None and setting.height <= height + 1e-6 else None
    best = at(steps)
    if best is not None:
        return best
    smallest = at(0)
    if smallest is None:
        return None
    lo, hi = 0, steps          # fits at lo, not at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        got = at(mid)
        if got is not None:
            lo, smallest = mid, got
        else:
            hi = mid
    return smallest
