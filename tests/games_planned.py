"""Every game's contents as the games declare them on a paper (generator.games.game_contents), planned
once in a test process for the modules that read them: the printed pieces, the cut sheets of every
deck, the shops' safe zone. Every game's planning costs a test process 1.3 s; each module planned
them all again. Tests read these and change none of them."""
from __future__ import annotations

from functools import lru_cache

from conftest import ROOT

STARTER = ROOT / "generator" / "games" / "deck" / "starter" / "deck.yaml"     # a deck of one's own


@lru_cache(maxsize=None)
def game_specs(game: str) -> dict:
    """The game's specs, loaded and checked as a build hands them to game_contents."""
    from generator.games import load_game_specs
    from generator.spec import load_spec
    if game == "deck":          # the deck kind's game: the starter deck, as `pnp new deck` copies it
        return {str(STARTER): load_spec(STARTER, display="deck.yaml")}
    return load_game_specs(game, ROOT)


@lru_cache(maxsize=None)
def contents(game: str, paper: str = "a4") -> tuple:
    """What the game declares (its decks, boards, pieces and kits) on the paper."""
    from generator.games import game_contents
    from generator.paper import PAPERS
    return tuple(game_contents(game, game_specs(game), PAPERS[paper]))
