"""A deck's tuck box: the box to print on the build's paper (in one piece or two), its cut files
for a laser or a cutting plotter (cut red, score blue), and its assembly sheet, listed just before
the box. Made for every deck that has a box (the game says its colour, ink and contents)."""
from __future__ import annotations

from .assembly_sheet import add_assembly
from .contents import Deck
from .declaration import ProductDeclaration
from .laser_kit import add_laser_kit
from .pdf import add_pdf


def box_art(deck: Deck):
    """What the deck's box shows (layout.tuckbox.BoxArt): its back, title and colours, what it holds."""
    from ..layout.tuckbox import deck_art_on_box
    return deck_art_on_box(deck.art, deck.box)


def make(deck: Deck, plan, opts) -> None:
    from ..layout.cards import LayoutError
    from ..layout.tuckbox import CUT_MARGIN, SMALLEST_CARD, box_settings, cut_parts, deck_box, plan_print, print_pages
    from ..layout.tuckbox_assembly import tuck_box_assembly
    if deck.box is None:
        return
    spec, paper = deck.spec, opts.paper
    art = box_art(deck)
    settings = box_settings(spec)
    box = deck_box(art.size, art.cards, settings)
    if min(art.size.width, art.size.height) < SMALLEST_CARD:
        raise spec.error(("card",), f"a {art.size.width:g} x {art.size.height:g} mm card is too small for a "
                                   f"tuck box (at least {SMALLEST_CARD:g} mm each way)")
    try:
        layout = plan_print(box, paper)
        pages = print_pages(box, art, layout)
    except LayoutError as exc:
        if "tuck_box" not in spec.data:
            # A box the spec did not ask for (no tuck_box section) that cannot be made (a deck too
            # thick for one on this paper) is left out with a note; asked for, it is the spec's error.
            spec.notes[f"{spec.file}: note: no tuck box ({exc}); tuck_box: false says so and silences this"] = None
            return
        raise spec.error(("tuck_box",), str(exc)) from None
    try:
        parts = cut_parts(box, settings, f"{art.stem} tuck box")
    except LayoutError as exc:
        raise spec.error(("tuck_box", "cut", "sheet"), str(exc)) from None
    iw, ih, idp = box.inner
    pieces = layout.pieces
    box_rel = add_pdf(plan, f"{art.stem}-tuckbox-{paper.name}.pdf", f"{art.title}: tuck box", pages, opts.cmyk,
                      what=f"{art.title}: a tuck box for the {art.contents} (inside {iw:g} x {ih:g} x {idp:.1f} mm)"
                           + (", in two pieces" if pieces == 2 else ""),
                      paper=paper.name, **PRODUCT.entry)
    before = set(plan.products)
    add_laser_kit(spec, parts, settings.sheet, settings.kerf, CUT_MARGIN, 3.0, plan, f"{art.stem}-tuckbox",
                  what=f"{art.title}: the tuck box to cut", order=60,
                  make="cut red, score blue (a plotter's scoring tool, or a laser at low power); "
                       "fold and glue as the printed box")
    cut = [rel.rsplit("/", 1)[-1] for rel in plan.products if rel not in before and rel.endswith(".svg")]
    sheet_rel = add_assembly(plan, f"{art.stem}-tuckbox",
                             tuck_box_assembly(box, art, pieces, paper, art.stem, ", ".join(cut) or "its cut file",
                                               cut_pieces=len(parts)),
                             opts, f"{art.title}: how to fold and glue the tuck box, step by step", order=20)
    plan.move_before(sheet_rel, box_rel)


PRODUCT = ProductDeclaration(
    name="tuck-box", takes=(Deck,), make=make, rank=40,
    files="STEM-tuckbox-PAPER.pdf, STEM-tuckbox-assembly-PAPER.pdf, STEM-tuckbox-MATERIAL-sheet.svg, .dxf, .png",
    entry=dict(stock="card stock, 250-300 g/m2", sides=1, order=20,
               make="print at 100 %; cut on the solid lines, score and fold the dashed ones, glue the hatched tabs",
               step="Tuck box: cut it out, score and fold, glue the side tab and the bottom flap; the cards go "
                    "in from the top.",
               tools=["craft knife or scissors", "metal ruler", "blunt knife or empty pen for scoring",
                      "glue stick"]))
