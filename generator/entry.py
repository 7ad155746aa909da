"""The `pnp` command's entry point (and `python -m generator`'s), and how it meets signals.

Ctrl-C (SIGINT), SIGTERM and SIGHUP unwind the command like an error, so that nothing is left
half-written, and end it with a line and 128 + the signal's number, never a traceback: from the
moment this module runs, before the command's imports (a few tenths of a second, and a signal may
land in them). One that lands inside an import is held until the import is over, for at most
HOLD_S (a library stopped halfway through its import is broken for the rest of the process, and
numpy prints a traceback). A second signal while the first unwinds is only noted. A signal is
remembered, in case it still comes out of a library as some other error. Once a build is swapped
in, it is done: signals from then on are held, and then ignored.

The standard streams are made safe here too, before anything prints: a stream the command was
started without (`>&-`) gets /dev/null, and text the stream's encoding cannot carry (a player's name
in a Latin-1 or ASCII locale) is written escaped, never an error (see standard_streams).
"""
from __future__ import annotations

import codecs
import io
import os
import signal
import sys
import threading
import time

INTERRUPTED = "pnp: interrupted; nothing was left half-written"

stopped_by: list[int] = []     # the signals that arrived during this command


class Terminated(BaseException):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C's KeyboardInterrupt."""


RETRY_S = 0.05       # how soon a signal held back from an import is looked at again
HOLD_S = 1.0         # and how long at most: an import that does not end does not keep the signal
STOPPING = (signal.SIGINT, signal.SIGTERM) + ((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ())

_held: dict = {}     # the signal held back from an import: {"signum", "since", "timer"}


def _in_import(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _send_again(signum: int) -> None:
    # To the main thread itself: a signal sent to the process may be taken by another thread
    # (this timer's) even while the main thread holds it blocked.
    try:
        signal.pthread_kill(threading.main_thread().ident, signum)
    except (ProcessLookupError, OSError):
        pass


def _handler(signum, frame) -> None:
    if stopped_by:
        # Already stopping: a second Ctrl-C (or a signal re-sent) while the first unwinds must not
        # break off the tidying up; it is remembered, and the first one ends the command.
        stopped_by.append(signum)
        return
    now = time.monotonic()
    if _held and _held["signum"] != signum:
        _held["timer"].cancel()
        _held.clear()
    since = _held.get("since", now)
    if _in_import(frame) and now - since < HOLD_S:
        # Raised inside a library's import, the exception would leave the library half made
        # (numpy's C extensions print it as a traceback and fail every later import of numpy):
        # the signal is looked at again shortly, to land once the import is over (within HOLD_S).
        if "timer" in _held:
            _held["timer"].cancel()
        timer = threading.Timer(RETRY_S, _send_again, (signum,))
        timer.daemon = True
        _held.update(signum=signum, since=since, timer=timer)
        timer.start()
        return
    held_back()
    stopped_by.append(signum)
    raise _stopping(signum)


def held_back() -> int | None:
    """The signal held back from an import and not yet delivered (its retry cancelled), or None: a
    command about to end normally ends as that signal asked instead."""
    if not _held:
        return None
    _held["timer"].cancel()
    signum = _held["signum"]
    _held.clear()
    return signum


def _stopping(signum: int) -> BaseException:
    """What a stopping signal raises: Ctrl-C as Python's own KeyboardInterrupt, the others Terminated."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


def raise_held() -> None:
    """Stop now if a signal is held back from an import (before a point of no return)."""
    signum = held_back()
    if signum is not None:
        stopped_by.append(signum)
        raise _stopping(signum)


def hold_signals() -> None:
    """Stopping signals wait from here (in this thread) until the command ends, and are then
    ignored: what they would stop is already done (a build swapped into --out)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)


def ignore_signals() -> None:
    """From here to the process's end, stopping signals are ignored: the command has its answer (a
    build already swapped in, or its exit code chosen), and a late Ctrl-C must neither change it
    nor, during the interpreter's shutdown, kill the process by its default action."""
    for sig in STOPPING:
        try:
            signal.signal(sig, signal.SIG_IGN)
        except ValueError:       # not the main thread
            pass


def watch_signals() -> dict:
    """Our handlers in place; the handlers they replaced, to put back. (Not from a thread other than
    the main one, as a test calling the command line may be: there the signals are left alone.)"""
    previous = {}
    del stopped_by[:]          # (a signal held back from an import stays held: it is this command's)
    for sig in STOPPING:
        try:
            if signal.getsignal(sig) == signal.SIG_IGN:
                # Ignored by whoever started the command (`nohup pnp build`, or a script's
                # `pnp build &`, which ignores Ctrl-C): they asked that it not stop the command.
                continue
            previous[sig] = signal.signal(sig, _handler)
        except ValueError:
            pass
    return previous


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


def stopped(signum: int | None = None) -> int:
    """The line and exit code of a command stopped by a signal: this one, or else the first that
    arrived (a KeyboardInterrupt with none noted is Python's own Ctrl-C)."""
    if signum is None:
        signum = stopped_by[0] if stopped_by else signal.SIGINT
    # CPython marks a KeyboardInterrupt raised inside exec() of a string (dataclasses make their
    # methods so, when a module is imported) as never handled, even once it is caught, and at exit
    # kills the process with SIGINT instead of returning our code; exec() of a string clears the mark.
    exec("pass")  # noqa: S102
    print(INTERRUPTED if signum == signal.SIGINT else "pnp: stopped by a signal; nothing was left half-written",
          file=sys.stderr)
    return 128 + int(signum)
