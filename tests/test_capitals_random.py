"""Capitals: seeded random games through the referee, checking what the rules imply.

Each game draws cards at random, generates candidate walls for them (most along a side of the
card's square, special cards' walls from the ends of walls already laid) and keeps the first the
referee accepts, or passes. Games run on a small, crowded board (many enclosures, nested ones
and take-overs) and, one in eight, on the real world map. After each game:

- the credit is recomputed from the walls alone, by brute force: every rectangle walled all round,
  closed on the turn its last side was laid, and every square credited to the player whose turn
  closed the last rectangle around it ("all the flag-sites within the larger area are credited to
  the player whose move completed it"); the referee's enclosures, credit and totals must match,
  each square credited to one player at most;
- every turn's --json report adds up: its areas are disjoint and hold exactly the squares its
  rectangles close, `points` is what their markers are worth, `taken_from` and `already_held` are
  the points that were others' or the mover's, the mover scores points less already_held and each
  other player loses their taken_from; nested enclosures lie inside their parent, apart; the
  `scored` of all entries add up to the totals;
- undo restores the position exactly: replaying entries[:-1] from the start gives the state
  before the last entry, and replaying them all gives the final state (so the refused candidates
  tried on the way changed nothing);
- a refused candidate is refused by a named rule, never by a crash.

PNP_RANDOM_GAMES sets the number of games (default 16, two on the world map: a short seeded
sample; benchmarks/random_games.py plays ten times as many).
"""
import os
import random
import string
from collections import Counter
from functools import lru_cache

import numpy as np
import yaml

from generator.games.capitals.referee import REFEREE, apply, board_for
from generator.games.capitals.rules import (Board, Card, Position, points, rect_squares, totals)
from generator.referee.contract import Refused
from generator.referee.record import load_record, replay

GAMES = int(os.environ.get("PNP_RANDOM_GAMES", "16"))
RULES = {"game-over", "turn-order", "notation", "first-round", "played", "enclosed-card", "card", "one-wall",
         "wall-length", "card-square", "right-angle", "straight-line", "map-edge", "overlap", "enclosure",
         "turn-shape", "special-enclosure", "line-length"}
VARIANTS = ("most-capitals", "fewest-capitals", "most-population", "least-population")
SPECIALS = [("Luxembourg", {"units": 3}), ("Monaco", {"units": 2}), ("Andorra", {"units": 1}),
            ("Bhutan", {"units": 1}), ("Vatican City", {"right_angle": 16}),
            ("United Nations", {"straight_line": True})]


def crowded_board(rng: random.Random) -> Board:
    """9 x 11 squares, 36 ordinary cards of 1 to 5 letters, and the special cards."""
    rows, cols = 9, 11
    cards = {}
    for i in range(36):
        sq = (rng.randrange(rows), rng.randrange(cols))
        cards[f"c{i}"] = Card(f"C{i}", f"Cap{i}", sq, rng.randint(1, 5), rng.randint(1, 5), None)
    for i, (name, rule) in enumerate(SPECIALS):
        cards[name.lower()] = Card(name, name, (rng.randrange(rows), rng.randrange(cols)), 5 + i, 1, rule)
    sites = {}
    for c in cards.values():
        sites[c.square] = sites.get(c.square, ()) + (c.name,)
    return Board(rows, cols, cards, sites)


def point(r, c):
    return f"{string.ascii_uppercase[r]}{c + 1}"


def wall_text(r, c, d, n):
    """The wall's notation; a point outside A..Z or below column 1 cannot be written (None)."""
    return f"{point(r, c)}{d}{n}" if 0 <= r < 26 and 0 <= c < 98 else None


STEP = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}


def placements(card: Card, board: Board):
    """Every wall a card may lay along a side of its square, as (text, its two ends); one in
    ten of those running off the map is kept, to be refused."""
    return _placements(card.square, card.letters, board.rows, board.columns)


@lru_cache(maxsize=None)
def _placements(square, n, rows, columns):
    r, c = square
    out = []
    for k in range(n):
        for line, start, horizontal in ((r, c - k, True), (r + 1, c - k, True), (c, r - k, False),
                                        (c + 1, r - k, False)):
            a = (line, start) if horizontal else (start, line)
            b = (line, start + n) if horizontal else (start + n, line)
            on_map = all(0 <= p[0] <= rows and 0 <= p[1] <= columns for p in (a, b))
            if not on_map and (k + line) % 10:
                continue
            d = ("E", "W") if horizontal else ("S", "N")
            out.append((wall_text(*a, d[0], n), (a, b)))
            out.append((wall_text(*b, d[1], n), (a, b)))
    return [(t, e) for t, e in out if t]


def ends(pos: Position):
    pts = [p for w in pos.walls for p in w.ends()]
    return pts or [(1, 1)]


def special_walls(rng, card: Card, pos: Position, k: int):
    """Walls from the end of a wall already laid (an enclosure is usually closed there)."""
    s = card.special
    starts = ends(pos)
    for _ in range(k):
        r, c = rng.choice(starts)
        d = rng.choice("NESW")
        if "units" in s:
            yield [wall_text(r, c, d, s["units"])]
        elif "straight_line" in s:
            yield [wall_text(r, c, d, rng.randint(1, 9))]
        else:
            a = rng.randint(1, 9)
            b = rng.randint(1, 16 - a)
            dr, dc = STEP[d]
            e = rng.choice("EW" if d in "NS" else "NS")
            yield [wall_text(r, c, d, a), wall_text(r + dr * a, c + dc * a, e, b)]


def try_entry(pos, entry, stats):
    try:
        return apply(pos, entry)
    except Refused as exc:
        assert exc.rule in RULES, exc
        stats["refused " + exc.rule] += 1
        return None


def random_game(rng: random.Random, board: Board, stats: Counter, max_turns: int):
    players = tuple(["Ann", "Bob", "Cy", "Di"][:rng.randint(2, 4)])
    pos = Position(board, players, rng.choice(VARIANTS))
    states, entries, reports = [pos], [], []
    cards = sorted(board.cards.values(), key=lambda c: c.name)
    for _ in range(max_turns):
        mover = pos.players[pos.to_move]
        owners = pos.owners()
        live = [c for c in cards if c.name.lower() not in pos.played and c.square not in owners]
        done = None
        for card in rng.sample(live, min(4, len(live))):       # a hand of four
            if card.special:
                options = [[{"card": card.name, "wall": w if len(w) > 1 else w[0]}]
                           for w in special_walls(rng, card, pos, 6) if None not in w]
            else:
                mine = placements(card, board)
                options = [[{"card": card.name, "wall": w}] for w, _ in rng.sample(mine, min(3, len(mine)))]
                if rng.random() < 0.3:              # with a second card, in line or at a right angle
                    first, (a, b) = rng.choice(mine)
                    options[:0] = [[{"card": card.name, "wall": first}, {"card": other.name, "wall": w}]
                                   for other in rng.sample(live, min(12, len(live))) if other is not card
                                   and not other.special for w, ends2 in placements(other, board)
                                   if set(ends2) & {a, b}][:3]
                    stray = rng.choice(live)                # and one anywhere: seldom a line or an angle
                    if stray is not card and not stray.special:
                        options.append([{"card": card.name, "wall": first},
                                        {"card": stray.name, "wall": rng.choice(placements(stray, board))[0]}])
            for plays in options:
                done = try_entry(pos, {"player": mover, "play": plays}, stats)
                if done:
                    break
            if done:
                break
        entry = {"player": mover, "play": plays} if done else {"player": mover, "pass": True}
        pos, report = done or apply(pos, entry)
        states.append(pos)
        entries.append(entry)
        reports.append(report)
        if not live:
            break
    if rng.random() < 0.8:                                      # the end, with cards left in hand
        left = [c.name for c in cards if c.name.lower() not in pos.played]
        rng.shuffle(left)
        hands = {p: left[i * 3:(i + 1) * 3] for i, p in enumerate(players)}
        entry = {"end": hands}
        pos, report = apply(pos, entry)
        states.append(pos)
        entries.append(entry)
        reports.append(report)
    return states, entries, reports


# ------------------------------------------------------------------ the oracle: from the walls alone

def closed_by_brute_force(pos: Position, laid_turn: dict):
    """{rectangle: turn it was closed} for every rectangle of the board walled all round, a
    rectangle being closed on the turn its last unit of outline was laid."""
    if not laid_turn:
        return {}
    # Only the walled part of the board: rows top..top+R, columns left..left+C.
    top = min(r for _, r, _ in laid_turn)
    left = min(c for _, _, c in laid_turn)
    R = max(r for _, r, _ in laid_turn) - top + 1
    C = max(c for _, _, c in laid_turn) - left + 1
    inf = 10 ** 9
    h = np.full((R + 1, C), inf)
    v = np.full((R, C + 1), inf)
    for (kind, r, c), t in laid_turn.items():
        (h if kind == "h" else v)[r - top, c - left] = t
    # hmax[r, c0, c1]: the latest turn along row line r from column c0 to c1 (c0 < c1); vmax[r0, r1, c]
    # likewise down column line c.
    hmax = np.full((R + 1, C + 1, C + 1), inf)
    for c0 in range(C):
        hmax[:, c0, c0 + 1:] = np.maximum.accumulate(h[:, c0:], axis=1)
    vmax = np.full((R + 1, R + 1, C + 1), inf)
    for r0 in range(R):
        vmax[r0, r0 + 1:, :] = np.maximum.accumulate(v[r0:, :], axis=0)
    found = {}
    for r0 in range(R):
        for r1 in range(r0 + 1, R + 1):
            side = vmax[r0, r1]
            t = np.maximum(np.maximum(hmax[r0], hmax[r1]), np.maximum(side[:, None], side[None, :]))
            for c0, c1 in np.argwhere(t < inf):
                found[(r0 + top, int(c0) + left, r1 + top, int(c1) + left)] = int(t[c0, c1])
    return found


def check_game(states, entries, reports, stats):
    final = states[-1]
    board, variant = final.board, final.variant
    movers, laid_turn = {}, {}
    for i, (before, entry) in enumerate(zip(states, entries)):
        if "play" in entry:
            movers[i + 1] = entry["player"]
            new = states[i + 1].walls[len(before.walls):]
            for w in new:
                for e in w.edges():
                    assert e not in laid_turn, "two walls on one unit edge"
                    laid_turn[e] = i + 1
    closed = closed_by_brute_force(final, laid_turn)
    assert {(e.rect, e.turn, e.player) for e in final.enclosures} == \
           {(rect, t, movers[t]) for rect, t in closed.items()}
    assert len({sq for sq, _ in final.owner}) == len(final.owner), "a square credited twice"
    owner, by_turn = {}, {}
    for rect, t in closed.items():
        by_turn.setdefault(t, []).append(rect)
    for i, (before, entry, report) in enumerate(zip(states, entries, reports)):
        t = i + 1
        after = states[i + 1]
        if "play" not in entry:
            assert report.data["scored"] == {} or "end" in entry
            continue
        squares = {sq for rect in by_turn.get(t, []) for sq in rect_squares(rect)}
        previous = dict(owner)
        for sq in squares:
            owner[sq] = movers[t]
        assert after.owners() == owner
        stats["positions credited as the oracle says"] += 1
        check_report(board, variant, entry["player"], report.data, squares, previous, stats)
    # Scores are the sum of their parts: what each player's squares hold, and the hands.
    want = {p: 0 for p in final.players}
    for sq, p in owner.items():
        want[p] += points(board, board.sites.get(sq, ()), variant)
    sign = -1 if variant.startswith("most") else 1
    for p, cards in final.hands or ():
        want[p] += sign * sum(board.card(c).letters for c in cards)
        assert not any(board.card(c).square in owner for c in cards), "an enclosed card counted in hand"
    assert totals(final) == want
    # The reports' scores add up to the totals.
    summed = {p: 0 for p in final.players}
    for r in reports:
        for p, k in r.data["scored"].items():
            summed[p] += k
    assert summed == want


def check_report(board, variant, mover, data, squares, previous, stats):
    areas = data["enclosed"]
    seen = set()
    gained, lost = 0, Counter()
    for a in areas:
        stats["areas"] += 1
        stats["areas of two rectangles or more"] += " + " in a["rectangle"]
        mine = {sq for rect in _rects(a["rectangle"]) for sq in rect_squares(rect)}
        assert not mine & seen, "two areas share a square"
        seen |= mine
        assert a["squares"] == len(mine)
        assert a["markers"] == [n for sq in sorted(mine) for n in board.sites.get(sq, ())]
        assert a["points"] == points(board, a["markers"], variant)
        held = {}
        for sq in sorted(mine):
            if sq in previous and board.sites.get(sq):
                held.setdefault(previous[sq], []).extend(board.sites[sq])
        assert a["taken_from"] == {p: points(board, m, variant) for p, m in held.items() if p != mover}
        assert a["already_held"] == points(board, held.get(mover, []), variant)
        stats["take-overs"] += bool(a["taken_from"])
        gained += a["points"] - a["already_held"]
        lost.update(a["taken_from"])
        check_nested(board, variant, a, mine, stats)
    assert seen == squares, "the areas are not the squares the turn closed"
    want = {p: -k for p, k in lost.items() if k}
    if gained:
        want[mover] = gained
    assert data["scored"] == want


def check_nested(board, variant, parent, parent_squares, stats):
    apart = set()
    for child in parent["inside"]:
        stats["nested"] += 1
        [rect] = _rects(child["rectangle"])
        mine = set(rect_squares(rect))
        assert mine < parent_squares and not mine & apart
        apart |= mine
        assert child["squares"] == len(mine)
        assert child["markers"] == [n for sq in sorted(mine) for n in board.sites.get(sq, ())]
        assert child["points"] == points(board, child["markers"], variant)
        check_nested(board, variant, child, mine, stats)


def _rects(name):
    """'C-3..D-8 + E-1' -> rectangles in lattice lines."""
    out = []
    for part in name.split(" + "):
        first, _, last = part.partition("..")
        last = last or first
        (r0, c0), (r1, c1) = (_square(first), _square(last))
        out.append((r0, c0, r1 + 1, c1 + 1))
    return out


def _square(text):
    row, col = text.split("-")
    return string.ascii_uppercase.index(row), int(col) - 1


def check_replay(states, entries):
    """Undo: the state before the last entry is the replay of all the others, exactly."""
    pos = states[0]
    for entry in entries[:-1]:
        pos, _ = apply(pos, entry)
    assert pos == states[-2]
    assert apply(pos, entries[-1])[0] == states[-1]


def test_random_games_keep_every_invariant(tmp_path):
    rng = random.Random(3064989)
    world = board_for({}, None)
    stats = Counter()
    for g in range(GAMES):
        on_world = g % 8 == 7
        board = world if on_world else crowded_board(rng)
        states, entries, reports = random_game(rng, board, stats, max_turns=60 if on_world else 40)
        stats["games"] += 1
        stats["world-map games"] += on_world
        stats["entries"] += len(entries)
        stats["plays"] += sum("play" in e for e in entries)
        stats["passes"] += sum("pass" in e for e in entries)
        stats["ends"] += sum("end" in e for e in entries)
        stats["cards played"] += len(states[-1].played)
        stats["multi-card turns"] += sum(len(e.get("play", [])) > 1 for e in entries)
        stats["special cards played"] += sum(board.cards[c].special is not None for c in states[-1].played)
        stats["enclosures"] += len(states[-1].enclosures)
        check_game(states, entries, reports, stats)
        check_replay(states, entries)
        stats["entries replayed"] += len(entries)
        if on_world and g < 8 * 2:                               # two through the record file too
            record = tmp_path / f"game{g}.yaml"
            header = {"game": "capitals", "players": list(states[0].players), "variant": states[0].variant}
            record.write_text(yaml.safe_dump({**header, "entries": entries}, sort_keys=False))
            final, replayed, _ = replay(REFEREE, load_record(record, REFEREE))
            assert final == states[-1] and [r.data for r in replayed] == [r.data for r in reports]
            stats["games through a record file"] += 1
    print("\n".join(f"{k}: {v}" for k, v in sorted(stats.items())))
    # The games reached every rule they check.
    for key in ("take-overs", "nested", "multi-card turns", "special cards played", "refused enclosure",
                "refused overlap", "refused turn-shape", "refused special-enclosure"):
        assert stats[key] >= max(1, min(5, GAMES // 30)), key
