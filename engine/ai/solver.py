"""Exact endgame solver: alpha-beta over a fully known hand (a determinization).

The question asked is always a yes/no one, "can the maker's side take at least
``target`` tricks in all?", answered by a null-window alpha-beta with a
transposition table at trick boundaries. A hand's reward is a non-decreasing
function of the maker's tricks (RULES.md §1–§3 scoring), so its minimax value
is the reward of the minimax trick count, and that count only matters up to the
next point where the score changes: :func:`maker_tricks` binary-searches those
points. Cards of one suit held by one seat with no unplayed card between them
are equivalent (unless one covers a face-down tableau card); only the lowest of
each run is searched.

The double pack (RULES.md §6 option) is solved by :class:`_TwinSearch`, which keeps
the trick rule of the loop below by re-labelling identical cards: a seat whose card is
the twin of the trick's best card, played first, swaps codes with it, so that the
second copy wins as the higher code (RULES.md "Trick winner" ruling).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import PLAY, SUIT_BLOCK, TRUMP, TWIN_CODE, HandState

__all__ = ["can_reach", "maker_tricks", "winning_moves"]


class _Search:
    """One solver run on a copy of the hand's cards; the HandState itself is not changed."""

    __slots__ = ("active", "hands", "inplay", "maker", "nxt", "pend", "table", "under")

    def __init__(self, sim: HandState) -> None:
        if sim.phase != PLAY:
            raise ValueError("the endgame solver needs a hand in play")
        self.hands = sim.hand[:]
        self.pend = sim.pend[:]
        self.under = sim.under
        self.maker = [side == 0 for side in sim.play_sides()]
        self.nxt = sim.nxt
        self.active = sim.active
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        inplay = 0
        for s in range(sim.n):
            inplay |= sim.hand[s] | sim.pend[s]
        for c, d in enumerate(sim.under):
            if d and inplay >> c & 1:
                inplay |= d
        self.inplay = inplay

    def moves(self, seat: int, k: int, led: int, best: int) -> list[int]:
        h = self.hands[seat]
        live = self.inplay
        if k:
            f = h & SUIT_BLOCK[led]
            if f:
                h = f
            live |= 1 << best  # the card to beat still separates two of ours
        out = []
        under = self.under
        prev = -99
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            # Skip a card touching the previous one tried (same suit, nothing live between),
            # unless either covers a face-down card: playing it turns that card up.
            if (
                c // 13 == prev // 13
                and not (live >> (prev + 1)) & ((1 << (c - prev - 1)) - 1)
                and not under[c]
                and not under[prev]
            ):
                prev = c
                continue
            out.append(c)
            prev = c
        if not k:
            out.reverse()  # lead high first: cuts off sooner for the side that can win
        return out

    def reach(self, seat: int, k: int, led: int, best: int, bs: int, need: int, left: int) -> bool:
        """Whether the makers take ``need`` of the ``left`` tricks (``k`` cards in the trick)."""
        if need <= 0:
            return True
        if need > left:
            return False
        key: tuple[int, ...] = ()
        if not k:
            key = (seat, *self.hands)
            bounds = self.table.get(key)
            if bounds is not None:
                lo, hi = bounds
                if lo >= need:
                    return True
                if hi < need:
                    return False
        maximizing = self.maker[seat]
        hands = self.hands
        pend = self.pend
        under = self.under
        last = k == self.active - 1
        result = not maximizing
        for c in self.moves(seat, k, led, best):
            bit = 1 << c
            hands[seat] ^= bit
            self.inplay ^= bit
            d = under[c]
            if d:
                pend[seat] |= d
            if not k:
                nled, nbest, nbs = c // 13, c, seat
            elif c > best and (c >= TRUMP or c // 13 == led):
                nled, nbest, nbs = led, c, seat
            else:
                nled, nbest, nbs = led, best, bs
            if last:
                revealed = pend[:]
                for p, m in enumerate(revealed):
                    if m:
                        hands[p] |= m
                        pend[p] = 0
                ok = self.reach(nbs, 0, -1, -1, -1, need - self.maker[nbs], left - 1)
                for p, m in enumerate(revealed):
                    if m:
                        hands[p] ^= m
                        pend[p] = m
            else:
                ok = self.reach(self.nxt[seat], k + 1, nled, nbest, nbs, need, left)
            if d:
                pend[seat] ^= d
            hands[seat] ^= bit
            self.inplay ^= bit
            if ok == maximizing:
                result = maximizing
                break
        if not k:
            lo, hi = self.table.get(key, (0, left))
            if result:
                lo = max(lo, need)
            else:
                hi = min(hi, need - 1)
            self.table[key] = (lo, hi)
        return result


class _TwinSearch(_Search):
    """The search of the double pack: identical cards are told apart by play order."""

    __slots__ = ()

    def moves(self, seat: int, k: int, led: int, best: int) -> list[int]:
        # As _Search.moves, but a card whose twin is still live is never merged with
        # its neighbour: which copy comes first decides a trick between them.
        h = self.hands[seat]
        live = self.inplay
        if k:
            f = h & SUIT_BLOCK[led]
            if f:
                h = f
            live |= 1 << best
        out = []
        prev = -99
        while h:
            low = h & -h
            c = low.bit_length() - 1
            h ^= low
            if (
                c // 13 == prev // 13
                and not (live >> (prev + 1)) & ((1 << (c - prev - 1)) - 1)
                and not _twin_live(c, live)
                and not _twin_live(prev, live)
            ):
                prev = c
                continue
            out.append(c)
            prev = c
        if not k:
            out.reverse()
        return out

    def reach(self, seat: int, k: int, led: int, best: int, bs: int, need: int, left: int) -> bool:
        """:meth:`_Search.reach`, with the tie rule: a seat holding the twin of the trick's
        best card takes that card's (higher) code and gives it its own."""
        twin = TWIN_CODE[best] if k else -1
        if twin < 0 or twin > best or not self.hands[seat] >> twin & 1:
            return super().reach(seat, k, led, best, bs, need, left)
        swap = 1 << twin | 1 << best
        self.hands[seat] ^= swap
        self.inplay ^= swap
        result = super().reach(seat, k, led, twin, bs, need, left)
        self.hands[seat] ^= swap
        self.inplay ^= swap
        return result


def _twin_live(c: int, live: int) -> bool:
    twin = TWIN_CODE[c]
    return twin >= 0 and bool(live >> twin & 1)


def _start(sim: HandState) -> tuple[_Search, int]:
    search = _TwinSearch(sim) if sim.twins else _Search(sim)
    return search, sim.ntricks - sim.done


def can_reach(sim: HandState, target: int) -> bool:
    """Whether the maker's side, all cards known, can end with ``target`` tricks or more.

    Raises:
        ValueError: ``sim`` is not in play.
    """
    search, left = _start(sim)
    need = target - sim.maker_tricks()
    return search.reach(sim.turn, sim.in_trick, sim.led, sim.best, sim.best_seat, need, left)


def maker_tricks(sim: HandState, steps: Sequence[int]) -> int:
    """The maker's final tricks under perfect play, exactly up to the points in ``steps``.

    ``steps`` (ascending) are the trick totals at which the hand's score changes;
    returns the largest step the makers can reach, else their tricks so far. With
    every total from 0 to the hand's tricks as steps, this is the exact minimax count.

    Raises:
        ValueError: ``sim`` is not in play.
    """
    search, left = _start(sim)
    have = sim.maker_tricks()
    options = [s for s in steps if have < s <= have + left]
    lo, hi = 0, len(options)  # answer index: options[:lo] reachable, options[hi:] not
    args = (sim.turn, sim.in_trick, sim.led, sim.best, sim.best_seat)
    while lo < hi:
        mid = (lo + hi) // 2
        if search.reach(*args, options[mid] - have, left):
            lo = mid + 1
        else:
            hi = mid
    return options[lo - 1] if lo else have


def winning_moves(sim: HandState, target: int) -> list[int]:
    """The play actions (ids) with which the seat to act meets its side's goal.

    The maker's side wants ``target`` tricks or more in all, the defenders want to
    hold them below it. Every legal card is tried, equivalent ones included.

    Raises:
        ValueError: ``sim`` is not in play.
    """
    out = []
    maximizing = sim.play_sides()[sim.turn] == 0
    for action in sim.legal():
        child = sim.copy()
        child.apply(action)
        reached = child.phase != PLAY and child.maker_tricks() >= target
        if child.phase == PLAY:
            reached = can_reach(child, target)
        if reached == maximizing:
            out.append(action)
    return out
