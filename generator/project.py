"""A user's own folder as a project: a game's specs copied into it to change them (`pnp copy`), a
new deck started there (`pnp new deck`), and the printer it remembers (its settings file, which
`pnp calibrate --save` writes and every build there reads; the command line still wins)."""
from __future__ import annotations

import decimal
import json
import math
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import SpecError, UsageError, show
from .games import GAMES, check_spec
from .inputs import MAX_SPEC_BYTES, read_text, track_reads
from .paper import HOME
from .paths import builtin_root
from .spec import load_spec
from .spec.loader import parse_yaml

SETTINGS = "pnp-settings.yaml"
from .cutters import MACHINES as CUTTERS    # `cut:`, as --cut (generator/cutters/ has their profiles)  # noqa: E402
MAX_BACK_OFFSET = 20.0          # mm, as the command line's --back-offset


# ---------------------------------------------------------------- copying a game's specs

def game_files(game_id: str) -> tuple[Path, list[str]]:
    """(where they are, the files relative to it) of what a game's build reads: its specs and the
    files they name (the Capitals land polygons, the deck a rules sheet quotes)."""
    game = GAMES[game_id]
    root = game.spec_root or builtin_root()
    files = dict.fromkeys(game.specs)
    with track_reads() as reads:
        for rel in game.specs:
            spec = load_spec(root / rel, display=rel)
            check_spec(spec)
    real_root = os.path.realpath(root)
    for real in reads:
        if os.path.commonpath([real_root, real]) == real_root:
            files.setdefault(Path(os.path.relpath(real, real_root)).as_posix())
    return root, list(files)


def copy_game(game_id: str, dest: Path) -> list[str]:
    """A game's specs (and what they read) copied into `dest`, where they then build instead of the
    game's own: the files copied. Refused, with nothing copied, if any is there already."""
    root, files = game_files(game_id)
    _check_folders(dest, files, "nothing was copied")
    there = [rel for rel in files if os.path.lexists(dest / rel)]
    if there:
        raise UsageError(f"{there[0]} is here already{f' (and {len(there) - 1} more)' if len(there) > 1 else ''}: "
                         "nothing was copied; copy into another folder, or move them away first")
    for rel in files:
        _copy_file(root / rel, dest / rel)
    return files


def _check_folders(dest: Path, rels, what: str) -> None:
    """Refused (UsageError), before anything is written, unless every folder the files `rels` go
    into is a folder here or nothing: a plain file or a link named `boards` or `icons` once let
    half of a copy be written and then stopped it (and the retry was refused: half was there)."""
    for rel in rels:
        parts = Path(rel).parts[:-1]
        for k in range(1, len(parts) + 1):
            folder = dest.joinpath(*parts[:k])
            if os.path.islink(folder) or (os.path.lexists(folder) and not os.path.isdir(folder)):
                kind = "a link" if os.path.islink(folder) else "a file"
                raise UsageError(f"{Path(*parts[:k]).as_posix()} is here and is {kind}, not a folder: {what}; "
                                 "move it away first")


def _copy_file(src: Path, dest: Path) -> None:
    """A whole file or none: written beside its place and renamed onto it."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as out, open(src, "rb") as f:
            shutil.copyfileobj(f, out)
        os.chmod(tmp, 0o666 & ~_umask())
        os.link(tmp, dest)          # refuses to replace a file made meanwhile
    finally:
        os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---------------------------------------------------------------- a new deck

STARTER = Path(__file__).resolve().parent / "games" / "deck" / "starter"
# The starter's spec and spreadsheet take the deck's name (its products are named after its spec);
# its icons keep theirs (two decks in one folder may share them).
STARTER_NAMES = {"deck.yaml": "{name}.yaml", "cards.csv": "{name}.csv"}


def new_deck(name: str, dest: Path) -> list[str]:
    """The starter deck written into `dest` as NAME (NAME.yaml, NAME.csv, its icons): the files
    written. Refused, with nothing written, if a file it would write is there already (a file
    there with the very same bytes, an icon another deck brought, is left as it is)."""
    if not name or not all(c.isalnum() or c in "-_" for c in name) or len(name) > 60 or name[0] in "-_":
        raise UsageError(f"a deck's name is letters, digits, - and _ (at most 60), got {show(name)}")
    if not STARTER.is_dir():
        raise UsageError("this pnp has no starter deck")
    from .draw.fonts import get_font
    # The name is the deck's title, which its products print in the starter's fonts: a name they
    # have no letter for once wrote a deck that failed validate.
    missing = next((ch for font in ("sans", "sans-bold") for ch in [get_font(font).missing(name)] if ch), None)
    if missing:
        raise UsageError(f"the starter deck's font (sans, Bitstream Vera: Latin letters) has no letter for {show(missing)} "
                         f"(U+{ord(missing):04X}), which its title would print: nothing was written; name the deck "
                         "in letters it has, then give it a font of yours (fonts:) and the title you want")
    plan = []
    for src in sorted(p for p in STARTER.rglob("*") if p.is_file()):
        rel = src.relative_to(STARTER).as_posix()
        rel = STARTER_NAMES.get(rel, rel).format(name=name)
        data = src.read_bytes()
        if src.name == "deck.yaml":
            # Quoted: a name YAML would read as something else (123, yes, null, 0x1F) stays text.
            text = data.decode("utf-8").replace("csv: cards.csv", f"csv: {json.dumps(name + '.csv')}")
            text = text.replace("title: My deck", f"title: {json.dumps(name)}", 1)
            data = text.encode("utf-8")
        plan.append((rel, data))
    _check_folders(dest, [rel for rel, _ in plan], "nothing was written")
    clash = [rel for rel, data in plan if os.path.lexists(dest / rel) and not _same(dest / rel, data)]
    if clash:
        raise UsageError(f"{clash[0]} is here already: nothing was written; choose another name")
    made = []
    for rel, data in plan:
        if not os.path.lexists(dest / rel):
            _write_bytes(dest / rel, data)
            made.append(rel)
    return made


def _same(path: Path, data: bytes) -> bool:
    try:
        return path.is_file() and not path.is_symlink() and path.read_bytes() == data
    except OSError:
        return False


def _write_bytes(dest: Path, data: bytes) -> None:
    """A whole file or none, never over one made meanwhile."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.link(tmp, dest)
    finally:
        os.unlink(tmp)


# ---------------------------------------------------------------- the folder's printer

@dataclass(frozen=True)
class Settings:
    """What a folder remembers of its printer; None where it says nothing."""
    paper: str | None = None
    flip: str | None = None
    back_offset: tuple[float, float] | None = None
    cut: str | None = None             # the cutting machine a build here makes print-and-cut sheets for
    file: str | None = None            # where they were read, for the line a build says


def read_settings(folder: Path) -> Settings:
    """The folder's settings file, checked (SpecError at its line and field), or no settings."""
    path = folder / SETTINGS
    if not os.path.lexists(path):
        return Settings()
    text = read_text(path, SETTINGS, MAX_SPEC_BYTES)
    data, lines = parse_yaml(text, SETTINGS, shown=True)
    if data is None:
        return Settings(file=SETTINGS)
    if not isinstance(data, dict):
        raise SpecError(SETTINGS, 1, "", "expected a mapping: paper, flip, back_offset, cut")

    def error(key, message):
        return SpecError(SETTINGS, lines.get((key,), 1), str(key), message)
    for key in data:
        if key not in ("paper", "flip", "back_offset", "cut"):
            raise error(key, f"unknown key (expected paper, flip, back_offset or cut), got {show(key)}")
    paper, flip, offset, cut = data.get("paper"), data.get("flip"), data.get("back_offset"), data.get("cut")
    if paper is not None and paper not in HOME:
        raise error("paper", f"expected a4 or letter, got {show(paper)}")
    if flip is not None and flip not in ("long", "short"):
        raise error("flip", f"expected long or short, got {show(flip)}")
    if offset is not None:
        ok = (isinstance(offset, list) and len(offset) == 2
              and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                      and abs(v) <= MAX_BACK_OFFSET for v in offset))
        if not ok:
            raise error("back_offset", f"expected [X, Y] in mm, each between -{MAX_BACK_OFFSET:g} and "
                                       f"{MAX_BACK_OFFSET:g}, got {show(offset)}")
        offset = (float(offset[0]), float(offset[1]))
    if cut is not None and cut not in CUTTERS:
        raise error("cut", f"expected {', '.join(CUTTERS[:-1])} or {CUTTERS[-1]}, got {show(cut)}")
    return Settings(paper, flip, offset, cut, SETTINGS)


def yaml_float(value: float) -> str:
    """A number as YAML reads back the same float: the shortest digits that are it (repr), written
    out in full (1e-05 is text to YAML 1.1, 0.00001 a number) and with a point (1.0, not 1)."""
    text = format(decimal.Decimal(repr(float(value))), "f")
    return text if "." in text else text + ".0"


def write_settings(folder: Path, paper: str, flip: str, offset: tuple[float, float], cut: str | None = None) -> Path:
    """The folder's settings file, written whole (replacing what was there); `cut`, the machine the
    file named before (calibrate --save keeps it), if any."""
    from .outputs import write_synced
    text = (f"# What this folder's printer needs (pnp calibrate --save wrote it; every pnp build here\n"
            f"# reads it, and the command line still wins).\n"
            f"paper: {paper}\nflip: {flip}\nback_offset: [{yaml_float(offset[0])}, {yaml_float(offset[1])}]\n"
            + (f"cut: {cut}\n" if cut in CUTTERS else ""))
    path = folder / SETTINGS
    write_synced(path, text.encode("utf-8"))
    return path
