"""What a Capitals build makes: the rules sheet, the pack, the world map (large, tiles, Figs. 1A/1B
halves), the wall pieces (print-and-fold and laser)."""
from __future__ import annotations

from ...build import BuildOptions, add_board, add_decks, add_pdf, stem_of
from ...outputs import Plan
from ...spec import Spec
from .board import board_from_spec, halves
from .data import load_deck
from .faces import deck_art
from .walls import add_walls


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
                         f"{wm.halves_paper.upper()} page each, for a print shop",
                    shop=True, stock=f"{wm.halves_paper.upper()} paper or card",
                    make="trim each half at the join and lay them edge to edge (or mount them on board)")
        if spec.kind == "capitals-walls":
            add_walls(spec, plan, opts)
        if spec.kind == "capitals-rules":
            from ...layout.rules_sheet import add_rules_sheet
            from .rules_sheet import sheet_game
            add_rules_sheet(spec, sheet_game(spec), plan, opts)
