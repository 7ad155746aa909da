"""How a `pnp` command meets signals (Ctrl-C, SIGTERM, SIGHUP): a leaf that any floor may use.

Ctrl-C (SIGINT), SIGTERM and SIGHUP unwind the command like an error, so that nothing is left
half-written, and end it with a line and 128 + the signal's number, never a traceback: from the
moment entry.py installs the handlers, before the command's imports (a few tenths of a second, and
a signal may land in them). One that lands inside an import is held until the import is over, for
at most HOLD_S (a library stopped halfway through its import is broken for the rest of the
process, and numpy prints a traceback), or HOLD_C_S inside the import of a library of C extensions
(numpy, shapely...: under load, their import alone can take over a second). A second signal while the first unwinds is only noted. A
signal is remembered, in case it still comes out of a library as some other error. Once a build is
swapped in, it is done: signals from then on are held, and then ignored.
"""
from __future__ import annotations

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
HOLD_C_S = 5.0       # the same inside a C-extension library's import, which a signal breaks with a traceback
# Libraries (of C extensions, or large and slow to import) whose import, broken by an exception,
# prints a traceback or leaves them unusable for the rest of the process.
C_LIBRARIES = ("numpy", "shapely", "PIL", "cairocffi", "reportlab", "fontTools", "ezdxf", "jsonschema")
STOPPING = (signal.SIGINT, signal.SIGTERM) + ((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ())

_held: dict = {}     # the signal held back from an import: {"signum", "since", "timer"}


def _in_import(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _import_hold(frame) -> float:
    """How long a signal landing at this frame may be held: HOLD_C_S in a C-extension library's own
    code (its import, under way), else HOLD_S."""
    while frame is not None:
        name = frame.f_globals.get("__name__") if frame.f_globals else None
        if isinstance(name, str) and name.split(".", 1)[0] in C_LIBRARIES:
            return HOLD_C_S
        frame = frame.f_back
    return HOLD_S


def _send_again(signum: int) -> None:
    # To the main thread itself: a signal sent to the process may be taken by another thread
    # (this timer's) even while the main thread holds it blocked.
    try:
        signal.pthread_kill(threading.main_thread().ident, signum)
    except (ProcessLookupError, OSError):
        pass


_deferred: list[int] = []     # signals come while a short step must not be broken (see deferred)
_deferring = [0]


class deferred:
    """A short step that a stopping signal must not break in the middle: a worker forked but not yet
    known by its pid, which nobody would then stop or reap. The process's signal mask does not
    cover it: a signal sent to the process may be taken by another thread (a library's), and
    Python then runs our handler in the main thread whatever that thread blocks. A signal that
    comes meanwhile is kept, and raised when the step is over."""

    def __enter__(self):
        _deferring[0] += 1
        return self

    def __exit__(self, *exc):
        _deferring[0] -= 1
        if not _deferring[0] and _deferred and exc[0] is None:
            signum = _deferred[0]
            del _deferred[:]
            stopped_by.append(signum)
            raise _stopping(signum)
        return False


def _handler(signum, frame) -> None:
    if _deferring[0] and not stopped_by:
        _deferred.append(signum)
        return
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
    if _in_import(frame) and now - since < _import_hold(frame):
        # Raised inside a library's import, the exception would leave the library half made
        # (numpy's C extensions print it as a traceback and fail every later import of numpy):
        # the signal is looked at again shortly, to land once the import is over (within HOLD_S, or
        # HOLD_C_S in such a library's import).
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


_hook_before = [sys.unraisablehook]     # the unraisable hook _swallowed passes everything else to


def _swallowed(unraisable) -> None:
    """sys.unraisablehook while a command watches signals. Python does not let an exception out of a
    weakref's callback, a __del__ or a garbage collector's callback: it prints "Exception ignored
    in ..." with a traceback, and goes on. A signal's handler runs wherever the main thread is, and
    its KeyboardInterrupt or Terminated raised in there was lost: a SIGTERM to a build's process
    group landed in a WeakKeyDictionary's callback (test_bad_input's, once in 8 runs in a loop), and the
    build went on, swapped its files into --out and ended 0. The signal is sent again instead, to
    land in the command's own code a moment later, and nothing is printed."""
    exc = unraisable.exc_value
    if isinstance(exc, (KeyboardInterrupt, Terminated)) and stopped_by:
        signum = signal.SIGINT if isinstance(exc, KeyboardInterrupt) else int(exc.args[0])
        del stopped_by[:]      # not stopping after all: the signal sent again is a first one
        # Sent again from another thread, shortly (sent from here, or at once, it would land in
        # here, and be swallowed again), and held as a signal held back from an import is: a build
        # about to swap its files in stops at raise_held() even if the retry has not landed yet,
        # and a command ending first ends as the signal asked (held_back()), no retry left behind.
        if _held:
            _held["timer"].cancel()
        timer = threading.Timer(RETRY_S, _send_again, (signum,))
        timer.daemon = True
        _held.update(signum=signum, since=_held.get("since", time.monotonic()) if _held.get("signum") == signum
                     else time.monotonic(), timer=timer)
        timer.start()
        return
    _hook_before[0](unraisable)


def watch_signals() -> dict:
    """Our handlers in place; the handlers they replaced, to put back. (Not from a thread other than
    the main one, as a test calling the command line may be: there the signals are left alone.)
    Python's hook for exceptions it cannot raise becomes _swallowed, for good: it passes on any
    exception but a stopping signal's of this command."""
    previous = {}
    del stopped_by[:]          # (a signal held back from an import stays held: it is this command's)
    if sys.unraisablehook is not _swallowed:
        _hook_before[0], sys.unraisablehook = sys.unraisablehook, _swallowed
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
