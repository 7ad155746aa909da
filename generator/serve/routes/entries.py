"""Writes to a record: an entry, an undo. Each says what its client saw (the entry count and
version; an undo, the entry it takes back), and is refused as stale, never applied, when the game
has moved on since. The answer carries what the table page shows now, so the phone that wrote
needs no second request."""
from __future__ import annotations

import asyncio
import json

from starlette.routing import Route

from ...errors import one_line, show
from ...referee.game import EntryRefused
from ...referee.record import RecordError
from ..served import body, error, gzipped, no_record, record_headers, run, served
from ..store import BadRequest, NotFound
from ..controls import position_pieces
from .records import summary_of, table_bytes


def _whole_number(data: dict, key: str, what: str):
    value = data.get(key)
    if value is not None and type(value) is not int:
        raise BadRequest(f"{key}: {what} (a whole number), got {show(value)}")
    return value


def freshness(data: dict) -> tuple:
    expect = _whole_number(data, "expect", "the entry count this client saw")
    version = data.get("version")
    if version is not None and not isinstance(version, str):
        raise BadRequest(f"version: the version this client saw (text), got {show(version)}")
    return expect, version


def _enter(store, rid, data):
    if "entry" not in data:
        raise BadRequest('expected {"entry": "<a move in the prompt\'s notation>"}')
    entry = data["entry"]
    if not isinstance(entry, (str, dict)):
        raise BadRequest("entry: the prompt's notation (text) or a record's entry (an object)")
    expect, version = freshness(data)
    t, report = store.enter(rid, entry, expect, version)
    return t, one_line(report.text.strip())


def _undo(store, rid, data):
    expect, version = freshness(data)
    number = _whole_number(data, "entry", "the number of the entry to take back, as the page showed it")
    return store.undo(rid, expect, version, number)


def _answer(t, said: str) -> bytes:
    # {summary..., "said": ..., "table": ...}, spliced from the JSON made once for this moment
    head = json.dumps({**summary_of(t), "said": said}, separators=(",", ":"))
    return head[:-1].encode() + b',"table":' + table_bytes(t) + b"}"


async def _write(request, action):
    s = served(request)
    rid = request.path_params["rid"]
    try:
        data = await body(request)
        t, said = await run(action, s.store, rid, data)
    except NotFound:
        return no_record(rid)
    except RecordError as exc:
        return error(422, str(exc).splitlines()[0])
    except BadRequest as exc:
        return error(400, str(exc))
    except EntryRefused as exc:
        if exc.stale:
            s.changes.notify(rid)
        return error(409 if exc.stale else 422, exc.line)
    s.changes.notify(rid)             # the other phones first: they ask while this answer is made
    # The new position drawn now, while the phones ask for the table: they find it made, or wait
    # for it (position_pieces), never draw it twice.
    asyncio.get_running_loop().create_task(run(position_pieces, t))
    answer = await run(_answer, t, said)
    return gzipped(request, answer, "application/json", None, "", record_headers(t))


async def entries(request):
    return await _write(request, _enter)


async def undo(request):
    return await _write(request, _undo)


ROUTES = [
    Route("/api/records/{rid}/entries", entries, methods=["POST"]),
    Route("/api/records/{rid}/undo", undo, methods=["POST"]),
]
