"""Tuque (RULES.md §1), one rule per test, each on an explicit deal.

Unless a test says otherwise seat 1 deals, so seat 0 bids first and leads the first
trick. "pass, pass, name H" makes hearts trump in round 2 (the up-card is then never
a heart), which leaves the dealer's hand alone.
"""

from __future__ import annotations

import pytest

from engine.actions import Discard, NameTrump, OrderUp, Pass, Play, TakeUp
from engine.cards import Card, Suit, parse_cards
from engine.errors import CardNotPlayable, IllegalAction, MustFollowSuit, TurnedDownSuit
from engine.view import Phase, TableauPile

HEARTS_IN_ROUND_2 = ("pass", "pass", "name H")


def playable(game, seat: int) -> set[str]:
    """The codes of the cards ``seat`` may play now."""
    return {a.card.code for a in game.legal_actions(seat) if isinstance(a, Play)}


def codes(text: str) -> set[str]:
    """The set of card codes in ``text`` (``10H`` normalised to ``TH``)."""
    return {c.code for c in parse_cards(text)}


def discardable(game, seat: int) -> set[str]:
    """The codes of the cards ``seat`` may discard now."""
    return {a.card.code for a in game.legal_actions(seat) if isinstance(a, Discard)}


# --- the Left Bower and the trump order --------------------------------------------------


def test_left_bower_does_not_oblige_following_its_printed_suit(deal_tuque, act) -> None:
    """Hearts trump: a player whose only diamond is the J♦ may play anything to a diamond lead."""
    game = deal_tuque(
        hands={0: "AD", 1: "JD 6S 7S 8S 9S TS QS"},
        up={1: "KS AS 6H 7H 8H"},
        up_card="KC",
    )
    act(game, *HEARTS_IN_ROUND_2, "play AD")
    assert playable(game, 1) == codes("JD 6S 7S 8S 9S TS QS KS AS 6H 7H 8H")


def test_left_bower_cannot_follow_its_printed_suit(deal_tuque, act) -> None:
    """Hearts trump: holding the J♦ and the 7♦, a player follows a diamond lead with the 7♦ only."""
    game = deal_tuque(
        hands={0: "AD", 1: "JD 7D 6S 7S 8S 9S TS"},
        up={1: "QS KS AS 6H 7H"},
        up_card="KC",
    )
    act(game, *HEARTS_IN_ROUND_2, "play AD")
    assert playable(game, 1) == {"7D"}


def test_playing_left_bower_to_its_printed_suit_is_refused(deal_tuque, act) -> None:
    """Hearts trump: playing the J♦ to a diamond lead while holding the 7♦ raises MustFollowSuit."""
    game = deal_tuque(
        hands={0: "AD", 1: "JD 7D 6S 7S 8S 9S TS"},
        up={1: "QS KS AS 6H 7H"},
        up_card="KC",
    )
    act(game, *HEARTS_IN_ROUND_2, "play AD")
    with pytest.raises(MustFollowSuit):
        game.apply(1, Play(Card.parse("JD")))


def test_left_bower_must_follow_a_trump_lead_when_it_is_the_only_trump(deal_tuque, act) -> None:
    """Hearts trump: a player whose only trump is the J♦ must play it to a heart lead."""
    game = deal_tuque(
        hands={0: "AH", 1: "JD 7D 6S 7S 8S 9S TS"},
        up={1: "QS KS AS 6C 7C"},
        up_card="KC",
    )
    act(game, *HEARTS_IN_ROUND_2, "play AH")
    assert playable(game, 1) == {"JD"}


def test_led_left_bower_is_a_trump_lead(deal_tuque, act) -> None:
    """Hearts trump: the J♦ led calls for hearts, not diamonds."""
    game = deal_tuque(
        hands={0: "JD", 1: "6H 7D 8D 9D TD QD KD"},
        up={1: "6S 7S 8S 9S TS"},
        up_card="KC",
    )
    act(game, *HEARTS_IN_ROUND_2, "play JD")
    assert playable(game, 1) == {"6H"}


def test_led_ben_is_a_trump_lead(deal_tuque, act) -> None:
    """Hearts trump: a Ben led calls for hearts."""
    game = deal_tuque(
        hands={0: "B1", 1: "6H 7D 8D 9D TD QD KD"},
        up={1: "6S 7S 8S 9S TS"},
        up_card="KC",
    )
    act(game, *HEARTS_IN_ROUND_2, "play B1")
    assert playable(game, 1) == {"6H"}


# Seat 1's other cards: no clubs, no hearts, no Ben, no J♦ (so it follows with ``follow``).
_FILLER = [c.code for c in parse_cards("6D 7D 8D 9D TD QD KD AD 6S 7S 8S 9S TS QS KS AS")]


@pytest.mark.parametrize(
    ("lead", "follow", "winner"),
    [
        pytest.param("B2", "B3", 1, id="Best Ben beats Big Ben"),
        pytest.param("B2", "B1", 0, id="Big Ben beats Little Ben"),
        pytest.param("JH", "B1", 1, id="Little Ben beats the Right Bower"),
        pytest.param("JD", "JH", 1, id="Right Bower beats Left Bower"),
        pytest.param("AH", "JD", 1, id="Left Bower beats the ace of trumps"),
        pytest.param("KH", "AH", 1, id="ace of trumps beats king of trumps"),
        pytest.param("AC", "6H", 1, id="the lowest trump beats the led ace"),
        pytest.param("6C", "AS", 0, id="an off-suit ace cannot win"),
        pytest.param("TC", "JC", 1, id="a jack of a plain suit ranks between queen and ten"),
        pytest.param("KD", "AD", 1, id="the ace wins a plain suit"),
    ],
)
def test_trick_winner_under_hearts_trump(deal_tuque, act, lead, follow, winner) -> None:
    """B3 > B2 > B1 > Right > Left > A K Q ... of trumps; then the led suit's highest card."""
    others = [c for c in _FILLER if c not in (lead, follow)][:11]
    game = deal_tuque(
        hands={0: lead, 1: [follow, *others[:6]]},
        up={1: others[6:]},
        up_card="8C",
    )
    act(game, *HEARTS_IN_ROUND_2, f"play {lead}", f"play {follow}")
    assert game.view(0).tricks[0].winner == winner


# --- round 1: accepting the up-card ----------------------------------------------------------


def test_non_dealer_may_pass_or_order_it_up(deal_tuque) -> None:
    """Round 1: the non-dealer passes or orders the up-card's suit up, naming nothing."""
    game = deal_tuque(up_card="9H")
    assert game.legal_actions(0) == (Pass(), OrderUp())


def test_dealer_may_take_it_up_or_pass(deal_tuque, act) -> None:
    """Round 1: after the non-dealer passes, the dealer takes it up or passes."""
    game = deal_tuque(up_card="9H")
    act(game, "pass")
    assert game.legal_actions(1) == (Pass(), TakeUp())


def test_ordering_up_makes_the_up_cards_suit_trump(deal_tuque, act) -> None:
    """Ordering it up makes the up-card's suit trump, with the non-dealer as maker."""
    game = deal_tuque(up_card="9H")
    act(game, "order")
    assert (game.trump, game.maker) == (Suit.HEARTS, 0)


def test_dealer_adds_the_up_card_and_must_discard(deal_tuque, act) -> None:
    """Once the up-card is accepted the dealer holds it and is the one to discard."""
    game = deal_tuque(up_card="9H")
    act(game, "order")
    assert (game.phase, game.turn, Card.parse("9H") in game.hand_of(1)) == (
        Phase.DISCARD,
        1,
        True,
    )


def test_dealer_passing_turns_the_up_card_down(deal_tuque, act) -> None:
    """Both passing in round 1 turns the up-card down and starts round 2 with the non-dealer."""
    game = deal_tuque(up_card="9H")
    act(game, "pass", "pass")
    view = game.view(0)
    assert (view.phase, view.up_card_turned_down, view.turn) == (Phase.BIDDING_2, True, 0)


# --- a Ben turned up ----------------------------------------------------------------------


def test_ben_up_card_lets_the_non_dealer_order_up_naming_any_suit(deal_tuque) -> None:
    """A Ben turned up: the non-dealer may pass or accept it naming any of the four suits."""
    game = deal_tuque(up_card="B2")
    assert game.legal_actions(0) == (Pass(), *(OrderUp(s) for s in Suit))


def test_ben_up_card_lets_the_dealer_take_it_naming_any_suit(deal_tuque, act) -> None:
    """A Ben turned up: the dealer may pass or take it naming any of the four suits."""
    game = deal_tuque(up_card="B2")
    act(game, "pass")
    assert game.legal_actions(1) == (Pass(), *(TakeUp(s) for s in Suit))


def test_accepting_a_ben_names_trump(deal_tuque, act) -> None:
    """The player who accepts a turned Ben names the trump suit."""
    game = deal_tuque(up_card="B2")
    act(game, "order S")
    assert (game.trump, game.maker) == (Suit.SPADES, 0)


def test_dealer_picks_up_a_turned_ben(deal_tuque, act) -> None:
    """A Ben accepted by the non-dealer still goes to the dealer, who then discards."""
    game = deal_tuque(up_card="B2")
    act(game, "order S")
    assert (game.phase, Card.parse("B2") in game.hand_of(1)) == (Phase.DISCARD, True)


def test_dealer_taking_a_ben_picks_it_up(deal_tuque, act) -> None:
    """The dealer who takes a turned Ben names trump, adds the Ben and discards."""
    game = deal_tuque(up_card="B2")
    act(game, "pass", "take D")
    assert (game.trump, game.phase, Card.parse("B2") in game.hand_of(1)) == (
        Suit.DIAMONDS,
        Phase.DISCARD,
        True,
    )


def test_plain_order_is_refused_when_a_ben_is_up(deal_tuque) -> None:
    """With a Ben up, accepting without naming a suit is refused."""
    game = deal_tuque(up_card="B2")
    with pytest.raises(IllegalAction, match="Ben"):
        game.apply(0, OrderUp())


def test_naming_a_suit_is_refused_when_a_plain_card_is_up(deal_tuque) -> None:
    """With a plain card up, round 1 accepts only the up-card's suit."""
    game = deal_tuque(up_card="9H")
    with pytest.raises(IllegalAction):
        game.apply(0, OrderUp(Suit.SPADES))


# --- round 2 and stick the dealer -----------------------------------------------------------


def test_round_two_offers_every_suit_but_the_turned_down_one(deal_tuque, act) -> None:
    """Round 2: the non-dealer may pass or name clubs, diamonds or spades after a heart is up."""
    game = deal_tuque(up_card="9H")
    act(game, "pass", "pass")
    assert game.legal_actions(0) == (Pass(), *(NameTrump(Suit(s)) for s in "CDS"))


def test_round_two_refuses_the_turned_down_suit(deal_tuque, act) -> None:
    """Round 2: naming the turned-down suit raises TurnedDownSuit."""
    game = deal_tuque(up_card="9H")
    act(game, "pass", "pass")
    with pytest.raises(TurnedDownSuit, match="Hearts were turned down"):
        game.apply(0, NameTrump(Suit.HEARTS))


def test_round_two_after_a_ben_allows_all_four_suits(deal_tuque, act) -> None:
    """Ruling: after a turned-down Ben any of the four suits may be named."""
    game = deal_tuque(up_card="B2")
    act(game, "pass", "pass")
    assert game.legal_actions(0) == (Pass(), *(NameTrump(s) for s in Suit))


def test_dealer_cannot_pass_in_round_two(deal_tuque, act) -> None:
    """Stick the dealer: after three passes the dealer must name a suit."""
    game = deal_tuque(up_card="9H")
    act(game, "pass", "pass", "pass")
    assert game.legal_actions(1) == tuple(NameTrump(Suit(s)) for s in "CDS")


def test_dealer_passing_in_round_two_is_refused(deal_tuque, act) -> None:
    """Stick the dealer: the dealer's pass in round 2 raises, naming the rule."""
    game = deal_tuque(up_card="9H")
    act(game, "pass", "pass", "pass")
    with pytest.raises(IllegalAction, match="Stick the dealer"):
        game.apply(1, Pass())


def test_nobody_picks_up_in_round_two(deal_tuque, act) -> None:
    """Trump named in round 2: the dealer keeps 7 cards in hand and play starts at once."""
    game = deal_tuque(up_card="9H")
    act(game, "pass", "pass", "pass", "name S")
    assert (game.phase, len(game.hand_of(1)), game.zones()["up-card"]) == (
        Phase.PLAY,
        7,
        Card.parse("9H").mask,
    )


# --- the dealer's discard --------------------------------------------------------------------


def test_dealer_may_discard_any_hand_card_including_the_up_card(deal_tuque, act) -> None:
    """Ruling: the discard is any card of the dealer's hand, the up-card included."""
    game = deal_tuque(hands={1: "6C 7C 8C 9C TC JC QC"}, up={1: "6S 7S 8S 9S TS"}, up_card="9H")
    act(game, "order")
    assert discardable(game, 1) == codes("6C 7C 8C 9C TC JC QC 9H")


def test_dealer_cannot_discard_a_tableau_card(deal_tuque, act) -> None:
    """Ruling: a face-up tableau card is never discarded."""
    game = deal_tuque(hands={1: "6C 7C 8C 9C TC JC QC"}, up={1: "6S 7S 8S 9S TS"}, up_card="9H")
    act(game, "order")
    with pytest.raises(CardNotPlayable):
        game.apply(1, Discard(Card.parse("6S")))


def test_dealer_may_discard_the_up_card(deal_tuque, act) -> None:
    """The dealer may discard the up-card itself: it goes to the discard."""
    game = deal_tuque(up_card="9H")
    act(game, "order", "discard 9H")
    assert game.zones()["discard"] == Card.parse("9H").mask


def test_discarded_card_leaves_the_dealers_hand(deal_tuque, act) -> None:
    """After the discard the dealer holds 7 cards again, the discard not among them."""
    game = deal_tuque(hands={1: "6C 7C 8C 9C TC JC QC"}, up_card="9H")
    act(game, "order", "discard QC")
    assert [c.code for c in game.hand_of(1)] == ["6C", "7C", "8C", "9C", "TC", "JC", "9H"]


def test_discarded_card_is_never_played(deal_tuque, act, play_out_hand) -> None:
    """The discard stays out of play to the end of the hand."""
    game = deal_tuque(hands={1: "6C 7C 8C 9C TC JC QC"}, up_card="9H")
    act(game, "order", "discard QC")
    play_out_hand(game)
    played = {c for trick in game.view(None).tricks for _, c in trick.plays}
    assert (Card.parse("QC") in played, len(played)) == (False, 34)


def test_only_the_dealer_sees_the_discard(deal_tuque, act) -> None:
    """The discard shows in the dealer's view only, not the opponent's nor the public one."""
    game = deal_tuque(up_card="9H")
    act(game, "order", "discard 9H")
    assert [game.view(s).discard for s in (0, 1, None)] == [None, Card.parse("9H"), None]


# --- play and the tableau ----------------------------------------------------------------------


def test_non_dealer_leads_the_first_trick(deal_tuque, act) -> None:
    """The non-dealer leads the first trick, even when the dealer made trump."""
    game = deal_tuque(up_card="9H")
    act(game, "pass", "take", "discard 9H")
    assert (game.phase, game.turn) == (Phase.PLAY, 0)


def test_trick_winner_leads_the_next_trick(deal_tuque, act) -> None:
    """The winner of a trick leads the next one."""
    game = deal_tuque(hands={0: "6S", 1: "AS"}, up_card="8C")
    act(game, *HEARTS_IN_ROUND_2, "play 6S", "play AS")
    assert game.turn == 1


def test_face_up_tableau_cards_are_playable(deal_tuque, act) -> None:
    """A player may play any face-up card of their tableau as well as their hand."""
    game = deal_tuque(hands={0: "6C 7C 8C 9C TC JC QC"}, up={0: "6S 7S 8S 9S TS"}, up_card="KC")
    act(game, *HEARTS_IN_ROUND_2)
    assert playable(game, 0) == codes("6C 7C 8C 9C TC JC QC 6S 7S 8S 9S TS")


def test_face_down_tableau_card_is_not_playable(deal_tuque, act) -> None:
    """A face-down tableau card cannot be played, not even by its owner."""
    game = deal_tuque(down={0: "AS"}, up_card="KC")
    act(game, *HEARTS_IN_ROUND_2)
    with pytest.raises(CardNotPlayable):
        game.apply(0, Play(Card.parse("AS")))


def test_following_suit_counts_face_up_tableau_cards(deal_tuque, act) -> None:
    """A player whose only club is face-up on the tableau must play it to a club lead."""
    game = deal_tuque(
        hands={0: "AC", 1: "6D 7D 8D 9D TD QD KD"},
        up={1: "6C 6S 7S 8S 9S"},
        up_card="KS",
    )
    act(game, *HEARTS_IN_ROUND_2, "play AC")
    assert playable(game, 1) == {"6C"}


def test_following_suit_allows_hand_or_tableau(deal_tuque, act) -> None:
    """Clubs in hand and on the tableau: either may follow a club lead, nothing else."""
    game = deal_tuque(
        hands={0: "AC", 1: "7C 7D 8D 9D TD QD KD"},
        up={1: "6C 6S 7S 8S 9S"},
        up_card="KS",
    )
    act(game, *HEARTS_IN_ROUND_2, "play AC")
    assert playable(game, 1) == {"6C", "7C"}


def test_played_tableau_card_leaves_its_pile(deal_tuque, act) -> None:
    """Playing a face-up card empties the pile's top; the hand is untouched."""
    game = deal_tuque(up={0: "6S 7S 8S 9S TS"}, down={0: "AS"}, up_card="KC")
    act(game, *HEARTS_IN_ROUND_2, "play 6S")
    assert (game.view(0).tableaus[0][0], len(game.hand_of(0))) == (TableauPile(None, True), 7)


@pytest.mark.parametrize("viewer", [0, 1, None], ids=["owner", "opponent", "public"])
def test_face_down_card_stays_hidden_during_the_trick(deal_tuque, act, viewer) -> None:
    """The card under a played tableau card is not turned up while the trick is in play."""
    game = deal_tuque(up={0: "6S 7S 8S 9S TS"}, down={0: "AS"}, up_card="KC")
    act(game, *HEARTS_IN_ROUND_2, "play 6S")
    assert game.view(viewer).tableaus[0][0] == TableauPile(up=None, face_down=True)


@pytest.mark.parametrize("viewer", [0, 1, None], ids=["owner", "opponent", "public"])
def test_face_down_card_turns_up_after_the_trick(deal_tuque, act, viewer) -> None:
    """Once the trick is complete the card beneath is face up for everyone."""
    game = deal_tuque(
        hands={1: "6D 7D 8D 9D TD QD KD"},
        up={0: "KS 7S 8S 9S TS", 1: "6C 7C 8C 9C TC"},
        down={0: "AS"},
        up_card="KC",
    )
    act(game, *HEARTS_IN_ROUND_2, "play KS", "play 6D")
    assert game.view(viewer).tableaus[0][0] == TableauPile(up=Card.parse("AS"), face_down=False)


def test_turned_up_card_is_playable(deal_tuque, act) -> None:
    """A card turned up after the trick may be played in the next one."""
    game = deal_tuque(
        hands={1: "6D 7D 8D 9D TD QD KD"},
        up={0: "KS 7S 8S 9S TS", 1: "6C 7C 8C 9C TC"},
        down={0: "AS"},
        up_card="KC",
    )
    act(game, *HEARTS_IN_ROUND_2, "play KS", "play 6D")
    assert (game.turn, "AS" in playable(game, 0)) == (0, True)


def test_a_hand_is_seventeen_tricks(deal_tuque, act, play_out_hand) -> None:
    """Every card dealt to the players is played: 17 tricks."""
    game = deal_tuque(up_card="9H")
    act(game, "order", "discard 9H")
    play_out_hand(game)
    assert sum(game.hand_results[-1].tricks) == 17


def test_dealer_alternates(deal_tuque, act, play_out_hand) -> None:
    """The deal alternates between the two players."""
    game = deal_tuque(dealer=1, up_card="9H")
    act(game, "order", "discard 9H")
    play_out_hand(game)
    game.deal()
    assert game.dealer == 0


def test_both_players_see_the_up_card(deal_tuque) -> None:
    """The up-card is public: both players and spectators see it."""
    game = deal_tuque(up_card="9H")
    assert {game.view(s).up_card for s in (0, 1, None)} == {Card.parse("9H")}
