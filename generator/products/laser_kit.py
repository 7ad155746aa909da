"""A laser kit: parts nested onto stock sheets, one set of sheets per material, as SVG and DXF for
the cutter and a PNG preview of each sheet; the print list says each sheet's material, size and
how much of it the parts take."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import SpecError, show
from .contents import Kit
from .declaration import ProductDeclaration

if TYPE_CHECKING:
    from ..outputs import Plan

SPARSE = 0.5     # a sheet whose parts lie within less than this share of it: cut it from an offcut


def make(kit: Kit, plan, opts) -> None:
    add_laser_kit(kit.spec, kit.parts, kit.sheet, kit.kerf, kit.margin, kit.spacing,
                  plan.sub(kit.folder) if kit.folder else plan, kit.stem, what=kit.what, make=kit.make,
                  order=kit.order, stock=kit.stock, kiss_cut=kit.kiss_cut)


def add_laser_kit(spec, parts, sheet, kerf: float, margin: float, spacing: float,
                  plan: Plan, stem: str, what: str = "", make: str = "", order: int = 60,
                  stock: dict[str, str] | None = None, kiss_cut: dict[str, float] | None = None) -> None:
    """Parts nested onto stock sheets, one set of sheets per material, as SVG, DXF and PNG.
    A part too big for the stock is the spec's error, reported at its laser.sheet line.
    what, make: what the sheets are and how they are put together, for the print list; stock: the
    materials' names to buy, by the parts' material (default: the material itself); kiss_cut: the
    materials cut through their film only, not the liner (the Cubes rail layer), and how deep (mm):
    their sheets' cut layer, title and print-list entry say it."""
    from ..laser.export import add_sheets
    from ..laser.nest import NestError, nest
    from ..outputs import safe_name
    # Parts cut from the same stock share its sheets (the Cubes kit's pawns with its cubes, its
    # rings beside the cup layer), under the first such material's name.
    by_material: dict[str, list] = {}
    first_of: dict[str, str] = {}
    for part in parts:
        same = first_of.setdefault((stock or {}).get(part.material, part.material), part.material)
        by_material.setdefault(same, []).append(part)
    names: dict[str, str] = {}
    for material, group in by_material.items():
        # A material's name may come from a spec: it becomes a safe part of a file name, and two
        # materials never share one.
        name = safe_name(material.replace("_", "-"), "material") if material else ""
        if name in names:
            raise SpecError(spec.file, spec.line(("laser",)), "laser",
                            f"materials {show(names[name])} and {show(material)} would share the file name {show(name)}")
        names[name] = material
        try:
            sheets = nest(group, *sheet, kerf=kerf, margin=margin, spacing=spacing)
        except NestError as exc:
            raise SpecError(spec.file, spec.line(("laser", "sheet")), "laser.sheet", str(exc)) from None
        depth = (kiss_cut or {}).get(material)
        for s in sheets:
            s.material = name
            if depth is not None:
                s.cut_layer, s.note = f"KISS-CUT-{depth:g}mm", f"kiss-cut {depth:g} mm deep (the film, not its liner)"
        before = set(plan.products)
        add_sheets(sheets, plan, stem)
        _laser_info(plan, before, (stock or {}).get(material, material).replace("_", " "), sheet, len(sheets),
                    what or stem, make, order, sheets)


def offcut(s) -> tuple[float, float] | None:
    """The offcut (width, height, mm) a sheet's parts fit, where they lie within less than half of
    the sheet; else None (cut a whole sheet)."""
    from ..laser.nest import material_use
    _, w, h = material_use(s)
    margin = s.width - w   # the parts' extent from the corner, with the margin on the far sides too
    if (w + margin / 2) * (h + margin / 2) < SPARSE * s.width * s.height:
        return w + 5, h + 5
    return None


def sheet_use(s) -> str:
    """What a sheet's parts take of it, for the print list: the share of its material, and where
    they lie within less than half of it, the offcut they fit."""
    from ..laser.nest import material_use
    text = f"its parts take {100 * material_use(s)[0]:.0f} % of the sheet"
    piece = offcut(s)
    if piece:
        text += f", all within {piece[0]:.0f} x {piece[1]:.0f} mm: an offcut that size will do"
    return text


def _laser_info(plan: Plan, before: set, material: str, sheet, count: int, what: str, make: str, order: int,
                sheets=()) -> None:
    """What a person does with each file add_sheets made (it takes no info of its own; any it gives
    is kept): an SVG and a DXF are the same sheet for two kinds of software, a PNG a picture of it."""
    from ..outputs import ProductInfo
    size = f"{sheet[0]:g} x {sheet[1]:g} mm"
    # Once a sheet, not once for each of its three files: each sums the area of every part on it
    # (a Cubes layer's thousands of islands).
    uses = [sheet_use(s) for s in sheets]
    pieces = [offcut(s) for s in sheets]
    for rel in [r for r in plan.products if r not in before]:
        n = rel.rsplit("sheet", 1)[-1].split(".")[0]
        which = f"sheet {n} of {count}" if n.isdigit() else f"{count} sheet{'s' if count != 1 else ''}"
        if n.isdigit() and 0 < int(n) <= len(sheets):
            which += f"; {uses[int(n) - 1]}"
            if sheets[int(n) - 1].note:       # a kiss cut, before anything else the operator sets
                which = f"{sheets[int(n) - 1].note}; {which}"
        kind = rel.rsplit(".", 1)[-1]
        if kind == "png":
            info = dict(what=f"{what}: {material}, {which}, a preview", preview=True, order=order)
        else:
            # The stock to have: the sheet, or the offcut a sparse sheet's parts fit (the Cubes frame's
            # bars, the pegs), so nobody buys a sheet for a strip of it.
            piece = pieces[int(n) - 1] if n.isdigit() and 0 < int(n) <= len(sheets) else None
            stock = f"{material}, {size}" if piece is None else \
                f"{material}, an offcut of {piece[0]:.0f} x {piece[1]:.0f} mm (or a {size} sheet)"
            info = dict(what=f"{what}: {material}, {which} ({kind.upper()})", laser=True,
                        stock=stock, sheets=1 if kind == "svg" else 0, order=order,
                        **({"make": make} if make else {}))
        plan.products[rel].info = ProductInfo.of({**info, **plan.products[rel].info}).as_dict()


PRODUCT = ProductDeclaration(name="laser-kit", takes=(Kit,), files="STEM-MATERIAL-sheetN.svg, .dxf, .png",
                             make=make, rank=60)
