"""Capitals rules: walls on the lattice of the board's squares, enclosures, and the score.

Pure functions of a position and a turn; no printing, no input.

The lattice: a point is named like the square whose top-left corner it is, "D22" = the top-left
corner of square D-22; the bottom edge is row Z (after Y) and the right edge column 57. A wall is
a start point, a direction (N, E, S or W: E is towards higher columns, S towards later rows) and a
length in units, written "D22E8" or "D22 E 8". A unit edge is ("h", r, c), from point (r, c) to
(r, c+1), or ("v", r, c), from (r, c) to (r+1, c); rows and columns count from 0. A rectangle is
(top, left, bottom, right) in lattice lines: squares top..bottom-1 by left..right-1.

Our readings of the patent (said in docs/patents.md too):
- "each player who has walled off a square or oblong area, is credited with all the flag-sites
  within it": an enclosure is a rectangle of squares with a wall along every unit of its edge
  (walls inside it change nothing); a walled-in region of any other shape is not an enclosure;
- the map's edge is not a wall: an enclosure is closed by walls all round;
- "unless the enclosed area has been walled up within a larger one. In the latter event, all the
  flag-sites within the larger area are credited to the player whose move completed it": every
  square is credited to the player whose turn closed the last enclosure around it. A larger
  enclosure is always closed after (or with) the ones inside it, since no wall may enter an
  enclosure; one that shares a side with it is inside it too;
- "Wall-pieces may overlap only by the amount of their projections": no two walls on one unit
  edge; walls may meet end to end, at a right angle, end against side, or cross;
- "may not himself play cards and place corresponding wall-pieces to form a crossing": the walls
  of one turn may not cross each other (the shape rule below already keeps them apart); any wall
  on the map may be crossed, whoever laid it (the patent's wall-pieces carry no owner);
- several cards in one turn: all their walls together form one straight line without gaps or
  overlaps, or one right angle (two such lines meeting at an end of each);
- a special card's walls must complete an enclosure: at least one of its unit edges lies on the
  edge of an enclosure that this turn closes;
- the United Nations' line has "such a total of units as may be required for the purpose": its
  first and last units each lie on the edge of an enclosure it closes (it overshoots nothing);
- the first round is the patent's "one card drawn": at most one card a turn.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass, replace
from functools import cached_property
from types import MappingProxyType

from ...errors import show, plural
from ...referee.contract import Refused, known_name

DIRS = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
WALL_RE = re.compile(r"^\s*([A-Za-z])\s*-?\s*(\d{1,2})\s*([NESWnesw])\s*(\d{1,3})\s*$")
VARIANTS = ("most-capitals", "fewest-capitals", "most-population", "least-population")

Edge = tuple[str, int, int]
Square = tuple[int, int]
Rect = tuple[int, int, int, int]        # top, left, bottom, right (lattice lines)


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
        raise Refused("card", f"no card {show(text.strip())} in the pack")


@dataclass(frozen=True)
class Wall:
    r: int
    c: int
    d: str
    n: int
    player: str = ""
    card: str = ""

    # Walls are looked at many times (every entry tried against every wall): their points and
    # unit edges are worked out once.
    def points(self) -> tuple[tuple[int, int], ...]:
        return self._points

    def edges(self) -> tuple[Edge, ...]:
        return self._edges

    @cached_property
    def _points(self) -> tuple[tuple[int, int], ...]:
        dr, dc = DIRS[self.d]
        return tuple((self.r + dr * k, self.c + dc * k) for k in range(self.n + 1))

    @cached_property
    def _edges(self) -> tuple[Edge, ...]:
        pts = self._points
        out = []
        for (r1, c1), (r2, c2) in zip(pts, pts[1:]):
            if r1 == r2:
                out.append(("h", r1, min(c1, c2)))
            else:
                out.append(("v", min(r1, r2), c1))
        return tuple(out)

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
        raise Refused("notation", f"{show(text)} is not a wall: a lattice point, a direction and a length, e.g. D22E8")
    row = string.ascii_uppercase.index(m.group(1).upper())
    n = int(m.group(4))
    if n < 1:
        raise Refused("notation", f"{show(text)}: a wall is at least one unit long")
    return Wall(row, int(m.group(2)) - 1, m.group(3).upper(), n)


def rect_squares(rect: Rect) -> list[Square]:
    top, left, bottom, right = rect
    return [(r, c) for r in range(top, bottom) for c in range(left, right)]


def rect_name(rect: Rect) -> str:
    """Its first and last squares, as the cards name squares: C-3..D-8 (one square: C-3)."""
    top, left, bottom, right = rect
    first, last = f"{string.ascii_uppercase[top]}-{left + 1}", f"{string.ascii_uppercase[bottom - 1]}-{right}"
    return first if first == last else f"{first}..{last}"


def rect_within(inner: Rect, outer: Rect) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def rects_overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def on_rect_edge(e: Edge, rect: Rect) -> bool:
    """Is unit edge e part of the rectangle's outline?"""
    kind, r, c = e
    top, left, bottom, right = rect
    if kind == "h":
        return r in (top, bottom) and left <= c < right
    return c in (left, right) and top <= r < bottom


@dataclass(frozen=True)
class Enclosure:
    """A rectangle walled all round: closed on turn `turn` (1 = the first) by `player`'s move."""
    rect: Rect
    player: str
    turn: int

    def squares(self) -> list[Square]:
        return rect_squares(self.rect)

    def name(self) -> str:
        return rect_name(self.rect)


@dataclass(frozen=True)
class Position:
    board: Board
    players: tuple[str, ...]
    variant: str = "most-capitals"
    walls: tuple[Wall, ...] = ()
    enclosures: tuple[Enclosure, ...] = ()          # every rectangle walled all round, in the order closed
    owner: tuple[tuple[Square, str], ...] = ()      # enclosed square -> player credited (the last enclosure's)
    played: frozenset = frozenset()                 # country names (lower-case)
    to_move: int = 0
    turn: int = 0                                   # turns taken (passes included)
    hands: tuple[tuple[str, tuple[str, ...]], ...] | None = None   # at the end: cards kept
    discarded: tuple[str, ...] = ()                 # cards in hand at the end, dropped as enclosed

    @property
    def over(self) -> bool:
        return self.hands is not None

    # Computed once per position (a referee tries many entries on one position), read-only.
    @cached_property
    def _owners(self) -> MappingProxyType:
        return MappingProxyType(dict(self.owner))

    @cached_property
    def _wall_edges(self) -> MappingProxyType:
        return MappingProxyType({e: w for w in self.walls for e in w._edges})

    @cached_property
    def _totals(self) -> MappingProxyType:
        return MappingProxyType(_score(self))

    def owners(self) -> MappingProxyType:
        """Enclosed square -> the player credited (read-only)."""
        return self._owners

    def wall_edges(self) -> MappingProxyType:
        """Unit edge -> the wall along it (read-only)."""
        return self._wall_edges


# ----------------------------------------------------------------- geometry

def edge_squares(board: Board, e: Edge) -> list[Square]:
    kind, r, c = e
    cand = [(r - 1, c), (r, c)] if kind == "h" else [(r, c - 1), (r, c)]
    return [(a, b) for a, b in cand if 0 <= a < board.rows and 0 <= b < board.columns]


def _rects_along(walled, r: int, c: int, flip: bool) -> set[Rect]:
    """Rectangles walled all round that have the horizontal unit edge (r, c) on their top or
    bottom side. With flip, rows and columns trade places: the same search for a vertical edge."""
    def h(a, b):
        return (("v", b, a) if flip else ("h", a, b)) in walled

    def v(a, b):
        return (("h", b, a) if flip else ("v", a, b)) in walled

    left = c
    while h(r, left - 1):
        left -= 1
    right = c + 1
    while h(r, right):
        right += 1
    found = set()
    for down in (True, False):        # line r is the rectangle's top, then its bottom
        def depth(col):
            d = 0
            while v(r + d if down else r - 1 - d, col):
                d += 1
            return d
        lefts = [(c0, d) for c0 in range(left, c + 1) if (d := depth(c0))]
        rights = [(c1, d) for c1 in range(c + 1, right + 1) if (d := depth(c1))]
        for c0, d0 in lefts:
            for c1, d1 in rights:
                for k in range(1, min(d0, d1) + 1):
                    r2 = r + k if down else r - k
                    if all(h(r2, x) for x in range(c0, c1)):
                        top, bottom = min(r, r2), max(r, r2)
                        found.add((c0, top, c1, bottom) if flip else (top, c0, bottom, c1))
    return found


def closed_rectangles(walled, new_edges) -> set[Rect]:
    """The rectangles walled all round that have one of new_edges on their outline: those the
    new edges close (every other walled rectangle was closed before)."""
    found: set[Rect] = set()
    for kind, r, c in new_edges:
        found |= _rects_along(walled, r, c, False) if kind == "h" else _rects_along(walled, c, r, True)
    return found


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


# ----------------------------------------------------------------- what a turn closed, nested

@dataclass
class Nested:
    """An enclosure lying wholly inside one a turn closed (closed that turn or before)."""
    enclosure: Enclosure
    sites: list[str]                 # the markers inside it, its own nested ones' included
    inside: list["Nested"]


@dataclass
class Closed:
    """One area a turn walled off: its largest new rectangle (rarely two or more that overlap),
    everything in it, who held which of its markers before, and the enclosures inside it."""
    player: str
    rects: list[Rect]
    squares: list[Square]
    sites: list[str]                              # every marker inside
    held_before: dict[str, list[str]]             # player credited before this turn -> their markers inside
    inside: list[Nested]

    def name(self) -> str:
        return " + ".join(rect_name(r) for r in self.rects)


def _sites_in(board: Board, squares) -> list[str]:
    return [n for sq in sorted(squares) for n in board.sites.get(sq, ())]


def _areas(board: Board, player: str, new: list[Enclosure], every: list[Enclosure],
           owners_before: dict[Square, str]) -> list[Closed]:
    """The turn's new enclosures as areas, outermost first, each with what lies inside it.

    The areas are the largest new rectangles, those that overlap joined into one, so that
    areas never share a square. Inside an area we list, as a tree, the enclosures wholly in it
    that overlap no other one partly (a grid of walls makes rectangles that overlap in every
    way; the ones kept nest like boxes, and a grid shows as its cells)."""
    largest = [e for e in new if not any(o.rect != e.rect and rect_within(e.rect, o.rect) for o in new)]
    groups: list[list[Enclosure]] = []
    for e in sorted(largest, key=lambda e: e.rect):
        joined = [g for g in groups if any(rects_overlap(e.rect, o.rect) for o in g)]
        merged = [e] + [o for g in joined for o in g]
        groups = [g for g in groups if g not in joined] + [sorted(merged, key=lambda o: o.rect)]
    areas = []
    for group in sorted(groups, key=lambda g: g[0].rect):
        squares = {sq for e in group for sq in e.squares()}
        own = {e.rect for e in group}
        def within(rect):
            if len(group) == 1:
                return rect_within(rect, group[0].rect)
            return set(rect_squares(rect)) <= squares
        members = [e for e in every if e.rect not in own and within(e.rect)]
        kept = [e for e in members
                if not any(rects_overlap(e.rect, o.rect) and not rect_within(e.rect, o.rect)
                           and not rect_within(o.rect, e.rect) for o in members + group)]
        nodes: dict[Rect, Nested] = {}
        roots: list[Nested] = []
        # Largest first, so that a rectangle's parent (the smallest kept one around it) has its node.
        for e in sorted(kept, key=lambda e: (-len(e.squares()), e.rect)):
            node = Nested(e, _sites_in(board, e.squares()), [])
            around = [o for o in kept if o.rect != e.rect and rect_within(e.rect, o.rect)]
            parent = min(around, key=lambda o: len(o.squares()), default=None)
            (nodes[parent.rect].inside if parent else roots).append(node)
            nodes[e.rect] = node
        for node in [*nodes.values()]:
            node.inside.sort(key=lambda n: n.enclosure.rect)
        held: dict[str, list[str]] = {}
        for sq in sorted(squares):
            if sq in owners_before and board.sites.get(sq):
                held.setdefault(owners_before[sq], []).extend(board.sites[sq])
        areas.append(Closed(player, [e.rect for e in group], sorted(squares), _sites_in(board, squares),
                            held, sorted(roots, key=lambda n: n.enclosure.rect)))
    return areas


# ----------------------------------------------------------------- turns

@dataclass
class TurnResult:
    position: Position
    walls: list[Wall]
    closed: list[Closed]
    discarded: list[str]


def play_turn(pos: Position, player: str, plays: list[tuple[str, list[str]]]) -> TurnResult:
    """Lay the walls of one turn's cards; raise Refused (the position unchanged) if any rule is broken."""
    b = pos.board
    if pos.over:
        raise Refused("game-over", "the game has ended")
    player = known_name(player, pos.players) or player     # without regard to case, as names are matched
    if player != pos.players[pos.to_move]:
        raise Refused("turn-order", f"it is {pos.players[pos.to_move]}'s turn, not {player}'s")
    if not plays:
        raise Refused("notation", "a turn plays at least one card, or passes")
    first_round = pos.turn < len(pos.players)
    if first_round and len(plays) > 1:
        raise Refused("first-round", "in the first round each player plays the one card drawn")
    owners = pos.owners()
    walled = pos.wall_edges()
    laid: dict[Edge, Wall] = {}             # this turn's unit edges
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
                raise Refused("wall-length", f"{card.name} lays one wall of {plural(s['units'], 'unit')}")
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
                if e in walled or e in laid:
                    raise Refused("overlap", f"{w.name()} lies along {(walled.get(e) or laid[e]).name()} (two "
                                             "walls may not share a side of a square; they may meet, touch or cross)")
                if any(sq in owners for sq in edge_squares(b, e)):
                    raise Refused("enclosure", f"{w.name()} enters an enclosure")
            for e in w.edges():
                laid[e] = w
            new_walls.append(w)
        cards.append(card)
    if len(cards) > 1 and not _shape_ok(new_walls):
        raise Refused("turn-shape", "several cards in one turn lay their walls in one straight line or one "
                                    "right angle (a player may not himself lay walls that cross)")

    # The enclosures this turn closes: rectangles walled all round with a new wall on their edge.
    rects = closed_rectangles({**walled, **laid}, list(laid))
    for card in cards:
        if not card.special:
            continue
        mine = [e for w in new_walls if w.card == card.name for e in w.edges()]
        if not any(on_rect_edge(e, rect) for e in mine for rect in rects):
            raise Refused("special-enclosure", f"{card.name} is played only to complete an enclosure")
        if "straight_line" in card.special:
            for end in (mine[0], mine[-1]):
                if not any(on_rect_edge(end, rect) for rect in rects):
                    raise Refused("line-length", f"{card.name}'s line runs on past the enclosures it closes; "
                                                   "it has as many units as they require, no more")
    turn_no = pos.turn + 1
    new = [Enclosure(rect, player, turn_no) for rect in sorted(rects)]
    new_owners = dict(owners)
    for e in new:
        for sq in e.squares():
            new_owners[sq] = player
    closed = _areas(b, player, new, list(pos.enclosures) + new, owners)
    fresh = [sq for sq in new_owners if sq not in owners]
    discarded = sorted({n for n in _sites_in(b, fresh) if n.lower() not in pos.played and n.lower() not in seen_cards})
    nxt = replace(pos, walls=pos.walls + tuple(new_walls), enclosures=pos.enclosures + tuple(new),
                  owner=tuple(sorted(new_owners.items())), played=pos.played | frozenset(seen_cards),
                  to_move=(pos.to_move + 1) % len(pos.players), turn=turn_no)
    return TurnResult(nxt, new_walls, closed, discarded)


def pass_turn(pos: Position, player: str) -> Position:
    if pos.over:
        raise Refused("game-over", "the game has ended")
    player = known_name(player, pos.players) or player     # without regard to case, as names are matched
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
    for given, cards in hands.items():
        player = known_name(given, pos.players)    # without regard to case, as names are matched
        if player is None:
            raise Refused("players", f"{given} is not playing")
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

def points(board: Board, markers, variant: str) -> int:
    """What markers are worth: 1 each, or in the population forms their cards' population brackets."""
    if variant.endswith("population"):
        return sum(board.cards[n.lower()].bracket for n in markers)
    return len(list(markers))


def totals(pos: Position) -> dict[str, int]:
    """Markers (or population brackets) enclosed; minus the letters of cards left in hand when
    the objective is most, plus them when it is fewest or least (they count against you)."""
    return dict(pos._totals)


def _score(pos: Position) -> dict[str, int]:
    b, v = pos.board, pos.variant
    score = {p: 0 for p in pos.players}
    for sq, player in pos.owner:
        score[player] += points(b, b.sites.get(sq, ()), v)
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
