"""Coin toss on the table page: nothing to offer but the players (the page types the call)."""


def controls(state, header: dict) -> dict:
    return {"players": list(state.players)}


HINTS: dict = {}
