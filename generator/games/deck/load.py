"""A `kind: deck` spec loaded: read and checked (model.py), then every card drawn (faces.py), so
that `pnp validate` reports every error, each at its file, line and field, before a build writes
anything. Made once per spec and process: the check and the build share it."""
from __future__ import annotations

from ...inputs import MadeFromFiles
from .faces import draw_deck
from .model import Deck, Problems, read_deck

_decks = MadeFromFiles(size=8)


def load_deck(spec) -> Deck:
    """The deck of a `kind: deck` spec, read, checked and drawn, or SpecErrors naming every
    problem; made again when a file it read has changed."""
    return _decks.get(id(spec), lambda: _load(spec), owner=spec)


def _load(spec) -> Deck:
    spec.notes.clear()          # what this reading finds (a Spec is shared while its bytes are the same)
    problems = Problems()
    deck = read_deck(spec, problems)
    deck.art = draw_deck(deck, problems)
    problems.raise_any()
    return deck
