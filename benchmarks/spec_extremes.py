"""Specs at the extremes of their schema's bounds: does `pnp validate` stay within the targets?

For every shipped spec, every number it holds is set, one at a time, to each extreme its schema
allows (a length at its least and its most, a count at its most, 0 and the least above 0 where
both are allowed); then every number of the spec at once to its least, and at once to its most.
Each case is `python -m generator validate SPEC` in a fresh copy of the specs, timed, with the
peak resident memory of the largest of its processes (the command or one of its workers). The
targets (README "What bad input gets"): every case answers (exit 0 or 1, one line per error) in
under 10 s and under 1 GB. Prints every case over a third of either, the worst ten, and the
counts; exit 1 if any case misses a target.

    .venv/bin/python benchmarks/spec_extremes.py [SPEC...] [--limit-gb G] [--timeout S]

A field inside a list is tried at its first item only (the Capitals deck's 117 countries would
make 2,000 cases of one); the all-at-once cases set every item.
"""
from __future__ import annotations

import argparse
import os
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

from fuzzing import extremes, number_fields, problems, with_numbers  # noqa: E402

TARGET_S, TARGET_MB = 10.0, 1024


def run_validate(project: Path, spec: str, limit_gb: float, timeout: float) -> tuple[int, float, float, str]:
    """(exit code, seconds, peak MB of the largest process, stderr) of one validate, in a process
    whose address space is capped (a case that would take the machine's memory is stopped)."""
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
    if seconds >= timeout:
        return -9, seconds, usage.ru_maxrss / 1024, f"did not answer in {timeout:g} s"
    return p.returncode, seconds, usage.ru_maxrss / 1024, text


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


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("specs", nargs="*")
    ap.add_argument("--limit-gb", type=float, default=3.0, help="address space cap of each case (default 3)")
    ap.add_argument("--timeout", type=float, default=60.0)
    a = ap.parse_args()
    specs = a.specs or sorted(str(p.relative_to(ROOT)) for d in ("decks", "boards") for p in (ROOT / d).glob("*.yaml"))
    results, missed = [], []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pnp-extremes-") as tmp:
        project = Path(tmp)
        shutil.copytree(ROOT / "decks", project / "decks")
        shutil.copytree(ROOT / "boards", project / "boards")
        for spec in specs:
            original = (ROOT / spec).read_text()
            data = yaml.safe_load(original)
            codes: dict[int, int] = {}
            worst = (0.0, 0.0)
            for what, changes in cases(data, data["kind"]):
                (project / spec).write_text(with_numbers(original, dict(changes)))
                code, seconds, peak, err = run_validate(project, spec, a.limit_gb, a.timeout)
                codes[code] = codes.get(code, 0) + 1
                worst = (max(worst[0], seconds), max(worst[1], peak))
                first = err.strip().splitlines()[0][:150] if err.strip() else ""
                results.append((seconds, peak, spec, what, code, first))
                found = problems(code, err, seconds, TARGET_S)
                if peak > TARGET_MB:
                    found.append(f"peak {peak:.0f} MB")
                if found:
                    missed.append(f"{spec}: {what}: {'; '.join(found)} [{first}]")
                if seconds > TARGET_S / 3 or peak > TARGET_MB / 3 or found:
                    print(f"  {spec}: {what}: exit {code}, {seconds:.1f} s, {peak:.0f} MB  {first}", flush=True)
            (project / spec).write_text(original)
            print(f"{spec}: {sum(codes.values())} cases, exit codes {dict(sorted(codes.items()))}, "
                  f"slowest {worst[0]:.1f} s, largest {worst[1]:.0f} MB", flush=True)
    print(f"\n{len(results)} cases in {time.perf_counter() - started:.0f} s. The slowest:")
    for seconds, peak, spec, what, code, first in sorted(results, reverse=True)[:10]:
        print(f"  {seconds:5.1f} s {peak:6.0f} MB  exit {code}  {spec}: {what}  {first[:90]}")
    print("The largest:")
    for seconds, peak, spec, what, code, first in sorted(results, key=lambda r: -r[1])[:5]:
        print(f"  {seconds:5.1f} s {peak:6.0f} MB  exit {code}  {spec}: {what}  {first[:90]}")
    print(f"{len(missed)} case(s) missed a target (under {TARGET_S:g} s, under {TARGET_MB} MB, one line per error)")
    for line in missed:
        print("  " + line)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
