"""Assembly sheets: every laser kit and fold-up piece has one in its game's folder, first in the
print list, drawn from the parts' own geometry; and the Capitals walls' three ways to make them,
with their times."""
from __future__ import annotations

import re
import subprocess

import pytest
from pypdf import PdfReader
from shapely.geometry import Polygon

from conftest import ROOT, need
from generator.spec import load_spec

SHEETS = {
    "mille-bornes": ["shoe-assembly-a4.pdf"],
    "cubes": ["kit-2p-assembly-a4.pdf", "kit-4p-assembly-a4.pdf", "paper-pieces-2p-assembly-a4.pdf",
              "paper-pieces-4p-assembly-a4.pdf"],
    "sorry": ["sorry-men-assembly-a4.pdf"],
    "capitals": ["capitals_walls-assembly-a4.pdf"],
}


def pdf_text(path) -> str:
    return subprocess.run([need("pdftotext"), str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def home_list(readme: str) -> list[str]:
    """The file names of a print list's "Print at home" group, in order."""
    part = readme.split("Print at home\n", 1)[1].split("\nHow to put it together", 1)[0]
    return [line for line in part.splitlines() if re.match(r"^[\w.-]+\.pdf$", line)]


@pytest.mark.parametrize("game", sorted(SHEETS))
def test_every_kit_and_fold_up_has_an_assembly_sheet_first_in_its_print_list(output, game):
    folder = output / game
    listed = home_list((folder / "README.txt").read_text())
    for name in SHEETS[game]:
        pdf = folder / name
        assert pdf.exists(), name
        text = pdf_text(pdf)
        assert "Parts" in text and "Steps" in text and "Checks" in text, name
        assert name in listed
    assert set(listed[:len(SHEETS[game])]) == set(SHEETS[game]), listed
    assert "README" not in (folder / "README.txt").read_text().replace("README.txt", "")


def test_the_cubes_kit_sheet_rounds_the_edges_and_says_how_to_check_it(output):
    text = " ".join(pdf_text(output / "cubes" / "kit-2p-assembly-a4.pdf").split())
    assert "to a 2 mm radius" in text and "arêtes arrondies" in text and "without snagging" in text
    assert "A cube slides on its rails" in text
    assert "144 in all" in text                   # four pegs to each of 36 cubes
    shoe = " ".join(pdf_text(output / "mille-bornes" / "shoe-assembly-a4.pdf").split())
    assert "A card is drawn from the reserve" in shoe and "106 cards" in shoe


def test_a_scene_draws_the_parts_own_outlines():
    """The cube's exploded view: one solid per part the kit cuts for a cube, each near face the
    part's outline at its full area (the projection is only where it is drawn)."""
    from generator.games.cubes.assembly import _cube_scene
    from generator.games.cubes.kit import cube_parts, load_kit
    kit = load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml"))
    scene = _cube_scene(kit, False, 14.0)
    parts = [p for p in cube_parts(kit) if p.name != "peg"]
    assert len(scene.solids) == len(parts)
    areas = sorted(round(p.outline.area, 3) for p in parts)

    def plane_area(ring):
        # The area of a planar ring in space: half the length of the sum of its edges' cross products.
        sx = sy = sz = 0.0
        for (ax, ay, az), (bx, by, bz) in zip(ring, ring[1:] + ring[:1]):
            sx += ay * bz - az * by
            sy += az * bx - ax * bz
            sz += ax * by - ay * bx
        return 0.5 * (sx * sx + sy * sy + sz * sz) ** 0.5
    drawn = []
    for solid in scene.solids:
        face = next(f for f in reversed(solid.faces) if f.fill is not None)
        outer, *holes = face.rings
        drawn.append(round(plane_area(outer) - sum(plane_area(h) for h in holes), 3))
    assert sorted(drawn) == areas


def test_the_flat_strips_are_every_piece_at_its_length_in_bands_on_the_paper():
    from generator.games.capitals.strips import PRINT_MARGIN, WIDTH, make_times, plan_strips, strip_length
    from generator.games.capitals.walls import load_walls
    from generator.paper import PAPERS
    ws = load_walls(load_spec(ROOT / "boards" / "capitals_walls.yaml"))
    for paper in ("a4", "letter"):
        lay = plan_strips(ws, PAPERS[paper])
        pieces = sorted(u for page in lay.pages for band in page for u in band)
        assert pieces == sorted(u for u, c in ws.counts.items() for _ in range(c))
        width = max(PAPERS[paper].size) - 2 * PRINT_MARGIN
        for page in lay.pages:
            assert len(page) * WIDTH <= min(PAPERS[paper].size) - 2 * PRINT_MARGIN
            assert all(sum(strip_length(ws, u) for u in band) <= width + 1e-9 for band in page)
        times = make_times(ws, PAPERS[paper])
        assert times.trough_cuts > 7000 and times.trough_scores == 4 * 123
        assert times.troughs > 20 * times.strips > 0 and times.laser_folds < times.troughs
        long_cuts, short = times.strip_cuts
        assert long_cuts == lay.bands + len(lay.pages) and short == 123 + lay.bands


def test_the_print_list_says_which_walls_to_choose_and_how_long_each_takes(output):
    text = " ".join((output / "capitals" / "README.txt").read_text().split())
    assert "123 flat strips, the quick way (about 10 minutes to cut" in text
    assert "as the patent's" in text and "about 5.5 hours: 7,252 knife cuts" in text
    assert "to fold)" in text                       # the laser-cut troughs
    assert "For flat wall strips:" in text and "For folded wall troughs:" in text
    assert len(PdfReader(output / "capitals" / "capitals_walls-strips-a4.pdf").pages) == 2
