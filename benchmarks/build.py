"""Where a full build's time goes, and how long `pnp build` takes.

    .venv/bin/python benchmarks/build.py [GAME...]

Prints the stage breakdown of a serial, in-process build of every game (or those named): parse
(YAML and schemas), check (the games' semantic checks), draw (faces, boards, parts), nest, and the
writing of each kind of file (PDF, SVG, DXF, PNG); then the wall time of `pnp build` itself, from
scratch into a new folder (RUNS times, default 5: median and quickest) and once again with nothing
changed (the incremental case). Run with bytecode cached (not under PYTHONDONTWRITEBYTECODE).
"""
from __future__ import annotations

import collections
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def staged_breakdown(games: list[str]) -> dict[str, float]:
    import generator.laser.nest as nest_module
    import generator.spec.loader as loader
    from generator.options import BuildOptions
    import generator.games as game_registry
    from generator.games import load_game_specs
    from generator.outputs import Plan
    from generator.pipeline import plan_game

    times: dict[str, float] = collections.Counter()

    def timed(stage, fn):
        def wrapper(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                times[stage] += time.perf_counter() - t
        return wrapper
    game_registry.check_spec = timed("check", game_registry.check_spec)
    loader.parse_yaml = timed("parse", loader.parse_yaml)
    loader.validate = timed("parse", loader.validate)
    real_nest = nest_module.nest
    nest_module.nest = timed("nest", real_nest)
    opts = BuildOptions(out=Path(tempfile.mkdtemp()))
    for g in games:
        specs = load_game_specs(g, ROOT)          # its parse timed as "parse", its checks as "check"
        plan = Plan()
        t = time.perf_counter()
        before = dict(times)
        plan_game(g, specs, opts, plan=plan)
        inner = sum(times[k] - before.get(k, 0) for k in ("nest", "parse"))
        times["draw"] += time.perf_counter() - t - inner
        for product in plan.products.values():
            path = opts.out / product.rel
            path.parent.mkdir(parents=True, exist_ok=True)
            t = time.perf_counter()
            product.write(path)
            times[path.suffix.lstrip(".").upper()] += time.perf_counter() - t
    shutil.rmtree(opts.out, ignore_errors=True)
    return dict(times)


def wall(args: list[str], cwd: Path) -> float:
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(r.stderr)
    return time.perf_counter() - t


def main() -> None:
    from generator.games import GAMES
    games = sys.argv[1:] or list(GAMES)
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        sys.exit(f"build.py: no game {', '.join(unknown)} (games: {', '.join(GAMES)}; RUNS=N for the runs)")
    times = staged_breakdown(games)
    total = sum(times.values())
    print(f"serial, in-process ({', '.join(games)}):")
    for stage in ("parse", "check", "draw", "nest", "PDF", "SVG", "DXF", "PNG"):
        v = times.get(stage, 0.0)
        print(f"  {stage:6} {v:7.2f} s  {100 * v / total:5.1f} %")
    print(f"  {'total':6} {total:7.2f} s")
    out = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    try:
        env_args = ["build", *sys.argv[1:], "--out", str(out / "output")]
        # Into a new folder each time (a first build: no manifest to order its jobs by), RUNS
        # times: this machine's timings wander by a tenth either way from one run to the next.
        runs = int(os.environ.get("RUNS", "5"))
        firsts = []
        for k in range(runs):
            shutil.rmtree(out / "output", ignore_errors=True)
            firsts.append(wall(env_args, ROOT))
        print(f"pnp build, from scratch: median {statistics.median(firsts):.2f} s, quickest {min(firsts):.2f} s "
              f"wall on {os.cpu_count()} cores ({runs} runs)")
        again = wall(env_args, ROOT)
        print(f"pnp build, nothing changed: {again:.2f} s wall")
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
