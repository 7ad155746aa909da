"""The guard in front of `pnp serve`'s routes (plain ASGI middleware): the Host check, the token,
the body limit, JSON-only writes, and headers that keep the page to itself."""
from __future__ import annotations

import asyncio
import json
import secrets
from urllib.parse import parse_qs, urlencode

MAX_BODY = 16 * 1024          # bytes of a request body: an entry is a line, a new game a few names
TOKEN_COOKIE = "pnp_token"


CSP = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


BODY_SECONDS = 10.0           # a request body arrives whole within this, or the request is dropped
PAGES = ("/", "/t/")          # what a phone's browser opens (the token is taken out of their address)


class Guard:
    """ASGI middleware: the Host check, the token, the body limit, JSON-only writes, and headers
    that keep the page to itself. Plain ASGI, so the body is counted as it arrives."""

    def __init__(self, app, token: str | None, allowed_hosts):
        self.app, self.token = app, token
        self.allowed_hosts = {h.lower() for h in allowed_hosts} if allowed_hosts else None

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
