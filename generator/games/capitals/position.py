"""The Capitals position as a drawing: the world map as the board shows it (sea, land, the grid of
squares with its column numbers and row letters, a marker at every capital in its population
bracket's colour), every enclosed square tinted with the colour of the player credited, and every
wall along the lattice, the last turn's in red.

The board's own drawing (board.draw_board) names every capital and weighs a megabyte; this one
leaves the names to the page (which lists each card's square) and draws the coasts a little
simplified, so it is small enough to send after every turn. It uses the board's coordinates
(board.map_xy, board.square_box), so a wall lies where it lies on the printed board.

`grid(state)` says where the lattice lies in the drawing, for a page that turns taps into points."""
from __future__ import annotations

from pathlib import Path

from shapely.geometry import box
from shapely.ops import unary_union

from ...colour import Colour
from ...draw import Drawing, PathBuilder, Style
from ...inputs import MadeFromFiles
from ...referee.session import record_reference
from ...spec import load_spec
from .board import land_of, map_xy, square_box
from .data import load_board

BOARD = "boards/capitals_world_map.yaml"
WALL = Colour(rgb=(0.23, 0.16, 0.1))
LAST = Colour(rgb=(0.85, 0.08, 0.08))
# A colour a player, in turn order (enclosed squares are tinted with it).
PLAYER_COLOURS = (Colour(rgb=(0.85, 0.25, 0.2)), Colour(rgb=(0.2, 0.45, 0.8)), Colour(rgb=(0.2, 0.62, 0.3)),
                  Colour(rgb=(0.6, 0.3, 0.7)), Colour(rgb=(0.93, 0.6, 0.1)), Colour(rgb=(0.1, 0.6, 0.6)))


def player_colour(index: int) -> Colour:
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


_MADE = MadeFromFiles(size=8)   # kept while the specs they come from are unchanged (pnp serve)


def world_map(path: str):
    return load_board(load_spec(Path(path)))


def world_map_for(header: dict | None):
    return world_map(str(record_reference(header or {}, "board", BOARD, ("capitals-board",))))


def _land_paths(path: str) -> tuple:
    """The land as path operations, in board mm, simplified to a tenth of a degree."""
    return _MADE.get(("land", path), lambda: _make_land_paths(path))


def _make_land_paths(path: str) -> tuple:
    wm = world_map(path)
    west, south, east, north = wm.projection.lonlat_bounds()
    frame = box(west, south, east, north)
    land = unary_union([p.intersection(frame) for p in land_of(wm) if p.intersects(frame)])
    land = land.simplify(0.1, preserve_topology=True)
    polys = list(land.geoms) if hasattr(land, "geoms") else [land]
    out = []
    for poly in polys:
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        pb = PathBuilder()
        for ring in [poly.exterior, *poly.interiors]:
            pb.polygon([map_xy(wm, lat, lon) for lon, lat in ring.coords])
        out.append(tuple(pb.ops))
    return tuple(out)


def grid(state, header: dict | None = None) -> dict:
    wm = world_map_for(header)
    return {"rows": state.board.rows, "cols": state.board.columns, "x0": wm.margin, "y0": wm.margin,
            "cell": wm.square, "lattice": True}


def draw_position(state, header: dict | None = None, before=None) -> Drawing:
    path = str(record_reference(header or {}, "board", BOARD, ("capitals-board",)))
    wm = world_map(path)
    p, sq, m = wm.palette, wm.square, wm.margin
    rows, cols = state.board.rows, state.board.columns
    d = Drawing(wm.width, wm.height)
    d.rect(0, 0, wm.width, wm.height, Style(fill=p["paper"]))
    d.rect(m, m, cols * sq, rows * sq, Style(fill=p["sea"]))
    for ops in _land_paths(path):
        d.path(list(ops), Style(fill=p["land"], stroke=p["coast"], width=0.3, even_odd=True))
    index = {name: i for i, name in enumerate(state.players)}
    for (r, c), who in state.owners().items():
        x, y, s, _ = square_box(wm, r, c)
        d.rect(x, y, s, s, Style(fill=player_colour(index.get(who, 0)).mix(p["paper"], 0.45)))
    grid_style = Style(stroke=p["grid"], width=0.2)
    for c in range(cols + 1):
        d.line(m + c * sq, m, m + c * sq, m + rows * sq, grid_style)
    for r in range(rows + 1):
        d.line(m, m + r * sq, m + cols * sq, m + r * sq, grid_style)
    d.rect(m, m, cols * sq, rows * sq, Style(stroke=p["frame"], width=0.8))
    for c in range(cols):
        d.fit_text(m + c * sq, m - 8.0, sq, 5.5, str(c + 1), p["frame"], max_size=7)
    for r in range(rows):
        d.fit_text(m - 11, m + r * sq + sq / 2 - 2.75, 9, 5.5, chr(65 + r), p["frame"], max_size=7)
    for (row, col), sites in sorted(wm.sites.items()):
        x, y, s, _ = square_box(wm, row, col)
        k = len(sites)
        for i, c in enumerate(sites):
            # one marker in the square's middle, several side by side: the page names them
            mx, my = x + s * (i + 1) / (k + 1), y + s / 2
            r = min(wm.marker_radius, s / (2 * k + 1))
            d.circle(mx, my, r, Style(fill=wm.deck.bracket_colour(c.bracket), stroke=p["ink"], width=0.3))
    last = set(state.walls) - set(before.walls) if before is not None else set()
    for w in state.walls:
        (r0, c0), (r1, c1) = w.ends()
        d.line(m + c0 * sq, m + r0 * sq, m + c1 * sq, m + r1 * sq,
               Style(stroke=LAST if w in last else WALL, width=2.2 if w in last else 1.8, cap="square"))
    return d
