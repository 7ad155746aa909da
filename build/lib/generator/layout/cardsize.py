"""A card's size: trim width and height and the bleed around them, in mm. Kept apart from the
layouts so that a deck can be read (by a referee, say) without the drawing machinery."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CardSize:
    width: float
    height: float
    bleed: float

    @classmethod
    def of(cls, card: dict) -> "CardSize":
        """From a deck spec's `card:` mapping (width, height, bleed; its schema has checked them)."""
        return cls(card["width"], card["height"], card["bleed"])

    def bleed_clip(self):
        from ..draw import Rect, Style
        b = self.bleed
        return Rect(-b, -b, self.width + 2 * b, self.height + 2 * b, Style())
