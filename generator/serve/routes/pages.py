"""The two pages a phone opens: the start page (the games in the folder, a new game) and a table."""
from __future__ import annotations

from pathlib import Path

from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..served import served
from ..store import NotFound

STATIC = Path(__file__).resolve().parent.parent / "static"


async def start_page(request):
    return FileResponse(STATIC / "start.html", headers={"Cache-Control": "no-store"})


async def table_page(request):
    try:
        served(request).store.path_of(request.path_params["rid"])
    except NotFound:
        return Response("No such game in this folder.", status_code=404, media_type="text/plain")
    return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-store"})


ROUTES = [
    Route("/", start_page),
    Route("/t/{rid}", table_page),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
