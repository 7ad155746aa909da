"""The Capitals walls as flat strips: the paper option that can be made in an evening.

The patent's troughs, folded from card, take some 7,000 knife cuts (every notch is four) and 500
scored folds for the 123 pieces: an afternoon and an evening. A flat strip is the same wall as
the map sees it (as long as its piece, the top's 3 mm extension at each end, a tick at every
unit) printed on card: strips lie end to end in bands across the sheet and the bands touch, so
one long cut parts two bands and one short cut two strips. A wall that crosses another lies on
it; walls that meet overlap by their extensions, as the troughs' tops do.

Time to make, for the print list and the assembly sheet (`make_times`): counted from the pieces'
own geometry, at a steady hand's pace (a short knife cut 2 s, a long cut along a ruler 6 s, a
fold line scored along a ruler 5 s, a piece folded up 20 s).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...colour import Colour
from ...draw import Drawing, Style
from ...paper import Paper
from ...units import pt
from .walls import PRINT_MARGIN, WallSet, wall_net

WIDTH = 6.0          # mm across a flat strip: wider than the trough's 4 mm top, so a finger picks it up
WALL = Colour(rgb=(0.33, 0.29, 0.27))
WALL_2 = Colour(rgb=(0.5, 0.44, 0.4))   # every other strip in a band: where one ends and the next begins shows
MARK = Colour(rgb=(1.0, 1.0, 1.0))
INK = Colour(rgb=(0.1, 0.1, 0.1))
CUT = Style(stroke=INK, width=pt(0.5), cap="butt")
HEADER = 9.0         # mm of sheet above the bands: the title line
SHORT_CUT, LONG_CUT, SCORE, FOLD_UP = 2.0, 6.0, 5.0, 20.0   # seconds


def strip_length(ws: WallSet, units: int) -> float:
    return units * ws.square + 2 * ws.extension


@dataclass
class StripLayout:
    pages: list[list[list[int]]]      # per page, its bands, each the units of its strips in order
    page_w: float
    page_h: float

    @property
    def bands(self) -> int:
        return sum(len(p) for p in self.pages)

    def cuts(self) -> tuple[int, int]:
        """(long cuts, short cuts): a band's two edges are shared with its neighbours on a page
        (bands + 1 a page), and every strip's end is a short cut (its first end the band's
        start, shared with nothing: one more a band)."""
        long_cuts = sum(len(p) + 1 for p in self.pages)
        short = sum(len(b) + 1 for p in self.pages for b in p)
        return long_cuts, short


def plan_strips(ws: WallSet, paper: Paper) -> StripLayout:
    pw, ph = sorted(paper.size, reverse=True)
    avail = pw - 2 * PRINT_MARGIN
    bands: list[list[int]] = []
    room: list[float] = []
    for units in [u for u, c in sorted(ws.counts.items(), reverse=True) for _ in range(c)]:
        length = strip_length(ws, units)
        k = next((i for i, r in enumerate(room) if r >= length - 1e-9), None)
        if k is None:
            bands.append([])
            room.append(avail)
            k = len(bands) - 1
        bands[k].append(units)
        room[k] -= length
    per_page = int((ph - 2 * PRINT_MARGIN - HEADER) // WIDTH)
    return StripLayout([bands[i:i + per_page] for i in range(0, len(bands), per_page)], pw, ph)


def strip_pages(ws: WallSet, paper: Paper) -> list[Drawing]:
    lay = plan_strips(ws, paper)
    m = PRINT_MARGIN
    total = sum(ws.counts.values())
    pages = []
    for n, bands in enumerate(lay.pages, 1):
        page = Drawing(lay.page_w, lay.page_h)
        page.text_block(m, m, lay.page_w - 2 * m,
                        f"{ws.title} as flat strips: {total} in all, sheet {n} of {len(lay.pages)}. Print at 100 %. "
                        "Cut along every long line across the sheet, then between the strips; the white ticks "
                        "mark the units, the number is the piece's length.", 2.6, INK)
        top = m + HEADER
        width = lay.page_w - 2 * m
        for j, band in enumerate(bands):
            y = top + j * WIDTH
            x = m
            for i, units in enumerate(band):
                draw_strip(page, ws, units, x, y, WALL if (i + j) % 2 == 0 else WALL_2)
                page.line(x, y, x, y + WIDTH, CUT)
                x += strip_length(ws, units)
            page.line(x, y, x, y + WIDTH, CUT)
        for j in range(len(bands) + 1):
            y = top + j * WIDTH
            page.line(m, y, m + width, y, CUT)
        pages.append(page)
    return pages


def draw_strip(page: Drawing, ws: WallSet, units: int, x: float, y: float, fill: Colour, bleed: float = 0.0) -> None:
    """One strip, strip_length x WIDTH from (x, y): its colour (carried `bleed` past its edges), a
    white tick at every unit and its length in units. Its cut lines are the sheet's."""
    page.rect(x - bleed, y - bleed, strip_length(ws, units) + 2 * bleed, WIDTH + 2 * bleed, Style(fill=fill))
    for k in range(units + 1):
        tx = x + ws.extension + k * ws.square
        page.line(tx, y + 1.2, tx, y + WIDTH - 1.2, Style(stroke=MARK, width=pt(0.8), cap="butt"))
    page.fit_text(x + ws.extension + 1.5, y + 1.6, ws.square - 3, WIDTH - 3.2, str(units), MARK, max_size=3.4)


def strip_parts(ws: WallSet) -> list:
    """The strips for a cutting machine (issue 37): one part a length, with its count."""
    from ...layout.foldups import BLEED
    from ...products.contents import CutPart
    parts = []
    for units, count in ws.counts.items():
        length = strip_length(ws, units)
        face = Drawing(length, WIDTH)
        draw_strip(face, ws, units, 0.0, 0.0, WALL, BLEED)
        outline = [("M", 0.0, 0.0), ("L", length, 0.0), ("L", length, WIDTH), ("L", 0.0, WIDTH), ("Z",)]
        parts.append(CutPart(f"strip of {units}", length, WIDTH, face, outline, BLEED, count))
    return parts


@dataclass(frozen=True)
class MakeTimes:
    troughs: float         # hours: print, cut and fold the patent's troughs
    strips: float          # hours: flat strips
    laser_folds: float     # hours: fold the laser-cut troughs (cut and scored by the laser)
    trough_cuts: int
    trough_scores: int
    strip_cuts: tuple[int, int]


def make_times(ws: WallSet, paper: Paper) -> MakeTimes:
    pieces = sum(ws.counts.values())
    cuts = sum(c * (len(wall_net(ws, u).outline.exterior.coords) - 1) for u, c in ws.counts.items())
    scores = 4 * pieces                      # four fold lines a piece, each scored along a ruler at once
    long_cuts, short = plan_strips(ws, paper).cuts()
    return MakeTimes((cuts * SHORT_CUT + scores * SCORE + pieces * FOLD_UP) / 3600,
                     (long_cuts * LONG_CUT + short * SHORT_CUT) / 3600, pieces * FOLD_UP / 3600,
                     cuts, scores, (long_cuts, short))


def hours(h: float) -> str:
    """A time to make something, said as a person would: minutes under an hour, else hours."""
    if h < 1:
        return f"about {max(5, round(h * 60 / 5) * 5)} minutes"
    return f"about {round(h * 2) / 2:g} hours"
