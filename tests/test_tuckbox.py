"""Tuck boxes: the inside is the deck plus clearance, the net folds (its panels add up), it is laid
out on one sheet when it fits and in two pieces when not, and every deck's box is built, printed
and cut (SVG/DXF with cut and score layers)."""
import math
import re
import xml.etree.ElementTree as ET

import pytest

from generator.paper import PAPERS
from pypdf import PdfReader
from shapely.geometry import Point

from conftest import ROOT
from fuzzing import run_cli
from generator.colour import Colour, contrast_ratio
from generator.draw import Drawing, Group, Text
from generator.layout.cards import CardSize, LayoutError
from generator.layout.tuckbox import (EDGE, MIN_TEXT, BoxArt, BoxSettings, TuckBox, box_nets, box_settings,
                                      cut_parts, deck_box, plan_print, print_pages)
from generator.spec import load_spec
from generator.units import pt

POKER = CardSize(63, 88, 3)
# Every deck we ship: (game folder, file stem, cards in the deck).
DECKS = [("mille-bornes", "mille_bornes", 106), ("mille-bornes", "mille_bornes_1961", 112), ("sorry", "sorry", 44),
         ("capitals", "capitals_1961", 117), ("continuo", "continuo", 44), ("count-continuo", "count_continuo", 44)]


def back(size=POKER) -> Drawing:
    d = Drawing(size.width, size.height)
    d.text(5, 20, "BACK", 6, Colour(rgb=(1, 1, 1)))
    return d


def art(cards: int, size=POKER) -> BoxArt:
    return BoxArt("t", "Test", size, cards, back(size), Colour(rgb=(0.1, 0.2, 0.6)), Colour(rgb=(1, 1, 1)),
                  f"{cards} cards")


@pytest.mark.parametrize("cards,caliper,clearance", [(106, 0.3, 1.0), (44, 0.32, 1.5), (200, 0.25, 0.0)])
def test_inside_is_the_deck_plus_clearance(cards, caliper, clearance):
    box = TuckBox(63, 88, cards, caliper, clearance)
    assert box.inner == pytest.approx((63 + clearance, 88 + clearance, cards * caliper + clearance))
    # Each panel, score to score, is the inside plus the box's own card (half a caliper at each score).
    assert [p - i for p, i in zip(box.panels, box.inner)] == pytest.approx([caliper] * 3)


def test_the_shipped_decks_say_their_caliper_and_clearance():
    for _, stem, _ in DECKS:
        s = box_settings(load_spec(ROOT / "decks" / f"{stem}.yaml"))
        assert (s.caliper, s.clearance) == (0.30, 1.0), stem
    # And a deck without a tuck_box section gets the defaults.
    assert BoxSettings() == BoxSettings(0.30, 1.0, "card stock 0.3 mm", 0.1, (305.0, 305.0))


def _x_folds(net, y_mid):
    return sorted(round(l.coords[0][0], 6) for l in net.folds
                  if l.coords[0][0] == l.coords[1][0] and min(l.coords[0][1], l.coords[1][1]) < y_mid)


@pytest.mark.parametrize("cards", [44, 106, 117])
def test_the_net_folds_into_the_box(cards):
    box = TuckBox(63, 88, cards)
    W, H, D = box.panels
    net = box_nets(box, 1)[0]
    p = net.panels
    # Round the body: front, side, back, side; opposite walls equal, so the tube closes square.
    widths = [p[k][2] for k in ("front", "side 1", "back", "side 2")]
    assert widths == pytest.approx([W, D, W, D])
    assert all(p[k][3] == pytest.approx(H) for k in ("front", "side 1", "back", "side 2"))
    # The vertical scores lie exactly at the panels' edges (and the tab's).
    y_mid = p["front"][1] + H / 2
    assert _x_folds(net, y_mid) == pytest.approx([W, W + D, 2 * W + D, 2 * W + 2 * D])
    # The lid and the bottom span the top and bottom openings: as wide as the back, as deep as a side.
    for k in ("lid", "bottom"):
        assert p[k][2:] == pytest.approx((W, D))
        assert p[k][0] == pytest.approx(p["back"][0])
    # The tuck flap fits inside the front (narrower, and shorter than the front is tall, clear of
    # the notch's depth); the glue flap inside the front's bottom.
    assert p["tuck flap"][2] < W and box.notch + 2 < p["tuck flap"][3] < H / 2
    assert p["glue flap"][2] < W and p["glue flap"][3] < H / 2
    # Dust flaps: no wider than a side; the two from opposite sides meet less than the width.
    for side in ("side 1", "side 2"):
        for where in ("top", "bottom"):
            flap = p[f"{side} dust flap {where}"]
            assert flap[2] < D and 2 * flap[3] <= W
    # The side tab is as tall as the front it is glued inside, or less, and narrower than the front
    # minus the notch (it stays clear of it).
    assert p["glue tab"][3] <= H and p["glue tab"][2] < (W - 2 * box.notch) / 2
    # One piece: a single outline, valid, the notch cut from the front's top edge.
    assert net.outline.is_valid and not net.outline.interiors
    fx, fy, fw, _ = p["front"]
    assert not net.outline.contains(Point(fx + fw / 2, fy + box.notch / 2))
    assert net.outline.contains(Point(fx + fw / 2, fy + box.notch + 1))


def test_two_pieces_are_the_one_cut_at_a_side():
    box = TuckBox(63, 88, 150)
    one, = box_nets(box, 1)
    a, b = box_nets(box, 2)
    assert set(a.panels) | set(b.panels) >= set(one.panels)
    assert "front" in a.panels and "back" in b.panels
    # Each piece has its own side tab: together they are one tab wider than the box in one piece.
    assert a.size[0] + b.size[0] == pytest.approx(one.size[0] + box.glue_tab)
    H, g = box.panels[1], box.glue_tab
    assert a.outline.area + b.outline.area == pytest.approx(one.outline.area + g * (H - min(g, 0.2 * H)))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("cards", [44, 106, 112, 117])
def test_every_shipped_deck_box_fits_one_sheet(paper, cards):
    plan = plan_print(TuckBox(63, 88, cards), PAPERS[paper])
    assert plan.pieces == 1 and len(plan.pages) == 1
    pw, ph, placed = plan.pages[0]
    net, x, y = placed[0]
    assert x >= EDGE and y >= EDGE and x + net.size[0] <= pw - EDGE and y + net.size[1] <= ph - EDGE
    # The instructions find room beside the box: one sheet in all.
    assert len(print_pages(TuckBox(63, 88, cards), art(cards), plan)) == 1


def test_a_thick_deck_is_printed_in_two_pieces_and_a_huge_one_refused():
    plan = plan_print(TuckBox(63, 88, 150), PAPERS["a4"])
    assert plan.pieces == 2
    for pw, ph, placed in plan.pages:
        for net, x, y in placed:
            assert x + net.size[0] <= pw - EDGE + 1e-9 and y + net.size[1] <= ph - EDGE + 1e-9
    with pytest.raises(LayoutError):
        plan_print(TuckBox(63, 88, 400), PAPERS["a4"])


def _texts(group: Group, m=(1, 0, 0, 1, 0, 0)):
    from generator.draw import compose
    for item in group.items:
        if isinstance(item, Group):
            yield from _texts(item, compose(m, item.transform))
        elif isinstance(item, Text):
            yield item, item.size * math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


@pytest.mark.parametrize("cards", [44, 150])
def test_box_pages_text_is_legible(cards):
    box = TuckBox(63, 88, cards)
    pages = print_pages(box, art(cards), plan_print(box, PAPERS["a4"]))
    sizes = [s for p in pages for _, s in _texts(p.root)]
    assert sizes and min(sizes) >= max(MIN_TEXT, pt(6)) - 1e-9
    texts = [t.text for p in pages for t, _ in _texts(p.root)]
    assert texts.count("Test") >= 4           # both spines, the lid, the back
    assert any("Inside 64 x 89 x" in t for t in texts)


def test_the_shipped_boxes_title_contrasts_with_its_ground():
    from generator.games.capitals.data import load_deck as capitals
    from generator.games.continuo.deck import load_deck as continuo
    from generator.games.mille_bornes.deck import load_deck as mille
    from generator.games.sorry.deck import load_deck as sorry
    decks = {"mille_bornes": mille, "mille_bornes_1961": mille, "sorry": sorry, "capitals_1961": capitals,
             "continuo": continuo, "count_continuo": continuo}
    for stem, load in decks.items():
        deck = load(load_spec(ROOT / "decks" / f"{stem}.yaml"))
        b = deck.back
        bg, ink = (b.colour, b.ink) if hasattr(b, "colour") else (b["colour"], b["ink"])
        assert contrast_ratio(bg, ink) >= 4.5, stem


@pytest.mark.parametrize("game,stem,cards", DECKS)
def test_every_deck_has_a_printed_and_a_cut_box(output, game, stem, cards):
    folder = output / game
    pdf = PdfReader(folder / f"{stem}-tuckbox-a4.pdf")
    assert len(pdf.pages) == 1
    w, h = (float(v) / 72 * 25.4 for v in pdf.pages[0].mediabox[2:])
    assert (round(w), round(h)) == (297, 210)            # A4, turned
    import ezdxf            # (here: 0.3 s to import, in each test process that collects this module)
    dxf = folder / f"{stem}-tuckbox-card-stock-0.3-mm-sheet1.dxf"
    doc = ezdxf.readfile(dxf)
    assert doc.header["$INSUNITS"] == 4
    cuts = [e for e in doc.modelspace().query("LWPOLYLINE") if e.dxf.layer == "CUT"]
    scores = [e for e in doc.modelspace().query("LWPOLYLINE") if e.dxf.layer == "SCORE"]
    size = CardSize(48, 48, 3) if "continuo" in stem else POKER
    net = box_nets(deck_box(size, cards, BoxSettings()), 1)[0]
    assert len(cuts) == 1 and cuts[0].closed                # one piece, one closed outline
    assert len(scores) == len(net.folds)
    # The outline's size is the net's, grown by the kerf (0.1 mm: 0.05 mm each side).
    xs = [p[0] for p in cuts[0].get_points()]
    ys = [p[1] for p in cuts[0].get_points()]
    assert max(xs) - min(xs) == pytest.approx(net.size[0] + 0.1, abs=0.01)
    assert max(ys) - min(ys) == pytest.approx(net.size[1] + 0.1, abs=0.01)
    svg = ET.fromstring((folder / f"{stem}-tuckbox-card-stock-0.3-mm-sheet1.svg").read_text())
    assert svg.get("width") == "305mm" and svg.get("height") == "305mm"
    assert (folder / f"{stem}-tuckbox-card-stock-0.3-mm-sheet1.png").stat().st_size > 1000
    # The inside the print says is the deck's.
    text = (folder / "README.txt").read_text()
    inner = f"{size.width + 1:g} x {size.height + 1:g} x {cards * 0.3 + 1:.1f} mm"
    assert f"{stem}-tuckbox-a4.pdf" in text and inner in " ".join(text.split())


def test_a_cut_sheet_too_small_splits_the_box_or_is_refused():
    box = TuckBox(63, 88, 106)
    assert len(cut_parts(box, BoxSettings(sheet=(305, 305)), "b")) == 1
    assert len(cut_parts(box, BoxSettings(sheet=(200, 200)), "b")) == 2
    with pytest.raises(LayoutError):
        cut_parts(box, BoxSettings(sheet=(100, 100)), "b")


def test_a_bad_tuck_box_value_is_refused_at_its_line(tmp_path):
    import shutil
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    path = tmp_path / "decks" / "sorry.yaml"
    text = path.read_text()
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("tuck_box:"))
    path.write_text(text.replace("caliper: 0.30", "caliper: 3"))
    code, _, err, _ = run_cli(["validate", "decks/sorry.yaml"], tmp_path)
    assert code == 1 and f"decks/sorry.yaml:{line}: tuck_box.caliper: expected a card's thickness" in err, err
    # A deck too thick for any sheet is refused at the tuck_box line, by validate as by build.
    path.write_text(text.replace("caliper: 0.30", "caliper: 2"))
    code, _, err, _ = run_cli(["validate", "decks/sorry.yaml"], tmp_path)
    assert code == 1 and re.search(rf"decks/sorry.yaml:{line}: tuck_box: the tuck box .* does not fit", err), err


@pytest.mark.parametrize("size, cards", [(POKER, 106), (POKER, 44), (CardSize(48, 48, 3), 44), (CardSize(40, 60, 3), 20)])
def test_the_front_art_stays_clear_of_the_thumb_notch(size, cards):
    """The deck's back on the front, whole and clear of the thumb notch by NOTCH_CLEAR: the notch
    bit into Continuo's colour strip and the other boxes' frames."""
    from shapely.geometry import box as rect
    from generator.layout.tuckbox import NOTCH_CLEAR, front_art_box
    box = TuckBox(size.width, size.height, cards)
    net = box_nets(box, 1)[0]
    assert net.notch == box.notch > 0
    x, y, w, h, s = front_art_box(net, art(cards, size), net.notch)
    fx, fy, fw, fh = net.panels["front"]
    assert Point(fx + fw / 2, fy).distance(rect(x, y, x + w, y + h)) - box.notch >= NOTCH_CLEAR - 1e-6
    assert fx - 1e-9 <= x and x + w <= fx + fw + 1e-9 and y + h <= fy + fh + 1e-9
    assert (w, h) == pytest.approx((size.width * s, size.height * s))        # whole, not cropped
    assert max(w / fw, h / (fh - box.notch - NOTCH_CLEAR)) == pytest.approx(1.0)   # as large as fits


# ---------------------------------------------------------------- the assembly sheet

@pytest.mark.parametrize("size,cards", [(POKER, 44), (POKER, 106), (POKER, 200),
                                        (CardSize(120.7, 147.1, 3), 23)])   # a panel's part came with a sliver
def test_the_folded_box_drawn_is_the_box_the_net_makes(size, cards):
    """Every part of the net turned about its folds (all at 90 degrees) lands on the box: the whole
    is the panels' W x D x H, the lid closes the top and the bottom the foot, and the tabs that are
    glued lie inside the front, within its width."""
    from generator.layout.tuckbox_assembly import FOLDED, FoldedBox
    box = deck_box(size, cards, BoxSettings())
    W, H, D = box.panels
    folded = FoldedBox(box)

    def points(name):
        o, u, v = folded.place(name, FOLDED)
        return [tuple(o[i] + x * u[i] + y * v[i] for i in range(3)) for x, y in folded.regions[name].exterior.coords]
    every = [p for name in folded.regions for p in points(name)]
    for axis, size in enumerate((W, D, H)):
        assert min(p[axis] for p in every) == pytest.approx(0, abs=1e-6)
        assert max(p[axis] for p in every) == pytest.approx(size, abs=1e-6)
    assert all(p[2] == pytest.approx(H, abs=1e-6) for p in points("lid"))
    assert all(p[2] == pytest.approx(0, abs=1e-6) for p in points("bottom"))
    for glued in ("glue tab", "glue flap", "tuck flap"):       # in the front's plane, across it
        assert all(p[1] == pytest.approx(D, abs=1e-6) and -1e-6 <= p[0] <= W + 1e-6 for p in points(glued)), glued
    # Folds compose: the lid closed but its tuck flap not yet turned, the flap sticks out past the
    # front, level with the lid, as deep as the net makes it.
    o, u, v = folded.place("tuck flap", {**FOLDED, "tuck flap": 0.0})
    flap = [tuple(o[i] + x * u[i] + y * v[i] for i in range(3)) for x, y in folded.regions["tuck flap"].exterior.coords]
    assert all(p[2] == pytest.approx(H, abs=1e-6) for p in flap)
    assert max(p[1] for p in flap) == pytest.approx(D + box.tuck, abs=1e-6)


@pytest.mark.parametrize("game,stem,cards", DECKS)
def test_every_tuck_box_has_an_assembly_sheet_before_it(output, game, stem, cards):
    """One page of the build's paper, named for its box and its cut file, listed just before the box
    in the print list; steps with drawings, and the box's inside measure."""
    folder = output / game
    pdf = PdfReader(folder / f"{stem}-tuckbox-assembly-a4.pdf")
    assert len(pdf.pages) == 1
    w, h = (float(v) / 72 * 25.4 for v in pdf.pages[0].mediabox[2:])
    assert (round(w), round(h)) == (210, 297)
    text = " ".join(pdf.pages[0].extract_text().split())
    size = CardSize(48, 48, 3) if "continuo" in stem else POKER
    inner = f"{size.width + 1:g} x {size.height + 1:g} x {cards * 0.3 + 1:.1f} mm"
    assert f"{stem}-tuckbox-a4.pdf" in text and f"{stem}-tuckbox-card-stock-0.3-mm-sheet1.svg" in text
    assert inner in text and "Checks" in text
    # Step 4 gives the outside in the header's order (width x height x depth): the inside and a
    # wall of card (the caliper, 0.3 mm) either side. It said "64 x 14 x 89" for a 64 x 89 x 32.8 inside.
    number = r"(\d+(?:\.\d+)?)"
    inside = re.search(rf"Inside it measures {number} x {number} x {number} mm \(width x height x depth\)", text)
    outside = re.search(rf"Outside, the box measures {number} x {number} x {number} mm \(width x height x depth", text)
    assert inside and outside, text
    for i, o in zip(inside.groups(), outside.groups()):
        assert float(o) == pytest.approx(float(i) + 2 * 0.3, abs=0.06), (inside.groups(), outside.groups())
    ops = re.findall(rb"(?m)(?:^| )(f\*?|B\*?)$", pdf.pages[0].get_contents().get_data())
    assert len(ops) > 40                   # the net and three folded boxes drawn, faces filled and outlined
    listing = (folder / "README.txt").read_text()
    listed = [line for line in listing.splitlines() if line and not line[0].isspace() and " " not in line
              and line.endswith(".pdf")]
    assert listed.index(f"{stem}-tuckbox-assembly-a4.pdf") + 1 == listed.index(f"{stem}-tuckbox-a4.pdf"), listed
    box_text = " ".join(PdfReader(folder / f"{stem}-tuckbox-a4.pdf").pages[-1].extract_text().split())
    assert "the tuck box's assembly sheet" in box_text      # the printed box says where its steps are drawn


def test_the_sheet_says_when_the_cut_file_makes_the_box_in_other_pieces_than_the_print():
    """A small cut sheet can make the cut box two pieces where the print is one (or the other way):
    the gluing step says how the cut pieces go together."""
    from generator.layout.tuckbox_assembly import tuck_box_assembly
    box = deck_box(POKER, 54, BoxSettings())
    same = tuck_box_assembly(box, art(54), 1, PAPERS["a4"], "t", "t-cut.svg", cut_pieces=1)
    other = tuck_box_assembly(box, art(54), 1, PAPERS["a4"], "t", "t-cut.svg", cut_pieces=2)
    assert "cut file" not in same.steps[1].text
    assert "The cut file makes the box in two pieces: glue each side tab inside the other piece" in other.steps[1].text
