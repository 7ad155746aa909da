"""Sorry rules (US 1,903,661): pure functions of a position, a card and a move. No I/O.

Locations: "start", a track division 1..60 (as printed on the board), "s1".."s5" (one's own
safety track, s1 nearest the track), "home". A man's "s1" is a square of his own colour's safety
track: red's s1 and blue's s1 are two squares, and no move ever touches another colour's safety
track. Moves (the notation of records and the prompt):
    out            a man from start onto the division the start opens onto (1, 2)
    34+7           the man on 34 forward 7          s2-4   the man on s2 backward 4
    34+4 12+3      a seven split between two men (in that order); each man is named by where
                   he stood before the card
    34x50          (11) change places with the opponent's man on 50
    sorry 50       (Sorry) a man from start onto 50, whose man goes back to its start
    pass           only when no move is possible (or, with an 11, when no man can go forward 11:
                   the swap is optional)
Where the patent is silent we follow the classic published rules (Parker Brothers' Sorry!): a
player must move if he can; a man may not land on one of its own colour; after a swap or a Sorry
only the moving player's man slides if it lands on a slide's first division; a player who cannot
go forward 11 need not swap.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import show
from ...referee.contract import Refused
from .board import Geometry

FORWARD = {"1": 1, "2": 2, "3": 3, "5": 5, "7": 7, "8": 8, "10": 10, "11": 11, "12": 12}
BACKWARD = {"4": 4, "10": 1}
CARDS = ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")

Loc = tuple  # ("start",) ("track", i) ("safety", k) ("home",)


def loc_name(loc: Loc) -> str:
    if loc[0] == "track":
        return str(loc[1] + 1)
    if loc[0] == "safety":
        return f"s{loc[1] + 1}"
    return loc[0]


def parse_loc(text, g: Geometry) -> Loc:
    t = str(text).strip().lower()
    if t in ("start", "home"):
        return (t,)
    if t.isdigit() and 1 <= int(t) <= g.track:
        return ("track", int(t) - 1)
    if t.startswith("s") and t[1:].isdigit() and 1 <= int(t[1:]) <= g.safety_length:
        return ("safety", int(t[1:]) - 1)
    raise ValueError(f"{show(text)} is not a place: start, home, 1 to {g.track}, or s1 to s{g.safety_length}")


def square(colour: str, loc: Loc):
    """The board square a man of colour stands on at loc, or None (start and home hold any number
    of men). The track is shared; each safety track belongs to its own colour."""
    if loc[0] == "track":
        return loc
    if loc[0] == "safety":
        return ("safety", colour, loc[1])
    return None


@dataclass(frozen=True)
class Position:
    men: dict  # colour -> tuple of 4 locations

    def man_on(self, colour: str, loc: Loc):
        """(colour, index) of the man on the square a man of colour calls loc, or None."""
        where = square(colour, loc)
        if where is None:
            return None
        for c, men in self.men.items():
            for k, m in enumerate(men):
                if square(c, m) == where:
                    return c, k
        return None

    def crowded_square(self):
        """A square two men stand on (name, colours), or None: the rules never allow one."""
        seen = {}
        for c, men in self.men.items():
            for m in men:
                where = square(c, m)
                if where is None:
                    continue
                if where in seen:
                    return loc_name(m), (seen[where], c)
                seen[where] = c
        return None


def initial_position(colours) -> Position:
    return Position({c: (("start",),) * 4 for c in colours})


@dataclass
class Effects:
    bumps: list = field(default_factory=list)      # (colour, from) sent to start by landing on them
    slides: list = field(default_factory=list)     # (from, to, [(colour, where) sent back])
    swapped: tuple | None = None
    note: str = ""                                 # why a pass is allowed

    def text(self) -> str:
        parts = [self.note] if self.note else []
        parts += [f"{c} on {w} goes back to start" for c, w in self.bumps]
        for a, b, sent in self.slides:
            s = f"slides {a} to {b}"
            if sent:
                s += " sending back " + ", ".join(f"{c} on {w}" for c, w in sent)
            parts.append(s)
        return "; ".join(parts)


def step_forward(g: Geometry, colour: str, loc: Loc) -> Loc:
    side = g.side(colour)
    if loc[0] == "track":
        return ("safety", 0) if loc[1] == side.entry else ("track", (loc[1] + 1) % g.track)
    if loc[0] == "safety":
        return ("safety", loc[1] + 1) if loc[1] + 1 < g.safety_length else ("home",)
    raise Refused("exact count", "home is reached by exact count only")


def step_back(g: Geometry, colour: str, loc: Loc) -> Loc:
    if loc[0] == "track":
        return ("track", (loc[1] - 1) % g.track)
    if loc[0] == "safety":
        return ("safety", loc[1] - 1) if loc[1] > 0 else ("track", g.side(colour).entry)
    raise Refused("home", "a man in home never moves")


def _land(g: Geometry, pos: Position, colour: str, k: int, dest: Loc, fx: Effects) -> Position:
    """Put man k of colour on dest: no two men on a division, bump an opponent, then slide."""
    occ = pos.man_on(colour, dest)
    if occ:
        # Only the track is shared: a man on a safety square is always of the mover's colour.
        if occ[0] == colour and occ[1] != k:
            raise Refused("one man a division", f"your own man is already on {loc_name(dest)}")
        if occ[0] != colour:
            fx.bumps.append((occ[0], loc_name(dest)))
            pos = _to_start(pos, occ)
    men = list(pos.men[colour])
    men[k] = dest
    pos = Position({**pos.men, colour: tuple(men)})
    return _slide(g, pos, colour, k, dest, fx)


def _slide(g: Geometry, pos: Position, colour: str, k: int, dest: Loc, fx: Effects) -> Position:
    """A man ending on the first division of another colour's slide goes to its end, and every
    man in its path, whatever his colour, goes back to start."""
    sl = g.slide_at(dest[1]) if dest[0] == "track" else None
    if sl and sl.colour != colour:
        path = sl.squares(g.track)[1:]
        sent = []
        for sq in path:
            occ = pos.man_on(colour, ("track", sq))
            if occ and not (occ[0] == colour and occ[1] == k):
                sent.append((occ[0], str(sq + 1)))
                pos = _to_start(pos, occ)
        end = ("track", path[-1])
        men = list(pos.men[colour])
        men[k] = end
        pos = Position({**pos.men, colour: tuple(men)})
        fx.slides.append((loc_name(dest), loc_name(end), sent))
    return pos


def _to_start(pos: Position, occ) -> Position:
    colour, k = occ
    men = list(pos.men[colour])
    men[k] = ("start",)
    return Position({**pos.men, colour: tuple(men)})


def _man(pos: Position, colour: str, loc: Loc) -> int:
    for k, m in enumerate(pos.men[colour]):
        if m == loc:
            return k
    raise Refused("no such man", f"no {colour} man on {loc_name(loc)}")


def _move_man(g, pos, colour, k, n, forward, fx) -> Position:
    loc = pos.men[colour][k]
    if loc == ("home",):
        raise Refused("home", "a man in home never moves")
    if loc == ("start",):
        raise Refused("start", "a man leaves start only with a 1, a 2 (out) or a Sorry")
    cur = loc
    for _ in range(n):
        cur = step_forward(g, colour, cur) if forward else step_back(g, colour, cur)
    return _land(g, pos, colour, k, cur, fx)


def play(g: Geometry, pos: Position, colour: str, card: str, move: str) -> tuple[Position, Effects]:
    """The position after colour plays card as move, or Refused naming the rule."""
    card = str(card).lower()
    if card not in CARDS:
        raise Refused("card", f"no card {show(card)}: the pack has {', '.join(CARDS)}")
    words = move.lower().split()
    fx = Effects()
    if not words:
        raise Refused("notation", "an empty move")
    if words[0] == "pass":
        if len(words) != 1:
            raise Refused("notation", f"cannot read {show(move)}: `pass` stands alone")
        return pos, _pass(_moves(g, pos, colour, card), card)
    if words[0] == "out":
        if len(words) != 1:
            raise Refused("notation", f"cannot read {show(move)}: `out` stands alone")
        if card not in ("1", "2"):
            raise Refused("card", "only a 1 or a 2 brings a man out of start")
        if ("start",) not in pos.men[colour]:
            raise Refused("start", f"no {colour} man in start")
        return _land(g, pos, colour, _man(pos, colour, ("start",)), ("track", g.side(colour).exit), fx), fx
    if words[0] == "sorry":
        if card != "sorry" or len(words) != 2:
            raise Refused("card", "only a Sorry card plays `sorry DIVISION`")
        if ("start",) not in pos.men[colour]:
            raise Refused("sorry", f"no {colour} man in start: the Sorry cannot be used")
        target = _parse(words[1], g)
        occ = pos.man_on(colour, target) if target[0] == "track" else None
        if not occ or occ[0] == colour:
            raise Refused("sorry", f"no opponent's man on division {words[1]} of the track")
        return _land(g, pos, colour, _man(pos, colour, ("start",)), target, fx), fx
    if len(words) == 1 and "x" in words[0]:
        if card != "11":
            raise Refused("card", "only an 11 changes places with an opponent")
        a, b = (_parse(w, g) for w in words[0].split("x", 1))
        if a[0] != "track":
            raise Refused("swap", "your man must be on the track (not in start, safety or home)")
        occ = pos.man_on(colour, b) if b[0] == "track" else None
        if not occ or occ[0] == colour:
            raise Refused("swap", f"no opponent's man on division {loc_name(b)} of the track")
        k = _man(pos, colour, a)
        fx.swapped = (loc_name(a), loc_name(b), occ[0])
        other, men = list(pos.men[occ[0]]), list(pos.men[colour])
        other[occ[1]], men[k] = a, b
        pos = Position({**pos.men, occ[0]: tuple(other), colour: tuple(men)})
        return _slide(g, pos, colour, k, b, fx), fx
    parts = [_parse_step(w, g) for w in words]
    if len(parts) == 2:
        return _split_seven(g, pos, colour, card, parts, fx), fx
    if len(parts) != 1:
        raise Refused("notation", f"cannot read {show(move)}")
    loc, forward, n = parts[0]
    allowed = FORWARD.get(card) if forward else BACKWARD.get(card)
    if allowed != n:
        want = []
        if card in FORWARD:
            want.append(f"{FORWARD[card]} forward")
        if card in BACKWARD:
            want.append(f"{BACKWARD[card]} backward")
        raise Refused("card", f"a {card} moves a man {' or '.join(want) or 'from start to an opponent'}")
    return _move_man(g, pos, colour, _man(pos, colour, loc), n, forward, fx), fx


def _split_seven(g, pos, colour, card, parts, fx) -> Position:
    """A seven split between two men. Each half names its man by where he stood before the card,
    so the second half can never move the first half's man again, nor a man it sent back."""
    if card != "7":
        raise Refused("card", "only a 7 may be split between two men")
    (l1, f1, n1), (l2, f2, n2) = parts
    if not (f1 and f2) or n1 + n2 != 7 or n1 < 1 or n2 < 1:
        raise Refused("split seven", "a split seven moves two men forward, the two counts adding up to 7")
    if l1 == l2:
        raise Refused("split seven", "a split seven moves two different men")
    k1, k2 = _man(pos, colour, l1), _man(pos, colour, l2)
    pos = _move_man(g, pos, colour, k1, n1, True, fx)
    if pos.men[colour][k2] != l2:
        raise Refused("split seven", f"the first part sent your man on {loc_name(l2)} back to start, so the "
                                     "second part has no man to move (a split seven moves two different men, "
                                     "each named by where he stood before the card)")
    return _move_man(g, pos, colour, k2, n2, True, fx)


def _pass(options: list, card: str) -> Effects:
    """A pass, given every move the card allows, or Refused. A pass is allowed when no move is
    possible, or, with an 11, when no man can go forward 11: the patent's 11 says the player "can
    reverse the positions", and the published rules let him forfeit rather than change places."""
    swaps = [m for m in options if card == "11" and "x" in m[0]]
    required = [m for m in options if m not in swaps]
    if required:
        raise Refused("must move", f"a move is possible (e.g. {required[0][0]}); a player must move if he can")
    return Effects(note="no man can go forward 11, and the swap is optional" if swaps else "no move possible")


def _parse(text, g):
    try:
        return parse_loc(text, g)
    except ValueError as exc:
        raise Refused("notation", str(exc)) from None


def _parse_step(word: str, g: Geometry):
    for sign in ("+", "-"):
        if sign in word[1:]:
            i = word.index(sign, 1)
            where, n = word[:i], word[i + 1:]
            if not n.isdigit():
                break
            return _parse(where, g), sign == "+", int(n)
    raise Refused("notation", f"{show(word)}: write a move as DIVISION+N or DIVISION-N (e.g. 34+7, s2-4)")


def legal_moves(g: Geometry, pos: Position, colour: str, card: str) -> list[tuple[str, Position, Effects]]:
    """Every move colour may play with card, `pass` included when it is allowed: (notation,
    resulting position, what it does). A split seven is listed in each order it is allowed in."""
    card = str(card).lower()
    out = _moves(g, pos, colour, card)
    try:
        return out + [("pass", pos, _pass(out, card))]
    except Refused:
        return out


def candidate_moves(pos: Position, colour: str, card: str) -> list[str]:
    """Every move notation that could be legal for colour with card (pass aside): each of his men
    forward or backward by the card, every ordered pair of his men for a split seven, a swap with
    every opponent on the track, a Sorry onto every opponent on the track."""
    card = str(card).lower()
    men = [m for m in pos.men[colour] if m[0] in ("track", "safety")]
    opponents = [m for c, ms in pos.men.items() if c != colour for m in ms if m[0] == "track"]
    cands = []
    if card in ("1", "2"):
        cands.append("out")
    for m in dict.fromkeys(men):
        if card in FORWARD:
            cands.append(f"{loc_name(m)}+{FORWARD[card]}")
        if card in BACKWARD:
            cands.append(f"{loc_name(m)}-{BACKWARD[card]}")
    if card == "7":
        for a in men:
            for b in men:
                if a != b:
                    cands += [f"{loc_name(a)}+{n} {loc_name(b)}+{7 - n}" for n in range(1, 7)]
    if card == "11":
        cands += [f"{loc_name(a)}x{loc_name(b)}" for a in men if a[0] == "track" for b in opponents]
    if card == "sorry":
        cands += [f"sorry {loc_name(b)}" for b in opponents]
    return cands


def _moves(g: Geometry, pos: Position, colour: str, card: str) -> list[tuple[str, Position, Effects]]:
    out = []
    for c in candidate_moves(pos, colour, card):
        try:
            p, fx = play(g, pos, colour, card, c)
        except Refused:
            continue
        out.append((c, p, fx))
    return out
