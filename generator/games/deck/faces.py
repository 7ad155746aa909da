"""Every card of a deck drawn: its face by its layout, its back by the back's, each element with
the card's fields put in, shown `when` its condition holds.

Cards that come out alike (the same layout and the same values in every element drawn) share one
Drawing, so a deck of many copies, or of one back, is drawn once a design.

The bleed rule: a picture, or a filled rectangle without an outline, that reaches an edge of the
card's trim is carried on into the bleed beyond that edge (a picture mirrored at its edge, so the
trimmed card shows exactly what was laid out), so a cut a little off never shows white.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...colour import BLACK, Colour, parse_colour
from ...draw import Drawing, Style, Text, rotate
from ...draw.fonts import get_font, needs_shaping
from ...errors import show
from .model import (MAX_DECK_TEXT, index_matches, MAX_ELEMENT_TEXT, Deck, Element, Layout, Problems, load_picture,
                    picture_problem, substitute)
from .text import PT, Measure, TextError, fit, parse

EDGE = 0.01          # mm: an element this close to the trim reaches it
DEFAULT_SIZE = 10.0  # pt
DEFAULT_MIN = 6.0    # pt: the smallest printed (docs/print-at-home.md, "Print details")
DEFAULT_LEADING = 1.2
DEFAULT_STROKE = 0.3  # mm


@dataclass
class DeckDrawn:
    """The cards drawn: for each card of the deck (count > 0), its face and back Drawings, and
    the text sizes set (pt, by element name: for tests and the curious)."""
    faces: list[Drawing] = field(default_factory=list)
    backs: list[Drawing] = field(default_factory=list)
    face_layouts: list[str] = field(default_factory=list)
    back_layouts: list[str] = field(default_factory=list)
    sizes: list[dict[str, float]] = field(default_factory=list)


class CardFailed(Exception):
    """A card could not be drawn (its error is among the deck's problems)."""


def draw_deck(deck: Deck, problems: Problems) -> DeckDrawn:
    drawn = DeckDrawn()
    shared: dict = {}
    for card in deck.cards:
        values = dict(card.fields)
        values["count"] = values[card.count_name] = str(card.count)
        if card.index is not None:
            values[INDEX] = (card.index, len(deck.cards))
        face = back = None
        sizes: dict[str, float] = {}
        for side, template in (("layout", deck.face_template), ("back", deck.back_template)):
            name = substitute(template, values)
            layout = deck.layouts.get(name)
            if layout is not None and layout.broken:
                continue                      # refused by the schema: its error is said
            if layout is None:
                _fail_card(deck, problems, card, deck.spec.data.get(side, template), (side,),
                           f"its {'face' if side == 'layout' else 'back'} layout {show(name)} is none of the "
                           f"layouts ({', '.join(deck.layouts)})")
                continue
            try:
                got = _draw_card(deck, layout, card, values, shared, problems, sizes if side == "layout" else {})
            except CardFailed:
                continue
            if side == "layout":
                face = got
                drawn.face_layouts.append(name)
            else:
                back = got
                drawn.back_layouts.append(name)
        if face is not None and back is not None:
            drawn.faces.append(face)
            drawn.backs.append(back)
            drawn.sizes.append(sizes)
    return drawn


def _fail_card(deck: Deck, problems: Problems, card, template: str, path: tuple, message: str,
               element: Element | None = None, key: str = "") -> None:
    """A problem drawing a card: the spec's error where the value comes from the spec alone, the
    card's (its row, its column) where it comes from the card's fields."""
    from .model import fields_in
    names = fields_in(template) if isinstance(template, str) else []
    what = f"element {element.name} of layout {element.layout}" if element is not None else ""
    if not names:
        problems.add(deck.spec.error(path, f"{what}: {message}" if what else message))
        return
    column = names[0] if len(names) == 1 else ""
    where = f", {what} ({deck.where(path)})" if what else f" ({deck.where(path)})"
    problems.add(card.error(column, f"{card.label()}{where}: {message}"))


def _draw_card(deck: Deck, layout: Layout, card, values: dict, shared: dict, problems: Problems,
               sizes: dict) -> Drawing:
    """The card drawn by the layout, or the drawing of a card that came out alike."""
    resolved = []
    for el in layout.elements:
        if el.broken or not _shown(el, values):
            continue
        resolved.append((el, {k: substitute(v, values) if isinstance(v, str) and k in _TEMPLATED else v
                              for k, v in el.values.items() if k not in ("when", "id")}))
    background = substitute(layout.background, values) if layout.background else None
    key = (layout.name, background, tuple((id(el), _frozen(v)) for el, v in resolved))
    known = shared.get(key)
    if known is not None:
        sizes.update(known[1])
        return known[0]
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    d = Drawing(W, H)
    failed = False
    if background is not None:
        colour = _colour(deck, problems, card, layout.background, background, layout.background_path, None)
        if colour is None:
            failed = True
        else:
            d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=colour))
    for el, v in resolved:
        try:
            turn = v.get("rotate", 0)
            if turn:
                cx, cy = _middle(el.type, v)
                with d.group(rotate(turn, cx, cy)):
                    _draw_element(deck, d, el, v, card, problems, sizes, bleed=False)
            else:
                _draw_element(deck, d, el, v, card, problems, sizes, bleed=True)
        except CardFailed:
            failed = True
    if failed:
        raise CardFailed()
    shared[key] = (d, dict(sizes))
    return d


_TEMPLATED = {"fill", "stroke", "colour", "text", "file", "icon"}


def _frozen(values: dict):
    return tuple(sorted((k, tuple(map(tuple, v)) if k == "points" else tuple(v) if isinstance(v, list) else v)
                        for k, v in values.items()))


INDEX = ("index",)      # the card's (index, cards in the deck) among its values: no field's name


def _shown(el: Element, values: dict) -> bool:
    when = el.values.get("when")
    if when is None:
        return True
    if isinstance(when, str):
        return values.get(when, "") != ""
    for name, want in when.items():
        if name == "index" and INDEX in values:
            if not index_matches(want, *values[INDEX]):
                return False
            continue
        have = values.get(name, "")
        options = want if isinstance(want, list) else [want]
        if not any(have == _text(o) for o in options):
            return False
    return True


def _text(value) -> str:
    from .data import text_of
    return text_of(value)


def _middle(kind: str, v: dict) -> tuple[float, float]:
    if kind == "circle":
        return v["cx"], v["cy"]
    if kind == "line":
        return (v["x1"] + v["x2"]) / 2, (v["y1"] + v["y2"]) / 2
    if kind == "polygon":
        xs, ys = [p[0] for p in v["points"]], [p[1] for p in v["points"]]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return v["x"] + v["w"] / 2, v["y"] + v["h"] / 2


def _colour(deck: Deck, problems: Problems, card, template: str, value: str, path: tuple,
            el: Element | None) -> Colour | None:
    try:
        return parse_colour(value, deck.palette)
    except ValueError as exc:
        _fail_card(deck, problems, card, template, path, f"{show(template)} gives {show(value)}: {exc}", el)
        return None


def _style(deck, problems, card, el: Element, v: dict, fill_default=None, stroke_default=None) -> Style:
    fill = stroke = None
    failed = False
    for key in ("fill", "stroke"):
        if key in v:
            got = _colour(deck, problems, card, el.values[key], v[key], el.paths[key], el)
            if got is None:
                failed = True
            elif key == "fill":
                fill = got
            else:
                stroke = got
    if failed:
        raise CardFailed()
    if "fill" not in v:
        fill = fill_default
    if "stroke" not in v:
        stroke = stroke_default
    dash = tuple(v["dash"]) if v.get("dash") else None
    return Style(fill=fill, stroke=stroke, width=v.get("stroke_width", DEFAULT_STROKE), dash=dash,
                 join="miter" if el.type in ("rect", "polygon") else "round")


def _reach(deck: Deck, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    """A box carried into the bleed on each side where it reaches the trim."""
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    return (min(x0, -b) if x0 <= EDGE else x0, min(y0, -b) if y0 <= EDGE else y0,
            max(x1, W + b) if x1 >= W - EDGE else x1, max(y1, H + b) if y1 >= H - EDGE else y1)


def _draw_element(deck: Deck, d: Drawing, el: Element, v: dict, card, problems: Problems, sizes: dict,
                  bleed: bool) -> None:
    kind = el.type
    if kind == "rect":
        style = _style(deck, problems, card, el, v)
        x0, y0, x1, y1 = v["x"], v["y"], v["x"] + v["w"], v["y"] + v["h"]
        if bleed and style.fill is not None and style.stroke is None:
            x0, y0, x1, y1 = _reach(deck, x0, y0, x1, y1)
        d.rect(x0, y0, x1 - x0, y1 - y0, style, r=v.get("radius", 0.0))
    elif kind == "circle":
        d.circle(v["cx"], v["cy"], v["r"], _style(deck, problems, card, el, v))
    elif kind == "line":
        d.line(v["x1"], v["y1"], v["x2"], v["y2"], _style(deck, problems, card, el, v, stroke_default=BLACK))
    elif kind == "polygon":
        d.polygon([tuple(p) for p in v["points"]], _style(deck, problems, card, el, v))
    elif kind == "text":
        _draw_text(deck, d, el, v, card, problems, sizes)
    elif kind == "image":
        _draw_image(deck, d, el, v, card, problems, bleed)
    elif kind == "icon":
        name = v["icon"]
        picture = deck.icons.get(name)
        if picture is None:
            _fail_card(deck, problems, card, el.values["icon"], el.paths["icon"],
                       f"no icon named {show(name)}; the icons are: {', '.join(sorted(deck.icons)) or 'none'}", el,
                       "icon")
            raise CardFailed()
        x, y, w, h = _contain(picture.aspect, v["x"], v["y"], v["w"], v["h"])
        d.image(x, y, w, h, picture)


def _contain(aspect: float, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """The largest box of this aspect (width / height) inside x, y, w, h, centred in it."""
    if w / h > aspect:
        dw = h * aspect
        return x + (w - dw) / 2, y, dw, h
    dh = w / aspect
    return x, y + (h - dh) / 2, w, dh


def image_placement(picture_aspect: float, fit: str, box: tuple[float, float, float, float],
                    reach=None) -> tuple[tuple, tuple]:
    """(where the picture is shown, where the whole of it lies), each (x, y, w, h) mm, for a fit into
    a box: stretched to it, contained in it (as large as fits, in its middle) or covering it (as
    large as fills it, its middle shown). `reach(x0, y0, x1, y1)` carries what is shown into the
    bleed, the picture mirrored past its own edge."""
    x, y, w, h = box
    if fit == "stretch":
        frame = shown = box
    elif fit == "contain":
        frame = shown = _contain(picture_aspect, x, y, w, h)
    else:
        if w / h > picture_aspect:
            fw, fh = w, w / picture_aspect
        else:
            fw, fh = h * picture_aspect, h
        frame, shown = (x + (w - fw) / 2, y + (h - fh) / 2, fw, fh), box
    if reach is not None:
        sx, sy, sw, sh = shown
        x0, y0, x1, y1 = reach(sx, sy, sx + sw, sy + sh)
        shown = (x0, y0, x1 - x0, y1 - y0)
    return shown, frame


def _draw_image(deck: Deck, d: Drawing, el: Element, v: dict, card, problems: Problems, bleed: bool) -> None:
    rel = v["file"]
    got = load_picture(deck, rel)
    if isinstance(got, Exception):
        _fail_card(deck, problems, card, el.values["file"], el.paths["file"], picture_problem(got, rel), el, "file")
        raise CardFailed()
    box = (v["x"], v["y"], v["w"], v["h"])
    shown, frame = image_placement(got.aspect, v.get("fit", "contain"), box,
                                   (lambda *e: _reach(deck, *e)) if bleed else None)
    d.image(*shown, got, frame=frame)


def _draw_text(deck: Deck, d: Drawing, el: Element, v: dict, card, problems: Problems, sizes: dict) -> None:
    template = el.values["text"]
    text = v["text"]
    if not text.strip():
        return
    if len(text) > MAX_ELEMENT_TEXT:
        _fail_card(deck, problems, card, template, el.paths["text"],
                   f"the text is {len(text):,} characters with its fields put in; an element holds at most "
                   f"{MAX_ELEMENT_TEXT:,}", el, "text")
        raise CardFailed()
    deck.text_set += len(text)
    if deck.text_set > MAX_DECK_TEXT:
        _fail_card(deck, problems, card, template, el.paths["text"],
                   f"the deck's text comes to more than {MAX_DECK_TEXT:,} characters here (its distinct faces' "
                   "text elements, fields put in): a deck sets at most that much", el, "text")
        raise CardFailed()
    family = deck.families[v.get("font", "sans")]
    measure = Measure(family, v.get("bold", False), v.get("italic", False),
                      {name: pic.aspect for name, pic in deck.icons.items()})
    path = el.paths["text"]
    try:
        words = parse(text, deck.icons)
    except TextError as exc:
        _fail_card(deck, problems, card, template, path, str(exc), el, "text")
        raise CardFailed() from None
    missing = measure.missing_glyphs(words)
    if missing:
        more = f" (nor for {show(missing[1:10])})" if len(missing) > 1 else ""
        _fail_card(deck, problems, card, template, path, f"the font {v.get('font', 'sans')} has no letter for "
                                                          f"{show(missing[0])} (U+{ord(missing[0]):04X}){more}", el, "text")
        raise CardFailed()
    colour = BLACK
    if "colour" in v:
        colour = _colour(deck, problems, card, el.values["colour"], v["colour"], el.paths["colour"], el)
        if colour is None:
            raise CardFailed()
    size = v.get("size", DEFAULT_SIZE)
    smallest = max(DEFAULT_MIN, v.get("min_size", DEFAULT_MIN))
    leading = v.get("leading", DEFAULT_LEADING)
    setting = fit(words, measure, size, min(smallest, size), v["w"], v["h"], leading)
    if setting is None:
        _fail_card(deck, problems, card, template, path,
                   f"the text does not fit its {v['w']:g} x {v['h']:g} mm box even at {min(smallest, size):g} pt "
                   f"(the least it may be set at); shorten it, or give it a larger box", el, "text")
        raise CardFailed()
    sizes[el.name] = setting.size_pt
    s = setting.size_pt * PT
    top = v["y"] + {"top": 0.0, "middle": (v["h"] - setting.height) / 2,
                    "bottom": v["h"] - setting.height}[v.get("valign", "top")]
    align = {"center": "centre"}.get(v.get("align", "left"), v.get("align", "left"))
    baseline = top + measure.cap * s
    for placed, width in setting.lines:
        dx = v["x"] + {"left": 0.0, "centre": (v["w"] - width) / 2, "right": v["w"] - width}[align]
        if any(p.piece.text and needs_shaping(p.piece.text) for p in placed):
            _draw_line_in_order(d, deck, measure, placed, dx, baseline, s, colour)
            baseline += leading * s
            continue
        run: list = []           # text pieces of one font running on, joined into one Text

        def flush():
            if run:
                x0, font, parts = run[0][0], run[0][1], [p for _, _, p in run]
                d.add(Text(dx + x0, baseline, "".join(parts), get_font(font), s, colour))
                run.clear()
        end = None
        for p in placed:
            if p.piece.icon is not None:
                flush()
                ih = measure.icon_height(s)
                d.image(dx + p.x, baseline - measure.cap * s / 2 - ih / 2, p.width, ih, deck.icons[p.piece.icon])
                end = None
                continue
            if run and run[-1][1] == p.font and end is not None:
                gap = p.x - end
                space = get_font(p.font).width(" ", s)
                if abs(gap) < 1e-9:
                    run.append((p.x, p.font, p.piece.text))
                    end = p.x + p.width
                    continue
                if abs(gap - space) < 1e-6:
                    run.append((p.x, p.font, " " + p.piece.text))
                    end = p.x + p.width
                    continue
            flush()
            run.append((p.x, p.font, p.piece.text))
            end = p.x + p.width
        flush()
        baseline += leading * s


def _draw_line_in_order(d: Drawing, deck: Deck, measure: Measure, placed: list, dx: float, baseline: float,
                        s: float, colour: Colour) -> None:
    """A line with text that needs shaping (right to left, joined, marked): its pieces, and the
    spaces between them, cut where the bidi level changes, put in visual order by UAX #9 (rule L2)
    and set from the left, each run in its own direction (shaping.py shapes it)."""
    from ...draw.shaping import bidi_levels, visual_order
    atoms: list[tuple] = []          # (text, font or None for an icon, the piece's icon, width)
    end = 0.0
    for p in placed:
        if atoms and p.x - end > 1e-9:
            atoms.append((" ", None, None, p.x - end))           # the space between two words
        if p.piece.icon is not None:
            atoms.append(("\ufffc", None, p.piece.icon, p.width))
        else:
            atoms.append((p.piece.text, p.font, None, p.width))
        end = p.x + p.width
    levels = bidi_levels("".join(a[0] for a in atoms))
    runs: list[tuple] = []           # (text, font, icon, width, level)
    at = 0
    for text, font, icon, width in atoms:
        own = levels[at:at + len(text)]
        at += len(text)
        if font is None or len(set(own)) == 1:
            runs.append((text, font, icon, width, own[0]))
            continue
        start = 0
        for k in range(1, len(text) + 1):
            if k == len(text) or own[k] != own[start]:
                part = text[start:k]
                runs.append((part, font, None, get_font(font).width(part, s), own[start]))
                start = k
    x = dx
    for k in visual_order([r[4] for r in runs]):
        text, font, icon, width, level = runs[k]
        if icon is not None:
            ih = measure.icon_height(s)
            d.image(x, baseline - measure.cap * s / 2 - ih / 2, width, ih, deck.icons[icon])
        elif font is not None:
            # (a left-to-right run is left to resolve itself: Latin in a Hebrew line stays text in the PDF)
            d.add(Text(x, baseline, text, get_font(font), s, colour, direction="rtl" if level % 2 else None))
        x += width

