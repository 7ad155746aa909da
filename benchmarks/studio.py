"""How soon `pnp studio` shows a save: a deck of N cards (benchmarks/deck.py's: each card with its
own picture, rules with bold, italic and two icons), the studio started on it (`pnp studio
--no-browser`, a process of its own), then one card's name changed in the CSV and saved, again and
again; the time from the save to the changed card's new picture received, as the page gets it (its
event stream says the card changed, then the picture is asked for: what a browser does, less its
decoding and painting, a few ms). Median and p90 by deck size, the first reading of the folder, and
the machine's load beside them (2 cores shared: figures move with it).

    .venv/bin/python benchmarks/studio.py [--cards 10 100 1000] [--edits 20] [--gap 2] [--no-print]

By default the print files are built in the background as `pnp studio` does (their build yields
the cores: nice 10); --no-print measures the studio alone.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from deck import make_deck

ROOT = Path(__file__).resolve().parent.parent


def start(folder: Path, printing: bool) -> tuple[subprocess.Popen, int]:
    command = [sys.executable, "-m", "generator", "studio", "--no-browser", "--port", "0"]
    if not printing:
        command.append("--no-print")
    proc = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        found = re.search(r"open http://[^:]+:(\d+)/", line)
        if found:
            return proc, int(found.group(1))
    raise SystemExit(f"pnp studio did not start: {proc.stderr.read()}")


def follow(port: int, events: queue.Queue) -> None:
    """Every event of the studio's stream, parsed, into `events`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    conn.request("GET", "/api/studio/events")
    response = conn.getresponse()
    data = []
    while True:
        line = response.readline()       # (the stream is chunked: the response takes the chunks apart)
        if not line:
            return
        line = line.decode().rstrip("\n")
        if line.startswith("data: "):
            data.append(line[6:])
        elif not line and data:
            events.put(json.loads("".join(data)))
            data = []


def fetch(port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path)
    body = conn.getresponse().read()
    conn.close()
    return body


def measure(cards: int, edits: int, gap: float, printing: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_deck(folder, cards)
        csv = folder / "cards.csv"
        t0 = time.perf_counter()
        proc, port = start(folder, printing)
        events: queue.Queue = queue.Queue()
        threading.Thread(target=follow, args=(port, events), daemon=True).start()
        try:
            shown: dict = {}
            state = {"decks": []}
            while not state["decks"] or len(shown) < cards:
                state = events.get(timeout=600)
                shown.update((c["id"], c) for c in state["cards"])
            first = time.perf_counter() - t0
            # the first screen of cards, as the page asks for them (and the server is warm, as it is
            # once a person looks at it)
            for cid in state["decks"][0]["cards"][:24]:
                fetch(port, f"/api/studio/pictures/{shown[cid]['face']}.png?dpi={state['dpi']}")
            load_before = os.getloadavg()
            rng = random.Random(cards)
            times, drawn = [], []
            for k in range(edits):
                number = rng.randrange(1, cards + 1)
                lines = csv.read_text(encoding="utf-8").split("\n")
                name = f"Card {number} v{k}"
                lines[number] = re.sub(r"^Card \d+( v\d+)?,", name + ",", lines[number])
                before = state["drawn"]
                saved = time.perf_counter()
                csv.write_text("\n".join(lines), encoding="utf-8")
                face = None
                while face is None:
                    state = events.get(timeout=60)
                    face = next((c["face"] for c in state["cards"] if c["caption"] == name and not c["error"]), None)
                png = fetch(port, f"/api/studio/pictures/{face}.png?dpi={state['dpi']}")
                times.append(time.perf_counter() - saved)
                drawn.append(state["drawn"] - before)
                assert png.startswith(b"\x89PNG"), png[:40]
                time.sleep(gap)
            load_after = os.getloadavg()
        finally:
            proc.terminate()
            proc.wait(20)
    times.sort()
    return {"cards": cards, "first": first, "median": statistics.median(times),
            "p90": times[max(0, int(round(0.9 * len(times))) - 1)], "max": times[-1], "edits": edits,
            "drawn": sorted(set(drawn)), "load": (load_before, load_after)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--gap", type=float, default=2.0, help="seconds between saves (a person's pace)")
    ap.add_argument("--no-print", action="store_true")
    a = ap.parse_args()
    print(f"pnp studio, save to shown ({os.cpu_count()} cores; print files in the background: "
          f"{'no' if a.no_print else 'yes'}; {a.edits} saves a size, {a.gap:g} s apart)")
    for n in a.cards:
        r = measure(n, a.edits, a.gap, not a.no_print)
        lb, la = r["load"]
        print(f"{r['cards']:5d} cards: median {1000 * r['median']:.0f} ms, p90 {1000 * r['p90']:.0f} ms, "
              f"max {1000 * r['max']:.0f} ms; sides drawn a save {r['drawn']}; first shown in {r['first']:.1f} s; "
              f"load average {lb[0]:.1f} before, {la[0]:.1f} after", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
