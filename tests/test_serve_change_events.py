"""`pnp serve`'s change events carry the table page's edits (issue 33): a phone holding the version
before needs no request to show an entry made on another phone; the stream is gzipped and flushed
at each event; edits too big to carry leave the phone to ask /table."""
from __future__ import annotations

import asyncio
import json
import zlib

import httpx

from generator.serve.app import make_app
from generator.serve.routes import records as records_module
from generator.serve.routes.records import apply_table_edits, table_edits

from test_serve_api import folder  # noqa: F401 (fixture)


def follow(app, rid: str, moves: list[str]):
    """The events a phone following `rid` gets (gzip taken) while `moves` are entered one by one,
    and the tables the writes answered (the first: the table before the first move)."""
    async def scenario():
        got, headers, done = bytearray(), {}, asyncio.Event()

        async def receive():
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                headers.update({k.decode(): v.decode() for k, v in message["headers"]})
            elif message["type"] == "http.response.body":
                got.extend(message.get("body", b""))
        scope = {"type": "http", "method": "GET", "path": f"/api/records/{rid}/events", "raw_path": b"",
                 "query_string": b"", "headers": [(b"host", b"testserver"), (b"accept-encoding", b"gzip, br")],
                 "http_version": "1.1", "scheme": "http", "server": ("testserver", 80),
                 "client": ("127.0.0.1", 1), "root_path": ""}
        stream = asyncio.create_task(app(scope, receive, send))

        def events():
            text = zlib.decompressobj(16 + 15).decompress(bytes(got)).decode()
            return [json.loads(block.split("data: ", 1)[1]) for block in text.split("\n\n")
                    if block.startswith("event: change")]

        async def until(n):
            for _ in range(500):
                if len(events()) >= n:
                    return
                await asyncio.sleep(0.01)
            raise AssertionError(f"{n} change events did not come: {events()}")
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as h:
            await until(1)
            tables, sizes = [(await h.get(f"/api/records/{rid}/table")).json()], []
            for k, move in enumerate(moves):
                size = len(got)
                r = await h.post(f"/api/records/{rid}/entries", json={"entry": move})
                assert r.status_code == 200, r.text
                tables.append(r.json()["table"])
                await until(k + 2)
                sizes.append(len(got) - size)
        done.set()
        await asyncio.wait_for(stream, 5)
        return headers, events(), tables, sizes
    return asyncio.run(scenario())


def new_record(app, game: str, **options) -> str:
    async def make():
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as h:
            return (await h.post("/api/records", json={"game": game, **options})).json()["id"]
    return asyncio.run(make())


def test_a_change_event_carries_the_tables_edits(folder):
    app = make_app(folder)
    rid = new_record(app, "mille-bornes", players="Ann, Bob")
    headers, events, tables, sizes = follow(app, rid, ["GO", "GO", "25", "25", "50"])
    assert headers["content-encoding"] == "gzip"
    assert events[0] == {"version": tables[0]["version"]}         # the first: what the phone asks for on opening
    for before, now, event in zip(tables, tables[1:], events[1:]):
        assert event["version"] == now["version"] and event["from"] == before["version"]
        assert apply_table_edits(before, event) == now              # what the phone shows, without a request
        assert set(event["put"]) < set(now)                         # only what changed (not the help, the title...)
        tail = event["lists"]["log"][1] if before["log"] else event["put"]["log"]
        assert tail == now["log"][-1:]                              # the log's new line only
    assert max(sizes) < 2048, sizes                                 # compressed: a few hundred bytes an entry


def test_edits_too_big_to_carry_leave_the_phone_to_ask(folder, monkeypatch):
    monkeypatch.setattr(records_module, "MAX_CHANGE", 50)
    app = make_app(folder)
    rid = new_record(app, "cubes")
    _, events, tables, _ = follow(app, rid, ["d4-d6"])
    assert events[1] == {"version": tables[1]["version"]}


def test_table_edits_round_trip():
    before = {"version": "a", "log": ["1", "2", "3"], "gone": 1, "same": {"x": [1]}, "n": 1}
    for now in ({"version": "b", "log": ["2", "3", "4"], "same": {"x": [1]}, "n": 2},
                {"version": "b", "log": ["1", "2", "3", "4", "5"], "same": {"x": [1]}, "n": 1},
                {"version": "b", "log": ["9"], "same": {"x": [2]}, "new": None, "n": 1},
                {"version": "b", "log": [], "same": {"x": [1]}, "n": 1}):
        edits = table_edits(before, now)
        assert apply_table_edits(before, edits) == now
        assert "same" not in edits["put"] or now["same"] != before["same"]
