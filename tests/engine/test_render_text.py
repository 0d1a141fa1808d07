"""The terminal's words (engine/render_text.py): what a player reads, case by case."""

from __future__ import annotations

from engine.cards import Card, Suit
from engine.render_text import TextRenderer
from engine.variants import get_variant
from engine.view import HandResult


def test_a_call_ace_maker_who_is_their_own_partner_is_not_partnered_by_themself() -> None:
    """RULES.md §7 (ruling R25): a maker holding the called suit's best card is their own
    partner; the result says so rather than "partnered by You"."""
    variant = get_variant("call_ace")
    result = HandResult(
        hand_no=1,
        dealer=0,
        up_card=Card.parse("9C"),
        trump=Suit.CLUBS,
        maker=1,
        alone=None,
        tricks=(0, 5, 0, 0),
        points=(0, 2, 0, 0),
        scores=(0, 2, 0, 0),
        march=True,
        partner=1,
    )
    mine = TextRenderer(variant, you=1).hand_result(result, 10)
    theirs = TextRenderer(variant, you=0).hand_result(result, 10)
    assert "You made ♣ clubs, your own partner." in mine
    assert "West made ♣ clubs, their own partner." in theirs
    assert "partnered by" not in mine + theirs
