"""A long fuzz campaign over every shipped spec and example record, and the build's manifest (the CI
one is tests/test_fuzz.py).

    .venv/bin/python benchmarks/fuzz.py [--cases N] [--seed S] [--plan] [--families F,...]
                                        [--world-cases N] [--concurrent-cases N]

Prints, per file, how many cases ran, their exit codes, and every problem found (a traceback, an
error line without a file reference, a file touched that should not be, a case over its time).
--plan plans every game in full (slow: drawing and nesting); without it only the quick games are.

--families chooses what runs (default all): `specs` (mutated specs, records and the manifest),
`world` (locales and closed streams: a command in its own process with standard streams closed,
an encoding that cannot carry the names it prints, odd SOURCE_DATE_EPOCH, HOME, TMPDIR, umask)
and `concurrent` (two or three builds into one folder at once, some killed); the last two are
tests/fuzzing_world.py's, run by campaign_world and campaign_concurrent below.
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

from fuzzing import mutate, problems, run_cli  # noqa: E402

QUICK = {"continuo", "count-continuo", "sorry"}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", default="2026")
    ap.add_argument("--plan", action="store_true")
    ap.add_argument("--families", default="specs,world,concurrent")
    ap.add_argument("--world-cases", type=int, default=800)
    ap.add_argument("--concurrent-cases", type=int, default=50)
    a = ap.parse_args()
    families = set(a.families.split(","))
    total, found_any = 0, 0
    started = time.perf_counter()
    for family, campaign in (("world", campaign_world), ("concurrent", campaign_concurrent)):
        if family in families:
            runs, found = campaign(a)
            total, found_any = total + runs, found_any + found
    if "specs" not in families:
        print(f"{total} runs in {time.perf_counter() - started:.0f} s; {found_any} problems")
        return 1 if found_any else 0
    import generator.pipeline as pipeline
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
    code, _, err, _ = run_cli(["build", *sorted(QUICK)], work)
    if code:
        sys.exit(f"the build to fuzz the manifest of failed: {err}")
    targets.append(("manifest", manifest))
    for kind, rel in targets:
        original = (ROOT / rel).read_bytes() if kind != "manifest" else manifest.read_bytes()
        rng = random.Random(f"{a.seed}:{rel}")
        codes, slowest = collections.Counter(), 0.0
        for i in range(a.cases):
            data, what = mutate(original, rng)
            if kind == "spec":
                (work / rel).write_bytes(data)
                runs = [run_cli(["validate", str(rel)], work)]
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
        print(f"{rel}: {sum(codes.values())} runs, exit codes {dict(sorted(codes.items()))}, slowest {slowest:.2f} s")
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


if __name__ == "__main__":
    sys.exit(main())
