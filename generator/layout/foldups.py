"""Fold-up pieces printed on card: their nets (outline to cut, folds to score, glue tabs), how they
are drawn (cut solid, fold dashed, glue hatched), and sheets of them.

Two shapes serve every game's pieces:
- a tent standee (a man or a pawn): two faces of a figure joined at the top of its head, each with a
  foot that folds in under it; the feet glued one on the other make a floor, so it stands as an A.
- a cuboid (a cube, a king cube, a small box): four walls in a row with a seam tab, the top and the
  bottom hinged to the first wall, tabs on the other walls' ends glued under them.
Coordinates are mm, y down, each net's origin at its bounding box's top-left.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from shapely import affinity
from shapely.geometry import LineString, Polygon, box as rect
from shapely.ops import unary_union

from ..colour import Colour
from ..draw import Drawing, Path, Style, rotate
from ..paper import Paper
from ..units import pt
from .cards import LayoutError
from .marks import SAFE_MARGIN

INK = Colour(rgb=(0.1, 0.1, 0.1))
WHITE = Colour(rgb=(1.0, 1.0, 1.0))
CUT = Style(stroke=Colour(rgb=(0.0, 0.0, 0.0)), width=pt(0.6), join="miter")
HATCH = Style(stroke=Colour(rgb=(0.62, 0.62, 0.62)), width=pt(0.5), cap="butt")


def fold_style(over: Colour | None = None) -> Style:
    """Dashed: dark grey on paper, or a tint of the ink on a coloured face."""
    colour = Colour(rgb=(0.45, 0.45, 0.45)) if over is None else over
    return Style(stroke=colour, width=pt(0.6), dash=(1.6, 1.2), cap="butt")


@dataclass
class Face:
    """A printed face: where it lies on the net and which way is up on it (degrees, clockwise, that
    its art is turned: a face that stands on the table upside down in the net is turned 180)."""
    name: str
    region: Polygon
    turn: float = 0.0


@dataclass
class Foldup:
    outline: Polygon
    folds: list[LineString] = field(default_factory=list)
    glue: list[Polygon] = field(default_factory=list)        # on the printed face
    faces: list[Face] = field(default_factory=list)

    @property
    def size(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.outline.bounds
        return (x1 - x0, y1 - y0)

    def face(self, name: str) -> Face:
        return next(f for f in self.faces if f.name == name)

    def normalised(self) -> "Foldup":
        """The same net with its bounding box's top-left at (0, 0)."""
        x0, y0, _, _ = self.outline.bounds

        def move(g):
            return affinity.translate(g, -x0, -y0)
        return Foldup(move(self.outline), [move(f) for f in self.folds], [move(g) for g in self.glue],
                      [Face(f.name, move(f.region), f.turn) for f in self.faces])


# ---------------------------------------------------------------- a tent standee

def figure_profile(height: float, width: float) -> list[tuple[float, float]]:
    """A pawn's right half, (half-width, distance from the foot) from the foot to the flat top of
    its head: a base, a body tapering to a waist, a collar, a neck, a round head cut flat on top
    (where it folds)."""
    w2 = width / 2
    rh = min(0.27 * width, 0.18 * height)      # the head's radius
    tc = height - 0.72 * rh                     # its centre: the flat top is 0.72 radius above
    t_neck = tc - 0.8 * rh                      # where the head's arc meets the neck (0.6 radius wide)
    waist = max(0.6 * rh, 0.3 * w2)
    pts = [(w2, 0.0), (w2, 0.10 * height), (0.86 * w2, 0.16 * height), (waist, t_neck - 0.09 * height),
           (0.52 * w2, t_neck - 0.08 * height), (0.52 * w2, t_neck - 0.02 * height)]
    a0, a1 = math.asin(-0.8), math.asin(0.72)
    for k in range(13):
        a = a0 + (a1 - a0) * k / 12
        pts.append((rh * math.cos(a), tc + rh * math.sin(a)))
    return pts


def tent(width: float, height: float, depth: float) -> Foldup:
    """A standee `height` tall standing on a `width` x `depth` floor: face | ridge | face, a foot
    below each. Each face is as long as the slope from foot to ridge."""
    face = math.hypot(height, depth / 2)
    half = figure_profile(face, width)
    top_half = half[-1][0]
    # Face A hangs below the ridge (y = 0) with its foot at y = face; face B is its mirror above.
    right = [(x, face - t) for x, t in half]                  # foot to ridge, face A
    right_b = [(x, -(face - t)) for x, t in reversed(half)]   # ridge to foot, face B
    outline_right = [(width / 2, face + depth)] + right + right_b[1:] + [(width / 2, -face - depth)]
    outline = Polygon(outline_right + [(-x, y) for x, y in reversed(outline_right)])
    outline = outline.buffer(0)
    a = Polygon([(x, y) for x, y in right] + [(-x, y) for x, y in reversed(right)])
    b = affinity.scale(a, 1, -1, origin=(0, 0))
    foot_a = rect(-width / 2, face, width / 2, face + depth)
    foot_b = rect(-width / 2, -face - depth, width / 2, -face)
    folds = [LineString([(-top_half, 0), (top_half, 0)]),
             LineString([(-width / 2, face), (width / 2, face)]), LineString([(-width / 2, -face), (width / 2, -face)])]
    net = Foldup(outline, folds, [foot_a], [Face("front", a, 0.0), Face("back", b, 180.0), Face("floor", foot_b, 0.0)])
    return net.normalised()


def standing_height(width: float, depth: float, face: float) -> float:
    return math.sqrt(face ** 2 - (depth / 2) ** 2)


# ---------------------------------------------------------------- a cuboid

def cuboid(w: float, d: float, h: float, tab: float | None = None) -> Foldup:
    """A box w x d, h tall: walls w | d | w | d in a row (h tall), a seam tab on the last; the top
    and the bottom (w x d) hinged to the first wall; tabs on the other walls' ends fold in under
    them. Faces: 'wall 1'..'wall 4', 'top', 'bottom'."""
    tab = min(0.25 * min(w, d, h), 7.0) if tab is None else tab
    shapes, folds, glue, faces = [], [], [], []
    x = 0.0
    y0, y1 = d, d + h
    for k, ww in enumerate((w, d, w, d)):
        wall = rect(x, y0, x + ww, y1)
        shapes.append(wall)
        faces.append(Face(f"wall {k + 1}", wall))
        if k:
            folds.append(LineString([(x, y0), (x, y1)]))
        if k == 0:
            top, bottom = rect(x, 0, x + ww, y0), rect(x, y1, x + ww, y1 + d)
            shapes += [top, bottom]
            # The top folds back over the box from the first wall's top edge: its far edge in
            # the net goes to the back, so its art reads upright from the front, as the walls'.
            faces += [Face("top", top, 0.0), Face("bottom", bottom)]
            folds += [LineString([(x, y0), (x + ww, y0)]), LineString([(x, y1), (x + ww, y1)])]
        else:
            c = min(tab, ww / 3)
            for y, s in ((y0, -1), (y1, 1)):
                t = Polygon([(x, y), (x + c, y + s * tab), (x + ww - c, y + s * tab), (x + ww, y)])
                shapes.append(t)
                glue.append(t)
                folds.append(LineString([(x, y), (x + ww, y)]))
        x += ww
    c = min(tab, h / 4)
    seam = Polygon([(x, y0), (x + tab, y0 + c), (x + tab, y1 - c), (x, y1)])
    shapes.append(seam)
    glue.append(seam)
    folds.append(LineString([(x, y0), (x, y1)]))
    outline = unary_union(shapes)
    if not isinstance(outline, Polygon):
        raise LayoutError("a cuboid's net is not one piece (a bug in its sizes)")
    return Foldup(outline, folds, glue, faces).normalised()


# ---------------------------------------------------------------- drawing

def ring_ops(ring, dx: float = 0.0, dy: float = 0.0) -> list[tuple]:
    """A polygon's ring (shapely's, closed) as one closed path's ops."""
    pts = list(ring.coords)[:-1]
    return [("M", pts[0][0] + dx, pts[0][1] + dy), *[("L", px + dx, py + dy) for px, py in pts[1:]], ("Z",)]


def polygon_path(poly: Polygon, dx: float = 0.0, dy: float = 0.0) -> Path:
    return Path([op for ring in [poly.exterior, *poly.interiors] for op in ring_ops(ring, dx, dy)], Style())


def glue_area(page: Drawing, poly: Polygon, ox: float, oy: float, label: bool = True) -> None:
    """Glue goes on bare card: white, hatched, and GLUE where there is room."""
    page.path(polygon_path(poly, ox, oy).ops, Style(fill=WHITE))
    x0, y0, x1, y1 = poly.bounds
    with page.group(clip=polygon_path(poly, ox, oy)):
        k = 0.0
        while k < (x1 - x0) + (y1 - y0):
            page.line(ox + x0 + k, oy + y0, ox + x0 + k - (y1 - y0), oy + y1, HATCH)
            k += 2.5
    w, h = x1 - x0, y1 - y0
    if not label or max(w, h) < 12 or min(w, h) < 3.5:
        return
    cx, cy = ox + x0 + w / 2, oy + y0 + h / 2
    turn = -90 if h > w else 0
    long_, short = max(w, h), min(w, h)
    with page.group(rotate(turn, cx, cy)):
        page.fit_text(cx - long_ * 0.4, cy - short * 0.2, long_ * 0.8, short * 0.4, "GLUE", INK, max_size=3.0)


def paint_initial(colour: Colour, letter: str, ink: Colour, place=(0.3, 0.52, 0.6, 0.2)):
    """A painter for draw_foldup: every face the colour, and the standing faces the letter (a
    colour's or a player's initial, for players who tell colours apart badly), fitted in the box
    `place` gives as fractions of the face: left from its centre, top, width, height."""
    left, top, width, height = place

    def paint(page: Drawing, face: Face, ox: float, oy: float) -> None:
        x0, y0, x1, y1 = face.region.bounds
        page.rect(ox + x0, oy + y0, x1 - x0, y1 - y0, Style(fill=colour))
        if face.name == "floor":
            return
        cx, cy = ox + (x0 + x1) / 2, oy + (y0 + y1) / 2
        with page.group(rotate(face.turn, cx, cy)):
            h = y1 - y0
            page.fit_text(cx - (x1 - x0) * left, oy + y0 + h * top, (x1 - x0) * width, h * height, letter, ink)
    return paint


def draw_foldup(page: Drawing, net: Foldup, ox: float, oy: float, paint: Callable[[Drawing, Face, float, float], None],
                fold_colour: Colour | None = None, bleed: float = 0.0, ground: Colour | None = None,
                cut: bool = True) -> None:
    """A net at (ox, oy): each face painted by paint(page, face, ox, oy) within the outline, the
    glue areas, then the folds (dashed) and the outline (cut). With `bleed`, the art runs that far
    past the outline: `ground` (the faces' colour) fills it, the faces painted over it; `cut`
    False leaves the outline undrawn (a cutting machine cuts it: a printed line would show where
    its cut drifts)."""
    inside = net.outline if not bleed else net.outline.buffer(bleed, join_style="mitre", mitre_limit=4.0)
    with page.group(clip=polygon_path(inside, ox, oy)):
        if ground is not None:
            page.path(polygon_path(inside, ox, oy).ops, Style(fill=ground))
        for face in net.faces:
            paint(page, face, ox, oy)
        for g in net.glue:
            glue_area(page, g, ox, oy)
    for line in net.folds:
        (ax, ay), (bx, by) = line.coords
        # A pale line under dark dashes: the fold shows on the coloured face and on the white of
        # a glue area alike (a tint's dashes alone vanished on the white foot).
        page.line(ox + ax, oy + ay, ox + bx, oy + by, Style(stroke=WHITE, width=pt(1.2), cap="butt"))
        page.line(ox + ax, oy + ay, ox + bx, oy + by, fold_style(fold_colour))
    if cut:
        page.path(polygon_path(net.outline, ox, oy).ops, CUT)


BLEED = 2.0     # mm a cut part's art runs past its outline (contents.CutPart), so a drifted cut shows art


def fold_ops(line: LineString, dx: float = 0.0, dy: float = 0.0) -> list[tuple]:
    """A fold line as path ops (a CutPart's folds)."""
    (ax, ay), (bx, by) = line.coords
    return [("M", ax + dx, ay + dy), ("L", bx + dx, by + dy)]


def foldup_cut_part(name: str, net: Foldup, paint: Callable[[Drawing, Face, float, float], None], ground: Colour,
                    fold_colour: Colour | None = None, count: int = 1):
    """A net as a print-and-cut part (issue 37): its face the printed piece's (draw_foldup's) with
    the ground carried BLEED past the outline and no cut line; its outline the net's, the one the
    printed sheets cut on; its folds the net's."""
    from .cutpart import CutPart
    w, h = net.size
    face = Drawing(w, h)
    draw_foldup(face, net, 0.0, 0.0, paint, fold_colour, bleed=BLEED, ground=ground, cut=False)
    return CutPart(name, w, h, face, ring_ops(net.outline.exterior), BLEED, count,
                   holes=[ring_ops(r) for r in net.outline.interiors], folds=[fold_ops(line) for line in net.folds])


# ---------------------------------------------------------------- sheets

@dataclass
class Item:
    """Something to lay on a sheet: its size, how to draw it at (x, y), and the section it is in."""
    width: float
    height: float
    draw: Callable[[Drawing, float, float], None]
    section: str = ""
    new_row: bool = False       # start a new row (a new colour)
    keep: str = ""              # a run of items with the same keep stays on one row, if a row holds it


def pack_pages(items: list[Item], paper: Paper, title: str, notes: dict[str, str] | None = None,
               gap: float = 3.0, landscape: bool | None = None, new_page: tuple[str, ...] = ()) -> list[Drawing]:
    """Items in rows, left to right, a new row when one is full and a new page when one is; each
    section starts a new row under its heading (and its note, from `notes`), or a new page if it is
    in `new_page`. The orientation that needs fewer pages is used (portrait on a tie), unless
    `landscape` says which."""
    options = [False, True] if landscape is None else [landscape]
    best = None
    for land in options:
        try:
            # Laid out without drawing the items first: only the winner is drawn.
            count = len(_pack(items, paper, land, title, notes or {}, gap, new_page, draw=False))
        except LayoutError:
            continue
        if best is None or count < best[1]:
            best = (land, count)
    if best is None:
        raise LayoutError(f"a piece is too big for {paper.label} paper")
    return _pack(items, paper, best[0], title, notes or {}, gap, new_page)


HEAD = 4.2      # mm: a section heading's size
NOTE = 2.6      # mm: a note's size (7.4 pt)


def _pack(items, paper, landscape, title, notes, gap, break_before, draw: bool = True) -> list[Drawing]:
    from ..draw.drawing import text_block_height
    pw, ph = paper.size
    if landscape:
        pw, ph = ph, pw
    m = SAFE_MARGIN + 2.0
    width = pw - 2 * m
    bottom = ph - m
    pages: list[Drawing] = []
    page = None
    x = y = row_h = 0.0
    section = None

    def new_page():
        nonlocal page, x, y, row_h
        page = Drawing(pw, ph)
        pages.append(page)
        page.text(m, m + 3.5, title, 3.5, INK, font="sans-bold")
        x, y, row_h = m, m + 7.0, 0.0

    def heading(name, first):
        nonlocal y
        note = notes.get(name, "")
        need = HEAD + 2 + (text_block_height(note, NOTE, width) + 2.5 if note else 0) + first.height
        if y + need > bottom:
            new_page()
        page.text(m, y + HEAD * 0.75, name, HEAD * 0.85, INK, font="sans-bold")
        y += HEAD + 1.5
        if note:
            y += page.text_block(m, y, width, note, NOTE, INK) + 2.5
    new_page()
    runs: dict[int, float] = {}      # where a run of kept items starts: its width
    for i, it in enumerate(items):
        if it.keep and (i == 0 or items[i - 1].keep != it.keep):
            j = i
            while j < len(items) and items[j].keep == it.keep:
                j += 1
            runs[i] = sum(x.width for x in items[i:j]) + gap * (j - i - 1)
    for i, it in enumerate(items):
        if it.width > width or it.height > bottom - (m + 7.0) - HEAD - 20:
            raise LayoutError("too big")
        if it.section != section:
            if row_h:
                y += row_h + gap
            x, row_h = m, 0.0
            if it.section in break_before and section is not None:
                new_page()
            section = it.section
            if section:
                heading(section, it)
        run = runs.get(i, 0.0)
        kept_apart = run and x > m and x + run > m + width + 1e-9 and run <= width
        if x + it.width > m + width + 1e-9 or (it.new_row and x > m) or kept_apart:
            x, y, row_h = m, y + row_h + gap, 0.0
        if y + it.height > bottom + 1e-9:
            new_page()
            if section:
                heading(section + " (continued)", it)
        if draw:
            it.draw(page, x, y)
        x += it.width + gap
        row_h = max(row_h, it.height)
    for i, p in enumerate(pages):
        p.text(pw - m, ph - SAFE_MARGIN - 0.5, f"{i + 1} / {len(pages)}", NOTE, INK, font="sans", align="right")
    return pages
