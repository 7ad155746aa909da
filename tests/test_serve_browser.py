"""`pnp serve` in a real headless Chromium (Debian's chromium and chromium-driver, installed by
.ci/run), at a phone's viewport (390 x 844, touch): a short game of each kind entered by tapping
(the position, the game's buttons, Enter), a refusal shown with the rule it breaks, undo, and a
second phone following along without reloading. Screenshots of each game are left in
/tmp/pnp-serve-shots/ for a person to look at where PNP_SHOTS=1 asks (tests/phones.py)."""
from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import uvicorn

from generator.serve.app import make_app

from phones import phone_window, shot

SHOTS = Path("/tmp/pnp-serve-shots")
WAIT = 15          # seconds a condition may take before the test fails (never slept through)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    from generator.serve import _bind
    sock = _bind("127.0.0.1", 0)          # as `pnp serve` binds
    port = sock.getsockname()[1]
    hosts = (f"127.0.0.1:{port}", f"localhost:{port}")
    srv = uvicorn.Server(uvicorn.Config(make_app(folder, allowed_hosts=hosts), log_level="warning",
                                        lifespan="off", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield base, folder
    srv.should_exit = True
    thread.join(5)


@pytest.fixture(scope="module")
def phones(request):
    a, b = phone_window(request.config), phone_window(request.config)
    yield a, b
    a.give_back()
    b.give_back()


def api(base, path, body=None):
    req = urllib.request.Request(base + path, json.dumps(body).encode() if body is not None else None,
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def wait_for(driver, condition, what):
    from selenium.webdriver.support.ui import WebDriverWait
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(lambda d: condition(d))
    except Exception:
        pytest.fail(f"waited {WAIT} s for {what}; the page says: {text_of(driver, 'message')} / "
                    f"{text_of(driver, 'turn')}")


def text_of(driver, element_id) -> str:
    """The element's text as shown (innerText: what CSS hides is not in it), in one round trip."""
    return driver.execute_script("const e = document.getElementById(arguments[0]); "
                                 "return e ? e.innerText.trim() : null", element_id)


def value_of(driver, element_id) -> str:
    return driver.execute_script("return document.getElementById(arguments[0]).value", element_id)


def entries_shown(driver) -> int:
    return int(text_of(driver, "title").split()[-2])


def open_table(driver, base, rid):
    driver.get(f"{base}/t/{rid}")
    wait_for(driver, lambda d: "entries" in text_of(d, "title") and text_of(d, "controls"), "the table page")
    wait_for(driver, lambda d: text_of(d, "live") == "live", "the live connection")


# Where a tap lands: the middle of the element (or a point of it, in mm of the drawing it shows),
# scrolled into view, and checked as WebDriver's own click checks, in one round trip: the element is
# shown, enabled, and what is at that point of the screen is the element (nothing covers it).
_TAP_AT = """
const [target, mm] = arguments;
const el = typeof target === 'string' ? document.querySelector(target) : target;
if (!el) return 'there is no ' + target;
el.scrollIntoView({block: 'nearest', inline: 'nearest'});
const box = el.getBoundingClientRect();
if (box.width < 1 || box.height < 1) return 'it is not shown';
if (el.matches(':disabled')) return 'it is disabled';
let x = box.left + box.width / 2, y = box.top + box.height / 2;
if (mm) {
  const scale = box.width / table.drawing.width;
  x = box.left + mm[0] * scale; y = box.top + mm[1] * scale;
}
const hit = document.elementFromPoint(x, y);
if (!hit || !(hit === el || el.contains(hit)))
  return 'something else is there: ' + (hit ? hit.outerHTML.slice(0, 100) : 'nothing');
return [x, y];
"""


def _press(driver, target, mm=None):
    """A trusted mouse press and release where _TAP_AT says (WebDriver's click sends the same input
    events, after several round trips of its own: 200 ms a tap here, against 35)."""
    at = driver.execute_script(_TAP_AT, target, mm)
    if isinstance(at, str):
        pytest.fail(f"cannot tap {target if isinstance(target, str) else 'the element'}: {at}")
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": at[0], "y": at[1], "button": "left",
                                                             "clickCount": 1})


def tap(driver, target):
    """A tap on the element a CSS selector names (or on a found element)."""
    _press(driver, target)


def tap_board(driver, x_mm, y_mm):
    """A tap on the position at (x, y) mm of its drawing."""
    _press(driver, "#overlay", (x_mm, y_mm))


def enter(driver):
    n = entries_shown(driver)
    tap(driver, "#enter")
    wait_for(driver, lambda d: entries_shown(d) == n + 1 or "refused" in text_of(d, "message"), "the entry")
    assert "refused" not in text_of(driver, "message"), text_of(driver, "message")


def type_entry(driver, text):
    box = driver.find_element("id", "entry")
    box.clear()
    box.send_keys(text)


def commit_entry(driver, text):
    """The move put in the box as a phone's keyboard commits a word or a suggestion: the box's text
    selected and replaced by one trusted input event (CDP's Input.insertText), where type_entry's
    keys are an event each (about 16 ms of CPU a character, the page drawing its overlay at each)."""
    driver.execute_script("const e = document.getElementById('entry'); e.focus(); e.select();")
    driver.execute_cdp_cmd("Input.insertText", {"text": text})


def refused_then_undo(a, b, bad: str, rule: str | None, name: str):
    """A refused entry shows its rule (`rule`, or any: the page's own wording is what is checked)
    and changes nothing; undo takes back the last entry on both phones."""
    n = entries_shown(a)
    type_entry(a, bad)
    tap(a, "#enter")
    wait_for(a, lambda d: "refused" in text_of(d, "message"), "the refusal")
    message = text_of(a, "message")
    assert f"refused, entry {n + 1} ({rule})" in message if rule else message.startswith(f"refused, entry {n + 1} ("), message
    assert entries_shown(a) == n
    shot(a, SHOTS / f"{name}-refused.png")
    tap(a, "#clear")
    tap(a, "#undo")
    wait_for(a, lambda d: entries_shown(d) == n - 1, "the undo")
    wait_for(b, lambda d: entries_shown(d) == n - 1, "the second phone to see the undo")


def follows(b, n: int, turn: str):
    wait_for(b, lambda d: entries_shown(d) == n and turn in text_of(d, "turn"), f"the second phone at {n}: {turn}")


# ---------------------------------------------------------------- one short game of each kind

def test_cubes_by_tapping(server, phones):
    base, folder = server
    a, b = phones
    rid = api(base, "/api/records", {"game": "cubes"})["id"]
    open_table(a, base, rid)
    open_table(b, base, rid)
    grid = a.execute_script("return table.controls.grid")
    n, x0, y0, cell = grid["n"], grid["x0"], grid["y0"], grid["cell"]

    def centre(name):
        col, row = ord(name[0]) - ord("a"), int(name[1:]) - 1
        return x0 + (col + 0.5) * cell, y0 + (n - 1 - row + 0.5) * cell
    tap_board(a, *centre("d4"))                 # White's pawn, then where it goes
    tap_board(a, *centre("d6"))
    assert value_of(a, "entry") == "d4-d6"
    enter(a)
    follows(b, 1, "Black to play")
    tap_board(a, *centre("e7"))                 # Black pushes the e column... the line through e7, south 1
    tap(a, "[data-push='s']")
    assert value_of(a, "entry") == "e7>s1"
    enter(a)
    follows(b, 2, "White to play")
    shot(a, SHOTS / "cubes.png")
    shot(b, SHOTS / "cubes-second-phone.png")
    refused_then_undo(a, b, "e6-e8", "own pawn", "cubes")
    assert len(api(base, f"/api/records/{rid}")["turns"]) == 1


def test_continuo_by_tapping(server, phones):
    base, folder = server
    a, b = phones
    rid = api(base, "/api/records", {"game": "continuo", "players": "Ann,Bob"})["id"]
    open_table(a, base, rid)
    open_table(b, base, rid)
    tap(a, "[data-tile='12']")
    grid = a.execute_script("return table.controls.grid")
    # the tile's middle on the crossing of rows and columns 2: its top-left at 0,0
    tap_board(a, grid["x0"] + (2 - grid["col0"]) * grid["cell"], grid["y0"] + (2 - grid["row0"]) * grid["cell"])
    assert value_of(a, "entry") == "open 12 0,0"
    enter(a)
    follows(b, 1, "Opening tile 2 of 2")
    tap(a, "[data-tile='7']")
    tap(a, "#hint-button")                      # `best`: the second opening tile must score its most
    wait_for(a, lambda d: d.find_elements("css selector", "#hints button"), "the best places")
    tap(a, a.find_elements("css selector", "#hints button")[0])
    enter(a)
    follows(b, 2, "Ann (0) to play")
    tap(a, "[data-tile='30']")
    tap(a, "[data-rotation='90']")
    shot(a, SHOTS / "continuo.png")
    refused_then_undo(a, b, "30 40,40 90", "edge contact", "continuo")


def test_sorry_by_tapping(server, phones):
    base, folder = server
    a, b = phones
    rid = api(base, "/api/records", {"game": "sorry", "players": "red,blue"})["id"]
    open_table(a, base, rid)
    open_table(b, base, rid)
    for card, move in (("2", "out"), ("8", None)):
        tap(a, f"[data-card='{card}']")
        wait_for(a, lambda d: d.find_elements("css selector", "#hints button"), "the moves")
        buttons = a.find_elements("css selector", "#hints button")
        tap(a, next(x for x in buttons if x.get_attribute("data-move") == move) if move else buttons[0])
        enter(a)
    follows(b, 2, "blue to play")
    shot(a, SHOTS / "sorry.png")
    n = entries_shown(a)
    type_entry(a, "5 out")
    tap(a, "#enter")
    wait_for(a, lambda d: "refused" in text_of(d, "message"), "the refusal")
    assert text_of(a, "message").startswith(f"refused, entry {n + 1} (")
    refused_then_undo(a, b, "3 out", text_of(a, "message").split("(")[1].split(")")[0], "sorry")


def test_mille_bornes_by_tapping(server, phones):
    base, folder = server
    a, b = phones
    rid = api(base, "/api/records", {"game": "mille-bornes", "players": "Ann,Bob"})["id"]
    open_table(a, base, rid)
    open_table(b, base, rid)
    for card in ("GO", "GO", "200"):
        tap(a, f"[data-card='{card}']")
        enter(a)
    tap(a, "[data-player='Bob']")
    tap(a, "[data-card='STOP']")
    tap(a, "[data-target='Ann']")
    assert value_of(a, "entry") == "Bob: STOP Ann"
    enter(a)
    follows(b, 4, "Ann to play")
    shot(a, SHOTS / "mille-bornes.png")
    refused_then_undo(a, b, "Ann: 100", None, "mille-bornes")


def test_capitals_by_tapping(server, phones):
    base, folder = server
    a, b = phones
    rid = api(base, "/api/records", {"game": "capitals", "players": "Ann,Bob"})["id"]
    open_table(a, base, rid)
    open_table(b, base, rid)
    search = a.find_element("id", "card-search")
    search.send_keys("Brussels")                # a card by its capital
    tap(a, "#controls button.small")            # Show
    wait_for(a, lambda d: d.find_elements("css selector", "[data-wall]"), "Belgium's walls")
    tap(a, a.find_elements("css selector", "[data-wall]")[0])
    assert value_of(a, "entry").startswith("Belgium ")
    enter(a)
    follows(b, 1, "Bob to play")
    a.find_element("id", "card-search").send_keys("France")
    tap(a, "#controls button.small")
    wait_for(a, lambda d: "France" in text_of(d, "controls") and "square" in text_of(d, "controls"), "France's square")
    shot(a, SHOTS / "capitals.png")
    refused_then_undo(a, b, "Belgium A1E8", "played", "capitals")


# ---------------------------------------------------------------- two phones, one game

def test_a_move_begun_before_another_phones_entry_is_refused_as_stale(server, phones):
    """Phone B begins Bob's GO; phone A enters Ann's GO meanwhile. B's Enter must not become "Bob
    plays GO" on a game B did not see: it is refused as stale, B is shown what changed, and a
    second Enter (a reflexive tap) does not send it: only its own button, which says whose move it
    becomes ("Enter as Bob's move"), does."""
    base, folder = server
    a, b = phones
    rid = api(base, "/api/records", {"game": "mille-bornes", "players": "Ann, Bob"})["id"]
    open_table(a, base, rid)
    open_table(b, base, rid)
    tap(b, "[data-card='GO']")                   # B composes, as Ann's turn is showing
    assert value_of(b, "entry") == "GO"
    tap(a, "[data-card='GO']")
    enter(a)                                     # Ann's GO, from phone A
    follows(b, 1, "Bob to play")
    wait_for(b, lambda d: "Ann plays GO" in text_of(d, "message"), "phone B told of the change")
    assert value_of(b, "entry") == "GO"          # B's move is kept, not cleared
    shot(b, SHOTS / "stale-warned.png")
    tap(b, "#enter")
    wait_for(b, lambda d: "stale journal" in text_of(d, "message"), "the stale refusal")
    message = text_of(b, "message")
    assert message.startswith("refused, entry 1 (stale journal)") and "Ann plays GO" in message, message
    assert entries_shown(b) == 1 and len(api(base, f"/api/records/{rid}")["turns"]) == 1
    shot(b, SHOTS / "stale-refused.png")
    assert b.execute_script("return document.getElementById('enter').disabled")   # a second tap sends nothing
    b.execute_script("document.getElementById('entry-form').requestSubmit()")     # nor does the keyboard's Enter
    time.sleep(0.3)
    assert entries_shown(b) == 1 and len(api(base, f"/api/records/{rid}")["turns"]) == 1
    assert text_of(b, "send-held") == "Enter as Bob\u2019s move"
    tap(b, "#send-held")                         # the deliberate action: sent as it stands now
    wait_for(b, lambda d: entries_shown(d) == 2, "the kept move, sent as Bob's")
    assert [t["player"] for t in api(base, f"/api/records/{rid}")["turns"]] == ["Ann", "Bob"]


def test_the_phone_says_when_the_server_cannot_be_reached(server, phones):
    base, folder = server
    a, _ = phones
    rid = api(base, "/api/records", {"game": "mille-bornes", "players": "Ann, Bob"})["id"]
    open_table(a, base, rid)
    tap(a, "[data-card='GO']")
    a.execute_cdp_cmd("Network.enable", {})
    a.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1,
                                                           "uploadThroughput": -1})
    try:
        tap(a, "#enter")
        wait_for(a, lambda d: "Not sent" in text_of(d, "message"), "the phone saying it is not sent")
        assert "cannot reach the referee" in text_of(a, "message") and value_of(a, "entry") == "GO"
        shot(a, SHOTS / "offline.png")
    finally:
        a.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                               "downloadThroughput": -1, "uploadThroughput": -1})
    tap(a, "#enter")                             # sent again on request
    wait_for(a, lambda d: entries_shown(d) == 1, "the move sent again")
    assert "Undo takes back entry 1: Ann plays GO" in text_of(a, "undo-what")
    tap(a, "#undo")
    wait_for(a, lambda d: entries_shown(d) == 0, "the undo")
    assert text_of(a, "message") == "undone: entry 1 (Ann plays GO); 0 entries remain"


def test_a_phone_without_the_token_is_told_what_to_do(tmp_path_factory, phones):
    folder = tmp_path_factory.mktemp("token")
    from generator.serve import _bind
    sock = _bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(make_app(folder, token="s3cret-token-for-the-table"), log_level="warning",
                                        lifespan="off", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(100):
            if srv.started:
                break
            time.sleep(0.05)
        a, _ = phones
        a.get(f"http://127.0.0.1:{port}/")
        wait_for(a, lambda d: "needs its link" in (d.execute_script("return document.body.innerText") or ""), "the page")
        width = a.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        shot(a, SHOTS / "needs-token.png")
        a.get(f"http://127.0.0.1:{port}/?token=s3cret-token-for-the-table")
        wait_for(a, lambda d: d.current_url == f"http://127.0.0.1:{port}/", "the token out of the address bar")
        wait_for(a, lambda d: d.find_elements("css selector", "[data-game]"), "the start page")
    finally:
        srv.should_exit = True
        thread.join(5)


# ---------------------------------------------------------------- every game, upright and on its side

GAMES_SHOWN = {"mille-bornes": {"players": "Ann Lee, Bob"}, "continuo": {"players": "Ann, Bob"}, "cubes": {},
               "sorry": {"players": "red, blue"}, "capitals": {"players": "Ann, Bob"}}


def _box(driver, selector):
    return driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect(); "
                                 "return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]", selector)


@pytest.mark.parametrize("game", list(GAMES_SHOWN))
def test_each_game_upright_and_on_its_side(server, phones, game):
    """Upright, Enter is in view once a move is composed, wherever the controls are scrolled; on its
    side (844 x 390), the whole board is in view beside the controls."""
    base, folder = server
    a, _ = phones
    rid = api(base, "/api/records", {"game": game, **GAMES_SHOWN[game]})["id"]
    open_table(a, base, rid)
    a.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    type_entry(a, "x")
    left, top, right, bottom, w, h = _box(a, "#enter")
    assert 0 <= top and bottom <= h and right <= w, f"Enter at {top}-{bottom} of {h}"
    a.execute_script("window.scrollTo(0, 0)")
    left, top, right, bottom, w, h = _box(a, "#enter")
    assert bottom <= h, "Enter below the fold"
    shot(a, SHOTS / f"{game}-upright.png")
    # The board's place is kept before its picture arrives (the page's first moment, on a slow
    # line): without the picture, the stage is already as tall as the board will be, so nothing
    # below it moves when it comes (a tap meant for a card once landed on "Who plays").
    shown = a.execute_script("const r = $('stage').getBoundingClientRect(); return [r.width, r.height]")
    unloaded = a.execute_script("const img = $('position'); const src = img.src; img.removeAttribute('src'); "
                                "const r = $('stage').getBoundingClientRect(); img.src = src; "
                                "return [r.width, r.height, table.drawing.width / table.drawing.height]")
    assert unloaded[1] == pytest.approx(shown[1], abs=1.5) and unloaded[1] > 50, (shown, unloaded)
    assert unloaded[0] / unloaded[1] == pytest.approx(unloaded[2], rel=0.02)
    a.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 844, "height": 390, "deviceScaleFactor": 2,
                                                             "mobile": True, "screenOrientation":
                                                             {"type": "landscapePrimary", "angle": 90}})
    try:
        wait_for(a, lambda d: _box(d, "#position")[4] == 844, "the phone on its side")
        time.sleep(0.3)
        left, top, right, bottom, w, h = _box(a, "#position")
        assert left >= 0 and top >= 0 and right <= w * 0.66 and bottom <= h, (left, top, right, bottom, w, h)
        left, top, right, bottom, w, h = _box(a, "#enter")
        assert left >= w * 0.5 and bottom <= h
        shot(a, SHOTS / f"{game}-landscape.png")
    finally:
        a.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2,
                                                                 "mobile": True})
        type_entry(a, "")


def test_a_new_game_from_the_start_page_in_a_players_words(server, phones):
    base, folder = server
    a, _ = phones
    a.get(base + "/")
    wait_for(a, lambda d: d.find_elements("css selector", "[data-game='mille-bornes']"), "the games")
    tap(a, "[data-game='mille-bornes']")
    wait_for(a, lambda d: "Players, in seating order" in text_of(d, "fields"), "the form")
    fields = text_of(a, "fields")
    assert "The published game (106 cards)" in fields and "deck" not in fields.lower().split("published")[0]
    a.find_element("id", "opt-players").send_keys("Ann Lee, Bob Marsh")
    shot(a, SHOTS / "new-game.png")
    tap(a, "#start")
    wait_for(a, lambda d: "Ann Lee to play" in (text_of(d, "turn") or ""), "the new game")
    tap(a, "[data-card='GO']")
    enter(a)
    tap(a, "[data-card='STOP']")
    tap(a, "[data-target='Ann Lee']")              # Bob Marsh's turn: his attack on Ann Lee
    assert value_of(a, "entry") == "STOP Ann Lee"
    enter(a)
    assert "Bob Marsh plays STOP on Ann Lee" in text_of(a, "message")
