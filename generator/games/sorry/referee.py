"""The Sorry referee: turns, bumps and slides, the winner; `moves` lists what a card can do.

Record (YAML):
    game: sorry
    players: [red, blue]          # colours in turn order (default: all four sides, clockwise)
    variant: standard             # or solitaire (two opposite colours, one player), dealt-hand
    position: {red: [start, start, 12, s3], blue: [...]}   # optional: a position set up by hand
    to_move: red                  # optional, with a position
    hands: {red: [1, 7, sorry], blue: [...]}               # dealt-hand: the cards each holds
    entries:
      - {player: red, card: 1, move: out}
      - {player: blue, card: 7, move: "20+4 5+3"}
A 2 lets the same player draw again, whether or not he could move with it (the patent: "and the
player also has an extra turn"). Moves: see rules.py (out, 34+7, 34-4, 34+4 12+3, 34x50, sorry 50,
pass).
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from ...errors import SpecError, show, plural
from ...referee.contract import RefereeRules, Refused, TurnReport, known_name, names, record_reference
from ...referee.prompt import record_command
from ...spec import load_spec
from .board import Geometry, load_geometry
from .rules import CARDS, Position, initial_position, legal_moves, loc_name, parse_loc, play

BOARD = "boards/sorry.yaml"


@dataclass(frozen=True)
class SorryGame:
    g: Geometry
    position: Position
    players: tuple[str, ...]
    to_move: int = 0
    variant: str = "standard"
    hands: dict | None = None
    winner: str | None = None
    lost: bool = False
    turn: int = 0
    turned_up: tuple[str, str] | None = None     # (colour, card) of the last turn: the card in its space


def _card(c) -> str:
    c = str(c).strip().lower()
    if c not in CARDS:
        raise Refused("card", f"no card {show(c)}: the pack has {', '.join(CARDS)}")
    return c


def new_game(header: dict, record_path: Path | None) -> SorryGame:
    path = record_reference(header, "board", BOARD, ("sorry-board",))
    try:
        g = load_geometry(load_spec(path, display=header.get("board", BOARD)))
    except SpecError as exc:
        raise Refused("board", str(exc)) from None
    names = [s.name for s in g.sides]
    variant = header.get("variant", "standard")
    default = [names[0], names[2]] if variant == "solitaire" else names
    given = tuple(header.get("players") or default)
    for p in given:
        if known_name(p, names) is None:
            raise Refused("players", f"{show(p)} is not a colour of the board ({', '.join(names)})")
    players = tuple(known_name(p, names) for p in given)     # "Red", as a phone capitalises it, is red
    if len(set(players)) != len(players):
        raise Refused("players", "each colour plays once")
    if variant == "solitaire" and (len(players) != 2 or (names.index(players[0]) - names.index(players[1])) % 2):
        raise Refused("solitaire", "the solitaire game moves two opposite colours")
    pos = initial_position(players)
    if "position" in header:
        men = {}
        for given, locs in header["position"].items():
            colour = known_name(given, players)
            if colour is None:
                raise Refused("position", f"{given} is not playing")
            try:
                men[colour] = tuple(parse_loc(x, g) for x in locs)
            except ValueError as exc:
                raise Refused("position", str(exc)) from None
        pos = Position({c: men.get(c, pos.men[c]) for c in players})
        crowded = pos.crowded_square()
        if crowded:
            where, (a, b) = crowded
            raise Refused("position", f"two men on one square: {a} and {b} on {where}" if a != b
                          else f"two {a} men on {where}")
    hands = None
    if variant == "dealt-hand":
        if "hands" not in header:
            raise Refused("hands", "the dealt-hand game lists each player's cards under hands:")
        hands = {c: tuple(_card(x) for x in header["hands"].get(c, [])) for c in players}
    if "to_move" in header and known_name(header["to_move"], players) is None:
        raise Refused("to_move", f"{show(header['to_move'])} is not playing ({', '.join(players)})")
    to_move = players.index(known_name(header["to_move"], players)) if "to_move" in header else 0
    return SorryGame(g, pos, players, to_move, variant, hands)


def _result(state: SorryGame, pos: Position) -> tuple[str | None, bool]:
    homes = {c: sum(1 for m in ms if m == ("home",)) for c, ms in pos.men.items()}
    if state.variant == "solitaire":
        if any(n >= 3 for n in homes.values()):
            return None, True     # a third man of one colour home: the solitaire is lost
        safe = all(homes[c] == 2 and sum(1 for m in pos.men[c] if m[0] == "safety") == 2 for c in state.players)
        return ("solitaire" if safe else None), False
    for c in state.players:
        if homes[c] == 4:
            return c, False
    return None, False


def apply(state: SorryGame, entry: dict) -> tuple[SorryGame, TurnReport]:
    if state.winner or state.lost:
        raise Refused("game over", "the game is over")
    colour = state.players[state.to_move]
    if "player" in entry and known_name(entry["player"], state.players) != colour:
        raise Refused("turn order", f"it is {colour}'s turn, not {entry['player']}'s")
    card = _card(entry["card"])
    hands = state.hands
    if hands is not None:
        if card not in hands[colour]:
            raise Refused("hand", f"{colour} holds no {card} (holds {', '.join(hands[colour]) or 'nothing'})")
        rest = list(hands[colour])
        rest.remove(card)
        hands = {**hands, colour: tuple(rest)}
    pos, fx = play(state.g, state.position, colour, card, entry["move"])
    winner, lost = _result(state, pos)
    # A 2 always earns another draw, even when it could not be used (the patent's "and the player
    # also has an extra turn" has no condition; the published rules: "even if you could not move"),
    # unless it ended the game.
    again = card == "2" and not (winner or lost)
    nxt_player = state.to_move if again else (state.to_move + 1) % len(state.players)
    nxt = replace(state, position=pos, to_move=nxt_player, hands=hands, winner=winner, lost=lost, turn=state.turn + 1,
                  turned_up=(colour, card))
    effects = fx.text()
    text = f"{nxt.turn:3d}. {colour}: {card} {entry['move']}" + (f": {effects}" if effects else "")
    if again:
        text += "; draws again"
    if winner:
        text += f"  -- {winner} wins" if winner != "solitaire" else "  -- solitaire won"
    if lost:
        text += "  -- a third man home: the solitaire is lost"
    data = {"turn": nxt.turn, "player": colour, "card": card, "move": entry["move"],
            "bumps": [{"colour": c, "from": w} for c, w in fx.bumps],
            "slides": [{"from": a, "to": b, "sent_back": [{"colour": c, "from": w} for c, w in s]}
                       for a, b, s in fx.slides],
            "swap": list(fx.swapped) if fx.swapped else None, "again": again}
    return nxt, TurnReport(text, data)


def position_json(state: SorryGame) -> dict:
    return {c: [loc_name(m) for m in ms] for c, ms in state.position.men.items()}


def summary(state: SorryGame, reports) -> dict:
    # Sorry keeps no score; `totals` counts each colour's men home.
    return {"game": "sorry", "variant": state.variant, "players": list(state.players),
            "turns": [r.data for r in reports], "position": position_json(state),
            "to_move": state.players[state.to_move],
            "totals": {c: sum(1 for m in ms if m == ("home",)) for c, ms in state.position.men.items()},
            "winner": state.winner, "lost": state.lost}


def render(state: SorryGame, colour: bool = False) -> str:
    g = state.g
    from .board import INWARD, cell_of
    n = g.per_side
    grid = [[" "] * n for _ in range(n)]
    for i in range(g.track):
        c, r = cell_of(g, i)
        grid[r][c] = "."
    for k, side in enumerate(g.sides):
        ex, ey = cell_of(g, side.entry)
        dx, dy = INWARD[k]
        for j in range(1, g.safety_length + 1):
            grid[ey + dy * j][ex + dx * j] = ":"
    for col, men in state.position.men.items():
        k = [s.name for s in g.sides].index(col)
        ex, ey = cell_of(g, g.sides[k].entry)
        dx, dy = INWARD[k]
        for m in men:
            if m[0] == "track":
                c, r = cell_of(g, m[1])
                grid[r][c] = col[0].upper()
            elif m[0] == "safety":
                grid[ey + dy * (m[1] + 1)][ex + dx * (m[1] + 1)] = col[0].upper()
    lines = [" ".join(row) for row in grid]
    for col, men in state.position.men.items():
        lines.append(f"{col}: " + ", ".join(loc_name(m) for m in men))
    return "\n".join(lines)


def final_text(state: SorryGame) -> str:
    if state.lost:
        return "The solitaire is lost."
    if state.winner:
        return "The solitaire is won." if state.winner == "solitaire" else f"Winner: {state.winner}."
    return f"Game not over; {state.players[state.to_move]} to play."


def prompt(state: SorryGame) -> str:
    return state.players[state.to_move]


def parse_move(text: str, state: SorryGame) -> dict:
    words = text.split(None, 1)
    if len(words) < 2:
        raise ValueError("type the card, then the move: 7 34+4 12+3 | 1 out | sorry sorry 50 | 4 pass")
    return {"card": words[0].lower(), "move": words[1].strip()}


def moves_text(state: SorryGame, card: str) -> list[dict]:
    colour = state.players[state.to_move]
    out = []
    for notation, pos, fx in legal_moves(state.g, state.position, colour, _card(card)):
        out.append({"move": notation, "does": fx.text() or "", "position": {c: [loc_name(m) for m in ms]
                                                                            for c, ms in pos.men.items()}})
    return out


def header_from_args(args) -> dict:
    header = {"variant": args.variant}
    if args.players:
        header["players"] = names(args.players)
    return header


REFEREE = RefereeRules(
    game="sorry", record_kind="sorry-record", new_game=new_game, apply=apply, summary=summary,
    parse_move=parse_move, render=render, prompt=prompt, final_text=final_text,
    header_from_args=header_from_args, is_over=lambda state: bool(state.winner or state.lost),
    help_text="Turns: CARD MOVE, e.g.  1 out | 7 34+4 12+3 | 11 34x50 | sorry sorry 50 | 4 pass\n"
              "  moves CARD   every move the player to move may enter with that card (pass included)",
    extra_commands={"moves": lambda state, rest: "\n".join(
        f"  {m['move']:<14} {m['does']}" for m in moves_text(state, rest.strip()))})


def moves_command(rules: RefereeRules):
    def moves(state, args) -> int:
        found = moves_text(state, args.card)
        if args.json:
            json.dump({"player": state.players[state.to_move], "card": args.card, "moves": found}, sys.stdout, indent=2)
            print()
        else:
            print(f"{state.players[state.to_move]} with a {args.card}: {plural(len(found), 'move')}")
            for m in found:
                print(f"  {m['move']:<14} {m['does']}")
        return 0
    return record_command(rules, moves, attr="position")
