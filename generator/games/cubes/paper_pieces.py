"""Cubes without a laser: the pieces as fold-ups printed on card, at the kit's sizes (the patent's):
cube nets (30 mm), king cubes (30 x 30, 54 mm tall), pawns (25 mm tall, 12 mm across) as tent
standees; and a sheet of the starting set-up. Colours are the kit spec's `paper_pieces`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...colour import Colour, readable_on
from ...draw import Drawing, Style, rotate
from ...layout.foldups import (INK, Face, Foldup, Item, cuboid, draw_foldup, foldup_cut_part, pack_pages, paint_initial,
                               standing_height, tent)
from ...paper import Paper
from ...spec import Spec
from .kit import Kit, load_kit, player_look

CUBES, KINGS, PAWNS, SETUP = "Cubes", "King cubes", "Pawns", "Starting set-up"
WHITE = Colour(rgb=(1.0, 1.0, 1.0))


@dataclass(frozen=True)
class PaperPieces:
    kit: Kit
    cube_colour: Colour
    players: tuple[tuple[str, Colour], ...]      # (name, colour), in the setup's order
    pawn_depth: float
    setup: dict                                 # cell names: kings, pawns (the spec's setup)


def load_pieces(spec: Spec, four: bool) -> PaperPieces:
    kit = load_kit(spec, four)
    key = "four_player" if four else "two_player"
    d = spec.data.get("paper_pieces", {})
    setup = spec.data["setup"][key]
    defaults = {"two_player": ["#f2efe6", "#3a3a3a"], "four_player": ["#c8262c", "#1d5aa8", "#e9b815", "#2a8a3c"]}
    colours = d.get(key, defaults[key])
    if len(colours) != kit.players:
        raise spec.error(("paper_pieces", key), f"{len(colours)} colours for {kit.players} players")
    from ...colour import parse_colour
    players = []
    for k, (name, c) in enumerate(zip(setup["players"], colours)):
        if key in d:
            players.append((name, spec.colour(("paper_pieces", key, k))))
        else:
            players.append((name, parse_colour(c)))
    cube = spec.colour(("paper_pieces", "cube")) if "cube" in d else parse_colour("#e6d3a8")
    depth = d.get("pawn_depth", 0.6 * kit.pawn_d)
    if not 3.0 <= depth <= kit.pawn_d:
        raise spec.error(("paper_pieces", "pawn_depth"), f"is {depth:g} mm: from 3 mm to the pawn's "
                                                         f"{kit.pawn_d:g} mm across")
    for path, size, least in ((("cube", "size"), kit.cube, 10.0), (("pawn", "diameter"), kit.pawn_d, 6.0),
                              (("pawn", "height"), kit.pawn_height, 10.0)):
        if size < least:
            raise spec.error(path, f"is {size:g} mm: under {least:g} mm the paper piece cannot be folded")
    return PaperPieces(kit, cube, tuple(players), depth, setup)


def ink_on(colour: Colour) -> Colour:
    """White or ink, whichever reads better on the colour."""
    return readable_on(colour, WHITE, INK)


def _crown(page: Drawing, cx: float, cy: float, w: float, colour: Colour) -> None:
    h = w * 0.6
    x0, y0 = cx - w / 2, cy - h / 2
    page.polygon([(x0, y0 + h), (x0, y0 + h * 0.2), (x0 + w * 0.25, y0 + h * 0.55), (cx, y0),
                  (x0 + w * 0.75, y0 + h * 0.55), (x0 + w, y0 + h * 0.2), (x0 + w, y0 + h)], Style(fill=colour))


def _paint_cube(pp: PaperPieces):
    k = pp.kit
    edge = pp.cube_colour.mix(INK, 0.25)

    def paint(page: Drawing, face: Face, ox: float, oy: float) -> None:
        x0, y0, x1, y1 = face.region.bounds
        page.rect(ox + x0, oy + y0, x1 - x0, y1 - y0, Style(fill=pp.cube_colour))
        # The patent's rounded edges (2 mm radius): a line where the round begins.
        r = 2.0
        page.rect(ox + x0 + r, oy + y0 + r, x1 - x0 - 2 * r, y1 - y0 - 2 * r, Style(stroke=edge, width=0.25), r=1.0)
        if face.name == "top":
            # The recess the patent's pawn stands in: here only its place.
            page.circle(ox + (x0 + x1) / 2, oy + (y0 + y1) / 2, k.recess_d / 2,
                        Style(stroke=edge, width=0.35, dash=(1.0, 0.8)))
    return paint


def _paint_king(pp: PaperPieces, name: str, colour: Colour):
    ink = ink_on(colour)

    def paint(page: Drawing, face: Face, ox: float, oy: float) -> None:
        x0, y0, x1, y1 = face.region.bounds
        page.rect(ox + x0, oy + y0, x1 - x0, y1 - y0, Style(fill=colour))
        w, h = x1 - x0, y1 - y0
        cx, cy = ox + x0 + w / 2, oy + y0 + h / 2
        page.rect(ox + x0 + 2, oy + y0 + 2, w - 4, h - 4, Style(stroke=ink, width=0.3), r=1.0)
        if face.name == "bottom":
            return
        with page.group(rotate(face.turn, cx, cy)):
            _crown(page, cx, cy - (h * 0.12 if face.name.startswith("wall") else 0), w * 0.5, ink)
            if face.name.startswith("wall"):
                page.fit_text(ox + x0 + 3, cy + h * 0.12, w - 6, 3.2, name.upper(), ink)
    return paint


def _paint_pawn(initial: str, colour: Colour):
    return paint_initial(colour, initial, ink_on(colour), place=(0.28, 0.55, 0.56, 0.16))


def _setup_diagram(pp: PaperPieces, cell: float = 9.0):
    """The start square with each king (crown) and pawn (disc) in its player's colour, cell names
    round it (columns a.. from the left, rows 1.. from the bottom, as on the board)."""
    from .rules import parse_cell
    k = pp.kit
    s0 = (k.grid - k.start_square) // 2
    n = k.start_square
    label = 6.0
    size = n * cell + 2 * label
    legend = 5.0 * len(pp.players) + 2

    def draw(page: Drawing, x: float, y: float) -> None:
        gx, gy = x + label, y + label
        page.rect(gx, gy, n * cell, n * cell, Style(fill=pp.cube_colour))
        for i in range(n + 1):
            page.line(gx + i * cell, gy, gx + i * cell, gy + n * cell, Style(stroke=INK, width=0.25))
            page.line(gx, gy + i * cell, gx + n * cell, gy + i * cell, Style(stroke=INK, width=0.25))
        page.rect(gx, gy, n * cell, n * cell, Style(stroke=INK, width=1.0))
        for i in range(n):
            page.text(gx + (i + 0.5) * cell, gy - 1.8, chr(ord("a") + s0 + i), 2.6, INK, align="centre")
            page.text(gx - 3.0, gy + (n - i - 0.5) * cell + 0.9, str(s0 + i + 1), 2.6, INK, align="centre")

        def centre(name):
            c, r = parse_cell(name, k.grid)
            return gx + (c - s0 + 0.5) * cell, gy + (n - (r - s0) - 0.5) * cell
        for p, (pname, colour) in enumerate(pp.players):
            cx, cy = centre(pp.setup["kings"][p])
            page.rect(cx - cell * 0.4, cy - cell * 0.4, cell * 0.8, cell * 0.8, Style(fill=colour, stroke=INK, width=0.3))
            _crown(page, cx, cy, cell * 0.5, ink_on(colour))
            initial = player_look(k, p + 1).initial     # as on his pawns: a grey print tells them apart too
            for cellname in pp.setup["pawns"][p]:
                px, py = centre(cellname)
                page.circle(px, py, cell * 0.3, Style(fill=colour, stroke=INK, width=0.3))
                page.text(px, py + 0.95, initial, 2.6, ink_on(colour), font="sans-bold", align="centre")
        ly = gy + n * cell + 3
        for p, (pname, colour) in enumerate(pp.players):
            page.circle(gx + 2, ly + 2 + 5 * p, 1.8, Style(fill=colour, stroke=INK, width=0.3))
            page.text(gx + 6, ly + 3 + 5 * p, f"{pname}: king cube {pp.setup['kings'][p]}, pawns "
                                              f"{', '.join(pp.setup['pawns'][p])}", 2.6, INK, font="sans")
    return Item(max(size, 110.0), size + legend, draw, SETUP)


@dataclass(frozen=True)
class Printed:
    """One kind of paper piece as printed: its net, how its faces are painted, its colour and its
    fold lines' colour, how many, and where it goes on the sheets (section; a player's pawns kept
    on one row)."""
    name: str
    net: Foldup
    paint: Callable
    ground: Colour
    fold: Colour
    count: int
    section: str
    keep: str = ""


def printed_pieces(pp: PaperPieces) -> list[Printed]:
    """Every kind of piece, in the sheets' order: the cubes, each player's king cubes, then each
    player's pawns."""
    k = pp.kit
    cube, king, pawn = cuboid(k.cube, k.cube, k.cube), cuboid(k.cube, k.cube, k.king_height), \
        tent(k.pawn_d, k.pawn_height, pp.pawn_depth)
    out = [Printed("cube", cube, _paint_cube(pp), pp.cube_colour, pp.cube_colour.mix(INK, 0.45), k.cubes - k.kings,
                   CUBES)]
    for name, colour in pp.players:
        out.append(Printed(f"{name} king cube", king, _paint_king(pp, name, colour), colour,
                           ink_on(colour).mix(colour, 0.5), k.kings // k.players, KINGS))
    for p, (name, colour) in enumerate(pp.players):
        out.append(Printed(f"{name} pawn", pawn, _paint_pawn(player_look(k, p + 1).initial, colour),   # the laser
                           colour, ink_on(colour).mix(colour, 0.5), k.pawns_each, PAWNS, keep=name))  # kit's initial
    return out


def cut_parts(pp: PaperPieces) -> list:
    """The pieces for a cutting machine (issue 37), as printed on the sheets, each with its count."""
    return [foldup_cut_part(p.name, p.net, p.paint, p.ground, p.fold, p.count) for p in printed_pieces(pp)]


def pieces_pages(pp: PaperPieces, paper: Paper) -> list[Drawing]:
    k = pp.kit
    plain = k.cubes - k.kings
    kings_each = k.kings // k.players
    pieces = printed_pieces(pp)
    items = [Item(*p.net.size, lambda page, x, y, p=p: draw_foldup(page, p.net, x, y, p.paint, p.fold), p.section,
                  keep=p.keep) for p in pieces for _ in range(p.count)]
    items.append(_setup_diagram(pp))
    face = next(p.net for p in pieces if p.section == PAWNS).face("front").region.bounds
    stands = standing_height(k.pawn_d, pp.pawn_depth, face[3] - face[1])
    # The notes go with the set-up, on the last sheet: a heading alone lets two rows of cube nets
    # fit a landscape sheet.
    how = (f"How to make them: cut out each piece; score every dashed line and fold it away from the print. "
           f"Cubes ({plain}, {k.cube:g} mm) and king cubes ({kings_each} a player, {k.king_height:g} mm tall): glue "
           f"the seam tab inside the last wall, then the end tabs under the top and the bottom; the dashed circle "
           f"on a cube's top marks the patent's pawn recess. Pawns ({k.pawns_each} a player): fold at the head, fold "
           f"both feet in under the pawn and glue the hatched one on the other; it stands {stands:.0f} mm on a "
           f"{k.pawn_d:g} x {pp.pawn_depth:g} mm floor. On a paper cube a pawn stands {k.cube + k.pawn_height:g} mm "
           f"high, a king cube {k.king_height:g} (the patent's cube holds the pawn in a {k.recess_depth:g} mm "
           f"recess).")
    setup = (f"Every cube starts in the thick-lined {k.start_square} x {k.start_square} square of the {k.grid} x "
             f"{k.grid} board; each king cube and pawn stands on a cube as shown (columns from the left, rows "
             f"from the bottom, as the first player sees the board).")
    title = f"{k.title}, {k.players} players: paper pieces"
    return pack_pages(items, paper, title, {SETUP: f"{setup}\n\n{how}"})


def paper_pieces_contents(spec: Spec, four: bool, paper: Paper) -> list:
    """The paper pieces to print and fold for two players or four, and their assembly sheet."""
    from ...products.contents import AssemblySheet, CutParts, Pieces
    from .assembly import pieces_assembly
    pp = load_pieces(spec, four)
    k = pp.kit
    tag = "4p" if four else "2p"
    plain = k.cubes - k.kings
    return [
        Pieces(spec, f"paper-pieces-{tag}", f"{k.title}, {k.players} players: paper pieces",
               lambda paper: pieces_pages(pp, paper), "the paper pieces", ("cube", "size"),
               dict(what=f"{k.title}, {k.players} players: {plain} cubes, {k.kings} king cubes and "
                         f"{k.players * k.pawns_each} pawns to fold, and the starting set-up (last sheet)",
                    variant=f"{k.players} players",
                    make="print at 100 %; cut out, score and fold the dashed lines away from the print, glue the "
                         "hatched tabs",
                    step="Pieces: fold and glue the cubes and king cubes (seam tab first, then the ends) and the "
                         "pawns; set them up as the last sheet shows.",
                    tools=["craft knife or scissors", "metal ruler", "blunt knife or empty pen for scoring",
                           "glue stick"])),
        AssemblySheet(spec, f"paper-pieces-{tag}", lambda: pieces_assembly(pp, paper), variant=f"{k.players} players",
                      what=f"{k.title}, {k.players} players: how to fold the paper pieces (steps with drawings, "
                           "checks)"),
        CutParts(spec, f"paper-pieces-{tag}", f"{k.title}, {k.players} players: paper pieces", lambda: cut_parts(pp),
                 dict(what=f"{k.title}, {k.players} players: {plain} cubes, {k.kings} king cubes and "
                           f"{k.players * k.pawns_each} pawns to fold",
                      step="Pieces: score and fold the dashed lines away from the print; glue the cubes and king "
                           "cubes (seam tab first, then the ends) and the pawns' feet.",
                      tools=["blunt knife or empty pen for scoring", "glue stick"]),
                 variant=f"{k.players} players"),
    ]
