"""Record, replay, prompt and journal: the same for every game.

A game record is a YAML file: a header (game, players, options) and then `entries`, in order.
`score` replays a record; `play` takes the same entries at a prompt and appends each accepted
one to a journal, which is itself a record (so `score` replays it and `play` resumes it).
A refused entry names its index and the rule it breaks, and leaves the state as it was.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

import yaml

from ..errors import SpecError, one_line, show
from ..inputs import MAX_RECORD_BYTES, ReferenceError_, confined, decode_text, read_bytes, read_text
from ..outputs import write_synced
from ..spec.loader import SpecErrors, format_field, parse_yaml, validate


class Refused(Exception):
    """An entry the rules do not allow. `rule` names the rule; the message says why."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


@dataclass
class TurnReport:
    """What one accepted entry did: a line for people, a dict for --json."""
    text: str
    data: dict


@dataclass
class RefereeRules:
    """A game's referee, as plain functions (none of them prints or reads input)."""
    game: str
    record_kind: str                                   # schema of its records
    new_game: Callable[[dict, Path | None], Any]       # header, record path -> state
    apply: Callable[[Any, dict], tuple[Any, TurnReport]]  # state, entry -> new state (or Refused)
    summary: Callable[[Any, list[TurnReport]], dict]   # for --json: totals, winner, per-turn list
    parse_move: Callable[[str, Any], dict]             # prompt notation -> entry (ValueError)
    render: Callable[[Any, bool], str]                 # the position for the terminal (colour?)
    prompt: Callable[[Any], str]                       # whose turn, for the prompt
    final_text: Callable[[Any], str]                   # last lines of `score`
    games: tuple[str, ...] = ()                        # record `game:` values accepted
    header_from_args: Callable[[Any], dict] = lambda args: {}
    help_text: str = ""
    extra_commands: dict = field(default_factory=dict)  # prompt word -> fn(state, rest) -> text


def names(text: str | None, default: str = "") -> list[str]:
    """Names given on the command line, comma-separated (blank ones dropped)."""
    return [n.strip() for n in (text or default).split(",") if n.strip()]


class RecordError(Exception):
    """A record that cannot be replayed: one line naming file, line, entry and rule (a line per
    error when a record breaks its schema in several places)."""

    def __init__(self, *lines: str):
        super().__init__("\n".join(one_line(line) for line in lines))


# ---------------------------------------------------------------- records

def load_record(path: Path, rules: RefereeRules, text: str | None = None):
    """The record at path, validated against the game's record schema, or RecordError."""
    file = str(path)
    try:
        if text is None:
            text = read_text(path, file, MAX_RECORD_BYTES)
        data, lines = parse_yaml(text, file)
        if isinstance(data, dict) and data.get("entries", []) is None:
            data["entries"] = []  # a fresh journal: a header and no entry yet
        spec = validate(data, lines, file, kind=rules.record_kind)
    except SpecErrors as exc:
        raise RecordError(*(SpecError.__str__(e) for e in exc.errors)) from None
    except SpecError as exc:
        raise RecordError(str(exc)) from None
    spec.path = path
    if spec.data.get("game") not in (rules.games or (rules.game,)):
        raise RecordError(f"{file}:{spec.line(('game',))}: game: this is a record of "
                          f"{show(spec.data.get('game'))}, not {rules.game!r}")
    return spec


def record_reference(header: dict, key: str, default: str, kinds: tuple[str, ...]) -> Path:
    """The spec file a record's header names under `key` (a deck, a board, a kit), or the game's
    `default`. A record is shared between people, so what it names must be one of the project's
    specs: a path relative to the project folder (decks/x.yaml) that stays inside it, refused
    otherwise before anything is read; and a spec of one of `kinds` (a Sorry board, not the Sorry
    deck), checked here, where the name is resolved, so no referee meets a spec it cannot read."""
    from ..paths import project_root
    from ..spec.loader import WrongKind, load_named
    rel = header.get(key, default)
    try:
        path = confined(project_root(), rel)
        load_named(path, rel, kinds)
    except ReferenceError_ as exc:
        raise Refused(key, f"expected {exc}, got {show(rel)}") from None
    except (WrongKind, SpecError) as exc:      # of another kind, or not a good spec of its own
        raise Refused(key, str(exc)) from None
    return path


def replay(rules: RefereeRules, spec) -> tuple[Any, list[TurnReport], list]:
    """The state after every entry, the reports, and the states before each (for undo)."""
    header = {k: v for k, v in spec.data.items() if k != "entries"}
    try:
        state = rules.new_game(header, spec.path)
    except Refused as exc:
        # At the line of the header's key the refusal is about (board:, players:), if it is one.
        where = spec.line((exc.rule,) if exc.rule in header else ())
        raise RecordError(f"{spec.file}:{where}: refused ({exc.rule}): {exc.message}") from None
    history, reports = [], []
    for i, entry in enumerate(spec.data["entries"]):
        try:
            nxt, report = rules.apply(state, entry)
        except Refused as exc:
            where = spec.line(("entries", i))
            raise RecordError(f"{spec.file}:{where}: {format_field(('entries', i))}: "
                              f"refused ({exc.rule}): {exc.message}") from None
        history.append(state)
        reports.append(report)
        state = nxt
    return state, reports, history


def record_command(rules: RefereeRules, body: Callable[[Any, Any], int], attr: str = "record"):
    """A command that replays the record named by args.<attr>, then runs body(state, args).
    A record that cannot be replayed, or a refused request, prints one line and exits 2."""
    def run(args) -> int:
        try:
            state, _, _ = replay(rules, load_record(Path(getattr(args, attr)), rules))
            return body(state, args)
        except RecordError as exc:
            print(str(exc), file=sys.stderr)
        except Refused as exc:
            print(f"refused ({exc.rule}): {exc.message}", file=sys.stderr)
        return 2
    return run


def score(rules: RefereeRules, path: Path, as_json: bool, out=None) -> int:
    out = out or sys.stdout
    try:
        state, reports, _ = replay(rules, load_record(path, rules))
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if as_json:
        json.dump(rules.summary(state, reports), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        for r in reports:
            print(r.text, file=out)
        print(rules.final_text(state), file=out)
    return 0


# ---------------------------------------------------------------- the journal

JOURNAL_MARK = "# pnp referee journal"


class JournalChanged(Exception):
    """Another writer changed the journal after we read it: nothing was written."""


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


class Journal:
    """A record on disk that grows an entry at a time. Every change rewrites the whole record to a
    temporary file, syncs it and renames it over the journal, so the file is always a complete,
    valid record. Each write holds a lock on the journal's folder and first checks that the file is
    still the one this journal last read or wrote: two writers never interleave, and an entry made
    against a stale game is refused (JournalChanged), never applied."""

    def __init__(self, path: Path, game: str, header: dict, entries: list, comments: str, digest):
        self.path, self.game, self.header = path, game, header
        self.entries, self.comments, self._digest = list(entries), comments, digest

    @classmethod
    def open(cls, path: Path, rules: RefereeRules):
        """(journal, spec) of an existing record, or RecordError."""
        try:
            raw = read_bytes(path, str(path), MAX_RECORD_BYTES)
            text = decode_text(raw, str(path))
        except SpecError as exc:
            raise RecordError(str(exc)) from None
        spec = load_record(path, rules, text=text)
        header = {k: v for k, v in spec.data.items() if k != "entries"}
        journal = cls(path, rules.game, header, spec.data["entries"], _leading_comments(text),
                      hashlib.sha256(raw).digest())
        return journal, spec

    @classmethod
    def create(cls, path: Path, game: str, header: dict):
        """A new journal with no entry; refuses to overwrite a file that appeared meanwhile."""
        journal = cls(path, game, header, [], "", None)
        journal._write(journal.entries, new=True)
        return journal

    @property
    def digest(self) -> bytes | None:
        """The SHA-256 of the file as this journal last read or wrote it (None: not yet written)."""
        return self._digest

    def append(self, entry) -> None:
        self._write(self.entries + [entry])
        self.entries.append(entry)

    def truncate(self, n: int) -> None:
        self._write(self.entries[:n])
        del self.entries[n:]

    def _write(self, entries: list, new: bool = False) -> None:
        text = record_text(self.header, entries, self.game, self.comments)
        data = text.encode("utf-8")
        folder = self.path.parent if str(self.path.parent) else Path(".")
        with _folder_lock(folder):
            try:
                current = hashlib.sha256(read_bytes(self.path, str(self.path), MAX_RECORD_BYTES)).digest()
            except SpecError:
                current = None if not os.path.lexists(self.path) else b"?"
            if current != self._digest:
                raise JournalChanged(f"{self.path} changed since it was read (another prompt or page wrote "
                                     "to it): nothing was written; type reload to see the game as it is now")
            write_synced(self.path, data, exclusive=new)
        self._digest = hashlib.sha256(data).digest()


@contextmanager
def _folder_lock(folder: Path):
    """An exclusive lock on a folder, held while one journal in it is checked and replaced. The
    lock is on the folder, not the file, because the file is replaced (a new inode) on every write."""
    try:
        import fcntl
    except ImportError:  # not on POSIX: the digest check still catches a stale writer
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)   # closing the descriptor releases the lock


# ---------------------------------------------------------------- the prompt

HELP = """Enter a move in the game's notation, or:
  undo       take back the last entry (the journal too)
  show       draw the position again
  reload     read the journal again (after another prompt or page wrote to it)
  help       this text
  quit       stop (the journal keeps every accepted entry; play --journal FILE resumes)"""


def refusal(index: int, exc: Exception) -> str:
    """The one line a refused entry gets, at the prompt and from `pnp serve` alike."""
    if isinstance(exc, JournalChanged):
        return one_line(f"refused, entry {index} (stale journal): {exc}")
    return one_line(f"refused, entry {index} ({exc.rule}): {exc.message}")


def check_entry(rules: RefereeRules, header: dict, entry, index: int) -> None:
    """Refused unless the entry is one the record schema takes, so that whatever the prompt (or a
    web page) accepts, `score` replays."""
    try:
        validate({**header, "entries": [entry]}, {}, "entry", kind=rules.record_kind)
    except SpecError as exc:
        errors = exc.errors if isinstance(exc, SpecErrors) else [exc]
        first = errors[0]
        where = first.field.replace("entries[0]", f"entries[{index}]")
        raise Refused("notation", f"{where}: {first.message}" if where else first.message) from None


def play(rules: RefereeRules, journal_path: Path | None, args, inp=None, out=None) -> int:
    inp, out = inp or sys.stdin, out or sys.stdout
    colour = out.isatty() and not os.environ.get("NO_COLOR")

    def err(text: str) -> None:
        print(one_line(text), file=sys.stderr)

    if journal_path is None:
        journal_path = Path(f"{rules.game}-{datetime.now():%Y%m%d-%H%M%S}.yaml")
    if os.path.lexists(journal_path):
        try:
            journal, spec = Journal.open(journal_path, rules)
            state, reports, history = replay(rules, spec)
        except RecordError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        print(f"Resumed {journal_path}: {len(journal.entries)} entries replayed.", file=out)
    else:
        header = {"game": (rules.games or (rules.game,))[0], **rules.header_from_args(args)}
        try:
            validate({**header, "entries": []}, {}, str(journal_path), kind=rules.record_kind)
            state = rules.new_game(header, journal_path)
        except SpecError as exc:
            err(f"pnp: {str(exc).splitlines()[0]}")
            return 2
        except Refused as exc:
            err(f"refused ({exc.rule}): {exc.message}")
            return 2
        try:
            journal = Journal.create(journal_path, rules.game, header)
        except (OSError, JournalChanged, ValueError) as exc:
            err(f"pnp: cannot write the journal {journal_path}: {getattr(exc, 'strerror', None) or exc}")
            return 2
        reports, history = [], []
        print(f"Journal: {journal_path}", file=out)
    print(rules.render(state, colour), file=out)
    refused_any = False
    while True:
        out.write(rules.prompt(state) + "> ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            break
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word in ("quit", "exit", "q"):
            break
        if word == "help":
            print(HELP + ("\n" + rules.help_text if rules.help_text else ""), file=out)
            continue
        if word == "show":
            print(rules.render(state, colour), file=out)
            continue
        if word == "reload":
            try:
                journal, spec = Journal.open(journal_path, rules)
                state, reports, history = replay(rules, spec)
            except RecordError as exc:
                print(f"? {exc}", file=out)
                continue
            print(f"reloaded {journal_path}: {len(journal.entries)} entries", file=out)
            print(rules.render(state, colour), file=out)
            continue
        if word == "undo":
            if not journal.entries:
                print("nothing to undo", file=out)
                continue
            try:
                journal.truncate(len(journal.entries) - 1)
            except JournalChanged as exc:
                refused_any = True
                print(f"refused ({exc})", file=out)
                continue
            state = history.pop()
            reports.pop()
            print(f"undone; {len(journal.entries)} entries remain", file=out)
            print(rules.render(state, colour), file=out)
            continue
        if word in rules.extra_commands:
            try:
                print(rules.extra_commands[word](state, rest), file=out)
            except (ValueError, Refused) as exc:
                print(f"? {one_line(str(exc))}", file=out)
            continue
        index = len(journal.entries)
        try:
            entry = rules.parse_move(line, state)
        except ValueError as exc:
            print(f"? {one_line(str(exc))} (type help)", file=out)
            continue
        try:
            check_entry(rules, journal.header, entry, index)
            nxt, report = rules.apply(state, entry)
            journal.append(entry)
        except (Refused, JournalChanged) as exc:
            refused_any = True
            print(refusal(index, exc), file=out)
            continue
        except ValueError as exc:   # an entry YAML cannot carry back as it was: never written
            refused_any = True
            print(refusal(index, Refused("notation", str(exc))), file=out)
            continue
        history.append(state)
        reports.append(report)
        state = nxt
        print(report.text, file=out)
        print(rules.render(state, colour), file=out)
    print(rules.final_text(state), file=out)
    return 2 if refused_any and not inp.isatty() else 0
