"""What the Mille Bornes rules sheet reads and draws: every amount of the decks' scoring tables
and every card count as a field (so the sheet says what the referee scores), and the tableau
diagram: a team's piles made of the deck's own faces (faces.py), scaled down."""
from __future__ import annotations

from ...layout.markup import counted
from ...draw import Drawing, Style, compose, rotate, scale, translate
from ...errors import show
from ...layout.rules_sheet import SheetGame, place_legible, used_spec
from ...spec import Spec
from ...units import pt
from .deck import MilleBornesDeck, load_deck
from .faces import draw_face

# Which cards go on which pile of a tableau, by category (and, for the speed pile, by card).
SPEED_CARDS = ("speed-limit", "end-of-speed-limit")
PILES = {"battle": ("attack", "parade"), "speed": ("attack", "parade"), "distance": ("progress",),
         "safeties": ("immunity",), "coups_fourres": ("immunity",)}
LABELS = {"battle": "Battle pile", "speed": "Speed pile", "distance": "Distance", "safeties": "Safeties"}


def deck_fields(deck: MilleBornesDeck, prefix: str = "") -> dict[str, str]:
    """The deck's numbers and names, by name: `cards`, `count.ID`, `name.ID`, `category.KEY`,
    `bonus.ID` (a precedence card's), and every entry of its scoring table (`trip`,
    `points.safety`...)."""
    f = {f"{prefix}cards": str(deck.total)}
    for c in deck.cards:
        f[f"{prefix}count.{c.id}"] = str(c.count)
        f[f"{prefix}name.{c.id}"] = c.name             # as the deck names it (a copy may rename it)
        if c.points:
            f[f"{prefix}bonus.{c.id}"] = str(c.points)
    for key in deck.categories:
        f[f"{prefix}category.{key}"] = str(sum(c.count for c in deck.cards if c.category.key == key))
    # the distance cards, counted as the deck has them (10 each of 25, 50 and 75 miles, 12 of 100...)
    f[f"{prefix}counts.distance"] = counted([(str(c.miles), c.count) for c in deck.cards
                                             if c.category.key == "progress"], " miles")
    for key, value in deck.spec.data["scoring"].items():
        if isinstance(value, dict):
            for k, v in value.items():
                f[f"{prefix}{key}.{k}"] = str(v)
        else:
            f[f"{prefix}{key}"] = str(value)
    return f


def sheet_game(spec: Spec) -> SheetGame:
    deck = load_deck(used_spec(spec, "deck", ("mille-bornes-deck",)))
    fields = deck_fields(deck)
    if "patent_deck" in spec.data["uses"]:
        fields.update(deck_fields(load_deck(used_spec(spec, "patent_deck", ("mille-bornes-deck",))), "patent."))
    diagrams = {}
    if "tableau" in spec.data.get("diagrams", {}):
        piles = _tableau(spec, deck)
        diagrams["tableau"] = lambda width: draw_tableau(deck, piles, width)
    return SheetGame(fields=fields, diagrams=diagrams)


def _tableau(spec: Spec, deck: MilleBornesDeck) -> dict[str, list]:
    by_id = {c.id: c for c in deck.cards}
    piles = {}
    for pile, ids in spec.data["diagrams"]["tableau"].items():
        cards = []
        for k, cid in enumerate(ids):
            where = ("diagrams", "tableau", pile, k)
            card = by_id.get(cid)
            if card is None:
                raise spec.error(where, f"no card {show(cid)} in {deck.title}")
            ok = card.category.key in PILES[pile]
            if pile in ("battle", "speed"):
                ok = ok and ((cid in SPEED_CARDS) == (pile == "speed"))
            if not ok:
                raise spec.error(where, f"{card.name} does not go on the {pile.replace('_', ' ')} of a tableau")
            cards.append(card)
        piles[pile] = cards
    return piles


def draw_tableau(deck: MilleBornesDeck, piles: dict[str, list], width: float) -> Drawing:
    """The piles side by side, each a stack showing a strip of every card under the top one; the
    distance cards in a row; safeties, a coup fourré turned crosswise. Labels under each group."""
    ink = deck.palette["black"]
    W, H = deck.size.width, deck.size.height
    gap = 3.0
    groups = [p for p in ("battle", "speed", "safeties") if piles.get(p) or (p == "safeties" and piles.get("coups_fourres"))]
    # Three groups across the column: the safety area holds a card upright and one crosswise.
    safety_units = (1 if piles.get("safeties") else 0) + (H / W if piles.get("coups_fourres") else 0)
    units = sum(1 for p in groups if p != "safeties") + safety_units
    cw = (width - gap * (len(groups) - 1)) / max(units, 1)
    cw = min(cw, 22.0)
    k = cw / W
    ch = H * k
    peek = ch * 0.2                          # how much of each card under the top one shows
    label = pt(7.5)
    row1 = ch + peek * (max(len(piles.get(p, [])) for p in ("battle", "speed")) - 1 if any(
        piles.get(p) for p in ("battle", "speed")) else 0)
    dist = piles.get("distance", [])
    # Side by side where the column holds them, else overlapping no more than the numeral allows:
    # every card's distance must read whole ("200", not "2").
    step = min(cw + 1.5, (width - cw) / max(1, len(dist) - 1)) if len(dist) > 1 else cw
    step = max(step, cw * 0.8)
    row2 = ch if dist else 0.0
    height = row1 + label * 1.9 + (row2 + label * 1.9 + 2.0 if dist else 0.0)
    d = Drawing(width, height)

    def card(c, x, y, turn=0):
        t = compose(translate(x, y), scale(k)) if not turn else \
            compose(translate(x + ch, y), compose(rotate(90), scale(k)))
        place_legible(d, draw_face(c, deck), t)
        if c.category.key == "immunity":
            # The face's name is too small to print at this scale: its index word, legible, in the
            # name's box (which would otherwise stand empty).
            with d.group(t):
                d.text(W / 2, 64.0, c.index, pt(7) / k, c.category.ink, font="sans-bold", align="centre")
        if not turn:
            d.rect(x, y, cw, ch, Style(stroke=ink, width=0.2), r=deck.corner_radius * k)
        else:
            d.rect(x, y, ch, cw, Style(stroke=ink, width=0.2), r=deck.corner_radius * k)

    used = sum((cw if p != "safeties" else cw * safety_units) for p in groups) + gap * (len(groups) - 1)
    x = (width - used) / 2
    for p in groups:
        if p == "safeties":
            xs = x
            for c in piles.get("safeties", []):
                card(c, xs, row1 - ch)
                xs += cw
            for c in piles.get("coups_fourres", []):
                card(c, xs, row1 - cw, turn=90)
                xs += ch
            w = xs - x
        else:
            cards = piles[p]
            y = row1 - ch - peek * (len(cards) - 1)
            for n, c in enumerate(cards):
                card(c, x, y)
                if n < len(cards) - 1:
                    # The strip that shows of a covered card: its corner word, legible (the face's
                    # own is too small at this scale).
                    d.text(x + cw * 0.12, y + peek * 0.78, c.index, pt(6.5), c.category.ink, font="sans-bold")
                y += peek
            w = cw
        d.text(x + w / 2, row1 + label * 1.35, LABELS[p], label, ink, font="sans-bold", align="centre")
        x += w + gap
    if dist:
        y = row1 + label * 1.9 + 2.0
        total_w = step * (len(dist) - 1) + cw
        x = (width - total_w) / 2
        for c in dist:
            card(c, x, y)
            x += step
        miles = sum(c.miles or 0 for c in dist)
        d.text(width / 2, y + ch + label * 1.35, f"{LABELS['distance']}: {miles} miles", label, ink,
               font="sans-bold", align="centre")
    return d
