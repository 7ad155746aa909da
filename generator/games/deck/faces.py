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
from ...draw import Drawing, Gradient, PathBuilder, Rect, Style, Text, compose, rotate, scale, translate
from ...draw.fonts import get_font, needs_shaping
from ...errors import show
from .model import (CROP, MAX_DECK_TEXT, MAX_ELEMENT_TEXT, Deck, Element, Layout, Problems, hyphenator,
                    index_matches, load_picture, path_ops, picture_problem, substitute)
from .text import BREAK, PT, Markup, Measure, TextError, fit, parse

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


def draw_deck(deck: Deck, problems: Problems, cards: list | None = None) -> DeckDrawn:
    """Every card of the deck drawn, or only `cards` of it (the studio draws the cards a save changed,
    each in its place among all of them: its index, where a layout asks for it)."""
    drawn = DeckDrawn()
    shared: dict = {}
    for card in deck.cards if cards is None else cards:
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
        resolved.append((el, {k: _resolve(k, v, values) for k, v in el.values.items() if k not in ("when", "id")}))
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
                cx, cy = _middle(deck, el.type, v)
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


def _resolve(key: str, value, values: dict):
    """An element's value with the card's fields put in (a gradient's stops' colours too)."""
    if isinstance(value, str) and key in _TEMPLATED:
        return substitute(value, values)
    if key == "fill" and isinstance(value, dict):
        return {**value, "stops": [substitute(stop, values) if isinstance(stop, str) else
                                   [substitute(stop[0], values), stop[1]] for stop in value["stops"]]}
    return value


def _frozen(value):
    """A value as a key: lists and mappings as tuples, all the way down."""
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


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


def _middle(deck: Deck, kind: str, v: dict) -> tuple[float, float]:
    if kind in ("circle", "ellipse", "arc", "pie", "star") or (kind == "polygon" and "points" not in v):
        return v["cx"], v["cy"]
    if kind == "line":
        return (v["x1"] + v["x2"]) / 2, (v["y1"] + v["y2"]) / 2
    if kind in ("polygon", "triangle", "path"):
        from ...draw.pathdata import ops_bounds
        x0, y0, x1, y1 = ops_bounds(_outline(deck, kind, v).ops)
        return (x0 + x1) / 2, (y0 + y1) / 2
    return v["x"] + v["w"] / 2, v["y"] + v["h"] / 2


def _outline(deck: Deck, kind: str, v: dict) -> PathBuilder:
    """The outline of a shape drawn as a path (an arc, a pie, a triangle, a polygon, a star, a path)."""
    p = PathBuilder()
    if kind == "arc":
        return p.arc(v["cx"], v["cy"], v["r"], v["start"], v["end"], connect=False)
    if kind == "pie":
        return p.move(v["cx"], v["cy"]).arc(v["cx"], v["cy"], v["r"], v["start"], v["end"]).close()
    if kind == "triangle":
        return p.polygon([(v["x1"], v["y1"]), (v["x2"], v["y2"]), (v["x3"], v["y3"])])
    if kind == "polygon":
        if "points" in v:
            return p.polygon([tuple(q) for q in v["points"]])
        return p.regular(v["cx"], v["cy"], v["n"], v["r"])
    if kind == "star":
        return p.star(v["cx"], v["cy"], v["n"], v["outer_radius"], v["inner_radius"])
    p.ops = list(path_ops(deck, v))
    return p


def _colour(deck: Deck, problems: Problems, card, template: str, value: str, path: tuple,
            el: Element | None) -> Colour | None:
    try:
        return parse_colour(value, deck.palette)
    except ValueError as exc:
        _fail_card(deck, problems, card, template, path, f"{show(template)} gives {show(value)}: {exc}", el)
        return None


def _gradient(deck, problems, card, el: Element, paint: dict) -> Gradient | None:
    """A gradient's stops (evenly spaced where no offsets are given) as colours, or None (each
    colour that is not one is the card's problem)."""
    stops, failed = [], False
    n = len(paint["stops"])
    for k, stop in enumerate(paint["stops"]):
        text, offset = (stop, k / (n - 1)) if isinstance(stop, str) else stop
        template = el.values["fill"]["stops"][k]
        template = template if isinstance(template, str) else template[0]
        got = _colour(deck, problems, card, template, text, el.paths["fill"] + ("stops", k), el)
        failed = failed or got is None
        stops.append((float(offset), got))
    if failed:
        return None
    kind = "linear" if "linear" in paint else "radial"
    return Gradient(kind, tuple(float(c) for c in paint[kind]), tuple(stops))


def _style(deck, problems, card, el: Element, v: dict, fill_default=None, stroke_default=None) -> Style:
    fill = stroke = None
    failed = False
    for key in ("fill", "stroke"):
        if key in v:
            if isinstance(v[key], dict):
                got = _gradient(deck, problems, card, el, v[key])
            else:
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
    opacity = v.get("opacity", 1.0)
    return Style(fill=fill, stroke=stroke, width=v.get("stroke_width", DEFAULT_STROKE), dash=dash,
                 join="miter" if el.type in ("rect", "polygon", "triangle", "star") else "round",
                 fill_opacity=opacity * v.get("fill_opacity", 1.0), stroke_opacity=opacity * v.get("stroke_opacity", 1.0))


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
    elif kind == "ellipse":
        d.ellipse(v["cx"], v["cy"], v["rx"], v["ry"], _style(deck, problems, card, el, v))
    elif kind == "line":
        d.line(v["x1"], v["y1"], v["x2"], v["y2"], _style(deck, problems, card, el, v, stroke_default=BLACK))
    elif kind in ("arc", "pie", "triangle", "polygon", "star", "path"):
        # (an arc alone is a line, black unless stroked otherwise; the others are outlines to fill)
        style = _style(deck, problems, card, el, v, stroke_default=BLACK if kind == "arc" else None)
        d.path(_outline(deck, kind, v), style)
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
        _place_picture(deck, d, picture, (0.0, 0.0, float(picture.width), float(picture.height)), v, bleed=False)


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
    part = _crop(got, v)
    if isinstance(part, str):
        key = next(k for k in CROP if k in el.values)
        _fail_card(deck, problems, card, el.values["file"], el.paths[key], f"{show(rel)}: {part}", el, key)
        raise CardFailed()
    _place_picture(deck, d, got, part, v, bleed)


def _crop(picture, v: dict) -> tuple[float, float, float, float] | str:
    """The part of a picture shown (x, y, w, h in its pixels: Squib's crop_x, crop_y, crop_width,
    crop_height, each a number of pixels or a percentage of the picture's side), or why it is
    none. An SVG's pixels are its size as read (its longer side 1,000): give its crop in %."""
    W, H = picture.width, picture.height

    def px(key, side, default):
        value = v.get(key, default)
        return side * float(value[:-1]) / 100 if isinstance(value, str) else float(value)
    x, y = px("crop_x", W, 0), px("crop_y", H, 0)
    w, h = px("crop_width", W, W - x), px("crop_height", H, H - y)
    if x + w > W + 1e-6 or y + h > H + 1e-6 or w <= 0 or h <= 0:
        return (f"the crop {x:g}, {y:g}, {w:g} x {h:g} px runs outside the picture's {W} x {H} pixels"
                if w > 0 and h > 0 else f"the crop {x:g}, {y:g} px leaves nothing of the picture's {W} x {H} pixels")
    return x, y, w, h


def _place_picture(deck: Deck, d: Drawing, picture, part: tuple, v: dict, bleed: bool) -> None:
    """A part of a picture (x, y, w, h in its pixels) fitted to the element's box (`fit`, contain by
    default), turned `picture_rotate` degrees within it, at the element's opacity. Unturned, what
    reaches the trim is carried into the bleed (the picture beyond the part, then mirrored)."""
    cx, cy, cw, ch = part
    fit, opacity, turn = v.get("fit", "contain"), v.get("opacity", 1.0), v.get("picture_rotate", 0.0) % 360
    box = (v["x"], v["y"], v["w"], v["h"])

    def whole(fx, fy, fw, fh):
        """The frame of the whole picture, from the frame its part is shown in."""
        kx, ky = fw / cw, fh / ch
        return fx - cx * kx, fy - cy * ky, picture.width * kx, picture.height * ky
    if not turn:
        shown, frame = image_placement(cw / ch, fit, box, (lambda *e: _reach(deck, *e)) if bleed else None)
        if shown == frame and part == (0.0, 0.0, picture.width, picture.height):
            d.image(*shown, picture, opacity=opacity)
        else:
            d.image(*shown, picture, frame=whole(*frame), opacity=opacity)
        return
    # Turned: the turned part's box is fitted to the element's box; the part is drawn upright in
    # mm about the box's middle (its size as contain or cover makes it), then turned and, for
    # stretch, stretched each way; clipped to the box.
    import math
    t = math.radians(turn)
    bw, bh = abs(cw * math.cos(t)) + abs(ch * math.sin(t)), abs(cw * math.sin(t)) + abs(ch * math.cos(t))
    x, y, w, h = box
    kx, ky = w / bw, h / bh
    k = {"contain": min(kx, ky), "cover": max(kx, ky)}.get(fit, math.sqrt(kx * ky))
    sx, sy = (kx / k, ky / k) if fit == "stretch" else (1.0, 1.0)
    mx, my = x + w / 2, y + h / 2
    part_frame = (mx - k * cw / 2, my - k * ch / 2, k * cw, k * ch)
    turned = compose(translate(mx, my), compose(scale(sx, sy), compose(rotate(turn), translate(-mx, -my))))
    with d.group(clip=Rect(x, y, w, h, Style())):
        with d.group(turned):
            d.image(*part_frame, picture, frame=whole(*part_frame), opacity=opacity)


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
    size = v.get("size", DEFAULT_SIZE)
    language = deck.language
    measure = Measure(family, v.get("bold", False), v.get("italic", False), deck.inline, size, deck.families,
                      lambda word: hyphenator(language)(word))     # (its dictionary read when first needed)
    path = el.paths["text"]
    try:
        words = parse(text, deck.icons, Markup(size, tuple(deck.families), deck.palette))
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
    smallest = max(DEFAULT_MIN, v.get("min_size", DEFAULT_MIN))
    # A span set smaller than its element (<small>, size="6pt") is printed at 6 pt at the least too.
    tagged = "<" in text                 # (no tag, no span: every piece at the element's size, unmarked)
    least_scale = min([p.scale for word in words if word for p in word], default=1.0) if tagged else 1.0
    if least_scale < 1 and size * least_scale < DEFAULT_MIN - 1e-9:
        _fail_card(deck, problems, card, template, path,
                   f"a span at {least_scale:.0%} of the element's {size:g} pt prints at {size * least_scale:.1f} pt, "
                   f"under {DEFAULT_MIN:g} pt (the smallest printed): make it larger", el, "text")
        raise CardFailed()
    smallest = max(smallest, DEFAULT_MIN / least_scale)
    leading = v.get("leading", DEFAULT_LEADING)
    align = {"center": "centre"}.get(v.get("align", "start"), v.get("align", "start"))
    setting = fit(words, measure, size, min(smallest, size), v["w"], v["h"], leading, justify=align == "justify")
    if setting is None:
        _fail_card(deck, problems, card, template, path,
                   f"the text does not fit its {v['w']:g} x {v['h']:g} mm box even at {min(smallest, size):g} pt "
                   f"(the least it may be set at); shorten it, or give it a larger box", el, "text")
        raise CardFailed()
    sizes[el.name] = setting.size_pt
    s = setting.size_pt * PT
    opacity = v.get("opacity", 1.0)
    top = v["y"] + {"top": 0.0, "middle": (v["h"] - setting.height) / 2,
                    "bottom": v["h"] - setting.height}[v.get("valign", "top")]
    sides = _line_sides(words, setting.ends, align)
    _past_trim(deck, card, el, v, setting, measure, top, sides)
    marked = tagged and any(p.underline or p.strike for word in words if word for p in word)
    for (placed, width), baseline, (side, rtl) in zip(setting.lines, setting.baselines, sides):
        baseline += top
        dx = v["x"] + {"left": 0.0, "centre": (v["w"] - width) / 2, "right": v["w"] - width}[side]
        if rtl or any(p.piece.text and needs_shaping(p.piece.text) for p in placed):
            _draw_line_in_order(d, deck, measure, placed, dx, baseline, s, colour, rtl, opacity, marked)
            continue
        if marked:
            _draw_lines_marks(d, _segments(placed), dx, baseline, s, colour, opacity)
        run: list = []           # text pieces of one font, size and colour running on, joined into one Text

        def flush():
            if run:
                x0, look, parts = run[0][0], run[0][1], [p for _, _, p in run]
                d.add(Text(dx + x0, baseline, "".join(parts), get_font(look[0]), s * look[1], look[2] or colour,
                           opacity=opacity))
                run.clear()
        end = None
        for p in placed:
            if p.piece.icon is not None:
                flush()
                _draw_icon(d, deck, measure, p, dx, baseline, s, opacity)
                end = None
                continue
            look = (p.font, p.piece.scale, p.piece.colour)
            if run and run[-1][1] == look and end is not None:
                gap = p.x - end
                space = get_font(p.font).width(" ", s * p.piece.scale)
                if abs(gap) < 1e-9:
                    run.append((p.x, look, p.piece.text))
                    end = p.x + p.width
                    continue
                if abs(gap - space) < 1e-6:
                    run.append((p.x, look, " " + p.piece.text))
                    end = p.x + p.width
                    continue
            flush()
            run.append((p.x, look, p.piece.text))
            end = p.x + p.width
        flush()


# How far a text may stand past the trim before the build says so (mm): its ink, not its box.
PAST_TRIM = 0.05


def _past_trim(deck: Deck, card, el: Element, v: dict, setting, measure: Measure, top: float, sides) -> None:
    """A warning (a note of the spec's, said by validate and build) where a text as set runs past the
    card's trim (a box wider than the card, Squib's habit, with a long name in it): it is printed, and
    cut; no error, as Squib's decks are made so. A rotated element is not checked."""
    W, H = deck.size.width, deck.size.height
    if v.get("rotate") or (v["x"] >= 0 and v["y"] >= 0 and v["x"] + v["w"] <= W and v["y"] + v["h"] <= H):
        return                      # (the lines lie within their box)
    s = setting.size_pt * PT
    for (placed, width), baseline, (side, _) in zip(setting.lines, setting.baselines, sides):
        if not placed:
            continue
        dx = v["x"] + {"centre": (v["w"] - width) / 2, "right": v["w"] - width}.get(side, 0.0)
        scale = max((p.piece.scale for p in placed if p.piece.icon is None), default=1.0)
        x0, x1 = dx, dx + width
        y0, y1 = top + baseline - measure.cap * s * scale, top + baseline + measure.descent * s * scale
        over = max(-x0, x1 - W, -y0, y1 - H)
        if over > PAST_TRIM:
            text, end = "", 0.0
            for p in placed:
                text += (" " if p.x > end + 1e-9 and text else "") + (p.piece.text or f":{p.piece.icon}:")
                end = p.x + p.width
            deck.spec.notes[f"{deck.where(el.paths['text'])}: text: warning: {card.label()}, element {el.name} of "
                            f"layout {el.layout}: the text runs {over:.1f} mm past the trim ({show(text[:40])}) "
                            "and will be cut off; a narrower box keeps it in"] = None
            return


def _draw_icon(d: Drawing, deck: Deck, measure: Measure, p, dx: float, baseline: float, s: float,
               opacity: float = 1.0) -> None:
    """An icon in a line: its middle on the capitals' middle, moved by its dx, dy."""
    w, h, ox, oy = measure.icon_box(p.piece.icon, s)
    d.image(dx + p.x + ox, baseline - measure.cap * s / 2 - h / 2 + oy, w, h, deck.icons[p.piece.icon],
            opacity=opacity)


def _segments(placed: list) -> list[tuple]:
    """A line's pieces as they lie from the left: (x, width, piece, font), and the space between two
    words as (x, width, None, None)."""
    out, end = [], None
    for p in placed:
        if end is not None and p.x - end > 1e-9:
            out.append((end, p.x - end, None, None))
        out.append((p.x, p.width, p.piece, p.font))
        end = p.x + p.width
    return out


def _draw_lines_marks(d: Drawing, segments: list, dx: float, baseline: float, s: float,
                      colour: Colour, opacity: float = 1.0) -> None:
    """Underline and strikethrough (<u>, <s>): a bar under or through each run of pieces that has it
    as they lie on the line from the left (a right-to-left line's in visual order), the spaces
    between them too, at the font's own position and thickness."""
    for key in ("underline", "strike"):
        run: list = []
        spaces: list = []            # spaces after the run, kept if a marked piece follows
        for seg in segments + [None]:
            if seg is not None and seg[2] is None:
                if run:
                    spaces.append(seg)
                continue
            piece = seg[2] if seg is not None else None
            marked = piece is not None and piece.icon is None and getattr(piece, key)
            if marked and run and run[-1][2].colour == piece.colour and run[-1][2].scale == piece.scale:
                run += spaces + [seg]
                spaces = []
                continue
            if run:
                x0, _, first, font = run[0]
                size = s * first.scale
                offset, thickness = _bar(font, key)
                d.rect(dx + x0, baseline - (offset + thickness / 2) * size, run[-1][0] + run[-1][1] - x0,
                       thickness * size, Style(fill=first.colour or colour, fill_opacity=opacity))
            run, spaces = ([seg] if marked else []), []


def _bar(font_name: str, key: str) -> tuple[float, float]:
    """Where the font's underline or strikethrough is (its middle above the baseline) and how
    thick, in ems (its post and OS/2 tables)."""
    font = get_font(font_name)
    upm = font.upm
    if key == "underline":
        post = font.tt["post"]
        return (post.underlinePosition / upm, max(post.underlineThickness / upm, 0.03))
    os2 = font.tt["OS/2"]
    return (os2.yStrikeoutPosition / upm, max(os2.yStrikeoutSize / upm, 0.03))


def _line_sides(words, ends: list[bool], align: str) -> list[tuple[str, bool]]:
    """Each line's side (left, centre or right) and whether its paragraph reads right to left
    (shaping.paragraph_rtl: its first letter with a direction). `align` as CSS's text-align: start
    and end are the paragraph's (a Hebrew paragraph's start is the right), left and right the
    sides they name; a justified paragraph's last line goes to its start. `ends`: Setting.ends."""
    from ...draw.shaping import paragraph_rtl
    directions, paragraph = [], []
    for word in list(words) + [BREAK]:
        if word is BREAK:
            directions.append(paragraph_rtl("".join("\ufffc" if p.icon is not None else p.text
                                                    for w in paragraph for p in w)))
            paragraph = []
        elif word:                   # (not NOSPACE)
            paragraph.append(word)
    out, k = [], 0
    for end in ends:
        rtl = directions[min(k, len(directions) - 1)]
        start, other = ("right", "left") if rtl else ("left", "right")
        out.append(({"start": start, "justify": start, "end": other}.get(align, align), rtl))
        k += end
    return out


def _draw_line_in_order(d: Drawing, deck: Deck, measure: Measure, placed: list, dx: float, baseline: float,
                        s: float, colour: Colour, rtl: bool, opacity: float = 1.0, marked: bool = False) -> None:
    """A line with text that needs shaping (right to left, joined, marked), or of a paragraph that
    reads right to left: its pieces, and the spaces between them, cut where the bidi level changes
    (the paragraph's direction its base, rtl), put in visual order by UAX #9 (rule L2) and set from
    the left, each run in its own direction, size and colour (shaping.py shapes it, a piece of a
    word as within it)."""
    from ...draw.shaping import bidi_levels, visual_order
    atoms: list[tuple] = []          # (text, font or None for an icon, the piece's icon, width, the piece)
    end = 0.0
    for p in placed:
        if atoms and p.x - end > 1e-9:
            atoms.append((" ", None, None, p.x - end, None))     # the space between two words
        if p.piece.icon is not None:
            atoms.append(("\ufffc", None, p.piece.icon, p.width, p.piece))
        else:
            atoms.append((p.piece.text, p.font, None, p.width, p.piece))
        end = p.x + p.width
    levels = bidi_levels("".join(a[0] for a in atoms), int(rtl))
    runs: list[tuple] = []           # (text, font, icon, width, level, context, piece)
    at = 0
    for text, font, icon, width, piece in atoms:
        own = levels[at:at + len(text)]
        at += len(text)
        context = piece.context if font is not None else None
        if font is None or len(set(own)) == 1:
            runs.append((text, font, icon, width, own[0], context, piece))
            continue
        start = 0
        for k in range(1, len(text) + 1):
            if k == len(text) or own[k] != own[start]:
                part, around = text[start:k], (context[0] + text[:start], text[k:] + context[1])
                runs.append((part, font, None, get_font(font).width(part, s * piece.scale, around), own[start],
                             around, piece))
                start = k
    x = dx
    drawn: list[tuple] = []          # (x, width, piece, font) from the left: where marks go
    for k in visual_order([r[4] for r in runs]):
        text, font, icon, width, level, context, piece = runs[k]
        drawn.append((x - dx, width, piece if (font is not None or icon is not None) else None, font))
        if icon is not None:
            w, ih, ox, oy = measure.icon_box(icon, s)
            d.image(x + ox, baseline - measure.cap * s / 2 - ih / 2 + oy, w, ih, deck.icons[icon], opacity=opacity)
        elif font is not None:
            # (a left-to-right run is left to resolve itself: Latin in a Hebrew line stays text in the PDF)
            d.add(Text(x, baseline, text, get_font(font), s * piece.scale, piece.colour or colour,
                       direction="rtl" if level % 2 else None, opacity=opacity, context=context))
        x += width
    if marked:
        _draw_lines_marks(d, drawn, dx, baseline, s, colour, opacity)

