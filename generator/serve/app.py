"""The web layer of `pnp serve` (Starlette, an ASGI framework, run by uvicorn): it parses requests,
hands them to the store (which hands them to the referee) and renders the answers. No rule lives
here.

API (JSON):
    GET  /api/games                                 the game ids
    GET  /api/games/GAME                            a game's title and the options a new game takes
    GET  /api/records                               the records in the folder, newest first
    POST /api/records                               {"game": ID, "players": [...], ...options} -> {"id": ...}
    GET  /api/records/ID                            what `pnp referee GAME score --json` prints
    POST /api/records/ID/entries                    {"entry": NOTATION, "expect": N?, "version": V?}
    POST /api/records/ID/undo                       {"expect": N?, "version": V?}
    GET  /api/records/ID/position.svg               the position, drawn
    GET  /api/records/ID/table                      what the table page shows and offers
    GET  /api/records/ID/hint/KIND?arg=...          best TILE (Continuo), moves CARD (Sorry), walls CARD
    GET  /api/records/ID/events                     server-sent events: "change" whenever the file changes
A refused entry answers 4xx with {"error": LINE}, LINE being what the prompt prints for it, and
changes nothing: 422 for a rule or the notation, 409 for a stale entry (the client saw fewer or
other entries than the record has: "expect" is the entry count it saw, "version" the version).
Every answer about a record carries its entry count and version in the headers X-Entries and ETag.
"""
from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from urllib.parse import parse_qs

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import one_line, show
from ..games import GAMES, game_module
from ..referee.session import RecordError
from .controls import hint, position_svg, table_json
from .store import BadRequest, EntryRefused, NotFound, Store, play_option_fields

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 16 * 1024          # bytes of a request body: an entry is a line, a new game a few names
TOKEN_COOKIE = "pnp_token"
HEARTBEAT = 15.0              # seconds between keep-alive comments on an event stream
POLL = 1.0                    # seconds between looks at the file for writers outside this server


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


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status)


def _record_headers(t) -> dict:
    return {"X-Entries": str(t.entries), "ETag": f'"{t.version}"', "Cache-Control": "no-store"}


async def _body(request: Request) -> dict:
    try:
        data = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the body is a JSON object")
    return data


def _freshness(data: dict) -> tuple:
    expect, version = data.get("expect"), data.get("version")
    if expect is not None and type(expect) is not int:
        raise BadRequest(f"expect: the entry count this client saw (a whole number), got {show(expect)}")
    if version is not None and not isinstance(version, str):
        raise BadRequest(f"version: the version this client saw (text), got {show(version)}")
    return expect, version


def make_app(folder: Path, token: str | None = None, allowed_hosts: tuple[str, ...] | None = None) -> Starlette:
    """The app serving the records in `folder`. With `token`, every request must carry it (as
    ?token=, which also sets a cookie, or the cookie, or an X-PNP-Token header). With
    `allowed_hosts`, a request's Host must be one of them (a page on another site that resolves
    its own name to 127.0.0.1 is turned away)."""
    store = Store(folder)
    changes = Changes()

    async def run(fn, *args):
        return await anyio.to_thread.run_sync(fn, *args)

    async def with_table(rid: str, fn):
        try:
            t = await run(store.table, rid)
        except NotFound:
            return _error(404, f"no record {show(rid)} in this folder")
        except RecordError as exc:
            return _error(422, str(exc).splitlines()[0])
        return await fn(t)

    # ------------------------------------------------------------ pages
    async def start_page(request):
        return FileResponse(STATIC / "start.html", headers={"Cache-Control": "no-store"})

    async def table_page(request):
        try:
            store.path_of(request.path_params["rid"])
        except NotFound:
            return Response("No such game in this folder.", status_code=404, media_type="text/plain")
        return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-store"})

    # ------------------------------------------------------------ games
    async def games(request):
        return JSONResponse(list(GAMES))

    async def game(request):
        g = request.path_params["game"]
        if g not in GAMES:
            return _error(404, f"no game {show(g)}")
        return JSONResponse({"id": g, "title": getattr(game_module(g), "TITLE", g), "options": play_option_fields(g)})

    # ------------------------------------------------------------ records
    def listing() -> list[dict]:
        out = []
        for rid in store.ids():
            try:
                t = store.table(rid)
            except (NotFound, RecordError) as exc:
                out.append({"id": rid, "error": one_line(str(exc).splitlines()[0] if str(exc) else "unreadable")})
                continue
            summary = t.rules.summary(t.state, list(t.reports))
            out.append({"id": rid, "game": t.game, "players": summary.get("players") or t.header.get("players"),
                        "entries": t.entries, "prompt": t.rules.prompt(t.state), "winner": summary.get("winner"),
                        "totals": summary.get("totals")})
        return out

    async def records(request):
        return JSONResponse(await run(listing), headers={"Cache-Control": "no-store"})

    async def create(request):
        try:
            data = await _body(request)
            g = data.pop("game", None)
            if not isinstance(g, str):
                raise BadRequest(f"game: one of {', '.join(GAMES)}")
            rid = await run(store.create, g, data)
        except BadRequest as exc:
            return _error(400, str(exc))
        except EntryRefused as exc:
            return _error(422, exc.line)
        return JSONResponse({"id": rid}, status_code=201, headers={"Location": f"/api/records/{rid}"})

    async def record(request):
        async def answer(t):
            summary = await run(lambda: t.rules.summary(t.state, list(t.reports)))
            return JSONResponse(summary, headers=_record_headers(t))
        return await with_table(request.path_params["rid"], answer)

    async def table(request):
        async def answer(t):
            return JSONResponse(await run(table_json, t), headers=_record_headers(t))
        return await with_table(request.path_params["rid"], answer)

    async def svg(request):
        async def answer(t):
            text = await run(position_svg, t)
            return Response(text, media_type="image/svg+xml", headers=_record_headers(t))
        return await with_table(request.path_params["rid"], answer)

    async def hints(request):
        kind, arg = request.path_params["kind"], request.query_params.get("arg", "")

        async def answer(t):
            try:
                return JSONResponse(await run(hint, t, kind, arg[:200]), headers=_record_headers(t))
            except BadRequest as exc:
                return _error(422, str(exc))
        return await with_table(request.path_params["rid"], answer)

    async def write(request, action):
        rid = request.path_params["rid"]
        try:
            data = await _body(request)
            expect, version = _freshness(data)
            t = await run(action, rid, data, expect, version)
        except NotFound:
            return _error(404, f"no record {show(rid)} in this folder")
        except RecordError as exc:
            return _error(422, str(exc).splitlines()[0])
        except BadRequest as exc:
            return _error(400, str(exc))
        except EntryRefused as exc:
            if exc.stale:
                changes.notify(rid)
            return _error(409 if exc.stale else 422, exc.line)
        changes.notify(rid)
        summary = await run(lambda: t.rules.summary(t.state, list(t.reports)))
        return JSONResponse(summary, headers=_record_headers(t))

    def _enter(rid, data, expect, version):
        if "entry" not in data:
            raise BadRequest('expected {"entry": "<a move in the prompt\'s notation>"}')
        entry = data["entry"]
        if not isinstance(entry, (str, dict)):
            raise BadRequest("entry: the prompt's notation (text) or a record's entry (an object)")
        return store.enter(rid, entry, expect, version)[0]

    def _undo(rid, data, expect, version):
        return store.undo(rid, expect, version)

    async def entries(request):
        return await write(request, _enter)

    async def undo(request):
        return await write(request, _undo)

    async def events(request):
        rid = request.path_params["rid"]
        try:
            store.path_of(rid)
        except NotFound:
            return _error(404, f"no record {show(rid)} in this folder")

        async def stream():
            yield "retry: 2000\n\n"
            last, quiet = None, 0.0
            while True:
                sig = store.signature(rid)
                if sig != last:
                    last, quiet = sig, 0.0
                    yield f"event: change\ndata: {json.dumps({'signature': sig})}\n\n"
                elif quiet >= HEARTBEAT:
                    quiet = 0.0
                    yield ": still here\n\n"
                waiter = changes.waiter(rid)
                try:
                    await asyncio.wait_for(waiter.wait(), POLL)
                except asyncio.TimeoutError:
                    quiet += POLL
                if await request.is_disconnected():
                    return
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    routes = [
        Route("/", start_page),
        Route("/t/{rid}", table_page),
        Route("/api/games", games),
        Route("/api/games/{game}", game),
        Route("/api/records", records, methods=["GET"]),
        Route("/api/records", create, methods=["POST"]),
        Route("/api/records/{rid}", record),
        Route("/api/records/{rid}/table", table),
        Route("/api/records/{rid}/position.svg", svg),
        Route("/api/records/{rid}/hint/{kind}", hints),
        Route("/api/records/{rid}/entries", entries, methods=["POST"]),
        Route("/api/records/{rid}/undo", undo, methods=["POST"]),
        Route("/api/records/{rid}/events", events),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.store = store
    return Guard(app, token, allowed_hosts)


# ---------------------------------------------------------------- the guard in front of it all

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


class Guard:
    """ASGI middleware: the Host check, the token, the body limit, JSON-only writes, and headers
    that keep the page to itself. Plain ASGI, so the body is counted as it arrives."""

    def __init__(self, app, token: str | None, allowed_hosts):
        self.app, self.token = app, token
        self.allowed_hosts = {h.lower() for h in allowed_hosts} if allowed_hosts else None
        self.store = app.state.store

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").lower()
        if self.allowed_hosts is not None and host not in self.allowed_hosts:
            return await _plain(send, 421, "This server answers to its own address only.")
        set_cookie = None
        if self.token:
            query = {k: v[0] for k, v in parse_qs(scope.get("query_string", b"").decode("latin-1")).items()}
            offered = [query.get("token"), headers.get("x-pnp-token"), _cookie(headers.get("cookie", ""), TOKEN_COOKIE)]
            if not any(o and secrets.compare_digest(o.encode(), self.token.encode()) for o in offered):
                return await _plain(send, 401, "This table needs its link with the token (printed where pnp serve "
                                               "was started, and shown as a QR code there).")
            if query.get("token"):
                set_cookie = f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        if scope["method"] == "POST":
            if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
                return await _plain(send, 415, "Send JSON (Content-Type: application/json).")
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                return await _plain(send, 413, f"A request body is at most {MAX_BODY} bytes.")
        downstream = receive
        if scope["method"] not in ("GET", "HEAD"):
            # Read the whole body first, counting it: a request over the limit never reaches the app.
            body, more = b"", True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > MAX_BODY:
                    return await _plain(send, 413, f"A request body is at most {MAX_BODY} bytes.")
            delivered = False

            async def downstream():
                nonlocal delivered
                if not delivered:
                    delivered = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

        async def guarded_send(message):
            if message["type"] == "http.response.start":
                extra = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                         (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]
                if set_cookie:
                    extra.append((b"set-cookie", set_cookie.encode()))
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        await self.app(scope, downstream, guarded_send)




def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        k, _, v = part.strip().partition("=")
        if k == name:
            return v
    return None


async def _plain(send, status: int, text: str) -> None:
    body = json.dumps({"error": text}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})
