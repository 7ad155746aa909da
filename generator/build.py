"""Writing a deck's print products: the sheet PDF, the shop PDF and the PNG contact sheet.

Every game's deck comes here as faces + back Drawings; the print layouts do the rest. Nothing is
written here: products are added to a Plan (named and laid out, every check made), and the build
writes the plan into a staging folder that replaces the output folder only when all of it is done.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .draw import Drawing, Rect, Style, translate
from .draw.pdf import PdfDocument
from .draw.raster import png_bytes
from .layout.cards import CardSize, LayoutError, contact_sheet, impose_cards, sheet_pages, shop_pages
from .layout.marks import BOARD_BLEED
from .options import LAYOUTS, BuildOptions  # noqa: F401  (build options are named here too)
from .outputs import Plan, ProductInfo, atomic_path, safe_name
from .units import PAPER_SIZES
from .errors import show

MAX_CARDS = 2000   # cards in one deck: a count beyond this is a typo, not a game


@dataclass
class DeckArt:
    """A deck ready to print: distinct faces with their counts, and the back."""
    stem: str                      # file name stem, e.g. "mille_bornes"
    title: str
    size: CardSize
    faces: list[tuple[Drawing, int, str]] = field(default_factory=list)  # (face, count, caption)
    back: Drawing | None = None
    # Where the cards' backs differ: each face's back (parallel to `faces`) and its caption; `back`
    # is then the one the tuck box shows.
    backs: list[tuple[Drawing, str]] | None = None
    contact_pixels: int | None = None   # the contact sheet's pixels at most (its dpi lowered to fit),
    contact_greek_px: float | None = None   # and its text smaller than this drawn as bars

    def expanded(self) -> list[Drawing]:
        return [face for face, count, _ in self.faces for _ in range(count)]

    def expanded_backs(self) -> Drawing | list[Drawing] | None:
        """The back of every card (as expanded() lists the faces), or the one back of them all."""
        if self.backs is None:
            return self.back
        return [back for (_, count, _), (back, _) in zip(self.faces, self.backs) for _ in range(count)]

    def distinct_backs(self) -> list[tuple[Drawing, str]]:
        """Each back once, with its caption, for the contact sheet."""
        if self.backs is None:
            return [(self.back, "back")] if self.back else []
        seen: dict[int, tuple[Drawing, str]] = {}
        for back, caption in self.backs:
            seen.setdefault(id(back), (back, caption))
        return list(seen.values())


def stem_of(spec) -> str:
    """The file-name stem of a spec's products: its file's name, made safe."""
    return safe_name(Path(spec.file).stem, "spec")


def pdf_writer(title: str, pages, cmyk: bool, pdfx: bool = False) -> Callable[[Path], None]:
    """A function that writes these pages as a PDF at the path it is given (PDF/X-1a with pdfx:
    a print shop's file, every page with its trim box).
    pages: Drawings, or (Drawing, trim box, bleed box) tuples."""
    def write(path: Path) -> None:
        doc = PdfDocument(str(path), title=title, cmyk=cmyk, pdfx=pdfx)
        for p in pages:
            if isinstance(p, tuple):
                doc.add_page(p[0], trim=p[1], bleed=p[2])
            else:
                doc.add_page(p)
        doc.save()
    return write


def write_pdf(path: Path, title: str, pages, cmyk: bool) -> Path:
    """One PDF written now, whole or not at all (for commands outside a build: calibrate)."""
    with atomic_path(path) as tmp:
        pdf_writer(title, pages, cmyk)(Path(tmp))
    return path


def add_pdf(plan: Plan, name: str, title: str, pages, cmyk: bool, pdfx: bool = False, **info) -> str:
    """A PDF of these pages; info says what a person does with it (printlist.py). pdfx: written as
    PDF/X-1a:2001 (a print shop's file; `--pdfx`)."""
    if pdfx:
        info["what"] = info.get("what", title) + "; PDF/X-1a:2001, CMYK"
    return plan.add(name, pdf_writer(title, pages, cmyk, pdfx), pages=len(pages), **info)


def add_deck(art: DeckArt, plan: Plan, opts: BuildOptions) -> None:
    faces = art.expanded()
    if len(faces) > MAX_CARDS:
        raise LayoutError(f"{len(faces)} cards in all; a deck has at most {MAX_CARDS}")
    if "sheet" in opts.layouts:
        pw, ph = PAPER_SIZES[opts.paper]
        layout = impose_cards(art.size, pw, ph)
        pages = sheet_pages(faces, art.expanded_backs(), layout, opts.flip, opts.back_offset, art.title)
        add_pdf(plan, f"{art.stem}-sheet-{opts.paper}.pdf",
                f"{art.title}: {len(faces)} cards on {opts.paper.upper()}", pages, opts.cmyk,
                what=f"{art.title}: {len(faces)} cards, {layout.per_sheet} a sheet, faces and backs",
                stock="card stock, 250-300 g/m2", sides=2, flip=opts.flip, paper=opts.paper, order=10,
                make="print at 100 %; cut on the crop marks",
                step="Cards: print the sheets two-sided, cut on the crop marks.",
                tools=["craft knife or scissors", "metal ruler"])
    if "shop" in opts.layouts:
        pages = shop_pages(faces, art.expanded_backs(), art.size, opts.interleave)
        add_pdf(plan, f"{art.stem}-shop.pdf", f"{art.title}: {len(faces)} cards, one a page with bleed",
                pages, opts.cmyk, pdfx=opts.pdfx, what=f"{art.title} for a print shop: one card a page, 3 mm bleed, TrimBox",
                stock="a print shop's card stock", shop=True, order=70)
    sheet = contact_sheet([(f, cap) for f, _, cap in art.faces] + art.distinct_backs(),
                          art.size, title=f"{art.title}: {len(faces)} cards, {len(art.faces)} faces")
    dpi = 110.0
    if art.contact_pixels:
        dpi = min(dpi, (art.contact_pixels / (sheet.width / 25.4 * sheet.height / 25.4)) ** 0.5)
    plan.add_bytes(f"{art.stem}-contact.png", lambda: png_bytes(sheet, dpi=dpi, greek_px=art.contact_greek_px),
                   what=f"{art.title}: every face once, to look over", preview=True, order=90)


def add_decks(specs, deck_art, plan: Plan, opts: BuildOptions, box=None) -> list[DeckArt]:
    """Every deck spec given, through deck_art(spec) -> DeckArt, into its print products, and (with
    `box`) its tuck box: box(spec, art) -> (the box's colour, its ink, what the box says it
    holds). The arts, in the specs' order."""
    from .layout.tuckbox import BoxArt
    arts = []
    for spec in specs:
        art = deck_art(spec)
        try:
            add_deck(art, plan, opts)
        except LayoutError as exc:
            raise spec.error(("card",) if "card" in spec.data else (), str(exc)) from None
        if box is not None:
            colour, ink, contents = box(spec, art)
            add_tuck_box(spec, BoxArt(art.stem, art.title, art.size, len(art.expanded()), art.back, colour, ink,
                                      contents), plan, opts)
        arts.append(art)
    return arts


def large_page(board: Drawing) -> tuple[Drawing, tuple, tuple]:
    """A board on one page for a print shop, as a card's shop page: the page is the trim plus the
    bleed all round, TrimBox the board, BleedBox the page; the art runs into the bleed."""
    b = BOARD_BLEED
    page = Drawing(board.width + 2 * b, board.height + 2 * b)
    page.place(board, translate(b, b), clip=Rect(-b, -b, board.width + 2 * b, board.height + 2 * b, Style()))
    return page, (b, b, board.width, board.height), (0.0, 0.0, page.width, page.height)


def add_board(board: Drawing, plan: Plan, stem: str, title: str, opts: BuildOptions) -> None:
    """A board at full size: one large page for a print shop, tiled over home sheets, a preview."""
    from .layout.tiling import tile_pages
    add_pdf(plan, f"{stem}-large.pdf", title, [large_page(board)], opts.cmyk, pdfx=opts.pdfx,
            what=f"{title}, whole, {board.width:.0f} x {board.height:.0f} mm with {BOARD_BLEED:g} mm bleed, "
                 "TrimBox, for a print shop", shop=True,
            stock="a print shop's paper or card, mounted on board if you like", order=71)
    tiles = tile_pages(board, *PAPER_SIZES[opts.paper], title=title)
    add_pdf(plan, f"{stem}-tiles-{opts.paper}.pdf", title, tiles, opts.cmyk,
            what=f"{title} in {len(tiles)} tiles", stock="paper or thin card, 120-200 g/m2", sides=1,
            paper=opts.paper, order=30, make="print at 100 %; trim the dashed edges, lay each tile over its "
                                             "neighbour so the half-targets close, tape",
            step="Board: trim the tiles' dashed edges, lay each over its neighbour so the targets close, "
                 "tape them from behind (or have the large page printed).",
            tools=["craft knife or scissors", "metal ruler", "clear tape"])
    plan.add_bytes(f"{stem}.png", lambda: png_bytes(board, dpi=50), what=f"{title}, a preview", preview=True,
                   order=91)


def add_laser_kit(spec, parts, sheet, kerf: float, margin: float, spacing: float,
                  plan: Plan, stem: str, what: str = "", make: str = "", order: int = 60,
                  stock: dict[str, str] | None = None, kiss_cut: dict[str, float] | None = None) -> None:
    """Parts nested onto stock sheets, one set of sheets per material, as SVG, DXF and PNG.
    A part too big for the stock is the spec's error, reported at its laser.sheet line.
    what, make: what the sheets are and how they are put together, for the print list; stock: the
    materials' names to buy, by the parts' material (default: the material itself); kiss_cut: the
    materials cut through their film only, not the liner (the Cubes rail layer), and how deep (mm):
    their sheets' cut layer, title and print-list entry say it."""
    from .errors import SpecError
    from .laser.export import add_sheets
    from .laser.nest import NestError, nest
    # Parts cut from the same stock share its sheets (the Cubes kit's pawns with its cubes, its
    # rings beside the cup layer), under the first such material's name.
    by_material: dict[str, list] = {}
    first_of: dict[str, str] = {}
    for part in parts:
        same = first_of.setdefault((stock or {}).get(part.material, part.material), part.material)
        by_material.setdefault(same, []).append(part)
    names: dict[str, str] = {}
    for material, group in by_material.items():
        # A material's name may come from a spec: it becomes a safe part of a file name, and two
        # materials never share one.
        name = safe_name(material.replace("_", "-"), "material") if material else ""
        if name in names:
            raise SpecError(spec.file, spec.line(("laser",)), "laser",
                            f"materials {show(names[name])} and {show(material)} would share the file name {show(name)}")
        names[name] = material
        try:
            sheets = nest(group, *sheet, kerf=kerf, margin=margin, spacing=spacing)
        except NestError as exc:
            raise SpecError(spec.file, spec.line(("laser", "sheet")), "laser.sheet", str(exc)) from None
        depth = (kiss_cut or {}).get(material)
        for s in sheets:
            s.material = name
            if depth is not None:
                s.cut_layer, s.note = f"KISS-CUT-{depth:g}mm", f"kiss-cut {depth:g} mm deep (the film, not its liner)"
        before = set(plan.products)
        add_sheets(sheets, plan, stem)
        _laser_info(plan, before, (stock or {}).get(material, material).replace("_", " "), sheet, len(sheets),
                    what or stem, make, order, sheets)


SPARSE = 0.5     # a sheet whose parts lie within less than this share of it: cut it from an offcut


def offcut(s) -> tuple[float, float] | None:
    """The offcut (width, height, mm) a sheet's parts fit, where they lie within less than half of
    the sheet; else None (cut a whole sheet)."""
    from .laser.nest import material_use
    _, w, h = material_use(s)
    margin = s.width - w   # the parts' extent from the corner, with the margin on the far sides too
    if (w + margin / 2) * (h + margin / 2) < SPARSE * s.width * s.height:
        return w + 5, h + 5
    return None


def sheet_use(s) -> str:
    """What a sheet's parts take of it, for the print list: the share of its material, and where
    they lie within less than half of it, the offcut they fit."""
    from .laser.nest import material_use
    text = f"its parts take {100 * material_use(s)[0]:.0f} % of the sheet"
    piece = offcut(s)
    if piece:
        text += f", all within {piece[0]:.0f} x {piece[1]:.0f} mm: an offcut that size will do"
    return text


def _laser_info(plan: Plan, before: set, material: str, sheet, count: int, what: str, make: str, order: int,
                sheets=()) -> None:
    """What a person does with each file add_sheets made (it takes no info of its own; any it gives
    is kept): an SVG and a DXF are the same sheet for two kinds of software, a PNG a picture of it."""
    size = f"{sheet[0]:g} x {sheet[1]:g} mm"
    for rel in [r for r in plan.products if r not in before]:
        n = rel.rsplit("sheet", 1)[-1].split(".")[0]
        which = f"sheet {n} of {count}" if n.isdigit() else f"{count} sheet{'s' if count != 1 else ''}"
        if n.isdigit() and 0 < int(n) <= len(sheets):
            which += f"; {sheet_use(sheets[int(n) - 1])}"
            if sheets[int(n) - 1].note:       # a kiss cut, before anything else the operator sets
                which = f"{sheets[int(n) - 1].note}; {which}"
        kind = rel.rsplit(".", 1)[-1]
        if kind == "png":
            info = dict(what=f"{what}: {material}, {which}, a preview", preview=True, order=order)
        else:
            # The stock to have: the sheet, or the offcut a sparse sheet's parts fit (the Cubes frame's
            # bars, the pegs), so nobody buys a sheet for a strip of it.
            piece = offcut(sheets[int(n) - 1]) if n.isdigit() and 0 < int(n) <= len(sheets) else None
            stock = f"{material}, {size}" if piece is None else \
                f"{material}, an offcut of {piece[0]:.0f} x {piece[1]:.0f} mm (or a {size} sheet)"
            info = dict(what=f"{what}: {material}, {which} ({kind.upper()})", laser=True,
                        stock=stock, sheets=1 if kind == "svg" else 0, order=order,
                        **({"make": make} if make else {}))
        plan.products[rel].info = ProductInfo.of({**info, **plan.products[rel].info}).as_dict()


def add_tuck_box(spec, art: BoxArt, plan, opts) -> None:
    """A deck's tuck box: the print PDF (on opts.paper) and the cut files (SVG, DXF, preview)."""
    from .layout.tuckbox import (CUT_MARGIN, SMALLEST_CARD, box_settings, cut_parts, deck_box, plan_print,
                                 print_pages)
    settings = box_settings(spec)
    box = deck_box(art.size, art.cards, settings)
    if min(art.size.width, art.size.height) < SMALLEST_CARD:
        raise spec.error(("card",), f"a {art.size.width:g} x {art.size.height:g} mm card is too small for a "
                                   f"tuck box (at least {SMALLEST_CARD:g} mm each way)")
    try:
        layout = plan_print(box, opts.paper)
        pages = print_pages(box, art, layout)
    except LayoutError as exc:
        raise spec.error(("tuck_box",), str(exc)) from None
    try:
        parts = cut_parts(box, settings, f"{art.stem} tuck box")
    except LayoutError as exc:
        raise spec.error(("tuck_box", "cut", "sheet"), str(exc)) from None
    iw, ih, idp = box.inner
    pieces = layout.pieces
    box_rel = add_pdf(plan, f"{art.stem}-tuckbox-{opts.paper}.pdf", f"{art.title}: tuck box", pages, opts.cmyk,
            what=f"{art.title}: a tuck box for the {art.contents} (inside {iw:g} x {ih:g} x {idp:.1f} mm)"
                 + (", in two pieces" if pieces == 2 else ""),
            stock="card stock, 250-300 g/m2", sides=1, paper=opts.paper, order=20,
            make="print at 100 %; cut on the solid lines, score and fold the dashed ones, glue the hatched tabs",
            step="Tuck box: cut it out, score and fold, glue the side tab and the bottom flap; the cards go "
                 "in from the top.",
            tools=["craft knife or scissors", "metal ruler", "blunt knife or empty pen for scoring", "glue stick"])
    before = set(plan.products)
    add_laser_kit(spec, parts, settings.sheet, settings.kerf, CUT_MARGIN, 3.0, plan, f"{art.stem}-tuckbox",
                  what=f"{art.title}: the tuck box to cut", order=60,
                  make="cut red, score blue (a plotter's scoring tool, or a laser at low power); "
                       "fold and glue as the printed box")
    from .layout.tuckbox_assembly import tuck_box_assembly
    cut = [rel.rsplit("/", 1)[-1] for rel in plan.products if rel not in before and rel.endswith(".svg")]
    sheet_rel = add_assembly(plan, f"{art.stem}-tuckbox",
                             tuck_box_assembly(box, art, pieces, opts.paper, art.stem, ", ".join(cut) or "its cut file",
                                               cut_pieces=len(parts)),
                             opts, f"{art.title}: how to fold and glue the tuck box, step by step", order=20)
    plan.move_before(sheet_rel, box_rel)


def add_rules_sheet(spec, game, plan: Plan, opts: BuildOptions) -> str:
    """The game's rules sheet, `rules-PAPER.pdf`, first in the print list."""
    from .layout.rules_sheet import load_rules_sheet, typeset
    sheet = load_rules_sheet(spec, game)
    pages = typeset(sheet, opts.paper).pages
    n = len(pages)
    info = dict(what=f"{sheet.title}: the rules, how to set up, play and win ({n} page{'s' if n > 1 else ''})",
                stock="paper, 80-100 g/m2", sides=2 if n > 1 else 1, paper=opts.paper, order=1,
                make="print at 100 % (or two pages one-sided); read it first" if n > 1 else
                "print at 100 %; read it first")
    if n > 1:
        info["flip"] = "long"
    return add_pdf(plan, f"rules-{opts.paper}.pdf", f"{sheet.title}: rules", pages, opts.cmyk, **info)


def add_assembly(plan, stem: str, sheet, opts, what: str, variant: str | None = None, order: int = 0) -> str:
    """The sheet as `<stem>-assembly-<paper>.pdf`: first in the game's print list (a kit's), or just
    before the piece it explains (order)."""
    from .layout.assembly import assembly_pages
    pages = assembly_pages(sheet, opts.paper)
    info = dict(what=what, stock="paper, 80-100 g/m2", sides=1, paper=opts.paper, order=order,
                make="print at 100 % and read it before you start; keep it with the game")
    if variant:
        info["variant"] = variant
    return add_pdf(plan, f"{stem}-assembly-{opts.paper}.pdf", sheet.title, pages, opts.cmyk, **info)
