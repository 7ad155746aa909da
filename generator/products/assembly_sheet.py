"""Assembly sheets: how a kit or a fold-up piece is put together (parts, steps with drawings,
checks), on the build's paper, `STEM-assembly-PAPER.pdf`."""
from __future__ import annotations

from .contents import AssemblySheet
from .declaration import ProductDeclaration
from .pdf import add_pdf


def make(content: AssemblySheet, plan, opts) -> None:
    add_assembly(plan, content.stem, content.sheet, opts, content.what, order=content.order,
                 with_laser=content.with_laser)


def add_assembly(plan, stem: str, sheet, opts, what: str, variant: str | None = None, order: int = 0,
                 with_laser: bool = False) -> str:
    """The sheet as `<stem>-assembly-<paper>.pdf`: first in the game's print list (a kit's), or just
    before the piece it explains (order). with_laser: a laser kit's sheet, its paper counted with
    the kit's stock (not by those who make only the paper pieces)."""
    from ..layout.assembly import assembly_pages
    pages = assembly_pages(sheet, opts.paper)
    info = dict(what=what, paper=opts.paper.name, order=order, **PRODUCT.entry)
    if variant:
        info["variant"] = variant
    if with_laser:
        info["with_laser"] = True
    return add_pdf(plan, f"{stem}-assembly-{opts.paper.name}.pdf", sheet.title, pages, opts.cmyk, **info)


PRODUCT = ProductDeclaration(
    name="assembly", takes=(AssemblySheet,), files="STEM-assembly-PAPER.pdf", make=make, rank=50,
    entry=dict(stock="paper, 80-100 g/m2", sides=1, make="print at 100 % and read it before you start; keep it "
                                                         "with the game"))
