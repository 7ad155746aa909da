"""`pnp serve` in a real headless Chromium (Debian's chromium and chromium-driver, installed by
.ci/run), at a phone's viewport (390 x 844, touch): a short game of each kind entered by tapping
(the position, the game's buttons, Enter), a refusal shown with the rule it breaks, undo, and a
second phone following along without reloading. Screenshots of each game are left in
/tmp/pnp-serve-shots/ for a person to look at."""
from __future__ import annotations

import json
import shutil
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import uvicorn

from generator.serve.app import make_app

SHOTS = Path("/tmp/pnp-serve-shots")
CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
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


def phone(profile: Path):
    """A headless Chromium made to look like a phone; fails (not skips) without Debian's chromium."""
    for path in (CHROMIUM, DRIVER):
        if not shutil.which(path):
            pytest.fail(f"{path} is missing: apt-get install chromium chromium-driver (.ci/run installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}"):
        opts.add_argument(arg)
    opts.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}})
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


@pytest.fixture(scope="module")
def phones(tmp_path_factory):
    a = phone(tmp_path_factory.mktemp("phone-a"))
    b = phone(tmp_path_factory.mktemp("phone-b"))
    SHOTS.mkdir(exist_ok=True)
    yield a, b
    a.quit()
    b.quit()


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


def refused_then_undo(a, b, bad: str, rule: str | None, shot: str):
    """A refused entry shows its rule (`rule`, or any: the page's own wording is what is checked)
    and changes nothing; undo takes back the last entry on both phones."""
    n = entries_shown(a)
    type_entry(a, bad)
    tap(a, "#enter")
    wait_for(a, lambda d: "refused" in text_of(d, "message"), "the refusal")
    message = text_of(a, "message")
    assert f"refused, entry {n + 1} ({rule})" in message if rule else message.startswith(f"refused, entry {n + 1} ("), message
    assert entries_shown(a) == n
    a.save_screenshot(str(SHOTS / f"{shot}-refused.png"))
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
    a.save_screenshot(str(SHOTS / "cubes.png"))
    b.save_screenshot(str(SHOTS / "cubes-second-phone.png"))
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
    a.save_screenshot(str(SHOTS / "continuo.png"))
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
    a.save_screenshot(str(SHOTS / "sorry.png"))
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
    a.save_screenshot(str(SHOTS / "mille-bornes.png"))
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
    a.save_screenshot(str(SHOTS / "capitals.png"))
    refused_then_undo(a, b, "Belgium A1E8", "played", "capitals")
