"""The rules sheets' diagrams: each drawn so that nothing lies over a piece or a label (a wall
over a capital's marker, a move's number over a man, a title over the men in a start) and every
card reads whole (a distance card's numeral, a safety's name)."""
from __future__ import annotations

import math

from conftest import ROOT, drawn_items
from generator.draw import Ellipse, Path, Text, apply
from generator.spec import load_spec


def circles(drawing):
    """Every circle drawn: (centre x, y, radius, fill, stroke width) on the drawing."""
    out = []
    for it, m in drawn_items(drawing.root):
        if isinstance(it, Ellipse):
            x, y = apply(m, it.cx, it.cy)
            out.append((x, y, it.rx * math.hypot(m[0], m[1]), it.style.fill, it.style.width))
    return out


def rules_game(game, rel):
    from generator.layout.rules_sheet import used_spec  # noqa: F401
    import importlib
    spec = load_spec(ROOT / rel, display=rel)
    module = importlib.import_module(f"generator.games.{game}.rules_sheet")
    return spec, module.sheet_game(spec)


def test_capitals_markers_clear_of_the_walls_and_badges_clear_of_markers():
    from generator.games.capitals.data import load_board
    spec, game = rules_game("capitals", "decks/capitals_rules.yaml")
    d = game.diagrams["enclosure"](85.0)
    wm = load_board(load_spec(ROOT / "boards" / "capitals_world_map.yaml"))
    brackets = {wm.deck.bracket_colour(b) for b, _, _ in wm.deck.brackets}
    markers = [c for c in circles(d) if c[3] in brackets]
    badges = [c for c in circles(d) if abs(c[2] - 1.75) < 1e-6]
    walls = []
    for it, m in drawn_items(d.root):
        if isinstance(it, Path) and it.style.stroke is not None and abs(it.style.width - 1.9) < 1e-6:
            (_, ax, ay), (_, bx, by) = it.ops
            walls.append((*apply(m, ax, ay), *apply(m, bx, by)))
    assert len(markers) >= 30 and len(badges) == 4 and len(walls) == 4

    def to_segment(px, py, ax, ay, bx, by):
        t = max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)))
        return math.hypot(px - ax - t * (bx - ax), py - ay - t * (by - ay))
    for x, y, r, _, _ in markers:
        for w in walls:
            assert to_segment(x, y, *w) >= r + 1.9 / 2 - 1e-6, f"a marker at ({x:.1f}, {y:.1f}) is under a wall"
        for bx, by, br, _, _ in badges:
            assert math.hypot(x - bx, y - by) >= r + br, f"a badge covers the marker at ({x:.1f}, {y:.1f})"
    # The caption names the players before it credits one.
    assert game.fields["example.players"] == "Ann and Bob" and game.fields["turn.4.player"] == "Bob"


def test_sorry_moves_numbers_clear_of_men_and_start_named_beside_its_circle():
    spec, game = rules_game("sorry", "decks/sorry_rules.yaml")
    d = game.diagrams["corner"](85.0)
    all_circles = circles(d)
    badges = [c for c in all_circles if c[3] is not None and c[3].hex() == "#1c1c1c"]
    men = [c for c in all_circles if c not in badges and c[2] < 4.0 and c[3] is not None and c[4] < 0.4]
    assert len(badges) == 2 and len(men) >= 5
    for bx, by, br, _, _ in badges:
        for x, y, r, _, _ in men:
            assert math.hypot(x - bx, y - by) >= r + br - 0.05, "a move's number over a man"
    texts = [(it.text, apply(m, it.x, it.y)) for it, m in drawn_items(d.root) if isinstance(it, Text)]
    assert "START" not in [t for t, _ in texts] and "start" in [t for t, _ in texts]
    _, (sx, sy) = next(x for x in texts if x[0] == "start")
    big = max((c for c in all_circles if c[3] is not None), key=lambda c: c[2] if c[4] >= 0.1 else 0)
    assert math.hypot(sx - big[0], sy - big[1]) > big[2] * 0.9 or sx > big[0] + big[2] * 0.9


def test_mille_bornes_tableau_shows_every_numeral_whole_and_names_the_safeties():
    from generator.units import pt
    spec, game = rules_game("mille_bornes", "decks/mille_bornes_rules.yaml")
    d = game.diagrams["tableau"](85.0)
    texts = [(it.text, it.size * math.hypot(m[2], m[3]), apply(m, it.x, it.y)) for it, m in drawn_items(d.root)
             if isinstance(it, Text)]
    # The safeties' names: their index words, at 6.5 pt or more, in their boxes.
    assert {"PRIO", "TANK"} <= {t for t, s, _ in texts if s >= pt(6.5) - 1e-9}
    # The distance row: its cards at least 0.8 of a card apart, so "200" never reads "2".
    from generator.draw import Rect
    outlines = sorted({round(apply(m, it.x, it.y)[0], 3) for it, m in drawn_items(d.root)
                       if isinstance(it, Rect) and it.style.stroke is not None and it.style.fill is None
                       and apply(m, it.x, it.y)[1] > d.height / 2})
    widths = {round(it.w, 3) for it, m in drawn_items(d.root) if isinstance(it, Rect) and it.style.fill is None
              and it.style.stroke is not None}
    cw = min(widths)
    assert len(outlines) == 4 and all(b - a >= 0.8 * cw for a, b in zip(outlines, outlines[1:]))
