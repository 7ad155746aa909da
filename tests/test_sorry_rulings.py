"""Sorry: the rulings the tracker found wrong, and rules the first tests left out, each on a
position set up by hand from the patent (US 1,903,661) or the published Parker Brothers rules.

Printed divisions, for reading the positions: red's side runs 1..16, its safety track leaves
from 3 and its start opens onto 5; blue's side runs 16..31 (safety 18, start 20); yellow's
31..46 (33, 35); green's 46..60 (48, 50). Slides (first division to last): 2-5 and 10-14 red,
17-20 and 25-29 blue, 32-35 and 40-44 yellow, 47-50 and 55-59 green.
"""
import json

import pytest
import yaml

from conftest import pnp_here
from test_sorry import G, P, places
from generator.games.sorry.referee import REFEREE, apply, new_game
from generator.games.sorry.rules import legal_moves, play
from generator.referee.contract import Refused


def refused(pos, colour, card, move):
    with pytest.raises(Refused) as exc:
        play(G, pos, colour, card, move)
    return exc.value


def listed(pos, colour, card):
    return [m for m, _, _ in legal_moves(G, pos, colour, card)]


# ---------------------------------------------------------------- each colour its own safety track

@pytest.mark.parametrize("order", ["red first", "blue first"])
def test_entering_ones_s1_leaves_another_colours_s1_alone(order):
    # Red on 2 plays a 2: 3 (red's safety entry), then red's s1. Blue's man on blue's s1 stands on
    # another square, in another colour's track: no bump, whatever order the colours are listed in.
    men = {"red": ["2", "start", "start", "start"], "blue": ["s1", "start", "start", "start"]}
    pos = P(**(men if order == "red first" else dict(reversed(men.items()))))
    after, fx = play(G, pos, "red", "2", "2+2")
    assert places(after, "red") == ["s1", "start", "start", "start"]
    assert places(after, "blue") == ["s1", "start", "start", "start"]
    assert fx.bumps == [] and fx.text() == ""


def test_ones_own_man_on_s1_blocks_even_with_another_colour_on_its_s1():
    # Blue listed first used to be found on "s1" first, bumped, and red's man put beside red's own.
    pos = P(blue=["s1", "start", "start", "start"], red=["2", "s1", "start", "start"])
    assert refused(pos, "red", "2", "2+2").rule == "one man a division"
    assert "2+2" not in listed(pos, "red", "2")


def test_moving_inside_ones_safety_track_ignores_other_colours():
    pos = P(red=["s1", "start", "start", "start"], blue=["s3", "s4", "start", "start"])
    after, fx = play(G, pos, "red", "3", "s1+3")
    assert places(after, "red")[0] == "s4" and places(after, "blue") == ["s3", "s4", "start", "start"]
    assert fx.bumps == []


def test_no_card_reaches_into_another_colours_safety_track():
    pos = P(red=["14", "start", "start", "start"], blue=["s1", "start", "start", "start"])
    assert refused(pos, "red", "sorry", "sorry s1").rule == "sorry"
    assert refused(pos, "red", "11", "14xs1").rule == "swap"
    assert listed(pos, "red", "sorry") == ["pass"]                     # no opponent on the track
    assert listed(pos, "red", "11") == ["14+11"]


def test_a_position_may_hold_each_colour_on_its_own_s1_but_never_two_men_on_one_square():
    ok = new_game({"players": ["red", "blue"], "position": {"red": ["s1", "start", "start", "start"],
                                                            "blue": ["s1", "start", "start", "start"]}}, None)
    assert ok.position.crowded_square() is None
    with pytest.raises(Refused) as exc:
        new_game({"players": ["red", "blue"], "position": {"red": ["s1", "s1", "start", "start"]}}, None)
    assert exc.value.rule == "position" and "two red men on s1" in exc.value.message
    with pytest.raises(Refused, match="red and blue on 14"):
        new_game({"players": ["red", "blue"], "position": {"red": ["14", "start", "start", "start"],
                                                           "blue": ["14", "start", "start", "start"]}}, None)


# ---------------------------------------------------------------- a split seven moves two men

def test_split_whose_first_half_sends_the_second_man_home_is_refused():
    # Red on 14 and 20: 14+3 lands on 17, blue's slide to 20, which sends red's man on 20 back to
    # start. "20+4" then names a man who is no longer there; it must not move the first man again.
    pos = P(red=["14", "20", "start", "start"])
    exc = refused(pos, "red", "7", "14+3 20+4")
    assert exc.rule == "split seven" and "sent your man on 20 back to start" in exc.message
    assert "14+3 20+4" not in listed(pos, "red", "7")
    # The other order is a real split: 20 -> 24, then 14 -> 17, sliding to the empty 20.
    after, fx = play(G, pos, "red", "7", "20+4 14+3")
    assert places(after, "red") == ["20", "24", "start", "start"]
    assert fx.slides == [("17", "20", [])]


def test_split_names_each_man_by_where_he_stood_before_the_card():
    # No red man on 20 before the card: the first half's man, slid to 20, cannot be named "20".
    exc = refused(P(red=["14", "10", "start", "start"]), "red", "7", "14+3 20+4")
    assert exc.rule == "no such man"


def test_split_is_listed_in_each_order_it_is_allowed_in():
    pos = P(red=["30", "40", "start", "start"])
    moves = listed(pos, "red", "7")
    assert "30+3 40+4" in moves and "40+4 30+3" in moves
    assert len(moves) == 2 + 2 * 6          # two single sevens, every split in both orders
    for m in moves:
        play(G, pos, "red", "7", m)


# ---------------------------------------------------------------- the 2 and the 11

def test_a_two_draws_again_even_when_it_cannot_be_used(tmp_path):
    # Red's last man is on s5: a 2 overshoots home and no man is in start, so red passes, and
    # still draws again (the patent: "and the player also has an extra turn").
    state = new_game({"players": ["red", "blue"], "position": {"red": ["home", "home", "home", "s5"]}}, None)
    nxt, report = apply(state, {"card": 2, "move": "pass"})
    assert nxt.players[nxt.to_move] == "red" and report.data["again"] is True
    assert "draws again" in report.text
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump({"game": "sorry", "players": ["red", "blue"],
                                    "position": {"red": ["home", "home", "home", "s5"]},
                                    "entries": [{"player": "red", "card": 2, "move": "pass"},
                                                {"player": "red", "card": 1, "move": "s5+1"}]}))
    out = json.loads(pnp_here("referee", "sorry", "score", path, "--json").stdout)
    assert out["winner"] == "red" and [t["player"] for t in out["turns"]] == ["red", "red"]


def test_an_eleven_need_not_swap_when_no_man_can_go_forward_eleven():
    # Red on 60 cannot go forward 11 (60, 1, 2, 3, s1..s5, home is 9); the swap with blue on 30
    # is allowed but optional.
    pos = P(red=["60", "start", "start", "start"], blue=["30", "start", "start", "start"])
    assert listed(pos, "red", "11") == ["60x30", "pass"]
    after, fx = play(G, pos, "red", "11", "pass")
    assert after == pos and fx.note == "no man can go forward 11, and the swap is optional"
    # With a man who can go forward 11 the card must be used.
    pos = P(red=["60", "10", "start", "start"], blue=["30", "start", "start", "start"])
    assert refused(pos, "red", "11", "pass").rule == "must move"
    assert "pass" not in listed(pos, "red", "11")


def test_pass_is_listed_only_when_it_is_allowed():
    assert listed(P(red=["start"] * 4, blue=["start"] * 4), "red", "3") == ["pass"]
    assert "pass" not in listed(P(red=["5", "start", "start", "start"]), "red", "3")


# ---------------------------------------------------------------- slides and the 10

def test_a_backward_move_onto_a_slide_slides():
    # "If as a result of a move a man reaches ... the beginning of a slide": a 4 from 21 lands on
    # 17, the first division of a blue slide.
    after, fx = play(G, P(red=["21", "start", "start", "start"]), "red", "4", "21-4")
    assert places(after, "red")[0] == "20" and fx.slides == [("17", "20", [])]


def test_a_sorry_onto_a_slide_slides_and_clears_the_slide():
    pos = P(red=["start"] * 4, blue=["32", "start", "start", "start"], yellow=["34", "start", "start", "start"])
    after, fx = play(G, pos, "red", "sorry", "sorry 32")
    assert "35" in places(after, "red")
    assert places(after, "blue") == ["start"] * 4 and places(after, "yellow") == ["start"] * 4
    assert fx.bumps == [("blue", "32")] and fx.slides == [("32", "35", [("yellow", "34")])]


def test_the_swapped_opponent_does_not_slide():
    # Red on 32 (a yellow slide's first division) swaps with blue on 10 (a red slide's first
    # division): red does not slide on its own colour, and blue, who did not move, stays on 32.
    pos = P(red=["32", "start", "start", "start"], blue=["10", "start", "start", "start"])
    after, fx = play(G, pos, "red", "11", "32x10")
    assert places(after, "red")[0] == "10" and places(after, "blue")[0] == "32"
    assert fx.slides == [] and fx.swapped == ("32", "10", "blue")


def test_ten_backward_one_out_of_the_safety_track():
    after, _ = play(G, P(red=["s1", "start", "start", "start"]), "red", "10", "s1-1")
    assert places(after, "red")[0] == "3"


def test_out_and_pass_stand_alone():
    assert refused(P(red=["start"] * 4), "red", "1", "out 5").rule == "notation"
    assert refused(P(red=["start"] * 4), "red", "3", "pass now").rule == "notation"


# ---------------------------------------------------------------- the referee

def test_turn_order_and_game_over():
    state = new_game({"players": ["red", "blue"], "position": {"red": ["home", "home", "home", "s5"]}}, None)
    with pytest.raises(Refused) as exc:
        apply(state, {"player": "blue", "card": 1, "move": "out"})
    assert exc.value.rule == "turn order"
    won, _ = apply(state, {"card": 1, "move": "s5+1"})
    assert won.winner == "red"
    with pytest.raises(Refused) as exc:
        apply(won, {"card": 1, "move": "out"})
    assert exc.value.rule == "game over"


def test_header_refuses_a_colour_twice_and_a_to_move_not_playing():
    with pytest.raises(Refused) as exc:
        new_game({"players": ["red", "red"]}, None)
    assert exc.value.rule == "players"
    with pytest.raises(Refused) as exc:
        new_game({"players": ["red", "blue"], "to_move": "green"}, None)
    assert exc.value.rule == "to_move"
    assert new_game({"players": ["red", "blue"], "to_move": "blue"}, None).to_move == 1


def test_solitaire_won_with_two_home_and_two_in_the_safety_track_of_each_colour():
    state = new_game({"variant": "solitaire", "position": {"red": ["home", "home", "s4", "s1"],
                                                           "yellow": ["home", "home", "s2", "s3"]}}, None)
    won, report = apply(state, {"card": 1, "move": "s4+1"})
    assert won.winner == "solitaire" and not won.lost and "solitaire won" in report.text


def test_moves_lists_pass_with_its_reason(tmp_path):
    path = tmp_path / "pos.yaml"
    path.write_text(yaml.safe_dump({"game": "sorry", "players": ["red", "blue"],
                                    "position": {"red": ["60", "start", "start", "start"],
                                                 "blue": ["30", "start", "start", "start"]}, "entries": []}))
    out = json.loads(pnp_here("referee", "sorry", "moves", path, "11", "--json").stdout)
    assert [(m["move"], m["does"]) for m in out["moves"]] == [
        ("60x30", ""), ("pass", "no man can go forward 11, and the swap is optional")]
    assert REFEREE.extra_commands["moves"](new_game({"players": ["red"]}, None), "3").strip().startswith("pass")


def test_a_winning_two_draws_no_more():
    state = new_game({"players": ["red", "blue"], "position": {"red": ["home", "home", "home", "s4"]}}, None)
    won, report = apply(state, {"card": 2, "move": "s4+2"})
    assert won.winner == "red" and report.data["again"] is False and "draws again" not in report.text
