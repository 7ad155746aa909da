"""Print and cut (issue 37), the printed pieces' half: every printed piece with an outline that a
game declares (CutParts: Sorry's men and tokens, the Cubes' paper pieces, the Capitals strips and
troughs) and every deck's tuck box (tuck_box_cut_part). Each outline is the trim today's printed
piece is cut on (read from the sheets' drawings, within 0.05 mm), one closed path; each face covers
its outline and its bleed with the piece's art; holes and folds lie inside their outline."""
from functools import lru_cache

import numpy as np
import pytest
import shapely
from shapely import affinity
from shapely.geometry import LineString, Polygon, box
from shapely.ops import unary_union

import games_planned
from conftest import drawn_items
from generator.colour import Colour
from generator.draw import Drawing, Ellipse, Path, Rect, Style, apply, translate
from generator.games import GAMES
from generator.laser.parts import flatten
from generator.paper import PAPERS
from generator.products.contents import CutPart, CutParts, Deck

A4 = PAPERS["a4"]
TOLERANCE = 0.05        # mm: the issue's, between a cut and its printed trim


def contents(game: str) -> tuple:
    """The game's contents on A4 (the deck kind's: the starter deck's), planned once a test process
    for the modules that read them (tests/games_planned.py)."""
    return games_planned.contents(game, "a4")


def cut_parts(game: str, name: str) -> list[CutPart]:
    found = [c for c in contents(game) if isinstance(c, CutParts) and c.name == name]
    assert len(found) == 1, (game, name, [c.name for c in contents(game) if isinstance(c, CutParts)])
    return found[0].parts()


def every_cut_parts() -> list[tuple[str, CutParts]]:
    return [(game, c) for game in GAMES for c in contents(game) if isinstance(c, CutParts)]


def tuck_boxes() -> list[tuple[str, Deck]]:
    return [(game, c) for game in GAMES for c in contents(game) if isinstance(c, Deck) and c.box is not None]


def printed_box(deck: Deck, pieces: int = 1, cards: int | None = None):
    """The deck's box (or one for `cards` cards), its art, and its pieces as cut parts."""
    from dataclasses import replace
    from generator.layout.tuckbox import box_nets, box_settings, deck_box, tuck_box_cut_part
    from generator.products.tuck_box import box_art
    art = box_art(deck)
    if cards is not None:
        art = replace(art, cards=cards)
    box = deck_box(art.size, art.cards, box_settings(deck.spec))
    return box, art, [tuck_box_cut_part(art, net, f"box {k + 1}") for k, net in enumerate(box_nets(box, pieces))]


# ---------------------------------------------------------------- geometry read back

def polygon(ops) -> Polygon:
    rings = flatten(ops, 0.002)
    assert len(rings) == 1, f"{len(rings)} paths"
    return Polygon(rings[0])


def at_origin(poly: Polygon) -> Polygon:
    x0, y0, _, _ = poly.bounds
    return affinity.translate(poly, -x0, -y0)


def coincide(a: Polygon, b: Polygon) -> bool:
    """The two outlines' boundaries lie within TOLERANCE of each other, all along (both placed at
    their bounding boxes' top-left)."""
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a.bounds, b.bounds
    if abs((ax1 - ax0) - (bx1 - bx0)) > TOLERANCE or abs((ay1 - ay0) - (by1 - by0)) > TOLERANCE:
        return False        # (the boxes' test below, before moving either: most pairs end here)
    a, b = at_origin(a), at_origin(b)
    if any(abs(p - q) > TOLERANCE for p, q in zip(a.bounds, b.bounds)):
        return False
    return _boundaries_within(shapely.to_wkb(a.exterior), shapely.to_wkb(b.exterior))


@lru_cache(maxsize=4096)
def _boundaries_within(a: bytes, b: bytes) -> bool:
    """coincide's measure of two boundaries (as WKB: exactly their coordinates), once a pair: the
    checks below ask of a trim and an outline again and again."""
    return shapely.hausdorff_distance(shapely.from_wkb(a), shapely.from_wkb(b), densify=0.25) <= TOLERANCE


def drawn_paths(pages, style: Style) -> list[Polygon]:
    """Every closed path the pages draw in `style`, on the page (its transforms applied)."""
    out = []
    for page in pages:
        for item, m in drawn_items(page.root):
            if isinstance(item, Path) and item.style == style:
                ring, = flatten(item.ops, 0.002)
                out.append(Polygon([apply(m, x, y) for x, y in ring]))
    return out


def assert_outlines_are_the_trims(parts: list[CutPart], trims: list[Polygon]) -> None:
    """Every printed trim is some part's outline, and each part's outline is printed as many times
    as the parts of its shape count."""
    outlines = [polygon(p.outline) for p in parts]
    for trim in trims:
        assert any(coincide(trim, o) for o in outlines), f"a printed trim {trim.bounds} is no part's outline"
    for part, outline in zip(parts, outlines):
        drawn = sum(coincide(t, outline) for t in trims)
        same = sum(q.count for q, o in zip(parts, outlines) if coincide(o, outline))
        assert drawn == same, (part.name, drawn, same)
    assert len(trims) == sum(p.count for p in parts)


def two_point_lines(drawing, cut: Style) -> list[tuple[tuple, tuple]]:
    """The straight lines a drawing draws (folds, ticks, hatching: every two-point path but the
    cut's), each as its two ends, in the drawing's frame."""
    return [tuple(apply(m, *op[1:3]) for op in item.ops) for item, m in drawn_items(drawing.root)
            if isinstance(item, Path) and item.style != cut and [op[0] for op in item.ops] == ["M", "L"]]


def lines_within(lines, region: Polygon, dx: float = 0.0, dy: float = 0.0, ends=None) -> list[tuple]:
    """Those of the lines that lie within the region, moved by (dx, dy), each with its ends in order.
    ends: the lines' ends as an (n, 4) array, where the caller has it (a page's lines, read for each
    of its trims); those within the region's box are the ones looked at."""
    inside = region.buffer(0.01)
    x0, y0, x1, y1 = inside.bounds
    e = np.asarray(lines, dtype=float).reshape(-1, 4) if ends is None else ends
    xs, ys = e[:, 0::2], e[:, 1::2]
    boxed = np.flatnonzero((x0 <= xs.min(axis=1)) & (xs.max(axis=1) <= x1)
                           & (y0 <= ys.min(axis=1)) & (ys.max(axis=1) <= y1))
    covered = shapely.covers(inside, shapely.linestrings(e[boxed].reshape(-1, 2, 2))) if len(boxed) else []
    return [tuple(sorted(((a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy))))
            for (a, b), ok in zip((lines[i] for i in boxed), covered) if ok]


def line_key(line) -> tuple:
    """A line's ends, (x0, y0, x1, y1) to a millionth: what lines are matched and compared by."""
    return tuple(round(v, 6) for end in line for v in end)


def same_lines(a: list[tuple], b: list[tuple]) -> bool:
    """As many lines, each of either within TOLERANCE of its match in the other (matched in order
    of their ends)."""
    if len(a) != len(b):
        return False
    return all(max(abs(u - v) for u, v in zip(line_key(x), line_key(y))) <= TOLERANCE
               for x, y in zip(sorted(a, key=line_key), sorted(b, key=line_key)))


def assert_faces_lie_on_their_outlines(parts: list[CutPart], pages, cut: Style, trims_of=None) -> None:
    """Each part's face draws, within its outline, the lines the sheets draw within its trim (the
    folds, ticks and hatching, moved with the trim): the face lies on its outline as the printed
    piece's art on its trim, to 0.05 mm. And every fold of the part is one of them. trims_of(page):
    the page's trims (default: the paths it draws in the cut's style)."""
    outlines = [polygon(p.outline) for p in parts]
    faces = [lines_within(two_point_lines(p.face, cut), o) for p, o in zip(parts, outlines)]
    for part, lines in zip(parts, faces):
        folds = [tuple(sorted(op[1:3] for op in fold)) for fold in part.folds]
        keys = [line_key(line) for line in lines]        # (same_lines([f], [line]) for each line)
        assert all(any(max(abs(u - v) for u, v in zip(line_key(f), k)) <= TOLERANCE for k in keys)
                   for f in folds), part.name
    checked = 0
    for page in pages:
        printed = two_point_lines(page, cut)
        ends = np.asarray(printed, dtype=float).reshape(-1, 4)
        for trim in (trims_of or (lambda page: drawn_paths([page], cut)))(page):
            k = next(k for k, o in enumerate(outlines) if coincide(trim, o))
            x0, y0, _, _ = trim.bounds
            assert same_lines(faces[k], lines_within(printed, trim, -x0, -y0, ends)), parts[k].name
            checked += 1
    assert checked == sum(p.count for p in parts)


# ---------------------------------------------------------------- each kind against its sheets

def test_sorry_men_are_cut_on_the_standees_printed_trim():
    from generator.games.sorry.pieces import load_men, men_pages
    from generator.layout.foldups import CUT
    spec = next(s for s in games_planned.game_specs("sorry").values() if "men" in s.data)
    pages = men_pages(load_men(spec), A4, "Sorry")
    parts = cut_parts("sorry", "sorry-men")
    assert [p.count for p in parts] == [4, 4, 4, 4]
    assert_outlines_are_the_trims(parts, drawn_paths(pages, CUT))
    assert_faces_lie_on_their_outlines(parts, pages, CUT)


def test_sorry_tokens_are_cut_on_the_tokens_printed_rim():
    from generator.games.sorry.pieces import load_men, men_pages
    spec = next(s for s in games_planned.game_specs("sorry").values() if "men" in s.data)
    men = load_men(spec)
    pages = men_pages(men, A4, "Sorry")
    rims = [affinity.scale(shapely.Point(apply(m, e.cx, e.cy)).buffer(e.rx, quad_segs=64), 1, e.ry / e.rx)
            for page in pages for e, m in drawn_items(page.root)
            if isinstance(e, Ellipse) and e.style.stroke == Colour(rgb=(0, 0, 0)) and e.rx == men.token / 2]
    parts = cut_parts("sorry", "sorry-tokens")
    assert [p.count for p in parts] == [4, 4, 4, 4]
    assert_outlines_are_the_trims(parts, rims)
    for part in parts:      # the face lies on its outline: its discs and rings about the outline's centre
        centre = polygon(part.outline).centroid
        discs = [(apply(m, e.cx, e.cy)) for e, m in drawn_items(part.face.root) if isinstance(e, Ellipse)]
        assert len(discs) == 2 and all(centre.distance(shapely.Point(c)) <= TOLERANCE for c in discs), part.name


@pytest.mark.parametrize("four", [False, True])
def test_cubes_paper_pieces_are_cut_on_their_printed_trims(four):
    from generator.games.cubes.paper_pieces import load_pieces, pieces_pages
    from generator.layout.foldups import CUT
    spec = next(s for s in games_planned.game_specs("cubes").values() if s.kind != "cubes-rules")
    pages = pieces_pages(load_pieces(spec, four), A4)
    parts = cut_parts("cubes", f"paper-pieces-{'4p' if four else '2p'}")
    names = [p.name for p in parts]
    assert names[0] == "cube" and sum("king cube" in n for n in names) == sum("pawn" in n for n in names) == (
        4 if four else 2)
    assert_outlines_are_the_trims(parts, drawn_paths(pages, CUT))
    assert_faces_lie_on_their_outlines(parts, pages, CUT)


def test_capitals_troughs_are_cut_on_their_printed_trims():
    from generator.games.capitals.walls import CUT, load_walls, print_pages
    spec = next(s for s in games_planned.game_specs("capitals").values() if s.kind == "capitals-walls")
    ws = load_walls(spec)
    parts = cut_parts("capitals", "capitals_walls-troughs")
    assert sum(p.count for p in parts) == sum(ws.counts.values()) == 123
    pages = print_pages(ws, A4)
    assert_outlines_are_the_trims(parts, drawn_paths(pages, CUT))
    assert_faces_lie_on_their_outlines(parts, pages, CUT)


def test_capitals_strips_are_cut_where_the_sheets_cut_them():
    """A strip on the sheets is a filled band between cut lines the sheet draws across it and
    between the strips: each such rectangle, bounded by cut lines on its four sides, is a part's
    outline."""
    from generator.games.capitals.strips import CUT, WALL, WALL_2, strip_pages
    from generator.games.capitals.walls import load_walls
    spec = next(s for s in games_planned.game_specs("capitals").values() if s.kind == "capitals-walls")
    ws = load_walls(spec)

    def fills(page) -> list[Polygon]:
        out = []
        for item, m in drawn_items(page.root):
            if isinstance(item, Rect) and item.style.fill in (WALL, WALL_2):
                (x0, y0), (x1, y1) = apply(m, item.x, item.y), apply(m, item.x + item.w, item.y + item.h)
                out.append(box(x0, y0, x1, y1))
        return out
    pages = strip_pages(ws, A4)
    trims = []
    for page in pages:
        cuts = unary_union([LineString([apply(m, op[1], op[2]) for op in item.ops]) for item, m in
                            drawn_items(page.root) if isinstance(item, Path) and item.style == CUT]).buffer(TOLERANCE)
        for fill in fills(page):
            assert fill.boundary.difference(cuts).length < 1e-6, f"a strip at {fill.bounds} not cut all round"
            trims.append(fill)
    parts = cut_parts("capitals", "capitals_walls-strips")
    assert sum(p.count for p in parts) == 123
    assert_outlines_are_the_trims(parts, trims)
    assert_faces_lie_on_their_outlines(parts, pages, CUT, fills)       # (its ticks)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_tuck_box_is_cut_on_its_printed_trim(paper):
    from generator.layout.tuckbox import cut_style, plan_print, print_pages
    boxes = tuck_boxes()
    assert len(boxes) == 7                 # every shipped deck has one, and the starter deck
    for game, deck in boxes:
        box, art, parts = printed_box(deck)
        plan = plan_print(box, PAPERS[paper])
        assert plan.pieces == 1, (game, deck.art.stem)
        pages = print_pages(box, art, plan)
        assert_outlines_are_the_trims(parts, drawn_paths(pages, cut_style(art.colour)))
        assert_faces_lie_on_their_outlines(parts, pages, cut_style(art.colour))
        # The tab and the thumb notch are in the outline: the notch is a bite out of the front's top.
        outline = polygon(parts[0].outline)
        assert outline.area < shapely.convex_hull(outline).area


def test_a_thick_decks_box_in_two_pieces_is_cut_on_both_printed_trims():
    from generator.layout.tuckbox import cut_style, plan_print, print_pages
    _, deck = tuck_boxes()[0]
    box, art, parts = printed_box(deck, pieces=2, cards=150)
    plan = plan_print(box, A4)
    assert plan.pieces == 2 and len(parts) == 2
    pages = print_pages(box, art, plan)
    assert_outlines_are_the_trims(parts, drawn_paths(pages, cut_style(art.colour)))
    assert_faces_lie_on_their_outlines(parts, pages, cut_style(art.colour))


@pytest.mark.slow      # (every game's contents planned, 1 s; Sorry's men and the checks' own test stay quick)
def test_every_printed_piece_with_an_outline_is_declared():
    names = {(game, c.name) for game, c in every_cut_parts()}
    assert names == {("sorry", "sorry-men"), ("sorry", "sorry-tokens"), ("cubes", "paper-pieces-2p"),
                     ("cubes", "paper-pieces-4p"), ("capitals", "capitals_walls-strips"),
                     ("capitals", "capitals_walls-troughs")}
    # Only a cutting machine's products take them: no product of today's build does.
    from generator.products import products
    assert not [p.name for p in products() if CutParts in p.takes and "cut" not in p.name]


# ---------------------------------------------------------------- every part

def part_problems(part: CutPart) -> list[str]:
    """What is wrong with a part's geometry: its outline not one closed simple path in its frame,
    a hole or a fold outside it."""
    problems = []
    ops = part.outline
    kinds = [op[0] for op in ops]
    if not ops or kinds[0] != "M" or kinds[-1] != "Z" or kinds.count("M") != 1 or kinds.count("Z") != 1:
        return [f"{part.name}: the outline is not one closed path ({kinds.count('M')} starts)"]
    outline = polygon(ops)
    if not outline.is_valid or not outline.exterior.is_simple:
        problems.append(f"{part.name}: the outline crosses itself")
    if any(abs(a - b) > 1e-6 for a, b in zip(outline.bounds, (0, 0, part.width, part.height))):
        problems.append(f"{part.name}: the outline's box {outline.bounds} is not (0, 0, width, height)")
    for hole in part.holes:
        if not polygon(hole).within(outline):
            problems.append(f"{part.name}: a hole at {polygon(hole).bounds} is not inside the outline")
    for fold in part.folds:
        line = LineString([op[1:3] for op in fold])
        if not outline.buffer(1e-6).covers(line):
            problems.append(f"{part.name}: a fold at {line.bounds} runs outside the outline")
    if part.count < 1:
        problems.append(f"{part.name}: {part.count} of it")
    return problems


PX_PER_MM = 8


def _pixels(part: CutPart, draw, read=np.copy):
    """The part's frame (its outline's box and bleed, and 1 mm) at PX_PER_MM, as cairo draws what
    draw(page) draws there, part-frame coordinates moved by (bleed + 1) mm: (h, w, BGRA), or what
    read(pixels) makes of them (a copy by default; what it reads of a frame of several megabytes,
    it alone copies)."""
    from generator.draw.cairo_backend import render_surface
    b = part.bleed
    page = Drawing(part.width + 2 * b + 2, part.height + 2 * b + 2)
    with page.group(translate(b + 1, b + 1)):
        draw(page)
    surface = render_surface(page, PX_PER_MM * 25.4)
    h, w = surface.get_height(), surface.get_width()
    # Read while the surface lives: get_data() is a view of cairo's memory, which nothing keeps
    # once the surface is collected (read after that, the pixels were whatever came next, or a crash).
    return read(np.frombuffer(surface.get_data(), np.uint8).reshape(h, surface.get_stride())[:, :4 * w].reshape(
        h, w, 4))


def _mask(part: CutPart, area) -> np.ndarray:
    """The pixels wholly inside an area (a shapely polygon, holes and all) of the part's frame."""
    from generator.layout.foldups import polygon_path
    areas = list(getattr(area, "geoms", [area]))
    ink = Style(fill=Colour(rgb=(0, 0, 0)), even_odd=True)
    return _pixels(part, lambda page: [page.path(polygon_path(a).ops, ink) for a in areas],
                   lambda px: px[:, :, 3] == 255)


def face_problems(part: CutPart) -> list[str]:
    """What is wrong with a part's face: a pixel within its outline and bleed (less a pixel) left
    unprinted, or a
    bleed that is blank white more often than the art just inside the outline is (the art not
    carried into the bleed)."""
    # (its alpha, and where it is white: each of R, G and B 250 or more)
    alpha, white = _pixels(part, lambda page: page.place(part.face), lambda px: (
        px[:, :, 3].copy(), np.minimum(np.minimum(px[:, :, 0], px[:, :, 1]), px[:, :, 2]) >= 250))
    outline = polygon(part.outline)
    # (less a pixel: an edge pixel's coverage is rounded apart in two drawings)
    covered = _mask(part, outline.buffer(part.bleed - 1.0 / PX_PER_MM, join_style="mitre", mitre_limit=2.0))
    problems = []
    bare = int((alpha[covered] < 255).sum())
    if bare:
        problems.append(f"{part.name}: {bare} pixels of its outline and bleed unprinted")
    ring = covered & ~_mask(part, outline.buffer(1.0 / PX_PER_MM))
    edge = _mask(part, outline.difference(outline.buffer(-0.5)))
    if white[ring].mean() > white[edge].mean() + 0.1:
        problems.append(f"{part.name}: its bleed is {white[ring].mean():.0%} white where the art along its "
                        f"outline is {white[edge].mean():.0%}")
    return problems


def every_part():
    for game, content in every_cut_parts():
        for part in content.parts():
            yield f"{content.name}: {part.name}", part
    for game, deck in tuck_boxes():
        for part in printed_box(deck)[2]:
            yield f"{deck.art.stem} tuck box", part
    _, deck = tuck_boxes()[0]
    for part in printed_box(deck, pieces=2, cards=150)[2]:
        yield f"{deck.art.stem} tuck box for 150 cards", part


@pytest.mark.slow      # (every game's contents planned, 1 s; Sorry's men and the checks' own test stay quick)
def test_every_outline_is_one_closed_path_with_its_holes_and_folds_inside():
    parts = list(every_part())
    assert len(parts) > 50
    for name, part in parts:
        assert part_problems(part) == [], name
    assert sum(len(p.folds) for _, p in parts) > 100


def test_every_face_covers_its_outline_and_bleed_with_its_art():
    seen = set()
    for name, part in every_part():
        # Parts of one net and one colour draw the same face: each looked at once.
        key = (name.split(":")[0], round(part.width, 3), round(part.height, 3), part.name.split()[0])
        if key in seen:
            continue
        seen.add(key)
        assert part.bleed >= 2.0, name
        assert face_problems(part) == [], name


def test_the_checks_find_a_broken_part():
    """The checks above fail a part cut on no closed path, with a hole outside, or whose face stops
    at the outline or leaves its bleed white."""
    from generator.games.sorry.pieces import _paint_man, load_men, standee
    from generator.layout.foldups import draw_foldup, foldup_cut_part
    spec = next(s for s in games_planned.game_specs("sorry").values() if "men" in s.data)
    men = load_men(spec)
    name, colour = men.colours[0]
    good = foldup_cut_part("man", standee(men), _paint_man(men, name, colour), colour)
    assert part_problems(good) == [] and face_problems(good) == []
    from dataclasses import replace
    open_path = replace(good, outline=good.outline[:-1])
    assert part_problems(open_path)
    square = [("M", -5.0, -5.0), ("L", -1.0, -5.0), ("L", -1.0, -1.0), ("Z",)]
    assert part_problems(replace(good, holes=[square]))
    assert part_problems(replace(good, folds=[[("M", -3.0, 1.0), ("L", 3.0, 1.0)]]))
    stops = Drawing(good.width, good.height)
    draw_foldup(stops, standee(men), 0, 0, _paint_man(men, name, colour), cut=False)
    assert face_problems(replace(good, face=stops))
    white = Drawing(good.width, good.height)
    draw_foldup(white, standee(men), 0, 0, _paint_man(men, name, colour), bleed=2.0,
                ground=Colour(rgb=(1, 1, 1)), cut=False)
    assert face_problems(replace(good, face=white))


# ---------------------------------------------------------------- built with each machine

MACHINES = ("silhouette", "cricut", "scanncut")

# (game, content): every CutParts of the five games, and every deck's tuck box, named here so that
# collecting the tests below plans no game (every game's contents cost each test process 2-4 s);
# test_the_printed_pieces_are_every_piece_the_games_declare holds it to the games' declarations.
PRINTED_PIECES = [
    ("capitals", "capitals_walls-strips"), ("capitals", "capitals_walls-troughs"), ("cubes", "paper-pieces-2p"),
    ("cubes", "paper-pieces-4p"), ("sorry", "sorry-men"), ("sorry", "sorry-tokens"),
    ("capitals", "capitals_1961-tuckbox"), ("continuo", "continuo-tuckbox"),
    ("count-continuo", "count_continuo-tuckbox"), ("deck", "deck-tuckbox"), ("mille-bornes", "mille_bornes-tuckbox"),
    ("mille-bornes", "mille_bornes_1961-tuckbox"), ("sorry", "sorry-tuckbox")]


def printed_pieces() -> list[tuple[str, str]]:
    """(game, content): every CutParts of the five games, and every deck's tuck box, as the games declare them."""
    return [(game, c.name) for game, c in every_cut_parts()] + [(game, f"{d.art.stem}-tuckbox") for game, d in
                                                                 tuck_boxes()]


@pytest.mark.slow      # (every game's contents planned, 1 s; Sorry's men and the checks' own test stay quick)
def test_the_printed_pieces_are_every_piece_the_games_declare():
    assert sorted(PRINTED_PIECES) == sorted(printed_pieces())


def content_named(game: str, name: str):
    return next(c for c in contents(game) if (isinstance(c, CutParts) and c.name == name)
                or (isinstance(c, Deck) and f"{c.art.stem}-tuckbox" == name))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("machine", MACHINES)
@pytest.mark.parametrize("game,name", PRINTED_PIECES)
def test_every_printed_piece_builds_with_each_cut(tmp_path, monkeypatch, game, name, machine, paper):
    """Each printed piece (and each deck's box) with --cut MACHINE on the paper: its sheets and cut
    files written, every part on a sheet as many times as it counts, every sheet within the
    machine's reach and clear of its marks. (The sheets are those the product laid its parts on,
    caught as it lays them out: laying them out again here took a sixth of these tests' time.)"""
    import generator.cutters as cutters
    from conftest import build_options
    from generator.cutters import cutter, in_reach
    from generator.outputs import Plan
    from generator.products.cut_sheets import make
    content = content_named(game, name)
    m, p = cutter(machine), PAPERS[paper]
    laid, lay_out = [], cutters.lay_out

    def caught(parts, machine, paper):       # (cut_sheets imports lay_out when it lays parts out)
        sheets = lay_out(parts, machine, paper)
        laid.append((parts, sheets))
        return sheets
    monkeypatch.setattr(cutters, "lay_out", caught)
    plan = Plan()
    make(content, plan.sub(game), build_options(tmp_path, paper, extra={"cut": machine}))
    # The piece's parts, laid out last (a deck's box after its cards; before them, whether the box
    # fits in one piece, one part alone).
    parts, sheets = laid[-1]
    assert parts
    if isinstance(content, Deck):
        assert all("tuck box" in q.name for q in parts), [q.name for q in parts]
    else:
        assert len(laid) == 1
    assert sum(len(s.placed) for s in sheets) == sum(q.count for q in parts)
    assert all(in_reach(s, m, p) for s in sheets), [k for k, s in enumerate(sheets, 1) if not in_reach(s, m, p)]
    ours = [q for rel, q in plan.products.items() if f"/{name}-" in rel]
    assert ours
    for product in ours:
        if product.rel.endswith(".png") and not product.rel.endswith("-sheet1.png"):
            continue    # (a Cricut picture a sheet, each drawn alike: the first one written)
        path = tmp_path / product.rel
        path.parent.mkdir(parents=True, exist_ok=True)
        product.write(path)
        assert path.stat().st_size > 500, product.rel
    kinds = {q.rel.rsplit(".", 1)[1] for q in ours}
    assert kinds == {"silhouette": {"pdf", "svg", "dxf"}, "cricut": {"png", "svg"}, "scanncut": {"pdf", "svg"}}[machine]


def test_a_box_too_big_for_the_machine_is_left_out_with_a_note_unless_asked_for(tmp_path):
    """A deck of 150 x 200 mm cards: the cards fit a Cricut's Print Then Cut area, their box does
    not, even in two pieces. Not asked for (no tuck_box section), the box is left out with a note
    and the cards are made; asked for, it is the spec's error at its line."""
    from dataclasses import replace
    from conftest import build_options
    from generator.errors import SpecError
    from generator.layout.cardsize import CardSize
    from generator.outputs import Plan
    from generator.products.cut_sheets import make
    deck = next(c for c in contents("deck") if isinstance(c, Deck) and c.box is not None)   # (that game's alone)
    big = replace(deck, art=replace(deck.art, size=CardSize(150, 200, 3)))
    assert "tuck_box" not in big.spec.data
    plan = Plan()
    make(big, plan.sub("deck"), build_options(tmp_path, "a4", extra={"cut": "cricut"}))
    assert any("-cricut-sheet" in rel for rel in plan.products)
    assert not any("tuckbox" in rel for rel in plan.products)
    assert any("no tuck box for the Cricut" in note for note in big.spec.notes)
    asked = replace(big, spec=replace(big.spec, data={**big.spec.data, "tuck_box": {}}))
    with pytest.raises(SpecError, match="tuck_box"):
        make(asked, Plan().sub("deck"), build_options(tmp_path, "a4", extra={"cut": "cricut"}))
