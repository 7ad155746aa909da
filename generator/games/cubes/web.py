"""Cubes' table page, the server's side: where the grid lies, what stands on each cell, the players'
colours. The page's side is web.js beside this file."""
from __future__ import annotations

from ..declaration import TablePage

from .position import draw_background, draw_foreground, grid, player_colours
from .rules import cell_name


def controls(state, header: dict) -> dict:
    pos = state.position
    pieces: dict = {}
    for cell in pos.cubes:
        pieces[cell_name(cell)] = {"cube": True}
    for pid, (player, cell) in pos.pawns.items():
        pieces.setdefault(cell_name(cell), {})["pawn"] = player
    for player, cell in pos.kings.items():
        pieces.setdefault(cell_name(cell), {})["king"] = player
    colours = [c.hex() for c in player_colours(len(state.players))]
    return {"grid": grid(state), "players": list(state.players), "to_move": state.to_move, "pieces": pieces,
            "colours": colours, "player_colours": dict(zip(state.players, colours))}


PAGE = TablePage(controls=controls, draw=draw_foreground, background=draw_background)
