"""Determinization: full deals consistent with one seat's view.

A :class:`Sampler` reads a :class:`~engine.view.PlayerView` once and then draws
any number of :class:`~engine.core.HandState` hands in which every card the view
shows is where the view shows it and every hidden card is somewhere the view
allows (RULES.md §1 "What each player sees"):

* hidden: the other seats' hands, every face-down tableau card (its owner does
  not know it either), the kitty and another dealer's discard;
* known: the viewer's hand and discard, all face-up tableau cards, every card
  played, and the up-card. Once turned down the up-card is out of play. Once
  taken up it is in the dealer's hand (it is a trump, or a Ben that made trump)
  unless the dealer has shown a void in its suit or has no hand left, in which
  case it was the discard: a deliberate prior, since dealers keep the card they took;
* a seat that did not follow the led suit holds none of it in hand, by
  effective suit (Bens and the Left Bower are trump). Face-down cards are not
  bound by this: they were not in the hand.

Bids are evidence too: given a bid threshold, deals are reweighted by how
well they explain the other seats' passes and calls (:meth:`Sampler.likelihood`);
this changes how often a consistent deal is drawn, never whether it can be.

Without that weighting, with one constrained hand (Tuque) each sample is uniform
over the consistent deals; with several (Euchre) the hands are filled most-constrained first, which
is close to uniform, and a randomized backtracking fill guarantees a consistent
deal whenever the quick fill fails.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine.actions import Ask, Bid, NameTrump, OrderUp, Pass, TakeUp, TurnDown
from engine.ai._mypyc import mypyc_attr
from engine.ai.sim import hand_value
from engine.cards import EFFECTIVE_SUIT, POWER, SUIT_MASK
from engine.core import (
    ALONE,
    ASK,
    AUCTION,
    BID1,
    BID2,
    BLIND,
    CALL,
    DISCARD,
    GIVE,
    PLAY,
    STAGE_PLAY,
    STAGE_REQUEST,
    HandState,
    bits,
    new_hand,
)
from engine.variants import Variant, get_variant
from engine.view import Phase, PlayerView

__all__ = ["Sampler", "voids"]

_PHASES = {
    Phase.BIDDING_1: BID1,
    Phase.BIDDING_2: BID2,
    Phase.DISCARD: DISCARD,
    Phase.GOING_ALONE: ALONE,
    Phase.PLAY: PLAY,
    Phase.BLIND_NAMING: BLIND,
    Phase.CARD_REQUEST: ASK,
    Phase.GIVING: GIVE,
    Phase.CALLING: CALL,
    Phase.AUCTION: AUCTION,
}
_WIDOW: Final = -1
"""The slot key of Auction's face-down widow among the hidden hands."""
_QUICK_TRIES: Final = 20
_BID_TRIES: Final = 6
_BID_SOFTNESS: Final = 0.5


def voids(view: PlayerView) -> list[int]:
    """Per seat, the mask of cards the seat cannot hold in hand: the suits it failed to follow.

    Suits are effective suits under this hand's trump (RULES.md "Following").
    """
    out = [0] * view.players
    if view.trump is None:
        return out
    t = view.trump.index
    es = EFFECTIVE_SUIT[t]
    for trick in (*view.tricks, view.trick):
        if not trick.plays:
            continue
        led = es[trick.plays[0][1].index]
        for seat, card in trick.plays[1:]:
            if es[card.index] != led:
                out[seat] |= SUIT_MASK[t][led]
    return out


@dataclass(frozen=True, slots=True)
class _Slot:
    seat: int
    size: int
    allowed: int


@mypyc_attr(allow_interpreted_subclasses=True)  # bench/oracle.py's subclass, when compiled
class Sampler:
    """Draws determinizations of ``view`` (which must be a seat's view during a hand).

    Args:
        view: the viewer's view; its phase must be bidding, discard, going alone or play.
        bid_threshold: if given, deals are also weighted by how well they explain the
            other seats' bids (see :meth:`sample`), judged by the bidding rule of
            :func:`~engine.ai.sim.heuristic_bid` with this threshold.

    Raises:
        ValueError: a spectator's view or a view between hands.
    """

    def __init__(
        self,
        view: PlayerView,
        bid_threshold: float | None = None,
    ) -> None:
        if view.seat is None or view.phase not in _PHASES:
            raise ValueError("a sampler needs a seat's view during a hand")
        self.view = view
        self.options = view.options or get_variant(view.variant).defaults
        self.variant: Variant = get_variant(view.variant).configured(self.options)
        self.stick = view.stick_the_dealer
        me = view.seat
        known = 0
        for c in view.hand:
            known |= 1 << c.index
        for seat in range(view.players):
            for c in view.face_up(seat):
                known |= 1 << c.index
        played = 0
        for trick in (*view.tricks, view.trick):
            for _, c in trick.plays:
                played |= 1 << c.index
        for c in view.discards:
            known |= 1 << c.index
        up = view.up_card
        # Read once: the view's cards are Python objects, slow to read in the draws' loops.
        up_bit = self.up_bit = 1 << up.index if up is not None else 0
        self.void = voids(view)
        # The up-card: on the table (bidding, going alone, turned down), or taken up.
        self.up_holder = -1
        if self._taken_up() and not (known | played) & up_bit and view.dealer != me:
            dealer = view.dealer
            if view.hand_sizes[dealer] and not self.void[dealer] & up_bit:
                self.up_holder = dealer
        self.shown = [0] * view.players  # public cards each seat held at the deal
        for trick in (*view.tricks, view.trick):
            for seat, c in trick.plays:
                self.shown[seat] |= 1 << c.index
        for seat in range(view.players):
            for c in view.face_up(seat):
                self.shown[seat] |= 1 << c.index
        pack = sum(1 << c.index for c in self.variant.pack)
        self.pool = pack & ~known & ~played & ~up_bit
        slots = []
        for seat in range(view.players):
            if seat == me and not view.blind:  # a dealer naming unseen: their hand too
                continue
            size = view.hand_sizes[seat] - (seat == self.up_holder)
            slots.append(_Slot(seat, size, self.pool & ~self.void[seat]))
        if view.widow:
            slots.append(_Slot(_WIDOW, view.widow, self.pool))  # Auction's widow, face down
        # Most constrained first: fewest allowed cards for the cards needed.
        slots.sort(key=lambda s: s.allowed.bit_count() - s.size)
        self.slots = slots
        self.called_places = self._called_places()
        self.allowed = bits(slots[0].allowed) if len(slots) == 1 else []
        self.forced = bits(self.pool & ~slots[0].allowed) if len(slots) == 1 else []
        self.template, self.down_into = self._template()
        self.threshold = bid_threshold
        self.partner_value = 1.2 if view.players == 4 else 0.0  # a partner's cards, unseen
        makers = self.variant.makers
        self.partnered = makers == "call_suit" or makers == "call_card"
        infer = bid_threshold is not None and self.variant.bidding == "rounds"
        self.bids = self._bid_events() if infer else []

    def _called_places(self) -> list[tuple[int, int, list[_Slot]]]:
        """Auction (RULES.md §7): where an unseen called card may be, as ``(weight, seat,
        slots)``: in the hand of ``seat`` (``-1``: out of play), with ``slots`` the hidden
        hands left to fill around it; empty when the card is seen or nothing is called.

        The maker names a card not in their hand, so it is never the maker's. A deliberate
        prior: nor is it among the maker's own discards (a maker calls a card to find a
        partner), so an unseen called card is in another hand or, with the 32-card pack,
        out of play, each place weighted by its cards. Filled uniformly, the maker held it
        in about one deal in five (the maker partnering itself) and the discards in one in eight.
        """
        view = self.view
        card = view.called_card
        if card is None or view.maker is None or not self.pool >> card.index & 1:
            return []
        bit = 1 << card.index
        variant = self.variant
        out = variant.kitty_size
        places = [(out, -1, [_Slot(s.seat, s.size, s.allowed & ~bit) for s in self.slots])]
        for slot in self.slots:
            if slot.seat == view.maker or not slot.allowed & bit or not slot.size:
                continue
            rest = [
                _Slot(s.seat, s.size - 1, s.allowed & ~bit)
                if s is slot
                else _Slot(s.seat, s.size, s.allowed & ~bit)
                for s in self.slots
            ]
            places.append((slot.size, slot.seat, rest))
        # A place can leave the other cards no fit (a seat's room needed for cards only it
        # may hold); the real deal fits one of them: out of play if nowhere else.
        pool = self.pool & ~bit
        fits = [p for p in places if self._fits(p[2], pool)]
        return [p for p in fits if p[0]] or fits[:1]

    def _fits(self, slots: list[_Slot], pool: int) -> bool:
        """Whether some deal of ``pool`` fills ``slots`` (the backtracking fill is complete)."""
        try:
            self._careful(random.Random(0), slots, pool)
        except ValueError:
            return False
        return True

    def _bid_events(self) -> list[tuple[int, tuple[int, ...], bool, bool]]:
        """The other seats' bids as ``(seat, suits, accepted, with_up_card)``.

        A pass says no suit in ``suits`` was worth making; an acceptance, that the
        one suit was. A stuck dealer's call and going alone say nothing here.
        """
        view = self.view
        up = view.up_card
        assert up is not None
        bid_suit = view.bid_suit.index if view.bid_suit is not None else -1
        ben = bid_suit < 0
        round_1 = True
        events: list[tuple[int, tuple[int, ...], bool, bool]] = []
        bids = view.bids
        ben_up = self.variant.ben_up
        if up.is_ben and (ben_up == "dealer_makes" or ben_up == "dealer_names"):
            bids = bids[1:]  # the dealer named a suit unseen: it says nothing of the hand
        for seat, action in bids:
            if isinstance(action, TurnDown):
                if seat != view.seat:
                    events.append((seat, (bid_suit,), True, False))
                break
            suits: tuple[int, ...]
            if isinstance(action, OrderUp | TakeUp | NameTrump):
                suits = (action.suit.index,) if action.suit is not None else (bid_suit,)
                stuck = not round_1 and seat == view.dealer and self.stick
                if seat != view.seat and not stuck:
                    events.append((seat, suits, True, round_1 and seat == view.dealer))
                break
            if round_1:
                suits = (0, 1, 2, 3) if ben else (bid_suit,)
            else:
                suits = tuple(s for s in range(4) if ben or s != bid_suit)
            if seat != view.seat:
                events.append((seat, suits, False, round_1 and seat == view.dealer))
            if seat == view.dealer:
                round_1 = False
        return events

    def _picked_up(self) -> bool:
        """Whether the dealer adds the up-card once trump is made (RULES.md §3, §4)."""
        view = self.view
        if any(isinstance(a, OrderUp | TakeUp) for _, a in view.bids):
            return True
        up = view.up_card
        blind_maker = self.variant.ben_up == "dealer_makes" and up is not None and up.is_ben
        return blind_maker and view.maker is not None

    def _taken_up(self) -> bool:
        view = self.view
        if not self._picked_up() or view.phase is Phase.GOING_ALONE:
            return False
        return view.dealer not in view.out

    # --- drawing ------------------------------------------------------------------

    def deal_hidden(self, rng: random.Random) -> tuple[dict[int, int], list[int]]:
        """One consistent assignment: each other seat's hand mask, and the face-down cards.

        Face-down cards are listed in the order of :attr:`down_into`; the cards left over
        are the kitty and any discard, which play no further part.
        """
        hands, free = self._hands(rng)
        return hands, self._downs(rng.random, free)

    def _hands(self, rng: random.Random) -> tuple[dict[int, int], list[int]]:
        """The other seats' hands (card masks, up-card included) and the cards left free
        (which face-down cards are drawn from: none when there are no face-down cards)."""
        rnd = rng.random
        if len(self.slots) == 1:
            # One hidden hand: a uniform hand from its allowed cards, then uniform rest.
            slot = self.slots[0]
            cards = self.allowed[:]
            _shuffle_head(rnd, cards, slot.size)
            hand = 0
            for c in cards[: slot.size]:
                hand |= 1 << c
            hands = {slot.seat: hand}
            free = cards[slot.size :] + self.forced
        else:
            if self.called_places:
                hands = self._called_hands(rng)
            else:
                found = self._quick(rnd, self.slots, self.pool)
                hands = found if found is not None else self._careful(rng, self.slots, self.pool)
            free = []
            if self.down_into:  # else nothing is drawn from them: a list not worth making
                rest = self.pool
                for m in hands.values():
                    rest &= ~m
                free = bits(rest)
        if self.up_holder >= 0:
            hands[self.up_holder] |= self.up_bit
        return hands, free

    def _called_hands(self, rng: random.Random) -> dict[int, int]:
        """The hidden hands with the called card placed first (see :meth:`_called_places`)."""
        places = self.called_places
        pick = rng.random() * sum(w for w, _, _ in places)
        i = 0
        while i < len(places) - 1 and pick >= places[i][0]:
            pick -= places[i][0]
            i += 1
        _, seat, slots = places[i]
        bit = 1 << self.view.called_card.index  # type: ignore[union-attr]
        pool = self.pool & ~bit
        found = self._quick(rng.random, slots, pool)
        hands = found if found is not None else self._careful(rng, slots, pool)
        if seat >= 0:
            hands[seat] |= bit
        return hands

    def _downs(self, rnd: Callable[[], float], free: list[int]) -> list[int]:
        ndown = len(self.down_into)
        _shuffle_head(rnd, free, ndown)
        return free[:ndown]

    def _quick(
        self, rnd: Callable[[], float], slots: list[_Slot], pool: int
    ) -> dict[int, int] | None:
        for _ in range(_QUICK_TRIES):
            left = pool
            hands: dict[int, int] = {}
            for slot in slots:
                choice = bits(slot.allowed & left)
                if len(choice) < slot.size:
                    break
                _shuffle_head(rnd, choice, slot.size)
                m = 0
                for c in choice[: slot.size]:
                    m |= 1 << c
                hands[slot.seat] = m
                left &= ~m
            else:
                return hands
        return None

    def _careful(self, rng: random.Random, slots: list[_Slot], pool: int) -> dict[int, int]:
        # Randomized backtracking, cards with the fewest possible seats first. The
        # real deal is consistent, so a solution exists.
        cap = [s.size for s in slots]
        spare = pool.bit_count() - sum(cap)  # kitty, face-down cards, discard
        cards = bits(pool)
        rng.shuffle(cards)
        options = {c: [i for i, s in enumerate(slots) if s.allowed >> c & 1] for c in cards}
        cards.sort(key=lambda c: len(options[c]))
        hands = [0] * len(slots)

        def place(k: int, spare: int) -> bool:
            if k == len(cards):
                return True
            c = cards[k]
            choices = [i for i in options[c] if cap[i]]
            rng.shuffle(choices)
            if spare:
                choices.append(-1)
            for i in choices:
                if i < 0:
                    if place(k + 1, spare - 1):
                        return True
                    continue
                cap[i] -= 1
                hands[i] |= 1 << c
                if place(k + 1, spare):
                    return True
                cap[i] += 1
                hands[i] ^= 1 << c
            return False

        if not place(0, spare):
            raise ValueError("the view is inconsistent: no deal fits it")
        return {s.seat: hands[i] for i, s in enumerate(slots)}

    def sample(self, rng: random.Random) -> HandState:
        """A full hand consistent with the view, at the view's point of the hand.

        With a bid threshold, a deal is kept with probability equal to its
        likelihood of the observed bids (:meth:`likelihood`), redrawing up to
        :data:`_BID_TRIES` times: deals where a seat that passed holds a hand it
        would have bid, or a maker holds nothing, become rare, never impossible.
        """
        hands, free = self._hands(rng)
        if self.bids:
            for _ in range(_BID_TRIES):
                if rng.random() < self.likelihood(hands):
                    break
                hands, free = self._hands(rng)
        downs = self._downs(rng.random, free)
        sim = self.template.copy()
        widow = hands.pop(_WIDOW, 0)
        sim.widow = widow
        if self.partnered and sim.called >= 0:
            sim.partner = self._partner(sim, hands)
        if sim.phase == PLAY:
            t = sim.trump
            code = sim.code_of[t]
            for seat, m in hands.items():
                sim.hand[seat] |= sim.recode(t, m)
            for (seat, up), d in zip(self.down_into, downs, strict=True):
                if up >= 0:
                    sim.under[up] = 1 << code[d]
                else:  # its card was played this trick: turned up when the trick ends
                    sim.pend[seat] |= 1 << code[d]
        else:
            for seat, m in hands.items():
                sim.hand[seat] |= m
            for (_, up), d in zip(self.down_into, downs, strict=True):
                sim.under[up] = 1 << d
        return sim

    def _partner(self, sim: HandState, hands: dict[int, int]) -> int:
        """The secret partner the sampled deal implies (RULES.md §7): the holder, at the
        call, of the called suit's best card (Call-Ace) or of the called card (Auction)."""
        view = self.view
        me = view.seat
        held = [hands.get(s, 0) | self.shown[s] for s in range(view.players)]
        held[me] = sum(1 << c.index for c in view.hand) | self.shown[me]  # type: ignore[index]
        if self.variant.makers == "call_card":
            return next((s for s in range(view.players) if held[s] >> sim.called & 1), -1)
        t = sim.trump
        power = POWER[t][sim.called]
        best, holder = 0, -1
        for s in range(view.players):
            for c in bits(held[s] & SUIT_MASK[t][sim.called]):
                if power[c] > best:
                    best, holder = power[c], s
        return holder

    def likelihood(self, hands: dict[int, int]) -> float:
        """How well a deal of hidden hands (card masks) explains the other seats' bids, 0..1.

        Each bid contributes a logistic factor of its margin: the seat's best value
        (:func:`~engine.ai.sim.hand_value` of its hand and public cards, the dealer
        counting the up-card, a partner a constant) above the threshold for an
        acceptance, below it for a pass.
        """
        up_bit = self.up_bit
        partner = self.partner_value
        threshold = self.threshold
        assert threshold is not None
        p = 1.0
        for seat, suits, accepted, with_up in self.bids:
            cards = hands.get(seat, 0) | self.shown[seat] | (up_bit if with_up else 0)
            value = max([hand_value(cards, s) for s in suits]) + partner
            margin = value - threshold if accepted else threshold - value
            p *= 1.0 / (1.0 + math.exp(-margin / _BID_SOFTNESS))
        return p

    def _stages(self, sim: HandState) -> None:
        """Where the view's phase stands in the core's steps after trump is made."""
        view = self.view
        n = view.players
        phase = sim.phase
        bids = view.bids
        if phase in (BID1, BID2, ALONE):
            # Who passed in the current round (RULES.md §4 option no_alone_after_pass).
            up = view.up_card
            named = up is not None and up.is_ben and self.variant.ben_up == "dealer_names"
            round_1_done = False
            for seat, action in bids[1 if named else 0 :]:
                if not isinstance(action, Pass):
                    break
                if seat == view.dealer and not round_1_done:
                    round_1_done = True
                    sim.passed = 0
                    continue
                sim.passed |= 1 << seat
        if phase == ALONE:
            # Seats are asked in turn from the maker (RULES.md §3, §4 Alone).
            sim.asked = (view.turn - sim.maker) % n + 1  # type: ignore[operator]
        elif phase in (DISCARD, ASK, GIVE):
            # Requests come after the pick-up and its discard, loner by loner (§6).
            sim.stage = STAGE_REQUEST
            sim.asked = n
            last_ask = next((seat for seat, a in reversed(bids) if isinstance(a, Ask)), None)
            if phase == ASK:
                upto = view.turn
            elif phase == GIVE:
                upto = sim.asker = last_ask  # type: ignore[assignment]
            else:
                upto = view.turn if last_ask == view.turn else None
                sim.owed = view.hand_sizes[view.turn] - self.variant.hand_size  # type: ignore[index]
            if upto is not None:
                for loner in (view.alone, view.lone_defender):
                    if loner is not None:
                        sim.requested |= 1 << loner
                    if loner == upto:
                        break
            pickup_done = phase != DISCARD or upto is not None
            sim.taken = pickup_done and sim.pick_up and view.dealer not in view.out
        elif phase == CALL:
            sim.stage = STAGE_PLAY
            sim.asked = n
            sim.taken = sim.pick_up and view.dealer not in view.out

    def _chips(self, sim: HandState) -> None:
        """Jackpot: this hand's chips so far (ante and draws) and the pool (RULES.md §7)."""
        view = self.view
        pool = (view.last_hand.pool if view.last_hand is not None else 0) + view.players
        sim.points = [-1] * view.players
        for trick in view.tricks:
            if pool:
                pool -= 1
                sim.points[trick.winner] += 1  # type: ignore[index]
        sim.pool = pool

    def _template(self) -> tuple[HandState, list[tuple[int, int]]]:
        """The hand with only the viewer's and the public cards, and where face-down cards go.

        Each face-down card goes under its pile's face-up card (``(seat, up)``, ``up`` a
        card index before play and a code in play), or, when that card was played
        this trick, to its owner's cards turned up at the trick's end (``up`` = -1).
        """
        view = self.view
        sim = new_hand(self.variant, self.options, view.dealer)
        sim.up = view.up_card.index if view.up_card is not None else -1
        sim.phase = phase = _PHASES[view.phase]
        sim.turn = view.turn  # type: ignore[assignment]
        sim.trump = view.trump.index if view.trump is not None else -1
        sim.maker = view.maker if view.maker is not None else -1
        if phase == AUCTION and view.bid:
            # RULES.md §7: the standing bid's bidder and suit, which views show as a bid
            # only until the bidding closes.
            sim.maker, bid = next((s, a) for s, a in reversed(view.bids) if isinstance(a, Bid))
            sim.trump = bid.suit.index
        sim.pick_up = self._picked_up()
        sim.up_suit = view.bid_suit.index if view.bid_suit is not None else -1
        sim.bid = view.bid
        if view.called_suit is not None:
            sim.called = view.called_suit.index
        elif view.called_card is not None:
            sim.called = view.called_card.index
        self._stages(sim)
        sim.hand[view.seat] = sum(1 << c.index for c in view.hand)  # type: ignore[index]
        into = []
        for seat in range(view.players):
            for p in view.tableaus[seat]:
                if p.up is not None:
                    sim.tab[seat] |= 1 << p.up.index
                if p.face_down:
                    into.append((seat, p.up.index if p.up is not None else -1))
        if view.alone is not None:
            sim.go_alone(view.alone)
        if view.lone_defender is not None:
            sim.go_alone(view.lone_defender)
        if self.variant.chips:
            self._chips(sim)
        if phase != PLAY:
            return sim, into
        t = sim.trump
        code = sim.code_of[t]
        for seat in range(view.players):
            sim.hand[seat] = sim.recode(t, sim.hand[seat] | sim.tab[seat])
            sim.tab[seat] = 0
        sim.won = list(view.tricks_won)
        sim.done = len(view.tricks)
        trick = view.trick
        sim.leader = trick.leader
        for seat, card in trick.plays:
            # Handed back and played again: the core rebuilds the trick's led suit and best card.
            c = code[card.index]
            sim.hand[seat] |= 1 << c
            sim.play(seat, c)
        sim.turn = view.turn  # type: ignore[assignment]
        return sim, [(seat, code[up] if up >= 0 else -1) for seat, up in into]


def _shuffle_head(rnd: Callable[[], float], cards: list[int], k: int) -> None:
    """Put a uniform random ``k``-subset of ``cards``, in random order, at its head."""
    n = len(cards)
    for i in range(k):
        j = i + int(rnd() * (n - i))
        cards[i], cards[j] = cards[j], cards[i]
