"""The Continuo referee: state, entries, scores, the terminal view. Pure functions of state and
entry (rules.py does the placing and the chains); the referee package does records, prompt and journal.

Record (YAML):
    game: continuo               # or count-continuo: chains score the sum of their numbers
    variant: continuo            # (game: continuo only) count-continuo, as `play --variant` writes it
    players: [Ann, Bob]
    openings: 2                  # unscored opening tiles; default 2, or 3 for three players
    entries:
      - {tile: 12, at: [0, 0], opening: true}
      - {tile: 7, at: [0, 4], rotation: 90, opening: true}
      - {tile: 30, at: [4, 0]}                       # Ann's, players alternate
      - {tile: [RRGG, RRGG, BBYY, BBYY], at: [4, 4]}  # a house tile, given inline
`at` is the [row, column] of the tile's top-left compartment after turning it (rows down,
columns right, any integers); `rotation` is clockwise, in degrees.
The game id decides the variant: `pnp referee count-continuo` always plays Count continuo, and so does
a record saying `game: count-continuo`; `pnp referee continuo` reads `variant:` (default continuo).
Prompt notation: `[open] TILE ROW,COL [ROTATION]`, e.g. `open 12 0,0`, `30 4,0 90`,
`RRGG/RRGG/BBYY/BBYY 4,4`; and `best TILE` for the best placements of a tile.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ...referee.contract import RefereeRules, Refused, TurnReport, known_name, names, record_reference
from ...spec import load_spec
from ...errors import SpecError, show, plural
from .deck import ContinuoDeck, load_deck
from .rules import ROTATIONS, Layout, Placement, best_placements, place
from .tiles import Tile, canonical

DECK_FILES = {"continuo": "decks/continuo.yaml", "count-continuo": "decks/count_continuo.yaml"}
ENTRY_KEYS = {"tile", "at", "rotation", "opening", "player"}


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
    def pack_number(self) -> dict:
        """A pack tile's number, by its shape however turned."""
        return self.deck.number_by_shape

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
    path = record_reference({"deck": deck_path} if deck_path else {}, "deck", DECK_FILES[variant], ("continuo-deck",))
    try:
        return load_deck(load_spec(path, display=deck_path or DECK_FILES[variant]))
    except SpecError as exc:
        raise Refused("deck", str(exc)) from None


def whole(value, where: str, rule: str) -> int:
    # Exact: a YAML 2.0 or true is not a whole number (JSON Schema lets 2.0 pass as an integer).
    if type(value) is not int:
        raise Refused(rule, f"{where}: expected a whole number, got {show(value)}")
    return value


def variant_of(game: str, header: dict) -> str:
    """The game id decides: count-continuo (the command's, or the record's game:) is Count continuo;
    plain continuo reads the record's variant:, Continuo by default."""
    if game == "count-continuo" or header.get("game") == "count-continuo":
        return "count-continuo"
    return header.get("variant", "continuo")


def new_game(header: dict, record_path: Path | None, game: str = "continuo") -> ContinuoState:
    variant = variant_of(game, header)
    deck = load_variant_deck(variant, header.get("deck"), record_path)
    players = tuple(header["players"])
    if len(set(players)) != len(players):
        raise Refused("players", "two players with the same name")
    openings = whole(header.get("openings", 3 if len(players) == 3 else 2), "openings", "openings")
    end = whole(header.get("end", len(deck.tiles)), "end", "end")
    if not 1 <= end <= len(deck.tiles):
        raise Refused("end", f"a game uses at most the {len(deck.tiles)} tiles of the pack, not {end}")
    if openings > end:
        raise Refused("openings", f"{openings} opening tiles in a game of {end}")
    return ContinuoState(deck, variant, players, openings, end, Layout(), (0,) * len(players))


def _tile_of(state: ContinuoState, spec) -> tuple[Tile, str, int | None]:
    """The tile an entry names: (its rows, how to show it, its number in the pack or None)."""
    n = len(state.deck.tiles)
    if isinstance(spec, (list, tuple)):
        tile = tuple(spec)
        if len(tile) != 4 or any(not isinstance(row, str) or len(row) != 4 for row in tile):
            raise Refused("tile", "a tile is four rows of four colour letters")
        bad = sorted({ch for row in tile for ch in row} - set(state.deck.colours))
        if bad:
            raise Refused("tile colours", f"colour letter(s) {', '.join(bad)} not in the deck's colours "
                                          f"({', '.join(state.deck.colours)})")
        # "no two cards of the pack are identical": rows that are a pack tile (turned or not) are that tile.
        number = state.pack_number.get(canonical(tile))
        if number in state.used:
            raise Refused("each tile once", f"these rows are tile {number}, already on the table")
        return tile, "/".join(tile), number
    number = whole(spec, "tile", "tile number")
    if not 1 <= number <= n:
        raise Refused("tile number", f"the deck has tiles 1 to {n}, not {number}")
    if number in state.used:
        raise Refused("each tile once", f"tile {number} is already on the table")
    return state.deck.tiles[number - 1], str(number), number


def must_maximise(state: ContinuoState) -> bool:
    """The two-card opening: "placed ... so that the maximum score is obtained" (the patent). Two
    cards score the same whichever is laid first, so the second must make the most it can.
    (Three cards: which total is maximal is not said; we do not check it.)"""
    return state.openings == 2 and state.placed == 1


def apply(state: ContinuoState, entry: dict) -> tuple[ContinuoState, TurnReport]:
    if state.complete:
        raise Refused("game over", f"all {state.end} tiles are down")
    extra = sorted(set(entry) - ENTRY_KEYS, key=str) if isinstance(entry, dict) else ["(not a mapping)"]
    if extra or "tile" not in entry or "at" not in entry:
        raise Refused("entry", "an entry is a tile, at [row, column], and perhaps rotation, opening, player"
                               + (f" (not {extra[0]})" if extra else ""))
    tile, label, number = _tile_of(state, entry["tile"])
    opening = entry.get("opening", False)
    if type(opening) is not bool:
        raise Refused("opening", f"opening: expected true or false, got {show(opening)}")
    if opening and state.opening_done:
        raise Refused("opening", f"the game opened with {plural(state.openings, 'tile')}; this one is a player's turn")
    if not opening and not state.opening_done:
        raise Refused("opening", f"the game opens with {plural(state.openings, 'unscored tile')} marked opening "
                                 f"({state.placed} so far)")
    player = None if opening else state.to_play
    if "player" in entry and not opening and known_name(entry["player"], state.players) != player:
        raise Refused("turn order", f"it is {player}'s turn, not {entry['player']}'s")
    at = entry["at"]
    if not isinstance(at, (list, tuple)) or len(at) != 2:
        raise Refused("at", "at is [row, column]")
    row, col = (whole(v, "at", "at") for v in at)
    rotation = whole(entry.get("rotation", 0), "rotation", "rotation")
    if rotation not in ROTATIONS:
        raise Refused("rotation", f"a tile turns by 0, 90, 180 or 270 degrees, not {rotation}")
    p = Placement(tile, row, col, rotation, opening, label)
    layout, chains = place(state.layout, p, state.numbers)
    made = sum(c.value for c in chains)
    if opening and must_maximise(state):
        most = best_placements(state.layout, tile, state.numbers)[0][0]
        if made < most:
            raise Refused("opening maximum", f"the two opening tiles are laid so that the maximum score is "
                                             f"obtained: {most} with this tile, not {made} (best shows where)")
    score = 0 if opening else made
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
    data = {"index": nxt.placed - 1, "player": player, "tile": number if label.isdigit() else list(tile),
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
    return {"game": state.variant, "variant": state.variant, "players": list(state.players),
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
        raise ValueError(f"a tile is a number or four rows of four letters like RRGG/RRGG/BBYY/BBYY, not {show(text)}")
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
        raise ValueError(f"a position is ROW,COL like 4,0, not {show(words[1])}") from None
    entry = {"tile": parse_tile(words[0]), "at": [r, c]}
    if opening:
        entry["opening"] = True
    if len(words) == 3:
        rot = words[2].lstrip("r")
        if not rot.isdigit():
            raise ValueError(f"a rotation is 0, 90, 180 or 270, not {show(words[2])}")
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


def ranked_placements(state: ContinuoState, tile: Tile) -> list[tuple[int, int, int, int]]:
    """Every placement of tile the next entry may make, best first: [(score, row, col, rotation)].
    (A symmetric tile's turns that put down the same compartments are listed once; on an empty
    table the first tile may go anywhere, and is listed at 0,0.)"""
    if state.complete:
        raise Refused("game over", f"all {state.end} tiles are down")
    ranked = best_placements(state.layout, tile, state.numbers)
    if ranked and must_maximise(state):
        ranked = [r for r in ranked if r[0] == ranked[0][0]]
    return ranked


def best_text(state: ContinuoState, tile_spec, top: int = 10) -> str:
    return best_listing(state, tile_spec, top)[0]


def best_listing(state: ContinuoState, tile_spec, top: int = 10) -> tuple[str, list[tuple[int, int, int, int]]]:
    """The prompt's `best` text and the ranked placements it lists from (one search for both:
    the web page shows the text and offers the placements)."""
    tile, label, _ = _tile_of(state, tile_spec)
    ranked = ranked_placements(state, tile)
    if not ranked:
        return f"tile {label} cannot be placed", ranked
    opening = " (the second opening tile: only the maximum is allowed)" if must_maximise(state) else ""
    lines = [f"{len(ranked)} legal placements of tile {label}{opening}; the best {min(top, len(ranked))}:"]
    for score, r, c, rot in ranked[:top]:
        lines.append(f"  {score:4d}  at {r},{c}" + (f" turned {rot}" if rot else ""))
    return "\n".join(lines), ranked


def _best_command(state: ContinuoState, rest: str) -> str:
    words = rest.split()
    if not words:
        raise ValueError("best TILE [N]")
    return best_text(state, parse_tile(words[0]), int(words[1]) if len(words) > 1 else 10)


def header_from_args(args) -> dict:
    players = names(args.players, "Player 1,Player 2")
    header = {"players": players}
    if getattr(args, "variant", None):          # count-continuo's play has no --variant: its id decides
        header["variant"] = args.variant
    if args.openings is not None:
        header["openings"] = args.openings
    return header


def make_rules(game: str) -> RefereeRules:
    """The referee of `continuo` or `count-continuo`; records of either game are accepted, and
    count-continuo's are always scored as Count continuo (variant_of)."""
    return RefereeRules(
        game=game,
        games=(game, "count-continuo" if game == "continuo" else "continuo"),
        record_kind="continuo-record", new_game=lambda header, path: new_game(header, path, game),
        apply=apply, summary=summary,
        parse_move=parse_move, render=render, prompt=prompt, final_text=final_text,
        header_from_args=header_from_args, is_over=lambda state: state.complete,
        help_text="Moves: [open] TILE ROW,COL [ROTATION]  e.g. open 12 0,0 | 30 4,0 90 | RRGG/RRGG/BBYY/BBYY 4,4\n"
                  "  best TILE [N]  the N best placements of a tile",
        extra_commands={"best": _best_command})


REFEREE = make_rules("continuo")
COUNT_REFEREE = make_rules("count-continuo")
