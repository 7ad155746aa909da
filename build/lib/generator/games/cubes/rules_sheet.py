"""What the Cubes rules sheet reads and draws: the kit's numbers and set-up as fields, and the
turn diagrams: a window of the paper board (paper.py) before and after a turn that the referee's
own rules play (rules.play_turn), with the cubes, king cubes and pawns on it, arrows for the moves
and the pieces taken crossed out."""
from __future__ import annotations

from ...colour import Colour
from ...draw import Drawing, PathBuilder, Rect, Style, compose, scale, translate
from ...errors import show
from ...layout.rules_sheet import SheetGame, place_legible, used_spec
from ...referee.contract import Refused
from ...spec import Spec
from ...units import pt
from .kit import Kit, load_kit
from .paper import INK, paper_board
from .rules import DIRS, PawnMove, Position, line_through, move_pawn, parse_cell, parse_turn, play_turn, push

# The pieces as the kit makes them: birch cubes, the king cubes taller (drawn darker), the second
# player's pawns engraved dark (kit.pawn_plates), the first's plain.
CUBE = Colour(rgb=(0.87, 0.74, 0.55))
CUBE_EDGE = Colour(rgb=(0.55, 0.42, 0.25))
KING = Colour(rgb=(0.70, 0.50, 0.28))
PAWNS = (Colour(rgb=(0.98, 0.96, 0.90)), Colour(rgb=(0.17, 0.15, 0.13)))
TAKEN = Colour(rgb=(0.78, 0.12, 0.12))
PUSH = Colour(rgb=(0.12, 0.32, 0.62))


def sheet_game(spec: Spec) -> SheetGame:
    kit_spec = used_spec(spec, "kit", ("cubes-kit",))
    kit = load_kit(kit_spec)
    fields = {"grid": str(kit.grid), "start": str(kit.start_square), "cubes": str(kit.cubes),
              "kings": str(kit.kings), "pawns": str(kit.pawns_each), "players": str(kit.players),
              "cube": f"{kit.cube:g}", "king_height": f"{kit.king_height:g}", "pawn_height": f"{kit.pawn_height:g}"}
    if "four_player" in kit_spec.data:
        four = load_kit(kit_spec, four_player=True)
        fields.update({"four.grid": str(four.grid), "four.start": str(four.start_square),
                       "four.cubes": str(four.cubes), "four.kings": str(four.kings), "four.pawns": str(four.pawns_each)})
    for key in ("two_player", "four_player"):
        setup = kit_spec.data.get("setup", {}).get(key)
        if not setup:
            continue
        tag = "" if key == "two_player" else "four."
        for name, king, pawns in zip(setup["players"], setup["kings"], setup["pawns"]):
            fields[f"{tag}setup.{name}.king"] = king
            fields[f"{tag}setup.{name}.pawns"] = ", ".join(pawns)
        fields[f"{tag}setup.players"] = " and ".join(setup["players"]) if len(setup["players"]) == 2 else \
            ", ".join(setup["players"][:-1]) + " and " + setup["players"][-1]
    diagrams = {}
    for name, params in spec.data.get("diagrams", {}).items():
        turn = Turn.from_spec(spec, kit, name, params)
        diagrams[name] = turn.draw
    return SheetGame(fields=fields, diagrams=diagrams)


class Turn:
    """A position in a window of the board, a turn played on it, and what the turn took."""

    def __init__(self, kit: Kit, window, players, before: Position, moves, after: Position, taken):
        self.kit, self.window, self.players = kit, window, players
        self.before, self.moves, self.after, self.taken = before, moves, after, taken

    @classmethod
    def from_spec(cls, spec: Spec, kit: Kit, name: str, p: dict) -> "Turn":
        where = ("diagrams", name)
        n = kit.grid

        def cell(text, path):
            try:
                return parse_cell(text, n)
            except ValueError as exc:
                raise spec.error(where + path, str(exc)) from None
        (c0, r0), (c1, r1) = cell(p["window"][0], ("window", 0)), cell(p["window"][1], ("window", 1))
        if c1 < c0 or r1 < r0:
            raise spec.error(where + ("window",), "the window is its bottom-left cell, then its top-right")
        window = (c0, r0, c1, r1)
        inside = {(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}
        holes = {cell(h, ("holes", k)) for k, h in enumerate(p.get("holes", []))}
        players = list(p["pawns"])
        for pl in p.get("kings", {}):
            if pl not in players:
                players.append(pl)
        if len(players) > kit.players and "four_player" not in spec.data:
            raise spec.error(where + ("pawns",), f"{len(players)} players; the kit is for {kit.players}")
        pos = Position(n, inside - holes)
        k = 0
        for i, pl in enumerate(players):
            for j, text in enumerate(p["pawns"].get(pl, [])):
                c = cell(text, ("pawns", pl, j))
                if c not in pos.cubes:
                    raise spec.error(where + ("pawns", pl, j), f"{text} has no cube in the window")
                if pos.pawn_at(c):
                    raise spec.error(where + ("pawns", pl, j), f"two pawns on {text}")
                k += 1
                pos.pawns[f"p{k}"] = (i, c)
        for pl, text in p.get("kings", {}).items():
            c = cell(text, ("kings", pl))
            if c not in pos.cubes or pos.pawn_at(c):
                raise spec.error(where + ("kings", pl), f"{text}: a king cube stands on its own cube in the window")
            pos.kings[players.index(pl)] = c
        mover = str(p["player"])
        if mover not in players:
            raise spec.error(where + ("player",), f"{mover} has no pieces here ({', '.join(players)})")
        try:
            moves = parse_turn(str(p["turn"]), n)
            after, result = play_turn(pos, players.index(mover), moves)
        except (ValueError, Refused) as exc:
            raise spec.error(where + ("turn",), f"the referee refuses {show(str(p['turn']))}: {exc}") from None
        if not after.cubes <= inside:
            raise spec.error(where + ("turn",), "the turn pushes cubes out of the window")
        # Where the pieces taken stood when the turn was over (a pawn may have ridden a cube).
        moved = pos
        for mv in moves:
            moved = move_pawn(moved, players.index(mover), mv) if isinstance(mv, PawnMove) else push(moved, mv)
        taken = []
        for pid in result.captured:
            if pid.startswith("K"):
                taken.append(("king", int(pid[1:]), moved.kings[int(pid[1:])]))
            else:
                pl, c = moved.pawns[pid]
                taken.append(("pawn", pl, c))
        return cls(kit, window, players, pos, moves, after, taken)

    # -- drawing
    def draw(self, width: float) -> Drawing:
        c0, r0, c1, r1 = self.window
        cols, rows = c1 - c0 + 1, r1 - r0 + 1
        arrow_w = 7.0                       # between the two panels
        label = pt(6.5)
        margin = 3.6                        # row numbers to the left, column letters below
        panel = (width - arrow_w - 2 * margin) / 2
        cell = panel / cols
        height = rows * cell + margin + 0.6
        d = Drawing(width, height)
        board = paper_board(self.kit)
        for k, (pos, when) in enumerate(((self.before, "before"), (self.after, "after"))):
            x0 = margin + k * (panel + arrow_w + margin)
            self._panel(d, board, pos, x0, 0.3, cell, before=(k == 0))
            for i in range(cols):
                d.text(x0 + (i + 0.5) * cell, rows * cell + 0.3 + margin * 0.8, chr(ord("a") + c0 + i), label, INK,
                       font="sans", align="centre")
            for j in range(rows):
                d.text(x0 - margin * 0.45, 0.3 + (rows - j - 0.5) * cell + label * 0.36, str(r0 + j + 1), label, INK,
                       font="sans", align="centre")
        # The arrow from before to after.
        ax = margin + panel + arrow_w / 2
        ay = 0.3 + rows * cell / 2
        d.line(ax - arrow_w * 0.35, ay, ax + arrow_w * 0.2, ay, Style(stroke=INK, width=0.6))
        d.polygon([(ax + arrow_w * 0.4, ay), (ax + arrow_w * 0.12, ay - 1.4), (ax + arrow_w * 0.12, ay + 1.4)],
                  Style(fill=INK))
        return d

    def _xy(self, c, x0, y0, cell):
        c0, r0, c1, r1 = self.window
        return x0 + (c[0] - c0) * cell, y0 + (r1 - c[1]) * cell

    def _panel(self, d: Drawing, board: Drawing, pos: Position, x0: float, y0: float, cell: float, before: bool):
        c0, r0, c1, r1 = self.window
        kit, n = self.kit, self.kit.grid
        s = cell / kit.cell
        # The paper board's cells under the window (paper.py: a 12 mm margin, row 1 at the bottom).
        bx, by = 12.0 + c0 * kit.cell, 12.0 + (n - 1 - r1) * kit.cell
        w, h = (c1 - c0 + 1) * kit.cell, (r1 - r0 + 1) * kit.cell
        place_legible(d, board, compose(translate(x0, y0), compose(scale(s), translate(-bx, -by))),
                      clip=Rect(bx, by, w, h, Style()))
        inset = cell * 0.06
        pushes = [mv for mv in self.moves if not isinstance(mv, PawnMove)] if before else []
        for c in sorted(pos.cubes):
            x, y = self._xy(c, x0, y0, cell)
            king = c in pos.kings.values()
            d.rect(x + inset, y + inset, cell - 2 * inset, cell - 2 * inset,
                   Style(fill=KING if king else CUBE, stroke=CUBE_EDGE, width=0.25), r=cell * 0.12)
            if king:
                pl = next(p for p, kc in pos.kings.items() if kc == c)
                _crown(d, x + cell / 2, y + cell / 2, cell * 0.3, PAWNS[pl % 2], INK)
        for mv in pushes:                   # under the pawns, which ride on what is pushed
            self._arrow(d, pos, mv, x0, y0, cell)
        for pid, (pl, c) in sorted(pos.pawns.items()):
            x, y = self._xy(c, x0, y0, cell)
            d.circle(x + cell / 2, y + cell / 2, cell * 0.27, Style(fill=PAWNS[pl % 2], stroke=INK, width=0.3))
        if before:
            for mv in self.moves:
                if isinstance(mv, PawnMove):
                    self._arrow(d, pos, mv, x0, y0, cell)
        else:
            for kind, pl, c in self.taken:
                x, y = self._xy(c, x0, y0, cell)
                cx, cy, t = x + cell / 2, y + cell / 2, cell * 0.3
                d.circle(cx, cy, cell * 0.27, Style(fill=PAWNS[pl % 2], stroke=INK, width=0.3, dash=(0.6, 0.5)))
                d.line(cx - t, cy - t, cx + t, cy + t, Style(stroke=TAKEN, width=0.8))
                d.line(cx - t, cy + t, cx + t, cy - t, Style(stroke=TAKEN, width=0.8))

    def _arrow(self, d, pos, mv, x0, y0, cell):
        if isinstance(mv, PawnMove):
            a = self._xy(mv.src, x0, y0, cell)
            b = self._xy(mv.dst, x0, y0, cell)
            _arrow(d, (a[0] + cell / 2, a[1] + cell / 2), (b[0] + cell / 2, b[1] + cell / 2), INK, cell, 0.55)
            return
        # A push: a broad arrow along the line pushed, from its back end to where its front goes.
        run = line_through(pos, mv.start, mv.axis)
        dx, dy = DIRS[mv.direction]
        back = min(run, key=lambda c: c[0] * dx + c[1] * dy)
        front = max(run, key=lambda c: c[0] * dx + c[1] * dy)
        a = self._xy(back, x0, y0, cell)
        b = self._xy(front, x0, y0, cell)
        off = cell * 0.5
        start = (a[0] + off - dx * cell * 0.35, a[1] + off + dy * cell * 0.35)
        end = (b[0] + off + dx * cell * (mv.distance + 0.1), b[1] + off - dy * cell * (mv.distance + 0.1))
        _arrow(d, start, end, PUSH, cell, 1.1)


def _arrow(d: Drawing, a, b, colour: Colour, cell: float, width: float) -> None:
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    n = max(1e-9, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / n, dy / n
    head = cell * 0.32
    tip = (bx, by)
    base = (bx - ux * head, by - uy * head)
    d.line(ax, ay, base[0], base[1], Style(stroke=colour, width=width, cap="butt"))
    px, py = -uy, ux
    d.polygon([tip, (base[0] + px * head * 0.6, base[1] + py * head * 0.6),
               (base[0] - px * head * 0.6, base[1] - py * head * 0.6)], Style(fill=colour))


def _crown(d: Drawing, cx, cy, r, fill: Colour, ink: Colour) -> None:
    """A king cube's mark: a small crown."""
    pb = PathBuilder().move(cx - r, cy + r * 0.55).line(cx - r, cy - r * 0.45).line(cx - r * 0.5, cy) \
        .line(cx, cy - r * 0.7).line(cx + r * 0.5, cy).line(cx + r, cy - r * 0.45).line(cx + r, cy + r * 0.55).close()
    d.path(pb, Style(fill=fill, stroke=ink, width=0.25, join="round"))
