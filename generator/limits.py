"""Bounds on what follows from a spec's numbers, in one place (docs/bad-input.md).

A schema bounds what is written (a length from 0.1 to 2,000 mm, at most 2,000 cards); these bound
what the numbers then call for: a board's size, the fingers of a joint, the slits of a hinge, the
pieces and sheets of a kit. Each is checked by the game's check of its spec, from the numbers
alone, before any drawing, and refused as the spec's error at the line responsible: the work that
follows from a spec within these bounds is bounded too (benchmarks/spec_extremes.py: under 10 s and
1 GB for `validate`, whatever the spec within its schema's bounds).
"""
from __future__ import annotations

# A board's side, printed whole for a print shop and tiled over home sheets: a print shop's
# widest roll is about 1.5 m, and a 2 m board is already 11 x 8 tiles on A4.
MAX_BOARD_MM = 2000.0

# A finger of a finger joint: narrower than 1 mm it breaks off as the joint is pushed together,
# and it must be wider than the kerf twice over (the kerf widens a finger and narrows its slot).
# Fingers are sized from the material's thickness (about 2.5 thicknesses), so this bounds the
# thickness from below, and the fingers of an edge to its length in mm.
MIN_FINGER_MM = 1.0

# The strip of wood left between two slits of a living hinge, past the kerf the slits burn.
MIN_HINGE_STRIP_MM = 0.5

# Stock sheets of one material that one kit may take: the shipped kits take 1 to 6.
MAX_SHEETS = 100

# Wall pieces of one Capitals set (one per card, 123 with the spares, which are at most 50 kinds).
MAX_WALL_PIECES = 1000


def finger_count(length: float, thickness: float, finger: float | None = None) -> int:
    """An odd number of segments, each about 2 to 3 thicknesses wide (or `finger` mm), at least 3.
    (Here, not in laser/joints.py, so that a referee checks a kit without importing shapely.)"""
    target = finger or 2.5 * thickness
    n = max(3, int(round(length / target)))
    return n if n % 2 else n + 1 if length / (n + 1) >= thickness else n - 1


def board_size_problem(width: float, height: float) -> str | None:
    """Why a board of this size (mm) cannot be made, or None."""
    if max(width, height) > MAX_BOARD_MM:
        return (f"the board would be {width:,.0f} x {height:,.0f} mm; a board is at most "
                f"{MAX_BOARD_MM:,.0f} mm a side")
    return None


def finger_problem(length: float, thickness: float, kerf: float, count: int) -> str | None:
    """Why `count` fingers along an edge of `length` mm (material `thickness`, cut with `kerf`)
    cannot be cut, or None."""
    width = length / count
    least = max(MIN_FINGER_MM, 2 * kerf)
    if width < least:
        why = "narrower than 1 mm it breaks off" if least == MIN_FINGER_MM else \
            f"it must be wider than twice the kerf ({kerf:g} mm)"
        return (f"the joints' fingers would be {width:.2f} mm wide ({count:,} along a {length:g} mm edge of "
                f"{thickness:g} mm material): a finger is at least {least:g} mm wide ({why})")
    return None


def hinge_problem(pitch: float, kerf: float) -> str | None:
    """Why living-hinge slits `pitch` mm apart, each burning `kerf` mm, cannot be cut, or None."""
    if pitch - kerf < MIN_HINGE_STRIP_MM:
        return (f"slits {pitch:g} mm apart, each {kerf:g} mm wide, leave {max(0.0, pitch - kerf):.2f} mm of "
                f"wood between them; at least {MIN_HINGE_STRIP_MM:g} mm must stand")
    return None


def fit_problem(name: str, w: float, h: float, sheet: tuple, margin: float) -> str | None:
    """Why a part of w x h mm (its kerf-compensated bounds) fits the stock sheet in neither
    orientation, or None: the nesting's own test, so a game may ask it from its numbers before
    drawing a part (the shoe's labels, fitted to a part 4 m long, took 15 s before nesting refused it)."""
    usable_w, usable_h = sheet[0] - 2 * margin, sheet[1] - 2 * margin
    if any(a <= usable_w + 1e-9 and b <= usable_h + 1e-9 for a, b in ((w, h), (h, w))):
        return None
    return f"part {name} ({w:.1f} x {h:.1f} mm) does not fit a {sheet[0]} x {sheet[1]} mm sheet with {margin} mm margins"


def sheets_problem(count: int, material: str) -> str | None:
    if count > MAX_SHEETS:
        return f"the parts take {count:,} sheets of {material or 'stock'}; a kit takes at most {MAX_SHEETS} sheets " \
               "of a material (a larger sheet?)"
    return None

