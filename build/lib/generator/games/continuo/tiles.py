"""The Continuo tile family, enumerated.

A tile is a 4 x 4 matrix of compartments, written as four row strings of colour letters.
The family we print (the published description: every tile symmetric about a diagonal, "an
L-shape of one colour with a single small square of another in the corner") is the nested-L
tile: from one corner, a square of 1 compartment, then L-shaped bands of 3, 5 and 7, so that
compartment (r, c) belongs to band max(r, c):

    A B C D
    B B C D
    C C C D
    D D D D

Bands that touch have different colours (else they would be one region, and the tile another
shape). Every band reaches the tile's edge (the corner square at the corner, each L along two
edges), so every chain can run on to the next tile (claims 1 and 5).

Counting, with k colours: band colour sequences with neighbours different are k * (k-1)^3
(108 for 4 colours); those with 4 different colours are 4! = 24; so 84 use two or three colours
(claim 6). No tile equals a rotation of another (the corner square sits in one corner only,
and a turned tile's bands are read from another corner; `canonical` checks it by brute force).

The rule that picks 42 of the 84: the reverse sequence D C B A is never the same tile (that
would need B = C, two touching bands alike), so the 84 fall into 42 pairs {A B C D, D C B A},
the same colours in the same order read from the other end. We keep one of each pair, chosen
so that no colour is favoured: with the colours in a ring (red, yellow, green, blue, red...),
keep the tile whose outer band D is the colour one step after its corner colour A round the
ring; if A and D are alike or opposite, compare the inner bands B and C the same way; if those
are opposite too (6 pairs), keep the tile whose middle band C is red or yellow. The result:
42 tiles in which every colour covers exactly 168 of the 672 compartments (a test checks it).
Every band sequence up to reading direction is in the deck exactly once.
"""
from __future__ import annotations

from itertools import product

Tile = tuple[str, str, str, str]  # four rows of four colour letters


def band_tile(seq: str) -> Tile:
    return tuple("".join(seq[max(r, c)] for c in range(4)) for r in range(4))


def band_sequences(colours: str) -> list[str]:
    """All band colour sequences with touching bands different, using two or three colours."""
    out = []
    for seq in product(colours, repeat=4):
        if all(a != b for a, b in zip(seq, seq[1:])) and len(set(seq)) in (2, 3):
            out.append("".join(seq))
    return out


def deck_sequences(colours: str) -> list[str]:
    """The 42: one of each reversal pair, by the ring rule in the module's docstring."""
    rank = {c: i for i, c in enumerate(colours)}
    k = len(colours)

    def keep(s: str) -> bool:
        for a, b in ((s[0], s[3]), (s[1], s[2])):
            step = (rank[b] - rank[a]) % k
            if step == 1:
                return True
            if step == k - 1:
                return False
        return rank[s[2]] < k / 2
    return [s for s in band_sequences(colours) if keep(s)]


def rotate_tile(tile: Tile, degrees: int) -> Tile:
    """Turn a tile clockwise by 0, 90, 180 or 270 degrees."""
    rows = [list(r) for r in tile]
    for _ in range((degrees // 90) % 4):
        rows = [list(r) for r in zip(*rows[::-1])]
    return tuple("".join(r) for r in rows)


def canonical(tile: Tile) -> Tile:
    """The same tile whichever way it is turned on the table."""
    return min(rotate_tile(tile, d) for d in (0, 90, 180, 270))


def regions(tile: Tile) -> list[set[tuple[int, int]]]:
    """Edge-connected same-colour regions within one tile."""
    seen, out = set(), []
    for r in range(4):
        for c in range(4):
            if (r, c) in seen:
                continue
            colour, stack, region = tile[r][c], [(r, c)], set()
            seen.add((r, c))
            while stack:
                y, x = stack.pop()
                region.add((y, x))
                for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                    if 0 <= ny < 4 and 0 <= nx < 4 and (ny, nx) not in seen and tile[ny][nx] == colour:
                        seen.add((ny, nx))
                        stack.append((ny, nx))
            out.append(region)
    return out
