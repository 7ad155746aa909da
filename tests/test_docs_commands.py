"""Every command shown in README.md and the user guide (docs/*.md) works as shown.

A command is a line of a code block (indented four spaces). How each is checked:
- **run** as written, in order, in an empty folder where `.venv/bin/pnp` and `.venv/bin/python` are
  this test run's (the five-minute tour: `pnp build sorry`, `cat` of its print list, `pnp validate`,
  `pnp referee ... score` and `best`, a new deck built in a folder of its own), each to end 0 (pnp's
  own commands in this process, the others by bash: run_shown);
- **parses** (`--help` appended: the command line takes every option shown) where it would start a
  server (`pnp serve`, `pnp studio`, `pnp build --watch`) or is a synopsis with placeholders (`pnp referee GAME
  score RECORD [--json]`);
- the README's first command: its `pnp build` is the test run's one shared build of every game
  (conftest's `built_output`, `pnp build --out DIR`), its venv and install parsed by bash (the wheel
  is installed and run by test_installed.py);
- the README's test command: parsed by bash and the same, exactly, as `.ci/run`'s; the pytest
  commands parsed by pytest (`--markers`: the options, and the `slow` marker of the quick subset);
- `scripts/update_goldens.py` (it rewrites the golden images): compiled.
Blocks that are no command are an error message quoted (`FILE:LINE: field: ...`) or a spec (YAML);
a block of any other kind fails the test until this file says how to check it.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, pnp_here

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PLACEHOLDER = re.compile(r"\[|\||\.\.\.|\b[A-Z][A-Z_]{2,}\b")


def code_blocks(path: Path) -> list[list[str]]:
    """The page's indented code blocks, each a list of its lines without the indent."""
    blocks, current, previous = [], None, ""
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("    ") and (current is not None or not previous.strip()):
            if current is None:
                current = []
                blocks.append(current)
            current.append(line[4:])
        elif line.strip() or current is None:
            current = None
        previous = line
    return blocks


def kind(block: list[str]) -> str:
    if all(re.match(r"\S+\.(yaml|csv):\d+: ", line) for line in block):
        return "message"
    if block[0].startswith("kind: "):
        return "spec"
    return "commands"


def commands(block: list[str]) -> list[str]:
    """The block's commands: a line that goes on indented joins the one before; `  # comments` dropped."""
    joined: list[str] = []
    for line in block:
        if line.startswith(" ") and joined:
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    return [re.sub(r"\s{2,}#.*$", "", c).strip() for c in joined]


def every(kind_wanted: str) -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for block in code_blocks(page):
            if kind(block) == kind_wanted:
                found += [(page.relative_to(ROOT).as_posix(), c) for c in commands(block)]
    return found


ALL = every("commands")
README_FIRST = "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/pnp build"


def ci_command() -> str:
    return (ROOT / ".ci" / "run").read_text().strip().split("\n")[-1]


def how(command: str) -> str:
    if command == README_FIRST:
        return "shared build"
    if command == ci_command():
        return "ci"
    if "-m pytest" in command:
        return "pytest"
    if command.startswith(".venv/bin/python scripts/"):
        return "compile"
    words = command.split()
    synopsis = words[0] == "pnp" or words[:3] == ["python", "-m", "generator"]
    if "serve" in words or "studio" in words or "--watch" in words or (synopsis and PLACEHOLDER.search(command)):
        return "parse"
    return "run"


def test_the_pages_show_commands_of_every_kind_checked():
    """Every code block is a command, a quoted message or a spec, and every kind of check below
    has commands to check (a page moved or rewritten does not leave this test checking nothing)."""
    kinds = {how(c) for _, c in ALL}
    assert kinds == {"shared build", "ci", "pytest", "compile", "parse", "run"}, kinds
    assert len([c for _, c in ALL if how(c) == "run"]) >= 5
    assert {page for page, _ in ALL} >= {"README.md", "docs/building.md", "docs/at-the-table.md"}


def test_quoted_specs_and_messages_read_as_they_should():
    for page in PAGES:
        for block in code_blocks(page):
            if kind(block) == "spec":
                assert yaml.safe_load("\n".join(block))["kind"] == "deck", page


def test_the_readme_test_command_is_what_ci_runs():
    readme = [c for p, c in ALL if p == "README.md" and how(c) == "ci"]
    assert readme == [ci_command()]
    assert "--no-install-recommends" in ci_command()
    r = subprocess.run(["bash", "-n", "-c", ci_command()], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_the_readme_first_command_is_a_build_of_every_game(output):
    r = subprocess.run(["bash", "-n", "-c", README_FIRST], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = output                             # `pnp build --out DIR`, shared by the test run (slow: the build)
    assert {"sorry", "cubes", "capitals", "continuo", "mille-bornes"} <= {p.name for p in out.iterdir()}


def test_pytest_commands_parse_and_select_on_a_registered_marker():
    shown = {shlex.join(shlex.split(c)): (page, c) for page, c in ALL if how(c) == "pytest"}
    assert len(shown) >= 2
    for page, command in shown.values():
        args = shlex.split(command)
        args = args[args.index("pytest") + 1:]
        r = subprocess.run([sys.executable, "-m", "pytest", *args, "--markers"],
                           cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, f"{page}: {command}: {r.stdout[-500:]}{r.stderr[-500:]}"
        if "slow" in command:
            assert "@pytest.mark.slow:" in r.stdout


def test_scripts_shown_compile():
    for page, command in ALL:
        if how(command) == "compile":
            script = ROOT / shlex.split(command)[1]
            compile(script.read_text(encoding="utf-8"), str(script), "exec")


def _synopsis_invocations(command: str) -> list[list[str]]:
    """The words of a command shown with placeholders, as the command line takes them: each
    alternative of `a|b` at a subcommand's place, GAME a game, cut where the placeholders start."""
    words = shlex.split(command)
    if words[:3] == ["python", "-m", "generator"]:
        words = ["pnp", *words[3:]]
    assert words[0] == "pnp", command
    prefixes = [[]]
    for word in words[1:]:
        if word == "GAME":
            word = "sorry"
        if re.fullmatch(r"[a-z-]+(\|[a-z-]+)+", word):
            prefixes = [p + [alt] for p in prefixes for alt in word.split("|")]
            continue
        if not re.fullmatch(r"[a-z][a-z-]*", word):
            break
        prefixes = [p + [word] for p in prefixes]
    return prefixes


def test_commands_that_would_serve_or_are_synopses_take_every_option_shown():
    """`--help` after the subcommand's words: exit 0, and every --option shown is in its help."""
    checked = 0
    for page, command in ALL:
        if how(command) != "parse":
            continue
        options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", command))
        for words in _synopsis_invocations(command):
            r = pnp_here(*words, "--help")
            assert r.returncode == 0, f"{page}: {command}: {r.stderr}"
            missing = {o for o in options if o not in r.stdout} - {"--help", "--version"}
            assert not missing, f"{page}: {command}: pnp {' '.join(words)} --help has no {missing}"
            checked += 1
    assert checked >= 12


def test_pnp_version_shown_runs():
    assert any(c == "pnp --version" for _, c in ALL)
    r = pnp_here("--version")
    assert r.returncode == 0 and r.stdout.startswith("pnp ")


SHELL_SYNTAX = re.compile(r"[|;<>$`'\"(){}*?~\\]")


def run_shown(command: str, cwd: Path, env: dict) -> tuple[int, str, str]:
    """A command as a shell runs it, in cwd: (exit code, stdout, stderr). A chain of simple commands
    (`a && b`) is run a command at a time, `cd` moving cwd, and pnp's own (`pnp`, `.venv/bin/pnp`,
    `../.venv/bin/pnp`, each to be found where it is named) in this process: what such a command
    does does not depend on a process of its own (its entry point, signals and streams are tested
    by test_installed, test_world and test_bad_input), and a Python started for each cost 0.6 s.
    Any other command, and any line with other shell syntax, goes to bash."""
    if SHELL_SYNTAX.search(command) or any(not part.strip() for part in command.split("&&")):
        r = subprocess.run(["bash", "-e", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=300)
        return r.returncode, r.stdout, r.stderr
    outs, errs = [], []
    for part in command.split("&&"):
        words = shlex.split(part)
        if words[0] == "cd" and len(words) == 2:
            cwd = cwd / words[1]
            if not cwd.is_dir():
                return 1, "".join(outs), "".join(errs) + f"cd: {words[1]}: no such folder"
            continue
        pnp = words[0] == "pnp" or (words[0].endswith("/pnp") and os.access(cwd / words[0], os.X_OK)
                                    and (cwd / words[0]).is_file())
        if pnp:
            r = pnp_here(*words[1:], cwd=cwd)
        else:
            r = subprocess.run(["bash", "-e", "-c", part], cwd=cwd, env=env, capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=300)
        outs.append(r.stdout)
        errs.append(r.stderr)
        if r.returncode != 0:
            return r.returncode, "".join(outs), "".join(errs)
    return 0, "".join(outs), "".join(errs)


def test_shown_commands_are_run_as_a_shell_would():
    """run_shown: a pnp named by a path that is not there fails as in a shell; `cd` moves; a
    failing command stops the chain; shell syntax goes to bash."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        here = Path(folder)
        (here / "sub").mkdir()
        env = dict(os.environ)
        assert run_shown("../.venv/bin/pnp --version", here / "sub", env)[0] != 0
        code, out, _ = run_shown("cd sub && pwd && pnp --version", here, env)
        assert code == 0 and out.startswith(str(here / "sub") + "\n") and "pnp " in out
        assert run_shown("false && pnp --version", here, env)[:2] == (1, "")
        assert run_shown("cd nowhere && true", here, env)[0] != 0
        assert run_shown("echo a | tr a b", here, env)[:2] == (0, "b\n")


@pytest.mark.slow
def test_the_tour_runs_as_shown(tmp_path):
    """The commands run as written, one after another, in an empty folder (the records they name
    copied there): each ends 0, and what the tour says they make is there."""
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)
    (venv / "pnp").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m generator "$@"\n')
    (venv / "pnp").chmod(0o755)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "records").symlink_to(ROOT / "tests" / "records")
    env = {**os.environ, "PATH": f"{venv}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT)}
    ran = []
    for page, command in ALL:
        if how(command) != "run":
            continue
        code, out, err = run_shown(command, tmp_path, env)
        assert code == 0, f"{page}: {command}\n{out[-1500:]}\n{err[-1500:]}"
        ran.append(command)
    assert any("build sorry" in c for c in ran)
    assert (tmp_path / "output" / "sorry" / "README.txt").is_file()
    assert list((tmp_path / "my-deck" / "output" / "deck").glob("mine-*.pdf"))
