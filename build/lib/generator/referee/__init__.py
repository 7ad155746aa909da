"""The referees' common contract and the game in play, the same for every game.

- contract.py: what a game's rules give and raise (RefereeRules, Refused, TurnReport) and its names;
- record.py: game records (read, checked, replayed, written back as YAML);
- journal.py: a record on disk that grows an entry at a time;
- game.py: a game in play (Game: open, push, pop, reload), for the prompt and `pnp serve` alike;
- prompt.py: `pnp referee GAME score` and `play` at a terminal.
"""
from .contract import Refused, RefereeRules, TurnReport, names

__all__ = ["Refused", "RefereeRules", "TurnReport", "names"]
