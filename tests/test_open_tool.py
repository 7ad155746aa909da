"""Every input is a stranger, round three (issue 32), the open tool: two products never share a file
name; text from a spec that would reach a terminal, a print list, a PDF's metadata or a file name
raw is refused at its line by one check; PNP_GAMES_PATH runs code only when a command needs the
games, from absolute folders only, and a package that is no game is one line; a spec is what its
`kind:` says and records never crowd specs out; watch, new, copy and settings; and the messages a
user's deck gets (our captions never fail it, count columns by other names, small decks, a CSV
saved with semicolons, the settings line)."""
from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, build_options, pnp_here

STARTER = ROOT / "generator" / "games" / "deck" / "starter"


@pytest.fixture(scope="module", autouse=True)
def warm(tmp_path_factory):
    """The starter deck planned once in this process, as a build's job plans it (nothing written):
    what a deck's job makes on first use (the products' and layouts' modules imported, cffi's C
    types parsed for cairosvg's drawing, the starter's files' digests, its icon drawn) is made here
    once, and each command after it, run by pnp_here in this process, forks its workers from it
    instead of making it again in each (the module's quick tests: 4.5 s of CPU without, 3.7 s
    with; the commands are what is tested, not that cost). Planned rather than built: writing the
    files warmed nothing more the commands use (0.6 s of CPU)."""
    from generator.pipeline import plan_game
    from generator.spec import load_spec
    from generator.games import check_spec
    folder = tmp_path_factory.mktemp("warm")
    spec = load_spec(new_deck(folder), display="d.yaml")
    check_spec(spec)
    plan_game("deck", {str(folder / "d.yaml"): spec}, build_options(folder / "out"))


def new_deck(folder: Path, name: str = "d") -> Path:
    """The starter deck written into folder as NAME.yaml (pnp new deck NAME)."""
    folder.mkdir(parents=True, exist_ok=True)
    r = pnp_here("new", "deck", name, cwd=folder)
    assert r.returncode == 0, r.stderr
    return folder / f"{name}.yaml"


def without_box(spec: Path) -> Path:
    """spec with `tuck_box: false` added, for a test of what a command does with a deck, not of its
    box (planning and drawing the box is half of a starter deck's build; the box's own tests, and
    test_a_small_deck_gets_a_thin_box here, build it)."""
    spec.write_text(spec.read_text(encoding="utf-8") + "tuck_box: false\n", encoding="utf-8")
    return spec


def one_line_error(r) -> str:
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


# ---------------------------------------------------------------- 1. two products, one file name

NAME_CLASHES = [("Deck", "deck"), ("Straße", "STRASSE"), ("ｄｅｃｋ", "deck"), ("Décor", "decor"), ("ﬁre", "fire")]


def clashing_decks(folder: Path, names: tuple[str, str]) -> None:
    """Two copies of the starter deck in folder/decks, named names, without a box (any product's
    file name clashes: the sheet's is the first found)."""
    first = without_box(new_deck(folder, "a"))
    (folder / "decks").mkdir()
    for name in names:
        (folder / "decks" / f"{name}.yaml").write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "decks" / "a.csv").write_bytes((folder / "a.csv").read_bytes())
    shutil.copytree(folder / "icons", folder / "decks" / "icons")
    first.unlink()


def refused_naming_both(r, names: tuple[str, str]) -> None:
    line = one_line_error(r)
    assert r.returncode == 1
    assert f"decks/{names[0]}.yaml" in line and f"decks/{names[1]}.yaml" in line and "would both write" in line, line


@pytest.mark.parametrize("names", NAME_CLASHES)
def test_two_specs_that_make_one_file_name_are_refused_naming_both(tmp_path, names):
    clashing_decks(tmp_path, names)
    refused_naming_both(pnp_here("validate", cwd=tmp_path), names)
    assert not (tmp_path / "output").exists()              # nothing written


@pytest.mark.slow      # a build each (0.5 s of CPU: every product is made before two of one name are found);
@pytest.mark.parametrize("names", NAME_CLASHES)            # quick: validate's refusal of each, and a build's below
def test_a_build_of_two_specs_that_make_one_file_name_is_refused_naming_both(tmp_path, names):
    clashing_decks(tmp_path, names)
    refused_naming_both(pnp_here("build", cwd=tmp_path), names)
    assert not (tmp_path / "output").exists()              # nothing written


def test_a_deck_at_the_top_and_one_in_decks_of_one_name_are_refused_and_the_output_kept(tmp_path):
    spec = without_box(new_deck(tmp_path, "cards"))
    r = pnp_here("build", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    before = {p: p.read_bytes() for p in (tmp_path / "output").rglob("*") if p.is_file()}
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "Cards.yaml").write_text(spec.read_text())
    shutil.copy(tmp_path / "cards.csv", tmp_path / "decks")
    shutil.copytree(tmp_path / "icons", tmp_path / "decks" / "icons")
    r = pnp_here("build", cwd=tmp_path)
    assert r.returncode == 1 and "cards.yaml and decks/Cards.yaml would both write" in r.stderr, r.stderr
    assert {p: p.read_bytes() for p in (tmp_path / "output").rglob("*") if p.is_file()} == before


def test_file_names_fold_compatibility_forms_and_accents():
    from generator.outputs import name_key, safe_name
    assert safe_name("Ｄécor ﬁle") == "decor-file" and safe_name("Straße") == "strasse"
    assert name_key("deck/Deck-sheet.pdf") == name_key("deck/deck-sheet.pdf")
    assert name_key("deck/ｄeck.pdf") == name_key("deck/deck.pdf")


def test_a_plan_refuses_two_products_that_differ_only_in_case():
    from generator.outputs import Plan, UnsafeName
    plan = Plan().sub("deck")
    plan.add_bytes("Deck.pdf", lambda: b"")
    with pytest.raises(UnsafeName):
        plan.add_bytes("deck.pdf", lambda: b"")


# ---------------------------------------------------------------- 2. text that reaches a terminal or a file raw

HOSTILE = ["\x1b]0;pwned\x07", "\x1b[31mred", "\u202eevil", "a\u2066b\u2069", "nul\x00", "del\x7f", "c1\x85",
           "a\u2028b", "\u202aembed\u202c"]


@pytest.mark.parametrize("bad", HOSTILE, ids=repr)
def test_a_title_with_control_or_bidi_characters_is_refused_at_its_line(tmp_path, bad):
    spec = new_deck(tmp_path)
    escaped = bad.encode("unicode_escape").decode()       # YAML's double quotes read \x1b, \u202e alike
    text = spec.read_text(encoding="utf-8").replace('title: "d"', f'title: "{escaped}"')
    spec.write_text(text, encoding="utf-8")
    line_no = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("title:"))
    r = pnp_here("validate", "d.yaml", cwd=tmp_path)
    line = one_line_error(r)
    assert line.startswith(f"d.yaml:{line_no}: title: "), line
    assert not any(c in line for c in bad if not c.isprintable()), repr(line)     # shown escaped
    r = pnp_here("build", "d.yaml", cwd=tmp_path)
    assert r.returncode == 1 and not (tmp_path / "output").exists()


def test_every_key_and_value_of_a_spec_passes_the_one_check(tmp_path):
    spec = new_deck(tmp_path)
    text = spec.read_text(encoding="utf-8")
    for changed, field in ((text.replace("\n  attack:", '\n  "att\\u202eack":', 1), "layouts"),
                           (text.replace('text: "{text}"', 'text: "{text}\\e[2J"', 1), "text"),
                           (text.replace("palette: {paper:", 'palette: {"pa\\x1bper":', 1), "palette")):
        spec.write_text(changed, encoding="utf-8")
        line = one_line_error(pnp_here("validate", "d.yaml", cwd=tmp_path))
        assert line.startswith("d.yaml:") and field in line and ("\\u202e" in line or "\\x1b" in line), line


def test_a_csv_cell_with_a_control_character_is_refused_at_its_row_and_column(tmp_path):
    new_deck(tmp_path)
    csv = tmp_path / "d.csv"
    csv.write_text(csv.read_text().replace("Deal 2 damage.", "Deal 2 \x1b[8mdamage."), encoding="utf-8")
    line = one_line_error(pnp_here("validate", "d.yaml", cwd=tmp_path))
    assert line.startswith("d.csv:2: text: a control character (\\x1b)"), line


@pytest.mark.parametrize("title", ["שלום עולם", "مرحبا بالعالم", "日本語のデッキ", "Ελληνικά", "Кириллица",
                                   "👩‍💻 deck", "עברית\u200f.", "ZWNJ\u200cفارسی"])
def test_letters_of_every_script_and_the_joiners_pass(tmp_path, title):
    from generator.errors import hidden_character
    from generator.spec import load_spec
    assert hidden_character(title) is None
    spec = new_deck(tmp_path)
    spec.write_text(spec.read_text(encoding="utf-8").replace('title: "d"', f'title: "{title}"'), encoding="utf-8")
    assert load_spec(spec).data["title"] == title


def test_names_and_specs_share_one_check():
    from generator.errors import hidden_character
    from generator.referee.contract import name_problem
    for bad in HOSTILE:
        assert hidden_character(bad) is not None and name_problem(bad) is not None, repr(bad)
    # a name, shown alone and typed in a notation, is stricter: no zero-width or private-use character
    assert hidden_character("a\u200bb") is None and name_problem("a\u200bb") is not None
    assert hidden_character("line\nbreak") is None and hidden_character("line\nbreak", lines=False) == "\n"


def test_a_title_on_two_lines_is_refused(tmp_path):
    spec = new_deck(tmp_path)
    spec.write_text(spec.read_text(encoding="utf-8").replace('title: "d"', 'title: "one\\ntwo"'), encoding="utf-8")
    line = one_line_error(pnp_here("validate", "d.yaml", cwd=tmp_path))
    assert line.startswith("d.yaml:4: title: ") and "one line" in line, line


def test_the_settings_file_passes_the_check(tmp_path):
    (tmp_path / "pnp-settings.yaml").write_text('paper: "a4\\u202e"\n')
    line = one_line_error(pnp_here("validate", cwd=tmp_path))
    assert line.startswith("pnp-settings.yaml:1: paper: a bidi control (\\u202e"), line


# ---------------------------------------------------------------- 4. code loaded from a path

def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PNP_GAMES_PATH", "PNP_PRODUCTS_PATH")}
    env.update(extra)
    return env


def run_pnp(*args, cwd, env):
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True)


def spies(tmp_path: Path) -> tuple[Path, Path]:
    """A games folder and a products folder whose code, when imported, writes a file: the files."""
    (tmp_path / "games" / "spy").mkdir(parents=True)
    (tmp_path / "products").mkdir()
    ran_game, ran_product = tmp_path / "ran-game", tmp_path / "ran-product"
    (tmp_path / "games" / "spy" / "__init__.py").write_text(f"open({str(ran_game)!r}, 'a').write('x')\n")
    (tmp_path / "products" / "spy.py").write_text(f"open({str(ran_product)!r}, 'a').write('x')\n")
    return ran_game, ran_product


@pytest.mark.slow      # five commands in processes of their own (0.4 s each): what a started pnp imports
def test_code_on_a_path_runs_only_for_commands_that_need_it_in_a_process_of_its_own(tmp_path):
    """PNP_GAMES_PATH and PNP_PRODUCTS_PATH as a process started with them reads them: what pnp imports
    on its way to a command (generator's modules, run as `python -m generator`) runs neither path's
    code for a command that needs neither. (The same commands in this process, and the rest of the
    paths' rules: the tests below.)"""
    ran_game, ran_product = spies(tmp_path)
    env = _env(PNP_GAMES_PATH=str(tmp_path / "games"), PNP_PRODUCTS_PATH=str(tmp_path / "products"))
    for args in (["--version"], ["calibrate", "--out", tmp_path / "c.pdf"], ["new", "deck", "x"]):
        r = run_pnp(*args, cwd=tmp_path, env=env)
        assert r.returncode == 0, r.stderr
        assert not ran_game.exists() and not ran_product.exists(), args
    r = run_pnp("referee", "sorry", "--help", cwd=tmp_path, env=_env(PNP_PRODUCTS_PATH=str(tmp_path / "products")))
    assert r.returncode == 0, r.stderr
    assert not ran_product.exists()
    r = run_pnp("validate", cwd=tmp_path, env=env)            # a command that needs both: both read
    assert ran_game.exists() and ran_product.exists()
    line = one_line_error(r)
    assert r.returncode == 2 and line.startswith(f"pnp: {tmp_path / 'games' / 'spy'}: not a game package"), line


@pytest.fixture
def code_path(monkeypatch):
    """pnp_here's commands in this process reading PNP_GAMES_PATH and PNP_PRODUCTS_PATH afresh, as a
    process just started does (the games not yet found, the products' cache empty): the function
    that sets one. Both as they were after the test."""
    from generator import games, products
    monkeypatch.delenv("PNP_GAMES_PATH", raising=False)
    monkeypatch.delenv("PNP_PRODUCTS_PATH", raising=False)
    monkeypatch.setattr(games.GAMES, "_found", None)
    products.products.cache_clear()
    yield monkeypatch.setenv
    products.products.cache_clear()


def test_games_path_code_runs_only_for_commands_that_need_the_games(tmp_path, code_path):
    ran, _ = spies(tmp_path)
    games = tmp_path / "games" / "spy"
    code_path("PNP_GAMES_PATH", str(tmp_path / "games"))
    for args in (["--version"], ["calibrate", "--out", tmp_path / "c.pdf"], ["new", "deck", "x"]):
        r = pnp_here(*args, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert not ran.exists(), args
    r = pnp_here("validate", cwd=tmp_path)            # a command that needs the games
    assert ran.exists()
    line = one_line_error(r)
    assert r.returncode == 2 and line.startswith(f"pnp: {games}: not a game package"), line


@pytest.mark.parametrize("body, why", [("GAMES = 3\n", "declares its games as GAMES"),
                                       ("import nosuchmodule_at_all\n", "ModuleNotFoundError"),
                                       ("def f(:\n", "SyntaxError"),
                                       ("raise SystemExit(3)\n", "SystemExit")])
def test_a_package_that_is_no_game_is_one_line_naming_it(tmp_path, code_path, body, why):
    (tmp_path / "games" / "junk").mkdir(parents=True)
    (tmp_path / "games" / "junk" / "__init__.py").write_text(body)
    code_path("PNP_GAMES_PATH", str(tmp_path / "games"))
    r = pnp_here("build", "sorry", "--out", tmp_path / "out", cwd=tmp_path)
    line = one_line_error(r)
    assert r.returncode == 2 and str(tmp_path / "games" / "junk") in line and why in line, line
    assert not (tmp_path / "out").exists()


def test_a_relative_games_path_entry_is_refused(tmp_path, code_path):
    (tmp_path / "games" / "spy").mkdir(parents=True)
    (tmp_path / "games" / "spy" / "__init__.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w')\n")
    code_path("PNP_GAMES_PATH", "games")
    r = pnp_here("build", "sorry", "--out", tmp_path / "out", cwd=tmp_path)
    line = one_line_error(r)
    assert r.returncode == 2 and '"games" is not an absolute path' in line, line
    assert not (tmp_path / "ran").exists()


def test_products_path_follows_the_same_rules(tmp_path, code_path):
    """PNP_PRODUCTS_PATH is code on a path too (paths.code_folders, paths.import_file): imported only
    by build and validate, absolute entries only, a module that cannot be imported one line."""
    _, ran = spies(tmp_path)
    folder = tmp_path / "products"
    code_path("PNP_PRODUCTS_PATH", str(folder))
    for args in (["--version"], ["calibrate", "--out", tmp_path / "c.pdf"], ["referee", "sorry", "--help"]):
        r = pnp_here(*args, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert not ran.exists(), args
    (folder / "spy.py").write_text("raise ImportError('no such thing')\n")
    line = one_line_error(pnp_here("build", "sorry", "--out", tmp_path / "o", cwd=tmp_path))
    assert line.startswith("pnp: not a product: ") and "spy.py" in line and "ImportError" in line, line
    code_path("PNP_PRODUCTS_PATH", "products")
    line = one_line_error(pnp_here("validate", cwd=tmp_path))
    assert '"products" is not an absolute path' in line, line


# ---------------------------------------------------------------- 7. the folder's own view

def test_a_deck_named_like_a_games_spec_builds_as_the_deck(tmp_path):
    spec = without_box(new_deck(tmp_path))
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "sorry.yaml").write_text(spec.read_text())
    shutil.copy(tmp_path / "d.csv", tmp_path / "decks")
    shutil.copytree(tmp_path / "icons", tmp_path / "decks" / "icons")
    spec.unlink()
    r = pnp_here("validate", cwd=tmp_path)
    assert r.returncode == 0 and "1 spec valid" in r.stdout, r.stderr
    r = pnp_here("build", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    built = {Path(p).relative_to("output").as_posix() for p in r.stdout.split()}
    assert "deck/sorry-sheet-a4.pdf" in built and not any(p.startswith("sorry/") for p in built), built
    # Sorry itself cannot be built here while the deck holds its spec's name: one line saying why
    line = one_line_error(pnp_here("build", "sorry", cwd=tmp_path))
    assert line.startswith("decks/sorry.yaml:3: kind: a deck spec where Sorry reads its own"), line


@pytest.mark.slow      # 250 records written and read at each look at the folder (0.2-0.4 s of CPU); quick:
# a record kept in decks/ is no spec, below
def test_records_never_crowd_specs_out(tmp_path):
    new_deck(tmp_path, "zz")
    record = (ROOT / "tests" / "records" / "sorry_game.yaml")
    text = record.read_text() if record.exists() else "game: sorry\nplayers: [a, b]\nentries: []\n"
    for i in range(250):
        (tmp_path / f"a{i:03}.yaml").write_text(text)
    r = pnp_here("validate", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == "1 spec valid", (r.stdout, r.stderr[:300])
    from generator.paths import top_specs
    assert [p.name for p in top_specs(tmp_path)] == ["zz.yaml"]


def test_a_record_kept_in_decks_is_no_spec(tmp_path):
    new_deck(tmp_path)
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "tuesday.yaml").write_text("game: sorry\nplayers: [a, b]\nentries: []\n")
    r = pnp_here("validate", cwd=tmp_path)
    assert r.returncode == 0 and "1 spec valid" in r.stdout, r.stderr


# ---------------------------------------------------------------- 8. watch, new, copy, settings

@pytest.mark.parametrize("blocker", ["boards", "decks", "icons"])
def test_a_file_where_a_folder_goes_stops_new_and_copy_before_anything_is_written(tmp_path, blocker):
    (tmp_path / blocker).write_text("not a folder")
    command = ["new", "deck", "mine"] if blocker == "icons" else ["copy", "sorry"]
    r = pnp_here(*command, cwd=tmp_path)
    line = one_line_error(r)
    assert r.returncode == 2 and f"{blocker} is here and is a file, not a folder" in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == [blocker]           # nothing written
    (tmp_path / blocker).unlink()
    r = pnp_here(*command, cwd=tmp_path)                                        # and the retry works
    assert r.returncode == 0, r.stderr


def test_a_new_deck_whose_name_yaml_would_type_validates(tmp_path):
    # Each a deck of its own in one folder, validated at once (one command, not ten).
    names = ["123", "yes", "null", "0x1F", "1e3", "true", "0o17", "1_000", "NaN", "Off"]
    assert all(name.replace("_", "").isalnum() for name in names)          # names new deck takes
    for name in names:
        new_deck(tmp_path, name)
    r = pnp_here("validate", *(f"{name}.yaml" for name in names), cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == f"{len(names)} specs valid", (r.stdout, r.stderr)
    from generator.spec import load_spec
    for name in names:
        spec = load_spec(tmp_path / f"{name}.yaml")
        assert spec.data["title"] == name and spec.data["csv"] == f"{name}.csv", name


@pytest.fixture(scope="module")
def accented_name_validates(tmp_path_factory) -> int:
    """`pnp new deck Ünïcødé`, then validate: its exit code (made once, read by each name below)."""
    folder = tmp_path_factory.mktemp("accented")
    new_deck(folder, "Ünïcødé")
    return pnp_here("validate", "Ünïcødé.yaml", cwd=folder).returncode


@pytest.mark.parametrize("name,letter", [("日本", "日"), ("Жук", "Ж"), ("שלום", "ש")])
def test_a_new_deck_whose_name_the_starters_font_cannot_print_is_refused_before_writing(tmp_path, name, letter,
                                                                                        accented_name_validates):
    """Found by the campaign: `pnp new deck 日本` wrote a deck that failed validate (its title, the
    name, has no letter in the starter's font). Refused in one line naming the letter, nothing
    written; a name in Latin letters with accents is taken."""
    r = pnp_here("new", "deck", name, cwd=tmp_path)
    line = one_line_error(r)
    assert r.returncode == 2 and f'no letter for "{letter}" (U+{ord(letter):04X})' in line, line
    assert list(tmp_path.iterdir()) == []
    assert accented_name_validates == 0


def test_settings_read_back_equal_to_what_was_written(tmp_path):
    from generator.project import read_settings, write_settings
    rng = random.Random(32)
    values = [0.00001, -0.00001, 1e-9, 20.0, -20.0, 0.0, -0.0, 0.1, 1 / 3, 19.999999999999996, 5e-324]
    values += [rng.uniform(-20, 20) * 10 ** -rng.randint(0, 15) for _ in range(300)]
    for x in values:
        y = rng.choice(values)
        paper, flip = rng.choice(["a4", "letter"]), rng.choice(["long", "short"])
        write_settings(tmp_path, paper, flip, (x, y))
        got = read_settings(tmp_path)
        assert (got.paper, got.flip, got.back_offset) == (paper, flip, (x, y))


def test_a_tiny_back_offset_saved_keeps_every_later_command_working(tmp_path):
    r = pnp_here("calibrate", "--back-offset", "0.00001,0", "--save", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "back_offset: [0.00001, 0.0]" in (tmp_path / "pnp-settings.yaml").read_text()
    r = pnp_here("calibrate", "--back-offset", "0.5,0", "--save", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_calibrate_save_mends_a_settings_file_that_cannot_be_read(tmp_path):
    (tmp_path / "pnp-settings.yaml").write_text("back_offset: [1e-05, 0]\n")       # as an old pnp wrote it
    assert pnp_here("validate", cwd=tmp_path).returncode == 1
    r = pnp_here("calibrate", "--back-offset", "0.1,0", "--save", cwd=tmp_path)
    assert r.returncode == 0 and "is replaced" in r.stderr, r.stderr
    assert "back_offset: [0.1, 0.0]" in (tmp_path / "pnp-settings.yaml").read_text()


def test_calibrate_save_with_a_refused_out_writes_no_settings(tmp_path):
    (tmp_path / "adir").mkdir()
    r = pnp_here("calibrate", "--save", "--back-offset", "1,1", "--out", tmp_path / "adir", cwd=tmp_path)
    assert r.returncode == 2 and "not a regular file" in r.stderr, r.stderr
    assert not (tmp_path / "pnp-settings.yaml").exists()


# ---------------------------------------------------------------- 9. messages

def test_our_captions_never_fail_a_users_spec(tmp_path):
    # Each card size a deck of its own in one folder, validated at once (one command, not five).
    sizes = [(20, 63), (63, 20), (20, 20), (100, 20), (20, 100)]
    for w, h in sizes:
        spec = new_deck(tmp_path, f"d{w}x{h}")
        spec.write_text(spec.read_text().replace("card: {width: 63, height: 88, bleed: 3}",
                                                 f"card: {{width: {w}, height: {h}, bleed: 3}}"))
    r = pnp_here("validate", *(f"d{w}x{h}.yaml" for w, h in sizes), cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == f"{len(sizes)} specs valid", (r.stdout, r.stderr)


def test_a_long_title_is_cut_short_on_the_sheet_and_box_never_refused(tmp_path):
    spec = new_deck(tmp_path)
    spec.write_text(spec.read_text().replace('title: "d"', 'title: "' + "Wide title " * 9 + '"')
                    .replace("card: {width: 63, height: 88, bleed: 3}", "card: {width: 25, height: 35, bleed: 3}"))
    r = pnp_here("validate", "d.yaml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_the_caption_moves_to_the_side_when_no_column_has_room():
    from generator.draw import Text
    from generator.layout.cards import CardSize, impose_cards, sheet_pages
    from generator.draw import Drawing
    from conftest import drawn_items
    card = CardSize(20, 63, 3)
    layout = impose_cards(card, 210, 297)
    face = Drawing(20, 63)
    front = sheet_pages([face], face, layout, "long", (0, 0), "A deck")[0]
    texts = [(item, m) for item, m in drawn_items(front.root) if isinstance(item, Text)]
    flip = [(t, m) for t, m in texts if t.text.endswith("flip on long edge") or "flip on long edge" in t.text]
    assert flip, [t.text for t, _ in texts]
    (t, m), = flip
    assert abs(m[0]) < 1e-9 and abs(m[1] + 1) < 1e-9          # turned a quarter: it reads upwards
    assert t.size * 72 / 25.4 >= 6


@pytest.mark.parametrize("column", ["count", "Count", "COUNT", "qty", "Qty", "quantity", "Quantity", "copies", "Copies"])
def test_the_count_column_in_any_case_and_its_aliases_make_copies(tmp_path, column):
    new_deck(tmp_path)
    csv = tmp_path / "d.csv"
    csv.write_text(csv.read_text().replace("name,kind,count,", f"name,kind,{column},"))
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    deck = load_deck(load_spec(tmp_path / "d.yaml"))
    assert sum(c.count for c in deck.cards) == 1 + 10 + 4 + 6 + 1
    assert all(column not in c.fields for c in deck.cards)


def test_a_column_that_looks_like_a_count_but_is_not_one_says_so(tmp_path):
    new_deck(tmp_path)
    csv = tmp_path / "d.csv"
    csv.write_text(csv.read_text().replace("name,kind,count,", "name,kind,number,"))
    r = pnp_here("validate", "d.yaml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr.startswith("d.csv:1: number: note: this column looks like a count of copies"), r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_two_count_columns_are_refused(tmp_path):
    new_deck(tmp_path)
    csv = tmp_path / "d.csv"
    csv.write_text(csv.read_text().replace("name,kind,count,cost,text", "name,kind,count,cost,Qty")
                   .replace("Deal 2 damage.", "3"))
    line = one_line_error(pnp_here("validate", "d.yaml", cwd=tmp_path))
    assert line.startswith('d.csv:1: columns "count" and "Qty" both say how many copies'), line


@pytest.mark.parametrize("sep, shown", [(";", '";"'), ("\t", '"\\t"'), ("|", '"|"')])
def test_a_csv_saved_with_another_delimiter_names_the_option(tmp_path, sep, shown):
    new_deck(tmp_path)
    csv = tmp_path / "d.csv"
    csv.write_text("name;kind;count\nStrike;attack;3\n".replace(";", sep))
    line = one_line_error(pnp_here("validate", "d.yaml", cwd=tmp_path))
    assert line.startswith("d.csv:1: ") and f"add csv_delimiter: {shown} to the spec" in line, line


def test_a_small_deck_gets_a_thin_box(tmp_path):
    # Decks of 1, 2, 5 and 12 cards in one folder, built at once: each its own box (one build, not four).
    spec = new_deck(tmp_path).read_text()
    decks = {}
    for cards in (1, 2, 5, 12):
        decks[stem := f"d{cards}"] = cards
        (tmp_path / f"{stem}.csv").write_text(f"name,kind,count,cost,text\nStrike,attack,{cards - 1},1,Hit.\n")
        (tmp_path / f"{stem}.yaml").write_text(spec.replace('csv: "d.csv"', f'csv: "{stem}.csv"')
                                               .replace('title: "d"', f'title: "{stem}"'))
    (tmp_path / "d.yaml").unlink()
    r = pnp_here("build", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    listing = (tmp_path / "output" / "deck" / "README.txt").read_text()
    for stem, cards in decks.items():
        assert (tmp_path / "output" / "deck" / f"{stem}-tuckbox-a4.pdf").is_file()
        assert re.search(rf"\n  {stem}: a tuck box for the {cards} cards? \(inside [\d.]+ x [\d.]+ x 4\.7 mm\)\n",
                         listing), listing


def test_the_settings_line_only_when_settings_set_something(tmp_path):
    without_box(new_deck(tmp_path))          # a deck of one's own: the build this folder's settings are for
    (tmp_path / "pnp-settings.yaml").write_text("# nothing set\n")
    r = pnp_here("build", "d.yaml", "--out", tmp_path / "o", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "pnp-settings.yaml" not in r.stderr, r.stderr
    (tmp_path / "pnp-settings.yaml").write_text("paper: a4\n")
    r = pnp_here("build", "d.yaml", "--out", tmp_path / "o", "--paper", "a4", cwd=tmp_path)
    assert "(the command line over pnp-settings.yaml)" in r.stderr, r.stderr


def test_watch_sees_every_file_the_build_read_whatever_its_case_and_never_builds_every_game(tmp_path):
    import signal
    import time
    from conftest import default_signals
    spec = new_deck(tmp_path)
    os.rename(tmp_path / "icons" / "star.svg", tmp_path / "icons" / "STAR.SVG")
    import csv
    rows = list(csv.reader((tmp_path / "d.csv").read_text().splitlines()))
    (tmp_path / "cards.tsv").write_text("".join("\t".join(row) + "\n" for row in rows))
    (tmp_path / "d.csv").unlink()
    spec.write_text(spec.read_text().replace('csv: "d.csv"', 'csv: cards.tsv\ncsv_delimiter: "\\t"')
                    .replace("icons/star.svg", "icons/STAR.SVG"))
    without_box(spec)
    proc = subprocess.Popen([sys.executable, "-m", "generator", "build", "--watch"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)
    try:
        first = proc.stdout.readline()
        assert " built: " in first and "files written" in first, (first, proc.stderr.readline())
        time.sleep(1.0)
        tsv = tmp_path / "cards.tsv"
        tsv.write_text(tsv.read_text().replace("Strike", "Smite"))
        line = proc.stdout.readline()
        assert "cards.tsv changed: " in line and "files written" in line, line
        star = tmp_path / "icons" / "STAR.SVG"
        star.write_text(star.read_text().replace("<svg", "<svg data-x='1'", 1))
        line = proc.stdout.readline()
        assert "icons/STAR.SVG changed: " in line and "files written" in line, line
        spec.rename(tmp_path / "d.yaml.moved")                 # the spec moved away
        line = proc.stdout.readline()
        assert "failed (exit 2)" in line, line
        assert sorted(p.name for p in (tmp_path / "output").iterdir() if not p.name.startswith(".")) == ["deck"]
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "no specs in" in err, err


def test_a_box_the_spec_did_not_ask_for_that_cannot_be_made_is_left_out_with_a_note(tmp_path):
    spec = new_deck(tmp_path)
    (tmp_path / "d.csv").write_text("name,kind,count,cost,text\nStrike,attack,900,1,Hit.\n")
    r = pnp_here("validate", "d.yaml", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr.startswith("d.yaml: note: no tuck box (the tuck box"), r.stderr
    assert len(r.stderr.splitlines()) == 1
    spec.write_text(spec.read_text() + "tuck_box: {caliper: 0.3}\n")          # asked for: the spec's error
    line = one_line_error(pnp_here("validate", "d.yaml", cwd=tmp_path))
    assert line.startswith("d.yaml:") and "tuck_box: the tuck box" in line, line


@pytest.mark.slow      # every code point, 1.1 million of them (0.7 s); quick: the hostile characters above
def test_the_one_check_refuses_exactly_controls_bidi_controls_separators_and_surrogates():
    """hidden_character reads text with one regular expression: it is checked here against the
    definition, for every code point."""
    import unicodedata
    from generator.errors import BIDI_CONTROLS, hidden_character
    every = "".join(map(chr, range(0x110000)))
    refused = {c for c, category in zip(every, map(unicodedata.category, every)) if category in ("Cc", "Cs", "Zl", "Zp")}
    refused = sorted((refused - set("\n\t")) | set(BIDI_CONTROLS))
    passed = every.translate(dict.fromkeys(map(ord, refused)))
    for c in refused:
        assert hidden_character(f"a{c}b") == c and hidden_character(c, lines=False) == c, hex(ord(c))
    for c in "\n\t":
        assert hidden_character(f"a{c}b") is None and hidden_character(c, lines=False) == c, hex(ord(c))
    # hidden_character gives the first character refused in a text: one text holding every other
    # character, each between the same letters as above, checks each (2.2 million calls took 1.2 s).
    found = hidden_character("a" + "ba".join(passed) + "b")            # "a{c}b" of each c, one after another
    assert found is None, hex(ord(found))
    found = hidden_character(passed.replace("\n", "").replace("\t", ""), lines=False)
    assert found is None, hex(ord(found))
