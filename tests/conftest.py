import fcntl
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def drawn_items(group, m=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
    """Every primitive of a Drawing's group (its root, or a placed drawing), with the transform it
    is drawn under, from the drawing's own frame."""
    from generator.draw import compose
    m = compose(m, group.transform)
    for item in group.items:
        if hasattr(item, "items"):
            yield from drawn_items(item, m)
        else:
            yield item, m


def run_pnp(*args, cwd=ROOT, input=None):
    """Run the real command line, as a user would."""
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, input=input if input is not None else "")


def pnp_here(*args, cwd=ROOT, input=None) -> subprocess.CompletedProcess:
    """The command line's own main() run in this process: what run_pnp gives (exit code, stdout,
    stderr), without starting a Python (about 0.3 s each). For tests of what a command answers;
    tests of the process itself (its entry point, signals, what it imports) use run_pnp."""
    from fuzzing import run_cli
    code, out, err, _ = run_cli(list(args), Path(cwd), stdin=input or "")
    return subprocess.CompletedProcess(["pnp", *map(str, args)], code, out, err)


def default_signals() -> None:
    """For a child that a test sends signals to (Popen's preexec_fn): the stopping signals at their
    defaults, whatever the test run was started with (a script's `pytest &` ignores Ctrl-C, and
    children inherit that; pnp, rightly, then leaves Ctrl-C ignored)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


PACKAGES = {"gs": "ghostscript", "chromium": "chromium", "chromedriver": "chromium-driver"}


def need(tool: str) -> str:
    path = shutil.which(tool)
    if not path:
        pytest.fail(f"{tool} is not installed (Debian package {PACKAGES.get(tool, 'poppler-utils')}; "
                    ".ci/run installs it)")
    return path


def _shared(tmp_path_factory) -> Path:
    """A folder shared by every test process of this run (pytest-xdist's workers included)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    base = tmp_path_factory.getbasetemp()
    return (base.parent / f"shared-{run}") if run else (base / "shared")


def built_output(tmp_path_factory, paper: str = "a4") -> Path:
    """Every game built once for the whole test run, with the default options (`pnp build`, as a
    user runs it; or with `--paper letter`): the output folder. Tests that look at default
    outputs share it; tests of other options build their own."""
    shared = _shared(tmp_path_factory)
    shared.mkdir(parents=True, exist_ok=True)
    tag = "" if paper == "a4" else f"-{paper}"
    out = shared / f"output{tag}"
    with open(shared / f"lock{tag}", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / f"done{tag}").exists():
            r = run_pnp("build", "--out", out, *(["--paper", paper] if tag else []))
            assert r.returncode == 0, r.stderr
            (shared / f"done{tag}").write_text("ok")
    return out


def build_options(out: Path, paper: str = "a4", **options):
    """A build's options as the command line makes them: the paper named here, a Paper below."""
    from generator.options import BuildOptions
    from generator.paper import PAPERS
    return BuildOptions(out=out, paper=PAPERS[paper], **options)


def build_job(out: Path, game: str, spec: str, **options) -> Path:
    """One job of a build (one spec of one game) with these options, through the build's own job
    runner, written into out: the game's folder. Quicker than `pnp build GAME` where a test is
    about one spec's products (the command line itself is tested elsewhere)."""
    from generator.pipeline import Job, run_job
    result = run_job(Job(game, spec), ROOT, build_options(out, **options), out)
    assert not result.errors, result.errors
    return out / game


def build_game(tmp_path_factory, game: str) -> Path:
    """A game built with default options (from the run's one build of every game): its folder."""
    return built_output(tmp_path_factory) / game


@pytest.fixture(scope="session")
def output(tmp_path_factory):
    return built_output(tmp_path_factory)


@pytest.fixture(scope="session")
def output_letter(tmp_path_factory):
    """Every game built once for the run with --paper letter."""
    return built_output(tmp_path_factory, "letter")


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """Mille Bornes, default options (A4 sheet, shop, contact)."""
    return build_game(tmp_path_factory, "mille-bornes")


DECK = ROOT / "tests" / "decks" / "delve.yaml"   # the test deck of the `deck` kind


def build_deck(out: Path, spec: Path = DECK, part=None, **options) -> Path:
    """A `kind: deck` spec built through its game's declaration (as a build's job builds it),
    written into out: the folder of its products."""
    from generator.pipeline import plan_game
    from generator.spec import load_spec
    loaded = load_spec(spec, display=str(spec.relative_to(ROOT)) if spec.is_relative_to(ROOT) else str(spec))
    plan = plan_game("deck", {str(spec): loaded}, build_options(out, **options), part)
    plan.write_into(out)
    return out / "deck"
