"""PNG previews of Drawings: drawn straight to pixels by the cairo backend (cairo_backend.py) and
written as PNG here.

The PNG is written by hand rather than by cairo's writer because cairo's (libpng, adaptive row
filters, zlib level 6) took longer than drawing the preview. Previews are flat-coloured vector art:
unfiltered rows at zlib level 3 make files a little smaller than cairo's, three times faster.
The pixels are what cairo's writer would write (RGB when every pixel is opaque, else RGBA with
cairo's un-premultiplying), with the same chunks (IHDR, bKGD white, IDAT, IEND): no time, text or
version chunk, so the same drawing gives the same bytes in any process.

cairo and numpy are loaded inside the functions: `pnp referee` must start without them.
"""
from __future__ import annotations

import struct
import sys
import zlib

from ..units import MM_PER_INCH
from .drawing import Drawing

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_LEVEL = 3


MAX_SIDE_PX = 30_000        # cairo's images stop at 32,767 pixels a side
MAX_AREA_PX = 64_000_000    # 256 MB of pixels: a preview, not a print


def png_bytes(drawing: Drawing, dpi: float = 96, greek_px: float | None = None) -> bytes:
    """The drawing as a PNG at dpi (its width in pixels rounded from its width in mm); a drawing
    too large for that (a contact sheet of hundreds of faces) at the highest dpi that fits.
    greek_px: text smaller than that on the picture drawn as bars (cairo_backend.CairoRenderer)."""
    from .cairo_backend import render_surface
    inches_w, inches_h = drawing.width / 25.4, drawing.height / 25.4
    if inches_w > 0 and inches_h > 0:
        dpi = min(dpi, MAX_SIDE_PX / max(inches_w, inches_h), (MAX_AREA_PX / (inches_w * inches_h)) ** 0.5)
    return surface_png(render_surface(drawing, dpi, greek_px))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def surface_png(surface, level: int = ZLIB_LEVEL) -> bytes:
    """A cairo ARGB32 or RGB24 image surface (cairo_lib's, or cairocffi's) as PNG bytes (RGB24:
    opaque, its fourth byte unused)."""
    import numpy as np
    from .cairo_lib import FORMAT_RGB24
    surface.flush()
    w, h, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    # ARGB32 is a native-endian 32-bit word per pixel: B, G, R, A in memory on little-endian.
    b, g, r, a = (0, 1, 2, 3) if sys.byteorder == "little" else (3, 2, 1, 0)
    argb = np.frombuffer(surface.get_data(), np.uint8).reshape(h, stride)[:, :4 * w].reshape(h, w, 4)
    alpha = argb[:, :, a]
    opaque = surface.get_format() == FORMAT_RGB24 or bool((alpha == 255).all())
    channels = 3 if opaque else 4
    rows = np.zeros((h, 1 + channels * w), np.uint8)   # each row: filter type 0 (none), pixels
    out = rows[:, 1:].reshape(h, w, channels)
    out[:, :, 0] = argb[:, :, r]
    out[:, :, 1] = argb[:, :, g]
    out[:, :, 2] = argb[:, :, b]
    if not opaque:
        out[:, :, 3] = alpha
        # Cairo's pixels are premultiplied; PNG's are not. Where alpha is 255 they agree; elsewhere
        # round as cairo's PNG writer does, (c * 255 + alpha / 2) / alpha, and 0 where alpha is 0.
        part = alpha != 255
        al = alpha[part].astype(np.uint32)
        safe = np.maximum(al, 1)
        for i in range(3):
            c = out[:, :, i][part].astype(np.uint32)
            out[:, :, i][part] = np.where(al == 0, 0, (c * 255 + al // 2) // safe).astype(np.uint8)
    colour_type = 2 if opaque else 6
    return b"".join([
        PNG_SIGNATURE,
        _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0)),
        _chunk(b"bKGD", struct.pack(">HHH", 255, 255, 255)),   # as cairo writes: white
        _chunk(b"IDAT", zlib.compress(rows, level)),
        _chunk(b"IEND", b""),
    ])


def _png_bytes_via_svg(drawing: Drawing, dpi: float = 96) -> bytes:
    """The old way, SVG text parsed back by cairosvg: kept only for tests and benchmarks to
    compare the cairo backend against; builds never call it."""
    import cairosvg
    from .svg import svg_string
    width_px = round(drawing.width / MM_PER_INCH * dpi)
    return cairosvg.svg2png(bytestring=svg_string(drawing).encode(), output_width=width_px)
