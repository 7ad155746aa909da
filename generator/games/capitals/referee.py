"""The Capitals referee: walls laid card by card, enclosures found and credited, the score.

Record (YAML):
    game: capitals
    players: [Ann, Bob]
    variant: most-capitals        # fewest-capitals, most-population, least-population
    entries:
      - {player: Ann, play: [{card: Belgium, wall: D22E8}]}
      - {player: Bob, play: [{card: Netherlands, wall: D22S9}, {card: France, wall: E22S5}]}
      - {player: Ann, play: [{card: Vatican City, wall: [F10E5, F10S7]}]}
      - {player: Bob, pass: true}
      - end: {Ann: [Chile], Bob: []}      # the cards left in each hand when play stops
A card is named by its country (or its capital). At the prompt: `Belgium D22E8; France E22S5`,
`Vatican City F10E5 F10S7`, `pass`, `end Ann: Chile, Peru; Bob:`.
"""
from __future__ import annotations

import string
from pathlib import Path

from ...errors import SpecError, plural
from ...inputs import MadeFromFiles
from ...referee.contract import RefereeRules, Refused, TurnReport, names, record_reference
from ...spec import load_spec
from .data import load_board
from .rules import (WALL_RE, Board, Card, Closed, Nested, Position, end_game, pass_turn, play_turn, points,
                    totals, winner)

BOARD = "boards/capitals_world_map.yaml"


_BOARDS = MadeFromFiles(size=4)


def _board(path: str) -> Board:
    """The referee's board, made once while its files (map, deck) are unchanged: `pnp serve`
    asks for it at every entry, and sees a spec edited while it runs."""
    return _BOARDS.get(path, lambda: _make_board(path))


def _make_board(path: str) -> Board:
    wm = load_board(load_spec(Path(path)), land=False)
    cards = {c.name.lower(): Card(c.name, c.capital, c.square, c.letters, c.bracket, c.special)
             for c in wm.deck.countries}
    sites = {sq: tuple(c.name for c in cs) for sq, cs in wm.sites.items()}
    return Board(wm.projection.rows, wm.projection.columns, cards, sites)


def board_for(header: dict, record_path: Path | None) -> Board:
    path = record_reference(header, "board", BOARD, ("capitals-board",))
    try:
        return _board(str(path))
    except SpecError as exc:
        raise Refused("board", str(exc)) from None


def new_game(header: dict, record_path: Path | None) -> Position:
    players = tuple(header.get("players") or ())
    if len(players) < 1:
        raise Refused("players", "name the players, e.g. players: [Ann, Bob]")
    if len(set(players)) != len(players):
        raise Refused("players", "each player needs their own name")
    variant = header.get("variant", "most-capitals")
    return Position(board_for(header, record_path), players, variant)


def _walls_of(play: dict) -> list[str]:
    w = play.get("wall")
    return [str(x) for x in w] if isinstance(w, list) else [str(w)]


def apply(pos: Position, entry: dict) -> tuple[Position, TurnReport]:
    if "end" in entry:
        before = totals(pos)
        nxt = end_game(pos, {str(k): [str(c) for c in (v or [])] for k, v in entry["end"].items()})
        after = totals(nxt)
        w = winner(nxt)
        text = "End of play. " + (f"Dropped (enclosed): {', '.join(nxt.discarded)}. " if nxt.discarded else "") + \
            "; ".join(f"{p} {after[p]}" for p in nxt.players) + (f". Winner: {w}." if w else ". A tie.")
        return nxt, TurnReport(text, {"end": {p: list(c) for p, c in nxt.hands}, "dropped": list(nxt.discarded),
                                      "scored": {p: after[p] - before[p] for p in nxt.players}})
    player = str(entry.get("player") or pos.players[pos.to_move])
    if entry.get("pass"):
        nxt = pass_turn(pos, player)
        return nxt, TurnReport(f"{player} passes.", {"turn": pos.turn + 1, "player": player, "pass": True,
                                                      "cards": [], "walls": [], "enclosed": [], "scored": {}})
    plays = [(str(p["card"]), _walls_of(p)) for p in entry.get("play") or []]
    res = play_turn(pos, player, plays)
    before, after = totals(pos), totals(res.position)
    scored = {p: after[p] - before[p] for p in pos.players if after[p] != before[p]}
    cards = list(dict.fromkeys(w.card for w in res.walls))
    text = f"{player}: {', '.join(cards)}: " + ", ".join(w.name() for w in res.walls) + "."
    for area in res.closed:
        text += " " + _area_text(pos, player, area)
    if res.discarded:
        text += f" Discard the cards of {', '.join(res.discarded)}."
    data = {"turn": pos.turn + 1, "player": player, "cards": cards, "walls": [w.name() for w in res.walls],
            "enclosed": [_area_json(pos, player, a) for a in res.closed], "discard": res.discarded,
            "scored": scored}
    return res.position, TurnReport(text, data)


# What a turn walled off, for --json and for people. One measure per field: `squares` and `markers`
# count everything inside the area (what lies in enclosures inside it too), `points` is what those
# markers are worth under the variant, `taken_from` the points that were other players' before this
# turn and `already_held` those that were already the mover's; so the mover scores `points` less
# `already_held`, and each other player loses their `taken_from`.

def _nested_json(pos: Position, node: Nested) -> dict:
    e = node.enclosure
    return {"rectangle": e.name(), "closed_by": e.player, "turn": e.turn, "squares": len(e.squares()),
            "markers": node.sites, "points": points(pos.board, node.sites, pos.variant),
            "inside": [_nested_json(pos, n) for n in node.inside]}


def _area_json(pos: Position, player: str, area: Closed) -> dict:
    def value(markers):
        return points(pos.board, markers, pos.variant)
    return {"rectangle": area.name(), "squares": len(area.squares), "markers": area.sites,
            "points": value(area.sites),
            "taken_from": {p: value(m) for p, m in area.held_before.items() if p != player},
            "already_held": value(area.held_before.get(player, [])),
            "inside": [_nested_json(pos, n) for n in area.inside]}


def _nested_text(pos: Position, node: Nested) -> str:
    e = node.enclosure
    when = "this turn" if e.turn == pos.turn + 1 else f"by {e.player}, turn {e.turn}"
    inner = f" [inside: {', '.join(_nested_text(pos, n) for n in node.inside)}]" if node.inside else ""
    return f"{e.name()} ({when}){inner}"


def _area_text(pos: Position, player: str, area: Closed) -> str:
    n = len(area.sites)
    text = f"Walls off {area.name()}: {plural(len(area.squares), 'square')}, {plural(n, 'marker')}"
    text += f" ({', '.join(area.sites)})" if area.sites else ""
    if pos.variant.endswith("population"):
        text += f", {plural(points(pos.board, area.sites, pos.variant), 'point')}"
    text += "."
    if area.inside:
        text += f" Inside it: {', '.join(_nested_text(pos, node) for node in area.inside)}."
    for p, markers in area.held_before.items():
        if p != player:
            text += f" Takes {plural(points(pos.board, markers, pos.variant), 'point')} from {p}."
    return text


def summary(pos: Position, reports: list[TurnReport]) -> dict:
    return {"game": "capitals", "variant": pos.variant, "players": list(pos.players),
            "totals": totals(pos), "winner": winner(pos), "over": pos.over,
            "turns": [r.data for r in reports]}


def _map_text(pos: Position) -> str:
    """The walled part of the board as text: walls as --- and |, enclosed squares by the first
    letter of the player credited, markers as *."""
    if not pos.walls:
        return "  (no walls yet)"
    pts = [p for w in pos.walls for p in w.points()]
    r0, r1 = max(0, min(p[0] for p in pts) - 1), min(pos.board.rows, max(p[0] for p in pts) + 1)
    c0, c1 = max(0, min(p[1] for p in pts) - 1), min(pos.board.columns, max(p[1] for p in pts) + 1)
    walled = pos.wall_edges()
    owners = pos.owners()
    lines = ["    " + "".join(f"{c + 1:<4}" for c in range(c0, c1 + 1))]
    for r in range(r0, r1 + 1):
        row = f"{string.ascii_uppercase[r]:>2}  "
        for c in range(c0, c1 + 1):
            row += "+" + ("---" if ("h", r, c) in walled else "   ") if c < c1 else "+"
        lines.append(row)
        if r < r1:
            row = "    "
            for c in range(c0, c1 + 1):
                row += "|" if ("v", r, c) in walled else " "
                if c < c1:
                    mark = "*" if (r, c) in pos.board.sites else " "
                    who = owners.get((r, c), "")
                    row += f"{who[:1] or ' '}{mark} "
            lines.append(row)
    return "\n".join(lines)


def render(pos: Position, colour: bool = False) -> str:
    t = totals(pos)
    head = f"{pos.variant}; " + ", ".join(f"{p} {t[p]}" for p in pos.players)
    enc = sorted(set(pos.owners().values()))
    lines = [head, _map_text(pos)]
    if enc:
        for p in enc:
            sites = [n for sq, o in pos.owner if o == p for n in pos.board.sites.get(sq, ())]
            lines.append(f"  {p} has enclosed: {', '.join(sites) or 'no markers'}")
    return "\n".join(lines)


def prompt(pos: Position) -> str:
    return "game over" if pos.over else pos.players[pos.to_move]


def final_text(pos: Position) -> str:
    t = totals(pos)
    scores = ", ".join(f"{p} {t[p]}" for p in pos.players)
    if not pos.over:
        return f"Play goes on ({scores}); {pos.players[pos.to_move]} to play. Type `end` with the hands to score."
    w = winner(pos)
    return f"Final: {scores}. " + (f"Winner: {w}." if w else "A tie.")


MAX_NAME_PIECES = 4           # a card's name holds at most 3 commas (the pack's most: 1): bounds the search


def card_list(text: str, pos: Position) -> list[str]:
    """A hand written as the notation writes it, cards separated by commas, where a card's own name
    may hold a comma ("Korea, North"): at each card, the longest run of pieces that names a card
    of the pack (or its capital) is that card; a piece that names none is kept as written, for the
    referee to refuse by its name."""
    pieces = [p.strip() for p in text.split(",")]
    out, i = [], 0
    while i < len(pieces):
        for j in range(min(len(pieces), i + MAX_NAME_PIECES), i, -1):
            name = ", ".join(pieces[i:j])
            if j == i + 1 or _names_a_card(name, pos):
                if name:
                    out.append(name)
                i = j
                break
    return out


def _names_a_card(name: str, pos: Position) -> bool:
    try:
        pos.board.card(name)
    except Refused:
        return False
    return True


def parse_move(text: str, pos: Position) -> dict:
    t = text.strip()
    if t.lower() == "pass":
        return {"player": pos.players[pos.to_move], "pass": True}
    if t.lower().startswith("end"):
        hands = {}
        for part in t[3:].split(";"):
            if not part.strip():
                continue
            who, _, cards = part.partition(":")
            hands[who.strip()] = card_list(cards, pos)
        return {"end": hands}
    plays = []
    for chunk in t.split(";"):
        words = chunk.split()
        walls = []
        while words and WALL_RE.match(words[-1]):
            walls.insert(0, words.pop())
        if not words or not walls:
            raise ValueError("type a card and its wall(s), e.g. Belgium D22E8; France E22S5 (or pass, end)")
        plays.append({"card": " ".join(words), "wall": walls[0] if len(walls) == 1 else walls})
    return {"player": pos.players[pos.to_move], "play": plays}


def header_from_args(args) -> dict:
    return {"players": names(args.players, "Player 1,Player 2"), "variant": args.variant}


REFEREE = RefereeRules(
    game="capitals", record_kind="capitals-record", new_game=new_game, apply=apply, summary=summary,
    parse_move=parse_move, render=render, prompt=prompt, final_text=final_text,
    header_from_args=header_from_args, is_over=lambda pos: pos.over,
    help_text="Turns: CARD WALL[; CARD WALL...], a wall being a lattice point (the top-left corner of a "
              "square: D22), a direction N/E/S/W and a length: Belgium D22E8; France E22S5\n"
              "  Vatican City F10E5 F10S7 | United Nations A3E12 | pass | end Ann: Chile, Peru; Bob:\n"
              "  lattice points run A..Z (Z = bottom edge) and 1..57 (57 = right edge)",
)
