"""Kerf compensation, in one place.

The beam burns away a kerf k wide, centred on the path. To get a part at its nominal size the
path runs k/2 outside every outer contour and k/2 inside every hole: an offset of the part's
material by +k/2 (sharp corners kept sharp: a mitred offset), which does both at once.
"""
from __future__ import annotations

from shapely.geometry import Polygon


def compensate(outline: Polygon, kerf: float) -> Polygon:
    if kerf == 0:
        return outline
    if kerf < 0:
        raise ValueError("kerf must be 0 or more (mm)")
    return outline.buffer(kerf / 2, join_style="mitre", mitre_limit=10.0)
