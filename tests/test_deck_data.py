"""A deck's data as Squib and nanDECK users keep it (issue 38, i38a): XLSX and ODS read directly
(a formula's saved value, cells as their number format shows them, the sheet by name), with the
CSV's bounds and errors and hostile files refused in one line; Squib's card index in `when`;
lengths with their units; and every error that does not depend on another said in one run."""
from __future__ import annotations

import datetime as dt
import io
import re
import shutil
import time
import zipfile
from pathlib import Path

import pytest

from conftest import DECK, pnp_here

SPEC = """kind: deck
title: Sheet deck
card: {width: 63, height: 88, bleed: 3}
tuck_box: false
DATA
layout: face
back: back
layouts:
  face:
    elements:
      - {type: text, x: 3, y: 3, w: 57, h: 10, text: "{name}", size: 12}
  back: {background: "#224466"}
"""


def deck_of(folder: Path, data_lines: str, spec_text: str = SPEC):
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    (folder / "d.yaml").write_text(spec_text.replace("DATA", data_lines))
    return load_deck(load_spec(folder / "d.yaml"))


def validate(folder: Path, data_lines: str, spec_text: str = SPEC):
    (folder / "d.yaml").write_text(spec_text.replace("DATA", data_lines))
    return pnp_here("validate", folder / "d.yaml")


def lines_of(r) -> list[str]:
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    return r.stderr.strip().splitlines()


def workbook(path: Path, rows: list[list], formats: dict | None = None, title: str = "Cards",
             others: tuple = ()) -> None:
    import openpyxl         # here, not at the top: only this module writes workbooks (0.15 s at collection)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    for row in rows:
        ws.append(row)
    for ref, fmt in (formats or {}).items():
        ws[ref].number_format = fmt
    for name in others:
        other = wb.create_sheet(name)
        other.append(["name"])
        other.append([f"{name}'s"])
    wb.save(path)


def rezip(path: Path, part: str, change) -> None:
    """The spreadsheet with one part's text changed (as a spreadsheet program would have saved it)."""
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i.filename) for i in z.infolist()}
    parts[part] = change(parts[part].decode()).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def add_zeros(path: Path, part: str) -> None:
    """A part of 1,000 MB of zeros deflated (about 1 MB) added to the zip at path, made in
    milliseconds: deflating the zeros themselves takes 5 s. A deflate stream fully flushed after
    each MB starts afresh, so each MB packs to the same bytes: one MB's are packed and written
    1,000 times, stored as they are, then the part's headers are told what they are (deflated,
    1,000 MB, the zeros' CRC)."""
    import zlib
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)            # a zip's deflate: raw, no zlib header
    one_mb = packer.compress(bytes(2**20)) + packer.flush(zlib.Z_FULL_FLUSH)
    with zipfile.ZipFile(path, "a") as z:
        info = zipfile.ZipInfo(part)
        z.writestr(info, one_mb * 1000 + packer.flush())
        info.compress_type, info.file_size = zipfile.ZIP_DEFLATED, 1000 * 2**20
        info.CRC = 0x64E9D068                                   # zlib.crc32(bytes(1000 * 2**20))
        end = z.fp.tell()
        z.fp.seek(info.header_offset)
        z.fp.write(info.FileHeader())                           # the local header, the same length
        z.fp.seek(end)


# ---------------------------------------------------------------- XLSX

def test_an_xlsx_is_read_as_its_cells_show_with_formulas_saved_values(tmp_path):
    workbook(tmp_path / "cards.xlsx",
             [["name", "qty", "price", "share", "date", "big", "formula"],
              ["Ninja", 2, 3, 0.256, dt.datetime(2024, 3, 5), 1234567.891, "=1+1"],
              ["Pirate", 1, 2.5, 0.5, dt.datetime(2025, 12, 31), 12, None]],
             {"C2": "0.00", "C3": '"$"#,##0.00', "D2": "0%", "D3": "0.0%", "E2": "d mmm yyyy", "E3": "yyyy-mm-dd",
              "F2": "#,##0", "F3": "General"})
    # The formula's saved value is 5, not what 1+1 makes: what the spreadsheet showed is printed.
    rezip(tmp_path / "cards.xlsx", "xl/worksheets/sheet1.xml", lambda t: t.replace("<f>1+1</f><v />",
                                                                                      "<f>1+1</f><v>5</v>"))
    d = deck_of(tmp_path, "data: cards.xlsx")
    got = [(c.fields, c.count) for c in d.cards]
    assert got == [({"name": "Ninja", "price": "3.00", "share": "26%", "date": "5 Mar 2024", "big": "1,234,568",
                     "formula": "5"}, 2),
                   ({"name": "Pirate", "price": "$2.50", "share": "50.0%", "date": "2025-12-31", "big": "12",
                     "formula": ""}, 1)]
    assert d.cards[0].line == 2 and d.cards[0].file.endswith("cards.xlsx")


def test_the_sheet_is_named_or_the_first(tmp_path):
    workbook(tmp_path / "b.xlsx", [["name"], ["First sheet's"]], title="Base", others=("Expansion",))
    assert [c.fields["name"] for c in deck_of(tmp_path, "data: b.xlsx").cards] == ["First sheet's"]
    assert [c.fields["name"] for c in deck_of(tmp_path, "data: b.xlsx\nsheet: Expansion").cards] == ["Expansion's"]
    r = validate(tmp_path, "data: b.xlsx\nsheet: Expansoin")
    assert re.fullmatch(r'\S*d\.yaml:6: sheet: "b\.xlsx": no sheet named "Expansoin"; its sheets are: "Base", '
                        r'"Expansion"', r.stderr.strip()), r.stderr


def test_a_sheets_rows_have_the_csvs_errors_each_at_its_row_and_column(tmp_path):
    workbook(tmp_path / "e.xlsx", [["name", "count"], ["A", 1], ["B", "x"], [None, None], ["C", 5000],
                                   ["D", 1, "stray"]])
    lines = lines_of(validate(tmp_path, "data: e.xlsx"))
    assert [re.sub(r"^.*?e\.xlsx", "e.xlsx", line) for line in lines] == [
        'e.xlsx:3: count: expected a whole number from 0 to 1000 (copies of the card), got "x"',
        'e.xlsx:5: count: expected a whole number from 0 to 1000 (copies of the card), got "5000"',
        "e.xlsx:6: 3 cells, but the header names 2 columns (a cell right of the header's last column)"]


@pytest.mark.parametrize("make, message", [
    ("not-zip", r"not an XLSX or ODS spreadsheet \(not a zip"),
    ("bomb", r"unpacks to 1,000 MB; a spreadsheet read here unpacks to at most 48 MB"),
    ("entities", r"not a spreadsheet we can read"),
    ("rows", r"more than 2,000 rows of cards"),
    ("columns", r"65 columns; at most 64"),
    ("shared-strings", r"xl/sharedStrings\.xml holds 2,800,002 XML tags; a spreadsheet read here holds at most 600,000"),
])
def test_hostile_spreadsheets_are_refused_in_one_line_in_bounded_time(tmp_path, make, message):
    path = tmp_path / ("x.ods" if make in ("entities", "rows") else "x.xlsx")
    if make == "not-zip":
        path.write_bytes(b"name,count\nA,1\n")
    elif make == "bomb":
        # A part that unpacks to 1,000 MB (its zeros packed to about 1 MB): refused unread.
        workbook(path, [["name"], ["A"]])
        add_zeros(path, "xl/media/zeros.bin")
        with zipfile.ZipFile(path) as z:           # a bomb indeed: what it says, and zeros as it unpacks
            assert z.getinfo("xl/media/zeros.bin").file_size == 1000 * 2**20
            assert z.open("xl/media/zeros.bin").read(2**20) == bytes(2**20)
    elif make == "entities":
        laughs = "".join(f'<!ENTITY l{k} "{"&l%d;" % (k - 1) * 10 if k else "lol"}">' for k in range(10))
        ods(path, f'<?xml version="1.0"?><!DOCTYPE d [{laughs}]>' + ods_content("<table:table-row><table:table-cell>"
                                                                             "<text:p>&l9;</text:p></table:table-cell>"
                                                                             "</table:table-row>", prolog=False))
    elif make == "rows":
        # One row said to repeat a million times: read as rows until the bound, never made a million times.
        ods(path, ods_content('<table:table-row><table:table-cell><text:p>name</text:p></table:table-cell>'
                              '</table:table-row><table:table-row table:number-rows-repeated="1000000">'
                              '<table:table-cell><text:p>A</text:p></table:table-cell></table:table-row>'))
    elif make == "columns":
        workbook(path, [[f"c{k}" for k in range(65)], ["A"] * 65])
    elif make == "shared-strings":
        # 700,000 one-letter shared strings, 11 MB that pack to 30 kB: 12 s of openpyxl's parse, unparsed
        workbook(path, [["name"], ["A"]])
        rezip(path, "[Content_Types].xml", lambda t: t.replace("</Types>", '<Override PartName="/xl/sharedStrings.xml" '
              'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'))
        with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as z:
            z.writestr("xl/sharedStrings.xml", '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/'
                       'main">' + "<si><t>a</t></si>" * 700_000 + "</sst>")
    start = time.process_time()
    lines = lines_of(validate(tmp_path, f"data: {path.name}"))
    assert time.process_time() - start < 5
    assert len(lines) == 1 and re.search(message, lines[0]), lines
    assert re.match(r"^\S+:\d+: ", lines[0]), lines      # the file and line: the spec's, or the sheet's row


def test_a_link_to_another_workbook_is_never_followed_its_saved_value_shown(tmp_path):
    workbook(tmp_path / "l.xlsx", [["name", "price"], ["A", "=[1]Sheet1!A1"]])
    rezip(tmp_path / "l.xlsx", "xl/worksheets/sheet1.xml",
          lambda t: t.replace("<f>[1]Sheet1!A1</f><v />", "<f>[1]Sheet1!A1</f><v>7</v>"))
    with zipfile.ZipFile(tmp_path / "l.xlsx", "a") as z:
        z.writestr("xl/externalLinks/externalLink1.xml",
                   '<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                   '<externalBook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
                   'r:id="rId1"/></externalLink>')
        z.writestr("xl/externalLinks/_rels/externalLink1.xml.rels",
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
                   'externalLinkPath" Target="file:///etc/passwd" TargetMode="External"/></Relationships>')
    assert [c.fields for c in deck_of(tmp_path, "data: l.xlsx").cards] == [{"name": "A", "price": "7"}]


def test_a_cell_far_right_or_far_down_costs_nothing(tmp_path):
    """One cell at XFD1048576 (the last a sheet has) makes no million rows of 16,384 cells."""
    workbook(tmp_path / "far.xlsx", [["name"], ["A"]])
    rezip(tmp_path / "far.xlsx", "xl/worksheets/sheet1.xml",
          lambda t: t.replace("</sheetData>", '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>far</t></is>'
                                              "</c></row></sheetData>").replace('ref="A1:A2"', 'ref="A1:XFD1048576"'))
    start = time.process_time()
    d = deck_of(tmp_path, "data: far.xlsx")
    assert time.process_time() - start < 10
    assert [c.fields for c in d.cards] == [{"name": "A"}]


# ---------------------------------------------------------------- ODS

def ods_content(rows: str, name: str = "Cards", prolog: bool = True, more: str = "") -> str:
    return (('<?xml version="1.0" encoding="UTF-8"?>' if prolog else "") +
            '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
            f'<table:table table:name="{name}">{rows}</table:table>{more}'
            "</office:spreadsheet></office:body></office:document-content>")


def ods(path: Path, content: str) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", content)


def test_an_ods_is_read_as_its_cells_show(tmp_path):
    cell = "<table:table-cell{a}><text:p>{t}</text:p></table:table-cell>"
    header = "<table:table-row>" + "".join(cell.format(a="", t=t) for t in ("name", "Qty", "cost", "rules")) + \
        "</table:table-row>"
    # A formula's saved value and its shown text (€3.50); spaces as <text:s>; two paragraphs; a
    # comment (not the cell's text); empty cells repeated; the same row twice.
    row = ('<table:table-row table:number-rows-repeated="2">'
           '<table:table-cell><text:p>Gob<text:span>lin</text:span></text:p></table:table-cell>'
           '<table:table-cell office:value-type="float" office:value="2"><text:p>2</text:p></table:table-cell>'
           '<table:table-cell table:formula="of:=[.B2]+1.5" office:value-type="currency" office:value="3.5">'
           "<text:p>€3.50</text:p></table:table-cell>"
           '<table:table-cell><office:annotation><text:p>a note</text:p></office:annotation>'
           '<text:p>Hit<text:s text:c="2"/>hard.</text:p><text:p>Twice.</text:p></table:table-cell>'
           '<table:table-cell table:number-columns-repeated="16380"/></table:table-row>')
    blank = '<table:table-row table:number-rows-repeated="1048570"><table:table-cell ' \
            'table:number-columns-repeated="16384"/></table:table-row>'
    ods(tmp_path / "c.ods", ods_content(header + row + blank, more='<table:table table:name="Two"/>'))
    d = deck_of(tmp_path, "data: c.ods")
    assert [(c.fields, c.count, c.line) for c in d.cards] == [
        ({"name": "Goblin", "cost": "€3.50", "rules": "Hit  hard.\nTwice."}, 2, 2),
        ({"name": "Goblin", "cost": "€3.50", "rules": "Hit  hard.\nTwice."}, 2, 3)]
    assert deck_of(tmp_path, "data: c.ods\nsheet: Cards").cards
    r = validate(tmp_path, "data: c.ods\nsheet: Three")
    assert re.search(r'sheet: "c\.ods": no sheet named "Three"; its sheets are: "Cards", "Two"', r.stderr), r.stderr


def test_number_formats_show_as_a_spreadsheet_shows_them():
    from generator.games.deck.sheets import shown
    cases = [(1234.5, "#,##0.00", "1,234.50"), (-5, '"$"#,##0.00', "-$5.00"), (-5, "#,##0;(#,##0)", "(5)"),
             (0, '0;-0;"none"', "none"), (0.5, "#.00", ".50"), (12345.678, "0.00E+00", "1.23E+04"),
             (1234.5, "[$€-407]#,##0.00", "€1,234.50"), (3, '0" pts"', "3 pts"), (1 / 3, "General", "0.3333333333"),
             (dt.datetime(2024, 3, 5, 14, 7, 9), "h:mm AM/PM", "2:07 PM"), (dt.datetime(2024, 3, 5), "m/d/yyyy", "3/5/2024"),
             (dt.datetime(2024, 3, 5), "dddd, mmmm d", "Tuesday, March 5"), (dt.timedelta(hours=30, minutes=5), "[h]:mm",
                                                                             "30:05"),
             (45000, "yyyy-mm-dd", "2023-03-15"), (True, "General", "TRUE"), (7, "[Red]0", "7")]
    assert [shown(v, f) for v, f, _ in cases] == [want for _, _, want in cases]


# ---------------------------------------------------------------- the card index

def test_when_picks_cards_by_index_counting_copies_as_squib_does(tmp_path):
    (tmp_path / "c.csv").write_text("name,qty\nThief,2\nGrifter,1\nMastermind,1\n")
    spec = SPEC.replace('      - {type: text, x: 3, y: 3, w: 57, h: 10, text: "{name}", size: 12}',
                        '      - {id: a, type: rect, x: 1, y: 1, w: 5, h: 5, fill: "#ff0000", when: {index: "0..1"}}\n'
                        '      - {id: b, type: rect, x: 1, y: 1, w: 6, h: 6, fill: "#ff0000", when: {index: -1}}\n'
                        '      - {id: c, type: rect, x: 1, y: 1, w: 7, h: 7, fill: "#ff0000", when: {index: [0, "2...3"]}}')
    d = deck_of(tmp_path, "data: c.csv", spec)
    # Thief's two copies are indexes 0 and 1, Grifter 2, Mastermind 3 (the last, -1).
    assert [(c.fields["name"], c.index, c.count) for c in d.cards] == [("Thief", 0, 1), ("Thief", 1, 1),
                                                                      ("Grifter", 2, 1), ("Mastermind", 3, 1)]
    widths = [sorted(round(item.w) for item in face.root.items if hasattr(item, "w")) for face in d.art.faces]
    assert widths == [[5, 7], [5], [7], [6]]
    r = validate(tmp_path, "data: c.csv", spec.replace('when: {index: -1}', 'when: {index: "last"}'))
    assert re.search(r"d\.yaml:\d+: layouts\.face\.elements\[1\]\.when\.index: expected a card's index from 0",
                     r.stderr), r.stderr


# ---------------------------------------------------------------- units

def test_lengths_with_units_are_mm_in_the_output(tmp_path):
    from generator.draw.svg import svg_string
    (tmp_path / "c.csv").write_text("name\nA\n")
    spec = SPEC.replace('      - {type: text, x: 3, y: 3, w: 57, h: 10, text: "{name}", size: 12}',
                        '      - {type: rect, x: 150px, y: 0.5in, w: 300 px, h: 2cm, fill: "#ff0000", stroke: "#000000",'
                        ' stroke_width: 2.835pt}\n'
                        '      - {type: polygon, points: [[0, 0], [1in, 0], [10mm, 10mm]], fill: "#00ff00"}')
    d = deck_of(tmp_path, "data: c.csv", spec)
    svg = svg_string(d.art.faces[0])
    assert re.search(r'<rect [^>]*height="20" [^>]*width="25.4" x="12.7" y="12.7"', svg), svg
    assert 'stroke-width="1"' in svg or 'stroke-width="1.0' in svg, svg     # 2.835 pt = 1.0001 mm
    assert 'd="M0 0 L25.4 0 L10 10 Z"' in svg, svg
    assert 'width="63mm"' in svg
    # px at the deck's dpi: 150 px at 150 dpi is an inch
    d = deck_of(tmp_path, "data: c.csv", spec.replace("kind: deck", "kind: deck\ndpi: 150").replace("150px", "75px"))
    assert re.search(r'<rect [^>]*width="50.8" x="12.7"', svg_string(d.art.faces[0]))
    r = validate(tmp_path, "data: c.csv", spec.replace("w: 300 px", "w: 3 furlongs"))
    assert re.search(r'w: expected a length in mm, from 0\.1 to 2000, got "3 furlongs" \(a number of mm, or a length '
                     r"with its unit", r.stderr), r.stderr
    r = validate(tmp_path, "data: c.csv", spec.replace("w: 300 px", "w: 90in"))
    assert re.search(r'w: expected a length in mm, from 0\.1 to 2000, got "90in" \(2286 mm\)', r.stderr), r.stderr


# ---------------------------------------------------------------- every error in one run

def test_six_errors_planted_in_a_csv_and_two_in_layouts_are_all_said_in_one_run(tmp_path):
    folder = tmp_path / "delve"
    shutil.copytree(DECK.parent, folder)
    rows = (folder / "delve.csv").read_text().splitlines()
    rows[1] = rows[1].replace(",2,3,5,", ",x,3,5,")                       # a count that is no number
    rows[2] += ",extra"                                                    # a cell past the header's
    rows[3] = rows[3].replace("art/landscape.png", "art/nope.png")         # a picture that is not there
    rows[4] = rows[4].replace("Goblin,monster", "Goblin,monstr")           # a layout that is not there
    rows[5] = rows[5].replace(":coin: Worth 1.", ":shield: Worth 1.")       # an icon that is not there
    rows[6] = rows[6].replace("Formula,item,1", "Formula,item,1001")       # a count too large
    (folder / "delve.csv").write_text("\n".join(rows) + "\n")
    spec = folder / "delve.yaml"
    spec.write_text(spec.read_text().replace("- {id: band, fill: hero}", "- {id: band, fill: hero, flll: red}")
                    .replace("- {id: band, fill: monster}", '- {id: band, fill: "#12345"}'))
    r = pnp_here("validate", spec)
    assert r.returncode == 1
    lines = [re.sub(r"^.*?(delve\.(yaml|csv))", r"\1", line) for line in lines_of(r)]
    assert [line.split(": ")[0] + ": " + line.split(": ")[1] for line in lines] == [
        "delve.yaml:47: layouts.hero.elements[0].flll", "delve.yaml:55: layouts.monster.elements[0].fill",
        "delve.csv:2: count", "delve.csv:3: 9 cells, but the header names 8 columns (a comma inside a cell needs the cell in double quotes)",
        "delve.csv:4: art", "delve.csv:5: type", "delve.csv:6: rules", "delve.csv:7: count"], lines
    assert "unknown icon :shield:" in lines[6] and "no such file" in lines[4] and '"monstr"' in lines[5]


def test_an_element_refused_is_changed_by_a_layout_extending_it_with_no_second_error(tmp_path):
    """An element the schema refuses (a bad length) stands aside with its id: a layout that extends
    its layout and changes it ({id: band, fill: red}) changes the refused element; it is not a new
    element with no type (once a second error, at the child's line, that depended on the first)."""
    folder = tmp_path
    r = pnp_here("new", "deck", "hu", cwd=folder)
    assert r.returncode == 0, r.stderr
    spec = folder / "hu.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "{id: band, type: rect, x: 0," in text and "extends: plain" in text and "{id: band, fill: red}" in text
    spec.write_text(text.replace("{id: band, type: rect, x: 0,", '{id: band, type: rect, x: "5xx",'), encoding="utf-8")
    r = pnp_here("validate", "hu.yaml", cwd=folder)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 1 and len(lines) == 1, r.stderr
    assert re.search(r"hu\.yaml:\d+: layouts\.plain\.elements\[0\]\.x: .*\"5xx\"", lines[0]), lines[0]
