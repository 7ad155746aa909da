"""Mille Bornes rules: a hand played card by card, or entered as tallies, and its score.
Pure functions of state and entry; the amounts come from the deck's `scoring:` table.

Cards are named by id (`traffic-light-red`) or by their corner index (`stop`, `go`, `25`, `+300`).
Partners share one tableau (battle pile, speed pile, distance, safeties), as in the published game.

Where the cards are: each player is dealt six; while the draw pile lasts every card played or
discarded is replaced from it (a turn is draw-then-play; after a safety, a coup fourré or a
precedence card the player draws again), so the referee counts the cards drawn; once the pile is
empty each player plays down the six he holds, and a player with none left passes.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...errors import plural
from ...referee.contract import Refused

DEALT = 6   # "6 cards are first dealt to each player" (GB 963,821); the published rules deal six too

REMEDY = {"traffic-light-red": "traffic-light-green", "puncture": "spare-wheel", "petrol-trouble": "petrol",
          "accident": "repairs", "speed-limit": "end-of-speed-limit"}
HAZARD_OF = {v: k for k, v in REMEDY.items()}
HAZARDS = frozenset(REMEDY)
PROTECTS = {"priority-vehicle": ("traffic-light-red", "speed-limit"), "puncture-proof": ("puncture",),
            "reserve-tank": ("petrol-trouble",), "ace-of-the-steering-wheel": ("accident",)}
SAFETIES = tuple(PROTECTS)
TALLY_COUNTS = ("miles", "safeties", "coups_fourres", "precedence")
TALLY_FLAGS = ("trip", "delayed", "safe_trip", "shut_out", "extension")
TALLY_FIELDS = TALLY_COUNTS + TALLY_FLAGS


@dataclass(frozen=True)
class DeckFacts:
    """What the referee counts from the deck in play."""
    size: int                 # cards in the deck
    counts: dict              # card id -> copies
    safeties: int             # immunity cards: 4 in the published deck, 5 in the patent's (two aces)
    precedence: tuple         # the bonus on each precedence card (the patent's deck only)
    distance: int             # the miles on all the progress cards together


@dataclass(frozen=True)
class Tableau:
    battle: tuple = ()
    speed: tuple = ()
    miles: int = 0
    twos: int = 0
    safeties: tuple = ()
    coups: tuple = ()
    bonuses: tuple = ()           # precedence bonuses (1961 deck)

    def protected(self, hazard: str) -> bool:
        return any(hazard in PROTECTS[s] for s in self.safeties)

    def rolling(self) -> bool:
        top = self.battle[-1] if self.battle else None
        if top == "traffic-light-green":
            return True
        # The priority vehicle rolls without a green light, unless a hazard stops it.
        return "priority-vehicle" in self.safeties and top not in HAZARDS

    def limited(self) -> bool:
        return bool(self.speed) and self.speed[-1] == "speed-limit" and "priority-vehicle" not in self.safeties


@dataclass(frozen=True)
class Hand:
    number: int
    trip: int
    tableaux: dict                 # team -> Tableau
    to_move: int                   # seat index
    last: tuple | None = None      # ("attack", seat, team, hazard) or ("precedence", seat, points)
    pile_empty: bool = False
    extended: bool = False
    completer: str | None = None
    delayed: bool = False
    played: dict = field(default_factory=dict)       # card id -> copies played or discarded this hand
    drawn: int = 0                                   # cards drawn from the pile this hand
    since_empty: dict = field(default_factory=dict)  # seat -> cards given up since the pile ran out


@dataclass(frozen=True)
class HandResult:
    number: int
    mode: str                      # cards | tallies
    items: dict                    # team -> {item: points}
    tallies: dict                  # team -> what was counted
    extended: bool = False         # the extension was called this hand

    def points(self, team: str) -> int:
        return sum(self.items[team].values())


# ---------------------------------------------------------------- tallies

def score_tallies(scoring: dict, facts: DeckFacts, tallies: dict) -> dict:
    """Each team's scoring items from its tallies (fields as TALLY_FIELDS, completed by check_tallies)."""
    p = scoring["points"]
    out = {}
    for team, t in tallies.items():
        items = {"miles": t["miles"] * p["mile"], "safeties": t["safeties"] * p["safety"]}
        if t["safeties"] == facts.safeties:
            items["all_safeties"] = p["all_safeties"]
        items["coups_fourres"] = t["coups_fourres"] * p["coup_fourre"]
        items["precedence"] = t["precedence"]
        if t["trip"]:
            items["trip_completed"] = p["trip_completed"]
            for flag, key in (("delayed", "delayed_action"), ("safe_trip", "safe_trip"), ("shut_out", "shut_out"),
                              ("extension", "extension")):
                if t[flag]:
                    items[key] = p[key]
        out[team] = {k: v for k, v in items.items() if v}
    return out


def shown(value) -> str:
    """A record value as the user wrote it (YAML words), for messages."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "nothing" if value is None else str(value)


def exact_count(value, where: str, rule: str = "tallies") -> int:
    # Exact: 2.0, true and "3" are not counts (YAML's true is a bool, which Python counts as 1).
    if type(value) is not int:
        raise Refused(rule, f"{where}: expected a whole number, got {shown(value)}")
    return value


def exact_flag(value, where: str, rule: str = "tallies") -> bool:
    # Exact: "no", 0 and "false" are not answers to a yes-or-no question (all but 0 are truthy).
    if type(value) is not bool:
        raise Refused(rule, f"{where}: expected true or false, got {shown(value)}")
    return value


def _precedence_possible(cards: tuple, bonuses: list[int]) -> bool:
    """Can each team's precedence bonus be made of its own cards, no card used twice?"""
    def go(i: int, rest: tuple) -> bool:
        if i == len(cards):
            return not any(rest)
        if go(i + 1, rest):                      # this card is nobody's (still in a hand, or overridden)
            return True
        return any(r >= cards[i] and go(i + 1, rest[:k] + (r - cards[i],) + rest[k + 1:])
                   for k, r in enumerate(rest))
    return go(0, tuple(bonuses))


def check_tallies(facts: DeckFacts, scoring: dict, teams: tuple, tallies, short: bool,
                  extended=False) -> tuple[dict, bool]:
    """Refuse tallies that cannot happen, naming the field; return every team's tallies completed
    (defaults, and the bonuses that follow from the counts) and whether the trip was extended.

    `extended`: the extension was called this hand (short game). Bonuses that follow from the
    counts are worked out (all safeties, shut-out, the extension bonus); a flag contradicting
    them is refused. Those the counts cannot show (delayed action, safe trip) are entered."""
    exact_flag(extended, "extended")
    if not isinstance(tallies, dict) or not tallies:
        raise Refused("tallies", f"expected a mapping of teams ({', '.join(teams)}) to their tallies")
    for team in tallies:
        if team not in teams:
            raise Refused("tallies", f"{team}: not a team ({', '.join(teams)})")
    given, full = {}, {}
    for team in teams:
        t = tallies.get(team, {})
        if not isinstance(t, dict):
            raise Refused("tallies", f"{team}: expected a mapping of {', '.join(TALLY_FIELDS)}")
        unknown = sorted(set(t) - set(TALLY_FIELDS), key=str)
        if unknown:
            raise Refused("tallies", f"{team}.{unknown[0]}: unknown field (known: {', '.join(TALLY_FIELDS)})")
        for k in TALLY_COUNTS:
            if k in t:
                exact_count(t[k], f"{team}.{k}")
        for k in TALLY_FLAGS:
            if k in t:
                exact_flag(t[k], f"{team}.{k}")
        given[team] = t
        full[team] = {"miles": 0, "safeties": 0, "coups_fourres": 0, "precedence": 0, "trip": False,
                      "delayed": False, "safe_trip": False, "shut_out": False, "extension": False, **t}
    extended = extended or any(t["extension"] for t in full.values())
    if extended and not short:
        who = next((tm for tm, t in full.items() if t["extension"]), None)
        where = f"{who}.extension" if who else "extended"
        raise Refused("tallies", f"{where}: an extension is called only in the short game "
                                 f"({scoring.get('short_trip', 'none in this deck')} miles)")
    trip = scoring["short_trip"] if short and not extended else scoring["trip"]
    for team, t in full.items():
        m = t["miles"]
        if m < 0 or m % 25:
            raise Refused("tallies", f"{team}.miles: {m} is not a multiple of 25")
        if m > trip:
            raise Refused("tallies", f"{team}.miles: {m} is more than the trip ({trip})")
        if not 0 <= t["safeties"] <= facts.safeties:
            raise Refused("tallies", f"{team}.safeties: {t['safeties']}, but the deck has {facts.safeties} safeties")
        if not 0 <= t["coups_fourres"] <= t["safeties"]:
            raise Refused("tallies", f"{team}.coups_fourres: {t['coups_fourres']} is more than the safeties shown "
                                     f"({t['safeties']})")
        if t["precedence"] and not facts.precedence:
            raise Refused("tallies", f"{team}.precedence: this deck has no precedence cards")
        if t["trip"] and m != trip:
            raise Refused("tallies", f"{team}.trip: completing the trip means {trip} miles, not {m}")
        if m == trip and not t["trip"]:
            raise Refused("tallies", f"{team}.trip: {m} miles is the whole trip; the team completed it (trip: true)")
        for flag in ("delayed", "safe_trip", "shut_out", "extension"):
            if t[flag] and not t["trip"]:
                raise Refused("tallies", f"{team}.{flag}: only the team that completed the trip")
    done = [tm for tm, t in full.items() if t["trip"]]
    if len(done) > 1:
        raise Refused("tallies", f"{done[1]}.trip: only one team completes the trip ({done[0]} did)")
    for team in done:
        t, g = full[team], given[team]
        moved = [tm for tm, o in full.items() if tm != team and o["miles"]]
        if g.get("shut_out") is True and moved:
            raise Refused("tallies", f"{team}.shut_out: {moved[0]} has {full[moved[0]]['miles']} miles")
        if g.get("shut_out") is False and not moved:
            raise Refused("tallies", f"{team}.shut_out: no other team has any miles, so the trip is a shut-out")
        t["shut_out"] = not moved
        if g.get("extension") is False and extended:
            raise Refused("tallies", f"{team}.extension: completing the extended trip earns the extension bonus")
        t["extension"] = extended
    if extended and not any(t["miles"] >= scoring["short_trip"] for t in full.values()):
        raise Refused("tallies", f"extended: the extension is called by the team that reaches "
                                 f"{scoring['short_trip']} miles, and no team has")
    last = teams[-1] if teams[-1] in tallies else next(reversed(tallies))
    total = sum(t["safeties"] for t in full.values())
    if total > facts.safeties:
        raise Refused("tallies", f"{last}.safeties: the teams' safeties add up to {total}; "
                                 f"the deck has {facts.safeties}")
    total = sum(t["miles"] for t in full.values())
    if total > facts.distance:
        raise Refused("tallies", f"{last}.miles: the teams' miles add up to {total}; the deck's distance "
                                 f"cards make {facts.distance}")
    bonuses = [t["precedence"] for t in full.values()]
    if any(bonuses) and not _precedence_possible(facts.precedence, bonuses):
        raise Refused("tallies", f"{last}.precedence: {', '.join(str(b) for b in bonuses)} cannot be made "
                                 f"from the precedence cards ({', '.join(map(str, facts.precedence))}), "
                                 "each scored once")
    return full, extended


def hand_tallies(hand: Hand) -> dict:
    """The tallies a hand played card by card comes to."""
    out = {}
    for team, t in hand.tableaux.items():
        done = team == hand.completer
        out[team] = {"miles": t.miles, "safeties": len(t.safeties), "coups_fourres": len(t.coups),
                     "precedence": sum(pts for _, pts in t.bonuses),
                     "trip": done, "delayed": done and hand.delayed, "safe_trip": done and t.twos == 0,
                     "shut_out": done and all(o.miles == 0 for tm, o in hand.tableaux.items() if tm != team),
                     "extension": done and hand.extended}
    return out


# ---------------------------------------------------------------- card by card

def take_card(hand: Hand, facts: DeckFacts, seats: list, seat: int, cid: str) -> Hand:
    """Account for one card leaving a player's hand (played or discarded), or Refused."""
    # Once the pile is spent, a player who has played down his six holds nothing: said first, since
    # every card of the deck is then accounted for and any card named would be "already played" too.
    gone = hand.since_empty.get(seat, 0)
    if hand.pile_empty and gone >= DEALT:
        raise Refused("no card", f"{seats[seat]} has played all {DEALT} cards held when the draw pile ran out")
    copies = facts.counts[cid]
    if hand.played.get(cid, 0) >= copies:
        raise Refused("card count", f"the deck has {copies} {cid}; {'all are' if copies > 1 else 'it is'} "
                                    "already played or discarded this hand")
    played = {**hand.played, cid: hand.played.get(cid, 0) + 1}
    if hand.pile_empty:
        return replace(hand, played=played, since_empty={**hand.since_empty, seat: gone + 1})
    pile = facts.size - DEALT * len(seats)
    if hand.drawn >= pile:
        raise Refused("draw pile", f"all {pile} cards of the draw pile have been drawn; enter pile-empty first")
    return replace(hand, played=played, drawn=hand.drawn + 1)


def cards_left(hand: Hand, seat: int) -> int:
    return DEALT - hand.since_empty.get(seat, 0)


def pass_turn(hand: Hand, seats: list, seat: int) -> Hand:
    """The draw pile is empty and the player has no card left: the turn passes."""
    if seat != hand.to_move:
        raise Refused("turn order", f"it is {seats[hand.to_move]}'s turn, not {seats[seat]}'s")
    if not hand.pile_empty:
        raise Refused("pass", "a turn passes only once the draw pile is empty (a turn is: draw, then play or discard)")
    if cards_left(hand, seat):
        raise Refused("pass", f"{seats[seat]} still holds {plural(cards_left(hand, seat), 'card')}: play or discard one")
    return replace(hand, to_move=(seat + 1) % len(seats), last=None)


def play_card(hand: Hand, seats: list, team_of: dict, card_of, scoring: dict, entry: dict) -> Hand:
    """One play of a hand: the hand after it, or Refused. card_of(name) -> (id, category, points).
    The card's count (take_card) is the caller's to check."""
    player = entry["player"]
    seat = seats.index(player)
    team = team_of[player]
    cid, cat, points = card_of(entry["card"])
    t = hand.tableaux[team]
    tabs = dict(hand.tableaux)
    cf = exact_flag(entry.get("coup_fourre", False), "coup_fourre", "entry")
    override = exact_flag(entry.get("override", False), "override", "entry")
    extend = exact_flag(entry.get("extend", False), "extend", "entry")
    if cf and override:
        raise Refused("entry", "a card is a coup fourré or a precedence override, not both")
    if "target" in entry and cat != "attack":
        raise Refused("target", f"only an attack names a target; {cid} is played on your own tableau")
    if extend and (cat != "progress" or cf or override):
        raise Refused("extension", "an extension is called with the distance card that reaches the short trip")
    if not (cf or override) and seat != hand.to_move:
        raise Refused("turn order", f"it is {seats[hand.to_move]}'s turn, not {player}'s")
    nxt_seat = (seat + 1) % len(seats)
    if cf:
        if cat != "immunity":
            raise Refused("coup fourre", "a coup fourré is made with a safety")
        a = hand.last
        if not (a and a[0] == "attack" and a[2] == team and a[3] in PROTECTS[cid]):
            raise Refused("coup fourre", "a coup fourré answers, at once, the matching attack just played on you")
        pile = "speed" if a[3] == "speed-limit" else "battle"
        t = replace(t, **{pile: getattr(t, pile)[:-1]}, safeties=t.safeties + (cid,), coups=t.coups + (cid,))
        tabs[team] = t
        return replace(hand, tableaux=tabs, to_move=seat, last=None)   # the claimer plays next
    if override:
        a = hand.last
        if cat != "precedence" or not (a and a[0] == "precedence" and a[2] < points and a[1] != seat):
            raise Refused("precedence", "a higher precedence card overrides a lower one only as it is played")
        loser = team_of[seats[a[1]]]
        lt = hand.tableaux[loser]
        tabs[loser] = replace(lt, bonuses=lt.bonuses[:-1])
        t = tabs[team]
        tabs[team] = replace(t, bonuses=t.bonuses + ((cid, points),))
        # "he alone will have the right to play again": and a still higher card may override his.
        return replace(hand, tableaux=tabs, to_move=seat, last=("precedence", seat, points))
    if cat == "progress":
        miles = points
        if not t.rolling():
            raise Refused("roll", "no distance without a green light on top of your battle pile (or the priority vehicle)")
        if miles > scoring["limit"] and t.limited():
            raise Refused("speed limit", f"no card over {scoring['limit']} miles under a speed limit")
        if miles == 200 and t.twos >= scoring["max_200s"]:
            raise Refused("200s", f"at most {scoring['max_200s']} 200-mile cards a hand")
        if t.miles + miles > hand.trip:
            raise Refused("trip", f"{t.miles} + {miles} passes the trip of {hand.trip} miles")
        short = scoring.get("short_trip")
        if extend and (hand.trip != short or hand.extended or t.miles + miles != short):
            raise Refused("extension", f"an extension is called with the card that reaches exactly {short} miles "
                                       "in the short game, once a hand" if short else "this deck has no short game")
        t = replace(t, miles=t.miles + miles, twos=t.twos + (miles == 200))
        tabs[team] = t
        h = replace(hand, tableaux=tabs, to_move=nxt_seat, last=None)
        if t.miles == hand.trip:
            if extend:
                return replace(h, trip=scoring["trip"], extended=True)
            return replace(h, completer=team, delayed=hand.pile_empty)
        return h
    if cat == "attack":
        target = entry.get("target")
        if not isinstance(target, str) or target not in team_of:
            raise Refused("target", f"an attack names its target: one of {', '.join(seats)}")
        tt_name = team_of[target]
        if tt_name == team:
            raise Refused("target", "no attack on your own team")
        tt = hand.tableaux[tt_name]
        if tt.protected(cid):
            safe = next(s for s in tt.safeties if cid in PROTECTS[s])
            raise Refused("protected", f"{target} has shown the {safe}, which protects against this")
        if cid == "speed-limit":
            if tt.speed and tt.speed[-1] == "speed-limit":
                raise Refused("already limited", f"{target} is already under a speed limit")
            tt = replace(tt, speed=tt.speed + (cid,))
        else:
            if not tt.rolling():
                raise Refused("not rolling", f"{target} is not rolling: a hazard stops a player who is moving")
            tt = replace(tt, battle=tt.battle + (cid,))
        tabs[tt_name] = tt
        return replace(hand, tableaux=tabs, to_move=nxt_seat, last=("attack", seat, tt_name, cid))
    if cat == "parade":
        if cid == "end-of-speed-limit":
            if not (t.speed and t.speed[-1] == "speed-limit"):
                raise Refused("remedy", "an end of speed limit goes on a speed limit")
            t = replace(t, speed=t.speed + (cid,))
        elif cid == "traffic-light-green":
            top = t.battle[-1] if t.battle else None
            if top == "traffic-light-green":
                raise Refused("remedy", "you already have a green light")
            if top in HAZARDS and top != "traffic-light-red":
                raise Refused("remedy", f"a green light does not mend the {top} on your battle pile")
            t = replace(t, battle=t.battle + (cid,))
        else:
            top = t.battle[-1] if t.battle else None
            if top != HAZARD_OF[cid]:
                raise Refused("remedy", f"the {cid} mends only the {HAZARD_OF[cid]}; your battle pile shows "
                                        f"{top or 'nothing'}")
            t = replace(t, battle=t.battle + (cid,))
        tabs[team] = t
        return replace(hand, tableaux=tabs, to_move=nxt_seat, last=None)
    if cat == "immunity":
        battle, speed = t.battle, t.speed
        # A safety shown clears the hazard it protects against from the top of its pile.
        if battle and battle[-1] in PROTECTS[cid]:
            battle = battle[:-1]
        if speed and speed[-1] in PROTECTS[cid]:
            speed = speed[:-1]
        tabs[team] = replace(t, safeties=t.safeties + (cid,), battle=battle, speed=speed)
        return replace(hand, tableaux=tabs, to_move=seat, last=None)   # a safety plays again
    if cat == "precedence":
        tabs[team] = replace(t, bonuses=t.bonuses + ((cid, points),))
        return replace(hand, tableaux=tabs, to_move=seat, last=("precedence", seat, points))
    raise Refused("card", f"cannot play {cid}")
