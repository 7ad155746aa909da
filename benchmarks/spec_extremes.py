"""Specs at the extremes of their schema's bounds: does `pnp validate` stay within the targets?

For every shipped spec, every number it holds is set, one at a time, to each extreme its schema
allows (a length at its least and its most, a count at its most, 0 and the least above 0 where
both are allowed); then every number of the spec at once to its least, and at once to its most.
Each case is `python -m generator validate SPEC` in a fresh copy of the specs, timed (wall, and
the CPU time of the command and its workers together), with the peak resident memory of the
largest of its processes. The targets (README "What bad input gets"): every case answers (exit 0
or 1, one line per error) in under 10 s and under 1 GB. This 2-core machine is shared, and its
wall times swing two- or threefold with the load (printed): a case is held to 10 s of CPU time,
which on an idle machine bounds its wall time (the command's processes only compute). Prints
every case over a third of a target, the worst ten, and the counts; exit 1 if any case misses.

    .venv/bin/python benchmarks/spec_extremes.py [SPEC...] [--limit-gb G] [--timeout S]

A field inside a list is tried at its first item only (the Capitals deck's 117 countries would
make 2,000 cases of one); the all-at-once cases set every item. Then the worst cases found by hand
(worst_cases below): the largest Cubes kit (26 x 26 cells, 200 cubes a setup), land polygons at
their limits (100,000 points; 5,000 polygons) and past them (the scribbles of issue 24), the
thinnest shoe, the most wall pieces, a deck of 2,000 cards, a deck's spreadsheets at their bounds.
Before them, each refusal of tests/test_bounds.py's floors (tests/fuzzing.py FLOOR_CASES), timed here
rather than in the test.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from fuzzing import FLOOR_CASES, extremes, number_fields, problems, with_numbers  # noqa: E402

TARGET_S, TARGET_MB = 10.0, 1024


def run_validate(project: Path, spec: str, limit_gb: float, timeout: float) -> tuple[int, float, float, float, str]:
    """(exit code, wall seconds, CPU seconds, peak MB of the largest process, stderr) of one
    validate, in a process whose address space is capped (a case that would take the machine's
    memory is stopped)."""
    def cap():
        limit = int(limit_gb * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    start = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "generator", "validate", spec], cwd=project,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=cap,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    err: list[bytes] = []
    reader = threading.Thread(target=lambda: err.append(p.stderr.read()))
    reader.start()
    late = threading.Timer(timeout, p.kill)
    late.start()
    # wait4: this process's own rusage, where ru_maxrss is the largest of it and of the children
    # it reaped (the workers), so each case is measured alone.
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - start
    late.cancel()
    reader.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    text = b"".join(err).decode("utf-8", "replace")
    cpu = usage.ru_utime + usage.ru_stime
    if seconds >= timeout:
        return -9, seconds, cpu, usage.ru_maxrss / 1024, f"did not answer in {timeout:g} s"
    return p.returncode, seconds, cpu, usage.ru_maxrss / 1024, text


def cases(data: dict, kind: str) -> list[tuple[str, list]]:
    """(what, [(path, value)...]) for one spec."""
    fields = number_fields(data, kind)
    out, seen = [], set()
    for path, bounds in fields:
        shape = tuple("*" if isinstance(p, int) else p for p in path)
        if shape in seen:
            continue
        seen.add(shape)
        for value in extremes(bounds):
            out.append((f"{'.'.join(map(str, path))} = {value:g}", [(path, value)]))
    out.append(("every number at its least", [(p, extremes(b)[0]) for p, b in fields]))
    out.append(("every number at its most", [(p, extremes(b)[-1]) for p, b in fields]))
    out.append(("every number at its least above 0", [(p, extremes(b)[1] if len(extremes(b)) > 2 else extremes(b)[0])
                                                      for p, b in fields]))
    return out


def _shifted(block: str, k: int) -> str:
    """A Cubes setup's cells moved k columns and k rows (the start square of a larger grid)."""
    return re.sub(r"\b([a-z])([1-9][0-9]?)\b", lambda m: chr(ord(m.group(1)) + k) + str(int(m.group(2)) + k), block)


def _land(project: Path, polygons: list) -> None:
    path = project / "boards" / "data" / "ne_110m_land.json"
    data = json.loads((ROOT / "boards" / "data" / "ne_110m_land.json").read_text())
    data["polygons"] = polygons
    path.write_text(json.dumps(data))


def worst_cases() -> list[tuple[str, str, object]]:
    """(spec, what, make(project) -> None): the heaviest specs within the bounds found by hand, and
    the land files of issue 24 (each is written into the project copy, which is then restored)."""
    rng = random.Random(24)
    shipped = json.loads((ROOT / "boards" / "data" / "ne_110m_land.json").read_text())["polygons"]

    def scribble(n):
        return [[[round(rng.uniform(-180, 180), 4), round(rng.uniform(-90, 90), 4)] for _ in range(n)]]

    def cubes(project):
        text = with_numbers((ROOT / "boards/cubes_kit.yaml").read_text(), {
            ("grid",): 26, ("four_player", "grid"): 25, ("cube", "size"): 40, ("players", "cubes"): 200,
            ("four_player", "players", "cubes"): 200, ("laser", "sheet", 0): 2000, ("laser", "sheet", 1): 2000})
        head, _, setup = text.partition("\nsetup:")
        two, _, four = setup.partition("  four_player:")
        (project / "boards/cubes_kit.yaml").write_text(head + "\nsetup:" + _shifted(two, 8) + "  four_player:" +
                                                       _shifted(four, 7))

    def small_polygons(project):      # 5,000 polygons of 20 points: 100,000 points
        _land(project, [[[[round(-104 + (k // 100) * 5.5 + 0.4 * math.cos(t * math.pi / 10), 5),
                            round(-54 + (k % 100) * 1.2 + 0.4 * math.sin(t * math.pi / 10), 5)] for t in range(20)]]
                        for k in range(5000)])

    def one_long_coast(project):      # 4,999 triangles and a coast of 85,000 points
        coast = [[round(-179 + 358 * t / 85000, 6), round(80 + 2 * math.sin(t * 0.7) + 1.5 * math.sin(t * 0.013), 6)]
                 for t in range(85000)] + [[179, 89.5], [-179, 89.5]]
        _land(project, [[[[-104 + (k // 100) * 5.5, -54 + (k % 100) * 1.2], [-103.7 + (k // 100) * 5.5, -54 + (k % 100) * 1.2],
                          [-104 + (k // 100) * 5.5, -53.7 + (k % 100) * 1.2]]] for k in range(4999)] + [[coast]])

    def shoe(project):                # the thinnest material whose fingers are 1 mm; the finest hinge
        (project / "boards/mille_bornes_shoe.yaml").write_text(with_numbers(
            (ROOT / "boards/mille_bornes_shoe.yaml").read_text(),
            {("material", "thickness"): 0.45, ("hinge", "pitch"): 0.5, ("laser", "kerf"): 0, ("hinge", "bridge"): 0.1,
             ("hinge", "margin"): 0.1}))

    def walls(project):               # 1,000 wall pieces: the spares make up the 877 past one a card
        text = (ROOT / "boards/capitals_walls.yaml").read_text()
        spares = "spares:\n" + "".join(f"  - {{units: {1 + k % 8}, count: {n}}}\n"
                                        for k, n in enumerate([20] * 43 + [17]))
        (project / "boards/capitals_walls.yaml").write_text(re.sub(r"(?ms)^spares:\n(  - .*?\n)+", spares, text))

    def deck(project):                # 1,000 cards of 19 kinds, in a tuck box of the thinnest card
        text = re.sub(r"count: \d+", "count: 50", (ROOT / "decks/mille_bornes.yaml").read_text())
        text = text.replace("count: 50", "count: 100", 1)
        text = re.sub(r"(?m)^expected_total: \d+", "expected_total: 1000", text)
        text = text.replace("caliper: 0.30", "caliper: 0.05").replace("sheet: [305, 305]", "sheet: [600, 600]")
        (project / "decks/mille_bornes.yaml").write_text(text)

    def floor_case(spec, old, new):   # tests/test_bounds.py's refusals, timed here
        def make(project):
            text = (ROOT / spec).read_text()
            for o, n in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,)))):
                text = text.replace(o, n, 1)
            (project / spec).write_text(text)
        return make

    floors = [(spec, f"refused: {where} {says[:60]}", floor_case(spec, old, new))
              for spec, old, new, where, says in FLOOR_CASES]
    return floors + [("boards/cubes_kit.yaml", "26 x 26 cells, 200 cubes a setup, 40 mm cubes on 2 m sheets", cubes),
            ("boards/capitals_world_map.yaml", "land of 5,000 polygons of 20 points", small_polygons),
            ("boards/capitals_world_map.yaml", "land of 4,999 triangles and one coast of 85,000 points",
             one_long_coast),
            ("boards/capitals_world_map.yaml", "the shipped land and 5,000 random points (issue 24)",
             lambda p: _land(p, shipped + [scribble(5000)])),
            ("boards/capitals_world_map.yaml", "the shipped land and 20,000 random points (issue 24)",
             lambda p: _land(p, shipped + [scribble(20000)])),
            ("boards/capitals_world_map.yaml", "95,000 random points as one polygon",
             lambda p: _land(p, shipped + [scribble(95000)])),
            ("boards/capitals_world_map.yaml", "33,000 random triangles (99,000 points; too many polygons)",
             lambda p: _land(p, [scribble(3) for _ in range(33000)])),
            ("boards/capitals_world_map.yaml", "4,999 random triangles across the map",
             lambda p: _land(p, [scribble(3) for _ in range(4999)])),
            ("boards/mille_bornes_shoe.yaml", "0.4 mm material (1 mm fingers), slits 0.5 mm apart, no kerf", shoe),
            ("boards/capitals_walls.yaml", "1,000 wall pieces", walls),
            ("decks/mille_bornes.yaml", "1,000 cards of 19 kinds", deck)] + deck_worst_cases()


def _deck_spec(project: Path, name: str, body: str, rows: list[list[str]] | None = None,
               header=("name", "text")) -> None:
    """A deck of the user's own, decks/NAME.yaml (its CSV beside it), kind: deck."""
    import csv
    folder = project / "decks"
    if rows is not None:
        with open(folder / f"{name}.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)
    (folder / f"{name}.yaml").write_text(body, encoding="utf-8")


LOREM = ("lorem ipsum **dolor** sit amet, *consectetur* adipiscing elit, sed do eiusmod tempor incididunt ut "
         "labore et dolore magna aliqua").split()
SCRIPTS = ["שלום עולם זה טקסט בעברית", "مرحبا بالعالم هذا نص عربي طويل", "日本語の漢字文字列一二三四五六七八九十",
           "Ελληνικά κείμενο", "Кириллица текст", "plain latin text"]


def deck_worst_cases() -> list[tuple[str, str, object]]:
    """A deck of the user's own at its bounds (issue 32): the most text a deck sets (500,000
    characters: 125 distinct cards of 4,000, in Latin with bold and italic, and in Hebrew, Arabic
    and CJK, shaped; in Hebrew and Arabic with a style changing inside every word), the most picture bytes (256 MB of incompressible PNGs, one of 40 million
    pixels), the most SVG work (30,000 elements and path points: an SVG of 20,000 path points and
    one of 10,000; one of 20,000 elements and one of 10,000)."""
    rng = random.Random(32)
    big_box = ("card: {width: 150, height: 200, bleed: 3}\ntuck_box: false\n")

    def text(n: int, words: list[str]) -> str:
        """Whole words (their markup closed) up to n characters."""
        out, length = [], -1
        while True:
            word = rng.choice(words)
            if length + 1 + len(word) > n:
                return " ".join(out)
            out.append(word)
            length += 1 + len(word)

    def latin(project):
        rows = [[f"card {i}", text(4000 - 6, LOREM) + f" {i:05d}"] for i in range(125)]
        _deck_spec(project, "own_text", "kind: deck\ntitle: Text\n" + big_box + "csv: own_text.csv\nlayouts:\n"
                   "  face:\n    elements:\n      - {type: text, x: 5, y: 5, w: 140, h: 190, text: \"{text}\", size: 12}\n"
                   "  back: {background: \"#223344\"}\n", rows)

    def scripts(project):
        for f in ("dejavu-hebrew-arabic.ttf", "droid-cjk-subset.ttf"):
            shutil.copy(ROOT / "tests" / "fonts" / f, project / "decks" / f)
        rows = [[f"card {i}", text(4000, SCRIPTS[i % 3].split()) if i % 3 < 2 else
                 "".join(rng.choice(SCRIPTS[2]) for _ in range(4000)), ("hebar", "hebar", "cjk")[i % 3]]
                for i in range(125)]      # (random words, CJK without spaces: no two cards alike)
        _deck_spec(project, "own_scripts", "kind: deck\ntitle: Scripts\n" + big_box +
                   "fonts:\n  hebar: {regular: dejavu-hebrew-arabic.ttf}\n  cjk: {regular: droid-cjk-subset.ttf}\n"
                   "csv: own_scripts.csv\nlayout: \"face_{font}\"\nlayouts:\n" +
                   "".join(f"  face_{f}:\n    elements:\n      - {{type: text, x: 5, y: 5, w: 140, h: 190, text: "
                           f"\"{{text}}\", size: 12, font: {f}, align: right}}\n" for f in ("hebar", "cjk")) +
                   "  back: {background: \"#223344\"}\n", rows, header=("name", "text", "font"))

    def styled_scripts(project):
        """Hebrew and Arabic, a style changing inside every word (each piece shaped with the word
        around it) and set from the paragraph's start (its direction found): the most pieces."""
        shutil.copy(ROOT / "tests" / "fonts" / "dejavu-hebrew-arabic.ttf", project / "decks")

        def styled(word: str) -> str:
            k = rng.randrange(1, len(word)) if len(word) > 1 else 1
            return f"{word[:k]}**{word[k:]}**" if k < len(word) else f"*{word}*"
        words = [styled(w) for line in SCRIPTS[:2] for w in line.split() for _ in range(3)]
        rows = [[f"card {i}", text(4000, words)] for i in range(125)]
        _deck_spec(project, "own_styled", "kind: deck\ntitle: Styled\n" + big_box +
                   "fonts:\n  hebar: {regular: dejavu-hebrew-arabic.ttf}\ncsv: own_styled.csv\nlayouts:\n  face:\n"
                   "    elements:\n      - {type: text, x: 5, y: 5, w: 140, h: 190, text: \"{text}\", size: 12, "
                   "font: hebar}\n  back: {background: \"#223344\"}\n", rows)

    def pictures(project):
        import numpy as np
        from PIL import Image
        art = project / "decks" / "art"
        art.mkdir(exist_ok=True)
        noise = np.random.default_rng(32)
        for k in range(31):       # 31 of about 8 MB, and one of 40 million pixels: under 256 MB
            Image.fromarray(noise.integers(0, 256, (1600, 1700, 3), dtype=np.uint8)).save(art / f"p{k}.png",
                                                                                          compress_level=1)
        Image.new("RGB", (8000, 5000), (200, 80, 40)).save(art / "huge.png")
        rows = [[f"card {k}", f"art/p{k}.png"] for k in range(31)] + [["huge", "art/huge.png"]]
        _deck_spec(project, "own_pictures", "kind: deck\ntitle: Pictures\n" + big_box + "csv: own_pictures.csv\n"
                   "layouts:\n  face:\n    elements:\n      - {type: image, x: 0, y: 0, w: 150, h: 200, file: \"{file}\", "
                   "fit: cover}\n  back: {background: \"#223344\"}\n", rows, header=("name", "file"))

    def svgs(project, kind: str):
        for k, n in enumerate((19_990, 9_990)):
            if kind == "points":
                pts = " ".join(f"{rng.uniform(0, 100):.2f},{rng.uniform(0, 100):.2f}" for _ in range(n))
                body = f'<path d="M50,50 {pts} Z" fill="#a33"/>'
            else:
                body = "".join(f'<rect x="{rng.uniform(0, 95):.1f}" y="{rng.uniform(0, 95):.1f}" width="4" height="4" '
                               f'fill="#{rng.randrange(1 << 24):06x}"/>' for _ in range(n - 10))
            (project / "decks" / f"s{k}.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" '
                                                         f'viewBox="0 0 100 100">{body}</svg>')
        rows = [[f"card {i}", f"s{i % 2}.svg"] for i in range(2000)]
        _deck_spec(project, "own_svgs", "kind: deck\ntitle: SVGs\ncard: {width: 63, height: 88, bleed: 3}\n"
                   "tuck_box: false\nicons: {a: s0.svg, b: s1.svg}\ncsv: own_svgs.csv\nlayouts:\n  face:\n"
                   "    elements:\n      - {type: image, x: 0, y: 0, w: 63, h: 60, file: \"{file}\"}\n"
                   "      - {type: text, x: 3, y: 62, w: 57, h: 20, text: \"{name} :a: :b:\"}\n"
                   "  back: {background: \"#223344\"}\n", rows, header=("name", "file"))

    return [("decks/own_text.yaml", "a deck's most text: 125 cards of 4,000 characters (Latin, bold, italic)", latin),
            ("decks/own_scripts.yaml", "a deck's most text in Hebrew, Arabic and CJK: 125 cards of 4,000", scripts),
            ("decks/own_styled.yaml", "a deck's most text in Hebrew and Arabic, a style changing inside every word",
             styled_scripts),
            ("decks/own_pictures.yaml", "a deck's most pictures: 31 PNGs of 8 MB and one of 40 million pixels",
             pictures),
            ("decks/own_svgs.yaml", "a deck's most SVG: of 20,000 and 10,000 path points, 2,000 cards",
             lambda p: svgs(p, "points")),
            ("decks/own_svgs.yaml", "a deck's most SVG: of 20,000 and 10,000 elements, 2,000 cards",
             lambda p: svgs(p, "elements"))] + sheet_worst_cases()


def sheet_worst_cases() -> list[tuple[str, str, object]]:
    """A deck's spreadsheet at its bounds (issue 38): 2,000 rows of 64 columns of numbers and dates,
    each with its number format; shared strings and an ODS's content at the bound of their XML tags
    (generator/games/deck/sheets.py MAX_PART_TAGS); one cell at XFD1048576."""
    import datetime as dt
    import zipfile
    body = ("card: {width: 63, height: 88, bleed: 3}\ntuck_box: false\nlayouts:\n  face:\n    elements:\n"
            "      - {type: text, x: 3, y: 3, w: 57, h: 20, text: \"{c0} {c1} {c2}\"}\n  back: {background: \"#223344\"}\n")

    def xlsx(project, name, rows, formats=(), change=None):
        import openpyxl
        book = openpyxl.Workbook()
        sheet = book.active
        for row in rows:
            sheet.append(row)
        for column, fmt in formats:
            for cell in sheet[column][1:]:
                cell.number_format = fmt
        path = project / "decks" / f"{name}.xlsx"
        book.save(path)
        if change:
            with zipfile.ZipFile(path) as z:
                parts = {i.filename: z.read(i.filename) for i in z.infolist()}
            change(parts)
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
                for part, data in parts.items():
                    z.writestr(part, data)
        (project / "decks" / f"{name}.yaml").write_text(f"kind: deck\ntitle: {name}\ndata: {name}.xlsx\n" + body)

    def full(project):
        rows = [[f"c{k}" for k in range(64)]] + [[k, k * 1.5, dt.datetime(2024, 1, 1) + dt.timedelta(days=k)] +
                                                  [k * 0.01] * 61 for k in range(2000)]
        xlsx(project, "own_sheet", rows, [("A", "#,##0"), ("B", '"$"#,##0.00'), ("C", "d mmm yyyy"), ("D", "0.0%")])

    def shared(project):
        def change(parts):
            parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
                b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
                b'officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
            parts["xl/sharedStrings.xml"] = (b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                                             + b"<si><t>a</t></si>" * 149_000 + b"</sst>")
        xlsx(project, "own_shared", [["c0", "c1", "c2"], ["a", "b", "c"]], change=change)

    def far(project):
        def change(parts):
            sheet = "xl/worksheets/sheet1.xml"
            parts[sheet] = parts[sheet].replace(b"</sheetData>", b'<row r="1048576"><c r="XFD1048576" t="inlineStr">'
                                                                 b"<is><t>far</t></is></c></row></sheetData>")
        xlsx(project, "own_far", [["c0", "c1", "c2"], ["a", "b", "c"]], change=change)

    def ods(project):
        rows = ("<table:table-row>" + "".join(f"<table:table-cell><text:p>c{k}</text:p></table:table-cell>"
                                              for k in range(3)) + "</table:table-row>"
                + "<table:table-row>" + "<table:table-cell/>" * 590_000 + "</table:table-row>"
                + '<table:table-row table:number-rows-repeated="1999"><table:table-cell><text:p>a</text:p>'
                  "</table:table-cell></table:table-row>")
        with zipfile.ZipFile(project / "decks" / "own_ods.ods", "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
            z.writestr("content.xml", '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:'
                       'office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:'
                       'oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet><table:table '
                       f'table:name="Cards">{rows}</table:table></office:spreadsheet></office:body>'
                       "</office:document-content>")
        (project / "decks" / "own_ods.yaml").write_text("kind: deck\ntitle: own_ods\ndata: own_ods.ods\n" + body)

    return [("decks/own_sheet.yaml", "a spreadsheet's most: 2,000 rows of 64 formatted numbers and dates", full),
            ("decks/own_shared.yaml", "an XLSX's shared strings at the bound of their XML tags (149,000)", shared),
            ("decks/own_far.yaml", "an XLSX with one cell at XFD1048576", far),
            ("decks/own_ods.yaml", "an ODS at the bound of its tags (590,000 cells), 1,999 rows repeated", ods)]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("specs", nargs="*", help="only these specs (default every one), and no hand-made cases")
    ap.add_argument("--limit-gb", type=float, default=3.0, help="address space cap of each case (default 3)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--worst-only", action="store_true", help="only the hand-made worst cases")
    ap.add_argument("--decks-only", action="store_true", help="only the hand-made decks of the user's own")
    a = ap.parse_args()
    specs = a.specs or sorted(str(p.relative_to(ROOT)) for d in ("decks", "boards") for p in (ROOT / d).glob("*.yaml"))
    results, missed = [], []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pnp-extremes-") as tmp:
        project = Path(tmp)

        def fresh() -> None:
            for d in ("decks", "boards"):
                shutil.rmtree(project / d, ignore_errors=True)
                shutil.copytree(ROOT / d, project / d)

        def case(spec: str, what: str, always: bool = False) -> int:
            code, seconds, cpu, peak, err = run_validate(project, spec, a.limit_gb, a.timeout)
            first = err.strip().splitlines()[0][:150] if err.strip() else ""
            results.append((cpu, seconds, peak, spec, what, code, first))
            found = problems(code, err, cpu, TARGET_S)
            if peak > TARGET_MB:
                found.append(f"peak {peak:.0f} MB")
            if found:
                missed.append(f"{spec}: {what}: {'; '.join(found)} [{first}]")
            if cpu > TARGET_S / 3 or peak > TARGET_MB / 3 or found or always:
                print(f"  {spec}: {what}: exit {code}, {cpu:.1f} s CPU ({seconds:.1f} s wall, load "
                      f"{os.getloadavg()[0]:.1f}), {peak:.0f} MB  {first}", flush=True)
            return code

        fresh()
        for spec in [] if a.worst_only or a.decks_only else specs:
            original = (ROOT / spec).read_text()
            data = yaml.safe_load(original)
            codes: dict[int, int] = {}
            for what, changes in cases(data, data["kind"]):
                (project / spec).write_text(with_numbers(original, dict(changes)))
                code = case(spec, what)
                codes[code] = codes.get(code, 0) + 1
            (project / spec).write_text(original)
            mine = [r for r in results if r[3] == spec]
            print(f"{spec}: {len(mine)} cases, exit codes {dict(sorted(codes.items()))}, slowest "
                  f"{max(r[0] for r in mine):.1f} s CPU, largest {max(r[2] for r in mine):.0f} MB", flush=True)
        if not a.specs:
            print("The worst cases found by hand:")
            for spec, what, make in deck_worst_cases() if a.decks_only else worst_cases():
                make(project)
                case(spec, what, always=True)
                fresh()
    print(f"\n{len(results)} cases in {time.perf_counter() - started:.0f} s (load now {os.getloadavg()[0]:.1f}). "
          "The slowest (CPU, wall):")
    for cpu, seconds, peak, spec, what, code, first in sorted(results, reverse=True)[:10]:
        print(f"  {cpu:5.1f} s {seconds:5.1f} s {peak:6.0f} MB  exit {code}  {spec}: {what}  {first[:80]}")
    print("The largest:")
    for cpu, seconds, peak, spec, what, code, first in sorted(results, key=lambda r: -r[2])[:5]:
        print(f"  {cpu:5.1f} s {seconds:5.1f} s {peak:6.0f} MB  exit {code}  {spec}: {what}  {first[:80]}")
    print(f"{len(missed)} case(s) missed a target (under {TARGET_S:g} s of CPU, under {TARGET_MB} MB, one line "
          "per error)")
    for line in missed:
        print("  " + line)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
