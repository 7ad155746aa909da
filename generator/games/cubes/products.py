"""What Cubes holds: the rules sheet, and the laser kit, its assembly sheet, the paper board and the
paper pieces, for two players and for four."""
from __future__ import annotations

from ...paper import Paper
from ...products.contents import AssemblySheet, Board, Kit, RulesSheet
from ...spec import Spec

# A kit's contents in two halves, built apart (in parallel, and rebuilt apart): the board's
# layers with the paper board, and the pieces with the paper pieces. Sheets are nested per
# material, so the halves make exactly the files one build of the whole kit would.
BOARD_MATERIALS = ("base", "cup_layer", "rail_layer", "frame", "ring")   # the rings share the cup layer's stock


def contents(specs: dict[str, Spec], paper: Paper, part: str | None = None) -> list:
    from .kit import kit_parts, load_kit
    tag_wanted, _, half = (part or "").partition(":")
    out = []
    for spec in specs.values():
        if spec.kind == "cubes-rules":
            from .rules_sheet import sheet_game
            out.append(RulesSheet(spec, sheet_game(spec)))
            continue
        for four in (False, True) if "four_player" in spec.data else (False,):
            tag = "4p" if four else "2p"
            if tag_wanted not in ("", tag):
                continue
            kit = load_kit(spec, four)
            # The two-player and the four-player game are alternatives: the print list totals each.
            variant = f"{kit.players} players"
            # The rings go with the board (beside the cup layer, the same stock): every half makes
            # the pieces, which are quick, and keeps its own materials.
            parts = [p for p in kit_parts(kit, board=half != "pieces")
                     if not half or (p.material in BOARD_MATERIALS) == (half == "board")]
            out.append(Kit(spec, parts, kit.sheet, kit.kerf, kit.margin, kit.spacing, f"cubes-{tag}",
                           folder=f"kit-{tag}", variant=variant, what=f"Cubes kit, {kit.players} players",
                           make=f"cut every material's sheets; put the kit together as kit-{tag}-assembly-"
                                f"{paper.name}.pdf shows (board: base, cup layer, rail layer, frame; cubes with "
                                "rings and pegs, their edges rounded; pawns). Scored labels: A and B are a "
                                "cube's two wall shapes (two of each a cube; king A, king B a king's), top, ring; "
                                "down is the face of a bottom that goes down",
                           stock={k: m["name"] for k, m in kit.materials.items()}))
            if half in ("", "board"):
                from .assembly import kit_assembly
                from .paper import paper_board
                from .referee import setup_position
                board_parts = {p.name: p for p in parts if p.material in BOARD_MATERIALS}
                out.append(AssemblySheet(spec, f"kit-{tag}", kit_assembly(spec, kit, board_parts), variant=variant,
                                         what=f"Cubes kit, {kit.players} players: how to put it together (parts, "
                                              "steps with drawings, the edges' rounding, checks)", with_laser=True))
                out.append(Board(spec, paper_board(kit, *setup_position(spec, four)), f"paper-board-{tag}",
                                 f"Cubes board, {kit.grid} x {kit.grid}", variant=variant))
            if half in ("", "pieces"):
                from .paper_pieces import paper_pieces_contents
                out += paper_pieces_contents(spec, four, paper)
    return out
