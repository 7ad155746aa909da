"""A document of the game's own making (the Capitals map's halves, its wall strips and rack): the
pages as the game laid them out, with the print-list entry it gives; a print shop's document is
PDF/X with --pdfx."""
from __future__ import annotations

from .contents import Document
from .declaration import ProductDeclaration
from .pdf import add_pdf


def make(doc: Document, plan, opts) -> None:
    add_pdf(plan, doc.name, doc.title, doc.pages, opts.cmyk, pdfx=opts.pdfx and doc.shop, **doc.info)


PRODUCT = ProductDeclaration(name="document", takes=(Document,), files="NAME (the game's)", make=make)
