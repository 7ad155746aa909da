"""Every label of every assembly drawing, in every game's build, lies on or points at the part it
names, where that part shows (not under another part drawn over it); and no scored label is drawn
on a face seen from behind (it would read mirrored). The sheets are caught where the builds hand
them to the page layout, so these are the drawings the PDFs print."""
from __future__ import annotations

import pytest
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from conftest import ROOT
from generator.layout import assembly
from generator.layout.assembly import Plan, Scene, iso

TOLERANCE = 0.6     # mm on the page: a leader's dot this near its part's edge points at it


@pytest.fixture(scope="module")
def sheets():
    """(file stem, Assembly) of every assembly sheet the five games build, A4: caught where the
    products hand them to add_assembly (the assembly sheets' product, and the tuck box's). Only the
    products that make assembly sheets (those whose module has add_assembly) are run: the rules
    sheets, card sheets and laser kits cost twice as much again and hand over no sheet."""
    import importlib
    import generator.products as products
    import generator.products.assembly_sheet as assembly_sheet
    from generator.games import GAMES, load_game_specs
    from generator.options import BuildOptions
    from generator.outputs import Plan as BuildPlan
    from generator.pipeline import plan_game
    caught = []
    real, every = assembly_sheet.add_assembly, products.products
    makers = tuple(p for p in every() if hasattr(importlib.import_module(p.module), "add_assembly"))
    assert {p.name for p in makers} == {"assembly", "tuck-box"}

    def add_assembly(plan, stem, sheet, opts, *args, **kwargs):
        caught.append((stem, sheet))
        return real(plan, stem, sheet, opts, *args, **kwargs)
    for p in makers:
        importlib.import_module(p.module).add_assembly = add_assembly
    products.products = lambda: makers          # make_files asks it for the products to run
    try:
        plan = BuildPlan()
        for game in ("mille-bornes", "sorry", "capitals", "cubes", "continuo"):
            assert game in GAMES
            plan_game(game, load_game_specs(game, ROOT), BuildOptions(), plan=plan)
    finally:
        products.products = every
        for p in makers:
            importlib.import_module(p.module).add_assembly = real
    return caught


def _figures(sheets):
    for stem, sheet in sheets:
        for k, step in enumerate(sheet.steps, 1):
            if step.figure is not None:
                yield f"{stem} step {k}", step.figure


def _scale(fig) -> float:
    """The figure's scale on the page, as the sheet lays it out (A4, two steps to a row)."""
    width = 210 - 2 * (assembly.SAFE_MARGIN + 7.0)
    return assembly._figure_box(fig, (width - 6.0) / 2)[0]


def _face_polygon(ring) -> Polygon:
    return Polygon([iso(p) for p in ring]).buffer(0)


def _scene_faults(name: str, sc: Scene, tol: float) -> list[str]:
    order = sc.drawn_order()
    faults = []
    for c in sc.callouts:
        p = Point(iso(c.at))
        mine = [k for k, s in enumerate(order) if s.part == c.part]
        if not mine:
            faults.append(f"{name}: \"{c.text}\" names {c.part!r}, which the drawing has not")
            continue
        shapes = [_face_polygon(f.rings[0]) for k in mine for f in order[k].faces if f.fill is not None]
        shapes = [g for g in shapes if g.area > 1e-9] or \
            [Polygon([iso(q) for q in f.rings[0]]).buffer(tol / 2) for k in mine for f in order[k].faces]
        if unary_union(shapes).distance(p) > tol:
            faults.append(f"{name}: \"{c.text}\" points {unary_union(shapes).distance(p):.1f} mm off {c.part!r}")
            continue
        # Not hidden: no part drawn after every face of the named part that holds the point covers it
        # by more than the tolerance.
        last = max(k for k in mine if any(_face_polygon(f.rings[0]).distance(p) <= tol
                                          for f in order[k].faces if f.fill is not None) or k == mine[0])
        for s in order[last + 1:]:
            if s.part == c.part:
                continue
            for f in s.faces:
                if f.fill is not None and _face_polygon(f.rings[0]).buffer(-tol).contains(p):
                    faults.append(f"{name}: \"{c.text}\" points at {c.part!r} under {s.part or 'a part'}")
                    break
            else:
                continue
            break
    return faults


def _plan_faults(name: str, plan: Plan, tol: float) -> list[str]:
    faults = []
    x0, y0, x1, y1 = plan._bounds()
    for c in plan.callouts:
        p = Point(c.at)
        named = [g for (g, _), part in zip(plan.items, plan.parts) if part == c.part]
        if not named:
            faults.append(f"{name}: \"{c.text}\" names {c.part!r}, which the drawing has not")
            continue
        if not (x0 - tol <= p.x <= x1 + tol and y0 - tol <= p.y <= y1 + tol):
            faults.append(f"{name}: \"{c.text}\" points outside the drawing")
        off = unary_union(named).distance(p)
        if off > tol:
            faults.append(f"{name}: \"{c.text}\" points {off:.1f} mm off {c.part!r}")
            continue
        k = max(i for i, part in enumerate(plan.parts) if part == c.part
                and plan.items[i][0].distance(p) <= tol)
        for (g, style), part in zip(plan.items[k + 1:], plan.parts[k + 1:]):
            if part != c.part and style.fill is not None and g.geom_type in ("Polygon", "MultiPolygon") \
                    and g.buffer(-tol).contains(p):
                faults.append(f"{name}: \"{c.text}\" points at {c.part!r} under {part or 'an item'}")
    return faults


def test_every_label_lies_on_or_points_at_the_part_it_names(sheets):
    assert len({stem for stem, _ in sheets}) >= 10
    faults, labels = [], 0
    for name, fig in _figures(sheets):
        tol = TOLERANCE / _scale(fig)
        labels += len(fig.callouts)
        faults += (_scene_faults if isinstance(fig, Scene) else _plan_faults)(name, fig, tol)
    assert labels >= 30
    assert not faults, "\n".join(faults)


def _signed_area(ring) -> float:
    pts = [iso(p) for p in ring]
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(pts, pts[1:] + pts[:1])) / 2


def test_no_scored_label_reads_mirrored(sheets):
    """A solid's marks lie on its near face (the last filled face): drawn over a face whose
    outline runs the other way round on the page than in the part, they read mirrored. And the
    labels the sheets tell the maker to find are drawn: the partition's, the king cubes' walls'."""
    mirrored, marked = [], set()
    for name, fig in _figures(sheets):
        if not isinstance(fig, Scene):
            continue
        for s in fig.solids:
            filled = [f for f in s.faces if f.fill is not None]
            marks = [f for f in s.faces if f.fill is None and f.stroke is not None]
            if marks and filled and len(s.faces) > 1:
                # The top face's exterior is counter-clockwise in the part (Scene.plate orients it):
                # on the page (y down) that is a positive shoelace area when it reads right.
                if _signed_area(filled[-1].rings[0]) < 0:
                    mirrored.append(f"{name}: {s.part or 'a part'}")
                marked.add((name.split(" step")[0], s.part))
    assert not mirrored, mirrored
    assert ("shoe", "partition") in marked
    assert any(stem.startswith("kit-") and part == "king wall A" for stem, part in marked), marked


def _sheet(sheets, stem):
    return next(sheet for s, sheet in sheets if s == stem)


def _label_box(fig, c, s):
    """A callout's label box on the page, in the figure's own page frame (as _callout draws it)."""
    from generator.draw.fonts import get_font
    from generator.layout.assembly import LABEL
    x0, y0, _, _ = fig._bounds()
    px, py = iso(c.at) if isinstance(fig, Scene) else c.at
    tx, ty = (px - x0) * s + c.dx, (py - y0) * s + c.dy
    w = get_font("sans").width(c.text, LABEL)
    from shapely.geometry import box
    return box(tx - w / 2 - 0.8, ty - LABEL * 0.85, tx + w / 2 + 0.8, ty + LABEL * 0.3)


def test_no_label_covers_an_arrow(sheets):
    """The frame's callout sat on its arrow (Cubes step 3): no label box over any arrow of its drawing."""
    from shapely.geometry import LineString
    faults = []
    for name, fig in _figures(sheets):
        if not isinstance(fig, Scene):
            continue
        s = _scale(fig)
        x0, y0, _, _ = fig._bounds()
        arrows = [LineString([((iso(p)[0] - x0) * s, (iso(p)[1] - y0) * s) for p in pts])
                  for pts, style in fig.lines if style.stroke == assembly.ACCENT]
        for c in fig.callouts:
            if any(_label_box(fig, c, s).intersects(a) for a in arrows):
                faults.append(f"{name}: \"{c.text}\"")
    assert not faults, faults


def test_the_rail_step_says_what_its_drawing_and_the_layers_show(sheets):
    """Cubes step 2: the crossings of a cell and its cups, counted in the drawing (the rail dashes'
    lines and the cup layer's holes inside the first cell), are the numbers its text gives."""
    for players in ("2p", "4p"):
        sheet = _sheet(sheets, f"kit-{players}")
        step = sheet.steps[1]
        plan = step.figure
        from generator.games.cubes.kit import load_kit  # noqa: F401  (the kit's own numbers below)
        x0, y0, x1, y1 = plan._bounds()
        cell = next(g for g, part in zip((g for g, _ in plan.items), plan.parts) if part == "cell edge")
        edge = cell.coords[0][0]
        m = x0 + 1                                          # the window starts 1 mm before the cells
        first = (m, m, edge, edge)
        from shapely.geometry import box
        inside = box(*first)
        cups = [g for (g, _), part in zip(plan.items, plan.parts) if part == "cup" and inside.contains(g)]
        dashes = [g for (g, _), part in zip(plan.items, plan.parts) if part == "rail dash" and inside.contains(g)]
        upright = {round(g.centroid.x, 3) for g in dashes if g.bounds[3] - g.bounds[1] > g.bounds[2] - g.bounds[0]}
        crossings = len(upright) ** 2
        assert (crossings, len(cups)) == (16, 4)
        text = " ".join(step.text.split())
        assert f"({crossings} a cell, {len(cups)} of them its cups)" in text
        assert "between two cups" not in text


def test_the_shoe_parts_list_names_every_part_as_its_scored_label(sheets):
    import re
    from generator.games.mille_bornes.shoe import shoe_parts
    from generator.games.mille_bornes.shoe_assembly import parts_list  # noqa: F401
    sheet = _sheet(sheets, "shoe")
    listed = {what: int(n) for n, what, _ in sheet.parts}
    scored: dict[str, int] = {}
    for p in shoe_parts(sheet_shoe(sheets)):
        name = re.sub(r" \d of \d$", "", p.label)
        scored[name] = scored.get(name, 0) + 1
    assert listed == scored


def sheet_shoe(sheets):
    from generator.games.mille_bornes.shoe import load_shoe
    from generator.spec import load_spec
    return load_shoe(load_spec(ROOT / "boards" / "mille_bornes_shoe.yaml"))


def test_the_partition_goes_down_into_its_mortises(sheets):
    """Shoe step 2: the partition is held above the walls; its arrow runs down from it to the base."""
    fig = _sheet(sheets, "shoe").steps[1].figure
    (a, b), = [pts for pts, style in fig.lines if style.stroke == assembly.ACCENT]
    partition = [p for s in fig.solids if s.part == "partition" for f in s.faces for r in f.rings for p in r]
    assert b[2] < a[2] <= min(p[2] for p in partition)
    assert b[2] < max(p[2] for s in fig.solids if s.part == "long wall" for f in s.faces for r in f.rings for p in r)


def _z_range(fig, part):
    zs = [p[2] for s in fig.solids if s.part == part for f in s.faces for r in f.rings for p in r]
    return min(zs), max(zs)


def test_the_mens_steps_show_the_feet_first_open_then_folded_in(sheets):
    """Sorry men: step 2 (the head folded) has the feet still running on down from the faces, step 3
    has them folded in flat under the man."""
    sheet = _sheet(sheets, "sorry-men")
    open_, folded = sheet.steps[1].figure, sheet.steps[2].figure
    feet_open = [s for s in open_.solids if s.part == "foot"]
    feet_in = [s for s in folded.solids if s.part == "foot"]
    assert feet_open and feet_in
    flat = [max(p[2] for f in s.faces for r in f.rings for p in r) - min(p[2] for f in s.faces for r in f.rings
                                                                          for p in r) for s in feet_in]
    assert max(flat) < 0.01                             # folded in: lying flat
    assert all(max(p[2] for f in s.faces for r in f.rings for p in r) - min(p[2] for f in s.faces for r in f.rings
                                                                              for p in r) > 1 for s in feet_open)


def test_what_a_step_says_to_look_for_is_drawn(sheets):
    """The cup layer's grid ("grid up") and the frame's letters ("letters along the bottom") are on
    their parts in the drawings (marks on the solid's face)."""
    sheet = _sheet(sheets, "kit-2p")
    for k, part, least in ((0, "cup layer", 20), (2, "frame", 20)):
        fig = sheet.steps[k].figure
        marks = sum(1 for s in fig.solids if s.part == part for f in s.faces if f.fill is None)
        assert marks >= least, part         # (the frame is four bars: its letters on one of them)


def test_the_tuck_boxes_side_tab_goes_under_the_front(sheets):
    """Tuck box step 2: the tube with its front's free edge open over the side tab, the tab drawn
    under the front (inside it), the front joined to its side."""
    for stem, sheet in sheets:
        if not stem.endswith("-tuckbox"):
            continue
        fig = sheet.steps[1].figure
        order = [s.part for s in fig.drawn_order()]
        assert order.index("glue tab") < order.index("front"), stem


def test_the_crossing_piece_is_drawn_above_the_first(sheets):
    """Capitals walls step 5: the second piece, held above the first, is drawn wholly over it (the
    two drawn interlocked came out as jumbled overlaps)."""
    fig = _sheet(sheets, "capitals_walls").steps[4].figure
    order = fig.drawn_order()
    firsts = [k for k, s in enumerate(order) if s.part.startswith("first ")]
    seconds = [k for k, s in enumerate(order) if s.part.startswith("second ")]
    assert max(firsts) < min(seconds)
    top = max(p[2] for s in order if s.part.startswith("first ") for f in s.faces for r in f.rings for p in r)
    assert min(p[2] for s in order if s.part.startswith("second ") for f in s.faces for r in f.rings for p in r) > top
