"""Cross-play bench: a computer level of ours against OpenSpiel's C++ ISMCTS at Euchre.

Usage::

    python -m bench.crossplay --level normal --hands 400
    python -m bench.crossplay --level hard --setting a.iterations=1000 --hands 200
    python -m bench.crossplay --level hard/normal --a-settings '{"iterations": 1000}'
    python -m bench.crossplay --level normal --simulations 4000 --uct-c 1.4 --rollouts 2
    python -m bench.crossplay --level hard --setting a.iterations=1000 --double-dummy

Four-hand Euchre (RULES.md §3) with stick the dealer, one hand per game at 0–0. Our
side is any level ``bench/strength.py`` takes (a ``make_player`` level, ``oracle``, or
``BIDDER/PLAYER`` such as ``hard/normal``; ``--setting a.NAME=VALUE`` or
``--a-settings`` configure it). The other side is OpenSpiel 2.0's C++
``pyspiel.ISMCTSBot`` (``--simulations`` 1,000 by default, a random-rollout evaluator
of ``--rollouts`` rollouts, ``--uct-c`` 2.0, unlimited world samples, the most visited
action) on OpenSpiel's ``euchre`` (``stick_the_dealer=True``,
``allow_lone_defender=False``: in §3 only the maker goes alone).

Our ``Game`` is the referee and keeps the score. Each deal's OpenSpiel state is built
from chance actions that give OpenSpiel's player p exactly our seat p's cards, our
dealer and our up-card; every action applied to our game is mirrored into it, and an
ISMCTS seat is asked on that state (ISMCTS resamples the cards it cannot see itself;
our players get ``game.view(seat)`` only). The rule differences are mapped:

- round 1's ``order``/``take`` are OpenSpiel's up-card suit, round 2's ``name S`` its
  suit; going alone is OpenSpiel's ``Alone``/``Partner``, asked of the maker alone;
- OpenSpiel's dealer discards before the maker decides to go alone, ours after. The
  mirror holds the maker's decision until the discard. An ISMCTS maker asked before our
  dealer's discard sees a preview: our dealer's discard asked on a copy of our game in
  which the maker keeps the partner (used for real if so);
- our dealer whose partner goes alone does not pick up (RULES.md §3 ruling);
  OpenSpiel's does, then sits out: its discard, its lowest card, is never played;
- OpenSpiel's dealer may not discard the up-card, ours may: our dealer who picks it
  is asked again without it;
- after a maker goes alone we lead from the loner's left, OpenSpiel from the dealer's
  left: unless the loner dealt, the OpenSpiel state is rebuilt for the play with the
  loner as its dealer, everyone holding what they hold, to the same contract (see
  ``Mirror._rebase``). After an order-up one of the loner's trumps stands in for the
  up-card, which OpenSpiel shows every seat: against our loner, ISMCTS defenders are
  played by our ``normal`` level until the loner has played one (counted).

Whatever cannot be mirrored is counted by kind and printed, as are the differences
mapped. Note that OpenSpiel's ``ResampleFromInfostate`` keeps the dealer's discard
where it was dealt, so ISMCTS plays knowing it (as in any OpenSpiel run).

ISMCTS breaks its search's ties in the order of a C++ hash map, which follows memory
addresses, so a seeded bot plays differently from run to run. On Linux the command
re-executes itself once with address randomisation off and ``PYTHONHASHSEED=0``, and
each worker plays a fixed share of the deals: then the same command run alike (the
same checkout, working directory and environment, which all move the addresses)
plays the same games, as the printed digest tells; otherwise, and on other systems,
the figures vary from run to run within their interval.

Every deal is played twice, our level on side 0, then on side 1 (duplicate). Printed:
our points a hand minus theirs (RULES.md §3 scoring), paired by deal with a 95%
interval (mean ± 1.96·sd/√deals over the deals' two-seating means), the same
unpaired over hands, the share of hands our side scored, hands made, euchred, marched
and alone for each side, the same by contract (who made trump, in which round, from
which seat, alone or not), the decisions' times, the mirror's counts, the load average
before and after. Deals use game seeds ``--seed`` onwards, each seat's player and
bot seeded from the game seed; with fixed iterations (and pinned addresses, above)
the same command gives the same figures. Work is spread over ``--workers``
processes (default 2).

``--double-dummy`` also solves every position of the play with all hands shown
(:func:`double_dummy`): the points each hand was worth from its first lead had both
sides played perfectly, and what each side's card play gave away against that. It
tells a bidding that makes bad contracts from card play that spoils good ones.

``--fork-bids`` replays each bidding decision of ours (:func:`forks`) with the other
choice: a pass against the bid our level makes when it may not pass, a bid against a
pass. The hand's actions up to the decision are applied as played, then every seat
is asked again, ISMCTS live. Printed by round, seat and choice: the points the choice
gained over the other, with a 95% interval (and the double-dummy figures' gain with
``--double-dummy``). It judges each bid against the real opponent, not a model of it.
``--record FILE`` writes each hand's seed and actions for ``bench/choices.py``.

OpenSpiel is not a dependency: ``pip install open_spiel==2.0.2`` first.
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import hashlib
import json
import math
import multiprocessing
import os
import random
import shlex
import statistics
import sys
import time
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cache
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench.oracle import _TrueDeal
from bench.strength import _label, _player, _settings
from engine.actions import Action, Discard, GoAlone, NameTrump, OrderUp, Pass, Play, TakeUp
from engine.ai.solver import maker_tricks
from engine.cards import SUITS, Card, Rank
from engine.game import Deal, Game
from engine.players import Player, make_player
from engine.view import Phase, PlayerView

try:
    import pyspiel
except ImportError:  # an optional dependency: main() says how to install it
    pyspiel = None

# OpenSpiel's euchre action ids (open_spiel/games/euchre/euchre.h): cards 0..23, then these.
OS_PASS = 24
OS_TRUMP = 25
"""``OS_TRUMP + suit``: make ``suit`` trump (suits C D H S as 0..3, as ours)."""
OS_ALONE = 29
OS_PARTNER = 30
OS_HAND = 5
"""Cards dealt to each player."""

FALLBACK = "normal"
"""Our level that plays an ISMCTS seat's move when the mirror cannot give ISMCTS a state."""

FAILURES = {
    "lone_lead": "our loner after an order-up, against ISMCTS: its state is rebuilt "
    "(rebase_ordered) only once the loner has played a trump of trump's printing; "
    f"ISMCTS's moves until then (the whole hand for a loner without one, or an ISMCTS "
    f"loner without one) played by our {FALLBACK}",
    "ismcts_illegal": f"ISMCTS chose an action our rules forbid ({FALLBACK} played it instead)",
    "no_equivalent": "an action of ours has no OpenSpiel equivalent (rest of the hand: "
    f"{FALLBACK})",
    "turn": f"the two states disagree on whose turn it is (rest of the hand: {FALLBACK})",
    "points": "the hand's points disagree with OpenSpiel's returns",
}
"""Each kind of mirror failure: a move or a hand the mirror could not follow."""
NOTES = {
    "upcard_discard": "our dealer chose to discard the up-card, which OpenSpiel forbids: "
    "asked again without it",
    "discard_preview": "an ISMCTS maker decided on going alone before our dealer's "
    "discard: shown a preview of it (OpenSpiel discards first)",
    "synthetic_discard": "our dealer sat out beside a lone partner without picking up: "
    "OpenSpiel's dealer picked up and discarded its lowest card",
    "rebase_named": "a lone hand, trump named in round 2: OpenSpiel's state rebuilt for the "
    "play with the loner as dealer, so that the loner's left leads (exact for the play)",
    "rebase_ordered": "a lone hand after an order-up: rebuilt with the loner as dealer, who "
    "'took up' one of its trumps and 'discarded' the real discard (or the unused up-card); "
    "a real dealer who defends is no longer known to hold the up-card",
}
"""Each mapped rule difference counted (the mirror followed them)."""

CONTRACT_SEATS = ("left of the dealer", "dealer's partner", "right of the dealer", "dealer")
"""The seats counted from the dealer's left, as :func:`from_dealer` numbers them."""


def from_dealer(seat: int, dealer: int) -> int:
    """``seat`` counted clockwise from the dealer's left: 1 to 4, the dealer 4."""
    return (seat - dealer - 1) % 4 + 1


POLICIES = ("max_visit_count", "normalized_visit_count", "max_value")
"""``--final-policy`` choices: OpenSpiel's ``ISMCTSFinalPolicyType`` members, lower case."""


def os_card(card: Card) -> int:
    """OpenSpiel's id of ``card``: ``rank * 4 + suit``, ranks ``9 T J Q K A`` as 0..5."""
    assert card.rank is not None and card.suit is not None
    return (card.rank.index - Rank.NINE.index) * 4 + card.suit.index


def our_card(card: int) -> Card:
    """Our card of OpenSpiel card id ``card`` (the inverse of :func:`os_card`)."""
    rank, suit = divmod(card, 4)
    return Card.parse(f"{tuple(Rank)[rank + Rank.NINE.index].value}{SUITS[suit].value}")


def deal_actions(game: Game) -> list[int]:
    """OpenSpiel's 22 chance actions for our game's current deal.

    The dealer's seat, then 20 cards one at a time, the i-th to player ``(dealer + i) % 4``
    (OpenSpiel's order), so that player p holds our seat p's hand; then the up-card.
    """
    hands = [[os_card(c) for c in game.hand_of(seat)] for seat in range(4)]
    dealer = game.dealer
    cards = [hands[(dealer + i) % 4][i // 4] for i in range(4 * OS_HAND)]
    assert game.up_card is not None
    return [dealer, *cards, os_card(game.up_card)]


def os_action(phase: Phase, action: Action, up_suit: int) -> int:
    """OpenSpiel's action for our ``action`` taken in ``phase`` (bidding, going alone, play).

    ``up_suit`` is the up-card's suit index (round 1's acceptances make it trump).
    """
    if isinstance(action, Play | Discard):
        return os_card(action.card)
    if phase is Phase.GOING_ALONE:
        return OS_ALONE if isinstance(action, GoAlone) else OS_PARTNER
    if isinstance(action, Pass):
        return OS_PASS
    if isinstance(action, OrderUp | TakeUp):
        return OS_TRUMP + up_suit
    if isinstance(action, NameTrump):
        return OS_TRUMP + action.suit.index
    return -1  # no equivalent


def ours_of(phase: Phase, action: int, view: PlayerView) -> Action | None:
    """Our legal action for OpenSpiel's ``action`` in ``phase``, or ``None`` if none is."""
    wanted: Action
    if action < OS_PASS:
        card = our_card(action)
        wanted = Discard(card) if phase is Phase.DISCARD else Play(card)
    elif phase is Phase.GOING_ALONE:
        wanted = GoAlone() if action == OS_ALONE else Pass()
    elif action == OS_PASS:
        wanted = Pass()
    elif phase is Phase.BIDDING_1:
        wanted = TakeUp() if view.seat == view.dealer else OrderUp()
    else:
        wanted = NameTrump(SUITS[action - OS_TRUMP])
    return next((a for a in view.legal_actions if a == wanted), None)


@cache
def os_game() -> Any:
    """OpenSpiel's four-hand Euchre with our rules' switches (RULES.md §3)."""
    return pyspiel.load_game("euchre", {"stick_the_dealer": True, "allow_lone_defender": False})


class Mirror:
    """OpenSpiel's ``euchre`` state kept in step with the current hand of ``game``.

    Call :meth:`follow` after each action applied to the game. ``state`` is the
    OpenSpiel state; ``broken`` the kind of failure (a key of :data:`FAILURES`) that
    stopped the mirror, ``None`` while it follows; ``waiting`` whether a lone hand
    waits to be rebuilt (:meth:`_rebase`), ``state`` out of date meanwhile; ``notes``
    the mapped differences met (keys of :data:`NOTES`). ``ismcts``: the seats played
    by ISMCTS, whom a rebuilt state must show nothing they may not know.
    """

    def __init__(self, game: Game, ismcts: Collection[int] = ()) -> None:
        self.state = os_game().new_initial_state()
        for action in deal_actions(game):
            self.state.apply_action(action)
        self.ismcts = frozenset(ismcts)
        self.dealer = game.dealer
        assert game.up_card is not None and game.up_card.suit is not None
        self.up_card = os_card(game.up_card)
        self.up_suit = game.up_card.suit.index
        self.broken: str | None = None
        self.waiting = False
        self.notes: list[str] = []
        # The maker's going alone, (seat, OpenSpiel action), while OpenSpiel's dealer
        # still has to discard (it discards first, we last).
        self._alone: tuple[int, int] | None = None
        self._plays: list[tuple[int, int]] = []  # (seat, OpenSpiel card), in play order

    @property
    def following(self) -> bool:
        """Whether ``state`` is up to date: neither broken nor waiting."""
        return self.broken is None and not self.waiting

    def discard_ahead(self, card: int) -> None:
        """Apply OpenSpiel's dealer's discard ``card`` before our maker's alone decision."""
        self._apply(self.dealer, card)

    def follow(self, phase: Phase, seat: int, action: Action, game: Game) -> None:
        """Mirror ``action``, just applied to ``game`` by ``seat`` in ``phase``."""
        if self.broken is not None:
            return
        if phase is Phase.PLAY:
            self._plays.append((seat, os_action(phase, action, self.up_suit)))
            if self.waiting:
                self._rebase(game)
                return
        state = self.state
        if phase is Phase.GOING_ALONE:
            self._alone = (seat, os_action(phase, action, self.up_suit))
        elif phase is Phase.DISCARD:
            if state.discard() < 0:  # not applied ahead (discard_ahead)
                self._apply(seat, os_action(phase, action, self.up_suit))
        else:
            self._apply(seat, os_action(phase, action, self.up_suit))
        if self._alone is not None and self.broken is None:
            os_phase = state.current_phase()
            if os_phase == pyspiel.euchre.Phase.DISCARD and game.phase is not Phase.DISCARD:
                # Our dealer sits out beside the lone partner without picking up: OpenSpiel's
                # picks up and discards first. The card is never played.
                self.notes.append("synthetic_discard")
                self._apply(self.dealer, min(state.legal_actions()))
                os_phase = state.current_phase()
            if os_phase == pyspiel.euchre.Phase.GO_ALONE:
                self._apply(*self._alone)
                self._alone = None
        # Bidding and play take turns alike; going alone and the discard are reordered above.
        if (
            self.broken is None
            and game.phase in (Phase.BIDDING_1, Phase.BIDDING_2, Phase.PLAY)
            and self.state.current_player() != game.turn
        ):
            if game.alone is not None and not self._plays:
                self._rebase(game)
            else:
                self.broken = "turn"

    def _rebase(self, game: Game) -> None:
        """Rebuild the state of a lone hand with the loner as OpenSpiel's dealer.

        OpenSpiel leads from the dealer's left, we from the loner's left (RULES.md §3
        Lead): only a loner who deals has both. The new state deals everyone the cards
        they held at the first lead, bids to the same contract and replays the cards
        played. Trump named in round 2: everyone passes to the loner, who names it. An
        order-up: everyone passes to the loner, who takes up one of its own trumps of
        trump's printing as the up-card and discards the card really discarded (the
        up-card itself if nobody took it up). OpenSpiel shows every seat that stand-in:
        against ISMCTS defenders only a card the loner has played will do, so the state
        waits (``waiting``) until the loner plays one.
        """
        loner = game.alone
        assert loner is not None and game.trump is not None
        trump = game.trump.index
        hands = [[os_card(c) for c in game.hand_of(seat)] for seat in range(4)]
        for seat, card in self._plays:
            hands[seat].append(card)
        up = self.up_card
        if trump != self.up_suit:
            bids = [OS_PASS] * 7 + [OS_TRUMP + trump, OS_ALONE]
            note = "rebase_named"
        else:
            defenders = {(loner + 1) % 4, (loner + 3) % 4}
            if defenders & self.ismcts:
                candidates = [c for s, c in self._plays if s == loner]  # public already
            else:
                candidates = hands[loner]
            stand_in = min((c for c in candidates if c % 4 == trump), default=-1)
            self.waiting = stand_in < 0
            if self.waiting:
                return
            discards = game.discards_of(game.dealer)
            out = os_card(discards[0]) if discards else up
            hands[loner] = [out if c == stand_in else c for c in hands[loner]]
            up = stand_in
            bids = [OS_PASS] * 3 + [OS_TRUMP + trump, out, OS_ALONE]
            note = "rebase_ordered"
        cards = [hands[(loner + i) % 4][i // 4] for i in range(4 * OS_HAND)]
        state = os_game().new_initial_state()
        for action in (loner, *cards, up, *bids, *(card for _, card in self._plays)):
            if action not in state.legal_actions():
                self.broken = "no_equivalent"
                return
            state.apply_action(action)
        self.state = state
        self.notes.append(note)
        if game.turn is not None and state.current_player() != game.turn:
            self.broken = "turn"

    def _apply(self, seat: int, action: int) -> None:
        state = self.state
        if state.current_player() != seat:
            self.broken = "turn"
        elif action not in state.legal_actions():
            self.broken = "no_equivalent"
        else:
            state.apply_action(action)


@dataclass(frozen=True, slots=True)
class Config:
    """What a run plays: our level and its settings, and ISMCTS's settings."""

    level: str
    settings: dict[str, Any] = field(default_factory=dict)
    simulations: int = 1000
    uct_c: float = 2.0
    rollouts: int = 1
    max_world_samples: int = -1
    final_policy: str = "max_visit_count"
    double_dummy: bool = False
    fork_bids: bool = False


@dataclass(frozen=True, slots=True)
class Fork:
    """One bidding decision of ours replayed with the other choice (``--fork-bids``).

    ``bid_round`` 1 or 2; ``seat``: the decider's seat from the dealer's left, 1 to 4
    (:data:`CONTRACT_SEATS`); ``passed``: whether it passed (the other choice is then
    the bid our level makes when it may not pass, else a pass). ``gain``: our points
    minus theirs as played less the same with the other choice, played on live
    against ISMCTS; ``dd_gain``: the same of the double-dummy figures (with
    ``--double-dummy``, else ``None``)."""

    bid_round: int
    seat: int
    passed: bool
    gain: int
    dd_gain: int | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """One hand from our side's view.

    ``diff``: our points minus theirs this hand. ``made_ours``: our side made trump.
    ``failures``/``notes``: keys of :data:`FAILURES`/:data:`NOTES`, once per event.
    Decisions and their seconds: ISMCTS's (searches run), ours (``choose`` calls), and
    the ISMCTS seats' moves our fallback level played. ``digest``: SHA-256 of the
    game's log (the deal and every action), to tell whether two runs played alike.
    ``seed`` and ``actions`` (the ids of every action after the deal) replay the hand
    (``--record``, :func:`record_line`). ``bid_round``: 1 if trump was the up-card's
    suit, 2 if named; ``maker_seat``: the maker's seat from the dealer's left, 1 to 4
    (the dealer), as :data:`CONTRACT_SEATS`.
    With :attr:`Config.double_dummy`, ``dd_diff`` is ``diff`` had every card from the
    first lead on been played seeing all hands, and ``lost_ours``/``lost_theirs`` the
    points each side's card play gave away against that (see :func:`double_dummy`).
    """

    our_side: int
    diff: int
    made_ours: bool
    euchred: bool
    march: bool
    alone: bool
    failures: tuple[str, ...]
    notes: tuple[str, ...]
    ismcts_moves: int
    ismcts_seconds: float
    our_moves: int
    our_seconds: float
    fallback_moves: int
    digest: str
    bid_round: int
    maker_seat: int
    seed: int
    actions: tuple[int, ...]
    dd_diff: int | None = None
    lost_ours: int = 0
    lost_theirs: int = 0
    forks: tuple[Fork, ...] = ()


def _bot(config: Config, seed: int) -> Any:
    """An ISMCTS bot for one seat, seeded (``seed`` below 2**31)."""
    policy = getattr(pyspiel.ISMCTSFinalPolicyType, config.final_policy.upper())
    evaluator = pyspiel.RandomRolloutEvaluator(config.rollouts, seed)
    return pyspiel.ISMCTSBot(
        seed, evaluator, config.uct_c, config.simulations, config.max_world_samples, policy
    )


class _Table:
    """One hand of ours against ISMCTS: our game, its mirror, each seat's player."""

    def __init__(
        self, config: Config, seed: int, our_side: int, prefix: Sequence[Action] = ()
    ) -> None:
        self.game = game = Game("euchre", seed=seed, stick_the_dealer=True)
        game.deal()
        self.config = config
        self.seed = seed
        # Actions applied as given before anyone is asked (a fork replays a hand to a bid).
        self.prefix = prefix
        self.bids: list[tuple[int, int]] = []  # our bidding decisions: (actions before, seat)
        self.our_side = our_side
        sides = game.variant.sides
        self.ours: dict[int, Player] = {
            s: _player(game, config.level, seed * 8 + s, config.settings)
            for s in range(4)
            if sides[s] == our_side
        }
        self.bots = {
            s: _bot(config, (seed * 8 + s) % (1 << 31)) for s in range(4) if sides[s] != our_side
        }
        self.mirror = Mirror(game, self.bots)
        self.fallback: dict[int, Player] = {}
        # A dealer's discard decided ahead of our game's DISCARD phase (see _alone_state).
        self.planned: dict[int, Action] = {}
        self.failures: list[str] = []
        self.searches = self.decisions = self.fallback_moves = 0
        self.search_seconds = self.decision_seconds = 0.0
        self.double_dummy = config.double_dummy
        self.dd_start: int | None = None
        self.lost = [0, 0]  # points given away by our card play, by theirs

    def play(self) -> Outcome:
        """Play the hand out; the outcome from our side's view."""
        game, mirror = self.game, self.mirror
        before: int | None = None  # double_dummy() before this card
        while (seat := game.turn) is not None:
            phase = game.phase
            view = game.view(seat)
            step = len(game.log) - 1  # actions so far (the log opens with the deal)
            if step < len(self.prefix):
                action = self.prefix[step]
            elif phase is Phase.DISCARD and seat in self.planned:
                action = self.planned.pop(seat)
            elif seat in self.ours:
                if phase in (Phase.BIDDING_1, Phase.BIDDING_2) and len(view.legal_actions) > 1:
                    self.bids.append((step, seat))
                action = self._ours(seat, view)
            else:
                action = self._theirs(seat, view)
            if self.double_dummy and phase is Phase.PLAY:
                if before is None:
                    before = self.dd_start = double_dummy(game, self.our_side)
                game.apply(seat, action)
                after = (
                    double_dummy(game, self.our_side)
                    if game.phase is Phase.PLAY
                    else self._diff(game.hand_results[-1].points)
                )
                if seat in self.ours:
                    self.lost[0] += before - after
                else:
                    self.lost[1] += after - before
                before = after
            else:
                game.apply(seat, action)
            was = mirror.broken
            mirror.follow(phase, seat, action, game)
            if mirror.broken is not None and was is None:
                self.failures.append(mirror.broken)
            if mirror.waiting and "lone_lead" not in self.failures:
                self.failures.append("lone_lead")
        result = game.hand_results[-1]
        ours, theirs = result.points[self.our_side], result.points[1 - self.our_side]
        state = mirror.state
        if mirror.following:
            seat = next(iter(self.ours))
            if not state.is_terminal() or state.returns()[seat] != ours - theirs:
                self.failures.append("points")
        assert result.maker is not None  # stick the dealer: every hand is played
        named = any(isinstance(entry, NameTrump) for entry in game.log)
        return Outcome(
            our_side=self.our_side,
            diff=ours - theirs,
            made_ours=game.variant.sides[result.maker] == self.our_side,
            euchred=result.euchred,
            march=result.march,
            alone=result.alone is not None,
            failures=tuple(self.failures),
            notes=tuple(mirror.notes),
            ismcts_moves=self.searches,
            ismcts_seconds=self.search_seconds,
            our_moves=self.decisions,
            our_seconds=self.decision_seconds,
            fallback_moves=self.fallback_moves,
            digest=hashlib.sha256(" ".join(map(str, game.log)).encode()).hexdigest(),
            bid_round=2 if named else 1,
            maker_seat=from_dealer(result.maker, game.dealer),
            seed=self.seed,
            actions=tuple(entry.id for entry in game.log if not isinstance(entry, Deal)),
            dd_diff=self.dd_start,
            lost_ours=self.lost[0],
            lost_theirs=self.lost[1],
        )

    def _diff(self, points: Sequence[int]) -> int:
        return points[self.our_side] - points[1 - self.our_side]

    def _ours(self, seat: int, view: PlayerView) -> Action:
        """Our level's move; a dealer is kept from discarding the up-card (OpenSpiel's rule)."""
        player = self.ours[seat]
        action = self._timed(player, view, view.legal_actions)
        if isinstance(action, Discard) and action.card == view.up_card:
            self.mirror.notes.append("upcard_discard")
            rest = [a for a in view.legal_actions if a != action]
            action = self._timed(player, view, rest)
        return action

    def _timed(self, player: Player, view: PlayerView, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = player.choose(view, legal)
        self.decisions += 1
        self.decision_seconds += time.perf_counter() - start
        return action

    def _theirs(self, seat: int, view: PlayerView) -> Action:
        """ISMCTS's move for ``seat``, or the fallback level's where the mirror fails."""
        mirror = self.mirror
        if mirror.following:
            state = mirror.state
            preview = False
            if (
                view.phase is Phase.GOING_ALONE
                and state.current_phase() == pyspiel.euchre.Phase.DISCARD
            ):
                state, preview = self._alone_state(seat)
            action = ours_of(view.phase, self._step(seat, state), view)
            if action is not None:
                if preview and isinstance(action, GoAlone):
                    # Our dealer discards knowing of the loner: it is asked anew.
                    self.planned.pop(self.game.dealer)
                return action
            self.failures.append("ismcts_illegal")
        player = self.fallback.get(seat)
        if player is None:
            player = self.fallback[seat] = make_player(FALLBACK, seed=self.seed * 8 + 4 + seat)
        self.fallback_moves += 1
        return player.choose(view, view.legal_actions)

    def _alone_state(self, maker: int) -> tuple[Any, bool]:
        """OpenSpiel's state for ``maker``'s alone decision, past the dealer's discard.

        OpenSpiel's dealer discards first. An ISMCTS dealer does so now on the mirror
        (our game applies it when its turn comes). Our dealer is asked on a copy of our
        game in which the maker keeps the partner, and ISMCTS decides on a preview
        with that discard (``True`` returned); the discard is applied for real only if
        the maker does keep the partner (:meth:`_theirs`).
        """
        dealer = self.game.dealer
        state = self.mirror.state
        if dealer in self.bots:
            card = self._step(dealer, state)
            self.mirror.discard_ahead(card)
            self.planned[dealer] = Discard(our_card(card))
            return state, False
        self.mirror.notes.append("discard_preview")
        scratch = self.game.copy()
        scratch.apply(maker, Pass())
        discard = self._ours(dealer, scratch.view(dealer))
        assert isinstance(discard, Discard)
        self.planned[dealer] = discard
        preview = state.clone()
        preview.apply_action(os_card(discard.card))
        return preview, True

    def _step(self, seat: int, state: Any) -> int:
        """ISMCTS's action for ``seat`` on OpenSpiel ``state`` (no search for a forced one)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        start = time.perf_counter()
        action = int(self.bots[seat].step(state))
        self.searches += 1
        self.search_seconds += time.perf_counter() - start
        return action


def double_dummy(game: Game, our_side: int) -> int:
    """Our points minus theirs (side ``our_side``) if the hand in play in ``game`` were
    played out from here seeing every hand: both sides perfect, by the endgame solver.

    A card can only lower its own side's figure, never raise it; what it lowers it by
    is the points its player gave away against perfect play with the cards in view
    (much of it no player could avoid without seeing the hands).
    """
    seat = game.turn
    assert seat is not None and game.phase is Phase.PLAY
    sim = _TrueDeal(game.view(seat), game).sample(random.Random(0))
    sim.score_made(maker_tricks(sim, list(range(1, sim.ntricks + 1))))
    return sim.points[our_side] - sim.points[1 - our_side]


def record_line(seed: int, our_side: int, actions: Sequence[int]) -> str:
    """One hand of a ``--record`` file: a JSON object on one line (``bench/choices.py``
    reads it): the game seed that deals it, our side, the action ids after the deal."""
    return json.dumps({"seed": seed, "our_side": our_side, "actions": list(actions)})


def forks(table: _Table, outcome: Outcome) -> tuple[Fork, ...]:
    """Each bidding decision of ours in ``table``'s finished hand, replayed with the other
    choice: the hand's actions up to the decision, the other choice, then every seat
    asked again, ISMCTS live (see :class:`Fork`)."""
    config, game = table.config, table.game
    actions = [e for e in game.log if not isinstance(e, Deal)]
    found = []
    for step, seat in table.bids:
        chosen = actions[step]
        replay = Game("euchre", seed=table.seed, stick_the_dealer=True)
        replay.deal()
        for action in actions[:step]:
            replay.apply(replay.turn, action)
        view = replay.view(seat)
        bids = [a for a in view.legal_actions if not isinstance(a, Pass)]
        if not isinstance(chosen, Pass):
            other: Action = Pass()
        else:
            # A fresh player as the table built it: what our level bids if it must bid.
            player = _player(replay, config.level, table.seed * 8 + seat, config.settings)
            other = player.choose(view, bids)
        if other not in view.legal_actions:
            continue  # a stuck dealer has no pass
        then = _Table(config, table.seed, table.our_side, [*actions[:step], other]).play()
        dd = None
        if outcome.dd_diff is not None and then.dd_diff is not None:
            dd = outcome.dd_diff - then.dd_diff
        first = replay.phase is Phase.BIDDING_1
        at = from_dealer(seat, replay.dealer)
        found.append(
            Fork(1 if first else 2, at, isinstance(chosen, Pass), outcome.diff - then.diff, dd)
        )
    return tuple(found)


def _seating(config: Config, seed: int, our_side: int) -> Outcome:
    table = _Table(config, seed, our_side)
    outcome = table.play()
    if config.fork_bids:
        outcome = dataclasses.replace(outcome, forks=forks(table, outcome))
    return outcome


def play_deal(config: Config, seed: int) -> tuple[Outcome, Outcome]:
    """One deal (game seed) played twice: our level on side 0, then on side 1."""
    return _seating(config, seed, 0), _seating(config, seed, 1)


def _block(config: Config, seeds: Sequence[int], send: Connection) -> None:
    """A worker process: play the deals of ``seeds`` in order, send the pairs at the end."""
    send.send([play_deal(config, seed) for seed in seeds])
    send.close()


def run(config: Config, deals: int, seed: int, workers: int) -> list[tuple[Outcome, Outcome]]:
    """Play ``deals`` duplicate deals on game seeds ``seed .. seed + deals - 1``, in order.

    Worker k of ``workers`` (each forked in turn) plays seeds k, k + workers, ... and
    sends them all at the end, so with :func:`pin_addresses` every worker's memory, and
    with it ISMCTS's choices, are the same from run to run.
    """
    seeds = range(seed, seed + deals)
    if workers <= 1:
        return [play_deal(config, s) for s in seeds]
    context = multiprocessing.get_context("fork")
    pipes = []
    processes = []
    for k in range(workers):
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_block, args=(config, seeds[k::workers], send))
        process.start()
        send.close()
        pipes.append(receive)
        processes.append(process)
    try:
        blocks = [receive.recv() for receive in pipes]
    except EOFError:
        raise SystemExit("a worker process failed (its traceback is above)") from None
    for process in processes:
        process.join()
    return [blocks[i % workers][i // workers] for i in range(deals)]


def interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean with its normal-approximation interval (95% default)."""
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


def _mean(hands: Sequence[Outcome]) -> str:
    return f"{statistics.fmean(o.diff for o in hands):+.2f}" if hands else "-"


def _double_dummy_lines(hands: Sequence[Outcome]) -> list[str]:
    """The ``--double-dummy`` report: per group of hands, a hand: our points minus theirs
    double dummy from the first lead and as played, and the points each side's card
    play gave away; each group's share of all hands' points in brackets."""
    total = len(hands)
    lines = [
        "double dummy from the first lead (our points minus theirs a hand; "
        "what each side's card play gave away against it):"
    ]
    groups = [("all hands", list(hands))]
    for name, mine in (("ours", True), ("ISMCTS", False)):
        for how, alone in (("with partner", False), ("alone", True)):
            group = [o for o in hands if o.made_ours is mine and o.alone is alone]
            groups.append((f"{name} made, {how}", group))
    for label, group in groups:
        if not group:
            continue
        n = len(group)
        dd = sum(o.dd_diff or 0 for o in group)
        played = sum(o.diff for o in group)
        lines.append(
            f"  {label:25s} {n:5d}: double dummy {dd / n:+.2f}, played {played / n:+.2f}; "
            f"given away by ours {sum(o.lost_ours for o in group) / n:.2f}, "
            f"by ISMCTS {sum(o.lost_theirs for o in group) / n:.2f} "
            f"(of all hands' points a hand: {dd / total:+.3f}, {played / total:+.3f})"
        )
    return lines


def _contract_lines(hands: Sequence[Outcome]) -> list[str]:
    """Hands by contract: who made trump, in which round, from which seat, alone or not;
    for each, the hands and our points minus theirs a hand, and with ``--double-dummy``
    the hands' double-dummy worth and what each side's card play gave away."""
    lines = ["hands by contract (our points minus theirs a hand):"]
    groups: dict[tuple[bool, int, int, bool], list[Outcome]] = {}
    for o in hands:
        groups.setdefault((not o.made_ours, o.bid_round, o.maker_seat, o.alone), []).append(o)
    for (theirs, bid_round, seat, alone), group in sorted(groups.items()):
        n = len(group)
        label = (
            f"{'ISMCTS' if theirs else 'ours'}, round {bid_round}, "
            f"{CONTRACT_SEATS[seat - 1]}{', alone' if alone else ''}"
        )
        line = f"  {label:43s} {n:5d}: played {_mean(group)}"
        if all(o.dd_diff is not None for o in group):
            line += (
                f", double dummy {sum(o.dd_diff or 0 for o in group) / n:+.2f}; given away "
                f"by ours {sum(o.lost_ours for o in group) / n:.2f}, "
                f"by ISMCTS {sum(o.lost_theirs for o in group) / n:.2f}"
            )
        lines.append(line)
    return lines


def _fork_lines(hands: Sequence[Outcome]) -> list[str]:
    """The ``--fork-bids`` report: by round, seat and choice, what our bidding choices
    gained over the other choice, points a hand with a 95% interval."""
    groups: dict[tuple[int, int, bool], list[Fork]] = {}
    for fork in (f for o in hands for f in o.forks):
        groups.setdefault((fork.bid_round, fork.seat, fork.passed), []).append(fork)
    lines = ["our bids against the other choice, played on live (points gained a decision, 95%):"]
    for (bid_round, seat, passed), group in sorted(groups.items()):
        mean, low, high = interval([f.gain for f in group])
        choice = "passed" if passed else "bid"
        line = (
            f"  round {bid_round}, {CONTRACT_SEATS[seat - 1]:19s} {choice:6s} {len(group):5d}: "
            f"{mean:+.2f} ({low:+.2f} to {high:+.2f})"
        )
        if all(f.dd_gain is not None for f in group):
            mean, low, high = interval([f.dd_gain or 0 for f in group])
            line += f"; double dummy {mean:+.2f} ({low:+.2f} to {high:+.2f})"
        lines.append(line)
    return lines


def summary(pairs: Sequence[tuple[Outcome, Outcome]]) -> list[str]:
    """The report's lines for ``pairs`` of duplicate hands."""
    hands = [o for pair in pairs for o in pair]
    paired = interval([(a.diff + b.diff) / 2 for a, b in pairs])
    unpaired = interval([o.diff for o in hands])
    scored = sum(o.diff > 0 for o in hands)
    lines = [
        f"{len(hands)} hands ({len(pairs)} duplicate deals)",
        f"our points a hand minus theirs: {paired[0]:+.3f} "
        f"(paired by deal, 95% {paired[1]:+.3f} to {paired[2]:+.3f}); "
        f"unpaired 95% {unpaired[1]:+.3f} to {unpaired[2]:+.3f}",
        f"hands our side scored: {scored} of {len(hands)} ({scored / len(hands):.1%})",
    ]
    lines.append("hands by makers (our points minus theirs a hand in brackets):")
    for name, mine in (("ours", True), ("ISMCTS", False)):
        made = [o for o in hands if o.made_ours is mine]
        alone = [o for o in made if o.alone]
        lines.append(
            f"  {name:6s} made trump {len(made):5d} ({_mean(made)}): "
            f"euchred {sum(o.euchred for o in made)}, marched {sum(o.march for o in made)}, "
            f"alone {len(alone)} ({_mean(alone)})"
        )
    moves = sum(o.ismcts_moves for o in hands)
    mine = sum(o.our_moves for o in hands)
    lines += _contract_lines(hands)
    if all(o.dd_diff is not None for o in hands):
        lines += _double_dummy_lines(hands)
    if any(o.forks for o in hands):
        lines += _fork_lines(hands)
    lines.append(
        f"decisions: ISMCTS {moves} searches, "
        f"{1000 * sum(o.ismcts_seconds for o in hands) / max(moves, 1):.1f} ms each; "
        f"ours {mine}, {1000 * sum(o.our_seconds for o in hands) / max(mine, 1):.1f} ms each"
    )
    failures = Counter(kind for o in hands for kind in o.failures)
    fallback = sum(o.fallback_moves for o in hands)
    if failures:
        lines.append(
            f"mirror failures ({sum(1 for o in hands if o.failures)} hands; "
            f"{fallback} ISMCTS moves played by our {FALLBACK}):"
        )
        lines += [f"  {failures[k]:5d} {text}" for k, text in FAILURES.items() if failures[k]]
    else:
        lines.append("mirror failures: none (every move mirrored)")
    games = hashlib.sha256("".join(o.digest for o in hands).encode()).hexdigest()[:16]
    lines.append(f"games' digest {games} (the same in two runs: the same games played)")
    notes = Counter(kind for o in hands for kind in o.notes)
    lines.append("rule differences mapped:" if notes else "rule differences mapped: none met")
    lines += [f"  {notes[k]:5d} {text}" for k, text in NOTES.items() if notes[k]]
    return lines


_ADDR_NO_RANDOMIZE = 0x0040000
"""Linux ``personality(2)`` flag: no address-space layout randomisation."""
_PINNED = "TUQUE_CROSSPLAY_PINNED"
"""Set in the environment of the re-executed process, so it is re-executed once only."""


def pin_addresses() -> bool:
    """Re-execute this command with fixed addresses (Linux), so that ISMCTS repeats itself.

    OpenSpiel's ISMCTS keeps a node's children in an ``absl::flat_hash_map``, whose
    iteration order (it breaks the search's ties) follows the addresses of its tables:
    a seeded bot plays differently from one run to the next. With address randomisation
    off and Python's string hashing fixed (``PYTHONHASHSEED=0``), every process of a run
    allocates the same addresses, given the same work (see :func:`run`). Returns
    whether that holds; ``False`` where the system refuses (not Linux, or a sandbox
    that forbids ``personality``), and the run goes on unpinned.
    """
    if sys.platform != "linux":
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    persona = libc.personality(0xFFFFFFFF)
    if persona == -1:
        return False
    if persona & _ADDR_NO_RANDOMIZE and os.environ.get("PYTHONHASHSEED") == "0":
        return True
    if os.environ.get(_PINNED) or libc.personality(persona | _ADDR_NO_RANDOMIZE) == -1:
        return False
    env = {**os.environ, "PYTHONHASHSEED": "0", _PINNED: "1"}
    os.execve(sys.executable, sys.orig_argv, env)
    return False  # not reached: execve replaces this process


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, play the deals, print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--level", default="normal", help="our level: a make_player level, oracle or BIDDER/PLAYER"
    )
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="a.NAME=VALUE",
        help="a constructor setting for our level, e.g. a.iterations=1000 (repeatable)",
    )
    parser.add_argument("--a-settings", help="our level's settings as a JSON object")
    parser.add_argument(
        "--hands", type=int, default=400, help="hands in all, both seatings (default 400)"
    )
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--simulations", type=int, default=1000, help="ISMCTS simulations a move (default 1000)"
    )
    parser.add_argument("--uct-c", type=float, default=2.0, help="ISMCTS's UCT constant (2.0)")
    parser.add_argument(
        "--rollouts", type=int, default=1, help="random rollouts per evaluation (default 1)"
    )
    parser.add_argument(
        "--max-world-samples",
        type=int,
        default=-1,
        help="ISMCTS's distinct sampled worlds a move, -1 unlimited (default)",
    )
    parser.add_argument(
        "--final-policy",
        choices=POLICIES,
        default=POLICIES[0],
        help="how ISMCTS picks its move from the search (default max_visit_count)",
    )
    parser.add_argument(
        "--double-dummy",
        action="store_true",
        help="also solve each position of the play seeing every hand, and report what "
        "each side's card play gave away against perfect play (slower; plays other "
        "ISMCTS games than a run without it, see the pinned addresses)",
    )
    parser.add_argument(
        "--fork-bids",
        action="store_true",
        help="replay each of our bidding decisions with the other choice, played on live "
        "against ISMCTS, and report what each kind of choice gained (some 3 hands more "
        "played for each hand)",
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="write every hand (seed, our side, actions) to FILE, a line each, for "
        "bench/choices.py",
    )
    parser.set_defaults(b_settings=None)  # bench/strength.py's _settings reads it
    args = parser.parse_args(argv)
    if pyspiel is None:
        print("OpenSpiel is not installed: pip install open_spiel==2.0.2")
        raise SystemExit(2)
    pinned = argv is None and pin_addresses()  # a command line, not a caller's process
    settings, other = _settings(args)
    if other:
        raise SystemExit(
            "--setting b.*: ISMCTS takes --simulations, --uct-c, --rollouts, "
            "--max-world-samples and --final-policy"
        )
    config = Config(
        args.level,
        settings,
        args.simulations,
        args.uct_c,
        args.rollouts,
        args.max_world_samples,
        args.final_policy,
        args.double_dummy,
        args.fork_bids,
    )
    try:  # fail fast on a bad level or setting
        _player(Game("euchre"), args.level, 0, settings)
    except (TypeError, ValueError) as err:
        raise SystemExit(f"--level {args.level} {json.dumps(settings)}: {err}") from None
    deals = max(1, (args.hands + 1) // 2)

    print(f"command: {shlex.join(['python', '-m', 'bench.crossplay', *sys.argv[1:]])}")
    print(
        "euchre (stick the dealer, one hand a game at 0-0, duplicate deals): "
        f"ours = {_label(args.level, settings)} vs OpenSpiel {pyspiel.__version__} ISMCTS "
        f"(simulations={config.simulations}, uct_c={config.uct_c}, "
        f"rollouts={config.rollouts}, max_world_samples={config.max_world_samples}, "
        f"final_policy={config.final_policy})"
    )
    print(
        f"seeds {args.seed}..{args.seed + deals - 1}, {args.workers} workers; "
        + (
            "addresses pinned: the same command run alike plays the same games"
            if pinned
            else "addresses not pinned: ISMCTS's tie-breaks vary from run to run"
        )
    )
    print(f"load average before: {_load()} on {os.cpu_count()} CPUs", flush=True)
    start = time.perf_counter()
    pairs = run(config, deals, args.seed, args.workers)
    elapsed = time.perf_counter() - start
    for line in summary(pairs):
        print(line)
    if args.record is not None:
        lines = [record_line(o.seed, o.our_side, o.actions) for pair in pairs for o in pair]
        args.record.write_text("\n".join(lines) + "\n")
        print(f"hands recorded in {args.record}")
    print(f"time {elapsed:.1f} s ({2 * len(pairs) / elapsed:.2f} hands/s)")
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
