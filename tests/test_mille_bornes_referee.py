"""The Mille Bornes referee: a hand card by card worked out by hand, each refusal, the coup fourré,
the patent's precedence overriding, tallies, and a team game to 5000."""
import json

import pytest
import yaml

from conftest import run_pnp


def score(tmp_path, entries, **header):
    rec = {"game": "mille-bornes", "players": ["Ann", "Bob"], **header, "entries": entries}
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(rec, sort_keys=False))
    r = run_pnp("referee", "mille-bornes", "score", path, "--json")
    return r, (json.loads(r.stdout) if r.returncode == 0 else None), path


def A(card, **kw):
    return {"player": "Ann", "card": card, **kw}


def B(card, **kw):
    return {"player": "Bob", "card": card, **kw}


HAND = [A("go"), B("go"), A(200), B("stop", target="Ann"), A("priority-vehicle", coup_fourre=True),
        A(200), B(100), A(100), B(75), A(100), B("flat", target="Ann"), A("spare"), B(50), A(100),
        {"player": "Bob", "discard": 25}, A(100), B(25), A(100), B(50), A(100)]


def test_a_hand_card_by_card_worked_by_hand(tmp_path):
    r, out, _ = score(tmp_path, HAND)
    assert r.returncode == 0, r.stderr
    (hand,) = out["hands"]
    ann, bob = hand["teams"]["Ann"], hand["teams"]["Bob"]
    # Ann: 200 + 200 + 100 x 6 = 1000 miles; the priority vehicle shown as a coup fourré; two
    # 200s, so no safe trip; Bob has miles, so no shut-out.
    assert ann["tallies"] == {"miles": 1000, "safeties": 1, "coups_fourres": 1, "trip": True, "delayed": False,
                              "safe_trip": False, "shut_out": False, "extension": False, "precedence": 0}
    assert ann["items"] == {"miles": 1000, "safeties": 100, "coups_fourres": 300, "trip_completed": 400}
    assert ann["points"] == 1800
    assert bob["tallies"]["miles"] == 100 + 75 + 50 + 25 + 50 and bob["points"] == 300
    assert out["totals"] == {"Ann": 1800, "Bob": 300} and out["winner"] is None


def refused(tmp_path, entries, rule, **header):
    r, _, _ = score(tmp_path, entries, **header)
    assert r.returncode == 2, r.stdout
    assert f"refused ({rule})" in r.stderr, r.stderr
    return r.stderr


def test_no_distance_without_a_green_light(tmp_path):
    refused(tmp_path, [A(25)], "roll")


def test_no_more_than_50_under_a_speed_limit(tmp_path):
    refused(tmp_path, [A("go"), B("limit", target="Ann"), A(75)], "speed limit")
    r, out, _ = score(tmp_path, [A("go"), B("limit", target="Ann"), A(50)])
    assert r.returncode == 0


def test_at_most_two_200s(tmp_path):
    err = refused(tmp_path, [A("go"), B("go"), A(200), B(25), A(200), B(25), A(200)], "200s")
    assert "entries[6]" in err


def test_no_passing_the_trip(tmp_path):
    entries = [A("go"), B("go"), A(200), B(25), A(200), B(25), A(100), B(25), A(75), B(25), A(75), B(25), A(100)]
    refused(tmp_path, entries, "trip", short=True)   # 650 + 100 passes 700


def test_no_attack_on_a_protected_player(tmp_path):
    refused(tmp_path, [A("ace"), A("go"), B("crash", target="Ann")], "protected")


def test_remedy_only_for_the_matching_hazard(tmp_path):
    refused(tmp_path, [A("go"), B("flat", target="Ann"), A("repairs")], "remedy")


def test_coup_fourre_only_right_after_the_attack(tmp_path):
    refused(tmp_path, [A("go"), B("stop", target="Ann"), A("ace", coup_fourre=True)], "coup fourre")   # wrong safety
    refused(tmp_path, [A("go"), B("go"), A(25), B("stop", target="Ann"), A("go"), B(25),
                       A("priority-vehicle", coup_fourre=True)], "coup fourre")                          # too late


def test_turn_order(tmp_path):
    refused(tmp_path, [A("go"), A(25)], "turn order")


def test_precedence_override_in_the_patent_game(tmp_path):
    deck = "decks/mille_bornes_1961.yaml"
    entries = [A("+200"), B("+300", override=True), B("go"), {"event": "end-of-hand"}]
    r, out, _ = score(tmp_path, entries, deck=deck)
    assert r.returncode == 0, r.stderr
    teams = out["hands"][0]["teams"]
    # Bob's fire service overrides Ann's police vehicle as it is played: Bob alone scores and plays on.
    assert teams["Bob"]["items"].get("precedence") == 300 and "precedence" not in teams["Ann"]["items"]
    refused(tmp_path, [A("+300"), B("+200", override=True)], "precedence", deck=deck)
    refused(tmp_path, [A("go"), B("+200", override=True)], "precedence", deck=deck)


def test_patent_game_ends_at_1000_miles(tmp_path):
    entries = [A("go"), B("go")] + [x for _ in range(10) for x in (A(100), {"player": "Bob", "discard": 25})][:-1]
    r, out, _ = score(tmp_path, entries, deck="decks/mille_bornes_1961.yaml")
    assert r.returncode == 0, r.stderr
    assert out["winner"] == "Ann"


TEAMS = {"players": ["Ann", "Bob", "Cat", "Dan"], "teams": {"NS": ["Ann", "Cat"], "EW": ["Bob", "Dan"]}}


def test_team_game_to_5000_by_tallies(tmp_path):
    entries = [
        {"tallies": {"NS": {"miles": 1000, "safeties": 2, "coups_fourres": 1, "trip": True, "safe_trip": True},
                     "EW": {"miles": 575, "safeties": 1}}},
        {"tallies": {"NS": {"miles": 1000, "safeties": 1, "trip": True, "delayed": True},
                     "EW": {"miles": 800, "safeties": 2, "coups_fourres": 2}}},
        {"tallies": {"NS": {"miles": 0},
                     "EW": {"miles": 1000, "safeties": 4, "coups_fourres": 1, "trip": True, "shut_out": True}}},
    ]
    r, out, _ = score(tmp_path, entries, **TEAMS)
    assert r.returncode == 0, r.stderr
    assert [h["teams"]["NS"]["points"] for h in out["hands"]] == [1000 + 200 + 300 + 400 + 300, 1000 + 100 + 400 + 300, 0]
    assert [h["teams"]["EW"]["points"] for h in out["hands"]] == [575 + 100, 800 + 200 + 600,
                                                                  1000 + 400 + 300 + 300 + 400 + 500]
    assert out["totals"] == {"NS": 4000, "EW": 5175} and out["winner"] == "EW"
    r, _, _ = score(tmp_path, entries + [{"tallies": {"NS": {"miles": 25}}}], **TEAMS)
    assert r.returncode == 2 and "refused (game over)" in r.stderr


def test_partners_share_a_tableau(tmp_path):
    # Cat plays distance on the green light Ann put down: one tableau for the team.
    r, out, _ = score(tmp_path, [A("go"), B("go"), {"player": "Cat", "card": 75}, {"event": "end-of-hand"}], **TEAMS)
    assert r.returncode == 0, r.stderr
    assert out["hands"][0]["teams"]["NS"]["tallies"]["miles"] == 75


@pytest.mark.parametrize("tallies, message", [
    ({"Ann": {"miles": 460}}, "Ann.miles: 460 is not a multiple of 25"),
    ({"Ann": {"miles": 1100}}, "Ann.miles: 1100 is more than the trip"),
    ({"Ann": {"safeties": 1, "coups_fourres": 2}}, "Ann.coups_fourres"),
    ({"Ann": {"miles": 1000, "trip": True}, "Bob": {"miles": 1000, "trip": True}}, "Bob.trip: only one team"),
    ({"Ann": {"miles": 1000, "trip": True, "shut_out": True}, "Bob": {"miles": 25}}, "Ann.shut_out: Bob has 25 miles"),
    ({"Ann": {"miles": 700, "delayed": True}}, "Ann.delayed: only the team that completed the trip"),
    ({"Ann": {"miles": 700, "trip": True}}, "Ann.trip: completing the trip means 1000 miles"),
])
def test_impossible_tallies_refused(tmp_path, tallies, message):
    err = refused(tmp_path, [{"tallies": tallies}], "tallies")
    assert message in err


def test_play_at_the_prompt(tmp_path):
    j = tmp_path / "j.yaml"
    r = run_pnp("referee", "mille-bornes", "play", "--players", "Ann,Bob", "--journal", j, cwd=tmp_path,
                input="go\ngo\n75\nstop Ann\nAnn: priority-vehicle cf\n50\nundo\n25\nquit\n")
    assert r.returncode == 0, r.stdout
    rec = yaml.safe_load(j.read_text())
    assert [e.get("card") for e in rec["entries"]] == ["go", "go", "75", "stop", "priority-vehicle", "25"]
    assert rec["entries"][4]["coup_fourre"] is True
