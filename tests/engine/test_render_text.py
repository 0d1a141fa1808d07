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


def test_auction_shows_no_trump_before_the_bidding_closes(deal_game, act) -> None:
    """RULES.md §7: during the auction the screen shows the standing bid, not "Trump:
    ♥ hearts (made by …)", and the hand is not regrouped around the bid's suit."""
    game = deal_game("auction", dealer=0, hands={2: "JH JD AH 8C 9S"})
    act(game, "bid 4 H")
    screen = TextRenderer(game.variant, you=2).screen(game.view(2))
    assert "Trump: not made yet" in screen
    assert "made by" not in screen and "(trump)" not in screen
    assert "Bid standing: 4 in ♥ hearts by Seat 2." in screen
    assert "bid more than the highest bid so far (4 in hearts), or pass." in screen
    act(game, *["pass"] * 4)
    screen = TextRenderer(game.variant, you=2).screen(game.view(2))
    assert "Trump: ♥ hearts, made by Seat 2 (bid 4)" in screen
    assert "Bid: 4 in ♥ hearts by Seat 2." in screen
