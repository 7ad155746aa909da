"""Cards as pictures: one card side (a face or a back, a Drawing in the card's own mm) drawn to a
PNG or JPEG of exact pixels at a dpi, with its dpi in the file, RGB; and pictures laid in a grid
(Tabletop Simulator's deck sheets). The one machinery for the picture shops, `--layout png` and
any other per-card picture (Squib's save_png, say): it knows cards, not shops.

A card is placed by `placement`: its middle on the picture's middle, scaled uniformly by `scale`
(a card fitted to a shop's product a little larger or smaller, shops/__init__.py), clipped to its
art (trim and bleed); what the art does not cover is white.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from ..draw import Drawing, Rect, Style, compose, translate
from ..draw.drawing import Affine, scale as scaling
from ..layout.cardsize import CardSize
from ..errors import show
from ..units import MM_PER_INCH

MAX_PICTURE_PX = 100_000_000     # a picture's pixels at most (a 10 x 7 sheet of 4096 px is 16.8 M)
JPEG_QUALITY = 92


@dataclass(frozen=True)
class PictureSize:
    """A picture's exact pixels and its dpi: its size in mm follows."""
    width_px: int
    height_px: int
    dpi: float

    @property
    def mm(self) -> tuple[float, float]:
        return self.width_px / self.dpi * MM_PER_INCH, self.height_px / self.dpi * MM_PER_INCH


def placement(card: CardSize, width_mm: float, height_mm: float, scale: float = 1.0) -> Affine:
    """Card coordinates -> picture coordinates: the card's middle on the picture's middle, scaled."""
    return compose(translate(width_mm / 2, height_mm / 2),
                   compose(scaling(scale), translate(-card.width / 2, -card.height / 2)))


def card_drawing(side: Drawing, card: CardSize, size: PictureSize, scale: float = 1.0,
                 trim_only: bool = False) -> Drawing:
    """The card side placed on a drawing the picture's size (trim_only: cut at the trim, as Tabletop
    Simulator shows a card)."""
    w, h = size.mm
    d = Drawing(w, h)
    d.rect(0, 0, w, h, Style(fill=_white()))
    b = 0.0 if trim_only else card.bleed
    d.place(side, placement(card, w, h, scale), clip=Rect(-b, -b, card.width + 2 * b, card.height + 2 * b, Style()))
    return d


def _white():
    from ..colour import WHITE
    return WHITE


def rgb_image(drawing: Drawing, dpi: float):
    """The drawing as a PIL RGB image at dpi (its pixels exactly its width at dpi, rounded)."""
    import numpy as np
    from PIL import Image
    from ..draw.cairo_backend import raster_size, render_surface
    w, h = raster_size(drawing, dpi)
    if w * h > MAX_PICTURE_PX:
        raise ValueError(f"a {w} x {h} px picture is more than {MAX_PICTURE_PX:,} pixels")
    surface = render_surface(drawing, dpi)
    stride = surface.get_stride()
    argb = np.frombuffer(surface.get_data(), np.uint8).reshape(h, stride)[:, :4 * w].reshape(h, w, 4)
    # cairo's ARGB32, premultiplied, native-endian (B, G, R, A on little-endian); the drawing is
    # painted white first, so every pixel is opaque and its channels are its colour.
    import sys
    order = (2, 1, 0) if sys.byteorder == "little" else (1, 2, 3)
    rgb = np.ascontiguousarray(argb[:, :, list(order)])
    return Image.fromarray(rgb, "RGB")


def encode(image, dpi: float, fmt: str = "png") -> bytes:
    """A PIL image as PNG or JPEG bytes with its dpi recorded (PNG pHYs, JPEG JFIF density): the
    same image gives the same bytes."""
    buf = io.BytesIO()
    if fmt == "png":
        # (zlib level 3: level 6 is a third slower for files a quarter smaller)
        image.save(buf, "PNG", dpi=(dpi, dpi), optimize=False, compress_level=3)
    elif fmt == "jpeg":
        image.save(buf, "JPEG", dpi=(int(round(dpi)), int(round(dpi))), quality=JPEG_QUALITY, subsampling=0)
    else:
        raise ValueError(f"a picture is png or jpeg, not {show(fmt)}")
    return buf.getvalue()


def card_picture(side: Drawing, card: CardSize, size: PictureSize, scale: float = 1.0, fmt: str = "png") -> bytes:
    """One card side as a picture file of exactly size's pixels, at its dpi."""
    image = rgb_image(card_drawing(side, card, size, scale), size.dpi)
    assert image.size == (size.width_px, size.height_px), (image.size, size)
    return encode(image, size.dpi, fmt)


def card_size_at(card: CardSize, dpi: float, bleed: bool = True) -> PictureSize:
    """A card's own picture size at a dpi: its trim (and bleed) in whole pixels."""
    b = card.bleed if bleed else 0.0
    return PictureSize(max(1, round((card.width + 2 * b) / MM_PER_INCH * dpi)),
                       max(1, round((card.height + 2 * b) / MM_PER_INCH * dpi)), dpi)


def grid_sheet(sides: list[Drawing | None], card: CardSize, columns: int, rows: int, cell: PictureSize,
               fmt: str = "jpeg") -> bytes:
    """Card sides cut at their trim, laid left to right and top to bottom in a grid of cells of
    exactly cell's pixels (None: an empty, white cell). The sheet is columns x rows cells."""
    from PIL import Image
    sheet = Image.new("RGB", (columns * cell.width_px, rows * cell.height_px), (255, 255, 255))
    done: dict[int, object] = {}
    for i, side in enumerate(sides[:columns * rows]):
        if side is None:
            continue
        image = done.get(id(side))
        if image is None:
            image = done[id(side)] = rgb_image(card_drawing(side, card, cell, _trim_scale(card, cell), True), cell.dpi)
        r, c = divmod(i, columns)
        sheet.paste(image, (c * cell.width_px, r * cell.height_px))
    return encode(sheet, cell.dpi, fmt)


def _trim_scale(card: CardSize, cell: PictureSize) -> float:
    """A trim-cut card fills its cell: the cell's mm over the card's (the cell is sized to the card)."""
    w, h = cell.mm
    return max(w / card.width, h / card.height)
