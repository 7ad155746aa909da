"""A laser-cut part: nominal geometry in mm, y down, origin at its top-left."""
from __future__ import annotations

from dataclasses import dataclass, field

from shapely.geometry import LineString, MultiPolygon, Polygon

from ..draw.fonts import get_font, text_outline


@dataclass
class Part:
    name: str
    outline: Polygon                 # the material that remains: exterior and holes are both cut
    score: list[LineString] = field(default_factory=list)
    engrave: list[Polygon] = field(default_factory=list)
    label: str = ""                  # scored on the part so it can be told apart after cutting
    quantity: int = 1
    material: str = ""               # which stock it is cut from (sheets are per material)
    cuts: list[LineString] = field(default_factory=list)   # open cut lines (living-hinge slits):
                                     # a single pass whose kerf is the slit, so no offset
    # Engraved channels that must open onto the part's edge (a peg's notches, which a rail runs
    # through): engraved with the rest, but not kept the engraving's inset from the cut.
    grooves: list[Polygon] = field(default_factory=list)

    def bounds(self):
        return self.outline.bounds

    def engraved(self) -> list:
        """Everything engraved on the part: its engraving, then its grooves."""
        return self.engrave + self.grooves


def engraving_clearance(part: Part, kerf: float) -> float | None:
    """The least distance (mm) from the part's engraving (its grooves aside) to a line the beam
    cuts along: its outline offset by half the kerf (kerf.compensate) and its open cuts; 0 if any
    engraving lies off the part. None when the part engraves nothing."""
    import shapely
    from .kerf import compensate
    areas = [g for g in part.engrave if not g.is_empty]
    if not areas:
        return None
    engraved = shapely.union_all(areas)
    if not engraved.covered_by(part.outline):
        return 0.0
    cut = shapely.union_all([compensate(part.outline, kerf).boundary, *part.cuts])
    return float(shapely.distance(engraved, cut))


def flatten(ops, tolerance: float = 0.05) -> list[list[tuple[float, float]]]:
    """Path ops (M/L/C/Z) as polylines, curves split finely enough for a laser."""
    rings, cur = [], []
    x0 = y0 = 0.0
    for op in ops:
        kind = op[0]
        if kind == "M":
            if len(cur) > 1:
                rings.append(cur)
            cur = [(op[1], op[2])]
            x0, y0 = op[1], op[2]
        elif kind == "L":
            cur.append((op[1], op[2]))
            x0, y0 = op[1], op[2]
        elif kind == "C":
            x1, y1, x2, y2, x3, y3 = op[1:]
            length = abs(x1 - x0) + abs(y1 - y0) + abs(x2 - x1) + abs(y2 - y1) + abs(x3 - x2) + abs(y3 - y2)
            n = max(2, min(24, int(length / tolerance ** 0.5 / 2) + 2))
            for i in range(1, n + 1):
                t = i / n
                u = 1 - t
                cur.append((u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                            u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
            x0, y0 = x3, y3
        elif kind == "Z":
            if len(cur) > 2:
                rings.append(cur)
            cur = []
    if len(cur) > 1:
        rings.append(cur)
    return rings


def text_polygons(text: str, x: float, y: float, size: float, font: str = "sans-bold") -> list[Polygon]:
    """Text as engravable areas (glyph outlines, counters as holes), baseline at (x, y)."""
    rings = [r for r in flatten(text_outline(get_font(font), text, x, y, size)) if len(r) > 2]
    shapes = [Polygon(r).buffer(0) for r in rings]
    # Outlines alternate fill and counter (even-odd): xor them together.
    out = None
    for s in shapes:
        out = s if out is None else out.symmetric_difference(s)
    if out is None or out.is_empty:
        return []
    return list(out.geoms) if isinstance(out, MultiPolygon) else [out]


def text_score_lines(text: str, x: float, y: float, size: float) -> list[LineString]:
    """Text as single strokes for scoring (a fast, light mark for part labels): a stroke font, as
    engravers use, so the beam draws each letter once; baseline at (x, y), size as a font size."""
    from .stroke_font import stroke_text
    return [LineString(s) for s in stroke_text(text, x, y, size)]


def translate_part(part: Part, dx: float, dy: float, rotate90: bool = False) -> Part:
    """The part moved (and turned a quarter turn) onto a sheet. Every geometry of the part in one
    vectorised call: a part can carry hundreds of scored strokes."""
    import numpy as np
    import shapely
    if rotate90:
        # A quarter turn about the origin, (x, y) -> (-y, x), then back into the positive quadrant.
        minx, miny, maxx, maxy = part.outline.bounds

        def move(c):
            return np.column_stack((-c[:, 1] + maxy + dx, c[:, 0] - minx + dy))
    else:
        def move(c):
            return c + (dx, dy)
    n_score, n_engrave, n_cuts = len(part.score), len(part.engrave), len(part.cuts)
    geoms = np.array([part.outline, *part.score, *part.engrave, *part.cuts, *part.grooves], dtype=object)
    moved = list(shapely.transform(geoms, move))
    k = 1 + n_score + n_engrave + n_cuts
    return Part(part.name, moved[0], moved[1:1 + n_score], orient_engraving(moved[1 + n_score:1 + n_score + n_engrave]),
                part.label, 1, part.material, moved[1 + n_score + n_engrave:k], orient_engraving(moved[k:]))


def orient_engraving(polygons: list) -> list:
    """Engraved areas with every outline turned one way and every hole the other (outlines
    counter-clockwise as a DXF reader sees them, y up), so that a reader filling by the nonzero
    rule (Inkscape's default) fills what an even-odd one does: a letter's counter stays bare."""
    import shapely
    return list(shapely.orient_polygons(polygons, exterior_cw=True)) if polygons else polygons
