"""Text in any script set as its reader expects: the Unicode Bidirectional Algorithm (UAX #9)
orders a line's runs, HarfBuzz shapes each run (Arabic joined, marks placed, ligatures), and
line breaks come from UAX #14 (ICU's line breaker: CJK breaks between ideographs).

One place for every backend: a Text is measured and drawn from the glyphs `shape` gives, so the
PDF, SVG and cairo backends set it alike. Text that needs none of this (every character one glyph
by the font's cmap, left to right, no marks: Latin, Greek, Cyrillic, CJK ideographs) keeps the
quick path of fonts.Font (a character's advance, looked up once), which gives the same glyphs and
positions: `needs_shaping` tells the two apart.

Libraries: uharfbuzz (HarfBuzz's binding), python-bidi (its Python implementation of UAX #9:
levels resolved by rules X1-X10, W1-W7, N1-N2, I1-I2; lines reordered here by L2), icu4py
(ICU's LineBreaker).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# Scripts and characters that need more than one glyph a character in logical order: right-to-left
# scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko...), the Indic and South-East Asian scripts, Hangul
# jamo, combining marks, joiners, bidi controls, variation selectors and emoji modifiers.
_COMPLEX = re.compile(
    "[\u0300-\u036f\u0483-\u0489\u0590-\u08ff\u0900-\u0dff\u0e00-\u0fff\u1000-\u109f\u1100-\u11ff"
    "\u1700-\u18af\u1a00-\u1cff\u1dc0-\u1dff\u200c-\u200f\u202a-\u202e\u2066-\u2069\u20d0-\u20ff"
    "\ua800-\uabff\ufb1d-\ufdff\ufe00-\ufe0f\ufe20-\ufe2f\ufe70-\ufeff"
    "\U00010800-\U00010fff\U0001e800-\U0001efff\U0001f3fb-\U0001f3ff\U000e0000-\U000e01ef]")


def needs_shaping(text: str) -> bool:
    return _COMPLEX.search(text) is not None


@dataclass(frozen=True)
class Glyph:
    """A glyph set: its id in the font, its advance and offsets (font units, x right, y up)."""
    gid: int
    advance: int
    dx: int
    dy: int
    cluster: int          # the index in the text of the first character it stands for


class MissingGlyph(ValueError):
    """A character the font has no glyph for (the index of it in the text)."""

    def __init__(self, index: int):
        self.index = index
        super().__init__(index)


_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\U00010800-\U00010fff\U0001e800-\U0001efff]")
_NUMBER_OR_LTR = re.compile("[0-9\u0660-\u0669\u06f0-\u06f9]|(?![\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff])[^\\W\\d_]")


def paragraph_rtl(text: str) -> bool:
    """Whether a paragraph reads right to left: its first strong letter's direction (rules P2-P3,
    python-bidi's; a paragraph with none reads left to right). (Isolates, whose content P2 skips,
    are refused in every spec's text.)"""
    if not _RTL.search(text) and "\u200f" not in text:
        return False
    from bidi import algorithm as uba
    return uba.get_base_level(text) == 1


def bidi_levels(text: str, base: int | None = None) -> list[int]:
    """Each character's embedding level (even: left to right, odd: right to left), the paragraph's
    direction `base` (0 or 1) or, if None, taken from the text's first strong character (rules
    P2-P3): a line of a paragraph is given its paragraph's. (Quick where the answer is plain: no
    right-to-left letter in a left-to-right paragraph, all 0; right-to-left letters and neutrals
    only, no number and no left-to-right letter, all 1. The rules are run for the rest.)"""
    if not _RTL.search(text) and not base:
        return [0] * len(text)
    if _RTL.search(text) and base != 0 and not _NUMBER_OR_LTR.search(text) and not _CONTROLS.search(text):
        return [1] * len(text)
    from bidi import algorithm as uba
    storage = uba.get_empty_storage()
    base = uba.get_base_level(text) if base is None else base
    storage["base_level"], storage["base_dir"] = base, ("L", "R")[base]
    uba.get_embedding_levels(text, storage)
    uba.explicit_embed_and_overrides(storage)
    uba.resolve_weak_types(storage)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    levels = [c["level"] for c in storage["chars"]]
    # L1: trailing whitespace (and the separators) go back to the paragraph's level.
    k = len(levels)
    while k > 0 and uba.bidirectional(text[k - 1]) in ("WS", "B", "S", "BN", "LRI", "RLI", "FSI", "PDI"):
        k -= 1
        levels[k] = base
    return levels


_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")


def visual_order(levels: list[int]) -> list[int]:
    """The runs' order on the line by rule L2: indices of `levels` from left to right (from the
    highest level down to the lowest odd one, every sequence at that level or higher reversed)."""
    order = list(range(len(levels)))
    if not levels:
        return order
    highest = max(levels)
    lowest_odd = min((lv for lv in levels if lv % 2), default=highest + 1)
    for level in range(highest, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    return order


def runs(text: str, direction: str | None = None) -> list[tuple[int, int, bool]]:
    """The text cut where its level changes, in visual order: (start, end, right_to_left). A
    direction given ("rtl" or "ltr") sets the whole text so (a run already resolved)."""
    if direction is not None:
        return [(0, len(text), direction == "rtl")]
    levels = bidi_levels(text)
    cut: list[tuple[int, int, int]] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or levels[i] != levels[start]:
            cut.append((start, i, levels[start]))
            start = i
    order = visual_order([lv for _, _, lv in cut])
    return [(cut[k][0], cut[k][1], cut[k][2] % 2 == 1) for k in order]


_hb_fonts: dict = {}
_shaped: dict = {}
CACHE_TEXTS = 20_000


def _hb_font(font):
    """HarfBuzz's font of a fonts.Font (its bytes: a spec's font as read, a shipped one's file)."""
    hb_font = _hb_fonts.get(font.name)
    if hb_font is None:
        import uharfbuzz as hb
        if font.data is not None:
            data = font.data
        else:
            with open(font.path, "rb") as f:
                data = f.read()
        hb_font = _hb_fonts[font.name] = hb.Font(hb.Face(hb.Blob(data)))
    return hb_font


NO_CONTEXT = ("", "")
CONTEXT = 5                    # characters of context HarfBuzz reads each side (HB_BUFFER_CONTEXT_LENGTH)


def shape(font, text: str, direction: str | None = None, context: tuple[str, str] = NO_CONTEXT) -> tuple[Glyph, ...]:
    """The text's glyphs in a fonts.Font, from left to right as they are set: each bidi run shaped
    by HarfBuzz in its direction, the runs in visual order. MissingGlyph for a character the font
    lacks. `context`: the text (logical order) just before and after it that is set apart, in
    another style: a piece of a word in bold takes the forms the whole word gives it (an Arabic
    letter joined across the style's edge), without the letters outside being set.
    (Kept for reuse: a text is measured many times while it is fitted, then drawn.)"""
    context = (context[0][-CONTEXT:], context[1][:CONTEXT])
    key = (font.name, text, direction, context)
    got = _shaped.get(key)
    if got is None:
        if len(_shaped) > CACHE_TEXTS:
            _shaped.clear()
        got = _shaped[key] = _shape(font, text, direction, context)
    return got


def _shape(font, text: str, direction: str | None, context: tuple[str, str]) -> tuple[Glyph, ...]:
    import uharfbuzz as hb
    hb_font = _hb_font(font)
    out: list[Glyph] = []
    before = context[0]
    whole = before + text + context[1]
    for start, end, rtl in _by_script(text, runs(text, direction)):
        buf = hb.Buffer()
        buf.add_str(whole, len(before) + start, end - start)     # (the rest of whole: HarfBuzz's context)
        buf.guess_segment_properties()
        buf.direction = "rtl" if rtl else "ltr"
        buf.cluster_level = hb.BufferClusterLevel.MONOTONE_CHARACTERS
        # (no kerning: the quick path of fonts.Font sets no pairs closer, and a word must look the
        # same in a line of Latin and in a line of Hebrew)
        hb.shape(hb_font, buf, {"kern": False})
        for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
            cluster = info.cluster - len(before)
            if info.codepoint == 0 and not _ignorable(text[cluster]):
                raise MissingGlyph(cluster)
            out.append(Glyph(info.codepoint, pos.x_advance, pos.x_offset, pos.y_offset, cluster))
    return tuple(out)


# The scripts a run is cut at (HarfBuzz shapes one script a buffer: Hebrew then Arabic in one
# right-to-left run would be shaped as Hebrew, the Arabic unjoined). Characters of neither (spaces,
# digits, punctuation, marks) stay with the script before them.
_SCRIPTS = (("Hebr", re.compile("[\u0590-\u05ff\ufb1d-\ufb4f]")),
            ("Arab", re.compile("[\u0600-\u06ff\u0750-\u077f\u0870-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")),
            ("Syrc", re.compile("[\u0700-\u074f]")), ("Thaa", re.compile("[\u0780-\u07bf]")),
            ("Nkoo", re.compile("[\u07c0-\u07ff]")))


def _script(ch: str) -> str | None:
    for tag, pattern in _SCRIPTS:
        if pattern.match(ch):
            return tag
    return None


def _by_script(text: str, runs_: list[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
    """Each run cut where its script changes among those of _SCRIPTS, in the run's visual order."""
    out = []
    for start, end, rtl in runs_:
        pieces, begin, current = [], start, None
        for i in range(start, end):
            script = _script(text[i])
            if script is not None and current is not None and script != current:
                pieces.append((begin, i, rtl))
                begin = i
            current = script or current
        pieces.append((begin, end, rtl))
        out += reversed(pieces) if rtl else pieces
    return out


def _ignorable(ch: str) -> bool:
    """Characters a font need not have (joiners, bidi marks, variation selectors): drawn as nothing."""
    return ch in "\u200c\u200d\u200e\u200f\u2060\ufeff" or "\ufe00" <= ch <= "\ufe0f"


def width_units(font, text: str, direction: str | None = None, context: tuple[str, str] = NO_CONTEXT) -> int:
    return sum(g.advance for g in shape(font, text, direction, context))


# ---------------------------------------------------------------- line breaks (UAX #14)

def break_after(text: str) -> list[int]:
    """Where a line may break in the text, by UAX #14 (ICU's line breaker): the indices after which
    a line may end (the text's end among them). Spaces stay with the text before them."""
    from icu4py.breakers import LineBreaker
    if text.isascii():
        return [end for _, end in LineBreaker(text, "en").segments()]
    # ICU counts in UTF-16 units: map them back to the string's characters.
    units, index = 0, {0: 0}
    for i, ch in enumerate(text):
        units += 2 if ord(ch) > 0xFFFF else 1
        index[units] = i + 1
    return [index[end] for _, end in LineBreaker(text, "en").segments() if end in index]

