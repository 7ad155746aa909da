"""A `kind: deck` spec loaded: read and checked (model.py), then every card drawn (faces.py), so
that `pnp validate` reports every error, each at its file, line and field, before a build writes
anything. Made once per spec and process: the check and the build share it."""
from __future__ import annotations

import copy

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
    if deck.drawable():
        deck.art = draw_deck(deck, problems)
    problems.raise_any()
    return deck


# ---------------------------------------------------------------- beyond the schema's errors

# Keys whose value, if the schema refused it, leaves the deck without what its other checks need.
_PLACEHOLDERS = {"title": "deck", "card": {"width": 63, "height": 88, "bleed": 3}}


def check_beyond_schema(file: str, data, lines: dict, path, error_paths: list[tuple]) -> list:
    """The deck's own errors (its files, its CSV's rows, its layouts, every card drawn) in a spec the
    schema refused, from what the schema passed: each refused part is left out of the checks and
    all that depends on it (an element refused is not drawn; a font, icon or palette colour refused
    stands in for itself, so the text and elements that use it raise nothing of their own). What
    cannot be checked without a refused part (the layouts themselves) checks nothing more."""
    from ...spec.loader import Spec, SpecErrors
    if not isinstance(data, dict) or not isinstance(data.get("layouts"), dict):
        return []
    data = copy.deepcopy(data)
    pruned: set = set()
    for where in sorted(set(error_paths), key=len):
        if not _prune(data, where, pruned):
            return []
    spec = Spec(file, data, lines, path=path)
    spec.pruned = pruned
    try:
        _load(spec)
    except SpecErrors as exc:
        return exc.errors[:-1] if exc.errors[-1].line is None and "more errors" in exc.errors[-1].message \
            else exc.errors
    return []


def _prune(data: dict, where: tuple, pruned: set) -> bool:
    """Leave the part of the spec at `where` (an error's path) out of the deck's checks: False if
    what is left cannot be checked."""
    if not where:
        return False
    top = where[0]
    if top == "layouts":
        layouts = data.get("layouts")
        if len(where) == 1 or not isinstance(layouts, dict):
            return False
        name = where[1]
        layout = layouts.get(name)
        if not isinstance(layout, dict):
            layouts[name] = {"x-broken": True}
        elif len(where) >= 4 and where[2] == "elements" and isinstance(layout.get("elements"), list) \
                and isinstance(where[3], int) and where[3] < len(layout["elements"]):
            el = layout["elements"][where[3]]
            eid = el.get("id") if isinstance(el, dict) and isinstance(el.get("id"), str) else None
            layout["elements"][where[3]] = {"x-broken": True, **({"id": eid} if eid else {})}
        elif len(where) >= 3:
            if where[2] == "elements":
                layout["x-broken"] = True
            layout.pop(where[2], None)
        else:
            layouts[name] = {"x-broken": True}
        return True
    if top == "cards":
        cards = data.get("cards")
        if len(where) >= 3 and isinstance(cards, list) and isinstance(where[1], int) and where[1] < len(cards) \
                and isinstance(cards[where[1]], dict):
            cards[where[1]].pop(where[2], None)
        elif len(where) >= 2 and isinstance(cards, list) and isinstance(where[1], int) and where[1] < len(cards):
            cards[where[1]] = {"x-broken": True}
        else:
            data.pop("cards", None)
            pruned.add(("cards",))
        return True
    if top in ("fonts", "icons", "palette"):
        group = data.get(top)
        if len(where) >= 2 and isinstance(group, dict):
            group.pop(where[1], None)
            pruned.add((top, where[1]))
        else:
            data.pop(top, None)
            pruned.add((top,))
        return True
    if top in ("csv", "data", "sheet", "csv_delimiter"):
        data.pop(top, None)
        pruned.add(("cards",))
        return True
    if top in ("layout", "back"):
        data.pop(top, None)
        pruned.add((top,))
        return True
    if top in _PLACEHOLDERS:
        data[top] = copy.deepcopy(_PLACEHOLDERS[top])
        return True
    if top == "kind":
        return False
    data.pop(top, None)
    return True
