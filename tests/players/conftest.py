"""Fixtures for the computer-player tests: explicit deals and acting by text.

``tests/`` has no ``__init__.py``, so helpers are fixtures rather than a module::

    def test_something(deal, act):
        game = deal("euchre", dealer=3, hands={0: "JH JD AH KH AC"}, up_card="9H")
        act(game, "pass", "pass")
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from engine.actions import parse_action
from engine.cards import Card, parse_cards
from engine.game import Game
from engine.variants import get_variant

Deal = Callable[..., Game]
Act = Callable[..., None]


def _pack_order(
    variant: str,
    hands: Mapping[int, str],
    up: Mapping[int, str],
    up_card: str | None,
) -> list[Card]:
    """The pack in :meth:`Game.deal` order; unnamed slots take the spare cards in index order."""
    v = get_variant(variant)
    slots: list[tuple[int, list[Card]]] = []
    for seat in range(v.players):
        slots.append((v.tableau_piles, []))  # face-down: unknown to everyone, so left to fill
        slots.append((v.tableau_piles, parse_cards(up.get(seat, ""))))
        slots.append((v.hand_size, parse_cards(hands.get(seat, ""))))
    slots.append((1, parse_cards(up_card or "")))
    slots.append((v.kitty_size, []))
    named = {c for _, cards in slots for c in cards}
    spare = [c for c in v.pack if c not in named]
    order: list[Card] = []
    for size, cards in slots:
        order += cards + [spare.pop(0) for _ in range(size - len(cards))]
    return order


@pytest.fixture
def deal() -> Deal:
    """``deal(variant, dealer=, hands={seat: "..."}, up={seat: "..."}, up_card=)`` -> dealt game."""

    def make(
        variant: str,
        *,
        dealer: int,
        hands: Mapping[int, str] | None = None,
        up: Mapping[int, str] | None = None,
        up_card: str | None = None,
        **options: object,
    ) -> Game:
        game = Game(variant, seed=0, first_dealer=dealer, **options)
        game.deal(_pack_order(variant, hands or {}, up or {}, up_card))
        return game

    return make


@pytest.fixture
def act() -> Act:
    """``act(game, "pass", "order", ...)``: apply actions by text for whoever is to act."""

    def apply(game: Game, *actions: str) -> None:
        for text in actions:
            assert game.turn is not None
            game.apply(game.turn, parse_action(text))

    return apply
