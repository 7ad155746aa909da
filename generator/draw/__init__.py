"""The drawing layer: primitives in mm (drawing.py), fonts (fonts.py), backends (pdf.py, svg.py,
cairo_backend.py for PNG previews: raster.py), pictures (images.py)."""
from .drawing import (IDENTITY, Drawing, Ellipse, Gradient, Group, Image, Path, PathBuilder, Rect, Style, Text,
                      apply, compose, mirror_x, mirror_y, rotate, scale, translate)

__all__ = ["IDENTITY", "Drawing", "Ellipse", "Gradient", "Group", "Image", "Path", "PathBuilder", "Rect", "Style", "Text",
           "apply", "compose", "mirror_x", "mirror_y", "rotate", "scale", "translate"]
