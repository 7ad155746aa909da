"""A game's rules sheet: its text (a spec of kind GAME-rules, in the markup of markup.py) flowed
into two columns on A4 or Letter, one or two pages, under a title band in the game's colours, with
the game's own diagrams in the flow.

A rules spec names the specs it reads (`uses:`, relative to itself, like a board's `deck:`), the
colours of the sheet (`colours:`, names from the palette of `colours_from`, or literal colours), the
title, a subtitle, where the rules come from (`source:`, in the footer), the text, and the
positions its diagrams show (`diagrams:`, checked by the game's own rules where it has them).
The game's package supplies a SheetGame (games/GAME/rules_sheet.py): the fields the text may quote
(`{points.safety}`: amounts read from the specs, never typed twice) and a function per diagram.

The body size is chosen, not fixed: the largest from 10 pt down to 9 pt that sets the whole text
on one page, or else on two; the last page's columns are balanced. Headings are 1.3 times the body,
captions at least 7.5 pt, the footer 7 pt: nothing on a sheet is under 6 pt (diagrams leave out the
game drawings' text that would shrink below 6.5 pt: see `legible`).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..colour import WHITE, Colour, contrast_ratio
from ..draw import Drawing, Group, Style, Text
from ..errors import SpecError, show
from ..inputs import MAX_SPEC_BYTES, read_text
from ..spec import Spec
from ..spec.loader import load_related, spec_kinds
from ..paper import Paper
from ..units import pt
from . import flow
from .markup import MarkupError, parse, substitute

BODY_SIZES_PT = (10.0, 9.75, 9.5, 9.25, 9.0)   # tried largest first
MAX_PAGES = 2
MIN_TEXT_PT = 6.5      # text of a game's drawing smaller than this on the sheet is left out
FOOTER_PT = 7.0

# The page: margins, the title band of page 1, the running head of page 2, the footer (mm).
MARGIN_X = 13.0
MARGIN_TOP = 12.0
MARGIN_BOTTOM = 11.0
GUTTER = 7.0
BAND_H = 24.0
HEAD_H = 7.5
FOOTER_H = 7.0


@dataclass
class SheetGame:
    """What a game gives its rules sheet: the colours it may name, the fields its text may quote,
    and its diagrams (name -> a function drawing the diagram at a width in mm)."""
    palette: dict[str, Colour] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    diagrams: dict[str, Callable[[float], Drawing]] = field(default_factory=dict)


@dataclass
class Colours:
    band: Colour
    band_ink: Colour
    heading: Colour
    accent: Colour
    ink: Colour
    tint: Colour


@dataclass
class RulesSheet:
    spec: Spec
    title: str
    subtitle: str
    source: str
    colours: Colours
    blocks: list
    diagrams: dict[str, Callable[[float], Drawing]]
    first_line: int | None       # the file line of the text's first line
    summary: list = field(default_factory=list)     # the turn summary's blocks (`summary:`), if any
    summary_line: int | None = None


# ---------------------------------------------------------------- reading the spec

def used_spec(spec: Spec, name: str, kinds: tuple[str, ...]) -> Spec:
    """The spec that `uses.<name>` names (relative to the rules spec), loaded and validated, of one
    of `kinds`."""
    if name not in spec.data.get("uses", {}):
        raise spec.error(("uses",), f"missing {name}: this game's rules sheet reads its {name} spec")
    return load_related(spec, ("uses", name), kinds)


def _text_start(spec: Spec, key: str = "text") -> int | None:
    """The file line where the text's first line is: the line after `text: |` (or `summary: |`).
    The text must be a literal block, so that its lines are the file's lines and an error can
    name one."""
    key_line = spec.line((key,))
    if spec.path is None or key_line is None:
        return None
    raw = read_text(Path(spec.path), spec.file, MAX_SPEC_BYTES).split("\n")
    head = raw[key_line - 1] if key_line - 1 < len(raw) else ""
    after = head.split(":", 1)[1].strip() if ":" in head else ""
    if not re.match(r"^\|[-+]?[1-9]?\s*(#.*)?$", after):
        raise spec.error((key,), f"write the {key} as a literal block: `{key}: |`, then the text indented "
                                 "on the lines below (so that an error can name its line)")
    return key_line + 1


# What each colour is read against, and the least contrast it must have (WCAG: 4.5 for text, 3 for
# large bold text such as a heading, 7 for body text we want comfortably readable).
CONTRAST = (("band_ink", "band", 4.5), ("heading", "paper", 3.0), ("ink", "paper", 7.0), ("ink", "tint", 4.5))


def load_colours(spec: Spec, palette: dict[str, Colour]) -> Colours:
    c = spec.data["colours"]
    got = {k: spec.colour(("colours", k), palette) for k in c}
    got.setdefault("band_ink", WHITE)
    got.setdefault("tint", got["accent"].mix(WHITE, 0.86))
    got["paper"] = WHITE
    for fg, bg, least in CONTRAST:
        ratio = contrast_ratio(got[fg], got[bg])
        if ratio < least:
            where = fg if fg in c else bg
            raise spec.error(("colours", where), f"{fg} on {bg} has a contrast of {ratio:.1f}:1; "
                                                 f"readable text needs {least:g}:1 or more")
    return Colours(got["band"], got["band_ink"], got["heading"], got["accent"], got["ink"], got["tint"])


def load_rules_sheet(spec: Spec, game: SheetGame) -> RulesSheet:
    """The sheet's text parsed and every reference checked; errors name the file, line and field."""
    data = spec.data
    first = _text_start(spec)
    base = first if first is not None else spec.line(("text",))

    def text_error(exc: MarkupError) -> SpecError:
        return SpecError(spec.file, (base + exc.line) if base is not None else None, "text", exc.message)

    try:
        blocks = parse(data["text"], game.fields, game.diagrams)
    except MarkupError as exc:
        raise text_error(exc) from None
    summary, summary_line = [], None
    if "summary" in data:
        summary_line = _text_start(spec, "summary")
        at = summary_line if summary_line is not None else spec.line(("summary",))
        try:
            summary = parse(data["summary"], game.fields, {})
        except MarkupError as exc:
            raise SpecError(spec.file, (at + exc.line) if at is not None else None, "summary", exc.message) from None
    shown = {b.name for b in blocks if type(b).__name__ == "Figure"}
    for name in data.get("diagrams", {}):
        if name not in shown:
            raise spec.error(("diagrams", name), f"diagram {show(name)} is not shown in the text "
                                                 f"(a line ![caption]({name}))")
    plain = {}
    for key in ("title", "subtitle", "source"):
        try:
            plain[key] = substitute(data.get(key, ""), game.fields, 0).replace("\\", "") if key in data else ""
        except MarkupError as exc:
            raise spec.error((key,), exc.message) from None
    palette = dict(game.palette)
    if "colours_from" in data:
        source = data["colours_from"]
        if source not in data["uses"]:
            raise spec.error(("colours_from",), f"{show(source)} is not an entry of uses ({', '.join(data['uses'])})")
        # Only its palette is read: any spec of the game's own (a Capitals rules sheet takes the
        # colours of a Capitals deck, board or walls, not of a Sorry deck).
        ours = spec.kind.removesuffix("-rules") + "-"
        named = used_spec(spec, source, tuple(k for k in spec_kinds() if k.startswith(ours) and k != spec.kind
                                                     and not k.endswith("-record")))
        palette.update({k: named.colour(("palette", k)) for k in named.data.get("palette", {})})
    colours = load_colours(spec, palette)
    return RulesSheet(spec, plain["title"], plain["subtitle"], plain["source"], colours, blocks,
                      game.diagrams, first, summary, summary_line)


# ---------------------------------------------------------------- diagrams: a game's drawing, legible

def _bbox(item) -> tuple[float, float, float, float] | None:
    """An item's extent in its own coordinates (None for a group: not culled)."""
    from ..draw import Ellipse, Path, Rect
    if isinstance(item, Rect):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Ellipse):
        return item.cx - item.rx, item.cy - item.ry, item.cx + item.rx, item.cy + item.ry
    if isinstance(item, Path):
        xs = [v for op in item.ops for v in op[1::2]]
        ys = [v for op in item.ops for v in op[2::2]]
        return (min(xs), min(ys), max(xs), max(ys)) if xs else None
    if isinstance(item, Text):
        return item.x, item.y - item.size, item.x + item.size * max(1, len(item.text)), item.y + item.size * 0.3
    return None


def legible(root: Group, scale: float, min_pt: float = MIN_TEXT_PT, window=None) -> Group:
    """A copy of a drawing's display list in which text that would print smaller than min_pt at
    this scale is left out (a board's division numbers at a third of their size are a grey smudge,
    and the sheet promises nothing under 6 pt). Shapes are kept as they are. With a window
    (x0, y0, x1, y1 in the drawing's own mm), what lies wholly outside it at the top level is
    left out too (a corner of a world map need not carry the whole world)."""
    limit = pt(min_pt)

    def outside(it) -> bool:
        box = _bbox(it) if window else None
        return box is not None and (box[2] < window[0] or box[0] > window[2] or box[3] < window[1]
                                    or box[1] > window[3])

    def walk(g: Group, k: float, top: bool) -> Group:
        a, b, c, d, _, _ = g.transform
        k = k * math.sqrt(abs(a * d - b * c))
        items = []
        for it in g.items:
            if top and outside(it):
                continue
            if isinstance(it, Group):
                items.append(walk(it, k, False))
            elif isinstance(it, Text):
                if it.size * k >= limit - 1e-9:
                    items.append(it)
            else:
                items.append(it)
        return Group(items, g.transform, g.clip, g.name)
    return walk(root, scale, True)


def place_legible(d: Drawing, art: Drawing, transform, clip=None, min_pt: float = MIN_TEXT_PT,
                  window=None) -> None:
    """Place a game drawing in a diagram under `transform` (which scales it), without its text
    under min_pt (and, given a window, without what lies outside it)."""
    a, b, c, dd, _, _ = transform
    scale = math.sqrt(abs(a * dd - b * c))
    d.add(Group([legible(art.root, scale, min_pt, window)], transform, clip))


# ---------------------------------------------------------------- the pages

@dataclass(frozen=True)
class PageGeometry:
    width: float
    height: float

    @property
    def column_width(self) -> float:
        return (self.width - 2 * MARGIN_X - GUTTER) / 2

    def frames(self, page: int) -> list[flow.Frame]:
        top = MARGIN_TOP + (BAND_H + 6.0 if page == 0 else HEAD_H + 5.0)
        bottom = self.height - MARGIN_BOTTOM - FOOTER_H - 3.0
        w = self.column_width
        return [flow.Frame(MARGIN_X + k * (w + GUTTER), top, w, bottom - top) for k in range(2)]


LABEL = "HOW TO PLAY"
TITLE_PT = (24.0, 14.0)        # the title's size, shrunk between these to fit the band


def _band_fit(sheet: RulesSheet, g: PageGeometry) -> tuple[float, list]:
    """The title's size and the subtitle's lines in the band, or the spec's error if they do not fit."""
    w = g.width - 2 * MARGIN_X
    room = w - 12 - flow.text_width(LABEL, "sans-bold", pt(9)) - 6
    size = min(pt(TITLE_PT[0]), room / max(1e-9, flow.text_width(sheet.title, "sans-bold", 1.0)))
    if size < pt(TITLE_PT[1]):
        raise sheet.spec.error(("title",), f"too long for the title band (at {TITLE_PT[1]:g} pt it needs "
                                           f"{flow.text_width(sheet.title, 'sans-bold', pt(TITLE_PT[1])):.0f} mm, "
                                           f"the band has {room:.0f})")
    lines = flow.break_lines(((flow.Run(sheet.subtitle, "sans")),), w - 12, pt(9.5)) if sheet.subtitle else []
    if len(lines) > 1:
        raise sheet.spec.error(("subtitle",), "too long for the title band: it takes one line of "
                                              f"{w - 12:.0f} mm at 9.5 pt")
    return size, lines


def _band(d: Drawing, sheet: RulesSheet, g: PageGeometry) -> None:
    c = sheet.colours
    x, y, w = MARGIN_X, MARGIN_TOP, g.width - 2 * MARGIN_X
    d.rect(x, y, w, BAND_H, Style(fill=c.band), r=2.0)
    d.rect(x, y + BAND_H + 1.2, w, 1.4, Style(fill=c.accent), r=0.7)
    size, lines = _band_fit(sheet, g)
    d.text(x + 6, y + 11.8, sheet.title, size, c.band_ink, font="sans-bold")
    for ln in lines:
        flow.draw_line(d, ln, x + 6, y + 18.0, pt(9.5), c.band_ink)
    d.text(x + w - 6, y + 11.8, LABEL, pt(9), c.band_ink, font="sans-bold", align="right")


def _running_head(d: Drawing, sheet: RulesSheet, g: PageGeometry) -> None:
    c = sheet.colours
    x, y, w = MARGIN_X, MARGIN_TOP, g.width - 2 * MARGIN_X
    d.rect(x, y, w, HEAD_H, Style(fill=c.band), r=1.5)
    d.text(x + 4, y + HEAD_H / 2 + pt(10) * 0.36, sheet.title, pt(10), c.band_ink, font="sans-bold")
    d.text(x + w - 4, y + HEAD_H / 2 + pt(8) * 0.36, "HOW TO PLAY, CONTINUED", pt(8), c.band_ink,
           font="sans-bold", align="right")


def _footer(d: Drawing, sheet: RulesSheet, g: PageGeometry, page: int, pages: int) -> None:
    c = sheet.colours
    x, w = MARGIN_X, g.width - 2 * MARGIN_X
    y = g.height - MARGIN_BOTTOM - FOOTER_H
    d.line(x, y, x + w, y, Style(stroke=c.accent, width=0.3, cap="butt"))
    size = pt(FOOTER_PT)
    right = f"{sheet.title}: rules, page {page + 1} of {pages}"
    room = w - flow.text_width(right, "sans", size) - 8
    if flow.text_width(sheet.source, "sans", size) > room:
        raise sheet.spec.error(("source",), f"too long for the footer: {room:.0f} mm at {FOOTER_PT:g} pt "
                                            f"holds about {int(room / flow.text_width('e', 'sans', size))} characters")
    d.text(x, y + 4.5, sheet.source, size, c.ink, font="sans")
    d.text(x + w, y + 4.5, right, size, c.ink, font="sans", align="right")


def typography(sheet: RulesSheet, body_pt: float) -> flow.Typography:
    c = sheet.colours
    return flow.Typography(pt(body_pt), c.ink, c.heading, c.accent, c.tint)


@dataclass
class Typeset:
    pages: list[Drawing]
    body_pt: float
    flows: list = field(default_factory=list)     # the columns of each page (flow.PageFlow)
    summary: tuple | None = None                  # (frame, column) of the turn summary, on the last page


SUMMARY_PAD = 3.5     # mm between the turn summary's panel and its text


def _summary_column(sheet: RulesSheet, g: PageGeometry, t: flow.Typography, frame: flow.Frame):
    """The turn summary set in the last column of page 2, inside its tinted panel: the column, or
    None if it does not fit there."""
    if not sheet.summary:
        return None
    items = flow.flowables(sheet.summary, g.column_width - 2 * SUMMARY_PAD, t, {})
    col, left = flow.fill_column([flow._whole(f) for f in items], frame.h - 2 * SUMMARY_PAD)
    return None if left else col


def typeset(sheet: RulesSheet, paper: Paper) -> Typeset:
    """The sheet's pages on this paper: the largest body size that sets it on one page, else on
    two (a spec error at its text if even 9 pt needs more). On two pages, a sheet with a turn
    summary sets its text in the first three columns and the summary, in a panel, in the fourth:
    page 2 of a rules sheet is otherwise half empty, and what a player looks up during a game
    (what a turn is, how it scores) then stands on its own."""
    g = PageGeometry(*paper.size)
    width = g.column_width
    drawn: dict[str, Drawing] = {}

    def diagram(name):
        def make(w):
            if name not in drawn:
                drawn[name] = sheet.diagrams[name](w)
            return drawn[name]
        return make
    diagrams = {name: diagram(name) for name in sheet.diagrams}
    set_at: dict[float, list] = {}
    best: tuple[float, list] | None = None
    last_error = None
    # Two pages with the summary in the fourth column, then without (a summary too long for it).
    tries = [(1, False)] + ([(MAX_PAGES, True)] if sheet.summary else []) + [(MAX_PAGES, False)]
    summary = None
    for pages_wanted, with_summary in tries:
        def frames(k, pages_wanted=pages_wanted, with_summary=with_summary):
            fr = g.frames(k)
            return fr[:1] if with_summary and k == pages_wanted - 1 else fr
        room = sum(fr.h for k in range(pages_wanted) for fr in frames(k))
        for body in BODY_SIZES_PT:
            t = typography(sheet, body)
            try:
                if body not in set_at:
                    set_at[body] = flow.flowables(sheet.blocks, width, t, diagrams)
                items = set_at[body]
                if sum(f.height() for f in items) > room:      # cannot fit, whatever the breaks
                    raise flow.LayoutError(f"the text does not fit on {pages_wanted} page(s)")
                # Each diagram within its section where the pages allow it, else where it fits.
                try:
                    flows = flow.paginate(items, frames, pages_wanted, keep=True)
                except flow.LayoutError:
                    flows = flow.paginate(items, frames, pages_wanted)
                if with_summary:
                    if len(flows) < pages_wanted:
                        raise flow.LayoutError(f"the text does not fit on {pages_wanted} page(s) with its summary")
                    summary = _summary_column(sheet, g, t, g.frames(pages_wanted - 1)[-1])
                    if summary is None:
                        break                      # the summary does not fit its column: without it
            except flow.LayoutError as exc:
                if "does not fit on" not in str(exc):
                    raise _layout_error(sheet, exc) from None
                last_error = exc
                continue
            best = (body, flows)
            break
        if best:
            break
    if best is None:
        raise _layout_error(sheet, last_error)
    body, flows = best
    pages = []
    placed_summary = None
    for k, pf in enumerate(flows):
        d = Drawing(g.width, g.height)
        d.rect(0, 0, g.width, g.height, Style(fill=WHITE))
        (_band if k == 0 else _running_head)(d, sheet, g)
        flow.render_columns(d, pf)
        if summary is not None and k == len(flows) - 1:
            fr = g.frames(k)[-1]
            d.rect(fr.x, fr.y, fr.w, summary.height + 2 * SUMMARY_PAD, Style(fill=sheet.colours.tint), r=1.5)
            inner = flow.Frame(fr.x + SUMMARY_PAD, fr.y + SUMMARY_PAD, fr.w - 2 * SUMMARY_PAD, fr.h - 2 * SUMMARY_PAD)
            flow.render_columns(d, flow.PageFlow([(inner, summary)]))
            placed_summary = (inner, summary)
        _footer(d, sheet, g, k, len(flows))
        pages.append(d)
    return Typeset(pages, body, flows, placed_summary)


def _layout_error(sheet: RulesSheet, exc: flow.LayoutError) -> SpecError:
    spec = sheet.spec
    if exc.line is not None and sheet.first_line is not None:
        return SpecError(spec.file, sheet.first_line + exc.line, "text", str(exc))
    return spec.error(("text",), f"{exc}; at 9 pt the text must fit {MAX_PAGES} pages: shorten it")
