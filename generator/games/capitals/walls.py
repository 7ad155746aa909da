"""Wall pieces (Figs. 4-7): a trough folded from one strip, notched at every unit.

The flat strip, across: flange | side | top | side | flange. The top runs `extension` past each
end (Fig. 5's 18a); flanges and sides stop half a notch short of each end and are cut away by a
notch at every unit boundary (Fig. 7's 19), the notch being the top's width plus clearance, so a
crossing piece's top drops into it. One strip geometry serves both outputs: the print-and-fold
sheets (cut on the solid line, fold on the dashed) and the laser files (cut, score).
"""
from __future__ import annotations

from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import LineString, Polygon, box
from shapely.ops import unary_union

from ...colour import Colour
from ...draw import Drawing, Style
from ...laser.parts import Part, text_score_lines
from ...limits import MAX_WALL_PIECES
from ...paper import HOME, PAPERS, Paper
from ...spec import Spec, load_related
from ...units import pt
from .data import load_board

CUT = Style(stroke=Colour(rgb=(0, 0, 0)), width=pt(0.6), join="miter")
FOLD = Style(stroke=Colour(rgb=(0.45, 0.45, 0.45)), width=pt(0.5), dash=(1.5, 1.0), cap="butt")
TICK = Style(stroke=Colour(rgb=(0.75, 0.1, 0.1)), width=pt(0.8), cap="butt")
INK = Colour(rgb=(0.1, 0.1, 0.1))
PAPER = Colour(rgb=(1.0, 1.0, 1.0))    # the troughs are printed on white card: their ground
PRINT_MARGIN = 10.0                # mm of blank paper round the printed pieces


@dataclass
class WallSet:
    title: str
    square: float
    top: float
    side: float
    flange: float
    extension: float
    clearance: float
    counts: dict[int, int]          # units -> pieces
    laser: dict

    @property
    def strip_width(self) -> float:
        return 2 * self.flange + 2 * self.side + self.top

    @property
    def notch(self) -> float:
        return self.top + self.clearance


def load_walls(spec: Spec) -> WallSet:
    d = spec.data
    wm = load_board(load_related(spec, "board", ("capitals-board",)))
    t = d["trough"]
    counts: dict[int, int] = {}
    for c in wm.deck.countries:
        units = c.letters if not c.is_special else c.special.get("units")
        if units:
            counts[units] = counts.get(units, 0) + 1
    for sp in d.get("spares", []):
        counts[sp["units"]] = counts.get(sp["units"], 0) + sp["count"]
    pieces = sum(counts.values())
    if pieces > MAX_WALL_PIECES:
        raise spec.error(("spares",), f"{pieces:,} pieces in all (one a card, and the spares); a set has at "
                                      f"most {MAX_WALL_PIECES:,}")
    ws = WallSet(d["title"], wm.square, t["top"], t["side"], t["flange"], d["extension"], d["notch_clearance"],
                 dict(sorted(counts.items())), d["laser"])
    if ws.notch >= wm.square / 2:
        raise spec.error(("trough", "top"), f"the notch ({ws.notch:g} mm) must be under half a square "
                                            f"({wm.square / 2:g} mm), or a one-unit piece has no sides left")
    # The pieces are printed on the build's paper (--paper): the longest must lie along either.
    longest = max(ws.counts) * wm.square + 2 * ws.extension
    room = min(max(PAPERS[p].size) for p in HOME) - 2 * PRINT_MARGIN
    if longest > room:
        raise spec.error(("extension",), f"the longest piece ({longest:g} mm) does not fit across a Letter sheet "
                                         f"({room:g} mm inside its margins): the map's squares are too large")
    if ws.extension >= wm.square / 2:
        raise spec.error(("extension",), f"must be under half a square ({wm.square / 2:g} mm)")
    return ws


@dataclass
class WallNet:
    units: int
    outline: Polygon
    folds: list[LineString]
    ticks: list[LineString]         # one at every lattice point the piece covers (0..units)

    @property
    def length(self) -> float:
        b = self.outline.bounds
        return b[2] - b[0]


def wall_net(ws: WallSet, units: int) -> WallNet:
    s, f, h, t, e, n = ws.square, ws.flange, ws.side, ws.top, ws.extension, ws.notch
    L, W = units * s, ws.strip_width
    y_top = f + h
    top = box(-e, y_top, L + e, y_top + t)
    low = box(n / 2, 0, L - n / 2, y_top)
    high = box(n / 2, y_top + t, L - n / 2, W)
    notches = unary_union([box(k * s - n / 2, 0, k * s + n / 2, W) for k in range(1, units)]) if units > 1 else None
    if notches is not None:
        low, high = low.difference(notches), high.difference(notches)
    outline = unary_union([top, low, high])
    segments = [(k * s + n / 2, (k + 1) * s - n / 2) for k in range(units)]
    folds = [LineString([(a, y), (b, y)]) for a, b in segments for y in (f, y_top, y_top + t, y_top + t + h)]
    ticks = [LineString([(k * s, y_top + 0.5), (k * s, y_top + t - 0.5)]) for k in range(units + 1)]

    def shift(g):
        return affinity.translate(g, e, 0)
    return WallNet(units, shift(outline), [shift(g) for g in folds], [shift(g) for g in ticks])


def laser_folds(net: WallNet, top: tuple[float, float]) -> list[LineString]:
    """The folds as the laser scores them. The two folds along the top's edges run the whole
    piece as one stroke each, where the printed net breaks them at every notch: across a notch
    such a stroke runs along the top's edge, which the cut follows there anyway (scoring comes
    before cutting), so no card is marked that the net does not fold. The flanges' folds stay
    one a unit (across a notch they would mark empty air). Half the strokes of a sheet of long
    pieces, and its DXF under 400 KB."""
    by_y: dict[float, list[float]] = {}
    out = []
    for fold in net.folds:
        (x0, y), (x1, _) = fold.coords
        if any(abs(y - edge) < 1e-6 for edge in top):
            by_y.setdefault(round(y, 6), []).extend((x0, x1))
        else:
            out.append(fold)
    return [LineString([(min(xs), y), (max(xs), y)]) for y, xs in by_y.items()] + out


def wall_parts(ws: WallSet) -> list[Part]:
    parts = []
    for units, count in ws.counts.items():
        net = wall_net(ws, units)
        cx = ws.extension + ws.square / 2
        label = text_score_lines(str(units), cx - 0.8 * len(str(units)), ws.flange + ws.side + ws.top - 0.9, 2.4)
        parts.append(Part(f"wall-{units}", net.outline, laser_folds(net, (ws.flange + ws.side, ws.flange + ws.side + ws.top)) + net.ticks + label, label=str(units),
                          quantity=count, material=ws.laser["material"].replace(" ", "_")))
    return parts


def print_pages(ws: WallSet, paper: Paper) -> list[Drawing]:
    """The strips on home-printer sheets of the build's paper, longest first, in rows; the unit
    count is printed on the first unit's top panel and every unit boundary is ticked in red. The
    pieces are at full size on any paper (the map's unit is the square): a narrower sheet takes
    more of them."""
    pw, ph = sorted(paper.size, reverse=True)   # landscape: the longest piece fits along
    m, gap = PRINT_MARGIN, 3.0
    strips = [u for u, c in sorted(ws.counts.items(), reverse=True) for _ in range(c)]
    total = len(strips)
    avail = pw - 2 * m
    # First fit, longest first: a short piece fills the end of a row of long ones.
    rows: list[list[WallNet]] = []
    room: list[float] = []
    nets = {units: wall_net(ws, units) for units in ws.counts}    # one per length, drawn many times
    for units in strips:
        net = nets[units]
        k = next((i for i, r in enumerate(room) if r >= net.length), None)
        if k is None:
            rows.append([]), room.append(avail)
            k = len(rows) - 1
        rows[k].append(net)
        room[k] -= net.length + gap
    per_page = max(1, int((ph - 2 * m - 8 + gap) // (ws.strip_width + gap)))
    pages: list[Drawing] = []
    for first in range(0, len(rows), per_page):
        page = Drawing(pw, ph)
        page.fit_text(m, m, pw - 2 * m, 3.2, f"{ws.title}: {total} pieces, sheet {first // per_page + 1} of "
                      f"{-(-len(rows) // per_page)}. Print at 100 %. Cut on the solid lines, fold down on the "
                      "dashed ones (top up); red ticks mark the units.", INK, font="sans", align="left")
        for j, row in enumerate(rows[first:first + per_page]):
            x, y = m, m + 8 + j * (ws.strip_width + gap)
            for net in row:
                _draw_net(page, ws, net, x, y)
                x += net.length + gap
        pages.append(page)
    return pages


def trough_parts(ws: WallSet) -> list:
    """The troughs for a cutting machine (issue 37): one part a length, with its count, printed as
    on the sheets (on white card: its white carried past the outline) and cut on the net's outline."""
    from ...layout.foldups import BLEED, fold_ops, ring_ops
    from ...products.contents import CutPart
    parts = []
    for units, count in ws.counts.items():
        net = wall_net(ws, units)
        _, _, w, h = net.outline.bounds
        face = Drawing(w, h)
        _draw_net(face, ws, net, 0.0, 0.0, bleed=BLEED)
        parts.append(CutPart(f"trough of {units}", w, h, face, ring_ops(net.outline.exterior), BLEED, count,
                             folds=[fold_ops(g) for g in net.folds]))
    return parts


def _draw_net(page: Drawing, ws: WallSet, net: WallNet, ox: float, oy: float, bleed: float = 0.0) -> None:
    """A trough at (ox, oy): its cut line, or with `bleed` the card's white that far past it and no
    line (a machine cuts it); its folds, ticks and length."""
    if bleed:
        grown = net.outline.buffer(bleed, join_style="mitre", mitre_limit=4.0)
        page.polygon([(ox + px, oy + py) for px, py in grown.exterior.coords], Style(fill=PAPER))
    else:
        page.polygon([(ox + px, oy + py) for px, py in net.outline.exterior.coords], CUT)
    for g in net.folds:
        (a, b), (c, e) = g.coords
        page.line(ox + a, oy + b, ox + c, oy + e, FOLD)
    for g in net.ticks:
        (a, b), (c, e) = g.coords
        page.line(ox + a, oy + b, ox + c, oy + e, TICK)
    page.fit_text(ox + ws.extension + 1, oy + ws.flange + ws.side + 0.7, ws.square - 2, ws.top - 1.4,
                  str(net.units), INK)


def walls_summary(ws: WallSet) -> str:
    return ", ".join(f"{c} x {u}" for u, c in ws.counts.items())
