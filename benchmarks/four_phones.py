"""The four-phone games played whole: every turn of every game entered on the phone of the player
to move (tests/test_serve_four_phones.py with PNP_PHONE_TURNS=all; the suite plays the first three
turns and the last on the phones, the rest through the API).

    .venv/bin/python benchmarks/four_phones.py [--turns N|all] [GAME ...]

Prints each game's wall and CPU time (pytest and the Chromiums it started) and whether it passed.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["cubes", "mille-bornes", "sorry", "continuo", "capitals"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", metavar="GAME", help="default all: " + ", ".join(GAMES))
    ap.add_argument("--turns", default="all", help="turns on the phones from the start (default all)")
    a = ap.parse_args()
    failed = 0
    for game in a.games or GAMES:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider",
                            f"tests/test_serve_four_phones.py::test_four_phones_play_a_game_to_its_end[{game}]"],
                           cwd=ROOT, env={**os.environ, "PNP_PHONE_TURNS": a.turns}, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        print(f"{game}: {wall:.0f} s wall, {cpu:.0f} s CPU, {'passed' if r.returncode == 0 else 'FAILED'}")
        if r.returncode:
            failed += 1
            print(r.stdout[-3000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
