"""`pnp serve` at a table of four, round three (issue 33), the server's side: an undo names the entry
it takes back; names and colours as a phone types them; every card's name in the notation;
bounds counted when a stream is admitted; a new game's teams checked as names; errors that name no
folder of the server's machine; and a server handed its games, tested without a subprocess."""
from __future__ import annotations

import asyncio
import json

import pytest
import yaml

from generator.games import GAMES
from generator.paths import project_root
from generator.serve.app import make_app
from generator.serve.routes import events as events_module

from test_serve_api import AppClient, client, folder, new, undrawn  # noqa: F401 (fixtures)


def entries_in(folder, rid) -> list:
    return yaml.safe_load((folder / f"{rid}.yaml").read_text())["entries"]


def test_the_server_is_handed_its_games(folder):
    """As boardgame.io's Server is handed its games: this one serves Cubes only, and knows no other."""
    c = AppClient(make_app(folder, games={"cubes": GAMES["cubes"], "deck": GAMES["deck"]}))
    try:
        assert c.get("/api/games").json() == ["cubes"]            # deck has no referee: not played
        assert c.get("/api/titles").json() == {"cubes": GAMES["cubes"].title}
        assert c.get("/api/games/sorry").status_code == 404
        r = c.post("/api/records", json={"game": "sorry"})
        assert r.status_code == 400 and "the games: cubes" in r.json()["error"]
        rid = new(c, "cubes")
        assert c.post(f"/api/records/{rid}/entries", json={"entry": "d4-d6"}).status_code == 200
    finally:
        c.close()
    # a record of a game this server was not handed is not played here
    other = AppClient(make_app(folder, games={"sorry": GAMES["sorry"]}))
    try:
        r = other.get(f"/api/records/{rid}/table")
        assert r.status_code == 422 and "expected one of sorry" in r.json()["error"]
    finally:
        other.close()


def test_two_phones_undoing_one_mistake_take_back_one_entry(client, folder):
    rid = new(client, "mille-bornes", players="Ann, Bob")
    for move in ("GO", "GO", "200"):
        assert client.post(f"/api/records/{rid}/entries", json={"entry": move}).status_code == 200
    table = client.get(f"/api/records/{rid}/table").json()
    seen = {"entry": table["last"]["number"], "version": table["version"]}      # both phones saw entry 3
    first = client.post(f"/api/records/{rid}/undo", json=seen)
    assert first.status_code == 200 and first.json()["said"].startswith("undone: entry 3 (Ann plays 200")
    assert first.json()["table"]["entries"] == 2                # what the page shows now, in the same answer
    second = client.post(f"/api/records/{rid}/undo", json=seen)
    assert second.status_code == 409, second.text
    assert second.json()["error"].startswith("refused, undo of entry 3 (stale journal): it was taken back already")
    assert len(entries_in(folder, rid)) == 2
    # the same number with the version of another game (entry 3 undone and another made) is stale too
    assert client.post(f"/api/records/{rid}/entries", json={"entry": "25"}).status_code == 200
    third = client.post(f"/api/records/{rid}/undo", json=seen)
    assert third.status_code == 409 and "changed since" in third.json()["error"]
    r = client.post(f"/api/records/{rid}/undo", json={"entry": "3"})
    assert r.status_code == 400 and "entry: the number of the entry" in r.json()["error"]
    assert len(entries_in(folder, rid)) == 3


def test_names_and_colours_are_matched_without_regard_to_case(client, folder):
    rid = new(client, "sorry", players="Red, Blue")            # as a phone's keyboard capitalises them
    assert client.get(f"/api/records/{rid}/table").json()["prompt"].startswith("red")
    r = client.post("/api/records", json={"game": "sorry", "players": "Red, red"})
    assert r.status_code == 422 and 'two players named "Red" and "red"' in r.json()["error"]
    rid = new(client, "mille-bornes", players="Ann, Bob, Cy, Di", teams={"Us": ["ann", "CY"], "Them": "bob,di"})
    assert client.post(f"/api/records/{rid}/entries", json={"entry": "GO"}).status_code == 200
    assert client.post(f"/api/records/{rid}/entries", json={"entry": "bob: GO"}).status_code == 200
    rid = new(client, "capitals", players="Ann, Bob")
    r = client.post(f"/api/records/{rid}/entries", json={"entry": "end ANN: France; bob: Chile"})
    assert r.status_code == 200, r.text
    assert r.json()["said"].startswith("End of play")


def test_every_card_can_be_named_in_the_notation(client, folder):
    """Eight cards have commas in their names: each is named in a hand at the end of play, beside
    another card, and in a play."""
    rid = new(client, "capitals", players="Ann, Bob")
    cards = client.get(f"/api/records/{rid}/table").json()["controls"]["cards"]
    with_commas = [c["name"] for c in cards if "," in c["name"]]
    assert len(with_commas) == 8
    hands = f"end Ann: {', '.join(with_commas[:4])}, France; Bob: Chile, {', '.join(with_commas[4:])}"
    r = client.post(f"/api/records/{rid}/entries", json={"entry": hands})
    assert r.status_code == 200, r.text
    end = entries_in(folder, rid)[0]["end"]
    assert end == {"Ann": with_commas[:4] + ["France"], "Bob": ["Chile"] + with_commas[4:]}
    client.post(f"/api/records/{rid}/undo", json={})
    r = client.post(f"/api/records/{rid}/entries", json={"entry": "end Ann: Korea, Nowhere"})
    assert r.status_code == 422 and 'no card "Korea" in the pack' in r.json()["error"], r.text
    walls = client.get(f"/api/records/{rid}/hint/walls", params={"arg": "Korea, North"}).json()["walls"]
    r = client.post(f"/api/records/{rid}/entries", json={"entry": f"Korea, North {walls[0]['wall']}"})
    assert r.status_code == 200 and "Korea, North" in r.json()["said"], r.text


def test_a_new_games_teams_are_checked_as_names(client):
    r = client.post("/api/records", json={"game": "mille-bornes", "players": ["Ann", "Bob", "Cy", "Di"],
                                          "teams": {"X=A;Y": ["Ann", "Bob"], "Z": ["Cy", "Di"]}})
    assert r.status_code == 422 and r.json()["error"].startswith("refused (teams): a name has no")
    r = client.post("/api/records", json={"game": "mille-bornes", "players": ["Ann", "Bob", "Cy", "Di"],
                                          "teams": {"X": "Ann;Q=Bob", "Z": ["Cy", "Di"]}})
    assert r.status_code == 422 and r.json()["error"].startswith("refused (teams)")


def test_a_decks_error_names_no_folder_of_the_server(client):
    folder_name = project_root().name
    for deck in ("../../etc/passwd", "../x.yaml", "/etc/hostname"):
        r = client.post("/api/records", json={"game": "mille-bornes", "players": "Ann, Bob", "deck": deck})
        assert r.status_code == 422, r.text
        assert folder_name not in r.json()["error"] and "decks/mille_bornes.yaml" in r.json()["error"], r.text


def test_event_streams_are_counted_when_admitted(folder, monkeypatch):
    """A burst of 40 stream requests on one record, all in before any stream sends a byte: 16 are
    admitted, the rest told to look every few seconds; their counts are given back when they end."""
    monkeypatch.setattr(events_module, "POLL", 0.05)
    app = make_app(folder)
    c = AppClient(app)
    rid = new(c, "cubes")
    streams = app.app.state.served.streams

    async def burst():
        statuses, gates, tasks = [], [], []
        release = asyncio.Event()

        async def one():
            async def receive():
                await release.wait()
                return {"type": "http.disconnect"}

            async def send(message):
                await asyncio.sleep(0)             # a real socket's write yields to other requests
                if message["type"] == "http.response.start":
                    statuses.append(message["status"])
            scope = {"type": "http", "method": "GET", "path": f"/api/records/{rid}/events", "raw_path": b"",
                     "query_string": b"", "headers": [(b"host", b"testserver")], "http_version": "1.1",
                     "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 1), "root_path": ""}
            await app(scope, receive, send)
        tasks = [asyncio.create_task(one()) for _ in range(40)]
        for _ in range(200):
            await asyncio.sleep(0.01)
            if len(statuses) == 40:
                break
        counted = dict(streams)
        release.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 10)
        return statuses, counted
    statuses, counted = asyncio.run(burst())
    c.close()
    assert statuses.count(200) == events_module.MAX_STREAMS_RECORD and statuses.count(503) == 24, statuses
    assert counted == {rid: events_module.MAX_STREAMS_RECORD}
    assert streams == {}


# ---------------------------------------------------------------- what the drawings show

def _table(app, rid):
    return app.app.state.served.store.table(rid)


def test_sorrys_turned_up_space_shows_the_card_last_turned_up(folder):
    from conftest import drawn_items
    from generator.draw.drawing import Text
    from generator.games.sorry.board import card_spaces
    from generator.serve.controls import position_drawing
    app = make_app(folder)
    c = AppClient(app)
    try:
        rid = new(c, "sorry", players="red, blue")
        assert not [i for i, _ in drawn_items(position_drawing(_table(app, rid)).root) if isinstance(i, Text)]
        for entry, shown in (("2 out", "2"), ("sorry pass", "Sorry!")):
            assert c.post(f"/api/records/{rid}/entries", json={"entry": entry}).status_code == 200
            d = position_drawing(_table(app, rid))
            x, y, w, h = card_spaces(d.width)["TURNED UP"]
            texts = [(i.text, m[4] + i.x, m[5] + i.y) for i, m in drawn_items(d.root) if isinstance(i, Text)]
            inside = [t for t, tx, ty in texts if x <= tx <= x + w and y <= ty <= y + h]
            assert shown in inside and "red" in inside, texts
    finally:
        c.close()


def test_mille_bornes_team_names_are_set_to_be_read_on_a_phone(folder):
    """Four players in two teams: each team's name at 5 mm or more in the 120 mm drawing a phone
    shows about 390 px wide (at least 16 px)."""
    from conftest import drawn_items
    from generator.draw.drawing import Text
    from generator.serve.controls import position_drawing
    app = make_app(folder)
    c = AppClient(app)
    try:
        rid = new(c, "mille-bornes", players="Ann Lee, Bob Marsh, Cy Young, Di Prince",
                  teams="North=Ann Lee,Cy Young;South=Bob Marsh,Di Prince")
        d = position_drawing(_table(app, rid))
        names = {i.text: i.size for i, _ in drawn_items(d.root) if isinstance(i, Text)
                 and i.text.startswith(("North", "South"))}
        assert len(names) == 2 and min(names.values()) >= 5.0, names
    finally:
        c.close()


# ---------------------------------------------------------------- bytes and requests an entry

@pytest.mark.parametrize("game,options,moves", [
    ("sorry", {"players": "red, blue, yellow, green"}, ["2 out", "sorry pass", "1 out", "3 pass"]),
    ("continuo", {"players": "Ann, Bob, Cy, Di"}, ["open 12 0,0", "best 7 open", "best 30", "best 5"]),
    ("mille-bornes", {"players": "Ann, Bob, Cy, Di"}, ["GO", "GO", "GO", "GO", "200", "100"]),
    ("cubes", {}, ["d4-d6", "g7-g5"]),
    ("capitals", {"players": "Ann, Bob, Cy, Di"}, ["pass", "pass"]),
])
def test_an_entry_sends_each_phone_what_changed_once_compressed(client, game, options, moves):
    """The phone that enters gets the table in its answer; every phone learns the new version from
    the event and fetches the position as edits of the one it holds: under 10 KB an entry a phone,
    compressed, the position's background (fetched once, kept) aside."""
    rid = new(client, game, **options)
    gz = {"Accept-Encoding": "gzip"}
    first = client.get(f"/api/records/{rid}/position.edits?from=", headers=gz)
    held = first.json()
    pieces = [p for e in held["edits"] for p in e[1]]
    for move in moves:
        if move.startswith("best"):                  # where the referee's `best` puts the tile first
            _, tile, *opening = move.split()
            at = client.get(f"/api/records/{rid}/hint/best", params={"arg": tile}).json()["placements"][0]
            move = f"{'open ' if opening else ''}{tile} {at['at'][0]},{at['at'][1]} {at['rotation']}"
        r = client.post(f"/api/records/{rid}/entries", json={"entry": move}, headers=gz)
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        assert table["entries"] == int(r.headers["X-Entries"]) and table["last"]
        other = client.get(f"/api/records/{rid}/table", headers=gz)
        assert other.headers["content-encoding"] == "gzip" and other.json() == table
        edits = client.get(f"/api/records/{rid}/position.edits", params={"from": held["version"]}, headers=gz)
        assert edits.headers["content-encoding"] == "gzip"
        sent = int(other.headers["content-length"]) + int(edits.headers["content-length"])
        assert sent < 10 * 1024, (move, sent)
        e = edits.json()
        assert e["from"] == held["version"] and e["version"] == table["version"]
        made = [p for op in e["edits"] for p in (pieces[op[1]:op[2]] if op[0] == "=" else op[1])]
        whole = client.get(f"/api/records/{rid}/position.svg").text
        assert "".join(made) == whole                          # the edits make the picture, exactly
        pieces, held = made, e
    if table["background"]:
        back = client.get(table["background"], headers=gz)
        assert "immutable" in back.headers["cache-control"]


def test_the_event_says_the_version_so_a_phone_that_has_it_asks_nothing(folder, monkeypatch):
    monkeypatch.setattr(events_module, "POLL", 0.05)
    app = make_app(folder)
    c = AppClient(app)
    rid = new(c, "cubes")
    version = c.post(f"/api/records/{rid}/entries", json={"entry": "d4-d6"}).json()["table"]["version"]

    async def first_event():
        got = []

        async def receive():
            await asyncio.sleep(0.5)
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.body":
                got.append(message.get("body", b"").decode())
        scope = {"type": "http", "method": "GET", "path": f"/api/records/{rid}/events", "raw_path": b"",
                 "query_string": b"", "headers": [(b"host", b"testserver")], "http_version": "1.1",
                 "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 1), "root_path": ""}
        await asyncio.wait_for(app(scope, receive, send), 5)
        return "".join(got)
    text = asyncio.run(first_event())
    c.close()
    data = json.loads(text.split("event: change\ndata: ")[1].split("\n")[0])
    assert data["version"] == version


def test_made_up_versions_cost_a_moment_nothing_that_stays(client):
    """position.edits from a version the server never sent is the whole picture, one answer for all."""
    rid = new(client, "cubes")
    for k in range(10):     # (any one of them kept would show: more than two entries below)
        r = client.get(f"/api/records/{rid}/position.edits", params={"from": f"made-up-{k}"})
        assert r.status_code == 200 and r.json()["from"] is None
    store = client_app_store(client)
    cache = store.table(rid).moment.cache
    assert len([k for k in cache if isinstance(k, tuple)]) <= 2, list(cache)


def client_app_store(client):
    return client._http._transport.app.app.state.served.store
