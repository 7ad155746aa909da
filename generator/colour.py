"""Colours as given in the YAML (RGB or CMYK), and their conversions.

A spec writes a colour as "#rrggbb", "rgb(r, g, b)" (0-255), "cmyk(c, m, y, k)" (percent), or the
name of an entry in the spec's palette. The PDF backend writes a colour as it was given unless
--cmyk asks for every colour in CMYK; SVG and PNG are RGB by nature.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from .errors import show

_HEX = re.compile(r"^#([0-9a-fA-F]{6})$")
_NUM = r"\s*(\d+(?:\.\d+)?)\s*"
_RGB = re.compile(rf"^rgb\({_NUM},{_NUM},{_NUM}\)$")
_CMYK = re.compile(rf"^cmyk\({_NUM},{_NUM},{_NUM},{_NUM}\)$")


@dataclass(frozen=True)
class Colour:
    """Components in 0..1; exactly one of rgb / cmyk is the colour as specified."""
    rgb: tuple[float, float, float] | None = None
    cmyk: tuple[float, float, float, float] | None = None

    def as_rgb(self) -> tuple[float, float, float]:
        if self.rgb is not None:
            return self.rgb
        c, m, y, k = self.cmyk
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))

    def as_cmyk(self) -> tuple[float, float, float, float]:
        if self.cmyk is not None:
            return self.cmyk
        r, g, b = self.rgb
        k = 1 - max(r, g, b)
        if k >= 1:
            return (0.0, 0.0, 0.0, 1.0)
        return ((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k)

    def hex(self) -> str:
        return "#" + "".join(f"{round(v * 255):02x}" for v in self.as_rgb())

    def mix(self, other: "Colour", t: float) -> "Colour":
        """t of the way from self to other, in RGB (for tints)."""
        a, b = self.as_rgb(), other.as_rgb()
        return Colour(rgb=tuple(x + (y - x) * t for x, y in zip(a, b)))


WHITE = Colour(rgb=(1.0, 1.0, 1.0))
BLACK = Colour(rgb=(0.0, 0.0, 0.0))
# Registration "colour" prints on every plate: what crop and registration marks are drawn in.
REGISTRATION = Colour(cmyk=(1.0, 1.0, 1.0, 1.0))


def parse_colour(text: str, palette: dict[str, Colour] | None = None) -> Colour:
    """Parse a colour string; raises ValueError with a short reason."""
    if not isinstance(text, str):
        raise ValueError(f"expected a colour, got {show(text)}")
    s = text.strip()
    if m := _HEX.match(s):
        h = m.group(1)
        return Colour(rgb=tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)))
    if m := _RGB.match(s):
        vals = [float(v) for v in m.groups()]
        if any(v > 255 for v in vals):
            raise ValueError(f'rgb components must be 0-255, got "{text}"')
        return Colour(rgb=tuple(v / 255 for v in vals))
    if m := _CMYK.match(s):
        vals = [float(v) for v in m.groups()]
        if any(v > 100 for v in vals):
            raise ValueError(f'cmyk components must be 0-100 percent, got "{text}"')
        return Colour(cmyk=tuple(v / 100 for v in vals))
    if palette is not None and s in palette:
        return palette[s]
    known = f" or a palette name ({', '.join(sorted(palette))})" if palette else ""
    raise ValueError(f'expected a colour ("#rrggbb", "rgb(r,g,b)", "cmyk(c,m,y,k)"{known}), got "{text}"')


def relative_luminance(colour: Colour) -> float:
    """WCAG 2 relative luminance of a colour (its sRGB, linearised)."""
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in colour.as_rgb())
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: Colour, b: Colour) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (alike) to 21 (black on white); text wants 4.5."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable_on(colour: Colour, *inks: Colour) -> Colour:
    """Of the inks, the one with the most contrast on the colour (the first on a tie)."""
    return max(inks, key=lambda ink: contrast_ratio(ink, colour))
