"""The files a print shop takes as they are (`--shop NAME`): for every deck, what the shop's
profile (generator/shops/NAME.yaml, or the folder's own shops/NAME.yaml) says it takes, in
GAME/shop-NAME/: DriveThruCards' PDF/X-1a:2003 deck PDF and tuck box, The Game Crafter's and
MakePlayingCards' pictures and zip, Tabletop Simulator's deck sheets and saved object; each file's
print-list entry says where it goes. The machinery is generator/shops/."""
from __future__ import annotations

from .contents import Deck
from .declaration import ProductDeclaration


def make(deck: Deck, plan, opts) -> None:
    from ..shops.products import make_shop_files
    make_shop_files(deck, plan, opts)


def options(parser) -> None:
    parser.add_argument("--shop", metavar="NAME", help="also write the files a print shop takes as they are, in "
                                                       "GAME/shop-NAME/ (--shop list: the shops)")
    parser.add_argument("--strict", action="store_true", help="--shop: text in the shop's safe zone, or a deck no "
                                                              "product is near, is an error, not a warning")


PRODUCT = ProductDeclaration(
    name="shop-files", takes=(Deck,), make=make, rank=25, options=options,
    files="shop-NAME/STEM-PRODUCT.pdf, STEM-tuckbox.pdf; STEM-NNN-front.png, STEM-all-back.png, STEM-NAME.zip; "
          "STEM-sheetN.jpg, STEM-back.jpg, STEM.json",
    entry=dict(shop=True, order=75),
    wanted=lambda opts: bool(opts.extra.get("shop")))
