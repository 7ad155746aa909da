"""Print and cut (issue 37): the sheets and cut files `--cut MACHINE` writes, read back from the
files. The printed sheet is rasterised (pdftoppm, 600 dpi, anti-aliased: an edge is found to a
fraction of a pixel from its grey level) and measured from its printed registration marks; the cut
files are read by the laser sheets' own readers (tests/test_laser_sheets.py: the SVG's points, the
DXF's group codes with its arcs rebuilt) and measured from the marks they carry (the SVG's Regmarks
layer) or the page they are centred on (the DXF). A test part whose face is black inside its trim
and grey in its bleed shows the printed trim; every cut must lie on it within 0.05 mm.
"""
from __future__ import annotations

import math
import subprocess
from pathlib import Path

import numpy as np
import pytest
import shapely
from PIL import Image
from shapely.geometry import LineString, Polygon

from conftest import build_options, pnp_here
import games_planned
import test_laser_sheets as laser_sheets
from test_laser_sheets import (closed, dxf_entities, dxf_engraved_without_arcs, polyline_vertices, svg_engraved,
                               svg_layers, with_arcs)

from generator.colour import BLACK, Colour
from generator.cutters import cropped, cutter, in_reach, lay_out, rounded_rect
from generator.draw import Drawing, Style
from generator.outputs import Plan
from generator.paper import PAPERS
from generator.products.contents import CutPart, CutParts
from generator.products.cut_sheets import make

DPI = 600
PX = 25.4 / DPI                 # mm a pixel
TOLERANCE = 0.05                # mm: a cut on its printed trim
GREY = 0.6                      # the test part's bleed, as printed


class Spec:
    file = "test.yaml"
    data: dict = {}

    def error(self, field, message):
        return ValueError(message)


def trim_part(w: float, h: float, r: float, name: str = "part", count: int = 1, back: bool = False) -> CutPart:
    """Black within its trim (a rounded rectangle), grey in its bleed: the trim shows as an edge."""
    bleed = 3.0
    face = Drawing(w, h)
    face.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, Style(fill=Colour(rgb=(GREY, GREY, GREY))))
    face.rect(0, 0, w, h, Style(fill=BLACK), r=r)
    rear = None
    if back:
        rear = Drawing(w, h)
        rear.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, Style(fill=Colour(rgb=(0.2, 0.3, 0.8))))
    return CutPart(name, w, h, face, rounded_rect(w, h, r), bleed=bleed, count=count, back=rear)


def build(tmp_path: Path, parts, machine: str, paper: str = "a4", **options) -> Path:
    plan = Plan()
    opts = build_options(tmp_path, paper, extra={"cut": machine}, **options)
    make(CutParts(Spec(), name="test", title="Test parts", parts=lambda: parts), plan.sub("game"), opts)
    plan.write_into(tmp_path)
    return tmp_path / "game" / f"cut-{machine}"


class Page:
    """A page of a PDF as grey levels 0..1 at DPI, row 0 at the top, indexed as the whole page's
    array would be (page[row, column], each an index or a slice with its ends given): each index
    rasterises just the pixels it asks for (pdftoppm's crop box renders them as the whole page
    does, anti-aliasing and all), not the page's 35 million."""

    def __init__(self, pdf: Path, page: int = 1):
        self.pdf, self.page = pdf, page

    def __getitem__(self, key) -> np.ndarray:
        rows, cols = key
        (r0, r1), (c0, c1) = (((k.start, k.stop) if isinstance(k, slice) else (k, k + 1)) for k in (rows, cols))
        assert 0 <= r0 < r1 and 0 <= c0 < c1, key
        out = self.pdf.with_suffix(f".p{self.page}-{r0}-{c0}")
        subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-f", str(self.page), "-l", str(self.page),
                        "-x", str(c0), "-y", str(r0), "-W", str(c1 - c0), "-H", str(r1 - r0), "-singlefile",
                        str(self.pdf), str(out)], check=True)
        pixels = np.asarray(Image.open(f"{out}.pgm"), dtype=np.float32) / np.float32(255.0)
        assert pixels.shape == (r1 - r0, c1 - c0), (pixels.shape, key)      # within the page
        return pixels[tuple(slice(None) if isinstance(k, slice) else 0 for k in key)]


def edge(line: np.ndarray, dark: float, light: float) -> float:
    """Where a line of pixels passes from light to dark (pixels, from its start): the light pixels
    and the light share of the pixels across the edge, summed."""
    share = np.clip((line - dark) / (light - dark), 0.0, 1.0)
    return float(share.sum())


def dark_box(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, light: float, dark: float = 0.0):
    """(left, top, right, bottom) in mm of a dark rectangle lying within (x0, y0, x1, y1) mm on a
    light ground, measured across its middle."""
    a, b, c, d = (int(round(v / PX)) for v in (x0, y0, x1, y1))
    row = img[(b + d) // 2, a:c]
    col = img[b:d, (a + c) // 2]
    mr, mc = len(row) // 2, len(col) // 2       # the middle lies in the dark: each edge from its side
    left = a + edge(row[:mr], dark, light)
    right = c - edge(row[mr:][::-1], dark, light)
    top = b + edge(col[:mc], dark, light)
    bottom = d - edge(col[mc:][::-1], dark, light)
    return tuple(v * PX for v in (left, top, right, bottom))


def printed_square(img: np.ndarray, inset: float = 10.0, side: float = 5.0):
    """The top-left registration square as printed: (left, top) in mm from the paper's corner."""
    box = dark_box(img, inset - 2, inset - 2, inset + side + 2, inset + side + 2, light=1.0)
    assert abs(box[2] - box[0] - side) < TOLERANCE and abs(box[3] - box[1] - side) < TOLERANCE, box
    return box[0], box[1]


def svg_cuts(path: Path):
    """The SVG's cut contours (polygons) and its Regmarks layer's square's top-left."""
    import xml.etree.ElementTree as ET
    layers = svg_layers(path)
    cuts = [Polygon(pts) for subs in layers["CUT"] for pts, is_closed in subs if is_closed]
    root = ET.parse(path).getroot()
    square = None
    for p in root.iter("{http://www.w3.org/2000/svg}path"):
        if p.get("id") == "regmark-tl":
            nums = [float(v) for v in p.get("d").replace("M", " ").replace("L", " ").replace("Z", " ").split()]
            square = (min(nums[::2]), min(nums[1::2]))
    return cuts, square


def dxf_cuts(path: Path, height: float):
    """The DXF's closed contours, arcs rebuilt, in the page's frame (y down)."""
    _, entities = dxf_entities(path)
    out = []
    for e in entities:
        if e["kind"] == "LWPOLYLINE" and e.get("layer") == "CUT":
            assert closed(e)
            pts = with_arcs(polyline_vertices(e), True, step=0.02)
            out.append(Polygon([(x, height - y) for x, y in pts]))
    return out


SIZES = [(63.0, 88.0, 3.0), (41.0, 63.0, 2.0), (48.0, 48.0, 0.0)]

# The sheets measured on each paper: Letter's in the whole suite (each such test rasterises 4 to 20
# strips of its pages, 0.1-0.35 s), A4's in the quick subset too.
PAPERS_A4_QUICK = ["a4", pytest.param("letter", marks=pytest.mark.slow)]


@pytest.mark.parametrize("paper", PAPERS_A4_QUICK)
def test_every_cut_lands_on_its_printed_trim_measured_from_the_marks(tmp_path, paper):
    """Silhouette, on A4 and Letter: the printed trims (black on grey) and the SVG's cuts, each
    measured from its own registration square, agree within 0.05 mm for every part; so do the
    DXF's (it has no marks: it is centred on the page, as Studio's Center to Page puts it)."""
    parts = [trim_part(w, h, r, f"p{w:g}", count=3) for w, h, r in SIZES]
    folder = build(tmp_path, parts, "silhouette", paper)
    pdf = folder / f"test-silhouette-{paper}.pdf"
    W, H = PAPERS[paper].size
    machine = cutter("silhouette")
    sheets = lay_out(parts, machine, PAPERS[paper])
    assert sum(len(s.placed) for s in sheets) == 9
    for k, sheet in enumerate(sheets, 1):
        img = Page(pdf, k)
        sx, sy = printed_square(img)
        cuts, (cx, cy) = svg_cuts(folder / f"test-silhouette-{paper}-sheet{k}.svg")
        assert len(cuts) == len(sheet.placed)
        dxf = dxf_cuts(folder / f"test-silhouette-{paper}-sheet{k}.dxf", H)
        assert len(dxf) == len(cuts)
        for cut in cuts:
            x0, y0, x1, y1 = cut.bounds
            # The printed trim round this cut: its edges across the middle of each side.
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            left, top, right, bottom = dark_box(img, x0 - 1.5, y0 - 1.5, x1 + 1.5, y1 + 1.5, light=GREY)
            for printed, cut_at, mark, cut_mark in ((left, x0, sx, cx), (right, x1, sx, cx),
                                                    (top, y0, sy, cy), (bottom, y1, sy, cy)):
                assert abs((printed - mark) - (cut_at - cut_mark)) <= TOLERANCE, (k, cut.bounds, printed, cut_at)
            assert mx and my
            # The DXF's contour is the SVG's (arcs rebuilt), within 0.01 mm.
            twin = min(dxf, key=lambda q: q.centroid.distance(cut.centroid))
            assert cut.hausdorff_distance(twin) < 0.01
        # The DXF's cuts, centred on the page (Center to Page leaves them where they were printed).
        ex = shapely.union_all(dxf).bounds
        assert abs((ex[0] + ex[2]) / 2 - W / 2) < 0.01 and abs((ex[1] + ex[3]) / 2 - H / 2) < 0.01


def test_rounded_corners_are_cut_as_the_spec_rounds_them(tmp_path):
    """A 3 mm corner: the cut's area is the rounded rectangle's (a square corner would add
    (4 - pi) r2 each), and the DXF's corners are true arcs (bulges)."""
    folder = build(tmp_path, [trim_part(63, 88, 3.0)], "silhouette")
    cuts, _ = svg_cuts(folder / "test-silhouette-a4-sheet1.svg")
    expected = 63 * 88 - (4 - np.pi) * 9
    assert abs(cuts[0].area - expected) < 0.05
    _, entities = dxf_entities(folder / "test-silhouette-a4-sheet1.dxf")
    bulges = [b for e in entities for *_, b in polyline_vertices(e) if b]
    assert len(bulges) == 4 and all(abs(b - np.tan(np.pi / 8)) < 1e-3 for b in np.abs(bulges))


@pytest.mark.parametrize("paper", PAPERS_A4_QUICK)
def test_the_marks_are_where_silhouette_studio_looks_for_them(tmp_path, paper):
    """Type 1 marks as Studio draws them with inset 10, length 5, thickness 1: the square's
    corner at (10, 10) and 5 mm a side; the top-right L's corner at (W - 10, 10), the bottom-left's
    at (10, H - 10), each arm 5 mm, 1 mm thick, centred on the inset; on the front page only."""
    folder = build(tmp_path, [trim_part(63, 88, 3.0, back=True)], "silhouette", paper)
    pdf = folder / f"test-silhouette-{paper}.pdf"
    W, H = PAPERS[paper].size
    # The reach the profile gives for this paper is what lies within the marks.
    assert cutter("silhouette").reach[paper] == pytest.approx((10, 10, W - 20, H - 20))
    img = Page(pdf, 1)
    sx, sy = printed_square(img)
    assert abs(sx - 10) <= TOLERANCE and abs(sy - 10) <= TOLERANCE
    # The top-right L: its horizontal arm spans y 9.5..10.5 from x = W - 15 to W - 9.5.
    arm = dark_box(img, W - 14, 8.5, W - 12, 11.5, light=1.0)
    assert abs(arm[1] - 9.5) <= TOLERANCE and abs(arm[3] - 10.5) <= TOLERANCE, arm
    upright = dark_box(img, W - 11.5, 12, W - 8.5, 14, light=1.0)
    assert abs(upright[0] - (W - 10.5)) <= TOLERANCE and abs(upright[2] - (W - 9.5)) <= TOLERANCE, upright
    arm = dark_box(img, 12, H - 11.5, 14, H - 8.5, light=1.0)
    assert abs(arm[1] - (H - 10.5)) <= TOLERANCE and abs(arm[3] - (H - 9.5)) <= TOLERANCE, arm
    upright = dark_box(img, 8.5, H - 14, 11.5, H - 12, light=1.0)
    assert abs(upright[0] - 9.5) <= TOLERANCE and abs(upright[2] - 10.5) <= TOLERANCE, upright
    # Nothing else printed round the marks (their clearance), and no marks behind: the back page
    # is bare paper at every mark.
    for x0, y0, x1, y1 in cutter("silhouette").marks.zones(W, H):
        zone = img[int(y0 / PX):int(y1 / PX), int(x0 / PX):int(x1 / PX)]
        corner = zone.min() < 0.5
        assert corner == (x0 < W / 2 and y0 < H / 2 or x0 > W / 2 and y0 < H / 2 or x0 < W / 2 and y0 > H / 2)
    back = Page(pdf, 2)
    for x0, y0, x1, y1 in cutter("silhouette").marks.zones(W, H):
        assert back[int(y0 / PX):int(y1 / PX), int(x0 / PX):int(x1 / PX)].min() > 0.99


@pytest.mark.parametrize("paper", PAPERS_A4_QUICK)
def test_nothing_printed_outside_the_reach_but_the_marks_and_the_caption(tmp_path, paper):
    folder = build(tmp_path, [trim_part(63, 88, 3.0, count=8)], "silhouette", paper)
    img = Page(folder / f"test-silhouette-{paper}.pdf", 1)
    W, H = PAPERS[paper].size
    rx, ry, rw, rh = cutter("silhouette").reach[paper]
    b = cutter("silhouette").bleed
    # The page's ink but within the reach and its bleed, read in four bands round it (the reach,
    # most of the page, left unread and so unmarked).
    r0, r1 = int((ry - b) / PX), int((ry + rh + b) / PX) + 1
    c0, c1 = int((rx - b) / PX), int((rx + rw + b) / PX) + 1
    rows, cols = math.ceil(H / PX - 1e-6), math.ceil(W / PX - 1e-6)       # the page's pixels, as pdftoppm's
    inked = np.zeros((rows, cols), dtype=bool)
    for band in (np.s_[0:r0, 0:cols], np.s_[r1:rows, 0:cols], np.s_[r0:r1, 0:c0], np.s_[r0:r1, c1:cols]):
        inked[band] = img[band] < 0.97
    for x0, y0, x1, y1 in cutter("silhouette").marks.zones(W, H):
        inked[int(y0 / PX):int(y1 / PX) + 1, int(x0 / PX):int(x1 / PX) + 1] = False
    inked[int((H - 10) / PX):int((H - 5) / PX), int(40 / PX):int((W - 40) / PX)] = False     # the caption
    assert not inked.any(), np.argwhere(inked)[:5] * PX


def test_backs_lie_behind_faces_with_the_printers_offset(tmp_path):
    """Two-sided: the back page's blue bleed boxes lie where the faces' lie, mirrored across
    the long edge, shifted by the back offset."""
    folder = build(tmp_path, [trim_part(63, 88, 3.0, back=True)], "silhouette", back_offset=(1.5, -0.5))
    cuts, _ = svg_cuts(folder / "test-silhouette-a4-sheet1.svg")
    img = Page(folder / "test-silhouette-a4.pdf", 2)
    W = 210.0
    x0, y0, x1, y1 = cuts[0].bounds
    bx0, by0 = W - x1 + 1.5, y0 - 0.5                  # the trim's corner, behind, shifted
    around = (bx0 - 5, by0 - 5, bx0 + (x1 - x0) + 5, by0 + (y1 - y0) + 5)
    darkest = img[int(around[1] / PX):int(around[3] / PX), int(around[0] / PX):int(around[2] / PX)].min()
    box = dark_box(img, *around, light=1.0, dark=darkest)
    b = cutter("silhouette").bleed
    assert abs(box[0] - (bx0 - b)) < 0.1 and abs(box[1] - (by0 - b)) < 0.1, box


def test_inner_cuts_come_before_the_outline(tmp_path):
    """A part with a hole: the hole's contour is written before the outline, in both files."""
    part = trim_part(40, 40, 0.0)
    part.holes = [[("M", 15.0, 15.0), ("L", 25.0, 15.0), ("L", 25.0, 25.0), ("L", 15.0, 25.0), ("Z",)]]
    folder = build(tmp_path, [part], "silhouette")
    cuts, _ = svg_cuts(folder / "test-silhouette-a4-sheet1.svg")
    assert [round(c.area) for c in cuts] == [100, 1600]
    dxf = dxf_cuts(folder / "test-silhouette-a4-sheet1.dxf", 297.0)
    assert [round(c.area) for c in dxf] == [100, 1600]


# ---------------------------------------------------------------- the other machines

def test_cricut_picture_and_outline_share_a_frame(tmp_path):
    """The picture fits Print Then Cut's 6.75 x 9.25 in; the SVG has the picture's frame; every
    cut lies on its printed trim in the picture (from its top-left, as both import)."""
    folder = build(tmp_path, [trim_part(63, 88, 3.0, count=5)], "cricut")
    pics = sorted(folder.glob("test-cricut-sheet*.png"))
    assert len(pics) == 2
    for pic in pics:
        img = Image.open(pic)
        w_mm, h_mm = img.width * 25.4 / 300, img.height * 25.4 / 300
        assert w_mm <= 171.45 and h_mm <= 234.95
        layers = svg_layers(pic.with_suffix(".svg"))
        import xml.etree.ElementTree as ET
        vb = [float(v) for v in ET.parse(pic.with_suffix(".svg")).getroot().get("viewBox").split()]
        assert abs(vb[2] - w_mm) < 1e-6 and abs(vb[3] - h_mm) < 1e-6
        grey = np.asarray(img.convert("RGBA"), dtype=float) / 255
        lum = grey[:, :, :3].mean(axis=2) * grey[:, :, 3] + (1 - grey[:, :, 3])
        px = 25.4 / 300
        for subs in layers["CUT"]:
            cut = Polygon(subs[0][0])
            x0, y0, x1, y1 = cut.bounds
            row = lum[int((y0 + y1) / 2 / px), int((x0 - 0.8) / px):int((x0 + 0.8) / px)]
            at = int((x0 - 0.8) / px) + edge(row, 0.0, GREY)
            assert abs(at * px - x0) < 25.4 / 300, (at * px, x0)     # within a pixel at 300 dpi


def test_scanncut_outlines_are_dark_on_pale_paper(tmp_path):
    """Each part's trim carries a dark line with bare paper round it (the scanner's edge), and
    the SVG's cut is that line's middle."""
    folder = build(tmp_path, [trim_part(63, 88, 3.0, count=2)], "scanncut")
    img = Page(folder / "test-scanncut-a4.pdf")
    cuts, square = svg_cuts(folder / "test-scanncut-a4-sheet1.svg")
    assert square is None and len(cuts) == 2
    margin = cutter("scanncut").outline["margin"]
    for cut in cuts:
        x0, y0, x1, y1 = cut.bounds
        y = int((y0 + y1) / 2 / PX)
        outside = img[y, int((x0 - margin) / PX):int((x0 - 0.3) / PX)]
        assert outside.min() > 0.97                            # pale paper round the outline
        line = img[y, int((x0 - 0.2) / PX):int((x0 + 0.2) / PX)]
        assert line.max() < 0.2                                 # the dark line on the trim


# ---------------------------------------------------------------- every deck, every machine

def every_deck(paper: str) -> tuple:
    """Every deck of the five games and the starter deck, as the games declare them on the paper:
    planned once a paper for the machines' cases below (it is all their time: a layout is free),
    and once a test process for the modules that read them (tests/games_planned.py)."""
    from generator.games import GAMES
    from generator.products.contents import Deck
    return tuple(c for game in GAMES for c in games_planned.contents(game, paper) if isinstance(c, Deck))


@pytest.mark.parametrize("machine", ["silhouette", "cricut", "scanncut"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_deck_of_the_five_games_and_the_starter_lays_out(machine, paper):
    """Every deck of the five games and the starter deck, planned with --cut MACHINE on the paper:
    every card on a sheet, every sheet within the machine's reach and clear of its marks."""
    from generator.products.cut_sheets import deck_parts
    decks = every_deck(paper)
    assert sorted(d.art.stem for d in decks) == ["capitals_1961", "continuo", "count_continuo", "deck",
                                                  "mille_bornes", "mille_bornes_1961", "sorry"]
    m = cutter(machine)
    for deck in decks:
        parts = deck_parts(deck)
        sheets = lay_out(parts, m, PAPERS[paper])
        assert sum(len(s.placed) for s in sheets) == len(deck.art.expanded()), deck.art.stem
        assert all(in_reach(s, m, PAPERS[paper]) for s in sheets), deck.art.stem
        assert len(sheets[0].placed) >= 4, (deck.art.stem, len(sheets[0].placed))
        if m.picture:       # Cricut: the picture, cut down to the parts and their bleed, within its maximum
            assert all(c.width <= m.picture["width"] and c.height <= m.picture["height"]
                       for c in (cropped(s, m.bleed, m.picture["dpi"]) for s in sheets)), deck.art.stem
        if m.outline:       # ScanNCut: the pale margin round every outline lies on the printable page
            assert all(p.x - m.outline["margin"] >= PAPERS[paper].margin for s in sheets for p in s.placed)


@pytest.mark.parametrize("machine", ["silhouette", "cricut", "scanncut"])
def test_a_build_with_cut_writes_the_machines_files(tmp_path, machine):
    """`pnp build continuo --cut MACHINE`: its folder, its files, listed in the print list. (The
    command line's main() in this process, and only the home sheet's layout beside the cut files:
    the cut sheets are the same whatever the layouts; the command's process is tested elsewhere.)"""
    out = tmp_path / "out"
    r = pnp_here("build", "continuo", "--out", out, "--cut", machine, "--layout", "sheet")
    assert r.returncode == 0, r.stderr
    folder = out / "continuo" / f"cut-{machine}"
    names = sorted(p.name for p in folder.iterdir())
    kinds = {n.rsplit(".", 1)[1] for n in names}
    assert kinds == {"silhouette": {"pdf", "svg", "dxf"}, "cricut": {"png", "svg"},
                     "scanncut": {"pdf", "svg"}}[machine], names
    listed = (out / "continuo" / "README.txt").read_text(encoding="utf-8")
    assert f"cut-{machine}/" in listed


TWO_CARDS = """kind: deck
title: Mine
card: {width: 63, height: 88, bleed: 3}
tuck_box: false
palette: {ink: "#1f3a5f", paper: "#f7f1e3"}
cards: [{name: A}, {name: B}]
layouts:
  face:
    background: paper
    elements:
      - {type: text, x: 5, y: 10, w: 40, h: 8, text: "{name}", size: 12}
  back: {background: ink}
"""


def test_a_folder_remembers_its_machine(tmp_path):
    """`cut: scanncut` in pnp-settings.yaml: a build there makes the ScanNCut's sheets without
    --cut; the command line wins; calibrate --save keeps it; a machine we do not know is the
    file's error, at its line, exit 1. (A deck of two cards and no box in the folder: what its
    settings choose does not depend on the deck; the starter deck's builds took three times as long.)"""
    (tmp_path / "mine.yaml").write_text(TWO_CARDS, encoding="utf-8")
    (tmp_path / "pnp-settings.yaml").write_text("paper: letter\ncut: scanncut\n")
    r = pnp_here("build", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "deck" / "cut-scanncut" / "mine-scanncut-letter.pdf").exists()
    r = pnp_here("build", "--cut", "cricut", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "deck" / "cut-cricut" / "mine-cricut-sheet1.png").exists()
    listed = (tmp_path / "output" / "deck" / "README.txt").read_text(encoding="utf-8")
    assert "cut-cricut/" in listed and "cut-scanncut/" not in listed
    r = pnp_here("calibrate", "--back-offset", "0.5,0", "--save", cwd=tmp_path)
    assert r.returncode == 0 and "calibrate-letter-long.pdf" in r.stdout      # the duplex sheet, as ever
    assert "cut: scanncut" in (tmp_path / "pnp-settings.yaml").read_text()
    r = pnp_here("calibrate", "--cut", "silhouette", "--save", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    settings = (tmp_path / "pnp-settings.yaml").read_text()
    assert "cut: silhouette" in settings and "back_offset: [0.5, 0.0]" in settings
    (tmp_path / "pnp-settings.yaml").write_text("paper: a4\ncut: plotter\n")
    r = pnp_here("build", cwd=tmp_path)
    assert r.returncode == 1 and "pnp-settings.yaml:2: cut: expected silhouette, cricut or scanncut" in r.stderr


def test_the_cut_files_read_as_the_laser_sheets_do(tmp_path):
    """The laser sheets' import check (issue 28, tests/test_laser_sheets.py), on cut files: read by
    the same independent readers, the SVG's layers are the DXF's (the SVG's Regmarks layer aside,
    which the DXF leaves out: Studio would cut it), nothing engraved in either, the DXF's cuts the
    SVG's in the SVG's order (arcs rebuilt, within 0.01 mm), and inner cuts before outer."""
    holed = trim_part(40, 40, 2.0, "holed")
    holed.holes = [[("M", 15.0, 15.0), ("L", 25.0, 15.0), ("L", 25.0, 25.0), ("L", 15.0, 25.0), ("Z",)]]
    read = []
    for machine in ("silhouette", "scanncut", "cricut"):
        folder = build(tmp_path / machine, [trim_part(63, 88, 3.0, count=3), holed], machine)
        for svg in sorted(folder.glob("test-*.svg")):
            layers = svg_layers(svg)
            dxf = svg.with_suffix(".dxf")
            table, entities = dxf_entities(dxf) if dxf.exists() else (["ENGRAVE", "SCORE", "CUT"], [
                {"kind": "LWPOLYLINE", "layer": "CUT", "codes": [("70", "1")] + [
                    (c, str(v)) for x, y in pts for c, v in (("10", x), ("20", layers["height"] - y))]}
                for subs in layers["CUT"] for pts, _ in subs])
            assert layers["labels"] == (["Regmarks"] if machine == "silhouette" else []) + ["ENGRAVE", "SCORE", "CUT"]
            assert [t for t in table if t not in ("0", "Defpoints")] == ["ENGRAVE", "SCORE", "CUT"]
            assert svg_engraved(layers) == 0 and dxf_engraved_without_arcs(entities) == 0
            read.append((svg.name, layers, table, entities))
    assert sorted(n for n, *_ in read) == ["test-cricut-sheet1.svg", "test-scanncut-a4-sheet1.svg",
                                           "test-silhouette-a4-sheet1.svg"]
    laser_sheets.test_inner_contours_are_cut_before_the_material_round_them(read)


def test_a_part_too_large_for_the_reach_is_the_specs_error_and_a_wide_one_is_turned():
    machine, a4 = cutter("silhouette"), PAPERS["a4"]
    with pytest.raises(ValueError, match="does not fit the 190 x 277 mm a Silhouette"):
        lay_out([trim_part(200, 280, 3.0)], machine, a4)
    sheets = lay_out([trim_part(250, 60, 0.0), trim_part(30, 30, 0.0)], machine, a4)
    assert all(in_reach(s, machine, a4) for s in sheets) and sheets[0].placed[0].turned


@pytest.mark.parametrize("paper", PAPERS_A4_QUICK)
def test_the_cutter_calibration_sheet_cuts_its_printed_squares(tmp_path, paper):
    """`pnp calibrate --cut silhouette`: a PDF with the marks and two targets, and beside it the
    cut files cutting each target's square where it is printed (its hairline edge), measured from
    the marks; the scales' zero ticks lie on the square's edges. The Cricut has Design Space's."""
    r = pnp_here("calibrate", "--cut", "silhouette", "--paper", paper, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    pdf = tmp_path / "output" / f"cutter-calibration-silhouette-{paper}.pdf"
    assert r.stdout.split() == [f"output/{pdf.name}", f"output/{pdf.stem}.svg", f"output/{pdf.stem}.dxf"]
    img = Page(pdf)
    sx, sy = printed_square(img)
    cuts, (cx, cy) = svg_cuts(pdf.with_suffix(".svg"))
    W, H = PAPERS[paper].size
    assert len(cuts) == 2 and len(dxf_cuts(pdf.with_suffix(".dxf"), H)) == 2
    for cut in cuts:
        x0, y0, x1, y1 = cut.bounds
        assert abs(x1 - x0 - 40) < 0.01
        # The printed edge: a dark hairline across the column at the square's three-quarter point.
        col = img[int((y0 - 1) / PX):int((y0 + 1) / PX), int((x0 + 30) / PX)]
        dark = np.argwhere(col < 0.5).ravel()
        printed = (int((y0 - 1) / PX) + dark.mean() + 0.5) * PX
        assert abs((printed - sy) - (y0 - cy)) <= TOLERANCE, (printed, y0)
    r = pnp_here("calibrate", "--cut", "cricut", cwd=tmp_path)
    assert r.returncode == 2 and "Design Space calibrates Print Then Cut itself" in r.stderr
