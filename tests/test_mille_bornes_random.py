"""Mille Bornes by seeded random play: hands dealt from a shuffled deck and played card by card through
the referee, by two, three, four (two teams), six (three teams) players, long and short games, the
published deck and the patent's.

The players hold real cards (a table of hands, draw pile, discard pile and tableaux kept here, apart
from the referee), and an independent reading of the rules says which plays are legal: the referee
must accept every play it allows and refuse the ones it forbids. After every entry the invariants the
rules imply are checked: the referee's battle, speed and safety piles and miles are those on the table;
miles within the trip; safeties no more than the deck has; every card somewhere (hands, pile, discard,
tableaux) and the referee's count of cards drawn and played the table's; a player's cards left after
the pile runs out. At each hand's end the score is worked out again from the table, item by item, and
equals the referee's; the same hand entered as tallies scores the same; undo (replaying all entries
but the last) restores the state before the last entry exactly; and one record a configuration goes
through YAML and the record schema and replays to the same state.

PNP_RANDOM_GAMES sets how many hands (default 100); the test prints the figures."""
import os
import random
import time
from collections import Counter

import yaml

from generator.games.mille_bornes.referee import REFEREE, apply, new_game
from generator.games.mille_bornes.rules import HAZARD_OF, HAZARDS, PROTECTS, cards_left
from generator.referee.record import load_record, replay
from generator.referee.contract import Refused

HANDS = int(os.environ.get("PNP_RANDOM_GAMES", "100"))
SIX = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
CONFIGS = [  # deck, players, teams, short
    ("decks/mille_bornes.yaml", SIX[:2], None, False),
    ("decks/mille_bornes.yaml", SIX[:2], None, True),
    ("decks/mille_bornes.yaml", SIX[:3], None, True),
    ("decks/mille_bornes.yaml", SIX[:4], {"NS": ["Ann", "Cat"], "EW": ["Bob", "Dan"]}, False),
    ("decks/mille_bornes.yaml", SIX, {"A": ["Ann", "Dan"], "B": ["Bob", "Eve"], "C": ["Cat", "Fay"]}, True),
    ("decks/mille_bornes_1961.yaml", SIX[:3], None, False),
    ("decks/mille_bornes_1961.yaml", SIX[:2], None, False),
]


class Table:
    """The cards as they lie: what the referee is checked against."""

    def __init__(self, state, rng):
        self.state0 = state
        self.card = state.card_of
        deck = [c.id for c in state.deck.expanded()]
        rng.shuffle(deck)
        n = len(state.seats)
        self.hands = [deck[i * 6:(i + 1) * 6] for i in range(n)]
        self.pile = deck[6 * n:]
        self.deck = Counter(deck)
        self.discard = []
        self.tab = {tm: {"battle": [], "speed": [], "distance": [], "safeties": [], "bonus": [], "coups": 0}
                    for tm in state.teams}
        self.draws = 0
        self.declared = False
        self.delayed = False
        self.extended = False
        self.trip = state.scoring["short_trip"] if state.short else state.scoring["trip"]
        self.overridden = []      # precedence cards whose bonus a higher one took
        self.index = {c.id: c.index for c in state.deck.cards}

    def draw(self, seat):
        if self.pile:
            self.hands[seat].append(self.pile.pop())
            self.draws += 1

    def miles(self, tm):
        return sum(self.card(c)[2] for c in self.tab[tm]["distance"])

    def on_table(self):
        return [c for t in self.tab.values() for k in ("battle", "speed", "distance", "safeties")
                for c in t[k]] + [c for t in self.tab.values() for c, _ in t["bonus"]] + self.overridden


# ---------------------------------------------------------------- the rules, read independently

def rolling(t):
    top = t["battle"][-1] if t["battle"] else None
    return top == "traffic-light-green" or ("priority-vehicle" in t["safeties"] and top not in HAZARDS)


def legal(table, state, team, cid, target_team=None):
    """May the player to move, of `team`, play cid (on target_team, for an attack)?"""
    _, cat, points = table.card(cid)
    t = table.tab[team]
    scoring = state.scoring
    if cat == "progress":
        limited = t["speed"][-1:] == ["speed-limit"] and "priority-vehicle" not in t["safeties"]
        twos = t["distance"].count("miles-200")
        return (rolling(t) and not (limited and points > scoring["limit"])
                and not (points == 200 and twos >= scoring["max_200s"]) and table.miles(team) + points <= table.trip)
    if cat == "attack":
        o = table.tab[target_team]
        if any(cid in PROTECTS[s] for s in o["safeties"]):
            return False
        return o["speed"][-1:] != ["speed-limit"] if cid == "speed-limit" else rolling(o)
    if cat == "parade":
        top = t["battle"][-1] if t["battle"] else None
        if cid == "end-of-speed-limit":
            return t["speed"][-1:] == ["speed-limit"]
        if cid == "traffic-light-green":
            return top != cid and (top not in HAZARDS or top == "traffic-light-red")
        return top == HAZARD_OF[cid]
    return True   # a safety, a precedence card


# ---------------------------------------------------------------- playing

class Game:
    def __init__(self, state, rng):
        self.state = state
        self.rng = rng
        self.entries = []
        self.history = []        # the state before each entry
        self.table = None
        self.hand_start, self.hand_first = None, 0
        self.stats = Counter()

    # every entry goes through here: accepted (checked) or refused (state unchanged)
    def enter(self, entry, expect=True):
        try:
            nxt, _ = apply(self.state, entry)
        except Refused as exc:
            assert not expect, f"refused {entry}: {exc}"
            return False
        assert expect, f"accepted {entry}, which the rules forbid"
        self.history.append(self.state)
        self.entries.append(entry)
        self.state = nxt
        self.stats["entries"] += 1
        return True

    def seat_team(self, seat):
        return self.state.team_of[self.state.seats[seat]]

    def declare_if_empty(self):
        if not self.table.pile and not self.table.declared:
            self.enter({"event": "end-of-hand"}, expect=False)             # not while play can go on
            self.enter({"event": "draw-pile-empty"})
            self.table.declared = True

    def play_hand(self):
        st = self.state
        self.table = Table(st, self.rng)
        self.hand_start, self.hand_first = st, len(self.entries)
        results = len(st.results)
        while len(self.state.results) == results:
            self.turn()
            if len(self.state.results) == results:
                self.check()
        self.close_hand()

    def turn(self):
        table, st = self.table, self.state
        hand = st.hand
        seat = hand.to_move if hand else st.hands_played % len(st.seats)
        player = st.seats[seat]
        self.declare_if_empty()
        if table.declared and all(not h for h in table.hands):
            self.enter({"event": "end-of-hand"})
            return
        if table.declared and not table.hands[seat]:
            self.enter({"player": player, "discard": "go"}, expect=False)   # no card left
            self.enter({"player": player, "pass": True})
            return
        if not table.declared:
            table.draw(seat)
        team = self.seat_team(seat)
        opponents = [tm for tm in st.teams if tm != team]
        moves, wrong = [], []
        for cid in dict.fromkeys(table.hands[seat]):   # in hand order: the same game whatever the hash seed
            cat = table.card(cid)[1]
            if cat == "attack":
                for tm in opponents:
                    target = self.rng.choice([p for p in st.seats if st.team_of[p] == tm])
                    (moves if legal(table, st, team, cid, tm) else wrong).append((cid, target))
            else:
                (moves if legal(table, st, team, cid) else wrong).append((cid, None))
        if wrong:                                     # one play the rules forbid: the referee must refuse it
            cid, target = self.rng.choice(wrong)
            self.enter({"player": player, "card": cid, **({"target": target} if target else {})}, expect=False)
        weights = {"progress": 4, "attack": 2, "parade": 5, "immunity": 1, "precedence": 3}
        if moves and self.rng.random() > 0.05:
            cid, target = self.rng.choices(moves, [weights[table.card(c)[1]] for c, _ in moves])[0]
            self.play(seat, cid, target)
        else:
            cid = self.rng.choice(table.hands[seat])
            self.enter({"player": player, "discard": cid})
            table.hands[seat].remove(cid)
            table.discard.append(cid)

    def play(self, seat, cid, target):
        table, st = self.table, self.state
        player, team = st.seats[seat], self.seat_team(seat)
        _, cat, points = table.card(cid)
        entry = {"player": player, "card": self.rng.choice([cid, table.index[cid]])}   # by id or corner index
        t = table.tab[team]
        extend = (cat == "progress" and st.short and not table.extended
                  and table.miles(team) + points == table.trip and self.rng.random() < 0.5)
        if extend:
            entry["extend"] = True
        if target:
            entry["target"] = target
        table.hands[seat].remove(cid)
        self.enter(entry)
        if cat == "progress":
            t["distance"].append(cid)
            if extend:
                table.extended, table.trip = True, st.scoring["trip"]
                self.stats["extensions"] += 1
            elif table.miles(team) == table.trip:
                table.delayed = table.declared
                assert self.state.hand is None, "the trip is complete: the hand ends"
        elif cat == "attack":
            victim = st.team_of[target]
            table.tab[victim]["speed" if cid == "speed-limit" else "battle"].append(cid)
            self.coup_fourre(victim, cid)
        elif cat == "parade":
            t["speed" if cid == "end-of-speed-limit" else "battle"].append(cid)
        elif cat == "immunity":
            self.show_safety(team, cid)
        elif cat == "precedence":
            t["bonus"].append((cid, points))
            self.override(seat, points)

    def show_safety(self, team, cid, hazard=None):
        t = self.table.tab[team]
        t["safeties"].append(cid)
        for pile in ("battle", "speed"):
            if t[pile] and t[pile][-1] in PROTECTS[cid] and (hazard is None or t[pile][-1] == hazard):
                self.table.discard.append(t[pile].pop())

    def coup_fourre(self, victim, hazard):
        table, st = self.table, self.state
        for seat in self.rng.sample(range(len(st.seats)), len(st.seats)):
            if self.seat_team(seat) != victim:
                continue
            safety = next((s for s in table.hands[seat] if hazard in PROTECTS.get(s, ())), None)
            if safety and self.rng.random() < 0.8:
                self.declare_if_empty()
                self.enter({"player": st.seats[seat], "card": safety, "coup_fourre": True})
                table.hands[seat].remove(safety)
                self.show_safety(victim, safety, hazard)
                table.tab[victim]["coups"] += 1
                table.draw(seat)       # the safety is replaced at once
                self.stats["coups fourrés"] += 1
                return

    def override(self, seat, points):
        table, st = self.table, self.state
        for other in self.rng.sample(range(len(st.seats)), len(st.seats)):
            higher = [c for c in table.hands[other] if table.card(c)[1] == "precedence" and table.card(c)[2] > points]
            if other == seat or not higher or self.rng.random() > 0.9:
                continue
            cid = self.rng.choice(higher)
            self.declare_if_empty()
            self.enter({"player": st.seats[other], "card": cid, "override": True})
            table.hands[other].remove(cid)
            loser = table.tab[self.seat_team(seat)]
            table.overridden.append(loser["bonus"].pop()[0])
            table.tab[self.seat_team(other)]["bonus"].append((cid, table.card(cid)[2]))
            table.draw(other)
            self.stats["overrides"] += 1
            return self.override(other, table.card(cid)[2])

    # ------------------------------------------------------------ the invariants
    def check(self):
        table, st, hand = self.table, self.state, self.state.hand
        facts = st.facts
        for tm, t in hand.tableaux.items():
            mine = table.tab[tm]
            assert t.battle == tuple(mine["battle"]) and t.speed == tuple(mine["speed"])
            assert t.safeties == tuple(mine["safeties"]) and len(t.coups) == mine["coups"]
            assert t.miles == table.miles(tm) <= hand.trip <= st.scoring["trip"]
            assert len(t.safeties) <= facts.safeties
        shown = Counter(s for t in hand.tableaux.values() for s in t.safeties)
        assert sum(shown.values()) <= facts.safeties and all(n <= facts.counts[s] for s, n in shown.items())
        held = [c for h in table.hands for c in h]
        gone = table.discard + table.on_table()
        assert Counter(held) + Counter(table.pile) + Counter(gone) == table.deck      # every card somewhere
        assert Counter(hand.played) == Counter(gone) and hand.drawn == table.draws
        assert hand.pile_empty == table.declared
        if table.declared:
            assert [cards_left(hand, s) for s in range(len(st.seats))] == [len(h) for h in table.hands]
        else:
            assert all(len(h) == 6 for h in table.hands)

    def close_hand(self):
        table, st = self.table, self.state
        result = st.results[-1]
        p, facts = st.scoring["points"], st.facts
        completer = next((tm for tm in st.teams if table.miles(tm) == table.trip), None)
        assert result.extended == table.extended
        for tm in st.teams:
            t = table.tab[tm]
            items = {"miles": table.miles(tm) * p["mile"], "safeties": len(t["safeties"]) * p["safety"],
                     "all_safeties": p["all_safeties"] if len(t["safeties"]) == facts.safeties else 0,
                     "coups_fourres": t["coups"] * p["coup_fourre"], "precedence": sum(b for _, b in t["bonus"])}
            if tm == completer:
                items["trip_completed"] = p["trip_completed"]
                items["delayed_action"] = p["delayed_action"] if table.delayed else 0
                items["safe_trip"] = 0 if "miles-200" in t["distance"] else p["safe_trip"]
                items["shut_out"] = 0 if any(table.miles(o) for o in st.teams if o != tm) else p["shut_out"]
                items["extension"] = p["extension"] if table.extended else 0
            assert result.items[tm] == {k: v for k, v in items.items() if v}, (tm, result.items[tm], items)
            assert result.points(tm) == sum(items.values())
        assert st.totals() == {tm: sum(r.points(tm) for r in st.results) for tm in st.teams}
        # The same hand, entered as tallies, scores the same.
        tallies = {"tallies": result.tallies, **({"extended": True} if result.extended else {})}
        again, _ = apply(self.hand_start, tallies)
        assert again.results[-1].items == result.items and again.winner == st.winner
        # Undo: replaying this hand's entries but the last gives the state before the last, exactly
        # (the whole game's, once, at its end: undo_holds).
        assert undo_holds(self.hand_start, self.entries[self.hand_first:], self.history[-1])
        self.stats["hands"] += 1
        self.stats["completed"] += completer is not None
        self.stats["delayed"] += table.delayed and completer is not None


def undo_holds(start, entries, before_last) -> bool:
    state = start
    for e in entries[:-1]:
        state = apply(state, e)[0]
    return state == before_last


def test_random_hands(tmp_path):
    rng = random.Random(963821)
    started = time.perf_counter()
    totals = Counter()
    games = 0
    starts = {}
    while totals["hands"] < HANDS:
        deck, players, teams, short = CONFIGS[games % len(CONFIGS)]
        header = {"game": "mille-bornes", "deck": deck, "players": players,
                  **({"teams": teams} if teams else {}), **({"short": True} if short else {})}
        if deck + str(players) + str(short) not in starts:
            starts[deck + str(players) + str(short)] = new_game(header, tmp_path / "record.yaml")
        g = Game(starts[deck + str(players) + str(short)], rng)
        first = games < len(CONFIGS)          # one hand, kept as a record, through YAML and the schema
        while not g.state.winner and g.stats["hands"] < (1 if first else 6) and totals["hands"] + g.stats["hands"] < HANDS:
            g.play_hand()
        assert undo_holds(g.history[0], g.entries, g.history[-1])
        if first:
            path = tmp_path / f"game-{games}.yaml"
            path.write_text(yaml.safe_dump({**header, "entries": g.entries}, sort_keys=False))
            replayed, _, _ = replay(REFEREE, load_record(path, REFEREE))
            assert replayed == g.state
        totals += g.stats
        games += 1
    print(f"\nMille Bornes random play: {games} games, {totals['hands']} hands ({totals['completed']} trips "
          f"completed, {totals['delayed']} delayed, {totals['extensions']} extensions), {totals['entries']} entries, "
          f"{totals['coups fourrés']} coups fourrés, {totals['overrides']} overrides, "
          f"{time.perf_counter() - started:.1f} s")
    assert totals["completed"] and totals["extensions"] and totals["coups fourrés"] and totals["overrides"]
