"""AI bench, on one core: simulator playouts per second, search iterations per second, and
the hard level's decision time at its default budget.

Usage::

    python -m bench.ai                 # everything (about a minute)
    python -m bench.ai --quick         # smaller counts
    python -m bench.ai --base ../before --with ../compiled --rounds 8

Figures (Tuque unless said otherwise):

* random / heuristic playouts per second: one hand played out in
  :mod:`engine.ai.sim` from its first lead to its score (34 cards), on pre-dealt
  hands, copying the hand first (as the search does);
* search iterations per second: :class:`~engine.ai.search.SearchPlayer` with a fixed
  iteration count on play decisions of seeded hands (sampling, tree, playout or solve);
* decision time p50 / p95: the hard level at its default budget (0.5 s) playing
  against the normal level, over every decision with more than one legal action.

The machine's load average is printed with the figures: they vary with it.

``--base DIR`` measures a change to the search: rounds alternate between this
checkout's engine and the one at ``DIR`` (a ``git worktree`` of the code before),
and any ``--with DIR`` (another checkout, such as a copy with the compiled modules
built in place), each round in a fresh process that makes one untimed decision of
each kind first (tables built on first use). A round measures, on the same seeded
views in every checkout, search iterations a second on Tuque and Euchre play
decisions and on bidding decisions (each option's playout counts as an iteration,
as the search counts them), and the mean iterations a play decision gets at
``--budget`` seconds. The ratios to the base are paired by round, so a change in
the machine's load between rounds cancels out.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

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


_BIDDING = (Phase.BIDDING_1, Phase.BIDDING_2, Phase.GOING_ALONE, Phase.DISCARD)


def _views(variant: str, count: int, phases: tuple[Phase, ...]) -> list[PlayerView]:
    """Decisions in ``phases`` (more than one legal action) from seeded hands played at
    random, Euchre with stick the dealer (every hand is played)."""
    views: list[PlayerView] = []
    seed = 0
    options = {"stick_the_dealer": True} if variant == "euchre" else {}
    while len(views) < count:
        game = Game(variant, seed=seed, **options)
        rng = random.Random(seed)
        game.deal()
        seed += 1
        while game.turn is not None:
            view = game.view(game.turn)
            if view.phase in phases and len(view.legal_actions) > 1:
                views.append(view)
            game.apply(game.turn, rng.choice(view.legal_actions))
    return views[:count]


def _play_views(variant: str, count: int) -> list[PlayerView]:
    """Play decisions (more than one legal card) from seeded hands played at random."""
    return _views(variant, count, (Phase.PLAY,))


def iterations_per_second(
    variant: str, decisions: int, iterations: int, phases: tuple[Phase, ...] = (Phase.PLAY,)
) -> float:
    """Search iterations a second over ``decisions`` decisions in ``phases`` (play by
    default), after one untimed decision (tables are built on first use)."""
    views = _views(variant, decisions + 1, phases)
    player = SearchPlayer(seed=1, iterations=iterations)
    player.choose(views[0], views[0].legal_actions)
    total = 0
    start = time.perf_counter()
    for view in views[1:]:
        player.choose(view, view.legal_actions)
        total += player.last_iterations
    return total / (time.perf_counter() - start)


def budget_iterations(variant: str, decisions: int, budget: float) -> float:
    """Mean iterations a play decision gets at ``budget`` seconds (after an untimed one)."""
    views = _play_views(variant, decisions + 1)
    player = SearchPlayer(seed=1, time_budget=budget)
    player.choose(views[0], views[0].legal_actions)
    total = 0
    for view in views[1:]:
        player.choose(view, view.legal_actions)
        total += player.last_iterations
    return total / decisions


FIGURES = {
    "tuque play it/s": "iterations a second, Tuque play decisions",
    "euchre play it/s": "iterations a second, Euchre play decisions",
    "tuque bid it/s": "iterations a second, Tuque bidding decisions",
    "euchre bid it/s": "iterations a second, Euchre bidding decisions",
    "tuque it/decision": "mean iterations a Tuque play decision gets at the budget",
    "euchre it/decision": "mean iterations a Euchre play decision gets at the budget",
}
"""The figures of a ``--base`` round, by name."""
_ROOT = str(Path(__file__).resolve().parent.parent)
"""This checkout, whose search the rounds of ``--base`` compare with another's."""


def round_figures(decisions: int, budget: float, budget_decisions: int) -> dict[str, float]:
    """One round of ``--base``: every figure of :data:`FIGURES`, in this process."""
    out = {}
    for variant in ("tuque", "euchre"):
        out[f"{variant} play it/s"] = iterations_per_second(variant, decisions, 1000)
        out[f"{variant} bid it/s"] = iterations_per_second(variant, decisions, 1000, _BIDDING)
        out[f"{variant} it/decision"] = budget_iterations(variant, budget_decisions, budget)
    return out


def checkout_figures(root: str, decisions: int, budget: float, budget_decisions: int) -> dict:
    """A round of the checkout at ``root``: this script's ``--time-search`` in a new
    process that imports the engine from ``root``."""
    # Imported here: that process runs this file where ``bench`` may not be importable.
    from bench.checkouts import run_in_checkout

    args = ["--time-search", str(decisions), "--budget", str(budget)]
    args += ["--budget-decisions", str(budget_decisions)]
    return json.loads(run_in_checkout(__file__, root, *args))


def compare(
    base: str, others: list[str], rounds: int, decisions: int, budget: float, budget_decisions: int
) -> None:
    """Print each checkout's figures (best and median of ``rounds``) and its ratios to
    ``base``, paired by round; the checkouts' order turns each round."""
    names = ["base", "this", *(f"with{i + 1}" for i in range(len(others)))]
    roots = dict(zip(names, [base, _ROOT, *others], strict=True))
    got: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    loads = [os.getloadavg()[0]]
    for r in range(rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order if r % 2 == 0 else reversed(order):
            got[name].append(checkout_figures(roots[name], decisions, budget, budget_decisions))
        loads.append(os.getloadavg()[0])
        print(f"round {r + 1}/{rounds} done, load {loads[-1]:.2f}", file=sys.stderr)
    print(
        f"{rounds} rounds alternated, {decisions} decisions a figure at 1,000 iterations, "
        f"{budget_decisions} at {budget} s; load average {min(loads):.2f}-{max(loads):.2f} "
        f"on {os.cpu_count()} CPUs"
    )
    for name in names:
        print(f"  {name}: {roots[name]}")
    for figure in FIGURES:
        print(f"{figure}:")
        for name in names:
            values = [g[figure] for g in got[name]]
            line = f"  {name:6s} best {max(values):9,.0f}  median {statistics.median(values):9,.0f}"
            if name != "base":
                paired = statistics.median(
                    a[figure] / b[figure] for a, b in zip(got[name], got["base"], strict=True)
                )
                line += f"  {name}/base {paired:.3f} (median of paired rounds)"
            print(line)


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
    parser.add_argument("--base", metavar="DIR", help="compare with the checkout at DIR")
    parser.add_argument(
        "--with",
        dest="others",
        metavar="DIR",
        action="append",
        default=[],
        help="with --base: also measure the checkout at DIR (repeatable)",
    )
    parser.add_argument("--rounds", type=int, default=6, help="with --base: rounds")
    parser.add_argument("--decisions", type=int, default=20, help="with --base: decisions a figure")
    parser.add_argument(
        "--budget-decisions",
        type=int,
        default=4,
        help="with --base: play decisions a round at --budget",
    )
    parser.add_argument("--time-search", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.time_search:  # a round of --base, in its own process
        print(json.dumps(round_figures(args.time_search, args.budget, args.budget_decisions)))
        return
    if args.base:
        compare(
            args.base,
            args.others,
            args.rounds,
            args.decisions,
            args.budget,
            args.budget_decisions,
        )
        return
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
        rate = iterations_per_second(variant, int(40 * scale) or 5, 1000, _BIDDING)
        print(f"{variant} search iterations/s (bidding, 1000 a move): {rate:,.0f}")
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
