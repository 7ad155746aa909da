"""What a table page needs besides the referee's summary: the position drawing and where its cells
lie, and per game what the tap entry offers (Continuo's tiles, Mille Bornes' cards, Cubes' pieces,
Capitals' cards), and the hints (`best`, `moves`, a card's walls).

Every fact here is read off the referee's state or its deck; every legal move offered is one the
referee itself lists (Continuo's ranked_placements, Sorry's legal_moves) or accepts (Capitals'
walls are tried through the game's apply). Nothing decides a rule."""
from __future__ import annotations

import gzip
import hashlib
import importlib
import string

from ..draw.svg import svg_string
from ..errors import show
from ..inputs import MadeFromFiles
from ..referee.contract import Refused, entry_summary
from .store import BadRequest, Table

MAX_HINTS = 60


def position_module(game: str):
    package = {"count-continuo": "continuo"}.get(game, game).replace("-", "_")
    return importlib.import_module(f"generator.games.{package}.position")


def position_drawing(t: Table):
    """What position.svg shows: the whole position, or, for a game whose drawing has a background no
    turn changes (the Capitals map), only what the turns made, laid over background.svg."""
    if "drawing" not in t.cache:
        before = t.history[-1] if t.history else None
        module = position_module(t.game)
        draw = module.draw_foreground if hasattr(module, "draw_background") else module.draw_position
        t.cache["drawing"] = draw(t.state, t.header, before)
    return t.cache["drawing"]


def position_svg(t: Table) -> str:
    if "svg" not in t.cache:
        t.cache["svg"] = svg_string(position_drawing(t))
    return t.cache["svg"]


def compressed(cache: dict, key: str, text: str) -> bytes:
    """text gzipped (no time in the header: the same text gives the same bytes), made once."""
    if key not in cache:
        cache[key] = gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)
    return cache[key]


_BACKGROUNDS = MadeFromFiles(size=8)   # (game, header's board) -> (version, svg), while its specs are unchanged


def background_svg(t: Table) -> tuple[str, str] | None:
    """(version, SVG) of the position's background, or None for a game drawn whole each time. The
    version changes with the drawing (a board spec edited while the server runs draws it again)."""
    module = position_module(t.game)
    if not hasattr(module, "draw_background"):
        return None

    def make():
        svg = svg_string(module.draw_background(t.header))
        return hashlib.sha256(svg.encode()).hexdigest()[:16], svg
    return _BACKGROUNDS.get((t.game, str(t.header.get("board", ""))), make)


def table_json(t: Table) -> dict:
    """Everything the table page shows and offers, after the record's last entry."""
    rules, state = t.rules, t.state
    d = position_drawing(t)
    summary = rules.summary(state, list(t.reports))
    return {"id": t.id, "game": t.game, "header": t.header, "entries": t.entries, "version": t.version,
            "prompt": rules.prompt(state), "final": rules.final_text(state), "text": rules.render(state, False),
            "log": [r.text for r in t.reports[-12:]], "summary": summary, "help": rules.help_text,
            # what Undo would take back, said on the page before it is tapped
            "last": {"number": t.entries, "text": entry_summary(t.reports[-1])} if t.reports else None,
            "over": t.over,
            "drawing": {"width": d.width, "height": d.height},
            "background": _background_url(t),
            "controls": CONTROLS[_family(t.game)](t)}


def _background_url(t: Table) -> str | None:
    found = background_svg(t)
    if found is None:
        return None
    return f"/api/records/{t.id}/background.svg?v={found[0]}"


def _family(game: str) -> str:
    return "continuo" if game == "count-continuo" else game


# ---------------------------------------------------------------- per game

def _continuo(t: Table) -> dict:
    from ..games.continuo.position import grid
    s = t.state
    return {"grid": grid(s).as_json(), "opening": not s.opening_done,
            "colours": {k: c.colour.hex() for k, c in s.deck.colours.items()},
            "numbers": s.numbers,
            "tiles": [{"number": i, "rows": list(tile), "used": i in s.used} for i, tile in enumerate(s.deck.tiles, 1)]}


def _sorry(t: Table) -> dict:
    from ..games.sorry.position import _board, board_spec_path
    from ..games.sorry.rules import CARDS
    _, _, colours = _board(str(board_spec_path(t.header)))
    s = t.state
    return {"cards": list(CARDS), "to_move": s.players[s.to_move], "players": list(s.players),
            "colours": {k: v.hex() for k, v in colours.items()},
            "player_colours": {p: colours[p].hex() for p in s.players if p in colours}}


def _mille_bornes(t: Table) -> dict:
    s = t.state
    cards = [{"id": c.id, "index": c.index, "name": c.name, "category": c.category.key,
              "colour": c.category.colour.hex(), "ink": c.category.ink.hex(), "panel": c.category.panel.hex()}
             for c in s.deck.cards]
    hand = s.hand
    seat = s.seats[hand.to_move] if hand is not None else s.seats[s.hands_played % len(s.seats)]
    from ..games.mille_bornes.referee import pile_left
    from ..games.mille_bornes.rules import DEALT
    left = pile_left(s, hand) if hand is not None else s.facts.size - DEALT * len(s.seats)
    return {"seats": list(s.seats), "teams": list(s.teams), "team_of": dict(s.team_of), "to_move": seat,
            "cards": cards, "pile_empty": bool(hand and hand.pile_empty), "in_hand": hand is not None,
            "pile_left": left}


def _cubes(t: Table) -> dict:
    from ..games.cubes.position import grid, player_colours
    from ..games.cubes.rules import cell_name
    s = t.state
    pos = s.position
    pieces = {}
    for cell in pos.cubes:
        pieces[cell_name(cell)] = {"cube": True}
    for pid, (player, cell) in pos.pawns.items():
        pieces.setdefault(cell_name(cell), {})["pawn"] = player
    for player, cell in pos.kings.items():
        pieces.setdefault(cell_name(cell), {})["king"] = player
    colours = [c.hex() for c in player_colours(len(s.players))]
    return {"grid": grid(s), "players": list(s.players), "to_move": s.to_move, "pieces": pieces,
            "colours": colours, "player_colours": dict(zip(s.players, colours))}


def _capitals(t: Table) -> dict:
    from ..games.capitals.position import grid, player_colour
    pos = t.state
    owners = pos.owners()
    cards = [{"name": c.name, "capital": c.capital, "square": f"{string.ascii_uppercase[c.square[0]]}-{c.square[1] + 1}",
              "row": c.square[0], "col": c.square[1], "letters": c.letters, "special": bool(c.special),
              "played": c.name.lower() in pos.played, "enclosed": c.square in owners}
             for c in sorted(pos.board.cards.values(), key=lambda c: c.name)]
    return {"grid": grid(pos, t.header), "players": list(pos.players), "to_move": pos.to_move,
            "first_round": pos.turn < len(pos.players), "cards": cards,
            "colours": [player_colour(i).hex() for i in range(len(pos.players))],
            "player_colours": {p: player_colour(i).hex() for i, p in enumerate(pos.players)}}


CONTROLS = {"continuo": _continuo, "sorry": _sorry, "mille-bornes": _mille_bornes, "cubes": _cubes,
            "capitals": _capitals}


# ---------------------------------------------------------------- hints

def hint(t: Table, kind: str, arg: str) -> dict:
    """`best TILE` (Continuo), `moves CARD` (Sorry), `walls CARD` (Capitals): the referee's own
    lists. Refused (the same line as at the prompt) for a tile or card it refuses."""
    family = _family(t.game)
    try:
        if kind == "best" and family == "continuo":
            return _best(t, arg)
        if kind == "moves" and family == "sorry":
            return _moves(t, arg)
        if kind == "walls" and family == "capitals":
            return _walls(t, arg)
    except (ValueError, Refused) as exc:
        text = f"refused ({exc.rule}): {exc.message}" if isinstance(exc, Refused) else str(exc)
        raise BadRequest(text) from None
    raise BadRequest(f"no hint {show(kind)} for {t.game}")


def _best(t: Table, arg: str) -> dict:
    from ..games.continuo.referee import best_listing, parse_tile
    # The prompt's `best` (it refuses a used tile), and the placements it ranked.
    text, ranked = best_listing(t.state, parse_tile(arg.strip()), 10)
    return {"text": text, "placements": [{"score": s, "at": [r, c], "rotation": rot}
                                         for s, r, c, rot in ranked[:MAX_HINTS]]}


def _moves(t: Table, arg: str) -> dict:
    from ..games.sorry.referee import moves_text
    s = t.state
    card = arg.strip().lower()
    found = moves_text(s, card)
    return {"player": s.players[s.to_move], "card": card,
            "moves": [{"move": m["move"], "does": m["does"], "entry": f"{card} {m['move']}"} for m in found]}


def _walls(t: Table, arg: str) -> dict:
    """The walls a card may lay this turn: every wall along a side of its square (the card's
    length), kept when the referee accepts it as this turn's whole entry."""
    from ..games.capitals.rules import point_name
    pos = t.state
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
    walls = []
    player = pos.players[pos.to_move]
    for row, col, d in candidates:
        if not (0 <= row <= pos.board.rows and 0 <= col <= pos.board.columns):
            continue
        wall = f"{point_name(row, col)}{d}{n}"
        try:
            t.rules.apply(pos, {"player": player, "play": [{"card": card.name, "wall": wall}]})
        except Refused:
            continue
        walls.append({"wall": wall, "from": [row, col], "to": [row + (n if d == "S" else 0), col + (n if d == "E" else 0)]})
    return {"card": card.name, "walls": walls}
