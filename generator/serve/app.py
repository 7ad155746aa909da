"""The web layer of `pnp serve` (Starlette, an ASGI framework, run by uvicorn): it parses requests,
hands them to the store (which hands them to the referee) and renders the answers. No rule lives
here.

API (JSON):
    GET  /api/games                                 the game ids
    GET  /api/titles                                each game's title, by id
    GET  /api/games/GAME                            a game's title and the options a new game takes
    GET  /api/games/GAME/web.js                     the game's table controls (from its own folder)
    GET  /api/records                               the records in the folder, newest first
    POST /api/records                               {"game": ID, "players": [...], ...options} -> {"id": ...}
    GET  /api/records/ID                            what `pnp referee GAME score --json` prints
    POST /api/records/ID/entries                    {"entry": NOTATION, "expect": N?, "version": V?}
    POST /api/records/ID/undo                       {"expect": N?, "version": V?}
    GET  /api/records/ID/position.svg               the position, drawn (over background.svg where the game has one)
    GET  /api/records/ID/background.svg?v=V         what no turn changes (the Capitals map), kept by the phone
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
from urllib.parse import parse_qs, urlencode

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import one_line, show
from ..games import GAMES
from ..referee.record import RecordError
from .controls import background_svg, compressed, hint, position_svg, table_json
from ..referee.game import EntryRefused
from .store import BadRequest, NotFound, Store, play_option_fields

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 16 * 1024          # bytes of a request body: an entry is a line, a new game a few names
TOKEN_COOKIE = "pnp_token"
HEARTBEAT = 15.0              # seconds between keep-alive comments on an event stream
POLL = 1.0                    # seconds between looks at the file for writers outside this server
MAX_STREAMS = 48              # event streams open at once, all records (a phone a player, a few tables)
MAX_STREAMS_RECORD = 16       # ... for one record
STREAM_LIFE = 1800.0          # seconds a stream lasts; the page's EventSource then opens another


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
    return {"X-Entries": str(t.moment.entries), "ETag": f'"{t.moment.version}"', "Cache-Control": "no-store"}


MAX_DEPTH = 8                 # nesting of a request's JSON: a new game's teams are the deepest, at 3


async def _body(request: Request) -> dict:
    try:
        data = json.loads(await request.body())
    except RecursionError:
        raise BadRequest(f"the body nests deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the body is a JSON object")
    _check_json(data)
    return data


def _check_json(data) -> None:
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
    # The games played at the table: those with a referee (a game of printed cards only, the
    # `deck` kind, is none of them).
    played = [g for g, d in GAMES.items() if d.referee is not None]

    async def games(request):
        return JSONResponse(played)

    async def titles(request):
        return JSONResponse({g: GAMES[g].title for g in played})

    async def controls_js(request):
        g = request.path_params["game"]
        if g not in GAMES:
            return _error(404, f"no game {show(g)}")
        # the game's own script, from its own folder (its declaration says which package serves it)
        path = GAMES[g].folder if GAMES[g].web == GAMES[g].package else None
        if path is None:
            import importlib
            path = Path(importlib.import_module(GAMES[g].web).__file__).parent
        script = path / "web.js"
        if not script.is_file():
            return _error(404, f"{g} has no table controls")
        return FileResponse(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    async def game(request):
        g = request.path_params["game"]
        if g not in GAMES:
            return _error(404, f"no game {show(g)}")
        return JSONResponse({"id": g, "title": GAMES[g].title, "options": play_option_fields(g)})

    # ------------------------------------------------------------ records
    def listing() -> list[dict]:
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
            summary = await run(lambda: t.rules.summary(t.moment.state, list(t.moment.reports)))
            return JSONResponse(summary, headers=_record_headers(t))
        return await with_table(request.path_params["rid"], answer)

    async def table(request):
        async def answer(t):
            return JSONResponse(await run(table_json, t), headers=_record_headers(t))
        return await with_table(request.path_params["rid"], answer)

    def _svg_response(request, text: str, cache: dict, key: str, headers: dict) -> Response:
        headers = {**headers, "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            return Response(compressed(cache, key, text), media_type="image/svg+xml",
                            headers={**headers, "Content-Encoding": "gzip"})
        return Response(text, media_type="image/svg+xml", headers=headers)

    async def svg(request):
        async def answer(t):
            text = await run(position_svg, t)
            return _svg_response(request, text, t.moment.cache, "svg.gz", _record_headers(t))
        return await with_table(request.path_params["rid"], answer)

    backgrounds: dict = {}         # version -> gzipped SVG

    async def background(request):
        async def answer(t):
            found = await run(background_svg, t)
            if found is None:
                return _error(404, f"{t.game} has no background: position.svg is the whole position")
            version, text = found
            if len(backgrounds) > 8:
                backgrounds.clear()
            # The same address always has the same picture (its version is in it): kept by the phone.
            return _svg_response(request, text, backgrounds, version,
                                 {"ETag": f'"{version}"', "Cache-Control": "private, max-age=86400, immutable"})
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
            t, said = await run(action, rid, data, expect, version)
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
        summary = await run(lambda: t.rules.summary(t.moment.state, list(t.moment.reports)))
        return JSONResponse({**summary, "said": said}, headers=_record_headers(t))

    def _enter(rid, data, expect, version):
        if "entry" not in data:
            raise BadRequest('expected {"entry": "<a move in the prompt\'s notation>"}')
        entry = data["entry"]
        if not isinstance(entry, (str, dict)):
            raise BadRequest("entry: the prompt's notation (text) or a record's entry (an object)")
        t, report = store.enter(rid, entry, expect, version)
        return t, one_line(report.text.strip())

    def _undo(rid, data, expect, version):
        return store.undo(rid, expect, version)

    async def entries(request):
        return await write(request, _enter)

    async def undo(request):
        return await write(request, _undo)

    streams: dict[str, int] = {}     # open event streams, by record

    async def events(request):
        rid = request.path_params["rid"]
        try:
            store.path_of(rid)
        except NotFound:
            return _error(404, f"no record {show(rid)} in this folder")
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        if request.method == "HEAD":          # the headers a stream would have, and no stream
            return Response(None, media_type="text/event-stream", headers=headers)
        if sum(streams.values()) >= MAX_STREAMS or streams.get(rid, 0) >= MAX_STREAMS_RECORD:
            # The page falls back to asking every few seconds.
            return _error(503, "too many phones are following this server's games; this one will look "
                               "every few seconds instead")

        async def stream():
            streams[rid] = streams.get(rid, 0) + 1      # counted here, so a stream never run is never counted
            try:
                yield "retry: 2000\n\n"
                last, quiet, alive = None, 0.0, 0.0
                while alive < STREAM_LIFE:
                    sig = store.signature(rid)
                    if sig is None:           # the record is gone: so is its stream
                        yield "event: gone\ndata: {}\n\n"
                        return
                    if sig != last:
                        last, quiet = sig, 0.0
                        yield f"event: change\ndata: {json.dumps({'signature': sig})}\n\n"
                    elif quiet >= HEARTBEAT:
                        quiet = 0.0
                        yield ": still here\n\n"
                    waiter = changes.waiter(rid)
                    start = asyncio.get_running_loop().time()
                    try:
                        await asyncio.wait_for(waiter.wait(), POLL)
                    except asyncio.TimeoutError:
                        quiet += POLL
                    alive += asyncio.get_running_loop().time() - start
                    if await request.is_disconnected():
                        return
            finally:
                streams[rid] -= 1
                if not streams[rid]:
                    del streams[rid]
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    routes = [
        Route("/", start_page),
        Route("/t/{rid}", table_page),
        Route("/api/games", games),
        Route("/api/titles", titles),
        Route("/api/games/{game}/web.js", controls_js),
        Route("/api/games/{game}", game),
        Route("/api/records", records, methods=["GET"]),
        Route("/api/records", create, methods=["POST"]),
        Route("/api/records/{rid}", record),
        Route("/api/records/{rid}/table", table),
        Route("/api/records/{rid}/position.svg", svg),
        Route("/api/records/{rid}/background.svg", background),
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


BODY_SECONDS = 10.0           # a request body arrives whole within this, or the request is dropped
PAGES = ("/", "/t/")          # what a phone's browser opens (the token is taken out of their address)


class Guard:
    """ASGI middleware: the Host check, the token, the body limit, JSON-only writes, and headers
    that keep the page to itself. Plain ASGI, so the body is counted as it arrives."""

    def __init__(self, app, token: str | None, allowed_hosts):
        self.app, self.token = app, token
        self.allowed_hosts = {h.lower() for h in allowed_hosts} if allowed_hosts else None
        self.store = app.state.store

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":      # no route speaks websocket: refused before anything
            return await send({"type": "websocket.close", "code": 1008})
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").lower()
        page = scope["method"] in ("GET", "HEAD") and (scope["path"] == "/" or scope["path"].startswith("/t/"))
        if self.allowed_hosts is not None and host not in self.allowed_hosts:
            return await _plain(send, 421, "This server answers to its own address only.")
        set_cookie = None
        # The page's own scripts and style hold no secret and no game: served to anyone who reached the
        # right address, so the page that asks for the token is styled too.
        if self.token and not (scope["method"] in ("GET", "HEAD") and scope["path"].startswith("/static/")):
            query = {k: v[0] for k, v in parse_qs(scope.get("query_string", b"").decode("latin-1")).items()}
            offered = [query.get("token"), headers.get("x-pnp-token"), _cookie(headers.get("cookie", ""), TOKEN_COOKIE)]
            if not any(o and secrets.compare_digest(o.encode(), self.token.encode()) for o in offered):
                if page or "text/html" in headers.get("accept", ""):
                    return await _page(send, 401, NEEDS_TOKEN)
                return await _plain(send, 401, "This table needs its link with the token (printed where pnp serve "
                                               "was started, and shown as a QR code there).")
            if query.get("token"):
                set_cookie = f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Lax"
                if page:
                    # The cookie carries the token from now on: the address bar (and a photo of the
                    # screen, a shared link, the history) no longer shows it.
                    rest = [(k, v) for k, vs in parse_qs(scope.get("query_string", b"").decode("latin-1")).items()
                            if k != "token" for v in vs]
                    target = scope["path"] + ("?" + urlencode(rest) if rest else "")
                    return await _redirect(send, target, set_cookie)
        if scope["method"] == "POST":
            if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
                return await _plain(send, 415, "Send JSON (Content-Type: application/json).")
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                return await _plain(send, 413, f"A request body is at most {MAX_BODY} bytes.")
        downstream = receive
        if scope["method"] not in ("GET", "HEAD"):
            # Read the whole body first, counting it and timing it: a request over the limit, or one
            # trickling in, never reaches the app (nor holds a worker thread).
            body, more = b"", True
            deadline = asyncio.get_running_loop().time() + BODY_SECONDS
            while more:
                try:
                    message = await asyncio.wait_for(receive(), max(0.0, deadline - asyncio.get_running_loop().time()))
                except asyncio.TimeoutError:
                    return await _plain(send, 408, f"A request body arrives within {BODY_SECONDS:g} seconds.")
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
                extra = _SAFE_HEADERS[:]
                if set_cookie:
                    extra.append((b"set-cookie", set_cookie.encode()))
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        await self.app(scope, downstream, guarded_send)


_SAFE_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                 (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]

# The page a phone gets without the token (a reload after the server made a new one, a link
# without it): a phone page that says what to do, not a JSON error at desktop scale.
NEEDS_TOKEN = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>pnp: this table needs its link</title>
<link rel="stylesheet" href="/static/pnp.css"></head><body>
<h1>This table needs its link</h1>
<p>The referee only lets in phones that opened its link. Scan the QR code shown where
<code>pnp serve</code> was started, or type the link printed there (it ends in <code>?token=...</code>).</p>
<p class="hint">If the server was started again with <code>--new-token</code>, the old link no longer
works: use the new one. The link is kept in this phone once opened, so you need it only once.</p>
</body></html>"""


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
                            (b"cache-control", b"no-store")] + _SAFE_HEADERS})
    await send({"type": "http.response.body", "body": body})


async def _page(send, status: int, html: str) -> None:
    body = html.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store")] + _SAFE_HEADERS})
    await send({"type": "http.response.body", "body": body})


async def _redirect(send, target: str, cookie: str) -> None:
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", target.encode("latin-1", "replace")), (b"content-length", b"0"),
                            (b"cache-control", b"no-store"), (b"set-cookie", cookie.encode())] + _SAFE_HEADERS})
    await send({"type": "http.response.body", "body": b""})
