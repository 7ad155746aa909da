"""How long a command takes to start and answer: each game's `pnp referee GAME score` on its
example record (tests/records/), `pnp validate --help`, and `pnp validate` of every spec.

    .venv/bin/python benchmarks/startup.py [RUNS]

Prints the median and the quickest of RUNS runs (default 9) of each, in a fresh process as a
user runs it. The goal for a referee and for validate's start is 0.35 s. Python's own start is
printed first, for scale. Run it once before measuring if bytecode is not cached yet (the first
run of a changed module compiles it).
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("mille-bornes", "capitals", "sorry", "continuo", "cubes")


def timed(args: list[str], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if r.returncode:
            sys.exit(f"{' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return statistics.median(times), min(times)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    cases = [("python -c pass", ["-c", "pass"])]
    cases += [(f"referee {g} score", ["-m", "generator", "referee", g, "score", f"tests/records/{g}.yaml"])
              for g in GAMES]
    cases += [("validate --help", ["-m", "generator", "validate", "--help"]),
              ("validate (every spec)", ["-m", "generator", "validate"])]
    for _, args in cases:          # once, so that bytecode is cached and files are in memory
        timed(args, 1)
    print(f"{'command':28} {'median':>8} {'quickest':>9}   ({runs} runs each)")
    for name, args in cases:
        median, quickest = timed(args, runs)
        print(f"{name:28} {median:7.3f}s {quickest:8.3f}s")


if __name__ == "__main__":
    main()
