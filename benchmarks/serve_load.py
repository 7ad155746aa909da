"""A bounded load test of `pnp serve` on loopback: several concurrent clients entering on one record,
then on many records, and a check that nothing was lost or applied twice.

The server runs as `pnp serve` in its own process, on 127.0.0.1 and a free port; the clients are
threads here, each with its own keep-alive connection. Every client loops a bounded number of
times: it reads the record (`GET /api/records/ID`: its entry count and version in the headers), sends an entry saying what it saw, and on a
409 (another client got there first) reads again and resends. The entries are Capitals passes (a
legal entry at every turn, so the load never runs out of moves) and, on the many records, Cubes
moves back and forth. At the end every record is replayed by `pnp referee GAME score --json` and
must hold exactly the entries the server accepted (200s), in order, no more and no fewer.

    .venv/bin/python benchmarks/serve_load.py [--clients 8] [--entries 300] [--records 8]

Prints entries per second and the latency of accepted entries (median, 95th percentile, worst).
"""
from __future__ import annotations

import argparse
import http.client
import json
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIME_LIMIT = 120.0          # seconds: the whole run stops by itself after this


class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.connect()
        # as a browser does: no Nagle delay on a small request (else each waits ~40 ms for an ACK)
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def call(self, method: str, path: str, body=None):
        data = json.dumps(body).encode() if body is not None else None
        self.conn.request(method, path, data, {"Content-Type": "application/json"} if data else {})
        r = self.conn.getresponse()
        self.headers = r.headers
        return r.status, json.loads(r.read() or b"null")


def start_server(folder: Path, log: Path):
    # its output goes to a file: a pipe nobody reads would fill and stop the server
    proc = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--dir", str(folder), "--port", "0"],
                            cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT, text=True)
    for _ in range(100):
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", log.read_text())
        if m:
            return proc, int(m.group(1))
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def run(port: int, rids: list[str], moves, clients: int, per_client: int, deadline: float):
    """`clients` threads, client k on record rids[k % len(rids)], each making per_client entries."""
    latencies, accepted, stale, errors = [], {rid: 0 for rid in rids}, [0], []
    lock = threading.Lock()

    def work(k):
        c = Client(port)
        rid = rids[k % len(rids)]
        made = 0
        while made < per_client and time.monotonic() < deadline:
            # what an API client reads: the record (score --json), its entry count and version
            c.call("GET", f"/api/records/{rid}")
            t = {"entries": int(c.headers["X-Entries"]), "version": c.headers["ETag"].strip('"')}
            entry = moves(t)
            start = time.perf_counter()
            status, out = c.call("POST", f"/api/records/{rid}/entries",
                                 {"entry": entry, "expect": t["entries"], "version": t["version"]})
            took = time.perf_counter() - start
            with lock:
                if status == 200:
                    latencies.append(took)
                    accepted[rid] += 1
                    made += 1
                elif status == 409:
                    stale[0] += 1
                else:
                    errors.append((status, out))
                    return
    threads = [threading.Thread(target=work, args=(k,)) for k in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, latencies, accepted, stale[0], errors


def check(folder: Path, game: str, accepted: dict) -> None:
    for rid, n in accepted.items():
        r = subprocess.run([sys.executable, "-m", "generator", "referee", game, "score", str(folder / f"{rid}.yaml"),
                            "--json"], cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        turns = json.loads(r.stdout)["turns"]
        assert len(turns) == n, f"{rid}: {len(turns)} entries in the file, {n} accepted"


def report(name, seconds, latencies, accepted, stale, errors):
    total = sum(accepted.values())
    lat = sorted(latencies)
    print(f"{name}: {total} entries in {seconds:.2f} s = {total / seconds:.0f} entries/s; "
          f"{stale} stale (409, re-sent); latency median {statistics.median(lat) * 1000:.1f} ms, "
          f"95% {lat[int(len(lat) * 0.95) - 1] * 1000:.1f} ms, worst {lat[-1] * 1000:.1f} ms; "
          f"errors {len(errors)}")
    if errors:
        print("  first error:", errors[0])


def capitals_pass(t):
    return "pass"


def cubes_back_and_forth(t):
    # White's d4 pawn and Black's e7 pawn step out and back: legal turn after turn
    n = t["entries"]
    return ["d4-d5", "e7-e6", "d5-d4", "e6-e7"][n % 4]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--entries", type=int, default=300, help="entries in all, in each of the two runs")
    p.add_argument("--records", type=int, default=8)
    a = p.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pnp-serve-load-"))
    log = folder.parent / (folder.name + ".log")
    proc, port = start_server(folder, log)
    deadline = time.monotonic() + TIME_LIMIT
    try:
        _, alone = Client(port).call("POST", "/api/records", {"game": "capitals", "players": ["Ann", "Bob"]})
        secs, lat, acc, stale, err = run(port, [alone["id"]], capitals_pass, 1, a.entries // 3, deadline)
        report("one record, one client", secs, lat, acc, stale, err)
        check(folder, "capitals", acc)
        _, one = Client(port).call("POST", "/api/records", {"game": "capitals", "players": ["Ann", "Bob", "Cat"]})
        secs, lat, acc, stale, err = run(port, [one["id"]], capitals_pass, a.clients, a.entries // a.clients, deadline)
        report(f"one record, {a.clients} clients", secs, lat, acc, stale, err)
        check(folder, "capitals", acc)
        c = Client(port)
        rids = [c.call("POST", "/api/records", {"game": "cubes"})[1]["id"] for _ in range(a.records)]
        secs, lat, acc, stale, err = run(port, rids, cubes_back_and_forth, a.clients * 2,
                                         a.entries // (a.clients * 2), deadline)
        report(f"{a.records} records, {a.clients * 2} clients", secs, lat, acc, stale, err)
        check(folder, "cubes", acc)
        print("every record holds exactly the accepted entries (replayed by pnp referee score)")
    finally:
        proc.terminate()
        proc.wait(30)
        problems = [line for line in log.read_text().splitlines() if "Error" in line or "Traceback" in line]
        if problems:
            print(f"the server logged {len(problems)} problem line(s), first: {problems[0]} (see {log})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
