"""Drawing bench: the CPU and the bytes of one table picture (``bot.drawing.draw_table``).

Usage::

    python -m bench.drawing                            # this checkout, 3 rounds
    python -m bench.drawing --base ../before --rounds 4
    python -m bench.drawing --games 40 --pictures 480  # a few tables, their texts all kept

Every table edit on Discord draws the table's picture in the bot's drawing process, so
a picture's CPU is paid at every card. A round draws ``--pictures`` tables in a fresh
process: the public views of ``--games`` seeded games (Tuque, Euchre, three-hand and
six-hand in turn, each played with seeded random legal actions, its seats named after
the game so that no two games share names; by default 300, a crowd's tables, whose
names outnumber what a small cache keeps), taken in turns one state of each game at a
time as the tables of a busy bot take turns; each state is drawn once, after as many
untimed pictures of other games (the process's caches as a long-running bot has them,
never this state's pictures). It prints the CPU milliseconds a picture (the process's
CPU time, best and median of the rounds; wall time with it) and the JPEG's bytes a
picture.

``--base DIR`` measures a change: rounds alternate between this checkout's drawing and
the one at ``DIR`` (a ``git worktree`` of the code before), on the same states, and the
ratio is paired by round, so a change in the machine's load between rounds cancels out;
it also says how the first round's pictures differ between the two (none: the same
files; else how many are the same pixels and by how much the others differ). The
machine's load average is printed with the figures: they move with it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from bot.drawing import draw_table
from engine.game import Game
from engine.view import Phase, PlayerView

VARIANTS = ("tuque", "euchre", "three_hand", "six_hand")
"""The variants of the games drawn, in turn: two, four, three and six seats."""
NAMES = ("Ann", "Bob", "CPU 3", "Dev", "Eve", "Computer 6")
"""Each seat's name, the game's number after it."""
_ROOT = str(Path(__file__).resolve().parent.parent)
"""This checkout, whose drawing the rounds of ``--base`` compare with another's."""


def states(games: int, pictures: int, first_seed: int) -> list[tuple[PlayerView, tuple[str, ...]]]:
    """``pictures`` public views and their seats' names: ``games`` seeded games (seeds from
    ``first_seed``) each played with seeded random legal actions, a state of each game in
    turn; a game that ends is followed by a new one with the next seed."""
    tables = [_Table(VARIANTS[i % len(VARIANTS)], first_seed + i) for i in range(games)]
    out = []
    while len(out) < pictures:
        for table in tables:
            out.append(table.step())
    return out[:pictures]


class _Table:
    """One game of ``variant`` played with seeded random legal actions, restarted (with a
    seed ``games`` further on) once it ends."""

    def __init__(self, variant: str, seed: int) -> None:
        self.variant, self.seed = variant, seed
        self.rng = random.Random(seed)
        self.game = Game(variant, seed=seed)
        self.names = tuple(f"{name} {seed}" for name in NAMES[: self.game.variant.players])

    def step(self) -> tuple[PlayerView, tuple[str, ...]]:
        """The public view now and the names, then one action (the deal included)."""
        game = self.game
        view = game.view(None)
        if game.phase is Phase.GAME_OVER:
            self.__init__(self.variant, self.seed + 10_000)  # type: ignore[misc]
        elif game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, self.rng.choice(game.legal_actions(game.turn)))
        return view, self.names


def measure(games: int, pictures: int, keep: str | None = None) -> dict[str, object]:
    """One round, in this process: ``pictures`` untimed pictures of other games (seeds
    from 1,000), then each of :func:`states`' pictures (seeds from 1) drawn once; the
    timed pictures are written into the folder ``keep`` if given (``0.jpg``, ...).

    Returns:
        ``cpu_ms`` and ``wall_ms`` a picture, ``bytes`` a picture (mean), and ``digest``:
        a SHA-1 of every picture's JPEG in turn.
    """
    for view, names in states(games, pictures, 1000):
        draw_table(view, names)
    timed = states(games, pictures, 1)
    files = []
    cpu, wall = time.process_time(), time.perf_counter()
    for view, names in timed:
        files.append(draw_table(view, names).jpeg)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    digest = hashlib.sha1()
    for i, jpeg in enumerate(files):
        digest.update(jpeg)
        if keep is not None:
            (Path(keep) / f"{i}.jpg").write_bytes(jpeg)
    return {
        "cpu_ms": cpu / pictures * 1000,
        "wall_ms": wall / pictures * 1000,
        "bytes": sum(map(len, files)) / pictures,
        "digest": digest.hexdigest(),
    }


def checkout_round(
    root: str, games: int, pictures: int, keep: str | None = None
) -> dict[str, object]:
    """A round of the checkout at ``root``: this script's ``--round`` in a new process
    that imports ``bot`` and ``engine`` from ``root`` (keeping its pictures in ``keep``)."""
    # Imported here: that process runs this file where ``bench`` may not be importable.
    from bench.checkouts import run_in_checkout

    args = ["--round", str(games), str(pictures), *(["--keep", keep] if keep else [])]
    return json.loads(run_in_checkout(__file__, root, *args))


def difference(base: Path, this: Path, pictures: int) -> tuple[int, float, float]:
    """How the pictures kept in folder ``this`` differ from those in ``base``: how many are
    the same pixels, the mean difference over all (levels of 255, per channel) and the
    largest picture's mean."""
    same, means = 0, []
    for i in range(pictures):
        a = Image.open(base / f"{i}.jpg").convert("RGB")
        b = Image.open(this / f"{i}.jpg").convert("RGB")
        mean = max(ImageStat.Stat(ImageChops.difference(a, b)).mean)
        same += mean == 0
        means.append(mean)
    return same, statistics.fmean(means), max(means)


def compare(roots: dict[str, str], rounds: int, games: int, pictures: int) -> None:
    """Print each checkout's figures over ``rounds`` rounds (their order turns each round)
    and, with a ``base``, the ratios to it paired by round."""
    got: dict[str, list[dict]] = {name: [] for name in roots}
    loads = [os.getloadavg()[0]]
    names = list(roots)
    kept = tempfile.TemporaryDirectory()
    for name in names:
        (Path(kept.name) / name).mkdir()
    for r in range(rounds):
        for name in names if r % 2 == 0 else reversed(names):
            keep = str(Path(kept.name) / name) if r == 0 else None
            got[name].append(checkout_round(roots[name], games, pictures, keep))
        loads.append(os.getloadavg()[0])
        print(f"round {r + 1}/{rounds} done, load {loads[-1]:.2f}", file=sys.stderr)
    print(
        f"{rounds} rounds of {pictures} pictures ({games} games of {', '.join(VARIANTS)} "
        f"in turn, each state drawn once after {pictures} pictures of other games); "
        f"load average {min(loads):.2f}-{max(loads):.2f} on {os.cpu_count()} CPUs"
    )
    for name in names:
        figures = got[name]
        cpu = [f["cpu_ms"] for f in figures]
        wall = [f["wall_ms"] for f in figures]
        median = statistics.median(cpu)
        print(
            f"  {name:4s} CPU ms a picture: best {min(cpu):6.2f} median {median:6.2f}"
            f"   wall ms: median {statistics.median(wall):6.2f}"
            f"   bytes a picture: {figures[0]['bytes']:,.0f}   ({roots[name]})"
        )
    if "base" in got:
        paired = statistics.median(
            a["cpu_ms"] / b["cpu_ms"] for a, b in zip(got["this"], got["base"], strict=True)
        )
        print(f"  this/base CPU a picture: {paired:.3f} ({1 / paired:.1f}× cheaper), paired rounds")
        if got["this"][0]["digest"] == got["base"][0]["digest"]:
            print("  pictures: the same JPEG files as base, every one")
        else:
            same, mean, worst = difference(
                Path(kept.name) / "base", Path(kept.name) / "this", pictures
            )
            print(
                f"  pictures: {same} of {pictures} the same pixels as base; they differ by "
                f"{mean:.2f} levels of 255 on average, {worst:.2f} in the most different"
            )
    kept.cleanup()


def main(argv: list[str] | None = None) -> None:
    """Run the bench and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", metavar="DIR", help="compare with the checkout at DIR")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each checkout")
    parser.add_argument("--games", type=int, default=300, help="games drawn in turn")
    parser.add_argument("--pictures", type=int, default=1800, help="pictures timed a round")
    parser.add_argument("--round", nargs=2, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--keep", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.round:  # a round, in its own process
        print(json.dumps(measure(*args.round, args.keep)))
        return
    roots = {"base": args.base, "this": _ROOT} if args.base else {"this": _ROOT}
    compare(roots, args.rounds, args.games, args.pictures)


if __name__ == "__main__":
    main()
