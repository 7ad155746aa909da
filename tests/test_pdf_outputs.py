"""The built Mille Bornes PDFs and PNG: pages, sizes in points, boxes, fonts, colour spaces."""
import re
import subprocess

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import build_job, build_product, need
from generator.units import PT_PER_MM
from generator.layout.cards import CardSize, impose_cards
from generator.paper import PAPERS

CARD_W, CARD_H, BLEED = 63, 88, 3


def pt(mm):
    return mm * PT_PER_MM


def box(b):
    return [float(v) for v in b]


DECK = "decks/mille_bornes.yaml"


def made_by(out, product: str, **options):
    """Mille Bornes's deck, only `product` making its files (the tests below each read one file)."""
    return build_product(out, "mille-bornes", DECK, product, **options)


def test_shop_pdf_pages_and_boxes(built):
    reader = PdfReader(built / "mille_bornes-shop.pdf")
    assert len(reader.pages) == 2 * 106  # 106 faces, then 106 backs
    for page in reader.pages:
        x0, y0, x1, y1 = box(page.trimbox)
        assert (x1 - x0, y1 - y0) == pytest.approx((pt(CARD_W), pt(CARD_H)), abs=0.01)
        bx0, by0, bx1, by1 = box(page.bleedbox)
        assert (x0 - bx0, y0 - by0, bx1 - x1, by1 - y1) == pytest.approx([pt(BLEED)] * 4, abs=0.01)
        assert box(page.mediabox) == pytest.approx([bx0, by0, bx1, by1], abs=0.01)


def test_1961_deck_has_112_cards(built):
    assert len(PdfReader(built / "mille_bornes_1961-shop.pdf").pages) == 2 * 112


@pytest.mark.parametrize("name", ["mille_bornes-shop.pdf", "mille_bornes-sheet-a4.pdf"])
def test_every_font_embedded(built, name):
    out = subprocess.run([need("pdffonts"), str(built / name)], capture_output=True, text=True, check=True).stdout
    rows = out.strip().splitlines()[2:]
    assert rows, "no fonts at all?"
    for row in rows:
        cols = row.split()
        assert cols[-5] == "yes", f"not embedded: {row}"
        assert not re.match(r"(Helvetica|Times|Courier|Symbol|ZapfDingbats)", cols[0]), row


def test_sheet_a4(built):
    reader = PdfReader(built / "mille_bornes-sheet-a4.pdf")
    assert len(reader.pages) == 2 * -(-106 // 8)
    for page in reader.pages:
        assert box(page.mediabox)[2:] == pytest.approx([595.28, 841.89], abs=0.01)


def test_sheet_letter(tmp_path, monkeypatch):
    # The deck's job with the card sheet and the shop file its only products (the tuck box, its
    # assembly sheet and the contact sheet took three quarters of the time): `layouts` leaves the
    # shop file out.
    import generator.products as products
    every = products.products()
    assert {"sheet", "shop"} <= {p.name for p in every}
    monkeypatch.setattr(products, "products", lambda: tuple(p for p in every if p.name in ("sheet", "shop")))
    build_job(tmp_path, "mille-bornes", "decks/mille_bornes.yaml", paper="letter", layouts=("sheet",))
    reader = PdfReader(tmp_path / "mille-bornes" / "mille_bornes-sheet-letter.pdf")
    assert len(reader.pages) == 2 * -(-106 // 6)
    assert box(reader.pages[0].mediabox)[2:] == pytest.approx([612, 792], abs=0.01)
    assert not (tmp_path / "mille-bornes" / "mille_bornes-shop.pdf").exists()


def page_ops(page) -> str:
    """A page's drawing operators, with those of the forms it draws (a face is drawn once per
    document, as a form XObject, and referred to by every page that shows it)."""
    ops, todo, seen = [page.get_contents().get_data().decode("latin-1")], [page.get("/Resources")], set()
    while todo:
        resources = todo.pop()
        xobjects = resources.get_object().get("/XObject", {}) if resources is not None else {}
        for ref in xobjects.values():
            form = ref.get_object()
            if id(form) in seen:
                continue
            seen.add(id(form))
            ops.append(form.get_data().decode("latin-1"))
            todo.append(form.get("/Resources"))
    return "\n".join(ops)


def test_cmyk_writes_no_rgb(tmp_path):
    made = made_by(tmp_path, "shop", cmyk=True)
    ops = page_ops(PdfReader(made / "mille_bornes-shop.pdf").pages[5])
    assert re.search(r"\bk\b", ops) and "Do" in ops
    assert not re.search(r"\b(rg|RG)\b", ops)


def test_default_is_rgb(built):
    ops = page_ops(PdfReader(built / "mille_bornes-shop.pdf").pages[5])
    assert re.search(r"\brg\b", ops)


def test_a_face_is_written_once_however_many_cards_show_it(built):
    """106 cards, 19 distinct faces and one back: the shop PDF holds 20 forms, each page draws one."""
    reader = PdfReader(built / "mille_bornes-shop.pdf")
    forms = {ref.idnum for page in reader.pages
             for ref in page["/Resources"].get_object().get("/XObject", {}).values()}
    assert len(reader.pages) == 212 and len(forms) == 20


def test_contact_sheet(built):
    im = Image.open(built / "mille_bornes-contact.png")
    assert im.format == "PNG" and im.width > 1500
    # 19 distinct faces + the back, 8 to a row with 6 mm gaps: 558 mm wide; 3 rows of a 88 mm card,
    # a 7 mm caption and a gap, under a 12 mm title: 321 mm high.
    assert im.height / im.width == pytest.approx(321 / 558, rel=0.005)


def nonwhite_bbox(png):
    im = Image.open(png).convert("L").point(lambda v: 255 if v < 200 else 0)
    return im.getbbox(), im.size


@pytest.mark.parametrize("offset", [(0.0, 0.0), (4.0, -2.0)])
def test_backs_render_behind_faces(tmp_path, offset):
    """Rasterise the first back page and find the backs where the faces' mirror image says."""
    pdf = made_by(tmp_path, "sheet", back_offset=tuple(offset)) / "mille_bornes-sheet-a4.pdf"
    subprocess.run([need("pdftoppm"), "-r", "100", "-f", "2", "-l", "2", "-png", str(pdf), str(tmp_path / "p")],
                   check=True)
    (x0, y0, x1, y1), (w_px, h_px) = nonwhite_bbox(next(tmp_path.glob("p*.png")))
    layout = impose_cards(CardSize(CARD_W, CARD_H, BLEED), *PAPERS["a4"].size)
    fx0 = min(s.x for s in layout.slots) - BLEED
    fx1 = max(s.x + s.w for s in layout.slots) + BLEED
    fy0 = min(s.y for s in layout.slots) - BLEED
    fy1 = max(s.y + s.h for s in layout.slots) + BLEED
    W = PAPERS["a4"].size[0]
    px = w_px / W  # pixels per mm
    expected = ((W - fx1 + offset[0]) * px, (fy0 + offset[1]) * px, (W - fx0 + offset[0]) * px, (fy1 + offset[1]) * px)
    assert (x0, y0, x1, y1) == pytest.approx(expected, abs=1.5)


def test_interleaved_shop_pdf(tmp_path):
    pages = PdfReader(made_by(tmp_path, "shop", interleave=True) / "mille_bornes-shop.pdf").pages
    assert len(pages) == 212
    # Every other page is the back: all backs are the same page content, faces are not.
    backs = {pages[i].get_contents().get_data() for i in range(1, 212, 2)}
    faces = {pages[i].get_contents().get_data() for i in range(0, 212, 2)}
    assert len(backs) == 1 and len(faces) == 19


def test_quick_pdfdoc_encoding_gives_reportlabs_bytes():
    """Our shortcut for reportlab's string encoding: the same bytes as reportlab's own for every
    character up to 0x2FF alone and in text, and the same refusal where reportlab refuses."""
    import generator.draw.pdf  # noqa: F401  (installs it)
    from reportlab.pdfbase import pdfdoc
    quick = pdfdoc.pdfdocEnc
    assert quick.quick
    samples = [chr(i) for i in range(0x300)] + ["595.2756 0 0 841.8898 cm", "/F1 12 Tf", "a\x18b", "Zürich", "",
                                                 "\n".join(chr(i) for i in range(32, 127)), b"raw bytes"]
    for x in samples:
        try:
            want = quick.original(x)
        except UnicodeEncodeError:
            with pytest.raises(UnicodeEncodeError):
                quick(x)
            continue
        assert quick(x) == want, repr(x)
