"""Card faces drawn with Pillow: one 128×128 PNG per distinct card, and a card back.

Pure and deterministic: the same card gives the same bytes (for a given Pillow), so a
face uploaded once as an application emoji can be looked up by name ever after. The
drawing is the project's own: shapes for the suits (no font needs ♥♦♣♠ glyphs) and
Pillow's built-in scalable font for the ranks.

A face is sized for a Discord emoji (128×128, far below the 256 KiB limit) and meant to
be read at 22 px inline: a big rank over a big suit, red or black; a joker has a gold
ground, a jester's cap and its number, as the text writes it (``🃏1``), and as many
stars as its number (B1 black, B2 red, as the double pack's black and red jokers, B3
purple). The double pack's second copy of a card shows its first copy's face
(:func:`face_card`).
"""

from __future__ import annotations

import io
import math
from functools import cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

from engine.cards import CARDS, SECOND, TWIN, Card, Rank, Suit

__all__ = [
    "BACK_NAME",
    "EMOJI_NAMES",
    "FACE_CARDS",
    "SIZE",
    "back_png",
    "emoji_name",
    "face_card",
    "face_png",
    "face_pngs",
]

SIZE = 128
"""Width and height of every face, in pixels (Discord shows emojis up to 128 px)."""
PREFIX = "tq_"
"""Start of every face's emoji name. Emojis are found by name after a restart, so a
redrawn set of faces needs a new prefix (``tq2_``) to be uploaded again."""
BACK_NAME = PREFIX + "back"
"""The emoji name of the card back."""

FACE_CARDS: tuple[Card, ...] = CARDS[:SECOND]
"""The cards with a face of their own: the 36 suited cards and the three Bens."""

# Drawn four times larger, then reduced: smooth edges without antialiasing primitives.
_SCALE = 4
_S = SIZE * _SCALE
_RED = (200, 16, 32, 255)
_BLACK = (20, 20, 20, 255)
_PURPLE = (104, 36, 160, 255)
_WHITE = (255, 255, 255, 255)
_EDGE = (120, 120, 120, 255)
_GOLD = (255, 236, 160, 255)
_BACK_BLUE = (30, 72, 156, 255)
_BACK_LINE = (96, 140, 220, 255)
_BEN_INK = {1: _BLACK, 2: _RED, 3: _PURPLE}
Box = tuple[float, float, float, float]
"""``(left, top, right, bottom)`` in drawing pixels."""
Ink = tuple[int, int, int, int]
"""An RGBA colour."""


def _rank_text(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.value


def face_card(card: Card) -> Card:
    """The card whose face ``card`` shows: itself, or a second copy's first copy."""
    return CARDS[TWIN[card.index]] if card.copy else card


def emoji_name(card: Card) -> str:
    """The emoji name of ``card``'s face: ``tq_10h``, ``tq_as``, ``tq_joker2``.

    Discord's rule holds: 2–32 characters of ``[A-Za-z0-9_]``. Both copies of a
    double-pack card share one name.
    """
    card = face_card(card)
    if card.is_ben:
        return f"{PREFIX}joker{card.ben}"  # redrawn as 🃏1 (was tq_ben1, drawn B1)
    assert card.rank is not None and card.suit is not None
    return f"{PREFIX}{_rank_text(card.rank).lower()}{card.suit.value.lower()}"


EMOJI_NAMES: tuple[str, ...] = (*(emoji_name(card) for card in FACE_CARDS), BACK_NAME)
"""The names of every emoji the faces need (:func:`face_pngs`'s keys), without drawing them."""


@cache
def face_png(card: Card) -> bytes:
    """``card``'s face: a 128×128 RGBA PNG (a few KiB); a second copy gets its first copy's."""
    card = face_card(card)
    image, draw = _blank_card(_GOLD if card.is_ben else _WHITE)
    top: Box = (0.09 * _S, 0.07 * _S, 0.91 * _S, 0.50 * _S)
    bottom: Box = (0.09 * _S, 0.52 * _S, 0.91 * _S, 0.94 * _S)
    if card.is_ben:
        # Drawn as the text writes it, 🃏1: a jester's cap and the joker's number (the
        # name, Little Ben or the Benny, is the game's: engine.wording.joker_name).
        ink = _BEN_INK[card.ben]
        left, up, right, down = top
        split = left + (right - left) * 0.52
        _cap(draw, _square((left, up, split, down)), ink)
        _text(draw, str(card.ben), (split, up, right, down), ink)
        _stars(draw, card.ben, bottom, ink)
    else:
        assert card.rank is not None and card.suit is not None
        ink = _RED if card.suit.is_red else _BLACK
        _text(draw, _rank_text(card.rank), top, ink)
        _SUIT_SHAPES[card.suit](draw, _square(bottom), ink)
    return _png(image)


@cache
def back_png() -> bytes:
    """The card back (a blue lattice in a white frame): a 128×128 RGBA PNG."""
    image, draw = _blank_card(_WHITE)
    inset = 0.13 * _S
    inner: Box = (inset, inset, _S - inset, _S - inset)
    draw.rounded_rectangle(inner, radius=0.06 * _S, fill=_BACK_BLUE)
    lattice = Image.new("RGBA", (_S, _S), (0, 0, 0, 0))
    pen = ImageDraw.Draw(lattice)
    step = 0.11 * _S
    width = round(0.018 * _S)
    for i in range(-10, 20):
        x = i * step
        pen.line([(x, 0), (x + _S, _S)], fill=_BACK_LINE, width=width)
        pen.line([(x, _S), (x + _S, 0)], fill=_BACK_LINE, width=width)
    mask = Image.new("L", (_S, _S), 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=0.06 * _S, fill=255)
    image.paste(lattice, (0, 0), ImageChops.darker(mask, lattice.getchannel("A")))
    return _png(image)


def face_pngs() -> dict[str, bytes]:
    """Every emoji the faces need, by name: the 39 faces of :data:`FACE_CARDS` and the back."""
    images = {emoji_name(card): face_png(card) for card in FACE_CARDS}
    images[BACK_NAME] = back_png()
    return images


def _blank_card(fill: Ink) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A card on a transparent square: rounded corners and a grey edge that shows on
    Discord's light and dark themes alike."""
    image = Image.new("RGBA", (_S, _S), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    margin = 0.02 * _S
    draw.rounded_rectangle(
        (margin, margin, _S - margin, _S - margin),
        radius=0.12 * _S,
        fill=fill,
        outline=_EDGE,
        width=round(0.025 * _S),
    )
    return image, draw


def _text(draw: ImageDraw.ImageDraw, text: str, box: Box, ink: Ink) -> None:
    """``text`` as large as fits ``box``, centred, thickened with a stroke of its own ink."""
    left, top, right, bottom = box
    stroke = round(0.022 * _S)
    # Glyphs scale with the size: one measure gives the size, a few steps correct rounding.
    x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=ImageFont.load_default(size=100))
    room = min((right - left - 2 * stroke) / (x1 - x0), (bottom - top - 2 * stroke) / (y1 - y0))
    size = int(100 * room) + 2
    while True:
        font = ImageFont.load_default(size=size)
        x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font, stroke_width=stroke)
        if x1 - x0 <= right - left and y1 - y0 <= bottom - top:
            break
        size -= 1
    x = (left + right) / 2 - (x0 + x1) / 2
    y = (top + bottom) / 2 - (y0 + y1) / 2
    draw.text((x, y), text, font=font, fill=ink, stroke_width=stroke, stroke_fill=ink)


def _square(box: Box) -> Box:
    """The largest square centred in ``box``."""
    left, top, right, bottom = box
    side = min(right - left, bottom - top)
    cx, cy = (left + right) / 2, (top + bottom) / 2
    return (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)


def _diamond(draw: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    left, top, right, bottom = box
    cx, cy, half = (left + right) / 2, (top + bottom) / 2, (right - left) * 0.40
    draw.polygon([(cx, top), (cx + half, cy), (cx, bottom), (cx - half, cy)], fill=ink)


def _lobes(box: Box, flip: bool) -> tuple[list[Box], list[tuple[float, float]]]:
    """A heart's two round lobes and the triangle under them (``flip``: a spade's,
    pointing up), in ``box``."""
    left, top, right, bottom = box
    w = right - left
    r = w * 0.26
    cy = top + w * 0.30 if not flip else bottom - w * 0.38
    circles = [
        (left + w * 0.24 - r, cy - r, left + w * 0.24 + r, cy + r),
        (right - w * 0.24 - r, cy - r, right - w * 0.24 + r, cy + r),
    ]
    # The triangle's sides touch each lobe where its tangent slopes down to the tip.
    tip_y = bottom - w * 0.04 if not flip else top + w * 0.02
    side = cy + r * 0.55 if not flip else cy - r * 0.55
    triangle = [(left + w * 0.015, side), (right - w * 0.015, side), (left + w / 2, tip_y)]
    return circles, triangle


def _heart(draw: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    circles, triangle = _lobes(box, flip=False)
    for circle in circles:
        draw.ellipse(circle, fill=ink)
    draw.polygon(triangle, fill=ink)


def _stem(draw: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    left, top, right, bottom = box
    w = right - left
    cx = left + w / 2
    draw.polygon(
        [
            (cx - w * 0.05, top + w * 0.55),
            (cx + w * 0.05, top + w * 0.55),
            (cx + w * 0.20, bottom),
            (cx - w * 0.20, bottom),
        ],
        fill=ink,
    )


def _spade(draw: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    left, top, right, bottom = box
    body = (left, top, right, bottom - (bottom - top) * 0.12)
    circles, triangle = _lobes(body, flip=True)
    for circle in circles:
        draw.ellipse(circle, fill=ink)
    draw.polygon(triangle, fill=ink)
    _stem(draw, box, ink)


def _club(draw: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    left, top, right, _ = box
    w = right - left
    r = w * 0.22
    for cx, cy in ((0.5, 0.25), (0.25, 0.58), (0.75, 0.58)):
        x, y = left + w * cx, top + w * cy
        draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
    x, y = left + w / 2, top + w * 0.47
    draw.ellipse((x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6), fill=ink)
    _stem(draw, box, ink)


_SUIT_SHAPES = {
    Suit.CLUBS: _club,
    Suit.DIAMONDS: _diamond,
    Suit.HEARTS: _heart,
    Suit.SPADES: _spade,
}


def _cap(draw: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    """A jester's cap, the joker's mark: a band and three floppy points, a bell on each."""
    left, top, right, _ = box
    w = right - left

    def at(x: float, y: float) -> tuple[float, float]:
        return left + w * x, top + w * y

    band = (*at(0.14, 0.74), *at(0.86, 0.94))
    draw.rounded_rectangle(band, radius=w * 0.06, fill=ink)
    # Each point rises from the band and bends outwards, its tip drooping (x, y in 0..1).
    horns = (
        [at(0.16, 0.78), at(0.46, 0.78), at(0.34, 0.30), at(0.07, 0.60), at(0.22, 0.40)],
        [at(0.38, 0.78), at(0.62, 0.78), at(0.58, 0.34), at(0.50, 0.10), at(0.42, 0.34)],
        [at(0.54, 0.78), at(0.84, 0.78), at(0.78, 0.40), at(0.93, 0.60), at(0.66, 0.30)],
    )
    bell = w * 0.09
    for points in horns:
        draw.polygon(points, fill=ink)
        x, y = points[3]
        draw.ellipse((x - bell, y - bell, x + bell, y + bell), fill=ink)


def _stars(draw: ImageDraw.ImageDraw, count: int, box: Box, ink: Ink) -> None:
    """``count`` five-pointed stars side by side, as large as ``box`` allows."""
    left, top, right, bottom = box
    width = right - left
    side = min(bottom - top, width / count * 1.1)
    cy = (top + bottom) / 2
    for i in range(count):
        cx = left + width * (2 * i + 1) / (2 * count)
        outer, inner = side / 2, side / 2 * 0.45
        points = [
            (
                cx + (outer if k % 2 == 0 else inner) * math.sin(math.pi * k / 5),
                cy + 0.05 * side - (outer if k % 2 == 0 else inner) * math.cos(math.pi * k / 5),
            )
            for k in range(10)
        ]
        draw.polygon(points, fill=ink)


def _png(image: Image.Image) -> bytes:
    small = image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, format="PNG")
    return out.getvalue()
