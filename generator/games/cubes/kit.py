"""The Cubes kit as laser parts: the layered board, the cubes and king cubes, their pegs and
rings, and the pawns. Dimensions come from boards/cubes_kit.yaml (see its header)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from ...laser.joints import box_panels
from ...laser.parts import Part, text_polygons, text_score_lines
from ...spec import Spec

CUP_ANGLE = math.degrees(math.atan(0.5))  # 26.57 degrees: the patent's "26,5 degrés"


@dataclass(frozen=True)
class Kit:
    title: str
    grid: int
    start_square: int
    players: int
    cubes: int
    kings: int
    pawns_each: int
    cube: float
    clearance: float
    recess_d: float
    recess_depth: float
    king_height: float
    pawn_height: float
    pawn_d: float
    u: float                # cup offset unit
    cup_depth: float
    peg_d: float
    peg_h: float
    fit: float
    rail_h: float
    rail_w: float
    rail_gap: float
    stop_w: float
    stop_margin: float
    materials: dict
    kerf: float
    sheet: tuple[float, float]
    margin: float
    spacing: float

    @property
    def cell(self) -> float:
        return self.cube + self.clearance

    @property
    def inner(self) -> float:
        """The playing area inside the stop."""
        return self.grid * self.cell + 2 * self.stop_margin

    @property
    def outer(self) -> float:
        return self.inner + 2 * self.stop_w

    def t(self, material: str) -> float:
        return self.materials[material]["thickness"]


def load_kit(spec: Spec, four_player: bool = False) -> Kit:
    d = spec.data
    grid, start, players = d["grid"], d["start_square"], d["players"]
    if four_player:
        if "four_player" not in d:
            raise spec.error(("four_player",), "missing: the kit has no four-player variant")
        fp = d["four_player"]
        grid, start, players = fp["grid"], fp.get("start_square", start), fp["players"]
    mats = d["materials"]
    cube, cups, rails = d["cube"], d["cups"], d["rails"]
    # The laminations must give the patent's depths and heights: say so if they do not.
    for path, have, want in ((("materials", "cup_layer", "thickness"), mats["cup_layer"]["thickness"], cups["depth"]),
                             (("materials", "rail_layer", "thickness"), mats["rail_layer"]["thickness"], rails["height"]),
                             (("materials", "ring", "thickness"), mats["ring"]["thickness"], cube["recess_depth"]),
                             (("materials", "peg", "thickness"), mats["peg"]["thickness"], cups["peg_height"])):
        if abs(have - want) > 1e-9:
            raise spec.error(path, f"is {have} mm, but this layer makes a {want} mm depth or height")
    if start > grid or (grid - start) % 2:
        raise spec.error(("start_square",), f"a centred {start} x {start} square does not fit a {grid} x {grid} grid")
    if 2 * cups["offset"] + cups["peg_diameter"] / 2 > cube["size"] / 2 - mats["cube"]["thickness"]:
        raise spec.error(("cups", "offset"), "the pegs would sit on the cube's finger joints; make it smaller")
    las = d["laser"]
    return Kit(d["title"], grid, start, players["count"], players["cubes"], players["kings"], players["pawns_each"],
               cube["size"], cube["clearance"], cube["recess_diameter"], cube["recess_depth"],
               d["king_cube"]["height"], d["pawn"]["height"], d["pawn"]["diameter"],
               cups["offset"], cups["depth"], cups["peg_diameter"], cups["peg_height"], cups["fit"],
               rails["height"], rails["width"], rails["gap"], d["stop"]["width"], d["stop"]["margin"],
               mats, las["kerf"], tuple(las["sheet"]), las["margin"], las["spacing"])


def cup_offsets(u: float) -> list[tuple[float, float]]:
    """The four cups of a cell, from its centre: a square turned atan(1/2), y down."""
    return [(2 * u, u), (-u, 2 * u), (-2 * u, -u), (u, -2 * u)]


def cell_centre(kit: Kit, col: int, row: int) -> tuple[float, float]:
    """Centre of a cell on the cup and rail layers (col, row from 0 at the top-left)."""
    m = kit.stop_margin
    return (m + (col + 0.5) * kit.cell, m + (row + 0.5) * kit.cell)


def cup_centres(kit: Kit) -> list[tuple[float, float]]:
    out = []
    for row in range(kit.grid):
        for col in range(kit.grid):
            cx, cy = cell_centre(kit, col, row)
            out += [(cx + dx, cy + dy) for dx, dy in cup_offsets(kit.u)]
    return out


def _label(part: Part, text: str, x: float, y: float, size: float = 3.0) -> Part:
    part.label = text
    part.score += text_score_lines(text, x, y, size)
    return part


# ---------------------------------------------------------------- the board

def cup_layer(kit: Kit) -> Part:
    size = kit.inner
    r = (kit.peg_d + kit.fit) / 2
    holes = [Point(c).buffer(r, quad_segs=16) for c in cup_centres(kit)]
    outline = box(0, 0, size, size).difference(unary_union(holes))
    part = Part("cup layer", outline, material="cup_layer")
    m = kit.stop_margin
    line_w, thick_w = 0.4, 1.6
    lines = []
    for k in range(kit.grid + 1):  # the grid ("quadrillage"), engraved
        v = m + k * kit.cell
        lines.append(box(v - line_w / 2, m, v + line_w / 2, size - m))
        lines.append(box(m, v - line_w / 2, size - m, v + line_w / 2))
    s0 = (kit.grid - kit.start_square) // 2
    a, b = m + s0 * kit.cell, m + (s0 + kit.start_square) * kit.cell
    ring = box(a - thick_w / 2, a - thick_w / 2, b + thick_w / 2, b + thick_w / 2).difference(
        box(a + thick_w / 2, a + thick_w / 2, b - thick_w / 2, b - thick_w / 2))
    engraved = unary_union(lines + [ring]).difference(unary_union([h.buffer(0.6) for h in holes]))
    part.engrave = list(engraved.geoms) if hasattr(engraved, "geoms") else [engraved]
    return _label(part, "CUP LAYER", m + 2, m + kit.cell * 0.5 + 1.2, 2.2)


def rail_layer(kit: Kit) -> Part:
    """A lattice of rails along every cup line, broken round every cup, held by a border."""
    size = kit.inner
    w = kit.rail_w
    rails = []
    for col in range(kit.grid):
        for dx, _ in cup_offsets(kit.u):
            x = cell_centre(kit, col, 0)[0] + dx
            rails.append(box(x - w / 2, 0, x + w / 2, size))
    for row in range(kit.grid):
        for _, dy in cup_offsets(kit.u):
            y = cell_centre(kit, 0, row)[1] + dy
            rails.append(box(0, y - w / 2, size, y + w / 2))
    border = box(0, 0, size, size).difference(box(2.5, 2.5, size - 2.5, size - 2.5))
    clear = (kit.peg_d + kit.fit) / 2 + kit.rail_gap
    gaps = unary_union([Point(c).buffer(clear, quad_segs=16) for c in cup_centres(kit)])
    lattice = unary_union(rails + [border]).difference(gaps).union(border)
    return _label(Part("rail layer", lattice, material="rail_layer"), "RAILS", 3.5, 2.2, 1.6)


def base_plate(kit: Kit) -> Part:
    part = Part("base", box(0, 0, kit.outer, kit.outer), material="base")
    return _label(part, "BASE (under the cup layer)", kit.stop_w, kit.outer / 2, 6)


def frame(kit: Kit) -> Part:
    o, w = kit.outer, kit.stop_w
    part = Part("frame", box(0, 0, o, o).difference(box(w, w, o - w, o - w)), material="frame")
    # Column letters along the bottom and row numbers up the left side, as the referee names cells.
    eng = []
    for k in range(kit.grid):
        c = w + kit.stop_margin + (k + 0.5) * kit.cell
        letter = chr(ord("a") + k)
        eng += text_polygons(letter, c - 1.6, o - w / 2 + 2.2, 6)
        num = str(k + 1)
        eng += text_polygons(num, w / 2 - 1.8 * len(num), o - c + 2.2, 6)
    part.engrave = eng
    return _label(part, "FRAME", o / 2 - 6, w / 2 + 1.2, 3.5)


# ---------------------------------------------------------------- cubes, pegs, pawns

def cube_parts(kit: Kit, king: bool = False) -> list[Part]:
    """One cube's parts: a finger-jointed box, a top ring (plain cubes) and four pegs."""
    t = kit.t("cube")
    ring_t = kit.t("ring")
    height = kit.king_height if king else kit.cube - ring_t
    tag = "K" if king else "C"
    parts = []
    for panel in box_panels(kit.cube, kit.cube, height, t, top=True):
        part = panel.part(t, material="cube")
        h = panel.h
        if panel.name == "bottom":
            # Where the pegs go, scored on the outside face: the pattern's turn must match the cups.
            c = kit.cube / 2
            for dx, dy in cup_offsets(kit.u):
                part.score.append(LineString(Point(c + dx, c + dy).buffer(kit.peg_d / 2, quad_segs=8).exterior.coords))
            _label(part, f"{tag} OUT", c - 5, c + 1, 2.4)
        elif panel.name == "top" and king:
            crown = Polygon([(8, 21), (8, 11), (11.5, 15), (15, 9), (18.5, 15), (22, 11), (22, 21)])
            part.engrave.append(crown)
            _label(part, "", 0, 0)
        else:
            _label(part, f"{tag} {panel.name}", t + 1.5, h / 2 + 1, 2.4)
        parts.append(part)
    if not king:
        ring = Part("ring", box(0, 0, kit.cube, kit.cube).difference(
            Point(kit.cube / 2, kit.cube / 2).buffer(kit.recess_d / 2, quad_segs=32)), material="ring")
        parts.append(_label(ring, "RING", 2.5, 5, 2.2))
    peg = Part("peg", Point(kit.peg_d / 2, kit.peg_d / 2).buffer(kit.peg_d / 2, quad_segs=16), material="peg",
               quantity=4)
    # The two perpendicular notches that ride the rails, engraved rail-height deep on the face down.
    notch = kit.rail_w + 0.3
    c = kit.peg_d / 2
    cross = unary_union([box(0, c - notch / 2, kit.peg_d, c + notch / 2),
                         box(c - notch / 2, 0, c + notch / 2, kit.peg_d)]).intersection(peg.outline)
    peg.engrave = [cross]
    parts.append(peg)
    return parts


def pawn_plates(kit: Kit, player: int) -> list[Part]:
    """A pawn as a slotted cross: two plates, one slotted from below, one from above."""
    t = kit.t("pawn")
    H, D = kit.pawn_height, kit.pawn_d
    # Foot, body, neck, head; the neck keeps 2.3 mm of wood each side of the slot that crosses it.
    neck = t + 4.6
    head_r = neck / 2 + 0.4
    head_y = head_r + 0.2
    profile = unary_union([
        box(0, H - 3, D, H),                                             # foot
        Polygon([(1.0, H - 3), (D - 1.0, H - 3), (D / 2 + neck / 2, head_y + head_r * 0.6),
                 (D / 2 - neck / 2, head_y + head_r * 0.6)]),            # body up into the head
        Point(D / 2, head_y).buffer(head_r, quad_segs=16),               # head
    ])
    plates = []
    for k, (name, slot) in enumerate((("pawn A", box(D / 2 - t / 2, H / 2, D / 2 + t / 2, H + 1)),
                                      ("pawn B", box(D / 2 - t / 2, -1, D / 2 + t / 2, H / 2)))):
        part = Part(f"{name} p{player}", profile.difference(slot), material="pawn")
        if player % 2 == 0:  # the second colour: heads engraved dark
            part.engrave = [Point(D / 2, head_y).buffer(head_r - 0.6, quad_segs=16).difference(slot)]
        plates.append(part)
    return plates


def kit_parts(kit: Kit) -> list[Part]:
    parts = [base_plate(kit), cup_layer(kit), rail_layer(kit), frame(kit)]
    plain = kit.cubes - kit.kings
    for p in cube_parts(kit):
        p.quantity *= plain
        parts.append(p)
    for p in cube_parts(kit, king=True):
        p.quantity *= kit.kings
        parts.append(p)
    for player in range(1, kit.players + 1):
        for p in pawn_plates(kit, player):
            p.quantity = kit.pawns_each
            parts.append(p)
    return parts
