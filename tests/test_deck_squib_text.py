"""What a Squib or nanDECK user's text needs in a deck of their own (issue 38, items 2 and 5):
Pango's markup beside **bold**, justify, inline icons with a size and an offset, hyphenation in the
deck's language, a warning where text runs past the trim, and the pictures that show a deck
(showcase, hand). Each measured in what comes out: the Text and Image primitives every backend
draws, the PDF's fonts, the SVG's paint, the PNG's pixels, the pictures' sizes and cards."""
from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image as PILImage

from conftest import DECK, build_deck, build_product, pnp_here
from test_deck_kind import flat

PT = 25.4 / 72
ICON = DECK.parent / "icons" / "sword.svg"

BASE = """\
kind: deck
title: Markup
card: {{width: 63, height: 88, bleed: 3, corner_radius: 3}}
tuck_box: false
{extra}
icons:
  sword: icons/sword.svg
  big: {{file: icons/sword.svg, width: 4, height: 3, dx: 0.5, dy: -0.25}}
cards:
{cards}
layout: face
back: back
layouts:
  face:
    background: "{{colour}}"
    elements:
      - {{type: text, id: t, x: {x}, y: 5, w: {w}, h: 60, size: 10, align: {align}, text: "{{text}}"}}
  back: {{background: "#333333"}}
"""


def write_deck(folder: Path, texts: list[str], align: str = "left", w: float = 40, x: float = 5, extra: str = "",
               colours: list[str] | None = None) -> Path:
    """A deck of one text box a card (`{text}` from each card), its icons beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "icons").mkdir(exist_ok=True)
    shutil.copy(ICON, folder / "icons" / "sword.svg")
    colours = colours or ["#ffffff"] * len(texts)
    cards = "\n".join(f"  - {{text: {_yaml(t)}, colour: \"{c}\"}}" for t, c in zip(texts, colours))
    spec = folder / "m.yaml"
    spec.write_text(BASE.format(cards=cards, align=align, w=w, x=x, extra=extra), encoding="utf-8")
    return spec


def _yaml(text: str) -> str:
    import json
    return json.dumps(text)       # (JSON's string is YAML's double-quoted one)


def load(spec: Path):
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    return load_deck(load_spec(spec, display=spec.name))


def texts(drawing):
    from generator.draw import Text
    return sorted((t for t, _ in flat(drawing) if isinstance(t, Text)), key=lambda t: (round(t.y, 6), t.x))


def of_type(drawing, kind):
    return [i for i, _ in flat(drawing) if isinstance(i, kind)]


# ---------------------------------------------------------------- markup

def test_pango_tags_set_bold_italic_colour_size_and_font(tmp_path):
    spec = write_deck(tmp_path / "d", ['Take <b>2</b> and <i>gain</i> <span foreground="#ff0000" size="15pt">red</span> '
                                       '<span weight="bold" style="italic">both</span> **stars** &amp; &lt;3 a & b'])
    face = load(spec).art.faces[0]
    by_text = {t.text: t for t in texts(face)}
    assert by_text["2"].font.name == "sans-bold"
    assert by_text["gain"].font.name == "sans-italic"
    red = by_text["red"]
    assert red.fill.hex() == "#ff0000" and red.size == pytest.approx(10 * PT * 1.5)      # 15 pt of a 10 pt element
    assert by_text["both"].font.name == "sans-bold-italic"
    assert by_text["stars"].font.name == "sans-bold"
    # entities are their characters; a lone & and a < before no letter stay as written
    assert " ".join(t.text for t in texts(face)).endswith("stars & <3 a & b")
    assert by_text["Take"].fill.hex() == "#000000" and by_text["Take"].font.name == "sans"


def test_underline_and_strikethrough_are_bars_at_the_fonts_own_place(tmp_path):
    from generator.draw import Rect
    spec = write_deck(tmp_path / "d", ["<u>under line</u> and <s>struck</s>"])
    face = load(spec).art.faces[0]
    t = {t.text: t for t in texts(face)}
    under = struck = t["under line and struck"]
    font = under.font
    bars = sorted(of_type(face, Rect), key=lambda r: r.x)[-2:]      # after the background
    post = font.tt["post"]
    u = next(b for b in bars if abs(b.x - under.x) < 1e-6)
    # the bar runs under both words and the space between, its middle at the font's underline position
    assert u.w == pytest.approx(font.width("under line", under.size))
    assert u.y + u.h / 2 == pytest.approx(under.y - post.underlinePosition / font.upm * under.size)
    s = bars[1]
    assert s.w == pytest.approx(font.width("struck", struck.size))
    assert s.x == pytest.approx(struck.x + font.width("under line and ", struck.size))
    assert s.y + s.h / 2 == pytest.approx(struck.y - font.tt["OS/2"].yStrikeoutPosition / font.upm * struck.size)
    assert s.y + s.h < struck.y                                       # through the letters, above the baseline


def test_a_bold_span_in_the_pdf_svg_and_png(tmp_path):
    """The same face in the three backends: the bold span in the PDF's bold font, the red span
    red in the SVG and red in the PNG's pixels where it is set."""
    from pypdf import PdfReader
    from generator.draw.raster import png_bytes
    from generator.draw.svg import svg_string
    spec = write_deck(tmp_path / "d", ['plain <b>BOLD</b> <span foreground="#ff0000">RED</span>'])
    out = build_product(tmp_path / "out", "deck", spec, "sheet")     # (the sheet alone: all that is read)
    fonts = {}

    def visit(text, cm, tm, font, size):
        if text.strip() and font:
            fonts[text.strip()] = str(font.get("/BaseFont"))
    PdfReader(out / "m-sheet-a4.pdf").pages[0].extract_text(visitor_text=visit)
    assert fonts["BOLD"].endswith("Sans-Bold") and fonts["plain"].endswith("Sans-Roman")
    face = load(spec).art.faces[0]
    assert 'fill="#ff0000"' in svg_string(face)
    red = next(t for t in texts(face) if t.text == "RED")
    image = PILImage.open(io.BytesIO(png_bytes(face, dpi=300))).convert("RGB")
    px = 300 / 25.4
    b = 0.0                                                            # (a face is drawn from its trim)
    box = (round((red.x + b) * px), round((red.y + b - red.font.cap_height * red.size) * px),
           round((red.x + b + red.font.width("RED", red.size)) * px), round((red.y + b) * px))
    crop = image.crop(box)
    reds = [p for p in (crop.getpixel((x, y)) for x in range(crop.width) for y in range(crop.height)) if p[0] > 200 and p[1] < 80 and p[2] < 80]
    assert len(reds) > 50


@pytest.mark.parametrize("text, pattern", [
    ("<blink>x</blink>", r"unknown tag <blink> at character 1; the tags are <b>, <i>, <u>, <s>, <big>, <small>, <span>"),
    ("<b>never closed", r"<b> opened at character 1 is never closed"),
    ("<b><i>x</b></i>", r"</b> at character 8 closes <i> opened at character 4"),
    ("x</b>", r"</b> at character 2 closes no tag"),
    ('<span foreground="#ggg">x</span>', r'foreground="#ggg"'),
    ('<span colour_of="red">x</span>', r'a span has no attribute "colour_of" \(it takes foreground'),
    ('<span size="huge">x</span>', r'size="huge" is no size'),
    ('<span size="400pt">x</span>', r"a span is from 0.25 to 4 times it"),
    ('<span size="5pt">x</span>', r"prints at 5.0 pt, under 6 pt"),
    ('<span font_family="Comic">x</span>', r'no font named "Comic"; the fonts are sans'),
    ("a &bogus; b", r"unknown entity &bogus; at character 3"),
    ("a <b c", r"<b\.\.\. at character 3 is never closed with >"),
])
def test_malformed_markup_is_the_cards_error_in_one_line(tmp_path, text, pattern):
    import re
    spec = write_deck(tmp_path / "d", ["fine", text])
    r = pnp_here("validate", spec)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "m.yaml:" in lines[0] and "card 2" in lines[0] and "element t of layout face" in lines[0], lines[0]
    assert re.search(pattern, lines[0]), lines[0]


MARKUP_CASES = 2000      # the seeded strings, cut in two: the quick subset sets the first 200


@pytest.mark.parametrize("first,last", [(0, 200), pytest.param(200, MARKUP_CASES, marks=pytest.mark.slow)],
                         ids=["first 200", "the rest"])
def test_markup_fuzz_parses_and_sets_or_says_why(first, last):
    """Random strings of markup's characters, set in boxes of random widths: words set within the
    box (hyphenated or not), None where they do not fit, or a TextError; never another exception,
    and never a line wider than its box. (The whole suite sets all 2,000; the quick subset the first
    200, of the same seeded sequence.)"""
    import random
    from generator.games.deck.model import SHIPPED, hyphenator
    from generator.games.deck.text import InlineIcon, Markup, Measure, TextError, fit, parse
    rng = random.Random(38)
    alphabet = ["<", ">", "/", "b", "i", "u", "span", " size='12pt'", ' foreground="#f00"', "&", "amp;", "#x41;",
                "*", ":", "sword", "\\", " ", "\n", "é", "x", "=", '"', "hyphenation", "Donaudampfschiff", "-"]
    measure = Measure(SHIPPED["sans"], False, False, {"sword": InlineIcon(1.0, 3.0)}, 10, SHIPPED,
                      hyphenator("en_US"))
    set_ = 0
    for k in range(last):               # every case drawn, in order: the same strings and widths whichever part
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 25)))
        try:
            words = parse(text, {"sword": None}, Markup(10, ("sans",), {}))
        except TextError:
            continue
        width = rng.uniform(3, 40)
        justify = rng.random() < 0.5
        if k < first:
            continue
        setting = fit(words, measure, 10, 6, width, 40, 1.2, justify=justify)
        if setting is None:
            continue
        set_ += 1
        for placed, line_width in setting.lines:
            assert line_width <= width + 1e-6 and all(p.x + p.width <= width + 1e-6 for p in placed), text
    assert set_ > 300 * (last - first) / MARKUP_CASES


# ---------------------------------------------------------------- justify

def test_a_justified_line_is_as_wide_as_its_box_and_the_last_line_is_left(tmp_path):
    words = "Take one card from the discard pile and give it to another player of your choice"
    spec = write_deck(tmp_path / "d", [words, words + "\nA new paragraph ends here too"], align="justify")
    deck = load(spec)
    for face in deck.art.faces:
        lines: dict[float, list] = {}
        for t in texts(face):
            lines.setdefault(round(t.y, 6), []).append(t)
        ys = sorted(lines)
        assert len(ys) >= 3
        ends = {y: max(t.x + t.font.width(t.text, t.size) for t in lines[y]) for y in ys}
        starts = {y: min(t.x for t in lines[y]) for y in ys}
        last_lines = {ys[-1]}
        if len(deck.art.faces) and face is deck.art.faces[1]:
            last_lines.add(max(y for y in ys if any("choice" in t.text for t in lines[y])))
        for y in ys:
            assert starts[y] == pytest.approx(5.0)
            if y in last_lines:
                assert ends[y] < 5.0 + 40 - 1.0             # as left as ever
            else:
                assert ends[y] == pytest.approx(5.0 + 40, abs=1e-6)


# ---------------------------------------------------------------- inline icons

def test_an_icon_with_a_size_and_an_offset(tmp_path):
    from generator.draw import Image
    from generator.games.deck.text import ICON_SCALE
    spec = write_deck(tmp_path / "d", ["a :sword: b :big: c"])
    deck = load(spec)
    face = deck.art.faces[0]
    assert deck.art.sizes[0]["t"] == 10                     # set at its size: the mm hold as given
    default, big = sorted(of_type(face, Image), key=lambda i: i.x)
    a = next(t for t in texts(face) if t.text.startswith("a"))
    cap, s = a.font.cap_height, a.size
    assert default.h == pytest.approx(ICON_SCALE * cap * s) and default.w == pytest.approx(default.h)
    assert (big.w, big.h) == (pytest.approx(4.0), pytest.approx(3.0))       # its width and height, mm
    # its middle on the capitals' middle, moved 0.5 mm right and 0.25 mm up; the text after it
    # follows its advance (its width), not its offset
    assert big.y + big.h / 2 == pytest.approx(a.y - cap * s / 2 - 0.25)
    b = next(t for t in texts(face) if t.text.startswith("b"))
    space = a.font.width(" ", s)
    assert big.x == pytest.approx(b.x + b.font.width("b", s) + space + 0.5)
    c = next(t for t in texts(face) if t.text.startswith("c"))
    assert c.x == pytest.approx(big.x - 0.5 + 4.0 + space)


def test_an_icons_options_are_checked_at_their_line(tmp_path):
    spec = write_deck(tmp_path / "d", ["x"])
    spec.write_text(spec.read_text().replace("dx: 0.5", "dx: 0.5, depth: 2"))
    r = pnp_here("validate", spec)
    assert r.returncode == 1 and "icons.big" in r.stderr and "depth" in r.stderr, r.stderr


# ---------------------------------------------------------------- hyphenation

def test_a_word_wider_than_its_box_is_hyphenated_in_the_decks_language(tmp_path):
    """In Italian (its dictionary is read in 2 ms; German's, 1 MB of patterns, in 0.9 s)."""
    import pyphen
    word = "precipitevolissimevolmente"
    spec = write_deck(tmp_path / "d", [f"Una {word} corre"], w=20, extra="language: it")
    deck = load(spec)
    assert deck.art.sizes[0]["t"] == 10                      # hyphenated, not shrunk
    face = deck.art.faces[0]
    lines = [t.text for t in texts(face)]
    assert lines[0].startswith("Una ") and lines[-1].endswith(" corre") or lines[-1] == "corre", lines
    cut = [line.removeprefix("Una ").removesuffix(" corre").removesuffix("corre") for line in lines]
    assert all(part.endswith("-") for part in cut[:-2]) and len(cut) >= 3, lines
    assert "".join(part[:-1] if part.endswith("-") else part for part in cut) == word, lines
    # every cut is one of Italian's hyphenation points, one at least not English's (pre-cip-itevolis-
    # simevol-mente), and each line fits the box
    points = pyphen.Pyphen(lang="it").positions(word)
    cuts, at = [], 0
    for part in cut:
        if part.endswith("-"):
            at += len(part) - 1
            cuts.append(at)
    assert cuts and all(at in points for at in cuts), (cuts, points)
    assert set(cuts) - set(pyphen.Pyphen(lang="en_US").positions(word)), cuts
    for t in texts(face):
        assert t.x + t.font.width(t.text, t.size) <= 5 + 20 + 1e-6


def test_hyphenation_shows_in_the_pdf(tmp_path):
    from pypdf import PdfReader
    spec = write_deck(tmp_path / "d", ["Incomprehensibilities"], w=18)
    out = build_product(tmp_path / "out", "deck", spec, "sheet")     # (the sheet alone: all that is read)
    text = PdfReader(out / "m-sheet-a4.pdf").pages[0].extract_text()
    lines = [line for line in text.splitlines() if line.strip()]
    first = next(line for line in lines if line.startswith("In"))
    assert first.endswith("-")


def test_an_unknown_language_is_refused_with_the_known(tmp_path):
    spec = write_deck(tmp_path / "d", ["x"], extra="language: xx")
    r = pnp_here("validate", spec)
    assert r.returncode == 1 and "m.yaml:5: language: no hyphenation dictionary for \"xx\"" in r.stderr, r.stderr
    assert " de, " in r.stderr


# ---------------------------------------------------------------- text past the trim

def test_text_past_the_trim_is_a_warning_naming_card_and_element(tmp_path):
    spec = write_deck(tmp_path / "d", ["Short", "Robot Golem is a very long name"], x=40, w=40)
    r = pnp_here("validate", spec)
    assert r.returncode == 0, r.stderr
    warned = [line for line in r.stderr.splitlines() if "warning" in line]
    assert len(warned) == 1, r.stderr
    assert "m.yaml:" in warned[0] and 'card 2' in warned[0] and "element t of layout face" in warned[0]
    assert "past the trim" in warned[0]


# ---------------------------------------------------------------- showcase and hand

COLOURS = ["#d62728", "#2ca02c", "#1f77b4", "#9467bd", "#ff7f0e"]


def _near(pixel, hex_colour: str, tolerance: int = 40) -> bool:
    want = tuple(int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, want))


def test_the_showcase_shows_every_card_in_perspective(tmp_path):
    from generator.products import showcase
    from generator.products.show_pictures import DPI, card_rgba
    spec = write_deck(tmp_path / "d", ["x"] * 5, colours=COLOURS)
    deck = load(spec)
    faces = deck.art.faces
    image, quads = showcase.showcase_picture(faces, deck.size, 3.0)
    card = card_rgba(faces[0], deck.size, 3.0, DPI)
    w = card.width
    h = card.height * (1 + showcase.REFLECT_SHARE) + round(showcase.REFLECT_GAP / 25.4 * DPI)
    margin = round(showcase.MARGIN / 25.4 * DPI)
    # Squib's size: the cards narrowed and OFFSET apart, the reflections below, a margin round
    assert image.size == (round(2 * margin + w * showcase.SCALE * (showcase.OFFSET * 4 + 1)), round(h + 2 * margin))
    for quad, colour in zip(quads, COLOURS):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
        assert x1 - x0 == pytest.approx(w * showcase.SCALE)
        assert (y3 - y0) == pytest.approx(showcase.SCALE * (y2 - y1))     # the left edge shorter
        middle = ((x0 + x1) / 2, margin + card.height / 2)
        assert _near(image.getpixel(middle), colour), (middle, image.getpixel(middle), colour)
        # and its reflection below it, faint: the colour mixed far toward white
        below = image.getpixel(((x0 + x1) / 2, y2 - 0.5 * (h - card.height) + 1))
        assert below != (255, 255, 255) and sum(below) > 600


@pytest.mark.slow      # five cards drawn at 150 dpi and turned (0.25 s of CPU); quick: the showcase's pictures
# of the same cards, and large cards' hand and showcase within their pixels
def test_the_hand_fans_every_card(tmp_path):
    from generator.products import hand
    spec = write_deck(tmp_path / "d", ["x"] * 5, colours=COLOURS)
    deck = load(spec)
    image, placed = hand.hand_picture(deck.art.faces, deck.size, 3.0)
    assert hand.angles(5) == [-40.0, -20.0, 0.0, 20.0, 40.0]
    xs = [x for corners in placed for x, _ in corners]
    ys = [y for corners in placed for _, y in corners]
    margin = hand.MARGIN / 25.4 * 150
    assert image.size == (pytest.approx(max(xs) + margin, abs=1), pytest.approx(max(ys) + margin, abs=1))
    assert min(xs) == pytest.approx(margin) and min(ys) == pytest.approx(margin)
    # each card's top-left corner is on show (the next card lies to its right): its colour there
    for corners, colour in zip(placed, COLOURS):
        (tlx, tly), (trx, try_), _, (blx, bly) = corners
        inside = (tlx + 0.15 * (trx - tlx) + 0.15 * (blx - tlx), tly + 0.15 * (try_ - tly) + 0.15 * (bly - tly))
        assert _near(image.getpixel(inside), colour), (inside, image.getpixel(inside), colour)


def test_showcase_and_hand_are_built_when_asked(tmp_path):
    spec = write_deck(tmp_path / "d", ["x"] * 3, colours=COLOURS[:3])
    out = build_deck(tmp_path / "out", spec, layouts=("showcase", "hand"))
    for name in ("m-showcase.png", "m-hand.png"):
        with PILImage.open(out / name) as image:
            assert image.mode == "RGB" and round(image.info["dpi"][0]) == 150
    plain = build_deck(tmp_path / "plain", spec)
    assert not (plain / "m-showcase.png").exists() and not (plain / "m-hand.png").exists()


def test_large_cards_are_shown_at_a_lower_dpi_within_the_pixels(tmp_path, monkeypatch):
    """Cards too large for MAX_PIXELS at 150 dpi (here half a million, for a quick test; 16 million as
    built): the showcase and the hand at a lower dpi, within it, never gigapixels."""
    from generator.products import hand, show_pictures, showcase
    monkeypatch.setattr(show_pictures, "MAX_PIXELS", 500_000)
    spec = write_deck(tmp_path / "d", ["x"] * 3, colours=COLOURS[:3])
    spec.write_text(spec.read_text().replace("{width: 63, height: 88,", "{width: 150, height: 210,"))
    deck = load(spec)
    for picture, dpi_of in ((showcase.showcase_picture, showcase.showcase_dpi), (hand.hand_picture, hand.hand_dpi)):
        dpi = dpi_of(deck.size, 3)
        assert dpi < show_pictures.DPI
        image, _ = picture(deck.art.faces, deck.size, 3.0, dpi)
        assert 0.9 * 500_000 < image.width * image.height <= 500_000 * 1.01
