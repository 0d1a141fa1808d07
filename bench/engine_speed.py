"""Engine speed bench: random full hands per second through the public ``Game`` API.

Usage::

    python -m bench.engine_speed                 # every variant, 3 runs of 10,000 hands each
    python -m bench.engine_speed --hands 50000 --runs 5 --variant euchre

A hand is the deal, the bidding and the play, every action a uniformly random
choice from ``Game.legal_actions`` (indexed with a seeded :class:`random.Random`'s
``random()``, cheaper than ``choice``), applied with ``Game.apply``; one process.
Euchre is four-hand with stick the dealer on, so every hand is played out; six-hand
is measured also with its double pack (RULES.md §6 option). When
OpenSpiel (``pyspiel``) is importable, its C++ ``euchre`` game is driven the same
way from Python (random chance outcomes and legal actions, ``stick_the_dealer=true``)
for comparison. Prints the best and the median run, and the load average, since the
figures move with whatever else the machine is doing.

``--base DIR`` compares this engine with another checkout's (the code before a change)
on four-hand Euchre: rounds of ``--hands`` hands alternate between the two, each in a
fresh process that plays 500 untimed hands first (the per-trump tables are built on
first use), and OpenSpiel in this process; the ratios are paired by round, so a
change in the machine's load between rounds cancels out::

    python -m bench.engine_speed --base ../before --hands 2000 --runs 20
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from engine.game import Game
from engine.variants import VARIANTS
from engine.view import Phase

TABLES: dict[str, tuple[str, dict[str, object]]] = {
    **{name: (name, {}) for name in VARIANTS},
    "euchre": ("euchre", {"stick_the_dealer": True}),
    "six_hand_double_pack": ("six_hand", {"double_pack": True}),
}
"""Each table measured, by name: its variant and options."""
_ROOT = str(Path(__file__).resolve().parent.parent)
"""This checkout, whose engine the rounds of ``--base`` compare with another's."""
_LABELS = {"euchre": "euchre (stick the dealer)", "six_hand_double_pack": "six_hand (double pack)"}


def engine_hands(table: str, hands: int, seed: int) -> float:
    """Seconds to play ``hands`` random hands of ``table`` through the public API."""
    variant, options = TABLES[table]
    rand = random.Random(seed).random
    game = Game(variant, seed=seed, **options)
    start = time.perf_counter()
    for hand in range(hands):
        if game.phase is Phase.GAME_OVER:
            # A new game costs about as much as a deal; every hand is deal + bidding + play.
            game = Game(variant, seed=seed + hand, **options)
        game.deal()
        seat = game.turn
        while seat is not None:
            legal = game.legal_actions(seat)
            game.apply(seat, legal[int(rand() * len(legal))])
            seat = game.turn
    return time.perf_counter() - start


def open_spiel_hands(hands: int, seed: int) -> float:
    """Seconds to play ``hands`` random hands of OpenSpiel's C++ ``euchre`` from Python."""
    import pyspiel

    game = pyspiel.load_game("euchre", {"stick_the_dealer": True})
    rand = random.Random(seed).random
    start = time.perf_counter()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[int(rand() * len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[int(rand() * len(legal))]
            state.apply_action(action)
    return time.perf_counter() - start


def checkout_hands(root: str, hands: int, seed: int) -> float:
    """Seconds for the engine of the checkout at ``root`` to play ``hands`` Euchre hands.

    Runs this script's ``--time-hands`` in a new process that imports the engine from
    ``root``, after 500 untimed hands.
    """
    # Imported here: that process runs this file where ``bench`` may not be importable.
    from bench.checkouts import run_in_checkout

    return float(run_in_checkout(__file__, root, "--time-hands", str(hands), "--seed", str(seed)))


def compare(base: str, hands: int, runs: int) -> None:
    """Print this engine's Euchre hands/s against the checkout at ``base`` and OpenSpiel."""
    times: dict[str, list[float]] = {"base": [], "this": [], "open_spiel": []}
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        del times["open_spiel"]
    for run in range(runs):
        names = list(times) if run % 2 == 0 else list(reversed(times))
        for name in names:
            if name == "open_spiel":
                times[name].append(open_spiel_hands(hands, run))
            else:
                times[name].append(checkout_hands(base if name == "base" else _ROOT, hands, run))
    print(f"{runs} rounds of {hands:,} Euchre hands, alternated; best hands/s:")
    for name, spent in times.items():
        print(f"  {name:10s} {hands / min(spent):9,.0f}")
    for a, b in (("this", "base"), ("this", "open_spiel"), ("base", "open_spiel")):
        if b in times:
            paired = statistics.median(y / x for x, y in zip(times[a], times[b], strict=True))
            best = min(times[b]) / min(times[a])
            print(f"  {a}/{b}: {paired:.3f} (median of paired rounds), {best:.3f} (best runs)")


def report(name: str, measure: Callable[[int, int], float], hands: int, runs: int) -> None:
    """Run ``measure`` ``runs`` times and print hands per second, best and median."""
    rates = [hands / measure(hands, run) for run in range(runs)]
    print(
        f"{name:36s} best {max(rates):9,.0f} hands/s   median {statistics.median(rates):9,.0f}"
        f"   ({runs} runs of {hands:,} hands)"
    )


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and print one line per measured game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands per run")
    parser.add_argument("--runs", type=int, default=3, help="runs per game (best and median)")
    parser.add_argument("--variant", choices=("all", *TABLES), default="all")
    parser.add_argument("--base", metavar="DIR", help="compare with the checkout at DIR")
    parser.add_argument("--time-hands", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.time_hands:  # a round of --base, in its own process
        engine_hands("euchre", 500, seed=args.seed + 10_000)
        print(engine_hands("euchre", args.time_hands, seed=args.seed))
        return
    if args.base:
        compare(args.base, args.hands, args.runs)
        return
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} CPUs; one process")
    for table in TABLES:
        if args.variant in ("all", table):
            label = f"engine {_LABELS.get(table, table)}"
            report(label, lambda n, r, t=table: engine_hands(t, n, seed=r), args.hands, args.runs)
    if args.variant in ("all", "euchre"):
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("open_spiel not installed")
        else:
            report("open_spiel euchre (C++ from Python)", open_spiel_hands, args.hands, args.runs)


if __name__ == "__main__":
    main()
