"""The hand (`--layout hand`): a deck's distinct faces fanned as a player holds them, a picture to
show a deck (as Squib's `hand`), STEM-hand.png at show_pictures.DPI.

The cards turn about a point below their middle (0.3 card heights below the bottom edge, as
Squib's radius: auto), from the leftmost to the rightmost, each on the one before, at most
HAND_STEP degrees apart and 90 degrees in all, the fan upright in the middle. Each card casts a
soft shadow on those under it, so white cards stay apart."""
from __future__ import annotations

import math

from .contents import Deck
from .declaration import ProductDeclaration
from .show_pictures import DPI, add_show_picture, card_rgba, finished, fitting_dpi, shadow_of

HAND_STEP = 20.0          # degrees between two cards, at most (a few cards spread, as a hand is held)
HAND_SPREAD = 90.0        # degrees from the first card to the last, at most
RADIUS = 0.3              # the turning point below the bottom edge, in card heights
MARGIN = 5.0              # mm round the fan


def angles(n: int) -> list[float]:
    """Each card's turn (degrees, clockwise), the fan symmetric about upright."""
    if n <= 1:
        return [0.0] * n
    step = min(HAND_STEP, HAND_SPREAD / (n - 1))
    return [(k - (n - 1) / 2) * step for k in range(n)]


def fan(w: float, h: float, turns: list[float]) -> list[list[tuple[float, float]]]:
    """Each card's corners (top-left, top-right, bottom-right, bottom-left) turned about the point
    below the cards, in the units of w and h, the card unturned at (0, 0)."""
    px, py = w / 2, h + RADIUS * h
    out = []
    for theta in turns:
        c, s = math.cos(math.radians(theta)), math.sin(math.radians(theta))
        out.append([(px + c * (x - px) - s * (y - py), py + s * (x - px) + c * (y - py))
                    for x, y in ((0, 0), (w, 0), (w, h), (0, h))])
    return out


def hand_dpi(card, n: int) -> float:
    """DPI, or less where the hand of n cards would have more than MAX_PIXELS (large cards)."""
    every = [p for corners in fan(card.width, card.height, angles(n)) for p in corners]
    return fitting_dpi(max(x for x, _ in every) - min(x for x, _ in every) + 2 * MARGIN,
                       max(y for _, y in every) - min(y for _, y in every) + 2 * MARGIN)


def hand_picture(faces: list, card, corner_mm: float, dpi: float = DPI):
    """The faces fanned, as a PIL RGB image at dpi; and each card's corners on it (pixels), for tests."""
    from PIL import Image
    turns = angles(len(faces))
    cards = [card_rgba(face, card, corner_mm, dpi) for face in faces]
    w, h = cards[0].size
    px, py = w / 2, h + RADIUS * h              # the turning point, in a card's pixels
    placed_at = fan(w, h, turns)
    every = [p for corners in placed_at for p in corners]
    margin = MARGIN / 25.4 * dpi
    ox, oy = margin - min(x for x, _ in every), margin - min(y for _, y in every)
    size = (math.ceil(max(x for x, _ in every) + ox + margin), math.ceil(max(y for _, y in every) + oy + margin))
    canvas = Image.new("RGBA", size, (0, 0, 0, 0))
    shadow_px = max(1, round(dpi / 100))
    placed = [[(x + ox, y + oy) for x, y in corners] for corners in placed_at]
    for image, theta, corners in zip(cards, turns, placed):
        c, s = math.cos(math.radians(theta)), math.sin(math.radians(theta))
        shadow, pad = shadow_of(image, shadow_px, 3 * shadow_px)
        # Drawn into the card's own box on the canvas (its shadow's reach round it), not the whole:
        # Pillow maps each pixel of that box back to the card, the turn undone about the point.
        x0, y0 = (max(0, math.floor(min(p[k] for p in corners)) - pad) for k in (0, 1))
        x1, y1 = (min(size[k], math.ceil(max(p[k] for p in corners)) + pad) for k in (0, 1))
        X0, Y0 = ox + px - x0, oy + py - y0
        inverse = (c, s, px - c * X0 - s * Y0, -s, c, py + s * X0 - c * Y0)
        box = (x1 - x0, y1 - y0)
        canvas.alpha_composite(shadow.transform(box, Image.AFFINE, _shifted(inverse, pad), Image.BILINEAR), (x0, y0))
        canvas.alpha_composite(image.transform(box, Image.AFFINE, inverse, Image.BILINEAR), (x0, y0))
    return finished(canvas), placed


def _shifted(inverse: tuple, pad: int) -> tuple:
    """An inverse map onto a picture padded by `pad` on every side."""
    a, b, c, d, e, f = inverse
    return (a, b, c + pad, d, e, f + pad)


def make(deck: Deck, plan, opts) -> None:
    add_show_picture(deck, plan, "hand", hand_picture, hand_dpi, "faces fanned as a hand", PRODUCT.entry)


PRODUCT = ProductDeclaration(name="hand", takes=(Deck,), files="STEM-hand.png", make=make, rank=37,
                             entry=dict(preview=True, order=94), wanted=lambda opts: "hand" in opts.layouts)
