"""The svgwrite backend: a Drawing as an SVG in mm (width/height in mm, viewBox in mm).

Text is written as glyph outlines (see fonts.py), so the file needs no installed font. With
shared_glyphs (a picture for a screen, such as `pnp serve`'s positions), each glyph's outline is
written once, in the font's units, and each letter of a text refers to it: the same text, a
fraction of the bytes and of the time. Files for cutters and print keep every outline in place.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import svgwrite

from ..colour import Colour
from .drawing import IDENTITY, Drawing, Ellipse, Gradient, Group, Image, Rect, Text
from .fonts import glyph_ops, text_outline


def _num(v: float) -> str:
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def path_data(ops) -> str:
    parts = []
    for op in ops:
        parts.append(op[0] + " ".join(_num(v) for v in op[1:]))
    return " ".join(parts)


@lru_cache(maxsize=4096)
def _glyph_data(font_name: str, glyph: str) -> str:
    """A glyph's outline as path data, in the font's units (y up)."""
    return path_data(glyph_ops(font_name, glyph))


def _paint(colour: Colour | None) -> str:
    return "none" if colour is None else colour.hex()


class SvgRenderer:
    def __init__(self, dwg: svgwrite.Drawing, shared_glyphs: bool = False):
        self.dwg = dwg
        self._ids = itertools.count(1)
        self.shared_glyphs = shared_glyphs
        self._glyphs: dict = {}          # (font, glyph) -> its id in <defs>, or None (no outline)
        self._gradients: dict = {}       # Gradient -> its id in <defs>

    def _glyph(self, font, glyph: str) -> str | None:
        key = (font.name, glyph)
        if key not in self._glyphs:
            outline = _glyph_data(font.name, glyph)
            gid = None
            if outline:
                gid = f"g{len(self._glyphs) + 1}"
                self.dwg.defs.add(self.dwg.path(d=outline, id=gid))
            self._glyphs[key] = gid
        return self._glyphs[key]

    def _shared_text(self, item):
        """The text as references to its glyphs' outlines (font units, y up), scaled into place."""
        d, font = self.dwg, item.font
        k = item.size / font.upm
        extra = {"fill_opacity": _num(item.opacity)} if item.opacity < 1 else {}
        g = d.g(fill=item.fill.hex(), transform=f"matrix({_num(k)} 0 0 {_num(-k)} {_num(item.x)} {_num(item.y)})",
                **extra)
        pen = 0.0
        for ch in item.text:
            gid = self._glyph(font, font.glyph_name(ch))
            if gid is not None:
                g.add(d.use(f"#{gid}", x=_num(pen)) if pen else d.use(f"#{gid}"))
            pen += font.advance(ch) * font.upm
        return g

    def _gradient(self, g: Gradient) -> str:
        """A gradient in <defs> (in the user space of the shape it fills), once a file; its url()."""
        gid = self._gradients.get(g)
        if gid is None:
            d = self.dwg
            gid = self._gradients[g] = f"grad{len(self._gradients) + 1}"
            if g.kind == "linear":
                x1, y1, x2, y2 = map(_num, g.points)
                el = d.linearGradient(id=gid, gradientUnits="userSpaceOnUse", x1=x1, y1=y1, x2=x2, y2=y2)
            else:
                cx, cy, r = map(_num, g.points)
                el = d.radialGradient(id=gid, gradientUnits="userSpaceOnUse", cx=cx, cy=cy, r=r)
            for offset, colour in g.stops:
                el.add_stop_color(offset=_num(offset), color=colour.hex())
            d.defs.add(el)
        return f"url(#{gid})"

    def _style(self, s) -> dict:
        attrs = {"fill": self._gradient(s.fill) if isinstance(s.fill, Gradient) else _paint(s.fill)}
        if s.fill is not None and s.fill_opacity < 1:
            attrs["fill_opacity"] = _num(s.fill_opacity)
        if s.stroke is not None:
            attrs.update({"stroke": _paint(s.stroke), "stroke_width": _num(s.width),
                          "stroke_linejoin": s.join, "stroke_linecap": s.cap})
            if s.stroke_opacity < 1:
                attrs["stroke_opacity"] = _num(s.stroke_opacity)
            if s.dash:
                attrs["stroke_dasharray"] = " ".join(_num(v) for v in s.dash)
        if s.even_odd:
            attrs["fill_rule"] = "evenodd"
        return attrs

    def _shape(self, item):
        d = self.dwg
        if isinstance(item, Rect):
            kw = {"rx": _num(item.r), "ry": _num(item.r)} if item.r > 0 else {}
            return d.rect((_num(item.x), _num(item.y)), (_num(item.w), _num(item.h)), **kw, **self._style(item.style))
        if isinstance(item, Ellipse):
            if item.rx == item.ry:
                return d.circle((_num(item.cx), _num(item.cy)), _num(item.rx), **self._style(item.style))
            return d.ellipse((_num(item.cx), _num(item.cy)), (_num(item.rx), _num(item.ry)), **self._style(item.style))
        if isinstance(item, Image):
            return self._image(item)
        if isinstance(item, Text) and self.shared_glyphs:
            return self._shared_text(item)
        if isinstance(item, Text):
            ops = text_outline(item.font, item.text, item.x, item.y, item.size, item.direction, item.context)
            extra = {"fill_opacity": _num(item.opacity)} if item.opacity < 1 else {}
            return d.path(d=path_data(ops) or "M0 0", fill=item.fill.hex(), **extra)
        return d.path(d=path_data(item.ops), **self._style(item.style))

    def _image(self, item):
        """The picture's pixels (a PNG inside the file), drawn at its frame and mirrored past it,
        clipped to its box (as the PDF draws it)."""
        import base64
        from .images import pixels, png_of, tiles
        d = self.dwg
        fx, fy, fw, fh = item.frame
        href = "data:image/png;base64," + base64.b64encode(png_of(pixels(item.picture, (fw, fh)))).decode("ascii")
        cid = f"clip{next(self._ids)}"
        cp = d.defs.add(d.clipPath(id=cid))
        cp.add(d.rect((_num(item.x), _num(item.y)), (_num(item.w), _num(item.h))))
        g = d.g(clip_path=f"url(#{cid})", **({"opacity": _num(item.opacity)} if item.opacity < 1 else {}))
        for tx, ty, tw, th, across, down in tiles((item.x, item.y, item.w, item.h), item.frame):
            m = (-1 if across else 1, 0, 0, -1 if down else 1, tx + tw if across else tx, ty + th if down else ty)
            g.add(d.image(href, insert=(0, 0), size=(_num(tw), _num(th)), preserveAspectRatio="none",
                          transform="matrix(" + " ".join(_num(v) for v in m) + ")"))
        return g

    def render(self, item, parent):
        if isinstance(item, Group):
            attrs = {}
            if item.transform != IDENTITY:
                attrs["transform"] = "matrix(" + " ".join(_num(v) for v in item.transform) + ")"
            if item.name:
                attrs["id"] = item.name
            g = self.dwg.g(**attrs)
            parent.add(g)
            inner = g
            if item.clip is not None:
                cid = f"clip{next(self._ids)}"
                cp = self.dwg.defs.add(self.dwg.clipPath(id=cid))
                cp.add(self._shape(item.clip))
                inner = self.dwg.g(clip_path=f"url(#{cid})")
                g.add(inner)
            for child in item.items:
                self.render(child, inner)
        else:
            parent.add(self._shape(item))


def to_svg(drawing: Drawing, shared_glyphs: bool = False) -> svgwrite.Drawing:
    w, h = drawing.width, drawing.height
    dwg = svgwrite.Drawing(size=(f"{_num(w)}mm", f"{_num(h)}mm"), viewBox=f"0 0 {_num(w)} {_num(h)}",
                           profile="full", debug=False)
    r = SvgRenderer(dwg, shared_glyphs)
    for child in drawing.root.items:
        r.render(child, dwg)
    return dwg


def svg_string(drawing: Drawing, shared_glyphs: bool = False) -> str:
    return to_svg(drawing, shared_glyphs).tostring()
