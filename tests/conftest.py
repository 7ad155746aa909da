import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_pnp(*args, cwd=ROOT, input=None):
    """Run the real command line, as a user would."""
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, input=input if input is not None else "")


def need(tool: str) -> str:
    path = shutil.which(tool)
    if not path:
        pytest.fail(f"{tool} is not installed (Debian package poppler-utils; .ci/run installs it)")
    return path


def build_game(tmp_path_factory, game: str) -> Path:
    """A game built with default options into a fresh folder; its output directory."""
    out = tmp_path_factory.mktemp(game)
    r = run_pnp("build", game, "--out", out)
    assert r.returncode == 0, r.stderr
    return out / game


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """Mille Bornes built once for the session, default options (A4 sheet, shop, contact)."""
    return build_game(tmp_path_factory, "mille-bornes")
