"""The drawing layer: primitives in mm (drawing.py), fonts (fonts.py), backends (pdf.py, svg.py)."""
from .drawing import (IDENTITY, Drawing, Ellipse, Group, Path, PathBuilder, Rect, Style, Text,
                      apply, compose, mirror_x, mirror_y, rotate, scale, translate)

__all__ = ["IDENTITY", "Drawing", "Ellipse", "Group", "Path", "PathBuilder", "Rect", "Style", "Text",
           "apply", "compose", "mirror_x", "mirror_y", "rotate", "scale", "translate"]
