"""A PDF writer made before it writes: what a build's plan holds for each PDF (the pages drawn,
reportlab not imported until the file is written, in the job's process)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable


def pdf_writer(title: str, pages, cmyk: bool, pdfx: bool | str = False,
               ink_limit: float | None = None) -> Callable[[Path], None]:
    """A function that writes these pages as a PDF at the path it is given (PDF/X-1a with pdfx:
    a print shop's file, every page with its trim box; True for PDF/X-1a:2001, or the standard's
    name, "PDF/X-1a:2003"; ink_limit: the most of the four inks together, 2.4 for 240 %).
    pages: Drawings, or (Drawing, trim box, bleed box) tuples."""
    def write(path: Path) -> None:
        from .pdf import PdfDocument
        doc = PdfDocument(str(path), title=title, cmyk=cmyk, pdfx=pdfx, ink_limit=ink_limit)
        for p in pages:
            if isinstance(p, tuple):
                doc.add_page(p[0], trim=p[1], bleed=p[2])
            else:
                doc.add_page(p)
        doc.save()
    return write
