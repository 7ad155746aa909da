"""Colours that carry meaning, as colour-blind players see them: every such set checked under a
simulation of protanopia, deuteranopia and tritanopia (generator/colour_vision.py); a pair that
comes closer than CLOSE must carry a mark besides its colour (a number, an initial)."""
from __future__ import annotations

import pytest

from generator.paper import PAPERS

from conftest import ROOT
from generator.colour import WHITE, Colour
from generator.colour_vision import DEFICIENCIES, closest_pair, delta_e, delta_e_lab, simulate
from generator.draw import Drawing, Text
from generator.spec import load_spec

CLOSE = 12.0      # CIEDE2000: closer than this, two small marks are taken for one another


@pytest.mark.parametrize("one, two, want", [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
])
def test_ciede2000_agrees_with_sharmas_test_data(one, two, want):
    assert delta_e_lab(one, two) == pytest.approx(want, abs=1e-4)


def test_the_simulation_keeps_greys_and_confuses_what_it_should():
    for kind in DEFICIENCIES:
        for v in (0.0, 0.5, 1.0):
            grey = simulate(Colour(rgb=(v, v, v)), kind).as_rgb()
            assert grey == pytest.approx((v, v, v), abs=0.01)
    red, green = Colour(rgb=(0.8, 0.15, 0.15)), Colour(rgb=(0.35, 0.55, 0.1))
    assert delta_e(red, green) > 40
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < CLOSE


def close_pairs(colours: dict[str, Colour]) -> set[frozenset]:
    out = set()
    names = list(colours)
    for kind in DEFICIENCIES:
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if delta_e(simulate(colours[a], kind), simulate(colours[b], kind)) < CLOSE:
                    out.add(frozenset((a, b)))
    return out


def texts(drawing: Drawing) -> list[str]:
    out = []

    def walk(g):
        for it in g.items:
            if hasattr(it, "items"):
                walk(it)
            elif isinstance(it, Text):
                out.append(it.text)
    walk(drawing.root)
    return out


def test_capitals_brackets_that_look_alike_carry_their_numbers():
    from generator.games.capitals.board import draw_marker
    from generator.games.capitals.data import load_board
    wm = load_board(load_spec(ROOT / "boards" / "capitals_world_map.yaml"))
    colours = {str(b): c for b, _, c in wm.deck.brackets} | {"0": wm.deck.un_colour}
    close = close_pairs(colours)
    assert frozenset(("3", "4")) in close and frozenset(("5", "6")) in close     # why the numbers are there
    for name in colours:
        d = Drawing(10, 10)
        draw_marker(d, wm, int(name), 5, 5, wm.marker_radius)
        assert texts(d) == ([name] if name != "0" else ["UN"])


def test_continuos_colours_are_told_apart_without_a_mark():
    """Continuo's chains are colour alone: its four colours must stay apart for every player."""
    from generator.games.continuo.deck import load_deck
    deck = load_deck(load_spec(ROOT / "decks" / "continuo.yaml"))
    d, kind, a, b = closest_pair({k: c.colour for k, c in deck.colours.items()})
    assert d >= CLOSE, f"{a} and {b} come within {d:.1f} of each other for {kind}"


def test_player_colours_that_look_alike_carry_initials():
    """Sorry's sides (red and green look alike to a deuteranope) and the Cubes' four players: every
    man and piece carries its player's initial."""
    from generator.games.cubes.paper_pieces import load_pieces, pieces_pages
    from generator.games.sorry.pieces import load_men, men_pages
    men = load_men(load_spec(ROOT / "boards" / "sorry.yaml"))
    assert close_pairs(dict(men.colours))
    printed = [t for page in men_pages(men, PAPERS["a4"], "Sorry") for t in texts(page)]
    for name, _ in men.colours:
        assert printed.count(name[0].upper()) >= 2 * 4          # four standees (two faces) and four tokens
    pp = load_pieces(load_spec(ROOT / "boards" / "cubes_kit.yaml"), True)
    assert close_pairs(dict(pp.players))
    printed = [t for page in pieces_pages(pp, PAPERS["a4"]) for t in texts(page)]
    for name, _ in pp.players:
        assert name[0].upper() in printed and name.upper() in printed
