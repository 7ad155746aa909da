"""`pnp calibrate`: a two-page duplex test sheet from which a user reads --back-offset.

The front carries thin lines; the back carries millimetre scales exactly where those lines fall
if the printer registers perfectly (computed with the same sheet flip the card backs use). Held up
to a light, each front line crosses its scale at the number to pass as --back-offset: the value
read is the correction, sign included. Printed with an offset, the scales move by it, so a
corrected sheet reads 0.
"""
from __future__ import annotations

from ..colour import BLACK, Colour
from ..draw import Drawing, Style, apply, compose, translate
from ..paper import Paper
from ..units import pt
from .cards import sheet_flip
from .marks import SAFE_MARGIN

RED = Colour(rgb=(0.85, 0.1, 0.1))
LINE = Style(stroke=BLACK, width=pt(0.5), cap="butt")
TICK = Style(stroke=RED, width=pt(0.4), cap="butt")
SPAN = 10  # the scales read -10..+10 mm


def _front(w: float, h: float, xs, ys) -> Drawing:
    d = Drawing(w, h)
    for x in xs:
        d.line(x, ys[0] - 25, x, ys[-1] + 25, LINE)
    for y in ys:
        d.line(xs[0] - 25, y, xs[-1] + 25, y, LINE)
    d.text_block(SAFE_MARGIN + 14, SAFE_MARGIN + 16, w - 2 * SAFE_MARGIN - 28,
                 "FRONT. Print this PDF two-sided at 100 % (actual size), no scaling.", 3.0, BLACK, font="sans-bold")
    return d


def _scale_x(d: Drawing, x: float, y: float) -> None:
    """A horizontal scale centred on x (zero) along y: reads a vertical line's position."""
    for v in range(-SPAN, SPAN + 1):
        tall = 4.0 if v % 5 == 0 else 2.2
        d.line(x + v, y - tall, x + v, y, TICK)
        if v % 5 == 0:
            d.text(x + v, y - 4.8, f"{v:+d}" if v else "0", 2.2, RED, font="sans", align="centre")


def _scale_y(d: Drawing, x: float, y: float) -> None:
    """A vertical scale centred on y (zero) beside x: reads a horizontal line's position."""
    for v in range(-SPAN, SPAN + 1):
        tall = 4.0 if v % 5 == 0 else 2.2
        d.line(x, y + v, x + tall, y + v, TICK)
        if v % 5 == 0:
            d.text(x + 5.0, y + v + 0.8, f"{v:+d}" if v else "0", 2.2, RED, font="sans")


def calibration_pages(paper: Paper, flip: str, offset=(0.0, 0.0)) -> list[Drawing]:
    w, h = paper.size
    # Lines near the edges and through the middle, so a skew or a scaling shows too.
    xs = [w * 0.25, w * 0.5, w * 0.75]
    ys = [h * 0.25, h * 0.5, h * 0.75]
    front = _front(w, h, xs, ys)
    back = Drawing(w, h)
    # Where each crossing of the front's lines lands on the back, shifted like card backs are.
    to_back = compose(translate(*offset), sheet_flip(w, h, flip))
    for x in xs:
        for y in ys:
            bx, by = apply(to_back, x, y)
            _scale_x(back, bx, by - 8)
            _scale_y(back, bx + 8, by)
    back.text_block(SAFE_MARGIN + 14, SAFE_MARGIN + 16, w - 2 * SAFE_MARGIN - 28,
                    f"BACK (printed with flip on {flip} edge, back offset {offset[0]:g},{offset[1]:g} mm). "
                    "Hold the sheet up to a light. Where each black line of the front crosses a red scale, "
                    "read the number: the horizontal scales give X, the vertical scales give Y. "
                    "Build with --back-offset X,Y (add them to the offset already used). "
                    "If the readings differ across the sheet, the printer also scales or skews: "
                    "use the middle reading.", 2.8, BLACK, font="sans")
    return [front, back]
