"""A `kind: deck` spec read whole: its cards (from the spec and its CSV), its fonts, icons and
pictures (files in the spec's own folder, read bounded and checked), and its layouts with every
`extends` resolved and every element's keys and fields checked (load.py then draws the cards).

What a spec names is read only from its own folder: a file's name (or one made from a card's
fields, `art/{name}.png`) is a relative path that must stay inside it, links included
(inputs.confined); a font that is not a font, a picture that is not a picture, is the spec's error
at the line that names it.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ...colour import BLACK, Colour, parse_colour
from ...errors import SpecError, show
from ...inputs import MAX_DATA_BYTES, ReferenceError_, confined, read_bytes
from ...layout.cardsize import CardSize
from ...spec.loader import SpecErrors, format_field
from .data import MAX_CARDS, Card, cards_of_spec, read_csv
from .sheets import MAX_SHEET_BYTES, is_spreadsheet, read_sheet
from .text import Family

# The language a deck's words are hyphenated in where it names none (its `language`), looked up
# among pyphen's dictionaries (LibreOffice's).
DEFAULT_LANGUAGE = "en_US"

SHIPPED = {"sans": Family("sans", "sans-bold", "sans-italic", "sans-bold-italic")}
FIELD = re.compile(r"\\([{}])|\{([A-Za-z_][A-Za-z0-9_]*)\}")
MAX_ERRORS_SHOWN = 25

# What each element type takes: (required keys, optional keys); every type also takes id, type,
# when, rotate and opacity.
COMMON_KEYS = {"id", "type", "when", "rotate", "opacity"}
SHAPE = {"fill", "stroke", "stroke_width", "dash", "fill_opacity", "stroke_opacity"}
CROP = ("crop_x", "crop_y", "crop_width", "crop_height")
KEYS = {
    "rect": ({"x", "y", "w", "h"}, {"radius"} | SHAPE),
    "circle": ({"cx", "cy", "r"}, SHAPE),
    "ellipse": ({"cx", "cy", "rx", "ry"}, SHAPE),
    "arc": ({"cx", "cy", "r", "start", "end"}, SHAPE),
    "pie": ({"cx", "cy", "r", "start", "end"}, SHAPE),
    "line": ({"x1", "y1", "x2", "y2"}, {"stroke", "stroke_width", "dash", "stroke_opacity"}),
    "triangle": ({"x1", "y1", "x2", "y2", "x3", "y3"}, SHAPE),
    "polygon": (set(), {"points", "cx", "cy", "r", "n"} | SHAPE),     # points, or cx, cy, r and n (checked below)
    "star": ({"cx", "cy", "n", "inner_radius", "outer_radius"}, SHAPE),
    "path": ({"d"}, {"x", "y", "scale"} | SHAPE),
    "text": ({"x", "y", "w", "h", "text"}, {"font", "size", "min_size", "colour", "align", "valign", "leading",
                                            "bold", "italic"}),
    "image": ({"x", "y", "w", "h", "file"}, {"fit", "picture_rotate", *CROP}),
    "icon": ({"x", "y", "w", "h", "icon"}, {"picture_rotate"}),
}
TEMPLATE_KEYS = ("fill", "stroke", "colour", "text", "file", "icon")   # the string values {field} works in


def fields_in(template: str) -> list[str]:
    return [m.group(2) for m in FIELD.finditer(template) if m.group(2)]


def substitute(template: str, values: dict[str, str]) -> str:
    """`{field}` replaced by the card's value (empty where the card has none), `\\{` by `{`."""
    if "{" not in template and "\\" not in template:
        return template
    return FIELD.sub(lambda m: m.group(1) or values.get(m.group(2), ""), template)


@dataclass
class Element:
    """One element of a layout, its keys merged from the layouts it extends: each key's value and
    the spec path it was written at (its line, for errors)."""
    layout: str
    name: str                        # its id, or its place in the layout ("element 3")
    values: dict
    paths: dict
    broken: bool = False             # refused (by the schema or a check): neither checked further nor drawn

    @property
    def type(self) -> str:
        return self.values.get("type", "")

    def fields(self, key: str) -> list[str]:
        value = self.values.get(key)
        return fields_in(value) if isinstance(value, str) else []


@dataclass
class Layout:
    name: str
    background: str | None
    background_path: tuple
    elements: list[Element]
    broken: bool = False             # refused whole: the cards it draws are not drawn


@dataclass
class Deck:
    spec: object
    title: str
    size: CardSize
    folder: Path
    palette: dict[str, Colour]
    families: dict[str, Family]
    icons: dict[str, object]                 # name -> images.Picture
    cards: list[Card]
    known: set[str]                          # every field a card has (and count)
    layouts: dict[str, Layout]
    face_template: str
    back_template: str
    pictures: dict[str, object] = field(default_factory=dict)   # image file (relative) -> Picture, or its error
    art: object = None                       # the cards drawn (faces.DeckDrawn), once checked
    inline: dict = field(default_factory=dict)   # icon name -> text.InlineIcon: its size and offset in text
    language: str = DEFAULT_LANGUAGE         # the cards' language: where a word too wide for its box is hyphenated
    # What the deck has cost so far, against its bounds (README "What bad input gets"): the
    # characters of text set, the pictures' bytes read, the SVG pictures' elements and path points.
    text_set: int = 0
    picture_bytes: int = 0
    svg_units: int = 0
    paths: dict = field(default_factory=dict)   # a path element's (d, x, y, scale) -> its ops on the card
    # What was refused (by the schema, or a file that cannot be read) and what depends on it is not
    # checked further: ("cards",), ("fonts", name), ("icons", name), ("palette", name), ("layout",)...
    broken: set = field(default_factory=set)

    def drawable(self) -> bool:
        """Whether its cards can be drawn to find their own errors (their layouts are known)."""
        return bool(self.cards) and not self.broken & {("cards",), ("layout",), ("back",), ("fonts",), ("icons",),
                                                       ("palette",)}

    def where(self, path: tuple) -> str:
        line = self.spec.line(path)
        return f"{self.spec.file}:{line}" if line else self.spec.file


class Problems:
    """Errors found while a deck is read and drawn: each once, in the order found, all raised at
    the end (so `validate` lists them all, the first MAX_ERRORS_SHOWN and a count of the rest)."""

    def __init__(self):
        self.errors: list[SpecError] = []
        self._seen: set[str] = set()
        self.added = 0                   # errors added, said once or not (has a check found one?)

    def add(self, error: SpecError) -> None:
        self.added += 1
        key = str(error)
        if key not in self._seen:
            self._seen.add(key)
            self.errors.append(error)

    def raise_any(self) -> None:
        if not self.errors:
            return
        # In file order: each file's errors by line, the files in the order their errors were found.
        files = {e.file: k for k, e in reversed(list(enumerate(self.errors)))}
        ordered = sorted(self.errors, key=lambda e: (files[e.file], e.line or 0))
        shown = ordered[:MAX_ERRORS_SHOWN]
        if len(self.errors) > MAX_ERRORS_SHOWN:
            first = ordered[0]
            shown.append(SpecError(first.file, None, "", f"{len(self.errors) - MAX_ERRORS_SHOWN:,} more errors not "
                                                         f"shown (the first {MAX_ERRORS_SHOWN} found are above)"))
        raise SpecErrors(shown)


def card_size(spec) -> CardSize:
    """The deck's card: its width, height and bleed, or the size of the print shop's product it
    names (`product: SHOP/PRODUCT`, drawn at that size from the start: the shop takes it as it is)."""
    card = spec.data["card"]
    if "product" in card:
        given = [k for k in ("width", "height", "bleed") if k in card]
        if given:
            raise spec.error(("card", given[0]), f"the product {card['product']} gives the card's size: leave out "
                                                 f"{', '.join(given)}")
        from ...paths import project_root
        from ...shops import ShopError, product_size
        try:
            product = product_size(card["product"], project_root())
        except ShopError as exc:
            raise spec.error(("card", "product"), str(exc)) from None
        return CardSize(round(product.width, 4), round(product.height, 4), round(product.bleed, 4))
    for key in ("width", "height", "bleed"):
        if key not in card:
            raise spec.error(("card", key), "missing required key (or product: SHOP/PRODUCT, a shop's size)")
    return CardSize.of(card)


def read_deck(spec, problems: Problems) -> Deck:
    """The spec read: its files, cards and layouts, every problem found added to `problems`
    (raised as soon as what follows cannot be checked without what failed)."""
    d = spec.data
    folder = Path(spec.path or spec.file).resolve().parent
    broken = set(getattr(spec, "pruned", ()))        # what the schema refused (load.check_beyond_schema)
    palette = spec.palette() if "palette" in d else {}
    for part in broken:
        if part[0] == "palette" and len(part) == 2:
            palette[part[1]] = BLACK                 # a colour refused stands in for itself
    deck = Deck(spec, d["title"], card_size(spec), folder, palette, dict(SHIPPED), {}, [], set(),
                {}, d.get("layout", "face"), d.get("back", "back"), broken=broken)
    # Each part checked whatever the others gave: a font that cannot be read, an icon, a CSV's bad
    # rows stand aside, and what uses them is checked as far as it can be (one run, every error).
    _fonts(deck, problems)
    _icons(deck, problems)
    _language(deck, problems)
    _cards(deck, problems)
    _layouts(deck, problems)
    for key, default in (("layout", "face"), ("back", "back")):
        if (key,) in broken:
            continue
        before = problems.added
        _check_template(deck, d.get(key, default), (key,), problems, layout_names=True)
        if problems.added > before:
            deck.broken.add((key,))
    return deck


# ---------------------------------------------------------------- files in the spec's folder

def read_file(deck: Deck, rel: str, limit: int = MAX_DATA_BYTES) -> tuple[bytes, str]:
    """(bytes, display name) of a file the spec names, relative to the spec, inside its folder:
    ReferenceError_ or SpecError (naming the file) if it cannot be."""
    path = confined(deck.folder, rel)
    display = str(Path(deck.spec.file).parent / rel)
    return read_bytes(path, display, limit), display


def _file_error(spec, path: tuple, rel: str, exc: Exception) -> SpecError:
    if isinstance(exc, ReferenceError_):
        return spec.error(path, f"expected {exc}, got {show(rel)}")
    if isinstance(exc, SpecError):
        reason = exc.message.replace("cannot read: ", "")
        if "No such file" in reason:
            reason = "no such file"
        return spec.error(path, f"{show(rel)}: {reason}")
    return spec.error(path, f"{show(rel)}: {exc}")


def _fonts(deck: Deck, problems: Problems) -> None:
    from ...draw.fonts import FontFileError, font_from_bytes
    spec = deck.spec
    for name, files in spec.data.get("fonts", {}).items():
        if name in SHIPPED:
            problems.add(spec.error(("fonts", name), f"{show(name)} is the shipped font's name; give yours another"))
            continue
        loaded: dict[str, str] = {}
        for style in ("regular", "bold", "italic", "bold_italic"):
            rel = files.get(style)
            if rel is None:
                continue
            path = ("fonts", name, style)
            try:
                data, _ = read_file(deck, rel)
                loaded[style] = font_from_bytes(data).name
            except (ReferenceError_, SpecError) as exc:
                problems.add(_file_error(spec, path, rel, exc))
            except FontFileError as exc:
                problems.add(spec.error(path, f"{show(rel)}: {exc}"))
        if "regular" in loaded:
            r = loaded["regular"]
            deck.families[name] = Family(r, loaded.get("bold", r), loaded.get("italic", r),
                                         loaded.get("bold_italic", loaded.get("bold", r)))
        elif name not in SHIPPED:
            deck.families[name] = SHIPPED["sans"]     # refused: stands in for itself (its error is said)
    for part in deck.broken:
        if part[0] == "fonts" and len(part) == 2:
            deck.families.setdefault(part[1], SHIPPED["sans"])


def load_picture(deck: Deck, rel: str):
    """The picture in a file of the spec's folder (read once a deck), or the exception saying why not."""
    from ...draw.images import PictureError, picture_from_bytes
    known = deck.pictures.get(rel)
    if known is None:
        try:
            data, display = read_file(deck, rel)
            deck.picture_bytes += len(data)
            if deck.picture_bytes > MAX_DECK_PICTURE_BYTES:
                raise PictureError(f"the deck's pictures come to more than {MAX_DECK_PICTURE_BYTES // 2**20} MB with "
                                   "this one: a deck reads at most that (make the pictures smaller: a card at "
                                   "300 dpi needs about 1,000 x 1,400 pixels)")
            known = picture_from_bytes(data, display)
            deck.svg_units += known.svg_units
            if deck.svg_units > MAX_DECK_SVG_UNITS:
                raise PictureError(f"the deck's SVG pictures come to more than {MAX_DECK_SVG_UNITS:,} elements and "
                                   "path points with this one: a deck draws at most that many (simplify the "
                                   "drawings, or give some as PNG)")
        except (ReferenceError_, SpecError, PictureError) as exc:
            known = exc
        deck.pictures[rel] = known
    return known


# A deck's bounds of what it costs, beyond each file's own (images.py, data.py): so any deck within
# them validates in under 10 s of CPU and 1 GB (benchmarks/spec_extremes.py, the deck cases).
MAX_DECK_PICTURE_BYTES = 256 * 2**20       # the pictures' files, read and held while a deck is drawn
MAX_DECK_SVG_UNITS = 30_000                # elements and path points over every SVG the deck draws
MAX_ELEMENT_TEXT = 4_000                   # characters of a text element, its fields put in
MAX_DECK_TEXT = 500_000                    # characters of text set over the deck's distinct faces


def picture_problem(exc: Exception, rel: str) -> str:
    """Why a picture file cannot be used, in words for a message about it."""
    from ...draw.images import PictureError
    if isinstance(exc, ReferenceError_):
        return f"expected {exc}, got {show(rel)}"
    if isinstance(exc, SpecError):
        reason = exc.message.replace("cannot read: ", "")
        return f"{show(rel)}: {'no such file' if 'No such file' in reason else reason}"
    if isinstance(exc, PictureError):
        return f"{show(rel)}: {exc}"
    return f"{show(rel)}: {exc}"


def _icons(deck: Deck, problems: Problems) -> None:
    """Each icon's picture, and how it sits in text: a file, or {file, width, height, dx, dy} (mm,
    Squib's embed options) where it is not the default (1.3 cap heights, on the capitals' middle)."""
    from .text import InlineIcon
    spec = deck.spec
    for name, given in spec.data.get("icons", {}).items():
        options = given if isinstance(given, dict) else {"file": given}
        rel = options["file"]
        path = ("icons", name, "file") if isinstance(given, dict) else ("icons", name)
        got = load_picture(deck, rel)
        if isinstance(got, Exception):
            problems.add(spec.error(path, picture_problem(got, rel)))
            got = stand_in_picture()
        elif not 0.05 <= got.aspect <= 20:
            problems.add(spec.error(path, f"{show(rel)}: {got.width} x {got.height}, too long and "
                                          "thin for an icon (at most 20 times as wide as high)"))
            got = stand_in_picture()
        deck.icons[name] = got
        deck.inline[name] = InlineIcon(got.aspect, options.get("width"), options.get("height"),
                                       options.get("dx", 0.0), options.get("dy", 0.0))
    for part in deck.broken:
        if part[0] == "icons" and len(part) == 2 and part[1] not in deck.icons:
            deck.icons[part[1]] = stand_in_picture()
            deck.inline[part[1]] = InlineIcon(1.0, None, None, 0.0, 0.0)


def stand_in_picture():
    """A blank square that stands in for an icon refused (its error said), so that the text and
    elements using it are checked as far as they can be; never printed (the deck has an error)."""
    import io

    from PIL import Image

    from ...draw.images import picture_from_bytes
    out = io.BytesIO()
    Image.new("RGBA", (1, 1)).save(out, "PNG")
    return picture_from_bytes(out.getvalue(), "(stand-in)")


def _language(deck: Deck, problems: Problems) -> None:
    given = deck.spec.data.get("language")
    if given is None:
        return
    import pyphen
    found = pyphen.language_fallback(given.replace("-", "_"))
    if found is None:
        near = sorted({k.split("_")[0] for k in pyphen.LANGUAGES})
        problems.add(deck.spec.error(("language",), f"no hyphenation dictionary for {show(given)}; the languages "
                                                    f"are {', '.join(near)} (and their regions: de_CH, pt_BR...)"))
    else:
        deck.language = found


@lru_cache(maxsize=8)
def hyphenator(language: str):
    """A word -> the offsets where it may be hyphenated, in the language (pyphen's dictionary, read
    once a process); a word of 100 letters or more is none (it costs, and is no word)."""
    import pyphen
    dictionary = pyphen.Pyphen(lang=language)
    return lambda word: dictionary.positions(word) if len(word) < 100 else []


# ---------------------------------------------------------------- cards

def data_key(spec) -> str | None:
    """The spec's key naming its cards' file: `data` (a CSV or a spreadsheet), or `csv`."""
    return next((k for k in ("data", "csv") if k in spec.data), None)


def _cards(deck: Deck, problems: Problems) -> None:
    spec = deck.spec
    cards = cards_of_spec(spec)
    key = data_key(spec)
    columns: list[str] = []
    if "data" in spec.data and "csv" in spec.data:
        problems.add(spec.error(("csv",), "give data: or csv:, not both (data: reads a CSV too)"))
        deck.broken.add(("cards",))
        return
    if "sheet" in spec.data and (key is None or not is_spreadsheet(spec.data[key])):
        problems.add(spec.error(("sheet",), "a sheet is named only with a spreadsheet's file (data: NAME.xlsx or .ods)"))
        deck.broken.add(("cards",))
        return
    rows: list[SpecError] = []
    if key is not None:
        rel = spec.data[key]
        try:
            path = confined(deck.folder, rel)
            display = str(Path(spec.file).parent / rel)
            notes: list[str] = []
            if is_spreadsheet(rel):
                cards += read_sheet(read_bytes(path, display, MAX_SHEET_BYTES), display, spec.data.get("sheet"),
                                    rows, notes, columns)
            else:
                cards += read_csv(path, display, spec.data.get("csv_delimiter", ","), rows, notes, columns)
            spec.notes.update(dict.fromkeys(notes))
            # A bad row's card is left out (its errors said); the others are checked and drawn.
            for error in rows:
                problems.add(error)
        except ReferenceError_ as exc:
            problems.add(_file_error(spec, (key,), rel, exc))
            deck.broken.add(("cards",))
            return
        except SpecError as exc:
            if exc.line is None and exc.file == display:     # the file itself: missing, too large
                problems.add(_file_error(spec, ("sheet",) if exc.message.startswith("no sheet named") and
                                         "sheet" in spec.data else (key,), rel, exc))
            else:
                problems.add(exc)
            deck.broken.add(("cards",))
            return
    if not cards and rows:
        return                  # every row refused: said row by row
    if not cards:
        problems.add(spec.error(("cards",), "no cards: list them under cards:, or name a CSV or spreadsheet file "
                                            "with data:"))
        return
    for k, card in enumerate(cards):
        card.number = k + 1
    total = sum(c.count for c in cards)
    if total > MAX_CARDS:
        problems.add(spec.error((key,) if key else ("cards",),
                                f"{total:,} cards in all (the counts added up); a deck has at most {MAX_CARDS:,}"))
    elif total == 0 and not rows:
        problems.add(spec.error((key,) if key else ("cards",), "every card's count is 0"))
    deck.cards = [c for c in cards if c.count > 0]
    if total <= MAX_CARDS and uses_index(spec) and "index" not in {k for c in cards for k in c.fields}:
        # The card index counts copies, as Squib's ranges do: each copy a card of its own.
        deck.cards = [dataclasses.replace(c, count=1) for c in deck.cards for _ in range(c.count)]
        for k, card in enumerate(deck.cards):
            card.index = k
    deck.known = {"count"} | {c.count_name for c in cards} | {k for c in cards for k in c.fields} | set(columns)
    if uses_index(spec):
        deck.known.add("index")


# Squib's ranges (0..1, 0...2, -1, [0, 2]): `when: {index: ...}` picks cards by their place in the
# deck, from 0, each copy counted (a card of count 3 is three indexes), a negative from the end.
INDEX_RANGE = re.compile(r"^\s*(-?[0-9]{1,5})\s*(\.\.\.?)\s*(-?[0-9]{1,5})\s*$")


def uses_index(spec) -> bool:
    return any(isinstance(el, dict) and isinstance(el.get("when"), dict) and "index" in el["when"]
               for lay in spec.data.get("layouts", {}).values() if isinstance(lay, dict)
               for el in lay.get("elements", []) or [])


def index_matches(want, index: int, total: int) -> bool:
    """Whether the card at `index` (of `total`) is one of `want`: a whole number (negative from the
    end), a range "a..b" (b included) or "a...b" (b left out), or a list of them."""
    for item in want if isinstance(want, list) else [want]:
        if isinstance(item, int) and not isinstance(item, bool):
            if index == (item if item >= 0 else total + item):
                return True
        elif isinstance(item, str) and (m := INDEX_RANGE.match(item)):
            a, b = (int(v) if int(v) >= 0 else total + int(v) for v in (m.group(1), m.group(3)))
            if a <= index < (b + 1 if m.group(2) == ".." else b):
                return True
    return False


def index_problem(want) -> str | None:
    for item in want if isinstance(want, list) else [want]:
        if isinstance(item, int) and not isinstance(item, bool):
            continue
        if isinstance(item, str) and INDEX_RANGE.match(item):
            continue
        return (f"expected a card's index from 0 (-1 the last), a range \"0..2\" (2 included) or \"0...2\" "
                f"(2 left out), or a list of them, got {show(item)}")
    return None


# ---------------------------------------------------------------- layouts

def _layouts(deck: Deck, problems: Problems) -> None:
    spec = deck.spec
    raw = spec.data["layouts"]
    done: dict[str, Layout] = {}

    def resolve(name: str, trail: tuple) -> Layout:
        if name in done:
            return done[name]
        lay = raw[name]
        here = ("layouts", name)

        def unusable() -> Layout:
            """A layout that cannot be made (its error said): known by name, never drawn."""
            done[name] = Layout(name, None, here, [], broken=True)
            return done[name]
        if lay.get("x-broken") and "elements" not in lay:      # refused by the schema: not checked
            return unusable()
        background, background_path = lay.get("background"), here + ("background",)
        elements: list[Element] = []
        if "extends" in lay:
            parent = lay["extends"]
            if parent not in raw:
                guess = difflib.get_close_matches(parent, list(raw), n=1)
                hint = f" (did you mean '{guess[0]}'?)" if guess else f"; the layouts are: {', '.join(raw)}"
                problems.add(spec.error(here + ("extends",), f"no layout named {show(parent)}{hint}"))
                return unusable()
            if parent == name or parent in trail:
                problems.add(spec.error(here + ("extends",), "layouts that extend each other in a loop: "
                                                             + " -> ".join((*trail, name, parent))))
                return unusable()
            base = resolve(parent, trail + (name,))
            if base.broken:
                return unusable()
            elements = [Element(name, e.name, dict(e.values), dict(e.paths), e.broken) for e in base.elements]
            if background is None:
                background, background_path = base.background, base.background_path
        by_id = {e.values["id"]: e for e in elements if "id" in e.values}
        own_ids: dict[str, int] = {}
        for i, el in enumerate(lay.get("elements", [])):
            path = here + ("elements", i)
            eid = el.get("id")
            if el.get("x-broken"):           # refused by the schema: stands aside, unchecked, undrawn
                if eid is not None and eid in by_id:
                    by_id[eid].broken = True
                else:
                    # (its id kept: a layout that extends this one and changes it changes the
                    # refused element, not a new one with no type, which would be a second error)
                    element = Element(name, eid or f"elements[{i}]", {} if eid is None else {"id": eid},
                                      {"": path}, broken=True)
                    elements.append(element)
                    if eid is not None:
                        by_id[eid] = element
                if eid is not None:
                    own_ids[eid] = i
                continue
            if eid is not None and eid in own_ids:
                problems.add(spec.error(path + ("id",), f"two elements of this layout have the id {show(eid)} "
                                                        f"(the other is elements[{own_ids[eid]}])"))
                continue
            if eid is not None:
                own_ids[eid] = i
            if eid is not None and eid in by_id:          # an element of the layout extended: changed
                target = by_id[eid]
                for k, v in el.items():
                    target.values[k] = v
                    target.paths[k] = path + (k,)
                continue
            element = Element(name, eid or f"elements[{i}]", dict(el), {k: path + (k,) for k in el})
            element.paths.setdefault("", path)
            elements.append(element)
            if eid is not None:
                by_id[eid] = element
        layout = Layout(name, background, background_path, elements, broken=bool(lay.get("x-broken")))
        done[name] = layout
        return layout

    for name in raw:
        resolve(name, ())
    for name, layout in done.items():
        if layout.background is not None:
            before = problems.added
            _check_template(deck, layout.background, layout.background_path, problems, colour=True)
            if problems.added > before:
                layout.background = None
        for el in layout.elements:
            if el.broken:
                continue
            before = problems.added
            _check_element(deck, el, problems)
            if problems.added > before:
                el.broken = True             # its error said: not drawn (a card would say it again)
    deck.layouts = done


def _element_path(el: Element, key: str = "") -> tuple:
    return el.paths.get(key) or el.paths.get("") or next(iter(el.paths.values()))


def _check_element(deck: Deck, el: Element, problems: Problems) -> None:
    spec = deck.spec
    kind = el.values.get("type")
    if kind is None:
        problems.add(spec.error(_element_path(el, "id"), f"layout {el.layout}: element {el.name} has no type "
                                                         "(and extends no element of that id)"))
        return
    required, optional = KEYS[kind]
    for key in sorted(required - set(el.values)):
        problems.add(spec.error(_element_path(el, "type") + (key,), f"missing required key (a {kind} needs "
                                                                   f"{', '.join(sorted(required))})"))
    for key in el.values:
        if key not in required | optional | COMMON_KEYS:
            problems.add(spec.error(_element_path(el, key), f"a {kind} has no {key} (it takes "
                                                             f"{', '.join(sorted(required | optional))}, and "
                                                             "id, type, when, rotate, opacity)"))
    v = el.values
    _check_shape(deck, el, problems)
    if kind == "text":
        font = v.get("font", "sans")
        if font not in deck.families and ("fonts",) not in deck.broken:
            guess = difflib.get_close_matches(font, list(deck.families), n=1)
            hint = f" (did you mean '{guess[0]}'?)" if guess else ""
            problems.add(spec.error(_element_path(el, "font"), f"no font named {show(font)}{hint}; the fonts are "
                                                                f"{', '.join(sorted(deck.families))}"))
        if v.get("min_size", 6) > v.get("size", 10):
            problems.add(spec.error(_element_path(el, "min_size"), f"min_size {v['min_size']:g} pt is larger than "
                                                                    f"the size, {v.get('size', 10):g} pt"))
    for key in TEMPLATE_KEYS:
        if isinstance(v.get(key), str):
            _check_template(deck, v[key], _element_path(el, key), problems, colour=key in ("fill", "stroke", "colour"))
    if isinstance(v.get("fill"), dict):
        for k, stop in enumerate(v["fill"].get("stops", [])):
            colour = stop if isinstance(stop, str) else stop[0]
            _check_template(deck, colour, _element_path(el, "fill") + ("stops", k), problems, colour=True)
    when = v.get("when")
    if when is not None:
        names = [when] if isinstance(when, str) else list(when)
        if isinstance(when, dict) and "index" in when and (problem := index_problem(when["index"])):
            problems.add(spec.error(_element_path(el, "when") + ("index",), problem))
        for name in names:
            if name not in deck.known and ("cards",) not in deck.broken:
                problems.add(spec.error(_element_path(el, "when"), _unknown_field(name, deck.known)))


def _check_shape(deck: Deck, el: Element, problems: Problems) -> None:
    """What the schema cannot say of a shape: a polygon's one form or the other, a gradient's
    form and its stops in order, path data that reads (and what it costs, counted with the deck's
    SVG pictures' path points), a crop that is a part of something."""
    from ...draw.pathdata import PathDataError
    spec, v, kind = deck.spec, el.values, el.type
    if kind == "polygon":
        regular = [k for k in ("cx", "cy", "r", "n") if k in v]
        if "points" in v and regular:
            problems.add(spec.error(_element_path(el, regular[0]), "a polygon takes points, or cx, cy, r and n (a "
                                                                   "regular polygon), not both"))
        elif "points" not in v and len(regular) < 4:
            missing = [k for k in ("cx", "cy", "r", "n") if k not in v]
            problems.add(spec.error(_element_path(el, "type") + (missing[0],) if regular else
                                    _element_path(el, "type") + ("points",),
                                    "missing required key (a polygon needs points, or cx, cy, r and n)"))
    if kind == "star" and isinstance(v.get("inner_radius"), (int, float)) and \
            isinstance(v.get("outer_radius"), (int, float)) and v["inner_radius"] > v["outer_radius"]:
        problems.add(spec.error(_element_path(el, "inner_radius"), f"inner_radius {v['inner_radius']:g} is larger "
                                                                    f"than outer_radius {v['outer_radius']:g}"))
    paint = v.get("fill")
    if isinstance(paint, dict):
        forms = [k for k in ("linear", "radial") if k in paint]
        if len(forms) != 1:
            problems.add(spec.error(_element_path(el, "fill"), "a gradient is linear: [x1, y1, x2, y2] or radial: "
                                                               "[cx, cy, r]" + (", not both" if forms else "")))
        offsets = [stop[1] for stop in paint.get("stops", []) if isinstance(stop, list)]
        if offsets and len(offsets) != len(paint["stops"]):
            problems.add(spec.error(_element_path(el, "fill") + ("stops",), "give every stop its offset "
                                                                           "([colour, offset]) or none"))
        elif offsets != sorted(offsets):
            problems.add(spec.error(_element_path(el, "fill") + ("stops",), f"the stops' offsets go back "
                                                                           f"({', '.join(f'{o:g}' for o in offsets)}): "
                                                                           "give them from 0 to 1 in order"))
        if "linear" in paint and paint["linear"][:2] == paint["linear"][2:]:
            problems.add(spec.error(_element_path(el, "fill") + ("linear",), "a linear gradient from a point to the "
                                                                            "same point: give its end elsewhere"))
        if "radial" in paint and paint["radial"][2] <= 0:
            problems.add(spec.error(_element_path(el, "fill") + ("radial",), "a radial gradient's radius is over 0"))
    if kind == "path" and isinstance(v.get("d"), str):
        try:
            path_ops(deck, v)
        except PathDataError as exc:
            problems.add(spec.error(_element_path(el, "d"), str(exc)))
        else:
            from ...draw.images import _path_points
            deck.svg_units += _path_points(v["d"])
            if deck.svg_units > MAX_DECK_SVG_UNITS:
                problems.add(spec.error(_element_path(el, "d"), f"the deck's paths and SVG pictures come to more "
                                                                f"than {MAX_DECK_SVG_UNITS:,} path points and "
                                                                "elements with this one: a deck draws at most that "
                                                                "many"))
    for key in ("crop_width", "crop_height"):
        if v.get(key) in (0, "0%") or (isinstance(v.get(key), str) and float(v[key][:-1]) == 0):
            problems.add(spec.error(_element_path(el, key), f"a crop of no {key[5:]}: give the part's {key[5:]} "
                                                            "over 0"))
    for key in CROP:
        if isinstance(v.get(key), str) and float(v[key][:-1]) > 100:
            problems.add(spec.error(_element_path(el, key), f"{v[key]} of the picture: a crop lies within it "
                                                            "(0% to 100%)"))


def path_ops(deck: Deck, v: dict) -> tuple:
    """A path element's ops on the card: its data read (PathDataError), moved by x, y and scaled by
    scale; made once a deck (a deck's paths hold at most MAX_DECK_SVG_UNITS points in all)."""
    from ...draw.pathdata import parse_path_data
    key = (v["d"], v.get("x", 0.0), v.get("y", 0.0), v.get("scale", 1.0))
    known = deck.paths.get(key)
    if known is None:
        _, x, y, k = key
        from ...draw.pathdata import MAX_COORDINATE, PathDataError, ops_bounds
        known = tuple(op if op[0] == "Z" else
                      (op[0], *[x + k * c if i % 2 == 0 else y + k * c for i, c in enumerate(op[1:])])
                      for op in parse_path_data(v["d"]))
        if max(map(abs, ops_bounds(known) or (0.0,))) > MAX_COORDINATE:
            raise PathDataError(f"path data whose points reach beyond ±{MAX_COORDINATE:,.0f} mm once scaled by "
                                f"{k:g} and moved by {x:g}, {y:g}")
        deck.paths[key] = known
    return known


def _unknown_field(name: str, known) -> str:
    guess = difflib.get_close_matches(name, sorted(known), n=1)
    hint = f" (did you mean {{{guess[0]}}}?)" if guess else ""
    listed = ", ".join(sorted(known)) if len(known) <= 24 else f"{len(known)} of them"
    return f"no card has a field {show(name)}{hint}; the cards' fields are: {listed}"


def _check_template(deck: Deck, template: str, path: tuple, problems: Problems, colour: bool = False,
                    layout_names: bool = False) -> None:
    """A template's fields are fields some card has; one without fields is checked at once."""
    spec = deck.spec
    names = fields_in(template)
    for name in names:
        if name not in deck.known and ("cards",) not in deck.broken:
            problems.add(spec.error(path, _unknown_field(name, deck.known)))
    if names:
        return
    if colour:
        try:
            parse_colour(template, deck.palette)
        except ValueError as exc:
            problems.add(spec.error(path, str(exc)))
    if layout_names and substitute(template, {}) not in deck.layouts:
        name = substitute(template, {})
        guess = difflib.get_close_matches(name, list(deck.layouts), n=1)
        hint = f" (did you mean '{guess[0]}'?)" if guess else ""
        problems.add(spec.error(path, f"no layout named {show(name)}{hint}; the layouts are: "
                                      f"{', '.join(deck.layouts)}"))


def field_name(path: tuple) -> str:
    return format_field(path)
