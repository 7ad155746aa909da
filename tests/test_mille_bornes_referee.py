"""The Mille Bornes referee on positions set up by hand from the rules (GB 963,821 and the published
rules), one rule a test: a hand card by card worked out by hand, each refusal, the coup fourré, the
patent's precedence overriding, the extension, the draw pile running out, tallies and their exact
types, and a team game to 5000. Records are replayed in-process (the CLI is run where its exit
code and one-line error are the point)."""
import argparse
import io

import pytest
import yaml

from conftest import pnp_here
from generator.games.mille_bornes.referee import REFEREE
from generator.referee.prompt import play
from generator.referee.record import RecordError, load_record, replay, start_game

PATENT = "decks/mille_bornes_1961.yaml"


def write(tmp_path, entries, **header):
    rec = {"game": "mille-bornes", "players": ["Ann", "Bob"], **header, "entries": entries}
    path = tmp_path / "game.yaml"
    # (libyaml's writer: the record is the same YAML, written in a tenth of the time; what reads it
    # is the referee's own loader)
    path.write_text(yaml.dump(rec, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True))
    return path


def score(tmp_path, entries, **header):
    """(error line or None, the --json summary or None), as `pnp referee mille-bornes score --json`."""
    path = write(tmp_path, entries, **header)
    try:
        state, reports, _ = replay(REFEREE, load_record(path, REFEREE))
    except RecordError as exc:
        return str(exc), None
    return None, REFEREE.summary(state, reports)


def accepted(tmp_path, entries, **header):
    err, out = score(tmp_path, entries, **header)
    assert err is None, err
    return out


def refused(tmp_path, entries, rule, **header):
    err, _ = score(tmp_path, entries, **header)
    assert err is not None, "accepted"
    assert f"entry {len(entries)}: refused ({rule})" in err, err
    return err


def A(card, **kw):
    return {"player": "Ann", "card": card, **kw}


def B(card, **kw):
    return {"player": "Bob", "card": card, **kw}


def C(card, **kw):
    return {"player": "Cat", "card": card, **kw}


def discard(player, card):
    return {"player": player, "discard": card}


PILE_EMPTY = {"event": "draw-pile-empty"}
END = {"event": "end-of-hand"}


def spent(entries, after=(), **header):
    """The entries, then a discard by whoever is to move until the draw pile is spent (every card
    given up is replaced from it: 94 draws for two players of the 106-card deck), then the pile's
    end, then `after`, whose cards are kept back for it: a hand at the moment the pile runs out."""
    from generator.games.mille_bornes.referee import pile_left
    state = start_game(REFEREE, {"game": "mille-bornes", "players": ["Ann", "Bob"], **header}, None)
    for e in entries:
        state, _ = REFEREE.apply(state, e)
    kept = {}
    for e in after:
        name = e.get("card", e.get("discard"))
        if name is not None:
            cid = state.card_of(name)[0]
            kept[cid] = kept.get(cid, 0) + 1
    drawn = []
    while pile_left(state, state.hand):
        free = {cid: n - state.hand.played.get(cid, 0) - kept.get(cid, 0) for cid, n in state.facts.counts.items()}
        cid = max(sorted(free), key=lambda c: free[c])
        drawn.append({"player": REFEREE.prompt(state), "discard": cid})
        state, _ = REFEREE.apply(state, drawn[-1])
    return list(entries) + drawn + [PILE_EMPTY] + list(after)

HAND = [A("go"), B("go"), A(200), B("stop", target="Ann"), A("priority-vehicle", coup_fourre=True),
        A(200), B(100), A(100), B(75), A(100), B("flat", target="Ann"), A("spare"), B(50), A(100),
        discard("Bob", 25), A(100), B(25), A(100), B(50), A(100)]


def test_a_hand_card_by_card_worked_by_hand(tmp_path):
    out = accepted(tmp_path, HAND)
    (hand,) = out["hands"]
    ann, bob = hand["teams"]["Ann"], hand["teams"]["Bob"]
    # Ann: 200 + 200 + 100 x 6 = 1000 miles; the priority vehicle shown as a coup fourré; two
    # 200s, so no safe trip; Bob has miles, so no shut-out.
    assert ann["tallies"] == {"miles": 1000, "safeties": 1, "coups_fourres": 1, "precedence": 0, "trip": True,
                              "delayed": False, "safe_trip": False, "shut_out": False, "extension": False}
    assert ann["items"] == {"miles": 1000, "safeties": 100, "coups_fourres": 300, "trip_completed": 400}
    assert ann["points"] == 1800
    assert bob["tallies"]["miles"] == 100 + 75 + 50 + 25 + 50 and bob["points"] == 300
    assert out["totals"] == {"Ann": 1800, "Bob": 300} and out["winner"] is None


# ---------------------------------------------------------------- card by card: one rule a test

def test_no_distance_without_a_green_light(tmp_path):
    refused(tmp_path, [A(25)], "roll")


def test_no_more_than_50_under_a_speed_limit(tmp_path):
    refused(tmp_path, [A("go"), B("limit", target="Ann"), A(75)], "speed limit")
    accepted(tmp_path, [A("go"), B("limit", target="Ann"), A(50)])


def test_at_most_two_200s(tmp_path):
    refused(tmp_path, [A("go"), B("go"), A(200), B(25), A(200), B(25), A(200)], "200s")


def test_no_passing_the_trip(tmp_path):
    entries = [A("go"), B("go"), A(200), B(25), A(200), B(25), A(100), B(25), A(75), B(25), A(75), B(25), A(100)]
    refused(tmp_path, entries, "trip", short=True)   # 650 + 100 passes 700


def test_no_attack_on_a_protected_player(tmp_path):
    refused(tmp_path, [A("ace"), A("go"), B("crash", target="Ann")], "protected")


def test_a_hazard_only_on_a_rolling_player(tmp_path):
    refused(tmp_path, [A("go"), B("crash", target="Ann"), A(25)], "roll")
    refused(tmp_path, [A(25) | {"card": "go"}, B("go"), A("stop", target="Bob"), B("crash", target="Ann"),
                       A("flat", target="Bob")], "not rolling")


def test_remedy_only_for_the_matching_hazard(tmp_path):
    refused(tmp_path, [A("go"), B("flat", target="Ann"), A("repairs")], "remedy")


def test_coup_fourre_only_right_after_the_attack(tmp_path):
    refused(tmp_path, [A("go"), B("stop", target="Ann"), A("ace", coup_fourre=True)], "coup fourre")   # wrong safety
    refused(tmp_path, [A("go"), B("go"), A(25), B("stop", target="Ann"), A("go"), B(25),
                       A("priority-vehicle", coup_fourre=True)], "coup fourre")                          # too late


def test_turn_order(tmp_path):
    refused(tmp_path, [A("go"), A(25)], "turn order")


def test_a_target_only_for_an_attack(tmp_path):
    refused(tmp_path, [A("go", target="Bob")], "target")


def test_an_entry_is_one_thing(tmp_path):
    err = refused(tmp_path, [{"player": "Ann", "card": "go", "discard": 25}], "entry")
    assert "card: not part of a discard entry" in err


def test_each_card_as_often_as_the_deck_has_it(tmp_path):
    # One priority vehicle in the published deck: Bob cannot show one after Ann has.
    refused(tmp_path, [A("priority-vehicle"), A("go"), B("priority-vehicle")], "card count")
    # Four 200s: the fifth cannot even be discarded.
    twos = [discard("Ann" if i % 2 == 0 else "Bob", 200) for i in range(5)]
    refused(tmp_path, twos, "card count")
    # The patent's deck has two aces of the steering wheel: one team may show both.
    out = accepted(tmp_path, spent([A("ace"), A("ace"), A("go")], [END], deck=PATENT), deck=PATENT)
    assert out["hands"][0]["teams"]["Ann"]["tallies"]["safeties"] == 2
    refused(tmp_path, [A("ace"), A("ace"), A("ace")], "card count", deck=PATENT)


def test_the_draw_pile_holds_the_deck_less_the_hands(tmp_path):
    # 106 cards, six dealt to each of two players: 94 to draw. Every card given up is replaced.
    copies = {"25": 10, "50": 10, "75": 10, "100": 12, "go": 14, "spare": 6, "fuel": 6, "fix": 6, "end": 6,
              "stop": 5, "limit": 4, "flat": 3, "crash": 3}
    cards = [c for c, n in copies.items() for _ in range(n)][:95]
    entries = [discard("Ann" if i % 2 == 0 else "Bob", c) for i, c in enumerate(cards)]
    refused(tmp_path, entries, "draw pile")
    out = accepted(tmp_path, entries[:94] + [PILE_EMPTY, entries[94], END])
    assert out["hands"][0]["teams"]["Ann"]["points"] == 0


def test_a_player_with_no_card_left_passes_once_the_pile_is_empty(tmp_path):
    start = [A("go"), B("go"), A(25), B(25)]
    refused(tmp_path, start + [{"player": "Ann", "pass": True}], "pass")                # the pile is not empty
    # After the pile runs out each holds six; Ann and Bob play them down in turn.
    down = [x for k in range(6) for x in (A(25 if k < 5 else 50), discard("Bob", "stop" if k < 5 else "limit"))]
    refused(tmp_path, spent(start) + [{"player": "Ann", "pass": True}], "pass")         # Ann holds six cards
    entries = spent(start, down)
    refused(tmp_path, entries + [A(25)], "no card")
    out = accepted(tmp_path, entries + [{"player": "Ann", "pass": True}, {"player": "Bob", "pass": True},
                                        {"player": "Ann", "pass": True}, END])
    assert out["hands"][0]["teams"]["Ann"]["tallies"]["miles"] == 25 + 5 * 25 + 50
    refused(tmp_path, entries + [{"player": "Bob", "pass": True}], "turn order")


def test_the_hand_ends_by_completing_the_trip_or_after_the_pile_runs_out(tmp_path):
    refused(tmp_path, [A("go"), B("go"), END], "end of hand")
    out = accepted(tmp_path, spent([A("go"), B("go")], [END]))
    assert [h["teams"]["Ann"]["tallies"]["trip"] for h in out["hands"]] == [False]


def test_the_draw_pile_runs_out_only_once_every_card_is_drawn(tmp_path):
    # Two players of the short game: 94 cards to draw and 4 drawn. The pile cannot be declared
    # empty (and the delayed action then earned) while the referee counts 90 cards in it.
    err = refused(tmp_path, [A("go"), B("go"), A(25), B(25), PILE_EMPTY], "draw pile", short=True)
    assert "still holds 90 cards" in err, err
    entries = spent([A("go"), B("go"), A(25), B(25)])
    assert len(entries) == 4 + 90 + 1
    refused(tmp_path, entries[:-2] + [PILE_EMPTY], "draw pile")          # one card left: "1 card"
    assert "still holds 1 card:" in refused(tmp_path, entries[:-2] + [PILE_EMPTY], "draw pile")
    accepted(tmp_path, entries)


def test_delayed_action_after_the_pile_runs_out(tmp_path):
    between = [discard("Bob", c) for c in ("stop", "limit", "stop", "limit", "stop", "limit", "stop", "limit")]
    ann = [A(200), A(200), A(100), A(100), A(100), A(100), A(100)]
    entries = spent([A("go"), B("go")] + [x for pair in zip(ann, between) for x in pair], [A(100)])
    out = accepted(tmp_path, entries)
    assert out["hands"][0]["teams"]["Ann"]["items"] == {"miles": 1000, "trip_completed": 400, "delayed_action": 300,
                                                       "shut_out": 500}


def test_precedence_override_in_the_patent_game(tmp_path):
    entries = spent([A("+200"), B("+300", override=True), B("go")], [END], deck=PATENT)
    out = accepted(tmp_path, entries, deck=PATENT)
    teams = out["hands"][0]["teams"]
    # Bob's fire service overrides Ann's police vehicle as it is played: Bob alone scores and plays on.
    assert teams["Bob"]["items"].get("precedence") == 300 and "precedence" not in teams["Ann"]["items"]
    refused(tmp_path, [A("+300"), B("+200", override=True)], "precedence", deck=PATENT)
    refused(tmp_path, [A("go"), B("+200", override=True)], "precedence", deck=PATENT)


def test_a_higher_precedence_card_overrides_an_override(tmp_path):
    # "If however another player possesses a precedence card of higher value, he may place it ...
    # at this moment, and he alone will have the right to play again": the same holds against Bob's.
    three = {"deck": PATENT, "players": ["Ann", "Bob", "Cat"]}
    entries = spent([A("+50"), B("+100", override=True), C("+300", override=True), C("go")], [END], **three)
    out = accepted(tmp_path, entries, **three)
    teams = out["hands"][0]["teams"]
    assert [teams[p]["tallies"]["precedence"] for p in ("Ann", "Bob", "Cat")] == [0, 0, 300]


def test_patent_game_ends_at_1000_miles(tmp_path):
    entries = [A("go"), B("go")] + [x for _ in range(10) for x in (A(100), discard("Bob", 25))][:-1]
    out = accepted(tmp_path, entries, deck=PATENT)
    assert out["winner"] == "Ann"


TEAMS = {"players": ["Ann", "Bob", "Cat", "Dan"], "teams": {"NS": ["Ann", "Cat"], "EW": ["Bob", "Dan"]}}


def test_partners_share_a_tableau(tmp_path):
    # Cat plays distance on the green light Ann put down: one tableau for the team.
    out = accepted(tmp_path, spent([A("go"), B("go"), C(75)], [END], **TEAMS), **TEAMS)
    assert out["hands"][0]["teams"]["NS"]["tallies"]["miles"] == 75


# ---------------------------------------------------------------- the extension (short game)

def reach_700(extend):
    """Ann reaches exactly 700 (200 + 200 + 100 x 3) while Bob rolls 25 at a time."""
    ann = [A(200), A(200), A(100), A(100), A(100, extend=True) if extend else A(100)]
    return [A("go"), B("go")] + [x for a in ann for x in (a, B(25))][:-1]


def test_reaching_700_ends_the_short_game_unless_an_extension_is_called(tmp_path):
    out = accepted(tmp_path, reach_700(False), short=True)
    assert out["hands"][0]["teams"]["Ann"]["items"]["trip_completed"] == 400
    out = accepted(tmp_path, reach_700(True) + [B(25)], short=True)
    assert out["hands"] == [] and out["turns"][-2]["extend"] is True


def test_the_extended_trip_goes_to_whoever_completes_it(tmp_path):
    # Ann calls the extension at 700; Bob then passes 700 and completes the 1000: Bob earns the trip
    # and the extension bonus (published rules: the bonus is for completing the extended trip).
    bob = [B(200), B(200), B(100), B(100), B(100), B(100), B(100)]   # after 25 x 4: 100 + 900
    filler = [discard("Ann", c) for c in ("stop", "limit", "stop", "limit", "stop", "limit")]
    entries = reach_700(True) + [x for pair in zip(bob, filler + [None]) for x in pair if x]
    out = accepted(tmp_path, entries, short=True)
    (hand,) = out["hands"]
    assert hand["extended"] is True
    assert hand["teams"]["Bob"]["tallies"]["miles"] == 1000
    assert hand["teams"]["Bob"]["items"] == {"miles": 1000, "trip_completed": 400, "extension": 200}
    assert hand["teams"]["Ann"]["items"] == {"miles": 700}


def test_an_extension_nobody_completes(tmp_path):
    out = accepted(tmp_path, spent(reach_700(True) + [B(25)], [END], short=True), short=True)
    (hand,) = out["hands"]
    assert hand["extended"] is True and hand["teams"]["Ann"]["items"] == {"miles": 700}


def test_an_extension_is_called_with_the_card_that_reaches_700(tmp_path):
    refused(tmp_path, [A("go"), B("go"), A(25, extend=True)], "extension", short=True)
    refused(tmp_path, reach_700(True), "extension")                              # not the short game
    refused(tmp_path, [A("go"), B("go"), A("limit", target="Bob", extend=True)], "extension", short=True)


# ---------------------------------------------------------------- tallies

def tallies(t, **kw):
    return {"tallies": t, **kw}


def test_team_game_to_5000_by_tallies(tmp_path):
    entries = [
        tallies({"NS": {"miles": 1000, "safeties": 2, "coups_fourres": 1, "trip": True, "safe_trip": True},
                 "EW": {"miles": 575, "safeties": 1}}),
        tallies({"NS": {"miles": 1000, "safeties": 1, "trip": True, "delayed": True},
                 "EW": {"miles": 800, "safeties": 1, "coups_fourres": 1}}),
        tallies({"NS": {"miles": 0},
                 "EW": {"miles": 1000, "safeties": 4, "coups_fourres": 1, "trip": True, "shut_out": True}}),
    ]
    out = accepted(tmp_path, entries, **TEAMS)
    assert [h["teams"]["NS"]["points"] for h in out["hands"]] == [1000 + 200 + 300 + 400 + 300, 1000 + 100 + 400 + 300, 0]
    assert [h["teams"]["EW"]["points"] for h in out["hands"]] == [575 + 100, 800 + 100 + 300,
                                                                  1000 + 400 + 300 + 300 + 400 + 500]
    assert out["totals"] == {"NS": 4000, "EW": 4775} and out["winner"] is None
    more = tallies({"NS": {"miles": 450}, "EW": {"miles": 1000, "trip": True}})
    out = accepted(tmp_path, entries + [more], **TEAMS)
    assert out["totals"]["EW"] == 4775 + 1400 and out["winner"] == "EW"
    refused(tmp_path, entries + [more, tallies({"NS": {"miles": 25}})], "game over", **TEAMS)


def test_tallies_of_an_extended_hand(tmp_path):
    # The completer of the extended trip earns the trip and the extension bonus; the others' miles
    # may pass 700.
    out = accepted(tmp_path, [tallies({"Ann": {"miles": 1000, "trip": True}, "Bob": {"miles": 850}}, extended=True)],
                   short=True)
    hand = out["hands"][0]
    assert hand["extended"] and hand["teams"]["Ann"]["items"] == {"miles": 1000, "trip_completed": 400,
                                                                  "extension": 200}
    assert hand["teams"]["Bob"]["points"] == 850
    # `extension: true` on the completer says the same.
    out2 = accepted(tmp_path, [tallies({"Ann": {"miles": 1000, "trip": True, "extension": True},
                                        "Bob": {"miles": 850}})], short=True)
    assert out2["hands"][0]["teams"] == hand["teams"]
    # Called, completed by nobody: enterable, no trip bonus.
    out = accepted(tmp_path, [tallies({"Ann": {"miles": 775}, "Bob": {"miles": 900}}, extended=True)], short=True)
    assert out["totals"] == {"Ann": 775, "Bob": 900}


@pytest.mark.parametrize("entry, short, message", [
    (tallies({"Ann": {"miles": 1000, "trip": True}, "Bob": {"miles": 850}}), True, "Ann.miles: 1000 is more than the trip (700)"),
    (tallies({"Ann": {"miles": 650}, "Bob": {"miles": 600}}, extended=True), True, "extended: the extension is called by the team that reaches 700"),
    (tallies({"Ann": {"miles": 1000, "trip": True}}, extended=True), False, "extended: an extension is called only in the short game"),
    (tallies({"Ann": {"miles": 1000, "trip": True, "extension": False}}, extended=True), True, "Ann.extension: completing the extended trip earns"),
    (tallies({"Ann": {"miles": 700, "trip": True}}, extended=True), True, "Ann.trip: completing the trip means 1000 miles, not 700"),
])
def test_extension_tallies_refused(tmp_path, entry, short, message):
    assert message in refused(tmp_path, [entry], "tallies", short=short)


def test_a_count_of_2_0_is_not_a_whole_number(tmp_path):
    err, _ = score(tmp_path, [tallies({"Ann": {"safeties": 2.0}})])
    assert ": entry 1, tallies.Ann.safeties: expected " in err and "got 2.0" in err, err


@pytest.mark.parametrize("t, message", [
    ({"Ann": {"safeties": 1, "coups_fourres": 2}}, "Ann.coups_fourres: 2 is more than the safeties shown (1)"),
    ({"Ann": {"safeties": 5}}, "Ann.safeties: 5, but the deck has 4 safeties"),
    ({"Ann": {"safeties": 3}, "Bob": {"safeties": 2}}, "Bob.safeties: the teams' safeties add up to 5; the deck has 4"),
    ({"Ann": {"miles": 1000, "trip": True}, "Bob": {"miles": 1000, "trip": True}}, "Bob.trip: only one team"),
    ({"Ann": {"miles": 1000}}, "Ann.trip: 1000 miles is the whole trip"),
    ({"Ann": {"miles": 1000, "trip": True, "shut_out": True}, "Bob": {"miles": 25}}, "Ann.shut_out: Bob has 25 miles"),
    ({"Ann": {"miles": 1000, "trip": True, "shut_out": False}}, "Ann.shut_out: no other team has any miles"),
    ({"Ann": {"miles": 700, "delayed": True}}, "Ann.delayed: only the team that completed the trip"),
    ({"Ann": {"miles": 700, "trip": True}}, "Ann.trip: completing the trip means 1000 miles"),
    ({"Ann": {"precedence": 300}}, "Ann.precedence: this deck has no precedence cards"),
    ({"Cat": {"miles": 25}}, "Cat: not a team"),
])
def test_impossible_tallies_refused(tmp_path, t, message):
    assert message in refused(tmp_path, [tallies(t)], "tallies")


def test_shut_out_follows_from_the_miles(tmp_path):
    out = accepted(tmp_path, [tallies({"Ann": {"miles": 1000, "trip": True}})])
    assert out["hands"][0]["teams"]["Ann"]["items"] == {"miles": 1000, "trip_completed": 400, "shut_out": 500}


def test_safeties_of_the_patent_deck(tmp_path):
    # Five safeties in the patent's list (two aces): five between the players, never six.
    out = accepted(tmp_path, [tallies({"Ann": {"safeties": 3, "coups_fourres": 1}, "Bob": {"safeties": 2}})],
                   deck=PATENT)
    assert out["hands"][0]["teams"]["Ann"]["items"] == {"safeties": 300, "coups_fourres": 300}
    assert "Bob.safeties: the teams' safeties add up to 6; the deck has 5" in refused(
        tmp_path, [tallies({"Ann": {"safeties": 4}, "Bob": {"safeties": 2}})], "tallies", deck=PATENT)


def test_precedence_bonuses_in_tallies(tmp_path):
    # Cards of 300, 200, 150, 100 and 50, each scored once: 500 and 300 can be had (300 + 150 + 50,
    # 200 + 100); 650 and 300 cannot (650 takes the 300 and the 200, and 150 or 100 + 50 is left).
    out = accepted(tmp_path, [tallies({"Ann": {"precedence": 500}, "Bob": {"precedence": 300}})], deck=PATENT)
    assert out["totals"] == {"Ann": 500, "Bob": 300}
    assert "Bob.precedence: 650, 300 cannot be made" in refused(
        tmp_path, [tallies({"Ann": {"precedence": 650}, "Bob": {"precedence": 300}})], "tallies", deck=PATENT)


def test_the_miles_of_all_teams_come_from_the_deck(tmp_path):
    # Six players each on their own: 700 + 5 x 675 = 4075 miles, but the distance cards make 3500.
    players = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    t = {p: {"miles": 675} for p in players} | {"Ann": {"miles": 700, "trip": True}}
    err = refused(tmp_path, [tallies(t)], "tallies", players=players, short=True)
    assert "the teams' miles add up to 4075; the deck's distance cards make 3500" in err


# ---------------------------------------------------------------- exact types, through the record schema

@pytest.mark.parametrize("field, value, expected", [
    ("safeties", 2.5, "expected the safeties shown, a whole number from 0 to 5, got 2.5"),
    ("coups_fourres", 1.5, "expected the coups fourrés made, a whole number from 0 to 5, got 1.5"),
    ("safeties", True, "got true"),
    ("safeties", "3", 'got "3"'),
    ("miles", 460, "expected miles, a multiple of 25 from 0 to 1000, got 460"),
    ("miles", 1100, "got 1100"),
    ("trip", "no", 'expected true or false, got "no"'),
    ("safe_trip", "no", 'expected true or false, got "no"'),
    ("delayed", "false", 'expected true or false, got "false"'),
    ("trip", 0, "expected true or false, got 0"),
    ("bonus", 1, "unknown key"),
])
def test_wrong_types_name_file_line_and_field(tmp_path, field, value, expected):
    err, _ = score(tmp_path, [tallies({"Ann": {"miles": 1000, field: value}})])
    path = tmp_path / "game.yaml"
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if text.strip().startswith(f"{field}:"))
    assert err == f"{path}:{line}: entry 1, tallies.Ann.{field}: {expected}" or (
        err.startswith(f"{path}:{line}: entry 1, tallies.Ann.{field}: ") and expected in err), err


def test_wrong_type_from_the_command_line_is_one_line_exit_2(tmp_path):
    path = write(tmp_path, [tallies({"Ann": {"miles": 700, "safeties": 2.5}, "Bob": {"trip": "no"}})])
    r = pnp_here("referee", "mille-bornes", "score", path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert [ln.split(": ", 2)[1] for ln in lines] == ["entry 1, tallies.Ann.safeties", "entry 1, tallies.Bob.trip"]
    assert all(ln.startswith(f"{path}:") for ln in lines)


def test_play_at_the_prompt(tmp_path):
    j = tmp_path / "j.yaml"
    args = argparse.Namespace(players="Ann,Bob", teams=None, deck=None, short=False)
    played = [A("go"), B("go"), A(75), B("stop", target="Ann"), A("priority-vehicle", coup_fourre=True), A(25)]
    drained = "".join(f"{e['player']}: discard {e['discard']}\n" for e in spent(played)[len(played):-1])
    moves = ("go\ngo\n75\nstop Ann\nAnn: priority-vehicle cf\n50\nundo\n25\n"
             f"tallies Ann miles=2.5\n{drained}pile-empty\nend-hand\n"
             "tallies Ann miles=700 safeties=1 trip=no; Bob miles=25\nquit\n")
    out = io.StringIO()
    assert play(REFEREE, j, args, inp=io.StringIO(moves), out=out) == 0, out.getvalue()
    assert "a count is a whole number" in out.getvalue()
    rec = yaml.safe_load(j.read_text())
    assert [e.get("card") for e in rec["entries"][:6]] == ["go", "go", "75", "stop", "priority-vehicle", "25"]
    assert rec["entries"][4]["coup_fourre"] is True
    assert rec["entries"][-1] == {"tallies": {"Ann": {"miles": 700, "safeties": 1, "trip": False}, "Bob": {"miles": 25}}}
    state, reports, _ = replay(REFEREE, load_record(j, REFEREE))   # the journal is a record
    assert state.totals() == {"Ann": (75 + 25) + 100 + 300 + 700 + 100, "Bob": 25}
