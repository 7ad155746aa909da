"""The games: found, not listed. Every package in this folder declares the games it holds
(`GAMES`, a tuple of GameDeclaration: see declaration.py), and so does every package in the folders
named by the environment variable PNP_GAMES_PATH (separated as PATH is): a game is one folder, and
adding one edits no file outside it.

GAMES maps each game id to its declaration, in the order of their ids. It is found when first
looked at, not when this module is imported: a package on PNP_GAMES_PATH is code, run when
imported, so it runs only for a command that needs the games (`pnp --version`, `calibrate` and
`new` never import it). Only absolute folders are taken from PNP_GAMES_PATH: a relative one would
be resolved against the working folder, and running `pnp` in a downloaded folder would run its code.
"""
from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Mapping
from pathlib import Path

from ..errors import UsageError
from ..paths import NotCode, code_folders, import_file
from ..spec.loader import add_schema_folder
from .declaration import GameDeclaration

HERE = Path(__file__).resolve().parent
EXTRA_PATH = "PNP_GAMES_PATH"


class NotAGame(UsageError):
    """A package in a games folder that declares no game (or declares one twice, or cannot be
    imported), or a PNP_GAMES_PATH entry that is not an absolute folder: one line, exit 2."""


def _packages():
    """(module name, folder) of every game package: this folder's, then PNP_GAMES_PATH's."""
    for info in pkgutil.iter_modules([str(HERE)]):
        if info.ispkg:
            yield f"{__name__}.{info.name}", HERE / info.name
    try:
        folders = code_folders(EXTRA_PATH)
    except NotCode as exc:
        raise NotAGame(str(exc)) from None
    for folder in folders:
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
    return import_file(name, folder / "__init__.py", folder)


def _discover() -> dict[str, GameDeclaration]:
    found: dict[str, GameDeclaration] = {}
    for name, folder in _packages():
        try:
            module = _import(name, folder)
        except NotCode as exc:
            raise NotAGame(f"not a game package: {exc}") from None
        declared = getattr(module, "GAMES", None)
        if not isinstance(declared, tuple) or not all(isinstance(g, GameDeclaration) for g in declared):
            raise NotAGame(f"{folder}: not a game package: a game package declares its games as GAMES, a tuple "
                           "of GameDeclaration")
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


class _Games(Mapping):
    """The games by id, found (their packages imported) when first looked at."""

    def __init__(self):
        self._found: dict[str, GameDeclaration] | None = None

    def _games(self) -> dict[str, GameDeclaration]:
        if self._found is None:
            self._found = _discover()
        return self._found

    def load(self) -> None:
        """Find the games now (NotAGame for a folder or package that is not one)."""
        self._games()

    def __getitem__(self, game_id: str) -> GameDeclaration:
        return self._games()[game_id]

    def __iter__(self):
        return iter(self._games())

    def __len__(self) -> int:
        return len(self._games())

    def __repr__(self) -> str:
        return f"GAMES({list(self._found) if self._found is not None else 'not yet found'})"


GAMES = _Games()


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


_SAID: set = set()


def say_notes(spec) -> None:
    """The notes of a spec (or of a job's result: what its build added) that are no error, each once
    (a build's jobs share a spec; the command line forgets them when it starts: forget_notes),
    on stderr."""
    from ..errors import one_line
    for note in spec.notes:
        if note not in _SAID:
            _SAID.add(note)
            print(one_line(note), file=sys.stderr)


def forget_notes() -> None:
    _SAID.clear()


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
