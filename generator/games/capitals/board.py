"""The world map board: land and sea from Natural Earth, the grid of squares with its column
numbers and row letters, a marker at every capital coloured by population bracket; and the
patent's Figs. 1A and 1B, the board as two complementary halves."""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from shapely.geometry import box
from shapely.ops import unary_union

from ...draw import Drawing, PathBuilder, Rect, Style, translate
from ...draw.fonts import get_font
from ...errors import SpecError, show
from ...layout.marks import BOARD_BLEED, crop_marks
from ...spec import Spec
from .data import Country, WorldMap, load_board


class LandError(ValueError):
    """Land polygons too tangled to draw at a bounded cost (the message says how)."""


# How tangled the land may be, counted as the pairs of edges that are not neighbours in a ring and
# whose bounding boxes overlap ("meetings"): a coastline's edges meet few but their neighbours
# (the shipped land: 224 pairs among its 4,125 points), a scribble's meet thousands. Land that is valid (no ring
# crossing itself, no polygons overlapping) is drawn as it is, at a cost that grows with its
# points; mending a ring that crosses itself, or joining polygons that overlap, costs GEOS time
# and memory that grow with the crossings, which the meetings bound: 5,000 random points (a
# million crossings) once took 5.8 GB and 75 s, 20,000 all of 24 GB.
MAX_MEETINGS_PER_POINT = 10     # past this, the file is a scribble, refused before anything else
MAX_MEETINGS_MENDED = 10_000    # and land that needs mending is mended only this tangled (under a second)


def _meetings(starts, ends, next_edge, limit: int) -> int:
    """How many pairs of edges (edge i from starts[i] to ends[i]; next_edge[i] the edge after it
    in its ring) that are not neighbours have overlapping bounding boxes, counted up to just past
    `limit`. Asked of an R-tree in chunks of edges whose candidate pairs number at most 2 million
    (32 MB; bounded from above beforehand by how many edges each overlaps across and down), and
    stopped as soon as the count is over: a scribble is found out in its first chunks; 100,000
    points of coastline are counted through in under a second."""
    import numpy as np
    import shapely
    x0, x1 = np.minimum(starts[:, 0], ends[:, 0]), np.maximum(starts[:, 0], ends[:, 0])
    y0, y1 = np.minimum(starts[:, 1], ends[:, 1]), np.maximum(starts[:, 1], ends[:, 1])

    def overlapping(lo, hi):      # for each interval, how many intervals overlap it (itself too)
        return np.searchsorted(np.sort(lo), hi, "right") - np.searchsorted(np.sort(hi), lo, "left")
    most = np.minimum(overlapping(x0, x1), overlapping(y0, y1))
    edges = shapely.box(x0, y0, x1, y1)
    tree = shapely.STRtree(edges)
    budget, n, i, found = 2_000_000, len(edges), 0, 0
    reach = np.cumsum(most)
    while i < n and found <= limit:
        # As many edges as keep the candidates under the budget (at least one).
        j = max(i + 1, int(np.searchsorted(reach, (reach[i - 1] if i else 0) + budget, "right")))
        a, b = tree.query(edges[i:j])
        a = a + i
        # Each pair once (a < b), neighbours in a ring left out: they meet at their shared point.
        found += int(((a < b) & (next_edge[a] != b) & (next_edge[b] != a)).sum())
        i = j
    return found


@lru_cache(maxsize=4)
def land_polygons(land: tuple) -> tuple:
    """The land as valid shapely polygons, or LandError. A hand-made file may hold a ring that
    touches or crosses itself, or two polygons that overlap: mended (and joined when drawn)
    rather than failing in the middle of drawing, as long as that is cheap (MAX_MEETINGS_MENDED).
    How tangled the land is, is counted first, from its edges' bounding boxes, before any costly
    geometry is asked of GEOS: a scribble is refused at once."""
    import numpy as np
    import shapely
    if not land:
        return ()
    sizes = np.array([len(ring) for poly in land for ring in poly], dtype=np.int64)
    coords = np.array([p for poly in land for ring in poly for p in ring], dtype=float).reshape(-1, 2)
    first = np.cumsum(sizes) - sizes
    last = first + sizes - 1
    # Every ring's edges, from each point to the next, and from its last point back to its first
    # where the ring is not written closed.
    nxt = np.arange(1, len(coords) + 1)
    nxt[last] = first
    is_edge = np.ones(len(coords), bool)
    is_edge[last] = ~(coords[last] == coords[first]).all(axis=1)
    starts = np.flatnonzero(is_edge)
    edge_at = np.full(len(coords), -1)
    edge_at[starts] = np.arange(len(starts))
    after = nxt[starts]
    after[~is_edge[after]] = nxt[after[~is_edge[after]]]      # past a closing point, to the ring's first
    next_edge = edge_at[after]
    points = len(coords)
    scribble = MAX_MEETINGS_PER_POINT * points + 1000
    met = _meetings(coords[starts], coords[nxt[starts]], next_edge, scribble)
    if met > scribble:
        raise LandError(f"its edges cross and overlap one another more than {MAX_MEETINGS_PER_POINT} times a "
                        "point: a scribble, not a coastline")
    # Made at once from the coordinates (a polygon at a time took seconds for many small ones).
    rings = shapely.linearrings(coords, indices=np.repeat(np.arange(len(sizes)), sizes))
    polys = shapely.polygons(rings, indices=np.repeat(np.arange(len(land)), [len(poly) for poly in land]))
    if shapely.is_valid(shapely.multipolygons(polys)):
        return tuple(polys)
    if met > MAX_MEETINGS_MENDED:
        raise LandError(f"it crosses or overlaps itself, and is too tangled to mend here ({met:,} pairs of edges "
                        f"meet; at most {MAX_MEETINGS_MENDED:,} are mended): mend the file")
    return tuple(p if p.is_valid else p.buffer(0) for p in polys)


def land_of(wm: WorldMap) -> tuple:
    """The board's land polygons (land_polygons), or the board spec's error at its `land` line."""
    try:
        return land_polygons(wm.land)
    except LandError as exc:
        file, line, name = wm.land_from
        raise SpecError(file, line, "land", f"{show(name)}: {exc}") from None


def map_xy(wm: WorldMap, lat: float, lon: float) -> tuple[float, float]:
    """A point of the earth on the board, mm from the board's top-left corner."""
    u, v = wm.projection.xy(lat, lon)
    return wm.margin + u * wm.square, wm.margin + v * wm.square


def square_box(wm: WorldMap, row: int, col: int) -> tuple[float, float, float, float]:
    return wm.margin + col * wm.square, wm.margin + row * wm.square, wm.square, wm.square


def marker_places(wm: WorldMap, row: int, col: int, sites: list[Country]) -> list[tuple[float, float, float, str]]:
    """Each marker of a square: centre, radius, and where its label sits ('below' or 'right').
    One capital: at its own place, kept inside the square. Several: one under another, labelled
    to the right, so three capitals in one square stay readable."""
    x, y, s, _ = square_box(wm, row, col)
    r = wm.marker_radius
    if len(sites) == 1:
        mx, my = map_xy(wm, sites[0].lat, sites[0].lon)
        pad = r + 0.6
        mx = min(max(mx, x + pad), x + s - pad)
        my = min(max(my, y + pad), y + s - pad - wm.label_size * 1.4)
        return [(mx, my, r, "below")]
    step = s / len(sites)
    small = min(r, step / 2 - 0.5)
    # Stacked north to south, as they lie (Amsterdam over Brussels), in the order given.
    order = sorted(range(len(sites)), key=lambda k: -sites[k].lat)
    return [(x + small + 0.7, y + step * (order.index(k) + 0.5), small, "right") for k in range(len(sites))]


MARKER_NUMBER = 2.5    # mm (7 pt): a marker's bracket number


def draw_marker(d: Drawing, wm: WorldMap, bracket: int, mx: float, my: float, r: float, number: bool = True,
                size: float | None = None) -> None:
    """A capital's marker: a disc in its population bracket's colour with the bracket's number on
    it (the United Nations' "UN"), so that brackets told apart by colour alone (3 and 4, 5 and 6
    look alike to a colour-blind player) read by number too; `size`: the number's (and UN's) size,
    for a diagram that draws the map smaller. Without the number, a dot: the opening the peg goes
    in."""
    from ...colour import WHITE, readable_on
    ink = wm.palette["ink"]
    fill = wm.deck.bracket_colour(bracket)
    d.circle(mx, my, r, Style(fill=fill, stroke=ink, width=0.25))
    if not number:
        d.circle(mx, my, r * 0.28, Style(fill=ink))
        return
    text, size = (str(bracket), size or MARKER_NUMBER) if bracket else ("UN", size or 2.2)
    f = get_font("sans-bold")
    d.text(mx, my + f.cap_height * size / 2, text, size, readable_on(fill, WHITE, ink), font="sans-bold",
           align="centre")


def draw_board(wm: WorldMap, markers: bool = True) -> Drawing:
    """The map; without its markers and their names (a diagram draws its own, clear of walls)."""
    p = wm.palette
    ink, paper = p["ink"], p["paper"]
    proj, sq, m = wm.projection, wm.square, wm.margin
    W, H = wm.width, wm.height
    mw, mh = proj.columns * sq, proj.rows * sq
    d = Drawing(W, H)
    b = BOARD_BLEED   # the paper runs into the large-format page's bleed
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=paper))
    d.rect(m, m, mw, mh, Style(fill=p["sea"]))
    # Land: clipped to the map's bounds in degrees, then projected.
    west, south, east, north = proj.lonlat_bounds()
    frame = box(west, south, east, north)
    land = unary_union([poly.intersection(frame) for poly in land_of(wm) if poly.intersects(frame)])
    polys = list(land.geoms) if hasattr(land, "geoms") else [land]
    for poly in polys:
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        pb = PathBuilder()
        for ring in [poly.exterior, *poly.interiors]:
            pts = [map_xy(wm, lat, lon) for lon, lat in ring.coords]
            pb.polygon(pts)
        d.path(pb, Style(fill=p["land"], stroke=p["coast"], width=0.25, even_odd=True))
    # The grid: the lines the walls are laid on.
    grid = Style(stroke=p["grid"], width=0.18)
    for c in range(proj.columns + 1):
        d.line(m + c * sq, m, m + c * sq, m + mh, grid)
    for r in range(proj.rows + 1):
        d.line(m, m + r * sq, m + mw, m + r * sq, grid)
    d.rect(m, m, mw, mh, Style(stroke=p["frame"], width=0.7))
    # Column numbers along the top and bottom, row letters down both sides.
    for c in range(proj.columns):
        for y in (m - 8.5, m + mh + 2.5):
            d.fit_text(m + c * sq, y, sq, 5, str(c + 1), p["frame"], max_size=6)
    for r in range(proj.rows):
        for x in (m - 10, m + mw + 2):
            d.fit_text(x, m + r * sq + sq / 2 - 2.5, 8, 5, chr(65 + r), p["frame"], max_size=6)
    # The markers: one per capital (and the Vatican and the UN), coloured and numbered by
    # population bracket; the key under the grid, off the playable squares.
    _legend(d, wm)
    if not markers:
        return d
    placed = []
    for (row, col), sites in sorted(wm.sites.items()):
        for c, (mx, my, r, where) in zip(sites, marker_places(wm, row, col, sites)):
            placed.append((c, mx, my, r, where))
            draw_marker(d, wm, c.bracket, mx, my, r)
    for label in place_labels(wm, placed):
        if label.leader is not None:
            d.line(*label.leader, Style(stroke=ink, width=0.2))
        d.text(label.x, label.baseline, label.text, wm.label_size, ink, font="sans")
    return d


@dataclass(frozen=True)
class Label:
    text: str
    x: float            # left end of the baseline
    baseline: float
    box: tuple[float, float, float, float]   # x0, y0, x1, y1: what the text covers
    leader: tuple[float, float, float, float] | None   # a line from the marker, when set apart


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(segment, box) -> bool:
    """Whether a line segment passes through a box (x0, y0, x1, y1): clipped against it."""
    x1, y1, x2, y2 = segment
    t0, t1 = 0.0, 1.0
    for p, q in ((-(x2 - x1), x1 - box[0]), (x2 - x1, box[2] - x1), (-(y2 - y1), y1 - box[1]), (y2 - y1, box[3] - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return t1 - t0 > 1e-9


def place_labels(wm: WorldMap, markers, keep_out=()) -> list[Label]:
    """Every capital's name beside its marker at the board's label size, never smaller: each name
    takes the first place round its marker (beside it first, then a little further off with a
    leader line) that touches no marker, no other name and nothing in keep_out, and stays on the
    map. The most crowded markers choose first. A name with no free place is an error."""
    font = get_font("sans")
    size = wm.label_size
    cap, desc = font.cap_height * size, 0.24 * size
    pad = 0.25                                                   # clear space round every name
    sq, m = wm.square, wm.margin
    frame = (m, m, m + wm.projection.columns * sq, m + wm.projection.rows * sq)
    discs = [(mx - r - pad, my - r - pad, mx + r + pad, my + r + pad) for _, mx, my, r, _ in markers]
    taken: list[tuple] = list(keep_out)

    def crowd(item):
        _, mx, my, _, _ = item
        return -sum(1 for _, x, y, _, _ in markers if abs(x - mx) < 2 * sq and abs(y - my) < sq)

    placed, leaders = {}, []
    for c, mx, my, r, where in sorted(markers, key=crowd):
        w = font.width(c.capital, size)
        gap = r + 0.5

        def box_at(x, base):
            return (x, base - cap, x + w, base + desc)

        def spots(far: float):
            """Places for the name round the marker, `far` beyond touching it: first the side
            the marker prefers, then every 30 degrees round."""
            angles = [0, 180, 90, 270] if where == "right" else [90, 270, 0, 180]
            angles += [a for a in range(0, 360, 30) if a not in angles]
            for a in angles:
                ux, uy = math.cos(math.radians(a)), math.sin(math.radians(a))
                px, py = mx + (gap + far) * ux, my + (gap + far) * uy
                x = px if ux > 0.3 else (px - w if ux < -0.3 else px - w / 2)
                base = py + cap if uy > 0.3 else (py - desc if uy < -0.3 else py + cap / 2)
                yield x, base

        choice = None
        for far in (0.0, 1.0, 2.0, 3.5, 5.0, 7.0, 9.0, 12.0):
            for x, base in spots(far):
                box = box_at(x, base)
                if not (frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3]):
                    continue
                grown = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
                if any(_overlap(grown, o) for o in discs) or any(_overlap(grown, o) for o in taken):
                    continue
                leader = None
                if far > 0:   # a line from the marker's edge to the nearest point of the name
                    nx, ny = min(max(mx, box[0]), box[2]), min(max(my, box[1]), box[3])
                    dist = math.hypot(nx - mx, ny - my)
                    leader = (mx + (nx - mx) * r / dist, my + (ny - my) * r / dist, nx, ny)
                    own = (mx - r - pad, my - r - pad, mx + r + pad, my + r + pad)
                    if any(_crosses(leader, o) for o in discs if o != own) or \
                            any(_crosses(leader, o) for o in taken) or \
                            any(_crosses(o, box) for o in leaders):
                        continue
                choice = (x, base, box, leader)
                break
            if choice:
                break
        if choice is None:
            raise ValueError(f"no room on the board for the name of {c.capital}: make the squares larger "
                             f"or the labels smaller")
        x, base, box, leader = choice
        if leader is not None:
            leaders.append(leader)
        taken.append(box)
        placed[c.name] = Label(c.capital, x, base, box, leader)
    return [placed[c.name] for c, *_ in markers]


def _legend(d: Drawing, wm: WorldMap) -> tuple[float, float, float, float]:
    """The board's key in one line under the grid's bottom margin, off the playable squares (it
    once covered some thirty squares of the South Pacific): the title, the markers by population
    bracket, what the squares are."""
    from .data import KEY_HEIGHT
    p, sq, m = wm.palette, wm.square, wm.margin
    mw, mh = wm.projection.columns * sq, wm.projection.rows * sq
    x, y, w, h = m, m + mh + m, mw, KEY_HEIGHT - 2.0
    d.rect(x, y, w, h, Style(fill=p["paper"], stroke=p["frame"], width=0.5), r=2)
    cy = y + h / 2
    size = wm.title.upper()
    title_w = get_font("sans-bold").width(size, 6.0)
    d.text(x + 4, cy + 2.2, size, 6.0, p["frame"], font="sans-bold")
    xx = x + 4 + title_w + 6
    d.text(xx, cy + 1.0, "THE WORLD IN OCTOBER 1961", 2.8, p["ink"], font="sans")
    xx += get_font("sans").width("THE WORLD IN OCTOBER 1961", 2.8) + 10
    head = "MARKERS BY POPULATION (MILLIONS):"
    d.text(xx, cy + 1.0, head, 2.8, p["ink"], font="sans-bold")
    xx += get_font("sans-bold").width(head, 2.8) + 5
    low = 0.0
    keys = []
    for bracket, below, _ in wm.deck.brackets:
        keys.append((bracket, f"{low:g} to {below:g}" if below is not None else f"over {low:g}"))
        low = below if below is not None else low
    keys.append((0, "United Nations"))
    for bracket, label in keys:
        draw_marker(d, wm, bracket, xx + wm.marker_radius, cy, wm.marker_radius)
        d.text(xx + 2 * wm.marker_radius + 1.5, cy + 1.0, label, 2.8, p["ink"], font="sans")
        xx += 2 * wm.marker_radius + 1.5 + get_font("sans").width(label, 2.8) + 6
    d.text(x + w - 4, cy + 1.0, "Squares of 5 degrees; rows A-Y, columns 1-56. Coastlines: Natural Earth "
           "(public domain).", 2.4, p["ink"], font="sans", align="right")
    return (x, y, x + w, y + h)


def halves(wm: WorldMap, board: Drawing) -> list[tuple[Drawing, tuple, None]]:
    """Figs. 1A and 1B: the left and right halves of the board, each on its own page with crop
    marks at its trim; the two meet at the middle column line (no overlap: they butt together)."""
    pw, ph = wm.halves_paper.size
    split = wm.margin + (wm.projection.columns // 2) * wm.square
    parts = [(0.0, split, "Fig. 1A: left half, columns 1-%d" % (wm.projection.columns // 2)),
             (split, wm.width - split, "Fig. 1B: right half, columns %d-%d" % (wm.projection.columns // 2 + 1,
                                                                               wm.projection.columns))]
    pages = []
    for x0, w, caption in parts:
        page_w, page_h = (max(pw, ph), min(pw, ph)) if w > wm.height else (min(pw, ph), max(pw, ph))
        if w + 20 > page_w or wm.height + 20 > page_h:
            page_w, page_h = w + 30, wm.height + 40
        d = Drawing(page_w, page_h)
        ox, oy = (page_w - w) / 2, (page_h - wm.height) / 2
        d.place(board, translate(ox - x0, oy), clip=Rect(x0, 0, w, wm.height, Style()))
        crop_marks(d, [ox, ox + w], [oy, oy + wm.height], 2.0, ox, oy, ox + w, oy + wm.height)
        d.fit_text(ox, oy + wm.height + 8, w, 3, f"{wm.title} board, {caption}", wm.palette["ink"],
                   font="sans", align="left")
        pages.append((d, (ox, oy, w, wm.height), None))
    return pages


def board_from_spec(spec: Spec) -> tuple[WorldMap, Drawing]:
    wm = load_board(spec)
    try:
        return wm, draw_board(wm)
    except ValueError as exc:   # a name with no room beside its marker
        raise spec.error(("marker", "label_size"), str(exc)) from None
