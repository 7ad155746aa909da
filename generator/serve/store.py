"""The records `pnp serve` keeps: journal files in one folder, read, entered and undone through the
same session functions as `pnp referee` (Journal, replay, check_entry, the game's RefereeRules).

Nothing here knows a rule: an entry is parsed by the game's parse_move, checked by check_entry,
applied by the game's apply and written by Journal.append, exactly as at the prompt, so a page and
a prompt can never disagree. What this module adds is what a server with several clients needs:

- records are found by id, the name of a file in the folder (never a path from a request);
- entries to one record are applied one at a time (a lock a record), and a client says which
  entry count (and version) it saw: an entry made against a game that has moved on is refused
  as stale, never applied twice;
- a record is replayed only when its file changed (a cache keyed by the file's digest), so a
  record written by `pnp referee GAME play --journal` meanwhile is read again, and one written
  here is not.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import re
import secrets
import stat
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import SpecError, one_line, show
from ..games import GAMES, game_module
from ..inputs import MAX_RECORD_BYTES, decode_text, read_bytes
from ..referee.session import (Journal, JournalChanged, RecordError, RecordFull, RefereeRules, Refused, TurnReport,
                               check_entry, name_problem, refusal, replay, start_game, undo_line)
from ..spec.loader import parse_yaml, validate

RECORD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,119}")     # matched whole (fullmatch)
SUFFIX = ".yaml"
MAX_LISTED = 200          # records on the start page, newest first
MAX_NAMES = 8


class NotFound(Exception):
    """No record of that id in the folder."""


class BadRequest(Exception):
    """A request that is not one the API takes (its message says why)."""


class EntryRefused(Exception):
    """An entry (or an undo) the referee refused: `line` is the one line `pnp referee` prints for
    it; `stale` when the game had moved on since the client saw it."""

    def __init__(self, line: str, stale: bool = False):
        super().__init__(line)
        self.line, self.stale = line, stale


@dataclass
class Table:
    """One record as it stood after one of its entries: the state after every entry, for undo the
    states before each, and its journal (written only under the record's lock). A Table is never
    changed once made (an entry makes a new one), so a request may read it while another enters."""
    id: str
    path: Path
    game: str
    rules: RefereeRules
    journal: Journal
    header: dict
    state: Any
    reports: tuple[TurnReport, ...]
    history: tuple
    entries: int                                   # how many entries the record has
    version: str                                   # the file's digest, short: changes with every write
    cache: dict = field(default_factory=dict)      # things drawn from this state (the SVG), made once


def _table(rid, path, game, rules, journal, state, reports, history) -> Table:
    digest = journal.digest
    return Table(rid, path, game, rules, journal, dict(journal.header), state, tuple(reports), tuple(history),
                 len(journal.entries), digest.hex()[:16] if digest else "")


def rules_of(game: str) -> RefereeRules:
    if game not in GAMES:
        raise BadRequest(f"no game {show(game)}; the games: {', '.join(GAMES)}")
    return game_module(game).REFEREE


# ---------------------------------------------------------------- new games: play's own options

class _OptionParser(argparse.ArgumentParser):
    def error(self, message: str):
        raise BadRequest(message)


def play_parser(game: str) -> _OptionParser:
    """The options `pnp referee GAME play` takes, from the game's own play_options."""
    p = _OptionParser(prog=f"pnp referee {game} play", add_help=False)
    module = game_module(game)
    if hasattr(module, "play_options"):
        module.play_options(p)
    return p


def play_option_fields(game: str) -> list[dict]:
    """The options of a new game, described for a form: name, kind (text, number, flag, choice),
    choices (value -> what a player reads), default, help, and the label and placeholder the game's
    FORM gives (a player's words; the option's own name where it gives none)."""
    form = getattr(game_module(game), "FORM", {})
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


def _names(value, what: str) -> str:
    """A list of names as the one line the page (and --players) sends; the names themselves are
    judged later, by the check every door shares (session.check_names)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or len(value) > MAX_NAMES:
        raise BadRequest(f"{what}: expected a list of up to {MAX_NAMES} names")
    for v in value:
        if any(c in v for c in ",;="):     # would split the line: refused here, in the shared words
            raise EntryRefused(one_line(f"refused ({what}): {name_problem(v)}"))
    return ",".join(value)


def play_argv(game: str, options: dict) -> list[str]:
    """JSON options as the command line `play` would be given: so that argparse, with the game's
    own types and choices, reads them exactly as it reads `play`'s."""
    fields = {f["name"]: f for f in play_option_fields(game)}
    argv = []
    for key, value in options.items():
        f = fields.get(key)
        if f is None:
            raise BadRequest(f"{show(key)} is not an option of {game} (its options: {', '.join(fields) or 'none'})")
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
            value = ";".join(f"{_names(k, key)}={_names(v, key)}" for k, v in value.items())
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
    def __init__(self, folder: Path):
        self.folder = Path(folder).resolve()
        self._tables: dict[str, Table] = {}
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

    # -- reading
    def table(self, rid: str) -> Table:
        with self.lock(rid):
            return self._load(rid)

    def _load(self, rid: str) -> Table:
        path = self.path_of(rid)
        name = path.name           # messages name the record, never the server's own folders
        try:
            raw = read_bytes(path, name, MAX_RECORD_BYTES)
        except SpecError as exc:
            raise RecordError(str(exc)) from None
        cached = self._tables.get(rid)
        if cached is not None and cached.journal.digest == hashlib.sha256(raw).digest() \
                and cached.entries == len(cached.journal.entries):
            return cached
        try:
            data, _ = parse_yaml(decode_text(raw, name), name)
        except SpecError as exc:
            raise RecordError(str(exc)) from None
        game = data.get("game") if isinstance(data, dict) else None
        if game not in GAMES:
            raise RecordError(f"{name}:1: game: expected one of {', '.join(GAMES)}, got {show(game)}")
        rules = rules_of(game)
        journal, spec = Journal.open(path, rules, display=name)
        state, reports, history = replay(rules, spec)
        table = _table(rid, path, game, rules, journal, state, reports, history)
        self._tables[rid] = table
        return table

    # -- writing
    def create(self, game: str, options: dict) -> str:
        """A new record (the header `play` would write for these options): its id."""
        rules = rules_of(game)
        args = play_parser(game).parse_args(play_argv(game, options))
        header = {"game": (rules.games or (rules.game,))[0], **rules.header_from_args(args)}
        rid = f"{game}-{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        path = self.folder / (rid + SUFFIX)
        try:
            validate({**header, "entries": []}, {}, "new game", kind=rules.record_kind)
            start_game(rules, header, path)
        except SpecError as exc:
            raise BadRequest(str(exc).splitlines()[0].removeprefix("new game:").strip()) from None
        except Refused as exc:
            raise EntryRefused(one_line(f"refused ({exc.rule}): {exc.message}")) from None
        try:
            Journal.create(path, rules.game, header, display=path.name)
        except (JournalChanged, RecordFull, ValueError) as exc:
            raise BadRequest(str(exc)) from None
        return rid

    def _check_fresh(self, t: Table, expect, version) -> None:
        n = t.entries
        if expect is not None and (type(expect) is not int or expect != n):
            # numbered as the client numbered it: the entry it meant to make
            raise EntryRefused(refusal(expect if type(expect) is int else n, JournalChanged(
                f"this page saw {show(expect)} entries and the game has {n} now (another phone or prompt "
                "entered meanwhile): nothing was written; look again and enter it if it still stands")), stale=True)
        if version is not None and version != t.version:
            raise EntryRefused(refusal(n, JournalChanged(
                "the game changed since this page read it (an entry was undone or replaced): nothing was "
                "written; look again and enter it if it still stands")), stale=True)

    def enter(self, rid: str, entry, expect=None, version=None) -> tuple[Table, TurnReport]:
        """Apply one entry, in the prompt's notation (a string) or as the record writes it (a
        mapping), and append it to the journal; EntryRefused (nothing changed) if the referee
        refuses it or the client's view was stale."""
        with self.lock(rid):
            t = self._load(rid)
            self._check_fresh(t, expect, version)
            index = t.entries
            try:
                if isinstance(entry, str):
                    if not entry.strip():
                        raise Refused("notation", "an entry is a move in the game's notation (type help at the prompt)")
                    try:
                        entry = t.rules.parse_move(entry.strip(), t.state)
                    except ValueError as exc:
                        raise Refused("notation", str(exc)) from None
                check_entry(t.rules, t.header, entry, index)
                nxt, report = t.rules.apply(t.state, entry)
                t.journal.append(entry)
            except (Refused, RecordFull) as exc:
                raise EntryRefused(refusal(index, exc)) from None
            except JournalChanged as exc:
                self._tables.pop(rid, None)
                raise EntryRefused(refusal(index, exc), stale=True) from None
            except ValueError as exc:      # record_text: an entry that would not read back the same
                raise EntryRefused(one_line(f"refused, entry {index + 1} (notation): {exc}")) from None
            new = _table(rid, t.path, t.game, t.rules, t.journal, nxt, t.reports + (report,),
                         t.history + (t.state,))
            self._tables[rid] = new
            return new, report

    def undo(self, rid: str, expect=None, version=None) -> tuple[Table, str]:
        """Take back the last entry: the table after it, and the line saying what was undone."""
        with self.lock(rid):
            t = self._load(rid)
            self._check_fresh(t, expect, version)
            if not t.journal.entries:
                raise EntryRefused("nothing to undo")
            try:
                t.journal.truncate(t.entries - 1)
            except JournalChanged as exc:
                self._tables.pop(rid, None)
                raise EntryRefused(one_line(f"refused ({exc})"), stale=True) from None
            new = _table(rid, t.path, t.game, t.rules, t.journal, t.history[-1], t.reports[:-1], t.history[:-1])
            self._tables[rid] = new
            return new, undo_line(t.entries, t.reports[-1], new.entries)
