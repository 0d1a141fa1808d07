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
``discard 9C``              a discard: the dealer's after taking the up-card, a loner's
                            after a partner's card (§6), the Auction maker's (§7)
``play AS``                 play a card from hand or face-up tableau
``turn down``               §4: the dealer's partner goes alone with the up-card's suit
``call H``                  §7 Call-Ace: the maker calls the partner holding that suit's best
``ask 3``                   §6: a loner asks the partner in seat 3 for a card
``give AS``                 §6: the partner asked gives that card to the loner
``bid 4 H``                 §7 Auction: bid 3, 4, 5, 8 or 15 tricks' worth with that trump
``call AS``                 §7 Auction: the maker names the card whose holder is partner
==========================  =======================================================

Ids are stable (they appear in saved component ids): new actions are appended. A
card's action has id ``base + index`` for the 39 cards of the narrow packs; the
double pack's second copies (RULES.md §6) take ids appended after the rest, so
:data:`DISCARD_IDS`, :data:`PLAY_IDS`, :data:`GIVE_IDS` and :data:`CALL_CARD_IDS` map
any card index to its id, and :data:`ACTION_CARD` an id back to its card.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import CARDS, SECOND, SUITS, Card, Suit

__all__ = [
    "ACTIONS",
    "ACTION_CARD",
    "BID_LEVELS",
    "CALL_CARD_IDS",
    "DISCARD_IDS",
    "GIVE_IDS",
    "PLAY_IDS",
    "Action",
    "Ask",
    "Bid",
    "CallCard",
    "CallSuit",
    "Discard",
    "Give",
    "GoAlone",
    "NameTrump",
    "OrderUp",
    "Pass",
    "Play",
    "TakeUp",
    "TurnDown",
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
        return DISCARD_IDS[self.card.index]


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` to the trick (from hand, or in Tuque from the face-up tableau)."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card.code}"

    @property
    def id(self) -> int:
        return PLAY_IDS[self.card.index]


@dataclass(frozen=True, slots=True)
class TurnDown:
    """RULES.md §4: the dealer's partner turns the up-card down and goes alone in its suit."""

    def __str__(self) -> str:
        return "turn down"

    @property
    def id(self) -> int:
        return 94


@dataclass(frozen=True, slots=True)
class CallSuit:
    """RULES.md §7 Call-Ace: the holder of ``suit``'s highest card in play is the secret partner."""

    suit: Suit

    def __str__(self) -> str:
        return f"call {self.suit}"

    @property
    def id(self) -> int:
        return 95 + self.suit.index


@dataclass(frozen=True, slots=True)
class Ask:
    """RULES.md §6: a loner asks the partner in ``seat`` for a card of their choosing."""

    seat: int

    def __str__(self) -> str:
        return f"ask {self.seat}"

    @property
    def id(self) -> int:
        return 99 + self.seat


@dataclass(frozen=True, slots=True)
class Give:
    """RULES.md §6: the partner asked gives ``card`` to the loner."""

    card: Card

    def __str__(self) -> str:
        return f"give {self.card.code}"

    @property
    def id(self) -> int:
        return GIVE_IDS[self.card.index]


BID_LEVELS = (3, 4, 5, 8, 15)
"""Auction bids, low to high (RULES.md §7): 8 is alone after the widow, 15 alone as dealt."""


@dataclass(frozen=True, slots=True)
class Bid:
    """RULES.md §7 Auction: bid ``level`` (one of :data:`BID_LEVELS`) with ``suit`` as trump."""

    level: int
    suit: Suit

    def __str__(self) -> str:
        return f"bid {self.level} {self.suit}"

    @property
    def id(self) -> int:
        return 144 + 4 * BID_LEVELS.index(self.level) + self.suit.index


@dataclass(frozen=True, slots=True)
class CallCard:
    """RULES.md §7 Auction: the maker names ``card``; whoever holds it is the secret partner."""

    card: Card

    def __str__(self) -> str:
        return f"call {self.card.code}"

    @property
    def id(self) -> int:
        return CALL_CARD_IDS[self.card.index]


Action = (
    Pass
    | OrderUp
    | TakeUp
    | NameTrump
    | GoAlone
    | Discard
    | Play
    | TurnDown
    | CallSuit
    | Ask
    | Give
    | Bid
    | CallCard
)
"""Any player action."""

_NARROW = CARDS[:SECOND]
_SECOND_COPIES = CARDS[SECOND:]
_FIRST_NEW_ID = 203
"""The first id after the actions of §1–§7's narrow packs."""


def _card_ids(base: int, verb: int) -> list[int]:
    """Ids of one card verb by card index: ``base + index``, then the second copies'
    block, the ``verb``-th of four appended in the order discard, play, give, call."""
    start = _FIRST_NEW_ID + verb * len(_SECOND_COPIES)
    return [base + c.index for c in _NARROW] + [start + i for i in range(len(_SECOND_COPIES))]


DISCARD_IDS = _card_ids(16, 0)
"""``DISCARD_IDS[card]``: the id of discarding engine card ``card``."""
PLAY_IDS = _card_ids(55, 1)
"""``PLAY_IDS[card]``: the id of playing engine card ``card``."""
GIVE_IDS = _card_ids(105, 2)
"""``GIVE_IDS[card]``: the id of giving engine card ``card`` (RULES.md §6)."""
CALL_CARD_IDS = _card_ids(164, 3)
"""``CALL_CARD_IDS[card]``: the id of calling engine card ``card`` (RULES.md §7)."""

ACTIONS: tuple[Action, ...] = (
    Pass(),
    OrderUp(),
    *(OrderUp(s) for s in SUITS),
    TakeUp(),
    *(TakeUp(s) for s in SUITS),
    *(NameTrump(s) for s in SUITS),
    GoAlone(),
    *(Discard(c) for c in _NARROW),
    *(Play(c) for c in _NARROW),
    TurnDown(),
    *(CallSuit(s) for s in SUITS),
    *(Ask(seat) for seat in range(6)),
    *(Give(c) for c in _NARROW),
    *(Bid(level, s) for level in BID_LEVELS for s in SUITS),
    *(CallCard(c) for c in _NARROW),
    *(Discard(c) for c in _SECOND_COPIES),
    *(Play(c) for c in _SECOND_COPIES),
    *(Give(c) for c in _SECOND_COPIES),
    *(CallCard(c) for c in _SECOND_COPIES),
)
"""Every action, indexed by its ``id``."""
DISCARD_BASE = 16
PLAY_BASE = 55
TURN_DOWN, CALL_SUIT_BASE, ASK_BASE, GIVE_BASE, BID_BASE, CALL_CARD_BASE = 94, 95, 99, 105, 144, 164
assert all(a.id == i for i, a in enumerate(ACTIONS))
assert ACTIONS[_FIRST_NEW_ID - 1] == CallCard(CARDS[SECOND - 1])
ACTION_CARD: list[int] = [
    a.card.index if isinstance(a, Discard | Play | Give | CallCard) else -1 for a in ACTIONS
]
"""``ACTION_CARD[id]``: the engine card index a card action names, -1 for other actions."""

_BY_TEXT = {str(a): a for a in ACTIONS}
_CARD_VERBS = {"play": PLAY_IDS, "discard": DISCARD_IDS, "give": GIVE_IDS}
_LEVEL_TEXT = {str(level) for level in BID_LEVELS}


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
        if verb in _CARD_VERBS:
            return ACTIONS[_CARD_VERBS[verb][Card.parse(arg).index]]
        if verb in ("order", "take", "name"):
            return _BY_TEXT[f"{verb} {Suit.parse(arg)}"]
        if verb == "call":
            try:
                return ACTIONS[CALL_SUIT_BASE + Suit.parse(arg).index]
            except ValueError:
                return ACTIONS[CALL_CARD_IDS[Card.parse(arg).index]]
    if len(words) == 3 and verb == "bid" and words[1] in _LEVEL_TEXT:
        return _BY_TEXT[f"bid {words[1]} {Suit.parse(words[2])}"]
    action = _BY_TEXT.get(" ".join(w.lower() for w in words))
    if action is None:
        raise ValueError(f"{text!r} is not an action")
    return action
