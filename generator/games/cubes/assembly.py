"""The Cubes kit's assembly sheet, and the paper pieces': every drawing made from the parts the
kit cuts (kit.py) or the nets the pieces print (foldups.py), at their sizes."""
from __future__ import annotations

from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import nearest_points, unary_union

from ...colour import Colour
from ...draw import Style
from ...layout.assembly import ACCENT, CARD, INK, WHITE, WOOD, Assembly, Plan, Scene, Step
from ...paper import Paper
from ...units import pt
from .dimensions import cup_lines, cup_offsets
from .kit import Kit, cube_panels, cube_parts, frame_bars, kings_of, pawn_plates, peg_marks, player_look

MDF = Colour(rgb=(0.72, 0.6, 0.45))
PLY = WOOD
FILM = Colour(rgb=(0.85, 0.9, 0.95))
ACRYLIC = Colour(rgb=(0.75, 0.85, 0.9))
X, Y, Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
NX, NY, NZ = (-1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, -1.0)


def edge_radius(spec) -> float:
    """The patent's rounded edges: "arrondies selon un cercle de 4 mm de diamètre"."""
    return float(spec.data["cube"].get("edge_radius", 2))


def parts_list(kit: Kit) -> list[tuple[str, str, str]]:
    """(count, part, material) for the whole kit, summed from the parts the kit cuts."""
    name = {k: m["name"] for k, m in kit.materials.items()}
    plain = kit.cubes - kit.kings
    rows = [("1", "base plate", name["base"]), ("1", "cup layer, grid engraved", name["cup_layer"]),
            ("1", "rail layer, kiss-cut: border and dashes", name["rail_layer"]),
            ("4", "frame bars, dovetailed: top, right, bottom (letters engraved), left (numbers)", name["frame"])]
    counts: dict[tuple[str, str], int] = {}
    # A king's top is its player's: a row each.
    for king, player, n in [(False, 1, plain)] + [(True, k, kings_of(kit, k)) for k in range(1, kit.players + 1)]:
        for p in cube_parts(kit, king, player):
            label = p.label.replace(", face down", "").replace("peg x4", "peg")
            counts[(label, p.material)] = counts.get((label, p.material), 0) + p.quantity * n
    for player in range(1, kit.players + 1):
        for p in pawn_plates(kit, player):
            label = p.label.split(",")[0]
            counts[(label, p.material)] = counts.get((label, p.material), 0) + kit.pawns_each
    rows += [(str(n), label, name[material]) for (label, material), n in counts.items()]
    return rows


def _cube_scene(kit: Kit, king: bool, spread: float) -> Scene:
    """A cube's box from its panels' outlines: walls round the bottom plate, the top above, the
    ring above that (a plain cube), each moved out by `spread` mm."""
    t = kit.t("cube")
    parts = {p.name: p for p in cube_parts(kit, king)}
    panels = {p.name: p for p in cube_panels(kit, king)}
    c = kit.cube
    wall = panels["front"].h
    top_z = t + wall
    sc = Scene()

    def name(p) -> str:
        return p.label.replace(", face down", "")
    sc.plate(parts["bottom"].outline, (0, 0, 0), X, Y, t, PLY, part=name(parts["bottom"]))
    for side, origin, u in (("back", (c, c + spread, top_z), NX), ("left", (-spread, c, top_z), NY),
                            ("front", (0, -spread, top_z), X), ("right", (c + spread, 0, top_z), Y)):
        sc.plate(parts[side].outline, origin, u, NZ, t, PLY, marks=parts[side].score, part=name(parts[side]))
    lift = 1.2 * spread
    top = parts["top"]
    sc.plate(top.outline, (0, 0, top_z - t + lift), X, Y, t, PLY, marks=top.score, part=name(top))
    if king:
        for g in top.engrave:          # the first player's: crown, initial
            sc.plate(g, (0, 0, top_z + lift + 0.01), X, Y, 0.0, Colour(rgb=(0.35, 0.25, 0.15)), part="crown")
    else:
        ring = parts["ring"]
        sc.plate(ring.outline, (0, 0, top_z + 2 * lift), X, Y, kit.t("ring"), PLY, part="ring")
    return sc


def _board_stack(kit: Kit, step: int) -> Scene:
    """The board's layers, step 1 (cup layer onto the base, its grid drawn) or step 3 (the frame
    round them, its cell names drawn: the letters along one edge, the numbers up the next)."""
    o, i, w, m = kit.outer, kit.inner, kit.stop_w, kit.stop_margin
    sc = Scene()
    base = box(0, 0, o, o)
    sc.plate(base, (0, 0, 0), X, Y, kit.t("base"), MDF, part="base plate")
    up = 0.0 if step == 3 else 60.0
    lines = [m + k * kit.cell for k in range(kit.grid + 1)]
    grid = [LineString([(x, lines[0]), (x, lines[-1])]) for x in lines] + \
        [LineString([(lines[0], y), (lines[-1], y)]) for y in lines]
    sc.plate(box(0, 0, i, i), (w, w, kit.t("base") + up), X, Y, kit.t("cup_layer"), PLY, marks=grid,
             mark_style=Style(stroke=INK, width=pt(0.3)), part="cup layer")
    if step == 1:
        sc.arrow((w + i / 2, w + i / 2, up - 5), (w + i / 2, w + i / 2, 12))
        sc.callout("cup layer, grid up", (w + i - m - kit.cell / 2, w + m + kit.cell, up + kit.t("base")
                                          + kit.t("cup_layer")), 8, -8, part="cup layer")
        sc.callout("base plate", (o, o / 2, 1.5), 10, 6)
    else:
        sc.plate(box(0, 0, i, i), (w, w, kit.t("base") + kit.t("cup_layer")), X, Y, kit.t("rail_layer"), FILM,
                 part="rail layer")
        top = kit.t("base") + 70
        # The four bars, each a little out from its place so its dovetails show, their names marked.
        for k, (_, bar, engrave) in enumerate(frame_bars(kit)):
            dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[k]
            names = [affinity.translate(LineString(list(g.exterior.coords)), 4 * dx, 4 * dy) for piece in engrave
                     for g in getattr(piece, "geoms", [piece]) if g.geom_type == "Polygon"]
            sc.plate(affinity.translate(bar, 4 * dx, 4 * dy), (0, 0, top), X, Y, kit.t("frame"), PLY, marks=names,
                     mark_style=Style(stroke=INK, width=pt(0.5)), part="frame")
        # The arrow down at the left, the label at the right, on the letters (along y = o).
        sc.arrow((w / 2, o / 2, top - 6), (w / 2, o / 2, 12))
        sc.callout("frame: letters along the bottom", (o / 2, o - w / 2 + 4, top + kit.t("frame")), -4, 12,
                   part="frame")
    return sc


def _rail_detail(kit: Kit, board_parts: dict) -> Plan:
    """One cell's corner of the cup layer with the rail layer on it, from the two parts: its cups
    (the cup layer's holes), the rail dashes and the border."""
    m = kit.stop_margin
    win = box(m - 1, m - 1, m + 1.25 * kit.cell, m + 1.25 * kit.cell)
    plan = Plan(win.bounds)
    cups = board_parts["cup layer"].outline
    plan.add(cups.intersection(win), Style(fill=PLY, stroke=INK, width=pt(0.4)), part="cup layer")
    holes = [Polygon(r) for g in getattr(cups, "geoms", [cups]) for r in g.interiors]
    holes = [h for h in holes if h.intersects(win)]
    for h in holes:
        plan.add(h.intersection(win), Style(fill=WHITE, stroke=INK, width=pt(0.4)), part="cup")
    rails = list(getattr(board_parts["rail layer"].outline, "geoms", [board_parts["rail layer"].outline]))
    border = max(rails, key=lambda g: g.length)
    style = Style(fill=FILM, stroke=Colour(rgb=(0.2, 0.35, 0.6)), width=pt(0.5))
    plan.add(border.intersection(win), style, part="border")
    dashes = [g for g in rails if g is not border and g.intersects(win)]
    for g in dashes:
        plan.add(g.intersection(win), style, part="rail dash")
    plan.add(LineString([(m + kit.cell, m), (m + kit.cell, win.bounds[3])]), Style(stroke=INK, width=pt(0.3),
                                                                                   dash=(1.0, 1.0)),
             part="cell edge")
    cx, cy = m + kit.cell / 2, m + kit.cell / 2
    # The cup nearest the cell's centre that lies whole in the window, and the dash nearest the cell's
    # centre: each label on what it names.
    cup = min((h for h in holes if win.contains(h)), key=lambda h: h.centroid.distance(Point(cx, cy)))
    dash = min((g for g in dashes if win.contains(g)), key=lambda g: g.centroid.distance(Point(cx, cy)))
    plan.callout("cup", (cup.centroid.x, cup.centroid.y), 7, -7)
    plan.callout("rail dash", (dash.centroid.x, dash.centroid.y), 10, 9)
    top = border.intersection(win).intersection(box(m + 5, win.bounds[1], win.bounds[2], m + kit.cell / 8))
    plan.callout("border", (m + 10, top.centroid.y), 0, 0)
    return plan


def _bottom_plan(kit: Kit) -> Plan:
    """The bottom plate's face that goes down, as the laser scored it, and a peg on each mark."""
    parts = {p.name: p for p in cube_parts(kit)}
    bottom, peg = parts["bottom"], parts["peg"]
    plan = Plan()
    plan.add(bottom.outline, Style(fill=PLY, stroke=INK, width=pt(0.6)), part="bottom")
    c = kit.cube / 2
    r = kit.peg_d / 2
    marks = [Point(c + dx, c + dy) for dx, dy in peg_marks(kit)]
    for line in bottom.score:
        plan.add(line, Style(stroke=Colour(rgb=(0.15, 0.3, 0.8)), width=pt(0.4)),
                 part="mark" if any(line.distance(p) <= r for p in marks) else "score")
    for k, (dx, dy) in enumerate(peg_marks(kit)):
        if k == 0:
            continue                      # one mark left bare, to show what the peg covers
        moved = affinity.translate(peg.outline, c + dx - r, c + dy - r)
        plan.add(moved, Style(fill=ACRYLIC, stroke=INK, width=pt(0.5)), part="peg")
        for g in peg.grooves:
            plan.add(affinity.translate(g, c + dx - r, c + dy - r), Style(fill=Colour(rgb=(0.4, 0.5, 0.55))),
                     part="peg")
    dx, dy = peg_marks(kit)[1]
    plan.callout("peg: notches along the cross", (c + dx, c + dy + r), 0, 7, part="peg")
    dx, dy = peg_marks(kit)[0]
    plan.callout("mark", (c + dx, c + dy - r), 0, -4)
    return plan


def _pawn_scene(kit: Kit) -> Scene:
    t = kit.t("pawn")
    a, b = pawn_plates(kit, 1)
    H, D = kit.pawn_height, kit.pawn_d
    sc = Scene()
    sc.plate(b.outline, (t / 2, -D / 2, H), Y, NZ, t, PLY, part="pawn B")
    sc.plate(a.outline, (-D / 2, -t / 2, H + 22), X, NZ, t, PLY, part="pawn A")
    sc.arrow((-D / 2 - 4, 0, H + 16), (-D / 2 - 4, 0, H + 2))
    sc.callout("pawn A: slot from below", (D / 2, 0, H + 14), 10, -4, part="pawn A")
    sc.callout("pawn B: slot from above", (0, D / 2, H - 6), 10, 5, part="pawn B")
    return sc


def _looks_plan(kit: Kit) -> Plan:
    """Each player's king top and pawn plates A and B, as the laser engraves them, in a row under
    his name: what tells his pieces from the others'."""
    c, gap = kit.cube, 8.0
    # As wide as four players' (the patent's most), so two players' are drawn no larger.
    width = max(kit.players, 4) * (c + gap) - gap
    plan = Plan((-1.0, -1.0, width + 1.0, c + 5 + kit.pawn_height))
    burnt = Style(fill=Colour(rgb=(0.25, 0.17, 0.1)))
    for k in range(kit.players):
        x = k * (c + gap)
        top = next(p for p in cube_parts(kit, True, k + 1) if p.name == "top")
        a, b = pawn_plates(kit, k + 1)
        placed = [(top, x, 0.0), (a, x + c / 2 - kit.pawn_d - 1.0, c + 4), (b, x + c / 2 + 1.0, c + 4)]
        name = player_look(kit, k + 1).name
        for part, dx, dy in placed:      # (each his, by name: the label over them points at his)
            plan.add(affinity.translate(part.outline, dx, dy), Style(fill=PLY, stroke=INK, width=pt(0.4)), part=name)
            for g in part.engrave:
                plan.add(affinity.translate(g, dx, dy), burnt)
        # The label over his king top, its leader to the top's outline nearest the middle of its
        # upper edge (a finger joint may leave a notch there).
        x0, y0, x1, _ = top.outline.bounds
        on = nearest_points(top.outline, Point((x0 + x1) / 2, y0))[0]
        plan.callout(name, (x + on.x, on.y), 0, -3)
    return plan


def _rounding(kit: Kit, r: float) -> Plan:
    """A cube's corner, seen from above: the square corner the laser leaves, and the round."""
    s = 12.0
    sharp = box(0, 0, s, s)
    rounded = box(0, 0, s - r, s).union(box(0, 0, s, s - r)).union(Point(s - r, s - r).buffer(r, quad_segs=16))
    plan = Plan((-1, -1, s + 6, s + 6))
    plan.add(sharp, Style(fill=Colour(rgb=(0.93, 0.89, 0.82)), stroke=INK, width=pt(0.4), dash=(1.0, 0.8)))
    plan.add(rounded, Style(fill=PLY, stroke=INK, width=pt(0.7)), part="rounded corner")
    plan.add(Point(s - r, s - r).buffer(0.3), Style(fill=INK))
    plan.add(LineString([(s - r, s - r), (s - r + r * 0.7071, s - r + r * 0.7071)]), Style(stroke=ACCENT, width=0.3))
    plan.callout(f"sand to a {r:g} mm radius", (s - 0.6, s - 0.6), 1, 4.5, part="rounded corner")
    return plan


def kit_assembly(spec, kit: Kit, board_parts: dict) -> Assembly:
    r = edge_radius(spec)
    plain = kit.cubes - kit.kings
    glue = "wood glue (PVA)"
    # A cell's crossings of cup lines, and its cups, from the layers' geometry (the rail dashes
    # stop short of every crossing).
    lines = cup_lines(kit)
    per_cell = sum(1 for x in lines if kit.stop_margin <= x < kit.stop_margin + kit.cell)
    crossings, cups = per_cell ** 2, len(cup_offsets(kit.cell))
    steps = [
        Step(f"Board: glue the cup layer on the base plate, its engraved grid up, centred: {kit.stop_w:g} mm of "
             f"base shows all round for the frame. Weigh it down flat until dry.", _board_stack(kit, 1)),
        Step("Rails: the rail layer is kiss-cut (the liner whole). Weed the web away between the dashes, lay "
             "application tape over dashes and border, lift them off the liner together and lay the border edge "
             "to edge on the cup layer, labelled corners together: the dashes run along the cup lines, one between "
             f"each two crossings of the lines ({crossings} a cell, {cups} of them its cups), every crossing left "
             "clear for the pegs. Rub down, peel the tape.", _rail_detail(kit, board_parts)),
        Step(f"Frame: push the four bars' dovetails into each other's sockets on the base, round the cup layer: "
             f"the bar of letters along the bottom and the bar of numbers up the left, as the first player sees the "
             f"board (the other two are scored top and right). Glue the joints and the bars to the base. It is the "
             f"stop: {kit.t('frame'):g} mm high, no cube can be pushed off.", _board_stack(kit, 3)),
        Step(f"Cubes ({plain}): fit the two A walls and the two B walls at their corner fingers, set them on the "
             f"bottom plate (its face marked down, down) and the top's slots over their top fingers; glue every "
             f"joint, then the ring on the top, its hole centred: the pawn's {kit.recess_d:g} mm recess.",
             _cube_scene(kit, False, 14.0)),
        Step(f"Pegs: on the face marked down, glue a peg on each of the four marks, its notches along the "
             f"cross's arms (they must run along the rails). Four to a cube, {4 * kit.cubes} in all.",
             _bottom_plan(kit)),
        Step(f"King cubes ({kit.kings}): as a cube, {kit.king_height:g} mm tall, walls \"king A\" and "
             f"\"king B\", the top engraved with a crown and its player's initial and look (the last "
             f"step), and no ring. Pegs as on a cube.",
             _cube_scene(kit, True, 14.0)),
        Step(f"Round the edges: sand the four upright edges and the four edges of the top of every cube and king "
             f"cube to a {r:g} mm radius (the patent's \"arêtes arrondies\", a {2 * r:g} mm circle): rows of cubes "
             f"pushed together then slide past each other without snagging, and the grid shows between them.",
             _rounding(kit, r)),
        Step(f"Pawns ({kit.players * kit.pawns_each}): slide each pawn A's slot down over a pawn B's of the same "
             f"player; a drop of glue.", _pawn_scene(kit)),
        Step("Each player's pieces, told apart by their engraving (his initial on pawn A's head and on his king's "
             "top): " + "; ".join(player_look(kit, k).describe() for k in range(1, kit.players + 1))
             + ". Keep each player's pieces together.", _looks_plan(kit)),
    ]
    checks = [
        "A cube slides on its rails: set it on a cell, its pegs in the cups, and push it one cell along a row, "
        "then along a column. It lifts out of the cups, rides the rails on its notches and drops into the next "
        "cell's cups, square to the grid.",
        "Three cubes in a row push together without catching at their edges.",
        f"A pawn in a cube's recess stands as high as a king cube: {kit.king_height:g} mm.",
        "A cube pushed against the frame stops there.",
    ]
    return Assembly(
        f"{kit.title} kit, {kit.players} players: assembly",
        f"How to put the laser-cut kit together: the board ({kit.grid} x {kit.grid} cells), {plain} cubes, "
        f"{kit.kings} king cubes and {kit.players * kit.pawns_each} pawns. Each part carries its scored label "
        "(A, B, top, ring, down, king A, king B). Let the glue of each step set before the next.",
        parts_list(kit), ["the kit's parts", glue, "application tape (for the rail layer)",
                          "fine sandpaper (180 grit) on a block", "clamps or weights", "a craft knife to weed"],
        steps, checks)


# ---------------------------------------------------------------- the paper pieces

def pieces_assembly(pp, paper: Paper) -> Assembly:
    """The paper pieces' sheet: the nets the pieces sheets print, folded."""
    from ...layout.assembly import cuboid_scene, net_plan, tent_scene
    from ...layout.foldups import cuboid, standing_height, tent
    k = pp.kit
    plain = k.cubes - k.kings
    cube = cuboid(k.cube, k.cube, k.cube)
    king = cuboid(k.cube, k.cube, k.king_height)
    pawn = tent(k.pawn_d, k.pawn_height, pp.pawn_depth)
    fold = pp.cube_colour.mix(INK, 0.45)
    face = pawn.face("front").region.bounds
    stands = standing_height(k.pawn_d, pp.pawn_depth, face[3] - face[1])
    open_box = cuboid_scene(cube, k.cube, k.cube, k.cube, pp.cube_colour, top_open=True)
    open_box.arrow((k.cube / 2, k.cube * 0.2, k.cube * 1.9), (k.cube / 2, k.cube * 0.8, k.cube * 1.25))
    # On the last wall's inside, near its top: seen over the near walls.
    open_box.callout("seam tab inside the last wall", (0, k.cube * 0.5, k.cube * 0.85), -10, 8, part="wall 4")
    kings = cuboid_scene(king, k.cube, k.cube, k.king_height, pp.players[0][1])
    pawns = tent_scene(pawn, stands, pp.pawn_depth, pp.players[0][1])
    pawns.callout("feet glued under", (k.pawn_d * 0.3, -pp.pawn_depth * 0.3, 0.2), 12, 6, part="foot")
    steps = [
        Step(f"Cut out each piece on its solid line ({plain} cubes, {k.kings} king cubes, "
             f"{k.players * k.pawns_each} pawns). Score every dashed line along a ruler with a blunt knife or an "
             "empty pen.", net_plan(cube, pp.cube_colour, fold)),
        Step("Fold every scored line away from the print. Glue the seam tab (hatched) inside the last wall: the "
             "walls make a square tube. Fold the bottom's tabs in and glue the bottom on them, then the top.",
             open_box),
        Step(f"King cubes: the same, {k.king_height:g} mm tall, the crown on the top and on the walls the right way "
             "up when the cube stands on its bottom.", kings),
        Step(f"Pawns: fold at the top of the head, fold both feet in under the pawn and glue the hatched foot on "
             f"the other: it stands {stands:.0f} mm on a {k.pawn_d:g} x {pp.pawn_depth:g} mm floor. Each player's "
             f"king cube and pawns are printed in his colour, his initial on each pawn ("
             + ", ".join(f"{name} {player_look(k, n).initial}" for n, (name, _) in enumerate(pp.players, 1))
             + ").", pawns),
    ]
    checks = [f"A cube measures {k.cube:g} mm each way and stands square; it slides on the paper board without "
              "catching on its neighbour.",
              f"A king cube stands {k.king_height:g} mm, its crowns upright.",
              "A pawn stands on a cube without tipping."]
    return Assembly(f"{k.title}, {k.players} players: the paper pieces' assembly",
                    f"How to fold the pieces of paper-pieces-{'4p' if k.players == 4 else '2p'}-{paper.name}.pdf: cube "
                    "nets, king cubes and pawns at the kit's sizes. The last sheet of that file shows the set-up.",
                    [(str(plain), f"cube ({k.cube:g} mm)", "card stock"),
                     (str(k.kings), f"king cube ({k.king_height:g} mm tall)", "card stock"),
                     (str(k.players * k.pawns_each), f"pawn ({k.pawn_height:g} mm tall)", "card stock")],
                    ["craft knife or scissors", "metal ruler", "a blunt knife or an empty pen to score",
                     "glue stick or white glue"], steps, checks)
