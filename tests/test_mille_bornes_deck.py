"""The Mille Bornes decks as the patent (and the world) count them."""
from collections import Counter

import pytest

from conftest import ROOT
from generator.games.mille_bornes.deck import load_deck
from generator.games.mille_bornes.faces import draw_face
from generator.spec import load_spec


def deck(name):
    return load_deck(load_spec(ROOT / "decks" / name))


def test_106_card_deck():
    d = deck("mille_bornes.yaml")
    by_cat = Counter()
    for c in d.cards:
        by_cat[c.category.key] += c.count
    assert d.total == 106
    assert by_cat == {"progress": 46, "attack": 18, "parade": 38, "immunity": 4}
    miles = {c.miles: c.count for c in d.cards if c.miles}
    assert miles == {25: 10, 50: 10, 75: 10, 100: 12, 200: 4}
    assert sum(m * n for m, n in miles.items()) == 3500


def test_1961_patent_deck():
    d = deck("mille_bornes_1961.yaml")
    assert d.total == 112
    prec = {c.name: c.points for c in d.cards if c.category.key == "precedence"}
    assert prec == {"Fire service vehicle": 300, "Police vehicle": 200, "Ambulance": 150,
                    "Breakdown vehicle": 100, "Garbage collection vehicle": 50}
    aces = [c for c in d.cards if c.id == "ace-of-the-steering-wheel"]
    assert aces[0].count == 2


def test_numeral_colours_per_digit():
    """The patent: 100 in black, red, blue; each digit drawn in its colour."""
    d = deck("mille_bornes.yaml")
    card = next(c for c in d.cards if c.miles == 100)
    face = draw_face(card, d)
    texts = []

    def walk(g):
        for it in g.items:
            if hasattr(it, "items"):
                walk(it)
            elif hasattr(it, "text") and it.text in "0123456789" and it.size > 15:
                texts.append((it.text, it.fill.hex()))
    walk(face.root)
    pal = d.palette
    assert texts == [("1", pal["black"].hex()), ("0", pal["red"].hex()), ("0", pal["blue"].hex())]


@pytest.mark.parametrize("name", ["mille_bornes.yaml", "mille_bornes_1961.yaml"])
def test_categories_have_distinct_colours(name):
    d = deck(name)
    colours = [c.colour.hex() for c in d.categories.values()]
    assert len(set(colours)) == len(colours)
