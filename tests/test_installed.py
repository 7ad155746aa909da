"""pnp as a new user has it: the wheel built from this checkout, installed on its own, run from an
empty folder far from the checkout. A new deck of one's own builds at once (sheet, shop, contact
sheet, tuck box, print list); a copied game, its card names changed, builds cards and a rules sheet
with the new names; a game of its own builds there too."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT


def build_wheel(source: Path, wheels: Path) -> subprocess.CompletedProcess:
    """The wheel of source, written into wheels. Where this test run's Python has what
    pyproject.toml's build-system requires (the test extras install setuptools and wheel), its
    backend's build_wheel hook is called in a Python of its own, as pip calls it (0.8 s CPU);
    else pip builds it in an environment it makes and fills for the build (6 s)."""
    import re
    import tomllib
    from importlib.metadata import PackageNotFoundError, version
    system = tomllib.loads((source / "pyproject.toml").read_text())["build-system"]

    def numbers(text: str) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", text)[:3])

    def met(requirement: str) -> bool:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(?:>=\s*([\d.]+))?", requirement.strip())
        try:
            return bool(m) and numbers(version(m[1])) >= numbers(m[2] or "0")
        except PackageNotFoundError:
            return False
    backend = system.get("build-backend", "")
    if re.fullmatch(r"[\w.]+", backend) and all(met(r) for r in system.get("requires", [])):
        return subprocess.run([sys.executable, "-c", f"import sys, {backend} as backend; backend.build_wheel(sys.argv[1])",
                               str(wheels)], cwd=source, capture_output=True, text=True)
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
                          capture_output=True, text=True)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(a folder holding only the installed package, the environment that runs it): the wheel is
    unpacked on its own, with the dependencies of this test run's Python, and nothing of the
    checkout on the path."""
    wheels = tmp_path_factory.mktemp("wheel")
    # Built from a clean copy of the checkout: setuptools builds in the source tree's build/, and
    # one left there by an earlier or interrupted build went into the wheel ("File exists", or a
    # wheel without generator/builtin).
    source = tmp_path_factory.mktemp("source") / "pnp"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "output", "*.egg-info", "__pycache__", ".pytest_cache"))
    r = build_wheel(source, wheels)
    assert r.returncode == 0, r.stderr[-2000:]
    (wheel,) = wheels.glob("*.whl")
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as z:
        z.extractall(target)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PNP_GAMES_PATH")}
    env["PYTHONPATH"] = str(target)
    return target, env


def pnp(installed, *args, cwd, input=""):
    target, env = installed
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, input=input)


def test_the_wheel_holds_the_games_own_specs_and_runs_from_itself(installed, tmp_path):
    target, _ = installed
    assert (target / "generator" / "builtin" / "decks" / "sorry.yaml").is_file()
    assert (target / "generator" / "games" / "sorry" / "schemas" / "sorry-record.yaml").is_file()
    r = pnp(installed, "--version", cwd=tmp_path)
    assert r.returncode == 0
    where = subprocess.run([sys.executable, "-c", "import generator; print(generator.__file__)"], cwd=tmp_path,
                           env=installed[1], capture_output=True, text=True).stdout
    assert where.startswith(str(target)), where


def test_a_new_deck_builds_at_once(installed, tmp_path):
    r = pnp(installed, "new", "deck", "demo", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert {"demo.yaml", "demo.csv"} <= set(r.stdout.split())
    r = pnp(installed, "build", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    made = {Path(p).name for p in r.stdout.split()}
    for name in ("demo-sheet-a4.pdf", "demo-shop.pdf", "demo-contact.png", "demo-tuckbox-a4.pdf", "README.txt",
                 "print-list.pdf"):
        assert name in made, (name, made)


def test_a_copied_game_builds_with_its_new_names(installed, tmp_path):
    r = pnp(installed, "copy", "mille-bornes", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    deck = tmp_path / "decks" / "mille_bornes.yaml"
    deck.write_text(deck.read_text().replace("name: Traffic light red", "name: Feu rouge")
                    .replace("name: Puncture,", "name: Crevaison,"))
    r = pnp(installed, "build", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rules = subprocess.run(["pdftotext", str(tmp_path / "output" / "mille-bornes" / "rules-a4.pdf"), "-"],
                           capture_output=True, text=True).stdout
    assert "Feu rouge" in rules and "Crevaison" in rules
    cards = subprocess.run(["pdftotext", str(tmp_path / "output" / "mille-bornes" / "mille_bornes-shop.pdf"), "-"],
                           capture_output=True, text=True).stdout
    assert "Feu rouge" in " ".join(cards.split()) or "FEU ROUGE" in cards.upper()
    r = pnp(installed, "build", "sorry", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "sorry" / "sorry-sheet-a4.pdf").is_file()
