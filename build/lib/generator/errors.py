"""Errors a user can act on: one line, naming the file, the line and the field.

Whatever a message quotes came from a stranger's file or command line, so it is shown safely:
control characters (a newline, a next-line, a bidi override) escaped, long values cut.
"""
from __future__ import annotations

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
