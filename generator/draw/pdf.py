"""The reportlab backend: renders a Drawing onto PDF pages measured in mm, y down.

Fonts are TrueType and embedded (subset); no base-14 font is ever set, so `pdffonts` lists only
embedded fonts. With cmyk=True every colour is written as CMYK, as print shops ask.
"""
from __future__ import annotations

import io
from collections import OrderedDict
from dataclasses import dataclass

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

from ..colour import Colour
from ..errors import show
from ..units import PT_PER_MM, mm_to_pt
from .drawing import Drawing, Ellipse, Gradient, Group, Image, Rect, Text
from .fonts import Font, needs_shaping, text_outline

# Streams compressed with Flate alone: reportlab also wraps them in ASCII85 by default, which only
# served 7-bit mail, makes every stream a quarter larger and costs time to write and to read.
rl_config.useA85 = 0


def _quick_pdfdoc_encoding() -> None:
    """reportlab encodes every string it writes (numbers, names, object headers: a hundred
    thousand a build) through its 'extpdfdoc' codec, a tenth of a build's PDF time. For ASCII the
    codec is the identity, but for 0x18-0x1F (breve and the like, which it refuses); so ASCII
    without those is encoded as ASCII, and anything else as reportlab does. The same bytes."""
    from reportlab.pdfbase import pdfdoc
    original = pdfdoc.pdfdocEnc
    if getattr(original, "quick", False):
        return
    unmapped = bytes(range(0x18, 0x20))

    def pdfdoc_enc(x):
        if isinstance(x, str) and x.isascii():
            b = x.encode("ascii")
            if len(b.translate(None, unmapped)) == len(b):
                return b
        return original(x)
    pdfdoc_enc.quick = True
    pdfdoc_enc.original = original
    pdfdoc.pdfdocEnc = pdfdoc_enc


_quick_pdfdoc_encoding()

_JOIN = {"miter": 0, "round": 1, "bevel": 2}
_CAP = {"butt": 0, "round": 1, "square": 2}


def register_font(font: Font) -> str:
    if font.name not in pdfmetrics.getRegisteredFontNames():
        # A font from a spec's folder comes as the bytes that were read and checked (fonts.py).
        source = io.BytesIO(font.data) if font.data is not None else font.path
        pdfmetrics.registerFont(TTFont(font.name, source))
    return font.name


def limit_ink(cmyk: tuple[float, float, float, float], most: float | None) -> tuple[float, float, float, float]:
    """A CMYK colour within a total ink (a print shop's limit: 2.4 for 240 %): where the four inks
    add up to more, cyan, magenta and yellow are cut in proportion (black, which Colour.as_cmyk
    makes from the darkest channel, stays), so a dark colour keeps its darkness and hue."""
    c, m, y, k = cmyk
    if most is None or c + m + y + k <= most:
        return cmyk
    room = max(0.0, most - k)
    f = room / (c + m + y)
    return (c * f, m * f, y * f, min(k, most))


def _cmyk_pixels(rgb, ink_limit: float | None = None):
    """RGB pixels (uint8) as CMYK ones, by the rule Colour.as_cmyk follows (black generated from
    the darkest channel), so a picture's inks agree with the card's flat colours under --cmyk
    (and within the same total ink, limit_ink's rule)."""
    import numpy as np
    f = rgb.astype(np.float32) / 255.0
    k = 1.0 - f.max(axis=2)
    room = np.where(k < 1.0, 1.0 - k, 1.0)
    cmy = (1.0 - f - k[:, :, None]) / room[:, :, None]
    cmy[k >= 1.0] = 0.0
    if ink_limit is not None:
        # (rounding to 8 bits may add half a step to each ink: the limit less two steps)
        most = ink_limit - 2.0 / 255.0
        total = cmy.sum(axis=2) + k
        over = total > most
        scale = np.where(over, np.maximum(0.0, most - k) / np.maximum(cmy.sum(axis=2), 1e-9), 1.0)
        cmy = cmy * scale[:, :, None]
    out = np.concatenate([cmy, k[:, :, None]], axis=2)
    return np.clip(np.rint(out * 255.0), 0, 255).astype(np.uint8)


FORM_EXTENT = 10_000.0   # mm: a form's bounding box, wide enough for any drawing placed in it


def _add_ops(p, ops) -> None:
    """Path ops (M, L, C, Z: a Path's, or a shaped text's outline) onto a reportlab path."""
    for op in ops:
        kind = op[0]
        if kind == "M":
            p.moveTo(*op[1:])
        elif kind == "L":
            p.lineTo(*op[1:])
        elif kind == "C":
            p.curveTo(*op[1:])
        else:
            p.close()


class PdfRenderer:
    def __init__(self, canvas: Canvas, cmyk: bool = False, ink_limit: float | None = None,
                 flatten: bool = False):
        """flatten: no transparency in the file (PDF/X-1a forbids it): a picture with transparent
        pixels is laid over what was drawn under it in its face or page (on white paper) and
        written as the opaque result, so it prints as it looks on screen. ink_limit: every CMYK
        colour's and picture's total ink at most this (a shop's limit)."""
        self.c = canvas
        self.cmyk = cmyk
        self.ink_limit = ink_limit
        self.flatten = flatten
        # What has been drawn so far on the surface at hand (a page, or a form: a face is its
        # own backdrop), each item with the (transform, clip) of the groups around it.
        self.under: list[tuple[tuple, object]] = []
        self.around: list[tuple] = []
        # A drawing placed in others (a card face on every sheet and shop page, a board on every
        # tile) is written once per document as a form XObject and referred to after: the file
        # and the time to write it grow with the distinct faces, not with the cards.
        self.forms: dict[int, tuple[str, Group]] = {}

    def _form(self, group: Group) -> str:
        known = self.forms.get(id(group))
        if known is not None:
            return known[0]
        name = f"Form{len(self.forms) + 1}"
        self.forms[id(group)] = (name, group)   # the group is kept, so its id is not reused
        c = self.c
        c.beginForm(name, -FORM_EXTENT, -FORM_EXTENT, FORM_EXTENT, FORM_EXTENT)
        under, around = self.under, self.around
        self.under, self.around = [], []
        try:
            for child in group.items:
                self.render(child)
        finally:
            self.under, self.around = under, around
        shadings = dict(c._shadingUsed)
        c.endForm()
        _own_resources(c._doc.idToObject[c._doc.getXObjectName(name)], shadings)
        return name

    def _fill(self, colour: Colour):
        if self.cmyk or colour.rgb is None:
            self.c.setFillColorCMYK(*limit_ink(colour.as_cmyk(), self.ink_limit))
        else:
            self.c.setFillColorRGB(*colour.rgb)

    def _stroke(self, colour: Colour):
        if self.cmyk or colour.rgb is None:
            self.c.setStrokeColorCMYK(*limit_ink(colour.as_cmyk(), self.ink_limit))
        else:
            self.c.setStrokeColorRGB(*colour.rgb)

    def _pdf_colour(self, colour: Colour):
        """A colour as reportlab's, in CMYK where every colour is (a gradient's stops)."""
        from reportlab.lib.colors import CMYKColor, Color
        if self.cmyk or colour.rgb is None:
            return CMYKColor(*limit_ink(colour.as_cmyk(), self.ink_limit))
        return Color(*colour.rgb)

    def _shade(self, g: Gradient) -> None:
        """A gradient painted over the clip (PDF's sh: an axial or radial shading, its colours the
        stops', extended past its ends as SVG's pad and cairo's EXTEND_PAD)."""
        stops = list(g.stops)
        if self.cmyk:
            # The SVG and PNG run from stop to stop in RGB, a CMYK shading in CMYK: halfway from red
            # to blue is RGB's purple there, CMYK's brighter magenta here. So the CMYK shading
            # follows the RGB one through GRADIENT_STEPS colours from a stop to the next (the
            # stops themselves as given).
            fine = [stops[0]]
            for (o0, c0), (o1, c1) in zip(stops, stops[1:]):
                fine += [(o0 + (o1 - o0) * k / GRADIENT_STEPS, c0.mix(c1, k / GRADIENT_STEPS))
                         for k in range(1, GRADIENT_STEPS)] + [(o1, c1)]
            stops = fine
        colours = [self._pdf_colour(colour) for _, colour in stops]
        offsets = [offset for offset, _ in stops]
        if g.kind == "linear":
            self.c.linearGradient(*g.points, colours, offsets, extend=True)
        else:
            self.c.radialGradient(*g.points, colours, offsets, extend=True)

    def _opaque_copy(self, item) -> Image:
        """A transparent item (an opacity under 1) as a picture of it, for a file that may have no
        transparency (PDF/X-1a): drawn by the cairo backend over its box at FLATTEN_DPI (its pixels
        transparent where it is), then laid over what lies under it as every transparent picture
        is (_flattened), so it prints as it looks on screen."""
        from .cairo_backend import render_surface
        from .drawing import Drawing
        from .images import picture_from_bytes
        from .raster import surface_png
        x0, y0, x1, y1 = _extent(item)
        w, h = max(x1 - x0, 0.01), max(y1 - y0, 0.01)
        dpi = min(FLATTEN_DPI, FLATTEN_MAX_SIDE * 25.4 / max(w, h))
        sheet = Drawing(w, h)
        sheet.root.items.append(Group(items=[item], transform=(1.0, 0.0, 0.0, 1.0, -x0, -y0)))
        picture = picture_from_bytes(surface_png(render_surface(sheet, dpi)), "a transparent element")
        return Image(x0, y0, w, h, picture, (x0, y0, w, h))

    def _path(self, item):
        p = self.c.beginPath()
        if isinstance(item, Rect):
            if item.r > 0:
                p.roundRect(item.x, item.y, item.w, item.h, item.r)
            else:
                p.rect(item.x, item.y, item.w, item.h)
        elif isinstance(item, Ellipse):
            p.ellipse(item.cx - item.rx, item.cy - item.ry, 2 * item.rx, 2 * item.ry)
        else:
            _add_ops(p, item.ops)
        return p

    def render(self, item):
        c = self.c
        if isinstance(item, Group) and item.reused and item.transform == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0) \
                and item.clip is None:
            c.doForm(self._form(item))
            if self.flatten:
                self.under.append((tuple(self.around), item))
        elif isinstance(item, Group):
            c.saveState()
            if item.transform != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
                c.transform(*item.transform)
            if item.clip is not None:
                c.clipPath(self._path(item.clip), stroke=0, fill=0)
            self.around.append((item.transform, item.clip))
            try:
                for child in item.items:
                    self.render(child)
            finally:
                self.around.pop()
            c.restoreState()
        elif self.flatten and _transparent(item):
            self.render(self._opaque_copy(item))
        elif isinstance(item, Image):
            if item.opacity < 1:
                c.saveState()
                c.setFillAlpha(item.opacity)
                self._image(item)
                c.restoreState()
            else:
                self._image(item)
            if self.flatten:
                self.under.append((tuple(self.around), item))
        elif isinstance(item, Text) and (item.direction is not None or needs_shaping(item.text)):
            # Shaped text (right to left, joined, marked): its glyphs' outlines, as the SVG and
            # cairo backends draw every text; a PDF string can name only a character's own glyph.
            c.saveState()
            self._fill(item.fill)
            if item.opacity < 1:
                c.setFillAlpha(item.opacity)
            p = c.beginPath()
            _add_ops(p, text_outline(item.font, item.text, item.x, item.y, item.size, item.direction, item.context))
            c.drawPath(p, stroke=0, fill=1, fillMode=FILL_NON_ZERO)
            c.restoreState()
            if self.flatten:
                self.under.append((tuple(self.around), item))
        elif isinstance(item, Text):
            c.saveState()
            self._fill(item.fill)
            if item.opacity < 1:
                c.setFillAlpha(item.opacity)
            c.translate(item.x, item.y)
            c.scale(1, -1)  # text must read upright on a y-down page
            c.setFont(register_font(item.font), item.size)
            c.drawString(0, 0, item.text)
            c.restoreState()
            if self.flatten:
                self.under.append((tuple(self.around), item))
        else:
            s = item.style
            if s.fill is None and s.stroke is None:
                return
            rule = FILL_EVEN_ODD if s.even_odd else FILL_NON_ZERO
            own_state = s.fill_opacity < 1 or s.stroke_opacity < 1
            if own_state:
                c.saveState()
                c.setFillAlpha(s.fill_opacity)
                c.setStrokeAlpha(s.stroke_opacity)
            fill = s.fill is not None
            if isinstance(s.fill, Gradient):
                c.saveState()
                c.clipPath(self._path(item), stroke=0, fill=0, fillMode=rule)
                self._shade(s.fill)
                c.restoreState()
                fill = False
            elif fill:
                self._fill(s.fill)
            if s.stroke is not None:
                self._stroke(s.stroke)
                c.setLineWidth(s.width)
                c.setLineJoin(_JOIN[s.join])
                c.setLineCap(_CAP[s.cap])
                c.setDash(list(s.dash) if s.dash else [])
            if fill or s.stroke is not None:
                c.drawPath(self._path(item), stroke=int(s.stroke is not None), fill=int(fill), fillMode=rule)
            if own_state:
                c.restoreState()
            if self.flatten:
                self.under.append((tuple(self.around), item))


    def _image(self, item: Image) -> None:
        """A picture drawn from its frame and shown within its box (mirror images of it beyond
        the frame's edges where the box runs past them), as an image XObject written once per
        document however many faces show it."""
        if item.w <= 0 or item.h <= 0 or item.frame[2] <= 0 or item.frame[3] <= 0:
            return
        from .images import tiles
        c, doc = self.c, self.c._doc
        stream = _image_stream(item, self.cmyk, self.ink_limit)
        if self.flatten and stream.alpha is not None:
            stream = self._flattened(item)
        name = stream.name
        reg = doc.getXObjectName(name)
        if doc.idToObject.get(reg) is None:
            obj = _ImageObject(name, stream)
            c._setXObjects(obj)
            doc.Reference(obj, reg)
            doc.addForm(name, obj)
            if stream.alpha is not None:
                mask = _ImageObject(name + "A", _ImageStream(name + "A", stream.width, stream.height, "DeviceGray",
                                                             stream.alpha, None, decode=(0, 1)))
                c._setXObjects(mask)
                obj.smask = doc.Reference(mask, doc.getXObjectName(mask.name))
        c.saveState()
        if not item.fills_frame:
            box = c.beginPath()
            box.rect(item.x, item.y, item.w, item.h)
            c.clipPath(box, stroke=0, fill=0)
        for tx, ty, tw, th, across, down in tiles((item.x, item.y, item.w, item.h), item.frame):
            # The image's unit square onto the tile, its rows running down the page (flipped as
            # a mirror image is).
            c._code.append(f"q {fp_str(-tw if across else tw)} 0 0 {fp_str(th if down else -th)} "
                           f"{fp_str(tx + tw if across else tx)} {fp_str(ty if down else ty + th)} cm /{reg} Do Q")
        c.restoreState()
        c._formsinuse.append(name)


    def _flattened(self, item: Image) -> "_ImageStream":
        """The picture laid over what lies under it (drawn before it on this page or in this face,
        over white paper), sampled on the picture's own pixels: an opaque picture of what the
        transparent one shows. (Where a picture goes on mirrored into the bleed, the mirrored part
        shows the frame's backdrop mirrored: what lies under a card's art is its background.)"""
        import hashlib
        import zlib

        import numpy as np
        from .cairo_backend import CairoRenderer
        from .cairo_lib import ImageSurface
        from .drawing import compose, invert, scale, translate
        from .images import pixels
        rgba = np.asarray(pixels(item.picture, (item.frame[2], item.frame[3])))
        h, w = rgba.shape[:2]
        here = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        for transform, _ in self.around:
            here = compose(here, transform)
        fx, fy, fw, fh = item.frame
        try:
            to_pixels = compose(scale(w / fw, h / fh), compose(translate(-fx, -fy), invert(here)))
        except ValueError:       # (a picture under a transform that flattens it is never seen)
            to_pixels = None
        surface = ImageSurface(False, w, h)
        lib, ctx = surface.lib, surface.ptr
        lib.cairo_set_source_rgb(ctx, 1.0, 1.0, 1.0)
        lib.cairo_paint(ctx)
        renderer = CairoRenderer(ctx)
        for around, under in self.under if to_pixels is not None else ():
            node = under
            for transform, clip in reversed(around):
                node = Group(items=[node], transform=transform, clip=clip)
            renderer.render(Group(items=[node], transform=to_pixels))
        surface.check()
        surface.flush()
        stride = surface.get_stride()
        words = np.frombuffer(bytes(surface.get_data()), np.uint8).reshape(h, stride)[:, :4 * w].reshape(h, w, 4)
        import sys
        back = words[:, :, [2, 1, 0]] if sys.byteorder == "little" else words[:, :, [1, 2, 3]]   # opaque: not premultiplied
        a = rgba[:, :, 3:4].astype(np.uint32)
        out = ((rgba[:, :, :3].astype(np.uint32) * a + back.astype(np.uint32) * (255 - a) + 127) // 255).astype(np.uint8)
        samples = _cmyk_pixels(out, self.ink_limit).tobytes() if self.cmyk else out.tobytes()
        name = "Im" + hashlib.sha256(samples).hexdigest()[:24]
        return _ImageStream(name, w, h, "DeviceCMYK" if self.cmyk else "DeviceRGB",
                            zlib.compress(samples, IMAGE_ZLIB_LEVEL), None)


GRADIENT_STEPS = 16         # colours a CMYK gradient takes from one stop to the next (_shade)
FLATTEN_DPI = 300           # a transparent element's picture under --pdfx: a print's resolution
FLATTEN_MAX_SIDE = 4_000    # ... and never more pixels a side (an element the size of a page: 140 dpi on A4)


def _transparent(item) -> bool:
    """An item drawn with an opacity under 1 (an element's, a paint's, a picture's)."""
    if isinstance(item, (Image, Text)):
        return item.opacity < 1
    s = getattr(item, "style", None)
    return s is not None and ((s.fill is not None and s.fill_opacity < 1)
                              or (s.stroke is not None and s.stroke_opacity < 1))


def _extent(item) -> tuple[float, float, float, float]:
    """A box (x0, y0, x1, y1, mm) around everything an item paints: its outline, and its stroke's
    half width beyond it (four times, as far as a miter join at SVG's limit reaches)."""
    from .pathdata import ops_bounds
    if isinstance(item, Image):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Text):
        width = item.font.width(item.text, item.size)
        return item.x - item.size, item.y - 1.5 * item.size, item.x + width + item.size, item.y + 0.75 * item.size
    if isinstance(item, Rect):
        box = (item.x, item.y, item.x + item.w, item.y + item.h)
    elif isinstance(item, Ellipse):
        box = (item.cx - item.rx, item.cy - item.ry, item.cx + item.rx, item.cy + item.ry)
    else:
        box = ops_bounds(item.ops) or (0.0, 0.0, 0.0, 0.0)
    pad = 2 * item.style.width if item.style.stroke is not None else 0.0
    return box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad


def _own_resources(form, shadings: dict) -> None:
    """A form XObject's resources with the graphics states and shadings its content names:
    reportlab gives a form only its fonts and pictures (a reader may not look up the rest in the
    page's, and a page that only shows the form has none of them)."""
    res = pdfdoc.PDFResourceDictionary()
    res.basicFonts()
    res.allProcs()
    if form.XObjects:
        res.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        res.ExtGState = form.ExtGState
    if shadings:
        res.setShading(shadings)
    form.Resources = res


@dataclass(frozen=True)
class _ImageStream:
    name: str
    width: int
    height: int
    colour_space: object        # a name, or (base, highest index, lookup) for a palette
    data: bytes                 # the samples, compressed
    alpha: bytes | None         # the soft mask's samples (Flate), where any pixel is not opaque
    bits: int = 8
    predictor_colours: int | None = None   # PNG rows as they are: FlateDecode's predictor parameters
    filters: tuple = ("FlateDecode",)
    columns: int | None = None
    decode: tuple | None = None

    @property
    def nbytes(self) -> int:
        return len(self.data) + len(self.alpha or b"")


class _ImageObject(pdfdoc.PDFImageXObject):
    """An image XObject written as reportlab writes its own, with what reportlab's cannot say: a
    PNG's rows with their predictor, a palette."""

    def __init__(self, name: str, stream: _ImageStream):     # (reportlab's would load a canned picture)
        self.name, self.stream, self.smask = name, stream, None

    def format(self, document):
        st = self.stream
        S = pdfdoc.PDFStream(content=st.data)
        d = S.dictionary
        d["Type"] = pdfdoc.PDFName("XObject")
        d["Subtype"] = pdfdoc.PDFName("Image")
        d["Width"] = st.width
        d["Height"] = st.height
        d["BitsPerComponent"] = st.bits
        if isinstance(st.colour_space, tuple):
            base, highest, lookup = st.colour_space
            d["ColorSpace"] = pdfdoc.PDFArray([pdfdoc.PDFName("Indexed"), pdfdoc.PDFName(base), highest,
                                               _HexString(lookup)])
        else:
            d["ColorSpace"] = pdfdoc.PDFName(st.colour_space)
        # (the samples are already in their filters' form: a stream with a Filter is written as it is)
        d["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(f) for f in st.filters])
        if st.predictor_colours is not None:
            # (one set of parameters for each filter: Filter is a list, so DecodeParms is one too)
            d["DecodeParms"] = pdfdoc.PDFArray([pdfdoc.PDFDictionary({
                "Predictor": 15, "Colors": st.predictor_colours, "BitsPerComponent": st.bits,
                "Columns": st.columns})])
        if st.decode is not None:
            d["Decode"] = pdfdoc.PDFArray(list(st.decode))
        if self.smask is not None:
            d["SMask"] = self.smask
        return S.format(document)


class _HexString:
    """A byte string written in hex (a palette's lookup table)."""

    def __init__(self, data: bytes):
        self.data = data

    def format(self, document) -> bytes:
        return b"<" + self.data.hex().encode("ascii") + b">"


IMAGE_ZLIB_LEVEL = 6
STREAM_CACHE_BYTES = 64 * 1024 * 1024
_streams: "OrderedDict[tuple, _ImageStream]" = OrderedDict()
_streams_bytes = [0]


def _image_stream(item: Image, cmyk: bool, ink_limit: float | None = None) -> _ImageStream:
    """A placed picture's samples for a PDF, made once per process (a build writes the same faces
    into the sheet and the shop pages): a JPEG's data and a PNG's compressed rows as they are
    where a PDF can show them so, else the decoded pixels, compressed."""
    import hashlib
    import zlib
    from .images import opaque, pixels, png_rows, raster_key
    picture = item.picture
    frame_mm = (item.frame[2], item.frame[3])
    key = (raster_key(picture, frame_mm), cmyk, ink_limit if cmyk else None)
    known = _streams.get(key)
    if known is not None:
        _streams.move_to_end(key)
        return known
    name = "Im" + hashlib.sha256(repr(key).encode()).hexdigest()[:24]
    stream = None
    if not cmyk and picture.kind == "jpeg" and picture.jpeg_upright and picture.jpeg_components in (1, 3):
        stream = _ImageStream(name, picture.width, picture.height,
                              "DeviceGray" if picture.jpeg_components == 1 else "DeviceRGB", picture.data, None,
                              filters=("DCTDecode",))
    elif not cmyk and picture.kind == "png" and (rows := png_rows(picture)) is not None:
        facts = picture.png
        if facts.colour_type == 3:
            space = ("DeviceRGB", len(facts.palette) // 3 - 1, facts.palette)
        else:
            space = "DeviceGray" if facts.colour_type == 0 else "DeviceRGB"
        stream = _ImageStream(name, picture.width, picture.height, space, rows, None, bits=facts.depth,
                              predictor_colours=3 if facts.colour_type == 2 else 1, columns=picture.width)
    if stream is None:
        rgba = pixels(picture, frame_mm)
        w, h = rgba.size
        if cmyk:
            import numpy as np
            samples = _cmyk_pixels(np.asarray(rgba)[:, :, :3], ink_limit).tobytes()
        else:
            samples = rgba.tobytes("raw", "RGB")
        alpha = None if opaque(rgba) else zlib.compress(rgba.tobytes("raw", "A"), IMAGE_ZLIB_LEVEL)
        stream = _ImageStream(name, w, h, "DeviceCMYK" if cmyk else "DeviceRGB",
                              zlib.compress(samples, IMAGE_ZLIB_LEVEL), alpha)
    _streams[key] = stream
    _streams_bytes[0] += stream.nbytes
    while _streams_bytes[0] > STREAM_CACHE_BYTES and len(_streams) > 1:
        _, old = _streams.popitem(last=False)
        _streams_bytes[0] -= old.nbytes
    return stream


def box_pt(x: float, y: float, w: float, h: float, page_h: float) -> tuple[float, float, float, float]:
    """A box given in mm from the top-left, as PDF points (x1, y1, x2, y2) from the bottom-left."""
    return (mm_to_pt(x), mm_to_pt(page_h - y - h), mm_to_pt(x + w), mm_to_pt(page_h - y))


PDFX_VERSION = "PDF/X-1:2001"
PDFX_CONFORMANCE = "PDF/X-1a:2001"
PDFX_2003 = "PDF/X-1a:2003"     # ISO 15930-4: GTS_PDFXVersion names it whole, no GTS_PDFXConformance
OUTPUT_CONDITION = "pnp generic CMYK: each colour separated as K = 1 - max(R, G, B) from sRGB, no ink limit"


class PdfDocument:
    """Pages of Drawings; each page may carry a TrimBox and BleedBox (mm, from the top-left).

    pdfx=True writes PDF/X-1a:2001 (ISO 15930-1), as print shops ask: PDF 1.3, every colour CMYK,
    fonts embedded, no transparency, a TrimBox on every page (the caller gives one), the info
    dictionary's GTS_PDFXVersion and GTS_PDFXConformance, Trapped False, and one OutputIntent
    (GTS_PDFX) whose DestOutputProfile is the CMYK profile of icc.py, our separation's own.
    pdfx="PDF/X-1a:2003" writes ISO 15930-4's keys instead (GTS_PDFXVersion "PDF/X-1a:2003", no
    GTS_PDFXConformance; PDF 1.3 is within its 1.4). ink_limit: every CMYK colour's total ink at
    most this (2.4: 240 %), as a shop asks (limit_ink)."""

    def __init__(self, path: str, title: str = "", cmyk: bool = False, pdfx: bool | str = False,
                 ink_limit: float | None = None):
        # reportlab opens every page with an initial font; make it an embedded TrueType one,
        # or Helvetica (base-14, not embedded) appears in every page's resources.
        from .fonts import get_font
        initial = register_font(get_font("sans"))
        self.canvas = Canvas(path, pageCompression=1, invariant=1, initialFontName=initial)
        self.canvas.setTitle(title)
        self.canvas.setCreator("pnp-generator")
        self.pdfx = pdfx
        self.renderer = PdfRenderer(self.canvas, bool(cmyk or pdfx), ink_limit, flatten=bool(pdfx))
        self.pages = 0
        if pdfx:
            _make_pdfx(self.canvas, title, pdfx if isinstance(pdfx, str) else PDFX_CONFORMANCE)

    def add_page(self, drawing: Drawing, trim=None, bleed=None):
        if self.pdfx and not trim:
            raise ValueError("a PDF/X page needs its TrimBox")
        c = self.canvas
        w, h = drawing.width, drawing.height
        c.setPageSize((mm_to_pt(w), mm_to_pt(h)))
        # Boxes persist on a reportlab canvas, so set (or clear) them on every page.
        c.setTrimBox(box_pt(*trim, h) if trim else None)
        c.setBleedBox(box_pt(*bleed, h) if bleed else None)
        c.saveState()
        c.setMiterLimit(4)   # SVG's default, so a sharp join looks the same in the PDF, SVG and PNG
        c.translate(0, mm_to_pt(h))
        c.scale(PT_PER_MM, -PT_PER_MM)
        self.renderer.under = []          # a new page: nothing under what is drawn first
        self.renderer.render(drawing.root)
        c.restoreState()
        c.showPage()
        self.pages += 1

    def save(self):
        self.canvas.save()


def _make_pdfx(canvas: Canvas, title: str, standard: str = PDFX_CONFORMANCE) -> None:
    """The document-level parts of PDF/X-1a (2001 or 2003): the info dictionary's keys, and the
    output intent."""
    from reportlab.pdfbase import pdfdoc
    from ..icc import DESCRIPTION, cmyk_profile
    doc = canvas._doc
    if not title:
        raise ValueError("a PDF/X file needs its Title")

    class PdfxInfo(pdfdoc.PDFInfo):
        def format(self, document):
            d = pdfdoc.PDFInfo.format(self, document)
            if standard == PDFX_2003:
                extra = f"/GTS_PDFXVersion ({PDFX_2003})".encode("ascii")
            elif standard == PDFX_CONFORMANCE:
                extra = (f"/GTS_PDFXVersion ({PDFX_VERSION}) /GTS_PDFXConformance ({PDFX_CONFORMANCE})"
                         .encode("ascii"))
            else:
                raise ValueError(f"PDF/X-1a:2001 or PDF/X-1a:2003, not {show(standard)}")
            # The dictionary reportlab formats ends with ">>": the two keys go in before it.
            return d[:d.rindex(b">>")] + b" " + extra + b" " + d[d.rindex(b">>"):]
    info = PdfxInfo()
    info.__dict__.update(doc.info.__dict__)
    info.trapped = "False"
    doc.info = info
    profile = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"N": 4}), cmyk_profile())
    intent = pdfdoc.PDFDictionary({
        "Type": pdfdoc.PDFName("OutputIntent"), "S": pdfdoc.PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": pdfdoc.PDFString("Custom"),
        "OutputCondition": pdfdoc.PDFString(OUTPUT_CONDITION),
        "Info": pdfdoc.PDFString(DESCRIPTION),
        "DestOutputProfile": doc.Reference(profile)})
    catalog = doc.Catalog
    catalog.__NoDefault__ = list(catalog.__NoDefault__) + ["OutputIntents"]
    catalog.OutputIntents = pdfdoc.PDFArray([intent])
