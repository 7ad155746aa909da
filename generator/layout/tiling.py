"""Tiling a large drawing over home-printer sheets, with overlap, cut edges and registration.

Each sheet prints a window of the drawing. Neighbouring windows overlap by `overlap` mm: a sheet
that has a neighbour to its left (or above) has its image edge there drawn as a dashed cut line,
and registration targets are centred on every join, so each half-target printed at a cut edge
meets the other half on the sheet beneath. Trim along the dashed edges, lay each sheet over its
neighbour so the targets close, and tape. Any board can use this; it knows nothing of games.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..colour import Colour
from ..draw import Drawing, Rect, Style, translate
from ..units import pt
from .marks import SAFE_MARGIN, registration_mark

CUT_STYLE = Style(stroke=Colour(rgb=(0.3, 0.3, 0.3)), width=pt(0.5), dash=(2.0, 1.5), cap="butt")
GREY = Colour(rgb=(0.35, 0.35, 0.35))
CAPTION = 6.0   # mm kept under each window for its caption


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    x: float        # the window, in drawing coordinates
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class TileLayout:
    page_w: float
    page_h: float
    rows: int
    cols: int
    stride_x: float
    stride_y: float
    tiles: tuple[Tile, ...]


def plan_tiles(width: float, height: float, page_w: float, page_h: float, overlap: float) -> TileLayout:
    """The fewest sheets, portrait or landscape, that cover width x height with the overlap. The
    columns share the width evenly (a last column two squares wide left a sheet 85 % blank); the
    rows are as tall as a sheet allows, so the last row's short windows can share a sheet."""
    best = None
    for pw, ph in ((page_w, page_h), (page_h, page_w)):
        aw, ah = pw - 2 * SAFE_MARGIN, ph - 2 * SAFE_MARGIN - CAPTION
        sx, sy = aw - overlap, ah - overlap
        if sx <= 0 or sy <= 0:
            continue
        cols = max(1, math.ceil((width - overlap) / sx))
        rows = max(1, math.ceil((height - overlap) / sy))
        if width <= aw:
            cols = 1
        if height <= ah:
            rows = 1
        if cols > 1:
            sx = (width - overlap) / cols
        if best is None or rows * cols < best[0]:
            best = (rows * cols, pw, ph, rows, cols, sx, sy, aw, ah)
    if best is None:
        raise ValueError("the overlap is larger than the printable area of a sheet")
    _, pw, ph, rows, cols, sx, sy, aw, ah = best
    tiles = []
    for r in range(rows):
        for c in range(cols):
            x, y = c * sx, r * sy
            tiles.append(Tile(r, c, x, y, min(aw, sx + overlap, width - x), min(ah, height - y)))
    return TileLayout(pw, ph, rows, cols, sx, sy, tuple(tiles))


def _with_rows(plan: TileLayout, sy: float, height: float, overlap: float) -> TileLayout:
    """The plan with its rows `sy` apart (each window as tall as that and the overlap)."""
    ah = plan.tiles[0].h if plan.rows > 1 else height
    tiles = tuple(Tile(t.row, t.col, t.x, t.row * sy, t.w, min(ah, sy + overlap, height - t.row * sy))
                  for t in plan.tiles)
    return TileLayout(plan.page_w, plan.page_h, plan.rows, plan.cols, plan.stride_x, sy, tiles)


def clear_joins(plan: TileLayout, height: float, overlap: float, boxes) -> TileLayout:
    """The plan with its rows' joins moved up (the rows made shorter, by 12 mm at most, and never
    to a row more) until no registration target of a join lies on the art's text: a join along a
    map's row of column numbers would print its half-targets over them. Columns' joins only move
    their targets along the join (_targets_clear)."""
    if plan.rows < 2:
        return plan
    k = 0
    while k * 0.5 <= 12.0:
        sy = plan.stride_y - k * 0.5
        if math.ceil((height - overlap) / sy) > plan.rows:
            break
        trial = _with_rows(plan, sy, height, overlap)
        if all(_targets_clear(t.x, t.w, t.y, True, boxes)[1] for t in trial.tiles if t.row > 0):
            return trial
        k += 1
    return plan


def _targets_along(length: float) -> list[float]:
    n = max(2, round(length / 60))
    return [length * (k + 0.5) / n for k in range(n)]


def text_boxes(art: Drawing) -> list[tuple[float, float, float, float]]:
    """Where the art prints text (its boxes, in the art's mm): what a registration target must
    not print over (a map's column numbers)."""
    from ..draw.drawing import Text, apply, drawn_items
    out = []
    for item, m in drawn_items(art.root):
        if isinstance(item, Text) and item.text.strip():
            w = item.font.width(item.text, item.size)
            pts = [apply(m, x, y) for x in (item.x, item.x + w) for y in (item.y - item.size * 0.8,
                                                                         item.y + item.size * 0.2)]
            out.append((min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts),
                        max(p[1] for p in pts)))
    return out


def _targets_clear(start: float, length: float, across: float, along_x: bool, boxes) -> tuple[list[float], bool]:
    """The targets of a join from `start` over `length` (at `across` on the other axis), each moved
    the least way (within half its share of the join) off any text of the art, and whether all
    are. Both sheets of the join call this with the same numbers, so their halves still meet."""
    n = max(2, round(length / 60))
    share = length / n
    reach = TARGET_R + 0.8

    # Only the text in reach of the join's line can meet a target on it: the rest is left out once.
    if along_x:
        near = [(x0, x1) for x0, y0, x1, y1 in boxes if y0 - reach < across < y1 + reach]
    else:
        near = [(y0, y1) for x0, y0, x1, y1 in boxes if x0 - reach < across < x1 + reach]

    def clear(v: float) -> bool:
        at = start + v
        return not any(lo - reach < at < hi + reach for lo, hi in near)
    out, ok = [], True
    for v in _targets_along(length):
        steps = [d * 0.5 for k in range(int(share / 2 / 0.5)) for d in ((k, -k) if k else (0,))]
        free = next((v + d for d in steps if reach <= v + d <= length - reach and clear(v + d)), None)
        ok = ok and free is not None
        out.append(v if free is None else free)
    return out, ok


TARGET_R = 3.0      # mm: a registration target's reach from its centre (marks.registration_mark)
GAP = 2 * TARGET_R + 4.0   # mm between two windows packed on one sheet: their half-targets and a cut
CAPTION_SIZE = 2.3  # mm (6.5 pt): a window's caption, never smaller


@dataclass(frozen=True)
class Placed:
    """A window of the drawing on a sheet: its top-left corner there, and the height kept under it
    for its caption."""
    tile: Tile
    sheet: int
    x: float
    y: float
    caption_h: float


def _caption(t: Tile, plan: TileLayout, title: str) -> str:
    cuts = [s for s, on in (("left", t.col > 0), ("top", t.row > 0)) if on]
    how = f"trim the dashed {' and '.join(cuts)} edge, lay it over its neighbour, close the targets" if cuts \
        else "it lies under its neighbours"
    return (f"{title}  \u00b7  row {t.row + 1} of {plan.rows}, column {t.col + 1} of {plan.cols}  \u00b7  "
            f"print at 100 %  \u00b7  {how}")


def pack_tiles(plan: TileLayout) -> tuple[int, list[Placed]]:
    """The windows on as few sheets as they fit: a full window takes a sheet of its own, and the
    smaller ones of the last row share sheets, one under another with room for their targets
    between (each with its caption under it, across the sheet). Returns the number of sheets and
    each window's place."""
    m = SAFE_MARGIN
    bottoms: list[float] = []          # where the last window on each sheet ends, caption included
    placed = []
    for t in plan.tiles:
        h = t.h + CAPTION
        k = next((k for k, b in enumerate(bottoms) if b + GAP + h <= plan.page_h - m), None)
        if k is None:
            bottoms.append(m - GAP)
            k = len(bottoms) - 1
        y = bottoms[k] + GAP
        bottoms[k] = y + h
        placed.append(Placed(t, k, m, y, CAPTION))
    return len(bottoms), placed


def tile_pages(art: Drawing, page_w: float, page_h: float, overlap: float = 12.0, title: str = "") -> list[Drawing]:
    boxes = text_boxes(art)
    plan = clear_joins(plan_tiles(art.width, art.height, page_w, page_h, overlap), art.height, overlap, boxes)
    count, placed = pack_tiles(plan)
    pages = [Drawing(plan.page_w, plan.page_h) for _ in range(count)]
    for p in placed:
        t, d = p.tile, pages[p.sheet]
        # The window of the art, placed on its sheet.
        d.place(art, translate(p.x - t.x, p.y - t.y), clip=Rect(t.x, t.y, t.w, t.h, Style()))
        # Joins with the next sheet (right, below): targets centred on the line where it starts.
        with d.group(translate(p.x - t.x, p.y - t.y)):
            if t.col < plan.cols - 1:
                jx = (t.col + 1) * plan.stride_x
                for v in _targets_clear(t.y, t.h, jx, False, boxes)[0]:
                    registration_mark(d, jx, t.y + v)
            if t.row < plan.rows - 1:
                jy = (t.row + 1) * plan.stride_y
                for v in _targets_clear(t.x, t.w, jy, True, boxes)[0]:
                    registration_mark(d, t.x + v, jy)
            # Joins with the previous sheet (left, above): the cut edge, and the same targets on it,
            # their inner halves only: the outer halves would be trimmed away with the edge, and
            # would print in the sheet's blank margin.
            with d.group(clip=Rect(t.x, t.y, t.w, t.h, Style())):
                if t.col > 0:
                    d.line(t.x, t.y, t.x, t.y + t.h, CUT_STYLE)
                    for v in _targets_clear(t.y, t.h, t.x, False, boxes)[0]:
                        registration_mark(d, t.x, t.y + v)
                if t.row > 0:
                    d.line(t.x, t.y, t.x + t.w, t.y, CUT_STYLE)
                    for v in _targets_clear(t.x, t.w, t.y, True, boxes)[0]:
                        registration_mark(d, t.x + v, t.y)
        # The caption across the sheet under its window (nothing stands beside a window).
        d.fit_text(p.x, p.y + t.h + 2.0, plan.page_w - 2 * SAFE_MARGIN, CAPTION_SIZE * 0.73,
                   _caption(t, plan, title), GREY, font="sans", align="left")
    return pages
