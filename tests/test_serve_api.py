"""`pnp serve`'s JSON API, game by game, against `pnp referee` itself: a whole game of each kind is
played through the API in the prompt's notation (with the hints the page offers: Continuo's best,
Sorry's moves, Capitals' walls), and the record it wrote is scored by the real command line, which
must print exactly the object the API answers. Refusals answer the very line the prompt prints for
the same entry and change nothing (not a byte of the file); undo takes back one entry; a journal
written by `play` is resumed and one written here is replayed; a stale entry is refused, never
applied twice, however many clients send it at once; and nothing outside the folder is reachable."""
from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import threading

import httpx
import pytest
import yaml
from starlette.testclient import TestClient

from generator.games import GAMES
from generator.serve.app import MAX_BODY, make_app

from conftest import ROOT, default_signals, pnp_here, run_pnp

# A won game of Cubes from the kit's setup (found by seeded random play: tests/test_cubes_random.py's
# candidates): White's last turn takes Black's king cube.
CUBES_WIN = ["f5>s2", "g7>n1", "f3:c3>w1 e4-e5", "h8:g8>e1", "d4-f4 g5>n2"]
SORRY_PACK = ["1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry"]


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "games"
    d.mkdir()
    return d


class AppClient:
    """The app called from this thread's own event loop through httpx's ASGI transport: the
    requests TestClient makes, without its thread portal (about 4 ms a request there, 0.3 ms here,
    and a whole game is hundreds of them). The app still does its blocking work in its worker
    threads, as under uvicorn. Many clients at once are TestClients in threads (see below)."""

    def __init__(self, app):
        self._loop = asyncio.Runner()
        self._http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")

    def get(self, url, **kw) -> httpx.Response:
        return self._loop.run(self._http.get(url, **kw))

    def post(self, url, **kw) -> httpx.Response:
        return self._loop.run(self._http.post(url, **kw))

    def close(self) -> None:
        self._loop.run(self._http.aclose())
        self._loop.close()


@pytest.fixture
def undrawn(monkeypatch):
    """The server draws each new position for the phones as soon as an entry is taken, before they
    ask (routes/entries.py): two thirds of a whole game's time here and in test_serve_round3 (which
    borrows this client), where tests read the JSON, and position.svg is drawn when asked.
    test_serve_table's own client, and the browser modules, keep the drawing after an entry. (The
    JSON still carries the drawing's size: the position is still drawn, not written out as SVG.)"""
    import generator.serve.routes.entries as entries
    monkeypatch.setattr(entries, "position_pieces", lambda t: None)


@pytest.fixture
def client(folder, undrawn):
    c = AppClient(make_app(folder))
    yield c
    c.close()


def new(client, game, **options) -> str:
    r = client.post("/api/records", json={"game": game, **options})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def enter(client, rid, text, **kw):
    return client.post(f"/api/records/{rid}/entries", json={"entry": text, **kw})


def accepted(client, rid, text) -> dict:
    r = enter(client, rid, text)
    assert r.status_code == 200, (text, r.text)
    return r.json()


def cli_score(folder, rid, game) -> dict:
    r = pnp_here("referee", game, "score", folder / f"{rid}.yaml", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def same_as_cli(client, folder, rid, game) -> dict:
    """The API's object is `score --json`'s, for the file the API wrote."""
    web = client.get(f"/api/records/{rid}").json()
    assert web == cli_score(folder, rid, game)
    return web


# ---------------------------------------------------------------- a whole game of each kind

def test_the_games_and_their_options(client):
    played = [g for g, d in GAMES.items() if d.referee is not None]    # (not the `deck` kind: no referee)
    assert client.get("/api/games").json() == played and "deck" in GAMES and "deck" not in played
    assert list(client.get("/api/titles").json()) == played
    options = {g: {o["name"]: o for o in client.get(f"/api/games/{g}").json()["options"]} for g in played}
    assert options["cubes"]["four"]["kind"] == "flag"
    assert options["sorry"]["variant"]["choices"] == ["standard", "solitaire", "dealt-hand"]
    assert options["continuo"]["openings"]["kind"] == "number" and "variant" not in options["count-continuo"]
    assert set(options["mille-bornes"]) == {"players", "teams", "deck", "short"}
    assert client.get("/api/games/chess").status_code == 404


@pytest.mark.parametrize("game", ["continuo", "count-continuo"])
def test_continuo_whole_game_with_best(client, folder, game):
    """42 tiles from a shuffled pack, each laid where `best` puts it first."""
    rid = new(client, game, players=["Ann", "Bob"])
    pack = list(range(1, 43))
    random.Random(7).shuffle(pack)
    first = pack.pop()
    accepted(client, rid, f"open {first} 0,0")
    while pack:
        tile = pack.pop()
        h = client.get(f"/api/records/{rid}/hint/best", params={"arg": str(tile)}).json()
        best = h["placements"][0]
        opening = "open " if len(pack) == 40 else ""
        out = accepted(client, rid, f"{opening}{tile} {best['at'][0]},{best['at'][1]} {best['rotation']}")
        assert out["placements"][-1]["score"] == (0 if opening else best["score"])
    web = same_as_cli(client, folder, rid, game)
    assert web["complete"] and web["placed"] == 42
    assert sum(web["totals"].values()) == sum(p["score"] for p in web["placements"]) > 0
    assert web["winner"] in ("Ann", "Bob", None)
    assert enter(client, rid, "1 0,0").status_code == 422     # the game is over


def test_sorry_whole_game_with_moves(client, folder):
    """Cards from a shuffled pack; each turn one of the moves the referee lists (a pass when none)."""
    rid = new(client, "sorry", players="red,blue")
    rng = random.Random(0)
    pack, turns, state = [], 0, {"winner": None}
    while not state["winner"]:
        if not pack:
            pack = [c for c in SORRY_PACK for _ in range(4)]
            rng.shuffle(pack)
        card = pack.pop()
        moves = client.get(f"/api/records/{rid}/hint/moves", params={"arg": card}).json()["moves"]
        text = moves[0]["entry"] if moves else f"{card} pass"
        if not moves and turns % 5 == 0:    # no move listed: out is refused, pass taken
            assert enter(client, rid, f"{card} out").status_code == 422
        state = accepted(client, rid, text)
        turns += 1
        assert turns < 600
    web = same_as_cli(client, folder, rid, "sorry")
    assert web["totals"][web["winner"]] == 4 and len(web["turns"]) == turns


def test_cubes_whole_game(client, folder):
    rid = new(client, "cubes")
    for move in CUBES_WIN:
        accepted(client, rid, move)
    web = same_as_cli(client, folder, rid, "cubes")
    assert web["winner"] == "White" and web["turns"][-1]["captured"] == ["Black's king cube"]
    r = enter(client, rid, "c8-c7")
    assert r.status_code == 422 and r.json()["error"] == "refused, entry 6 (game over): White has already won"


def test_mille_bornes_whole_game(client, folder):
    """The patent's game (won by the first to 1000 miles), card by card, as the worked hand."""
    rid = new(client, "mille-bornes", players=["Ann", "Bob"], deck="decks/mille_bornes_1961.yaml")
    record = yaml.safe_load((ROOT / "tests/records/mille-bornes.yaml").read_text())
    for e in record["entries"][:20]:
        text = f"{e['player']}: " + (f"discard {e['discard']}" if "discard" in e else str(e["card"]))
        text += f" {e['target']}" if "target" in e else ""
        text += " cf" if e.get("coup_fourre") else ""
        accepted(client, rid, text)
    web = same_as_cli(client, folder, rid, "mille-bornes")
    assert web["winner"] == "Ann" and web["totals"] == {"Ann": 1400, "Bob": 300}


def test_capitals_whole_game_with_walls(client, folder):
    """Cards with walls the page offers (the ones the referee accepts), then the end of play."""
    rid = new(client, "capitals", players="Ann,Bob")
    cards = ["Belgium", "Netherlands", "France", "Spain", "Italy", "Germany, Federal Republic"]
    laid = 0
    for card in cards:
        h = client.get(f"/api/records/{rid}/hint/walls", params={"arg": card})
        if h.status_code != 200:
            continue
        walls = h.json()["walls"]
        if not walls:
            continue
        accepted(client, rid, f"{card} {walls[0]['wall']}")
        laid += 1
    assert laid >= 4
    table = client.get(f"/api/records/{rid}/table").json()
    to_move = table["prompt"]
    accepted(client, rid, f"end {to_move}: Chile; {'Bob' if to_move == 'Ann' else 'Ann'}:")
    web = same_as_cli(client, folder, rid, "capitals")
    assert web["over"] and len(web["turns"]) == laid + 1
    assert web["totals"][to_move] == -len("Santiago")        # Chile's letters count against its holder


# ---------------------------------------------------------------- refusals, undo, the journal

PROMPT_CASES = [   # game, options, entries before, the refused entry
    ("cubes", {}, ["d4-d6"], "d6-d8"),
    ("continuo", {"players": "Ann,Bob"}, ["open 1 0,0"], "open 2 9,9"),
    ("sorry", {"players": "red,blue"}, ["2 out"], "5 out"),
    ("mille-bornes", {"players": "Ann,Bob"}, ["go"], "Ann: 200"),
    ("capitals", {"players": "Ann,Bob"}, [], "Belgium A1E8"),
]


@pytest.mark.parametrize("game,options,before,bad", PROMPT_CASES, ids=[c[0] for c in PROMPT_CASES])
def test_a_refusal_is_the_prompts_line_and_changes_nothing(client, folder, tmp_path, game, options, before, bad):
    rid = new(client, game, **options)
    for text in before:
        accepted(client, rid, text)
    path = folder / f"{rid}.yaml"
    bytes_before, state_before = path.read_bytes(), client.get(f"/api/records/{rid}").json()
    r = enter(client, rid, bad)
    assert r.status_code == 422
    error = r.json()["error"]
    assert error.startswith(f"refused, entry {len(before) + 1} (")
    assert path.read_bytes() == bytes_before and client.get(f"/api/records/{rid}").json() == state_before
    # the prompt, given the same entries, prints the same line
    argv = [f"--{k}={v}" for k, v in options.items()]
    journal = tmp_path / "prompt.yaml"
    p = pnp_here("referee", game, "play", "--journal", journal, *argv, input="\n".join(before + [bad, "quit"]) + "\n")
    assert error + "\n" in p.stdout


def test_notation_errors_and_bad_requests(client):
    rid = new(client, "cubes")
    r = enter(client, rid, "d4 to d6")
    assert r.status_code == 422 and r.json()["error"].startswith("refused, entry 1 (notation): ")
    assert enter(client, rid, "").status_code == 422
    assert client.post(f"/api/records/{rid}/entries", json={"move": "d4-d6"}).status_code == 400
    assert client.post(f"/api/records/{rid}/entries", json={"entry": 5}).status_code == 400
    assert client.post(f"/api/records/{rid}/entries", json={"entry": "d4-d6", "expect": "0"}).status_code == 400
    assert client.post(f"/api/records/{rid}/entries", content=b"d4-d6",
                       headers={"Content-Type": "text/plain"}).status_code == 415
    assert client.post(f"/api/records/{rid}/entries", content=b"{not json",
                       headers={"Content-Type": "application/json"}).status_code == 400
    # a record's own entry form is taken too, and checked against the record schema
    assert client.post(f"/api/records/{rid}/entries", json={"entry": {"move": "d4-d6"}}).status_code == 200
    r = client.post(f"/api/records/{rid}/entries", json={"entry": {"move": "e7-e6", "extra": 1}})
    assert r.status_code == 422 and "(notation)" in r.json()["error"]
    # new games: play's options, checked as play checks them
    assert client.post("/api/records", json={"game": "cubes", "colour": "red"}).status_code == 400
    assert client.post("/api/records", json={"game": "cubes", "four": "yes"}).status_code == 400
    assert client.post("/api/records", json={"game": "sorry", "variant": "chess"}).status_code == 400
    assert client.post("/api/records", json={"game": "continuo", "openings": 2.5}).status_code == 400
    assert client.post("/api/records", json={"game": "../x"}).status_code == 400
    r = client.post("/api/records", json={"game": "sorry", "players": "red,purple"})
    assert r.status_code == 422 and r.json()["error"].startswith("refused (players): ")


def test_undo(client, folder):
    rid = new(client, "cubes")
    accepted(client, rid, "d4-d6")
    after_one = (folder / f"{rid}.yaml").read_bytes()
    accepted(client, rid, "e7-e6")
    r = client.post(f"/api/records/{rid}/undo", json={})
    assert r.status_code == 200 and r.headers["X-Entries"] == "1"
    assert [t["moves"] for t in r.json()["turns"]] == [["d4-d6"]]
    assert (folder / f"{rid}.yaml").read_bytes() == after_one
    assert same_as_cli(client, folder, rid, "cubes")["turns"][0]["player"] == "White"
    assert client.post(f"/api/records/{rid}/undo", json={}).status_code == 200
    r = client.post(f"/api/records/{rid}/undo", json={})
    assert r.status_code == 422 and r.json()["error"] == "nothing to undo"


def test_resume_a_prompt_journal_and_the_prompt_resumes_ours(client, folder):
    journal = folder / "evening.yaml"
    p = pnp_here("referee", "sorry", "play", "--journal", journal, "--players=red,blue", input="2 out\n8 5+8\nquit\n")
    assert p.returncode == 0, p.stderr
    listed = client.get("/api/records").json()
    assert [r["id"] for r in listed] == ["evening"] and listed[0]["entries"] == 2
    assert client.get("/api/records/evening").json() == cli_score(folder, "evening", "sorry")
    accepted(client, "evening", "1 out")
    p = pnp_here("referee", "sorry", "play", "--journal", journal, input="quit\n")
    assert "Resumed" in p.stdout and "3 entries replayed" in p.stdout
    assert cli_score(folder, "evening", "sorry")["turns"][-1]["player"] == "blue"
    # the prompt writes again; the server sees it, and refuses an entry made against the old game
    seen = client.get("/api/records/evening/table").json()
    pnp_here("referee", "sorry", "play", "--journal", journal, input="1 out\nquit\n")
    r = enter(client, "evening", "3 pass", expect=seen["entries"], version=seen["version"])
    assert r.status_code == 409 and r.json()["error"].startswith("refused, entry 4 (stale journal): ")
    assert client.get("/api/records/evening").headers["X-Entries"] == "4"


def test_stale_entries_are_refused_not_applied_twice(client, folder):
    rid = new(client, "mille-bornes", players=["Ann", "Bob"])
    table = client.get(f"/api/records/{rid}/table").json()
    assert enter(client, rid, "go", expect=table["entries"]).status_code == 200
    r = enter(client, rid, "go", expect=table["entries"])        # a second phone, the same tap
    assert r.status_code == 409 and "(stale journal)" in r.json()["error"]
    assert client.get(f"/api/records/{rid}").headers["X-Entries"] == "1"
    # an undo and another entry make the same count: the version tells them apart
    v = client.get(f"/api/records/{rid}/table").json()
    client.post(f"/api/records/{rid}/undo", json={})
    accepted(client, rid, "discard 25")
    r = enter(client, rid, "Bob: go", expect=v["entries"], version=v["version"])
    assert r.status_code == 409 and "(stale journal)" in r.json()["error"]
    r = client.post(f"/api/records/{rid}/undo", json={"expect": 5})
    assert r.status_code == 409


def test_concurrent_clients_one_entry_each(folder):
    """Eight clients send the same entry at once, each saying what it saw: one is applied."""
    app = make_app(folder)
    with TestClient(app) as c:
        rid = new(c, "cubes")
    results = []

    def phone():
        with TestClient(app) as c:
            results.append(enter(c, rid, "d4-d6", expect=0).status_code)
    threads = [threading.Thread(target=phone) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200] + [409] * 7
    assert yaml.safe_load((folder / f"{rid}.yaml").read_text())["entries"] == [{"move": "d4-d6"}]


# ---------------------------------------------------------------- what the page reads

def test_table_svg_and_events(client, folder):
    for game, move in (("continuo", "open 3 0,0"), ("sorry", "1 out"), ("mille-bornes", "go"), ("cubes", "d4-d6"),
                       ("capitals", "Belgium D22E8")):
        rid = new(client, game, **({"players": "red,blue"} if game == "sorry" else {}))
        accepted(client, rid, move)
        t = client.get(f"/api/records/{rid}/table")
        data = t.json()
        assert data["entries"] == 1 and t.headers["ETag"] == f'"{data["version"]}"'
        assert data["summary"] == cli_score(folder, rid, game) and data["log"]
        svg = client.get(f"/api/records/{rid}/position.svg")
        assert svg.headers["content-type"].startswith("image/svg+xml")
        assert svg.text.startswith("<svg") and f'viewBox="0 0 {data["drawing"]["width"]:g}' in svg.text
        assert "<script" not in svg.text and "http://" not in svg.text.replace("http://www.w3.org", "")
    assert client.get("/").status_code == 200 and client.get(f"/t/{rid}").status_code == 200
    assert client.get("/t/nothing").status_code == 404


def test_static_assets_ship_in_the_package_and_fetch_nothing_from_elsewhere():
    from generator.serve.app import STATIC
    files = sorted(p.name for p in STATIC.iterdir())
    assert {"start.html", "table.html", "common.js", "start.js", "table.js", "pnp.css"} <= set(files)
    for p in STATIC.iterdir():
        text = p.read_text()
        for url in ("http://", "https://", "//cdn", "@import"):
            assert url not in text.replace("http://www.w3.org/2000/svg", ""), (p.name, url)
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"generator.serve" = ["static/*"]' in pyproject


# ---------------------------------------------------------------- safety

def test_nothing_outside_the_folder(client, folder, tmp_path):
    (tmp_path / "secret.yaml").write_text("game: cubes\nentries: []\n")
    os.symlink(tmp_path / "secret.yaml", folder / "link.yaml")
    (folder / ".hidden.yaml").write_text("game: cubes\nentries: []\n")
    for rid in ("..%2Fsecret", "../secret", "link", ".hidden", "%2E%2E", "secret", "a/b", "..", "x" * 300):
        for path in (f"/api/records/{rid}", f"/api/records/{rid}/position.svg"):
            assert client.get(path).status_code == 404, path
        r = client.post(f"/api/records/{rid}/entries", json={"entry": "d4-d6"})
        assert r.status_code == 404, rid
    assert client.get("/api/records").json() == []
    assert client.get("/static/../store.py").status_code == 404
    assert (tmp_path / "secret.yaml").read_text() == "game: cubes\nentries: []\n"


def test_body_size_is_limited(client):
    rid = new(client, "cubes")
    big = {"entry": "d4-d6 " + "x" * MAX_BODY}
    assert client.post(f"/api/records/{rid}/entries", json=big).status_code == 413
    assert client.post("/api/records", json={"game": "cubes", "players": "a" * MAX_BODY}).status_code == 413


def test_token_and_host(folder):
    with TestClient(make_app(folder, token="s3cret")) as c:
        assert c.get("/api/games").status_code == 401
        assert c.get("/api/games", headers={"X-PNP-Token": "wrong"}).status_code == 401
        # The page with the token sets the cookie and sends the phone on to the address without it.
        r = c.get("/t/x?token=s3cret&a=1", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/t/x?a=1"
        assert "pnp_token=s3cret" in r.headers["set-cookie"]
        assert "HttpOnly" in r.headers["set-cookie"] and "SameSite=Lax" in r.headers["set-cookie"]
        assert c.get("/api/games").status_code == 200          # the cookie from now on
        assert c.get("/").status_code == 200
    with TestClient(make_app(folder, allowed_hosts=("127.0.0.1:8000",))) as c:
        assert c.get("/api/games").status_code == 421           # Host: testserver
        assert c.get("/api/games", headers={"Host": "127.0.0.1:8000"}).status_code == 200
        assert c.get("/api/games", headers={"Host": "evil.example:8000"}).status_code == 421
    with TestClient(make_app(folder)) as c:
        r = c.get("/")
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"


@pytest.mark.slow      # what a fresh interpreter imports: a process of its own
def test_referee_does_not_import_the_web_framework():
    code = ("import sys; from generator import cli; "
            "cli.main(['referee', 'cubes', 'score', 'tests/records/cubes.yaml']); "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'segno') if m in sys.modules))")
    import subprocess
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.stdout.strip().splitlines()[-1] == "[]", r.stdout + r.stderr


def test_the_serve_command(folder):
    """`pnp serve` as a user starts it: it prints where to open it, answers there (on loopback,
    to requests addressed to it), and stops on a signal, leaving the records as they are."""
    import re
    import signal
    import subprocess
    import urllib.request
    bad = run_pnp("serve", "--dir", folder / "nothing")
    assert bad.returncode == 2 and bad.stderr.startswith("pnp: --dir ")
    proc = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--dir", folder, "--port", "0"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=default_signals)
    try:
        port = None
        for _ in range(50):
            m = re.search(r"open http://127\.0\.0\.1:(\d+)/$", proc.stdout.readline().rstrip())
            if m:
                port = int(m.group(1))
                break
        assert port, "no address printed"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=10) as r:
            assert json.loads(r.read()) == [g for g, d in GAMES.items() if d.referee is not None]
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", headers={"Host": "attacker.example"})
        try:
            urllib.request.urlopen(req, timeout=10)
            raise AssertionError("answered a request for another host")
        except urllib.error.HTTPError as exc:
            assert exc.code == 421
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    assert "nothing was left half-written" in out
