"""Bounds on what is derived from a spec, not only on what is written (README "What bad input gets"):
merge keys checked after merging, lengths with a physical lower bound, counts that follow from the
numbers refused before the work, wrong-kind references, reads with a time bound, commands that
answer a signal whatever they compute.

The quick subset (-m "not slow") keeps the cheap checks of each kind; the sweeps (every reference
at every spec), the processes, and the checks that draw or mend a whole map are slow (marked
below: this module's CPU was 40 s, the sweeps most of it)."""
from __future__ import annotations

import functools
import math
import os
import re
import shutil
import signal
from pathlib import Path

import pytest

from conftest import ROOT
from fuzzing import FLOOR_CASES, problems, run_cli

from generator.errors import SpecError
from generator.spec.loader import parse_yaml


@pytest.fixture
def project(tmp_path):
    """A throwaway project with the real specs (they name each other)."""
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    return tmp_path


@pytest.fixture(scope="module")
def references_project(tmp_path_factory):
    """One throwaway project for the tests that point each reference at every spec: each test puts
    back the file it edits, so the specs it only reads are the same files from test to test (the
    loader's cache reads each once in the module, not once a test)."""
    root = tmp_path_factory.mktemp("references")
    shutil.copytree(ROOT / "decks", root / "decks")
    shutil.copytree(ROOT / "boards", root / "boards")
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def one_spec_error(code: int, err: str, where: str) -> str:
    """The one error line of a refused spec, checked to be one line naming `where` (FILE:LINE: field)."""
    assert code == 1, err
    assert not problems(code, err, 0), err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(where), err
    return lines[0]


# ---------------------------------------------------------------- merge keys

@pytest.mark.parametrize("text, field, line", [
    ("a: &x {w: 1}\nb: {<<: *x, c: .nan}\n", "b.c", 2),                       # written beside a merge
    ("a: &x {w: .nan}\nb: {<<: *x}\n", "a.w", 1),                             # in the anchor itself
    ("b: {<<: {w: .inf}}\n", "b.w", 1),                                       # merged in, no anchor
    ("a: &x {w: 1}\nb:\n  <<: [*x, {q: -.inf}]\n", "b.q", 3),                 # a list of merges
    ("b: {<<: {z: {y: [1, .nan]}}}\n", "b.z.y[1]", 1),                         # deep inside what is merged
])
def test_a_merge_key_does_not_carry_a_non_finite_number_past_the_check(text, field, line):
    with pytest.raises(SpecError) as caught:
        parse_yaml(text, "f.yaml")
    assert (caught.value.line, caught.value.field) == (line, field)
    assert "expected a finite number" in caught.value.message


def test_a_merge_key_does_not_carry_a_date_or_a_key_that_is_not_text():
    with pytest.raises(SpecError, match="got a date"):
        parse_yaml("b: {<<: {k: 2001-01-01}}\n", "f.yaml")
    with pytest.raises(SpecError, match="a key must be text"):
        parse_yaml("b: {<<: {2001-01-01: 1}}\n", "f.yaml")


def test_a_merged_nan_in_a_real_spec_is_a_spec_error_at_its_line(project):
    spec = project / "boards" / "mille_bornes_shoe.yaml"
    edit(spec, "laser: {kerf: 0.15,", "laser: {<<: {kerf: .nan}, ")
    code, _, err, _ = run_cli(["validate", "boards/mille_bornes_shoe.yaml"], project)
    line = one_spec_error(code, err, "boards/mille_bornes_shoe.yaml:28: laser.kerf:")
    assert "finite" in line


def test_merge_keys_still_merge():
    data, lines = parse_yaml("a: &x {w: 1, v: 2}\nb:\n  <<: *x\n  w: 3\n", "f.yaml")
    assert data["b"] == {"w": 3, "v": 2} and lines[("b", "w")] == 4 and lines[("b", "v")] == 3


# ---------------------------------------------------------------- what a record or spec may name

SPECS = sorted(str(p.relative_to(ROOT)) for d in ("decks", "boards") for p in (ROOT / d).glob("*.yaml"))
# Each referee's record key that names a spec, and the kind of spec it reads there.
REFERENCES = {"sorry": ("board", "sorry-board"), "mille-bornes": ("deck", "mille-bornes-deck"),
              "continuo": ("deck", "continuo-deck"), "cubes": ("kit", "cubes-kit"),
              "capitals": ("board", "capitals-board")}


@functools.lru_cache(maxsize=None)
def _kind(spec: str) -> str:
    """A shipped spec's kind (asked of each spec once a pair: read once, by libyaml)."""
    import yaml
    return yaml.load((ROOT / spec).read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))["kind"]


def slow_but(params: list, quick) -> list:
    """params, each marked slow but `quick`: a sweep's one case in the quick subset."""
    return [p if p == quick else pytest.param(*(p if isinstance(p, tuple) else (p,)), marks=pytest.mark.slow)
            for p in params]


@pytest.mark.parametrize("game", slow_but(sorted(REFERENCES), "sorry"))     # (slow: 5 x 17 records replayed)
def test_every_record_naming_every_spec_is_read_or_refused_in_one_line(game, tmp_path):
    """5 referees x 17 specs: a record naming a spec of the kind its referee reads replays as
    before; one naming any other spec is refused in one line at the key's line, saying which kind
    was expected (it once ended in exit 70, KeyError, for 74 of the 85 pairs)."""
    key, kind = REFERENCES[game]
    text = (ROOT / "tests" / "records" / f"{game}.yaml").read_text().split("\n")
    at = next(i for i, line in enumerate(text) if line.startswith("game:")) + 1
    record = tmp_path / "record.yaml"
    read = 0
    for spec in SPECS:
        record.write_text("\n".join(text[:at] + [f"{key}: {spec}"] + text[at:]))
        code, _, err, _ = run_cli(["referee", game, "score", record], ROOT)
        assert not problems(code, err, 0), (spec, err)
        if _kind(spec) == kind:
            read += 1
            assert code in (0, 2) and "expected a" not in err, (spec, err)
        else:
            assert code == 2, (spec, err)
            assert err.strip() == f"{record}:{at + 1}: refused ({key}): expected a {kind} spec, got " \
                                  f'"{spec}", a {_kind(spec)} spec', err
    assert read >= 1


# (slow: each of 24 references pointed at 17 specs, each validated)
@pytest.mark.parametrize("spec, key", slow_but([
    ("boards/mille_bornes_shoe.yaml", "deck"), ("boards/capitals_walls.yaml", "board"),
    ("boards/capitals_world_map.yaml", "deck"), ("decks/capitals_1961.yaml", "board"),
    ("decks/count_continuo.yaml", "tiles_from"),
] + [(str(p.relative_to(ROOT)), "uses") for d in ("decks", "boards") for p in sorted((ROOT / d).glob("*_rules.yaml"))],
    ("decks/continuo_rules.yaml", "uses")))
def test_every_spec_naming_a_spec_of_another_kind_is_one_spec_error(spec, key, references_project, monkeypatch):
    """Each reference of each shipped spec, pointed at every spec of the project: `validate` reads
    one of the kind it names now, and refuses any other in one line at the reference's line,
    naming the kind expected (a wrong kind once ended in exit 70, KeyError). Names are resolved
    when the spec is checked, so the products are not planned here (that is the slow part)."""
    import generator.pipeline as pipeline
    monkeypatch.setattr(pipeline, "run_jobs", lambda *args, **kwargs: [])
    project = references_project
    path = project / spec
    original = path.read_text()
    try:
        refused = _point_at_every_spec(spec, key, project, path, original)
    finally:
        path.write_text(original)
    assert refused >= 5


def _point_at_every_spec(spec: str, key: str, project: Path, path: Path, original: str) -> int:
    """Each reference `key` of `spec` pointed at every spec in turn and validated: how many were refused."""
    import yaml
    data = yaml.load(original, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    names = list(data[key]) if key == "uses" else [None]
    refused = 0
    for name in names:
        now = data[key][name] if key == "uses" else data[key]
        expected = _kind(os.path.normpath(Path(spec).parent / now))
        for other in SPECS:
            target = os.path.relpath(project / other, path.parent)
            if key == "uses":
                entries = dict(data["uses"], **{name: target})
                new = re.sub(r"(?m)^uses: .*$", "uses: {" + ", ".join(f"{k}: {v}" for k, v in entries.items()) + "}",
                             original)
            else:
                new = re.sub(rf"(?m)^{key}: \S+", f"{key}: {target}", original)
            path.write_text(new)
            code, _, err, _ = run_cli(["validate", spec], project)
            assert not problems(code, err, 0), (name, other, err)
            if _kind(other) == expected:
                assert "spec, got" not in err, (name, other, err)
                continue
            if code == 0:        # a kind it reads as well (a rules sheet's colours from any spec of its game)
                assert _kind(other).split("-")[0] == expected.split("-")[0], (name, other)
                continue
            line = one_spec_error(code, err, f"{spec}:{original[:original.index(chr(10) + key + ':')].count(chr(10)) + 2}:")
            field = f"uses.{name}" if key == "uses" else key
            if "file name of another continuo deck" in line:    # tiles_from: the schema's own bound
                continue
            assert re.search(rf" {re.escape(field)}: expected a [a-z-]+( or a [a-z-]+)* spec, got "
                             rf'"{re.escape(other)}", a {_kind(other)} spec$', line), line
            refused += 1
    return refused


def test_two_specs_that_are_links_to_each_other(project):
    """A loop of links is an unreadable file, said in one line, as a spec, as a reference in a
    spec and as a record's reference (it once ended in exit 70, "Symlink loop")."""
    (project / "boards" / "a.yaml").symlink_to("b.yaml")
    (project / "boards" / "b.yaml").symlink_to("a.yaml")
    code, _, err, _ = run_cli(["validate", "boards/a.yaml"], project)
    assert one_spec_error(code, err, "boards/a.yaml: cannot read: ").endswith("symbolic links")
    edit(project / "boards" / "mille_bornes_shoe.yaml", "deck: ../decks/mille_bornes.yaml", "deck: a.yaml")
    code, _, err, _ = run_cli(["validate", "boards/mille_bornes_shoe.yaml"], project)
    one_spec_error(code, err, "boards/mille_bornes_shoe.yaml:19: deck: a link that leads nowhere, or round to itself")


def test_a_record_naming_a_loop_of_links(tmp_path, monkeypatch):
    monkeypatch.setattr("generator.paths.project_root", lambda: tmp_path)
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    (tmp_path / "boards" / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "boards" / "b.yaml").symlink_to("a.yaml")
    record = tmp_path / "r.yaml"
    record.write_text("game: sorry\nboard: boards/a.yaml\nplayers: [red, blue]\nentries: []\n")
    code, _, err, _ = run_cli(["referee", "sorry", "score", record], tmp_path)
    assert code == 2 and not problems(code, err, 0) and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{record}:2: refused (board): ") and "symbolic links" in err, err


def test_a_regular_file_whose_reads_wait_is_refused_at_once(tmp_path):
    """/proc/kmsg is a "regular file" (to root) whose read waits for the kernel to speak: it once
    held `validate` and `score` for ever. Kept non-blocking, its first read is refused."""
    if not os.access("/proc/kmsg", os.R_OK):
        pytest.skip("/proc/kmsg is not readable here (root only)")
    code, _, err, _ = run_cli(["validate", "/proc/kmsg"], ROOT)
    assert code == 1 and err.strip() == "/proc/kmsg: cannot read: its reads wait (not an ordinary file)", err
    code, _, err, _ = run_cli(["referee", "sorry", "score", "/proc/kmsg"], ROOT)
    assert code == 2 and "/proc/kmsg: cannot read: its reads wait" in err, err


def test_a_read_that_never_answers_is_given_up(monkeypatch):
    """A read stuck in the kernel (a stalled network mount ignores O_NONBLOCK) is given up after
    READ_TIMEOUT_S: the read runs in a thread of its own, the command goes on."""
    import threading
    import generator.inputs as inputs
    release, answered = threading.Event(), threading.Event()

    def stuck(path, limit):
        release.wait(30)
        answered.set()
        return b""
    monkeypatch.setattr(inputs, "READ_TIMEOUT_S", 0.3)
    monkeypatch.setattr(inputs, "_read_file", stuck)
    with pytest.raises(SpecError, match=r"^x.yaml: cannot read: no answer in 0.3 s"):
        inputs.read_bytes(Path("x.yaml"), "x.yaml", 100)
    assert not answered.is_set()                  # given up while the read still hangs
    assert inputs.file_digest("x.yaml") is None
    release.set()


# ---------------------------------------------------------------- signals while C code runs

DEAF = """
import os, sys, random
from pathlib import Path
from shapely.geometry import Polygon
import generator.games.capitals.board as board
def draw_board(wm):
    # A call into GEOS that runs for seconds (a mending of 900 random points) and, being C, runs no
    # signal handler meanwhile.
    rng = random.Random(1)
    ring = [(rng.uniform(-180, 180), rng.uniform(-90, 90)) for _ in range(900)]
    Path(os.environ["PNP_TEST_MARK"]).write_text("computing")
    Polygon(ring).buffer(0)
board.draw_board = draw_board
from generator.entry import main
sys.exit(main(["validate", "boards/capitals_world_map.yaml"]))
"""


@pytest.mark.slow           # a process of its own, signalled
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_validate_answers_a_signal_while_geos_computes(sig, tmp_path):
    """A spec is planned in a worker process, which the command kills on a signal: the command's
    own process only waits, and answers within 2 s even while the worker is inside one long call
    into GEOS (it once sat out SIGTERM and Ctrl-C for over 7 minutes). One spec, one job: still a
    worker of its own."""
    import subprocess
    import sys
    import time
    from conftest import default_signals
    mark = tmp_path / "mark"
    p = subprocess.Popen([sys.executable, "-c", DEAF], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                         preexec_fn=default_signals, start_new_session=True,
                         env={**os.environ, "PNP_TEST_MARK": str(mark)})
    deadline = time.time() + 60
    while not mark.exists() and time.time() < deadline and p.poll() is None:
        time.sleep(0.01)
    time.sleep(0.3)                                           # the worker is in GEOS
    sent = time.perf_counter()
    p.send_signal(sig)
    try:
        p.wait(timeout=10)
    finally:
        p.kill()
    took = time.perf_counter() - sent
    err = p.stderr.read()
    assert p.returncode == 128 + sig and took < 2.0, (p.returncode, took, err)
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):      # no worker left computing
        os.killpg(p.pid, 0)


# ---------------------------------------------------------------- lengths and what follows from them

def _floor_cases() -> list:
    """FLOOR_CASES, those refused only once a Capitals board or deck is drawn or a kit nested
    (0.1 to 2 s each) marked slow; the others are refused at the schema or before any drawing."""
    return [pytest.param(*case, marks=pytest.mark.slow) if case[0].startswith(("boards/capitals", "decks/capitals"))
            or "spacing: 2000" in case[2] else case for case in FLOOR_CASES]


@pytest.mark.parametrize("spec, old, new, where, says", _floor_cases())
def test_lengths_have_a_physical_floor_and_what_follows_from_them_is_bounded(spec, old, new, where, says, project):
    for o, n in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,)))):
        edit(project / spec, o, n)
    code, _, err, _ = run_cli(["validate", spec], project)
    # One line (the Cubes kit's sheets: one a setup, both at the line).
    lines = err.strip().splitlines()
    assert code == 1 and not problems(code, err, 0) and all(line.startswith(spec + where) for line in lines), err
    assert says in lines[0] and len(set(lines)) == len(lines) <= 2, err
    # Its time is benchmarks/spec_extremes.py's (each of FLOOR_CASES is timed there).


def _land(project: Path, polygons: list) -> None:
    import json
    path = project / "boards" / "data" / "ne_110m_land.json"
    data = json.loads(path.read_text())
    data["polygons"] = polygons
    path.write_text(json.dumps(data))


@pytest.mark.slow           # the whole map's land read and checked, with thousands of points
@pytest.mark.parametrize("points", [5000, 20000])
def test_land_that_is_a_scribble_is_refused_before_any_costly_geometry(points, project):
    """One extra polygon of random points in the Capitals land: 5,000 once took 5.8 GB and 75 s,
    20,000 all of the machine's memory. Its edges meeting thousands of others a point, it is
    refused at once, at the board's `land` line."""
    import json
    import random
    rng = random.Random(points)
    shipped = json.loads((ROOT / "boards/data/ne_110m_land.json").read_text())["polygons"]
    _land(project, shipped + [[[[rng.uniform(-180, 180), rng.uniform(-90, 90)] for _ in range(points)]]])
    code, _, err, _ = run_cli(["validate", "boards/capitals_world_map.yaml"], project)
    line = one_spec_error(code, err, 'boards/capitals_world_map.yaml:20: land: "data/ne_110m_land.json": ')
    # Its time and memory are benchmarks/spec_extremes.py's (its worst cases: these two scribbles).
    assert "a scribble, not a coastline" in line


def test_land_that_needs_little_mending_is_mended_and_drawn(project):
    """A ring that touches itself (a hand-made file) is still mended, as it always was."""
    import json
    from generator.games.capitals.board import land_polygons
    polygons = json.loads((ROOT / "boards/data/ne_110m_land.json").read_text())["polygons"]
    ring = polygons[0][0]
    ring[len(ring) // 2] = list(ring[0])
    land = tuple(tuple(tuple(tuple(p) for p in r) for r in poly) for poly in polygons)
    assert all(p.is_valid for p in land_polygons(land)) and len(land_polygons(land)) == len(polygons)


@pytest.mark.slow           # a tangle mended up to its bound
def test_land_too_tangled_to_mend_cheaply_is_refused(project):
    """300 random points crowded into a few degrees: under ten meetings a point in a large file,
    but thousands of crossings to mend (seconds of GEOS): refused, saying so."""
    import random
    from generator.games.capitals.board import MAX_MEETINGS_MENDED, LandError, land_polygons
    rng = random.Random(3)
    grid = [((-170 + 14 * (k // 20), -80 + 8 * (k % 20)), k) for k in range(400)]
    circles = tuple((tuple((round(cx + 6 * math.cos(t / 100 * math.tau), 5), round(cy + 3 * math.sin(t / 100 * math.tau), 5))
                           for t in range(100)),) for (cx, cy), _ in grid)
    tangle = ((tuple((rng.uniform(-178, -175), rng.uniform(84, 86)) for _ in range(300)),),)
    with pytest.raises(LandError, match=f"too tangled to mend here .* at most {MAX_MEETINGS_MENDED:,} are mended"):
        land_polygons(circles + tangle)


@pytest.mark.slow           # the map validated twice, at each bound
def test_land_points_and_polygons_are_bounded(project):
    from generator.games.capitals.data import MAX_LAND_POINTS, MAX_LAND_POLYGONS
    _land(project, [[[[0, 0], [1, 0], [0, 1]]]] * (MAX_LAND_POLYGONS + 1))
    code, _, err, _ = run_cli(["validate", "boards/capitals_world_map.yaml"], project)
    assert "5,000 polygons in all at most" in one_spec_error(code, err, "boards/capitals_world_map.yaml:20: land:")
    _land(project, [[[[x / 10000, 0] for x in range(MAX_LAND_POINTS)] + [[0, 1]]]])
    code, _, err, _ = run_cli(["validate", "boards/capitals_world_map.yaml"], project)
    assert "100,000 points" in one_spec_error(code, err, "boards/capitals_world_map.yaml:20: land:")


@pytest.mark.slow           # the map validated, drawn with no land
def test_land_of_no_polygons_or_degenerate_ones_is_drawn(project):
    from generator.games.capitals.board import land_polygons
    assert land_polygons(()) == ()
    assert len(land_polygons(((((0, 0), (0, 0), (0, 0)),), (((0, 0), (1, 0), (0, 1)), ((0.1, 0.1), (0.2, 0.1), (0.1, 0.2))))))\
        == 2
    _land(project, [])
    code, _, err, _ = run_cli(["validate", "boards/capitals_world_map.yaml"], project)
    assert code == 0, err


def test_the_loader_keeps_a_bounded_number_of_specs_the_most_recently_read(tmp_path, monkeypatch):
    """A long process (a test run, `pnp serve`) reads more spec files than the loader keeps: it keeps
    MAX_LOADED, the least recently used giving way: the one read again and again stays known, and
    so does the one just read (once full, the loader once kept nothing new)."""
    import generator.spec.loader as loader
    monkeypatch.setattr(loader, "MAX_LOADED", 3)
    monkeypatch.setattr(loader, "_LOADED", {})
    monkeypatch.setattr(loader, "_READ", {})
    often = loader.load_spec(ROOT / "decks" / "sorry.yaml")
    for n in range(5):
        copy = tmp_path / f"d{n}.yaml"
        copy.write_bytes((ROOT / "decks" / "sorry.yaml").read_bytes())
        new = loader.load_spec(copy)
        assert loader.load_spec(copy) is new
        assert loader.load_spec(ROOT / "decks" / "sorry.yaml") is often
        assert len(loader._LOADED) <= 3


def test_the_loader_keeps_a_bounded_number_of_bytes_of_specs(tmp_path, monkeypatch):
    """Large specs are kept by their bytes too (MAX_LOADED_BYTES a cache): a folder of large specs,
    read one after another, holds a few of them parsed, not 256; one larger than the bound alone is
    read and not kept."""
    import generator.spec.loader as loader
    size = (ROOT / "decks" / "sorry.yaml").stat().st_size
    monkeypatch.setattr(loader, "MAX_LOADED_BYTES", 2 * size + size // 2)
    monkeypatch.setattr(loader, "_LOADED", {})
    monkeypatch.setattr(loader, "_READ", {})
    for n in range(6):
        copy = tmp_path / f"d{n}.yaml"
        copy.write_text((ROOT / "decks" / "sorry.yaml").read_text() + f"# {n}\n")
        assert loader.load_spec(copy) is loader.load_spec(copy)        # the one just read is kept
        for cache in (loader._LOADED, loader._READ):
            assert len(cache) <= 2 and sum(n for _, n in cache.values()) <= loader.MAX_LOADED_BYTES
    monkeypatch.setattr(loader, "MAX_LOADED_BYTES", size - 1)
    big = tmp_path / "big.yaml"
    big.write_bytes((ROOT / "decks" / "sorry.yaml").read_bytes())
    assert loader.load_spec(big) is not loader.load_spec(big) and loader._LOADED == {} == loader._READ


def test_a_spec_copied_to_another_folder_is_read_again_as_its_own(tmp_path, monkeypatch):
    """The same bytes under the same name in another folder (a copy of the project) are not parsed
    again, but each folder's spec is its own: its path, its notes, data equal and never shared;
    other bytes under that name are read anew."""
    import generator.spec.loader as loader
    monkeypatch.setattr(loader, "_LOADED", {})      # (what other tests left in the caches aside)
    monkeypatch.setattr(loader, "_READ", {})
    first = loader.load_spec(ROOT / "decks" / "sorry.yaml", display="decks/sorry.yaml")
    (tmp_path / "decks").mkdir()
    copy = tmp_path / "decks" / "sorry.yaml"
    copy.write_bytes((ROOT / "decks" / "sorry.yaml").read_bytes())
    parsed = []
    real = loader.parse_yaml
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loader, "parse_yaml", lambda *args, **kwargs: parsed.append(args[1]) or real(*args, **kwargs))
        second = loader.load_spec(copy, display="decks/sorry.yaml")
        assert parsed == [] and second is not first
        assert second.path == copy and first.path == ROOT / "decks" / "sorry.yaml"
        assert second.data == first.data and second.data is not first.data and second.notes is not first.notes
        second.data["cards"][0]["count"] += 1            # (a spec is read-only; were it changed, only it)
        (tmp_path / "other").mkdir()
        third = tmp_path / "other" / "sorry.yaml"
        third.write_bytes(copy.read_bytes())
        assert loader.load_spec(third, display="decks/sorry.yaml").data == first.data != second.data
        # Nor does a change to the first folder's (the reading kept for others is a copy of it).
        was = first.data["cards"][0]["count"]
        try:
            first.data["cards"][0]["count"] = was + 7
            (tmp_path / "fourth").mkdir()
            fourth = tmp_path / "fourth" / "sorry.yaml"
            fourth.write_bytes(copy.read_bytes())
            assert loader.load_spec(fourth, display="decks/sorry.yaml").data["cards"][0]["count"] == was
        finally:
            first.data["cards"][0]["count"] = was
        copy.write_text(copy.read_text().replace("title: Sorry", "title: Sorry Again", 1))
        assert loader.load_spec(copy, display="decks/sorry.yaml").data["title"] == "Sorry Again"
        assert parsed == ["decks/sorry.yaml"]
