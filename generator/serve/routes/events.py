"""A record's changes as they happen (server-sent events), for the phones following a game: an
event "change" (with the record's version, so a phone that has it already asks for nothing)
whenever the file changes, "gone" when the record is, and a comment now and then to keep it open.

Streams are bounded: MAX_STREAMS across the server, MAX_STREAMS_RECORD for one record, counted when
a stream is admitted (a burst of requests cannot all pass the check before any starts)."""
from __future__ import annotations

import asyncio
import json

from starlette.background import BackgroundTask
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from ..served import error, no_record, served
from ..store import NotFound

HEARTBEAT = 15.0              # seconds between keep-alive comments on an event stream
POLL = 1.0                    # seconds between looks at the file for writers outside this server
MAX_STREAMS = 48              # event streams open at once, all records (a phone a player, a few tables)
MAX_STREAMS_RECORD = 16       # ... for one record
STREAM_LIFE = 1800.0          # seconds a stream lasts; the page's EventSource then opens another


def _release(streams: dict, rid: str) -> None:
    streams[rid] -= 1
    if not streams[rid]:
        del streams[rid]


async def events(request):
    s = served(request)
    store, streams = s.store, s.streams
    rid = request.path_params["rid"]
    try:
        store.path_of(rid)
    except NotFound:
        return no_record(rid)
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    if request.method == "HEAD":          # the headers a stream would have, and no stream
        return Response(None, media_type="text/event-stream", headers=headers)
    if sum(streams.values()) >= MAX_STREAMS or streams.get(rid, 0) >= MAX_STREAMS_RECORD:
        # The page falls back to asking every few seconds.
        return error(503, "too many phones are following this server's games; this one will look "
                          "every few seconds instead")
    # Counted now, at admission (this runs on the event loop: no other request between the check
    # and the count); released when the stream ends, or here if it never starts.
    streams[rid] = streams.get(rid, 0) + 1
    started = False

    async def stream():
        nonlocal started
        started = True
        try:
            yield "retry: 2000\n\n"
            last, quiet, alive = None, 0.0, 0.0
            loop = asyncio.get_running_loop()
            while alive < STREAM_LIFE:
                sig = store.signature(rid)
                if sig is None:           # the record is gone: so is its stream
                    yield "event: gone\ndata: {}\n\n"
                    return
                if sig != last:
                    last, quiet = sig, 0.0
                    yield f"event: change\ndata: {json.dumps({'signature': sig, 'version': store.version(rid)})}\n\n"
                elif quiet >= HEARTBEAT:
                    quiet = 0.0
                    yield ": still here\n\n"
                waiter = s.changes.waiter(rid)
                start = loop.time()
                try:
                    await asyncio.wait_for(waiter.wait(), POLL)
                except asyncio.TimeoutError:
                    quiet += POLL
                alive += loop.time() - start
                if await request.is_disconnected():
                    return
        finally:
            _release(streams, rid)

    def never_started():
        # run after the response: the count of a stream that never ran (its client gone before
        # the first byte) is given back
        if not started:
            _release(streams, rid)
    return StreamingResponse(stream(), media_type="text/event-stream", headers=headers,
                             background=BackgroundTask(never_started))


ROUTES = [Route("/api/records/{rid}/events", events)]
