"""Sorry (US 1,903,661): the 44 cards, the board, and the move referee.

A game package stays light to import (the referee's start-up time matters): its checks, build and
referee import their modules when they are first used.
"""
from __future__ import annotations

from ..declaration import GameDeclaration, check_by, imported, rules_sheet_check

TITLE = "Sorry"
SPECS = ["decks/sorry.yaml", "boards/sorry.yaml", "boards/sorry_1930.yaml", "decks/sorry_rules.yaml"]


def _check_board(spec):
    from .board import load_geometry
    from .pieces import load_men
    load_men(spec)
    return load_geometry(spec)


CHECKS = {"sorry-deck": check_by(__name__, ".deck:load_deck"), "sorry-board": _check_board,
          "sorry-rules": rules_sheet_check(__name__)}


def play_options(parser) -> None:
    parser.add_argument("--players", help="colours in turn order, comma-separated (default: all four)")
    parser.add_argument("--variant", choices=["standard", "solitaire", "dealt-hand"], default="standard")


def referee_commands(sub) -> dict:
    from .referee import REFEREE, moves_command
    m = sub.add_parser("moves", help="every legal move with a card, from a position (a record)")
    m.add_argument("position", help="a record or position file (YAML)")
    m.add_argument("card")
    m.add_argument("--json", action="store_true")
    return {"moves": moves_command(REFEREE)}


# The new-game form of `pnp serve`, in a player's words (the options are play_options').
FORM = {
    "players": {"label": "Colours playing, in turn order (empty: all four)", "placeholder": "red, blue"},
    "variant": {"label": "Which game", "choices": {"standard": "Standard: turn up a card each turn",
                                                   "solitaire": "Solitaire: one player moves two opposite colours",
                                                   "dealt-hand": "Dealt hands: each player holds cards to choose from"}},
}


GAMES = (GameDeclaration(id="sorry", title=TITLE, specs=tuple(SPECS), checks=CHECKS,
                         referee=imported(__name__, ".referee:REFEREE"), play_options=play_options, referee_commands=referee_commands,
                         form=FORM, web=__name__),)
