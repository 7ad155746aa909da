"""Fuzzing what we parse: every shipped spec and every example record, mutated (type swaps,
deletions, huge and non-finite numbers, unicode, aliases, truncation, bytes that are not UTF-8),
through the real command line. For each case: exit code 0, 1 or 2; every error line names a file;
no traceback; nothing touched but the file under test; within a time bound. Seeded: a failure
names its seed and case, and `PNP_FUZZ_SEED=S PNP_FUZZ_CASES=N` replays or widens the campaign.
The suite runs a short seeded sample of each family (4 cases a spec, 8 a record, 1 of the extremes
and merges a spec, 4 of the world); benchmarks/fuzz.py runs the long campaigns and prints what they
found (issue 35 moved the suite's longer sample there: 12 a spec, 3 extremes, 12 of the world).

In CI the planning stage (drawing and nesting every product) runs for the quick games only; the
other games' specs are fuzzed through loading and their semantic checks. PNP_FUZZ_FULL=1 plans all.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from fuzzing import mutate, mutate_csv, problems, run_cli, tree

SEED = int(os.environ.get("PNP_FUZZ_SEED", "1961"))
CASES = int(os.environ.get("PNP_FUZZ_CASES", "4"))    # per spec; twice as many per record (they are quick)
FULL = os.environ.get("PNP_FUZZ_FULL") == "1"
SPECS = sorted(str(p.relative_to(ROOT)) for d in ("decks", "boards") for p in (ROOT / d).glob("*.yaml"))
RECORDS = sorted((ROOT / "tests" / "records").glob("*.yaml"))
QUICK_GAMES = {"continuo", "count-continuo", "sorry"}   # planned in full even in CI


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz-project")
    shutil.copytree(ROOT / "decks", root / "decks")
    shutil.copytree(ROOT / "boards", root / "boards")
    (root / "output").mkdir()
    (root / "output" / "keep.txt").write_text("untouched")
    return root


@pytest.fixture
def quick_plans(monkeypatch):
    """Plan only the quick games (see the module's doc), unless PNP_FUZZ_FULL=1."""
    if FULL:
        return
    import generator.pipeline as pipeline
    real = pipeline.run_jobs

    def run_jobs(jobs, *args, **kwargs):
        return real([j for j in jobs if j.game in QUICK_GAMES], *args, **kwargs)
    monkeypatch.setattr(pipeline, "run_jobs", run_jobs)


def _check(case: str, code, err, seconds, before, after, changed: set[str]):
    found = problems(code, err, seconds)
    touched = {k for k in set(before) | set(after) if before.get(k) != after.get(k)} - changed
    if touched:
        found.append(f"touched {sorted(touched)[:5]}")
    assert not found, f"{case}: {found}\n{err[:2000]}"


@pytest.mark.parametrize("spec", SPECS)
def test_fuzz_spec(spec, project, quick_plans):
    original = (ROOT / spec).read_bytes()
    rng = random.Random(f"{SEED}:{spec}")
    target = project / spec
    try:
        for i in range(CASES):
            data, what = mutate(original, rng)
            target.write_bytes(data)
            before = tree(project)
            code, _, err, seconds = run_cli(["validate", spec], project)
            after = tree(project)
            _check(f"seed {SEED} {spec} case {i} ({what})", code, err, seconds, before, after, set())
            if code == 1:
                assert any(line.startswith(("decks/", "boards/")) for line in err.splitlines()), \
                    f"case {i} ({what}): no line names a spec\n{err}"
    finally:
        target.write_bytes(original)


DECK = ROOT / "tests" / "decks"      # the test deck of the `deck` kind: its spec and its CSV


@pytest.mark.parametrize("name", ["delve.yaml", "delve.csv"])
def test_fuzz_deck_spec_and_csv(name, tmp_path):
    """The deck kind's spec (mutated as every spec is) and its CSV (mutated as a spreadsheet's export
    may be: quotes, formulas, odd cells, rows and columns, bytes that are not UTF-8), validated and
    so drawn in full: one-line errors naming the spec or the CSV, nothing else touched."""
    folder = tmp_path / "decks"
    shutil.copytree(DECK, folder)
    target = folder / name
    original = target.read_bytes()
    rng = random.Random(f"{SEED}:{name}")
    for i in range(CASES):
        data, what = (mutate if name.endswith(".yaml") else mutate_csv)(original, rng)
        target.write_bytes(data)
        before = tree(tmp_path)
        code, _, err, seconds = run_cli(["validate", folder / "delve.yaml"], tmp_path)
        _check(f"seed {SEED} {name} case {i} ({what})", code, err, seconds, before, tree(tmp_path), set())
        if code == 1:
            assert any(line.startswith(("decks/delve.yaml:", "decks/delve.csv:")) for line in err.splitlines()), \
                f"case {i} ({what}): no line names the spec or its CSV\n{err}"
    target.write_bytes(original)


def _game_of(record: Path) -> str:
    return yaml.safe_load(record.read_text())["game"]


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_fuzz_record_score_and_play(record, project, tmp_path):
    original = record.read_bytes()
    game = _game_of(record)
    rng = random.Random(f"{SEED}:{record.name}")
    for i in range(2 * CASES):
        data, what = mutate(original, rng)
        case = f"seed {SEED} {record.name} case {i} ({what})"
        path = tmp_path / f"case{i}.yaml"
        path.write_bytes(data)
        before = tree(tmp_path)
        code, _, err, seconds = run_cli(["referee", game, "score", path, "--json"], project)
        _check(case, code, err, seconds, before, tree(tmp_path), set())
        if code:
            assert str(path) in err or err.startswith("pnp"), f"{case}: the error does not name the record\n{err}"
        # The same file as a journal: resumed, an undo, and quit. On disk afterwards it is either
        # the same bytes (refused) or a whole record that replays.
        before = tree(tmp_path)
        code, _, err, seconds = run_cli(["referee", game, "play", "--journal", path], project,
                                        stdin="undo\nquit\n")
        _check(case + " as a journal", code, err, seconds, before, tree(tmp_path), {path.name})
        if path.read_bytes() != data:
            code, _, err, _ = run_cli(["referee", game, "score", path], project)
            assert code == 0, f"{case}: the journal was rewritten into a record that does not replay\n{err}"


ARGS = [
    ["build", "--back-offset", "nan,0"], ["build", "--back-offset", "1e999,1"], ["build", "--back-offset", "1,2,3"],
    ["build", "no-such-game"], ["build", "--paper", "a0"], ["build", "--out"], ["validate", "/dev/zero"],
    ["validate", "/"], ["validate", "no/such/file.yaml"], ["referee", "continuo", "best", "tests/records/continuo.yaml",
                                                          "99999999999999999999"],
    ["referee", "continuo", "best", "tests/records/continuo.yaml", "1", "--top", "-5"],
    ["referee", "continuo", "best", "tests/records/continuo.yaml", "RRRR/RRRR"],
    ["referee", "continuo", "play", "--openings", "99999999999999999999", "--journal", "{tmp}/j.yaml"],
    ["referee", "continuo", "play", "--openings", "-3", "--journal", "{tmp}/j2.yaml"],
    ["referee", "sorry", "moves", "tests/records/sorry.yaml", "13"], ["referee", "sorry", "moves", "/dev/null", "1"],
    ["referee", "sorry", "play", "--players", ",,,", "--journal", "{tmp}/j3.yaml"],
    ["referee", "sorry", "play", "--journal", "{tmp}"], ["referee", "sorry", "score", "{tmp}"],
    ["referee", "mille-bornes", "play", "--players", "a\u0085b,a\u0085b", "--journal", "{tmp}/j4.yaml"],
    ["referee", "mille-bornes", "play", "--players", "Ann,Bob", "--deck", "/etc/passwd", "--journal", "{tmp}/j5.yaml"],
    ["referee", "mille-bornes", "play", "--players", "Ann,Bob", "--teams", "X=Ann;Y=Zed", "--journal", "{tmp}/j6.yaml"],
    ["referee", "cubes", "play", "--players", "x" * 5000, "--journal", "{tmp}/j7.yaml"],
    ["referee", "capitals", "play", "--players", "", "--journal", "{tmp}/j8.yaml"],
    ["referee", "nope"], ["referee", "sorry"], ["referee", "sorry", "score"], [], ["--help-me"],
]


@pytest.mark.parametrize("args", ARGS, ids=lambda a: " ".join(a)[:60])
def test_odd_command_lines(args, tmp_path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, _, err, seconds = run_cli(args, ROOT, stdin="quit\n")
    found = problems(code, err, seconds)
    assert not found, f"{args}: {found}\n{err}"


def test_bounds_hold_in_a_small_address_space(tmp_path):
    """The worst inputs, in a subprocess limited to 1 GB of memory and 60 s: refused, not run."""
    import resource
    import subprocess
    from fuzzing import BOMB
    cases = {
        "bomb.yaml": BOMB + "\nkind: *b9\n",
        "deep.yaml": "kind: " + "[" * 100000 + "]" * 100000 + "\n",
        "wide.yaml": "kind: sorry-deck\ncards: [" + ", ".join(["{marking: '1', count: 1000}"] * 20000) + "]\n",
        "count.yaml": (ROOT / "decks" / "sorry.yaml").read_text().replace("count: 4", "count: 10000000", 1),
        "anchors.yaml": "a: &a " + "[" * 30 + "1" + "]" * 30 + "\nb: [" + ", ".join(["*a"] * 100000) + "]\n",
    }

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    paths = []
    for name, body in cases.items():
        paths.append(tmp_path / name)
        paths[-1].write_text(body)
    # All of them in one process: each is refused, one line each, within the bounds.
    r = subprocess.run([sys.executable, "-m", "generator", "validate", *map(str, paths)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60, preexec_fn=limit)
    found = problems(r.returncode, r.stderr, 0)
    assert r.returncode == 1 and not found, f"{found}\n{r.stderr[:1000]}"
    for path in paths:
        assert str(path) in r.stderr, (path.name, r.stderr[:1000])


def test_fuzz_build_manifest(tmp_path):
    """The build's manifest (output/.pnp-build.json) is read back by the next build, and it lives
    where anyone may edit it: mutated, a build still ends 0 (a job whose entry is not ours runs
    again), one-line errors only, nothing written outside the output folder. The build of a deck of
    one card: its manifest's jobs have a game's keys, reads, sizes and products, and a case costs
    about 0.5 s of CPU where Continuo's build took 0.8 s."""
    from generator.pipeline import MANIFEST
    (tmp_path / "one.yaml").write_text(
        "kind: deck\ntitle: One\ncard: {width: 63, height: 88, bleed: 3}\ntuck_box: false\n"
        "cards:\n  - {name: One}\nlayouts:\n  face:\n    elements:\n"
        "      - {type: text, x: 5, y: 5, w: 50, h: 10, text: \"{name}\", size: 12}\n"
        "  back: {background: \"#333333\"}\n")
    (tmp_path / "keep.txt").write_text("untouched")
    code, _, err, _ = run_cli(["build", "one.yaml"], tmp_path)
    assert code == 0, err
    manifest = tmp_path / "output" / MANIFEST
    original = manifest.read_bytes()
    assert len(json.loads(original)["jobs"]) >= 2         # (as many as Continuo's)
    rng = random.Random(f"{SEED}:manifest")
    for i in range(CASES):
        data, what = mutate(original, rng)
        manifest.write_bytes(data)
        before = {k: v for k, v in tree(tmp_path).items() if not k.startswith("output/")}
        code, _, err, seconds = run_cli(["build", "one.yaml"], tmp_path)
        after = {k: v for k, v in tree(tmp_path).items() if not k.startswith("output/")}
        _check(f"seed {SEED} manifest case {i} ({what})", code, err, seconds, before, after, set())
        assert code == 0, f"manifest case {i} ({what}): {err}"


# ---------------------------------------------------------------- the world around the command (issue 24)
# Families of fuzzing_world.py: a few seeded cases here, a long campaign in benchmarks/fuzz.py.

WORLD_CASES = int(os.environ.get("PNP_FUZZ_WORLD_CASES", "4"))


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from fuzzing_world import world_project
    return world_project(tmp_path_factory.mktemp("fuzz-world"))


@pytest.mark.parametrize("chunk", range(2))
def test_fuzz_locales_and_closed_streams(world, chunk):
    """Closed standard streams, encodings that cannot carry the names printed, odd environments:
    never an exit 70 or a traceback, stdout in its encoding, nothing else touched."""
    from fuzzing_world import run_world_case, world_case
    rng = random.Random(f"{SEED}:world:{chunk}")
    for i in range(WORLD_CASES // 2):
        case = world_case(rng, chunk * 1000 + i)
        code, found = run_world_case(case, world)
        assert not found, f"seed {SEED} world chunk {chunk} case {i}: {case}: exit {code}: {found}"


def test_fuzz_concurrent_builds_into_one_folder(tmp_path):
    """Two or three builds into one folder at once, some killed: each ends 0, is refused in one
    line or ends as its signal says; then the folder is whole, swept and up to date."""
    from fuzzing_world import can_unshare, concurrent_case, concurrent_project, run_concurrent_case
    work = concurrent_project(tmp_path)
    rng = random.Random(f"{SEED}:concurrent")
    namespaces = can_unshare()
    for i in range(int(os.environ.get("PNP_FUZZ_CONCURRENT_CASES", "1"))):
        case = concurrent_case(rng, namespaces)
        _, found = run_concurrent_case(case, work)
        assert not found, f"seed {SEED} concurrent case {i}: {[str(p) for p in case[1]]}: {found}"

# ---------------------------------------------------------------- derived sizes, merge keys, references
# Three families of input the campaign of issue 24 found: numbers within their schema's bounds whose
# consequences were not (a shoe of 0.001 mm plywood validated for minutes), merge keys (`<<`) that
# carried a .nan past the finite check, and references to a spec of another kind (exit 70,
# KeyError). benchmarks/fuzz.py runs each at length.

from fuzzing import (RECORD_REFERENCES, extreme_mutation, merge_mutation, record_reference_mutation,  # noqa: E402
                     reference_mutation)

EXTREME_CASES = int(os.environ.get("PNP_FUZZ_EXTREME_CASES", "1"))   # per spec, every product planned


@pytest.mark.parametrize("spec", SPECS)
def test_fuzz_derived_size_extremes(spec, project):
    """Numbers at the extremes of their schema's bounds, planned in full: refused in one line or
    planned, never exit 70, never past the time bound (what follows from them is bounded)."""
    original = (ROOT / spec).read_text()
    rng = random.Random(f"{SEED}:extremes:{spec}")
    target = project / spec
    try:
        for i in range(EXTREME_CASES):
            text, what = extreme_mutation(original, rng)
            target.write_text(text)
            before = tree(project)
            code, _, err, seconds = run_cli(["validate", spec], project)
            _check(f"seed {SEED} {spec} extremes case {i} ({what})", code, err, seconds, before, tree(project), set())
    finally:
        target.write_text(original)


@pytest.mark.parametrize("spec", SPECS)
def test_fuzz_merge_keys(spec, project, quick_plans):
    """Keys of a mapping moved behind a merge key (`<<`): the spec means what it meant (the same
    exit code); one merged value made non-finite is refused at the merge's line."""
    original = (ROOT / spec).read_text()
    rng = random.Random(f"{SEED}:merge:{spec}")
    target = project / spec
    try:
        for i in range(max(1, CASES // 4)):
            text, what, spoiled = merge_mutation(original, rng)
            target.write_text(text)
            before = tree(project)
            code, _, err, seconds = run_cli(["validate", spec], project)
            case = f"seed {SEED} {spec} merge case {i} ({what})"
            _check(case, code, err, seconds, before, tree(project), set())
            if spoiled:
                assert code == 1 and "expected a finite number" in err, f"{case}: {err}"
            else:
                assert code == 0, f"{case}: a merge changed what the spec means\n{err}"
    finally:
        target.write_text(original)


@pytest.mark.parametrize("spec", [s for s in SPECS if s.endswith("_rules.yaml") or s in (
    "boards/mille_bornes_shoe.yaml", "boards/capitals_walls.yaml", "boards/capitals_world_map.yaml",
    "decks/capitals_1961.yaml", "decks/count_continuo.yaml")])
def test_fuzz_wrong_kind_references(spec, project, quick_plans):
    """A spec's reference (deck:, board:, uses:, tiles_from:, land:) pointed at any spec of the
    project, the land polygons, a folder, a loop of links, a missing file, a path out: read, or
    refused in one line."""
    original = (ROOT / spec).read_text()
    rng = random.Random(f"{SEED}:references:{spec}")
    target = project / spec
    try:
        for i in range(max(1, CASES // 3)):
            text, what = reference_mutation(original, spec, project, rng)
            target.write_text(text)
            before = tree(project)
            code, _, err, seconds = run_cli(["validate", spec], project)
            _check(f"seed {SEED} {spec} reference case {i} ({what})", code, err, seconds, before, tree(project),
                   set())
    finally:
        target.write_text(original)


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_fuzz_record_references_and_merges(record, project, tmp_path, monkeypatch):
    """A record's board:, deck: or kit: pointed anywhere (run in the fuzzed project, whose specs
    it may name), and its entries behind merge keys: replayed, or refused in one line (exit 2)."""
    monkeypatch.setattr("generator.paths.project_root", lambda: project)
    original = record.read_text()
    game = _game_of(record)
    rng = random.Random(f"{SEED}:record-references:{record.name}")
    for i in range(CASES // 2):
        if i % 2:
            text, what, _ = merge_mutation(original, rng)
        else:
            text, what = record_reference_mutation(original, game, project, rng)
        path = tmp_path / f"case{i}.yaml"
        path.write_text(text)
        before = tree(tmp_path)
        code, _, err, seconds = run_cli(["referee", game, "score", path], project)
        _check(f"seed {SEED} {record.name} case {i} ({what})", code, err, seconds, before, tree(tmp_path), set())
        assert code in (0, 2), f"{what}: {err}"
    assert RECORD_REFERENCES[game]


# ---------------------------------------------------------------- issue 32: pictures, fonts, scripts
# A few seeded cases of each of tests/fuzzing_scripts.py's families; benchmarks/fuzz.py runs the
# long campaign (--family pictures, fonts, scripts).

@pytest.mark.parametrize("family", ["pictures", "fonts", "scripts"])
def test_fuzz_pictures_fonts_and_scripts(family, tmp_path):
    from fuzzing_scripts import case
    rng = random.Random(f"{SEED}:{family}")
    for i in range(max(4, CASES)):
        what, runs, own = case(family, tmp_path / family, rng, run_cli)
        found = own + [p for code, _, err, seconds in runs for p in problems(code, err, seconds)]
        assert not found, f"seed {SEED} {family} case {i} ({what}): {found}\n{runs[0][2][:2000]}"


# ---------------------------------------------------------------- the open tool (issue 32)

@pytest.mark.parametrize("family", ["hostile text", "spreadsheet exports", "own folders", "settings, new and copy"])
def test_fuzz_the_open_tool(family, tmp_path):
    """A short seeded sample of tests/fuzzing_open.py's families (benchmarks/fuzz.py runs long ones):
    hostile characters in every text a spec brings, spreadsheets as they are exported, folders of
    decks whose names fold to one among game records, settings, new and copy."""
    from fuzzing_open import campaign
    lines: list[str] = []
    cases = {"own folders": max(2, CASES // 3)}.get(family, CASES)
    runs, found = campaign(family, tmp_path, cases, str(SEED), report=lines.append)
    assert runs >= cases and not found, "\n".join(lines)
