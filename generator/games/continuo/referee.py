"""The Continuo referee: state, entries, scores, the terminal view. Pure functions of state and
entry (rules.py does the placing and the chains); session.py does records, prompt and journal.

Record (YAML):
    game: continuo
    variant: continuo            # or count-continuo (chains score the sum of their numbers)
    players: [Ann, Bob]
    openings: 2                  # unscored opening tiles; default 2, or 3 for three players
    entries:
      - {tile: 12, at: [0, 0], opening: true}
      - {tile: 7, at: [0, 4], rotation: 90, opening: true}
      - {tile: 30, at: [4, 0]}                       # Ann's, players alternate
      - {tile: [RRGG, RRGG, BBYY, BBYY], at: [4, 4]}  # a house tile, given inline
`at` is the [row, column] of the tile's top-left compartment after turning it (rows down,
columns right, any integers); `rotation` is clockwise, in degrees.
Prompt notation: `[open] TILE ROW,COL [ROTATION]`, e.g. `open 12 0,0`, `30 4,0 90`,
`RRGG/RRGG/BBYY/BBYY 4,4`; and `best TILE` for the best placements of a tile.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ...referee.session import RefereeRules, Refused, TurnReport, names, record_reference
from ...spec import load_spec
from ...errors import SpecError
from .deck import ContinuoDeck, load_deck
from .rules import Layout, Placement, best_placements, place
from .tiles import Tile

DECK_FILES = {"continuo": "decks/continuo.yaml", "count-continuo": "decks/count_continuo.yaml"}


@dataclass(frozen=True)
class ContinuoState:
    deck: ContinuoDeck
    variant: str
    players: tuple[str, ...]
    openings: int
    end: int
    layout: Layout
    totals: tuple[int, ...]
    used: frozenset = frozenset()   # deck tile numbers on the table
    turns: int = 0                  # scored placements so far

    @property
    def numbers(self):
        return {k: c.number for k, c in self.deck.colours.items()} if self.variant == "count-continuo" else None

    @property
    def placed(self) -> int:
        return len(self.layout.placements)

    @property
    def opening_done(self) -> bool:
        return self.placed >= self.openings

    @property
    def to_play(self) -> str:
        return self.players[self.turns % len(self.players)]

    @property
    def complete(self) -> bool:
        return self.placed >= self.end


def load_variant_deck(variant: str, deck_path: str | None, record_path: Path | None) -> ContinuoDeck:
    path = record_reference({"deck": deck_path} if deck_path else {}, "deck", DECK_FILES[variant])
    try:
        return load_deck(load_spec(path, display=deck_path or DECK_FILES[variant]))
    except SpecError as exc:
        raise Refused("deck", str(exc)) from None


def new_game(header: dict, record_path: Path | None) -> ContinuoState:
    variant = header.get("variant", "continuo")
    deck = load_variant_deck(variant, header.get("deck"), record_path)
    players = tuple(header["players"])
    if len(set(players)) != len(players):
        raise Refused("players", "two players with the same name")
    openings = header.get("openings", 3 if len(players) == 3 else 2)
    return ContinuoState(deck, variant, players, openings, header.get("end", len(deck.tiles)), Layout(),
                         (0,) * len(players))


def _tile_of(state: ContinuoState, spec) -> tuple[Tile, str, int | None]:
    if isinstance(spec, int):
        n = len(state.deck.tiles)
        if not 1 <= spec <= n:
            raise Refused("tile number", f"the deck has tiles 1 to {n}, not {spec}")
        if spec in state.used:
            raise Refused("each tile once", f"tile {spec} is already on the table")
        return state.deck.tiles[spec - 1], str(spec), spec
    tile = tuple(spec)
    bad = sorted({ch for row in tile for ch in row} - set(state.deck.colours))
    if bad:
        raise Refused("tile colours", f"colour letter(s) {', '.join(bad)} not in the deck's colours "
                                      f"({', '.join(state.deck.colours)})")
    return tile, "/".join(tile), None


def apply(state: ContinuoState, entry: dict) -> tuple[ContinuoState, TurnReport]:
    if state.complete:
        raise Refused("game over", f"all {state.end} tiles are down")
    tile, label, number = _tile_of(state, entry["tile"])
    opening = bool(entry.get("opening", False))
    if opening and state.opening_done:
        raise Refused("opening", f"the game opened with {state.openings} tile(s); this one is a player's turn")
    if not opening and not state.opening_done:
        raise Refused("opening", f"the game opens with {state.openings} unscored tile(s) marked opening "
                                 f"({state.placed} so far)")
    player = None if opening else state.to_play
    if "player" in entry and not opening and entry["player"] != player:
        raise Refused("turn order", f"it is {player}'s turn, not {entry['player']}'s")
    row, col = entry["at"]
    p = Placement(tile, row, col, entry.get("rotation", 0), opening, label)
    layout, chains = place(state.layout, p, state.numbers)
    score = 0 if opening else sum(c.value for c in chains)
    totals = list(state.totals)
    if player is not None:
        totals[state.players.index(player)] += score
    nxt = replace(state, layout=layout, totals=tuple(totals),
                  used=state.used | ({number} if number else set()),
                  turns=state.turns + (0 if opening else 1))
    names = {k: c.name for k, c in state.deck.colours.items()}
    chain_text = " + ".join(f"{names[c.colour]} {c.size}" + (f" ({c.value})" if state.numbers else "")
                            for c in chains) or "no chain"
    rot = f" turned {p.rotation}" if p.rotation else ""
    who = "opening" if opening else player
    if opening:
        text = f"{nxt.placed:2d}. opening: tile {label} at {row},{col}{rot} (not scored)"
    else:
        standing = ", ".join(f"{n} {t}" for n, t in zip(state.players, totals))
        text = f"{nxt.placed:2d}. {who}: tile {label} at {row},{col}{rot}: {chain_text} = {score}   [{standing}]"
    data = {"index": nxt.placed - 1, "player": player, "tile": number if number else list(tile),
            "at": [row, col], "rotation": p.rotation, "opening": opening, "score": score,
            "chains": [{"colour": names[c.colour], "size": c.size, "value": c.value, "tiles": list(c.tiles)}
                       for c in chains]}
    return nxt, TurnReport(text, data)


def winner(state: ContinuoState) -> str | None:
    if not state.complete:
        return None
    best = max(state.totals)
    leaders = [p for p, t in zip(state.players, state.totals) if t == best]
    return leaders[0] if len(leaders) == 1 else None


def summary(state: ContinuoState, reports: list[TurnReport]) -> dict:
    return {"game": "continuo", "variant": state.variant, "players": list(state.players),
            "placements": [r.data for r in reports],
            "totals": dict(zip(state.players, state.totals)),
            "winner": winner(state), "complete": state.complete, "placed": state.placed, "end": state.end}


def final_text(state: ContinuoState) -> str:
    totals = ", ".join(f"{p} {t}" for p, t in zip(state.players, state.totals))
    if state.complete:
        w = winner(state)
        return f"Totals: {totals}. " + (f"Winner: {w}." if w else "A tie.")
    return f"Totals: {totals}. {state.placed} of {state.end} tiles down; game not over."


def parse_tile(text: str):
    """A tile as typed: its number in the deck, or four rows of colour letters joined by /."""
    if text.isdigit():
        return int(text)
    rows = text.upper().split("/")
    if len(rows) != 4 or any(len(r) != 4 or not r.isalpha() for r in rows):
        raise ValueError(f"a tile is a number or four rows of four letters like RRGG/RRGG/BBYY/BBYY, not {text!r}")
    return rows


def parse_move(text: str, state: ContinuoState) -> dict:
    words = text.split()
    opening = bool(words) and words[0] in ("open", "o")
    if opening:
        words = words[1:]
    if len(words) not in (2, 3):
        raise ValueError("expected [open] TILE ROW,COL [ROTATION], e.g. 12 0,4 90")
    try:
        r, c = (int(v) for v in words[1].split(","))
    except ValueError:
        raise ValueError(f"a position is ROW,COL like 4,0, not {words[1]!r}") from None
    entry = {"tile": parse_tile(words[0]), "at": [r, c]}
    if opening:
        entry["opening"] = True
    if len(words) == 3:
        rot = words[2].lstrip("r")
        if not rot.isdigit():
            raise ValueError(f"a rotation is 0, 90, 180 or 270, not {words[2]!r}")
        entry["rotation"] = int(rot)
    return entry


def render(state: ContinuoState, colour: bool = False) -> str:
    cells = state.layout.cells
    if not cells:
        return "(the table is empty)"
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    lines = ["     " + "".join(str(c % 10) for c in range(c0, c1 + 1))]  # column numbers, last digit
    for r in range(r0, r1 + 1):
        row = []
        for c in range(c0, c1 + 1):
            if (r, c) not in cells:
                row.append(" ")
                continue
            letter = cells[(r, c)][0]
            shown = str(state.deck.colours[letter].number) if state.numbers else letter
            if colour:
                rr, gg, bb = (round(v * 255) for v in state.deck.colours[letter].colour.as_rgb())
                row.append(f"\x1b[48;2;{rr};{gg};{bb}m\x1b[97m{shown}\x1b[0m")
            else:
                row.append(shown)
        lines.append(f"{r:4d} " + "".join(row))
    return "\n".join(lines)


def prompt(state: ContinuoState) -> str:
    if not state.opening_done:
        return f"opening {state.placed + 1}/{state.openings}"
    return f"{state.to_play} ({state.totals[state.players.index(state.to_play)]})"


def best_text(state: ContinuoState, tile_spec, top: int = 10) -> str:
    tile, label, _ = _tile_of(state, tile_spec)
    ranked = best_placements(state.layout, tile, state.numbers)
    if not ranked:
        return f"tile {label} cannot be placed"
    lines = [f"{len(ranked)} legal placements of tile {label}; the best {min(top, len(ranked))}:"]
    for score, r, c, rot in ranked[:top]:
        lines.append(f"  {score:4d}  at {r},{c}" + (f" turned {rot}" if rot else ""))
    return "\n".join(lines)


def _best_command(state: ContinuoState, rest: str) -> str:
    words = rest.split()
    if not words:
        raise ValueError("best TILE [N]")
    return best_text(state, parse_tile(words[0]), int(words[1]) if len(words) > 1 else 10)


def header_from_args(args) -> dict:
    players = names(args.players, "Player 1,Player 2")
    header = {"variant": args.variant, "players": players}
    if args.openings is not None:
        header["openings"] = args.openings
    return header


def make_rules(default_variant: str) -> RefereeRules:
    return RefereeRules(
        game="count-continuo" if default_variant == "count-continuo" else "continuo",
        games=("continuo",),
        record_kind="continuo-record", new_game=new_game, apply=apply, summary=summary,
        parse_move=parse_move, render=render, prompt=prompt, final_text=final_text,
        header_from_args=header_from_args,
        help_text="Moves: [open] TILE ROW,COL [ROTATION]  e.g. open 12 0,0 | 30 4,0 90 | RRGG/RRGG/BBYY/BBYY 4,4\n"
                  "  best TILE [N]  the N best placements of a tile",
        extra_commands={"best": _best_command})
