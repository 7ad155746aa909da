"""`--pdfx`: the print shop's files as PDF/X-1a:2001 (ISO 15930-1), preflighted: Ghostscript renders
every page through the file's own output intent, stopping at any error or warning; and the
standard's rules are checked on the file itself (PDF 1.3, the info dictionary's keys, one
GTS_PDFX output intent whose ICC profile littleCMS reads and converts by, a TrimBox and BleedBox
on every page, every colour CMYK, no transparency, every font embedded)."""
from __future__ import annotations

import io
import re
import subprocess

import pytest
from pypdf import PdfReader

from conftest import build_product, need

# Each shop file and what it is built from. The deck's 88 pages (its build and Ghostscript's
# preflight, 1.6 s) and the 1930 board are in the whole suite; the board's one-page file, the same
# PDF/X writer and checks (0.35 s), is the quick subset's.
SHOP = {"sorry-shop.pdf": ("decks/sorry.yaml", "shop"), "sorry-board-large.pdf": ("boards/sorry.yaml", "large"),
        "sorry_1930-board-large.pdf": ("boards/sorry_1930.yaml", "large")}


@pytest.fixture(scope="module")
def pdfx(tmp_path_factory):
    """The shop file of that name with --pdfx, built when a test first asks for it (the shop's
    files alone: the same bytes as a build's)."""
    out = tmp_path_factory.mktemp("pdfx")

    def built(name: str):
        if not (out / "sorry" / name).exists():
            build_product(out, "sorry", *SHOP[name], pdfx=True)
        return out / "sorry" / name
    return built


def ghostscript_preflight(pdf) -> list[str]:
    """Every page rendered by Ghostscript with the file's own output intent as its output profile
    (-dUsePDFX3Profile), stopping at the first error or warning: each page's ink coverage."""
    run = subprocess.run([need("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-dPDFSTOPONERROR",
                          "-dPDFSTOPONWARNING", "-dUsePDFX3Profile", "-sDEVICE=inkcov", "-o", "-", str(pdf)],
                         capture_output=True, text=True)
    assert run.returncode == 0 and not run.stderr.strip(), f"{pdf.name}: {run.stderr.strip()[:300]}"
    return [line for line in run.stdout.splitlines() if line.strip()]


_STRING = re.compile(rb"\((?:\\.|[^\\()])*\)|<[0-9A-Fa-f\s]*>", re.S)


def colour_operators(reader) -> set[bytes]:
    """Every colour-setting operator in every content stream (pages and forms), strings cut out."""
    found: set[bytes] = set()
    seen = set()

    def visit(stream, resources):
        data = _STRING.sub(b" ", stream.get_data())
        found.update(re.findall(rb"(?<![\w/])(rg|RG|k|K|g|G|sc|SC|scn|SCN|cs|CS)(?![\w])", data))
        xobjects = (resources or {}).get("/XObject", {})
        for ref in xobjects.values():
            obj = ref.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.get("/Subtype") == "/Form":
                visit(obj, obj.get("/Resources", resources))
            else:
                found.add(b"image")
    for page in reader.pages:
        visit(page.get_contents(), page.get("/Resources").get_object())
    return found


@pytest.mark.parametrize("name", [pytest.param(name, marks=() if name == "sorry-board-large.pdf" else pytest.mark.slow)
                                  for name in SHOP])
def test_a_shop_file_is_pdf_x_1a(pdfx, name):
    from PIL import Image, ImageCms
    pdf = pdfx(name)
    reader = PdfReader(pdf)
    pages = ghostscript_preflight(pdf)
    assert len(pages) == len(reader.pages) and all(line.endswith("CMYK OK") for line in pages)
    assert reader.pdf_header == "%PDF-1.3"
    info = reader.metadata
    assert info["/GTS_PDFXVersion"] == "PDF/X-1:2001" and info["/GTS_PDFXConformance"] == "PDF/X-1a:2001"
    assert info["/Trapped"] == "/False" and info["/Title"] and info["/CreationDate"] and info["/ModDate"]
    assert len(reader.trailer["/ID"]) == 2
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert len(intents) == 1
    intent = intents[0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"]
    icc = intent["/DestOutputProfile"].get_object()
    assert icc["/N"] == 4
    profile = ImageCms.ImageCmsProfile(io.BytesIO(icc.get_data()))
    assert profile.profile.xcolor_space.strip() == "CMYK" and profile.profile.device_class == "prtr"
    to_rgb = ImageCms.buildTransform(profile, ImageCms.createProfile("sRGB"), "CMYK", "RGB", renderingIntent=1)
    for cmyk, rgb in (((0, 0, 0, 0), (255, 255, 255)), ((0, 0, 0, 255), (0, 0, 0)), ((255, 0, 0, 0), (0, 255, 255)),
                      ((0, 255, 255, 0), (255, 0, 0))):
        got = ImageCms.applyTransform(Image.new("CMYK", (1, 1), cmyk), to_rgb).getpixel((0, 0))
        assert max(abs(a - b) for a, b in zip(got, rgb)) <= 2, (cmyk, got)
    for page in reader.pages:
        media, trim, bleed = ([float(v) for v in b] for b in (page.mediabox, page.trimbox, page.bleedbox))
        assert "/TrimBox" in page and "/ArtBox" not in page
        assert media[0] <= bleed[0] <= trim[0] and trim[2] <= bleed[2] <= media[2]
        assert media[1] <= bleed[1] <= trim[1] and trim[3] <= bleed[3] <= media[3]
        for gs in page.get("/Resources", {}).get("/ExtGState", {}).values():
            gs = gs.get_object()
            assert not {"/SMask", "/BM"} & set(gs) and gs.get("/CA", 1) == 1 and gs.get("/ca", 1) == 1
    ops = colour_operators(reader)
    assert ops & {b"k", b"K"} and not ops & {b"rg", b"RG", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS", b"image"}, ops
    fonts = subprocess.run([need("pdffonts"), str(pdf)], capture_output=True, text=True, check=True).stdout
    rows = fonts.splitlines()[2:]
    assert rows and all(" yes " in r for r in rows)
    assert not soft_masks(pdf)


def soft_masks(pdf) -> list[str]:
    """The soft masks and masks (transparency, which PDF/X-1a forbids) among a PDF's images, as
    pdfimages lists them."""
    listing = subprocess.run([need("pdfimages"), "-list", str(pdf)], capture_output=True, text=True,
                             check=True).stdout
    return [line for line in listing.splitlines()[2:] if line.split()[2] in ("smask", "mask", "stencil")]


def test_without_pdfx_the_shop_file_is_plain(output):
    """The default build's shop files are as before: RGB where the specs give RGB, no output intent."""
    reader = PdfReader(output / "sorry" / "sorry-shop.pdf")
    assert "/OutputIntents" not in reader.trailer["/Root"] and "/GTS_PDFXVersion" not in reader.metadata
    assert b"rg" in colour_operators(reader)


def test_the_measure_sees_rgb(tmp_path):
    """The colour scan itself: an RGB fill in a form is found."""
    from generator.colour import Colour
    from generator.draw import Drawing, Style
    from generator.draw.pdf import PdfDocument
    face = Drawing(10, 10)
    face.rect(0, 0, 5, 5, Style(fill=Colour(rgb=(1, 0, 0))))
    page = Drawing(50, 50)
    page.place(face)
    doc = PdfDocument(str(tmp_path / "t.pdf"))
    doc.add_page(page)
    doc.save()
    assert b"rg" in colour_operators(PdfReader(tmp_path / "t.pdf"))


def test_the_preflight_refuses_a_broken_output_profile(tmp_path, monkeypatch):
    """The Ghostscript preflight reads the output intent's profile: one whose tags are zeroed
    stops it."""
    import generator.icc as icc
    from generator.colour import Colour
    from generator.draw import Drawing, Style
    from generator.draw.pdf import PdfDocument
    good = icc.cmyk_profile()
    monkeypatch.setattr(icc, "cmyk_profile", lambda: good[:128] + bytes(len(good) - 128))
    page = Drawing(50, 50)
    page.rect(0, 0, 50, 50, Style(fill=Colour(rgb=(1, 0, 0))))
    doc = PdfDocument(str(tmp_path / "bad.pdf"), title="t", pdfx=True)
    doc.add_page(page, trim=(5, 5, 40, 40), bleed=(0, 0, 50, 50))
    doc.save()
    with pytest.raises(AssertionError):
        ghostscript_preflight(tmp_path / "bad.pdf")
    with pytest.raises(ValueError):
        PdfDocument(str(tmp_path / "no-trim.pdf"), title="t", pdfx=True).add_page(page)
