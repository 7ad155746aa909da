"""A tuck box's assembly sheet: its net as printed, then the box folded step by step, every drawing
made from the net itself (tuckbox.box_nets): each panel is the net's outline within that panel,
turned about its folds in space, so a drawing shows the box this deck's sheet prints, with its
thumb notch, flaps and tabs at their sizes.

The folds form a tree rooted at the front (which stays where it is): the sides, the back and the
glue tab turn about their vertical folds; the lid and the bottom about the back's top and bottom
edges, their flaps about theirs; each dust flap about its side's edge. A panel's place is its
folds' turns composed from the root down, each about its fold line as it lies in the flat net.
"""
from __future__ import annotations

import math

from shapely import affinity
from shapely.geometry import Polygon, box as rect

from ..colour import Colour, relative_luminance
from ..draw import Style
from ..paper import Paper
from ..units import pt
from .assembly import CARD, INK, WHITE, Assembly, Plan, Scene, Step
from .foldups import fold_style
from .tuckbox import BoxArt, TuckBox, box_nets

Vec = tuple[float, float, float]

# (the part, the part it hangs from); the fold is the edge they share in the net.
FOLDS = {
    "side 1": "front", "back": "side 1", "side 2": "back", "glue tab": "side 2",
    "lid": "back", "tuck flap": "lid", "bottom": "back", "glue flap": "bottom",
    "side 1 dust flap top": "side 1", "side 1 dust flap bottom": "side 1",
    "side 2 dust flap top": "side 2", "side 2 dust flap bottom": "side 2",
}
GLUED = ("glue tab", "glue flap")


def _rotate(p: Vec, a: Vec, k: Vec, angle: float) -> Vec:
    """p turned by angle (radians) about the line through a along the unit vector k (Rodrigues)."""
    x, y, z = p[0] - a[0], p[1] - a[1], p[2] - a[2]
    c, s = math.cos(angle), math.sin(angle)
    dot = k[0] * x + k[1] * y + k[2] * z
    cx, cy, cz = k[1] * z - k[2] * y, k[2] * x - k[0] * z, k[0] * y - k[1] * x
    return (a[0] + x * c + cx * s + k[0] * dot * (1 - c), a[1] + y * c + cy * s + k[1] * dot * (1 - c),
            a[2] + z * c + cz * s + k[2] * dot * (1 - c))


def _largest(geom) -> Polygon:
    """A panel's part of the outline: the intersection may come with slivers along its edges (a
    line, a point where the outline touches the panel's box): the largest polygon."""
    polygons = [g for g in getattr(geom, "geoms", [geom]) if isinstance(g, Polygon) and not g.is_empty]
    return max(polygons, key=lambda g: g.area) if polygons else Polygon()


class FoldedBox:
    """The one-piece net of a box in space: flat, its printed face towards +y and its front from z 0
    (bottom) to H, then folded by `angles` (degrees from flat; 90 is folded home, away from the
    print)."""

    def __init__(self, box: TuckBox):
        self.box = box
        self.net = box_nets(box, 1)[0]
        _, y0, _, _ = self.net.panels["front"]
        self.top = y0 + box.panels[1]            # net y at z 0: the front's bottom edge
        self.regions = {name: _largest(self.net.outline.intersection(rect(x, y, x + w, y + h)))
                        for name, (x, y, w, h) in self.net.panels.items()}

    def flat(self, px: float, py: float) -> Vec:
        return (px, self.box.panels[2], self.top - py)

    def _hinge(self, name: str) -> tuple[Vec, Vec]:
        """The fold between a part and the part it hangs from: a point on it and its direction."""
        x, y, w, h = self.net.panels[name]
        px, py, pw, ph = self.net.panels[FOLDS[name]]
        if abs(x - (px + pw)) < 1e-6 or abs(x + w - px) < 1e-6:        # side by side: a vertical fold
            fx = x if abs(x - (px + pw)) < 1e-6 else x + w
            return self.flat(fx, y), (0.0, 0.0, 1.0)
        fy = y + h if y + h <= py + 1e-6 else y                          # above its parent, or below
        return self.flat(x, fy), (1.0, 0.0, 0.0)

    def _sense(self, name: str, a: Vec, k: Vec) -> float:
        """+1 or -1: the turn about (a, k) that takes the part away from the print (towards -y)."""
        c = self.regions[name].centroid
        p = self.flat(c.x, c.y)
        return 1.0 if _rotate(p, a, k, 0.01)[1] < p[1] else -1.0

    def place(self, name: str, angles: dict[str, float]):
        """The part's map from the net to space, as (origin, u, v): p = origin + px u + py v."""
        chain = []
        at = name
        while at in FOLDS:
            chain.append(at)
            at = FOLDS[at]

        def moved(p: Vec) -> Vec:
            for part in chain:              # the part's own fold first, then its parent's, up to the front
                a, k = self._hinge(part)
                p = _rotate(p, a, k, self._sense(part, a, k) * math.radians(angles.get(part, 0.0)))
            return p
        o, ux, vy = moved(self.flat(0, 0)), moved(self.flat(1, 0)), moved(self.flat(0, 1))
        return o, tuple(ux[i] - o[i] for i in range(3)), tuple(vy[i] - o[i] for i in range(3))

    def point(self, name: str, angles: dict[str, float], at: tuple[float, float] | None = None,
              turned: bool = False, spun: bool = False) -> Vec:
        """Where a point of a part (its centroid, or `at` in the net's mm) is, the box folded and
        viewed as scene() draws it."""
        if at is None:
            c = self.regions[name].centroid
            at = (c.x, c.y)
        o, u, v = self._view(*self.place(name, angles), turned, spun)
        return tuple(o[i] + at[0] * u[i] + at[1] * v[i] for i in range(3))

    def _view(self, o: Vec, u: Vec, v: Vec, turned: bool, spun: bool):
        if turned:
            H = self.box.panels[1]
            o, u, v = (o[0], -o[1], H - o[2]), (u[0], -u[1], -u[2]), (v[0], -v[1], -v[2])
        if spun:
            o, u, v = ((p[1], -p[0], p[2]) for p in (o, u, v))
        return o, u, v

    def scene(self, angles: dict[str, float], outside: Colour, inside: Colour = CARD,
              turned: bool = False, spun: bool = False, over: tuple[str, ...] = ()) -> Scene:
        """The box folded by angles, each part coloured as the face the viewer sees (printed or
        plain, glue areas white); turned: upside down (turned about its width), to show its bottom;
        spun: a quarter turn about the upright, so the front's free edge (where the side tab is
        glued) is nearest the viewer; over: parts drawn over all the others (a panel nearest the
        viewer, which painting by centres alone may put under one it covers)."""
        sc = Scene()
        for name, region in self.regions.items():
            if region.is_empty:
                continue
            o, u, v = self._view(*self.place(name, angles), turned, spun)
            # The printed face's normal is u x v (flat: u = x, v = -z, the print towards +y).
            n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
            printed_seen = n[0] + n[1] + n[2] > 0
            colour = (CARD if name in GLUED else outside) if printed_seen else inside
            sc.plate(region, o, u, v, 0.0, colour, part=name, layer=int(name in over))
        return sc


def _deck(sc: Scene, box: TuckBox, lift: float, colour: Colour) -> None:
    """The cards, a block a card wide and the deck thick, standing in the box `lift` mm out of it."""
    W, H, D = box.panels
    w, d = box.card_w, max(box.deck_thickness, 1.0)
    x0, y0 = (W - w) / 2, (D - d) / 2
    sc.plate(rect(0, 0, w, box.card_h), (x0, y0, lift + box.card_h), (1.0, 0.0, 0.0), (0.0, 0.0, -1.0), d, colour)


FOLDED = {k: 90.0 for k in FOLDS}


def _lifted(p: Vec, dz: float) -> Vec:
    return (p[0], p[1], p[2] + dz)


def tuck_box_assembly(box: TuckBox, art: BoxArt, pieces: int, paper: Paper, stem: str, cut_stem: str,
                      cut_pieces: int | None = None) -> Assembly:
    """The sheet for a deck's tuck box, printed (in `pieces`) or cut from its cut file (in
    `cut_pieces`, which a small cut sheet may make two where the print is one, or the other way)."""
    W, H, D = box.panels
    iw, ih, idp = box.inner
    folded = FoldedBox(box)
    fold = art.ink.mix(art.colour, 0.35)
    # The box's colour in the drawings, lightened where it is dark: a drawing's faces are shaded by
    # how they face the light, and a near-black box would show no edges.
    outside = art.colour.mix(WHITE, 0.5 * max(0.0, 1.0 - relative_luminance(art.colour) / 0.3))

    cut = Plan()
    x = 0.0
    for k, net in enumerate(box_nets(box, pieces)):
        shift = x - net.outline.bounds[0]
        cut.add(affinity.translate(net.outline, shift), Style(fill=outside, stroke=INK, width=pt(0.6), join="miter"),
                part="tuck box")
        for g in net.glue:
            cut.add(affinity.translate(g.intersection(net.outline), shift), Style(fill=CARD, stroke=INK,
                                                                                width=pt(0.4)))
        for f in net.folds:
            cut.add(affinity.translate(f, shift), fold_style(fold))
        if "front" in net.panels:
            fx, fy, fw, _ = net.panels["front"]
            cut.callout("thumb notch", (fx + fw / 2 + shift, fy + net.notch), 0, 14, part="tuck box")
        x += net.size[0] + 8.0
    # The tube folded, its front's free edge held open over the side tab (glued inside it): the
    # front, nearest the viewer, over the tab.
    opening = {"side 1": 78.0, "back": 90.0, "side 2": 90.0, "glue tab": 90.0}
    tube = folded.scene(opening, outside, spun=True, over=("front",))
    tab = folded.point("glue tab", opening, spun=True)
    edge = folded.point("front", opening, folded.net.panels["front"][:2], spun=True)    # its free edge, at the top
    seam = (edge[0], edge[1], tab[2])
    tube.arrow((seam[0] - 2, seam[1] + 16, tab[2] + 8), (seam[0] - 1, seam[1] + 2.5, tab[2] + 1))
    tube.callout("side tab", tab, -12, 10, part="glue tab")
    # Each arrow from where a flap is drawn (open) to where it goes (folded home), a little above both.
    swinging = {**FOLDED, "bottom": 45.0, "glue flap": 60.0}
    bottom = folded.scene(swinging, outside, turned=True)
    bottom.arrow(_lifted(folded.point("glue flap", swinging, turned=True), 3.0),
                 _lifted(folded.point("bottom", FOLDED, turned=True), 1.5))
    shutting = {**FOLDED, "lid": 55.0, "tuck flap": 50.0}
    closing = folded.scene(shutting, outside)
    _deck(closing, box, 0.0, CARD.mix(outside, 0.2))
    closing.arrow(_lifted(folded.point("tuck flap", shutting), 3.0), _lifted(folded.point("lid", FOLDED), 1.5))
    closing.callout("tuck flap", folded.point("tuck flap", shutting), 14, -6)

    two = pieces == 2
    steps = [
        Step("Cut on the solid lines, the thumb notch too. Score every dashed line along a metal ruler with a blunt "
             "knife or an empty pen" + (": two pieces, each with its own side tab." if two else "."), cut),
        Step("Fold every scored line away from the print. Glue the side tab (white on the print) inside the front's "
             "free edge, its edges together: the walls make a square tube." if not two else
             "Fold every scored line away from the print. Glue each piece's side tab inside the other piece's free "
             "edge: the two make a square tube.", tube),
        Step("Turn the tube over. Fold in the bottom's two small flaps, then the bottom over them; glue its flap "
             "inside the front and hold it a minute.", bottom),
        Step(f"Put the cards in from the top ({art.contents}): they go in without force, with "
             f"{box.clearance:g} mm to spare each way. Fold in the top's two small flaps, close the lid and slide its "
             f"tuck flap inside the front. Outside, the box is {W:.0f} x {D:.0f} x {H:.0f} mm.", closing),
    ]
    if cut_pieces is not None and cut_pieces != pieces:
        steps[1].text += (f" (The cut file makes the box in {'two pieces' if cut_pieces == 2 else 'one piece'}: "
                          + ("glue each side tab inside the other piece.)" if cut_pieces == 2 else
                             "one side tab, glued inside the front.)"))
    what = (f"{stem}-tuckbox-{paper.name}.pdf, card stock 250-300 g/m2, printed one-sided"
            + (" (two pieces)" if two else ""))
    return Assembly(
        f"{art.title}: the tuck box's assembly",
        f"How to make the tuck box of {stem}-tuckbox-{paper.name}.pdf, printed and cut by hand, or cut and scored "
        f"by a cutting plotter or a laser from {cut_stem} (or its DXF). Inside it measures {iw:g} x {ih:g} x "
        f"{idp:.1f} mm: the cards ({art.size.width:g} x {art.size.height:g} mm) plus {box.clearance:g} mm each way, "
        f"the deck {art.cards} x {box.caliper:g} mm thick. Use card of 250-300 g/m2 (about "
        f"{box.caliper:g} mm; the box is sized for it): thinner paper makes a loose box.",
        [("2" if two else "1", "tuck box pieces" if two else "tuck box", what)],
        ["craft knife or scissors", "metal ruler", "a blunt knife or an empty pen to score", "glue stick"],
        steps,
        [f"The deck goes in and comes out without force, and does not rattle ({box.clearance:g} mm to spare).",
         "The lid closes flat and its tuck flap holds it shut when the box is turned upside down.",
         "The box stands square on its bottom; the glued bottom holds when you shake it with the cards in."])
