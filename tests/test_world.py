"""The world around the command (issue 24, family 4): closed standard streams, a locale whose
encoding cannot carry the text printed, SOURCE_DATE_EPOCH that only looks like a number, HOME
unset, an unwritable TMPDIR, umask 077. Each run is the real command in its own process: these
are set up before Python starts. (benchmarks/fuzz.py --families world runs a long random campaign
of them; tests/fuzzing_world.py makes its cases.)"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from fuzzing import problems

NAMES = ["Zoë", "😀 Smiley", "Ωmega", "\u202eevil", "Ann"]


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    """A Mille Bornes record whose players are named outside Latin-1 (and with a bidi override)."""
    folder = tmp_path_factory.mktemp("world")
    (folder / "names.yaml").write_text(yaml.safe_dump(
        {"game": "mille-bornes", "players": NAMES[:2], "entries": [{"player": NAMES[0], "card": "go"}]},
        allow_unicode=True), encoding="utf-8")
    return folder


def pnp(*args, cwd=ROOT, env: dict | None = None, closed=(), umask: int | None = None, stdin: str = ""):
    """The command in its own process with these streams closed (`>&-`), this environment and
    umask: (exit code, stdout bytes, stderr text)."""
    def setup():
        if umask is not None:
            os.umask(umask)
        for fd in closed:
            os.close(fd)
    environ = {**os.environ, **(env or {})}
    for key in [k for k, v in (env or {}).items() if v is None]:
        environ.pop(key)
    r = subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, input=stdin.encode(),
                       capture_output=True, env=environ, preexec_fn=setup, timeout=300)
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def no_problems(code: int, err: str) -> None:
    found = problems(code, err, 0)
    assert not found, (found, err)


# ---------------------------------------------------------------- closed standard streams

def test_closed_stdout_does_the_work_and_says_so(tmp_path):
    """`pnp build >&-`: the build is done (exit 0), and the list it would have printed is said lost."""
    # One job (Continuo's rules sheet): what is tested is the stream, not what the build makes.
    code, out, err = pnp("build", "decks/continuo_rules.yaml", "--out", tmp_path / "out", closed=(1,))
    no_problems(code, err)
    assert code == 0 and (tmp_path / "out" / "continuo" / "rules-a4.pdf").stat().st_size > 1000
    assert err.strip() == "pnp: standard output was closed; what the command had to say there is lost", err


def test_closed_stderr_keeps_the_exit_code_and_stdout_clean():
    """Errors go nowhere (they once went to stdout, where a --json reader would read them), and the
    exit code still says what happened."""
    code, out, err = pnp("validate", "decks/no-such.yaml", closed=(2,))
    assert code == 1 and out == b"" and err == ""
    code, out, _ = pnp("referee", "sorry", "score", "tests/records/sorry.yaml", "--json", closed=(2,))
    assert code == 0 and json.loads(out)["game"] == "sorry"


def test_closed_stdin_ends_the_prompt_as_ctrl_d(tmp_path):
    """`pnp referee ... play <&-` once ended 70 (stdin was None): now the prompt reads nothing and
    ends, the new journal a valid record."""
    journal = tmp_path / "j.yaml"
    code, out, err = pnp("referee", "sorry", "play", "--journal", journal, closed=(0,))
    no_problems(code, err)
    assert code == 0 and b"red>" in out
    assert yaml.safe_load(journal.read_text())["entries"] == []


@pytest.mark.parametrize("closed", [(0, 1, 2)])
def test_every_stream_closed(tmp_path, closed):
    """With every standard descriptor closed, the files the command opens do not take their numbers
    (a C library's warning to "stderr" would land in them): a build's products are whole."""
    code, out, err = pnp("build", "continuo", "--out", tmp_path / "out", closed=closed)
    assert code == 0 and out == b""
    if 2 not in closed:
        no_problems(code, err)
    shop = (tmp_path / "out" / "continuo" / "continuo-shop.pdf").read_bytes()
    assert shop.startswith(b"%PDF") and shop.rstrip().endswith(b"%%EOF")
    code, out, err = pnp("build", "continuo", "--out", tmp_path / "out")
    assert code == 0 and "up to date" in err, err


# ---------------------------------------------------------------- locales

@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "cp1252"])
def test_names_outside_the_locale_are_printed_escaped(records, encoding):
    """A Latin-1 (or ASCII) terminal and a player named outside it: `score`, `--json` and the
    prompt once ended 70 (UnicodeEncodeError). The names are written as \\uXXXX: the JSON still
    parses to the true names, and the text reads in the terminal's own encoding."""
    env = {"PYTHONIOENCODING": encoding}
    code, out, err = pnp("referee", "mille-bornes", "score", records / "names.yaml", "--json", env=env)
    no_problems(code, err)
    assert code == 0 and json.loads(out.decode(encoding))["players"] == NAMES[:2]
    code, out, err = pnp("referee", "mille-bornes", "score", records / "names.yaml", env=env)
    no_problems(code, err)
    text = out.decode(encoding)
    assert code == 0 and "\\ud83d\\ude00 Smiley" in text and "\u202e" not in text
    journal = records / f"play-{encoding}.yaml"
    code, out, err = pnp("referee", "mille-bornes", "play", "--journal", journal, "--players", f"{NAMES[2]},Bob",
                         env=env, stdin="go\nundo\ngo\n")
    no_problems(code, err)
    assert code == 0 and "\\u03a9mega>" in out.decode(encoding)
    assert yaml.safe_load(journal.read_text(encoding="utf-8"))["players"] == [NAMES[2], "Bob"]


def test_input_not_in_the_locales_encoding_is_refused_not_a_crash(tmp_path):
    """Bytes that are not ASCII typed at an ASCII prompt read as U+FFFD: the entry is refused as any
    unknown card is, never a UnicodeDecodeError."""
    journal = tmp_path / "j.yaml"
    r = subprocess.run([sys.executable, "-m", "generator", "referee", "mille-bornes", "play", "--journal",
                        str(journal), "--players", "Ann,Bob"], cwd=ROOT, input=b"\xff\xfe\ngo\n", capture_output=True,
                       env={**os.environ, "PYTHONIOENCODING": "ascii"}, timeout=120)
    err = r.stderr.decode()
    assert r.returncode in (0, 2) and "Traceback" not in err and "internal error" not in err, err
    assert yaml.safe_load(journal.read_text())["entries"] == [{"player": "Ann", "card": "go"}]


def test_the_c_locale_without_utf8_mode(records):
    """LANG=C with Python's UTF-8 mode and locale coercion off: stdout is ASCII; names are escaped."""
    env = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    code, out, err = pnp("referee", "mille-bornes", "score", records / "names.yaml", "--json", env=env)
    no_problems(code, err)
    assert code == 0 and json.loads(out.decode("ascii"))["players"] == NAMES[:2]


# ---------------------------------------------------------------- the environment

BAD_EPOCHS = ["²", "٣", "1e9", "-1", "0x10", "12 34", "9" * 30, "9" * 5000, "8589934592"]


def test_source_date_epoch_that_only_looks_like_a_number(monkeypatch):
    """SOURCE_DATE_EPOCH="²" passed str.isdigit() and failed int(): exit 70 on every command. Every
    command checks it first and refuses it in one line (in this process; one run as a user runs it)."""
    from fuzzing import run_cli
    for value in BAD_EPOCHS:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
        for args in (["validate", "decks/sorry.yaml"], ["referee", "sorry", "score", "tests/records/sorry.yaml"],
                     ["build", "sorry", "--out", "/nonexistent/pnp"]):
            code, out, err, _ = run_cli(args, ROOT)
            no_problems(code, err)
            assert code == 2 and err.startswith("pnp: SOURCE_DATE_EPOCH must be a whole number") and not out, err
    code, out, err = pnp("validate", "decks/sorry.yaml", env={"SOURCE_DATE_EPOCH": "²"})
    assert code == 2 and err.startswith("pnp: SOURCE_DATE_EPOCH must be a whole number") and out == b"", err


def test_source_date_epoch_in_range_is_the_date_written(tmp_path, monkeypatch):
    """Each value in this process (the command reads it as it runs); one as a user runs it."""
    from pypdf import PdfReader
    from fuzzing import run_cli
    years = {"0": 1970, " 1700000000 ": 2023, "8589934591": 2242}
    for value, year in years.items():
        monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
        code, _, err, _ = run_cli(["calibrate", "--out", tmp_path / f"cal{year}.pdf"], ROOT)
        assert code == 0, err
        assert PdfReader(tmp_path / f"cal{year}.pdf").metadata.creation_date.year == year
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    code, _, err = pnp("calibrate", "--out", tmp_path / "cal.pdf", env={"SOURCE_DATE_EPOCH": " 1700000000 "})
    assert code == 0, err
    assert PdfReader(tmp_path / "cal.pdf").metadata.creation_date.year == 2023


def test_home_unset_tmpdir_unwritable_umask_077(tmp_path):
    """No HOME, a TMPDIR that cannot be written (a file), umask 077: a build and a referee work; what
    the build makes is the user's alone (0600 files, 0700 folders) and the lock beside --out is
    readable by any build of the folder."""
    (tmp_path / "not-a-folder").write_text("x")
    env = {"HOME": None, "TMPDIR": str(tmp_path / "not-a-folder"), "XDG_CACHE_HOME": None}
    out = tmp_path / "out"
    # One job (Continuo's rules sheet and the game's print list, README): every file it makes is checked.
    code, _, err = pnp("build", "decks/continuo_rules.yaml", "--out", out, env=env, umask=0o077)
    no_problems(code, err)
    assert code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    assert stat.S_IMODE((out / "continuo").stat().st_mode) == 0o700
    made = [p for p in (out / "continuo").iterdir()]
    assert len(made) >= 3 and {stat.S_IMODE(p.stat().st_mode) for p in made} == {0o600}, made
    assert stat.S_IMODE((tmp_path / ".out.pnp-lock").stat().st_mode) == 0o644
    code, _, err = pnp("referee", "sorry", "score", "tests/records/sorry.yaml", env=env, umask=0o077)
    assert code == 0, err
    code, _, err = pnp("referee", "sorry", "play", "--journal", tmp_path / "j.yaml", env=env, umask=0o077,
                       stdin="1 out\n")
    assert code == 0 and stat.S_IMODE((tmp_path / "j.yaml").stat().st_mode) == 0o600, err
