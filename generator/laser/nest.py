"""Nesting parts onto sheets: guillotine packing of their (kerf-compensated) bounding boxes.

Parts are taken tallest first, turned a quarter turn when that makes them lower. Each goes into
the first free rectangle, on any sheet, that holds it (free rectangles in the order they were
made: the first sheet's first); what it leaves of that rectangle becomes two: the rest of its row
(as tall as the part) and everything under it (the rectangle's whole width). So short parts stack
in the room beside a tall one (the Cubes rings beside the cup layer) and small parts fill the end
of a row of large ones, where a plain shelf packer started a sheet of their own. Predictable:
every part keeps `spacing` mm from its neighbours and `margin` from the edge.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from shapely import affinity

from ..limits import fit_problem, sheets_problem
from .kerf import compensate
from .parts import Part, translate_part
from ..errors import show


@dataclass
class Sheet:
    width: float
    height: float
    material: str = ""
    parts: list[Part] = field(default_factory=list)       # placed, nominal geometry
    cut_paths: list = field(default_factory=list)          # placed, kerf-compensated outlines
    # The cut's layer, in the SVG and the DXF: "CUT" through the stock, or a kiss cut named with
    # its depth (the Cubes rail layer: the film cut, its liner whole), so the operator sets it so.
    cut_layer: str = "CUT"
    note: str = ""                # what the sheet's title says of its cut (a kiss cut's depth)
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
            raise NestError(f"part {show(p.name)} has nothing left to cut (its holes take all of it)")
        problem = fit_problem(show(p.name), *size(p, False), (sheet_w, sheet_h), margin)
        if problem:
            raise NestError(problem)
        fits = [r for r in (False, True) if size(p, r)[0] <= usable_w + 1e-9 and size(p, r)[1] <= usable_h + 1e-9]
        return min(fits, key=lambda r: (size(p, r)[1], r))  # lower first: fuller shelves

    placed = [(p, orient(p)) for p in items]
    placed.sort(key=lambda pr: (-size(pr[0], pr[1])[1], pr[0].name))
    # Where each part goes (sheet, x, y), from the bounding boxes alone, by guillotine first fit:
    # free rectangles [sheet, x, y, w, h], each part taking its size plus the spacing (the usable
    # area grows by one spacing, which the last part of a row or column leaves blank), so small
    # parts stack beside a tall one and fill row ends. Then the count of sheets is bounded
    # (generator/limits.py) before any part is moved onto one.
    where: list[tuple[int, float, float]] = []
    materials: list[str] = []
    free: list[list] = []
    for p, rot in placed:
        w, h = size(p, rot)
        ws, hs = w + spacing, h + spacing
        k = next((i for i, f in enumerate(free) if ws <= f[3] + 1e-9 and hs <= f[4] + 1e-9), None)
        if k is None:
            materials.append(p.material)
            free.append([len(materials) - 1, 0.0, 0.0, usable_w + spacing, usable_h + spacing])
            k = len(free) - 1
        n, fx, fy, fw, fh = free.pop(k)
        rest = [[n, fx + ws, fy, fw - ws, hs], [n, fx, fy + hs, fw, fh - hs]]
        free[k:k] = [r for r in rest if r[3] > 1e-9 and r[4] > 1e-9]
        where.append((n, fx, fy))
    problem = sheets_problem(len(materials), placed[0][0].material if placed else "")
    if problem:
        raise NestError(problem)
    sheets = [Sheet(sheet_w, sheet_h, m) for m in materials]
    turned: dict[tuple, tuple] = {}
    for (p, rot), (k, x, y) in zip(placed, where):
        sheet = sheets[k]
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


def material_use(sheet: Sheet) -> tuple[float, float, float]:
    """(the share of the sheet its parts' material takes, the width and height from the sheet's
    corner that its parts lie within, mm): what a print list says of a sheet's waste, and the
    offcut a sparse sheet's parts would fit."""
    area = sum(p.outline.area for p in sheet.parts)
    xs = [c.bounds[2] for c in sheet.cut_paths] or [0.0]
    ys = [c.bounds[3] for c in sheet.cut_paths] or [0.0]
    return area / (sheet.width * sheet.height), max(xs), max(ys)
