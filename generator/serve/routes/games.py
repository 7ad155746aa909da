"""The games this server was handed: their ids, titles, new-game options and table controls."""
from __future__ import annotations

import importlib
from pathlib import Path

from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Route

from ...errors import show
from ..served import error, served
from ..store import play_option_fields


def _game(request):
    g = request.path_params["game"]
    return g, served(request).games.get(g)


async def ids(request):
    return JSONResponse(list(served(request).games))


async def titles(request):
    return JSONResponse({g: d.title for g, d in served(request).games.items()})


async def controls_js(request):
    g, declaration = _game(request)
    if declaration is None:
        return error(404, f"no game {show(g)}")
    # the game's own script, from its own folder (its declaration says which package serves it)
    if declaration.web == declaration.package:
        folder = declaration.folder
    else:
        folder = Path(importlib.import_module(declaration.web).__file__).parent
    script = folder / "web.js"
    if not script.is_file():
        return error(404, f"{g} has no table controls")
    return FileResponse(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


async def game(request):
    g, declaration = _game(request)
    if declaration is None:
        return error(404, f"no game {show(g)}")
    return JSONResponse({"id": g, "title": declaration.title, "options": play_option_fields(declaration)})


ROUTES = [
    Route("/api/games", ids),
    Route("/api/titles", titles),
    Route("/api/games/{game}/web.js", controls_js),
    Route("/api/games/{game}", game),
]
