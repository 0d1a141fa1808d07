"""Playouts and the bidding rule of the search player, on the one rules core.

Everything here runs on :class:`engine.core.HandState` (see its card codes): the
random and heuristic playouts finish a hand's play from any point, and the
threshold bidding and discard rules choose action ids. The playouts are flat
loops over the state's masks (the search's inner loop); each card they play
follows the core's rules (the trick winner of :meth:`engine.core.HandState.play`,
its follow-suit blocks and tableau reveal), and ``tests/ai/test_ai_sim.py``
replays their traces through
:class:`~engine.game.Game` to keep them so. The double pack (RULES.md §6 option) is
played by the same choice rules in loops that leave each card to the core's
:meth:`~engine.core.DoublePackHand.play`, whose tie rule the flat loops do not know.
"""

from __future__ import annotations

import random
from typing import Final

from engine.actions import (
    BID_BASE,
    BID_LEVELS,
    CALL_CARD_BASE,
    CALL_SUIT_BASE,
    DISCARD_IDS,
    GIVE_IDS,
    TURN_DOWN,
)
from engine.cards import CARDS, EFFECTIVE_SUIT, POWER, RANK_INDEX, SECOND
from engine.core import (
    ALONE,
    ASK,
    AUCTION,
    BID1,
    BID2,
    BLIND,
    CALL,
    DISCARD,
    DONE,
    GIVE,
    GO_ALONE,
    NAME,
    OFF_MASK,
    ORDER,
    PASS,
    PLAY,
    SUIT_BLOCK,
    TAKE,
    TRUMP,
    TWIN_CODE,
    HandState,
    bits,
)

__all__ = [
    "BID_THRESHOLD",
    "Teams",
    "hand_value",
    "heuristic_bid",
    "heuristic_discard",
    "play_out",
    "play_teams",
    "rollout_heuristic",
    "rollout_random",
]


def _block_tables() -> list[list[tuple[int, ...]]]:
    # BITS[b][chunk]: the codes of the set bits of a 13-bit chunk of block b, so that
    # picking a random card of a suit is one index and one multiplication.
    return [
        [tuple(13 * b + i for i in range(13) if m >> i & 1) for m in range(1 << 13)]
        for b in range(4)
    ]


# Final: the compiled build (setup.py) reads them as statics, not from the module's dictionary.
_BITS: Final = _block_tables()
_B0: Final = _BITS[0]
_B1: Final = _BITS[1]
_B2: Final = _BITS[2]
_B3: Final = _BITS[3]
_LOW: Final = [(m & -m).bit_length() - 1 for m in range(1 << 13)]
"""Position of the lowest set bit of a 13-bit chunk (-1 for 0)."""


# --- playouts ----------------------------------------------------------------------
# The two loops below are deliberately flat (locals only, no calls but the RNG):
# they are the inner loop of the search and of the playout benchmark.


def rollout_random(sim: HandState, rng: random.Random, trace: list[int] | None = None) -> None:
    """Finish the play of ``sim`` (in ``PLAY``) with uniformly random legal cards.

    Appends each card code played to ``trace`` when given; scores the hand.
    """
    if sim.twins:
        _rollout_random_twins(sim, rng, trace)
        return
    if sim.active == 2 and not sim.in_trick:
        _rollout_random_pair(sim, rng, trace)
    else:
        _rollout_random_seats(sim, rng, trace)
    sim.done = sim.ntricks
    sim.in_trick = 0
    sim.end_hand()


def _rollout_random_seats(sim: HandState, rng: random.Random, trace: list[int] | None) -> None:
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
    # Jackpot (RULES.md §7): each trick draws a chip while the pool lasts, as the core's
    # play does; without this, playouts saw only the no-trick payments and the sweep.
    pool = sim.pool
    points = sim.points
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
            if pool:
                pool -= 1
                points[bs] += 1
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
    sim.pool = pool
    sim.last_winner = bs


# Two seats from a trick boundary (Tuque): one loop turn per trick, both hands in
# locals, each hand also kept as a list so that a random lead is a swap-and-pop.
def _rollout_random_pair(sim: HandState, rng: random.Random, trace: list[int] | None) -> None:
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


Teams = tuple[list[int], list[list[int]]]
"""Who plays with whom in a hand's play (:func:`play_teams`)."""


def play_teams(sim: HandState) -> Teams:
    """Each seat's side in ``sim``'s play (0 the makers, as
    :meth:`~engine.core.HandState.play_sides`) and each seat's opponents in play (a
    loner's partners sit out). They do not change while the hand is played."""
    sides = sim.play_sides()
    out = sim.out
    n = sim.n
    return sides, [
        [o for o in range(n) if sides[o] != sides[p] and not out >> o & 1] for p in range(n)
    ]


def rollout_heuristic(
    sim: HandState, trace: list[int] | None = None, cards: int = -1, teams: Teams | None = None
) -> None:
    """Finish the play of ``sim`` (in ``PLAY``) with a fast, deterministic card-play rule.

    With ``cards`` > 0, play only that many cards (the search uses 1 to let the
    rule play for the other seats). ``teams``: :func:`play_teams` of the hand, when the
    caller has it (the search plays one deal a card at a time: working them out at
    each card was a large part of such a call, up to two thirds of it pure).

    Like the solver it sees every card of the deal (a greedy double-dummy rule).
    Leading: the makers draw trump while they hold the top one; else a card of
    another suit no opponent can beat or trump; else the lowest card of a suit no
    opponent can trump, else the lowest other-suit card, else the lowest trump.
    Following: partner winning: lowest; else the lowest card that wins (by
    following, or by trumping when void), else the lowest card (a discard from
    other suits before trump). Appends each code played to ``trace`` when given.
    """
    sides, foes = teams if teams is not None else play_teams(sim)
    if sim.twins:
        _rollout_heuristic_twins(sim, trace, cards, sides, foes)
        return
    hands = sim.hand
    pend = sim.pend
    under = sim.under
    nxt = sim.nxt
    won = sim.won
    maker_side = 0
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
    pool = sim.pool  # Jackpot's chips drawn by tricks (see _rollout_random_seats)
    points = sim.points
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
            if pool:
                pool -= 1
                points[bs] += 1
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
    sim.pool = pool
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
    sim.end_hand()


# --- the double pack ---------------------------------------------------------------
# The same choices as the loops above on the double pack's codes (a trump block of 16,
# twins side by side), each card played by the core, which knows the tie rule.


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _rollout_random_twins(sim: HandState, rng: random.Random, trace: list[int] | None) -> None:
    rnd = rng.random
    while sim.phase == PLAY:
        s = sim.turn
        h = sim.hand[s]
        if sim.in_trick:
            f = h & SUIT_BLOCK[sim.led]
            if f:
                h = f
        choice = bits(h)
        c = choice[int(rnd() * len(choice))]
        if trace is not None:
            trace.append(c)
        sim.play(s, c)


def _rollout_heuristic_twins(
    sim: HandState, trace: list[int] | None, cards: int, sides: list[int], foes: list[list[int]]
) -> None:
    while cards and sim.phase == PLAY:
        s = sim.turn
        if sim.in_trick:
            c = _follow_twins(sim, s, sides[sim.best_seat] == sides[s])
        else:
            c = _lead_twins(sim, s, foes[s], sides[s] == 0)
        if trace is not None:
            trace.append(c)
        sim.play(s, c)
        cards -= 1


def _beaten(p: int, theirs: int) -> bool:
    """Whether a block's chunk ``theirs`` holds a card that beats position ``p`` played
    after it: a higher one, or its twin (RULES.md tie rule; no twin past position 13)."""
    return bool(theirs >> (p + 1)) or (p < 14 and bool(theirs >> (p ^ 1) & 1))


def _lead_twins(sim: HandState, s: int, foes: list[int], maker: bool) -> int:
    """:func:`rollout_heuristic`'s lead for the double pack."""
    hands = sim.hand
    h = hands[s]
    tr = h >> TRUMP
    their = 0
    for o in foes:
        their |= hands[o] >> TRUMP
    if tr and their and maker and not _beaten(tr.bit_length() - 1, their):
        return TRUMP + tr.bit_length() - 1
    safe = lowest = -1
    lo_safe = lo_any = 99
    for b in (0, 13, 26):
        x = (h >> b) & 8191
        if not x:
            continue
        top = x.bit_length() - 1
        sure = True
        ruff = False
        for o in foes:
            y = (hands[o] >> b) & 8191
            if y and _beaten(top, y):
                sure = False
            elif not y and hands[o] >> TRUMP:
                sure = False
                ruff = True
        if sure:
            return b + top
        p = _lowest(x)
        if p < lo_any:
            lo_any = p
            lowest = b + p
        if not ruff and p < lo_safe:
            lo_safe = p
            safe = b + p
    return safe if safe >= 0 else lowest if lowest >= 0 else TRUMP + _lowest(tr)


def _follow_twins(sim: HandState, s: int, friend: bool) -> int:
    """:func:`rollout_heuristic`'s card to a trick for the double pack: the lowest card
    that wins (the best card's twin below it does), else the lowest."""
    h = sim.hand[s]
    led = sim.led
    best = sim.best
    twin = TWIN_CODE[best]
    f = h & SUIT_BLOCK[led]
    if f:
        if not friend and (best >= TRUMP) == (led >= 3):  # best is of the led suit
            if 0 <= twin < best and f >> twin & 1:
                return twin
            w = f >> (best + 1)
            if w:
                return best + 1 + _lowest(w)
        return _lowest(f)
    tr = h >> TRUMP
    if tr and not friend:
        if best < TRUMP:
            return TRUMP + _lowest(tr)
        if 0 <= twin < best and h >> twin & 1:
            return twin
        w = h >> (best + 1)
        if w:
            return best + 1 + _lowest(w)
    o = h & OFF_MASK
    if not o:
        return TRUMP + _lowest(tr)
    lo, c = 99, -1
    for b in (0, 13, 26):
        x = (o >> b) & 8191
        if x and _lowest(x) < lo:
            lo = _lowest(x)
            c = b + lo
    return c


# --- bidding rule ------------------------------------------------------------------


def _value_table(trump: int) -> list[float]:
    # Rough trick-taking value of each card under ``trump``: trumps by rank, then
    # aces and kings of other suits. Calibrated by heuristic self-play (docs/ai.md).
    values = [0.0] * len(CARDS)
    for card in range(len(CARDS)):
        if EFFECTIVE_SUIT[trump][card] == trump:
            power = POWER[trump][trump][card]
            if power >= 200:
                values[card] = 1.0
            elif power >= 140:
                values[card] = 0.9
            else:
                values[card] = 0.45 + 0.05 * (power - 100)
        else:
            rank = RANK_INDEX[card]
            values[card] = 0.6 if rank == 8 else 0.25 if rank == 7 else 0.0
    return values


VALUE: Final = [_value_table(t) for t in range(4)]
"""``VALUE[trump][card]``: rough trick value of a card, for the bidding rule."""


def _chunk_values(values: list[float], shift: int) -> list[float]:
    # Sum of ``values`` over each 13-bit chunk of a card mask: three look-ups per hand.
    table = [0.0] * (1 << 13)
    for m in range(1, 1 << 13):
        low = m & -m
        card = shift + low.bit_length() - 1
        table[m] = table[m ^ low] + (values[card] if card < len(values) else 0.0)
    return table


_VALUE_CHUNKS: Final = [
    [_chunk_values(VALUE[t], shift) for shift in (0, 13, 26, 39, 52)] for t in range(4)
]


def hand_value(mask: int, trump: int) -> float:
    """Sum of :data:`VALUE` over an engine card mask."""
    a, b, c, d, e = _VALUE_CHUNKS[trump]
    if mask >> SECOND:  # second copies of the double pack: two chunks more
        return (
            a[mask & 8191]
            + b[(mask >> 13) & 8191]
            + c[(mask >> 26) & 8191]
            + d[(mask >> 39) & 8191]
            + e[mask >> 52]
        )
    return a[mask & 8191] + b[(mask >> 13) & 8191] + c[mask >> 26]


BID_THRESHOLD = {
    "tuque": 4.3,
    "tuque61": 4.3,
    "euchre": 3.2,
    "british": 3.2,
    "two_hand": 2.1,
    "six_hand": 2.5,
    "almonte": 2.5,
    "call_ace": 3.4,
}
"""Default :func:`heuristic_bid` threshold per variant: the hand value from which
making trump scored more than it cost in heuristic self-play (docs/ai.md); other
variants fall back to 4.3.

The fallback (Tuque's, for 12-card hands) is far too high for five-card hands: the
playouts' other seats almost never bid, so a pass looked like a thrown-in hand. The
values below were measured as Almonte's was: the search bidding and the normal
level playing the cards, against the normal level, 40 games on seed 1, 200
iterations (docs/players.md has the figures). Almonte: best of 2.0 / 2.5 / 3.2 /
4.3. British: best of 3.0 / 3.2 / 3.4 / 3.6 / 4.3. Six-hand: best of 2.0 / 2.5 /
4.3. Two-hand and Call-Ace: the value that best reproduces the normal level's own
bids (two-hand 2.0–2.1, 90% agreement; Call-Ace 3.5, 91%) and where a made trump
starts to pay (2.1, 3.4): two-hand's bids are the normal level's (see
``engine.ai.search.NORMAL_BIDS``) and this is the model the sampler reads them
with; Call-Ace's searched bids scored alike at 3.4 and 4.3 (200 games).
"""


def heuristic_bid(sim: HandState, threshold: float) -> int:
    """A threshold bidding rule for the seat to act in ``sim`` (bidding or going alone).

    Values the seat's cards (hand and face-up tableau) with each trump it could
    make: the dealer counts the up-card it would add, an opponent's up-card counts
    against, a partner adds a constant. Bids the best suit when the value reaches
    ``threshold`` (or when the dealer is stuck); goes alone only 1.3 above it.
    Returns an action id.
    """
    seat = sim.turn
    own = sim.hand[seat] | sim.tab[seat]
    phase = sim.phase
    if phase == ALONE:
        if sim.sides[seat] != sim.sides[sim.maker]:
            return PASS  # a defender never goes alone (RULES.md §4 allows it; it rarely pays)
        return GO_ALONE if hand_value(own, sim.trump) >= threshold + 1.3 else PASS
    if phase != BID1 and phase != BID2:
        return _family_decision(sim, own, threshold)
    legal = sim.legal()
    if TURN_DOWN in legal:
        return TURN_DOWN if hand_value(own, sim.up_suit) >= threshold + 1.3 else PASS
    best_action, best_value = PASS, -1.0
    for action in legal:
        if action == PASS:
            continue
        if sim.phase == BID1:
            suit = sim.up_suit if action in (ORDER, TAKE) else (action - 2) % 5
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


def _family_decision(sim: HandState, own: int, threshold: float) -> int:
    """RULES.md §4–§7 decisions inside playouts: naming unseen, a loner's card request
    and the gift, calling a partner, and Auction bids (an action id)."""
    phase = sim.phase
    if phase == BLIND:
        return NAME + max(range(4), key=lambda s: hand_value(own, s))
    if phase == ASK:
        return sim.legal()[-1]  # ask a partner: a free exchange
    if phase == GIVE:
        values = VALUE[sim.trump]
        return GIVE_IDS[max(bits(sim.hand[sim.turn]), key=lambda c: values[c])]
    if phase == CALL:
        legal = sim.legal()
        if sim.v.makers == "call_suit":
            if hand_value(own, sim.trump) >= threshold + 1.3:
                return GO_ALONE
            return CALL_SUIT_BASE + sim.trump  # the best trump's holder is a strong partner
        values = VALUE[sim.trump]
        return max(legal, key=lambda a: values[a - CALL_CARD_BASE])
    if phase == AUCTION:
        suit = max(range(4), key=lambda s: hand_value(own, s))
        value = hand_value(own, suit) + 1.2  # the partner to be called
        level = 0
        for i, need in enumerate((threshold, threshold + 0.8, threshold + 1.6)):
            if value >= need:
                level = BID_LEVELS[i]
        action = BID_BASE + 4 * BID_LEVELS.index(level) + suit if level else PASS
        return action if action in sim.legal() else PASS
    return sim.legal()[0]


def heuristic_discard(sim: HandState) -> int:
    """The dealer's discard (action id): the card of least :data:`VALUE`, lowest first."""
    values = VALUE[sim.trump]
    card = min(bits(sim.hand[sim.turn]), key=lambda c: (values[c], RANK_INDEX[c]))
    return DISCARD_IDS[card]


def play_out(sim: HandState, threshold: float) -> None:
    """Finish the hand from any phase: the bidding rule, the discard rule, then heuristic play."""
    while sim.phase != PLAY and sim.phase != DONE:
        if sim.phase == DISCARD:
            sim.apply(heuristic_discard(sim))
        else:
            sim.apply(heuristic_bid(sim, threshold))
    if sim.phase == PLAY:
        rollout_heuristic(sim)
