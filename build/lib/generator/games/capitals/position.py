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
from ...referee.contract import record_reference
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
    """The whole position: the map (draw_background) with the game on it (draw_foreground)."""
    d = draw_background(header)
    d.place(draw_foreground(state, header, before))
    return d


def draw_background(header: dict | None = None) -> Drawing:
    """What no turn changes: paper, sea, land, the grid and its labels, the flag-site markers. The page
    fetches it once (it is most of the drawing's weight) and lays the foreground over it."""
    path = str(record_reference(header or {}, "board", BOARD, ("capitals-board",)))
    wm = world_map(path)
    p, sq, m = wm.palette, wm.square, wm.margin
    rows, cols = wm.projection.rows, wm.projection.columns
    d = Drawing(wm.width, wm.height, least_text=0.0)   # for a screen, which zooms
    d.rect(0, 0, wm.width, wm.height, Style(fill=p["paper"]))
    d.rect(m, m, cols * sq, rows * sq, Style(fill=p["sea"]))
    for ops in _land_paths(path):
        d.path(list(ops), Style(fill=p["land"], stroke=p["coast"], width=0.3, even_odd=True))
    _grid(d, wm, None)
    d.rect(m, m, cols * sq, rows * sq, Style(stroke=p["frame"], width=0.8))
    for c in range(cols):
        d.fit_text(m + c * sq, m - 8.0, sq, 5.5, str(c + 1), p["frame"], max_size=7)
    for r in range(rows):
        d.fit_text(m - 11, m + r * sq + sq / 2 - 2.75, 9, 5.5, chr(65 + r), p["frame"], max_size=7)
    _markers(d, wm, None)
    return d


def draw_foreground(state, header: dict | None = None, before=None) -> Drawing:
    """What the turns made, on a clear ground the size of the map: every enclosed square tinted with
    its player's colour (its grid lines and markers drawn again over the tint), every wall, the last
    turn's in red."""
    path = str(record_reference(header or {}, "board", BOARD, ("capitals-board",)))
    wm = world_map(path)
    p, sq, m = wm.palette, wm.square, wm.margin
    d = Drawing(wm.width, wm.height, least_text=0.0)   # for a screen, which zooms
    index = {name: i for i, name in enumerate(state.players)}
    owned = state.owners()
    for (r, c), who in owned.items():
        x, y, s, _ = square_box(wm, r, c)
        d.rect(x, y, s, s, Style(fill=player_colour(index.get(who, 0)).mix(p["paper"], 0.45)))
    _grid(d, wm, set(owned))
    _markers(d, wm, set(owned))
    last = set(state.walls) - set(before.walls) if before is not None else set()
    for w in state.walls:
        (r0, c0), (r1, c1) = w.ends()
        d.line(m + c0 * sq, m + r0 * sq, m + c1 * sq, m + r1 * sq,
               Style(stroke=LAST if w in last else WALL, width=2.2 if w in last else 1.8, cap="square"))
    return d


def _grid(d: Drawing, wm, squares: set | None) -> None:
    """The grid's lines: all of them, or only the sides of `squares`."""
    p, sq, m = wm.palette, wm.square, wm.margin
    style = Style(stroke=p["grid"], width=0.2)
    if squares is None:
        for c in range(wm.projection.columns + 1):
            d.line(m + c * sq, m, m + c * sq, m + wm.projection.rows * sq, style)
        for r in range(wm.projection.rows + 1):
            d.line(m, m + r * sq, m + wm.projection.columns * sq, m + r * sq, style)
        return
    for r, c in sorted(squares):
        x, y = m + c * sq, m + r * sq
        d.rect(x, y, sq, sq, style)


def _markers(d: Drawing, wm, squares: set | None) -> None:
    """A marker at every flag site (of `squares` only, when given), in its bracket's colour; several
    in one square side by side (the page names them)."""
    p = wm.palette
    for (row, col), sites in sorted(wm.sites.items()):
        if squares is not None and (row, col) not in squares:
            continue
        x, y, s, _ = square_box(wm, row, col)
        k = len(sites)
        for i, c in enumerate(sites):
            mx, my = x + s * (i + 1) / (k + 1), y + s / 2
            r = min(wm.marker_radius, s / (2 * k + 1))
            d.circle(mx, my, r, Style(fill=wm.deck.bracket_colour(c.bracket), stroke=p["ink"], width=0.3))
