"""Print details measured on what a build makes: the smallest text on every page of every PDF, the
large-format boards' boxes and bleed, the numerals' contrast with their fields."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from conftest import ROOT
from generator.units import PT_PER_MM

MIN_TEXT_PT = 6.0       # nothing smaller than this is printed anywhere
BOARD_BLEED_MM = 3.0    # a large-format board's bleed, as a card's
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _then(m, n):
    """PDF matrices: m applied first, then n."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _matrix(operands):
    return tuple(float(v) for v in operands)


def _shown(operand) -> str:
    if isinstance(operand, list):
        return "".join(str(x) for x in operand if not isinstance(x, (int, float)))
    return str(operand)


def text_runs(reader: PdfReader, stream, resources, ctm, cache: dict, out: list) -> None:
    """Every string a content stream shows, as (size in pt on the page, text): the Tf size times
    the scale of the text matrix and the current transformation matrix, through every form
    XObject it draws (a card face is one form, placed on a page under a transform)."""
    xobjects = resources.get_object().get("/XObject", {}) if resources is not None else {}
    stack, tm, tlm, size, leading = [], IDENTITY, IDENTITY, 0.0, 0.0
    for operands, op in ContentStream(stream, reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _then(_matrix(operands), ctm)
        elif op == b"BT":
            tm = tlm = IDENTITY
        elif op == b"Tf":
            size = float(operands[1])
        elif op == b"TL":
            leading = float(operands[0])
        elif op == b"Tm":
            tm = tlm = _matrix(operands)
        elif op in (b"Td", b"TD"):
            tm = tlm = _then((1, 0, 0, 1, float(operands[0]), float(operands[1])), tlm)
        elif op in (b"T*", b"'", b'"'):
            tm = tlm = _then((1, 0, 0, 1, 0, -leading), tlm)
        if op in (b"Tj", b"TJ", b"'", b'"'):
            m = _then(tm, ctm)
            # The em's height on the page: the text space's y axis through both matrices.
            out.append((size * math.hypot(m[2], m[3]), _shown(operands[-1])))
        elif op == b"Do":
            ref = xobjects[operands[0]]
            form = ref.get_object()
            if form.get("/Subtype") != "/Form":
                continue
            full = _then(_matrix(form.get("/Matrix", IDENTITY)), ctm)
            # A form's text sizes depend only on the linear part of its placement.
            key = (getattr(ref, "idnum", id(form)), tuple(round(v, 6) for v in full[:4]))
            if key not in cache:
                runs: list = []
                text_runs(reader, form, form.get("/Resources"), (*full[:4], 0.0, 0.0), cache, runs)
                cache[key] = runs
            out.extend(cache[key])


def page_text_sizes(path: Path) -> list[tuple[int, float, str]]:
    """(page number, size in pt, text) of every string shown in the PDF."""
    reader = PdfReader(path)
    cache: dict = {}
    found = []
    for n, page in enumerate(reader.pages, 1):
        runs: list = []
        text_runs(reader, page.get_contents(), page.get("/Resources"), IDENTITY, cache, runs)
        found += [(n, size, text) for size, text in runs]
    return found


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


def _box(b):
    return [float(v) for v in b]


def test_large_boards_have_bleed_trim_and_bleed_boxes(output):
    larges = sorted(output.rglob("*-large.pdf"))
    assert len(larges) >= 4
    k = PT_PER_MM
    for pdf in larges:
        page = PdfReader(pdf).pages[0]
        tx0, ty0, tx1, ty1 = _box(page.trimbox)
        bx0, by0, bx1, by1 = _box(page.bleedbox)
        assert (tx0 - bx0, ty0 - by0, bx1 - tx1, by1 - ty1) == pytest.approx([BOARD_BLEED_MM * k] * 4, abs=0.01), pdf.name
        assert _box(page.mediabox) == pytest.approx([bx0, by0, bx1, by1], abs=0.01), pdf.name


def test_large_boards_art_runs_into_the_bleed(output, tmp_path):
    """The bleed is the board's own edge carried on: each strip of bleed looks like the strip of
    board just inside the trim (a white bleed round a tinted board would show at a cut)."""
    import subprocess

    import numpy as np
    from PIL import Image

    from conftest import need
    dpi = 60
    px = dpi / 25.4
    for pdf in sorted(output.rglob("*-large.pdf")):
        stem = tmp_path / pdf.stem
        subprocess.run([need("pdftoppm"), "-r", str(dpi), "-png", "-singlefile", str(pdf), str(stem)], check=True)
        im = np.asarray(Image.open(f"{stem}.png").convert("RGB"), dtype=float)
        h, w, _ = im.shape
        b = BOARD_BLEED_MM * px
        outer, inner = int(b * 0.5), int(b + 0.8 * px)       # a pixel in the bleed, one inside the trim
        lo = int(b + 4 * px)                                   # along each edge, away from the corners
        strips = [(im[lo:h - lo, outer], im[lo:h - lo, inner]), (im[lo:h - lo, w - 1 - outer], im[lo:h - lo, w - 1 - inner]),
                  (im[outer, lo:w - lo], im[inner, lo:w - lo]), (im[h - 1 - outer, lo:w - lo], im[h - 1 - inner, lo:w - lo])]
        for bleed, edge in strips:
            assert np.abs(bleed - edge).mean() < 6, f"{pdf.name}: the bleed does not carry the board's edge on"
