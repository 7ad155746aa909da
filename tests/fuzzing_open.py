"""Seeded cases for the open tool's families (issue 32): a user's own folder as users make them.

Each family makes a case (files written into a fresh folder, the command lines to run, and what
must come of them), runs it through the real command line in this process, and returns the runs
and the problems found. Used by tests/test_fuzz.py (a short seeded sample) and benchmarks/fuzz.py
(a long campaign: `--family "hostile text"`, "spreadsheet exports", "own folders", "settings, new
and copy").

- hostile text: a control, bidi or separator character (or a legitimate letter or joiner of any
  script) put into a value, a key or a CSV cell of the starter deck: a refused character is refused
  (exit 1, one line naming the spec or the CSV), never printed raw, never written;
- spreadsheet exports: the starter deck's cards as spreadsheets export them (`,` `;` tab `|`, with
  and without `csv_delimiter`, UTF-8 with and without a byte-order mark, Windows' and the Mac's
  code pages and UTF-16 refused in one line naming UTF-8, letters outside ASCII, CRLF, quoted cells holding the delimiter or a
  line break, trailing empty columns, the count column in any case and under Squib's and others'
  names, count-like columns), or as the spreadsheet itself (XLSX or ODS, read directly): the right
  count of cards, or the hint that names the option;
- own folders: decks whose file names differ or fold to one (case, NFC/NFD, compatibility forms,
  accents), a deck saved under a game's spec name, game records mixed in at the top and in decks/:
  every spec found and planned, a clash refused naming both, a build that ends 0 writes every
  deck's files;
- settings, new and copy: offsets of any size saved and read back equal, a refused --out writing no
  settings, `new deck` with names YAML would type, a plain file where a folder goes.
"""
from __future__ import annotations

import csv
import io
import json
import os
import random
import shutil
import unicodedata
from pathlib import Path

from fuzzing import problems, run_cli

STARTER = Path(__file__).resolve().parent.parent / "generator" / "games" / "deck" / "starter"

REFUSED = ["\x1b", "\x1b[31m", "\x1b]0;title\x07", "\x00", "\x07", "\x08", "\x7f", "\x85", "\x9b", "\r",
           "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
           "\u2028", "\u2029"]
PASSING = ["é", "ש", "م", "日本", "Ω", "Ж", "👩\u200d💻", "\u200d", "\u200c", "\u200f", "\u200e", "e\u0301", "ﬁ"]
SHOWN_RAW = {c for c in "".join(REFUSED) if not c.isprintable()} - {"\r"}   # none may reach a terminal


def starter(folder: Path, name: str = "d") -> Path:
    """The starter deck written as `pnp new deck NAME` writes it: its spec."""
    folder.mkdir(parents=True, exist_ok=True)
    code, _, err, _ = run_cli(["new", "deck", name], folder)
    assert code == 0, err
    return folder / f"{name}.yaml"


def _fresh(work: Path, tag: str) -> Path:
    folder = work / tag
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


def _raw_shown(out: str, err: str) -> list[str]:
    bad = sorted({c for c in out + err if c in SHOWN_RAW})
    return [f"raw {', '.join(repr(c) for c in bad)} printed"] if bad else []


# ---------------------------------------------------------------- hostile text

def _yaml_escaped(text: str) -> str:
    return json.dumps(text, ensure_ascii=True)       # JSON's \uXXXX is YAML's double-quoted escape


def hostile_text(work: Path, rng: random.Random, i: int) -> tuple[int, list[str], str]:
    folder = _fresh(work, "hostile")
    spec = starter(folder)
    char = rng.choice(REFUSED if rng.random() < 0.7 else PASSING)
    refused = char in REFUSED
    where = rng.choice(["value", "value", "key", "cell", "title"])
    text = spec.read_text(encoding="utf-8")
    if where == "title":
        text = text.replace('title: "d"', f"title: {_yaml_escaped('My ' + char + 'deck')}")
        target = "d.yaml"
    elif where in ("value", "key"):
        # a quoted or plain scalar of the spec, key or value, with the character in it
        lines = text.splitlines(keepends=True)
        candidates = [k for k, line in enumerate(lines) if ":" in line and not line.lstrip().startswith("#")]
        k = rng.choice(candidates)
        line = lines[k]
        if where == "key":
            indent = len(line) - len(line.lstrip())
            key, rest = line.lstrip().split(":", 1)
            key = key.lstrip("- ").strip()
            lead = line[:indent] + ("- " if line.lstrip().startswith("- ") else "")
            if not key or "{" in key:
                key, lead, rest = "extra", line[:indent], " 1\n"
                lines.insert(k + 1, lead + _yaml_escaped("ex" + char + "tra") + ":" + rest)
            else:
                lines[k] = lead + _yaml_escaped(key[:1] + char + key[1:]) + ":" + rest
        else:
            lines.append(f"x_note: {_yaml_escaped('a ' + char + ' b')}\n")
        text = "".join(lines)
        target = "d.yaml"
    else:
        path = folder / "d.csv"
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
        r, c = rng.randrange(1, len(rows)), rng.choice([0, 4])
        cell = rows[r][c]
        at = rng.randrange(1, len(cell))       # inside: a cell's ends are stripped, spaces and all
        rows[r][c] = cell[:at] + char + cell[at:]
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        path.write_text(buf.getvalue(), encoding="utf-8")
        target = "d.csv"
    spec.write_text(text, encoding="utf-8")
    before = sorted(p.name for p in folder.iterdir())
    code, out, err, seconds = run_cli(["validate", "d.yaml"], folder)
    found = problems(code, err, seconds) + _raw_shown(out, err)
    if refused and code != 1:
        found.append(f"{char!r} in a {where} not refused (exit {code})")
    if refused and code == 1 and not any(line.startswith((target + ":", "d.yaml:")) for line in err.splitlines()):
        found.append(f"the refusal names neither {target} nor the spec: {err[:200]!r}")
    if sorted(p.name for p in folder.iterdir()) != before:
        found.append("validate wrote something")
    runs = 1
    if i % 10 == 0 and code == 0:
        code, out, err, seconds = run_cli(["build", "d.yaml"], folder)
        runs += 1
        found += problems(code, err, seconds) + _raw_shown(out, err)
        if code == 0:
            listing = (folder / "output" / "deck" / "README.txt").read_text(encoding="utf-8")
            if any(c in listing for c in SHOWN_RAW):
                found.append("a refused character written into the print list")
    return runs, found, f"{char!r} in a {where}"


# ---------------------------------------------------------------- spreadsheet exports

COUNT_COLUMNS = ["count", "Count", "COUNT", "qty", "Qty", "QTY", "quantity", "Quantity", "copies", "Copies"]
COUNTISH = ["number", "Number", "amount", "n", "cnt", "pcs"]
DELIMITERS = [",", ";", "\t", "|"]
# As spreadsheets save: UTF-8 ("CSV UTF-8", LibreOffice, Google Sheets, Numbers), Windows' code page
# (Excel's plain "CSV" on Windows), the Mac's (Excel's "CSV" on a Mac), UTF-16 with tabs (Excel's
# "Unicode Text").
ENCODINGS = ["utf-8", "utf-8", "utf-8", "cp1252", "mac_roman", "utf-16"]


def spreadsheet_export(work: Path, rng: random.Random, i: int) -> tuple[int, list[str], str]:
    folder = _fresh(work, "sheet")
    spec = starter(folder)
    rows = list(csv.reader(io.StringIO((folder / "d.csv").read_text(encoding="utf-8"))))
    header, body = rows[0], rows[1:]
    counts = [int(r[2]) for r in body]
    kind = rng.random()
    count_name = rng.choice(COUNT_COLUMNS) if kind < 0.7 else rng.choice(COUNTISH) if kind < 0.85 else None
    if count_name is None:
        header, body = [h for k, h in enumerate(header) if k != 2], [[c for k, c in enumerate(r) if k != 2] for r in body]
    else:
        header = header[:2] + [count_name] + header[3:]
    if rng.random() < 0.3:                                  # a cell holding the delimiter, a line break
        t = header.index("text")
        body[0][t] = body[0][t] + rng.choice([", and more", "; and more", "\nsecond line", "\ttab", " | bar"])
    if rng.random() < 0.3:                                  # trailing empty columns, as spreadsheets save
        header, body = header + ["", ""], [r + ["", ""] for r in body]
    if rng.random() < 0.2:
        body.append([""] * len(header))                     # a blank row
    accented = rng.random() < 0.4
    if accented:                                            # a letter outside ASCII, as names have
        n = header.index("name")
        body[0][n] = body[0][n][:1] + rng.choice(["é", "ü", "ñ", "ß", "€", "Ø"]) + body[0][n][1:]
    if rng.random() < 0.25:                                 # the spreadsheet itself, XLSX or ODS (issue 38)
        return _workbook_case(folder, spec, header, body, counts, count_name, rng)
    encoding = rng.choice(ENCODINGS)
    sep = "\t" if encoding == "utf-16" else rng.choice(DELIMITERS)
    buf = io.StringIO()
    csv.writer(buf, delimiter=sep, lineterminator=rng.choice(["\n", "\r\n"])).writerows([header] + body)
    data = buf.getvalue().encode(encoding)
    if encoding == "utf-8" and rng.random() < 0.3:
        data = b"\xef\xbb\xbf" + data                        # Excel's "CSV UTF-8"
    # (ASCII is the same bytes in Windows' and the Mac's code pages as in UTF-8: read alike)
    not_utf8 = encoding == "utf-16" or (encoding != "utf-8" and accented)
    (folder / "d.csv").write_bytes(data)
    declared = rng.choice([None, sep, sep, rng.choice(DELIMITERS)])
    text = spec.read_text(encoding="utf-8")
    if declared is not None:
        text = text.replace('csv: "d.csv"', f'csv: "d.csv"\ncsv_delimiter: {json.dumps(declared)}')
    spec.write_text(text, encoding="utf-8")
    code, out, err, seconds = run_cli(["validate", "d.yaml"], folder)
    found = problems(code, err, seconds) + _raw_shown(out, err)
    effective = declared or ","
    what = f"{encoding}{' accented' if accented else ''} {sep!r} declared {declared!r}, count column {count_name!r}"
    if not_utf8:
        lines = err.strip().splitlines()
        if code != 1 or len(lines) != 1 or not lines[0].startswith("d.csv:") or "UTF-8" not in lines[0]:
            found.append(f"an export not in UTF-8 not refused in one line naming the CSV and UTF-8 (exit {code}): "
                         f"{err[:300]!r}")
    elif effective == sep:
        if code != 0:
            found.append(f"a well-formed export refused: {err[:300]!r}")
        else:
            found += _cards_made(folder, counts, count_name, body[0][header.index("name")] if accented else None)
            if count_name in COUNTISH and "looks like a count" not in err:
                found.append("a count-like column not noted")
    elif code != 1 or "csv_delimiter" not in err:
        found.append(f"a CSV read with the wrong delimiter without the hint (exit {code}): {err[:300]!r}")
    return 1, found, what


def _workbook_case(folder: Path, spec: Path, header, body, counts, count_name, rng) -> tuple[int, list[str], str]:
    """The same cards saved as the spreadsheet itself (`data: d.xlsx` or `d.ods`), numbers as
    numbers: the same count of cards as the CSV's, read directly, its names as written."""
    import zipfile
    from xml.sax.saxutils import escape
    kind = rng.choice(["xlsx", "ods"])
    rows = [header] + [[int(c) if c.isdigit() else c for c in r] for r in body]
    if kind == "xlsx":
        import openpyxl
        book = openpyxl.Workbook()
        for row in rows:
            book.active.append([c if c != "" else None for c in row])
        book.save(folder / "d.xlsx")
    else:
        def cell(c) -> str:
            if c == "":
                return "<table:table-cell/>"
            number = f' office:value-type="float" office:value="{c}"' if isinstance(c, int) else ""
            paras = "".join(f"<text:p>{escape(p)}</text:p>" for p in str(c).split("\n"))
            return f"<table:table-cell{number}>{paras}</table:table-cell>"
        table = "".join("<table:table-row>" + "".join(map(cell, row)) + "</table:table-row>" for row in rows)
        with zipfile.ZipFile(folder / "d.ods", "w") as z:
            z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
            z.writestr("content.xml", '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
                       'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                       'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
                       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
                       f'<office:spreadsheet><table:table table:name="Cards">{table}</table:table>'
                       "</office:spreadsheet></office:body></office:document-content>")
    (folder / "d.csv").unlink()
    spec.write_text(spec.read_text(encoding="utf-8").replace('csv: "d.csv"', f'data: "d.{kind}"'), encoding="utf-8")
    code, out, err, seconds = run_cli(["validate", "d.yaml"], folder)
    found = problems(code, err, seconds) + _raw_shown(out, err)
    if code != 0:
        found.append(f"a well-formed {kind} refused: {err[:300]!r}")
    else:
        found += _cards_made(folder, counts, count_name, body[0][header.index("name")])
    return 1, found, f"{kind}, count column {count_name!r}"


def _cards_made(folder: Path, counts: list[int], count_name, name: str | None) -> list[str]:
    """What is wrong with the starter's cards as the deck in `folder` read them: their number (the
    spec's one card, then the rows' counts where the count column makes copies), a card's name."""
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    deck = load_deck(load_spec(folder / "d.yaml"))
    makes_copies = count_name is not None and count_name.casefold() in ("count", "qty", "quantity", "copies")
    want = 1 + (sum(counts) if makes_copies else len(counts))
    found = []
    if sum(c.count for c in deck.cards) != want:
        found.append(f"{sum(c.count for c in deck.cards)} cards, expected {want}")
    if name is not None and not any(c.fields.get("name") == name for c in deck.cards):
        found.append(f"no card named {name!r}: {[c.fields.get('name') for c in deck.cards]}")
    return found


# ---------------------------------------------------------------- own folders

STEMS = ["Deck", "deck", "DECK", "Café", unicodedata.normalize("NFD", "Café"), "cafe", "Straße", "STRASSE", "ｄｅｃｋ",
         "ﬁre", "fire", "my deck", "my-deck", "My_Deck", "sorry", "mille_bornes", "alpha", "beta", "日本", "中国"]
RECORD = "game: sorry\nplayers: [Ann, Bob]\nentries: []\n"


def own_folder(work: Path, rng: random.Random, i: int) -> tuple[int, list[str], str]:
    from generator.outputs import safe_name
    folder = _fresh(work, "own")
    src = work / "starter-src"
    source = src / "d.yaml" if (src / "d.yaml").is_file() else starter(src)
    names = rng.sample(STEMS, rng.randint(1, 3))
    placed = []
    for name in names:
        where = rng.choice(["", "decks"]) if name not in ("sorry", "mille_bornes") else "decks"
        target = folder / where if where else folder
        target.mkdir(exist_ok=True)
        (target / f"{name}.yaml").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        for extra in ("d.csv", "icons"):
            if not (target / extra).exists():
                (shutil.copytree if extra == "icons" else shutil.copy)(src / extra, target / extra)
        placed.append(f"{where}/{name}.yaml".lstrip("/"))
    records = rng.choice([0, 0, 5, 250])
    for k in range(records):
        where = folder / "decks" if k % 7 == 3 and (folder / "decks").is_dir() else folder
        (where / f"a{k:03}.yaml").write_text(RECORD)
    stems = [safe_name(Path(p).stem, "spec") for p in placed]
    clash = len(set(stems)) < len(stems)
    folded = [unicodedata.normalize("NFKC", Path(p).stem).casefold() for p in placed]
    must_clash = len(set(folded)) < len(folded)
    code, out, err, seconds = run_cli(["validate"], folder)
    runs, found = 1, problems(code, err, seconds) + _raw_shown(out, err)
    what = f"{placed} with {records} records"
    if must_clash and not clash:
        found.append("names that fold to one were not told to clash")
    if clash:
        if code != 1 or "would both write" not in err or len(err.strip().splitlines()) != 1:
            found.append(f"a clash not refused in one line (exit {code}): {err[:300]!r}")
    elif code != 0 or out.strip() != f"{len(placed)} spec{'s' if len(placed) > 1 else ''} valid":
        found.append(f"expected {len(placed)} specs valid, got exit {code}: {out.strip()!r} {err[:300]!r}")
    if i % 5 == 0:
        code, out, err, seconds = run_cli(["build"], folder)
        runs += 1
        found += problems(code, err, seconds) + _raw_shown(out, err)
        made = [Path(p) for p in out.split()]
        if code == 0:
            if clash:
                found.append("a clash built (exit 0)")
            games = {p.parts[1] for p in made}
            if games != {"deck"}:
                found.append(f"built {sorted(games)}, not only the decks")
            for stem in stems:
                if not (folder / "output" / "deck" / f"{stem}-sheet-a4.pdf").is_file():
                    found.append(f"{stem}'s sheet missing after a build that ended 0")
            if len(made) != len(set(p.as_posix().casefold() for p in made)):
                found.append("a file listed twice")
        elif clash and (folder / "output").exists():
            found.append("a refused clash left an output folder")
    return runs, found, what


# ---------------------------------------------------------------- settings, new and copy

YAML_WORDS = ["123", "yes", "no", "null", "Null", "true", "Off", "on", "0x1F", "0o17", "1e3", "1_000", "NaN", "inf",
              "y", "n", "~", "2024-01-01", "12_30", "deck", "My-Deck_2", "-x", "_x", "a" * 61, "ünï", "日本"]


def _offset_text(rng: random.Random) -> tuple[str, tuple[float, float]]:
    values = []
    for _ in range(2):
        v = rng.choice([rng.uniform(-20, 20), rng.uniform(-1, 1) * 10 ** -rng.randint(1, 12), 0.0, -0.0, 20.0, -20.0,
                        float(f"{rng.uniform(-20, 20):.3f}")])
        values.append(v)
    text = ",".join(rng.choice([repr(v), f"{v:.17g}", f"{v:g}", f"{v:e}"]) for v in values)
    return text, tuple(float(t) for t in text.split(","))


def settings_new_copy(work: Path, rng: random.Random, i: int) -> tuple[int, list[str], str]:
    from generator.project import read_settings
    folder = _fresh(work, "settings")
    kind = rng.choice(["settings", "settings", "bad out", "new", "new", "blocked"])
    found, runs = [], 0
    if kind in ("settings", "bad out"):
        text, want = _offset_text(rng)
        paper, flip = rng.choice(["a4", "letter"]), rng.choice(["long", "short"])
        out = folder / ("adir" if kind == "bad out" else "c.pdf")
        if kind == "bad out":
            out.mkdir()
        code, o, err, seconds = run_cli(["calibrate", "--paper", paper, "--flip", flip, f"--back-offset={text}",
                                         "--save", "--out", out], folder)
        runs += 1
        found += problems(code, err, seconds)
        if kind == "bad out":
            if code != 2 or (folder / "pnp-settings.yaml").exists():
                found.append(f"a refused --out (exit {code}) and settings written all the same")
        elif code != 0:
            found.append(f"calibrate --save refused {text!r}: {err[:200]!r}")
        else:
            got = read_settings(folder)
            if (got.paper, got.flip, got.back_offset) != (paper, flip, want):
                found.append(f"settings read back {got} for {paper}, {flip}, {want}")
            starter(folder)
            code, o, err, seconds = run_cli(["validate"], folder)
            runs += 1
            found += problems(code, err, seconds)
            if code != 0:
                found.append(f"validate after the settings were saved: exit {code}: {err[:200]!r}")
        return runs, found, f"{kind} {text!r}"
    if kind == "new":
        name = rng.choice(YAML_WORDS)
        code, o, err, seconds = run_cli(["new", "deck", name], folder)
        runs += 1
        found += problems(code, err, seconds)
        if code == 0:
            code, o, err, seconds = run_cli(["validate", f"{name}.yaml"], folder)
            runs += 1
            found += problems(code, err, seconds)
            if code != 0:
                found.append(f"a new deck {name!r} fails validate: {err[:200]!r}")
        elif code != 2 or os.listdir(folder):
            found.append(f"new deck {name!r} refused (exit {code}) but something written")
        return runs, found, f"new deck {name!r}"
    blocker = rng.choice(["decks", "boards", "icons"])
    how = rng.choice(["file", "link"])
    if how == "file":
        (folder / blocker).write_text("x")
    else:
        os.symlink("/nonexistent", folder / blocker)
    command = ["new", "deck", "mine"] if blocker == "icons" else ["copy", rng.choice(["sorry", "continuo"])]
    needed = blocker != "boards" or command[-1] == "sorry"          # Continuo's specs are all in decks/
    code, o, err, seconds = run_cli(command, folder)
    runs += 1
    found += problems(code, err, seconds)
    if needed and (code != 2 or sorted(os.listdir(folder)) != [blocker]):
        found.append(f"{' '.join(command)} with a {how} named {blocker}: exit {code}, {sorted(os.listdir(folder))}")
    if not needed and code != 0:
        found.append(f"{' '.join(command)} refused for a {how} named {blocker} it does not write into: {err[:200]!r}")
    return runs, found, f"{' '.join(command)} with a {how} named {blocker}"


FAMILIES = {"hostile text": hostile_text, "spreadsheet exports": spreadsheet_export, "own folders": own_folder,
            "settings, new and copy": settings_new_copy}


def campaign(family: str, work: Path, cases: int, seed: str, report=print) -> tuple[int, int]:
    """Run `cases` cases of one family: (runs, problems), each problem reported as one line."""
    make = FAMILIES[family]
    rng = random.Random(f"{seed}:{family}")
    runs = found = 0
    for i in range(cases):
        n, problems_found, what = make(work, rng, i)
        runs += n
        for problem in problems_found:
            found += 1
            report(f"  PROBLEM {family} case {i} ({what}): {problem}")
    return runs, found
