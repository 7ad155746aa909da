"""A deck of your own (`kind: deck`): tests/decks/delve.yaml and its CSV use every feature, and
these tests measure what comes out: cards and pages counted, boxes in mm and pt, text set at the
largest size that fits and refused below 6 pt at the CSV's row, inline icons placed on the line,
pictures fitted three ways and carried into the bleed, fonts embedded, per-card backs; and every
kind of bad input refused in one line naming its file, line and field."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from conftest import DECK, ROOT, build_deck, build_product, need, pnp_here
from pdf_text import page_text_sizes

PT = 25.4 / 72


@lru_cache(maxsize=None)
def deck():
    """The test deck, loaded, checked and drawn (what a build draws)."""
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    return load_deck(load_spec(DECK, display="tests/decks/delve.yaml"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_deck(tmp_path_factory.mktemp("delve"))


@pytest.fixture
def copy(tmp_path):
    """The test deck's folder, copied to change."""
    folder = tmp_path / "delve"
    shutil.copytree(DECK.parent, folder)
    return folder


def card(name: str) -> int:
    return next(i for i, c in enumerate(deck().cards) if c.fields.get("name") == name)


def flat(drawing):
    """Every primitive of a drawing with the transform it is drawn under."""
    from generator.draw import Group, compose
    out, todo = [], [(drawing.root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))]
    while todo:
        group, m = todo.pop()
        for item in group.items:
            if isinstance(item, Group):
                todo.append((item, compose(m, item.transform)))
            else:
                out.append((item, m))
    return out


def texts(drawing):
    from generator.draw import Text
    return [t for t, _ in flat(drawing) if isinstance(t, Text)]


def images(drawing):
    from generator.draw import Image
    return [i for i, _ in flat(drawing) if isinstance(i, Image)]


def validate(folder: Path, spec: str = "delve.yaml"):
    return pnp_here("validate", folder / spec)


# ---------------------------------------------------------------- the deck as built

def test_the_deck_validates_and_counts_its_cards():
    r = pnp_here("validate", DECK)
    assert r.returncode == 0, r.stderr
    d = deck()
    # one card from the spec, six rows of the CSV; the counts column makes 18 cards
    assert [c.fields["name"] for c in d.cards] == ["Map", "Brave Knight", "Wandering Bard", "Cave Troll", "Goblin",
                                                   "Gold Coin", "Formula"]
    assert [c.count for c in d.cards] == [1, 2, 1, 3, 4, 6, 1]
    assert sum(c.count for c in d.cards) == 18
    # faces by a field ({type}), backs by another (back_{side})
    assert d.art.face_layouts == ["item", "hero", "hero", "monster", "monster", "item", "item"]
    assert d.art.back_layouts == ["back_light"] * 3 + ["back_dark"] * 2 + ["back_light"] * 2


def test_products_pages_and_boxes(built):
    names = sorted(p.name for p in built.iterdir())
    assert names == ["delve-contact.png", "delve-sheet-a4.pdf", "delve-shop.pdf", "delve-tuckbox-a4.pdf",
                     "delve-tuckbox-assembly-a4.pdf",
                     "delve-tuckbox-card-stock-0.3-mm-sheet1.dxf", "delve-tuckbox-card-stock-0.3-mm-sheet1.png",
                     "delve-tuckbox-card-stock-0.3-mm-sheet1.svg"]
    sheet = PdfReader(built / "delve-sheet-a4.pdf")
    assert len(sheet.pages) == 6                     # 18 cards, 8 a sheet: 3 sheets, faces and backs
    shop = PdfReader(built / "delve-shop.pdf")
    assert len(shop.pages) == 36                     # one card a page: 18 faces, then 18 backs
    for page in shop.pages:
        assert [round(float(v) / 72 * 25.4, 2) for v in page.mediabox] == [0, 0, 69, 94]
        assert [round(float(v) / 72 * 25.4, 2) for v in page.trimbox] == [3, 3, 66, 91]
        assert [round(float(v) / 72 * 25.4, 2) for v in page.bleedbox] == [0, 0, 69, 94]


def test_no_text_under_6_pt_and_the_fitted_sizes_are_printed(built):
    sizes = [size for _, size, _ in page_text_sizes(built / "delve-shop.pdf")]
    assert min(sizes) >= 6.0 - 1e-6
    troll = deck().art.sizes[card("Cave Troll")]["rules"]
    printed = {round(size, 1) for page, size, text in page_text_sizes(built / "delve-shop.pdf")
               if page in (5, 6, 7) and "Trolls" in text}
    assert printed == {round(troll, 1)}


def test_text_shrinks_to_the_largest_size_that_fits():
    from generator.games.deck import text as T
    d = deck()
    sizes = d.art.sizes
    # short rules keep the element's 11 pt; the troll's paragraph is set smaller, not under 6 pt
    assert sizes[card("Brave Knight")]["rules"] == 11
    troll = sizes[card("Cave Troll")]["rules"]
    assert 6 <= troll < 11
    # the largest: 0.1 pt more does not fit the 53 x 26 mm box
    family = d.families["sans"]
    measure = T.Measure(family, False, False, {n: p.aspect for n, p in d.icons.items()})
    words = T.parse(d.cards[card("Cave Troll")].fields["rules"], d.icons)
    assert T.fit(words, measure, troll + 0.1, troll + 0.1, 53, 26, 1.2) is None
    # and what is drawn lies in the box: every line within its width, caps to descenders within its height
    face = d.art.faces[card("Cave Troll")]
    lines = [t for t in texts(face) if abs(t.size - troll * PT) < 1e-9]
    assert lines
    for t in lines:
        assert t.x >= 5 - 1e-6 and t.x + t.font.width(t.text, t.size) <= 58 + 1e-6
    cap, desc = lines[0].font.cap_height, -lines[0].font.descent
    assert min(t.y for t in lines) - cap * lines[0].size >= 52 - 1e-6
    assert max(t.y for t in lines) + desc * lines[0].size <= 78 + 1e-6
    # a title wider than its 44 mm box at 14 pt, set on one line at the largest size it fits
    from generator.draw.fonts import get_font
    title = get_font(d.families["title"].regular)
    bard = sizes[card("Wandering Bard")]["title"]
    assert 8 <= bard < 14 and sizes[card("Map")]["title"] == 14
    assert title.width("Wandering Bard", bard * PT) <= 44 < title.width("Wandering Bard", (bard + 0.1) * PT)


def test_bold_and_italic_runs():
    face = deck().art.faces[card("Brave Knight")]
    guard = next(t for t in texts(face) if "Guard:" in t.text)
    assert guard.font.name == "sans-bold" and guard.text == "Guard:"
    bard = deck().art.faces[card("Wandering Bard")]
    sings = next(t for t in texts(bard) if "Sings" in t.text)
    assert sings.font.name == "sans-italic" and sings.text == "Sings badly."
    # an italic element's *emphasis* turns upright (the item layout sets its rules in italic)
    coin = deck().art.faces[card("Gold Coin")]
    assert {t.font.name for t in texts(coin) if "Worth" in t.text} == {"sans-italic"}


def test_an_inline_icon_sits_on_its_line():
    from generator.games.deck.text import ICON_SCALE
    d = deck()
    face = d.art.faces[card("Brave Knight")]
    sword = [i for i in images(face) if i.picture is d.icons["sword"]]
    assert len(sword) == 1
    icon = sword[0]
    before = next(t for t in texts(face) if t.text.endswith("less"))
    after = next(t for t in texts(face) if t.text.startswith("damage"))
    s = before.size
    assert abs(s - 11 * PT) < 1e-9
    cap = before.font.cap_height
    space = before.font.width(" ", s)
    # as tall as 1.3 cap heights, square (its SVG is), its middle on the middle of the capitals
    assert icon.h == pytest.approx(ICON_SCALE * cap * s)
    assert icon.w == pytest.approx(icon.h)
    assert icon.y + icon.h / 2 == pytest.approx(before.y - cap * s / 2)
    # one space after "less", one space before "damage."
    assert icon.x == pytest.approx(before.x + before.font.width(before.text, s) + space)
    assert after.x == pytest.approx(icon.x + icon.w + space)
    assert after.y == pytest.approx(before.y)


def test_pictures_fit_three_ways_and_reach_into_the_bleed():
    d = deck()
    art = d.pictures["art/landscape.png"]
    assert (art.width, art.height) == (300, 200)
    # cover (a hero): as large as fills 63 x 36, its middle shown; left and right edges on the trim
    # are carried 3 mm into the bleed
    hero = [i for i in images(d.art.faces[card("Brave Knight")]) if i.picture is art][0]
    assert hero.frame == pytest.approx((0, 14 - 3, 63, 42))
    assert (hero.x, hero.y, hero.w, hero.h) == pytest.approx((-3, 14, 69, 36))
    # contain (a monster): as large as fits 47 x 27, in its middle, not reaching the trim
    troll = [i for i in images(d.art.faces[card("Cave Troll")]) if i.picture is art][0]
    assert troll.frame == pytest.approx((8 + (47 - 27 * 1.5) / 2, 16, 27 * 1.5, 27))
    assert (troll.x, troll.y, troll.w, troll.h) == pytest.approx(troll.frame)
    # stretch (the light back): the whole card, and the bleed all round
    back = [i for i in images(d.art.backs[card("Map")]) if i.picture is art][0]
    assert back.frame == (0, 0, 63, 88) and (back.x, back.y, back.w, back.h) == (-3, -3, 69, 94)
    # a filled rectangle on the trim (the title band) runs into the bleed too; one inside it does not
    from generator.draw import Rect
    rects = [r for r, _ in flat(d.art.faces[card("Brave Knight")]) if isinstance(r, Rect)]
    assert any((r.x, r.y, r.w) == (-3, -3, 69) and r.y + r.h == 14 for r in rects)
    assert any((r.x, r.y, r.w, r.h) == (2.5, 2.5, 58, 83) for r in rects)   # the stroked frame


def _page_png(pdf: Path, page: int, dpi: int, out: Path) -> PILImage.Image:
    stem = out / f"p{page}"
    subprocess.run([need("pdftoppm"), "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", "-singlefile",
                    str(pdf), str(stem)], check=True)
    return PILImage.open(stem.with_suffix(".png")).convert("RGB")


def test_the_bleed_shows_the_art_mirrored_not_white(built, tmp_path):
    """The Brave Knight's shop page: left of the trim, the art goes on as its mirror image."""
    dpi = 150
    page = _page_png(built / "delve-shop.pdf", 2, dpi, tmp_path)
    px = dpi / 25.4

    def at(x_mm, y_mm):
        return page.getpixel((int(x_mm * px), int(y_mm * px)))
    for y in (3 + 20, 3 + 30, 3 + 40, 3 + 48):     # rows through the art (14 to 50 mm on the card)
        for d_mm in (0.8, 1.6, 2.4):
            outside, inside = at(3 - d_mm, y), at(3 + d_mm, y)
            assert max(abs(a - b) for a, b in zip(outside, inside)) <= 24, (y, d_mm, outside, inside)
            assert outside != (255, 255, 255)
    # under the art, the card's paper colour runs into the bleed (the background fills it)
    assert max(abs(a - b) for a, b in zip(at(1.0, 3 + 70), (0xf6, 0xf0, 0xe0))) <= 6


def test_fonts_are_embedded_the_spec_font_among_them(built):
    out = subprocess.run([need("pdffonts"), str(built / "delve-shop.pdf")], capture_output=True, text=True,
                         check=True).stdout.splitlines()[2:]
    fonts = {line.split()[0].split("+")[-1]: line for line in out}
    assert "BitstreamVeraSans-BoldOblique" in fonts        # fonts/title.ttf: the titles and the backs' word
    for name, line in fonts.items():
        assert " yes " in line and "TrueType" in line, line   # embedded (and subset), no base-14 font
    assert len(fonts) == 4        # the title font, and the shipped sans in its regular, bold and italic


def test_csv_cells_are_text_never_evaluated(built):
    text = subprocess.run([need("pdftotext"), str(built / "delve-shop.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "=SUM(A1:A3)" in text


def test_when_shows_an_element_only_for_cards_with_the_field():
    from generator.draw import Ellipse
    d = deck()
    # the cost disc is drawn where a card has a cost, not for the troll and the goblin
    discs = {c.fields["name"]: any(isinstance(i, Ellipse) for i, _ in flat(d.art.faces[k]))
             for k, c in enumerate(d.cards)}
    assert discs == {"Map": True, "Brave Knight": True, "Wandering Bard": True, "Cave Troll": False,
                     "Goblin": False, "Gold Coin": True, "Formula": True}
    # the art only where a card names one (the goblin has none)
    art = d.pictures["art/landscape.png"]
    assert not [i for i in images(d.art.faces[card("Goblin")]) if i.picture is art]


def test_extends_overrides_and_adds():
    from generator.draw import Rect
    d = deck()
    hero, base = d.layouts["hero"], d.layouts["base"]
    assert [e.name for e in hero.elements] == [e.name for e in base.elements] + ["art", "badge", "power"]
    band = next(e for e in hero.elements if e.name == "band")
    assert band.values["fill"] == "hero" and band.values["type"] == "rect"       # kept from base, fill changed
    assert next(e for e in d.layouts["item"].elements if e.name == "rules").values["size"] == 12
    # drawn in the layout's colour
    fills = {r.style.fill.hex() for r, _ in flat(d.art.faces[card("Brave Knight")]) if isinstance(r, Rect)
             and r.style.fill is not None}
    assert "#2f5d8a" in fills and "#1f1a14" not in fills


def test_cards_alike_share_one_drawing_and_backs_are_per_card():
    d = deck()
    assert d.art.backs[card("Map")] is d.art.backs[card("Formula")]
    assert d.art.backs[card("Goblin")] is d.art.backs[card("Cave Troll")]
    assert d.art.backs[card("Goblin")] is not d.art.backs[card("Map")]


def test_per_card_backs_go_behind_their_faces(built, tmp_path):
    """Shop pages 19-36 are the backs, in the faces' order: the dark back behind the troll's and the
    goblin's seven cards, the landscape behind the rest."""
    dark = []
    for page in range(19, 37):
        img = _page_png(built / "delve-shop.pdf", page, 20, tmp_path)
        dark.append(img.getpixel((6, 6)) == (0x1d, 0x24, 0x33))
    counts = [1, 2, 1, 3, 4, 6, 1]
    want = [k in (3, 4) for k, n in enumerate(counts) for _ in range(n)]
    assert dark == want


def test_the_build_is_byte_reproducible(built, tmp_path):
    """The module's build and another, in another folder: the same bytes."""
    again = build_deck(tmp_path / "again")
    assert sorted(p.name for p in built.iterdir()) == sorted(p.name for p in again.iterdir())
    for p in built.iterdir():
        assert p.read_bytes() == (again / p.name).read_bytes(), p.name


def test_parts_make_the_whole(built, tmp_path):
    whole = {p.name for p in built.iterdir()}
    printed = {p.name for p in build_deck(tmp_path / "print", part="print").iterdir()}
    contact = {p.name for p in build_deck(tmp_path / "contact", part="contact").iterdir()}
    assert contact == {"delve-contact.png"} and printed | contact == whole and not printed & contact


def test_cmyk_and_interleave(tmp_path):
    out = build_product(tmp_path, "deck", DECK, "shop", cmyk=True, interleave=True)     # (all that is read)
    listing = subprocess.run([need("pdfimages"), "-list", str(out / "delve-shop.pdf")], capture_output=True,
                             text=True, check=True).stdout
    colours = {line.split()[5] for line in listing.splitlines()[2:] if line.split()[2] == "image"}
    assert colours == {"cmyk"}
    # face, back, face, back...: page 2 is the map's back (the landscape), page 4 the knight's
    reader = PdfReader(out / "delve-shop.pdf")
    assert len(reader.pages) == 36
    assert "Map" in reader.pages[0].extract_text() and "Map" not in reader.pages[1].extract_text()


def test_pictures_are_embedded_once_as_they_are(built):
    listing = subprocess.run([need("pdfimages"), "-list", str(built / "delve-shop.pdf")], capture_output=True,
                             text=True, check=True).stdout.splitlines()[2:]
    # the landscape (an RGB PNG: its rows as they are, shown by many faces) once as an image object
    objects = {(line.split()[3], line.split()[4], line.split()[10]) for line in listing if line.split()[2] == "image"}
    assert sum(1 for w, h, _ in objects if (w, h) == ("300", "200")) == 1


def test_a_jpeg_is_passed_through(copy, tmp_path):
    img = PILImage.open(copy / "art" / "landscape.png").convert("RGB")
    img.save(copy / "art" / "photo.jpg", quality=90)
    (copy / "delve.csv").write_text((copy / "delve.csv").read_text().replace("art/landscape.png", "art/photo.jpg"))
    out = build_product(tmp_path / "out", "deck", copy / "delve.yaml", "shop")     # (all that is read)
    listing = subprocess.run([need("pdfimages"), "-list", str(out / "delve-shop.pdf")], capture_output=True,
                             text=True, check=True).stdout
    assert any(line.split()[2] == "image" and line.split()[8] == "jpeg" for line in listing.splitlines()[2:])


def test_an_opentype_font_with_postscript_outlines(copy, tmp_path):
    """An OTF whose glyphs are CFF (cubic) outlines is converted to TrueType ones and embedded."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    names = [".notdef", "space"] + [chr(c) for c in range(ord("A"), ord("Z") + 1)] + \
        [chr(c) for c in range(ord("a"), ord("z") + 1)]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(n): n for n in names if len(n) == 1} | {32: "space"})
    charstrings = {}
    for n in names:
        pen = T2CharStringPen(600, None)
        if n not in (".notdef", "space"):
            pen.moveTo((50, 0)); pen.lineTo((550, 0)); pen.curveTo((560, 300), (560, 400), (550, 700))
            pen.lineTo((50, 700)); pen.closePath()
        charstrings[n] = pen.getCharString()
    fb.setupCFF("PnpBlocks", {"FullName": "Pnp Blocks"}, charstrings, {})
    fb.setupHorizontalMetrics({n: (600, 50) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Pnp Blocks", "styleName": "Regular", "psName": "PnpBlocks-Regular"})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200, sCapHeight=700, fsType=0)
    fb.setupPost()
    fb.save(str(copy / "fonts" / "blocks.otf"))
    spec = copy / "delve.yaml"
    spec.write_text(spec.read_text().replace("title: {regular: fonts/title.ttf}", "title: {regular: fonts/blocks.otf}"))
    out = build_product(tmp_path / "out", "deck", spec, "shop")     # (all that is read)
    fonts = subprocess.run([need("pdffonts"), str(out / "delve-shop.pdf")], capture_output=True, text=True,
                           check=True).stdout
    line = next(line for line in fonts.splitlines() if "PnpBlocks" in line)
    assert "TrueType" in line and " yes " in line


# ---------------------------------------------------------------- what bad input gets

def one_error(r, pattern: str) -> str:
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert any(re.search(pattern, line) for line in lines), r.stderr
    return r.stderr


def test_text_that_does_not_fit_at_6_pt_is_the_cards_error_at_its_row(copy):
    csv = copy / "delve.csv"
    csv.write_text(csv.read_text().replace("Worth 1.", "Worth 1. " + "A very long rule. " * 60))
    err = one_error(validate(copy), r"delve\.csv:6: rules: card 6 \"Gold Coin\", element rules of layout item "
                                    r"\(.*delve\.yaml:\d+\): the text does not fit its 53 x 26 mm box even at 6 pt")
    line = int(re.search(r"delve\.yaml:(\d+)\)", err).group(1))
    assert "rules" in (copy / "delve.yaml").read_text().splitlines()[line - 1]   # the item layout's rules
    assert len(err.strip().splitlines()) == 1


def test_a_minimum_under_6_pt_is_refused_at_its_line(copy):
    spec = copy / "delve.yaml"
    text = spec.read_text().replace("size: 14, min_size: 8", "size: 14, min_size: 5")
    spec.write_text(text)
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "min_size: 5" in s)
    one_error(validate(copy), rf"delve\.yaml:{line}: layouts\.base\.elements\[1\]\.min_size: expected a size in pt, "
                              r"from 6")


def test_many_errors_are_all_reported(copy):
    spec = copy / "delve.yaml"
    spec.write_text(spec.read_text().replace('text: "{name}"', 'text: "{nmae}"').replace("extends: base\n    elements:\n"
                                                                                          "      - {id: band, fill: item}",
                                                                                          "extends: bsae\n    elements:\n"
                                                                                          "      - {id: band, fill: item}"))
    r = validate(copy)
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2
    assert re.search(r"elements\[1\]\.text: no card has a field \"nmae\" \(did you mean \{name\}\?\)", r.stderr)
    assert re.search(r"layouts\.item\.extends: no layout named \"bsae\" \(did you mean 'base'\?\)", r.stderr)
    assert [int(re.search(r":(\d+):", x).group(1)) for x in lines] == sorted(
        int(re.search(r":(\d+):", x).group(1)) for x in lines)      # in file order


@pytest.mark.parametrize("row, cell, pattern", [
    ("Goblin,monster,4,", "Goblin,monster,four,", r"delve\.csv:5: count: expected a whole number from 0 to 1000"),
    ("Goblin,monster,4,", "Goblin,monster,4000,", r"delve\.csv:5: count: expected a whole number from 0 to 1000"),
    ("Sneaky.,,dark", "Sneaky.,,dark,extra", r"delve\.csv:5: 9 cells, but the header names 8 columns"),
    ("Sneaky.", "Sneaky :swrod:.", r"delve\.csv:5: rules: card 5 \"Goblin\".*unknown icon :swrod: \(did you mean :sword:\?\)"),
    ("Sneaky.", "Sneaky **always.", r"delve\.csv:5: rules: card 5 \"Goblin\".*\*\* opened at character 8 is never closed"),
    ("Sneaky.", "Sneaky \U0001F600.", r"delve\.csv:5: rules: .*has no letter for"),
    (",,dark\nGold", ",art/missing.png,dark\nGold", r"delve\.csv:5: art: .*\"art/missing.png\": no such file"),
    (",,dark\nGold", ",../delve.yaml,dark\nGold", r"delve\.csv:5: art: .*expected a path inside"),
    (",,dark\nGold", ",/etc/passwd,dark\nGold", r"delve\.csv:5: art: .*expected a relative path"),
    (",,dark\nGold", ",delve.csv,dark\nGold", r"delve\.csv:5: art: .*not a PNG, JPEG or SVG file"),
    ("dark\nGold", "midnight\nGold", r"delve\.csv:5: side: card 5 \"Goblin\".*its back layout \"back_midnight\" is none"),
    ("monster,4,,2,Sneaky.", "spell,4,,2,Sneaky.", r"delve\.csv:5: type: card 5 \"Goblin\".*face layout \"spell\""),
])
def test_bad_csv_cells(copy, row, cell, pattern):
    csv = copy / "delve.csv"
    text = csv.read_text()
    assert row in text
    csv.write_text(text.replace(row, cell, 1))
    one_error(validate(copy), pattern)


def test_csv_files_bounded_and_utf8(copy):
    csv = copy / "delve.csv"
    original = csv.read_bytes()
    csv.write_bytes(original.replace(b"Brave", "Br\u00e2ve".encode("latin-1")))
    one_error(validate(copy), r"delve\.csv:2: not UTF-8 text .*save the CSV as UTF-8")
    csv.write_bytes(b"\xef\xbb\xbf" + original)          # Excel's byte-order mark is fine
    assert validate(copy).returncode == 0
    csv.write_text(original.decode() + "".join(f"Extra {i},item,1,,,x,,light\n" for i in range(2000)))
    one_error(validate(copy), r"delve\.csv:2002: more than 2,000 rows of cards")
    csv.write_text(original.decode().replace("Goblin,monster,4,", "Goblin,monster,1000,")
                   .replace("Gold Coin,item,6", "Gold Coin,item,1000"))
    one_error(validate(copy), r"delve\.yaml:\d+: csv: 2,0\d\d cards in all \(the counts added up\); a deck has at most 2,000")
    csv.write_text("")
    one_error(validate(copy), r"delve\.csv:1: an empty CSV")
    csv.write_text("name,name\nx,y\n")
    one_error(validate(copy), r"delve\.csv:1: column 2: \"name\" is also column 1")
    csv.write_text('name,type\n"unclosed,hero\n')
    assert validate(copy).returncode == 1
    csv.write_bytes(b"x" * (9 * 1024 * 1024))
    one_error(validate(copy), r"delve\.yaml:\d+: csv: \"delve.csv\": too large")


def _png(w: int, h: int) -> bytes:
    out = io.BytesIO()
    PILImage.new("RGB", (w, h), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def _bomb() -> bytes:
    """A PNG whose header says 100,000 x 100,000 pixels (its data a few bytes)."""
    import struct
    import zlib
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("name, data, pattern", [
    ("bomb", _bomb(), r"100,000 x 100,000 pixels is more than a card needs"),
    ("truncated", _png(300, 200)[:-30], r"a truncated PNG file"),
    ("damaged", _png(30, 20)[:40] + b"\x00" + _png(30, 20)[41:], r"a damaged PNG file"),
    ("gif", b"GIF89a" + b"\x00" * 50, r"not a PNG, JPEG or SVG file \(a GIF image\)"),
    ("svg-link", b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 9 9">'
                 b'<image xlink:href="http://example.com/x.png" width="9" height="9"/></svg>',
     r"an SVG with a <image> element"),
    ("svg-use", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><use href="other.svg#a"/></svg>',
     r"an SVG that names another file \(href=\"other.svg#a\"\)"),
    ("svg-css", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect width="9" height="9" '
                b'style="fill:url(http://example.com/p)"/></svg>', r"an SVG that names another file \(url\("),
    ("svg-script", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><script>alert(1)</script></svg>',
     r"an SVG with a <script> element"),
    ("svg-onload", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9" onload="alert(1)"/>',
     r"an SVG with a script in an attribute \(onload=\)"),
    ("svg-entity", b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg" '
                   b'viewBox="0 0 9 9"><text>&a;</text></svg>', r"an SVG that declares entities"),
    ("svg-uses", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><g id="a0"><rect width="1" height="1"/>'
                 b'</g>' + b"".join(f'<g id="a{i + 1}"><use href="#a{i}"/><use href="#a{i}"/></g>'.encode()
                                    for i in range(30)) + b"</svg>", r"more than 100,000 elements once its <use>"),
    ("svg-loop", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><g id="a"><use href="#a"/></g></svg>',
     r"name each other in a loop"),
])
def test_bad_pictures_are_refused_in_one_line(copy, name, data, pattern):
    (copy / "icons" / "coin.png").write_bytes(data)
    err = one_error(validate(copy), r"delve\.yaml:\d+: icons\.coin: \"icons/coin.png\": .*" + pattern)
    assert len(err.strip().splitlines()) == 1


def test_a_picture_outside_the_folder_is_never_read(copy, tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(_png(10, 10))
    (copy / "icons" / "link.png").symlink_to(secret)
    spec = copy / "delve.yaml"
    spec.write_text(spec.read_text().replace("coin: icons/coin.png", "coin: icons/link.png"))
    one_error(validate(copy), r"icons\.coin: expected a path inside delve/ \(this one leads out of it\)")


def test_a_font_that_is_not_a_font(copy):
    (copy / "fonts" / "title.ttf").write_bytes(b"\x00\x01\x00\x00" + b"\x00" * 200)
    one_error(validate(copy), r"delve\.yaml:\d+: fonts\.title\.regular: \"fonts/title.ttf\": a font without its")
    (copy / "fonts" / "title.ttf").write_text("not a font at all")
    one_error(validate(copy), r"fonts\.title\.regular: \"fonts/title.ttf\": not a TTF or OTF file")


def test_layout_errors_name_their_lines(copy):
    spec = copy / "delve.yaml"
    text = spec.read_text()
    cases = [
        ("{id: frame, type: rect,", "{id: frame, type: rect, font: sans,", r"elements\[5\]\.font: a rect has no font"),
        ("{id: band, type: rect, x: 0, y: 0, w: 63, h: 14, fill: ink}", "{id: band, type: rect, x: 0, y: 0, w: 63, fill: ink}",
         r"elements\[0\]\.type\.h: missing required key"),
        ("fill: gold, stroke: paper", "fill: golden, stroke: paper", r"elements\[2\]\.fill: expected a colour .*got \"golden\""),
        ("font: title, size: 14", "font: titel, size: 14", r"elements\[1\]\.font: no font named \"titel\" \(did you mean 'title'\?\)"),
        ("when: cost}", "when: price}", r"elements\[2\]\.when: no card has a field \"price\""),
        ("extends: base\n    elements:\n      - {id: band, fill: hero}", "extends: hero\n    elements:\n      - {id: band, fill: hero}",
         r"layouts\.hero\.extends: layouts that extend each other in a loop"),
        ('layout: "{type}"', 'layout: "{typo}"', r"layout: no card has a field \"typo\" \(did you mean \{type\}\?\)"),
    ]
    for old, new, pattern in cases:
        assert old in text, old
        spec.write_text(text.replace(old, new, 1))
        one_error(validate(copy), r"delve\.yaml:\d+: (layouts\.\w+\.)?" + pattern)
    spec.write_text(text)
    assert validate(copy).returncode == 0


def test_the_starter_deck_builds_where_it_is_copied(tmp_path):
    """generator/games/deck/starter, what `pnp new deck` writes: valid where it is copied, and built
    into every product a deck gets, its 22 cards on 3 sheets."""
    folder = tmp_path / "mine"
    shutil.copytree(ROOT / "generator" / "games" / "deck" / "starter", folder)
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == \
        ["cards.csv", "deck.yaml", "icons/star.svg"]
    r = validate(folder, "deck.yaml")
    assert r.returncode == 0, r.stderr
    out = build_deck(tmp_path / "out", folder / "deck.yaml")
    assert {p.name for p in out.iterdir()} >= {"deck-sheet-a4.pdf", "deck-shop.pdf", "deck-contact.png",
                                              "deck-tuckbox-a4.pdf"}
    assert len(PdfReader(out / "deck-sheet-a4.pdf").pages) == 6 and len(PdfReader(out / "deck-shop.pdf").pages) == 44


def test_a_jpeg_turned_by_its_exif_orientation_is_placed_that_way_up():
    """A phone's photo held sideways (EXIF orientation 6): 40 x 20 pixels stored, 20 x 40 shown, and
    its pixels turned for every backend (not passed through as they are)."""
    from generator.draw.images import picture_from_bytes, pixels
    img = PILImage.new("RGB", (40, 20), (200, 0, 0))
    exif = img.getexif()
    exif[0x0112] = 6
    out = io.BytesIO()
    img.save(out, "JPEG", exif=exif.tobytes())
    picture = picture_from_bytes(out.getvalue())
    assert (picture.width, picture.height, picture.jpeg_upright) == (20, 40, False)
    assert pixels(picture, (10, 20)).size == (20, 40)
