"""The PNG preview of a laser sheet: drawn from the sheet's geometry (no SVG round trip), large
enough to read the scored labels, the same bytes every time; and the laser writers' libraries
loaded only by the functions that need them."""
import io
import subprocess
import sys

import numpy as np
from PIL import Image
from shapely.geometry import Point, box

from conftest import ROOT
from generator.draw.fonts import get_font
from generator.laser.export import PREVIEW_PX_PER_MM, sheet_png
from generator.laser.nest import nest
from generator.laser.parts import Part, text_polygons, text_score_lines

RED, BLUE, BLACK = (219, 0, 0), (0, 0, 219), (0, 0, 0)


def labelled_sheet():
    plate = Part("plate", box(0, 0, 60, 40).difference(Point(45, 20).buffer(6, quad_segs=16)))
    plate.score = text_score_lines("C front", 4, 12, 2.4)
    plate.engrave = text_polygons("8", 30, 30, 10)
    return nest([plate], 100, 60, kerf=0.2)[0]


def pixels(png: bytes):
    im = Image.open(io.BytesIO(png)).convert("RGB")
    return im, im.load()


def near(c, target, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(c, target))


def test_preview_shows_cuts_scores_engraving_at_a_readable_size():
    sheet = labelled_sheet()
    im, px = pixels(sheet_png(sheet))
    k = PREVIEW_PX_PER_MM
    assert im.size == (round(100 * k), round(60 * k))
    colours = {c for _, c in im.getcolors(maxcolors=1 << 20)}
    assert any(near(c, RED) for c in colours) and any(near(c, BLACK, 10) for c in colours)
    # The label's rows: as many pixels high as its capitals are mm high, times the scale.
    x0, y0 = sheet.cut_paths[0].bounds[:2]
    a = np.asarray(im).astype(int)
    rows = np.nonzero((np.abs(a - BLUE) <= 90).all(axis=2).any(axis=1))[0]
    cap = get_font("sans").cap_height * 2.4
    assert max(rows) - min(rows) + 1 >= cap * k >= 8                   # capitals 8 pixels high or more
    # The part is drawn on the stock, the cup-like hole is stock again.
    cx, cy = (x0 + 45.1) * k, (y0 + 20.1) * k
    assert px[round(cx), round(cy)] == px[2, 2] != px[round((x0 + 20) * k), round((y0 + 5) * k)]


def test_preview_is_the_same_bytes_each_time():
    sheet = labelled_sheet()
    assert sheet_png(sheet) == sheet_png(labelled_sheet())


def test_laser_libraries_load_only_when_used():
    """Importing the writers loads neither ezdxf, cairo nor the stroke font (other commands start
    fast); the preview never goes through cairosvg."""
    code = ("import sys\n"
            "import generator.laser.export as e, generator.laser.parts\n"
            "print(sorted(m for m in ('ezdxf', 'cairocffi', 'cairosvg', 'HersheyFonts', 'svgwrite') if m in sys.modules))\n"
            "from shapely.geometry import box\n"
            "from generator.laser.nest import nest\n"
            "from generator.laser.parts import Part\n"
            "e.sheet_png(nest([Part('p', box(0, 0, 10, 10))], 20, 20)[0])\n"
            "print('cairosvg' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:2] == ["[]", "False"]
