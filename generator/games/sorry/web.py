"""Sorry's table page, the server's side: the cards to turn up, the colours, and its hint, `moves
CARD` (every move the referee would accept with it, as the prompt's `moves` lists them). The page's
side is web.js beside this file."""
from __future__ import annotations

from ..declaration import TablePage

from .position import board_colours, draw_background, draw_foreground
from .referee import moves_text
from .rules import CARDS


def controls(state, header: dict) -> dict:
    colours = board_colours(header)
    return {"cards": list(CARDS), "to_move": state.players[state.to_move], "players": list(state.players),
            "colours": {k: v.hex() for k, v in colours.items()},
            "player_colours": {p: colours[p].hex() for p in state.players if p in colours}}


def moves(state, header: dict, arg: str) -> dict:
    card = arg.strip().lower()
    found = moves_text(state, card)
    return {"player": state.players[state.to_move], "card": card,
            "moves": [{"move": m["move"], "does": m["does"], "entry": f"{card} {m['move']}"} for m in found]}


PAGE = TablePage(controls=controls, draw=draw_foreground, background=draw_background, hints={"moves": moves})
