"""Store benchmark: a click's write and reload, many games at once, on SQLite and PostgreSQL.

Each of ``--games`` two-member games appends ``--appends`` actions one at a time, each
followed by a reload of the game (what the bot does for a click), all games at once in
one event loop. Prints, for each database in the same sitting, the milliseconds a pair
costs (wall time over pairs), its p50/p99 latency, and the CPU seconds of this process.
PostgreSQL is the tests' own server (tests/postgres.py), on this machine.

    .venv/bin/python -m bench.store --games 100 --appends 20

Figures (issue 22, two sittings): SQLite 1.78–1.88 ms a pair, PostgreSQL 2.28–2.44 ms; the
hand-written aiosqlite store before it took 1.31 ms (100 games, 20 appends).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bot.store import SeatRow, Store
from tests.postgres import PostgresServer


async def measure(database: str | Path, games: int, appends: int) -> str:
    """One run on ``database``: the line to print."""
    async with await Store.open(database) as store:
        ids = []
        for i in range(games):
            seats = [SeatRow.human(0, 1000 + 2 * i, side=0), SeatRow.human(1, 1001 + 2 * i, side=1)]
            ids.append(await store.create_game(1, 10 + i, "tuque", {}, i, 0, seats))
        latencies: list[float] = []

        async def play(game_id: int) -> None:
            seq = 0
            for _ in range(appends):
                started = time.perf_counter()
                seq = await store.append_actions(game_id, seq, ["pass"])
                await store.load_game(game_id)
                latencies.append(time.perf_counter() - started)

        wall, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(play(game_id) for game_id in ids))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    latencies.sort()
    return (
        f"{len(latencies)} pairs in {wall:.2f} s ({1000 * wall / len(latencies):.2f} ms a pair), "
        f"p50 {1000 * latencies[len(latencies) // 2]:.0f} ms, "
        f"p99 {1000 * latencies[int(0.99 * len(latencies))]:.0f} ms, CPU {cpu:.2f} s"
    )


async def main(games: int, appends: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(f"SQLite:      {await measure(Path(folder) / 'bench.db', games, appends)}")
        server = PostgresServer(Path(folder) / "postgres")
        try:
            print(f"PostgreSQL:  {await measure(await server.database(), games, appends)}")
        finally:
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games at once")
    parser.add_argument("--appends", type=int, default=20, help="actions each game appends")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.appends))
