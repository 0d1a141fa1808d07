"""The rules of one hand, once: the state every part of the engine plays on.

:class:`HandState` holds one hand of any variant, from the first bid to the
score, as integers and card bitmasks, and applies action ids
(:data:`engine.actions.ACTIONS`). It is the rulebook: :class:`engine.game.Game`
wraps it with validation, typed errors, the log, views and records, and the
search player copies it to play hands out (the way python-chess's ``Board`` serves
both its API and chess engines). It checks nothing: callers apply legal ids only
(``Game`` checks first; the search draws from :meth:`HandState.legal`).

Card codes. Once trump is made, cards are renumbered so that play needs no table
look-ups: code ``13 * block + pos``, where block 3 is the trump suit and blocks
0–2 are the other suits in C, D, H, S order, and ``pos`` grows with the card's
power inside its effective suit (trump: ``6 7 8 9 T Q K A Left Right B1 B2 B3``;
other suits: ``6 7 8 9 T J Q K A``, the Left Bower's printed slot left empty).
So a card beats the best card of the trick exactly when it is higher *and*
either trump or of the best card's block (RULES.md "Trick winner"); following suit is one
mask; the lowest card of a suit is its lowest set bit. Before trump (bidding and
the discard) cards keep their engine index (:mod:`engine.cards`).

The double pack (RULES.md §6 option) is played by :class:`DoublePackHand`, whose own
tables (:data:`DOUBLE_CODE`) give each card and its twin adjacent codes and whose
trump block runs to 16 places (codes 39..54); its one extra rule, the tie rule of
identical cards, is its :meth:`~DoublePackHand.play`. Every other pack keeps the
tables and paths above.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from engine.actions import (
    ACTION_CARD,
    ASK_BASE,
    BID_BASE,
    BID_LEVELS,
    CALL_CARD_BASE,
    CALL_CARD_IDS,
    CALL_SUIT_BASE,
    DISCARD_BASE,
    DISCARD_IDS,
    GIVE_BASE,
    GIVE_IDS,
    PLAY_BASE,
    PLAY_IDS,
    TURN_DOWN,
)
from engine.cards import (
    CARDS,
    DOUBLE_POWER,
    EFFECTIVE_SUIT,
    JACK_INDEX,
    POWER,
    RANK_INDEX,
    SECOND,
    SUIT_INDEX,
    SUIT_MASK,
    TWIN,
    Rank,
)
from engine.variants import DOUBLE_PACK, Options, ScoreHand, Variant

__all__ = [
    "ALONE",
    "ASK",
    "AUCTION",
    "BID1",
    "BID2",
    "BIT",
    "BLIND",
    "BLOCK_SUIT",
    "CALL",
    "CARD_MASKS",
    "CARD_OF",
    "CODE",
    "DISCARD",
    "DONE",
    "DOUBLE_CARD_MASKS",
    "DOUBLE_CARD_OF",
    "DOUBLE_CODE",
    "GIVE",
    "GO_ALONE",
    "NAME",
    "OFF_MASK",
    "ORDER",
    "PASS",
    "PLAY",
    "SUIT_BLOCK",
    "TAKE",
    "TRUMP",
    "TWIN_CODE",
    "DoublePackHand",
    "HandState",
    "TableauHand",
    "bits",
    "double_to_codes",
    "new_hand",
    "to_codes",
]

# The constants below are Final: the compiled build (setup.py) then reads them as C
# constants and statics, not from the module's dictionary at each use, here and in the
# compiled search (engine/ai/) that imports them.

# Phases (the engine's, minus dealing and game over).
BID1: Final = 0
BID2: Final = 1
DISCARD: Final = 2
ALONE: Final = 3
PLAY: Final = 4
DONE: Final = 5
BLIND: Final = 6
ASK: Final = 7
GIVE: Final = 8
CALL: Final = 9
AUCTION: Final = 10

# Action ids (engine.actions): pass 0, order 1, order S 2..5, take 6, take S 7..10,
# name S 11..14, alone 15, discard 16 + card, play 55 + card.
PASS: Final = 0
ORDER: Final = 1
TAKE: Final = 6
NAME: Final = 11
GO_ALONE: Final = 15
_ORDER_NAMING, _TAKE_NAMING = 2, 7

TRUMP: Final = 39
"""Lowest trump code; ``code >= TRUMP`` is a trump."""
SUIT_BLOCK: Final = [0x1FFF << (13 * b) for b in range(3)] + [0xFFFF << TRUMP] * 2
"""Card-code mask of each block (effective suit), by ``code // 13``. The trump block is
16 places wide for the double pack, whose top trump codes (52..54) are the only ones
past 51: their ``code // 13`` is 4, the trump block again."""
OFF_MASK: Final = (1 << TRUMP) - 1
"""Card-code mask of the three blocks that are not trump."""
_NO_CODE = 63
"""The code of a card outside the pack's tables: no hand ever holds it, so a Play of
it is refused like any card not held."""


def _codes(trump: int) -> list[int]:
    off_blocks = [s for s in range(4) if s != trump]
    codes = [_NO_CODE] * len(CARDS)
    for card in range(SECOND):
        if EFFECTIVE_SUIT[trump][card] != trump:
            codes[card] = 13 * off_blocks.index(card // 9) + card % 9
            continue
        power = POWER[trump][trump][card]
        if card >= 36:
            pos = 10 + card - 36
        elif power >= 140:  # the bowers: Left 140, Right 150
            pos = 8 + (power == 150)
        else:
            rank = card % 9
            pos = rank if rank < JACK_INDEX else rank - 1
        codes[card] = TRUMP + pos
    return codes


def _double_codes(trump: int) -> list[int]:
    # RULES.md §6 double pack: 9 9' T T' ... in every block, so a card's twin is its
    # neighbour; trump: 9 9' T T' Q Q' K K' A A' Left Left' Right Right', then the
    # joker of the other colour, then the one of trump's colour (DOUBLE_POWER).
    off_blocks = [s for s in range(4) if s != trump]
    power = DOUBLE_POWER[trump][trump]
    nine = Rank.NINE.index  # the lowest rank the double pack holds
    codes = [_NO_CODE] * len(CARDS)
    for c in DOUBLE_PACK:
        card = c.index
        rank = RANK_INDEX[card]
        suit = EFFECTIVE_SUIT[trump][card]
        if suit != trump:
            codes[card] = 13 * off_blocks.index(suit) + 2 * (rank - nine) + c.copy
        elif rank < 0:  # a joker: the one of trump's colour above the other
            codes[card] = TRUMP + 14 + (power[card] > min(power[36], power[37]))
        elif power[card] >= 140:  # the bowers: Left 140, Right 150
            codes[card] = TRUMP + 10 + 2 * (power[card] == 150) + c.copy
        else:
            pos = rank - nine if rank < JACK_INDEX else rank - nine - 1
            codes[card] = TRUMP + 2 * pos + c.copy
    return codes


def _card_of(codes: list[int], size: int) -> list[int]:
    card_of = [-1] * size
    for card, code in enumerate(codes):
        if code != _NO_CODE:
            card_of[code] = card
    return card_of


def _card_masks(card_of: list[int]) -> list[list[int]]:
    """``card_of`` a byte of codes at a time: ``table[k][b]`` is the engine card mask of
    the codes ``8k`` to ``8k + 7`` whose bits are set in ``b`` (a view converts whole
    hands of codes: a lookup a byte instead of a step a card)."""
    tables = []
    for k in range(0, len(card_of), 8):
        table = [0] * 256
        for b in range(1, 256):
            low = b & -b
            code = k + low.bit_length() - 1
            card = card_of[code] if code < len(card_of) else -1
            table[b] = table[b ^ low] | (1 << card if card >= 0 else 0)
        tables.append(table)
    return tables


CODE: list[list[int]] = [_codes(t) for t in range(4)]
"""``CODE[trump][card]``: the card code of engine card index ``card``."""
CARD_OF: list[list[int]] = [_card_of(CODE[t], 52) for t in range(4)]
"""``CARD_OF[trump][code]``: the engine card index of a code (``-1``: no such card)."""
CARD_MASKS: list[list[list[int]]] = [_card_masks(card_of) for card_of in CARD_OF]
"""``CARD_MASKS[trump]``: :data:`CARD_OF` by byte of a code mask (:func:`_card_masks`)."""
DOUBLE_CODE: list[list[int]] = [_double_codes(t) for t in range(4)]
""":data:`CODE` of the double pack (RULES.md §6)."""
DOUBLE_CARD_OF: list[list[int]] = [_card_of(DOUBLE_CODE[t], TRUMP + 16) for t in range(4)]
""":data:`CARD_OF` of the double pack."""
DOUBLE_CARD_MASKS: list[list[list[int]]] = [_card_masks(card_of) for card_of in DOUBLE_CARD_OF]
""":data:`CARD_MASKS` of the double pack."""
TWIN_CODE: Final[list[int]] = [-1] * (TRUMP + 16)
"""``TWIN_CODE[code]``: the double pack's code of the identical card, -1 if none (the
same under every trump: twins are the neighbours ``2k`` and ``2k + 1`` of a block)."""
for _t in range(4):
    for _card, _code in enumerate(DOUBLE_CODE[_t]):
        if _code != _NO_CODE and TWIN[_card] >= 0:
            TWIN_CODE[_code] = DOUBLE_CODE[_t][TWIN[_card]]
PLAY_ID: list[list[int]] = [[PLAY_BASE + c if c >= 0 else -1 for c in CARD_OF[t]] for t in range(4)]
"""``PLAY_ID[trump][code]``: the id of playing the card of a code."""
DOUBLE_PLAY_ID: list[list[int]] = [
    [PLAY_IDS[c] if c >= 0 else -1 for c in DOUBLE_CARD_OF[t]] for t in range(4)
]
""":data:`PLAY_ID` of the double pack."""


BLOCK_SUIT: list[list[int]] = [[s for s in range(4) if s != t] + [t, t] for t in range(4)]
"""``BLOCK_SUIT[trump][block]``: the suit index of a block of card codes (4: trump, as
:data:`SUIT_BLOCK`)."""


_SEATS = [tuple(s for s in range(6) if m >> s & 1) for m in range(1 << 6)]
"""``_SEATS[mask]``: the seats of a seat mask (six seats at most), lowest first."""
BIT: Final = [1 << i for i in range(64)]
"""``BIT[i] == 1 << i`` (i < 64: card indices and codes, the double pack's included): a
list look-up is cheaper than building the integer.

In the hot paths below, masks of distinct cards are also combined with ``+`` and
``-`` rather than ``|`` and ``^``: CPython 3.11 specializes integer addition and
subtraction, not the bitwise operators, and on disjoint masks they agree.
"""


def bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _recode_table(trump: int, first: int, size: int) -> list[int]:
    # table[m]: the code mask of the engine cards first + (bits of m).
    code = CODE[trump]
    table = [0] * (1 << size)
    for m in range(1, 1 << size):
        low = m & -m
        table[m] = table[m ^ low] | 1 << code[first + low.bit_length() - 1]
    return table


# Per trump, one table for each printed suit's nine cards and one for the Bens, so
# that re-numbering a hand at the first lead costs five look-ups.
_RECODE: Final = [
    [_recode_table(t, 9 * s, 9) for s in range(4)] + [_recode_table(t, 36, 3)] for t in range(4)
]


def to_codes(trump: int, mask: int) -> int:
    """Re-number an engine card mask into card codes under ``trump``."""
    c, d, h, s, b = _RECODE[trump]
    low = c[mask & 511] | d[(mask >> 9) & 511] | h[(mask >> 18) & 511]
    return low | s[(mask >> 27) & 511] | b[mask >> 36]


_PLAY_IDS: Final[list[tuple[list[tuple[int, ...]], ...] | None]] = [None] * 4


def _play_ids(trump: int) -> tuple[list[tuple[int, ...]], ...]:
    """Per block under ``trump``: chunk of the block's codes -> their Play ids, lowest first.

    A card list is then one look-up when following suit and four on a lead, instead
    of a loop over the bits. Plain-suit blocks hold nine codes, trump 13. Built on
    first use of each trump.
    """
    tables = _PLAY_IDS[trump]
    if tables is None:
        card_of = CARD_OF[trump]
        tables = _PLAY_IDS[trump] = tuple(
            [
                tuple(PLAY_BASE + card_of[13 * b + i] for i in range(13) if m >> i & 1)
                for m in range(1 << (13 if b == 3 else 9))
            ]
            for b in range(4)
        )
    return tables


def double_to_codes(trump: int, mask: int) -> int:
    """:func:`to_codes` for the double pack (a hand's few cards, one by one)."""
    code = DOUBLE_CODE[trump]
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << code[low.bit_length() - 1]
        mask ^= low
    return out


_ORDER_IDS = (PASS, ORDER)
_TAKE_IDS = (PASS, TAKE)
_TAKE_ONLY_IDS = (TAKE,)
_TURN_DOWN_IDS = (PASS, TURN_DOWN)
_ORDER_NAMING_IDS = (PASS, *range(_ORDER_NAMING, _ORDER_NAMING + 4))
_TAKE_NAMING_IDS = (PASS, *range(_TAKE_NAMING, _TAKE_NAMING + 4))
_ALONE_IDS = (PASS, GO_ALONE)
_BLIND_IDS = tuple(range(NAME, NAME + 4))
# _NAME_IDS[turned-down suit, -1 for none][stuck]: round 2's choices.
_NAME_IDS = {
    up: (
        (PASS, *(NAME + s for s in range(4) if s != up)),
        tuple(NAME + s for s in range(4) if s != up),
    )
    for up in range(-1, 4)
}

# Stages after trump is made, in table order (RULES.md §3–§7): going alone, the
# dealer's pick-up (or the Auction widow) and discard, loners' card requests, the
# call of a partner, then play.
STAGE_ALONE, STAGE_PICK_UP, STAGE_REQUEST, STAGE_CALL, STAGE_PLAY = range(5)


class HandState:
    """One hand with every card known, from the bidding to the score (RULES.md §1–§7).

    Attributes are public for :class:`~engine.game.Game`, the sampler, the playouts
    and the solver; only the methods below change them during a hand. Masks are
    engine card masks before play and card-code masks from the first lead on (see
    the module docstring).

    Attributes:
        v: the variant (its rule switches). n: seats. sides: scoring side of each seat.
        ntricks: tricks in the hand. stick, no_alone_after_pass, must_make: options.
        phase: ``BID1 BID2 DISCARD ALONE PLAY DONE BLIND ASK GIVE CALL AUCTION``.
        turn: seat to act (-1 when the hand is done). dealer: the dealer.
        up: the up-card (engine index; -1 in Auction). up_suit: the suit round 1
            bids on (-1: a Ben whose acceptor names trump). taken: the dealer took it up.
        widow: Auction's widow (engine mask) until the maker takes it.
        piles: each seat's tableau as dealt, ``((face-up, face-down), ...)`` card indices.
        trump: suit index or -1. maker: seat or -1. alone: the maker side's loner, -1.
        lone_def: a defender playing alone (§4), -1. out: mask of seats sitting out.
        partner: the secret or called partner (§7), -1. called: the called suit or
            card (§7), -1. bid: the Auction bid (0 elsewhere).
        passed: seats that passed in the current bidding round. asked: seats asked
            whether they go alone. requested: loners who had their card request.
        owed: discards still to make. asker: the loner whose request is being met.
        stage: the next step after trump is made. discarded: every discard (engine mask).
        hand: each seat's cards; in play, hand and face-up tableau together.
        tab: face-up tableau cards before play (engine mask); 0 in play.
        under: card -> bit of the face-down card beneath it (engine index before play,
            code in play; 0 if none).
        pend: per seat, face-down cards to turn up when the current trick ends.
        nxt: next seat clockwise, skipping seats sitting out. active: seats in play.
        leader, led, best, best_seat, in_trick: the trick in progress (``led`` a block).
        won: tricks won by each seat. done: completed tricks.
        last_winner: the winner of the last completed trick.
        pool: Jackpot's chips in the pool (0 elsewhere).
        points: points per scoring side once ``phase`` is ``DONE`` (all zero if thrown
            in); in Jackpot, each seat's chips won or paid this hand, ante included.
    """

    twins: ClassVar[bool] = False
    """Whether the pack has identical cards (the double pack's :class:`DoublePackHand`)."""
    code_of: ClassVar[list[list[int]]] = CODE
    """The card-code table: ``code_of[trump][card]`` (:data:`CODE`)."""
    card_of: ClassVar[list[list[int]]] = CARD_OF
    """``card_of[trump][code]``: the engine card of a code (:data:`CARD_OF`)."""
    card_masks: ClassVar[list[list[list[int]]]] = CARD_MASKS
    """``card_masks[trump]``: ``card_of`` by byte of a code mask (:data:`CARD_MASKS`)."""
    play_id: ClassVar[list[list[int]]] = PLAY_ID
    """``play_id[trump][code]``: the action id of playing a code (:data:`PLAY_ID`)."""

    __slots__ = (
        "active",
        "alone",
        "asked",
        "asker",
        "best",
        "best_seat",
        "bid",
        "called",
        "dealer",
        "discarded",
        "done",
        "hand",
        "in_trick",
        "last_winner",
        "leader",
        "led",
        "lone_def",
        "maker",
        "must_make",
        "n",
        "no_alone_after_pass",
        "ntricks",
        "nxt",
        "out",
        "owed",
        "partner",
        "passed",
        "pend",
        "phase",
        "pick_up",
        "piles",
        "points",
        "pool",
        "requested",
        "score",
        "sides",
        "stage",
        "stick",
        "tab",
        "taken",
        "trump",
        "turn",
        "under",
        "up",
        "up_suit",
        "v",
        "widow",
        "won",
    )

    def __init__(
        self, variant: Variant | None = None, options: Options | None = None, dealer: int = 0
    ) -> None:
        if variant is None or options is None:
            # A blank for copy(): compiled (mypyc), cls.__new__ runs __init__ with no arguments.
            return
        # Built for every deal (and every sampler template): defaults are chained.
        n = variant.players
        self.v = variant
        self.n = n
        self.sides = variant.sides
        self.ntricks = variant.tricks
        self.score: ScoreHand = variant.score_hand
        self.stick = options.stick_the_dealer
        self.no_alone_after_pass = options.no_alone_after_pass
        self.must_make = options.dealer_must_make
        self.dealer = dealer
        self.phase = BID1
        self.turn = (dealer + 1) % n
        self.stage = STAGE_ALONE
        self.up = self.up_suit = self.trump = self.maker = self.alone = self.lone_def = -1
        self.partner = self.called = self.asker = self.leader = self.led = self.best = -1
        self.best_seat = self.last_winner = -1
        self.widow = self.out = self.bid = self.passed = self.asked = self.requested = 0
        self.owed = self.discarded = self.in_trick = self.done = self.pool = 0
        self.pick_up = self.taken = False
        self.hand = [0] * n
        self.tab = [0] * n
        self.pend = [0] * n
        self.won = [0] * n
        self.piles: tuple[tuple[tuple[int, int], ...], ...] = ((),) * n
        self.under = [0] * 52
        self.nxt = [*range(1, n), 0]
        self.active = n
        self.points = [0] * len(variant.side_masks)

    @staticmethod
    def from_deal(
        variant: Variant, options: Options, order: list[int], dealer: int, pool: int = 0
    ) -> HandState:
        """A new hand dealt from ``order``, the pack's card indices in dealing order.

        Seat by seat from seat 0: the face-down tableau cards, the face-up ones on top
        of them (pile by pile, kept in :attr:`piles`), then the hand; then the up-card
        (Auction: the widow); the rest is not used (RULES.md §1 Deal, §3, §7). In
        Jackpot a turned-up Ben is passed over for the next card (RULES.md §7 ruling),
        and ``pool`` is the pool carried over from the last hand.
        """
        state = new_hand(variant, options, dealer)
        piles, size = variant.tableau_piles, variant.hand_size
        pos = 0
        laid_out = []
        hands = state.hand
        bit = BIT
        for seat in range(variant.players):
            if piles:
                down = order[pos : pos + piles]
                up = order[pos + piles : pos + 2 * piles]
                pos += 2 * piles
                for u, d in zip(up, down, strict=True):
                    state.tab[seat] |= bit[u]
                    state.under[u] = bit[d]
                laid_out.append(tuple(zip(up, down, strict=True)))
            h = 0
            for c in order[pos : pos + size]:
                h += bit[c]
            hands[seat] = h
            pos += size
        if piles:
            state.piles = tuple(laid_out)
        if variant.up_card:
            if variant.ben_up == "turn_next":
                while SUIT_INDEX[order[pos]] < 0:  # a Ben
                    pos += 1
            state.up = order[pos]
        else:
            for c in order[pos : pos + variant.widow]:
                state.widow |= 1 << c
        state.pool = pool
        state._open()
        return state

    def _open(self) -> None:
        """The hand's first decision: bidding, a blind naming, or straight to play."""
        v = self.v
        if v.bidding == "none":
            # Jackpot: the up-card's suit is trump; everyone antes a chip (RULES.md §7).
            self.trump = SUIT_INDEX[self.up]
            self.pool += self.n
            self.points = [-1] * self.n
            self._start_play()
        elif v.bidding == "auction":
            self.phase = AUCTION
        elif SUIT_INDEX[self.up] < 0 and (v.ben_up == "dealer_makes" or v.ben_up == "dealer_names"):
            self.phase = BLIND
            self.turn = self.dealer
        else:
            self.up_suit = SUIT_INDEX[self.up]  # -1: a Ben, whose acceptor names trump

    def copy(self) -> HandState:
        """An independent copy (of the same class)."""
        # One assignment per slot: tuple-packed assignments build and unpack a tuple each.
        cls = self.__class__
        o = cls.__new__(cls)
        o.active = self.active
        o.alone = self.alone
        o.asked = self.asked
        o.asker = self.asker
        o.best = self.best
        o.best_seat = self.best_seat
        o.bid = self.bid
        o.called = self.called
        o.dealer = self.dealer
        o.discarded = self.discarded
        o.done = self.done
        o.hand = self.hand[:]
        o.in_trick = self.in_trick
        o.last_winner = self.last_winner
        o.leader = self.leader
        o.led = self.led
        o.lone_def = self.lone_def
        o.maker = self.maker
        o.must_make = self.must_make
        o.n = self.n
        o.no_alone_after_pass = self.no_alone_after_pass
        o.ntricks = self.ntricks
        o.nxt = self.nxt[:]
        o.out = self.out
        o.owed = self.owed
        o.partner = self.partner
        o.passed = self.passed
        o.pend = self.pend[:]
        o.phase = self.phase
        o.pick_up = self.pick_up
        o.piles = self.piles
        o.points = self.points[:]
        o.pool = self.pool
        o.requested = self.requested
        o.score = self.score
        o.sides = self.sides
        o.stage = self.stage
        o.stick = self.stick
        o.tab = self.tab[:]
        o.taken = self.taken
        o.trump = self.trump
        o.turn = self.turn
        o.under = self.under[:]
        o.up = self.up
        o.up_suit = self.up_suit
        o.v = self.v
        o.widow = self.widow
        o.won = self.won[:]
        return o

    def recode(self, trump: int, mask: int) -> int:
        """Re-number an engine card mask into codes under ``trump`` (:func:`to_codes`)."""
        return to_codes(trump, mask)

    # --- rules ------------------------------------------------------------------

    def legal(self) -> Sequence[int]:
        """The action ids the seat to act may take (same set as ``Game.legal_actions``).

        Bidding and play answer with shared tuples (callers must not change them), so
        ``Game`` can cache bidding menus by content. Cards come lowest code first.
        """
        phase = self.phase
        t = self.turn
        if phase == PLAY:
            h = self.hand[t]
            tables = _PLAY_IDS[self.trump] or _play_ids(self.trump)
            if self.in_trick:
                led = self.led
                f = h & SUIT_BLOCK[led]
                if f:
                    return tables[led][f >> (13 * led)]
            b0, b1, b2, b3 = tables
            return b0[h & 0x1FF] + b1[(h >> 13) & 0x1FF] + b2[(h >> 26) & 0x1FF] + b3[h >> 39]
        if phase == BID1:
            if self.up_suit < 0:
                return _TAKE_NAMING_IDS if t == self.dealer else _ORDER_NAMING_IDS
            if t == self.dealer:
                # Almonte option: a dealer who named the suit for a Ben must take it.
                ben = SUIT_INDEX[self.up] < 0
                return _TAKE_ONLY_IDS if self.must_make and ben else _TAKE_IDS
            if self.v.turn_down and t == (self.dealer + 2) % self.n:
                return _TURN_DOWN_IDS
            return _ORDER_IDS
        if phase == BID2:
            return _NAME_IDS[self.up_suit][t == self.dealer and self.stick]
        if phase == DISCARD:
            return [DISCARD_IDS[c] for c in bits(self.hand[t])]
        if phase == ALONE:
            return _ALONE_IDS
        if phase == BLIND:
            return _BLIND_IDS
        if phase == ASK:
            return [PASS, *(ASK_BASE + p for p in bits(self._partners(t)))]
        if phase == GIVE:
            return [GIVE_IDS[c] for c in bits(self.hand[t])]
        if phase == CALL:
            if self.v.makers == "call_suit":
                return [*(CALL_SUIT_BASE + s for s in range(4)), GO_ALONE]
            rest = _pack_mask(self.v) & ~self.hand[t]
            return [CALL_CARD_IDS[c] for c in bits(rest)]
        if phase == AUCTION:
            low = BID_LEVELS.index(self.bid) + 1 if self.bid else 0
            return [PASS, *range(BID_BASE + 4 * low, BID_BASE + 4 * len(BID_LEVELS))]
        return []

    def apply(self, action: int) -> None:
        """Apply action id ``action`` for the seat to act (assumed legal)."""
        phase = self.phase
        seat = self.turn
        if phase == PLAY:
            self.play(seat, CODE[self.trump][action - PLAY_BASE])
        elif phase == BID1:
            if action == PASS:
                self.passed |= 1 << seat
                if seat == self.dealer:
                    self.phase = BID2
                    self.passed = 0
                self.turn = (seat + 1) % self.n
            elif action in (ORDER, TAKE):
                self._make_trump(seat, self.up_suit, True)
            elif action == TURN_DOWN:
                # RULES.md §4: alone in the turned suit; the dealer lays their hand down.
                self.go_alone(seat)
                self._make_trump(seat, self.up_suit, False)
            else:
                base = _TAKE_NAMING if action >= _TAKE_NAMING else _ORDER_NAMING
                self._make_trump(seat, action - base, True)
        elif phase == BID2:
            if action != PASS:
                self._make_trump(seat, action - NAME, False)
            elif seat == self.dealer:
                self._throw_in()  # RULES.md §3 Round 2
            else:
                self.passed |= 1 << seat
                self.turn = (seat + 1) % self.n
        elif phase == DISCARD:
            self._discard_card(seat, action - DISCARD_BASE)
        elif phase == ALONE:
            if action == GO_ALONE:
                self.go_alone(seat)
            self._advance()
        elif phase == BLIND:
            suit = action - NAME
            if self.v.ben_up == "dealer_makes":
                self._make_trump(seat, suit, True)  # RULES.md §4 Benny turned up
            else:
                self.up_suit = suit  # RULES.md §6 Almonte: round 1 bids on this suit
                self.phase = BID1
                self.turn = (seat + 1) % self.n
        elif phase == ASK:
            if action == PASS:
                self._advance()
            else:
                self.asker = seat
                self.phase = GIVE
                self.turn = action - ASK_BASE
        elif phase == GIVE:
            self._give_card(seat, action - GIVE_BASE)
        elif phase == CALL:
            if action == GO_ALONE:
                self.alone = seat
            elif action >= CALL_CARD_BASE:
                card = action - CALL_CARD_BASE
                self.called = card
                self.partner = next((s for s in range(self.n) if self.hand[s] >> card & 1), -1)
            else:
                self.called = action - CALL_SUIT_BASE
                self.partner = self._best_holder(self.called)
            self._advance()
        elif phase == AUCTION:
            if action != PASS:
                level, suit = divmod(action - BID_BASE, 4)
                self.bid = BID_LEVELS[level]
                self.maker = seat
                self.trump = suit
            if seat != self.dealer:
                self.turn = (seat + 1) % self.n
            elif not self.bid:
                self._throw_in()  # RULES.md §7: all five passed
            else:
                if self.bid >= 8:
                    self.alone = self.maker
                self._advance()

    def _discard_card(self, seat: int, card: int) -> None:
        bit = 1 << card
        self.hand[seat] ^= bit
        self.discarded |= bit
        self.owed -= 1
        if not self.owed:
            self._advance()

    def _give_card(self, seat: int, card: int) -> None:
        """RULES.md §6: the partner asked hands ``card`` to the loner, who discards one."""
        bit = 1 << card
        self.hand[seat] ^= bit
        self.hand[self.asker] |= bit
        self.phase = DISCARD
        self.turn = self.asker
        self.owed = 1

    def _throw_in(self) -> None:
        self.trump = -1
        self.maker = -1
        self.phase = DONE
        self.turn = -1

    def _make_trump(self, seat: int, suit: int, pick_up: bool) -> None:
        self.trump = suit
        self.maker = seat
        self.pick_up = pick_up
        self._advance()

    def _advance(self) -> None:
        """Go on to the next decision once trump is made, or to the first lead."""
        v = self.v
        while True:
            stage = self.stage
            if stage == STAGE_ALONE:
                if v.alone == "anyone":
                    while self.asked < self.n:
                        seat = (self.maker + self.asked) % self.n
                        self.asked += 1
                        if self._may_go_alone(seat):
                            self.phase = ALONE
                            self.turn = seat
                            return
                elif v.alone == "maker" and not self.asked:
                    self.asked = 1
                    self.phase = ALONE
                    self.turn = self.maker
                    return
                self.stage = STAGE_PICK_UP
            elif stage == STAGE_PICK_UP:
                self.stage = STAGE_REQUEST
                dealer = self.dealer
                # A dealer whose partner goes alone sits out and does not pick up (RULES.md §3).
                if self.pick_up and not self.out >> dealer & 1:
                    self.hand[dealer] |= 1 << self.up
                    self.taken = True
                    self._discard(dealer, 1)
                    return
                if self.widow and self.bid != 15:
                    # RULES.md §7 Auction: the maker takes the widow and discards as many.
                    self.hand[self.maker] |= self.widow
                    self._discard(self.maker, self.widow.bit_count())
                    self.widow = 0
                    return
            elif stage == STAGE_REQUEST:
                if v.card_request:
                    for loner in (self.alone, self.lone_def):
                        if loner >= 0 and not self.requested >> loner & 1:
                            self.requested |= 1 << loner
                            self.phase = ASK
                            self.turn = loner
                            return
                self.stage = STAGE_CALL
            elif stage == STAGE_CALL:
                self.stage = STAGE_PLAY
                if (v.makers == "call_suit" or v.makers == "call_card") and self.alone < 0:
                    self.phase = CALL
                    self.turn = self.maker
                    return
            else:
                self._start_play()
                return

    def _discard(self, seat: int, count: int) -> None:
        self.phase = DISCARD
        self.turn = seat
        self.owed = count

    def _may_go_alone(self, seat: int) -> bool:
        """RULES.md §4 Alone: one loner a side, not a seat sitting out; with the
        ``no_alone_after_pass`` option, not a seat that passed in the round trump was made."""
        if self.out >> seat & 1:
            return False
        if self.no_alone_after_pass and self.passed >> seat & 1:
            return False
        makers = self.sides[seat] == self.sides[self.maker]
        return (self.alone if makers else self.lone_def) < 0

    def _partners(self, seat: int) -> int:
        """The seats on ``seat``'s scoring side other than ``seat``, as a mask."""
        return self.v.side_masks[self.sides[seat]] & ~(1 << seat)

    def _best_holder(self, suit: int) -> int:
        """The seat holding ``suit``'s highest card among the hands (§7 Call-Ace), or -1."""
        t = self.trump
        power = POWER[t][suit]
        best, holder = 0, -1
        for s in range(self.n):
            for c in bits(self.hand[s] & SUIT_MASK[t][suit]):
                if power[c] > best:
                    best, holder = power[c], s
        return holder

    def go_alone(self, seat: int) -> None:
        """``seat`` plays alone: their partners sit out (RULES.md §3, §4, §6 Going alone)."""
        if self.maker < 0 or self.sides[seat] == self.sides[self.maker]:
            self.alone = seat
        else:
            self.lone_def = seat
        self.out |= self._partners(seat)
        out = self.out
        n = self.n
        nxt = self.nxt
        for s in range(n):
            t = (s + 1) % n
            while out >> t & 1:
                t = (t + 1) % n
            nxt[s] = t
        self.active = n - out.bit_count()

    def _start_play(self) -> None:
        t = self.trump
        tab = self.tab
        hands = self.hand
        if any(tab):
            code = self.code_of[t]
            under = [0] * 52
            for card, bit in enumerate(self.under[:39]):
                if bit:
                    under[code[card]] = 1 << code[bit.bit_length() - 1]
            self.under = under
            for s in range(self.n):
                hands[s] = self.recode(t, hands[s] | tab[s])
                tab[s] = 0
        elif self.twins:
            recode = self.recode
            for s in range(self.n):
                hands[s] = recode(t, hands[s])
        else:
            # to_codes inlined: four calls at every first lead were a fifth of its cost.
            c, d, h, spades, b = _RECODE[t]
            for seat in range(self.n):
                m = hands[seat]
                low = c[m & 511] + d[(m >> 9) & 511] + h[(m >> 18) & 511]
                hands[seat] = low + spades[(m >> 27) & 511] + b[m >> 36]
        self.phase = PLAY
        # The loner's left leads; with two loners, the defender (RULES.md §3, §4 Lead).
        # An Auction bid of 8 or 15 plays alone, yet eldest leads (RULES.md §7 Auction).
        if self.lone_def >= 0:
            first = self.lone_def if self.alone >= 0 else self.nxt[self.lone_def]
        elif self.alone >= 0 and not self.bid:
            first = self.nxt[self.alone]
        else:
            first = self.nxt[self.dealer]
        self.turn = self.leader = first

    def play(self, seat: int, c: int) -> None:
        """``seat`` plays card code ``c``; a full trick is won, a last trick scores the hand."""
        self.hand[seat] -= BIT[c]  # a card the seat holds (see BIT)
        k = self.in_trick
        if not k:
            self.led = c // 13
            self.best = c
            self.best_seat = seat
        elif c > self.best and (c >= TRUMP or c // 13 == self.led):
            self.best = c
            self.best_seat = seat
        if k + 1 < self.active:
            self.in_trick = k + 1
            self.turn = self.nxt[seat]
            return
        winner = self.best_seat
        self.won[winner] += 1
        self.last_winner = winner
        if self.pool:  # Jackpot: a trick draws a chip while the pool lasts (§7)
            self.pool -= 1
            self.points[winner] += 1
        self.in_trick = 0
        self.done += 1
        if self.done == self.ntricks:
            self.end_hand()
        else:
            self.turn = self.leader = winner

    def makers(self) -> int:
        """The maker and whoever plays with them, as a seat mask (RULES.md §3–§7)."""
        if self.v.makers == "side":
            return self.v.side_masks[self.sides[self.maker]]
        mask = 1 << self.maker
        if self.partner >= 0:
            mask |= 1 << self.partner
        return mask

    def play_sides(self) -> list[int]:
        """Who plays with whom this hand, by seat: 0 the makers, 1 the defenders (all
        against all in Jackpot: each seat its own side). Known to the engine only: a
        Call-Ace partner is hidden from views (RULES.md §7)."""
        if self.v.chips or self.maker < 0:
            return list(self.sides)
        makers = self.makers()
        return [0 if makers >> s & 1 else 1 for s in range(self.n)]

    def end_hand(self) -> None:
        """Score the played hand into :attr:`points` (RULES.md scoring of the variant)."""
        self.phase = DONE
        self.turn = -1
        if self.v.chips:
            self._settle_chips()
            return
        self.score_made(self.maker_tricks())

    def score_made(self, made: int) -> None:
        """Add to :attr:`points` the scores of a hand in which the makers took ``made``
        tricks: the maker side's points to each maker side, the defenders' to each
        defender side (RULES.md §3–§7: per side, or per member of a Call-Ace side)."""
        sides = self.sides
        if self.v.makers == "side":
            maker_sides = 1 << sides[self.maker]
        else:
            makers = self.makers()
            maker_sides = 0
            for s in range(self.n):
                if makers >> s & 1:
                    maker_sides |= 1 << sides[s]
        ours, theirs = self.score(
            made, self.ntricks - made, self.alone >= 0, self.lone_def >= 0, self.bid
        )
        points = self.points
        for side in range(len(points)):
            points[side] += ours if maker_sides >> side & 1 else theirs

    def _settle_chips(self) -> None:
        """RULES.md §7 Jackpot: a seat with no trick pays a chip to the pool; a march
        sweeps the pool (the project's ruling: after those payments)."""
        for s in range(self.n):
            if not self.won[s]:
                self.points[s] -= 1
                self.pool += 1
        if self.won[self.last_winner] == self.ntricks:
            self.points[self.last_winner] += self.pool
            self.pool = 0

    @property
    def coded(self) -> bool:
        """Whether card masks are in card codes (play has begun) rather than engine indices."""
        return (self.phase == PLAY or self.phase == DONE) and self.trump >= 0

    def maker_tricks(self) -> int:
        """Tricks won so far by the makers."""
        return sum(map(self.won.__getitem__, _SEATS[self.makers()]))


class DoublePackHand(HandState):
    """A hand with six-hand's double pack (RULES.md §6 option): the same rules, one more.

    The more: of two identical cards played to a trick, the second beats the first
    (RULES.md "Trick winner" ruling), in :meth:`play`. The rest is the pack's width:
    its own card codes (:data:`DOUBLE_CODE`: twins side by side, a trump block of
    16), and the action ids of second copies, which are not ``base + card``
    (:data:`engine.actions.PLAY_IDS`), read back to cards in :meth:`apply`. Its
    bidding, going alone and card request are six-hand's, so no other card phase (a
    call of a card, a tableau) arises.
    """

    __slots__ = ()
    twins: ClassVar[bool] = True
    code_of: ClassVar[list[list[int]]] = DOUBLE_CODE
    card_of: ClassVar[list[list[int]]] = DOUBLE_CARD_OF
    card_masks: ClassVar[list[list[list[int]]]] = DOUBLE_CARD_MASKS
    play_id: ClassVar[list[list[int]]] = DOUBLE_PLAY_ID

    def __init__(
        self, variant: Variant | None = None, options: Options | None = None, dealer: int = 0
    ) -> None:
        super().__init__(variant, options, dealer)
        self.under = [0] * len(TWIN_CODE)  # indexed by code in play: up to 54 here

    def recode(self, trump: int, mask: int) -> int:
        """:meth:`HandState.recode` with the double pack's codes (:func:`double_to_codes`)."""
        return double_to_codes(trump, mask)

    def legal(self) -> Sequence[int]:
        """:meth:`HandState.legal`, the cards read from the double pack's codes."""
        if self.phase != PLAY:
            return super().legal()
        h = self.hand[self.turn]
        if self.in_trick and (f := h & SUIT_BLOCK[self.led]):
            h = f
        ids = DOUBLE_PLAY_ID[self.trump]
        return [ids[c] for c in bits(h)]

    def apply(self, action: int) -> None:
        """Apply action id ``action`` for the seat to act (assumed legal)."""
        card = ACTION_CARD[action]
        if card < 0:
            super().apply(action)
        elif self.phase == PLAY:
            self.play(self.turn, DOUBLE_CODE[self.trump][card])
        elif self.phase == DISCARD:
            self._discard_card(self.turn, card)
        else:  # GIVE: six-hand has no other card phase (calling a card is Auction's)
            self._give_card(self.turn, card)

    def play(self, seat: int, c: int) -> None:
        """``seat`` plays card code ``c`` (see :meth:`HandState.play`), with the tie rule."""
        if self.in_trick and c == TWIN_CODE[self.best]:
            # RULES.md "Trick winner": of two identical cards the second played wins.
            self.best = c
            self.best_seat = seat
        super().play(seat, c)


class TableauHand(HandState):
    """A hand with Tuque's tableau (RULES.md §1): the same rules, one more.

    The more, in :meth:`play`: a face-up tableau card played uncovers the face-down
    card beneath it, which is turned up when the trick ends and may be played from
    then on (:attr:`under` and :attr:`pend`).
    """

    __slots__ = ()

    def play(self, seat: int, c: int) -> None:
        """``seat`` plays card code ``c`` (see :meth:`HandState.play`); a card it
        uncovers joins the seat's playable cards once the trick is over."""
        d = self.under[c]
        if d:
            self.pend[seat] |= d
        HandState.play(self, seat, c)  # cheaper than super() on this hot path
        if not self.in_trick:
            pend = self.pend
            hands = self.hand
            for s in range(self.n):
                if pend[s]:
                    hands[s] |= pend[s]
                    pend[s] = 0


def new_hand(variant: Variant, options: Options, dealer: int) -> HandState:
    """A hand of ``variant`` before the deal: a :class:`DoublePackHand` for the double
    pack, a :class:`TableauHand` for Tuque's tableau, else a :class:`HandState`."""
    if variant.twins:
        return DoublePackHand(variant, options, dealer)
    return (TableauHand if variant.tableau_piles else HandState)(variant, options, dealer)


_PACK_MASKS: dict[str, int] = {}


def _pack_mask(variant: Variant) -> int:
    """The engine card mask of ``variant``'s pack (cached: called on every Auction call)."""
    key = f"{variant.name}:{len(variant.pack)}"
    mask = _PACK_MASKS.get(key)
    if mask is None:
        mask = _PACK_MASKS[key] = sum(1 << c.index for c in variant.pack)
    return mask
