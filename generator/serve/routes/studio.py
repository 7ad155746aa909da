"""The studio's page and API (`pnp studio`): the cards of a folder's decks as they are saved. Every
handler reads the Studio the app was made with (generator/studio/cards.py); nothing here knows a
game, a deck's kind or a layout, only cards, their pictures and what the studio says of them.

    GET /                               the page
    GET /api/studio                     every deck, every card, the errors, the print files' state
    GET /api/studio/events              server-sent events: "change", the cards changed since the last one sent
    GET /api/studio/pictures/KEY.png    a card side (?dpi= the grid's or the large view's): the same KEY, the same picture
    GET /api/studio/cards/ID            a card opened large: each element's outline, its row, its checks (?shop=NAME)
    GET /api/studio/shops               the shops whose safe zone can be drawn
Inputs are bounded: a key is 40 hex digits, an id at most 120 of [A-Za-z0-9_-], a dpi one of two.
"""
from __future__ import annotations

import asyncio
import json
import re

from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..served import error, run
from .pages import STATIC

KEY = re.compile(r"[0-9a-f]{40}")
CARD_ID = re.compile(r"[A-Za-z0-9_-]{1,120}")
SHOP = re.compile(r"[a-z0-9_-]{1,40}")
HEARTBEAT = 15.0           # seconds between keep-alive comments on the event stream
STREAM_LIFE = 1800.0       # seconds a stream lasts; the page's EventSource then opens another
MAX_STREAMS = 16           # event streams at once (a page or two a designer)


def _studio(request):
    return request.app.state.studio


async def page(request):
    return FileResponse(STATIC / "studio.html", headers={"Cache-Control": "no-store"})


async def state(request):
    data = await run(_studio(request).state)
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


async def events(request):
    studio = _studio(request)
    streams = request.app.state.streams
    if streams[0] >= MAX_STREAMS:
        return error(503, "too many pages are following this studio; close one")
    streams[0] += 1
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def listener():
        loop.call_soon_threadsafe(wake.set)

    async def stream():
        studio.listeners.append(listener)
        try:
            yield "retry: 1000\n\n"
            sent, alive = None, 0.0
            while alive < STREAM_LIFE:
                wake.clear()
                if studio.version != sent:
                    data = await run(studio.state, sent)
                    sent = data["version"]
                    yield f"event: change\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
                    continue
                start = loop.time()
                try:
                    await asyncio.wait_for(wake.wait(), HEARTBEAT)
                except asyncio.TimeoutError:
                    yield ": still here\n\n"
                alive += loop.time() - start
                if await request.is_disconnected():
                    return
        finally:
            if listener in studio.listeners:
                studio.listeners.remove(listener)
            streams[0] -= 1
    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def picture(request):
    dpis = _studio(request).dpis
    key = request.path_params["key"]
    try:
        dpi = int(request.query_params.get("dpi", str(dpis[0]))[:8])
    except ValueError:
        dpi = 0
    if not KEY.fullmatch(key) or dpi not in dpis:
        return error(400, f"a picture is KEY.png (40 hex digits), at dpi {' or '.join(map(str, dpis))}")
    data = await run(_studio(request).picture, key, dpi)
    if data is None:
        return error(404, "no such card side (drawn again since? the page asks for the new one)")
    # The key is a digest of everything that draws the side: its picture never changes.
    return Response(data, media_type="image/png", headers={"Cache-Control": "private, max-age=86400, immutable"})


async def card(request):
    studio = _studio(request)
    cid = request.path_params["cid"]
    if not CARD_ID.fullmatch(cid):
        return error(400, "a card's id is letters, digits, - and _")
    view = studio.card(cid)
    if view is None:
        return error(404, f"no card {cid} in this folder now")
    shop = request.query_params.get("shop", "")
    out = {**view.shown()}
    for name, key in (("face", view.face), ("back", view.back)):
        side = studio.side(key) if key else None
        out[f"{name}_boxes"] = side.boxes if side else []
        out["size"] = list(side.size) if side else out.get("size")
        if side is not None and shop:
            if not SHOP.fullmatch(shop):
                return error(400, "a shop's name is lower-case letters, digits, - and _")
            try:
                out[f"{name}_shop"] = await run(studio.shop_check, side, shop)
            except ValueError as exc:        # (ShopError: no such shop, no product near the card)
                out[f"{name}_shop"] = {"error": str(exc)}
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


async def shops(request):
    from ...shops import shop_names
    return JSONResponse(await run(shop_names, _studio(request).root))


ROUTES = [
    Route("/", page),
    Route("/api/studio", state),
    Route("/api/studio/events", events),
    Route("/api/studio/pictures/{key}.png", picture),
    Route("/api/studio/cards/{cid}", card),
    Route("/api/studio/shops", shops),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
