"""How fast `best` ranks every placement of a tile on a 40-tile Continuo layout.

Target (issue 3): well under a second. Prints its figures; asserts nothing.
Run: .venv/bin/python benchmarks/continuo_best.py
"""
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.games.continuo.deck import load_deck  # noqa: E402
from generator.games.continuo.rules import Layout, Placement, best_placements, place  # noqa: E402
from generator.spec import load_spec  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    deck = load_deck(load_spec(ROOT / "decks" / "continuo.yaml"))
    for variant, numbers in (("continuo", None), ("count-continuo", {k: c.number for k, c in deck.colours.items()})):
        layout = Layout()
        t0 = time.perf_counter()
        for tile in deck.tiles[:40]:  # every tile placed at its best spot: a dense, realistic layout
            s, r, c, rot = best_placements(layout, tile, numbers)[0]
            layout, _ = place(layout, Placement(tile, r, c, rot), numbers)
        build = time.perf_counter() - t0
        times, counts = [], []
        for tile in deck.tiles[40:]:
            for _ in range(5):
                t = time.perf_counter()
                ranked = best_placements(layout, tile, numbers)
                times.append(time.perf_counter() - t)
            counts.append(len(ranked))
        print(f"{variant}: 40-tile layout built in {build:.2f} s; best on it: "
              f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms, "
              f"{min(counts)}-{max(counts)} legal placements ranked")


if __name__ == "__main__":
    main()
