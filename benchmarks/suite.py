"""How long the test suite takes, and what this machine's speed was while it ran.

    .venv/bin/python benchmarks/suite.py [--runs N] [--quick] [--top N] [--save F] [--against F] [-- PYTEST-ARGS]

Runs the README's test command's pytest (`python -m pytest -q`, with the project's own options:
one test process per core; `--quick`: the quick subset, `-m "not slow"`) N times (default 1)
and prints, for each run, its wall time and the CPU time it used (its processes and every process
they started: builds, browsers), then the N test files (default 15) that used the
most CPU, each summed over its tests (setup and teardown included; benchmarks/cpu_by_test.py
measures them). `--save F` keeps the per-file figures as JSON; `--against F` prints a saved run's
beside this one's.

On 2 cores, a run's CPU seconds over 2 is the least wall time it could take on an idle machine.
Beside each run it times a fixed CPU loop before and after. This machine's speed wanders (it is
shared by eight engineers): the same suite took 87 s of CPU at one hour and 140 s at another, so
compare suite figures only with similar loop times.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
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


CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def new_cgroup() -> Path | None:
    """A cpuacct cgroup (v1) of this run's own, where the machine lets us make one (as root): it
    counts every process the suite starts, also those that end as init's children (a browser's
    renderers), which rusage never sees."""
    group = CPUACCT / f"pnp-suite-{os.getpid()}"
    try:
        group.mkdir()
    except OSError:
        return None
    return group


def remove_cgroup(group: Path) -> None:
    for sub in sorted(group.iterdir()):
        if sub.is_dir():
            try:
                sub.rmdir()
            except OSError:
                pass
    try:
        group.rmdir()
    except OSError:
        print(f"  (cgroup {group} left: a process of the run is still alive)")


def run_suite(pytest_args: list[str]) -> tuple[float, float, float | None, int, dict[str, float], dict[str, float]]:
    """(wall s, CPU s by rusage, CPU s by cgroup or None, exit code, CPU s by test, s each test's
    wall exceeded its CPU) of one run."""
    group = new_cgroup()
    with tempfile.TemporaryDirectory() as cpu_dir:
        env = {**os.environ, "PNP_CPU_BY_TEST": cpu_dir,
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "benchmarks"), os.environ.get("PYTHONPATH")]))}
        if group:
            env["PNP_CPU_CGROUP"] = str(group)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "cpu_by_test", *pytest_args], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        if group:
            (group / "cgroup.procs").write_text(str(p.pid))    # before it starts its test processes
        stdout, stderr = p.communicate()
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        by_test, waits = {}, {}
        for path in Path(cpu_dir).glob("*.jsonl"):
            for line in path.read_text().splitlines():
                row = json.loads(line)
                by_test[row["test"]] = row["cpu"]
                waits[row["test"]] = max(0.0, row.get("wall", row["cpu"]) - row["cpu"])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    all_cpu = None
    if group:
        all_cpu = int((group / "cpuacct.usage").read_text()) / 1e9
        remove_cgroup(group)
    summary = stdout.strip().splitlines()[-1] if stdout.strip() else stderr.strip()[-300:]
    print(f"  {summary}")
    return wall, cpu, all_cpu, p.returncode, by_test, waits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help='the quick subset (-m "not slow")')
    ap.add_argument("--top", type=int, default=15, help="how many files to list (0: all)")
    ap.add_argument("--save", type=Path, help="keep the last run's figures by file as JSON")
    ap.add_argument("--against", type=Path, help="a saved run's figures to print beside this one's")
    ap.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    args = ap.parse_args()
    pytest_args = (["-m", "not slow"] if args.quick else []) + args.pytest_args
    old = json.loads(args.against.read_text()) if args.against else None
    for k in range(args.runs):
        first = loop_seconds()
        wall, rusage_cpu, all_cpu, code, by_test, waits = run_suite(pytest_args)
        by_file: dict[str, float] = collections.Counter()
        for test, seconds in by_test.items():
            by_file[test.split("::")[0]] += seconds
        last = loop_seconds()
        cpu = all_cpu if all_cpu is not None else rusage_cpu
        print(f"run {k + 1}: {wall:.1f} s wall, {cpu:.1f} s CPU (at least {cpu / 2:.1f} s wall on 2 idle cores), "
              f"exit {code}; the fixed loop took {first:.2f} s before and {last:.2f} s after")
        print(f"  CPU of every process the run started (cgroup): "
              f"{'unmeasured (not root)' if all_cpu is None else f'{all_cpu:.1f} s'}; "
              f"of pytest and the processes it waited for (rusage): {rusage_cpu:.1f} s")
        # Time a test waited rather than computed (a sleep, a timeout, a disk): wall no core can
        # share (meaningful on a quiet machine only: under load every test waits for a core).
        waited = sorted(waits.items(), key=lambda kv: -kv[1])
        print(f"  tests' wall beyond their CPU: {sum(waits.values()):.1f} s; the most: "
              + ", ".join(f"{test.split('@')[0]} {seconds:.2f} s" for test, seconds in waited[:3]))
        if old:
            print(f"  before: {old['wall']:.1f} s wall, {old['cpu']:.1f} s CPU; loop {old['loop']:.2f} s")
        top = collections.Counter(by_file).most_common(args.top or None)
        for name, seconds in top:
            was = f"  (before {old['files'].get(name, 0):6.1f})" if old else ""
            print(f"  {seconds:6.1f} s CPU  {name}{was}")
        if args.save:
            args.save.write_text(json.dumps({"wall": wall, "cpu": cpu, "rusage_cpu": rusage_cpu, "loop": (first + last) / 2,
                                             "code": code, "files": by_file, "tests": by_test,
                                             "waits": waits}, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
