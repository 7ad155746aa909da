"""Sheet imposition and duplex registration, checked on geometry computed independently."""
import math

import pytest

from generator.draw import apply
from generator.layout.cards import CardSize, back_transform, impose_cards
from generator.layout.marks import MARK_LENGTH, SAFE_MARGIN
from generator.paper import PAPERS

CARD = CardSize(63, 88, 3)


def corners(slot_transform, w, h):
    return [apply(slot_transform, x, y) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]


def bbox(points):
    xs, ys = zip(*points)
    return (min(xs), min(ys), max(xs), max(ys))


@pytest.mark.parametrize("paper, per_sheet", [("a4", 8), ("letter", 6)])
def test_cards_per_sheet(paper, per_sheet):
    w, h = PAPERS[paper].size
    layout = impose_cards(CARD, w, h)
    assert layout.per_sheet == per_sheet


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_slots_fit_with_marks_and_blank_edge(paper):
    w, h = PAPERS[paper].size
    layout = impose_cards(CARD, w, h)
    margin = CARD.bleed + MARK_LENGTH + SAFE_MARGIN
    boxes = []
    for s in layout.slots:
        x0, y0, x1, y1 = bbox(corners(s.transform, 63, 88))
        # The transform puts the card exactly on its slot, at its true size.
        assert (x0, y0) == pytest.approx((s.x, s.y)) and (x1 - x0, y1 - y0) == pytest.approx((s.w, s.h))
        assert sorted((x1 - x0, y1 - y0)) == pytest.approx([63, 88])
        assert x0 >= margin - 1e-9 and y0 >= margin - 1e-9
        assert x1 <= w - margin + 1e-9 and y1 <= h - margin + 1e-9
        boxes.append((x0 - 3, y0 - 3, x1 + 3, y1 + 3))
    for i, a in enumerate(boxes):  # bleed boxes may touch, never overlap
        for b in boxes[i + 1:]:
            overlap_w = min(a[2], b[2]) - max(a[0], b[0])
            overlap_h = min(a[3], b[3]) - max(a[1], b[1])
            assert overlap_w <= 1e-9 or overlap_h <= 1e-9


def paper_behind(point, page_w, page_h, flip):
    """Where a point of the front lies on the back page, as printed: turned over the long edge
    (left-right mirror of a portrait sheet) or the short edge (top-bottom)."""
    x, y = point
    return (page_w - x, y) if flip == "long" else (x, page_h - y)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.75)])
def test_backs_register_behind_faces(paper, flip, offset):
    w, h = PAPERS[paper].size
    layout = impose_cards(CARD, w, h)
    for slot in layout.slots:
        back = back_transform(slot, layout, flip, offset)
        # Turning a card over its vertical axis: the back's top-left is behind the face's top-right,
        # the back's top-right behind the face's top-left, and so on.
        pairs = [((0, 0), (63, 0)), ((63, 0), (0, 0)), ((63, 88), (0, 88)), ((0, 88), (63, 88))]
        for back_pt, face_pt in pairs:
            expected = paper_behind(apply(slot.transform, *face_pt), w, h, flip)
            got = apply(back, *back_pt)
            assert got == pytest.approx((expected[0] + offset[0], expected[1] + offset[1]), abs=1e-9)
        # A rigid motion: no mirror image of the back is printed.
        a, b, c, d, _, _ = back
        assert a * d - b * c == pytest.approx(1.0)


def test_rotated_layout_turns_cards_a_quarter():
    layout = impose_cards(CARD, *PAPERS["a4"].size)
    assert layout.rotated
    a, b, c, d, _, _ = layout.slots[0].transform
    assert math.degrees(math.atan2(b, a)) == pytest.approx(90)
