"""Errors a user can act on: one line, naming the file, the line and the field.

Whatever a message quotes came from a stranger's file or command line, so it is shown safely:
control characters (a newline, a next-line, a bidi override) escaped, long values cut.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_LINE = 400     # characters in one error line
MAX_VALUE = 60     # characters of a quoted value


def printable(text: str) -> str:
    """text with every character that is not plainly printable escaped (\\n, \\x85, \\u202e)."""
    out = []
    for c in str(text):
        if c.isprintable():
            out.append(c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x100:
            out.append(f"\\x{ord(c):02x}")
        elif ord(c) < 0x10000:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(f"\\U{ord(c):08x}")
    return "".join(out)


def one_line(text: str, limit: int = MAX_LINE) -> str:
    """A message made safe to print as one line of a terminal."""
    text = printable(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def show(value, limit: int = MAX_VALUE) -> str:
    """A value from the input, quoted for a message: strings in quotes, cut when long."""
    if isinstance(value, str):
        shown = printable(value)
        if len(shown) > limit:
            shown = shown[:limit - 1] + "…"
        return f'"{shown}"'
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return one_line(repr(value), limit)


# Bidi embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI): they
# reorder what follows them on a terminal, in a file listing or a PDF's document properties, so a
# title can show one text and be another ("Trojan Source"). The marks (LRM, RLM, ALM) only nudge
# neutral characters and are how Hebrew and Arabic typists fix a stray full stop: allowed.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# What a name, shown alone, may not hold: every character that is not plainly printable
# (controls, format characters, surrogates, private-use and unassigned code points, line separators).
NOT_SHOWN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


# The characters hidden_character refuses, as one class (a spec's text is long; a regular
# expression reads it in C): Cc, the bidi controls, the separators (Zl, Zp), surrogates (Cs).
_REFUSED = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff"
_REFUSED_IN_TEXT = re.compile(f"[{_REFUSED}]")
_REFUSED_IN_LINE = re.compile(f"[{_REFUSED}\t\n]")


def hidden_character(text: str, strict: bool = False, lines: bool = True) -> str | None:
    """The first character of `text` that must not reach a terminal, a print list, a PDF's metadata
    or a file name raw, or None: the one check every text from a file passes (a spec's values and
    keys, a CSV's cells, a player's name). Refused: control characters (ESC, NUL, DEL, C1) but a
    line break and a tab where `lines` allows them, the bidi controls above, surrogates and the
    line and paragraph separators. Letters of every script pass, and so do the joiners (ZWJ, ZWNJ)
    that Arabic, Indic scripts and emoji need. `strict` (a name: shown alone, compared, typed in a
    notation) also refuses every other format, private-use and unassigned character."""
    if strict:
        return next((c for c in text if unicodedata.category(c) in NOT_SHOWN or (c.isspace() and c != " ")), None)
    found = (_REFUSED_IN_TEXT if lines else _REFUSED_IN_LINE).search(text)
    return found.group() if found else None


def hidden_problem(text: str, lines: bool = True) -> str | None:
    """Why `text` is refused by hidden_character, in a few words naming the character, or None."""
    c = hidden_character(text, lines=lines)
    if c is None:
        return None
    name = unicodedata.name(c, "")
    what = "a bidi control" if c in BIDI_CONTROLS else "a line break" if c in "\r\n\x85\u2028\u2029" else \
        "a control character"
    return f"{what} ({printable(c)}{', ' + name.lower() if name else ''}) in {show(text)}: remove it"


def plural(n: int, word: str, words: str | None = None) -> str:
    """`1 card`, `2 cards`; `words` where the plural is not word + s (`entry`, `entries`)."""
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


@dataclass
class SpecError(Exception):
    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        field = f" {self.field}:" if self.field else ""
        return one_line(f"{where}:{field} {self.message}")


class LayoutError(ValueError):
    """What cannot be laid out as asked: cards larger than the page, text that cannot be set (a
    diagram taller than a column), a net too big for its sheet. `line`: the line of the spec's text
    it comes from, when known. The caller turns it into a SpecError at the spec's field."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


class UsageError(Exception):
    """A bad command-line argument (exit code 2, like argparse)."""


class WorkerDied(Exception):
    """A worker process of a build died (killed by the system, say): its job will never answer."""
