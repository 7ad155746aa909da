"""The PDF stage against bare reportlab drawing the same pages.

    .venv/bin/python benchmarks/pdf.py

Writes the Mille Bornes deck's sheet and shop PDFs (212 + 28 pages) and the Sorry board's tiles
three ways and prints the best of 3 times: (1) our PdfDocument (each face a form XObject, drawn
once per document), (2) our PdfDocument with forms switched off, (3) "bare reportlab": a loop of
direct canvas calls over the same display list, with no renderer object, no forms and no colour
model. The figure that matters is (1) / (3): the issue's goal is at most 1.1.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pages_to_write():
    from generator.options import BuildOptions
    from generator.games.mille_bornes.products import deck_art
    from generator.games.sorry.board import draw_board
    from generator.layout.cards import impose_cards, sheet_pages, shop_pages
    from generator.layout.tiling import tile_pages
    from generator.spec import load_spec
    from generator.paper import PAPERS
    opts = BuildOptions()
    art = deck_art(load_spec(ROOT / "decks" / "mille_bornes.yaml", display="decks/mille_bornes.yaml"))
    faces = art.expanded()
    sheet = sheet_pages(faces, art.back, impose_cards(art.size, *PAPERS["a4"].size), opts.flip, (0, 0), art.title)
    shop = shop_pages(faces, art.back, art.size)
    board = draw_board(load_spec(ROOT / "boards" / "sorry.yaml", display="boards/sorry.yaml"))
    tiles = tile_pages(board, *PAPERS["a4"].size, title="Sorry")
    return {"mille_bornes sheet": sheet, "mille_bornes shop": shop, "sorry tiles": tiles}


def ours(path, pages, forms=True):
    from generator.products.pdf import pdf_writer
    placed = [g for p in pages for g in (p[0] if isinstance(p, tuple) else p).root.items]
    faces = {id(inner): inner for g in placed for inner in getattr(g, "items", []) if getattr(inner, "reused", False)}
    for face in faces.values():    # forms off: every placed face drawn in full on every page
        face.reused = forms
    try:
        pdf_writer("bench", pages, False)(path)
    finally:
        for face in faces.values():
            face.reused = True


def bare(path, pages):
    """Direct reportlab calls over the display list: what any renderer has to do at the least."""
    from reportlab.pdfgen.canvas import Canvas
    from generator.draw.drawing import Ellipse, Group, Rect, Text
    from generator.draw.fonts import get_font
    from generator.draw.pdf import register_font
    from generator.units import PT_PER_MM, mm_to_pt
    c = Canvas(str(path), pageCompression=1, invariant=1, initialFontName=register_font(get_font("sans")))

    def draw(item):
        if isinstance(item, Group):
            c.saveState()
            if item.transform != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
                c.transform(*item.transform)
            if item.clip is not None:
                c.clipPath(shape(item.clip), stroke=0, fill=0)
            for child in item.items:
                draw(child)
            c.restoreState()
        elif isinstance(item, Text):
            c.saveState()
            c.setFillColorRGB(*item.fill.as_rgb())
            c.translate(item.x, item.y)
            c.scale(1, -1)
            c.setFont(register_font(item.font), item.size)
            c.drawString(0, 0, item.text)
            c.restoreState()
        else:
            s = item.style
            if s.fill is None and s.stroke is None:
                return
            if s.fill is not None:
                c.setFillColorRGB(*s.fill.as_rgb())
            if s.stroke is not None:
                c.setStrokeColorRGB(*s.stroke.as_rgb())
                c.setLineWidth(s.width)
                c.setDash(list(s.dash) if s.dash else [])
            c.drawPath(shape(item), stroke=int(s.stroke is not None), fill=int(s.fill is not None),
                       fillMode=int(s.even_odd))

    def shape(item):
        p = c.beginPath()
        if isinstance(item, Rect):
            p.roundRect(item.x, item.y, item.w, item.h, item.r) if item.r > 0 else p.rect(item.x, item.y, item.w, item.h)
        elif isinstance(item, Ellipse):
            p.ellipse(item.cx - item.rx, item.cy - item.ry, 2 * item.rx, 2 * item.ry)
        else:
            for op in item.ops:
                if op[0] == "M":
                    p.moveTo(*op[1:])
                elif op[0] == "L":
                    p.lineTo(*op[1:])
                elif op[0] == "C":
                    p.curveTo(*op[1:])
                else:
                    p.close()
        return p

    for page in pages:
        d = page[0] if isinstance(page, tuple) else page
        c.setPageSize((mm_to_pt(d.width), mm_to_pt(d.height)))
        c.saveState()
        c.translate(0, mm_to_pt(d.height))
        c.scale(PT_PER_MM, -PT_PER_MM)
        draw(d.root)
        c.restoreState()
        c.showPage()
    c.save()


def best(fn, *args, runs=3) -> tuple[float, int]:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "x.pdf"
            t = time.perf_counter()
            fn(path, *args)
            times.append(time.perf_counter() - t)
            size = path.stat().st_size
    return min(times), size


def main() -> None:
    sets = pages_to_write()
    print(f"{'pages':22} {'ours':>14} {'ours, no forms':>16} {'bare reportlab':>16}  ours / bare")
    total = [0.0, 0.0, 0.0]
    for name, pages in sets.items():
        a, sa = best(ours, pages)
        b, sb = best(ours, pages, False)
        c, sc = best(bare, pages)
        total = [total[0] + a, total[1] + b, total[2] + c]
        print(f"{name:22} {a:6.2f} s {sa // 1024:5} kB {b:7.2f} s {sb // 1024:5} kB {c:7.2f} s {sc // 1024:5} kB"
              f"  {a / c:5.2f}")
    print(f"{'all':22} {total[0]:6.2f} s {'':8} {total[1]:7.2f} s {'':8} {total[2]:7.2f} s {'':8}"
          f"  {total[0] / total[2]:5.2f}   (without forms: {total[1] / total[2]:.2f})")
    print(f"({os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
