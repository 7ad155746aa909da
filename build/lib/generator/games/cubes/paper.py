"""The printable paper board for players without a laser: the grid at full size (cells of the
kit's size), the thick line round the start square, cell names round the edge, and the starting
set-up: on the start square's cells, each player's king cube (a crown) and pawns (rings), marked
with the player's initial and turned to face that player's side, with a key under the board."""
from __future__ import annotations

from ...colour import Colour
from ...draw import Drawing, PathBuilder, Style, rotate
from ...draw.drawing import text_block_height
from ...layout.marks import BOARD_BLEED
from .kit import Kit
from .rules import Position

INK = Colour(rgb=(0.1, 0.1, 0.1))
CELL = Colour(rgb=(0.97, 0.95, 0.9))
START = Colour(rgb=(0.92, 0.88, 0.8))
SETUP = Colour(rgb=(0.45, 0.38, 0.3))     # the set-up marks: plain to read, quiet under the cubes
KEY_SIZE = 3.2                            # mm: the key's text (9 pt)


def _side_turn(cell, n: int) -> float:
    """How far to turn a mark so it reads from the edge of the board nearest the cell (the side
    its player sits at): bottom 0, left 90, top 180, right 270 degrees."""
    c, r = cell
    dists = {0: r, 90: c, 180: n - 1 - r, 270: n - 1 - c}
    return min(dists, key=lambda k: (dists[k], k))


def _crown(d: Drawing, cx: float, cy: float, w: float, style: Style) -> None:
    h = w * 0.62
    x0, y0 = cx - w / 2, cy - h / 2
    pts = [(x0, y0 + h), (x0, y0 + h * 0.25), (x0 + w * 0.25, y0 + h * 0.6), (cx, y0),
           (x0 + w * 0.75, y0 + h * 0.6), (x0 + w, y0 + h * 0.25), (x0 + w, y0 + h)]
    d.path(PathBuilder().polygon(pts), style)


def _key_text(players: tuple[str, ...]) -> str:
    who = ", ".join(f"{p[:1].upper()} {p}" for p in players)
    return ("Start: a cube on every cell of the shaded square; on them each player's king cube (crown) "
            f"and pawns (rings), marked with the player's initial: {who}.")


def paper_board(kit: Kit, position: Position | None = None, players: tuple[str, ...] = ()) -> Drawing:
    label = 12.0                     # margin for the column letters and row numbers
    n, c = kit.grid, kit.cell
    size = n * c + 2 * label
    key_w = n * c
    key_h = text_block_height(_key_text(players), KEY_SIZE, key_w, leading=1.25) + 4.0 if position else 0.0
    height = size + key_h
    d = Drawing(size, height)
    b = BOARD_BLEED   # the paper runs into the large-format page's bleed
    d.rect(-b, -b, size + 2 * b, height + 2 * b, Style(fill=Colour(rgb=(1, 1, 1))))
    s0 = (n - kit.start_square) // 2
    d.rect(label, label, n * c, n * c, Style(fill=CELL))
    d.rect(label + s0 * c, label + s0 * c, kit.start_square * c, kit.start_square * c, Style(fill=START))
    for k in range(n + 1):
        d.line(label + k * c, label, label + k * c, label + n * c, Style(stroke=INK, width=0.35))
        d.line(label, label + k * c, label + n * c, label + k * c, Style(stroke=INK, width=0.35))
    # The patent's thicker line round the starting square.
    d.rect(label + s0 * c, label + s0 * c, kit.start_square * c, kit.start_square * c, Style(stroke=INK, width=1.6))
    for k in range(n):
        x = label + (k + 0.5) * c
        letter = chr(ord("a") + k)
        d.text(x, label - 3.5, letter, 6, INK, align="centre")
        d.text(x, label + n * c + 8.0, letter, 6, INK, align="centre")
        y = label + (n - k - 0.5) * c + 2.2   # row 1 at the bottom
        d.text(label / 2, y, str(k + 1), 6, INK, align="centre")
        d.text(size - label / 2, y, str(k + 1), 6, INK, align="centre")
    if position is not None:
        _setup(d, kit, position, players, label)
        d.text_block(label, size + 1.0, key_w, _key_text(players), KEY_SIZE, INK, font="sans", leading=1.25)
    return d


def _setup(d: Drawing, kit: Kit, pos: Position, players: tuple[str, ...], label: float) -> None:
    """Each piece's mark on its starting cell (cells are (column, row), row 0 at the bottom)."""
    n, c = kit.grid, kit.cell
    line = Style(stroke=SETUP, width=0.8, join="round")

    def centre(cell):
        return label + (cell[0] + 0.5) * c, label + (n - cell[1] - 0.5) * c

    marks = [(cell, player, "king") for player, cell in pos.kings.items()]
    marks += [(cell, player, "pawn") for player, cell in pos.pawns.values()]
    for cell, player, kind in marks:
        cx, cy = centre(cell)
        initial = players[player][:1].upper() if player < len(players) else str(player + 1)
        with d.group(rotate(_side_turn(cell, n), cx, cy)):
            if kind == "king":   # the initial in the crown's band
                _crown(d, cx, cy, c * 0.62, line)
                d.text(cx, cy + c * 0.62 * 0.31 - 1.0, initial, 4.4, SETUP, font="sans-bold", align="centre")
            else:
                d.circle(cx, cy, kit.pawn_d / 2 + 1.0, line)
                d.text(cx, cy + 1.8, initial, 5.0, SETUP, font="sans-bold", align="centre")
