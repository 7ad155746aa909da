"""A game's print list: every file its build makes, what to print it on, how many sheets, and
how to put it together. Written as output/GAME/README.txt by every build of the game.

Each product says what a person does with it, in its `info` (Plan.add(..., **info)):
  what      what the file is, in a few words
  pages     pages in a PDF
  stock     what to print or cut it on ("card stock, 250-300 g/m2", "3 mm birch plywood")
  sides     1 or 2 (two-sided: printed on both sides of each sheet)
  flip      for two-sided printing, the edge the printer turns the sheet over (long or short)
  paper     the sheet size it is laid out for (a4, letter)
  make      how to make it: cutting, folding, assembling
  shop      True: for a print shop (one card a page, or a board in one piece)
  laser     True: a laser cutter's file (SVG or DXF: the same cuts)
  preview   True: a picture to look over, not to print
  order     a number: where it comes in the print list (smaller first; default 50)
"""
from __future__ import annotations

import textwrap

NAME = "README.txt"


def _sheets(info: dict) -> str:
    pages = info.get("pages")
    if not pages:
        return ""
    sheets = -(-pages // 2) if info.get("sides") == 2 else pages
    return f"{sheets} sheet{'s' if sheets != 1 else ''}"


def print_list(game: str, title: str, products: list[tuple[str, dict]]) -> str:
    """The print list of one game, from its products' (file name, info), in build order."""
    def block(name: str, info: dict) -> str:
        lines = [name, f"  {info.get('what', '')}".rstrip()]
        how = []
        if info.get("preview"):
            how.append("a picture to look over; not for printing")
        elif info.get("shop"):
            how.append(f"for a print shop ({info.get('stock', 'their stock')})")
        elif info.get("laser"):
            how.append(f"for a laser cutter: {info.get('stock', '')}".rstrip(": "))
        elif info.get("stock"):
            sides = {1: "one-sided", 2: "two-sided"}.get(info.get("sides"), "")
            flip = f", flip on the {info['flip']} edge" if info.get("sides") == 2 and info.get("flip") else ""
            paper = f"{info['paper'].upper()} " if info.get("paper") else ""
            sheets = _sheets(info)
            how.append(f"print on {paper}{info['stock']}, {sides}{flip}" + (f": {sheets}" if sheets else ""))
        if info.get("make"):
            how.append(info["make"])
        for h in how:
            lines += textwrap.wrap(h, 96, initial_indent="  - ", subsequent_indent="    ")
        return "\n".join(lines)

    ordered = sorted(enumerate(products), key=lambda p: (p[1][1].get("order", 50), p[0]))
    body = "\n\n".join(block(name, info) for _, (name, info) in ordered)
    head = f"{title}: what to print, and how\n{'=' * (len(title) + 23)}\n\n"
    return head + body + "\n"
