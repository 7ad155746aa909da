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

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont

_DIR = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
FONT_FILES = {
    "sans": "Vera.ttf",
    "sans-bold": "VeraBd.ttf",
    "sans-italic": "VeraIt.ttf",
    "sans-bold-italic": "VeraBI.ttf",
}


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

    def glyph_name(self, ch: str) -> str:
        name = self._glyphs.get(ch)
        if name is None:
            cmap = self.tt.getBestCmap()
            name = self._glyphs[ch] = cmap.get(ord(ch)) or cmap.get(ord("?")) or ".notdef"
        return name

    def advance(self, ch: str) -> float:
        adv = self._advances.get(ch)
        if adv is None:
            adv = self._advances[ch] = self.tt["hmtx"][self.glyph_name(ch)][0] / self.upm
        return adv

    def width(self, text: str, size: float) -> float:
        """Advance width of text set at size (same unit as size: here always mm)."""
        advances = self._advances
        total = 0.0
        for ch in text:
            adv = advances.get(ch)
            total += adv if adv is not None else self.advance(ch)
        return total * size


# Fonts read from a spec's folder (font_from_bytes), by the name made from their content.
_FROM_FILES: dict[str, Font] = {}
MAX_FONT_BYTES = 16 * 1024 * 1024


class FontFileError(ValueError):
    """Why a file is not a font we can set text in and embed, in a few words."""


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
    from fontTools.ttLib import TTFont, TTLibError
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


def text_outline(font: Font, text: str, x: float, y: float, size: float) -> list[tuple]:
    """Path ops (y down) for text whose baseline starts at (x, y)."""
    k = size / font.upm
    ops: list[tuple] = []
    pen_x = x
    for ch in text:
        g = font.glyph_name(ch)
        for op in glyph_ops(font.name, g):
            if op[0] == "Z":
                ops.append(op)
                continue
            coords = op[1:]
            pts = []
            for i in range(0, len(coords), 2):
                pts += [pen_x + coords[i] * k, y - coords[i + 1] * k]
            ops.append((op[0], *pts))
        pen_x += font.advance(ch) * size
    return ops
