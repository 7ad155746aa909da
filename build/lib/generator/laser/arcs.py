"""Arcs found again in polygon rings, for the DXF writer.

Parts are shapely geometry, where a round hole is a 64-gon. A laser (and the DXF) can do better:
a whole circle is two vertices joined by half-circle bulges, an arc inside a contour is one
bulged segment; exact, and a fraction of the size. The games make their circles with shapely's
buffer, so the circle is found from the ring, and only where the ring is provably within
`tol` of it: every point of the polyline is within `tol` of the arc and the reverse (a Hausdorff
distance), so a ring that merely looks round stays a polyline.

Why that bound holds: the run of the polyline turns monotonically round the centre, less than a
whole turn, so projecting each point of it radially onto the circle pairs it with an arc point
at the same angle, and back. A point's distance to its partner is the difference of their radii.
On a segment the distance to the centre lies between the segment's nearest distance to the
centre and its farther endpoint's, so checking vertices and each segment's nearest point bounds
every point.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

TOL = 0.008              # mm: with rounding to 0.001 mm, the written contour stays within 0.01 mm
MIN_SEGMENTS = 4         # an arc replaces at least this many segments (else a polyline is as short)
MAX_STEP = math.pi / 4   # a segment of an arc turns at most this much round the centre
MAX_RADIUS = 5000.0      # mm: flatter than this is a straight run, left alone


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float


def _segment_distance(cx, cy, ax, ay, bx, by) -> float:
    """Distance from (cx, cy) to the segment a-b."""
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((cx - ax) * dx + (cy - ay) * dy) / L2))
    return math.hypot(ax + t * dx - cx, ay + t * dy - cy)


def _sweep(pts, cx, cy, closed: bool) -> float | None:
    """The signed angle the points turn round the centre, or None where they do not turn one way
    in steps of at most MAX_STEP."""
    angles = [math.atan2(y - cy, x - cx) for x, y in pts]
    if closed:
        angles.append(angles[0])
    total, sign = 0.0, 0
    for a, b in zip(angles, angles[1:]):
        step = (b - a + math.pi) % (2 * math.pi) - math.pi
        s = 1 if step > 0 else -1 if step < 0 else 0
        if s == 0 or abs(step) > MAX_STEP or (sign and s != sign):
            return None
        sign = s
        total += step
    return total


def _radial_error(pts, cx, cy, r, closed: bool) -> float:
    """The largest distance between the polyline and the circle, measured radially (see above)."""
    err = max(abs(math.hypot(x - cx, y - cy) - r) for x, y in pts)
    segs = zip(pts, pts[1:] + pts[:1]) if closed else zip(pts, pts[1:])
    for (ax, ay), (bx, by) in segs:
        err = max(err, r - _segment_distance(cx, cy, ax, ay, bx, by))
    return err


def circle_of(ring: list[tuple[float, float]], tol: float = TOL) -> Circle | None:
    """The circle a closed ring (no repeated last point) draws, if it is within tol of one."""
    n = len(ring)
    if n < 8:
        return None
    # The centre: the ring's area centroid (exact for a regular polygon, close for a near one).
    a = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        c = x0 * y1 - x1 * y0
        a += c
        cx += (x0 + x1) * c
        cy += (y0 + y1) * c
    if abs(a) < 1e-12:
        return None
    cx, cy = cx / (3 * a), cy / (3 * a)
    sweep = _sweep(ring, cx, cy, closed=True)
    if sweep is None or abs(abs(sweep) - 2 * math.pi) > 1e-6:
        return None
    far = max(math.hypot(x - cx, y - cy) for x, y in ring)
    near = min(_segment_distance(cx, cy, *p, *q) for p, q in zip(ring, ring[1:] + ring[:1]))
    r = (far + near) / 2             # halfway: the circle nearest every point of the ring
    if far - r > tol:
        return None
    return Circle(cx, cy, r)


def _circle_through_ends(run):
    """The circle through the run's two ends that best fits the points between: its centre is
    on the ends' perpendicular bisector, where the median inner point puts it (each inner point
    alone would put it at the one place equidistant from it and the ends). A run's end is often
    where an arc meets a straight, a little inside the circle; the middle points are on it."""
    (ax, ay), (bx, by) = run[0], run[-1]
    mx, my = (ax + bx) / 2, (ay + by) / 2
    cx_, cy_ = bx - ax, by - ay
    L = math.hypot(cx_, cy_)
    if L < 1e-9:
        return None
    nx, ny = -cy_ / L, cx_ / L
    half2 = (L / 2) ** 2
    ts = []
    for px, py in run[1:-1]:
        dx, dy = px - mx, py - my
        along = dx * nx + dy * ny
        if abs(along) > 1e-12:
            ts.append((dx * dx + dy * dy - half2) / (2 * along))
    if not ts:
        return None
    ts.sort()
    t = ts[len(ts) // 2]
    ux, uy = mx + t * nx, my + t * ny
    return ux, uy, math.hypot(ax - ux, ay - uy)


def _arc_bulge(run, tol: float) -> float | None:
    """The bulge of one arc from run[0] to run[-1] (through both), within tol of every point
    between; None if there is none. Bulge: tan(sweep / 4), positive counter-clockwise."""
    fit = _circle_through_ends(run)
    if fit is None or fit[2] > MAX_RADIUS:
        return None
    cx, cy, r = fit
    sweep = _sweep(run, cx, cy, closed=False)
    if sweep is None or abs(sweep) >= 2 * math.pi - 1e-6:
        return None
    if _radial_error(run, cx, cy, r, closed=False) > tol:
        return None
    return math.tan(sweep / 4)


def _turns(pts, closed: bool) -> list[float]:
    """The turning angle at each vertex (0 at an open polyline's ends)."""
    n = len(pts)
    out = []
    for i in range(n):
        if not closed and (i == 0 or i == n - 1):
            out.append(0.0)
            continue
        (ax, ay), (bx, by), (cx, cy) = pts[i - 1], pts[i], pts[(i + 1) % n]
        a1, a2 = math.atan2(by - ay, bx - ax), math.atan2(cy - by, cx - bx)
        out.append((a2 - a1 + math.pi) % (2 * math.pi) - math.pi)
    return out


def with_bulges(pts: list[tuple[float, float]], closed: bool, tol: float = TOL) -> list[tuple[float, float, float]]:
    """The polyline as (x, y, bulge) vertices: each run of at least MIN_SEGMENTS segments that is
    within tol of one arc becomes one bulged segment; the rest is kept as it is."""
    n = len(pts)
    if n < MIN_SEGMENTS + 1:
        return [(x, y, 0.0) for x, y in pts]
    turns = _turns(pts, closed)

    def smooth(t: float) -> bool:  # a vertex inside an arc of the fineness shapely makes
        return 1e-9 < abs(t) < MAX_STEP
    if not any(smooth(t) for t in turns):
        return [(x, y, 0.0) for x, y in pts]   # all corners (a finger-jointed panel, a dash)
    if closed:
        # Start at a corner, so no arc is cut in two where the ring closes.
        start = next((i for i, t in enumerate(turns) if not smooth(t)), 0)
        pts, turns = pts[start:] + pts[:start], turns[start:] + turns[:start]
        walk = pts + pts[:1]
        turns = turns + turns[:1]
    else:
        walk = pts
    out = []
    i, last = 0, len(walk) - 1
    while i < last:
        # The longest run from i whose inner vertices all turn the same small way ...
        end = i + 1
        while end < last and smooth(turns[end]) and (end == i + 1 or turns[end] * turns[i + 1] > 0):
            end += 1
        # ... is most often one arc from corner to corner; if not, the longest arc within it, from
        # the shortest one that counts, by galloping then halving (a run that is one arc is
        # nearly always one arc in its shorter parts too; where not, two arcs, each within tol).
        j = end
        bulge = _arc_bulge(walk[i:j + 1], tol) if j - i >= MIN_SEGMENTS else None
        if bulge is None and end - i > MIN_SEGMENTS:
            j = i + MIN_SEGMENTS
            bulge = _arc_bulge(walk[i:j + 1], tol)
        if bulge is not None and j < end:
            step = 1
            while step:
                b = _arc_bulge(walk[i:j + step + 1], tol) if j + step <= end else None
                if b is not None:
                    j, bulge = j + step, b
                    step *= 2
                else:
                    step //= 2
        if bulge is not None:
            out.append((*walk[i], bulge))
            i = j
        else:
            out.append((*walk[i], 0.0))
            i += 1
    if not closed:
        out.append((*walk[last], 0.0))
    return out
