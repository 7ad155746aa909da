"""The games: found, not listed. Every package in this folder declares the games it holds
(`GAMES`, a tuple of GameDeclaration: see declaration.py), and so does every package in the folders
named by the environment variable PNP_GAMES_PATH (separated as PATH is): a game is one folder, and
adding one edits no file outside it.

GAMES maps each game id to its declaration, in the order of their ids.
"""
from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import os
import pkgutil
import sys
from pathlib import Path

from ..spec.loader import add_schema_folder
from .declaration import GameDeclaration

HERE = Path(__file__).resolve().parent
EXTRA_PATH = "PNP_GAMES_PATH"


class NotAGame(Exception):
    """A package in a games folder that declares no game (or declares one twice)."""


def _packages():
    """(module name, folder) of every game package: this folder's, then PNP_GAMES_PATH's."""
    for info in pkgutil.iter_modules([str(HERE)]):
        if info.ispkg:
            yield f"{__name__}.{info.name}", HERE / info.name
    for entry in filter(None, os.environ.get(EXTRA_PATH, "").split(os.pathsep)):
        folder = Path(entry).expanduser().resolve()
        for info in pkgutil.iter_modules([str(folder)]):
            if info.ispkg:
                yield f"pnp_games_{abs(hash(str(folder)))}.{info.name}", folder / info.name


def _import(name: str, folder: Path):
    if name.startswith(__name__ + "."):
        return importlib.import_module(name)
    # A package outside ours: imported from its folder under a name of its own (two folders may
    # both hold a package called `mygame`), importing from generator.* as any program would.
    parent = name.rsplit(".", 1)[0]
    if parent not in sys.modules:
        sys.modules[parent] = importlib.util.module_from_spec(importlib.machinery.ModuleSpec(parent, None,
                                                                                             is_package=True))
        sys.modules[parent].__path__ = []
    spec = importlib.util.spec_from_file_location(name, folder / "__init__.py", submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _discover() -> dict[str, GameDeclaration]:
    found: dict[str, GameDeclaration] = {}
    for name, folder in _packages():
        module = _import(name, folder)
        declared = getattr(module, "GAMES", None)
        if not isinstance(declared, tuple) or not all(isinstance(g, GameDeclaration) for g in declared):
            raise NotAGame(f"{folder}: a game package declares its games as GAMES, a tuple of GameDeclaration")
        if (folder / "schemas").is_dir():
            add_schema_folder(folder / "schemas")
        for game in declared:
            if game.id in found:
                raise NotAGame(f"{folder}: the game id {game.id!r} is declared twice")
            outside = not name.startswith(__name__ + ".")
            found[game.id] = dataclasses.replace(game, package=name, folder=folder,
                                                 spec_root=game.spec_root or (folder if outside else None),
                                                 web=game.web or name)
    return dict(sorted(found.items()))


GAMES: dict[str, GameDeclaration] = _discover()


def game_of_kind(kind: str) -> str | None:
    """The game whose specs are of this kind (the first, where games share one)."""
    for game_id, game in GAMES.items():
        if kind in game.checks:
            return game_id
    return None


def check_spec(spec) -> None:
    """Run the semantic checks of the game that owns this spec's kind, if any."""
    for game in GAMES.values():
        checker = game.checks.get(spec.kind)
        if checker:
            checker(spec)
            return


def game_contents(game_id: str, specs: dict, paper, part: str | None = None) -> list:
    """What a game holds of these specs ({path: spec}), as it declares it (products/contents.py):
    its declaration's `contents`, else its package's products.contents (imported when first asked:
    a game package stays light to import)."""
    game = GAMES[game_id]
    contents = game.contents or importlib.import_module(f"{game.package}.products").contents
    return contents(specs, paper, part)


def load_game_specs(game_id: str, root: Path) -> dict:
    """Every spec a game declares, loaded and checked, as a build hands them to game_contents
    ({path: spec}): for planning a game whole in one process (benchmarks, tests)."""
    from ..spec import load_spec
    game = GAMES[game_id]
    specs = {}
    for rel in game.specs:
        path = spec_path(game, rel, root)
        spec = load_spec(path, display=rel)
        check_spec(spec)
        specs[str(path)] = spec
    return specs


def spec_path(game: GameDeclaration, rel: str, root: Path) -> Path:
    """Where one of a game's specs is: under the project (`root`) or, for a game from outside the
    project, under its own folder."""
    return (game.spec_root or root) / rel
