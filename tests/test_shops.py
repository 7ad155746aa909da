"""`pnp build --shop NAME`: the files each print shop's profile (generator/shops/*.yaml) says it
takes, read back from the files written and held against every number of the profile: page boxes
and PDF/X keys for DriveThruCards' PDF, pixels, dpi and colour mode for the picture shops' PNGs,
grid, size and count for Tabletop Simulator's sheets and saved object; the nearest-product rule;
the safe-zone check (nothing of the five games' cards in any shop's safe margin); --layout png."""
from __future__ import annotations

import io
import json
import re
import subprocess
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, build_product, need, pnp_here
from test_pdfx import colour_operators, ghostscript_preflight

PT = 72 / 25.4
SHOPS = ("drivethrucards", "thegamecrafter", "makeplayingcards", "tabletop-simulator")


def profile(name):
    from generator.shops import load_profile
    return load_profile(name, ROOT)


# ---------------------------------------------------------------- the profiles

def test_every_profile_reads_and_every_number_names_its_source():
    from generator.shops import shop_names
    assert set(SHOPS) <= set(shop_names(ROOT))
    for name in SHOPS:
        p = profile(name)
        assert p.sources
        for s in p.sources.values():
            assert s.page.startswith("https://") and re.fullmatch(r"\d{4}-\d\d-\d\d", s.read) and len(s.via) > 40
        for part in (p.pdf, p.pictures, p.tts):
            if part is not None:
                assert part["source"] in p.sources.values()
        for product in p.products.values():
            assert product.source in p.sources.values()


def test_the_profiles_say_what_the_shops_publish():
    """The numbers as read into mm from the files (the shops' own, in their units)."""
    dtc = profile("drivethrucards")
    poker = dtc.products["poker"]
    assert (poker.width, poker.height, poker.bleed, poker.safe) == pytest.approx((63.5, 88.9, 3.175, 3.175))
    assert poker.page == pytest.approx((69.85, 95.25))          # 2.75 x 3.75 in
    assert dtc.pdf["standard"] == "PDF/X-1a:2003" and dtc.pdf["total_ink"] == 240
    assert dtc.pdf["pages"] == "back-front" and dtc.pdf["tuck_box_bleed"] == 0
    tgc = profile("thegamecrafter").products["poker"]
    assert tgc.pixels == (825, 1125) and tgc.dpi == 300 and tgc.safe == pytest.approx(3.175)
    mpc = profile("makeplayingcards").products["poker"]
    assert mpc.pixels == (822, 1122) and mpc.bleed == pytest.approx(36 / 300 * 25.4)
    assert profile("makeplayingcards").products["tarot"].pixels == (897, 1497)
    tts = profile("tabletop-simulator").tts
    assert (tts["columns"], tts["rows"], tts["max_pixels"], tts["colour"]) == (10, 7, 4096, "RGB")


def _user_profile(tmp_path, text: str) -> Path:
    (tmp_path / "decks").mkdir(exist_ok=True)
    (tmp_path / "shops").mkdir(exist_ok=True)
    path = tmp_path / "shops" / "myshop.yaml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = (ROOT / "generator" / "shops" / "thegamecrafter.yaml").read_text(encoding="utf-8").replace(
    "shop: thegamecrafter", "shop: myshop")


@pytest.mark.parametrize("change, line, message", [
    (("pixels: [825, 1125]", "pixels: [825, 1126]"), "pixels", "is not the trim and bleed at 300 dpi (825 x 1125 px)"),
    (("trim: [2.5 in, 3.5 in]", "trim: [2.5 in, three]"), "trim[1]", "expected a length"),
    (('read: "2026-11-27"', 'read: "someday"'), "read", "the date the page was read"),
    (("source: squib", "source: nowhere"), "source", "no source named \"nowhere\""),
    (("format: png", "format: gif"), "format", "png or jpeg"),
    (("shop: myshop", "shop: yours"), "shop", "is not its file's (myshop.yaml)"),
])
def test_a_users_own_profile_that_is_wrong_gets_one_line_at_its_field(tmp_path, change, line, message):
    path = _user_profile(tmp_path, GOOD.replace(*change, 1))
    run = pnp_here("build", "sorry", "--shop", "myshop", cwd=tmp_path)
    assert run.returncode == 1 and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert run.stderr.startswith(f"shops/{path.name}:") and message in run.stderr and line in run.stderr
    assert not (tmp_path / "output").exists()


def test_a_users_own_profile_is_listed_and_used(tmp_path):
    _user_profile(tmp_path, GOOD.replace("title: The Game Crafter", "title: My shop"))
    listed = pnp_here("build", "--shop", "list", cwd=tmp_path)
    assert listed.returncode == 0
    names = [line.split(":")[0] for line in listed.stdout.splitlines()]
    assert set(SHOPS) | {"myshop"} <= set(names)
    assert "My shop" in listed.stdout


def test_an_unknown_shop_is_refused_in_one_line():
    run = pnp_here("build", "sorry", "--shop", "drivethrucard")
    assert run.returncode == 2 and "did you mean drivethrucards?" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------- the nearest product

def test_the_nearest_product_rule():
    from generator.shops import SCALE_TOLERANCE, ShopError, fit_scale, nearest_product
    dtc = profile("drivethrucards")
    product, scale = nearest_product(dtc, 63, 88, 3)      # our poker cards: 63 x 88 mm, 3 mm bleed
    assert product.key == "poker" and scale == pytest.approx(95.25 / 94)   # the bleed sets it: 1.3 %
    assert fit_scale(63.5, 88.9, 3.175, product) == pytest.approx(1.0)
    assert 1 + SCALE_TOLERANCE < fit_scale(60, 84, 3, product)
    with pytest.raises(ShopError) as refused:
        nearest_product(dtc, 48, 48, 3)
    assert "near no DriveThruCards product" in str(refused.value) and "Poker card" in str(refused.value)


@pytest.fixture(scope="module")
def dtc_continuo(tmp_path_factory):
    return build_product(tmp_path_factory.mktemp("dtc-continuo"), "continuo", "decks/continuo.yaml", "shop-files",
                         layouts=(), extra={"shop": "drivethrucards"})


def test_a_deck_near_no_product_is_a_line_in_the_print_list(dtc_continuo, tmp_path):
    made = list((dtc_continuo / "shop-drivethrucards").iterdir())
    assert [p.name for p in made] == ["continuo-NOT-MADE.txt"]
    assert "near no DriveThruCards product (the nearest: " in made[0].read_text()
    run = pnp_here("build", "continuo", "--shop", "drivethrucards", "--strict", "--out", tmp_path / "out")
    assert run.returncode == 1 and "near no DriveThruCards product" in run.stderr
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- DriveThruCards

@pytest.fixture(scope="module")
def dtc(tmp_path_factory):
    return build_product(tmp_path_factory.mktemp("dtc"), "sorry", "decks/sorry.yaml", "shop-files", layouts=(),
                         extra={"shop": "drivethrucards"}) / "shop-drivethrucards"


def test_drivethrucards_pdf_is_their_product_page_by_page(dtc):
    from generator.games.sorry.deck import load_deck
    from generator.spec import load_spec
    p = profile("drivethrucards")
    product = p.products["poker"]
    pdf = dtc / "sorry-poker.pdf"
    reader = PdfReader(pdf)
    cards = sum(c["count"] for c in load_spec(ROOT / "decks" / "sorry.yaml").data["cards"])
    assert len(reader.pages) == 2 * cards
    pw, ph = (v * PT for v in product.page)
    b = product.bleed * PT
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, pw, ph], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, pw, ph], abs=0.01)
        assert [float(v) for v in page.trimbox] == pytest.approx([b, b, pw - b, ph - b], abs=0.01)
    info = reader.metadata
    assert info["/GTS_PDFXVersion"] == p.pdf["standard"] == "PDF/X-1a:2003"
    assert "/GTS_PDFXConformance" not in info and info["/Trapped"] == "/False"
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert len(intents) == 1 and intents[0].get_object()["/S"] == "/GTS_PDFX"
    assert reader.pdf_header in ("%PDF-1.3", "%PDF-1.4")
    pages = ghostscript_preflight(pdf)
    assert len(pages) == len(reader.pages) and all(line.endswith("CMYK OK") for line in pages)
    ops = colour_operators(reader)
    assert ops & {b"k", b"K"} and not ops & {b"rg", b"RG", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"}, ops
    assert load_deck  # (the deck's own reader: its counts are the spec's)


def _pixels(pdf: Path, first: int, last: int, dpi: int = 20) -> list:
    from PIL import Image
    out = subprocess.run([need("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", f"-dFirstPage={first}",
                          f"-dLastPage={last}", f"-r{dpi}", "-sDEVICE=png16m", "-o", "-", str(pdf)],
                         capture_output=True, check=True).stdout
    images, at = [], 0
    while at < len(out):
        im = Image.open(io.BytesIO(out[at:]))
        im.load()
        images.append(im.convert("RGB"))
        at = out.index(b"IEND", at) + 8
    return images


def test_drivethrucards_pages_alternate_back_and_front(dtc):
    """Sorry's cards share a back: pages 1 and 3 alike, page 2 another (card 1's face)."""
    from PIL import ImageChops
    one, two, three = _pixels(dtc / "sorry-poker.pdf", 1, 3)
    assert ImageChops.difference(one, three).getbbox() is None
    assert ImageChops.difference(one, two).getbbox() is not None


def _cmyk_ink(pdf: Path, dpi: int = 30) -> float:
    """The most ink at any pixel of any page, per cent (Ghostscript's CMYK rendering, no colour
    management between the file's CMYK and the device's)."""
    import numpy as np
    from PIL import Image
    most = 0.0
    out = pdf.with_suffix(".tif")
    subprocess.run([need("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", f"-r{dpi}", "-dOverrideICC",
                    "-sDEVICE=tiff32nc", "-o", str(out), str(pdf)], check=True, capture_output=True)
    im = Image.open(out)
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        a = np.asarray(im.convert("CMYK"), dtype=np.float64)
        most = max(most, float(a.sum(axis=2).max()) / 255 * 100)
    return most


DARK = """kind: deck
title: Dark
card: {product: drivethrucards/poker}
tuck_box: false
palette: {dark: "#4d0000", paper: "#f7f1e3"}
cards: [{name: One}, {name: Two}]
layouts:
  face:
    background: dark
    elements:
      - {type: text, x: 8, y: 30, w: 47, h: 20, text: "{name}", size: 24, colour: paper}
  back: {background: dark}
"""


def test_drivethrucards_total_ink_is_at_most_240_per_cent(tmp_path):
    """#4d0000 separates as K 70 %, M and Y 100 %: 270 % of ink, cut to the shop's 240 %."""
    from generator.draw.pdf import limit_ink
    (tmp_path / "dark.yaml").write_text(DARK, encoding="utf-8")
    run = pnp_here("build", "dark.yaml", "--shop", "drivethrucards", "--layout", "shop", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert _cmyk_ink(tmp_path / "output" / "deck" / "shop-drivethrucards" / "dark-poker.pdf") <= 240 + 1.5
    # Our separation without the shop's limit (--cmyk's plain shop file) puts down the 270 %.
    plain = pnp_here("build", "dark.yaml", "--cmyk", "--layout", "shop", "--out", "plain", cwd=tmp_path)
    assert plain.returncode == 0 and _cmyk_ink(tmp_path / "plain" / "deck" / "dark-shop.pdf") > 265
    c, m, y, k = limit_ink((0.0, 1.0, 1.0, 0.7), 2.4)
    assert c + m + y + k == pytest.approx(2.4) and k == 0.7 and m == y


def test_safe_zone_text_is_a_warning_or_with_strict_an_error(tmp_path):
    (tmp_path / "edge.yaml").write_text(DARK.replace("x: 8, y: 30", "x: 1, y: 30"), encoding="utf-8")
    run = pnp_here("build", "edge.yaml", "--shop", "drivethrucards", "--layout", "shop", cwd=tmp_path)
    assert run.returncode == 0
    warning = [line for line in run.stderr.splitlines() if line.startswith("pnp: warning: Dark:")]
    assert warning and "safe zone (3.17 mm inside the trim)" in warning[0] and "One: text 'One'" in warning[0]
    readme = (tmp_path / "output" / "deck" / "README.txt").read_text()
    assert "WARNING: Dark: 2 text(s)" in readme
    strict = pnp_here("build", "edge.yaml", "--shop", "drivethrucards", "--strict", "--out", "strict", cwd=tmp_path)
    assert strict.returncode == 1 and "edge.yaml:" in strict.stderr and "safe zone" in strict.stderr
    assert not (tmp_path / "strict").exists()


def test_nothing_of_the_five_games_cards_lies_in_any_shops_safe_zone():
    """Every distinct face and back of every deck of the five games, 1/8 in from its trim (the
    widest safe zone of the profiles; MakePlayingCards' 36 px is 3.05 mm)."""
    from games_planned import contents     # (every game planned once a test process)
    from generator.games import GAMES
    from generator.products.contents import Deck
    from generator.shops.safezone import check_deck
    margin = max(p.safe for name in SHOPS for p in profile(name).products.values())
    assert margin == pytest.approx(3.175)
    arts = [c.art for game in GAMES if game != "deck" for c in contents(game, "a4") if isinstance(c, Deck)]
    assert len(arts) >= 6
    found = [f"{art.stem}: {f.line()}" for art in arts for f in check_deck(art, margin)]
    assert found == []


def test_the_safe_zone_check_finds_what_is_there():
    """The check itself: a text 2 mm from the trim is found, its distance measured from its ink."""
    from generator.colour import BLACK
    from generator.draw import Drawing
    from generator.shops.safezone import check_side
    d = Drawing(63, 88)
    d.text(2.0, 40, "Edge", 3.0, BLACK, font="sans")
    d.text(20, 40, "Middle", 3.0, BLACK, font="sans")
    found = check_side(d, "card 1", 63, 88, 3.175)
    assert [f.element for f in found] == ["text 'Edge'"] and 1.9 < found[0].distance < 2.3


# ---------------------------------------------------------------- the picture shops

@pytest.fixture(scope="module")
def pictures(tmp_path_factory):
    """Sorry's deck (11 faces, 44 cards) for a picture shop: what a picture shop's files are does
    not depend on how many faces a deck has (Mille Bornes' 19 took twice as long). pictures(shop):
    the folder of that shop's files, built when a test first asks for them (0.4 s a shop)."""
    out = tmp_path_factory.mktemp("pictures")

    def built(shop: str) -> Path:
        folder = out / shop / "sorry" / f"shop-{shop}"
        if not folder.exists():
            build_product(out / shop, "sorry", "decks/sorry.yaml", "shop-files", layouts=(), extra={"shop": shop})
        return folder
    return built


@pytest.mark.parametrize("shop", ["thegamecrafter", "makeplayingcards"])
def test_picture_shop_files_are_the_products_pixels_dpi_and_colour(pictures, shop):
    from PIL import Image
    from generator.spec import load_spec
    p = profile(shop)
    product = p.products["poker"]
    folder = pictures(shop)
    names = sorted(f.name for f in folder.iterdir() if f.suffix == ".png")
    spec = load_spec(ROOT / "decks" / "sorry.yaml").data
    faces = len([c for c in spec["cards"] if c.get("count", 1)])
    assert len([n for n in names if n.endswith("-front.png")]) == faces
    assert [n for n in names if "back" in n] == ["sorry-all-back.png"]
    for name in names:
        im = Image.open(folder / name)
        assert im.format == "PNG" and im.mode == p.pictures["colour"] == "RGB"
        assert im.size == product.pixels
        assert [round(v) for v in im.info["dpi"]] == [product.dpi] * 2
    with zipfile.ZipFile(folder / f"sorry-{shop}.zip") as z:
        assert sorted(z.namelist()) == sorted(names + ["upload-list.txt"])
        assert z.read("sorry-001-front.png") == (folder / "sorry-001-front.png").read_bytes()
        listing = z.read("upload-list.txt").decode()
    slots = [line for line in listing.splitlines() if line.startswith("slot ")]
    assert len(slots) == faces and all("with sorry-all-back.png" in s for s in slots)
    copies = sum(c.get("count", 1) for c in spec["cards"])
    assert sum(int(re.search(r", (\d+) cop", s).group(1)) for s in slots) == copies == 44


def test_a_picture_is_the_card_at_its_place(pictures):
    """The card's middle on the picture's middle: its art runs to every edge (no white bleed)."""
    import numpy as np
    from PIL import Image
    im = np.asarray(Image.open(pictures("thegamecrafter") / "sorry-all-back.png"))
    for edge in (im[0], im[-1], im[:, 0], im[:, -1]):
        assert (edge.min(axis=1) < 250).all()


def test_a_deck_whose_backs_differ_gets_each_back_by_its_first_card(tmp_path):
    """tests/decks/delve.yaml has two backs: each is named by the first card that has it, and each
    slot pairs its front with its own back. (The shop's files alone, planned in this process as a
    build's job plans them: the same files, and the command line is tested above.)"""
    shop = build_product(tmp_path, "deck", "tests/decks/delve.yaml", "shop-files", layouts=(),
                         extra={"shop": "thegamecrafter"}) / "shop-thegamecrafter"
    backs = sorted(p.name for p in shop.iterdir() if p.name.endswith("-back.png"))
    assert backs == ["delve-001-back.png", "delve-004-back.png"]
    with zipfile.ZipFile(shop / "delve-thegamecrafter.zip") as z:
        listing = z.read("upload-list.txt").decode()
    assert "slot 4: delve-004-front.png with delve-004-back.png" in listing
    assert "slot 2: delve-002-front.png with delve-001-back.png" in listing


def test_layout_png_is_every_card_at_the_dpi_asked(tmp_path):
    from PIL import Image
    folder = build_product(tmp_path, "sorry", "decks/sorry.yaml", "png", layouts=("png",),
                           extra={"dpi": 150}) / "png-150"
    names = sorted(f.name for f in folder.iterdir())
    assert "sorry-back.png" in names and len(names) == 11 + 1
    im = Image.open(folder / "sorry-001-front.png")
    assert im.size == (round(69 / 25.4 * 150), round(94 / 25.4 * 150)) and im.mode == "RGB"
    assert [round(v) for v in im.info["dpi"]] == [150, 150]


# ---------------------------------------------------------------- Tabletop Simulator

@pytest.fixture(scope="module")
def tts(tmp_path_factory):
    return build_product(tmp_path_factory.mktemp("tts"), "mille-bornes", "decks/mille_bornes.yaml", "shop-files",
                         layouts=(), extra={"shop": "tabletop-simulator"}) / "shop-tabletop-simulator"


def test_tabletop_simulator_sheets_and_saved_object(tts):
    import numpy as np
    from PIL import Image
    spec = profile("tabletop-simulator").tts
    saved = json.loads((tts / "mille_bornes.json").read_text())
    deck = saved["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom" and len(deck["DeckIDs"]) == 106 == len(deck["ContainedObjects"])
    back = Image.open(tts / "mille_bornes-back.jpg")
    assert back.mode == "RGB"
    for key, custom in deck["CustomDeck"].items():
        cols, rows = custom["NumWidth"], custom["NumHeight"]
        assert 1 <= cols <= spec["columns"] and 1 <= rows <= spec["rows"]
        sheet_path = Path(custom["FaceURL"].removeprefix("file://"))
        assert sheet_path.is_file() and sheet_path.parent == tts.resolve()
        assert Path(custom["BackURL"].removeprefix("file://")).is_file()
        sheet = Image.open(sheet_path)
        assert sheet.format == "JPEG" and sheet.mode == "RGB"
        assert max(sheet.size) <= spec["max_pixels"]
        w, h = sheet.size[0] // cols, sheet.size[1] // rows
        assert (w * cols, h * rows) == sheet.size and abs(h / w - 88 / 63) < 0.01
        ids = [i for i in deck["DeckIDs"] if i // 100 == int(key)]
        assert ids and max(i % 100 for i in ids) < cols * rows - 1        # never the hidden slot
        # The hidden card's slot (the grid's last) holds the back.
        hidden = np.asarray(sheet.crop((w * (cols - 1), h * (rows - 1), w * cols, h * rows)).resize(back.size))
        assert np.abs(hidden.astype(int) - np.asarray(back).astype(int)).mean() < 12
    counts = {}
    for card_id in deck["DeckIDs"]:
        counts[card_id] = counts.get(card_id, 0) + 1
    assert counts[100] == 10           # 25 miles: ten copies of the first face


@pytest.mark.parametrize("shop", SHOPS)
def test_the_starter_deck_builds_for_every_shop(tmp_path, shop):
    assert pnp_here("new", "deck", "mine", cwd=tmp_path).returncode == 0
    run = pnp_here("build", "--shop", shop, "--strict", "--layout", "shop", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    made = list((tmp_path / "output" / "deck" / f"shop-{shop}").iterdir())
    assert made and not [p for p in made if p.name.endswith("NOT-MADE.txt")]
    # The upload list, in the print list: each file to upload, where it goes.
    readme = (tmp_path / "output" / "deck" / "README.txt").read_text()
    uploads = [line for line in readme.splitlines() if line.strip().startswith("upload: ")]
    assert uploads and f"shop-{shop}/" in readme
    if shop == "drivethrucards":
        assert "upload: DriveThruCards: a new Poker card product of 22 cards; upload mine-poker.pdf as its" in readme
    if shop in ("thegamecrafter", "makeplayingcards"):
        assert re.search(r"slot 1: mine-001-front\.png with mine-all-back\.png, \d cop", readme)


def test_drivethrucards_tuck_box_has_no_page_bleed(dtc):
    """The box's page is its template: no bleed added round the page (the profile's 0 mm), the
    TrimBox the page, PDF/X-1a:2003 as the cards."""
    p = profile("drivethrucards")
    assert p.pdf["tuck_box_bleed"] == 0
    pdf = dtc / "sorry-tuckbox.pdf"
    reader = PdfReader(pdf)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    media = [float(v) for v in page.mediabox]
    assert [float(v) for v in page.trimbox] == pytest.approx(media)
    assert [float(v) for v in page.bleedbox] == pytest.approx(media)
    assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert all(line.endswith("CMYK OK") for line in ghostscript_preflight(pdf))


@pytest.mark.slow      # (300 profiles read, 0.4 s; the quick subset keeps the six wrong profiles above)
def test_a_profile_fuzzed_gets_a_profile_or_its_one_line_error(tmp_path):
    """A user's profile is input like a spec: any mutation of a good one is read or refused at a
    line, never a traceback; the bounds hold (pixels, lengths, names)."""
    import random
    from generator.errors import SpecError
    from generator.shops import read_profile
    rng = random.Random(36)
    tokens = ["-1", "0", "1e9", "99999 in", "'x'", "[]", "{}", "null", "../x", "{deck}/{side}", "\u00e9", "*a", "&a",
              "2.5 mm", "36 px", "[1, 2, 3]", "true", ":", "- x", "\t"]
    lines = GOOD.splitlines()
    outcomes = {"read": 0, "refused": 0}
    for case in range(300):
        mutated = list(lines)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(mutated))
            kind = rng.random()
            if kind < 0.3:
                del mutated[i]
            elif kind < 0.6 and ":" in mutated[i]:
                key = mutated[i].split(":", 1)[0]
                mutated[i] = f"{key}: {rng.choice(tokens)}"
            else:
                mutated.insert(i, mutated[rng.randrange(len(mutated))])
        path = tmp_path / "myshop.yaml"
        path.write_text("\n".join(mutated) + "\n", encoding="utf-8")
        try:
            read_profile(path, "shops/myshop.yaml")
            outcomes["read"] += 1
        except SpecError as exc:
            assert str(exc).startswith("shops/myshop.yaml") and "\n" not in str(exc)
            outcomes["refused"] += 1
    assert outcomes["refused"] > 100 and outcomes["read"] > 3, outcomes


ONE_CARD = """kind: deck
title: {key}
card: {{product: {shop}/{key}}}
tuck_box: false
palette: {{ink: "#1f3a5f", paper: "#f7f1e3"}}
cards: [{{name: A}}]
layouts:
  face:
    background: paper
    elements:
      - {{type: rect, x: 0, y: 0, w: 100, h: 8, fill: ink}}
      - {{type: text, x: 5, y: 10, w: 20, h: 8, text: "{{name}}", size: 12}}
  back: {{background: ink}}
"""


@pytest.mark.parametrize("shop", ["drivethrucards", "thegamecrafter", "makeplayingcards"])
def test_every_product_of_every_shop_as_its_files_say(tmp_path, shop):
    """A deck drawn at each product's size (card: {product: ...}) gets that product's files: every
    product's numbers, read back from what is written."""
    from PIL import Image
    p = profile(shop)
    for key in p.products:
        (tmp_path / f"{key}.yaml").write_text(ONE_CARD.format(shop=shop, key=key), encoding="utf-8")
    # (the shop layout beside the shop's files, as the tests above: a PNG of each card, --layout png, is
    # another product, tested in test_layout_png_is_every_card_at_the_dpi_asked)
    run = pnp_here("build", "--shop", shop, "--strict", "--layout", "shop", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    folder = tmp_path / "output" / "deck" / f"shop-{shop}"
    for key, product in p.products.items():
        if p.files == "pdf":
            page = PdfReader(folder / f"{key}-{key}.pdf").pages[0]
            pw, ph = (v * PT for v in product.page)
            b = product.bleed * PT
            assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, pw, ph], abs=0.01)
            assert [float(v) for v in page.trimbox] == pytest.approx([b, b, pw - b, ph - b], abs=0.01)
        else:
            for name in (f"{key}-001-front.png", f"{key}-all-back.png"):
                im = Image.open(folder / name)
                assert im.size == product.pixels and im.mode == "RGB"
                assert [round(v) for v in im.info["dpi"]] == [product.dpi] * 2


def test_a_profile_of_ones_own_replacing_ours_builds_again(tmp_path):
    """A build is up to date only for the profile it used: one of the folder's own, added later
    under a shop's name, is read in place of ours and the shop's files are made again. (A deck of
    one card, without a box: what is up to date does not depend on the deck's size.)"""
    (tmp_path / "mine.yaml").write_text(ONE_CARD.format(shop="thegamecrafter", key="poker"), encoding="utf-8")
    args = ("build", "--shop", "thegamecrafter", "--layout", "shop")
    assert pnp_here(*args, cwd=tmp_path).returncode == 0
    assert "up to date" in pnp_here(*args, cwd=tmp_path).stderr
    (tmp_path / "shops").mkdir()
    (tmp_path / "shops" / "thegamecrafter.yaml").write_text(
        (ROOT / "generator" / "shops" / "thegamecrafter.yaml").read_text().replace("title: The Game Crafter",
                                                                                 "title: Our own crafter"))
    again = pnp_here(*args, cwd=tmp_path)
    assert again.returncode == 0 and "up to date" not in again.stderr
    assert "Our own crafter" in (tmp_path / "output" / "deck" / "README.txt").read_text()


def test_validate_with_a_shop_checks_its_name_first():
    for shop, message in (("nope", 'no shop named "nope"'), ("list", "pnp build --shop list")):
        run = pnp_here("validate", "decks/sorry.yaml", "--shop", shop)
        assert run.returncode == 2 and message in run.stderr and len(run.stderr.strip().splitlines()) == 1
