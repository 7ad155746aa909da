"""Vector symbols for the Mille Bornes cards, one function a symbol, each drawn in a 100 x 100
unit box (y down) that the face scales into place. Colours come from the deck's palette."""
from __future__ import annotations

import math

from ...colour import Colour
from ...draw import Drawing, PathBuilder, Style, rotate

Pal = dict  # palette name -> Colour


def _s(fill=None, stroke=None, width=2.0, **kw) -> Style:
    return Style(fill=fill, stroke=stroke, width=width, **kw)


def _star(cx, cy, r_out, r_in, points, turn=0.0):
    pts = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(turn + i * 180 / points - 90)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


# ------------------------------------------------------------------ road signals

def traffic_light(d: Drawing, pal: Pal, bg: Colour, lit: str) -> None:
    dark = pal["black"]
    d.rect(46, 80, 8, 20, _s(fill=pal["grey"]))
    d.rect(29, 2, 42, 80, _s(fill=dark), r=9)
    lamps = [("red", 17), ("yellow", 42), ("green", 67)]
    for name, cy in lamps:
        colour = pal[name]
        # a visor over each lamp, as on a real signal head
        d.path(PathBuilder().arc(50, cy, 13.5, 180, 360).close(), _s(fill=pal["slate"]))
        if name == lit:
            # The glow: three rays a side, 25 degrees apart and all alike, each clear of the
            # housing (it is 21 wide either side of the lamp), the same for any lamp lit.
            for side in (0, 180):
                for turn in (-25, 0, 25):
                    a = math.radians(side + turn)
                    d.line(50 + 25 * math.cos(a), cy + 25 * math.sin(a), 50 + 33 * math.cos(a),
                           cy + 33 * math.sin(a), _s(stroke=colour, width=3.0))
            d.circle(50, cy, 10.5, _s(fill=colour))
            d.circle(46.5, cy - 3.5, 3, _s(fill=colour.mix(pal["white"], 0.6)))
        else:
            d.circle(50, cy, 10.5, _s(fill=colour.mix(dark, 0.72)))


def speed_limit_sign(d: Drawing, pal: Pal, bg: Colour, limit: int) -> None:
    d.circle(50, 50, 45, _s(fill=pal["white"], stroke=pal["red"], width=10))
    d.fit_text(22, 34, 56, 32, str(limit), pal["black"], max_size=44)


def end_of_limit_sign(d: Drawing, pal: Pal, bg: Colour, limit: int) -> None:
    d.circle(50, 50, 47, _s(fill=pal["white"], stroke=pal["black"], width=2))
    d.fit_text(22, 34, 56, 32, str(limit), pal["grey"], max_size=44)
    # The end-of-restriction sign: a band of thin black stripes, bottom-left to top-right.
    from ...draw import Ellipse
    with d.group(rotate(-45, 50, 50), clip=Ellipse(50, 50, 46, 46, Style())):
        for k in range(-3, 4):
            d.rect(0, 50 + k * 4.2 - 1.1, 100, 2.2, _s(fill=pal["black"]))


# ------------------------------------------------------------------ wheels

def _tyre(d: Drawing, pal: Pal, cx, cy, r, bg: Colour) -> None:
    d.circle(cx, cy, r, _s(fill=pal["black"]))
    for k in range(18):  # tread blocks
        a = math.radians(k * 20)
        d.line(cx + (r - 6) * math.cos(a), cy + (r - 6) * math.sin(a),
               cx + (r + 0.5) * math.cos(a), cy + (r + 0.5) * math.sin(a), _s(stroke=pal["slate"], width=2.4))
    d.circle(cx, cy, r * 0.56, _s(fill=pal["light_grey"], stroke=pal["grey"], width=1.5))
    d.circle(cx, cy, r * 0.2, _s(fill=pal["grey"]))
    for k in range(5):
        a = math.radians(k * 72 - 90)
        d.circle(cx + r * 0.36 * math.cos(a), cy + r * 0.36 * math.sin(a), r * 0.05, _s(fill=pal["slate"]))


def flat_tyre(d: Drawing, pal: Pal, bg: Colour) -> None:
    _tyre(d, pal, 46, 50, 38, bg)
    # flattened where it meets the road
    d.rect(4, 84, 92, 16, _s(fill=bg))
    d.rect(10, 84, 72, 3.5, _s(fill=pal["black"]), r=1.5)
    d.line(4, 89, 96, 89, _s(stroke=pal["grey"], width=2))
    # the nail, and air hissing out
    d.line(70, 22, 84, 8, _s(stroke=pal["grey"], width=3.2))
    d.line(80, 4, 88, 12, _s(stroke=pal["grey"], width=5, cap="butt"))
    d.polygon(_star(76, 24, 12, 5, 8), _s(fill=pal["yellow"], stroke=pal["red"], width=1.5))


def spare_wheel(d: Drawing, pal: Pal, bg: Colour) -> None:
    _tyre(d, pal, 50, 50, 44, bg)
    # a green badge with a plus: a new wheel
    d.circle(80, 80, 14, _s(fill=pal["green"], stroke=pal["white"], width=2.5))
    d.rect(78, 71, 4, 18, _s(fill=pal["white"]))
    d.rect(71, 78, 18, 4, _s(fill=pal["white"]))


def puncture_proof(d: Drawing, pal: Pal, bg: Colour) -> None:
    _tyre(d, pal, 42, 44, 38, bg)
    shield = (PathBuilder().move(70, 46).line(94, 54).line(94, 72)
              .curve(94, 86, 82, 94, 70, 99).curve(58, 94, 46, 86, 46, 72).line(46, 54).close())
    d.path(shield, _s(fill=pal["green"], stroke=pal["white"], width=2.5))
    d.polyline([(58, 72), (67, 82), (83, 62)], _s(stroke=pal["white"], width=5))


# ------------------------------------------------------------------ petrol

def fuel_gauge_empty(d: Drawing, pal: Pal, bg: Colour) -> None:
    """A petrol gauge reading empty: each part in its own place and colour, so nothing merges
    at the E end (the red zone on the rim, the E inside it, the black needle between)."""
    cx, cy, r = 50, 60, 44
    d.path(PathBuilder().arc(cx, cy, r, 180, 360).close(), _s(fill=pal["white"], stroke=pal["black"], width=4))
    # The red zone along the rim at the empty end: a band, not a wedge.
    d.path(PathBuilder().arc(cx, cy, r - 4, 183, 213).arc(cx, cy, r - 12, 213, 183).close(), _s(fill=pal["red"]))
    for k in range(5):   # the scale: quarter, half and three quarters long, eighths between
        a = math.radians(225 + k * 22.5)
        inner = r - (14 if k in (0, 2, 4) else 10)
        d.line(cx + (r - 4) * math.cos(a), cy + (r - 4) * math.sin(a),
               cx + inner * math.cos(a), cy + inner * math.sin(a), _s(stroke=pal["black"], width=2.4, cap="butt"))
    # E and F inside the dial, above the needle's path.
    for letter, angle, colour in (("E", 216, pal["red"]), ("F", 324, pal["black"])):
        a = math.radians(angle)
        lx, ly = cx + 24 * math.cos(a), cy + 24 * math.sin(a)
        d.text(lx, ly + 4.7, letter, 13, colour, align="centre")
    a = math.radians(196)   # the needle rests in the red
    d.path(PathBuilder().polygon([(cx + (r - 10) * math.cos(a), cy + (r - 10) * math.sin(a)),
                                  (cx + 2.2 * math.cos(a + math.pi / 2), cy + 2.2 * math.sin(a + math.pi / 2)),
                                  (cx - 6 * math.cos(a), cy - 6 * math.sin(a)),
                                  (cx + 2.2 * math.cos(a - math.pi / 2), cy + 2.2 * math.sin(a - math.pi / 2))]),
           _s(fill=pal["black"]))
    d.circle(cx, cy, 5, _s(fill=pal["black"]))
    d.circle(cx, cy, 1.8, _s(fill=pal["grey"]))
    # Under the dial: a petrol pump, struck out in red.
    d.rect(42, 70, 14, 24, _s(fill=pal["black"]), r=2)
    d.rect(45, 73, 8, 6, _s(fill=pal["white"]), r=1)
    d.rect(40, 92, 18, 4, _s(fill=pal["black"]), r=1)
    d.path(PathBuilder().move(56, 75).line(61, 78).line(61, 88).line(58, 90), _s(stroke=pal["black"], width=2))
    d.line(35, 97, 65, 69, _s(stroke=pal["red"], width=4.5))


def petrol_pump(d: Drawing, pal: Pal, bg: Colour) -> None:
    d.rect(22, 14, 40, 80, _s(fill=pal["green"]), r=5)
    d.rect(18, 90, 48, 8, _s(fill=pal["slate"]), r=2)
    d.rect(28, 22, 28, 18, _s(fill=pal["white"]), r=2)
    d.fit_text(30, 26, 24, 10, "88.8", pal["black"], font="sans")
    d.rect(30, 48, 24, 6, _s(fill=pal["white"]), r=2)
    d.rect(24, 6, 36, 10, _s(fill=pal["yellow"]), r=3)
    hose = PathBuilder().move(62, 60).curve(78, 60, 84, 72, 84, 40).line(84, 30)
    d.path(hose, _s(stroke=pal["black"], width=3.5))
    d.polygon([(80, 30), (90, 30), (92, 20), (78, 18)], _s(fill=pal["black"]))
    d.line(86, 18, 86, 12, _s(stroke=pal["black"], width=3))


def jerrycan(d: Drawing, pal: Pal, bg: Colour) -> None:
    body = PathBuilder().move(38, 8).line(80, 8).curve(84, 8, 86, 10, 86, 14).line(86, 92) \
        .curve(86, 96, 84, 98, 80, 98).line(20, 98).curve(16, 98, 14, 96, 14, 92).line(14, 32).close()
    d.path(body, _s(fill=pal["red"], stroke=pal["dark_red"], width=2))
    for hx in (46, 58, 70):  # the three-bar handle
        d.rect(hx - 4, 14, 8, 10, _s(fill=pal["dark_red"]), r=2)
    d.polyline([(24, 42), (76, 88)], _s(stroke=pal["dark_red"], width=4))
    d.polyline([(76, 42), (24, 88)], _s(stroke=pal["dark_red"], width=4))
    d.rect(20, 38, 60, 54, _s(stroke=pal["dark_red"], width=3), r=4)
    d.rect(22, 8, 12, 12, _s(fill=pal["slate"]), r=2)  # spout cap


# ------------------------------------------------------------------ accident and repairs

def _car(d: Drawing, pal: Pal, x, y, length, body: Colour, facing: int = 1):
    """A small side-view car whose wheels stand on the line y (they touch it, they do not float
    over it); x is its left end; facing +1 right, -1 left. It is 0.41 * length tall."""
    k = length / 100
    with d.group((facing * k, 0, 0, k, x + (length if facing < 0 else 0), y - 41 * k)):
        d.rect(2, 14, 96, 18, _s(fill=body), r=6)
        d.polygon([(22, 15), (32, 0), (64, 0), (80, 15)], _s(fill=body))
        d.polygon([(28, 13), (35, 3), (48, 3), (48, 13)], _s(fill=pal["sky"]))
        d.polygon([(52, 13), (52, 3), (62, 3), (73, 13)], _s(fill=pal["sky"]))
        d.rect(92, 18, 6, 5, _s(fill=pal["yellow"]), r=1.5)
        for wx in (24, 76):
            d.circle(wx, 32, 9, _s(fill=pal["black"]))
            d.circle(wx, 32, 3.5, _s(fill=pal["light_grey"]))


def crash(d: Drawing, pal: Pal, bg: Colour) -> None:
    ground = 88
    d.line(2, ground + 0.8, 98, ground + 0.8, _s(stroke=pal["grey"], width=1.6))
    # Two cars nose to nose, each reared up on its back wheel, which stays on the road.
    with d.group(rotate(-16, 2 + 24 * 0.5, ground)):
        _car(d, pal, 2, ground, 50, pal["blue"], facing=1)
    with d.group(rotate(16, 98 - 24 * 0.5, ground)):
        _car(d, pal, 48, ground, 50, pal["green"], facing=-1)
    d.polygon(_star(50, 50, 26, 12, 9, turn=8), _s(fill=pal["yellow"], stroke=pal["red"], width=2.5))
    d.polygon(_star(50, 50, 12, 6, 7), _s(fill=pal["orange"]))


def repairs(d: Drawing, pal: Pal, bg: Colour) -> None:
    with d.group(rotate(45, 50, 50)):
        d.rect(45, 22, 10, 58, _s(fill=pal["grey"]), r=3)
        d.circle(50, 18, 15, _s(fill=pal["grey"]))
        d.rect(44, 0, 12, 20, _s(fill=bg))           # open-end jaw
        d.circle(50, 84, 12, _s(fill=pal["grey"]))
        d.circle(50, 84, 6, _s(fill=bg))             # ring end
    with d.group(rotate(-45, 50, 50)):
        d.rect(47.5, 8, 5, 50, _s(fill=pal["light_grey"], stroke=pal["grey"], width=1))
        d.polygon([(47.5, 8), (52.5, 8), (51, 2), (49, 2)], _s(fill=pal["grey"]))
        d.rect(42, 56, 16, 34, _s(fill=pal["red"]), r=5)
        for gx in (46.5, 50, 53.5):
            d.line(gx, 62, gx, 84, _s(stroke=pal["dark_red"], width=1.4))


# ------------------------------------------------------------------ vehicles

def _wheels(d: Drawing, pal: Pal, xs, y, r=9.0):
    for wx in xs:
        d.circle(wx, y, r, _s(fill=pal["black"]))
        d.circle(wx, y, r * 0.4, _s(fill=pal["light_grey"]))


def _beacon(d: Drawing, pal: Pal, x, y, colour: Colour):
    d.rect(x - 4, y - 6, 8, 6, _s(fill=colour), r=2)
    for a in (-150, -120, -60, -30):
        t = math.radians(a)
        d.line(x + 7 * math.cos(t), y - 3 + 7 * math.sin(t), x + 12 * math.cos(t), y - 3 + 12 * math.sin(t),
               _s(stroke=colour, width=1.8))


GROUND = 84     # the road line under every vehicle: their wheels stand on it


def _ground(d: Drawing, pal: Pal):
    d.line(2, GROUND + 0.8, 98, GROUND + 0.8, _s(stroke=pal["grey"], width=1.6))


def priority_vehicle(d: Drawing, pal: Pal, bg: Colour) -> None:
    _ground(d, pal)
    _car(d, pal, 6, GROUND, 88, pal["blue"])
    roof = GROUND - 41 * 0.88
    _beacon(d, pal, 47, roof + 0.5, pal["blue"])
    for k, yy in enumerate((roof + 12, roof + 20, roof + 28)):  # speed lines: it goes through
        d.line(0, yy, 6 - k * 2, yy, _s(stroke=pal["grey"], width=2))


def police_car(d: Drawing, pal: Pal, bg: Colour) -> None:
    _ground(d, pal)
    _car(d, pal, 6, GROUND, 88, pal["black"])
    roof = GROUND - 41 * 0.88
    d.rect(10, roof + 16, 80, 7, _s(fill=pal["white"]))
    d.fit_text(14, roof + 17.2, 72, 4.6, "POLICE", pal["black"])
    _beacon(d, pal, 48, roof + 0.5, pal["blue"])


def ambulance(d: Drawing, pal: Pal, bg: Colour) -> None:
    _ground(d, pal)
    d.rect(4, 30, 66, 44, _s(fill=pal["white"], stroke=pal["black"], width=1.5), r=3)
    d.path(PathBuilder().move(70, 40).line(84, 40).line(95, 56).line(95, 74).line(70, 74).close(),
           _s(fill=pal["white"], stroke=pal["black"], width=1.5))
    d.polygon([(73, 43), (83, 43), (91, 55), (73, 55)], _s(fill=pal["sky"]))
    d.rect(31, 39, 10, 28, _s(fill=pal["red"]))
    d.rect(22, 48, 28, 10, _s(fill=pal["red"]))
    _beacon(d, pal, 78, 40, pal["blue"])
    _wheels(d, pal, (22, 80), 75)


def fire_engine(d: Drawing, pal: Pal, bg: Colour) -> None:
    _ground(d, pal)
    d.rect(4, 44, 68, 30, _s(fill=pal["red"]), r=2)
    d.path(PathBuilder().move(72, 36).line(86, 36).line(96, 52).line(96, 74).line(72, 74).close(), _s(fill=pal["red"]))
    d.polygon([(75, 39), (85, 39), (92, 51), (75, 51)], _s(fill=pal["sky"]))
    # the ladder along the roof
    d.line(2, 34, 78, 34, _s(stroke=pal["light_grey"], width=2.2))
    d.line(2, 41, 78, 41, _s(stroke=pal["light_grey"], width=2.2))
    for x in range(6, 78, 8):
        d.line(x, 34, x, 41, _s(stroke=pal["light_grey"], width=1.6))
    for x in (12, 30, 48):
        d.rect(x, 52, 12, 14, _s(fill=pal["dark_red"]), r=1)
    _beacon(d, pal, 82, 36, pal["blue"])
    _wheels(d, pal, (18, 44, 84), 75)


def breakdown_truck(d: Drawing, pal: Pal, bg: Colour) -> None:
    _ground(d, pal)
    d.rect(4, 58, 66, 16, _s(fill=pal["yellow"]), r=2)
    d.path(PathBuilder().move(66, 36).line(84, 36).line(96, 52).line(96, 74).line(66, 74).close(), _s(fill=pal["yellow"]))
    d.polygon([(69, 39), (83, 39), (92, 51), (69, 51)], _s(fill=pal["sky"]))
    d.line(40, 58, 16, 22, _s(stroke=pal["black"], width=5))     # crane jib
    d.line(16, 22, 10, 48, _s(stroke=pal["black"], width=1.5))   # cable
    d.path(PathBuilder().move(10, 48).arc(13, 52, 4, 180, 450, connect=True), _s(stroke=pal["black"], width=2))
    _beacon(d, pal, 76, 36, pal["orange"])
    _wheels(d, pal, (20, 80), 75)


def garbage_truck(d: Drawing, pal: Pal, bg: Colour) -> None:
    _ground(d, pal)
    d.path(PathBuilder().move(4, 30).line(62, 30).line(62, 74).line(10, 74).curve(2, 74, 2, 66, 2, 60).line(2, 34).close(),
           _s(fill=pal["green"]))
    for x in (14, 26, 38, 50):
        d.line(x, 36, x, 68, _s(stroke=pal["white"], width=2))
    d.path(PathBuilder().move(64, 38).line(82, 38).line(95, 54).line(95, 74).line(64, 74).close(), _s(fill=pal["green"]))
    d.polygon([(67, 41), (81, 41), (90, 53), (67, 53)], _s(fill=pal["sky"]))
    _beacon(d, pal, 74, 38, pal["orange"])
    _wheels(d, pal, (20, 80), 75)


def steering_wheel(d: Drawing, pal: Pal, bg: Colour) -> None:
    d.circle(50, 54, 40, _s(stroke=pal["black"], width=10))
    d.rect(12, 50, 76, 8, _s(fill=pal["black"]))
    d.rect(46, 54, 8, 36, _s(fill=pal["black"]))
    d.circle(50, 54, 14, _s(fill=pal["black"]))
    d.polygon(_star(50, 54, 10, 4.2, 5), _s(fill=pal["yellow"]))
    d.polygon(_star(50, 6, 7, 3, 5), _s(fill=pal["yellow"], stroke=pal["black"], width=1))


def road(d: Drawing, pal: Pal, bg: Colour) -> None:
    """The progress cards' picture: a road to the horizon and a milestone (a "borne")."""
    d.polygon([(0, 100), (100, 100), (56, 52), (44, 52)], _s(fill=pal["slate"]))
    for k in range(5):  # the centre line, shortening with distance
        t0, t1 = 0.06 + k * 0.2, 0.06 + k * 0.2 + 0.1
        y0, y1 = 100 - t0 * 48, 100 - t1 * 48
        w0, w1 = 3 * (1 - t0) + 0.4, 3 * (1 - t1) + 0.4
        d.polygon([(50 - w0 / 2, y0), (50 + w0 / 2, y0), (50 + w1 / 2, y1), (50 - w1 / 2, y1)], _s(fill=pal["white"]))
    # a French milestone: white stone, red cap
    d.path(PathBuilder().move(78, 96).line(78, 72).arc(85, 72, 7, 180, 360).line(92, 96).close(),
           _s(fill=pal["white"], stroke=pal["black"], width=1))
    d.path(PathBuilder().move(78, 74).arc(85, 72, 7, 180, 360).line(92, 74).close(), _s(fill=pal["red"]))


SYMBOLS = {
    "road": road,
    "traffic-light-red": lambda d, p, bg: traffic_light(d, p, bg, "red"),
    "traffic-light-green": lambda d, p, bg: traffic_light(d, p, bg, "green"),
    "flat-tyre": flat_tyre,
    "spare-wheel": spare_wheel,
    "puncture-proof": puncture_proof,
    "fuel-gauge-empty": fuel_gauge_empty,
    "petrol-pump": petrol_pump,
    "jerrycan": jerrycan,
    "crash": crash,
    "repairs": repairs,
    "priority-vehicle": priority_vehicle,
    "police-car": police_car,
    "ambulance": ambulance,
    "fire-engine": fire_engine,
    "breakdown-truck": breakdown_truck,
    "garbage-truck": garbage_truck,
    "steering-wheel": steering_wheel,
}
# Signs that show a number take it from the card (its `limit`).
NUMBERED_SYMBOLS = {"speed-limit": speed_limit_sign, "end-of-speed-limit": end_of_limit_sign}
PALETTE_NAMES = ("red", "dark_red", "blue", "green", "black", "white", "yellow", "orange", "grey",
                 "light_grey", "slate", "sky")
