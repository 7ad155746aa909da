"""The Mille Bornes card shoe as laser parts (see boards/mille_bornes_shoe.yaml for the design).

Plan coordinates: x along the shoe, the reserve compartment first (x 0..a), the partition at
x a..a+t, the discard compartment after; y across, 0..Wo outside the long walls. Heights z from the
top of the walls. The ends bow outward by the sagitta s: arcs through (0, 0), (-s, Wo/2), (0, Wo).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import LineString, MultiLineString, Point, Polygon, box
from shapely.ops import unary_union

from ...laser.joints import Edge, finger_count, panel_outline
from ...limits import finger_problem, fit_problem, hinge_problem
from ...laser.parts import Part, text_score_lines
from ...spec import Spec, load_related
from .deck import load_deck


@dataclass(frozen=True)
class Shoe:
    card_w: float
    card_h: float
    n_cards: int
    clearance: float
    card_thickness: float
    headroom: float
    t: float
    material: str
    notch_w: float
    notch_d: float
    sagitta: float
    pitch: float
    bridge: float
    hinge_margin: float
    rib_w: float
    kerf: float
    sheet: tuple
    margin: float
    spacing: float

    @property
    def a(self) -> float:          # a compartment's inner length along the walls
        return self.card_w + self.clearance

    @property
    def b(self) -> float:          # its inner width
        return self.card_h + self.clearance

    @property
    def depth(self) -> float:      # inner depth: the whole deck, and headroom
        return math.ceil(self.n_cards * self.card_thickness + self.headroom)

    @property
    def length(self) -> float:     # the long walls: two compartments and the partition
        return 2 * self.a + self.t

    @property
    def width(self) -> float:      # outer width
        return self.b + 2 * self.t

    @property
    def height(self) -> float:     # the walls stand on the base's thickness
        return self.depth + self.t

    @property
    def radius(self) -> float:     # of the ends' arc (chord = outer width, rise = sagitta)
        c, s = self.width, self.sagitta
        return (c * c / 4 + s * s) / (2 * s)

    @property
    def half_angle(self) -> float:
        return math.asin(self.width / 2 / self.radius)

    @property
    def strip_length(self) -> float:
        """The end panel's length: the arc at the panel's mid-thickness (its neutral line)."""
        return 2 * self.half_angle * (self.radius + self.t / 2)

    @property
    def fingers(self) -> int:
        return finger_count(self.length, self.t)


MIN_WEB = 10.0      # mm of base left between two notches, or between a notch and the partition


def load_shoe(spec: Spec) -> Shoe:
    d = spec.data
    deck = load_deck(load_related(spec, "deck", ("mille-bornes-deck",)))
    shoe = Shoe(deck.size.width, deck.size.height, deck.total, d["clearance"], d["card_thickness"], d["headroom"],
                d["material"]["thickness"], d["material"]["name"], d["notch"]["width"], d["notch"]["base_depth"],
                d["dish"]["sagitta"], d["hinge"]["pitch"], d["hinge"]["bridge"], d["hinge"]["margin"],
                d["rib"]["width"], d["laser"]["kerf"], tuple(d["laser"]["sheet"]), d["laser"]["margin"],
                d["laser"]["spacing"])
    if shoe.notch_w >= shoe.a - 4 * shoe.t:
        raise spec.error(("notch", "width"), "the notch must leave wall on both sides of it")
    if shoe.sagitta >= shoe.width / 2:
        raise spec.error(("dish", "sagitta"), "the bow must be less than half the shoe's width")
    # The reserve's notches bite the base from both long edges and from its end: they must leave it
    # one piece (a 181 mm notch cut the base in two, and its assembly sheet ended in exit 70).
    if shoe.width - 2 * shoe.notch_d < MIN_WEB:
        raise spec.error(("notch", "base_depth"), f"notches {shoe.notch_d:g} mm deep from both sides of the "
                                                  f"{shoe.width:g} mm wide base leave under {MIN_WEB:g} mm between "
                                                  f"them (at most {(shoe.width - MIN_WEB) / 2:g} mm)")
    sides, end = notch_boxes(shoe)[:2], notch_boxes(shoe)[2]
    gap = min(end.distance(b) for b in sides)
    if gap < MIN_WEB:
        raise spec.error(("notch", "base_depth"), f"the notch {shoe.notch_d:g} mm deep into the base's end comes "
                                                  f"within {gap:.1f} mm of the notches in its sides (at least "
                                                  f"{MIN_WEB:g} mm of base between them)")
    # What the numbers call for, bounded before any part is drawn (generator/limits.py).
    problem = finger_problem(shoe.length, shoe.t, shoe.kerf, shoe.fingers)
    if problem:
        raise spec.error(("material", "thickness"), problem)
    problem = hinge_problem(shoe.pitch, shoe.kerf)
    if problem:
        raise spec.error(("hinge", "pitch"), problem)
    if shoe.height - 3 * shoe.bridge < 2:
        raise spec.error(("hinge", "bridge"), f"three bridges of {shoe.bridge:g} mm leave no slit in the "
                                              f"{shoe.height:g} mm high end panels (a slit is at least 1 mm long)")
    # The largest parts fit the stock sheet, from their numbers (the base spans its bows; the kerf
    # widens every outline by half of it a side), before any part or label is drawn.
    k = shoe.kerf
    for name, w, h in (("base", shoe.length + 2 * shoe.sagitta, shoe.width),
                       ("discard end", shoe.strip_length, shoe.height)):
        problem = fit_problem(f'"{name}"', w + k, h + k, shoe.sheet, shoe.margin)
        if problem:
            raise spec.error(("laser", "sheet"), problem)
    # The ribs that hold the bows stand in the bulge: a bow too shallow leaves them nothing to be.
    if not ribs(shoe, True) or not ribs(shoe, False):
        raise spec.error(("dish", "sagitta"), f"a bow of {shoe.sagitta:g} mm leaves no room for the rib inside the "
                                              "top of each end that holds it (a deeper bow)")
    return shoe


# ---------------------------------------------------------------- shared positions

def partition_side_tabs(s: Shoe) -> list[tuple[float, float]]:
    """Heights (from the top) of the partition's tabs through the long walls."""
    D = s.depth
    return [(D * 0.2, D * 0.45), (D * 0.55, D * 0.8)]


def partition_base_tabs(s: Shoe) -> list[tuple[float, float]]:
    """Positions across (y, outside coordinates) of the partition's tabs through the base."""
    t, b = s.t, s.b
    return [(t + b * 0.2, t + b * 0.4), (t + b * 0.6, t + b * 0.8)]


def notch_x(s: Shoe) -> tuple[float, float]:
    return (s.a / 2 - s.notch_w / 2, s.a / 2 + s.notch_w / 2)


def notch_boxes(s: Shoe) -> list:
    """The reserve's three excisions from the base: one in each long edge, one in its end."""
    n0, n1 = notch_x(s)
    W = s.width
    return [box(n0, -1, n1, s.notch_d), box(n0, W - s.notch_d, n1, W + 1),
            box(-s.sagitta - 1, W / 2 - s.notch_w / 2, -s.sagitta + s.notch_d, W / 2 + s.notch_w / 2)]


def _arc_points(s: Shoe, right: bool, n: int = 48) -> list[tuple[float, float]]:
    """The base's arched end, from y = 0 to y = Wo (left end) or back (right end)."""
    R, W, phi = s.radius, s.width, s.half_angle
    cx = (s.length + s.sagitta - R) if right else (-s.sagitta + R)
    pts = []
    for k in range(n + 1):
        a = -phi + 2 * phi * k / n
        if right:
            pts.append((cx + R * math.cos(a), W / 2 + R * math.sin(a)))
        else:
            pts.append((cx - R * math.cos(a), W / 2 - R * math.sin(a)))
    return pts if right else pts[::-1]


# ---------------------------------------------------------------- labels

LABEL_CLEAR = 0.6     # mm from a label's strokes to any cut (its part's edge, a slit)


def fitted_label(text: str, shape, centre: tuple[float, float], size: float, upright: bool = True,
                 keep_out=None) -> list[LineString]:
    """A scored label centred on `centre`, read along x (upright) or turned to read up the part,
    as large as `size` and no larger than fits: every stroke inside `shape` and LABEL_CLEAR from
    its edge and from `keep_out` (the slits of a living hinge). Nothing if even 1.2 mm does not."""
    room = shape.buffer(-LABEL_CLEAR)
    if keep_out is not None:
        room = room.difference(keep_out.buffer(LABEL_CLEAR))
    k = size
    while k >= 1.2:
        lines = text_score_lines(text, 0, 0, k)
        x0, y0, x1, y1 = MultiLineString(lines).bounds
        lines = [affinity.translate(ln, -(x0 + x1) / 2, -(y0 + y1) / 2) for ln in lines]
        if not upright:
            lines = [affinity.rotate(ln, -90, origin=(0, 0)) for ln in lines]
        lines = [affinity.translate(ln, *centre) for ln in lines]
        if all(room.contains(ln) for ln in lines):
            return lines
        k = round(k - 0.2, 2)
    return []


def copies(part: Part, count: int, label: str, place) -> list[Part]:
    """`count` copies of a part, each scored "label k of count" (one label on two parts, "x2", read
    as four); place(part, text) -> its score lines."""
    out = []
    for k in range(1, count + 1):
        text = f"{label} {k} of {count}" if count > 1 else label
        p = Part(part.name, part.outline, list(part.score), label=text, quantity=1, material=part.material,
                 cuts=list(part.cuts))
        p.score += place(p, text)
        out.append(p)
    return out


# ---------------------------------------------------------------- parts

def base(s: Shoe) -> Part:
    L, W, t = s.length, s.width, s.t
    left, right = _arc_points(s, False), _arc_points(s, True)
    outline = Polygon(left[::-1] + right)  # left arc from top to bottom, then right arc bottom to top
    outline = unary_union([outline, box(0, 0, L, W)])
    # Female fingers along both long edges: the long walls' fingers fill these slots.
    pattern = Edge("female", s.fingers).pattern()
    n = len(pattern)
    holes = []
    for k, out in enumerate(pattern):
        if not out:
            x0, x1 = L * k / n, L * (k + 1) / n
            holes += [box(x0, 0, x1, t), box(x0, W - t, x1, W)]
    for y0, y1 in partition_base_tabs(s):                       # mortises for the partition
        holes.append(box(s.a, y0, s.a + t, y1))
    holes += notch_boxes(s)                                      # the reserve's three excisions
    part = Part("base", outline.difference(unary_union(holes)), material="panels")
    part.score = text_score_lines("base: reserve", s.a * 0.2, W / 2 + 1.5, 4) + \
        text_score_lines("discard", s.a + t + s.a * 0.3, W / 2 + 1.5, 4)
    part.label = "base"
    return part


def long_wall_pieces(s: Shoe) -> list[Part]:
    """A long wall, finger-jointed to the base, mortised for the partition, parted by the notch."""
    L, H, t = s.length, s.height, s.t
    plain = Edge()
    outline = panel_outline(L, H, (plain, plain, Edge("male", s.fingers), plain), t)
    holes = [box(s.a, z0, s.a + t, z1) for z0, z1 in partition_side_tabs(s)]
    n0, n1 = notch_x(s)
    wall = outline.difference(unary_union(holes + [box(n0, -1, n1, H + 1)]))
    pieces = sorted(wall.geoms, key=lambda g: g.bounds[0])
    parts = []
    for k, g in enumerate(pieces):
        # One name for one part: the parts list's, the drawings' and the label scored on it.
        name = "reserve wall" if k == 0 else "long wall"
        x0, _, x1, _ = g.bounds
        if k == 0:      # a narrow piece: its label reads up it
            def place(p, text, g=g, x0=x0, x1=x1):
                return fitted_label(text, g, ((x0 + x1) / 2, H * 0.45), 2.6, upright=False)
        else:           # beyond the partition's mortises, in the discard half
            def place(p, text, g=g):
                return fitted_label(text, g, ((s.a + s.t + s.length) / 2, H / 2), 3.5)
        parts += copies(Part(name, g, material="panels"), 2, name, place)
    return parts


def partition(s: Shoe) -> Part:
    t, b, D = s.t, s.b, s.depth
    body = box(t, 0, t + b, D)          # x across the shoe (y outside coords), z down from the top
    tabs = [box(0, z0, t, z1) for z0, z1 in partition_side_tabs(s)]
    tabs += [box(t + b, z0, 2 * t + b, z1) for z0, z1 in partition_side_tabs(s)]
    tabs += [box(y0, D, y1, D + t) for y0, y1 in partition_base_tabs(s)]
    p = Part("partition", unary_union([body] + tabs), material="panels", label="partition")
    p.score = text_score_lines("partition", t + 6, D / 2, 4)
    return p


def end_panel(s: Shoe, reserve: bool) -> list[Part]:
    """A lateral side: a strip as long as the arc at mid-thickness, with living-hinge slits."""
    Ls, H = s.strip_length, s.height
    strip = box(0, 0, Ls, H)
    if reserve:
        strip = strip.difference(box(Ls / 2 - s.notch_w / 2, -1, Ls / 2 + s.notch_w / 2, H + 1))
    b = s.bridge
    slit = (H - 3 * b) / 2
    cuts = []
    x = s.hinge_margin
    k = 0
    while x <= Ls - s.hinge_margin + 1e-9:
        if k % 2 == 0:
            spans = [(b, b + slit), (H - b - slit, H - b)]
        else:
            spans = [(1.5 * b + slit / 2, H - 1.5 * b - slit / 2)]
        for z0, z1 in spans:
            line = LineString([(x, z0), (x, z1)])
            if strip.contains(line):
                cuts.append(line)
        x += s.pitch
        k += 1
    pieces = list(strip.geoms) if hasattr(strip, "geoms") else [strip]
    parts = []
    for g in pieces:
        mine = [c for c in cuts if g.contains(c)]
        name = "reserve end" if reserve else "discard end"
        gx0 = g.bounds[0]
        slits = MultiLineString([list(c.coords) for c in mine]) if mine else None

        # Up the end margin, where there are no slits: a label scored on a bridge (the wood
        # between a slit's end and the edge, all that holds the hinge together) would weaken it.
        # The strip's own ends (not a half's end at the notch, where the slits run on).
        end_x = gx0 + s.hinge_margin / 2 if gx0 < 1e-9 else g.bounds[2] - s.hinge_margin / 2

        def place(p, text, g=g, end_x=end_x, slits=slits):
            return fitted_label(text, g, (end_x, H / 2), 2.2, upright=False, keep_out=slits)
        base = Part(name, g, material="panels", cuts=mine)
        # The reserve end is cut in two halves, one drawing cut twice.
        parts += copies(base, 2 if reserve else 1, name, place)
    return parts


def ribs(s: Shoe, reserve: bool) -> list[Part]:
    """A curved rib inside the top of an end panel, to hold its bow. It stays in the bulge (x < 0),
    so the compartment keeps its full a x b opening for the cards."""
    R, W, t = s.radius, s.width, s.t
    cx = -s.sagitta + R
    band = Point(cx, W / 2).buffer(R, quad_segs=64).difference(Point(cx, W / 2).buffer(R - s.rib_w, quad_segs=64))
    rib = band.intersection(box(-s.sagitta - 1, t, 0.0, W - t))
    if reserve:
        rib = rib.difference(box(-s.sagitta - 1, W / 2 - s.notch_w / 2, 1.0, W / 2 + s.notch_w / 2))
    pieces = list(rib.geoms) if hasattr(rib, "geoms") else [rib]
    pieces = [g for g in pieces if g.area > 1.0][:1]
    name = "reserve rib" if reserve else "discard rib"
    out = []
    for g in pieces:
        # Along the rib's middle, reading up it: the three ribs are told apart by their labels.
        c = g.intersection(box(-s.sagitta - 1, (g.bounds[1] + g.bounds[3]) / 2 - 0.5, 1.0,
                               (g.bounds[1] + g.bounds[3]) / 2 + 0.5)).centroid
        def place(p, text, g=g, c=c):
            return fitted_label(text, g, (c.x, c.y), 2.2, upright=False)
        out += copies(Part(name, g, material="panels"), 2 if reserve else 1, name, place)
    return out


def shoe_parts(s: Shoe) -> list[Part]:
    # The reserve end's halves (and its rib's) are mirror images: one drawing, cut twice, each
    # copy scored "1 of 2", "2 of 2".
    return ([base(s)] + long_wall_pieces(s) + [partition(s)] + end_panel(s, True)[:2] + end_panel(s, False)
            + ribs(s, True) + ribs(s, False))
