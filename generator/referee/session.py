"""Record, replay, prompt and journal: the same for every game.

A game record is a YAML file: a header (game, players, options) and then `entries`, in order.
`score` replays a record; `play` takes the same entries at a prompt and appends each accepted
one to a journal, which is itself a record (so `score` replays it and `play` resumes it).
A refused entry names its index and the rule it breaks, and leaves the state as it was.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

import yaml

from ..errors import SpecError
from ..outputs import write_text
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
    """A record that cannot be replayed: one line naming file, line, entry and rule."""

    def __init__(self, text: str):
        super().__init__(text)


# ---------------------------------------------------------------- records

def load_record(path: Path, rules: RefereeRules):
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{file}: cannot read: {exc.strerror}") from None
    try:
        data, lines = parse_yaml(text, file)
        if isinstance(data, dict) and data.get("entries") is None:
            data["entries"] = []  # a fresh journal: a header and no entry yet
        spec = validate(data, lines, file, kind=rules.record_kind)
    except SpecErrors as exc:
        raise RecordError("\n".join(SpecError.__str__(e) for e in exc.errors)) from None
    except SpecError as exc:
        raise RecordError(str(exc)) from None
    if spec.data.get("game") not in (rules.games or (rules.game,)):
        raise RecordError(f"{file}:{spec.line(('game',))}: game: this is a record of "
                          f"{spec.data.get('game')!r}, not {rules.game!r}")
    return spec


def replay(rules: RefereeRules, spec) -> tuple[Any, list[TurnReport], list]:
    """The state after every entry, the reports, and the states before each (for undo)."""
    header = {k: v for k, v in spec.data.items() if k != "entries"}
    try:
        state = rules.new_game(header, spec.path)
    except Refused as exc:
        raise RecordError(f"{spec.file}:{spec.line(())}: refused ({exc.rule}): {exc.message}") from None
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


def score(rules: RefereeRules, path: Path, as_json: bool, out=sys.stdout) -> int:
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

def _dump_entry(entry: dict) -> str:
    return "- " + yaml.safe_dump(entry, default_flow_style=True, sort_keys=False, width=10**6).strip() + "\n"


def _journal_text(header: dict, entries: list[dict], game: str) -> str:
    # One line per header key; values as JSON, which YAML reads as it is.
    head = "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in header.items())
    body = "".join(_dump_entry(e) for e in entries)
    return (f"# pnp referee journal ({game}). Replay: pnp referee {game} score FILE; "
            f"resume: pnp referee {game} play --journal FILE\n{head}entries:\n{body}")


def _append(path: Path, entry: dict) -> None:
    # Append and sync: an entry the prompt accepted survives a crash or a pulled plug.
    with open(path, "a", encoding="utf-8") as f:
        f.write(_dump_entry(entry))
        f.flush()
        os.fsync(f.fileno())


# ---------------------------------------------------------------- the prompt

HELP = """Enter a move in the game's notation, or:
  undo       take back the last entry (the journal too)
  show       draw the position again
  help       this text
  quit       stop (the journal keeps every accepted entry; play --journal FILE resumes)"""


def play(rules: RefereeRules, journal: Path | None, args, inp=sys.stdin, out=sys.stdout) -> int:
    colour = out.isatty() and not os.environ.get("NO_COLOR")
    if journal is None:
        journal = Path(f"{rules.game}-{datetime.now():%Y%m%d-%H%M%S}.yaml")
    if journal.exists():
        try:
            spec = load_record(journal, rules)
            state, reports, history = replay(rules, spec)
        except RecordError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        header = {k: v for k, v in spec.data.items() if k != "entries"}
        entries = list(spec.data["entries"])
        print(f"Resumed {journal}: {len(entries)} entries replayed.", file=out)
    else:
        header = {"game": (rules.games or (rules.game,))[0], **rules.header_from_args(args)}
        try:
            state = rules.new_game(header, journal)
        except Refused as exc:
            print(f"refused ({exc.rule}): {exc.message}", file=sys.stderr)
            return 2
        entries, reports, history = [], [], []
        write_text(journal, _journal_text(header, [], rules.game))
        print(f"Journal: {journal}", file=out)
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
        if word == "undo":
            if not entries:
                print("nothing to undo", file=out)
                continue
            state = history.pop()
            entries.pop()
            reports.pop()
            write_text(journal, _journal_text(header, entries, rules.game))
            print(f"undone; {len(entries)} entries remain", file=out)
            print(rules.render(state, colour), file=out)
            continue
        if word in rules.extra_commands:
            try:
                print(rules.extra_commands[word](state, rest), file=out)
            except (ValueError, Refused) as exc:
                print(f"? {exc}", file=out)
            continue
        try:
            entry = rules.parse_move(line, state)
        except ValueError as exc:
            print(f"? {exc} (type help)", file=out)
            continue
        try:
            nxt, report = rules.apply(state, entry)
        except Refused as exc:
            refused_any = True
            print(f"refused, entry {len(entries)} ({exc.rule}): {exc.message}", file=out)
            continue
        _append(journal, entry)
        history.append(state)
        entries.append(entry)
        reports.append(report)
        state = nxt
        print(report.text, file=out)
        print(rules.render(state, colour), file=out)
    print(rules.final_text(state), file=out)
    return 2 if refused_any and not inp.isatty() else 0
