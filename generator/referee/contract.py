"""The referee contract: what a game's rules give (RefereeRules, plain functions over the game's
own immutable states) and what they may raise (Refused) or report (TurnReport), and the names of
players and teams, checked alike wherever they come from.

A game's rules.py and referee.py import this module only, from the referee package: it reads no
file format and imports no YAML or schema library (records, journals, the prompt and a game in
play are record.py, journal.py, prompt.py and game.py)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import hidden_character, one_line, show
from ..inputs import ReferenceError_, confined


class Refused(Exception):
    """An entry the rules do not allow. `rule` names the rule; the message says why."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message

    def line(self, entry: int | None = None) -> str:
        """The one line a refusal gets, wherever it is told (the prompt, a record's score, the
        phones): `refused (RULE): WHY`, or for a numbered entry (from 1) `refused, entry N (RULE): WHY`."""
        return one_line(f"refused{f', entry {entry}' if entry is not None else ''} ({self.rule}): {self.message}")


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
    is_over: Callable[[Any], bool] = lambda state: False   # the game has ended (won, drawn, lost)
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


def name_problem(name, reserved=()) -> str | None:
    """Why `name` cannot be a player's or a team's name, or None. One rule for every game and every
    way a name arrives (a record, `--players`, the start page, the API): names are typed in the
    games' notations (`Bob Marsh: stop Ann Lee`, `end Ann: Chile`), printed on terminals and pages,
    and told apart by the people at the table."""
    if not isinstance(name, str):
        return f"a name is text, got {show(name)}"
    if not name.strip():
        return "a name has at least one letter or digit"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters, got {len(name)}"
    if hidden_character(name, strict=True) is not None:
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


def known_name(name, known):
    """The one of the `known` names that `name` is, compared as the notation compares names (without
    regard to case, as a phone's keyboard capitalises them), as it is written there; None if none."""
    if not isinstance(name, str):
        return None
    folded = " ".join(name.split()).casefold()
    return next((k for k in known if " ".join(k.split()).casefold() == folded), None)


def match_name(words: list[str], known) -> tuple[str | None, list[str]]:
    """The longest of the `known` names that the words begin with (compared without regard to case),
    as it is written in the record, and the words after it; (None, words) if none does."""
    folded = {" ".join(k.split()).casefold(): k for k in known}
    for n in range(len(words), 0, -1):
        hit = folded.get(" ".join(words[:n]).casefold())
        if hit is not None:
            return hit, words[n:]
    return None, words


def record_reference(header: dict, key: str, default: str, kinds: tuple[str, ...]) -> Path:
    """The spec file a record's header names under `key` (a deck, a board, a kit), or the game's
    `default`. A record is shared between people, so what it names must be one of the project's
    specs: a path relative to the project folder (decks/x.yaml) that stays inside it, refused
    otherwise before anything is read; and a spec of one of `kinds` (a Sorry board, not the Sorry
    deck), checked here, where the name is resolved, so no referee meets a spec it cannot read."""
    from ..errors import SpecError
    from ..paths import builtin_root, project_root
    from ..spec.loader import WrongKind, load_named     # here: the rules import this module, YAML they need not
    rel = header.get(key, default)
    try:
        path = confined(project_root(), rel)
        if not path.exists() and not os.path.lexists(path):   # not in this folder: the games' own
            path = confined(builtin_root(), rel)
        load_named(path, rel, kinds)
    except ReferenceError_ as exc:
        # Said in words that name no folder of the machine: a record's refusal reaches the phones.
        why = str(exc) if str(exc).startswith(("a path with", "a relative")) else \
            "a path inside the project's folder (this one leads out of it)"
        raise Refused(key, f"expected {why}, such as {default}, got {show(rel)}") from None
    except (WrongKind, SpecError) as exc:
        raise Refused(key, str(exc)) from None
    return path


def entry_summary(report: TurnReport, limit: int = 80) -> str:
    """What an entry did, in a few words, for `undone: entry 7 (...)`: the first sentence of its
    report (`Bob plays go`, `White: d4-d6`, `Bob: Netherlands: D22S9`), without the report's own
    turn number or running totals."""
    text = " ".join(report.text.split())
    text = re.sub(r"^\d+\.\s+", "", text)
    for stop in ("   [", " [", ". "):
        text = text.split(stop)[0]
    text = text.rstrip(".")
    return one_line(text, limit)
