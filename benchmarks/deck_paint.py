"""Shapes and paint in a deck of your own: what transparency costs a print shop's PDF/X file.

    .venv/bin/python benchmarks/deck_paint.py [CARDS]      (default 100)

Writes a `kind: deck` spec of CARDS distinct cards (each its own name and colour), every face with a
gradient band, a star, an ellipse, a path, a cropped picture, and three transparent elements (a
half-transparent hexagon, a picture at 0.7, the name at 0.8); then builds its shop pages
(`pnp build --layout shop`) four ways: with and without `--pdfx`, with the transparency and with
every `opacity` taken out. Prints the wall time and the CPU time of the build's processes (median
of RUNS, default 3) and the file's size. Under --pdfx each transparent element is drawn as a
picture at 300 dpi and laid over what lies under it (generator/draw/pdf.py, _opaque_copy): the
difference between the two --pdfx rows is that cost, per transparent element in the last column.
"""
from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(os.environ.get("RUNS", "3"))
TRANSPARENT_A_FACE = 3

SPEC = """\
kind: deck
title: Paint benchmark
card: {width: 63, height: 88, bleed: 3}
tuck_box: false
palette: {paper: "#f7f1e3", ink: "#222222", red: "#b3312c"}
cards:
CARDS
layouts:
  face:
    background: paper
    elements:
      - {type: rect, x: 0, y: 0, w: 63, h: 20, fill: {linear: [0, 0, 63, 0], stops: [red, "{hue}"]}}
      - {type: ellipse, cx: 15, cy: 32, rx: 12, ry: 7, fill: {radial: [15, 32, 12], stops: [paper, ink]}}
      - {type: star, cx: 47, cy: 32, n: 5, inner_radius: 4, outer_radius: 9, fill: "#e0b000", stroke: ink}
      - {type: polygon, cx: 32, cy: 68, r: 6, n: 6, fill: ink, opacity: 0.5}
      - {type: path, d: "M 0 0 C 5 -8 10 8 15 0 S 25 -8 30 0", x: 28, y: 80, stroke: ink, stroke_width: 0.6}
      - {type: image, file: quad.png, x: 45, y: 62, w: 14, h: 14, crop_x: "50%", crop_height: "50%"}
      - {type: image, file: quad.png, x: 20, y: 44, w: 10, h: 20, picture_rotate: 90, opacity: 0.7}
      - {type: text, x: 4, y: 6, w: 55, h: 10, text: "{name}", size: 16, colour: paper, opacity: 0.8}
  back: {background: ink}
"""


def make(folder: Path, cards: int, transparent: bool) -> Path:
    from PIL import Image
    img = Image.new("RGB", (200, 100))
    for box, colour in (((0, 0, 100, 50), (255, 0, 0)), ((100, 0, 200, 50), (0, 255, 0)),
                        ((0, 50, 100, 100), (0, 0, 255)), ((100, 50, 200, 100), (255, 255, 0))):
        img.paste(colour, box)
    img.save(folder / "quad.png")
    rows = "\n".join(f'  - {{name: "Card {i + 1}", hue: "#{(i * 2459) % 0xffffff:06x}"}}' for i in range(cards))
    spec = SPEC.replace("CARDS", rows)
    if not transparent:
        spec = re.sub(r", opacity: [0-9.]+", "", spec)
    path = folder / "paint.yaml"
    path.write_text(spec, encoding="utf-8")
    return path


def build(spec: Path, out: Path, pdfx: bool) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    args = [str(ROOT / ".venv" / "bin" / "pnp"), "build", str(spec), "--out", str(out), "--layout", "shop", "--force"]
    subprocess.run(args + (["--pdfx"] if pdfx else []), check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    cards = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(f"{cards} distinct cards, {TRANSPARENT_A_FACE} transparent elements a face; median of {RUNS}")
    print(f"{'transparency':>13} {'pdfx':>5} {'wall s':>7} {'cpu s':>6} {'shop MB':>8}")
    cpu_of = {}
    with tempfile.TemporaryDirectory() as tmp:
        for transparent in (False, True):
            folder = Path(tmp) / f"t{int(transparent)}"
            folder.mkdir()
            spec = make(folder, cards, transparent)
            for pdfx in (False, True):
                runs = [build(spec, folder / "out", pdfx) for _ in range(RUNS)]
                wall = statistics.median(r[0] for r in runs)
                cpu = statistics.median(r[1] for r in runs)
                cpu_of[transparent, pdfx] = cpu
                size = (folder / "out" / "deck" / "paint-shop.pdf").stat().st_size / 1e6
                print(f"{'yes' if transparent else 'no':>13} {'yes' if pdfx else 'no':>5} {wall:7.2f} {cpu:6.2f} "
                      f"{size:8.1f}")
    extra = cpu_of[True, True] - cpu_of[False, True]
    print(f"flattening under --pdfx: {extra:.2f} s of CPU, {1000 * extra / (cards * TRANSPARENT_A_FACE):.0f} ms "
          "a transparent element")


if __name__ == "__main__":
    main()
