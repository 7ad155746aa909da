"""Continuo and Count continuo: the 42 tiles, the rules and example cards, and the referee."""
from __future__ import annotations


from ...build import BuildOptions, DeckArt, add_decks, stem_of
from ...outputs import Plan
from ...spec import Spec
from .deck import load_deck
from .faces import draw_back, draw_example, draw_rules, draw_tile
from ...referee.session import Refused, record_command
from .referee import best_text, make_rules, parse_tile

REFEREE = make_rules("continuo")

SPECS = ["decks/continuo.yaml"]
CHECKS = {"continuo-deck": load_deck}


def deck_art(spec: Spec) -> DeckArt:
    deck = load_deck(spec)
    art = DeckArt(stem_of(spec), deck.title, deck.size, back=draw_back(deck))
    for i, tile in enumerate(deck.tiles, 1):
        art.faces.append((draw_tile(deck, i, tile), 1, f"{i}"))
    # The patent's extra pieces, "not used in play": the rules, and a pictorial scoring example.
    art.faces.append((draw_rules(deck), 1, "rules"))
    if deck.example:
        art.faces.append((draw_example(deck), 1, "scoring example"))
    return art


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions) -> None:
    add_decks(specs.values(), deck_art, plan, opts)


def play_options(parser, variants: bool = True) -> None:
    parser.add_argument("--players", help="names, comma-separated (a new game; default two players)")
    if variants:   # count-continuo is always Count continuo: its game id decides
        parser.add_argument("--variant", choices=["continuo", "count-continuo"], default="continuo")
    parser.add_argument("--openings", type=int, help="unscored opening tiles (default 2, or 3 for three players)")


def referee_commands(sub, rules=None) -> dict:
    """`best RECORD TILE`: every legal placement of TILE after RECORD, best first."""
    b = sub.add_parser("best", help="rank every legal placement of a tile after a record")
    b.add_argument("record")
    b.add_argument("tile", help="a tile number, or four rows like RRGG/RRGG/BBYY/BBYY")
    b.add_argument("--top", type=int, default=10)

    def best(state, args) -> int:
        try:
            tile = parse_tile(args.tile)
        except ValueError as exc:
            raise Refused("tile", str(exc)) from None
        print(best_text(state, tile, args.top))
        return 0
    return {"best": record_command(rules or REFEREE, best)}
