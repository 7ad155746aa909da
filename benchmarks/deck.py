"""A deck of your own, large: how long its build takes and how much memory it holds, by its size.

    .venv/bin/python benchmarks/deck.py [CARDS...]     (default 100 1000 2000)

For each size, writes a `kind: deck` spec and a CSV of that many cards into a new folder (each card
with its name, a paragraph of rules with **bold**, *italic* and two inline icons (an SVG and a PNG),
a cost, and a picture of its own: CARDS distinct PNG files, 240 x 160 px), then builds its sheet (A4,
duplex), shop pages and contact sheet, with the tuck box, as `pnp build` runs a job: in a process of
its own (one job is one process; the pool runs jobs side by side on the cores). Prints the wall
time (median and quickest of RUNS, default 3), the time per card, the peak memory (the process's
maximum resident size), and the size of each file written.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(os.environ.get("RUNS", "3"))

SPEC = """\
kind: deck
title: Benchmark deck
card: {width: 63, height: 88, bleed: 3, corner_radius: 3}
tuck_box: false          # a box for 1,000 cards would be 30 cm deep
palette: {paper: "#f6f0e0", ink: "#1f1a14", band: "#2f5d8a", gold: "#c8961e"}
icons: {sword: icons/sword.svg, coin: icons/coin.png}
csv: cards.csv
layouts:
  face:
    background: paper
    elements:
      - {type: rect, x: 0, y: 0, w: 63, h: 14, fill: band}
      - {type: text, x: 4, y: 3, w: 44, h: 8, text: "{name}", size: 13, min_size: 8, colour: paper, bold: true,
         valign: middle}
      - {type: circle, cx: 55, cy: 7, r: 5, fill: gold}
      - {type: text, x: 50, y: 2, w: 10, h: 10, text: "{cost}", size: 13, align: centre, valign: middle, bold: true}
      - {type: image, file: "{art}", x: 0, y: 14, w: 63, h: 38, fit: cover}
      - {type: text, x: 5, y: 55, w: 53, h: 27, text: "{rules}", size: 10, align: centre, valign: middle,
         colour: ink}
  back:
    background: band
    elements:
      - {type: text, x: 6, y: 34, w: 51, h: 20, text: "BENCH", size: 30, bold: true, align: centre,
         valign: middle, colour: paper}
"""

SWORD = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">
<path d="M12 1 L14 4 L14 15 L10 15 L10 4 Z" fill="#8a9bb0" stroke="#2b3440" stroke-width="0.8"/>
<rect x="6" y="15" width="12" height="2.4" rx="1" fill="#7a4a1c"/>
<rect x="10.8" y="17.4" width="2.4" height="4" fill="#4a2c10"/><circle cx="12" cy="22.4" r="1.5" fill="#c9a23a"/>
</svg>
"""

WORDS = ("the a hero monster dungeon gold sword shield torch trap door key spell potion goblin troll "
         "dragon knight bard thief cave river bridge tower night dawn").split()


def make_deck(folder: Path, cards: int) -> Path:
    """The spec, its CSV, two icons and one picture a card, in folder."""
    import numpy as np
    from PIL import Image, ImageDraw
    rng = random.Random(cards)
    (folder / "icons").mkdir(parents=True)
    (folder / "art").mkdir()
    (folder / "icons" / "sword.svg").write_text(SWORD)
    coin = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    ImageDraw.Draw(coin).ellipse((2, 2, 61, 61), fill=(220, 170, 40, 255), outline=(150, 100, 20, 255), width=5)
    coin.save(folder / "icons" / "coin.png")
    rows = ["name,count,cost,rules,art"]
    base = np.random.default_rng(cards)
    for i in range(cards):
        # A picture of its own: a gradient, hills and a sun, in colours of its own (compresses as art does).
        y = np.linspace(0, 1, 160)[:, None, None]
        x = np.linspace(0, 1, 240)[None, :, None]
        c0, c1 = base.integers(0, 255, 3), base.integers(0, 255, 3)
        img = (c0 * (1 - y) + c1 * y + 30 * x + base.normal(0, 6, (160, 240, 3))).clip(0, 255).astype(np.uint8)
        picture = Image.fromarray(img, "RGB")
        d = ImageDraw.Draw(picture)
        d.ellipse((150 + i % 50, 20, 200 + i % 50, 70), fill=(250, 215, 60))
        d.polygon([(0, 120), (70, 90 + i % 20), (150, 115), (240, 95), (240, 160), (0, 160)], fill=(60, 130, 70))
        picture.save(folder / "art" / f"card{i:04d}.png")
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 30)))
        rules = f"**{words.split()[0].title()}:** {words} :sword: then pay :coin: *or* lose a turn."
        rows.append(f'Card {i + 1},1,{rng.randint(0, 9)},"{rules}",art/card{i:04d}.png')
    (folder / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    spec = folder / "bench.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    return spec


CHILD = """
import json, resource, sys, time
from pathlib import Path
t0 = time.perf_counter()
from generator.games import GAMES
from generator.options import BuildOptions
import generator.pipeline as pipeline
from generator.pipeline import Job, check_jobs, run_jobs
real_run_job = pipeline.run_job

def run_job(*args, **kwargs):       # each job's CPU time, in whichever process runs it
    start = time.process_time()
    result = real_run_job(*args, **kwargs)
    result.cpu = time.process_time() - start
    return result
pipeline.run_job = run_job
spec, out, parts = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "parts"
jobs = [Job("deck", str(spec), part) for part in (GAMES["deck"].package and __import__(
    GAMES["deck"].package, fromlist=["PARTS"]).PARTS if parts else (None,))]
t1 = time.perf_counter()
loaded, errors, code = check_jobs(jobs, spec.parent)
assert not errors, errors
t2 = time.perf_counter()
results = run_jobs(jobs, spec.parent, BuildOptions(out=out), out, loaded=loaded)
t3 = time.perf_counter()
for r in results:
    assert not r.errors, r.errors
print(json.dumps({"import": t1 - t0, "check": t2 - t1, "jobs": t3 - t2, "cpu_first": time.process_time(),
                  "cpu_jobs": [r.cpu for r in results],
                  "sizes": {k: v for r in results for k, v in r.sizes.items()},
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "worker_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def run_once(spec: Path, out: Path, parts: bool) -> tuple[float, dict]:
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", CHILD, str(spec), str(out), "parts" if parts else "whole"], cwd=ROOT,
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - start
    if r.returncode:
        raise SystemExit(r.stderr[-2000:])
    return wall, json.loads(r.stdout.strip().splitlines()[-1])


def main(sizes: list[int]) -> None:
    print("Each deck built as `pnp build` runs its jobs: checked once (in the first process), then its two")
    print("parts (the PDFs; the contact sheet) in two worker processes side by side; and, for comparison,")
    print("whole in one job. Wall time of the whole command, median and quickest of RUNS; the CPU time of")
    print("the first process (start, imports, check) and of each job, and from them the time on two idle")
    print("cores (first + the longer job: what the wall time is when nothing else runs); peak memory of")
    print("the first process and of the largest worker.")
    print(f"{'cards':>6} {'how':>6} {'wall s':>7} {'quickest':>9} {'cpu first':>10} {'cpu jobs':>12} "
          f"{'2 idle cores':>13} {'peak MB':>8} {'worker MB':>10}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            spec = make_deck(Path(tmp) / f"deck{n}", n)
            for parts in (True, False):
                walls, checks, peaks, workers, sizes_seen, firsts, jobs = [], [], [], [], {}, [], []
                for k in range(RUNS):
                    out = Path(tmp) / f"out{n}-{parts}-{k}"
                    wall, got = run_once(spec, out, parts)
                    walls.append(wall)
                    checks.append(got["check"])
                    peaks.append(got["peak_mb"])
                    workers.append(got["worker_peak_mb"])
                    sizes_seen = got["sizes"]
                    firsts.append(got["cpu_first"])
                    jobs.append(got["cpu_jobs"])
                med = statistics.median(walls)
                first = min(firsts)
                job_cpu = [min(j[k] for j in jobs) for k in range(len(jobs[0]))]
                # (one job runs in the first process itself: its CPU time is all of it)
                idle = first + max(job_cpu) if parts else first
                if parts:
                    rows.append((n, idle))
                print(f"{n:>6} {'2 jobs' if parts else '1 job':>6} {med:>7.2f} {min(walls):>9.2f} {first:>10.2f} "
                      f"{' + '.join(f'{c:.2f}' for c in job_cpu):>12} {idle:>13.2f} {max(peaks):>8.0f} "
                      f"{max(workers):>10.0f}")
            print("       files: " + ", ".join(f"{Path(rel).name.split('-', 1)[1]} {size / 1e6:.1f} MB"
                                           for rel, size in sorted(sizes_seen.items())))
    if len(rows) > 1:
        (n0, t0), (n1, t1) = rows[0], rows[-1]
        print(f"from {n0} to {n1} cards (2 jobs, on two idle cores): {n1 / n0:.1f} times the cards, {t1 / t0:.1f} "
              f"times the time ({1000 * (t1 - t0) / (n1 - n0):.2f} ms a card more)")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 1000, 2000])
