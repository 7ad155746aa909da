"""`pnp studio`'s model and API, without a browser (tests/test_studio_browser.py drives the page):
a save redraws only the card sides it changed (by layout, values, files' stat); a card that no
longer draws shows its error and keeps its last good picture, and fixing it clears the error; a
spec that no longer reads is said at the top with its file and line, every card kept; the checks
(text set under its size, elements past the trim, a shop's safe zone); the pictures are the
project's own per-card pictures; the API's inputs are bounded, the token asked on other hosts than
loopback, and no path a file names leads the studio outside the folder."""
from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image
from starlette.testclient import TestClient

from generator.games import GAMES
from generator.serve.app import make_studio_app
from generator.studio.cards import DPIS, GRID_DPI, Studio

from conftest import ROOT, pnp_here



@pytest.fixture
def starter(tmp_path, monkeypatch):
    """`pnp new deck demo` in a folder of its own, the working folder."""
    folder = tmp_path / "mine"
    folder.mkdir()
    assert pnp_here("new", "deck", "demo", cwd=folder).returncode == 0
    monkeypatch.chdir(folder)
    GAMES.load()
    return folder


def studio_of(folder: Path, names=()) -> Studio:
    s = Studio(folder, list(names))
    s.refresh()
    return s


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, path)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def card_named(s: Studio, name: str):
    found = [c for c in s.cards.values() if c.caption == name]
    assert len(found) == 1, (name, [c.caption for c in s.cards.values()])
    return found[0]


def test_every_card_of_the_starter_deck_face_and_back(starter):
    s = studio_of(starter)
    state = s.state()
    assert state["errors"] == [] and [d["errors"] for d in state["decks"]] == [[]]
    rows = (starter / "demo.csv").read_text().splitlines()[1:]
    # the spec's own card (Rules) and one a CSV row, in the deck's order
    assert [c["caption"] for c in state["cards"]] == ["Rules"] + [r.split(",")[0] for r in rows]
    assert all(c["face"] and c["back"] and c["error"] is None for c in state["cards"])
    # one back for every card: drawn once (its key says what draws it, not which card it is on)
    assert len({c["back"] for c in state["cards"]}) == 1
    strike = card_named(s, "Strike")
    assert strike.row == {"name": "Strike", "kind": "attack", "cost": "1", "text": "Deal 2 damage.", "count": "10"}
    assert strike.where == "demo.csv:2"


def test_a_save_redraws_only_the_cards_it_changed(starter):
    s = studio_of(starter)
    drawn, version = s.drawn, s.version
    before = {cid: (c.face, c.back, c.version) for cid, c in s.cards.items()}
    assert s.refresh() is False and s.drawn == drawn and s.version == version     # nothing saved: nothing
    edit(starter / "demo.csv", "Deal 2 damage.", "Deal 3 damage.")
    assert s.refresh() is True
    assert s.drawn == drawn + 1                       # one card side drawn (its back is known)
    changed = s.state(since=version)["cards"]
    assert [c["caption"] for c in changed] == ["Strike"]
    strike = card_named(s, "Strike")
    assert strike.face != before[strike.id][0] and strike.back == before[strike.id][1]
    assert all(before[cid] == (c.face, c.back, c.version) for cid, c in s.cards.items() if cid != strike.id)


def test_a_layout_changed_redraws_the_cards_of_that_layout_and_no_other(starter):
    s = studio_of(starter)
    before = {c.caption: c.face for c in s.cards.values()}
    backs = {c.back for c in s.cards.values()}
    # the attack layout's band: red -> gold (its cards' faces only)
    edit(starter / "demo.yaml", "      - {id: band, fill: red}", "      - {id: band, fill: gold}")
    s.refresh()
    after = {c.caption: c.face for c in s.cards.values()}
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"Strike", "Heavy Blow"}        # demo.csv's two attack cards
    assert {c.back for c in s.cards.values()} == backs


def test_a_picture_saved_redraws_the_cards_that_show_it(starter):
    s = studio_of(starter)
    before = {c.caption: (c.face, c.back) for c in s.cards.values()}
    star = starter / "icons" / "star.svg"
    edit(star, "<svg", "<svg ")        # the same drawing, another file (its stat changes)
    s.refresh()
    after = {c.caption: (c.face, c.back) for c in s.cards.values()}
    # every back shows the star (an image element); icons are every card's (a text may name :star:)
    assert all(after[n][1] != before[n][1] for n in before)


def test_a_picture_saved_is_seen_whenever_its_card_was_last_drawn(tmp_path, monkeypatch):
    """A card drawn in an earlier reading (its picture read then, not since) is drawn again when
    its picture is saved: the readings between read only the cards they changed."""
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / "art").mkdir()
    for name in ("a", "b"):
        Image.new("RGB", (30, 20), (0, 0, 200)).save(folder / "art" / f"{name}.png")
    (folder / "cards.csv").write_text("name,art\nAlpha,art/a.png\nBeta,art/b.png\n", encoding="utf-8")
    (folder / "pics.yaml").write_text(
        "kind: deck\ntitle: Pictures\ncard: {width: 63, height: 88, bleed: 3}\ncsv: cards.csv\n"
        "layouts:\n  face:\n    elements:\n      - {type: image, file: \"{art}\", x: 0, y: 0, w: 63, h: 40}\n"
        "      - {type: text, x: 5, y: 50, w: 53, h: 10, text: \"{name}\"}\n"
        "  back:\n    elements:\n      - {type: rect, x: 0, y: 0, w: 63, h: 88, fill: \"#333333\"}\n",
        encoding="utf-8")
    monkeypatch.chdir(folder)
    GAMES.load()
    s = studio_of(folder)
    edit(folder / "cards.csv", "Alpha,", "Alpha One,")        # a reading that draws Alpha only
    s.refresh()
    beta = card_named(s, "Beta").face
    Image.new("RGB", (30, 20), (200, 0, 0)).save(folder / "art" / "b.png")
    s.refresh()
    assert card_named(s, "Beta").face != beta
    assert Image.open(io.BytesIO(s.picture(card_named(s, "Beta").face, GRID_DPI))).getpixel((130, 80))[0] > 150


def test_a_broken_card_shows_its_error_over_its_last_good_picture_and_fixing_clears_it(starter):
    s = studio_of(starter)
    gem = card_named(s, "Gem")
    good_face, good_back = gem.face, gem.back
    long_text = " ".join(["Worth 2 :star: and much more besides"] * 40)
    edit(starter / "demo.csv", "Gem,treasure,6,,Worth 2 :star:.", f"Gem,treasure,6,,{long_text}")
    s.refresh()
    gem = card_named(s, "Gem")
    assert gem.error and "demo.csv:4" in gem.error and "does not fit" in gem.error
    assert (gem.face, gem.back) == (good_face, good_back)           # the last good picture, under the error
    assert s.picture(gem.face, GRID_DPI)                            # ... still there to be shown
    assert all(c.error is None for c in s.cards.values() if c.id != gem.id)
    edit(starter / "demo.csv", long_text, "Worth 2 :star:.")
    s.refresh()
    gem = card_named(s, "Gem")
    assert gem.error is None and gem.face == good_face


def test_a_picture_not_there_yet_is_drawn_once_it_is_saved(starter):
    spec = starter / "demo.yaml"
    edit(spec, "      - {type: icon, icon: star, x: 19, y: 20, w: 25, h: 25}",
         '      - {type: icon, icon: star, x: 19, y: 20, w: 25, h: 25}\n'
         '      - {type: image, file: "art/{name}.png", x: 5, y: 20, w: 10, h: 10}')
    (starter / "art").mkdir()
    Image.new("RGB", (40, 40), (0, 0, 255)).save(starter / "art" / "Crown.png")
    s = studio_of(starter)
    gem = card_named(s, "Gem")
    assert "art/Gem.png" in gem.error and "no such file" in gem.error and gem.face is None
    assert card_named(s, "Crown").error is None
    Image.new("RGB", (40, 40), (0, 0, 255)).save(starter / "art" / "Gem.png")   # no file it read changed
    s.refresh()
    gem = card_named(s, "Gem")
    assert gem.error is None and gem.face is not None


def test_a_spec_error_is_said_at_the_top_with_file_and_line_and_every_card_is_kept(starter):
    s = studio_of(starter)
    before = {cid: (c.face, c.back) for cid, c in s.cards.items()}
    spec = starter / "demo.yaml"
    good = spec.read_text()
    edit(spec, 'text: "{text}"', 'text: "{txet}"')                  # a field no card has
    s.refresh()
    deck = s.state()["decks"][0]
    line = next(k for k, text in enumerate(good.splitlines(), 1) if '"{text}"' in text)
    assert any(e.startswith(f"demo.yaml:{line}:") and "txet" in e for e in deck["errors"]), deck["errors"]
    assert {cid: (c.face, c.back) for cid, c in s.cards.items()} == before
    spec.write_text(good + "\nlayouts: [", encoding="utf-8")       # not YAML at all
    s.refresh()
    assert any(e.startswith("demo.yaml:") for e in s.state()["decks"][0]["errors"])
    spec.write_text(good, encoding="utf-8")
    s.refresh()
    assert s.state()["decks"][0]["errors"] == []


def test_the_grid_pictures_are_the_cards_own_at_the_grid_dpi(starter):
    s = studio_of(starter)
    card = card_named(s, "Crown")
    for dpi in DPIS:
        image = Image.open(io.BytesIO(s.picture(card.face, dpi)))
        # trim and bleed, 63 + 2 x 3 mm wide, at dpi (shops/pictures.py's card_size_at)
        assert image.size == (round(69 / 25.4 * dpi), round(94 / 25.4 * dpi))
        assert round(image.info["dpi"][0]) == dpi


def test_checks_text_set_smaller_than_its_size(starter):
    s = studio_of(starter)
    assert card_named(s, "Heavy Blow").flags == []
    edit(starter / "demo.csv", "Heavy Blow,", "Heavy Blow of the Mountain King,")
    s.refresh()
    flags = card_named(s, "Heavy Blow of the Mountain King").flags
    # the name's box (43 x 8 mm) takes it at less than its 16 pt, no less than 6: drawn, and marked
    assert len(flags) == 1 and flags[0].startswith("text name of layout attack set at ") and \
        flags[0].endswith("pt, smaller than its size (16 pt)"), flags
    assert 6 <= float(flags[0].split(" set at ")[1].split(" pt")[0]) < 16


def test_checks_elements_past_the_trim_and_each_elements_outline_with_its_line(starter):
    s = studio_of(starter)
    assert all(c.flags == [] for c in s.cards.values())
    # the name's box moved 2 mm past the trim's left edge (as Squib's ported tutorial has its
    # titles, as wide as the card and its bleed): every face is marked, no back
    edit(starter / "demo.yaml", "{id: name, type: text, x: 5,", "{id: name, type: text, x: -2,")
    s.refresh()
    spec_lines = (starter / "demo.yaml").read_text().splitlines()
    for card in s.cards.values():
        assert len(card.flags) == 1 and card.flags[0].startswith("text name of layout ") and \
            card.flags[0].endswith("past the trim"), card.flags
        line = int(card.flags[0].split("(line ")[1].split(")")[0])
        assert "id: name" in spec_lines[line - 1]
    # the hover outlines: each element shown on the face, with its layout's name and line
    gem = card_named(s, "Gem")
    boxes = {b["name"]: b for b in s.side(gem.face).boxes}
    # (the treasure layout's own icon, and plain's elements it extends; no cost: its `when` is empty)
    assert set(boxes) == {"band", "name", "text", "elements[1]"}
    assert boxes["band"]["box"] == [0, 0, 63, 16] and boxes["band"]["layout"] == "plain"
    changed = boxes["band"]["changed"]            # treasure's own band colour, at its line
    assert [c["layout"] for c in changed] == ["treasure"]
    assert "{id: band, fill: blue}" in spec_lines[changed[0]["line"] - 1]
    assert "{type: icon, icon: star" in spec_lines[boxes["elements[1]"]["line"] - 1]
    assert boxes["elements[1]"]["layout"] == "treasure"


def test_the_api_answers_and_bounds_what_it_is_asked(starter):
    s = studio_of(starter)
    client = TestClient(make_studio_app(s, allowed_hosts=("testserver",)))
    assert "studio.js" in client.get("/").text
    state = client.get("/api/studio").json()
    card = state["cards"][1]
    png = client.get(f"/api/studio/pictures/{card['face']}.png?dpi={GRID_DPI}")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert "immutable" in png.headers["cache-control"]
    for bad in (f"/api/studio/pictures/{card['face']}.png?dpi=7", f"/api/studio/pictures/{card['face']}.png?dpi=9" * 9,
                "/api/studio/pictures/..%2F..%2Fetc%2Fpasswd.png", f"/api/studio/pictures/{'A' * 40}.png"):
        assert client.get(bad).status_code in (400, 404), bad
    assert client.get(f"/api/studio/pictures/{'0' * 40}.png").status_code == 404
    opened = client.get(f"/api/studio/cards/{card['id']}").json()
    assert opened["row"] == card["row"] and opened["face_boxes"] and opened["size"] == [63, 88, 3]
    assert client.get("/api/studio/cards/" + "x" * 121).status_code == 400
    assert client.get("/api/studio/cards/no-such-card").status_code == 404
    # a chosen shop's safe zone: DriveThruCards' poker card (1/8 in inside its trim)
    shop = client.get(f"/api/studio/cards/{card['id']}?shop=drivethrucards").json()["face_shop"]
    assert shop["shop"] == "DriveThruCards" and shop["safe"] == pytest.approx(3.175)
    assert client.get(f"/api/studio/cards/{card['id']}?shop=../../x").status_code == 400
    assert "error" in client.get(f"/api/studio/cards/{card['id']}?shop=nosuchshop").json()["face_shop"]
    assert "drivethrucards" in client.get("/api/studio/shops").json()
    # another host than this server's own: turned away (a page elsewhere resolving its name here)
    assert client.get("/api/studio", headers={"host": "evil.example"}).status_code == 421


def test_on_a_network_the_studio_asks_for_its_token(starter):
    s = studio_of(starter)
    token = "t" * 32
    client = TestClient(make_studio_app(s, token=token))
    assert client.get("/api/studio").status_code == 401
    assert client.get("/api/studio", headers={"X-PNP-Token": token}).status_code == 200


def test_no_path_a_card_names_leads_outside_the_folder(starter, tmp_path):
    secret = tmp_path / "secret.png"
    Image.new("RGB", (40, 40), (255, 0, 0)).save(secret)
    spec = starter / "demo.yaml"
    edit(spec, "      - {type: icon, icon: star, x: 19, y: 20, w: 25, h: 25}",
         '      - {type: icon, icon: star, x: 19, y: 20, w: 25, h: 25}\n'
         '      - {type: image, file: "{cost}", x: 5, y: 20, w: 10, h: 10, when: cost}')
    edit(starter / "demo.csv", "Gem,treasure,6,,", "Gem,treasure,6,../secret.png,")
    (starter / "link.png").symlink_to(secret)
    edit(starter / "demo.csv", "Crown,treasure,1,,", "Crown,treasure,1,link.png,")
    s = studio_of(starter)
    gem, crown = card_named(s, "Gem"), card_named(s, "Crown")
    assert gem.error and "inside" in gem.error and gem.face is None
    assert crown.error and "inside" in crown.error and crown.face is None
    assert card_named(s, "Strike").error is None


def test_the_five_games_decks_are_shown_when_their_specs_are_here(tmp_path, monkeypatch):
    folder = tmp_path / "copy"
    folder.mkdir()
    assert pnp_here("copy", "sorry", cwd=folder).returncode == 0
    monkeypatch.chdir(folder)
    GAMES.load()
    s = studio_of(folder)
    decks = [d for d in s.state()["decks"] if d["cards"]]
    assert decks and all(d["kind"] == "sorry" and not d["errors"] for d in decks)
    cards = [c for c in s.state()["cards"]]
    assert cards and all(c["face"] and c["back"] for c in cards)
    assert Image.open(io.BytesIO(s.picture(cards[0]["face"], GRID_DPI))).size[0] > 100
    drawn = s.drawn
    assert s.refresh() is False and s.drawn == drawn


def test_no_specs_here_is_said_in_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = pnp_here("studio", "--no-browser", cwd=tmp_path)
    assert result.returncode == 2 and "no specs in" in result.stderr and len(result.stderr.splitlines()) == 1


# The tutorial is slow (1 s of CPU: its 380 KB font read and checked, its XLSX read, each card drawn
# four times at 40 dpi); squib-ranges checks the same property in the quick subset.
@pytest.mark.parametrize("ported", ["squib-ranges", pytest.param("squib-tutorial", marks=pytest.mark.slow)])
def test_the_studio_shows_each_card_as_the_build_draws_it(ported, tmp_path, monkeypatch):
    """Each card drawn alone, in its place (Squib's ranges pick elements by the card's index), is
    the card the build draws with the whole deck: the same picture, pixel for pixel."""
    from generator.games.deck.load import load_deck
    from generator.layout.cardsize import CardSize
    from generator.shops.pictures import card_picture, card_size_at
    from generator.spec import load_spec
    folder = tmp_path / ported
    shutil.copytree(ROOT / "examples" / "ported" / ported, folder)
    monkeypatch.chdir(folder)
    GAMES.load()
    s = studio_of(folder)
    [deck_view] = s.state()["decks"]
    assert deck_view["errors"] == []
    deck = load_deck(load_spec(folder / deck_view["spec"], display=deck_view["spec"]))
    size = CardSize(*deck_view["size"])
    at = card_size_at(size, 40)
    assert len(deck_view["cards"]) == len(deck.art.faces) >= 3
    for cid, face, back in zip(deck_view["cards"], deck.art.faces, deck.art.backs):
        card = s.card(cid)
        assert card_picture(s.side(card.face).drawing, size, at) == card_picture(face, size, at), cid
        assert card_picture(s.side(card.back).drawing, size, at) == card_picture(back, size, at), cid
