"""Soak: thousands of seeded computer games per variant, every action checked legal.

Usage::

    python -m bench.soak                        # 2,000 games of every table
    python -m bench.soak --games 500 --variant auction --variant six_hand_double_pack

The test suite plays a few dozen games per variant (``tests/players``); this plays
enough to reach the rare deals: every game is seeded (game ``i`` of a variant uses
seed ``i``), the levels rotate around the table as in the tests (all ``normal``;
``easy`` and ``normal`` alternating; ``normal``, ``easy``, ``random`` in turn, with
``easy`` for the random seat in Auction, where reckless 15-point bids can keep every
score below the target for ever), and each chosen action must be in the seat's
``Game.legal_actions``. Each game must end with its winner on the highest score.
Prints per variant the games, hands, wall time and any failing seed, over a process
pool; exits 1 if any game failed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from engine.game import Game
from engine.players import make_player
from engine.view import Phase

#: The tables soaked, by name: a variant and its options (short targets keep a game
#: to a few hands; six-hand also with its double pack, RULES.md §6).
CONFIGS: dict[str, tuple[str, dict[str, object]]] = {
    "tuque": ("tuque", {"target": 5}),
    "tuque61": ("tuque61", {"target": 15}),
    "euchre": ("euchre", {"stick_the_dealer": True}),
    "british": ("british", {}),
    "three_hand": ("three_hand", {"target": 5}),
    "two_hand": ("two_hand", {"target": 5}),
    "six_hand": ("six_hand", {}),
    "six_hand_double_pack": ("six_hand", {"double_pack": True}),
    "almonte": ("almonte", {"dealer_must_make": True}),
    "call_ace": ("call_ace", {"players": 6}),
    "jackpot": ("jackpot", {"players": 5}),
    "auction": ("auction", {"pack": 32, "target": 25}),
}


def levels_for(variant: str, seats: int, seed: int) -> list[str]:
    """The level at each seat of game ``seed``: three mixes in turn."""
    third = "easy" if variant == "auction" else "random"
    mixes = (["normal"] * seats, ["easy", "normal"] * seats, ["normal", "easy", third] * seats)
    return mixes[seed % 3][:seats]


def play(table: str, seed: int) -> tuple[int, str | None]:
    """One seeded game of ``table`` to its end: ``(hands dealt, failure or None)``."""
    variant, options = CONFIGS[table]
    game = Game(variant, seed=seed, **options)
    levels = levels_for(variant, game.variant.players, seed)
    players = [make_player(level, seed * 10 + s) for s, level in enumerate(levels)]
    while game.phase is not Phase.GAME_OVER:
        seat = game.turn
        if seat is None:
            game.deal()
            continue
        view = game.view(seat)
        action = players[seat].choose(view, view.legal_actions)
        if action not in game.legal_actions(seat):
            return game.hand_no, f"seed {seed}: {levels[seat]} chose illegal {action}"
        game.apply(seat, action)
    if game.winner is None or game.scores[game.winner] != max(game.scores):
        return game.hand_no, f"seed {seed}: winner {game.winner} with scores {game.scores}"
    return game.hand_no, None


def soak(table: str, games: int) -> tuple[int, list[str]]:
    """Games ``0 .. games-1`` of ``table``: total hands and failures."""
    hands, failures = 0, []
    for seed in range(games):
        dealt, failure = play(table, seed)
        hands += dealt
        if failure:
            failures.append(failure)
    return hands, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per table")
    parser.add_argument("--variant", action="append", choices=sorted(CONFIGS))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    variants = args.variant or list(CONFIGS)
    failed = False
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        jobs = {variant: pool.submit(soak, variant, args.games) for variant in variants}
        for variant, job in jobs.items():
            hands, failures = job.result()
            elapsed = time.perf_counter() - start
            print(
                f"{variant:20s} {args.games:6,} games {hands:8,} hands   "
                f"{len(failures)} failed   (done at {elapsed:6.1f} s)"
            )
            for failure in failures[:5]:
                print(f"    {failure}")
            failed |= bool(failures)
    elapsed = time.perf_counter() - start
    print(f"{len(variants)} tables in {elapsed:.1f} s, load {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
