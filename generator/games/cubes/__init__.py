"""Cubes (FR 2 672 509): the laser-cut kit, a printable paper board, and the move referee."""
from __future__ import annotations


from ...build import BuildOptions, add_board, add_laser_kit
from ...outputs import Plan
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


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions) -> None:
    for spec in specs.values():
        for four in (False, True) if "four_player" in spec.data else (False,):
            kit = load_kit(spec, four)
            tag = "4p" if four else "2p"
            add_laser_kit(spec, kit_parts(kit), kit.sheet, kit.kerf, kit.margin, kit.spacing,
                          plan.sub(f"kit-{tag}"), f"cubes-{tag}")
            add_board(paper_board(kit), plan, f"paper-board-{tag}", f"Cubes board, {kit.grid} x {kit.grid}", opts)
