"""The referees at a terminal: `score` replays a record, `play` takes entries at a prompt through a
Game (which journals each one), and the commands that replay a record and then answer about it
(continuo best, sorry moves)."""
from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from ..errors import SpecError, one_line, plural
from .contract import RefereeRules, Refused
from .game import EntryRefused, Game, NothingToUndo
from .journal import JournalChanged, RecordFull
from .record import RecordError, load_record, replay


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
            print(exc.line(), file=sys.stderr)
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

HELP = """Enter a move in the game's notation, or:
  undo       take back the last entry (the journal too); `show` says which it is
  show       draw the position again
  reload     read the journal again (after another prompt or page wrote to it)
  help       this text
  quit       stop (the journal keeps every accepted entry; play --journal FILE resumes)"""

MAX_PROMPT_LINE = 4096      # characters of one line at the prompt (a Capitals turn of many cards is 200)


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
            game = Game.open(journal_path, rules)
        except RecordError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        print(f"Resumed {journal_path}: {plural(game.entries, 'entry', 'entries')} replayed.", file=out)
    else:
        header = {"game": (rules.games or (rules.game,))[0], **rules.header_from_args(args)}
        try:
            game = Game.create(journal_path, rules, header)
        except SpecError as exc:
            err(f"pnp: {str(exc).splitlines()[0]}")
            return 2
        except Refused as exc:
            err(exc.line())
            return 2
        except (OSError, JournalChanged, RecordFull, ValueError) as exc:
            err(f"pnp: cannot write the journal {journal_path}: {getattr(exc, 'strerror', None) or exc}")
            return 2
        print(f"Journal: {journal_path}", file=out)
    print(rules.render(game.state, colour), file=out)
    refused_any = False

    def last_entry() -> str:
        last = game.last()
        return "no entry yet" if last is None else f"last entry: {last[0]} ({last[1]}); undo takes it back"

    while True:
        line = next_line(rules.prompt(game.state) + "> ")
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
            print(rules.render(game.state, colour), file=out)
            print(last_entry(), file=out)
            continue
        if word == "reload":
            try:
                game.reload()
            except RecordError as exc:
                print(f"? {exc}", file=out)
                continue
            print(f"reloaded {journal_path}: {plural(game.entries, 'entry', 'entries')}", file=out)
            print(rules.render(game.state, colour), file=out)
            continue
        if word == "undo":
            try:
                said = game.pop()
            except NothingToUndo as exc:
                print(exc.line, file=out)
                continue
            except EntryRefused as exc:
                refused_any = True
                print(exc.line, file=out)
                continue
            print(said, file=out)
            print(rules.render(game.state, colour), file=out)
            continue
        if word in rules.extra_commands:
            try:
                print(rules.extra_commands[word](game.state, rest), file=out)
            except (ValueError, Refused) as exc:
                print(f"? {one_line(str(exc))}", file=out)
            continue
        try:
            entry = game.parse(line)
        except ValueError as exc:
            print(f"? {one_line(str(exc))} (type help)", file=out)
            continue
        try:
            report = game.push(entry)
        except EntryRefused as exc:
            refused_any = True
            print(exc.line, file=out)
            continue
        print(report.text, file=out)
        print(rules.render(game.state, colour), file=out)
    print(rules.final_text(game.state), file=out)
    return 2 if refused_any and not inp.isatty() else 0
