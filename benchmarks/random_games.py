"""The long random-game runs: every referee played by seeded random games, many more than the suite's.

    .venv/bin/python benchmarks/random_games.py [--scale N] [--seed S] [GAME ...]

The checks are the suite's own (tests/test_GAME_random.py: every invariant the rules imply, undo,
replay through the record schema); the suite runs a short seeded sample of each (a few games, every
variant met; Mille Bornes keeps its 100 hands: 70 met one override, 30 none). This runs each module
N times its sample (default 10: 160 Capitals games, 80 Continuo, 80 Cubes, 1,000 Mille Bornes
hands, 80 Sorry games, where the suite played 80, 24, 30, 100 and 25 before issue 35) and prints
the figures each test prints (with -s), its time, and whether it passed.
PNP_RANDOM_SEED, where a module reads it, picks another seed (--seed).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(p.stem[len("test_"):-len("_random")] for p in (ROOT / "tests").glob("test_*_random.py"))


def sample_size(game: str) -> int:
    """The module's default PNP_RANDOM_GAMES: the suite's sample."""
    text = (ROOT / "tests" / f"test_{game}_random.py").read_text()
    return int(re.search(r'environ\.get\("PNP_RANDOM_GAMES", "(\d+)"\)', text).group(1))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", metavar="GAME", help="default all: " + ", ".join(MODULES))
    ap.add_argument("--scale", type=int, default=10, help="times the suite's sample (default 10)")
    ap.add_argument("--seed", help="PNP_RANDOM_SEED for the modules that read it")
    a = ap.parse_args()
    unknown = set(a.games) - set(MODULES)
    if unknown:
        ap.error(f"no random games of {', '.join(sorted(unknown))}; known: {', '.join(MODULES)}")
    failed = 0
    for game in a.games or MODULES:
        n = sample_size(game) * a.scale
        env = {**os.environ, "PNP_RANDOM_GAMES": str(n), **({"PNP_RANDOM_SEED": a.seed} if a.seed else {})}
        started = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-n0", "-p", "no:cacheprovider",
                            f"tests/test_{game}_random.py"], cwd=ROOT, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        figures = [line.lstrip(".") for line in r.stdout.splitlines()[:-1] if line.strip(". ")]
        print(f"{game}: {n} games (PNP_RANDOM_GAMES), {seconds:.0f} s, {'passed' if r.returncode == 0 else 'FAILED'}")
        for line in figures:
            print(f"  {line.strip()}")
        if r.returncode:
            failed += 1
            print(r.stdout[-3000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
