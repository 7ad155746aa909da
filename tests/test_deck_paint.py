"""Shapes and paint of the deck kind (issue 38, item 3): ellipse, arc, pie, triangle, polygon,
star and path elements, gradient fills, opacity, an image's crop and its own rotation, drawn once
into the drawing layer and measured in the pixels of each backend alike: the PDF (rendered by
pdftoppm), the SVG (by cairosvg) and the PNG (the cairo backend); under --pdfx the transparency
flattened (no soft mask, no alpha) and the file through Ghostscript's preflight; bad values refused
in one line at their line."""
from __future__ import annotations

import io
import subprocess
from functools import lru_cache

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from conftest import build_deck, need, pnp_here

PX_PER_MM = 10            # pictures at 254 dpi
WHITE_PAPER = "#ffffff"

# A picture of four quadrants (200 x 100 px): red, green above; blue, yellow below.
RED, GREEN, BLUE, YELLOW = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)

SPEC = """\
kind: deck
title: Paint
card: {width: 63, height: 88, bleed: 3}
palette: {ink: "#000000", red: "#ff0000"}
cards:
  - {name: One, far: "#0000ff"}
layouts:
  face:
    background: "#ffffff"
    elements:
      - {type: rect, x: 0, y: 0, w: 63, h: 10, fill: {linear: [3, 0, 60, 0], stops: [red, "{far}"]}}
      - {type: ellipse, cx: 16, cy: 22, rx: 12, ry: 6, fill: ink}
      - {type: star, cx: 47, cy: 22, n: 5, outer_radius: 8, inner_radius: 3.5, fill: ink}
      - {type: path, d: "M 4 36 L 24 36 A 6 6 0 0 1 24 48 L 4 48 Z", fill: ink}
      - {type: image, file: quad.png, x: 36, y: 36, w: 20, h: 10, fit: stretch,
         crop_x: 100, crop_y: 0, crop_width: 100, crop_height: 50}
      - {type: image, file: quad.png, x: 36, y: 48, w: 10, h: 5, fit: stretch, crop_x: "50%", crop_y: "50%"}
      - {type: rect, x: 4, y: 56, w: 24, h: 14, fill: "#0000ff"}
      - {type: rect, x: 16, y: 60, w: 24, h: 14, fill: red, fill_opacity: 0.5}
      - {type: image, file: quad.png, x: 44, y: 62, w: 16, h: 8, fit: stretch, picture_rotate: 180}
      - {type: image, file: quad.png, x: 48, y: 56, w: 8, h: 4, fit: stretch, opacity: 0.5}
      - {type: pie, cx: 15, cy: 80, r: 6, start: 0, end: 90, fill: ink}
      - {type: triangle, x1: 30, y1: 86, x2: 40, y2: 86, x3: 35, y3: 76, fill: "#800080", opacity: 0.5}
      - {type: rect, x: 48, y: 76, w: 8, h: 8, fill: "#ff8080"}
  back: {background: "#000000"}
"""


def quad_png() -> bytes:
    img = PILImage.new("RGB", (200, 100))
    img.paste(RED, (0, 0, 100, 50))
    img.paste(GREEN, (100, 0, 200, 50))
    img.paste(BLUE, (0, 50, 100, 100))
    img.paste(YELLOW, (100, 50, 200, 100))
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("paint")
    (folder / "paint.yaml").write_text(SPEC)
    (folder / "quad.png").write_bytes(quad_png())
    return folder


@pytest.fixture(scope="module")
def face(folder):
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    deck = load_deck(load_spec(folder / "paint.yaml", display="paint.yaml"))
    return deck.art.faces[0]


def render(drawing, backend: str, tmp, pdfx: bool = False) -> PILImage.Image:
    """The drawing's pixels at PX_PER_MM, by one backend, on white."""
    dpi = PX_PER_MM * 25.4
    width = round(drawing.width * PX_PER_MM)
    if backend == "png":
        from generator.draw.raster import png_bytes
        data = png_bytes(drawing, dpi=dpi)
    elif backend == "svg":
        import cairosvg
        from generator.draw.svg import svg_string
        data = cairosvg.svg2png(bytestring=svg_string(drawing).encode(), output_width=width)
    else:
        from generator.draw.pdf import PdfDocument
        pdf = tmp / f"{backend}{'-x' if pdfx else ''}.pdf"
        doc = PdfDocument(str(pdf), title="t", pdfx=pdfx)
        doc.add_page(drawing, trim=(0, 0, drawing.width, drawing.height) if pdfx else None)
        doc.save()
        data = subprocess.run([need("pdftoppm"), "-r", f"{dpi:g}", "-png", "-singlefile", str(pdf)],
                              capture_output=True, check=True).stdout
    img = PILImage.open(io.BytesIO(data)).convert("RGBA")
    paper = PILImage.new("RGBA", img.size, (255, 255, 255, 255))
    return PILImage.alpha_composite(paper, img).convert("RGB")


BACKENDS = ("pdf", "svg", "png")


@pytest.fixture(scope="module")
def pictures(face, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("renders")
    return {b: render(face, b, tmp) for b in BACKENDS}


def at(img, x_mm, y_mm):
    return img.getpixel((int(x_mm * PX_PER_MM), int(y_mm * PX_PER_MM)))


def near(got, want, tol=12):
    return max(abs(a - b) for a, b in zip(got, want)) <= tol


def dark_box(img, box_mm):
    """The box (x0, y0, x1, y1, mm) of the dark pixels within a region of the picture."""
    x0, y0, x1, y1 = (round(v * PX_PER_MM) for v in box_mm)
    region = img.crop((x0, y0, x1, y1)).convert("L").point(lambda v: 255 if v < 128 else 0)
    bx = region.getbbox()
    assert bx is not None
    return tuple(v / PX_PER_MM + o for v, o in zip(bx, (box_mm[0], box_mm[1], box_mm[0], box_mm[1])))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_gradients_colours_at_both_ends_and_between(pictures, backend):
    img = pictures[backend]
    assert near(at(img, 1, 5), RED)                  # before its start: its first colour, padded
    assert near(at(img, 3.2, 5), RED)
    assert near(at(img, 59.8, 5), BLUE, 14)
    assert near(at(img, 62, 5), BLUE)                # past its end: its last, padded
    assert near(at(img, 31.5, 5), (128, 0, 128), 14)  # halfway: from the card's field, {far}


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_ellipses_extent(pictures, backend):
    x0, y0, x1, y1 = dark_box(pictures[backend], (0, 13, 31, 31))
    assert (x0, y0, x1, y1) == pytest.approx((4, 16, 28, 28), abs=0.15)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stars_points(pictures, backend):
    import math
    img = pictures[backend]
    x0, y0, x1, y1 = dark_box(img, (32, 13, 63, 31))
    # Its first tip straight up; its tips on a circle of 8 mm: the box of a five-pointed star.
    assert (x0, y0, x1, y1) == pytest.approx((47 - 8 * math.cos(math.radians(18)), 14,
                                              47 + 8 * math.cos(math.radians(18)), 22 + 8 * math.sin(math.radians(54))),
                                             abs=0.2)
    # Five dark runs round a circle between the notches and the tips.
    ring = [at(img, 47 + 6.5 * math.cos(t), 22 + 6.5 * math.sin(t))[0] < 128
            for t in (2 * math.pi * k / 720 for k in range(720))]
    runs = sum(1 for k in range(720) if ring[k] and not ring[k - 1])
    assert runs == 5


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_paths_bounds(pictures, backend):
    # A line, a half circle of radius 6 (SVG's arc command) bulging to x = 30, and back.
    assert dark_box(pictures[backend], (0, 33, 33, 52)) == pytest.approx((4, 36, 30, 48), abs=0.15)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_cropped_pictures_pixels(pictures, backend):
    img = pictures[backend]
    # The green quarter alone (by its pixels), stretched over 20 x 10 mm: green to its edges.
    for x, y in ((36.3, 36.3), (46, 41), (55.7, 45.7), (36.3, 45.7), (55.7, 36.3)):
        assert near(at(img, x, y), GREEN), (x, y, at(img, x, y))
    # The lower right quarter (by percentages): yellow.
    for x, y in ((36.3, 48.3), (41, 50.5), (45.7, 52.7)):
        assert near(at(img, x, y), YELLOW), (x, y)
    # Turned 180 degrees within its box: yellow upper left, red lower right.
    assert near(at(img, 46, 64), YELLOW) and near(at(img, 58, 68), RED)
    assert near(at(img, 58, 64), BLUE) and near(at(img, 46, 68), GREEN)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_opacitys_blended_colour(pictures, backend):
    img = pictures[backend]
    assert near(at(img, 22, 65), (128, 0, 128))        # half red over blue
    assert near(at(img, 35, 72), (255, 128, 128))      # half red over white
    assert near(at(img, 35, 84), (192, 128, 192))      # the element's opacity: half purple over white
    assert near(at(img, 10, 58), BLUE)
    assert near(at(img, 49, 56.5), (255, 128, 128)) and near(at(img, 55, 59.5), (255, 255, 128))   # a picture's


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_pie(pictures, backend):
    # A quarter from 3 o'clock clockwise (down the card) to 6 o'clock.
    assert dark_box(pictures[backend], (5, 72, 25, 88)) == pytest.approx((15, 80, 21, 86), abs=0.15)


def test_the_backends_agree_pixel_for_pixel_nearly(pictures):
    import numpy as np
    a, b, c = (np.asarray(pictures[k], np.int16)[:880, :630] for k in BACKENDS)   # (pdftoppm rounds up)
    for one, other in ((a, c), (b, c)):
        differ = (np.abs(one - other).max(axis=2) > 40).mean()
        assert differ < 0.01, differ       # (edges antialiased a little differently)


def test_under_pdfx_transparency_is_flattened(face, tmp_path):
    """PDF/X-1a has no transparency: the half-transparent rect and triangle are drawn as opaque
    pictures of what they show over what lies under them; the gradient is a CMYK shading. The file
    passes Ghostscript's preflight, and the blend prints as the same colour given opaque."""
    from test_pdfx import colour_operators, ghostscript_preflight, soft_masks
    img = render(face, "pdf", tmp_path, pdfx=True)
    pdf = tmp_path / "pdf-x.pdf"
    reader = PdfReader(pdf)
    ghostscript_preflight(pdf)
    assert not soft_masks(pdf)
    ops = colour_operators(reader)
    assert not ops & {b"rg", b"RG", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"}, ops
    raw = pdf.read_bytes()
    assert b"/SMask" not in raw and b"/ca " not in raw and b"/CA " not in raw
    assert b"/ShadingType 2" in raw and b"/DeviceCMYK" in raw
    # The flattened blends match opaque fills of the blended colours, converted alike.
    assert near(at(img, 35, 72), at(img, 52, 80), 6)      # half red over white, and #ff8080 given opaque


def test_under_pdfx_a_blend_prints_as_its_colour_given_opaque(tmp_path):
    from generator.colour import parse_colour
    from generator.draw import Drawing, Style
    d = Drawing(40, 20)
    d.rect(0, 0, 20, 20, Style(fill=parse_colour("#0000ff")))
    d.rect(0, 0, 20, 20, Style(fill=parse_colour("#ff0000"), fill_opacity=0.5))
    d.rect(20, 0, 20, 20, Style(fill=parse_colour("#800080")))            # the blend, given opaque
    img = render(d, "pdf", tmp_path, pdfx=True)
    assert near(at(img, 10, 10), at(img, 30, 10), 6), (at(img, 10, 10), at(img, 30, 10))
    plain = render(d, "pdf", tmp_path)
    assert near(at(plain, 10, 10), (128, 0, 128))


# ---------------------------------------------------------------- what bad values get

@pytest.mark.parametrize("old, new, pattern", [
    ('d: "M 4 36 L 24 36 A', 'd: "M 4 36 L 24 x36 A',
     r"layouts\.face\.elements\[3\]\.d: path data: expected a number for L at character 13"),
    ('stops: [red, "{far}"]', 'stops: [red]',
     r"layouts\.face\.elements\[0\]\.fill\.stops: expected two stops or more"),
    ("crop_x: 100, crop_y: 0", "crop_x: 150, crop_y: 0",
     r"layouts\.face\.elements\[4\]\.crop_x: .*\"quad\.png\": the crop 150, 0, 100 x 50 px runs "
     r"outside the picture's 200 x 100 pixels"),
    ('crop_x: "50%"', 'crop_x: "150%"', r".*crop_x: 150% of the picture: a crop lies within it"),
    ("fill: red, fill_opacity: 0.5", "fill: red, fill_opacity: 1.5",
     r".*fill_opacity: expected an opacity from 0 \(none\) to 1"),
    ("n: 5, outer_radius: 8, inner_radius: 3.5", "n: 5, outer_radius: 3, inner_radius: 3.5",
     r".*inner_radius: inner_radius 3.5 is larger than outer_radius 3"),
    ("fill: {linear: [3, 0, 60, 0], stops: [red, \"{far}\"]}", "fill: {stops: [red, \"{far}\"]}",
     r".*fill: a gradient is linear: \[x1, y1, x2, y2\] or radial"),
    ("stops: [red, \"{far}\"]", "stops: [[red, 0.6], [\"{far}\", 0.2]]",
     r".*fill\.stops: the stops' offsets go back \(0\.6, 0\.2\)"),
    ('d: "M 4 36', 'd: "L 4 36', r".*\.d: path data: it starts with M \(move to\), not L"),
    ('d: "M 4 36', 'd: "M 4e9 36', r".*\.d: path data: 4e9 for M is beyond ±100,000 mm"),
])
def test_bad_values_are_one_line_errors_at_their_line(tmp_path, folder, old, new, pattern):
    import re
    spec = tmp_path / "paint.yaml"
    assert old in SPEC, old
    spec.write_text(SPEC.replace(old, new, 1))
    (tmp_path / "quad.png").write_bytes((folder / "quad.png").read_bytes())
    r = pnp_here("validate", spec)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    line = next(k for k, text in enumerate(spec.read_text().splitlines(), 1) if new in text)
    assert len(lines) == 1 and re.search(rf"paint\.yaml:{line}: " + pattern, lines[0]), r.stderr


def test_a_path_is_bounded_as_an_svg_pictures_paths_are():
    from generator.draw.images import MAX_SVG_POINTS
    from generator.draw.pathdata import PathDataError, parse_path_data
    ok = "M 0 0 " + "L 1 1 " * (MAX_SVG_POINTS - 1)
    assert len(parse_path_data(ok)) == MAX_SVG_POINTS
    with pytest.raises(PathDataError, match="at most 20,000"):
        parse_path_data(ok + "L 2 2")
    with pytest.raises(PathDataError, match="reach beyond ±100,000 mm"):
        parse_path_data("M 0 0 " + "l 99999 0 " * 3)
    with pytest.raises(PathDataError, match="reach beyond ±100,000 mm"):
        parse_path_data("M 0 0 A 1e-8 1 0 1 1 1 1")       # (grown to meet its end: 70 km high)
    assert parse_path_data("M 0 0 A 1e-200 1e-200 0 0 1 1 1") == (("M", 0.0, 0.0), ("L", 1.0, 1.0))


def test_path_data_reads_as_svg_reads_it():
    from generator.draw.pathdata import parse_path_data
    ops = parse_path_data("m1,2 l3-4 h5 v6 z M0 0 q 5 5 10 0 t 10 0 a1 1 0 00 2 0 c1 1 2 2 3 3 s 1 1 2 2")
    assert ops[0] == ("M", 1.0, 2.0) and ops[1] == ("L", 4.0, -2.0)       # relative from the pen
    assert ops[2] == ("L", 9.0, -2.0) and ops[3] == ("L", 9.0, 4.0) and ops[4] == ("Z",)
    quad = ops[6]                   # q 5 5 10 0: the cubic with the quadratic's shape
    assert quad == pytest.approx(("C", 10 / 3, 10 / 3, 20 / 3, 10 / 3, 10, 0)[1:], abs=1e-9) or \
        quad[1:] == pytest.approx((10 / 3, 10 / 3, 20 / 3, 10 / 3, 10, 0))
    smooth = ops[7]                 # t 10 0: its control point the last one mirrored, (15, -5)
    assert smooth[1:] == pytest.approx((10 + 2 / 3 * 5, -10 / 3, 20 - 2 / 3 * 5, -10 / 3, 20, 0))
    assert ops[9][0] == "C" and ops[9][-2:] == pytest.approx((22, 0))  # "00" two flags; a half circle, two curves
    assert ops[8][-2:] == pytest.approx((21, 1))       # (sweep 0: the half below, y down)
    assert ops[-1][-2:] == pytest.approx((27, 5))
    after_close = parse_path_data("M 0 0 L 10 0 L 10 10 Z q 5 5 10 0")[-1]   # from where Z took the pen
    assert after_close[1:] == pytest.approx((10 / 3, 10 / 3, 20 / 3, 10 / 3, 10, 0))


def test_a_face_placed_as_a_form_carries_its_shadings_and_graphics_states(face, tmp_path):
    """On a sheet a face is a form XObject drawn once: its gradient's shading and its opacities'
    graphics states are in the form's own resources (reportlab gives a form only its fonts and
    pictures), and it prints as the face drawn alone does."""
    from generator.draw import Drawing, translate
    from generator.draw.pdf import PdfDocument
    sheet = Drawing(80, 100)
    sheet.place(face, translate(5, 5))
    pdf = tmp_path / "sheet.pdf"
    doc = PdfDocument(str(pdf), title="t")
    doc.add_page(sheet)
    doc.save()
    page = PdfReader(pdf).pages[0]
    forms = [x.get_object() for x in page["/Resources"]["/XObject"].values()
             if x.get_object().get("/Subtype") == "/Form"]
    assert len(forms) == 1
    resources = forms[0]["/Resources"]
    assert "/Shading" in resources and "/ExtGState" in resources
    assert any(gs.get_object().get("/ca") == 0.5 for gs in resources["/ExtGState"].values())
    data = subprocess.run([need("pdftoppm"), "-r", f"{PX_PER_MM * 25.4:g}", "-png", "-singlefile", str(pdf)],
                          capture_output=True, check=True).stdout
    img = PILImage.open(io.BytesIO(data)).convert("RGB")
    assert near(at(img, 6, 10), RED) and near(at(img, 66, 10), BLUE) and near(at(img, 27, 70), (128, 0, 128))


def test_a_cmyk_gradient_runs_through_the_colours_the_rgb_one_does(tmp_path):
    """Under --pdfx (CMYK) a gradient's middle prints as its RGB middle given flat (as the PNG and
    SVG show it), not as the middle of its ends' inks (a brighter magenta from red to blue)."""
    from generator.colour import parse_colour
    from generator.draw import Drawing, Gradient, Style
    d = Drawing(60, 20)
    d.rect(0, 0, 60, 10, Style(fill=Gradient("linear", (0, 0, 60, 0), ((0, parse_colour("#ff0000")),
                                                                        (1, parse_colour("#0000ff"))))))
    d.rect(25, 10, 10, 10, Style(fill=parse_colour("#800080")))
    img = render(d, "pdf", tmp_path, pdfx=True)
    assert near(at(img, 30, 5), at(img, 30, 15), 8), (at(img, 30, 5), at(img, 30, 15))


def test_a_paths_points_are_bounded_where_they_are_placed(tmp_path, folder):
    spec = tmp_path / "paint.yaml"
    spec.write_text(SPEC.replace('L 24 36 A 6 6 0 0 1 24 48 L 4 48 Z", fill: ink}',
                                 'L 240 36 L 4 48 Z", fill: ink, scale: 1000}', 1))
    (tmp_path / "quad.png").write_bytes((folder / "quad.png").read_bytes())
    r = pnp_here("validate", spec)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip().endswith(".d: path data whose points reach beyond ±100,000 mm once scaled by 1000 and "
                                     "moved by 0, 0"), r.stderr


def test_the_new_lengths_take_units(tmp_path, folder):
    """An ellipse's radii, a star's radii and a gradient's points are lengths as every other is:
    written in cm, in or px (at the deck's dpi, 300), they are the same mm."""
    from generator.draw import Ellipse, Gradient, Path
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    spec = tmp_path / "paint.yaml"
    spec.write_text(SPEC.replace("rx: 12, ry: 6", "rx: 1.2cm, ry: 70.866px")
                    .replace("outer_radius: 8,", "outer_radius: 0.31496in,")
                    .replace("linear: [3, 0, 60, 0]", "linear: [3mm, 0, 6cm, 0]"))
    (tmp_path / "quad.png").write_bytes((folder / "quad.png").read_bytes())
    items = load_deck(load_spec(spec, display="paint.yaml")).art.faces[0].root.items
    ellipse = next(i for i in items if isinstance(i, Ellipse))
    assert (ellipse.rx, ellipse.ry) == pytest.approx((12, 6), abs=1e-3)
    gradient = next(i.style.fill for i in items if isinstance(getattr(i, "style", None) and i.style.fill, Gradient))
    assert gradient.points == pytest.approx((3, 0, 60, 0))
    star = next(i for i in items if isinstance(i, Path) and len(i.ops) == 11)     # ten corners and a close
    assert min(op[2] for op in star.ops[:-1]) == pytest.approx(22 - 8, abs=1e-3)  # its top tip 8 mm up
