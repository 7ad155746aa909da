"""Reading input files as strangers: only regular files, of a bounded size, as UTF-8 text; and the
one place where a name written inside a file (a spec's `deck:`, a record's `board:`) becomes a path.

Specs and records are shared between people. A value read from one must never make the tool read
a file the user did not point it at: a reference is a relative path that stays inside a folder
the caller names (the spec's own tree, or the project's specs), symbolic links included.
"""
from __future__ import annotations

import hashlib
import os
import stat
import threading
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from .errors import SpecError

# Far above anything real (the largest spec, the 1961 capitals deck, is 35 kB; a long game record
# a few kB; the land polygons 61 kB), far below what could hurt.
MAX_SPEC_BYTES = 2 * 1024 * 1024
MAX_RECORD_BYTES = 4 * 1024 * 1024
MAX_RECORD_ENTRIES = 10_000      # a record's entries (the schemas' entries: maxItems)
MAX_DATA_BYTES = 16 * 1024 * 1024


_trackers: list[dict] = []


@contextmanager
def track_reads():
    """Collect {real path: sha256} of every file read through read_bytes inside the block: what a
    build's products depend on, so an incremental build knows when they are stale."""
    found: dict[str, str] = {}
    _trackers.append(found)
    try:
        yield found
    finally:
        _trackers.remove(found)


def note_reads(reads: dict[str, str]) -> None:
    """Count files read before (by something made once and kept) as read again inside every
    open track_reads block."""
    for found in _trackers:
        found.update(reads)


def still_as_read(reads: dict[str, str]) -> bool:
    """Every file of {real path: sha256} still has those bytes."""
    return all(file_digest(path) == digest for path, digest in reads.items())


class MadeFromFiles:
    """Things made from files, each kept while the files it read keep their bytes: a build's
    check and its jobs, or `pnp serve`'s requests, make it once, and an edited file (a spec
    changed while the server runs) makes it again. Whoever gets a kept thing still counts its
    files as read (incremental builds know what a job depends on). What is kept is read-only.
    `owner`, where given, is an object the key stands for by its id: kept only while it is the
    same object (an id can be reused once its object is gone)."""

    def __init__(self, size: int = 64):
        self.size = size
        self.items: dict = {}

    def get(self, key, make, owner=None):
        known = self.items.get(key)
        if known is not None and known[2] is owner and still_as_read(known[1]):
            note_reads(known[1])
            return known[0]
        with track_reads() as reads:
            value = make()
        if len(self.items) >= self.size:
            self.items.clear()
        self.items[key] = (value, dict(reads), owner)
        return value


# How long a read may take: a regular file of a few MB is read in milliseconds. A "regular file"
# whose read waits (the kernel's /proc/kmsg, a file on a stalled network or FUSE mount) would
# otherwise hold the command for ever.
READ_TIMEOUT_S = 10.0


class _Unreadable(Exception):
    """Why a file cannot be read, in the words of an error line."""


def _read_file(path, limit: int) -> bytes:
    """The bytes of a regular file no larger than `limit`, or _Unreadable. Opened without blocking,
    and kept so: a FIFO or a device is refused instead of waited on, its type checked on the open
    descriptor (it cannot change between the check and the read), and a file whose read would
    wait (/proc/kmsg: "regular", and empty until the kernel speaks) is refused at its first read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (ValueError, TypeError) as exc:          # a NUL in the name, and the like
        raise _Unreadable(str(exc)) from None
    except OSError as exc:                          # missing, not allowed, a loop of links...
        raise _Unreadable(exc.strerror or str(exc)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _Unreadable("a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise _Unreadable("not a regular file")
        if st.st_size > limit:
            raise _Unreadable(f"too large ({st.st_size} bytes; the limit is {limit})")
        chunks, size = [], 0
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except BlockingIOError:
                raise _Unreadable("its reads wait (not an ordinary file)") from None
            if not chunk:
                break
            size += len(chunk)
            if size > limit:  # the file grew while we read it
                raise _Unreadable(f"too large (over {limit} bytes)")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise _Unreadable(exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


def _read_in_time(path, limit: int) -> bytes:
    """_read_file, given READ_TIMEOUT_S at most: it runs in a thread of its own, which owns the
    file from its open to its close, and is left behind if it does not answer in time (a read
    stuck in the kernel cannot be called off; the thread ends with the process). The caller's
    wait is one a signal breaks into: Ctrl-C is answered at once whatever the file does."""
    answer: list = []

    def read() -> None:
        try:
            answer.append(("bytes", _read_file(path, limit)))
        except _Unreadable as exc:
            answer.append(("error", str(exc)))
        except BaseException as exc:  # noqa: BLE001  handed to the caller, whatever it is
            answer.append(("raise", exc))

    reader = threading.Thread(target=read, name="pnp-read", daemon=True)
    reader.start()
    reader.join(READ_TIMEOUT_S)
    if not answer:
        raise _Unreadable(f"no answer in {READ_TIMEOUT_S:g} s (a file whose reads wait: a device, a stalled mount?)")
    what, value = answer[0]
    if what == "raise":
        raise value
    if what == "error":
        raise _Unreadable(value)
    return value


def file_digest(path, limit: int = MAX_DATA_BYTES) -> str | None:
    """sha256 of a regular file's bytes, or None if it cannot be read (as read_bytes reads: a FIFO,
    a device or a file whose reads wait is never waited on), or is larger than `limit`."""
    try:
        return hashlib.sha256(_read_in_time(path, limit)).hexdigest()
    except _Unreadable:
        return None


def read_bytes(path: Path, file: str, limit: int) -> bytes:
    """The bytes of a regular file no larger than `limit`, or a SpecError naming `file`: only a
    regular file, never waited on (a FIFO, a device, /proc/kmsg), read in READ_TIMEOUT_S at most."""
    try:
        data = _read_in_time(path, limit)
    except _Unreadable as exc:
        message = str(exc)
        raise SpecError(file, None, "", message if message.startswith("too large") else f"cannot read: {message}") \
            from None
    if _trackers:
        digest = hashlib.sha256(data).hexdigest()
        for found in _trackers:
            found[os.path.realpath(path)] = digest
    return data


def read_text(path: Path, file: str, limit: int) -> str:
    return decode_text(read_bytes(path, file, limit), file)


def decode_text(data: bytes, file: str) -> str:
    """UTF-8 text without a byte-order mark or NUL, or a SpecError naming the line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SpecError(file, line, "", f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") \
            from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark, as some editors write: not content
    if "\x00" in text:
        raise SpecError(file, text[:text.index("\x00")].count("\n") + 1, "", "not text (a NUL character)")
    return text


class ReferenceError_(ValueError):
    """A reference that names a path outside the folder it must stay in (message says why)."""


def confined(root: Path, reference: str, base: Path | None = None) -> Path:
    """The path `reference` (relative, '/'-separated, read from `base`, default root) names inside
    `root`, or ReferenceError_.

    Refused: an absolute path, a drive, a backslash, control characters, a path that climbs out
    of root with '..', and any path whose real location (symbolic links followed) is outside root."""
    if not isinstance(reference, str) or not reference.strip():
        raise ReferenceError_("expected a relative path")
    if any(ord(c) < 32 or ord(c) == 127 for c in reference) or "\\" in reference or ":" in reference:
        raise ReferenceError_("a path with no control characters, backslashes or colons")
    pure = PurePosixPath(reference)
    if pure.is_absolute():
        raise ReferenceError_("a relative path, not an absolute one")
    root_real = Path(os.path.realpath(root))
    base_real = Path(os.path.realpath(base)) if base is not None else root_real
    lexical = Path(os.path.normpath(base_real / Path(*pure.parts)))
    target = Path(os.path.realpath(lexical))
    for p in (lexical, target):
        if p != root_real and root_real not in p.parents:
            raise ReferenceError_(f"a path inside {root_real.name or root_real}/ (this one leads out of it)")
    return target


def spec_tree(spec_path: Path) -> Path:
    """The folder a spec may name other files in: the one above its decks/ or boards/ folder (so a
    board may name ../decks/x.yaml), or its own folder for a spec kept elsewhere."""
    parent = Path(os.path.realpath(spec_path)).parent
    return parent.parent if parent.name in ("decks", "boards") else parent
