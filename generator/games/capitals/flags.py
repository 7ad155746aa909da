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
    path: colour          d, x, y, size, stroke, rotate, mirror, evenodd: an emblem drawn as an
                          SVG-style path (M L H V C Q Z, upper case absolute, lower case relative)
                          in a 100 x 100 box whose centre lies at (x, y) and whose side is `size`
                          (of the flag's height); `stroke` (box units) draws its line instead of
                          filling it; `rotate` turns it (degrees, clockwise), `mirror` flips it
    wreath: colour        x, y, r, leaves (a branch), open (degrees left open at the top), leaf
                          (a leaf's length, of r): two branches of leaves round (x, y)
    taeguk: [top, bottom] x, y, r, rotate: the yin-yang of two commas (Korea)
    dots take `stars: true` to draw five-pointed stars in place of dots.
"""
from __future__ import annotations

import math
import re

from ...colour import Colour
from ...draw import Drawing, PathBuilder, Rect, Style, compose, rotate, scale, translate
from ...errors import show

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
    "dots": ({"x", "y", "w", "h", "rows", "cols", "r"}, {"stagger", "stars"}),
    "union_jack": (set(), set()),
    "path": ({"d", "x", "y", "size"}, {"stroke", "rotate", "mirror", "evenodd"}),
    "wreath": ({"x", "y", "r"}, {"leaves", "open", "leaf"}),
    "taeguk": ({"x", "y", "r"}, {"rotate"}),
}
MAX_NUMBER = 1000.0      # every number of an element: fractions, degrees, counts
MAX_PATH = 4000          # characters of a path's `d`
COUNTS = {"rows", "cols", "points", "leaves"}   # how many of a thing: whole numbers, and few
NUMBERS = {"x", "y", "w", "h", "r", "width", "depth", "size", "stroke", "rotate", "inner", "lines", "angle",
           "shift", "open", "leaf"}
FLAGS = {"stagger", "stars", "mirror", "evenodd"}
MAX_COUNT = 60
MAX_POINTS = 200         # a polygon's corners


_TOKEN = re.compile(r"[MmLlHhVvCcQqZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}


def parse_path(d: str) -> list[tuple]:
    """SVG path data (M L H V C Q Z and their relative forms) as absolute ops for PathBuilder:
    ("M", x, y), ("L", x, y), ("C", ...), ("Q", qx, qy, x, y), ("Z",). Raises ValueError."""
    if not isinstance(d, str) or len(d) > MAX_PATH:
        raise ValueError(f"a path is a string of at most {MAX_PATH} characters")
    tokens = _TOKEN.findall(d)
    if "".join(tokens) != "".join(d.replace(",", " ").split()):
        raise ValueError("a path holds only M L H V C Q Z (or lower case) and numbers")
    ops, i, cmd = [], 0, None
    x = y = sx = sy = 0.0
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
            if cmd in "Zz":
                ops.append(("Z",))
                x, y = sx, sy
                continue
        elif cmd is None or cmd in "Zz":
            raise ValueError("a path starts with M and names a command before its numbers")
        n = _ARGS[cmd.upper()]
        args = tokens[i:i + n]
        if len(args) < n or any(a.isalpha() for a in args):
            raise ValueError(f"{cmd} takes {n} numbers")
        v = [float(a) for a in args]
        if any(not math.isfinite(a) or abs(a) > 10 * MAX_NUMBER for a in v):
            raise ValueError("a path's numbers are finite and within -10000 to 10000")
        i += n
        rel = cmd.islower()
        c = cmd.upper()
        if c == "H":
            v = [v[0] + (x if rel else 0), y]
        elif c == "V":
            v = [x, v[0] + (y if rel else 0)]
        elif rel:
            v = [a + (x if k % 2 == 0 else y) for k, a in enumerate(v)]
        if c == "M":
            ops.append(("M", *v))
            sx, sy = v
            cmd = "l" if rel else "L"     # numbers after a move are lines
        elif c in "LHV":
            ops.append(("L", *v))
        elif c == "C":
            ops.append(("C", *v))
        elif c == "Q":
            ops.append(("Q", *v))
        x, y = v[-2], v[-1]
    if not ops or ops[0][0] != "M":
        raise ValueError("a path starts with M")
    return ops


def _builder(ops) -> PathBuilder:
    pb = PathBuilder()
    for op in ops:
        if op[0] == "M":
            pb.move(*op[1:])
        elif op[0] == "L":
            pb.line(*op[1:])
        elif op[0] == "C":
            pb.curve(*op[1:])
        elif op[0] == "Q":
            pb.quad(*op[1:])
        else:
            pb.close()
    return pb


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and abs(v) <= MAX_NUMBER


def _numbers(value):
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _numbers(v)
    elif isinstance(value, list):
        for v in value:
            yield from _numbers(v)


def _colours_of(shape: str, value) -> list:
    if shape in ("hbands", "vbands", "split_disc", "taeguk"):
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
            if not isinstance(c, str) or c not in colours:
                raise spec.error((*where, shape), f"{show(c)} is not a flag colour (flag_colours has {', '.join(colours)})")
        if shape in ("hbands", "vbands") and "sizes" in el and len(el["sizes"]) != len(el[shape]):
            raise spec.error((*where, "sizes"), f"{len(el[shape])} bands but {len(el['sizes'])} sizes")
        for key, value in el.items():
            if key in NUMBERS and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise spec.error((*where, key), "a number")
            if key in FLAGS and not isinstance(value, bool):
                raise spec.error((*where, key), "true or false")
            if key in COUNTS and shape != "polygon" and not (isinstance(value, int) and not isinstance(value, bool)
                                                             and 1 <= value <= MAX_COUNT):
                raise spec.error((*where, key), f"a whole number from 1 to {MAX_COUNT}")
            if key != shape and any(not math.isfinite(v) or abs(v) > MAX_NUMBER for v in _numbers(value)):
                raise spec.error((*where, key), f"numbers from -{MAX_NUMBER:g} to {MAX_NUMBER:g}")
        if shape == "polygon" and not (isinstance(el["points"], list) and 3 <= len(el["points"]) <= MAX_POINTS and all(
                isinstance(p, list) and len(p) == 2 and all(_is_number(v) for v in p) for p in el["points"])):
            raise spec.error((*where, "points"), f"3 to {MAX_POINTS} points, each [x, y]")
        if "sizes" in el and not (isinstance(el["sizes"], list) and all(_is_number(v) and v > 0 for v in el["sizes"])):
            raise spec.error((*where, "sizes"), "a list of positive numbers")
        for key in ("region", "union_jack"):
            region = el.get(key)
            if key in el and not (isinstance(region, dict) and set(region) <= REGION
                                  and all(_is_number(v) for v in region.values())):
                raise spec.error((*where, key), "a region {x, y, w, h} of numbers")
        if shape == "path":
            try:
                parse_path(el["d"])
            except ValueError as exc:
                raise spec.error((*where, "d"), str(exc)) from None
        if shape in ("taeguk", "split_disc") and len(el[shape]) != 2:
            raise spec.error((*where, shape), "two colours: [top, bottom]")


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
    from shapely.geometry import Point   # here: the referee reads flags' data, never draws a crescent
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


def _leaf(length: float, width: float) -> PathBuilder:
    """A pointed leaf along +x from the origin."""
    return (PathBuilder().move(0, 0).quad(length * 0.5, -width, length, 0).quad(length * 0.5, width, 0, 0).close())


def _wreath(d: Drawing, cx, cy, r, colour: Colour, leaves: int, gap: float, leaf: float) -> None:
    """Two branches rising from the bottom round (cx, cy), leaves pointing up their stems."""
    length, width = r * leaf, r * leaf * 0.32
    stem = Style(stroke=colour, width=max(0.12, r * 0.06), cap="round")
    for side in (-1, 1):
        # From the bottom (90 degrees, y down) round to the top, leaving `gap` open there.
        a0, a1 = 90 + side * 12, 90 + side * (180 - gap / 2)
        d.path(PathBuilder().arc(cx, cy, r, min(a0, a1), max(a0, a1)), stem)
        for i in range(leaves):
            a = a0 + (a1 - a0) * (i + 0.5) / leaves
            px, py = cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))
            tangent = a + side * 90                 # along the branch, towards its tip
            for tilt in (-28, 28):                  # a pair: one outside the stem, one in
                with d.group(compose(translate(px, py), rotate(tangent + tilt))):
                    d.path(_leaf(length, width), Style(fill=colour))


def _taeguk(d: Drawing, cx, cy, r, top: Colour, bottom: Colour, turn: float) -> None:
    """The red and blue commas of the taegeuk: a disc halved by an S of two small half circles."""
    with d.group(rotate(turn, cx, cy)):
        # The whole disc in the bottom colour first, so no seam shows along the diameter.
        d.circle(cx, cy, r, Style(fill=bottom))
        d.path(PathBuilder().arc(cx, cy, r, 180, 360).close(), Style(fill=top))
        d.path(PathBuilder().arc(cx - r / 2, cy, r / 2, 0, 180).close(), Style(fill=top))
        d.path(PathBuilder().arc(cx + r / 2, cy, r / 2, 180, 360).close(), Style(fill=bottom))


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
                        if el.get("stars"):
                            d.polygon(star_points(X(fx), Y(fy), el["r"] * H), fill)
                        else:
                            d.circle(X(fx), Y(fy), el["r"] * H, fill)
            elif shape == "path":
                k = el["size"] * H / 100
                t = compose(translate(X(el["x"]), Y(el["y"])),
                            compose(rotate(el.get("rotate", 0.0)),
                                    compose(scale(-k if el.get("mirror") else k, k), translate(-50, -50))))
                style = (Style(stroke=colours[v], width=el["stroke"], cap="round", join="round")
                         if "stroke" in el else Style(fill=colours[v], even_odd=bool(el.get("evenodd"))))
                with d.group(t):
                    d.path(_builder(parse_path(el["d"])), style)
            elif shape == "wreath":
                _wreath(d, X(el["x"]), Y(el["y"]), el["r"] * H, colours[v], el.get("leaves", 8),
                        el.get("open", 70.0), el.get("leaf", 0.38))
            elif shape == "taeguk":
                _taeguk(d, X(el["x"]), Y(el["y"]), el["r"] * H, colours[v[0]], colours[v[1]], el.get("rotate", 0.0))
            elif shape == "union_jack":
                r = v if isinstance(v, dict) else {}
                draw_union_jack(d, X(r.get("x", 0)), Y(r.get("y", 0)), r.get("w", 1) * W, r.get("h", 1) * H, colours)
    if outline is not None:
        d.rect(x0, y0, W, H, Style(stroke=outline, width=0.15))
