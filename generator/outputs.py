"""Writing outputs so that nothing is half-written: a temporary name, then an atomic rename."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(final: str | Path):
    """Yield a temporary path beside `final`; rename it onto `final` only if the block succeeds."""
    final = Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".part", dir=final.parent)
    os.close(fd)
    # mkstemp makes the file private; give it the mode any other new file would get.
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    try:
        yield tmp
        os.replace(tmp, final)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_bytes(final: str | Path, data: bytes) -> Path:
    with atomic_path(final) as tmp:
        Path(tmp).write_bytes(data)
    return Path(final)


def write_text(final: str | Path, text: str) -> Path:
    return write_bytes(final, text.encode("utf-8"))
