"""Print details measured on what a build makes: the smallest text on every page of every PDF, the
large-format boards' boxes and bleed, the numerals' contrast with their fields."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, drawn_items
from pdf_text import IDENTITY, page_text_sizes
from generator.units import PT_PER_MM

MIN_TEXT_PT = 6.0       # nothing smaller than this is printed anywhere
BOARD_BLEED_MM = 3.0    # a large-format board's bleed, as a card's


def all_pdfs(output: Path) -> list[Path]:
    return sorted(output.rglob("*.pdf"))


def test_the_measure_sees_forms_and_transforms(tmp_path):
    """The measure itself: text drawn in a face (a form) scaled on the page, and rotated."""
    from generator.colour import BLACK
    from generator.draw import Drawing, compose, rotate, scale, translate
    from generator.draw.pdf import PdfDocument
    face = Drawing(20, 20)
    face.text(1, 10, "small", 10 / PT_PER_MM, BLACK)          # 10 pt in the face
    page = Drawing(100, 100)
    page.place(face, compose(translate(10, 10), scale(0.5)))    # shown at 5 pt
    page.place(face, compose(translate(50, 50), rotate(90)))     # turned: still 10 pt
    page.text(5, 90, "big", 12 / PT_PER_MM, BLACK)
    doc = PdfDocument(str(tmp_path / "t.pdf"))
    doc.add_page(page)
    doc.save()
    sizes = sorted(round(s, 3) for _, s, _ in page_text_sizes(tmp_path / "t.pdf"))
    assert sizes == [5.0, 10.0, 12.0]


def test_the_measure_keeps_the_text_state_across_q_and_q(tmp_path):
    """The font size is part of the graphics state: a Q brings back the size before its q."""
    from pdf_text import text_runs
    runs: list = []
    text_runs(b"BT /F1 4 Tf ET q BT /F1 12 Tf ET Q BT (x) Tj ET", None, IDENTITY, {}, runs)
    assert runs == [(4.0, "x")]


def test_the_measures_tokenizer_reads_what_pypdf_reads(output):
    """The content-stream tokenizer behind the measure agrees with pypdf's own parser, operation
    by operation, on a real card sheet (its page and its nine card faces, which are forms)."""
    from pypdf.generic import ContentStream

    from pdf_text import PLACING, operations

    def plain(v):
        if isinstance(v, list):
            return [plain(x) for x in v]
        if isinstance(v, bytes):
            return v.decode("latin-1")
        return v if isinstance(v, str) else float(v)
    reader = PdfReader(output / "capitals" / "capitals_1961-shop.pdf")
    page = reader.pages[0]
    streams = [page.get_contents()] + [x.get_object() for x in page["/Resources"]["/XObject"].values()]
    compared = 0
    for stream in streams:
        ours = [(op, plain(operands)) for operands, op in operations(stream.get_data())]
        theirs = [(op, plain(operands)) for operands, op in ContentStream(stream, reader).operations if op in PLACING]
        assert ours == theirs
        compared += len(ours)
    assert compared > 100


def test_the_measures_tokenizer_reads_the_whole_syntax():
    from pdf_text import PdfSyntaxError, operations
    stream = (b"% a comment (not a string\n"
              b"q 1 0 0 1 5 -6.5 cm /GS1 gs [3 2] 0 d 0 0 m 10 10 l S\n"
              b"BT /F1 12 Tf (a (nested) \\) string\\n\\101) Tj [(kern) -120 <48 49>] TJ ET\n"
              b"BI /W 2 /H 1 /BPC 8 /CS /G ID \x00Q)(\xff EI Q /Tx <</MCID 3>> BDC EMC true false null (x) Tj")
    ops = list(operations(stream))
    assert [op for _, op in ops] == [b"q", b"cm", b"BT", b"Tf", b"Tj", b"TJ", b"Q", b"Tj"]
    assert ops[1][0] == [1.0, 0.0, 0.0, 1.0, 5.0, -6.5]
    assert ops[3][0] == ["/F1", 12.0]
    assert ops[4][0] == [b"a (nested) ) string\nA"]
    assert ops[5][0] == [[b"kern", -120.0, b"HI"]]
    assert ops[7][0] == ["true", "false", "null", b"x"]     # what the operations read past left nothing
    assert [ops[0] for ops, _ in operations(b"(\\8\\\r\nx\\\ny) Tj")] == [b"8xy"]
    for broken in (b"(no end Tj", b"[1 2 ] ]", b"[1 q]", b"BI ID xx", b"(ends in \\"):
        with pytest.raises(PdfSyntaxError):
            list(operations(broken))


def test_no_text_under_6_pt_in_any_pdf(output):
    pdfs = all_pdfs(output)
    assert len(pdfs) >= 15, "the build made fewer PDFs than expected"
    small = []
    for pdf in pdfs:
        sizes = page_text_sizes(pdf)
        assert sizes, f"{pdf.name}: no text found (is the measure blind?)"
        for page, size, text in sizes:
            if size < MIN_TEXT_PT - 1e-6:
                small.append(f"{pdf.relative_to(output)} p{page}: {size:.2f} pt {text[:40]!r}")
    assert not small, f"{len(small)} strings under {MIN_TEXT_PT} pt:\n" + "\n".join(sorted(set(small))[:40])


def home_pdfs(output: Path) -> list[Path]:
    """Every PDF a build makes for printing at home (its print list's "Print at home": the manifest
    keeps what each product says of itself), and every print list."""
    import json

    from generator.products.print_list import PDF_NAME, group_of
    jobs = json.loads((output / ".pnp-build.json").read_text())["jobs"].values()
    found = {output / rel for job in jobs for rel, info in job["info"].items()
             if rel.endswith(".pdf") and group_of(info) == "home"}
    return sorted(found | set(output.rglob(PDF_NAME)))


EDGE_MM = 5.0       # blank paper at every edge of a home-printed page
SLACK_MM = 0.15     # the bbox device's box round text runs up to 0.13 mm past its ink (a caption set at
                    # 5.00 mm reads 4.87 mm; a raster at 600 dpi finds its ink at 5.12 mm)


def ink_near_edges(pdfs: list[Path]) -> dict[Path, list[tuple[int, float]]]:
    """For each PDF, (page, mm from the nearest edge to the nearest mark) of every page that marks
    the paper within EDGE_MM of an edge. The marks' extent is Ghostscript's (its bbox device: every
    painted area, strokes at their width, inside its clip, found at 600 dpi: to 0.04 mm), against
    the page's MediaBox; a raster of every page at a resolution fine enough took 15 times as long.
    One Ghostscript reads them all, one after another (a Ghostscript a file took four times the
    CPU, most of it starting): its boxes, a page each in order, are dealt out by the files' pages."""
    import re
    import subprocess

    from conftest import need
    run = subprocess.run([need("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-r600", "-sDEVICE=bbox",
                          *map(str, pdfs)], capture_output=True, text=True, check=True)
    boxes = [tuple(map(float, m.groups())) for m in
             re.finditer(r"%%HiResBoundingBox: ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)", run.stderr)]
    pages = {pdf: PdfReader(pdf).pages for pdf in pdfs}
    assert len(boxes) == sum(len(p) for p in pages.values()), \
        f"{len(boxes)} boxes for {sum(len(p) for p in pages.values())} pages of {len(pdfs)} PDFs"
    near: dict[Path, list[tuple[int, float]]] = {}
    at = 0
    for pdf in pdfs:
        near[pdf] = []
        for n, page in enumerate(pages[pdf], 1):
            x0, y0, x1, y1 = boxes[at]
            at += 1
            if x1 <= x0 or y1 <= y0:
                continue                                   # a blank page
            mx0, my0, mx1, my1 = (float(v) for v in page.mediabox)
            closest = min(x0 - mx0, y0 - my0, mx1 - x1, my1 - y1) / PT_PER_MM
            if closest < EDGE_MM - SLACK_MM:
                near[pdf].append((n, round(closest, 2)))
    return near


def test_the_edge_measure_sees_a_mark_inside_5_mm(tmp_path):
    """The measure itself: a hairline 4.8 mm from the right edge is seen, one 5.1 mm off is not,
    nor white paper; a mark clipped away is not a mark."""
    from generator.colour import BLACK
    from generator.draw import Drawing, Rect, Style
    from generator.draw.pdf import PdfDocument
    doc = PdfDocument(str(tmp_path / "t.pdf"))
    for x in (210 - 4.8, 210 - 5.1):
        page = Drawing(210, 297)
        page.line(x, 100, x, 200, Style(stroke=BLACK, width=0.05))
        doc.add_page(page)
    page = Drawing(210, 297)
    with page.group(clip=Rect(10, 10, 100, 100, Style())):
        page.rect(0, 0, 210, 297, Style(fill=BLACK))
    doc.add_page(page)
    doc.add_page(Drawing(210, 297))
    doc.save()
    # A second file after it, of one page marked 4 mm from its top, the first blank: each file's
    # pages are told apart in the one Ghostscript run.
    doc = PdfDocument(str(tmp_path / "u.pdf"))
    doc.add_page(Drawing(210, 297))
    page = Drawing(210, 297)
    page.line(50, 297 - 4, 100, 297 - 4, Style(stroke=BLACK, width=0.05))
    doc.add_page(page)
    doc.save()
    assert ink_near_edges([tmp_path / "t.pdf", tmp_path / "u.pdf"]) == {
        tmp_path / "t.pdf": [(1, pytest.approx(4.775, abs=0.05))], tmp_path / "u.pdf": [(2, pytest.approx(3.975, abs=0.05))]}


@pytest.fixture(scope="module")
def home_letter(tmp_path_factory):
    """Every game built with --paper letter (`pnp build`, in this process), making only the
    products that print at home: not a print shop's, nor the previews, nor the laser kits (cut from
    sheet stock, never printed on paper). Each product makes its own files, so the home files are
    those of a whole Letter build, in half its time; the print lists list fewer files (laid out by
    the same code: the A4 build's lists are whole). test_every_home_print_file_follows_the_paper
    checks that it made every home file the whole A4 build makes."""
    import generator.products as products
    from fuzzing import run_cli
    from generator.products.print_list import group_of
    every = products.products()
    away = {p.name for p in every if group_of(dict(p.entry)) in ("shop", "preview")} | {"laser-kit"}
    out = tmp_path_factory.mktemp("letter") / "output"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(products, "products", lambda: tuple(p for p in every if p.name not in away))
        code, _, err, _ = run_cli(["build", "--paper", "letter", "--out", out], ROOT)
    assert code == 0, err
    return out


def build_of(paper: str, output: Path, request) -> Path:
    """The run's one A4 build, or the Letter build of home files."""
    return output if paper == "a4" else request.getfixturevalue("home_letter")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_printed_within_5_mm_of_a_home_page_edge(paper, output, request):
    """Every page of every PDF printed at home keeps 5 mm of blank paper at its edges (what home
    printers cannot print, and what lets a page print at 100 %), in an A4 and a Letter build."""
    out = build_of(paper, output, request)
    pdfs = home_pdfs(out)
    assert len(pdfs) >= 20, [p.name for p in pdfs]
    near = [f"{pdf.relative_to(out)} p{page}: ink {mm} mm from the edge"
            for pdf, pages in ink_near_edges(pdfs).items() for page, mm in pages]
    assert not near, "\n".join(near)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_home_print_file_follows_the_paper(paper, output, request):
    """Every file printed at home is laid out on the build's paper: named for it, said so in the
    print list, and every page that size (portrait or landscape). The Letter build's home files are
    the A4 build's, each named for Letter."""
    out = build_of(paper, output, request)
    if paper == "letter":
        a4 = {str(p.relative_to(output)).replace("-a4.pdf", "-letter.pdf") for p in home_pdfs(output)}
        assert {str(p.relative_to(out)) for p in home_pdfs(out)} == a4
    from generator.paper import PAPERS
    size = sorted(round(v * PT_PER_MM, 1) for v in PAPERS[paper].size)
    wrong = []
    for pdf in home_pdfs(out):
        if pdf.name != "print-list.pdf" and not pdf.name.endswith(f"-{paper}.pdf"):
            wrong.append(f"{pdf.name}: not named for {paper}")
        for n, page in enumerate(PdfReader(pdf).pages, 1):
            box = sorted(round(float(v), 1) for v in (page.mediabox.width, page.mediabox.height))
            if box != size:
                wrong.append(f"{pdf.name} p{n}: {box} pt")
    for readme in out.rglob("README.txt"):
        other = "A4" if paper == "letter" else "Letter"
        if f"print on {other} " in readme.read_text():
            wrong.append(f"{readme.relative_to(out)}: says print on {other}")
    assert not wrong, "\n".join(wrong)


def _box(b):
    return [float(v) for v in b]


def board_pdfs(output) -> list:
    """The boards for a print shop: each whole on a large page, and the Capitals map's halves."""
    return sorted(output.rglob("*-large.pdf")) + sorted(output.rglob("*-halves-*.pdf"))


def test_large_boards_have_bleed_trim_and_bleed_boxes(output):
    """Every page of a board for a print shop: its BleedBox is its TrimBox and the bleed all
    round (the Capitals halves' was the whole A2 page), within the page; a large page is its
    BleedBox."""
    pdfs = board_pdfs(output)
    assert len(pdfs) >= 5 and any("halves" in p.name for p in pdfs)
    k = PT_PER_MM
    for pdf in pdfs:
        for page in PdfReader(pdf).pages:
            tx0, ty0, tx1, ty1 = _box(page.trimbox)
            bx0, by0, bx1, by1 = _box(page.bleedbox)
            assert (tx0 - bx0, ty0 - by0, bx1 - tx1, by1 - ty1) == pytest.approx([BOARD_BLEED_MM * k] * 4,
                                                                                 abs=0.01), pdf.name
            mx0, my0, mx1, my1 = _box(page.mediabox)
            assert mx0 <= bx0 and my0 <= by0 and bx1 <= mx1 and by1 <= my1, pdf.name
            if pdf.name.endswith("-large.pdf"):
                assert [mx0, my0, mx1, my1] == pytest.approx([bx0, by0, bx1, by1], abs=0.01), pdf.name


def test_large_boards_art_runs_into_the_bleed(output, tmp_path):
    """The BleedBox holds art: each strip of bleed, read from the page at its BleedBox, looks
    like the strip of board just inside the trim (a white bleed round a tinted board would show
    at a cut; the Capitals halves' art stopped at the trim)."""
    import subprocess

    import numpy as np
    from PIL import Image

    from conftest import need
    dpi = 60
    px = dpi / 25.4
    b = BOARD_BLEED_MM * px
    outer, inner = int(b * 0.5), int(b + 0.8 * px)       # a pixel in the bleed, one inside the trim
    lo = int(b + 4 * px)                                   # along each edge, away from the corners
    k = inner + 1                                          # the band along each edge that holds both

    def band(pdf, n, x, y, w, h, name):
        """The page's pixels at dpi in the box x, y, w, h (from its top-left): poppler renders only
        that band of the page, the same pixels as the whole page's (a third of the CPU)."""
        stem = tmp_path / f"{pdf.stem}-{n}-{name}"
        subprocess.run([need("pdftoppm"), "-r", str(dpi), "-png", "-singlefile", "-f", str(n), "-l", str(n),
                        "-x", str(x), "-y", str(y), "-W", str(w), "-H", str(h), str(pdf), str(stem)], check=True)
        return np.asarray(Image.open(f"{stem}.png").convert("RGB"), dtype=float)
    for pdf in board_pdfs(output):
        for n, page in enumerate(PdfReader(pdf).pages, 1):
            # The page cut to its BleedBox (from the top-left, in pixels at dpi): a band along each edge.
            bx0, by0, bx1, by1 = _box(page.bleedbox)
            top = float(page.mediabox[3]) - by1
            x, y, w, h = (round(v / 72 * dpi) for v in (bx0, top, bx1 - bx0, by1 - by0))
            left, right = band(pdf, n, x, y, k, h, "left"), band(pdf, n, x + w - k, y, k, h, "right")
            upper, lower = band(pdf, n, x, y, w, k, "top"), band(pdf, n, x, y + h - k, w, k, "bottom")
            assert left.shape[:2] == right.shape[:2] == (h, k) and upper.shape[:2] == lower.shape[:2] == (k, w)
            strips = [(left[lo:h - lo, outer], left[lo:h - lo, inner]),
                      (right[lo:h - lo, k - 1 - outer], right[lo:h - lo, k - 1 - inner]),
                      (upper[outer, lo:w - lo], upper[inner, lo:w - lo]),
                      (lower[k - 1 - outer, lo:w - lo], lower[k - 1 - inner, lo:w - lo])]
            # Where the Capitals halves meet, the map goes on past the trim: there the bleed is
            # the other half's art, not the edge carried on, and never the blank page.
            join = {1: "right", 2: "left"}.get(n) if "-halves-" in pdf.name else None
            for side, (bleed, edge) in zip(("left", "right", "top", "bottom"), strips):
                if side == join:
                    assert (255 - bleed).mean() > 20, f"{pdf.name} p{n}: the join's bleed is blank"
                    continue
                assert np.abs(bleed - edge).mean() < 6, f"{pdf.name} p{n}: the {side} bleed does not carry the " \
                                                        "board's edge on"


def _inside(item, m, x, y) -> bool:
    """Whether the page point (x, y) lies in a filled Rect or Ellipse drawn under transform m
    (translations and quarter turns: enough for card faces)."""
    from generator.draw import Ellipse, Rect
    a, b, c, d, e, f = m
    det = a * d - b * c
    u, v = ((x - e) * d - (y - f) * c) / det, ((y - f) * a - (x - e) * b) / det
    if isinstance(item, Rect):
        return item.x <= u <= item.x + item.w and item.y <= v <= item.y + item.h
    if isinstance(item, Ellipse):
        return ((u - item.cx) / item.rx) ** 2 + ((v - item.cy) / item.ry) ** 2 <= 1
    return False


@pytest.mark.parametrize("spec", ["decks/continuo.yaml", "decks/count_continuo.yaml"])
def test_every_numeral_stands_out_from_its_field(spec):
    """Count continuo's numbers, and every tile's own number: each colour's ink against its field,
    from the palette (WCAG 2 contrast, at least 4.5:1), and on the faces as drawn: every number
    against what lies under its middle (the last filled shape drawn there before it)."""
    from generator.colour import contrast_ratio
    from generator.draw import Ellipse, Rect, Text, apply
    from generator.games.continuo.deck import load_deck
    from generator.games.continuo.faces import draw_example, draw_tile
    from generator.spec import load_spec
    deck = load_deck(load_spec(ROOT / spec))
    for c in deck.colours.values():
        assert contrast_ratio(c.ink, c.colour) >= 4.5, f"{c.name}: {contrast_ratio(c.ink, c.colour):.2f}:1"
    from generator.games.continuo.faces import NUMBER
    fields = {c.colour for c in deck.colours.values()}
    in_compartments = tile_numbers = 0
    for face in [draw_tile(deck, i, t) for i, t in enumerate(deck.tiles, 1)] + [draw_example(deck)]:
        drawn = []
        for it, m in drawn_items(face.root):
            if isinstance(it, (Rect, Ellipse)) and it.style.fill is not None:
                drawn.append((it, m))
            elif isinstance(it, Text) and any(ch.isdigit() for ch in it.text):
                x, y = apply(m, it.x + it.font.width(it.text, it.size) / 2, it.y - it.size * it.font.cap_height / 2)
                under = [shape for shape, sm in drawn if _inside(shape, sm, x, y)][-1]
                ratio = contrast_ratio(it.fill, under.style.fill)
                assert ratio >= 4.5, f"{it.text!r} in {it.fill.hex()} on {under.style.fill.hex()}: {ratio:.2f}:1"
                # A tile's own number (small, in its top-left compartment) or a Count continuo numeral.
                small = it.size == NUMBER
                tile_numbers += small and under.style.fill in fields
                in_compartments += not small and under.style.fill in fields
    assert (in_compartments > 0) == (deck.variant == "count-continuo")
    assert tile_numbers == len(deck.tiles)


def test_a_numeral_ink_that_would_not_show_is_refused(tmp_path):
    from generator.errors import SpecError
    from generator.games.continuo.deck import load_deck
    from generator.spec import load_spec
    text = (ROOT / "decks" / "continuo.yaml").read_text()
    bad = text.replace('number: 4, ink: "#101010"', 'number: 4, ink: "#ffffff"')
    assert bad != text
    (tmp_path / "continuo.yaml").write_text(bad)
    with pytest.raises(SpecError) as err:
        load_deck(load_spec(tmp_path / "continuo.yaml"))
    line = next(i for i, l in enumerate(bad.splitlines(), 1) if 'ink: "#ffffff"}' in l and "yellow" in l)
    assert f":{line}: colours.Y.ink: " in str(err.value) and "contrast of 1.7:1" in str(err.value)


def test_capitals_map_names_are_6_pt_and_clear_of_each_other():
    """Every capital's name on the map at the board's label size (6 pt or more), none touching
    another name or any marker, each within reach of its own marker."""
    from generator.games.capitals.board import marker_places, place_labels
    from generator.games.capitals.data import load_board
    from generator.spec import load_spec
    wm = load_board(load_spec(ROOT / "boards" / "capitals_world_map.yaml"))
    assert wm.label_size * 72 / 25.4 >= MIN_TEXT_PT
    markers = [(c, mx, my, r, where) for (row, col), sites in sorted(wm.sites.items())
               for c, (mx, my, r, where) in zip(sites, marker_places(wm, row, col, sites))]
    labels = place_labels(wm, markers)
    assert len(labels) == len(markers) == 117

    def apart(a, b):
        return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert apart(a.box, b.box), f"{a.text} and {b.text} overlap"
        for c, mx, my, r, _ in markers:
            assert apart(a.box, (mx - r, my - r, mx + r, my + r)), f"{a.text} covers the marker of {c.capital}"
    for label, (c, mx, my, r, _) in zip(labels, markers):
        nx, ny = min(max(mx, label.box[0]), label.box[2]), min(max(my, label.box[1]), label.box[3])
        assert math.hypot(nx - mx, ny - my) <= r + 13, f"{c.capital}'s name is far from its marker"


# Flags whose emblem was once a plain disc or bar: each now draws it (path, wreath or taeguk).
EMBLEMS = ["Afghanistan", "Albania", "Bhutan", "Bulgaria", "Canada", "Ceylon", "Ecuador", "Germany, East",
           "Guatemala", "Iran", "Korea, South", "Laos", "Lebanon", "Liechtenstein", "Mexico", "Mongolia",
           "Portugal", "Rumania", "Saudi Arabia", "U.S.S.R.", "United Nations", "Vatican City", "Yemen"]


def test_capitals_flags_draw_their_emblems():
    from generator.games.capitals.data import load_deck
    from generator.games.capitals.flags import VOCABULARY
    from generator.spec import load_spec
    deck = load_deck(load_spec(ROOT / "decks" / "capitals_1961.yaml"), None)
    by_name = {c.name: c for c in deck.countries}
    for name in EMBLEMS:
        shapes = [next(k for k in el if k in VOCABULARY) for el in by_name[name].flag]
        assert {"path", "wreath", "taeguk"} & set(shapes), f"{name}: no emblem drawn"
    for c in deck.countries:   # no note still says an emblem is a stand-in disc or bar
        assert "drawn as a" not in (c.note or ""), f"{c.name}: {c.note}"


@pytest.mark.parametrize("element, field, message", [
    ('{path: white, d: "M0 0 X 5", x: 0.5, y: 0.5, size: 0.3}', "d", "a path holds only"),
    ('{path: white, d: "L0 0 5 5", x: 0.5, y: 0.5, size: 0.3}', "d", "starts with M"),
    ('{wreath: white, x: 0.5, y: 0.5, r: 0.3, leaves: 5000}', "leaves", "a whole number from 1 to 60"),
    ('{path: white, d: "M0 0 L5 5", x: 0.5, y: 1.0e+9, size: 0.3}', "y", "numbers from"),
    ('{path: white, d: "M0 0 L5 5", x: 0.5, y: "high", size: 0.3}', "y", "a number"),
    ('{path: white, d: "M0 0 L5 5", x: 0.5, y: 0.5, size: 0.3, mirror: "yes"}', "mirror", "true or false"),
])
def test_a_bad_emblem_is_a_spec_error_at_its_line(tmp_path, element, field, message):
    import shutil
    from generator.errors import SpecError
    from generator.games.capitals.data import load_deck
    from generator.spec import load_spec
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    (tmp_path / "decks").mkdir()
    text = (ROOT / "decks" / "capitals_1961.yaml").read_text()
    old = "flag: [{hbands: [red, white, red]}]}"       # Austria's
    assert old in text
    # The deck up to Austria's entry (its entities the last key): its flags are checked in the
    # entities' order, so the error is the same as in the whole deck, read in a fifth of the time.
    text = text[:text.index(old) + len(old) + 1]
    bad = text.replace(old, f"flag: [{{hbands: [red, white, red]}},\n            {element}]}}", 1)
    (tmp_path / "decks" / "capitals_1961.yaml").write_text(bad)
    with pytest.raises(SpecError) as err:
        load_deck(load_spec(tmp_path / "decks" / "capitals_1961.yaml"), None)
    line = bad.splitlines().index(f"            {element}]}}") + 1
    assert f":{line}: " in str(err.value) and f".flag[1].{field}: " in str(err.value) and message in str(err.value)


def test_capitals_name_clears_the_word_under_it():
    """On every card the capital's lowest point (the J of REYKJAVIK) stays above "CAPITAL"."""
    from generator.draw import Text
    from generator.games.capitals.data import load_deck
    from generator.games.capitals.faces import _descent, draw_face
    from generator.spec import load_spec
    deck = load_deck(load_spec(ROOT / "decks" / "capitals_1961.yaml"), None)
    for c in deck.countries:
        texts = [it for it, _ in drawn_items(draw_face(deck, c).root) if isinstance(it, Text)]
        name = next(t for t in texts if t.text == c.capital.upper())
        label = next(t for t in texts if t.text == "CAPITAL")
        lowest = name.y + _descent(name.text, "sans-bold", name.size)
        assert label.y - label.size * label.font.cap_height - lowest >= 0.3, c.capital


def _wheel_bottoms_and_road(symbol):
    """The lowest points of a symbol's wheels (black discs) and the top of its road line."""
    from generator.draw import Drawing, Ellipse, Path, apply
    from generator.games.mille_bornes.deck import load_deck
    from generator.games.mille_bornes.symbols import SYMBOLS
    from generator.spec import load_spec
    pal = load_deck(load_spec(ROOT / "decks" / "mille_bornes.yaml")).palette
    d = Drawing(100, 100)
    SYMBOLS[symbol](d, pal, pal["white"])
    bottoms, road = [], None
    for it, m in drawn_items(d.root):
        if isinstance(it, Ellipse) and it.style.fill == pal["black"] and it.rx > 3:
            k = math.hypot(m[0], m[1])
            bottoms.append(apply(m, it.cx, it.cy)[1] + it.rx * k)
        elif isinstance(it, Path) and it.style.stroke == pal["grey"] and len(it.ops) == 2 and \
                it.ops[0][2] == it.ops[1][2] and it.ops[1][1] - it.ops[0][1] > 80:
            road = it.ops[0][2] - it.style.width / 2
    return sorted(bottoms), road


@pytest.mark.parametrize("symbol", ["priority-vehicle", "police-car", "ambulance", "fire-engine",
                                    "breakdown-truck", "garbage-truck", "crash"])
def test_mille_bornes_vehicles_stand_on_the_road(symbol):
    bottoms, road = _wheel_bottoms_and_road(symbol)
    assert road is not None and len(bottoms) >= 2
    assert all(b <= road + 1.0 for b in bottoms), f"a wheel sinks through the road: {bottoms} vs {road}"
    # Two wheels at least touch the road (in the crash, each car's back wheel).
    assert sum(1 for b in bottoms if abs(b - road) <= 1.0) >= 2, f"wheels {bottoms} float over the road at {road}"


def test_sorry_faces_use_their_height():
    """The marking large (a cap height of 20 mm or more) and the rule set at 7.4 pt or more in the
    lower half of the card: the face is legible across a table, its bottom not left empty."""
    from generator.draw import Text
    from generator.games.sorry.deck import draw_face, load_deck
    from generator.spec import load_spec
    deck = load_deck(load_spec(ROOT / "decks" / "sorry.yaml"))
    H = deck.size.height
    for card in deck.cards:
        texts = [it for it, m in drawn_items(draw_face(deck, card).root) if isinstance(it, Text) and m == IDENTITY]
        big = max(texts, key=lambda t: t.size)
        assert big.size * big.font.cap_height >= (20 if card["marking"] != "Sorry" else 8)
        rule = [t for t in texts if t.size < 5 and t.y > H / 2]
        assert rule and min(t.size for t in rule) * 72 / 25.4 >= 7.4
        assert max(t.y for t in rule) > 0.75 * H, f"{card['marking']}: the rule leaves the bottom empty"


# ---------------------------------------------------------------- text too long for its place

LONG = "A" * 40
LONGER = " ".join(["Lengthy"] * 10)          # 79 characters, in words (the back title's two lines)


@pytest.mark.parametrize("spec, old, new, field", [
    ("decks/continuo.yaml", "title: CONTINUO}", f"title: {LONG}}}", "back.title"),
    ("decks/continuo.yaml", "title: CONTINUO}", f"title: {LONGER}}}", "back.title"),
    ("decks/count_continuo.yaml", "title: COUNT CONTINUO}", f"title: {LONGER}}}", "back.title"),
    ("decks/mille_bornes.yaml", "  title: MILLE BORNES", f"  title: {LONG}", "back.title"),
    ("decks/mille_bornes.yaml", 'subtitle: "1000 miles"', f"subtitle: {LONGER}", "back.subtitle"),
    ("decks/sorry.yaml", "title: SORRY}", f"title: {LONG}}}", "back.title"),
    ("boards/sorry.yaml", "\ntitle: Sorry\n", f"\ntitle: Sorry {LONGER}\n", "title"),       # the board
    ("decks/capitals_1961.yaml", "title: CAPITALS,", f"title: {LONG},", "back.title"),
])
def test_text_that_would_print_under_6_pt_is_a_spec_error_at_its_line(tmp_path, spec, old, new, field):
    """A 40-character card back title once printed at 5.3 pt, an 80-character one at 2.6 pt, a long
    deck title on its tuck box at 2.1 pt, all with exit 0. Text set smaller to fit its place is
    sized in one helper, which refuses under 6 pt: `validate` and `build` name the field and its
    line; nothing is written. (A tuck box's texts are cut short instead: test_open_tool.)"""
    import shutil
    from fuzzing import run_cli, tree
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    text = (tmp_path / spec).read_text()
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    (tmp_path / spec).write_text(text)
    line = text[:text.index(new.strip())].count("\n") + 1
    code, _, err, _ = run_cli(["validate", spec], tmp_path)
    assert code == 1 and err.startswith(f"{spec}:{line}: {field}: ") and "under 6 pt" in err, err
    assert len(err.strip().splitlines()) == 1, err
    if spec == "boards/sorry.yaml" and field == "title":    # (a build plans as validate does: once will do)
        code, out, err2, _ = run_cli(["build", spec, "--out", tmp_path / "out"], tmp_path)
        assert code == 1 and f"{spec}:{line}: {field}: " in err2 and not out and not (tmp_path / "out").exists(), err2


def test_fit_size_is_never_under_6_pt_and_always_fits():
    """Random texts and boxes: the size fits the box (width and capitals), is at most max_size, and
    is 6 pt or more, or the text is refused."""
    import random
    from generator.draw.drawing import MIN_TEXT, TextTooSmall, fit_size
    from generator.draw.fonts import get_font
    rng = random.Random(24)
    refused = fitted = 0
    for _ in range(2000):
        font = get_font(rng.choice(["sans", "sans-bold"]))
        text = "".join(rng.choice("Wil1 .MÉ") for _ in range(rng.randint(1, 90)))
        width, cap, most = rng.uniform(2, 150), rng.uniform(0.5, 12), rng.choice([None, rng.uniform(1, 10)])
        try:
            size = fit_size(text, font, width, cap, most)
        except TextTooSmall as exc:
            assert exc.size < MIN_TEXT and "under 6 pt" in str(exc)
            refused += 1
            continue
        fitted += 1
        assert size >= MIN_TEXT - 1e-12 and font.width(text, size) <= width + 1e-9
        assert font.cap_height * size <= cap + 1e-9 and (most is None or size <= most + 1e-12)
    assert refused > 100 and fitted > 100, (refused, fitted)
    from generator.draw.fonts import MissingLetter     # a letter the font lacks: refused, never a "?"
    with pytest.raises(MissingLetter, match="U\\+1F600"):
        fit_size("Wil 😀", get_font("sans"), 50, 5)


def test_a_screen_drawing_sets_long_names_small_rather_than_refuse():
    """A game's position is drawn for a phone, which zooms: a long player name is set small there
    (the referee took the name; the page must still show the game)."""
    from generator.games.mille_bornes.referee import REFEREE
    from generator.games.mille_bornes.position import draw_position
    state = REFEREE.new_game({"game": "mille-bornes", "players": ["W" * 200, "Bob"]}, None)
    drawing = draw_position(state)
    assert drawing.least_text == 0.0
    sizes = []

    def walk(group):
        for item in group.items:
            if hasattr(item, "items"):
                walk(item)
            elif getattr(item, "text", None) == "W" * 200:
                sizes.append(item.size)
    walk(drawing.root)
    assert sizes and max(sizes) < 1.0       # (mm: about 2.5 pt, for a screen to zoom)


def test_a_deck_title_too_long_for_its_tuck_box_is_cut_short_at_6_pt_or_more(tmp_path):
    """A user's long deck title no longer fails the build on its tuck box (issue 32 item 9): the box
    sets it cut short with an ellipsis, never under 6 pt, and the full title stays in the box's
    instructions."""
    from conftest import build_product
    from pdf_text import page_text_sizes
    spec = tmp_path / "sorry.yaml"
    spec.write_text((ROOT / "decks" / "sorry.yaml").read_text().replace("\ntitle: Sorry\n", f"\ntitle: Sorry {LONGER}\n", 1))
    assert LONGER in spec.read_text()
    made = build_product(tmp_path / "out", "sorry", str(spec), "tuck-box")      # (its tuck box alone)
    runs = page_text_sizes(made / "sorry-tuckbox-a4.pdf")
    assert runs and min(size for _, size, _ in runs) >= 6.0, min(runs, key=lambda r: r[1])
    shown = [text for _, _, text in runs]
    full = f"Sorry {LONGER}"
    # Cut short: its start, then the ellipsis (so no longer the start of the title: the instructions'
    # lines, the title wrapped whole, are)
    assert any(text.startswith("Sorry Lengthy") and not full.startswith(text) for text in shown), shown
    assert LONGER.split()[-1] in " ".join(shown)        # the whole title, in the instructions
