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
                  order=kit.order, stock=kit.stock)


def add_laser_kit(spec, parts, sheet, kerf: float, margin: float, spacing: float,
                  plan: Plan, stem: str, what: str = "", make: str = "", order: int = 60,
                  stock: dict[str, str] | None = None) -> None:
    """Parts nested onto stock sheets, one set of sheets per material, as SVG, DXF and PNG.
    A part too big for the stock is the spec's error, reported at its laser.sheet line.
    what, make: what the sheets are and how they are put together, for the print list; stock: the
    materials' names to buy, by the parts' material (default: the material itself)."""
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
        for s in sheets:
            s.material = name
        before = set(plan.products)
        add_sheets(sheets, plan, stem)
        _laser_info(plan, before, (stock or {}).get(material, material).replace("_", " "), sheet, len(sheets),
                    what or stem, make, order, sheets)


def sheet_use(s) -> str:
    """What a sheet's parts take of it, for the print list: the share of its material, and where
    they lie within less than half of it, the offcut they fit."""
    from ..laser.nest import material_use
    use, w, h = material_use(s)
    text = f"its parts take {100 * use:.0f} % of the sheet"
    margin = s.width - w   # the parts' extent from the corner, with the margin on the far sides too
    if (w + margin / 2) * (h + margin / 2) < SPARSE * s.width * s.height:
        text += f", all within {w + 5:.0f} x {h + 5:.0f} mm: an offcut that size will do"
    return text


def _laser_info(plan: Plan, before: set, material: str, sheet, count: int, what: str, make: str, order: int,
                sheets=()) -> None:
    """What a person does with each file add_sheets made (it takes no info of its own; any it gives
    is kept): an SVG and a DXF are the same sheet for two kinds of software, a PNG a picture of it."""
    from ..outputs import ProductInfo
    size = f"{sheet[0]:g} x {sheet[1]:g} mm"
    for rel in [r for r in plan.products if r not in before]:
        n = rel.rsplit("sheet", 1)[-1].split(".")[0]
        which = f"sheet {n} of {count}" if n.isdigit() else f"{count} sheet{'s' if count != 1 else ''}"
        if n.isdigit() and 0 < int(n) <= len(sheets):
            which += f"; {sheet_use(sheets[int(n) - 1])}"
        kind = rel.rsplit(".", 1)[-1]
        if kind == "png":
            info = dict(what=f"{what}: {material}, {which}, a preview", preview=True, order=order)
        else:
            info = dict(what=f"{what}: {material}, {which} ({kind.upper()})", laser=True,
                        stock=f"{material}, {size}", sheets=1 if kind == "svg" else 0, order=order,
                        **({"make": make} if make else {}))
        plan.products[rel].info = ProductInfo.of({**info, **plan.products[rel].info}).as_dict()


PRODUCT = ProductDeclaration(name="laser-kit", takes=(Kit,), files="STEM-MATERIAL-sheetN.svg, .dxf, .png",
                             make=make, rank=60)
