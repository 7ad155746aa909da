"""Where the project's specs are."""
from __future__ import annotations

from pathlib import Path


def project_root() -> Path:
    """The folder holding decks/ and boards/: the current one if it has them, else the checkout."""
    cwd = Path.cwd()
    if (cwd / "decks").is_dir() or (cwd / "boards").is_dir():
        return cwd
    return Path(__file__).resolve().parent.parent
