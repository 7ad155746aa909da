"""Cubes rules (FR 2 672 509): pure functions of a position and a turn. No printing, no input.

Cells are (col, row) from 0, row 0 at the bottom; named like chess squares: "a1" is bottom-left.
A turn is a pawn move, a cube push, or one of each in either order, the second perpendicular to
the first; at least one of the mover's pawns must change cell (riding a pushed cube counts: the
patent allows a push alone, and also says a player "must move at least one of his pawns").
Where the patent is silent we chose, and say so:
- a king cube is 54 mm tall: a pawn can neither land on it (the patent) nor pass over it (ours);
- a pushed line that runs into another line pushes it along (the rejoining of FIG 18);
- a capture is a sandwich (two of the mover's pieces, pawns or king cube, on the cells either side
  of an enemy piece on a row, column or diagonal) that did not exist before the turn: so moving
  between two enemies is safe, and the enemy must create the sandwich anew (the patent's example:
  "en remplaçant l'un de ses deux pions par un troisième").
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import show
from ...referee.contract import Refused

Cell = tuple[int, int]
DIRS = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
LINES = ((1, 0), (0, 1), (1, 1), (1, -1))   # for captures: row, column, both diagonals


def cell_name(c: Cell) -> str:
    return f"{chr(ord('a') + c[0])}{c[1] + 1}"


def parse_cell(text: str, n: int) -> Cell:
    text = text.strip().lower()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        raise ValueError(f"{show(text)} is not a cell (a column letter and a row number, like e3)")
    c = (ord(text[0]) - ord("a"), int(text[1:]) - 1)
    if not (0 <= c[0] < n and 0 <= c[1] < n):
        raise ValueError(f"{text} is off the {n} x {n} board")
    return c


@dataclass(frozen=True)
class PawnMove:
    src: Cell
    dst: Cell

    @property
    def axis(self) -> str:
        return "h" if self.src[1] == self.dst[1] else "v"

    @property
    def straight(self) -> bool:
        """Along a row or a column, to another cell: the only moves a pawn has."""
        return self.src != self.dst and (self.src[0] == self.dst[0] or self.src[1] == self.dst[1])


@dataclass(frozen=True)
class Push:
    start: Cell
    end: Cell | None
    direction: str
    distance: int

    @property
    def axis(self) -> str:
        return "h" if self.direction in "ew" else "v"


@dataclass
class Position:
    n: int
    cubes: set = field(default_factory=set)        # cells holding a cube (king cubes included)
    kings: dict = field(default_factory=dict)      # player -> cell of his king cube
    pawns: dict = field(default_factory=dict)      # pawn id -> (player, cell)

    def copy(self) -> "Position":
        return Position(self.n, set(self.cubes), dict(self.kings), dict(self.pawns))

    def pawn_at(self, cell: Cell):
        for pid, (player, c) in self.pawns.items():
            if c == cell:
                return pid, player
        return None

    def king_at(self, cell: Cell):
        for player, c in self.kings.items():
            if c == cell:
                return player
        return None

    def on_board(self, c: Cell) -> bool:
        return 0 <= c[0] < self.n and 0 <= c[1] < self.n


def parse_turn(text: str, n: int) -> list:
    """`c3-c7` (a pawn), `d4>e2` or `d4:d8>e2` (push the line through d4, or d4 to d8, east 2),
    or two of them separated by a comma or a space."""
    moves = []
    for token in text.replace(",", " ").split():
        if ">" in token:
            seg, _, push = token.partition(">")
            if len(push) < 2 or push[0] not in DIRS or not push[1:].isdigit():
                raise ValueError(f"a push ends with a direction n, e, s or w and a distance, like >e2: {show(token)}")
            start, _, end = seg.partition(":")
            moves.append(Push(parse_cell(start, n), parse_cell(end, n) if end else None, push[0], int(push[1:])))
        elif "-" in token:
            a, _, b = token.partition("-")
            moves.append(PawnMove(parse_cell(a, n), parse_cell(b, n)))
        else:
            raise ValueError(f"{show(token)} is neither a pawn move (c3-c7) nor a push (d4>e2)")
    if not moves:
        raise ValueError("an empty turn")
    return moves


def check_rook_move(mv: PawnMove) -> None:
    if not mv.straight:
        raise Refused("rook move", f"{cell_name(mv.src)}-{cell_name(mv.dst)}: a pawn moves along its row or its "
                                   f"column, like a rook")


def move_pawn(pos: Position, player: int, mv: PawnMove) -> Position:
    found = pos.pawn_at(mv.src)
    if not found or found[1] != player:
        raise Refused("own pawn", f"no pawn of yours on {cell_name(mv.src)}")
    check_rook_move(mv)
    step = ((mv.dst[0] > mv.src[0]) - (mv.dst[0] < mv.src[0]), (mv.dst[1] > mv.src[1]) - (mv.dst[1] < mv.src[1]))
    c = mv.src
    while c != mv.dst:
        c = (c[0] + step[0], c[1] + step[1])
        last = c == mv.dst
        if c not in pos.cubes:
            raise Refused("over a hole" if not last else "onto a hole",
                          f"{cell_name(c)} has no cube: pawns move on cubes only and never jump a hole")
        if pos.pawn_at(c):
            raise Refused("over a pawn" if not last else "onto a pawn", f"a pawn stands on {cell_name(c)}")
        if pos.king_at(c) is not None:
            raise Refused("king cube", f"{cell_name(c)} is a king cube: no pawn lands on one or passes it")
    nxt = pos.copy()
    nxt.pawns[found[0]] = (player, mv.dst)
    return nxt


def line_through(pos: Position, cell: Cell, axis: str) -> list[Cell]:
    """The maximal run of touching cubes through cell along a row (h) or column (v)."""
    d = (1, 0) if axis == "h" else (0, 1)
    a = cell
    while (a[0] - d[0], a[1] - d[1]) in pos.cubes:
        a = (a[0] - d[0], a[1] - d[1])
    run = []
    while a in pos.cubes:
        run.append(a)
        a = (a[0] + d[0], a[1] + d[1])
    return run


def check_segment_along_push(mv: Push) -> None:
    """A named segment start:end must lie along the push: "on déplace les cubes en poussant une
    rangée ou une colonne", a row east or west, a column north or south, never sideways."""
    seg = f"{cell_name(mv.start)}:{cell_name(mv.end)}"
    same_row, same_col = mv.start[1] == mv.end[1], mv.start[0] == mv.end[0]
    if not (same_row or same_col):
        raise Refused("along the push", f"{seg} is not part of a row or a column")
    if not (same_row if mv.axis == "h" else same_col):
        lies, way = (f"column {cell_name(mv.start)[0]}", "n or s") if same_col else (f"row {mv.start[1] + 1}", "e or w")
        raise Refused("along the push", f"the segment {seg} lies along {lies}, but >{mv.direction} pushes along a "
                                        f"{'row' if mv.axis == 'h' else 'column'}: a line is pushed along its own "
                                        f"length (this one {way})")


def push(pos: Position, mv: Push) -> Position:
    if mv.start not in pos.cubes:
        raise Refused("no cube", f"there is no cube on {cell_name(mv.start)} to push")
    if mv.distance < 1:
        raise Refused("distance", "a push moves one cell at least")
    if mv.end is not None:
        check_segment_along_push(mv)
    run = line_through(pos, mv.start, mv.axis)
    if mv.end is not None:
        ends = {run[0], run[-1]}
        if mv.end not in run or {mv.start, mv.end} != ends:
            raise Refused("whole line", f"the line through {cell_name(mv.start)} runs from {cell_name(run[0])} "
                                       f"to {cell_name(run[-1])}; a line is pushed whole, never broken")
    dx, dy = DIRS[mv.direction]
    cubes = set(pos.cubes)
    moved = {c: c for c in run}          # original cell -> current cell, for what rides on them
    block = set(run)
    for _ in range(mv.distance):
        # Whatever the block runs into is pushed along with it.
        grown = True
        while grown:
            grown = False
            for c in list(block):
                ahead = (c[0] + dx, c[1] + dy)
                if ahead in cubes and ahead not in block:
                    block.add(ahead)
                    moved.setdefault(ahead, ahead)
                    grown = True
        new = {(c[0] + dx, c[1] + dy) for c in block}
        if any(not pos.on_board(c) for c in new):
            raise Refused("stop", "the line would go past the stop at the board's edge")
        cubes = (cubes - block) | new
        for orig, cur in moved.items():
            if cur in block:
                moved[orig] = (cur[0] + dx, cur[1] + dy)
        block = new
    nxt = pos.copy()
    nxt.cubes = cubes
    where = dict(moved)
    nxt.pawns = {pid: (pl, where.get(c, c)) for pid, (pl, c) in pos.pawns.items()}
    nxt.kings = {pl: where.get(c, c) for pl, c in pos.kings.items()}
    return nxt


def sandwiches(pos: Position, mover: int) -> set:
    """(enemy piece, frozenset of the two flanking pieces) for every enemy piece the mover flanks."""
    out = set()
    pieces = {}
    for pid, (pl, c) in pos.pawns.items():
        pieces[c] = (pid, pl)
    for pl, c in pos.kings.items():
        pieces[c] = (f"K{pl}", pl)
    for c, (pid, pl) in pieces.items():
        if pl == mover:
            continue
        for dx, dy in LINES:
            a, b = pieces.get((c[0] - dx, c[1] - dy)), pieces.get((c[0] + dx, c[1] + dy))
            if a and b and a[1] == mover and b[1] == mover:
                out.add((pid, frozenset((a[0], b[0]))))
    return out


@dataclass
class TurnResult:
    moves: list
    captured: list            # piece ids, e.g. "p12", "K1"
    winner: int | None


def play_turn(pos: Position, player: int, moves: list) -> tuple[Position, TurnResult]:
    if len(moves) > 2 or (len(moves) == 2 and type(moves[0]) is type(moves[1])):
        raise Refused("one of each", "a turn is one pawn move, one push, or one of each; never two of a kind")
    for mv in moves:   # a crooked pawn move has no direction to be perpendicular to: say what is wrong
        if isinstance(mv, PawnMove):
            check_rook_move(mv)
    if len(moves) == 2 and moves[0].axis == moves[1].axis:
        raise Refused("perpendicular", "the second move must be perpendicular to the first")
    nxt = pos
    for mv in moves:
        nxt = move_pawn(nxt, player, mv) if isinstance(mv, PawnMove) else push(nxt, mv)
    own_before = {pid: c for pid, (pl, c) in pos.pawns.items() if pl == player}
    if all(nxt.pawns[pid][1] == c for pid, c in own_before.items()):
        raise Refused("a pawn must move", "every turn moves at least one of your own pawns "
                                          "(the king cube is not a pawn)")
    before = sandwiches(pos, player)
    fresh = [s for s in sandwiches(nxt, player) if s not in before]
    captured = sorted({pid for pid, _ in fresh})
    nxt = nxt.copy()
    winner = None
    for pid in captured:
        if pid.startswith("K"):
            # "se capture de la même manière qu'un pion": taken, it leaves the game, cube and all
            nxt.cubes.discard(nxt.kings.pop(int(pid[1:])))
            winner = player
        else:
            victim = nxt.pawns.pop(pid)[0]
            if not any(pl == victim for pl, _ in nxt.pawns.values()):
                winner = player
    return nxt, TurnResult(moves, captured, winner)
