"""Text on a card: a small markup (**bold**, *italic*, :icon:), wrapped to a box, aligned, and
shrunk until it fits, never below its minimum (6 pt at the least: docs/print-at-home.md, "Print details").

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
from dataclasses import dataclass, replace

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
    context: tuple[str, str] = ("", "")   # the word's text before and after it, where the word
                                          # needs shaping: set as within the word (shaping.shape)


Word = tuple[Piece, ...]
BREAK = None                   # a line break in the text, among the words


# What the markup reads, in the order tried: an escaped character, emphasis, an icon, a line
# break, spaces; anything else is text.
_TOKEN = re.compile(r"(\\[*:\\]|\*{1,3}|:[A-Za-z][A-Za-z0-9_-]*:|\n|[ \t\r]+)")


def parse(text: str, icons) -> list:
    """The words of a marked-up text (each a tuple of Pieces), with BREAK where a line breaks.
    `icons`: the names an :icon: may use. A backslash before * : or \\ writes the character."""
    words: list = []
    current: list[Piece] = []
    buf: list[str] = []
    bold = italic = False
    opened = {"**": None, "*": None}
    at = 0
    for k, token in enumerate(_TOKEN.split(text)):
        if k % 2 == 0:                       # text between the marks
            if token:
                buf.append(token)
            at += len(token)
            continue
        first = token[0]
        if first == "\\":
            buf.append(token[1])
        elif first == "*":
            if buf:
                current.append(Piece("".join(buf), bold, italic))
                buf.clear()
            if len(token) >= 2:
                bold = not bold
                opened["**"] = at if bold else None
            if len(token) != 2:
                italic = not italic
                opened["*"] = at if italic else None
        elif first == ":":
            name = token[1:-1]
            if name not in icons:
                from difflib import get_close_matches
                guess = get_close_matches(name, list(icons), n=1)
                hint = f" (did you mean :{guess[0]}:?)" if guess else \
                    (f"; the icons are {', '.join(sorted(icons))}" if icons else "; the spec has no icons:")
                raise TextError(f"unknown icon :{name}:{hint}" + ("" if guess else "; write \\: for a colon"))
            if buf:
                current.append(Piece("".join(buf), bold, italic))
                buf.clear()
            current.append(Piece(None, bold, italic, icon=name))
        else:                                # a line break or spaces: the word ends
            if buf:
                current.append(Piece("".join(buf), bold, italic))
                buf.clear()
            if current:
                words.append(tuple(current))
                current = []
            if first == "\n":
                words.append(BREAK)
        at += len(token)
    if buf:
        current.append(Piece("".join(buf), bold, italic))
    if current:
        words.append(tuple(current))
    for mark, where in opened.items():
        if where is not None:
            raise TextError(f"{mark} opened at character {where + 1} is never closed")
    return _in_context(_break_within(words))


def _in_context(words: list) -> list:
    """Each piece of a word of several styles that needs shaping given the word's text around it:
    an Arabic word with a bold letter stays joined across the style's edge."""
    from ...draw.shaping import CONTEXT, needs_shaping
    out = []
    for word in words:
        if word is BREAK or word is NOSPACE or len(word) < 2:
            out.append(word)
            continue
        texts = ["\ufffc" if p.icon is not None else p.text for p in word]
        if not needs_shaping("".join(texts)):
            out.append(word)
            continue
        out.append(tuple(p if p.icon is not None else
                         replace(p, context=("".join(texts[:k])[-CONTEXT:], "".join(texts[k + 1:])[:CONTEXT]))
                         for k, p in enumerate(word)))
    return out


NOSPACE = ()                   # after a word: the next one follows it with no space (a line may
                               # break there: between two ideographs, after a hyphen)


def _break_within(words: list) -> list:
    """Each word cut where UAX #14 lets a line break inside it (between CJK ideographs, after a
    hyphen or a dash), the pieces joined by NOSPACE: a long sentence of Chinese or Japanese,
    written without spaces, can be set at all."""
    from ...draw.shaping import break_after
    # The breaks of all the words at once (one call to ICU), each word's own found by its offset.
    texts = ["" if word is BREAK else "".join("\ufffc" if p.icon is not None else p.text for p in word)
             for word in words]
    starts, at = [], 0
    for text in texts:
        starts.append(at)
        at += len(text) + 1
    inner: dict[int, list[int]] = {}
    k = 0
    for end in break_after(" ".join(texts)) if any(len(t) > 1 for t in texts) else []:
        while k + 1 < len(starts) and starts[k + 1] <= end:
            k += 1
        offset = end - starts[k]
        if 0 < offset < len(texts[k]):
            inner.setdefault(k, []).append(offset)
    out: list = []
    for index, word in enumerate(words):
        if word is BREAK:
            out.append(word)
            continue
        ends = inner.get(index)
        if not ends:
            out.append(word)
            continue
        cuts = iter(ends)
        cut = next(cuts)
        unit: list[Piece] = []
        at = 0
        for piece in word:
            length = 1 if piece.icon is not None else len(piece.text)
            start = 0
            while cut is not None and cut <= at + length:
                if piece.icon is not None:
                    unit.append(piece)
                    start = 1
                elif cut - at > start:
                    unit.append(Piece(piece.text[start:cut - at], piece.bold, piece.italic))
                    start = cut - at
                if unit:
                    out += [tuple(unit), NOSPACE]
                    unit = []
                cut = next(cuts, None)
            if start < length:
                unit.append(piece if piece.icon is not None else Piece(piece.text[start:], piece.bold, piece.italic))
            at += length
        if unit:
            out.append(tuple(unit))
    return out


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
        self._fonts: dict[tuple[bool, bool], str] = {}
        self.get_font = get_font
        regular = get_font(family.of(base_bold, base_italic))
        self.cap = regular.cap_height
        self.descent = -regular.descent

    def font_of(self, piece: Piece) -> str:
        key = (piece.bold, piece.italic)
        font = self._fonts.get(key)
        if font is None:
            font = self._fonts[key] = self.family.of(piece.bold or self.base_bold, piece.italic ^ self.base_italic)
        return font

    def unit_width(self, text: str, font: str) -> float:
        return _unit_width(text, font)

    def icon_height(self, size_mm: float) -> float:
        return ICON_SCALE * self.cap * size_mm

    def piece_unit(self, piece: Piece) -> float:
        """A piece's width at a size of 1 mm (every width grows with the size)."""
        if piece.icon is not None:
            return ICON_SCALE * self.cap * self.icons[piece.icon]
        return _unit_width(piece.text, self.font_of(piece), piece.context)

    def missing_glyphs(self, words) -> str:
        """Characters of the text its fonts have no glyph for ("" if none)."""
        by_font: dict[str, set] = {}
        for word in words:
            for piece in word or ():
                if piece.icon is None:
                    by_font.setdefault(self.font_of(piece), set()).update(piece.text)
        missing = []
        for font, chars in by_font.items():
            cmap = _cmap(font)
            missing += [c for c in chars if ord(c) not in cmap and c not in missing]
        return "".join(sorted(missing, key=lambda c: min(_first_at(words, c), 10**9)))


def _first_at(words, ch: str) -> int:
    """Where a character first comes in the words (for naming the first missing letter first)."""
    at = 0
    for word in words:
        for piece in word or ():
            if piece.icon is None:
                k = piece.text.find(ch)
                if k >= 0:
                    return at + k
                at += len(piece.text)
    return 10**9


_widths: dict[tuple[str, str], float] = {}
_cmaps: dict[str, object] = {}


def _unit_width(text: str, font: str, context: tuple[str, str] = ("", "")) -> float:
    key = (text, font, context)
    w = _widths.get(key)
    if w is None:
        from ...draw.fonts import get_font
        if len(_widths) > 200_000:
            _widths.clear()
        w = _widths[key] = get_font(font).width(text, 1.0, context)
    return w


def _cmap(font: str):
    cmap = _cmaps.get(font)
    if cmap is None:
        from ...draw.fonts import get_font
        cmap = _cmaps[font] = get_font(font).tt.getBestCmap()
    return cmap


@dataclass
class Prepared:
    """A text's words measured once, at a size of 1 mm: each word's width and the width of the
    space after it (in the font of the word's end), BREAK where a line breaks."""
    words: list
    widths: list                 # per word: (width, space after) or None for a BREAK


def prepare(words, measure: Measure) -> Prepared:
    widths, kept = [], []
    for k, word in enumerate(words):
        if word is NOSPACE:
            continue
        kept.append(word)
        if word is BREAK:
            widths.append(None)
            continue
        joined = k + 1 < len(words) and words[k + 1] is NOSPACE
        widths.append((sum(measure.piece_unit(p) for p in word),
                       0.0 if joined else _unit_width(" ", measure.font_of(word[-1]))))
    return Prepared(kept, widths)


def count_lines(prepared: Prepared, limit: float) -> int | None:
    """Lines the words break into within `limit` (the width over the size), or None if a word is
    wider than that."""
    lines, x, gap = 1, 0.0, None
    limit += 1e-9
    for wg in prepared.widths:
        if wg is None:
            lines, x, gap = lines + 1, 0.0, None
            continue
        w, space = wg
        if w > limit:
            return None
        if gap is not None and x + gap + w > limit:
            lines, x = lines + 1, w
        else:
            x += (gap or 0.0) + w
        gap = space
    return lines


def set_lines(prepared: Prepared, measure: Measure, size_pt: float, width: float, leading: float) -> Setting | None:
    """The words broken into lines at size_pt within width (mm), every piece placed; None if a
    word is wider."""
    s = size_pt * PT
    lines: list[tuple[list[Placed], float]] = []
    line: list[Placed] = []
    x, gap = 0.0, None
    limit = width / s + 1e-9
    for word, wg in zip(prepared.words, prepared.widths):
        if wg is None:
            lines.append((line, x * s))
            line, x, gap = [], 0.0, None
            continue
        w, space = wg
        if w > limit:
            return None
        if gap is not None and x + gap + w > limit:
            lines.append((line, x * s))
            line, x = [], 0.0
        elif gap is not None:
            x += gap
        for p in word:
            pw = measure.piece_unit(p)
            line.append(Placed(x * s, pw * s, p, None if p.icon is not None else measure.font_of(p)))
            x += pw
        gap = space
    lines.append((line, x * s))
    height = (measure.cap + measure.descent) * s + (len(lines) - 1) * leading * s
    return Setting(size_pt, lines, height)


def fit(words, measure: Measure, size_pt: float, min_pt: float, width: float, height: float,
        leading: float) -> Setting | None:
    """The largest size from size_pt down to min_pt (in STEPs) at which the words fit the box, or
    None. Sizes are searched by halving: a text that fits at a size fits at every smaller one
    (every width shrinks with the size, so a line holds as many words or more, and the block is
    lower), so the largest is found in a few tries, each a count of lines."""
    prepared = prepare(words, measure)
    unit_height = measure.cap + measure.descent
    steps = int(round((size_pt - min_pt) / STEP))

    def size_at(k: int) -> float:
        return size_pt if k >= steps else round(min_pt + k * STEP, 3)

    def fits(k: int) -> bool:
        s = size_at(k) * PT
        n = count_lines(prepared, width / s)
        return n is not None and (unit_height + (n - 1) * leading) * s <= height + 1e-6
    if fits(steps):
        best = steps
    elif not fits(0):
        return None
    else:
        lo, hi = 0, steps          # fits at lo, not at hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if fits(mid):
                lo = mid
            else:
                hi = mid
        best = lo
    return set_lines(prepared, measure, size_at(best), width, leading)
