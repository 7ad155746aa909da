"""TrueType fonts: one source of metrics for both backends.

The PDF backend embeds the font (reportlab subsets it); the SVG backend writes each glyph as its
outline, so an SVG looks the same in any viewer or laser program with no font installed.
Text is measured here, once, so centring agrees in PDF, SVG and PNG.
We use the Bitstream Vera family that reportlab ships (an open font, always present with it).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import reportlab
from ..errors import show
from .shaping import _ignorable, needs_shaping   # (shaping imports its libraries only when it shapes)

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont

_DIR = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
FONT_FILES = {
    "sans": "Vera.ttf",
    "sans-bold": "VeraBd.ttf",
    "sans-italic": "VeraIt.ttf",
    "sans-bold-italic": "VeraBI.ttf",
}


MAX_WIDTHS = 10_000      # texts whose widths a font keeps, each of at most WIDTH_KEPT_CHARS
WIDTH_KEPT_CHARS = 200   # (8 MB at the very most)


@dataclass
class Font:
    name: str
    path: str
    tt: TTFont
    upm: int
    cap_height: float  # fraction of the em
    ascent: float
    descent: float  # negative
    data: bytes | None = field(default=None, repr=False, compare=False)   # a font read from a spec's folder

    # Per character, looked up once: text is measured hundreds of thousands of times a build
    # (fitting, wrapping, flowing the rules sheets), and fontTools' lookups are slow.
    _glyphs: dict = field(default_factory=dict, repr=False, compare=False)
    _advances: dict = field(default_factory=dict, repr=False, compare=False)
    # The cmap (fontTools' getBestCmap walks the font's subtables at each call: 70 us, once per
    # text measured), and every character it maps, for a whole text checked in one set operation.
    _cmap: dict | None = field(default=None, repr=False, compare=False)
    _chars: frozenset = field(default=frozenset(), repr=False, compare=False)
    # Texts' widths in font units / upm (a text is measured again and again: wrapped, then wrapped
    # again to place it; fitted at one size after another): bounded, cleared when full.
    _widths: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def cmap(self) -> dict:
        cmap = self._cmap
        if cmap is None:
            cmap = self._cmap = self.tt.getBestCmap()
            self._chars = frozenset(map(chr, cmap))
        return cmap

    def glyph_name(self, ch: str) -> str:
        """The glyph a character is drawn with; MissingLetter where the font has none (never a
        box or a "?" in its place)."""
        name = self._glyphs.get(ch)
        if name is None:
            name = self.cmap.get(ord(ch))
            if name is None:
                raise MissingLetter(ch, self)
            self._glyphs[ch] = name
        return name

    def has(self, ch: str) -> bool:
        return ch in self._glyphs or ord(ch) in self.cmap

    def covers(self, text: str) -> bool:
        """Whether the font maps every character of text to a glyph (spaces and joiners too)."""
        self.cmap                        # (read once, with the set of its characters)
        return self._chars.issuperset(text)

    def missing(self, text: str) -> str | None:
        """The first character of text the font has no glyph for (None if it has them all)."""
        if self.covers(text):
            return None
        cmap = self.cmap
        for ch in text:
            if ch not in self._glyphs and ord(ch) not in cmap and not ch.isspace() and not _ignorable(ch):
                return ch
        return None

    @property
    def label(self) -> str:
        """How messages name the font: a shipped one by its name, a spec's by its own."""
        return self.name if self.data is None else font_label(self.tt)

    def advance(self, ch: str) -> float:
        adv = self._advances.get(ch)
        if adv is None:
            adv = self._advances[ch] = self.tt["hmtx"][self.glyph_name(ch)][0] / self.upm
        return adv

    def width(self, text: str, size: float, context: tuple[str, str] = ("", "")) -> float:
        """Advance width of text set at size (same unit as size: here always mm): shaped
        (shaping.py, with the text around it as `context`) where the text needs it, else the sum
        of its characters' advances."""
        if needs_shaping(text):
            from .shaping import MissingGlyph, width_units
            try:
                return width_units(self, text, None, context) / self.upm * size
            except MissingGlyph as exc:
                raise MissingLetter(text[exc.index], self, text) from None
        total = self._widths.get(text)
        if total is None:
            advances = self._advances
            total = 0.0
            try:
                for ch in text:
                    adv = advances.get(ch)
                    total += adv if adv is not None else self.advance(ch)
            except MissingLetter as exc:
                raise MissingLetter(exc.char, self, text) from None
            if len(text) <= WIDTH_KEPT_CHARS:
                if len(self._widths) >= MAX_WIDTHS:
                    self._widths.clear()
                self._widths[text] = total
        return total * size

    def glyphs(self, text: str, direction: str | None = None,
               context: tuple[str, str] = ("", "")) -> list[tuple[str, float, float]]:
        """The glyphs that set text, left to right: (glyph name, x, y) in font units from the
        start of the baseline (y up). Shaped (bidi, HarfBuzz; shaping.shape's context) where the
        text needs it."""
        from .shaping import MissingGlyph, shape
        if not needs_shaping(text) and direction is None:
            out, x = [], 0.0
            for ch in text:
                name = self.glyph_name(ch)
                out.append((name, x, 0.0))
                x += self.advance(ch) * self.upm
            return out
        try:
            shaped = shape(self, text, direction, context)
        except MissingGlyph as exc:
            raise MissingLetter(text[exc.index], self, text) from None
        out, x = [], 0.0
        order = self.tt.getGlyphOrder()
        for g in shaped:
            out.append((order[g.gid] if g.gid < len(order) else ".notdef", x + g.dx, float(g.dy)))
            x += g.advance
        return out


class MissingLetter(ValueError):
    """A character the font has no glyph for: the error names it (and, once the drawing layer
    knows it, the text it is in), so a build stops with it rather than print a box or a "?"."""

    def __init__(self, char: str, font: "Font", text: str | None = None):
        self.char, self.font, self.text = char, font, text
        code = f"U+{ord(char):04X}"
        within = f" in {show(text)}" if text is not None and text != char else ""
        super().__init__(f"the font {font.label} has no letter for {show(char)} ({code}){within}: give the "
                         "deck a font that has it (fonts:)")


# Fonts read from a spec's folder (font_from_bytes), by the name made from their content.
_FROM_FILES: dict[str, Font] = {}
MAX_FONT_BYTES = 16 * 1024 * 1024


class FontFileError(ValueError):
    """Why a file is not a font we can set text in and embed, in a few words."""


# Fonts to set a text in where the one asked for lacks a letter of it: a deck's own fonts, while
# its products are made (a Japanese title on its tuck box, in its print list, under its cards on
# the contact sheet). Set by the job that makes them (set_fallbacks), cleared for the next.
_fallbacks: list[tuple[str, ...]] = [()]


def set_fallbacks(names) -> None:
    _fallbacks[0] = tuple(dict.fromkeys(names))


def font_runs(name: str, text: str) -> list[tuple[Font, str]]:
    """Text cut into runs of the fonts that set it: each letter in `name` where it has it, else in
    the first fallback that has it (a space or a joiner stays in the run before it). MissingLetter
    for a letter none has."""
    font = get_font(name)
    if font.missing(text) is None:
        return [(font, text)]
    chain = [font] + [get_font(other) for other in _fallbacks[0]]
    runs: list[list] = []
    for ch in text:
        if runs and (ch.isspace() or _ignorable(ch)):
            runs[-1][1].append(ch)
            continue
        got = next((f for f in chain if f.has(ch)), None)
        if got is None:
            raise MissingLetter(ch, font, text)
        if runs and runs[-1][0] is got:
            runs[-1][1].append(ch)
        else:
            runs.append([got, [ch]])
    return [(f, "".join(chars)) for f, chars in runs]


def text_width(name: str, text: str, size: float) -> float:
    """The width of text set in the font `name` and, for letters it lacks, its fallbacks."""
    return sum(f.width(part, size) for f, part in font_runs(name, text))


def get_font(name: str) -> Font:
    font = _FROM_FILES.get(name)
    return font if font is not None else _shipped_font(name)


def font_from_bytes(data: bytes) -> Font:
    """A TrueType or OpenType font from a file's bytes (read by the caller, bounded), checked as
    a stranger's file: it must hold the tables text is measured and drawn with, and reportlab must
    be able to embed it (a font whose licence bits forbid embedding is refused). An OpenType font
    with PostScript (CFF) outlines is converted to TrueType outlines, which reportlab embeds.
    Its name is made from its content, so two files of one font are one font."""
    import hashlib
    import io
    import logging
    from fontTools.ttLib import TTFont, TTLibError
    # fontTools logs what it skips in a damaged table ("skipping malformed name record", thousands
    # of lines for a stranger's file): our one line says what is wrong, nothing else reaches stderr.
    logging.getLogger("fontTools").setLevel(logging.CRITICAL)
    name = "file-" + hashlib.sha256(data).hexdigest()[:24]
    known = _FROM_FILES.get(name)
    if known is not None:
        return known
    if len(data) > MAX_FONT_BYTES:
        raise FontFileError(f"a font file of over {MAX_FONT_BYTES // (1024 * 1024)} MB")
    if data[:4] not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
        what = "a collection (.ttc): give one of its fonts" if data[:4] == b"ttcf" else \
            "a web font (WOFF): give the TTF or OTF" if data[:4] in (b"wOFF", b"wOF2") else "not a TTF or OTF file"
        raise FontFileError(what)
    try:
        tt = TTFont(io.BytesIO(data), lazy=False)
        missing = [t for t in ("cmap", "head", "hhea", "hmtx", "maxp") if t not in tt]
        if missing or not ("glyf" in tt or "CFF " in tt):
            raise FontFileError(f"a font without its {', '.join(missing) or 'outlines'} table")
        _check_embedding(tt)        # (before converting outlines: a font refused costs nothing more)
        if "CFF " in tt:
            data = _cff_to_truetype(tt)
            tt = TTFont(io.BytesIO(data), lazy=False)
        if not tt.getBestCmap():
            raise FontFileError("a font that maps no character to a glyph")
        upm = tt["head"].unitsPerEm
        if not 16 <= upm <= 16384:
            raise FontFileError(f"a font of {upm} units per em")
        # What reportlab will do with it when it embeds it, done now: a font it cannot read or may
        # not embed is refused here, not while a PDF is being written.
        from reportlab.pdfbase.ttfonts import TTFontFile
        TTFontFile(io.BytesIO(data), validate=1)
        glyf = tt["glyf"]
        os2 = tt["OS/2"] if "OS/2" in tt else None
        cap = getattr(os2, "sCapHeight", 0) or 0
        if not cap:
            h = tt.getBestCmap().get(ord("H"))
            cap = getattr(glyf[h], "yMax", 0) if h else 0
        cap = cap or 0.7 * upm
        hhea = tt["hhea"]
    except FontFileError:
        raise
    except (TTLibError, Exception) as exc:  # noqa: BLE001  (fontTools and reportlab raise many kinds)
        text = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise FontFileError(f"not a font we can read and embed ({text})") from None
    font = Font(name, f"<{name}>", tt, upm, cap / upm, hhea.ascent / upm, hhea.descent / upm, data=data)
    _FROM_FILES[name] = font
    return font


# OS/2 fsType, as the OpenType specification defines it ("OS/2 - fsType"): bits 0-3 the kind of
# embedding the licence allows (0 installable, 0x0004 preview & print: embedded in a document
# opened read-only, 0x0008 editable), bit 8 no subsetting, bit 9 bitmaps only.
FS_RESTRICTED = 0x0002          # Restricted License embedding: must not be embedded at all
FS_NO_SUBSETTING = 0x0100
FS_BITMAP_ONLY = 0x0200


def font_label(tt) -> str:
    """A font's own name (its name table's full name, else family), for messages."""
    try:
        table = tt["name"]
        # (a damaged table may claim 65,000 records: a name is looked for among the first few)
        name = table.getBestFullName() or table.getBestFamilyName() if len(table.names) <= 2_000 else None
    except Exception:  # noqa: BLE001  (a font without a readable name table)
        name = None
    return show(str(name)[:60]) if name else "this font"


def _check_embedding(tt) -> None:
    """The font's licence bits allow what a PDF of ours does with it: embedded, subset (only the
    letters used), as outlines. What we chose, per the OpenType specification: Installable (0),
    Editable and Preview & Print are embedded (a PDF is a document opened to print); where several
    of bits 1-3 are set, the least restrictive holds, as the specification says for such fonts;
    Restricted License alone (0x0002) is refused, as are No subsetting (0x0100: a PDF embeds only
    the letters it uses) and Bitmap embedding only (0x0200: we embed outlines)."""
    os2 = tt["OS/2"] if "OS/2" in tt else None
    fs = int(getattr(os2, "fsType", 0) or 0)
    label = font_label(tt)
    if (fs & 0x000E) == FS_RESTRICTED:     # (bit 0 is reserved)
        raise FontFileError(f"the licence of {label} forbids embedding it (OS/2 fsType 0x{fs:04X}: restricted "
                            "licence embedding), and a PDF must embed its fonts: use a font that allows it")
    if fs & FS_BITMAP_ONLY:
        raise FontFileError(f"the licence of {label} allows embedding only its bitmaps (OS/2 fsType 0x{fs:04X}), "
                            "and a PDF embeds outlines: use a font that allows it")
    if fs & FS_NO_SUBSETTING:
        raise FontFileError(f"the licence of {label} forbids subsetting it (OS/2 fsType 0x{fs:04X}), and a PDF "
                            "embeds only the letters it uses: use a font that allows it")


def _cff_to_truetype(tt) -> bytes:
    """An OpenType font's cubic (CFF) outlines as TrueType quadratic ones (within 1 unit), as
    fontTools' otf2ttf recipe does: reportlab embeds TrueType outlines only."""
    import io
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable
    order = tt.getGlyphOrder()
    glyph_set = tt.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    tt["loca"] = newTable("loca")
    glyf = tt["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    del tt["CFF "]
    if "VORG" in tt:
        del tt["VORG"]
    tt["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for key in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, key, 0)
    maxp.maxZones = 1
    tt["head"].glyphDataFormat = 0
    post = tt["post"]
    post.formatType, post.extraNames, post.mapping = 2.0, [], {}
    post.glyphOrder = order
    tt.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    tt.save(out)
    return out.getvalue()


@lru_cache(maxsize=None)
def _shipped_font(name: str) -> Font:
    if name not in FONT_FILES:
        raise KeyError(f"unknown font {show(name)}; known: {', '.join(FONT_FILES)}")
    from fontTools.ttLib import TTFont     # here: a referee imports the drawing layer, never a font
    path = os.path.join(_DIR, FONT_FILES[name])
    tt = TTFont(path, lazy=True)
    upm = tt["head"].unitsPerEm
    glyf = tt["glyf"]
    cap = getattr(tt["OS/2"], "sCapHeight", 0) or glyf["H"].yMax
    hhea = tt["hhea"]
    return Font(name, path, tt, upm, cap / upm, hhea.ascent / upm, hhea.descent / upm)


@lru_cache(maxsize=None)
def _ops_pen():
    """The pen class, made when a glyph is first drawn (fontTools is imported then, not before)."""
    from fontTools.pens.basePen import BasePen

    class OpsPen(BasePen):
        """Records a glyph as move/line/cubic ops (BasePen turns quadratics into cubics)."""

        def __init__(self, glyphset):
            super().__init__(glyphset)
            self.ops: list[tuple] = []

        def _moveTo(self, p):
            self.ops.append(("M", *p))

        def _lineTo(self, p):
            self.ops.append(("L", *p))

        def _curveToOne(self, p1, p2, p3):
            self.ops.append(("C", *p1, *p2, *p3))

        def _closePath(self):
            self.ops.append(("Z",))

        _endPath = _closePath

    return OpsPen


@lru_cache(maxsize=4096)
def glyph_ops(font_name: str, glyph: str) -> tuple:
    """A glyph's outline as path ops in the font's units (y up), made once: what text_outline
    places, and what the SVG backend defines once and reuses."""
    font = get_font(font_name)
    gs = font.tt.getGlyphSet()
    pen = _ops_pen()(gs)
    gs[glyph].draw(pen)
    return tuple(pen.ops)


def text_outline(font: Font, text: str, x: float, y: float, size: float, direction: str | None = None,
                 context: tuple[str, str] = ("", "")) -> list[tuple]:
    """Path ops (y down) for text whose baseline starts at (x, y): its glyphs' outlines as
    Font.glyphs sets them."""
    k = size / font.upm
    ops: list[tuple] = []
    for g, gx, gy in font.glyphs(text, direction, context):
        pen_x, pen_y = x + gx * k, y - gy * k
        for op in glyph_ops(font.name, g):
            if op[0] == "Z":
                ops.append(op)
                continue
            coords = op[1:]
            pts = []
            for i in range(0, len(coords), 2):
                pts += [pen_x + coords[i] * k, pen_y - coords[i + 1] * k]
            ops.append((op[0], *pts))
    return ops
