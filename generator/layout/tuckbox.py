"""A tuck box for a deck: one flat net of card that folds round the cards. Printed (the deck's back
on the front panel, the title on the spines and the lid, cut, fold and glue marked) for cutting by
hand, and as a cut file (cut and score) for a cutting plotter or a laser.

The net, seen from its printed (outside) face, left to right: front | side | back | side | glue tab.
Above the back, the lid and on it the tuck flap, which slides inside the front; above each side a
dust flap. Below the back, the bottom and its glue flap, glued inside the front; below each side a
dust flap. The front's top edge has a thumb notch. When the net is too big for the paper it is cut
in two pieces at the first side's fold (front | side | tab and back | side | tab), each tab glued
inside the other piece.

Sizes: the inside is the card plus `clearance` across and up, and the deck's thickness (cards x
caliper) plus `clearance` deep. A panel, score to score, is its inside size plus one caliper: the
box is made of the same card stock, and a wall folded on a score takes half its thickness from
each side of the score line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from shapely.geometry import LineString, Point, Polygon, box as rect
from shapely.ops import unary_union

from ..colour import BLACK, Colour, contrast_ratio
from ..draw import Drawing, Rect, Style, compose, rotate, scale, translate
from ..draw.drawing import TextTooSmall, text_block_height
from ..draw.fonts import get_font, text_width
from ..errors import plural
from ..paper import Paper
from ..units import pt
from .cards import CardSize, LayoutError, shortened
# BLEED: the art runs that far past the cut lines, so a cut a little outside shows no white.
from .foldups import BLEED, CUT, HATCH, INK, WHITE, fold_ops, glue_area, polygon_path, ring_ops
from .marks import SAFE_MARGIN

# Defaults for a deck spec without a tuck_box section (decks/*.yaml say theirs).
CALIPER = 0.30        # mm a card is thick: card stock of 250-300 g/m2 measures 0.28-0.35 mm
CLEARANCE = 1.0       # mm added to the card's width and height and to the deck's thickness
CUT_MATERIAL = "card stock 0.3 mm"
CUT_KERF = 0.1        # mm: a laser on card; a plotter's blade takes nothing, and 0.05 mm a side is lost in the fold
CUT_SHEET = (305.0, 305.0)   # mm: a 12 x 12 in cutting mat, the common plotter's and a small laser's bed

SMALLEST_CARD = 20.0  # mm: below this a tuck box's flaps are too small to fold
SHALLOWEST = 5.0      # mm: the thinnest box whose side flaps can be folded
RELIEF = 0.5          # mm cut between a flap's hinge and its neighbour's, so the flaps part cleanly
EDGE = SAFE_MARGIN + BLEED   # page edge to cut line, at the least
GAP = 6.0             # mm between two pieces on one page

MIN_TEXT = 2.3        # mm (6.5 pt): the smallest instruction text
TEXT_WIDTH = 50.0     # mm: the narrowest column for the instructions (the legend and the bar are 50 mm)


@dataclass(frozen=True)
class BoxSettings:
    """A deck spec's tuck_box section, with the defaults above."""
    caliper: float = CALIPER
    clearance: float = CLEARANCE
    material: str = CUT_MATERIAL
    kerf: float = CUT_KERF
    sheet: tuple[float, float] = CUT_SHEET


def box_settings(spec) -> BoxSettings:
    d = spec.data.get("tuck_box", {})
    cut = d.get("cut", {})
    return BoxSettings(d.get("caliper", CALIPER), d.get("clearance", CLEARANCE), cut.get("material", CUT_MATERIAL),
                       cut.get("kerf", CUT_KERF), tuple(cut.get("sheet", CUT_SHEET)))


@dataclass(frozen=True)
class TuckBox:
    card_w: float
    card_h: float
    cards: int
    caliper: float = CALIPER
    clearance: float = CLEARANCE

    @property
    def deck_thickness(self) -> float:
        return self.cards * self.caliper

    @property
    def inner(self) -> tuple[float, float, float]:
        """Width, height and depth inside the box. A deck thinner than the thinnest box that folds
        (a dozen cards or fewer) gets that box: a thin box is still a box, and it holds them."""
        c = self.clearance
        return (self.card_w + c, self.card_h + c, max(self.deck_thickness + c, SHALLOWEST - self.wall))

    @property
    def outer(self) -> tuple[float, float, float]:
        """Width, height and depth outside the box: the inside and a wall of card either side."""
        return tuple(v + 2 * self.wall for v in self.inner)

    @property
    def wall(self) -> float:
        """What a fold takes from the inside: the box's own card, of the deck's caliper."""
        return self.caliper

    @property
    def panels(self) -> tuple[float, float, float]:
        """Front (and back) width, height, and side width, score to score."""
        w, h, d = self.inner
        return (w + self.wall, h + self.wall, d + self.wall)

    # The flaps: sized from the panels, so every box closes the same way.
    @property
    def tuck(self) -> float:
        """The tuck flap's depth: it slides inside the front, deeper than the thumb notch, so the
        front holds it across its whole width."""
        return min(16.0, max(self.notch + 3.0, 0.8 * self.panels[2]))

    @property
    def dust(self) -> float:
        """A dust flap's length across the opening (from each side: together less than the width)."""
        W, _, D = self.panels
        return min(W / 2 - 1.0, D + self.tuck - 1.0, max(10.0, 0.9 * D))

    @property
    def glue_tab(self) -> float:
        return min(10.0, max(6.0, 0.15 * self.panels[0]))

    @property
    def glue_flap(self) -> float:
        """The bottom's glue flap, glued inside the front."""
        return min(12.0, max(8.0, 0.5 * self.panels[2]))

    @property
    def notch(self) -> float:
        """The thumb notch's radius, in the front's top edge."""
        return min(10.0, self.panels[0] / 5)


def deck_box(size: CardSize, cards: int, settings: BoxSettings) -> TuckBox:
    return TuckBox(size.width, size.height, cards, settings.caliper, settings.clearance)


# ---------------------------------------------------------------- the net

@dataclass
class Net:
    """One piece of a box: its outline (cut), fold lines (score), glue areas (on the printed face)
    and the panels by name (x, y, w, h), in mm, y down."""
    outline: Polygon
    folds: list[LineString] = field(default_factory=list)
    glue: list[Polygon] = field(default_factory=list)
    panels: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    notch: float = 0.0               # the thumb notch's radius (its depth) in the front's top edge

    @property
    def size(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.outline.bounds
        return (x1 - x0, y1 - y0)


def _chamfered(x0: float, x1: float, y: float, depth: float, direction: int, chamfer: float,
               slope: float = 0.0) -> Polygon:
    """A flap hinged along y from x0 to x1, reaching `depth` up (direction -1) or down (+1), its
    sides drawn in by `slope` at the far end (so the waste beside it is a wedge, not a strip) and
    its two far corners cut off by `chamfer`."""
    far = y + direction * depth
    near = y + direction * (depth - chamfer)
    a, b = x0 + slope * (depth - chamfer) / depth, x1 - slope * (depth - chamfer) / depth
    return Polygon([(x0, y), (a, near), (a + chamfer, far), (b - chamfer, far), (b, near), (x1, y)])


def _rounded_flap(x0: float, x1: float, y: float, depth: float, radius: float) -> Polygon:
    """The tuck flap: hinged along y, reaching up `depth`, its far corners rounded."""
    pts = [(x0, y)]
    for cx, a0, a1 in ((x0 + radius, 180, 270), (x1 - radius, 270, 360)):
        for k in range(9):
            a = math.radians(a0 + (a1 - a0) * k / 8)
            pts.append((cx + radius * math.cos(a), y - depth + radius + radius * math.sin(a)))
    pts.append((x1, y))
    return Polygon(pts)


def box_nets(box: TuckBox, pieces: int = 1) -> list[Net]:
    """The box as one net, or as two pieces (split at the first side's fold)."""
    if pieces not in (1, 2):
        raise ValueError("a box is one piece or two")
    columns = [["front", "side 1", "back", "side 2"]] if pieces == 1 else [["front", "side 1"], ["back", "side 2"]]
    return [_piece(box, cols) for cols in columns]


def _piece(box: TuckBox, columns: list[str]) -> Net:
    W, H, D = box.panels
    if D < SHALLOWEST:
        raise LayoutError(f"a deck {box.deck_thickness:.1f} mm thick makes a box {D:.1f} mm deep; a tuck box "
                          f"needs {SHALLOWEST:g} mm to fold (a thicker caliper or clearance, or no box)")
    T, L, g, G = box.tuck, box.dust, box.glue_tab, box.glue_flap
    y0 = T + D              # the body's top: room for the lid and its tuck flap above
    y1 = y0 + H
    shapes, folds, glue, panels = [], [], [], {}
    x = 0.0
    for k, name in enumerate(columns):
        cw = D if name.startswith("side") else W
        shapes.append(rect(x, y0, x + cw, y1))
        panels[name] = (x, y0, cw, H)
        if k:
            folds.append(LineString([(x, y0), (x, y1)]))
        if name.startswith("side"):
            slope = min(0.12 * L, 0.12 * cw)
            chamfer = min(0.25 * (cw - 2 * RELIEF - 2 * slope), 0.4 * L)
            for where, y, direction in (("top", y0, -1), ("bottom", y1, 1)):
                shapes.append(_chamfered(x + RELIEF, x + cw - RELIEF, y, L, direction, chamfer, slope))
                folds.append(LineString([(x + RELIEF, y), (x + cw - RELIEF, y)]))
                panels[f"{name} dust flap {where}"] = (x + RELIEF, y - L if direction < 0 else y, cw - 2 * RELIEF, L)
        elif name == "back":
            shapes.append(rect(x, y0 - D, x + cw, y0))                       # the lid
            panels["lid"] = (x, y0 - D, cw, D)
            folds.append(LineString([(x, y0), (x + cw, y0)]))
            radius = min(0.6 * T, 0.2 * cw)
            shapes.append(_rounded_flap(x + RELIEF, x + cw - RELIEF, y0 - D, T, radius))
            panels["tuck flap"] = (x + RELIEF, y0 - D - T, cw - 2 * RELIEF, T)
            folds.append(LineString([(x + RELIEF, y0 - D), (x + cw - RELIEF, y0 - D)]))
            shapes.append(rect(x, y1, x + cw, y1 + D))                       # the bottom
            panels["bottom"] = (x, y1, cw, D)
            folds.append(LineString([(x, y1), (x + cw, y1)]))
            flap = _chamfered(x + RELIEF, x + cw - RELIEF, y1 + D, G, 1, min(0.8 * G, 0.2 * cw))
            shapes.append(flap)
            glue.append(flap)
            panels["glue flap"] = (x + RELIEF, y1 + D, cw - 2 * RELIEF, G)
            folds.append(LineString([(x + RELIEF, y1 + D), (x + cw - RELIEF, y1 + D)]))
        x += cw
    # The glue tab on the last panel's free edge: it goes inside the panel it meets.
    chamfer = min(g, 0.2 * H)
    tab = Polygon([(x, y0), (x + g, y0 + chamfer), (x + g, y1 - chamfer), (x, y1)])
    shapes.append(tab)
    glue.append(tab)
    panels["glue tab"] = (x, y0, g, H)
    folds.append(LineString([(x, y0), (x, y1)]))
    if not all(s.is_valid and s.area > 0 for s in shapes):
        raise LayoutError("the tuck box's flaps come out too small to cut (a bug in its sizes)")
    outline = unary_union(shapes)
    if "front" in panels:
        fx, _, fw, _ = panels["front"]
        outline = outline.difference(Point(fx + fw / 2, y0).buffer(box.notch, 32))
    if not isinstance(outline, Polygon) or not outline.is_valid:
        raise LayoutError("the tuck box's net is not one piece (a bug in its sizes)")
    return Net(outline, folds, glue, panels, box.notch if "front" in panels else 0.0)


# ---------------------------------------------------------------- the art

@dataclass
class BoxArt:
    """What a deck's box shows: the deck's back on the front, its title on the spines, the lid and
    the back, in the back's colours."""
    stem: str
    title: str
    size: CardSize
    cards: int
    back: Drawing
    colour: Colour
    ink: Colour
    contents: str             # "106 cards", "42 tiles, the rules and an example"


def deck_art_on_box(art, box) -> BoxArt:
    """What a deck's box shows, from the deck's art (its stem, title, size, cards and back) and its
    box (colour, ink, and what it holds if the game says, else its count of cards)."""
    cards = len(art.expanded())
    return BoxArt(art.stem, art.title, art.size, cards, art.back, box.colour, box.ink,
                  box.contents or plural(cards, "card"))


def draw_net(page: Drawing, net: Net, art: BoxArt, ox: float, oy: float, cut: bool = True) -> None:
    """One piece printed at (ox, oy): background and panels' art within the bleed, glue areas, then
    the fold lines (dashed) and the cut line (solid; not with `cut` False: a machine cuts it, and a
    printed line would show where its cut drifts)."""
    bleed = net.outline.buffer(BLEED, join_style="mitre", mitre_limit=4.0)
    bg, ink = art.colour, art.ink
    with page.group(clip=polygon_path(bleed, ox, oy)):
        x0, y0, x1, y1 = net.outline.bounds      # (a piece without the lid starts below y = 0)
        page.rect(ox + x0 - 10, oy + y0 - 10, x1 - x0 + 20, y1 - y0 + 20, Style(fill=bg))
        if "front" in net.panels:
            x, y, w, h, s = front_art_box(net, art, net.notch)
            t = compose(translate(ox + x, oy + y), scale(s))
            # The deck's back, whole, under the thumb notch: the notch would bite into its frame
            # or its colours; the box's own colour (the back's) fills round it.
            page.place(art.back, t)
        if "back" in net.panels:
            _back_panel(page, art, *net.panels["back"], ox, oy)
        for name, (x, y, w, h) in net.panels.items():
            if name.startswith("side") and "flap" not in name:
                _spine(page, art, ox + x, oy + y, w, h)
        if "lid" in net.panels:
            x, y, w, h = net.panels["lid"]
            # The lid folds over towards the front: its text reads from the front, so upside down here.
            with page.group(rotate(180, ox + x + w / 2, oy + y + h / 2)):
                _label(page, ox + x + 4, oy + y + h * 0.25, w - 8, h * 0.5, art.title, ink, max_size=8)
        for g in net.glue:
            glue_area(page, g, ox, oy)
    fold = Style(stroke=ink.mix(bg, 0.35), width=pt(0.6), dash=(2.0, 1.5), cap="butt")
    for line in net.folds:
        (ax, ay), (bx, by) = line.coords
        page.line(ox + ax, oy + ay, ox + bx, oy + by, fold)
    if cut:
        page.path(polygon_path(net.outline, ox, oy).ops, cut_style(bg))


def tuck_box_cut_part(art: BoxArt, net: Net, name: str):
    """A piece of the box for a cutting machine (issue 37): the net as printed (draw_net, its art
    BLEED past the outline, no cut line), its outline with the tab and the thumb notch, its folds;
    in the net's frame moved to its bounding box's top-left."""
    from .cutpart import CutPart
    x0, y0, _, _ = net.outline.bounds
    w, h = net.size
    face = Drawing(w, h)
    draw_net(face, net, art, -x0, -y0, cut=False)
    return CutPart(name, w, h, face, ring_ops(net.outline.exterior, -x0, -y0), BLEED, 1,
                   holes=[ring_ops(r, -x0, -y0) for r in net.outline.interiors],
                   folds=[fold_ops(line, -x0, -y0) for line in net.folds])


NOTCH_CLEAR = 1.5     # mm between the thumb notch and the front's art


def front_art_box(net: Net, art: "BoxArt", notch: float) -> tuple[float, float, float, float, float]:
    """Where the deck's back goes on the front: (x, y, width, height, scale), the back whole and as
    large as fits the panel below the notch (and NOTCH_CLEAR), centred across it."""
    x, y, w, h = net.panels["front"]
    cw, ch = art.size.width, art.size.height
    room = h - notch - NOTCH_CLEAR
    s = min(w / cw, room / ch)
    return x + (w - cw * s) / 2, y + notch + NOTCH_CLEAR + (room - ch * s) / 2, cw * s, ch * s, s


def _spine(page: Drawing, art: BoxArt, x: float, y: float, w: float, h: float) -> None:
    """The title along a side, reading top to bottom (a book's spine)."""
    with page.group(rotate(90, x + w / 2, y + h / 2)):
        # In the turned frame the panel is h wide and w high, centred on the same point.
        cx, cy = x + w / 2, y + h / 2
        _label(page, cx - h / 2 + 5, cy - w * 0.22, h - 10, w * 0.44, art.title, art.ink, max_size=9)


def _back_panel(page: Drawing, art: BoxArt, x: float, y: float, w: float, h: float, ox: float, oy: float) -> None:
    x, y = ox + x, oy + y
    _label(page, x + 5, y + 10, w - 10, 8, art.title, art.ink, max_size=10)
    page.text_block(x + 5, y + 22, w - 10, art.contents, 3.2, art.ink, align="centre", leading=1.3)
    _label(page, x + 5, y + h - 10, w - 10, 2.4,
                  f"{art.size.width:g} x {art.size.height:g} mm", art.ink, font="sans", cut=False, max_size=3)


def _label(page: Drawing, x: float, y: float, w: float, h: float, text: str, ink: Colour, font: str = "sans-bold",
           cut: bool = True, **kw) -> None:
    """fit_text that never fails the deck's spec for the box's sake: a text too long for its
    panel at the least size (a long title on the spine of a box of 20 mm cards) is cut short with
    an ellipsis (with `cut`: a half-shown measure would mislead, so our own caption is left out),
    or left out where not even that fits; the deck's own sheets carry it whole."""
    try:
        page.fit_text(x, y, w, h, text, ink, font=font, **kw)
        return
    except TextTooSmall:
        pass
    f = get_font(font)
    least = page.least_text
    if not cut or h < least * f.cap_height:
        return
    short = shortened(text, w, lambda t: text_width(font, t, least))    # (in the deck's fonts where sans lacks a letter)
    if short:
        page.fit_text(x, y, w, h, short, ink, font=font, **kw)


def cut_style(bg: Colour) -> Style:
    """The cut line runs over the art's bleed: black where that reads (contrast 4.5 or more),
    else light grey, so a dark box still shows where to cut."""
    if contrast_ratio(bg, BLACK) >= 4.5:
        return CUT
    return Style(stroke=Colour(rgb=(0.85, 0.85, 0.85)), width=CUT.width, join="miter")


# ---------------------------------------------------------------- pages

@dataclass
class PrintPlan:
    pieces: int
    pages: list[tuple[float, float, list[tuple[Net, float, float]]]]   # (page w, page h, [(net, x, y)])


def _orientations(paper: Paper) -> list[tuple[float, float]]:
    pw, ph = paper.size
    return [(max(pw, ph), min(pw, ph)), (min(pw, ph), max(pw, ph))]   # landscape first


def plan_print(box: TuckBox, paper: Paper) -> PrintPlan:
    """One piece on one sheet if it fits (landscape, then portrait); else two pieces on one sheet,
    side by side or one above the other; else two pieces on a sheet each."""
    one = box_nets(box, 1)[0]
    for pw, ph in _orientations(paper):
        w, h = one.size
        if w <= pw - 2 * EDGE and h <= ph - 2 * EDGE:
            return PrintPlan(1, [(pw, ph, [(one, EDGE, EDGE)])])
    a, b = box_nets(box, 2)
    (aw, ah), (bw, bh) = a.size, b.size
    for pw, ph in _orientations(paper):
        uw, uh = pw - 2 * EDGE, ph - 2 * EDGE
        if aw + GAP + bw <= uw and max(ah, bh) <= uh:
            return PrintPlan(2, [(pw, ph, [(a, EDGE, EDGE), (b, EDGE + aw + GAP, EDGE)])])
        if max(aw, bw) <= uw and ah + GAP + bh <= uh:
            return PrintPlan(2, [(pw, ph, [(a, EDGE, EDGE), (b, EDGE, EDGE + ah + GAP)])])
    pages = []
    for net in (a, b):
        w, h = net.size
        fit = [(pw, ph) for pw, ph in _orientations(paper) if w <= pw - 2 * EDGE and h <= ph - 2 * EDGE]
        if not fit:
            raise LayoutError(f"the tuck box ({one.size[0]:.0f} x {one.size[1]:.0f} mm, or two pieces of "
                              f"{w:.0f} x {h:.0f} mm) does not fit {paper.label} paper; make the deck thinner")
        pages.append((*fit[0], [(net, EDGE, EDGE)]))
    return PrintPlan(2, pages)


def instructions(box: TuckBox, art: BoxArt, pieces: int) -> tuple[str, list[str]]:
    iw, ih, idp = box.inner
    head = f"{art.title}: tuck box"
    tab = ("Glue each side tab (hatched) inside the piece it meets: the two pieces make a tube."
           if pieces == 2 else "Glue the side tab (hatched) inside the front's free edge: the box is a tube.")
    lines = [
        f"For {art.contents}, {art.size.width:g} x {art.size.height:g} mm. Inside {iw:g} x {ih:g} x {idp:.1f} mm: "
        f"the cards plus {box.clearance:g} mm each way, the deck {art.cards} x {box.caliper:g} mm thick"
        + (" (a thin deck: the thinnest box that folds)." if idp > box.deck_thickness + box.clearance + 1e-9 else "."),
        "Print at 100 %, one-sided, on card stock (250-300 g/m2, about 0.3 mm).",
        "1. Cut on the solid lines, the thumb notch too.",
        "2. Score every dashed line along a ruler (a blunt knife or an empty pen) and fold it away "
        "from the print.",
        f"3. {tab}",
        "4. Fold in the bottom's two small flaps, then the bottom; glue its flap inside the front.",
        "5. Put the cards in, fold in the top's small flaps, close the lid and tuck its flap inside "
        "the front.",
        # (Not the file's name: a name wider than the column would run off the page.)
        "Each step is drawn on the tuck box's assembly sheet, beside this file.",
    ]
    return head, lines


def _text_height(head: str, lines: list[str], width: float, size: float) -> float:
    h = _head_height(head, width, size) + size * 0.5
    for line in lines:
        h += text_block_height(line, size, width, leading=1.2) + size * 0.7
    return h + 12.0 + size     # the legend and the scale bar


def _head_height(head: str, width: float, size: float) -> float:
    """The heading's height, wrapped to the column (a long title does not run off the page)."""
    return text_block_height(head, size * 1.15, width, font="sans-bold", leading=1.2) + size * 0.45


def _draw_text(page: Drawing, x: float, y: float, width: float, head: str, lines: list[str], size: float) -> None:
    page.text_block(x, y, width, head, size * 1.15, INK, font="sans-bold", leading=1.2)
    y += _head_height(head, width, size) + size * 0.5
    for line in lines:
        y += page.text_block(x, y, width, line, size, INK, leading=1.2) + size * 0.7
    # A legend, and a bar to check the print's scale.
    y += 2.0
    page.line(x, y, x + 6, y, CUT)
    page.text(x + 7.5, y + size * 0.35, "cut", size, INK, font="sans")
    page.line(x + 16, y, x + 22, y, Style(stroke=INK, width=pt(0.6), dash=(2.0, 1.5), cap="butt"))
    page.text(x + 23.5, y + size * 0.35, "fold", size, INK, font="sans")
    page.rect(x + 33, y - 2, 5, 4, Style(fill=WHITE, stroke=HATCH.stroke, width=pt(0.5)))
    page.text(x + 39.5, y + size * 0.35, "glue", size, INK, font="sans")
    y += 4.0 + size
    page.text(x, y, "At 100 % this bar is 50 mm:", size, INK, font="sans")
    page.rect(x, y + 1.5, 50, 2.0, Style(fill=INK))


def _free_boxes(pw: float, ph: float, placed: list[tuple[Net, float, float]]) -> list[tuple[float, float, float, float]]:
    """Empty places on a page for the instructions (x, y, w, h): right of the pieces, below them,
    and above the front panel (nothing of the net is there). `placed`: (net, x, y) as drawn."""
    boxes = []
    right = max(x + n.outline.bounds[2] for n, x, _ in placed) + BLEED + 3
    boxes.append((right, EDGE, pw - SAFE_MARGIN - right, ph - EDGE - SAFE_MARGIN))
    bottom = max(y + n.outline.bounds[3] for n, _, y in placed) + BLEED + 5
    boxes.append((EDGE, bottom, pw - EDGE - SAFE_MARGIN, ph - SAFE_MARGIN - bottom))
    for net, ox, oy in placed:
        if "front" in net.panels:
            x, y, w, _ = net.panels["front"]
            top = SAFE_MARGIN + 1
            boxes.append((ox + x + 1, top, w - 2, oy + y - BLEED - 3 - top))
    return boxes


def print_pages(box: TuckBox, art: BoxArt, plan: PrintPlan) -> list[Drawing]:
    """The printed box: its pieces as plan_print laid them out, the instructions on the first page."""
    head, lines = instructions(box, art, plan.pieces)
    pages = []
    for i, (pw, ph, placed) in enumerate(plan.pages):
        page = Drawing(pw, ph)
        for net, x, y in placed:
            minx, miny, _, _ = net.outline.bounds
            draw_net(page, net, art, x - minx, y - miny)
        pages.append(page)
    # The instructions go beside the box, where there is room; else on a sheet of their own.
    pw, ph, placed = plan.pages[0]
    drawn = [(n, x - n.outline.bounds[0], y - n.outline.bounds[1]) for n, x, y in placed]
    if not _place_text(pages[0], pw, ph, drawn, head, lines):
        page = Drawing(pw, ph)
        _draw_text(page, EDGE, EDGE, min(100.0, pw - 2 * EDGE), head, lines, 2.8)
        pages.append(page)
    return pages


def _place_text(page: Drawing, pw: float, ph: float, placed, head: str, lines: list[str]) -> bool:
    candidates = _free_boxes(pw, ph, placed)
    for size in (2.8, 2.6, 2.4, MIN_TEXT):
        for x, y, w, h in candidates:
            w = min(w, 100.0)      # short lines read better
            if w >= TEXT_WIDTH and _text_height(head, lines, w, size) <= h:
                _draw_text(page, x, y, w, head, lines, size)
                return True
    return False


# ---------------------------------------------------------------- the cut file, and the products

def cut_parts(box: TuckBox, settings: BoxSettings, name: str) -> list:
    """The box for a cutting plotter or a laser: its outline cut, its folds scored; in one piece if
    it fits the cut sheet, else two."""
    from ..laser.parts import Part
    sw, sh = settings.sheet
    usable = (sw - 2 * CUT_MARGIN, sh - 2 * CUT_MARGIN)

    def fits(net: Net) -> bool:
        w, h = net.size
        w, h = w + settings.kerf, h + settings.kerf
        return (w <= usable[0] and h <= usable[1]) or (h <= usable[0] and w <= usable[1])
    for pieces in (1, 2):
        nets = box_nets(box, pieces)
        if all(fits(n) for n in nets):
            return [Part(f"{name} {k + 1}" if pieces > 1 else name, n.outline, list(n.folds), material=settings.material)
                    for k, n in enumerate(nets)]
    w, h = box_nets(box, 2)[1].size
    raise LayoutError(f"the tuck box, even in two pieces ({w:.0f} x {h:.0f} mm), does not fit a "
                      f"{sw:g} x {sh:g} mm cut sheet with {CUT_MARGIN:g} mm margins")


CUT_MARGIN = 5.0      # mm from the cut sheet's edge
