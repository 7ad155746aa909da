"""Tap to update on the other phone, for every game: two headless Chromium phones (Debian's chromium
and chromium-driver) at one table of `pnp serve` on loopback. Phone A enters a move (types it, taps
Enter); phone B, following the game, is timed from the tap to its new text (the title's entry
count) and to its new picture (the position's `load`), on one clock (both browsers run here). The
bytes each phone fetched for the entry are its resource timings' transfer sizes (compressed, with
headers). The moves come from the referee's own hints, asked beforehand and not timed.

    .venv/bin/python benchmarks/serve_phones.py [--entries 12] [--root CHECKOUT]

--root serves another checkout's `pnp serve` (its page and server) with the same phones and moves:
figures before and after a change. Targets (issue 33): p90 under 100 ms for the text and under
150 ms for the picture, under 10 KB per entry per phone.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_load import ROOT, start_server  # noqa: E402

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
TIME_LIMIT = 600.0            # seconds: the whole run stops by itself after this
VERBOSE = False
WAIT = 10.0                   # seconds an entry may take to reach phone B before it counts as lost

WATCH = """
window.__seen = [];
performance.setResourceTimingBufferSize(100000);
const img = document.getElementById('position');
img.addEventListener('load', () => __seen.push({kind: 'pic', t: Date.now()}));
new MutationObserver(() => __seen.push({kind: 'text', text: document.getElementById('title').textContent,
                                        t: Date.now()}))
  .observe(document.getElementById('title'), {childList: true, subtree: true, characterData: true});
"""
REQUESTS_SINCE = """
const t0 = arguments[0] - performance.timeOrigin;
return performance.getEntriesByType('resource').filter((e) => e.startTime >= t0)
  .map((e) => [e.name.split('/').pop().slice(0, 24), Math.round(e.startTime - t0), Math.round(e.responseStart - t0),
               Math.round(e.responseEnd - t0)]);
"""
BYTES_SINCE = """
const t0 = arguments[0] - performance.timeOrigin;
return performance.getEntriesByType('resource').filter((e) => e.startTime >= t0 && !e.name.includes('/events'))
  .reduce((n, e) => n + (e.transferSize || e.encodedBodySize || 0), 0);
"""


def phone(profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}"):
        opts.add_argument(arg)
    opts.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}})
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


class Api:
    def __init__(self, base: str):
        self.base = base

    def __call__(self, path: str, body=None):
        req = urllib.request.Request(self.base + path, json.dumps(body).encode() if body is not None else None,
                                     {"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())


# ------------------------------------------------------------------ the moves, from the referee's hints

def cubes_moves(api, rid, t):
    return ["d4-d5", "e7-e6", "d5-d4", "e6-e7"][t["entries"] % 4]


def mille_bornes_moves(api, rid, t):
    return (["GO", "GO"] + [d for d in ("25", "50", "75", "100", "25", "50", "75", "100") for _ in (0, 1)])[t["entries"]]


def sorry_moves(api, rid, t):
    cards = ["1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry"]
    for k in range(len(cards)):
        card = cards[(t["entries"] + k) % len(cards)]
        moves = api(f"/api/records/{rid}/hint/moves?arg={card}")["moves"]
        real = [m for m in moves if m["move"] != "pass"]
        if real:
            return real[0]["entry"]
    return f"{cards[0]} pass"


def continuo_moves(api, rid, t):
    tile = next(x["number"] for x in t["controls"]["tiles"] if not x["used"])
    best = api(f"/api/records/{rid}/hint/best?arg={tile}")["placements"][0]
    return f"{'open ' if t['controls']['opening'] else ''}{tile} {best['at'][0]},{best['at'][1]} {best['rotation']}"


def capitals_moves(api, rid, t):
    for card in t["controls"]["cards"]:
        if card["played"] or card["enclosed"] or card["special"]:
            continue
        walls = api(f"/api/records/{rid}/hint/walls?arg={urllib.request.quote(card['name'])}")["walls"]
        if walls:
            return f"{card['name']} {walls[0]['wall']}"
    return "pass"


GAMES = {"cubes": ({}, cubes_moves), "mille-bornes": ({"players": "Ann, Bob"}, mille_bornes_moves),
         "sorry": ({"players": "red, blue"}, sorry_moves), "continuo": ({"players": "Ann, Bob"}, continuo_moves),
         "capitals": ({"players": "Ann, Bob"}, capitals_moves)}


def wait(cond, seconds=WAIT):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(0.01)
    return None


def play(api, base, a, b, game, entries, deadline):
    options, moves = GAMES[game]
    rid = api("/api/records", {"game": game, **options})["id"]
    for p in (a, b):
        p.get(f"{base}/t/{rid}")
        wait(lambda p=p: p.execute_script("return document.getElementById('live').textContent") == "live", 20)
    b.execute_script(WATCH)
    text_ms, pic_ms, bytes_b, bytes_a = [], [], [], []
    for n in range(entries):
        if time.monotonic() > deadline:
            break
        t = api(f"/api/records/{rid}/table")
        if t["over"]:
            break
        move = moves(api, rid, t)
        b.execute_script("window.__seen = []")
        t0 = a.execute_script("const box = document.getElementById('entry'); box.value = arguments[0]; "
                              "box.dispatchEvent(new Event('input')); const t0 = Date.now(); "
                              "document.getElementById('enter').click(); return t0", move)
        want = f"{n + 1} entr"
        seen = wait(lambda: (lambda s: s if any(x["kind"] == "text" and want in x["text"] for x in s)
                             and any(x["kind"] == "pic" for x in s) else None)(b.execute_script("return __seen")))
        if seen is None:
            print(f"  {game}: entry {n + 1} ({move}) did not reach phone B within {WAIT:g} s")
            break
        text_ms.append(min(x["t"] for x in seen if x["kind"] == "text" and want in x["text"]) - t0)
        pic_ms.append(min(x["t"] for x in seen if x["kind"] == "pic") - t0)
        wait(lambda: want in a.execute_script("return document.getElementById('title').textContent"))
        time.sleep(0.3)                 # the phones settle (a late request is counted with its entry)
        bytes_b.append(b.execute_script(BYTES_SINCE, t0))
        if VERBOSE:
            print(f"  {game} {n + 1}: text {text_ms[-1]} pic {pic_ms[-1]}; B {b.execute_script(REQUESTS_SINCE, t0)}; "
                  f"A {a.execute_script(REQUESTS_SINCE, t0)}")
        bytes_a.append(a.execute_script(BYTES_SINCE, t0))
    return text_ms, pic_ms, bytes_a, bytes_b


def p90(values):
    s = sorted(values)
    return s[max(0, int(round(len(s) * 0.9)) - 1)]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--entries", type=int, default=12, help="entries a game")
    p.add_argument("--root", type=Path, default=ROOT, help="the checkout whose pnp serve is timed")
    p.add_argument("--games", default=",".join(GAMES))
    p.add_argument("--verbose", action="store_true", help="each entry's requests, as phone B and A made them")
    args = p.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    import serve_load
    serve_load.ROOT = args.root.resolve()
    folder = Path(tempfile.mkdtemp(prefix="pnp-serve-phones-"))
    log = folder.parent / (folder.name + ".log")
    proc, port = start_server(folder, log)
    base = f"http://127.0.0.1:{port}"
    api = Api(base)
    profiles = Path(tempfile.mkdtemp(prefix="pnp-phones-"))
    a, b = phone(profiles / "a"), phone(profiles / "b")
    deadline = time.monotonic() + TIME_LIMIT
    print(f"pnp serve from {args.root.resolve()}, phone A taps Enter, phone B is timed "
          "(ms; KB per entry per phone, compressed, with headers)")
    print(f"{'game':<13} {'n':>3} {'text median/p90':>16} {'picture median/p90':>19} {'KB B median/max':>16} "
          f"{'KB A median/max':>16}")
    try:
        for game in args.games.split(","):
            text, pic, ka, kb = play(api, base, a, b, game, args.entries, deadline)
            if not text:
                continue
            print(f"{game:<13} {len(text):>3} {statistics.median(text):>7.0f} / {p90(text):>5.0f}   "
                  f"{statistics.median(pic):>8.0f} / {p90(pic):>5.0f}   "
                  f"{statistics.median(kb) / 1024:>6.1f} / {max(kb) / 1024:>5.1f}   "
                  f"{statistics.median(ka) / 1024:>6.1f} / {max(ka) / 1024:>5.1f}")
    finally:
        a.quit()
        b.quit()
        proc.terminate()
        proc.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
