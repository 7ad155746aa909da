"""Every laser sheet of a full build: its DXF size and the time to write its SVG, DXF and PNG.

The sheets are planned as `pnp build` plans them (each game's build into a Plan); every product
that `add_sheets` adds is then written into a scratch folder, one at a time, and timed.
With --before REV the same is done with that revision's generator (taken from git into a scratch
folder and run in a child process), and both are printed side by side.
Prints its figures; asserts nothing.
Run: .venv/bin/python benchmarks/dxf.py [--before REV] [--repeat N] [--games cubes ...]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The generator measured: this worktree's, or (child process) an older revision's unpacked copy.
CODE = Path(os.environ.get("PNP_BENCH_CODE", ROOT))
sys.path.insert(0, str(CODE))


def laser_products(games: list[str]) -> list[tuple[str, object]]:
    """(name, product) for every file add_sheets adds, over every game's build plan."""
    import generator.laser.export as export
    from generator.options import BuildOptions
    from generator.games import GAMES, load_game_specs
    from generator.outputs import Plan
    from generator.pipeline import plan_game

    plan = Plan()
    names: list[str] = []
    real_add_sheets = export.add_sheets

    def add_sheets(sheets, sub_plan, stem):   # add_laser_kit imports it at call time: patchable
        before = set(sub_plan.products)
        real_add_sheets(sheets, sub_plan, stem)
        names.extend(n for n in sub_plan.products if n not in before)
    export.add_sheets = add_sheets
    try:
        for game in games or list(GAMES):
            plan_game(game, load_game_specs(game, ROOT), BuildOptions(), plan=plan)
    finally:
        export.add_sheets = real_add_sheets
    return [(n, plan.products[n]) for n in names]


def measure(games: list[str], repeat: int = 1) -> dict[str, dict]:
    """Per sheet (name without suffix): bytes and seconds (the best of `repeat` writes: the
    machine is shared) of each of its files."""
    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, product in laser_products(games):
            path = Path(tmp) / name.replace("/", "_")
            seconds = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                product.write(path)
                seconds = min(seconds, time.perf_counter() - t)
            stem, suffix = name.rsplit(".", 1)
            out.setdefault(stem, {})[suffix] = {"bytes": path.stat().st_size, "seconds": seconds}
    return out


def measure_revision(rev: str, games: list[str], repeat: int) -> dict[str, dict]:
    """The same figures for an older revision's generator, in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "generator"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        env = dict(os.environ, PNP_BENCH_CODE=tmp)
        child = subprocess.run([sys.executable, __file__, "--json", "--repeat", str(repeat),
                                *sum((["--games", g] for g in games), [])],
                               env=env, check=True, capture_output=True, text=True)
        return json.loads(child.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", metavar="REV", help="also measure this git revision, e.g. the one before a change")
    ap.add_argument("--games", action="append", default=[], help="only these games (default: all)")
    ap.add_argument("--repeat", type=int, default=1, help="write each file this many times, keep the best time")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON (used for --before)")
    a = ap.parse_args()
    after = measure(a.games, a.repeat)
    if a.json:
        print(json.dumps(after))
        return
    before = measure_revision(a.before, a.games, a.repeat) if a.before else {}

    def kb(figures, stem):
        f = figures.get(stem, {}).get("dxf")
        return f"{f['bytes'] / 1024:8.1f}" if f else " " * 8

    def ms(figures, stem, kind):
        f = figures.get(stem, {}).get(kind)
        return f"{f['seconds'] * 1000:6.0f}" if f else " " * 6
    head = f"{'sheet':52} {'DXF KB':>8}" + (f" {'before':>8}" if before else "")
    head += "  write ms: " + "".join(f"{k:>6}" for k in ("svg", "dxf", "png"))
    if before:
        head += "  before: " + "".join(f"{k:>6}" for k in ("svg", "dxf", "png"))
    print(head)
    totals = {k: [0.0, 0.0] for k in ("svg", "dxf", "png")}
    for stem in sorted(after):
        line = f"{stem:52} {kb(after, stem)}" + (f" {kb(before, stem)}" if before else "")
        line += "            " + "".join(ms(after, stem, k) for k in ("svg", "dxf", "png"))
        if before:
            line += "          " + "".join(ms(before, stem, k) for k in ("svg", "dxf", "png"))
        print(line)
        for k in totals:
            totals[k][0] += after[stem].get(k, {}).get("seconds", 0)
            totals[k][1] += before.get(stem, {}).get(k, {}).get("seconds", 0)
    sizes = [after[s]["dxf"]["bytes"] for s in after if "dxf" in after[s]]
    print(f"{len(after)} sheets; DXF total {sum(sizes) / 1024:.0f} KB, largest {max(sizes) / 1024:.0f} KB, "
          f"{sum(s > 400 * 1024 for s in sizes)} over 400 KB")
    if before:
        old = [before[s]["dxf"]["bytes"] for s in before if "dxf" in before[s]]
        print(f"before: DXF total {sum(old) / 1024:.0f} KB, largest {max(old) / 1024:.0f} KB, "
              f"{sum(s > 400 * 1024 for s in old)} over 400 KB")
    print("write time, s:    " + "  ".join(f"{k} {v[0]:.2f}" for k, v in totals.items()))
    if before:
        print("before, s:        " + "  ".join(f"{k} {v[1]:.2f}" for k, v in totals.items()))


if __name__ == "__main__":
    main()
