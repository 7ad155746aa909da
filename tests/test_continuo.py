"""Continuo: the tile family and its 42, the patent's worked scores (both variants, whichever way the
record names them), refusals one rule a test, exact types, `best`, the prompt. Records are replayed
in-process; the command line is run where its exit code and output are the point."""
import argparse
import io
import json
import re
from collections import Counter
from itertools import product

import pytest
import yaml

from conftest import ROOT, drawn_items, pnp_here
from generator.games.continuo.referee import REFEREE as CONTINUO
from generator.games.continuo.referee import COUNT_REFEREE as COUNT
from generator.games.continuo.deck import load_deck
from generator.games.continuo.referee import best_text
from generator.games.continuo.rules import Layout, Placement, best_placements, place
from generator.games.continuo.tiles import (band_sequences, band_tile, canonical, deck_sequences,
                                            regions, rotate_tile)
from generator.referee.prompt import play
from generator.referee.record import RecordError, load_record
from generator.referee.record import replay as replay_record
from generator.referee.contract import Refused
from generator.spec import load_spec

COLOURS = "RYGB"


def deck(name="continuo.yaml"):
    return load_deck(load_spec(ROOT / "decks" / name))


# ---------------------------------------------------------------- the tiles

def test_family_count_by_brute_force():
    """All 4x4 tiles of nested L bands (compartment (r, c) in band max(r, c)), counted from scratch."""
    family = set()
    for seq in product(COLOURS, repeat=4):
        tile = tuple("".join(seq[max(r, c)] for c in range(4)) for r in range(4))
        # a band that matched its neighbour would merge with it: not this family's shape
        if any(seq[i] == seq[i + 1] for i in range(3)):
            continue
        if len(set(seq)) in (2, 3):
            family.add(tile)
    assert len(family) == 84
    assert {band_tile(s) for s in band_sequences(COLOURS)} == family


def test_yaml_lists_exactly_the_enumerated_42():
    listed = deck().tiles
    assert listed == [band_tile(s) for s in deck_sequences(COLOURS)]
    assert len(listed) == 42


def test_42_tiles_properties():
    tiles = deck().tiles
    assert len({canonical(t) for t in tiles}) == 42           # none alike, however turned
    for t in tiles:
        assert 2 <= len({ch for row in t for ch in row}) <= 3
        assert t == tuple("".join(col) for col in zip(*t))    # symmetric about the diagonal
        for region in regions(t):                             # every region reaches the edge
            assert any(r in (0, 3) or c in (0, 3) for r, c in region)
    cells = Counter(ch for t in tiles for row in t for ch in row)
    assert cells == {c: 168 for c in COLOURS}                 # no colour favoured


def test_42_is_one_of_each_reversal_pair():
    chosen = set(deck_sequences(COLOURS))
    for s in band_sequences(COLOURS):
        assert (s in chosen) != (s[::-1] in chosen)


def test_count_continuo_shares_the_tiles_and_numbers():
    c, n = deck(), deck("count_continuo.yaml")
    assert n.tiles == c.tiles and n.variant == "count-continuo"
    assert {v.name: v.number for v in n.colours.values()} == {"red": 1, "blue": 2, "green": 3, "yellow": 4}


def test_rotation_is_clockwise():
    assert rotate_tile(("ABCD", "EFGH", "IJKL", "MNOP"), 90) == ("MIEA", "NJFB", "OKGC", "PLHD")


# ---------------------------------------------------------------- scoring

FIG = [  # the patent's Figure 1 sequence, as house tiles: card 2 opens, then 4, 6, 8
    {"tile": ["YYGG", "YYYB", "YYYY", "GGBB"], "at": [0, 0], "opening": True},
    {"tile": ["GGGG", "BBBY", "GGGG", "BBRR"], "at": [0, 4]},
    {"tile": ["BBRR", "YYYY", "BYYY", "BBYY"], "at": [4, 4]},
    {"tile": ["GGRB", "RRRR", "RRRB", "RBBB"], "at": [4, 0]},
]


def write_record(tmp_path, entries, **header):
    rec = {"game": "continuo", "players": ["Ann", "Bob"], **header, "entries": entries}
    path = tmp_path / "game.yaml"
    path.write_text(yaml.dump(rec, Dumper=yaml.CSafeDumper, sort_keys=False))
    return path


def replay(path, rules=CONTINUO):
    """(error line or None, state, the --json summary), as `pnp referee GAME score --json`."""
    try:
        state, reports, _ = replay_record(rules, load_record(path, rules))
    except RecordError as exc:
        return str(exc), None, None
    return None, state, rules.summary(state, reports)


PLAIN, COUNTED = [14, 10, 18], [34, 16, 40]


@pytest.mark.parametrize("rules, header, scores", [
    (CONTINUO, {}, PLAIN),
    (CONTINUO, {"variant": "continuo"}, PLAIN),
    (CONTINUO, {"variant": "count-continuo"}, COUNTED),
    (CONTINUO, {"game": "count-continuo"}, COUNTED),
    # The count-continuo referee: the game id decides, whatever the record says or omits.
    (COUNT, {}, COUNTED),
    (COUNT, {"game": "count-continuo"}, COUNTED),
    (COUNT, {"variant": "continuo"}, COUNTED),
    (COUNT, {"game": "count-continuo", "variant": "continuo"}, COUNTED),
])
def test_patent_worked_figures(tmp_path, rules, header, scores):
    err, _, out = replay(write_record(tmp_path, FIG, openings=1, **header), rules)
    assert err is None, err
    scored = [p for p in out["placements"] if not p["opening"]]
    assert [p["score"] for p in scored] == scores
    assert out["game"] == out["variant"] == ("count-continuo" if scores == COUNTED else "continuo")
    assert [sorted((c["size"] for c in p["chains"]), reverse=True) for p in scored] == [[6, 4, 4], [6, 4], [7, 7, 4]]
    colours = [sorted((c["colour"], c["size"]) for c in p["chains"]) for p in scored]
    assert colours == [[("blue", 4), ("blue", 4), ("green", 6)], [("blue", 6), ("red", 4)],
                       [("blue", 7), ("blue", 7), ("green", 4)]]
    assert out["totals"] == {"Ann": scores[0] + scores[2], "Bob": scores[1]}
    assert out["winner"] is None and out["complete"] is False


def test_count_continuo_from_the_command_line(tmp_path):
    # A record that does not say its variant, scored and searched by `count-continuo`: Count rules.
    path = write_record(tmp_path, FIG, openings=1)
    r = pnp_here("referee", "count-continuo", "score", path, "--json")
    assert r.returncode == 0, r.stderr
    assert [p["score"] for p in json.loads(r.stdout)["placements"]][1:] == COUNTED
    r = pnp_here("referee", "count-continuo", "best", path, "7", "--top", "1")
    assert r.returncode == 0, r.stderr
    best = int(r.stdout.splitlines()[1].split()[0])
    _, state, _ = replay(path, COUNT)
    assert best == best_placements(state.layout, state.deck.tiles[6], state.numbers)[0][0] == 40


def test_best_ranks_by_the_variant_of_the_game(tmp_path):
    # The same layout and tile: plain Continuo counts compartments, Count continuo their numbers; the
    # placement `best` puts first is accepted with the score `best` gives it, under either referee.
    path = write_record(tmp_path, FIG, openings=1)
    for rules in (CONTINUO, COUNT):
        _, state, _ = replay(path, rules)
        text = best_text(state, 7, 1)
        score, at = text.splitlines()[1].split()[0], text.splitlines()[1].split("at ")[1]
        r, c = (int(v) for v in at.split()[0].split(","))
        rot = int(at.split("turned ")[1]) if "turned" in at else 0
        nxt, report = rules.apply(state, {"tile": 7, "at": [r, c], "rotation": rot})
        assert report.data["score"] == int(score)
        counted = sum(ch.value for ch in place(state.layout, Placement(state.deck.tiles[6], r, c, rot),
                                               {"R": 1, "B": 2, "G": 3, "Y": 4})[1])
        plain = sum(ch.size for ch in place(state.layout, Placement(state.deck.tiles[6], r, c, rot))[1])
        assert int(score) == (counted if rules is COUNT else plain)


def test_chain_joined_through_the_new_tile_counts_once():
    layout = Layout()
    layout, _ = place(layout, Placement(("GGGR", "GGGG", "GGGG", "GGGR"), 0, 0))
    layout, chains = place(layout, Placement(("RYYY", "RYYY", "RYYY", "RYYY"), 0, 4))
    assert [(c.colour, c.size) for c in chains] == [("R", 6)]


def test_chain_within_the_new_tile_alone_does_not_score():
    layout, _ = place(Layout(), Placement(("GGGG", "GGGG", "GGGG", "GGGG"), 0, 0))
    _, chains = place(layout, Placement(("YYYY", "YYYY", "YYYY", "YYYY"), 0, 4))
    assert chains == []


def test_winner_when_all_tiles_down(tmp_path):
    _, _, out = replay(write_record(tmp_path, FIG, openings=1, end=4))
    assert out["complete"] and out["winner"] == "Ann" and out["totals"] == {"Ann": 32, "Bob": 10}


# ---------------------------------------------------------------- refusals

@pytest.mark.parametrize("entry, rule", [
    ({"tile": 5, "at": [1, 1]}, "no overlap"),
    ({"tile": 5, "at": [-4, -4]}, "edge contact"),         # corner to corner only
    ({"tile": 5, "at": [8, 8]}, "edge contact"),
    ({"tile": 43, "at": [0, 8]}, "tile number"),
    ({"tile": 5, "at": [0, 8], "player": "Bob"}, "turn order"),  # Ann, Bob, then Ann again
    ({"tile": 5, "at": [0, 8], "opening": True}, "opening"),
    ({"tile": ["XXXX", "XXXX", "XXXX", "XXXX"], "at": [0, 8]}, "tile colours"),
    ({"tile": 5, "at": [0, 8], "rotation": 90.0}, "rotation"),
])
def test_refused_entries(tmp_path, entry, rule):
    entries = FIG[:3]  # card 6 sits at rows 4-7, cols 4-7: a tile at (8, 8) meets only its corner
    path = write_record(tmp_path, entries + [entry], openings=1)
    err, _, _ = replay(path)
    assert err.startswith(f"{path}:") and "entry 4: refused (" + rule + ")" in err, err
    n = int(err.split(":")[1])
    assert yaml.safe_load(path.read_text()) and path.read_text().splitlines()[n - 1].lstrip().startswith("- ")


@pytest.mark.parametrize("entry, field", [
    ({"tile": 5, "at": [0, 8], "opening": "yes"}, "entry 4, opening"),
    ({"tile": True, "at": [0, 8]}, "entry 4, tile"),
    ({"tile": "5", "at": [0, 8]}, "entry 4, tile"),
    ({"tile": 5, "at": [0, 8], "rotation": 45}, "entry 4, rotation"),
    ({"tile": 145, "at": [0, 8]}, "entry 4, tile"),
    ({"tile": 5, "at": [0, 5000]}, "entry 4, at[1]"),
    ({"tile": 2.0, "at": [0, 8]}, "entry 4, tile"),       # 2.0 is not a whole number here
    ({"tile": 5, "at": [0.0, 8]}, "entry 4, at[0]"),
])
def test_wrong_types_name_file_line_and_field(tmp_path, entry, field):
    path = write_record(tmp_path, FIG[:3] + [entry], openings=1)
    err, _, _ = replay(path)
    assert err.startswith(f"{path}:") and f": {field}: expected " in err, err


def test_the_game_counts_its_tiles(tmp_path):
    assert "refused (end)" in replay(write_record(tmp_path, FIG, end=43))[0]          # a pack of 42
    assert "refused (openings)" in replay(write_record(tmp_path, FIG, end=4, openings=5))[0]
    assert ": openings: expected " in replay(write_record(tmp_path, FIG, openings=2.0))[0]


def test_each_tile_once(tmp_path):
    err, _, _ = replay(write_record(tmp_path, [{"tile": 1, "at": [0, 0], "opening": True},
                                               {"tile": 1, "at": [0, 4], "opening": True}]))
    assert "refused (each tile once)" in err


def test_rows_of_a_pack_tile_are_that_tile(tmp_path):
    # "no two cards of the pack are identical": tile 1's rows, turned, are tile 1 again.
    one = deck().tiles[0]
    entries = [{"tile": 1, "at": [0, 0], "opening": True},
               {"tile": list(rotate_tile(one, 90)), "at": [0, 4], "opening": True}]
    err, _, _ = replay(write_record(tmp_path, entries, openings=2))
    assert "refused (each tile once)" in err and "tile 1" in err


def test_the_two_opening_tiles_score_the_most_they_can(tmp_path):
    # "the top two cards are ... placed ... so that the maximum score is obtained" (not recorded).
    tiles = deck().tiles
    layout, _ = place(Layout(), Placement(tiles[0], 0, 0))
    ranked = best_placements(layout, tiles[1])
    most = ranked[0][0]
    worse = next(r for r in ranked if r[0] < most)
    opening = {"tile": 1, "at": [0, 0], "opening": True}
    second = lambda r: {"tile": 2, "at": [r[1], r[2]], "rotation": r[3], "opening": True}
    err, _, _ = replay(write_record(tmp_path, [opening, second(worse)]))
    assert "refused (opening maximum)" in err and f"{most} with this tile, not {worse[0]}" in err
    err, state, out = replay(write_record(tmp_path, [opening, second(ranked[0])]))
    assert err is None and out["totals"] == {"Ann": 0, "Bob": 0}
    # `best` for the second opening tile lists just the maximal placements.
    _, state, _ = replay(write_record(tmp_path, [opening]))
    text = best_text(state, 2, 100)
    assert "only the maximum" in text and all(int(ln.split()[0]) == most for ln in text.splitlines()[1:])
    # Three opening tiles (three players): which total is meant is not said; not checked.
    err, _, _ = replay(write_record(tmp_path, [opening, second(worse)], openings=3))
    assert err is None


def test_refused_placement_leaves_layout_unchanged():
    layout, _ = place(Layout(), Placement(FIG[0]["tile"], 0, 0))
    before = dict(layout.cells)
    with pytest.raises(Refused):
        place(layout, Placement(tuple(FIG[1]["tile"]), 2, 2))
    assert layout.cells == before


# ---------------------------------------------------------------- best

def brute_force(layout, tile, numbers=None):
    out = []
    rows = [r for r, _ in layout.cells] or [0]
    cols = [c for _, c in layout.cells] or [0]
    for rot in (0, 90, 180, 270):
        if rot and rotate_tile(tile, rot) in [rotate_tile(tile, x) for x in range(0, rot, 90)]:
            continue
        for r in range(min(rows) - 6, max(rows) + 6):
            for c in range(min(cols) - 6, max(cols) + 6):
                try:
                    _, chains = place(layout, Placement(tile, r, c, rot), numbers)
                except Refused:
                    continue
                out.append((sum(ch.value for ch in chains), r, c, rot))
    return sorted(out, key=lambda t: (-t[0], t[1], t[2], t[3]))


@pytest.mark.parametrize("numbers", [None, {"R": 1, "B": 2, "G": 3, "Y": 4}])
# (layouts of three and five tiles in the whole suite only: the brute force, the test's own, grows
# with the layout, and one tile asks the same of `best`, each probe in each rotation against every
# place, before each commit)
@pytest.mark.parametrize("n_tiles", [1, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 5))])
def test_best_agrees_with_brute_force(numbers, n_tiles):
    tiles = deck().tiles
    layout = Layout()
    # A small layout grown from deck tiles, each at its best place (deterministic).
    for k in range(n_tiles):
        t = tiles[(k * 7) % 42]
        s, r, c, rot = best_placements(layout, t, numbers)[0]
        layout, _ = place(layout, Placement(t, r, c, rot), numbers)
    for probe in (tiles[3], tiles[20], ("RRRR", "RGGR", "RGGR", "RRRR")):
        assert best_placements(layout, probe, numbers) == brute_force(layout, probe, numbers)


def test_best_command(tmp_path):
    path = write_record(tmp_path, FIG, openings=1)
    r = pnp_here("referee", "continuo", "best", path, "7", "--top", "3")
    assert r.returncode == 0, r.stderr
    assert "legal placements of tile 7" in r.stdout and len(r.stdout.strip().splitlines()) == 4


# ---------------------------------------------------------------- the prompt and its journal

def test_play_journals_undoes_and_resumes(tmp_path):
    journal = tmp_path / "j.yaml"
    tiles = deck().tiles
    layout, _ = place(Layout(), Placement(tiles[0], 0, 0))

    def at_best(n):   # "N ROW,COL ROT" at the best place for tile n, and the layout after it
        _, r, c, rot = best_placements(layout, tiles[n - 1])[0]
        return f"{n} {r},{c} {rot}", place(layout, Placement(tiles[n - 1], r, c, rot))[0]
    second, layout = at_best(2)                                 # the second opening tile scores the most
    third, _ = at_best(3)
    fourth, after = at_best(4)
    moves = f"open 1 0,0\nopen {second}\n{third}\n{third}\nbest 4 1\n5 99,99\nundo\n{fourth}\nquit\n"
    args = argparse.Namespace(players="Ann,Bob", variant="continuo", openings=None)
    out = io.StringIO()
    code = play(CONTINUO, journal, args, inp=io.StringIO(moves), out=out)
    text = out.getvalue()
    assert "refused, entry 4 (each tile once)" in text and "refused, entry 4 (edge contact)" in text, text
    assert "legal placements of tile 4" in text
    assert code == 2  # refused input, not at a terminal
    rec = yaml.safe_load(journal.read_text())
    assert rec["players"] == ["Ann", "Bob"] and rec["game"] == "continuo"
    assert [e["tile"] for e in rec["entries"]] == [1, 2, 4]  # 3 was undone, 4 replaced it
    # resume: the journal is a record; play takes up where it stopped
    out = io.StringIO()
    layout = after
    fifth, _ = at_best(5)
    assert play(CONTINUO, journal, args, inp=io.StringIO(f"{fifth}\nquit\n"), out=out) == 0, out.getvalue()
    assert "Resumed" in out.getvalue()
    _, _, summary = replay(journal)
    assert [p["tile"] for p in summary["placements"]] == [1, 2, 4, 5]
    assert [p["player"] for p in summary["placements"]] == [None, None, "Ann", "Bob"]


def test_count_continuo_play_writes_a_count_continuo_journal(tmp_path):
    journal = tmp_path / "j.yaml"
    args = argparse.Namespace(players="Ann,Bob", openings=1)
    out = io.StringIO()
    assert play(COUNT, journal, args, inp=io.StringIO("open 1 0,0\n2 0,4\nquit\n"), out=out) == 0
    rec = yaml.safe_load(journal.read_text())
    assert rec["game"] == "count-continuo" and "variant" not in rec
    _, state, summary = replay(journal, COUNT)
    assert summary["variant"] == "count-continuo" and state.numbers
    # The plain referee scores it as its game id says: Count continuo.
    assert replay(journal, CONTINUO)[2]["totals"] == summary["totals"]


@pytest.mark.parametrize("game, stem", [("continuo", "continuo"), ("count-continuo", "count_continuo")])
def test_build_pack(output, game, stem):
    from pypdf import PdfReader
    out = output / game
    shop = PdfReader(out / f"{stem}-shop.pdf")
    assert len(shop.pages) == 2 * 44  # 42 tiles + the rules card + the scoring example, and backs
    k = 72 / 25.4
    for page in (shop.pages[0], shop.pages[43]):
        x0, y0, x1, y1 = (float(v) for v in page.trimbox)
        assert (x1 - x0, y1 - y0) == pytest.approx((48 * k, 48 * k), abs=0.01)
    sheet = PdfReader(out / f"{stem}-sheet-a4.pdf")
    assert len(sheet.pages) == 2 * -(-44 // 15)  # 3 x 5 square cards a sheet
    assert (out / f"{stem}-contact.png").stat().st_size > 10_000


# ---------------------------------------------------------------- the printed cards

@pytest.mark.parametrize("game, stem", [("continuo", "continuo"), ("count-continuo", "count_continuo")])
def test_a_tiles_number_is_small_on_its_face_and_no_back_tells_it(output, game, stem):
    """Numbered backs told the next tile of the face-down pile. Read from the shop PDF (a card a
    page, the faces then their backs): every back is the same and carries no digit; each tile's
    face carries its number, at 6 pt or more and under 8 pt, in the top-left compartment, clear of
    Count continuo's numeral there (no overlap of their boxes)."""
    import subprocess
    from html import unescape
    from pypdf import PdfReader

    from conftest import need
    pdf = output / game / f"{stem}-shop.pdf"
    reader = PdfReader(pdf)
    tiles = 42
    cards = len(reader.pages) // 2
    backs = [reader.pages[k] for k in range(cards, 2 * cards)]
    assert cards == tiles + 2
    contents = {b.get_contents().get_data() for b in backs}
    assert len(contents) == 1                                     # one back for the whole pack
    assert not any(ch.isdigit() for b in backs for ch in b.extract_text())
    html = subprocess.run([need("pdftotext"), "-bbox", "-f", "1", "-l", str(tiles), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    k = 72 / 25.4
    for n, page in enumerate(html.split("<page ")[1:tiles + 1], 1):
        box = reader.pages[n - 1].trimbox
        x0, top = float(box[0]), float(reader.pages[n - 1].mediabox[3]) - float(box[3])
        cell = 48 / 4 * k
        words = [(unescape(w[4]), *(float(v) for v in w[:4])) for w in
                 re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<', page)]
        # pdftotext's box of a word is its font size tall, the baseline a quarter of it up from
        # the bottom: the ink of digits is the cap height (0.73 of the size) above the baseline.
        ink = [(w[0], w[1], w[4] - 0.24 * (w[4] - w[2]) - 0.73 * (w[4] - w[2]), w[3], w[4] - 0.24 * (w[4] - w[2]),
                w[4] - w[2]) for w in words]
        mine = [w for w in ink if w[0] == str(n) and w[5] < 8]            # the small one, under 8 pt
        assert len(mine) == 1, (n, words)
        _, a, b, c, d, size = mine[0]
        assert size >= 6 and a - x0 >= 3.4 * k and b - top >= 3.4 * k, (n, mine)   # 6 pt, in the safe area
        assert c - x0 <= cell and d - top <= cell, (n, mine)                       # the top-left compartment
        for other in ink:
            if other is not mine[0]:
                _, p, q, r, t, _ = other
                assert r <= a or p >= c or t <= b or q >= d, (n, mine, other)


def test_the_example_card_says_opening_and_that_its_cards_are_drawn_for_it():
    from generator.draw import Text
    from generator.games.continuo.deck import load_deck
    from generator.games.continuo.faces import draw_example
    deck = load_deck(load_spec(ROOT / "decks" / "continuo.yaml"))
    texts = " ".join(it.text for it, _ in drawn_items(draw_example(deck).root) if isinstance(it, Text))
    assert "opening" in texts and "start" not in texts.split()
    assert "not from the pack" in texts
