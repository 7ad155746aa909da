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
    POST /api/records/ID/undo                       {"entry": N?, "version": V?, "expect": N?}: N, the entry it takes back
    GET  /api/records/ID/position.svg               the position, drawn (over background.svg where the game has one)
    GET  /api/records/ID/background.svg?v=V         what no turn changes (the Capitals map), kept by the phone
    GET  /api/records/ID/table                      what the table page shows and offers
    GET  /api/records/ID/hint/KIND?arg=...          best TILE (Continuo), moves CARD (Sorry), walls CARD
    GET  /api/records/ID/events                     server-sent events: "change" (with the version) whenever the file changes
A refused entry answers 4xx with {"error": LINE}, LINE being what the prompt prints for it, and
changes nothing: 422 for a rule or the notation, 409 for a stale entry (the client saw fewer or
other entries than the record has: "expect" is the entry count it saw, "version" the version).
Every answer about a record carries its entry count and version in the headers X-Entries and ETag.
An accepted entry or undo answers the record's summary, the line said for it ("said") and what the
table page shows now ("table"), so the phone that wrote needs no second request.

The routes live in routes/, one module a resource, each handler a plain function of the request;
make_app hands them what this server owns (its store, the games it plays: see served.py). As
boardgame.io's Server is handed its games, so is this one: make_app(folder, games=...) serves any
games (a test serves a made-up one), GAMES' played games by default.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

from starlette.applications import Starlette

from ..games import GAMES
from ..games.declaration import GameDeclaration
from .guard import MAX_BODY, Guard
from .routes import ROUTES
from .routes.pages import STATIC
from .served import Served
from .store import Store, played

__all__ = ["MAX_BODY", "STATIC", "make_app"]


def make_app(folder: Path, token: str | None = None, allowed_hosts: tuple[str, ...] | None = None,
             games: Mapping[str, GameDeclaration] | None = None) -> Guard:
    """The app serving the records in `folder`, of `games` (id -> declaration; the project's games
    with a referee by default). With `token`, every request must carry it (as ?token=, which also
    sets a cookie, or the cookie, or an X-PNP-Token header). With `allowed_hosts`, a request's Host
    must be one of them (a page on another site that resolves its own name to 127.0.0.1 is turned
    away)."""
    games = played(GAMES if games is None else games)
    app = Starlette(routes=ROUTES)
    app.state.served = Served(Store(folder, games), games)
    return Guard(app, token, allowed_hosts)


def make_studio_app(studio, token: str | None = None, allowed_hosts: tuple[str, ...] | None = None) -> Guard:
    """The app of `pnp studio` (routes/studio.py): the page and API over a Studio (generator/studio/),
    behind the same guard as the table's (the Host check; the token on other hosts than loopback)."""
    from .routes.studio import ROUTES as STUDIO_ROUTES
    app = Starlette(routes=STUDIO_ROUTES)
    app.state.studio = studio
    app.state.streams = [0]
    return Guard(app, token, allowed_hosts)
