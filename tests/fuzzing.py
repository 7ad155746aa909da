"""Seeded mutations of YAML files, and an in-process runner of the `pnp` command line.

Used by test_fuzz.py (a fast, fixed campaign in CI) and by benchmarks/fuzz.py (a long campaign
that prints what it found). A mutation is bytes: a file that may no longer be YAML, UTF-8, or sane.
"""
from __future__ import annotations

import contextlib
import functools
import json
import math
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


PYTHON_MAPPING = re.compile(r"\{'[^']*': ")     # jsonschema's repr of a whole value, say
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
        if PYTHON_MAPPING.search(line):
            found.append(f"a Python mapping quoted in a message: {line[:200]!r}")
    if seconds > limit_s:
        found.append(f"took {seconds:.1f} s")
    return found


# ---------------------------------------------------------------- derived-size extremes
# Every number a spec holds, with the bounds its schema gives it: a spec set to the extremes of
# those bounds (every length at its least, every count at its most, and mixtures) must still be
# refused in one line or planned within the targets (README "What bad input gets": under 10 s and
# 1 GB), never run out of time or memory on what follows from the numbers.

def _schema_at(schema, key):
    """The schemas that apply to one child (a key of a mapping or an index of a list)."""
    found = []
    for node in _flat(schema):
        if isinstance(key, str):
            props = node.get("properties", {})
            if key in props:
                found.append(props[key])
            elif isinstance(node.get("additionalProperties"), dict):
                found.append(node["additionalProperties"])
        elif isinstance(node.get("items"), dict):
            found.append(node["items"])
    return found


def _flat(schema) -> list[dict]:
    """A schema and every schema it combines (allOf, anyOf, oneOf), flattened."""
    out, todo = [], [schema]
    while todo:
        node = todo.pop()
        if not isinstance(node, dict):
            continue
        out.append(node)
        for word in ("allOf", "anyOf", "oneOf"):
            todo += node.get(word, [])
    return out


def number_bounds(schemas: list) -> tuple[float, float, bool, float | None] | None:
    """(least, most, integer?, least above zero) that the schemas allow a number, or None if they
    allow none; `least above zero` is the smallest value over 0 where 0 itself is allowed and the
    values just over it are not (a length that is 0, or at least 0.01)."""
    lo, hi, integer, positive = None, None, False, None
    for node in (n for s in schemas for n in _flat(s)):
        types = node.get("type")
        types = types if isinstance(types, list) else [types] if types else []
        if "integer" in types and "number" not in types:
            integer = True
        if "minimum" in node:
            lo = max(lo, node["minimum"]) if lo is not None else node["minimum"]
        if "exclusiveMinimum" in node:
            v = node["exclusiveMinimum"]
            v = v + (1 if integer else max(abs(v) * 1e-9, 1e-9))
            lo = max(lo, v) if lo is not None else v
        if "maximum" in node:
            hi = min(hi, node["maximum"]) if hi is not None else node["maximum"]
        if "exclusiveMaximum" in node:
            v = node["exclusiveMaximum"] - (1 if integer else 1e-9)
            hi = min(hi, v) if hi is not None else v
        excluded = node.get("not", {})
        if isinstance(excluded, dict) and "exclusiveMaximum" in excluded and excluded.get("exclusiveMinimum") == 0:
            positive = excluded["exclusiveMaximum"]
    if lo is None and hi is None:
        return None
    return (lo if lo is not None else -1e9, hi if hi is not None else 1e9, integer, positive)


def number_fields(data, kind: str) -> list[tuple[tuple, tuple]]:
    """Every number in a spec's data, as (path, bounds) with bounds from number_bounds: the
    fields an extreme can be put in."""
    from generator.spec.loader import _inlined_schema
    found = []
    todo = [((), data, [_inlined_schema(kind)])]
    while todo:
        path, value, schemas = todo.pop()
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            bounds = number_bounds(schemas)
            if bounds is not None:
                found.append((path, bounds))
        elif isinstance(value, dict):
            todo += [(path + (k,), v, [c for s in schemas for c in _schema_at(s, k)]) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(path + (i,), v, [c for s in schemas for c in _schema_at(s, i)]) for i, v in enumerate(value)]
    return sorted(found, key=lambda f: [str(p) for p in f[0]])


def extremes(bounds) -> list[float]:
    """The values worth trying in a field: its least, the least above 0 where 0 is allowed, its most."""
    lo, hi, integer, positive = bounds
    values = [lo, hi] + ([positive] if positive is not None else [])
    return sorted({int(v) if integer else v for v in values})


def yaml_number(value) -> str:
    """A number as YAML 1.1 (PyYAML) reads it back as that number: 1e-09 would be text there."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    text = repr(float(value))
    mantissa, e, exponent = text.partition("e")
    if e and "." not in mantissa:
        text = f"{mantissa}.0e{exponent}"
    return text


def with_numbers(text: str, changes: dict) -> str:
    """The YAML text with the numbers at these paths ({path: value}) written over, and everything
    else as it was (comments, block scalars, anchors): a spec at an extreme is still the spec."""
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    spans = []
    for path, value in changes.items():
        node = root
        for part in path:
            if isinstance(node, yaml.MappingNode):
                node = next(v for k, v in node.value if k.value == part)
            else:
                node = node.value[part]
        spans.append((node.start_mark.index, node.end_mark.index, yaml_number(value)))
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def extreme_mutation(text: str, rng: random.Random) -> tuple[str, str]:
    """Derived-size extremes: one to four numbers of a spec set to the extremes of their schema's
    bounds (its least, its most, the least above 0), or to a value drawn between them on a log
    scale: (new text, what was done). Every result is within the schema's bounds, so every one
    must be planned or refused in one line within the targets (what follows from the numbers is
    bounded too)."""
    data = yaml.safe_load(text)
    fields = number_fields(data, data["kind"])
    if not fields:
        return text, "no numbers"
    changes = {}
    for path, bounds in rng.sample(fields, min(len(fields), rng.choice([1, 1, 2, 3, 4]))):
        lo, hi, integer, positive = bounds
        if rng.random() < 0.7:
            value = rng.choice(extremes(bounds))
        else:
            low = positive if positive is not None else lo
            if low > 0 and hi > low:
                value = math.exp(rng.uniform(math.log(low), math.log(hi)))
            else:
                value = rng.uniform(lo, hi)
            value = round(value) if integer else value
        changes[path] = value
    what = ", ".join(f"{'.'.join(map(str, p))} = {v:g}" for p, v in changes.items())
    return with_numbers(text, changes), what


def merge_mutation(text: str, rng: random.Random) -> tuple[str, str, bool]:
    """Merge keys: a flow or block mapping of the spec rewritten so that some of its own keys come
    through a merge key (`<<`), the same values, or (one case in three) with one merged value made
    non-finite: (new text, what was done, whether a value was spoiled). Unspoiled, the spec must
    mean exactly what it meant (same exit code); spoiled, it must be refused at the merge's line."""
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    maps, todo = [], [root]
    while todo:
        node = todo.pop()
        if isinstance(node, yaml.MappingNode):
            if node.flow_style and node.value and all(isinstance(k, yaml.ScalarNode) for k, _ in node.value):
                maps.append(node)
            todo += [v for _, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            todo += node.value
    if not maps:
        return text, "no flow mapping", False
    node = rng.choice(maps)
    pairs = [(k.value, text[v.start_mark.index:v.end_mark.index], v) for k, v in node.value]
    moved = rng.sample(range(len(pairs)), rng.randint(1, len(pairs)))
    spoiled = False
    numbers = [i for i in moved if isinstance(pairs[i][2], yaml.ScalarNode)
               and re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", pairs[i][1])]
    inner = []
    for i in moved:
        value = pairs[i][1]
        if numbers and i == numbers[0] and rng.random() < 1 / 3:
            value, spoiled = rng.choice([".nan", ".inf", "-.inf"]), True
        inner.append(f"{pairs[i][0]}: {value}")
    outer = [f"{k}: {v}" for j, (k, v, _) in enumerate(pairs) if j not in moved]
    if rng.random() < 0.5:
        new = "{<<: {" + ", ".join(inner) + "}" + "".join(", " + o for o in outer) + "}"
    else:   # the merged mapping in a list of one, as YAML also allows
        new = "{<<: [{" + ", ".join(inner) + "}]" + "".join(", " + o for o in outer) + "}"
    a, b = node.start_mark.index, node.end_mark.index
    return text[:a] + new + text[b:], f"merge {len(moved)} key(s) at line {node.start_mark.line + 1}" + \
        (" (one made non-finite)" if spoiled else ""), spoiled


# The fields of specs and records that name another spec, and the kind each names.
SPEC_REFERENCES = {"mille-bornes-shoe": ["deck"], "capitals-walls": ["board"], "capitals-board": ["deck", "land"],
                   "capitals-deck": ["board"], "continuo-deck": ["tiles_from"]}
RECORD_REFERENCES = {"sorry": "board", "mille-bornes": "deck", "continuo": "deck", "cubes": "kit",
                     "capitals": "board"}


def reference_targets(project: Path) -> list[str]:
    """What a reference may be pointed at in a fuzzed project: every spec (of every kind), and
    things that are no spec: the land polygons, a record, a folder, a missing file, links that
    lead nowhere or round to each other, and names that climb out of the project."""
    specs = sorted(str(p.relative_to(project)) for d in ("decks", "boards") for p in (project / d).glob("*.yaml"))
    loops = project / "boards" / "loop-a.yaml"
    if not loops.is_symlink():
        loops.symlink_to("loop-b.yaml")
        (project / "boards" / "loop-b.yaml").symlink_to("loop-a.yaml")
        (project / "boards" / "nowhere.yaml").symlink_to("no-such-file.yaml")
    return specs + ["boards/data/ne_110m_land.json", "boards/data", "boards/no-such.yaml", "boards/loop-a.yaml",
                    "boards/nowhere.yaml", "../../etc/passwd", "/proc/kmsg", "/dev/zero", ""]


def reference_mutation(text: str, spec: str, project: Path, rng: random.Random) -> tuple[str, str]:
    """Wrong-kind references: one field of a spec that names another file pointed at something
    else (reference_targets), written relative to the spec as a user would: (new text, what)."""
    import os
    data = yaml.safe_load(text)
    keys = list(SPEC_REFERENCES.get(data.get("kind"), []))
    if "uses" in data and isinstance(data["uses"], dict):
        keys += [("uses", name) for name in data["uses"]]
    if not keys:
        return text, "no reference"
    key = rng.choice(keys)
    target = rng.choice(reference_targets(project))
    rel = target if target.startswith(("/", "..")) or not target else \
        os.path.relpath(project / target, (project / spec).parent)
    path = key if isinstance(key, tuple) else (key,)
    root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    node = root
    for part in path:
        node = next(v for k, v in node.value if k.value == part)
    a, b = node.start_mark.index, node.end_mark.index
    return text[:a] + json.dumps(rel) + text[b:], f"{'.'.join(path)} -> {rel!r}"


def record_reference_mutation(text: str, game: str, project: Path, rng: random.Random) -> tuple[str, str]:
    """A record's header key that names a spec (board:, deck:, kit:) set to something else
    (reference_targets, relative to the project), or added where the record had none."""
    key = RECORD_REFERENCES[game]
    target = rng.choice(reference_targets(project))
    lines = [line for line in text.split("\n") if not line.startswith(f"{key}:")]
    at = next(i for i, line in enumerate(lines) if line.startswith("game:")) + 1
    return "\n".join(lines[:at] + [f"{key}: {json.dumps(target)}"] + lines[at:]), f"{key} -> {target!r}"


# Lengths with a physical floor, and what follows from a spec's numbers, each refused at its line:
# (spec, old text, new text (or tuples of them), where the error points, what it says).
# tests/test_bounds.py checks the refusals; benchmarks/spec_extremes.py times them.
FLOOR_CASES = [
    # The cases of issue 24: refused at the schema, at the line.
    ("boards/mille_bornes_shoe.yaml", "thickness: 3}", "thickness: 0.001}", ":23: material.thickness:",
     "expected a length in mm, from 0.1 to 2000, got 0.001"),
    ("boards/mille_bornes_shoe.yaml", "pitch: 1.6", "pitch: 0.000001", ":26: hinge.pitch:",
     "expected the slits' spacing in mm, from 0.5 to 2000, got 1e-06"),
    ("boards/cubes_kit.yaml", "cube: {name: birch plywood 3 mm, thickness: 3}",
     "cube: {name: birch plywood 3 mm, thickness: 0.000001}", ":52: materials.cube.thickness:",
     "expected a length in mm, from 0.1 to 2000, got 1e-06"),
    ("boards/cubes_kit.yaml", "laser: {kerf: 0.15,", "laser: {kerf: 0.001,", ":60: laser.kerf:",
     "expected the cut's width in mm, 0 or from 0.01 to 2, got 0.001"),
    ("boards/cubes_kit.yaml", "sheet: [600, 400]", "sheet: [600, 10]", ":60: laser.sheet[1]:",
     "expected a side of the stock sheet in mm, from 50 to 2000, got 10"),
    ("decks/sorry.yaml", "card: {width: 63,", "card: {width: 1,", ":10: card.width:",
     "expected a card's side in mm, from 20 to 2000, got 1"),
    ("boards/mille_bornes_shoe.yaml", "clearance: 3", "clearance: 0", ":20: clearance:",
     "expected a length in mm, from 0.1 to 2000, got 0"),
    # Within the schema, refused for what follows from the numbers (generator/limits.py).
    ("boards/mille_bornes_shoe.yaml", "thickness: 3}", "thickness: 0.3}", ":23: material.thickness:",
     "the joints' fingers would be 0.75 mm wide (177 along a 132.3 mm edge of 0.3 mm material): a finger is "
     "at least 1 mm wide (narrower than 1 mm it breaks off)"),
    ("boards/mille_bornes_shoe.yaml", ("thickness: 3}", "kerf: 0.15"), ("thickness: 1}", "kerf: 1.5"),
     ":23: material.thickness:",
     "a finger is at least 3 mm wide (it must be wider than twice the kerf (1.5 mm))"),
    ("boards/mille_bornes_shoe.yaml", "pitch: 1.6", "pitch: 0.6", ":26: hinge.pitch:",
     "slits 0.6 mm apart, each 0.15 mm wide, leave 0.45 mm of wood between them; at least 0.5 mm must stand"),
    ("boards/mille_bornes_shoe.yaml", "bridge: 3,", "bridge: 20,", ":26: hinge.bridge:",
     "three bridges of 20 mm leave no slit"),
    ("boards/cubes_kit.yaml", "cube: {name: birch plywood 3 mm, thickness: 3}",
     "cube: {name: birch plywood 3 mm, thickness: 0.2}", ":52: materials.cube.thickness:",
     "the joints' fingers would be 0.49 mm wide (61 along a 30 mm edge of 0.2 mm material)"),
    ("boards/cubes_kit.yaml", "recess_diameter: 13", "recess_diameter: 29", ":45: cube.recess_diameter:",
     "leaves the 30 mm ring less than 1 mm of wood each side of its hole"),
    ("boards/cubes_kit.yaml", "rails: {height: 0.5, width: 1.0,", "rails: {height: 0.5, width: 3.9,", ":49: rails.width:",
     "a peg's notches (4.2 mm: the rail and 0.3 mm) must be narrower than the peg (4 mm)"),
    # Found by the fuzz campaign: a pawn plate thicker than its pawn's neck split in two (exit 70).
    ("boards/cubes_kit.yaml", "pawn: {name: birch plywood 3 mm, thickness: 3}",
     "pawn: {name: birch plywood 3 mm, thickness: 8}", ":59: materials.pawn.thickness:",
     "a 8 mm pawn plate needs a neck of 12.6 mm round its slot, as wide as the 12 mm pawn or wider"),
    ("boards/sorry.yaml", "square: 30", "square: 200", ":15: square:",
     "the board would be 3,224 x 3,224 mm; a board is at most 2,000 mm a side"),
    ("boards/capitals_world_map.yaml", "square: 14 ", "square: 40 ", ":24: square:",
     "the board would be 2,264 x 1,037 mm; a board is at most 2,000 mm a side"),
    ("boards/capitals_walls.yaml", "{units: 8, count: 2}", "{units: 8, count: 1000}", ":21: spares:",
     "1,121 pieces in all (one a card, and the spares); a set has at most 1,000"),
    ("boards/cubes_kit.yaml", "margin: 5, spacing: 3,", "margin: 5, spacing: 2000,", ":60: laser.sheet:",
     "the parts take 252 sheets of cube; a kit takes at most 100 sheets of a material (a larger sheet?)"),
    # Found by the fuzz campaign: a shoe too large for its sheet drew every part and label (15 s)
    # before the nesting refused it; now refused from its numbers (the validate's time is the benchmark's).
    ("boards/mille_bornes_shoe.yaml", ("clearance: 3", "sheet: [600, 400]"), ("clearance: 2000", "sheet: [2000, 2000]"),
     ":28: laser.sheet:", 'part "base" (4145.1 x 2094.2 mm) does not fit a 2000 x 2000 mm sheet with 5 mm margins'),
    ("decks/capitals_1961.yaml", "card: {width: 63,", "card: {width: 30,", ":54: card.width:",
     "is 30 mm: a Capitals card is at least 40 mm wide"),
]
