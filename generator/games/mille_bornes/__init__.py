"""Mille Bornes (GB 963,821): the decks (106 cards, and the patent's 112), the card shoe, the referee.

A game package stays light to import (the referee's start-up time matters): its checks, build and
referee import their modules when they are first used.
"""
from __future__ import annotations

from ..declaration import GameDeclaration, check_by, imported, rules_sheet_check

TITLE = "Mille Bornes"
SPECS = ["decks/mille_bornes.yaml", "decks/mille_bornes_1961.yaml", "boards/mille_bornes_shoe.yaml",
         "decks/mille_bornes_rules.yaml"]


def _check_shoe(spec):
    from .shoe import load_shoe, shoe_parts
    shoe = load_shoe(spec)
    # Each part the laser cuts is one piece: a cut-out that crosses a part (a notch, a mortise, the
    # dish) is the spec's error here, where `validate` sees it, not a failure while drawing the kit.
    for part in shoe_parts(shoe):
        if part.outline.is_empty:
            raise spec.error((), f"the shoe's {part.name} has nothing left to cut: its cut-outs take all of it")
        if part.outline.geom_type != "Polygon":
            raise spec.error((), f"the shoe's {part.name} comes out in {len(part.outline.geoms)} pieces: its "
                                 "cut-outs cross it (a notch, a bow or a joint too large for the part)")
    return shoe


CHECKS = {"mille-bornes-deck": check_by(__name__, ".deck:load_deck"), "mille-bornes-shoe": _check_shoe,
          "mille-bornes-rules": rules_sheet_check(__name__)}


def play_options(parser) -> None:
    parser.add_argument("--players", help="names in seating order, comma-separated")
    parser.add_argument("--teams", help="teams: NAME=A,C;NAME=B,D (partners share a tableau)")
    parser.add_argument("--deck", help="deck spec (default decks/mille_bornes.yaml)")
    parser.add_argument("--short", action="store_true", help="the short game (700 miles)")


# The new-game form of `pnp serve`, in a player's words (the options are play_options').
FORM = {
    "players": {"label": "Players, in seating order", "placeholder": "Ann, Bob"},
    "teams": {"label": "Partners (optional): each team's name, then its players",
              "placeholder": "North-South=Ann,Cat; East-West=Bob,Dan"},
    "deck": {"label": "Which game", "choices": {"": "The published game (106 cards)",
                                                "decks/mille_bornes_1961.yaml": "The patent's game (112 cards)"}},
    "short": {"label": "The short game: a 700-mile trip, which a player may extend to 1000"},
}


GAMES = (GameDeclaration(id="mille-bornes", title=TITLE, specs=tuple(SPECS), checks=CHECKS,
                         referee=imported(__name__, ".referee:REFEREE"), play_options=play_options, form=FORM, web=__name__),)
