"""What Capitals holds: the rules sheet, the pack, the world map (large, tiles, Figs. 1A/1B halves),
the wall pieces (print-and-fold, flat strips and laser) with their assembly sheet and rack."""
from __future__ import annotations

from ...layout.marks import BOARD_BLEED
from ...paper import Paper
from ...products.contents import AssemblySheet, Board, BoxLook, CutParts, Deck, Document, Kit, RulesSheet, stem_of
from ...spec import Spec
from .data import load_deck


def contents(specs: dict[str, Spec], paper: Paper, part: str | None = None) -> list:
    from .faces import deck_art
    out = []
    for spec in specs.values():
        if spec.kind == "capitals-deck":
            back = load_deck(spec).back
            out.append(Deck(spec, deck_art(spec), BoxLook(back["colour"], back["ink"])))
    for spec in specs.values():
        if spec.kind == "capitals-board":
            from .board import board_from_spec, halves
            wm, board = board_from_spec(spec)
            stem = stem_of(spec)
            out.append(Board(spec, board, stem, f"{wm.title} board"))
            out.append(Document(spec, f"{stem}-halves-{wm.halves_paper.name}.pdf", f"{wm.title} board, Figs. 1A and 1B",
                                lambda wm=wm, board=board: halves(wm, board), shop=True,
                                info=dict(what=f"{wm.title} board in two halves (the patent's Figs. 1A and 1B), one "
                                               f"{wm.halves_paper.label} page each, {BOARD_BLEED:g} mm bleed, TrimBox, for a print "
                                               "shop",
                                          shop=True, stock=f"{wm.halves_paper.label} paper or card",
                                          make="trim each half at the join and lay them edge to edge (or mount them "
                                               "on board)")))
        if spec.kind == "capitals-walls":
            out += walls_contents(spec, paper)
        if spec.kind == "capitals-rules":
            from .rules_sheet import sheet_game
            out.append(RulesSheet(spec, sheet_game(spec)))
    return out


def walls_contents(spec: Spec, paper: Paper) -> list:
    """The wall pieces to print and fold, as flat strips, and to cut; their assembly sheet and rack."""
    from .sorting import rack_document
    from .strips import hours, make_times, strip_pages, strip_parts
    from .wall_assembly import walls_assembly
    from .walls import load_walls, print_pages, trough_parts, wall_parts, walls_summary
    ws = load_walls(spec)
    stem = stem_of(spec)
    total = sum(ws.counts.values())
    times = make_times(ws, paper)
    # The three ways to make the walls are alternatives: the print list totals each.
    strips, troughs, laser = "flat wall strips", "folded wall troughs", "laser-cut wall troughs"
    lz = ws.laser
    return [
        AssemblySheet(spec, stem, lambda: walls_assembly(ws, times, paper),
                      what=f"{ws.title}: which of the three ways to make them, how long each takes, and how "
                           "(steps with drawings, checks)"),
        Document(spec, f"{stem}-strips-{paper.name}.pdf", f"{ws.title} as flat strips", lambda: strip_pages(ws, paper),
                 info=dict(variant=strips,
                           what=f"{ws.title}: {total} flat strips, the quick way ({hours(times.strips)} to cut: "
                                f"{times.strip_cuts[0]} long cuts and {times.strip_cuts[1]} short ones)",
                           stock="card, 160-250 g/m2", sides=1, paper=paper.name, order=44,
                           make="print at 100 %; cut along the long lines across the sheet, then between the strips",
                           step=f"Wall pieces, flat: cut the bands apart along the long lines, then the {total} "
                                "strips.",
                           tools=["craft knife", "metal ruler"])),
        Document(spec, f"{stem}-print-{paper.name}.pdf", f"{ws.title} ({walls_summary(ws)})", lambda: print_pages(ws, paper),
                 info=dict(variant=troughs,
                           what=f"{ws.title}: {total} troughs to cut and fold, as the patent's ({walls_summary(ws)}: "
                                f"pieces x units; {hours(times.troughs)}: {times.trough_cuts:,} knife cuts, "
                                f"{times.trough_scores} fold lines)",
                           stock="card, 160-250 g/m2 (it must fold crisply)", sides=1, paper=paper.name, order=45,
                           make="print at 100 %; cut on the solid lines, fold down on the dashed ones (top up)",
                           step=f"Wall pieces, folded: cut out the {total} strips and fold each into a trough, "
                                "flanges out, the top running past both ends.",
                           tools=["craft knife or scissors", "metal ruler", "blunt knife or empty pen for scoring"])),
        Kit(spec, wall_parts(ws), tuple(lz["sheet"]), lz["kerf"], lz.get("margin", 5), lz.get("spacing", 2), stem,
            what=f"{ws.title} to cut ({total})", order=61, variant=laser,
            make=f"cut, and score the folds; fold each into a trough as the printed pieces "
                 f"({hours(times.laser_folds)} to fold)",
            stock={ws.laser["material"].replace(" ", "_"): ws.laser["material"]}),
        rack_document(spec, ws, stem, paper),
        CutParts(spec, f"{stem}-strips", f"{ws.title} as flat strips", lambda: strip_parts(ws), variant=strips,
                 info=dict(what=f"{ws.title}: {total} flat strips, cut by the machine",
                           step="Wall pieces, flat: the strips are ready as cut.")),
        CutParts(spec, f"{stem}-troughs", f"{ws.title} as troughs", lambda: trough_parts(ws), variant=troughs,
                 info=dict(what=f"{ws.title}: {total} troughs, cut by the machine, to fold as the patent's "
                                f"({walls_summary(ws)}: pieces x units)",
                           step=f"Wall pieces, folded: score and fold down the dashed lines (top up) of each of "
                                f"the {total}, flanges out, the top running past both ends.",
                           tools=["blunt knife or empty pen for scoring"])),
    ]
