"""A sorting rack for the Capitals wall pieces: one lane per length, each exactly as long as its
pieces (the units plus the top's two extensions) with a tick at every unit, and how many pieces
of that length the set has. Laid out before a game, a player finds an eight-unit piece at a
glance, and the set is checked whole (123 pieces) when it is put away.

The map needs no separate flag-site markers: it prints one at every capital, coloured by
population bracket, where the patent's board holds a flag or a headed peg; nothing moves them
in play (docs/patents.md: what we chose)."""
from __future__ import annotations

from ...colour import Colour
from ...draw import Drawing, Style
from ...paper import Paper
from ...units import pt
from .walls import WallSet, walls_summary

INK = Colour(rgb=(0.1, 0.1, 0.1))
LANE = Colour(rgb=(0.93, 0.91, 0.86))
TICK = Style(stroke=Colour(rgb=(0.75, 0.1, 0.1)), width=pt(0.8), cap="butt")
MARGIN = 8.0


def footprint(ws: WallSet) -> float:
    """A folded piece's width on the table: its top and both flanges (the sides stand up)."""
    return ws.top + 2 * ws.flange


def rack_pages(ws: WallSet, paper: Paper) -> list[Drawing]:
    pw, ph = sorted(paper.size, reverse=True)      # landscape: the longest piece fits along
    lane_h = footprint(ws) + 1.0
    gap = 1.5
    label_w = 22.0
    x0 = MARGIN + label_w
    total = sum(ws.counts.values())
    lengths = sorted(ws.counts, reverse=True)
    pages: list[Drawing] = []
    page = None
    y = 0.0
    for units in lengths:
        if page is None or y + lane_h > ph - MARGIN:
            page = Drawing(pw, ph)
            pages.append(page)
            page.text(MARGIN, MARGIN + 4, f"{ws.title}: a rack to sort them by length", 4.2, INK, font="sans-bold")
            used = page.text_block(MARGIN, MARGIN + 7.0, pw - 2 * MARGIN,
                                   f"Lay each piece on the lane of its length: a lane is as long as its pieces, "
                                   f"red ticks at the units. {total} pieces in all: {walls_summary(ws)} "
                                   f"(pieces x units; the Vatican's and the United Nations' spares included).",
                                   2.8, INK)
            y = MARGIN + 7.0 + used + 3.0
        length = units * ws.square + 2 * ws.extension
        count = ws.counts[units]
        page.fit_text(MARGIN, y, label_w - 4, lane_h, f"{units} unit{'s' if units > 1 else ''}", INK,
                      max_size=4.0, align="right")
        page.rect(x0, y, length, lane_h, Style(fill=LANE, stroke=INK, width=pt(0.5)))
        for k in range(units + 1):
            tx = x0 + ws.extension + k * ws.square
            page.line(tx, y + 0.8, tx, y + lane_h - 0.8, TICK)
        page.fit_text(x0 + length + 3, y, pw - MARGIN - (x0 + length + 3), lane_h,
                      f"{count} piece{'s' if count > 1 else ''}", INK, font="sans", max_size=3.5, align="left")
        y += lane_h + gap
    return pages


def rack_document(spec, ws: WallSet, stem: str, paper: Paper):
    """The rack, as the game's own document."""
    from ...products.contents import Document
    return Document(spec, f"{stem}-rack-{paper.name}.pdf", f"{ws.title}: sorting rack", lambda: rack_pages(ws, paper),
                    info=dict(what=f"{ws.title}: a rack to sort the {sum(ws.counts.values())} pieces by length "
                                   "(optional)",
                              stock="paper, any", sides=1, paper=paper.name, order=46,
                              make="print at 100 %; lay the folded pieces on the lanes of their lengths",
                              step="Wall pieces: sort them on the rack, one lane a length (the count says when a set "
                                   "is whole)."))
