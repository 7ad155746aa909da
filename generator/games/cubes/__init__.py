"""Cubes (FR 2 672 509): the laser-cut kit, a printable paper board, and the move referee."""
from __future__ import annotations

from pathlib import Path

from ...build import BuildOptions, write_board, write_laser_kit
from ...spec import Spec
from .kit import kit_parts, load_kit
from .paper import paper_board
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


def build(specs: dict[str, Spec], out_dir: Path, opts: BuildOptions) -> list[Path]:
    written = []
    for spec in specs.values():
        for four in (False, True) if "four_player" in spec.data else (False,):
            kit = load_kit(spec, four)
            tag = "4p" if four else "2p"
            written += write_laser_kit(spec, kit_parts(kit), kit.sheet, kit.kerf, kit.margin, kit.spacing,
                                       out_dir / f"kit-{tag}", f"cubes-{tag}")
            written += write_board(paper_board(kit), out_dir, f"paper-board-{tag}",
                                   f"Cubes board, {kit.grid} x {kit.grid}", opts)
    return written
