"""Print and cut (`--cut silhouette|cricut|scanncut`, or `cut:` in the folder's pnp-settings.yaml):
sheets a home cutting machine cuts, in GAME/cut-MACHINE/, of every deck (its cards, rounded as the
spec says) and of every CutParts content (printed pieces with outlines). Silhouette: the sheets as a
PDF with its Type 1 registration marks and a cut file a sheet (DXF and SVG, in the marks' frame);
Cricut: a picture a sheet for Print Then Cut and its SVG cut outline; ScanNCut: sheets whose parts
its scanner finds (a thin dark outline on pale paper) and an SVG cut file a sheet. The cutter
calibration sheet is `pnp calibrate --cut MACHINE`'s (one for every deck). The machines' numbers
are generator/cutters/*.yaml; the layout and the pages, generator/cutters/.
"""
from __future__ import annotations

from pathlib import Path

from .contents import CutPart, CutParts, Deck
from .declaration import ProductDeclaration
from .pdf import add_pdf

DEFAULT_RADIUS = 3.0    # mm: a card's corners where its spec names none (silhouette-card-maker's
                        # assets/layouts.json defaults.card_radius "3mm"; a poker card's 1/8 in)
STOCK = "card stock, 250-300 g/m2"


def deck_parts(deck: Deck) -> list[CutPart]:
    """A deck's cards as the parts a cutter cuts: one part a distinct face (with its count), its
    outline the card's trim with the spec's corner radius, its back seen from the front (the card
    turned over its vertical axis, as layout/cards.py prints backs). With box_parts, the one place
    a Deck becomes parts."""
    from ..cutters import rounded_rect
    from ..draw import Drawing, mirror_x
    art = deck.art
    w, h = art.size.width, art.size.height
    card = deck.spec.data.get("card") if isinstance(deck.spec.data, dict) else None
    radius = card.get("corner_radius", DEFAULT_RADIUS) if isinstance(card, dict) else DEFAULT_RADIUS
    outline = rounded_rect(w, h, float(radius))
    seen: dict[int, object] = {}

    def from_front(back):
        if back is None:
            return None
        if id(back) not in seen:
            d = Drawing(w, h)
            d.place(back, mirror_x(w))
            seen[id(back)] = d
        return seen[id(back)]
    parts = []
    for k, (face, count, caption) in enumerate(art.faces):
        back = art.backs[k][0] if art.backs is not None else art.back
        parts.append(CutPart(f"{art.stem} {caption}", w, h, face, outline, bleed=art.size.bleed, count=count,
                             back=from_front(back)))
    return parts


def box_parts(deck: Deck, machine=None, paper=None) -> list[CutPart]:
    """The deck's tuck box, as the tuck-box product prints it: in one piece where that piece fits
    what the machine reaches on the paper (or no machine is named), else in two (each with its
    side tab, as the printed box in two pieces). Its own sheets, not the cards': printed on one
    side, and the cards keep their grid. None for a deck without a box, or one whose box the
    tuck-box product cannot make (it says why)."""
    from ..layout.cards import LayoutError
    from ..layout.tuckbox import SMALLEST_CARD, box_nets, box_settings, deck_box, tuck_box_cut_part
    from .tuck_box import box_art
    if deck.box is None:
        return []
    art = box_art(deck)
    if min(art.size.width, art.size.height) < SMALLEST_CARD:
        return []
    box = deck_box(art.size, art.cards, box_settings(deck.spec))
    try:
        one = [tuck_box_cut_part(art, box_nets(box, 1)[0], f"{art.stem} tuck box")]
        if machine is None or _fits(one[0], machine, paper):
            return one
        return [tuck_box_cut_part(art, net, f"{art.stem} tuck box, piece {k} of 2")
                for k, net in enumerate(box_nets(box, 2), 1)]
    except LayoutError:
        return []


def _fits(part: CutPart, machine, paper) -> bool:
    """Whether the part, alone, lies within what the machine reaches on the paper, clear of its marks."""
    from dataclasses import replace
    from ..cutters import DoesNotFit, in_reach, lay_out
    try:
        return all(in_reach(s, machine, paper) for s in lay_out([replace(part, count=1)], machine, paper))
    except DoesNotFit:
        return False


def make(content, plan, opts) -> None:
    from ..cutters import DoesNotFit, cutter
    machine = cutter(opts.extra["cut"])
    if isinstance(content, Deck):
        a = content.art
        groups = [(deck_parts(content), a.stem, a.title, ("card",)),
                  (box_parts(content, machine, opts.paper), f"{a.stem}-tuckbox", f"{a.title}: tuck box", ("tuck_box",))]
    else:
        groups = [(content.parts(), content.name, content.title, ())]
    sub = plan.sub(f"cut-{machine.name}")
    before = set(plan.products)
    for parts, stem, title, field in groups:
        if not parts:
            continue
        try:
            MAKERS[machine.kind](machine, parts, sub, opts, stem, title)
        except DoesNotFit as exc:
            if field == ("tuck_box",) and "tuck_box" not in content.spec.data:
                # A box the spec did not ask for is left out with a note, as the tuck-box product
                # leaves out one too big for the paper; asked for, it is the spec's error.
                content.spec.notes[f"{content.spec.file}: note: no tuck box for the {machine.title} ({exc}); "
                                   "tuck_box: false says so and silences this"] = None
                continue
            field = field if field and field[0] in content.spec.data else ()
            raise content.spec.error(field, f"--cut {machine.name}: {exc}") from None
    # The cut sheets are instead of the home sheet: the print list counts their card apart.
    for rel in [r for r in plan.products if r not in before]:
        plan.products[rel].info.setdefault("variant", f"cutting with a {machine.title.split(' (')[0]}")


def _sheets(machine, parts, paper):
    from ..cutters import lay_out
    return lay_out(parts, machine, paper)


def _printed_pages(machine, sheets, opts, stem: str, title: str, files: str) -> list:
    from ..cutters import back_page, front_page
    pages = []
    for k, s in enumerate(sheets, 1):
        caption = [title, f"sheet {k} of {len(sheets)}", machine.title, f"cut file {files.format(k=k)}"] \
            if machine.marks else []
        pages.append(front_page(s, machine, caption))
        back = back_page(s, machine, opts.flip, opts.back_offset)
        if back is not None:
            pages.append(back)
    return pages


def _cut_files(machine, sheets, plan, base: str, title: str, pdf: str, order: int, what: str) -> None:
    """Each sheet's cut file(s), SVG then DXF, from the laser writers."""
    from ..cutters import cut_sheet, mark_paths
    from ..laser.export import sheet_dxf, sheet_svg
    for k, s in enumerate(sheets, 1):
        sheet = cut_sheet(s)
        marks = mark_paths(machine, s.width, s.height)
        info = dict(laser=True, sheets=0, order=order, stock=f"the printed sheet {k} of {pdf}")
        name = f"{base}-sheet{k}"
        if "svg" in machine.cut_files:
            plan.add_bytes(f"{name}.svg", lambda sheet=sheet, marks=marks, k=k:
                           sheet_svg(sheet, f"{title}, sheet {k} of {len(sheets)}", marks).encode("utf-8"),
                           what=f"{what}, sheet {k} of {len(sheets)}: the cut file (SVG)", **info)
        if "dxf" in machine.cut_files:
            plan.add_bytes(f"{name}.dxf", lambda sheet=sheet: sheet_dxf(sheet),
                           what=f"{what}, sheet {k} of {len(sheets)}: the cut file (DXF)", **info)


def _two_sided(parts) -> bool:
    return any(p.back is not None for p in parts)


def _silhouette(machine, parts, plan, opts, stem, title) -> None:
    paper = opts.paper
    sheets = _sheets(machine, parts, paper)
    base = f"{stem}-silhouette-{paper.name}"
    pdf = f"{base}.pdf"
    m, s = machine.marks, machine.studio
    settings = {"paper": paper.label, "length": m.length, "thickness": m.thickness, "inset": m.inset,
                "dxf": f"{base}-sheetN.dxf"}
    sides = 2 if _two_sided(parts) else 1
    make_text = (f"print at 100 %{', two-sided' if sides == 2 else ''}; in {machine.software}: "
                 f"{s['page'].format(**settings)}; {s['marks'].format(**settings)}; "
                 f"{s['import'].format(**settings)} (the SVG is for Inkscape's inkscape-silhouette, which "
                 f"reads the marks from its Regmarks layer); {s['load']}; blade: {machine.blade}, {machine.passes} "
                 f"passes; after the first sheet, check that every cut runs inside the printed bleed, "
                 f"equally on all sides: if not, cut `pnp calibrate --cut silhouette`'s sheet and set the offset "
                 f"it shows")
    add_pdf(plan, pdf, f"{title}: {len(sheets)} sheets for a Silhouette", _printed_pages(
        machine, sheets, opts, stem, title, f"{base}-sheet{{k}}.dxf"), opts.cmyk,
        what=f"{title}: {sum(len(x.placed) for x in sheets)} parts on {len(sheets)} sheets with Silhouette "
             f"Type 1 registration marks", stock=STOCK, sides=sides, paper=paper.name, order=30,
        make=make_text, **({"flip": opts.flip} if sides == 2 else {}),
        step="Cut: print the Silhouette sheets, load each on the mat, top-left square first, and cut it with "
             "its cut file.", tools=["Silhouette cutting machine and mat"])
    _cut_files(machine, sheets, plan, base, title, pdf, 31, f"{title}, for the Silhouette")


def _cricut(machine, parts, plan, opts, stem, title) -> None:
    """A picture a sheet (PNG, transparent round the parts) and its cut outline (SVG) of the same
    frame: the parts' printed extent, so both read the same size in Design Space."""
    from ..cutters import cropped, cut_sheet, front_page, inches, trim_extent
    from ..draw.raster import png_bytes
    from ..laser.export import sheet_svg
    dpi = machine.picture["dpi"]
    sheets = [cropped(s, machine.bleed, dpi) for s in _sheets(machine, parts, opts.paper)]
    base = f"{stem}-cricut"
    for k, s in enumerate(sheets, 1):
        tw, th = trim_extent(s)

        def picture(s=s):
            return png_bytes(front_page(s, machine), dpi)
        # (plan.add, not add_bytes: this entry has a `make`, which add_bytes names its maker)
        plan.add(f"{base}-sheet{k}.png", lambda path, picture=picture: Path(path).write_bytes(picture()), what=(
            f"{title}, sheet {k} of {len(sheets)} for Cricut Print Then Cut: a picture of {s.width:.2f} x "
            f"{s.height:.2f} mm ({inches(s.width)} x {inches(s.height)}), {dpi} dpi"),
            stock=STOCK, sides=1, sheets=1, paper=opts.paper.name, order=30,
            make=(f"in {machine.software}: Upload each sheet's PNG (as a Print Then Cut image, keeping every "
                  f"pixel) and its SVG; set the picture to exactly the size given above, the SVG's cut layer to "
                  f"the cards' extent given with it (or the picture's size, if Design Space keeps the file's "
                  f"frame); select both, Align > Center Horizontally and Center Vertically, then Attach (the cut "
                  f"stays on the printed mat); Make It; in the print dialog turn Add Bleed off (the picture "
                  f"has its own) and use System Dialog to print at 100 %; material: {machine.blade}; after the "
                  f"first sheet, check that every cut runs inside the printed bleed; if it drifts, run Design "
                  f"Space's Print Then Cut calibration"),
            step="Cut: print each Cricut sheet from Design Space and let the machine cut it.",
            tools=["Cricut machine and LightGrip mat"])
        sheet = cut_sheet(s)
        plan.add_bytes(f"{base}-sheet{k}.svg", lambda sheet=sheet, k=k: sheet_svg(
            sheet, f"{title}, sheet {k} of {len(sheets)}").encode("utf-8"),
            what=f"{title}, sheet {k} of {len(sheets)}: the cut outline (SVG), the cards' extent {tw:.2f} x "
                 f"{th:.2f} mm ({inches(tw)} x {inches(th)}) centred in the picture's frame",
            laser=True, sheets=0, order=31, stock=f"the printed {base}-sheet{k}.png")


def _scanncut(machine, parts, plan, opts, stem, title) -> None:
    paper = opts.paper
    sheets = _sheets(machine, parts, paper)
    base = f"{stem}-scanncut-{paper.name}"
    pdf = f"{base}.pdf"
    sides = 2 if _two_sided(parts) else 1
    add_pdf(plan, pdf, f"{title}: {len(sheets)} sheets for a ScanNCut", _printed_pages(
        machine, sheets, opts, stem, title, ""), opts.cmyk,
        what=f"{title}: {sum(len(x.placed) for x in sheets)} parts on {len(sheets)} sheets, each outlined for the "
             f"ScanNCut's scanner", stock=STOCK, sides=sides, paper=paper.name, order=30,
        **({"flip": opts.flip} if sides == 2 else {}),
        make=(f"print at 100 %{', two-sided' if sides == 2 else ''}; on the ScanNCut: Scan > Direct Cut, "
              f"scan the sheet on the standard mat, select every outline, Cutting Margin 0 mm (the dark "
              f"line is the edge), then cut; or send {base}-sheetN.svg through CanvasWorkspace (it makes "
              f"the FCM the machine reads: FCM itself is not publicly documented, so we write SVG) and "
              f"place it over the scanned sheet; blade: {machine.blade}; after the first sheet, check the "
              f"cut runs on the dark line all round: if not, cut `pnp calibrate --cut scanncut`'s sheet and set "
              f"the offset it shows"),
        step="Cut: print the ScanNCut sheets, scan each on the mat and let the machine cut the outlines.",
        tools=["Brother ScanNCut and standard mat"])
    _cut_files(machine, sheets, plan, base, title, pdf, 31, f"{title}, for the ScanNCut")


MAKERS = {"marks": _silhouette, "picture": _cricut, "outlines": _scanncut}


def options(parser) -> None:
    from ..cutters import MACHINES
    parser.add_argument("--cut", choices=list(MACHINES),
                        help="also write print-and-cut sheets and cut files for a home cutting machine, in "
                             "GAME/cut-MACHINE/ (or say cut: MACHINE in pnp-settings.yaml)")


PRODUCT = ProductDeclaration(
    name="cut-sheets", takes=(Deck, CutParts), make=make, rank=30, options=options,
    files="cut-MACHINE/STEM-silhouette-PAPER.pdf, -sheetN.svg, -sheetN.dxf; STEM-cricut-sheetN.png, .svg; "
          "STEM-scanncut-PAPER.pdf, -sheetN.svg",
    wanted=lambda opts: bool(opts.extra.get("cut")))

