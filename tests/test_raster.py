"""PNG previews: the cairo backend against the old way (SVG text parsed back by cairosvg).

The previews must look as they did: same size, same colour type, pixels within antialiasing of the
old ones everywhere. The comparison is checked against deliberate mistakes (a dash, a hole, a clip,
a glyph, a transform dropped) so that it cannot pass by being blind.
"""
import dataclasses
import hashlib
import io
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from generator.colour import BLACK, WHITE, Colour
from generator.draw import Drawing, PathBuilder, Rect, Style, compose, mirror_x, rotate, scale, translate
from generator.draw.drawing import Group, Path as DPath, Text
from generator.draw.raster import _png_bytes_via_svg, png_bytes
from generator.spec import load_spec

ROOT = Path(__file__).resolve().parent.parent
RED, BLUE, GREEN = Colour(rgb=(0.8, 0.1, 0.1)), Colour(rgb=(0.1, 0.2, 0.7)), Colour(rgb=(0.1, 0.55, 0.2))
GOLD = Colour(cmyk=(0.0, 0.2, 0.9, 0.05))    # a CMYK colour: converted as the SVG backend does
BLOCK = 8            # px: the size of the regions that must agree
MEAN_LIMIT = 2.0     # of 255, per channel, over the whole image
BLOCK_LIMIT = 10.0   # of 255, mean over any BLOCK x BLOCK region, any channel


def features() -> Drawing:
    """Every primitive and style the drawing layer has, on a partly transparent page."""
    d = Drawing(70, 45)
    d.rect(0, 0, 52, 45, Style(fill=Colour(rgb=(0.96, 0.94, 0.88))))      # the right strip stays empty
    # Even-odd: a square with a square hole and a ring (same winding: nonzero would fill them).
    holes = (PathBuilder().polygon([(3, 3), (19, 3), (19, 19), (3, 19)])
             .polygon([(7, 7), (15, 7), (15, 15), (7, 15)]))
    d.path(holes, Style(fill=BLUE, even_odd=True))
    ring = PathBuilder().arc(30, 11, 8, 0, 360).close().arc(30, 11, 4, 0, 360).close()
    d.path(ring, Style(fill=GOLD, stroke=BLACK, width=0.3, even_odd=True))
    # Dashes, caps and joins; a sharp miter join (SVG's miter limit 4 bevels it; PDF's 10 would not).
    d.polyline([(3, 24), (20, 24), (20, 30), (40, 30)], Style(stroke=RED, width=1.2, dash=(2.5, 1.0), cap="butt"))
    d.polyline([(3, 27), (15, 27)], Style(stroke=GREEN, width=1.0, dash=(0.1, 1.8), cap="round"))
    d.polyline([(3, 33), (20, 35), (3, 37)], Style(stroke=BLACK, width=0.8, join="miter", cap="square"))
    d.polyline([(24, 33), (46, 34), (24, 35)], Style(stroke=BLUE, width=0.8, join="miter"))
    d.line(40, 3, 50, 20, Style(stroke=GREEN, width=0.6, dash=(0, 0)))    # all-zero dashes: solid
    # Curves, ellipses, a rounded rect whose radius exceeds half its height (clamped).
    d.path(PathBuilder().move(40, 22).curve(44, 14, 50, 30, 50, 22).quad(46, 40, 40, 22).close(),
           Style(fill=RED.mix(WHITE, 0.5), stroke=RED, width=0.4))
    d.ellipse(46, 40, 5, 3, Style(fill=GREEN, stroke=BLACK, width=0.25))
    d.circle(56, 10, 3, Style(stroke=BLUE, width=0.5))                    # over the transparent strip
    d.rect(22, 38, 14, 5, Style(fill=WHITE, stroke=BLACK, width=0.3), r=4)
    # A rotated group clipped to a rounded rect, with a nested mirrored, scaled group inside.
    with d.group(compose(translate(58, 30), rotate(20)), clip=Rect(-8, -10, 16, 20, Style(), r=3)):
        d.circle(0, 0, 12, Style(fill=BLUE))
        d.text(-7, 2, "Clip", 5, WHITE, font="sans-bold-italic")
        with d.group(compose(mirror_x(0), scale(0.5, 0.8))):
            d.polygon([(0, 4), (10, 6), (0, 8)], Style(fill=GOLD))
    # A clip by an arbitrary path, and text: several fonts, a wrapped block, characters outside ASCII.
    with d.group(clip=DPath(PathBuilder().polygon([(3, 39), (20, 40), (12, 45)]).ops, Style())):
        d.rect(0, 38, 22, 7, Style(fill=RED))
    d.fit_text(22, 13, 28, 4, "Déjà vu ×3 — ≤", BLACK, font="sans")
    d.text_block(22, 17, 16, "Wrapped words in a narrow block", 1.6, BLACK, font="sans-italic")
    # Things that draw nothing, in both: a singular transform, a zero-width rect, a zero radius.
    with d.group(scale(0)):
        d.rect(0, 0, 70, 45, Style(fill=RED))
    d.rect(10, 10, 0, 20, Style(stroke=RED, width=2))
    d.circle(30, 30, 0, Style(stroke=RED, width=2))
    return d


def _edit(d: Drawing, change) -> Drawing:
    """A copy of d with change(item) for every item that is not a group (None drops it)."""
    def walk(g: Group) -> Group:
        items = [walk(i) if isinstance(i, Group) else change(i) for i in g.items]
        return dataclasses.replace(g, items=[i for i in items if i is not None])
    out = Drawing(d.width, d.height)
    out.root = walk(d.root)
    return out


def _restyle(d: Drawing, test, **changes) -> Drawing:
    return _edit(d, lambda i: dataclasses.replace(i, style=dataclasses.replace(i.style, **changes))
                 if not isinstance(i, Text) and test(i.style) else i)


def _groups(d: Drawing, change) -> Drawing:
    """A copy of d with change(group) for the top-level groups."""
    out = Drawing(d.width, d.height)
    out.root = dataclasses.replace(d.root, items=[change(i) if isinstance(i, Group) else i for i in d.root.items])
    return out


def pixels(png: bytes) -> tuple[str, np.ndarray]:
    im = Image.open(io.BytesIO(png))
    return im.mode, np.asarray(im.convert("RGBA")).astype(np.int16)


def seen(px: np.ndarray) -> np.ndarray:
    """Colours as seen (premultiplied by alpha), and alpha: a pixel of alpha 1/255 may hold any
    colour in a PNG, but no one sees it."""
    out = px.astype(np.float64)
    out[:, :, :3] *= out[:, :, 3:] / 255
    return out


def disagreement(old: bytes, new: bytes) -> tuple[float, float]:
    """(the largest per-channel mean difference, the largest BLOCK x BLOCK mean difference), of 255."""
    mode_a, a = pixels(old)
    mode_b, b = pixels(new)
    assert a.shape == b.shape, f"size {a.shape[1]}x{a.shape[0]} became {b.shape[1]}x{b.shape[0]}"
    assert mode_a == mode_b
    diff = np.abs(seen(a) - seen(b))
    h, w = diff.shape[0] // BLOCK * BLOCK, diff.shape[1] // BLOCK * BLOCK
    blocks = diff[:h, :w].reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK, 4).mean(axis=(1, 3))
    return float(diff.mean(axis=(0, 1)).max()), float(blocks.max())


def assert_looks_the_same(d: Drawing, dpi: float) -> None:
    mean, block = disagreement(_png_bytes_via_svg(d, dpi), png_bytes(d, dpi))
    assert mean < MEAN_LIMIT and block < BLOCK_LIMIT, (mean, block)


# -- the real drawings of a build ---------------------------------------------------------------

def mille_bornes_faces():
    from generator.games.mille_bornes.deck import load_deck
    from generator.games.mille_bornes.faces import draw_back, draw_face
    deck = load_deck(load_spec(ROOT / "decks/mille_bornes.yaml"))
    by_name = {c.name: c for c in deck.cards}
    # a numeral, an attack, an immunity (its clipped oblique bar), and the back
    return ([draw_face(by_name[n], deck) for n in ("200 miles", "Speed limit", "Puncture-proof")]
            + [draw_back(deck)])


def continuo_faces():
    from generator.games.continuo.deck import load_deck
    from generator.games.continuo.faces import draw_rules, draw_tile
    deck = load_deck(load_spec(ROOT / "decks/count_continuo.yaml"))
    return [draw_tile(deck, 1, deck.tiles[0]), draw_rules(deck)]


def capitals_faces():
    from generator.games.capitals.data import load_deck
    from generator.games.capitals.faces import draw_face
    deck = load_deck(load_spec(ROOT / "decks/capitals_1961.yaml"))
    by_name = {c.name: c for c in deck.countries}
    return [draw_face(deck, by_name[n]) for n in ("Australia", "Andorra")]   # Union Flag and stars; special


def sorry_board():
    from generator.games.sorry.board import draw_board
    return draw_board(load_spec(ROOT / "boards/sorry.yaml"))


def contact_sheet_of(faces):
    """Faces placed as add_deck places them: translated, clipped to rounded corners, captioned."""
    from generator.layout.cards import CardSize, contact_sheet
    w, h = faces[0].width, faces[0].height
    return contact_sheet([(f, f"face {i}") for i, f in enumerate(faces)], CardSize(w, h, 3.0), cols=3, title="Sheet")


CASES = {
    "features": lambda: [(features(), 110), (features(), 300)],
    "mille bornes faces": lambda: [(f, 110) for f in mille_bornes_faces()],
    "continuo tile and rules": lambda: [(f, 110) for f in continuo_faces()],
    "capitals faces with flags": lambda: [(f, 110) for f in capitals_faces()],
    "sorry board": lambda: [(sorry_board(), 50)],
    "mille bornes contact sheet": lambda: [(contact_sheet_of(mille_bornes_faces()), 110)],
}


@pytest.mark.parametrize("case", CASES)
def test_previews_look_as_they_did_through_cairosvg(case):
    for drawing, dpi in CASES[case]():
        assert_looks_the_same(drawing, dpi)


@pytest.mark.parametrize("mistake, changed", [
    ("dashes ignored", lambda d: _restyle(d, lambda s: s.dash, dash=None)),
    ("even-odd ignored", lambda d: _restyle(d, lambda s: s.even_odd, even_odd=False)),
    ("round caps ignored", lambda d: _restyle(d, lambda s: s.dash and s.cap == "round", cap="butt")),
    ("a glyph dropped", lambda d: _edit(d, lambda i: dataclasses.replace(i, text="Cli")
                                         if isinstance(i, Text) and i.text == "Clip" else i)),
    ("a clip ignored", lambda d: _groups(d, lambda g: dataclasses.replace(g, clip=None))),
    ("a rotation ignored", lambda d: _groups(d, lambda g: dataclasses.replace(g, transform=translate(*g.transform[4:]))
                                             if g.transform[1] else g)),
    ("the singular group drawn", lambda d: _groups(d, lambda g: dataclasses.replace(g, transform=scale(1))
                                                   if g.transform == scale(0) else g)),
])
def test_the_comparison_sees_mistakes(mistake, changed):
    """Each mistake a backend could make, made on purpose, fails the comparison."""
    d = features()
    mean, block = disagreement(_png_bytes_via_svg(d, 110), png_bytes(changed(d), 110))
    assert block >= BLOCK_LIMIT, (mistake, mean, block)


def test_the_comparison_sees_pdfs_miter_limit(monkeypatch):
    """PDF's default miter limit (10) instead of SVG's (4) draws a spike at the sharp join."""
    import generator.draw.cairo_backend as backend
    d = features()
    old = _png_bytes_via_svg(d, 110)
    monkeypatch.setattr(backend, "_SVG_MITER_LIMIT", 10.0)
    assert disagreement(old, png_bytes(d, 110))[1] >= BLOCK_LIMIT


# -- the file itself --------------------------------------------------------------------------

def chunks(png: bytes) -> list[bytes]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, i = [], 8
    while i < len(png):
        (n,) = struct.unpack(">I", png[i:i + 4])
        out.append(png[i + 4:i + 8])
        i += 12 + n
    return out


def test_a_preview_has_no_time_or_version_chunk():
    assert chunks(png_bytes(features(), 50)) == [b"IHDR", b"bKGD", b"IDAT", b"IEND"]


@pytest.fixture(scope="module")
def another_process():
    """A fresh interpreter (another hash seed) that starts as `pnp referee` does, notes whether
    cairo got loaded, then renders the features drawing: (modules loaded, SHA-256 of the PNG)."""
    code = ("import sys; import generator.cli, generator.products.pdf; "
            "from generator.games import sorry, capitals, mille_bornes, continuo, cubes; "
            "print(sorted(m for m in ('cairocffi', 'cairosvg') if m in sys.modules)); "
            "import hashlib; sys.path.insert(0, 'tests'); from test_raster import features; "
            "from generator.draw.raster import png_bytes; "
            "print(hashlib.sha256(png_bytes(features(), 110)).hexdigest())")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()[0], r.stdout.split()[1]


def test_a_preview_is_the_same_bytes_drawn_twice():
    assert png_bytes(features(), 110) == png_bytes(features(), 110)


@pytest.mark.slow      # a fresh interpreter started (the same bytes drawn twice here is the quick check)
def test_a_preview_is_the_same_bytes_in_another_process(another_process):
    here = png_bytes(features(), 110)
    assert another_process[1] == hashlib.sha256(here).hexdigest()


@pytest.mark.slow      # what a fresh interpreter imports: a process of its own
def test_the_referee_starts_without_cairo(another_process):
    """cairocffi is imported only when a preview is drawn: `pnp referee` starts without it."""
    assert another_process[0] == "[]"


def test_size_and_background_are_as_cairosvg_made_them():
    d = features()   # its right strip is empty
    for dpi in (50, 96, 110):
        mode, px = pixels(png_bytes(d, dpi))
        assert px.shape[1] == round(70 / 25.4 * dpi)
        assert px.shape[0] == round(45 * px.shape[1] / 70)
        assert mode == "RGBA" and tuple(px[0, -1]) == (0, 0, 0, 0)   # transparent, not white
    d = Drawing(30, 20)
    d.rect(0, 0, 30, 20, Style(fill=RED))
    mode, px = pixels(png_bytes(d, 254))
    assert mode == "RGB" and px.shape[:2] == (200, 300)                 # opaque: no alpha channel
    assert tuple(px[100, 150]) == (204, 26, 26, 255)                   # the SVG's #cc1a1a


def test_a_semi_transparent_edge_is_written_unpremultiplied_as_cairo_did():
    d = Drawing(10, 10)
    d.rect(0, 0, 5.05, 10, Style(fill=Colour(rgb=(0.6, 0.4, 0.2))))  # the last column half covered
    mode, new = pixels(png_bytes(d, 254))
    _, old = pixels(_png_bytes_via_svg(d, 254))
    assert mode == "RGBA" and 0 < new[5, 50, 3] < 255
    assert np.array_equal(new, old)


def test_a_drawing_with_no_pixels_is_refused_as_cairosvg_refused_it():
    for w, h, dpi in ((0, 10, 96), (10, 0.01, 96), (0.1, 10, 50)):
        with pytest.raises(ValueError, match="has no pixels"):
            png_bytes(Drawing(w, h), dpi)
        with pytest.raises(ValueError):
            _png_bytes_via_svg(Drawing(w, h), dpi)
