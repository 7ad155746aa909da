"""Sorry (US 1,903,661): the 44 cards, the board, and the move referee."""
from __future__ import annotations


from ...build import BuildOptions, add_board, add_decks, stem_of
from ...outputs import Plan
from ...spec import Spec
from .board import draw_board, load_geometry
from .deck import deck_art, load_deck
from .referee import REFEREE, moves_command

SPECS = ["decks/sorry.yaml", "boards/sorry.yaml"]
CHECKS = {"sorry-deck": load_deck, "sorry-board": load_geometry}


def play_options(parser) -> None:
    parser.add_argument("--players", help="colours in turn order, comma-separated (default: all four)")
    parser.add_argument("--variant", choices=["standard", "solitaire", "dealt-hand"], default="standard")


def referee_commands(sub) -> dict:
    m = sub.add_parser("moves", help="every legal move with a card, from a position (a record)")
    m.add_argument("position", help="a record or position file (YAML)")
    m.add_argument("card")
    m.add_argument("--json", action="store_true")
    return {"moves": moves_command(REFEREE)}


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions) -> None:
    decks = [s for s in specs.values() if s.kind == "sorry-deck"]
    add_decks(decks, deck_art, plan, opts)
    for spec in specs.values():
        if spec.kind == "sorry-board":
            add_board(draw_board(spec), plan, f"{stem_of(spec)}-board", f"{spec.data['title']} board", opts)
