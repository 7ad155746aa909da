"""Printers' marks: crop marks and registration targets, drawn in registration colour."""
from __future__ import annotations

from ..colour import REGISTRATION
from ..draw import Drawing, Style
from ..paper import HOME_MARGIN
from ..units import pt

# 0.25 pt is the usual crop-mark weight; marks stand off the bleed so a cut never shows them.
MARK_STYLE = Style(stroke=REGISTRATION, width=pt(0.25), cap="butt")
MARK_LENGTH = 4.0   # mm
SAFE_MARGIN = HOME_MARGIN   # mm of blank paper at every page edge: home printers cannot print there,
                            # and a page that needs none is printed at 100 % rather than "fit to page"
BOARD_BLEED = 3.0   # mm of art beyond a board's trim on its large-format page, as a card's: a board
                    # draws its background out to it (from -BOARD_BLEED to its size + BOARD_BLEED)


def crop_marks(d: Drawing, xs: list[float], ys: list[float], bleed: float,
               left: float, top: float, right: float, bottom: float) -> None:
    """Marks in the page margins along every cut line: vertical cuts at xs, horizontal at ys.
    The block of cards spans left..right, top..bottom (trim edges); marks start `bleed` outside."""
    for x in xs:
        d.line(x, top - bleed - MARK_LENGTH, x, top - bleed, MARK_STYLE)
        d.line(x, bottom + bleed, x, bottom + bleed + MARK_LENGTH, MARK_STYLE)
    for y in ys:
        d.line(left - bleed - MARK_LENGTH, y, left - bleed, y, MARK_STYLE)
        d.line(right + bleed, y, right + bleed + MARK_LENGTH, y, MARK_STYLE)


def registration_mark(d: Drawing, cx: float, cy: float, r: float = 3.0) -> None:
    """A circle with a cross through it: the target two printed sheets are aligned on."""
    d.circle(cx, cy, r * 0.6, MARK_STYLE)
    d.line(cx - r, cy, cx + r, cy, MARK_STYLE)
    d.line(cx, cy - r, cx, cy + r, MARK_STYLE)
