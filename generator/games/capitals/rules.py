"""Capitals rules: walls on the lattice of the board's squares, enclosures, and the score.

Pure functions of a position and a turn; no printing, no input.

The lattice: a point is named like the square whose top-left corner it is, "D22" = the top-left
corner of square D-22; the bottom edge is row Z (after Y) and the right edge column 57. A wall is
a start point, a direction (N, E, S or W: E is towards higher columns, S towards later rows) and a
length in units, written "D22E8" or "D22 E 8". A unit edge is ("h", r, c), from point (r, c) to
(r, c+1), or ("v", r, c), from (r, c) to (r+1, c); rows and columns count from 0.

Our readings of the patent (said in the README too):
- the map's edge is not a wall: an enclosure is closed by walls all round;
- "may not himself ... form a crossing": a wall may cross another player's wall, never one of
  the same player's (this turn's or an earlier one);
- several cards in one turn: all their walls together form one straight line without gaps or
  overlaps, or one right angle (two such lines meeting at an end of each);
- a special card's walls must complete an enclosure: at least one of its unit edges borders a
  square that this turn encloses;
- the first round is the patent's "one card drawn": at most one card a turn.
"""
from __future__ import annotations

import re
import string
from collections import deque
from dataclasses import dataclass, field, replace

from ...referee.session import Refused

DIRS = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
WALL_RE = re.compile(r"^\s*([A-Za-z])\s*-?\s*(\d{1,2})\s*([NESWnesw])\s*(\d{1,3})\s*$")
VARIANTS = ("most-capitals", "fewest-capitals", "most-population", "least-population")

Edge = tuple[str, int, int]
Square = tuple[int, int]


@dataclass(frozen=True)
class Card:
    name: str
    capital: str
    square: Square
    letters: int
    bracket: int
    special: dict | None


@dataclass(frozen=True)
class Board:
    rows: int
    columns: int
    cards: dict[str, Card]                  # lower-case country name -> card
    sites: dict[Square, tuple[str, ...]]    # square -> country names of its markers

    def card(self, text: str) -> Card:
        key = text.strip().lower()
        if key in self.cards:
            return self.cards[key]
        for c in self.cards.values():        # a capital's name will do too
            if c.capital.lower() == key:
                return c
        raise Refused("card", f"no card {text.strip()!r} in the pack")


@dataclass(frozen=True)
class Wall:
    r: int
    c: int
    d: str
    n: int
    player: str = ""
    card: str = ""

    def points(self) -> list[tuple[int, int]]:
        dr, dc = DIRS[self.d]
        return [(self.r + dr * k, self.c + dc * k) for k in range(self.n + 1)]

    def edges(self) -> list[Edge]:
        pts = self.points()
        out = []
        for (r1, c1), (r2, c2) in zip(pts, pts[1:]):
            if r1 == r2:
                out.append(("h", r1, min(c1, c2)))
            else:
                out.append(("v", min(r1, r2), c1))
        return out

    @property
    def horizontal(self) -> bool:
        return self.d in "EW"

    def ends(self) -> tuple[tuple[int, int], tuple[int, int]]:
        p = self.points()
        return p[0], p[-1]

    def name(self) -> str:
        return f"{point_name(self.r, self.c)}{self.d}{self.n}"


def point_name(r: int, c: int) -> str:
    return f"{string.ascii_uppercase[r]}{c + 1}"


def parse_wall(text: str) -> Wall:
    m = WALL_RE.match(str(text))
    if not m:
        raise Refused("notation", f"{text!r} is not a wall: a lattice point, a direction and a length, e.g. D22E8")
    row = string.ascii_uppercase.index(m.group(1).upper())
    n = int(m.group(4))
    if n < 1:
        raise Refused("notation", f"{text!r}: a wall is at least one unit long")
    return Wall(row, int(m.group(2)) - 1, m.group(3).upper(), n)


@dataclass
class Enclosure:
    player: str
    squares: list[Square]
    sites: list[str]                 # country names of the markers inside (nested ones included)
    taken: list[tuple[str, int]] = field(default_factory=list)   # (previous owner, markers) swallowed


@dataclass(frozen=True)
class Position:
    board: Board
    players: tuple[str, ...]
    variant: str = "most-capitals"
    walls: tuple[Wall, ...] = ()
    owner: tuple[tuple[Square, str], ...] = ()      # enclosed square -> player credited
    played: frozenset = frozenset()                 # country names (lower-case)
    to_move: int = 0
    turn: int = 0                                   # turns taken (passes included)
    hands: tuple[tuple[str, tuple[str, ...]], ...] | None = None   # at the end: cards kept
    discarded: tuple[str, ...] = ()                 # cards in hand at the end, dropped as enclosed

    @property
    def over(self) -> bool:
        return self.hands is not None

    def owners(self) -> dict[Square, str]:
        return dict(self.owner)

    def wall_edges(self) -> dict[Edge, Wall]:
        return {e: w for w in self.walls for e in w.edges()}


# ----------------------------------------------------------------- geometry

def edge_squares(board: Board, e: Edge) -> list[Square]:
    kind, r, c = e
    cand = [(r - 1, c), (r, c)] if kind == "h" else [(r, c - 1), (r, c)]
    return [(a, b) for a, b in cand if 0 <= a < board.rows and 0 <= b < board.columns]


def _neighbours(board: Board, sq: Square, walled: set[Edge]):
    """Squares next to sq not parted from it by a wall; None stands for 'off the map'."""
    r, c = sq
    for (dr, dc, e) in ((-1, 0, ("h", r, c)), (1, 0, ("h", r + 1, c)),
                        (0, -1, ("v", r, c)), (0, 1, ("v", r, c + 1))):
        if e in walled:
            continue
        nr, nc = r + dr, c + dc
        yield (nr, nc) if 0 <= nr < board.rows and 0 <= nc < board.columns else None


def enclosed_squares(board: Board, walled: set[Edge]) -> set[Square]:
    """Squares from which no wall-free path leads off the map."""
    seen: set[Square] = set()
    q: deque = deque()
    for r in range(board.rows):
        for c in range(board.columns):
            if None in _neighbours(board, (r, c), walled):
                seen.add((r, c))
                q.append((r, c))
    while q:
        sq = q.popleft()
        for nb in _neighbours(board, sq, walled):
            if nb is not None and nb not in seen:
                seen.add(nb)
                q.append(nb)
    return {(r, c) for r in range(board.rows) for c in range(board.columns)} - seen


def _components(board: Board, squares: set[Square], walled: set[Edge]) -> list[set[Square]]:
    left, comps = set(squares), []
    while left:
        start = left.pop()
        comp, q = {start}, deque([start])
        while q:
            for nb in _neighbours(board, q.popleft(), walled):
                if nb in left:
                    left.discard(nb)
                    comp.add(nb)
                    q.append(nb)
        comps.append(comp)
    return sorted(comps, key=lambda s: min(s))


def _hole(board: Board, ring: set[Square]) -> set[Square]:
    """Squares the region `ring` surrounds: cut off from the map's edge by it, walls ignored."""
    seen = {(r, c) for r in range(board.rows) for c in range(board.columns)
            if (r in (0, board.rows - 1) or c in (0, board.columns - 1)) and (r, c) not in ring}
    q = deque(seen)
    while q:
        r, c = q.popleft()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < board.rows and 0 <= nc < board.columns and (nr, nc) not in ring and (nr, nc) not in seen:
                seen.add((nr, nc))
                q.append((nr, nc))
    return {(r, c) for r in range(board.rows) for c in range(board.columns)} - seen - ring


def _crossing(a: Wall, b: Wall) -> tuple[int, int] | None:
    """The lattice point where two perpendicular walls cross, inside both (not a T or an L)."""
    if a.horizontal == b.horizontal:
        return None
    inner_a = set(a.points()[1:-1])
    for p in b.points()[1:-1]:
        if p in inner_a:
            return p
    return None


def _shape_ok(segs: list[Wall]) -> bool:
    """One straight line without gaps or overlaps, or one right angle of two such lines."""
    def line_of(group: list[Wall]):
        # collinear and contiguous: sorted intervals that meet end to start
        h = group[0].horizontal
        if any(w.horizontal != h for w in group):
            return None
        fixed = {w.r if h else w.c for w in group}
        if len(fixed) != 1:
            return None
        spans = sorted((min(p[1] if h else p[0] for p in w.points()), max(p[1] if h else p[0] for p in w.points()))
                       for w in group)
        for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
            if b0 != a1:
                return None
        lo, hi = spans[0][0], spans[-1][1]
        f = fixed.pop()
        return ((f, lo), (f, hi)) if h else ((lo, f), (hi, f))

    if len(segs) <= 1:
        return True
    if line_of(segs):
        return True
    hs = [w for w in segs if w.horizontal]
    vs = [w for w in segs if not w.horizontal]
    if not hs or not vs:
        return False
    a, b = line_of(hs), line_of(vs)
    return bool(a and b and set(a) & set(b))


# ----------------------------------------------------------------- turns

@dataclass
class TurnResult:
    position: Position
    walls: list[Wall]
    enclosures: list[Enclosure]
    discarded: list[str]


def play_turn(pos: Position, player: str, plays: list[tuple[str, list[str]]]) -> TurnResult:
    """Lay the walls of one turn's cards; raise Refused (the position unchanged) if any rule is broken."""
    b = pos.board
    if pos.over:
        raise Refused("game-over", "the game has ended")
    if player != pos.players[pos.to_move]:
        raise Refused("turn-order", f"it is {pos.players[pos.to_move]}'s turn, not {player}'s")
    if not plays:
        raise Refused("notation", "a turn plays at least one card, or passes")
    first_round = pos.turn < len(pos.players)
    if first_round and len(plays) > 1:
        raise Refused("first-round", "in the first round each player plays the one card drawn")
    owners = pos.owners()
    walled = pos.wall_edges()
    new_walls: list[Wall] = []
    cards: list[Card] = []
    seen_cards: set[str] = set()
    for card_text, wall_texts in plays:
        card = b.card(card_text)
        key = card.name.lower()
        if key in pos.played or key in seen_cards:
            raise Refused("played", f"{card.name} has been played already; each card is in the pack once")
        seen_cards.add(key)
        if card.square in owners:
            raise Refused("enclosed-card", f"{card.name}'s flag-site is enclosed: its card is discarded, not played")
        segs = [replace(parse_wall(t), player=player, card=card.name) for t in wall_texts]
        s = card.special or {}
        if first_round and card.special:
            raise Refused("first-round", f"{card.name} is a special card: drawn first, it is kept, not played")
        if not card.special:
            if len(segs) != 1:
                raise Refused("one-wall", f"{card.name} lays one wall")
            w = segs[0]
            if w.n != card.letters:
                raise Refused("wall-length", f"{card.name} lays a wall of {card.letters} units "
                                             f"({card.capital}), not {w.n}")
            r, c = card.square
            sides = {("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)}
            if not sides & set(w.edges()):
                raise Refused("card-square", f"{w.name()} does not cover a side of {card.name}'s square "
                                             f"{string.ascii_uppercase[r]}-{c + 1}")
        elif "units" in s:
            if len(segs) != 1 or segs[0].n != s["units"]:
                raise Refused("wall-length", f"{card.name} lays one wall of {s['units']} unit(s)")
        elif "right_angle" in s:
            if len(segs) != 2 or segs[0].horizontal == segs[1].horizontal or \
                    not set(segs[0].ends()) & set(segs[1].ends()):
                raise Refused("right-angle", f"{card.name} lays two walls meeting at a right angle, e.g. F10E5 F10S7")
            if segs[0].n + segs[1].n > s["right_angle"]:
                raise Refused("right-angle", f"{card.name}'s walls are {segs[0].n + segs[1].n} units; at most "
                                             f"{s['right_angle']}")
        elif "straight_line" in s:
            if len(segs) != 1:
                raise Refused("straight-line", f"{card.name} lays its walls in one straight line: one segment")
        for w in segs:
            for (pr, pc) in w.points():
                if not (0 <= pr <= b.rows and 0 <= pc <= b.columns):
                    raise Refused("map-edge", f"{w.name()} runs beyond the edge of the map")
            for e in w.edges():
                if e in walled:
                    raise Refused("overlap", f"{w.name()} overlaps {walled[e].name()} (walls meet only at their ends)")
                inside = [sq for sq in edge_squares(b, e) if sq in owners]
                if inside:
                    raise Refused("enclosure", f"{w.name()} enters an enclosure")
            for other in list(pos.walls) + new_walls:
                p = _crossing(w, other)
                if p and other.player == player:
                    raise Refused("own-crossing", f"{w.name()} crosses {other.name()}, {player}'s own wall "
                                                  f"at {point_name(*p)}: a player may not himself lay crossing walls")
            for e in w.edges():
                walled[e] = w
            new_walls.append(w)
        cards.append(card)
    if len(cards) > 1 and not _shape_ok(new_walls):
        raise Refused("turn-shape", "several cards in one turn lay their walls in one straight line "
                                    "or one right angle")

    # Enclosures this turn completes.
    edges = set(walled)
    enclosed = enclosed_squares(b, edges)
    new = enclosed - set(owners)
    new_owners = dict(owners)
    enclosures = []
    covered: set[Square] = set()
    # Largest first: a region nested inside another completed this same turn is part of it.
    for region in sorted(_components(b, new, edges), key=len, reverse=True):
        if region <= covered:
            continue
        hole = _hole(b, region)
        taken: dict[str, int] = {}
        for sq in hole:
            if sq in owners:
                taken[owners[sq]] = taken.get(owners[sq], 0) + len(b.sites.get(sq, ()))
        inside = region | hole
        covered |= inside
        for sq in inside:
            new_owners[sq] = player
        enclosures.append(Enclosure(player, sorted(region), [n for sq in sorted(inside) for n in b.sites.get(sq, ())],
                                    sorted(taken.items())))
    for card in cards:
        if card.special:
            mine = [w for w in new_walls if w.card == card.name]
            touches = any(sq in new for w in mine for e in w.edges() for sq in edge_squares(b, e))
            if not touches:
                raise Refused("special-enclosure", f"{card.name} is played only to complete an enclosure")
    discarded = sorted({n for sq in new for n in b.sites.get(sq, ())
                        if n.lower() not in pos.played and n.lower() not in seen_cards})
    nxt = replace(pos, walls=pos.walls + tuple(new_walls), owner=tuple(sorted(new_owners.items())),
                  played=pos.played | frozenset(seen_cards), to_move=(pos.to_move + 1) % len(pos.players),
                  turn=pos.turn + 1)
    return TurnResult(nxt, new_walls, enclosures, discarded)


def pass_turn(pos: Position, player: str) -> Position:
    if pos.over:
        raise Refused("game-over", "the game has ended")
    if player != pos.players[pos.to_move]:
        raise Refused("turn-order", f"it is {pos.players[pos.to_move]}'s turn, not {player}'s")
    return replace(pos, to_move=(pos.to_move + 1) % len(pos.players), turn=pos.turn + 1)


def end_game(pos: Position, hands: dict[str, list[str]]) -> Position:
    """The cards each player could not play. Cards of enclosed flag-sites were discarded when
    the site was enclosed, so they are dropped here and do not count against anyone."""
    if pos.over:
        raise Refused("game-over", "the game has ended")
    owners = pos.owners()
    kept, dropped, seen = {}, [], set()
    for player, cards in hands.items():
        if player not in pos.players:
            raise Refused("players", f"{player} is not playing")
        mine = []
        for text in cards or []:
            card = pos.board.card(text)
            key = card.name.lower()
            if key in pos.played:
                raise Refused("played", f"{card.name} has been played; it cannot be in {player}'s hand")
            if key in seen:
                raise Refused("played", f"{card.name} is in two hands; each card is in the pack once")
            seen.add(key)
            if card.square in owners:
                dropped.append(card.name)
            else:
                mine.append(card.name)
        kept[player] = tuple(mine)
    return replace(pos, hands=tuple((p, kept.get(p, ())) for p in pos.players), discarded=tuple(dropped))


# ----------------------------------------------------------------- score

def _value(board: Board, country: str, variant: str) -> int:
    card = board.cards[country.lower()]
    return card.bracket if variant.endswith("population") else 1


def totals(pos: Position) -> dict[str, int]:
    """Markers (or population brackets) enclosed; minus the letters of cards left in hand when
    the objective is most, plus them when it is fewest or least (they count against you)."""
    b, v = pos.board, pos.variant
    score = {p: 0 for p in pos.players}
    for sq, player in pos.owner:
        score[player] += sum(_value(b, n, v) for n in b.sites.get(sq, ()))
    sign = -1 if v.startswith("most") else 1
    for player, cards in (pos.hands or ()):
        score[player] += sign * sum(b.cards[c.lower()].letters for c in cards)
    return score


def winner(pos: Position) -> str | None:
    if not pos.over:
        return None
    t = totals(pos)
    best = (max if pos.variant.startswith("most") else min)(t.values())
    top = [p for p, s in t.items() if s == best]
    return top[0] if len(top) == 1 else None
