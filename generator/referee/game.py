"""A game in play: the one owner of its state, its reports and its journal, the same for the prompt
(`pnp referee GAME play`) and the phones (`pnp serve`), as python-chess's Board is for a game of
chess. An entry is made in one way (parse, check against the record schema, apply, journal) and
refused in one way (a single line naming the entry and the rule), and so is an undo.

The game after each entry is a Moment, never changed once made: an entry makes the next one, so a
reader (a page drawing the position) may hold one while another entry is made."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import one_line, plural, show
from ..spec.loader import validate
from .contract import RefereeRules, Refused, TurnReport, entry_summary
from .journal import Journal, JournalChanged, RecordFull
from .record import check_entry, replay, start_game


@dataclass(frozen=True)
class Moment:
    """The game as it stood after one of its entries."""
    state: Any
    reports: tuple[TurnReport, ...]
    history: tuple                                 # the state before each entry (undo goes back to them)
    version: str                                   # the journal's digest, short: changes with every write
    cache: dict = field(default_factory=dict, compare=False)   # things drawn from this state, made once

    @property
    def entries(self) -> int:
        return len(self.reports)


class EntryRefused(Exception):
    """An entry (or an undo) refused: `line` is the one line said for it, at the prompt and on the
    page alike; `stale` when the game had moved on since it was seen (another writer)."""

    def __init__(self, line: str, stale: bool = False):
        super().__init__(line)
        self.line, self.stale = line, stale


class NothingToUndo(EntryRefused):
    """Undo with no entry to take back."""

    def __init__(self):
        super().__init__("nothing to undo")


def refusal(index: int, exc: Exception) -> str:
    """The one line a refused entry gets, at the prompt and from `pnp serve` alike. `index` counts
    from 0 (the entries before it); people count entries from 1."""
    if isinstance(exc, JournalChanged):
        return Refused("stale journal", str(exc)).line(index + 1)
    if isinstance(exc, RecordFull):
        return Refused("record size", str(exc)).line(index + 1)
    return exc.line(index + 1)


def undo_line(number: int, report: TurnReport, remain: int) -> str:
    return f"undone: entry {number} ({entry_summary(report)}); {plural(remain, 'entry', 'entries')} " \
           f"{'remains' if remain == 1 else 'remain'}"


def _version(journal: Journal) -> str:
    return journal.digest.hex()[:16] if journal.digest else ""


class Game:
    """A record being played: its rules, its journal, and `now`, the Moment after its last entry."""

    def __init__(self, rules: RefereeRules, journal: Journal, now: Moment):
        self.rules, self.journal, self.now = rules, journal, now

    # -- opening
    @classmethod
    def open(cls, path: Path, rules: RefereeRules, display: str | None = None) -> "Game":
        """The record at `path` replayed (RecordError if it cannot be)."""
        journal, spec = Journal.open(path, rules, display)
        state, reports, history = replay(rules, spec)
        return cls(rules, journal, Moment(state, tuple(reports), tuple(history), _version(journal)))

    @classmethod
    def create(cls, path: Path, rules: RefereeRules, header: dict, display: str | None = None) -> "Game":
        """A new record with this header and no entry. SpecError if the record schema refuses the
        header, Refused if the game does (its names, its options), and the journal's own errors
        (OSError, JournalChanged: a file made meanwhile) if it cannot be written."""
        validate({**header, "entries": []}, {}, display or str(path), kind=rules.record_kind)
        state = start_game(rules, header, path)
        journal = Journal.create(path, rules.game, header, display)
        return cls(rules, journal, Moment(state, (), (), _version(journal)))

    def reload(self) -> None:
        """Read the journal again (another prompt or page wrote to it); RecordError if it cannot be."""
        fresh = Game.open(self.journal.path, self.rules, self.journal.display)
        self.journal, self.now = fresh.journal, fresh.now

    # -- what it is now
    @property
    def header(self) -> dict:
        return self.journal.header

    @property
    def state(self):
        return self.now.state

    @property
    def entries(self) -> int:
        return self.now.entries

    @property
    def is_over(self) -> bool:
        return bool(self.rules.is_over(self.now.state))

    def last(self) -> tuple[int, str] | None:
        """The entry Undo would take back: its number and what it did, or None."""
        if not self.now.reports:
            return None
        return self.now.entries, entry_summary(self.now.reports[-1])

    # -- entering and undoing
    def parse(self, text: str) -> dict:
        """The entry a line of the game's notation stands for (ValueError: the notation's own words)."""
        return self.rules.parse_move(text.strip(), self.now.state)

    def push(self, entry, expect: int | None = None, version: str | None = None) -> TurnReport:
        """Make one entry, in the notation (a string) or as a record writes it (a mapping): parsed,
        checked against the record schema, applied by the rules and appended to the journal, or
        EntryRefused and nothing changed. `expect` and `version`, where given, are what the one
        entering saw (an entry count, a version): a game that has moved on since is stale."""
        self._check_fresh(expect, version)
        now, index = self.now, self.now.entries
        try:
            if isinstance(entry, str):
                if not entry.strip():
                    raise Refused("notation", "an entry is a move in the game's notation (type help at the prompt)")
                try:
                    entry = self.parse(entry)
                except ValueError as exc:
                    raise Refused("notation", str(exc)) from None
            check_entry(self.rules, self.header, entry, index)
            state, report = self.rules.apply(now.state, entry)
            self.journal.append(entry)
        except (Refused, RecordFull) as exc:
            raise EntryRefused(refusal(index, exc)) from None
        except JournalChanged as exc:
            raise EntryRefused(refusal(index, exc), stale=True) from None
        except ValueError as exc:      # record_text: an entry YAML would not carry back as it was
            raise EntryRefused(refusal(index, Refused("notation", str(exc)))) from None
        self.now = Moment(state, now.reports + (report,), now.history + (now.state,), _version(self.journal))
        return report

    def pop(self, expect: int | None = None, version: str | None = None, number: int | None = None) -> str:
        """Take back the last entry (the journal too): the line that says which. NothingToUndo, or
        EntryRefused (stale) if another writer got to the journal first. `number`, where given, is
        the entry the one undoing means (as their page showed it): refused as stale unless it is
        still the last, with `version`, as it was then (two phones undoing one mistake take back
        one entry, not two)."""
        if number is not None:
            self._check_undo_of(number, version)
        self._check_fresh(expect, version)
        now = self.now
        if not now.reports:
            raise NothingToUndo()
        try:
            self.journal.truncate(now.entries - 1)
        except JournalChanged as exc:
            raise EntryRefused(one_line(f"refused ({exc})"), stale=True) from None
        self.now = Moment(now.history[-1], now.reports[:-1], now.history[:-1], _version(self.journal))
        return undo_line(now.entries, now.reports[-1], self.now.entries)

    def _check_undo_of(self, number: int, version: str | None) -> None:
        n = self.now.entries
        if number != n or (version is not None and version != self.now.version):
            if number > n:
                why = f"it was taken back already (the game has {plural(n, 'entry', 'entries')} now)"
            elif number < n:
                why = f"it is no longer the last entry (the game has {plural(n, 'entry', 'entries')} now)"
            else:
                why = "the game changed since (an entry was taken back and another made)"
            raise EntryRefused(one_line(f"refused, undo of entry {number} (stale journal): {why}, on another "
                                        "phone or prompt: nothing was undone; look again"), stale=True)

    def _check_fresh(self, expect, version) -> None:
        n = self.now.entries
        if expect is not None and (type(expect) is not int or expect != n):
            # numbered as the one entering numbered it: the entry they meant to make
            raise EntryRefused(refusal(expect if type(expect) is int else n, JournalChanged(
                f"this page saw {show(expect)} entries and the game has {n} now (another phone or prompt "
                "entered meanwhile): nothing was written; look again and enter it if it still stands")), stale=True)
        if version is not None and version != self.now.version:
            raise EntryRefused(refusal(n, JournalChanged(
                "the game changed since this page read it (an entry was undone or replaced): nothing was "
                "written; look again and enter it if it still stands")), stale=True)

    def matches(self, raw: bytes) -> bool:
        """Whether the journal's file still holds these bytes as this game last read or wrote them."""
        return self.journal.digest == hashlib.sha256(raw).digest()
