"""What a Continuo build makes: the rules sheet, and the tiles as a deck with the rules and
scoring-example cards."""
from __future__ import annotations

from ...build import BuildOptions, DeckArt, add_decks, stem_of
from ...outputs import Plan
from ...spec import Spec
from .deck import load_deck
from .faces import draw_back, draw_example, draw_rules, draw_tile


def deck_art(spec: Spec) -> DeckArt:
    deck = load_deck(spec)
    # One back for every card: a back that differed (the tile's number on it) would tell the
    # next tile of the face-down pile.
    art = DeckArt(stem_of(spec), deck.title, deck.size, back=draw_back(deck))
    for i, tile in enumerate(deck.tiles, 1):
        art.faces.append((draw_tile(deck, i, tile), 1, f"{i}"))
    # The patent's extra pieces, "not used in play": the rules, and a pictorial scoring example.
    art.faces.append((draw_rules(deck), 1, "rules"))
    if deck.example:
        art.faces.append((draw_example(deck), 1, "scoring example"))
    return art


def _tuck_box(spec: Spec, art) -> tuple:
    deck = load_deck(spec)
    contents = f"{len(deck.tiles)} tiles, the rules card" + (" and the scoring example" if deck.example else "")
    return deck.back["colour"], deck.back["ink"], contents


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions, part: str | None = None) -> None:
    decks = [s for s in specs.values() if s.kind == "continuo-deck"]
    add_decks(decks, deck_art, plan, opts, box=_tuck_box)
    for spec in specs.values():
        if spec.kind == "continuo-rules":
            from ...build import add_rules_sheet
            from .rules_sheet import sheet_game
            add_rules_sheet(spec, sheet_game(spec), plan, opts)
