"""Sorry (US 1,903,661): the 44 cards, the board, and the move referee."""
from __future__ import annotations

from pathlib import Path

from ...build import BuildOptions, write_deck
from ...spec import Spec
from .deck import deck_art, load_deck

SPECS = ["decks/sorry.yaml"]
CHECKS = {"sorry-deck": load_deck}


def build(specs: dict[str, Spec], out_dir: Path, opts: BuildOptions) -> list[Path]:
    written = []
    for spec in specs.values():
        if spec.kind == "sorry-deck":
            written += write_deck(deck_art(spec), out_dir, opts)
    return written
