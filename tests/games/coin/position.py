"""Coin toss's position: a bar a player, as long as his score."""
from generator.colour import Colour
from generator.draw import Drawing, Style


def draw_position(state, header=None, before=None) -> Drawing:
    d = Drawing(100, 10 * len(state.players) + 10)
    for i, score in enumerate(state.scores):
        d.rect(5, 5 + 10 * i, 5 + 20 * score, 6, Style(fill=Colour(rgb=(0.2, 0.4, 0.7))))
    return d
