"""Scored part labels: a single-stroke font (each letter a few strokes the beam runs once), set
at the outline sans's cap height and never wider, so it stays where the games placed it."""
import pytest
from shapely.ops import unary_union
from generator.draw.fonts import get_font
from generator.laser.parts import text_score_lines


def extent(lines):
    xs = [x for ln in lines for x, _ in ln.coords]
    ys = [y for ln in lines for _, y in ln.coords]
    return min(xs), min(ys), max(xs), max(ys)


def test_a_stem_is_one_stroke_not_an_outline():
    """An outline font draws I as a closed ring round its stem (the laser traces both edges);
    a stroke font draws one line, cap height long, up from the baseline."""
    (stem,) = text_score_lines("I", 10, 20, 4)
    assert len(stem.coords) == 2 and not stem.is_closed
    (x0, y0), (x1, y1) = stem.coords
    assert x0 == pytest.approx(x1)
    assert sorted((y0, y1)) == pytest.approx([20 - get_font("sans").cap_height * 4, 20])


@pytest.mark.parametrize("text, size", [("C front", 2.4), ("CUP LAYER", 2.2), ("BASE  reserve", 4),
                                        ("PARTITION", 4), ("10", 2.4), ("WALL", 3.5)])
def test_labels_keep_the_sans_size_and_room(text, size):
    sans = get_font("sans")
    lines = text_score_lines(text, 5, 30, size)
    x0, y0, x1, y1 = extent(lines)
    assert x0 >= 5 and x1 <= 5 + sans.width(text, size) + 1e-9      # never wider than the sans set it
    assert y1 <= 30 + 1e-9 or any(c in text for c in "gjpqy")        # on the baseline ...
    assert 30 - y0 == pytest.approx(sans.cap_height * size, rel=0.1)  # ... as tall as its capitals
    # Strokes, not outlines: few of them, few points (the outline sans: ~6 times the points).
    letters = sum(1 for c in text if c != " ")
    assert letters <= len(lines) <= 3 * letters
    assert sum(len(ln.coords) for ln in lines) <= 22 * letters


def test_letters_outside_the_font_are_written_without_accents_or_as_a_question_mark():
    assert [ln.coords[:] for ln in text_score_lines("É", 0, 10, 3)] == \
        [ln.coords[:] for ln in text_score_lines("E", 0, 10, 3)]
    # (the question mark condensed to the width the sans gives the euro sign)
    assert [len(ln.coords) for ln in text_score_lines("€", 0, 10, 3)] == \
        [len(ln.coords) for ln in text_score_lines("?", 0, 10, 3)]


def test_strokes_that_meet_are_one_line_and_nothing_is_scored_twice(monkeypatch):
    """Hershey's E is four strokes, three meeting at the stem's ends: scored as two lines (fewer
    pen lifts), the same marks, of the same total length (no line run twice)."""
    import generator.laser.stroke_font as sf
    for text, lines in (("E", 2), ("M", 1), ("RING", 5)):
        drawn = text_score_lines(text, 0, 10, 4)
        with monkeypatch.context() as m:       # the font's own strokes, placed the same way
            m.setattr(sf, "_strokes", lambda ch: [s for s in sf._glyphs()[ch].strokes if len(s) > 1])
            raw = text_score_lines(text, 0, 10, 4)
        assert len(drawn) == lines < len(raw)
        assert sum(ln.length for ln in drawn) == pytest.approx(sum(ln.length for ln in raw))
        assert unary_union(drawn).symmetric_difference(unary_union(raw)).length < 1e-9
