"""A product is one file: tests/products/index_card.py (an index card of each deck) is found through
PNP_PRODUCTS_PATH alone, with no file of the project naming it; a build then makes it of every deck,
lists it in the game's print list, offers its own option, and leaves every other file as it was.

The commands run in this process (pnp_here), the products found afresh for each as a process just
started finds them; one test starts pnp as a user does, with the variable in its environment."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from pypdf import PdfReader

from conftest import ROOT, build_deck, pnp_here

PRODUCTS = ROOT / "tests" / "products"
DECK = ROOT / "tests" / "decks" / "delve.yaml"


def pnp(*args, products: bool = True):
    """A command with tests/products on PNP_PRODUCTS_PATH (or with no PNP_PRODUCTS_PATH), in this
    process: the products found afresh for it, and forgotten after it."""
    from generator.products import products as found
    kept = os.environ.pop("PNP_PRODUCTS_PATH", None)
    if products:
        os.environ["PNP_PRODUCTS_PATH"] = str(PRODUCTS)
    found.cache_clear()
    try:
        return pnp_here(*args, cwd=ROOT)
    finally:
        os.environ.pop("PNP_PRODUCTS_PATH", None)
        if kept is not None:
            os.environ["PNP_PRODUCTS_PATH"] = kept
        found.cache_clear()


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """The test deck built once in this process (conftest.build_deck): the imports and caches a
    deck's build needs (cairosvg's C bindings, its fonts) are made here once, and each build after it
    forks its workers from them instead of making them again in each (about 1 s a build)."""
    build_deck(tmp_path_factory.mktemp("warm"), DECK)


@pytest.mark.slow          # pnp started in a process of its own (0.4 s)
def test_a_process_started_with_the_path_finds_it():
    env = {k: v for k, v in os.environ.items() if k != "PNP_PRODUCTS_PATH"}
    r = subprocess.run([sys.executable, "-m", "generator", "build", "--help"], cwd=ROOT, capture_output=True,
                       text=True, env={**env, "PNP_PRODUCTS_PATH": str(PRODUCTS)})
    assert r.returncode == 0 and "--index-columns" in r.stdout, r.stderr


def test_no_file_of_the_project_names_the_product():
    for path in [*(ROOT / "generator").rglob("*"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]:
        if path.suffix in (".py", ".js", ".yaml", ".md"):
            assert not re.search(r"index.card|index-columns", path.read_text(encoding="utf-8"), re.I), path


def test_a_build_makes_it_of_every_deck_and_changes_nothing_else(tmp_path, output, warm):
    out = tmp_path / "out"
    r = pnp("build", "continuo", "--out", out, "--index-columns", "2")
    assert r.returncode == 0, r.stderr
    index = out / "continuo" / "continuo-index-a4.pdf"
    assert str(index.relative_to(ROOT) if index.is_relative_to(ROOT) else index) in r.stdout
    pages = PdfReader(index).pages
    assert len(pages) == 1
    assert [round(float(v)) for v in pages[0].mediabox.upper_right] == [595, 842]      # the build's paper
    text = pages[0].extract_text()
    assert "Continuo: 44 cards, 44 faces" in text and "scoring example" in text
    listed = (out / "continuo" / "README.txt").read_text(encoding="utf-8")
    assert "continuo-index-a4.pdf" in listed and "an index card of its 44 faces" in listed
    # Every other file is the shared build's, byte for byte (the print lists aside: they list it).
    made = {p.name for p in (out / "continuo").iterdir()}
    before = {p.name for p in (output / "continuo").iterdir()}
    assert made - before == {"continuo-index-a4.pdf"} and before <= made
    for name in before - {"README.txt", "print-list.pdf"}:
        assert (out / "continuo" / name).read_bytes() == (output / "continuo" / name).read_bytes(), name


def test_its_option_is_offered_only_where_it_is_found():
    assert "--index-columns" in pnp("build", "--help").stdout
    assert "--index-columns" in pnp("validate", "--help").stdout
    plain = pnp("build", "--help", products=False)
    assert plain.returncode == 0 and "--index-columns" not in plain.stdout
    r = pnp("build", "continuo", "--index-columns", "9")
    assert r.returncode == 2 and "--index-columns" in r.stderr


@pytest.mark.slow          # three builds of a deck (0.5 s each)
def test_a_build_up_to_date_is_built_again_when_the_product_comes_or_goes(tmp_path, warm):
    # One small deck of the deck kind, built three times (a game's build is heavier; the property is the build's).
    out = tmp_path / "out"
    assert pnp("build", DECK, "--out", out, products=False).returncode == 0
    assert "delve-index-a4.pdf" in pnp("build", DECK, "--out", out, "--list").stdout
    assert (out / "deck" / "delve-index-a4.pdf").is_file()
    again = pnp("build", DECK, "--out", out, products=False)
    assert again.returncode == 0 and not (out / "deck" / "delve-index-a4.pdf").exists()
