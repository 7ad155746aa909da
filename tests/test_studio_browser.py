"""`pnp studio` in a real headless Chromium (Debian's chromium and chromium-driver), at a desktop's
size: the command started as a user starts it (`pnp studio --no-browser`, a process of its own),
then a deck of its own (benchmarks/deck.py's, CARDS cards) edited as a designer edits it, a CSV row, a layout
and a picture, each change seen on the page (the card's caption, its picture's pixels); a save that
breaks a card shows its error over its last good picture and fixing it clears it; a spec error at
the top with its file and line. The starter deck looked at closer: a card opened large, an element outlined on hover with its layout and line, a
shop's safe zone, a filter, checks at a glance, and the print files current. Screenshots in
/tmp/pnp-studio-shots/ where PNP_SHOTS=1 asks (tests/phones.py)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from conftest import ROOT, pnp_here
from phones import desktop_window, shot

SHOTS = Path("/tmp/pnp-studio-shots")
# Where to look on a face of benchmarks/deck.py's deck (fractions of its picture, bleed included):
# in the band (y 0 to 14 mm) left of the name, and in the art (y 14 to 52 mm)
BAND, ART = (0.07, 0.165), (0.5, 0.35)
WAIT = 30              # seconds a change may take to show before the test fails (never slept through)
FIRST = 240            # ... the first reading of the deck, on a busy machine
# The deck's size: what is checked (each change seen on the page, the neighbour's picture kept, a
# broken card's error over its last good picture, a spec error at the top) does not depend on it;
# 1,000 cards cost the suite 19 s of CPU more than 40 (the whole deck is read, and drawn again when
# its layout changes). The size is benchmarks/studio.py's to time (10, 100 and 1,000 cards).
CARDS = 40
MIDDLE = CARDS // 2    # the card edited (card MIDDLE, line MIDDLE + 1 of the CSV), its neighbours beside it


def start_studio(folder: Path, *options: str):
    proc = subprocess.Popen([sys.executable, "-m", "generator", "studio", "--no-browser", "--port", "0", *options],
                            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        found = re.search(r"open (http://localhost:\d+/)", line)
        if found:
            return proc, found.group(1)
    proc.wait(10)
    pytest.fail(f"pnp studio did not start: {proc.stderr.read()}")


def stop_studio(proc) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def browser(request):
    driver = desktop_window(request.config)
    yield driver
    driver.give_back()


def wait_for(driver, condition, what, seconds=WAIT, cid=None):
    from selenium.webdriver.support.ui import WebDriverWait
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition(d))
    except Exception:
        said = js(driver, "return [$('errors').textContent, document.body.dataset.version]")
        pytest.fail(f"waited {seconds} s for {what}; the page's errors and version: {said}; "
                    f"{cid}: {card(driver, cid) if cid else ''}")


def js(driver, script, *args):
    return driver.execute_script("const $ = (id) => document.getElementById(id); " + script, *args)


CARD = """const fig = document.getElementById('card-' + arguments[0]);
if (!fig) return null;
const img = fig.querySelector('img.' + (arguments[1] || 'face'));
let pixel = null;
if (img.complete && img.naturalWidth > 0 && arguments[2]) {
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  pixel = Array.from(g.getImageData(Math.floor(arguments[2][0] * c.width), Math.floor(arguments[2][1] * c.height), 1, 1).data.slice(0, 3));
}
return {key: img.dataset.key, loaded: img.complete && img.naturalWidth > 0 && img.src.includes(img.dataset.key),
        caption: fig.querySelector('figcaption .name').textContent, error: fig.querySelector('.error').textContent,
        pixel: pixel};"""


def card(driver, cid, side="face", at=None) -> dict | None:
    return driver.execute_script(CARD, cid, side, at)


def near(rgb, want, tolerance=24) -> bool:
    return rgb is not None and all(abs(a - b) <= tolerance for a, b in zip(rgb, want))


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, path)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_deck_edited_row_layout_and_picture_each_seen_on_the_page(browser, tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from deck import make_deck
    folder = tmp_path / "big"
    folder.mkdir()
    make_deck(folder, CARDS)
    csv, spec = folder / "cards.csv", folder / "bench.yaml"
    proc, url = start_studio(folder, "--no-print")
    try:
        browser.get(url)
        wait_for(browser, lambda d: js(d, "return document.querySelectorAll('figure.card').length") == CARDS,
                 "every card", FIRST)
        cid, before, after = (f"bench_yaml-{n}" for n in (MIDDLE, MIDDLE - 1, MIDDLE + 1))
        browser.execute_script("document.getElementById('card-' + arguments[0]).scrollIntoView({block: 'center'})", cid)
        first = wait_for(browser, lambda d: (c := card(d, cid, at=BAND)) and c["loaded"] and c["pixel"] and c,
                         "the middle card's face")
        assert first["caption"] == f"Card {MIDDLE}" and near(first["pixel"], (0x2f, 0x5d, 0x8a))   # the band's colour
        shot(browser, SHOTS / "studio-deck-before.png")

        # 1. a CSV row: the middle card's name (its neighbour's picture is not drawn again)
        neighbour = card(browser, before)["key"]
        replace(csv, f"\nCard {MIDDLE},", "\nCard Renamed,")
        renamed = wait_for(browser, lambda d: (c := card(d, cid)) and c["caption"] == "Card Renamed"
                           and c["key"] != first["key"] and c["loaded"] and c, "the renamed card's new picture", cid=cid)
        assert card(browser, before)["key"] == neighbour

        # 2. a layout: the face's band, from the palette's band to its gold
        replace(spec, "- {type: rect, x: 0, y: 0, w: 63, h: 14, fill: band}",
                "- {type: rect, x: 0, y: 0, w: 63, h: 14, fill: gold}")
        gilded = wait_for(browser, lambda d: (c := card(d, cid, at=BAND)) and c["key"] != renamed["key"]
                          and c["loaded"] and near(c["pixel"], (0xc8, 0x96, 0x1e)) and c, "the band turned gold", cid=cid)
        shot(browser, SHOTS / "studio-deck-layout.png")

        # 3. a picture: the middle card's art, painted red
        Image.new("RGB", (240, 160), (220, 20, 20)).save(folder / "art" / f"card{MIDDLE - 1:04d}.png")
        wait_for(browser, lambda d: (c := card(d, cid, at=ART)) and c["key"] != gilded["key"]
                 and c["loaded"] and near(c["pixel"], (220, 20, 20)), "the red picture", cid=cid)
        good = card(browser, cid)

        # 4. a broken save: the middle card's rules too long for their box, then fixed
        lines = csv.read_text(encoding="utf-8").split("\n")
        row = lines[MIDDLE]
        assert row.startswith("Card Renamed,")
        lines[MIDDLE] = row.replace(',"**', ',"' + "far too many words for one card " * 60 + "**", 1)
        csv.write_text("\n".join(lines), encoding="utf-8")
        broken = wait_for(browser, lambda d: (c := card(d, cid)) and c["error"] and c, "the card's error")
        assert f"cards.csv:{MIDDLE + 1}" in broken["error"] and "does not fit" in broken["error"]
        assert broken["key"] == good["key"] and broken["loaded"]        # its last good picture, under the error
        assert card(browser, after)["error"] == ""
        shot(browser, SHOTS / "studio-deck-broken.png")
        lines[MIDDLE] = row
        csv.write_text("\n".join(lines), encoding="utf-8")
        wait_for(browser, lambda d: (c := card(d, cid)) and c["error"] == "" and c["key"] == good["key"],
                 "the error cleared")

        # 5. a spec error: at the top, its file and line; the cards stay; fixed, it goes
        text = spec.read_text(encoding="utf-8")
        line = next(k for k, t in enumerate(text.splitlines(), 1) if 'text: "{name}"' in t)
        spec.write_text(text.replace('text: "{name}"', 'text: "{nmae}"', 1), encoding="utf-8")
        said = wait_for(browser, lambda d: js(d, "return $('errors').textContent"), "the spec's error at the top")
        assert said.startswith(f"bench.yaml:{line}:") and "nmae" in said, said
        assert js(browser, "return document.querySelectorAll('figure.card').length") == CARDS
        assert card(browser, cid)["key"] == good["key"]
        shot(browser, SHOTS / "studio-deck-spec-error.png")
        spec.write_text(text, encoding="utf-8")
        wait_for(browser, lambda d: js(d, "return $('errors').textContent") == "", "the spec's error cleared")
    finally:
        stop_studio(proc)


def test_the_starter_deck_looked_at_closer_and_its_print_files_current(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    folder = tmp_path / "mine"
    folder.mkdir()
    assert pnp_here("new", "deck", "demo", cwd=folder).returncode == 0
    proc, url = start_studio(folder)
    try:
        browser.get(url)
        rows = (folder / "demo.csv").read_text().splitlines()[1:]
        wait_for(browser, lambda d: js(d, "return document.querySelectorAll('figure.card img.face[src]').length")
                 == len(rows) + 1, "every card's face")
        wait_for(browser, lambda d: all(js(d, "return Array.from(document.querySelectorAll('figure.card img.face'))"
                                              ".map(i => i.complete && i.naturalWidth > 0)")), "the pictures loaded")
        # the print files follow in the background, and the page says when they are current
        wait_for(browser, lambda d: js(d, "return $('printing').dataset.state") == "current", "the print files", 240)
        assert "print files current" in js(browser, "return $('printing').textContent")
        assert (folder / "output" / "deck").is_dir()
        js(browser, "$('sides').value = 'both'; $('sides').dispatchEvent(new Event('change'))")
        wait_for(browser, lambda d: all(js(d, "return Array.from(document.querySelectorAll('figure.card img.back'))"
                                              ".map(i => i.complete && i.naturalWidth > 0)")), "the backs loaded")
        assert f"{len(rows) + 1} cards ({1 + sum(int(r.split(',')[2]) for r in rows)} with their copies)" in \
            js(browser, "return $('summary').textContent")
        shot(browser, SHOTS / "studio-starter.png")
        # filter by a field's value: the treasure cards
        js(browser, "$('field').value = 'kind'; $('value').value = 'treasure'; $('value').dispatchEvent(new Event('input'))")
        treasure = sum(1 for r in rows if r.split(",")[1] == "treasure")
        assert js(browser, "return document.body.dataset.shown") == str(treasure)
        js(browser, "$('value').value = ''; $('value').dispatchEvent(new Event('input'))")
        # a card opened large: trim, bleed, safe zone, a shop's safe zone, each element on hover
        js(browser, "document.querySelectorAll('figure.card')[1].click()")
        wait_for(browser, lambda d: js(d, "return document.querySelectorAll('#overlay rect.el').length") >= 4,
                 "the card opened large")
        assert js(browser, "return document.querySelectorAll('#overlay rect.trim, #overlay rect.bleed, "
                           "#overlay rect.safe').length") == 3
        name = browser.find_elements(By.CSS_SELECTOR, "#overlay rect.el")[1]
        ActionChains(browser).move_to_element(name).perform()
        spec_lines = (folder / "demo.yaml").read_text().splitlines()
        hover = wait_for(browser, lambda d: "demo.yaml:" in (t := js(d, "return $('large-hover').textContent")) and t,
                         "the element's layout and line")
        line = int(hover.rsplit(":", 1)[1])
        assert "id: name" in spec_lines[line - 1], (hover, spec_lines[line - 1])
        assert "Strike" in js(browser, "return $('large-row').textContent")
        js(browser, "$('shop').value = 'drivethrucards'; $('shop').dispatchEvent(new Event('change'))")
        wait_for(browser, lambda d: js(d, "return document.querySelectorAll('#overlay rect.shopzone').length") == 1,
                 "DriveThruCards' safe zone")
        assert "DriveThruCards" in js(browser, "return $('legend-shop').textContent")
        shot(browser, SHOTS / "studio-starter-large.png")
        js(browser, "$('large-close').click()")
        # checks at a glance: the name's box moved past the trim, every face marked
        replace(folder / "demo.yaml", "{id: name, type: text, x: 5,", "{id: name, type: text, x: -2,")
        wait_for(browser, lambda d: js(d, "return document.querySelectorAll('figure.card .badge').length")
                 == len(rows) + 1, "every card marked")
        assert f"{len(rows) + 1} with checks" in js(browser, "return $('summary').textContent")
    finally:
        stop_studio(proc)
