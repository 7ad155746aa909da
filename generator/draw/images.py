"""Pictures on a drawing: PNG, JPEG and SVG files, read as a stranger's files.

A Picture is made from a file's bytes (read by the caller, bounded: inputs.read_bytes) and refused
with one line (PictureError) when it is not what it says: a decompression bomb (its pixels counted
from the header, before anything is decoded), a truncated or damaged file (every PNG chunk's length
and checksum, a JPEG's end marker), another format, an SVG that names anything outside itself (a
link, a stylesheet, an embedded picture), runs a script, declares entities, or multiplies through
<use> beyond a bound. Nothing is ever fetched.

A drawing places a picture (drawing.Image) by its frame, where the whole picture lies, and shows it
within a box; where the box runs past the frame (a card's art carried into the bleed) the picture
goes on mirrored at its edge. The backends draw it so: the PDF embeds a PNG's compressed rows or a
JPEG's data as they are where PDF can take them (decoding nothing), cairo mirrors with its reflect
pattern, and both decode and draw the same pixels otherwise. An SVG is drawn to pixels by cairosvg,
at SVG_DPI of the size it is placed at.
"""
from __future__ import annotations

import hashlib
import io
import re
import struct
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from ..errors import show

MAX_PIXELS = 40_000_000        # a picture's width x height: an A3 page at 300 dpi is 17 million
MAX_SIDE = 20_000              # pixels a side
MAX_PNG_CHUNKS = 100_000
SVG_DPI = 600                  # an SVG is drawn to pixels at this resolution of its placed size
MAX_SVG_SIDE = 4_000           # ... and never more pixels a side than this
MAX_SVG_ELEMENTS = 20_000      # elements in an SVG file
MAX_SVG_EXPANDED = 100_000     # elements drawn, each <use> counted as what it stands for
MAX_SVG_DEPTH = 64             # elements nested in elements
MAX_SVG_POINTS = 20_000        # points of its paths, polygons and polylines
CACHE_BYTES = 64 * 1024 * 1024   # decoded pixels kept for reuse (an icon on every card)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
JPEG_MAGIC = b"\xff\xd8\xff"


class PictureError(ValueError):
    """Why a file is not a picture we draw, in a few words."""


@dataclass(frozen=True)
class PngFacts:
    """What a PNG's header says, for embedding its rows in a PDF as they are."""
    depth: int
    colour_type: int            # 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA
    interlaced: bool
    palette: bytes | None
    transparency: bool          # a tRNS chunk


@dataclass(frozen=True, eq=False)
class Picture:
    """A picture's source: its kind ("png", "jpeg", "svg"), its size in pixels (an SVG: its own
    width and height, only their ratio matters), its bytes, and `key`, naming its content.
    `origin` is the file as messages name it."""
    kind: str
    width: int
    height: int
    data: bytes
    key: str
    origin: str = ""
    png: PngFacts | None = None
    jpeg_components: int = 0
    jpeg_upright: bool = True     # no EXIF orientation to apply
    svg_units: int = 0            # an SVG's elements and path points: what drawing it costs

    @property
    def aspect(self) -> float:
        return self.width / self.height


def picture_from_bytes(data: bytes, origin: str = "") -> Picture:
    """The picture in a file's bytes, checked (without decoding its pixels: a build decodes what it
    draws), or PictureError."""
    key = hashlib.sha256(data).hexdigest()
    if data.startswith(PNG_MAGIC):
        w, h, facts = _check_png(data)
        return Picture("png", w, h, data, key, origin, png=facts)
    if data.startswith(JPEG_MAGIC):
        w, h, components, upright, end = _check_jpeg(data)
        data = data[:end]        # what follows the end marker (a motion photo's video) is not the picture
        return Picture("jpeg", w, h, data, key, origin, jpeg_components=components, jpeg_upright=upright)
    if _looks_like_svg(data):
        w, h, units = check_svg(data)
        # (not drawn here: a picture is drawn only in a build's worker processes, which a signal
        # stops at once; try_drawing draws it small there before anything is written)
        return Picture("svg", w, h, data, key, origin, svg_units=units)
    raise PictureError(f"not a PNG, JPEG or SVG file ({_what_it_is(data)})")


def _what_it_is(data: bytes) -> str:
    for magic, name in ((b"GIF8", "a GIF image"), (b"RIFF", "a WebP or other RIFF file"), (b"BM", "a BMP image"),
                        (b"II*\x00", "a TIFF image"), (b"MM\x00*", "a TIFF image"), (b"%PDF", "a PDF")):
        if data.startswith(magic):
            return name
    return "its first bytes are none of theirs" if data else "an empty file"


def _check_size(w: int, h: int) -> None:
    if w <= 0 or h <= 0:
        raise PictureError(f"a picture of {w} x {h} pixels")
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_PIXELS:
        raise PictureError(f"{w:,} x {h:,} pixels is more than a card needs (at most {MAX_PIXELS:,} pixels "
                           f"and {MAX_SIDE:,} a side)")


def _reason(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]


# ---------------------------------------------------------------- PNG and JPEG

def _check_png(data: bytes) -> tuple[int, int, PngFacts]:
    """Every chunk read, its length and checksum checked, up to IEND: a truncated or damaged file
    is refused. The header's size is checked first (a bomb is refused before anything is inflated)."""
    pos, chunks, header, palette = 8, 0, None, None
    seen_idat = trns = False
    while True:
        if pos + 8 > len(data):
            raise PictureError("a truncated PNG file (it ends before its last chunk)")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        end = pos + 12 + length
        if end > len(data):
            raise PictureError(f"a truncated PNG file (its {show(kind.decode('latin-1'))} chunk runs past the end)")
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[end - 4:end])
        if zlib.crc32(body, zlib.crc32(kind)) != crc:
            raise PictureError(f"a damaged PNG file (its {show(kind.decode('latin-1'))} chunk's checksum is wrong)")
        chunks += 1
        if chunks > MAX_PNG_CHUNKS:
            raise PictureError(f"a PNG file of more than {MAX_PNG_CHUNKS:,} chunks")
        if chunks == 1:
            if kind != b"IHDR" or length != 13:
                raise PictureError("a PNG file that does not start with its header (IHDR)")
            w, h, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            _check_size(w, h)
            if (colour_type, depth) not in {(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1),
                                            (3, 2), (3, 4), (3, 8), (4, 8), (4, 16), (6, 8), (6, 16)}:
                raise PictureError(f"a PNG file of colour type {colour_type} at {depth} bits, which PNG does not have")
            header = (w, h, depth, colour_type, bool(interlace))
        elif kind == b"PLTE":
            palette = body
        elif kind == b"tRNS":
            trns = True
        elif kind == b"IDAT":
            seen_idat = True
        elif kind == b"IEND":
            break
        pos = end
    if not seen_idat:
        raise PictureError("a PNG file with no image data (IDAT)")
    w, h, depth, colour_type, interlaced = header
    if colour_type == 3 and palette is None:
        raise PictureError("a palette PNG file without its palette (PLTE)")
    return w, h, PngFacts(depth, colour_type, interlaced, palette, trns)


def _check_jpeg(data: bytes) -> tuple[int, int, int, bool, int]:
    """Its size and components from its header (a bomb refused before decoding), its end marker
    present (a truncated file refused), and where the picture ends: a phone's motion photo, or a
    file with anything else appended, carries data after the end marker, which is not the picture."""
    from PIL import Image
    try:
        with Image.open(io.BytesIO(data), formats=["JPEG"]) as img:
            w, h = img.size
            components = len(img.getbands())
            orientation = img.getexif().get(0x0112, 1) if hasattr(img, "getexif") else 1
    except Exception as exc:  # noqa: BLE001  (PIL raises many kinds for a bad header)
        raise PictureError(f"not a readable JPEG file ({_reason(exc)})") from None
    _check_size(w, h)
    end = jpeg_end(data)
    if end is None:
        raise PictureError("a truncated JPEG file (it has no end marker)")
    if orientation in (5, 6, 7, 8):      # turned a quarter by its EXIF orientation: drawn that way up
        w, h = h, w
    return w, h, components, orientation in (1, None), end


def jpeg_end(data: bytes) -> int | None:
    """Where a JPEG's own data ends (just past its end-of-image marker), found by walking its
    segments as a decoder does: a marker segment is skipped by its length (an EXIF thumbnail's own
    end marker inside APP1 is not the picture's), scan data is read to the next marker that is not
    a stuffed 0xFF00 or a restart (RSTn). None where the file ends first (truncated)."""
    pos, n = 2, len(data)
    while True:
        while pos < n and data[pos] != 0xFF:
            pos += 1          # (bytes between segments: tolerated, as decoders do)
        while pos < n and data[pos] == 0xFF:
            pos += 1          # (fill bytes)
        if pos >= n:
            return None
        marker = data[pos]
        pos += 1
        if marker == 0xD9:
            return pos
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:
            continue          # standalone markers: no length
        if pos + 2 > n:
            return None
        length = (data[pos] << 8) | data[pos + 1]
        if length < 2:
            return None
        pos += length
        if marker == 0xDA:    # start of scan: its entropy-coded data runs to the next real marker
            while True:
                pos = data.find(b"\xff", pos)
                if pos < 0 or pos + 1 >= n:
                    return None
                following = data[pos + 1]
                if following == 0x00 or 0xD0 <= following <= 0xD7 or following == 0xFF:
                    pos += 1 if following == 0xFF else 2
                    continue
                break


def _decode_raster(picture: Picture):
    """The pixels as a PIL image in RGBA, a JPEG turned as its EXIF orientation says."""
    from PIL import Image, ImageFile, ImageOps
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with Image.open(io.BytesIO(picture.data), formats=["PNG" if picture.kind == "png" else "JPEG"]) as img:
            img.load()
            if picture.kind == "jpeg":
                img = ImageOps.exif_transpose(img)
                rgba = img.convert("RGBA")
            else:
                rgba = _png_rgba(img, picture.png)
    except Exception as exc:  # noqa: BLE001  (a damaged stream: refused alike, naming the file)
        raise PictureError(f"cannot decode this {picture.kind.upper()} file ({_reason(exc)})") from None
    _check_size(*rgba.size)
    return rgba


def _png_rgba(img, facts: PngFacts | None):
    """A PNG's pixels as a viewer shows them, in RGBA at 8 bits: Pillow reads most as they are,
    but keeps 16-bit grey as 16-bit numbers (which a plain conversion clips to white) and the
    transparent grey of a 1, 2 or 4-bit grey file as the file's raw sample (so a plain conversion
    never matches it); a 16-bit RGB file's transparent colour is compared at the 8 bits Pillow
    reads it at (two 16-bit colours that differ only past them are one colour here)."""
    import numpy as np
    from PIL import Image
    trns = img.info.get("transparency")
    if img.mode.startswith("I"):               # 16-bit grey
        raw = np.asarray(img).astype(np.uint32)
        grey = ((raw * 255 + 32767) // 65535).astype(np.uint8)
        alpha = np.where(raw == trns, 0, 255).astype(np.uint8) if isinstance(trns, int) else \
            np.full(raw.shape, 255, np.uint8)
        return Image.fromarray(np.dstack([grey, grey, grey, alpha]), "RGBA")
    if img.mode in ("L", "1") and isinstance(trns, int):
        key = trns * (255 // ((1 << facts.depth) - 1)) if (facts and facts.depth < 8 and img.mode == "L") else trns
        grey = np.asarray(img.convert("L"))
        alpha = np.where(grey == key, 0, 255).astype(np.uint8)
        return Image.fromarray(np.dstack([grey, grey, grey, alpha]), "RGBA")
    if img.mode == "RGB" and isinstance(trns, tuple) and facts and facts.depth == 16:
        rgb = np.asarray(img)
        key = np.array([v >> 8 for v in trns], np.uint8)
        alpha = np.where((rgb == key).all(axis=2), 0, 255).astype(np.uint8)
        return Image.fromarray(np.dstack([rgb, alpha]), "RGBA")
    return img.convert("RGBA")


# ---------------------------------------------------------------- SVG

_SVG_START = re.compile(rb"^\s*(<\?xml[^>]*>\s*)?(<!--.*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?(<!--.*?-->\s*)*<svg[\s>]",
                        re.S)


def _looks_like_svg(data: bytes) -> bool:
    head = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    return bool(_SVG_START.match(head[:4096])) or (head.lstrip()[:1] == b"<" and b"<svg" in head[:4096])


_URL = re.compile(r"url\(\s*(['\"]?)\s*([^)'\"]*)", re.I)
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(px|pt|mm|cm|in|pc)?\s*$")
_UNIT_PX = {None: 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def try_drawing(picture: Picture) -> None:
    """An SVG drawn once, small (PictureError if cairosvg cannot draw it): in a job's worker, so
    `validate` finds what `build` would."""
    if picture.kind == "svg":
        _pixels.get(("svg", picture.key, 32, 32), lambda: _svg_pixels(picture, 32, 32))


_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def check_svg(data: bytes) -> tuple[int, int, int]:
    """An SVG file checked for what it may not do; its width and height (px, at least 1), and what
    drawing it costs: its elements and path points (each bounded, MAX_SVG_ELEMENTS and
    MAX_SVG_POINTS: cairosvg takes about a tenth of a millisecond for either)."""
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException
    text = data.decode("utf-8", errors="replace")
    if re.search(r"<\?xml-stylesheet", text, re.I):
        raise PictureError("an SVG that names a stylesheet (<?xml-stylesheet?>): nothing outside the file is read")
    try:
        root = SafeET.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise PictureError("an SVG that declares entities (<!ENTITY>): refused") from None
    except Exception as exc:  # noqa: BLE001  (a ParseError, or expat's own limits)
        raise PictureError(f"not a well-formed SVG ({_reason(exc)})") from None
    if _local(root.tag) != "svg":
        raise PictureError(f"an XML file whose root is <{_local(root.tag)[:40]}>, not <svg>")
    # Depth first, without recursion (an element may sit thousands deep).
    count, points, stack = 0, 0, [(root, 1)]
    ids: dict[str, object] = {}
    while stack:
        el, depth = stack.pop()
        count += 1
        if count > MAX_SVG_ELEMENTS:
            raise PictureError(f"an SVG of more than {MAX_SVG_ELEMENTS:,} elements")
        if depth > MAX_SVG_DEPTH:
            raise PictureError(f"an SVG nested more than {MAX_SVG_DEPTH} elements deep")
        name = _local(el.tag)
        if name in ("script", "foreignObject", "image", "iframe", "audio", "video", "handler", "listener"):
            raise PictureError(f"an SVG with a <{name}> element: scripts, embedded pictures and other "
                               "documents are refused")
        for attr, value in el.attrib.items():
            local = _local(attr)
            if local.lower().startswith("on"):
                raise PictureError(f"an SVG with a script in an attribute ({local[:30]}=)")
            if local == "href" and not value.strip().startswith("#"):
                raise PictureError(f"an SVG that names another file ({local}=\"{value[:40]}\"): only "
                                   "references inside the file (#id) are followed")
            _check_css(value)
            if local == "id":
                ids.setdefault(value, el)
            elif local in ("d", "points"):
                points += _path_points(value)
                if points > MAX_SVG_POINTS:
                    raise PictureError(f"an SVG of more than {MAX_SVG_POINTS:,} path points (its paths, polygons "
                                       "and polylines): simplify it, or give it as a PNG")
        if name == "style":
            _check_css(el.text or "")
        stack.extend((child, depth + 1) for child in el)
    drawn = _check_uses(root, ids)
    return (*_svg_size(root), drawn + points)


def _path_points(value: str) -> int:
    """The points a path's data or a polygon's points name: its numbers, two a point (an arc's
    seven numbers count as three and a half: its cost is of that order)."""
    return (len(_NUMBER.findall(value)) + 1) // 2


def _check_css(value: str) -> None:
    if "@import" in value.lower():
        raise PictureError("an SVG whose style imports another file (@import)")
    for m in _URL.finditer(value):
        if not m.group(2).strip().startswith("#"):
            raise PictureError(f"an SVG that names another file (url({m.group(2)[:40]})): only "
                               "references inside the file (url(#id)) are followed")


def _check_uses(root, ids: dict) -> int:
    """<use> elements repeat what they name: the whole drawing, each repetition counted, is bounded
    (nested <use>s multiply, as aliases do in YAML), and a <use> that names itself is refused. The
    elements drawn, each repetition counted."""
    sizes: dict[int, int] = {}

    def expanded(el, trail: tuple) -> int:
        known = sizes.get(id(el))
        if known is not None:
            return known
        total = 1
        for child in el:
            total += expanded(child, trail)
            if total > MAX_SVG_EXPANDED:
                break
        if _local(el.tag) == "use":
            ref = next((v for a, v in el.attrib.items() if _local(a) == "href"), "")
            target = ids.get(ref.strip()[1:]) if ref.strip().startswith("#") else None
            if target is not None:
                if id(target) in trail:
                    raise PictureError("an SVG whose <use> elements name each other in a loop")
                total += expanded(target, trail + (id(el), id(target)))
        if total > MAX_SVG_EXPANDED:
            raise PictureError(f"an SVG that draws more than {MAX_SVG_EXPANDED:,} elements once its <use> "
                               "elements are counted as what they repeat")
        sizes[id(el)] = total
        return total
    return expanded(root, (id(root),))


def _svg_size(root) -> tuple[int, int]:
    """The SVG's size in px: its viewBox's, else its width and height."""
    vb = root.attrib.get("viewBox")
    w = h = None
    if vb:
        parts = re.split(r"[\s,]+", vb.strip())
        try:
            w, h = float(parts[2]), float(parts[3])
        except (IndexError, ValueError):
            raise PictureError(f"an SVG whose viewBox is not four numbers ({show(vb)})") from None
    else:
        sizes = []
        for key in ("width", "height"):
            m = _LENGTH.match(root.attrib.get(key, ""))
            sizes.append(float(m.group(1)) * _UNIT_PX[m.group(2)] if m else None)
        w, h = sizes
    if not w or not h or not (0 < w < 1e7 and 0 < h < 1e7):
        raise PictureError("an SVG with no size: give its <svg> a viewBox (or a width and height)")
    if not 0.01 <= w / h <= 100:
        raise PictureError(f"an SVG of {w:g} x {h:g}, too long and thin to place")
    scale = max(w, h) / 1000   # only the ratio matters: kept in whole pixels without losing it
    return max(1, round(w / scale)), max(1, round(h / scale))


def _refuse_fetch(url, *args, **kwargs):
    raise PictureError(f"an SVG that names another file ({str(url)[:40]})")


def _svg_pixels(picture: Picture, w_px: int, h_px: int):
    """The SVG drawn at w_px x h_px, as a PIL image in RGBA."""
    from cairosvg.surface import PNGSurface
    from PIL import Image
    try:
        png = PNGSurface.convert(bytestring=picture.data, output_width=w_px, output_height=h_px, unsafe=False,
                                 url_fetcher=_refuse_fetch)
        with Image.open(io.BytesIO(png), formats=["PNG"]) as img:
            return img.convert("RGBA")
    except PictureError:
        raise
    except Exception as exc:  # noqa: BLE001  (cairosvg's errors have no common base)
        raise PictureError(f"cannot draw this SVG ({_reason(exc)})") from None


# ---------------------------------------------------------------- pixels, as the backends draw them

class _Cache:
    """Things made from pictures (decoded pixels, compressed streams), the most recent kept up to
    a budget of bytes."""

    def __init__(self, budget: int):
        self.budget, self.used = budget, 0
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, make, size=lambda img: 4 * img.width * img.height):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key][0]
        value = make()
        with self.lock:
            if key not in self.items:
                n = size(value)
                self.items[key] = (value, n)
                self.used += n
                while self.used > self.budget and len(self.items) > 1:
                    _, (_, old) = self.items.popitem(last=False)
                    self.used -= old
        return value


_pixels = _Cache(CACHE_BYTES)


def svg_raster_size(w_mm: float, h_mm: float) -> tuple[int, int]:
    """Pixels to draw an SVG at, placed w_mm x h_mm: SVG_DPI, at most MAX_SVG_SIDE a side."""
    k = SVG_DPI / 25.4
    w, h = max(1.0, w_mm * k), max(1.0, h_mm * k)
    shrink = min(1.0, MAX_SVG_SIDE / max(w, h))
    return max(1, round(w * shrink)), max(1, round(h * shrink))


def pixels(picture: Picture, frame_mm: tuple[float, float]):
    """The picture's pixels (a PIL image in RGBA) as drawn into a frame of frame_mm (w, h): a PNG's
    or JPEG's own (decoded once, kept while the budget allows), an SVG drawn at that size. Read
    only: whoever draws it makes what it needs from it."""
    try:
        if picture.kind == "svg":
            w_px, h_px = svg_raster_size(*frame_mm)
            return _pixels.get(("svg", picture.key, w_px, h_px), lambda: _svg_pixels(picture, w_px, h_px))
        return _pixels.get(("raster", picture.key), lambda: _decode_raster(picture))
    except PictureError as exc:
        # Checked whole when read, a picture fails here only if its compressed data is damaged
        # under sound checksums: the build stops with the file's error, nothing written.
        from ..errors import SpecError
        raise SpecError(picture.origin or "a picture", None, "", str(exc)) from None


def raster_key(picture: Picture, frame_mm: tuple[float, float]) -> tuple:
    """What names the pixels `pixels` gives for this placement (the same key, the same pixels)."""
    if picture.kind == "svg":
        return (picture.key, *svg_raster_size(*frame_mm))
    return (picture.key,)


def opaque(rgba) -> bool:
    """Every pixel of an RGBA image opaque."""
    return rgba.getextrema()[3] == (255, 255)


def png_of(rgba) -> bytes:
    """An RGBA image as PNG bytes (RGB where every pixel is opaque): for the SVG backend."""
    img = rgba.convert("RGB") if opaque(rgba) else rgba
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def png_rows(picture: Picture) -> bytes | None:
    """A PNG's compressed rows (its IDAT chunks joined) where a PDF can show them as they are:
    8 bits or fewer a sample, not interlaced, grey, RGB or palette, no transparency (PDF's
    FlateDecode with PNG predictors reads exactly that stream). Colour chunks (gAMA, sRGB, iCCP)
    are left aside here as the decoder leaves them aside: every backend shows the same samples."""
    facts = picture.png
    if (facts is None or facts.interlaced or facts.transparency or facts.depth > 8
            or facts.colour_type not in (0, 2, 3)):
        return None
    data, pos, out = picture.data, 8, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            out.append(data[pos + 8:pos + 8 + length])
        elif kind == b"IEND":
            break
        pos += 12 + length
    return b"".join(out)


def tiles(box: tuple[float, float, float, float], frame: tuple[float, float, float, float],
          limit: int = 5) -> list[tuple[float, float, float, float, bool, bool]]:
    """Where the whole picture is drawn to cover a box from its frame: the frame itself, and its
    mirror images beyond each edge the box runs past ((x, y, w, h, flipped across, flipped down)
    for each), as cairo's reflect pattern repeats it. At most `limit` each way."""
    import math
    x, y, w, h = box
    fx, fy, fw, fh = frame
    i0, i1 = math.floor((x - fx) / fw + 1e-9), math.ceil((x + w - fx) / fw - 1e-9) - 1
    j0, j1 = math.floor((y - fy) / fh + 1e-9), math.ceil((y + h - fy) / fh - 1e-9) - 1
    i0, i1 = max(i0, -limit), min(i1, limit)
    j0, j1 = max(j0, -limit), min(j1, limit)
    return [(fx + i * fw, fy + j * fh, fw, fh, i % 2 != 0, j % 2 != 0)
            for j in range(j0, j1 + 1) for i in range(i0, i1 + 1)]
