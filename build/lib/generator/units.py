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


# ISO 216 A4 and US Letter, portrait, in mm.
PAPER_SIZES = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
    "a2": (420.0, 594.0),
    "a1": (594.0, 841.0),
    "a0": (841.0, 1189.0),
}
