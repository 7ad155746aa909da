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
      - {tallies: {North-South: {miles: 1000, safeties: 1, trip: true}, East-West: {miles: 450}}}
Prompt notation: `[PLAYER:] CARD [TARGET] [cf | over | extend]`, `discard CARD`, `pile-empty`,
`end-hand`, `tallies TEAM miles=700 safeties=2 ...; TEAM ...`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ...errors import SpecError
from ...referee.session import RefereeRules, Refused, TurnReport, names, record_reference
from ...spec import load_spec
from .deck import MilleBornesDeck, load_deck
from .rules import Hand, HandResult, Tableau, check_tallies, hand_tallies, play_card, score_tallies

DECK = "decks/mille_bornes.yaml"


@dataclass(frozen=True)
class MBGame:
    deck: MilleBornesDeck
    scoring: dict
    seats: tuple[str, ...]
    team_of: dict
    teams: tuple[str, ...]
    short: bool = False
    hand: Hand | None = None
    results: tuple = ()
    winner: str | None = None
    hands_played: int = 0

    def totals(self) -> dict:
        return {tm: sum(r.points(tm) for r in self.results) for tm in self.teams}


def new_game(header: dict, record_path: Path | None) -> MBGame:
    path = record_reference(header, "deck", DECK)
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
        for m in members:
            if m not in seats:
                raise Refused("teams", f"{m} is not among the players")
            team_of[m] = name
    if set(team_of) != set(seats):
        raise Refused("teams", "every player belongs to one team")
    short = bool(header.get("short"))
    if short and "short_trip" not in deck.spec.data["scoring"]:
        raise Refused("short", "this deck's scoring has no short game")
    return MBGame(deck, deck.spec.data["scoring"], seats, team_of, tuple(teams), short)


def card_lookup(deck: MilleBornesDeck):
    by = {}
    for c in deck.cards:
        for key in (c.id, c.index.lower(), str(c.miles) if c.miles else None):
            if key:
                by[key.lower()] = c

    def find(name):
        c = by.get(str(name).strip().lower())
        if c is None:
            raise Refused("card", f"no card {name!r} in {deck.title}")
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
    tallies = hand_tallies(hand, state.scoring)
    return HandResult(hand.number, "cards", score_tallies(state.scoring, tallies), tallies)


def apply(state: MBGame, entry: dict) -> tuple[MBGame, TurnReport]:
    if state.winner:
        raise Refused("game over", f"{state.winner} has won")
    if "tallies" in entry:
        if state.hand is not None:
            raise Refused("tallies", "tallies replace a whole hand; this hand is being played card by card")
        unknown = [t for t in entry["tallies"] if t not in state.teams]
        if unknown:
            raise Refused("tallies", f"{unknown[0]}: not a team ({', '.join(state.teams)})")
        tallies = check_tallies(state.scoring, entry["tallies"], state.short)
        for tm in state.teams:
            tallies.setdefault(tm, check_tallies(state.scoring, {tm: {}}, state.short)[tm])
        result = HandResult(state.hands_played + 1, "tallies", score_tallies(state.scoring, tallies), tallies)
        nxt = _close(state, result)
        return nxt, _report(nxt, f"hand {result.number} (tallies)", result)
    hand = state.hand or _start_hand(state)
    if entry.get("event") == "draw-pile-empty":
        nxt = replace(state, hand=replace(hand, pile_empty=True))
        return nxt, TurnReport("     the draw pile is empty", {"event": "draw-pile-empty"})
    if entry.get("event") == "end-of-hand":
        result = _hand_result(state, hand)
        nxt = _close(state, result)
        return nxt, _report(nxt, f"hand {result.number} ends", result)
    player = entry.get("player")
    if player not in state.team_of:
        raise Refused("player", f"{player!r} is not playing ({', '.join(state.seats)})")
    if "discard" in entry:
        seat = state.seats.index(player)
        if seat != hand.to_move:
            raise Refused("turn order", f"it is {state.seats[hand.to_move]}'s turn, not {player}'s")
        card_lookup(state.deck)(entry["discard"])
        hand = replace(hand, to_move=(seat + 1) % len(state.seats), last=None)
        return replace(state, hand=hand), TurnReport(f"     {player} discards {entry['discard']}",
                                                     {"player": player, "discard": str(entry["discard"])})
    if "card" not in entry:
        raise Refused("entry", "an entry plays a card, discards one, names an event, or gives tallies")
    hand = play_card(hand, list(state.seats), state.team_of, card_lookup(state.deck), state.scoring, entry)
    tm = state.team_of[player]
    t = hand.tableaux[tm]
    what = f"{player} plays {entry['card']}" + (f" on {entry['target']}" if entry.get("target") else "")
    what += " (coup fourré)" if entry.get("coup_fourre") else " (overrides)" if entry.get("override") else ""
    data = {"player": player, "card": str(entry["card"]), "target": entry.get("target"),
            "coup_fourre": bool(entry.get("coup_fourre")), "override": bool(entry.get("override")),
            "miles": {k: v.miles for k, v in hand.tableaux.items()}}
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
    return TurnReport("\n".join(lines), {"hand": result.number, "mode": result.mode,
                                         "scores": {tm: {"items": result.items[tm], "points": result.points(tm)}
                                                    for tm in state.teams}})


def summary(state: MBGame, reports) -> dict:
    hands = [{"hand": r.number, "mode": r.mode,
              "teams": {tm: {"items": r.items[tm], "points": r.points(tm), "tallies": r.tallies[tm]}
                        for tm in state.teams}} for r in state.results]
    return {"game": "mille-bornes", "players": list(state.seats), "teams": list(state.teams),
            "hands": hands, "totals": state.totals(), "winner": state.winner, "turns": [r.data for r in reports]}


def render(state: MBGame, colour: bool = False) -> str:
    if state.hand is None:
        return "Totals: " + ", ".join(f"{tm} {v}" for tm, v in state.totals().items())
    lines = [f"Hand {state.hand.number}, trip {state.hand.trip}:"]
    for tm, t in state.hand.tableaux.items():
        lines.append(f"  {tm}: {t.miles} miles; battle {t.battle[-1] if t.battle else '-'}; "
                     f"speed {t.speed[-1] if t.speed else '-'}; safeties {', '.join(t.safeties) or '-'}")
    return "\n".join(lines)


def final_text(state: MBGame) -> str:
    totals = ", ".join(f"{tm} {v}" for tm, v in state.totals().items())
    return f"Totals: {totals}. " + (f"Winner: {state.winner}." if state.winner else "Game not over.")


def prompt(state: MBGame) -> str:
    hand = state.hand or _start_hand(state)
    return state.seats[hand.to_move]


def parse_move(text: str, state: MBGame) -> dict:
    words = text.split()
    if words == ["pile-empty"]:
        return {"event": "draw-pile-empty"}
    if words == ["end-hand"]:
        return {"event": "end-of-hand"}
    if words and words[0] == "tallies":
        tallies = {}
        for part in " ".join(words[1:]).split(";"):
            bits = part.split()
            if not bits:
                continue
            team, fields = bits[0], {}
            for b in bits[1:]:
                k, _, v = b.partition("=")
                fields[k] = int(v) if v.isdigit() else v.lower() in ("yes", "true", "1", "")
            tallies[team] = fields
        return {"tallies": tallies}
    player = prompt(state)
    if words and words[0].endswith(":"):
        player, words = words[0][:-1], words[1:]
    if words and words[0] == "discard" and len(words) == 2:
        return {"player": player, "discard": words[1]}
    if not words:
        raise ValueError("a card, e.g. go, 75, stop Bob, ace cf, discard 25")
    entry = {"player": player, "card": words[0]}
    for w in words[1:]:
        if w in ("cf", "coup-fourre"):
            entry["coup_fourre"] = True
        elif w in ("over", "override"):
            entry["override"] = True
        elif w == "extend":
            entry["extend"] = True
        else:
            entry["target"] = w
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
    help_text="Plays: [PLAYER:] CARD [TARGET] [cf|over|extend], e.g.  go | 75 | stop Bob | Bob: ace cf |\n"
              "  discard 25 | pile-empty | end-hand | tallies Ann miles=700 safeties=2 trip; Bob miles=450")
