"""A deck's cards from a spreadsheet: an XLSX (Excel, Google Sheets' download) or an ODS (LibreOffice)
file read directly, its rows then read as a CSV's are (data.cards_of_rows: the same bounds, the
same errors at the row and the column).

What a cell gives is what the spreadsheet shows in it: a formula's value as the spreadsheet last
computed and saved it (never computed here), a number or a date written by the cell's number format
(`0.00`, `#,##0`, `0%`, `$#,##0.00`, `d mmm yyyy`, `hh:mm`...; ODS files keep the shown text
itself). A sheet is named by `sheet:` (its name), or is the workbook's first.

A spreadsheet is a zip of XML parts, a stranger's like any input: its file at most MAX_SHEET_BYTES,
the zip's parts at most MAX_PARTS, the parts it holds at most MAX_UNPACKED bytes unpacked (each
part's declared size, which the zip reader holds it to: a zip bomb is refused before it is
unpacked), the XML read with defusedxml (no entities, no external references), links to other
workbooks never followed (their cached values only), and no more rows or columns than a CSV's.
"""
from __future__ import annotations

import datetime as dt
import io
import math
import re
import zipfile

from ...errors import SpecError, show
from .data import MAX_COLUMNS, MAX_CSV_BYTES, MAX_ROWS, Card, cards_of_rows

MAX_SHEET_BYTES = MAX_CSV_BYTES          # the file, packed
MAX_PARTS = 2000                         # files in the zip
MAX_UNPACKED = 48 * 2**20                # bytes of every part unpacked (the shared strings, the sheets)
MAX_BLANK_ROWS = 1_100_000               # rows passed over (a sheet has at most 1,048,576)
# Tags ("<") in one XML part parsed (the shared strings, a sheet, an ODS's content): its parse's cost.
# A cell is some 4 tags: 600,000 is 150,000 cells (2,000 cards of 64 columns are 128,000); a part of
# more is refused unparsed. openpyxl reads 45 MB of tiny shared strings in 50 s of CPU; a part at
# this bound costs about 3 s (1,200,000 tags cost 6 s for its shared strings, 7 s for an ODS).
MAX_PART_TAGS = 600_000
PARSED_PARTS = re.compile(r"^(xl/sharedStrings\.xml|xl/worksheets/[^/]+\.xml|content\.xml)$")
SPREADSHEETS = (".xlsx", ".xlsm", ".ods")


def is_spreadsheet(name: str) -> bool:
    return name.lower().endswith(SPREADSHEETS)


def read_sheet(data: bytes, display: str, sheet: str | None = None, problems=None, notes=None,
               columns=None) -> list[Card]:
    """The cards of a spreadsheet's sheet (by name, or the first), from the file's bytes."""
    archive = _archive(data, display)
    names = set(archive.namelist())
    if "xl/workbook.xml" in names:
        rows = _xlsx_rows(data, display, sheet)
    elif "content.xml" in names:
        rows = _ods_rows(archive, display, sheet)
    else:
        raise SpecError(display, None, "", "not an XLSX or ODS spreadsheet (a zip without a workbook in it)")
    return cards_of_rows(rows, display, problems, notes, columns=columns)


def _archive(data: bytes, display: str) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        parts = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
        raise SpecError(display, None, "", f"not an XLSX or ODS spreadsheet (not a zip: {exc})") from None
    if len(parts) > MAX_PARTS:
        raise SpecError(display, None, "", f"a spreadsheet of {len(parts):,} parts; at most {MAX_PARTS:,}")
    unpacked = sum(p.file_size for p in parts)
    if unpacked > MAX_UNPACKED:
        raise SpecError(display, None, "", f"unpacks to {unpacked / 2**20:,.0f} MB; a spreadsheet read here unpacks to "
                                           f"at most {MAX_UNPACKED // 2**20} MB (keep the cards' sheet, or save it "
                                           "as CSV)")
    if any(p.flag_bits & 0x1 for p in parts):
        raise SpecError(display, None, "", "an encrypted spreadsheet: save it without a password")
    for part in parts:
        if PARSED_PARTS.match(part.filename):
            try:
                tags = archive.read(part.filename).count(b"<")
            except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError, RuntimeError) as exc:
                raise SpecError(display, None, "", f"not an XLSX or ODS spreadsheet we can read ({exc})") from None
            if tags > MAX_PART_TAGS:
                raise SpecError(display, None, "", f"{part.filename} holds {tags:,} XML tags; a spreadsheet read here "
                                                   f"holds at most {MAX_PART_TAGS:,} a part (keep the cards' sheet, "
                                                   "or save it as CSV)")
    return archive


def _unreadable(display: str, exc: Exception) -> SpecError:
    why = str(exc) or type(exc).__name__
    return SpecError(display, None, "", f"not a spreadsheet we can read ({show(why, 120)})")


# ---------------------------------------------------------------- XLSX

def _xlsx_rows(data: bytes, display: str, sheet: str | None):
    import openpyxl          # its XML through defusedxml, which is installed with it (pyproject.toml)
    from openpyxl.xml import DEFUSEDXML
    assert DEFUSEDXML, "defusedxml must be installed: openpyxl parses a stranger's XML through it"
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except Exception as exc:           # a stranger's file through a parser of many parts: any failure is its own
        raise _unreadable(display, exc) from None
    try:
        names = book.sheetnames
        if sheet is None:
            chosen = names[0] if names else None
        else:
            chosen = sheet if sheet in names else None
            if chosen is None:
                raise SpecError(display, None, "", f"no sheet named {show(sheet)}; its sheets are: "
                                                   f"{', '.join(show(n) for n in names)}")
        if chosen is None:
            raise SpecError(display, None, "", "a workbook without a sheet")
        ws = book[chosen]
        if not hasattr(ws, "iter_rows"):
            raise SpecError(display, None, "", f"the sheet {show(chosen)} is a chart, not cells")
        try:
            # Cells right of column MAX_COLUMNS + 1 are not read: one cell far right (XFD7) would
            # make a row of 16,384 (the header's own bound is MAX_COLUMNS).
            # Rows missing between two rows (one cell at row 1,048,576) come as one shared row of
            # empty cells: passed over without a look at each cell.
            from openpyxl.cell.read_only import EMPTY_CELL
            gap = None
            for line, row in enumerate(ws.iter_rows(max_col=MAX_COLUMNS + 1), start=1):
                if line > MAX_BLANK_ROWS:
                    raise SpecError(display, line, "", "a sheet longer than a spreadsheet's rows")
                if row is gap:
                    continue
                if all(c is EMPTY_CELL for c in row):
                    gap = row
                    continue
                cells = [shown(c.value, getattr(c, "number_format", "General") or "General") for c in row]
                while cells and cells[-1] == "":
                    cells.pop()
                yield line, cells
        except SpecError:
            raise
        except Exception as exc:
            raise _unreadable(display, exc) from None
    finally:
        book.close()


# Excel's number formats (ECMA-376 part 1, 18.8.31 numFmts): sections `positive;negative;zero;text`,
# colours and conditions in [], text in "" or after \, digits as 0 # ?, dates and times as letters.
_DATE_TOKENS = re.compile(r"(yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am/pm|a/p|\[h+\]|\[m+\]|\[s+\]|"
                          r"\.0+)", re.I)
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _sections(fmt: str) -> list[str]:
    out, cur, quoted, k = [], "", False, 0
    while k < len(fmt):
        ch = fmt[k]
        if ch == '"':
            quoted = not quoted
        elif ch == "\\" and not quoted and k + 1 < len(fmt):
            cur += fmt[k:k + 2]
            k += 2
            continue
        elif ch == ";" and not quoted:
            out.append(cur)
            cur = ""
            k += 1
            continue
        cur += ch
        k += 1
    out.append(cur)
    return out


def _literal_split(section: str) -> list[tuple[bool, str]]:
    """The section as (is_literal, text) pieces: "text", \\x, _x (a space), *x (dropped), [$€-407] (€)."""
    pieces, k = [], 0
    while k < len(section):
        ch = section[k]
        ampm = next((t for t in ("am/pm", "a/p") if section[k:k + len(t)].lower() == t), None)
        if ampm:
            pieces.append((False, section[k:k + len(ampm)]))
            k += len(ampm)
        elif ch == '"':
            end = section.find('"', k + 1)
            end = len(section) if end < 0 else end
            pieces.append((True, section[k + 1:end]))
            k = end + 1
        elif ch == "\\" and k + 1 < len(section):
            pieces.append((True, section[k + 1]))
            k += 2
        elif ch == "_" and k + 1 < len(section):
            pieces.append((True, " "))
            k += 2
        elif ch == "*" and k + 1 < len(section):
            k += 2
        elif ch == "[":
            end = section.find("]", k)
            end = len(section) if end < 0 else end
            inside = section[k + 1:end]
            if inside.startswith("$"):
                pieces.append((True, inside[1:].split("-")[0]))
            elif re.fullmatch(r"h+|m+|s+", inside, re.I):
                pieces.append((False, f"[{inside}]"))
            k = end + 1                               # a colour or a condition: not shown
        elif ch in "$-+/():!^&'~{}<>= ,%" and not _in_number(section, k):
            pieces.append((True, ch))
            k += 1
        else:
            pieces.append((False, ch))
            k += 1
    merged: list[tuple[bool, str]] = []
    for lit, text in pieces:
        if merged and merged[-1][0] == lit:
            merged[-1] = (lit, merged[-1][1] + text)
        else:
            merged.append((lit, text))
    return merged


def _in_number(section: str, k: int) -> bool:
    """A , or % among a number's digits (or right after them) is the number's, not a literal."""
    ch = section[k]
    if ch == ",":
        return k > 0 and section[k - 1] in "0#?" or k + 1 < len(section) and section[k + 1] in "0#?"
    if ch == "%":
        return True
    return False


def _is_date(section: str) -> bool:
    code = "".join(t for lit, t in _literal_split(section) if not lit)
    return bool(re.search(r"[ymdhs]", code, re.I)) and not re.search(r"[0#?]", re.sub(r"\.0+", "", code))


def shown(value, fmt: str = "General") -> str:
    """A cell's value as the spreadsheet shows it under its number format (the common formats;
    one this does not know shows the value as General does)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        sections = _sections(fmt)
        if len(sections) >= 4 and "@" in sections[3]:
            return "".join(t if lit else t.replace("@", value) for lit, t in _literal_split(sections[3]))
        return value
    elapsed = None
    if isinstance(value, dt.timedelta):          # a duration ([h]:mm): its hours may pass 24
        elapsed = max(0, int(value.total_seconds()))
        value = dt.datetime(1899, 12, 30) + dt.timedelta(seconds=elapsed)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        section = _sections(fmt)[0]
        if not _is_date(section):
            section = "yyyy-mm-dd hh:mm:ss" if isinstance(value, dt.datetime) and (value.hour or value.minute or
                                                                                   value.second) else \
                "hh:mm:ss" if isinstance(value, dt.time) else "yyyy-mm-dd"
        return _date(value, section, elapsed)
    if not isinstance(value, (int, float)) or isinstance(value, float) and not math.isfinite(value):
        return str(value)
    sections = _sections(fmt)
    if value < 0 and len(sections) >= 2 and sections[1].strip():
        section, value, sign = sections[1], -value, ""
    elif value == 0 and len(sections) >= 3 and sections[2].strip():
        section, sign = sections[2], ""
    else:
        section = sections[0]
        sign = "-" if value < 0 else ""
        value = abs(value)
    if section.strip().lower() in ("general", "") or section.strip() == "@":
        return sign + _general(value)
    if _is_date(section):
        try:
            from openpyxl.utils.datetime import from_excel
            return sign + _date(from_excel(value), section)
        except (ValueError, OverflowError, TypeError):
            return sign + _general(value)
    return sign + _number(value, section)


def _general(value: float) -> str:
    """As Excel's General in a cell of the standard width: at most 10 significant digits."""
    if float(value).is_integer() and abs(value) < 1e11:
        return str(int(value))
    text = f"{value:.10g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        text = f"{mantissa}E{exp[0]}{exp[1:].lstrip('0').rjust(2, '0')}"
    return text


def _number(value: float, section: str) -> str:
    pieces = _literal_split(section)
    code = "".join(t for lit, t in pieces if not lit)
    if not re.search(r"[0#?]", code):                # only text ("zero"): the text alone
        return "".join(t for lit, t in pieces if lit)
    if "/" in code:                                  # a fraction (# ?/?): not written as one here
        return _general(value)
    if "%" in code:
        value *= 100 * code.count("%")
    first = next(k for k, (lit, t) in enumerate(pieces) if not lit and re.search(r"[0#?]", t))
    last = max(k for k, (lit, t) in enumerate(pieces) if not lit and re.search(r"[0#?]", t))
    core = "".join(t for lit, t in pieces[first:last + 1])
    prefix = "".join(t for lit, t in pieces[:first])
    suffix = "%" * code.count("%") + "".join(t for lit, t in pieces[last + 1:] if lit)
    core_code = core.replace("%", "")
    sci = re.search(r"[eE][+-]", core_code)
    if sci:
        mant, exp = core_code[:sci.start()], core_code[sci.end():]
        decimals = len(mant.split(".")[1]) if "." in mant else 0
        text = f"{value:.{decimals}E}"
        m, e = text.split("E")
        e_sign = "-" if e.startswith("-") else ("+" if core_code[sci.start() + 1] == "+" else "")
        return f"{prefix}{m}E{e_sign}{e.lstrip('+-').lstrip('0').rjust(len(exp), '0')}{suffix}"
    int_code, _, frac_code = core_code.partition(".")
    grouped = "," in int_code
    int_code = int_code.replace(",", "")
    max_dec = sum(ch in "0#?" for ch in frac_code)
    min_dec = len(frac_code) - len(frac_code.lstrip("0"))      # 0s are shown digits, # and ? only if needed
    text = f"{value:.{max_dec}f}"
    whole, _, frac = text.partition(".")
    frac = frac.rstrip("0").ljust(min_dec, "0") if max_dec else ""
    min_int = int_code.count("0")
    whole = whole.lstrip("0").rjust(min_int, "0")
    if grouped and whole:
        whole = f"{int(whole):,}"
    number = whole + ("." + frac if "." in core_code else "")
    return prefix + number + suffix


def _date(value, section: str, elapsed: int | None = None) -> str:
    pieces = _literal_split(section)
    code_tokens: list[tuple[bool, str]] = []
    for lit, text in pieces:
        if lit:
            code_tokens.append((True, text))
            continue
        k = 0
        for m in _DATE_TOKENS.finditer(text):
            if m.start() > k:
                code_tokens.append((True, text[k:m.start()]))
            code_tokens.append((False, m.group(0)))
            k = m.end()
        if k < len(text):
            code_tokens.append((True, text[k:]))
    twelve = any(not lit and t.lower() in ("am/pm", "a/p") for lit, t in code_tokens)
    tokens = [t.lower() if not lit else None for lit, t in code_tokens]
    out = []
    y = getattr(value, "year", None)
    hour = getattr(value, "hour", 0)
    hours = elapsed // 3600 if elapsed is not None else hour + (value.toordinal() - 693594) * 24 \
        if isinstance(value, dt.datetime) else hour        # [h]: hours since Excel's day 0
    for k, (lit, t) in enumerate(code_tokens):
        if lit:
            out.append(t)
            continue
        low = t.lower()
        if low in ("mm", "m"):
            # m is minutes right after an hour or right before seconds, else the month
            before = next((x for x in reversed(tokens[:k]) if x and not x.startswith(".")), None)
            after = next((x for x in tokens[k + 1:] if x and not x.startswith(".")), None)
            minutes = before in ("h", "hh") or (before and before.startswith("[h")) or after in ("s", "ss")
            if minutes or y is None:
                out.append(f"{getattr(value, 'minute', 0):0{len(low)}d}")
            else:
                out.append(f"{value.month:0{len(low)}d}")
        elif low in ("yyyy", "yy"):
            out.append("" if y is None else f"{y:04d}" if low == "yyyy" else f"{y % 100:02d}")
        elif low in ("mmm", "mmmm", "mmmmm"):
            name = _MONTHS[value.month - 1] if y is not None else ""
            out.append(name[:3] if low == "mmm" else name[:1] if low == "mmmmm" else name)
        elif low in ("d", "dd"):
            out.append("" if y is None else f"{value.day:0{len(low)}d}")
        elif low in ("ddd", "dddd"):
            name = _DAYS[value.weekday()] if y is not None else ""
            out.append(name[:3] if low == "ddd" else name)
        elif low in ("h", "hh"):
            h = (hour % 12 or 12) if twelve else hour
            out.append(f"{h:0{len(low)}d}")
        elif low in ("s", "ss"):
            out.append(f"{getattr(value, 'second', 0):0{len(low)}d}")
        elif low.startswith("."):
            micro = getattr(value, "microsecond", 0)
            out.append("." + f"{micro:06d}"[:len(low) - 1])
        elif low == "am/pm":
            out.append("AM" if hour < 12 else "PM")
        elif low == "a/p":
            out.append("A" if hour < 12 else "P")
        elif low.startswith("[h"):
            out.append(f"{hours:0{len(low) - 2}d}")
        elif low.startswith("[m"):
            out.append(f"{hours * 60 + getattr(value, 'minute', 0):0{len(low) - 2}d}")
        elif low.startswith("[s"):
            out.append(f"{(hours * 60 + getattr(value, 'minute', 0)) * 60 + getattr(value, 'second', 0):0{len(low) - 2}d}")
    return "".join(out)


# ---------------------------------------------------------------- ODS

_NS = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
       "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
       "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0"}
_T = "{%s}" % _NS["table"]
_X = "{%s}" % _NS["text"]


def _ods_rows(archive: zipfile.ZipFile, display: str, sheet: str | None):
    """An ODS sheet's rows: each cell's shown text (its <text:p> paragraphs, as the spreadsheet
    wrote them), repeated rows and cells counted without being made (a row repeated a million
    times is one row, read once)."""
    from defusedxml.ElementTree import iterparse
    found: list[str] = []
    try:
        with archive.open("content.xml") as stream:
            taking = False
            line = 0
            for event, elem in iterparse(stream, events=("start", "end")):
                tag = elem.tag
                if event == "start":
                    if tag == _T + "table":
                        name = elem.get(_T + "name", "")
                        found.append(name)
                        taking = (name == sheet) if sheet is not None else len(found) == 1
                        line = 0
                    continue
                if tag == _T + "table":
                    elem.clear()
                    if taking:
                        return
                    continue
                if tag != _T + "table-row":
                    continue
                if not taking:
                    elem.clear()
                    continue
                cells = _ods_cells(elem, display, line + 1)
                repeat = _repeat(elem.get(_T + "number-rows-repeated"))
                elem.clear()
                if not cells:
                    line += repeat
                    if line > MAX_BLANK_ROWS:
                        raise SpecError(display, line, "", "a sheet longer than a spreadsheet's rows")
                    continue
                for _ in range(repeat):          # cards_of_rows stops past MAX_ROWS
                    line += 1
                    yield line, cells
    except SpecError:
        raise
    except Exception as exc:     # a stranger's XML (DefusedXmlException for entities): any failure is the file's
        raise _unreadable(display, exc) from None
    if sheet is not None:
        raise SpecError(display, None, "", f"no sheet named {show(sheet)}; its sheets are: "
                                           f"{', '.join(show(n) for n in found)}")
    if not found:
        raise SpecError(display, None, "", "a workbook without a sheet")


def _repeat(value) -> int:
    try:
        return max(1, int(value)) if value is not None else 1
    except ValueError:
        return 1


def _ods_cells(row, display: str, line: int) -> list[str]:
    """A row's cells' text, trailing empty cells dropped; at most MAX_COLUMNS + 1 made."""
    cells: list[str] = []
    blank = 0                                    # empty cells not yet made (made only before a full one)
    for cell in row:
        if cell.tag not in (_T + "table-cell", _T + "covered-table-cell"):
            continue
        repeat = _repeat(cell.get(_T + "number-columns-repeated"))
        # Its own paragraphs (a comment's, inside office:annotation, are not the cell's text).
        text = "\n".join(_paragraph(p) for p in cell.findall(_X + "p"))
        if text == "":
            blank += repeat
            continue
        room = MAX_COLUMNS + 1 - len(cells) - blank
        if room <= 0:                            # past the bound: one cell there says so
            cells.extend([""] * (MAX_COLUMNS - len(cells)))
            cells.append(text)
            break
        cells.extend([""] * blank)
        blank = 0
        cells.extend([text] * min(repeat, room))
    return cells


def _paragraph(p) -> str:
    """A <text:p>'s text: its spans, <text:s text:c="n"/> spaces, tabs and line breaks."""
    out = [p.text or ""]
    for child in p:
        tag = child.tag
        if tag == _X + "s":
            out.append(" " * min(_repeat(child.get(_X + "c")), 1000))
        elif tag == _X + "tab":
            out.append("\t")
        elif tag == _X + "line-break":
            out.append("\n")
        else:
            out.append(_paragraph(child))
        out.append(child.tail or "")
    return "".join(out)
