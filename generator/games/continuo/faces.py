"""Continuo faces: the tile's 16 compartments to the bleed, numbers for Count continuo, the
tile's number small in its top-left compartment (so a record can name it, and its rotation can
be read), a rules card and a scoring-example card; one back for the whole pack."""
from __future__ import annotations

from ...colour import Colour
from ...draw import Drawing, Style, translate
from ...draw.drawing import fit_size, text_block_height
from ...draw.fonts import get_font
from .deck import ContinuoDeck
from .rules import Layout, place
from .tiles import Tile

WHITE = Colour(rgb=(1, 1, 1))
INK = Colour(rgb=(0.12, 0.12, 0.12))
GRID = Style(stroke=Colour(rgb=(1, 1, 1)), width=0.35)


def _compartments(d: Drawing, deck: ContinuoDeck, tile: Tile, x0: float, y0: float, cell: float,
                  bleed: float = 0.0, numbers: bool = False, edge: float = 0.0, cap_share: float = 0.56,
                  corner: float = 0.0) -> None:
    """A tile's compartments; edge compartments run out into the bleed. A number in a compartment
    at the tile's edge keeps `edge` mm from it (a card's cut edge: MARGIN, where a print shop's
    cutter may stray), moved towards the tile's middle; the top row's numbers keep `corner` mm at
    their foot free (the tile's own number is in the top-left one; the row stays in line); every
    number is the same size,
    its capitals cap_share of a compartment high or what the smallest of those spaces holds."""
    for r, row in enumerate(tile):
        for c, ch in enumerate(row):
            x, y = x0 + c * cell, y0 + r * cell
            ex0 = bleed if c == 0 else 0.0
            ey0 = bleed if r == 0 else 0.0
            ex1 = bleed if c == 3 else 0.0
            ey1 = bleed if r == 3 else 0.0
            d.rect(x - ex0, y - ey0, cell + ex0 + ex1, cell + ey0 + ey1, Style(fill=deck.colours[ch].colour))
    for k in range(1, 4):  # thin white lines between compartments, as on the published cards
        d.line(x0 + k * cell, y0 - bleed, x0 + k * cell, y0 + 4 * cell + bleed, GRID)
        d.line(x0 - bleed, y0 + k * cell, x0 + 4 * cell + bleed, y0 + k * cell, GRID)
    if numbers:
        boxes = {}
        for r, row in enumerate(tile):
            for c, ch in enumerate(row):
                boxes[r, c] = (x0 + c * cell + (edge if c == 0 else 0.0),
                               y0 + r * cell + (edge if r == 0 else 0.0),
                               x0 + (c + 1) * cell - (edge if c == 3 else 0.0),
                               y0 + (r + 1) * cell - (edge if r == 3 else 0.0) - (corner if r == 0 else 0.0))
        cap = min([cell * cap_share] + [by1 - by0 for _, by0, _, by1 in boxes.values()])
        for (r, c), (bx0, by0, bx1, by1) in boxes.items():
            ch = tile[r][c]
            d.fit_text(bx0, (by0 + by1 - cap) / 2, bx1 - bx0, cap,
                       str(deck.colours[ch].number), deck.colours[ch].ink,
                       max_size=cell * 0.75 * cap_share / 0.56)


def draw_tile(deck: ContinuoDeck, number: int, tile: Tile) -> Drawing:
    """A tile's face: its compartments, and its number (how a record names it), small, in the
    lower-left corner of the top-left compartment, in that compartment's ink: never on the back,
    where it would tell the next tile of the face-down pile before it is drawn. It reads upright
    when the tile lies as the referee's rotation 0."""
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    d = Drawing(W, H)
    cell = W / 4
    _compartments(d, deck, tile, 0, 0, cell, b, numbers=deck.variant == "count-continuo", edge=MARGIN,
                  corner=NUMBER_ROOM)
    # In the compartment's lower-left corner, under Count continuo's numeral (kept above it), and
    # MARGIN inside the trim, where a cut that strays leaves it whole.
    d.text(MARGIN, cell - 0.9, str(number), NUMBER, deck.colours[tile[0][0]].ink, font="sans")
    return d


NUMBER = 2.2        # mm (6.2 pt): a tile's number on its face
NUMBER_ROOM = 3.0   # mm kept at the foot of the top-left compartment for the tile's number (its line
                    # 0.9 mm up, its digits 1.6 mm high) and a gap above it: Count continuo's numeral stays over it


def draw_back(deck: ContinuoDeck) -> Drawing:
    """The pack's back, the same for every card."""
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=deck.back["colour"]))
    cell = 5.0
    letters = list(deck.colours)
    for k in range(4):  # a ring of the deck's colours, the same after any turn
        ch = deck.colours[letters[k % len(letters)]].colour
        for x, y in ((W / 2 - 2 * cell + k * cell, 7), (W - 7 - cell, H / 2 - 2 * cell + k * cell),
                     (W / 2 + cell - k * cell, H - 7 - cell), (7, H / 2 + cell - k * cell)):
            d.rect(x, y, cell, cell, Style(fill=ch))
    # The title between the side squares: on two lines when one would set it under 8 pt.
    title, box_w = deck.back["title"], W - 26
    font = get_font("sans-bold")
    words = title.split()
    if len(words) > 1 and box_w / font.width(title, 1.0) < 8 / 72 * 25.4:
        cut = min(range(1, len(words)), key=lambda k: max(font.width(" ".join(words[:k]), 1.0),
                                                          font.width(" ".join(words[k:]), 1.0)))
        lines = (" ".join(words[:cut]), " ".join(words[cut:]))
        size = fit_size(max(lines, key=lambda t: font.width(t, 1.0)), font, box_w, 4.2)   # one size for both
        for row, line in enumerate(lines):
            d.text(W / 2, H / 2 - 0.8 + row * size * 1.2, line, size, deck.back["ink"], align="centre")
    else:
        d.fit_text(13, H / 2 - 3, box_w, 6, title, deck.back["ink"])
    return d


SMALLEST = 2.2     # mm (6.2 pt): the smallest text a card carries
MARGIN = 3.5       # mm from the trim to any text: a cut may stray


def draw_rules(deck: ContinuoDeck) -> Drawing:
    """The rules on one card, as large as fit (never under SMALLEST: longer rules are an error)."""
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=WHITE))
    d.fit_text(MARGIN, MARGIN, W - 2 * MARGIN, 3.0, f"{deck.title.upper()}: THE RULES", INK, align="left")
    top, width, leading = MARGIN + 5.0, W - 2 * MARGIN, 1.2
    room = H - MARGIN - top
    size = 3.0
    while size > SMALLEST and text_block_height(deck.rules, size, width, leading=leading) > room:
        size = round(size - 0.05, 2)
    if text_block_height(deck.rules, size, width, leading=leading) > room:
        raise deck.spec.error(("rules",), f"the rules do not fit a {W:g} x {H:g} mm card at "
                                          f"{SMALLEST / 25.4 * 72:.1f} pt, the smallest text printed: shorten them")
    d.text_block(MARGIN, top, width, deck.rules, size, INK, font="sans", leading=leading)
    return d


def draw_example(deck: ContinuoDeck) -> Drawing:
    """The scoring example: the YAML's layout, each scored tile marked with its score as the
    referee computes it (so the card can never disagree with the rules)."""
    W, H, b = deck.size.width, deck.size.height, deck.size.bleed
    d = Drawing(W, H)
    d.rect(-b, -b, W + 2 * b, H + 2 * b, Style(fill=WHITE))
    d.fit_text(MARGIN, MARGIN, W - 2 * MARGIN, 2.8, "SCORING EXAMPLE", INK, align="left")
    layout = Layout()
    scored = []
    for p in deck.example:
        layout, chains = place(layout, p, deck.numbers)
        scored.append((p, chains))
    rows = [r for r, _ in layout.cells]
    cols = [c for _, c in layout.cells]
    r0, c0 = min(rows), min(cols)
    n_rows, n_cols = max(rows) - r0 + 1, max(cols) - c0 + 1
    explain = ("Cards 2, 3 and 4 are laid in turn. Each chain through the new card and another "
               "card scores its " + ("numbers' sum." if deck.numbers else "number of squares.")
               + " Its cards are not from the pack.")
    text_h = text_block_height(explain, SMALLEST, W - 2 * MARGIN, leading=1.15)
    # The layout in the middle, its labels beside it: "card n" and its score outside the tile, at
    # SMALLEST and larger, in the margins the labels need.
    # Each side's labels as wide as the widest ("opening", set upright: a word, not a score), GAP
    # from the layout; the text's last line keeps MARGIN below its descenders too.
    GAP = 0.6
    label_w = max(get_font("sans").width(t, SMALLEST) for t in ("card 8", "opening")) + GAP
    oy = 7.5
    descent = -get_font("sans").descent * SMALLEST
    cell = min((W - 2 * MARGIN - 2 * label_w) / n_cols, (H - MARGIN - descent - oy - text_h - 1.5) / n_rows)
    ox = (W - cell * n_cols) / 2
    mid = ox + cell * n_cols / 2
    from .tiles import rotate_tile
    for n, (p, chains) in enumerate(scored, 1):
        x = ox + (p.col - c0) * cell
        y = oy + (p.row - r0) * cell
        with d.group(translate(x, y)):
            # (the example's small compartments: numbers a little fuller, to stay at 6 pt)
            _compartments(d, deck, rotate_tile(p.tile, p.rotation), 0, 0, cell,
                          numbers=deck.variant == "count-continuo", cap_share=0.62)
        d.rect(x, y, 4 * cell, 4 * cell, Style(stroke=INK, width=0.3))
        left = x + 2 * cell < mid
        lx, align = (ox - GAP, "right") if left else (ox + cell * n_cols + GAP, "left")
        d.text(lx, y + 2 * cell - 0.6, f"card {n}", SMALLEST, INK, font="sans", align=align)
        score = "opening" if p.opening else f"+{sum(ch.value for ch in chains)}"
        d.text(lx, y + 2 * cell + 2.6, score, 2.8 if not p.opening else SMALLEST, INK,
               font="sans" if p.opening else "sans-bold", align=align)
    d.text_block(MARGIN, oy + n_rows * cell + 1.5, W - 2 * MARGIN, explain, SMALLEST, INK, font="sans",
                 align="centre", leading=1.15)
    return d
