"""The table as a picture: one JPEG of the whole table, drawn with Pillow from the public view.

:func:`draw_table` takes the PUBLIC :class:`~engine.view.PlayerView` (``game.view(None)``),
so it can never draw a card that nobody at the table may see: a seat's view is refused.
Replays of finished games may pass :class:`Revealed` to turn every card face up.

The picture is a felt table seen from above, seats in playing order around it (seat 0 at
the bottom, play going clockwise, to the left), each seat's name plate with its hand
size, tricks won and, in games played each for themself, its score; the dealer's ``D``
chip; the trick in the middle, each card in front of the seat that played it; in Tuque
both tableaus. Each of three things has a cue of its own: the seat to act is a gold
plate (the only gold on the table); a face-up tableau card that is trump has a cyan
frame with trump's suit pinned on it (a shape, not a colour alone, tells it); a won
trick's winning card has a white ring, the others dimmed. A band at the top holds
trump, its maker, a call and the score; at a hand's end, until the next hand's first
action, the hand's result instead (its points kept whole where what the makers took
does not fit), with its last trick in the middle and who won it; once the next hand is
dealt, its up-card (widow, trump) too, the last trick then smaller beside or under it.
Words on the felt (who won a trick, the up-card's label) go where no plate covers them,
on two lines where the plates close in.

It is sized for Discord, which shows an image about 550 px wide on a desktop and about
255 px wide on a 360 px phone: big cards (the bot's own faces, :mod:`bot.faces`) and few
words, none smaller than :data:`SMALLEST_TEXT` (10 px on that phone), on an opaque dark
ground that reads in the light and dark themes alike. A replay's picture is taller: a
panel under the table shows its caption and every hand. Text is drawn
with Pillow's built-in font (no system font needed), which holds little beyond ASCII: names
lose the letters it cannot draw (accents are dropped, ``Zoë`` is drawn ``Zoe``), and
suits are drawn as shapes. The :attr:`Picture.description` says everything in words,
with names in full, for screen readers.

No rule is applied here: the picture draws what the view says, and which cards are trump
is the engine's word (:func:`engine.cards.is_trump`).

``python -m bot.drawing OUT_DIR`` draws example tables into ``OUT_DIR``.
"""

from __future__ import annotations

import io
import math
import random
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from PIL import Image, ImageDraw, ImageEnhance, ImageFont

from bot.faces import back_png, face_card, face_png
from bot.table import Ending, Result
from engine.actions import Action
from engine.cards import Card, Suit, is_trump
from engine.game import Deal, Game
from engine.variants import VARIANTS, Variant
from engine.view import HandResult, Phase, PlayerView, Trick
from engine.wording import (
    DEALING,
    THROWN_IN,
    THROWN_IN_SHORT,
    Wording,
    capital,
    card_text,
    count,
    deals_left,
    doing,
    points_text,
    score_goal,
    score_text,
    side_name,
    sort_cards,
    tally,
    verdict,
    won_game,
)

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

__all__ = [
    "DESCRIPTION_LIMIT",
    "HEIGHT",
    "PHONE_WIDTH",
    "SMALLEST_TEXT",
    "WIDTH",
    "Picture",
    "Revealed",
    "describe",
    "draw_table",
    "examples",
    "reveal",
]

WIDTH = 720
"""Width of every picture, in pixels."""
HEIGHT = 576
"""Height of every live table's picture, in pixels (a replay's adds its panel)."""
PHONE_WIDTH = 255
"""How wide Discord shows the picture on a 360 px phone, in pixels."""
SMALLEST_TEXT = 29
"""The smallest font size drawn, in picture pixels: 10.3 px once shown
:data:`PHONE_WIDTH` wide."""
DESCRIPTION_LIMIT = 1024
"""Discord's limit on a media-gallery item's description, in characters."""


@dataclass(frozen=True, slots=True)
class Revealed:
    """Every card face up, for replays of FINISHED games only.

    Attributes:
        hands: each seat's hand, by seat (any order within a hand).
        face_down: per seat, per pile in ``view.tableaus`` order, the pile's face-down
            card, ``None`` where a pile has none (empty tuples in games without tableaus).
    """

    hands: tuple[tuple[Card, ...], ...]
    face_down: tuple[tuple[Card | None, ...], ...]


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn table.

    Attributes:
        jpeg: the JPEG file (RGB, ``width`` × ``height``, quality 92, chroma at half
            the resolution, 4:2:0).
        description: the picture in words, for screen readers: at most
            :data:`DESCRIPTION_LIMIT` characters, public information only.
        width: the picture's width in pixels.
        height: the picture's height in pixels.
        text_sizes: the font size, in picture pixels, of each text drawn on it.
    """

    jpeg: bytes
    description: str
    width: int
    height: int
    text_sizes: tuple[int, ...] = ()


# --- colours and sizes ---------------------------------------------------------------------

_K = 2
"""Each shape, text and card is drawn this many times larger, then reduced: smooth edges."""
_BAND = 60
"""Height of the top band (trump, call, score), in picture pixels."""
Colour = tuple[int, int, int]
_GROUND: Colour = (27, 31, 36)
_FELT: Colour = (28, 104, 66)
_FELT_LIGHT: Colour = (38, 128, 82)
_RIM: Colour = (16, 64, 40)
_PLATE: Colour = (33, 38, 45)
_PLATE_EDGE: Colour = (86, 96, 108)
_ACTIVE: Colour = (250, 204, 70)
"""The seat to act's plate, and only that."""
_TRUMP: Colour = (64, 208, 232)
"""The frame of a face-up tableau card that is trump, and only that."""
_WON: Colour = (255, 255, 255)
"""The ring around a won trick's winning card, and only that."""
_OUT: Colour = (62, 66, 72)
_WHITE: Colour = (255, 255, 255)
_INK: Colour = (24, 26, 30)
_MUTED: Colour = (170, 176, 184)
_DIM_TEXT: Colour = (128, 134, 140)
_GOLD_TEXT: Colour = (255, 214, 90)
_SIDE_COLOURS: tuple[Colour, ...] = ((96, 165, 250), (248, 113, 113), (167, 139, 250))
"""Team colours, by side, in games with partnerships."""

_CARD = 84
"""A card's side on the table (the faces are square, as the bot's card emojis)."""
_SMALL = 44
"""A card's side in a revealed hand and in the band."""
_PILE_STEP = 34
"""How far a tableau pile's face-up card lies below its face-down card."""
_REVEALED_STEP = 64
""":data:`_PILE_STEP` in a replay, where the face-down card is drawn face up: its rank
shows above a trump chip pinned on the face-up card."""
_PILE_GAP = 12
"""Room between two tableau piles (room for two trump frames)."""
_TRUMP_FRAME = 5
"""Width of the gold frame around a face-up tableau card that is trump."""
_TRUMP_CHIP = 30
"""Side of the trump-suit chip pinned on a face-up tableau card that is trump."""
_REVEALED_SHIFT = 10
"""How far a replay's trump chip sticks out right of its card: the card above is face
up there, and the chip stays clear of its suit."""
_PLATE_W, _PLATE_H = 200, 92
_NAME = 30
"""Font size of names."""
_TEXT = SMALLEST_TEXT
"""Font size of the other words."""
_CHIP = 56
"""Side of the trump chip on the felt (while the band shows a hand's end)."""
_PILL_H = 36
"""Height of a pill of words (a label on the felt) of one line."""
_LINE = 32
"""How much each further line of words makes a pill taller."""
_HAND_ROW = 64
"""Height of one seat's row in a replay's panel of hands."""
_HAND_CARD = 56
"""A card's side in a replay's panel of hands."""


# --- the picture ---------------------------------------------------------------------------


def draw_table(
    view: PlayerView,
    names: Sequence[str],
    *,
    revealed: Revealed | None = None,
    caption: str | None = None,
    result: Result | None = None,
) -> Picture:
    """The whole table as one JPEG picture, and its description in words.

    Args:
        view: the PUBLIC view (``game.view(None)``).
        names: the seats' display names, by seat (any length: the picture cuts them, the
            description keeps them whole).
        revealed: every hidden card, for the replay of a finished game: hands and
            face-down tableau cards are then drawn face up, the hands in a panel under
            the table.
        caption: one short line drawn on the picture (a replay's ``Hand 2 · trick 3``),
            at the top of a replay's panel.
        result: the table's result once the game has ended (:attr:`bot.table.Table.result`):
            a game ended by a resignation or a forfeit shows nobody to act, and who won.

    Returns:
        a :class:`Picture` of :data:`WIDTH` × :data:`HEIGHT` pixels, taller for a replay.

    Raises:
        ValueError: ``view`` is a seat's view (it would show a hand), ``names`` does not
            name every seat, or ``revealed`` does not fit the table.
    """
    if view.seat is not None:
        raise ValueError("the table is drawn from the public view only")
    if len(names) != view.players:
        raise ValueError(f"{view.players} names are needed, one a seat; got {len(names)}")
    if revealed is not None:
        _check_revealed(view, revealed)
    ended = result if result is not None and result.ending is not Ending.FINISHED else None
    panel = 0 if revealed is None else _panel_height(view.players, caption)
    canvas = _Canvas(HEIGHT + panel)
    table = _Table(view, tuple(names), revealed, canvas, ended)
    table.draw(caption)
    return Picture(
        canvas.jpeg(),
        describe(view, names, caption, ended),
        WIDTH,
        HEIGHT + panel,
        tuple(canvas.text_sizes),
    )


def _panel_height(players: int, caption: str | None) -> int:
    """Height of a replay's panel: its caption's line, then a row for each seat's hand."""
    return (_HAND_ROW if caption else 8) + players * _HAND_ROW + 8


def reveal(game: Game) -> Revealed:
    """Every hidden card of ``game``'s current hand, to draw a FINISHED game's replay.

    Hands are read with :meth:`Game.hand_of`; each pile's face-down card from the hand's
    deal (:meth:`Game.deal`: seat by seat, the face-down tableau cards pile by pile
    first), where the public view says it still lies face down.
    """
    view = game.view(None)
    hands = tuple(game.hand_of(seat) for seat in range(view.players))
    deal = next((entry for entry in reversed(game.log) if isinstance(entry, Deal)), None)
    per_seat = game.variant.tricks  # every card a seat is dealt, tableau and hand
    face_down = tuple(
        tuple(
            deal.cards[seat * per_seat + i] if deal is not None and pile.face_down else None
            for i, pile in enumerate(view.tableaus[seat])
        )
        for seat in range(view.players)
    )
    return Revealed(hands, face_down)


def _check_revealed(view: PlayerView, revealed: Revealed) -> None:
    """Raise ValueError unless ``revealed`` holds each hand and face-down card ``view`` counts."""
    if tuple(map(len, revealed.hands)) != view.hand_sizes:
        raise ValueError("revealed hands must be given for every seat, as many cards as each holds")
    shape = tuple(tuple(pile.face_down for pile in piles) for piles in view.tableaus)
    given = tuple(tuple(card is not None for card in piles) for piles in revealed.face_down)
    if given != shape:
        raise ValueError("revealed face-down cards must be given for every tableau pile")


# --- drawing primitives --------------------------------------------------------------------

Point = tuple[float, float]
Box = tuple[float, float, float, float]
Part = tuple[int, int, int, int]
"""``(left, top, right, bottom)`` in whole picture pixels, right and bottom excluded."""


class _Canvas:
    """The picture; coordinates are in picture pixels, each snapped to the nearest whole
    pixel (:func:`_snap`).

    Each shape, text and card is drawn on its own :data:`_K` times larger and reduced,
    once (they are cached), so its edges are smooth; the picture is put together at its
    own size from those pieces. Drawing the whole picture larger and reducing it, as
    before, cost four times the pixels at every paste and a reduction at every card:
    about half of a picture's CPU (issue 41, ``bench.drawing``).
    """

    def __init__(self, height: int = HEIGHT) -> None:
        self.height = height
        if height == HEIGHT:
            self.image = _felt().copy()
        else:
            self.image = Image.new("RGB", (WIDTH, height), _GROUND)
            self.image.paste(_felt(), (0, 0))
        # Pieces are pasted on Pillow's core image (Pillow is pinned): ``Image.paste``'s
        # checks cost more than the pastes themselves, for a picture's eighty small pieces.
        self.core = self.image.im
        self.text_sizes: list[int] = []
        """The font size of each text drawn, for a check that all read on a phone."""

    def box(
        self,
        box: Box,
        fill: Colour | None,
        radius: float = 0,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        self._draw(_shape("box", _snapped(box), radius, fill, outline, width))

    def ellipse(
        self, box: Box, fill: Colour, outline: Colour | None = None, width: float = 0
    ) -> None:
        self._draw(_shape("ellipse", _snapped(box), 0, fill, outline, width))

    def _draw(self, sprite: _Sprite) -> None:
        core = self.core
        for part, colour in sprite.fills:
            core.paste(colour, part)
        for part, image in sprite.blends:
            core.paste(image, part, image)

    def text(
        self,
        at: Point,
        text: str,
        size: int,
        fill: Colour,
        anchor: str = "mm",
        bold: bool = True,
    ) -> None:
        self.text_sizes.append(size)
        mask, (x, y) = _text_mask(text, size, bold, anchor)
        x, y = _snap(at[0]) + x, _snap(at[1]) + y
        self.core.paste(fill, (x, y, x + mask.size[0], y + mask.size[1]), mask)

    def paste(self, image: Image.Image, at: Point) -> None:
        """``image`` (a card, a chip: picture pixels) with its top left corner at ``at``."""
        x, y = _snap(at[0]), _snap(at[1])
        part = (x, y, x + image.width, y + image.height)
        if image.mode == "RGBA":
            self.core.paste(image.im, part, image.im)
        else:
            self.core.paste(image.im, part)

    def jpeg(self) -> bytes:
        """The picture as a JPEG file."""
        out = io.BytesIO()
        # The table is redrawn at every edit, so its CPU is what costs: JPEG encodes in
        # 1.5 ms where PNG took 9 (level 1) to 14 (level 6), at about the same size.
        # Chroma at half the resolution (4:2:0) encodes in two thirds of the time of
        # full (4:4:4), in 22% fewer bytes, and looks the same, on a phone too: the edges
        # of red text move by 1 to 2 levels of 255 on average (issue 41).
        self.image.save(out, format="JPEG", quality=92, subsampling=2)
        return out.getvalue()


def _snap(value: float) -> int:
    """``value`` (picture pixels) to the nearest whole pixel, halves up: things drawn a
    whole number of pixels apart stay that far apart."""
    return math.floor(value + 0.5)


def _snapped(box: Box) -> tuple[int, int, int, int]:
    return (_snap(box[0]), _snap(box[1]), _snap(box[2]), _snap(box[3]))


def _reduced(image: Image.Image) -> Image.Image:
    """``image`` (mode ``RGBA``, drawn :data:`_K` times larger) at the picture's size, its
    colours averaged by their cover (premultiplied) so that an edge does not darken."""
    return image.convert("RGBa").reduce(_K).convert("RGBA")


@cache
def _felt() -> Image.Image:
    """The empty table at the picture's size: the ground, the felt's rim, the felt and its
    lighter middle."""
    image = Image.new("RGB", (WIDTH * _K, HEIGHT * _K), _GROUND)
    pen = ImageDraw.Draw(image)
    box = (14, _BAND + 30, WIDTH - 14, HEIGHT - 30)
    radius = (box[3] - box[1]) / 2
    inner = (box[0] + 9, box[1] + 9, box[2] - 9, box[3] - 9)
    glow = (inner[0] + 60, inner[1] + 44, inner[2] - 60, inner[3] - 44)
    for shape, colour, corner in (
        (box, _RIM, radius),
        (inner, _FELT, radius - 9),
        (glow, _FELT_LIGHT, (glow[3] - glow[1]) / 2),
    ):
        pen.rounded_rectangle(_scaled(shape), radius=corner * _K, fill=colour)
    return image.reduce(_K)


def _scaled(box: Box) -> Box:
    return (box[0] * _K, box[1] * _K, box[2] * _K, box[3] * _K)


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size * _K)
    # Pillow's wheels hold FreeType; without it the font would not scale.
    assert isinstance(font, ImageFont.FreeTypeFont)
    return font


_KEPT_TEXTS = 8192
"""How many texts' masks, widths and cuts the drawing keeps. Every table names its seats,
so the texts drawn grow with the tables a bot keeps busy: 300 games draw some 2,000
masks in turn, and with 1,024 kept each picture rendered its names again, 3.9 ms of CPU
a picture instead of 2.05 (``bench.drawing --games 300``, issue 41). 8,192 keep the
texts of some 1,200 busy games."""


@lru_cache(maxsize=_KEPT_TEXTS)
def _text_mask(
    text: str, size: int, bold: bool, anchor: str
) -> tuple[ImagingCore, tuple[int, int]]:
    """``text`` as Pillow's ``ImageDraw.text`` renders it :data:`_K` times larger at a
    point, reduced: its mask (mode ``L``, the ink's cover 0–255) and the mask's top left
    corner from the point, in picture pixels.

    The same words recur from picture to picture (names, counts, labels) and FreeType's
    rendering was a quarter of a picture's CPU: each is rendered once. A mask is about
    4 KB, 10 KB at most (the words are cut to their room): about 30 MB for the
    :data:`_KEPT_TEXTS` kept, 85 MB at most. A bold text is stroked in its own colour, so
    one mask draws it.
    """
    core, (x, y) = _font(size).getmask2(
        text, "L", stroke_width=_K // 2 if bold else 0, anchor=anchor, stroke_filled=True
    )
    # On a sheet whose corner is a whole picture pixel, so that it reduces to whole pixels.
    dx, dy = x % _K, y % _K
    sheet = Image.new(
        "L",
        (max(_K, -(-(dx + core.size[0]) // _K) * _K), max(_K, -(-(dy + core.size[1]) // _K) * _K)),
    )
    sheet.paste(Image.frombytes("L", core.size, bytes(core)), (dx, dy))
    return sheet.reduce(_K).im, ((x - dx) // _K, (y - dy) // _K)


@dataclass(frozen=True, slots=True)
class _Sprite:
    """A shape at the picture's size, in parts cheap to draw.

    Most of a plate, a pill or a bubble is rows alike, each a few runs of one solid
    colour: those are filled as rectangles, and only what is left (its rounded ends, its
    edges' partly covered pixels) is blended through its own alpha.

    Attributes:
        fills: rectangles and their colour.
        blends: rectangles and the image (mode ``RGBA``, Pillow's core) blended there.
    """

    fills: tuple[tuple[Part, Colour], ...]
    blends: tuple[tuple[Part, ImagingCore], ...]


@lru_cache(maxsize=1024)
def _shape(
    kind: str,
    box: tuple[int, int, int, int],
    radius: float,
    fill: Colour | None,
    outline: Colour | None,
    width: float,
) -> _Sprite:
    """A rounded rectangle (``kind`` ``"box"``) or an ellipse at ``box`` (picture pixels,
    right and bottom included, as Pillow's), drawn :data:`_K` times larger with Pillow
    and reduced; its outline ``width`` wide if ``outline`` is given.

    Plates, pills and bubbles come back to the same places in the same colours (100
    tables of every seat count drew under 300): a sprite keeps its ends and edges, 8 KB,
    20 KB at most: 20 MB at most for the 1,024 kept.
    """
    left, top, right, bottom = box
    w, h = right - left + 1, bottom - top + 1
    sheet = Image.new("RGBA", (max(w, 1) * _K, max(h, 1) * _K), (0, 0, 0, 0))
    pen = ImageDraw.Draw(sheet)
    at = (0, 0, (w - 1) * _K, (h - 1) * _K)
    ink = None if fill is None else (*fill, 255)
    edge = None if outline is None else (*outline, 255)
    stroke = round(width * _K)
    if kind == "box":
        pen.rounded_rectangle(at, radius=radius * _K, fill=ink, outline=edge, width=stroke)
    else:
        pen.ellipse(at, fill=ink, outline=edge, width=stroke)
    image = _reduced(sheet)
    w, h = image.size
    data = image.tobytes()
    rows = [data[y * w * 4 : (y + 1) * w * 4] for y in range(h)]
    # The longest run of alike rows: the straight part.
    start, length, y = 0, 0, 0
    while y < h:
        end = y
        while end < h and rows[end] == rows[y]:
            end += 1
        if end - y > length:
            start, length = y, end - y
        y = end
    fills: list[tuple[Part, Colour]] = []
    blends: list[tuple[Part, ImagingCore]] = []
    x, row = 0, rows[start]
    while x < w:
        end = x
        while end < w and row[end * 4 : end * 4 + 4] == row[x * 4 : x * 4 + 4]:
            end += 1
        alpha = row[x * 4 + 3]
        if alpha == 255:
            part = (left + x, top + start, left + end, top + start + length)
            fills.append((part, (row[x * 4], row[x * 4 + 1], row[x * 4 + 2])))
        elif alpha:
            part = (left + x, top + start, left + end, top + start + length)
            blends.append((part, image.crop((x, start, end, start + length)).im))
        x = end
    for first, last in ((0, start), (start + length, h)):
        if first < last:
            part = (left, top + first, left + w, top + last)
            blends.append((part, image.crop((0, first, w, last)).im))
    return _Sprite(tuple(fills), tuple(blends))


@lru_cache(maxsize=2 * _KEPT_TEXTS)  # a cut name asks for each shorter one
def _width(text: str, size: int) -> float:
    """``text``'s width in picture pixels, at ``size``."""
    return _font(size).getlength(text) / _K + 1


@lru_cache(maxsize=4096)
def _drawable(char: str) -> bool:
    """Whether the built-in font has a glyph for ``char`` (else it draws a box)."""
    font = _font(_TEXT)
    missing = font.getmask("\uffff")
    mask = font.getmask(char)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


def _plain(name: str) -> str:
    """``name`` in the letters the font can draw: accents dropped, the rest left out."""
    letters = unicodedata.normalize("NFKD", name)
    kept = "".join(c for c in letters if not unicodedata.combining(c) and _drawable(c))
    return " ".join(kept.split())


@lru_cache(maxsize=_KEPT_TEXTS)
def _cut(text: str, size: int, room: float) -> str:
    """``text`` cut to fit ``room`` pixels at ``size``, ending with an ellipsis if cut."""
    if _width(text, size) <= room:
        return text
    while text and _width(text + "…", size) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def _short_names(names: Sequence[str]) -> tuple[str, ...]:
    """The names as drawn: in the font's letters, ``Seat 3`` for a name it cannot draw."""
    return tuple(_plain(name) or f"Seat {seat + 1}" for seat, name in enumerate(names))


# --- cards ---------------------------------------------------------------------------------


def _face(card: Card, side: int, dim: bool = False) -> Image.Image:
    """``card``'s face, ``side`` picture pixels square (the bot's emoji face, bot.faces),
    darker if ``dim`` (a trick already won, an up-card turned down).

    Every face-up card of the picture is drawn by this one function.
    """
    return _face_image(face_card(card), side, dim)


@cache
def _face_image(card: Card, side: int, dim: bool) -> Image.Image:
    """:func:`_face`, decoded and resized once: 39 faces at the module's four sides, dimmed
    at a trick card's two (at most 234, 28 KB each at the largest side: 7 MB at most)."""
    image = _decoded(face_png(card), side)
    return _dimmed(image) if dim else image


@cache
def _back(side: int) -> Image.Image:
    """The card back, ``side`` picture pixels square."""
    return _decoded(back_png(), side)


def _decoded(png: bytes, side: int) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    return _reduced(image.resize((side * _K, side * _K), Image.Resampling.LANCZOS))


def _dimmed(image: Image.Image) -> Image.Image:
    """``image`` darker, for a trick already won."""
    rgb = ImageEnhance.Brightness(image.convert("RGB")).enhance(0.55)
    rgb.putalpha(image.getchannel("A"))
    return rgb


@cache
def _suit_chip(suit: Suit, side: int) -> Image.Image:
    """A white rounded square with ``suit``'s shape: the lower half of its ace's face."""
    face = Image.open(io.BytesIO(face_png(Card.parse("A" + suit.value)))).convert("RGBA")
    size = face.width
    # The suit fills the face's lower half (bot.faces): its largest centred square.
    top = round(size * 0.51)
    span = size - top - round(size * 0.05)
    left = (size - span) // 2
    crop = face.crop((left, top, left + span, top + span))
    pad = round(span * 0.14)
    chip = Image.new("RGBA", (span + 2 * pad, span + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(chip).rounded_rectangle(
        (0, 0, chip.width - 1, chip.height - 1), radius=span * 0.22, fill=(*_WHITE, 255)
    )
    chip.paste(crop, (pad, pad), crop)
    return _reduced(chip.resize((side * _K, side * _K), Image.Resampling.LANCZOS))


# --- layout --------------------------------------------------------------------------------

_CENTRE: Point = (WIDTH / 2, (_BAND + HEIGHT) / 2)


@dataclass(frozen=True, slots=True)
class _Spot:
    """Where one seat's things go (centres, in picture pixels)."""

    plate: Point
    trick: Point
    tableau: Point | None = None
    facing: Point = (0, -1)
    """Where the seat looks from its plate: its bid bubbles go that way, (1, 0) to the
    right, (0, -1) up."""


_SIX_CARD = 68
"""A trick card's side at a six-seat table, where six fit between the plates."""


def _ring(players: int, plate_h: float) -> tuple[_Spot, ...]:
    """Seats around an oval, seat 0 at the bottom and play going clockwise. Six seats'
    side plates sit further up and down than an even spacing puts them, and their trick
    is two rows of three (cards of :data:`_SIX_CARD`), so that no card lies under a plate."""
    cx, cy = _CENTRE
    rx, ry = WIDTH / 2 - _PLATE_W / 2 - 6, (HEIGHT - _BAND) / 2 - plate_h / 2 - 6
    # The trick's cards, one in front of each seat, apart from each other and the plates.
    tx, ty = {3: (72, 60), 4: (100, 62), 5: (94, 80)}.get(players, (80, 36))
    spots = []
    for seat in range(players):
        angle = math.pi / 2 + 2 * math.pi * seat / players
        if players == 6 and seat % 3:
            angle += math.radians(7) * (1 if seat in (2, 5) else -1)
        c, s = math.cos(angle), math.sin(angle)
        # Seats at the sides look across the table, the others up or down it.
        facing = (-math.copysign(1, c), 0.0) if abs(c) > 0.8 else (0.0, -math.copysign(1, s))
        trick = (cx + tx * c, cy + ty * s)
        if players == 6:
            trick = (cx + tx * (round(c * 1.2) and math.copysign(1, c)), cy + math.copysign(ty, s))
        spots.append(_Spot((cx + rx * c, cy + ry * s), trick, None, facing))
    return tuple(spots)


def _duel(plate_h: float, piles: int, step: float) -> tuple[_Spot, ...]:
    """Two seats face to face: seat 0 at the bottom, seat 1 at the top; with tableaus,
    seat 0's plate at the left of its tableau and seat 1's at the right of its own
    (``step``: how far each pile's face-up card lies below its face-down card)."""
    cx, cy = _CENTRE
    low = HEIGHT - plate_h / 2 - 8
    high = _BAND + plate_h / 2 + 8
    trick_low, trick_high = (cx - 26, cy + 36), (cx + 26, cy - 36)
    if not piles:
        return _Spot((cx, low), trick_low), _Spot((cx, high), trick_high, None, (0, 1))
    pile_h = _CARD + step
    width = piles * _CARD + (piles - 1) * _PILE_GAP
    return (
        _Spot(
            (_PLATE_W / 2 + 8, low),
            trick_low,
            (WIDTH - width / 2 - 8, HEIGHT - pile_h / 2 - 8),
        ),
        _Spot(
            (WIDTH - _PLATE_W / 2 - 8, high),
            trick_high,
            (width / 2 + 8, _BAND + pile_h / 2 + 8),
            (0, 1),
        ),
    )


# --- the table -----------------------------------------------------------------------------

_BIDDING = frozenset(
    {
        Phase.BIDDING_1,
        Phase.BIDDING_2,
        Phase.DISCARD,
        Phase.GOING_ALONE,
        Phase.BLIND_NAMING,
        Phase.CARD_REQUEST,
        Phase.GIVING,
        Phase.CALLING,
        Phase.AUCTION,
    }
)


def _distinct_cuts(names: Sequence[str], rooms: Sequence[float], size: int) -> tuple[str, ...]:
    """Each name cut to fit its room at ``size``, still told apart from the others: a
    name cut where it still reads as another keeps the letter where they part
    (``Alexandr…``, ``Alexande…``) or, if that is too wide, its end (``Comp…3``,
    ``Comp…4``). Names alike in full stay alike."""
    plain = [_cut(name, size, room) for name, room in zip(names, rooms, strict=True)]
    cuts = list(plain)
    for i, name in enumerate(names):
        stem = plain[i].removesuffix("…")
        if stem == plain[i]:
            continue  # drawn whole
        others = [other for other in names if other != name and other.startswith(stem)]
        if not others:
            continue
        shared = max(_shared(name, other) for other in others)
        if _width(name[: shared + 1] + "…", size) <= rooms[i]:
            cuts[i] = name[: shared + 1].rstrip() + "…"
            continue
        tail = 1
        while tail < len(name) and any(other.endswith(name[-tail:]) for other in others):
            tail += 1
        end = name[-tail:].lstrip()
        head = name[: len(name) - tail]
        while head and _width(head + "…" + end, size) > rooms[i]:
            head = head[:-1]
        cuts[i] = head.rstrip() + "…" + end
    return tuple(cuts)


def _shared(a: str, b: str) -> int:
    """How many first letters ``a`` and ``b`` have in common."""
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


class _Part(NamedTuple):
    """A thing to place in the middle: centred across ``x``, ``width`` wide, from
    ``top`` to ``to`` below the top it is placed from."""

    x: float
    width: float
    top: float
    to: float


class _Table:
    """One drawing of ``view`` onto ``canvas``; ``ended``: the result of a game that
    ended early (a resignation, a forfeit)."""

    def __init__(
        self,
        view: PlayerView,
        names: tuple[str, ...],
        revealed: Revealed | None,
        canvas: _Canvas,
        ended: Result | None = None,
    ) -> None:
        self.view = view
        self.names = _short_names(names)
        self.revealed = revealed
        self.canvas = canvas
        self.ended = ended
        self.variant = _variant(view)
        self.previous = view.hand_just_over
        self.plate_h = _PLATE_H
        self.card = _SIX_CARD if view.players == 6 else _CARD
        """A trick card's side."""
        self.step = _PILE_STEP if revealed is None else _REVEALED_STEP
        if view.players == 2:
            self.spots = _duel(self.plate_h, max(map(len, view.tableaus)), self.step)
        else:
            self.spots = _ring(view.players, self.plate_h)
        self.plate_names = _distinct_cuts(
            self.names, [self._name_room(seat) for seat in range(view.players)], _NAME
        )

    def draw(self, caption: str | None) -> None:
        self._band()
        view = self.view
        if view.has_tableaus:
            for seat in range(view.players):
                self._tableau(seat)
        self._middle()
        for seat in range(view.players):
            self._plate(seat)
        if self.canvas.height > HEIGHT:
            self._panel(caption)

    # -- the band --

    def _band(self) -> None:
        """Trump and its maker, a call, at the left (at a hand's end, its result); the
        score at the right."""
        c, view = self.canvas, self.view
        y = _BAND / 2
        x = 12.0
        right = self._score()
        if self.previous is not None:
            head, choices = self._result_words(self.previous)
            c.text((x, y), head, _TEXT, _GOLD_TEXT, "lm")
            x += _width(head, _TEXT) + 10
            room = right - x - 12
            # The longest words that fit whole: the points before what the makers took.
            fitting = next((w for w in choices if _width(w, _TEXT) <= room), choices[-1])
            text = _cut(fitting, _TEXT, room)
            if text != "…":
                c.text((x, y), text, _TEXT, _WHITE, "lm")
            return
        if view.trump is None:
            title = _cut(self.variant.title, _TEXT, right - x - 12)
            c.text((x, y), title, _TEXT, _MUTED, "lm")
            x += _width(title, _TEXT) + 14
        else:
            c.text((x, y), "Trump", _TEXT, _MUTED, "lm")
            x += _width("Trump", _TEXT) + 8
            c.paste(_suit_chip(view.trump, 42), (x, y - 21))
            x += 50
            said = Wording(self.variant, self.names)
            words = []
            if view.maker is not None:
                words.append(said.made_by(view.maker, view.bid, view.alone, short=True))
            if view.lone_defender is not None:
                words.append(said.defends_alone(view.lone_defender))
            if words:
                room = right - x - 14 - (84 if view.called_suit or view.called_card else 0)
                text = _cut(" · ".join(words), _TEXT, room)
                c.text((x, y), text, _TEXT, _WHITE, "lm")
                x += _width(text, _TEXT) + 14
        if view.called_suit is not None:
            c.text((x, y), "Call", _TEXT, _MUTED, "lm")
            x += _width("Call", _TEXT) + 6
            c.paste(_suit_chip(view.called_suit, 34), (x, y - 17))
        elif view.called_card is not None:
            c.text((x, y), "Call", _TEXT, _MUTED, "lm")
            x += _width("Call", _TEXT) + 6
            c.paste(_face(view.called_card, _SMALL), (x, y - _SMALL / 2))

    def _result_words(self, result: HandResult) -> tuple[str, tuple[str, ...]]:
        """A finished hand in the band: a heading (``Euchred!``, ``Hand 3:``) and the
        rest, longest first: the outcome (``Bob took 7 of 17 tricks · Ann +2``), then its
        points alone (``Ann +2``), which the band keeps when the whole is too wide (the
        description says the whole)."""
        if result.thrown_in:
            head, rest = THROWN_IN_SHORT
            return f"{head}:", (rest,)
        said = verdict(result, self.variant, short=True)
        head = f"{capital(said)}!" if said else f"Hand {result.hand_no}:"
        words = Wording(self.variant, self.names)
        sides = [words.side(side) for side in range(len(result.points))]
        return head, (words.outcome(result), points_text(result.points, sides))

    def _score(self) -> float:
        """The sides' scores (teams: a colour each, as their plates), the target or pool,
        at the band's right; returns where they start."""
        c, view = self.canvas, self.view
        y = _BAND / 2
        right = WIDTH - 12.0
        if self.variant.chips:
            words = [
                (f"pool {view.pool}", _WHITE),
                (deals_left(view, short=True), _MUTED),
            ]
        elif self.variant.teams:
            words = [(f"to {view.target}", _MUTED)]
        else:  # each seat's score is on its plate
            words = [(f"to {view.target}", _MUTED)]
        for text, ink in reversed(words):
            c.text((right, y), text, _TEXT, ink, "rm")
            right -= _width(text, _TEXT) + 10
        if not self.variant.teams:
            return right
        for side in reversed(range(len(view.scores))):
            text = str(view.scores[side])
            c.text((right, y), text, 32, _WHITE, "rm")
            right -= _width(text, 32) + 6
            c.box((right - 16, y - 8, right, y + 8), _SIDE_COLOURS[side], 4)
            right -= 30
        return right

    # -- the seats --

    def _name_room(self, seat: int) -> float:
        """How wide ``seat``'s name may be drawn on its plate, beside its score."""
        room = _PLATE_W - 26.0
        if self.variant.teams:
            return room - 6
        return room - _width(str(self.view.scores[self.view.sides[seat]]), _NAME) - 10

    def _plate(self, seat: int) -> None:
        """A seat's name plate: its name (and score, in games each for themself), its
        hand size and tricks, gold when it is to act, grey when it sits out."""
        c, view = self.canvas, self.view
        cx, cy = self.spots[seat].plate
        box = (cx - _PLATE_W / 2, cy - self.plate_h / 2, cx + _PLATE_W / 2, cy + self.plate_h / 2)
        out = seat in view.out
        active = view.turn == seat and view.phase is not Phase.GAME_OVER and self.ended is None
        fill = _ACTIVE if active else _OUT if out else _PLATE
        ink = _INK if active else _DIM_TEXT if out else _WHITE
        c.box(box, fill, 14, _ACTIVE if active else _PLATE_EDGE, 2)
        left, right, top = box[0] + 14, box[2] - 12, box[1]
        if self.variant.teams:
            c.box((box[0] + 6, top + 14, box[0] + 12, top + 80), _SIDE_COLOURS[view.sides[seat]], 3)
            left += 6
        else:
            score = str(view.scores[view.sides[seat]])
            c.text((right, top + 30), score, _NAME, _INK if active else _GOLD_TEXT, "rm")
        c.text((left, top + 30), self.plate_names[seat], _NAME, ink, "lm")
        line = top + 67
        x = left
        if out:
            c.text((x, line), "sits out", _TEXT, ink, "lm", bold=False)
        elif view.hand_no:
            size = view.hand_sizes[seat]
            if size and self.revealed is None:
                c.paste(_back(28), (x, line - 14))
                x += 32
                c.text((x, line), str(size), _TEXT, ink, "lm")
                x += _width(str(size), _TEXT) + 12
            if view.phase not in _BIDDING and self.previous is None:
                won = view.tricks_won[seat]
                text = count(won, "trick")
                c.text((x, line), text, _TEXT, ink, "lm", bold=False)
        if seat == view.dealer and view.hand_no:
            self._dealer_chip((box[2] - 24, box[1] - 3))

    def _dealer_chip(self, at: Point) -> None:
        x, y = at
        self.canvas.ellipse((x - 17, y - 17, x + 17, y + 17), _WHITE, _INK, 2)
        self.canvas.text((x, y + 1), "D", _TEXT, _INK)

    # -- a replay's panel --

    def _panel(self, caption: str | None) -> None:
        """Under the table: the caption on a line of its own, then each seat's hand."""
        c = self.canvas
        y = float(HEIGHT)
        if caption:
            c.text((WIDTH / 2, y + _HAND_ROW / 2), _cut(caption, _TEXT, WIDTH - 24), _TEXT, _WHITE)
            y += _HAND_ROW
        else:
            y += 8
        if self.revealed is None:
            return
        names = _distinct_cuts(self.names, [168.0] * self.view.players, _NAME)
        for seat, cards in enumerate(self.revealed.hands):
            mid = y + _HAND_ROW / 2
            c.text((12, mid), names[seat], _NAME, _WHITE, "lm")
            x = 190.0
            room = WIDTH - 12 - x - _HAND_CARD
            step = min(_HAND_CARD + 6, room / max(1, len(cards) - 1))
            for card in sort_cards(cards, self.view.trump, self.variant.twins):
                c.paste(_face(card, _HAND_CARD), (x, mid - _HAND_CARD / 2))
                x += step
            y += _HAND_ROW

    # -- the middle --

    def _middle(self) -> None:
        view = self.view
        if self.ended is not None:
            self._banner(self._ended_words(self.ended))
            return
        if view.phase is Phase.GAME_OVER:
            self._banner(self._winner_words())
            return
        if self.previous is not None and view.phase is Phase.HAND_OVER:
            if self.previous.last_trick is not None:
                self._trick(self.previous.last_trick, dim=True, last=True)
            return
        if self.previous is not None and self.previous.last_trick is not None:
            self._next_hand(self.previous.last_trick)
            return
        if view.phase is Phase.DEAL:
            self._banner(["New game"])
            return
        self._stock()
        if view.phase in _BIDDING:
            self._bids()
        if view.trick.plays:
            self._trick(view.trick, dim=False)
        elif view.phase is Phase.PLAY and view.tricks:
            self._trick(view.tricks[-1], dim=True)

    def _trick(self, trick: Trick, dim: bool, last: bool = False) -> None:
        """The cards of ``trick`` in front of their players, in play order; ``dim``: a
        trick already won, its winner's card ringed in white, the rest dimmed; ``last``:
        the hand's last."""
        c, half = self.canvas, self.card / 2
        cards = []
        for seat, card in trick.plays:
            x, y = self.spots[seat].trick
            image = _face(card, self.card, dim and seat != trick.winner)
            if dim and seat == trick.winner:
                c.box((x - half - 6, y - half - 6, x + half + 6, y + half + 6), _WON, 18)
            c.paste(image, (x - half, y - half))
            ring = 6 if dim and seat == trick.winner else 0
            cards.append((x - half - ring, y - half - ring, x + half + ring, y + half + ring))
        if dim and trick.winner is not None:
            what = "the last trick" if last else "the trick"
            # Under the trick, or as near as a plate leaves room: on one line, else two.
            low = max(box[3] for box in cards) + 2
            for lines in (1, 2):
                tall = _PILL_H + (lines - 1) * _LINE
                pill = _Part(_CENTRE[0], self._won_width(trick.winner, what, lines), 0, tall)
                top = self._nearest(low, [pill], cards)
                if top is not None:
                    self._won(top, trick.winner, what, lines)
                    return
            self._won(low, trick.winner, what, 1)  # nowhere clear: under the trick

    def _won(self, top: float, winner: int, what: str, lines: int) -> None:
        """``Ann won the last trick`` in a pill whose top is at ``top``, on ``lines``
        lines (:meth:`_won_lines`)."""
        said = self._won_lines(winner, what, lines)
        half = max(_width(line, _TEXT) for line in said) / 2 + 10
        bottom = top + _PILL_H + (len(said) - 1) * _LINE
        self.canvas.box((_CENTRE[0] - half, top, _CENTRE[0] + half, bottom), _PLATE, 18)
        for i, line in enumerate(said):
            at = (_CENTRE[0], top + _PILL_H / 2 + i * _LINE)
            self.canvas.text(at, line, _TEXT, _WHITE, bold=False)

    def _won_lines(self, winner: int, what: str, lines: int) -> list[str]:
        """``Ann won the last trick`` on one line, or on two (``Ann won`` / ``the last
        trick``), a long name cut to what the middle between two side plates leaves."""
        if lines == 1:
            return [_cut(f"{self.names[winner]} won {what}", _TEXT, 420)]
        return [_cut(f"{self.names[winner]} won", _TEXT, 180), what]

    def _won_width(self, winner: int, what: str, lines: int) -> float:
        """The width of :meth:`_won`'s pill on ``lines`` lines."""
        return max(_width(line, _TEXT) for line in self._won_lines(winner, what, lines)) + 20

    @cached_property
    def _obstacles(self) -> tuple[Box, ...]:
        """What the middle's pills and cards must leave clear: the plates, the dealer's
        chip on its plate and the tableaus."""
        boxes = []
        for seat, spot in enumerate(self.spots):
            px, py = spot.plate
            box = (
                px - _PLATE_W / 2,
                py - self.plate_h / 2,
                px + _PLATE_W / 2,
                py + self.plate_h / 2,
            )
            boxes.append(box)
            if seat == self.view.dealer:
                boxes.append((box[2] - 41, box[1] - 20, box[2] - 7, box[1]))
            piles = len(self.view.tableaus[seat])
            if spot.tableau is not None and piles:
                tx, ty = spot.tableau
                half_w = (piles * _CARD + (piles - 1) * _PILE_GAP) / 2
                half_h = (_CARD + self.step) / 2
                boxes.append((tx - half_w, ty - half_h, tx + half_w, ty + half_h))
        return tuple(boxes)

    def _nearest(
        self, top: float, parts: Sequence[_Part], avoid: Sequence[Box] = ()
    ) -> float | None:
        """The top nearest ``top`` (below it first) from which ``parts`` all lie clear of
        every plate (its dealer chip too), tableau and box of ``avoid``, between the band
        and the picture's foot; None if there is none."""
        low, high = _BAND + 4.0, HEIGHT - 4.0 - max(part.to for part in parts)
        # Each thing in a part's way rules out the tops between the two that touch it.
        barred = [
            (y0 - part.to, y1 - part.top)
            for part in parts
            for x0, y0, x1, y1 in (*self._obstacles, *avoid)
            if x0 < part.x + part.width / 2 + 4 and part.x - part.width / 2 - 4 < x1
        ]
        tops = sorted(
            {top, *(edge for span in barred for edge in span)},
            key=lambda at: (abs(at - top), at < top),
        )
        return next(
            (at for at in tops if low <= at <= high and not any(a < at < b for a, b in barred)),
            None,
        )

    def _next_hand(self, last: Trick) -> None:
        """The next hand dealt while the hand before's end still shows (until the next
        hand's first action): its up-card, widow or trump whole, where its bidding needs
        it, and the hand before's ``last`` trick with who won it, each clear of the
        plates. Two seats have room for them side by side, the trick as it lay; a ring
        of seats has them one above the other or side by side, the trick's cards smaller
        in front of their players, and who won it under them."""
        cx, cy = _CENTRE
        winner = last.winner if last.winner is not None else last.plays[0][0]
        stock = self._stock_rows()
        if self.view.players == 2:
            self._trick(last, dim=True, last=True)
            if stock:
                width = max(w for w, _, _ in stock)
                left = min(self.spots[seat].trick[0] for seat, _ in last.plays) - self.card / 2
                self._stock_at(left - 24 - width / 2, cy - max(to for _, _, to in stock) / 2)
            return
        # The smaller trick keeps the table's shape: each card towards its player, as
        # close as the cards allow without touching.
        spots = [self.spots[seat].trick for seat, _ in last.plays]
        apart = min(
            max(abs(a[0] - b[0]), abs(a[1] - b[1]))
            for i, a in enumerate(spots)
            for b in spots[i + 1 :]
        )
        scale = (_SMALL + 4) / apart
        shifts = [((x - cx) * scale, (y - cy) * scale) for x, y in spots]
        half = _SMALL / 2 + 4
        rise = -min(dy for _, dy in shifts) + half
        trick_h = rise + max(dy for _, dy in shifts) + half
        trick_w = 2 * (max(abs(dx) for dx, _ in shifts) + half)
        stock_w = max((w for w, _, _ in stock), default=0.0)
        stock_h = max((to for _, _, to in stock), default=0.0)

        def layout(side: bool, lines: int) -> tuple[list[_Part], Point, Point, float]:
            """The parts (relative to a top), where the stock's and the trick's tops go,
            and the pill's top: one above the other, or side by side."""
            if side:
                span = stock_w + 20 + trick_w
                tall = max(stock_h, trick_h)
                at = (cx - span / 2 + stock_w / 2, (tall - stock_h) / 2)
                trick = (cx + span / 2 - trick_w / 2, (tall - trick_h) / 2)
            else:
                tall = stock_h + 10 + trick_h if stock else trick_h
                at, trick = (cx, 0.0), (cx, tall - trick_h)
            pill = tall + 6
            parts = [_Part(at[0], w, at[1] + a, at[1] + b) for w, a, b in stock]
            parts.append(_Part(trick[0], trick_w, trick[1], trick[1] + trick_h))
            low = pill + _PILL_H + (lines - 1) * _LINE
            parts.append(_Part(cx, self._won_width(winner, "the last trick", lines), pill, low))
            return parts, at, trick, pill

        # As near the middle as it fits; nowhere clear (no table draws that), in the
        # middle all the same.
        found = None
        for side, lines in ((False, 1), (False, 2), (True, 1), (True, 2)):
            parts, at, trick, pill = layout(side, lines)
            top = self._nearest(cy - max(part.to for part in parts) / 2, parts)
            if top is not None:
                found = top, at, trick, pill, lines
                break
        if found is None:
            parts, at, trick, pill = layout(False, 2)
            found = cy - max(part.to for part in parts) / 2, at, trick, pill, 2
        top, at, trick, pill, lines = found
        if stock:
            self._stock_at(at[0], top + at[1])
        x0, y0 = trick[0], top + trick[1] + rise
        for (seat, card), (dx, dy) in zip(last.plays, shifts, strict=True):
            x, y = x0 + dx, y0 + dy
            if seat == last.winner:
                self.canvas.box((x - half, y - half, x + half, y + half), _WON, 10)
            image = _face(card, _SMALL, seat != last.winner)
            self.canvas.paste(image, (x - _SMALL / 2, y - _SMALL / 2))
        self._won(top + pill, winner, "the last trick", lines)

    def _stock_rows(self) -> list[tuple[float, float, float]]:
        """What :meth:`_stock` draws, as rows from its top: ``(width, from, to)``; none
        when it draws nothing."""
        view = self.view
        if view.up_card is not None and view.trump is None:
            label = "turned down" if view.up_card_turned_down else "up-card"
            pill = _width(label, _TEXT) + 20
            return [(_CARD, 0, _CARD), (pill, _CARD + 4, _CARD + 4 + _PILL_H)]
        if view.widow and view.phase in _BIDDING:
            pill = _width(f"widow {view.widow}", _TEXT) + 20
            backs = _CARD + 14 * (view.widow - 1)
            return [(pill, 0, _PILL_H), (backs, _PILL_H + 6, _PILL_H + 6 + _CARD)]
        if view.trump is not None and self.previous is not None:
            pill = _width("trump", _TEXT) + 20
            return [(_CHIP, 0, _CHIP), (pill, _CHIP + 4, _CHIP + 4 + _PILL_H)]
        return []

    def _stock_at(self, x: float, top: float) -> None:
        """:meth:`_stock` centred across ``x``, its top row's top at ``top``."""
        view = self.view
        if view.up_card is not None and view.trump is None:
            self._stock((x, top + _CARD / 2))
        elif view.widow and view.phase in _BIDDING:
            self._stock((x, top + _PILL_H + 6 + _CARD / 2 - 10))
        else:
            self._stock((x, top + _CHIP / 2))

    def _stock(self, at: Point = _CENTRE) -> None:
        """Until trump is made, the up-card (dimmed once turned down); the widow's backs
        while it lies on the table in the bidding, its count above them (a lone bid of
        15 leaves it there through the play, under the tricks: the description says
        it); a trump the deal made
        (Jackpot's turned suit) while the band still shows the hand before's end;
        ``at``: their centre."""
        view = self.view
        cx, cy = at
        if view.up_card is not None and view.trump is None:
            image = _face(view.up_card, _CARD, view.up_card_turned_down)
            self.canvas.paste(image, (cx - _CARD / 2, cy - _CARD / 2))
            label = "turned down" if view.up_card_turned_down else "up-card"
            self._pill((cx, cy + _CARD / 2 + 22), label)
        elif view.widow and view.phase in _BIDDING:
            step = 14
            x = cx - (_CARD + step * (view.widow - 1)) / 2
            for i in range(view.widow):
                self.canvas.paste(_back(_CARD), (x + i * step, cy - _CARD / 2 + 10))
            self._pill((cx, cy - _CARD / 2 - 14), f"widow {view.widow}")
        elif view.trump is not None and self.previous is not None:
            self.canvas.paste(_suit_chip(view.trump, _CHIP), (cx - _CHIP / 2, cy - _CHIP / 2))
            self._pill((cx, cy + _CHIP / 2 + 4 + _PILL_H / 2), "trump")

    def _bids(self) -> None:
        """Each seat's last bid this hand, in a bubble in front of it."""
        last: dict[int, tuple[Action, Phase]] = {}
        for (seat, action), phase in zip(self.view.bids, self.view.bid_phases, strict=True):
            last[seat] = (action, phase)
        for seat, (action, phase) in last.items():
            self._bubble(seat, action, phase)

    def _bubble(self, seat: int, action: Action, phase: Phase) -> None:
        # The bid's short words (engine.wording), an asked seat's long name cut to fit.
        words = Wording(self.variant, self.names).short(action, phase)
        parts = [p if isinstance(p, Suit) else _cut(p, _TEXT, 170) for p in words]
        chip = 30
        width = sum(chip if isinstance(p, Suit) else _width(p, _TEXT) for p in parts)
        width += 6 * (len(parts) - 1) + 24
        x, y = self._bubble_at(seat, width)
        box = (x - width / 2, y - 20, x + width / 2, y + 20)
        self.canvas.box(box, _WHITE, 20, _PLATE_EDGE, 1)
        at = box[0] + 12
        for part in parts:
            if isinstance(part, Suit):
                self.canvas.paste(_suit_chip(part, chip), (at, y - chip / 2))
                at += chip + 6
            else:
                self.canvas.text((at, y), part, _TEXT, _INK, "lm")
                at += _width(part, _TEXT) + 6

    def _bubble_at(self, seat: int, width: float) -> Point:
        """The centre of ``seat``'s bid bubble ``width`` wide: beside its plate, the way
        it looks, inside the picture."""
        (px, py), (fx, fy) = self.spots[seat].plate, self.spots[seat].facing
        x = px + fx * ((_PLATE_W + width) / 2 + 8)
        y = py + fy * ((self.plate_h + 40) / 2 + 8)
        return min(max(x, width / 2 + 4), WIDTH - width / 2 - 4), y

    def _pill(self, at: Point, text: str) -> None:
        x, y = at
        half = _width(text, _TEXT) / 2 + 10
        self.canvas.box((x - half, y - 18, x + half, y + 18), _PLATE, 18)
        self.canvas.text((x, y), text, _TEXT, _WHITE, bold=False)

    def _banner(self, lines: Sequence[str]) -> None:
        if not lines:
            return
        cx, cy = _CENTRE
        size = 32
        texts = [_cut(line, size, 560) for line in lines]
        half_w = max(_width(t, size) for t in texts) / 2 + 24
        half_h = len(texts) * 22 + 12
        self.canvas.box((cx - half_w, cy - half_h, cx + half_w, cy + half_h), _PLATE, 20)
        for i, text in enumerate(texts):
            y = cy - half_h + 34 + 44 * i
            self.canvas.text((cx, y), text, size, _GOLD_TEXT if i == 0 else _WHITE)

    def _winner_words(self) -> list[str]:
        view = self.view
        if view.winner is None:
            return ["Game over"]
        return ["Game over", won_game(self._side_names(view.winner), short=True)]

    def _ended_words(self, result: Result) -> list[str]:
        """A game ended early: why, and who won."""
        assert result.by is not None
        name = self.names[result.by]
        why = f"{name} resigned" if result.ending is Ending.RESIGNED else f"{name} forfeits"
        return ["Game over", why, won_game(self._side_names(result.winner), short=True)]

    def _side_names(self, side: int) -> str:
        seats = [s for s, each in enumerate(self.view.sides) if each == side]
        return side_name([self.names[s] for s in seats])

    # -- the tableaus --

    def _tableau(self, seat: int) -> None:
        spot = self.spots[seat].tableau
        piles = self.view.tableaus[seat]
        if spot is None or not piles:
            return
        width = len(piles) * _CARD + (len(piles) - 1) * _PILE_GAP
        x = spot[0] - width / 2
        top = spot[1] - (_CARD + self.step) / 2
        down = self.revealed.face_down[seat] if self.revealed is not None else None
        for i, pile in enumerate(piles):
            if pile.face_down:
                hidden = down[i] if down is not None else None
                image = _back(_CARD) if hidden is None else _face(hidden, _CARD)
                self.canvas.paste(image, (x, top))
            if pile.up is not None:
                at = (x, top + self.step)
                trump = is_trump(pile.up, self.view.trump)
                if trump:
                    self._trump_frame(at)
                self.canvas.paste(_face(pile.up, _CARD), at)
                if trump:
                    self._trump_badge(at)
            x += _CARD + _PILE_GAP

    def _trump_frame(self, at: Point) -> None:
        """A cyan frame around the face-up card whose top left corner is ``at``."""
        x, y = at
        w = _TRUMP_FRAME
        self.canvas.box((x - w, y - w, x + _CARD + w, y + _CARD + w), _TRUMP, 10 + w)

    def _trump_badge(self, at: Point) -> None:
        """Trump's suit chip, framed in cyan, pinned on the top right corner of the
        face-up card whose top left corner is ``at``: the band's trump chip again. In a
        replay, where the card above is face up, it sits further right, clear of that
        card's suit."""
        assert self.view.trump is not None
        side = _TRUMP_CHIP
        shift = _REVEALED_SHIFT if self.revealed is not None else 2
        x, y = at[0] + _CARD - side + shift, at[1] - side + 4
        self.canvas.box((x - 3, y - 3, x + side + 3, y + side + 3), _TRUMP, 8, _INK, 1.5)
        self.canvas.paste(_suit_chip(self.view.trump, side), (x, y))


def _variant(view: PlayerView) -> Variant:
    variant = VARIANTS[view.variant]
    return variant.configured(view.options) if view.options is not None else variant


# --- the description -----------------------------------------------------------------------


def describe(
    view: PlayerView,
    names: Sequence[str],
    caption: str | None = None,
    ended: Result | None = None,
) -> str:
    """The table in words, for screen readers: public information only, names in full;
    ``ended``: the result of a game ended early (a resignation, a forfeit).

    E.g. ``Tuque table. Seats in playing order: Ann (dealer), CPU 2. Trump hearts,
    made by Ann. Trick: Ann led J♥. Score: Ann: 3 · CPU 2: 2 (to 10). CPU 2 to play.``
    At most :data:`DESCRIPTION_LIMIT` characters: the least needed sentences (cards in
    hand, then tableaus, bidding, ...) are left out first to fit, then names are cut.
    """
    variant = _variant(view)
    for room in (None, 40, 16):
        who = tuple(name if room is None else _cut_text(name, room) for name in names)
        text = _fit(_sentences(view, variant, who, caption, ended))
        if len(text) <= DESCRIPTION_LIMIT:
            return text
    # Still too long (a caption of a page?): what fits, then whose turn it is.
    last = _status_sentence(view, variant, who, ended) + "."
    head = text[: len(text) - len(last)].rstrip()
    return _cut_text(head, DESCRIPTION_LIMIT - len(last) - 1) + " " + last


def _cut_text(text: str, room: int) -> str:
    """``text`` in at most ``room`` characters, ending with an ellipsis if cut."""
    return text if len(text) <= room else text[: room - 1].rstrip() + "…"


def _sentences(
    view: PlayerView,
    variant: Variant,
    who: tuple[str, ...],
    caption: str | None,
    ended: Result | None,
) -> list[tuple[int, str]]:
    """Each sentence of the description, with how much it matters (0 most)."""
    words = Wording(variant, who)
    said: list[tuple[int, str]] = []

    def say(rank: int, sentence: str) -> None:
        said.append((rank, sentence))

    say(0, f"{variant.title} table" + (f", {caption}" if caption else ""))
    seated = []
    for seat, name in enumerate(who):
        notes = ["dealer"] if seat == view.dealer and view.hand_no else []
        notes += ["sits out"] if seat in view.out else []
        seated.append(name + (f" ({', '.join(notes)})" if notes else ""))
    say(0, "Seats in playing order: " + ", ".join(seated))
    if view.hand_no and view.up_card is not None:
        turned = " (turned down)" if view.up_card_turned_down else ""
        # Until trump is made everyone bids on it: cut names rather than leave it out.
        say(0 if view.trump is None else 1, f"Up-card {card_text(view.up_card)}{turned}")
    elif view.widow:
        say(1, f"Widow: {view.widow} cards face down")
    if view.trump is not None:
        made = "" if view.maker is None else ", " + words.made_by(view.maker, view.bid, view.alone)
        say(0, f"Trump {view.trump.noun}{made}")
    if view.lone_defender is not None:
        say(1, words.defends_alone(view.lone_defender))
    if view.called_suit is not None:
        say(1, f"Called {view.called_suit.noun}: the holder of its best card is partner")
    if view.called_card is not None:
        say(1, f"Called {card_text(view.called_card)}: its holder is partner")
    if view.phase in _BIDDING and view.bids:
        bids = (
            words.narrate(s, a, phase, past=True, hidden=True)
            for (s, a), phase in zip(view.bids, view.bid_phases, strict=True)
        )
        say(2, "Bidding: " + "; ".join(bids))
    previous = view.hand_just_over
    if previous is not None:
        say(0, _result_sentence(previous, variant, who))
        last_trick = previous.last_trick
        if last_trick is not None and last_trick.winner is not None:
            won = f"won by {who[last_trick.winner]}"
            say(0, f"Last trick of hand {previous.hand_no}: {_plays(last_trick, who)}, {won}")
    if view.trick.plays:
        say(0, "Trick: " + _plays(view.trick, who))
    elif view.tricks and view.phase is Phase.PLAY:
        last = view.tricks[-1]
        won = f", won by {who[last.winner]}" if last.winner is not None else ""
        say(0, f"Last trick: {_plays(last, who)}{won}")
    if view.has_tableaus:
        for seat, piles in enumerate(view.tableaus):
            up = ", ".join(_tableau_card(c, view) for c in view.face_up(seat)) or "none"
            down = sum(p.face_down for p in piles)
            say(2, f"{who[seat]}'s tableau: {up} face up, {down} face down")
    playing = [s for s in range(view.players) if s not in view.out]
    names = [who[s] for s in playing]
    if view.hand_no and view.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        if view.phase not in _BIDDING:
            say(1, "Tricks won: " + tally([view.tricks_won[s] for s in playing], names))
        say(3, "Cards in hand: " + tally([view.hand_sizes[s] for s in playing], names))
    say(0, _score_sentence(view, variant, who))
    say(0, _status_sentence(view, variant, who, ended))
    return said


def _tableau_card(card: Card, view: PlayerView) -> str:
    """A face-up tableau card in words, ``J♣ (trump)`` once trump is made and it is one."""
    return card_text(card) + (" (trump)" if is_trump(card, view.trump) else "")


def _plays(trick: Trick, who: Sequence[str]) -> str:
    """``Ann led J♥, Bob 9♥``."""
    (first, card), *rest = trick.plays
    return ", ".join(
        [f"{who[first]} led {card_text(card)}", *(f"{who[s]} {card_text(c)}" for s, c in rest)]
    )


def _result_sentence(result: HandResult, variant: Variant, who: Sequence[str]) -> str:
    """The hand just over: ``Hand 3 over. A march: Ann made ♥ hearts; Ann & Cleo took 5
    of 5 tricks · Ann & Cleo +2``."""
    head = f"Hand {result.hand_no} over"
    if result.thrown_in:
        return f"{head}: {THROWN_IN}"
    said = verdict(result, variant)
    words = Wording(variant, tuple(who))
    parts = [words.outcome(result)]
    if result.maker is not None:
        parts.insert(0, words.made(result, loner=False))
    return f"{head}{'. ' + capital(said) if said else ''}: {'; '.join(parts)}"


def _score_sentence(view: PlayerView, variant: Variant, who: Sequence[str]) -> str:
    """The score as every text writes it (:func:`engine.wording.score_text`)."""
    sides = [_side(view, side, who) for side in range(len(view.scores))]
    return f"Score: {score_text(view.scores, sides, score_goal(view, variant))}"


def _side(view: PlayerView, side: int, who: Sequence[str]) -> str:
    return side_name([who[s] for s, each in enumerate(view.sides) if each == side])


def _status_sentence(
    view: PlayerView, variant: Variant, who: Sequence[str], ended: Result | None = None
) -> str:
    if ended is not None and ended.by is not None:
        why = "resigned" if ended.ending is Ending.RESIGNED else "did not come back"
        return f"Game over: {who[ended.by]} {why}; {won_game(_side(view, ended.winner, who))}"
    if view.phase is Phase.GAME_OVER:
        if view.winner is None:
            return "Game over"
        return f"Game over: {won_game(_side(view, view.winner, who))}"
    if view.turn is None:
        return DEALING
    return f"{who[view.turn]} {doing(view, variant)}"


def _fit(said: Sequence[tuple[int, str]]) -> str:
    """The sentences in order, the least needed left out until they fit the limit (or
    only those that matter most are left: the text may be longer then)."""
    kept = list(said)
    text = ". ".join(sentence for _, sentence in kept) + "."
    while len(text) > DESCRIPTION_LIMIT and any(rank for rank, _ in kept):
        least = max(rank for rank, _ in kept)
        del kept[max(i for i, (rank, _) in enumerate(kept) if rank == least)]
        text = ". ".join(sentence for _, sentence in kept) + "."
    return text


# --- examples ------------------------------------------------------------------------------


def _advanced(
    variant: str, seed: int, until: Callable[[PlayerView], bool], **options: object
) -> Game:
    """A seeded game of ``variant`` played with seeded random legal moves until ``until``
    holds for its public view (or the game ends)."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed, **options)
    while game.phase is not Phase.GAME_OVER:
        if until(game.view(None)):
            break
        if game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    return game


def phone_png(picture: Picture) -> bytes:
    """``picture`` as a 360 px phone shows it: :data:`PHONE_WIDTH` wide, as a PNG."""
    image = Image.open(io.BytesIO(picture.jpeg))
    height = round(image.height * PHONE_WIDTH / image.width)
    out = io.BytesIO()
    image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS).save(out, format="PNG")
    return out.getvalue()


def phone_examples() -> dict[str, bytes]:
    """docs/bot.md's pictures at phone width by file name: a Tuque hand's end (after the
    next deal, before its first bid), a game over and a replay step."""
    ended = _advanced("tuque", 7, lambda v: v.hand_no == 2 and not v.bids)
    over = _advanced("tuque", 7, lambda v: v.phase is Phase.GAME_OVER, target=5)
    replayed = _advanced(
        "tuque", 7, lambda v: v.phase is Phase.PLAY and len(v.tricks) >= 5 and not v.trick.plays
    )
    names = ("Ann", "CPU 2")
    won = replayed.view(None).tricks[-1]
    caption = (
        f"Hand 1 · trick {len(replayed.view(None).tricks)} of 17 · {names[won.winner or 0]} wins it"
    )
    return {
        "phone-hand-end.png": phone_png(draw_table(ended.view(None), names)),
        "phone-game-over.png": phone_png(draw_table(over.view(None), names)),
        "phone-replay.png": phone_png(
            draw_table(replayed.view(None), names, revealed=reveal(replayed), caption=caption)
        ),
    }


def examples() -> dict[str, Picture]:
    """The README's example tables by file name: a Tuque game in play, a six-seat trick."""
    tuque = _advanced(
        "tuque",
        7,
        lambda v: v.phase is Phase.PLAY and len(v.tricks) >= 5 and len(v.trick.plays) == 1,
    )
    six = _advanced(
        "six_hand",
        13,
        lambda v: v.phase is Phase.PLAY and not v.out and len(v.trick.plays) == 4,
    )
    return {
        "table-tuque.jpg": draw_table(tuque.view(None), ("Ann", "CPU 2")),
        "table-six.jpg": draw_table(six.view(None), ("Ann", "Bob", "Cleo", "Dev", "Eve", "CPU 6")),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.drawing OUT_DIR``: :func:`examples` as JPEG files in ``OUT_DIR``,
    and :func:`phone_examples` as PNG files.

    Returns:
        the exit status: 0, or 2 for a wrong command line.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 1:
        print("usage: python -m bot.drawing OUT_DIR", file=sys.stderr)
        return 2
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    for name, picture in examples().items():
        (out / name).write_bytes(picture.jpeg)
        print(f"{out / name}: {picture.width}×{picture.height}, {len(picture.jpeg)} bytes")
    for name, png in phone_examples().items():
        (out / name).write_bytes(png)
        print(f"{out / name}: {PHONE_WIDTH} px wide, {len(png)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
