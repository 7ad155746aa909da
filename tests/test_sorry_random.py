"""Sorry: seeded random games through the referee, checking what the rules imply after every turn.

Each turn draws a card from a shuffled 44-card pack, asks `legal_moves` what may be entered, and
plays one of them at random through the referee's `apply` (what `score` and the prompt use). It
checks that every listed move is accepted, that a sample of unlisted moves of every notation is
refused, that no two men ever share a square (each safety track being its own colour's), that
men are conserved and go back to start only when the turn's report says so, that men home stay
home, that a 2 always draws again, and that replaying the entries before one gives back the state
before it (what the prompt's `undo` relies on). PNP_RANDOM_GAMES sets the number of games (default
8, a short seeded sample; benchmarks/random_games.py plays ten times as many).
"""
import argparse
import io
import os
import random
from collections import Counter

import pytest
import yaml

from generator.games.sorry.referee import REFEREE, apply, new_game, summary
from generator.games.sorry.rules import CARDS, legal_moves, loc_name
from generator.referee.contract import Refused
from generator.referee.record import load_record, replay
from generator.referee.prompt import play as prompt_play

GAMES = int(os.environ.get("PNP_RANDOM_GAMES", "8"))
MAX_TURNS = 1500
COLOURS = ("red", "blue", "yellow", "green")
PLACES = ["start", "home"] + [str(i) for i in range(1, 61)] + [f"s{i}" for i in range(1, 6)]


def random_header(rng: random.Random) -> dict:
    kind = rng.random()
    if kind < 0.1:
        return {"variant": "solitaire"}
    if kind < 0.2:
        players = list(COLOURS[:rng.choice([2, 4])])
        pack = [c for c in CARDS for _ in range(4)]
        rng.shuffle(pack)
        n = len(pack) // len(players)
        return {"players": players, "variant": "dealt-hand",
                "hands": {p: pack[i * n:(i + 1) * n] for i, p in enumerate(players)}}
    players = list(COLOURS)
    rng.shuffle(players)
    return {"players": players[:rng.choice([2, 3, 4])]}


def unlisted_sample(rng: random.Random, state, colour: str, card: str, listed: set[str], k: int) -> list[str]:
    """k moves of every notation, most of them about the player's own men, none of them listed."""
    own = [loc_name(m) for m in state.position.men[colour]]
    others = [loc_name(m) for c, ms in state.position.men.items() if c != colour for m in ms]
    near = own + others

    def place():
        return rng.choice(near if rng.random() < 0.7 else PLACES)

    forms = [
        lambda: f"{place()}+{rng.randint(1, 12)}",
        lambda: f"{place()}-{rng.randint(1, 12)}",
        lambda: (lambda n: f"{place()}+{n} {place()}+{rng.choice([7 - n, rng.randint(1, 7)])}")(rng.randint(1, 6)),
        lambda: f"{place()}x{place()}",
        lambda: f"sorry {place()}",
        lambda: "out",
        lambda: "pass",
    ]
    out = []
    for _ in range(k * 4):
        m = rng.choice(forms)()
        if m not in listed:
            out.append(m)
        if len(out) == k:
            break
    return out


def check_position(state, home_before: Counter):
    pos = state.position
    # Never two men on a square: the track is shared, a safety track is its own colour's.
    squares = [m if m[0] == "track" else (colour, m) for colour, men in pos.men.items() for m in men
               if m[0] in ("track", "safety")]
    assert len(squares) == len(set(squares)), pos
    for colour, men in pos.men.items():
        assert len(men) == 4
        for m in men:
            assert m in (("start",), ("home",)) or (m[0] == "track" and 0 <= m[1] < 60) \
                or (m[0] == "safety" and 0 <= m[1] < 5), m
        assert sum(m == ("home",) for m in men) >= home_before[colour]   # home is never left


def play_random_game(rng: random.Random, stats: Counter):
    header = random_header(rng)
    state = new_game(header, None)
    states, entries, reports = [state], [], []
    pack = []
    while not (state.winner or state.lost) and state.turn < MAX_TURNS:
        colour = state.players[state.to_move]
        if state.hands is not None:
            if not state.hands[colour]:
                break                       # the dealt cards are used up
            card = rng.choice(state.hands[colour])
        else:
            if not pack:
                pack = [c for c in CARDS for _ in range(4)]
                rng.shuffle(pack)
            card = pack.pop()
        moves = legal_moves(state.g, state.position, colour, card)
        assert moves, "pass is listed whenever nothing else is"
        listed = {m for m, _, _ in moves}
        assert len(listed) == len(moves)
        # A sample of listed moves is accepted by the referee, with the position the listing shows.
        for notation, shown, _ in rng.sample(moves, min(2, len(moves))):
            assert apply(state, {"player": colour, "card": card, "move": notation})[0].position == shown
            stats["listed checked"] += 1
        # A sample of unlisted moves is refused, naming a rule, and leaves the state unchanged.
        for notation in unlisted_sample(rng, state, colour, card, listed, 4):
            with pytest.raises(Refused) as exc:
                apply(state, {"player": colour, "card": card, "move": notation})
            assert exc.value.rule
            stats["unlisted refused"] += 1
        notation = rng.choice(sorted(listed))
        entry = {"player": colour, "card": card, "move": notation}
        nxt, report = apply(state, entry)
        # Men go back to start only when the report says so, and none vanish.
        back = Counter(b["colour"] for b in report.data["bumps"])
        back += Counter(s["colour"] for sl in report.data["slides"] for s in sl["sent_back"])
        for c in state.players:
            was = sum(m == ("start",) for m in state.position.men[c])
            now = sum(m == ("start",) for m in nxt.position.men[c])
            left = 1 if c == colour and (notation == "out" or notation.startswith("sorry")) else 0
            assert now == was - left + back[c], (entry, report.text)
        if report.data["swap"]:
            a, b, other = report.data["swap"]
            assert loc_name(nxt.position.men[other][[loc_name(m) for m in state.position.men[other]].index(b)]) \
                in (a, "start")
        check_position(nxt, Counter({c: sum(m == ("home",) for m in ms) for c, ms in state.position.men.items()}))
        if card == "2" and not (nxt.winner or nxt.lost):
            assert nxt.to_move == state.to_move                       # a 2 always draws again
        elif not (nxt.winner or nxt.lost):
            assert nxt.to_move == (state.to_move + 1) % len(state.players)
        if state.hands is not None:
            assert len(nxt.hands[colour]) == len(state.hands[colour]) - 1
        state = nxt
        states.append(state)
        entries.append(entry)
        reports.append(report)
    out = summary(state, reports)
    assert out["totals"] == {c: sum(m == ("home",) for m in ms) for c, ms in state.position.men.items()}
    if state.winner and state.winner != "solitaire":
        assert out["totals"][state.winner] == 4
    # Undo: replaying the entries before a turn gives back the state before it, exactly.
    if entries:
        cut = rng.randrange(len(entries))
        again = new_game(header, None)
        for e in entries[:cut]:
            again = apply(again, e)[0]
        assert again == states[cut]
    stats["games"] += 1
    stats["turns"] += len(entries)
    stats["won"] += bool(state.winner)
    return header, entries, states


def test_random_games_keep_every_invariant():
    rng = random.Random(1903661)
    stats = Counter()
    for _ in range(GAMES):
        play_random_game(rng, stats)
    assert stats["games"] == GAMES and stats["turns"] > GAMES * 20
    print(f"\nsorry random play: {dict(stats)}")


def test_random_games_replay_from_their_records_and_undo_at_the_prompt(tmp_path):
    # Through the real record loader, schema and prompt: score replays a whole game to its last
    # state, and `undo` at the prompt leaves a journal that replays to the state before.
    rng = random.Random(1930)
    for n in range(3):
        header, entries, states = play_random_game(rng, Counter())
        while header.get("variant") == "dealt-hand" or len(entries) < 2:
            header, entries, states = play_random_game(rng, Counter())
        path = tmp_path / f"game{n}.yaml"
        path.write_text(yaml.safe_dump({"game": "sorry", **header, "entries": entries}, sort_keys=False))
        final, _, history = replay(REFEREE, load_record(path, REFEREE))
        assert final == states[-1] and history == states[:-1]
        # The prompt syncs its journal after every entry: forty entries are enough to undo one.
        entries, states = entries[:40], states[:41]
        journal = tmp_path / f"journal{n}.yaml"
        lines = "".join(f"{e['card']} {e['move']}\n" for e in entries) + "undo\nquit\n"
        args = argparse.Namespace(players=",".join(header.get("players", [])) or None,
                                  variant=header.get("variant", "standard"))
        assert prompt_play(REFEREE, journal, args, inp=io.StringIO(lines), out=io.StringIO()) == 0
        resumed, _, _ = replay(REFEREE, load_record(journal, REFEREE))
        assert resumed == states[-2]
