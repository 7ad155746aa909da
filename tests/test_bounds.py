"""Bounds on what is derived from a spec, not only on what is written (README "What bad input gets"):
merge keys checked after merging, lengths with a physical lower bound, counts that follow from the
numbers refused before the work, wrong-kind references, reads with a time bound, commands that
answer a signal whatever they compute."""
from __future__ import annotations

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
