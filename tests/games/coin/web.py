"""Coin toss on the table page: nothing to offer but the players (the page types the call)."""
from generator.games.declaration import TablePage

from .position import draw_position



def controls(state, header: dict) -> dict:
    return {"players": list(state.players)}


PAGE = TablePage(controls=controls, draw=draw_position)
