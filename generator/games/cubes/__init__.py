"""Cubes (FR 2 672 509): the laser-cut kit, a printable paper board, and the move referee."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from ...build import BuildOptions
from ...laser.export import write_sheets
from ...laser.nest import NestError, nest
from ...errors import SpecError
from ...spec import Spec
from .kit import kit_parts, load_kit
from .referee import REFEREE  # noqa: F401  (the referee the CLI finds here)

SPECS = ["boards/cubes_kit.yaml"]


def _check(spec: Spec):
    from .referee import setup_position
    load_kit(spec)
    setup_position(spec, False)
    if "four_player" in spec.data:
        load_kit(spec, four_player=True)
        setup_position(spec, True)


CHECKS = {"cubes-kit": _check}


def play_options(parser) -> None:
    parser.add_argument("--players", help="names, comma-separated (default: the kit's setup)")
    parser.add_argument("--four", action="store_true", help="the four-player game (11 x 11)")


def write_kit(spec: Spec, out_dir: Path, four_player: bool) -> list[Path]:
    kit = load_kit(spec, four_player)
    by_material = defaultdict(list)
    for part in kit_parts(kit):
        by_material[part.material].append(part)
    written = []
    tag = "4p" if four_player else "2p"
    for material, parts in by_material.items():
        try:
            sheets = nest(parts, *kit.sheet, kerf=kit.kerf, margin=kit.margin, spacing=kit.spacing)
        except NestError as exc:
            raise SpecError(spec.file, spec.line(("laser", "sheet")), "laser.sheet", str(exc)) from None
        for s in sheets:
            s.material = material.replace("_", "-")
        written += write_sheets(sheets, out_dir / f"kit-{tag}", f"cubes-{tag}")
    return written


def write_paper_board(spec: Spec, out_dir: Path, opts: BuildOptions, four_player: bool) -> list[Path]:
    """The board on paper: tiled over home sheets, one large page for a print shop, a preview."""
    from ...build import write_pdf
    from ...draw.raster import png_bytes
    from ...layout.tiling import tile_pages
    from ...outputs import write_bytes
    from ...units import PAPER_SIZES
    from .paper import paper_board
    kit = load_kit(spec, four_player)
    board = paper_board(kit)
    tag = "4p" if four_player else "2p"
    title = f"Cubes board, {kit.grid} x {kit.grid}"
    pw, ph = PAPER_SIZES[opts.paper]
    return [
        write_pdf(out_dir / f"paper-board-{tag}-tiles-{opts.paper}.pdf", title,
                  tile_pages(board, pw, ph, title=title), opts.cmyk),
        write_pdf(out_dir / f"paper-board-{tag}-large.pdf", title,
                  [(board, (0, 0, board.width, board.height), None)], opts.cmyk),
        write_bytes(out_dir / f"paper-board-{tag}.png", png_bytes(board, dpi=60)),
    ]


def build(specs: dict[str, Spec], out_dir: Path, opts: BuildOptions) -> list[Path]:
    written = []
    for spec in specs.values():
        for four in (False, True) if "four_player" in spec.data else (False,):
            written += write_kit(spec, out_dir, four_player=four)
            written += write_paper_board(spec, out_dir, opts, four_player=four)
    return written
