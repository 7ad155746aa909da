"""The decks ported from Squib (examples/ported/, issue 38): each folder validates and draws as it
is, its data files read unchanged (XLSX directly, qty making copies), and comes out with what
Squib's own renderings show: the cards, their counts, the values from the spreadsheets, the
cards Squib's ranges pick. One is built whole (its sheet PDF's pages and card boxes counted)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import ROOT, build_deck, pnp_here

PORTED = ROOT / "examples" / "ported"
FOLDERS = sorted(p.name for p in PORTED.iterdir() if p.is_dir())
MM_PER_PX = 25.4 / 300


@lru_cache(maxsize=None)
def deck(folder: str, spec: str):
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    return load_deck(load_spec(PORTED / folder / spec))


def names(d, field: str = "name") -> list[tuple[str, int]]:
    return [(c.fields[field], c.count) for c in d.cards]


def shown_texts(drawing) -> list[str]:
    from conftest import drawn_items
    return ["".join(getattr(s, "text", "") for s in getattr(item, "spans", [])) or getattr(item, "text", "")
            for item, _ in drawn_items(drawing.root) if hasattr(item, "spans") or isinstance(getattr(item, "text", None), str)]


def test_there_are_seven_ported_decks_each_with_where_it_came_from():
    assert FOLDERS == ["squib-data", "squib-embed", "squib-new-advanced", "squib-ranges", "squib-showcase",
                       "squib-switch-color", "squib-tutorial"]
    readme = (PORTED / "README.md").read_text()
    for folder in FOLDERS:
        assert f"`{folder}/`" in readme
    assert (PORTED / "squib-LICENSE.txt").read_text().startswith("Copyright (c) 2014 Andy Meneely")


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_folder_validates_as_it_is(folder):
    r = pnp_here("validate", cwd=PORTED / folder)
    assert r.returncode == 0, r.stderr
    specs = len(list((PORTED / folder).glob("*.yaml")))
    assert re.search(rf"\b{specs} specs? valid", r.stdout + r.stderr), (r.stdout, r.stderr)


def test_the_tutorial_reads_its_xlsx_and_is_squibs_size():
    d = deck("squib-tutorial", "familiar.yaml")
    assert [(c.fields["name"], c.fields["class"], c.fields["art"]) for c in d.cards] == [
        ("Ninja", "human", "ninja-mask.svg"), ("Pirate", "human", "pirate-skull.svg"),
        ("Zombie", "drone", "crawling.svg"), ("Robot Golem", "drone", "robot-golem.svg")]
    assert (d.size.width, d.size.height) == (pytest.approx(825 * MM_PER_PX), pytest.approx(1125 * MM_PER_PX))


def test_the_data_decks_make_squibs_counts_from_csv_and_xlsx():
    assert names(deck("squib-data", "csv_qty.yaml"), "Name") == [("Basilisk", 3), ("High Templar", 1)]
    assert names(deck("squib-data", "xlsx_qty.yaml"), "Name") == [("Zergling", 3), ("High Templar", 1)]
    resources = deck("squib-data", "resources.yaml")
    assert [(c.fields["Name"], c.fields["Cost"], c.count) for c in resources.cards] == [
        ("Wood", "2", 3), ("Metal", "3", 2), ("Stone", "5", 1)]                   # padding stripped
    assert sum(c.count for c in resources.cards) == 6
    assert names(deck("squib-data", "sample_excel.yaml"), "Name") == [("Thief", 1), ("Grifter", 1),
                                                                        ("Mastermind", 1)]
    assert [c.fields["Level"] for c in deck("squib-data", "sample_csv.yaml").cards] == ["1", "2"]


def test_the_ranges_pick_the_cards_squib_picks():
    d = deck("squib-ranges", "ranges.yaml")
    texts = [shown_texts(face) for face in d.art.faces]
    picked = {line: [k for k, t in enumerate(texts) if line in t] for line in
              ("Thief and Grifter only!!", "Thief only!", "Mastermind only!", "Grifter and Mastermind only!",
               "Thief and Mastermind only!!", "red", "green", "blue", "Only for Thinkers!")}
    assert picked == {"Thief and Grifter only!!": [0, 1], "Thief only!": [0], "Mastermind only!": [2],
                      "Grifter and Mastermind only!": [1, 2], "Thief and Mastermind only!!": [0, 2], "red": [0],
                      "green": [1], "blue": [2], "Only for Thinkers!": [1, 2]}


def test_the_advanced_projects_card_is_its_trim_with_squibs_bleed():
    d = deck("squib-new-advanced", "deck.yaml")
    assert (d.size.width, d.size.height, d.size.bleed) == (pytest.approx(63.5), pytest.approx(88.9),
                                                           pytest.approx(3.175))
    assert names(d, "Name") == [("Elf", 1), ("Dwarf", 1)]
    assert "3 ATK" in shown_texts(d.art.faces[0]) and "3 DEF" in shown_texts(d.art.faces[1])


@pytest.mark.slow
def test_the_data_decks_resources_build_six_cards_on_a_sheet(tmp_path):
    from pypdf import PdfReader
    out = build_deck(tmp_path, PORTED / "squib-data" / "resources.yaml")
    sheet = next(out.glob("resources-sheet-a4.pdf"))
    pages = PdfReader(sheet).pages
    # six cards 69.85 x 95.25 mm: one front page (and its backs) on A4
    assert len(pages) == 2
