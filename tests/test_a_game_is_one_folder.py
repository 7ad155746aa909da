"""A game is one folder: tests/games/coin (a coin toss: a spec, its schemas, a one-page PDF, a
referee, a table page) is found through PNP_GAMES_PATH alone, with no file of the project naming
it, and `pnp` lists it, builds it, referees it and `pnp serve` offers it, as it does its own five.

The commands run in this process (pnp_here), the games found afresh for each as a process just
started finds them; one test starts pnp as a user does, with the variable in its environment, and
`pnp serve` runs in a process of its own."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request

import pytest

from conftest import ROOT, default_signals, pnp_here

GAMES = ROOT / "tests" / "games"


def pnp(*args, games: bool = True, input=""):
    """A command with tests/games on PNP_GAMES_PATH (or with no PNP_GAMES_PATH), in this process:
    the games found afresh for it (their schemas with them), and forgotten after it."""
    from generator.games import GAMES as FOUND
    from generator.spec import loader
    kept = os.environ.pop("PNP_GAMES_PATH", None), FOUND._found, loader._EXTRA_SCHEMA_FOLDERS[:]
    if games:
        os.environ["PNP_GAMES_PATH"] = str(GAMES)
    FOUND._found = None
    try:
        return pnp_here(*args, cwd=ROOT, input=input)
    finally:
        os.environ.pop("PNP_GAMES_PATH", None)
        if kept[0] is not None:
            os.environ["PNP_GAMES_PATH"] = kept[0]
        FOUND._found = kept[1]
        if loader._EXTRA_SCHEMA_FOLDERS != kept[2]:
            loader._EXTRA_SCHEMA_FOLDERS[:] = kept[2]
            for cached in (loader._schema_files, loader._kinds, loader._schema, loader._inlined_schema):
                cached.cache_clear()


@pytest.mark.slow          # pnp started in a process of its own (0.4 s)
def test_a_process_started_with_the_path_finds_it():
    r = subprocess.run([sys.executable, "-m", "generator", "--help"], cwd=ROOT, capture_output=True, text=True,
                       env={**os.environ, "PNP_GAMES_PATH": str(GAMES)})
    assert r.returncode == 0 and "coin (Coin toss)" in r.stdout, r.stderr


def test_no_file_of_the_project_names_the_game():
    for path in (ROOT / "generator").rglob("*"):
        if path.suffix in (".py", ".js", ".yaml", ".html", ".css"):
            assert not re.search(r"\bcoin\b", path.read_text(encoding="utf-8"), re.I), path


def test_the_command_line_lists_and_builds_it(tmp_path):
    r = pnp("--help")
    assert r.returncode == 0 and "coin (Coin toss)" in r.stdout
    r = pnp("build", "--help")
    assert r.returncode == 0 and "coin" in r.stdout
    r = pnp("referee", "--help")
    assert "coin" in r.stdout
    r = pnp("build", "coin", "--out", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    pdf = tmp_path / "out" / "coin" / "coin-a4.pdf"
    assert pdf.read_bytes().startswith(b"%PDF") and (tmp_path / "out" / "coin" / "README.txt").is_file()
    assert "coin-a4.pdf" in r.stdout
    # and not without it: the project's own games know nothing of it
    plain = pnp("build", "coin", games=False)
    assert plain.returncode == 2 and "unknown game" in plain.stderr


def test_its_referee_scores_and_plays(tmp_path):
    record = tmp_path / "game.yaml"
    record.write_text("game: coin\nplayers: [Ann, Bob]\ntarget: 2\nentries:\n"
                      "  - {call: heads, fell: heads}\n  - {call: tails, fell: heads}\n  - {call: tails, fell: tails}\n")
    r = pnp("referee", "coin", "score", record, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["winner"] == "Ann"
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: coin\nentries:\n  - {call: edge, fell: heads}\n")
    r = pnp("referee", "coin", "score", bad)
    assert r.returncode == 2 and "entry 1, call" in r.stderr          # its own record schema, from its folder
    journal = tmp_path / "j.yaml"
    r = pnp("referee", "coin", "play", "--journal", journal, "--players", "Ann,Bob", input="heads heads\nundo\nquit\n")
    assert r.returncode == 0 and "undone: entry 1 (Ann calls heads, it fell heads)" in r.stdout


@pytest.mark.slow          # pnp serve in a process of its own
def test_pnp_serve_offers_it(tmp_path):
    env = {**os.environ, "PNP_GAMES_PATH": str(GAMES)}
    proc = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--dir", tmp_path, "--port", "0"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=default_signals)
    try:
        port = None
        for _ in range(50):
            m = re.search(r"open http://127\.0\.0\.1:(\d+)/$", proc.stdout.readline().rstrip())
            if m:
                port = m.group(1)
                break
        base = f"http://127.0.0.1:{port}"

        def call(path, body=None):
            req = urllib.request.Request(base + path, json.dumps(body).encode() if body is not None else None,
                                         {"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.read()
        assert json.loads(call("/api/titles"))["coin"] == "Coin toss"
        rid = json.loads(call("/api/records", {"game": "coin", "players": "Ann, Bob"}))["id"]
        call(f"/api/records/{rid}/entries", {"entry": "heads heads"})
        table = json.loads(call(f"/api/records/{rid}/table"))
        assert table["title"] == "Coin toss" and table["controls"] == {"players": ["Ann", "Bob"]}
        assert b"registerControls" in call(table["controls_script"])
        assert call(f"/api/records/{rid}/position.svg").startswith(b"<svg") or b"<svg" in call(
            f"/api/records/{rid}/position.svg")[:200]
        assert (tmp_path / f"{rid}.yaml").read_text().count("call: heads") == 1
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
