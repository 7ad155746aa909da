"""What a game holds, as it declares it: its decks, boards, kits, pieces, rules sheet, assembly
sheets and documents of its own. A game's `contents(specs, paper, part)` lists them; it writes no
file. The build hands each content to every product that takes its kind (products/*.py), and those
make the files. A new product makes files of these kinds; a new kind of content is added here.

Every content has `spec` (whose lines its errors name), `variant` (the alternative its files belong
to in the print list, "2 players": set on each file made of it that sets none of its own), `only`
(the products that make it, by name; None: every product that takes it) and `skip` (those that do
not: a build in parts).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..layout.cutpart import CutPart   # noqa: F401  (a part a cutting machine cuts: layout, below us)

if TYPE_CHECKING:       # a game imports this module alone, and stays light to import
    from ..colour import Colour
    from ..draw import Drawing
    from ..layout.cardsize import CardSize
    from ..paper import Paper

MAX_CARDS = 2000   # cards in one deck: a count beyond this is a typo, not a game


def stem_of(spec) -> str:
    """The file-name stem of a spec's products: its file's name, made safe."""
    from ..outputs import safe_name
    return safe_name(Path(spec.file).stem, "spec")


@dataclass
class DeckArt:
    """A deck ready to print: distinct faces with their counts, and the back."""
    stem: str                      # file name stem, e.g. "mille_bornes"
    title: str
    size: CardSize
    faces: list[tuple[Drawing, int, str]] = field(default_factory=list)  # (face, count, caption)
    back: Drawing | None = None
    # Where the cards' backs differ: each face's back (parallel to `faces`) and its caption; `back`
    # is then the one the tuck box shows.
    backs: list[tuple[Drawing, str]] | None = None
    contact_pixels: int | None = None   # the contact sheet's pixels at most (its dpi lowered to fit),
    contact_greek_px: float | None = None   # and its text smaller than this drawn as bars
    product: str | None = None    # the shop's product the deck is drawn for (`card: {product: shop/key}`)

    def expanded(self) -> list[Drawing]:
        return [face for face, count, _ in self.faces for _ in range(count)]

    def expanded_backs(self) -> Drawing | list[Drawing] | None:
        """The back of every card (as expanded() lists the faces), or the one back of them all."""
        if self.backs is None:
            return self.back
        return [back for (_, count, _), (back, _) in zip(self.faces, self.backs) for _ in range(count)]

    def distinct_backs(self) -> list[tuple[Drawing, str]]:
        """Each back once, with its caption, for the contact sheet."""
        if self.backs is None:
            return [(self.back, "back")] if self.back else []
        seen: dict[int, tuple[Drawing, str]] = {}
        for back, caption in self.backs:
            seen.setdefault(id(back), (back, caption))
        return list(seen.values())


@dataclass(frozen=True)
class BoxLook:
    """A deck's tuck box as the game wants it: its colour, its ink, and what it says it holds."""
    colour: Colour
    ink: Colour
    contents: str | None = None    # "42 tiles, the rules card and the scoring example"; None: "106 cards"


@dataclass
class Content:
    spec: Any
    variant: str | None = field(default=None, kw_only=True)
    only: tuple[str, ...] | None = field(default=None, kw_only=True)
    skip: tuple[str, ...] = field(default=(), kw_only=True)


@dataclass
class Deck(Content):
    """Cards to print: the sheet, the shop's pages, the contact sheet, and (with `box`) a tuck box."""
    art: DeckArt
    box: BoxLook | None = None

    @contextmanager
    def laid_out(self):
        """A card that does not fit the paper (a LayoutError) as the spec's error, at its card."""
        from ..layout.cards import LayoutError
        try:
            yield
        except LayoutError as exc:
            raise self.spec.error(("card",) if "card" in self.spec.data else (), str(exc)) from None

    def __post_init__(self):
        cards = len(self.art.expanded())
        if cards > MAX_CARDS:
            raise self.spec.error(("card",) if "card" in self.spec.data else (),
                                  f"{cards} cards in all; a deck has at most {MAX_CARDS}")


@dataclass
class Board(Content):
    """A board at full size: a print shop's large page, home tiles, a preview."""
    drawing: Drawing
    stem: str
    title: str


@dataclass
class Kit(Content):
    """Parts to cut, nested onto stock sheets, one set of sheets per material. what, make: what the
    sheets are and how they are put together, for the print list; stock: the materials' names to
    buy, by the parts' material (default: the material itself); folder: a folder of the game's
    for its files."""
    parts: list
    sheet: tuple[float, float]
    kerf: float
    margin: float
    spacing: float
    stem: str
    what: str = ""
    make: str = ""
    order: int = 60
    stock: Mapping[str, str] | None = None
    folder: str = ""
    kiss_cut: Mapping[str, float] | None = None   # materials cut through their film only, and how deep (mm)


@dataclass
class Pieces(Content):
    """Pieces to print, cut and fold, packed on the build's paper by `pages(paper)`; `fits` names
    them in the error of pieces too big for it ("the men"), at the spec's `field`. info: the file's
    print-list entry but its pages and paper."""
    name: str                      # the file's name before "-PAPER.pdf"
    title: str
    pages: Callable[[Paper], list]
    fits: str
    field: tuple
    info: Mapping[str, Any]


@dataclass
class CutParts(Content):
    """Printed parts with outlines, for the print-and-cut products (`pnp build --cut MACHINE`):
    `parts()` lists them (made when a product asks); `name` is the files' stem, `title` what the
    print list calls them, `info` their print-list entry but pages and paper. A deck's cards are
    its Deck's (the cut product makes them from the DeckArt and its size); this kind is for the
    other printed pieces (men, paper pieces, strips, tuck boxes)."""
    name: str
    title: str
    parts: Callable[[], list[CutPart]]
    info: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class RulesSheet(Content):
    """The game's rules sheet; `game` is what its figures and tables are drawn from (the game's
    sheet_game)."""
    game: Any


@dataclass
class AssemblySheet(Content):
    """How a kit or a piece is put together: `sheet()` makes it (a layout.assembly.Assembly), when
    the product asks (a kit refused before it costs nothing), laid out on the paper; first in the
    game's print list (order 0) or just before the piece it explains."""
    stem: str
    sheet: Callable[[], Any]
    what: str
    order: int = 0
    with_laser: bool = False     # a laser kit's: its paper counted with the kit's stock, not by those
                                 # who make only the paper pieces (print_list)


@dataclass
class Document(Content):
    """Pages of the game's own making (the map's halves, the wall strips, a rack), made by `pages()`
    when the product asks: `name` is the file's, `info` its print-list entry but its pages; a `shop`
    document is a print shop's (written as PDF/X with --pdfx)."""
    name: str
    title: str
    pages: Callable[[], list]
    info: Mapping[str, Any]
    shop: bool = False
