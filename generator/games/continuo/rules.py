"""Continuo rules: pure functions of a layout and a placement. No printing, no input.

Grid: compartments are addressed (row, col), row down, col right, any integers. A placement
puts a tile's top-left compartment (after turning it) on a cell. A chain is a maximal group of
edge-connected compartments of one colour across the whole layout; a placement scores every
chain that holds compartments of the new tile and of at least one other tile: its number of
compartments (Continuo) or the sum of its numbers (Count continuo).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...referee.session import Refused
from .tiles import Tile, rotate_tile

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
                                    f"({len(overlap)} compartment(s) overlap)")
    if layout.cells and not touches(layout, new):
        raise Refused("edge contact", "the tile must touch a tile already placed along an edge "
                                      "(corner contact does not count)")


def touches(layout: Layout, new: dict) -> bool:
    return any((y + dy, x + dx) in layout.cells for (y, x) in new for dy, dx in NEIGHBOURS)


def chains_of(layout: Layout, new_index: int, numbers: dict[str, int] | None) -> list[Chain]:
    """Every chain through the tile placed as new_index that also reaches another tile."""
    cells = layout.cells
    seen: set[Cell] = set()
    out = []
    for start, (colour, idx) in cells.items():
        if idx != new_index or start in seen:
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

class RegionIndex:
    """The layout's chains labelled once, so each candidate placement is scored in O(16)."""

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

    def score(self, new: dict[Cell, str]) -> int | None:
        """Score of putting these compartments down, or None if not a legal placement."""
        cells = self.layout.cells
        if any(c in cells for c in new):
            return None
        # Union-find over the new compartments, merged through same-colour neighbours.
        parent = {c: c for c in new}

        def find(c):
            while parent[c] != c:
                parent[c] = parent[parent[c]]
                c = parent[c]
            return c
        touching = False
        ext: dict[Cell, set[int]] = {}
        for (y, x), colour in new.items():
            for dy, dx in NEIGHBOURS:
                nb = (y + dy, x + dx)
                if nb in new:
                    if new[nb] == colour:
                        parent[find(nb)] = find((y, x))
                elif nb in cells:
                    touching = True
                    if cells[nb][0] == colour:
                        ext.setdefault((y, x), set()).add(self.region[nb])
        if cells and not touching:
            return None
        # Two new groups reaching the same old chain are one chain.
        groups: dict[Cell, set[int]] = {}
        for c in new:
            groups.setdefault(find(c), set())
        for c, rids in ext.items():
            groups[find(c)] |= rids
        merged: list[tuple[set[Cell], set[int]]] = []
        for root, rids in groups.items():
            members = {c for c in new if find(c) == root}
            for m in merged:
                if m[1] & rids:
                    m[0].update(members)
                    m[1].update(rids)
                    break
            else:
                merged.append((members, set(rids)))
        # Chains joined through old regions can chain further merges; settle until stable.
        changed = True
        while changed:
            changed = False
            for i in range(len(merged)):
                for j in range(i + 1, len(merged)):
                    if merged[i][1] & merged[j][1]:
                        merged[i][0].update(merged[j][0]); merged[i][1].update(merged[j][1])
                        del merged[j]
                        changed = True
                        break
                if changed:
                    break
        total = 0
        for members, rids in merged:
            if not rids:
                continue
            colour = new[next(iter(members))]
            k = len(members) if self.numbers is None else self.numbers[colour] * len(members)
            total += k + sum(self.value[r] for r in rids)
        return total


def candidate_origins(layout: Layout) -> set[Cell]:
    """Top-left cells at which a tile could touch the layout (a superset; legality is checked)."""
    if not layout.cells:
        return {(0, 0)}
    out = set()
    for (y, x) in layout.cells:
        for dy in range(-4, 2):
            for dx in range(-4, 2):
                out.add((y + dy, x + dx))
    return out


def best_placements(layout: Layout, tile: Tile, numbers: dict[str, int] | None = None):
    """Every legal placement of tile, best first: [(score, row, col, rotation)]."""
    index = RegionIndex(layout, numbers)
    seen_shapes = set()
    results = []
    for rot in ROTATIONS:
        turned = rotate_tile(tile, rot)
        if turned in seen_shapes:  # a symmetric tile: the same placement twice
            continue
        seen_shapes.add(turned)
        for (r0, c0) in candidate_origins(layout):
            new = {(r0 + r, c0 + c): turned[r][c] for r in range(4) for c in range(4)}
            s = index.score(new)
            if s is not None:
                results.append((s, r0, c0, rot))
    results.sort(key=lambda t: (-t[0], t[1], t[2], t[3]))
    return results
