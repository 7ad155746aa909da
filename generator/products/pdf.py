"""Writing PDFs: what every product that makes a PDF calls. Nothing is written when a product is
added: the build writes the plan into a staging folder that replaces the output folder only when
all of it is done."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..draw.pdf_writer import pdf_writer   # (shops write PDFs too: the drawing layer, below both)

if TYPE_CHECKING:
    from ..outputs import Plan


def write_pdf(path: Path, title: str, pages, cmyk: bool) -> Path:
    """One PDF written now, whole or not at all (for commands outside a build: calibrate)."""
    from ..outputs import atomic_path
    with atomic_path(path) as tmp:
        pdf_writer(title, pages, cmyk)(Path(tmp))
    return path


def add_pdf(plan: Plan, name: str, title: str, pages, cmyk: bool, pdfx: bool = False, **info) -> str:
    """A PDF of these pages; info says what a person does with it (print_list.py). pdfx: written as
    PDF/X-1a:2001 (a print shop's file; `--pdfx`)."""
    if pdfx:
        info["what"] = info.get("what", title) + "; PDF/X-1a:2001, CMYK"
    return plan.add(name, pdf_writer(title, pages, cmyk, pdfx), pages=len(pages), **info)
