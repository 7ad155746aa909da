"""Pictures read as an image viewer shows them (issue 32, family 6): every PNG colour type and bit
depth, with and without a transparent colour (tRNS), decoded as Pillow reads the same file; a JPEG
with data after its end marker (a phone's motion photo) read as the picture before it; and under
--pdfx a picture with transparent pixels flattened over what lies under it, no soft mask written."""
from __future__ import annotations

import io
import random
import shutil
import struct
import subprocess
import zlib

import numpy as np
import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from conftest import DECK, build_product, need


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))


CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
KINDS = [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8), (4, 8), (4, 16),
         (6, 8), (6, 16)]


def make_png(colour_type: int, depth: int, rng: random.Random, w: int = 7, h: int = 5, trns: bool = False) -> tuple[bytes, np.ndarray]:
    """A PNG of random samples, and the RGBA (8 bits) a viewer shows of it, worked out here from
    the samples (a sample of d bits scaled to 0-255 as v * 255 / (2^d - 1), rounded)."""
    top = (1 << depth) - 1
    n = CHANNELS[colour_type]
    samples = np.array([[[rng.randint(0, top) for _ in range(n)] for _ in range(w)] for _ in range(h)])
    palette = None
    if colour_type == 3:
        entries = 1 << depth
        palette = bytes(rng.randint(0, 255) for _ in range(3 * entries))
    key = None
    if trns and colour_type in (0, 2):
        key = tuple(samples[0, 0])             # the first pixel's colour is the transparent one
    alphas = None
    if trns and colour_type == 3:
        alphas = bytes(rng.randint(0, 255) for _ in range(1 << depth))
    # rows, packed
    rows = []
    for y in range(h):
        flat = samples[y].reshape(-1)
        if depth < 8:
            bits = "".join(format(int(v), f"0{depth}b") for v in flat)
            bits += "0" * (-len(bits) % 8)
            row = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
        elif depth == 8:
            row = bytes(int(v) for v in flat)
        else:
            row = b"".join(struct.pack(">H", int(v)) for v in flat)
        rows.append(b"\x00" + row)
    out = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour_type, 0, 0, 0))
    if palette:
        out += _chunk(b"PLTE", palette)
    if key is not None:
        out += _chunk(b"tRNS", b"".join(struct.pack(">H", int(v)) for v in key))
    if alphas is not None:
        out += _chunk(b"tRNS", alphas)
    out += _chunk(b"IDAT", zlib.compress(b"".join(rows))) + _chunk(b"IEND", b"")
    # what a viewer shows
    scale = lambda v: np.rint(v * 255 / top).astype(np.int64)   # noqa: E731
    if colour_type == 3:
        lut = np.frombuffer(palette, np.uint8).reshape(-1, 3)
        rgb = lut[samples[:, :, 0]].astype(np.int64)
        a = np.full((h, w), 255) if alphas is None else \
            np.array([[alphas[i] if i < len(alphas) else 255 for i in row] for row in samples[:, :, 0]])
    elif colour_type in (0, 4):
        g = scale(samples[:, :, 0])
        rgb = np.dstack([g, g, g])
        a = scale(samples[:, :, 1]) if colour_type == 4 else np.full((h, w), 255)
    else:
        rgb = scale(samples[:, :, :3])
        a = scale(samples[:, :, 3]) if colour_type == 6 else np.full((h, w), 255)
    if key is not None:
        a = np.where((samples[:, :, :len(key)] == np.array(key)).all(axis=2), 0, a)
    return out, np.dstack([rgb, a]).astype(np.int64)


def pillows_reading(data: bytes) -> np.ndarray:
    """The same file as Pillow reads it (its samples, scaled from 16 bits where it keeps them so),
    as RGBA: the reference, with Pillow's own transparency for 8-bit files."""
    img = PILImage.open(io.BytesIO(data))
    img.load()
    if img.mode.startswith("I"):
        g = np.rint(np.asarray(img).astype(np.float64) / 257).astype(np.int64)
        return np.dstack([g, g, g, np.full(g.shape, 255)])
    return np.asarray(img.convert("RGBA")).astype(np.int64)


@pytest.mark.parametrize("trns", [False, True])
@pytest.mark.parametrize("colour_type,depth", KINDS)
def test_every_png_colour_type_and_depth_reads_as_a_viewer_shows_it(colour_type, depth, trns):
    from generator.draw.images import picture_from_bytes, pixels
    if trns and colour_type in (4, 6):
        pytest.skip("PNG has no tRNS for types with an alpha channel")
    rng = random.Random(colour_type * 100 + depth * 2 + trns)
    data, shown = make_png(colour_type, depth, rng, trns=trns)
    ours = np.asarray(pixels(picture_from_bytes(data, "p.png"), (10, 10))).astype(np.int64)
    assert ours.shape == shown.shape
    assert np.abs(ours - shown).max() <= 1, (colour_type, depth, trns)
    reference = pillows_reading(data)
    colours = (slice(None), slice(None), slice(0, 3))
    assert np.abs(ours[colours] - reference[colours]).max() <= 1
    if not trns or depth == 8:          # Pillow's own transparency where it reads it whole
        assert np.abs(ours[:, :, 3] - reference[:, :, 3]).max() <= 1


def test_a_16_bit_grey_at_a_quarter_prints_a_quarter_grey_in_every_backend(tmp_path):
    """The issue's case: 25 % grey (16384 of 65535) at 16 bits was printed white."""
    from generator.draw import Drawing
    from generator.draw.images import picture_from_bytes
    from generator.draw.pdf import PdfDocument
    from generator.draw.raster import png_bytes
    rows = b"".join(b"\x00" + struct.pack(">H", 16384) * 20 for _ in range(20))
    data = (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", 20, 20, 16, 0, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(rows)) + _chunk(b"IEND", b""))
    d = Drawing(40, 40)
    d.image(5, 5, 30, 30, picture_from_bytes(data, "grey16.png"))
    png = PILImage.open(io.BytesIO(png_bytes(d, dpi=50))).convert("RGBA")
    assert abs(png.getpixel((png.width // 2, png.height // 2))[0] - 64) <= 2
    pdf = tmp_path / "g.pdf"
    doc = PdfDocument(str(pdf), title="t")
    doc.add_page(d)
    doc.save()
    subprocess.run([need("pdftoppm"), "-r", "50", "-png", str(pdf), str(tmp_path / "g")], check=True)
    page = PILImage.open(next(tmp_path.glob("g*.png"))).convert("RGB")
    assert abs(page.getpixel((page.width // 2, page.height // 2))[0] - 64) <= 3


def _jpeg(colour=(200, 30, 30), **options) -> bytes:
    buf = io.BytesIO()
    PILImage.new("RGB", (40, 30), colour).save(buf, "JPEG", **options)
    return buf.getvalue()


@pytest.mark.parametrize("options", [{}, {"progressive": True}, {"exif": b"Exif\x00\x00" + b"\x00" * 40},
                                     {"quality": 10, "subsampling": 0}])
def test_data_after_a_jpegs_end_marker_is_not_the_picture(options):
    """A motion photo: the picture, then a video after its end marker (which holds 0xFFD9 too)."""
    from generator.draw.images import jpeg_end, picture_from_bytes, pixels
    jpeg = _jpeg(**options)
    assert jpeg_end(jpeg) == len(jpeg)
    motion = jpeg + b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00" + b"\xff\xd8\xff\xd9video" * 500
    picture = picture_from_bytes(motion, "PXL_0001.MP.jpg")
    assert picture.data == jpeg                    # (the PDF carries the picture, not the video)
    assert np.abs(np.asarray(pixels(picture, (1, 1)))[10, 10, :3].astype(int) - (200, 30, 30)).max() <= 16
    from generator.draw.images import PictureError
    for cut in (len(jpeg) - 1, len(jpeg) // 2, 200):
        with pytest.raises(PictureError, match="truncated|not a readable"):
            picture_from_bytes(jpeg[:cut], "cut.jpg")


def _damaged_exif_deck(folder):
    """A deck of one card that draws a JPEG whose EXIF tag's data lies past the file's end (what is
    read and drawn of a picture does not depend on the deck's size): its spec."""
    ifd = (struct.pack(">H", 2) + struct.pack(">HHII", 0x0112, 3, 1, 6 << 16)
           + struct.pack(">HHII", 0x010E, 2, 100, 0x1000) + struct.pack(">I", 0))
    exif = b"Exif\x00\x00" + b"MM\x00*" + struct.pack(">I", 8) + ifd
    folder.mkdir()
    (folder / "art.jpg").write_bytes(_jpeg(exif=exif))
    spec = folder / "photo.yaml"
    spec.write_text("kind: deck\ntitle: Photo\ncard: {width: 63, height: 88, bleed: 3}\ntuck_box: false\n"
                    "icons:\n  photo: art.jpg\ncards:\n  - {name: One}\n"
                    "layouts:\n  face:\n    elements:\n"
                    "      - {type: image, x: 10, y: 20, w: 40, h: 40, file: art.jpg, fit: contain}\n"
                    "  back: {background: \"#333333\"}\n")
    return spec


def test_a_jpeg_with_damaged_exif_is_read_and_warns_nothing(tmp_path):
    """Found by the campaign: an EXIF tag whose data lies past the file's end made Pillow warn, and
    the warning reached the terminal as two lines of Python (a path into PIL, a source line). The
    picture is read (its orientation kept) and `validate`, run here with every warning recorded
    (pytest's own filters would hide one), says nothing of it. The terminal itself: below."""
    import warnings
    from conftest import pnp_here
    spec = _damaged_exif_deck(tmp_path / "d")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = pnp_here("validate", spec, cwd=spec.parent)
    assert r.returncode == 0 and r.stderr == "" and caught == [], (r.stderr, [str(w.message) for w in caught])
    from generator.draw.images import picture_from_bytes
    assert (picture_from_bytes((spec.parent / "art.jpg").read_bytes()).width, ) == (30, )    # turned a quarter (6)


@pytest.mark.slow      # `pnp build` in a process of its own: the terminal is the property
def test_a_jpeg_with_damaged_exif_prints_no_python_warning(tmp_path):
    """The build as a user runs it, in its own process (its forked workers draw the picture; Python's
    own warning filters print there): nothing of the damaged EXIF on the terminal."""
    from conftest import run_pnp
    spec = _damaged_exif_deck(tmp_path / "d")
    r = run_pnp("build", spec, "--out", tmp_path / "out", cwd=spec.parent)
    assert r.returncode == 0 and "arn" not in r.stderr and "PIL" not in r.stderr, r.stderr
    assert (tmp_path / "out" / "deck" / "photo-shop.pdf").is_file()


def test_pdfx_flattens_a_transparent_picture_over_what_lies_under_it(tmp_path):
    """A half-transparent blue PNG over a red card: PDF/X-1a has no soft mask, and the picture
    prints as the blend the screen shows (purple), not black where it was transparent."""
    folder = tmp_path / "deck"
    shutil.copytree(DECK.parent, folder)
    rgba = PILImage.new("RGBA", (60, 60), (0, 0, 255, 128))
    rgba.paste((0, 0, 0, 0), (0, 0, 30, 60))          # its left half fully transparent
    rgba.save(folder / "glass.png")
    (folder / "glass.yaml").write_text(
        "kind: deck\ntitle: Glass\ncard: {width: 63, height: 88, bleed: 3}\ntuck_box: false\n"
        "cards:\n  - {name: One}\n"
        "layouts:\n  face:\n    background: \"#ff0000\"\n    elements:\n"
        "      - {type: image, x: 10, y: 20, w: 40, h: 40, file: glass.png, fit: stretch}\n"
        "  back: {background: \"#ff0000\"}\n")
    out = build_product(tmp_path / "out", "deck", folder / "glass.yaml", "shop", pdfx=True)    # (all that is read)
    pdf = out / "glass-shop.pdf"
    reader = PdfReader(pdf)
    images = []
    for page in reader.pages:
        todo = [page["/Resources"]]
        while todo:
            res = todo.pop().get_object()
            for x in res.get("/XObject", {}).values():
                x = x.get_object()
                if x["/Subtype"] == "/Image":
                    images.append(x)
                elif "/Resources" in x:
                    todo.append(x["/Resources"])
    assert images and all("/SMask" not in x and "/Mask" not in x for x in images)
    from test_pdfx import soft_masks
    assert not soft_masks(pdf)
    subprocess.run([need("pdftoppm"), "-r", "72", "-f", "1", "-l", "1", "-png", str(pdf), str(tmp_path / "p")],
                   check=True)
    page = PILImage.open(next(tmp_path.glob("p*.png"))).convert("RGB")
    # the card's place on the page: find the red
    arr = np.asarray(page).astype(int)
    red = (arr[:, :, 0] > 200) & (arr[:, :, 1] < 60) & (arr[:, :, 2] < 60)
    ys, xs = np.nonzero(red)
    top, left = ys.min(), xs.min()       # the bleed's corner
    k = 72 / 25.4
    at = lambda x, y: arr[int(top + (3 + y) * k), int(left + (3 + x) * k)]   # noqa: E731  (mm on the card)
    assert at(15, 40)[0] > 200 and at(15, 40)[2] < 60           # the transparent half: the red under it
    blend = at(40, 40)        # the half-transparent half: purple (red and blue, through the output profile)
    assert 90 < blend[0] < 190 and blend[1] < 60 and 50 < blend[2] < 170, blend
