"""Strength bench: two computer levels play duplicate deals; A's win rate with a 95% interval.

Usage::

    python -m bench.strength --variant tuque --a normal --b random --games 200
    python -m bench.strength --variant euchre --a normal --b easy --hands 2000
    python -m bench.strength --a hard --b normal --setting a.iterations=1000
    python -m bench.strength --a hard --b normal --a-settings '{"iterations": 1000}'
    python -m bench.strength --variant euchre --a oracle --b normal --hands 1000
    python -m bench.strength --table --games 100   # every variant, each level vs the one below

A level is one of ``make_player``'s, or ``oracle``: the hard level shown the other
seats' hands (``bench/oracle.py``), to measure how far any player could go; or
``BIDDER/PLAYER``, e.g. ``hard/normal``: one level bids (bidding, going alone,
the discard) and the other plays the cards, to tell where an edge comes from.
The side's settings go to its search parts (``hard``, ``oracle``).

Every deal is played once with A on each side in turn (duplicate), so the luck of
the cards cancels out: the games of a set share a game seed, hence the same deals
in the same order. In team games every seat of a side plays the same level; in
games of more than two sides (three-hand, Call-Ace, Jackpot, Auction) A holds one
seat against copies of B in the others, and the summary adds A's mean final rank
and score share.
``--games N`` plays N whole games and counts A's wins; ``--hands N`` plays N single
hands and counts the share of scored hands in which side A scored. Work is spread
over a process pool (``--workers``, default 2).

The interval is Wilson's score interval on the games (or hands) as if they were
independent; duplicate pairs are negatively correlated, so it errs on the wide side.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench.oracle import OraclePlayer
from engine.actions import Action
from engine.game import Game
from engine.players import Player, make_player
from engine.view import Phase, PlayerView


@dataclass(frozen=True, slots=True)
class Match:
    """What one bench run plays: the variant, its options, and the two sides' levels."""

    variant: str
    a: str
    b: str
    a_settings: dict[str, Any] = field(default_factory=dict)
    b_settings: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game or hand from A's side: whether A won (scored), hands played, points each.

    ``b_points`` is the best of the other sides; ``rank`` is A's final place (1 best,
    ties share the places) and ``share`` A's part of the points above the lowest side.
    """

    a_won: bool
    scored: bool
    hands: int
    a_points: int
    b_points: int
    rank: float = 1.0
    share: float = 0.5


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% for the default ``z``).

    Returns ``(0.0, 1.0)`` when ``n`` is 0.
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


_SEARCH = frozenset({"hard", "oracle"})
_BIDDING = frozenset({Phase.BIDDING_1, Phase.BIDDING_2, Phase.GOING_ALONE, Phase.DISCARD})


class _Split:
    """One player for the bidding phases and the discard, another for card play."""

    def __init__(self, bidder: Player, card_player: Player) -> None:
        self.bidder = bidder
        self.card_player = card_player

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        part = self.bidder if view.phase in _BIDDING else self.card_player
        return part.choose(view, legal)


def _player(game: Game, level: str, seed: int, settings: dict[str, Any]) -> Player:
    if "/" in level:
        parts = [
            _player(game, part, seed, settings if part in _SEARCH else {})
            for part in level.split("/", 1)
        ]
        return _Split(*parts)
    if level == "oracle":
        return OraclePlayer(game, seed=seed, **settings)
    return make_player(level, seed=seed, **settings)


MAX_HANDS = 400
"""Hands after which a game stops unfinished: an Auction table of reckless bidders can
keep every score below the target for ever (RULES.md §7 deducts failed bids)."""


def play(match: Match, seed: int, a_side: int, *, whole_game: bool) -> Outcome:
    """Play one game (or one hand) on game seed ``seed`` with level A on side ``a_side``.

    A game still running after ``MAX_HANDS`` hands is scored as it stands: A wins
    if its side alone has the top score."""
    game = Game(match.variant, seed=seed, **match.options)
    sides = game.variant.sides
    players = [
        _player(
            game,
            match.a if side == a_side else match.b,
            seed * 8 + seat,
            match.a_settings if side == a_side else match.b_settings,
        )
        for seat, side in enumerate(sides)
    ]
    game.deal()
    while True:
        seat = game.turn
        if seat is None:
            if not whole_game or game.phase is Phase.GAME_OVER or game.hand_no >= MAX_HANDS:
                break
            game.deal()
            continue
        view = game.view(seat)
        game.apply(seat, players[seat].choose(view, view.legal_actions))
    results = game.hand_results
    points = [sum(r.points[side] for r in results) for side in range(max(sides) + 1)]
    a_points = points[a_side]
    b_points = max(p for side, p in enumerate(points) if side != a_side)
    above = sum(p > a_points for p in points)
    level = sum(p == a_points for p in points) - 1
    rank = 1 + above + level / 2
    floor = min(points)
    spread = sum(p - floor for p in points)
    share = (a_points - floor) / spread if spread else 1 / len(points)
    if whole_game:
        won = game.winner == a_side if game.winner is not None else above == level == 0
        return Outcome(won, True, len(results), a_points, b_points, rank, share)
    return Outcome(a_points > b_points, a_points != b_points, 1, a_points, b_points, rank, share)


def _play_pair(job: tuple[Match, int, bool]) -> tuple[Outcome, ...]:
    """One duplicate set: the same deals with A on each side in turn."""
    match, seed, whole_game = job
    sides = max(Game(match.variant, **match.options).variant.sides) + 1
    return tuple(play(match, seed, side, whole_game=whole_game) for side in range(sides))


def run(
    match: Match, pairs: int, *, whole_game: bool, seed: int, workers: int
) -> Iterator[Outcome]:
    """Play ``pairs`` duplicate pairs on game seeds ``seed .. seed + pairs - 1``."""
    jobs = [(match, seed + i, whole_game) for i in range(pairs)]
    if workers <= 1:
        for job in jobs:
            yield from _play_pair(job)
        return
    chunk = max(1, pairs // (workers * 8))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for pair in pool.map(_play_pair, jobs, chunksize=chunk):
            yield from pair


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _settings(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    a = dict(json.loads(args.a_settings)) if args.a_settings else {}
    b = dict(json.loads(args.b_settings)) if args.b_settings else {}
    for item in args.setting:
        key, sep, value = item.partition("=")
        side, dot, name = key.partition(".")
        if not sep or not dot or side not in ("a", "b") or not name:
            raise SystemExit(f"--setting {item!r}: expected a.NAME=VALUE or b.NAME=VALUE")
        (a if side == "a" else b)[name] = _value(value)
    return a, b


def _label(level: str, settings: dict[str, Any]) -> str:
    return f"{level} {json.dumps(settings)}" if settings else level


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, play the match, print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="tuque", help="any variant (see tuque play --help)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. players=5 or pack=32 (repeatable)",
    )
    parser.add_argument(
        "--a", default="normal", help="side A's level: a make_player level, oracle or BIDDER/PLAYER"
    )
    parser.add_argument("--b", default="random", help="side B's level (as --a)")
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--games", type=int, help="whole games to play (default 200)")
    count.add_argument("--hands", type=int, help="single hands to play instead of games")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument("--target", type=int, help="points that win a game")
    parser.add_argument(
        "--stick-the-dealer", action="store_true", help="Euchre: the dealer must name in round 2"
    )
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="SIDE.NAME=VALUE",
        help="a constructor setting for a side's level, e.g. a.iterations=1000 (repeatable)",
    )
    parser.add_argument("--a-settings", help="side A's settings as a JSON object")
    parser.add_argument("--b-settings", help="side B's settings as a JSON object")
    parser.add_argument(
        "--table",
        action="store_true",
        help="every variant: easy vs random, normal vs easy, hard vs normal (a Markdown table)",
    )
    parser.add_argument("--only", help="with --table: these variants only (comma-separated)")
    args = parser.parse_args(argv)
    if args.table:
        names = args.only.split(",") if args.only else None
        _table(args.games or 100, args.seed, args.workers, args.setting, names)
        return

    a_settings, b_settings = _settings(args)
    options: dict[str, Any] = {}
    if args.target is not None:
        options["target"] = args.target
    if args.stick_the_dealer:
        options["stick_the_dealer"] = True
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--option {item!r}: expected NAME=VALUE")
        options[name] = _value(value)
    match = Match(args.variant, args.a, args.b, a_settings, b_settings, options)
    whole_game = args.hands is None
    total = (args.games or 200) if whole_game else args.hands
    per_set = max(Game(match.variant, **options).variant.sides) + 1
    pairs = max(1, (total + per_set - 1) // per_set)
    Game(match.variant, **options)  # fail fast on a bad variant or option

    start = time.perf_counter()
    outcomes = list(run(match, pairs, whole_game=whole_game, seed=args.seed, workers=args.workers))
    elapsed = time.perf_counter() - start

    unit = "games" if whole_game else "hands"
    scored = [o for o in outcomes if o.scored]
    wins = sum(o.a_won for o in scored)
    low, high = wilson(wins, len(scored))
    hands = sum(o.hands for o in outcomes)
    margin = sum(o.a_points - o.b_points for o in outcomes) / max(hands, 1)
    opts = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    sides = f"A = {_label(match.a, a_settings)} vs B = {_label(match.b, b_settings)}"
    print(f"{match.variant} ({opts}): {sides}")
    print(
        f"{len(outcomes)} {unit} ({pairs} duplicate deals), {hands} hands, {args.workers} workers"
    )
    what = "wins" if whole_game else "scored in"
    share = wins / len(scored) if scored else 0.0
    extra = "" if whole_game else f" of {len(scored)} scored hands"
    print(
        f"A {what} {wins}{extra}: {share:.1%} (95% CI {low:.1%}-{high:.1%}); "
        f"A's points margin per hand {margin:+.3f}"
    )
    nsides = max(Game(match.variant, **options).variant.sides) + 1
    if nsides > 2:
        rank = sum(o.rank for o in outcomes) / len(outcomes)
        share_pts = sum(o.share for o in outcomes) / len(outcomes)
        print(
            f"{nsides} sides, A against {nsides - 1} copies of B: A's mean final rank "
            f"{rank:.2f} (even {(nsides + 1) / 2:.1f}); score share {share_pts:.1%} "
            f"(even {1 / nsides:.1%})"
        )
    print(f"time {elapsed:.1f} s ({len(outcomes) / elapsed:.1f} {unit}/s)")


_LADDER = (("easy", "random"), ("normal", "easy"), ("hard", "normal"))
_HARD = {"iterations": 200}
"""The table's hard level: a fixed budget, so the table replays the same on any machine."""


def _table(
    games: int, seed: int, workers: int, extra: list[str], names: list[str] | None = None
) -> None:
    """Print each level against the one below it in every variant, as a Markdown table."""
    from engine.variants import VARIANTS

    hard = dict(_HARD)
    for item in extra:
        key, _, value = item.partition("=")
        hard[key.removeprefix("a.")] = _value(value)
    print(f"hard = {json.dumps(hard)}; {games} games a row (duplicate sets); seed {seed}")
    print("| variant | A vs B | games | A wins (95% CI) | A's mean rank (even) | score share |")
    print("|---|---|---|---|---|---|")
    for variant in names or VARIANTS:
        sides = max(VARIANTS[variant].sides) + 1
        for a, b in _LADDER:
            match = Match(variant, a, b, hard if a == "hard" else {}, {}, {})
            sets = max(1, games // sides)
            outcomes = list(run(match, sets, whole_game=True, seed=seed, workers=workers))
            wins = sum(o.a_won for o in outcomes)
            low, high = wilson(wins, len(outcomes))
            rank = sum(o.rank for o in outcomes) / len(outcomes)
            share = sum(o.share for o in outcomes) / len(outcomes)
            print(
                f"| {variant} | {a} vs {b} | {len(outcomes)} | {wins / len(outcomes):.0%} "
                f"({low:.0%}–{high:.0%}) | {rank:.2f} ({(sides + 1) / 2:.1f}) | "
                f"{share:.0%} ({1 / sides:.0%}) |",
                flush=True,
            )


if __name__ == "__main__":
    main()
