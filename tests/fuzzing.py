"""Seeded mutations of YAML files, and an in-process runner of the `pnp` command line.

Used by test_fuzz.py (a fast, fixed campaign in CI) and by benchmarks/fuzz.py (a long campaign
that prints what it found). A mutation is bytes: a file that may no longer be YAML, UTF-8, or sane.
"""
from __future__ import annotations

import contextlib
import functools
import io
import os
import random
import re
import time
from pathlib import Path

import yaml

# Single-line texts put where a value was: type swaps, huge, tiny and non-finite numbers, strings
# that look like booleans, control and bidi characters, paths, tags, aliases to nothing, nesting.
REPLACEMENTS = [
    ".nan", ".inf", "-.inf", "1e308", "-1e308", "-1", "0", "2.5", "-0.0", "1e-300", "10000000",
    "123456789012345678901234567890", "0x7fffffff", "1_000_000", '"no"', "no", "yes", "off", "true",
    "false", "null", "~", "[]", "{}", "[1, 2, 3]", "{a: 1}", '"' + "x" * 5000 + '"',
    '"' + "\u00e9" * 300 + '"', '"\\u0085 next\\u2028line\\u202e bidi\\x1b[31m red\\x07"', '"\\0nul"',
    '"../../../../../../tmp/pnp-escape"', '"/tmp/pnp-escape"', '"/dev/zero"', '"C:\\\\x"', "*nowhere",
    "!!python/object/apply:os.system ['echo hi']", "!!binary aGk=", "!!set {a, b}", "2001-12-14",
    '"\U0001F600"', "[" * 40 + "]" * 40, "&self [*self]", '"rgb(999,0,0)"', '"nosuchcolour"', '""',
    '" "', "'#zzzzzz'", "-", "? complex\n", "!custom x", '"%s%n"', "1e400", "-1e400",
]

BOMB = "\n".join(
    [f"x{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * 9 if i else ['"lol"'] * 9) + "]" for i in range(10)])


@functools.lru_cache(maxsize=16)
def _nodes(text: str) -> tuple:
    """Every node of the document with its span (start, end index), or () if it is not YAML.
    (libyaml's composer, where installed: the same nodes and marks as PyYAML's own, and a tenth of
    the time; kept for the file that a campaign mutates case after case.)"""
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except Exception:  # noqa: BLE001  (a file already broken has no nodes to pick)
        return ()
    out, todo = [], [root] if root is not None else []
    seen = set()
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        out.append(node)
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                todo += [k, v]
        elif isinstance(node, yaml.SequenceNode):
            todo += node.value
    return tuple(out)


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One mutation of a YAML file: (new bytes, what was done)."""
    text = data.decode("utf-8")
    nodes = _nodes(text)
    op = rng.choice(["replace"] * 6 + ["delete", "scale", "truncate", "bytes", "bomb", "unknown",
                                       "deep", "huge", "nul", "duplicate", "flip"])
    if op in ("replace", "delete", "scale", "duplicate") and nodes:
        node = rng.choice(nodes[1:] or nodes)
        a, b = node.start_mark.index, node.end_mark.index
        if op == "replace":
            new = rng.choice(REPLACEMENTS)
            return (text[:a] + new + text[b:]).encode("utf-8"), f"replace {text[a:b][:30]!r} at line " \
                f"{node.start_mark.line + 1} with {new[:30]!r}"
        if op == "delete":
            return (text[:a] + text[b:]).encode("utf-8"), f"delete {text[a:b][:30]!r}"
        if op == "scale":
            ints = [n for n in nodes if isinstance(n, yaml.ScalarNode) and re.fullmatch(r"-?\d+(\.\d+)?", n.value)]
            if ints:
                node = rng.choice(ints)
                a, b = node.start_mark.index, node.end_mark.index
                factor = rng.choice(["000000", "0000", "e30", ".5", "1"])
                return (text[:a] + node.value + factor + text[b:]).encode("utf-8"), \
                    f"scale {node.value} at line {node.start_mark.line + 1} by {factor}"
        if op == "duplicate":
            seqs = [n for n in nodes if isinstance(n, yaml.SequenceNode) and n.value and n.flow_style]
            if seqs:
                node = rng.choice(seqs)
                item = node.value[-1]
                piece = text[item.start_mark.index:item.end_mark.index]
                a = item.end_mark.index
                return (text[:a] + (", " + piece) * rng.choice([1, 50, 3000]) + text[a:]).encode("utf-8"), \
                    f"duplicate an item at line {item.start_mark.line + 1}"
    if op == "truncate":
        cut = rng.randrange(len(data) + 1)
        return data[:cut], f"truncate at byte {cut}"
    if op == "bytes":
        at = rng.randrange(len(data) + 1)
        junk = rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xe2\x82", b"\x80\x80\x80"])
        return data[:at] + junk + data[at:], f"invalid UTF-8 at byte {at}"
    if op == "bomb":
        if nodes:
            node = rng.choice(nodes[1:] or nodes)
            a, b = node.start_mark.index, node.end_mark.index
            return (BOMB + "\n" + text[:a] + "*b9" + text[b:]).encode("utf-8"), "billion laughs"
        return (BOMB + "\n" + text).encode("utf-8"), "billion laughs"
    if op == "unknown":
        return (text + "\nno_such_key_anywhere: 1\n").encode("utf-8"), "unknown key"
    if op == "deep":
        depth = rng.choice([33, 200, 5000])
        return (text + "\ndeep: " + "[" * depth + "]" * depth + "\n").encode("utf-8"), f"nesting {depth}"
    if op == "huge":
        return data + b"# " + b"x" * (5 * 1024 * 1024) + b"\n", "over 5 MB"
    if op == "nul":
        at = rng.randrange(len(data) + 1)
        return data[:at] + b"\x00" + data[at:], f"NUL at byte {at}"
    # flip: a random printable character somewhere
    at = rng.randrange(max(1, len(text)))
    c = rng.choice(":-[]{}&*!|>'\"%@`#,?\t")
    return (text[:at] + c + text[at + 1:]).encode("utf-8"), f"character {c!r} at {at}"


# Cells put into a CSV: formulas (never evaluated), markup gone wrong, icons that are not, paths
# out of the folder, counts that are not, control and bidi characters, huge and empty cells.
CSV_CELLS = [
    "=1+1", "=SUM(A1:A3)", "+cmd|' /C calc'!A0", "@SUM(1)", "-2", "0", "1001", "2.5", "1e9", " 3 ", "",
    "**open", "*", "***", ":nosuch:", ":sword::coin:", "\\:", "{name}", "{", "}", "art/../../x.png", "/etc/passwd",
    "art/missing.png", "icons/sword.svg", "delve.csv", "x" * 5000, "\u202e bidi \x1b[31m red", "a\nb\nc",
    "\U0001F600 emoji", "\u00e9t\u00e9", "\x00", '"', '""', "a,b", "nan", "inf", "true", "null",
]


def mutate_csv(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One mutation of a CSV file: (new bytes, what was done)."""
    import csv
    import io as _io
    text = data.decode("utf-8")
    rows = list(csv.reader(_io.StringIO(text, newline="")))
    op = rng.choice(["cell"] * 6 + ["row", "rows", "column", "columns", "drop", "header", "quote", "bytes",
                                    "truncate", "huge", "nul", "bom", "crlf", "ragged", "delimiter"])
    def joined(rs):
        out = _io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rs)
        return out.getvalue().encode("utf-8")
    if op == "cell" and len(rows) > 1:
        r, c = rng.randrange(1, len(rows)), rng.randrange(len(rows[0]))
        new = rng.choice(CSV_CELLS)
        while len(rows[r]) <= c:
            rows[r].append("")
        rows[r][c] = new
        return joined(rows), f"cell row {r} column {c} = {new[:30]!r}"
    if op == "row" and len(rows) > 1:
        rows.insert(rng.randrange(1, len(rows) + 1), [rng.choice(CSV_CELLS) for _ in rows[0]])
        return joined(rows), "a row of odd cells"
    if op == "rows":
        n = rng.choice([50, 2100, 5000])
        return joined(rows + [rows[-1]] * n), f"{n} rows more"
    if op == "column":
        for k, row in enumerate(rows):
            row.append("extra" if k == 0 else rng.choice(CSV_CELLS))
        return joined(rows), "a column more"
    if op == "columns":
        n = rng.choice([60, 200])
        return joined([row + [f"c{i}" if k == 0 else "1" for i in range(n)] for k, row in enumerate(rows)]), \
            f"{n} columns more"
    if op == "drop" and rows:
        k = rng.randrange(len(rows[0]))
        return joined([row[:k] + row[k + 1:] for row in rows]), f"column {k} dropped"
    if op == "header" and rows:
        k = rng.randrange(len(rows[0]))
        rows[0][k] = rng.choice(["", "count", rows[0][0], "1st", "na me", "x" * 60, "\u00e9"])
        return joined(rows), f"header {k} renamed {rows[0][k][:20]!r}"
    if op == "quote":
        at = rng.randrange(len(text) + 1)
        return (text[:at] + '"' + text[at:]).encode("utf-8"), f"a quote at {at}"
    if op == "bytes":
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice([b"\xff", b"\xe9", b"\xc3\x28"]) + data[at:], f"invalid UTF-8 at byte {at}"
    if op == "truncate":
        cut = rng.randrange(len(data) + 1)
        return data[:cut], f"truncate at byte {cut}"
    if op == "huge":
        return data + b"x" * (9 * 1024 * 1024), "over 8 MB"
    if op == "nul":
        at = rng.randrange(len(data) + 1)
        return data[:at] + b"\x00" + data[at:], f"NUL at byte {at}"
    if op == "bom":
        return b"\xef\xbb\xbf" + data, "a byte-order mark"
    if op == "crlf":
        return data.replace(b"\n", b"\r\n"), "CRLF lines"
    if op == "ragged" and len(rows) > 1:
        r = rng.randrange(1, len(rows))
        rows[r] = rows[r][:rng.randrange(len(rows[r]) + 1)]
        return joined(rows), f"row {r} cut short"
    return data.replace(b",", b";"), "semicolons for commas"


def run_cli(args: list[str], cwd: Path, stdin: str = "") -> tuple[int, str, str, float]:
    """The real command line, in this process (fast): (exit code, stdout, stderr, seconds)."""
    from generator.cli import main
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    start = time.perf_counter()
    old_stdin = os.sys.stdin
    try:
        os.chdir(cwd)
        os.sys.stdin = io.StringIO(stdin)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exc:   # argparse's --help and its errors
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.sys.stdin = old_stdin
        os.chdir(here)
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - start


def tree(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under folder: (size, mtime in ns), to tell that nothing else was touched."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            found[str(p.relative_to(folder))] = (st.st_size if not p.is_dir() else 0, st.st_mtime_ns
                                                 if not p.is_dir() else 0)
    return found


FILE_REF = re.compile(r"^(pnp[\w -]*: |[^\s:][^:]*(:\d+)?: )")


def problems(code: int, err: str, seconds: float, limit_s: float = 20.0) -> list[str]:
    """What is wrong with how a command met bad input (empty when it met it well)."""
    found = []
    if code not in (0, 1, 2):
        found.append(f"exit code {code}")
    if "Traceback" in err or "internal error" in err:
        found.append("a traceback or internal error: " + err.strip().splitlines()[-1][:300])
    if code != 0 and not err.strip():
        found.append("refused without saying why")
    for line in err.splitlines():
        if not FILE_REF.match(line):
            found.append(f"a line without a file reference: {line[:200]!r}")
        if len(line) > 420:
            found.append(f"a line of {len(line)} characters")
        if any(ord(c) < 32 and c != "\t" for c in line):
            found.append("a control character in a message")
    if seconds > limit_s:
        found.append(f"took {seconds:.1f} s")
    return found
