"""Mille Bornes (GB 963,821): the decks (106 cards, and the patent's 112), the card shoe, the referee."""
from __future__ import annotations


from ...build import BuildOptions, DeckArt, add_decks, add_laser_kit, stem_of
from ...outputs import Plan
from ...spec import Spec
from .deck import load_deck
from .faces import draw_back, draw_face
from .referee import REFEREE  # noqa: F401  (the referee the CLI finds here)
from .shoe import load_shoe, shoe_parts

SPECS = ["decks/mille_bornes.yaml", "decks/mille_bornes_1961.yaml", "boards/mille_bornes_shoe.yaml"]
CHECKS = {"mille-bornes-deck": load_deck, "mille-bornes-shoe": load_shoe}


def play_options(parser) -> None:
    parser.add_argument("--players", help="names in seating order, comma-separated")
    parser.add_argument("--teams", help="teams: NAME=A,C;NAME=B,D (partners share a tableau)")
    parser.add_argument("--deck", help="deck spec (default decks/mille_bornes.yaml)")
    parser.add_argument("--short", action="store_true", help="the short game (700 miles)")


def deck_art(spec: Spec) -> DeckArt:
    deck = load_deck(spec)
    stem = stem_of(spec)
    art = DeckArt(stem, deck.title, deck.size, back=draw_back(deck))
    for card in deck.cards:
        art.faces.append((draw_face(card, deck), card.count, f"×{card.count}  {card.name}"))
    return art


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions) -> None:
    decks = [s for s in specs.values() if s.kind == "mille-bornes-deck"]
    add_decks(decks, deck_art, plan, opts)
    for spec in specs.values():
        if spec.kind == "mille-bornes-shoe":
            shoe = load_shoe(spec)
            add_laser_kit(spec, shoe_parts(shoe), shoe.sheet, shoe.kerf, shoe.margin, shoe.spacing,
                          plan.sub("shoe"), "mille-bornes-shoe")
