"""Work bounded by what it costs (issue 32, family 5): the text an element may hold once its fields
are put in, the text a deck sets, the bytes of its pictures, an SVG's path points and the SVG
work of a deck, each refused in one line at the line or row responsible; and a picture is drawn
only in a job's worker process, never in the command's own (which a signal must stop at once).
The timings themselves are benchmarks/spec_extremes.py's and benchmarks/interrupts.py's."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import DECK, one_error, pnp_here


SPEC = """kind: deck
title: Costs
card: {{width: 63, height: 88, bleed: 3}}
tuck_box: false
csv: cards.csv
{extra}layouts:
  face:
    elements:
{elements}
  back: {{background: "#223344"}}
"""


def deck(folder: Path, rows: list[str], header="name,a,b", extra="",
         elements='      - {type: text, x: 2, y: 2, w: 59, h: 84, text: "{a} {b}", size: 6}') -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.csv").write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    spec = folder / "costs.yaml"
    spec.write_text(SPEC.format(extra=extra, elements=elements), encoding="utf-8")
    return spec


def test_an_elements_text_is_bounded_with_its_fields_put_in(tmp_path):
    """Two cells of 2,499 characters each are within a cell's bound; the element that shows both
    holds 4,999: refused at the card's row, naming the element."""
    cell = ("word " * 500).strip()
    spec = deck(tmp_path / "d", [f"one,{'x'},y", f"two,{cell},{cell}"])
    one_error(pnp_here("validate", spec), r"cards\.csv:3: .*card 2 \"two\", element elements\[0\] of layout face "
                                          r"\(.*costs\.yaml:\d+\): the text is 4,999 characters with its fields put "
                                          r"in; an element holds at most 4,000")


def test_the_text_a_deck_sets_is_bounded(tmp_path, monkeypatch):
    from generator.games.deck import model
    from generator.games.deck.load import load_deck
    from generator.spec import load_spec
    from generator.spec.loader import SpecErrors
    monkeypatch.setattr(model, "MAX_DECK_TEXT", 300)
    monkeypatch.setattr("generator.games.deck.faces.MAX_DECK_TEXT", 300)
    spec = deck(tmp_path / "d", [f"c{i},{'abcd ' * 20}{i},x" for i in range(5)])   # (each drawn: none alike)
    with pytest.raises(SpecErrors) as info:
        load_deck(load_spec(spec))
    first = str(info.value.errors[0])
    assert re.search(r"cards\.csv:4: .*card 3 .*the deck's text comes to more than 300 characters", first), first


def _svg_path(points: int) -> bytes:
    pts = " ".join(f"{i % 97},{(i * 7) % 89}" for i in range(points - 1))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="M0,0 {pts} Z" '
            'fill="#a33"/></svg>').encode()


def test_an_svgs_path_points_are_bounded():
    from generator.draw.images import MAX_SVG_POINTS, PictureError, picture_from_bytes
    assert picture_from_bytes(_svg_path(MAX_SVG_POINTS), "ok.svg").svg_units == MAX_SVG_POINTS + 2
    with pytest.raises(PictureError, match=r"more than 20,000 path points"):
        picture_from_bytes(_svg_path(MAX_SVG_POINTS + 1), "big.svg")
    polygon = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><polygon points="'
               + " ".join("1,2" for _ in range(MAX_SVG_POINTS + 1)) + '"/></svg>').encode()
    with pytest.raises(PictureError, match=r"path points"):
        picture_from_bytes(polygon, "poly.svg")


def test_the_svg_work_of_a_deck_is_bounded_at_the_line_that_passes_it(tmp_path, monkeypatch):
    from generator.games.deck import model
    monkeypatch.setattr(model, "MAX_DECK_SVG_UNITS", 2_500)
    folder = tmp_path / "d"
    folder.mkdir()
    for k in range(3):
        (folder / f"s{k}.svg").write_bytes(_svg_path(1_000))
    spec = deck(folder, ["one,x,y"], extra="icons: {a: s0.svg, b: s1.svg, c: s2.svg}\n")
    one_error(pnp_here("validate", spec), r"costs\.yaml:\d+: icons\.c: \"s2\.svg\": the deck's SVG pictures come to "
                                          r"more than 2,500 elements and path points")


def test_the_bytes_of_a_decks_pictures_are_bounded(tmp_path, monkeypatch):
    from generator.games.deck import model
    folder = tmp_path / "d"
    shutil.copytree(DECK.parent, folder)
    size = (folder / "art" / "landscape.png").stat().st_size
    monkeypatch.setattr(model, "MAX_DECK_PICTURE_BYTES", size + 10)
    r = pnp_here("validate", folder / "delve.yaml")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    refused = [line for line in r.stderr.splitlines() if "the deck's pictures come to more than 0 MB" in line]
    assert refused and all(re.match(r".*delve\.(yaml|csv):\d+: ", line) for line in refused), r.stderr


def test_a_picture_is_drawn_only_in_a_jobs_worker(tmp_path, monkeypatch):
    """validate reads and checks an SVG in the command's own process but never draws it there (a
    drawing is C code a signal cannot stop); the job's worker draws it, so an SVG cairosvg cannot
    draw is still refused by validate, at its line."""
    from generator.draw import images
    main = os.getpid()
    drawn_here = []
    original = images._svg_pixels

    def watched(picture, w, h):
        if os.getpid() == main:
            drawn_here.append(picture.origin)
        return original(picture, w, h)
    monkeypatch.setattr(images, "_svg_pixels", watched)
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "fine.svg").write_bytes(_svg_path(50))
    spec = deck(folder, ["one,x,y"], extra="icons: {a: fine.svg}\n")
    r = pnp_here("validate", spec)
    assert r.returncode == 0, r.stderr
    if hasattr(os, "fork"):
        assert drawn_here == []
    # one cairosvg cannot draw (a pattern filled with itself): read and checked, not drawn, in the
    # command's own process; refused by validate all the same, from the job's worker
    bad = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><pattern id="p" width="2" height="2">'
           b'<rect width="1" height="1" fill="url(#p)"/></pattern><rect width="5" height="5" fill="url(#p)"/></svg>')
    (folder / "fine.svg").write_bytes(bad)
    from generator.draw.images import PictureError, picture_from_bytes, try_drawing
    picture = picture_from_bytes(bad, "fine.svg")
    with pytest.raises(PictureError, match="cannot draw this SVG"):
        try_drawing(picture)               # (here, by the test itself)
    drawn_here.clear()
    one_error(pnp_here("validate", spec), r"costs\.yaml:\d+: icons\.a: \"fine\.svg\": cannot draw this SVG")
    if hasattr(os, "fork"):
        assert drawn_here == []
