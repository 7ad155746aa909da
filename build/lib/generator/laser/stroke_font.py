"""A single-stroke font for scored labels: the Hershey "futural" (Roman simplex) font, the one
engravers use. A letter is a few open strokes the beam runs once, where an outline font makes the
laser trace both edges of every stem (twice the marking, ten times the points, and a blurred
letter at the 2-4 mm sizes part labels are scored at).

Text is set to the same cap height as the outline sans it replaces (Vera, at the same `size`),
and never wider than that sans would set it, so labels placed for the old font still fit.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

# Hershey glyph coordinates are y down, the cap line at -12 and the base line at 9.
HERSHEY_BASE, HERSHEY_CAP_HEIGHT = 9, 21


@lru_cache(maxsize=1)
def _glyphs() -> dict:
    """The font's glyphs by character (printable ASCII). Imported here: only label-making pays."""
    from HersheyFonts import HersheyFonts
    font = HersheyFonts()
    font.load_default_font("futural")
    return font.all_glyphs


@lru_cache(maxsize=None)
def _strokes(ch: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A glyph's strokes, those that meet end to end joined into one (E: three strokes, not
    four; R: two): the same marks, fewer pen lifts for the laser and fewer entities in a file."""
    strokes = [list(s) for s in _glyphs()[ch].strokes if len(s) > 1]
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(strokes):
            for j, b in enumerate(strokes):
                if i == j:
                    continue
                if a[-1] == b[0]:
                    merged = a + b[1:]
                elif a[-1] == b[-1]:
                    merged = a + b[-2::-1]
                elif a[0] == b[-1]:
                    merged = b + a[1:]
                elif a[0] == b[0]:
                    merged = a[::-1] + b[1:]
                else:
                    continue
                strokes = [s for k, s in enumerate(strokes) if k not in (i, j)] + [merged]
                joined = True
                break
            if joined:
                break
    return tuple(tuple(s) for s in strokes)


def _printable(ch: str, glyphs: dict) -> str:
    """The character, or its letter without accents (é -> e), or '?' where the font has neither."""
    if ch in glyphs:
        return ch
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return base if base and all(c in glyphs for c in base) else "?"


def stroke_text(text: str, x: float, y: float, size: float) -> list[list[tuple[float, float]]]:
    """Text as strokes (polylines, y down), baseline starting at (x, y); `size` as a font size
    in mm (the em of the outline sans), as text_outline takes it."""
    from ..draw.fonts import get_font
    glyphs = _glyphs()
    chars = "".join(_printable(ch, glyphs) for ch in text)
    sans = get_font("sans")
    k = sans.cap_height * size / HERSHEY_CAP_HEIGHT          # mm per Hershey unit, vertically
    width = sum(glyphs[ch].char_width for ch in chars) * k
    wanted = sans.width(text, size)
    kx = k * min(1.0, wanted / width) if width > 0 else k   # condensed only where the sans is narrower
    strokes = []
    pen = x
    for ch in chars:
        glyph = glyphs[ch]
        for stroke in _strokes(ch):
            strokes.append([(pen + (gx - glyph.left_offset) * kx, y + (gy - HERSHEY_BASE) * k) for gx, gy in stroke])
        pen += glyph.char_width * kx
    return strokes
