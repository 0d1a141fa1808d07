"""Cards, suits and ranks in the project's notation, and the trump tables built on them.

Notation (RULES.md "Card notation"): rank ``6 7 8 9 T J Q K A`` + suit ``C D H S``
(``AS``, ``TH``); ``10H`` is accepted when parsing; the jokers ("Bens") are ``B1``
(Little Ben), ``B2`` (Big Ben) and ``B3`` (Best Ben). Six-hand's double pack (RULES.md
§6 option) holds a second copy of each card ``9``–``A``, written with a trailing
``'`` (``AS'``, ``TH'``).

Every card has a fixed index: ``suit * 9 + rank`` for the 36 suited cards, then 36,
37, 38 for B1, B2, B3, then ``39 + 6 * suit + (rank - 3)`` for the 24 second copies
(:data:`SECOND`). So every pack but the double one lies in ``0..38``, and the tables
below serve the narrow packs' hot paths unchanged. The engine works on those indices
and on integer bitmasks of them; :class:`Card` objects are interned, so ``CARDS[i]``
and ``Card.parse(code)`` always return the same object.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "BENS",
    "CARDS",
    "SECOND",
    "Card",
    "Rank",
    "Suit",
    "cards_in",
    "effective_suit",
    "format_cards",
    "is_trump",
    "mask_of",
    "parse_cards",
    "power_table",
    "trump_order",
]


class Suit(StrEnum):
    """A suit, valued by its one-letter code (clubs, diamonds, hearts, spades)."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def index(self) -> int:
        """Position ``0..3`` in the order C, D, H, S."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        """The suit symbol ``♣ ♦ ♥ ♠``."""
        return _SUIT_SYMBOL[self]

    @property
    def noun(self) -> str:
        """The plural English name, e.g. ``"hearts"``."""
        return self.name.lower()

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red; clubs and spades black."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (the Left Bower's printed suit)."""
        return _SAME_COLOUR[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``C``/``D``/``H``/``S``, a symbol, or an English name (any case).

        Raises:
            ValueError: the text names no suit.
        """
        key = text.strip().lower()
        for suit in cls:
            if key in (suit.value.lower(), suit.symbol, suit.noun, suit.noun[:-1]):
                return suit
        raise ValueError(f"{text!r} is not a suit (use C, D, H or S)")


# C/D and H/S would pair wrongly for colour; the index order C D H S is fixed by the
# notation, so the same-colour partner is looked up, not computed from the index.
SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_SUIT_SYMBOL = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SAME_COLOUR = {
    Suit.CLUBS: Suit.SPADES,
    Suit.SPADES: Suit.CLUBS,
    Suit.DIAMONDS: Suit.HEARTS,
    Suit.HEARTS: Suit.DIAMONDS,
}


class Rank(StrEnum):
    """A rank of the suited cards, low to high, valued by its notation letter."""

    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def index(self) -> int:
        """Position ``0..8`` from six to ace."""
        return _RANK_INDEX[self]


RANKS: tuple[Rank, ...] = tuple(Rank)
_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
_BEN_NAMES = {1: "Little Ben", 2: "Big Ben", 3: "Best Ben"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a suited card (``rank`` and ``suit``) or a Ben (``ben`` in 1..3).

    ``copy`` is 1 for the double pack's second copy of a card (RULES.md "Card
    notation"), else 0: the two copies are different cards that rank alike.
    Cards are interned: build them with :meth:`parse` or take them from
    :data:`CARDS`; ``index`` is the card's fixed position ``0..62``.
    """

    rank: Rank | None
    suit: Suit | None
    ben: int = 0
    copy: int = 0
    index: int = field(default=-1, compare=False, repr=False)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``AS``, ``TH``, ``10H``, ``B2``, ``AS'`` (any case).

        Raises:
            ValueError: the text is not a card of the notation.
        """
        card = _BY_CODE.get(text.strip().upper().replace("10", "T", 1))
        if card is None:
            raise ValueError(f"{text!r} is not a card (examples: AS, TH, 10H, 9C, B1, AS')")
        return card

    @property
    def code(self) -> str:
        """The notation, e.g. ``"TH"``, ``"B3"`` or ``"TH'"``; ``Card.parse(card.code) is card``."""
        if self.ben:
            return f"B{self.ben}"
        assert self.rank is not None and self.suit is not None
        return self.rank.value + self.suit.value + "'" * self.copy

    @property
    def is_ben(self) -> bool:
        """Whether this card is a joker."""
        return self.ben > 0

    @property
    def mask(self) -> int:
        """The card's bit in the engine's card masks."""
        return 1 << self.index

    def pretty(self) -> str:
        """Display form with suit symbols: ``10♥``, ``A♠``, ``🃏3``, ``A♠'``."""
        if self.ben:
            return f"🃏{self.ben}"
        assert self.rank is not None and self.suit is not None
        rank = "10" if self.rank is Rank.TEN else self.rank.value
        return rank + self.suit.symbol + "'" * self.copy

    def name(self) -> str:
        """English name: ``"ten of hearts"``, ``"Best Ben"``, ``"ace of spades (second)"``."""
        if self.ben:
            return _BEN_NAMES[self.ben]
        assert self.rank is not None and self.suit is not None
        return f"{self.rank.name.lower()} of {self.suit.noun}" + " (second)" * self.copy

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as its index, it comes back as the interned card (``is`` holds in the
        # process that unpickles it), and a view sent to the bot's drawing process at
        # every table edit pickles in a fraction of the time its fields took.
        if self.index < 0:  # built by hand, not interned: its fields as they are
            return Card, (self.rank, self.suit, self.ben, self.copy, self.index)
        return _card_at, (self.index,)


def _card_at(index: int) -> Card:
    """The interned card at ``index`` (unpickling, :meth:`Card.__reduce__`)."""
    return CARDS[index]


SECOND = 39
"""Index of the first second copy (``9C'``); every card below it is in the narrow packs."""
_DOUBLED = RANKS[Rank.NINE.index :]
"""The ranks the double pack holds twice (RULES.md §6: ``9``–``A``)."""


def _build_cards() -> tuple[Card, ...]:
    cards = [
        Card(rank, suit, 0, 0, s * 9 + r)
        for s, suit in enumerate(SUITS)
        for r, rank in enumerate(RANKS)
    ]
    cards += [Card(None, None, b, 0, 35 + b) for b in (1, 2, 3)]
    cards += [
        Card(rank, suit, 0, 1, SECOND + s * len(_DOUBLED) + r)
        for s, suit in enumerate(SUITS)
        for r, rank in enumerate(_DOUBLED)
    ]
    return tuple(cards)


CARDS: tuple[Card, ...] = _build_cards()
"""All 63 cards by index: the 39 of the narrow packs, then the 24 second copies."""
BENS: tuple[Card, ...] = CARDS[36:SECOND]
_BY_CODE = {c.code: c for c in CARDS}
JACK_INDEX = Rank.JACK.index
BEN_MASK = 0b111 << 36

RANK_INDEX: list[int] = [c.rank.index if c.rank is not None else -1 for c in CARDS]
"""``RANK_INDEX[card]``: the rank's position ``0..8`` (six to ace), -1 for a Ben."""
SUIT_INDEX: list[int] = [c.suit.index if c.suit is not None else -1 for c in CARDS]
"""``SUIT_INDEX[card]``: the printed suit's position ``0..3``, -1 for a Ben."""
TWIN: list[int] = [
    _BY_CODE[c.code.rstrip("'") if c.copy else c.code + "'"].index if c.rank in _DOUBLED else -1
    for c in CARDS
]
"""``TWIN[card]``: the other copy of an identical card in the double pack, -1 if none."""


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a space- or comma-separated list of cards (or an iterable of codes).

    Raises:
        ValueError: any item is not a card.
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else text
    return [Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card]) -> str:
    """The space-separated notation of ``cards``; inverse of :func:`parse_cards`."""
    return " ".join(c.code for c in cards)


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a bitmask, by index."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def effective_suit(card: Card, trump: Suit | None) -> Suit | None:
    """The suit a card belongs to (RULES.md "Effective suit").

    Bens and both bowers are trump once trump is chosen; before that a Ben has no
    suit (``None``) and a jack its printed suit.
    """
    if trump is None:
        return card.suit
    return SUITS[EFFECTIVE_SUIT[trump.index][card.index]]


def is_trump(card: Card, trump: Suit | None) -> bool:
    """Whether ``card`` is a trump (:func:`effective_suit`): never before trump is made,
    then every card of trump's suit, both bowers and every Ben."""
    return trump is not None and effective_suit(card, trump) is trump


def trump_order(trump: Suit, pack: Iterable[Card]) -> list[Card]:
    """The trump suit of ``pack`` from highest to lowest: B3 B2 B1 Right Left A K Q T 9 8 7 6.

    In the double pack (RULES.md §6) the joker of trump's colour heads the order and
    the two copies of a card stand side by side, first copy first.
    """
    t = trump.index
    cards = list(pack)
    power = power_table(mask_of(cards))[t][t]
    trumps = [c for c in cards if EFFECTIVE_SUIT[t][c.index] == t]
    return sorted(trumps, key=lambda c: (-power[c.index], c.copy))


# --- tables the engine's hot paths index into -------------------------------------


def _effective_suit_table(trump: int) -> list[int]:
    left = (SUITS[trump].partner.index) * 9 + JACK_INDEX
    table = [trump if s < 0 else s for s in SUIT_INDEX]
    table[left] = table[TWIN[left]] = trump
    return table


EFFECTIVE_SUIT: list[list[int]] = [_effective_suit_table(t) for t in range(4)]
"""``EFFECTIVE_SUIT[trump][card]``: the suit index a card follows under that trump."""

SUIT_MASK: list[list[int]] = [
    [sum(1 << i for i, e in enumerate(EFFECTIVE_SUIT[t]) if e == s) for s in range(4)]
    for t in range(4)
]
"""``SUIT_MASK[trump][suit]``: every card whose effective suit is ``suit``."""

PRINTED_SUIT_MASK: list[int] = [sum(1 << (s * 9 + r) for r in range(9)) for s in range(4)]
"""``PRINTED_SUIT_MASK[suit]``: the nine cards printed with that suit (before trump is made)."""


def _trump_power(trump: int, card: int, by_colour: bool) -> int:
    rank = RANK_INDEX[card]
    if rank < 0:
        if by_colour:
            # RULES.md tie rule: of the double pack's jokers, B1 black and B2 red, the
            # one of trump's colour wins.
            return 236 + (SUITS[trump].is_red == (card == 37))
        return 200 + card  # B3 > B2 > B1, all above the Right Bower
    if rank == JACK_INDEX:
        suit = SUIT_INDEX[card]
        if suit == trump:
            return 150  # Right Bower
        if suit == SUITS[trump].partner.index:
            return 140  # Left Bower
    return 100 + rank


def _power_table(trump: int, led: int, by_colour: bool) -> list[int]:
    table = []
    for card, suit in enumerate(EFFECTIVE_SUIT[trump]):
        if suit == trump:
            table.append(_trump_power(trump, card, by_colour))
        elif suit == led:
            table.append(1 + RANK_INDEX[card])
        else:
            table.append(0)
    return table


POWER: list[list[list[int]]] = [[_power_table(t, led, False) for led in range(4)] for t in range(4)]
"""``POWER[trump][led][card]``: higher wins the trick; 0 = cannot win (off-suit, no trump).

The two copies of a card have the same power: which wins is the order of play
(RULES.md tie rule, applied by ``engine.core``)."""
DOUBLE_POWER: list[list[list[int]]] = [
    [_power_table(t, led, True) for led in range(4)] for t in range(4)
]
""":data:`POWER` for the double pack, whose jokers rank by colour (RULES.md tie rule)."""


def power_table(pack: int) -> list[list[list[int]]]:
    """:data:`DOUBLE_POWER` for a pack mask holding second copies, else :data:`POWER`."""
    return DOUBLE_POWER if pack >> SECOND else POWER
