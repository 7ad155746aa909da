"""The game's rules sheet, `rules-PAPER.pdf`: how to set up, play and win, first in the print list."""
from __future__ import annotations

from .contents import RulesSheet
from .declaration import ProductDeclaration
from .pdf import add_pdf


def make(content: RulesSheet, plan, opts) -> None:
    from ..layout.rules_sheet import load_rules_sheet, typeset
    sheet = load_rules_sheet(content.spec, content.game)
    pages = typeset(sheet, opts.paper).pages
    n = len(pages)
    info = dict(what=f"{sheet.title}: the rules, how to set up, play and win ({n} page{'s' if n > 1 else ''})",
                sides=2 if n > 1 else 1, paper=opts.paper.name,
                make="print at 100 % (or two pages one-sided); read it first" if n > 1 else
                "print at 100 %; read it first", **PRODUCT.entry)
    if n > 1:
        info["flip"] = "long"
    add_pdf(plan, f"rules-{opts.paper.name}.pdf", f"{sheet.title}: rules", pages, opts.cmyk, **info)


PRODUCT = ProductDeclaration(name="rules", takes=(RulesSheet,), files="rules-PAPER.pdf", make=make,
                             entry=dict(stock="paper, 80-100 g/m2", order=1))
