"""Bad specs: one line per error naming file, line and field; non-zero exit; nothing written."""
import re
import shutil

import pytest

from conftest import ROOT, pnp_here
from fuzzing import run_cli

DECK = (ROOT / "decks" / "mille_bornes.yaml").read_text()
LINE_RE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<field>[^:]+): (?P<message>.+)$")


def line_of(text: str, needle: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in the deck")


@pytest.fixture
def project(tmp_path):
    """A throwaway project folder with the real decks and boards (specs name each other), so
    tests can break them."""
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / "keep.txt").write_text("untouched")
    return tmp_path


def break_deck(project, old: str, new: str) -> int:
    text = DECK.replace(old, new, 1)
    assert text != DECK, f"{old!r} not found"
    (project / "decks" / "mille_bornes.yaml").write_text(text)
    return line_of(text, new.splitlines()[0] if new.strip() else old)


def assert_refused(project, line: int, field: str, message: str):
    # In-process (the command line itself is tested in test_bad_input and test_fuzz): quick.
    for command in (["validate", "decks/mille_bornes.yaml"], ["build", "mille-bornes"]):
        code, out, err, _ = run_cli(command, project)
        assert code == 1, (command, out, err)
        errors = [m for m in (LINE_RE.match(l) for l in err.splitlines()) if m]
        assert errors, err
        hit = [e for e in errors if e["field"] == field]
        assert hit, f"no error for {field}: {err}"
        assert hit[0]["file"] == "decks/mille_bornes.yaml"
        assert int(hit[0]["line"]) == line, err
        assert message in hit[0]["message"], err
    # Nothing was written: output/ holds only what it held before.
    assert sorted(p.name for p in (project / "output").iterdir()) == ["keep.txt"]


def test_misspelt_key(project):
    line = break_deck(project, "category: parade, count: 14,", "category: parade, cuont: 14,")
    assert_refused(project, line, "cards[10].cuont", "unknown key (did you mean 'count'?)")


def test_count_not_a_number(project):
    line = break_deck(project, "category: attack, count: 3, symbol: flat-tyre",
                      "category: attack, count: ten, symbol: flat-tyre")
    assert_refused(project, line, "cards[6].count", 'expected a whole number from 1 to 1000, got "ten"')


@pytest.mark.parametrize("bad", ["0", "-2", "1.5", "2.0", "true", "\"3\""])
def test_count_not_positive_integer(project, bad):
    line = break_deck(project, "category: progress, count: 12,", f"category: progress, count: {bad},")
    assert_refused(project, line, "cards[3].count", "expected a whole number from 1 to 1000")


def test_wrong_type(project):
    line = break_deck(project, "card: {width: 63,", "card: {width: wide,")
    assert_refused(project, line, "card.width", 'expected a card\'s side in mm, from 20 to 2000, got "wide"')


def test_colour_not_a_colour(project):
    line = break_deck(project, 'red: "#c8202a"', 'red: "#c8202x"')
    assert_refused(project, line, "palette.red", "expected a colour")


def test_palette_name_unknown(project):
    line = break_deck(project, "attack: {label: Attack, colour: red,", "attack: {label: Attack, colour: scarlet,")
    assert_refused(project, line, "categories.attack.colour", 'got "scarlet"')


def test_counts_do_not_add_up(project):
    line = break_deck(project, "category: progress, count: 12,", "category: progress, count: 11,")
    line = line_of(DECK, "expected_total:")
    assert_refused(project, line, "expected_total", "add up to 105, not 106")


def test_not_yaml(project):
    (project / "decks" / "mille_bornes.yaml").write_text(DECK.replace("cards:\n", "cards: [\n", 1))
    r = pnp_here("validate", "decks/mille_bornes.yaml", cwd=project)
    assert r.returncode == 1
    assert re.match(r"^decks/mille_bornes\.yaml:\d+: not valid YAML: ", r.stderr), r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_duplicate_key(project):
    line = break_deck(project, "title: Mille Bornes\n", "title: Mille Bornes\ntitle: Again\n") + 1
    assert_refused(project, line, "title", "duplicate key (first given on line")


def test_unknown_kind(project):
    line = break_deck(project, "kind: mille-bornes-deck", "kind: mille-borne-deck")
    assert_refused(project, line, "kind", "did you mean 'mille-bornes-deck'?")


def test_every_error_is_one_line(project):
    break_deck(project, "category: parade, count: 14,", "category: parade, cuont: 14,")
    r = pnp_here("validate", "decks/mille_bornes.yaml", cwd=project)
    for line in r.stderr.strip().splitlines():
        assert LINE_RE.match(line), line


def test_a_spec_wrong_everywhere_gets_its_first_errors_in_order_and_a_count(project):
    """1,100 bad cards are not 1,100 lines: the first 25 errors, in file order (cards[2] before
    cards[10]), then how many more; a bound says what it is and what was found. (Just over the
    MAX_ERRORS_FOUND errors that validation counts: more cards would only take longer to read.)"""
    from generator.spec.loader import MAX_ERRORS_FOUND, MAX_ERRORS_SHOWN
    cards = MAX_ERRORS_FOUND + 100
    path = project / "decks" / "wide.yaml"
    path.write_text("kind: sorry-deck\ncards: [" + ", ".join(["{marking: '1', count: 1000}"] * cards) + "]\n")
    code, _, err, _ = run_cli(["validate", "decks/wide.yaml"], project)
    lines = err.splitlines()
    assert code == 1 and len(lines) == MAX_ERRORS_SHOWN + 1, err[:2000]
    assert f"decks/wide.yaml:2: cards: expected at most 200 items, got {cards:,}" in lines
    cards = [int(m.group(1)) for m in map(re.compile(r".*:2: cards\[(\d+)\]\.rule: missing required key$").match,
                                            lines) if m]
    assert cards == list(range(len(cards))) and len(cards) > 10
    assert lines[-1] == (f"decks/wide.yaml: over {MAX_ERRORS_FOUND - MAX_ERRORS_SHOWN:,} more errors not shown "
                         f"(the first {MAX_ERRORS_SHOWN} found are above)")


def test_real_specs_are_valid():
    r = pnp_here("validate")
    assert r.returncode == 0, r.stderr


def test_a_field_with_a_digit_like_character_sorts_without_failing(project):
    """'²'.isdigit() is True but int('²') fails: fields sort by their ASCII digits only."""
    path = project / "decks" / "mille_bornes.yaml"
    path.write_text(DECK + "x1\u00b2: 1\nx\u2460: 2\n")
    code, _, err, _ = run_cli(["validate", "decks/mille_bornes.yaml"], project)
    assert code == 1 and "internal error" not in err, err
    assert "x1\u00b2: unknown key" in err and "x\u2460: unknown key" in err


def test_a_key_too_long_is_named(project):
    rules = project / "decks" / "sorry_rules.yaml"
    key = "a" * 45
    rules.write_text(rules.read_text().replace("uses: {deck: sorry.yaml,", f"uses: {{{key}: sorry.yaml, deck: sorry.yaml,", 1))
    code, _, err, _ = run_cli(["validate", "decks/sorry_rules.yaml"], project)
    assert code == 1 and f'uses: key "{key}": expected at most 40 characters, got 45' in err, err


def test_a_spec_matching_two_forms_names_the_key_not_the_whole_spec(project):
    """A Continuo deck takes either its own `tiles` and `colours` or `tiles_from` another deck. With
    both, the schema's oneOf matched twice, and the error printed the whole spec as a Python dict;
    now it names the key, at its line, in one short line."""
    path = project / "decks" / "continuo.yaml"
    text = path.read_text() + "tiles_from: count_continuo.yaml\n"
    path.write_text(text)
    code, _, err, _ = run_cli(["validate", "decks/continuo.yaml"], project)
    line = text.splitlines().index("tiles_from: count_continuo.yaml") + 1
    assert code == 1 and err.strip() == (f"decks/continuo.yaml:{line}: tiles_from: give tiles and colours, or "
                                         "tiles_from, not both"), err


def test_no_error_quotes_a_mapping_as_python_writes_it():
    """Whatever jsonschema says of a value (here its words for a list with two items alike, which
    quote the list), the value is shown as input is, never as a Python repr of the whole thing."""
    import jsonschema
    from generator.spec.loader import Spec, _messages
    value = [{"marking": "1", "count": 1}] * 2
    error = next(jsonschema.Draft202012Validator({"uniqueItems": True}).iter_errors(value))
    assert "{'" in error.message            # what jsonschema says
    (path, message), = _messages(error, Spec("x.yaml", {}))
    assert "{'" not in message and message == "a list has non-unique elements", message
