"""Where specs are: the games' own (the checkout's decks/ and boards/, or the copy shipped in the
installed package), and the user's folder, whose specs come first.

A folder is a project when it holds specs: decks/ or boards/ (as `pnp copy GAME` makes them), or a
spec at its top (as `pnp new deck` makes one). Run there, `pnp` reads a spec from the folder when
the folder has it and from the games' own specs otherwise: a copied game's edited specs build
instead of the shipped ones, and every other game still builds."""
from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
MAX_TOP_SPECS = 200            # specs taken from a folder's top (a folder of thousands is not a project)
MAX_TOP_FILES = 20_000         # YAML files looked at there: game records beside the specs do not crowd them out
_KIND = re.compile(rb"^kind:[ \t]*[A-Za-z]", re.M)
_GAME = re.compile(rb"^game:[ \t]*[A-Za-z]", re.M)


def builtin_root() -> Path:
    """The folder holding the games' own decks/ and boards/: the checkout's top when run from one
    (pnp installed editable, or python -m generator there), else the package's shipped copy."""
    checkout = PACKAGE.parent
    if (checkout / "decks").is_dir() and (checkout / "boards").is_dir() and (checkout / "pyproject.toml").is_file():
        return checkout
    return PACKAGE / "builtin"


def what_file(path: Path) -> str | None:
    """"spec" for a YAML file with a `kind:` line in its first 64 KB, "record" for one with a
    `game:` line in its first 4 KB and no `kind:` there (a game record: read cheaply, a folder of
    a season's records costs little), else None (not YAML we know, or not readable)."""
    try:
        if not path.is_file() or path.is_symlink():
            return None
        with open(path, "rb") as f:
            head = f.read(4096)
            if _KIND.search(head):
                return "spec"
            if _GAME.search(head):
                return "record"
            return "spec" if _KIND.search(head + f.read(65536 - 4096)) else None
    except OSError:
        return None


def top_specs(folder: Path, limit: int = MAX_TOP_SPECS) -> list[Path]:
    """The spec files at a folder's top: YAML files with a `kind:` line (what_file), at most
    `limit` of them, by name; game records among them are passed over, however many."""
    found = []
    try:
        candidates = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".yaml", ".yml"))[:MAX_TOP_FILES]
    except OSError:
        return []
    for p in candidates:
        if what_file(p) == "spec":
            found.append(p)
            if len(found) >= limit:
                break
    return found


def is_project(folder: Path) -> bool:
    return (folder / "decks").is_dir() or (folder / "boards").is_dir() or bool(top_specs(folder, limit=1))


def project_root() -> Path:
    """The folder whose specs come first: the working folder if it is a project, else the games'
    own specs' folder."""
    try:
        cwd = Path.cwd()
    except OSError:                # the working folder is gone
        return builtin_root()
    return cwd if is_project(cwd) else builtin_root()


def spec_file(rel: str, root: Path | None = None) -> Path:
    """Where a spec named relative to a project (decks/sorry.yaml) is: in the project (`root`, by
    default project_root()) if it has it, else among the games' own."""
    root = project_root() if root is None else root
    here = root / rel
    if here.exists() or root == builtin_root():
        return here
    shipped = builtin_root() / rel
    return shipped if shipped.exists() else here


def spec_roots(root: Path | None = None) -> tuple[Path, ...]:
    """The folders a build reads specs from (the manifest trusts files under them)."""
    root = project_root() if root is None else root
    return tuple(dict.fromkeys([root, builtin_root()]))


# ---------------------------------------------------------------- code found on a path

class NotCode(Exception):
    """What a code path (PNP_GAMES_PATH, PNP_PRODUCTS_PATH) names that cannot be taken: a relative
    entry, or a module that cannot be imported. One line, exit 2 (the finders raise it as their
    own UsageError)."""


def code_folders(variable: str) -> list[Path]:
    """The folders an environment variable names for code to import (separated as PATH is):
    absolute ones only. Importing runs a module's code: a relative entry would be resolved against
    the working folder, and running pnp inside a downloaded folder would run the folder's code."""
    import os
    folders = []
    for entry in filter(None, os.environ.get(variable, "").split(os.pathsep)):
        if not os.path.isabs(os.path.expanduser(entry)):
            from .errors import show
            raise NotCode(f"{variable}: {show(entry)} is not an absolute path (a relative one would run the "
                          "code of whatever folder pnp is run in): name its folders from /")
        folders.append(Path(entry).expanduser().resolve())
    return folders


def import_file(name: str, path: Path, package: Path | None = None):
    """The module at `path` imported as `name` (a package's __init__.py with its folder `package`),
    or NotCode naming it in one line, whatever its code raised (a syntax error, an import that
    fails, a SystemExit)."""
    import importlib.util
    import sys
    try:
        spec = importlib.util.spec_from_file_location(
            name, path, submodule_search_locations=[str(package)] if package is not None else None)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    except (Exception, SystemExit) as exc:  # noqa: BLE001  a stranger's code: one line naming it
        sys.modules.pop(name, None)
        raise NotCode(f"{package or path}: cannot be imported ({type(exc).__name__}: {exc})") from None

