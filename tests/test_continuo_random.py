"""Continuo and Count continuo by seeded random play: games of one to five players, dealt from the
shuffled pack of 42, played through each referee (`continuo` and `count-continuo`), some to the
whole pack.

At every turn the placements `best` lists for the tile drawn are checked against what `score`
accepts: a sample of listed placements (always the best) is accepted with the score `best` gives,
and a sample of placements `best` does not list (same neighbourhood, any turn) is refused. Each
accepted score is worked out again here from the layout, chain by chain (a flood fill of one colour
through the new tile, counted if it reaches another tile): its size in Continuo, the sum of its
numbers in Count continuo. Players' totals are the sums of their turns. Undo (replaying all entries
but the last) restores the state before the last entry exactly, as does replaying any prefix; and
one record a variant goes through YAML and the record schema and replays to the same state.

PNP_RANDOM_GAMES sets how many games (default 8, a short seeded sample; benchmarks/random_games.py
plays ten times as many); the test prints the figures."""
import os
import random
import time
from collections import Counter

import yaml

from generator.games.continuo.referee import REFEREE as CONTINUO
from generator.games.continuo.referee import COUNT_REFEREE as COUNT
from generator.games.continuo.referee import new_game, ranked_placements
from generator.games.continuo.rules import NEIGHBOURS, Placement
from generator.games.continuo.tiles import rotate_tile
from generator.referee.record import load_record, replay
from generator.referee.contract import Refused

GAMES = int(os.environ.get("PNP_RANDOM_GAMES", "8"))
SAMPLE = 4          # listed placements checked a turn (and the best), and unlisted ones


def chains_score(cells: dict, new: set, numbers) -> int:
    """What a placement scores, from scratch: cells maps (row, col) -> (colour, tile index)."""
    seen, total = set(), 0
    for start in new:
        if start in seen:
            continue
        colour = cells[start][0]
        group, stack = {start}, [start]
        while stack:
            y, x = stack.pop()
            for dy, dx in NEIGHBOURS:
                n = (y + dy, x + dx)
                if n not in group and n in cells and cells[n][0] == colour:
                    group.add(n)
                    stack.append(n)
        seen |= group
        if len({cells[c][1] for c in group}) > 1:
            total += len(group) * (numbers[colour] if numbers else 1)
    return total


def play_game(rules, players, end, rng, stats):
    header = {"game": rules.game, "players": players, "end": end}
    state = new_game(header, None, rules.game)
    first = state
    pack = list(range(1, len(state.deck.tiles) + 1))
    rng.shuffle(pack)
    entries, history, totals = [], [], Counter()
    while not state.complete:
        number = pack.pop()
        tile = state.deck.tiles[number - 1]
        opening = not state.opening_done
        if not state.layout.cells:
            entry = {"tile": number, "at": [rng.randint(-9, 9), rng.randint(-9, 9)],
                     "rotation": rng.choice((0, 90, 180, 270)), "opening": True}
        else:
            ranked = ranked_placements(state, tile)
            turned = {rot: rotate_tile(tile, rot) for rot in (0, 90, 180, 270)}
            listed = {(turned[rot], r, c): s for s, r, c, rot in ranked}     # what goes down where
            assert len(listed) == len(ranked)                      # no placement listed twice
            # Listed placements: accepted, with the score `best` gives, worked out again here.
            for s, r, c, rot in [ranked[0]] + rng.sample(ranked, min(SAMPLE, len(ranked))):
                e = {"tile": number, "at": [r, c], "rotation": rot, **({"opening": True} if opening else {})}
                nxt, report = rules.apply(state, e)
                cells = nxt.layout.cells
                mine = set(Placement(tile, r, c, rot).cells())
                assert report.data["score"] == (0 if opening else s)
                assert s == chains_score(cells, mine, state.numbers)
                stats["listed checked"] += 1
            # Unlisted placements near the layout, any turn: refused.
            rows = [y for y, _ in state.layout.cells]
            cols = [x for _, x in state.layout.cells]
            tries = 0
            while tries < SAMPLE:
                r, c = rng.randint(min(rows) - 6, max(rows) + 3), rng.randint(min(cols) - 6, max(cols) + 3)
                rot = rng.choice((0, 90, 180, 270))
                if (turned[rot], r, c) in listed:
                    continue
                tries += 1
                try:
                    rules.apply(state, {"tile": number, "at": [r, c], "rotation": rot,
                                        **({"opening": True} if opening else {})})
                except Refused:
                    stats["unlisted refused"] += 1
                else:
                    raise AssertionError(f"accepted {r},{c} turned {rot}, which best does not list")
            s, r, c, rot = rng.choice(ranked[:3] + [rng.choice(ranked)])
            entry = {"tile": number, "at": [r, c], "rotation": rot, **({"opening": True} if opening else {})}
        player = None if opening else state.to_play
        nxt, report = rules.apply(state, entry)
        if player:
            totals[player] += report.data["score"]
        history.append(state)
        entries.append(entry)
        state = nxt
        stats["placements"] += 1
    assert dict(zip(state.players, state.totals)) == {p: totals[p] for p in state.players}
    if state.numbers:
        stats["count continuo games"] += 1
    # Undo: every entry but the last, replayed, is the state before the last; and a prefix at random.
    for k in (len(entries) - 1, rng.randrange(len(entries))):
        s = first
        for e in entries[:k]:
            s = rules.apply(s, e)[0]
        assert s == history[k]
    return header, entries, state


def test_random_games(tmp_path):
    rng = random.Random(42)
    started = time.perf_counter()
    stats = Counter()
    games = 0
    for games in range(1, GAMES + 1):
        rules = (CONTINUO, COUNT)[games % 2]
        players = ["Ann", "Bob", "Cat", "Dan", "Eve"][:rng.randint(1, 5)]
        end = 42 if games % 100 == 0 else rng.randint(8, 14)     # "only a previously agreed number of the cards"
        header, entries, state = play_game(rules, players, end, rng, stats)
        if games <= 2:
            path = tmp_path / f"game-{games}.yaml"
            path.write_text(yaml.safe_dump({**header, "entries": entries}, sort_keys=False))
            replayed, _, _ = replay(rules, load_record(path, rules))
            assert replayed == state
    print(f"\nContinuo random play: {games} games ({stats['count continuo games']} Count continuo), "
          f"{stats['placements']} placements; {stats['listed checked']} listed placements accepted with "
          f"best's score, {stats['unlisted refused']} unlisted refused; {time.perf_counter() - started:.1f} s")
    assert stats["count continuo games"] and stats["unlisted refused"]
