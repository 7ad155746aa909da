"""Capitals (US 3,064,989): the 117 country cards, the 56 x 25 world map, the wall pieces,
and the enclosure referee.

A game package stays light to import (the referee's start-up time matters): its checks, build and
referee import their modules when they are first used.
"""
from __future__ import annotations

from ..declaration import GameDeclaration, check_by, imported, rules_sheet_check

TITLE = "Capitals"
SPECS = ["decks/capitals_1961.yaml", "boards/capitals_world_map.yaml", "boards/capitals_walls.yaml",
         "decks/capitals_rules.yaml"]


CHECKS = {"capitals-deck": check_by(__name__, ".data:load_deck"),
          "capitals-board": check_by(__name__, ".data:load_board"),
          "capitals-walls": check_by(__name__, ".walls:load_walls"),
          "capitals-rules": rules_sheet_check(__name__)}


def play_options(parser) -> None:
    from .rules import VARIANTS
    parser.add_argument("--players", help="names in turn order, comma-separated")
    parser.add_argument("--variant", choices=VARIANTS, default="most-capitals",
                        help="the objective: most capitals (default), fewest, most or least population")


# The new-game form of `pnp serve`, in a player's words (the options are play_options').
FORM = {
    "players": {"label": "Players, in turn order", "placeholder": "Ann, Bob"},
    "variant": {"label": "Who wins", "choices": {"most-capitals": "Most capitals walled off",
                                                 "fewest-capitals": "Fewest capitals walled off",
                                                 "most-population": "Most people walled off",
                                                 "least-population": "Fewest people walled off"}},
}


GAMES = (GameDeclaration(id="capitals", title=TITLE, specs=tuple(SPECS), checks=CHECKS,
                         referee=imported(__name__, ".referee:REFEREE"), play_options=play_options, form=FORM,
                         web=__name__),)
