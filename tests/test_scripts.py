"""Licences and scripts (issue 32, family 3): a font whose OS/2 fsType forbids embedding refused in
one line naming it; text in Hebrew and Arabic set right to left (the Unicode Bidirectional
Algorithm) and shaped (HarfBuzz: Arabic joined), CJK broken between ideographs (UAX #14), alike in
the PDF, SVG and cairo backends; a letter no font of the deck has named with where it is, in every
product (tuck box, sheets, contact sheet, print list), never a box or a "?".

The fonts are small subsets committed in tests/fonts (see its README)."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image as PILImage

from conftest import DECK, ROOT, need, one_error, pnp_here

FONTS = ROOT / "tests" / "fonts"
HEBAR = FONTS / "dejavu-hebrew-arabic.ttf"
CJK = FONTS / "droid-cjk-subset.ttf"


def font(path: Path):
    from generator.draw.fonts import font_from_bytes
    return font_from_bytes(path.read_bytes())


DECK_SPEC = """kind: deck
title: {title}
card: {{width: 63, height: 88, bleed: 3}}
tuck_box: {box}
fonts:
  hebar: {{regular: dejavu-hebrew-arabic.ttf}}
{cjk}cards:
{cards}
layouts:
  face:
    background: "#f7f1e3"
    elements:
{elements}
  back: {{background: "#223344"}}
"""


def make_deck(folder: Path, title="Scripts", cards='  - {name: "One", text: "שלום עולם"}', cjk=True,
              box="false", elements=None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(HEBAR, folder)
    shutil.copy(CJK, folder)
    elements = elements or ('      - {type: text, x: 5, y: 5, w: 53, h: 12, text: "{name}", font: hebar}\n'
                            '      - {type: text, x: 5, y: 25, w: 53, h: 50, text: "{text}", font: '
                            + ("cjk" if cjk else "hebar") + ', size: 14}')
    spec = folder / "scripts.yaml"
    spec.write_text(DECK_SPEC.format(title=title, box=box, cards=cards, elements=elements,
                                     cjk="  cjk: {regular: droid-cjk-subset.ttf}\n" if cjk else ""),
                    encoding="utf-8")
    return spec


# ---------------------------------------------------------------- licence bits

@pytest.mark.parametrize("fs_type,refused", [
    (0x0000, None), (0x0004, None), (0x0008, None),
    (0x0002, "forbids embedding it"), (0x0003, "forbids embedding it"),
    (0x0006, None), (0x000A, None),          # several bits: the least restrictive holds (OpenType's rule)
    (0x0100, "forbids subsetting"), (0x0108, "forbids subsetting"),
    (0x0200, "allows embedding only its bitmaps"), (0x0204, "allows embedding only its bitmaps")])
def test_a_fonts_licence_bits(tmp_path, fs_type, refused):
    """OS/2 fsType as the OpenType specification reads it: restricted licence (0x0002) refused in one
    line naming the font, preview & print and editable embedded, no subsetting and bitmap-only
    refused (a PDF of ours embeds a subset of outlines). A deck of one card set in the font: the
    font is read, checked and planned as in any deck (the test deck's other parts cost 0.7 s a case)."""
    from fontTools.ttLib import TTFont
    folder = tmp_path / "licence"
    (folder / "fonts").mkdir(parents=True)
    # (the bounding boxes and the time not computed again: the other tables are copied as they are,
    # not every glyph read and written again)
    tt = TTFont(DECK.parent / "fonts" / "title.ttf", recalcBBoxes=False, recalcTimestamp=False)
    tt["OS/2"].fsType = fs_type
    tt.save(folder / "fonts" / "title.ttf")
    (folder / "licence.yaml").write_text(
        "kind: deck\ntitle: Licence\ncard: {width: 63, height: 88, bleed: 3}\ntuck_box: false\n"
        "fonts:\n  title: {regular: fonts/title.ttf}\ncards:\n  - {name: One}\n"
        "layouts:\n  face:\n    elements:\n"
        "      - {type: text, x: 5, y: 5, w: 50, h: 10, text: \"{name}\", font: title, size: 12}\n"
        "  back: {background: \"#333333\"}\n")
    r = pnp_here("validate", folder / "licence.yaml")
    if refused is None:
        assert r.returncode == 0, r.stderr
        return
    name = re.escape('"' + tt["name"].getBestFullName() + '"')
    one_error(r, rf"licence\.yaml:\d+: fonts\.title\.regular: \"fonts/title\.ttf\": the licence of {name} "
                 rf"{refused}.*fsType 0x{fs_type:04X}")


# ---------------------------------------------------------------- shaping, bidi, line breaks

def test_hebrew_is_set_right_to_left():
    f = font(HEBAR)
    cmap = f.tt.getBestCmap()
    word = "שלום"
    names = [g for g, _, _ in f.glyphs(word)]
    assert names == [cmap[ord(c)] for c in reversed(word)]
    xs = [x for _, x, _ in f.glyphs(word)]
    assert xs == sorted(xs)
    # a line of both: the Latin word and the number read left to right, in their places
    from generator.draw.shaping import runs
    # (an RTL paragraph: the spaces between the Hebrew and the Latin take the paragraph's direction)
    assert runs("שלום abc 123 עולם") == [(12, 17, True), (5, 12, False), (0, 5, True)]
    assert runs("abc שלום def") == [(0, 4, False), (4, 8, True), (8, 12, False)]


def test_arabic_is_joined():
    f = font(HEBAR)
    cmap = f.tt.getBestCmap()
    word = "بيت"                     # beh, yeh, teh: initial, medial and final forms when joined
    names = [g for g, _, _ in f.glyphs(word)]
    isolated = [cmap[ord(c)] for c in reversed(word)]
    assert len(names) == 3 and all(a != b for a, b in zip(names, isolated)), (names, isolated)
    assert f.width(word, 10) < sum(f.width(c, 10) for c in word)     # joined letters are narrower
    # after Hebrew in one right-to-left run: still shaped as Arabic (a run is cut at its script)
    mixed = [g for g, _, _ in f.glyphs("שלום " + word)]
    assert mixed[:3] == names


def test_a_long_cjk_sentence_breaks_between_ideographs(tmp_path):
    """Written without spaces: once it could not be set at all ("does not fit")."""
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    sentence = "日本語の漢字文字列一二三四五六七八九十百千万円年月日時分人大小中上下左右山川田口目手足力火水木金土"
    spec = make_deck(tmp_path / "d", cards=f'  - {{name: "One", text: "{sentence}"}}')
    r = pnp_here("validate", spec)
    assert r.returncode == 0, r.stderr
    deck = load_deck(load_spec(spec))
    from conftest import drawn_items
    from generator.draw import Text
    texts = [item for item, _ in drawn_items(deck.art.faces[0].root) if isinstance(item, Text)]
    lines = [t for t in texts if t.y > 25]
    assert len({round(t.y, 3) for t in lines}) >= 3
    assert "".join(t.text for t in sorted(lines, key=lambda t: (t.y, t.x))) == sentence


def _ink(img: PILImage.Image) -> np.ndarray:
    return np.asarray(img.convert("L")) < 128


def test_the_three_backends_set_shaped_text_alike(tmp_path):
    """Hebrew, Arabic and CJK drawn once, rendered by the PDF (pdftoppm), SVG (cairosvg) and cairo
    backends: the same ink, and not the ink of the same letters unshaped, left to right."""
    import cairosvg
    from generator.colour import BLACK, WHITE
    from generator.draw import Drawing, Style
    from generator.draw.drawing import Text
    from generator.draw.pdf import PdfDocument
    from generator.draw.raster import png_bytes
    from generator.draw.svg import svg_string
    hebar, cjk = font(HEBAR), font(CJK)
    d = Drawing(120, 40)
    d.rect(0, 0, 120, 40, Style(fill=WHITE))
    d.add(Text(5, 12, "שלום עולם! مرحبا بالعالم", hebar, 7, BLACK))
    d.add(Text(5, 28, "日本語の漢字、かな。", cjk, 7, BLACK))
    dpi = 100
    cairo_png = PILImage.open(io.BytesIO(png_bytes(d, dpi=dpi)))
    svg_png = PILImage.open(io.BytesIO(cairosvg.svg2png(bytestring=svg_string(d).encode(),
                                                        output_width=cairo_png.width)))
    pdf = tmp_path / "t.pdf"
    doc = PdfDocument(str(pdf), title="t")
    doc.add_page(d)
    doc.save()
    subprocess.run([need("pdftoppm"), "-scale-to-x", str(cairo_png.width), "-scale-to-y", str(cairo_png.height),
                    "-png", str(pdf), str(tmp_path / "p")], check=True)
    pdf_png = PILImage.open(next(tmp_path.glob("p*.png")))
    wrong = Drawing(120, 40)
    wrong.rect(0, 0, 120, 40, Style(fill=WHITE))
    x = 5.0
    for ch in "שלום עולם! مرحبا بالعالم":           # each letter alone, left to right: unshaped
        wrong.add(Text(x, 12, ch, hebar, 7, BLACK))
        x += hebar.width(ch, 7)
    wrong.add(Text(5, 28, "日本語の漢字、かな。", cjk, 7, BLACK))
    wrong_png = PILImage.open(io.BytesIO(png_bytes(wrong, dpi=dpi)))
    a, b, c, w = (_ink(i) for i in (cairo_png, svg_png, pdf_png, wrong_png))

    def near(m):            # the ink grown by a pixel each way: renderers' edges differ by one
        g = m.copy()
        g[1:] |= m[:-1]
        g[:-1] |= m[1:]
        g[:, 1:] |= m[:, :-1]
        g[:, :-1] |= m[:, 1:]
        return g

    def differ(p, q):
        return ((p & ~near(q)).sum() + (q & ~near(p)).sum()) / max(1, (p | q).sum())
    assert differ(a, b) < 0.05 and differ(a, c) < 0.05, (differ(a, b), differ(a, c))
    assert differ(a, w) > 0.2, differ(a, w)


@pytest.mark.slow      # a whole deck built in the three scripts' fonts (0.3 s of CPU); quick: the three backends
# set the same fonts' shaped text (a PDF among them), and Hebrew set right to left
def test_a_deck_in_three_scripts_builds_and_its_right_to_left_text_is_right_aligned(tmp_path):
    cards = ('  - {name: "שלום עולם", text: "שלום (abc) עולם! 123"}\n'
             '  - {name: "مرحبا", text: "مرحبا بالعالم، هذا نص عربي"}\n'
             '  - {name: "日本語", text: "日本語の漢字文字列"}')
    elements = ('      - {type: text, x: 5, y: 5, w: 53, h: 12, text: "{name}", font: hebar, align: right, '
                'when: {name: ["שלום עולם", "مرحبا"]}}\n'
                '      - {type: text, x: 5, y: 5, w: 53, h: 12, text: "{name}", font: cjk, when: {name: "日本語"}}\n'
                '      - {type: text, x: 5, y: 25, w: 53, h: 50, text: "{text}", font: cjk, size: 14, '
                'when: {name: "日本語"}}\n'
                '      - {type: text, x: 5, y: 25, w: 53, h: 50, text: "{text}", font: hebar, size: 14, '
                'align: right, when: {name: ["שלום עולם", "مرحبا"]}}')
    spec = make_deck(tmp_path / "d", title="日本語のデッキ", cards=cards, elements=elements)
    out = tmp_path / "out"
    r = pnp_here("build", spec, "--out", out, cwd=tmp_path / "d")
    assert r.returncode == 0, r.stderr
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    from conftest import drawn_items
    from generator.draw import Text
    deck = load_deck(load_spec(spec))
    for face in deck.art.faces[:2]:
        texts = [(item, m) for item, m in drawn_items(face.root) if isinstance(item, Text) and item.y < 20]
        right = max(t.x + t.font.width(t.text, t.size) for t, _ in texts)
        assert abs(right - 58) < 0.05           # right-aligned: the line ends at the box's right edge


# ---------------------------------------------------------------- a letter no font has

def test_no_box_and_no_question_mark_for_a_letter_the_font_lacks():
    from generator.draw.fonts import MissingLetter, get_font
    with pytest.raises(MissingLetter, match=r'no letter for "日" \(U\+65E5\)'):
        get_font("sans").glyph_name("日")
    with pytest.raises(MissingLetter):
        get_font("sans-bold").width("Deck 日本", 3.0)


@pytest.mark.parametrize("box", ["{}", "false"])
def test_a_title_no_font_has_is_the_title_lines_error(tmp_path, box):
    """Tuck box, sheet captions and contact sheet: the title without a font for its letters (the
    deck has only Hebrew and Arabic) is refused at the title's line, naming the letter."""
    spec = make_deck(tmp_path / "d", title="日本語のデッキ", cjk=False, box=box)
    one_error(pnp_here("validate", spec), r'scripts\.yaml:2: title: .*no letter for "日" \(U\+65E5\)')


def test_a_card_name_no_font_has_is_its_rows_error(tmp_path):
    """A name shown only on the contact sheet, in a CSV: its row and column."""
    spec = make_deck(tmp_path / "d", cjk=False, cards="  []",
                     elements='      - {type: text, x: 5, y: 25, w: 53, h: 50, text: "{text}", font: hebar}')
    spec.write_text(spec.read_text().replace("cards:\n  []\n", "csv: cards.csv\n"))
    (tmp_path / "d" / "cards.csv").write_text("name,text\nOne,שלום\n名前,עולם\n", encoding="utf-8")
    one_error(pnp_here("validate", spec), r'cards\.csv:3: name: card 2 "名前": on the contact sheet, .*'
                                          r'no letter for "名" \(U\+540D\)')


def test_a_japanese_title_in_every_product_with_the_decks_font(tmp_path):
    """With a Japanese font in the deck, the title is set in it on the tuck box, the sheets'
    captions and the print list (its PDF embeds the font), with no letter missing."""
    spec = make_deck(tmp_path / "d", title="日本語のデッキ", box="{}",
                     cards='  - {name: "One", text: "日本語", count: 30}')
    out = tmp_path / "out"
    r = pnp_here("build", spec, "--out", out, cwd=tmp_path / "d")
    assert r.returncode == 0, r.stderr
    assert "日本語のデッキ" in (out / "deck" / "README.txt").read_text(encoding="utf-8")
    for pdf in ("scripts-tuckbox-a4.pdf", "scripts-sheet-a4.pdf", "print-list.pdf"):
        fonts = subprocess.run([need("pdffonts"), str(out / "deck" / pdf)], capture_output=True, text=True,
                               check=True).stdout.splitlines()[2:]
        assert len(fonts) >= 2 and all(" yes " in row for row in fonts), (pdf, fonts)
    text = subprocess.run([need("pdftotext"), str(out / "deck" / "print-list.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "日本語のデッキ" in text and "?" not in text.split("日本語のデッキ")[1][:5]


def test_a_long_arabic_title_shortened_on_the_tuck_box_in_the_decks_font(tmp_path):
    """Found by the scripts fuzz family: a title too long for a box's panel is shortened to fit,
    and was measured in the shipped font alone (refused: no letter for it)."""
    title = "طويل مرحبا عربي عربي brown بالعالم **“quoted”** “quoted”"
    spec = make_deck(tmp_path / "d", title=f'"{title}"', box="{}", cjk=False)
    r = pnp_here("validate", spec)
    assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------- alignment, joins across styles, box text

def _face_texts(spec, face=0):
    """The Text items a deck's face draws, from the left: (text, left x, right x, baseline y)."""
    from conftest import drawn_items
    from generator.draw import Text
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    deck = load_deck(load_spec(spec))
    items = [item for item, _ in drawn_items(deck.art.faces[face].root) if isinstance(item, Text)]
    return [(t.text, t.x, t.x + t.font.width(t.text, t.size), t.y) for t in sorted(items, key=lambda t: (t.y, t.x))]


@pytest.mark.parametrize("align,hebrew_side,latin_side", [
    (None, "right", "left"),         # `start`, the default: where each paragraph's reader starts
    ("start", "right", "left"), ("end", "left", "right"),
    ("left", "left", "left"), ("right", "right", "right")])    # (physical, as CSS's)
def test_a_right_to_left_paragraph_starts_at_the_right(tmp_path, align, hebrew_side, latin_side):
    """A Hebrew paragraph is set from the box's right edge by default (`start`, CSS's meaning), a
    Latin one in the same box from its left; `left` and `right` are the sides they name."""
    extra = f", align: {align}" if align else ""
    elements = ('      - {type: text, x: 5, y: 25, w: 53, h: 50, text: "{text}", font: hebar, size: 10'
                + extra + '}')
    spec = make_deck(tmp_path / "d", cards='  - {name: "One", text: "Hello world\\nשלום עולם"}', elements=elements)
    lines = _face_texts(spec)
    latin = [t for t in lines if t[0].startswith("Hello")]
    hebrew = [t for t in lines if not t[0].startswith("Hello")]
    assert latin and hebrew, lines

    def side(texts):
        left, right = min(t[1] for t in texts), max(t[2] for t in texts)
        return "left" if abs(left - 5) < 0.01 else "right" if abs(right - 58) < 0.01 else (left, right)
    assert (side(hebrew), side(latin)) == (hebrew_side, latin_side), lines


def test_every_line_of_a_right_to_left_paragraph_is_ordered_as_the_paragraph(tmp_path):
    """The second line of a Hebrew paragraph begins (logically) with a Latin word: the line is
    still right to left (its Hebrew word to the Latin one's left), as its paragraph, not as a
    line of its own would be."""
    from generator.draw.fonts import font_from_bytes
    f = font_from_bytes(HEBAR.read_bytes())
    size_mm = 10 * 25.4 / 72
    first = "שלוםעולםשלום"
    w = f.width(first, size_mm) + 0.5               # the long first word alone on the first line
    assert f.width("abc שלום", size_mm) < w < f.width(first + " abc", size_mm)
    elements = (f'      - {{type: text, x: 5, y: 25, w: {w:.2f}, h: 50, text: "{{text}}", font: hebar, size: 10, '
                'min_size: 10}')
    spec = make_deck(tmp_path / "d", cards=f'  - {{name: "One", text: "{first} abc שלום"}}', elements=elements)
    lines = _face_texts(spec)
    second = [t for t in lines if t[3] == max(u[3] for u in lines)]
    assert [t[0] for t in second] == ["שלום", "abc"], lines
    assert abs(second[-1][2] - (5 + w)) < 0.01          # and it starts at the right


def test_a_bold_letter_keeps_an_arabic_word_joined(tmp_path):
    """A style that changes inside an Arabic word (`**ب**يت`): each piece is shaped with the word
    around it (HarfBuzz's context), so the letters keep their joined forms and the word its width;
    once the bold beh was set alone, isolated, and the word broke in two. The family's bold is its
    regular here, so the card prints exactly as the same words unstyled."""
    from generator.draw.raster import png_bytes
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    spec = make_deck(tmp_path / "d", cjk=False,
                     cards='  - {name: "One", text: "**ب**يت و**بي**ت"}\n  - {name: "Two", text: "بيت وبيت"}',
                     elements='      - {type: text, x: 5, y: 25, w: 53, h: 50, text: "{text}", font: hebar, '
                              'size: 14}')
    deck = load_deck(load_spec(spec))
    styled, plain = (np.asarray(PILImage.open(io.BytesIO(png_bytes(face, dpi=300))).convert("L")) < 128
                     for face in deck.art.faces[:2])
    # (a few pixels where two pieces' edges meet: each is filled on its own)
    assert plain.sum() > 500 and (styled != plain).sum() < 0.01 * plain.sum(), (styled != plain).sum()
    from conftest import drawn_items
    from generator.draw import Text
    right = max(t.x + t.font.width(t.text, t.size, t.context) for t, _ in drawn_items(deck.art.faces[0].root)
                if isinstance(t, Text))
    assert right == pytest.approx(58)        # (set from the right, an Arabic paragraph, each piece as wide as set)


def test_the_tuck_box_text_breaks_by_uax14(tmp_path):
    """The tuck box's wrapped text (its heading, the deck's title) breaks where the deck's text
    does (UAX #14, shaping.break_after): between ideographs, never before "、" or "。", and at
    spaces and hyphens; once it cut a CJK title between any two letters."""
    from generator.draw.drawing import wrap_text
    from generator.draw.fonts import font_from_bytes
    f = font_from_bytes(CJK.read_bytes())
    text = "日本語の漢字、かな。一二三四五六七八九十、百千万円年月日時分人大小中上下。" * 2
    starts_wrong = []
    for k in range(20, 120):
        width = k * 0.5
        lines = wrap_text(text, f, 3.0, width)
        assert "".join(lines) == text
        assert all(f.width(line, 3.0) <= width + 1e-9 for line in lines)
        starts_wrong += [(width, line) for line in lines[1:] if line[0] in "、。"]
    assert not starts_wrong, starts_wrong[:3]
    from generator.draw.fonts import get_font
    sans = get_font("sans")
    assert wrap_text("a  tuck-box", sans, 3.0, sans.width("a tuck-", 3.0) + 0.01) == ["a tuck-", "box"]


def test_a_span_in_a_right_to_left_line_keeps_its_colour_and_size(tmp_path):
    """A Hebrew line is set in visual order piece by piece: a span's colour and size go with its
    piece (once a shaped line set every piece in the element's colour and size)."""
    from conftest import drawn_items
    from generator.draw import Text
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    spec = make_deck(tmp_path / "d", cjk=False,
                     cards='  - {name: "One", text: \'שלום <span foreground="#ff0000" size="15pt">עולם</span> abc\'}',
                     elements='      - {type: text, x: 5, y: 25, w: 53, h: 50, text: "{text}", font: hebar, size: 10}')
    deck = load_deck(load_spec(spec))
    texts = {t.text: t for t, _ in drawn_items(deck.art.faces[0].root) if isinstance(t, Text)}
    assert texts["עולם"].fill.hex().lower() == "#ff0000" and texts["שלום"].fill.hex().lower() == "#000000"
    assert texts["עולם"].size == pytest.approx(texts["שלום"].size * 1.5)
    assert texts["abc"].x < texts["עולם"].x < texts["שלום"].x          # right to left, the Latin word last


def test_an_underline_in_a_right_to_left_line_lies_under_its_own_word(tmp_path):
    """<u> in a Hebrew line: the bar under the word it marks as the word is drawn (in visual order,
    from the right), not where the word would lie read left to right (found at the merge of the
    scripts and the markup: the bar ran under "abc")."""
    from conftest import drawn_items
    from generator.draw import Rect, Text
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    spec = make_deck(tmp_path / "d", cjk=False,
                     cards='  - {name: "One", text: \'<u>שלום</u> עולם abc\'}',
                     elements='      - {type: text, x: 5, y: 25, w: 53, h: 50, text: "{text}", font: hebar, size: 10}')
    deck = load_deck(load_spec(spec))
    items = [t for t, _ in drawn_items(deck.art.faces[0].root)]
    texts = {t.text: t for t in items if isinstance(t, Text)}
    word = texts["שלום"]
    width = word.font.width(word.text, word.size)
    bars = [r for r in items if isinstance(r, Rect) and r.h < 1 and abs(r.y - word.y) < 2]
    assert len(bars) == 1
    bar = bars[0]
    assert bar.x == pytest.approx(word.x, abs=0.01) and bar.w == pytest.approx(width, abs=0.05)
    assert bar.x > texts["abc"].x + 1
