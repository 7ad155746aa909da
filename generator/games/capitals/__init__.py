"""Capitals (US 3,064,989): the 117 country cards, the 56 x 25 world map, the wall pieces,
and the enclosure referee."""
from __future__ import annotations

from pathlib import Path

from ...build import BuildOptions, write_board, write_decks, write_pdf
from ...spec import Spec
from .data import load_board, load_deck
from .board import board_from_spec, halves
from .faces import deck_art
from .referee import REFEREE
from .rules import VARIANTS
from .walls import load_walls, write_walls

SPECS = ["decks/capitals_1961.yaml", "boards/capitals_world_map.yaml", "boards/capitals_walls.yaml"]
CHECKS = {"capitals-deck": load_deck, "capitals-board": load_board, "capitals-walls": load_walls}


def play_options(parser) -> None:
    parser.add_argument("--players", help="names in turn order, comma-separated")
    parser.add_argument("--variant", choices=VARIANTS, default="most-capitals",
                        help="the objective: most capitals (default), fewest, most or least population")


def build(specs: dict[str, Spec], out_dir: Path, opts: BuildOptions) -> list[Path]:
    decks = [s for s in specs.values() if s.kind == "capitals-deck"]
    written = write_decks(decks, deck_art, out_dir, opts)
    for spec in specs.values():
        if spec.kind == "capitals-board":
            wm, board = board_from_spec(spec)
            stem = f"{Path(spec.file).stem}"
            written += write_board(board, out_dir, stem, f"{wm.title} board", opts)
            written.append(write_pdf(out_dir / f"{stem}-halves-{wm.halves_paper}.pdf",
                                     f"{wm.title} board, Figs. 1A and 1B", halves(wm, board), opts.cmyk))
        if spec.kind == "capitals-walls":
            written += write_walls(spec, out_dir, opts)
    return written
