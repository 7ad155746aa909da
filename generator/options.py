"""A build's options, as the command line gives them (kept apart so the CLI can name them
without importing the drawing and PDF machinery)."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

LAYOUTS = ("sheet", "shop")      # what a build writes unless --layout says
EXTRA_LAYOUTS = ("png",)         # written only when asked: every card as a picture (--dpi)


@dataclass
class BuildOptions:
    out: Path = Path("output")
    paper: str = "a4"
    flip: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    layouts: tuple[str, ...] = LAYOUTS
    cmyk: bool = False
    interleave: bool = False
    pdfx: bool = False          # the print shop's files as PDF/X-1a:2001 (CMYK, an output intent)
    shop: str | None = None     # --shop NAME: the files that shop takes (generator/shops/), in GAME/shop-NAME/
    shop_profile: str | None = None   # the profile file it names (ours, or the folder's own): a build is
                                      # made again when a profile of one's own comes to replace ours
    dpi: int = 300              # --layout png: the cards' pictures at this dpi
    strict: bool = False        # --strict: a shop's safe zone entered, or no product near, is an error

    def products_key(self) -> dict:
        """What of these options changes the files a build writes (not where they go)."""
        d = asdict(self)
        d.pop("out")
        d["back_offset"] = list(self.back_offset)
        d["layouts"] = list(self.layouts)
        return d
