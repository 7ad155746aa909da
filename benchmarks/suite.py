"""How long the test suite takes, and what this machine's speed was while it ran.

    .venv/bin/python benchmarks/suite.py [RUNS]

Runs the README's test command's pytest (`python -m pytest -q`, with the project's own options:
one test process per core) RUNS times (default 1) and prints, for each run, its wall time and the
CPU time it used (its processes and every process they started and waited for: builds, browsers),
then the ten test files that took longest (summed over their tests, setup included).

Beside each run it times a fixed CPU loop before and after. This machine's speed wanders: the same
suite took 87 s of CPU at one hour and 140 s at another, so a wall time means little without it;
compare suite figures only with similar loop times.
"""
from __future__ import annotations

import collections
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOOP = "sum(range(50_000_000))"


def loop_seconds() -> float:
    """CPU seconds of a fixed loop in a fresh Python: the machine's speed at this moment."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", LOOP], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime


def run_suite() -> tuple[float, float, int, dict[str, float]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "--durations=0"], cwd=ROOT,
                       capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    by_file: dict[str, float] = collections.Counter()
    for line in r.stdout.splitlines():
        m = re.match(r"([\d.]+)s (?:setup|call|teardown)\s+(\S+?)::", line)
        if m:
            by_file[m.group(2)] += float(m.group(1))
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr.strip()[-300:]
    print(f"  {summary}")
    return wall, cpu, r.returncode, by_file


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    for k in range(runs):
        first = loop_seconds()
        wall, cpu, code, by_file = run_suite()
        last = loop_seconds()
        print(f"run {k + 1}: {wall:.1f} s wall, {cpu:.1f} s CPU, exit {code}; "
              f"the fixed loop took {first:.2f} s before and {last:.2f} s after")
        for name, seconds in collections.Counter(by_file).most_common(10):
            print(f"  {seconds:6.1f} s  {name}")


if __name__ == "__main__":
    main()
