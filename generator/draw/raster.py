"""PNG previews of Drawings, through the SVG backend and cairosvg."""
from __future__ import annotations

import cairosvg

from ..units import MM_PER_INCH
from .drawing import Drawing
from .svg import svg_string


def png_bytes(drawing: Drawing, dpi: float = 96) -> bytes:
    width_px = round(drawing.width / MM_PER_INCH * dpi)
    return cairosvg.svg2png(bytestring=svg_string(drawing).encode(), output_width=width_px)
