"""Errors a user can act on: one line, naming the file, the line and the field."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SpecError(Exception):
    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.message}"


class UsageError(Exception):
    """A bad command-line argument (exit code 2, like argparse)."""
