"""A fast hand simulator for the search player: integers, bitmasks and flat loops.

One :class:`Sim` holds one hand of any variant with every card known (a
determinization, or a real deal in tests). It follows the engine's rules exactly
(RULES.md §1–§3; ``tests/ai/test_sim.py`` plays thousands of random games through
both and compares every legal-action set, trick winner and score), but it keeps
no log and builds no views.

Card codes. Once trump is made, cards are renumbered so that play needs no table
look-ups: code ``13 * block + pos``, where block 3 is the trump suit and blocks
0–2 are the other suits in C, D, H, S order, and ``pos`` grows with the card's
power inside its effective suit (trump: ``6 7 8 9 T Q K A Left Right B1 B2 B3``;
other suits: ``6 7 8 9 T J Q K A``, the Left Bower's printed slot left empty).
So a card beats the best card of the trick exactly when it is higher *and*
either trump or of the best card's block; following suit is one mask; the lowest
card of a suit is its lowest set bit. Before trump (bidding and the discard)
cards keep their engine index.

Actions cross the boundary as engine action ids (``engine.actions.ACTIONS``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.actions import DISCARD_BASE, PLAY_BASE
from engine.cards import EFFECTIVE_SUIT, JACK_INDEX, POWER
from engine.variants import Variant

__all__ = [
    "BID_THRESHOLD",
    "CARD_OF",
    "CODE",
    "DONE",
    "PLAY",
    "Sim",
    "heuristic_bid",
    "heuristic_discard",
    "play_out",
    "rollout_heuristic",
    "rollout_random",
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


def to_codes(trump: int, mask: int) -> int:
    """Re-number an engine card mask into card codes under ``trump``."""
    code = CODE[trump]
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << code[low.bit_length() - 1]
        mask ^= low
    return out


def _block_tables() -> list[list[tuple[int, ...]]]:
    # BITS[b][chunk]: the codes of the set bits of a 13-bit chunk of block b, so that
    # picking a random card of a suit is one index and one multiplication.
    return [
        [tuple(13 * b + i for i in range(13) if m >> i & 1) for m in range(1 << 13)]
        for b in range(4)
    ]


_BITS = _block_tables()
_B0, _B1, _B2, _B3 = _BITS
_LOW = [(m & -m).bit_length() - 1 for m in range(1 << 13)]
"""Position of the lowest set bit of a 13-bit chunk (-1 for 0)."""

ScoreHand = Callable[[int, int, bool], tuple[int, int]]


class Sim:
    """One hand with every card known, from the bidding to the score.

    Attributes are public for the sampler, the rollouts and the solver; treat them
    as read-only elsewhere. Masks are engine card masks before play and card-code
    masks from the first lead on (see the module docstring).

    Attributes:
        n: seats. sides: side of each seat. ntricks: tricks in the hand.
        phase: ``BID1 BID2 DISCARD ALONE PLAY DONE``.
        turn: seat to act. dealer: the dealer. up: the up-card (engine index).
        trump: suit index or -1. maker, alone: seats or -1.
        hand: each seat's playable cards (in play: hand and face-up tableau together).
        tab: face-up tableau cards before play (engine mask); 0 in play.
        under: card -> bit of the face-down card beneath it (engine index before play,
            code in play; 0 if none).
        pend: per seat, face-down cards to turn up when the current trick ends.
        nxt: next seat clockwise, skipping a sitting-out partner. active: seats in play.
        leader, led, best, best_seat, in_trick: the trick in progress.
        won: tricks won by each seat. done: completed tricks.
        last_winner: the winner of the last trick completed by :meth:`apply` or a
            full playout.
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
        "points",
        "score",
        "sides",
        "stick",
        "tab",
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
        self.hand = [0] * n
        self.tab = [0] * n
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
    def from_deal(cls, variant: Variant, order: list[int], dealer: int, stick: bool) -> Sim:
        """A new hand dealt as :meth:`engine.game.Game.deal` lays out ``order`` (card indices)."""
        sim = cls(variant, stick, dealer)
        piles, size = variant.tableau_piles, variant.hand_size
        pos = 0
        for seat in range(variant.players):
            down = order[pos : pos + piles]
            up = order[pos + piles : pos + 2 * piles]
            pos += 2 * piles
            for u, d in zip(up, down, strict=True):
                sim.tab[seat] |= 1 << u
                sim.under[u] = 1 << d
            for c in order[pos : pos + size]:
                sim.hand[seat] |= 1 << c
            pos += size
        sim.up = order[pos]
        return sim

    def copy(self) -> Sim:
        """An independent copy."""
        o = Sim.__new__(Sim)
        o.n, o.sides, o.ntricks, o.score = self.n, self.sides, self.ntricks, self.score
        o.can_alone, o.stick, o.dealer = self.can_alone, self.stick, self.dealer
        o.phase, o.turn, o.up, o.trump = self.phase, self.turn, self.up, self.trump
        o.maker, o.alone, o.pick_up = self.maker, self.alone, self.pick_up
        o.hand, o.tab, o.under, o.pend = self.hand[:], self.tab[:], self.under[:], self.pend[:]
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
            return [DISCARD_BASE + c for c in _bits(self.hand[t])]
        if phase == ALONE:
            return [PASS, GO_ALONE]
        return []

    def apply(self, action: int) -> None:
        """Apply action id ``action`` for the seat to act (assumed legal)."""
        phase = self.phase
        seat = self.turn
        if phase == PLAY:
            self._play(seat, CODE[self.trump][action - PLAY_BASE])
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
                n = self.n
                self.alone = seat
                partner = (seat + n // 2) % n
                self.nxt = [(s + 1 + ((s + 1) % n == partner)) % n for s in range(n)]
                self.active = n - 1
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

    def _after_alone(self) -> None:
        n = self.n
        dealer = self.dealer
        # A dealer whose partner goes alone sits out and does not pick up (RULES.md §3).
        sits_out = self.alone >= 0 and (self.alone + n // 2) % n == dealer
        if self.pick_up and not sits_out:
            self.hand[dealer] |= 1 << self.up
            self.phase = DISCARD
            self.turn = dealer
        else:
            self._start_play()

    def _start_play(self) -> None:
        t = self.trump
        code = CODE[t]
        under = [0] * 52
        for card, bit in enumerate(self.under[:39]):
            if bit:
                under[code[card]] = 1 << code[bit.bit_length() - 1]
        self.under = under
        for s in range(self.n):
            self.hand[s] = to_codes(t, self.hand[s] | self.tab[s])
            self.tab[s] = 0
        self.phase = PLAY
        first = self.alone if self.alone >= 0 else self.dealer
        self.turn = self.leader = self.nxt[first]

    def _play(self, seat: int, c: int) -> None:
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
        for s in range(self.n):
            if self.pend[s]:
                self.hand[s] |= self.pend[s]
                self.pend[s] = 0
        self.in_trick = 0
        self.done += 1
        if self.done == self.ntricks:
            self._score()
        else:
            self.turn = self.leader = winner

    def _score(self) -> None:
        maker_side = self.sides[self.maker]
        made = sum(w for s, w in enumerate(self.won) if self.sides[s] == maker_side)
        ours, theirs = self.score(made, self.ntricks - made, self.alone >= 0)
        self.points[maker_side] += ours
        self.points[1 - maker_side] += theirs
        self.phase = DONE
        self.turn = -1

    def maker_tricks(self) -> int:
        """Tricks won so far by the maker's side."""
        side = self.sides[self.maker]
        return sum(w for s, w in enumerate(self.won) if self.sides[s] == side)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --- playouts ----------------------------------------------------------------------
# The two loops below are deliberately flat (locals only, no calls but the RNG):
# they are the inner loop of the search and of the playout benchmark.


def rollout_random(sim: Sim, rng: random.Random, trace: list[int] | None = None) -> None:
    """Finish the play of ``sim`` (in ``PLAY``) with uniformly random legal cards.

    Appends each card code played to ``trace`` when given; scores the hand.
    """
    if sim.active == 2 and not sim.in_trick:
        _rollout_random_pair(sim, rng, trace)
    else:
        _rollout_random_seats(sim, rng, trace)
    sim.done = sim.ntricks
    sim.in_trick = 0
    sim._score()


def _rollout_random_seats(sim: Sim, rng: random.Random, trace: list[int] | None) -> None:
    rnd = rng.random
    hands = sim.hand
    pend = sim.pend
    under = sim.under
    nxt = sim.nxt
    won = sim.won
    n = sim.n
    active = sim.active
    s = sim.turn
    k = sim.in_trick
    best = sim.best
    bs = sim.best_seat
    led = sim.led
    left = sim.ntricks - sim.done
    reveal = any(pend)
    record = trace is not None
    b0, b1, b2, b3 = _B0, _B1, _B2, _B3
    bits, blocks = _BITS, SUIT_BLOCK
    while left:
        h = hands[s]
        if k:
            f = h & blocks[led]
            if f:
                t = bits[led][f >> (13 * led)]
            else:
                t = b0[h & 8191] + b1[(h >> 13) & 8191] + b2[(h >> 26) & 8191] + b3[h >> 39]
            c = t[int(rnd() * len(t))]
            if c > best and (c >= 39 or c // 13 == led):
                best = c
                bs = s
        else:
            t = b0[h & 8191] + b1[(h >> 13) & 8191] + b2[(h >> 26) & 8191] + b3[h >> 39]
            c = t[int(rnd() * len(t))]
            led = c // 13
            best = c
            bs = s
        hands[s] = h ^ (1 << c)
        if record:
            trace.append(c)  # type: ignore[union-attr]
        d = under[c]
        if d:
            pend[s] |= d
            reveal = True
        k += 1
        if k == active:
            won[bs] += 1
            if reveal:
                for p in range(n):
                    if pend[p]:
                        hands[p] |= pend[p]
                        pend[p] = 0
                reveal = False
            k = 0
            s = bs
            left -= 1
        else:
            s = nxt[s]
    sim.last_winner = bs


# Two seats from a trick boundary (Tuque): one loop turn per trick, both hands in
# locals, each hand also kept as a list so that a random lead is a swap-and-pop.
def _rollout_random_pair(sim: Sim, rng: random.Random, trace: list[int] | None) -> None:
    rnd = rng.random
    under = sim.under
    sa = sim.turn
    sb = 1 - sa
    ha = sim.hand[sa]
    hb = sim.hand[sb]
    la = list(_B0[ha & 8191] + _B1[(ha >> 13) & 8191] + _B2[(ha >> 26) & 8191] + _B3[ha >> 39])
    lb = list(_B0[hb & 8191] + _B1[(hb >> 13) & 8191] + _B2[(hb >> 26) & 8191] + _B3[hb >> 39])
    wa = sim.won[sa]
    wb = sim.won[sb]
    bits, blocks = _BITS, SUIT_BLOCK
    record = trace is not None
    for _ in range(sim.ntricks - sim.done):
        i = int(rnd() * len(la))
        c = la[i]
        la[i] = la[-1]
        la.pop()
        ha ^= 1 << c
        led = c // 13
        f = hb & blocks[led]
        if f:
            t = bits[led][f >> (13 * led)]
            e = t[int(rnd() * len(t))]
            lb.remove(e)
        else:
            i = int(rnd() * len(lb))
            e = lb[i]
            lb[i] = lb[-1]
            lb.pop()
        hb ^= 1 << e
        if record:
            trace.append(c)  # type: ignore[union-attr]
            trace.append(e)  # type: ignore[union-attr]
        d = under[c]
        if d:
            ha |= d
            la.append(d.bit_length() - 1)
        d = under[e]
        if d:
            hb |= d
            lb.append(d.bit_length() - 1)
        if e > c and (e >= 39 or e // 13 == led):
            wb += 1
            ha, hb, la, lb, wa, wb, sa, sb = hb, ha, lb, la, wb, wa, sb, sa
        else:
            wa += 1
    sim.won[sa] = wa
    sim.won[sb] = wb
    sim.hand[sa] = ha
    sim.hand[sb] = hb
    sim.last_winner = sa


def rollout_heuristic(sim: Sim, trace: list[int] | None = None, cards: int = -1) -> None:
    """Finish the play of ``sim`` (in ``PLAY``) with a fast, deterministic card-play rule.

    With ``cards`` > 0, play only that many cards (the search uses 1 to let the
    rule play for the other seats).

    Like the solver it sees every card of the deal (a greedy double-dummy rule).
    Leading: the makers draw trump while they hold the top one; else a card of
    another suit no opponent can beat or trump; else the lowest card of a suit no
    opponent can trump, else the lowest other-suit card, else the lowest trump.
    Following: partner winning: lowest; else the lowest card that wins (by
    following, or by trumping when void), else the lowest card (a discard from
    other suits before trump). Appends each code played to ``trace`` when given.
    """
    hands = sim.hand
    pend = sim.pend
    under = sim.under
    nxt = sim.nxt
    won = sim.won
    sides = sim.sides
    maker_side = sides[sim.maker]
    n = sim.n
    active = sim.active
    last = active - 1
    s = sim.turn
    k = sim.in_trick
    best = sim.best
    bs = sim.best_seat
    led = sim.led
    left = sim.ntricks - sim.done
    reveal = any(pend)
    record = trace is not None
    low = _LOW
    blocks = SUIT_BLOCK
    playing = set()
    seat = s
    for _ in range(active):
        playing.add(seat)
        seat = nxt[seat]
    foes = [[o for o in playing if sides[o] != sides[p]] for p in range(n)]
    while left:
        h = hands[s]
        if k == 0:
            c = -1
            tr = h >> 39
            their = 0  # the opponents' trumps (chunk)
            for o in foes[s]:
                their |= hands[o] >> 39
            if tr and their and sides[s] == maker_side and tr.bit_length() > their.bit_length():
                c = 38 + tr.bit_length()  # draw trump with the top one
            else:
                # A sure winner of another suit, else the lowest card of a suit no
                # opponent can trump, else the lowest of another suit, else the lowest trump.
                safe = lowest = -1
                lo_safe = lo_any = 99
                for b in (0, 13, 26):
                    x = (h >> b) & 8191
                    if not x:
                        continue
                    top = x.bit_length()
                    sure = True
                    ruff = False
                    for o in foes[s]:
                        y = (hands[o] >> b) & 8191
                        if y.bit_length() > top:
                            sure = False
                        elif not y and hands[o] >> 39:
                            sure = False
                            ruff = True
                    if sure:
                        c = b + top - 1
                        break
                    p = low[x]
                    if p < lo_any:
                        lo_any = p
                        lowest = b + p
                    if not ruff and p < lo_safe:
                        lo_safe = p
                        safe = b + p
                if c < 0:
                    c = safe if safe >= 0 else lowest if lowest >= 0 else 39 + low[tr]
            led = c // 13
            best = c
            bs = s
        else:
            f = h & blocks[led]
            friend = sides[bs] == sides[s]
            if f:
                sh = 13 * led
                x = f >> sh
                c = sh + low[x]
                if not friend and (best >= 39) == (led == 3):
                    # best is of the led suit: can we beat it by following?
                    w = x >> (best - sh + 1)
                    if w:
                        c = best + 1 + low[w]
            else:
                tr = h >> 39
                c = -1
                if tr and not friend:
                    if best >= 39:
                        w = tr >> (best - 38)
                        if w:
                            c = best + 1 + low[w]
                    else:
                        c = 39 + low[tr]
                if c < 0:
                    o = h & OFF_MASK
                    if o:
                        lo = 99
                        for b in (0, 13, 26):
                            x = (o >> b) & 8191
                            if x:
                                p = low[x]
                                if p < lo:
                                    lo = p
                                    c = b + p
                    else:
                        c = 39 + low[tr]
            if c > best and (c >= 39 or c // 13 == led):
                best = c
                bs = s
        hands[s] = h ^ (1 << c)
        if record:
            trace.append(c)  # type: ignore[union-attr]
        d = under[c]
        if d:
            pend[s] |= d
            reveal = True
        if k == last:
            won[bs] += 1
            if reveal:
                for p in range(n):
                    if pend[p]:
                        hands[p] |= pend[p]
                        pend[p] = 0
                reveal = False
            k = 0
            s = bs
            left -= 1
        else:
            k += 1
            s = nxt[s]
        cards -= 1
        if not cards:
            break
    if left:
        sim.done = sim.ntricks - left
        sim.turn = s
        sim.in_trick = k
        sim.led, sim.best, sim.best_seat = led, best, bs
        if not k:
            sim.leader = s
        return
    sim.done = sim.ntricks
    sim.in_trick = 0
    sim.last_winner = bs
    sim._score()


# --- bidding rule ------------------------------------------------------------------


def _value_table(trump: int) -> list[float]:
    # Rough trick-taking value of each card under ``trump``: trumps by rank, then
    # aces and kings of other suits. Calibrated by heuristic self-play (docs/ai.md).
    values = [0.0] * 39
    for card in range(39):
        if EFFECTIVE_SUIT[trump][card] == trump:
            power = POWER[trump][trump][card]
            if power >= 200:
                values[card] = 1.0
            elif power >= 140:
                values[card] = 0.9
            else:
                values[card] = 0.45 + 0.05 * (power - 100)
        else:
            rank = card % 9
            values[card] = 0.6 if rank == 8 else 0.25 if rank == 7 else 0.0
    return values


VALUE = [_value_table(t) for t in range(4)]
"""``VALUE[trump][card]``: rough trick value of a card, for the bidding rule."""


def _chunk_values(values: list[float], shift: int) -> list[float]:
    # Sum of ``values`` over each 13-bit chunk of a card mask: three look-ups per hand.
    table = [0.0] * (1 << 13)
    for m in range(1, 1 << 13):
        low = m & -m
        card = shift + low.bit_length() - 1
        table[m] = table[m ^ low] + (values[card] if card < 39 else 0.0)
    return table


_VALUE_CHUNKS = [[_chunk_values(VALUE[t], shift) for shift in (0, 13, 26)] for t in range(4)]


def hand_value(mask: int, trump: int) -> float:
    """Sum of :data:`VALUE` over an engine card mask."""
    a, b, c = _VALUE_CHUNKS[trump]
    return a[mask & 8191] + b[(mask >> 13) & 8191] + c[mask >> 26]


BID_THRESHOLD = {"tuque": 4.3, "tuque61": 4.3, "euchre": 3.2}
"""Default :func:`heuristic_bid` threshold per variant: the hand value from which
making trump scored more than it cost in heuristic self-play (docs/ai.md)."""


def heuristic_bid(sim: Sim, threshold: float) -> int:
    """A threshold bidding rule for the seat to act in ``sim`` (bidding or going alone).

    Values the seat's cards (hand and face-up tableau) with each trump it could
    make: the dealer counts the up-card it would add, an opponent's up-card counts
    against, a partner adds a constant. Bids the best suit when the value reaches
    ``threshold`` (or when the dealer is stuck); goes alone only 1.3 above it.
    Returns an action id.
    """
    seat = sim.turn
    own = sim.hand[seat] | sim.tab[seat]
    if sim.phase == ALONE:
        return GO_ALONE if hand_value(own, sim.trump) >= threshold + 1.3 else PASS
    legal = sim.legal()
    best_action, best_value = PASS, -1.0
    for action in legal:
        if action == PASS:
            continue
        if sim.phase == BID1:
            suit = sim.up // 9 if action in (ORDER, TAKE) else (action - 2) % 5
            mine = own | (1 << sim.up) if seat == sim.dealer else own
            value = hand_value(mine, suit)
            if sim.sides[sim.dealer] != sim.sides[seat]:
                value -= VALUE[suit][sim.up] * 0.5  # it goes to the other side
        else:
            value = hand_value(own, action - NAME)
        if sim.n == 4:
            value += 1.2  # a partner's cards
        if value > best_value:
            best_action, best_value = action, value
    if PASS not in legal or best_value >= threshold:
        return best_action
    return PASS


def heuristic_discard(sim: Sim) -> int:
    """The dealer's discard (action id): the card of least :data:`VALUE`, lowest first."""
    values = VALUE[sim.trump]
    card = min(_bits(sim.hand[sim.turn]), key=lambda c: (values[c], c % 9))
    return DISCARD_BASE + card


def play_out(sim: Sim, threshold: float) -> None:
    """Finish the hand from any phase: the bidding rule, the discard rule, then heuristic play."""
    while sim.phase != PLAY and sim.phase != DONE:
        if sim.phase == DISCARD:
            sim.apply(heuristic_discard(sim))
        else:
            sim.apply(heuristic_bid(sim, threshold))
    if sim.phase == PLAY:
        rollout_heuristic(sim)
