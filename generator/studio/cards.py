"""What the studio page shows: every card of the folder's decks, face and back, each side a picture
drawn by the project's own code (a deck's faces.py draws it, the cairo backend rasterises it,
shops/pictures.py places it: the per-card picture machinery of `--layout png` and the picture shops).

A save is cheap at a thousand cards because a card side is drawn only when what draws it changed:
its key is a digest of its layout (every element's keys as merged from the layouts it extends),
the values of the fields that layout reads, the card's size, palette and fonts, and the stat (size,
time, inode) of every file it shows. A card whose keys are known keeps its pictures; the others are
drawn one by one, each with its own problems, so one broken card is that card's error (shown over
its last good picture) and not the deck's. A spec that no longer reads (YAML, a layout naming a
field no card has, a CSV row that is not one) keeps every card as it was and is said at the top,
file and line. The five games' decks (their own specs in the folder) are shown as their builds draw
them, drawn again when a file they read changes.

The Studio is made and refreshed by one thread (the watch) and read by the server's: its state is
replaced under a lock, and a side once drawn is never changed.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SpecError, UsageError, one_line, show

GRID_DPI = 100            # the cards in the grid: a poker card is 272 px wide, sharp at 2x zoom
LARGE_DPI = 250           # a card opened large
DPIS = (GRID_DPI, LARGE_DPI)
MAX_SIDES = 8000          # card sides kept drawn (a 2,000-card deck of distinct faces, its backs, and a save's worth more)
MAX_PICTURE_BYTES = 384 * 2**20   # PNGs kept; past it the least recently shown go (drawn again if asked)
MAX_ERROR_CHARS = 600     # of a card's error, as the page shows it
EDGE = 0.01               # mm: a box this far past the trim is on it
# The safe zone drawn on a card opened large (a chosen shop's is drawn beside it): 1/8 in inside the
# trim, DriveThruCards' for every card (generator/shops/drivethrucards.yaml, its source cited there).
SAFE_MM = 3.175


@dataclass
class Side:
    """One card side drawn: its Drawing, the outline of each element (for the page's hover), and
    what the checks found on it."""
    key: str
    drawing: object
    size: tuple[float, float, float]          # card width, height, bleed (mm)
    boxes: list[dict] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)


@dataclass
class CardView:
    """A card as the page shows it."""
    id: str
    deck: str                 # its spec, as errors name it
    number: int
    caption: str
    face: str | None = None   # the key of the face shown (the last good one)
    back: str | None = None
    error: str | None = None
    flags: list[str] = field(default_factory=list)
    row: dict = field(default_factory=dict)   # its fields, as the CSV (or the spec) gives them
    where: str = ""           # file:line of its row
    version: int = 0          # the studio's version when it last changed
    count: int = 1            # its copies in the deck

    def shown(self) -> dict:
        return {"id": self.id, "deck": self.deck, "number": self.number, "caption": self.caption, "count": self.count,
                "face": self.face, "back": self.back, "error": self.error, "flags": self.flags,
                "row": self.row, "where": self.where}


@dataclass
class DeckView:
    spec: str                 # as errors name it
    title: str
    kind: str                 # "deck" (your own), else the game's id
    size: tuple[float, float, float]
    cards: list[str] = field(default_factory=list)       # card ids, in order
    errors: list[str] = field(default_factory=list)      # why the spec does not read now (file:line: ...)
    reads: dict = field(default_factory=dict)            # what it read last: {real path: sha256}
    stats: dict = field(default_factory=dict)            # and each file's stat after the read
    shows: dict = field(default_factory=dict)            # every file its cards show: {path: stat}

    def shown(self) -> dict:
        return {"spec": self.spec, "title": self.title, "kind": self.kind, "size": list(self.size),
                "cards": self.cards, "errors": self.errors}


def _digest(*parts) -> str:
    """A key of plain values (text, numbers, lists, dicts made in one order): their repr, digested
    (a third of json.dumps's time, a thousand times a save)."""
    return hashlib.sha1(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()


def file_stat(path) -> list:
    """What says a file changed without reading it: size, modification time, inode (None if gone)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return [None]
    return [st.st_size, st.st_mtime_ns, st.st_ino]


class Studio:
    """The folder's decks as the page shows them. `refresh()` reads the folder again (the watch
    calls it on each save); `version` grows with every change the page must see."""

    dpis = DPIS           # the resolutions the page may ask a side's picture at

    def __init__(self, root: Path, names: list[str] | None = None):
        self.root = Path(root)
        self.names = list(names or [])
        self.lock = threading.Lock()
        self.sides: OrderedDict[str, Side] = OrderedDict()
        self.pictures: OrderedDict[tuple, bytes] = OrderedDict()
        self.picture_bytes = 0
        self.cards: dict[str, CardView] = {}
        self.decks: dict[str, DeckView] = {}
        self.errors: list[str] = []          # what stops the folder being read at all
        self.shown: dict[str, tuple] = {}    # every spec shown so far (specs()), by path
        self.version = 0
        self.read: set[str] = set()          # every file the last refresh read (real paths): the watch's
        self.printing: dict = {"state": "off"}
        self.listeners: list = []            # called (no arguments) after each change
        self.drawn = 0                       # sides drawn so far (tests and benchmarks count them)
        self._pending: dict[str, CardView] = {}   # the cards a refresh changed, shown at its end, all at once

    def shop_check(self, side: Side, shop: str) -> dict:
        """A chosen shop's safe zone on a side (shop_check), the shops being this folder's."""
        return shop_check(side, shop, self.root)

    # ------------------------------------------------------------ the state the page reads

    def state(self, since: int | None = None) -> dict:
        """The studio now: every deck and top error, and the cards changed after version `since`
        (all of them without it)."""
        with self.lock:
            cards = [c.shown() for c in self.cards.values() if since is None or c.version > since]
            return {"version": self.version, "from": since, "errors": list(self.errors),
                    "decks": [d.shown() for d in self.decks.values()], "cards": cards,
                    "printing": dict(self.printing), "dpi": GRID_DPI, "large_dpi": LARGE_DPI, "safe": SAFE_MM,
                    "drawn": self.drawn}

    def side(self, key: str) -> Side | None:
        with self.lock:
            return self.sides.get(key)

    def picture(self, key: str, dpi: int) -> bytes | None:
        """The side's PNG at dpi (one of DPIS), drawn now if it is not kept; None for a side not known."""
        with self.lock:
            got = self.pictures.get((key, dpi))
            if got is not None:
                self.pictures.move_to_end((key, dpi))
                return got
            side = self.sides.get(key)
        if side is None:
            return None
        from ..layout.cardsize import CardSize
        from ..shops.pictures import card_picture, card_size_at
        card = CardSize(*side.size)
        data = card_picture(side.drawing, card, card_size_at(card, dpi))
        with self.lock:
            if (key, dpi) not in self.pictures:
                self.pictures[(key, dpi)] = data
                self.picture_bytes += len(data)
                while self.picture_bytes > MAX_PICTURE_BYTES and len(self.pictures) > 1:
                    _, old = self.pictures.popitem(last=False)
                    self.picture_bytes -= len(old)
        return data

    def card(self, card_id: str) -> CardView | None:
        with self.lock:
            return self.cards.get(card_id)

    def failed(self, exc: Exception) -> None:
        """A reading that failed for a reason of ours (a bug): said at the top, the cards kept."""
        with self.lock:
            self.errors = [one_line(f"pnp: internal error ({type(exc).__name__}: {exc}); this is a bug, please "
                                    "report it with the files that caused it")]
            self._pending = {}
            self.version += 1
        self._tell()

    def set_printing(self, **status) -> None:
        with self.lock:
            self.printing = status
            self.version += 1
        self._tell()

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()

    # ------------------------------------------------------------ reading the folder

    def specs(self) -> tuple[list[tuple[str, Path, str, str | None]], list[str]]:
        """(game, path, as errors name it, part) of each spec to show, once each: what a build here
        would build, and each spec shown before that is still a file (a spec saved half-written is
        no spec to the folder's look, but its cards stay on the page, under its error); and the
        errors that stopped the folder being looked over (a spec whose kind cannot be read)."""
        from ..pipeline import what_to_build
        from ..paths import is_project
        from ..pipeline import job_path
        from ..spec import display_path
        here = Path.cwd()
        out: dict[str, tuple] = {}
        errors: list[str] = []
        if self.names or is_project(here):
            try:
                jobs = what_to_build(self.names, self.root)
            except SpecError as exc:
                jobs, errors = [], [one_line(str(exc))]
            for job in jobs:
                path = job_path(job, self.root)
                out.setdefault(str(path), (job.game, path, display_path(path, self.root), job.part))
        for key, known in self.shown.items():
            if key not in out and known[1].is_file():
                out[key] = known
        if not out:
            raise UsageError(f"no specs in {here}: `pnp new deck NAME` starts a deck, or name a spec (NAME.yaml)")
        self.shown.update(out)
        return list(out.values()), errors

    def refresh(self) -> bool:
        """Read the folder again; True if the page has something new to show (a new version, with
        every change of this reading in it: a page never sees half a reading)."""
        self._pending = {}
        try:
            specs, top = self.specs()
        except (UsageError, SpecError) as exc:
            specs, top = [], [one_line(str(exc))]
        read: set[str] = set()
        decks: dict[str, DeckView] = {}
        for game, path, rel, part in specs:
            old = self.decks.get(rel)
            if old is not None and old.stats and not old.errors and not self._any_broken(old) and all(
                    file_stat(p) == st for p, st in old.stats.items()):
                # nothing it read has changed (as make sees it: by stat), and nothing it could not
                # read (a picture not there yet) is waited for
                decks[rel] = old
                read.update(old.reads)
                continue
            view = self._read_spec(game, path, rel, part, old)
            decks[rel] = view
            read.update(view.reads)
        with self.lock:
            wanted = {cid for d in decks.values() for cid in d.cards}
            gone = [cid for cid in self.cards if cid not in wanted]
            changed = bool(gone) or bool(self._pending) or top != self.errors or list(decks) != list(self.decks) or \
                any(decks[k] is not self.decks.get(k) for k in decks)
            if changed:
                self.version += 1
            for cid in gone:
                del self.cards[cid]
            for cid, card in self._pending.items():     # what the refresh changed, shown all at once
                card.version = self.version
                self.cards[cid] = card
            self._pending = {}
            self.decks, self.errors = decks, top
            self.read = read
        if changed:
            self._tell()
        return changed

    def _any_broken(self, view: DeckView) -> bool:
        with self.lock:
            return any(self.cards[cid].error for cid in view.cards if cid in self.cards)

    def _read_spec(self, game: str, path: Path, rel: str, part, old: DeckView | None) -> DeckView:
        from ..inputs import track_reads
        from ..spec import load_spec
        from ..spec.loader import SpecErrors
        view = DeckView(rel, old.title if old else rel, game, old.size if old else (63.0, 88.0, 3.0),
                        list(old.cards) if old else [])
        with track_reads() as reads:
            try:
                spec = load_spec(path, display=rel)
                if spec.kind == "deck":
                    self._read_own_deck(spec, view)
                else:
                    self._read_game_deck(game, spec, view, part, reads)
            except SpecErrors as exc:
                view.errors = [SpecError.__str__(e) for e in exc.errors]
            except SpecError as exc:
                view.errors = [str(exc)]
            except Exception as exc:  # noqa: BLE001  shown at the top, as a build says it; the studio goes on
                view.errors = [one_line(f"pnp: {type(exc).__name__}: {exc}")]
        view.reads = dict(reads)
        if not view.reads:       # not even the spec could be read: look at it again on its next save
            view.reads = {os.path.realpath(path): ""}
        # what it read now, and every file its cards show (read when they were drawn, maybe in an
        # earlier reading): a save of any of them reads the deck again
        view.stats = {**view.shows, **{p: file_stat(p) for p in view.reads}}
        return view

    # ------------------------------------------------------------ a deck of your own

    def _read_own_deck(self, spec, view: DeckView) -> None:
        from ..draw.fonts import set_fallbacks
        from ..games.deck.faces import draw_deck
        from ..games.deck.model import Problems, read_deck
        from ..games.deck.products import deck_fonts
        problems = Problems()
        deck = read_deck(spec, problems)
        view.errors = _said(problems)     # the spec's, its files', its rows': at the top, file and line
        if not deck.drawable() or (view.errors and view.cards):
            # Its cards cannot be drawn now, or would be drawn from a spec a build refuses: the page
            # keeps them as they were, under the errors. (A first reading shows what it can.)
            return
        set_fallbacks(deck_fonts(deck))
        size = (deck.size.width, deck.size.height, deck.size.bleed)
        view.title, view.size = deck.title, size
        keys = _DeckKeys(deck)
        ids = []
        prefix = rel_id(view.spec)
        for card in deck.cards:
            cid = f"{prefix}-{card.number}" + (f"-{card.index}" if card.index is not None else "")
            ids.append(cid)
            face_key, back_key = keys.of(card)
            with self.lock:
                have = face_key in self.sides and back_key in self.sides
                if have:
                    self.sides.move_to_end(face_key)
                    self.sides.move_to_end(back_key)
            error = None
            if not have:
                card_problems = Problems()
                drawn = draw_deck(deck, card_problems, [card])
                if card_problems.errors:
                    error = "; ".join(str(e) for e in card_problems.errors[:3])[:MAX_ERROR_CHARS]
                elif not drawn.faces:     # a layout the schema refused: said at the top
                    error = f"{card.label()}: its layout has an error (at the top)"
                else:
                    values = keys.values(card)
                    face = _side(face_key, drawn.faces[0], size, deck, deck.layouts[drawn.face_layouts[0]],
                                 values, drawn.sizes[0])
                    back = _side(back_key, drawn.backs[0], size, deck, deck.layouts[drawn.back_layouts[0]],
                                 values, None)
                    with self.lock:
                        self.sides[face_key] = face
                        self.sides[back_key] = back
                        while len(self.sides) > MAX_SIDES:
                            self.sides.popitem(last=False)
                    self.drawn += 1
            self._card(cid, view.spec, card, face_key, back_key, error)
        view.cards = ids
        view.shows = keys.files()

    def _card(self, cid: str, deck: str, card, face_key: str, back_key: str, error: str | None) -> None:
        """The card's view updated (a new version where anything the page shows changed)."""
        name = next((card.fields[k] for k in ("name", "title", "Name", "Title") if card.fields.get(k)), "")
        caption = name or f"card {card.number}"
        row = dict(card.fields)
        row[card.count_name] = str(card.count)
        where = f"{card.file}:{card.line}" if card.line else card.file
        with self.lock:
            old = self.cards.get(cid)
            if error is None:
                face, back = face_key, back_key
                flags = _flags(self.sides.get(face_key), self.sides.get(back_key))
            else:                        # the last good pictures stay, under the error
                face, back = (old.face, old.back) if old else (None, None)
                flags = old.flags if old else []
            if old is not None and (old.face, old.back, old.error, old.caption, old.row, old.where, old.flags,
                                    old.number, old.deck, old.count) == (face, back, error, caption, row, where,
                                                                         flags, card.number, deck, card.count):
                return
            new = CardView(cid, deck, card.number, caption, face, back, error, flags, row, where, count=card.count)
            self._pending[cid] = new

    # ------------------------------------------------------------ the five games' decks

    def _read_game_deck(self, game: str, spec, view: DeckView, part, reads: dict) -> None:
        from ..games import check_spec, game_contents
        from ..options import BuildOptions
        from ..products.contents import Deck
        from ..shops.safezone import card_name
        check_spec(spec)
        contents = game_contents(game, {str(spec.path or spec.file): spec}, BuildOptions().paper, part)
        decks = [c for c in contents if isinstance(c, Deck)]
        ids = []
        prefix = rel_id(view.spec)
        digest = _digest(sorted(reads.items()))       # (what its drawing read, so far)
        for d, content in enumerate(decks):
            art = content.art
            size = (art.size.width, art.size.height, art.size.bleed)
            view.title, view.size = (art.title if len(decks) == 1 else spec.data.get("title", art.title)), size
            backs = [b for b, _ in art.backs] if art.backs else [art.back] * len(art.faces)
            for i, ((face, count, caption), back) in enumerate(zip(art.faces, backs), 1):
                cid = f"{prefix}-{d + 1}-{i}"
                ids.append(cid)
                face_key = _digest("game face", game, view.spec, digest, d, i)
                back_key = _digest("game back", game, view.spec, digest, d, id(back))
                with self.lock:
                    for key, drawing in ((face_key, face), (back_key, back)):
                        if key not in self.sides and drawing is not None:
                            self.sides[key] = Side(key, drawing, size)
                            self.drawn += 1
                    old = self.cards.get(cid)
                    new = CardView(cid, view.spec, i, card_name(caption), face_key, back_key, None,
                                   _flags(self.sides.get(face_key), self.sides.get(back_key)),
                                   {"count": str(count)}, view.spec, count=count)
                    if old is None or old.shown() != new.shown():
                        self._pending[cid] = new
        view.cards = ids


def _said(problems) -> list[str]:
    """A reading's problems as error lines, in file order (as `pnp validate` says them)."""
    from ..spec.loader import SpecErrors
    try:
        problems.raise_any()
    except SpecErrors as exc:
        return [SpecError.__str__(e) for e in exc.errors]
    return []


def rel_id(rel: str) -> str:
    """A spec's display path as part of a card's id (letters, digits, - and _ only)."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in rel)[:80]


class _DeckKeys:
    """Each card side's key: what draws it, digested (see the module's docstring)."""

    def __init__(self, deck):
        self.deck = deck
        self.folder = str(deck.folder)
        self.stats: dict[str, list] = {}
        spec = deck.spec
        files = []
        for name, styles in sorted(spec.data.get("fonts", {}).items()):
            for style, rel in sorted(styles.items()):
                files.append(self._stat(rel))
        for name, given in sorted(spec.data.get("icons", {}).items()):
            files.append(self._stat(given.get("file") if isinstance(given, dict) else given))
            files.append(given)             # (how it sits in text, too)
        self.common = _digest(deck.size.width, deck.size.height, deck.size.bleed,
                              {k: v.as_rgb() for k, v in deck.palette.items()},
                              {k: [f.regular, f.bold, f.italic, f.bold_italic] for k, f in deck.families.items()},
                              files)
        self.layouts: dict[str, tuple[str, list[str], list]] = {}

    def _stat(self, rel: str) -> list:
        """A file the spec names, by its stat: only a name that stays in the spec's folder as
        written (the drawing itself reads it through inputs.confined, links and all)."""
        got = self.stats.get(rel)
        if got is None:
            pure = os.path.normpath(rel) if isinstance(rel, str) and rel and "\0" not in rel else ""
            inside = pure and not os.path.isabs(pure) and pure != ".." and not pure.startswith(".." + os.sep)
            got = self.stats[rel] = [rel, file_stat(os.path.join(self.folder, pure)) if inside else None]
        return got

    def files(self) -> dict:
        """{path: stat} of every file the cards' keys looked at (the pictures they show, fonts, icons)."""
        return {os.path.join(self.folder, os.path.normpath(rel)): stat for rel, stat in self.stats.values()
                if stat is not None}

    def layout(self, name: str):
        """(digest, the fields it reads, its image elements' file templates, whether it asks for
        a card's index) of a layout."""
        from ..games.deck.model import fields_in
        got = self.layouts.get(name)
        if got is None:
            lay = self.deck.layouts[name]
            fields = set(fields_in(lay.background or ""))
            files, index = [], False
            for el in lay.elements:
                # every text in it, however deep (a gradient's stops), may name a field
                todo = [v for k, v in el.values.items() if k != "when"]
                while todo:
                    value = todo.pop()
                    if isinstance(value, str):
                        fields.update(fields_in(value))
                    elif isinstance(value, dict):
                        todo += list(value.values())
                    elif isinstance(value, list):
                        todo += value
                when = el.values.get("when")
                if isinstance(when, str):
                    fields.add(when)
                elif isinstance(when, dict):
                    fields.update(k for k in when if k != "index")
                    index = index or "index" in when
                if el.type == "image":
                    files.append(el.values.get("file"))
            digest = _digest(name, lay.background, lay.broken, [[el.name, el.values, el.broken] for el in lay.elements])
            got = self.layouts[name] = (digest, sorted(fields), files, index)
        return got

    def values(self, card) -> dict:
        """The card's values as faces.py draws with them (its index among the deck's, where it has one)."""
        from ..games.deck.faces import INDEX
        values = dict(card.fields)
        values["count"] = values[card.count_name] = str(card.count)
        if card.index is not None:
            values[INDEX] = (card.index, len(self.deck.cards))
        return values

    def of(self, card) -> tuple[str, str]:
        from ..games.deck.model import substitute
        values = self.values(card)
        keys = []
        for side, template in (("face", self.deck.face_template), ("back", self.deck.back_template)):
            name = substitute(template, values)
            if name not in self.deck.layouts:
                keys.append(_digest(side, "no layout", name, values))
                continue
            digest, fields, files, index = self.layout(name)
            stats = [self._stat(substitute(f, values)) for f in files if isinstance(f, str)]
            keys.append(_digest(side, self.common, digest, {f: values.get(f, "") for f in fields}, stats,
                                (card.index, len(self.deck.cards)) if index else None))
        return keys[0], keys[1]


# ---------------------------------------------------------------- what a side shows and the checks

def _box(deck, el_type: str, v: dict) -> tuple[float, float, float, float] | None:
    """An element's box on the card (mm), from its layout's values (turned elements: unturned)."""
    from ..draw.pathdata import ops_bounds
    from ..games.deck.faces import _outline
    try:
        if el_type in ("circle", "arc", "pie"):
            return v["cx"] - v["r"], v["cy"] - v["r"], v["cx"] + v["r"], v["cy"] + v["r"]
        if el_type == "ellipse":
            return v["cx"] - v["rx"], v["cy"] - v["ry"], v["cx"] + v["rx"], v["cy"] + v["ry"]
        if el_type == "star":
            r = v["outer_radius"]
            return v["cx"] - r, v["cy"] - r, v["cx"] + r, v["cy"] + r
        if el_type == "line":
            return min(v["x1"], v["x2"]), min(v["y1"], v["y2"]), max(v["x1"], v["x2"]), max(v["y1"], v["y2"])
        if el_type in ("polygon", "triangle", "path"):
            return tuple(ops_bounds(_outline(deck, el_type, v).ops))
        return v["x"], v["y"], v["x"] + v["w"], v["y"] + v["h"]
    except Exception:  # noqa: BLE001  an element that cannot be outlined has no box (it draws, or says why)
        return None


def _side(key: str, drawing, size, deck, layout, values: dict, sizes: dict | None) -> Side:
    """A side drawn by one of the deck's layouts: each element shown on it outlined (its layout's
    name and the line it was written at), and the checks."""
    from ..games.deck.faces import DEFAULT_SIZE, _shown
    from ..games.deck.model import _element_path
    side = Side(key, drawing, size)
    for el in layout.elements:
        if el.broken or not _shown(el, values):
            continue
        box = _box(deck, el.type, el.values)
        if box is None:
            continue
        # the layout it was written in (a layout that extends another has its elements), and those
        # that changed it since, each at its line
        origin = _element_path(el)
        written = origin[1] if len(origin) > 1 and origin[0] == "layouts" else el.layout
        changed = {}
        for path in el.paths.values():
            if len(path) > 1 and path[0] == "layouts" and path[1] != written and path[1] not in changed:
                changed[path[1]] = deck.spec.line(path)
        side.boxes.append({"name": el.name, "layout": written, "type": el.type, "line": deck.spec.line(origin),
                           "changed": [{"layout": k, "line": v} for k, v in changed.items()],
                           "box": [round(b, 3) for b in box]})
    if sizes:
        by_name = {el.name: el for el in layout.elements}
        for name, set_at in sizes.items():
            el = by_name.get(name)
            want = el.values.get("size", DEFAULT_SIZE) if el is not None else set_at
            if set_at < want - 1e-6:
                side.flags.append(f"text {name} of layout {layout.name} set at {set_at:g} pt, smaller than its "
                                  f"size ({want:g} pt)")
    w, h = size[0], size[1]
    for b in side.boxes:
        x0, y0, x1, y1 = b["box"]
        # A text or an icon is set inside its box: one whose box crosses the trim may be cut. (Art,
        # bands and backgrounds that reach the trim are carried into the bleed on purpose.)
        if b["type"] in ("text", "icon") and min(x0, y0, w - x1, h - y1) < -EDGE:
            side.flags.append(f"{b['type']} {b['name']} of layout {b['layout']} (line {b['line']}) past the trim")
    return side


def _flags(face: Side | None, back: Side | None) -> list[str]:
    return (face.flags if face else []) + [f"back: {f}" for f in (back.flags if back else [])]


def shop_check(side: Side, shop: str, root: Path) -> dict:
    """A chosen shop's safe zone on a side: its product nearest the card, the zone in the card's
    mm, and what lies within it."""
    from ..shops import ShopError, load_profile, nearest_product, shop_names
    from ..shops.safezone import check_side
    if shop not in shop_names(root):
        raise ShopError(f"no shop {show(shop)}; the shops are: {', '.join(shop_names(root))}")
    profile = load_profile(shop, root)
    w, h, b = side.size
    if profile.files == "tts":
        return {"shop": profile.title, "safe": None, "findings": [], "product": "Tabletop Simulator (no cut)"}
    product, scale = nearest_product(profile, w, h, b, None)
    findings = check_side(side.drawing, "", w, h, product.safe, (scale, product.width, product.height))
    # the product's safe zone as the card's own mm (the card is scaled about its middle to the product)
    inset_x = (w - (product.width - 2 * product.safe) / scale) / 2
    inset_y = (h - (product.height - 2 * product.safe) / scale) / 2
    return {"shop": profile.title, "product": product.title, "scale": scale, "safe": product.safe,
            "zone": [round(inset_x, 3), round(inset_y, 3), round(w - inset_x, 3), round(h - inset_y, 3)],
            "findings": [f"{f.element} {f.distance:.1f} mm from the trim" if f.distance >= 0 else
                         f"{f.element} past the trim" for f in findings]}


def now() -> str:
    return time.strftime("%H:%M:%S")
