"""The Cubes position as a drawing, seen from above as the first player sits: the grid with its
cell names (columns a.. from the left, rows 1.. from the bottom, as engraved on the frame), a
cube on every cell that has one, holes left empty, each pawn a disc and each king cube a larger
crowned square in its player's colour. Cells the last turn changed are outlined.

`grid(state)` says where each cell lies in the drawing (for a page that turns taps into cells)."""
from __future__ import annotations

from ...colour import Colour
from ...draw import Drawing, PathBuilder, Style

CELL = 12.0        # mm a cell
LABEL = 6.0        # mm for the letters and numbers round the grid
HOLE = Colour(rgb=(0.34, 0.31, 0.27))
FRAME = Colour(rgb=(0.55, 0.42, 0.28))
CUBE = Colour(rgb=(0.93, 0.86, 0.72))
CUBE_EDGE = Colour(rgb=(0.70, 0.60, 0.45))
INK = Colour(rgb=(0.1, 0.1, 0.1))
WHITE = Colour(rgb=(1, 1, 1))
LAST = Colour(rgb=(0.85, 0.1, 0.1))
# One colour a player, in seating order: light and dark for two, four distinct ones for four.
PLAYER_COLOURS = {2: (Colour(rgb=(0.97, 0.97, 0.95)), Colour(rgb=(0.12, 0.12, 0.14))),
                  4: (Colour(rgb=(0.85, 0.2, 0.18)), Colour(rgb=(0.15, 0.4, 0.75)),
                      Colour(rgb=(0.95, 0.75, 0.1)), Colour(rgb=(0.15, 0.55, 0.25)))}


def player_colours(n_players: int) -> tuple[Colour, ...]:
    return PLAYER_COLOURS.get(n_players, PLAYER_COLOURS[4])


def grid(state) -> dict:
    n = state.position.n
    return {"n": n, "x0": LABEL, "y0": LABEL, "cell": CELL, "rows_from_bottom": True,
            "columns": [chr(ord("a") + c) for c in range(n)]}


def _cells_changed(state, before) -> set:
    if before is None:
        return set()
    a, b = state.position, before.position

    def what(pos, cell):
        p = pos.pawn_at(cell)
        return (cell in pos.cubes, p[1] if p else None, pos.king_at(cell))
    return {(c, r) for c in range(a.n) for r in range(a.n) if what(a, (c, r)) != what(b, (c, r))}


def draw_position(state, header: dict | None = None, before=None) -> Drawing:
    """The whole position: the frame (draw_background) with the game on it (draw_foreground)."""
    d = _frame(state.position.n)
    d.place(draw_foreground(state, header, before))
    return d


def draw_background(header: dict | None = None) -> Drawing:
    """What no turn changes: the frame, its holes and the cell names round it, for the record's
    grid. The page fetches it once and lays the cubes and pawns over it."""
    from .referee import new_game
    return _frame(new_game(header or {}, None).position.n)


def _frame(n: int) -> Drawing:
    size = n * CELL + 2 * LABEL
    d = Drawing(size, size, least_text=0.0)   # for a screen, which zooms
    d.rect(0, 0, size, size, Style(fill=FRAME))
    d.rect(LABEL, LABEL, n * CELL, n * CELL, Style(fill=HOLE))
    for k in range(n):
        x = LABEL + (k + 0.5) * CELL
        d.fit_text(x - 3, 1.2, 6, 3.4, chr(ord("a") + k), WHITE, max_size=4.5)
        d.fit_text(x - 3, size - LABEL + 1.4, 6, 3.4, chr(ord("a") + k), WHITE, max_size=4.5)
        y = LABEL + (n - 1 - k) * CELL + CELL / 2 - 1.7
        d.fit_text(0.3, y, LABEL - 0.6, 3.4, str(k + 1), WHITE, max_size=4.5)
        d.fit_text(size - LABEL + 0.3, y, LABEL - 0.6, 3.4, str(k + 1), WHITE, max_size=4.5)
    return d


def draw_foreground(state, header: dict | None = None, before=None) -> Drawing:
    """What the turns made, on a clear ground the size of the frame: the cubes, the king cubes, the
    pawns, and the cells the last turn changed, outlined."""
    pos = state.position
    n = pos.n
    size = n * CELL + 2 * LABEL
    d = Drawing(size, size, least_text=0.0)   # for a screen, which zooms
    colours = player_colours(len(state.players))
    changed = _cells_changed(state, before)

    def xy(cell):    # the top-left corner of a cell; row 1 at the bottom
        c, r = cell
        return LABEL + c * CELL, LABEL + (n - 1 - r) * CELL

    for cell in sorted(pos.cubes):
        x, y = xy(cell)
        d.rect(x + 0.7, y + 0.7, CELL - 1.4, CELL - 1.4, Style(fill=CUBE, stroke=CUBE_EDGE, width=0.5), r=1.0)
    for player, cell in pos.kings.items():
        x, y = xy(cell)
        c = colours[player % len(colours)]
        d.rect(x + 1.6, y + 1.6, CELL - 3.2, CELL - 3.2, Style(fill=c, stroke=INK, width=0.6), r=1.2)
        # a crown: the king cube stands a pawn's height taller than the others
        mx, my, w = x + CELL / 2, y + CELL / 2, CELL * 0.5
        crown = PathBuilder().polygon([(mx - w / 2, my + w * 0.3), (mx - w / 2, my - w * 0.25), (mx - w / 4, my),
                                       (mx, my - w * 0.4), (mx + w / 4, my), (mx + w / 2, my - w * 0.25),
                                       (mx + w / 2, my + w * 0.3)])
        d.path(crown, Style(fill=c.mix(INK, 0.5) if sum(c.as_rgb()) > 1.5 else c.mix(WHITE, 0.6)))
    for pid, (player, cell) in pos.pawns.items():
        x, y = xy(cell)
        c = colours[player % len(colours)]
        d.circle(x + CELL / 2, y + CELL / 2 + 0.5, CELL * 0.3, Style(fill=INK))
        d.circle(x + CELL / 2, y + CELL / 2, CELL * 0.3, Style(fill=c, stroke=INK, width=0.5))
    for cell in changed:
        x, y = xy(cell)
        d.rect(x + 0.3, y + 0.3, CELL - 0.6, CELL - 0.6, Style(stroke=LAST, width=0.8), r=1.0)
    return d
