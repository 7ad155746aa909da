"""Writing laser sheets: SVG (mm), DXF (mm, layers, closed polylines) and a PNG preview."""
from __future__ import annotations

import io
from pathlib import Path

import cairosvg
import ezdxf
import svgwrite
from shapely.geometry import MultiPolygon

from .nest import Sheet

CUT, SCORE, ENGRAVE = "#FF0000", "#0000FF", "#000000"
HAIRLINE = 0.01  # mm: laser software reads a hairline as "vector cut", not "fill"


def _rings(geom):
    polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]
    for poly in polys:
        yield list(poly.exterior.coords)
        for hole in poly.interiors:
            yield list(hole.coords)


def _d(coords, close=True) -> str:
    s = "M" + " L".join(f"{x:.3f} {y:.3f}" for x, y in coords)
    return s + (" Z" if close else "")


def sheet_svg(sheet: Sheet, title: str = "") -> str:
    w, h = sheet.width, sheet.height
    dwg = svgwrite.Drawing(size=(f"{w}mm", f"{h}mm"), viewBox=f"0 0 {w} {h}", profile="full", debug=False)
    if title:
        dwg.set_desc(title=title)
    # Engrave first, score next, cut last: laser software runs layers in this order by default,
    # and a part must not drop out of the sheet before it is marked.
    engrave = dwg.add(dwg.g(id="engrave", fill=ENGRAVE, stroke="none", fill_rule="evenodd"))
    score = dwg.add(dwg.g(id="score", fill="none", stroke=SCORE, stroke_width=HAIRLINE))
    cut = dwg.add(dwg.g(id="cut", fill="none", stroke=CUT, stroke_width=HAIRLINE))
    for part, cut_path in zip(sheet.parts, sheet.cut_paths):
        for poly in part.engrave:
            engrave.add(dwg.path(d=" ".join(_d(r) for r in _rings(poly))))
        for line in part.score:
            coords = list(line.coords)
            score.add(dwg.path(d=_d(coords, close=False)))
        for line in part.cuts:
            cut.add(dwg.path(d=_d(list(line.coords), close=False)))
        for ring in _rings(cut_path):
            cut.add(dwg.path(d=_d(ring[:-1])))
    return dwg.tostring()


def sheet_dxf(sheet: Sheet) -> bytes:
    doc = ezdxf.new("R2010", units=ezdxf.units.MM)
    doc.header["$INSUNITS"] = 4        # millimetres
    doc.header["$MEASUREMENT"] = 1     # metric
    for name, colour in (("CUT", 1), ("SCORE", 5), ("ENGRAVE", 7)):
        doc.layers.add(name, color=colour)
    msp = doc.modelspace()
    H = sheet.height

    def flip(coords):  # DXF's y points up; keep the sheet's look
        return [(x, H - y) for x, y in coords]
    for part, cut_path in zip(sheet.parts, sheet.cut_paths):
        for ring in _rings(cut_path):
            msp.add_lwpolyline(flip(ring[:-1]), close=True, dxfattribs={"layer": "CUT"})
        for line in part.cuts:
            msp.add_lwpolyline(flip(list(line.coords)), close=False, dxfattribs={"layer": "CUT"})
        for line in part.score:
            msp.add_lwpolyline(flip(list(line.coords)), close=False, dxfattribs={"layer": "SCORE"})
        for poly in part.engrave:
            for ring in _rings(poly):
                msp.add_lwpolyline(flip(ring[:-1]), close=True, dxfattribs={"layer": "ENGRAVE"})
            hatch = msp.add_hatch(color=7, dxfattribs={"layer": "ENGRAVE"})
            for i, ring in enumerate(_rings(poly)):
                hatch.paths.add_polyline_path(flip(ring[:-1]), is_closed=True, flags=1 if i == 0 else 16)
    buf = io.StringIO()
    doc.write(buf)
    return buf.getvalue().encode("utf-8")


def sheet_png(svg: str, dpi: float = 60) -> bytes:
    # Hairlines are invisible at preview size: draw them a little wider for the eye only.
    preview = svg.replace(f'stroke-width="{HAIRLINE}"', 'stroke-width="0.35"')
    return cairosvg.svg2png(bytestring=preview.encode(), dpi=dpi, background_color="#f4efe4")


def add_sheets(sheets: list[Sheet], plan, stem: str) -> None:
    """Each sheet's SVG, DXF and PNG preview, added to a build's plan (written later)."""
    for i, sheet in enumerate(sheets, 1):
        base = f"{stem}-{sheet.material + '-' if sheet.material else ''}sheet{i}"
        title = f"{stem}, {sheet.material or 'sheet'} {i} of {len(sheets)}"
        plan.add_bytes(f"{base}.svg", lambda sheet=sheet, title=title: sheet_svg(sheet, title).encode("utf-8"))
        plan.add_bytes(f"{base}.dxf", lambda sheet=sheet: sheet_dxf(sheet))
        plan.add_bytes(f"{base}.png", lambda sheet=sheet, title=title: sheet_png(sheet_svg(sheet, title)))


def dxf_png(path: Path, px_per_mm: float = 2.0) -> bytes:
    """Our own DXF viewer: draws what the DXF says (cut red, score blue, engrave black), so the
    DXF is checked apart from the SVG it was made beside."""
    from PIL import Image, ImageDraw
    doc = ezdxf.readfile(path)
    lines = [(e.dxf.layer, [(p[0], p[1]) for p in e.get_points()], e.closed)
             for e in doc.modelspace().query("LWPOLYLINE")]
    xs = [x for _, pts, _ in lines for x, _ in pts] or [0]
    ys = [y for _, pts, _ in lines for _, y in pts] or [0]
    x0, y1 = min(xs) - 5, max(ys) + 5
    w, h = (max(xs) + 5 - x0) * px_per_mm, (y1 - min(ys) + 5) * px_per_mm
    im = Image.new("RGB", (max(1, round(w)), max(1, round(h))), "white")
    draw = ImageDraw.Draw(im)
    colour = {"CUT": (220, 0, 0), "SCORE": (0, 0, 220), "ENGRAVE": (0, 0, 0)}
    for layer, pts, closed in lines:
        xy = [((x - x0) * px_per_mm, (y1 - y) * px_per_mm) for x, y in pts]
        if closed:
            xy.append(xy[0])
        if len(xy) > 1:
            draw.line(xy, fill=colour.get(layer, (120, 120, 120)), width=1)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()
