"""A printed part a cutting machine cuts (issue 37, print and cut): its face, its outline, its holes
and folds in one mm frame. Made by the print layout (fold-up pieces, tuck boxes) and by the games;
read by the print-and-cut products (products/cut_sheets.py, generator/cutters/)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class CutPart:
    """One printed part a cutting machine cuts out (issue 37, print and cut). Its frame: mm, y down,
    origin at the top-left of the outline's bounding box (width x height). `face` is its art in that
    frame, drawn past the outline by at least `bleed` on every side (a cut that drifts shows art, not
    the neighbour); `outline` its cut: one closed path ("M", "L", "C", "Z" ops, drawing.Path's);
    `holes` inner cuts, cut before the outline; `back` what is printed behind it (two-sided), in the
    same frame seen from the front, or None; `count` how many of it."""
    name: str
    width: float
    height: float
    face: Any                                  # a Drawing
    outline: list[tuple]
    bleed: float = 2.0
    count: int = 1
    holes: list[list[tuple]] = field(default_factory=list)
    back: Any = None                           # a Drawing or None
    folds: list[list[tuple]] = field(default_factory=list)   # fold lines (printed, never cut)
