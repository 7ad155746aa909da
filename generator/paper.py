"""The paper a product is laid out on: one value, made once where the paper is named (the command
line, the folder's settings, a spec's field) and handed down whole. Nothing below looks a size up
by name: a layout asks the Paper for its size, its printable area and its margin.
"""
from __future__ import annotations

from dataclasses import dataclass

# mm of blank paper at every page edge: home printers cannot print there, and a 5 mm edge is what
# the common inkjets and lasers leave (layout/marks.py keeps every mark inside it).
HOME_MARGIN = 5.0


@dataclass(frozen=True)
class Paper:
    name: str              # as files and the print list name it: a4, letter
    width: float           # mm, portrait
    height: float
    margin: float = HOME_MARGIN   # blank at every edge: what a printer cannot print

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) in mm, portrait."""
        return self.width, self.height

    @property
    def printable(self) -> tuple[float, float, float, float]:
        """The area a printer prints, as (x, y, width, height) in mm from the page's corner."""
        m = self.margin
        return m, m, self.width - 2 * m, self.height - 2 * m

    @property
    def label(self) -> str:
        """As a person writes it in a sentence: A4, LETTER."""
        return self.name.upper()


# ISO 216 A-sizes and the US sizes, portrait, in mm. A home build prints on HOME's; the others are
# a print shop's (a spec may name one: the Capitals map's halves on A2).
PAPERS = {p.name: p for p in (
    Paper("a4", 210.0, 297.0),
    Paper("letter", 215.9, 279.4),
    Paper("a3", 297.0, 420.0),
    Paper("tabloid", 279.4, 431.8),
    Paper("a2", 420.0, 594.0),
    Paper("a1", 594.0, 841.0),
    Paper("a0", 841.0, 1189.0),
)}
HOME = ("a4", "letter")          # the sizes `--paper` offers
A4 = PAPERS["a4"]
