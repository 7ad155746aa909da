"""A deck's files for a print shop (`pnp build --shop NAME`) and its cards as pictures (`--layout
png`), added to a build's plan beside the deck's other products: what the products
generator/products/shop_files.py and card_pictures.py make of a Deck.

Per profile kind (shops/__init__.py):
- pdf (DriveThruCards): one PDF a deck, a page a card side at the product's page size (trim and
  bleed), TrimBox and BleedBox, pages in the shop's order, PDF/X and the shop's ink limit;
- pictures (The Game Crafter, MakePlayingCards): a picture a distinct face and back at the
  product's exact pixels and dpi, and one zip of them all with the upload list;
- tts (Tabletop Simulator): deck sheets of at most the profile's grid, the hidden card's slot
  holding the back, a back picture, and a saved object (JSON) that loads them as a custom deck.
Every file's print-list entry says where it goes (`upload`): the product and the slot, each front
with its back. The shop's safe zone is checked on every distinct side first (a warning in the
print list and on the terminal; with --strict, the deck's error).
"""
from __future__ import annotations

import json
import zipfile
from collections import Counter
from pathlib import Path

from ..draw import Drawing, Rect, Style
from ..errors import LayoutError
from ..units import MM_PER_INCH
from . import Profile, ShopError, load_profile, nearest_product
from .pictures import PictureSize, card_drawing, card_picture, card_size_at, grid_sheet, placement
from .safezone import card_name, check_deck

SHOP_ORDER = 75          # in the print list, after the plain shop PDF
WARN_SHOWN = 6           # safe-zone findings named in a warning (and how many more)


def shop_folder(name: str) -> str:
    return f"shop-{name}"


def make_shop_files(deck, plan, opts) -> None:
    """--shop NAME: the files that shop takes of this deck (products.contents.Deck), and for a PDF
    shop its tuck box (where the deck has one)."""
    from ..paths import project_root
    profile = load_profile(opts.extra["shop"], project_root())
    sub = plan.sub(shop_folder(profile.name))
    with deck.laid_out():     # (--strict: a deck no product is near, or the safe zone entered, is the deck's error)
        made = add_shop(deck.art, sub, opts, profile)
    if made and deck.box is not None and profile.files == "pdf":
        add_shop_box(deck, sub, opts, profile)


def make_card_pictures(deck, plan, opts) -> None:
    """--layout png: every distinct face and back as a picture at --dpi."""
    add_card_pictures(deck.art, plan, opts.extra.get("dpi") or DPI)


DPI = 300     # --layout png's pictures, unless --dpi says


# ---------------------------------------------------------------- --layout png

def add_card_pictures(art, plan, dpi: int) -> None:
    """Every distinct face and back as a PNG at dpi, trim and bleed, in `png-DPI/`."""
    sub = plan.sub(f"png-{dpi}")
    size = card_size_at(art.size, dpi)
    info = dict(what=f"{art.title}: a card side a picture, {size.width_px} x {size.height_px} px at {dpi} dpi "
                     f"(trim and {art.size.bleed:g} mm bleed), RGB", preview=True, order=92)
    for i, (face, _count, _caption) in enumerate(art.faces, 1):
        sub.add_bytes(f"{art.stem}-{i:03d}-front.png", _picture(face, art, size, 1.0, "png"), **info)
    for j, (back, _caption) in enumerate(art.distinct_backs(), 1):
        sub.add_bytes(f"{art.stem}-back{'' if j == 1 else f'-{j}'}.png", _picture(back, art, size, 1.0, "png"), **info)


def _picture(side, art, size: PictureSize, scale: float, fmt: str, cache: dict | None = None):
    def make() -> bytes:
        key = (id(side), size, scale, fmt)
        if cache is not None and key in cache:
            return cache[key]
        data = card_picture(side, art.size, size, scale, fmt)
        if cache is not None:
            cache[key] = data
        return data
    return make


# ---------------------------------------------------------------- a shop's files

def add_shop(art, plan, opts, profile: Profile) -> None:
    """The shop's files of one deck (build.DeckArt) into plan (the shop's folder): True if made,
    False where no product of the shop is near the deck's card (a line in the print list)."""
    if profile.files == "tts":
        add_tts(art, plan, profile, Path(opts.out).resolve())
        return True
    strict = bool(opts.extra.get("strict"))
    try:
        product, scale = nearest_product(profile, art.size.width, art.size.height, art.size.bleed, art.product)
    except ShopError as exc:
        # Another deck of the game may well fit: this one gets a line in the print list, not a build
        # that stops. (--strict makes it the deck's error.)
        if strict:
            raise LayoutError(str(exc)) from None
        plan.add(f"{art.stem}-NOT-MADE.txt", lambda p, m=str(exc): Path(p).write_text(m + "\n", encoding="utf-8"),
                 what=f"{art.title}: not made for {profile.title}: {exc}", shop=True, order=SHOP_ORDER,
                 warning=f"{art.title}: {exc}")
        return False
    findings = check_deck(art, product.safe, (scale, product.width, product.height))
    warning = None
    if findings:
        listed = "; ".join(f.line() for f in findings[:WARN_SHOWN])
        more = f" and {len(findings) - WARN_SHOWN} more" if len(findings) > WARN_SHOWN else ""
        message = (f"{len(findings)} text(s) or icon(s) within {_possessive(profile.title)} safe zone "
                   f"({product.safe:.2f} mm inside the trim): {listed}{more}")
        if strict:
            raise LayoutError(message)
        warning = f"{art.title}: {message}"
    if profile.files == "pdf":
        add_shop_pdf(art, plan, profile, product, scale, warning)
    else:
        add_shop_pictures(art, plan, profile, product, scale, warning)
    return True


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _fitted(art, product, scale: float) -> str:
    if abs(scale - 1) < 1e-6:
        return ""
    return (f"; the {art.size.width:g} x {art.size.height:g} mm card printed at {scale:.1%} of its size to fit "
            f"the {product.width:.1f} x {product.height:.1f} mm product")


def shop_page(side: Drawing, art, product, scale: float):
    """One card side on the product's page: (page, trim box, bleed box), as layout.cards.shop_pages."""
    pw, ph = product.page
    page = Drawing(pw, ph)
    b = art.size.bleed
    page.place(side, placement(art.size, pw, ph, scale),
               clip=Rect(-b, -b, art.size.width + 2 * b, art.size.height + 2 * b, Style()))
    return page, (product.bleed, product.bleed, product.width, product.height), (0.0, 0.0, pw, ph)


def add_shop_pdf(art, plan, profile: Profile, product, scale: float, warning: str | None) -> None:
    from ..draw.pdf_writer import pdf_writer
    spec = profile.pdf
    faces, backs = art.expanded(), art.expanded_backs()
    backs = backs if isinstance(backs, list) else [backs] * len(faces)
    pages_of: dict[int, tuple] = {}

    def page(side):
        if id(side) not in pages_of:
            pages_of[id(side)] = shop_page(side, art, product, scale)
        return pages_of[id(side)]
    if spec["pages"] == "back-front":
        pages = [page(s) for f, k in zip(faces, backs) for s in (k, f)]
    elif spec["pages"] == "front-back":
        pages = [page(s) for f, k in zip(faces, backs) for s in (f, k)]
    else:
        pages = [page(f) for f in faces] + [page(k) for k in backs]
    order = {"back-front": "each card's back, then its front", "front-back": "each card's front, then its back",
             "fronts-backs": "every front, then every back"}[spec["pages"]]
    name = f"{art.stem}-{product.key}.pdf"
    title = f"{art.title}: {len(faces)} cards for {profile.title}"
    info = dict(what=f"{art.title} for {_possessive(profile.title)} {product.describe()}: {len(faces)} cards, {order}; "
                     f"{product.page[0]:.2f} x {product.page[1]:.2f} mm pages ({product.bleed:.3g} mm bleed), "
                     f"TrimBox, {spec['standard']}, CMYK, total ink at most {spec['total_ink']} %"
                     + _fitted(art, product, scale),
                stock=f"{profile.title}, {product.title}", shop=True, order=SHOP_ORDER,
                upload=[f"{profile.title}: a new {product.title} product of {len(faces)} cards; upload {name} "
                        f"as its one PDF ({len(pages)} pages: {order})"])
    if warning:
        info["warning"] = warning
    plan.add(name, pdf_writer(title, pages, True, spec["standard"], spec["total_ink"] / 100), pages=len(pages), **info)


def add_shop_pictures(art, plan, profile: Profile, product, scale: float, warning: str | None) -> None:
    spec = profile.pictures
    fmt, ext = spec["format"], "png" if spec["format"] == "png" else "jpg"
    size = PictureSize(product.pixels[0], product.pixels[1], product.dpi)
    cache: dict = {}
    backs = art.backs or [(art.back, "back")] * len(art.faces)
    # One back for all: DECK-all-back; else each back named by the first card that has it
    # (DECK-004-back is the back of card 4, and of any later card with the same back).
    one_back = len({id(b) for b, _ in backs}) == 1
    back_names: dict[int, str] = {}
    files: list[tuple[str, object]] = []
    upload = [f"{profile.title}: a {product.title} product of {sum(c for _, c, _ in art.faces)} cards; "
              f"each front with its back and count:"]
    for i, ((face, count, caption), (back, _)) in enumerate(zip(art.faces, backs), 1):
        front_name = spec["name"].format(deck=art.stem, number=f"{i:03d}", side="front") + f".{ext}"
        files.append((front_name, face))
        if id(back) not in back_names:
            back_names[id(back)] = spec["name"].format(deck=art.stem, number="all" if one_back else f"{i:03d}",
                                                       side="back") + f".{ext}"
            files.append((back_names[id(back)], back))
        upload.append(f"slot {i}: {front_name} with {back_names[id(back)]}, "
                      f"{count} cop{'y' if count == 1 else 'ies'} ({card_name(caption)})")
    names = [name for name, _ in files]
    for name, side in files:
        plan.add_bytes(name, _picture(side, art, size, scale, fmt, cache),
                       what=f"{art.title} for {_possessive(profile.title)} {product.title}: "
                            f"{size.width_px} x {size.height_px} px at {product.dpi:g} dpi, RGB"
                            + _fitted(art, product, scale),
                       preview=True, order=SHOP_ORDER + 1)
    sides = dict(files)
    listing = "\n".join(upload) + "\n"
    zip_name = f"{art.stem}-{profile.name}.zip"

    def write_zip(path: Path) -> None:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
            for name in names:
                data = _picture(sides[name], art, size, scale, fmt, cache)()
                z.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
            z.writestr(zipfile.ZipInfo("upload-list.txt", (1980, 1, 1, 0, 0, 0)), listing)
    info = dict(what=f"{art.title} for {profile.title}: {len(names)} pictures ({size.width_px} x {size.height_px} px "
                     f"at {product.dpi:g} dpi, {fmt.upper()}, RGB) and the upload list, in one zip"
                     + _fitted(art, product, scale),
                stock=f"{profile.title}, {product.title}", shop=True, order=SHOP_ORDER, upload=upload)
    if warning:
        info["warning"] = warning
    plan.add(zip_name, write_zip, **info)


def add_shop_box(deck, plan, opts, profile: Profile) -> None:
    """A deck's tuck box for a PDF shop: its net, in one piece, on a page of its own with no page
    bleed (the profile's tuck_box_bleed: the shop's template is the page), its art running the
    net's own 2 mm past the cut line, TrimBox the page; PDF/X and the ink limit as the cards'. The
    box is the one the tuck-box product makes for the deck (its settings, colour and ink)."""
    from ..draw.pdf_writer import pdf_writer
    from ..layout.tuckbox import BLEED, box_nets, box_settings, deck_art_on_box, deck_box, draw_net
    box_art = deck_art_on_box(deck.art, deck.box)
    box = deck_box(box_art.size, box_art.cards, box_settings(deck.spec))
    spec = profile.pdf
    net = box_nets(box, 1)[0]
    x0, y0, _, _ = net.outline.bounds
    w, h = net.size
    pb = spec["tuck_box_bleed"]
    page = Drawing(w + 2 * (BLEED + pb), h + 2 * (BLEED + pb))
    draw_net(page, net, box_art, BLEED + pb - x0, BLEED + pb - y0)
    trim = (pb, pb, w + 2 * BLEED, h + 2 * BLEED)
    iw, ih, idp = box.inner
    name = f"{box_art.stem}-tuckbox.pdf"
    plan.add(name, pdf_writer(f"{box_art.title}: tuck box for {profile.title}", [(page, trim, (0.0, 0.0, page.width,
                                                                                                 page.height))],
                             True, spec["standard"], spec["total_ink"] / 100), pages=1,
            what=f"{box_art.title}: the tuck box for {profile.title}, {page.width:.1f} x {page.height:.1f} mm, "
                 f"no page bleed ({spec['standard']}, CMYK, total ink at most {spec['total_ink']} %); inside "
                 f"{iw:g} x {ih:g} x {idp:.1f} mm",
            stock=f"{profile.title}, a tuck box", shop=True, order=SHOP_ORDER,
            upload=[f"{profile.title}: a tuck box for {box_art.cards} cards; upload {name}, after checking it against "
                    f"the shop's own tuck-box template for that count (ours is this box's net, cut and fold lines "
                    f"drawn; the shop's die may differ)"])


# ---------------------------------------------------------------- Tabletop Simulator

TTS_DPI = 300            # a card's picture on a sheet at most this sharp (a small deck's sheet stays small)
TTS_CARD_ASPECT = 1.4    # Tabletop Simulator's custom card: 2.5 x 3.5 units; other shapes are scaled to it


def tts_layout(faces: int, columns: int, rows: int) -> list[tuple[int, int, int]]:
    """The sheets for this many distinct faces: (faces on it, columns, rows), the last slot of each
    grid kept for the hidden card."""
    per = columns * rows - 1
    sheets = []
    left = faces
    while left > 0:
        n = min(per, left)
        cols = min(columns, n + 1)
        sheets.append((n, cols, -(-(n + 1) // cols)))
        left -= n
    return sheets


def tts_cell(art, cols: int, rows: int, max_px: int) -> PictureSize:
    """A card's cell on a sheet: its trim at the highest dpi up to TTS_DPI at which the sheet stays
    within max_px both ways."""
    w_in, h_in = art.size.width / MM_PER_INCH, art.size.height / MM_PER_INCH
    dpi = min(TTS_DPI, max_px / cols / w_in, max_px / rows / h_in)
    cell = PictureSize(int(w_in * dpi), int(h_in * dpi), dpi)
    return cell


def add_tts(art, plan, profile: Profile, out: Path) -> None:
    """out: the build's output folder, where the saved object says its pictures are."""
    spec = profile.tts
    fmt, ext = spec["format"], "png" if spec["format"] == "png" else "jpg"
    faces = [f for f, _, _ in art.faces]
    sheets = tts_layout(len(faces), spec["columns"], spec["rows"])
    unique = art.backs is not None and len({id(b) for b, _ in art.backs}) > 1
    backs = [b for b, _ in art.backs] if art.backs else [art.back] * len(faces)
    folder = Path(plan.folder)
    custom, deck_ids, contained = {}, [], []
    start = 0
    for s, (n, cols, rows) in enumerate(sheets, 1):
        cell = tts_cell(art, cols, rows, spec["max_pixels"])
        slots: list = faces[start:start + n] + [None] * (cols * rows - 1 - n) + [art.back]
        name = f"{art.stem}-sheet{s}.{ext}"
        plan.add_bytes(name, lambda sl=slots, c=cols, r=rows, ce=cell: grid_sheet(sl, art.size, c, r, ce, fmt),
                       what=f"{art.title}: Tabletop Simulator deck sheet {s} of {len(sheets)}: {n} faces in a "
                            f"{cols} x {rows} grid of {cell.width_px} x {cell.height_px} px cards "
                            f"({cols * cell.width_px} x {rows * cell.height_px} px), the last slot the hidden card",
                       shop=True, order=SHOP_ORDER,
                       upload=[f"Tabletop Simulator: Custom Deck {s}: face sheet {name}, width {cols}, height {rows}, "
                               f"number {n + 1} (the last, the hidden card)"])
        if unique:
            back_slots = backs[start:start + n] + [None] * (cols * rows - 1 - n) + [art.back]
            back_name = f"{art.stem}-backs{s}.{ext}"
            plan.add_bytes(back_name, lambda sl=back_slots, c=cols, r=rows, ce=cell:
                           grid_sheet(sl, art.size, c, r, ce, fmt),
                           what=f"{art.title}: Tabletop Simulator back sheet {s} (each card's own back)",
                           shop=True, order=SHOP_ORDER)
        else:
            back_name = f"{art.stem}-back.{ext}"
        deck_no = s
        custom[str(deck_no)] = {"FaceURL": _file_url(out / folder / name),
                                "BackURL": _file_url(out / folder / back_name),
                                "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True, "UniqueBack": unique,
                                "Type": 0}
        for k in range(n):
            face, count, caption = art.faces[start + k]
            for _ in range(count):
                deck_ids.append(deck_no * 100 + k)
                contained.append(_tts_card(deck_no * 100 + k, card_name(caption), {str(deck_no): custom[str(deck_no)]},
                                           art))
        start += n
    if not unique:
        cell = tts_cell(art, 1, 1, spec["max_pixels"])
        plan.add_bytes(f"{art.stem}-back.{ext}", lambda ce=cell: grid_sheet([art.back], art.size, 1, 1, ce, fmt),
                       what=f"{art.title}: Tabletop Simulator back ({cell.width_px} x {cell.height_px} px)",
                       shop=True, order=SHOP_ORDER,
                       upload=[f"Tabletop Simulator: every Custom Deck's back: {art.stem}-back.{ext}"])
    saved = {"SaveName": art.title, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5, "Table": "",
             "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
             "ObjectStates": [{
                 "Name": "DeckCustom", "Transform": _transform(art), "Nickname": art.title, "Description": "",
                 "GMNotes": "", "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713}, "Locked": False, "Grid": True,
                 "Snap": True, "IgnoreFoW": False, "Autoraise": True, "Sticky": True, "Tooltip": True,
                 "GridProjection": False, "HideWhenFaceDown": True, "Hands": False, "SidewaysCard": False,
                 "DeckIDs": deck_ids, "CustomDeck": custom, "LuaScript": "", "LuaScriptState": "",
                 "ContainedObjects": contained, "GUID": _guid(art.stem)}],
             "TabStates": {}, "VersionNumber": ""}
    text = json.dumps(saved, indent=2, ensure_ascii=False) + "\n"
    json_name = f"{art.stem}.json"
    plan.add(json_name, lambda p: Path(p).write_text(text, encoding="utf-8"),
             what=f"{art.title}: a Tabletop Simulator saved object, a custom deck of {len(deck_ids)} cards from "
                  f"{len(sheets)} sheet(s), the pictures named by their place on this computer",
             shop=True, order=SHOP_ORDER,
             upload=[f"Tabletop Simulator: copy {json_name} and its pictures into Documents/My Games/Tabletop "
                     f"Simulator/Saves/Saved Objects (or upload the pictures and put their addresses in its "
                     f"FaceURL and BackURL); in a game, Objects > Saved Objects > {art.title}"])


def _file_url(path: Path) -> str:
    from urllib.parse import quote
    return "file:///" + quote(str(path.resolve() if not path.is_absolute() else path).lstrip("/"))


def _transform(art) -> dict:
    """Face down at the table's middle; the card's own proportions kept (TTS_CARD_ASPECT is its card)."""
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": round(art.size.height / art.size.width / TTS_CARD_ASPECT, 4)}


def _guid(text: str) -> str:
    import hashlib
    return hashlib.sha256(text.encode()).hexdigest()[:6]


def _tts_card(card_id: int, caption: str, custom: dict, art) -> dict:
    return {"Name": "Card", "Transform": _transform(art), "Nickname": caption, "Description": "",
            "CardID": card_id, "CustomDeck": custom, "SidewaysCard": False, "Hands": True}
