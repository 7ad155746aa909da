"""What a table page needs besides the referee's summary: the position drawing, what the game's
controls are offered, and its hints, all from the game's own folder (its web.py and position.py,
found through its declaration): this module names no game.

Every fact a game's web.py gives is read off the referee's state or its deck; every legal move it
offers is one the referee itself lists or accepts. Nothing here decides a rule."""
from __future__ import annotations

import difflib
import hashlib
import json
import re
import threading
import importlib

from ..draw.svg import svg_string
from ..errors import show
from ..games.declaration import GameDeclaration, TablePage
from ..inputs import MadeFromFiles
from ..referee.contract import Refused, entry_summary
from .store import BadRequest, Table


def table_page(game: GameDeclaration) -> TablePage:
    """The game's table page: its web.py's PAGE (controls, position drawing, hints)."""
    return importlib.import_module(game.web + ".web").PAGE


def controls_script(game: str) -> str:
    """Where the page loads the game's controls (its web.js) from."""
    return f"/api/games/{game}/web.js"


def position_drawing(t: Table):
    """What position.svg shows: the whole position, or, for a game whose drawing has a background no
    turn changes (the Capitals map), only what the turns made, laid over background.svg."""
    if "drawing" not in t.moment.cache:
        before = t.moment.history[-1] if t.moment.history else None
        t.moment.cache["drawing"] = table_page(t.declaration).draw(t.moment.state, t.header, before)
    return t.moment.cache["drawing"]


def position_svg(t: Table) -> str:
    if "svg" not in t.moment.cache:
        t.moment.cache["svg"] = svg_string(position_drawing(t), shared_glyphs=True)
    return t.moment.cache["svg"]


_TAG = re.compile(r"(?=<)")


def position_pieces(t: Table) -> list[str]:
    """position.svg cut before each tag: the pieces a phone keeps, so that what changed is all an
    entry sends it (position_edits). Joined, they are position.svg again. Drawn once a moment: the
    phones asking at once wait for the one drawing it (dict.setdefault is atomic)."""
    with t.moment.cache.setdefault("drawing lock", threading.Lock()):
        if "pieces" not in t.moment.cache:
            t.moment.cache["pieces"] = [p for p in _TAG.split(position_svg(t)) if p]
    return t.moment.cache["pieces"]


def position_edits(before: list[str] | None, after: list[str]) -> list:
    """How a phone holding the pieces `before` makes `after`: ["=", i, j] keeps its pieces i..j-1,
    ["+", [piece, ...]] adds new ones, in order. The moved men, the new tile: only they travel."""
    if not before:
        return [["+", after]]
    out = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out.append(["=", i1, i2])
        elif op in ("replace", "insert"):
            out.append(["+", after[j1:j2]])
    return out


_BACKGROUNDS = MadeFromFiles(size=8)   # (game, header) -> (version, svg), while its specs are unchanged


def background_svg(t: Table) -> tuple[str, str] | None:
    """(version, SVG) of the position's background, or None for a game drawn whole each time. The
    version changes with the drawing (a board spec edited while the server runs draws it again)."""
    page = table_page(t.declaration)
    if page.background is None:
        return None

    def make():
        svg = svg_string(page.background(t.header), shared_glyphs=True)
        return hashlib.sha256(svg.encode()).hexdigest()[:16], svg
    # the header decides the background (the board, the kit, the variant), not the players' names
    key = json.dumps({k: v for k, v in t.header.items() if k not in ("players", "teams")}, sort_keys=True, default=str)
    return _BACKGROUNDS.get((t.game, key), make)


def table_json(t: Table) -> dict:
    """Everything the table page shows and offers, after the record's last entry."""
    rules, now = t.rules, t.moment
    state = now.state
    d = position_drawing(t)
    summary = rules.summary(state, list(now.reports))
    return {"id": t.id, "game": t.game, "title": t.declaration.title, "header": t.header, "entries": now.entries,
            "version": now.version, "prompt": rules.prompt(state), "final": rules.final_text(state),
            "text": rules.render(state, False),
            "log": [r.text for r in now.reports[-12:]], "summary": summary, "help": rules.help_text,
            # what Undo would take back, said on the page before it is tapped
            "last": {"number": now.entries, "text": entry_summary(now.reports[-1])} if now.reports else None,
            "over": t.over,
            "drawing": {"width": d.width, "height": d.height},
            "background": _background_url(t),
            "controls_script": controls_script(t.game),
            "controls": table_page(t.declaration).controls(state, t.header)}


def _background_url(t: Table) -> str | None:
    found = background_svg(t)
    if found is None:
        return None
    return f"/api/records/{t.id}/background.svg?v={found[0]}"


def hint(t: Table, kind: str, arg: str) -> dict:
    """A hint the game offers (Continuo's `best TILE`, Sorry's `moves CARD`, Capitals' `walls
    CARD`): the referee's own lists. Refused (the same line as at the prompt) for a tile or card it
    refuses."""
    found = table_page(t.declaration).hints.get(kind)
    if found is None:
        raise BadRequest(f"no hint {show(kind)} for {t.game}")
    try:
        return found(t.moment.state, t.header, arg)
    except (ValueError, Refused) as exc:
        text = exc.line() if isinstance(exc, Refused) else str(exc)
        raise BadRequest(text) from None
