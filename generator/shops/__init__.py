"""Print shops' profiles: what each shop takes, as data. One YAML file a shop in this folder
(DriveThruCards, The Game Crafter, MakePlayingCards, Tabletop Simulator), and a user's own in
their folder's `shops/` (a file there of a shop's name is read instead of ours). Every number in a
profile names its source (a page and the date it was read), and is read here into mm.

A profile is one of three kinds (`files:`): `pdf` (one PDF a deck, a page a card side: products'
trim, bleed and safe zone; the PDF standard, the ink limit, the pages' order), `pictures` (a
picture a card side at exact pixels and dpi, zipped: products' trim, bleed, safe zone and pixels)
and `tts` (Tabletop Simulator's deck sheets: the grid and the largest sheet).

The rule for a card not of a product's size (`fit`): the card's art (its trim and bleed) is scaled
uniformly, about its middle, by the least factor at which it covers the product's whole page (trim
and bleed) and its trim covers the product's trim; within SCALE_TOLERANCE of 1 that is the card,
printed a little larger or smaller (what lies past the product's trim was the card's bleed or its
outermost fraction of a mm); past it, the deck is refused in one line naming the nearest products.
"""
from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import SpecError, show
from ..units import MM_PER_INCH

HERE = Path(__file__).resolve().parent
USER_FOLDER = "shops"             # a user's own profiles: <their folder>/shops/NAME.yaml
MAX_PROFILE_BYTES = 256 * 1024
MAX_PRODUCTS = 64
SCALE_TOLERANCE = 0.03            # a card is scaled by at most 3 % to fit a product; else refused
KINDS = ("pdf", "pictures", "tts")
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
LENGTH = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(mm|in|px)\s*$")
NAME_FIELDS = {"deck", "number", "side"}


class ShopError(ValueError):
    """A shop asked for that is not there, or a deck no product of the shop is near: one line."""


@dataclass(frozen=True)
class Source:
    key: str
    page: str
    read: str          # the date the page was read, YYYY-MM-DD
    via: str


@dataclass(frozen=True)
class Product:
    """One product of a shop: a card's trim, bleed and safe zone in mm; for a picture shop, its
    pixels (trim and bleed) at `dpi`."""
    key: str
    title: str
    width: float
    height: float
    bleed: float
    safe: float
    source: Source
    pixels: tuple[int, int] | None = None
    dpi: float | None = None

    @property
    def page(self) -> tuple[float, float]:
        return self.width + 2 * self.bleed, self.height + 2 * self.bleed

    def describe(self) -> str:
        return f"{self.title} ({self.width:.1f} x {self.height:.1f} mm)"


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    files: str                  # one of KINDS
    file: str                   # where it was read from (for messages)
    sources: dict[str, Source]
    products: dict[str, Product]
    pdf: dict | None = None     # standard, total_ink (per cent), pages, tuck_box_bleed (mm), source
    pictures: dict | None = None   # format, colour, dpi, name, source
    tts: dict | None = None     # columns, rows, max_pixels, format, colour, source


# ---------------------------------------------------------------- finding and reading profiles

def profile_files(root: Path | None) -> dict[str, Path]:
    """Every profile by its name: ours, then the user's folder's (a name of ours replaced)."""
    found = {p.stem: p for p in sorted(HERE.glob("*.yaml"))}
    if root is not None:
        folder = Path(root) / USER_FOLDER
        if folder.is_dir() and not folder.is_symlink():
            for p in sorted(folder.glob("*.yaml"))[:MAX_PRODUCTS]:
                if NAME.match(p.stem) and not p.is_symlink():   # (a link may lead out of the folder)
                    found[p.stem] = p
    return found


def shop_names(root: Path | None = None) -> list[str]:
    return sorted(profile_files(root))


def load_profile(name: str, root: Path | None = None) -> Profile:
    """The profile of that name (the user's folder's first), read and checked, or ShopError naming
    the shops there are; a profile's own errors are SpecErrors at its line and field."""
    files = profile_files(root)
    if name not in files:
        import difflib
        guess = difflib.get_close_matches(name, list(files), n=1)
        hint = f" (did you mean {guess[0]}?)" if guess else ""
        raise ShopError(f"no shop named {show(name)}{hint}; the shops: {', '.join(sorted(files))}")
    path = files[name]
    ours = path.parent == HERE
    return read_profile(path, f"generator/shops/{path.name}" if ours else f"{USER_FOLDER}/{path.name}")


def read_profile(path: Path, display: str) -> Profile:
    from ..inputs import read_text
    from ..spec.loader import parse_yaml
    data, lines = parse_yaml(read_text(path, display, MAX_PROFILE_BYTES), display)
    return parse_profile(data, lines, display, path.stem)


class _Reader:
    """A profile's fields read with their lines: every error at its line and field."""

    def __init__(self, data, lines: dict, file: str):
        self.data, self.lines, self.file = data, lines, file

    def error(self, path: tuple, message: str) -> SpecError:
        from ..spec.loader import format_field
        p = tuple(path)
        while p not in self.lines and p:
            p = p[:-1]
        return SpecError(self.file, self.lines.get(p), format_field(tuple(path)), message)

    def get(self, path: tuple, kind, required: bool = True):
        node = self.data
        for i, part in enumerate(path):
            if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
                continue
            if not isinstance(node, dict) or part not in node:
                if required:
                    raise self.error(path[:i + 1] if isinstance(node, dict) else path[:i], "missing required key"
                                     if isinstance(node, dict) else "expected a mapping")
                return None
            node = node[part]
        if kind is not None and (not isinstance(node, kind) or isinstance(node, bool) and kind is not bool):
            names = {str: "text", int: "a whole number", dict: "a mapping", list: "a list"}
            raise self.error(path, f"expected {names.get(kind, getattr(kind, '__name__', 'a value'))}, "
                                   f"got {show(node)}")
        return node

    def choice(self, path: tuple, options: tuple[str, ...], said: str | None = None) -> str:
        """A text that is one of `options`, else the error at its line (`said`: how the error
        names them, by default the options themselves)."""
        value = self.get(path, str)
        if value not in options:
            raise self.error(path, f"{said or ', '.join(options[:-1]) + ' or ' + options[-1]}, got {show(value)}")
        return value

    def keys(self, path: tuple, allowed: set[str]) -> dict:
        node = self.get(path, dict) if path else self.data
        if not isinstance(node, dict):
            raise self.error(path, "expected a mapping")
        for key in node:
            if key not in allowed:
                raise self.error(path + (key,), f"unknown key; known: {', '.join(sorted(allowed))}")
        return node

    def length(self, path: tuple, dpi: float | None) -> float:
        """A length as the profile writes it ("2.5 in", "3 mm", "36 px" at the profile's dpi), in mm."""
        text = self.get(path, str)
        m = LENGTH.match(text)
        if not m:
            raise self.error(path, f"expected a length such as \"2.5 in\", \"3 mm\" or \"36 px\", got {show(text)}")
        value, unit = float(m.group(1)), m.group(2)
        if value > 2000:
            raise self.error(path, f"{show(text)} is more than any card")
        if unit == "px":
            if not dpi:
                raise self.error(path, "a length in px needs the profile's dpi")
            return value / dpi * MM_PER_INCH
        return value * (MM_PER_INCH if unit == "in" else 1.0)

    def source(self, path: tuple, sources: dict[str, Source]) -> Source:
        key = self.get(path, str)
        if key not in sources:
            raise self.error(path, f"no source named {show(key)}; the sources: {', '.join(sources)}")
        return sources[key]


def parse_profile(data, lines: dict, file: str, stem: str) -> Profile:
    r = _Reader(data, lines, file)
    if not isinstance(data, dict):
        raise SpecError(file, 1, "", "expected a mapping at the top of the file")
    r.keys((), {"shop", "title", "files", "sources", "pdf", "pictures", "tts", "products"})
    name = r.get(("shop",), str)
    if name != stem:
        raise r.error(("shop",), f"the shop's name {show(name)} is not its file's ({stem}.yaml)")
    title = r.get(("title",), str)
    if not 0 < len(title) <= 60:
        raise r.error(("title",), "1 to 60 characters")
    files = r.get(("files",), str)
    if files not in KINDS:
        raise r.error(("files",), f"one of {', '.join(KINDS)}, got {show(files)}")
    sources = {}
    for key in list(r.get(("sources",), dict))[:MAX_PRODUCTS]:
        r.keys(("sources", key), {"page", "read", "via"})
        page = r.get(("sources", key, "page"), str)
        if not page.startswith(("https://", "http://")):
            raise r.error(("sources", key, "page"), "the page's address (https://...)")
        read = r.get(("sources", key, "read"), str)
        try:
            read = datetime.date.fromisoformat(read).isoformat() if re.fullmatch(r"\d{4}-\d\d-\d\d", read) else None
        except ValueError:
            read = None
        if read is None:
            raise r.error(("sources", key, "read"), "the date the page was read, \"YYYY-MM-DD\"")
        sources[key] = Source(key, page, read, " ".join(str(r.get(("sources", key, "via"), str)).split()))
    if not sources:
        raise r.error(("sources",), "at least one source: the page the numbers come from")
    extra: dict = {"pdf": None, "pictures": None, "tts": None}
    dpi = None
    if files == "pdf":
        p = ("pdf",)
        r.keys(p, {"standard", "total_ink", "pages", "tuck_box_bleed", "source"})
        standard = r.choice(p + ("standard",), ("PDF/X-1a:2001", "PDF/X-1a:2003"))
        ink = r.get(p + ("total_ink",), int)
        if not 100 <= ink <= 400:
            raise r.error(p + ("total_ink",), f"a per cent from 100 to 400, got {ink}")
        pages = r.choice(p + ("pages",), ("back-front", "front-back", "fronts-backs"))
        extra["pdf"] = dict(standard=standard, total_ink=ink, pages=pages,
                            tuck_box_bleed=r.length(p + ("tuck_box_bleed",), None),
                            source=r.source(p + ("source",), sources))
    elif files == "pictures":
        p = ("pictures",)
        r.keys(p, {"format", "colour", "dpi", "name", "source"})
        fmt = r.choice(p + ("format",), ("png", "jpeg"))
        colour = r.choice(p + ("colour",), ("RGB",), "RGB (the picture shops' colour)")
        dpi = r.get(p + ("dpi",), int)
        if not 72 <= dpi <= 1200:
            raise r.error(p + ("dpi",), f"72 to 1200, got {dpi}")
        template = r.get(p + ("name",), str)
        fields = set(re.findall(r"\{([^{}]*)\}", template))
        if not fields <= NAME_FIELDS or not re.fullmatch(r"[A-Za-z0-9_.{}-]{1,60}", template) \
                or template.startswith(".") or not {"number", "side"} <= fields:
            raise r.error(p + ("name",), "a file name of {deck}, {number} and {side} (the last two needed), "
                                         "letters, digits, - _ and .")
        extra["pictures"] = dict(format=fmt, colour=colour, dpi=dpi, name=template,
                                 source=r.source(p + ("source",), sources))
    else:
        p = ("tts",)
        r.keys(p, {"columns", "rows", "max_pixels", "format", "colour", "source"})
        cols, rows, most = (r.get(p + (k,), int) for k in ("columns", "rows", "max_pixels"))
        if not (1 <= cols <= 10 and 1 <= rows <= 7 and cols * rows >= 2):
            raise r.error(p + ("columns",), "a grid of 1 to 10 columns and 1 to 7 rows, two slots at least")
        if not 256 <= most <= 8192:
            raise r.error(p + ("max_pixels",), f"256 to 8192, got {most}")
        fmt = r.get(p + ("format",), str)
        if fmt not in ("png", "jpeg"):
            raise r.error(p + ("format",), f"png or jpeg, got {show(fmt)}")
        if r.get(p + ("colour",), str) != "RGB":
            raise r.error(p + ("colour",), "RGB (Tabletop Simulator loads no CMYK)")
        extra["tts"] = dict(columns=cols, rows=rows, max_pixels=most, format=fmt, colour="RGB",
                            source=r.source(p + ("source",), sources))
    products = {}
    raw = r.get(("products",), dict, required=files != "tts") or {}
    if files != "tts" and not raw:
        raise r.error(("products",), "at least one product")
    if len(raw) > MAX_PRODUCTS:
        raise r.error(("products",), f"at most {MAX_PRODUCTS} products")
    for key in raw:
        p = ("products", key)
        if not isinstance(key, str) or not NAME.match(key):
            raise r.error(p, "a product's name: small letters, digits and -")
        r.keys(p, {"title", "trim", "bleed", "safe", "pixels", "source"})
        trim = r.get(p + ("trim",), list)
        if len(trim) != 2:
            raise r.error(p + ("trim",), "[width, height]")
        w, h = (r.length(p + ("trim", i), dpi) for i in (0, 1))
        bleed, safe = r.length(p + ("bleed",), dpi), r.length(p + ("safe",), dpi)
        if min(w, h) < 10 or 2 * safe >= min(w, h):
            raise r.error(p + ("trim",), "a card of 10 mm a side at least, larger than twice its safe zone")
        pixels = None
        if files == "pictures":
            px = r.get(p + ("pixels",), list)
            whole = [isinstance(v, int) and not isinstance(v, bool) and 16 <= v <= 20_000 for v in px]
            if len(px) != 2 or not all(whole):
                raise r.error(p + ("pixels",), "[width, height] in whole pixels")
            pixels = (px[0], px[1])
            # The pixels a shop publishes are its page at its dpi: a profile whose numbers disagree
            # with each other has a typo, found here rather than by the shop's checker.
            want = (round((w + 2 * bleed) / MM_PER_INCH * dpi), round((h + 2 * bleed) / MM_PER_INCH * dpi))
            if pixels != want:
                raise r.error(p + ("pixels",), f"{pixels[0]} x {pixels[1]} px is not the trim and bleed at "
                                               f"{dpi} dpi ({want[0]} x {want[1]} px)")
        products[key] = Product(key, r.get(p + ("title",), str)[:60], w, h, bleed, safe,
                                r.source(p + ("source",), sources), pixels, float(dpi) if dpi else None)
    return Profile(name, title, files, file, sources, products, **extra)


# ---------------------------------------------------------------- the nearest product

def fit_scale(width: float, height: float, bleed: float, product: Product) -> float:
    """The least uniform scale at which a card's art (trim + bleed) covers the product's page and
    its trim covers the product's trim."""
    pw, ph = product.page
    return max(pw / (width + 2 * bleed), ph / (height + 2 * bleed), product.width / width, product.height / height)


def nearness(width: float, height: float, product: Product) -> float:
    """How far a card's trim is from a product's: the larger relative difference of the two sides."""
    return max(abs(math.log(product.width / width)), abs(math.log(product.height / height)))


def nearest_product(profile: Profile, width: float, height: float, bleed: float,
                    named: str | None = None) -> tuple[Product, float]:
    """The product a card of this size goes to and the scale it is printed at (1 for a card of the
    product's size), or ShopError naming the nearest products. `named`: a product the deck names
    (`card: {product: shop/key}`), taken where it is this shop's."""
    if named and named.split("/", 1)[0] == profile.name:
        key = named.split("/", 1)[1]
        if key in profile.products:
            p = profile.products[key]
            return p, fit_scale(width, height, bleed, p)
    ranked = sorted(profile.products.values(), key=lambda p: nearness(width, height, p))
    for p in ranked:
        s = fit_scale(width, height, bleed, p)
        if abs(s - 1) <= SCALE_TOLERANCE + 1e-9:
            return p, s
    near = ", ".join(p.describe() for p in ranked[:2])
    raise ShopError(f"a {width:g} x {height:g} mm card (bleed {bleed:g} mm) is near no {profile.title} product "
                    f"(the nearest: {near}; a card within {SCALE_TOLERANCE:.0%} of one, bleed included, is "
                    f"scaled to fit): draw it at a product's size (card: {{product: {profile.name}/...}})")


def product_size(spec_value: str, root: Path | None = None) -> Product:
    """The product a deck's `card: {product: SHOP/KEY}` names, or ShopError."""
    if not isinstance(spec_value, str) or spec_value.count("/") != 1:
        raise ShopError(f"a product is SHOP/PRODUCT (thegamecrafter/poker), got {show(spec_value)}")
    shop, key = spec_value.split("/")
    profile = load_profile(shop, root)
    if profile.files == "tts" or key not in profile.products:
        raise ShopError(f"{profile.title} has no product {show(key)}; its products: "
                        f"{', '.join(profile.products) or 'none (it takes any size)'}")
    return profile.products[key]
