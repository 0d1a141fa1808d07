"""The hard level: Information Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse, 2012).

:class:`SearchPlayer` decides every phase of every variant from the seat's
:class:`~engine.view.PlayerView` alone:

* **Play** — single-observer ISMCTS. Each iteration draws a deal consistent with
  the view (:class:`~engine.ai.sampler.Sampler`), walks the tree of the
  player's information sets (a node is the sequence of cards played since the
  root; every seat's cards are edges), selects the player's own cards by UCB
  with *availability counts* among the cards legal in that deal while the other
  seats play the playout rule on their sampled cards, adds one node, then
  values the deal: an exact alpha-beta solve (:mod:`engine.ai.solver`) when few
  tricks are left, else a heuristic playout
  (:func:`~engine.ai.sim.rollout_heuristic`). The move is the most visited child.
* **Bidding, naming trump, going alone, the discard** — every option is tried on
  the same sampled deals (common random numbers), each deal finished by the
  bidding rule and heuristic play; the option with the best mean reward wins.
* **Auction** (RULES.md §7): the normal level bids, discards and calls the partner's
  card, the search plays the cards (:data:`NORMAL_BIDS`), for points: the seat's
  less the others' mean (:data:`_AUCTION_POINTS`), not the win table. Searched bids,
  valued against the best placed of four others, treated every rival bid as a loss
  to block: the search bid 5 nearly every hand, was euchred in most and drove every
  score below zero. With normal's bids and the win table's reward, the searched play
  won 22% of 100 games against normal (even 20%) but ranked 3.40 (even 3.0), score
  share 16.4% (that table races two sides; in a five-seat game its value of a point
  swings with the leader's score). For points: 29% (95% CI 21-39), rank 2.69, share
  23.3% on the same games; 29.0% (23.2-35.6), rank 2.71 over 200.
* **Three-hand and two-hand** (RULES.md §5): the normal level bids and discards,
  the search plays the cards (:data:`NORMAL_BIDS`): its searched bids lost to normal's.
* **Reward** — not the hand's points but the side's chance of winning the game
  after them, from a table of win probabilities by score (:func:`win_table`),
  rescaled to 0..1 over the outcomes possible from the current score. Far from
  the end this is the point difference; near it, it bids boldly when the other
  side is about to win and safely when a small score wins. Jackpot (RULES.md §7)
  has no target: its reward is the chance to finish with the most chips
  (:class:`_ChipReward`), exact when a march or the last deal ends the game.

With ``iterations`` set a decision is a pure function of ``(seed, view)``: the
random stream is seeded from both, so a restarted bot decides the same way.
There is no global mutable state; an instance keeps only a cache of win tables
and the last decision's iteration count (use one instance per worker thread).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from engine.actions import ACTIONS, Action
from engine.ai._mypyc import mypyc_attr
from engine.ai.sampler import Sampler
from engine.ai.sim import BID_THRESHOLD, play_out, play_teams, rollout_heuristic, rollout_random
from engine.ai.solver import maker_tricks
from engine.core import DONE, PLAY
from engine.players.heuristic import HeuristicPlayer
from engine.variants import Bidding, Variant, get_variant
from engine.view import Phase, PlayerView

__all__ = ["SearchPlayer", "win_table"]

SOLVE_TRICKS = {"tuque": 6, "tuque61": 6, "euchre": 3, "jackpot": 0}
"""Default: solve exactly when this many tricks or fewer are left (Jackpot has no
makers to solve for: its chips follow every trick)."""
MAKER_EDGE = {"euchre": 0.0}
"""Default ``maker_edge`` where it is not 0.4 (points). Four-hand Euchre's hands made by
the search play at about their double-dummy worth against OpenSpiel's ISMCTS
(``bench/crossplay.py --double-dummy``): no better than the playouts assume. There an
edge of 0 beat 0.4 by +0.04 to +0.06 points a hand on three sets of duplicate deals
(docs/ai.md, "Where the points go, and bidding without the edge")."""
NORMAL_BIDS = frozenset({"three_hand", "two_hand", "auction"})
"""Variants whose bidding, going alone, discard and call the normal level decides (the
search plays the cards); 200 iterations, seed 1, against normal. Three-hand
(RULES.md §5), 60 games, against two normal players: searched bids with normal play
ranked 2.23 (even 2.0), normal bids with searched play 1.52 (wins 57%, 95% CI
44-68): the search's bidding rule, whose playouts stand in for the other bidders,
misjudges a maker alone against two (thresholds 2.5 / 4.3 / 5.0 all lost).
Two-hand (§5), 40 games: searched bids with normal play won 42.5% at threshold 4.3
and 27.5% at 2.1 (ordering up nearly every hand, euchred often: 296 hands a game);
normal bids with searched play won 61.7% (95% CI 49.0-72.9, 60 games) with the
sampler reading bids at 2.1. Auction (§7): see the module docs."""
_BIDDING_PHASES = frozenset(
    {
        Phase.BIDDING_1,
        Phase.BIDDING_2,
        Phase.GOING_ALONE,
        Phase.DISCARD,
        Phase.AUCTION,
        Phase.CALLING,
    }
)
_TYPICAL_BID: dict[Bidding, int] = {"auction": 3}
"""The bid the win table assumes where points depend on it (RULES.md §7 Auction)."""


def _trick_odds(variant: Variant) -> list[float]:
    # A rough spread of the makers' tricks in a hand: centred a little above the
    # contract, as bidding makes it. Only the shape of the win table depends on it.
    n = variant.tricks
    centre, spread = 0.6 * n, 0.15 * n
    weights = [math.exp(-((m - centre) ** 2) / (2 * spread * spread)) for m in range(n + 1)]
    total = sum(weights)
    return [w / total for w in weights]


def score_floor(variant: Variant) -> int:
    """The lowest score :func:`win_table` tells apart: 0, or below it where hands deduct
    points (RULES.md §5 euchred makers, §7 Auction's failed bids)."""
    n = variant.tricks
    bid = _TYPICAL_BID.get(variant.bidding, 0)
    worst = min(min(variant.score_hand(m, n - m, False, False, bid)) for m in range(n + 1))
    return 0 if worst >= 0 else 10 * worst


def win_table(variant: Variant, target: int) -> list[list[float]]:
    """``table[a - floor][b - floor]``: the chance that a side on ``a`` points beats one on
    ``b`` (to ``target``), for scores from :func:`score_floor` up.

    A Markov model of the game: each hand either side makes trump with even odds
    and the makers' tricks follow a fixed spread (``_trick_odds``); points come
    from the variant's own scoring (RULES.md §1–§3). Both reaching the target:
    the higher total wins, a tie counts as even (RULES.md §2 Ruling).
    """
    odds = _trick_odds(variant)
    n = variant.tricks
    bid = _TYPICAL_BID.get(variant.bidding, 0)
    outcomes = [
        (p / 2, *variant.score_hand(m, n - m, False, False, bid)) for m, p in enumerate(odds)
    ]
    floor = score_floor(variant)
    size = target - floor
    table = [[0.5] * size for _ in range(size)]

    def value(a: int, b: int) -> float:
        if a >= target or b >= target:
            return 1.0 if a > b else 0.0 if b > a else 0.5
        # Scores below the floor (ten bad hands down) count as the floor.
        return table[max(a - floor, 0)][max(b - floor, 0)]

    # Scores only fall by deductions, which the table's order cannot follow: sweep
    # from the top a few times so values below a score settle.
    for _ in range(1 if floor == 0 else 3):
        for a in range(target - 1, floor - 1, -1):
            for b in range(target - 1, floor - 1, -1):
                table[a - floor][b - floor] = sum(
                    p * (value(a + mp, b + dp) + value(a + dp, b + mp)) for p, mp, dp in outcomes
                )
    return table


_AUCTION_POINTS = 15
"""Auction (RULES.md §7): points (the seat's less the others' mean) per unit of reward."""


class _Reward:
    """Maps a finished hand to a reward in 0..1 for the root player's side."""

    def __init__(self, view: PlayerView, variant: Variant, table: list[list[float]]) -> None:
        side = self.side = view.sides[view.seat]  # type: ignore[index]
        self.scores = view.scores
        self.others = [s for s in range(len(view.scores)) if s != side]
        self.mine = view.scores[side]
        # With more than two sides, the game is against the best placed of the others.
        self.theirs = max(view.scores[s] for s in self.others)
        self.table = table
        self.by_points = variant.bidding == "auction"
        self.floor = score_floor(variant)
        self.target = len(table) + self.floor
        n = variant.tricks
        bid = _TYPICAL_BID.get(variant.bidding, 0)
        possible = {(0, 0)}
        for m in range(n + 1):
            for alone in {False, variant.alone != "none"}:
                made, lost = variant.score_hand(m, n - m, alone, False, bid)
                possible |= {(made, lost), (lost, made)}
        values = [self.win(us, them) for us, them in possible]
        self.low = min(values)
        spread = max(values) - self.low
        self.scale = 1 / spread if spread > 0 else 0.0
        self.point = (self.win(1, 0) - self.win(0, 0)) * self.scale
        """The reward of one point now (for small adjustments given in points)."""

    def win(self, ours: int, theirs: int) -> float:
        a, b = self.mine + ours, self.theirs + theirs
        if a >= self.target or b >= self.target:
            return 1.0 if a > b else 0.0 if b > a else 0.5
        floor = self.floor
        return self.table[max(a - floor, 0)][max(b - floor, 0)]

    def of(self, points: Sequence[int], won: Sequence[int] = ()) -> float:
        """Reward of a hand that scored ``points`` per side (``won``, the tricks per seat,
        is not needed: the points tell the game's state)."""
        side = self.side
        if self.by_points:
            others = self.others
            mean = sum(points[s] for s in others) / len(others)
            return 0.5 + (points[side] - mean) / _AUCTION_POINTS
        if not self.scale:
            return 0.5
        others = self.others
        if len(others) == 1:
            theirs = points[others[0]]
        else:
            # The others' mean gain moves the leader: a partner of the hand (Call-Ace,
            # Auction) who scores with us is one rival of several, not the whole field;
            # counting their full gain made the search fail its own bids.
            mean = sum(points[s] for s in others) / len(others)
            low = math.floor(mean)
            part = mean - low
            ours = points[side]
            # Between two whole scores the table is read linearly: a rival's single point
            # among three others still counts.
            value = (1 - part) * self.win(ours, low) + part * self.win(ours, low + 1)
            return (value - self.low) * self.scale
        return (self.win(points[side], theirs) - self.low) * self.scale


_CHIP_SPREAD = 1.5
"""Standard deviation of one seat's net chips in a Jackpot hand (RULES.md §7): 1.48 over
the 2,207 hands of 200 normal self-play games (4 seats)."""
_STEPS = [
    (-4.0 + 0.25 * i, 0.25 * math.exp(-((-4.0 + 0.25 * i) ** 2) / 2) / math.sqrt(2 * math.pi))
    for i in range(33)
]
"""Points and weights of the integral over a standard normal in :class:`_ChipReward`."""


class _ChipReward:
    """Jackpot (RULES.md §7): a finished hand's reward is the seat's chance to win the game.

    The game ends after the hand if a seat marched or the last deal (or a deal breaking
    a tie for the most chips) is played: then the reward is 1 for the sole top score, a
    share of it for a tie at the top (another deal decides) and 0 otherwise. Else each
    seat's net chips over the deals left are taken as independent normal laws
    (``_CHIP_SPREAD`` a deal), and the reward is the chance that the seat's total ends
    above every other's. Chips in the hand against the best
    of the others (the reward before this one) ignored both the game's end by a march
    and who leads the game. Measured against three normal players (600 games, seed 1,
    200 iterations): 32.0% wins (95% CI 28.4-35.8), rank 2.38, against 30.5% (26.9-34.3),
    2.36 with that reward: no gain beyond noise, but the objective the game has.
    """

    def __init__(self, view: PlayerView, variant: Variant) -> None:
        self.side = view.sides[view.seat]  # type: ignore[index]
        self.totals = list(view.scores)
        self.tricks = variant.tricks
        options = view.options or variant.defaults
        # A deal that breaks a tie for the most chips is the last (RULES.md §7 ruling).
        self.left = 0 if view.tie_break else max(options.hands - view.hand_no, 0)
        self.spread = _CHIP_SPREAD * math.sqrt(self.left)
        self._cache: dict[tuple[tuple[int, ...], bool], float] = {}
        nobody = [0] * len(self.totals)
        one = [int(s == self.side) for s in range(len(self.totals))]
        self.point = self.of(one) - self.of(nobody)  # one chip's reward now (the maker edge's unit)

    def of(self, points: Sequence[int], won: Sequence[int] = ()) -> float:
        """Reward of a hand that moved ``points`` chips per seat, ``won`` tricks per seat."""
        over = not self.left or self.tricks in won
        key = (tuple(points), over)
        value = self._cache.get(key)
        if value is None:
            value = self._cache[key] = self._value(points, over)
        return value

    def _value(self, points: Sequence[int], over: bool) -> float:
        final = [t + p for t, p in zip(self.totals, points, strict=True)]
        mine = final[self.side]
        others = [f for s, f in enumerate(final) if s != self.side]
        if over:
            top = max(others)
            if mine != top:
                return 1.0 if mine > top else 0.0
            return 1.0 / (1 + others.count(top))
        spread = self.spread
        total = 0.0
        for z, weight in _STEPS:
            p = weight
            for f in others:
                p *= 0.5 * (1 + math.erf((mine - f + spread * z) / (spread * math.sqrt(2))))
            total += p
        return total


class _Node:
    """An information-set node: the reward sums of the seat whose move led here."""

    __slots__ = ("avail", "children", "side", "total", "visits")

    def __init__(self, side: int) -> None:
        self.side = side
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


@mypyc_attr(allow_interpreted_subclasses=True)  # bench/oracle.py's subclass, when compiled
class SearchPlayer:
    """The hard level: ISMCTS in play, sampled option values in bidding (see the module docs).

    Args:
        seed: seeds every decision together with the view; ``None``: fresh entropy.
        time_budget: seconds a decision may take when ``iterations`` is ``None``.
        iterations: a fixed number of iterations (sampled deals) per decision, which
            makes the player deterministic for a fixed seed.
        exploration: the UCB constant ``c`` in ``mean + c * sqrt(ln(available) / visits)``.
        solve_tricks: solve exactly from this many tricks left (default per variant:
            6 in Tuque, 3 in Euchre); 0 never solves.
        rollout: ``"heuristic"`` (default) or ``"random"`` playouts.
        bid_threshold: the bidding rule's threshold used inside playouts (default per variant).
        infer_bids: weight sampled deals by how well they explain the other seats' bids.
        maker_edge: points added, in bidding, to the playouts in which the player's side
            makes trump: the search plays a hand it made better than the playout rule
            does (default per variant: :data:`MAKER_EDGE`, else 0.4).
        others: ``"policy"`` (default): the other seats' cards are chosen by the playout
            rule on the sampled deal, so partners and opponents play to their own
            (sampled) cards; ``"search"``: by UCB in the tree, as in plain ISMCTS.

    Raises:
        ValueError: a non-positive budget, or an unknown rollout.
    """

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float = 0.5,
        iterations: int | None = None,
        exploration: float = 0.35,
        solve_tricks: int | None = None,
        rollout: str = "heuristic",
        bid_threshold: float | None = None,
        infer_bids: bool = True,
        maker_edge: float | None = None,
        others: str = "policy",
    ) -> None:
        if iterations is None and not time_budget > 0:
            raise ValueError("time_budget must be positive seconds")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if rollout not in ("heuristic", "random"):
            raise ValueError("rollout must be 'heuristic' or 'random'")
        if others not in ("search", "policy"):
            raise ValueError("others must be 'search' or 'policy'")
        self.seed = seed
        self.time_budget = time_budget
        self.iterations = iterations
        self.exploration = exploration
        self.solve_tricks = solve_tricks
        self.rollout = rollout
        self.bid_threshold = bid_threshold
        self.infer_bids = infer_bids
        self.maker_edge = maker_edge
        self.others = others
        self._tables: dict[tuple[str, int], list[list[float]]] = {}
        self.last_iterations = 0
        """Iterations (sampled deals) the last decision used."""
        self.last_shares: dict[int, float] = {}
        """The last decision's share of the search per action id (0..1, summing to 1):
        visits in play, deals on which the option did best in bidding; empty when no
        search ran (one legal action, or a phase the normal level decides)."""

    # --- entry point -----------------------------------------------------------------

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` for ``view.seat`` (see the module docstring)."""
        self.last_shares = {}
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        if view.variant in NORMAL_BIDS and view.phase in _BIDDING_PHASES:
            self.last_iterations = 0
            return HeuristicPlayer(self._stream(view)).choose(view, legal)
        start = time.perf_counter()
        variant = get_variant(view.variant).configured(
            view.options or get_variant(view.variant).defaults
        )
        rng = random.Random(self._stream(view))
        reward: _Reward | _ChipReward
        if variant.chips:
            reward = _ChipReward(view, variant)
        else:
            key = (variant.name, view.target)
            table = self._tables.get(key)
            if table is None:
                table = self._tables[key] = win_table(variant, view.target)
            reward = _Reward(view, variant, table)
        sampler = self._sampler(view, variant)
        # Stop a little early: the last iteration and the reply still take time.
        deadline = None if self.iterations is not None else start + 0.96 * self.time_budget
        ids = [a.id for a in legal]
        if view.phase is Phase.PLAY:
            choice = self._ismcts(sampler, reward, variant, ids, rng, deadline)
        else:
            choice = self._flat(sampler, reward, variant, ids, rng, deadline)
        return ACTIONS[choice]

    def _sampler(self, view: PlayerView, variant: Variant) -> Sampler:
        """The source of this decision's deals (``bench/oracle.py`` swaps in the true one)."""
        return Sampler(view, self._threshold(variant) if self.infer_bids else None)

    def _stream(self, view: PlayerView) -> str | None:
        if self.seed is None:
            return None
        plays = [(s, c.code) for t in (*view.tricks, view.trick) for s, c in t.plays]
        hand = " ".join(c.code for c in view.hand)
        return f"{self.seed}|{view.variant}|{view.hand_no}|{view.scores}|{view.bids}|{plays}|{hand}"

    def _budget(self, deadline: float | None, done: int, per: float) -> bool:
        """Whether another unit of work (``per`` seconds on average) fits."""
        if deadline is None:
            return done < (self.iterations or 0)
        return time.perf_counter() + per < deadline

    # --- bidding, going alone, the discard ------------------------------------------

    def _flat(
        self,
        sampler: Sampler,
        reward: _Reward | _ChipReward,
        variant: Variant,
        ids: list[int],
        rng: random.Random,
        deadline: float | None,
    ) -> int:
        threshold = self._threshold(variant)
        totals = [0.0] * len(ids)
        # Per option, the deals on which it did best (a tie shares the deal): the share
        # behind a hint's "how sure".
        best = [0.0] * len(ids)
        edge = self.maker_edge if self.maker_edge is not None else MAKER_EDGE.get(variant.name, 0.4)
        edge *= reward.point
        done = 0
        deals = 0
        per = 0.0
        clock = time.perf_counter()
        while done == 0 or self._budget(deadline, done, per):
            base = sampler.sample(rng)
            values = []
            for action in ids:
                sim = base.copy()
                sim.apply(action)
                play_out(sim, threshold)
                value = reward.of(sim.points, sim.won)
                if sim.maker >= 0 and sim.sides[sim.maker] == reward.side:
                    value += edge
                values.append(value)
            top = max(values)
            winners = [i for i, v in enumerate(values) if v == top]
            for i, v in enumerate(values):
                totals[i] += v
            for i in winners:
                best[i] += 1 / len(winners)
            done += len(ids)
            deals += 1
            now = time.perf_counter()
            per, clock = now - clock, now
        self.last_iterations = done
        self.last_shares = {a: best[i] / deals for i, a in enumerate(ids)}
        return ids[max(range(len(ids)), key=lambda i: totals[i])]

    def _threshold(self, variant: Variant) -> float:
        if self.bid_threshold is not None:
            return self.bid_threshold
        return BID_THRESHOLD.get(variant.name, 4.3)

    # --- play ------------------------------------------------------------------------

    def _ismcts(
        self,
        sampler: Sampler,
        reward: _Reward | _ChipReward,
        variant: Variant,
        ids: list[int],
        rng: random.Random,
        deadline: float | None,
    ) -> int:
        solve_from = self.solve_tricks
        if solve_from is None:
            solve_from = SOLVE_TRICKS.get(variant.name, 3)
        n = variant.tricks
        score = variant.score_hand
        bid = sampler.template.bid  # the Auction's: its score changes at the bid's tricks
        # The makers' trick totals at which the score changes: all the solver must tell apart.
        steps = [
            m
            for m in range(1, n + 1)
            if score(m, n - m, False, False, bid) != score(m - 1, n + 1 - m, False, False, bid)
        ]
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        root = _Node(-1)
        random_rollout = self.rollout == "random"
        seat_of_view = sampler.view.seat
        assert seat_of_view is not None  # a sampler is made for a seat's view only
        me = seat_of_view if self.others == "policy" else -1
        play_id = sampler.template.play_id[sampler.template.trump]
        done = 0
        clock = time.perf_counter()
        per = 0.0
        while done == 0 or self._budget(deadline, done, per):
            sim = sampler.sample(rng)
            node = root
            path = [root]
            sides = sim.sides
            teams = play_teams(sim)  # for every card the playout rule plays in this deal
            while sim.phase == PLAY:
                if me >= 0 and sim.turn != me:
                    # Another seat plays the playout rule on its sampled cards; the
                    # card is still an edge, so later nodes stay information sets.
                    seat = sim.turn
                    trace: list[int] = []
                    rollout_heuristic(sim, trace, 1, teams)
                    action = play_id[trace[0]]
                    child = node.children.get(action)
                    if child is None:
                        child = node.children[action] = _Node(sides[seat])
                    node = child
                    path.append(node)
                    continue
                legal = sim.legal()
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried:
                    action = untried[int(rng.random() * len(untried))]
                    for a in legal:
                        if a in children:
                            children[a].avail += 1
                    child = children[action] = _Node(sides[sim.turn])
                    sim.apply(action)
                    path.append(child)
                    break
                best_value = -1.0
                action = legal[0]
                for a in legal:
                    ch = children[a]
                    ch.avail += 1
                    v = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if v > best_value:
                        best_value, action = v, a
                sim.apply(action)
                node = children[action]
                path.append(node)
            if sim.phase == PLAY:
                if sim.ntricks - sim.done <= solve_from:
                    sim.score_made(maker_tricks(sim, steps))
                    sim.phase = DONE
                elif random_rollout:
                    rollout_random(sim, rng)
                else:
                    rollout_heuristic(sim, teams=teams)
            r = reward.of(sim.points, sim.won)
            side = reward.side
            for node in path[1:]:
                node.visits += 1
                node.total += r if node.side == side else 1.0 - r
            done += 1
            if deadline is not None and done % 16 == 0:
                now = time.perf_counter()
                per, clock = (now - clock) / 16, now
        self.last_iterations = done
        children = root.children
        visits = sum(children[a].visits for a in ids if a in children)
        self.last_shares = {a: children[a].visits / visits for a in ids if a in children}
        return max(
            (a for a in ids if a in children),
            key=lambda a: (children[a].visits, children[a].total / children[a].visits),
        )
