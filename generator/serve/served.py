"""What every route of `pnp serve` shares: the Served object a server is made with (its folder's
store, the games it is handed, the event streams' wake-ups and counts), and the helpers that turn
a request into the store's arguments and the store's answers into responses. No rule lives here."""
from __future__ import annotations

import asyncio
import gzip
import json
from dataclasses import dataclass, field
from typing import Mapping

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..errors import one_line, show
from ..games.declaration import GameDeclaration
from ..referee.record import RecordError
from .store import BadRequest, NotFound, Store

MAX_DEPTH = 8                 # nesting of a request's JSON: a new game's teams are the deepest, at 3


class Changes:
    """Wakes the event streams of a record when this server writes it (writers outside it, such
    as a prompt, are seen by the streams' own look at the file every POLL seconds)."""

    def __init__(self):
        self._events: dict[str, asyncio.Event] = {}

    def waiter(self, rid: str) -> asyncio.Event:
        return self._events.setdefault(rid, asyncio.Event())

    def notify(self, rid: str) -> None:
        event = self._events.pop(rid, None)
        if event is not None:
            event.set()


from collections import OrderedDict


@dataclass
class Served:
    """One server's own things, handed to every route through the app's state."""
    store: Store
    games: Mapping[str, GameDeclaration]            # the games played here, by id
    changes: Changes = field(default_factory=Changes)
    streams: dict = field(default_factory=dict)     # open event streams, by record
    backgrounds: dict = field(default_factory=dict)  # version -> a background's gzipped SVG
    pictures: Pictures = field(default_factory=lambda: Pictures())  # the positions phones hold


class Pictures:
    """The pieces of the positions the phones were last sent (record, version -> pieces), the few
    newest: what an entry's edits are made against."""

    def __init__(self, size: int = 64):
        self.size, self._kept = size, OrderedDict()

    def get(self, rid: str, version: str):
        return self._kept.get((rid, version))

    def keep(self, rid: str, version: str, pieces: list) -> None:
        self._kept[(rid, version)] = pieces
        self._kept.move_to_end((rid, version))
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)


def served(request: Request) -> Served:
    return request.app.state.served


async def run(fn, *args):
    """fn(*args) in a worker thread: the store reads and writes files, the referee replays."""
    return await anyio.to_thread.run_sync(fn, *args)


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status)


def record_headers(t) -> dict:
    return {"X-Entries": str(t.moment.entries), "ETag": f'"{t.moment.version}"', "Cache-Control": "no-store"}


def no_record(rid) -> JSONResponse:
    return error(404, f"no record {show(rid)} in this folder")


async def with_table(request: Request, answer):
    """answer(t) for the record the path names, or the 404 or 422 the page shows."""
    rid = request.path_params["rid"]
    try:
        t = await run(served(request).store.table, rid)
    except NotFound:
        return no_record(rid)
    except RecordError as exc:
        return error(422, str(exc).splitlines()[0])
    return await answer(t)


async def body(request: Request) -> dict:
    try:
        data = json.loads(await request.body())
    except RecursionError:
        raise BadRequest(f"the body nests deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the body is a JSON object")
    check_json(data)
    return data


def check_json(data) -> None:
    """BadRequest for JSON no request needs: nested deeper than MAX_DEPTH, or text that is not
    Unicode (a lone surrogate, which JSON's \\ud800 escapes can carry and nothing can print or
    store). Walked without recursion: the body is at most MAX_BODY bytes, so this is quick."""
    todo = [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise BadRequest(f"the body nests deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            todo += [(k, depth) for k in value] + [(v, depth + 1) for v in value.values()]
        elif isinstance(value, list):
            todo += [(v, depth + 1) for v in value]
        elif isinstance(value, str) and any("\ud800" <= c <= "\udfff" for c in value):
            raise BadRequest("the body has text that is not Unicode (a lone surrogate)")


def compressed(cache: dict, key: str, data: bytes | str) -> bytes:
    """data gzipped (no time in the header: the same data gives the same bytes), made once."""
    if key not in cache:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        cache[key] = gzip.compress(raw, compresslevel=6, mtime=0)
    return cache[key]


def gzipped(request: Request, data: bytes | str, media_type: str, cache: dict | None, key: str,
            headers: dict) -> Response:
    """The answer gzipped where the client takes it (every browser does), made once per `cache`."""
    headers = {**headers, "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        packed = compressed(cache if cache is not None else {}, key, data)
        return Response(packed, media_type=media_type, headers={**headers, "Content-Encoding": "gzip"})
    return Response(data, media_type=media_type, headers=headers)
