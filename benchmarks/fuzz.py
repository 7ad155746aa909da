"""A long fuzz campaign over every shipped spec and example record, and the build's manifest (the CI
one is tests/test_fuzz.py).

    .venv/bin/python benchmarks/fuzz.py [--cases N] [--seed S] [--plan] [--family NAME ...]
                                        [--world-cases N] [--concurrent-cases N]

Prints, per file, how many cases ran, their exit codes, and every problem found (a traceback, an
error line without a file reference, a file touched that should not be, a case over its time).
--plan plans every game in full (slow: drawing and nesting); without it only the quick games are.

The mutations include a deck of one's own (tests/decks/delve.yaml and its CSV, mutated as a
spreadsheet's export may be), validated, and with --plan built every fifth case.

--family runs only the families named (repeatable; default all): `mutations` (the campaign above),
and those of issue 24: "derived-size extremes" (numbers at their schema's bounds, always planned
in full, each case under 10 s), "merge keys" (a spec's own keys behind `<<`: the same meaning, or
refused at the merge when a merged value is made non-finite), "wrong-kind references" (a spec's or
a record's reference pointed at every kind of spec, and at what is no spec), `world` (locales and
closed streams: a command in its own process with standard streams closed, an encoding that
cannot carry the names it prints, odd SOURCE_DATE_EPOCH, HOME, TMPDIR, umask; --world-cases) and
`concurrent` (two or three builds into one folder at once, some killed; --concurrent-cases): the
last two are tests/fuzzing_world.py's, run by campaign_world and campaign_concurrent below.
Issue 32's open-tool families are tests/fuzzing_open.py's (--open-cases N cases each): "hostile
text" (control, bidi and separator characters, and letters of every script, in a spec's values,
keys and CSV cells), "spreadsheet exports" (, ; tab | with and without csv_delimiter, UTF-8 with
and without a BOM, Windows' and the Mac's code pages, UTF-16, CRLF, count columns by other names), "own folders" (file names that fold to one, decks named like a
game's spec, records mixed in) and "settings, new and copy".
Issue 32's families of a deck's own files are tests/fuzzing_scripts.py's (--cases N each): `pictures`
(every PNG colour type and bit depth; JPEG grey, RGB and CMYK, progressive, optimised, each chroma
subsampling, restart markers, ICC profile, EXIF orientation, motion photo; some damaged), `fonts`
(every OS/2 fsType, some damaged), `scripts` (text in Latin, Greek, Cyrillic, Hebrew, Arabic, CJK
and emoji on a card, a style changing inside a word, any align; as a deck's title and as a card's
name).

Issue 32's campaign, all seven of its families (as run for its closing note):

    nice -n 10 .venv/bin/python benchmarks/fuzz.py --family "hostile text" --family "spreadsheet exports" \
        --family "own folders" --family "settings, new and copy" --family pictures --family fonts \
        --family scripts --open-cases N --cases N --seed S
"""
from __future__ import annotations

import argparse
import collections
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from fuzzing import (RECORD_REFERENCES, extreme_mutation, merge_mutation, mutate, mutate_csv, problems,  # noqa: E402
                     record_reference_mutation, reference_mutation, run_cli)

QUICK = {"continuo", "count-continuo", "sorry"}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", default="2026")
    ap.add_argument("--plan", action="store_true")
    ap.add_argument("--family", action="append", help="run only these families (repeatable)")
    ap.add_argument("--world-cases", type=int, default=800)
    ap.add_argument("--concurrent-cases", type=int, default=50)
    ap.add_argument("--open-cases", type=int, default=300)
    a = ap.parse_args()
    wanted = set(a.family or [])
    known = {"mutations", *NEW_FAMILIES, *WORLD_FAMILIES, *OPEN_FAMILIES}
    unknown = wanted - known
    if unknown:
        sys.exit(f"unknown famil{'ies' if len(unknown) > 1 else 'y'}: {', '.join(sorted(unknown))}; known: "
                 f"{', '.join(sorted(known))}")
    total, found_any = 0, 0
    started = time.perf_counter()
    for family, campaign in WORLD_FAMILIES.items():
        if not wanted or family in wanted:
            runs, found = campaign(a)
            total, found_any = total + runs, found_any + found
    for family in OPEN_FAMILIES:
        if not wanted or family in wanted:
            runs, found = campaign_open(family, a)
            total, found_any = total + runs, found_any + found
    if wanted and not wanted & {"mutations", *NEW_FAMILIES}:
        print(f"{total} runs in {time.perf_counter() - started:.0f} s; {found_any} problems")
        return 1 if found_any else 0
    import generator.pipeline as pipeline
    real_run_jobs = pipeline.run_jobs
    if not a.plan:
        real = pipeline.run_jobs
        pipeline.run_jobs = lambda jobs, *args, **kw: real([j for j in jobs if j.game in QUICK], *args, **kw)
    work = Path(tempfile.mkdtemp(prefix="pnp-fuzz-"))
    shutil.copytree(ROOT / "decks", work / "decks")
    shutil.copytree(ROOT / "boards", work / "boards")
    targets = [("spec", p.relative_to(ROOT)) for d in ("decks", "boards") for p in sorted((ROOT / d).glob("*.yaml"))]
    targets += [("record", p) for p in sorted((ROOT / "tests" / "records").glob("*.yaml"))]
    # The build's manifest, as a build of the quick games writes it: mutated, the next build of
    # them must still end 0 (an entry not in our form only makes its job run again).
    manifest = work / "output" / pipeline.MANIFEST
    if not wanted or "mutations" in wanted:          # (a build the other families do without)
        code, _, err, _ = run_cli(["build", *sorted(QUICK)], work)
        if code:
            sys.exit(f"the build to fuzz the manifest of failed: {err}")
        targets.append(("manifest", manifest))
    # A deck of one's own (issue 26): tests/decks' spec and its CSV, in a folder of their own, each
    # validated (and so every card drawn), and with --plan built every fifth case.
    shutil.copytree(ROOT / "tests" / "decks", work / "own")
    targets += [("deck", Path("tests/decks/delve.yaml")), ("deck", Path("tests/decks/delve.csv"))]
    for kind, rel in targets if not wanted or "mutations" in wanted else []:
        original = (ROOT / rel).read_bytes() if kind != "manifest" else manifest.read_bytes()
        rng = random.Random(f"{a.seed}:{rel}")
        codes, slowest = collections.Counter(), 0.0
        for i in range(a.cases):
            data, what = mutate(original, rng)
            if kind == "spec":
                (work / rel).write_bytes(data)
                runs = [run_cli(["validate", str(rel)], work)]
            elif kind == "deck":
                if rel.suffix == ".csv":
                    data, what = mutate_csv(original, rng)
                (work / "own" / rel.name).write_bytes(data)
                runs = [run_cli(["validate", "own/delve.yaml"], work)]
                if a.plan and i % 5 == 0 and runs[0][0] == 0:
                    runs.append(run_cli(["build", "own/delve.yaml", "--out", "own-output"], work))
            elif kind == "manifest":
                manifest.write_bytes(data)
                runs = [run_cli(["build", *sorted(QUICK)], work)]
                if runs[0][0] != 0:
                    found_any += 1
                    print(f"  PROBLEM manifest case {i} ({what}): exit code {runs[0][0]}: {runs[0][2][:300]}")
            else:
                game = yaml.safe_load(original)["game"]
                path = work / f"case-{rel.name}"
                path.write_bytes(data)
                runs = [run_cli(["referee", game, "score", str(path), "--json"], work),
                        run_cli(["referee", game, "play", "--journal", str(path)], work, stdin="undo\nquit\n")]
            for code, _, err, seconds in runs:
                total += 1
                codes[code] += 1
                slowest = max(slowest, seconds)
                for problem in problems(code, err, seconds):
                    found_any += 1
                    print(f"  PROBLEM {rel} case {i} ({what}): {problem}")
        if kind == "spec":
            (work / rel).write_bytes(original)
        if kind == "deck":
            (work / "own" / rel.name).write_bytes(original)
        print(f"{rel}: {sum(codes.values())} runs, exit codes {dict(sorted(codes.items()))}, slowest {slowest:.2f} s")
    for name, family in NEW_FAMILIES.items():
        if not wanted or name in wanted:
            runs, found = family(work, a.cases, a.seed, pipeline, real_run_jobs)
            total += runs
            found_any += found
    print(f"{total} runs in {time.perf_counter() - started:.0f} s; {found_any} problems")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if found_any else 0


# ---------------------------------------------------------------- the world around the command (issue 24)

def campaign_world(a) -> tuple[int, int]:
    """The "world" family: locales and closed streams. (runs, problems)"""
    from fuzzing_world import run_world_case, world_case, world_project
    work = world_project(Path(tempfile.mkdtemp(prefix="pnp-fuzz-world-")))
    rng = random.Random(f"{a.seed}:world")
    codes, by_encoding, closed, found_any, slowest = collections.Counter(), collections.Counter(), 0, 0, 0.0
    started = time.perf_counter()
    for i in range(a.world_cases):
        case = world_case(rng, i)
        t0 = time.perf_counter()
        code, found = run_world_case(case, work)
        slowest = max(slowest, time.perf_counter() - t0)
        codes[code] += 1
        by_encoding[case.encoding] += 1
        closed += bool(case.closed)
        for problem in found:
            found_any += 1
            print(f"  PROBLEM world case {i}: {case}: {problem}")
    print(f"world (locales and closed streams): {a.world_cases} runs in {time.perf_counter() - started:.0f} s, "
          f"exit codes {dict(sorted(codes.items()))}, {closed} with a stream closed, encodings "
          f"{dict(sorted(by_encoding.items()))}, slowest {slowest:.2f} s; {found_any} problems")
    shutil.rmtree(work, ignore_errors=True)
    return a.world_cases, found_any


def campaign_concurrent(a) -> tuple[int, int]:
    """The "concurrent" family: builds into one output folder at once. (runs, problems)"""
    from fuzzing_world import can_unshare, concurrent_case, concurrent_project, run_concurrent_case
    work = concurrent_project(Path(tempfile.mkdtemp(prefix="pnp-fuzz-concurrent-")))
    rng = random.Random(f"{a.seed}:concurrent")
    namespaces = can_unshare()
    total, found_any, fates, started = 0, 0, collections.Counter(), time.perf_counter()
    for i in range(a.concurrent_cases):
        case = concurrent_case(rng, namespaces)
        runs, found = run_concurrent_case(case, work)
        total += runs
        fates.update(p.fate + (" (own PID namespace)" if p.namespace else "") for p in case[1])
        for problem in found:
            found_any += 1
            print(f"  PROBLEM concurrent case {i}: {'fresh folder, ' if case[0] else ''}"
                  f"{[str(p) for p in case[1]]}: {problem}")
    print(f"concurrent builds into one folder: {a.concurrent_cases} cases, {total} runs in "
          f"{time.perf_counter() - started:.0f} s, builds {dict(sorted(fates.items()))}"
          f"{'' if namespaces else ' (no PID namespaces here)'}; {found_any} problems")
    shutil.rmtree(work, ignore_errors=True)
    return total, found_any


# ---------------------------------------------------------------- the open tool (issue 32)

def campaign_open(family: str, a) -> tuple[int, int]:
    """One of tests/fuzzing_open.py's families, --open-cases cases in a folder of its own."""
    from fuzzing_open import campaign
    work = Path(tempfile.mkdtemp(prefix="pnp-fuzz-open-"))
    started = time.perf_counter()
    runs, found = campaign(family, work, a.open_cases, a.seed)
    print(f"{family}: {a.open_cases} cases, {runs} runs in {time.perf_counter() - started:.0f} s; {found} problems",
          flush=True)
    shutil.rmtree(work, ignore_errors=True)
    return runs, found


# ---------------------------------------------------------------- the families of issue 24
# Each: (the project copy, cases per file, seed, the pipeline module, its own run_jobs) -> (runs,
# problems), printing a line per file and one per problem.

def _report(name: str, rel, codes: collections.Counter, slowest: float) -> None:
    print(f"{name}: {rel}: {sum(codes.values())} runs, exit codes {dict(sorted(codes.items()))}, "
          f"slowest {slowest:.2f} s")


def _specs(work: Path) -> list[Path]:
    return [p.relative_to(work) for d in ("decks", "boards") for p in sorted((work / d).glob("*.yaml"))
            if not p.is_symlink()]


def family_derived_extremes(work: Path, cases: int, seed: str, pipeline, real_run_jobs) -> tuple[int, int]:
    """Numbers at (or between, on a log scale) the extremes of their schema's bounds; every product
    planned (the work that follows from the numbers is what is under test), each case under 10 s."""
    saved, pipeline.run_jobs = pipeline.run_jobs, real_run_jobs
    runs = found = 0
    try:
        for rel in _specs(work):
            original = (work / rel).read_text()
            rng = random.Random(f"{seed}:extremes:{rel}")
            codes, slowest = collections.Counter(), 0.0
            for i in range(cases):
                text, what = extreme_mutation(original, rng)
                (work / rel).write_text(text)
                code, _, err, seconds = run_cli(["validate", str(rel)], work)
                runs += 1
                codes[code] += 1
                slowest = max(slowest, seconds)
                for problem in problems(code, err, seconds, limit_s=10.0):
                    found += 1
                    print(f"  PROBLEM derived-size extremes {rel} case {i} ({what}): {problem}")
            (work / rel).write_text(original)
            _report("derived-size extremes", rel, codes, slowest)
    finally:
        pipeline.run_jobs = saved
    return runs, found


def family_merge_keys(work: Path, cases: int, seed: str, pipeline, real_run_jobs) -> tuple[int, int]:
    """A spec's or a record's own keys moved behind a merge key: the same exit code as without;
    one merged value made non-finite: refused, exit 1 (a spec) or 2 (a record), as not finite."""
    runs = found = 0
    for rel in _specs(work) + sorted((ROOT / "tests" / "records").glob("*.yaml")):
        record = rel.is_absolute()
        original = rel.read_text() if record else (work / rel).read_text()
        rng = random.Random(f"{seed}:merge:{rel.name}")
        codes, slowest = collections.Counter(), 0.0
        for i in range(cases):
            text, what, spoiled = merge_mutation(original, rng)
            if record:
                game = yaml.safe_load(original)["game"]
                path = work / f"case-{rel.name}"
                path.write_text(text)
                code, _, err, seconds = run_cli(["referee", game, "score", str(path)], work)
                bad, good = 2, 0
            else:
                (work / rel).write_text(text)
                code, _, err, seconds = run_cli(["validate", str(rel)], work)
                bad, good = 1, 0
            runs += 1
            codes[code] += 1
            slowest = max(slowest, seconds)
            wrong = problems(code, err, seconds)
            if spoiled and (code != bad or "expected a finite number" not in err):
                wrong.append(f"a non-finite merged value not refused as such (exit {code}): {err[:200]!r}")
            if not spoiled and code != good:
                wrong.append(f"a merge changed what the file means (exit {code}): {err[:200]!r}")
            for problem in wrong:
                found += 1
                print(f"  PROBLEM merge keys {rel.name} case {i} ({what}): {problem}")
        if not record:
            (work / rel).write_text(original)
        _report("merge keys", rel.name, codes, slowest)
    return runs, found


def family_wrong_kinds(work: Path, cases: int, seed: str, pipeline, real_run_jobs) -> tuple[int, int]:
    """Each reference of each spec, and each record's board:, deck: or kit:, pointed at any spec of
    the project, the land polygons, a folder, a loop of links, a missing file, a path out."""
    import generator.paths
    runs = found = 0
    referring = [rel for rel in _specs(work) if "uses:" in (work / rel).read_text()
                 or any(f"\n{k}:" in (work / rel).read_text() for k in ("deck", "board", "tiles_from", "land"))]
    saved_root, generator.paths.project_root = generator.paths.project_root, lambda: work
    try:
        for rel in referring + sorted((ROOT / "tests" / "records").glob("*.yaml")):
            record = rel.is_absolute()
            original = rel.read_text() if record else (work / rel).read_text()
            rng = random.Random(f"{seed}:references:{rel.name}")
            codes, slowest = collections.Counter(), 0.0
            for i in range(cases):
                if record:
                    game = yaml.safe_load(original)["game"]
                    text, what = record_reference_mutation(original, game, work, rng)
                    path = work / f"case-{rel.name}"
                    path.write_text(text)
                    code, _, err, seconds = run_cli(["referee", game, "score", str(path)], work)
                    allowed = (0, 2)
                else:
                    text, what = reference_mutation(original, str(rel), work, rng)
                    (work / rel).write_text(text)
                    code, _, err, seconds = run_cli(["validate", str(rel)], work)
                    allowed = (0, 1)
                runs += 1
                codes[code] += 1
                slowest = max(slowest, seconds)
                wrong = problems(code, err, seconds)
                if code not in allowed:
                    wrong.append(f"exit {code}")
                if code and len(err.strip().splitlines()) != 1:
                    wrong.append(f"{len(err.strip().splitlines())} lines")
                for problem in wrong:
                    found += 1
                    print(f"  PROBLEM wrong-kind references {rel.name} case {i} ({what}): {problem}")
            if not record:
                (work / rel).write_text(original)
            _report("wrong-kind references", rel.name, codes, slowest)
    finally:
        generator.paths.project_root = saved_root
    return runs, found


def family_strangers(name: str):
    """A family of issue 32's pictures, fonts and scripts (tests/fuzzing_scripts.py): each case a
    deck of one's own in a folder of its own, validated (and now and then built), checked as every
    case is and for the family's own property."""
    def run(work: Path, cases: int, seed: str, pipeline, real_run_jobs) -> tuple[int, int]:
        from fuzzing_scripts import case
        saved, pipeline.run_jobs = pipeline.run_jobs, real_run_jobs
        rng = random.Random(f"{seed}:{name}")
        codes, slowest, runs, found = collections.Counter(), 0.0, 0, 0
        try:
            for i in range(cases):
                what, results, own = case(name, work / "strangers" / name, rng, run_cli)
                for code, _, err, seconds in results:
                    runs += 1
                    codes[code] += 1
                    slowest = max(slowest, seconds)
                    for problem in problems(code, err, seconds):
                        found += 1
                        print(f"  PROBLEM {name} case {i} ({what}): {problem}")
                for problem in own:
                    found += 1
                    print(f"  PROBLEM {name} case {i} ({what}): {problem}")
        finally:
            pipeline.run_jobs = saved
        _report(name, "decks of one's own", codes, slowest)
        return runs, found
    return run


NEW_FAMILIES = {"derived-size extremes": family_derived_extremes, "merge keys": family_merge_keys,
                "wrong-kind references": family_wrong_kinds, "pictures": family_strangers("pictures"),
                "fonts": family_strangers("fonts"), "scripts": family_strangers("scripts")}
assert set(RECORD_REFERENCES) <= {"sorry", "mille-bornes", "continuo", "cubes", "capitals"}
WORLD_FAMILIES = {"world": campaign_world, "concurrent": campaign_concurrent}
OPEN_FAMILIES = ("hostile text", "spreadsheet exports", "own folders", "settings, new and copy")


if __name__ == "__main__":
    sys.exit(main())
