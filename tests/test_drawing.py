"""The drawing layer: transforms, text measurement, and the two backends agreeing."""
import re
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from generator.colour import parse_colour
from generator.draw import Drawing, Style, apply, compose, rotate, translate
from generator.draw.fonts import get_font
from generator.draw.pdf import PdfDocument
from generator.draw.svg import svg_string
from generator.outputs import atomic_path

RED = parse_colour("#ff0000")


def test_rotate_is_clockwise_on_a_y_down_page():
    assert apply(rotate(90), 1, 0) == pytest.approx((0, 1))
    assert apply(rotate(180, 10, 10), 0, 0) == pytest.approx((20, 20))


def test_compose_applies_inner_first():
    m = compose(translate(5, 0), rotate(90))
    assert apply(m, 1, 0) == pytest.approx((5, 1))


def test_fit_text_fits_the_box():
    d = Drawing(50, 20)
    size = d.fit_text(0, 0, 40, 10, "Ace of the steering wheel", RED)     # (in 30 mm it would be under 6 pt)
    font = get_font("sans-bold")
    assert font.width("Ace of the steering wheel", size) == pytest.approx(40)
    text = d.root.items[-1]
    assert text.x == pytest.approx(0)  # centred in a box it fills exactly


def test_svg_is_in_mm_with_text_as_outlines():
    d = Drawing(63, 88)
    d.rect(-3, -3, 69, 94, Style(fill=RED))
    d.text(10, 20, "Hello", 5, RED)
    root = ET.fromstring(svg_string(d))
    assert root.get("width") == "63mm" and root.get("height") == "88mm"
    assert root.get("viewBox") == "0 0 63 88"
    assert all(not el.tag.endswith("text") for el in root.iter())
    paths = [el for el in root.iter() if el.tag.endswith("path")]
    assert len(paths) == 1 and len(re.findall("[MLCZ]", paths[0].get("d"))) > 20


def test_pdf_page_size_and_boxes(tmp_path):
    d = Drawing(69, 94)
    d.rect(0, 0, 69, 94, Style(fill=RED))
    doc = PdfDocument(str(tmp_path / "t.pdf"))
    doc.add_page(d, trim=(3, 3, 63, 88), bleed=(0, 0, 69, 94))
    doc.add_page(d)  # boxes must not leak onto the next page
    doc.save()
    first, second = PdfReader(tmp_path / "t.pdf").pages
    k = 72 / 25.4
    assert [float(v) for v in first.trimbox] == pytest.approx([3 * k, 3 * k, 66 * k, 91 * k], abs=0.01)
    assert [float(v) for v in second.trimbox] == pytest.approx([float(v) for v in second.mediabox])


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "deck.pdf"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            open(tmp, "wb").write(b"half a file")
            raise RuntimeError("renderer died")
    assert list(tmp_path.iterdir()) == []
    with atomic_path(target) as tmp:
        open(tmp, "wb").write(b"whole")
    assert target.read_bytes() == b"whole" and list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("text,width", [
    ("Each step drawn: mille_bornes_1961-tuckbox-assembly-letter.pdf, beside this file.", 50.0),
    ("A" * 400, 30.0), ("under/a/long/path/with.dots_and-hyphens " * 3, 20.0), ("plain words that fit", 200.0)])
def test_wrapped_text_never_runs_past_its_width(text, width):
    """A word wider than the column (a file name, a long title) once ran off a tuck box's page on
    Letter (ink 0 mm from the edge): it is broken within, after - _ / . where it can, and the
    words come back whole when the pieces are put together."""
    from generator.draw.drawing import wrap_text
    from generator.draw.fonts import get_font
    font = get_font("sans")
    lines = wrap_text(text, font, 2.8, width)
    assert all(font.width(line, 2.8) <= width + 1e-6 for line in lines), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    if "-" in text and width == 50.0:
        assert lines[1].endswith("tuckbox-")       # broken after a hyphen, not mid-word


def test_the_quick_wrap_of_plain_text_breaks_where_the_general_one_does(monkeypatch):
    """wrap_text sets a paragraph one font covers, unshaped, by its own loop (_wrap_simple: widths
    summed as the line grows, where the general loop measures each line again). Seeded paragraphs
    of words, hyphens, runs of spaces and words wider than the column give the same lines both
    ways, at widths from a letter to the whole paragraph."""
    import random

    from generator.draw import fonts
    from generator.draw.drawing import wrap_text
    rng = random.Random(35)
    words = ["a", "tuck-box", "card", "well-known-rule", "x" * 30, "file_name.pdf", "under/a/path", "Ünïcödé",
             "2,000", "(sic)", "—", "end."]
    cases = []
    for _ in range(80):
        text = "".join(rng.choice(words) + rng.choice([" ", " ", "  ", "\n"]) for _ in range(rng.randint(1, 25)))
        cases.append((text, rng.choice(["sans", "sans-bold", "sans-italic"]), rng.choice([0.5, 3, 8, 20, 45, 120, 400])))
    quick = [wrap_text(t, fonts.get_font(f), 3.0, w) for t, f, w in cases]
    monkeypatch.setattr(fonts.Font, "covers", lambda self, text: False)     # every paragraph the general way
    general = [wrap_text(t, fonts.get_font(f), 3.0, w) for t, f, w in cases]
    assert quick == general
    assert sum(len(lines) for lines in quick) > 300          # (most of them wrapped, many lines each)
