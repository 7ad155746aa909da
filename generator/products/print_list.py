"""A game's print list: every file its build makes, grouped by where it is made (printed at home, at
a print shop, cut by a laser or a plotter, or only looked at), what to print it on, how many sheets
(and in all, per stock), and how to put the game together. Written as output/GAME/README.txt by
every build of the game.

Each product says what a person does with it, in its `info` (Plan.add(..., **info)): the keys of
outputs.ProductInfo, checked when the product is added to the plan.
"""
from __future__ import annotations

import textwrap

from ..outputs import ProductInfo
from ..paper import Paper

def info_ok(info) -> bool:
    """Whether a product's info (read back from a kept build's manifest, which anyone may edit) is
    one ProductInfo takes: known keys, each of its type (whole numbers from 0 to 100,000; tools a
    list of text)."""
    if not isinstance(info, dict):
        return False
    try:
        ProductInfo.of(info)
    except TypeError:
        return False
    return True


NAME = "README.txt"
PDF_NAME = "print-list.pdf"      # the same list, to print
WIDTH = 96

GROUPS = [
    ("home", "Print at home", "on your own printer, at 100 % (\"actual size\", never \"fit to page\")"),
    ("shop", "For a print shop", "instead of printing at home, or for a large board in one piece"),
    ("laser", "For a laser cutter or a cutting plotter",
     "SVG and DXF in mm, a layer an operation, to run in this order: engrave black (layer ENGRAVE), "
     "score blue (SCORE), cut red (CUT). Scores and cuts are 0.01 mm hairlines, as a laser takes a "
     "cut, so a picture exported from the SVG shows them blank. To look a sheet over, open its PNG "
     "preview, with the pictures below: the parts tan on the paler stock, engraving black, scores "
     "blue, cuts red"),
    ("preview", "Pictures to look over", "not for printing"),
    ("other", "Other files", ""),
]


def group_of(info: dict) -> str:
    if info.get("preview"):
        return "preview"
    if info.get("shop"):
        return "shop"
    if info.get("laser"):
        return "laser"
    if info.get("stock"):
        return "home"
    return "other"


def sheet_count(info: dict) -> int:
    """Sheets of stock a product takes: its `sheets`, or its pages (two to a sheet, two-sided)."""
    if "sheets" in info:
        return int(info["sheets"])
    pages = info.get("pages") or 0
    return -(-pages // 2) if info.get("sides") == 2 else pages


def _plural(n: int, word: str = "sheet") -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _wrap(text: str, first: str = "  - ", rest: str = "    ") -> list[str]:
    # File names hold hyphens: lines break at spaces only.
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False,
                         break_long_words=False) or [first.rstrip()]


PAPER_NAMES = {"a4": "A4", "letter": "Letter", "a3": "A3", "tabloid": "Tabloid", "a2": "A2"}


def _stock_key(info: dict) -> str:
    paper = f"{PAPER_NAMES.get(info['paper'], info['paper'].upper())} " if info.get("paper") else ""
    return f"{paper}{info.get('stock', '')}"


def _merge_formats(members: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """A laser sheet's SVG and DXF (the same cuts, for two kinds of software) as one entry."""
    merged: list[tuple[str, dict]] = []
    for name, info in members:
        stem, _, ext = name.rpartition(".")
        if ext == "dxf" and merged and merged[-1][0] == f"{stem}.svg":
            first = merged[-1][1]
            merged[-1] = (f"{stem}.svg (or .dxf)", {**first, "what": first.get("what", "").replace(" (SVG)", "")})
        else:
            merged.append((name, info))
    return _merge_runs(merged)


def _merge_runs(members: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """Files alike in all but their name, one after another (a shop's pictures, a card a file), as
    one entry naming the first and the last and how many."""
    out: list[tuple[list[str], dict]] = []
    for name, info in members:
        if out and out[-1][1] == info and "/" in name and name.rsplit("/", 1)[0] == out[-1][0][0].rsplit("/", 1)[0]:
            out[-1][0].append(name)
        else:
            out.append(([name], info))
    return [(names[0] if len(names) < 3 else f"{names[0]} ... {names[-1].rsplit('/', 1)[1]} ({len(names)} files)",
             info) if len(names) >= 3 else (name, info)
            for names, info in out for name in (names if len(names) < 3 else names[:1])]


def _block(name: str, info: dict, said: set) -> list[str]:
    """A file's entry; a `make` already said in its group (the next sheet of a kit) is not repeated."""
    lines = [name]
    if info.get("what"):
        lines += _wrap(info["what"], "  ", "  ")
    how = []
    group = group_of(info)
    if group == "shop":
        how.append(f"for a print shop: {info['stock']}" if info.get("stock") else "for a print shop")
    elif group == "laser":
        how.append(f"cut from {info['stock']}" if info.get("stock") else "for a laser cutter or a cutting plotter")
    elif group == "home":
        sides = {1: "one-sided", 2: "two-sided"}.get(info.get("sides"), "")
        flip = f", flip on the {info['flip']} edge" if info.get("sides") == 2 and info.get("flip") else ""
        n = sheet_count(info)
        how.append(f"print on {_stock_key(info)}" + (f", {sides}{flip}" if sides else "")
                   + (f": {_plural(n)}" if n else ""))
    if info.get("variant"):
        how.append(f"for {info['variant']}")
    if info.get("make") and info["make"] not in said:
        how.append(info["make"])
        said.add(info["make"])
    for h in how:
        lines += _wrap(h)
    for u in info.get("upload", []):
        lines += _wrap(u, "    upload: " if u is info["upload"][0] else "      ", "        ")
    if info.get("warning"):
        lines += _wrap(f"WARNING: {info['warning']}")
    return lines


def _totals(products: list[tuple[str, dict]], group: str) -> list[str]:
    """Sheets per stock for one group, in all or per variant (a build path: "2 players", "flat
    wall strips"). Home printing counts what everyone prints; a laser kit's assembly sheet
    (with_laser), printed at home too, is counted with the laser stock, not by those who make only
    the paper pieces. Per variant, home printing totals what that path prints in all (the common
    files too); the laser group lists its common stock (a tuck box's card) on its own, then each
    path's."""
    if group == "home":
        items = [(n, i) for n, i in products if group_of(i) == "home" and not i.get("with_laser")]
    else:
        items = [(n, i) for n, i in products if group_of(i) == group or (group == "laser" and i.get("with_laser")
                                                                          and group_of(i) == "home")]
    items = [(n, i) for n, i in items if sheet_count(i) > 0]
    if not items:
        return []
    variants = list(dict.fromkeys(i["variant"] for _, i in items if i.get("variant")))

    def count(subset, indent: str = "", named: bool = False) -> list[str]:
        stocks: dict[str, list[tuple[str, int]]] = {}
        for name, info in subset:
            key = _stock_key(info) if group_of(info) == "home" else info.get("stock", "stock")
            stocks.setdefault(key, []).append((name, sheet_count(info)))
        out = []
        for key, files in stocks.items():
            total = sum(n for _, n in files)
            printed = any(group_of(i) == "home" for n, i in subset if n in {f for f, _ in files})
            detail = " (" + ", ".join(f"{n} {name}" for name, n in files) + ")" \
                if named or (printed and (len(files) > 1 or group != "home")) else ""
            out += _wrap(f"{key}: {_plural(total)}{detail}", f"{indent}  - ", f"{indent}    ")
        return out
    if not variants:
        return count(items)
    common = [(n, i) for n, i in items if not i.get("variant")]
    lines = count(common, named=True) if common and group != "home" else []
    for v in variants:
        lines.append(f"  For {v}:")
        mine = [(n, i) for n, i in items if i.get("variant") == v or (group == "home" and not i.get("variant"))]
        lines += count(mine, "  ")
    return lines


def _tools(ordered) -> list[str]:
    """Every tool once: "craft knife or scissors" is not said beside "craft knife" (having the
    knife, one has one of the two)."""
    tools = list(dict.fromkeys(t for _, i in ordered for t in i.get("tools", [])))
    return [t for t in tools if not any(alt in tools for alt in t.split(" or ") if alt != t)]


def _steps(ordered: list[tuple[str, dict]]) -> list[str]:
    steps: list[tuple[str, list[str]]] = []
    for _, info in ordered:
        step = info.get("step")
        if not step:
            continue
        known = next((s for s in steps if s[0] == step), None)
        if known is None:
            steps.append((step, [info["variant"]] if info.get("variant") else []))
        elif info.get("variant") and info["variant"] not in known[1]:
            known[1].append(info["variant"])
    variants = {v for _, i in ordered for v in ([i["variant"]] if i.get("variant") else [])}
    lines = []
    for k, (step, vs) in enumerate(steps, 1):
        only = f" ({', '.join(vs)})" if vs and set(vs) != variants else ""
        lines += _wrap(f"{step}{only}", f"{k:>3}. ", "     ")
    return lines


def _group(key: str, heading: str, note: str, members, ordered) -> list[str]:
    out = [heading, "-" * len(heading)]
    if note:
        out += _wrap(f"({note})", "", "")
    out.append("")
    said: set = set()
    for name, info in _merge_formats(members):
        out += _block(name, info, said) + [""]
    totals = _totals(ordered, key) if key in ("home", "laser") else []
    if totals:
        label = "Paper and card to have" if key == "home" else "Stock to have"
        out += [f"{label}:"] + totals + [""]
    return out


def _assembly(ordered) -> list[str]:
    steps = _steps(ordered)
    if not steps:
        return []
    tools = _tools(ordered)
    if any(group_of(i) == "home" for _, i in ordered):
        tools.insert(0, "a printer that prints at 100 %")
    out = ["How to put it together", "-" * 22]
    if tools:
        out += _wrap("You need: " + ", ".join(tools) + ".", "", "") + [""]
    return out + steps + [""]


def print_list(game: str, title: str, products: list[tuple[str, dict]]) -> str:
    """The print list of one game, from its products' (file name, info), in build order."""
    ordered = [p for _, p in sorted(enumerate(products), key=lambda p: (p[1][1].get("order", 50), p[0]))]
    out = [f"{title}: what to print, and how", "=" * (len(title) + 23), ""]
    out += _wrap("Every file of this folder, by where it is made, with the paper and card to have and how to "
                 "put the game together. Print PDFs at 100 % (\"actual size\"): every sheet keeps a blank "
                 f"margin, so nothing needs shrinking. This list is also {PDF_NAME}, to print and keep with "
                 "the game.", "", "") + [""]
    # Home printing first, then how it goes together, then the other ways to make it and the
    # pictures: what most people need is on the first page.
    for key, heading, note in GROUPS:
        members = [(n, i) for n, i in ordered if group_of(i) == key]
        if members:
            out += _group(key, heading, note, members, ordered)
        if key == "home":
            out += _assembly(ordered)
    return "\n".join(out)


# ---------------------------------------------------------------- the same list as a PDF


def print_list_pages(text: str, paper: Paper) -> list:
    """The print list as a checklist to print and keep with the game: a box to tick before every
    file (printed, cut), every stock to have and every step of putting it together; the title and
    the groups as headings, each file's name bold with what it is and how to make it under it.
    Its lines are the text's (each under 96 characters, which fit the page at 8.5 pt)."""
    from ..colour import Colour
    from ..draw import Drawing, Style
    from ..draw.fonts import get_font
    from ..units import pt
    ink = Colour(rgb=(0.1, 0.1, 0.1))
    accent = Colour(rgb=(0.18, 0.35, 0.6))
    size, head, title_size = pt(8.5), pt(11), pt(15)
    lead = size * 1.32
    box = size * 0.95
    pw, ph = paper.size
    m = 15.0
    tick_x = m                      # the boxes' column; the text starts after it
    text_x = m + box + 2.5
    font = get_font("sans")      # (page.text sets a letter it lacks in a deck's own font: cli._write_print_lists)
    lines = text.splitlines()
    pages: list = []
    page, y = None, 0.0

    def underline(i: int) -> bool:
        return i + 1 < len(lines) and bool(lines[i + 1]) and set(lines[i + 1]) <= {"=", "-"}

    def tick(yy: float) -> None:
        page.rect(tick_x, yy - box * 0.85, box, box, Style(stroke=ink, width=pt(0.7)))

    def ensure(need: float) -> None:
        nonlocal page, y
        if page is None or y + need > ph - m:
            page = Drawing(pw, ph)
            pages.append(page)
            y = m
    in_steps = in_pictures = False

    def entry_length(i: int) -> int:
        """Lines of the entry (a file, its what and how) starting at line i: up to the blank line."""
        n = 0
        while i + n < len(lines) and lines[i + n].strip():
            n += 1
        return n
    for i, line in enumerate(lines):
        if set(line) <= {"=", "-"} and line:
            continue                        # a heading's underline: the heading is drawn instead
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if underline(i):
            big = lines[i + 1].startswith("=")
            sz = title_size if big else head
            # A heading keeps with its note and its first entry.
            j = i + 2
            while j < len(lines) and (not lines[j].strip() or lines[j].startswith("(")):
                j += 1
            ensure(sz * 1.8 + lead * (3 + (min(entry_length(j), 12) if j < len(lines) else 0)))
            y += (sz * 0.7 if y > m else 0.0)
            page.text(m, y + sz, stripped, sz, accent if big else ink, font="sans-bold")
            y += sz * 1.35
            page.line(m, y, pw - m, y, Style(stroke=accent, width=pt(1.2 if big else 0.6), cap="butt"))
            y += lead * 0.8
            in_steps = stripped == "How to put it together"
            in_pictures = stripped == GROUPS[[k for k, *_ in GROUPS].index("preview")][1]
            continue
        if not stripped:
            y += lead * 0.6
            continue
        step = in_steps and indent and stripped.split(".", 1)[0].isdigit() and ". " in stripped[:5]
        stock = stripped.startswith("- ") and (i > 0 and any(
            lines[k].strip().endswith("to have:") or lines[k].strip().startswith("For ")
            for k in range(max(0, i - 40), i) if lines[k] and not lines[k].startswith(" " * (indent + 1))))
        is_file = indent == 0 and " " not in stripped.replace(" (or .dxf)", "") and "." in stripped
        # A file's entry, and the stock to have, are kept whole on one page (if they fit one).
        whole = is_file or stripped.endswith("to have:")
        ensure(lead * (min(entry_length(i), int((ph - 2 * m) / lead) - 1) if whole else 1))
        base = y + size
        if is_file:
            if not in_pictures:         # a picture to look over is not printed or cut: no box
                tick(base)
            page.text(text_x, base, stripped, size, ink, font="sans-bold")
        elif step:
            number, rest = stripped.split(" ", 1)
            tick(base)
            page.text(text_x, base, number, size, ink, font="sans-bold")
            page.text(text_x + font.width("00. ", size), base, rest, size, ink, font="sans")
        elif stock and _checkable_stock(lines, i):
            tick(base)
            page.text(text_x + font.width(" " * max(0, indent - 2), size), base, stripped[2:], size, ink,
                      font="sans")
        elif in_steps and indent >= 5:
            # A step's next line: under its text.
            page.text(text_x + font.width("00. ", size), base, stripped, size, ink, font="sans")
        else:
            x = text_x + font.width(" " * max(0, indent - 2), size) if indent else m
            bold = stripped.endswith(":") and indent <= 2
            page.text(x, base, stripped, size, ink, font="sans-bold" if bold else "sans")
        y += lead
    for k, p in enumerate(pages, 1):
        p.text(pw - m, ph - m / 2, f"{k} / {len(pages)}", size, ink, font="sans", align="right")
    return pages


def _checkable_stock(lines: list[str], i: int) -> bool:
    """Whether line i is a stock to have (under "Paper and card to have:" or "Stock to have:"),
    not a file's how-to."""
    for k in range(i - 1, -1, -1):
        t = lines[k].strip()
        if not t or (lines[k] and not lines[k].startswith(" ") and not t.startswith("For ")):
            return t.endswith("to have:")
        if t.endswith("to have:"):
            return True
    return False


def write_print_list(root, game: str, title: str, products: list[tuple[str, dict]], paper: Paper,
                     cmyk: bool = False) -> list[str]:
    """README.txt and print-list.pdf into the game's folder of the (staged) output folder `root`;
    their names there."""
    from ..outputs import new_file_path
    from ..draw.pdf_writer import pdf_writer
    text = print_list(game, title, products)
    new_file_path(root, f"{game}/{NAME}").write_text(text, encoding="utf-8")
    pdf_writer(f"{title}: what to print, and how", print_list_pages(text, paper), cmyk)(
        new_file_path(root, f"{game}/{PDF_NAME}"))
    return [NAME, PDF_NAME]
