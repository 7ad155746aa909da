"""A long fuzz campaign over every shipped spec and example record, and the build's manifest (the CI
one is tests/test_fuzz.py).

    .venv/bin/python benchmarks/fuzz.py [--cases N] [--seed S] [--plan]

Prints, per file, how many cases ran, their exit codes, and every problem found (a traceback, an
error line without a file reference, a file touched that should not be, a case over its time).
--plan plans every game in full (slow: drawing and nesting); without it only the quick games are.
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
    a = ap.parse_args()
    import generator.pipeline as pipeline
    if not a.plan:
        real = pipeline.run_jobs
        pipeline.run_jobs = lambda jobs, *args, **kw: real([j for j in jobs if j.game in QUICK], *args, **kw)
    work = Path(tempfile.mkdtemp(prefix="pnp-fuzz-"))
    shutil.copytree(ROOT / "decks", work / "decks")
    shutil.copytree(ROOT / "boards", work / "boards")
    total, found_any = 0, 0
    started = time.perf_counter()
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


if __name__ == "__main__":
    sys.exit(main())
