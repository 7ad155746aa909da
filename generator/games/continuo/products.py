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
    art = DeckArt(stem_of(spec), deck.title, deck.size, back=draw_back(deck), backs=[])
    for i, tile in enumerate(deck.tiles, 1):
        art.faces.append((draw_tile(deck, i, tile), 1, f"{i}"))
        art.backs.append((draw_back(deck, i), f"back of {i}"))      # the tile's number, on its back
    # The patent's extra pieces, "not used in play": the rules, and a pictorial scoring example.
    art.faces.append((draw_rules(deck), 1, "rules"))
    art.backs.append((art.back, "back"))
    if deck.example:
        art.faces.append((draw_example(deck), 1, "scoring example"))
        art.backs.append((art.back, "back"))
    # The tiles' backs differ only by their numbers: the contact sheet shows one, and the plain back.
    art.contact_backs = [(art.backs[0][0], "a tile's back (1)"), (art.back, "back")]
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
