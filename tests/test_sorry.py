"""Sorry: the pack, the board's geometry, every card on positions set up by hand, the referee."""
import json

import pytest
import yaml

from conftest import ROOT, pnp_here
from generator.games.sorry.board import load_geometry
from generator.games.sorry.deck import load_deck
from generator.games.sorry.rules import Position, legal_moves, loc_name, parse_loc, play
from generator.referee.contract import Refused
from generator.spec import load_spec

G = load_geometry(load_spec(ROOT / "boards" / "sorry.yaml"))


def P(**men):
    """A position: colour=[places...], places as on the board (start, home, 1..60, s1..s5)."""
    return Position({c: tuple(parse_loc(x, G) for x in locs) for c, locs in men.items()})


def places(pos, colour):
    return sorted(loc_name(m) for m in pos.men[colour])


def test_44_cards():
    deck = load_deck(load_spec(ROOT / "decks" / "sorry.yaml"))
    assert deck.total == 44
    assert {c["marking"]: c["count"] for c in deck.cards} == {m: 4 for m in
                                                               ["1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "Sorry"]}


def test_track_starts_and_safety_entries():
    assert G.track == 60 and G.per_side == 16
    # Division numbers as printed (1..60). Right-hand ends (corners) are 1, 16, 31, 46.
    assert [s.corner + 1 for s in G.sides] == [1, 16, 31, 46]
    assert [s.exit + 1 for s in G.sides] == [5, 20, 35, 50]      # the fifth from the right-hand end
    assert [s.entry + 1 for s in G.sides] == [3, 18, 33, 48]     # the third
    assert [(s.start + 1, s.length) for s in G.slides[:2]] == [(2, 4), (10, 5)]


# ---------------------------------------------------------------- each card

def test_one_and_two_bring_a_man_out():
    pos, _ = play(G, P(red=["start"] * 4, blue=["start"] * 4), "red", "1", "out")
    assert places(pos, "red") == ["5", "start", "start", "start"]
    with pytest.raises(Refused, match="only a 1 or a 2"):
        play(G, pos, "red", "3", "out")


def test_forward_cards_and_landing_bumps():
    pos, fx = play(G, P(red=["5", "start", "start", "start"], blue=["13"] + ["start"] * 3), "red", "8", "5+8")
    assert places(pos, "red")[0] == "13" and places(pos, "blue") == ["start"] * 4
    assert fx.bumps == [("blue", "13")]


def test_card_must_match_the_move():
    with pytest.raises(Refused) as exc:
        play(G, P(red=["5", "start", "start", "start"]), "red", "5", "5+8")
    assert exc.value.rule == "card"


def test_four_backward_and_ten_back_one():
    pos, _ = play(G, P(red=["5", "start", "start", "start"]), "red", "4", "5-4")
    assert "1" in places(pos, "red")
    pos, _ = play(G, P(red=["5", "start", "start", "start"]), "red", "10", "5-1")
    assert "4" in places(pos, "red")


def test_backward_four_then_forward_into_the_safety_track():
    pos, _ = play(G, P(red=["5", "start", "start", "start"]), "red", "4", "5-4")   # 5 -> 1
    pos, _ = play(G, pos, "red", "5", "1+5")                                        # 2, 3, s1, s2, s3
    assert "s3" in places(pos, "red")


def test_no_safety_track_entered_backwards():
    # From 5 backward 4 passes division 3 (red's safety entry) and goes on to 1, not into s1.
    pos, _ = play(G, P(red=["5", "start", "start", "start"]), "red", "4", "5-4")
    assert not any(p.startswith("s") and p != "start" for p in places(pos, "red"))
    # and a backward move may take a man out of his safety track
    pos, _ = play(G, P(red=["s1", "start", "start", "start"]), "red", "4", "s1-4")
    assert "60" in places(pos, "red")


def test_home_by_exact_count_only_and_never_leaves():
    with pytest.raises(Refused) as exc:
        play(G, P(red=["s4", "start", "start", "start"]), "red", "3", "s4+3")
    assert exc.value.rule == "exact count"
    pos, _ = play(G, P(red=["s4", "start", "start", "start"]), "red", "2", "s4+2")
    assert "home" in places(pos, "red")
    with pytest.raises(Refused) as exc:
        play(G, pos, "red", "4", "home-4")
    assert exc.value.rule == "home"


def test_split_seven_into_home():
    pos, fx = play(G, P(red=["s3", "20", "start", "start"]), "red", "7", "s3+3 20+4")
    assert places(pos, "red") == ["24", "home", "start", "start"]
    with pytest.raises(Refused) as exc:
        play(G, P(red=["s3", "20", "start", "start"]), "red", "7", "s3+3 20+3")
    assert exc.value.rule == "split seven"


def test_eleven_forward_or_swap_onto_a_slide():
    pos, fx = play(G, P(red=["5", "start", "start", "start"], blue=["17", "20", "start", "start"]), "red", "11", "5x17")
    # red takes blue's place on 17, the start of a blue slide: red slides to 20 and blue's man there
    # goes back to start; blue's swapped man now stands on 5
    assert places(pos, "red")[0] == "20"
    assert places(pos, "blue") == ["5", "start", "start", "start"]
    assert fx.slides == [("17", "20", [("blue", "20")])]
    with pytest.raises(Refused, match="no opponent's man"):
        play(G, pos, "red", "11", "20x30")


def test_sorry_onto_a_safety_adjacent_square():
    # Blue's man stands on 18, the division blue's own safety track leaves from.
    pos, fx = play(G, P(red=["start"] * 4, blue=["18", "start", "start", "start"]), "red", "sorry", "sorry 18")
    assert "18" in places(pos, "red") and places(pos, "blue") == ["start"] * 4
    with pytest.raises(Refused, match="no red man in start"):
        play(G, P(red=["5", "6", "7", "8"], blue=["18"] + ["start"] * 3), "red", "sorry", "sorry 18")
    with pytest.raises(Refused, match="no opponent's man"):
        play(G, P(red=["start"] * 4, blue=["start"] * 4), "red", "sorry", "sorry 18")


def test_slide_sends_back_ones_own_man():
    # Red lands on 17, the first division of a blue slide; red's own man on 19 is in its path.
    pos, fx = play(G, P(red=["14", "19", "start", "start"]), "red", "3", "14+3")
    assert places(pos, "red") == ["20", "start", "start", "start"]
    assert fx.slides == [("17", "20", [("red", "19")])]


def test_no_slide_on_own_colour():
    pos, _ = play(G, P(red=["60", "start", "start", "start"]), "red", "2", "60+2")   # 1, 2: red's slide
    assert "2" in places(pos, "red")


def test_never_two_men_on_a_division():
    with pytest.raises(Refused) as exc:
        play(G, P(red=["5", "8", "start", "start"]), "red", "3", "5+3")
    assert exc.value.rule == "one man a division"


def test_must_move_if_able():
    with pytest.raises(Refused) as exc:
        play(G, P(red=["5", "start", "start", "start"]), "red", "3", "pass")
    assert exc.value.rule == "must move"
    pos, _ = play(G, P(red=["start"] * 4, blue=["start"] * 4), "red", "3", "pass")   # nothing can move
    assert places(pos, "red") == ["start"] * 4


def test_legal_moves_list_what_each_does():
    moves = {m: fx.text() for m, _, fx in legal_moves(G, P(red=["14", "19", "start", "start"],
                                                              blue=["18", "start", "start", "start"]), "red", "4")}
    assert set(moves) == {"14-4", "19-4"}
    moves = {m: fx.text() for m, _, fx in legal_moves(G, P(red=["14", "19", "start", "start"]), "red", "3")}
    assert moves["14+3"] == "slides 17 to 20 sending back red on 19"


# ---------------------------------------------------------------- the referee

def record(tmp_path, **rec):
    path = tmp_path / "game.yaml"
    path.write_text(yaml.dump({"game": "sorry", **rec}, Dumper=yaml.CSafeDumper, sort_keys=False))
    return path


def test_record_replay_with_bumps_slides_and_the_extra_turn(tmp_path):
    path = record(tmp_path, players=["red", "blue"], entries=[
        {"player": "red", "card": 2, "move": "out"},
        {"player": "red", "card": 8, "move": "5+8"},       # a 2 plays again
        {"player": "blue", "card": 1, "move": "out"},
        {"player": "red", "card": 4, "move": "13-4"},
    ])
    r = pnp_here("referee", "sorry", "score", path, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [t["player"] for t in out["turns"]] == ["red", "red", "blue", "red"]
    assert out["position"]["red"][0] == "9" and out["winner"] is None and "totals" in out


def test_refused_entry_names_rule_and_index(tmp_path):
    path = record(tmp_path, players=["red", "blue"], entries=[{"card": 3, "move": "out"}])
    r = pnp_here("referee", "sorry", "score", path)
    line = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if l.lstrip().startswith("- card"))
    assert r.returncode == 2 and f"{path}:{line}: entry 1: refused (card)" in r.stderr


def test_winner(tmp_path):
    path = record(tmp_path, players=["red", "blue"], position={"red": ["home", "home", "home", "s5"]},
                  entries=[{"card": 1, "move": "s5+1"}])
    out = json.loads(pnp_here("referee", "sorry", "score", path, "--json").stdout)
    assert out["winner"] == "red" and out["totals"]["red"] == 4


def test_moves_command(tmp_path):
    path = record(tmp_path, players=["red", "blue"], position={"red": ["14", "19", "start", "start"]}, entries=[])
    r = pnp_here("referee", "sorry", "moves", path, "3", "--json")
    out = json.loads(r.stdout)
    assert {m["move"]: m["does"] for m in out["moves"]}["14+3"] == "slides 17 to 20 sending back red on 19"


def test_dealt_hand_and_solitaire(tmp_path):
    path = record(tmp_path, players=["red", "blue"], variant="dealt-hand", hands={"red": [1], "blue": [2]},
                  entries=[{"card": 1, "move": "out"}, {"card": 1, "move": "out"}])
    r = pnp_here("referee", "sorry", "score", path)
    assert r.returncode == 2 and "refused (hand): blue holds no 1" in r.stderr
    path = record(tmp_path, variant="solitaire", position={"red": ["home", "home", "s5", "s1"]},
                  entries=[{"card": 1, "move": "s5+1"}])
    out = json.loads(pnp_here("referee", "sorry", "score", path, "--json").stdout)
    assert out["lost"] is True and out["players"] == ["red", "yellow"]


def test_build_sorry(output):
    from pypdf import PdfReader
    out = output / "sorry"
    assert len(PdfReader(out / "sorry-shop.pdf").pages) == 88
    big = PdfReader(out / "sorry-board-large.pdf").pages[0]
    assert [float(v) for v in big.mediabox][2:] == pytest.approx([(16 * 30 + 24 + 2 * 3) * 72 / 25.4] * 2, abs=0.01)
    trim = [float(v) for v in big.trimbox]
    assert trim[2] - trim[0] == pytest.approx((16 * 30 + 24) * 72 / 25.4, abs=0.01)
    assert len(PdfReader(out / "sorry-board-tiles-a4.pdf").pages) == 6


# ---------------------------------------------------------------- the patent's board (one slide a side)

def test_the_patents_board_has_one_slide_a_side_beyond_each_start():
    """Claim 2: "the trackway beyond each starting area in the playing direction being provided
    with a supplemental area ... one supplemental area for each pair", in that pair's colour."""
    g = load_geometry(load_spec(ROOT / "boards" / "sorry_1930.yaml"))
    assert len(g.slides) == len(g.sides) == 4
    for side in g.sides:
        [slide] = [s for s in g.slides if s.colour == side.name]
        assert slide.start == (side.exit + 1) % g.track and slide.length == 4
    # Everything else is the classic board's.
    assert (g.track, g.per_side, g.safety_length) == (G.track, G.per_side, G.safety_length)
    assert [(s.entry, s.exit) for s in g.sides] == [(s.entry, s.exit) for s in G.sides]


@pytest.mark.parametrize("board, lands", [("boards/sorry_1930.yaml", "9"), ("boards/sorry.yaml", "6"),
                                          (None, "6")])
def test_the_referee_plays_the_board_the_record_names(tmp_path, board, lands):
    """A blue man on 3 draws a 3: on the patent's board 6 starts red's slide (he slides to 9); on
    the classic board (the default) 6 is a plain division."""
    path = record(tmp_path, players=["blue", "red"], position={"blue": ["3", "start", "start", "start"]},
                  entries=[{"card": 3, "move": "3+3"}], **({"board": board} if board else {}))
    r = pnp_here("referee", "sorry", "score", path, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["position"]["blue"][0] == lands


def test_a_start_opens_onto_its_division():
    """The patent's start "opens" onto its division: the start circle is joined to the track by a
    mouth of the start's colour that runs from the track's inner edge into the circle."""
    from generator.draw import Ellipse, Path
    from generator.games.sorry.board import draw_board, start_place
    spec = load_spec(ROOT / "boards" / "sorry.yaml")
    q, m = spec.data["square"], spec.data["margin"]
    board = draw_board(spec)
    for k, side in enumerate(G.sides):
        u, v, rad = start_place(G, k)
        cx, cy, r = m + u * q, m + v * q, rad * q
        assert any(isinstance(it, Ellipse) and abs(it.cx - cx) < 1e-6 and abs(it.cy - cy) < 1e-6
                   and abs(it.rx - r) < 1e-6 for it in board.root.items)
        from generator.games.sorry.board import INWARD, cell_of
        dx, dy = INWARD[k]
        col, row = cell_of(G, side.exit)
        edge = (m + (col + 0.5 + dx / 2) * q, m + (row + 0.5 + dy / 2) * q)
        gap = ((edge[0] - cx) ** 2 + (edge[1] - cy) ** 2) ** 0.5 - r
        assert gap > 1.0          # the circle alone stands off the track ...
        mouths = [it for it in board.root.items if isinstance(it, Path) and it.style.fill is not None
                  and len(it.ops) == 5 and sum(((op[1] - edge[0]) ** 2 + (op[2] - edge[1]) ** 2) ** 0.5 <= q * 0.33
                                               for op in it.ops if op[0] in ("M", "L")) == 2]
        assert mouths, side.name  # ... and the mouth joins it to the track
@pytest.mark.parametrize("old,new,field,problem", [
    ("name: blue", "name: Red", "sides", "told apart without regard to case"),
    ("name: blue", 'name: "blue: x"', "sides[1].name", "a name"),
    ("name: blue", 'name: "bl\\u202eue"', "sides[1].name", "bidi control")])
def test_a_sides_name_passes_the_one_name_check(tmp_path, old, new, field, problem):
    """A side's name is the colour a player plays by (records, the prompt, the phones): it passes the
    check every player's name passes, else it is the board spec's error at its line."""
    from generator.errors import SpecError
    from generator.games.sorry.board import load_geometry
    from generator.spec import load_spec
    text = (ROOT / "boards" / "sorry.yaml").read_text()
    assert old in text
    path = tmp_path / "sorry.yaml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(SpecError) as exc:
        load_geometry(load_spec(path))
    assert exc.value.field == field and problem in exc.value.message, exc.value
