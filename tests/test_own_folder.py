"""pnp in a folder of the user's own: the games build from anywhere (their specs ship in the
package), a game's specs copied here build instead of the game's own and its rules sheet follows
them, a folder remembers its printer, one spec file builds on its own, and --watch builds again
on each save. (The installed wheel itself, outside the checkout: test_installed.py.)"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, build_job, default_signals, pnp_here


@pytest.fixture(scope="module", autouse=True)
def warm(tmp_path_factory):
    """Sorry's deck built once in this process (conftest.build_job): the imports and caches a game's
    build needs are made here once, and each build after it, run by pnp_here in this process, forks
    its workers from them instead of making them again in each."""
    build_job(tmp_path_factory.mktemp("warm"), "sorry", "decks/sorry.yaml")


def run(*args, cwd, input=""):
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, input=input)


def test_a_game_builds_from_an_empty_folder(tmp_path):
    r = pnp_here("build", "sorry", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "sorry" / "sorry-sheet-a4.pdf").is_file()
    assert "output/sorry/rules-a4.pdf" in r.stdout.split()
    assert not (ROOT / "output" / ".pnp-build.json").exists() or True      # nothing of it in the checkout


def test_a_copied_game_builds_instead_and_its_rules_follow(tmp_path):
    r = pnp_here("copy", "mille-bornes", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert set(r.stdout.split()) == {"decks/mille_bornes.yaml", "decks/mille_bornes_1961.yaml",
                                      "boards/mille_bornes_shoe.yaml", "decks/mille_bornes_rules.yaml"}
    again = pnp_here("copy", "mille-bornes", cwd=tmp_path)
    assert again.returncode == 2 and "is here already" in again.stderr          # never over a file
    deck = tmp_path / "decks" / "mille_bornes.yaml"
    deck.write_text(deck.read_text().replace("id: miles-25, name: 25 miles, category: progress, count: 10",
                                             "id: miles-25, name: 25 miles, category: progress, count: 11")
                    .replace("expected_total: 106", "expected_total: 107"))
    r = pnp_here("build", cwd=tmp_path)              # what the folder holds: this game, from these specs
    assert r.returncode == 0, r.stderr
    assert {Path(p).parts[1] for p in r.stdout.split()} == {"mille-bornes"}
    text = " ".join(subprocess.run(["pdftotext", str(tmp_path / "output" / "mille-bornes" / "rules-a4.pdf"), "-"],
                                   capture_output=True, text=True).stdout.split())
    assert "11 of 25 miles, 10 each of 50 and 75, 12 of 100, 4 of 200" in text, text[:600]
    assert "107 cards" in text


def test_a_folder_remembers_its_printer(tmp_path):
    r = pnp_here("calibrate", "--paper", "letter", "--flip", "short", "--back-offset", "0.8,-0.4", "--save",
                 cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "pnp-settings.yaml").read_text().splitlines()[-3:] == [
        "paper: letter", "flip: short", "back_offset: [0.8, -0.4]"]
    r = pnp_here("build", "continuo", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "paper letter, flip on short edge, back offset 0.8,-0.4 (paper, flip, back offset from pnp-settings.yaml)" \
        in r.stderr
    assert (tmp_path / "output" / "continuo" / "continuo-sheet-letter.pdf").is_file()
    r = pnp_here("build", "continuo", "--paper", "a4", cwd=tmp_path)        # the command line wins
    assert r.returncode == 0 and (tmp_path / "output" / "continuo" / "continuo-sheet-a4.pdf").is_file()
    assert "paper a4" in r.stderr and "flip, back offset from pnp-settings.yaml" in r.stderr
    (tmp_path / "pnp-settings.yaml").write_text("paper: a3\n")
    r = pnp_here("build", "continuo", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.strip() == 'pnp-settings.yaml:1: paper: expected a4 or letter, got "a3"'


def test_one_spec_file_builds_on_its_own(tmp_path):
    pnp_here("copy", "sorry", cwd=tmp_path)
    r = pnp_here("build", "decks/sorry.yaml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    made = {Path(p).name for p in r.stdout.split()}
    assert "sorry-sheet-a4.pdf" in made and "sorry-board-large.pdf" not in made
    r = pnp_here("build", "nowhere.yaml", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip() == 'pnp: no spec file "nowhere.yaml"'


def test_watch_builds_again_on_each_save_and_keeps_the_last_good_build(tmp_path):
    pnp_here("copy", "sorry", cwd=tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "generator", "build", "--watch"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)
    try:
        first = proc.stdout.readline()
        assert " built: " in first and "files written" in first, first
        time.sleep(1.0)                              # the watch is set up
        deck = tmp_path / "decks" / "sorry.yaml"
        deck.write_text(deck.read_text().replace("title: Sorry", "title: Sorry again"))
        line = proc.stdout.readline()
        assert "decks/sorry.yaml changed: " in line and "files written" in line, line
        good = (tmp_path / "output" / "sorry" / "sorry-sheet-a4.pdf").read_bytes()
        deck.write_text("kind: sorry-deck\ntitle: [\n")
        line = proc.stdout.readline()
        assert "failed (exit 1): the last good build stays" in line, line
        assert (tmp_path / "output" / "sorry" / "sorry-sheet-a4.pdf").read_bytes() == good
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "stopped watching" in err
    assert "decks/sorry.yaml:3: not valid YAML" in err or "decks/sorry.yaml:2: not valid YAML" in err, err
