"""Units, converted in one place.

Everything in this project is measured in millimetres; points exist only at the edge where
reportlab and the PDF boxes want them, and font sizes are quoted in points because that is
how typographers (and printers' legibility rules) speak.
"""
MM_PER_INCH = 25.4
PT_PER_INCH = 72.0
PT_PER_MM = PT_PER_INCH / MM_PER_INCH


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    return pt / PT_PER_MM


def pt(size_pt: float) -> float:
    """A length quoted in points (a font size, a hairline), as millimetres."""
    return pt_to_mm(size_pt)



# A length written with its unit, as a deck's layout may give one (`825px`, `2.5in`, `3 cm`); a
# bare number is mm. px are dots at the deck's dpi (Squib's layouts are px at 300 dpi).
import re as _re

LENGTH_UNITS = {"mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": MM_PER_INCH / PT_PER_INCH}
DEFAULT_DPI = 300.0
_LENGTH = _re.compile(r"^\s*([-+]?(?:[0-9]{1,7}(?:\.[0-9]{0,6})?|\.[0-9]{1,6}))\s*(mm|cm|in|pt|px)\s*$", _re.I)


def parse_length(text: str, dpi: float = DEFAULT_DPI) -> float | None:
    """A length with its unit (mm, cm, in, pt, px at `dpi`) in mm, or None if it is not one."""
    m = _LENGTH.match(text) if isinstance(text, str) else None
    if m is None:
        return None
    number, unit = float(m.group(1)), m.group(2).lower()
    per = MM_PER_INCH / dpi if unit == "px" else LENGTH_UNITS[unit]
    return round(number * per, 6)
