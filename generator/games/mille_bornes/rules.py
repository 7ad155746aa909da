"""Mille Bornes rules: a hand played card by card, or entered as tallies, and its score.
Pure functions of state and entry; the amounts come from the deck's `scoring:` table.

Cards are named by id (`traffic-light-red`) or by their corner index (`stop`, `go`, `25`, `+300`).
Partners share one tableau (battle pile, speed pile, distance, safeties), as in the published game.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ...referee.session import Refused

REMEDY = {"traffic-light-red": "traffic-light-green", "puncture": "spare-wheel", "petrol-trouble": "petrol",
          "accident": "repairs", "speed-limit": "end-of-speed-limit"}
HAZARD_OF = {v: k for k, v in REMEDY.items()}
HAZARDS = frozenset(REMEDY)
PROTECTS = {"priority-vehicle": ("traffic-light-red", "speed-limit"), "puncture-proof": ("puncture",),
            "reserve-tank": ("petrol-trouble",), "ace-of-the-steering-wheel": ("accident",)}
SAFETIES = tuple(PROTECTS)
TALLY_FIELDS = ("miles", "safeties", "coups_fourres", "trip", "delayed", "safe_trip", "shut_out", "extension")


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


@dataclass(frozen=True)
class HandResult:
    number: int
    mode: str                      # cards | tallies
    items: dict                    # team -> {item: points}
    tallies: dict                  # team -> what was counted

    def points(self, team: str) -> int:
        return sum(self.items[team].values())


def score_tallies(scoring: dict, tallies: dict) -> dict:
    """Each team's scoring items from its tallies (fields as TALLY_FIELDS)."""
    p = scoring["points"]
    out = {}
    for team, t in tallies.items():
        items = {"miles": t["miles"] * p["mile"], "safeties": t["safeties"] * p["safety"]}
        if t["safeties"] == 4:
            items["all_safeties"] = p["all_safeties"]
        items["coups_fourres"] = t["coups_fourres"] * p["coup_fourre"]
        if t.get("precedence"):
            items["precedence"] = t["precedence"]
        if t["trip"]:
            items["trip_completed"] = p["trip_completed"]
            for flag, key in (("delayed", "delayed_action"), ("safe_trip", "safe_trip"), ("shut_out", "shut_out"),
                              ("extension", "extension")):
                if t[flag]:
                    items[key] = p[key]
        out[team] = {k: v for k, v in items.items() if v}
    return out


def check_tallies(scoring: dict, tallies: dict, short: bool) -> dict:
    """Refuse tallies that cannot happen, naming the field; return them completed with defaults."""
    full = {}
    for team, t in tallies.items():
        if not isinstance(t, dict):
            raise Refused("tallies", f"{team}: expected a mapping of {', '.join(TALLY_FIELDS)}")
        unknown = set(t) - set(TALLY_FIELDS)
        if unknown:
            raise Refused("tallies", f"{team}.{sorted(unknown)[0]}: unknown field (known: {', '.join(TALLY_FIELDS)})")
        t = {"miles": 0, "safeties": 0, "coups_fourres": 0, "trip": False, "delayed": False, "safe_trip": False,
             "shut_out": False, "extension": False, **t}
        trip = scoring["trip"] if not short else scoring.get("short_trip", scoring["trip"])
        limit = scoring["trip"] if short and t["extension"] else trip
        m = t["miles"]
        if not isinstance(m, int) or m < 0 or m % 25:
            raise Refused("tallies", f"{team}.miles: {m!r} is not a multiple of 25")
        if m > limit:
            raise Refused("tallies", f"{team}.miles: {m} is more than the trip ({limit})")
        if not 0 <= t["safeties"] <= 4:
            raise Refused("tallies", f"{team}.safeties: {t['safeties']} (there are 4 safeties)")
        if not 0 <= t["coups_fourres"] <= t["safeties"]:
            raise Refused("tallies", f"{team}.coups_fourres: {t['coups_fourres']} is more than the safeties shown "
                                     f"({t['safeties']})")
        if t["trip"] and m != limit:
            raise Refused("tallies", f"{team}.trip: completing the trip means {limit} miles, not {m}")
        for flag in ("delayed", "safe_trip", "shut_out", "extension"):
            if t[flag] and not t["trip"]:
                raise Refused("tallies", f"{team}.{flag}: only the team that completed the trip")
        if t["extension"] and not short:
            raise Refused("tallies", f"{team}.extension: only in the short game ({scoring.get('short_trip')} miles)")
        full[team] = t
    done = [tm for tm, t in full.items() if t["trip"]]
    if len(done) > 1:
        raise Refused("tallies", f"{done[1]}.trip: only one team completes the trip ({done[0]} did)")
    for team, t in full.items():
        if t["shut_out"] and any(o["miles"] for tm, o in full.items() if tm != team):
            other = next(tm for tm, o in full.items() if tm != team and o["miles"])
            raise Refused("tallies", f"{team}.shut_out: {other} has {full[other]['miles']} miles")
    return full


def hand_tallies(hand: Hand, scoring: dict) -> dict:
    """The tallies a hand played card by card comes to."""
    out = {}
    for team, t in hand.tableaux.items():
        done = team == hand.completer
        out[team] = {"miles": t.miles, "safeties": len(t.safeties), "coups_fourres": len(t.coups),
                     "trip": done, "delayed": done and hand.delayed, "safe_trip": done and t.twos == 0,
                     "shut_out": done and all(o.miles == 0 for tm, o in hand.tableaux.items() if tm != team),
                     "extension": done and hand.extended,
                     "precedence": sum(pts for _, pts in t.bonuses)}
    return out


def play_card(hand: Hand, seats: list, team_of: dict, card_of, scoring: dict, entry: dict) -> Hand:
    """One play of a hand: the hand after it, or Refused. card_of(name) -> (id, category, points)."""
    player = entry["player"]
    seat = seats.index(player)
    team = team_of[player]
    cid, cat, points = card_of(entry["card"])
    t = hand.tableaux[team]
    tabs = dict(hand.tableaux)
    cf, override = bool(entry.get("coup_fourre")), bool(entry.get("override"))
    out_of_turn = cf or override
    if not out_of_turn and seat != hand.to_move:
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
        return replace(hand, tableaux=tabs, to_move=seat, last=None)   # he alone plays again
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
        t = replace(t, miles=t.miles + miles, twos=t.twos + (miles == 200))
        tabs[team] = t
        h = replace(hand, tableaux=tabs, to_move=nxt_seat, last=None)
        if t.miles == hand.trip:
            if entry.get("extend"):
                if hand.trip != scoring.get("short_trip") or hand.extended:
                    raise Refused("extension", "an extension is called on reaching the short game's trip")
                return replace(h, trip=scoring["trip"], extended=True)
            return replace(h, completer=team, delayed=hand.pile_empty)
        return h
    if cat == "attack":
        target = entry.get("target")
        if target not in team_of:
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
        if cid in t.safeties:
            raise Refused("safety", "that safety is already shown")
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
