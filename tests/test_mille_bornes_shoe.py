"""The card shoe, assembled on paper from the parts' own geometry."""
import math

import pytest
from shapely.geometry import Point, box
from shapely.ops import unary_union

from shapely.geometry import Polygon

from conftest import ROOT
from generator.games.mille_bornes.shoe import (base, end_panel, load_shoe, long_wall_pieces, notch_x, partition,
                                              partition_base_tabs, partition_side_tabs, shoe_parts)
from generator.laser.joints import Edge, mates
from generator.spec import load_spec


@pytest.fixture(scope="module")
def S():
    """The shipped shoe (read when a test asks for it: at the module's top, it cost each test process
    0.2 s at collection)."""
    return load_shoe(load_spec(ROOT / "boards" / "mille_bornes_shoe.yaml"))


@pytest.fixture(scope="module")
def parts(S):
    """Its parts, made once for the tests that read them (none changes them)."""
    return shoe_parts(S)


def intervals(geom, axis, lo, hi):
    """The spans along an axis (0 = x, 1 = y) that geom covers inside a band across the other axis."""
    band = box(-1e3, lo, 1e3, hi) if axis == 0 else box(lo, -1e3, hi, 1e3)
    part = geom.intersection(band)
    parts = list(part.geoms) if hasattr(part, "geoms") else [part]
    return sorted((round(g.bounds[axis], 3), round(g.bounds[axis + 2], 3)) for g in parts if not g.is_empty and g.area > 1e-6)


def test_inner_sizes_are_cards_plus_clearance(S):
    # the deck's cards: 63 x 88 mm; 106 of them
    assert (S.a, S.b) == (63 + S.clearance, 88 + S.clearance)
    assert S.depth >= 106 * S.card_thickness
    # measured on the parts: the long walls run 2a + t, the partition's body spans b, the base is b + 2t wide
    wall = unary_union([p.outline for p in long_wall_pieces(S)])
    assert wall.bounds[2] - wall.bounds[0] == pytest.approx(2 * S.a + S.t)
    body = intervals(partition(S).outline, 0, S.depth * 0.9, S.depth * 0.95)
    assert body == [(S.t, S.t + S.b)]
    assert base(S).outline.bounds[3] - base(S).outline.bounds[1] == pytest.approx(S.b + 2 * S.t)


def test_wall_fingers_fill_the_base_slots(S):
    assert mates(Edge("male", S.fingers), S.length, Edge("female", S.fingers), S.length)
    wall = unary_union([p.outline for p in long_wall_pieces(S)])
    H, t = S.height, S.t
    tabs = intervals(wall, 0, H - t + 0.1, H - 0.1)          # the wall's fingers below the base's top
    b = base(S).outline
    n0, n1 = notch_x(S)
    notch = box(n0, -1, n1, H + 1)
    slots = intervals(box(0, 0, S.length, t).difference(b).difference(notch), 0, 0.1, t - 0.1)
    # every finger has its slot and every slot its finger; the notch took both away alike
    assert tabs == slots and len(tabs) >= 5


def flat(spans):
    return [round(v, 3) for span in spans for v in span]


def test_partition_tabs_meet_their_mortises(S):
    wall_main = next(p for p in long_wall_pieces(S) if p.name == "long wall").outline
    holes = sorted((Polygon(r).bounds for r in wall_main.interiors), key=lambda b: b[1])
    assert flat((b[1], b[3]) for b in holes) == flat(partition_side_tabs(S))
    for x0, _, x1, _ in holes:
        assert (x0, x1) == pytest.approx((S.a, S.a + S.t))   # exactly where the partition stands
    side_tabs = intervals(partition(S).outline, 1, 0.1, S.t - 0.1)
    assert flat(side_tabs) == flat(partition_side_tabs(S))
    bottom_tabs = intervals(partition(S).outline, 0, S.depth + 0.1, S.depth + S.t - 0.1)
    base_mortises = sorted(((b[1], b[3]) for b in (Polygon(r).bounds for r in base(S).outline.interiors)))
    assert flat(bottom_tabs) == flat(partition_base_tabs(S)) == flat(base_mortises)
    for r in base(S).outline.interiors:
        x0, _, x1, _ = Polygon(r).bounds
        assert (x0, x1) == pytest.approx((S.a, S.a + S.t))


def test_the_ends_bow_and_the_strip_fits_the_arc(S):
    b = base(S).outline
    assert b.bounds[2] == pytest.approx(S.length + S.sagitta)   # the discard end's arc; the reserve
    # end's apex is cut away by its excision, but its arc bows as far beside it:
    # the strip wraps the base's arc: its length is the arc at the strip's mid-thickness
    R, W = S.radius, S.width
    y = W / 2 + S.notch_w / 2 + 1
    x_arc = -S.sagitta + R - math.sqrt(R * R - (y - W / 2) ** 2)
    assert b.contains(Point(x_arc + 0.05, y)) and not b.contains(Point(x_arc - 0.05, y))
    half = math.asin(W / 2 / R)
    assert R - math.sqrt(R * R - W * W / 4) == pytest.approx(S.sagitta)
    strip = end_panel(S, False)[0]
    x0, y0, x1, y1 = strip.outline.bounds
    assert x1 - x0 == pytest.approx(2 * half * (R + S.t / 2)) and y1 - y0 == pytest.approx(S.height)
    assert len(strip.cuts) > 20 and all(strip.outline.contains(c) for c in strip.cuts)


def test_only_the_reserve_is_notched(S):
    b = base(S).outline
    W, d = S.width, S.notch_d
    assert not b.contains(Point(S.a / 2, d - 1)) and not b.contains(Point(S.a / 2, W - d + 1))
    assert not b.contains(Point(-S.sagitta + d - 1, W / 2))                     # the reserve end's excision
    L = S.length
    assert b.contains(Point(L - S.a / 2, d - 1)) and b.contains(Point(L - S.a / 2, W - d + 1))
    assert b.contains(Point(L + S.sagitta - d + 1, W / 2))                      # the discard end: none
    # The reserve end in two halves, each cut twice (two copies, "1 of 2"); the discard end whole.
    assert len({p.outline.wkb for p in end_panel(S, True)}) == 2 and len(end_panel(S, False)) == 1


def test_every_part_is_one_piece(parts):
    for p in parts:
        assert p.outline.geom_type == "Polygon" and p.outline.is_valid, p.name


def test_build_writes_the_shoe_kit(output):
    out = output / "mille-bornes" / "shoe"
    for ext in ("svg", "dxf", "png"):
        assert list(out.glob(f"*.{ext}")), ext


# ---------------------------------------------------------------- labels

def test_copies_are_labelled_1_of_2_and_every_rib_is_labelled(parts):
    """A part cut twice is scored "long wall 1 of 2", "long wall 2 of 2" (one label "long wall x2"
    on both read as four walls); the three ribs are scored too."""
    labels = [p.label for p in parts]
    assert not any("x2" in lab for lab in labels)
    assert {"long wall 1 of 2", "long wall 2 of 2", "reserve wall 1 of 2", "reserve end 2 of 2",
            "reserve rib 1 of 2", "reserve rib 2 of 2", "discard rib", "discard end"} <= set(labels)
    assert all(p.quantity == 1 for p in parts)
    ribs = [p for p in parts if p.name.endswith("rib")]
    assert len(ribs) == 3 and all(p.score for p in ribs)


def test_labels_lie_inside_their_parts_and_off_the_hinges_bridges(S, parts):
    """Every scored label inside its part, clear of its cut; on a living hinge, in the end margin
    where there are no slits: never on a bridge (the wood between a slit's end and the edge that
    holds the hinge together) nor between slits."""
    from generator.games.mille_bornes.shoe import LABEL_CLEAR
    for p in parts:
        assert p.score, p.label
        room = p.outline.buffer(-LABEL_CLEAR + 1e-6)
        assert all(room.contains(line) for line in p.score), p.label
        if p.cuts:
            hinge = box(min(c.bounds[0] for c in p.cuts) - LABEL_CLEAR, 0,
                        max(c.bounds[2] for c in p.cuts) + LABEL_CLEAR, S.height)
            labels = [ln for ln in p.score]
            assert not any(ln.intersects(hinge) for ln in labels), p.label


@pytest.mark.parametrize("depth,problem", [(181, "leave under 10 mm between them"),
                                           (44, "leave under 10 mm between them"),
                                           (28, "within 9.7 mm of the notches in its sides")])
def test_a_notch_that_would_cut_the_base_in_pieces_is_the_specs_error(tmp_path, depth, problem):
    """Found by the fuzz campaign (base_depth 18 -> 181): the notches cut the base in pieces and the
    kit's assembly sheet ended in exit 70. The notches must leave 10 mm of base between them, the
    spec's error at notch.base_depth otherwise; and every part the check makes is one piece."""
    from generator.errors import SpecError
    from generator.games.mille_bornes import CHECKS
    text = (ROOT / "boards" / "mille_bornes_shoe.yaml").read_text()
    old = "notch: {width: 22, base_depth: 18}"
    assert old in text
    (tmp_path / "boards").mkdir()
    (tmp_path / "decks").mkdir()
    path = tmp_path / "boards" / "mille_bornes_shoe.yaml"      # its deck is ../decks/mille_bornes.yaml
    path.write_text(text.replace(old, f"notch: {{width: 22, base_depth: {depth}}}"))
    (tmp_path / "decks" / "mille_bornes.yaml").write_text((ROOT / "decks" / "mille_bornes.yaml").read_text())
    with pytest.raises(SpecError) as exc:
        CHECKS["mille-bornes-shoe"](load_spec(path))
    assert exc.value.field == "notch.base_depth" and problem in exc.value.message, exc.value
    assert exc.value.line == text[:text.index(old)].count("\n") + 1


@pytest.mark.parametrize("notch,sagitta", [
    # (each 0.25 s: the bound's own edge, 27 mm, is quick; the shipped notch and a wide shallow one are
    # in the whole suite)
    pytest.param({"width": 22, "base_depth": 18}, 8, marks=pytest.mark.slow), ({"width": 22, "base_depth": 27}, 8),
    pytest.param({"width": 50, "base_depth": 1}, 1, marks=pytest.mark.slow)])
def test_notches_that_leave_the_base_whole_are_accepted_and_every_part_is_one_piece(notch, sagitta):
    """The bound measures the base left between the notches (27 mm deep still leaves 10.9 mm; a wide
    shallow notch is far from the others): every part the check makes is one piece."""
    from generator.games.mille_bornes import CHECKS
    from generator.games.mille_bornes.shoe import shoe_parts
    spec = load_spec(ROOT / "boards" / "mille_bornes_shoe.yaml")
    spec.data["notch"], spec.data["dish"] = notch, {"sagitta": sagitta}
    shoe = CHECKS["mille-bornes-shoe"](spec)
    assert all(p.outline.geom_type == "Polygon" for p in shoe_parts(shoe))
