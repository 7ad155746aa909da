"""A CMYK ICC profile (version 2.1, an output profile) for the separation `--cmyk` makes, as the
OutputIntent of a PDF/X file.

`--cmyk` writes a colour given in RGB as the naive separation Colour.as_cmyk makes (K = 1 -
max(R, G, B), no other black generation or ink limit), and reads CMYK back as
R = (1 - C)(1 - K) and so on. This profile characterizes exactly that: CMYK to CIELAB through those
formulas and sRGB (A2B0, A2B1, A2B2), CIELAB to CMYK back through them (B2A0, B2A1, B2A2), its gamut
the sRGB gamut (gamt). It is not a press's characterization: it says what our CMYK numbers mean,
so that a print shop's RIP (or a preview) converts them to its own press condition from a known
starting point. Made here, byte for byte the same every time, rather than shipped: the CMYK
profiles at hand (Ghostscript's) are under the AGPL.
"""
from __future__ import annotations

import struct
from functools import lru_cache

import numpy as np

D50 = np.array([0.9642, 1.0, 0.8249])
SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                        [0.0193339, 0.1191920, 0.9503041]])
XYZ_TO_SRGB = np.linalg.inv(SRGB_TO_XYZ)
D65_TO_D50 = np.array([[1.0478112, 0.0228866, -0.0501270], [0.0295424, 0.9904844, -0.0170491],
                       [-0.0092345, 0.0150436, 0.7521316]])        # Bradford
D50_TO_D65 = np.linalg.inv(D65_TO_D50)
A2B_GRID, B2A_GRID = 9, 17
DESCRIPTION = "pnp generic CMYK (K = 1 - max(R,G,B)), from sRGB"


def _linear(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def cmyk_to_lab(cmyk: np.ndarray) -> np.ndarray:
    """(n, 4) CMYK in 0..1 -> (n, 3) CIELAB under D50, as the separation reads back."""
    c, m, y, k = cmyk.T
    rgb = np.stack([(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)], axis=1)
    xyz = _linear(rgb) @ SRGB_TO_XYZ.T @ D65_TO_D50.T
    f = xyz / D50
    f = np.where(f > 216 / 24389, np.cbrt(f), (24389 / 27 * f + 16) / 116)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1)


def lab_to_rgb(lab: np.ndarray) -> np.ndarray:
    """(n, 3) CIELAB under D50 -> (n, 3) sRGB, unclipped."""
    L, a, b = lab.T
    fy = (L + 16) / 116
    fx, fz = fy + a / 500, fy - b / 200

    def inv(t):
        return np.where(t ** 3 > 216 / 24389, t ** 3, (116 * t - 16) / (24389 / 27))
    xyz = np.stack([inv(fx), inv(fy), inv(fz)], axis=1) * D50
    lin = xyz @ D50_TO_D65.T @ XYZ_TO_SRGB.T
    return np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * np.abs(lin) ** (1 / 2.4) * np.sign(lin) - 0.055)


def rgb_to_cmyk(rgb: np.ndarray) -> np.ndarray:
    """The separation Colour.as_cmyk makes, for (n, 3) sRGB in 0..1."""
    rgb = np.clip(rgb, 0.0, 1.0)
    k = 1 - rgb.max(axis=1)
    room = np.where(k < 1, 1 - k, 1.0)
    cmy = np.where((k < 1)[:, None], (1 - rgb - k[:, None]) / room[:, None], 0.0)
    return np.column_stack([cmy, k])


def _u16(v) -> bytes:
    return np.clip(np.round(np.asarray(v) * 65535), 0, 65535).astype(">u2").tobytes()


def _lab16(lab: np.ndarray) -> bytes:
    """Version 2's 16-bit Lab: L* 0..100 as 0..0xFF00, a* and b* -128..128 as 0..0xFFFF."""
    L = np.clip(lab[:, 0] / 100 * 0xFF00, 0, 0xFF00)
    ab = np.clip((lab[:, 1:] + 128) * 256, 0, 0xFFFF)
    return np.round(np.column_stack([L, ab])).astype(">u2").tobytes()


def _grid(n: int, dims: int) -> np.ndarray:
    """Every point of an n-per-axis grid in [0, 1]^dims, the last axis varying fastest (ICC order)."""
    axes = np.meshgrid(*[np.linspace(0, 1, n)] * dims, indexing="ij")
    return np.stack([a.ravel() for a in axes], axis=1)


def _s15(v: float) -> bytes:
    return struct.pack(">i", int(round(v * 65536)))


def _lut16(inputs: int, outputs: int, grid: int, clut: bytes) -> bytes:
    identity = b"".join(_s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
    ramp = struct.pack(">HH", 0, 65535)
    return (b"mft2" + bytes(4) + struct.pack(">BBBB", inputs, outputs, grid, 0) + identity
            + struct.pack(">HH", 2, 2) + ramp * inputs + clut + ramp * outputs)


def _desc(text: str) -> bytes:
    ascii_ = text.encode("ascii") + b"\0"
    return (b"desc" + bytes(4) + struct.pack(">I", len(ascii_)) + ascii_ + struct.pack(">II", 0, 0)
            + struct.pack(">HB", 0, 0) + bytes(67))


@lru_cache(maxsize=1)
def cmyk_profile() -> bytes:
    """The profile's bytes (89 KB)."""
    a2b_in = _grid(A2B_GRID, 4)
    a2b = _lut16(4, 3, A2B_GRID, _lab16(cmyk_to_lab(a2b_in)))
    g = _grid(B2A_GRID, 3)
    # The grid in 16-bit Lab's own encoding: L* 0..100 over 0..0xFF00 of the 0..0xFFFF range.
    lab = np.column_stack([g[:, 0] * 65535 / 0xFF00 * 100, g[:, 1] * 65535 / 256 - 128, g[:, 2] * 65535 / 256 - 128])
    rgb = lab_to_rgb(lab)
    b2a = _lut16(3, 4, B2A_GRID, _u16(rgb_to_cmyk(rgb)))
    outside = np.any((rgb < -0.01) | (rgb > 1.01), axis=1)
    gamt = _lut16(3, 1, B2A_GRID, _u16(outside.astype(float)))
    white = b"XYZ " + bytes(4) + b"".join(_s15(v) for v in D50)
    tags = [(b"desc", _desc(DESCRIPTION)), (b"cprt", b"text" + bytes(4) + b"No copyright: made by pnp\0"),
            (b"wtpt", white), (b"A2B0", a2b), (b"A2B1", a2b), (b"A2B2", a2b),
            (b"B2A0", b2a), (b"B2A1", b2a), (b"B2A2", b2a), (b"gamt", gamt)]
    offset = 128 + 4 + 12 * len(tags)
    table, body, placed = [], b"", {}
    for sig, data in tags:
        if data in placed:                        # the same lut for every intent, stored once
            table.append(struct.pack(">4sII", sig, *placed[data]))
            continue
        pad = (-offset - len(body)) % 4
        body += bytes(pad)
        at = offset + len(body)
        placed[data] = (at, len(data))
        table.append(struct.pack(">4sII", sig, at, len(data)))
        body += data
    size = offset + len(body)
    header = (struct.pack(">I4sI", size, b"lcms", 0x02100000) + b"prtr" + b"CMYK" + b"Lab "
              + struct.pack(">6H", 2000, 1, 1, 0, 0, 0) + b"acsp" + b"APPL" + struct.pack(">I", 0)
              + bytes(4) + bytes(4) + bytes(8) + struct.pack(">I", 0) + b"".join(_s15(v) for v in D50)
              + bytes(4) + bytes(44))
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + b"".join(table) + body

