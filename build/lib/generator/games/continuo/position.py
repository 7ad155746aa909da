"""The Continuo layout as a drawing: every tile as it lies (its compartments, its number on the
grid crossing nearest its printed top-left corner, so its rotation can be read), the last tile
outlined, and a margin of empty grid round the layout where the next tile may go, with row and
column numbers as the notation names them (`12 4,0 90`: top-left compartment at row 4, column 0).

`grid(state)` says where each compartment lies in the drawing, so that a page can turn a tap
into a row and column; the drawing and the grid come from one computation."""
from __future__ import annotations

from dataclasses import dataclass

from ...colour import Colour
from ...draw import Drawing, Style, translate
from .faces import _compartments
from .tiles import canonical, rotate_tile

CELL = 6.0          # mm a compartment
LABEL = 7.0         # mm for the row and column numbers
MARGIN = 5          # empty compartments round the layout (a tile and one more)
EMPTY = 12          # the grid shown on an empty table
PAPER = Colour(rgb=(1, 1, 1))
TABLE = Colour(rgb=(0.95, 0.94, 0.91))
LINE = Colour(rgb=(0.83, 0.81, 0.76))
INK = Colour(rgb=(0.12, 0.12, 0.12))
LAST = Colour(rgb=(0.05, 0.05, 0.05))


@dataclass(frozen=True)
class Grid:
    row0: int           # the first row and column drawn
    col0: int
    rows: int
    cols: int
    x0: float = LABEL   # where compartment (row0, col0) starts, mm
    y0: float = LABEL
    cell: float = CELL

    def as_json(self) -> dict:
        return {"row0": self.row0, "col0": self.col0, "rows": self.rows, "cols": self.cols,
                "x0": self.x0, "y0": self.y0, "cell": self.cell}


def grid(state) -> Grid:
    cells = state.layout.cells
    if not cells:
        half = EMPTY // 2
        return Grid(-half, -half, EMPTY, EMPTY)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    r0, c0 = min(rows) - MARGIN, min(cols) - MARGIN
    return Grid(r0, c0, max(rows) + MARGIN - r0 + 1, max(cols) + MARGIN - c0 + 1)


def _badge_at(rotation: int) -> tuple[float, float]:
    """Where the printed tile's top-left grid crossing (1, 1) lies, in compartments from the turned
    tile's top-left corner: turning clockwise about the centre (2, 2)."""
    x, y = 1.0, 1.0
    for _ in range(rotation // 90):
        x, y = 4 - y, x
    return x, y


def draw_position(state, header: dict | None = None, before=None) -> Drawing:
    g = grid(state)
    w, h = g.x0 + g.cols * g.cell + 2, g.y0 + g.rows * g.cell + 2
    d = Drawing(w, h, least_text=0.0)   # for a screen, which zooms
    d.rect(0, 0, w, h, Style(fill=PAPER))
    d.rect(g.x0, g.y0, g.cols * g.cell, g.rows * g.cell, Style(fill=TABLE))
    line = Style(stroke=LINE, width=0.15)
    for k in range(g.cols + 1):
        d.line(g.x0 + k * g.cell, g.y0, g.x0 + k * g.cell, g.y0 + g.rows * g.cell, line)
    for k in range(g.rows + 1):
        d.line(g.x0, g.y0 + k * g.cell, g.x0 + g.cols * g.cell, g.y0 + k * g.cell, line)
    # Row and column numbers, every second one (a tile is four wide: every one would crowd).
    for k in range(g.cols):
        if (g.col0 + k) % 2 == 0:
            d.fit_text(g.x0 + k * g.cell - 1, 1.2, g.cell + 2, 3.0, str(g.col0 + k), INK, font="sans", max_size=4)
    for k in range(g.rows):
        if (g.row0 + k) % 2 == 0:
            d.fit_text(0.3, g.y0 + k * g.cell + 1.5, LABEL - 1.2, 3.0, str(g.row0 + k), INK, font="sans",
                       max_size=4, align="right")
    deck = state.deck
    numbers = state.variant == "count-continuo"
    placements = state.layout.placements
    for i, p in enumerate(placements):
        x = g.x0 + (p.col - g.col0) * g.cell
        y = g.y0 + (p.row - g.row0) * g.cell
        with d.group(translate(x, y)):
            _compartments(d, deck, rotate_tile(p.tile, p.rotation), 0, 0, g.cell, numbers=numbers)
        last = i == len(placements) - 1
        d.rect(x, y, 4 * g.cell, 4 * g.cell, Style(stroke=LAST if last else INK, width=0.9 if last else 0.25))
        bx, by = _badge_at(p.rotation)
        number = p.label if p.label.isdigit() else deck.number_by_shape.get(canonical(p.tile))
        label = str(number) if number else "?"       # a house tile, not one of the pack
        d.circle(x + bx * g.cell, y + by * g.cell, 2.6, Style(fill=PAPER, stroke=INK, width=0.2))
        d.fit_text(x + bx * g.cell - 2.0, y + by * g.cell - 1.1, 4.0, 2.2, label, INK)
    return d
