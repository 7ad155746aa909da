"""The board's projection and its squares: latitude and longitude to a square like D-22.

Squares are addressed as the patent does: a row letter A..Y from the top, a column number 1..56
from the left, "D-22". In code a square is (row, col), both from 0.
"""
from __future__ import annotations

import math
import string
from dataclasses import dataclass
from ...errors import show


@dataclass(frozen=True)
class Projection:
    name: str           # equirectangular | mercator
    west: float         # longitude of the left edge, degrees
    north: float        # latitude of the top edge, degrees
    square_deg: float   # a square's width in degrees of longitude
    columns: int
    rows: int

    def _y(self, lat: float) -> float:
        """Northing in degrees-of-longitude units (so a square is square_deg tall)."""
        if self.name == "mercator":
            return math.degrees(math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))
        return lat

    def xy(self, lat: float, lon: float) -> tuple[float, float]:
        """Position on the grid in squares from the top-left corner (x right, y down)."""
        return ((lon - self.west) / self.square_deg, (self._y(self.north) - self._y(lat)) / self.square_deg)

    def lonlat_bounds(self) -> tuple[float, float, float, float]:
        """west, south, east, north in degrees."""
        east = self.west + self.columns * self.square_deg
        y_south = self._y(self.north) - self.rows * self.square_deg
        if self.name == "mercator":
            south = math.degrees(2 * math.atan(math.exp(math.radians(y_south))) - math.pi / 2)
        else:
            south = y_south
        return self.west, south, east, self.north

    def square(self, lat: float, lon: float) -> tuple[int, int] | None:
        """(row, col) of the square holding the point, or None off the map."""
        x, y = self.xy(lat, lon)
        col, row = math.floor(x), math.floor(y)
        if 0 <= row < self.rows and 0 <= col < self.columns:
            return row, col
        return None


def row_letter(row: int) -> str:
    return string.ascii_uppercase[row]


def square_name(row: int, col: int) -> str:
    return f"{row_letter(row)}-{col + 1}"


def parse_square(text: str) -> tuple[int, int]:
    """'D-22' or 'D22' -> (3, 21). ValueError if it is not a square's name."""
    t = text.strip().upper().replace("-", "")
    if len(t) < 2 or t[0] not in string.ascii_uppercase or not t[1:].isdigit():
        raise ValueError(f"{show(text)} is not a square (a row letter and a column number, e.g. D-22)")
    return string.ascii_uppercase.index(t[0]), int(t[1:]) - 1
