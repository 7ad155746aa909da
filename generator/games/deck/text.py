"""Text on a card: a small markup (**bold**, *italic*, :icon:, and Squib's, Pango's tags: <b>, <i>,
<u>, <s>, <big>, <small>, <span ...>, entities), wrapped to a box, aligned or justified, and shrunk
until it fits, never below its minimum (6 pt at the least: docs/print-at-home.md, "Print details").

Text is measured with the fonts' own advance widths (draw/fonts.py), as every backend draws it.
A line breaks at spaces, where UAX #14 allows within a word (and at a line break in the text); a
word still wider than the box is hyphenated at its language's points (pyphen), and where it cannot
be, does not fit at that size. The box holds the block from the first line's cap height to the last
line's descender (a line of larger spans standing taller), so nothing printed leaves it. The size is
the largest, in steps of 0.1 pt from the element's size down to its minimum, at which the text
fits; if it fits at none, that is the spec's error, never clipped or smaller text.

An inline icon is as tall as ICON_SCALE times the font's cap height unless its InlineIcon says a
size, its middle on the middle of the capitals (moved by its dx, dy), its width from its picture's
proportions: it sits in the line like a letter.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

from ...colour import Colour
from ...errors import show
from ...units import MM_PER_INCH

PT = MM_PER_INCH / 72          # mm in a point
ICON_SCALE = 1.3               # an inline icon's height, in cap heights
STEP = 0.1                     # pt: the sizes tried
ICON_NAME = re.compile(r":([A-Za-z][A-Za-z0-9_-]*):")


class TextError(ValueError):
    """What is wrong with a text's markup (an unknown icon, an unclosed ** or <b>, a bad tag)."""


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
    """A run of text in one style, or an icon (text is None), inside a word. colour None: the
    element's; scale: the size over the element's; family None: the element's font."""
    text: str | None
    bold: bool = False
    italic: bool = False
    icon: str | None = None
    colour: Colour | None = None
    scale: float = 1.0
    underline: bool = False
    strike: bool = False
    family: str | None = None
    context: tuple[str, str] = ("", "")   # the word's text before and after it, where the word
                                          # needs shaping: set as within the word (shaping.shape)


@dataclass(frozen=True)
class InlineIcon:
    """An icon in text: its picture's proportions (width over height), and Squib's embed options,
    mm at the element's size (they shrink with the text when it is set smaller to fit): its width
    and height (one alone: the other from the proportions; neither: ICON_SCALE cap heights high),
    and how far it is moved right (dx) and down (dy) from its place, its advance unchanged."""
    aspect: float
    width: float | None = None
    height: float | None = None
    dx: float = 0.0
    dy: float = 0.0


Word = tuple[Piece, ...]
BREAK = None                   # a line break in the text, among the words


# What the markup reads, in the order tried: an escaped character, emphasis, an icon, a Pango tag
# (Squib's markup: a < before a letter or /, so "a < b" and "<3" stay text), one left open, an
# entity (&amp;; a lone & stays text), a line break, spaces; anything else is text.
_TOKEN = re.compile(r"(\\[*:\\<&]|\*{1,3}|:[A-Za-z][A-Za-z0-9_-]*:|</?[A-Za-z][^<>]*>|</?[A-Za-z]"
                    r"|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,9});|\n|[ \t\r]+)")
# The same without tags and entities: a text with no < and no & (most) is split by it, quicker.
_PLAIN_TOKEN = re.compile(r"(\\[*:\\<&]|\*{1,3}|:[A-Za-z][A-Za-z0-9_-]*:|\n|[ \t\r]+)")
ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'", "nbsp": "\u00a0"}
# Pango's tags card makers use, and what each sets; <span> sets what its attributes say.
TAGS = {"b": {"bold": True}, "i": {"italic": True}, "u": {"underline": True}, "s": {"strike": True},
        "big": {"relative": 1.2}, "small": {"relative": 1 / 1.2}, "span": {}}
SPAN_ATTRIBUTES = ("foreground (fgcolor, color)", "size (font_size)", "font_family (face)", "font (font_desc)",
                   "weight (font_weight)", "style (font_style)", "underline", "strikethrough")
# Pango's named sizes: medium is the element's size, each step 1.2 times the last.
NAMED_SIZES = {"xx-small": -3, "x-small": -2, "small": -1, "medium": 0, "large": 1, "x-large": 2, "xx-large": 3}
SCALE_RANGE = (0.25, 4.0)      # a span's size against its element's: beyond this is a typo
_ATTRIBUTE = re.compile(r"\s*([A-Za-z_]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_WEIGHTS = {"thin": 100, "ultralight": 200, "light": 300, "semilight": 350, "book": 380, "normal": 400,
            "medium": 500, "semibold": 600, "bold": 700, "ultrabold": 800, "heavy": 900, "ultraheavy": 1000}


@dataclass
class Markup:
    """What the parse needs to read a span: the element's size (pt; a span's size in pt is a share of
    it), the deck's font families by name, and its palette (a span's colour)."""
    size_pt: float = 10.0
    families: tuple = ("sans",)
    palette: dict | None = None


def _span_style(attrs: str, style: dict, markup: Markup, where: str) -> None:
    """A <span>'s attributes read into `style` (bold, italic, colour, scale, underline, strike,
    family); TextError naming the one that is wrong."""
    at = 0
    while attrs[at:].strip():
        m = _ATTRIBUTE.match(attrs, at)
        if m is None:
            raise TextError(f"{where}: cannot read {show(attrs[at:].strip())} (attributes are name=\"value\")")
        name, value = m.group(1).lower(), m.group(2) if m.group(2) is not None else m.group(3)
        at = m.end()
        value_l = value.strip().lower()
        if name in ("foreground", "fgcolor", "color", "colour"):
            from ...colour import parse_colour
            try:
                style["colour"] = parse_colour(value.strip(), markup.palette or {})
            except ValueError as exc:
                raise TextError(f"{where}: {name}={show(value)}: {exc}") from None
        elif name in ("size", "font_size"):
            style["scale"] = _size(value_l, style["scale"], markup, where)
        elif name in ("font_family", "face"):
            style["family"] = _family(value.strip(), markup, where)
        elif name in ("font", "font_desc"):
            _font_desc(value, style, markup, where)
        elif name in ("weight", "font_weight"):
            style["bold"] = _weight(value_l, where)
        elif name in ("style", "font_style"):
            if value_l not in ("normal", "italic", "oblique"):
                raise TextError(f"{where}: style={show(value)} is none of normal, italic, oblique")
            style["italic"] = value_l != "normal"
        elif name == "underline":
            if value_l not in ("none", "single", "double", "low", "error", "true", "false"):
                raise TextError(f"{where}: underline={show(value)} is none of none, single, double, low, error")
            style["underline"] = value_l not in ("none", "false")
        elif name == "strikethrough":
            if value_l not in ("true", "false"):
                raise TextError(f"{where}: strikethrough={show(value)} is neither true nor false")
            style["strike"] = value_l == "true"
        else:
            raise TextError(f"{where}: a span has no attribute {show(name)} (it takes "
                            f"{', '.join(SPAN_ATTRIBUTES)})")


def _size(value: str, scale: float, markup: Markup, where: str) -> float:
    """A span's size as a share of its element's: 12pt, 12288 (1024ths of a point, as Pango),
    150%, a named size (x-large), or larger / smaller."""
    try:
        if value in NAMED_SIZES:
            got = 1.2 ** NAMED_SIZES[value]
        elif value in ("larger", "smaller"):
            got = scale * (1.2 if value == "larger" else 1 / 1.2)
        elif value.endswith("%"):
            got = scale * float(value[:-1]) / 100
        elif value.endswith("pt"):
            got = float(value[:-2]) / markup.size_pt
        else:
            got = int(value) / 1024 / markup.size_pt
    except ValueError:
        raise TextError(f"{where}: size={show(value)} is no size (12pt, 12288 in 1024ths of a point, 150%, "
                        f"{', '.join(NAMED_SIZES)}, larger, smaller)") from None
    low, high = SCALE_RANGE
    if not (math.isfinite(got) and low <= got <= high):
        raise TextError(f"{where}: size={show(value)} is {got:.2g} times the element's {markup.size_pt:g} pt; "
                        f"a span is from {low:g} to {high:g} times it")
    return got


def _family(name: str, markup: Markup, where: str) -> str:
    for known in markup.families:
        if known.lower() == name.lower():
            return known
    raise TextError(f"{where}: no font named {show(name)}; the fonts are {', '.join(sorted(markup.families))}")


def _weight(value: str, where: str) -> bool:
    number = _WEIGHTS.get(value.replace("-", ""))
    if number is None:
        if not value.isdigit() or not 100 <= int(value) <= 1000:
            raise TextError(f"{where}: weight={show(value)} is none of {', '.join(_WEIGHTS)} or 100 to 1000")
        number = int(value)
    return number >= 600


def _font_desc(value: str, style: dict, markup: Markup, where: str) -> None:
    """A Pango font description, "Serif Bold Italic 12": a family, styles and a size, each optional."""
    words = value.replace(",", " ").split()
    if words and re.fullmatch(r"[0-9.]+(px)?", words[-1]) and not words[-1].endswith("px"):
        style["scale"] = _size(words.pop() + "pt", style["scale"], markup, where)
    while words and words[-1].lower() in ("bold", "italic", "oblique", "normal", "heavy", "light", "semibold"):
        word = words.pop().lower()
        if word in ("italic", "oblique"):
            style["italic"] = True
        else:
            style["bold"] = _weight(word, where)
    if words:
        style["family"] = _family(" ".join(words), markup, where)


def parse(text: str, icons, markup: Markup | None = None) -> list:
    """The words of a marked-up text (each a tuple of Pieces), with BREAK where a line breaks.
    `icons`: the names an :icon: may use. A backslash before * : \\ < or & writes the character.
    Pango's tags (<b>, <i>, <u>, <s>, <big>, <small>, <span ...>) nest; ** and * toggle beside them."""
    markup = markup or Markup()
    words: list = []
    current: list[Piece] = []
    buf: list[str] = []
    stars = {"bold": False, "italic": False}
    base = {"bold": False, "italic": False, "colour": None, "scale": 1.0, "underline": False, "strike": False,
            "family": None}
    stack: list[tuple[str, int, dict]] = []      # open tags: name, where, the style inside
    opened = {"**": None, "*": None}
    at = 0

    def style() -> dict:
        return stack[-1][2] if stack else base

    def piece(text_: str | None, icon: str | None = None) -> Piece:
        if not stack:
            return Piece(text_, stars["bold"], stars["italic"], icon)
        st = stack[-1][2]
        return Piece(text_, st["bold"] or stars["bold"], st["italic"] or stars["italic"], icon, st["colour"],
                     st["scale"], st["underline"], st["strike"], st["family"])

    def flush() -> None:
        if buf:
            current.append(piece("".join(buf)))
            buf.clear()
    tokens = (_TOKEN if "<" in text or "&" in text else _PLAIN_TOKEN).split(text)
    for k, token in enumerate(tokens):
        if k % 2 == 0:                       # text between the marks
            if token:
                buf.append(token)
            at += len(token)
            continue
        first = token[0]
        if first == "\\":
            buf.append(token[1])
        elif first == "&":
            name = token[1:-1]
            if name.startswith("#"):
                code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
                if not (0 < code <= 0x10FFFF) or 0xD800 <= code <= 0xDFFF:
                    raise TextError(f"{token} at character {at + 1} is no character")
                buf.append(chr(code))
            elif name in ENTITIES:
                buf.append(ENTITIES[name])
            else:
                raise TextError(f"unknown entity {token} at character {at + 1}; the entities are "
                                f"{', '.join('&' + e + ';' for e in ENTITIES)} and &#NNN; (write &amp; for a &)")
        elif first == "<":
            where = f"{token} at character {at + 1}"
            if not token.endswith(">"):
                raise TextError(f"{token!s}... at character {at + 1} is never closed with > (write &lt; for a <)")
            closing = token[1] == "/"
            body = token[2 if closing else 1:-1]
            name = re.match(r"[A-Za-z]+", body).group(0).lower()
            if name not in TAGS:
                raise TextError(f"unknown tag <{name}> at character {at + 1}; the tags are "
                                f"{', '.join('<' + t + '>' for t in TAGS)} (write &lt; for a <)")
            flush()
            if closing:
                if body.strip().lower() != name:
                    raise TextError(f"{where}: a closing tag has no attributes")
                if not stack:
                    raise TextError(f"{where} closes no tag")
                if stack[-1][0] != name:
                    raise TextError(f"{where} closes <{stack[-1][0]}> opened at character {stack[-1][1] + 1}")
                stack.pop()
            else:
                inside = dict(style())
                attrs = body[len(name):]
                if attrs and not attrs[0].isspace():
                    raise TextError(f"unknown tag <{body.split()[0]}> at character {at + 1}; the tags are "
                                    f"{', '.join('<' + t + '>' for t in TAGS)}")
                if name == "span":
                    _span_style(attrs, inside, markup, where)
                elif attrs.strip():
                    raise TextError(f"{where}: <{name}> takes no attributes (<span> does)")
                else:
                    for key, value in TAGS[name].items():
                        if key == "relative":
                            inside["scale"] = _size(f"{inside['scale'] * value * 100:.6f}%", 1.0, markup, where)
                        else:
                            inside[key] = value
                if len(stack) >= 64:
                    raise TextError(f"{where}: tags nest at most 64 deep")
                stack.append((name, at, inside))
        elif first == "*":
            flush()
            if len(token) >= 2:
                stars["bold"] = not stars["bold"]
                opened["**"] = at if stars["bold"] else None
            if len(token) != 2:
                stars["italic"] = not stars["italic"]
                opened["*"] = at if stars["italic"] else None
        elif first == ":":
            name = token[1:-1]
            if name not in icons:
                from difflib import get_close_matches
                guess = get_close_matches(name, list(icons), n=1)
                hint = f" (did you mean :{guess[0]}:?)" if guess else \
                    (f"; the icons are {', '.join(sorted(icons))}" if icons else "; the spec has no icons:")
                raise TextError(f"unknown icon :{name}:{hint}" + ("" if guess else "; write \\: for a colon"))
            flush()
            current.append(piece(None, name))
        else:                                # a line break or spaces: the word ends
            flush()
            if current:
                words.append(tuple(current))
                current = []
            if first == "\n":
                words.append(BREAK)
        at += len(token)
    flush()
    if current:
        words.append(tuple(current))
    for mark, where in opened.items():
        if where is not None:
            raise TextError(f"{mark} opened at character {where + 1} is never closed")
    if stack:
        name, where, _ = stack[-1]
        raise TextError(f"<{name}> opened at character {where + 1} is never closed (</{name}>)")
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
                    unit.append(replace(piece, text=piece.text[start:cut - at]))
                    start = cut - at
                if unit:
                    out += [tuple(unit), NOSPACE]
                    unit = []
                cut = next(cuts, None)
            if start < length:
                unit.append(piece if piece.icon is not None else replace(piece, text=piece.text[start:]))
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
    """Text set in a box: its size (pt), its lines (each placed pieces and a width), the block's
    height (mm), each line's baseline from the block's top (mm), and whether each line ends its
    paragraph (a line break in the text, or the end: the next line starts a paragraph)."""
    size_pt: float
    lines: list[tuple[list[Placed], float]]
    height: float
    baselines: list[float]
    ends: list[bool] = field(default_factory=list)


class Measure:
    """Widths of words at a size, for one family and icon set (icons: name -> InlineIcon, or its
    aspect w/h). size_pt: the element's size, at which an icon's width and height in mm hold;
    families: the deck's, by name (a span's font_family)."""

    def __init__(self, family: Family, base_bold: bool, base_italic: bool, icons: dict, size_pt: float = 10.0,
                 families: dict | None = None, hyphenate=None):
        from ...draw.fonts import get_font
        self.family = family
        self.icons = {name: icon if isinstance(icon, InlineIcon) else InlineIcon(icon) for name, icon in icons.items()}
        self.base_bold, self.base_italic = base_bold, base_italic
        self.size_mm = size_pt * PT
        self.families = families or {}
        self.hyphenate = hyphenate          # a word -> the offsets where it may be hyphenated, or None
        self._fonts: dict[tuple, str] = {}
        self.get_font = get_font
        regular = get_font(family.of(base_bold, base_italic))
        self.cap = regular.cap_height
        self.descent = -regular.descent

    def font_of(self, piece: Piece) -> str:
        key = (piece.bold, piece.italic, piece.family)
        font = self._fonts.get(key)
        if font is None:
            family = self.families.get(piece.family, self.family) if piece.family else self.family
            font = self._fonts[key] = family.of(piece.bold or self.base_bold, piece.italic ^ self.base_italic)
        return font

    def unit_width(self, text: str, font: str) -> float:
        return _unit_width(text, font)

    def icon_box(self, name: str, s: float) -> tuple[float, float, float, float]:
        """An icon's width, height, dx and dy (mm) in text set at s mm."""
        icon = self.icons[name]
        k = s / self.size_mm
        if icon.height is not None:
            h = icon.height * k
        elif icon.width is not None:
            h = icon.width / icon.aspect * k
        else:
            h = ICON_SCALE * self.cap * s
        w = icon.width * k if icon.width is not None else h * icon.aspect
        return w, h, icon.dx * k, icon.dy * k

    def piece_unit(self, piece: Piece) -> float:
        """A piece's width at a size of 1 mm (every width grows with the size)."""
        if piece.icon is not None:
            return self.icon_box(piece.icon, 1.0)[0]
        return _unit_width(piece.text, self.font_of(piece), piece.context) * piece.scale

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


HYPHEN = "-"                    # set where a word is hyphenated (not in a font that lacks it)


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
    from ...draw.fonts import get_font
    return get_font(font).cmap          # (read once a font)


@dataclass
class Prepared:
    """A text's words measured once, at a size of 1 mm: each word's width, the width of the space
    after it (in the font of the word's end) and its largest scale, BREAK where a line breaks."""
    words: list
    widths: list                 # per word: (width, space after, scale) or None for a BREAK


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
        end = word[-1]
        widths.append((sum(measure.piece_unit(p) for p in word),
                       0.0 if joined else _unit_width(" ", measure.font_of(end)) * end.scale,
                       end.scale if len(word) == 1 else max([p.scale for p in word])))
    return Prepared(kept, widths)


@dataclass
class Line:
    """A line broken: its words (each pieces, the gap before it and its width, at 1 mm), its width,
    its scale (the largest of its text's: a line of larger text stands taller), and whether it ends
    its paragraph (justify leaves it as it is)."""
    words: list[tuple[tuple, float, float]]
    width: float = 0.0
    scale: float = 0.0
    last: bool = False


def _hyphenated(word: tuple, measure: Measure, limit: float, room: float):
    """A word wider than the box cut at the hyphenation points of the deck's language: the first
    part that fits `room` with its hyphen, then parts that fit `limit`, the last as it is; None where
    it cannot be (no points, an icon in it, a part still too wide, a font without a hyphen)."""
    if measure.hyphenate is None or any(p.icon is not None for p in word) \
            or any(ord(HYPHEN) not in _cmap(measure.font_of(p)) for p in word):
        return None
    text = "".join(p.text for p in word)
    points = [k for k in measure.hyphenate(text) if 0 < k < len(text)]
    if not points:
        return None

    def cut(a: int, b: int, hyphen: bool) -> tuple:
        out, at = [], 0
        for p in word:
            lo, hi = max(a, at), min(b, at + len(p.text))
            if lo < hi:
                out.append(replace(p, text=p.text[lo - at:hi - at],      # (shaped as within the word)
                                   context=(p.context[0] + p.text[:lo - at], p.text[hi - at:] + p.context[1])))
            at += len(p.text)
        if hyphen:
            out[-1] = replace(out[-1], text=out[-1].text + HYPHEN)
        return tuple(out)

    def width(part: tuple) -> float:
        return sum(measure.piece_unit(p) for p in part)
    parts, start, first = [], 0, True
    while True:
        whole = cut(start, len(text), False)
        if width(whole) <= (room if first else limit):
            parts.append((whole, width(whole)))
            return parts
        best = None
        for k in points:
            if k <= start:
                continue
            part = cut(start, k, True)
            w = width(part)
            if w > (room if first else limit):
                break
            best = (k, part, w)
        if best is None:
            if first:
                parts.append(None)             # nothing fits the room left: begin on a new line
                first = False
                continue
            return None
        start = best[0]
        parts.append((best[1], best[2]))
        first = False


def break_lines(prepared: Prepared, measure: Measure, limit: float) -> list[Line] | None:
    """The words broken into lines within `limit` (the width over the size): at spaces and the
    breaks UAX #14 allows, and where a word is wider than the box, at its hyphenation points;
    None if a word cannot be set within it."""
    limit += 1e-9
    lines = [Line([])]
    gap = None
    for word, wg in zip(prepared.words, prepared.widths):
        line = lines[-1]
        if wg is None:
            line.last = True
            lines.append(Line([]))
            gap = None
            continue
        w, space, scale = wg
        if w > limit:
            room = limit - line.width - (gap or 0.0) if line.words else limit
            parts = _hyphenated(word, measure, limit, room)
            if parts is None:
                return None
            for k, part in enumerate(parts):
                if part is None:
                    lines.append(Line([]))
                    continue
                pieces, pw = part
                line = lines[-1]
                if k > 0 and line.words:
                    line = Line([])
                    lines.append(line)
                g = (gap or 0.0) if line.words else 0.0
                line.words.append((pieces, g, pw))
                line.width += g + pw
                line.scale = max(line.scale, max([p.scale for p in pieces]))
            gap = space
            continue
        if gap is not None and line.words and line.width + gap + w > limit:
            line = Line([])
            lines.append(line)
        g = (gap or 0.0) if line.words else 0.0
        line.words.append((word, g, w))
        line.width += g + w
        if scale > line.scale:
            line.scale = scale
        gap = space
    lines[-1].last = True
    for line in lines:
        line.scale = line.scale or 1.0
    return lines


def block_height(lines: list[Line], measure: Measure, leading: float) -> float:
    """The block's height at a size of 1 mm: from the first line's cap height to the last's
    descender, each line below the last by the leading of its own scale."""
    return (measure.cap * lines[0].scale + sum(leading * line.scale for line in lines[1:])
            + measure.descent * lines[-1].scale)


def set_lines(prepared: Prepared, measure: Measure, size_pt: float, width: float, leading: float,
              justify: bool = False) -> Setting | None:
    """The words broken into lines at size_pt within width (mm), every piece placed; None if a
    word is wider. justify: every line but a paragraph's last stretched to the width, at its spaces."""
    s = size_pt * PT
    broken = break_lines(prepared, measure, width / s)
    if broken is None:
        return None
    lines: list[tuple[list[Placed], float]] = []
    baselines: list[float] = []
    y = 0.0
    for k, line in enumerate(broken):
        y += measure.cap * line.scale if k == 0 else leading * line.scale
        baselines.append(y * s)
        spaces = sum(1 for _, g, _ in line.words if g > 0) if justify and not line.last else 0
        extra = (width / s - line.width) / spaces if spaces else 0.0
        placed: list[Placed] = []
        x = 0.0
        for word, g, _ in line.words:
            x += g + (extra if g > 0 else 0.0)
            for p in word:
                pw = measure.piece_unit(p)
                placed.append(Placed(x * s, pw * s, p, None if p.icon is not None else measure.font_of(p)))
                x += pw
        lines.append((placed, x * s))
    height = block_height(broken, measure, leading) * s
    return Setting(size_pt, lines, height, baselines, [line.last for line in broken])


def _plain_height(prepared: Prepared, measure: Measure, limit: float, leading: float) -> float | None:
    """The block's height at 1 mm, as break_lines and block_height would make it, counted without
    making the lines (fit tries a few sizes a text; most texts have no word wider than their box);
    None where a word is wider than the limit."""
    limit += 1e-9
    scales: list[float] = []
    x, gap, scale, empty = 0.0, 0.0, 0.0, True
    for wg in prepared.widths:
        if wg is None:
            scales.append(scale or 1.0)
            x, gap, scale, empty = 0.0, 0.0, 0.0, True
            continue
        w, space, sc = wg
        if w > limit:
            return None
        if not empty and x + gap + w > limit:
            scales.append(scale or 1.0)
            x, scale = w, 0.0
        else:
            x += (0.0 if empty else gap) + w
        empty = False
        if sc > scale:
            scale = sc
        gap = space
    scales.append(scale or 1.0)
    return measure.cap * scales[0] + leading * (sum(scales) - scales[0]) + measure.descent * scales[-1]


def fit(words, measure: Measure, size_pt: float, min_pt: float, width: float, height: float,
        leading: float, justify: bool = False) -> Setting | None:
    """The largest size from size_pt down to min_pt (in STEPs) at which the words fit the box, or
    None. Sizes are searched by halving: a text that fits at a size fits at every smaller one
    (every width shrinks with the size, so a line holds as many words or more, and the block is
    lower), so the largest is found in a few tries, each a breaking into lines."""
    prepared = prepare(words, measure)
    steps = int(round((size_pt - min_pt) / STEP))

    def size_at(k: int) -> float:
        return size_pt if k >= steps else round(min_pt + k * STEP, 3)

    def fits(k: int) -> bool:
        s = size_at(k) * PT
        tall = _plain_height(prepared, measure, width / s, leading)
        if tall is None:                   # a word wider than the box: hyphenated, if it can be
            lines = break_lines(prepared, measure, width / s)
            tall = None if lines is None else block_height(lines, measure, leading)
        return tall is not None and tall * s <= height + 1e-6
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
    return set_lines(prepared, measure, size_at(best), width, leading, justify)
