"""The markup a rules sheet is written in: a small, line-based subset of Markdown.

    # Heading                 a section (## for a sub-section; nothing deeper)
    A paragraph runs on       lines join until a blank line or the start of another block
    over several lines.
    - a bullet item           (indent the dash two spaces or more for an item inside an item)
    1. a numbered item        printed with the number written
    > A note, in a box.       consecutive > lines are one note; a lone > starts a new paragraph in it
    ![Caption text](name)     the game's diagram `name`, across the column, the caption under it
    | Item | Points |         a table: one row a line, cells between bars; a line of dashes after
    |---|---:|                 the first row makes it a header ("---:" right-aligns that column)

Inline: **bold**, *italic* (***both***), `{field}` for a value the game reads from its specs
(the amounts of a scoring table, a card count), `~` for a space a line never breaks at, and a
backslash before * { } ~ or \\ for the character itself. A line breaks at spaces and after a
hyphen inside a word.

Anything else is a paragraph. What cannot be read (an unclosed **, an unknown field or diagram,
a table row with too many cells, `###`) is an error naming the line of the text it is on.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..errors import show

REGULAR, BOLD, ITALIC, BOLD_ITALIC = "sans", "sans-bold", "sans-italic", "sans-bold-italic"
NBSP = "\u00a0"


class MarkupError(ValueError):
    """What is wrong, and on which line of the text (0 = the text's first line)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Run:
    """A piece of text in one font: REGULAR, BOLD, ITALIC or BOLD_ITALIC."""
    text: str
    font: str = REGULAR


Inline = tuple[Run, ...]


@dataclass
class Heading:
    level: int          # 1 or 2
    text: Inline
    line: int


@dataclass
class Paragraph:
    text: Inline
    line: int


@dataclass
class Item:
    """A list item: its marker ("•" or "3."), its depth (0 or 1) and its text."""
    marker: str
    depth: int
    text: Inline
    line: int


@dataclass
class Note:
    paragraphs: list[Inline]
    line: int


@dataclass
class Figure:
    name: str
    caption: Inline
    line: int


@dataclass
class Table:
    rows: list[list[Inline]]
    header: bool                # the first row is a header
    align: list[str]            # per column: "left" or "right"
    line: int


Block = Heading | Paragraph | Item | Note | Figure | Table

_FIELD = re.compile(r"\{([A-Za-z0-9_.-]+)\}")
_FIGURE = re.compile(r"^!\[(.*)\]\(([A-Za-z0-9_-]+)\)\s*$")
_NUMBERED = re.compile(r"^(\d{1,3})\.\s+(.*)$")
_BULLET = re.compile(r"^(\s*)-\s+(.*)$")
_RULE_CELL = re.compile(r"^:?-{3,}:?$")
MAX_COLUMNS = 4


def _cut(text: str) -> str:
    """A name from the text, made safe to quote (and short)."""
    return show(text)[1:-1]


def _similar(name: str, known) -> str:
    guess = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean '{guess[0]}'?)" if guess else ""


def counted(items: list[tuple[str, int]], unit: str = "") -> str:
    """How many of each, as a rules sheet says it, from the deck itself: `10 each of 25, 50 and 75
    miles, 12 of 100, 4 of 200` (neighbours with one count said together; `unit` after the first).
    A field made with it follows the deck it is built with: change one count and the words change."""
    groups: list[tuple[int, list[str]]] = []
    for label, n in items:
        if groups and groups[-1][0] == n:
            groups[-1][1].append(label)
        else:
            groups.append((n, [label]))
    said = []
    for k, (n, labels) in enumerate(groups):
        names = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
        said.append(f"{n} {'each of ' if len(labels) > 1 else 'of '}{names}{unit if k == 0 and unit else ''}")
    return ", ".join(said)


def substitute(text: str, fields: dict[str, str], line: int) -> str:
    """`{name}` replaced by the field's value (its * { } ~ \\ escaped, so a value is always text)."""
    out, pos = [], 0
    while True:
        i = text.find("{", pos)
        if i < 0:
            out.append(text[pos:])
            break
        if i > 0 and text[i - 1] == "\\" and not (i > 1 and text[i - 2] == "\\"):
            out.append(text[pos:i + 1])
            pos = i + 1
            continue
        m = _FIELD.match(text, i)
        if not m:
            raise MarkupError(line, "a { starts a field, like {points.safety}; write \\{ for the character itself")
        name = m.group(1)
        if name not in fields:
            known = (f"the fields are: {', '.join(sorted(fields)) or 'none'}" if len(fields) <= 24 else
                     f"this game has {len(fields)} fields (its rules_sheet.py says which)")
            raise MarkupError(line, f"unknown field {{{_cut(name)}}}{_similar(name, fields)}; {known}")
        out.append(text[pos:i])
        out.append(re.sub(r"([*{}~\\])", r"\\\1", str(fields[name])))
        pos = m.end()
    return "".join(out)


def parse_inline(text: str, line: int, starts: list[tuple[int, int]] | None = None) -> Inline:
    """Runs of text with their fonts, from **bold**, *italic*, escapes and ~. `starts`: (offset,
    line) where each source line begins in a text joined from several, so an error names its own
    line."""
    def line_at(i: int) -> int:
        return max((ln for off, ln in starts or () if off <= i), default=line)
    runs: list[Run] = []
    bold = italic = False
    buf: list[str] = []
    opened = {"bold": None, "italic": None}

    def flush():
        if buf:
            font = BOLD_ITALIC if bold and italic else BOLD if bold else ITALIC if italic else REGULAR
            runs.append(Run("".join(buf), font))
            buf.clear()

    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in "*{}~\\":
            buf.append(text[i + 1])
            i += 2
            continue
        if ch == "*":
            n = 3 if text.startswith("***", i) else 2 if text.startswith("**", i) else 1
            flush()
            if n >= 2:
                bold = not bold
                opened["bold"] = i if bold else None
            if n != 2:
                italic = not italic
                opened["italic"] = i if italic else None
            i += n
            continue
        if ch == "}":
            raise MarkupError(line_at(i), "a } with no field before it; write \\} for the character itself")
        buf.append(NBSP if ch == "~" else ch)
        i += 1
    flush()
    for what, mark in (("**", opened["bold"]), ("*", opened["italic"])):
        if mark is not None:
            raise MarkupError(line_at(mark), f"{what} opened here is never closed")
    # Runs of one font that emphasis markers split are one run.
    merged: list[Run] = []
    for r in runs:
        if merged and merged[-1].font == r.font:
            merged[-1] = Run(merged[-1].text + r.text, r.font)
        else:
            merged.append(r)
    return tuple(merged)


def _block_start(raw: str) -> bool:
    s = raw.lstrip()
    return (raw.startswith("#") or bool(_BULLET.match(raw)) or bool(_NUMBERED.match(s) and raw == s)
            or s.startswith("|") or s.startswith(">") or s.startswith("!["))


def _cells(raw: str, line: int) -> list[str]:
    s = raw.strip()
    if not s.endswith("|") or len(s) < 2:
        raise MarkupError(line, "a table row starts and ends with |, like | Each safety | 100 |")
    cells, buf, i = [], [], 1
    while i < len(s) - 1:
        if s[i] == "\\" and i + 1 < len(s) - 1:
            buf.append(s[i:i + 2])
            i += 2
            continue
        if s[i] == "|":
            cells.append("".join(buf).strip())
            buf = []
        else:
            buf.append(s[i])
        i += 1
    cells.append("".join(buf).strip())
    return cells


def parse(text: str, fields: dict[str, str] | None = None, diagrams=None) -> list[Block]:
    """The blocks of a text. `diagrams`: the names a figure may use (None: any)."""
    fields = fields or {}
    lines = text.split("\n")
    blocks: list[Block] = []
    i = 0

    def inline(s: str, line: int) -> Inline:
        return parse_inline(substitute(s, fields, line), line)

    def joined(parts: list[tuple[int, str]]) -> Inline:
        """Source lines (line, text) joined by spaces, each line's fields filled in on its own."""
        text, starts = "", []
        for ln, part in parts:
            if text:
                text += " "
            starts.append((len(text), ln))
            text += substitute(part, fields, ln)
        return parse_inline(text, parts[0][0], starts)

    while i < len(lines):
        raw = lines[i].rstrip()
        if "\t" in raw:
            raise MarkupError(i, "a tab character; indent with spaces")
        if not raw.strip():
            i += 1
            continue
        start = i
        stripped = raw.lstrip()
        if raw.startswith("#"):
            m = re.match(r"^(#+)(\s*)(.*)$", raw)
            level, space, title = len(m.group(1)), m.group(2), m.group(3).strip()
            if level > 2:
                raise MarkupError(i, f"{'#' * level} is too deep: a rules sheet has # sections and ## sub-sections")
            if not space or not title:
                raise MarkupError(i, f"a heading is {'#' * level}, a space, and its text")
            blocks.append(Heading(level, inline(title, i), i))
            i += 1
            continue
        if stripped.startswith("!["):
            m = _FIGURE.match(stripped)
            if not m:
                raise MarkupError(i, "a diagram is ![its caption](its name), alone on its line")
            name = m.group(2)
            if diagrams is not None and name not in diagrams:
                raise MarkupError(i, f"unknown diagram {show(name)}{_similar(name, diagrams)}; this game's diagrams "
                                     f"are: {', '.join(sorted(diagrams)) or 'none'}")
            blocks.append(Figure(name, inline(m.group(1).strip(), i), i))
            i += 1
            continue
        if stripped.startswith("|"):
            rows: list[tuple[int, list[str]]] = []
            align: list[str] | None = None
            header = False
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = _cells(lines[i], i)
                if all(_RULE_CELL.match(c) for c in cells):
                    if len(rows) != 1 or align is not None:
                        raise MarkupError(i, "the line of dashes goes once, under the table's first row")
                    header = True
                    align = ["right" if c.endswith(":") else "left" for c in cells]
                else:
                    rows.append((i, cells))
                i += 1
            width = len(rows[0][1]) if rows else 0
            if not rows:
                raise MarkupError(start, "a table with no rows")
            if width > MAX_COLUMNS:
                raise MarkupError(start, f"a table of {width} columns; a column of a rules sheet holds {MAX_COLUMNS}")
            for line, cells in rows:
                if len(cells) != width:
                    raise MarkupError(line, f"this row has {len(cells)} cells, the table's first row {width}")
            if align is None:
                align = ["left"] + ["right"] * (width - 1)
            elif len(align) != width:
                raise MarkupError(start, f"the line of dashes has {len(align)} cells, the first row {width}")
            blocks.append(Table([[inline(c, line) for c in cells] for line, cells in rows], header, align, start))
            continue
        if stripped.startswith(">"):
            paras: list[list[tuple[int, str]]] = [[]]
            while i < len(lines) and lines[i].strip().startswith(">"):
                body = lines[i].strip()[1:].strip()
                if body:
                    paras[-1].append((i, body))
                elif paras[-1]:
                    paras.append([])
                i += 1
            paras = [p for p in paras if p]
            if not paras:
                raise MarkupError(start, "an empty note")
            blocks.append(Note([joined(p) for p in paras], start))
            continue
        m_bullet = _BULLET.match(raw)
        m_number = _NUMBERED.match(raw) if raw == stripped else None
        if m_bullet:
            depth = 1 if len(m_bullet.group(1)) >= 2 else 0
            marker, first = "\u2022" if depth == 0 else "\u2013", m_bullet.group(2)
        elif m_number:
            depth, marker, first = 0, f"{int(m_number.group(1))}.", m_number.group(2)
        else:
            depth, marker, first = None, None, stripped
        parts = [(start, first.strip())]
        i += 1
        while i < len(lines) and lines[i].strip() and not _block_start(lines[i]):
            if "\t" in lines[i]:
                raise MarkupError(i, "a tab character; indent with spaces")
            parts.append((i, lines[i].strip()))
            i += 1
        if marker is None:
            blocks.append(Paragraph(joined(parts), start))
        else:
            if not parts[0][1]:
                raise MarkupError(start, "an empty list item")
            blocks.append(Item(marker, depth, joined(parts), start))
    return blocks


def plain(text: Inline) -> str:
    """The text of runs without their fonts (for tests and messages)."""
    return "".join(r.text for r in text).replace(NBSP, " ")
