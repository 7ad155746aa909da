"""Flowing marked-up text (markup.py) into columns and pages: the typesetting of a rules sheet.

Text is measured with the drawing layer's font metrics (draw/fonts.py: the advance widths every
backend draws with), broken into lines greedily (at spaces, and after a hyphen inside a word when a
word does not fit), ragged right. Each block becomes a Flowable: a stack of pieces (a line, a row of
a table, a diagram with its caption) that a column takes whole or, for text, splits between lines.

Columns are filled in order. The rules a typographer would ask for:
- a heading keeps with what follows it (with the first two lines of a paragraph, or a whole
  diagram, table or note), so a column never ends on a heading;
- no widows or orphans: a paragraph or list item is split only with two lines or more on each side;
- a diagram, a table and a note are never split; a diagram that does not fit what is left of a
  column goes to the top of the next one while the text after it (up to the next diagram) fills
  this one, or, if the column so far holds only its own section's text, to the top of this one,
  whichever leaves less of the column empty; diagrams keep their order;
- a full column is justified top to bottom (the space between blocks grows, a little), so column
  feet line up; the last page's columns are balanced (the shortest height that holds the rest).
Everything here is deterministic: the same text gives the same pages, byte for byte.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable

from ..colour import Colour
from ..draw import Drawing, Style, translate
from ..draw.fonts import get_font
from ..errors import LayoutError, show  # noqa: F401  (LayoutError: raised here, named as flow.LayoutError)
from ..units import pt
from .markup import (BOLD, BOLD_ITALIC, ITALIC, NBSP, REGULAR, Figure, Heading, Inline, Item, Note, Paragraph,
                     Run, Table)

EPS = 1e-6


# ---------------------------------------------------------------- measuring and breaking lines

@lru_cache(maxsize=1 << 16)
def _unit_width(text: str, font: str) -> float:
    return get_font(font).width(text.replace(NBSP, " "), 1.0)


def text_width(text: str, font: str, size: float) -> float:
    """The advance width of text at size (mm), as every backend draws it (words are measured many
    times while a sheet's body size is chosen: each is measured once)."""
    return _unit_width(text, font) * size


@dataclass(frozen=True)
class Segment:
    x: float            # from the line's left end, mm
    text: str
    font: str


@dataclass(frozen=True)
class Line:
    segments: tuple[Segment, ...]
    width: float


def _words(text: Inline) -> list[list[Run]]:
    """The words of a text (split at ordinary spaces), each a list of runs."""
    words: list[list[Run]] = [[]]
    for run in text:
        parts = run.text.split(" ")
        for k, part in enumerate(parts):
            if k > 0 and words[-1]:
                words.append([])
            if part:
                words[-1].append(Run(part, run.font))
    return [w for w in words if w]


def _word_width(word: list[Run], size: float) -> float:
    return sum(text_width(r.text, r.font, size) for r in word)


def _hyphen_splits(word: list[Run]) -> list[tuple[list[Run], list[Run]]]:
    """Ways to break a word after one of its hyphens (last first): each side keeps 2+ letters."""
    flat = "".join(r.text for r in word)
    out = []
    for i in range(len(flat) - 3, 1, -1):
        if flat[i] == "-" and flat[i - 1].isalnum() and flat[i + 1].isalnum() and flat[i - 2].isalnum() \
                and i + 2 < len(flat) and flat[i + 2].isalnum():
            head, tail, pos = [], [], 0
            for r in word:
                end = pos + len(r.text)
                cut = i + 1
                if end <= cut:
                    head.append(r)
                elif pos >= cut:
                    tail.append(r)
                else:
                    head.append(Run(r.text[:cut - pos], r.font))
                    tail.append(Run(r.text[cut - pos:], r.font))
                pos = end
            out.append((head, tail))
    return out


def break_lines(text: Inline, width: float, size: float) -> list[Line]:
    """Lines of at most `width` mm (a word wider than the width is a LayoutError)."""
    lines: list[list[tuple[list[Run], str]]] = []   # per line: (word, font of the space before it)
    current: list[tuple[list[Run], str]] = []
    x = 0.0
    pending = list(_words(text))
    while pending:
        word = pending.pop(0)
        w = _word_width(word, size)
        space_font = current[-1][0][-1].font if current else REGULAR
        sp = text_width(" ", space_font, size) if current else 0.0
        if x + sp + w <= width + EPS:
            current.append((word, space_font))
            x += sp + w
            continue
        for head, tail in _hyphen_splits(word):
            if x + sp + _word_width(head, size) <= width + EPS:
                current.append((head, space_font))
                pending.insert(0, tail)
                break
        else:
            if not current:
                raise LayoutError(f"the word {show(''.join(r.text for r in word))} is wider than a column")
            lines.append(current)
            current, x = [], 0.0
            pending.insert(0, word)
            continue
        lines.append(current)
        current, x = [], 0.0
    if current:
        lines.append(current)
    out = []
    for words in lines:
        segs: list[list] = []        # [x, text, font]
        x = 0.0
        for k, (word, space_font) in enumerate(words):
            if k > 0:
                sp = text_width(" ", space_font, size)
                if segs and segs[-1][2] == space_font:
                    segs[-1][1] += " "
                else:
                    segs.append([x, " ", space_font])
                x += sp
            for r in word:
                if segs and segs[-1][2] == r.font:
                    segs[-1][1] += r.text
                else:
                    segs.append([x, r.text, r.font])
                x += text_width(r.text, r.font, size)
        out.append(Line(tuple(Segment(sx, t.replace(NBSP, " "), f) for sx, t, f in segs if t.strip()), x))
    return out


def draw_line(d: Drawing, line: Line, x: float, baseline: float, size: float, colour: Colour,
              font_map: dict[str, str] | None = None, align: str = "left", width: float = 0.0) -> None:
    """A line's segments on a baseline; font_map turns the markup's fonts into others (a heading
    is bold throughout: its italic is bold italic)."""
    dx = {"left": 0.0, "centre": (width - line.width) / 2, "right": width - line.width}[align]
    for s in line.segments:
        font = (font_map or {}).get(s.font, s.font)
        d.text(x + dx + s.x, baseline, s.text, size, colour, font=font)


# ---------------------------------------------------------------- typography

@dataclass(frozen=True)
class Typography:
    """Sizes (mm) and colours of a sheet's text, all derived from the body size."""
    body: float                       # body text size, mm
    ink: Colour
    heading: Colour
    accent: Colour
    tint: Colour                      # the background of notes and of alternate table rows
    leading_ratio: float = 1.3

    @property
    def leading(self) -> float:
        return self.body * self.leading_ratio

    @property
    def h1(self) -> float:
        return self.body * 1.32

    @property
    def h2(self) -> float:
        return self.body * 1.06

    @property
    def caption(self) -> float:
        return max(pt(7.5), self.body * 0.86)

    @property
    def paragraph_gap(self) -> float:
        return self.leading * 0.45


BOLD_FONTS = {REGULAR: BOLD, ITALIC: BOLD_ITALIC, BOLD: BOLD, BOLD_ITALIC: BOLD_ITALIC}
ITALIC_FONTS = {REGULAR: ITALIC, BOLD: BOLD_ITALIC, ITALIC: REGULAR, BOLD_ITALIC: BOLD}


def _baseline(top: float, leading: float, size: float) -> float:
    """The baseline of a line whose box (leading tall) starts at top: the font's ascent and
    descent centred in the box."""
    f = get_font(REGULAR)
    return top + (leading - size * (f.ascent - f.descent)) / 2 + size * f.ascent


# ---------------------------------------------------------------- flowables

@dataclass
class Piece:
    """An unbreakable strip of a column: a line of text, a table, a diagram with its caption."""
    height: float
    draw: Callable[[Drawing, float, float], None]      # (drawing, x of the column, top y)
    ends_sentence: bool = False                        # a line whose last word ends a sentence


KEEP_LINES = 5      # a paragraph or list item this short is never split between columns or pages
SENTENCE_END = (".", ":", ";", "!", "?", ".)", ".\u201d")


@dataclass
class Flowable:
    kind: str                          # heading | text | figure | table | note
    pieces: list[Piece]
    space_before: float
    line: int                          # the line of the text it comes from
    keep_with_next: bool = False
    splittable: bool = False
    min_lines: int = 2                 # lines kept together at a split (no widows, no orphans)

    def height(self, start: int = 0, end: int | None = None) -> float:
        return sum(p.height for p in self.pieces[start:end])


def _text_pieces(lines: list[Line], x_off: float, size: float, leading: float, colour: Colour,
                 font_map=None) -> list[Piece]:
    pieces = []
    for ln in lines:
        def draw(d, x, y, ln=ln):
            draw_line(d, ln, x + x_off, _baseline(y, leading, size), size, colour, font_map)
        last = ln.segments[-1].text.rstrip() if ln.segments else ""
        pieces.append(Piece(leading, draw, last.endswith(SENTENCE_END)))
    return pieces


def balanced_lines(text: Inline, width: float, size: float) -> list[Line]:
    """Lines as break_lines sets them, but as even as the same number of lines allows: the
    narrowest width that keeps the count (a heading never leaves one word alone on its last line
    when the words can share the lines)."""
    lines = break_lines(text, width, size)
    if len(lines) < 2:
        return lines
    lo, hi = max(ln.width for ln in lines) / len(lines), width
    for _ in range(24):
        mid = (lo + hi) / 2
        try:
            trial = break_lines(text, mid, size)
        except LayoutError:
            lo = mid
            continue
        if len(trial) <= len(lines):
            hi = mid
        else:
            lo = mid
    return break_lines(text, hi, size)


def heading_flowable(b: Heading, width: float, t: Typography) -> Flowable:
    size = t.h1 if b.level == 1 else t.h2
    leading = size * 1.2
    lines = balanced_lines(b.text, width, size)
    colour = t.heading if b.level == 1 else t.ink
    pieces = _text_pieces(lines, 0.0, size, leading, colour, BOLD_FONTS)
    if b.level == 1:
        # A hairline in the accent colour under a section's title.
        rule = max(pt(0.6), 0.25)

        def draw_rule(d, x, y):
            d.line(x, y + rule / 2, x + width, y + rule / 2, Style(stroke=t.accent, width=rule, cap="butt"))
        pieces.append(Piece(rule + t.leading * 0.3, draw_rule))
    gap = t.leading * (1.0 if b.level == 1 else 0.6)
    return Flowable("heading", pieces, gap, b.line, keep_with_next=True)


def paragraph_flowable(b: Paragraph, width: float, t: Typography) -> Flowable:
    lines = break_lines(b.text, width, t.body)
    return Flowable("text", _text_pieces(lines, 0.0, t.body, t.leading, t.ink), t.paragraph_gap, b.line,
                    splittable=len(lines) > KEEP_LINES)


def item_flowable(b: Item, width: float, t: Typography, first_in_list: bool) -> Flowable:
    indent = t.body * 0.35 + b.depth * t.body * 1.4
    marker_w = max(text_width("00.", REGULAR, t.body), text_width("\u2022", REGULAR, t.body) + t.body * 0.6) \
        if b.marker[0].isdigit() else text_width("\u2022", REGULAR, t.body) + t.body * 0.55
    text_x = indent + marker_w
    lines = break_lines(b.text, width - text_x, t.body)
    pieces = _text_pieces(lines, text_x, t.body, t.leading, t.ink)
    first = pieces[0].draw

    def draw_first(d, x, y):
        base = _baseline(y, t.leading, t.body)
        if b.marker[0].isdigit():
            d.text(x + text_x - t.body * 0.3, base, b.marker, t.body, t.ink, font=BOLD, align="right")
        else:
            d.text(x + indent, base, b.marker, t.body, t.accent if b.depth == 0 else t.ink, font=BOLD)
        first(d, x, y)
    pieces[0] = Piece(pieces[0].height, draw_first)
    gap = t.paragraph_gap if first_in_list else t.leading * 0.18
    return Flowable("text", pieces, gap, b.line, splittable=len(lines) > KEEP_LINES)


def note_flowable(b: Note, width: float, t: Typography) -> Flowable:
    bar, pad = 1.0, t.body * 0.55
    inner = width - bar - 2 * pad
    paras = [break_lines(p, inner, t.body) for p in b.paragraphs]
    gap_between = t.leading * 0.35
    height = 2 * pad + sum(len(p) * t.leading for p in paras) + gap_between * (len(paras) - 1)

    def draw(d, x, y):
        d.rect(x, y, width, height, Style(fill=t.tint))
        d.rect(x, y, bar, height, Style(fill=t.accent))
        yy = y + pad
        for lines in paras:
            for ln in lines:
                draw_line(d, ln, x + bar + pad, _baseline(yy, t.leading, t.body), t.body, t.ink)
                yy += t.leading
            yy += gap_between
    return Flowable("note", [Piece(height, draw)], t.paragraph_gap * 1.6, b.line)


def _cell_runs(b: Table, r: int, c: int) -> Inline:
    """A cell's text as set: a header row is bold throughout."""
    cell = b.rows[r][c]
    return tuple(Run(x.text, BOLD_FONTS[x.font]) for x in cell) if (b.header and r == 0) else cell


def table_flowable(b: Table, width: float, t: Typography) -> Flowable:
    pad = t.body * 0.5
    ncol = len(b.rows[0])
    # Columns after the first are as wide as their widest cell; the first takes the rest and wraps.
    def natural(c):
        fonts = []
        for r, row in enumerate(b.rows):
            runs = tuple(Run(x.text, BOLD_FONTS[x.font]) for x in row[c]) if (b.header and r == 0) else row[c]
            fonts.append(sum(text_width(x.text, x.font, t.body) for x in runs))
        return max(fonts) + 2 * pad
    def longest_word(c):
        # Words as break_lines sees them: split at plain spaces only (a ~ binds).
        return max(text_width(w, x.font, t.body) for r in range(len(b.rows)) for x in _cell_runs(b, r, c)
                   for w in x.text.split(" ")) + 2 * pad
    nat = [natural(c) for c in range(ncol)]
    if sum(nat[1:]) + width * 0.3 <= width:
        # The first column takes what the others leave, and wraps if it must.
        widths = [width - sum(nat[1:])] + nat[1:]
    else:
        # Every column may wrap. Each column's width is one of a few candidates (its longest word,
        # or the width that sets one of its cells on one line); of the combinations that fit, the
        # one that makes the table shortest wins (then the one that wraps the fewest cells), and
        # what is left over goes to the first column.
        least = [longest_word(c) for c in range(ncol)]
        if sum(least) > width:
            raise LayoutError("a table too wide for a column, even with every cell wrapped", b.line)
        nrows = len(b.rows)

        def cell_width(r, c):
            return sum(text_width(x.text, x.font, t.body) for x in _cell_runs(b, r, c)) + 2 * pad
        candidates = [sorted({least[c]} | {w for r in range(nrows) if (w := cell_width(r, c)) > least[c]})
                      for c in range(ncol)]
        lines = {(c, w): [len(break_lines(_cell_runs(b, r, c), w - 2 * pad, t.body)) for r in range(nrows)]
                 for c in range(ncol) for w in candidates[c]}
        best = None
        for combo in itertools.product(*candidates):
            if sum(combo) > width + EPS:
                continue
            per_row = [max(lines[(c, combo[c])][r] for c in range(ncol)) for r in range(nrows)]
            wrapped = sum(n > 1 for c in range(ncol) for n in lines[(c, combo[c])])
            key = (sum(per_row), wrapped, combo)
            if best is None or key < best:
                best = key
        widths = list(best[2])
        widths[0] += width - sum(widths)
    rows = []
    for r, row in enumerate(b.rows):
        bold = b.header and r == 0
        cells = []
        for c, cell in enumerate(row):
            runs = tuple(Run(x.text, BOLD_FONTS[x.font]) for x in cell) if bold else cell
            cells.append(break_lines(runs, widths[c] - 2 * pad, t.body) or [Line((), 0.0)])
        rows.append(cells)
    row_h = [max(len(c) for c in cells) * t.leading + pad * 0.6 for cells in rows]
    last = len(rows) - 1

    # One piece a row, so a long table may break between rows (two rows at least each side).
    def row_piece(r, cells):
        def draw(d, x, y):
            if b.header and r == 0:
                d.rect(x, y, width, row_h[r], Style(fill=t.tint))
            elif (r % 2 == 0) == b.header:
                d.rect(x, y, width, row_h[r], Style(fill=t.tint.mix(Colour(rgb=(1, 1, 1)), 0.55)))
            xx = x
            for c, lines in enumerate(cells):
                for k, ln in enumerate(lines):
                    base = _baseline(y + pad * 0.3 + k * t.leading, t.leading, t.body)
                    draw_line(d, ln, xx + pad, base, t.body, t.ink, align=b.align[c], width=widths[c] - 2 * pad)
                xx += widths[c]
            rule = Style(stroke=t.accent, width=0.3, cap="butt")
            if r == 0:
                d.line(x, y, x + width, y, rule)
            if r == last:
                d.line(x, y + row_h[r], x + width, y + row_h[r], rule)
            elif b.header and r == 0:
                d.line(x, y + row_h[0], x + width, y + row_h[0], Style(stroke=t.ink, width=0.2, cap="butt"))
        return Piece(row_h[r], draw)
    pieces = [row_piece(r, cells) for r, cells in enumerate(rows)]
    # A header row stays with the rows under it.
    if b.header and len(pieces) > 1:
        head, first = pieces[0], pieces[1]

        def both(d, x, y):
            head.draw(d, x, y)
            first.draw(d, x, y + head.height)
        pieces[:2] = [Piece(head.height + first.height, both)]
    return Flowable("table", pieces, t.paragraph_gap * 1.6, b.line, splittable=True)


def figure_flowable(b: Figure, art: Drawing, width: float, t: Typography) -> Flowable:
    """A diagram the width of the column (the game drew it at that width), its caption under it."""
    if abs(art.width - width) > 0.5:
        raise LayoutError(f"diagram {show(b.name)} is {art.width:.1f} mm wide, the column {width:.1f} mm", b.line)
    size = t.caption
    leading = size * 1.25
    lines = break_lines(b.caption, width, size) if b.caption else []
    cap_gap = t.body * 0.45
    height = art.height + (cap_gap + len(lines) * leading if lines else 0.0)

    def draw(d, x, y):
        d.place(art, translate(x, y))
        yy = y + art.height + cap_gap
        for ln in lines:
            draw_line(d, ln, x, _baseline(yy, leading, size), size, t.ink, ITALIC_FONTS, align="centre", width=width)
            yy += leading
    return Flowable("figure", [Piece(height, draw)], t.leading * 0.9, b.line)


def flowables(blocks, width: float, t: Typography, diagrams: dict[str, Callable[[float], Drawing]]) -> list[Flowable]:
    """Every block set at a column width. `diagrams`: name -> a function drawing it at a width."""
    out: list[Flowable] = []
    previous = None
    for b in blocks:
        try:
            if isinstance(b, Heading):
                out.append(heading_flowable(b, width, t))
            elif isinstance(b, Paragraph):
                out.append(paragraph_flowable(b, width, t))
            elif isinstance(b, Item):
                out.append(item_flowable(b, width, t, not isinstance(previous, Item)))
            elif isinstance(b, Note):
                out.append(note_flowable(b, width, t))
            elif isinstance(b, Table):
                out.append(table_flowable(b, width, t))
            elif isinstance(b, Figure):
                out.append(figure_flowable(b, diagrams[b.name](width), width, t))
        except LayoutError as exc:
            raise LayoutError(str(exc), exc.line if exc.line is not None else b.line) from None
        if isinstance(previous, Heading):
            # A heading carries the space under it; what follows sits right under that.
            out[-1].space_before = 0.0
        previous = b
    return out


# ---------------------------------------------------------------- filling columns

@dataclass(frozen=True)
class Part:
    """Pieces start..end of a flowable (a whole flowable, or what is left of a split one)."""
    flow: Flowable
    start: int
    end: int

    @property
    def height(self) -> float:
        return self.flow.height(self.start, self.end)


@dataclass
class Placed:
    part: Part
    gap: float                 # space above it in the column


@dataclass
class Column:
    placed: list[Placed] = field(default_factory=list)

    @property
    def height(self) -> float:
        return sum(p.gap + p.part.height for p in self.placed)


def _whole(f: Flowable) -> Part:
    return Part(f, 0, len(f.pieces))


def _min_head(part: Part) -> float:
    """The least of a part that must come with the heading above it."""
    f = part.flow
    if f.splittable:
        n = part.end - part.start
        k = n if n < 2 * f.min_lines else f.min_lines
        return f.height(part.start, part.start + k)
    return part.height


def _gap(part: Part, column_empty: bool) -> float:
    """The space above a part: none at the top of a column. The rest of a split paragraph is at the
    top of a column, unless a diagram that waited for this column stands above it."""
    return 0.0 if column_empty else part.flow.space_before


def _split(part: Part, room: float) -> int | None:
    """How many pieces of a splittable part fit in `room`, leaving min_lines on each side; None
    if no split is allowed. Of the two last lines that would fit, one that ends a sentence is
    preferred: a column that ends mid-sentence makes the reader carry the sentence across."""
    f = part.flow
    n = part.end - part.start
    fits = [k for k in range(n - f.min_lines, f.min_lines - 1, -1)
            if f.height(part.start, part.start + k) <= room + EPS]
    if not fits:
        return None
    for k in fits[:2]:
        if f.pieces[part.start + k - 1].ends_sentence:
            return k
    return fits[0]


def fill_column(queue: list[Part], capacity: float, top_float: bool = True, stop_at_figure: bool = False,
                started: bool = False, stop_at_heading: bool = False, keep: bool = False) -> tuple[Column, list[Part]]:
    """As much of the queue as a column of `capacity` mm takes, by the rules in the module's doc;
    the column and what is left. A column always takes something (a part too tall for any column
    is a LayoutError).

    A diagram that does not fit what is left of the column goes either to the top of the next
    column (the text after it, up to the next heading or diagram, filling this one) or, if that
    leaves less of this column empty, to the top of this one (top_float), provided the column so
    far holds only the text of the diagram's own section. `started`: the column already holds
    something above (the gap before the first part is kept); `stop_at_figure`: end at a diagram;
    `stop_at_heading`: end at a heading; `keep`: a diagram that goes to the next column keeps
    within its section (only its own section's text fills this one: a diagram set after the next
    section's heading reads as that section's)."""
    col = Column()
    q = list(queue)
    y = 0.0
    while q:
        part = q[0]
        f = part.flow
        if (stop_at_figure and f.kind == "figure") or (stop_at_heading and f.kind == "heading"):
            return col, q
        gap = _gap(part, not (col.placed or started))
        if col.placed and col.placed[-1].part.flow.kind == "figure":
            gap = max(gap, col.placed[-1].part.flow.space_before)   # as much room under a diagram as over it
        need = gap + part.height
        if f.keep_with_next and len(q) > 1:
            need += q[1].flow.space_before + _min_head(q[1])
        if y + need <= capacity + EPS:
            col.placed.append(Placed(part, gap))
            y += gap + part.height
            q.pop(0)
            continue
        if f.splittable:
            k = _split(part, capacity - y - gap)
            if k:
                col.placed.append(Placed(Part(f, part.start, part.start + k), gap))
                q[0] = Part(f, part.start + k, part.end)
                return col, q
        if f.kind == "figure" and col.placed:
            fwd, fwd_q = _float_forward(col, q, y, capacity, keep)
            if top_float:
                i = next(k for k, p in enumerate(queue) if p is part)
                alt, alt_q = fill_column([part] + queue[:i] + queue[i + 1:], capacity, top_float=False, keep=keep)
                # Only within its own section: nothing above it in this column but the text of the
                # section it belongs to (no heading, no other diagram, which keeps diagrams in order).
                same_section = not any(p.flow.kind in ("heading", "figure") for p in queue[:i])
                if same_section and alt.placed and alt.placed[0].part is part and alt.height > fwd.height + 1.0:
                    return alt, alt_q
            return fwd, fwd_q
        if not (col.placed or started):
            if f.splittable and part.end - part.start > 1:
                # Taller than a whole column and no split keeps two lines each side: split anyway.
                k = next((k for k in range(part.end - part.start - 1, 0, -1)
                          if f.height(part.start, part.start + k) <= capacity + EPS), None)
                if k:
                    col.placed.append(Placed(Part(f, part.start, part.start + k), 0.0))
                    q[0] = Part(f, part.start + k, part.end)
                    return col, q
            if part.height > capacity + EPS:
                raise LayoutError(f"a {f.kind} {part.height:.0f} mm tall does not fit a column "
                                  f"{capacity:.0f} mm tall", f.line)
            # A heading whose following block cannot come with it even in an empty column.
            col.placed.append(Placed(part, 0.0))
            q.pop(0)
            continue
        return col, q
    return col, q


def _float_forward(col: Column, q: list[Part], y: float, capacity: float, keep: bool = False
                   ) -> tuple[Column, list[Part]]:
    """The column filled with what comes after the diagram q[0] (up to the next diagram; with
    `keep`, up to the next heading too), the diagram left at the head of the queue for the next
    column."""
    rest, _ = fill_column(q[1:], capacity - y, top_float=False, stop_at_figure=True, started=bool(col.placed),
                          stop_at_heading=keep, keep=keep)
    col = Column(list(col.placed) + rest.placed)
    taken = {id(p.part.flow): p.part for p in rest.placed}
    left = []
    for p in q[1:]:
        got = taken.get(id(p.flow))
        if got is None:
            left.append(p)
        elif got.end < p.end:
            left.append(Part(p.flow, got.end, p.end))
    return col, [q[0]] + left


def _gaps(col: Column) -> list[int]:
    return [i for i, p in enumerate(col.placed) if p.gap > 0]


def justify(col: Column, target: float, max_ratio: float = 0.9) -> Column:
    """The column with its gaps between blocks grown (each by at most max_ratio of itself) so its
    height reaches target, or as near as that allows."""
    extra = target - col.height
    idx = _gaps(col)
    if extra <= EPS or not idx:
        return col
    total = sum(col.placed[i].gap for i in idx)
    ratio = min(max_ratio, extra / total)
    placed = [replace(p, gap=p.gap * (1 + ratio)) if i in idx else p for i, p in enumerate(col.placed)]
    return Column(placed)


# ---------------------------------------------------------------- pages

@dataclass(frozen=True)
class Frame:
    x: float
    y: float
    w: float
    h: float


@dataclass
class PageFlow:
    columns: list[tuple[Frame, Column]]


def _fits_page(queue: list[Part], frames: list[Frame], keep: bool = False) -> bool:
    q = queue
    for fr in frames:
        _, q = fill_column(q, fr.h, keep=keep)
        if not q:
            return True
    return False


def _balanced(queue: list[Part], frames: list[Frame], keep: bool = False) -> list[Column]:
    """The columns of the last page: the least height (the same for every column) that holds the
    whole queue; each column then justified to the tallest."""
    top = min(fr.h for fr in frames)
    lo = sum(p.height for p in queue) / len(frames) * 0.9
    h = max(0.0, lo)
    best = None
    while h <= top + EPS:
        q, cols = queue, []
        try:
            for _ in frames:
                col, q = fill_column(q, h, keep=keep)
                cols.append(col)
                if not q:
                    break
        except LayoutError:         # a diagram taller than h: try taller columns
            q = queue
        if not q:
            best = cols
            break
        h += 0.5
    if best is None:
        best = []
        q = queue
        for fr in frames:
            col, q = fill_column(q, fr.h, keep=keep)
            best.append(col)
    tallest = max(c.height for c in best)
    return [justify(c, tallest, 0.6) for c in best]


def paginate(items: list[Flowable], frames_of_page: Callable[[int], list[Frame]], max_pages: int,
             keep: bool = False) -> list[PageFlow]:
    """The flowables over pages (page k's columns from frames_of_page(k)); at most max_pages, or a
    LayoutError saying how much is left over."""
    queue = [_whole(f) for f in items]
    pages: list[PageFlow] = []
    k = 0
    while queue:
        if k >= max_pages:
            left = sum(p.height for p in queue)
            raise LayoutError(f"the text does not fit on {max_pages} page(s): {left:.0f} mm of it is left over")
        frames = frames_of_page(k)
        if _fits_page(queue, frames, keep):
            cols = _balanced(queue, frames, keep)
            pages.append(PageFlow(list(zip(frames, cols + [Column()] * (len(frames) - len(cols))))))
            break
        columns = []
        for fr in frames:
            col, queue = fill_column(queue, fr.h, keep=keep)
            columns.append((fr, justify(col, fr.h) if queue else col))
        pages.append(PageFlow(columns))
        k += 1
    return pages


def render_columns(d: Drawing, page: PageFlow) -> None:
    for fr, col in page.columns:
        y = fr.y
        for p in col.placed:
            y += p.gap
            for piece in p.part.flow.pieces[p.part.start:p.part.end]:
                piece.draw(d, fr.x, y)
                y += piece.height
