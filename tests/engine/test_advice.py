"""A hint's words (engine/advice.py, issue 21): reasons true of the position, certainty in words.

Euchre deals here are dealt by seat 0 with the 9♥ turned up, so seat 1 is eldest;
seats 0 and 2 are one side, seats 1 and 3 the other (RULES.md §3).
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import (
    Ask,
    Bid,
    CallCard,
    CallSuit,
    Discard,
    Give,
    GoAlone,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    TakeUp,
    TurnDown,
)
from engine.advice import certainty, hint_text, reason
from engine.cards import Card, Rank, Suit
from engine.game import Game
from engine.view import Phase, PlayerView
from engine.wording import joker_name

CONFIGS = {
    "tuque": ("tuque", {"target": 5}),
    "tuque61": ("tuque61", {}),
    "euchre": ("euchre", {}),
    "euchre, stick the dealer": ("euchre", {"stick_the_dealer": True}),
    "british": ("british", {}),
    "three_hand": ("three_hand", {"target": 5}),
    "three_hand, 24 cards": ("three_hand", {"pack": 24, "target": 5}),
    "two_hand": ("two_hand", {"target": 5}),
    "six_hand": ("six_hand", {}),
    "six_hand, double pack": ("six_hand", {"double_pack": True}),
    "almonte": ("almonte", {}),
    "almonte, dealer must make": ("almonte", {"dealer_must_make": True}),
    "call_ace": ("call_ace", {}),
    "call_ace for 6": ("call_ace", {"players": 6}),
    "jackpot": ("jackpot", {}),
    "auction": ("auction", {}),
    "auction, 32 cards": ("auction", {"pack": 32}),
}

# A card as the words write it: 10♥, A♠', 🃏3.
_CARD = re.compile(r"(?<![\w'])(?:(10|[6-9JQKA])([♣♦♥♠])('?)|🃏([1-3]))(?![\w'])")
_SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def seat_view(game: Game) -> PlayerView:
    """The view of the seat to act."""
    assert game.turn is not None
    return game.view(game.turn)


def play(game: Game, card: str) -> str:
    """The reason for the seat to act playing ``card``."""
    view = seat_view(game)
    action = Play(Card.parse(card))
    assert action in view.legal_actions
    return reason(view, action)


# Seat 1 orders hearts up, the dealer discards the 9♦: seat 1 leads the first trick.
DEALER = "9D TD QD KD AD"
MAKER = "JH JD AH AC KC"


@pytest.fixture
def trumped(deal_euchre, act) -> Game:
    """Seat 1 leads the A♣; seat 2 has no club but a trump."""
    hands = {0: DEALER, 1: MAKER, 2: "TH KS QS JS AS", 3: "9C TC JC 9S TS"}
    game = deal_euchre(hands=hands, up_card="9H")
    act(game, "order", "pass", "discard 9D")
    return game


# --- play --------------------------------------------------------------------------------


def test_leading_the_right_bower_draws_trump(trumped) -> None:
    """The Right Bower led with hearts trump: the highest trump left, drawing trump."""
    assert play(trumped, "JH") == "leads the Right Bower, the highest trump left, to draw trump"


def test_leading_the_left_bower_under_your_own_right(trumped) -> None:
    """With the Right Bower in hand, nobody else can beat the Left Bower."""
    assert play(trumped, "JD") == "leads the Left Bower to draw trump: nobody else can beat it"


def test_leading_an_off_suit_ace(trumped) -> None:
    """An ace of a plain suit is its highest card left, and only a trump beats it."""
    assert play(trumped, "AC") == "leads the highest club left: it wins unless trumped"


def test_no_card_of_the_led_suit_and_a_trump_trumps_in(trumped, act) -> None:
    """Seat 2 holds no club: its trump takes the A♣ (RULES.md "Trick winner")."""
    act(trumped, "play AC")
    assert play(trumped, "TH") == "trumps in: you have no clubs"
    assert play(trumped, "KS") == "throws off instead of trumping, keeping your trumps"


def test_following_under_a_trump_that_holds_the_trick(trumped, act) -> None:
    """Seat 3 can only follow clubs under the 10♥ that holds the trick."""
    act(trumped, "play AC", "play TH")
    assert play(trumped, "9C") == "follows suit low: nothing you hold beats the 10♥"


def test_a_card_that_cannot_win_under_a_partners_trick_is_thrown_off(deal_euchre, act) -> None:
    """Partner's A♣ holds the trick: seat 3, void in clubs, throws off its lowest card."""
    hands = {0: DEALER, 1: MAKER, 2: "9C KS QS JS AS", 3: "9S TS TH QH KH"}
    game = deal_euchre(hands=hands, up_card="9H")
    act(game, "order", "pass", "discard 9D", "play AC", "play 9C")
    assert play(game, "9S") == "throws off your lowest card: the trick is your partner's"
    assert play(game, "TS") == "throws off a spade: the trick is your partner's"
    assert play(game, "TH") == (
        "takes the trick over from your partner, so the players after you must beat it"
    )


def test_the_lowest_card_that_wins(deal_euchre, act) -> None:
    """After the 9♣ is led, the 10♣ is the cheapest card that takes the trick."""
    hands = {0: DEALER, 1: "JH JD AH 9C KC", 2: "TC QC AC KS QS", 3: "9S TS JS AS JC"}
    game = deal_euchre(hands=hands, up_card="9H")
    act(game, "order", "pass", "discard 9D", "play 9C")
    assert play(game, "TC") == "takes the trick from an opponent with the lowest card that wins it"
    assert play(game, "AC") == (
        "takes the trick from an opponent with a high card: the players after you must beat it"
    )


def test_playing_last_takes_the_trick(deal_euchre, act) -> None:
    """The dealer plays last: the lowest card that wins takes the trick for sure."""
    hands = {0: "TD QD KD AD QC", 1: "JH JD AH 9C KC", 2: "TC KS QS JS AS", 3: "9S TS JC TH QH"}
    game = deal_euchre(hands=hands, up_card="9H")
    act(game, "order", "pass", "discard TD", "play 9C", "play TC", "play JC")
    assert play(game, "QC") == "takes the trick from an opponent: you play last"


def test_a_tableau_card_on_a_face_down_card_uncovers_it(deal_tuque, act) -> None:
    """Tuque (RULES.md §1): playing a face-up tableau card turns up the card beneath."""
    game = deal_tuque(
        dealer=1,
        hands={1: "6C 7C 8C 9C TC JC QC"},
        up={0: "AS KS 6D 7D 8D"},
        down={0: "6H 7H 8H 9H TH"},
        up_card="6S",
    )
    act(game, "order", "discard 6C")
    words = play(game, "8D")
    assert words.endswith("; it also uncovers a face-down card of your tableau")


# --- bidding and the other decisions -----------------------------------------------------


def test_ordering_up_counts_the_trumps_and_the_left_bower(deal_euchre) -> None:
    """Hearts trump: the J♦ is the Left Bower; the A♣ an ace outside trump."""
    game = deal_euchre(hands={1: "JD AH KH AC 9S"}, up_card="9H")
    assert reason(seat_view(game), OrderUp()) == (
        "orders up: three trumps with the Left Bower, plus an off-suit ace; "
        "the dealer, an opponent, adds the 9♥"
    )


def test_passing_a_weak_hand(deal_euchre) -> None:
    """No heart and no bower: too weak to make hearts trump."""
    game = deal_euchre(hands={1: "9C TC 9S TS QD"}, up_card="9H")
    assert reason(seat_view(game), Pass()) == "passes: too weak to make hearts trump (no trump)"


def test_the_dealer_counts_the_up_card_it_takes(deal_euchre, act) -> None:
    """Taking it up adds the up-card to the dealer's trumps."""
    game = deal_euchre(hands={0: "JH AH 9C TC 9S"}, up_card="9H")
    act(game, "pass", "pass", "pass")
    assert reason(seat_view(game), TakeUp()) == (
        "takes it up: with the up-card you hold three trumps with the Right Bower"
    )


def test_naming_the_strongest_suit_in_round_two(deal_euchre, act) -> None:
    """Round 2: spades, with both black jacks, is the seat's strongest suit."""
    game = deal_euchre(hands={1: "JS JC AS 9D TD"}, up_card="9H")
    act(game, "pass", "pass", "pass", "pass")
    assert reason(seat_view(game), NameTrump(Suit.SPADES)) == (
        "names spades, your strongest suit: three trumps with the Right Bower and the Left Bower"
    )


def test_going_alone_says_what_a_march_alone_scores(deal_euchre, act) -> None:
    """RULES.md §3 Scoring: a march alone scores 4, with a partner 2."""
    game = deal_euchre(hands={1: "JH JD AH KH QH"}, up_card="9H")
    act(game, "order")
    assert seat_view(game).phase is Phase.GOING_ALONE
    assert reason(seat_view(game), GoAlone()) == (
        "goes alone: five trumps with the Right Bower and the Left Bower; "
        "a march alone scores 4 instead of 2"
    )


def test_an_auction_bid_says_what_it_must_take(deal_game) -> None:
    """RULES.md §7 Auction: a bid of 8 is alone after the widow, all five tricks."""
    game = deal_game("auction", dealer=0, hands={1: "JH JD AH KH AS"})
    words = reason(seat_view(game), Bid(8, Suit.HEARTS))
    assert words == (
        "bids on hearts, your strongest suit: four trumps with the Right Bower and the Left "
        "Bower, plus an off-suit ace; alone after taking the widow: you must take all five tricks"
    )


# --- certainty and the hint line ---------------------------------------------------------


def test_a_search_nearly_all_on_one_choice_is_clear() -> None:
    """90% of the search on one choice: a clear choice."""
    assert certainty({1: 0.9, 2: 0.1}, 1) == "a clear choice"


def test_an_even_search_is_a_close_call_naming_the_others() -> None:
    """A third each: a close call, naming the choices that did as well."""
    shares = {55: 0.34, 56: 0.33, 57: 0.33}
    labels = {55: "Play 10♥", 56: "Play J♥", 57: "Pass"}
    assert certainty(shares, 55, labels) == "a close call: Play J♥ and Pass did about as well"
    assert certainty(shares, 55) == "a close call"


@pytest.mark.parametrize(
    ("shares", "words"),
    [
        ({1: 0.55, 2: 0.3, 3: 0.15}, "the best choice by a fair margin"),
        ({1: 0.6, 2: 0.4}, "the best choice by a fair margin"),
        ({1: 0.45, 2: 0.35, 3: 0.2}, "a narrow choice: Pass came close"),
        ({1: 0.3, 2: 0.4, 3: 0.3}, "a close call: Pass and Play K♠ did about as well"),
        ({1: 1.0}, "a clear choice"),
    ],
)
def test_certainty_in_words(shares: dict[int, float], words: str) -> None:
    """The lead over the next choice decides the words, never a percentage."""
    assert certainty(shares, 1, {1: "Play 10♥", 2: "Pass", 3: "Play K♠"}) == words


def test_no_search_says_it_is_a_rule_of_thumb() -> None:
    """Where the hard level plays by the normal level's rule, the hint says so."""
    assert certainty({}, 0) == (
        "a rule of thumb: the hard computer decides this by rule, without thinking ahead"
    )


def test_the_hint_line_for_discord_and_for_a_plain_terminal() -> None:
    """Markdown and emoji on Discord; plain text, or ASCII only, on a terminal."""
    why, sure = "leads the Right Bower to draw trump", "a clear choice"
    assert hint_text("Play J♥", why, sure) == (
        "💡 **Hint:** Play J♥ — leads the Right Bower to draw trump. A clear choice."
    )
    assert hint_text("Play J♥", why, sure, markdown=False) == (
        "💡 Hint: Play J♥ — leads the Right Bower to draw trump. A clear choice."
    )
    assert hint_text("Play JH", why, sure, markdown=False, ascii_only=True) == (
        "Hint: Play JH - leads the Right Bower to draw trump. A clear choice."
    )


# --- every variant, every action -----------------------------------------------------------


def visible(view: PlayerView) -> set[Card]:
    """Every card ``view`` shows its seat (RULES.md §1 "What each player sees")."""
    cards = set(view.hand) | set(view.discards)
    cards |= {c for s in range(view.players) for c in view.face_up(s)}
    cards |= {c for t in (*view.tricks, view.trick) for _, c in t.plays}
    cards |= {c for c in (view.up_card, view.called_card) if c is not None}
    return cards


def named(text: str) -> set[Card]:
    """The cards ``text`` writes out (``10♥``, ``🃏2``)."""
    cards = set()
    for rank, suit, prime, ben in _CARD.findall(text):
        code = f"B{ben}" if ben else f"{rank.replace('10', 'T')}{_SUIT_LETTER[suit]}{prime}"
        cards.add(Card.parse(code))
    return cards


def check_reasons(game: Game) -> None:
    """Each legal action of the seat to act has words that name no card hidden from it."""
    view = seat_view(game)
    seen = visible(view)
    jacks_seen = any(c.rank is Rank.JACK for c in seen)
    for action in view.legal_actions:
        words = reason(view, action)
        assert words and words == words.strip(), (action, words)
        assert named(words) <= seen, (action, words)
        if "Bower" in words:
            assert jacks_seen, (action, words)
        for card in game.variant.pack:
            if card.is_ben and joker_name(game.variant, card) in words:
                assert card in seen, (action, words)


def walk(config: str, seed: int, steps: int, check: bool = True) -> set[tuple[Phase, str]]:
    """Play ``steps`` random steps of a seeded game, checking every decision's words;
    the (phase, action type) pairs met."""
    name, options = CONFIGS[config]
    game = Game(name, seed=seed, **options)
    rng = random.Random(seed)
    met: set[tuple[Phase, str]] = set()
    for _ in range(steps):
        if game.phase is Phase.GAME_OVER:
            break
        if game.turn is None:
            game.deal()
            continue
        legal = game.legal_actions(game.turn)
        met |= {(game.phase, type(a).__name__) for a in legal}
        if check:
            check_reasons(game)
        game.apply(game.turn, legal[rng.randrange(len(legal))])
    return met


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(CONFIGS)),
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=1, max_value=300),
)
def test_every_legal_action_of_random_positions_has_words(config, seed, steps) -> None:
    """Any variant, any position: words for every legal action, naming no hidden card."""
    walk(config, seed, steps)


def test_the_walks_meet_every_kind_of_decision() -> None:
    """The seeded walks reach every phase and action type of every variant, with words."""
    met: set[tuple[Phase, str]] = set()
    for config in CONFIGS:
        for seed in range(3):
            met |= walk(config, seed, 400)
    kinds = (
        {(Phase.BIDDING_1, t.__name__) for t in (Pass, OrderUp, TakeUp, TurnDown)}
        | {(Phase.BIDDING_2, t.__name__) for t in (Pass, NameTrump)}
        | {
            (Phase.DISCARD, Discard.__name__),
            (Phase.GOING_ALONE, "GoAlone"),
            (Phase.GOING_ALONE, "Pass"),
            (Phase.PLAY, "Play"),
            (Phase.BLIND_NAMING, "NameTrump"),
            (Phase.CARD_REQUEST, Ask.__name__),
            (Phase.CARD_REQUEST, "Pass"),
            (Phase.GIVING, Give.__name__),
            (Phase.CALLING, CallSuit.__name__),
            (Phase.CALLING, "GoAlone"),
            (Phase.CALLING, CallCard.__name__),
            (Phase.AUCTION, Bid.__name__),
            (Phase.AUCTION, "Pass"),
        }
    )
    assert kinds <= met, kinds - met


def test_jackpots_up_card_is_out_of_play(deal_game) -> None:
    """RULES.md §7 Jackpot: nobody takes the up-card, so the A♠ turned up threatens no
    king of trump; only the seat's own trumps rank above it."""
    game = deal_game("jackpot", dealer=0, hands={1: "B1 JS JC KS 9D"}, up_card="AS")
    assert play(game, "KS") == "leads a trump to draw trump: nobody else can beat it"


def test_calling_a_suit_whose_best_card_you_hold(deal_game, act) -> None:
    """RULES.md §7 Call-Ace: holding the Benny, calling trump makes the maker their own partner."""
    hands = {0: DEALER, 1: "B1 JH JD AH 9C"}
    game = deal_game("call_ace", dealer=0, hands=hands, up_card="9H")
    act(game, "order", "discard 9D")
    assert seat_view(game).phase is Phase.CALLING
    assert reason(seat_view(game), CallSuit(Suit.HEARTS)) == (
        "calls trump: you hold the highest trump, so you play as your own partner"
    )
    assert reason(seat_view(game), CallSuit(Suit.CLUBS)) == (
        "calls clubs: you lack its highest card, so whoever holds the best one dealt plays with you"
    )


def test_an_action_the_view_does_not_offer_has_no_words(trumped) -> None:
    """Only the view's own actions are explained; anything else gets no words."""
    assert reason(seat_view(trumped), Play(Card.parse("9S"))) == ""
    assert reason(trumped.view(None), Pass()) == ""
