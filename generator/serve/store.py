"""The records `pnp serve` keeps: journal files in one folder, each played through a Game, the very
object `pnp referee GAME play` plays through (generator/referee/game.py).

Nothing here knows a rule, nor how an entry is made or undone: Game.push and Game.pop do that, at
the prompt and here alike, so a page and a prompt can never disagree. What this module adds is
what a server with several clients needs:

- records are found by id, the name of a file in the folder (never a path from a request);
- entries to one record are made one at a time (a lock a record), and a client says which entry
  count (and version) it saw: an entry made against a game that has moved on is refused as stale,
  never applied twice;
- a record is replayed only when its file changed (each Game is kept while the file holds what it
  last read or wrote), so a record written by `pnp referee GAME play --journal` meanwhile is read
  again, and one written here is not.
"""
from __future__ import annotations

import argparse
import os
import re
import secrets
import stat
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Mapping

from ..errors import SpecError, show
from ..games.declaration import GameDeclaration
from ..inputs import MAX_RECORD_BYTES, decode_text, read_bytes
from ..referee.contract import RefereeRules, Refused, TurnReport, name_problem
from ..referee.game import EntryRefused, Game, Moment
from ..referee.journal import JournalChanged, RecordFull
from ..referee.record import RecordError
from ..spec.loader import parse_yaml

RECORD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,119}")     # matched whole (fullmatch)
SUFFIX = ".yaml"
MAX_LISTED = 200          # records on the start page, newest first
MAX_NAMES = 8


class NotFound(Exception):
    """No record of that id in the folder."""


class BadRequest(Exception):
    """A request that is not one the API takes (its message says why)."""


@dataclass(frozen=True)
class Table:
    """One record as a request sees it: the game's Moment after one of its entries (never changed
    once made, so a request may read it while another enters), with the record's id, rules and
    game declaration (where its table page is found)."""
    id: str
    game: str
    rules: RefereeRules
    header: dict
    moment: Moment
    declaration: GameDeclaration

    @property
    def over(self) -> bool:
        return bool(self.rules.is_over(self.moment.state))


def played(games: Mapping[str, GameDeclaration]) -> dict[str, GameDeclaration]:
    """The games played at the table: those with a referee (a game of printed cards only, the
    `deck` kind, is none of them)."""
    return {g: d for g, d in games.items() if d.referee is not None}


# ---------------------------------------------------------------- new games: play's own options

class _OptionParser(argparse.ArgumentParser):
    def error(self, message: str):
        raise BadRequest(message)


def play_parser(game: GameDeclaration) -> _OptionParser:
    """The options `pnp referee GAME play` takes, from the game's own play_options."""
    p = _OptionParser(prog=f"pnp referee {game.id} play", add_help=False)
    if game.play_options is not None:
        game.play_options(p)
    return p


def play_option_fields(game: GameDeclaration) -> list[dict]:
    """The options of a new game, described for a form: name, kind (text, number, flag, choice),
    choices (value -> what a player reads), default, help, and the label and placeholder the game's
    FORM gives (a player's words; the option's own name where it gives none)."""
    form = game.form
    out = []
    for a in play_parser(game)._actions:
        if not a.option_strings:
            continue
        words = form.get(a.dest, {})
        kind = "flag" if isinstance(a, argparse._StoreTrueAction) else "choice" if a.choices or words.get("choices") \
            else "number" if a.type is int else "text"
        choices = words.get("choices") or ({c: c for c in a.choices} if a.choices else None)
        out.append({"name": a.dest, "option": a.option_strings[0], "kind": kind,
                    "choices": list(choices) if choices else None,
                    "choice_labels": dict(choices) if choices else None,
                    "default": a.default if a.default is not None and kind != "flag" else None,
                    "help": a.help or "", "label": words.get("label", a.dest),
                    "placeholder": words.get("placeholder", "")})
    return out


def _names(value, what: str, allowed: str = "") -> str:
    """A list of names as the one line the page (and --players) sends; the names themselves are
    judged later, by the check every door shares (session.check_names). A name may hold none of
    the line's separators (, ; =) but those `allowed` (a team's players given as one line)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or len(value) > MAX_NAMES:
        raise BadRequest(f"{what}: expected a list of up to {MAX_NAMES} names")
    for v in value:
        if any(c in v for c in ",;=" if c not in allowed):     # would split the line: refused here, in the shared words
            raise EntryRefused(Refused(what, name_problem(v)).line())
    return ",".join(value)


def play_argv(game: GameDeclaration, options: dict) -> list[str]:
    """JSON options as the command line `play` would be given: so that argparse, with the game's
    own types and choices, reads them exactly as it reads `play`'s."""
    fields = {f["name"]: f for f in play_option_fields(game)}
    argv = []
    for key, value in options.items():
        f = fields.get(key)
        if f is None:
            raise BadRequest(f"{show(key)} is not an option of {game.id} (its options: {', '.join(fields) or 'none'})")
        if value is None or value == "":       # left empty on the form: the game's default
            continue
        if f["kind"] == "flag":
            if type(value) is not bool:
                raise BadRequest(f"{key}: expected true or false, got {show(value)}")
            argv += [f["option"]] if value else []
            continue
        if f["kind"] == "number":
            if type(value) is not int:
                raise BadRequest(f"{key}: expected a whole number, got {show(value)}")
            value = str(value)
        elif key == "teams" and isinstance(value, dict):
            # each team's name and players, checked as names: a key like "X=A;Y" would make a team more
            value = ";".join(f"{_names([k], key)}={_names([v] if isinstance(v, str) else v, key, ',')}"
                             for k, v in value.items())
        elif isinstance(value, list):
            value = _names(value, key)
        elif not isinstance(value, str):
            raise BadRequest(f"{key}: expected text, got {show(value)}")
        if len(value) > 1000:
            raise BadRequest(f"{key}: too long")
        argv += [f"{f['option']}={value}"]
    return argv


# ---------------------------------------------------------------- the store

class Store:
    """The records in `folder`, of the games it is handed (id -> declaration, each with a referee)."""

    def __init__(self, folder: Path, games: Mapping[str, GameDeclaration]):
        self.folder = Path(folder).resolve()
        self.games = dict(games)
        self._games: dict[str, Game] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    # -- finding records
    def lock(self, rid: str) -> threading.Lock:
        """The lock of an existing record (NotFound otherwise): made only for ids that name a record
        in the folder, so requests for made-up ids cost nothing that stays."""
        self.path_of(rid)
        with self._guard:
            return self._locks.setdefault(rid, threading.Lock())

    def path_of(self, rid: str) -> Path:
        """The file of record `rid`: a regular file of that name in the folder, or NotFound. The id
        is looked up among the folder's own names, never joined to it as a path."""
        if not isinstance(rid, str) or not RECORD_ID.fullmatch(rid):
            raise NotFound(rid)
        name = rid + SUFFIX
        try:
            if name not in os.listdir(self.folder):
                raise NotFound(rid)
            st = os.lstat(self.folder / name)
        except OSError:
            raise NotFound(rid) from None
        if not stat.S_ISREG(st.st_mode):       # a link or anything else is not a record here
            raise NotFound(rid)
        return self.folder / name

    def signature(self, rid: str):
        """What changes whenever the record's file is rewritten (cheap: no read)."""
        try:
            st = os.lstat(self.path_of(rid))
        except (NotFound, OSError):
            return None
        return f"{st.st_ino}-{st.st_size}-{st.st_mtime_ns}"

    def ids(self) -> list[str]:
        """Record ids in the folder, newest first."""
        found = []
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        for name in names:
            rid = name[:-len(SUFFIX)]
            if not name.endswith(SUFFIX) or not RECORD_ID.fullmatch(rid):
                continue
            try:
                st = os.lstat(self.folder / name)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                found.append((st.st_mtime_ns, rid))
        return [rid for _, rid in sorted(found, reverse=True)[:MAX_LISTED]]

    def version(self, rid: str) -> str | None:
        """The record's version if this store holds it as its file does (no replay), else None."""
        cached = self._games.get(rid)
        if cached is None:
            return None
        try:
            raw = read_bytes(self.path_of(rid), rid, MAX_RECORD_BYTES)
        except (NotFound, SpecError, OSError):
            return None
        return cached.now.version if cached.matches(raw) else None

    # -- reading
    def table(self, rid: str) -> Table:
        with self.lock(rid):
            return self._view(rid, self._load(rid))

    def declaration(self, game: str) -> GameDeclaration:
        if game not in self.games:
            raise BadRequest(f"no game {show(game)}; the games: {', '.join(self.games)}")
        return self.games[game]

    def rules_of(self, game: str) -> RefereeRules:
        return self.declaration(game).referee()

    def _view(self, rid: str, game: Game) -> Table:
        return Table(rid, game.rules.game, game.rules, dict(game.header), game.now, self.games[game.rules.game])

    def _load(self, rid: str) -> Game:
        path = self.path_of(rid)
        name = path.name           # messages name the record, never the server's own folders
        try:
            raw = read_bytes(path, name, MAX_RECORD_BYTES)
        except SpecError as exc:
            raise RecordError(str(exc)) from None
        cached = self._games.get(rid)
        if cached is not None and cached.matches(raw):
            return cached
        try:
            data, _ = parse_yaml(decode_text(raw, name), name)
        except SpecError as exc:
            raise RecordError(str(exc)) from None
        game_id = data.get("game") if isinstance(data, dict) else None
        if not isinstance(game_id, str) or game_id not in self.games:
            raise RecordError(f"{name}:1: game: expected one of {', '.join(self.games)}, got {show(game_id)}")
        game = Game.open(path, self.rules_of(game_id), display=name)
        self._games[rid] = game
        return game

    # -- writing
    def create(self, game: str, options: dict) -> str:
        """A new record (the header `play` would write for these options): its id."""
        declaration = self.declaration(game)
        rules = declaration.referee()
        args = play_parser(declaration).parse_args(play_argv(declaration, options))
        header = {"game": (rules.games or (rules.game,))[0], **rules.header_from_args(args)}
        rid = f"{game}-{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        path = self.folder / (rid + SUFFIX)
        try:
            Game.create(path, rules, header, display=path.name)
        except SpecError as exc:
            raise BadRequest(str(exc).splitlines()[0].removeprefix(f"{path.name}:").strip()) from None
        except Refused as exc:
            raise EntryRefused(exc.line()) from None
        except (JournalChanged, RecordFull, ValueError) as exc:
            raise BadRequest(str(exc)) from None
        return rid

    def enter(self, rid: str, entry, expect=None, version=None) -> tuple[Table, TurnReport]:
        """Make one entry, in the prompt's notation (a string) or as the record writes it (a
        mapping): Game.push, under the record's lock. EntryRefused (nothing changed) if the referee
        refuses it or the client's view was stale."""
        with self.lock(rid):
            game = self._load(rid)
            try:
                report = game.push(entry, expect, version)
            except EntryRefused as exc:
                if exc.stale:
                    self._games.pop(rid, None)      # read again: another writer got there first
                raise
            return self._view(rid, game), report

    def undo(self, rid: str, expect=None, version=None, number=None) -> tuple[Table, str]:
        """Take back the last entry (Game.pop; `number`, the entry meant): the table after it, and
        the line saying what was undone."""
        with self.lock(rid):
            game = self._load(rid)
            try:
                said = game.pop(expect, version, number)
            except EntryRefused as exc:
                if exc.stale:
                    self._games.pop(rid, None)
                raise
            return self._view(rid, game), said
