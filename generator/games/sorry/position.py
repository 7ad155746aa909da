"""The Sorry position as a drawing: the board as printed (board.draw_board) with every man on it,
in his colour: on the track, on his own safety track, in his start or at home (up to four in a
circle, two by two). The men that moved last are ringed.

Where a start and a home circle lie is worked out as draw_board works it out (the same formulas
from the same spec), so the men sit in the circles the board draws."""
from __future__ import annotations

from pathlib import Path

from ...colour import Colour
from ...draw import Drawing, Style
from ...draw.fonts import get_font
from ...inputs import MadeFromFiles
from ...referee.contract import record_reference
from ...spec import load_spec
from .board import INWARD, card_spaces, cell_of, draw_board, home_spot, load_geometry, side_colours, start_spot

BOARD = "boards/sorry.yaml"
WHITE = Colour(rgb=(1, 1, 1))
INK = Colour(rgb=(0.1, 0.1, 0.1))


_BOARDS = MadeFromFiles(size=4)


def _board(path: str):
    """The board spec, its drawing and colours, made once while the spec is unchanged."""
    return _BOARDS.get(path, lambda: _make_board(path))


def _make_board(path: str):
    spec = load_spec(Path(path))
    return spec, draw_board(spec), side_colours(spec)


def board_spec_path(header: dict | None) -> Path:
    return record_reference(header or {}, "board", BOARD, ("sorry-board",))


def board_colours(header: dict | None) -> dict:
    """Each side's colour, by its name (the players of a Sorry record are colours)."""
    return _board(str(board_spec_path(header)))[2]


# The printed board's division numbers are 2.6 mm, for a board on the table; on a phone 390 px wide
# the 504 mm board is about 0.73 px a mm, so the page's drawing numbers each division again at
# NUMBER mm (about 9 px), and each man on the track carries his division's number (what the moves
# the page lists call him by: 34+4).
NUMBER = 12.0
NUMBER_INK = Colour(rgb=(0.3, 0.3, 0.3))
PAPER = Colour(rgb=(0.99, 0.98, 0.95))


def _man(d: Drawing, x: float, y: float, r: float, colour: Colour, ring: bool, label: str = "") -> None:
    d.circle(x, y + r * 0.12, r, Style(fill=INK))                      # a shadow under the man
    d.circle(x, y, r, Style(fill=colour, stroke=WHITE, width=r * 0.18))
    if label:
        size = r * (1.05 if len(label) < 3 else 0.8)
        d.circle(x, y, r * 0.82, Style(fill=colour.mix(INK, 0.35)))
        d.text(x, y + size * 0.36, label, size, WHITE, font="sans-bold", align="centre")
    else:
        d.circle(x, y, r * 0.42, Style(fill=colour.mix(WHITE, 0.35)))
    if ring:
        d.circle(x, y, r * 1.35, Style(stroke=INK, width=r * 0.16))


def draw_position(state, header: dict | None = None, before=None) -> Drawing:
    """The whole position: the board (draw_background) with the men on it (draw_foreground)."""
    d = draw_background(header)
    d.place(draw_foreground(state, header, before))
    return d


def draw_background(header: dict | None = None) -> Drawing:
    """What no turn changes: the board, and every division's number (a man standing on one covers
    it). The page fetches it once (it is most of the drawing's weight) and lays the men over it."""
    spec, board, colours = _board(str(board_spec_path(header)))
    g = load_geometry(spec)
    q, margin = spec.data["square"], spec.data.get("margin", 10)
    d = Drawing(board.width, board.height, least_text=0.0)   # for a screen, which zooms
    d.place(board)
    font = get_font("sans-bold")
    for i in range(g.track):
        x, y = margin + cell_of(g, i)[0] * q + q / 2, margin + cell_of(g, i)[1] * q + q / 2
        # on a small paper label, so that it reads over a slide's bar too
        w = font.width(str(i + 1), NUMBER) + NUMBER * 0.3
        h = NUMBER * 0.95
        d.rect(x - w / 2, y - h / 2, w, h, Style(fill=PAPER, stroke=NUMBER_INK, width=0.35), r=h * 0.2)
        d.text(x, y + NUMBER * 0.36, str(i + 1), NUMBER, NUMBER_INK, font="sans-bold", align="centre")
    return d


def draw_foreground(state, header: dict | None = None, before=None) -> Drawing:
    """What the turns made, on a clear ground the size of the board: the men (`before`: the state
    before the last turn; the men it moved, or sent back, are ringed) and the card last turned up,
    in its space."""
    spec, board, colours = _board(str(board_spec_path(header)))
    moved = _moved(state, before)
    g = state.g
    q, margin = spec.data["square"], spec.data.get("margin", 10)
    d = Drawing(board.width, board.height, least_text=0.0)   # for a screen, which zooms

    def centre(col, row):
        return margin + col * q + q / 2, margin + row * q + q / 2

    if state.turned_up:
        _turned_up(d, card_spaces(board.width)["TURNED UP"], state.turned_up, colours[state.turned_up[0]])
    names = [s.name for s in g.sides]
    for colour, men in state.position.men.items():
        k = names.index(colour)
        side = g.sides[k]
        dx, dy = INWARD[k]
        ex, ey = cell_of(g, side.entry)
        paint = colours[colour]
        pool = {"start": [], "home": []}
        for m in men:
            ring = (colour, _name(m)) in moved
            if m[0] == "track":
                _man(d, *centre(*cell_of(g, m[1])), q * 0.38, paint, ring, _name(m))
            elif m[0] == "safety":
                j = m[1] + 1
                _man(d, *centre(ex + dx * j, ey + dy * j), q * 0.38, paint, ring, _name(m))
            else:
                pool[m[0]].append(ring)
        # start and home: draw_board's circles, where board.py places them
        spots = {"start": centre(*start_spot(g, k)), "home": centre(*home_spot(g, k))}
        for where, rings in pool.items():
            cx, cy = spots[where]
            for i, ring in enumerate(rings):
                ox, oy = (-1 if i % 2 == 0 else 1) * q * 0.45, (-1 if i < 2 else 1) * q * 0.45
                _man(d, cx + ox, cy + oy, q * 0.34, paint, ring)
    return d


def _turned_up(d: Drawing, space, turned, paint: Colour) -> None:
    """The card last turned up, in the board's TURNED UP space, edged in the colour of who turned it."""
    colour, card = turned
    x, y, w, h = space
    d.rect(x + 3, y + 3, w - 6, h - 6, Style(fill=WHITE, stroke=paint, width=2.5), r=3)
    label = "Sorry!" if card == "sorry" else card
    d.fit_text(x + 8, y + h / 2 - 14, w - 16, 28, label, INK, font="sans-bold", max_size=40)
    d.fit_text(x + 8, y + h - 18, w - 16, 8, colour, paint, font="sans-bold", max_size=8)


def _name(loc) -> str:
    from .rules import loc_name
    return loc_name(loc)


def _moved(state, before) -> set:
    """(colour, place) of each man standing where he did not stand before the last turn."""
    if before is None:
        return set()
    out = set()
    for colour, men in state.position.men.items():
        was = list(before.position.men.get(colour, ()))
        for m in men:
            if m in was:
                was.remove(m)
            else:
                out.add((colour, _name(m)))
    return out
