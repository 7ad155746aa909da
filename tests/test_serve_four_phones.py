"""A table of four phones (headless Chromium at 390 x 844, as tests/test_serve_browser.py runs it)
playing every game to its end through `pnp serve`, each entry made on the phone of the player to
move: on the way, a refused move, and a mistake that two phones undo at once (one entry taken back,
not two). At the end the journal holds exactly the entries the phones were told were accepted, and
every phone shows the game over. Then every game with four players, upright (390 x 844) and on
its side (844 x 390): nothing covers a player's chip, and on its side every control is reached by
scrolling the page, never a pane of its own. Screenshots in /tmp/pnp-serve-shots/four-*.png
where PNP_SHOTS=1 asks (tests/phones.py).

The suite plays a seeded sample of each game on the phones: its first PHONE_TURNS turns (the refused
move and the mistake among them) and its last, which ends the game on every phone; the turns between
are the same moves entered through the API while the phones are away (a Continuo game is 42 turns,
four phones re-drawing at each: 95 s of the suite's time). `benchmarks/four_phones.py` plays every
turn on the phones (PNP_PHONE_TURNS=all)."""
from __future__ import annotations

import os
import random
import time

import pytest
import yaml

from test_serve_api import CUBES_WIN
from phones import phone_window, shot
from test_serve_browser import (SHOTS, api, commit_entry, entries_shown, open_table, server, tap,  # noqa: F401
                                text_of, wait_for)


@pytest.fixture(scope="module")
def four(request):
    phones = [phone_window(request.config) for _ in range(4)]
    yield phones
    for p in phones:
        p.give_back()


def said(driver) -> str:
    return text_of(driver, "message") or ""


def enter_on(driver, text: str) -> str:
    """The move put in the box (as a keyboard commits it) and Enter tapped; the line the phone was told
    (accepted: what the referee said)."""
    n = entries_shown(driver)
    tap(driver, "#clear")                        # (and the line of this phone's last answer)
    commit_entry(driver, text)
    tap(driver, "#enter")
    wait_for(driver, lambda d: entries_shown(d) == n + 1 or "refused" in said(d), f"the entry {text!r}")
    assert entries_shown(driver) == n + 1, said(driver)
    return said(driver)


def undo_from_two_phones_at_once(first, second, n: int):
    """Both phones saw entry n and tap Undo together: one undo is done, the other refused."""
    for p in (first, second):
        wait_for(p, lambda d: entries_shown(d) == n, "both phones at the mistake")
    time.sleep(0.7)                  # the mistake read: Undo is tapped for it (see table.js, GLANCE)
    first.execute_script("document.getElementById('undo').click()")
    second.execute_script("document.getElementById('undo').click()")
    for p in (first, second):
        wait_for(p, lambda d: said(d).startswith(("undone", "refused")), "the undo's answer")
    lines = sorted([said(first), said(second)])
    assert lines[0].startswith(f"refused, undo of entry {n} (stale journal)") and lines[1].startswith(
        f"undone: entry {n} "), lines
    for p in (first, second):
        wait_for(p, lambda d: entries_shown(d) == n - 1, "the game after the undo")


def refused_on(driver, text: str, rule: str):
    n = entries_shown(driver)
    commit_entry(driver, text)
    tap(driver, "#enter")
    wait_for(driver, lambda d: "refused" in said(d), "the refusal")
    assert said(driver).startswith(f"refused, entry {n + 1} ({rule})"), said(driver)
    assert entries_shown(driver) == n
    tap(driver, "#clear")


# ---------------------------------------------------------------- each game's moves, from its referee

def cubes_moves(base, rid, t):
    return CUBES_WIN[t["entries"]]


MB_RECORD = None


def mille_bornes_moves(base, rid, t):
    global MB_RECORD
    if MB_RECORD is None:
        from conftest import ROOT
        MB_RECORD = yaml.safe_load((ROOT / "tests/records/mille-bornes.yaml").read_text())["entries"][:20]
    e = MB_RECORD[t["entries"]]
    text = f"{e['player']}: " + (f"discard {e['discard']}" if "discard" in e else str(e["card"]))
    return text + (f" {e['target']}" if "target" in e else "") + (" cf" if e.get("coup_fourre") else "")


def sorry_moves(base, rid, t):
    # red, near home, plays its men in; the others, all at start, pass a 5 (no move)
    if t["prompt"].startswith("red"):
        for card in ("3", "2", "1", "4"):
            moves = [m for m in api(base, f"/api/records/{rid}/hint/moves?arg={card}")["moves"] if m["move"] != "pass"]
            if moves:
                return moves[0]["entry"]
    return "5 pass"


CONTINUO_PACK = list(range(1, 43))
random.Random(7).shuffle(CONTINUO_PACK)


def continuo_moves(base, rid, t, rank=0):
    tile = CONTINUO_PACK[t["entries"]]
    if t["entries"] == 0:
        return f"open {tile} 0,0"
    best = api(base, f"/api/records/{rid}/hint/best?arg={tile}")["placements"][rank]
    return f"{'open ' if t['controls']['opening'] else ''}{tile} {best['at'][0]},{best['at'][1]} {best['rotation']}"


CAPITALS_CARDS = ["Belgium", "Netherlands", "France", "Spain", "Italy", "Portugal"]


def capitals_moves(base, rid, t):
    done = {c["name"] for c in t["controls"]["cards"] if c["played"]}
    for card in CAPITALS_CARDS:
        if card in done:
            continue
        walls = api(base, f"/api/records/{rid}/hint/walls?arg={card}")["walls"]
        if walls:
            return f"{card} {walls[0]['wall']}"
    return None                      # then the end of play, picked on the page


GAMES = {   # options (or a record to start from), its moves, a refused move and its rule, a mistake
    "cubes": ({}, cubes_moves, ("e6-e8", "own pawn"), lambda base, rid, t: "d4-d5"),
    "mille-bornes": ({"players": "Ann, Bob", "deck": "decks/mille_bornes_1961.yaml"}, mille_bornes_moves,
                     ("Bob: 200", "roll"), lambda base, rid, t: t["prompt"].split()[0] + ": discard 25"),
    "sorry": ({"record": "game: sorry\nplayers: [red, blue, yellow, green]\n"
                         "position: {red: [home, home, s1, s2]}\nentries: []\n"}, sorry_moves,
              ("5 out", "card"), lambda base, rid, t: "5 pass"),
    "continuo": ({"players": "Ann, Bob, Cy, Di"}, continuo_moves, ("99 0,0", "tile number"),
                 lambda base, rid, t: continuo_moves(base, rid, t, rank=1)),
    "capitals": ({"players": "Ann, Bob, Cy, Di"}, capitals_moves, ("Belgium A1E8", "played"),
                 lambda base, rid, t: "pass"),
}


# Turns played on the phones from the start of each game (then its last): the suite's sample, a
# plain turn, the turn with the refused move and the turn with the mistake undone from two phones
# (each turn on the phones costs about 1 s of CPU: its entry and four phones drawing it).
_turns = os.environ.get("PNP_PHONE_TURNS", "3")
PHONE_TURNS = 10 ** 6 if _turns == "all" else int(_turns)


def new_record(base, folder, game: str, suffix: str = "") -> str:
    options = GAMES[game][0]
    if "record" in options:
        rid = f"{game}-four-phones{suffix}"
        (folder / f"{rid}.yaml").write_text(options["record"])
        return rid
    return api(base, "/api/records", {"game": game, **options})["id"]


def moves_of(base, folder, game: str) -> tuple[list[str | None], str]:
    """The game's moves to its end, played through the API on a record of its own (None: Capitals'
    end of play, picked on the page), and that record. They are the same whoever enters them, as
    each is chosen from the table alone: the phones' game plays them without asking the referee's
    hints again."""
    moves = GAMES[game][1]
    rid = new_record(base, folder, game, "-count")
    played = []
    for turn in range(80):
        t = api(base, f"/api/records/{rid}/table")
        if t["over"]:
            return played, rid
        move = moves(base, rid, t)
        played.append(move)
        if move is None:                         # Capitals: one turn more, its end picked on the page
            return played, rid
        api(base, f"/api/records/{rid}/entries", {"entry": move})
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", list(GAMES))
def test_four_phones_play_a_game_to_its_end(server, four, game):
    base, folder = server
    options, _, (bad, rule), mistake = GAMES[game]
    planned, through_api = moves_of(base, folder, game)
    last = len(planned) - 1
    rid = new_record(base, folder, game)
    for p in four:
        open_table(p, base, rid)
    acked, turn, away = [], 0, False
    while True:
        t = api(base, f"/api/records/{rid}/table")
        if t["over"]:
            break
        assert turn < len(planned), "the game did not end with its moves"
        if PHONE_TURNS <= turn < last:                 # the turns between: the same moves, the phones away
            if not away:
                for p in four:
                    p.get("about:blank")
                away = True
            move = planned[turn]
            assert api(base, f"/api/records/{rid}/entries", {"entry": move})["said"]
            acked.append(move)
            turn += 1
            continue
        if away:                                       # back at the table for the last turn
            for p in four:
                open_table(p, base, rid)
                assert entries_shown(p) == len(acked)
            away = False
        mover = four[turn % 4]
        if turn == 1:                                  # a refused move, on the way
            refused_on(mover, bad, rule)
        if turn == 2:                                  # a mistake, undone from two phones at once
            wrong = mistake(base, rid, t)
            enter_on(mover, wrong)
            undo_from_two_phones_at_once(four[(turn + 1) % 4], four[(turn + 2) % 4], t["entries"] + 1)
        move = planned[turn]
        if move is None:                               # Capitals: the hands at the end of play, picked
            move = pick_hands(mover, t)
            tap(mover, "#enter")
            wait_for(mover, lambda d: entries_shown(d) == t["entries"] + 1, "the end of play")
            line = said(mover)
        else:
            line = enter_on(mover, move)
        assert not line.startswith("refused"), line
        acked.append(move)
        # the next phone, at a glance: what happened, in the log's words
        other = four[(turn + 1) % 4]
        wait_for(other, lambda d: entries_shown(d) == len(acked), "the next phone")
        assert text_of(other, "happened").startswith(f"Entry {len(acked)} on another phone: "), text_of(other, "happened")
        turn += 1
    for p in four:
        wait_for(p, lambda d: "over" in d.find_element("id", "turn").get_attribute("class"), "the game over")
    shot(four[0], SHOTS / f"four-{game}-over.png")
    # The journal holds what the phones were told was accepted, in order: the same entries, made
    # through the API on a record of their own (moves_of's, Capitals' end of play entered there
    # too), make the same journal.
    journal = yaml.safe_load((folder / f"{rid}.yaml").read_text())
    assert len(journal["entries"]) == len(acked) == len(planned)
    for move, meant in zip(acked, planned):
        if meant is None:
            assert api(base, f"/api/records/{through_api}/entries", {"entry": move})["said"]
    assert yaml.safe_load((folder / f"{through_api}.yaml").read_text())["entries"] == journal["entries"]


def pick_hands(driver, t) -> str:
    """The end of play from the page's lists: each player's hand picked by searching the cards
    (one with a comma in its name among them)."""
    tap(driver, "#end-of-play")
    wait_for(driver, lambda d: d.find_elements("css selector", "[data-hand]"), "the hands' lists")
    hands = {"Ann": ["Korea, North", "Chile"], "Bob": ["Peru"], "Cy": [], "Di": ["Germany, East"]}
    for player, cards in hands.items():
        for card in cards:
            box = driver.find_element("css selector", f"[data-hand='{player}']")
            box.send_keys(card)
            tap(driver, f"[data-add-hand='{player}']")
            wait_for(driver, lambda d: d.find_elements("css selector", f"[data-in-hand='{card}']"), f"{card} in the hand")
    entry = driver.execute_script("return document.getElementById('entry').value")
    assert entry == "end Ann: Korea, North, Chile; Bob: Peru; Cy: ; Di: Germany, East", entry
    return entry


# ---------------------------------------------------------------- four players, upright and on its side

FOUR = {"cubes": {"four": True, "players": "Ann, Bob, Cy, Di"}, "mille-bornes": {"players": "Ann, Bob, Cy, Di"},
        "sorry": {"players": "red, blue, yellow, green"}, "continuo": {"players": "Ann, Bob, Cy, Di"},
        "capitals": {"players": "Ann, Bob, Cy, Di"}}

# Each chip and each control: shown, and what is at its middle is itself (nothing covers it); on its
# side, reached by scrolling the page alone: no box between it and the page scrolls inside itself.
_CHECK = """
const problems = [];
const landscape = arguments[0];
const targets = [...document.querySelectorAll('#totals .chip, .zoom button, #controls button, #controls input, ' +
                 '.side > .panel button, #entry, #enter, #undo, #clear, .bar a')];
for (const el of targets) {
  if (el.closest('[hidden]') || el.offsetParent === null) {
    if (el.closest('[hidden]') && el.getClientRects().length) problems.push('hidden yet shown: ' + el.outerHTML.slice(0, 80));
    continue;
  }
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  if (r.bottom > innerHeight + 1 || r.top < -1 || r.right > innerWidth + 1 || r.left < -1) {
    problems.push('out of view: ' + el.outerHTML.slice(0, 80)); continue;
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || !(hit === el || el.contains(hit))) problems.push('covered: ' + el.outerHTML.slice(0, 80) + ' by ' +
                                                              (hit ? hit.outerHTML.slice(0, 80) : 'nothing'));
  if (landscape) {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll)/.test(s.overflowY) && p.scrollHeight > p.clientHeight + 1 && !p.matches('.message, #board'))
        problems.push('in a pane of its own: ' + el.outerHTML.slice(0, 60) + ' in ' + p.className);
    }
  }
}
window.scrollTo(0, 0);
return problems;
"""


# Entering without scrolling: the box, Enter and Undo on the first screen, uncovered, the page not
# scrolled (upright, Mille Bornes' four-player board once put Enter a screen below).
_ON_FIRST_SCREEN = """
window.scrollTo(0, 0);
const problems = [];
for (const id of ['entry', 'enter', 'undo']) {
  const el = document.getElementById(id), r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight || r.height === 0) { problems.push(id + ' off the screen: ' + r.top); continue; }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || !(hit === el || el.contains(hit))) problems.push(id + ' covered by ' + (hit ? hit.outerHTML.slice(0, 60) : 'nothing'));
}
return problems;
"""


@pytest.mark.parametrize("game", list(FOUR))
def test_four_players_upright_and_on_its_side(server, four, game):
    base, folder = server
    a = four[0]
    rid = api(base, "/api/records", {"game": game, **FOUR[game]})["id"]
    open_table(a, base, rid)
    chips = a.execute_script("return document.querySelectorAll('#totals .chip').length")
    assert chips == 4, chips
    wait_for(a, lambda d: d.execute_script("return picture.version === table.version"), "the picture")
    assert a.execute_script(_ON_FIRST_SCREEN) == []
    assert a.execute_script(_CHECK, False) == []
    shot(a, SHOTS / f"four-{game}-upright.png")
    a.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 844, "height": 390, "deviceScaleFactor": 2,
                                                             "mobile": True, "screenOrientation":
                                                             {"type": "landscapePrimary", "angle": 90}})
    try:
        wait_for(a, lambda d: d.execute_script("return innerWidth") == 844, "the phone on its side")
        time.sleep(0.3)
        assert a.execute_script(_CHECK, True) == []
        box = a.execute_script("const r = $('position').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]")
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= 844 * 0.66 and box[3] <= 390, box     # the whole board
        shot(a, SHOTS / f"four-{game}-landscape.png")
    finally:
        a.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2,
                                                                 "mobile": True})
