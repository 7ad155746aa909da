"""Writing a deck's print products: the sheet PDF, the shop PDF and the PNG contact sheet.

Every game's deck comes here as faces + back Drawings; the print layouts do the rest. All
outputs are written under a temporary name and renamed, so a failed build leaves no half file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .draw import Drawing
from .draw.pdf import PdfDocument
from .draw.raster import png_bytes
from .layout.cards import CardSize, contact_sheet, impose_cards, sheet_pages, shop_pages
from .outputs import atomic_path, write_bytes
from .units import PAPER_SIZES

LAYOUTS = ("sheet", "shop")


@dataclass
class BuildOptions:
    out: Path = Path("output")
    paper: str = "a4"
    flip: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    layouts: tuple[str, ...] = LAYOUTS
    cmyk: bool = False
    interleave: bool = False
    progress: bool = True


@dataclass
class DeckArt:
    """A deck ready to print: distinct faces with their counts, and the back."""
    stem: str                      # file name stem, e.g. "mille_bornes"
    title: str
    size: CardSize
    faces: list[tuple[Drawing, int, str]] = field(default_factory=list)  # (face, count, caption)
    back: Drawing | None = None

    def expanded(self) -> list[Drawing]:
        return [face for face, count, _ in self.faces for _ in range(count)]


def write_pdf(path: Path, title: str, pages, cmyk: bool) -> Path:
    """pages: Drawings, or (Drawing, trim box, bleed box) tuples."""
    with atomic_path(path) as tmp:
        doc = PdfDocument(tmp, title=title, cmyk=cmyk)
        for p in pages:
            if isinstance(p, tuple):
                doc.add_page(p[0], trim=p[1], bleed=p[2])
            else:
                doc.add_page(p)
        doc.save()
    return path


def write_deck(art: DeckArt, out_dir: Path, opts: BuildOptions) -> list[Path]:
    written = []
    faces = art.expanded()
    if "sheet" in opts.layouts:
        pw, ph = PAPER_SIZES[opts.paper]
        layout = impose_cards(art.size, pw, ph)
        pages = sheet_pages(faces, art.back, layout, opts.flip, opts.back_offset, art.title)
        written.append(write_pdf(out_dir / f"{art.stem}-sheet-{opts.paper}.pdf",
                                 f"{art.title}: {len(faces)} cards on {opts.paper.upper()}", pages, opts.cmyk))
    if "shop" in opts.layouts:
        pages = shop_pages(faces, art.back, art.size, opts.interleave)
        written.append(write_pdf(out_dir / f"{art.stem}-shop.pdf",
                                 f"{art.title}: {len(faces)} cards, one a page with bleed", pages, opts.cmyk))
    sheet = contact_sheet([(f, cap) for f, _, cap in art.faces] + ([(art.back, "back")] if art.back else []),
                          art.size, title=f"{art.title}: {len(faces)} cards, {len(art.faces)} faces")
    written.append(write_bytes(out_dir / f"{art.stem}-contact.png", png_bytes(sheet, dpi=110)))
    return written


def write_decks(specs, deck_art, out_dir: Path, opts: BuildOptions) -> list[Path]:
    """Every deck spec given, through deck_art(spec) -> DeckArt, into its print products."""
    written = []
    for spec in specs:
        written += write_deck(deck_art(spec), out_dir, opts)
    return written


def write_board(board: Drawing, out_dir: Path, stem: str, title: str, opts: BuildOptions) -> list[Path]:
    """A board at full size: one large page for a print shop, tiled over home sheets, a preview."""
    from .layout.tiling import tile_pages
    return [
        write_pdf(out_dir / f"{stem}-large.pdf", title, [(board, (0, 0, board.width, board.height), None)],
                  opts.cmyk),
        write_pdf(out_dir / f"{stem}-tiles-{opts.paper}.pdf", title,
                  tile_pages(board, *PAPER_SIZES[opts.paper], title=title), opts.cmyk),
        write_bytes(out_dir / f"{stem}.png", png_bytes(board, dpi=50)),
    ]


def write_laser_kit(spec, parts, sheet, kerf: float, margin: float, spacing: float,
                    out_dir: Path, stem: str) -> list[Path]:
    """Parts nested onto stock sheets, one set of sheets per material, as SVG, DXF and PNG.
    A part too big for the stock is the spec's error, reported at its laser.sheet line."""
    from .errors import SpecError
    from .laser.export import write_sheets
    from .laser.nest import NestError, nest
    by_material: dict[str, list] = {}
    for part in parts:
        by_material.setdefault(part.material, []).append(part)
    written = []
    for material, group in by_material.items():
        try:
            sheets = nest(group, *sheet, kerf=kerf, margin=margin, spacing=spacing)
        except NestError as exc:
            raise SpecError(spec.file, spec.line(("laser", "sheet")), "laser.sheet", str(exc)) from None
        for s in sheets:
            s.material = material.replace("_", "-")
        written += write_sheets(sheets, out_dir, stem)
    return written
