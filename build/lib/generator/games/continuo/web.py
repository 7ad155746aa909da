"""Continuo's table page, the server's side: what the page offers to tap (the tiles, whether this is
an opening tile, where the grid lies in the drawing) and its hint, `best TILE` (the prompt's own).
The page's side is web.js beside this file."""
from __future__ import annotations

from ..declaration import TablePage

from .position import draw_position, grid
from .referee import best_listing, parse_tile

MAX_PLACES = 60


def controls(state, header: dict) -> dict:
    return {"grid": grid(state).as_json(), "opening": not state.opening_done,
            "colours": {k: c.colour.hex() for k, c in state.deck.colours.items()},
            "numbers": state.numbers,
            "tiles": [{"number": i, "rows": list(tile), "used": i in state.used}
                      for i, tile in enumerate(state.deck.tiles, 1)]}


def best(state, header: dict, arg: str) -> dict:
    """The prompt's `best` (it refuses a used tile), and the placements it ranked."""
    text, ranked = best_listing(state, parse_tile(arg.strip()), 10)
    return {"text": text, "placements": [{"score": s, "at": [r, c], "rotation": rot}
                                         for s, r, c, rot in ranked[:MAX_PLACES]]}


PAGE = TablePage(controls=controls, draw=draw_position, hints={"best": best})
