"""The Sorry board: its geometry (shared by the rules and the drawing) and its drawing.

Track divisions are numbered 0..59 clockwise from the top-left corner (printed 1..60); the top side
runs east, the right side south, the bottom west, the left north. Side s's right-hand corner (as
its player sees it, where clockwise men come onto the side) is division s * (per_side - 1)."""
from __future__ import annotations

from dataclasses import dataclass

from ...colour import Colour
from ...draw import Drawing, Style
from ...layout.marks import BOARD_BLEED
from ...limits import board_size_problem
from ...referee.contract import name_problem
from ...spec import Spec

INWARD = [(0, 1), (-1, 0), (0, -1), (1, 0)]   # towards the centre from the top, right, bottom, left sides


@dataclass(frozen=True)
class Side:
    name: str
    corner: int
    entry: int      # the division the safety track leaves from
    exit: int       # the division the start opens onto


@dataclass(frozen=True)
class Slide:
    start: int
    length: int
    colour: str     # the side's name: a man of that colour does not slide on it

    def squares(self, n: int) -> list[int]:
        return [(self.start + k) % n for k in range(self.length)]


@dataclass(frozen=True)
class Geometry:
    per_side: int
    track: int
    sides: tuple[Side, ...]
    slides: tuple[Slide, ...]
    safety_length: int

    def side(self, name: str) -> Side:
        for s in self.sides:
            if s.name == name:
                return s
        raise KeyError(name)

    def slide_at(self, i: int):
        for s in self.slides:
            if s.start == i:
                return s
        return None


def load_geometry(spec: Spec) -> Geometry:
    d = spec.data
    per = d["per_side"]
    n = 4 * (per - 1)
    for key in ("start_offset", "safety_offset"):
        if d[key] >= per - 1:
            raise spec.error((key,), f"must fall on the side (0 to {per - 2})")
    sides, slides = [], []
    for k, s in enumerate(d["sides"]):
        c = k * (per - 1)
        sides.append(Side(s["name"], c, (c + d["safety_offset"]) % n, (c + d["start_offset"]) % n))
        for j, sl in enumerate(d["slides"]):
            if sl["offset"] + sl["length"] > per:
                raise spec.error(("slides", j), "a slide must stay on its side")
            slides.append(Slide((c + sl["offset"]) % n, sl["length"], s["name"]))
    # A side's name is the colour a player plays by, in records, at the prompt and on the phones:
    # the same check as any player's name (one that told "red" from "Red" apart no player could).
    for k, side in enumerate(sides):
        problem = name_problem(side.name)
        if problem:
            raise spec.error(("sides", k, "name"), problem)
    folded = [s.name.casefold() for s in sides]
    if len(set(folded)) != len(folded):
        raise spec.error(("sides",), "each side needs its own name (told apart without regard to case)")
    size = per * d["square"] + 2 * d.get("margin", 10)
    problem = board_size_problem(size, size)
    if problem:
        raise spec.error(("square",), problem)
    return Geometry(per, n, tuple(sides), tuple(slides), d["safety_length"])


def cell_of(g: Geometry, i: int) -> tuple[int, int]:
    """(col, row) on the per_side x per_side grid of track division i."""
    m = g.per_side - 1
    side, k = divmod(i % g.track, m)
    return [(k, 0), (m, k), (m - k, m), (0, m - k)][side]


# Where a side's start and home circles stand, in grid squares (the top-left corner of the square
# they are centred on): the start 1.65 squares in from the division it opens onto, home 1.5 past
# the end of the safety track. The board, the position a page draws and the rules sheet's diagrams
# all place them here.
START_IN = 1.65
HOME_PAST = 1.5
START_RADIUS = 1.05      # squares


def start_spot(g: Geometry, k: int) -> tuple[float, float]:
    dx, dy = INWARD[k]
    sx, sy = cell_of(g, g.sides[k].exit)
    return sx + dx * START_IN, sy + dy * START_IN


def home_spot(g: Geometry, k: int) -> tuple[float, float]:
    dx, dy = INWARD[k]
    ex, ey = cell_of(g, g.sides[k].entry)
    return ex + dx * (g.safety_length + HOME_PAST), ey + dy * (g.safety_length + HOME_PAST)


def palette(spec: Spec) -> dict[str, Colour]:
    return {k: spec.colour(("palette", k)) for k in spec.data["palette"]}


def side_colours(spec: Spec) -> dict[str, Colour]:
    """Each side's colour, by the side's name (a Sorry player is a colour)."""
    pal = palette(spec)
    return {s["name"]: spec.colour(("sides", k, "colour"), pal) for k, s in enumerate(spec.data["sides"])}


def start_place(g: Geometry, k: int) -> tuple[float, float, float]:
    """Side k's start circle in board squares from the grid's top-left: its centre and radius.
    It lies just inside the track, opposite the division it opens onto."""
    u, v = start_spot(g, k)
    return u + 0.5, v + 0.5, START_RADIUS


def draw_board(spec: Spec, centre: bool = True, start_label: bool = True) -> Drawing:
    """The board; without its centre (the title and the card spaces) or the word START in the
    starts, for a diagram of a corner (which labels a start beside it, clear of its men)."""
    g = load_geometry(spec)
    d = spec.data
    pal, colour = palette(spec), side_colours(spec)
    q, margin = d["square"], d.get("margin", 10)
    size = g.per_side * q + 2 * margin
    ink, paper = pal.get("ink", Colour(rgb=(0, 0, 0))), pal.get("paper", Colour(rgb=(1, 1, 1)))
    out = Drawing(size, size)
    bleed = BOARD_BLEED   # the background runs into the large-format page's bleed
    out.rect(-bleed, -bleed, size + 2 * bleed, size + 2 * bleed, Style(fill=pal.get("board", paper)))

    def xy(col, row):
        return margin + col * q, margin + row * q

    for i in range(g.track):                      # the track and its numbers
        x, y = xy(*cell_of(g, i))
        out.rect(x, y, q, q, Style(fill=paper, stroke=ink, width=0.4))
        out.text(x + 1.5, y + q - 1.5, str(i + 1), 2.6, ink, font="sans")
    for sl in g.slides:                            # slides: a bar from a triangle to a disc
        a, b = sl.squares(g.track)[0], sl.squares(g.track)[-1]
        (ax, ay), (bx, by) = xy(*cell_of(g, a)), xy(*cell_of(g, b))
        ax, ay, bx, by = ax + q / 2, ay + q / 2, bx + q / 2, by + q / 2
        c = colour[sl.colour]
        out.line(ax, ay, bx, by, Style(stroke=c, width=q * 0.22, cap="butt"))
        ux, uy = ((bx - ax) / max(1e-9, abs(bx - ax) + abs(by - ay)), (by - ay) / max(1e-9, abs(bx - ax) + abs(by - ay)))
        px, py = -uy, ux
        t = q * 0.36
        out.polygon([(ax + ux * t, ay + uy * t), (ax - ux * t * 0.5 + px * t, ay - uy * t * 0.5 + py * t),
                     (ax - ux * t * 0.5 - px * t, ay - uy * t * 0.5 - py * t)], Style(fill=c))
        out.circle(bx, by, q * 0.28, Style(fill=c))
    for k, s in enumerate(g.sides):                # safety tracks, homes, starts
        dx, dy = INWARD[k]
        c = colour[s.name]
        ex, ey = cell_of(g, s.entry)
        for j in range(1, g.safety_length + 1):
            x, y = xy(ex + dx * j, ey + dy * j)
            out.rect(x, y, q, q, Style(fill=c.mix(paper, 0.55), stroke=ink, width=0.4))
        hx, hy = xy(*home_spot(g, k))
        out.circle(hx + q / 2, hy + q / 2, q * 1.15, Style(fill=c.mix(paper, 0.35), stroke=ink, width=0.6))
        out.fit_text(hx + q / 2 - q * 0.8, hy + q / 2 - 2.5, q * 1.6, 5, "HOME", ink)
        # The start "opens" onto its division (the patent's "start 3 opening in the side of the
        # track"): a mouth as wide as the division's middle joins the circle to the track.
        u, v, rad = start_place(g, k)
        cx, cy = margin + u * q, margin + v * q
        r = q * rad
        half = q * 0.32
        reach = r * (1 - (half / r) ** 2) ** 0.5          # from the centre to where the mouth meets the circle
        sx, sy = cell_of(g, s.exit)
        ex0, ey0 = margin + (sx + 0.5) * q, margin + (sy + 0.5) * q
        edge = (ex0 + dx * q / 2, ey0 + dy * q / 2)        # the track's inner edge at that division
        px, py = -dy, dx
        mouth = [(edge[0] + px * half, edge[1] + py * half), (cx + px * half - dx * reach, cy + py * half - dy * reach),
                 (cx - px * half - dx * reach, cy - py * half - dy * reach), (edge[0] - px * half, edge[1] - py * half)]
        out.circle(cx, cy, r, Style(fill=c, stroke=ink, width=0.6))
        out.polygon(mouth, Style(fill=c))
        for a, b in ((mouth[0], mouth[1]), (mouth[3], mouth[2])):
            out.line(*a, *b, Style(stroke=ink, width=0.6, cap="butt"))
        if start_label:
            out.fit_text(cx - q * 0.8, cy - 2.5, q * 1.6, 5, "START", paper)
        # arrows: from the safety entry towards home, and the way round at each corner
        ax, ay = xy(ex + dx * 0.5, ey + dy * 0.5)
        out.polygon(_arrow(ax + q / 2, ay + q / 2, dx, dy, q * 0.3), Style(fill=c))
        cxx, cyy = xy(*cell_of(g, s.corner))
        along = [(1, 0), (0, 1), (-1, 0), (0, -1)][k]   # the way round, clockwise, on this side
        out.polygon(_arrow(cxx + q / 2, cyy + q / 2, *along, q * 0.25), Style(fill=ink))
    if not centre:
        return out
    # the central spaces for the pack and the turned-up cards
    mid = size / 2
    for label, (x, y, cw, ch) in card_spaces(size).items():
        out.rect(x, y, cw, ch, Style(stroke=ink, width=0.6, dash=(3, 2)), r=3)
        out.fit_text(x + 5, y + ch + 3, cw - 10, 4, label, ink)
    ch = card_spaces(size)["PACK"][3]
    out.fit_text(mid - 70, mid - ch / 2 - 26, 140, 16, spec.data["title"].upper(), colour[g.sides[0].name])
    return out


def card_spaces(size: float) -> dict:
    """The board's central spaces, PACK and TURNED UP: (x, y, width, height) in mm, a card (63 x 88 mm)
    and 3 mm round it, side by side in the middle of a board `size` mm square."""
    mid = size / 2
    cw, ch = 63 + 6, 88 + 6
    return {label: (mid - cw - 6 + k * (cw + 12), mid - ch / 2, cw, ch) for k, label in enumerate(("PACK", "TURNED UP"))}


def _arrow(cx, cy, dx, dy, r):
    px, py = -dy, dx
    return [(cx + dx * r, cy + dy * r), (cx - dx * r + px * r * 0.8, cy - dy * r + py * r * 0.8),
            (cx - dx * r - px * r * 0.8, cy - dy * r - py * r * 0.8)]
