"""The cutter calibration sheet: two printed targets, each a square with a millimetre scale across
its top edge and one across its left edge, and a cut file that cuts the squares. Printed and cut as
a deck's sheet is, each cut line crosses its scale where the machine's cut lands: the number read
there is the machine's own offset (X from the left scale, Y from the top one; + is right and down),
to set in its software. Two targets, far apart, show a skew or a scaling too."""
from __future__ import annotations

SIDE = 40.0        # mm: a target's square, the cut
SPAN = 5           # the scales read -5..+5 mm: a tick each 0.5 mm, longer each mm, labelled each 5


def target_face():
    """A target in its own frame (0..SIDE): the square's edge as a hairline, and the two scales,
    each a ruler across the edge (its ticks parallel to the edge: the cut lies on the tick that
    reads its offset)."""
    from ..colour import BLACK, Colour
    from ..draw import Drawing, Style
    from ..units import pt
    red = Colour(rgb=(0.85, 0.1, 0.1))
    tick = Style(stroke=red, width=pt(0.3), cap="butt")
    d = Drawing(SIDE, SIDE)
    d.rect(0, 0, SIDE, SIDE, Style(stroke=BLACK, width=pt(0.25)))
    mid = SIDE / 2
    for k in range(-2 * SPAN, 2 * SPAN + 1):
        v = k / 2
        long = 6.0 if k % 10 == 0 else 4.0 if k % 2 == 0 else 2.5
        d.line(mid - long / 2, v, mid + long / 2, v, tick)      # across the top edge: reads Y
        d.line(v, mid - long / 2, v, mid + long / 2, tick)      # across the left edge: reads X
        if k % 10 == 0:
            label = f"{v:+g}" if v else "0"
            d.text(mid + 3.8, v + 0.8, label, 2.4, red, font="sans")
            d.text(v, mid + 6.2, label, 2.4, red, font="sans", align="centre")
    d.text(mid + 9.0, 9.0, "Y", 3.0, BLACK, font="sans-bold", align="centre")
    d.text(9.0, mid - 5.0, "X", 3.0, BLACK, font="sans-bold", align="centre")
    return d


def calibration_sheet(machine, paper):
    """(the CutSheet with its two targets, the printed page)."""
    from ..colour import BLACK
    from ..layout.cutpart import CutPart
    from . import CutSheet, _place, draw_marks, rounded_rect
    W, H = paper.size
    part = CutPart("calibration target", SIDE, SIDE, target_face(), rounded_rect(SIDE, SIDE, 0.0), bleed=0.0)
    rx, ry, rw, rh = machine.reach[paper.name]
    spots = [(rx + rw * 0.25 - SIDE / 2, ry + rh * 0.25 - SIDE / 2), (rx + rw * 0.75 - SIDE / 2, ry + rh * 0.75 - SIDE / 2)]
    sheet = CutSheet(W, H, [_place(part, x, y, False) for x, y in spots])
    from ..draw import Drawing
    page = Drawing(W, H)
    for p in sheet.placed:
        page.place(p.part.face, p.transform)
    if machine.marks:
        draw_marks(page, machine)
    page.text_block(rx + rw * 0.5 + 4, ry + rh * 0.25 - SIDE / 2, rw * 0.5 - 14,
                    f"CUTTER CALIBRATION, {machine.title}. Print at 100 % on plain paper, cut with this "
                    "sheet's cut file (beside it, of its name) as a deck's sheet is cut. Where each cut line crosses the red scale "
                    "across it, read the number: X from the scale across the left edge, Y from the one "
                    "across the top edge (+ is right and down). Set that offset in the machine's "
                    "software and cut a second sheet: it reads 0. Both targets alike: an offset; "
                    "different: the sheet was skewed or scaled in printing.", 2.6, BLACK, font="sans")
    return sheet, page


def cut_files(machine, sheet) -> dict[str, bytes]:
    """The calibration sheet's cut files, by kind (svg, dxf), from the laser writers."""
    from ..laser.export import sheet_dxf, sheet_svg
    from . import cut_sheet, mark_paths
    cut = cut_sheet(sheet)
    out = {}
    if "svg" in machine.cut_files:
        out["svg"] = sheet_svg(cut, f"Cutter calibration, {machine.title}",
                               mark_paths(machine, sheet.width, sheet.height)).encode("utf-8")
    if "dxf" in machine.cut_files:
        out["dxf"] = sheet_dxf(cut)
    return out
