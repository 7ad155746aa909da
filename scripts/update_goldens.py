"""Rewrite the golden images of tests/test_golden.py from a fresh build of every game (and of the
test deck of the `deck` kind, tests/decks/delve.yaml).

Run it only when a page is meant to look different, then look at every image it lists before
committing them:  .venv/bin/python scripts/update_goldens.py
The tests never rewrite a golden themselves.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import build_deck  # noqa: E402
from test_golden import DECK_DPI, DECK_PAGES, GOLDEN, PAGES, render  # noqa: E402


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "output"
        r = subprocess.run([sys.executable, "-m", "generator", "build", "--out", str(out)], cwd=ROOT)
        if r.returncode:
            print("the build failed: no golden rewritten", file=sys.stderr)
            return 1
        GOLDEN.mkdir(exist_ok=True)
        for name, pdf, page in PAGES:
            png = render(out / pdf, page, Path(tmp) / name)
            shutil.copyfile(png, GOLDEN / f"{name}.png")
            print(f"tests/golden/{name}.png  <- {pdf} page {page}")
        deck = build_deck(Path(tmp) / "deck", layouts=("shop",))
        for name, pdf, page in DECK_PAGES:
            png = render(deck / pdf, page, Path(tmp) / name, DECK_DPI)
            shutil.copyfile(png, GOLDEN / f"{name}.png")
            print(f"tests/golden/{name}.png  <- tests/decks/delve.yaml: {pdf} page {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
