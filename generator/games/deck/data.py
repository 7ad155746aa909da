"""A deck's cards: a YAML list in the spec, or rows of a CSV file beside it, as one list of Cards.

A CSV is a stranger's file like any spec: read bounded (its size, its rows, its columns, each
cell), UTF-8 only (a byte-order mark is allowed: Excel's "CSV UTF-8" writes one), a header row
naming the fields. Every cell is text: a cell that looks like a spreadsheet formula (=SUM(A1:A3))
is printed as written, never evaluated. Errors name the CSV's file, the line its row starts on,
and the column: `cards.csv:7: count: expected a whole number from 0 to 1000, got "x"`.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from ...errors import SpecError, hidden_problem, show
from ...inputs import decode_text, read_bytes

MAX_CARDS = 2000              # cards in a deck (with their counts), as build.MAX_CARDS
MAX_ROWS = 2000               # rows of a CSV
MAX_COLUMNS = 64
MAX_CELL = 4000               # characters in one cell, as a spec's text
MAX_CSV_BYTES = 8 * 1024 * 1024
MAX_COUNT = 1000
FIELD_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# The column that makes copies of a card, in any case: `count`, and what other tools and people
# call it (Squib's default is `qty`; spreadsheets say Qty, Quantity, Copies).
COUNT_NAMES = ("count", "qty", "quantity", "copies")
# Columns that look like a count but are not one of COUNT_NAMES: an ordinary field, said in a note
# where every cell is a whole number (the user may have meant copies).
COUNTISH = ("number", "num", "nb", "no", "n", "amount", "cnt", "pcs", "pieces", "times", "multiplier", "copy",
            "quantities", "counts", "qte", "anzahl", "cantidad", "nombre")


@dataclass
class Card:
    """One row of the deck: its fields as text, its count, and where it was written (for errors)."""
    number: int                               # from 1, in the deck's order
    fields: dict[str, str]
    count: int
    file: str                                 # the spec, or the CSV, as errors name it
    line: int | None
    field_lines: dict[str, int | None] = field(default_factory=dict)
    path: tuple = ()                          # the card's path in the spec (("cards", 3)); () for a CSV row
    count_name: str = "count"                 # the column its count came from (Qty, copies...)
    index: int | None = None                  # its place in the deck from 0, copies counted (model.uses_index)

    def label(self) -> str:
        """How messages name the card: its number, and its name where it has one."""
        for key in ("name", "title", "Name", "Title"):
            if self.fields.get(key):
                return f"card {self.number} {show(self.fields[key], 40)}"
        return f"card {self.number}"

    def error(self, fieldname: str, message: str) -> SpecError:
        """An error at this card's line (the field's own line where it has one), naming the field."""
        if self.path:        # a card of the spec: its field's path, as the spec's errors write it
            from ...spec.loader import format_field
            name = format_field(self.path + ((fieldname,) if fieldname else ()))
        else:
            name = fieldname
        return SpecError(self.file, self.field_lines.get(fieldname, self.line) or self.line, name, message)


def text_of(value) -> str:
    """A spec's value as a card's text: numbers as they read (2, 2.5), text as it is."""
    if isinstance(value, float):
        return f"{value:g}" if value != int(value) or abs(value) >= 1e15 else str(int(value))
    return str(value)


def cards_of_spec(spec) -> list[Card]:
    cards = []
    for i, raw in enumerate(spec.data.get("cards", [])):
        if raw.get("x-broken"):                   # refused by the schema (load.check_beyond_schema)
            continue
        path = ("cards", i)
        fields = {k: text_of(v) for k, v in raw.items() if k != "count"}
        lines = {k: spec.line(path + (k,)) for k in raw}
        cards.append(Card(0, fields, raw.get("count", 1), spec.file, spec.line(path), lines, path))
    return cards


def read_csv(path, display: str, delimiter: str = ",", problems=None, notes=None, columns=None) -> list[Card]:
    """The cards of a CSV file: a header row, then one card a row (blank rows skipped). A row's
    errors are added to `problems` (a list) and its card left out, so every bad row is reported;
    what stops the reading (not UTF-8, a row the CSV reader cannot read, the header) is raised.
    `notes` (a list) gets a line for a column that looks like a count but makes no copies."""
    data = read_bytes(path, display, MAX_CSV_BYTES)
    try:
        text = decode_text(data, display)
    except SpecError as exc:
        if "UTF-8" in exc.message:
            exc.message += ": save the CSV as UTF-8 (a spreadsheet's \"CSV UTF-8\")"
        raise
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)

    def rows():
        end = 0                                    # the line the previous row ended on
        while True:
            start = end + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                why = "a cell opened with a double quote is never closed" if "end of data" in str(exc) else str(exc)
                raise SpecError(display, start, "", f"not a CSV row we can read ({why})") from None
            end = reader.line_num
            # A cell on several lines ends them as the spreadsheet saved it (\r\n): a line break is \n.
            yield start, [cell.replace("\r\n", "\n") for cell in row]

    extra = f"{DELIMITERS.get(delimiter, show(delimiter))} inside a cell needs the cell in double quotes"
    return cards_of_rows(rows(), display, problems, notes, delimiter=delimiter, extra_hint=extra, table="CSV",
                         columns=columns)


def cards_of_rows(rows, display: str, problems=None, notes=None, delimiter: str | None = None,
                  extra_hint: str = "a cell right of the header's last column", table: str = "sheet",
                  columns: list | None = None) -> list[Card]:
    """The cards of a table's rows, (line, cells as text) each, from a CSV or a spreadsheet's sheet:
    the first row that is not blank names the fields, then one card a row. A row's errors are
    added to `problems` and its card left out; what stops the reading (the header) is raised.
    `columns` (a list) gets the header's names."""
    problems = [] if problems is None else problems
    notes = [] if notes is None else notes
    header: list[str] | None = None
    cards: list[Card] = []
    for start, row in rows:
        if not any(cell.strip() for cell in row):
            continue                           # a blank line, or a row of empty cells
        if header is None:
            header = _header(row, display, start, delimiter)
            if columns is not None:
                columns.extend(header)
            counts = [name for name in header if name.casefold() in COUNT_NAMES]
            if len(counts) > 1:
                raise SpecError(display, start, "", f"columns {show(counts[0])} and {show(counts[1])} both say how many "
                                                    "copies of a card to make: keep one")
            count_name = counts[0] if counts else None
            header_line = start
            continue
        if len(cards) >= MAX_ROWS:
            raise SpecError(display, start, "", f"more than {MAX_ROWS:,} rows of cards (a deck has at most "
                                                f"{MAX_CARDS:,} cards)")
        before = len(problems)
        extra = [c for c in row[len(header):] if c.strip()]
        if extra:
            problems.append(SpecError(display, start, "", f"{len(row)} cells, but the header names {len(header)} "
                                                          f"columns ({extra_hint})"))
        cells = {name: (row[k] if k < len(row) else "").strip() for k, name in enumerate(header)}
        for name, value in cells.items():
            if len(value) > MAX_CELL:
                problems.append(SpecError(display, start, name, f"expected at most {MAX_CELL:,} characters, got "
                                                                f"{len(value):,}"))
            elif (problem := hidden_problem(value)) is not None:
                problems.append(SpecError(display, start, name, problem))
        count = 1
        if count_name is not None and cells[count_name] != "":
            raw = cells[count_name]
            if not re.fullmatch(r"[0-9]{1,4}", raw) or int(raw) > MAX_COUNT:
                problems.append(SpecError(display, start, count_name, f"expected a whole number from 0 to {MAX_COUNT} "
                                                                      f"(copies of the card), got {show(raw)}"))
            else:
                count = int(raw)
        if len(problems) == before:
            fields = {k: v for k, v in cells.items() if k != count_name}
            cards.append(Card(0, fields, count, display, start, count_name=count_name or "count"))
    if header is None:
        raise SpecError(display, 1, "", f"an empty {table}: the first row names the fields (name,count,...), "
                                        "then one card a row")
    for name in header if count_name is None else ():
        values = [c.fields.get(name, "") for c in cards]
        if name.casefold() in COUNTISH and cards and all(re.fullmatch(r"[0-9]{1,4}", v) for v in values):
            notes.append(f"{display}:{header_line}: {name}: note: this column looks like a count of copies, but "
                         f"only a column named {', '.join(COUNT_NAMES)} (in any case) makes copies: each card is "
                         "made once")
    return cards


DELIMITERS = {",": "a comma", ";": "a semicolon", "\t": "a tab", "|": "a bar"}


def _header(row: list[str], display: str, line: int, delimiter: str | None = ",") -> list[str]:
    names = [cell.strip() for cell in row]
    while names and names[-1] == "":
        names.pop()                             # trailing empty cells, as spreadsheets write them
    if len(names) > MAX_COLUMNS:
        raise SpecError(display, line, "", f"{len(names)} columns; at most {MAX_COLUMNS}")
    seen: dict[str, int] = {}
    for k, name in enumerate(names):
        if not name:
            raise SpecError(display, line, "", f"column {k + 1} has no name in the header row")
        if not FIELD_NAME.match(name) or len(name) > 40:
            # A spreadsheet saved with another delimiter (Excel in much of Europe writes ;) reads
            # as one column whose name holds the others: say which option reads it.
            other = next((d for d in DELIMITERS if d != delimiter and d in name), None) if delimiter else None
            hint = ""
            if other:
                written = '"\\t"' if other == "\t" else f'"{other}"'
                hint = f" (the cells are separated by {DELIMITERS[other]}: add csv_delimiter: {written} to the spec)"
            raise SpecError(display, line, "", f"column {k + 1}: {show(name)} is not a field's name (letters, "
                                               f"digits and _, not starting with a digit, at most 40){hint}")
        if name in seen:
            raise SpecError(display, line, "", f"column {k + 1}: {show(name)} is also column {seen[name] + 1}")
        seen[name] = k
    return names
