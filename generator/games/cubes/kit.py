"""The Cubes kit as laser parts: the layered board, the cubes and king cubes, their pegs and
rings, and the pawns. Dimensions come from boards/cubes_kit.yaml (see its header)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import unary_union

from ...draw.fonts import get_font
from ...laser.joints import Edge, Panel, finger_count
from ...laser.parts import Part, text_polygons, text_score_lines
from .dimensions import (CUP_TURN, Kit, cell_centre, cup_centres, cup_lines, cup_offsets, load_kit,  # noqa: F401
                         rail_break)


def _label(part: Part, text: str, x: float, y: float, size: float = 3.0) -> Part:
    part.label = text
    part.score += text_score_lines(text, x, y, size)
    return part


# ---------------------------------------------------------------- the board

def _apart(polygons: list) -> MultiPolygon:
    """The union of polygons that do not meet (a board's cups, however grown): as they are, which
    is quicker than unary_union by far; if any do meet after all, their union."""
    together = MultiPolygon(polygons)
    return together if together.is_valid else unary_union(polygons)


def _cups(kit: Kit) -> list:
    """The cup layer's holes (the cups), made at once: four hundred of them."""
    r = (kit.peg_d + kit.fit) / 2
    # Made at once (a 26 x 26 board has 2,704 cups): the same discs as Point(c).buffer(r, quad_segs=16).
    return list(shapely.buffer(shapely.points(np.array(cup_centres(kit))), r, quad_segs=16))


def _grid(kit: Kit, cups: list) -> list:
    """What the cup layer engraves: the grid ("quadrillage") and the thick start line, stopped
    short of every cup by 0.6 mm, or by the engraving's inset if that is more."""
    size, m = kit.inner, kit.stop_margin
    line_w, thick_w = 0.4, 1.6
    lines = []
    for k in range(kit.grid + 1):
        v = m + k * kit.cell
        lines.append(box(v - line_w / 2, m, v + line_w / 2, size - m))
        lines.append(box(m, v - line_w / 2, size - m, v + line_w / 2))
    s0 = (kit.grid - kit.start_square) // 2
    a, b = m + s0 * kit.cell, m + (s0 + kit.start_square) * kit.cell
    ring = box(a - thick_w / 2, a - thick_w / 2, b + thick_w / 2, b + thick_w / 2).difference(
        box(a + thick_w / 2, a + thick_w / 2, b - thick_w / 2, b - thick_w / 2))
    clear = max(0.6, kit.engrave_inset)
    engraved = unary_union(lines + [ring]).difference(_apart(list(shapely.buffer(np.array(cups), clear,
                                                                                  quad_segs=16))))
    return list(engraved.geoms) if hasattr(engraved, "geoms") else [engraved]


def cup_layer(kit: Kit) -> Part:
    cups = _cups(kit)
    part = Part("cup layer", box(0, 0, kit.inner, kit.inner).difference(_apart(cups)), material="cup_layer")
    part.engrave = _grid(kit, cups)
    # In the middle of the first cell, clear of its cups (they lie 3/8 of a cell out).
    m = kit.stop_margin
    return _label(part, "cup layer", m + kit.cell / 2 - 6.0, m + kit.cell / 2 + 1.1, 2.2)


def rail_layer(kit: Kit) -> Part:
    """The rails: a dash of rail along every cup line between each two crossings of cup lines,
    and a border that registers them on the cup layer. The patent's rails are "discontinus pour
    permettre le mouvement dans les deux directions": every crossing is a place where a peg sliding
    along one line passes a rail of the other way (four of a cell's sixteen crossings are its
    cups), so every rail is broken at every crossing, by the width of a peg's path (rail_break).
    The dashes are islands: the layer is kiss-cut from self-adhesive sheet, the web weeded away,
    and dashes and border laid on the cup layer together with application tape."""
    size = kit.inner
    w = kit.rail_w
    h = rail_break(kit.peg_d, kit.fit, kit.rail_gap)
    lines = cup_lines(kit)
    corners = []
    for a, b in zip(lines, lines[1:]):
        for x in lines:
            corners.append((x - w / 2, a + h, x + w / 2, b - h))   # along a column
            corners.append((a + h, x - w / 2, b - h, x + w / 2))   # along a row
    dashes = list(shapely.box(*np.array(corners).T))       # made at once: thousands of them
    edge = lines[0] - h                   # the border keeps the rails' gap from the outermost pegs
    border = box(0, 0, size, size).difference(box(edge, edge, size - edge, size - edge))
    part = Part("rail layer", MultiPolygon([border] + dashes), material="rail_layer")
    # Scored on the border's top side, centred across its width, descender and all: the border
    # is only 2.4 mm wide, and a stroke into its cut would score the waste.
    text, size = "rail layer", 1.6
    ys = [y for line in text_score_lines(text, 0, 0, size) for _, y in line.coords]
    return _label(part, text, 3.5, (edge - (max(ys) - min(ys))) / 2 - min(ys), size)


def base_plate(kit: Kit) -> Part:
    part = Part("base", box(0, 0, kit.outer, kit.outer), material="base")
    return _label(part, "base plate, under the cup layer", kit.stop_w, kit.outer / 2, 6)


def _cell_names(kit: Kit) -> list:
    """The frame's engraving: column letters along the bottom and row numbers up the left side,
    as the referee names cells."""
    o, w = kit.outer, kit.stop_w
    eng = []
    for k in range(kit.grid):
        c = w + kit.stop_margin + (k + 0.5) * kit.cell
        letter = chr(ord("a") + k)
        eng += text_polygons(letter, c - 1.6, o - w / 2 + 2.2, 6)
        num = str(k + 1)
        eng += text_polygons(num, w / 2 - 1.8 * len(num), o - c + 2.2, 6)
    return eng


FRAME_BARS = ("top", "right", "bottom", "left")    # clockwise, as the first player sees the board


def _turn(geom, k: int, o: float):
    """geom turned k quarter turns clockwise (as the board is seen; y down) about the frame's centre."""
    return affinity.rotate(geom, 90 * k, origin=(o / 2, o / 2))


def frame_bars(kit: Kit) -> list[tuple[str, Polygon, list[Polygon]]]:
    """The frame in four bars, each as it lies on the board (name, outline, engraving): cut whole
    it would take a sheet of its own (600 x 400 mm of 6 mm plywood for 5 % of it); in bars it
    nests in a strip. The bars go round like a pinwheel, each the frame's width and its outside
    length less that width, so all four are one shape; each has a dovetail tab at its end that
    locks into a socket in the next bar's side (cut from the same outline: a tight fit once the
    kerf is compensated). The bottom bar carries the column letters, the left one the row numbers."""
    o, w = kit.outer, kit.stop_w
    depth, narrow, wide = 0.4 * w, 0.15 * w, 0.25 * w
    tab = Polygon([(o - w, w / 2 - narrow), (o - w + depth, w / 2 - wide), (o - w + depth, w / 2 + wide),
                   (o - w, w / 2 + narrow)])
    bar = box(0, 0, o - w, w).union(tab)
    names = _cell_names(kit)
    out = []
    for k, name in enumerate(FRAME_BARS):
        outline = _turn(bar, k, o).difference(_turn(tab, k - 1, o))
        outline = Polygon(outline.exterior.coords) if isinstance(outline, Polygon) else outline
        out.append((name, outline, [g for g in names if g.representative_point().within(outline)]))
    return out


def frame_parts(kit: Kit) -> list[Part]:
    """The four frame bars as parts, each laid along its length (the top bar's way), its name
    scored on it where its engraving leaves room."""
    o, w = kit.outer, kit.stop_w
    parts = []
    for k, (name, outline, engrave) in enumerate(frame_bars(kit)):
        back = [_turn(g, -k, o) for g in [outline, *engrave]]      # laid as the top bar lies
        part = Part(f"frame {name}", back[0], engrave=back[1:], material="frame")
        # Scored in the first gap between its engraved names with 3 mm either side (past the
        # socket at its start): where there is none (cells too small), the names say which bar it is.
        size = 3.5
        width = get_font("sans").width(name, size)
        x, end = w + 1, o - w - 1
        for a, b in sorted((g.bounds[0], g.bounds[2]) for g in part.engrave) + [(end, end)]:
            if a - x >= width + 6:
                _label(part, name, x + 3, w / 2 + size * 0.36, size)
                break
            x = max(x, b)
        part.label = f"frame, {name} bar"
        parts.append(part)
    return parts


# ---------------------------------------------------------------- cubes, pegs, pawns

CROWN = Polygon([(8, 21), (8, 11), (11.5, 15), (15, 9), (18.5, 15), (22, 11), (22, 21)])   # a king's top


# ---------------------------------------------------------------- each player's pieces

@dataclass(frozen=True)
class Look:
    """How one player's pawns and king cube are told from the others', by engraving alone (one
    wood, one colour; the patent's four-player game is every man for himself): his initial, his
    pawns' heads dark or plain, and a band across their bodies or none. Four players, four looks:
    plain; dark; plain with a band; dark with a band. The king's top says the same."""
    name: str
    initial: str
    dark: bool
    band: bool

    def describe(self) -> str:
        return f"{self.name} {self.initial}, {'dark' if self.dark else 'plain'} heads{' and a band' if self.band else ''}"


def player_look(kit: Kit, player: int) -> Look:
    """The look of player `player` (from 1, in the set-up's order)."""
    k = player - 1
    name = kit.names[k] if k < len(kit.names) else f"player {player}"
    first = name[:1].upper()
    # A letter the engraving font has; a name starting otherwise is known by its number.
    initial = first if first.isascii() and first.isalnum() else str(player)
    return Look(name, initial, dark=k % 2 == 1, band=k >= 2)


def kings_of(kit: Kit, player: int) -> int:
    """How many of the king cubes are this player's (one each in the patent's games)."""
    share, extra = divmod(kit.kings, kit.players)
    return share + (1 if player <= extra else 0)


def _polygons(geom) -> list[Polygon]:
    if geom.is_empty:
        return []
    return [g for g in getattr(geom, "geoms", [geom]) if isinstance(g, Polygon) and not g.is_empty]


def _letter(text: str, cx: float, cy: float, cap: float, room: Polygon) -> list[Polygon]:
    """`text` engraved, its ink centred on (cx, cy), its capitals `cap` tall or smaller: as large
    as lies within `room`."""
    size = cap / get_font("sans-bold").cap_height
    for _ in range(12):
        polys = text_polygons(text, 0, 0, size)
        if polys:
            x0, y0, x1, y1 = unary_union(polys).bounds
            # Simplified within 0.02 mm (no laser shows it): a letter's curves are most of a pawn
            # sheet's points, and its DXF's size.
            moved = [affinity.translate(p, cx - (x0 + x1) / 2, cy - (y0 + y1) / 2).simplify(0.02) for p in polys]
            if all(room.contains(p) for p in moved):
                return moved
        size *= 0.9
    return []


def _marked(look: Look, spot: Polygon, letter: list[Polygon]) -> list[Polygon]:
    """A spot and its letter: the letter left bare in a dark spot, or engraved alone."""
    if not look.dark:
        return letter
    return _polygons(spot.difference(unary_union(letter))) if letter else _polygons(spot)


def king_top_engraving(kit: Kit, player: int, outline: Polygon) -> list[Polygon]:
    """A king's top: the crown (every king), and under it his player's initial, bare in a dark
    disc or engraved alone, and his band; all within the engraving's inset of the top's cuts."""
    look, c = player_look(kit, player), kit.cube
    room = outline.buffer(-kit.engrave_inset, quad_segs=16)
    f = 0.55 * c / 30
    x0, y0, x1, y1 = CROWN.bounds
    crown = affinity.translate(affinity.scale(CROWN, f, f, origin=(0, 0)),
                               c / 2 - f * (x0 + x1) / 2, 0.29 * c - f * (y0 + y1) / 2)
    disc = Point(c / 2, 0.6 * c).buffer(0.17 * c, quad_segs=12)
    letter = _letter(look.initial, c / 2, 0.6 * c, 0.2 * c, disc.buffer(-0.6) if look.dark else disc)
    out = [crown] + _marked(look, disc, letter)
    if look.band:
        out.append(box(0.25 * c, 0.8 * c, 0.75 * c, 0.86 * c))
    return [p for g in out for p in _polygons(g.intersection(room))]


def cube_panels(kit: Kit, king: bool = False) -> list[Panel]:
    """A cube's box: four walls finger-jointed at the corners and to the top panel, standing on a
    plain bottom plate glued under them. The cups' outer lines lie 3/8 of a cell from the centre,
    so the pegs sit near the cube's sides, over where a finger-jointed bottom would meet the
    walls: a whole plate keeps every peg on one piece of wood."""
    t = kit.t("cube")
    height = kit.king_height if king else kit.cube - kit.t("ring")
    wall = height - t                    # the walls stand on the bottom plate
    fw, fh = finger_count(kit.cube, t), finger_count(wall, t)
    male, female, plain = (lambda n: Edge("male", n)), (lambda n: Edge("female", n)), Edge()
    # Edges: top, right, bottom, left (as in joints.box_panels: front and back own the corners).
    return [Panel("front", kit.cube, wall, (male(fw), male(fh), plain, male(fh))),
            Panel("back", kit.cube, wall, (male(fw), male(fh), plain, male(fh))),
            Panel("left", kit.cube, wall, (male(fw), female(fh), plain, female(fh))),
            Panel("right", kit.cube, wall, (male(fw), female(fh), plain, female(fh))),
            Panel("top", kit.cube, kit.cube, (female(fw),) * 4),
            Panel("bottom", kit.cube, kit.cube, (plain,) * 4)]


def peg_marks(kit: Kit) -> list[tuple[float, float]]:
    """Where the pegs go on the bottom plate, from its centre, as the laser sees its face (which
    is the face that goes down): the cups seen from below, so the cups' pattern mirrored. The
    square's turn has a hand; unmirrored, the pegs would form the other hand and miss the cups."""
    return [(-dx, dy) for dx, dy in cup_offsets(kit.cell)]


def cube_parts(kit: Kit, king: bool = False, player: int = 1) -> list[Part]:
    """One cube's parts: the box (cube_panels), a top ring (plain cubes) and four pegs; a king's
    top is its player's (king_top_engraving)."""
    t = kit.t("cube")
    what = "king" if king else "cube"
    # What a person reads on each part, kept short: a label is scored on every one of a kit's
    # hundreds of parts (each letter is laser time, and DXF size). The two wall shapes are A
    # (front and back) and B (left and right), as the kit's sheet says; "king" where a king's
    # part is not a cube's; the bottom (the same for both) says only which face goes down ("down"),
    # since its peg marks say what it is.
    walls = {"front": "A", "back": "A", "left": "B", "right": "B"}
    parts = []
    for panel in cube_panels(kit, king):
        part = panel.part(t, material="cube")
        if panel.name == "bottom":
            # Where the pegs go, scored on the face that goes down: a circle, and a cross through
            # it whose arms reach 1 mm past it, to square the peg's notches with the cube's sides
            # (they must run along the rails). Two lines, not four ticks: fewer marks to score.
            c, r = kit.cube / 2, kit.peg_d / 2
            for dx, dy in peg_marks(kit):
                x, y = c + dx, c + dy
                part.score.append(LineString(Point(x, y).buffer(r, quad_segs=8).exterior.coords))
                part.score.append(LineString([(x - r - 1.0, y), (x + r + 1.0, y)]))
                part.score.append(LineString([(x, y - r - 1.0), (x, y + r + 1.0)]))
            # "down": this face goes down (the pegs glued on its marks are the cube's feet).
            size = 2.6
            _label(part, "down", c - get_font("sans").width("down", size) / 2, c + 1.0, size)
            part.label = f"{what} bottom, face down"
        elif panel.name == "top" and king:
            part.engrave = king_top_engraving(kit, player, part.outline)
            part.label = f"king top, {player_look(kit, player).name}"     # the crown says it
        elif panel.name == "top":
            _label(part, "top", t + 1.5, panel.h / 2 + 1, 2.4)
            part.label = "cube top"
        else:
            # Big enough to read across the table: the wall has room, and a size costs no strokes.
            text, size = f"{'king ' if king else ''}{walls[panel.name]}", 4.0
            width = get_font("sans").width(text, size)
            _label(part, text, (panel.w - width) / 2, panel.h / 2 + 1.5, size)
            part.label = f"{what} wall {walls[panel.name]}"
        parts.append(part)
    if not king:
        ring = Part("ring", box(0, 0, kit.cube, kit.cube).difference(
            Point(kit.cube / 2, kit.cube / 2).buffer(kit.recess_d / 2, quad_segs=32)), material="ring")
        parts.append(_label(ring, "ring", 2.5, 5, 2.2))
    peg = Part("peg", Point(kit.peg_d / 2, kit.peg_d / 2).buffer(kit.peg_d / 2, quad_segs=16), material="peg",
               quantity=4, label="peg x4")   # too small to score a label on
    # The two perpendicular notches that ride the rails, engraved rail-height deep on the face down:
    # grooves right across the peg ("chaque ergot est fendu de deux encoches perpendiculaires"),
    # open at both ends for the rail to run through, so not kept the engraving's inset from the cut.
    notch = kit.rail_w + 0.3
    c = kit.peg_d / 2
    cross = unary_union([box(0, c - notch / 2, kit.peg_d, c + notch / 2),
                         box(c - notch / 2, 0, c + notch / 2, kit.peg_d)]).intersection(peg.outline)
    peg.grooves = [cross]
    parts.append(peg)
    return parts


def pawn_plates(kit: Kit, player: int) -> list[Part]:
    """A pawn as a slotted cross: two plates, one slotted from below, one from above."""
    t = kit.t("pawn")
    H, D = kit.pawn_height, kit.pawn_d
    # Foot, body, neck, head; the neck keeps 2.3 mm of wood each side of the slot that crosses it.
    neck = t + 4.6
    head_r = neck / 2 + 0.4
    head_y = head_r                     # the head's top is the pawn's top: 25 mm from its foot
    profile = unary_union([
        box(0, H - 3, D, H),                                             # foot
        Polygon([(1.0, H - 3), (D - 1.0, H - 3), (D / 2 + neck / 2, head_y + head_r * 0.6),
                 (D / 2 - neck / 2, head_y + head_r * 0.6)]),            # body up into the head
        Point(D / 2, head_y).buffer(head_r, quad_segs=16),               # head
    ])
    look = player_look(kit, player)
    # 32 sides (within 0.02 mm of the circle): the heads are many of a pawn sheet's points.
    head = Point(D / 2, head_y).buffer(head_r - 0.6, quad_segs=8)
    band = box(0, H - 8.5, D, H - 5.5)          # across the body, above the foot
    plates = []
    for k, (name, slot) in enumerate((("pawn A", box(D / 2 - t / 2, H / 2, D / 2 + t / 2, H + 1)),
                                      ("pawn B", box(D / 2 - t / 2, -1, D / 2 + t / 2, H / 2)))):
        part = Part(f"{name} p{player}", profile.difference(slot), material="pawn",
                    label=f"{name.replace('pawn', 'pawn plate')}, {look.name}")   # not scored: too small
        # The player's look, engraved clear of every cut by the inset: pawn A's head is whole, so it
        # carries the initial (bare on a dark head); pawn B's is split by its slot, dark or plain.
        room = part.outline.buffer(-kit.engrave_inset, quad_segs=16)
        spot = head.intersection(room)
        marks = _marked(look, spot, _letter(look.initial, D / 2, head_y, head_r, head.buffer(-0.6) if look.dark else
                                            head)) if name == "pawn A" else (_polygons(spot) if look.dark else [])
        if look.band:
            marks += _polygons(band.intersection(room))
        part.engrave = [p for m in marks for p in _polygons(m.intersection(room))]
        plates.append(part)
    return plates


_ENGRAVING_CHECKED: set[str] = set()   # kits found right in this process (a build checks a spec per job)


def check_engraving(spec, kit: Kit) -> None:
    """Every engraving of the kit keeps `laser.engrave_inset` from the cut lines (the pegs'
    grooves aside, which must open onto the edge), and none is clipped away to nothing (the
    players' pawn and king looks): otherwise the spec's error at that line, naming the part and
    how close it comes."""
    from ...laser.parts import engraving_clearance
    key = repr(kit)
    if key in _ENGRAVING_CHECKED:
        return
    inset = kit.engrave_inset
    # The engraved parts, without their labels (a check loads no stroke font).
    cups = _cups(kit)
    top = next(p for p in cube_panels(kit, king=True) if p.name == "top").part(kit.t("cube"))
    engraved = [Part("cup layer", box(0, 0, kit.inner, kit.inner).difference(_apart(cups)), engrave=_grid(kit, cups),
                     label="cup layer"),
                *(Part(f"frame {name}", outline, engrave=engrave, label=f"frame's {name} bar")
                  for name, outline, engrave in frame_bars(kit) if engrave)]
    for player in range(1, kit.players + 1):     # every player's king top and pawn plates
        look = player_look(kit, player)
        engraved.append(Part("king top", top.outline, engrave=king_top_engraving(kit, player, top.outline),
                             label=f"king's top of {look.name}"))
        a, b = pawn_plates(kit, player)
        engraved += [a, b] if look.dark or look.band else [a]     # what should carry the look
    for part in engraved:
        gap = engraving_clearance(part, kit.kerf)
        if gap is None:       # clipped away (a pawn's look, the grid between the cups)
            raise spec.error(("laser", "engrave_inset"), f"{inset:g} mm from every cut leaves nothing of the "
                                                         f"engraving of the {part.label}; make it smaller")
        if gap < inset - 1e-9:
            raise spec.error(("laser", "engrave_inset"),
                             f"the engraving of the {part.label} comes {gap:.2f} mm from a cut line, closer than "
                             f"{inset:g} mm; make it smaller, or give the engraving more room")
    _ENGRAVING_CHECKED.add(key)


def kit_parts(kit: Kit, board: bool = True, pieces: bool = True) -> list[Part]:
    """Every part of the kit: the board's layers, and the pieces (cubes, king cubes, pawns); a
    build of one half makes only that half's (the cup layer alone is a third of a second)."""
    parts = [base_plate(kit), cup_layer(kit), rail_layer(kit), *frame_parts(kit)] if board else []
    if not pieces:
        return parts
    plain = kit.cubes - kit.kings
    for p in cube_parts(kit):
        p.quantity *= plain
        parts.append(p)
    for player in range(1, kit.players + 1):      # each player's king cube: its top is his
        for p in cube_parts(kit, king=True, player=player):
            p.quantity *= kings_of(kit, player)
            parts.append(p)
    for player in range(1, kit.players + 1):
        for p in pawn_plates(kit, player):
            p.quantity = kit.pawns_each
            parts.append(p)
    return parts
