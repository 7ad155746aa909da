"""The referees' shared command-line helpers."""
from generator.referee import names


def test_names_drop_blanks_and_spaces():
    assert names("Ann, ,Bob,") == ["Ann", "Bob"]
    assert names(None, "Player 1,Player 2") == ["Player 1", "Player 2"]
    assert names("") == []


# ---------------------------------------------------------------- names, one rule for every door

import io
import os
import pty
import select
import sys
import time
from pathlib import Path

import pytest
import yaml

from generator.inputs import MAX_RECORD_BYTES, MAX_RECORD_ENTRIES
from generator.referee.contract import Refused
from generator.referee.prompt import play
from generator.referee.prompt import MAX_PROMPT_LINE
from generator.referee.journal import Journal, RecordFull
from generator.referee.contract import check_names, match_name, name_problem
from generator.referee.game import refusal
from conftest import ROOT, pnp_here


def test_names_typed_keep_their_words_single_spaced():
    assert names("Ann  Lee ,  Bob Marsh") == ["Ann Lee", "Bob Marsh"]
    assert names("Ann\tLee,Bob") == ["Ann\tLee", "Bob"]          # kept, for the name check to refuse


@pytest.mark.parametrize("name,problem", [
    ("Ann Lee", None), ("Zoë", None), ("李雷", None), ("O'Neil", None), ("Bob-2", None),
    ("", "at least one letter"), ("   ", "at least one letter"), ("x" * 41, "at most 40"),
    ("A\x00nn", "printable"), ("\u202eAnn", "printable"), ("Ann\u200b", "printable"), ("An\tn", "plain spaces"),
    ("Ann\u2028", "printable"), ("\x1b[31mred", "printable"), ("Ann\ud800", "printable"),
    (" Ann", "single spaces"), ("Ann  Lee", "single spaces"), ("Ann: x", "no , ; : ="), ("A,B", "no"),
    ("Ann=1", "no"), ("A;B", "no"),
])
def test_what_makes_a_name(name, problem):
    found = name_problem(name)
    assert (found is None) if problem is None else (found is not None and problem in found), found


def test_names_are_told_apart_without_regard_to_case():
    check_names({"players": ["Ann", "Bob"], "teams": {"N": ["Ann"], "S": ["Bob"]}})
    for header in ({"players": ["Ann", "ann"]}, {"players": ["Ann", "Bob"], "teams": {"X": ["Ann"], "x": ["Bob"]}}):
        with pytest.raises(Refused) as exc:
            check_names(header)
        assert "two" in exc.value.message
    with pytest.raises(Refused) as exc:
        check_names({"players": ["pass", "Bob"]}, reserved=("pass",))
    assert "a word of this game's notation" in exc.value.message


def test_the_longest_name_is_matched_first():
    assert match_name(["Ann", "Lee", "cf"], ["Ann", "Ann Lee"]) == ("Ann Lee", ["cf"])
    assert match_name(["ann", "lee"], ["Ann Lee"]) == ("Ann Lee", [])
    assert match_name(["Bob"], ["Ann Lee"]) == (None, ["Bob"])


# ---------------------------------------------------------------- what a record and a journal may hold

def test_a_record_of_another_game_is_said_in_one_line(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text((ROOT / "tests/records/sorry.yaml").read_text())
    out = pnp_here("referee", "cubes", "score", path)
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert f"game: this is a sorry record (pnp referee sorry score {path}), not cubes" in out.stderr


def test_a_misspelt_key_comes_before_the_missing_key_it_causes(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("game: sorry\nplayers: [red, blue]\nentrie: []\n")
    lines = pnp_here("referee", "sorry", "score", path).stderr.splitlines()
    assert lines[0].endswith("entrie: unknown key (did you mean 'entries'?)") and "missing required key" in lines[1]


def test_the_writer_keeps_the_readers_limits(tmp_path):
    """A journal is never written past what `score` and `play --journal` read back: the 10,001st
    entry, or one that takes the file past 4 MB, is refused and nothing is written."""
    path = tmp_path / "j.yaml"
    full = Journal(path, "sorry", {"game": "sorry"}, [{"card": 1, "move": "out"}] * MAX_RECORD_ENTRIES, "", None)
    with pytest.raises(RecordFull):
        full.append({"card": 1, "move": "out"})
    assert not path.exists()
    from generator.referee.record import record_text
    entry = {"card": 1, "move": "x" * 1000}
    size = lambda entries: len(record_text({"game": "sorry"}, entries, "sorry"))    # noqa: E731
    line = size([entry] * 2) - size([entry])
    n = (MAX_RECORD_BYTES - size([])) // line - 2            # two lines short of full
    near = Journal(path, "sorry", {"game": "sorry"}, [entry] * n, "", None)
    near._write(near.entries)
    assert MAX_RECORD_BYTES - 3 * line < path.stat().st_size <= MAX_RECORD_BYTES
    with pytest.raises(RecordFull) as exc:
        for _ in range(4):
            before = path.read_bytes()
            near.append(entry)
    assert path.read_bytes() == before and "start a new game" in str(exc.value)      # nothing written
    assert len(near.entries) == n + 2
    assert refusal(n + 2, exc.value).startswith(f"refused, entry {n + 3} (record size): ")


# ---------------------------------------------------------------- the prompt

def test_an_over_long_line_is_read_and_dropped(tmp_path):
    j = tmp_path / "j.yaml"
    out = io.StringIO()
    line = "1 out" + " " * (MAX_PROMPT_LINE * 300) + "\n"        # 1.2 MB on one line
    args = argparse_ns(players="red,blue", variant="standard")
    from generator.games.sorry.referee import REFEREE
    code = play(REFEREE, j, args, inp=io.StringIO(line + "1 out\nquit\n"), out=out)
    assert code == 2 and f"a line is at most {MAX_PROMPT_LINE:,} characters" in out.getvalue()
    assert len(yaml.safe_load(j.read_text())["entries"]) == 1     # the next line was read as usual


def argparse_ns(**kw):
    import argparse
    return argparse.Namespace(**kw)


def test_undo_at_the_prompt_says_what_it_took_back(tmp_path):
    from generator.games.mille_bornes.referee import REFEREE
    out = io.StringIO()
    args = argparse_ns(players="Ann Lee,Bob", teams=None, deck=None, short=False)
    play(REFEREE, tmp_path / "j.yaml", args, inp=io.StringIO("go\nshow\nundo\nquit\n"), out=out)
    text = out.getvalue()
    assert "last entry: 1 (Ann Lee plays go); undo takes it back" in text
    assert "undone: entry 1 (Ann Lee plays go); 0 entries remain" in text


@pytest.mark.slow      # a real terminal: `python -m generator` started on a pty (the prompt's other tests are quick)
def test_the_arrow_keys_edit_and_recall_at_a_terminal(tmp_path):
    """At a terminal the prompt reads through readline: the up arrow brings back the last line (it
    printed ^[[A and refused it before). Blue's 1 out is red's recalled."""
    j = tmp_path / "j.yaml"
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "generator", "referee", "sorry", "play", "--journal", str(j),
                                  "--players", "red,blue"])
    seen = b""

    def read_until(token: bytes, seconds=20, times=1):
        nonlocal seen
        end = time.monotonic() + seconds
        while seen.count(token) < times and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 4096)
                except OSError:
                    break
        return seen.count(token) >= times
    try:
        assert read_until(b"red> "), seen
        os.write(fd, b"1 out\r")
        assert read_until(b"blue> "), seen
        os.write(fd, b"\x1b[A\r")                # up arrow: the last line again
        assert read_until(b"red> ", 20, times=2), seen
        os.write(fd, b"quit\r")
        read_until(b"Totals", 5)
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    assert [e["move"] for e in yaml.safe_load(j.read_text())["entries"]] == ["out", "out"]


def test_the_command_line_says_its_version_and_its_help():
    """What the command answers, in this process (`python -m generator` as a process is tested by
    the terminal's test above, and the installed `pnp` by test_installed.py)."""
    r = pnp_here("--version")
    assert r.returncode == 0 and r.stdout.startswith("pnp ")
    r = pnp_here()
    assert r.returncode == 0 and r.stdout.startswith("usage: pnp")
    r = pnp_here("referee", "--help")
    assert r.returncode == 0 and "rest" not in r.stdout and "GAME" in r.stdout
