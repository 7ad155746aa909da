"""Capitals (US 3,064,989): the 117 country cards, the 56 x 25 world map, the wall pieces,
and the enclosure referee."""
from __future__ import annotations


from ...build import BuildOptions, add_board, add_decks, add_pdf, stem_of
from ...outputs import Plan
from ...spec import Spec
from .data import load_board, load_deck
from .board import board_from_spec, halves
from .faces import deck_art
from .referee import REFEREE  # noqa: F401  (the referee the CLI finds here)
from .rules import VARIANTS
from .walls import add_walls, load_walls

SPECS = ["decks/capitals_1961.yaml", "boards/capitals_world_map.yaml", "boards/capitals_walls.yaml"]
CHECKS = {"capitals-deck": load_deck, "capitals-board": load_board, "capitals-walls": load_walls}


def play_options(parser) -> None:
    parser.add_argument("--players", help="names in turn order, comma-separated")
    parser.add_argument("--variant", choices=VARIANTS, default="most-capitals",
                        help="the objective: most capitals (default), fewest, most or least population")


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions) -> None:
    decks = [s for s in specs.values() if s.kind == "capitals-deck"]
    add_decks(decks, deck_art, plan, opts)
    for spec in specs.values():
        if spec.kind == "capitals-board":
            wm, board = board_from_spec(spec)
            stem = stem_of(spec)
            add_board(board, plan, stem, f"{wm.title} board", opts)
            add_pdf(plan, f"{stem}-halves-{wm.halves_paper}.pdf", f"{wm.title} board, Figs. 1A and 1B",
                    halves(wm, board), opts.cmyk)
        if spec.kind == "capitals-walls":
            add_walls(spec, plan, opts)
