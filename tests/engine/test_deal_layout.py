"""The explicit-deal layout of ``Game.deal`` and the tests' deal builder."""

from __future__ import annotations

import pytest

from engine.cards import Card, parse_cards
from engine.game import Game


def test_explicit_tuque_deal_layout(build_deal) -> None:
    """Seat by seat: 5 face-down, 5 face-up, 7 in hand; then the up-card; then the kitty."""
    game = Game("tuque", seed=0, first_dealer=1)
    game.deal(
        build_deal(
            "tuque",
            down={0: "6C 7C 8C 9C TC"},
            up={0: "JC QC KC AC 6D"},
            hands={0: "7D 8D 9D TD JD QD KD"},
            up_card="B3",
            kitty="B1 B2 AS KS",
        )
    )
    zones = game.zones()
    assert [
        zones["tableau-down:0"],
        zones["tableau-up:0"],
        zones["hand:0"],
        zones["up-card"],
        zones["kitty"],
    ] == [
        sum(c.mask for c in parse_cards(text))
        for text in (
            "6C 7C 8C 9C TC",
            "JC QC KC AC 6D",
            "7D 8D 9D TD JD QD KD",
            "B3",
            "B1 B2 AS KS",
        )
    ]


def test_face_up_cards_lie_on_the_face_down_ones_in_pile_order(build_deal) -> None:
    """The i-th face-up card lies on the i-th face-down card."""
    game = Game("tuque", seed=0, first_dealer=1)
    game.deal(build_deal("tuque", up={1: "6C 7C 8C 9C TC"}, up_card="9H"))
    assert [p.up for p in game.view(0).tableaus[1]] == parse_cards("6C 7C 8C 9C TC")


def test_explicit_euchre_deal_layout(build_deal) -> None:
    """Euchre: five cards a seat from seat 0, then the up-card, then three unused cards."""
    game = Game("euchre", seed=0, first_dealer=0)
    game.deal(build_deal("euchre", hands={3: "9C TC JC QC KC"}, up_card="AS", kitty="9D TD JD"))
    assert (game.hand_of(3), game.up_card, game.zones()["kitty"]) == (
        tuple(parse_cards("9C TC JC QC KC")),
        Card.parse("AS"),
        sum(c.mask for c in parse_cards("9D TD JD")),
    )


def test_builder_fills_the_rest_of_the_pack(build_deal) -> None:
    """Unnamed slots are filled so that the deal is the whole pack, each card once."""
    order = build_deal("tuque", hands={0: "B3"}, up_card="9H")
    assert sorted(c.index for c in order) == list(range(39))


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        pytest.param({"hands": {0: "AS", 1: "AS"}}, "named twice", id="twice"),
        pytest.param({"hands": {0: "6C"}}, "not in the", id="foreign card"),
        pytest.param({"hands": {0: "9C TC JC QC KC AC"}}, "holds 5 cards", id="overflow"),
    ],
)
def test_builder_refuses_impossible_deals(build_deal, layout, message) -> None:
    """The builder refuses a card named twice, a card of another pack, an overfull slot."""
    with pytest.raises(ValueError, match=message):
        build_deal("euchre", **layout)
