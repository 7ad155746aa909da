"""Game records: a YAML file, a header (game, players, options) and then `entries`, in order. Read
and checked against the game's record schema (load_record), replayed (replay), and written as YAML
that reads back exactly as it was (record_text). Entries are numbered from 1 in every message."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ..errors import SpecError, one_line, printable, show
from ..inputs import MAX_RECORD_BYTES, read_text
from ..spec.loader import SpecErrors, parse_yaml, validate
from .contract import RefereeRules, Refused, TurnReport, check_names


class RecordError(Exception):
    """A record that cannot be replayed: one line naming file, line, entry and rule (a line per
    error when a record breaks its schema in several places)."""

    def __init__(self, *lines: str):
        super().__init__("\n".join(one_line(line) for line in lines))


# ---------------------------------------------------------------- records

def load_record(path: Path, rules: RefereeRules, text: str | None = None, file: str | None = None):
    """The record at path, validated against the game's record schema, or RecordError. Messages name
    it as `file` (by default its path as given)."""
    file = str(path) if file is None else file
    try:
        if text is None:
            text = read_text(path, file, MAX_RECORD_BYTES)
        data, lines = parse_yaml(text, file)
        if isinstance(data, dict) and data.get("entries", []) is None:
            data["entries"] = []  # a fresh journal: a header and no entry yet
        if isinstance(data, dict) and "game" in data and data["game"] not in (rules.games or (rules.game,)):
            # Said before the schema's own errors: a record of another game breaks this game's
            # schema in many places, and one line saying whose it is says all of them.
            raise RecordError(f"{file}:{lines.get(('game',), 1)}: game: {_whose(data['game'], file)}, "
                              f"not {rules.game}")
        spec = validate(data, lines, file, kind=rules.record_kind)
    except SpecErrors as exc:
        raise RecordError(*(str(_numbered(e)) for e in exc.errors)) from None
    except SpecError as exc:
        raise RecordError(str(_numbered(exc))) from None
    spec.path = path
    return spec


def _whose(game, file: str) -> str:
    # Any game id reads as one (a record of a game this referee does not know is still told apart)
    if isinstance(game, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", game):
        return f"this is a {game} record (pnp referee {game} score {printable(file)})"
    return f"this is a record of {show(game)}"


_ENTRY_FIELD = re.compile(r"entries\[(\d+)\]\.?")


def entry_field(field: str, index: int | None = None) -> str:
    """A record's field path as people number entries, from 1: `entries[3].card` is `entry 4, card`
    (`index`: the 0-based index the path's entries[0] stands for, when one entry was checked alone)."""
    def number(m):
        n = int(m.group(1)) if index is None else index
        return f"entry {n + 1}" + (", " if m.end() < len(field) else "")
    return _ENTRY_FIELD.sub(number, field, count=1) if field.startswith("entries[") else field


def _numbered(exc: SpecError) -> SpecError:
    return SpecError(exc.file, exc.line, entry_field(exc.field), exc.message)


def replay(rules: RefereeRules, spec) -> tuple[Any, list[TurnReport], list]:
    """The state after every entry, the reports, and the states before each (for undo)."""
    header = {k: v for k, v in spec.data.items() if k != "entries"}
    try:
        state = start_game(rules, header, spec.path)
    except Refused as exc:
        # At the line of the header's key the refusal is about (board:, players:), if it is one.
        where = spec.line((exc.rule,) if exc.rule in header else ())
        raise RecordError(f"{spec.file}:{where}: {exc.line()}") from None
    history, reports = [], []
    for i, entry in enumerate(spec.data["entries"]):
        try:
            nxt, report = rules.apply(state, entry)
        except Refused as exc:
            where = spec.line(("entries", i))
            raise RecordError(f"{spec.file}:{where}: entry {i + 1}: {exc.line()}") from None
        history.append(state)
        reports.append(report)
        state = nxt
    return state, reports, history


def start_game(rules: "RefereeRules", header: dict, path: Path | None):
    """The state before a record's first entry: its names checked (the same rule however they
    arrived), then the game's own new_game. Refused otherwise."""
    check_names(header, rules.reserved_names)
    return rules.new_game(header, path)



def check_entry(rules: RefereeRules, header: dict, entry, index: int) -> None:
    """Refused unless the entry is one the record schema takes, so that whatever the prompt (or a
    web page) accepts, `score` replays."""
    try:
        validate({**header, "entries": [entry]}, {}, "entry", kind=rules.record_kind)
    except SpecError as exc:
        errors = exc.errors if isinstance(exc, SpecErrors) else [exc]
        first = errors[0]
        where = entry_field(first.field, index)
        raise Refused("notation", f"{where}: {first.message}" if where else first.message) from None



# ---------------------------------------------------------------- writing a record

JOURNAL_MARK = "# pnp referee journal"


_LINES: dict = {}      # (line, repr of what it must read as) -> whether it does
_LINES_MAX = 20_000


def _flow(value, ascii_only: bool) -> str:
    # One value on one line, in YAML flow style ([...] stripped of the list around it).
    text = yaml.safe_dump([value], default_flow_style=True, sort_keys=False, width=10**9,
                          allow_unicode=not ascii_only).strip()
    return text[1:-1]


def _checked_line(make, want, ascii_only: bool) -> str | None:
    """A line of the record (a header key, or an entry of the block list), read back on its own:
    None if it does not read back as `want`. A record is a sequence of such one-line items, each
    read independently of the others, so a record made of lines that each read back reads back
    whole. Each distinct line is checked once: a journal rewrites every entry on every write, and
    dumping and reading every entry again made long games slow to enter. (repr tells apart the
    values YAML writes differently: 1, 1.0, True and "1"; key order.)"""
    key = (ascii_only, repr(want), make.__name__)
    hit = _LINES.get(key)
    if hit is not None:
        return hit or None
    line = make(want, ascii_only)
    try:
        ok = "\n" not in line[:-1] and "\r" not in line and parse_yaml(line, "journal")[0] == \
            (want if make is _entry_line else dict([want]))
    except SpecError:
        ok = False
    if len(_LINES) >= _LINES_MAX:
        _LINES.clear()
    _LINES[key] = line if ok else ""
    return line if ok else None


def _entry_line(entry, ascii_only: bool) -> str:
    return f"- {_flow(entry[0], ascii_only)}\n"


def _header_line(item, ascii_only: bool) -> str:
    k, v = item
    return f"{_flow(k, ascii_only)}: {_flow(v, ascii_only)}\n"


def record_text(header: dict, entries: list, game: str, comments: str = "") -> str:
    """A whole record: our first line, the user's own leading comments, the header (a key a line),
    the entries (one a line). Checked by reading it back, line by line: a string that would not
    survive the round trip is written with escapes instead, and a record that still would not is
    never written (the caller gets a ValueError)."""
    if "entries" in header:
        raise ValueError("a header has no key entries")
    for ascii_only in (False, True):
        head = [_checked_line(_header_line, (k, v), ascii_only) for k, v in header.items()]
        body = [_checked_line(_entry_line, [e], ascii_only) for e in entries]
        if None in head or None in body:
            continue
        return (f"{JOURNAL_MARK} ({game}). Replay: pnp referee {game} score FILE; "
                f"resume: pnp referee {game} play --journal FILE\n{comments}{''.join(head)}"
                + (f"entries:\n{''.join(body)}" if entries else "entries: []\n"))
    raise ValueError("this record cannot be written as YAML that reads back the same")


def _leading_comments(text: str) -> str:
    """The user's comment lines at the top of a record (ours excluded), kept when it is rewritten."""
    kept = []
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        if stripped.startswith(JOURNAL_MARK) or not stripped:
            continue
        kept.append(line if line.endswith("\n") else line + "\n")
    return "".join(kept)


