"""What the Sorry rules sheet reads and draws: its fields (the pack's and the board's numbers) and
the corner diagram: a window of the board as board.py draws it, with men before and after moves
that the referee's own rules play (rules.play), so the picture can never show an illegal move."""
from __future__ import annotations

import math

from ...layout.markup import counted
from ...colour import Colour, WHITE
from ...draw import Drawing, Path, PathBuilder, Style, compose, scale, translate
from ...errors import show
from ...layout.rules_sheet import SheetGame, place_legible, used_spec
from ...referee.contract import Refused
from ...spec import Spec
from ...units import pt
from .board import (INWARD, Geometry, cell_of, draw_board, home_spot, load_geometry, palette, side_colours,
                    start_place)
from .deck import load_deck
from .rules import Position, loc_name, parse_loc, play, step_back, step_forward


def sheet_game(spec: Spec) -> SheetGame:
    deck = load_deck(used_spec(spec, "deck", ("sorry-deck",)))
    board_spec = used_spec(spec, "board", ("sorry-board",))
    g = load_geometry(board_spec)
    slides = sorted({s.length for s in g.slides})
    fields = {"cards": str(deck.total), "markings": str(len(deck.cards)),
              "track": str(g.track), "per_side": str(g.per_side), "safety": str(g.safety_length),
              "slide_short": str(slides[0]), "slide_long": str(slides[-1])}
    for c in deck.cards:
        fields[f"count.{c['marking'].lower()}"] = str(c["count"])
    # the numbered cards, counted as the deck has them (4 each of 1, 2, 3...)
    fields["counts.numbers"] = counted([(c["marking"], c["count"]) for c in deck.cards if c["marking"].isdigit()])
    if "patent_board" in spec.data["uses"]:
        pg = load_geometry(used_spec(spec, "patent_board", ("sorry-board",)))
        lengths = sorted({s.length for s in pg.slides})
        first = pg.slides[0].start - pg.sides[0].corner          # divisions after the corner
        per_side = len(pg.slides) // len(pg.sides)
        fields.update({"patent.slides": {1: "one", 2: "two", 3: "three"}.get(per_side, str(per_side)),
                       "patent.slide": " or ".join(str(n) for n in lengths),
                       "patent.slide_after": str(first - (pg.sides[0].exit - pg.sides[0].corner))})
    diagrams = {}
    params = spec.data.get("diagrams", {})
    if "corner" in params:
        corner = Corner.from_spec(spec, board_spec, g)
        diagrams["corner"] = corner.draw
    return SheetGame(fields=fields, diagrams=diagrams)


class Corner:
    """The first side's corner of the board (where clockwise men come onto the top side): its
    slide, the start and the safety track and home of that side's colour, with men and moves."""

    def __init__(self, board_spec: Spec, g: Geometry, columns: int, rows: int, men: dict, moves: list,
                 final: Position):
        self.board_spec, self.g = board_spec, g
        self.columns, self.rows = columns, rows
        # men: colour -> [loc] before the moves; moves: [(colour, card, move, path, effects, before)];
        # final: the position after them.
        self.men, self.moves, self.final = men, moves, final

    @classmethod
    def from_spec(cls, spec: Spec, board_spec: Spec, g: Geometry) -> "Corner":
        p = spec.data["diagrams"]["corner"]
        where = ("diagrams", "corner")
        sides = [s.name for s in g.sides]
        window = p.get("window", {"columns": 9, "rows": 9})
        men: dict[str, list] = {}
        for colour, places in p["men"].items():
            if colour not in sides:
                raise spec.error(where + ("men", colour), f"not a colour of the board ({', '.join(sides)})")
            locs = []
            for k, place in enumerate(places):
                try:
                    locs.append(parse_loc(place, g))
                except ValueError as exc:
                    raise spec.error(where + ("men", colour, k), str(exc)) from None
            men[colour] = locs + [("start",)] * (4 - len(locs))
        pos = Position({c: tuple(m) for c, m in men.items()})
        crowded = pos.crowded_square()
        if crowded:
            raise spec.error(where + ("men",), f"two men on {crowded[0]} ({' and '.join(crowded[1])})")
        moves = []
        for k, mv in enumerate(p["moves"]):
            colour, card, text = str(mv["colour"]), str(mv["card"]), str(mv["move"])
            if colour not in pos.men:
                raise spec.error(where + ("moves", k, "colour"), f"{colour} has no men in this diagram")
            try:
                # The referee first: it refuses what the rules do not allow, so the path drawn
                # is only ever a legal move's.
                after, fx = play(g, pos, colour, card, text)
                path = _path(g, pos, colour, text)
            except (Refused, ValueError) as exc:
                raise spec.error(where + ("moves", k), f"the referee refuses {show(f'{colour} {card} {text}')}: {exc}") \
                    from None
            moves.append((colour, card, text, path, fx, pos))
            pos = after
        c = cls(board_spec, g, window["columns"], window["rows"], men, moves, pos)
        for colour, locs in pos.men.items():
            for loc in locs:
                if loc[0] in ("track", "safety", "home") and not c._visible(colour, loc):
                    raise spec.error(where + ("window",), f"a {colour} man ends on {loc_name(loc)}, outside "
                                                          f"the window")
        return c

    # -- geometry, in board squares from the grid's top-left
    def _centre(self, colour: str, loc, k: int = 0) -> tuple[float, float]:
        g = self.g
        at = [s.name for s in g.sides].index(colour)
        side = g.sides[at]
        dx, dy = INWARD[at]
        if loc[0] == "track":
            col, row = cell_of(g, loc[1])
            return col + 0.5, row + 0.5
        ex, ey = cell_of(g, side.entry)
        if loc[0] == "safety":
            return ex + dx * (loc[1] + 1) + 0.5, ey + dy * (loc[1] + 1) + 0.5
        if loc[0] == "home":
            cx, cy = home_spot(g, at)
            cx, cy = cx + 0.5, cy + 0.5
        else:
            cx, cy, _ = start_place(g, at)
        offsets = [(-0.42, -0.42), (0.42, -0.42), (-0.42, 0.42), (0.42, 0.42)]
        ox, oy = offsets[k % 4]
        return cx + ox, cy + oy

    def _visible(self, colour, loc) -> bool:
        x, y = self._centre(colour, loc)
        return 0 <= x <= self.columns and 0 <= y <= self.rows

    def draw(self, width: float) -> Drawing:
        g, spec = self.g, self.board_spec
        board = draw_board(spec, centre=False, start_label=False)
        q, m = spec.data["square"], spec.data.get("margin", 10)
        pal, colour = palette(spec), side_colours(spec)
        ink = pal.get("ink", Colour(rgb=(0.1, 0.1, 0.1)))
        side0 = g.sides[0]
        pad = 0.35 * q                                  # a strip of the board's margin round the window
        win_w, win_h = self.columns * q + pad, self.rows * q + pad
        s = width / win_w
        d = Drawing(width, win_h * s)
        x0, y0 = m - pad, m - pad

        def at(u, v):                                   # board squares -> diagram mm
            return (m + u * q - x0) * s, (m + v * q - y0) * s
        # The window: the track along the top and the left, and the first side's start, safety
        # track and home inside, a plain rectangle of the board without its centre (the title
        # and the card spaces).
        clip_path = Path(PathBuilder().polygon([(x0, y0), (x0 + win_w, y0), (x0 + win_w, y0 + win_h),
                                                (x0, y0 + win_h)]).ops, Style())
        place_legible(d, board, compose(scale(s), translate(-x0, -y0)), clip=clip_path)
        cell = q * s
        # The division numbers the moves are written with, legible (the board's own are too small here).
        for i in range(g.track):
            col, row = cell_of(g, i)
            if col < self.columns and row < self.rows and (row == 0 or col == 0):
                x, y = at(col, row)
                d.text(x + cell * 0.08, y + cell * 0.94, str(i + 1), pt(6.5), ink, font="sans")
        label = pt(7.5)
        # START beside its circle, not on it: the men in it would cover the word.
        su, sv, srad = start_place(g, 0)
        sx_, sy_ = at(su + srad + 0.15, sv)
        d.text(sx_, sy_ + label * 0.36, "start", label, ink, font="sans-bold")
        hc = at(*self._centre(side0.name, ("home",), 3))
        hc = (hc[0] - cell * 0.42, hc[1] - cell * 0.42)
        d.text(hc[0], hc[1] + label * 0.36, "HOME", label, ink, font="sans-bold", align="centre")
        ex, ey = at(*self._centre(side0.name, ("safety", 3)))
        d.text(ex + cell * 0.62, ey + label * 0.36, "safety track", label, ink, font="sans-bold")
        r = cell * 0.3
        finals = self.final.men
        # Where the moving men stood: dashed outlines.
        for c, locs in self.men.items():
            for k, loc in enumerate(locs):
                if loc != ("start",) and finals[c][k] != loc and finals[c][k] != ("start",):
                    x, y = at(*self._centre(c, loc, k))
                    d.circle(x, y, r, Style(fill=colour[c].mix(WHITE, 0.7), stroke=ink, width=0.25, dash=(0.8, 0.6)))
        # Each move: the squares stepped on, then the slide (a dashed arrow along the slide's outer
        # edge), and the move's number where it began.
        # Every man before and after, and every slide's marks: what a move's badge must not cover.
        # Each as (x, y, how far a badge's edge keeps from it).
        badge_r = cell * 0.19
        busy = [(*at(*self._centre(c, loc, k)), r + badge_r) for c, locs in self.men.items()
                for k, loc in enumerate(locs) if loc[0] != "start"]
        busy += [(*at(*self._centre(c, loc, k)), r + badge_r) for c, locs in finals.items()
                 for k, loc in enumerate(locs) if loc[0] != "start"]
        busy += [(*at(*self._centre(side0.name, ("track", i))), cell * 0.3 + badge_r) for sl in g.slides
                 for i in sl.squares(g.track)]
        for i in range(g.track):                        # the division numbers, at each square's foot
            col, row = cell_of(g, i)
            if col < self.columns and row < self.rows and (row == 0 or col == 0):
                x, y = at(col, row)
                busy.append((x + cell * 0.2, y + cell * 0.85, cell * 0.12 + badge_r))
        badges = []
        for n, (c, card, text, path, fx, before) in enumerate(self.moves, 1):
            pts = [at(*self._centre(c, loc)) for loc in path]
            pb = PathBuilder().move(*pts[0])
            for p in pts[1:-1]:
                pb.line(*p)
            # The arrow stops at the man's edge; on a slide it stops at the division's edge, clear
            # of the slide's triangle (the man is drawn where the slide took him). It is drawn in
            # a dark shade of the man's colour on a white edge, so it shows on any track.
            end = _short(pts[-2], pts[-1], cell * 0.5 if fx.slides else r * 1.1)
            pb.line(*end)
            shade = colour[c].mix(ink, 0.35)
            d.path(pb, Style(stroke=WHITE, width=1.3))
            d.path(pb, Style(stroke=shade, width=0.6))
            _arrow_head(d, pts[-2], end, shade, cell * 0.26)
            busy += [(x, y, badge_r + 0.6) for x, y in _along(pts[:-1] + [end], cell * 0.1)]
            for a, b, sent in fx.slides:
                la, lb = parse_loc(a, g), parse_loc(b, g)
                pa, pe = at(*self._centre(c, la)), at(*self._centre(c, lb))
                ox, oy = INWARD[la[1] // (g.per_side - 1)]
                off = -cell * 0.66
                a2 = (pa[0] + ox * off, pa[1] + oy * off)
                b2 = _short(a2, (pe[0] + ox * off, pe[1] + oy * off), r * 0.6)
                d.line(*a2, *b2, Style(stroke=ink, width=0.5, dash=(1.0, 0.7)))
                _arrow_head(d, a2, b2, ink, cell * 0.24)
                busy += [(x, y, badge_r + 0.6) for x, y in _along([a2, b2], cell * 0.1)]
            badges.append((n, pts[0]))
        # Each move's number beside where it began, where it is farthest from men, paths and slides'
        # arrows, every move's (a badge on a slide's triangle reads as part of the board; one on an
        # arrow hides which way it goes).
        for n, (bx, by) in badges:
            around = [(bx + cell * f * math.cos(a), by + cell * f * math.sin(a)) for f in (0.55, 0.7, 0.85)
                      for a in (k * math.pi / 8 for k in range(16))]
            inside = [p for p in around if cell * 0.2 <= p[0] <= d.width - cell * 0.2
                      and cell * 0.2 <= p[1] <= d.height - cell * 0.2] or around
            badge = max(inside, key=lambda p: min(math.hypot(p[0] - x, p[1] - y) - reach for x, y, reach in busy))
            busy.append((*badge, 2 * badge_r + 0.3))
            d.circle(*badge, badge_r, Style(fill=ink, stroke=WHITE, width=0.3))
            d.text(badge[0], badge[1] + pt(7) * 0.36, str(n), pt(7), WHITE, font="sans-bold", align="centre")
        # The men after the moves; a man sent back to start is crossed out where he stood.
        for c, locs in finals.items():
            for k, loc in enumerate(locs):
                was = self.men[c][k]
                if loc == ("start",) and was != ("start",):
                    x, y = at(*self._centre(c, was, k))
                    d.circle(x, y, r, Style(fill=colour[c], stroke=ink, width=0.3))
                    t = r * 0.95
                    d.line(x - t, y - t, x + t, y + t, Style(stroke=ink, width=0.6))
                    d.line(x - t, y + t, x + t, y - t, Style(stroke=ink, width=0.6))
                    continue
                if loc == ("start",) and c != side0.name:
                    continue                            # other colours' starts are out of the window
                x, y = at(*self._centre(c, loc, k))
                d.circle(x, y, r, Style(fill=colour[c], stroke=ink, width=0.3))
                d.circle(x - r * 0.3, y - r * 0.3, r * 0.28, Style(fill=WHITE.mix(colour[c], 0.35)))
        return d


def _along(points, step: float) -> list:
    """Points every `step` mm along a polyline (what a badge must keep clear of)."""
    out = [points[0]]
    for a, b in zip(points, points[1:]):
        n = max(1, int(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5 / step))
        out += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(1, n + 1)]
    return out


def _short(a, b, by: float):
    """The point `by` short of b on the way from a (an arrow stops at a man's edge)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(1e-9, (dx * dx + dy * dy) ** 0.5)
    return b[0] - dx / n * by, b[1] - dy / n * by


def _path(g: Geometry, pos: Position, colour: str, move: str) -> list:
    """The places a man passes through on a simple move ("59+3", "s2-4", "out"), from where he
    stands to where he lands (before any slide)."""
    side = g.side(colour)
    word = move.strip().lower()
    if word == "out":
        return [("start",), ("track", side.exit)]
    for sign in ("+", "-"):
        if sign in word[1:]:
            where, n = word.split(sign, 1)
            loc = parse_loc(where, g)
            path = [loc]
            if not n.strip().isdigit() or int(n) > g.track:
                raise Refused("diagram", f"a move of 1 to {g.track} divisions, not {show(move)}")
            for _ in range(int(n)):
                loc = step_forward(g, colour, loc) if sign == "+" else step_back(g, colour, loc)
                path.append(loc)
            return path
    raise Refused("diagram", f"the diagram draws simple moves (59+3, s2-4, out), not {show(move)}")


def _arrow_head(d: Drawing, a, b, colour: Colour, size: float) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(1e-9, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / n, dy / n
    px, py = -uy, ux
    tip = (b[0], b[1])
    d.polygon([tip, (tip[0] - ux * size + px * size * 0.55, tip[1] - uy * size + py * size * 0.55),
               (tip[0] - ux * size - px * size * 0.55, tip[1] - uy * size - py * size * 0.55)], Style(fill=colour))
