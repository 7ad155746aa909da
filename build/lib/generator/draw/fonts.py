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


@lru_cache(maxsize=None)
def get_font(name: str) -> Font:
    if name not in FONT_FILES:
        raise KeyError(f"unknown font {name!r}; known: {', '.join(FONT_FILES)}")
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
def _glyph_ops(font_name: str, glyph: str) -> tuple:
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
        for op in _glyph_ops(font.name, g):
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
