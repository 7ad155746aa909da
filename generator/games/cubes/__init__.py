"""Cubes (FR 2 672 509): the laser-cut kit, a printable paper board, and the move referee.

A game package stays light to import (the referee's start-up time matters): its checks, build and
referee import their modules when they are first used.
"""
from __future__ import annotations

from ..declaration import GameDeclaration, imported, rules_sheet_check

TITLE = "Cubes"
SPECS = ["boards/cubes_kit.yaml", "boards/cubes_rules.yaml"]
# The two-player and four-player kits, each in two halves (board, pieces: see products.py), are
# built apart (in parallel, and rebuilt apart).
PARTS = {"boards/cubes_kit.yaml": ("2p:board", "2p:pieces", "4p:board", "4p:pieces")}


def _check(spec):
    from .kit import check_engraving, load_kit
    from .paper_pieces import load_pieces
    from .referee import setup_position
    check_engraving(spec, load_kit(spec))
    setup_position(spec, False)
    load_pieces(spec, False)
    if "four_player" in spec.data:
        check_engraving(spec, load_kit(spec, four_player=True))
        setup_position(spec, True)
        load_pieces(spec, True)


CHECKS = {"cubes-kit": _check, "cubes-rules": rules_sheet_check(__name__)}


def play_options(parser) -> None:
    parser.add_argument("--players", help="names, comma-separated (default: the kit's setup)")
    parser.add_argument("--four", action="store_true", help="the four-player game (11 x 11)")


# The new-game form of `pnp serve`, in a player's words (the options are play_options').
FORM = {
    "players": {"label": "Players (empty: White and Black, or the kit's four)", "placeholder": "White, Black"},
    "four": {"label": "Four players, on the 11 x 11 board"},
}


GAMES = (GameDeclaration(id="cubes", title=TITLE, specs=tuple(SPECS), checks=CHECKS, parts=PARTS,
                         referee=imported(__name__, ".referee:REFEREE"), play_options=play_options, form=FORM,
                         web=__name__),)
