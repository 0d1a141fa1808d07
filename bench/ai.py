"""AI bench, on one core: simulator playouts per second, search iterations per second, and
the hard level's decision time at its default budget.

Usage::

    python bench/ai.py                 # everything (about a minute)
    python bench/ai.py --quick         # smaller counts

Figures (Tuque unless said otherwise):

* random / heuristic playouts per second: one hand played out in
  :mod:`engine.ai.sim` from its first lead to its score (34 cards), on pre-dealt
  hands, copying the hand first (as the search does);
* search iterations per second: :class:`~engine.ai.search.SearchPlayer` with a fixed
  iteration count on play decisions of seeded hands (sampling, tree, playout or solve);
* decision time p50 / p95: the hard level at its default budget (0.5 s) playing
  against the normal level, over every decision with more than one legal action.

The machine's load average is printed with the figures: they vary with it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai.search import SearchPlayer
from engine.ai.sim import play_out, rollout_heuristic, rollout_random
from engine.core import PLAY, HandState
from engine.game import Game
from engine.players import make_player
from engine.variants import get_variant
from engine.view import Phase, PlayerView


def _dealt_hands(variant: str, count: int, seed: int) -> list[HandState]:
    """``count`` hands of ``variant`` bid by the simulator's rule, at their first lead."""
    v = get_variant(variant)
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        order = [c.index for c in v.pack]
        rng.shuffle(order)
        sim = HandState.from_deal(v, v.defaults, order, rng.randrange(v.players))
        while sim.phase != PLAY and sim.turn >= 0:
            sim.apply(rng.choice(sim.legal()))
        if sim.phase == PLAY:
            hands.append(sim)
    return hands


def playouts_per_second(variant: str, policy: str, count: int) -> float:
    """Playouts a second from the first lead to the score, copying each hand first."""
    hands = _dealt_hands(variant, count, 1)
    rng = random.Random(2)
    start = time.perf_counter()
    if policy == "random":
        for sim in hands:
            rollout_random(sim.copy(), rng)
    else:
        for sim in hands:
            rollout_heuristic(sim.copy())
    return count / (time.perf_counter() - start)


def full_hands_per_second(variant: str, count: int) -> float:
    """Whole hands a second: bidding rule, discard rule, then heuristic play."""
    v = get_variant(variant)
    rng = random.Random(3)
    orders = []
    for _ in range(count):
        order = [c.index for c in v.pack]
        rng.shuffle(order)
        orders.append(order)
    start = time.perf_counter()
    for i, order in enumerate(orders):
        play_out(HandState.from_deal(v, v.defaults, order, i % v.players), 4.3)
    return count / (time.perf_counter() - start)


def _play_views(variant: str, count: int) -> list[PlayerView]:
    """Play decisions (more than one legal card) from seeded hands played at random."""
    views: list[PlayerView] = []
    seed = 0
    while len(views) < count:
        game = Game(variant, seed=seed)
        rng = random.Random(seed)
        game.deal()
        seed += 1
        while game.turn is not None:
            view = game.view(game.turn)
            if view.phase is Phase.PLAY and len(view.legal_actions) > 1:
                views.append(view)
            game.apply(game.turn, rng.choice(view.legal_actions))
    return views[:count]


def iterations_per_second(variant: str, decisions: int, iterations: int) -> float:
    """Search iterations a second over ``decisions`` play decisions."""
    player = SearchPlayer(seed=1, iterations=iterations)
    total = 0
    start = time.perf_counter()
    for view in _play_views(variant, decisions):
        player.choose(view, view.legal_actions)
        total += player.last_iterations
    return total / (time.perf_counter() - start)


def decision_times(variant: str, hands: int, budget: float) -> list[float]:
    """Seconds per hard decision (budget ``budget``) against normal, over ``hands`` hands."""
    times = []
    for seed in range(hands):
        game = Game(variant, seed=seed)
        hard = SearchPlayer(seed=seed, time_budget=budget)
        normal = make_player("normal", seed=seed)
        game.deal()
        while game.turn is not None:
            seat = game.turn
            view = game.view(seat)
            player = hard if view.sides[seat] == seed % 2 else normal
            start = time.perf_counter()
            action = player.choose(view, view.legal_actions)
            if player is hard and len(view.legal_actions) > 1:
                times.append(time.perf_counter() - start)
            game.apply(seat, action)
    return times


def main(argv: list[str] | None = None) -> None:
    """Run the bench and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    parser.add_argument("--budget", type=float, default=0.5, help="hard's seconds a move")
    args = parser.parse_args(argv)
    scale = 0.2 if args.quick else 1.0
    print(f"load average before: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
    n = int(20000 * scale)
    print(f"tuque random playouts/s:    {playouts_per_second('tuque', 'random', n):9,.0f}")
    print(f"tuque heuristic playouts/s: {playouts_per_second('tuque', 'heuristic', n):9,.0f}")
    print(
        f"tuque whole hands/s (bid, discard, heuristic play): "
        f"{full_hands_per_second('tuque', n // 2):,.0f}"
    )
    print(f"euchre random playouts/s:   {playouts_per_second('euchre', 'random', n):9,.0f}")
    for variant in ("tuque", "euchre"):
        rate = iterations_per_second(variant, int(40 * scale) or 5, 1000)
        print(f"{variant} search iterations/s (play, 1000 a move): {rate:,.0f}")
    times = sorted(decision_times("tuque", int(10 * scale) or 2, args.budget))
    p50 = statistics.median(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"tuque hard decisions at {args.budget} s: n={len(times)} p50 {p50:.3f} s "
        f"p95 {p95:.3f} s max {times[-1]:.3f} s"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
