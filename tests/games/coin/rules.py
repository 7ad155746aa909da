"""Coin toss: its spec, its one printed piece, and its referee (pure functions of state and entry)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from generator.colour import Colour
from generator.draw import Drawing, Style
from generator.referee.contract import RefereeRules, Refused, TurnReport, names
from generator.paper import Paper


def load_coin(spec) -> dict:
    return {"title": spec.data["title"], "target": spec.data.get("target", 3)}


def draw_coin(coin: dict, paper: Paper) -> Drawing:
    w, h = paper.size
    d = Drawing(w, h)
    d.circle(w / 2, h / 2, 30, Style(fill=Colour(rgb=(0.85, 0.7, 0.2)), stroke=Colour(rgb=(0, 0, 0)), width=0.5))
    d.text(w / 2, h / 2 + 4, coin["title"], 12, Colour(rgb=(0, 0, 0)), align="centre")
    return d


@dataclass(frozen=True)
class Coin:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    target: int = 3
    turn: int = 0


def new_game(header, path) -> Coin:
    players = tuple(header.get("players") or ("Heads", "Tails"))
    return Coin(players, (0,) * len(players), header.get("target", 3))


def apply(state: Coin, entry: dict) -> tuple[Coin, TurnReport]:
    if winner(state):
        raise Refused("game over", f"{winner(state)} has won")
    call, fell = entry.get("call"), entry.get("fell")
    if call not in ("heads", "tails") or fell not in ("heads", "tails"):
        raise Refused("coin", "a coin falls heads or tails")
    who = state.turn % len(state.players)
    scores = list(state.scores)
    scores[who] += call == fell
    nxt = replace(state, scores=tuple(scores), turn=state.turn + 1)
    return nxt, TurnReport(f"{state.players[who]} calls {call}, it fell {fell}", {"player": state.players[who]})


def winner(state: Coin):
    return next((p for p, s in zip(state.players, state.scores) if s >= state.target), None)


def parse_move(text: str, state: Coin) -> dict:
    words = text.lower().split()
    if len(words) != 2:
        raise ValueError("type the call, then how it fell: heads tails")
    return {"call": words[0], "fell": words[1]}


REFEREE = RefereeRules(
    game="coin", record_kind="coin-record", new_game=new_game, apply=apply,
    summary=lambda state, reports: {"game": "coin", "players": list(state.players),
                                    "totals": dict(zip(state.players, state.scores)), "winner": winner(state),
                                    "turns": [r.data for r in reports]},
    parse_move=parse_move, render=lambda state, colour: f"scores: {dict(zip(state.players, state.scores))}",
    prompt=lambda state: state.players[state.turn % len(state.players)],
    final_text=lambda state: f"Winner: {winner(state)}." if winner(state) else "Game not over.",
    is_over=lambda state: winner(state) is not None,
    header_from_args=lambda args: {"players": names(args.players, "Heads,Tails")})
