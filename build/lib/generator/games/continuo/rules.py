"""Continuo rules: pure functions of a layout and a placement. No printing, no input.

Grid: compartments are addressed (row, col), row down, col right, any integers. A placement
puts a tile's top-left compartment (after turning it) on a cell. A chain is a maximal group of
edge-connected compartments of one colour across the whole layout; a placement scores every
chain that holds compartments of the new tile and of at least one other tile: its number of
compartments (Continuo) or the sum of its numbers (Count continuo).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import plural
from ...referee.contract import Refused
from .tiles import Tile, rotate_tile
from .tiles import regions as tile_regions

Cell = tuple[int, int]
ROTATIONS = (0, 90, 180, 270)
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class Placement:
    tile: Tile          # as printed (rotation 0)
    row: int
    col: int
    rotation: int = 0
    opening: bool = False
    label: str = ""     # how the record named the tile: "12" or the inline rows

    def cells(self) -> dict[Cell, str]:
        turned = rotate_tile(self.tile, self.rotation)
        return {(self.row + r, self.col + c): turned[r][c] for r in range(4) for c in range(4)}


@dataclass(frozen=True)
class Chain:
    colour: str
    size: int
    value: int          # what it scores: size, or the sum of its numbers
    tiles: tuple[int, ...]


@dataclass
class Layout:
    """Compartments on the table: cell -> (colour, index of the placement that put it there)."""
    cells: dict[Cell, tuple[str, int]] = field(default_factory=dict)
    placements: list[Placement] = field(default_factory=list)

    def copy(self) -> "Layout":
        return Layout(dict(self.cells), list(self.placements))


def check_placement(layout: Layout, p: Placement) -> None:
    if p.rotation not in ROTATIONS:
        raise Refused("rotation", f"a tile turns by 0, 90, 180 or 270 degrees, not {p.rotation}")
    new = p.cells()
    overlap = [c for c in new if c in layout.cells]
    if overlap:
        other = layout.cells[overlap[0]][1]
        raise Refused("no overlap", f"the tile would cover compartment {list(overlap[0])} of tile #{other + 1} "
                                    f"({plural(len(overlap), 'compartment')} overlap)")
    if layout.cells and not touches(layout, new):
        raise Refused("edge contact", "the tile must touch a tile already placed along an edge "
                                      "(corner contact does not count)")


def touches(layout: Layout, new: dict) -> bool:
    return any((y + dy, x + dx) in layout.cells for (y, x) in new for dy, dx in NEIGHBOURS)


def chain_groups(layout: Layout, index: int) -> list[tuple[str, list[Cell], set[int]]]:
    """Every chain through the tile placed as `index` that also reaches another tile: (colour,
    its cells, the tiles it runs through). What chains_of scores and the rules sheet outlines."""
    cells = layout.cells
    seen: set[Cell] = set()
    out = []
    for start, (colour, idx) in cells.items():
        if idx != index or start in seen:
            continue
        stack, group, tiles = [start], [], set()
        seen.add(start)
        while stack:
            y, x = stack.pop()
            group.append((y, x))
            tiles.add(cells[(y, x)][1])
            for dy, dx in NEIGHBOURS:
                n = (y + dy, x + dx)
                if n not in seen and n in cells and cells[n][0] == colour:
                    seen.add(n)
                    stack.append(n)
        if len(tiles) > 1:
            out.append((colour, group, tiles))
    return out


def chains_of(layout: Layout, new_index: int, numbers: dict[str, int] | None) -> list[Chain]:
    """Every chain through the tile placed as new_index that also reaches another tile."""
    out = []
    for colour, group, tiles in chain_groups(layout, new_index):
        value = len(group) if numbers is None else numbers[colour] * len(group)
        out.append(Chain(colour, len(group), value, tuple(sorted(t + 1 for t in tiles))))
    out.sort(key=lambda c: (-c.value, c.colour))
    return out


def place(layout: Layout, p: Placement, numbers: dict[str, int] | None = None) -> tuple[Layout, list[Chain]]:
    """The layout after p, and the chains p scores; Refused leaves the layout as it was."""
    check_placement(layout, p)
    nxt = layout.copy()
    index = len(nxt.placements)
    for cell, colour in p.cells().items():
        nxt.cells[cell] = (colour, index)
    nxt.placements.append(p)
    return nxt, chains_of(nxt, index, numbers)


# ---------------------------------------------------------------- the best-placement finder

@dataclass(frozen=True)
class Shape:
    """A turned tile, analysed once: its compartments, and its own one-colour regions, each with the
    cells just outside the tile that border it (each outside cell borders exactly one compartment)."""
    cells: tuple        # ((row, col), ...) inside the tile
    regions: tuple      # ((colour, size, ((row, col), ...) outside), ...)


def shape_of(turned: Tile) -> Shape:
    regions = []
    for region in tile_regions(turned):
        r, c = next(iter(region))
        outside = sorted({(y + dy, x + dx) for (y, x) in region for dy, dx in NEIGHBOURS
                          if not (0 <= y + dy < 4 and 0 <= x + dx < 4)})
        regions.append((turned[r][c], len(region), tuple(outside)))
    return Shape(tuple((r, c) for r in range(4) for c in range(4)), tuple(regions))


class RegionIndex:
    """The layout's chains labelled once, so each candidate placement is scored by looking only at
    the cells just outside the new tile."""

    def __init__(self, layout: Layout, numbers: dict[str, int] | None):
        self.layout = layout
        self.numbers = numbers
        self.region: dict[Cell, int] = {}
        self.size: list[int] = []
        self.value: list[int] = []
        self.colour: list[str] = []
        for start, (colour, _) in layout.cells.items():
            if start in self.region:
                continue
            rid = len(self.size)
            stack, n = [start], 0
            self.region[start] = rid
            while stack:
                y, x = stack.pop()
                n += 1
                for dy, dx in NEIGHBOURS:
                    nb = (y + dy, x + dx)
                    if nb not in self.region and layout.cells.get(nb, (None,))[0] == colour:
                        self.region[nb] = rid
                        stack.append(nb)
            self.size.append(n)
            self.colour.append(colour)
            self.value.append(n if numbers is None else numbers[colour] * n)

    def score(self, shape: Shape, r0: int, c0: int) -> int | None:
        """Score of putting the shape down with its top-left at (r0, c0), or None if not legal."""
        cells = self.layout.cells
        for r, c in shape.cells:
            if (r0 + r, c0 + c) in cells:
                return None
        touching = False
        chains: list[list] = []     # [value of the new compartments, old regions joined], disjoint
        for colour, size, outside in shape.regions:
            rids = set()
            for r, c in outside:
                got = cells.get((r0 + r, c0 + c))
                if got is not None:
                    touching = True
                    if got[0] == colour:
                        rids.add(self.region[(r0 + r, c0 + c)])
            if not rids:
                continue            # a region reaching no other tile scores nothing
            chain = [size if self.numbers is None else self.numbers[colour] * size, rids]
            # Two regions of the new tile joined through an old chain are one chain.
            kept = []
            for other in chains:
                if other[1] & chain[1]:
                    chain[0] += other[0]
                    chain[1] |= other[1]
                else:
                    kept.append(other)
            chains = kept + [chain]
        if cells and not touching:
            return None
        return sum(k + sum(self.value[r] for r in rids) for k, rids in chains)


def candidate_origins(layout: Layout) -> set[Cell]:
    """Top-left cells at which a tile could touch the layout (a superset; legality is checked).
    A tile touching the layout covers an empty cell next to it, so its origin is within 3 of one."""
    if not layout.cells:
        return {(0, 0)}
    cells = layout.cells
    frontier = {(y + dy, x + dx) for (y, x) in cells for dy, dx in NEIGHBOURS} - cells.keys()
    return {(y - dy, x - dx) for (y, x) in frontier for dy in range(4) for dx in range(4)}


def best_placements(layout: Layout, tile: Tile, numbers: dict[str, int] | None = None):
    """Every legal placement of tile, best first: [(score, row, col, rotation)]."""
    index = RegionIndex(layout, numbers)
    origins = candidate_origins(layout)
    seen_shapes = set()
    results = []
    for rot in ROTATIONS:
        turned = rotate_tile(tile, rot)
        if turned in seen_shapes:  # a symmetric tile: the same placement twice
            continue
        seen_shapes.add(turned)
        shape = shape_of(turned)
        for (r0, c0) in origins:
            s = index.score(shape, r0, c0)
            if s is not None:
                results.append((s, r0, c0, rot))
    results.sort(key=lambda t: (-t[0], t[1], t[2], t[3]))
    return results
