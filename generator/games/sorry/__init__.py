"""Sorry (US 1,903,661): the 44 cards, the board, and the move referee."""
from __future__ import annotations

from pathlib import Path

from ...build import BuildOptions, write_decks
from ...spec import Spec
from .deck import deck_art, load_deck

from .board import draw_board, load_geometry
from .referee import REFEREE, moves_command


def play_options(parser) -> None:
    parser.add_argument("--players", help="colours in turn order, comma-separated (default: all four)")
    parser.add_argument("--variant", choices=["standard", "solitaire", "dealt-hand"], default="standard")


def referee_commands(sub) -> dict:
    m = sub.add_parser("moves", help="every legal move with a card, from a position (a record)")
    m.add_argument("position", help="a record or position file (YAML)")
    m.add_argument("card")
    m.add_argument("--json", action="store_true")
    return {"moves": moves_command(REFEREE)}

SPECS = ["decks/sorry.yaml", "boards/sorry.yaml"]
CHECKS = {"sorry-deck": load_deck, "sorry-board": load_geometry}


def write_board(spec: Spec, out_dir: Path, opts: BuildOptions) -> list[Path]:
    """Full size on one large page (print shop), tiled over home sheets, and a PNG preview."""
    from ...build import write_pdf
    from ...draw.raster import png_bytes
    from ...layout.tiling import tile_pages
    from ...outputs import write_bytes
    from ...units import PAPER_SIZES
    board = draw_board(spec)
    stem = Path(spec.file).stem
    title = f"{spec.data['title']} board"
    return [
        write_pdf(out_dir / f"{stem}-board-large.pdf", title, [(board, (0, 0, board.width, board.height), None)],
                  opts.cmyk),
        write_pdf(out_dir / f"{stem}-board-tiles-{opts.paper}.pdf", title,
                  tile_pages(board, *PAPER_SIZES[opts.paper], title=title), opts.cmyk),
        write_bytes(out_dir / f"{stem}-board.png", png_bytes(board, dpi=50)),
    ]


def build(specs: dict[str, Spec], out_dir: Path, opts: BuildOptions) -> list[Path]:
    decks = [s for s in specs.values() if s.kind == "sorry-deck"]
    written = write_decks(decks, deck_art, out_dir, opts)
    for spec in specs.values():
        if spec.kind == "sorry-board":
            written += write_board(spec, out_dir, opts)
    return written
