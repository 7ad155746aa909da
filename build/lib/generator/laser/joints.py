"""Finger joints. A panel is a rectangle of its outer size whose edges are plain or jointed; a
jointed edge alternates segments at the panel's outer line ("out") and inset by the material
thickness ("in"). Two edges mate when they have the same length and segment count and each
segment that is out on one is in on the other."""
from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Polygon

from ..limits import finger_count  # noqa: F401  (how many fingers: with the bounds on them)
from .parts import Part


@dataclass(frozen=True)
class Edge:
    """One edge of a panel: `fingers` odd segments; male = the first and last segments out."""
    kind: str = "plain"       # plain | male | female
    fingers: int = 1

    def pattern(self) -> list[bool]:
        """True where the segment is out (material to the outer line)."""
        if self.kind == "plain":
            return [True]
        return [(i % 2 == 0) == (self.kind == "male") for i in range(self.fingers)]


def panel_outline(w: float, h: float, edges: tuple[Edge, Edge, Edge, Edge], t: float) -> Polygon:
    """Outline of a w x h panel; edges are top, right, bottom, left, each walked clockwise."""
    lengths = (w, h, w, h)

    def point(side: int, s: float, depth: float):
        if side == 0:
            return (s, depth)
        if side == 1:
            return (w - depth, s)
        if side == 2:
            return (w - s, h - depth)
        return (depth, h - s)

    pts = []
    for side in range(4):
        pat = edges[side].pattern()
        depth = [0.0 if out else t for out in pat]
        prev_depth_end = [0.0 if out else t for out in edges[side - 1].pattern()][-1]
        # The corner: inset along either edge whose end segment is in.
        cx, cy = point(side, 0.0, depth[0])
        px, py = point(side - 1 if side else 3, lengths[side - 1], prev_depth_end)
        if side in (0, 2):
            corner = (px, cy)
        else:
            corner = (cx, py)
        pts.append(corner)
        n = len(pat)
        L = lengths[side]
        for k in range(1, n):
            s = L * k / n
            pts.append(point(side, s, depth[k - 1]))
            pts.append(point(side, s, depth[k]))
    return Polygon(pts)


def mates(a: Edge, a_len: float, b: Edge, b_len: float) -> bool:
    pa, pb = a.pattern(), b.pattern()
    return abs(a_len - b_len) < 1e-9 and len(pa) == len(pb) and all(x != y for x, y in zip(pa, pb))


@dataclass
class Panel:
    name: str
    w: float
    h: float
    edges: tuple[Edge, Edge, Edge, Edge]

    def part(self, t: float, **kw) -> Part:
        return Part(self.name, panel_outline(self.w, self.h, self.edges, t), **kw)


def box_panels(outer_w: float, outer_d: float, outer_h: float, t: float, top: bool = True,
               finger: float | None = None) -> list[Panel]:
    """A finger-jointed box of outer size w x d x h: front/back own the vertical corners,
    sides own the bottom (and top) long edges' fingers against the bottom's slots."""
    fw, fd, fh = (finger_count(v, t, finger) for v in (outer_w, outer_d, outer_h))
    M, F, P = (lambda n: Edge("male", n)), (lambda n: Edge("female", n)), Edge()
    horiz_top = M(fw) if top else P
    panels = [
        Panel("front", outer_w, outer_h, (horiz_top, M(fh), M(fw), M(fh))),
        Panel("back", outer_w, outer_h, (horiz_top, M(fh), M(fw), M(fh))),
        Panel("left", outer_d, outer_h, (M(fd) if top else P, F(fh), M(fd), F(fh))),
        Panel("right", outer_d, outer_h, (M(fd) if top else P, F(fh), M(fd), F(fh))),
        Panel("bottom", outer_w, outer_d, (F(fw), F(fd), F(fw), F(fd))),
    ]
    if top:
        panels.append(Panel("top", outer_w, outer_d, (F(fw), F(fd), F(fw), F(fd))))
    return panels


def box_joints(panels: list[Panel]) -> list[tuple[str, int, str, int]]:
    """Which panel edges meet which, for the box above: (panel, edge, panel, edge)."""
    names = {p.name for p in panels}
    j = [("front", 1, "right", 3), ("front", 3, "left", 1), ("back", 1, "left", 3), ("back", 3, "right", 1),
         ("front", 2, "bottom", 0), ("back", 2, "bottom", 2), ("left", 2, "bottom", 3), ("right", 2, "bottom", 1)]
    if "top" in names:
        j += [("front", 0, "top", 2), ("back", 0, "top", 0), ("left", 0, "top", 3), ("right", 0, "top", 1)]
    return j
