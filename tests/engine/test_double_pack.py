"""Six-hand's double pack (RULES.md §6 option and "Trick winner" ruling), on explicit deals.

Seat 0 deals, so seat 1 is eldest and leads. In the tricks below seats 3, 4, 5 and 0
hold only clubs and diamonds (no Left Bower under hearts) and play their first legal
card, so each trick is decided between the cards of seats 1 and 2.
"""

from __future__ import annotations

import pytest

from engine.actions import Discard, Play
from engine.cards import Card, Suit, format_cards, trump_order
from engine.errors import MustFollowSuit
from engine.game import Game
from engine.view import Phase

DOUBLE = {"double_pack": True}
OTHERS = {
    3: "9C 9C' TC TC' JC",
    4: "JC' QC QC' KC KC'",
    5: "AC AC' 9D 9D' TD",
    0: "TD' QD QD' KD KD'",
}


def _trick(deal_game, act, up_card: str, first: str, second: str, spare: str) -> Game:
    """A hand with trump made on ``up_card`` by eldest, seat 1 leading ``first`` and seat 2
    playing ``second`` (each with four cards of ``spare``), the others following."""
    spares = spare.split()
    hands = {1: " ".join([first, *spares[:4]]), 2: " ".join([second, *spares[4:8]]), **OTHERS}
    game = deal_game("six_hand", options=DOUBLE, up_card=up_card, hands=hands)
    act(game, "order")
    while game.phase is Phase.GOING_ALONE:
        act(game, "pass")
    act(game, f"discard {up_card}")
    act(game, f"play {first}", f"play {second}")
    while game.view(None).trick.plays:
        game.apply(game.turn, game.legal_actions(game.turn)[0])  # type: ignore[arg-type]
    return game


def _winner(game: Game) -> int | None:
    return game.view(None).tricks[0].winner


def test_the_pack_is_two_of_each_nine_to_ace_and_two_jokers() -> None:
    """§6 option: 50 cards, every card 9–A twice, B1 and B2; 5 each, one up-card."""
    v = Game("six_hand", **DOUBLE).variant
    codes = [c.code for c in v.pack]
    assert (len(codes), len(set(codes)), v.hand_size, v.kitty_size) == (50, 50, 5, 19)
    assert sorted(c.code for c in v.pack if c.copy) == sorted(
        c + "'" for c in codes if not c.startswith("B") and "'" not in c
    )
    assert [c for c in codes if c.startswith("B")] == ["B1", "B2"]


def test_only_six_hand_has_the_option() -> None:
    """The option belongs to six-hand (RULES.md §6) and is a true/false switch."""
    with pytest.raises(ValueError, match="no adjustable option 'double_pack'"):
        Game("almonte", **DOUBLE)
    with pytest.raises(ValueError, match="double_pack must be true or false"):
        Game("six_hand", double_pack="yes")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param("AS", "AS'", id="first copy led"),
        pytest.param("AS'", "AS", id="second copy led"),
    ],
)
def test_of_two_identical_cards_the_second_played_wins(deal_game, act, first, second) -> None:
    """RULES.md "Trick winner" ruling: of two identical cards the one played second wins,
    whichever copy it is."""
    game = _trick(deal_game, act, "9H", first, second, "9S TS QS KS 9S' TS' QS' KS'")
    assert _winner(game) == 2


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param("JH", "JH'", id="twin Right Bowers"),
        pytest.param("JH'", "JH", id="twin Right Bowers, second copy led"),
        pytest.param("JD'", "JD", id="twin Left Bowers"),
        pytest.param("9H", "9H'", id="twin nines of trump"),
    ],
)
def test_identical_trumps_the_second_played_wins(deal_game, act, first, second) -> None:
    """The tie rule holds in trump, bowers included (both Left Bowers are hearts here)."""
    game = _trick(deal_game, act, "TH", first, second, "9S TS QS KS 9S' TS' QS' KS'")
    assert (game.trump, _winner(game)) == (Suit.HEARTS, 2)


def test_a_higher_card_between_twins_keeps_the_trick(deal_game, act) -> None:
    """The tie rule only meets the best card so far: K, A, then the other K loses to the A."""
    hands = {1: "KS 9S TS QS 9S'", 2: "AS TS' QS' AC AC'", 3: "KS' 9C 9C' TC TC'"}
    others = {4: OTHERS[4], 5: "JC AD AD' 9D 9D'", 0: OTHERS[0]}
    game = deal_game("six_hand", options=DOUBLE, up_card="9H", hands={**hands, **others})
    act(game, "order", *["pass"] * 6, "discard 9H", "play KS", "play AS", "play KS'")
    while game.view(None).trick.plays:
        game.apply(game.turn, game.legal_actions(game.turn)[0])  # type: ignore[arg-type]
    assert _winner(game) == 2


@pytest.mark.parametrize(
    ("up_card", "first", "second", "winner"),
    [
        pytest.param("9H", "B1", "B2", 2, id="red trump: B2 played second"),
        pytest.param("9H", "B2", "B1", 1, id="red trump: B2 led"),
        pytest.param("9S", "B2", "B1", 2, id="black trump: B1 played second"),
        pytest.param("9S", "B1", "B2", 1, id="black trump: B1 led"),
    ],
)
def test_the_joker_of_trumps_colour_wins(deal_game, act, up_card, first, second, winner) -> None:
    """RULES.md "Trick winner" ruling: of the two jokers (B1 black, B2 red) the one of
    trump's colour wins, whatever the order of play."""
    game = _trick(deal_game, act, up_card, first, second, "JH AH KH QH JH' AH' KH' QH'")
    assert _winner(game) == winner


def test_either_joker_beats_both_right_bowers(deal_game, act) -> None:
    """Every joker is a trump above the Right Bower, both copies of it."""
    hands = {1: "JH 9S TS QS KS", 2: "JH' 9S' TS' QS' KS'", 3: "B1 9C 9C' TC TC'"}
    others = {4: OTHERS[4], 5: "JC AC AC' 9D 9D'", 0: OTHERS[0]}
    game = deal_game("six_hand", options=DOUBLE, up_card="9H", hands={**hands, **others})
    act(game, "order", *["pass"] * 6, "discard 9H", "play JH", "play JH'", "play B1")
    while game.view(None).trick.plays:
        game.apply(game.turn, game.legal_actions(game.turn)[0])  # type: ignore[arg-type]
    assert _winner(game) == 3


def test_second_copy_of_the_left_bower_follows_trump(deal_game, act) -> None:
    """Both copies of the Left Bower belong to trump: a trump lead must be followed with
    JD', not with a diamond."""
    hands = {1: "9H TS' QS' KS' AS'", 2: "JD' AD 9S TS QS"}
    game = deal_game("six_hand", options=DOUBLE, up_card="TH", hands={**hands, **OTHERS})
    act(game, "order", *["pass"] * 6, "discard TH", "play 9H")
    assert game.legal_actions(2) == (Play(Card.parse("JD'")),)
    with pytest.raises(MustFollowSuit):
        game.apply(2, Play(Card.parse("AD")))


def test_second_copies_are_discarded_and_played_by_their_own_actions(deal_game, act) -> None:
    """A second copy is a card of its own: the dealer may discard it, and its actions
    round-trip through their text (``discard AD'``)."""
    game = deal_game("six_hand", options=DOUBLE, up_card="9H", hands={0: "AD' 9S TS QS KS"})
    act(game, "order", *["pass"] * 6)
    assert Discard(Card.parse("AD'")) in game.legal_actions(0)
    act(game, "discard AD'")
    assert game.discards_of(0) == (Card.parse("AD'"),)


def test_trump_order_of_the_double_pack() -> None:
    """Trumps of the double pack, twins side by side and the joker of trump's colour first."""
    pack = Game("six_hand", **DOUBLE).variant.pack
    assert format_cards(trump_order(Suit.SPADES, pack)) == (
        "B1 B2 JS JS' JC JC' AS AS' KS KS' QS QS' TS TS' 9S 9S'"
    )
    assert format_cards(trump_order(Suit.DIAMONDS, pack))[:15] == "B2 B1 JD JD' JH"


def test_record_keeps_the_option_and_replays() -> None:
    """A double-pack game's record names the option and rebuilds the same game."""
    game = Game("six_hand", seed=3, **DOUBLE)
    while game.hand_no < 2 or game.turn is not None:
        if game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, game.legal_actions(game.turn)[-1])
    record = game.to_record()
    assert record["options"]["double_pack"] is True
    assert any("'" in entry for entry in record["actions"])
    rebuilt = Game.from_record(record)
    assert (rebuilt.to_record(), rebuilt.zones()) == (record, game.zones())
    assert rebuilt.view(1) == game.view(1)
