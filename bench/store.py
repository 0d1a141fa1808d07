"""Store benchmark: a click's write alone, many at once, and with a reload; SQLite and PostgreSQL.

Three runs on each database, in the same sitting, each on its own new two-member games:

- ``alone``: one game appends ``--appends`` × ``--games`` actions one at a time: a
  click's write with nothing else to do, its milliseconds (wall and this process's CPU).
- ``at once``: ``--games`` games each append ``--appends`` actions one at a time, all
  games at once in one event loop: the wall and CPU milliseconds a write costs, and its
  p50/p99 latency (the queue under load).
- ``pairs``: the same, each append followed by a reload of the game (``load_game``):
  this benchmark's figure before issue 41.

PostgreSQL is the tests' own server (tests/postgres.py), on this machine; its CPU is not
this process's. To compare with an older commit in the same sitting, run this file
against that commit's code: ``cd <checkout> && PYTHONPATH=. <venv>/bin/python
<this file>``.

    .venv/bin/python -m bench.store --games 100 --appends 20

Figures (issue 41: group commit and statements built once; 100 games × 20 appends, the
code before and after taking turns twice in one sitting, 2 shared cores at load average
1.2–2.8): on SQLite a write alone 1.38–1.49 → 0.32–0.33 ms of CPU (4.4×), 1.42–1.63 →
0.36–0.38 ms of wall time; at once 1.43–1.51 → 0.09–0.10 ms of CPU a write (16×), the
same in wall time, p99 216–276 → 12–17 ms; a pair 3.7–3.8 → 2.2–2.3 ms of CPU (the
reload is the rest). Two busier sittings (load 2.9–4.3) gave about the same ratios (4×, 15–18×).
PostgreSQL's click was one statement already: unchanged (0.82–0.87 ms of CPU alone).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.store import SeatRow, Store
from tests.postgres import PostgresServer


async def new_games(store: Store, count: int, first: int) -> list[int]:
    """``count`` new two-member games, their members numbered from ``first``; their ids."""
    ids = []
    for i in range(first, first + count):
        seats = [SeatRow.human(0, 1000 + 2 * i, side=0), SeatRow.human(1, 1001 + 2 * i, side=1)]
        ids.append(await store.create_game(1, 10 + i, "tuque", {}, i, 0, seats))
    return ids


async def timed(
    store: Store, ids: list[int], appends: int, reload: bool
) -> tuple[float, float, list[float]]:
    """Each game of ``ids`` appends ``appends`` actions one at a time (and reloads after
    each if ``reload``), all games at once: wall and CPU seconds, and each latency."""
    latencies: list[float] = []

    async def play(game_id: int) -> None:
        seq = 0
        for _ in range(appends):
            started = time.perf_counter()
            seq = await store.append_actions(game_id, seq, ["pass"])
            if reload:
                await store.load_game(game_id)
            latencies.append(time.perf_counter() - started)

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(play(game_id) for game_id in ids))
    return time.perf_counter() - wall, time.process_time() - cpu, sorted(latencies)


def line(name: str, wall: float, cpu: float, latencies: list[float]) -> str:
    """One run's figures: per write (or pair), in milliseconds."""
    n = len(latencies)
    return (
        f"{name:8} {n} in {wall:.2f} s: {1000 * wall / n:.3f} ms wall, "
        f"{1000 * cpu / n:.3f} ms CPU each, p50 {1000 * latencies[n // 2]:.1f} ms, "
        f"p99 {1000 * latencies[int(0.99 * n)]:.1f} ms"
    )


async def measure(database: str | Path, games: int, appends: int) -> list[str]:
    """The three runs on ``database``: their lines."""
    async with await Store.open(database) as store:
        alone = await timed(store, await new_games(store, 1, 0), games * appends, reload=False)
        together = await timed(store, await new_games(store, games, 1), appends, reload=False)
        pairs = await timed(store, await new_games(store, games, 1 + games), appends, reload=True)
    return [
        line("alone", *alone),
        line("at once", *together),
        line("pairs", *pairs),
    ]


async def main(games: int, appends: int) -> None:
    async def report(name: str, database: Callable[[], Awaitable[str | Path]]) -> None:
        for text in await measure(await database(), games, appends):
            print(f"{name:11} {text}")

    with tempfile.TemporaryDirectory() as folder:

        async def sqlite_file() -> Path:
            return Path(folder) / "bench.db"

        await report("SQLite", sqlite_file)
        server = PostgresServer(Path(folder) / "postgres")
        try:
            await report("PostgreSQL", server.database)
        finally:
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games at once")
    parser.add_argument("--appends", type=int, default=20, help="actions each game appends")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.appends))
