"""What the pictures that show a deck (showcase.py, hand.py) share: which faces they show, each
cut at its trim with the card's rounded corners, as an RGBA picture, drawn by the per-card
machinery of the picture products (shops/pictures.py). A module of helpers: it declares no product."""
from __future__ import annotations

DPI = 150                 # a picture to post, not to print
MAX_PIXELS = 16_000_000   # the picture's pixels at most: a deck of large cards is shown at a lower dpi
MAX_FACES = 10            # a large deck shows its first distinct faces, as many as read at a glance
CORNER = 3.0              # mm: a card's corner where its spec names none (a poker card's 1/8 in)


def fitting_dpi(width_mm: float, height_mm: float) -> float:
    """DPI, or less where a picture this size would have more than MAX_PIXELS at DPI."""
    area = (width_mm / 25.4) * (height_mm / 25.4)
    return min(float(DPI), (MAX_PIXELS / area) ** 0.5) if area > 0 else float(DPI)


def add_show_picture(deck, plan, name: str, picture, dpi_of, what: str, entry: dict) -> None:
    """A deck's picture to show it, STEM-NAME.png: `picture(faces, card, corner_mm, dpi)` draws it
    (a PIL image first), at `dpi_of(card, faces)`; `what` says what it shows of how many faces."""
    from ..shops.pictures import encode
    art = deck.art
    faces = shown_faces(art)
    if not faces:
        return
    corner = corner_of(deck)
    dpi = dpi_of(art.size, len(faces))

    def made() -> bytes:
        return encode(picture(faces, art.size, corner, dpi)[0], dpi)
    plan.add_bytes(f"{art.stem}-{name}.png", made,
                   what=f"{art.title}: {len(faces)} {what}, a picture to show the deck ({dpi:.0f} dpi)", **entry)


def shown_faces(art) -> list:
    """The deck's distinct faces the picture shows, in the deck's order (at most MAX_FACES)."""
    return [face for face, _count, _caption in art.faces][:MAX_FACES]


def corner_of(deck) -> float:
    card = getattr(deck.spec, "data", {}).get("card", {}) if deck.spec is not None else {}
    radius = card.get("corner_radius") if isinstance(card, dict) else None
    return CORNER if radius is None else float(radius)


def card_rgba(face, card, corner_mm: float, dpi: float):
    """A face cut at its trim, its corners rounded (transparent beyond them), as a PIL RGBA image."""
    from ..shops.pictures import card_drawing, card_size_at, rgb_image
    size = card_size_at(card, dpi, bleed=False)
    image = rgb_image(card_drawing(face, card, size, 1.0, trim_only=True), dpi).convert("RGBA")
    image.putalpha(rounded_mask(image.size, corner_mm / 25.4 * dpi))
    return image


def rounded_mask(size: tuple[int, int], radius: float):
    """An L mask of a rectangle this size with rounded corners of radius (pixels): one corner drawn
    4 times larger and reduced (a smooth edge), turned into the four; the rest opaque."""
    from PIL import Image, ImageDraw
    w, h = size
    r = max(0, min(round(radius), w // 2, h // 2))
    mask = Image.new("L", size, 255)
    if r == 0:
        return mask
    k = 4
    corner = Image.new("L", (2 * r * k, 2 * r * k), 0)
    ImageDraw.Draw(corner).ellipse((0, 0, 2 * r * k - 1, 2 * r * k - 1), fill=255)
    quarter = corner.crop((0, 0, r * k, r * k)).resize((r, r), Image.LANCZOS)
    mask.paste(quarter, (0, 0))
    mask.paste(quarter.transpose(Image.FLIP_LEFT_RIGHT), (w - r, 0))
    mask.paste(quarter.transpose(Image.FLIP_TOP_BOTTOM), (0, h - r))
    mask.paste(quarter.transpose(Image.ROTATE_180), (w - r, h - r))
    return mask


def shadow_of(image, offset_px: int, blur_px: float, strength: float = 0.35):
    """A soft shadow of an RGBA picture (its shape in black, blurred), the picture's size plus
    room for the blur and the offset, the picture's place in it returned beside it."""
    from PIL import Image, ImageFilter
    pad = int(blur_px * 3) + offset_px
    shadow = Image.new("RGBA", (image.width + 2 * pad, image.height + 2 * pad), (0, 0, 0, 0))
    alpha = image.getchannel("A").point(lambda a: int(a * strength))
    black = Image.new("RGBA", image.size, (0, 0, 0, 255))
    black.putalpha(alpha)
    shadow.alpha_composite(black, (pad + offset_px, pad + offset_px))
    return shadow.filter(ImageFilter.GaussianBlur(blur_px)), pad


def finished(canvas, background=(255, 255, 255)):
    """An RGBA canvas on the background, as the RGB picture written."""
    from PIL import Image
    out = Image.new("RGBA", canvas.size, background + (255,))
    out.alpha_composite(canvas)
    return out.convert("RGB")
