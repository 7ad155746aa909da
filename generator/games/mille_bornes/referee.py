"""The Mille Bornes referee: hands card by card or by tallies, scored from the deck's table.

Record (YAML):
    game: mille-bornes
    deck: decks/mille_bornes.yaml          # default; decks/mille_bornes_1961.yaml: the patent's game
    players: [Ann, Bob, Cat, Dan]          # in seating order
    teams: {North-South: [Ann, Cat], East-West: [Bob, Dan]}   # optional: partners share a tableau
    short: false                           # the short game (700, extension to 1000 when called)
    entries:
      - {player: Ann, card: go}
      - {player: Bob, card: go}
      - {player: Cat, card: stop, target: Bob}
      - {player: Bob, card: priority-vehicle, coup_fourre: true}   # right after the matching attack
      - {player: Dan, discard: 25}
      - {event: draw-pile-empty}              # later completion earns the delayed action
      - {player: Ann, pass: true}             # the pile is empty and Ann has no card left
      - {event: end-of-hand}                  # only once the draw pile is empty
      - {tallies: {North-South: {miles: 1000, safeties: 1, trip: true}, East-West: {miles: 450}}}
      - {tallies: {Ann: {miles: 1000, trip: true}, Bob: {miles: 825}}, extended: true}   # short game
Prompt notation: `[PLAYER:] CARD [TARGET] [cf | over | extend]`, `discard CARD`, `pass`, `pile-empty`,
`end-hand`, `tallies [extended;] TEAM miles=700 safeties=2 trip ...; TEAM ...`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from ...errors import SpecError, plural, show
from ...referee.contract import RefereeRules, Refused, TurnReport, known_name, match_name, names, record_reference
from ...spec import load_spec
from .deck import MilleBornesDeck, load_deck
from .rules import (DEALT, DeckFacts, Hand, HandResult, Tableau, cards_left, check_tallies, exact_flag,
                    hand_tallies, pass_turn, play_card, score_tallies, take_card)

DECK = "decks/mille_bornes.yaml"
# The keys each kind of entry may have (a mixture is refused rather than half-read).
FORMS = {"card": {"player", "card", "target", "coup_fourre", "override", "extend"},
         "discard": {"player", "discard"}, "pass": {"player", "pass"}, "event": {"event"},
         "tallies": {"tallies", "extended"}}


@dataclass(frozen=True)
class MBGame:
    deck: MilleBornesDeck
    facts: DeckFacts
    scoring: dict
    seats: tuple[str, ...]
    team_of: dict
    teams: tuple[str, ...]
    card_of: Callable | None = field(default=None, compare=False)   # name -> (id, category, points): card_lookup
    short: bool = False
    hand: Hand | None = None
    results: tuple = ()
    winner: str | None = None
    hands_played: int = 0

    def totals(self) -> dict:
        return {tm: sum(r.points(tm) for r in self.results) for tm in self.teams}


def deck_facts(deck: MilleBornesDeck) -> DeckFacts:
    return DeckFacts(size=deck.total, counts={c.id: c.count for c in deck.cards},
                     safeties=sum(c.count for c in deck.cards if c.category.key == "immunity"),
                     precedence=tuple(c.points for c in deck.expanded() if c.category.key == "precedence"),
                     distance=sum(c.miles * c.count for c in deck.cards if c.category.key == "progress"))


def new_game(header: dict, record_path: Path | None) -> MBGame:
    path = record_reference(header, "deck", DECK, ("mille-bornes-deck",))
    try:
        deck = load_deck(load_spec(path, display=header.get("deck", DECK)))
    except SpecError as exc:
        raise Refused("deck", str(exc)) from None
    if "scoring" not in deck.spec.data:
        raise Refused("deck", f"{deck.spec.file} has no scoring: table")
    seats = tuple(header["players"])
    if len(set(seats)) != len(seats):
        raise Refused("players", "two players with the same name")
    teams = header.get("teams") or {p: [p] for p in seats}
    team_of = {}
    for name, members in teams.items():
        for given in members:
            m = known_name(given, seats)           # as the notation matches names: without regard to case
            if m is None:
                raise Refused("teams", f"{given} is not among the players")
            if m in team_of:
                raise Refused("teams", f"{m} is in two teams ({team_of[m]} and {name})")
            team_of[m] = name
    if set(team_of) != set(seats):
        raise Refused("teams", "every player belongs to one team")
    short = exact_flag(header.get("short", False), "short", "short")
    if short and "short_trip" not in deck.spec.data["scoring"]:
        raise Refused("short", "this deck's scoring has no short game")
    facts = deck_facts(deck)
    if facts.size <= DEALT * len(seats):
        raise Refused("players", f"{len(seats)} players need more than the {facts.size} cards of this deck")
    return MBGame(deck, facts, deck.spec.data["scoring"], seats, team_of, tuple(teams), card_lookup(deck), short)


def card_lookup(deck: MilleBornesDeck):
    by = {}
    for c in deck.cards:
        for key in (c.id, c.index.lower(), str(c.miles) if c.miles else None):
            if key:
                by[key.lower()] = c

    def find(name):
        if isinstance(name, bool) or not isinstance(name, (str, int)):
            raise Refused("card", f"a card is named by its id or corner index, not {show(name)}")
        c = by.get(str(name).strip().lower())
        if c is None:
            raise Refused("card", f"no card {show(name)} in {deck.title}")
        return c.id, c.category.key, c.miles or c.points or 0
    return find


def _start_hand(state: MBGame) -> Hand:
    trip = state.scoring["short_trip"] if state.short else state.scoring["trip"]
    return Hand(state.hands_played + 1, trip, {tm: Tableau() for tm in state.teams},
                to_move=state.hands_played % len(state.seats))


def _close(state: MBGame, result: HandResult) -> MBGame:
    results = state.results + (result,)
    s = replace(state, hand=None, results=results, hands_played=state.hands_played + 1)
    totals = s.totals()
    winner = None
    if state.scoring["end"] == "trip":
        done = [tm for tm, t in result.tallies.items() if t["trip"]]
        winner = done[0] if done else None
    else:
        best = max(totals.values())
        leaders = [tm for tm, v in totals.items() if v == best]
        if best >= state.scoring["target"] and len(leaders) == 1:
            winner = leaders[0]
    return replace(s, winner=winner)


def _hand_result(state: MBGame, hand: Hand) -> HandResult:
    tallies = hand_tallies(hand)
    return HandResult(hand.number, "cards", score_tallies(state.scoring, state.facts, tallies), tallies,
                      hand.extended)


def _form(entry) -> str:
    if not isinstance(entry, dict):
        raise Refused("entry", "an entry is a mapping: a card, a discard, a pass, an event or tallies")
    for form in ("tallies", "event", "pass", "discard", "card"):
        if form in entry:
            extra = sorted(set(entry) - FORMS[form], key=str)
            if extra:
                raise Refused("entry", f"{extra[0]}: not part of a {form} entry (its keys: "
                                       f"{', '.join(sorted(FORMS[form]))})")
            return form
    raise Refused("entry", "an entry plays a card, discards one, passes, names an event, or gives tallies")


def apply(state: MBGame, entry: dict) -> tuple[MBGame, TurnReport]:
    if state.winner:
        raise Refused("game over", f"{state.winner} has won")
    form = _form(entry)
    if form == "tallies":
        if state.hand is not None:
            raise Refused("tallies", "tallies replace a whole hand; this hand is being played card by card")
        tallies, extended = check_tallies(state.facts, state.scoring, state.teams, entry["tallies"], state.short,
                                          entry.get("extended", False))
        result = HandResult(state.hands_played + 1, "tallies", score_tallies(state.scoring, state.facts, tallies),
                            tallies, extended)
        nxt = _close(state, result)
        return nxt, _report(nxt, f"hand {result.number} (tallies{', extended' if extended else ''})", result)
    hand = state.hand or _start_hand(state)
    if form == "event":
        if entry["event"] == "draw-pile-empty":
            if hand.pile_empty:
                raise Refused("draw pile", "the draw pile is already empty")
            left = pile_left(state, hand)
            if left:
                raise Refused("draw pile", f"the draw pile still holds {plural(left, 'card')}: every card played or "
                                           f"discarded is replaced from it ({state.facts.size} in the deck, "
                                           f"{DEALT} dealt to each of {len(state.seats)} players, {hand.drawn} drawn since)")
            nxt = replace(state, hand=replace(hand, pile_empty=True))
            return nxt, TurnReport("     the draw pile is empty", {"event": "draw-pile-empty"})
        if entry["event"] == "end-of-hand":
            if not hand.pile_empty:
                raise Refused("end of hand", "a hand ends when the trip is completed, or after the draw pile "
                                             "runs out (enter pile-empty first)")
            result = _hand_result(state, hand)
            nxt = _close(state, result)
            return nxt, _report(nxt, f"hand {result.number} ends", result)
        raise Refused("event", f"no event {show(entry['event'])} (draw-pile-empty, end-of-hand)")
    player = known_name(entry.get("player"), state.seats)      # without regard to case, as names are matched
    if player is None:
        raise Refused("player", f"{show(entry.get('player'))} is not playing ({', '.join(state.seats)})")
    entry = {**entry, "player": player}
    seats = list(state.seats)
    seat = seats.index(player)
    if form == "pass":
        if entry["pass"] is not True:
            raise Refused("pass", "a pass is written pass: true")
        hand = pass_turn(hand, seats, seat)
        return replace(state, hand=hand), TurnReport(f"     {player} has no card left: the turn passes",
                                                     {"player": player, "pass": True})
    if form == "discard":
        if seat != hand.to_move:
            raise Refused("turn order", f"it is {state.seats[hand.to_move]}'s turn, not {player}'s")
        cid = state.card_of(entry["discard"])[0]
        hand = take_card(replace(hand, to_move=(seat + 1) % len(seats), last=None), state.facts, seats, seat, cid)
        return replace(state, hand=hand), TurnReport(f"     {player} discards {entry['discard']}",
                                                     {"player": player, "discard": str(entry["discard"])})
    hand = play_card(hand, seats, state.team_of, state.card_of, state.scoring, entry)
    hand = take_card(hand, state.facts, seats, seat, state.card_of(entry["card"])[0])
    tm = state.team_of[player]
    t = hand.tableaux[tm]
    what = f"{player} plays {entry['card']}" + (f" on {entry['target']}" if entry.get("target") else "")
    what += " (coup fourré)" if entry.get("coup_fourre") else " (overrides)" if entry.get("override") else ""
    what += f": extension to {hand.trip}" if entry.get("extend") else ""
    data = {"player": player, "card": str(entry["card"]), "target": entry.get("target"),
            "coup_fourre": bool(entry.get("coup_fourre")), "override": bool(entry.get("override")),
            "extend": bool(entry.get("extend")), "miles": {k: v.miles for k, v in hand.tableaux.items()}}
    if hand.completer:
        result = _hand_result(state, hand)
        nxt = _close(state, result)
        rep = _report(nxt, f"{what}: {t.miles} miles, the trip is done; hand {result.number} ends", result)
        rep.data.update(data)
        return nxt, rep
    return replace(state, hand=hand), TurnReport(f"     {what}   [{tm}: {t.miles} miles]", data)


def _report(state: MBGame, head: str, result: HandResult) -> TurnReport:
    lines = [f"  {head}"]
    for tm in state.teams:
        items = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in result.items[tm].items()) or "nothing"
        lines.append(f"    {tm}: {items} = {result.points(tm)}   (total {state.totals()[tm]})")
    if state.winner:
        lines.append(f"  {state.winner} wins")
    return TurnReport("\n".join(lines), {"hand": result.number, "mode": result.mode, "extended": result.extended,
                                         "scores": {tm: {"items": result.items[tm], "points": result.points(tm)}
                                                    for tm in state.teams}})


def summary(state: MBGame, reports) -> dict:
    hands = [{"hand": r.number, "mode": r.mode, "extended": r.extended,
              "teams": {tm: {"items": r.items[tm], "points": r.points(tm), "tallies": r.tallies[tm]}
                        for tm in state.teams}} for r in state.results]
    return {"game": "mille-bornes", "players": list(state.seats), "teams": list(state.teams),
            "hands": hands, "totals": state.totals(), "winner": state.winner, "turns": [r.data for r in reports]}


def render(state: MBGame, colour: bool = False) -> str:
    if state.hand is None:
        return "Totals: " + ", ".join(f"{tm} {v}" for tm, v in state.totals().items())
    hand = state.hand
    if hand.pile_empty:
        pile = "draw pile empty; cards left: " + ", ".join(f"{p} {cards_left(hand, i)}"
                                                          for i, p in enumerate(state.seats))
    else:
        pile = f"draw pile: {plural(pile_left(state, hand), 'card')}"
    lines = [f"Hand {hand.number}, trip {hand.trip}{' (extended)' if hand.extended else ''}; {pile}:"]
    for tm, t in hand.tableaux.items():
        lines.append(f"  {tm}: {t.miles} miles; battle {t.battle[-1] if t.battle else '-'}; "
                     f"speed {t.speed[-1] if t.speed else '-'}; safeties {', '.join(t.safeties) or '-'}")
    return "\n".join(lines)


def pile_left(state: MBGame, hand: Hand) -> int:
    """Cards still in the draw pile: the deck less six dealt to each player and one drawn for every
    card played or discarded since (the referee sees every card that leaves a hand)."""
    return state.facts.size - DEALT * len(state.seats) - hand.drawn


def final_text(state: MBGame) -> str:
    totals = ", ".join(f"{tm} {v}" for tm, v in state.totals().items())
    return f"Totals: {totals}. " + (f"Winner: {state.winner}." if state.winner else "Game not over.")


def prompt(state: MBGame) -> str:
    hand = state.hand or _start_hand(state)
    return state.seats[hand.to_move]


def _tally_value(team: str, word: str):
    key, eq, value = word.partition("=")
    if not eq:
        return key, True                      # a bare flag: trip, delayed, safe_trip...
    if value.isdigit():
        return key, int(value)
    if value.lower() in ("yes", "true"):
        return key, True
    if value.lower() in ("no", "false"):
        return key, False
    raise ValueError(f"{team} {word}: a count is a whole number (miles=700), a flag yes or no (trip=yes)")


FLAGS = {"cf": "coup_fourre", "coup-fourre": "coup_fourre", "over": "override", "override": "override",
         "extend": "extend"}
# Words of the notation that no player or team may be called (a target named "cf" would read as a flag).
RESERVED = ("pass", "discard", "tallies", "extended", "pile-empty", "end-hand", *FLAGS)


def parse_move(text: str, state: MBGame) -> dict:
    words = text.split()
    if words == ["pile-empty"]:
        return {"event": "draw-pile-empty"}
    if words == ["end-hand"]:
        return {"event": "end-of-hand"}
    if words and words[0] == "tallies":
        tallies, extended = {}, False
        for part in " ".join(words[1:]).split(";"):
            bits = part.split()
            if bits == ["extended"]:
                extended = True
                continue
            if not bits:
                continue
            team, rest = match_name(bits, state.teams)
            if team is None:                       # not a team: the referee says so
                team, rest = bits[0], bits[1:]
            tallies[team] = dict(_tally_value(team, b) for b in rest)
        return {"tallies": tallies, **({"extended": True} if extended else {})}
    player = prompt(state)
    head, colon, tail = text.partition(":")
    if colon:                                      # PLAYER: ... (names may have spaces, never a colon)
        player, rest = match_name(head.split(), state.seats)
        if player is None or rest:
            raise ValueError(f"no player {show(' '.join(head.split()))} ({', '.join(state.seats)})")
        words = tail.split()
    if words == ["pass"]:
        return {"player": player, "pass": True}
    if words and words[0] == "discard" and len(words) == 2:
        return {"player": player, "discard": words[1]}
    if not words:
        raise ValueError("a card, e.g. go, 75, stop Bob, ace cf, discard 25, pass")
    entry = {"player": player, "card": words[0]}
    target, rest = match_name(words[1:], state.seats)      # the longest player's name first
    if target is None or any(w.lower() not in FLAGS for w in rest):
        rest = words[1:]
        others = [w for w in rest if w.lower() not in FLAGS]
        target = (match_name(others, state.seats)[0] or " ".join(others)) if others else None
        rest = [w for w in rest if w.lower() in FLAGS]
    if target is not None:
        entry["target"] = target
    for w in rest:
        entry[FLAGS[w.lower()]] = True
    return entry


def header_from_args(args) -> dict:
    header = {"players": names(args.players, "Player 1,Player 2")}
    if args.teams:
        header["teams"] = {}
        for part in args.teams.split(";"):
            name, _, members = part.partition("=")
            header["teams"][name.strip()] = names(members)
    if args.deck:
        header["deck"] = args.deck
    if args.short:
        header["short"] = True
    return header


REFEREE = RefereeRules(
    game="mille-bornes", record_kind="mille-bornes-record", new_game=new_game, apply=apply, summary=summary,
    parse_move=parse_move, render=render, prompt=prompt, final_text=final_text, header_from_args=header_from_args,
    reserved_names=RESERVED, is_over=lambda state: state.winner is not None,
    help_text="Plays: [PLAYER:] CARD [TARGET] [cf|over|extend], e.g.  go | 75 | stop Bob | Bob: ace cf |\n"
              "  discard 25 | pass | pile-empty | end-hand |\n"
              "  tallies [extended;] Ann miles=700 safeties=2 trip; Bob miles=450")
