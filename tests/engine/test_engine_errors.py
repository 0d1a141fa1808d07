"""Typed errors, their messages, and that a refused action changes nothing.

Each scenario builds a game on an explicit deal with the ``table`` fixture (seat 1
deals Tuque, seat 0 deals Euchre, the 9♥ is up), then tries one illegal action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from engine import errors
from engine.actions import Action, Discard, GoAlone, NameTrump, OrderUp, Pass, Play
from engine.cards import Card, Suit
from engine.errors import (
    CardNotPlayable,
    EngineError,
    GameOver,
    IllegalAction,
    MustFollowSuit,
    NotYourTurn,
    TurnedDownSuit,
    WrongPhase,
)
from engine.game import Game
from engine.view import Phase


def snapshot(game: Game) -> tuple:
    """Everything observable about a game: record, zones and every seat's view."""
    seats = [*range(game.variant.players), None]
    return game.to_record(), game.zones(), [game.view(s) for s in seats]


def finished_game() -> Game:
    """A Tuque game to 1 point, played to its end by always taking the first legal action."""
    game = Game("tuque", seed=3, target=1)
    while game.winner is None:
        if game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, game.legal_actions(game.turn)[0])
    return game


def hearts_led_to_seat_1(table) -> Game:
    """Tuque, hearts trump, the A♥ led; seat 1 holds the J♦ (Left Bower) and spades."""
    return table.tuque(
        "pass",
        "pass",
        "name H",
        "play AH",
        hands={0: "AH", 1: "JD 7D 6S 7S 8S 9S TS"},
        up={1: "QS KS AS 6C 7C"},
        up_card="KC",
    )


def diamonds_led_to_seat_1(table) -> Game:
    """Tuque, hearts trump, the A♦ led; seat 1 holds the J♦ (Left Bower) and the 7♦."""
    return table.tuque(
        "pass",
        "pass",
        "name H",
        "play AD",
        hands={0: "AD", 1: "JD 7D 6S 7S 8S 9S TS"},
        up={1: "QS KS AS 6H 7H"},
        up_card="KC",
    )


def euchre_hearts_led_to_seat_2(table) -> Game:
    """Euchre, hearts trump, the A♥ led by eldest; seat 2 holds the J♦ and spades."""
    return table.euchre(
        "order",
        "pass",
        "discard 9H",
        "play AH",
        hands={1: "AH 9C TC JC QC", 2: "JD 9D TD KS AS"},
        up_card="9H",
    )


@dataclass(frozen=True)
class Refusal:
    """One illegal action in one state, and the error it must raise."""

    build: Callable[[Any], Game]
    seat: int
    action: Action
    error: type[IllegalAction]
    message: str

    def __str__(self) -> str:
        return f"{self.action} by {self.seat}"


REFUSALS = {
    "bidding out of turn": Refusal(lambda t: t.tuque(), 1, Pass(), NotYourTurn, "not your turn"),
    "playing out of turn": Refusal(
        lambda t: t.tuque("order", "discard 9H"), 1, Play(Card.parse("9H")), NotYourTurn, "not your"
    ),
    "playing during bidding": Refusal(
        lambda t: t.tuque(hands={0: "AS"}),
        0,
        Play(Card.parse("AS")),
        WrongPhase,
        "can't play a card during the round 1 bidding",
    ),
    "acting before the deal": Refusal(
        lambda t: Game("tuque", seed=0), 0, Pass(), WrongPhase, "hasn't been dealt"
    ),
    "discarding during play": Refusal(
        lambda t: t.tuque("order", "discard 9H", hands={0: "AS"}),
        0,
        Discard(Card.parse("AS")),
        WrongPhase,
        "Only the dealer discards",
    ),
    "not following suit": Refusal(
        diamonds_led_to_seat_1, 1, Play(Card.parse("6S")), MustFollowSuit, "diamonds were led"
    ),
    "playing the opponent's card": Refusal(
        lambda t: t.tuque("pass", "pass", "name S", hands={1: "AS"}),
        0,
        Play(Card.parse("AS")),
        CardNotPlayable,
        "isn't in your hand",
    ),
    "playing a face-down tableau card": Refusal(
        lambda t: t.tuque("pass", "pass", "name S", down={0: "AS"}),
        0,
        Play(Card.parse("AS")),
        CardNotPlayable,
        "face-up on your tableau",
    ),
    "playing a card of another pack": Refusal(
        lambda t: t.euchre("order", "pass", "discard 9H"),
        1,
        Play(Card.parse("6C")),
        CardNotPlayable,
        "isn't in your hand",
    ),
    "discarding a tableau card": Refusal(
        lambda t: t.tuque("order", up={1: "6S"}),
        1,
        Discard(Card.parse("6S")),
        CardNotPlayable,
        "discard a card from your hand",
    ),
    "naming the turned-down suit": Refusal(
        lambda t: t.tuque("pass", "pass"),
        0,
        NameTrump(Suit.HEARTS),
        TurnedDownSuit,
        "Hearts were turned down",
    ),
    "naming a suit in round 1": Refusal(
        lambda t: t.tuque(), 0, NameTrump(Suit.SPADES), WrongPhase, "first round"
    ),
    "dealer ordering up": Refusal(
        lambda t: t.tuque("pass"), 1, OrderUp(), IllegalAction, "take it up"
    ),
    "going alone in Tuque": Refusal(
        lambda t: t.tuque(), 0, GoAlone(), IllegalAction, "Nobody goes alone in Tuque"
    ),
    "dealer passing in round 2 of Tuque": Refusal(
        lambda t: t.tuque("pass", "pass", "pass"), 1, Pass(), IllegalAction, "Stick the dealer"
    ),
    "acting after the game is over": Refusal(
        lambda t: finished_game(), 0, Pass(), GameOver, "The game is over"
    ),
}


@pytest.mark.parametrize("refusal", REFUSALS.values(), ids=REFUSALS.keys())
def test_refused_action_raises_its_typed_error(table, refusal: Refusal) -> None:
    """Each illegal action raises its own error class with a message saying why."""
    game = refusal.build(table)
    with pytest.raises(refusal.error, match=refusal.message):
        game.apply(refusal.seat, refusal.action)


@pytest.mark.parametrize("refusal", REFUSALS.values(), ids=REFUSALS.keys())
def test_refused_action_changes_nothing(table, refusal: Refusal) -> None:
    """After a refused action the record, the zones and every view are as before."""
    game = refusal.build(table)
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(refusal.seat, refusal.action)
    assert snapshot(game) == before


@pytest.mark.parametrize("refusal", REFUSALS.values(), ids=REFUSALS.keys())
def test_check_raises_what_apply_would(table, refusal: Refusal) -> None:
    """``check`` raises the same error, with the same message, as ``apply``."""
    game = refusal.build(table)
    with pytest.raises(IllegalAction) as checked:
        game.check(refusal.seat, refusal.action)
    with pytest.raises(IllegalAction) as applied:
        game.apply(refusal.seat, refusal.action)
    assert (type(checked.value), str(checked.value)) == (type(applied.value), str(applied.value))


@pytest.mark.parametrize("refusal", REFUSALS.values(), ids=REFUSALS.keys())
def test_refused_action_is_not_listed(table, refusal: Refusal) -> None:
    """No refused action appears among the seat's legal actions."""
    game = refusal.build(table)
    assert not game.is_legal(refusal.seat, refusal.action)


def test_every_engine_error_is_a_value_error() -> None:
    """Every error the engine raises is an EngineError, hence a ValueError."""
    classes = [getattr(errors, name) for name in errors.__all__]
    assert all(issubclass(cls, EngineError) and issubclass(cls, ValueError) for cls in classes)


def test_dealing_during_a_hand_is_refused(table) -> None:
    """A new deal while a hand is in progress raises WrongPhase and changes nothing."""
    game = table.tuque("order")
    before = snapshot(game)
    with pytest.raises(WrongPhase):
        game.deal()
    assert snapshot(game) == before


def test_dealing_after_the_game_is_refused() -> None:
    """No deal follows the end of the game."""
    game = finished_game()
    with pytest.raises(GameOver):
        game.deal()


def test_explicit_deal_must_be_the_whole_pack() -> None:
    """An explicit deal with a card missing or repeated is refused."""
    game = Game("euchre", seed=0)
    cards = [c for c in game.variant.pack]
    cards[0] = cards[1]
    with pytest.raises(EngineError, match="each card"):
        game.deal(cards)


def test_explicit_deal_must_not_hold_foreign_cards() -> None:
    """A Tuque pack is refused for a Euchre deal."""
    game = Game("euchre", seed=0)
    with pytest.raises(EngineError):
        game.deal(Game("tuque").variant.pack)


# --- MustFollowSuit messages ---------------------------------------------------------------------


def test_must_follow_suit_names_the_led_suit(table) -> None:
    """The message names the suit that was led."""
    game = diamonds_led_to_seat_1(table)
    with pytest.raises(MustFollowSuit, match="diamonds were led"):
        game.apply(1, Play(Card.parse("6S")))


def test_must_follow_suit_explains_the_left_bower_is_trump(table) -> None:
    """Playing the Left Bower to its printed suit: the message says it is a trump."""
    game = diamonds_led_to_seat_1(table)
    with pytest.raises(
        MustFollowSuit, match="J♦ is the Left Bower, a trump while hearts are trumps"
    ):
        game.apply(1, Play(Card.parse("JD")))


def test_must_follow_trump_mentions_left_bower_and_bens(table) -> None:
    """Not following a trump lead in Tuque: the message recalls the Left Bower and the Bens."""
    game = hearts_led_to_seat_1(table)
    with pytest.raises(MustFollowSuit) as refused:
        game.apply(1, Play(Card.parse("6S")))
    message = str(refused.value)
    assert [part in message for part in ("hearts were led", "Left Bower (J♦)", "Bens")] == [
        True,
        True,
        True,
    ]


def test_must_follow_a_trump_of_trumps_own_suit_is_not_the_left_bower(table) -> None:
    """Diamonds trump, spades led: the A♦ is a trump but not the Left Bower (only the
    J♥ is); the message says no more than that spades must be followed."""
    game = table.euchre(
        "order",
        "pass",
        "discard 9D",
        "play AS",
        up_card="9D",
        hands={1: "AS KH QH JH TH", 2: "AD KS QC JC TC"},
    )
    with pytest.raises(MustFollowSuit) as refused:
        game.apply(2, Play(Card.parse("AD")))
    assert str(refused.value) == "You must follow suit: spades were led and you can play one."


@pytest.mark.parametrize(
    ("variant", "actions", "name"),
    [
        ("british", ("order", "pass", "pass", "pass", "pass", "discard 9S"), "the Benny"),
        ("almonte", ("order", "pass", "discard 9S"), "Little Ben"),
        ("call_ace", ("order", "discard 9S", "call S"), "the Benny"),
    ],
)
def test_must_follow_names_the_joker_as_its_game_does(
    deal_game, act, variant: str, actions: tuple[str, ...], name: str
) -> None:
    """Spades trump, hearts led: the 🃏1 held back is named as its game names it."""
    game = deal_game(variant, up_card="9S", hands={1: "AH 9C TC QC KC", 2: "B1 KH 9D TD QD"})
    act(game, *actions, "play AH")
    with pytest.raises(MustFollowSuit, match=rf"The 🃏1 is {name}, a trump while spades"):
        game.apply(2, Play(Card.parse("B1")))


def test_must_follow_trump_in_british_euchre_recalls_the_benny(deal_game, act) -> None:
    """Spades trump led: "The Benny and the Left Bower (J♣) count as spades"."""
    game = deal_game("british", up_card="9S", hands={1: "AS 9C TC QC KC", 2: "B1 KH 9D TD QD"})
    act(game, "order", "pass", "pass", "pass", "pass", "discard 9S", "play AS")
    with pytest.raises(MustFollowSuit, match=r"The Benny and the Left Bower \(J♣\) count as"):
        game.apply(2, Play(Card.parse("KH")))


def test_must_follow_claims_the_left_bower_for_its_jack_only() -> None:
    """Every refused card of many random games: the message calls a card the Left Bower
    exactly when it is the jack of trump's colour that is not trump's own."""
    import random

    checked = 0
    for variant in ("euchre", "british", "tuque", "six_hand", "call_ace"):
        for seed in range(15):
            rng = random.Random(seed)
            game = Game(variant, seed=seed)
            while game.phase is not Phase.GAME_OVER and game.hand_no < 4:
                if game.turn is None:
                    game.deal()
                    continue
                seat = game.turn
                legal = game.legal_actions(seat)
                if game.phase is Phase.PLAY and game.trump is not None:
                    left = Card.parse("J" + game.trump.partner.value)
                    for card in game.view(seat).hand:
                        if Play(card) in legal:
                            continue
                        with pytest.raises(MustFollowSuit) as refused:
                            game.check(seat, Play(card))
                        assert ("Left Bower, a trump" in str(refused.value)) == (card == left)
                        checked += 1
                game.apply(seat, rng.choice(legal))
    assert checked > 200


def test_must_follow_trump_in_euchre_mentions_the_left_bower(table) -> None:
    """Not following a trump lead in Euchre: the message recalls the Left Bower."""
    game = euchre_hearts_led_to_seat_2(table)
    with pytest.raises(MustFollowSuit, match=r"Left Bower \(J♦\)"):
        game.apply(2, Play(Card.parse("KS")))


def test_must_follow_trump_in_euchre_does_not_mention_bens(table) -> None:
    """Euchre's pack has no joker: the message must not speak of Bens."""
    game = euchre_hearts_led_to_seat_2(table)
    with pytest.raises(MustFollowSuit) as refused:
        game.apply(2, Play(Card.parse("KS")))
    assert "Ben" not in str(refused.value)


@pytest.mark.parametrize("seat", [-1, 2, 4])
def test_view_of_a_seat_not_in_the_game_is_refused(seat: int) -> None:
    """Asking for the view of a seat the game does not have raises ValueError."""
    with pytest.raises(ValueError, match="no seat"):
        Game("tuque", seed=0).view(seat)


@pytest.mark.parametrize(
    ("variant", "up", "message"),
    [
        ("british", "B1", "The Benny was turned up: as the dealer you name trump before"),
        ("almonte", "B2", "Big Ben was turned up: as the dealer you name the suit to bid on"),
    ],
)
def test_a_joker_turned_up_is_named_as_its_game_does(
    deal_game, variant: str, up: str, message: str
) -> None:
    """The dealer naming unseen for a turned-up joker (RULES.md §4, §6) is told which
    joker, by its game's name, and what the naming makes."""
    game = deal_game(variant, up_card=up)
    with pytest.raises(IllegalAction, match=message):
        game.apply(0, Pass())


def test_almontes_named_suit_is_accepted_as_it_is(deal_game, act) -> None:
    """RULES.md §6 Almonte: round 1 bids on the suit the dealer named for the joker, so
    ordering it up naming another suit is refused with that reason, not "name the
    trump suit as you accept it"."""
    game = deal_game("almonte", up_card="B1")
    act(game, "name D")
    with pytest.raises(IllegalAction, match="The dealer named diamonds for the Ben: accept it"):
        game.apply(1, OrderUp(Suit.HEARTS))
