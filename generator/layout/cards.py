"""Card layouts: `sheet` (imposed on A4/Letter with duplex backs), `shop` (one card a page with
TrimBox/BleedBox) and a PNG contact sheet.

A card is a Drawing whose trim box is (0, 0, width, height); its art runs out to the bleed,
(-bleed, -bleed) to (width + bleed, height + bleed). Where a card goes on a page is an affine
transform; the back's transform is derived from its face's, so registration is geometry, not luck.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..colour import Colour
from ..draw import Drawing, Rect, Style, compose, mirror_x, mirror_y, rotate, translate
from ..draw.drawing import Affine
from .cardsize import CardSize  # noqa: F401  (named here too, where layouts use it)
from ..draw.fonts import get_font, text_width
from ..errors import LayoutError  # noqa: F401  (raised here, and named as cards.LayoutError)
from .marks import MARK_LENGTH, SAFE_MARGIN, crop_marks

GREY = Colour(rgb=(0.35, 0.35, 0.35))


@dataclass(frozen=True)
class Slot:
    """One card position on a sheet: where its trim box lies on the page, and how it is turned."""
    x: float            # trim box on the page, mm from the top-left
    y: float
    w: float            # as laid on the page (swapped when rotated)
    h: float
    transform: Affine   # card coordinates -> page coordinates


@dataclass(frozen=True)
class SheetLayout:
    page_w: float
    page_h: float
    card: CardSize
    rotated: bool
    cols: int
    rows: int
    slots: tuple[Slot, ...]

    @property
    def per_sheet(self) -> int:
        return len(self.slots)


def _grid(n_avail: float, item: float, gutter: float) -> int:
    return max(0, int((n_avail + gutter) // (item + gutter)))


def impose_cards(card: CardSize, page_w: float, page_h: float) -> SheetLayout:
    """As many cards per (portrait) sheet as fit with bleed, crop marks and a blank page edge.

    Cards may be turned a quarter turn when that fits more; the page itself stays portrait so that
    "flip on long edge" means one thing to every printer driver. Neighbouring cards keep a gutter
    of two bleeds, so each card's art runs into its own bleed and no cut shows a neighbour.
    """
    margin = card.bleed + MARK_LENGTH + SAFE_MARGIN  # trim edge to page edge, at the least
    gutter = 2 * card.bleed
    best = None
    for rotated in (False, True):
        w, h = (card.height, card.width) if rotated else (card.width, card.height)
        cols = _grid(page_w - 2 * margin, w, gutter)
        rows = _grid(page_h - 2 * margin, h, gutter)
        if best is None or cols * rows > best[1] * best[2]:
            best = (rotated, cols, rows)
    rotated, cols, rows = best
    if cols * rows == 0:
        raise LayoutError(f"a {card.width} x {card.height} mm card does not fit a {page_w} x {page_h} mm page")
    w, h = (card.height, card.width) if rotated else (card.width, card.height)
    block_w = cols * w + (cols - 1) * gutter
    block_h = rows * h + (rows - 1) * gutter
    x0 = (page_w - block_w) / 2
    y0 = (page_h - block_h) / 2
    slots = []
    for r in range(rows):
        for c in range(cols):
            x = x0 + c * (w + gutter)
            y = y0 + r * (h + gutter)
            if rotated:
                # A quarter turn clockwise: the card's top edge lies along the slot's right side.
                t = (0.0, 1.0, -1.0, 0.0, x + w, y)
            else:
                t = translate(x, y)
            slots.append(Slot(x, y, w, h, t))
    return SheetLayout(page_w, page_h, card, rotated, cols, rows, tuple(slots))


def sheet_flip(page_w: float, page_h: float, flip: str) -> Affine:
    """Front-page coordinates -> back-page coordinates of the same physical point of paper,
    for a portrait sheet turned over its long edge (like a book) or its short edge (a calendar)."""
    if flip == "long":
        return mirror_x(page_w)
    if flip == "short":
        return mirror_y(page_h)
    raise ValueError(f"flip must be 'long' or 'short', got {flip!r}")


def back_transform(slot: Slot, layout: SheetLayout, flip: str, offset=(0.0, 0.0)) -> Affine:
    """Card-back coordinates -> back-page coordinates.

    A card's back is what you see turning the card over its own vertical axis, so the back's
    top-left lies behind the face's top-right. Compose: mirror the card, place it like its face,
    carry that through the sheet's flip, then shift by the printer's measured offset.
    """
    card_flip = mirror_x(layout.card.width)
    placed = compose(slot.transform, card_flip)
    return compose(translate(*offset), compose(sheet_flip(layout.page_w, layout.page_h, flip), placed))


def _cut_lines(layout: SheetLayout, slots) -> tuple[list[float], list[float]]:
    xs = sorted({round(v, 4) for s in slots for v in (s.x, s.x + s.w)})
    ys = sorted({round(v, 4) for s in slots for v in (s.y, s.y + s.h)})
    return xs, ys


CAPTION_SIZE = 2.2    # mm (6.2 pt): the sheet's small print, never smaller
SEPARATOR = "  \u00b7  "


def _caption(d: Drawing, layout: SheetLayout, groups: list[list[str]], used: int | None = None) -> None:
    """Small print in a margin, in the band the crop marks occupy but between them: over each
    column's span, where no mark stands. The first group of phrases (the title) starts at the left,
    the second (how to print) fills the other spans from the right; a phrase that does not fit a
    span moves on to the next, so narrow cards keep their caption at its full size. Our caption
    never fails a user's spec: where a phrase is wider than every column (cards 20 mm wide), the
    caption moves to the left margin, along the rows, reading upwards; where it fits neither, a
    phrase that fits nowhere is left out (the print list says it too), and a title too long for
    any span is cut short with an ellipsis."""
    b = layout.card.bleed
    font = get_font("sans")
    band = CAPTION_SIZE * font.cap_height
    top = [(slot.x + 1.5, slot.w - 3) for slot in layout.slots[: layout.cols]]
    rows = sorted({(slot.y, slot.h) for slot in layout.slots[:used]})      # the rows this page fills
    side = [(y + 1.5, h - 3) for y, h in rows]
    title, how = (list(groups) + [[], []])[:2]

    def width(phrase: str) -> float:       # (a deck's title in its own font where sans lacks a letter)
        return text_width("sans", phrase, CAPTION_SIZE)

    def fits(spans) -> bool:
        return all(width(p) <= max(w for _, w in spans) for p in how)
    spans = top if fits(top) or not fits(side) else side
    widest = max(w for _, w in spans)
    title = [t for t in (shortened(p, widest, width) for p in title) if t]
    how = [p for p in how if width(p) <= widest]

    def pack(phrases: list[str], order: list[int]) -> dict[int, list[str]]:
        lines: dict[int, list[str]] = {}
        k = 0
        for phrase in phrases:
            while k < len(order) - 1 and (width(phrase) > spans[order[k]][1] or lines.get(order[k])
                                          and width(SEPARATOR.join(lines[order[k]] + [phrase])) > spans[order[k]][1]):
                k += 1
            lines.setdefault(order[k], []).append(phrase)
        return lines

    lines = pack(title, list(range(len(spans))))
    free = [i for i in range(len(spans)) if i not in lines]
    if free:   # from the right, last phrase first, then each span read left to right again
        for i, phrases in pack(list(reversed(how)), list(reversed(free))).items():
            lines[i] = list(reversed(phrases))
    elif how:
        lines[len(spans) - 1] = lines.get(len(spans) - 1, []) + how
    for i, phrases in sorted(lines.items()):
        x, w = spans[i]
        text = SEPARATOR.join(phrases)
        # What no span has room for is left out: the title's phrases first (the print list names
        # the deck too), then ours from the end; how to print it matters most at the printer.
        while width(text) > w and len(phrases) > 1:
            gone = [p for p in phrases if p in title][-1:] or phrases[-1:]
            phrases = [p for p in phrases if p not in gone]
            text = SEPARATOR.join(phrases)
        if width(text) > w:
            continue
        if spans is top:
            align = "left" if i == 0 else ("right" if i == len(spans) - 1 else "centre")
            d.fit_text(x, min(slot.y for slot in layout.slots) - b - MARK_LENGTH + 1.0, w, band, text, GREY, font="sans",
                       align=align)
        else:
            # The left margin's band, turned a quarter counter-clockwise: read upwards, the
            # capitals towards the page's edge.
            cx, cy = min(slot.x for slot in layout.slots) - b - MARK_LENGTH + 1.0 + band / 2, x + w / 2
            with d.group(rotate(-90, cx, cy)):
                d.fit_text(cx - w / 2, cy - band / 2, w, band, text, GREY, font="sans", align="centre")


def shortened(phrase: str, room: float, width) -> str:
    """The phrase, or as much of it as fits `room` with an ellipsis."""
    if width(phrase) <= room:
        return phrase
    cut = phrase
    while cut and width(cut.rstrip() + "…") > room:
        cut = cut[:-1]
    return cut.rstrip() + "…" if cut else ""


def sheet_pages(faces: list[Drawing], back: Drawing | list[Drawing], layout: SheetLayout,
                flip: str = "long", offset=(0.0, 0.0), title: str = "") -> list[Drawing]:
    """Face page, back page, face page, ...: each back page puts every back behind its face."""
    backs = back if isinstance(back, list) else [back] * len(faces)
    pages: list[Drawing] = []
    n = layout.per_sheet
    sheets = (len(faces) + n - 1) // n
    clip = layout.card.bleed_clip()
    for s in range(sheets):
        chunk = range(s * n, min(len(faces), (s + 1) * n))
        slots = layout.slots[: len(chunk)]
        front = Drawing(layout.page_w, layout.page_h)
        for i, slot in zip(chunk, slots):
            front.place(faces[i], slot.transform, clip=clip)
        xs, ys = _cut_lines(layout, slots)
        crop_marks(front, xs, ys, layout.card.bleed, min(xs), min(ys), max(xs), max(ys))
        _caption(front, layout, used=len(chunk), groups=[[title, f"sheet {s + 1} of {sheets}"],
                                 ["print at 100 %", "two-sided", f"flip on {flip} edge"]])
        rear = Drawing(layout.page_w, layout.page_h)
        for i, slot in zip(chunk, slots):
            rear.place(backs[i], back_transform(slot, layout, flip, offset), clip=clip)
        pages += [front, rear]
    return pages


def shop_pages(faces: list[Drawing], back: Drawing | list[Drawing], card: CardSize,
               interleave: bool = False) -> list[tuple[Drawing, tuple, tuple]]:
    """One card a page, page = trim + bleed all round. Returns (page, trim box, bleed box)."""
    backs = back if isinstance(back, list) else [back] * len(faces)
    b = card.bleed
    pw, ph = card.width + 2 * b, card.height + 2 * b

    def page(art: Drawing):
        d = Drawing(pw, ph)
        d.place(art, translate(b, b), clip=card.bleed_clip())
        return (d, (b, b, card.width, card.height), (0.0, 0.0, pw, ph))

    if interleave:
        return [p for f, k in zip(faces, backs) for p in (page(f), page(k))]
    return [page(f) for f in faces] + [page(k) for k in backs]


def contact_sheet(faces: list[tuple[Drawing, str]], card: CardSize, cols: int = 8,
                  title: str = "") -> Drawing:
    """Every distinct face once, cut at the trim, each with a caption (e.g. its count)."""
    gap, label_h, head = 6.0, 7.0, 12.0 if title else 0.0
    rows = (len(faces) + cols - 1) // cols
    cols = min(cols, len(faces))
    W = gap + cols * (card.width + gap)
    H = head + gap + rows * (card.height + label_h + gap)
    d = Drawing(W, H)
    d.rect(0, 0, W, H, Style(fill=Colour(rgb=(0.93, 0.93, 0.93))))
    if title:
        d.fit_text(gap, 3, W - 2 * gap, 6, title, Colour(rgb=(0.1, 0.1, 0.1)), align="left")
    for i, (face, caption) in enumerate(faces):
        r, c = divmod(i, cols)
        x = gap + c * (card.width + gap)
        y = head + gap + r * (card.height + label_h + gap)
        d.place(face, translate(x, y), clip=Rect(0, 0, card.width, card.height, Style(), r=3.0))
        d.fit_text(x, y + card.height + 2, card.width, 3.2, caption, GREY, font="sans", align="centre")
    return d
