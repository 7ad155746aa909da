"""The Cubes kit's dimensions, read from boards/cubes_kit.yaml (see its header), and where the
cups and rails lie: all a referee needs of the kit. Kept apart from kit.py, which makes the laser
parts, so that a referee does not import shapely (a fifth of a second at start-up)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...limits import MIN_FINGER_MM, board_size_problem, finger_count, finger_problem
from ...spec import Spec

# The patent: "Les quatre cuvettes d'une même case forment un carré décalé de 26,5 degrés par
# rapport à ladite case": the sides of the square of the four cups are turned from the cell's
# sides by atan(1/2) = 26.57 degrees, the one turn that spaces the cups' columns (and rows) evenly.
CUP_TURN = math.atan(0.5)


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
    engrave_inset: float = 0.5   # mm of bare material between any engraving and a cut line
    names: tuple[str, ...] = ()  # the players, in the set-up's order (their pieces' initials)

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
    cell = cube["size"] + cube["clearance"]
    reach = max(abs(v) for xy in cup_offsets(cell) for v in xy) + cups["peg_diameter"] / 2
    if reach > cube["size"] / 2:
        raise spec.error(("cube", "clearance"), f"the outer cups sit {reach:.2f} mm from the cell's centre with "
                                                f"their pegs, past the cube's side; make it smaller")
    dash = cell / 4 - 2 * rail_break(cups["peg_diameter"], cups["fit"], rails["gap"])
    if dash < 1.0:
        raise spec.error(("rails", "gap"), f"the rails between two crossings would be {dash:.2f} mm long; "
                                           f"make it smaller")
    if cube["recess_diameter"] > cube["size"] - 2:
        raise spec.error(("cube", "recess_diameter"), f"leaves the {cube['size']:g} mm ring less than 1 mm of wood "
                                                      "each side of its hole")
    if rails["width"] + 0.3 >= cups["peg_diameter"]:
        # The peg's notches are the rail's width and 0.3 mm of play (kit.cube_parts).
        raise spec.error(("rails", "width"), f"a peg's notches ({rails['width'] + 0.3:g} mm: the rail and 0.3 mm) "
                                             f"must be narrower than the peg ({cups['peg_diameter']:g} mm)")
    pawn_t, pawn_d = mats["pawn"]["thickness"], d["pawn"]["diameter"]
    if pawn_t + 4.6 >= pawn_d:
        # A pawn is a cross of two plates slotted into each other: its neck keeps 2.3 mm of wood
        # each side of the other plate's slot (kit.pawn_plates).
        raise spec.error(("materials", "pawn", "thickness"), f"a {pawn_t:g} mm pawn plate needs a neck of "
                                                             f"{pawn_t + 4.6:g} mm round its slot, as wide as the "
                                                             f"{pawn_d:g} mm pawn or wider")
    las = d["laser"]
    # What the numbers call for, bounded before any part is drawn (generator/limits.py): the
    # cubes' walls and their fingers, and the board's size.
    t, ring = mats["cube"]["thickness"], mats["ring"]["thickness"]
    for length, what in ((cube["size"], "side"), (cube["size"] - ring - t, "wall"),
                         (d["king_cube"]["height"] - t, "king's wall")):
        if length < 3 * MIN_FINGER_MM:
            raise spec.error(("cube", "size"), f"a cube's {what} would be {length:g} mm, too small for its "
                                               f"{t:g} mm walls to be jointed")
        problem = finger_problem(length, t, las["kerf"], finger_count(length, t))
        if problem:
            raise spec.error(("materials", "cube", "thickness"), problem)
    outer = grid * cell + 2 * d["stop"]["margin"] + 2 * d["stop"]["width"]
    problem = board_size_problem(outer, outer)
    if problem:
        raise spec.error(("four_player", "grid") if four_player else ("grid",), problem)
    return Kit(d["title"], grid, start, players["count"], players["cubes"], players["kings"], players["pawns_each"],
               cube["size"], cube["clearance"], cube["recess_diameter"], cube["recess_depth"],
               d["king_cube"]["height"], d["pawn"]["height"], d["pawn"]["diameter"],
               cups["depth"], cups["peg_diameter"], cups["peg_height"], cups["fit"],
               rails["height"], rails["width"], rails["gap"], d["stop"]["width"], d["stop"]["margin"],
               mats, las["kerf"], tuple(las["sheet"]), las["margin"], las["spacing"], las.get("engrave_inset", 0.5),
               tuple(str(n) for n in d.get("setup", {}).get("four_player" if four_player else "two_player", {})
                     .get("players", ())))


def cup_offsets(cell: float) -> list[tuple[float, float]]:
    """The four cups of a cell, from its centre (y down): the corners of a square whose sides are
    turned CUP_TURN from the cell's. Its corners' columns are then evenly spaced, at -3, -1, 1 and
    3 eighths of a cell (rows likewise); at that size the cup lines of neighbouring cells go on
    at the same pitch, so the board's cup lines (and its rails) are one even lattice, a quarter
    cell apart, each cup in line with its homologues only."""
    corner = CUP_TURN + math.pi / 4          # a corner, seen from the centre, is 45 degrees off the sides
    radius = 3 * cell / 8 / math.sin(corner)  # the outermost column at 3/8 of the cell
    turns = [corner + q * math.pi / 2 for q in range(4)]
    return [(round(radius * math.cos(a), 9), round(radius * math.sin(a), 9)) for a in turns]


def rail_break(peg_d: float, fit: float, gap: float) -> float:
    """Half the length of a rail's break where a peg's path crosses it: the peg's half-width, its
    play, and a gap, so a peg sliding along one cup line never touches a rail of the other way."""
    return (peg_d + fit) / 2 + gap


def cell_centre(kit: Kit, col: int, row: int) -> tuple[float, float]:
    """Centre of a cell on the cup and rail layers (col, row from 0 at the top-left)."""
    m = kit.stop_margin
    return (m + (col + 0.5) * kit.cell, m + (row + 0.5) * kit.cell)


def cup_centres(kit: Kit) -> list[tuple[float, float]]:
    out = []
    for row in range(kit.grid):
        for col in range(kit.grid):
            cx, cy = cell_centre(kit, col, row)
            out += [(cx + dx, cy + dy) for dx, dy in cup_offsets(kit.cell)]
    return out


def cup_lines(kit: Kit) -> list[float]:
    """Where the cup lines run, across the cup and rail layers: the columns' x, which are also the
    rows' y (the board is square)."""
    return sorted({round(x, 6) for x, _ in cup_centres(kit)})
