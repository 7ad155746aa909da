"""How colours look to players with a colour-vision deficiency, and how far apart two colours are.

The simulation is Machado, Oliveira and Fernandes (2009), "A physiologically-based model for
simulation of color vision deficiency", at severity 1.0 (dichromacy: protanopia, deuteranopia,
tritanopia), applied to linear sRGB as the paper's matrices expect. The distance is CIEDE2000
(CIE 2001), on CIELAB under D65. Used by the tests to check every colour pair that carries
meaning (a population bracket, a player's colour, a Continuo colour) and by nothing that draws.
"""
from __future__ import annotations

import math

from .colour import Colour

# Machado et al. (2009), Table 1, severity 1.0 (rows act on linear R, G, B).
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
DEFICIENCIES = tuple(MACHADO)


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _gamma(v: float) -> float:
    v = min(1.0, max(0.0, v))
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def simulate(colour: Colour, deficiency: str) -> Colour:
    """The colour as a dichromat of the kind sees it (still sRGB)."""
    m = MACHADO[deficiency]
    lin = [_linear(v) for v in colour.as_rgb()]
    out = [sum(m[i][j] * lin[j] for j in range(3)) for i in range(3)]
    return Colour(rgb=tuple(_gamma(v) for v in out))


def lab(colour: Colour) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_linear(v) for v in colour.as_rgb())
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: Colour, b: Colour) -> float:
    """CIEDE2000 colour difference: about 2 is just noticeable side by side; under 10 two small
    marks are easily taken for one another across a table."""
    return delta_e_lab(lab(a), lab(b))


def delta_e_lab(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """CIEDE2000 of two CIELAB colours (Sharma, Wu and Dalal 2005's implementation notes)."""
    L1, a1, b1 = one
    L2, a2, b2 = two
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dL, dC = L2 - L1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    Lm, Cm = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    else:
        hm = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hm - 30)) + 0.24 * math.cos(math.radians(2 * hm))
         + 0.32 * math.cos(math.radians(3 * hm + 6)) - 0.20 * math.cos(math.radians(4 * hm - 63)))
    sl = 1 + 0.015 * (Lm - 50) ** 2 / math.sqrt(20 + (Lm - 50) ** 2)
    sc = 1 + 0.045 * Cm
    sh = 1 + 0.015 * Cm * t
    rt = -2 * math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)) * math.sin(math.radians(60 * math.exp(-((hm - 275) / 25) ** 2)))
    return math.sqrt((dL / sl) ** 2 + (dC / sc) ** 2 + (dH / sh) ** 2 + rt * (dC / sc) * (dH / sh))


def closest_pair(colours: dict[str, Colour]) -> tuple[float, str, str, str]:
    """(difference, deficiency or "normal", name, name) of the two colours hardest to tell apart,
    for normal vision and for each dichromacy."""
    names = list(colours)
    worst = None
    for kind in ("normal",) + DEFICIENCIES:
        seen = {n: colours[n] if kind == "normal" else simulate(colours[n], kind) for n in names}
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                d = delta_e(seen[a], seen[b])
                if worst is None or d < worst[0]:
                    worst = (d, kind, a, b)
    return worst
