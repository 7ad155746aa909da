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

