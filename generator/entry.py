"""The `pnp` command's entry point (and `python -m generator`'s), and how it meets signals.

Ctrl-C (SIGINT), SIGTERM and SIGHUP unwind the command like an error, so that nothing is left
half-written, and end it with a line and 128 + the signal's number, never a traceback: from the
first moment, since the command's imports take a few tenths of a second and a signal may land
in them. One that lands inside an import is held until the import is over (a library stopped
halfway through its import is broken for the rest of the process, and numpy prints a traceback).
A signal is also remembered, in case one still comes out of a library as some other error.
"""
from __future__ import annotations

import os
import signal
import sys
import threading

INTERRUPTED = "pnp: interrupted; nothing was left half-written"

stopped_by: list[int] = []     # the signals that arrived during this command


class Terminated(BaseException):
    """SIGTERM or SIGHUP: unwinds like Ctrl-C's KeyboardInterrupt."""


RETRY_S = 0.05       # how soon a signal held back from an import is sent again


def _in_import(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _stop(signum, frame, exc: BaseException) -> None:
    if _in_import(frame):
        # Raised inside a library's import, the exception would leave the library half made
        # (numpy's C extensions print it as a traceback and fail every later import of numpy):
        # the signal is sent again shortly, to land once the import is over.
        timer = threading.Timer(RETRY_S, os.kill, (os.getpid(), signum))
        timer.daemon = True
        timer.start()
        return
    stopped_by.append(signum)
    raise exc


def _interrupt(signum, frame):
    _stop(signum, frame, KeyboardInterrupt())


def _terminate(signum, frame):
    _stop(signum, frame, Terminated(signum))


def watch_signals() -> dict:
    """Our handlers in place; the handlers they replaced, to put back. (Not from a thread other than
    the main one, as a test calling the command line may be: there the signals are left alone.)"""
    previous = {}
    del stopped_by[:]
    for sig, handler in ((signal.SIGINT, _interrupt), (signal.SIGTERM, _terminate),
                         (getattr(signal, "SIGHUP", None), _terminate)):
        if sig is not None:
            try:
                previous[sig] = signal.signal(sig, handler)
            except ValueError:
                pass
    return previous


def main(argv=None) -> int:
    watch_signals()
    try:
        from .cli import main as cli_main
    except (KeyboardInterrupt, Terminated):
        sig = stopped_by[-1] if stopped_by else signal.SIGINT
        exec("pass")  # noqa: S102  (see cli._stopped)
        print(INTERRUPTED if sig == signal.SIGINT else "pnp: stopped by a signal; nothing was left half-written",
              file=sys.stderr)
        return 128 + int(sig)
    return cli_main(argv)
