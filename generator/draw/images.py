"""Pictures on a drawing: PNG, JPEG and SVG files, decoded as a stranger's files.

A Picture is made from a file's bytes (read by the caller, bounded: inputs.read_bytes) and refused
with one line (PictureError) when it is not what it says: a decompression bomb (pixels counted from
the header, before anything is decoded), a truncated or corrupt file, another format, an SVG that
names anything outside itself (a link, a stylesheet, an embedded picture), runs a script, declares
entities, or expands through <use> beyond a bound. Nothing is ever fetched.

A drawing places a region of a picture (drawing.Image): `src` is the part of the picture shown, in
its own width and height (0 to 1 across); beyond 0 or 1 the picture is mirrored at its edge, which
is how art reaching a card's trim is carried on into the bleed. Every backend asks `region()` for
those pixels (RGBA, 8 bits), so the PDF, the SVG and the PNG show the same ones. An SVG is drawn to
pixels by cairosvg, at SVG_DPI of the size it is placed at.
"""
from __future__ import annotations

import hashlib
import io
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

MAX_PIXELS = 40_000_000        # a picture's width x height: an A3 page at 300 dpi is 17 million
MAX_SIDE = 20_000              # pixels a side
SVG_DPI = 600                  # an SVG is drawn to pixels at this resolution of its placed size
MAX_SVG_SIDE = 4_000           # ... and never more pixels a side than this
MAX_SVG_ELEMENTS = 20_000      # elements in an SVG file
MAX_SVG_EXPANDED = 100_000     # elements drawn, each <use> counted as what it stands for
MAX_SVG_DEPTH = 64             # elements nested in elements
CACHE_BYTES = 256 * 1024 * 1024   # decoded pixels kept for reuse (a face is drawn once per file)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
JPEG_MAGIC = b"\xff\xd8\xff"


class PictureError(ValueError):
    """Why a file is not a picture we draw, in a few words."""


@dataclass(frozen=True, eq=False)
class Picture:
    """A picture's source: its kind ("png", "jpeg", "svg"), its size in pixels (an SVG: its own
    width and height, only their ratio matters), and its bytes. `key` names its content."""
    kind: str
    width: int
    height: int
    data: bytes
    key: str

    @property
    def aspect(self) -> float:
        return self.width / self.height


def picture_from_bytes(data: bytes) -> Picture:
    """The picture in a file's bytes, checked whole (decoded once), or PictureError."""
    key = hashlib.sha256(data).hexdigest()
    if data.startswith(PNG_MAGIC):
        kind = "png"
    elif data.startswith(JPEG_MAGIC):
        kind = "jpeg"
    elif _looks_like_svg(data):
        w, h = check_svg(data)
        picture = Picture("svg", w, h, data, key)
        _svg_pixels(picture, 32, 32)      # drawn once, small: an SVG cairosvg cannot draw is refused now
        return picture
    else:
        raise PictureError(f"not a PNG, JPEG or SVG file ({_what_it_is(data)})")
    w, h = _raster_size(data, kind)
    picture = Picture(kind, w, h, data, key)
    _decoded(picture)                     # decoded whole now: a truncated or corrupt file is refused here
    return picture


def _what_it_is(data: bytes) -> str:
    for magic, name in ((b"GIF8", "a GIF image"), (b"RIFF", "a WebP or other RIFF file"), (b"BM", "a BMP image"),
                        (b"II*\x00", "a TIFF image"), (b"MM\x00*", "a TIFF image"), (b"%PDF", "a PDF")):
        if data.startswith(magic):
            return name
    return "its first bytes are none of theirs" if data else "an empty file"


# ---------------------------------------------------------------- PNG and JPEG

def _raster_size(data: bytes, kind: str) -> tuple[int, int]:
    """Width and height from the header, before any pixel is decoded: a bomb is refused here."""
    from PIL import Image
    try:
        with Image.open(io.BytesIO(data), formats=["PNG" if kind == "png" else "JPEG"]) as img:
            w, h = img.size
    except Exception as exc:  # noqa: BLE001  (PIL raises many kinds for a bad header)
        raise PictureError(f"not a readable {kind.upper()} file ({_reason(exc)})") from None
    _check_size(w, h)
    return w, h


def _check_size(w: int, h: int) -> None:
    if w <= 0 or h <= 0:
        raise PictureError(f"a picture of {w} x {h} pixels")
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_PIXELS:
        raise PictureError(f"{w:,} x {h:,} pixels is more than a card needs (at most {MAX_PIXELS:,} pixels "
                           f"and {MAX_SIDE:,} a side)")


def _reason(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]


def _decode_raster(picture: Picture):
    """The pixels as an RGBA array (height, width, 4), JPEG turned as its EXIF orientation says."""
    import numpy as np
    from PIL import Image, ImageFile, ImageOps
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with Image.open(io.BytesIO(picture.data), formats=["PNG" if picture.kind == "png" else "JPEG"]) as img:
            img.load()
            if picture.kind == "jpeg":
                img = ImageOps.exif_transpose(img)
            rgba = img.convert("RGBA")
    except Exception as exc:  # noqa: BLE001  (truncated, corrupt, a bad EXIF block: all refused alike)
        raise PictureError(f"cannot decode this {picture.kind.upper()} file ({_reason(exc)})") from None
    _check_size(*rgba.size)
    return np.asarray(rgba, dtype=np.uint8)


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


def check_svg(data: bytes) -> tuple[int, int]:
    """An SVG file checked for what it may not do; its width and height (px, at least 1)."""
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
    count, stack = 0, [(root, 1)]
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
        if name == "style":
            _check_css(el.text or "")
        stack.extend((child, depth + 1) for child in el)
    _check_uses(root, ids)
    return _svg_size(root)


def _check_css(value: str) -> None:
    if "@import" in value.lower():
        raise PictureError("an SVG whose style imports another file (@import)")
    for m in _URL.finditer(value):
        if not m.group(2).strip().startswith("#"):
            raise PictureError(f"an SVG that names another file (url({m.group(2)[:40]})): only "
                               "references inside the file (url(#id)) are followed")


def _check_uses(root, ids: dict) -> None:
    """<use> elements repeat what they name: the whole drawing, each repetition counted, is bounded
    (nested <use>s multiply, as aliases do in YAML), and a <use> that names itself is refused."""
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
    expanded(root, (id(root),))


def _svg_size(root) -> tuple[int, int]:
    """The SVG's size in px: its viewBox's, else its width and height."""
    vb = root.attrib.get("viewBox")
    w = h = None
    if vb:
        parts = re.split(r"[\s,]+", vb.strip())
        try:
            w, h = float(parts[2]), float(parts[3])
        except (IndexError, ValueError):
            raise PictureError(f"an SVG whose viewBox is not four numbers ({vb[:40]!r})") from None
    else:
        sizes = []
        for key in ("width", "height"):
            m = _LENGTH.match(root.attrib.get(key, ""))
            sizes.append(float(m.group(1)) * _UNIT_PX[m.group(2)] if m else None)
        w, h = sizes
    if not w or not h or not (0 < w < 1e7 and 0 < h < 1e7):
        raise PictureError("an SVG with no size: give its <svg> a viewBox (or a width and height)")
    scale = max(w, h) / 1000   # only the ratio matters: kept in whole pixels without losing it
    return max(1, round(w / scale)), max(1, round(h / scale))


def _refuse_fetch(url, *args, **kwargs):
    raise PictureError(f"an SVG that names another file ({str(url)[:40]})")


def _svg_pixels(picture: Picture, w_px: int, h_px: int):
    """The SVG drawn at w_px x h_px, as an RGBA array."""
    import numpy as np
    from cairosvg.surface import PNGSurface
    from PIL import Image
    try:
        png = PNGSurface.convert(bytestring=picture.data, output_width=w_px, output_height=h_px, unsafe=False,
                                 url_fetcher=_refuse_fetch)
        with Image.open(io.BytesIO(png), formats=["PNG"]) as img:
            return np.asarray(img.convert("RGBA"), dtype=np.uint8)
    except PictureError:
        raise
    except Exception as exc:  # noqa: BLE001  (cairosvg's errors have no common base)
        raise PictureError(f"cannot draw this SVG ({_reason(exc)})") from None


# ---------------------------------------------------------------- regions, as the backends draw them

class _Cache:
    """Decoded pixels, most recent kept, up to CACHE_BYTES (one build process draws a face once
    per file it writes: the sheet, the shop pages, the contact sheet)."""

    def __init__(self, budget: int):
        self.budget, self.used = budget, 0
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, make):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = make()
        with self.lock:
            if key not in self.items:
                self.items[key] = value
                self.used += value.nbytes
                while self.used > self.budget and len(self.items) > 1:
                    _, old = self.items.popitem(last=False)
                    self.used -= old.nbytes
        return value


_cache = _Cache(CACHE_BYTES)


def _decoded(picture: Picture):
    return _cache.get(("raster", picture.key), lambda: _decode_raster(picture))


def svg_raster_size(picture: Picture, w_mm: float, h_mm: float) -> tuple[int, int]:
    """Pixels to draw an SVG at, placed w_mm x h_mm: SVG_DPI, at most MAX_SVG_SIDE a side."""
    k = SVG_DPI / 25.4
    w, h = max(1.0, w_mm * k), max(1.0, h_mm * k)
    shrink = min(1.0, MAX_SVG_SIDE / max(w, h))
    return max(1, round(w * shrink)), max(1, round(h * shrink))


def _mirror(index, n: int):
    """Indices beyond 0..n-1 folded back as a mirror at the edges shows them: ..., 1, 0 | 0, 1, ...,
    n-1 | n-1, n-2, ..."""
    import numpy as np
    m = index % (2 * n)
    return np.where(m < n, m, 2 * n - 1 - m)


def region(picture: Picture, src: tuple[float, float, float, float], full_mm: tuple[float, float]):
    """The pixels (RGBA array) of the part `src` = (x0, y0, x1, y1) of the picture, in its own
    width and height (0..1; beyond, mirrored). full_mm: the size the whole picture is drawn at
    (an SVG is drawn to pixels at that size)."""
    import numpy as np
    if picture.kind == "svg":
        w_px, h_px = svg_raster_size(picture, *full_mm)
        pixels = _cache.get(("svg", picture.key, w_px, h_px), lambda: _svg_pixels(picture, w_px, h_px))
    else:
        pixels = _decoded(picture)
    h, w = pixels.shape[:2]
    x0, y0, x1, y1 = src
    if (x0, y0, x1, y1) == (0.0, 0.0, 1.0, 1.0):
        return pixels
    key = ("region", picture.key, id(pixels), src)

    def make():
        c0, c1 = int(round(x0 * w)), max(int(round(x0 * w)) + 1, int(round(x1 * w)))
        r0, r1 = int(round(y0 * h)), max(int(round(y0 * h)) + 1, int(round(y1 * h)))
        cols = _mirror(np.arange(c0, c1), w)
        rows = _mirror(np.arange(r0, r1), h)
        return np.ascontiguousarray(pixels[rows][:, cols])
    return _cache.get(key, make)


def opaque(pixels) -> bool:
    return bool((pixels[:, :, 3] == 255).all())


def png_of(pixels) -> bytes:
    """RGBA pixels as PNG bytes (RGB where every pixel is opaque): for the SVG backend."""
    from PIL import Image
    img = Image.fromarray(pixels, "RGBA")
    if opaque(pixels):
        img = img.convert("RGB")
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
