"""Player actions: frozen, hashable records with a text notation that round-trips.

Every action is interned: ``Play(card)`` built twice gives equal objects, and the
engine hands out the prebuilt instance from :data:`ACTIONS` so legal-action lists
cost no allocation. Text forms (used in saved games, the store and the terminal):

==========================  =======================================================
``pass``                    pass in bidding (RULES.md "Making trump"); decline to go alone
``order`` / ``order H``     order it up (non-dealer); with a suit when a Ben is the up-card
``take`` / ``take H``       take it up (dealer); with a suit when a Ben is the up-card
``name H``                  name trump in round 2
``alone``                   go alone (Euchre: the maker's partner sits out)
``discard 9C``              the dealer's discard after taking the up-card
``play AS``                 play a card from hand or face-up tableau
==========================  =======================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import CARDS, SUITS, Card, Suit

__all__ = [
    "ACTIONS",
    "Action",
    "Discard",
    "GoAlone",
    "NameTrump",
    "OrderUp",
    "Pass",
    "Play",
    "TakeUp",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass in bidding, or decline to go alone."""

    def __str__(self) -> str:
        return "pass"

    @property
    def id(self) -> int:
        return 0


@dataclass(frozen=True, slots=True)
class OrderUp:
    """A non-dealer accepts the up-card's suit; ``suit`` names trump when a Ben is up."""

    suit: Suit | None = None

    def __str__(self) -> str:
        return "order" if self.suit is None else f"order {self.suit}"

    @property
    def id(self) -> int:
        return 1 if self.suit is None else 2 + self.suit.index


@dataclass(frozen=True, slots=True)
class TakeUp:
    """The dealer accepts the up-card's suit; ``suit`` names trump when a Ben is up."""

    suit: Suit | None = None

    def __str__(self) -> str:
        return "take" if self.suit is None else f"take {self.suit}"

    @property
    def id(self) -> int:
        return 6 if self.suit is None else 7 + self.suit.index


@dataclass(frozen=True, slots=True)
class NameTrump:
    """Name ``suit`` as trump in the second round of bidding."""

    suit: Suit

    def __str__(self) -> str:
        return f"name {self.suit}"

    @property
    def id(self) -> int:
        return 11 + self.suit.index


@dataclass(frozen=True, slots=True)
class GoAlone:
    """Go alone: the player's partner lays their hand down and sits out the hand."""

    def __str__(self) -> str:
        return "alone"

    @property
    def id(self) -> int:
        return 15


@dataclass(frozen=True, slots=True)
class Discard:
    """The dealer discards ``card`` face-down after adding the up-card to their hand."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card.code}"

    @property
    def id(self) -> int:
        return 16 + self.card.index


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` to the trick (from hand, or in Tuque from the face-up tableau)."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card.code}"

    @property
    def id(self) -> int:
        return 55 + self.card.index


Action = Pass | OrderUp | TakeUp | NameTrump | GoAlone | Discard | Play
"""Any player action."""

ACTIONS: tuple[Action, ...] = (
    Pass(),
    OrderUp(),
    *(OrderUp(s) for s in SUITS),
    TakeUp(),
    *(TakeUp(s) for s in SUITS),
    *(NameTrump(s) for s in SUITS),
    GoAlone(),
    *(Discard(c) for c in CARDS),
    *(Play(c) for c in CARDS),
)
"""Every action, indexed by its ``id``."""
DISCARD_BASE = 16
PLAY_BASE = 55
assert all(a.id == i for i, a in enumerate(ACTIONS))

_BY_TEXT = {str(a): a for a in ACTIONS}


def parse_action(text: str) -> Action:
    """Parse an action's text form (see the module docstring); case and spacing are free.

    Accepts ``10H`` for ``TH`` and suit names (``name hearts``).

    Raises:
        ValueError: the text is no action.
    """
    words = text.strip().split()
    if not words:
        raise ValueError("empty action")
    verb = words[0].lower()
    if len(words) == 2:
        arg = words[1]
        if verb in ("play", "discard"):
            card = Card.parse(arg)
            return ACTIONS[(PLAY_BASE if verb == "play" else DISCARD_BASE) + card.index]
        if verb in ("order", "take", "name"):
            return _BY_TEXT[f"{verb} {Suit.parse(arg)}"]
    action = _BY_TEXT.get(" ".join(w.lower() for w in words))
    if action is None:
        raise ValueError(f"{text!r} is not an action")
    return action
