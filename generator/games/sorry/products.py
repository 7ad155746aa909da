"""What a Sorry build makes: the rules sheet, the pack's print products and the board's."""
from __future__ import annotations

from ...build import BuildOptions, add_board, add_decks, stem_of
from ...layout.tuckbox import BoxArt, add_tuck_box
from ...outputs import Plan
from ...spec import Spec
from .board import draw_board
from .deck import deck_art, load_deck
from .pieces import add_men


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions, part: str | None = None) -> None:
    decks = [s for s in specs.values() if s.kind == "sorry-deck"]
    for spec, art in zip(decks, add_decks(decks, deck_art, plan, opts)):
        deck = load_deck(spec)
        cards = len(art.expanded())
        add_tuck_box(spec, BoxArt(art.stem, art.title, art.size, cards, art.back, deck.back["colour"],
                                  deck.back["ink"], f"{cards} cards"), plan, opts)
    for spec in specs.values():
        if spec.kind == "sorry-rules":
            from ...layout.rules_sheet import add_rules_sheet
            from .rules_sheet import sheet_game
            add_rules_sheet(spec, sheet_game(spec), plan, opts)
        if spec.kind == "sorry-board":
            add_board(draw_board(spec), plan, f"{stem_of(spec)}-board", f"{spec.data['title']} board", opts)
            add_men(spec, plan, opts)
