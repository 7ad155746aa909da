"""How long the PNG previews of a full build take: the old way (SVG text parsed back by cairosvg)
against the cairo backend that draws the display list directly.

The previews are the build's own: every deck's contact sheet at 110 dpi and every board at 50 dpi,
made as generator/build.py add_deck / add_board make them. Prints its figures; asserts nothing.
Run: .venv/bin/python benchmarks/raster.py [--repeat N] [--only NAME]
"""
import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from generator.draw.cairo_backend import render_surface  # noqa: E402
from generator.draw.raster import _png_bytes_via_svg, png_bytes, surface_png  # noqa: E402
from generator.layout.cards import contact_sheet  # noqa: E402
from generator.spec import load_spec  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def deck_contact_sheet(art):
    """The contact sheet add_deck rasterises (same faces, captions and title)."""
    faces = art.expanded()
    return contact_sheet([(f, cap) for f, _, cap in art.faces] + ([(art.back, "back")] if art.back else []),
                         art.size, title=f"{art.title}: {len(faces)} cards, {len(art.faces)} faces")


def build_previews():
    """(name, drawing, dpi) for every PNG preview a full build writes."""
    from generator.games.capitals.board import board_from_spec
    from generator.games.capitals.faces import deck_art as capitals_deck
    from generator.games.continuo.products import deck_art as continuo_deck
    from generator.games.cubes.dimensions import load_kit
    from generator.games.cubes.paper import paper_board
    from generator.games.cubes.referee import setup_position
    from generator.games.mille_bornes.products import deck_art as mille_bornes_deck
    from generator.games.sorry.board import draw_board as sorry_board
    from generator.games.sorry.deck import deck_art as sorry_deck

    decks = {"capitals-deck": capitals_deck, "continuo-deck": continuo_deck,
             "mille-bornes-deck": mille_bornes_deck, "sorry-deck": sorry_deck}
    out = []
    for path in sorted((ROOT / "decks").glob("*.yaml")):
        spec = load_spec(path)
        if spec.kind in decks:
            out.append((f"{path.stem}-contact", deck_contact_sheet(decks[spec.kind](spec)), 110))
    out.append(("capitals_world_map", board_from_spec(load_spec(ROOT / "boards/capitals_world_map.yaml"))[1], 50))
    out.append(("sorry-board", sorry_board(load_spec(ROOT / "boards/sorry.yaml")), 50))
    kit_spec = load_spec(ROOT / "boards/cubes_kit.yaml")
    for four in (False, True):
        out.append((f"paper-board-{'4p' if four else '2p'}", paper_board(load_kit(kit_spec, four),
                                                                           *setup_position(kit_spec, four)), 50))
    return out


def best_time(fn, repeat: int) -> tuple[float, bytes]:
    best, result = float("inf"), b""
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is reported")
    ap.add_argument("--only", help="previews whose name contains this")
    args = ap.parse_args()
    previews = [p for p in build_previews() if not args.only or args.only in p[0]]
    totals = [0.0, 0.0, 0.0, 0.0]
    print(f"{'preview':27} {'dpi':>3} {'pixels':>10} {'old ms':>7} {'new ms':>7} {'(draw':>6} {'+ png)':>6} "
          f"{'x':>5} {'old kB':>7} {'new kB':>7}")
    for name, drawing, dpi in previews:
        t_old, old = best_time(lambda: _png_bytes_via_svg(drawing, dpi), args.repeat)
        t_new, new = best_time(lambda: png_bytes(drawing, dpi), args.repeat)
        t_draw, surface = best_time(lambda: render_surface(drawing, dpi), args.repeat)
        t_png, _ = best_time(lambda: surface_png(surface), args.repeat)
        for i, t in enumerate((t_old, t_new, t_draw, t_png)):
            totals[i] += t
        w, h = Image.open(io.BytesIO(new)).size
        print(f"{name:27} {dpi:3} {w:>4}x{h:<5} {t_old * 1000:7.0f} {t_new * 1000:7.0f} {t_draw * 1000:6.0f} "
              f"{t_png * 1000:6.0f} {t_old / t_new:5.1f} {len(old) / 1000:7.0f} {len(new) / 1000:7.0f}")
    print(f"{'all ' + str(len(previews)) + ' previews':27} {'':3} {'':10} {totals[0] * 1000:7.0f} {totals[1] * 1000:7.0f} "
          f"{totals[2] * 1000:6.0f} {totals[3] * 1000:6.0f} {totals[0] / totals[1]:5.1f}")


if __name__ == "__main__":
    main()
