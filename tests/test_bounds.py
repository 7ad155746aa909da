"""Bounds on what is derived from a spec, not only on what is written (README "What bad input gets"):
merge keys checked after merging, lengths with a physical lower bound, counts that follow from the
numbers refused before the work, wrong-kind references, reads with a time bound, commands that
answer a signal whatever they compute."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from fuzzing import problems, run_cli

from generator.errors import SpecError
from generator.spec.loader import parse_yaml


@pytest.fixture
def project(tmp_path):
    """A throwaway project with the real specs (they name each other)."""
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    return tmp_path


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


def _kind(spec: str) -> str:
    import yaml
    return yaml.safe_load((ROOT / spec).read_text())["kind"]


@pytest.mark.parametrize("game", sorted(REFERENCES))
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


@pytest.mark.parametrize("spec, key", [
    ("boards/mille_bornes_shoe.yaml", "deck"), ("boards/capitals_walls.yaml", "board"),
    ("boards/capitals_world_map.yaml", "deck"), ("decks/capitals_1961.yaml", "board"),
    ("decks/count_continuo.yaml", "tiles_from"),
] + [(str(p.relative_to(ROOT)), "uses") for d in ("decks", "boards") for p in sorted((ROOT / d).glob("*_rules.yaml"))])
def test_every_spec_naming_a_spec_of_another_kind_is_one_spec_error(spec, key, project, monkeypatch):
    """Each reference of each shipped spec, pointed at every spec of the project: `validate` reads
    one of the kind it names now, and refuses any other in one line at the reference's line,
    naming the kind expected (a wrong kind once ended in exit 70, KeyError). Names are resolved
    when the spec is checked, so the products are not planned here (that is the slow part)."""
    import yaml
    import generator.pipeline as pipeline
    monkeypatch.setattr(pipeline, "run_jobs", lambda *args, **kwargs: [])
    path = project / spec
    original = path.read_text()
    data = yaml.safe_load(original)
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
    path.write_text(original)
    assert refused >= 5


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
    code, _, err, seconds = run_cli(["validate", "/proc/kmsg"], ROOT)
    assert code == 1 and err.strip() == "/proc/kmsg: cannot read: its reads wait (not an ordinary file)", err
    code, _, err, seconds = run_cli(["referee", "sorry", "score", "/proc/kmsg"], ROOT)
    assert code == 2 and "/proc/kmsg: cannot read: its reads wait" in err and seconds < 5, err


def test_a_read_that_never_answers_is_given_up(monkeypatch):
    """A read stuck in the kernel (a stalled network mount ignores O_NONBLOCK) is given up after
    READ_TIMEOUT_S: the read runs in a thread of its own, the command goes on."""
    import threading
    import time
    import generator.inputs as inputs
    release = threading.Event()
    monkeypatch.setattr(inputs, "READ_TIMEOUT_S", 0.3)
    monkeypatch.setattr(inputs, "_read_file", lambda path, limit: release.wait(30) and b"")
    start = time.perf_counter()
    with pytest.raises(SpecError, match=r"^x.yaml: cannot read: no answer in 0.3 s"):
        inputs.read_bytes(Path("x.yaml"), "x.yaml", 100)
    assert time.perf_counter() - start < 2
    assert inputs.file_digest("x.yaml") is None
    release.set()
