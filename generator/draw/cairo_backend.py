"""The cairo backend: a Drawing rasterised straight to pixels (libcairo), for PNG previews.

Previews used to be written as SVG text and parsed back by cairosvg; drawing the display list
directly gives the same pixels several times faster. Everything here follows what cairosvg made of
the SVG backend's output, so PNG, SVG and PDF agree: text is filled as its glyph outlines
(fonts.text_outline, as in svg.py), colours are the SVG's 8-bit hex values, the miter limit is
SVG's 4, clips use the nonzero rule, a group under a singular transform draws nothing, a rect of
zero width or height and a circle of zero radius draw nothing, and the background is left
transparent (cairosvg paints none).

Speed: a preview is tens of thousands of path operations, so the renderer calls cairo's C
functions (through cffi: cairo_lib.py) rather than a wrapper's Context methods (which check the
context's status after every call); cairo's error status is sticky, so it is checked once, at the
end. Each glyph's outline is made once, in font units, and appended under a transform.

cairo is loaded inside the functions: `pnp referee` must start without loading it.
"""
from __future__ import annotations

import math
import sys
import threading

from ..colour import Colour
from ..units import MM_PER_INCH
from .drawing import IDENTITY, Drawing, Ellipse, Gradient, Group, Image, Rect, Text
from .fonts import Font

# cairosvg's rounded rectangle (from the Cairo cookbook): a quarter circle as one cubic.
_ARC_TO_BEZIER = 4 * (2 ** .5 - 1) / 3
_SVG_MITER_LIMIT = 4.0   # SVG's default stroke-miterlimit (PDF's is 10)


def raster_size(drawing: Drawing, dpi: float) -> tuple[int, int]:
    """Pixels wide and high at dpi, as cairosvg sized svg2png(output_width=...): the width
    rounded, the height keeping the aspect ratio, rounded."""
    width_px = round(drawing.width / MM_PER_INCH * dpi) if drawing.width > 0 else 0
    height_px = round(drawing.height * (width_px / drawing.width)) if width_px > 0 else 0
    if width_px <= 0 or height_px <= 0:   # cairosvg refused these too ("The SVG size is undefined")
        raise ValueError(f"a {drawing.width:g} x {drawing.height:g} mm drawing has no pixels at {dpi:g} dpi")
    return width_px, height_px


def _svg_rgb(colour: Colour) -> tuple[float, float, float]:
    """The colour as the SVG backend writes it (hex, 8 bits a channel), so pixels match."""
    return tuple(round(v * 255) / 255 for v in colour.as_rgb())


class _Glyphs:
    """Each glyph's outline as a cairo path in font units (y down), made once; Text is set by the
    glyphs Font.glyphs places (as text_outline sets them)."""

    def __init__(self, lib, ffi):
        self.lib, self.ffi = lib, ffi
        self._scratch = ffi.gc(lib.cairo_create(ffi.gc(lib.cairo_image_surface_create(0, 0, 0),
                                                       lib.cairo_surface_destroy)), lib.cairo_destroy)
        self._paths: dict[tuple[str, str], tuple[object, int]] = {}
        self._lock = threading.Lock()   # the scratch context is shared; paths, once made, are read only

    def get(self, font: Font, glyph: str):
        got = self._paths.get((font.name, glyph))
        if got is None:
            with self._lock:
                got = self._make(font, glyph)
        return got

    def _make(self, font: Font, glyph: str):
        from .fonts import glyph_ops
        lib, ctx = self.lib, self._scratch
        lib.cairo_new_path(ctx)
        ops = [op if op[0] == "Z" else (op[0], *[v if i % 2 == 0 else -v for i, v in enumerate(op[1:])])
               for op in glyph_ops(font.name, glyph)]
        _append_ops(lib, ctx, ops)
        path = self.ffi.gc(lib.cairo_copy_path(ctx), lib.cairo_path_destroy)
        got = self._paths[(font.name, glyph)] = path
        return got


_glyphs: _Glyphs | None = None
_glyphs_lock = threading.Lock()


def _append_ops(lib, ctx, ops) -> None:
    move, line, curve, close = lib.cairo_move_to, lib.cairo_line_to, lib.cairo_curve_to, lib.cairo_close_path
    for op in ops:
        kind = op[0]
        if kind == "L":
            line(ctx, op[1], op[2])
        elif kind == "C":
            curve(ctx, op[1], op[2], op[3], op[4], op[5], op[6])
        elif kind == "M":
            move(ctx, op[1], op[2])
        else:
            close(ctx)


class CairoRenderer:
    """Renders display-list items onto a cairo context (a cffi cairo_t pointer)."""

    def __init__(self, ctx, greek_px: float | None = None):
        """greek_px: text whose em is smaller than this many pixels is drawn as a grey bar (a
        "greeked" line, as page thumbnails show it) rather than letters too small to read."""
        global _glyphs
        from . import cairo_lib as cl
        ffi, lib = cl.cairo()
        self.lib, self.ffi, self.ctx = lib, ffi, ctx
        with _glyphs_lock:
            if _glyphs is None:
                _glyphs = _Glyphs(lib, ffi)
        self.glyphs = _glyphs
        self._rgb: dict[Colour, tuple[float, float, float]] = {}
        self._joins = {"miter": cl.LINE_JOIN_MITER, "round": cl.LINE_JOIN_ROUND, "bevel": cl.LINE_JOIN_BEVEL}
        self._caps = {"butt": cl.LINE_CAP_BUTT, "round": cl.LINE_CAP_ROUND, "square": cl.LINE_CAP_SQUARE}
        self._even_odd, self._winding = cl.FILL_RULE_EVEN_ODD, cl.FILL_RULE_WINDING
        lib.cairo_set_miter_limit(ctx, _SVG_MITER_LIMIT)
        self.greek_px = greek_px
        self._xy = ffi.new("double[2]") if greek_px else None

    def _source(self, colour: Colour, opacity: float = 1.0) -> None:
        rgb = self._rgb.get(colour)
        if rgb is None:
            rgb = self._rgb[colour] = _svg_rgb(colour)
        if opacity < 1:
            self.lib.cairo_set_source_rgba(self.ctx, *rgb, opacity)
        else:
            self.lib.cairo_set_source_rgb(self.ctx, *rgb)

    def _paint(self, paint, opacity: float = 1.0) -> None:
        """A colour or a Gradient (its colours as the SVG's stops, padded past its ends) as the source."""
        if not isinstance(paint, Gradient):
            self._source(paint, opacity)
            return
        from . import cairo_lib as cl
        lib = self.lib
        if paint.kind == "linear":
            pattern = lib.cairo_pattern_create_linear(*paint.points)
        else:
            cx, cy, r = paint.points
            pattern = lib.cairo_pattern_create_radial(cx, cy, 0.0, cx, cy, r)
        for offset, colour in paint.stops:
            lib.cairo_pattern_add_color_stop_rgba(pattern, offset, *_svg_rgb(colour), opacity)
        lib.cairo_pattern_set_extend(pattern, cl.EXTEND_PAD)
        lib.cairo_set_source(self.ctx, pattern)
        lib.cairo_pattern_destroy(pattern)        # (the context holds its own reference)

    def _outline(self, item) -> bool:
        """Put the item's outline in the current path; False if it has none (draws nothing)."""
        lib, ctx = self.lib, self.ctx
        if isinstance(item, Rect):
            x, y, w, h = item.x, item.y, item.w, item.h
            if w == 0 or h == 0:
                return False
            if item.r <= 0:
                lib.cairo_rectangle(ctx, x, y, w, h)
                return True
            rx, ry = min(item.r, w / 2), min(item.r, h / 2)
            c1, c2 = _ARC_TO_BEZIER * rx, _ARC_TO_BEZIER * ry
            lib.cairo_move_to(ctx, x + rx, y)
            lib.cairo_rel_line_to(ctx, w - 2 * rx, 0)
            lib.cairo_rel_curve_to(ctx, c1, 0, rx, c2, rx, ry)
            lib.cairo_rel_line_to(ctx, 0, h - 2 * ry)
            lib.cairo_rel_curve_to(ctx, 0, c2, c1 - rx, ry, -rx, ry)
            lib.cairo_rel_line_to(ctx, -w + 2 * rx, 0)
            lib.cairo_rel_curve_to(ctx, -c1, 0, -rx, -c2, -rx, -ry)
            lib.cairo_rel_line_to(ctx, 0, -h + 2 * ry)
            lib.cairo_rel_curve_to(ctx, 0, -c2, rx - c1, -ry, rx, -ry)
            lib.cairo_close_path(ctx)
            return True
        if isinstance(item, Ellipse):
            if not item.rx or not item.ry:
                return False
            lib.cairo_new_sub_path(ctx)
            if item.rx == item.ry:
                lib.cairo_arc(ctx, item.cx, item.cy, item.rx, 0, 2 * math.pi)
            else:
                ratio = item.ry / item.rx
                lib.cairo_save(ctx)
                lib.cairo_scale(ctx, 1, ratio)
                lib.cairo_arc(ctx, item.cx, item.cy / ratio, item.rx, 0, 2 * math.pi)
                lib.cairo_restore(ctx)
            lib.cairo_close_path(ctx)
            return True
        _append_ops(lib, ctx, item.ops)
        return True

    def _text(self, item: Text) -> None:
        """The same outlines as text_outline(item...): each glyph's, scaled to the size and
        set along the baseline by the glyphs' advances."""
        lib, ctx, glyphs = self.lib, self.ctx, self.glyphs
        if self.greek_px is not None and self._greeked(item):
            return
        lib.cairo_save(ctx)
        lib.cairo_translate(ctx, item.x, item.y)
        k = item.size / item.font.upm
        lib.cairo_scale(ctx, k, k)
        at_x = at_y = 0.0
        for glyph, gx, gy in item.font.glyphs(item.text, item.direction, item.context):
            lib.cairo_translate(ctx, gx - at_x, -gy - at_y)
            at_x, at_y = gx, -gy
            lib.cairo_append_path(ctx, glyphs.get(item.font, glyph))
        lib.cairo_restore(ctx)
        self._source(item.fill, item.opacity)
        lib.cairo_fill(ctx)

    def _greeked(self, item: Text) -> bool:
        """Text smaller than greek_px on the page, drawn as a bar the height of its small letters
        in its colour, lighter (True); or nothing done (False)."""
        lib, ctx, xy = self.lib, self.ctx, self._xy
        xy[0], xy[1] = 0.0, item.size
        lib.cairo_user_to_device_distance(ctx, xy, xy + 1)
        if (xy[0] ** 2 + xy[1] ** 2) ** 0.5 >= self.greek_px:
            return False
        width = item.font.width(item.text.rstrip(), item.size)
        lead = len(item.text) - len(item.text.lstrip())
        x0 = item.x + item.font.width(item.text[:lead], item.size)
        r, g, b = _svg_rgb(item.fill)
        lib.cairo_set_source_rgba(ctx, r, g, b, 0.45)
        lib.cairo_rectangle(ctx, x0, item.y - 0.5 * item.size, width - (x0 - item.x), 0.5 * item.size)
        lib.cairo_fill(ctx)
        return True

    def _image(self, item: Image) -> None:
        """A picture's pixels drawn from its frame, shown within its box, mirrored past the frame's
        edges by cairo's reflect pattern (as the PDF's mirror images are)."""
        fx, fy, fw, fh = item.frame
        if item.w <= 0 or item.h <= 0 or fw <= 0 or fh <= 0:
            return
        surface, w, h = _surface(self.lib, self.ffi, item.picture, (fw, fh))
        lib, ctx = self.lib, self.ctx
        from . import cairo_lib as cl
        lib.cairo_save(ctx)
        lib.cairo_translate(ctx, fx, fy)
        kx, ky = fw / w, fh / h
        lib.cairo_scale(ctx, kx, ky)             # pixels from here on: the pattern is the surface's
        lib.cairo_set_source_surface(ctx, surface, 0, 0)
        pattern = lib.cairo_get_source(ctx)
        lib.cairo_pattern_set_extend(pattern, cl.EXTEND_REFLECT)
        lib.cairo_pattern_set_filter(pattern, cl.FILTER_GOOD)
        lib.cairo_rectangle(ctx, (item.x - fx) / kx, (item.y - fy) / ky, item.w / kx, item.h / ky)
        if item.opacity < 1:
            lib.cairo_clip(ctx)
            lib.cairo_paint_with_alpha(ctx, item.opacity)
        else:
            lib.cairo_fill(ctx)
        lib.cairo_restore(ctx)

    def render(self, item) -> None:
        lib, ctx = self.lib, self.ctx
        if isinstance(item, Group):
            t = item.transform
            if t != IDENTITY:
                det = t[0] * t[3] - t[1] * t[2]
                if det == 0 or not math.isfinite(det):
                    return  # cairo cannot invert it; cairosvg clips such a group to nothing
            lib.cairo_save(ctx)
            if t != IDENTITY:
                m = self.ffi.new("cairo_matrix_t *")
                lib.cairo_matrix_init(m, *t)
                lib.cairo_transform(ctx, m)
            if item.clip is not None:
                self._outline(item.clip)
                lib.cairo_clip(ctx)   # an empty outline clips everything, as in cairosvg
            for child in item.items:
                self.render(child)
            lib.cairo_restore(ctx)
        elif isinstance(item, Text):
            self._text(item)
        elif isinstance(item, Image):
            self._image(item)
        else:
            s = item.style
            if s.fill is None and s.stroke is None:
                return
            if not self._outline(item):
                lib.cairo_new_path(ctx)
                return
            if s.fill is not None:
                self._paint(s.fill, s.fill_opacity)
                if s.even_odd:
                    lib.cairo_set_fill_rule(ctx, self._even_odd)
                    lib.cairo_fill_preserve(ctx)
                    lib.cairo_set_fill_rule(ctx, self._winding)
                else:
                    lib.cairo_fill_preserve(ctx)
            if s.stroke is not None:
                self._source(s.stroke, s.stroke_opacity)
                lib.cairo_set_line_width(ctx, s.width)
                lib.cairo_set_line_join(ctx, self._joins[s.join])
                lib.cairo_set_line_cap(ctx, self._caps[s.cap])
                dashed = bool(s.dash) and sum(s.dash) > 0   # all-zero dashes mean solid, as in SVG
                if dashed:
                    lib.cairo_set_dash(ctx, self.ffi.new("double[]", list(s.dash)), len(s.dash), 0.0)
                lib.cairo_stroke_preserve(ctx)
                if dashed:
                    lib.cairo_set_dash(ctx, self.ffi.NULL, 0, 0.0)
            lib.cairo_new_path(ctx)


_surfaces: dict = {}                 # a picture's pixels as a cairo surface, by what names them
_surfaces_bytes = [0]
SURFACE_CACHE_BYTES = 32 * 1024 * 1024
_surfaces_lock = threading.Lock()


def _surface(lib, ffi, picture, frame_mm):
    """A picture's pixels (images.pixels) as a cairo ARGB32 surface: premultiplied, a native-endian
    32-bit word a pixel. Kept a while (an icon is on every card), with the buffer it reads from."""
    from . import cairo_lib as cl
    from .images import pixels, raster_key
    key = raster_key(picture, frame_mm)
    with _surfaces_lock:
        known = _surfaces.get(key)
    if known is not None:
        return known[0], known[1], known[2]
    rgba = pixels(picture, frame_mm)
    w, h = rgba.size
    stride = lib.cairo_format_stride_for_width(cl.FORMAT_ARGB32, w)
    if sys.byteorder == "little" and stride == 4 * w:
        buf = rgba.tobytes("raw", "BGRa")           # PIL's premultiplied B, G, R, A: cairo's words
    else:
        import numpy as np
        a = np.asarray(rgba)
        al = a[:, :, 3:4].astype(np.uint16)
        rgb = ((a[:, :, :3].astype(np.uint16) * al + 127) // 255).astype(np.uint8)
        words = np.zeros((h, stride), np.uint8)
        px = words[:, :4 * w].reshape(h, w, 4)
        r, g, b, alpha = (2, 1, 0, 3) if sys.byteorder == "little" else (1, 2, 3, 0)
        px[:, :, r], px[:, :, g], px[:, :, b], px[:, :, alpha] = rgb[:, :, 0], rgb[:, :, 1], rgb[:, :, 2], a[:, :, 3]
        buf = words.tobytes()
    surface = ffi.gc(lib.cairo_image_surface_create_for_data(ffi.from_buffer(buf), cl.FORMAT_ARGB32, w, h, stride),
                     lib.cairo_surface_destroy)
    with _surfaces_lock:
        _surfaces[key] = (surface, w, h, buf)
        _surfaces_bytes[0] += len(buf)
        while _surfaces_bytes[0] > SURFACE_CACHE_BYTES and len(_surfaces) > 1:
            old = next(iter(_surfaces))
            if old == key:
                break
            _surfaces_bytes[0] -= len(_surfaces.pop(old)[3])
    return surface, w, h


def render_surface(drawing: Drawing, dpi: float, greek_px: float | None = None):
    """A cairo_lib.ImageSurface (ARGB32) with the drawing at dpi, transparent where nothing is drawn
    (text under greek_px pixels drawn as bars: CairoRenderer)."""
    from . import cairo_lib
    width_px, height_px = raster_size(drawing, dpi)
    surface = cairo_lib.ImageSurface(False, width_px, height_px)
    k = width_px / drawing.width   # pixels per mm: the width fits exactly, as in cairosvg
    surface.lib.cairo_scale(surface.ptr, k, k)
    renderer = CairoRenderer(surface.ptr, greek_px)
    for child in drawing.root.items:
        renderer.render(child)
    surface.check()   # the first error cairo met while drawing, if any
    surface.flush()
    return surface
