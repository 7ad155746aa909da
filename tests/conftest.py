import fcntl
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Where the environment says not to write bytecode (PYTHONDONTWRITEBYTECODE, set on this machine),
# every test process and every `pnp` it starts compiled the package and the tests from source again:
# a worker's collection took 10 s of CPU, 5 s with bytecode. The run keeps its bytecode out of the
# source tree, as that setting wants, in pytest's own cache folder; set before the workers start,
# so they and their children inherit it.
if sys.dont_write_bytecode:
    PYCACHE = ROOT / ".pytest_cache" / "pycache"
    sys.dont_write_bytecode = False
    sys.pycache_prefix = str(PYCACHE)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)


def memory_folder(mounts: str = "/proc/mounts", wanted: int = 4 << 30) -> str | None:
    """/dev/shm where it is a tmpfs with `wanted` bytes free (a container's is often 64 MB), else
    None."""
    try:
        with open(mounts, encoding="utf-8", errors="replace") as f:
            tmpfs = any(line.split()[1:3] == ["/dev/shm", "tmpfs"] for line in f if len(line.split()) > 2)
        free = os.statvfs("/dev/shm")
    except OSError:
        return None
    return "/dev/shm" if tmpfs and free.f_bavail * free.f_frsize >= wanted else None


# The run's temporary files (tmp_path, the shared builds, every child's temporary files) in memory
# when the machine has room: a run writes about 15,000 files (700 MB whole), each build's journal
# and outputs fsynced; on this machine's disk, deleting one run's files took 2.9 s of wall time
# and 0.9 s of CPU, in memory 0.4 s and 0.3 s. Not where the user named a place (TMPDIR,
# --basetemp). Passing tests' folders are removed as they end (pyproject.toml:
# tmp_path_retention_policy), so a run holds no memory after it.
if not (os.environ.get("TMPDIR") or os.environ.get("PYTEST_DEBUG_TEMPROOT")
        or any(arg.startswith("--basetemp") for arg in sys.argv)):
    _memory = memory_folder()
    if _memory:
        import tempfile
        os.environ["TMPDIR"] = _memory
        tempfile.tempdir = None     # computed again from TMPDIR


def drawn_items(group, m=(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)):
    """generator.draw.drawing.drawn_items, imported when a test reads a drawing (conftest stays light)."""
    from generator.draw.drawing import drawn_items as items
    return items(group, m)


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


def one_error(r, pattern: str) -> str:
    """A command refused in one line (exit 1) that matches pattern; that line."""
    import re
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 1 and len(lines) == 1, (r.returncode, r.stderr)
    assert re.search(pattern, lines[0]), lines[0]
    return lines[0]


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


def built_output(tmp_path_factory) -> Path:
    """Every game built once for the whole test run, with the default options (`pnp build`, as a
    user runs it): the output folder. Tests that look at default outputs share it; tests of other
    options build their own."""
    shared = _shared(tmp_path_factory)
    shared.mkdir(parents=True, exist_ok=True)
    out = shared / "output"
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "done").exists():
            r = run_pnp("build", "--out", out)
            assert r.returncode == 0, r.stderr
            (shared / "listed").write_text(r.stdout)     # what it said it wrote, in its order
            (shared / "done").write_text("ok")
    return out


def built_listing(tmp_path_factory) -> list[str]:
    """The lines the run's one build (built_output) printed: every file it wrote, in its order."""
    return (built_output(tmp_path_factory).parent / "listed").read_text().splitlines()


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


def build_product(out: Path, game: str, spec: str, product: str, **options) -> Path:
    """One product's files of one spec of a game (as a build's job plans it, that product alone:
    a test of one file need not pay for the contact sheet and tuck box of each deck), written into
    out: the game's folder."""
    import dataclasses
    from generator.games import check_spec, game_contents
    from generator.outputs import Plan
    from generator.products import make_files
    from generator.spec import load_spec
    loaded = load_spec(ROOT / spec, display=spec)
    check_spec(loaded)
    opts = build_options(out, **options)
    contents = game_contents(game, {str(ROOT / spec): loaded}, opts.paper)
    plan = Plan()
    # (a content the game gives to some products only keeps to them: `product` among them, or none)
    make_files([dataclasses.replace(c, only=(product,) if c.only is None or product in c.only else ())
                for c in contents], plan.sub(game), opts)
    assert plan.products, f"{product} makes nothing of {spec}"
    plan.write_into(out)
    return out / game


def build_game(tmp_path_factory, game: str) -> Path:
    """A game built with default options (from the run's one build of every game): its folder."""
    return built_output(tmp_path_factory) / game


@pytest.fixture(scope="session")
def output(tmp_path_factory):
    return built_output(tmp_path_factory)


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


# pytest-xdist, `--dist loadgroup` (pyproject.toml): a module's tests go to one worker, as they
# share its module fixtures and caches (a build, a typeset sheet), except in these modules, whose
# tests are independent and each as heavy as a module: each test is a unit a free worker takes
# (`--dist loadfile` once kept the fuzz module's 111 tests, a quarter of the suite's time, on one).
SPREAD = {"test_fuzz.py"}
# Modules that share a group, so a worker: the browser modules, so that one Chromium and its windows
# serve them all (tests/phones.py: a Chromium costs about 2.6 s of CPU to start, a new window and
# its first page about 1.7 s, a page in a window used before 0.4 s).
GROUPS = {name: "browsers" for name in ("test_serve_four_phones.py", "test_serve_browser.py",
                                        "test_serve_round3_browser.py", "test_studio_browser.py")}

# The quick subset (`pytest -m "not slow"`, before each commit) leaves out what is slow by nature:
# a test that reads the run's whole build (the build is) or every game's laser sheets nested, these
# modules, each about processes, whole builds or long seeded samples, and a few tests of the same
# kind. The whole suite (CI) runs everything.
SLOW_FIXTURES = {"output", "built", "capitals_out", "nested_sheets", "kit_out"}
SLOW_MODULES = {
    "test_assembly_labels.py": "every assembly sheet of every kit laid out (test_assembly is quick)",
    "test_fuzz.py": "fuzz campaigns' seeded samples, through the command line",
    "test_world.py": "commands in processes of their own, odd environments and streams",
    "test_installed.py": "a wheel built, installed and run",
    "test_serve_browser.py": "pages driven in Chromium",
    "test_serve_round3_browser.py": "pages driven in Chromium",
    "test_serve_four_phones.py": "pages driven in four Chromium windows",
    "test_studio_browser.py": "pnp studio's page driven in Chromium, a deck of its own edited",
    "test_own_folder.py": "builds in a folder of one's own, --watch",
    "test_capitals_random.py": "random games", "test_continuo_random.py": "random games",
    "test_cubes_random.py": "random games", "test_mille_bornes_random.py": "random hands",
    "test_sorry_random.py": "random games",
}
SLOW_TESTS = {
    # Over 0.2 s of CPU each on two quiet cores, where quicker tests of the same area stay quick:
    "test_a_thick_decks_box_in_two_pieces_is_cut_on_both_printed_trims": "a thick deck's box planned in two pieces",
    "test_capitals_strips_are_cut_where_the_sheets_cut_them": "the Capitals strips planned",
    "test_sorry_tokens_are_cut_on_the_tokens_printed_rim": "Sorry's tokens planned and drawn",
    "test_under_pdfx_transparency_is_flattened": "a deck built as PDF/X",
    "test_a_profile_of_ones_own_replacing_ours_builds_again": "a deck built for a shop twice",
    "test_drivethrucards_pages_alternate_back_and_front": "a shop file read page by page",
    "test_drivethrucards_tuck_box_has_no_page_bleed": "a shop's tuck box built",
    "test_engraving_closer_to_a_cut_than_the_inset_is_the_specs_error": "the Cubes kit planned",
    "test_previews_look_as_they_did_through_cairosvg": "previews drawn twice, by cairo and by cairosvg",
    "test_the_settings_line_only_when_settings_set_something": "builds with and without settings",
    "test_a_jpeg_is_passed_through": "a deck with a photograph built",
    "test_an_opentype_font_with_postscript_outlines": "a deck in a CFF font built",
    "test_sheets_are_byte_reproducible": "every rules sheet written twice",
    "test_letter_sheets": "every rules sheet on Letter",
    "test_an_out_holding_the_project_or_the_working_folder_is_refused_before_anything_changes": "five project copies",
    "test_mille_bornes_whole_game": "a whole game through the API",
    "test_showcase_and_hand_are_built_when_asked": "a deck's showcase and hand pictures",
    "test_a_box_the_spec_did_not_ask_for_that_cannot_be_made_is_left_out_with_a_note": "a whole deck build",
    "test_every_face_covers_its_outline_and_bleed_with_its_art": "every printed piece's face drawn four times at 8 px/mm",
    "test_capitals_troughs_are_cut_on_their_printed_trims": "the Capitals kit planned and its troughs' outlines matched",
    "test_cubes_paper_pieces_are_cut_on_their_printed_trims": "the Cubes paper pieces planned for both games",
    "test_every_tuck_box_is_cut_on_its_printed_trim": "every deck's tuck box planned",
    "test_every_deck_of_the_five_games_and_the_starter_lays_out": "every deck planned on cut sheets, each machine and paper",
    "test_a_build_with_cut_writes_the_machines_files": "a build with --cut for each machine",
    "test_cricut_picture_and_outline_share_a_frame": "a build with --cut cricut, its pictures read",
    "test_a_folder_remembers_its_machine": "two builds",
    "test_nothing_of_the_five_games_cards_lies_in_any_shops_safe_zone": "every card of five games against every shop's zone",
    "test_the_starter_deck_builds_for_every_shop": "the starter deck built for each shop",
    "test_drivethrucards_pdf_is_their_product_page_by_page": "a shop file read page by page",
    "test_picture_shop_files_are_the_products_pixels_dpi_and_colour": "every face of a deck as a picture",
    "test_drivethrucards_total_ink_is_at_most_240_per_cent": "a shop file rendered in CMYK",
    "test_every_product_of_every_shop_as_its_files_say": "every product of each shop built",
    "test_tabletop_simulator_sheets_and_saved_object": "Tabletop Simulator's sheets built and read",
    "test_a_deck_whose_backs_differ_gets_each_back_by_its_first_card": "a shop's upload set built",
    "test_cmyk_and_interleave": "a deck built in CMYK and interleaved (test_pdf_outputs has both, quick)",
    "test_the_starter_deck_builds_where_it_is_copied": "pnp new, then a whole build",
    "test_a_small_deck_gets_a_thin_box": "four decks' tuck boxes built",
    "test_a_new_deck_whose_name_yaml_would_type_validates": "ten new decks validated",
    "test_a_deck_at_the_top_and_one_in_decks_of_one_name_are_refused_and_the_output_kept": "a build, then its refusal",
    "test_a_deck_named_like_a_games_spec_builds_as_the_deck": "a whole deck build",
    "test_settings_read_back_equal_to_what_was_written": "311 settings written and read back",
    "test_our_captions_never_fail_a_users_spec": "every caption size built",
    "test_a_japanese_title_in_every_product_with_the_decks_font": "every product of a deck built",
    "test_cube_sheets_stay_within_400_kb_and_label_every_part": "every Cubes sheet written as DXF",
    "test_laser_libraries_load_only_when_used": "a Python started to see what it imports",
    "test_backs_render_behind_faces": "duplex pages rendered",
    "test_capitals_agree_with_a_gazetteer_within_one_degree": "117 capitals looked up in a gazetteer",
    "test_real_specs_are_valid": "every spec validated, every product planned",
    "test_the_serve_command": "pnp serve in a process of its own",
    "test_pytest_commands_parse_and_select_on_a_registered_marker": "pytest started again",
    "test_two_builds_write_the_same_bytes": "two builds",
    "test_watch_sees_every_file_the_build_read_whatever_its_case_and_never_builds_every_game": "--watch in a process",
    "test_continuo_whole_game_with_best": "a whole game of 42 tiles through the API, `best` at each",
    "test_sorry_whole_game_with_moves": "a whole game through the API, the moves listed at each turn",
    "test_every_printed_piece_builds_with_each_cut": "every printed piece's sheets and cut files, each machine and paper",
}


@pytest.hookimpl(tryfirst=True)       # before xdist's worker reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.nodeid.split("::")[0]
        name = Path(module).name
        if name not in SPREAD:
            item.add_marker(pytest.mark.xdist_group(group_of(module)))
        if (name in SLOW_MODULES or getattr(item, "originalname", item.name) in SLOW_TESTS
                or SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.slow)
    # The longest modules first (as the last run of this selection timed them; a module not timed
    # yet counts as long): the workers take a module each in this order, and a long one taken last
    # kept one core busy while the other had nothing left (the whole suite ended 23 s after its
    # CPU/2, the four-phone module 60 s of it). The order within a module stays as written.
    longest_modules_first(items, _module_seconds(config))


def group_of(module: str) -> str:
    """The xdist group a module's tests go in: its own, or the one it shares (GROUPS)."""
    return GROUPS.get(Path(module).name, module)


def longest_modules_first(items: list, seconds: dict) -> None:
    """items sorted in place by their group's seconds (its modules' together), longest first, a
    group with a module not timed first of all; stable, so a module's tests keep their order."""
    group_seconds: dict = {}
    for module in {item.nodeid.split("::")[0] for item in items}:
        group = group_of(module)
        group_seconds[group] = group_seconds.get(group, 0.0) + seconds.get(module, float("inf"))
    items.sort(key=lambda item: -group_seconds[group_of(item.nodeid.split("::")[0])])


# Each module's seconds in the last run of this selection (-m), kept in pytest's cache by the
# process that sees every test's report (xdist's controller, or the one test process).
_TIMED: dict = {}


def _timing_key(config) -> str:
    selection = "".join(c if c.isalnum() or c in " _-" else "_" for c in config.getoption("markexpr") or "all")
    return f"pnp/module-seconds/{selection}"


def _module_seconds(config) -> dict:
    """The last run's figures; anything in the cache file that is not a module's seconds is left out
    (a file broken by hand or by a run killed while writing orders nothing)."""
    cache = getattr(config, "cache", None)
    kept = cache.get(_timing_key(config), None) if cache is not None else None
    if not isinstance(kept, dict):
        return {}
    return {module: float(seconds) for module, seconds in kept.items()
            if isinstance(module, str) and isinstance(seconds, (int, float)) and not isinstance(seconds, bool)}


def pytest_runtest_logreport(report):
    module = report.nodeid.split("::")[0]
    _TIMED[module] = _TIMED.get(module, 0.0) + report.duration


def pytest_sessionfinish(session):
    cache = getattr(session.config, "cache", None)
    if os.environ.get("PYTEST_XDIST_WORKER") or cache is None or not _TIMED:
        return
    timed = _module_seconds(session.config)
    timed.update({module: round(seconds, 2) for module, seconds in _TIMED.items()})
    cache.set(_timing_key(session.config), timed)
