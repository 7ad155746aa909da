"""What the Capitals rules sheet reads and draws: the pack's and the map's numbers and the special
cards as fields, and the enclosure diagram: a window of the world map as board.py draws it, with
walls laid card by card through the referee's own rules (rules.play_turn), the enclosure they
close and who is credited with it."""
from __future__ import annotations

import re
import string

from ...colour import WHITE
from ...draw import Drawing, Rect, Style, compose, scale, translate
from ...layout.rules_sheet import SheetGame, place_legible, used_spec
from ...referee.contract import Refused
from ...spec import Spec
from ...units import pt
from .board import draw_board, draw_marker, marker_places, square_box
from .data import WorldMap, load_board
from .geo import parse_square
from .rules import Board, Card, Position, play_turn, rect_name


def _board_of(wm: WorldMap) -> Board:
    """The referee's view of the board (as referee.py makes it), from the board spec in use."""
    cards = {c.name.lower(): Card(c.name, c.capital, c.square, c.letters, c.bracket, c.special)
             for c in wm.deck.countries}
    sites = {sq: tuple(c.name for c in cs) for sq, cs in wm.sites.items()}
    return Board(wm.projection.rows, wm.projection.columns, cards, sites)


def sheet_game(spec: Spec) -> SheetGame:
    wm = load_board(used_spec(spec, "board", ("capitals-board",)))
    deck = wm.deck
    special = [c for c in deck.countries if c.special]
    fields = {"cards": str(len(deck.countries)), "ordinary": str(len(deck.countries) - len(special)),
              "special": str(len(special)), "columns": str(wm.projection.columns), "rows": str(wm.projection.rows),
              "last_row": string.ascii_uppercase[wm.projection.rows - 1], "sites": str(len(deck.countries))}
    for c in deck.countries:
        key = re.sub(r"[^a-z0-9]+", "-", c.name.lower()).strip("-")      # "Germany, West" -> germany-west
        fields[f"card.{key}.capital"] = c.capital
        fields[f"card.{key}.square"] = c.coords
        fields[f"card.{key}.letters"] = str(c.letters)
        fields[f"card.{key}.rank"] = str(c.rank)
        if c.special:
            for k, v in c.special.items():
                fields[f"card.{key}.{k}"] = str(v)
    low = 0.0
    for bracket, below, _ in deck.brackets:
        fields[f"bracket.{bracket}"] = (f"under {below:g}" if not low else f"{low:g} to {below:g}") \
            if below is not None else f"over {low:g}"
        low = below if below is not None else low
    palette = dict(deck.palette)
    diagrams = {}
    if "enclosure" in spec.data.get("diagrams", {}):
        ex = Example.from_spec(spec, wm)
        fields.update(ex.fields())
        diagrams["enclosure"] = ex.draw
    return SheetGame(palette=palette, fields=fields, diagrams=diagrams)


class Example:
    """Walls laid turn by turn in a window of the map, and the enclosures they close."""

    def __init__(self, wm: WorldMap, window, position: Position, turns):
        self.wm, self.window, self.position, self.turns = wm, window, position, turns

    @classmethod
    def from_spec(cls, spec: Spec, wm: WorldMap) -> "Example":
        p = spec.data["diagrams"]["enclosure"]
        where = ("diagrams", "enclosure")
        try:
            (r0, c0), (r1, c1) = (parse_square(s) for s in p["window"])
        except ValueError as exc:
            raise spec.error(where + ("window",), str(exc)) from None
        if r1 < r0 or c1 < c0 or r1 >= wm.projection.rows or c1 >= wm.projection.columns:
            raise spec.error(where + ("window",), "the window is its top-left square, then its bottom-right, "
                                                  "on the map")
        pos = Position(_board_of(wm), tuple(str(x) for x in p["players"]))
        turns = []
        for k, e in enumerate(p["entries"]):
            plays = [(str(x["card"]), [str(w) for w in (x["wall"] if isinstance(x["wall"], list) else [x["wall"]])])
                     for x in e["play"]]
            try:
                res = play_turn(pos, str(e["player"]), plays)
            except Refused as exc:
                raise spec.error(where + ("entries", k), f"the referee refuses this turn: {exc}") from None
            pos = res.position
            turns.append((str(e["player"]), res.walls))
        for w in pos.walls:
            for (r, c) in w.points():
                if not (r0 <= r <= r1 + 1 and c0 <= c <= c1 + 1):
                    raise spec.error(where + ("window",), f"the wall {w.name()} runs out of the window")
        return cls(wm, (r0, c0, r1, c1), pos, turns)

    def fields(self) -> dict[str, str]:
        """The example's outcome, for the caption: each enclosure closed, who closed it, and its
        markers (`enclosure.rect`, `enclosure.player`, `enclosure.markers`: the last one closed)."""
        out = {"example.players": " and ".join(self.position.players)}
        for n, (player, _) in enumerate(self.turns, 1):
            out[f"turn.{n}.player"] = player
        if self.position.enclosures:
            last = self.position.enclosures[-1]
            markers = sum(len(self.position.board.sites.get(sq, ())) for sq in last.squares())
            out.update({"enclosure.rect": rect_name(last.rect), "enclosure.player": last.player,
                        "enclosure.markers": str(markers), "enclosure.turn": str(last.turn)})
        return out

    def draw(self, width: float) -> Drawing:
        wm = self.wm
        r0, c0, r1, c1 = self.window
        sq, m = wm.square, wm.margin
        p = wm.palette
        label = pt(7)
        lm, tm = 4.2, 3.8                        # room for the row letters and column numbers
        cols, rows = c1 - c0 + 1, r1 - r0 + 1
        s = (width - lm) / (cols * sq)
        cell = sq * s
        d = Drawing(width, tm + rows * cell + 0.4)
        bx, by = m + c0 * sq, m + r0 * sq
        win = (bx, by, bx + cols * sq, by + rows * sq)
        to_diagram = compose(translate(lm, tm), compose(scale(s), translate(-bx, -by)))
        place_legible(d, draw_board(wm, markers=False), to_diagram,
                      clip=Rect(bx, by, cols * sq, rows * sq, Style()), window=win)
        # The markers, drawn here rather than with the map: one that a wall of the example would
        # cover is moved into its square, clear of the wall (the map's names are too small to
        # print at this scale, so nothing else moves with it).
        wall_w = 1.9 / s                        # the walls as drawn below (with their white edge), map mm
        lines = []
        for _, walls in self.turns:
            for w in walls:
                (ra, ca), (rb, cb) = w.ends()
                lines.append((m + ca * sq, m + ra * sq, m + cb * sq, m + rb * sq))
        # The markers numbered as on the map (colour alone does not tell every bracket apart): the
        # number at 6.5 pt at least, each disc grown with it where the diagram draws the map smaller.
        from .board import MARKER_NUMBER
        grow = max(1.0, pt(6.5) / (MARKER_NUMBER * s))
        markers = []
        for (row, col), sites in sorted(wm.sites.items()):
            if not (r0 <= row <= r1 and c0 <= col <= c1):
                continue
            x, y, size, _ = square_box(wm, row, col)
            for c, (mx, my, r, _) in zip(sites, marker_places(wm, row, col, sites)):
                r *= grow
                mx, my = _clear_of(lines, mx, my, r + wall_w / 2 + 0.25, (x, y, x + size, y + size))
                markers.append((c, mx, my, r))
        with d.group(to_diagram):
            for c, mx, my, r in markers:
                draw_marker(d, wm, c.bracket, mx, my, r, size=MARKER_NUMBER * grow)
        d.rect(lm, tm, cols * cell, rows * cell, Style(stroke=p["frame"], width=0.35))
        for i in range(cols):
            d.text(lm + (i + 0.5) * cell, tm - 1.0, str(c0 + i + 1), label, p["frame"], font="sans-bold",
                   align="centre")
        for j in range(rows):
            d.text(lm / 2, tm + (j + 0.5) * cell + label * 0.36, string.ascii_uppercase[r0 + j], label, p["frame"],
                   font="sans-bold", align="centre")

        def at(r, c):                            # a lattice point -> diagram mm
            return lm + (c - c0) * cell, tm + (r - r0) * cell
        # Enclosures: a dashed line just inside, in the colour of special cards, and who holds it.
        accent = wm.deck.palette.get("special", p["frame"])
        for enc in self.position.enclosures:
            top, left, bottom, right = enc.rect
            (x0, y0), (x1, y1) = at(top, left), at(bottom, right)
            inset = cell * 0.12
            d.rect(x0 + inset, y0 + inset, x1 - x0 - 2 * inset, y1 - y0 - 2 * inset,
                   Style(stroke=accent, width=0.5, dash=(1.2, 0.8)))
        # The walls: thick strips along the lattice, as the wall pieces lie; numbered by turn.
        ink = p["ink"]
        for player, walls in self.turns:
            for w in walls:
                (ra, ca), (rb, cb) = w.ends()
                a, b = at(ra, ca), at(rb, cb)
                d.line(*a, *b, Style(stroke=WHITE, width=1.9, cap="square"))
                d.line(*a, *b, Style(stroke=ink, width=1.2, cap="square"))
        # Each wall's turn number beside its middle, on the side away from any enclosure.
        inside = [enc.rect for enc in self.position.enclosures]

        def enclosed(r, c):
            return any(t <= r <= b and lft <= c <= rt for t, lft, b, rt in inside)
        # A badge goes beside its wall, outside any enclosure, where it is farthest from every
        # marker and every badge already placed (a badge over a capital hides it).
        taken = [(apply_point(to_diagram, mx, my), r * s + 1.75) for _, mx, my, r in markers]
        for n, (player, walls) in enumerate(self.turns, 1):
            for w in walls:
                (ra, ca), (rb, cb) = w.ends()
                spots = []
                for k in range(1, 10):
                    t = k / 10
                    mr, mc = ra + (rb - ra) * t, ca + (cb - ca) * t
                    sides = [(mr - 0.42, mc), (mr + 0.42, mc)] if w.horizontal else [(mr, mc - 0.42), (mr, mc + 0.42)]
                    spots += [p_ for p_ in sides if r0 <= p_[0] <= r1 + 1 and c0 <= p_[1] <= c1 + 1]
                free = [p_ for p_ in spots if not enclosed(*p_)] or spots

                def room(p_):
                    x, y = at(*p_)
                    return min(((x - q[0]) ** 2 + (y - q[1]) ** 2) ** 0.5 - reach for q, reach in taken)
                br, bc = max(free, key=room)
                mx, my = at(br, bc)
                taken.append(((mx, my), 1.75))
                d.circle(mx, my, 1.75, Style(fill=ink, stroke=WHITE, width=0.3))
                d.text(mx, my + label * 0.36, str(n), label, WHITE, font="sans-bold", align="centre")
        return d


def apply_point(m, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def _clear_of(lines, mx: float, my: float, keep: float, square) -> tuple[float, float]:
    """A marker's centre moved the least way out of reach of the walls (each an axis-aligned
    segment), within its square."""
    x0, y0, x1, y1 = square
    for ax, ay, bx, by in lines:
        if ax == bx and min(ay, by) - keep < my < max(ay, by) + keep and abs(mx - ax) < keep:
            mx = ax + keep if mx >= ax else ax - keep
        elif ay == by and min(ax, bx) - keep < mx < max(ax, bx) + keep and abs(my - ay) < keep:
            my = ay + keep if my >= ay else ay - keep
    return min(max(mx, x0 + 0.3), x1 - 0.3), min(max(my, y0 + 0.3), y1 - 0.3)
