"""Capitals (US 3,064,989): the 117 country cards, the 56 x 25 world map, the wall pieces,
and the enclosure referee.

A game package stays light to import (the referee's start-up time matters): its checks, build and
referee import their modules when they are first used.
"""
from __future__ import annotations

from ..declaration import GameDeclaration

TITLE = "Capitals"
SPECS = ["decks/capitals_1961.yaml", "boards/capitals_world_map.yaml", "boards/capitals_walls.yaml",
         "decks/capitals_rules.yaml"]


def _check(kind):
    def check(spec):
        from . import data, walls
        return {"capitals-deck": data.load_deck, "capitals-board": data.load_board,
                "capitals-walls": walls.load_walls}[kind](spec)
    return check


def _check_rules(spec):
    from ...layout.rules_sheet import load_rules_sheet
    from .rules_sheet import sheet_game
    return load_rules_sheet(spec, sheet_game(spec))


CHECKS = {kind: _check(kind) for kind in ("capitals-deck", "capitals-board", "capitals-walls")}
CHECKS["capitals-rules"] = _check_rules



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


def _referee():
    from .referee import REFEREE
    return REFEREE


GAMES = (GameDeclaration(id="capitals", title=TITLE, specs=tuple(SPECS), checks=CHECKS,
                         referee=_referee, play_options=play_options, form=FORM, web=__name__),)


def __getattr__(name):
    if name == "REFEREE":   # the referee the CLI finds here, loaded when asked for
        from .referee import REFEREE
        return REFEREE
    raise AttributeError(name)
