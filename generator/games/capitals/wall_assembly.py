"""The Capitals walls' assembly sheet: which of the three ways to make them, how long each takes,
and how each is made, with drawings from the pieces' own nets (walls.wall_net) and strips."""
from __future__ import annotations

from shapely.geometry import LineString, box

from ...colour import Colour
from ...draw import Style
from ...layout.assembly import CARD, INK, Assembly, Plan, Scene, Step
from ...paper import Paper
from ...units import pt
from .strips import WALL, WIDTH, MakeTimes, hours, strip_length
from .walls import FOLD, TICK, WallSet, wall_net

X, Y, Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)


def _net_plan(ws: WallSet, units: int) -> Plan:
    net = wall_net(ws, units)
    plan = Plan()
    outline = Style(fill=CARD, stroke=INK, width=pt(0.6), join="miter")
    plan.add(net.outline, outline, part="piece")
    for f in net.folds:
        plan.add(f, FOLD, part="fold")
    for t in net.ticks:
        plan.add(t, TICK, part="tick")
    # The first notch's cut edges (the outline's, drawn again under its name), its leader on its side.
    x = ws.extension + ws.square
    plan.add(net.outline.boundary.intersection(box(x - ws.notch, -1, x + ws.notch, ws.flange + ws.side)),
             Style(stroke=INK, width=pt(0.6)), part="notch")
    plan.callout("notch", (x - ws.notch / 2, ws.flange / 2), -4, -6)
    plan.callout("fold", (ws.extension + ws.square * 1.5, ws.flange + ws.side), 0, 5)
    return plan


def _trough(sc: Scene, ws: WallSet, units: int, origin, along, across, lift: float = 0.0, layer: int = 0,
            name: str = "") -> None:
    """A piece folded: each band of its net (flange, side, top, side, flange) placed in space,
    each named `name` and the band's (for the callouts). The top is drawn over the rest of its
    piece: it lies above all of it, so nothing of the piece can hide it (a band sorted by its
    centre alone can). A piece of a higher `layer` is drawn over the whole of a lower one."""
    net = wall_net(ws, units)
    f, h, t = ws.flange, ws.side, ws.top
    W = ws.strip_width
    up = (0.0, 0.0, 1.0)
    down = (0.0, 0.0, -1.0)
    # Across the strip: (from y, to y, the band's direction in space, (its net's y = 0 across the
    # trough's middle, and up)).
    bands = [(0, f, across, (-(f + t / 2), 0.0)), (f, f + h, up, (-t / 2, -f)),
             (f + h, f + h + t, across, (-t / 2 - (f + h), h)), (f + h + t, f + 2 * h + t, down, (t / 2, h + f + h + t)),
             (f + 2 * h + t, W, across, (t / 2 - (f + 2 * h + t), 0.0))]
    for band, (y0, y1, v, (a0, z0)) in zip(("flange", "side", "top", "side", "flange"), bands):
        piece = net.outline.intersection(box(-1, y0, net.length + 1, y1))
        for g in getattr(piece, "geoms", [piece]):
            if g.geom_type != "Polygon" or g.area < 0.01:
                continue
            o = (origin[0] + a0 * across[0], origin[1] + a0 * across[1], origin[2] + z0 + lift)
            marks = [LineString([(tx, y0 + 0.6), (tx, y1 - 0.6)]) for tx in
                     [ws.extension + k * ws.square for k in range(units + 1)]] if v is across and y0 == f + h else []
            sc.plate(g, o, along, v, 0.0, CARD, marks=marks,
                     mark_style=Style(stroke=TICK.stroke, width=pt(0.8)), layer=2 * layer + (band == "top"),
                     part=f"{name}{band}")


def _folded(ws: WallSet) -> Scene:
    sc = Scene()
    _trough(sc, ws, 3, (0.0, 0.0, 0.0), X, Y)
    sc.callout("top: red ticks at the units", (ws.extension + ws.square * 1.5, 0, ws.side), 0, -7, part="top")
    sc.callout("flange", (ws.square * 2.5 + ws.extension, ws.top / 2 + ws.flange / 2, 0), 8, 5, part="flange")
    return sc


def _crossing(ws: WallSet) -> Scene:
    """The second piece held above the first, square to it, its middle notches over the first's
    top, and an arrow down: all of it above all of the first (a plane apart), so it is drawn over
    it without the overlaps of two pieces drawn interlocked."""
    sc = Scene()
    s, e = ws.square, ws.extension
    lift = 2 * ws.side + 16.0
    _trough(sc, ws, 4, (0.0, 2 * s + e, 0.0), X, Y, name="first ")
    _trough(sc, ws, 4, (2 * s + e, 0.0, 0.0), Y, (-1.0, 0.0, 0.0), lift=lift, layer=1, name="second ")
    # Down from the second's notch to the first's top, where the notch goes.
    x = 2 * s + e
    sc.arrow((x, x + ws.top, lift - 2), (x, x + ws.top, ws.side + 2))
    sc.callout("the second's top rides over the first's", (2 * s + e, s + e, lift + ws.side), 6, -9,
               part="second top")
    return sc


def _strips_plan(ws: WallSet) -> Plan:
    """A corner of a sheet of strips: two bands, strips end to end."""
    plan = Plan((-2, -2, 120, 2 * WIDTH + 12))
    x = 0.0
    for j, row in enumerate(([4, 2, 3], [3, 5])):
        x = 0.0
        for units in row:
            length = strip_length(ws, units)
            plan.add(box(x, j * WIDTH, x + length, (j + 1) * WIDTH), Style(fill=WALL, stroke=INK, width=pt(0.4)),
                     part="strip")
            for k in range(units + 1):
                tx = x + ws.extension + k * ws.square
                plan.add(LineString([(tx, j * WIDTH + 1.2), (tx, (j + 1) * WIDTH - 1.2)]),
                         Style(stroke=Colour(rgb=(1, 1, 1)), width=pt(0.8)))
            x += length
    plan.callout("one long cut parts two bands", (96, WIDTH), 0, 7, part="strip")
    return plan


def _on_the_map(ws: WallSet) -> Plan:
    """Strips on the map's grid: one along a line, one crossing it, one meeting it at a right angle,
    its extension over the first's."""
    s, e = ws.square, ws.extension
    n = 6
    plan = Plan((-2, -2, n * s + 2, 4 * s + 2))
    for i in range(n + 1):
        plan.add(LineString([(i * s, 0), (i * s, 4 * s)]), Style(stroke=Colour(rgb=(0.6, 0.7, 0.8)), width=pt(0.5)))
    for j in range(5):
        plan.add(LineString([(0, j * s), (n * s, j * s)]), Style(stroke=Colour(rgb=(0.6, 0.7, 0.8)), width=pt(0.5)))
    st = Style(fill=WALL, stroke=INK, width=pt(0.4))
    plan.add(box(s - e, 2 * s - WIDTH / 2, 5 * s + e, 2 * s + WIDTH / 2), st, part="strip")
    plan.add(box(3 * s - WIDTH / 2, -e + 0.5 * s - 0.5 * s, 3 * s + WIDTH / 2, 4 * s + e - 0.01), st,
             part="crossing strip")
    plan.add(box(5 * s - WIDTH / 2, 2 * s - e, 5 * s + WIDTH / 2, 4 * s + e - 0.01), st, part="meeting strip")
    plan.callout("crossing: laid over", (3 * s, 0.6 * s), -16, 0, part="crossing strip")
    plan.callout("meeting: the ends overlap", (5 * s, 2 * s), 0, 12, part="meeting strip")
    return plan


def walls_assembly(ws: WallSet, times: MakeTimes, paper: Paper) -> Assembly:
    total = sum(ws.counts.values())
    intro = (f"The {total} wall pieces ({', '.join(f'{c} x {u}' for u, c in ws.counts.items())}: pieces x units) "
             "can be made three ways; choose one:\n"
             f"- Flat strips (capitals_walls-strips-{paper.name}.pdf): {hours(times.strips)} to cut "
             f"({times.strip_cuts[0]} long cuts and {times.strip_cuts[1]} short ones). The walls lie flat on the map, "
             "crossing walls over them. The quick way to play.\n"
             f"- Folded troughs, as the patent's (capitals_walls-print-{paper.name}.pdf): {hours(times.troughs)} "
             f"({times.trough_cuts:,} knife cuts, every notch four, and {times.trough_scores} fold lines to score). "
             "Walls that stand up, cross through each other's notches and look like the patent's.\n"
             f"- Laser-cut troughs (the card files): the laser cuts and scores them; "
             f"{hours(times.laser_folds)} to fold.")
    steps = [
        Step("Flat strips: cut along every long line across the sheet (a metal ruler and a knife), then between "
             "the strips. Each strip is its piece's length, a white tick at every unit.", _strips_plan(ws)),
        Step("Playing with strips: lay a strip on the lines between squares, its ticks on the grid's corners. A wall "
             "that crosses another lies over it; two that meet overlap by their ends (the patent's 3 mm "
             "extension).", _on_the_map(ws)),
        Step("Troughs: cut each piece on its solid lines, the notches too (a knife: four short cuts a notch). "
             "Score the four long dashed lines along a ruler, each in one stroke from end to end.",
             _net_plan(ws, 3)),
        Step("Fold the sides down and the flanges out: the piece stands on its flanges, its top "
             f"{ws.top:g} mm wide with a red tick at every unit, running {ws.extension:g} mm past each end. "
             "Laser-cut pieces come scored: fold them the same way.", _folded(ws)),
        Step("Crossing: lay a piece across another at a unit: the notches in its sides fit over the other's top, "
             "and its top rides over it (the patent's Fig. 7).", _crossing(ws)),
    ]
    checks = [f"A piece's ticks fall on the map's grid lines, {ws.square:g} mm apart, along its whole length.",
              "Two crossing troughs both sit flat on the map.",
              f"Sorted on the rack (capitals_walls-rack-{paper.name}.pdf), every lane holds its count: {total} pieces."]
    return Assembly("Capitals wall pieces: assembly", intro,
                    [(str(c), f"piece of {u} unit{'s' if u > 1 else ''} ({strip_length(ws, u):g} mm)", "")
                     for u, c in ws.counts.items()],
                    ["a craft knife", "a metal ruler", "a cutting mat", "for troughs, a blunt knife or an empty pen "
                     "to score"], steps, checks)
