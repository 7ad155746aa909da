"""How long `pnp build GAME --shop NAME` takes for each shop profile, against the same build
without it (--force each time, so every file is made): the wall time (median of N runs) and the
peak memory of the largest process (the command's or a worker's, /usr/bin/time's maximum RSS).

    .venv/bin/python benchmarks/shops.py [--game mille-bornes] [--runs 3] [--shop NAME...]

A picture shop's cost is a picture a distinct face and back (about 0.13 s drawn and 0.1 s written
as PNG at 825 x 1125 px on this machine), twice written (the files and the zip) but drawn once.
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHOPS = ("drivethrucards", "thegamecrafter", "makeplayingcards", "tabletop-simulator")


def run(args: list[str], out: Path) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "generator", "build", *args,
                           "--force", "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"pnp build {' '.join(args)} failed: {done.stderr.strip()[-300:]}")
    kb = int(re.findall(r"^(\d+)$", done.stderr, re.M)[-1])
    return took, kb


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="mille-bornes")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--shop", action="append", choices=SHOPS)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for shop in [None, *(a.shop or SHOPS)]:
            args = [a.game] + (["--shop", shop] if shop else [])
            times, peaks = [], []
            for k in range(a.runs):
                t, kb = run(args, Path(tmp) / f"out-{shop}-{k}")
                times.append(t)
                peaks.append(kb)
            print(f"{a.game} {'(no shop)' if shop is None else '--shop ' + shop:32} median {statistics.median(times):6.2f} s"
                  f"  (min {min(times):.2f}, max {max(times):.2f}); peak {max(peaks) / 1024:.0f} MB", flush=True)


if __name__ == "__main__":
    main()
