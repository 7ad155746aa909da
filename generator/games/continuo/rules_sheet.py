"""What the Continuo (and Count continuo) rules sheet reads and draws: the pack's numbers and
colours as fields, and the chains diagram: the deck's scoring example (the patent's Figure 1 or 2
sequence) drawn with the tiles' own compartments (faces.py), each card's score as the referee's
rules count it (rules.place), the chains the last card scores outlined."""
from __future__ import annotations

from ...colour import WHITE
from ...draw import Drawing, Style, translate
from ...layout.rules_sheet import SheetGame, used_spec
from ...spec import Spec
from ...units import pt
from .deck import ContinuoDeck, load_deck
from .faces import INK, _compartments
from .rules import NEIGHBOURS, Layout, chain_groups, place
from .tiles import rotate_tile


def sheet_game(spec: Spec) -> SheetGame:
    deck = load_deck(used_spec(spec, "deck", ("continuo-deck",)))
    fields = {"tiles": str(len(deck.tiles)), "title": deck.title}
    for c in deck.colours.values():
        fields[f"number.{c.name}"] = str(c.number)
    names = [c.name for c in deck.colours.values()]
    fields["colours"] = ", ".join(names[:-1]) + " and " + names[-1]
    scored = example_scores(deck)
    for n, (score, chains) in enumerate(scored, 1):
        fields[f"example.{n}"] = str(score)
        fields[f"example.{n}.chains"] = _chain_words(deck, chains)
    palette = {c.name: c.colour for c in deck.colours.values()}
    palette.update({"back": deck.back["colour"], "back_ink": deck.back["ink"], "ink": INK})
    diagrams = {}
    params = spec.data.get("diagrams", {})
    if "chains" in params:
        n = params["chains"]["cards"]
        if n > len(deck.example):
            raise spec.error(("diagrams", "chains", "cards"), f"the deck's example has {len(deck.example)} cards")
        diagrams["chains"] = lambda width: draw_chains(deck, n, width)
    return SheetGame(palette=palette, fields=fields, diagrams=diagrams)


def example_scores(deck: ContinuoDeck) -> list[tuple[int, list]]:
    """Each example card's score and chains, as the referee scores them."""
    layout, out = Layout(), []
    for p in deck.example:
        layout, chains = place(layout, p, deck.numbers)
        out.append((sum(c.value for c in chains), chains))
    return out


def _chain_words(deck: ContinuoDeck, chains) -> str:
    """The chains a card scores, in words: "a green chain of 6 and two blue chains of 4", or with
    numbers (Count continuo) "six 3s and two chains of four 2s"."""
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
             9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}
    groups: dict[tuple, int] = {}
    for c in chains:
        groups[(c.colour, c.size)] = groups.get((c.colour, c.size), 0) + 1
    parts = []
    for (colour, size), k in groups.items():
        if deck.numbers:
            run = f"{words.get(size, str(size))} {deck.numbers[colour]}s"
            parts.append(run if k == 1 else f"{words.get(k, str(k))} chains of {run}")
        else:
            name = deck.colours[colour].name
            what = f"{words.get(k, str(k))} {name} chains" if k > 1 else f"a {name} chain"
            parts.append(f"{what} of {size}")
    if not parts:
        return "no chain"
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


CARD_GUTTER = 1.4      # mm: the white between two cards of the example, on the page


def draw_chains(deck: ContinuoDeck, count: int, width: float) -> Drawing:
    layout, scores = Layout(), []
    for p in deck.example[:count]:
        layout, chains = place(layout, p, deck.numbers)
        scores.append(sum(c.value for c in chains))
    rows = [r for r, _ in layout.cells]
    cols = [c for _, c in layout.cells]
    r0, c0 = min(rows), min(cols)
    n_rows, n_cols = max(rows) - r0 + 1, max(cols) - c0 + 1
    label_w = 19.0                    # room for "card 2: +14" either side
    cell = min((width - 2 * label_w) / n_cols, 7.0)
    ox = (width - cell * n_cols) / 2
    oy = 1.5
    d = Drawing(width, n_rows * cell + 3.0)
    numbers = deck.variant == "count-continuo"
    for n, p in enumerate(deck.example[:count]):
        x, y = ox + (p.col - c0) * cell, oy + (p.row - r0) * cell
        with d.group(translate(x, y)):
            _compartments(d, deck, rotate_tile(p.tile, p.rotation), 0, 0, cell, numbers=numbers)
    for n, p in enumerate(deck.example[:count]):
        x, y = ox + (p.col - c0) * cell, oy + (p.row - r0) * cell
        # Where one card ends and the next begins: a white gutter on the edge, and each card's own
        # thin edge inside it, so two cards side by side show two edges apart (a chain's outline
        # is one thick black line).
        d.rect(x, y, 4 * cell, 4 * cell, Style(stroke=WHITE, width=CARD_GUTTER))
        inset = CARD_GUTTER / 2
        d.rect(x + inset, y + inset, 4 * cell - 2 * inset, 4 * cell - 2 * inset, Style(stroke=INK, width=0.25))
        left = x + 2 * cell < width / 2
        lx, align = (ox - 1.8, "right") if left else (ox + cell * n_cols + 1.8, "left")
        d.text(lx, y + 2 * cell - 0.8, f"card {n + 1}", pt(7.5), INK, font="sans", align=align)
        what = "opening" if p.opening else f"+{scores[n]}"
        d.text(lx, y + 2 * cell + 3.6, what, pt(9.5) if not p.opening else pt(7.5), INK, font="sans-bold",
               align=align)
    # The chains the last card scores: each outlined, white under black, so it shows on any colour.
    for _, cells, _ in chain_groups(layout, count - 1):
        group = set(cells)
        for style in (Style(stroke=WHITE, width=1.6, cap="square"), Style(stroke=INK, width=0.7, cap="square")):
            for (r, c) in group:
                for dr, dc in NEIGHBOURS:
                    if (r + dr, c + dc) in group:
                        continue
                    x, y = ox + (c - c0) * cell, oy + (r - r0) * cell
                    seg = {(1, 0): (x, y + cell, x + cell, y + cell), (-1, 0): (x, y, x + cell, y),
                           (0, 1): (x + cell, y, x + cell, y + cell), (0, -1): (x, y, x, y + cell)}[(dr, dc)]
                    d.line(*seg, style)
    return d
