"""Mille Bornes' table page, the server's side: the seats and teams, the deck's cards by category
(with their colours), whose turn it is and how many cards the referee counts in the draw pile.
The page's side is web.js beside this file."""
from __future__ import annotations

from ..declaration import TablePage

from .position import draw_position
from .referee import pile_left
from .rules import DEALT


def controls(state, header: dict) -> dict:
    cards = [{"id": c.id, "index": c.index, "name": c.name, "category": c.category.key,
              "colour": c.category.colour.hex(), "ink": c.category.ink.hex(), "panel": c.category.panel.hex()}
             for c in state.deck.cards]
    hand = state.hand
    seat = state.seats[hand.to_move] if hand is not None else state.seats[state.hands_played % len(state.seats)]
    left = pile_left(state, hand) if hand is not None else state.facts.size - DEALT * len(state.seats)
    return {"seats": list(state.seats), "teams": list(state.teams), "team_of": dict(state.team_of), "to_move": seat,
            "cards": cards, "pile_empty": bool(hand and hand.pile_empty), "in_hand": hand is not None,
            "pile_left": left}


PAGE = TablePage(controls=controls, draw=draw_position)
