"""How soon `pnp build --watch` has a one-card edit built: the starter deck (`pnp new deck`) and a
CSV deck of N cards (benchmarks/deck.py's), watched; one card's text changed and saved, several
times; the time from the save to the watch's line saying it is built, and the build time that line
gives.

    .venv/bin/python benchmarks/watch.py [--cards N] [--edits K]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def watch(folder: Path, csv: Path, edits: int) -> tuple[list[float], list[float]]:
    proc = subprocess.Popen([sys.executable, "-m", "generator", "build", "--watch"], cwd=folder,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    saved, said = [], []
    try:
        first = proc.stdout.readline()
        if " built: " not in first:
            raise SystemExit(f"the first build failed: {first}")
        time.sleep(1.0)
        lines = csv.read_text().splitlines()
        for k in range(edits):
            row = 1 + k % (len(lines) - 1)
            lines[row] = lines[row].replace("damage", "harm", 1) if "damage" in lines[row] else \
                lines[row].replace("harm", "damage", 1)
            lines[row] = lines[row].rstrip(" ") + (" " if k % 2 == 0 else "")
            start = time.perf_counter()
            csv.write_text("\n".join(lines) + "\n")
            line = proc.stdout.readline()
            saved.append(time.perf_counter() - start)
            said.append(float(line.rsplit(",", 1)[1].strip().rstrip("s").strip()))
            time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(20)
    return saved, said


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=5)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        starter = Path(tmp) / "starter"
        starter.mkdir()
        subprocess.run([sys.executable, "-m", "generator", "new", "deck", "demo"], cwd=starter, check=True,
                       capture_output=True)
        saved, said = watch(starter, starter / "demo.csv", a.edits)
        print(f"starter deck: save to built {statistics.median(saved):.2f} s median "
              f"(min {min(saved):.2f}, max {max(saved):.2f}); the build {statistics.median(said):.2f} s")
        if a.cards:
            sys.path.insert(0, str(ROOT / "benchmarks"))
            from deck import make_deck
            big = Path(tmp) / "big"
            spec = make_deck(big, a.cards)
            saved, said = watch(big, spec.parent / "cards.csv", a.edits)
            print(f"{a.cards:,}-card deck: save to built {statistics.median(saved):.2f} s median "
                  f"(min {min(saved):.2f}, max {max(saved):.2f}); the build {statistics.median(said):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
