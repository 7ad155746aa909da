"""Read every laser sheet of a build the way Inkscape 1.2 reads it, and compare with our SVG.

    .venv/bin/python scripts/check_laser_import.py [OUTPUT]      (default: output)

For each sheet: the DXF through Inkscape's own DXF import (its extension dxf_input.py, "Read from
file" scaling), and the SVG's layers as Inkscape's extension library (inkex) finds them. Prints,
a line a sheet, the engraved area in our SVG and in the imported DXF (closed paths on the ENGRAVE
layer, filled even-odd as a laser program fills them), the layers found in each, and the cut
contours imported; exits 1 if any sheet's engraved area differs by more than 0.5 % or a layer is
missing. The tests (tests/test_laser_sheets.py) make the same comparison with readers of our own;
this script is for checking against Inkscape itself, where it is installed:

    apt-get install inkscape python3-lxml python3-cssselect python3-numpy     (Debian, as root)
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import shapely
from shapely.geometry import Polygon

PYTHON = "python3"                   # Inkscape's extensions run on the system's Python, not our venv's
SVG = "{http://www.w3.org/2000/svg}"
LABEL = "{http://www.inkscape.org/namespaces/inkscape}label"
PX = 25.4 / 96                       # Inkscape's import writes px

# Run by the system's Python, where inkex is: the labels of the layers Inkscape finds in an SVG.
INKEX_LAYERS = """
import json, sys
sys.path.insert(0, sys.argv[1])
import inkex
for path in sys.argv[2:]:
    root = inkex.load_svg(path).getroot()
    print(json.dumps([g.label for g in root.descendants().filter(inkex.Layer)]))
"""


def rings(d: str, scale: float = 1.0) -> list[tuple[list, bool, bool]]:
    """A path's subpaths: (points, closed, has an arc), read from M, L, A and Z commands."""
    out = []
    for sub in re.findall(r"M[^M]*", d):
        arc = "A" in sub
        tokens = re.findall(r"[A-Za-z]|-?\d+(?:\.\d+)?(?:e-?\d+)?", sub)
        pts, k, cmd = [], 0, None
        while k < len(tokens):
            t = tokens[k]
            if t.isalpha():
                cmd, k = t.upper(), k + 1
                continue
            if cmd == "A":                      # rx ry rotation large sweep x y: keep the end
                pts.append((float(tokens[k + 5]) * scale, float(tokens[k + 6]) * scale))
                k += 7
            else:
                pts.append((float(t) * scale, float(tokens[k + 1]) * scale))
                k += 2
        out.append((pts, sub.rstrip().endswith(("Z", "z")), arc))
    return out


def even_odd(pieces) -> float:
    area = shapely.Polygon()
    for pts in pieces:
        if len(pts) > 2:
            area = area.symmetric_difference(shapely.make_valid(Polygon(pts)))
    return area.area


def ours(svg: Path) -> dict:
    root = ET.parse(svg).getroot()
    # (by its id where a group is no layer: older files, to compare with)
    layers = {(g.get(LABEL) or g.get("id", "")).upper(): g for g in root.iter(SVG + "g")}
    engraved = sum(even_odd([pts for pts, _, _ in rings(p.get("d"))]) for p in layers["ENGRAVE"].iter(SVG + "path"))
    cuts = sum(len(rings(p.get("d"))) for p in layers["CUT"].iter(SVG + "path"))
    return {"engraved": engraved, "cuts": cuts}


def imported(dxf: Path, extensions: Path) -> dict:
    """The DXF as Inkscape's DXF import makes it: its layers, the ENGRAVE layer's area (its
    closed paths even-odd, and any filled path as Inkscape fills it), its cut contours."""
    text = subprocess.run([PYTHON, str(extensions / "dxf_input.py"), "--scalemethod=file", str(dxf)],
                          capture_output=True, text=True, check=True).stdout
    root = ET.fromstring(text)
    layers = {g.get(LABEL): g for g in root.iter(SVG + "g") if g.get(LABEL)}
    closed, filled, arcs = [], 0.0, 0
    for p in layers.get("ENGRAVE", ET.Element("g")).iter(SVG + "path"):
        subs = rings(p.get("d"), PX)
        arcs += sum(1 for _, _, arc in subs if arc)
        if "fill:none" in p.get("style", "").replace(" ", ""):
            closed += [pts for pts, is_closed, _ in subs if is_closed]
        else:
            filled += even_odd([pts for pts, _, _ in subs])
    cuts = sum(len(rings(p.get("d"))) for p in layers.get("CUT", ET.Element("g")).iter(SVG + "path"))
    return {"layers": [n for n in layers if n not in ("0", "Defpoints")], "engraved": even_odd(closed) + filled,
            "engrave_arcs": arcs, "cuts": cuts}


def extensions() -> Path | None:
    """Where Inkscape keeps its extensions (Debian: /usr/share/inkscape/extensions), if it is installed."""
    if not shutil.which("inkscape"):
        return None
    data = subprocess.run(["inkscape", "--system-data-directory"], capture_output=True, text=True).stdout.strip()
    folder = Path(data) / "extensions"
    return folder if (folder / "dxf_input.py").exists() else None


def main(argv: list[str]) -> int:
    output = Path(argv[0] if argv else "output")
    found = extensions()
    if found is None:
        print("Inkscape's DXF import is not installed: see this script's docstring", file=sys.stderr)
        return 2
    svgs = sorted(output.rglob("*.svg"))
    labels = subprocess.run([PYTHON, "-c", INKEX_LAYERS, str(found), *map(str, svgs)],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    bad = 0
    for svg, svg_layers in zip(svgs, labels):
        mine, theirs = ours(svg), imported(svg.with_suffix(".dxf"), found)
        svg_layers = json.loads(svg_layers)
        off = abs(theirs["engraved"] - mine["engraved"]) / mine["engraved"] if mine["engraved"] else theirs["engraved"]
        ok = off <= 0.005 and svg_layers == theirs["layers"] == ["ENGRAVE", "SCORE", "CUT"] and \
            theirs["cuts"] == mine["cuts"] and not theirs["engrave_arcs"]
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {svg.relative_to(output)}: engraved {mine['engraved']:.2f} mm2 in the SVG, "
              f"{theirs['engraved']:.2f} imported ({off:.2%} off); cuts {mine['cuts']} / {theirs['cuts']}; "
              f"layers SVG {','.join(svg_layers)} / DXF {','.join(theirs['layers'])}")
    print(f"{len(svgs)} sheets, {bad} differing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
