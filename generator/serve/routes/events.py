"""A record's changes as they happen (server-sent events), for the phones following a game: an
event "change" whenever the file changes, "gone" when the record is, and a comment now and then to
keep it open. A change carries the record's version (a phone that has it asks for nothing) and,
from the second on, the table page's edits from the version this stream sent before (a phone
holding that version needs no request; one that missed it asks /table). The stream is gzipped
where the client takes it, flushed at each event: an edit compresses against the ones before.

Streams are bounded: MAX_STREAMS across the server, MAX_STREAMS_RECORD for one record, counted when
a stream is admitted (a burst of requests cannot all pass the check before any starts)."""
from __future__ import annotations

import asyncio
import json
import zlib

from starlette.background import BackgroundTask
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from ...referee.record import RecordError
from ..served import error, no_record, run, served
from ..store import NotFound
from .records import table_change

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
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no", "Vary": "Accept-Encoding"}
    gzipped = "gzip" in request.headers.get("accept-encoding", "")
    if gzipped:
        headers["Content-Encoding"] = "gzip"
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
    # gzip, flushed at each event; made for an admitted stream only (a small window: a stream holds
    # ~130 KB, MAX_STREAMS of them ~6 MB)
    packer = zlib.compressobj(6, zlib.DEFLATED, 16 + 14, 7) if gzipped else None

    def packed(text: str):
        return text if packer is None else packer.compress(text.encode()) + packer.flush(zlib.Z_SYNC_FLUSH)

    async def stream():
        nonlocal started
        started = True
        try:
            yield packed("retry: 2000\n\n")
            last, quiet, alive, sent = None, 0.0, 0.0, None
            loop = asyncio.get_running_loop()
            while alive < STREAM_LIFE:
                sig = store.signature(rid)
                if sig is None:           # the record is gone: so is its stream
                    yield packed("event: gone\ndata: {}\n\n")
                    return
                if sig != last:
                    last, quiet = sig, 0.0
                    try:
                        sent, data = await run(_change, store, rid, sent)
                    except (NotFound, RecordError):       # unreadable now: the phone asks, and is told
                        sent, data = None, json.dumps({"version": None})
                    yield packed(f"event: change\ndata: {data}\n\n")
                elif quiet >= HEARTBEAT:
                    quiet = 0.0
                    yield packed(": still here\n\n")
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


def _change(store, rid: str, before: dict | None) -> tuple[dict, str]:
    return table_change(store.table(rid), before)


ROUTES = [Route("/api/records/{rid}/events", events)]
