"""What a Sorry build makes: the rules sheet, the pack's print products and the board's."""
from __future__ import annotations

from ...build import BuildOptions, add_board, add_decks, stem_of
from ...outputs import Plan
from ...spec import Spec
from .board import draw_board
from .deck import deck_art, load_deck
from .pieces import add_men


def _tuck_box(spec: Spec, art) -> tuple:
    back = load_deck(spec).back
    return back["colour"], back["ink"], f"{len(art.expanded())} cards"


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions, part: str | None = None) -> None:
    decks = [s for s in specs.values() if s.kind == "sorry-deck"]
    add_decks(decks, deck_art, plan, opts, box=_tuck_box)
    for spec in specs.values():
        if spec.kind == "sorry-rules":
            from ...build import add_rules_sheet
            from .rules_sheet import sheet_game
            add_rules_sheet(spec, sheet_game(spec), plan, opts)
        if spec.kind == "sorry-board":
            from .board import load_geometry
            g = load_geometry(spec)
            per_side = len(g.slides) // len(g.sides)
            # The classic board and the patent's (one slide a side) are alternatives: the print
            # list totals each.
            variant = "the patent's board (one slide a side)" if per_side == 1 else \
                f"the classic board ({per_side} slides a side)"
            before = set(plan.products)
            title = f"{spec.data['title']} board" + (", the patent's" if per_side == 1 else "")
            add_board(draw_board(spec), plan, f"{stem_of(spec)}-board", title, opts)
            for rel in set(plan.products) - before:
                plan.products[rel].info.setdefault("variant", variant)
            if "men" in spec.data:          # the men fit either board: made once, with the board that sizes them
                add_men(spec, plan, opts)
