"""What Continuo holds: the rules sheet, and the tiles as a deck with the rules and scoring-example
cards."""
from __future__ import annotations

from ...paper import Paper
from ...products.contents import BoxLook, Deck, DeckArt, RulesSheet, stem_of
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


def contents(specs: dict[str, Spec], paper: Paper, part: str | None = None) -> list:
    out = []
    for spec in specs.values():
        if spec.kind == "continuo-deck":
            deck = load_deck(spec)
            holds = f"{len(deck.tiles)} tiles, the rules card" + (" and the scoring example" if deck.example else "")
            out.append(Deck(spec, deck_art(spec), BoxLook(deck.back["colour"], deck.back["ink"], holds)))
    for spec in specs.values():
        if spec.kind == "continuo-rules":
            from .rules_sheet import sheet_game
            out.append(RulesSheet(spec, sheet_game(spec)))
    return out
