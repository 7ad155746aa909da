"""The card shoe's assembly sheet: every drawing made from the parts shoe.py cuts, placed where
they go (x along the shoe, the reserve compartment first; y across; z up from the table)."""
from __future__ import annotations

import math

from shapely import affinity
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import nearest_points

from ...colour import Colour
from ...draw import Style
from ...layout.assembly import INK, WOOD, Assembly, Plan, Scene, Step
from ...units import pt
from .shoe import Shoe, _arc_points, base, end_panel, long_wall_pieces, partition, ribs, shoe_parts

X, Y, Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
NZ = (0.0, 0.0, -1.0)
DARK = Colour(rgb=(0.62, 0.48, 0.3))


def parts_list(s: Shoe) -> list[tuple[str, str, str]]:
    rows: dict[str, int] = {}
    for p in shoe_parts(s):
        rows[p.name] = rows.get(p.name, 0) + p.quantity
    return [(str(n), name, s.material) for name, n in rows.items()]


def _walls(sc: Scene, s: Shoe, lift: float = 0.0, spread: float = 0.0) -> None:
    H, t, W = s.height, s.t, s.width
    for piece in long_wall_pieces(s):
        sc.plate(piece.outline, (0, -spread, H + lift), X, NZ, t, WOOD, marks=piece.score, part=piece.name)
        sc.plate(piece.outline, (0, W - t + spread, H + lift), X, NZ, t, WOOD, part=piece.name)


def _partition(sc: Scene, s: Shoe, lift: float = 0.0) -> None:
    p = partition(s)
    # Its scored face towards the viewer (the part is symmetric across the shoe): from y = W along -y.
    sc.plate(p.outline, (s.a, s.width, s.height + lift), (0.0, -1.0, 0.0), NZ, s.t, DARK, marks=p.score,
             part="partition")


def _end_quads(s: Shoe, right: bool, lift: float = 0.0) -> list[list[list]]:
    """An end panel bent round the base's arched end, at mid-thickness outside it, as quads; the
    reserve end in its two halves either side of the notch."""
    pts = _arc_points(s, right, 40)
    cx = (s.length + s.sagitta - s.radius) if right else (-s.sagitta + s.radius)
    out = []
    for x, y in pts:
        d = math.hypot(x - cx, y - s.width / 2) or 1.0
        k = (d + s.t / 2) / d
        out.append((cx + (x - cx) * k, s.width / 2 + (y - s.width / 2) * k))
    halves, current = [], []
    for a, b in zip(out, out[1:]):
        mid = (a[1] + b[1]) / 2
        if not right and abs(mid - s.width / 2) < s.notch_w / 2:
            if current:
                halves.append(current)
                current = []
            continue
        current.append([(a[0], a[1], lift), (b[0], b[1], lift), (b[0], b[1], s.height + lift),
                        (a[0], a[1], s.height + lift)])
    if current:
        halves.append(current)
    return halves


def _shoe_scene(s: Shoe, step: int) -> Scene:
    sc = Scene()
    b = base(s)
    sc.plate(b.outline, (0, 0, 0), X, Y, s.t, WOOD, marks=b.score, part="base")
    if step == 1:
        _walls(sc, s)
        for y in (s.t / 2, s.width - s.t / 2):
            sc.arrow((s.a * 1.5, y, s.height + 22), (s.a * 1.5, y, s.height + 3))
        sc.callout("long wall", (s.length * 0.8, 0, s.height), 4, -8)
        sc.callout("its reserve-end piece", (s.a * 0.25, s.width, s.height), -6, -8, part="reserve wall")
        sc.callout("base", (s.length + s.sagitta * 0.6, s.width / 2, s.t), 10, 6)
        return sc
    _walls(sc, s)
    if step == 2:
        _partition(sc, s, lift=34.0)
        # Down from the partition held above to where its tabs go, in the walls' mortises and the base's.
        sc.arrow((s.a + s.t / 2, s.width / 2, 30), (s.a + s.t / 2, s.width / 2, s.t + 4))
        sc.callout("partition: tabs into the mortises", (s.a, s.width * 0.8, s.height + 34), 6, -7,
                   part="partition")
        return sc
    _partition(sc, s)
    for right in (False, True):
        for half in _end_quads(s, right):
            sc.surface(half, WOOD, part="discard end" if right else "reserve end")
    # A card drawn from the reserve: gripped through the notches, lifted clear.
    lift = s.height + 10
    card = Polygon([(0, 0), (s.card_w, 0), (s.card_w, s.card_h), (0, s.card_h)])
    sc.plate(card, ((s.a - s.card_w) / 2, (s.width - s.card_h) / 2, lift), X, Y, 0.3,
             Colour(rgb=(0.95, 0.95, 0.97)), part="card")
    sc.arrow((s.a / 2, s.width / 2, s.height - 6), (s.a / 2, s.width / 2, lift - 2))
    sc.callout("a card drawn from the reserve", (s.a / 2, s.width * 0.1, lift), -4, -7, part="card")
    sc.callout("discard", (s.a * 1.6, s.width / 2, s.t), 14, 9, part="base")       # the compartment's floor
    return sc


def _rib_plan(s: Shoe) -> Plan:
    """The reserve end from above: the base's arched end, the bent panel round it, the rib inside
    its top (both halves, either side of the notch)."""
    plan = Plan()
    b = base(s)
    window = Polygon([(-s.sagitta - s.t - 2, -2), (s.a * 0.45, -2), (s.a * 0.45, s.width + 2),
                      (-s.sagitta - s.t - 2, s.width + 2)])
    plan.add(b.outline.intersection(window), Style(fill=WOOD, stroke=INK, width=pt(0.5)), part="base")
    for half in _end_quads(s, False):
        line = LineString([(q[0][0], q[0][1]) for q in half] + [(half[-1][1][0], half[-1][1][1])])
        plan.add(line.buffer(s.t / 2, cap_style="flat"), Style(fill=DARK, stroke=INK, width=pt(0.4)),
                 part="reserve end")
    rib = ribs(s, True)[0]
    plan.add(rib.outline, Style(fill=Colour(rgb=(0.95, 0.85, 0.6)), stroke=INK, width=pt(0.6)), part="reserve rib")
    mirrored = affinity.scale(rib.outline, 1, -1, origin=(0, s.width / 2))
    plan.add(mirrored, Style(fill=Colour(rgb=(0.95, 0.85, 0.6)), stroke=INK, width=pt(0.6)), part="reserve rib")
    c = rib.outline.representative_point()
    plan.callout("rib, inside the top", (c.x, c.y), 16, -4, part="reserve rib")
    # The notch: the gap between the end's halves, down into the base's excision; the leader on its edge.
    edge = nearest_points(b.outline.exterior, Point(-s.sagitta, s.width / 2))[0]
    plan.callout("notch", (edge.x, edge.y), 14, 0, part="base")
    return plan


def _end_plan(s: Shoe) -> Plan:
    """The discard end flat, as cut: the slits of its living hinge."""
    p = end_panel(s, False)[0]
    plan = Plan()
    plan.add(p.outline, Style(fill=WOOD, stroke=INK, width=pt(0.5)), part="discard end")
    for c in p.cuts:
        plan.add(c, Style(stroke=Colour(rgb=(0.75, 0.1, 0.1)), width=pt(0.35)), part="slits")
    middle = Point(p.outline.bounds[2] * 0.5, s.height * 0.5)
    on = min(p.cuts, key=lambda c: c.distance(middle)).interpolate(0.5, normalized=True)
    plan.callout("slits: bend across them, slowly", (on.x, on.y), 0, 0, part="slits")
    return plan


def shoe_assembly(s: Shoe, cards: int) -> Assembly:
    steps = [
        Step("Long walls: each long wall is two pieces, parted by the reserve's notch. Push their bottom fingers "
             "into the slots along the base's long edges, the scored labels outside; glue. Square them up.",
             _shoe_scene(s, 1)),
        Step("Partition: slide its side tabs into the walls' mortises and its bottom tabs into the base's; "
             "glue. The reserve compartment (notched) is on one side, the discard on the other.",
             _shoe_scene(s, 2)),
        Step("Ends: the ends are living hinges. Bend each one slowly across its slits (warm it in your hands, or "
             "damp the back lightly) round the base's arched end, its foot on the table, and glue it to the base's "
             "edge and the walls' ends; hold it with tape while it dries. The reserve end is two halves, either "
             "side of the notch.", _end_plan(s)),
        Step("Ribs: glue a rib inside the top of each end, flush with the top edge: it holds the bow.",
             _rib_plan(s)),
        Step("Finish: sand every edge a card touches (the notches, the tops of the walls, the partition) smooth, "
             "and take the sharp corners off. The deck goes in the notched reserve, face down.", _shoe_scene(s, 4)),
    ]
    checks = [
        f"The whole deck ({cards} cards) lies flat in the reserve compartment, with room above it.",
        "A card is drawn from the reserve with a thumb on top and a finger in a side notch, without lifting "
        "the ones under it.",
        "A card dropped into the discard compartment slides down flat to the bottom (the ends' bow guides it).",
        "The shoe stands level: no end panel lifts it off the table.",
    ]
    return Assembly(
        "Mille Bornes card shoe: assembly",
        f"The patent's two-compartment card shoe (Figs. 25-27), laser-cut from {s.material}: a reserve "
        f"compartment, notched on its three outer sides so a card can be gripped, and a discard compartment, "
        f"each {s.a:g} x {s.b:g} mm inside and {s.depth:g} mm deep. Dry-fit every joint before you glue.",
        parts_list(s), ["the shoe's parts", "wood glue (PVA)", "masking tape", "fine sandpaper (180 grit)",
                        "a square"],
        steps, checks)
