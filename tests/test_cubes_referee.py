"""Cubes rules on positions set up by hand, and the referee's record contract."""
import io
import json
import re
import textwrap

import pytest
import yaml

from conftest import ROOT, pnp_here
from generator.games.cubes import referee as cubes_referee
from generator.games.cubes.referee import REFEREE, CubesGame, apply, new_game
from generator.games.cubes.rules import Position, parse_cell, parse_turn, play_turn
from generator.referee.prompt import score
from generator.referee.record import RecordError, load_record, replay
from generator.referee.contract import Refused

W, B = 0, 1


def pos(cubes, white=(), black=(), kings=None, n=10):
    """A position from cell names: cubes (a string of cells), pawns per player, kings {player: cell}."""
    c = lambda s: parse_cell(s, n)  # noqa: E731
    p = Position(n, {c(x) for x in cubes.split()})
    k = 0
    for player, cells in ((W, white), (B, black)):
        for name in cells:
            k += 1
            p.pawns[f"p{k}"] = (player, c(name))
            p.cubes.add(c(name))
    for player, name in (kings or {}).items():
        p.kings[player] = c(name)
        p.cubes.add(c(name))
    return p


def turn(p, player, text):
    return play_turn(p, player, parse_turn(text, p.n))


def cells(p, player):
    return sorted(f"{chr(97 + c[0])}{c[1] + 1}" for pl, c in p.pawns.values() if pl == player)


def test_push_moves_a_whole_line_with_its_pawns():
    p = pos("c3 d3 e3 f3", white=["d3"], black=["f3"])
    q, _ = turn(p, W, "c3>e2")
    assert {(x, y) for x, y in q.cubes} == {(4, 2), (5, 2), (6, 2), (7, 2)}  # e3..h3
    assert cells(q, W) == ["f3"] and cells(q, B) == ["h3"]


def test_broken_push_refused_and_position_unchanged():
    p = pos("c3 d3 e3 f3", white=["d3"])
    before = (set(p.cubes), dict(p.pawns))
    with pytest.raises(Refused) as exc:
        turn(p, W, "d3:e3>e1")   # only part of the line c3..f3
    assert exc.value.rule == "whole line"
    assert (p.cubes, p.pawns) == before


def test_fragments_pushed_separately_and_rejoined():
    p = pos("a3 b3 d3 e3", white=["a3"])
    q, _ = turn(p, W, "a3:b3>e1")          # the left fragment alone: now it touches the right one
    assert sorted(q.cubes) == [(1, 2), (2, 2), (3, 2), (4, 2)]
    r, _ = turn(q, W, "b3>e1")             # pushing on: the rejoined line moves as one
    assert sorted(r.cubes) == [(2, 2), (3, 2), (4, 2), (5, 2)]


def test_push_stops_at_the_edge():
    p = pos("h5 i5 j5", white=["h5"])
    with pytest.raises(Refused) as exc:
        turn(p, W, "h5>e1")
    assert exc.value.rule == "stop"


def test_pawn_moves_like_a_rook_on_cubes_only():
    p = pos("c3 c4 c5 c7 d3", white=["c3"], black=["d3"])
    q, _ = turn(p, W, "c3-c5")
    assert cells(q, W) == ["c5"]
    for text, rule in (("c3-c7", "over a hole"), ("c3-d4", "rook move"), ("c3-e3", "over a pawn")):
        with pytest.raises(Refused) as exc:
            turn(p, W, text)
        assert exc.value.rule == rule


def test_no_pawn_on_or_over_a_king_cube():
    p = pos("c3 c4 c5", white=["c3"], kings={B: "c4"})
    with pytest.raises(Refused) as exc:
        turn(p, W, "c3-c5")
    assert exc.value.rule == "king cube"


def test_diagonal_capture():
    # White on c3 and (after the move) e5 flank Black's d4 on the diagonal.
    p = pos("c3 d4 e5 e6", white=["c3", "e6"], black=["d4"])
    q, res = turn(p, W, "e6-e5")
    assert res.captured == ["p3"] and cells(q, B) == []
    assert res.winner == W   # Black has no pawn left


def test_no_capture_on_moving_in_between():
    p = pos("c3 d3 e3 d4", white=["c3", "e3"], black=["d4"])
    q, res = turn(p, B, "d4-d3")          # Black steps between two White pawns: safe
    assert res.captured == [] and cells(q, B) == ["d3"]
    # and White cannot take it by doing nothing about it: only a new sandwich takes
    q.cubes |= {(3, 5), (2, 5)}
    q.pawns["p9"] = (W, (2, 5))
    r, res2 = turn(q, W, "c6-d6")
    assert res2.captured == []
    # replacing a flank with another pawn creates the sandwich anew: now it is taken
    s = pos("b3 c3 d3 e3 c4", white=["c4", "e3"], black=["d3"])
    t, res3 = turn(s, W, "c4-c3")
    assert res3.captured == ["p3"]


def test_two_pushes_refused():
    p = pos("c3 d3 c4", white=["c3"])
    with pytest.raises(Refused) as exc:
        turn(p, W, "c3>e1 c4>n1")
    assert exc.value.rule == "one of each"


def test_second_move_must_be_perpendicular():
    p = pos("c3 d3 e3 f3 g3", white=["c3"])
    with pytest.raises(Refused) as exc:
        turn(p, W, "c3-d3 d3>e1")          # both along the row
    assert exc.value.rule == "perpendicular"
    q, _ = turn(pos("c3 d3 c4 c5", white=["c3"]), W, "c3-d3 c4>n1")  # row, then column
    assert cells(q, W) == ["d3"]


def test_a_pawn_of_yours_must_move():
    p = pos("c3 d3 f5 f6", white=["c3"], black=["f5"])
    with pytest.raises(Refused) as exc:
        turn(p, W, "f5>n2")                # only Black's pawn rides
    assert exc.value.rule == "a pawn must move"
    q, _ = turn(p, W, "c3>e1")             # riding a pushed cube counts
    assert cells(q, W) == ["d3"]


def test_win_by_king_capture():
    p = pos("c3 d3 e3 e4", white=["c3", "e4"], black=["h8"], kings={B: "d3"})
    q, res = turn(p, W, "e4-e3")
    assert res.captured == ["K1"] and res.winner == W and B not in q.kings


def test_a_line_is_pushed_along_its_own_length():
    """"On déplace les cubes en poussant une rangée ou une colonne": a column goes n or s, a row
    e or w. A column segment pushed east is refused as such, not as a broken row."""
    p = pos("d4 d5 d6 d7 d8 c4 e4", white=["d4"])
    before = (set(p.cubes), dict(p.pawns))
    with pytest.raises(Refused) as exc:
        turn(p, W, "d4:d8>e2")
    assert exc.value.rule == "along the push"
    assert "d4:d8 lies along column d" in exc.value.message and "(this one n or s)" in exc.value.message
    assert (p.cubes, p.pawns) == before
    with pytest.raises(Refused) as exc:
        turn(p, W, "c4:e4>n1")
    assert exc.value.rule == "along the push" and "(this one e or w)" in exc.value.message
    with pytest.raises(Refused) as exc:
        turn(p, W, "c4:d5>n1")
    assert exc.value.rule == "along the push" and "not part of a row or a column" in exc.value.message
    q, _ = turn(p, W, "d4:d8>n1")                      # the same column, pushed along itself
    assert sorted(c for c in q.cubes if c[0] == 3) == [(3, r) for r in range(4, 9)]
    r, _ = turn(p, W, "c4:e4>e1")                      # and the row through d4, along itself
    assert cells(r, W) == ["e4"]


def test_a_crooked_pawn_move_is_named_in_a_two_move_turn():
    p = pos("c3 d3 d4 d5", white=["c3"])
    with pytest.raises(Refused) as exc:
        turn(p, W, "c3-d4 d4>n1")                      # was refused as "perpendicular"
    assert exc.value.rule == "rook move"


def test_no_pawn_lands_on_a_king_cube():
    p = pos("c3 c4 c5", white=["c3"], kings={B: "c4"})
    with pytest.raises(Refused) as exc:
        turn(p, W, "c3-c4")
    assert exc.value.rule == "king cube"


def test_a_single_cube_moves_like_a_line():
    """"Un cube isolé se déplace de la même manière qu'un alignement de plusieurs cubes"."""
    p = pos("e5 a1", white=["e5"], black=["a1"])
    q, _ = turn(p, W, "e5>n3")
    assert sorted(q.cubes) == [(0, 0), (4, 7)] and cells(q, W) == ["e8"]


def test_pushing_only_your_king_cube_moves_no_pawn():
    """"Le joueur est forcé de déplacer au minimum un de ses pions, le cube-roi n'est pas
    considéré comme un pion"."""
    p = pos("c3 d3 h7 h8", white=["h7"], black=["h8"], kings={W: "c3"})
    with pytest.raises(Refused) as exc:
        turn(p, W, "c3>e1")
    assert exc.value.rule == "a pawn must move"


def test_several_pieces_taken_in_one_turn():
    """"La prise de plusieurs pions dans un même coup est permise"."""
    p = pos("c4 d4 e4 f4 g4 e5 h8", white=["c4", "g4", "e5"], black=["d4", "f4", "h8"])
    q, res = turn(p, W, "e5-e4")
    assert res.captured == ["p4", "p5"] and cells(q, B) == ["h8"] and res.winner is None


def test_the_king_cube_takes_part_in_a_capture():
    """"Le cube-roi peut intervenir dans une prise"."""
    p = pos("c3 d3 e3 e4 h8", white=["e4"], black=["d3", "h8"], kings={W: "c3"})
    q, res = turn(p, W, "e4-e3")
    assert res.captured == ["p2"] and cells(q, B) == ["h8"]


def test_a_king_cube_taken_leaves_the_board():
    """A pawn taken is "éliminé et retiré du jeu", and the king cube "se capture de la même
    manière qu'un pion": its cube goes with it, leaving a hole."""
    p = pos("c3 d3 e3 e4", white=["c3", "e4"], black=["h8"], kings={B: "d3"})
    q, res = turn(p, W, "e4-e3")
    assert res.captured == ["K1"] and (3, 2) not in q.cubes and len(q.cubes) == len(p.cubes) - 1


def test_pushing_an_enemy_pawn_between_two_of_yours_takes_it():
    """The taker must "créer lui-même la situation de prise": moving the enemy's cube does."""
    p = pos("a1 b1 c4 e4 d3 h8", white=["a1", "c4", "e4"], black=["d3", "h8"])
    q, res = turn(p, W, "a1-b1 d3>n1")
    assert res.captured == ["p4"] and cells(q, B) == ["h8"]


def test_pushing_your_own_pawn_between_two_enemies_is_safe():
    """"Lorsqu'un joueur amène un de ses propres pions entre deux pions adverses, il n'y a pas
    prise", by a push as by a pawn move; nor is it taken later by a sandwich that already stood."""
    p = pos("c4 e4 d3 h8 h7", white=["d3"], black=["c4", "e4", "h8"])
    q, res = turn(p, W, "d3>n1")
    assert res.captured == [] and cells(q, W) == ["d4"]
    r, res2 = turn(q, B, "h8-h7")
    assert res2.captured == [] and cells(r, W) == ["d4"]


def test_captures_are_judged_when_the_turn_is_over():
    """Our reading (README): the push makes a sandwich, the pawn move then unmakes it: nothing
    is taken."""
    p = pos("b4 c4 d4 e3 h8", white=["c4", "e3"], black=["d4", "h8"])
    q, res = turn(p, W, "e3>n1 c4-b4")
    assert res.captured == [] and cells(q, B) == ["d4", "h8"]


def test_four_players_first_king_or_last_pawn_ends_the_game():
    """"Le jeu prend fin lorsqu'un des joueurs capture l'un des trois cubes-roi adverses, ou le
    dernier pion d'un joueur adverse"."""
    names = ("South", "West", "North", "East")
    c = lambda s: parse_cell(s, 11)  # noqa: E731
    board = {c(x) for x in "c3 d3 e3 e4 k11 a11 a10 k1 j1 b1".split()}
    kings = {0: c("b1"), 1: c("a11"), 2: c("k11"), 3: c("d3")}
    pawns = {"p1": (0, c("c3")), "p2": (0, c("e4")), "p3": (1, c("a10")), "p4": (2, c("k1")), "p5": (3, c("j1"))}
    game = CubesGame(Position(11, set(board), dict(kings), dict(pawns)), names, captures=(0,) * 4)
    after, report = apply(game, {"move": "e4-e3"})            # South flanks East's king cube
    assert report.data["captured"] == ["East's king cube"] and report.data["winner"] == "South"
    with pytest.raises(Refused) as exc:
        apply(after, {"move": "a10-a9"})
    assert exc.value.rule == "game over"
    # West's last pawn, taken: the game ends though West's king cube still stands
    board2 = {c(x) for x in "c3 d3 e3 e4 k11 a11 k1 j1 b1 f9".split()}
    pawns2 = {"p1": (0, c("c3")), "p2": (0, c("e4")), "p3": (1, c("d3")), "p4": (2, c("k1")), "p5": (3, c("j1"))}
    kings2 = {0: c("b1"), 1: c("a11"), 2: c("k11"), 3: c("f9")}
    game2 = CubesGame(Position(11, board2, kings2, pawns2), names, captures=(0,) * 4)
    after2, report2 = apply(game2, {"move": "e4-e3"})
    assert report2.data["captured"] == ["West's pawn"] and after2.winner == 0


def _docs_turns(text):
    """The turns written in a piece of documentation: pawn moves and pushes, alone or in pairs."""
    move = r"[a-k]\d{1,2}(?:-[a-k]\d{1,2}|(?::[a-k]\d{1,2})?>[nesw]\d+)"
    return re.findall(rf"(?<![\w:>-]){move}(?: {move})?(?![\w:>-])", text)


def test_every_example_in_the_docs_is_a_legal_turn():
    """The user guide's Cubes notation (docs/referees.md) and the prompt's help: each example is accepted as a first
    turn from the kit's setup; the record in the referee's docstring replays."""
    readme = (ROOT / "docs" / "referees.md").read_text()
    section = readme[readme.index("**Cubes.** Cells are named"):readme.index("**Sorry.**")]
    examples = _docs_turns(section) + _docs_turns(REFEREE.help_text)
    assert len(examples) >= 8 and "d4-d6 c6:h6>w1" in examples
    start = new_game({}, None)
    for text in examples:
        apply(start, {"move": text})       # raises Refused if the docs are wrong
    doc = cubes_referee.__doc__
    record = yaml.safe_load(textwrap.dedent(doc[doc.index("Record (YAML):\n") + 15:doc.index("A line is pushed")]))
    state = new_game(record, None)
    for entry in record["entries"]:
        state, _ = apply(state, entry)
    assert state.turn == len(record["entries"]) == 3


# ---------------------------------------------------------------- the referee contract

def test_record_replays_a_capture(tmp_path):
    """From the kit's setup: White's d4 pawn steps out, Black's g7 pawn goes to g5, and White's h3
    pawn runs up to h6, flanking g5 on the diagonal with f4: Black's pawn is taken."""
    rec = {"game": "cubes", "entries": [{"move": "d4-d6"}, {"move": "g7-g5"}, {"move": "h3-h6"}]}
    path = tmp_path / "game.yaml"
    path.write_text(yaml.dump(rec, Dumper=yaml.CSafeDumper, sort_keys=False))
    r = pnp_here("referee", "cubes", "score", path, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [t["captured"] for t in out["turns"]] == [[], [], ["Black's pawn"]]
    assert out["totals"] == {"White": 1, "Black": 0} and out["winner"] is None


def test_refused_record_entry(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("game: cubes\nentries:\n  - {move: d4-d6}\n  - {move: d6-d8}\n")
    r = pnp_here("referee", "cubes", "score", path)
    assert r.returncode == 2
    assert r.stderr.startswith(f"{path}:4: entry 2: refused (own pawn)")


def test_play_journal_and_undo(tmp_path):
    j = tmp_path / "j.yaml"
    r = pnp_here("referee", "cubes", "play", "--journal", j, cwd=tmp_path,
                input="d4-d6\ne7-e5\nundo\ne7-e6\nquit\n")
    assert r.returncode == 0, r.stdout
    assert [e["move"] for e in yaml.safe_load(j.read_text())["entries"]] == ["d4-d6", "e7-e6"]
    out = json.loads(pnp_here("referee", "cubes", "score", j, "--json").stdout)
    assert out["winner"] is None and [t["player"] for t in out["turns"]] == ["White", "Black"]


def test_four_player_game(tmp_path):
    path = tmp_path / "four.yaml"
    path.write_text("game: cubes\nvariant: four-player\nentries:\n"
                    "  - {move: f4-f6}\n  - {move: d6-f6}\n  - {move: f8-f7}\n  - {move: h6-h4}\n")
    # West's d6-f6 would land on South's pawn: refused, naming the entry and the rule
    with pytest.raises(RecordError) as exc:
        replay(REFEREE, load_record(path, REFEREE))
    assert "entry 2: refused (onto a pawn)" in str(exc.value)
    path.write_text("game: cubes\nvariant: four-player\nentries:\n"
                    "  - {move: f4-f6}\n  - {move: d6-e6}\n  - {move: f8-f7}\n  - {move: h6-g6}\n")
    buf = io.StringIO()
    assert score(REFEREE, path, True, out=buf) == 0
    out = json.loads(buf.getvalue())
    assert [t["player"] for t in out["turns"]] == ["South", "West", "North", "East"]
    assert set(out["totals"]) == {"South", "West", "North", "East"}


def test_four_player_board_is_11_by_11(tmp_path):
    r = pnp_here("referee", "cubes", "play", "--four", "--journal", tmp_path / "j.yaml", cwd=tmp_path, input="quit\n")
    assert r.returncode == 0
    rows = [line for line in r.stdout.splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == 11 and sum(line.count("#") + sum(line[4:].count(ch) for ch in "xoyzXOYZ") for line in rows) == 49
