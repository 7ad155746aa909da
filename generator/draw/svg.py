"""The svgwrite backend: a Drawing as an SVG in mm (width/height in mm, viewBox in mm).

Text is written as glyph outlines (see fonts.py), so the file needs no installed font.
"""
from __future__ import annotations

import itertools

import svgwrite

from ..colour import Colour
from .drawing import IDENTITY, Drawing, Ellipse, Group, Image, Rect, Text
from .fonts import text_outline


def _num(v: float) -> str:
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def path_data(ops) -> str:
    parts = []
    for op in ops:
        parts.append(op[0] + " ".join(_num(v) for v in op[1:]))
    return " ".join(parts)


def _paint(colour: Colour | None) -> str:
    return "none" if colour is None else colour.hex()


class SvgRenderer:
    def __init__(self, dwg: svgwrite.Drawing):
        self.dwg = dwg
        self._ids = itertools.count(1)

    def _style(self, s) -> dict:
        attrs = {"fill": _paint(s.fill)}
        if s.stroke is not None:
            attrs.update({"stroke": _paint(s.stroke), "stroke_width": _num(s.width),
                          "stroke_linejoin": s.join, "stroke_linecap": s.cap})
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
        if isinstance(item, Text):
            ops = text_outline(item.font, item.text, item.x, item.y, item.size, item.direction)
            return d.path(d=path_data(ops) or "M0 0", fill=item.fill.hex())
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
        g = d.g(clip_path=f"url(#{cid})")
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


def to_svg(drawing: Drawing) -> svgwrite.Drawing:
    w, h = drawing.width, drawing.height
    dwg = svgwrite.Drawing(size=(f"{_num(w)}mm", f"{_num(h)}mm"), viewBox=f"0 0 {_num(w)} {_num(h)}",
                           profile="full", debug=False)
    r = SvgRenderer(dwg)
    for child in drawing.root.items:
        r.render(child, dwg)
    return dwg


def svg_string(drawing: Drawing) -> str:
    return to_svg(drawing).tostring()
