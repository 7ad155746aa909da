"""A build's options, as the command line gives them (kept apart so the CLI can name them
without importing the drawing and PDF machinery)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .paper import A4, Paper

LAYOUTS = ("sheet", "shop")      # what a build writes unless --layout says
# Written only when asked: every card as a picture (--dpi); a showcase and a hand of the deck's
# faces, pictures to show a deck (as Squib's showcase and hand).
EXTRA_LAYOUTS = ("png", "showcase", "hand")


@dataclass
class BuildOptions:
    out: Path = Path("output")
    paper: Paper = A4
    flip: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    layouts: tuple[str, ...] = LAYOUTS
    cmyk: bool = False
    interleave: bool = False
    pdfx: bool = False          # the print shop's files as PDF/X-1a:2001 (CMYK, an output intent)
    extra: dict[str, Any] = field(default_factory=dict)   # the products' own options, by dest (--shop NAME)

    def products_key(self) -> dict:
        """What of these options changes the files a build writes (not where they go)."""
        d = asdict(self)
        d.pop("out")
        d["paper"] = self.paper.name
        d["back_offset"] = list(self.back_offset)
        d["layouts"] = list(self.layouts)
        if not self.extra:      # none given: the key of a build before products had options
            d.pop("extra")
        return d
