"""What a Capitals build makes: the rules sheet, the pack, the world map (large, tiles, Figs. 1A/1B
halves), the wall pieces (print-and-fold and laser)."""
from __future__ import annotations

from ...build import BuildOptions, add_assembly, add_board, add_decks, add_laser_kit, add_pdf, stem_of
from ...layout.marks import BOARD_BLEED
from ...outputs import Plan
from ...spec import Spec
from .board import board_from_spec, halves
from .data import load_deck
from .faces import deck_art
from .sorting import add_rack
from .strips import hours, make_times, strip_pages
from .wall_assembly import walls_assembly
from .walls import WallSet, load_walls, print_pages, wall_parts, walls_summary


def _tuck_box(spec: Spec, art) -> tuple:
    back = load_deck(spec).back
    return back["colour"], back["ink"], f"{len(art.expanded())} cards"


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions, part: str | None = None) -> None:
    decks = [s for s in specs.values() if s.kind == "capitals-deck"]
    add_decks(decks, deck_art, plan, opts, box=_tuck_box)
    for spec in specs.values():
        if spec.kind == "capitals-board":
            wm, board = board_from_spec(spec)
            stem = stem_of(spec)
            add_board(board, plan, stem, f"{wm.title} board", opts)
            add_pdf(plan, f"{stem}-halves-{wm.halves_paper}.pdf", f"{wm.title} board, Figs. 1A and 1B",
                    halves(wm, board), opts.cmyk, pdfx=opts.pdfx,
                    what=f"{wm.title} board in two halves (the patent's Figs. 1A and 1B), one "
                         f"{wm.halves_paper.upper()} page each, {BOARD_BLEED:g} mm bleed, TrimBox, for a print shop",
                    shop=True, stock=f"{wm.halves_paper.upper()} paper or card",
                    make="trim each half at the join and lay them edge to edge (or mount them on board)")
        if spec.kind == "capitals-walls":
            add_rack(add_walls(spec, plan, opts), stem_of(spec), plan, opts)
        if spec.kind == "capitals-rules":
            from ...build import add_rules_sheet
            from .rules_sheet import sheet_game
            add_rules_sheet(spec, sheet_game(spec), plan, opts)


def add_walls(spec: Spec, plan, opts) -> WallSet:
    """The wall pieces to print and fold, and to cut: the pieces made (their rack is sorting.py's)."""
    ws = load_walls(spec)
    stem = stem_of(spec)
    total = sum(ws.counts.values())
    times = make_times(ws, opts.paper)
    add_assembly(plan, stem, walls_assembly(ws, times, opts.paper), opts,
                 what=f"{ws.title}: which of the three ways to make them, how long each takes, and how "
                      "(steps with drawings, checks)")
    # The three ways to make the walls are alternatives: the print list totals each.
    strips, troughs, laser = "flat wall strips", "folded wall troughs", "laser-cut wall troughs"
    add_pdf(plan, f"{stem}-strips-{opts.paper}.pdf", f"{ws.title} as flat strips", strip_pages(ws, opts.paper),
            opts.cmyk, variant=strips,
            what=f"{ws.title}: {total} flat strips, the quick way ({hours(times.strips)} to cut: "
                 f"{times.strip_cuts[0]} long cuts and {times.strip_cuts[1]} short ones)",
            stock="card, 160-250 g/m2", sides=1, paper=opts.paper, order=44,
            make="print at 100 %; cut along the long lines across the sheet, then between the strips",
            step=f"Wall pieces, flat: cut the bands apart along the long lines, then the {total} strips.",
            tools=["craft knife", "metal ruler"])
    add_pdf(plan, f"{stem}-print-{opts.paper}.pdf", f"{ws.title} ({walls_summary(ws)})", print_pages(ws, opts.paper),
            opts.cmyk, variant=troughs,
            what=f"{ws.title}: {total} troughs to cut and fold, as the patent's ({walls_summary(ws)}: pieces x "
                 f"units; {hours(times.troughs)}: {times.trough_cuts:,} knife cuts, {times.trough_scores} "
                 f"fold lines)",
            stock="card, 160-250 g/m2 (it must fold crisply)", sides=1, paper=opts.paper, order=45,
            make="print at 100 %; cut on the solid lines, fold down on the dashed ones (top up)",
            step=f"Wall pieces, folded: cut out the {total} strips and fold each into a trough, flanges out, the "
                 f"top running past both ends.",
            tools=["craft knife or scissors", "metal ruler", "blunt knife or empty pen for scoring"])
    lz = ws.laser
    before = set(plan.products)
    add_laser_kit(spec, wall_parts(ws), tuple(lz["sheet"]), lz["kerf"], lz.get("margin", 5),
                  lz.get("spacing", 2), plan, stem, what=f"{ws.title} to cut ({total})", order=61,
                  make=f"cut, and score the folds; fold each into a trough as the printed pieces "
                       f"({hours(times.laser_folds)} to fold)",
                  stock={ws.laser["material"].replace(" ", "_"): ws.laser["material"]})
    for rel in set(plan.products) - before:
        plan.products[rel].info.setdefault("variant", laser)
    return ws
