"""Four-hand North American Euchre (RULES.md §3), one rule per test, on explicit deals.

Seat 0 deals unless a test says otherwise, so seat 1 is eldest; seats 0 and 2 are side 0,
seats 1 and 3 side 1. The up-card is the 9♥.
"""

from __future__ import annotations

import pytest

from engine.actions import GoAlone, NameTrump, OrderUp, Pass, TakeUp
from engine.cards import Card, Suit
from engine.errors import IllegalAction, TurnedDownSuit
from engine.game import Game
from engine.view import Phase

NINE_OF_HEARTS = Card.parse("9H")
TOP_TRUMPS = "JH JD AH KH QH"

# Side 1 (seats 1 and 3) orders hearts up holding no trump; side 0 holds them all.
EUCHRED = {
    0: "JH JD AH AC AS",
    1: "9C TC 9S TS 9D",
    2: "KH QH TH AD KD",
    3: "QC KC QS KS TD",
}
# Seat 1 holds the three top trumps; the rest is spread so that side 1 takes three tricks.
THREE_TRICKS = {
    0: "AC KC AS KS KH",
    1: "JH JD AH 9C 9S",
    2: "QC QS AD KD TH",
    3: "TC TS 9D TD QD",
}


def plays_of(game) -> list[tuple[int, ...]]:
    """The seats that played to each completed trick, in order."""
    return [tuple(seat for seat, _ in trick.plays) for trick in game.view(None).tricks]


# --- round 1 -------------------------------------------------------------------------------


def test_eldest_bids_first(deal_euchre) -> None:
    """The player to the dealer's left opens the bidding."""
    game = deal_euchre(dealer=2, up_card="9H")
    assert game.turn == 3


def test_round_one_goes_clockwise_to_the_dealer(deal_euchre, act) -> None:
    """Round 1 passes clockwise from eldest and ends with the dealer."""
    game = deal_euchre(up_card="9H")
    turns = []
    for _ in range(3):
        act(game, "pass")
        turns.append(game.turn)
    assert turns == [2, 3, 0]


def test_non_dealer_may_pass_or_order_it_up(deal_euchre) -> None:
    """Round 1: a non-dealer passes or orders it up."""
    game = deal_euchre(up_card="9H")
    assert game.legal_actions(1) == (Pass(), OrderUp())


def test_dealer_may_take_it_up_or_pass(deal_euchre, act) -> None:
    """Round 1: after three passes the dealer takes it up or passes."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "pass", "pass")
    assert game.legal_actions(0) == (Pass(), TakeUp())


def test_ordering_up_makes_the_up_cards_suit_trump(deal_euchre, act) -> None:
    """Acceptance ends the bidding: the up-card's suit is trump and the orderer the maker."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "order")
    assert (game.trump, game.maker) == (Suit.HEARTS, 2)


def test_maker_chooses_whether_to_go_alone(deal_euchre, act) -> None:
    """Once trump is made the maker, and only the maker, may go alone or not."""
    game = deal_euchre(up_card="9H")
    act(game, "order")
    assert (game.phase, game.turn, game.legal_actions(1)) == (
        Phase.GOING_ALONE,
        1,
        (Pass(), GoAlone()),
    )


def test_dealer_adds_the_up_card_and_discards(deal_euchre, act) -> None:
    """The dealer picks the up-card up and then discards one card."""
    game = deal_euchre(up_card="9H")
    act(game, "order", "pass")
    assert (game.phase, game.turn, NINE_OF_HEARTS in game.hand_of(0)) == (
        Phase.DISCARD,
        0,
        True,
    )


def test_dealer_keeps_five_cards_after_the_discard(deal_euchre, act) -> None:
    """After the discard the dealer holds five cards, the discard not among them."""
    game = deal_euchre(hands={0: "9C TC JC QC KC"}, up_card="9H")
    act(game, "order", "pass", "discard KC")
    assert [c.code for c in game.hand_of(0)] == ["9C", "TC", "JC", "QC", "9H"]


def test_eldest_leads_the_first_trick(deal_euchre, act) -> None:
    """Without a loner, eldest leads."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "pass", "order", "pass", "discard 9H")
    assert (game.phase, game.turn) == (Phase.PLAY, 1)


# --- round 2 -------------------------------------------------------------------------------


def test_round_two_offers_pass_or_another_suit(deal_euchre, act) -> None:
    """Round 2 starts with eldest: pass or name any suit but the turned-down one."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "pass", "pass", "pass")
    assert (game.turn, game.legal_actions(1)) == (
        1,
        (Pass(), *(NameTrump(Suit(s)) for s in "CDS")),
    )


def test_round_two_refuses_the_turned_down_suit(deal_euchre, act) -> None:
    """Round 2: naming the turned-down suit raises TurnedDownSuit."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "pass", "pass", "pass")
    with pytest.raises(TurnedDownSuit):
        game.apply(1, NameTrump(Suit.HEARTS))


def test_nobody_picks_up_in_round_two(deal_euchre, act) -> None:
    """Trump named in round 2: no discard, the dealer keeps five cards, eldest leads."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "pass", "pass", "pass", "pass", "name S", "pass")
    assert (game.phase, game.turn, len(game.hand_of(0))) == (Phase.PLAY, 1, 5)


def test_naming_in_round_two_may_go_alone(deal_euchre, act) -> None:
    """A player naming trump in round 2 may go alone."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "pass", "pass", "pass", "name S", "alone")
    assert (game.trump, game.maker, game.alone) == (Suit.SPADES, 1, 1)


def test_all_passing_twice_throws_the_hand_in(deal_euchre, act) -> None:
    """If all four pass twice the hand is thrown in: nothing is played, nobody scores."""
    game = deal_euchre(up_card="9H")
    act(game, *["pass"] * 8)
    result = game.hand_results[-1]
    assert (game.phase, result.thrown_in, game.scores) == (Phase.HAND_OVER, True, (0, 0))


def test_deal_passes_left_after_a_throw_in(deal_euchre, act) -> None:
    """After a throw-in the player to the dealer's left deals."""
    game = deal_euchre(dealer=3, up_card="9H")
    act(game, *["pass"] * 8)
    game.deal()
    assert game.dealer == 0


def test_stick_the_dealer_is_off_by_default() -> None:
    """Without the option the dealer may pass in round 2."""
    assert Game("euchre").options.stick_the_dealer is False


def test_stick_the_dealer_forbids_the_dealers_pass(deal_euchre, act) -> None:
    """Option stick_the_dealer: after seven passes the dealer must name a suit."""
    game = deal_euchre(stick_the_dealer=True, up_card="9H")
    act(game, *["pass"] * 7)
    assert game.legal_actions(0) == tuple(NameTrump(Suit(s)) for s in "CDS")


def test_stick_the_dealer_refuses_the_dealers_pass(deal_euchre, act) -> None:
    """Option stick_the_dealer: the dealer's round-2 pass raises."""
    game = deal_euchre(stick_the_dealer=True, up_card="9H")
    act(game, *["pass"] * 7)
    with pytest.raises(IllegalAction, match="Stick the dealer"):
        game.apply(0, Pass())


# --- going alone ----------------------------------------------------------------------------


def test_loners_partner_sits_out(deal_euchre, act) -> None:
    """The partner of a player going alone is shown as sitting out."""
    game = deal_euchre(up_card="9H")
    act(game, "order", "alone")
    assert game.view(0).sitting_out == 3


def test_loners_partner_plays_no_card(deal_euchre, act, play_out_hand) -> None:
    """The loner's partner plays to no trick, every trick has three cards."""
    game = deal_euchre(up_card="9H")
    act(game, "order", "alone")
    play_out_hand(game)
    assert all(len(seats) == 3 and 3 not in seats for seats in plays_of(game))


def test_trick_of_three_is_complete(deal_euchre, act) -> None:
    """With a loner a trick is complete after three cards and its winner leads."""
    game = deal_euchre(hands={1: TOP_TRUMPS}, up_card="9H")
    act(game, "order", "alone", "discard 9H")
    for _ in range(3):
        act(game, f"play {game.legal_actions(game.turn)[0].card}")
    assert (len(game.view(None).tricks), game.view(None).tricks[0].winner, game.turn) == (1, 1, 1)


def test_player_left_of_the_loner_leads(deal_euchre, act) -> None:
    """With a loner the player on the loner's left leads, not eldest."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "pass", "order", "alone", "discard 9H")
    assert (game.alone, game.turn) == (3, 0)


def test_dealer_does_not_pick_up_when_partner_goes_alone(deal_euchre, act) -> None:
    """The dealer's partner going alone: the dealer sits out and does not pick up."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "order", "alone")
    assert (game.phase, NINE_OF_HEARTS in game.hand_of(0), game.zones()["up-card"]) == (
        Phase.PLAY,
        False,
        NINE_OF_HEARTS.mask,
    )


def test_dealers_partner_alone_is_led_to_by_the_dealers_right(deal_euchre, act) -> None:
    """The dealer's partner going alone: the player on the loner's left leads."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "order", "alone")
    assert game.turn == 3


def test_dealer_going_alone_picks_up(deal_euchre, act) -> None:
    """A dealer who takes it up and goes alone still adds the up-card and discards."""
    game = deal_euchre(up_card="9H")
    act(game, "pass", "pass", "pass", "take", "alone")
    assert (game.phase, game.turn, NINE_OF_HEARTS in game.hand_of(0)) == (
        Phase.DISCARD,
        0,
        True,
    )


# --- scoring whole hands -----------------------------------------------------------------------


def test_march_alone_scores_four(deal_euchre, act, play_out_hand) -> None:
    """A loner who takes all five tricks scores 4."""
    game = deal_euchre(hands={1: TOP_TRUMPS}, up_card="9H")
    act(game, "order", "alone")
    play_out_hand(game)
    result = game.hand_results[-1]
    assert (result.tricks[1], result.points) == (5, (0, 4))


def test_march_scores_two(deal_euchre, act, play_out_hand) -> None:
    """Makers who take all five tricks with a partner score 2."""
    game = deal_euchre(hands={1: TOP_TRUMPS}, up_card="9H")
    act(game, "order", "pass")
    play_out_hand(game)
    result = game.hand_results[-1]
    assert (result.tricks[1] + result.tricks[3], result.points) == (5, (0, 2))


def test_makers_taking_three_tricks_score_one(deal_euchre, act, play_out_hand) -> None:
    """Makers who take three tricks score 1."""
    game = deal_euchre(hands=THREE_TRICKS, up_card="9H")
    act(game, "order", "pass")
    play_out_hand(game)
    result = game.hand_results[-1]
    assert (result.tricks[1] + result.tricks[3], result.points) == (3, (0, 1))


def test_euchred_makers_give_the_defenders_two(deal_euchre, act, play_out_hand) -> None:
    """Makers who take fewer than three tricks are euchred: the defenders score 2."""
    game = deal_euchre(hands=EUCHRED, up_card="9H")
    act(game, "order", "pass")
    play_out_hand(game)
    result = game.hand_results[-1]
    assert (result.tricks[1] + result.tricks[3] < 3, result.points) == (True, (2, 0))


def test_euchred_loner_gives_the_defenders_two(deal_euchre, act, play_out_hand) -> None:
    """A euchred loner also gives the defenders 2."""
    game = deal_euchre(hands=EUCHRED, up_card="9H")
    act(game, "order", "alone")
    play_out_hand(game)
    result = game.hand_results[-1]
    assert (result.tricks[1] < 3, result.points) == (True, (2, 0))


def test_game_is_to_ten(deal_euchre) -> None:
    """A game of Euchre is won at 10 points."""
    assert deal_euchre(up_card="9H").options.target == 10
