"""What a game package declares about itself, once, for everything that finds games (the command
line, the build, the referees, `pnp serve`): a GameDeclaration a game, in the package's `GAMES`.

A package's folder holds all of one game: its specs' schemas (`schemas/KIND.yaml`), their checks,
its products, its referee rules, and its table page (`web.py`, what the page is offered and its
hints; `web.js`, the page's controls; `position.py`, the position drawn). Nothing outside the folder
names the game: generator/games/__init__.py finds the packages by walking the games folder (and the
folders in PNP_GAMES_PATH).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class GameDeclaration:
    id: str                                          # the game id: pnp build ID, pnp referee ID
    title: str                                       # as people write it: "Mille Bornes"
    specs: tuple[str, ...]                           # its spec files, in the order a build makes them
    # (specs, paper, part) -> its contents (products/contents.py): what the products make files of.
    # Default: `contents` of the package's products.py, imported when a build first asks.
    contents: Callable[..., list] | None = None
    checks: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)  # spec kind -> its checks
    parts: Mapping[str, tuple] = field(default_factory=dict)   # a spec built in parts: its parts, by the
                                                               # spec's path (or, for specs found where
                                                               # they are built, by their kind)
    referee: Callable[[], Any] | None = None         # () -> its RefereeRules, imported when first asked
    play_options: Callable[[Any], None] | None = None          # adds `play`'s options to a parser
    referee_commands: Callable[[Any], dict] | None = None      # adds commands (best, moves) -> handlers
    form: Mapping[str, dict] = field(default_factory=dict)     # the new-game form, in a player's words
    web: str | None = None                           # the package whose web.py/web.js/position.py serve it
    # Filled in when the package is found:
    package: str = ""                                # the package's module name
    folder: Path | None = None                       # the package's folder
    spec_root: Path | None = None                    # what `specs` are relative to (None: the project)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The spec kinds this game checks (and whose schemas are in its folder)."""
        return tuple(self.checks)


@dataclass(frozen=True)
class TablePage:
    """A game's table page on the server's side (its web.py's PAGE): what the page's controls are
    offered (read off the referee's state), the position drawn, and the hints it can ask for (lists
    the referee itself makes: Continuo's best places, Sorry's moves)."""
    controls: Callable[[Any, dict], dict]                  # (state, header) -> what the controls offer
    draw: Callable[..., Any]                                # (state, header, before) -> the position, a Drawing
    background: Callable[[dict], Any] | None = None        # (header) -> what no turn changes; `draw` then
                                                            # draws only what the turns made, over it
    hints: Mapping[str, Callable[[Any, dict, str], dict]] = field(default_factory=dict)  # kind -> (state, header, arg)


# A game package stays light to import (the referee's start-up time matters): its checks and its
# referee name a module of the package, imported when first used.

def imported(package: str, target: str) -> Callable[[], Any]:
    """`.module:NAME` of a package, as a function that imports it and returns NAME (a referee)."""
    module, name = target.split(":")
    return lambda: getattr(importlib.import_module(module, package), name)


def check_by(package: str, target: str) -> Callable[[Any], Any]:
    """`.module:function` of a package, as a spec's check that imports it when first run."""
    function = imported(package, target)
    return lambda spec: function()(spec)


def rules_sheet_check(package: str) -> Callable[[Any], Any]:
    """A game's rules-sheet spec's check: the sheet laid out with the game's own `sheet_game`
    (its rules_sheet.py), every game's the same."""
    def check(spec):
        from ..layout.rules_sheet import load_rules_sheet
        sheet_game = importlib.import_module(".rules_sheet", package).sheet_game
        return load_rules_sheet(spec, sheet_game(spec))
    return check
