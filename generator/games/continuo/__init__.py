"""Continuo and Count continuo: the 42 tiles, the rules and example cards, and the referee.

A game package stays light to import (the referee's start-up time matters): its checks, build and
referee import their modules when they are first used.
"""
from __future__ import annotations

from ..declaration import GameDeclaration, check_by, imported, rules_sheet_check

TITLE = "Continuo"
SPECS = ["decks/continuo.yaml", "decks/continuo_rules.yaml"]


CHECKS = {"continuo-deck": check_by(__name__, ".deck:load_deck"), "continuo-rules": rules_sheet_check(__name__)}
# One pack of tiles, two ways of scoring: the game id decides which (referee.py makes both).
CONTINUO = imported(__name__, ".referee:REFEREE")
COUNT_CONTINUO = imported(__name__, ".referee:COUNT_REFEREE")


def play_options(parser, variants: bool = True) -> None:
    parser.add_argument("--players", help="names, comma-separated (a new game; default two players)")
    if variants:   # count-continuo is always Count continuo: its game id decides
        parser.add_argument("--variant", choices=["continuo", "count-continuo"], default="continuo")
    parser.add_argument("--openings", type=int, help="unscored opening tiles (default 2, or 3 for three players)")


def referee_commands(sub, rules=CONTINUO) -> dict:
    """`best RECORD TILE`: every legal placement of TILE after RECORD, best first."""
    from ...referee.contract import Refused
    from ...referee.prompt import record_command
    from .referee import best_text, parse_tile
    b = sub.add_parser("best", help="rank every legal placement of a tile after a record")
    b.add_argument("record")
    b.add_argument("tile", help="a tile number, or four rows like RRGG/RRGG/BBYY/BBYY")
    b.add_argument("--top", type=int, default=10)

    def best(state, args) -> int:
        try:
            tile = parse_tile(args.tile)
        except ValueError as exc:
            raise Refused("tile", str(exc)) from None
        print(best_text(state, tile, args.top))
        return 0
    return {"best": record_command(rules(), best)}


# The new-game form of `pnp serve`, in a player's words (the options are play_options').
FORM = {
    "players": {"label": "Players, in turn order", "placeholder": "Ann, Bob"},
    "variant": {"label": "Which game", "choices": {"continuo": "Continuo: chains of colours",
                                                   "count-continuo": "Count continuo: the colours' numbers"}},
    "openings": {"label": "Opening tiles, laid first and not scored (empty: 2, or 3 for three players)"},
}


def _count_options(parser) -> None:
    play_options(parser, variants=False)     # count-continuo is always Count continuo: its id decides


# Continuo and Count continuo: one pack of tiles, two ways of scoring; the game id decides which.
GAMES = (GameDeclaration(id="continuo", title=TITLE, specs=tuple(SPECS), checks=CHECKS,
                         referee=CONTINUO, play_options=play_options,
                         referee_commands=referee_commands, form=FORM, web=__name__),
         GameDeclaration(id="count-continuo", title="Count continuo",
                         specs=("decks/count_continuo.yaml", "decks/count_continuo_rules.yaml"),
                         checks=CHECKS, referee=COUNT_CONTINUO, play_options=_count_options,
                         referee_commands=lambda sub: referee_commands(sub, COUNT_CONTINUO),
                         form=FORM, web=__name__))
