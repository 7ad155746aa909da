"""Writing laser sheets: SVG (mm, a layer an operation), DXF (mm, the same layers, closed
polylines; cuts with true arcs) and a PNG preview.

What a laser operator gets, per sheet: the engraved areas (filled in the SVG; in the DXF the
closed outlines a laser program fills), then the scored lines, then the cuts, in that order
(laser software runs layers in this order by default, and a part must not drop out of the sheet
before it is marked); within a part, its holes before its outline, and pieces lying in an opening
before the material round it. Every contour is written once, as one closed polyline, its
coordinates rounded to 0.001 mm.
"""
from __future__ import annotations

import io
import os
import re
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import MultiPolygon
from shapely.strtree import STRtree

from .arcs import MIN_SEGMENTS, circle_of, with_bulges
from .nest import Sheet

CUT, SCORE, ENGRAVE = "#FF0000", "#0000FF", "#000000"
HAIRLINE = 0.01  # mm: laser software reads a hairline as "vector cut", not "fill"
INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
LAYERS = (("ENGRAVE", 7), ("SCORE", 5), ("CUT", 1))   # DXF layer and its colour (ACI), in run order


def _polygons(geom) -> list:
    return list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]


def _coords(geom) -> list[list[float]]:
    return shapely.get_coordinates(geom).tolist()    # far faster than iterating .coords


def _inner_first(polys: list) -> list:
    """A multipolygon's polygons with every one that lies in another's hole before that other
    (the rail layer's dashes before the border round them), deepest first; otherwise in their
    order. A piece inside an opening is cut while the material round it still holds the sheet."""
    if len(polys) < 2:
        return polys
    shells = shapely.polygons(shapely.get_exterior_ring(polys))
    inside, _ = STRtree(shells).query(shapely.get_point(shapely.get_exterior_ring(polys), 0), predicate="within")
    depth = np.bincount(inside, minlength=len(polys))     # how many outlines enclose each polygon
    if not depth.any():
        return polys
    return [polys[k] for k in sorted(range(len(polys)), key=lambda k: (-depth[k], k))]


def _rings(geom, sheet: Sheet) -> list[list[list[float]]]:
    """A (multi)polygon's rings, holes before their outline (a part's holes are cut while it is
    still held by the sheet) and pieces lying in a hole before the polygon round them, each
    without its repeated closing point. Read in one vectorised
    pass (a rail layer is one part of 3,800 islands) and kept on the sheet for its other writers
    (keyed by the geometry's id, and kept with it: a part of a multipolygon is a new object at
    each reading, so only the same object may find its rings)."""
    known = sheet.rings.get(id(geom))
    if known is not None and known[0] is geom:
        return known[1]
    polys = _inner_first(_polygons(geom))
    rings, owner = shapely.get_rings(polys, return_index=True)   # per polygon: outline, then holes
    coords, which = shapely.get_coordinates(rings, return_index=True)
    starts = np.searchsorted(which, np.arange(len(rings) + 1))
    flat = coords.tolist()
    per_poly: list[list] = [[] for _ in polys]
    for k in range(len(rings)):
        per_poly[owner[k]].append(flat[starts[k]:starts[k + 1] - 1])
    out = [r for ring_list in per_poly for r in ring_list[1:] + ring_list[:1]]
    sheet.rings[id(geom)] = (geom, out)
    return out


def _line(line) -> tuple[list[list[float]], bool]:
    """A line's points and whether it is closed (a closed one without its repeated point)."""
    coords = _coords(line)
    if len(coords) > 3 and coords[0] == coords[-1]:
        return coords[:-1], True
    return coords, False


_NUMS: dict[float, str] = {}      # a sheet's coordinates repeat (a lattice, a part cut forty times)


def _num(v: float) -> str:
    """A coordinate to 0.001 mm, without trailing zeros: 12.5, 0, -3.25."""
    s = _NUMS.get(v)
    if s is None:
        s = f"{v:.3f}".rstrip("0").rstrip(".")
        if s == "-0":
            s = "0"
        if len(_NUMS) > 1_000_000:
            _NUMS.clear()
        _NUMS[v] = s
    return s


# ---------------------------------------------------------------- SVG

def _d(coords, close=True) -> str:
    s = "M" + " L".join(f"{_num(x)} {_num(y)}" for x, y in coords)
    return s + (" Z" if close else "")


# Each group is an Inkscape layer named as the DXF's (the convention laser users' SVG editors
# read), so an operator can hide SCORE or ENGRAVE, or run one alone, before cutting.
_SVG_STYLES = {"ENGRAVE": f'fill="{ENGRAVE}" fill-rule="evenodd" stroke="none"',
               "SCORE": f'fill="none" stroke="{SCORE}" stroke-width="{HAIRLINE}"',
               "CUT": f'fill="none" stroke="{CUT}" stroke-width="{HAIRLINE}"'}
_SVG_GROUPS = tuple((f'{_SVG_STYLES[name]} id="{name}" inkscape:groupmode="layer" inkscape:label="{name}"', name)
                    for name, _ in LAYERS)


def sheet_svg(sheet: Sheet, title: str = "", marks=()) -> str:
    """The sheet as SVG in mm: three layers (ENGRAVE, SCORE, CUT), a path a contour. Written as
    text, in the form svgwrite wrote it (attributes in order, empty groups closed): the drawing
    is a flat list of paths, and svgwrite's element objects made it a fifth of a sheet's time.
    marks: a print-and-cut sheet's registration marks, (id, path data) filled black, in a first
    layer named Regmarks (what inkscape-silhouette reads them from, and leaves uncut)."""
    from xml.sax.saxutils import escape
    w, h = sheet.width, sheet.height
    paths: dict[str, list[str]] = {"ENGRAVE": [], "SCORE": [], "CUT": []}
    for part, cut_path in zip(sheet.parts, sheet.cut_paths):
        for poly in part.engraved():
            paths["ENGRAVE"].append(" ".join(_d(r) for r in _rings(poly, sheet)))
        for line in part.score:
            paths["SCORE"].append(_d(*_line(line)))
        for line in part.cuts:
            paths["CUT"].append(_d(*_line(line)))
        for ring in _rings(cut_path, sheet):
            paths["CUT"].append(_d(ring))
    out = [f'<svg baseProfile="full" height="{h}mm" version="1.1" viewBox="0 0 {w} {h}" width="{w}mm" '
           'xmlns="http://www.w3.org/2000/svg" xmlns:ev="http://www.w3.org/2001/xml-events" '
           f'xmlns:inkscape="{INKSCAPE_NS}" xmlns:xlink="http://www.w3.org/1999/xlink">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append("<defs />")
    if marks:
        out.append(f'<g fill="{ENGRAVE}" stroke="none" id="Regmarks" inkscape:groupmode="layer" '
                   'inkscape:label="Regmarks">'
                   + "".join(f'<path d="{d}" id="{escape(name)}" />' for name, d in marks) + "</g>")
    for attributes, name in _SVG_GROUPS:
        if name == "CUT" and sheet.cut_layer != "CUT":    # a kiss cut: the layer says so, depth and all
            attributes = attributes.replace('"CUT"', f'"{escape(sheet.cut_layer)}"')
        if paths[name]:
            out.append(f"<g {attributes}>" + "".join(f'<path d="{d}" />' for d in paths[name]) + "</g>")
        else:
            out.append(f"<g {attributes} />")
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------- DXF

@contextmanager
def _reproducible_ezdxf():
    """ezdxf, writing no clock time and no random GUID (its fixed metadata), so that two builds
    of the same sheet give the same bytes."""
    import ezdxf
    before = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        yield ezdxf
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = before


def _julian_date(when) -> float:
    """A datetime as DXF's dates are written: a Julian date, computed as ezdxf computes it
    (ezdxf.tools.juliandate; a test checks the two agree)."""
    from math import floor
    y = when.year + (float(when.month) - 2.85) / 12.0
    a = floor(367.0 * y) - 1.75 * floor(y) + when.day
    b = floor(a) - 0.75 * floor(y / 100.0)
    return floor(b) + 1721115.0 + (when.hour * 3600.0 + when.minute * 60.0 + when.second) / 86400.0


def _set_dates(text: str) -> str:
    """The header's dates set to SOURCE_DATE_EPOCH where it is given (reproducible builds' way of
    naming the date to write); otherwise they stay ezdxf's fixed 2000-01-01."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not (epoch.isascii() and epoch.isdigit()):     # (the command refuses any other value first)
        return text
    from datetime import datetime, timezone
    date = repr(_julian_date(datetime.fromtimestamp(int(epoch), timezone.utc).replace(tzinfo=None)))
    return re.sub(r"(\n  9\n\$TDU?(?:CREATE|UPDATE)\n 40\n)[^\n]*", lambda m: m.group(1) + date, text)


# The document around a sheet's entities (header, classes, tables, blocks, objects) as ezdxf
# makes it for an R2010 file in mm with our three layers, stored once (dxf_skeleton.json, made by
# scripts/update_dxf_skeleton.py) rather than made by ezdxf for every sheet. Why: importing ezdxf
# is 0.4 s in every build process, and the skeleton is the same for every sheet but for its size
# and the next free handle. A test makes it again with the installed ezdxf and compares; the
# tests read every file back with ezdxf and audit it.
SKELETON_FILE = Path(__file__).with_name("dxf_skeleton.json")
SKELETON_SIZE = (1234567.25, 7654321.75)     # placeholders: numbers no real sheet has


def ezdxf_skeleton(width: float, height: float) -> dict:
    """What ezdxf writes for an empty sheet of this size: its text (ENTITIES empty), the handle
    entities are owned by (the model space's block record) and the first free handle."""
    with _reproducible_ezdxf() as ezdxf:
        doc = ezdxf.new("R2010", units=ezdxf.units.MM)
        doc.header["$INSUNITS"] = 4        # millimetres
        doc.header["$MEASUREMENT"] = 1     # metric
        for name, colour in LAYERS:
            doc.layers.add(name, color=colour)
        msp = doc.modelspace()
        # The drawing's limits and extents: the sheet (a viewer opens on it, not on 1e20).
        msp.dxf.limmin, msp.dxf.limmax = (0, 0), (width, height)
        msp.dxf.extmin, msp.dxf.extmax = (0, 0, 0), (width, height, 0)
        doc.header["$EXTMIN"], doc.header["$EXTMAX"] = msp.dxf.extmin, msp.dxf.extmax
        # ezdxf writes a CLASS for each kind of object in use, in the order of a set of names,
        # which changes with the process's string hashing: registered here first, sorted.
        for kind in sorted(doc.entitydb.dxf_types_in_use()):
            doc.classes.add_class(kind)
        # Writing makes the last objects (two APPIDs, the metadata's DICTIONARYVAR); a second
        # write adds nothing and writes the same text. Entities take the handles after them.
        doc.write(io.StringIO())
        first = str(doc.entitydb.handles)
        buf = io.StringIO()
        doc.write(buf)
    return {"text": buf.getvalue(), "owner": msp.layout_key, "first_handle": first}


_EMPTY_ENTITIES = "  0\nSECTION\n  2\nENTITIES\n  0\nENDSEC\n"


def _dxf_float(v: float) -> str:
    return str(float(v))                  # as ezdxf writes a coordinate: 600.0, 77.25


@lru_cache(maxsize=1)
def _skeleton() -> dict:
    import json
    sk = json.loads(SKELETON_FILE.read_text(encoding="utf-8"))
    text, w, h = sk["text"], *(_dxf_float(v) for v in SKELETON_SIZE)
    seed = f"\n  9\n$HANDSEED\n  5\n{sk['first_handle']}\n"
    if not (text.count(_EMPTY_ENTITIES) == 1 and text.count(seed) == 1 and text.count(w) == 4 and text.count(h) == 4):
        raise RuntimeError(f"{SKELETON_FILE.name} is not what it should be: run scripts/update_dxf_skeleton.py")
    return sk


class _Handles:
    """Handles handed out from a first one, as ezdxf's HandleGenerator does: hex, upper case."""

    def __init__(self, first: str):
        self.value = int(first, 16)

    def next(self) -> str:
        self.value += 1
        return "%X" % (self.value - 1)


class _DxfEntities:
    """The ENTITIES section's text, written here rather than through ezdxf's entity objects.

    Why: ezdxf builds a Python object per entity and per attribute, and measured 0.3 ms an
    entity to add and write one; a sheet's thousands of contours made writing DXF a fifth of a
    build. A sheet's entities are a flat list of one kind (LWPOLYLINE) in three layers,
    written once, so their tags are formatted here in the order and form ezdxf writes them.
    ezdxf still makes the rest of the document (header, tables, layers, objects), hands out the
    handles (so $HANDSEED stays right), and the tests read every file back with ezdxf and audit it.
    """

    def __init__(self, handles, owner: str):
        self.handles, self.owner = handles, owner
        self.out: list[str] = []

    def _head(self, kind: str, layer: str, subclass: str) -> None:
        self.out.append(f"  0\n{kind}\n  5\n{self.handles.next()}\n330\n{self.owner}\n100\nAcDbEntity\n"
                        f"  8\n{layer}\n100\n{subclass}\n")

    @staticmethod
    def _vertices(verts, closed: bool) -> list[tuple[str, str, float]]:
        """Rounded, and without a vertex that rounding made the same as the one before."""
        out: list[tuple[str, str, float]] = []
        for x, y, b in verts:
            v = (_num(x), _num(y), b)
            if out and v[:2] == out[-1][:2]:
                out[-1] = v            # a zero-length segment: its bulge is the next one's
                continue
            out.append(v)
        if closed and len(out) > 2 and out[0][:2] == out[-1][:2]:
            out.pop()
        return out

    @staticmethod
    def _bulge(b: float) -> str:
        return f"{b:.6f}".rstrip("0").rstrip(".")

    def polyline(self, layer: str, verts, closed: bool) -> None:
        vs = self._vertices(verts, closed)
        if len(vs) < 2:
            return
        self._head("LWPOLYLINE", layer, "AcDbPolyline")
        tags = [f" 90\n{len(vs)}\n 70\n{1 if closed else 0}\n"]
        for x, y, b in vs:
            tags.append(f" 10\n{x}\n 20\n{y}\n" + (f" 42\n{self._bulge(b)}\n" if b else ""))
        self.out.append("".join(tags))

    def text(self) -> str:
        return "".join(self.out)


def _contour(ring, closed: bool = True, arcs: bool = True):
    """A ring (DXF coordinates) as bulged vertices: a circle as two half-circle arcs, and (with
    `arcs`) the arcs found in the rest (see arcs.py); an open line as it is."""
    if not closed:
        return [(x, y, 0.0) for x, y in ring]
    c = circle_of(ring)
    if c is not None:
        return [(c.cx - c.r, c.cy, 1.0), (c.cx + c.r, c.cy, 1.0)]
    return with_bulges(ring, closed=True) if arcs else [(x, y, 0.0) for x, y in ring]


def sheet_dxf(sheet: Sheet) -> bytes:
    H = sheet.height
    shapes: dict[tuple, list] = {}

    def contour(ring, closed: bool = True, arcs: bool = True):
        """_contour of the ring in DXF coordinates (y up: the sheet's look kept), found once per
        shape: a part cut forty times, or a board's four hundred cups, is fitted once."""
        if not closed or len(ring) <= MIN_SEGMENTS:     # nothing round in it
            return [(x, H - y, 0.0) for x, y in ring]
        x0, y0 = ring[0][0], H - ring[0][1]
        rel = np.asarray(ring, dtype=float) * (1.0, -1.0) - (x0, y0 - H)
        key = (arcs, np.round(rel, 6).tobytes())
        if key not in shapes:
            shapes[key] = _contour(rel.tolist(), closed, arcs)
        return [(x + x0, y + y0, b) for x, y, b in shapes[key]]
    sk = _skeleton()
    handles = _Handles(sk["first_handle"])
    ents = _DxfEntities(handles, sk["owner"])
    for part in sheet.parts:
        # An engraved area as the closed polylines round it, outlines and holes turned opposite
        # ways (see parts.orient_engraving), and no arcs: what every DXF reader reads, for a laser
        # program to fill (LightBurn's Fill fills a closed shape, and between two nested ones).
        # Not a HATCH: many laser and CAM programs skip HATCH, and readers that take it (Inkscape's
        # DXF import) drop the arcs of its boundaries. The SVG's very points, to 0.001 mm.
        for poly in part.engraved():
            for ring in _rings(poly, sheet):
                ents.polyline("ENGRAVE", [(x, H - y, 0.0) for x, y in ring], True)
    for part in sheet.parts:
        for line in part.score:
            coords, closed = _line(line)
            # A scored circle (a peg's mark) is a circle; a letter's curve is left as drawn.
            ents.polyline("SCORE", contour(coords, closed, arcs=False), closed)
    cut = sheet.cut_layer
    for part, cut_path in zip(sheet.parts, sheet.cut_paths):
        for line in part.cuts:
            coords, closed = _line(line)
            ents.polyline(cut, contour(coords, closed), closed)
        for ring in _rings(cut_path, sheet):
            ents.polyline(cut, contour(ring), True)
    text = sk["text"]
    if cut != "CUT":        # a kiss cut: the layer table's CUT record renamed, depth and all
        text = text.replace("\n  2\nCUT\n", f"\n  2\n{cut}\n", 1)
    text = (text.replace(_dxf_float(SKELETON_SIZE[0]), _dxf_float(sheet.width))
            .replace(_dxf_float(SKELETON_SIZE[1]), _dxf_float(H))
            .replace(f"\n  9\n$HANDSEED\n  5\n{sk['first_handle']}\n", f"\n  9\n$HANDSEED\n  5\n{handles.next()}\n")
            .replace(_EMPTY_ENTITIES, f"  0\nSECTION\n  2\nENTITIES\n{ents.text()}  0\nENDSEC\n"))
    return _set_dates(text).encode("utf-8")


# ---------------------------------------------------------------- PNG

PREVIEW_PX_PER_MM = 5.0       # 127 dpi: a 2.4 mm label's capitals are 9 pixels high, enough for strokes
STOCK, MATERIAL = (0.957, 0.937, 0.894), (0.902, 0.835, 0.702)


def _png_bytes(surface) -> bytes:
    """A cairo RGB24 surface as PNG bytes, written as previews are (draw/raster.py: unfiltered
    rows, no clock time), at zlib level 1: a laser preview is 3000 x 2000 pixels, and this writes
    one in about half the time Pillow took. Not cairo's write_to_png: that writes to a Python
    stream through a C callback, where a Ctrl-C or SIGTERM is swallowed instead of stopping the build."""
    from ..draw.raster import surface_png
    return surface_png(surface, level=1)


def _ring_path(ctx, coords, close: bool = True) -> None:
    x, y = coords[0]
    ctx.move_to(x, y)
    for x, y in coords[1:]:
        ctx.line_to(x, y)
    if close:
        ctx.close_path()


def sheet_png(sheet: Sheet, px_per_mm: float = PREVIEW_PX_PER_MM) -> bytes:
    """A preview for a person checking the sheet, drawn straight from its geometry: the parts on
    the stock, engraving black, scored lines blue, cuts red (drawn wider than a hairline: for the
    eye only). Drawn through cairo's C functions (draw/cairo_lib.py) rather than a wrapper's
    Context methods, which check cairo's status after every call: a sheet has tens of thousands
    of points."""
    from ..draw import cairo_lib
    _, lib = cairo_lib.cairo()
    w, h = max(1, round(sheet.width * px_per_mm)), max(1, round(sheet.height * px_per_mm))
    surface = cairo_lib.ImageSurface(True, w, h)
    ctx = surface.ptr
    move, line, close = lib.cairo_move_to, lib.cairo_line_to, lib.cairo_close_path

    def path(coords, closed: bool = True) -> None:
        x, y = coords[0]
        move(ctx, x, y)
        for x, y in coords[1:]:
            line(ctx, x, y)
        if closed:
            close(ctx)

    lib.cairo_set_source_rgb(ctx, *STOCK)
    lib.cairo_paint(ctx)
    lib.cairo_scale(ctx, px_per_mm, px_per_mm)
    lib.cairo_set_fill_rule(ctx, cairo_lib.FILL_RULE_EVEN_ODD)
    lib.cairo_set_line_join(ctx, cairo_lib.LINE_JOIN_ROUND)
    lib.cairo_set_line_cap(ctx, cairo_lib.LINE_CAP_ROUND)
    lib.cairo_set_source_rgb(ctx, *MATERIAL)
    for cut_path in sheet.cut_paths:
        for ring in _rings(cut_path, sheet):
            path(ring)
        lib.cairo_fill(ctx)
    lib.cairo_set_source_rgb(ctx, 0, 0, 0)
    for part in sheet.parts:
        for poly in part.engraved():
            for ring in _rings(poly, sheet):
                path(ring)
            lib.cairo_fill(ctx)
    for colour, width, lines in (((0, 0, 0.86), 1.0, [ln for p in sheet.parts for ln in p.score]),
                                 ((0.86, 0, 0), 1.4, [ln for p in sheet.parts for ln in p.cuts])):
        for ln in lines:
            coords, closed = _line(ln)
            path(coords, closed)
        lib.cairo_set_source_rgb(ctx, *colour)
        lib.cairo_set_line_width(ctx, width / px_per_mm)
        lib.cairo_stroke(ctx)
    for cut_path in sheet.cut_paths:
        for ring in _rings(cut_path, sheet):
            path(ring)
    lib.cairo_set_line_width(ctx, 1.4 / px_per_mm)
    lib.cairo_stroke(ctx)
    surface.check()
    return _png_bytes(surface)


def add_sheets(sheets: list[Sheet], plan, stem: str) -> None:
    """Each sheet's SVG, DXF and PNG preview, added to a build's plan (written later)."""
    for i, sheet in enumerate(sheets, 1):
        base = f"{stem}-{sheet.material + '-' if sheet.material else ''}sheet{i}"
        title = f"{stem}, {sheet.material or 'sheet'} {i} of {len(sheets)}" + (f", {sheet.note}" if sheet.note else "")
        plan.add_bytes(f"{base}.svg", lambda sheet=sheet, title=title: sheet_svg(sheet, title).encode("utf-8"))
        plan.add_bytes(f"{base}.dxf", lambda sheet=sheet: sheet_dxf(sheet))
        plan.add_bytes(f"{base}.png", lambda sheet=sheet: sheet_png(sheet))


# ---------------------------------------------------------------- reading a DXF back

def dxf_png(path: Path, px_per_mm: float = 2.0) -> bytes:
    """Our own DXF viewer: draws what the DXF says (cut red, score blue, engrave black filled),
    read with ezdxf (arcs as ezdxf understands the bulges), so the DXF is checked apart from the
    SVG it was made beside. The ENGRAVE layer's closed polylines are filled together, even-odd,
    as a laser program's fill takes them (a hole's outline inside a letter's leaves it bare).
    Not antialiased: every line pixel is its layer's exact colour."""
    import cairocffi as cairo
    import ezdxf
    from ezdxf import path as dxfpath
    doc = ezdxf.readfile(path)
    shapes = []   # (layer, is a fill, [polylines])
    engraved = []
    for e in doc.modelspace():
        kind = e.dxftype()
        if kind == "HATCH":
            shapes.append((e.dxf.layer, True, [list(p.flattening(0.01)) for p in dxfpath.from_hatch(e)]))
        elif kind == "LWPOLYLINE" and e.dxf.layer == "ENGRAVE" and e.closed:
            engraved.append(list(dxfpath.make_path(e).flattening(0.01)))
        elif kind in ("LWPOLYLINE", "POLYLINE", "LINE", "CIRCLE", "ARC"):
            shapes.append((e.dxf.layer, False, [list(dxfpath.make_path(e).flattening(0.01))]))
    if engraved:
        shapes.append(("ENGRAVE", True, engraved))
    pts = [v for _, _, lines in shapes for line in lines for v in line] or [ezdxf.math.Vec3()]
    x0, y1 = min(v.x for v in pts) - 5, max(v.y for v in pts) + 5
    w, h = (max(v.x for v in pts) + 5 - x0) * px_per_mm, (y1 - min(v.y for v in pts) + 5) * px_per_mm
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, max(1, round(w)), max(1, round(h)))
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.set_antialias(cairo.ANTIALIAS_NONE)
    ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
    ctx.set_line_width(1.0)
    colour = {"CUT": (220, 0, 0), "SCORE": (0, 0, 220), "ENGRAVE": (0, 0, 0)}
    for fill in (True, False):          # fills under lines
        for layer, is_fill, lines in shapes:
            if is_fill != fill:
                continue
            for line in lines:
                if len(line) > 1:
                    _ring_path(ctx, [((v.x - x0) * px_per_mm, (y1 - v.y) * px_per_mm) for v in line], close=fill)
            ctx.set_source_rgb(*(c / 255 for c in colour.get(layer, (120, 120, 120))))
            ctx.fill() if fill else ctx.stroke()
    return _png_bytes(surface)
