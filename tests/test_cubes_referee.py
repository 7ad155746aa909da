"""Cubes rules on positions set up by hand, and the referee's record contract."""
import json

import pytest
import yaml

from conftest import run_pnp
from generator.games.cubes.rules import Position, parse_cell, parse_turn, play_turn
from generator.referee.session import Refused

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


# ---------------------------------------------------------------- the referee contract

def test_record_replays_a_capture(tmp_path):
    """From the kit's setup: White's d4 pawn steps out, Black's g7 pawn goes to g5, and White's h3
    pawn runs up to h6, flanking g5 on the diagonal with f4: Black's pawn is taken."""
    rec = {"game": "cubes", "entries": [{"move": "d4-d6"}, {"move": "g7-g5"}, {"move": "h3-h6"}]}
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(rec, sort_keys=False))
    r = run_pnp("referee", "cubes", "score", path, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [t["captured"] for t in out["turns"]] == [[], [], ["Black's pawn"]]
    assert out["totals"] == {"White": 1, "Black": 0} and out["winner"] is None


def test_refused_record_entry(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("game: cubes\nentries:\n  - {move: d4-d6}\n  - {move: d6-d8}\n")
    r = run_pnp("referee", "cubes", "score", path)
    assert r.returncode == 2
    assert r.stderr.startswith(f"{path}:4: entries[1]: refused (own pawn)")


def test_play_journal_and_undo(tmp_path):
    j = tmp_path / "j.yaml"
    r = run_pnp("referee", "cubes", "play", "--journal", j, cwd=tmp_path,
                input="d4-d6\ne7-e5\nundo\ne7-e6\nquit\n")
    assert r.returncode == 0, r.stdout
    assert [e["move"] for e in yaml.safe_load(j.read_text())["entries"]] == ["d4-d6", "e7-e6"]
    out = json.loads(run_pnp("referee", "cubes", "score", j, "--json").stdout)
    assert out["winner"] is None and [t["player"] for t in out["turns"]] == ["White", "Black"]


def test_four_player_game(tmp_path):
    path = tmp_path / "four.yaml"
    path.write_text("game: cubes\nvariant: four-player\nentries:\n"
                    "  - {move: f4-f6}\n  - {move: d6-f6}\n  - {move: f8-f7}\n  - {move: h6-h4}\n")
    r = run_pnp("referee", "cubes", "score", path, "--json")
    # West's d6-f6 would land on South's pawn: refused, naming the entry and the rule
    assert r.returncode == 2 and "entries[1]: refused (onto a pawn)" in r.stderr
    path.write_text("game: cubes\nvariant: four-player\nentries:\n"
                    "  - {move: f4-f6}\n  - {move: d6-e6}\n  - {move: f8-f7}\n  - {move: h6-g6}\n")
    out = json.loads(run_pnp("referee", "cubes", "score", path, "--json").stdout)
    assert [t["player"] for t in out["turns"]] == ["South", "West", "North", "East"]
    assert set(out["totals"]) == {"South", "West", "North", "East"}


def test_four_player_board_is_11_by_11(tmp_path):
    r = run_pnp("referee", "cubes", "play", "--four", "--journal", tmp_path / "j.yaml", cwd=tmp_path, input="quit\n")
    assert r.returncode == 0
    rows = [line for line in r.stdout.splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == 11 and sum(line.count("#") + sum(line[4:].count(ch) for ch in "xoyzXOYZ") for line in rows) == 49
