"""What a Mille Bornes build makes: the rules sheet, each deck's print products and the card shoe's
laser kit."""
from __future__ import annotations

from ...build import BuildOptions, DeckArt, add_decks, add_laser_kit, stem_of
from ...outputs import Plan
from ...spec import Spec
from .deck import load_deck
from .faces import draw_back, draw_face
from .shoe import load_shoe, shoe_parts


def deck_art(spec: Spec) -> DeckArt:
    deck = load_deck(spec)
    art = DeckArt(stem_of(spec), deck.title, deck.size, back=draw_back(deck))
    for card in deck.cards:
        art.faces.append((draw_face(card, deck), card.count, f"×{card.count}  {card.name}"))
    return art


def _tuck_box(spec: Spec, art) -> tuple:
    back = load_deck(spec).back
    return back.colour, back.ink, f"{len(art.expanded())} cards"


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions, part: str | None = None) -> None:
    decks = [s for s in specs.values() if s.kind == "mille-bornes-deck"]
    for art in add_decks(decks, deck_art, plan, opts, box=_tuck_box):
        cards = len(art.expanded())
        # The two decks are alternatives (the published game's 106 cards, the patent's 112): the
        # print list totals each.
        for product in plan.products.values():
            if product.rel.split("/")[-1].startswith(f"{art.stem}-"):
                product.info.setdefault("variant", f"the {cards}-card deck")
    for spec in specs.values():
        if spec.kind == "mille-bornes-rules":
            from ...build import add_rules_sheet
            from .rules_sheet import sheet_game
            add_rules_sheet(spec, sheet_game(spec), plan, opts)
        if spec.kind == "mille-bornes-shoe":
            shoe = load_shoe(spec)
            add_laser_kit(spec, shoe_parts(shoe), shoe.sheet, shoe.kerf, shoe.margin, shoe.spacing,
                          plan.sub("shoe"), "mille-bornes-shoe", what="The card shoe (patent Figs. 25-27)",
                          make="cut; glue the long walls and the partition into the base, bend the living-hinge "
                               "ends round the arched base ends, glue them and their ribs, as "
                               f"shoe-assembly-{opts.paper}.pdf shows",
                          stock={"panels": shoe.material})
            from ...build import add_assembly
            from .shoe_assembly import shoe_assembly
            add_assembly(plan, "shoe", shoe_assembly(shoe, shoe.n_cards), opts,
                         what="The card shoe: how to put it together (parts, steps with drawings, checks)",
                         with_laser=True)
