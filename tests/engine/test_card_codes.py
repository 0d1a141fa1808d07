"""The rules core's card codes: a view turns a hand of codes back into engine cards a
byte at a time (``engine.core.CARD_MASKS``), and must get each card's own."""

from __future__ import annotations

import random

import pytest

from engine.core import CARD_MASKS, CARD_OF, DOUBLE_CARD_MASKS, DOUBLE_CARD_OF

TABLES = {"single pack": (CARD_MASKS, CARD_OF), "double pack": (DOUBLE_CARD_MASKS, DOUBLE_CARD_OF)}


def _by_byte(tables: list[list[int]], mask: int) -> int:
    out = 0
    for k, table in enumerate(tables):
        out |= table[mask >> (8 * k) & 255]
    return out


@pytest.mark.parametrize("pack", sorted(TABLES))
@pytest.mark.parametrize("trump", range(4))
def test_a_mask_of_codes_turns_into_the_mask_of_their_cards(pack: str, trump: int) -> None:
    masks, card_of = TABLES[pack]
    tables = masks[trump]
    codes = [code for code, card in enumerate(card_of[trump]) if card >= 0]
    for code in codes:
        assert _by_byte(tables, 1 << code) == 1 << card_of[trump][code]
    rng = random.Random(f"{pack}:{trump}")
    for size in (0, 1, 5, 13, len(codes)):
        hand = rng.sample(codes, size)
        mask = sum(1 << code for code in hand)
        assert _by_byte(tables, mask) == sum(1 << card_of[trump][code] for code in hand)
