"""The duplex calibration sheet: scales sit where the front's lines fall after the flip."""
import pytest
from pypdf import PdfReader

from conftest import pnp_here
from generator.draw import Text
from generator.layout.calibrate import calibration_pages
from generator.paper import PAPERS


def zero_label_centres(drawing):
    out = []

    def walk(g):
        for it in g.items:
            if hasattr(it, "items"):
                walk(it)
            elif isinstance(it, Text) and it.text == "0":
                out.append(it.x + it.font.width("0", it.size) / 2)
    walk(drawing.root)
    return out


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.0, -2.0)])
def test_scales_follow_the_flip(flip, offset):
    w, h = PAPERS["a4"].size
    front, back = calibration_pages(PAPERS["a4"], flip, offset)
    xs = [w * 0.25, w * 0.5, w * 0.75]
    expected = [(w - x if flip == "long" else x) + offset[0] for x in xs]
    centres = zero_label_centres(back)
    for e in expected:
        assert any(abs(c - e) < 1e-6 for c in centres), (e, centres)


def test_calibrate_command(tmp_path):
    out = tmp_path / "cal.pdf"
    r = pnp_here("calibrate", "--paper", "letter", "--out", out)
    assert r.returncode == 0, r.stderr
    pages = PdfReader(out).pages
    assert len(pages) == 2 and [float(v) for v in pages[0].mediabox][2:] == pytest.approx([612, 792], abs=0.01)
