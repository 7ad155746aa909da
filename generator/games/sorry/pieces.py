"""Sorry's men: four of each side's colour (the patent's "four men" a player), printed on card as
fold-up standees that stand on a division, or as flat tokens instead. Their sizes are the board
spec's `men` (boards/sorry.yaml), each checked to fit a division of the board's `square`."""
from __future__ import annotations

from dataclasses import dataclass

from ...colour import Colour, readable_on
from ...draw import Drawing, Style
from ...layout.foldups import (BLEED, INK, Foldup, Item, draw_foldup, foldup_cut_part, pack_pages, paint_initial,
                               standing_height, tent)
from ...paper import Paper
from ...spec import Spec
from .board import palette, side_colours

MEN_PER_COLOUR = 4      # the patent: "a home for four men" of each colour (rules.Position holds four)
SMALLEST = {"width": 8.0, "height": 10.0, "depth": 4.0, "token": 8.0}   # mm: what scissors can still cut
STANDEES, TOKENS = "Men: fold-up standees", "Or flat tokens"


@dataclass(frozen=True)
class Men:
    square: float           # the board's division
    width: float            # a standee's floor, across
    height: float           # how tall it stands
    depth: float            # its floor, front to back
    token: float            # a token's diameter
    colours: tuple[tuple[str, Colour], ...]      # (side name, colour), in the board's order
    paper: Colour
    ink: Colour


def load_men(spec: Spec) -> Men:
    d = spec.data
    q = d["square"]
    m = d.get("men", {})
    sizes = {"width": m.get("width", 0.7 * q), "height": m.get("height", 0.95 * q),
             "depth": m.get("depth", 0.45 * q), "token": m.get("token", 0.8 * q)}
    for key in ("width", "depth", "token"):
        if sizes[key] > q:
            raise spec.error(("men", key), f"is {sizes[key]:g} mm: a man must fit a division ({q:g} mm)")
    for key, least in SMALLEST.items():
        if sizes[key] < least:
            raise spec.error(("men", key), f"is {sizes[key]:g} mm: under {least:g} mm a man cannot be cut and folded")
    if sizes["height"] > 3 * q:
        raise spec.error(("men", "height"), f"is {sizes['height']:g} mm: over three divisions, a man topples")
    pal = palette(spec)
    colours = tuple(side_colours(spec).items())
    return Men(q, sizes["width"], sizes["height"], sizes["depth"], sizes["token"], colours,
               pal.get("paper", Colour(rgb=(1, 1, 1))), pal.get("ink", INK))


def letter_colour(men: Men, colour: Colour) -> Colour:
    """The paper or the ink, whichever reads better on the colour (ink on yellow)."""
    return readable_on(colour, men.paper, men.ink)


def standee(men: Men) -> Foldup:
    return tent(men.width, men.height, men.depth)


def fold_colour(men: Men, colour: Colour) -> Colour:
    """A man's fold lines: a shade of his colour."""
    return colour.mix(men.ink, 0.6)


def _paint_man(men: Men, name: str, colour: Colour):
    return paint_initial(colour, name[:1].upper(), letter_colour(men, colour))


def _token(men: Men, name: str, colour: Colour, bleed: float = 0.0):
    """A flat token at (x, y): a disc of the colour, a ring and the letter; its trim (token_trim)
    stroked, or with `bleed` the colour carried that far past it and no line (a machine cuts it)."""
    cx, cy, r = token_trim(men)
    letter = name[:1].upper()
    ink = letter_colour(men, colour)

    def draw(page: Drawing, x: float, y: float) -> None:
        if bleed:
            page.circle(x + cx, y + cy, r + bleed, Style(fill=colour))
        else:
            page.circle(x + cx, y + cy, r, Style(fill=colour, stroke=Colour(rgb=(0, 0, 0)), width=0.21))
        page.circle(x + cx, y + cy, r * 0.78, Style(stroke=ink, width=0.5))
        page.fit_text(x + r * 0.5, y + r * 0.6, r, r * 0.8, letter, ink)
    return draw


def token_trim(men: Men) -> tuple[float, float, float]:
    """A token's trim in its box (token x token, from its top-left): centre and radius."""
    r = men.token / 2
    return r, r, r


def men_pages(men: Men, paper: Paper, title: str) -> list[Drawing]:
    net = standee(men)
    w, h = net.size
    items = []
    for name, colour in men.colours:
        paint = _paint_man(men, name, colour)
        for _ in range(MEN_PER_COLOUR):
            items.append(Item(w, h, lambda page, x, y, paint=paint, colour=colour:
                              draw_foldup(page, net, x, y, paint, fold_colour(men, colour)), STANDEES))
    for name, colour in men.colours:
        for k in range(MEN_PER_COLOUR):
            items.append(Item(men.token, men.token, _token(men, name, colour), TOKENS, new_row=k == 0))
    stands = standing_height(men.width, men.depth, net.face("front").region.bounds[3]
                             - net.face("front").region.bounds[1])
    notes = {
        STANDEES: f"Cut round each man; score and fold the dashed lines away from the print: the top of the "
                  f"head joins his two faces. Fold both feet in under him and glue the hatched one on the "
                  f"other. He stands {stands:.0f} mm tall on a {men.width:g} x {men.depth:g} mm floor, inside "
                  f"a {men.square:g} mm division. The letter is his colour's, for anyone who mixes colours up.",
        TOKENS: f"Instead of the standees: {men.token:g} mm discs, four of each colour; cut them out (glue them "
                f"on card or coins to give them weight). Print only this sheet if you use them.",
    }
    return pack_pages(items, paper, f"{title}: the men, four of each colour", notes, landscape=False,
                      new_page=(TOKENS,))


def standee_parts(men: Men) -> list:
    """The standees for a cutting machine (issue 37): one part a colour, four of each."""
    net = standee(men)
    return [foldup_cut_part(f"{name} man", net, _paint_man(men, name, colour), colour, fold_colour(men, colour),
                            MEN_PER_COLOUR) for name, colour in men.colours]


def token_parts(men: Men) -> list:
    """The flat tokens for a cutting machine: one part a colour, four of each."""
    from ...draw import PathBuilder
    from ...products.contents import CutPart
    cx, cy, r = token_trim(men)
    parts = []
    for name, colour in men.colours:
        face = Drawing(men.token, men.token)
        _token(men, name, colour, BLEED)(face, 0.0, 0.0)
        parts.append(CutPart(f"{name} token", men.token, men.token, face,
                             PathBuilder().arc(cx, cy, r, 0, 360).close().ops, BLEED, MEN_PER_COLOUR))
    return parts


def men_contents(spec: Spec, paper: Paper) -> list:
    """The men to print and fold, and their assembly sheet; the same men (or tokens) for a cutting
    machine."""
    from ...products.contents import AssemblySheet, CutParts, Pieces, stem_of
    men = load_men(spec)
    title = spec.data["title"]
    n = MEN_PER_COLOUR * len(men.colours)
    return [
        Pieces(spec, f"{stem_of(spec)}-men", f"{title}: the men", lambda paper: men_pages(men, paper, title),
               "the men", ("men",),
               dict(what=f"{title}: the {n} men ({MEN_PER_COLOUR} of each colour) as fold-up standees (sheet 1) "
                         f"or flat tokens (sheet 2)",
                    sheets=1, make="print sheet 1 (standees) or sheet 2 (tokens), at 100 %; cut, fold the dashed "
                                   "lines, glue each man's feet together",
                    step="Men: cut out the sixteen standees, fold each at the head and fold its feet in, glue them "
                         "(or cut out the tokens).",
                    tools=["craft knife or scissors", "glue stick"])),
        AssemblySheet(spec, f"{stem_of(spec)}-men", lambda: men_assembly(men, title, paper),
                      what=f"{title}: how to fold the men (steps with drawings, checks)"),
        CutParts(spec, f"{stem_of(spec)}-men", f"{title}: the men", lambda: standee_parts(men),
                 dict(what=f"{title}: the {n} men ({MEN_PER_COLOUR} of each colour) as fold-up standees",
                      step="Men: score and fold each at the head, fold its feet in and glue them.",
                      tools=["blunt knife or empty pen for scoring", "glue stick"])),
        CutParts(spec, f"{stem_of(spec)}-tokens", f"{title}: the men as flat tokens", lambda: token_parts(men),
                 dict(what=f"{title}: the {n} men as flat {men.token:g} mm tokens, instead of the standees",
                      step="Men: the tokens are ready as cut (glue them on card or coins to give them weight).")),
    ]


def men_assembly(men: Men, title: str, paper: Paper):
    """The men's assembly sheet: the standee's net as printed, folded."""
    from ...layout.assembly import Assembly, Step, net_plan, tent_scene
    net = standee(men)
    face = net.face("front").region.bounds
    stands = standing_height(men.width, men.depth, face[3] - face[1])
    name, colour = men.colours[0]
    folded = tent_scene(net, stands, men.depth, colour, feet_in=False)      # the feet not folded yet
    folded.callout("the head: a fold", (0, 0, stands), 10, -5, part="face")
    glued = tent_scene(net, stands, men.depth, colour)
    # The leader to the floor where it shows between the faces.
    glued.callout("feet glued one on the other", (men.width * 0.3, -men.depth * 0.3, 0.2), 14, 6, part="foot")
    n = MEN_PER_COLOUR * len(men.colours)
    steps = [
        Step(f"Cut round each man on his solid line ({n} men, {MEN_PER_COLOUR} of each colour). Score the three "
             "dashed lines along a ruler: the top of his head and his two feet.",
             net_plan(net, colour, fold_colour(men, colour))),
        Step("Fold the head's line away from the print: his two faces come together, back to back.", folded),
        Step(f"Fold both feet in under him and glue the hatched foot on the other: the floor, "
             f"{men.width:g} x {men.depth:g} mm. He stands {stands:.0f} mm tall.", glued),
    ]
    checks = [f"A man stands inside a {men.square:g} mm division, and four stand in a start.",
              "He stands upright without leaning on anything; his letter reads from both sides."]
    return Assembly(f"{title}: the men's assembly",
                    f"How to make the men of sorry-men-{paper.name}.pdf (its first sheet; the second has flat tokens to "
                    "cut out instead).",
                    [(str(MEN_PER_COLOUR), f"{side} man", "card stock") for side, _ in men.colours],
                    ["craft knife or scissors", "metal ruler", "a blunt knife or an empty pen to score", "glue stick"],
                    steps, checks)
