"""The reportlab backend: renders a Drawing onto PDF pages measured in mm, y down.

Fonts are TrueType and embedded (subset); no base-14 font is ever set, so `pdffonts` lists only
embedded fonts. With cmyk=True every colour is written as CMYK, as print shops ask.
"""
from __future__ import annotations

import io

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

from ..colour import Colour
from ..units import PT_PER_MM, mm_to_pt
from .drawing import Drawing, Ellipse, Group, Image, Rect, Text
from .fonts import Font

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


def _register(font: Font) -> str:
    if font.name not in pdfmetrics.getRegisteredFontNames():
        # A font from a spec's folder comes as the bytes that were read and checked (fonts.py).
        source = io.BytesIO(font.data) if font.data is not None else font.path
        pdfmetrics.registerFont(TTFont(font.name, source))
    return font.name


def _cmyk_pixels(rgb):
    """RGB pixels (uint8) as CMYK ones, by the rule Colour.as_cmyk follows (black generated from
    the darkest channel), so a picture's inks agree with the card's flat colours under --cmyk."""
    import numpy as np
    f = rgb.astype(np.float32) / 255.0
    k = 1.0 - f.max(axis=2)
    room = np.where(k < 1.0, 1.0 - k, 1.0)
    cmy = (1.0 - f - k[:, :, None]) / room[:, :, None]
    cmy[k >= 1.0] = 0.0
    out = np.concatenate([cmy, k[:, :, None]], axis=2)
    return np.clip(np.rint(out * 255.0), 0, 255).astype(np.uint8)


FORM_EXTENT = 10_000.0   # mm: a form's bounding box, wide enough for any drawing placed in it


class PdfRenderer:
    def __init__(self, canvas: Canvas, cmyk: bool = False):
        self.c = canvas
        self.cmyk = cmyk
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
        for child in group.items:
            self.render(child)
        c.endForm()
        return name

    def _fill(self, colour: Colour):
        if self.cmyk or colour.rgb is None:
            self.c.setFillColorCMYK(*colour.as_cmyk())
        else:
            self.c.setFillColorRGB(*colour.rgb)

    def _stroke(self, colour: Colour):
        if self.cmyk or colour.rgb is None:
            self.c.setStrokeColorCMYK(*colour.as_cmyk())
        else:
            self.c.setStrokeColorRGB(*colour.rgb)

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
            for op in item.ops:
                kind = op[0]
                if kind == "M":
                    p.moveTo(*op[1:])
                elif kind == "L":
                    p.lineTo(*op[1:])
                elif kind == "C":
                    p.curveTo(*op[1:])
                else:
                    p.close()
        return p

    def render(self, item):
        c = self.c
        if isinstance(item, Group) and item.reused and item.transform == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0) \
                and item.clip is None:
            c.doForm(self._form(item))
        elif isinstance(item, Group):
            c.saveState()
            if item.transform != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
                c.transform(*item.transform)
            if item.clip is not None:
                c.clipPath(self._path(item.clip), stroke=0, fill=0)
            for child in item.items:
                self.render(child)
            c.restoreState()
        elif isinstance(item, Image):
            self._image(item)
        elif isinstance(item, Text):
            c.saveState()
            self._fill(item.fill)
            c.translate(item.x, item.y)
            c.scale(1, -1)  # text must read upright on a y-down page
            c.setFont(_register(item.font), item.size)
            c.drawString(0, 0, item.text)
            c.restoreState()
        else:
            s = item.style
            if s.fill is None and s.stroke is None:
                return
            if s.fill is not None:
                self._fill(s.fill)
            if s.stroke is not None:
                self._stroke(s.stroke)
                c.setLineWidth(s.width)
                c.setLineJoin(_JOIN[s.join])
                c.setLineCap(_CAP[s.cap])
                c.setDash(list(s.dash) if s.dash else [])
            c.drawPath(self._path(item), stroke=int(s.stroke is not None), fill=int(s.fill is not None),
                       fillMode=FILL_EVEN_ODD if s.even_odd else FILL_NON_ZERO)


    def _image(self, item: Image) -> None:
        """A picture's pixels (images.region), drawn into its box; an alpha channel becomes the
        image's soft mask. The same pixels are written once per document (reportlab names an
        image by its data's digest), however many faces show them."""
        if item.w <= 0 or item.h <= 0:
            return
        import numpy as np
        from PIL import Image as PILImage
        from reportlab.lib.utils import ImageReader
        from .images import opaque, region
        pixels = region(item.picture, item.src, item.full)
        alpha = not opaque(pixels)
        if self.cmyk:
            img = PILImage.fromarray(_cmyk_pixels(pixels[:, :, :3]), "CMYK")
        else:
            img = PILImage.fromarray(pixels if alpha else pixels[:, :, :3], "RGBA" if alpha else "RGB")
        c = self.c
        c.saveState()
        c.translate(item.x, item.y + item.h)
        c.scale(1, -1)       # an image's rows run down the page
        if alpha and self.cmyk:
            # The soft mask from the alpha channel, the colours in CMYK: reportlab takes a mask
            # from an RGBA picture only, so the CMYK image carries it as a separate one.
            reader = ImageReader(img)
            reader.getRGBData()      # reads the pixels (and clears _dataA), so it is set after
            reader._dataA = ImageReader(PILImage.fromarray(np.ascontiguousarray(pixels[:, :, 3]), "L"))
            c.drawImage(reader, 0, 0, item.w, item.h, mask="auto")
        else:
            c.drawImage(ImageReader(img), 0, 0, item.w, item.h, mask="auto" if alpha else None)
        c.restoreState()


def box_pt(x: float, y: float, w: float, h: float, page_h: float) -> tuple[float, float, float, float]:
    """A box given in mm from the top-left, as PDF points (x1, y1, x2, y2) from the bottom-left."""
    return (mm_to_pt(x), mm_to_pt(page_h - y - h), mm_to_pt(x + w), mm_to_pt(page_h - y))


class PdfDocument:
    """Pages of Drawings; each page may carry a TrimBox and BleedBox (mm, from the top-left)."""

    def __init__(self, path: str, title: str = "", cmyk: bool = False):
        # reportlab opens every page with an initial font; make it an embedded TrueType one,
        # or Helvetica (base-14, not embedded) appears in every page's resources.
        from .fonts import get_font
        initial = _register(get_font("sans"))
        self.canvas = Canvas(path, pageCompression=1, invariant=1, initialFontName=initial)
        self.canvas.setTitle(title)
        self.canvas.setCreator("pnp-generator")
        self.renderer = PdfRenderer(self.canvas, cmyk)
        self.pages = 0

    def add_page(self, drawing: Drawing, trim=None, bleed=None):
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
        self.renderer.render(drawing.root)
        c.restoreState()
        c.showPage()
        self.pages += 1

    def save(self):
        self.canvas.save()
