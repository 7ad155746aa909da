"""Fuzz families of issue 32 (pictures, fonts, scripts): each case is a deck of one's own in a folder
of its own, with a picture of a random PNG colour type and bit depth or a JPEG variant (some
damaged), a font with a random OS/2 fsType (some damaged), or text in a random mix of Latin, Greek,
Cyrillic, Hebrew, Arabic, CJK and emoji (a style changing inside a word now and then, any `align`),
validated (and now and then built) with the command line; each checked for what
tests/fuzzing.problems checks, and for its own property:

- pictures: a PNG that is read is read as a viewer shows it (its pixels against those worked out
  from its samples); a JPEG (grey, RGB, CMYK; baseline or progressive, optimised, any chroma
  subsampling, restart markers, an ICC profile, an EXIF orientation) as Pillow shows it turned
  upright; a JPEG with data after its end marker reads as the JPEG before it;
- fonts: a font whose fsType forbids embedding (restricted alone, bitmap-only, no subsetting) is
  refused naming the licence, any other that is whole is accepted;
- scripts: text every letter of which its font has is set (exit 0, or refused only as too long for
  its box); text with a letter its font lacks is refused naming that letter, never set with a box.

Used by benchmarks/fuzz.py (--family pictures, fonts, scripts) and a seeded sample in
tests/test_fuzz.py."""
from __future__ import annotations

import io
import random
import shutil
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "tests" / "fonts"

PNG_KINDS = [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8), (4, 8),
             (4, 16), (6, 8), (6, 16)]
SAMPLES = {
    "latin": "The quick brown fox jumps over the lazy dog, naïve café — “quoted”",
    "greek": "Ελληνικά γράμματα και λέξεις για δοκιμή",
    "cyrillic": "Съешь же ещё этих мягких французских булок",
    "hebrew": "שלום עולם זה טקסט בעברית (עם סוגריים) 123",
    "arabic": "مرحبا بالعالم هذا نص عربي طويل ١٢٣",
    "cjk": "日本語の漢字文字列一二三四五六七八九十百千万円年月日時分人大小中上下",
    "emoji": "😀 🎲 ♠♥♦♣ 👍🏽",
}
# What each font has: the shipped sans (Bitstream Vera: Latin), the test subsets.
FONT_FOR = {"sans": None, "hebar": "dejavu-hebrew-arabic.ttf", "cjk": "droid-cjk-subset.ttf"}


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))


def random_png(rng: random.Random) -> tuple[bytes, str, list | None]:
    """A PNG of a random colour type and depth (a transparent colour or palette alpha now and then),
    random samples; and the RGBA a viewer shows of it (rows of [r, g, b, a])."""
    colour_type, depth = rng.choice(PNG_KINDS)
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour_type]
    w, h = rng.randint(2, 24), rng.randint(2, 24)     # (an icon is at most 20 times as wide as high)
    top = (1 << depth) - 1
    samples = [[[rng.randint(0, top) for _ in range(channels)] for _ in range(w)] for _ in range(h)]
    palette = bytes(rng.randrange(256) for _ in range(3 * (1 << depth))) if colour_type == 3 else None
    key = alphas = None
    if colour_type in (0, 2) and rng.random() < 0.4:
        key = tuple(samples[rng.randrange(h)][rng.randrange(w)])
    if colour_type == 3 and rng.random() < 0.4:
        alphas = bytes(rng.randrange(256) for _ in range(rng.randint(1, 1 << depth)))
    rows = []
    for row in samples:
        flat = [v for px in row for v in px]
        if depth < 8:
            bits = "".join(format(v, f"0{depth}b") for v in flat)
            bits += "0" * (-len(bits) % 8)
            data = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
        elif depth == 8:
            data = bytes(flat)
        else:
            data = b"".join(struct.pack(">H", v) for v in flat)
        rows.append(b"\x00" + data)
    out = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour_type, 0, 0, 0))
    if palette:
        out += _chunk(b"PLTE", palette)
    if key is not None:
        out += _chunk(b"tRNS", b"".join(struct.pack(">H", v) for v in key))
    if alphas is not None:
        out += _chunk(b"tRNS", alphas)
    out += _chunk(b"IDAT", zlib.compress(b"".join(rows))) + _chunk(b"IEND", b"")

    def scale(v):
        return round(v * 255 / top)
    shown = []
    for row in samples:
        line = []
        for px in row:
            if colour_type == 3:
                i = px[0]
                rgb = list(palette[3 * i:3 * i + 3])
                a = alphas[i] if alphas is not None and i < len(alphas) else 255
            elif colour_type in (0, 4):
                rgb = [scale(px[0])] * 3
                a = scale(px[1]) if colour_type == 4 else 255
            else:
                rgb = [scale(v) for v in px[:3]]
                a = scale(px[3]) if colour_type == 6 else 255
            if key is not None and tuple(px[:len(key)]) == key:
                a = 0
            line.append(rgb + [a])
        shown.append(line)
    return out, f"PNG colour type {colour_type} at {depth} bits{' with tRNS' if key or alphas else ''} {w}x{h}", shown


def random_jpeg(rng: random.Random) -> tuple[bytes, str, bytes | None]:
    """A JPEG variant (grey, RGB, CMYK, progressive, an EXIF orientation, a motion photo's trailing
    video); and the JPEG it reads as where data follows its end marker."""
    from PIL import Image
    mode = rng.choice(["L", "RGB", "CMYK"])
    img = Image.new(mode, (rng.randint(2, 40), rng.randint(2, 40)),
                    tuple(rng.randrange(256) for _ in range(len(mode))) if mode != "L" else rng.randrange(256))
    options = {"quality": rng.randint(5, 95)}
    what = f"JPEG {mode} q{options['quality']}"
    if rng.random() < 0.3:
        options["progressive"] = True
        what += " progressive"
    if rng.random() < 0.3:
        options["optimize"] = True
        what += " optimised"
    if mode == "RGB" and rng.random() < 0.5:
        options["subsampling"] = rng.choice([0, 1, 2])      # 4:4:4, 4:2:2, 4:2:0
        what += f" subsampling {('4:4:4', '4:2:2', '4:2:0')[options['subsampling']]}"
    if rng.random() < 0.2:
        options["restart_marker_rows"] = rng.randint(1, 4)
        what += f" restart every {options['restart_marker_rows']} rows"
    if mode == "RGB" and rng.random() < 0.2:
        from PIL import ImageCms
        options["icc_profile"] = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
        what += " sRGB profile"
    if rng.random() < 0.3 and mode != "CMYK":
        exif = Image.Exif()
        exif[0x0112] = rng.randint(1, 8)
        options["exif"] = exif.tobytes()
        what += f" orientation {exif[0x0112]}"
    buf = io.BytesIO()
    img.save(buf, "JPEG", **options)
    data = buf.getvalue()
    if rng.random() < 0.4:
        return data + b"\x00\x00\x00\x18ftypmp42" + bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))) \
            + b"\xff\xd9", what + " with a motion photo's video after it", data
    return data, what, None


def damaged(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    how = rng.choice(["truncated", "a byte flipped", "bytes inserted"])
    if how == "truncated":
        return data[:rng.randrange(len(data))], how
    i = rng.randrange(len(data))
    if how == "a byte flipped":
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:], how
    return data[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + data[i:], how


FS_TYPES = [0x0000, 0x0002, 0x0004, 0x0008, 0x0006, 0x000A, 0x000C, 0x000E, 0x0003, 0x0100, 0x0200, 0x0102,
            0x0104, 0x0308, 0x0001]


def fs_refused(fs: int) -> bool:
    """Whether our rule (fonts._check_embedding, after the OpenType specification) refuses fsType."""
    return (fs & 0x000E) == 0x0002 or bool(fs & 0x0300)


def random_font(rng: random.Random) -> tuple[bytes, str, int, str]:
    from fontTools.ttLib import TTFont
    source = rng.choice([ROOT / "tests" / "decks" / "fonts" / "title.ttf", FONTS / "dejavu-hebrew-arabic.ttf",
                         FONTS / "droid-cjk-subset.ttf"])
    tt = TTFont(source)
    fs = rng.choice(FS_TYPES)
    tt["OS/2"].fsType = fs
    buf = io.BytesIO()
    tt.save(buf)
    return buf.getvalue(), f"{source.name} with fsType 0x{fs:04X}", fs, "日本語" if "cjk" in source.name else "Font test"


def random_text(rng: random.Random) -> tuple[str, list[str]]:
    """Text of a few scripts' words, with bold or italic now and then; the scripts used."""
    scripts = rng.sample(list(SAMPLES), rng.randint(1, 3))
    words = []
    for _ in range(rng.randint(1, 12)):
        word = rng.choice(SAMPLES[rng.choice(scripts)].split())
        if rng.random() < 0.1:
            word = f"**{word}**"
        elif rng.random() < 0.1 and len(word) > 1:           # a style that changes inside the word
            a = rng.randrange(len(word))
            b = rng.randrange(a + 1, len(word) + 1)
            mark = rng.choice(["**", "*"])
            word = f"{word[:a]}{mark}{word[a:b]}{mark}{word[b:]}"
        words.append(word)
    joiner = "" if rng.random() < 0.2 else " "
    return joiner.join(words), scripts


SPEC = """kind: deck
title: {title}
card: {{width: 63, height: 88, bleed: 3}}
tuck_box: {box}
fonts:
  hebar: {{regular: dejavu-hebrew-arabic.ttf}}
  cjk: {{regular: droid-cjk-subset.ttf}}
{extra}cards:
  - {{name: "one", text: {text}}}
layouts:
  face:
    background: "#f4efe4"
    elements:
{elements}
  back: {{background: "#223344"}}
"""


def _quoted(text: str) -> str:
    import json
    return json.dumps(text, ensure_ascii=False)


def write_deck(folder: Path, text="plain", font="sans", extra="", elements="", title="Fuzz", box="false",
               align=None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for f in FONT_FOR.values():
        if f:
            shutil.copy(FONTS / f, folder / f)
    elements = elements or (f'      - {{type: text, x: 3, y: 3, w: 57, h: 80, text: "{{text}}", font: {font}, '
                            f'size: 9{f", align: {align}" if align else ""}}}')
    spec = folder / "fuzz.yaml"
    spec.write_text(SPEC.format(title=title, box=box, extra=extra, text=_quoted(text), elements=elements),
                    encoding="utf-8")
    return spec


def font_has(font: str, text: str) -> bool:
    from generator.draw.fonts import font_from_bytes, get_font
    f = get_font("sans") if FONT_FOR[font] is None else font_from_bytes((FONTS / FONT_FOR[font]).read_bytes())
    return f.missing(text.replace("*", "").replace("\\", "")) is None


def case(family: str, folder: Path, rng: random.Random, run_cli) -> tuple[str, list[tuple], list[str]]:
    """One case of a family in `folder`: (what, [(code, out, err, seconds)...], its own problems)."""
    shutil.rmtree(folder, ignore_errors=True)
    own: list[str] = []
    if family == "pictures":
        kind = rng.choice(["png", "png", "jpeg"])
        if kind == "png":
            data, what, shown = random_png(rng)
            plain = None
        else:
            data, what, plain = random_jpeg(rng)
            shown = None
        broken = rng.random() < 0.25
        if broken:
            data, how = damaged(data, rng)
            what += f", {how}"
        name = "pic.png" if kind == "png" else "pic.jpg"
        spec = write_deck(folder, extra=f"icons: {{p: {name}}}\n", elements=(
            f'      - {{type: image, x: 0, y: 0, w: 63, h: 60, file: {name}, fit: {rng.choice(["contain", "cover", "stretch"])}}}\n'
            '      - {type: text, x: 3, y: 62, w: 57, h: 20, text: "{text} :p:"}'))
        (folder / name).write_bytes(data)
        runs = [run_cli(["validate", str(spec)], folder)]
        if not broken:
            from generator.draw.images import PictureError, picture_from_bytes, pixels
            try:
                picture = picture_from_bytes(data, name)
            except PictureError as exc:
                own.append(f"a sound picture refused: {exc}")
            else:
                got = pixels(picture, (10, 10))
                if shown is not None:
                    import numpy as np
                    diff = np.abs(np.asarray(got).astype(int) - np.array(shown)).max()
                    if diff > 1:
                        own.append(f"read unlike a viewer shows it (off by {diff})")
                if plain is not None and picture.data != plain:
                    own.append("the data after its end marker was taken as the picture's")
                if shown is None:                    # a JPEG: as Pillow shows it, turned upright
                    from PIL import Image, ImageOps
                    import numpy as np
                    viewer = ImageOps.exif_transpose(Image.open(io.BytesIO(plain or data))).convert("RGBA")
                    if got.size != viewer.size or np.abs(np.asarray(got).astype(int) - np.asarray(viewer)).max() > 1:
                        own.append(f"read unlike a viewer shows it ({got.size} against {viewer.size})")
            if runs[0][0] != 0:
                own.append(f"a sound picture's deck refused: {runs[0][2].strip()[:200]}")
        if runs[0][0] == 0 and rng.random() < 0.15:
            runs.append(run_cli(["build", str(spec), "--out", str(folder / "out")], folder))
        return what, runs, own
    if family == "fonts":
        data, what, fs, sample = random_font(rng)
        broken = rng.random() < 0.2
        if broken:
            data, how = damaged(data, rng)
            what += f", {how}"
        spec = write_deck(folder, text=sample, font="mine")
        spec.write_text(spec.read_text(encoding="utf-8").replace("fonts:\n", "fonts:\n  mine: {regular: mine.ttf}\n"),
                        encoding="utf-8")
        (folder / "mine.ttf").write_bytes(data)
        runs = [run_cli(["validate", str(spec)], folder)]
        code, _, err, _ = runs[0]
        if not broken:
            if fs_refused(fs) and not (code == 1 and "licence" in err and "fsType" in err):
                own.append(f"a font whose licence forbids embedding was not refused for it: exit {code} {err[:200]}")
            if not fs_refused(fs) and code != 0:
                own.append(f"a font that may be embedded was refused: {err.strip()[:200]}")
        if code == 0 and rng.random() < 0.15:
            runs.append(run_cli(["build", str(spec), "--out", str(folder / "out")], folder))
        return what, runs, own
    # scripts
    text, scripts = random_text(rng)
    font = rng.choice(list(FONT_FOR))
    where = rng.choice(["face", "title", "name"])
    what = f"{'+'.join(scripts)} in {font} on the {where}: {text[:40]!r}"
    if where == "face":
        align = rng.choice([None, "start", "end", "left", "right", "centre"])
        what += f", align {align or 'unset'}"
        spec = write_deck(folder, text=text, font=font, align=align)
    elif where == "title":
        text = text[:100].strip() or "x"
        spec = write_deck(folder, title=_quoted(text), box=rng.choice(["false", "{}"]), text="x")
        font = "title"
    else:
        spec = write_deck(folder, text="x")
        spec.write_text(spec.read_text(encoding="utf-8").replace('name: "one"', f"name: {_quoted(text)}"),
                        encoding="utf-8")
        font = "name"
    runs = [run_cli(["validate", str(spec)], folder)]
    code, _, err, _ = runs[0]
    if where == "face":
        if font_has(font, text):
            if code != 0 and "does not fit" not in err and "never closed" not in err:   # (its size, or its **)
                own.append(f"text its font has was refused: {err.strip()[:200]}")
        elif code != 1 or ("no letter for" not in err and "never closed" not in err):   # (or its ** unclosed)
            own.append(f"a letter the font lacks was not refused naming it: exit {code} {err.strip()[:200]}")
    else:
        covered = any(font_has(f, text) for f in FONT_FOR) or all(
            any(font_has(f, ch) for f in FONT_FOR) for ch in text if not ch.isspace())
        if covered and code != 0 and "would print at" not in err:
            own.append(f"a {where} the deck's fonts have was refused: {err.strip()[:200]}")
        if not covered and (code != 1 or "no letter for" not in err):
            own.append(f"a {where} with a letter no font has was not refused naming it: exit {code} {err[:200]}")
    if code == 0 and rng.random() < 0.1:
        runs.append(run_cli(["build", str(spec), "--out", str(folder / "out")], folder))
    return what, runs, own


FAMILIES = ("pictures", "fonts", "scripts")
