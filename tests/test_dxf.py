"""The DXF a laser sheet is written as, read back with ezdxf: every contour the nominal kerf-
compensated geometry within 0.01 mm (arcs and circles rebuilt from their bulges), written once,
clean in ezdxf's audit, and the same bytes from one build to the next."""
import math
import os
import re
import subprocess
import sys
from datetime import datetime

import pytest
import shapely
from shapely.geometry import LinearRing, LineString, Point, Polygon, box
from shapely.strtree import STRtree

from conftest import ROOT
from generator.games.cubes.kit import cube_parts, cup_layer, load_kit, pawn_plates
from generator.games.mille_bornes.shoe import load_shoe, shoe_parts
from generator.laser.arcs import circle_of, with_bulges
from generator.laser.export import sheet_dxf
from generator.laser.nest import nest
from generator.laser.parts import Part, text_polygons, text_score_lines
from generator.spec import load_spec

TOLERANCE = 0.01   # mm: the brief's bound on how far a written contour may be from the part's

# (ezdxf is imported by the functions that read a DXF, not at the top: it cost every test process
# that collects this module 0.3 s.)


# ---------------------------------------------------------------- reading a DXF back

def bulged_points(verts, closed: bool) -> list[tuple[float, float]]:
    """(x, y, bulge) vertices as points, each arc (as ezdxf reads the bulge: bulge_to_arc) sampled
    within 0.00025 mm of itself."""
    from ezdxf.math import bulge_to_arc
    pts = []
    n = len(verts)
    for i in range(n if closed else n - 1):
        (x0, y0, b), (x1, y1, _) = verts[i], verts[(i + 1) % n]
        pts.append((x0, y0))
        if b:
            centre, start, end, r = bulge_to_arc((x0, y0), (x1, y1), b)
            sweep = (end - start) % (2 * math.pi)
            step = 2 * math.acos(1 - 2.5e-4 / r) if r > 2.5e-4 else sweep
            k = max(2, math.ceil(sweep / step))
            angles = [start + sweep * j / k for j in range(1, k)]
            if b < 0:          # clockwise: ezdxf gives the arc counter-clockwise from end to start
                angles.reverse()
            pts += [(centre.x + r * math.cos(a), centre.y + r * math.sin(a)) for a in angles]
    if not closed:
        pts.append(verts[-1][:2])
    return pts


def dxf_circle(verts) -> tuple[float, float, float] | None:
    """(cx, cy, r) of a closed polyline that is a whole circle: two vertices, each bulge a half
    circle turning the same way, both arcs (as ezdxf reads them) of one centre and radius."""
    from ezdxf.math import bulge_to_arc
    if len(verts) != 2 or not all(abs(abs(b) - 1) < 1e-12 for *_, b in verts) or verts[0][2] != verts[1][2]:
        return None
    (c0, *_, r0), (c1, *_, r1) = (bulge_to_arc(a[:2], b[:2], a[2]) for a, b in (verts, verts[::-1]))
    if abs(c0.x - c1.x) > 1e-9 or abs(c0.y - c1.y) > 1e-9 or abs(r0 - r1) > 1e-9:
        return None
    return c0.x, c0.y, r0


def dxf_shapes(doc, layer: str, circles: dict | None = None) -> list:
    """The layer's contours (LinearRing) and lines (LineString), arcs rebuilt. Into circles, if
    given: the index of each contour that is a whole circle, and its (cx, cy, r); its ring here is
    a 64-gon with the circle's bounds (what assert_same_shapes reads of it: it measures the circle)."""
    shapes = []
    for e in doc.modelspace():
        if e.dxf.layer != layer:
            continue
        if e.dxftype() == "LWPOLYLINE":
            verts = [tuple(p) for p in e.get_points("xyb")]
            circle = dxf_circle(verts) if e.closed and circles is not None else None
            if circle:
                circles[len(shapes)] = circle
                cx, cy, r = circle
                shapes.append(LinearRing(Point(cx, cy).buffer(r, quad_segs=16).exterior.coords))
                continue
            pts = bulged_points(verts, e.closed)
            shapes.append(LinearRing(pts) if e.closed else LineString(pts))
        elif e.dxftype() == "HATCH":
            for path in e.paths:
                shapes.append(LinearRing(bulged_points([tuple(v) for v in path.vertices], True)))
        else:
            raise AssertionError(f"unexpected {e.dxftype()} on {layer}")
    return shapes


def nominal_shapes(sheet, layer: str) -> list:
    """What the sheet says each layer is, in DXF coordinates (y up)."""
    H = sheet.height

    def flip(g):
        return shapely.transform(g, lambda xy: xy * (1, -1) + (0, H))

    def rings(geom):
        polys = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
        return [flip(LinearRing(r.coords)) for p in polys for r in [p.exterior, *p.interiors]]
    out = []
    for part, cut in zip(sheet.parts, sheet.cut_paths):
        if layer == "CUT":
            out += rings(cut) + [flip(line) for line in part.cuts]
        elif layer == "SCORE":
            out += [flip(LinearRing(line.coords[:-1]) if line.is_closed else line) for line in part.score]
        else:
            out += [r for poly in part.engraved() for r in rings(poly)]
    return out


def hausdorff(nominal, written) -> float:
    """The Hausdorff distance, as GEOS measures it from each vertex of either to the other
    (segments included). The written shape's arcs are sampled within 0.00025 mm; the nominal
    one is cut into 0.1 mm pieces, so that the middle of a chord, where it is farthest from
    the arc, is measured too (to within (0.1 mm)^2 / 8r, 0.0005 mm for the smallest cups)."""
    return shapely.hausdorff_distance(shapely.segmentize(nominal, 0.1), written)


def circle_hausdorff(ring, cx: float, cy: float, r: float) -> float:
    """The Hausdorff distance between a closed ring round (cx, cy) and the circle (cx, cy, r),
    exactly: the most |d - r| of the ring's points, d their distance from the centre (d at most at
    a vertex, at least where GEOS measures it). No point of the circle lies farther from the ring:
    the ray from the centre through it meets the ring at such a point."""
    centre = Point(cx, cy)
    assert shapely.polygons(ring).contains(centre), "the ring is not round the circle's centre"
    far = max(math.dist((cx, cy), p) for p in ring.coords)
    return max(far - r, r - shapely.distance(centre, ring))


def assert_same_shapes(written: list, nominal: list, layer: str, circles: dict | None = None) -> None:
    """Each nominal shape is written once, within TOLERANCE (Hausdorff) of itself. circles (as
    dxf_shapes gives them): the written contours that are whole circles, measured as circles (the
    cup layer's 400 cups took 0.5 s as sampled rings)."""
    assert len(written) == len(nominal), layer
    circles = circles or {}
    tree = STRtree(written)
    used = set()

    def distance(shape, i):
        return circle_hausdorff(shape, *circles[i]) if i in circles else hausdorff(shape, written[i])
    t = 2 * TOLERANCE
    for shape in nominal:
        # Within TOLERANCE of each other, two shapes' bounds are within TOLERANCE too. (Those in
        # the box round the shape's bounds, 2 TOLERANCE out: all that its buffer's envelope took in.)
        x0, y0, x1, y1 = shape.bounds
        near = [i for i in tree.query(box(x0 - t, y0 - t, x1 + t, y1 + t))
                if max(abs(a - b) for a, b in zip(shape.bounds, written[i].bounds)) <= TOLERANCE]
        assert near, f"{layer}: nothing written near {shape.wkt[:80]}"
        d, best = min((distance(shape, i), i) for i in near)
        assert d <= TOLERANCE, f"{layer}: written {d:.4f} mm from its part"
        assert type(written[best]) is type(shape), layer
        used.add(best)
    assert len(used) == len(written), f"{layer}: a shape written twice"


def write_and_read(sheet, tmp_path, name="sheet.dxf"):
    import ezdxf
    path = tmp_path / name
    path.write_bytes(sheet_dxf(sheet))
    doc = ezdxf.readfile(path)
    auditor = doc.audit()
    assert not auditor.has_errors and not auditor.has_fixes, [str(e) for e in auditor.errors + auditor.fixes]
    return path, doc


# ---------------------------------------------------------------- real kits

@pytest.fixture(scope="module")
def kit():
    return load_kit(load_spec(ROOT / "boards" / "cubes_kit.yaml"))


def one_sheet(parts, kit):
    sheets = nest(parts, *kit.sheet, kerf=kit.kerf, margin=kit.margin, spacing=kit.spacing)
    return sheets[0]


def test_cup_layer_reads_back_exact_with_its_cups_as_circles(kit, tmp_path):
    sheet = one_sheet([cup_layer(kit)], kit)
    path, doc = write_and_read(sheet, tmp_path)
    for layer in ("CUT", "SCORE", "ENGRAVE"):
        circles = {}
        assert_same_shapes(dxf_shapes(doc, layer, circles), nominal_shapes(sheet, layer), layer, circles)
        assert len(circles) == (400 if layer == "CUT" else 0)
    cuts = [e for e in doc.modelspace().query("LWPOLYLINE") if e.dxf.layer == "CUT"]
    assert all(e.closed for e in cuts)
    cups = [e for e in cuts if len(e) == 2]
    assert len(cups) == 400 and len(cuts) == 401          # every cup: two vertices, two half circles
    assert all([p[4] for p in e.get_points("xyseb")] == [1.0, 1.0] for e in cups)
    r = (kit.peg_d + kit.fit) / 2 - kit.kerf / 2           # the cup's radius as cut
    radii = [math.dist(*[p[:2] for p in e.get_points("xy")]) / 2 for e in cups]
    assert max(radii) - min(radii) < 0.002 and sum(radii) / len(radii) == pytest.approx(r, abs=0.003)
    # The engraved grid as the closed polylines round it (outline and holes), straight segments
    # only: what a laser program fills, and a reader without arcs reads alike.
    engraved = [e for e in doc.modelspace() if e.dxf.layer == "ENGRAVE"]
    assert {e.dxftype() for e in engraved} == {"LWPOLYLINE"} and all(e.closed for e in engraved)
    assert not any(b for e in engraved for *_, b in e.get_points("xyb"))
    assert path.stat().st_size < 150_000                    # 1.2 MB with 64-gons and 17 digits


def test_cube_pawn_and_peg_parts_read_back_exact(kit, tmp_path):
    """Finger joints, the ring's recess, the pegs (cut round, the cross of notches engraved), the
    peg marks (scored circles), the king's crown, pawns' heads (arcs inside a contour, half discs
    engraved, as polygons: engraving has no arcs) and the single-stroke labels."""
    parts = cube_parts(kit) + cube_parts(kit, king=True) + pawn_plates(kit, 1) + pawn_plates(kit, 2)
    for p in parts:
        p.material, p.quantity = "", 1
    sheet = one_sheet(parts, kit)
    assert len(sheet.parts) == len(parts)
    _, doc = write_and_read(sheet, tmp_path)
    for layer in ("CUT", "SCORE", "ENGRAVE"):
        assert_same_shapes(dxf_shapes(doc, layer), nominal_shapes(sheet, layer), layer)
    bulged = [e for e in doc.modelspace().query("LWPOLYLINE") if any(p[4] for p in e.get_points("xyseb"))]
    circles = [e for e in bulged if len(e) == 2]
    assert len(circles) == 1 + 2 + 2 * 4                    # the ring's recess, 2 pegs, 4 peg marks a bottom
    heads = [e for e in bulged if len(e) > 2 and e.dxf.layer == "CUT"]
    assert len(heads) == 4                                   # each pawn plate's head: arcs in its outline
    assert all(e.dxf.layer != "ENGRAVE" for e in bulged)


def test_shoe_parts_read_back_exact(tmp_path):
    """Long arcs (the base's dished ends, the ribs), living-hinge slits (open cuts)."""
    s = load_shoe(load_spec(ROOT / "boards" / "mille_bornes_shoe.yaml"))
    parts = shoe_parts(s)
    sheet = nest(parts, *s.sheet, kerf=s.kerf, margin=s.margin, spacing=s.spacing)[0]
    _, doc = write_and_read(sheet, tmp_path)
    for layer in ("CUT", "SCORE"):
        assert_same_shapes(dxf_shapes(doc, layer), nominal_shapes(sheet, layer), layer)
    open_cuts = [e for e in doc.modelspace().query("LWPOLYLINE") if e.dxf.layer == "CUT" and not e.closed]
    assert len(open_cuts) == sum(len(p.cuts) for p in sheet.parts) > 0
    base = max(doc.modelspace().query("LWPOLYLINE[layer=='CUT']"), key=len)
    assert sum(1 for p in base.get_points("xyseb") if p[4]) >= 2   # the dished ends, as arcs
    # The ribs are 256-gons of a 150 mm radius: their chords lie 0.011 mm inside the circle, more
    # than the tolerance, so they stay the polygons they are.


def test_coordinates_to_a_thousandth_and_short(kit, tmp_path):
    part = Part("plate", box(0, 0, 40, 30).difference(Point(20, 15).buffer(5, quad_segs=16)))
    part.score = text_score_lines("A1", 3, 8, 4)
    sheet = nest([part], 100, 60, kerf=0.17)[0]
    text = sheet_dxf(sheet).decode()
    entities = text[text.index("ENTITIES"):text.index("ENDSEC", text.index("ENTITIES"))]
    values = re.findall(r"\n (?:10|20)\n([^\n]*)", entities)
    assert values and all(re.fullmatch(r"-?\d+(\.\d{1,3})?", v) for v in values), values[:5]


# ---------------------------------------------------------------- arcs found only where they are

def test_circle_found_in_a_buffered_point_and_not_in_lookalikes():
    c = circle_of(list(Point(3, 4).buffer(2.6, quad_segs=16).exterior.coords)[:-1])
    assert c and (c.cx, c.cy) == pytest.approx((3, 4), abs=1e-9) and c.r == pytest.approx(2.6, abs=0.002)
    octagon = list(Point(0, 0).buffer(5, quad_segs=2).exterior.coords)[:-1]
    ellipse = list(shapely.affinity.scale(Point(0, 0).buffer(5, quad_segs=16), 1.01, 1).exterior.coords)[:-1]
    square = list(box(0, 0, 1, 1).exterior.coords)[:-1]
    assert circle_of(octagon) is None and circle_of(ellipse) is None and circle_of(square) is None


def test_arcs_inside_a_contour_stay_within_the_tolerance():
    """A stadium (two half circles joined by straights) and a keyhole: arcs where the ring is
    round, straights where it is not; a coarse polygon stays one; a wobbly curve gets arcs only
    where they fit: every rebuilt ring is within 0.01 mm of its polygon."""
    stadium = LineString([(0, 0), (20, 0)]).buffer(4, quad_segs=16)
    keyhole = Point(0, 0).buffer(5, quad_segs=16).union(box(-1.5, -12, 1.5, 0))
    coarse = Point(0, 0).buffer(10, quad_segs=3).union(box(0, -12, 12, 0))   # 30-degree steps: 0.34 mm off
    wobbly = Polygon([(10 * math.cos(a) * (1 + 0.02 * math.sin(7 * a)), 10 * math.sin(a))
                      for a in (2 * math.pi * k / 80 for k in range(80))])
    for poly, arcs_wanted in ((stadium, 2), (keyhole, 1), (coarse, 0), (wobbly, None)):
        ring = list(poly.exterior.coords)[:-1]
        verts = with_bulges(ring, closed=True)
        assert arcs_wanted is None or sum(1 for v in verts if v[2]) == arcs_wanted
        rebuilt = LinearRing(bulged_points(verts, True))
        assert hausdorff(poly.exterior, rebuilt) <= TOLERANCE


def test_engraved_text_keeps_its_counters_turned_the_other_way(tmp_path):
    """An engraved letter is its outline and its counters, closed polylines turned opposite ways
    (outline counter-clockwise, y up): filled even-odd or nonzero, a counter stays bare."""
    part = Part("plate", box(0, 0, 40, 30))
    part.engrave = text_polygons("O8", 5, 20, 12)
    sheet = nest([part], 100, 60)[0]
    _, doc = write_and_read(sheet, tmp_path)
    assert not doc.modelspace().query("HATCH")
    rings = [LinearRing([p[:2] for p in e.get_points("xy")])
             for e in doc.modelspace().query("LWPOLYLINE[layer=='ENGRAVE']")]
    assert len(rings) == 5                                  # O: outline and counter; 8: two counters
    outlines = [r for r in rings if r.is_ccw]
    counters = [r for r in rings if not r.is_ccw]
    assert len(outlines) == 2 and len(counters) == 3
    assert all(any(Polygon(c).within(Polygon(o)) for o in outlines) for c in counters)
    assert_same_shapes(dxf_shapes(doc, "ENGRAVE"), nominal_shapes(sheet, "ENGRAVE"), "ENGRAVE")


# ---------------------------------------------------------------- the same bytes every build

WRITE_ONE = """
import sys
from shapely.geometry import Point, box
from generator.laser.export import sheet_dxf
from generator.laser.nest import nest
from generator.laser.parts import Part, text_score_lines
part = Part("plate", box(0, 0, 40, 30).difference(Point(20, 15).buffer(5, quad_segs=16)))
part.score = text_score_lines("A1", 3, 8, 4)
others = [Part(f"tab {k}", box(0, 0, 10, 5 + k)) for k in range(3)]
sys.stdout.buffer.write(sheet_dxf(nest([part] + others, 100, 60, kerf=0.2)[0]))
"""


def write_in_processes(*environments: dict) -> list[bytes]:
    """The same sheet written by fresh processes at once, each with its environment."""
    procs = []
    for extra in environments:
        env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
        env.update(PYTHONPATH=str(ROOT), **extra)
        procs.append(subprocess.Popen([sys.executable, "-c", WRITE_ONE], env=env, cwd=ROOT,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    outs = []
    for p in procs:
        out, err = p.communicate()
        assert p.returncode == 0, err.decode()
        outs.append(out)
    return outs


def test_two_builds_write_the_same_bytes():
    """No clock time, no random GUID, handles in one order: two processes (other hash seeds, a
    later clock) write the same file; SOURCE_DATE_EPOCH, where given, is the date written."""
    from ezdxf.tools.juliandate import calendardate
    # (ezdxf alone orders its CLASS section differently under these two hash seeds)
    first, dated = write_in_processes({"PYTHONHASHSEED": "1"},
                                      {"PYTHONHASHSEED": "5", "SOURCE_DATE_EPOCH": "1700000000"})
    dates = rb"(\$TDU?(?:CREATE|UPDATE)\n 40\n)([^\n]*)\n"
    # (read from the text: ezdxf, loading a file, sets its creation date to the day it loads it)
    assert [calendardate(float(v)) for _, v in re.findall(dates, first)] == [datetime(2000, 1, 1)] * 4
    assert [calendardate(float(v)) for _, v in re.findall(dates, dated)] == [datetime(2023, 11, 14, 22, 13, 20)] * 4
    assert b"ENTITIES" in first and b"FINGERPRINTGUID" in first
    assert re.sub(dates, rb"\1date\n", dated) == re.sub(dates, rb"\1date\n", first)   # nothing else differs


@pytest.mark.parametrize("four", [False, True], ids=["2p", "4p"])
def test_cube_sheets_stay_within_400_kb_and_label_every_part(four, tmp_path):
    """The cube material's sheets (hundreds of walls, tops and bottoms, each with its scored
    label) as the build writes them, each DXF at most 400 KB; a wall says A or B (its shape), a
    bottom says which face goes down, and every label lies on its part."""
    from generator.products.laser_kit import add_laser_kit
    from generator.games.cubes.kit import kit_parts
    from generator.outputs import Plan
    spec = load_spec(ROOT / "boards" / "cubes_kit.yaml")
    kit = load_kit(spec, four)
    parts = [p for p in kit_parts(kit) if p.material == "cube"]
    assert {p.name for p in parts} >= {"front", "left", "top", "bottom"}
    for p in parts:
        assert all(s.within(p.outline) for s in p.score), p.label
    plan = Plan()
    add_laser_kit(spec, parts, kit.sheet, kit.kerf, kit.margin, kit.spacing, plan, "cubes")
    plan.write_into(tmp_path)
    dxfs = sorted(tmp_path.rglob("*.dxf"))
    assert len(dxfs) >= 2
    for f in dxfs:
        assert f.stat().st_size <= 400_000, (f.name, f.stat().st_size)
    for p in parts:
        if p.name in ("front", "back", "left", "right"):
            letter = "B" if p.name in ("left", "right") else "A"
            king = p.label.startswith("king")
            assert p.label == f"{'king' if king else 'cube'} wall {letter}"
            assert len(p.score) == len(text_score_lines(f"{'king ' if king else ''}{letter}", 0, 0, 4.0))
        if p.name == "bottom":
            assert len(p.score) == 4 * 3 + len(text_score_lines("down", 0, 0, 2.6))   # circle, cross


@pytest.mark.slow      # (a Python started to see what it imports; the sheets below, quick, are ezdxf's skeleton)
def test_the_stored_skeleton_is_what_ezdxf_makes_and_dates_agree():
    """The document around the entities is stored (writing a DXF imports no ezdxf); it is exactly
    what the installed ezdxf makes (scripts/update_dxf_skeleton.py writes it again if not), and the
    SOURCE_DATE_EPOCH date is computed as ezdxf computes Julian dates."""
    import json
    from ezdxf.tools.juliandate import juliandate
    from generator.laser.export import SKELETON_FILE, SKELETON_SIZE, _julian_date, ezdxf_skeleton
    assert json.loads(SKELETON_FILE.read_text(encoding="utf-8")) == ezdxf_skeleton(*SKELETON_SIZE)
    for when in (datetime(2000, 1, 1), datetime(2023, 11, 14, 22, 13, 20), datetime(1999, 2, 28, 23, 59, 59),
                 datetime(2100, 3, 1, 0, 0, 1)):
        assert _julian_date(when) == juliandate(when)
    code = ("import sys; sys.path.insert(0, '.')\n"
            "from shapely.geometry import box\n"
            "from generator.laser.nest import nest\n"
            "from generator.laser.parts import Part\n"
            "from generator.laser.export import sheet_dxf\n"
            "sheet_dxf(nest([Part('p', box(0, 0, 10, 10))], 20, 20)[0])\n"
            "print('ezdxf' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("size", [(600, 400), (123.5, 77.25), (297.0, 210.0)])
def test_a_sheet_from_the_skeleton_is_as_ezdxf_would_write_it(size):
    """Sheet size and handles put into the stored skeleton give the text ezdxf writes for that
    sheet (entities and all): the same header, tables and objects, a valid handle seed."""
    from generator.laser.export import _EMPTY_ENTITIES, ezdxf_skeleton
    sheet = nest([Part("p", box(0, 0, 10, 10)), Part("q", Point(5, 5).buffer(3))], *size)[0]
    ours = sheet_dxf(sheet).decode()
    theirs = ezdxf_skeleton(*size)
    entities = ours[ours.index("ENTITIES\n") + len("ENTITIES\n"):ours.index("  0\nENDSEC\n  0\nSECTION\n  2\nOBJECTS")]
    count = entities.count("  0\nLWPOLYLINE\n") + entities.count("  0\nHATCH\n")
    seed = "%X" % (int(theirs["first_handle"], 16) + count)
    expected = (theirs["text"].replace(f"$HANDSEED\n  5\n{theirs['first_handle']}\n", f"$HANDSEED\n  5\n{seed}\n")
                .replace(_EMPTY_ENTITIES, f"  0\nSECTION\n  2\nENTITIES\n{entities}  0\nENDSEC\n"))
    assert count == 2 and ours == expected
    import ezdxf
    doc = ezdxf.read(__import__("io").StringIO(ours))
    assert len(doc.audit().errors) == 0 and len(doc.modelspace()) == 2
