"""The journal: a record on disk that grows an entry at a time, never half-written, never written by
two writers at once, never past what its readers read."""
from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from pathlib import Path

from ..errors import SpecError
from ..inputs import MAX_RECORD_BYTES, MAX_RECORD_ENTRIES, decode_text, read_bytes
from ..outputs import write_synced
from .contract import RefereeRules
from .record import RecordError, _leading_comments, load_record, record_text


class JournalChanged(Exception):
    """Another writer changed the journal after we read it: nothing was written."""


class RecordFull(Exception):
    """An entry that would take the record past what any reader reads: nothing was written."""


class Journal:
    """A record on disk that grows an entry at a time. Every change rewrites the whole record to a
    temporary file, syncs it and renames it over the journal, so the file is always a complete,
    valid record. Each write holds a lock on the journal's folder and first checks that the file is
    still the one this journal last read or wrote: two writers never interleave, and an entry made
    against a stale game is refused (JournalChanged), never applied."""

    def __init__(self, path: Path, game: str, header: dict, entries: list, comments: str, digest,
                 display: str | None = None):
        self.path, self.game, self.header = path, game, header
        self.display = str(path) if display is None else display      # its name in messages
        self.entries, self.comments, self._digest = list(entries), comments, digest

    @classmethod
    def open(cls, path: Path, rules: RefereeRules, display: str | None = None):
        """(journal, spec) of an existing record, or RecordError (naming it as `display`)."""
        file = str(path) if display is None else display
        try:
            raw = read_bytes(path, file, MAX_RECORD_BYTES)
            text = decode_text(raw, file)
        except SpecError as exc:
            raise RecordError(str(exc)) from None
        spec = load_record(path, rules, text=text, file=file)
        header = {k: v for k, v in spec.data.items() if k != "entries"}
        journal = cls(path, rules.game, header, spec.data["entries"], _leading_comments(text),
                      hashlib.sha256(raw).digest(), display)
        return journal, spec

    @classmethod
    def create(cls, path: Path, game: str, header: dict, display: str | None = None):
        """A new journal with no entry; refuses to overwrite a file that appeared meanwhile."""
        journal = cls(path, game, header, [], "", None, display)
        journal._write(journal.entries, new=True)
        return journal

    @property
    def digest(self) -> bytes | None:
        """The SHA-256 of the file as this journal last read or wrote it (None: not yet written)."""
        return self._digest

    def append(self, entry) -> None:
        self._write(self.entries + [entry])
        self.entries.append(entry)

    def truncate(self, n: int) -> None:
        self._write(self.entries[:n])
        del self.entries[n:]

    def _write(self, entries: list, new: bool = False) -> None:
        # The limits every reader of a record keeps (`score`, `play --journal`, `pnp serve`), kept
        # by the writer first: a journal it wrote could otherwise never be replayed again.
        if len(entries) > MAX_RECORD_ENTRIES:
            raise RecordFull(f"this record holds the {MAX_RECORD_ENTRIES:,} entries a record may have: "
                             "nothing was written; start a new game")
        text = record_text(self.header, entries, self.game, self.comments)
        data = text.encode("utf-8")
        if len(data) > MAX_RECORD_BYTES:
            raise RecordFull(f"the record would grow past the {MAX_RECORD_BYTES // 2**20} MB a record may have: "
                             "nothing was written; start a new game")
        folder = self.path.parent if str(self.path.parent) else Path(".")
        with _folder_lock(folder):
            try:
                current = hashlib.sha256(read_bytes(self.path, self.display, MAX_RECORD_BYTES)).digest()
            except SpecError:
                current = None if not os.path.lexists(self.path) else b"?"
            if current != self._digest:
                raise JournalChanged(f"{self.display} changed since it was read (another prompt or page wrote "
                                     "to it): nothing was written; type reload to see the game as it is now")
            write_synced(self.path, data, exclusive=new)
        self._digest = hashlib.sha256(data).digest()


@contextmanager
def _folder_lock(folder: Path):
    """An exclusive lock on a folder, held while one journal in it is checked and replaced. The
    lock is on the folder, not the file, because the file is replaced (a new inode) on every write."""
    try:
        import fcntl
    except ImportError:  # not on POSIX: the digest check still catches a stale writer
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)   # closing the descriptor releases the lock


# ---------------------------------------------------------------- the prompt

