"""`pnp serve` as a table meets it: names however they arrive, what Undo says, a restarted server
that keeps its phones, the address it prints, and every resource a stranger can hold bounded (deep
JSON, made-up ids, slow headers and bodies, event streams). The page itself is driven in a real
browser in test_serve_browser.py."""
from __future__ import annotations

import asyncio
import io
import json
import os
import socket
import stat
import sys
import threading
import time

import httpx
import pytest
import uvicorn
import yaml

from generator.serve import guard as guard_module
from generator.serve.routes import events as events_module
from generator.serve import limits, local_addresses, session_token
from generator.serve.app import make_app

from conftest import ROOT, default_signals, pnp_here
from test_serve_api import AppClient


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "games"
    d.mkdir()
    return d


@pytest.fixture
def client(folder):
    c = AppClient(make_app(folder))
    yield c
    c.close()


def create(client, game, **options):
    return client.post("/api/records", json={"game": game, **options})


def enter(client, rid, text):
    return client.post(f"/api/records/{rid}/entries", json={"entry": text})


# ---------------------------------------------------------------- names

def test_names_with_spaces_work_in_mille_bornes_notation(client):
    """The start page sends the players as one line: "Ann Lee, Bob Marsh". Each is a name of two
    words, and an attack names its target however many words the name has."""
    r = create(client, "mille-bornes", players="Ann Lee, Bob Marsh")
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    for text in ("go", "Bob Marsh: go", "stop Bob Marsh", "bob marsh: priority-vehicle cf", "Bob Marsh: 100"):
        r = enter(client, rid, text)
        assert r.status_code == 200, (text, r.text)
    turns = client.get(f"/api/records/{rid}").json()["turns"]
    assert turns[2]["target"] == "Bob Marsh" and turns[3]["player"] == "Bob Marsh"
    assert client.get(f"/api/records/{rid}").json()["players"] == ["Ann Lee", "Bob Marsh"]


@pytest.mark.parametrize("game,players,rule", [
    ("cubes", "Ann, Ann", "two players named"),
    ("cubes", ["Ann", "ann"], "two players named"),
    ("capitals", "Ann: x, Bob", "a name has no"),
    ("continuo", ["A\x00nn", "Bob"], "only printable characters"),
    ("continuo", "\u202eAnn, Bob", "only printable characters"),
    ("mille-bornes", ["Ann\tLee", "Bob"], "plain spaces"),
    ("mille-bornes", ["Ann,Lee", "Bob"], "a name has no"),
    ("mille-bornes", ["cf", "Bob"], "a word of this game's notation"),
    ("capitals", ["x" * 41, "Bob"], "at most 40 characters"),
])
def test_one_check_for_names_from_every_door(client, tmp_path, game, players, rule):
    """The same name is refused, with the same rule, from the page (one line of text), the API (a
    list), the prompt's --players and a record: nothing is created or stored."""
    r = create(client, game, players=players)
    assert r.status_code == 422 and r.json()["error"].startswith("refused (players): ") and rule in r.json()["error"], r.text
    assert client.get("/api/records").json() == []
    listed = players if isinstance(players, list) else [p.strip() for p in players.split(",")]
    if not any(c in "".join(listed) for c in "\x00,"):        # a command line cannot carry a NUL, nor a comma in a name
        out = pnp_here("referee", game, "play", "--journal", tmp_path / "j.yaml", "--players", ",".join(listed))
        assert out.returncode == 2 and rule in out.stderr and not (tmp_path / "j.yaml").exists(), out.stderr
    record = tmp_path / "r.yaml"
    record.write_text(yaml.safe_dump({"game": game, "players": listed, "entries": []}, allow_unicode=True))
    out = pnp_here("referee", game, "score", record)
    assert out.returncode == 2 and "refused (players)" in out.stderr and rule in out.stderr, out.stderr


def test_the_draw_pile_is_not_declared_empty_from_the_page_while_cards_remain(client):
    rid = create(client, "mille-bornes", players="Ann, Bob", short=True).json()["id"]
    for text in ("go", "go"):
        assert enter(client, rid, text).status_code == 200
    r = enter(client, rid, "pile-empty")
    assert r.status_code == 422 and r.json()["error"].startswith("refused, entry 3 (draw pile): the draw pile still "
                                                                 "holds 92 cards"), r.text
    table = client.get(f"/api/records/{rid}/table").json()
    assert table["controls"]["pile_left"] == 92 and table["entries"] == 2


# ---------------------------------------------------------------- what the page is told

def test_undo_says_what_it_takes_back_before_and_after(client):
    rid = create(client, "mille-bornes", players="Ann, Bob").json()["id"]
    assert client.get(f"/api/records/{rid}/table").json()["last"] is None
    enter(client, rid, "go")
    enter(client, rid, "go")
    assert client.get(f"/api/records/{rid}/table").json()["last"] == {"number": 2, "text": "Bob plays go"}
    r = client.post(f"/api/records/{rid}/undo", json={})
    assert r.status_code == 200 and r.json()["said"] == "undone: entry 2 (Bob plays go); 1 entry remains"
    assert client.get(f"/api/records/{rid}/table").json()["last"] == {"number": 1, "text": "Ann plays go"}


def test_players_have_their_colours_on_the_page(client):
    cubes = create(client, "cubes").json()["id"]
    colours = client.get(f"/api/records/{cubes}/table").json()["controls"]["player_colours"]
    assert list(colours) == ["White", "Black"] and len(set(colours.values())) == 2
    sorry = create(client, "sorry", players="red, blue").json()["id"]
    colours = client.get(f"/api/records/{sorry}/table").json()["controls"]["player_colours"]
    assert list(colours) == ["red", "blue"] and colours["red"] != colours["blue"]


def test_the_new_game_form_speaks_a_players_words(client):
    options = {f["name"]: f for f in client.get("/api/games/mille-bornes").json()["options"]}
    assert options["deck"]["kind"] == "choice" and options["deck"]["choice_labels"][""].startswith("The published game")
    assert options["short"]["label"].startswith("The short game")
    continuo = {f["name"]: f for f in client.get("/api/games/continuo").json()["options"]}
    assert continuo["openings"]["label"].startswith("Opening tiles")
    # The default choice ("") is the game's default deck; the patent's is chosen by its label's value.
    rid = create(client, "mille-bornes", players="Ann, Bob", deck="").json()["id"]
    assert "deck" not in client.get(f"/api/records/{rid}/table").json()["header"]


@pytest.mark.slow      # the world map drawn as SVG (test_serve_round3's Capitals entry fetches it, quick)
def test_the_capitals_map_is_sent_once_and_compressed(client):
    rid = create(client, "capitals", players="Ann, Bob").json()["id"]
    table = client.get(f"/api/records/{rid}/table").json()
    back = client.get(table["background"], headers={"Accept-Encoding": "gzip"})
    assert back.status_code == 200 and back.headers["content-encoding"] == "gzip"
    assert "immutable" in back.headers["cache-control"] and int(back.headers["content-length"]) < 60_000
    assert len(back.content) > 80_000                     # the map itself (its land), unzipped by the client
    assert enter(client, rid, "Belgium D22E8").status_code == 200
    after = client.get(f"/api/records/{rid}/table").json()
    assert after["background"] == table["background"]     # the same address: the phone keeps it
    pos = client.get(f"/api/records/{rid}/position.svg", headers={"Accept-Encoding": "gzip"})
    assert pos.headers["content-encoding"] == "gzip" and int(pos.headers["content-length"]) < 2_000
    assert "<line" in pos.text or "<path" in pos.text      # the wall is in the foreground


# ---------------------------------------------------------------- bounded under abuse

def test_deep_json_and_lone_surrogates_are_400s(client):
    post = lambda path, body: client.post(path, content=body, headers={"Content-Type": "application/json"})
    r = post("/api/records", "[" * 16000)
    assert r.status_code == 400 and "nests deeper" in r.json()["error"]
    deep = '{"game": "cubes", "players": ' + "[" * 2000 + "]" * 2000 + "}"
    r = post("/api/records", deep)
    assert r.status_code == 400 and "nests deeper" in r.json()["error"]
    r = post("/api/records", '{"game": "continuo", "players": ["Ann\\ud800", "Bob"]}')
    assert r.status_code == 400 and "surrogate" in r.json()["error"]
    rid = create(client, "cubes").json()["id"]
    r = post(f"/api/records/{rid}/entries", '{"entry": "d4-d6\\udc00"}')
    assert r.status_code == 400


def test_made_up_ids_cost_nothing_that_stays(folder):
    app = make_app(folder)
    c = AppClient(app)
    try:
        store = app.app.state.served.store
        # (ten ids: a lock kept for any one of them would show below; their number adds nothing, and
        # a hundred cost ten times as much)
        for i in range(10):
            assert c.get(f"/api/records/bogus-{i}").status_code == 404
        assert store._locks == {}
    finally:
        c.close()


def test_ids_match_whole_and_errors_name_no_server_path(client, folder):
    (folder / "nl\n.yaml").write_text("game: cubes\nentries: []\n")
    assert client.get("/api/records/nl%0A").status_code == 404
    (folder / "broken.yaml").write_text("game: cubes\nentries: [\n")
    r = client.get("/api/records/broken")
    assert r.status_code == 422 and r.json()["error"].startswith("broken.yaml:"), r.text
    assert str(folder) not in r.text and str(folder.parent) not in r.text
    listed = client.get("/api/records").json()
    assert all(str(folder) not in json.dumps(x) for x in listed)


def test_websockets_are_refused(folder):
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect
    with TestClient(make_app(folder, token="s3cret")) as c:
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/api/records"):
                pass


def test_head_on_events_opens_no_stream(client):
    rid = create(client, "cubes").json()["id"]
    r = client._loop.run(client._http.head(f"/api/records/{rid}/events"))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream") and r.content == b""


class Server:
    """The app under uvicorn with the protocol `pnp serve` runs, on a free loopback port, in a thread."""

    def __init__(self, folder, **config):
        from generator.serve import _bind
        self.sock = _bind("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(make_app(folder), log_level="warning", lifespan="off", ws="none",
                                                    http=limits.TimedH11Protocol, timeout_graceful_shutdown=1,
                                                    **config))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self):
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(5)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=10)


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
        return True
    except (socket.timeout, TimeoutError):
        return False
    except OSError:
        return True


@pytest.mark.slow      # a real server waiting out its timeouts (its event streams' test stays quick)
def test_slow_headers_and_bodies_are_cut_off(folder, monkeypatch):
    monkeypatch.setattr(limits, "HEADER_SECONDS", 0.5)
    monkeypatch.setattr(guard_module, "BODY_SECONDS", 0.5)
    with Server(folder) as srv:
        silent = srv.connect()                                  # connects and says nothing
        slow = srv.connect()
        slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # headers never finished
        assert _closed_within(silent, 3) and _closed_within(slow, 3)
        body = srv.connect()
        body.sendall(b"POST /api/records HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"game\"")      # a body that trickles and stops
        body.settimeout(3)
        assert b" 408 " in body.recv(4096).split(b"\r\n")[0]
        # A kept-alive connection still works at its own pace.
        with httpx.Client(base_url=f"http://127.0.0.1:{srv.port}") as c:
            assert c.get("/api/games").status_code == 200
            time.sleep(0.8)
            assert c.get("/api/games").status_code == 200


def test_event_streams_are_capped_and_end_with_their_record(folder, monkeypatch):
    monkeypatch.setattr(events_module, "MAX_STREAMS_RECORD", 2)
    monkeypatch.setattr(events_module, "POLL", 0.1)
    with Server(folder) as srv:
        with httpx.Client(base_url=f"http://127.0.0.1:{srv.port}", timeout=10) as c:
            rid = c.post("/api/records", json={"game": "cubes"}).json()["id"]
            streams = [srv.connect() for _ in range(2)]
            for s in streams:
                s.sendall(f"GET /api/records/{rid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                s.settimeout(5)
                assert b" 200 " in s.recv(4096).split(b"\r\n")[0]
            r = c.get(f"/api/records/{rid}/events")
            assert r.status_code == 503 and "every few seconds" in r.json()["error"]
            (folder / f"{rid}.yaml").unlink()                  # the record goes: so do its streams
            for s in streams:
                got = b""
                s.settimeout(5)
                while chunk := s.recv(4096):
                    got += chunk
                    if b"event: gone" in got:
                        break
                assert b"event: gone" in got
            time.sleep(0.3)
            rid2 = c.post("/api/records", json={"game": "cubes"}).json()["id"]
            assert c.head(f"/api/records/{rid2}/events").status_code == 200


# ---------------------------------------------------------------- a server started again, and its address

def test_the_token_is_kept_across_restarts_and_private(folder):
    first = session_token(folder)
    assert session_token(folder) == first
    path = folder / ".pnp-serve-token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert session_token(folder, new=True) != first
    os.chmod(path, 0o644)                                    # readable by others: not trusted, replaced
    replaced = session_token(folder)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and replaced != first
    path.unlink()
    os.symlink(folder / "elsewhere", path)                   # a link is never followed
    made = session_token(folder)
    assert not path.is_symlink() and not (folder / "elsewhere").exists() and len(made) >= 24


def test_without_the_token_a_phone_gets_a_page_that_says_what_to_do(folder):
    from starlette.testclient import TestClient
    with TestClient(make_app(folder, token="s3cret")) as c:
        r = c.get("/", headers={"Accept": "text/html"})
        assert r.status_code == 401 and r.headers["content-type"].startswith("text/html")
        assert 'name="viewport"' in r.text and "needs its link" in r.text and "QR code" in r.text
        assert c.get("/static/pnp.css").status_code == 200   # so that page is styled
        assert c.get("/api/games").status_code == 401 and "token" in c.get("/api/games").json()["error"]


def _serve(folder, *args):
    import subprocess
    return subprocess.Popen([sys.executable, "-m", "generator", "serve", "--dir", str(folder), "--port", "0", *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=default_signals)


def _first_lines(proc, n=12, seconds=20) -> list[str]:
    lines, end = [], time.monotonic() + seconds
    while len(lines) < n and time.monotonic() < end:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip())
        if line.startswith("Ctrl-C"):
            break
    return lines


@pytest.mark.slow      # `pnp serve` started in a process of its own, as a user starts it
def test_a_loopback_address_is_printed_as_given_and_answered(folder):
    import re
    import signal
    import urllib.request
    proc = _serve(folder, "--host", "127.0.0.2")
    try:
        lines = _first_lines(proc)
        m = next(re.search(r"open http://127\.0\.0\.2:(\d+)/$", x) for x in lines if x.startswith("  open "))
        port = m.group(1)
        with urllib.request.urlopen(f"http://127.0.0.2:{port}/api/games", timeout=10) as r:
            assert r.status == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)


@pytest.mark.slow      # `pnp serve` started in a process of its own, as a user starts it
def test_the_network_address_printed_is_one_a_phone_can_open(folder):
    import signal
    proc = _serve(folder, "--host", "0.0.0.0")
    try:
        text = "\n".join(_first_lines(proc, 40))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    assert "0.0.0.0" not in text
    found = local_addresses()
    if found:
        assert f"open http://{found[0]}:" in text and "?token=" in text
    else:
        assert "No network address found" in text and "ip -4 addr" in text
    assert all(not a.startswith("127.") for a in found)


# ---------------------------------------------------------------- one way to enter, at the prompt and on the page

@pytest.mark.parametrize("game,options,lines", [
    ("mille-bornes", {"players": "Ann Lee, Bob"}, ["go", "go", "Ann Lee: 100", "pile-empty", "stop Ann Lee", "undo", "75"]),
    ("sorry", {"players": "red, blue"}, ["1 out", "5 out", "1 out", "undo", "2 out"]),
    ("cubes", {}, ["d4-d6", "d4-d6", "g7-g5", "undo", "e7>s1"]),
    ("continuo", {"players": "Ann, Bob"}, ["open 12 0,0", "open 7 0,4", "30 40,40 90", "undo"]),
])
def test_the_prompt_and_the_page_write_the_same_journal(folder, tmp_path, game, options, lines):
    """The same entries (a refusal and an undo among them) at the prompt and through the API make
    journals equal byte for byte: one Game makes, refuses and undoes entries for both."""
    import argparse
    from generator.games import GAMES
    from generator.referee.prompt import play
    from generator.serve.store import play_argv, play_parser
    client = AppClient(make_app(folder))
    try:
        rid = create(client, game, **options).json()["id"]
        said = []
        for line in lines:
            r = client.post(f"/api/records/{rid}/undo", json={}) if line == "undo" else enter(client, rid, line)
            said.append(r.json().get("said") or r.json().get("error"))
    finally:
        client.close()
    args = play_parser(GAMES[game]).parse_args(play_argv(GAMES[game], options))
    journal = tmp_path / "prompt.yaml"
    out = io.StringIO()
    play(GAMES[game].referee(), journal, args, inp=io.StringIO("\n".join(lines) + "\nquit\n"), out=out)
    assert journal.read_bytes() == (folder / f"{rid}.yaml").read_bytes(), out.getvalue()
    for line in said:                       # every line the page was told, the prompt said too
        assert line in out.getvalue(), line
