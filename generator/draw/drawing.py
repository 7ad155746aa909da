"""A small drawing layer in millimetres, y pointing down, origin top-left.

A face or a board is drawn once into a Drawing (a display list of a few primitives); the PDF
backend (reportlab) and the SVG backend (svgwrite) each render that list. Transforms are affine
matrices (a, b, c, d, e, f) mapping (x, y) to (a x + c y + e, b x + d y + f), as in SVG and PDF.
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..colour import Colour
from ..errors import show
from ..units import PT_PER_MM
from .fonts import Font, font_runs, get_font, text_width

Affine = tuple[float, float, float, float, float, float]
IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


# The smallest text printed: what is set smaller to fit its place (a title too long for a card's
# back) is an error, not small print. A drawing for a screen only (a game's position, which a phone
# zooms) is made with least_text=0.
MIN_TEXT = 6 / PT_PER_MM      # mm: 6 pt


class TextTooSmall(ValueError):
    """Text that fits its place only under the least size. The build turns it into an error at the
    spec's line whose value the text shows (pipeline.run_job)."""

    def __init__(self, text: str, size: float, least: float = MIN_TEXT):
        self.text, self.size, self.least = text, size, least
        super().__init__(f"{show(text)} would print at {size * PT_PER_MM:.1f} pt to fit its place, under "
                         f"{least * PT_PER_MM:g} pt: make it shorter")


def fit_size(text: str, font: Font, width: float, cap: float, max_size: float | None = None,
             least: float = MIN_TEXT, unit: float | None = None) -> float:
    """The size (mm) that sets text as large as fits `width` with its capitals within `cap` (and
    at most max_size); TextTooSmall if that is under `least`. Every text made smaller to fit its
    place is sized here. unit: the text's width at 1 mm, where it is set in more than one font."""
    size = cap / font.cap_height
    if max_size is not None:
        size = min(size, max_size)
    if unit is None:
        unit = font.width(text, 1.0)
    if unit * size > width:
        size = width / unit
    if size < least and text.strip():
        raise TextTooSmall(text, size, least)
    return size


def compose(outer: Affine, inner: Affine) -> Affine:
    """The transform that applies inner first, then outer."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2,
            a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def invert(m: Affine) -> Affine:
    """The transform that undoes m (ValueError where m flattens the plane)."""
    a, b, c, d, e, f = m
    det = a * d - b * c
    if det == 0 or not math.isfinite(det):
        raise ValueError("a transform that cannot be undone")
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return (ia, ib, ic, id_, -(ia * e + ic * f), -(ib * e + id_ * f))


def apply(m: Affine, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def drawn_items(group, m: Affine = IDENTITY):
    """Every primitive of a group (a Drawing's root, or a drawing placed in it), with the transform
    it is drawn under, from the drawing's own frame."""
    m = compose(m, group.transform)
    for item in group.items:
        if hasattr(item, "items"):
            yield from drawn_items(item, m)
        else:
            yield item, m


def translate(dx: float, dy: float) -> Affine:
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def scale(sx: float, sy: float | None = None) -> Affine:
    return (sx, 0.0, 0.0, sx if sy is None else sy, 0.0, 0.0)


def rotate(degrees: float, cx: float = 0.0, cy: float = 0.0) -> Affine:
    """Clockwise on the page (y points down), about (cx, cy)."""
    t = math.radians(degrees)
    r = (math.cos(t), math.sin(t), -math.sin(t), math.cos(t), 0.0, 0.0)
    return compose(translate(cx, cy), compose(r, translate(-cx, -cy)))


def mirror_x(width: float) -> Affine:
    """Reflect left-right within [0, width]."""
    return (-1.0, 0.0, 0.0, 1.0, width, 0.0)


def mirror_y(height: float) -> Affine:
    return (1.0, 0.0, 0.0, -1.0, 0.0, height)


@dataclass(frozen=True)
class Gradient:
    """A paint that runs through colours: "linear" from (x1, y1) to (x2, y2) (`points`), or "radial"
    from its centre (cx, cy) out to a radius r (`points` cx, cy, r), in the coordinates of the shape
    it fills; `stops` (offset from 0 to 1, colour) in order of offset. Past its ends the end
    colours go on (SVG's pad, cairo's EXTEND_PAD, PDF's Extend), in every backend alike."""
    kind: str
    points: tuple[float, ...]
    stops: tuple[tuple[float, Colour], ...]

    def __post_init__(self):
        if self.kind not in ("linear", "radial") or len(self.points) != (4 if self.kind == "linear" else 3):
            raise ValueError(f"a {self.kind} gradient with {len(self.points)} numbers")
        offsets = [o for o, _ in self.stops]
        if len(offsets) < 2 or offsets != sorted(offsets) or not 0 <= offsets[0] <= offsets[-1] <= 1:
            raise ValueError("a gradient needs two stops or more, their offsets from 0 to 1 in order")


Paint = Colour | Gradient


@dataclass(frozen=True)
class Style:
    fill: Paint | None = None
    stroke: Colour | None = None
    width: float = 0.3          # stroke width, mm
    join: str = "round"         # round | miter | bevel
    cap: str = "round"          # round | butt | square
    even_odd: bool = False      # fill rule, for shapes with holes
    dash: tuple[float, ...] | None = None
    fill_opacity: float = 1.0   # 0 (none) to 1 (opaque): each paint's own, laid over what is under it
    stroke_opacity: float = 1.0


@dataclass
class Path:
    ops: list[tuple]            # ("M", x, y) ("L", x, y) ("C", x1, y1, x2, y2, x, y) ("Z",)
    style: Style


@dataclass
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style
    r: float = 0.0              # corner radius


@dataclass
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    style: Style


@dataclass
class Text:
    x: float                    # left end of the baseline
    y: float
    text: str
    font: Font
    size: float                 # em size, mm
    fill: Colour
    direction: str | None = None   # "rtl" or "ltr" for a run whose direction is resolved (a piece of
                                   # a line already ordered); None: the text's own (shaping.py)
    opacity: float = 1.0
    context: tuple[str, str] = ("", "")   # the text just before and after it in another style
                                          # (a piece of a word in bold): shaped as within it


@dataclass
class Image:
    """A picture (images.Picture) whose whole lies in `frame` (x, y, w, h, mm), shown within the
    box x, y, w, h: where the box runs past the frame the picture goes on mirrored at its edge (a
    card's art carried into the bleed); where the frame runs past the box it is cut (a cover fit)."""
    x: float
    y: float
    w: float
    h: float
    picture: object
    frame: tuple[float, float, float, float]
    opacity: float = 1.0

    @property
    def fills_frame(self) -> bool:
        return self.frame == (self.x, self.y, self.w, self.h)


@dataclass
class Group:
    items: list = field(default_factory=list)
    transform: Affine = IDENTITY
    clip: Path | Rect | None = None
    name: str | None = None     # a layer or part name, kept as an id in SVG
    reused: bool = False        # a drawing placed in others (a card face): a backend may draw it once
                                # and refer to it wherever it is placed (a PDF form XObject)


class PathBuilder:
    """Chainable path construction; arcs become cubic Béziers so both backends agree."""

    def __init__(self):
        self.ops: list[tuple] = []
        self._cur = self._start = (0.0, 0.0)

    def move(self, x, y):
        self.ops.append(("M", x, y)); self._cur = self._start = (x, y); return self

    def line(self, x, y):
        self.ops.append(("L", x, y)); self._cur = (x, y); return self

    def curve(self, x1, y1, x2, y2, x, y):
        self.ops.append(("C", x1, y1, x2, y2, x, y)); self._cur = (x, y); return self

    def quad(self, qx, qy, x, y):
        x0, y0 = self._cur
        return self.curve(x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0),
                          x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y)

    def arc(self, cx, cy, r, start_deg, end_deg, ry=None, connect=True):
        """Arc of a circle (or ellipse with ry) from start to end angle, clockwise on the page
        for increasing angles (0 = +x, 90 = +y, i.e. downwards)."""
        ry = r if ry is None else ry
        a0, a1 = math.radians(start_deg), math.radians(end_deg)
        n = max(1, math.ceil(abs(a1 - a0) / (math.pi / 2) - 1e-9))
        da = (a1 - a0) / n
        k = 4 / 3 * math.tan(da / 4)
        x0, y0 = cx + r * math.cos(a0), cy + ry * math.sin(a0)
        if connect and self.ops and self.ops[-1][0] != "Z":
            self.line(x0, y0)
        else:
            self.move(x0, y0)
        for i in range(n):
            t0, t1 = a0 + i * da, a0 + (i + 1) * da
            p0 = (cx + r * math.cos(t0), cy + ry * math.sin(t0))
            p3 = (cx + r * math.cos(t1), cy + ry * math.sin(t1))
            p1 = (p0[0] - k * r * math.sin(t0), p0[1] + k * ry * math.cos(t0))
            p2 = (p3[0] + k * r * math.sin(t1), p3[1] - k * ry * math.cos(t1))
            self.curve(*p1, *p2, *p3)
        return self

    def star(self, cx, cy, tips: int, outer: float, inner: float):
        """A star of `tips` points, the first straight up, its tips on a circle of radius outer and
        the notches between them on one of radius inner (inner = outer: a regular polygon of
        2 x tips sides)."""
        points = []
        for k in range(2 * tips):
            r = outer if k % 2 == 0 else inner
            t = -math.pi / 2 + k * math.pi / tips
            points.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        return self.polygon(points)

    def regular(self, cx, cy, sides: int, r: float):
        """A regular polygon of `sides` sides, a corner straight up, its corners on a circle of radius r."""
        return self.polygon([(cx + r * math.cos(-math.pi / 2 + 2 * math.pi * k / sides),
                              cy + r * math.sin(-math.pi / 2 + 2 * math.pi * k / sides)) for k in range(sides)])

    def polygon(self, points):
        self.move(*points[0])
        for p in points[1:]:
            self.line(*p)
        return self.close()

    def close(self):
        self.ops.append(("Z",)); self._cur = self._start; return self     # (the pen back where it started)


ALIGN = ("left", "centre", "right")


class Drawing:
    """A display list with a current group; primitives take mm."""

    def __init__(self, width: float, height: float, least_text: float = MIN_TEXT):
        """least_text: the smallest size fit_text may set (6 pt; 0 for a drawing only ever shown
        on a screen, which zooms)."""
        self.width, self.height = width, height
        self.least_text = least_text
        self.root = Group()
        self._stack = [self.root]

    # -- structure
    def add(self, item):
        self._stack[-1].items.append(item)
        return item

    @contextmanager
    def group(self, transform: Affine = IDENTITY, clip: Path | Rect | None = None, name: str | None = None):
        g = self.add(Group(transform=transform, clip=clip, name=name))
        self._stack.append(g)
        try:
            yield g
        finally:
            self._stack.pop()

    def place(self, other: "Drawing", transform: Affine = IDENTITY, clip=None, name=None):
        """Put another drawing's content here under a transform (how cards go on a sheet)."""
        other.root.reused = True
        return self.add(Group(items=[other.root], transform=transform, clip=clip, name=name))

    # -- shapes
    def rect(self, x, y, w, h, style: Style, r: float = 0.0):
        return self.add(Rect(x, y, w, h, style, r))

    def circle(self, cx, cy, r, style: Style):
        return self.add(Ellipse(cx, cy, r, r, style))

    def ellipse(self, cx, cy, rx, ry, style: Style):
        return self.add(Ellipse(cx, cy, rx, ry, style))

    def path(self, builder_or_ops, style: Style):
        ops = builder_or_ops.ops if isinstance(builder_or_ops, PathBuilder) else list(builder_or_ops)
        return self.add(Path(ops, style))

    def polygon(self, points, style: Style):
        return self.path(PathBuilder().polygon(points), style)

    def line(self, x1, y1, x2, y2, style: Style):
        return self.path([("M", x1, y1), ("L", x2, y2)], style)

    def polyline(self, points, style: Style):
        return self.path([("M", *points[0])] + [("L", *p) for p in points[1:]], style)

    def image(self, x, y, w, h, picture, frame=None, opacity: float = 1.0):
        """A picture stretched to its frame (default: the box), shown within the box (the caller
        fits it: the frame's proportions are the picture's for an undistorted picture)."""
        return self.add(Image(x, y, w, h, picture, tuple(frame) if frame is not None else (x, y, w, h), opacity))

    # -- text
    def text(self, x, y, text: str, size: float, fill: Colour, font: str = "sans-bold", align: str = "left"):
        """Text on a baseline at y; x is the left end, centre or right end per align."""
        runs = font_runs(font, text)     # (in a fallback font the letters this one lacks)
        w = sum(f.width(part, size) for f, part in runs)
        x0 = {"left": x, "centre": x - w / 2, "right": x - w}[align]
        item = None
        for f, part in runs:
            item = self.add(Text(x0, y, part, f, size, fill))
            x0 += f.width(part, size)
        return item

    def fit_text(self, x, y, w, h, text: str, fill: Colour, font: str = "sans-bold",
                 max_size: float | None = None, align: str = "centre", valign: str = "middle") -> float:
        """Set text as large as fits the box (width, and cap height within h); return the size.
        TextTooSmall if it would be under the drawing's least size (6 pt)."""
        f = get_font(font)
        size = fit_size(text, f, w, h, max_size, self.least_text, unit=text_width(font, text, 1.0))
        cap = f.cap_height * size
        base = {"top": y + cap, "middle": y + (h + cap) / 2, "bottom": y + h}[valign]
        ax = {"left": x, "centre": x + w / 2, "right": x + w}[align]
        self.text(ax, base, text, size, fill, font, align)
        return size

    def text_block(self, x, y, w, text: str, size: float, fill: Colour, font: str = "sans",
                   align: str = "left", leading: float = 1.25) -> float:
        """Wrap text to width w from a top edge at y; return the height used."""
        f = get_font(font)
        cap = f.cap_height * size
        ax = {"left": x, "centre": x + w / 2, "right": x + w}[align]
        for i, line in enumerate(wrap_text(text, f, size, w)):
            self.text(ax, y + cap + i * size * leading, line, size, fill, f.name, align)
        return text_block_height(text, size, w, f.name, leading)


def text_block_height(text: str, size: float, width: float, font: str = "sans", leading: float = 1.25) -> float:
    """The height Drawing.text_block would use for this text: for fitting text before drawing it."""
    f = get_font(font)
    lines = wrap_text(text, f, size, width)
    return f.cap_height * size + (len(lines) - 1) * size * leading if lines else 0.0


def wrap_text(text: str, font: Font, size: float, width: float) -> list[str]:
    """The text's lines within the width: broken where the Unicode line-breaking rules let a line
    break (UAX #14, shaping.break_after, as a deck's text is: at spaces, after a hyphen, between
    CJK ideographs but never before "。" or a small kana), and a piece wider than the width (a
    file name, a long title) broken within it, so no line runs past the width. Runs of spaces
    are one space."""
    from .shaping import break_after, needs_shaping
    lines: list[str] = []
    for para in text.split("\n"):
        para = " ".join(para.split())
        if para and not needs_shaping(para) and get_font(font.name).covers(para):
            lines += _wrap_simple(para, get_font(font.name), size, width)
            continue
        line, start = "", 0                  # (line: with the spaces after its last piece)
        for end in break_after(para) if para else ():
            piece, start = para[start:end], end
            if text_width(font.name, (line + piece).rstrip(), size) <= width:
                line += piece
                continue
            if line:
                lines.append(line.rstrip())
            line = piece
            if text_width(font.name, piece.rstrip(), size) > width:
                cut = _word_pieces(piece.rstrip(), font, size, width)
                lines += cut[:-1]
                line = cut[-1] + piece[len(piece.rstrip()):]
        lines.append(line.rstrip())
    return lines


def _wrap_simple(para: str, font: Font, size: float, width: float) -> list[str]:
    """wrap_text of a paragraph set in one font, unshaped (every letter its own advance): the same
    lines, its widths summed as the line grows rather than measured again from its start for each
    piece (a paragraph's wrapping was quadratic in its length). The sums are text_width's own,
    letter by letter from the line's start in the same order, so every comparison comes out as
    it did."""
    from .shaping import break_after
    advances, advance = font._advances, font.advance

    def summed(total: float, text: str) -> float:
        for ch in text:
            adv = advances.get(ch)
            total += adv if adv is not None else advance(ch)
        return total
    lines: list[str] = []
    line, start, total = "", 0, 0.0          # total: the advances of line, its trailing spaces too
    for end in break_after(para):
        piece, start = para[start:end], end
        word = piece.rstrip()
        if not word:                         # (never from UAX #14: no break before a space)
            fits = summed(0.0, (line + piece).rstrip()) * size <= width
        else:
            with_word = summed(total, word)
            fits = with_word * size <= width
        if fits:
            line += piece
            total = summed(with_word, piece[len(word):]) if word else summed(0.0, line)
            continue
        if line:
            lines.append(line.rstrip())
        line = piece
        if summed(0.0, word) * size > width:
            cut = _word_pieces(word, font, size, width)
            lines += cut[:-1]
            line = cut[-1] + piece[len(word):]
        total = summed(0.0, line)
    lines.append(line.rstrip())
    return lines


def _word_pieces(word: str, font: Font, size: float, width: float) -> list[str]:
    """A word wider than the width, cut into pieces that fit: after a hyphen, an underscore, a slash
    or a dot where one is (not leaving it alone on a line), else between letters. A font's width
    is the sum of its letters' advances: one pass of running sums, then a search per piece."""
    from bisect import bisect_right
    from itertools import accumulate
    ends = list(accumulate(text_width(font.name, c, size) for c in word))     # the width of word[:k + 1]
    pieces, start, before = [], 0, 0.0
    while start < len(word) and ends[-1] - before > width:
        stop = max(start + 1, bisect_right(ends, before + width + 1e-9, lo=start))   # word[start:stop] fits
        cut = max(word.rfind(c, start + 1, stop) for c in "-_/.") + 1
        stop = cut if cut > start + 1 else stop
        pieces.append(word[start:stop])
        start, before = stop, ends[stop - 1]
    if start < len(word):
        pieces.append(word[start:])
    return pieces
