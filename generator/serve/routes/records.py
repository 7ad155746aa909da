"""The records in the folder: listed, made, and each one read (its summary, what the table page
shows), drawn (the position, its background) and hinted (the referee's own lists)."""
from __future__ import annotations

import json

from starlette.responses import JSONResponse
from starlette.routing import Route

from ...errors import one_line
from ...referee.game import EntryRefused
from ...referee.record import RecordError
from ..controls import background_svg, hint, position_pieces, position_edits, position_svg, table_json
from ..served import body, error, gzipped, record_headers, run, served, with_table
from ..store import BadRequest, NotFound

MAX_BACKGROUNDS = 8           # backgrounds kept gzipped (a few boards: one a game in play)


def _listing(store) -> list[dict]:
    out = []
    for rid in store.ids():
        try:
            t = store.table(rid)
        except (NotFound, RecordError) as exc:
            out.append({"id": rid, "error": one_line(str(exc).splitlines()[0] if str(exc) else "unreadable")})
            continue
        now = t.moment
        summary = t.rules.summary(now.state, list(now.reports))
        out.append({"id": rid, "game": t.game, "players": summary.get("players") or t.header.get("players"),
                    "entries": now.entries, "prompt": t.rules.prompt(now.state), "winner": summary.get("winner"),
                    "totals": summary.get("totals")})
    return out


async def listing(request):
    return JSONResponse(await run(_listing, served(request).store), headers={"Cache-Control": "no-store"})


async def create(request):
    store = served(request).store
    try:
        data = await body(request)
        g = data.pop("game", None)
        if not isinstance(g, str):
            raise BadRequest(f"game: one of {', '.join(store.games)}")
        rid = await run(store.create, g, data)
    except BadRequest as exc:
        return error(400, str(exc))
    except EntryRefused as exc:
        return error(422, exc.line)
    return JSONResponse({"id": rid}, status_code=201, headers={"Location": f"/api/records/{rid}"})


def summary_of(t) -> dict:
    return t.rules.summary(t.moment.state, list(t.moment.reports))


async def record(request):
    async def answer(t):
        return JSONResponse(await run(summary_of, t), headers=record_headers(t))
    return await with_table(request, answer)


def table_bytes(t) -> bytes:
    """What the table page shows, as JSON, made once for each moment of the game (every phone
    asks for the same)."""
    if "table.json" not in t.moment.cache:
        t.moment.cache["table.json"] = json.dumps(table_json(t), separators=(",", ":")).encode()
    return t.moment.cache["table.json"]


async def table(request):
    async def answer(t):
        data = await run(table_bytes, t)
        return gzipped(request, data, "application/json", t.moment.cache, "table.json.gz", record_headers(t))
    return await with_table(request, answer)


async def position(request):
    async def answer(t):
        text = await run(position_svg, t)
        return gzipped(request, text, "image/svg+xml", t.moment.cache, "svg.gz", record_headers(t))
    return await with_table(request, answer)


def _edits(pictures, t, since: str) -> tuple[str, bytes]:
    """The answer to position.edits?from=since, made once a moment for each version phones hold
    (the phones at a table all hold the one before). A version this server never sent, or no
    longer keeps, gets the whole picture (one answer for all of them: a made-up `from` costs
    nothing that stays)."""
    pieces = position_pieces(t)
    now = t.moment.version
    before = pictures.get(t.id, since) if since and since != now else None
    known = since if since == now or before is not None else ""
    key = ("edits", known)
    if key not in t.moment.cache:
        edits = [["=", 0, len(pieces)]] if known == now else position_edits(before, pieces)
        t.moment.cache[key] = json.dumps({"version": now, "from": known or None, "edits": edits},
                                         separators=(",", ":")).encode()
    pictures.keep(t.id, now, pieces)
    return known, t.moment.cache[key]


async def position_edits_since(request):
    """The position as edits of the one the phone holds (`from`, its version): what changed only."""
    since = request.query_params.get("from", "")[:64]
    pictures = served(request).pictures

    async def answer(t):
        known, data = await run(_edits, pictures, t, since)
        return gzipped(request, data, "application/json", t.moment.cache, ("edits.gz", known), record_headers(t))
    return await with_table(request, answer)


async def background(request):
    backgrounds = served(request).backgrounds

    async def answer(t):
        found = await run(background_svg, t)
        if found is None:
            return error(404, f"{t.game} has no background: position.svg is the whole position")
        version, text = found
        if len(backgrounds) > MAX_BACKGROUNDS:
            backgrounds.clear()
        # The same address always has the same picture (its version is in it): kept by the phone.
        return gzipped(request, text, "image/svg+xml", backgrounds, version,
                       {"ETag": f'"{version}"', "Cache-Control": "private, max-age=86400, immutable"})
    return await with_table(request, answer)


async def hints(request):
    kind, arg = request.path_params["kind"], request.query_params.get("arg", "")

    async def answer(t):
        try:
            return JSONResponse(await run(hint, t, kind, arg[:200]), headers=record_headers(t))
        except BadRequest as exc:
            return error(422, str(exc))
    return await with_table(request, answer)


ROUTES = [
    Route("/api/records", listing, methods=["GET"]),
    Route("/api/records", create, methods=["POST"]),
    Route("/api/records/{rid}", record),
    Route("/api/records/{rid}/table", table),
    Route("/api/records/{rid}/position.svg", position),
    Route("/api/records/{rid}/background.svg", background),
    Route("/api/records/{rid}/position.edits", position_edits_since),
    Route("/api/records/{rid}/hint/{kind}", hints),
]
