"""A bounded abuse run against `pnp serve` on loopback: what a stranger on the table's network could
send, and whether every resource stays bounded and nothing answers 500.

The server runs as `pnp serve` in its own process (127.0.0.1, a free port); the attacks are made
from here, one class at a time, each bounded in count and time:

- slow headers: many connections that send half a request line and wait (slowloris), and many that
  connect and send nothing: each must be closed within the header deadline (10 s);
- slow bodies: a POST whose body stops half-way: 408 within the body deadline;
- deep JSON: `[` x 16,000, players nested 2,000 deep, lone surrogates in names and entries: 400s;
- many ids: thousands of made-up record ids (and ids with a newline): 404s, and the server's memory
  must not grow with them;
- many event streams: more than the cap, on one record and on several: the extra ones get 503,
  HEAD opens none, and a deleted record ends its streams.

For each class it prints what it sent, the status codes it got, and the figure that shows the bound
(connections still open after the deadline, the server's resident memory before and after, streams
held at once). It exits 1 if any bound failed or any answer was a 500.

    .venv/bin/python benchmarks/serve_abuse.py [--slow 300] [--ids 20000] [--streams 120]
"""
from __future__ import annotations

import argparse
import http.client
import json
import socket
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from generator.serve.routes.events import MAX_STREAMS, MAX_STREAMS_RECORD  # noqa: E402
from generator.serve.limits import HEADER_SECONDS  # noqa: E402
sys.path.insert(0, str(ROOT / "benchmarks"))
from serve_load import start_server  # noqa: E402  (the server started as the load benchmark starts it)

problems: list[str] = []


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def open_fds(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def call(port: int, method: str, path: str, body: bytes | None = None, conn=None):
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body, {"Content-Type": "application/json"} if body is not None else {})
    r = conn.getresponse()
    data = r.read()
    if own:
        conn.close()
    return r.status, data


def check(ok: bool, what: str) -> None:
    print(("  ok   " if ok else "  FAIL ") + what)
    if not ok:
        problems.append(what)


def slow_headers(port: int, pid: int, n: int) -> None:
    print(f"slow headers: {n} connections with half a request line, {n // 3} that send nothing")
    socks = []
    start = time.monotonic()
    for i in range(n + n // 3):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError as exc:
            print(f"  connection {i} refused: {exc}")
            break
        if i < n:
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        socks.append(s)
    held = open_fds(pid)
    # meanwhile a real client is still answered
    status, _ = call(port, "GET", "/api/games")
    check(status in (200, 503), f"a real request while they wait: {status}")
    deadline = start + HEADER_SECONDS + 3
    closed = 0
    for s in socks:
        s.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            while s.recv(4096):
                pass
            closed += 1
        except (socket.timeout, TimeoutError):
            pass
        except OSError:
            closed += 1
        s.close()
    took = time.monotonic() - start
    print(f"  server descriptors while held: {held}; closed by the server: {closed} of {len(socks)} in {took:.1f} s")
    check(closed == len(socks), f"every slow connection closed within {HEADER_SECONDS:g} s + 3 s")


def slow_body(port: int) -> None:
    print("slow body: a POST whose body stops half-way")
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    s.sendall(f"POST /api/records HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
              f"Content-Length: 200\r\n\r\n{{\"game\": ".encode())
    start = time.monotonic()
    line = s.recv(4096).split(b"\r\n")[0]
    s.close()
    print(f"  answered {line.decode()!r} after {time.monotonic() - start:.1f} s")
    check(b" 408 " in line, "the trickling body is answered 408")


def deep_json(port: int) -> None:
    bodies = {
        "[ x 16,000": b"[" * 16000,
        "players 2,000 deep": b'{"game": "cubes", "players": ' + b"[" * 2000 + b"]" * 2000 + b"}",
        "a lone surrogate in a name": b'{"game": "continuo", "players": ["Ann\\ud800", "Bob"]}',
        "a NUL in a name": b'{"game": "continuo", "players": ["A\\u0000nn", "Bob"]}',
        "a bidi override in a name": b'{"game": "continuo", "players": "\\u202eAnn, Bob"}',
    }
    print(f"deep and odd JSON: {len(bodies)} kinds, 20 of each")
    for what, body in bodies.items():
        codes = Counter(call(port, "POST", "/api/records", body)[0] for _ in range(20))
        check(500 not in codes and all(400 <= c < 500 for c in codes), f"{what}: {dict(codes)}")
    status, data = call(port, "POST", "/api/records", json.dumps({"game": "cubes"}).encode())
    rid = json.loads(data)["id"]
    codes = Counter(call(port, "POST", f"/api/records/{rid}/entries", b'{"entry": "d4-d6\\udc00"}')[0] for _ in range(20))
    check(codes == Counter({400: 20}), f"a lone surrogate in an entry: {dict(codes)}")


def many_ids(port: int, pid: int, n: int) -> None:
    print(f"many ids: {n:,} made-up record ids on one kept-alive connection")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for i in range(500):                       # warm up: the first requests grow the heap anyway
        call(port, "GET", f"/api/records/warm-{i}", conn=conn)
    before = rss_kb(pid)
    codes = Counter()
    start = time.monotonic()
    for i in range(n):
        path = f"/api/records/made-up-{i}" + ("/events" if i % 10 == 0 else "") + ("%0A" if i % 7 == 0 else "")
        codes[call(port, "GET", path, conn=conn)[0]] += 1
    after = rss_kb(pid)
    conn.close()
    print(f"  {dict(codes)} in {time.monotonic() - start:.1f} s; server memory {before / 1024:.1f} -> {after / 1024:.1f} MB")
    check(set(codes) == {404}, "every made-up id is a 404")
    check(after - before < 8 * 1024, f"memory grew {(after - before) / 1024:.1f} MB (bound: 8 MB)")


def many_streams(port: int, folder: Path, n: int) -> None:
    print(f"event streams: {n} on one record, then {n} across {n // 10} records (caps {MAX_STREAMS_RECORD} a record, "
          f"{MAX_STREAMS} in all)")
    rid = json.loads(call(port, "POST", "/api/records", json.dumps({"game": "cubes"}).encode())[1])["id"]
    status, body = call(port, "HEAD", f"/api/records/{rid}/events")
    check(status == 200 and body == b"", f"HEAD on events: {status}, {len(body)} bytes, no stream")

    def open_streams(rids):
        got, socks = Counter(), []
        for r in rids:
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(f"GET /api/records/{r}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            line = s.recv(4096).split(b"\r\n")[0]
            code = int(line.split()[1])
            got[code] += 1
            (socks.append(s) if code == 200 else s.close())
        return got, socks
    got, socks = open_streams([rid] * n)
    check(got[200] == MAX_STREAMS_RECORD and 500 not in got, f"one record: {dict(got)}")
    (folder / f"{rid}.yaml").unlink()
    ended = 0
    for s in socks:
        s.settimeout(5)
        data = b""
        try:
            while chunk := s.recv(4096):
                data += chunk
                if b"event: gone" in data:
                    ended += 1
                    break
        except OSError:
            pass
        s.close()
    check(ended == len(socks), f"the record deleted: {ended} of {len(socks)} streams told and ended")
    time.sleep(1.5)
    rids = [json.loads(call(port, "POST", "/api/records", json.dumps({"game": "cubes"}).encode())[1])["id"]
            for _ in range(max(1, n // 10))]
    got, socks = open_streams([r for r in rids for _ in range(10)])
    check(got[200] <= MAX_STREAMS and 500 not in got, f"{len(rids)} records: {dict(got)}")
    for s in socks:
        s.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--slow", type=int, default=300)
    ap.add_argument("--ids", type=int, default=20000)
    ap.add_argument("--streams", type=int, default=120)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "games"
        folder.mkdir()
        proc, port = start_server(folder, Path(tmp) / "serve.log")
        try:
            print(f"pnp serve on 127.0.0.1:{port}, pid {proc.pid}, {rss_kb(proc.pid) / 1024:.1f} MB")
            slow_headers(port, proc.pid, a.slow)
            slow_body(port)
            deep_json(port)
            many_ids(port, proc.pid, a.ids)
            many_streams(port, folder, a.streams)
            log = (Path(tmp) / "serve.log").read_text()
            check("Traceback" not in log and "Exception" not in log, "nothing in the server's log but its banner")
            check(proc.poll() is None, "the server still runs")
        finally:
            proc.terminate()
            proc.wait(20)
    print("every resource bounded, no 500" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
