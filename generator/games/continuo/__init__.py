"""Continuo and Count continuo: the 42 tiles, the rules and example cards, and the referee."""
from __future__ import annotations

from pathlib import Path

from ...build import BuildOptions, DeckArt, write_deck
from ...spec import Spec
from .deck import load_deck
from .faces import draw_back, draw_example, draw_rules, draw_tile

SPECS = ["decks/continuo.yaml"]
CHECKS = {"continuo-deck": load_deck}


def deck_art(spec: Spec) -> DeckArt:
    deck = load_deck(spec)
    art = DeckArt(Path(spec.file).stem, deck.title, deck.size, back=draw_back(deck))
    for i, tile in enumerate(deck.tiles, 1):
        art.faces.append((draw_tile(deck, i, tile), 1, f"{i}"))
    # The patent's extra pieces, "not used in play": the rules, and a pictorial scoring example.
    art.faces.append((draw_rules(deck), 1, "rules"))
    if deck.example:
        art.faces.append((draw_example(deck), 1, "scoring example"))
    return art


def build(specs: dict[str, Spec], out_dir: Path, opts: BuildOptions) -> list[Path]:
    written = []
    for spec in specs.values():
        written += write_deck(deck_art(spec), out_dir, opts)
    return written
