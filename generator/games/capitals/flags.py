"""Flags as vectors from a small vocabulary, each element one mapping in the YAML.

Coordinates: x and w are fractions of the flag's width, y and h of its height, r (and every
width: a cross's bar, a ring's stroke, a star's lines) of its height. Elements are drawn in order,
each over the last. The vocabulary (shape key: its value, then the other keys it takes):

    rect: colour          x, y, w, h (default: the whole flag)
    hbands / vbands: [colours]   sizes (relative widths; default equal), x, y, w, h (the region)
    cross: colour         x (centre of the upright, default 0.5: 0.36 makes a Nordic cross), width
    saltire: colour       width, region {x, y, w, h}
    triangle: colour      depth (how far the hoist triangle reaches into the fly)
    polygon: colour       points [[x, y], ...]
    disc: colour          x, y, r
    ring: colour          x, y, r, width
    star: colour          x, y, r, points (5), inner (inner radius / r), lines (stroke: a pentagram or hexagram)
    crescent: colour      x, y, r, angle (where it opens: 0 toward the fly, -90 up), inner, shift
    split_disc: [top, bottom]    x, y, r
    dots: colour          x, y, w, h, rows, cols, r, stagger (rows alternate n and n-1 dots)
    union_jack: {x, y, w, h}     the Union Flag in that region (its red saltire is drawn centred,
                                 not counterchanged: too fine to see at card size)
"""
from __future__ import annotations

import math

from shapely.geometry import Point

from ...colour import Colour
from ...draw import Drawing, PathBuilder, Rect, Style

REGION = {"x", "y", "w", "h"}
VOCABULARY: dict[str, tuple[set[str], set[str]]] = {   # shape: (required keys, optional keys)
    "rect": (set(), REGION),
    "hbands": (set(), REGION | {"sizes"}),
    "vbands": (set(), REGION | {"sizes"}),
    "cross": ({"width"}, {"x", "y"}),
    "saltire": ({"width"}, {"region"}),
    "triangle": ({"depth"}, set()),
    "polygon": ({"points"}, set()),
    "disc": ({"x", "y", "r"}, set()),
    "ring": ({"x", "y", "r", "width"}, set()),
    "star": ({"x", "y", "r"}, {"points", "inner", "lines", "rotate"}),
    "crescent": ({"x", "y", "r"}, {"angle", "inner", "shift"}),
    "split_disc": ({"x", "y", "r"}, set()),
    "dots": ({"x", "y", "w", "h", "rows", "cols", "r"}, {"stagger"}),
    "union_jack": (set(), set()),
}


def _colours_of(shape: str, value) -> list:
    if shape in ("hbands", "vbands", "split_disc"):
        return list(value) if isinstance(value, list) else [value]
    if shape == "union_jack":
        return []
    return [value]


def check_flag(spec, path: tuple, elements, colours: dict[str, Colour]) -> None:
    """Every element names one known shape, known keys only, and colours from flag_colours."""
    if not elements:
        raise spec.error(path, "a flag needs at least one element; none is left blank")
    for k, el in enumerate(elements):
        where = (*path, k)
        if not isinstance(el, dict):
            raise spec.error(where, "a flag element is a mapping like {rect: red}")
        shapes = [key for key in el if key in VOCABULARY]
        if len(shapes) != 1:
            raise spec.error(where, f"name exactly one shape of: {', '.join(VOCABULARY)}")
        shape = shapes[0]
        required, optional = VOCABULARY[shape]
        for key in el:
            if key != shape and key not in required | optional:
                raise spec.error((*where, key), f"{shape} takes {', '.join(sorted(required | optional)) or 'no other key'}")
        missing = required - set(el)
        if missing:
            raise spec.error(where, f"{shape} needs {', '.join(sorted(missing))}")
        for c in _colours_of(shape, el[shape]):
            if c not in colours:
                raise spec.error((*where, shape), f"no flag colour {c!r} (flag_colours has {', '.join(colours)})")
        if shape in ("hbands", "vbands") and "sizes" in el and len(el["sizes"]) != len(el[shape]):
            raise spec.error((*where, "sizes"), f"{len(el[shape])} bands but {len(el['sizes'])} sizes")


def star_points(cx, cy, r, points=5, inner=None, rotate=0.0):
    inner = inner if inner is not None else (0.382 if points == 5 else 0.5)
    out = []
    for k in range(2 * points):
        a = math.radians(-90 + rotate + k * 180 / points)
        rr = r if k % 2 == 0 else r * inner
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def _star_lines(cx, cy, r, n, rotate=0.0):
    """The {n/2} star polygon: a pentagram, or for even n two interlaced polygons (a hexagram)."""
    vertex = [(cx + r * math.cos(math.radians(-90 + rotate + k * 360 / n)),
               cy + r * math.sin(math.radians(-90 + rotate + k * 360 / n))) for k in range(n)]
    if n % 2:
        return [[vertex[(2 * k) % n] for k in range(n)]]
    return [vertex[0::2], vertex[1::2]]


def crescent_polygon(cx, cy, r, angle=0.0, inner=0.8, shift=0.25):
    a = math.radians(angle)
    outer = Point(cx, cy).buffer(r, 48)
    cut = Point(cx + r * shift * math.cos(a), cy + r * shift * math.sin(a)).buffer(r * inner, 48)
    return list(outer.difference(cut).exterior.coords)


def draw_union_jack(d: Drawing, x, y, w, h, colours: dict[str, Colour]) -> None:
    navy = colours.get("navy", Colour(rgb=(0.0, 0.13, 0.41)))
    red, white = colours.get("red", Colour(rgb=(0.8, 0.07, 0.14))), colours.get("white", Colour(rgb=(1, 1, 1)))
    with d.group(clip=Rect(x, y, w, h, Style())):
        d.rect(x, y, w, h, Style(fill=navy))
        for (x1, y1, x2, y2) in ((x, y, x + w, y + h), (x, y + h, x + w, y)):
            d.line(x1, y1, x2, y2, Style(stroke=white, width=h * 0.2, cap="butt"))
            d.line(x1, y1, x2, y2, Style(stroke=red, width=h * 0.067, cap="butt"))
        d.rect(x + w / 2 - h * 0.167, y, h * 0.333, h, Style(fill=white))
        d.rect(x, y + h * 0.333, w, h * 0.333, Style(fill=white))
        d.rect(x + w / 2 - h * 0.1, y, h * 0.2, h, Style(fill=red))
        d.rect(x, y + h * 0.4, w, h * 0.2, Style(fill=red))


def draw_flag(d: Drawing, elements, x0: float, y0: float, W: float, H: float,
              colours: dict[str, Colour], outline: Colour | None = None) -> None:
    """The flag in the box (x0, y0, W, H), mm; the box already has the flag's proportions."""
    def X(f):
        return x0 + f * W

    def Y(f):
        return y0 + f * H

    with d.group(clip=Rect(x0, y0, W, H, Style())):
        for el in elements:
            shape = next(k for k in el if k in VOCABULARY)
            v = el[shape]
            fill = Style(fill=colours[v]) if isinstance(v, str) else None
            if shape == "rect":
                d.rect(X(el.get("x", 0)), Y(el.get("y", 0)), el.get("w", 1) * W, el.get("h", 1) * H, fill)
            elif shape in ("hbands", "vbands"):
                rx, ry, rw, rh = X(el.get("x", 0)), Y(el.get("y", 0)), el.get("w", 1) * W, el.get("h", 1) * H
                sizes = el.get("sizes") or [1] * len(v)
                total, at = float(sum(sizes)), 0.0
                for c, s in zip(v, sizes):
                    if shape == "hbands":
                        d.rect(rx, ry + rh * at / total, rw, rh * s / total + 0.01, Style(fill=colours[c]))
                    else:
                        d.rect(rx + rw * at / total, ry, rw * s / total + 0.01, rh, Style(fill=colours[c]))
                    at += s
            elif shape == "cross":
                bw = el["width"] * H
                d.rect(X(el.get("x", 0.5)) - bw / 2, y0, bw, H, fill)
                d.rect(x0, Y(el.get("y", 0.5)) - bw / 2, W, bw, fill)
            elif shape == "saltire":
                r = el.get("region", {})
                rx, ry, rw, rh = X(r.get("x", 0)), Y(r.get("y", 0)), r.get("w", 1) * W, r.get("h", 1) * H
                st = Style(stroke=colours[v], width=el["width"] * H, cap="butt")
                d.line(rx, ry, rx + rw, ry + rh, st)
                d.line(rx, ry + rh, rx + rw, ry, st)
            elif shape == "triangle":
                d.polygon([(x0, y0), (X(el["depth"]), y0 + H / 2), (x0, y0 + H)], fill)
            elif shape == "polygon":
                d.polygon([(X(px), Y(py)) for px, py in el["points"]], fill)
            elif shape == "disc":
                d.circle(X(el["x"]), Y(el["y"]), el["r"] * H, fill)
            elif shape == "ring":
                d.circle(X(el["x"]), Y(el["y"]), el["r"] * H, Style(stroke=colours[v], width=el["width"] * H))
            elif shape == "star":
                n, cx, cy, r = el.get("points", 5), X(el["x"]), Y(el["y"]), el["r"] * H
                if "lines" in el:
                    for poly in _star_lines(cx, cy, r, n, el.get("rotate", 0.0)):
                        d.polygon(poly, Style(stroke=colours[v], width=el["lines"] * H, join="miter"))
                else:
                    d.polygon(star_points(cx, cy, r, n, el.get("inner"), el.get("rotate", 0.0)), fill)
            elif shape == "crescent":
                d.polygon(crescent_polygon(X(el["x"]), Y(el["y"]), el["r"] * H, el.get("angle", 0.0),
                                           el.get("inner", 0.8), el.get("shift", 0.25)), fill)
            elif shape == "split_disc":
                cx, cy, r = X(el["x"]), Y(el["y"]), el["r"] * H
                d.path(PathBuilder().arc(cx, cy, r, 180, 360).close(), Style(fill=colours[v[0]]))
                d.path(PathBuilder().arc(cx, cy, r, 0, 180).close(), Style(fill=colours[v[1]]))
            elif shape == "dots":
                rows, cols = el["rows"], el["cols"]
                for i in range(rows):
                    n = cols - 1 if el.get("stagger") and i % 2 else cols
                    off = 0.5 if el.get("stagger") and i % 2 else 0.0
                    for j in range(n):
                        fx = el["x"] + el["w"] * (j + 0.5 + off) / cols
                        fy = el["y"] + el["h"] * (i + 0.5) / rows
                        d.circle(X(fx), Y(fy), el["r"] * H, fill)
            elif shape == "union_jack":
                r = v if isinstance(v, dict) else {}
                draw_union_jack(d, X(r.get("x", 0)), Y(r.get("y", 0)), r.get("w", 1) * W, r.get("h", 1) * H, colours)
    if outline is not None:
        d.rect(x0, y0, W, H, Style(stroke=outline, width=0.15))
