"""The printable paper board for players without a laser: the grid at full size (cells of the
kit's size), the thick line round the start square, and cell names round the edge."""
from __future__ import annotations

from ...colour import Colour
from ...draw import Drawing, Style
from ...layout.marks import BOARD_BLEED
from .kit import Kit

INK = Colour(rgb=(0.1, 0.1, 0.1))
CELL = Colour(rgb=(0.97, 0.95, 0.9))
START = Colour(rgb=(0.92, 0.88, 0.8))


def paper_board(kit: Kit) -> Drawing:
    label = 12.0                     # margin for the column letters and row numbers
    n, c = kit.grid, kit.cell
    size = n * c + 2 * label
    d = Drawing(size, size)
    b = BOARD_BLEED   # the paper runs into the large-format page's bleed
    d.rect(-b, -b, size + 2 * b, size + 2 * b, Style(fill=Colour(rgb=(1, 1, 1))))
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
    return d
