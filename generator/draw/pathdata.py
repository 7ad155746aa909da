"""SVG path data (`M 10 10 L 50 10 A 20 20 0 0 1 70 30 Z`, the `d` of an SVG <path>) read into the
drawing layer's ops (M, L, C, Z), as a stranger's text: every command of SVG 1.1 (M L H V C S Q T A
Z, absolute and relative), and anything else refused in one line naming the character where it
goes wrong. What it costs is bounded before it is read: its points counted as an SVG picture's are
(images._path_points, at most images.MAX_SVG_POINTS), and every coordinate within MAX_COORDINATE.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

from ..errors import show
from .drawing import PathBuilder
from .images import MAX_SVG_POINTS, _path_points

MAX_COORDINATE = 100_000.0       # mm: a point further than this from the origin is no drawing's
MIN_RADIUS = 1e-9                # mm: an arc's radius under this is 0 (its square would be)
_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_SEPARATOR = re.compile(r"[\s,]*")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


class PathDataError(ValueError):
    """Path data that is not SVG's, in a few words naming where."""


class _Reader:
    def __init__(self, text: str):
        self.text, self.at = text, 0

    def skip(self) -> None:
        self.at = _SEPARATOR.match(self.text, self.at).end()

    def done(self) -> bool:
        return self.at >= len(self.text)

    def where(self) -> str:
        got = self.text[self.at:self.at + 12]
        return f"at character {self.at + 1} ({show(got)})" if got else "at its end"

    def number(self, after: str) -> float:
        self.skip()
        m = _NUMBER.match(self.text, self.at)
        if not m:
            raise PathDataError(f"path data: expected a number for {after} {self.where()}")
        self.at = m.end()
        value = float(m.group())
        if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
            raise PathDataError(f"path data: {m.group()[:20]} for {after} is beyond ±{MAX_COORDINATE:,.0f} mm")
        return value

    def pair(self, after: str, origin: tuple[float, float]) -> tuple[float, float]:
        """A point: two numbers, from the origin (the pen, for a relative command)."""
        return self.number(after) + origin[0], self.number(after) + origin[1]

    def flag(self, after: str) -> bool:
        self.skip()
        ch = self.text[self.at:self.at + 1]
        if ch not in ("0", "1"):
            raise PathDataError(f"path data: expected a flag, 0 or 1, for {after} {self.where()}")
        self.at += 1
        return ch == "1"


@lru_cache(maxsize=16)
def parse_path_data(data: str) -> tuple[tuple, ...]:
    """The path's ops (M, L, C and Z, curves as cubic Béziers, arcs made of them), or PathDataError."""
    points = _path_points(data)
    if points > MAX_SVG_POINTS:
        raise PathDataError(f"path data of {points:,} points: at most {MAX_SVG_POINTS:,} (as an SVG picture's)")
    r = _Reader(data)
    path = PathBuilder()
    ops = path.ops
    cur = start = (0.0, 0.0)
    last_control = None               # the previous curve's second control point (for S and T)
    last_kind = ""
    r.skip()
    if r.done():
        raise PathDataError("path data with nothing in it: it starts with M (move to)")
    command = ""
    while True:
        r.skip()
        if r.done():
            break
        ch = r.text[r.at]
        if ch.upper() in _ARGS:
            command = ch
            r.at += 1
        elif not command:
            raise PathDataError(f"path data: it starts with M (move to), not {r.where()}")
        elif command in "Zz" or not _NUMBER.match(r.text, r.at):
            raise PathDataError(f"path data: expected a command (M, L, H, V, C, S, Q, T, A or Z) {r.where()}")
        if not ops and command not in "Mm":
            raise PathDataError(f"path data: it starts with M (move to), not {command}")
        kind, rel = command.upper(), command.islower()
        if kind == "Z":
            path.close()
            cur = start
            last_control, last_kind = None, "Z"
            continue
        origin = cur if rel else (0.0, 0.0)
        if kind == "M":
            cur = start = r.pair(command, origin)
            path.move(*cur)
            command = "l" if rel else "L"          # further pairs are lines
        elif kind in "LHV":
            cur = r.pair(command, origin) if kind == "L" else \
                (r.number(command) + origin[0], cur[1]) if kind == "H" else (cur[0], r.number(command) + origin[1])
            path.line(*cur)
        elif kind in "CS":
            c1 = r.pair(command, origin) if kind == "C" else _mirror(cur, last_control, last_kind in "CS")
            c2, cur = r.pair(command, origin), r.pair(command, origin)
            path.curve(*c1, *c2, *cur)
            last_control = c2
        elif kind in "QT":
            q = r.pair(command, origin) if kind == "Q" else _mirror(cur, last_control, last_kind in "QT")
            cur = r.pair(command, origin)
            path.quad(*q, *cur)
            last_control = q
        else:   # A
            rx, ry, phi = abs(r.number(command)), abs(r.number(command)), r.number(command)
            large, sweep = r.flag(command), r.flag(command)
            end = r.pair(command, origin)
            for op in arc_curves(cur, rx, ry, phi, large, sweep, end):
                path.line(*op[1:]) if op[0] == "L" else path.curve(*op[1:])
            cur = end
        last_kind = kind
        if kind not in "CSQT":
            last_control = None
    box = ops_bounds(ops)
    if box is not None and max(abs(v) for v in box) > MAX_COORDINATE:
        raise PathDataError(f"path data whose points reach beyond ±{MAX_COORDINATE:,.0f} mm (relative steps added "
                            "up, or an arc's radii grown to meet its end)")
    return tuple(ops)


def _mirror(pen, control, follows: bool) -> tuple[float, float]:
    """S's and T's first control point: the previous curve's last one mirrored about the pen where
    that curve is of its kind, else the pen itself (SVG 1.1, 8.3.6 and 8.3.7)."""
    return (2 * pen[0] - control[0], 2 * pen[1] - control[1]) if follows and control is not None else pen


def arc_curves(p0, rx: float, ry: float, phi_deg: float, large: bool, sweep: bool, p1) -> list[tuple]:
    """An SVG elliptical arc from p0 to p1 as cubic Béziers (SVG 1.1, appendix F.6: its radii
    scaled up where too small to reach, a straight line where a radius is 0)."""
    (x0, y0), (x1, y1) = p0, p1
    if (x0, y0) == (x1, y1):
        return []
    if rx < MIN_RADIUS or ry < MIN_RADIUS:       # (SVG: a radius of 0 is a line; far under a printer's dot, too)
        return [("L", x1, y1)]
    phi = math.radians(phi_deg % 360)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (x0 - x1) / 2, (y0 - y1) / 2
    xp, yp = cos * dx + sin * dy, -sin * dx + cos * dy
    grow = xp * xp / (rx * rx) + yp * yp / (ry * ry)
    if grow > 1:
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    k = math.sqrt(max(0.0, num / den)) * (-1 if large == sweep else 1)
    cxp, cyp = k * rx * yp / ry, -k * ry * xp / rx
    cx, cy = cos * cxp - sin * cyp + (x0 + x1) / 2, sin * cxp + cos * cyp + (y0 + y1) / 2

    def angle(ux, uy, vx, vy):
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    t0 = angle(1, 0, (xp - cxp) / rx, (yp - cyp) / ry)
    dt = angle((xp - cxp) / rx, (yp - cyp) / ry, (-xp - cxp) / rx, (-yp - cyp) / ry)
    if not sweep and dt > 0:
        dt -= 2 * math.pi
    elif sweep and dt < 0:
        dt += 2 * math.pi
    n = max(1, math.ceil(abs(dt) / (math.pi / 2) - 1e-9))
    step = dt / n
    h = 4 / 3 * math.tan(step / 4)

    def at(t):
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        return cos * ex - sin * ey + cx, sin * ex + cos * ey + cy

    def slope(t):
        ex, ey = -rx * math.sin(t), ry * math.cos(t)
        return cos * ex - sin * ey, sin * ex + cos * ey
    out = []
    for i in range(n):
        a, b = t0 + i * step, t0 + (i + 1) * step
        (ax, ay), (bx, by) = at(a), at(b)
        (sax, say), (sbx, sby) = slope(a), slope(b)
        end = (x1, y1) if i == n - 1 else (bx, by)
        out.append(("C", ax + h * sax, ay + h * say, bx - h * sbx, by - h * sby, *end))
    return out


def ops_bounds(ops) -> tuple[float, float, float, float] | None:
    """The box (x0, y0, x1, y1) around the ops' end and control points (a curve lies within its
    control points), or None for none."""
    xs = [v for op in ops for v in op[1::2]]
    ys = [v for op in ops for v in op[2::2]]
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)
