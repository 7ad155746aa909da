"""What a Cubes build makes: the rules sheet, and the laser kit and the paper board, for two
players and for four."""
from __future__ import annotations

from ...build import BuildOptions, add_board, add_laser_kit
from ...outputs import Plan
from ...spec import Spec
from .kit import kit_parts, load_kit
from .paper import paper_board
from .paper_pieces import add_paper_pieces
from .referee import setup_position


# A kit's products in two halves, built apart (in parallel, and rebuilt apart): the board's
# layers with the paper board, and the pieces with the paper pieces. Sheets are nested per
# material, so the halves make exactly the files one build of the whole kit would.
BOARD_MATERIALS = ("base", "cup_layer", "rail_layer", "frame", "ring")   # the rings share the cup layer's stock


def build(specs: dict[str, Spec], plan: Plan, opts: BuildOptions, part: str | None = None) -> None:
    tag_wanted, _, half = (part or "").partition(":")
    for spec in specs.values():
        if spec.kind == "cubes-rules":
            from ...build import add_rules_sheet
            from .rules_sheet import sheet_game
            add_rules_sheet(spec, sheet_game(spec), plan, opts)
            continue
        for four in (False, True) if "four_player" in spec.data else (False,):
            tag = "4p" if four else "2p"
            if tag_wanted not in ("", tag):
                continue
            kit = load_kit(spec, four)
            before = set(plan.products)
            # The rings go with the board (beside the cup layer, the same stock): every half makes
            # the pieces, which are quick, and keeps its own materials.
            parts = [p for p in kit_parts(kit, board=half != "pieces")
                     if not half or (p.material in BOARD_MATERIALS) == (half == "board")]
            add_laser_kit(spec, parts, kit.sheet, kit.kerf, kit.margin, kit.spacing,
                          plan.sub(f"kit-{tag}"), f"cubes-{tag}", what=f"Cubes kit, {kit.players} players",
                          make=f"cut every material's sheets; put the kit together as kit-{tag}-assembly-"
                               f"{opts.paper}.pdf shows (board: base, cup layer, rail layer, frame; cubes with "
                               "rings and pegs, their edges rounded; pawns). Scored labels: A and B are a "
                               "cube's two wall shapes (two of each a cube; king A, king B a king's), top, ring; "
                               "down is the face of a bottom that goes down",
                          stock={k: m["name"] for k, m in kit.materials.items()},
                          # The rail layer's dashes are islands: cut through the film, its liner whole.
                          kiss_cut={"rail_layer": kit.t("rail_layer")})
            if half in ("", "board"):
                from ...build import add_assembly
                from .assembly import kit_assembly
                board_parts = {p.name: p for p in parts if p.material in BOARD_MATERIALS}
                add_assembly(plan, f"kit-{tag}", kit_assembly(spec, kit, board_parts), opts,
                             what=f"Cubes kit, {kit.players} players: how to put it together (parts, steps with "
                                  "drawings, the edges' rounding, checks)")
                add_board(paper_board(kit, *setup_position(spec, four)), plan, f"paper-board-{tag}",
                          f"Cubes board, {kit.grid} x {kit.grid}", opts)
            if half in ("", "pieces"):
                add_paper_pieces(spec, four, plan, opts)
            # The two-player and the four-player game are alternatives: the print list totals each.
            for rel in set(plan.products) - before:
                plan.products[rel].info.setdefault("variant", f"{kit.players} players")
