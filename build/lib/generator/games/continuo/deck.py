"""The Continuo pack spec as dataclasses, with the checks a schema cannot make."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...colour import WHITE, Colour, contrast_ratio, readable_on
from ...layout.cardsize import CardSize
from ...spec import Spec, load_related
from .rules import Layout, Placement, Refused, place
from .tiles import Tile, canonical, regions


MIN_CONTRAST = 4.5    # WCAG's contrast for text: a compartment's number against its colour
DARK_INK = Colour(rgb=(0.063, 0.063, 0.063))


@dataclass(frozen=True)
class TileColour:
    letter: str
    name: str
    colour: Colour
    number: int
    ink: Colour          # the colour its number is printed in (Count continuo)


def numeral_ink(colour: Colour) -> Colour:
    """White or near-black, whichever stands out more from the compartment's colour."""
    return readable_on(colour, WHITE, DARK_INK)


@dataclass
class ContinuoDeck:
    spec: Spec
    title: str
    variant: str
    size: CardSize
    corner_radius: float
    colours: dict[str, TileColour]
    tiles: list[Tile]
    back: dict
    rules: str
    example: list[Placement]

    @cached_property
    def number_by_shape(self) -> dict[Tile, int]:
        """Tile number (1-based) by its canonical shape: rows naming a pack tile are that tile."""
        return {canonical(t): i for i, t in enumerate(self.tiles, 1)}

    @property
    def numbers(self) -> dict[str, int] | None:
        """Colour letter -> number when chains score their numbers (Count continuo)."""
        if self.variant != "count-continuo":
            return None
        return {k: c.number for k, c in self.colours.items()}


def check_tile(tile: Tile, letters, fail) -> None:
    for r, row in enumerate(tile):
        for ch in row:
            if ch not in letters:
                fail((r,), f'colour letter "{ch}" is not in colours ({", ".join(sorted(letters))})')
    used = {ch for row in tile for ch in row}
    if not 2 <= len(used) <= 3:
        fail((), f"a tile has two or three colours (claim 6), this one {len(used)}")
    for region in regions(tile):
        if not any(r in (0, 3) or c in (0, 3) for r, c in region):
            fail((), "every colour region must reach the tile's edge so its chain can continue (claims 1, 5)")


def load_deck(spec: Spec) -> ContinuoDeck:
    data = spec.data
    if "tiles_from" in data:
        # The numbered pack shares the coloured pack's tiles and colours: one source of truth.
        source = load_related(spec, "tiles_from", ("continuo-deck",))
        if "tiles_from" in source.data:
            raise spec.error(("tiles_from",), "must name a continuo deck that lists its own tiles")
        colour_spec, tile_spec = source, source
    else:
        colour_spec, tile_spec = spec, spec
    colours = {}
    for letter, c in colour_spec.data["colours"].items():
        fill = colour_spec.colour(("colours", letter, "colour"))
        ink = colour_spec.colour(("colours", letter, "ink")) if "ink" in c else numeral_ink(fill)
        if contrast_ratio(ink, fill) < MIN_CONTRAST:
            raise colour_spec.error(("colours", letter, "ink" if "ink" in c else "colour"),
                                    f"the number's ink has a contrast of {contrast_ratio(ink, fill):.1f}:1 with "
                                    f"the compartment; at least {MIN_CONTRAST}:1 is needed to read it")
        colours[letter] = TileColour(letter, c["name"], fill, c["number"], ink)
    numbers = [c.number for c in colours.values()]
    if len(set(numbers)) != len(numbers):
        raise colour_spec.error(("colours",), "each colour needs its own number (compartments with the same "
                                              "number share a colour)")
    tiles: list[Tile] = []
    seen: dict = {}
    for i, t in enumerate(tile_spec.data["tiles"]):
        tile = tuple(t)

        def fail(sub, msg, i=i):
            raise tile_spec.error(("tiles", i) + sub, msg)
        check_tile(tile, colours, fail)
        key = canonical(tile)
        if key in seen:
            raise tile_spec.error(("tiles", i), f"the same tile as tile {seen[key] + 1} (after turning it); "
                                                "no two tiles may be alike")
        seen[key] = i
        tiles.append(tile)
    if "expected_total" in data and len(tiles) != data["expected_total"]:
        raise spec.error(("expected_total",), f"the deck has {len(tiles)} tiles, not {data['expected_total']}")
    example = []
    layout = Layout()
    for i, e in enumerate(data.get("example", [])):
        p = Placement(tuple(e["tile"]), e["at"][0], e["at"][1], e.get("rotation", 0), e.get("opening", False))
        for r, row in enumerate(p.tile):
            for ch in row:
                if ch not in colours:
                    raise spec.error(("example", i, "tile", r), f'colour letter "{ch}" is not in colours')
        try:
            layout, _ = place(layout, p)
        except Refused as exc:
            raise spec.error(("example", i), f"refused: {exc}") from None
        example.append(p)
    c = data["card"]
    b = data["back"]
    back = {"colour": spec.colour(("back", "colour")), "ink": spec.colour(("back", "ink")), "title": b["title"]}
    return ContinuoDeck(spec, data["title"], data["variant"], CardSize.of(c),
                        c.get("corner_radius", 0.0), colours, tiles, back, data["rules"], example)
