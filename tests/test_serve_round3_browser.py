"""The table page at a table of four, round three (issue 33), in headless Chromium at a phone's
viewport (tests/test_serve_browser.py's phones and server): two phones undoing one mistake, an undo
after a refused move, what the tapping phone fetches for its entry, a move longer than its box,
Continuo's free tiles first, touch targets, and the "Not sent" line once the referee is back."""
from __future__ import annotations

import time

import pytest

from phones import SHOTS_WANTED, shot
from test_serve_browser import (SHOTS, api, entries_shown, open_table, phones, server, tap, text_of,  # noqa: F401
                                type_entry, value_of, wait_for)


def said(d) -> str:
    return text_of(d, "message") or ""


def _entered(base, rid, moves):
    for m in moves:
        api(base, f"/api/records/{rid}/entries", {"entry": m})


@pytest.mark.parametrize("apart", [0.3, 1.0])
def test_two_phones_undoing_one_mistake_apart_take_back_one_entry(server, phones, apart):
    """Both saw Ann's 200 (a mistake) and tap Undo, `apart` seconds apart: the first undoes it, the
    second is refused (the entry it names is gone), and Bob's GO before it stays."""
    base, folder = server
    a, b = phones
    rid = api(base, "/api/records", {"game": "mille-bornes", "players": "Ann, Bob"})["id"]
    _entered(base, rid, ["GO", "GO", "200"])
    open_table(a, base, rid)
    open_table(b, base, rid)
    time.sleep(0.7)                                  # both have read "Undo takes back entry 3"
    a.execute_script("document.getElementById('undo').click()")
    time.sleep(apart)
    b.execute_script("document.getElementById('undo').click()")
    wait_for(b, lambda d: said(d).startswith(("undone", "refused")), "phone B's answer")
    assert said(b).startswith("refused, undo of entry 3 (stale journal): it was taken back already"), said(b)
    assert "Undo now takes back entry 2: Bob plays GO" in said(b)
    assert len(api(base, f"/api/records/{rid}")["turns"]) == 2
    shot(b, SHOTS / f"undo-twice-{apart}.png")


def test_an_undo_tapped_as_another_phones_entry_lands_is_meant_for_the_one_before(server, phones):
    """Undo tapped the moment another phone's entry shows (sooner than GLANCE: nobody read it) was
    meant for the entry shown before: refused as stale, the new entry kept; tapped once it has been
    read, it takes the new entry back."""
    base, folder = server
    _, b = phones
    rid = api(base, "/api/records", {"game": "mille-bornes", "players": "Ann, Bob"})["id"]
    _entered(base, rid, ["GO", "GO"])
    open_table(b, base, rid)
    time.sleep(0.7)
    b.execute_script("new MutationObserver((_, seen) => { if (table.entries === 3) { seen.disconnect(); "
                     "document.getElementById('undo').click(); } })"
                     ".observe(document.getElementById('title'), {childList: true, subtree: true});")
    _entered(base, rid, ["25"])                       # on another phone (or a prompt): Ann's 25
    wait_for(b, lambda d: said(d).startswith(("undone", "refused")), "phone B's answer")
    assert said(b).startswith("refused, undo of entry 2 (stale journal)"), said(b)
    assert len(api(base, f"/api/records/{rid}")["turns"]) == 3
    time.sleep(0.7)                                   # now read: Undo means the 25
    b.execute_script("document.getElementById('undo').click()")
    wait_for(b, lambda d: said(d).startswith("undone"), "phone B's undo")
    assert "entry 3" in said(b) and len(api(base, f"/api/records/{rid}")["turns"]) == 2


def test_an_undo_after_a_refused_move_does_not_make_the_next_enter_stale(server, phones):
    base, folder = server
    a, _ = phones
    rid = api(base, "/api/records", {"game": "mille-bornes", "players": "Ann, Bob"})["id"]
    _entered(base, rid, ["GO", "GO", "25"])
    open_table(a, base, rid)
    type_entry(a, "Bob: 200 Ann")                     # refused: a distance card has no target
    tap(a, "#enter")
    wait_for(a, lambda d: said(d).startswith("refused"), "the refusal")
    tap(a, "#undo")                                   # Ann's 25 was the mistake, not only this
    wait_for(a, lambda d: entries_shown(d) == 2, "the undo")
    type_entry(a, "Ann: 50")
    tap(a, "#enter")
    wait_for(a, lambda d: entries_shown(d) == 3 or said(d).startswith("refused"), "the entry")
    assert entries_shown(a) == 3 and "another phone" not in said(a), said(a)


def test_each_phone_fetches_only_the_positions_edits_for_an_entry(server, phones):
    """The phone that enters gets the new table in its answer, the other phone the table's edits in
    the change event: each asks only for the position's edits."""
    base, folder = server
    a, b = phones
    rid = api(base, "/api/records", {"game": "sorry", "players": "red, blue"})["id"]
    open_table(a, base, rid)
    open_table(b, base, rid)
    count = ("return performance.getEntriesByType('resource').filter((e) => e.startTime >= arguments[0])"
             ".map((e) => e.name.split('/').pop().split('?')[0])")
    marks = [d.execute_script("return performance.now()") for d in (a, b)]
    type_entry(a, "2 out")
    tap(a, "#enter")
    wait_for(b, lambda d: entries_shown(d) == 1, "phone B")
    for d in (a, b):
        wait_for(d, lambda d: d.execute_script("return picture.version === table.version"), "the picture")
    time.sleep(0.5)
    fetched_a, fetched_b = (d.execute_script(count, m) for d, m in zip((a, b), marks))
    assert sorted(fetched_a) == ["entries", "position.edits"], fetched_a
    assert sorted(fetched_b) == ["position.edits"], fetched_b


def test_a_move_longer_than_its_box_is_shown_whole(server, phones):
    base, folder = server
    a, _ = phones
    rid = api(base, "/api/records", {"game": "capitals", "players": "Ann, Bob, Cy, Di"})["id"]
    open_table(a, base, rid)
    long = "Honduras M1E1 M2E1; Vatican City F10E5 F10S7"
    a.execute_script("setEntry(arguments[0])", long)
    box = a.execute_script("const e = $('entry'); return [e.scrollWidth, e.clientWidth]")
    assert box[0] > box[1]                            # the box itself cannot show it
    assert text_of(a, "entry-whole") == long
    a.execute_script("setEntry('pass')")
    assert text_of(a, "entry-whole") == ""


def test_continuos_free_tiles_come_first_and_no_svg_has_an_empty_size(server, phones):
    base, folder = server
    a, _ = phones
    rid = api(base, "/api/records", {"game": "continuo", "players": "Ann, Bob"})["id"]
    at = api(base, f"/api/records/{rid}/entries", {"entry": "open 1 0,0"}) and \
        api(base, f"/api/records/{rid}/hint/best?arg=2")["placements"][0]
    _entered(base, rid, [f"open 2 {at['at'][0]},{at['at'][1]} {at['rotation']}"])
    open_table(a, base, rid)
    tiles = a.execute_script("return [...document.querySelectorAll('[data-tile]')].map((b) => [b.dataset.tile, b.disabled])")
    assert [t for t, used in tiles[:40]] == [str(n) for n in range(3, 43)] and all(used for _, used in tiles[40:])
    assert a.execute_script("return document.querySelectorAll('svg[width=\"\"], svg[height=\"\"]').length") == 0


def test_the_games_link_is_a_touch_target(server, phones):
    base, folder = server
    a, _ = phones
    rid = api(base, "/api/records", {"game": "cubes"})["id"]
    open_table(a, base, rid)
    w, h = a.execute_script("const r = document.querySelector('.bar a').getBoundingClientRect(); return [r.width, r.height]")
    assert h >= 44 and w >= 44, (w, h)


def test_a_chosen_buttons_ring_goes_under_the_bar_at_the_foot(server, phones):
    """Cubes' "by 1" (chosen: a yellow ring) scrolled under the bar at the foot: none of its ring
    shows over the bar (an outline is painted after the bar, whatever its z-index)."""
    import io

    from PIL import Image
    base, folder = server
    a, _ = phones
    rid = api(base, "/api/records", {"game": "cubes"})["id"]
    open_table(a, base, rid)
    box = a.execute_script(
        "const b = [...document.querySelectorAll('#controls button')].find((b) => b.textContent === 'by 1');"
        "const bar = $('sendbar').getBoundingClientRect();"
        "window.scrollBy(0, b.getBoundingClientRect().top - bar.top - 12);"
        "const r = b.getBoundingClientRect(), s = $('sendbar').getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom, s.top, devicePixelRatio]")
    left, top, right, bottom, bar_top, scale = box
    assert bar_top < top < bottom, box                          # the button is under the bar
    screen = Image.open(io.BytesIO(a.get_screenshot_as_png())).convert("RGB")
    ring = [screen.getpixel((int(x * scale), int(y * scale)))
            for x in (left - 3, (left + right) / 2) for y in (top - 3, top + 4, bottom + 3) if y > bar_top + 2]
    yellow = [p for p in ring if p[0] > 200 and 150 < p[1] < 215 and p[2] < 90]
    if SHOTS_WANTED:
        screen.save(SHOTS / "cubes-ring-under-bar.png")
    assert yellow == [], (ring, box)


def _served(folder, port=0):
    import threading

    import uvicorn

    from generator.serve import _bind
    from generator.serve.app import make_app
    sock = _bind("127.0.0.1", port)
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(make_app(folder), log_level="warning", lifespan="off",
                                        timeout_graceful_shutdown=0))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    return srv, thread, port


def test_the_not_sent_line_goes_once_the_referee_answers_again(tmp_path, phones):
    """The server stops (a laptop closed) while a move is sent: "Not sent", the move kept. It comes
    back on the same address: the line saying it could not be reached goes by itself."""
    a, _ = phones
    srv, thread, port = _served(tmp_path)
    base = f"http://127.0.0.1:{port}"
    rid = api(base, "/api/records", {"game": "mille-bornes", "players": "Ann, Bob"})["id"]
    open_table(a, base, rid)
    tap(a, "[data-card='GO']")
    srv.should_exit = True
    thread.join(10)
    wait_for(a, lambda d: text_of(d, "live") != "live", "the phone's connection lost")
    tap(a, "#enter")
    wait_for(a, lambda d: "Not sent" in said(d), "the phone saying it is not sent")
    srv, thread, _ = _served(tmp_path, port)
    try:
        wait_for(a, lambda d: "Not sent" not in said(d), "the old line taken down")
        assert "The referee answers again" in said(a) and value_of(a, "entry") == "GO"
        assert entries_shown(a) == 0
    finally:
        srv.should_exit = True
        thread.join(10)
