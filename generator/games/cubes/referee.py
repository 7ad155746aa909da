"""The Cubes referee: turns, captures, the winner, the board in the terminal.

Record (YAML):
    game: cubes
    variant: two-player          # or four-player (11 x 11, four kings, 5 pawns each)
    players: [White, Black]      # optional: the kit's setup names them
    entries:                     # from the kit's setup:
      - {move: "d4-d6"}                 # a pawn move, like a rook, over cubes only
      - {move: "e8:e3>s1"}              # push the line e8..e3 south 1 (or "e8>s1": the line through e8)
      - {move: "c3-c5 c5:h5>w2"}        # both, in either order, the second perpendicular to the first
A line is pushed along its own length: a row e or w, a column n or s.
Cells: columns a.. from the left, rows 1.. from the bottom, as the first player sees the board.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ...errors import SpecError
from ...referee.contract import RefereeRules, Refused, TurnReport, check_names, names, record_reference
from ...spec import load_spec
from .dimensions import load_kit
from .rules import Position, PawnMove, cell_name, parse_cell, parse_turn, play_turn

KIT = "boards/cubes_kit.yaml"


@dataclass(frozen=True)
class CubesGame:
    position: Position
    players: tuple[str, ...]
    to_move: int = 0
    winner: int | None = None
    captures: tuple[int, ...] = ()
    turn: int = 0


def setup_position(kit_spec, four: bool) -> tuple[Position, tuple[str, ...]]:
    kit = load_kit(kit_spec, four_player=four)
    key = "four_player" if four else "two_player"
    setup = kit_spec.data["setup"].get(key)
    if setup is None:
        # The kit spec's error (a build stops at it; a record naming this variant is refused).
        raise kit_spec.error(("setup",), f"missing: the kit has no {key.replace('_', '-')} setup")
    n = kit.grid
    s0 = (n - kit.start_square) // 2
    pos = Position(n, {(c, r) for c in range(s0, s0 + kit.start_square) for r in range(s0, s0 + kit.start_square)})
    path = ("setup", key)
    # One name, one king and one list of pawns a player, as many players as the kit has: a list
    # short of one (a spec cut off) otherwise gave a player with no pieces, and a build's crash.
    for what in ("players", "kings", "pawns"):
        if len(setup[what]) != kit.players:
            raise kit_spec.error(path + (what,), f"{len(setup[what])} given; the {key.replace('_', '-')} kit has "
                                                 f"{kit.players} players: one each")
    try:      # the default names a record without `players` plays with: the same check as any name
        check_names({"players": setup["players"]})
    except Refused as exc:
        raise kit_spec.error(path + ("players",), exc.message) from None
    try:
        for p, king in enumerate(setup["kings"]):
            pos.kings[p] = parse_cell(king, n)
        k = 0
        for p, cells in enumerate(setup["pawns"]):
            for name in cells:
                pos.pawns[f"p{k + 1}"] = (p, parse_cell(name, n))
                k += 1
    except ValueError as exc:
        raise kit_spec.error(path, str(exc)) from None
    occupied = list(pos.kings.values()) + [c for _, c in pos.pawns.values()]
    if len(set(occupied)) != len(occupied) or not set(occupied) <= pos.cubes:
        raise kit_spec.error(path, "every piece starts on its own cube of the start square")
    if len(setup["kings"]) != kit.players or any(len(p) != kit.pawns_each for p in setup["pawns"]):
        raise kit_spec.error(path, f"{kit.players} kings and {kit.pawns_each} pawns each, as the kit says")
    return pos, tuple(setup["players"])


def new_game(header: dict, record_path: Path | None) -> CubesGame:
    four = header.get("variant", "two-player") == "four-player"
    kit_path = record_reference(header, "kit", KIT, ("cubes-kit",))
    try:
        pos, names = setup_position(load_spec(kit_path, display=header.get("kit", KIT)), four)
    except SpecError as exc:
        raise Refused("kit", str(exc)) from None
    players = tuple(header.get("players") or names)
    if len(players) != len(names):
        raise Refused("players", f"the {'four' if four else 'two'}-player game has {len(names)} players")
    return CubesGame(pos, players, captures=(0,) * len(players))


def _describe(mv) -> str:
    if isinstance(mv, PawnMove):
        return f"{cell_name(mv.src)}-{cell_name(mv.dst)}"
    seg = cell_name(mv.start) + (f":{cell_name(mv.end)}" if mv.end else "")
    return f"{seg}>{mv.direction}{mv.distance}"


def apply(state: CubesGame, entry: dict) -> tuple[CubesGame, TurnReport]:
    if state.winner is not None:
        raise Refused("game over", f"{state.players[state.winner]} has already won")
    player = state.to_move
    if "player" in entry and entry["player"] != state.players[player]:
        raise Refused("turn order", f"it is {state.players[player]}'s turn, not {entry['player']}'s")
    try:
        moves = parse_turn(entry["move"], state.position.n)
    except ValueError as exc:
        raise Refused("notation", str(exc)) from None
    pos, result = play_turn(state.position, player, moves)
    caps = list(state.captures)
    caps[player] += len(result.captured)
    names = []
    for pid in result.captured:
        if pid.startswith("K"):
            names.append(f"{state.players[int(pid[1:])]}'s king cube")
        else:
            owner = state.position.pawns[pid][0]
            names.append(f"{state.players[owner]}'s pawn")
    nxt = replace(state, position=pos, to_move=(player + 1) % len(state.players), winner=result.winner,
                  captures=tuple(caps), turn=state.turn + 1)
    text = f"{nxt.turn:3d}. {state.players[player]}: {' '.join(_describe(m) for m in moves)}"
    if names:
        text += "  takes " + ", ".join(names)
    if result.winner is not None:
        text += f"  -- {state.players[player]} wins"
    data = {"turn": nxt.turn, "player": state.players[player], "moves": [_describe(m) for m in moves],
            "captured": names, "winner": state.players[result.winner] if result.winner is not None else None}
    return nxt, TurnReport(text, data)


def summary(state: CubesGame, reports) -> dict:
    # Cubes keeps no score; `totals` counts the pieces each player has taken.
    return {"game": "cubes", "players": list(state.players), "turns": [r.data for r in reports],
            "totals": dict(zip(state.players, state.captures)),
            "winner": state.players[state.winner] if state.winner is not None else None}


PAWN = "xoyz"
KING = "XOYZ"


def render(state: CubesGame, colour: bool = False) -> str:
    pos = state.position
    lines = ["    " + " ".join(chr(ord("a") + c) for c in range(pos.n))]
    for r in range(pos.n - 1, -1, -1):
        row = []
        for c in range(pos.n):
            cell = (c, r)
            p = pos.pawn_at(cell)
            k = pos.king_at(cell)
            row.append(PAWN[p[1]] if p else KING[k] if k is not None else "#" if cell in pos.cubes else ".")
        lines.append(f"{r + 1:3d} " + " ".join(row))
    legend = ", ".join(f"{n}: pawns {PAWN[i]}, king {KING[i]}" for i, n in enumerate(state.players))
    lines.append(f"    # cube, . hole; {legend}")
    return "\n".join(lines)


def final_text(state: CubesGame) -> str:
    taken = ", ".join(f"{p} took {n}" for p, n in zip(state.players, state.captures))
    if state.winner is not None:
        return f"{taken}. Winner: {state.players[state.winner]}."
    return f"{taken}. Game not over; {state.players[state.to_move]} to play."


def prompt(state: CubesGame) -> str:
    return state.players[state.to_move]


def parse_move(text: str, state: CubesGame) -> dict:
    parse_turn(text, state.position.n)   # ValueError names what is wrong
    return {"move": " ".join(text.split())}


def header_from_args(args) -> dict:
    header = {"variant": "four-player" if args.four else "two-player"}
    if args.players:
        header["players"] = names(args.players)
    return header


REFEREE = RefereeRules(
    game="cubes", record_kind="cubes-record", new_game=new_game, apply=apply, summary=summary,
    parse_move=parse_move, render=render, prompt=prompt, final_text=final_text,
    header_from_args=header_from_args, is_over=lambda state: state.winner is not None,
    help_text="Turns: c3-c6 (pawn) | d4>e2 or c4:h4>e2 (push the line through d4 / from c4 to h4, east 2;\n"
              "  a row goes e or w, a column n or s) | both in either order, perpendicular: d4-d6 c6:h6>w1")
