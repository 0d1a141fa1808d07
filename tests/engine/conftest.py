"""Helpers shared by the engine tests, exposed as fixtures.

Rule tests build explicit deals with :func:`build_deal` (through the ``deal_tuque`` and
``deal_euchre`` fixtures) and act by text with ``act``::

    def test_something(deal_tuque, act):
        game = deal_tuque(dealer=1, hands={0: "JD 7D"}, up_card="6C")
        act(game, "pass", "pass", "name H")

The helpers are fixtures rather than an importable module because ``tests/`` has no
``__init__.py``: other folders may hold their own ``conftest.py`` or ``helpers.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from engine.actions import Action, parse_action
from engine.cards import Card, parse_cards
from engine.game import Game
from engine.variants import Variant, get_variant

Cards = str | Iterable[str] | Iterable[Card]
Policy = Callable[[Game, tuple[Action, ...]], Action]


def _parse(cards: Cards) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return [c if isinstance(c, Card) else Card.parse(c) for c in cards]


def build_deal(
    variant: str | Variant,
    *,
    hands: Mapping[int, Cards] | None = None,
    up: Mapping[int, Cards] | None = None,
    down: Mapping[int, Cards] | None = None,
    up_card: str | Card | None = None,
    widow: Cards | None = None,
    kitty: Cards | None = None,
) -> list[Card]:
    """The whole pack in :meth:`Game.deal` order, from the cards given per slot.

    ``hands``, ``up`` (face-up tableau cards, pile 0 first) and ``down`` (face-down
    tableau cards, pile 0 first) map a seat to some or all of its cards; Auction
    deals a ``widow`` where the others turn an ``up_card``. Every slot
    left unspecified is filled, in dealing order, with the unused cards of the pack
    in index order (clubs 6..A, diamonds, hearts, spades, then B1 B2 B3).

    Raises:
        ValueError: a card is named twice, is not in the pack, or a slot overflows.
    """
    v = get_variant(variant) if isinstance(variant, str) else variant
    hands, up, down = hands or {}, up or {}, down or {}
    slots: list[tuple[str, int, list[Card]]] = []
    for seat in range(v.players):
        slots.append((f"down:{seat}", v.tableau_piles, _parse(down.get(seat, ""))))
        slots.append((f"up:{seat}", v.tableau_piles, _parse(up.get(seat, ""))))
        slots.append((f"hand:{seat}", v.hand_size, _parse(hands.get(seat, ""))))
    if v.up_card:
        slots.append(("up-card", 1, _parse([up_card] if up_card is not None else [])))
    else:
        slots.append(("widow", v.widow, _parse(widow or "")))
    slots.append(("kitty", v.kitty_size, _parse(kitty or "")))

    named = [c for _, _, cards in slots for c in cards]
    if len(set(named)) != len(named):
        dupes = sorted({c.code for c in named if named.count(c) > 1})
        raise ValueError(f"cards named twice: {' '.join(dupes)}")
    foreign = [c.code for c in named if c not in v.pack]
    if foreign:
        raise ValueError(f"not in the {v.title} pack: {' '.join(foreign)}")
    spare = [c for c in v.pack if c not in set(named)]
    order: list[Card] = []
    for name, size, cards in slots:
        if len(cards) > size:
            raise ValueError(f"{name} holds {size} cards, {len(cards)} given")
        order += cards
        order += [spare.pop(0) for _ in range(size - len(cards))]
    assert not spare and sorted(c.index for c in order) == [c.index for c in v.pack]
    return order


def dealt_game(variant: str, dealer: int, options: dict[str, Any], **layout: Any) -> Game:
    """A new game of ``variant`` with ``dealer`` dealing the explicit deal ``layout``."""
    game = Game(variant, seed=0, first_dealer=dealer, **options)
    game.deal(build_deal(game.variant, **layout))
    return game


class Table:
    """Explicit deals with actions already taken: ``table.tuque("pass", "pass", up_card="9H")``.

    Tuque is dealt by seat 1 and Euchre by seat 0, and the up-card is the 9♥, unless
    ``dealer`` or ``up_card`` say otherwise.
    """

    def tuque(self, *actions: str, dealer: int = 1, up_card: str = "9H", **layout: Any) -> Game:
        """A Tuque hand on the deal ``layout`` (see :func:`build_deal`) after ``actions``."""
        game = dealt_game("tuque", dealer, {}, up_card=up_card, **layout)
        act(game, *actions)
        return game

    def euchre(self, *actions: str, dealer: int = 0, up_card: str = "9H", **layout: Any) -> Game:
        """A Euchre hand on the deal ``layout`` (see :func:`build_deal`) after ``actions``."""
        game = dealt_game("euchre", dealer, {}, up_card=up_card, **layout)
        act(game, *actions)
        return game


def act(game: Game, *texts: str) -> None:
    """Apply each action text for whichever seat is to act."""
    for text in texts:
        assert game.turn is not None, f"nobody is to act before {text!r}"
        game.apply(game.turn, parse_action(text))


def first_legal(game: Game, legal: tuple[Action, ...]) -> Action:
    """A policy: always the first legal action."""
    return legal[0]


def play_out_hand(game: Game, policy: Policy = first_legal) -> None:
    """Act with ``policy`` until the current hand is over."""
    while game.turn is not None:
        game.apply(game.turn, policy(game, game.legal_actions(game.turn)))


# --- fixtures ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def deal_tuque() -> Callable[..., Game]:
    """``deal_tuque(dealer=1, hands=, up=, down=, up_card=, kitty=, variant=, options=)``."""

    def deal(
        *,
        dealer: int = 1,
        variant: str = "tuque",
        options: dict[str, Any] | None = None,
        **layout: Any,
    ) -> Game:
        return dealt_game(variant, dealer, options or {}, **layout)

    return deal


@pytest.fixture(scope="session")
def deal_euchre() -> Callable[..., Game]:
    """``deal_euchre(dealer=0, hands=..., up_card=..., kitty=..., stick_the_dealer=...)``."""

    def deal(*, dealer: int = 0, stick_the_dealer: bool = False, **layout: Any) -> Game:
        return dealt_game("euchre", dealer, {"stick_the_dealer": stick_the_dealer}, **layout)

    return deal


@pytest.fixture(scope="session")
def table() -> Table:
    """A :class:`Table`: explicit deals with some actions already taken."""
    return Table()


@pytest.fixture(scope="session", name="act")
def act_fixture() -> Callable[..., None]:
    """``act(game, "pass", "order", "discard 9C", ...)`` for whoever is to act."""
    return act


@pytest.fixture(scope="session", name="play_out_hand")
def play_out_hand_fixture() -> Callable[..., None]:
    """``play_out_hand(game, policy=first_legal)``: finish the current hand."""
    return play_out_hand


@pytest.fixture(scope="session", name="build_deal")
def build_deal_fixture() -> Callable[..., list[Card]]:
    """``build_deal(variant, hands=, up=, down=, up_card=, kitty=)``: a whole pack in deal order."""
    return build_deal


@pytest.fixture(scope="session")
def deal_game() -> Callable[..., Game]:
    """``deal_game(variant, dealer=0, options={...}, hands=..., up_card=..., widow=...)``."""

    def deal(
        variant: str, *, dealer: int = 0, options: dict[str, Any] | None = None, **layout: Any
    ) -> Game:
        return dealt_game(variant, dealer, options or {}, **layout)

    return deal
