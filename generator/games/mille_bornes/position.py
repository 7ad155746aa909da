"""The Mille Bornes tableaux as a drawing: one band a team (partners share a tableau), with its
miles against the trip as a bar, the top of its battle and speed piles and its safeties as small
cards drawn with the deck's own symbols and colours (a coup fourré marked), and the team whose
player is to play marked. Between hands, the bands are empty and say which hand comes next."""
from __future__ import annotations

from ...colour import Colour
from ...draw import Drawing, Style, compose, scale, translate
from ...draw.drawing import fit_size
from ...draw.fonts import get_font
from .rules import DEALT, SAFETIES, Tableau, cards_left
from .symbols import NUMBERED_SYMBOLS, SYMBOLS

WIDTH = 120.0
BAND = 44.0         # mm a team
HEAD = 11.0         # mm for the hand's line at the top
CARD_W, CARD_H = 16.0, 22.0
NAME_CAP, NAME_MAX = 5.4, 7.5   # mm: a team's name, its capitals' height and its largest size
NAME_LEAST = 5.0               # mm: a name with its members set smaller than this drops them
PAPER = Colour(rgb=(1, 1, 1))
INK = Colour(rgb=(0.1, 0.1, 0.1))
GREY = Colour(rgb=(0.55, 0.55, 0.55))
TURN = Colour(rgb=(0.98, 0.93, 0.75))
BAR = Colour(rgb=(0.18, 0.55, 0.25))
BAR_BACK = Colour(rgb=(0.88, 0.88, 0.86))


def _mini_card(d: Drawing, deck, card_id: str | None, x: float, y: float, caption: str, mark: str = "") -> None:
    """A small card: the category's colour round its panel, the symbol, the corner index; an empty
    dashed place when the pile is empty."""
    if card_id is None:
        d.rect(x, y, CARD_W, CARD_H, Style(stroke=GREY, width=0.35, dash=(1.2, 1.0)), r=1.2)
        d.fit_text(x, y + CARD_H / 2 - 1.2, CARD_W, 2.4, caption, GREY, font="sans")
        return
    card = next(c for c in deck.cards if c.id == card_id)
    cat = card.category
    d.rect(x, y, CARD_W, CARD_H, Style(fill=cat.colour, stroke=INK, width=0.25), r=1.2)
    d.rect(x + 1, y + 1, CARD_W - 2, CARD_H - 2, Style(fill=cat.panel), r=0.8)
    sym = CARD_W - 4
    with d.group(compose(translate(x + 2, y + 1.6), scale(sym / 100))):
        if card.symbol in NUMBERED_SYMBOLS:
            NUMBERED_SYMBOLS[card.symbol](d, deck.palette, cat.panel, card.limit)
        else:
            SYMBOLS[card.symbol](d, deck.palette, cat.panel)
    d.fit_text(x + 1.2, y + CARD_H - 5.6, CARD_W - 2.4, 3.6, card.index, cat.ink, max_size=4.2)
    if mark:
        d.rect(x + CARD_W - 7.5, y - 1.5, 8.5, 4.2, Style(fill=INK), r=1.0)
        d.fit_text(x + CARD_W - 7.2, y - 0.8, 7.9, 2.8, mark, PAPER)


def draw_position(state, header: dict | None = None, before=None) -> Drawing:
    teams = state.teams
    h = HEAD + BAND * len(teams) + 2
    d = Drawing(WIDTH, h, least_text=0.0)   # for a screen, which zooms
    d.rect(0, 0, WIDTH, h, Style(fill=PAPER))
    hand = state.hand
    if hand is None:
        head = f"Hand {state.hands_played + 1} starts with the next card" if not state.winner else \
            f"{state.winner} wins"
    else:
        pile = "draw pile empty" if hand.pile_empty else \
            f"draw pile {state.facts.size - DEALT * len(state.seats) - hand.drawn}"
        head = f"Hand {hand.number}: trip {hand.trip}{' (extended)' if hand.extended else ''}; {pile}"
    d.fit_text(3, 3, WIDTH - 6, 4.6, head, INK, align="left", max_size=6)
    to_move = state.seats[hand.to_move] if hand is not None else None
    totals = state.totals()
    for i, tm in enumerate(teams):
        y = HEAD + i * BAND
        t: Tableau = hand.tableaux[tm] if hand is not None else Tableau()
        members = [p for p in state.seats if state.team_of[p] == tm]
        playing = to_move in members
        d.rect(1, y, WIDTH - 2, BAND - 2, Style(fill=TURN if playing else PAPER, stroke=INK, width=0.3), r=2)
        x = 4
        if playing:     # the team to play: a pointer before its name
            d.polygon([(4, y + 2.2), (8.5, y + 4.7), (4, y + 7.2)], Style(fill=INK))
            x = 10.5
        # The team's name as large as the band allows (a phone shows this drawing about 3 px a mm):
        # its members too where they fit at a readable size, else the name and who plays.
        room, font = WIDTH - 30 - x, get_font("sans-bold")
        to_play = f": {to_move} to play" if playing and members != [to_move] else ""
        name = tm + (f" ({', '.join(members)})" if members != [tm] else "") + to_play
        if fit_size(name, font, room, NAME_CAP, NAME_MAX, least=0) < NAME_LEAST:
            name = tm + to_play
        d.fit_text(x, y + 2.0, room, NAME_CAP, name, INK, align="left", max_size=NAME_MAX)
        d.fit_text(WIDTH - 28, y + 2.0, 25, NAME_CAP, f"{totals[tm]} pts", INK, align="right", max_size=NAME_MAX)
        trip = hand.trip if hand is not None else 1000
        bar = WIDTH - 42
        d.rect(4, y + 9.5, bar, 4.0, Style(fill=BAR_BACK), r=1.5)
        if t.miles:
            d.rect(4, y + 9.5, bar * min(1.0, t.miles / trip), 4.0, Style(fill=BAR), r=1.5)
        d.fit_text(bar + 6, y + 9.3, WIDTH - bar - 10, 4.0, f"{t.miles} / {trip} mi", INK, align="right",
                   max_size=4.4)
        cy = y + 16
        _mini_card(d, state.deck, t.battle[-1] if t.battle else None, 4, cy, "battle")
        _mini_card(d, state.deck, t.speed[-1] if t.speed else None, 4 + CARD_W + 2, cy, "speed")
        sx = 4 + 2 * (CARD_W + 2) + 5
        for k, s in enumerate(SAFETIES):
            x = sx + k * (CARD_W + 2)
            if s in t.safeties:
                _mini_card(d, state.deck, s, x, cy, "", mark="CF" if s in t.coups else "")
            else:
                d.rect(x, cy, CARD_W, CARD_H, Style(stroke=BAR_BACK, width=0.3, dash=(1.2, 1.0)), r=1.2)
        if hand is not None and hand.pile_empty:
            left = ", ".join(f"{p} {cards_left(hand, state.seats.index(p))}" for p in members)
            d.fit_text(sx, y + BAND - 5.2, WIDTH - sx - 4, 2.6, f"cards left: {left}", INK, font="sans",
                       align="left", max_size=3)
    return d
