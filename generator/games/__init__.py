"""The games: each package under games/ has its specs, faces, board and rules.

A game module provides SPECS (spec files, relative to the project root), CHECKS (spec kind ->
a function that raises SpecError for what its schema cannot catch) and build(specs, out_dir, opts)
-> list of written paths, given specs that passed both.
"""
from __future__ import annotations

import importlib

GAMES = {
    "mille-bornes": "generator.games.mille_bornes",
    "continuo": "generator.games.continuo",
    "count-continuo": "generator.games.continuo.count",
    "cubes": "generator.games.cubes",
    "sorry": "generator.games.sorry",
    "capitals": "generator.games.capitals",
}


def game_module(game_id: str):
    return importlib.import_module(GAMES[game_id])


def game_of_kind(kind: str) -> str | None:
    """The game whose specs are of this kind (the first, where games share one)."""
    for game_id in GAMES:
        if kind in getattr(game_module(game_id), "CHECKS", {}):
            return game_id
    return None


def check_spec(spec) -> None:
    """Run the semantic checks of the game that owns this spec's kind, if any."""
    for game_id in GAMES:
        checker = getattr(game_module(game_id), "CHECKS", {}).get(spec.kind)
        if checker:
            checker(spec)
            return
