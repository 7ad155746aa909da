"""Capitals' table page, the server's side: the pack (each card's square and length, whether it is
played or walled off), the grid in the drawing, the players' colours, and its hint, `walls CARD`:
the walls along the card's square that the referee accepts as this turn's whole entry. The page's
side is web.js beside this file."""
from __future__ import annotations

from ..declaration import TablePage

import string

from ...referee.contract import Refused
from .position import draw_background, draw_foreground, grid, player_colour
from .referee import apply
from .rules import point_name


def controls(state, header: dict) -> dict:
    pos = state
    owners = pos.owners()
    cards = [{"name": c.name, "capital": c.capital, "square": f"{string.ascii_uppercase[c.square[0]]}-{c.square[1] + 1}",
              "row": c.square[0], "col": c.square[1], "letters": c.letters, "special": bool(c.special),
              "played": c.name.lower() in pos.played, "enclosed": c.square in owners}
             for c in sorted(pos.board.cards.values(), key=lambda c: c.name)]
    return {"grid": grid(pos, header), "players": list(pos.players), "to_move": pos.to_move,
            "first_round": pos.turn < len(pos.players), "cards": cards,
            "colours": [player_colour(i).hex() for i in range(len(pos.players))],
            "player_colours": {p: player_colour(i).hex() for i, p in enumerate(pos.players)}}


def walls(state, header: dict, arg: str) -> dict:
    """Every wall along a side of the card's square (the card's length), kept where the referee
    accepts it as this turn's whole entry."""
    pos = state
    card = pos.board.card(arg)
    if card.special:
        return {"card": card.name, "walls": [], "note": f"{card.name} is a special card: tap its walls' ends, "
                                                        "or type them"}
    r, c = card.square
    n = card.letters
    candidates = []
    for row in (r, r + 1):                       # along the top or bottom side
        for c0 in range(c - n + 1, c + 1):
            candidates.append((row, c0, "E"))
    for col in (c, c + 1):                       # along the left or right side
        for r0 in range(r - n + 1, r + 1):
            candidates.append((r0, col, "S"))
    found = []
    player = pos.players[pos.to_move]
    for row, col, d in candidates:
        if not (0 <= row <= pos.board.rows and 0 <= col <= pos.board.columns):
            continue
        wall = f"{point_name(row, col)}{d}{n}"
        try:
            apply(pos, {"player": player, "play": [{"card": card.name, "wall": wall}]})
        except Refused:
            continue
        found.append({"wall": wall, "from": [row, col], "to": [row + (n if d == "S" else 0), col + (n if d == "E" else 0)]})
    return {"card": card.name, "walls": found}


PAGE = TablePage(controls=controls, draw=draw_foreground, background=draw_background, hints={"walls": walls})
