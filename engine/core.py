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
"""

from __future__ import annotations

from engine.actions import DISCARD_BASE, PLAY_BASE
from engine.cards import EFFECTIVE_SUIT, JACK_INDEX, POWER
from engine.variants import ScoreHand, Variant

__all__ = [
    "ALONE",
    "BID1",
    "BID2",
    "BLOCK_SUIT",
    "CARD_OF",
    "CODE",
    "DISCARD",
    "DONE",
    "GO_ALONE",
    "NAME",
    "OFF_MASK",
    "ORDER",
    "PASS",
    "PLAY",
    "SUIT_BLOCK",
    "TAKE",
    "TRUMP",
    "HandState",
    "bits",
    "to_codes",
]

# Phases (the engine's, minus dealing and game over).
BID1, BID2, DISCARD, ALONE, PLAY, DONE = range(6)

# Action ids (engine.actions): pass 0, order 1, order S 2..5, take 6, take S 7..10,
# name S 11..14, alone 15, discard 16 + card, play 55 + card.
PASS, ORDER, TAKE, NAME, GO_ALONE = 0, 1, 6, 11, 15
_ORDER_NAMING, _TAKE_NAMING = 2, 7

TRUMP = 39
"""Lowest trump code; ``code >= TRUMP`` is a trump."""
SUIT_BLOCK = [0x1FFF << (13 * b) for b in range(4)]
"""Card-code mask of each block (effective suit)."""
OFF_MASK = (1 << TRUMP) - 1
"""Card-code mask of the three blocks that are not trump."""


def _codes(trump: int) -> list[int]:
    off_blocks = [s for s in range(4) if s != trump]
    codes = [-1] * 39
    for card in range(39):
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


CODE: list[list[int]] = [_codes(t) for t in range(4)]
"""``CODE[trump][card]``: the card code of engine card index ``card``."""
CARD_OF: list[list[int]] = [[-1] * 52 for _ in range(4)]
"""``CARD_OF[trump][code]``: the engine card index of a code (``-1``: no such card)."""
for _t in range(4):
    for _card, _code in enumerate(CODE[_t]):
        CARD_OF[_t][_code] = _card


BLOCK_SUIT: list[list[int]] = [[s for s in range(4) if s != t] + [t] for t in range(4)]
"""``BLOCK_SUIT[trump][block]``: the suit index of a block of card codes."""


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
_RECODE = [
    [_recode_table(t, 9 * s, 9) for s in range(4)] + [_recode_table(t, 36, 3)] for t in range(4)
]


def to_codes(trump: int, mask: int) -> int:
    """Re-number an engine card mask into card codes under ``trump``."""
    c, d, h, s, b = _RECODE[trump]
    low = c[mask & 511] | d[(mask >> 9) & 511] | h[(mask >> 18) & 511]
    return low | s[(mask >> 27) & 511] | b[mask >> 36]


class HandState:
    """One hand with every card known, from the bidding to the score (RULES.md §1–§3).

    Attributes are public for :class:`~engine.game.Game`, the sampler, the playouts
    and the solver; only the methods below change them during a hand. Masks are
    engine card masks before play and card-code masks from the first lead on (see
    the module docstring).

    Attributes:
        n: seats. sides: side of each seat. ntricks: tricks in the hand.
        phase: ``BID1 BID2 DISCARD ALONE PLAY DONE``.
        turn: seat to act (-1 when the hand is done). dealer: the dealer.
        up: the up-card (engine index). taken: whether the dealer took it up.
        piles: each seat's tableau as dealt, ``((face-up, face-down), ...)`` card indices.
        trump: suit index or -1. maker, alone: seats or -1.
        hand: each seat's cards; in play, hand and face-up tableau together.
        tab: face-up tableau cards before play (engine mask); 0 in play.
        under: card -> bit of the face-down card beneath it (engine index before play,
            code in play; 0 if none).
        pend: per seat, face-down cards to turn up when the current trick ends.
        nxt: next seat clockwise, skipping a sitting-out partner. active: seats in play.
        leader, led, best, best_seat, in_trick: the trick in progress (``led`` a block).
        won: tricks won by each seat. done: completed tricks.
        last_winner: the winner of the last completed trick.
        points: points per side once ``phase`` is ``DONE`` (all zero if thrown in).
    """

    __slots__ = (
        "active",
        "alone",
        "best",
        "best_seat",
        "can_alone",
        "dealer",
        "done",
        "hand",
        "in_trick",
        "last_winner",
        "leader",
        "led",
        "maker",
        "n",
        "ntricks",
        "nxt",
        "pend",
        "phase",
        "pick_up",
        "piles",
        "points",
        "score",
        "sides",
        "stick",
        "tab",
        "taken",
        "trump",
        "turn",
        "under",
        "up",
        "won",
    )

    def __init__(self, variant: Variant, stick_the_dealer: bool, dealer: int) -> None:
        n = variant.players
        self.n = n
        self.sides = variant.sides
        self.ntricks = variant.tricks
        self.score: ScoreHand = variant.score_hand
        self.can_alone = variant.alone
        self.stick = stick_the_dealer
        self.dealer = dealer
        self.phase = BID1
        self.turn = (dealer + 1) % n
        self.up = -1
        self.trump = -1
        self.maker = -1
        self.alone = -1
        self.pick_up = False
        self.taken = False
        self.hand = [0] * n
        self.tab = [0] * n
        self.piles: tuple[tuple[tuple[int, int], ...], ...] = ((),) * n
        self.under = [0] * 52
        self.pend = [0] * n
        self.nxt = [(s + 1) % n for s in range(n)]
        self.active = n
        self.leader = -1
        self.led = -1
        self.best = -1
        self.best_seat = -1
        self.in_trick = 0
        self.won = [0] * n
        self.done = 0
        self.points = [0] * (max(variant.sides) + 1)
        self.last_winner = -1

    @classmethod
    def from_deal(cls, variant: Variant, order: list[int], dealer: int, stick: bool) -> HandState:
        """A new hand dealt from ``order``, the pack's card indices in dealing order.

        Seat by seat from seat 0: the face-down tableau cards, the face-up ones on top
        of them (pile by pile, kept in :attr:`piles`), then the hand; then the up-card;
        the rest is not used (RULES.md §1 Deal, §3).
        """
        state = cls(variant, stick, dealer)
        piles, size = variant.tableau_piles, variant.hand_size
        pos = 0
        laid_out = []
        hands = state.hand
        for seat in range(variant.players):
            if piles:
                down = order[pos : pos + piles]
                up = order[pos + piles : pos + 2 * piles]
                pos += 2 * piles
                for u, d in zip(up, down, strict=True):
                    state.tab[seat] |= 1 << u
                    state.under[u] = 1 << d
                laid_out.append(tuple(zip(up, down, strict=True)))
            h = 0
            for c in order[pos : pos + size]:
                h |= 1 << c
            hands[seat] = h
            pos += size
        if piles:
            state.piles = tuple(laid_out)
        state.up = order[pos]
        return state

    def copy(self) -> HandState:
        """An independent copy."""
        o = HandState.__new__(HandState)
        o.n, o.sides, o.ntricks, o.score = self.n, self.sides, self.ntricks, self.score
        o.can_alone, o.stick, o.dealer = self.can_alone, self.stick, self.dealer
        o.phase, o.turn, o.up, o.trump = self.phase, self.turn, self.up, self.trump
        o.maker, o.alone, o.pick_up, o.taken = self.maker, self.alone, self.pick_up, self.taken
        o.hand, o.tab, o.under, o.pend = self.hand[:], self.tab[:], self.under[:], self.pend[:]
        o.piles = self.piles
        o.nxt, o.active, o.leader, o.led = self.nxt[:], self.active, self.leader, self.led
        o.best, o.best_seat, o.in_trick = self.best, self.best_seat, self.in_trick
        o.won, o.done, o.points = self.won[:], self.done, self.points[:]
        o.last_winner = self.last_winner
        return o

    # --- rules ------------------------------------------------------------------

    def legal(self) -> list[int]:
        """The action ids the seat to act may take (same set as ``Game.legal_actions``)."""
        phase = self.phase
        t = self.turn
        if phase == PLAY:
            h = self.hand[t]
            if self.in_trick:
                f = h & SUIT_BLOCK[self.led]
                if f:
                    h = f
            card_of = CARD_OF[self.trump]
            out = []
            while h:
                low = h & -h
                out.append(PLAY_BASE + card_of[low.bit_length() - 1])
                h ^= low
            return out
        if phase == BID1:
            if self.up >= 36:
                base = _TAKE_NAMING if t == self.dealer else _ORDER_NAMING
                return [PASS, base, base + 1, base + 2, base + 3]
            return [PASS, TAKE if t == self.dealer else ORDER]
        if phase == BID2:
            names = [NAME + s for s in range(4) if self.up >= 36 or s != self.up // 9]
            return names if t == self.dealer and self.stick else [PASS, *names]
        if phase == DISCARD:
            return [DISCARD_BASE + c for c in bits(self.hand[t])]
        if phase == ALONE:
            return [PASS, GO_ALONE]
        return []

    def apply(self, action: int) -> None:
        """Apply action id ``action`` for the seat to act (assumed legal)."""
        phase = self.phase
        seat = self.turn
        if phase == PLAY:
            self.play(seat, CODE[self.trump][action - PLAY_BASE])
        elif phase == BID1:
            if action == PASS:
                if seat == self.dealer:
                    self.phase = BID2
                self.turn = (seat + 1) % self.n
            elif action in (ORDER, TAKE):
                self._make_trump(seat, self.up // 9, True)
            else:
                base = _TAKE_NAMING if action >= _TAKE_NAMING else _ORDER_NAMING
                self._make_trump(seat, action - base, True)
        elif phase == BID2:
            if action != PASS:
                self._make_trump(seat, action - NAME, False)
            elif seat == self.dealer:
                self.phase = DONE  # thrown in: no score (RULES.md §3 Round 2)
                self.turn = -1
            else:
                self.turn = (seat + 1) % self.n
        elif phase == DISCARD:
            self.hand[seat] ^= 1 << (action - DISCARD_BASE)
            self._start_play()
        else:
            if action == GO_ALONE:
                self.go_alone(seat)
            self._after_alone()

    def _make_trump(self, seat: int, suit: int, pick_up: bool) -> None:
        self.trump = suit
        self.maker = seat
        self.pick_up = pick_up
        if self.can_alone:
            self.phase = ALONE
            self.turn = seat
        else:
            self._after_alone()

    def go_alone(self, seat: int) -> None:
        """``seat`` plays alone: their partner sits out (RULES.md §3 Going alone)."""
        n = self.n
        partner = (seat + n // 2) % n
        self.alone = seat
        self.nxt = [(s + 1 + ((s + 1) % n == partner)) % n for s in range(n)]
        self.active = n - 1

    def _after_alone(self) -> None:
        n = self.n
        dealer = self.dealer
        # A dealer whose partner goes alone sits out and does not pick up (RULES.md §3).
        sits_out = self.alone >= 0 and (self.alone + n // 2) % n == dealer
        if self.pick_up and not sits_out:
            self.hand[dealer] |= 1 << self.up
            self.taken = True
            self.phase = DISCARD
            self.turn = dealer
        else:
            self._start_play()

    def _start_play(self) -> None:
        t = self.trump
        tab = self.tab
        hands = self.hand
        if any(tab):
            code = CODE[t]
            under = [0] * 52
            for card, bit in enumerate(self.under[:39]):
                if bit:
                    under[code[card]] = 1 << code[bit.bit_length() - 1]
            self.under = under
            for s in range(self.n):
                hands[s] = to_codes(t, hands[s] | tab[s])
                tab[s] = 0
        else:
            for s in range(self.n):
                hands[s] = to_codes(t, hands[s])
        self.phase = PLAY
        first = self.alone if self.alone >= 0 else self.dealer
        self.turn = self.leader = self.nxt[first]

    def play(self, seat: int, c: int) -> None:
        """``seat`` plays card code ``c``; a full trick is won, a last trick scores the hand."""
        bit = 1 << c
        self.hand[seat] ^= bit
        d = self.under[c]
        if d:
            self.pend[seat] |= d
        if not self.in_trick:
            self.led = c // 13
            self.best = c
            self.best_seat = seat
        elif c > self.best and (c >= TRUMP or c // 13 == self.led):
            self.best = c
            self.best_seat = seat
        self.in_trick += 1
        if self.in_trick < self.active:
            self.turn = self.nxt[seat]
            return
        winner = self.best_seat
        self.won[winner] += 1
        self.last_winner = winner
        pend = self.pend
        if any(pend):
            for s in range(self.n):
                if pend[s]:
                    self.hand[s] |= pend[s]
                    pend[s] = 0
        self.in_trick = 0
        self.done += 1
        if self.done == self.ntricks:
            self.end_hand()
        else:
            self.turn = self.leader = winner

    def end_hand(self) -> None:
        """Score the played hand into :attr:`points` (RULES.md scoring of the variant)."""
        maker_side = self.sides[self.maker]
        made = sum(w for s, w in enumerate(self.won) if self.sides[s] == maker_side)
        ours, theirs = self.score(made, self.ntricks - made, self.alone >= 0)
        self.points[maker_side] += ours
        self.points[1 - maker_side] += theirs
        self.phase = DONE
        self.turn = -1

    @property
    def coded(self) -> bool:
        """Whether card masks are in card codes (play has begun) rather than engine indices."""
        return self.phase >= PLAY and self.trump >= 0

    def maker_tricks(self) -> int:
        """Tricks won so far by the maker's side."""
        side = self.sides[self.maker]
        return sum(w for s, w in enumerate(self.won) if self.sides[s] == side)
