"""Cubes: seeded random play through the referee, checking what the rules imply at every turn.

Candidate turns are drawn at random (pawn moves, pushes, and both in either order) and the
referee keeps those it accepts; every refused candidate must leave the game as it was. Scale with
PNP_RANDOM_GAMES (default 8 games, two of four players: a short seeded sample; benchmarks/random_games.py
plays ten times as many); PNP_RANDOM_SEED picks another seed.
"""
import copy
import io
import json
import os
import random
from dataclasses import dataclass, field

import yaml

from generator.games.cubes.referee import REFEREE, apply, new_game, summary
from generator.games.cubes.rules import LINES, Push, cell_name, line_through
from generator.games.cubes.rules import push as push_line
from generator.referee.prompt import score
from generator.referee.record import load_record, replay
from generator.referee.contract import Refused

GAMES = int(os.environ.get("PNP_RANDOM_GAMES", "8"))
SEED = int(os.environ.get("PNP_RANDOM_SEED", "2672509"))
MAX_TURNS = 120
TRIES = 400            # candidates drawn per turn before the player is deemed stuck
LEGAL_SAMPLE = 3       # legal turns gathered per turn; one that takes a piece is preferred


@dataclass
class Tally:
    games: int = 0
    turns: int = 0
    refused: int = 0
    captures: int = 0
    kings_taken: int = 0
    wins: int = 0
    stuck: int = 0
    kinds: dict = field(default_factory=dict)


_STARTS = {}


def start(header):
    """The game's first state (the kit's setup is read once per variant)."""
    key = header["variant"]
    if key not in _STARTS:
        _STARTS[key] = new_game(header, None)
    return copy.deepcopy(_STARTS[key])


def pieces(pos):
    """cell -> (piece id, player) for every pawn and king cube."""
    out = {c: (pid, pl) for pid, (pl, c) in pos.pawns.items()}
    out.update({c: (f"K{pl}", pl) for pl, c in pos.kings.items()})
    return out


def flanks(pos, mover):
    """(enemy piece, frozenset of two of the mover's pieces either side of it on a line, line)."""
    at = pieces(pos)
    out = set()
    for c, (pid, pl) in at.items():
        if pl == mover:
            continue
        for dx, dy in LINES:
            a, b = at.get((c[0] - dx, c[1] - dy)), at.get((c[0] + dx, c[1] + dy))
            if a and b and a[1] == mover and b[1] == mover:
                out.add((pid, frozenset((a[0], b[0]))))
    return out


def fingerprint(state):
    """Everything in a game state, as a value (the position inside it is mutable)."""
    p = state.position
    return (frozenset(p.cubes), frozenset(p.kings.items()), frozenset(p.pawns.items()), state.players,
            state.to_move, state.winner, state.captures, state.turn)


def candidate(state, rng):
    """A random turn in the notation: mostly plausible, often illegal."""
    pos, me, n = state.position, state.to_move, state.position.n

    def pawn(at, axis=None):
        mine = [c for pl, c in at.pawns.values() if pl == me]
        src = rng.choice(mine)
        axis = axis or rng.choice("hv")
        in_line = [c for c in at.cubes if c != src and (c[1] == src[1] if axis == "h" else c[0] == src[0])]
        dst = rng.choice(in_line) if in_line and rng.random() < 0.95 else (rng.randrange(n), rng.randrange(n))
        return f"{cell_name(src)}-{cell_name(dst)}", axis

    def push(axis=None):
        mine = [c for pl, c in pos.pawns.values() if pl == me]
        start = rng.choice(mine) if rng.random() < 0.6 else rng.choice(sorted(pos.cubes))
        d = rng.choice({"h": "ew", "v": "ns", None: "nesw"}[axis])
        text = cell_name(start)
        if rng.random() < 0.3:   # name the segment: its real ends mostly, else a wrong end or a sideways one
            run = line_through(pos, start, "h" if d in "ew" else "v")
            ends = [run[0], run[-1]]
            rng.shuffle(ends)
            start, end = ends if rng.random() < 0.8 else (start, (start[0], rng.randrange(n)) if d in "ew"
                                                                 else (rng.randrange(n), start[1]))
            text = f"{cell_name(start)}:{cell_name(end)}"
        k = rng.choice((1, 1, 1, 2, 2, 3, 5))
        return f"{text}>{d}{k}", Push(start, None, d, k)

    kind = rng.choices(("pawn", "push", "pawn+push", "push+pawn", "two of a kind"), (30, 20, 25, 25, 2))[0]
    if kind == "pawn":
        return kind, pawn(pos)[0]
    if kind == "push":
        return kind, push()[0]
    if kind == "pawn+push":
        first, axis = pawn(pos)
        return kind, f"{first} {push('v' if axis == 'h' else 'h')[0]}"
    if kind == "push+pawn":
        first, mv = push()
        try:                      # the pawn moves from where the push left it
            after = push_line(pos, mv)
        except Refused:
            after = pos
        return kind, f"{first} {pawn(after, 'v' if mv.axis == 'h' else 'h')[0]}"
    return kind, f"{pawn(pos)[0]} {pawn(pos)[0]}"


def check_turn(before, after, report, tally):
    """What the rules imply about one accepted turn."""
    b, a, mover = before.position, after.position, before.to_move
    # never two pieces on a cell, every piece on a cube of the board
    cells = [c for _, c in a.pawns.values()] + list(a.kings.values())
    assert len(cells) == len(set(cells))
    assert set(cells) <= a.cubes and all(a.on_board(c) for c in a.cubes)
    # pieces: only enemy pieces go, and only those the turn flanks afresh
    lost_pawns = set(b.pawns) - set(a.pawns)
    lost_kings = set(b.kings) - set(a.kings)
    assert set(a.pawns) <= set(b.pawns) and set(a.kings) <= set(b.kings)
    assert all(b.pawns[p][0] != mover for p in lost_pawns) and mover not in lost_kings
    assert len(lost_pawns) + len(lost_kings) == len(report.data["captured"])
    # cubes: conserved, but a king cube taken leaves the board with its king
    assert len(a.cubes) == len(b.cubes) - len(lost_kings)
    # every piece taken stood between two of the mover's pieces: its cell is now empty of pieces,
    # with two of his pieces either side of it on a line
    at = pieces(a)
    flanked_empty = {(c[0] + dx, c[1] + dy) for c, (_, pl) in at.items() if pl == mover for dx, dy in LINES
                     if at.get((c[0] + 2 * dx, c[1] + 2 * dy), (None, None))[1] == mover
                     and (c[0] + dx, c[1] + dy) not in at}
    assert len(lost_pawns) + len(lost_kings) <= len(flanked_empty)
    # no fresh sandwich is left standing: whatever the mover flanks now, he flanked before the turn
    assert flanks(a, mover) <= flanks(b, mover)
    # at least one of the mover's pawns changed cell (riding a pushed cube counts)
    mine = [p for p, (pl, _) in b.pawns.items() if pl == mover]
    assert any(a.pawns[p][1] != b.pawns[p][1] for p in mine)
    # the winner: a king taken, or an enemy's last pawn
    players = set(range(len(before.players)))
    bare = [pl for pl in players - {mover} if not any(q == pl for q, _ in a.pawns.values())
            and any(q == pl for q, _ in b.pawns.values())]
    assert (after.winner == mover) == bool(lost_kings or bare)
    assert after.winner in (None, mover)
    assert after.to_move == (mover + 1) % len(before.players) and after.turn == before.turn + 1
    tally.captures += len(lost_pawns) + len(lost_kings)
    tally.kings_taken += len(lost_kings)


def play_game(rng, four, tally):
    header = {"game": "cubes", "variant": "four-player" if four else "two-player"}
    state = start(header)
    states, entries, reports = [state], [], []
    while state.winner is None and len(entries) < MAX_TURNS:
        legal = []
        snapshot = fingerprint(state)
        for _ in range(TRIES):
            kind, text = candidate(state, rng)
            try:
                nxt, report = apply(state, {"move": text})
            except Refused:
                tally.refused += 1
                assert fingerprint(state) == snapshot, text   # a refused entry changes nothing
                continue
            assert fingerprint(state) == snapshot, text       # nor does an accepted one, in place
            legal.append((kind, text, nxt, report))
            if len(legal) == LEGAL_SAMPLE:
                break
        if not legal:
            tally.stuck += 1
            break
        taking = [t for t in legal if t[3].data["captured"]]
        kind, text, nxt, report = rng.choice(taking) if taking and rng.random() < 0.8 else legal[0]
        check_turn(state, nxt, report, tally)
        tally.kinds[kind] = tally.kinds.get(kind, 0) + 1
        entries.append({"move": text})
        reports.append(report)
        state = nxt
        states.append(state)
    # undo: replaying all entries but the last gives the position before it, exactly
    # (and likewise at a turn picked at random)
    for k in {len(entries) - 1, rng.randrange(len(entries))} if entries else ():
        replayed = start(header)
        for e in entries[:k]:
            replayed, _ = apply(replayed, e)
        assert replayed == states[k]
    # the --json summary agrees with the state
    out = summary(state, reports)
    taken = [len(r.data["captured"]) for r in reports]
    for p, name in enumerate(state.players):
        assert out["totals"][name] == sum(t for i, t in enumerate(taken) if i % len(state.players) == p)
    first = start(header).position
    assert sum(out["totals"].values()) == (len(first.pawns) + len(first.kings)
                                           - len(state.position.pawns) - len(state.position.kings))
    assert out["winner"] == (state.players[state.winner] if state.winner is not None else None)
    assert len(out["turns"]) == len(entries)
    tally.games += 1
    tally.turns += len(entries)
    tally.wins += state.winner is not None
    return header, entries, state, out


def test_random_games_keep_the_rules(tmp_path):
    rng = random.Random(SEED)
    tally = Tally()
    recorded = []
    for g in range(GAMES):
        header, entries, state, out = play_game(rng, four=g % 4 == 3, tally=tally)
        if g < 3:
            recorded.append((header, entries, state, out))
    # through the record contract: a record replays to the same state, undo's history to the
    # position before the last entry, and `score --json` prints the same summary
    for i, (header, entries, state, out) in enumerate(recorded):
        path = tmp_path / f"game{i}.yaml"
        path.write_text(yaml.safe_dump({**header, "entries": entries}, sort_keys=False))
        spec = load_record(path, REFEREE)
        final, _, history = replay(REFEREE, spec)
        assert final == state
        if entries:
            before_last = start(header)
            for e in entries[:-1]:
                before_last, _ = apply(before_last, e)
            assert history[-1] == before_last
        buf = io.StringIO()
        assert score(REFEREE, path, True, out=buf) == 0
        assert json.loads(buf.getvalue()) == json.loads(json.dumps(out))
    print(f"\ncubes random play: {tally}")
    assert tally.games == GAMES
    # the draw reaches every kind of turn, captures and wins
    assert all(tally.kinds.get(k, 0) > 0 for k in ("pawn", "push", "pawn+push", "push+pawn"))
    assert tally.captures > 0 and tally.kings_taken > 0 and tally.wins > 0 and tally.refused > 0
