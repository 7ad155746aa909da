"""What Mille Bornes holds: the rules sheet, each deck (with its tuck box), and the card shoe's
laser kit with its assembly sheet."""
from __future__ import annotations

from ...paper import Paper
from ...products.contents import AssemblySheet, BoxLook, Deck, DeckArt, Kit, RulesSheet, stem_of
from ...spec import Spec
from .deck import load_deck
from .faces import draw_back, draw_face


def deck_art(spec: Spec) -> DeckArt:
    deck = load_deck(spec)
    art = DeckArt(stem_of(spec), deck.title, deck.size, back=draw_back(deck))
    for card in deck.cards:
        art.faces.append((draw_face(card, deck), card.count, f"×{card.count}  {card.name}"))
    return art


def contents(specs: dict[str, Spec], paper: Paper, part: str | None = None) -> list:
    out = []
    for spec in specs.values():
        if spec.kind == "mille-bornes-deck":
            art = deck_art(spec)
            back = load_deck(spec).back
            cards = len(art.expanded())
            # The two decks are alternatives (the published game's 106 cards, the patent's 112): the
            # print list totals each.
            out.append(Deck(spec, art, BoxLook(back.colour, back.ink),
                            variant=f"the {cards}-card deck"))
    for spec in specs.values():
        if spec.kind == "mille-bornes-rules":
            from .rules_sheet import sheet_game
            out.append(RulesSheet(spec, sheet_game(spec)))
        if spec.kind == "mille-bornes-shoe":
            from .shoe import load_shoe, shoe_parts
            from .shoe_assembly import shoe_assembly
            shoe = load_shoe(spec)
            out.append(Kit(spec, shoe_parts(shoe), shoe.sheet, shoe.kerf, shoe.margin, shoe.spacing,
                           "mille-bornes-shoe", folder="shoe", what="The card shoe (patent Figs. 25-27)",
                           make="cut; glue the long walls and the partition into the base, bend the living-hinge "
                                "ends round the arched base ends, glue them and their ribs, as "
                                f"shoe-assembly-{paper.name}.pdf shows",
                           stock={"panels": shoe.material}))
            out.append(AssemblySheet(spec, "shoe", shoe_assembly(shoe, shoe.n_cards),
                                     what="The card shoe: how to put it together (parts, steps with drawings, "
                                          "checks)", with_laser=True))
    return out
