"""Cards as pictures (`--layout png`): every distinct face and back of a deck as a PNG at `--dpi`
(default 300), trim and bleed, RGB, its dpi in the file, in GAME/png-DPI/. The same per-card
machinery as the picture shops' (generator/shops/pictures.py)."""
from __future__ import annotations

import argparse

from .contents import Deck
from .declaration import ProductDeclaration


def make(deck: Deck, plan, opts) -> None:
    from ..shops.products import make_card_pictures
    make_card_pictures(deck, plan, opts)


def _dpi(text: str) -> int:
    try:
        dpi = int(text)
    except ValueError:
        from ..errors import show
        raise argparse.ArgumentTypeError(f"expected a whole number of dots per inch, got {show(text)}") from None
    if not 30 <= dpi <= 1200:
        raise argparse.ArgumentTypeError(f"expected 30 to 1200 dpi, got {dpi}")
    return dpi


def options(parser) -> None:
    parser.add_argument("--dpi", type=_dpi, help="--layout png: the pictures' dpi (default 300; 30 to 1200)")


PRODUCT = ProductDeclaration(
    name="png", takes=(Deck,), make=make, rank=35, options=options,
    files="png-DPI/STEM-NNN-front.png, STEM-back.png",
    entry=dict(preview=True, order=92),
    wanted=lambda opts: "png" in opts.layouts)
