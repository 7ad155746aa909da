"""Assembly sheets: how a kit or a fold-up piece is put together, on paper in the game's folder.

A sheet is a parts list with counts, what to have (tools, glue), numbered steps each with a
drawing, notes, and the checks that say the thing works. The drawings are made from the parts'
own geometry (the laser parts' outlines, a net's panels), placed in space and drawn in isometric
projection (Scene) or flat, seen from above (Plan), so a sheet cannot show a part the kit does
not cut. Each game says what its sheet holds (cubes/assembly.py, mille_bornes/shoe_assembly.py,
capitals/walls.py, sorry/pieces.py); this module lays it out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

from ..colour import Colour
from ..draw import Drawing, Style
from ..draw.drawing import text_block_height, wrap_text
from ..draw.fonts import get_font
from ..paper import Paper
from ..units import pt
from .marks import SAFE_MARGIN

INK = Colour(rgb=(0.1, 0.1, 0.1))
WHITE = Colour(rgb=(1.0, 1.0, 1.0))
GREY = Colour(rgb=(0.45, 0.45, 0.45))
WOOD = Colour(rgb=(0.87, 0.74, 0.53))
CARD = Colour(rgb=(0.96, 0.94, 0.88))
ACCENT = Colour(rgb=(0.78, 0.16, 0.12))      # arrows, and what a step adds
EDGE = Style(stroke=INK, width=pt(0.5), join="round")

Vec = tuple[float, float, float]
COS30, SIN30 = math.cos(math.radians(30)), 0.5
TOWARDS_VIEWER = (1.0, 1.0, 1.0)    # isometric: the viewer looks down the (-1, -1, -1) direction

LABEL = 2.3          # mm (6.5 pt): a label in a drawing, whatever the drawing's scale
BODY = 3.0           # mm (8.5 pt): the sheet's text
HEAD = 4.0           # mm: a heading


def _sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def iso(p: Vec) -> tuple[float, float]:
    """A point in space (x, y on the table, z up) on the page (y down): isometric."""
    x, y, z = p
    return ((x - y) * COS30, (x + y) * SIN30 - z)


@dataclass
class Face3:
    rings: list[list[Vec]]           # the outline, then its holes
    fill: Colour | None
    stroke: Colour | None = INK
    dash: tuple[float, ...] | None = None
    width: float = pt(0.5)


@dataclass
class Solid:
    faces: list[Face3]               # in the order to draw them (far first)
    centre: Vec
    layer: int = 0                   # drawn over every solid of a lower layer (a piece laid on another)
    part: str | None = None          # what the solid is, for the callouts that name it


@dataclass
class Callout:
    text: str
    at: Vec | tuple[float, float]    # the point it names (in space, or on a plan)
    dx: float = 0.0                  # where its text stands from the point, in mm on the page
    dy: float = 0.0
    part: str = ""                   # the drawn part (a Solid's or a Plan item's `part`) it names


class Figure:
    """A drawing of a step: its natural size (mm, at scale 1, from its bounds) and how to draw it at
    a scale."""

    def _bounds(self) -> tuple[float, float, float, float]:
        raise NotImplementedError

    @property
    def width(self) -> float:
        b = self._bounds()
        return b[2] - b[0]

    @property
    def height(self) -> float:
        b = self._bounds()
        return b[3] - b[1]

    def draw(self, page: Drawing, x: float, y: float, s: float) -> None:
        raise NotImplementedError


def _shade(colour: Colour, normal: Vec) -> Colour:
    """A face's colour lit from above and the left: the top full, the sides darker."""
    n = math.sqrt(_dot(normal, normal)) or 1.0
    nx, ny, nz = (v / n for v in normal)
    light = 0.62 + 0.38 * max(0.0, nz) + 0.16 * max(0.0, nx) + 0.02 * max(0.0, ny)
    return colour.mix(Colour(rgb=(0.0, 0.0, 0.0)), max(0.0, 1.0 - min(1.0, light)) * 0.9)


class Scene(Figure):
    """Parts placed in space and drawn in isometric projection, far solids first (each solid: its
    far side, then the sides that face the viewer, then its near side)."""

    def __init__(self):
        self.solids: list[Solid] = []
        self.callouts: list[Callout] = []
        self.lines: list[tuple[list[Vec], Style]] = []     # arrows and marks drawn over the solids

    def plate(self, poly: Polygon, origin: Vec, u: Vec, v: Vec, thickness: float, colour: Colour,
              hole_sides: bool = True, marks: list | None = None, mark_style: Style | None = None,
              layer: int = 0, part: str | None = None) -> None:
        """A flat part (its outline in its own mm: x along u, y along v) as a plate `thickness`
        thick, on the side of u x v. marks: lines (shapely LineStrings in the part's mm) on its
        u x v face (a score, a fold, a scored label), drawn only where that face is seen: seen from
        behind they would read mirrored, and the laser scored the other face. An outline in pieces
        is drawn piece by piece (the kit's nesting refuses such a part, with its name: the drawing
        does not fail first). part: its name, for the callouts."""
        if poly.geom_type != "Polygon":
            for k, piece in enumerate(getattr(poly, "geoms", [])):
                if piece.geom_type == "Polygon" and not piece.is_empty:
                    self.plate(piece, origin, u, v, thickness, colour, hole_sides, marks if k == 0 else None,
                               mark_style, layer, part)
            return
        poly = orient(poly, 1.0)

        def at(px: float, py: float, off: float = 0.0) -> Vec:
            return (origin[0] + px * u[0] + py * v[0] + off * n[0], origin[1] + px * u[1] + py * v[1] + off * n[1],
                    origin[2] + px * u[2] + py * v[2] + off * n[2])
        n = _cross(u, v)
        length = math.sqrt(_dot(n, n)) or 1.0
        n = (n[0] / length, n[1] / length, n[2] / length)
        near = 1.0 if _dot(n, TOWARDS_VIEWER) >= 0 else 0.0
        rings2 = [list(poly.exterior.coords)[:-1]] + [list(r.coords)[:-1] for r in poly.interiors]
        sides = []
        for k, ring in enumerate(rings2):
            if (k and not hole_sides) or thickness <= 0:
                continue
            for i in range(len(ring)):
                (ax, ay), (bx, by) = ring[i], ring[(i + 1) % len(ring)]
                a0, b0, b1, a1 = at(ax, ay), at(bx, by), at(bx, by, thickness), at(ax, ay, thickness)
                # Oriented rings (the exterior counter-clockwise in the part's own coordinates, holes
                # clockwise): the material lies left of every edge, so (ey, -ex) points out of it.
                ex, ey = bx - ax, by - ay
                outward = (ey * u[0] - ex * v[0], ey * u[1] - ex * v[1], ey * u[2] - ex * v[2])
                if _dot(outward, TOWARDS_VIEWER) <= 1e-9:
                    continue
                mid = tuple((a0[j] + b1[j]) / 2 for j in range(3))
                sides.append((sum(mid), Face3([[a0, b0, b1, a1]], _shade(colour, outward), INK, width=pt(0.35))))
        sides.sort(key=lambda s: s[0])
        top = [[at(px, py, thickness * near) for px, py in ring] for ring in rings2]
        normal = n if near else (-n[0], -n[1], -n[2])
        faces = [f for _, f in sides] + [Face3(top, _shade(colour, normal), INK)]
        for line in (marks or []) if near else []:
            pts = [at(px, py, thickness * near) for px, py in line.coords]
            st = mark_style or Style(stroke=Colour(rgb=(0.15, 0.3, 0.8)), width=pt(0.5))
            faces.append(Face3([pts], None, st.stroke, st.dash, st.width))
        c = poly.centroid
        self.solids.append(Solid(faces, at(c.x, c.y, thickness / 2), layer, part))

    def surface(self, quads: list[list[Vec]], colour: Colour, part: str | None = None) -> None:
        """A bent sheet (a living hinge round an arc) as thin quads, far ones first."""
        faces = []
        for q in sorted(quads, key=lambda q: sum(sum(p) for p in q)):
            normal = _cross(_sub(q[1], q[0]), _sub(q[3], q[0]))
            if _dot(normal, TOWARDS_VIEWER) < 0:
                normal = (-normal[0], -normal[1], -normal[2])
            faces.append(Face3([q], _shade(colour, normal), None))
        outline = [q[0] for q in quads] + [quads[-1][1], quads[-1][2]] + [q[3] for q in reversed(quads)]
        faces.append(Face3([outline], None, INK))
        pts = [p for q in quads for p in q]
        self.solids.append(Solid(faces, tuple(sum(p[j] for p in pts) / len(pts) for j in range(3)), part=part))

    def arrow(self, a: Vec, b: Vec) -> None:
        self.lines.append(([a, b], Style(stroke=ACCENT, width=0.5, cap="round")))

    def line(self, pts: list[Vec], style: Style) -> None:
        self.lines.append((pts, style))

    def callout(self, text: str, at: Vec, dx: float = 0.0, dy: float = -6.0, part: str | None = None) -> None:
        """A label for the solid named `part` (by default the label itself), its leader to `at`."""
        self.callouts.append(Callout(text, at, dx, dy, part or text))

    def drawn_order(self) -> list[Solid]:
        """The solids in the order they are drawn, the later over the earlier."""
        return sorted(self.solids, key=lambda sd: (sd.layer, sum(sd.centre)))

    def _bounds(self) -> tuple[float, float, float, float]:
        pts = [iso(p) for s in self.solids for f in s.faces for r in f.rings for p in r]
        pts += [iso(p) for ps, _ in self.lines for p in ps]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)

    def draw(self, page: Drawing, x: float, y: float, s: float) -> None:
        x0, y0, _, _ = self._bounds()

        def to(p: Vec) -> tuple[float, float]:
            px, py = iso(p)
            return (x + (px - x0) * s, y + (py - y0) * s)
        for solid in self.drawn_order():
            for f in solid.faces:
                ops = []
                for ring in f.rings:
                    pts = [to(p) for p in ring]
                    ops.append(("M", *pts[0]))
                    ops += [("L", *p) for p in pts[1:]]
                    if f.fill is not None:
                        ops.append(("Z",))
                page.path(ops, Style(fill=f.fill, stroke=f.stroke, width=f.width, dash=f.dash, even_odd=True,
                                     join="round"))
        for pts, style in self.lines:
            p2 = [to(p) for p in pts]
            page.polyline(p2, style)
            if style.stroke == ACCENT and len(p2) == 2:
                _arrow_head(page, p2[0], p2[1])
        for c in self.callouts:
            _callout(page, *to(c.at), c)


class Plan(Figure):
    """Flat geometry seen from above (a part's face, a net, a detail of a layer), in its own mm, y
    down: shapely polygons and lines with their styles."""

    def __init__(self, bounds: tuple[float, float, float, float] | None = None):
        self.items: list[tuple[object, Style]] = []
        self.parts: list[str | None] = []          # each item's name, for the callouts
        self.callouts: list[Callout] = []
        self.fixed = bounds

    def add(self, geom, style: Style, part: str | None = None) -> None:
        self.items.append((geom, style))
        self.parts.append(part)

    def callout(self, text: str, at: tuple[float, float], dx: float = 0.0, dy: float = -6.0,
                part: str | None = None) -> None:
        """A label for the item named `part` (by default the label itself), its leader to `at`."""
        self.callouts.append(Callout(text, at, dx, dy, part or text))

    def _bounds(self):
        if self.fixed:
            return self.fixed
        bs = [g.bounds for g, _ in self.items if not g.is_empty]
        return min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs)

    def draw(self, page: Drawing, x: float, y: float, s: float) -> None:
        x0, y0, x1, y1 = self._bounds()

        def to(px, py):
            return (x + (px - x0) * s, y + (py - y0) * s)
        from .foldups import polygon_path
        from ..draw import Rect
        with page.group(clip=Rect(x, y, (x1 - x0) * s, (y1 - y0) * s, Style())):
            for geom, style in self.items:
                for g in getattr(geom, "geoms", [geom]):
                    if g.geom_type == "Polygon":
                        ops = polygon_path(g).ops
                        ops = [(o[0], *to(o[1], o[2])) if o[0] in ("M", "L") else o for o in ops]
                        page.path(ops, Style(fill=style.fill, stroke=style.stroke, width=style.width,
                                             dash=style.dash, even_odd=True, join=style.join))
                    else:
                        page.polyline([to(*p) for p in g.coords], style)
        for c in self.callouts:
            _callout(page, *to(*c.at), c)


def _arrow_head(page: Drawing, a, b) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    size = 2.2
    page.polygon([b, (b[0] - size * ux + size * 0.5 * uy, b[1] - size * uy - size * 0.5 * ux),
                  (b[0] - size * ux - size * 0.5 * uy, b[1] - size * uy + size * 0.5 * ux)], Style(fill=ACCENT))


def _callout(page: Drawing, px: float, py: float, c: Callout) -> None:
    """A label at a fixed size with a thin leader to the point it names, on a white ground."""
    font = get_font("sans")
    w = font.width(c.text, LABEL)
    tx, ty = px + c.dx, py + c.dy
    if c.dx or c.dy:
        page.line(px, py, tx, ty, Style(stroke=INK, width=pt(0.4)))
        page.circle(px, py, 0.45, Style(fill=INK))
    left = tx - w / 2
    page.rect(left - 0.8, ty - LABEL * 0.85, w + 1.6, LABEL * 1.15, Style(fill=WHITE, stroke=GREY, width=pt(0.3)),
              r=0.6)
    page.text(left, ty + LABEL * 0.05, c.text, LABEL, INK, font="sans")


# ---------------------------------------------------------------- the sheet

@dataclass
class Step:
    text: str
    figure: Figure | None = None


@dataclass
class Assembly:
    title: str
    intro: str
    parts: list[tuple[str, str, str]]          # (count, the part, cut or printed from)
    need: list[str]                            # tools and glue
    steps: list[Step]
    checks: list[str]
    notes: list[tuple[str, str]] = field(default_factory=list)    # (heading, text), after the steps


def assembly_pages(sheet: Assembly, paper: Paper) -> list[Drawing]:
    """The sheet on pages of the build's paper, portrait: title, the parts and what to have, the
    steps two to a row (a drawing above its text), the notes, the checks to tick."""
    pw, ph = paper.size
    m = SAFE_MARGIN + 7.0
    width = pw - 2 * m
    gap = 6.0
    col = (width - gap) / 2
    pages: list[Drawing] = []
    y = 0.0
    page: Drawing | None = None

    def new_page() -> None:
        nonlocal page, y
        page = Drawing(pw, ph)
        pages.append(page)
        y = m

    def room(h: float) -> None:
        if y + h > ph - m - 6:
            new_page()

    def para(text: str, size: float = BODY, font: str = "sans", x: float | None = None, w: float | None = None) -> None:
        nonlocal y
        x = m if x is None else x
        w = width if w is None else w
        room(text_block_height(text, size, w, font, 1.3) + size)
        y += page.text_block(x, y, w, text, size, INK, font=font, leading=1.3) + size * 0.8

    def heading(text: str) -> None:
        nonlocal y
        room(HEAD * 4)
        y += HEAD * 0.4
        page.text(m, y + HEAD * 0.75, text, HEAD * 0.9, INK, font="sans-bold")
        y += HEAD * 1.4

    new_page()
    y += page.text_block(m, y, width, sheet.title, 5.6, INK, font="sans-bold", leading=1.15) + 3.0
    para(sheet.intro)
    heading("Parts")
    rows = [(n, what, src) for n, what, src in sheet.parts]
    _parts_table(page, m, y, width, rows)
    y += _parts_height(rows, width)
    y += 2.0
    if sheet.need:
        para("You need: " + ", ".join(sheet.need) + ".")
    heading("Steps")
    cards = [(k + 1, s) for k, s in enumerate(sheet.steps)]
    for i in range(0, len(cards), 2):
        pair = cards[i:i + 2]
        heights = [_card_height(s, col) for _, s in pair]
        room(max(heights))
        for j, (n, s) in enumerate(pair):
            _card(page, m + j * (col + gap), y, col, n, s)
        y += max(heights) + 4.0
    for head, text in sheet.notes:
        heading(head)
        para(text)
    if sheet.checks:
        heading("Checks")
        for c in sheet.checks:
            h = text_block_height(c, BODY, width - 7, "sans", 1.3)
            room(h + BODY)
            page.rect(m, y - 0.2, 3.4, 3.4, Style(stroke=INK, width=pt(0.7)))
            y += page.text_block(m + 6, y, width - 7, c, BODY, INK, leading=1.3) + BODY * 0.9
    for k, p in enumerate(pages, 1):
        p.text(pw - m, ph - m + 4, f"{sheet.title}  \u00b7  {k} / {len(pages)}", 2.5, GREY, font="sans",
               align="right")
    return pages


def _parts_height(rows, width: float) -> float:
    col = (width - 6) / 2
    half = -(-len(rows) // 2)
    hs = [_part_row_height(r, col) for r in rows]
    return max(sum(hs[:half]), sum(hs[half:])) + 1.0


def _part_row_height(row, col: float) -> float:
    n, what, src = row
    return text_block_height(f"{what} ({src})" if src else what, BODY, col - 12, "sans", 1.25) + BODY * 0.75


def _parts_table(page: Drawing, x: float, y: float, width: float, rows) -> None:
    """Two columns, down then across: the count bold, the part, where it comes from."""
    col = (width - 6) / 2
    half = -(-len(rows) // 2)
    for k, column in enumerate((rows[:half], rows[half:])):
        cy = y
        cx = x + k * (col + 6)
        for row in column:
            n, what, src = row
            page.text(cx + 9, cy + BODY * 0.75, n, BODY, INK, font="sans-bold", align="right")
            page.text_block(cx + 12, cy, col - 12, f"{what} ({src})" if src else what, BODY, INK, leading=1.25)
            cy += _part_row_height(row, col)


FIGURE_H = 52.0      # mm: the most a step's drawing takes down the page


def _figure_box(fig: Figure, w: float) -> tuple[float, float]:
    s = min((w - 2) / fig.width, FIGURE_H / fig.height) if fig.width and fig.height else 1.0
    return s, fig.height * s


def _card_height(step: Step, w: float) -> float:
    fh = _figure_box(step.figure, w)[1] + 3.0 if step.figure else 0.0
    return fh + text_block_height(step.text, BODY, w - 8, "sans", 1.3) + 2.0


def _card(page: Drawing, x: float, y: float, w: float, n: int, step: Step) -> None:
    """A step: its number in a disc, its drawing, its text."""
    page.circle(x + 3, y + 3, 3, Style(fill=INK))
    page.text(x + 3, y + 4.1, str(n), 3.2, WHITE, font="sans-bold", align="centre")
    ty = y
    if step.figure:
        s, fh = _figure_box(step.figure, w)
        fx = x + (w - step.figure.width * s) / 2
        step.figure.draw(page, max(fx, x + 7), y, s)
        ty = y + fh + 3.0
    page.text_block(x + 8, ty, w - 8, step.text, BODY, INK, leading=1.3)


def wrap_lines(text: str, size: float, width: float) -> list[str]:
    return wrap_text(text, get_font("sans"), size, width)


Picture = Callable[[Drawing, float, float, float], None]


# ---------------------------------------------------------------- fold-ups, from their nets

def net_plan(net, colour: Colour, fold: Colour | None = None) -> Plan:
    """A fold-up's net as printed: its outline (cut), its folds (dashed), its glue areas (hatched)."""
    from .foldups import fold_style
    plan = Plan()
    plan.add(net.outline, Style(fill=colour, stroke=INK, width=pt(0.6), join="miter"), part="net")
    for g in net.glue:
        plan.add(g.intersection(net.outline), Style(fill=WHITE, stroke=GREY, width=pt(0.4)), part="glue area")
    for f in net.folds:
        plan.add(f, fold_style(fold), part="fold")
    return plan


def _region(net, name: str) -> Polygon:
    return net.face(name).region.intersection(net.outline)


def tent_scene(net, height: float, depth: float, colour: Colour, foot: Colour | None = None,
               feet_in: bool = True) -> Scene:
    """A tent standee folded: its two faces leaning together from the ridge (its first fold) to a
    floor `depth` deep, the feet folded in under it, one on the other (feet_in), or not yet folded:
    each running on down from its face."""
    ridge = net.folds[0].coords[0][1]
    x0, _, x1, _ = net.outline.bounds
    cx = (x0 + x1) / 2
    face = math.hypot(height, depth / 2)
    sc = Scene()
    va = (0.0, depth / 2 / face, -height / face)
    vb = (0.0, depth / 2 / face, height / face)
    u = (1.0, 0.0, 0.0)

    def origin(v, y_at, at):
        return (at[0] - cx, at[1] - y_at * v[1], at[2] - y_at * v[2])
    feet = [g.intersection(net.outline) for g in net.glue] + [_region(net, "floor")]
    down = (0.0, -1.0, 0.0)
    for g in feet:
        gy = g.bounds[1]
        if not feet_in:         # each foot in the plane of its face, below it
            v = va if gy > ridge else vb
            sc.plate(g, origin(v, ridge, (0.0, 0.0, height)), u, v, 0.0, foot or colour, part="foot")
        elif gy > ridge:        # foot A: from its fold (the front face's foot) in under the floor
            sc.plate(g, (-cx, depth / 2 + ridge + face, 0.0), u, down, 0.0, foot or colour, part="foot")
        else:                   # foot B, on it
            sc.plate(g, (-cx, ridge - face - depth / 2, 0.2), u, down, 0.0, foot or colour, part="foot")
    sc.plate(_region(net, "back"), origin(vb, ridge, (0.0, 0.0, height)), u, vb, 0.0, colour, part="face")
    sc.plate(_region(net, "front"), origin(va, ridge, (0.0, 0.0, height)), u, va, 0.0, colour, part="face")
    return sc


def cuboid_scene(net, w: float, d: float, h: float, colour: Colour, top_open: bool = False) -> Scene:
    """A cuboid folded from its net: walls w | d | w | d round a w x d floor, the bottom and the
    top hinged to the first wall (the top standing open, if asked)."""
    sc = Scene()
    walls = [_region(net, f"wall {k}") for k in range(1, 5)]
    # Each wall's own coordinates start at its left edge in the net: place it round the box.
    places = [((0.0, 0.0, h), (1.0, 0.0, 0.0)), ((w, 0.0, h), (0.0, 1.0, 0.0)),
              ((w, d, h), (-1.0, 0.0, 0.0)), ((0.0, d, h), (0.0, -1.0, 0.0))]
    y_top = walls[0].bounds[1]
    for k in (2, 3, 0, 1):
        g = walls[k]
        gx = g.bounds[0]
        (ox, oy, oz), u = places[k]
        o = (ox - gx * u[0], oy - gx * u[1], oz + y_top)
        sc.plate(g, o, u, (0.0, 0.0, -1.0), 0.0, colour, part=f"wall {k + 1}")
    top = _region(net, "top")
    tx = top.bounds[0]
    if top_open:     # hinged on the first wall's top edge, standing up
        sc.plate(top, (-tx, 0.0, h + y_top), (1.0, 0.0, 0.0), (0.0, 0.0, -1.0), 0.0, colour, part="top")
    else:
        sc.plate(top, (-tx, y_top, h), (1.0, 0.0, 0.0), (0.0, -1.0, 0.0), 0.0, colour, part="top")
    return sc
