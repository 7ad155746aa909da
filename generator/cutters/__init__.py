"""Home cutting machines (issue 37, print and cut): each machine's profile as data, one YAML file a
machine in this folder (silhouette, cricut, scanncut), every number in it citing its source; and the
machinery every machine shares: parts laid out on a sheet within the area the machine reaches, the
printed sheet (faces with their bleed, the machine's marks on the front only, backs behind faces
with the printer's back offset) and the cut sheet (one closed path a part, holes before outlines)
handed to the laser writers (laser/export.py) for SVG and DXF.

A sheet's frame: mm, y down, origin at the paper's top-left corner, the marks' frame: the cut file
is written in it, so a cut lands where its part's trim is printed. The products that make files
of it are in products/cut_sheets.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
MACHINES = ("silhouette", "cricut", "scanncut")


@dataclass(frozen=True)
class Marks:
    """Silhouette's Type 1 marks: a filled square at the top-left, an L at the top-right and at
    the bottom-left, each `inset` from the paper's edges."""
    style: str
    inset: float
    square: float
    length: float
    thickness: float
    clearance: float

    def zones(self, w: float, h: float) -> list[tuple[float, float, float, float]]:
        """(x0, y0, x1, y1) of the paper round each corner mark where nothing else is printed:
        the four corners (a Cameo 5's four-mark style uses the fourth), so a layout centred on the
        page stays centred once they are left out."""
        i, c = self.inset, self.clearance
        arm = max(self.length, self.square)
        near, far = i - c - self.thickness / 2, i + arm + c
        return [(near, near, far, far), (w - far, near, w - near, far),
                (near, h - far, far, h - near), (w - far, h - far, w - near, h - near)]

    def shapes(self, w: float, h: float) -> list[tuple[str, list[tuple[float, float]]]]:
        """The marks as filled polygons (mm, y down): the square, then each L (its arms a line
        `thickness` wide centred on the inset, as inkscape-silhouette and silhouette-card-maker
        draw them), named as inkscape-silhouette's Regmarks layer names them."""
        i, s, L, t = self.inset, self.square, self.length, self.thickness / 2
        square = [(i, i), (i + s, i), (i + s, i + s), (i, i + s)]
        # Top-right: arms to the left and down from (w - i, i); bottom-left: up and right from (i, h - i).
        x, y = w - i, i
        top_right = [(x + t, y - t), (x + t, y + L), (x - t, y + L), (x - t, y + t), (x - L, y + t), (x - L, y - t)]
        x, y = i, h - i
        bottom_left = [(x - t, y + t), (x - t, y - L), (x + t, y - L), (x + t, y - t), (x + L, y - t), (x + L, y + t)]
        return [("regmark-tl", square), ("regmark-tr", top_right), ("regmark-bl", bottom_left)]


@dataclass(frozen=True)
class Cutter:
    """One machine's profile (generator/cutters/NAME.yaml)."""
    name: str
    title: str
    software: str
    kind: str                                  # marks | picture | outlines
    cut_files: tuple[str, ...]
    reach: dict[str, tuple[float, float, float, float]]   # per paper: x, y, w, h (mm) the cuts may use
    bleed: float
    gap: float
    blade: str
    passes: int
    marks: Marks | None = None
    picture: dict | None = None                # Cricut: width, height (mm), dpi
    outline: dict | None = None                # ScanNCut: width, margin (mm)
    studio: dict | None = None                 # Silhouette Studio's settings, as its panels say them

    def area(self, paper) -> tuple[float, float]:
        """The frame a sheet is laid out in: the paper, or Cricut's picture."""
        if self.picture:
            return self.picture["width"], self.picture["height"]
        return paper.size


@lru_cache(maxsize=None)
def cutter(name: str) -> Cutter:
    """The machine's profile, read from its YAML (ours: a mistake in it is ours, and stops here)."""
    data = yaml.safe_load((HERE / f"{name}.yaml").read_text(encoding="utf-8"))
    marks = Marks(**data.pop("marks")) if "marks" in data else None
    reach = {k: tuple(float(v) for v in box) for k, box in data.pop("reach").items()}
    return Cutter(name=name, marks=marks, reach=reach, cut_files=tuple(data.pop("cut_files")), **data)


# ---------------------------------------------------------------- parts laid out on sheets

@dataclass
class Placed:
    """A part on a sheet: `transform` takes the part's frame to the sheet's (a quarter turn
    clockwise where `turned`); x, y, w, h: its outline's box on the sheet."""
    part: object                  # a contents.CutPart
    transform: tuple
    x: float
    y: float
    w: float
    h: float
    turned: bool


@dataclass
class CutSheet:
    width: float
    height: float
    placed: list[Placed] = field(default_factory=list)


def _place(part, x: float, y: float, turned: bool) -> Placed:
    if turned:
        # The part's top edge along the slot's right side, as layout/cards.py turns a card.
        return Placed(part, (0.0, 1.0, -1.0, 0.0, x + part.height, y), x, y, part.height, part.width, True)
    return Placed(part, (1.0, 0.0, 0.0, 1.0, x, y), x, y, part.width, part.height, False)


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class DoesNotFit(ValueError):
    """A part larger than the area the machine reaches on this paper."""


def _footprint(p: Placed, bleed: float) -> tuple:
    return (p.x - bleed, p.y - bleed, p.x + p.w + bleed, p.y + p.h + bleed)


def lay_out(parts: list, machine: Cutter, paper) -> list[CutSheet]:
    """The parts (each as many times as its count) on as few sheets as this simple packing gives,
    each within the machine's reach on this paper, its bleed clear of the marks' corners, and the
    block of them centred on the sheet's frame (Silhouette Studio's Center to Page then puts the
    cut file where the sheet printed it). Parts of one size go in a grid, turned if that holds
    more; others in rows, tallest first."""
    W, H = machine.area(paper)
    rx, ry, rw, rh = machine.reach[paper.name]
    b, gap = machine.bleed, machine.gap
    zones = machine.marks.zones(W, H) if machine.marks else []
    items = [p for p in parts for _ in range(p.count)]
    if not items:
        return []
    for p in items:
        if not (p.width <= rw and p.height <= rh or p.height <= rw and p.width <= rh):
            raise DoesNotFit(f"{p.name}: {p.width:g} x {p.height:g} mm does not fit the {rw:g} x {rh:g} mm "
                             f"a {machine.title} reaches on {paper.label}")
    sizes = {(round(p.width, 3), round(p.height, 3)) for p in items}
    if len(sizes) == 1:
        slots = _grid(items[0], (rx, ry, rw, rh), b, gap, zones)
        if not slots:
            raise DoesNotFit(f"{items[0].name}: no room for it within the {rw:g} x {rh:g} mm a {machine.title} "
                             f"reaches on {paper.label}, clear of its marks")
        sheets = []
        for k in range(0, len(items), len(slots)):
            sheet = CutSheet(W, H)
            for part, (x, y, turned) in zip(items[k:k + len(slots)], slots):
                sheet.placed.append(_place(part, x, y, turned))
            sheets.append(sheet)
        return sheets
    return _rows(items, (rx, ry, rw, rh), W, H, b, gap, zones, machine, paper)


def _grid(part, reach, b, gap, zones) -> list[tuple[float, float, bool]]:
    """The slots (x, y, turned) of the best centred grid of this part clear of the zones."""
    rx, ry, rw, rh = reach
    best: list = []
    step_gap = 2 * b + gap
    for turned in (False, True):
        w, h = (part.height, part.width) if turned else (part.width, part.height)
        cols = int((rw + step_gap) // (w + step_gap))
        rows = int((rh + step_gap) // (h + step_gap))
        if cols * rows == 0:
            continue
        bw, bh = cols * w + (cols - 1) * step_gap, rows * h + (rows - 1) * step_gap
        x0, y0 = rx + (rw - bw) / 2, ry + (rh - bh) / 2      # centred in the reach (centred on the frame)
        slots = []
        for r in range(rows):
            for c in range(cols):
                x, y = x0 + c * (w + step_gap), y0 + r * (h + step_gap)
                box = (x - b, y - b, x + w + b, y + h + b)
                if not any(_overlaps(box, z) for z in zones):
                    slots.append((x, y, turned))
        if len(slots) > len(best):
            best = slots
    return best


def _rows(items, reach, W, H, b, gap, zones, machine, paper) -> list[CutSheet]:
    """Parts of many sizes packed by the laser kits' nesting (laser/nest.py: guillotine first fit
    of their boxes, tallest first, each turned where that makes it lower, short ones stacked
    beside a tall one) within the reach less the bands the marks' corners take, so the block,
    centred, keeps clear of them; each sheet's block centred."""
    from shapely.geometry import box
    from ..laser.nest import NestError, nest
    from ..laser.parts import Part
    rx, ry, rw, rh = reach
    band = max((z[3] for z in zones if z[1] < H / 2), default=ry - b)
    top, bottom = band + b, (H - band - b if zones else ry + rh)
    try:
        nested = nest([Part(str(k), box(0, 0, p.width, p.height)) for k, p in enumerate(items)],
                      rw, bottom - top, margin=0.0, spacing=2 * b + gap)
    except NestError as exc:
        raise DoesNotFit(f"{exc} (a {machine.title} on {paper.label}, clear of its marks)") from None
    sheets = []
    for n in nested:
        sheet = CutSheet(W, H)
        for q in n.parts:
            p = items[int(q.name)]
            x0, y0, x1, y1 = q.outline.bounds
            turned = abs((x1 - x0) - p.width) > 1e-6
            sheet.placed.append(_place(p, rx + x0, top + y0, turned))
        x0 = min(p.x for p in sheet.placed)
        y0 = min(p.y for p in sheet.placed)
        x1 = max(p.x + p.w for p in sheet.placed)
        y1 = max(p.y + p.h for p in sheet.placed)
        dx, dy = (rx + rw / 2) - (x0 + x1) / 2, (top + bottom) / 2 - (y0 + y1) / 2
        sheet.placed = [_place(p.part, p.x + dx, p.y + dy, p.turned) for p in sheet.placed]
        sheets.append(sheet)
    return sheets


def trim_extent(sheet: CutSheet) -> tuple[float, float]:
    """The width and height the sheet's parts' outlines span together."""
    return (max(p.x + p.w for p in sheet.placed) - min(p.x for p in sheet.placed),
            max(p.y + p.h for p in sheet.placed) - min(p.y for p in sheet.placed))


def cropped(sheet: CutSheet, bleed: float, dpi: float) -> CutSheet:
    """The sheet's frame cut down to its parts and their bleed, widened to a whole number of
    pixels at dpi each way, the parts centred in it (a Cricut picture: Design Space reads a
    picture's size from its pixels, and its frame is the cut file's)."""
    from ..draw import compose, translate
    x0 = min(p.x for p in sheet.placed) - bleed
    y0 = min(p.y for p in sheet.placed) - bleed
    w, h = (v + 2 * bleed for v in trim_extent(sheet))
    W, H = (math.ceil(v / 25.4 * dpi - 1e-9) * 25.4 / dpi for v in (w, h))
    dx, dy = (W - w) / 2 - x0, (H - h) / 2 - y0
    return CutSheet(W, H, [Placed(p.part, compose(translate(dx, dy), p.transform), p.x + dx, p.y + dy, p.w, p.h,
                                  p.turned) for p in sheet.placed])


# ---------------------------------------------------------------- geometry of a placed part

def _moved(ops, transform) -> list[tuple]:
    """Path ops (M, L, C, Z) through an affine transform (a Bézier's control points move with it)."""
    from ..draw import apply
    out = []
    for op in ops:
        pts = [apply(transform, op[i], op[i + 1]) for i in range(1, len(op), 2)]
        out.append((op[0], *[v for xy in pts for v in xy]))
    return out


def cut_polygon(p: Placed):
    """The placed part's cut as a shapely polygon in the sheet's frame: its outline, its holes."""
    from shapely.geometry import Polygon
    from ..laser.parts import flatten
    shell = flatten(_moved(p.part.outline, p.transform), tolerance=0.002)[0]
    holes = [flatten(_moved(h, p.transform), tolerance=0.002)[0] for h in p.part.holes]
    return Polygon(shell, holes)


def rounded_rect(w: float, h: float, r: float) -> list[tuple]:
    """A w x h rectangle's outline with corners of radius r, clockwise from the top-left (y down),
    each corner a quarter circle as one Bézier (kappa 0.5523: within 0.03 % of the circle)."""
    r = max(0.0, min(r, w / 2, h / 2))
    if r == 0:
        return [("M", 0.0, 0.0), ("L", w, 0.0), ("L", w, h), ("L", 0.0, h), ("Z",)]
    k = r * (1 - 0.5522847498)
    return [("M", r, 0.0), ("L", w - r, 0.0), ("C", w - k, 0.0, w, k, w, r), ("L", w, h - r),
            ("C", w, h - k, w - k, h, w - r, h), ("L", r, h), ("C", k, h, 0.0, h - k, 0.0, h - r),
            ("L", 0.0, r), ("C", 0.0, k, k, 0.0, r, 0.0), ("Z",)]


def cut_sheet(sheet: CutSheet, material: str = ""):
    """The sheet's cuts as a laser Sheet (laser/nest.py), for the laser writers: one part a placed
    part, no kerf (a blade's cut is its line)."""
    from ..laser.nest import Sheet
    from ..laser.parts import Part
    parts = [Part(p.part.name, cut_polygon(p)) for p in sheet.placed]
    return Sheet(sheet.width, sheet.height, material, parts, [q.outline for q in parts])


def mark_paths(machine: Cutter, w: float, h: float) -> list[tuple[str, str]]:
    """The marks as SVG path data (id, d), for the cut SVG's Regmarks layer."""
    if not machine.marks:
        return []
    return [(name, "M" + " L".join(f"{x:g} {y:g}" for x, y in pts) + " Z") for name, pts in machine.marks.shapes(w, h)]


# ---------------------------------------------------------------- printed pages

def draw_marks(d, machine: Cutter) -> None:
    from ..colour import BLACK
    from ..draw import Style
    for _, pts in machine.marks.shapes(d.width, d.height):
        d.polygon(pts, Style(fill=BLACK))


def bleed_clip(part, bleed: float):
    from ..draw import Rect, Style
    return Rect(-bleed, -bleed, part.width + 2 * bleed, part.height + 2 * bleed, Style())


def front_page(sheet: CutSheet, machine: Cutter, caption: list[str] = ()):
    """The sheet's front: every part's face to its bleed; the marks; the outlines (ScanNCut)."""
    from ..colour import BLACK
    from ..draw import Drawing, Path, Style
    d = Drawing(sheet.width, sheet.height)
    for p in sheet.placed:
        if machine.outline:
            # The face to its trim, then a dark line on the trim the scanner finds on the pale
            # margin round it.
            with d.group(p.transform, clip=Path(p.part.outline, Style())):
                d.place(p.part.face)
            with d.group(p.transform):
                d.path(p.part.outline, Style(stroke=BLACK, width=machine.outline["width"], join="miter"))
        else:
            d.place(p.part.face, p.transform, clip=bleed_clip(p.part, machine.bleed))
    if machine.marks:
        draw_marks(d, machine)
    if caption:
        _caption(d, caption, machine.marks.inset if machine.marks else 10.0)
    return d


def _caption(d, phrases: list[str], margin: float) -> None:
    """The sheet's small print, at the home sheet's caption size, centred in the band between the
    page's blank edge and the marks' line, clear of the marks: the phrases that fit, the first
    (the title) cut short with an ellipsis if it alone does not."""
    from ..colour import Colour
    from ..draw.fonts import get_font, text_width
    from ..layout.cards import CAPTION_SIZE, SEPARATOR, shortened
    room = d.width - 80.0

    def width(text: str) -> float:
        return text_width("sans", text, CAPTION_SIZE)
    phrases = list(phrases)
    while len(phrases) > 1 and width(SEPARATOR.join(phrases)) > room:
        phrases.pop(-2 if len(phrases) > 2 else -1)       # the middle ones first: the file name stays
    text = shortened(SEPARATOR.join(phrases), room, width)
    band = CAPTION_SIZE * get_font("sans").cap_height
    d.fit_text(40.0, d.height - margin + 1.4, room, band, text, Colour(rgb=(0.35, 0.35, 0.35)), font="sans",
               align="centre")


def back_page(sheet: CutSheet, machine: Cutter, flip: str, offset) -> object | None:
    """Every part's back behind its face (its `back` is drawn in the part's frame seen from the
    front): through the sheet's flip, shifted by the printer's back offset; no marks. None where no
    part has a back."""
    from ..draw import Drawing, compose, translate
    from ..layout.cards import sheet_flip
    if not any(p.part.back is not None for p in sheet.placed):
        return None
    d = Drawing(sheet.width, sheet.height)
    to_back = compose(translate(*offset), sheet_flip(sheet.width, sheet.height, flip))
    # Behind an outlined part (ScanNCut: no bleed), the back runs past the trim under the outline.
    bleed = machine.bleed if not machine.outline else machine.outline["width"]
    for p in sheet.placed:
        if p.part.back is not None:
            d.place(p.part.back, compose(to_back, p.transform), clip=bleed_clip(p.part, bleed))
    return d


def inches(mm: float) -> str:
    return f"{mm / 25.4:.2f} in"


def in_reach(sheet: CutSheet, machine: Cutter, paper) -> bool:
    """Every part's printed area (outline and bleed) within the reach and clear of the marks."""
    rx, ry, rw, rh = machine.reach[paper.name]
    zones = machine.marks.zones(sheet.width, sheet.height) if machine.marks else []
    for p in sheet.placed:
        box = _footprint(p, machine.bleed)
        if p.x < rx - 1e-6 or p.y < ry - 1e-6 or p.x + p.w > rx + rw + 1e-6 or p.y + p.h > ry + rh + 1e-6:
            return False
        if any(_overlaps(box, z) for z in zones):
            return False
    return True

