"""Golden images: a page of each game's build, rendered at low resolution, against the image kept
in tests/golden/. A change to what a page looks like fails here until the golden is updated, on
purpose: `python scripts/update_goldens.py` rebuilds every game and rewrites them (look at the new
images before committing them). Nothing here ever rewrites a golden.

The comparison allows what rendering may vary by (antialiasing, a poppler upgrade) and nothing a
person would see: every channel's mean difference over the image under MEAN_LIMIT, and over every
BLOCK x BLOCK region under BLOCK_LIMIT (a moved word, a changed colour or a missing shape exceed it).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import need

GOLDEN = Path(__file__).resolve().parent / "golden"
DPI = 20
BLOCK = 6            # px (7.6 mm at 20 dpi)
MEAN_LIMIT = 1.5     # of 255, per channel, over the whole image
BLOCK_LIMIT = 24.0   # of 255, mean over any BLOCK x BLOCK region, any channel

# (golden name, PDF in the build, page): one page or more of every game, the pages this work changes.
PAGES = [
    ("mille-bornes-attacks", "mille-bornes/mille_bornes_1961-sheet-a4.pdf", 13),
    ("mille-bornes-vehicles", "mille-bornes/mille_bornes_1961-sheet-a4.pdf", 27),
    ("continuo-sheet", "continuo/continuo-sheet-a4.pdf", 5),
    ("count-continuo-sheet", "count-continuo/count_continuo-sheet-a4.pdf", 1),
    ("sorry-sheet", "sorry/sorry-sheet-a4.pdf", 1),
    ("sorry-board", "sorry/sorry-board-large.pdf", 1),
    ("cubes-board", "cubes/paper-board-4p-large.pdf", 1),
    ("cubes-tiles", "cubes/paper-board-2p-tiles-a4.pdf", 3),
    ("capitals-sheet", "capitals/capitals_1961-sheet-a4.pdf", 1),
    ("capitals-map", "capitals/capitals_world_map-large.pdf", 1),
    ("cubes-kit-assembly", "cubes/kit-2p-assembly-a4.pdf", 1),
    ("shoe-assembly", "mille-bornes/shoe-assembly-a4.pdf", 1),
    ("capitals-walls-strips", "capitals/capitals_walls-strips-a4.pdf", 1),
    ("sorry-1930-board", "sorry/sorry_1930-board-large.pdf", 1),
    ("sorry-rules-2", "sorry/rules-a4.pdf", 2),
    ("capitals-rules-2", "capitals/rules-a4.pdf", 2),
    ("mille-bornes-rules-1", "mille-bornes/rules-a4.pdf", 1),
    ("mille-bornes-tuckbox", "mille-bornes/mille_bornes-tuckbox-a4.pdf", 1),
    ("sorry-men", "sorry/sorry-men-a4.pdf", 1),
    ("capitals-print-list", "capitals/print-list.pdf", 1),
]


# Two cards of the test deck of the `deck` kind (tests/decks/delve.yaml, built by conftest.build_deck),
# from its shop pages, at DECK_DPI: a hero (its art covering the top, carried into the bleed, an inline
# icon, bold) and a monster (its art contained, an icon element, text shrunk to fit).
DECK_DPI = 60
DECK_PAGES = [("deck-hero", "delve-shop.pdf", 2), ("deck-monster", "delve-shop.pdf", 5)]


def render(pdf: Path, page: int, out_stem: Path, dpi: int = DPI) -> Path:
    """One page of a PDF as an RGB PNG at dpi, by poppler (as a person's viewer would draw it)."""
    subprocess.run([need("pdftoppm"), "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", "-singlefile",
                    str(pdf), str(out_stem)], check=True)
    return out_stem.with_suffix(".png")


def difference(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """(the largest per-channel mean difference, the largest BLOCK x BLOCK mean difference), of 255."""
    d = np.abs(a.astype(float) - b.astype(float))
    h, w = (d.shape[0] // BLOCK) * BLOCK, (d.shape[1] // BLOCK) * BLOCK
    blocks = d[:h, :w].reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK, 3).mean(axis=(1, 3))
    return float(d.mean(axis=(0, 1)).max()), float(blocks.max()) if blocks.size else 0.0


def _rgb(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


@pytest.mark.parametrize("name, pdf, page", PAGES, ids=[p[0] for p in PAGES])
def test_page_looks_as_its_golden(output, tmp_path, name, pdf, page):
    golden = GOLDEN / f"{name}.png"
    assert golden.exists(), f"no golden for {name}: run scripts/update_goldens.py and look at it"
    now = _rgb(render(output / pdf, page, tmp_path / name))
    want = _rgb(golden)
    assert now.shape == want.shape, f"{name}: the page is {now.shape[1]} x {now.shape[0]} px, " \
                                    f"its golden {want.shape[1]} x {want.shape[0]}"
    mean, block = difference(now, want)
    assert mean < MEAN_LIMIT and block < BLOCK_LIMIT, (
        f"{name} no longer looks like tests/golden/{name}.png (mean {mean:.2f}, worst block {block:.1f} of 255); "
        "if the change is meant, run scripts/update_goldens.py and look at the new image")


@pytest.fixture(scope="module")
def test_deck(tmp_path_factory):
    """The test deck's shop file alone, as its build makes it (the same bytes; the other products a
    build makes of it, read by no test here, were four fifths of its CPU)."""
    from conftest import build_product
    return build_product(tmp_path_factory.mktemp("golden-deck"), "deck", "tests/decks/delve.yaml", "shop")


@pytest.mark.parametrize("name, pdf, page", DECK_PAGES, ids=[p[0] for p in DECK_PAGES])
def test_deck_card_looks_as_its_golden(test_deck, tmp_path, name, pdf, page):
    golden = GOLDEN / f"{name}.png"
    assert golden.exists(), f"no golden for {name}: run scripts/update_goldens.py and look at it"
    now = _rgb(render(test_deck / pdf, page, tmp_path / name, DECK_DPI))
    want = _rgb(golden)
    assert now.shape == want.shape, f"{name}: the page is {now.shape[1]} x {now.shape[0]} px, " \
                                    f"its golden {want.shape[1]} x {want.shape[0]}"
    mean, block = difference(now, want)
    assert mean < MEAN_LIMIT and block < BLOCK_LIMIT, (
        f"{name} no longer looks like tests/golden/{name}.png (mean {mean:.2f}, worst block {block:.1f} of 255); "
        "if the change is meant, run scripts/update_goldens.py and look at the new image")


def test_the_comparison_sees_a_small_change(output, tmp_path):
    """Not blind: the Sorry sheet with one card's marking covered, or shifted by 2 mm, fails."""
    name, pdf, page = next(p for p in PAGES if p[0] == "sorry-sheet")
    want = _rgb(GOLDEN / f"{name}.png")
    covered = want.copy()
    covered[40:52, 30:42] = 255          # a 15 mm square of the page whited out
    assert difference(covered, want)[1] >= BLOCK_LIMIT
    shifted = np.roll(want, 2, axis=1)   # 2.5 mm to the right
    assert difference(shifted, want)[1] >= BLOCK_LIMIT
    same = _rgb(render(output / pdf, page, tmp_path / "again"))
    assert difference(same, want) < (MEAN_LIMIT, BLOCK_LIMIT)
