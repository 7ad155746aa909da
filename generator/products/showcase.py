"""The showcase (`--layout showcase`): a deck's distinct faces side by side in perspective, each
over its reflection, a picture to show a deck (as Squib's `showcase`), STEM-showcase.png at
show_pictures.DPI.

Squib's look and defaults: each card (and its reflection below it, REFLECT_GAP on, the card's
lower REFLECT_SHARE mirrored, fading from REFLECT_STRENGTH to nothing) is narrowed to SCALE of its
width, its left edge SCALE of its height and its right edge whole, so the cards face left, turned
away from the viewer; they stand OFFSET of a narrowed card apart. Squib draws the perspective in
one-pixel strips (cairo has no perspective); Pillow's perspective transform draws it whole."""
from __future__ import annotations

import math

from .contents import Deck
from .declaration import ProductDeclaration
from .show_pictures import DPI, add_show_picture, card_rgba, finished, fitting_dpi

SCALE = 0.85              # Squib's defaults (lib/squib/args/showcase_special.rb)
OFFSET = 1.1
REFLECT_GAP = 1.27        # mm (Squib: 15 px at 300 dpi)
REFLECT_SHARE = 0.25
REFLECT_STRENGTH = 0.2
MARGIN = 6.0              # mm round the picture


def _reflected(image, gap_px: int):
    """The card over its reflection: its lower part mirrored below it, fading out."""
    from PIL import Image, ImageOps
    w, h = image.size
    tall = round(h * REFLECT_SHARE)
    out = Image.new("RGBA", (w, h + gap_px + tall), (0, 0, 0, 0))
    out.alpha_composite(image)
    mirror = ImageOps.flip(image).crop((0, 0, w, tall))
    fade = Image.linear_gradient("L").resize((w, tall)).point(lambda v: int((255 - v) * REFLECT_STRENGTH))
    alpha = Image.composite(fade, Image.new("L", (w, tall), 0), mirror.getchannel("A"))
    mirror.putalpha(alpha)
    out.alpha_composite(mirror, (0, h + gap_px))
    return out


def _perspective_coefficients(quad, w: int, h: int) -> tuple:
    """Pillow's PERSPECTIVE data mapping the output quad (TL, TR, BR, BL) back onto a w x h picture."""
    import numpy as np
    rows, rhs = [], []
    for (X, Y), (x, y) in zip(quad, ((0, 0), (w, 0), (w, h), (0, h))):
        rows.append([X, Y, 1, 0, 0, 0, -x * X, -x * Y])
        rows.append([0, 0, 0, X, Y, 1, -y * X, -y * Y])
        rhs += [x, y]
    return tuple(np.linalg.solve(np.array(rows, float), np.array(rhs, float)))


def quad_of(w: int, h: int) -> list[tuple[float, float]]:
    """Where a card (with its reflection), w x h pixels, lands: narrowed, its left edge shorter."""
    nw = w * SCALE
    inset = h / 2 * (1 - SCALE)
    return [(0, inset), (nw, 0), (nw, h), (0, h - inset)]


def showcase_dpi(card, n: int) -> float:
    """DPI, or less where the showcase of n cards would have more than MAX_PIXELS (large cards)."""
    return fitting_dpi(2 * MARGIN + card.width * SCALE * (OFFSET * (n - 1) + 1),
                       2 * MARGIN + card.height * (1 + REFLECT_SHARE) + REFLECT_GAP)


def showcase_picture(faces: list, card, corner_mm: float, dpi: float = DPI):
    """The faces in perspective, as a PIL RGB image; and each card's quad on it (pixels), for tests."""
    from PIL import Image
    cards = [_reflected(card_rgba(face, card, corner_mm, dpi), round(REFLECT_GAP / 25.4 * dpi)) for face in faces]
    w, h = cards[0].size
    margin = round(MARGIN / 25.4 * dpi)
    step = w * SCALE * OFFSET
    size = (round(2 * margin + step * (len(cards) - 1) + w * SCALE), h + 2 * margin)
    canvas = Image.new("RGBA", size, (0, 0, 0, 0))
    quads = []
    for k, image in enumerate(cards):
        quad = [(x + margin + k * step, y + margin) for x, y in quad_of(w, h)]
        # Drawn into the card's own box on the canvas, not the whole.
        x0, y0 = (max(0, math.floor(min(p[i] for p in quad))) for i in (0, 1))
        x1, y1 = (min(size[i], math.ceil(max(p[i] for p in quad))) for i in (0, 1))
        data = _perspective_coefficients([(x - x0, y - y0) for x, y in quad], w, h)
        canvas.alpha_composite(image.transform((x1 - x0, y1 - y0), Image.PERSPECTIVE, data, Image.BILINEAR), (x0, y0))
        quads.append(quad)
    return finished(canvas), quads


def make(deck: Deck, plan, opts) -> None:
    add_show_picture(deck, plan, "showcase", showcase_picture, showcase_dpi, "faces in perspective over their reflections", PRODUCT.entry)


PRODUCT = ProductDeclaration(name="showcase", takes=(Deck,), files="STEM-showcase.png", make=make, rank=36,
                             entry=dict(preview=True, order=93), wanted=lambda opts: "showcase" in opts.layouts)
