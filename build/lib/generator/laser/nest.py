"""Nesting parts onto sheets: shelf packing of their (kerf-compensated) bounding boxes.

Parts are taken tallest first and laid left to right in shelves, turned a quarter turn when that
makes them lower; a new shelf when a row is full, a new sheet when the sheet is. Simple and
predictable: every part keeps `spacing` mm from its neighbours and `margin` from the edge.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from shapely import affinity

from ..limits import sheets_problem
from .kerf import compensate
from .parts import Part, translate_part


@dataclass
class Sheet:
    width: float
    height: float
    material: str = ""
    parts: list[Part] = field(default_factory=list)       # placed, nominal geometry
    cut_paths: list = field(default_factory=list)          # placed, kerf-compensated outlines
    # The rings of its geometries as the writers read them (export._rings), read once for its
    # SVG, DXF and PNG alike.
    rings: dict = field(default_factory=dict, repr=False, compare=False)


class NestError(ValueError):
    pass


def nest(parts: list[Part], sheet_w: float, sheet_h: float, kerf: float = 0.0,
         margin: float = 5.0, spacing: float = 3.0) -> list[Sheet]:
    items = []
    for p in parts:
        for i in range(p.quantity):
            items.append(p)
    usable_w, usable_h = sheet_w - 2 * margin, sheet_h - 2 * margin

    # A part's compensated bounds, once per part: a part of many islands (the Cubes rail layer's
    # thousands of dashes) takes most of a second to offset.
    bounds: dict[int, tuple] = {}
    compensated: dict[int, object] = {}

    def size(p: Part, rot: bool):
        if id(p) not in bounds:
            compensated[id(p)] = compensate(p.outline, kerf)
            bounds[id(p)] = compensated[id(p)].bounds
        minx, miny, maxx, maxy = bounds[id(p)]
        w, h = maxx - minx, maxy - miny
        return (h, w) if rot else (w, h)

    def orient(p: Part) -> bool:
        if p.outline.is_empty:
            raise NestError(f"part {p.name!r} has nothing left to cut (its holes take all of it)")
        w, h = size(p, False)
        fits = [r for r in (False, True) if size(p, r)[0] <= usable_w + 1e-9 and size(p, r)[1] <= usable_h + 1e-9]
        if not fits:
            raise NestError(f"part {p.name!r} ({w:.1f} x {h:.1f} mm) does not fit a {sheet_w} x {sheet_h} mm sheet "
                            f"with {margin} mm margins")
        return min(fits, key=lambda r: (size(p, r)[1], r))  # lower first: fuller shelves

    placed = [(p, orient(p)) for p in items]
    placed.sort(key=lambda pr: (-size(pr[0], pr[1])[1], pr[0].name))
    # Where each part goes (sheet, x, y), from the bounding boxes alone; then the count of sheets
    # is bounded (generator/limits.py) before any part is moved onto one.
    where: list[tuple[int, float, float]] = []
    count = 0
    x = y = shelf_h = 0.0
    for p, rot in placed:
        w, h = size(p, rot)
        if not count or x + w > usable_w + 1e-9:
            y += shelf_h + (spacing if count else 0.0)
            x, shelf_h = 0.0, 0.0
        if not count or y + h > usable_h + 1e-9:
            count += 1
            x = y = shelf_h = 0.0
        where.append((count - 1, x, y))
        x += w + spacing
        shelf_h = max(shelf_h, h)
    problem = sheets_problem(count, placed[0][0].material if placed else "")
    if problem:
        raise NestError(problem)
    sheets = [Sheet(sheet_w, sheet_h) for _ in range(count)]
    turned: dict[tuple, tuple] = {}
    for (p, rot), (k, x, y) in zip(placed, where):
        sheet = sheets[k]
        if not sheet.parts:
            sheet.material = p.material
        # Put the compensated outline's top-left at (margin + x, margin + y). A part is turned
        # and offset once however many times it is cut (a cube's wall, 180 times): the offset
        # outline is moved with it, as an offset commutes with a move.
        key = (id(p), rot)
        if key not in turned:
            t = translate_part(p, 0, 0, rot)
            # Unturned, the part is where it was: its offset outline is the one its size was read
            # from (a board layer of thousands of holes takes a second to offset).
            turned[key] = (t, compensated[id(p)] if not rot else compensate(t.outline, kerf))
        t, cut = turned[key]
        cminx, cminy, _, _ = cut.bounds
        dx, dy = margin + x - cminx, margin + y - cminy
        sheet.parts.append(translate_part(t, dx, dy))
        sheet.cut_paths.append(affinity.translate(cut, dx, dy))
    return sheets
