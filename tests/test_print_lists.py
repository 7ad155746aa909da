"""Print lists (output/GAME/README.txt): every file, grouped by where it is made, what to print it
on and how many sheets, the totals per stock (per variant where a game has alternatives), and
numbered steps to put the game together."""
import re

import pytest

from generator.paper import PAPERS

from generator.games import GAMES
from pypdf import PdfReader

from generator.products.print_list import NAME, PDF_NAME, print_list, sheet_count

CARDS = {"what": "44 cards", "pages": 12, "stock": "card stock", "sides": 2, "flip": "long", "paper": "a4",
         "order": 10, "step": "Cards: cut them.", "tools": ["scissors"]}
BOX = {"what": "a tuck box", "pages": 1, "stock": "card stock", "sides": 1, "paper": "a4", "order": 20,
       "step": "Box: fold it.", "tools": ["scissors", "glue stick"]}
TILES = {"what": "the board", "pages": 6, "stock": "paper", "sides": 1, "paper": "a4", "order": 30}


def test_sheets_are_pages_or_half_of_them_or_what_the_product_says():
    assert sheet_count(CARDS) == 6 and sheet_count({**CARDS, "pages": 13}) == 7
    assert sheet_count(BOX) == 1 and sheet_count({**BOX, "pages": 2, "sheets": 1}) == 1
    assert sheet_count({"laser": True, "sheets": 0}) == 0 and sheet_count({"preview": True}) == 0


def test_groups_totals_steps_and_tools():
    text = print_list("g", "Game", [("g-shop.pdf", {"what": "shop", "shop": True, "stock": "theirs", "order": 70}),
                                    ("g-sheet-a4.pdf", CARDS), ("g-box-a4.pdf", BOX), ("g-tiles-a4.pdf", TILES),
                                    ("g.png", {"what": "a picture", "preview": True}),
                                    ("k-sheet1.svg", {"what": "kit: wood, sheet 1 of 1 (SVG)", "laser": True,
                                                      "stock": "wood 3 mm, 600 x 400 mm", "sheets": 1}),
                                    ("k-sheet1.dxf", {"what": "kit: wood, sheet 1 of 1 (DXF)", "laser": True,
                                                      "stock": "wood 3 mm, 600 x 400 mm", "sheets": 0})])
    heads = [h for h in ("Print at home", "How to put it together", "For a print shop",
                         "For a laser cutter or a cutting plotter", "Pictures to look over")]
    positions = [text.index(f"\n{h}\n") for h in heads]
    assert positions == sorted(positions)
    assert "print on A4 card stock, two-sided, flip on the long edge: 6 sheets" in text
    assert "A4 card stock: 7 sheets (6 g-sheet-a4.pdf, 1 g-box-a4.pdf)" in text
    assert "A4 paper: 6 sheets" in text
    # An SVG and its DXF are one sheet, listed once.
    assert "k-sheet1.svg (or .dxf)" in text and "\nk-sheet1.dxf" not in text
    assert "wood 3 mm, 600 x 400 mm: 1 sheet" in text
    assert "You need: a printer that prints at 100 %, scissors, glue stick." in text
    assert re.search(r"\n +1\. Cards: cut them\.\n +2\. Box: fold it\.\n", text)


def test_variants_are_totalled_apart_and_shared_steps_said_once():
    two = {**CARDS, "variant": "2 players", "step": "Pieces: fold them."}
    four = {**CARDS, "pages": 20, "variant": "4 players", "step": "Pieces: fold them."}
    board4 = {**TILES, "variant": "4 players", "step": "Board: tape it."}
    text = print_list("g", "Game", [("p2.pdf", two), ("p4.pdf", four), ("b4.pdf", board4), ("box.pdf", BOX)])
    block = text[text.index("Paper and card to have:"):]
    assert "For 2 players:\n    - A4 card stock: 7 sheets (6 p2.pdf, 1 box.pdf)" in block
    assert "For 4 players:\n    - A4 card stock: 11 sheets (10 p4.pdf, 1 box.pdf)\n    - A4 paper: 6 sheets" in block
    steps = text[text.index("How to put it together"):]
    assert steps.count("Pieces: fold them.") == 1 and "Pieces: fold them.\n" in steps   # both variants: no note
    assert "Board: tape it. (4 players)" in steps


def test_long_file_names_are_never_split():
    name = "a-very-long-file-name-with-many-hyphens-that-would-wrap-badly-sheet1.pdf"
    text = print_list("g", "G", [(name, {**BOX, "what": "x " * 60})] * 2)
    assert text.count(name) >= 2 and all(len(line) <= 96 or name in line for line in text.splitlines())


@pytest.mark.parametrize("game", [g for g, d in GAMES.items() if d.specs])   # (the deck kind ships no spec)
def test_every_file_of_a_game_is_in_its_print_list_with_what_to_do(output, game):
    folder = output / game
    text = (folder / NAME).read_text()
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.name not in (NAME, PDF_NAME))
    assert files
    for rel in files:
        stem, _, ext = rel.rpartition(".")
        listed = f"{stem}.svg (or .dxf)" if ext in ("svg", "dxf") else rel
        assert f"\n{listed}\n" in text, f"{game}: {rel} is not in the print list"
        # Each entry says what the file is: the line after its name is indented text.
        after = text.split(f"\n{listed}\n", 1)[1].splitlines()[0]
        assert after.startswith("  ") and after.strip(), f"{game}: {rel} says nothing"
    assert "\nHow to put it together\n" in text and "\n  1. " in text
    # The same list as a PDF, to print: it starts with the list's title.
    pdf = PdfReader(folder / PDF_NAME)
    assert PDF_NAME in text and text.splitlines()[0] in " ".join(pdf.pages[0].extract_text().split())
    if "\nPrint at home\n" in text:
        assert "Paper and card to have:" in text
        home = text.split("\nPrint at home\n", 1)[1].split("Paper and card to have:", 1)[0]
        for entry in home.split("\n\n")[1:]:
            if entry.strip():
                assert re.search(r"print on .*: \d+ sheets?", entry), entry


def test_the_printed_list_is_a_checklist():
    """print-list.pdf: a box to tick before every file, every stock to have and every step; the
    paper named as a person says it (Letter, not LETTER)."""
    from generator.draw import Rect
    from generator.products.print_list import print_list_pages
    products = [("rules-letter.pdf", {"what": "the rules", "pages": 2, "stock": "paper", "sides": 2, "flip": "long",
                                      "paper": "letter", "order": 1, "step": "Read the rules."}),
                ("cards-letter.pdf", {**CARDS, "paper": "letter", "step": "Cut the cards."}),
                ("box-letter.pdf", {**BOX, "paper": "letter", "step": "Fold the box."})]
    text = print_list("g", "Game", products)
    assert "print on Letter card stock" in text and "LETTER" not in text
    pages = print_list_pages(text, PAPERS["letter"])

    def boxes(group):
        out = 0
        for it in group.items:
            if hasattr(it, "items"):
                out += boxes(it)
            elif isinstance(it, Rect) and it.style.fill is None and it.style.stroke is not None:
                out += 1
        return out
    steps = sum(1 for line in text.splitlines() if re.match(r"^\s+\d+\. ", line))
    stocks = text.split("Paper and card to have:", 1)[1].split("\n\n", 1)[0].count("  - ")
    assert (steps, stocks) == (3, 2)
    assert sum(boxes(p.root) for p in pages) == len(products) + steps + stocks


def _block(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0]


def test_a_laser_kits_assembly_sheet_is_counted_with_the_kit_not_the_paper_pieces(output):
    """Someone making Cubes' paper pieces (or Mille Bornes without the shoe) prints no kit assembly
    sheet: the home totals leave it out, the laser stock to have counts it, per build path."""
    cubes = (output / "cubes" / NAME).read_text()
    home = _block(cubes, "Paper and card to have:", "\n\n")
    assert "kit-2p-assembly" not in home and "kit-4p-assembly" not in home
    assert "For 2 players:\n    - A4 paper, 80-100 g/m2: 2 sheets (1 paper-pieces-2p-assembly-a4.pdf, 1 rules-a4.pdf)" \
        in home
    laser = _block(cubes, "Stock to have:", "\n\n")
    two = _block(laser, "For 2 players:", "For 4 players:")
    assert "A4 paper, 80-100 g/m2: 2 sheets (2 kit-2p-assembly-a4.pdf)" in two and "kit-4p" not in two
    assert "kit-4p-assembly-a4.pdf" in laser.split("For 4 players:", 1)[1]
    mb = (output / "mille-bornes" / NAME).read_text()
    assert "shoe-assembly" not in _block(mb, "Paper and card to have:", "\n\n")
    assert "shoe-assembly-a4.pdf" in _block(mb, "Stock to have:", "\n\n")


def test_a_tool_is_said_once_and_stock_under_the_path_it_is_for(output):
    """Capitals: "craft knife" once (not beside "craft knife or scissors"); the tuck box's card, for
    any way of making the walls, not under "For laser-cut wall troughs"."""
    text = (output / "capitals" / NAME).read_text()
    need = " ".join(_block(text, "You need:", "\n\n").split())
    assert need.count("craft knife") == 1
    laser = _block(text, "Stock to have:", "\n\n")
    head, troughs = laser.split("For laser-cut wall troughs:", 1)
    assert "card stock 0.3 mm" in head and "card stock 0.3 mm" not in troughs


def test_the_printed_list_ticks_files_only_to_make_and_keeps_an_entry_on_one_page():
    """No box to tick before a picture to look over; a file's entry (its name, what, how) never
    runs over a page's foot."""
    from generator.draw import Rect
    from generator.draw.drawing import Text
    from generator.products.print_list import print_list_pages
    from conftest import drawn_items
    products = [(f"part-{k}-a4.pdf", {**BOX, "what": "a part of the game, " * 6, "make": "cut and fold it " * 5})
                for k in range(40)]
    products += [(f"look-{k}.png", {"what": "a picture", "preview": True}) for k in range(3)]
    text = print_list("g", "Game", products)
    pages = print_list_pages(text, PAPERS["a4"])
    assert len(pages) > 2
    ticks_before, texts = [], []
    for n, page in enumerate(pages):
        items = list(drawn_items(page.root))
        boxes = [it.y for it, _ in items if isinstance(it, Rect) and it.style.fill is None and it.style.stroke]
        for it, _ in items:
            if isinstance(it, Text):
                texts.append((n, it.text))
                if it.text.endswith((".pdf", ".png")):
                    ticks_before.append((it.text, any(abs(b + 2.5 - it.y) < 3 for b in boxes)))
    assert all(ticked for name, ticked in ticks_before if name.endswith(".pdf"))
    assert not any(ticked for name, ticked in ticks_before if name.endswith(".png"))
    # Every entry's lines on the page of its name.
    lines = text.splitlines()
    for k, (n, t) in enumerate(texts):
        if t.endswith(".pdf") and t.startswith("part-"):
            i = lines.index(t)
            length = next(j for j in range(i, len(lines)) if not lines[j].strip()) - i
            assert {p for p, _ in texts[k:k + length]} == {n}, t
