"""Card faces: one valid emoji-sized PNG for every card of every pack, drawn the same each time."""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.faces import (
    BACK_NAME,
    FACE_CARDS,
    SIZE,
    back_png,
    emoji_name,
    face_card,
    face_png,
    face_pngs,
)
from engine.cards import CARDS, TWIN, Card
from engine.variants import VARIANTS

EMOJI_LIMIT = 256 * 1024
"""Discord's size limit for an emoji's image, in bytes."""


def _packs() -> dict[str, tuple[Card, ...]]:
    """Every pack a game can be dealt from: each variant with each value of its pack options."""
    packs: dict[str, tuple[Card, ...]] = {}
    for name, variant in VARIANTS.items():
        packs[name] = variant.pack
        for players in variant.choices.get("players", ()):
            packs[f"{name} players={players}"] = variant.configured(
                variant.options(players=players)
            ).pack
        for size in variant.choices.get("pack", ()):
            packs[f"{name} pack={size}"] = variant.configured(variant.options(pack=size)).pack
        if "double_pack" in variant.adjustable:
            packs[f"{name} double"] = variant.configured(variant.options(double_pack=True)).pack
    return packs


PACKS = _packs()


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_the_double_pack_is_among_the_packs() -> None:
    """The six-hand double pack (with second copies) is checked, not only the narrow packs."""
    assert any(len(pack) == 50 for pack in PACKS.values())
    assert set().union(*PACKS.values()) == set(CARDS)


@pytest.mark.parametrize("pack", sorted(PACKS))
def test_every_card_of_every_pack_has_a_face(pack: str) -> None:
    """Each card's face is an emoji of its own name among the uploaded images."""
    images = face_pngs()
    for card in PACKS[pack]:
        assert images[emoji_name(card)] == face_png(card)


def test_faces_are_emoji_sized_pngs() -> None:
    """Every image is a 128×128 RGBA PNG well under Discord's 256 KiB limit."""
    for name, data in face_pngs().items():
        image = _image(data)
        assert (image.format, image.size, image.mode) == ("PNG", (SIZE, SIZE), "RGBA"), name
        assert len(data) < EMOJI_LIMIT // 8, name


def test_emoji_names_follow_discords_rule() -> None:
    """2–32 characters of [A-Za-z0-9_], one per face, the back's apart."""
    names = [emoji_name(card) for card in FACE_CARDS]
    assert all(re.fullmatch(r"[A-Za-z0-9_]{2,32}", n) for n in [*names, BACK_NAME])
    assert len(set(names)) == len(FACE_CARDS) and BACK_NAME not in names
    assert emoji_name(Card.parse("TH")) == "tq_10h"
    assert [emoji_name(b) for b in CARDS[36:39]] == ["tq_joker1", "tq_joker2", "tq_joker3"]


def test_distinct_cards_have_distinct_faces() -> None:
    """No two faces (nor a face and the back) share pixels; a second copy shows its first's."""
    pixels = [_image(face_png(card)).tobytes() for card in FACE_CARDS]
    pixels.append(_image(back_png()).tobytes())
    assert len(set(pixels)) == len(FACE_CARDS) + 1
    assert face_png.__wrapped__(FACE_CARDS[0]) == face_png(FACE_CARDS[0])
    for card in CARDS:
        if card.copy:
            assert face_card(card) is CARDS[TWIN[card.index]]
            assert face_png(card) == face_png(face_card(card))


def test_suits_are_red_and_black_and_bens_differ_in_colour() -> None:
    """The ink of a face (its most common non-ground colour) is red for ♥♦, black for ♣♠."""

    def ink(card: Card) -> tuple[int, int, int]:
        image = _image(face_png(card)).convert("RGB")
        counts = image.getcolors(SIZE * SIZE) or []
        dark = [(n, c) for n, c in counts if sum(c) < 450 and c != (120, 120, 120)]
        return max(dark)[1]

    for card in FACE_CARDS:
        if card.suit is not None:
            r, g, b = ink(card)
            assert (r > 150 and g < 60) == card.suit.is_red, card
            assert card.suit.is_red or max(r, g, b) < 60, card
    bens = {ink(b) for b in CARDS[36:39]}
    assert len(bens) == 3


def test_faces_are_the_same_bytes_in_another_process() -> None:
    """Drawing is deterministic: a fresh interpreter draws byte-identical faces."""
    code = (
        "import hashlib; from bot.faces import face_pngs; "
        "print(hashlib.sha256(b''.join(face_pngs().values())).hexdigest())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],
    ).stdout.strip()
    assert out == hashlib.sha256(b"".join(face_pngs().values())).hexdigest()
