"""The Capitals deck and board specs as dataclasses: countries with their computed card facts.

A country's square, rank, letter count and population bracket are computed here, never typed:
the square from latitude and longitude through the board's projection, so that the cards and
the board are drawn from one set of numbers.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from ...colour import Colour
from ...errors import SpecError, show
from ...inputs import MadeFromFiles
from ...layout.cardsize import CardSize
from ...limits import board_size_problem
from ...paper import PAPERS, Paper
from ...spec import Spec, load_related
from .flags import check_flag
from .geo import Projection, parse_square, square_name


@dataclass(frozen=True)
class Country:
    name: str
    capital: str
    lat: float
    lon: float
    population: float | None     # millions, mid-1961; None for the United Nations
    iso: str
    now: str | None
    flag: tuple
    ratio: float                 # flag height / width
    outline: bool
    note: str | None
    special: dict | None         # {units: n} | {right_angle: n} | {straight_line: true}
    rank: int                    # 1..117, alphabetical
    letters: int                 # the wall length of an ordinary card; the penalty in hand
    bracket: int
    square: tuple[int, int]      # (row, col) from 0

    @property
    def coords(self) -> str:
        return square_name(*self.square)

    @property
    def is_special(self) -> bool:
        return self.special is not None

    def special_rule(self) -> str:
        s = self.special or {}
        if "units" in s:
            n = s["units"]
            return f"Lay a wall of {n} unit{'s' if n > 1 else ''} anywhere on the map, if it completes an enclosure."
        if "right_angle" in s:
            return (f"Lay walls forming a right angle, of up to {s['right_angle']} units in all, "
                    "anywhere on the map, if they complete an enclosure.")
        return "Lay walls in one straight line, as long as needed, anywhere, completing one or more enclosures."


@dataclass
class Deck:
    title: str
    size: CardSize
    radius: float
    palette: dict[str, Colour]
    flag_colours: dict[str, Colour]
    brackets: list[tuple[int, float | None, Colour]]   # (bracket, upper bound or None, marker colour)
    un_colour: Colour
    back: dict
    countries: list[Country]
    projection: Projection

    def by_name(self) -> dict[str, Country]:
        return {c.name.lower(): c for c in self.countries}

    def bracket_colour(self, bracket: int) -> Colour:
        for b, _, colour in self.brackets:
            if b == bracket:
                return colour
        return self.un_colour


def letter_count(name: str) -> int:
    """Letters only: spaces, hyphens, apostrophes and full stops do not count."""
    return sum(ch.isalpha() for ch in name)


def sort_key(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in plain if ch.isalpha()).lower()


def load_projection(spec: Spec) -> Projection:
    p, g = spec.data["projection"], spec.data["grid"]
    return Projection(p["name"], float(p["west"]), float(p["north"]), float(p["square_deg"]),
                      g["columns"], g["rows"])


# A card's face (faces.py) sets the flag between the rank and letter columns, 34 mm of the card's
# width in all: on a card narrower than 40 mm the flag would be under 6 mm across, or nothing.
MIN_CARD_WIDTH = 40.0


def load_deck(spec: Spec, projection: Projection | None = None) -> Deck:
    d = spec.data
    if d["card"]["width"] < MIN_CARD_WIDTH:
        raise spec.error(("card", "width"), f"is {d['card']['width']:g} mm: a Capitals card is at least "
                                            f"{MIN_CARD_WIDTH:g} mm wide (its flag sits between the rank and "
                                            "letter columns)")
    if projection is None:
        projection = load_projection(load_related(spec, "board", ("capitals-board",)))
    pal = spec.palette(needs=("ink", "paper", "frame", "special"))
    flag_colours = {k: spec.colour(("flag_colours", k)) for k in d["flag_colours"]}
    brackets = []
    for i, b in enumerate(d["population_brackets"]):
        brackets.append((b["bracket"], b.get("below"), spec.colour(("population_brackets", i, "colour"), pal)))
        if "below" not in b and i != len(d["population_brackets"]) - 1:
            raise spec.error(("population_brackets", i), "only the last bracket may be open (no `below`)")
        if i and brackets[i - 1][1] is not None and b.get("below") is not None and b["below"] <= brackets[i - 1][1]:
            raise spec.error(("population_brackets", i, "below"), "brackets must rise")
    back = {k: spec.colour(("back", k), pal) for k in ("colour", "ink")}
    back.update(title=d["back"]["title"], subtitle=d["back"].get("subtitle", ""))

    ents = d["entities"]
    order = sorted(range(len(ents)), key=lambda i: sort_key(ents[i]["country"]))
    rank = {i: r + 1 for r, i in enumerate(order)}
    seen: dict[str, int] = {}
    countries = []
    for i, e in enumerate(ents):
        key = sort_key(e["country"])
        if key in seen:
            raise spec.error(("entities", i, "country"), f'"{e["country"]}" is listed twice (first at entities[{seen[key]}])')
        seen[key] = i
        sq = projection.square(e["lat"], e["lon"])
        if sq is None:
            raise spec.error(("entities", i, "lat"), f"{e['capital']} ({e['lat']}, {e['lon']}) falls off the board's map")
        check_flag(spec, ("entities", i, "flag"), e["flag"], flag_colours)
        pop = e.get("population")
        if pop is None and "special" not in e:
            raise spec.error(("entities", i), "an ordinary country needs its population")
        bracket = 0
        if pop is not None:
            for b, below, _ in brackets:
                if below is None or pop < below:
                    bracket = b
                    break
        countries.append(Country(
            e["country"], e["capital"], float(e["lat"]), float(e["lon"]), pop, e["iso"], e.get("now"),
            tuple(e["flag"]), float(e.get("ratio", 2 / 3)), e.get("outline", True), e.get("note"),
            e.get("special"), rank[i], letter_count(e["capital"]), bracket, sq))
    ordinary = sum(not c.is_special for c in countries)
    special = len(countries) - ordinary
    exp = d.get("expected", {})
    if exp and (ordinary, special) != (exp["ordinary"], exp["special"]):
        raise spec.error(("expected",), f"the entities are {ordinary} ordinary and {special} special, "
                                        f"not {exp['ordinary']} and {exp['special']}")
    countries.sort(key=lambda c: c.rank)
    return Deck(d["title"], CardSize.of(d["card"]),
                d["card"].get("corner_radius", 0.0), pal, flag_colours, brackets,
                spec.colour(("un_colour",), pal), back, countries, projection)


@dataclass
class WorldMap:
    title: str
    projection: Projection
    square: float
    margin: float
    marker_radius: float
    label_size: float
    halves_paper: Paper
    palette: dict[str, Colour]
    land: tuple    # polygons: ([exterior ring], [hole ring], ...) in (longitude, latitude)
    deck: Deck
    sites: dict[tuple[int, int], list[Country]] = field(default_factory=dict)
    # Where the land comes from, for an error found when it is drawn: (spec file, line of its
    # `land:`, the land file as the spec names it).
    land_from: tuple = ("", None, "")

    @property
    def width(self) -> float:
        return self.projection.columns * self.square + 2 * self.margin

    @property
    def height(self) -> float:
        """The grid, its margins, and under them the key (title and markers), off the grid."""
        return self.projection.rows * self.square + 2 * self.margin + KEY_HEIGHT


KEY_HEIGHT = 13.0    # mm under the bottom margin for the board's key: kept off the playable squares


# The land's points and polygons in all: 25 times the shipped file's 4,125 points and 40 times its
# 119 polygons, finer than the board prints, and a bound on the time to check and draw them (GEOS
# joins 5,000 small polygons in about a second, 18,000 in five; benchmarks/spec_extremes.py).
MAX_LAND_POINTS = 100_000
MAX_LAND_POLYGONS = 5_000
MIN_LABEL_MM = 6 * 25.4 / 72    # the smallest text printed: 6 pt


def load_land(spec: Spec) -> tuple:
    """The land polygons the board names (JSON: {"polygons": [[ring, hole...], ...]}, a ring a list
    of [lon, lat]), checked: a file that is not that is the spec's error at its `land` line."""
    import json
    from ...inputs import MAX_DATA_BYTES, read_text
    from ...spec.loader import related_path
    path, display = related_path(spec, "land")
    try:
        data = json.loads(read_text(path, display, MAX_DATA_BYTES))
    except SpecError as exc:
        raise spec.error(("land",), exc.message) from None
    except (ValueError, RecursionError) as exc:
        raise spec.error(("land",), f"{display} is not valid JSON ({str(exc)[:80]})") from None
    polygons = data.get("polygons") if isinstance(data, dict) else None
    points = 0
    good = isinstance(polygons, list) and len(polygons) <= MAX_LAND_POLYGONS
    number = (int, float)          # by type: not bool; NaN and the infinities fail the ranges below
    for poly in polygons if good else ():
        if not (isinstance(poly, list) and poly and all(isinstance(r, list) and len(r) >= 3 for r in poly)):
            good = False
            break
        for ring in poly:
            points += len(ring)
            if points > MAX_LAND_POINTS or not all(
                    type(p) is list and len(p) == 2 and type(p[0]) in number and type(p[1]) in number
                    and -180 <= p[0] <= 180 and -90 <= p[1] <= 90 for p in ring):
                good = False
                break
        if not good:
            break
    if not good:
        raise spec.error(("land",), f"{display}: expected {{\"polygons\": [[ring, ...], ...]}}, each ring at least "
                                    f"3 [longitude, latitude] points, {MAX_LAND_POINTS:,} points and "
                                    f"{MAX_LAND_POLYGONS:,} polygons in all at most")
    return tuple(tuple(tuple(tuple(p) for p in ring) for ring in poly) for poly in polygons)


_BOARDS = MadeFromFiles()


def load_board(spec: Spec, land: bool = True) -> WorldMap:
    """The board; without `land` its coastlines are not read (a referee needs the squares only).
    Made once per spec while the files it read (the deck, the coastlines) are unchanged: a build's
    check and its three Capitals jobs (deck, map, walls) all read it, and the jobs' processes
    start from the check's."""
    return _BOARDS.get((id(spec), land), lambda: _load_board(spec, land), owner=spec)


def _load_board(spec: Spec, land: bool) -> WorldMap:
    d = spec.data
    projection = load_projection(spec)
    if projection.rows > 26:
        raise spec.error(("grid", "rows"), "rows are lettered A to Z: 26 at most")
    deck = load_deck(load_related(spec, "deck", ("capitals-deck",)), projection)
    anchor = d.get("anchor")
    if anchor:
        want = parse_square(anchor["square"])
        found = [c for c in deck.countries if c.capital.lower() == anchor["capital"].lower()]
        if not found:
            raise spec.error(("anchor", "capital"), f"no capital {show(anchor['capital'])} in the deck")
        if found[0].square != want:
            raise spec.error(("anchor",), f"{anchor['capital']} falls in {found[0].coords}, not "
                                          f"{square_name(*want)}: change the projection")
    land_from = (spec.file, spec.line(("land",)), d["land"])
    land = load_land(spec) if land else ()
    pal = spec.palette(needs=("ink", "paper", "frame", "sea", "land", "coast", "grid"))
    m = d["marker"]
    if m["label_size"] < MIN_LABEL_MM:
        raise spec.error(("marker", "label_size"), f"names under 6 pt ({MIN_LABEL_MM:.2f} mm) are too small to read")
    wm = WorldMap(d["title"], projection, float(d["square"]), float(d.get("margin", 12)), m["radius"],
                  m["label_size"], PAPERS[d.get("halves_paper", "a2")], pal, land, deck, land_from=land_from)
    problem = board_size_problem(wm.width, wm.height)
    if problem:
        raise spec.error(("square",), problem)
    for c in deck.countries:
        wm.sites.setdefault(c.square, []).append(c)
    return wm
