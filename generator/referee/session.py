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
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

import yaml

from ..errors import SpecError, one_line, plural, printable, show
from ..inputs import MAX_RECORD_BYTES, MAX_RECORD_ENTRIES, ReferenceError_, confined, decode_text, read_bytes, read_text
from ..outputs import write_synced
from ..spec.loader import SpecErrors, parse_yaml, validate


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
    reserved_names: tuple[str, ...] = ()               # words of the notation no name may be (casefolded)


def names(text: str | None, default: str = "") -> list[str]:
    """Names given on the command line (or a page's one line), comma-separated: each with its
    spaces made single, blank ones dropped. check_names then judges them like a record's."""
    return [re.sub(" {2,}", " ", n.strip()) for n in (text or default).split(",") if n.strip()]


# ---------------------------------------------------------------- names

MAX_NAME = 40                      # characters of a player's or team's name
NAME_SEPARATORS = ",;:="           # what the notations put between names and what follows them
# Characters that are not plainly printable: controls, format characters (a bidi override, a
# zero-width space), surrogates, private-use and unassigned code points, line separators.
_NOT_SHOWN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def name_problem(name, reserved=()) -> str | None:
    """Why `name` cannot be a player's or a team's name, or None. One rule for every game and every
    way a name arrives (a record, `--players`, the start page, the API): names are typed in the
    games' notations (`Bob Marsh: stop Ann Lee`, `end Ann: Chile`), printed on terminals and pages,
    and told apart by the people at the table."""
    import unicodedata
    if not isinstance(name, str):
        return f"a name is text, got {show(name)}"
    if not name.strip():
        return "a name has at least one letter or digit"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters, got {len(name)}"
    bad = next((c for c in name if unicodedata.category(c) in _NOT_SHOWN or (c.isspace() and c != " ")), None)
    if bad is not None:
        return f"a name has only printable characters and plain spaces, got {show(name)}"
    if name != " ".join(name.split()):
        return f"a name has single spaces between its words and none around them, got {show(name)}"
    sep = next((c for c in name if c in NAME_SEPARATORS), None)
    if sep is not None:
        return f"a name has no {' '.join(NAME_SEPARATORS)} (the notation puts them after names), got {show(name)}"
    if name.casefold() in reserved:
        return f"{show(name)} is a word of this game's notation; choose another name"
    return None


def check_names(header: dict, reserved=()) -> None:
    """Refused (players, teams) unless every name in the header (`players`, and `teams` with their
    members) is a good name and no two players, or two teams, share one (compared as the notation
    compares them: without regard to case)."""
    players = header.get("players") if isinstance(header.get("players"), list) else []
    teams = header.get("teams") if isinstance(header.get("teams"), dict) else {}
    named = [("players", n) for n in players] + [("teams", t) for t in teams]
    named += [("teams", m) for members in teams.values() if isinstance(members, list) for m in members]
    for what, n in named:
        problem = name_problem(n, reserved)
        if problem:
            raise Refused(what, problem)
    for what, group in (("players", players), ("teams", list(teams))):
        seen = {}
        for n in group:
            other = seen.get(n.casefold())
            seen.setdefault(n.casefold(), n)
            if other is not None:
                raise Refused(what, f"two {what} named {show(other)}" + (f" and {show(n)}" if other != n else "")
                                    + ": each needs a name of its own")


def match_name(words: list[str], known) -> tuple[str | None, list[str]]:
    """The longest of the `known` names that the words begin with (compared without regard to case),
    as it is written in the record, and the words after it; (None, words) if none does."""
    folded = {" ".join(k.split()).casefold(): k for k in known}
    for n in range(len(words), 0, -1):
        hit = folded.get(" ".join(words[:n]).casefold())
        if hit is not None:
            return hit, words[n:]
    return None, words


def start_game(rules: "RefereeRules", header: dict, path: Path | None):
    """The state before a record's first entry: its names checked (the same rule however they
    arrived), then the game's own new_game. Refused otherwise."""
    check_names(header, rules.reserved_names)
    return rules.new_game(header, path)


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
    from ..games import GAMES
    if isinstance(game, str) and game in GAMES:
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


def record_reference(header: dict, key: str, default: str) -> Path:
    """The spec file a record's header names under `key` (a deck, a board, a kit), or the game's
    `default`. A record is shared between people, so what it names must be one of the project's
    specs: a path relative to the project folder (decks/x.yaml) that stays inside it. Refused
    otherwise, before anything is read."""
    from ..paths import project_root
    rel = header.get(key, default)
    try:
        return confined(project_root(), rel)
    except ReferenceError_ as exc:
        raise Refused(key, f"expected {exc}, got {show(rel)}") from None


def replay(rules: RefereeRules, spec) -> tuple[Any, list[TurnReport], list]:
    """The state after every entry, the reports, and the states before each (for undo)."""
    header = {k: v for k, v in spec.data.items() if k != "entries"}
    try:
        state = start_game(rules, header, spec.path)
    except Refused as exc:
        raise RecordError(f"{spec.file}:{spec.line(())}: refused ({exc.rule}): {exc.message}") from None
    history, reports = [], []
    for i, entry in enumerate(spec.data["entries"]):
        try:
            nxt, report = rules.apply(state, entry)
        except Refused as exc:
            where = spec.line(("entries", i))
            raise RecordError(f"{spec.file}:{where}: entry {i + 1}: refused ({exc.rule}): {exc.message}") from None
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
            print(one_line(f"refused ({exc.rule}): {exc.message}"), file=sys.stderr)
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


class RecordFull(Exception):
    """An entry that would take the record past what any reader reads: nothing was written."""


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

    def __init__(self, path: Path, game: str, header: dict, entries: list, comments: str, digest,
                 display: str | None = None):
        self.path, self.game, self.header = path, game, header
        self.display = str(path) if display is None else display      # its name in messages
        self.entries, self.comments, self._digest = list(entries), comments, digest

    @classmethod
    def open(cls, path: Path, rules: RefereeRules, display: str | None = None):
        """(journal, spec) of an existing record, or RecordError (naming it as `display`)."""
        file = str(path) if display is None else display
        try:
            raw = read_bytes(path, file, MAX_RECORD_BYTES)
            text = decode_text(raw, file)
        except SpecError as exc:
            raise RecordError(str(exc)) from None
        spec = load_record(path, rules, text=text, file=file)
        header = {k: v for k, v in spec.data.items() if k != "entries"}
        journal = cls(path, rules.game, header, spec.data["entries"], _leading_comments(text),
                      hashlib.sha256(raw).digest(), display)
        return journal, spec

    @classmethod
    def create(cls, path: Path, game: str, header: dict, display: str | None = None):
        """A new journal with no entry; refuses to overwrite a file that appeared meanwhile."""
        journal = cls(path, game, header, [], "", None, display)
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
        # The limits every reader of a record keeps (`score`, `play --journal`, `pnp serve`), kept
        # by the writer first: a journal it wrote could otherwise never be replayed again.
        if len(entries) > MAX_RECORD_ENTRIES:
            raise RecordFull(f"this record holds the {MAX_RECORD_ENTRIES:,} entries a record may have: "
                             "nothing was written; start a new game")
        text = record_text(self.header, entries, self.game, self.comments)
        data = text.encode("utf-8")
        if len(data) > MAX_RECORD_BYTES:
            raise RecordFull(f"the record would grow past the {MAX_RECORD_BYTES // 2**20} MB a record may have: "
                             "nothing was written; start a new game")
        folder = self.path.parent if str(self.path.parent) else Path(".")
        with _folder_lock(folder):
            try:
                current = hashlib.sha256(read_bytes(self.path, self.display, MAX_RECORD_BYTES)).digest()
            except SpecError:
                current = None if not os.path.lexists(self.path) else b"?"
            if current != self._digest:
                raise JournalChanged(f"{self.display} changed since it was read (another prompt or page wrote "
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
  undo       take back the last entry (the journal too); `show` says which it is
  show       draw the position again
  reload     read the journal again (after another prompt or page wrote to it)
  help       this text
  quit       stop (the journal keeps every accepted entry; play --journal FILE resumes)"""

MAX_PROMPT_LINE = 4096      # characters of one line at the prompt (a Capitals turn of many cards is 200)


def entry_summary(report: "TurnReport", limit: int = 80) -> str:
    """What an entry did, in a few words, for `undone: entry 7 (...)`: the first sentence of its
    report (`Bob plays go`, `White: d4-d6`, `Bob: Netherlands: D22S9`), without the report's own
    turn number or running totals."""
    text = " ".join(report.text.split())
    text = re.sub(r"^\d+\.\s+", "", text)
    for stop in ("   [", " [", ". "):
        text = text.split(stop)[0]
    text = text.rstrip(".")
    return one_line(text, limit)


def undo_line(number: int, report: "TurnReport", remain: int) -> str:
    return f"undone: entry {number} ({entry_summary(report)}); {plural(remain, 'entry', 'entries')} " \
           f"{'remains' if remain == 1 else 'remain'}"


def read_line(inp, limit: int = MAX_PROMPT_LINE) -> str | None:
    """One line from the prompt's input, None at its end. A line longer than `limit` is read to
    its end and dropped (returned as the marker TOO_LONG): memory stays bounded whatever is pasted."""
    line = inp.readline(limit + 1)
    if not line:
        return None
    if len(line) <= limit or line.endswith("\n"):
        return line
    while True:                          # the rest of an over-long line, a chunk at a time
        rest = inp.readline(65536)
        if not rest or rest.endswith("\n"):
            return TOO_LONG


TOO_LONG = "\0too long"


def line_editing(inp, out) -> bool:
    """Whether the prompt reads with input(), which gives line editing and history (the arrow keys)
    through the standard library's readline: at a terminal, where this Python has readline; plain
    reading elsewhere (a pipe, a file, a Python without it)."""
    try:
        if inp is not sys.stdin or out is not sys.stdout or not inp.isatty() or not out.isatty():
            return False
        import readline  # noqa: F401  importing it is what turns line editing on for input()
        return True
    except (ImportError, OSError, ValueError, AttributeError):
        return False


def refusal(index: int, exc: Exception) -> str:
    """The one line a refused entry gets, at the prompt and from `pnp serve` alike. `index` counts
    from 0 (the entries before it); people count entries from 1."""
    if isinstance(exc, JournalChanged):
        return one_line(f"refused, entry {index + 1} (stale journal): {exc}")
    if isinstance(exc, RecordFull):
        return one_line(f"refused, entry {index + 1} (record size): {exc}")
    return one_line(f"refused, entry {index + 1} ({exc.rule}): {exc.message}")


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


def play(rules: RefereeRules, journal_path: Path | None, args, inp=None, out=None) -> int:
    inp, out = inp or sys.stdin, out or sys.stdout
    colour = out.isatty() and not os.environ.get("NO_COLOR")
    editing = line_editing(inp, out)

    def err(text: str) -> None:
        print(one_line(text), file=sys.stderr)

    def next_line(prompt: str) -> str | None:
        if editing:
            try:
                line = input(prompt)
            except EOFError:
                return None
            return TOO_LONG if len(line) > MAX_PROMPT_LINE else line
        out.write(prompt)
        out.flush()
        return read_line(inp)

    if journal_path is None:
        journal_path = Path(f"{rules.game}-{datetime.now():%Y%m%d-%H%M%S}.yaml")
    if os.path.lexists(journal_path):
        try:
            journal, spec = Journal.open(journal_path, rules)
            state, reports, history = replay(rules, spec)
        except RecordError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        print(f"Resumed {journal_path}: {plural(len(journal.entries), 'entry', 'entries')} replayed.", file=out)
    else:
        header = {"game": (rules.games or (rules.game,))[0], **rules.header_from_args(args)}
        try:
            validate({**header, "entries": []}, {}, str(journal_path), kind=rules.record_kind)
            state = start_game(rules, header, journal_path)
        except SpecError as exc:
            err(f"pnp: {str(exc).splitlines()[0]}")
            return 2
        except Refused as exc:
            err(f"refused ({exc.rule}): {exc.message}")
            return 2
        try:
            journal = Journal.create(journal_path, rules.game, header)
        except (OSError, JournalChanged, RecordFull, ValueError) as exc:
            err(f"pnp: cannot write the journal {journal_path}: {getattr(exc, 'strerror', None) or exc}")
            return 2
        reports, history = [], []
        print(f"Journal: {journal_path}", file=out)
    print(rules.render(state, colour), file=out)
    refused_any = False

    def last_entry() -> str:
        if not reports:
            return "no entry yet"
        return f"last entry: {len(reports)} ({entry_summary(reports[-1])}); undo takes it back"

    while True:
        line = next_line(rules.prompt(state) + "> ")
        if line is None:
            out.write("\n")
            break
        if line == TOO_LONG:
            refused_any = True
            print(f"? a line is at most {MAX_PROMPT_LINE:,} characters: nothing was read from it", file=out)
            continue
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
            print(last_entry(), file=out)
            continue
        if word == "reload":
            try:
                journal, spec = Journal.open(journal_path, rules)
                state, reports, history = replay(rules, spec)
            except RecordError as exc:
                print(f"? {exc}", file=out)
                continue
            print(f"reloaded {journal_path}: {plural(len(journal.entries), 'entry', 'entries')}", file=out)
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
                print(one_line(f"refused ({exc})"), file=out)
                continue
            state = history.pop()
            print(undo_line(len(reports), reports.pop(), len(journal.entries)), file=out)
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
        except (Refused, JournalChanged, RecordFull) as exc:
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
