"""The `pnp` command's entry point (and `python -m generator`'s): the standard streams made safe and
the signal handlers put in place (signals.py) before anything else, then the command's own imports.

The standard streams are made safe here, before anything prints: a stream the command was
started without (`>&-`) gets /dev/null, and text the stream's encoding cannot carry (a player's name
in a Latin-1 or ASCII locale) is written escaped, never an error (see standard_streams).
"""
from __future__ import annotations

import codecs
import io
import os
import sys

# what the command's callers (and tests) name here, from the leaf that does it
from .signals import (HOLD_S, INTERRUPTED, RETRY_S, STOPPING, Terminated, held_back, hold_signals,  # noqa: F401
                      ignore_signals, raise_held, stopped, stopped_by, watch_signals)


def main(argv=None) -> int:
    closed_stdout = standard_streams()
    watch_signals()
    try:
        from .cli import main as cli_main
        code = cli_main(argv)
    except (KeyboardInterrupt, Terminated):      # in the command's own imports
        code = stopped()
    ignore_signals()
    if closed_stdout is not None and closed_stdout.written:
        print("pnp: standard output was closed; what the command had to say there is lost", file=sys.stderr)
    return code


# ---------------------------------------------------------------- the standard streams

def _escape_unencodable(exc: UnicodeEncodeError) -> tuple[str | bytes, int]:
    """A character the stream's encoding cannot carry, written as \\uXXXX (an astral one as its two
    UTF-16 halves): readable, and still valid inside a JSON string (`--json` output stays JSON).
    A byte that came in undecodable (a file name, an argument: Python's surrogateescape) goes
    back out as it came, as surrogateescape would write it."""
    c = exc.object[exc.start]
    code = ord(c)
    if 0xDC80 <= code <= 0xDCFF:
        return bytes([code - 0xDC00]), exc.start + 1
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}", exc.start + 1
    return f"\\u{code:04x}", exc.start + 1


codecs.register_error("pnp-escape", _escape_unencodable)


class ClosedStream(io.TextIOBase):
    """Standard output when the command was started with it closed (`pnp build >&-`): what is
    written goes nowhere, as the caller asked, and is noted, so the command can say so on stderr."""

    def __init__(self):
        self.written = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.written = self.written or bool(text)
        return len(text)

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return 1


def standard_streams() -> ClosedStream | None:
    """Make the three standard streams safe to use; return standard output's stand-in if it was
    closed (else None).

    - A closed descriptor 0, 1 or 2 gets /dev/null: otherwise the next file the command opens
      would take its number, and whatever writes to "standard error" (a C library's warning) would
      write into that file. Closed standard input reads as empty (the prompt ends as at Ctrl-D);
      closed standard error swallows messages (the exit code still tells); closed standard output
      swallows the answer, and the command says so on standard error.
    - Output in an encoding that cannot carry every character (a Latin-1 or ASCII locale, or
      PYTHONIOENCODING) writes those characters escaped instead of stopping with an error; input
      that is not in the locale's encoding reads as U+FFFD, not an error."""
    closed = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            closed.add(fd)
    stand_in = None
    if 0 in closed or sys.stdin is None:
        sys.stdin = open(0, "r", closefd=False, errors="replace")
    if 1 in closed or sys.stdout is None:
        stand_in = sys.stdout = ClosedStream()
    if 2 in closed or sys.stderr is None:
        sys.stderr = open(2, "w", closefd=False, errors="pnp-escape")
    # Input: undecodable bytes read as U+FFFD where Python would stop (the C locale's own
    # surrogateescape is kept: the referees refuse what it gives, one line). Output: "strict", and
    # the C locale's surrogateescape (which carries only bytes that came in undecodable), write
    # what the encoding cannot carry escaped; stderr's default, backslashreplace, already does.
    for stream, errors, instead_of in ((sys.stdin, "replace", ("strict",)),
                                       (sys.stdout, "pnp-escape", ("strict", "surrogateescape")),
                                       (sys.stderr, "pnp-escape", ("strict", "surrogateescape"))):
        if getattr(stream, "errors", None) in instead_of and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=errors)
    return stand_in
