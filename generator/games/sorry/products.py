"""What Sorry holds: the rules sheet, the pack (with its tuck box), the boards and the men."""
from __future__ import annotations

from ...paper import Paper
from ...products.contents import Board, BoxLook, Deck, RulesSheet, stem_of
from ...spec import Spec
from .deck import deck_art, load_deck


def contents(specs: dict[str, Spec], paper: Paper, part: str | None = None) -> list:
    out = []
    for spec in specs.values():
        if spec.kind == "sorry-deck":
            back = load_deck(spec).back
            out.append(Deck(spec, deck_art(spec), BoxLook(back["colour"], back["ink"])))
    for spec in specs.values():
        if spec.kind == "sorry-rules":
            from .rules_sheet import sheet_game
            out.append(RulesSheet(spec, sheet_game(spec)))
        if spec.kind == "sorry-board":
            from .board import draw_board, load_geometry
            g = load_geometry(spec)
            per_side = len(g.slides) // len(g.sides)
            # The classic board and the patent's (one slide a side) are alternatives: the print
            # list totals each.
            variant = "the patent's board (one slide a side)" if per_side == 1 else \
                f"the classic board ({per_side} slides a side)"
            title = f"{spec.data['title']} board" + (", the patent's" if per_side == 1 else "")
            out.append(Board(spec, draw_board(spec), f"{stem_of(spec)}-board", title, variant=variant))
            if "men" in spec.data:          # the men fit either board: made once, with the board that sizes them
                from .pieces import men_contents
                out += men_contents(spec, paper)
    return out
