"""Two real ``tuque-bot`` processes, one shard each, on one PostgreSQL database, both
serving the web table: a move made through the process that runs the game reaches a
page connected to the other, every move, and the test prints how long each took (issue
35; docs/web.md "Latency").

Each process runs ``tests/bot/launch_bot.py`` against the loopback Discord double (as
``tests/bot/test_shard_processes.py`` does). A member plays the computer in a guild of
shard 0; their page is on shard 0's process, and a page of their seat on shard 1's. The
moves are sent on the first page and on the second in turn (the second's relayed to the
running process: ``bot.web.relay``); the test listens on the ``NOTIFY`` channel too, and
times, for each move, when the other process's page receives the view of it:

- from the act sent on the first page (the whole path: the move decided, stored,
  announced, read back and sent by the other process);
- from the act sent on the second page (the relay there and back too);
- from the announcement heard by the test (the commit, as a listener hears it).

It waits for frames, not for time (but paces the acts within the server's flood limit,
4 a second a page), and prints the figures' p50 and p99: a figure, not a bound it holds
(on a loaded 2-core machine the tail is the machine's; run it with ``-s`` on a quiet one
to measure).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import asyncpg
from web_helpers import Page

from bot.store import Autoplay, GameStatus, Store
from bot.store.changes import CHANNEL
from bot.web.links import Links
from bot.web.server import RATE_PER_SECOND
from tests.discord_double import DiscordDouble
from tests.postgres import PostgresServer

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "tests" / "bot" / "launch_bot.py"
SHARDS = 2
SECRET = "the shared web secret of both processes"
MOVES = 24
PACE = 1 / (2 * RATE_PER_SECOND) + 0.01
"""Seconds between two acts: each page sends every other one, within the server's flood
limit (a page's own)."""
HANG_GUARD = 120.0


def free_port() -> int:
    """A loopback port free now (the bot listens on it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def web_bot(
    double: DiscordDouble, folder: Path, database: str, shard: int
) -> AsyncIterator[str]:
    """``tuque-bot`` for ``shard`` of ``SHARDS`` on ``database`` with the web table on;
    yields its web address once the bot is ready."""
    port = free_port()
    ready_file = folder / f"ready-{shard}.log"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": double.token,
        "DATABASE_URL": database,
        "SHARD_COUNT": str(SHARDS),
        "SHARD_IDS": str(shard),
        "COMPUTER_MOVE_DELAY_SECONDS": "0",
        "TABLE_EDIT_DELAY_SECONDS": "0",
        "COMPUTER_PROCESSES": "1",
        "LOG_LEVEL": "INFO",
        "WEB_PORT": str(port),
        "WEB_SECRET": SECRET,
        "LAUNCH_READY_FILE": str(ready_file),
    }
    log = (folder / f"bot-{shard}.log").open("ab")
    process = subprocess.Popen(
        [sys.executable, str(LAUNCHER), double.api_url, double.gateway_url],
        env=env,
        cwd=folder,
        stderr=log,
    )
    try:
        await double.wait_until(
            lambda: ready_file.exists() or process.poll() is not None, timeout=HANG_GUARD
        )
        assert process.poll() is None, "the bot stopped before it was ready"
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


async def open_page(http: aiohttp.ClientSession, address: str, game: int, token: str) -> Page:
    url = f"{address.replace('http', 'ws', 1)}/ws/{game}"
    socket = await http.ws_connect(url, params={"t": token})
    page = Page(socket)
    page.reader = asyncio.create_task(page.read())
    await page.until(lambda: page.views, timeout=HANG_GUARD)
    return page


@dataclass
class Heard:
    """The announcements the test heard: game, seq and when, in order."""

    items: list[tuple[int, int, float]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def hear(self, _connection: object, _pid: int, _channel: str, payload: str) -> None:
        announced = json.loads(payload)
        self.items.append((announced["game"], announced["seq"], time.monotonic()))
        self.arrived.set()

    async def first_past(self, game: int, seq: int) -> float:
        """When the first announcement of ``game`` past ``seq`` was heard (waits for it)."""
        while True:
            found = [t for g, n, t in self.items if g == game and n > seq]
            if found:
                return min(found)
            self.arrived.clear()
            await self.arrived.wait()


async def timed_moves(
    here: Page, there: Page, game: int, heard: Heard, wanted: int
) -> list[tuple[bool, float, float]]:
    """Up to ``wanted`` moves of the member (until the game ends), sent on ``here`` and
    ``there`` in turn, each timed to its first view on ``there``: whether it was relayed
    (sent on ``there``), from the act sent, and from its announcement heard."""
    timed: list[tuple[bool, float, float]] = []
    last = 0.0
    while len(timed) < wanted:
        # The member's turn, shown on both pages.
        await here.until(lambda: here.socket.closed or here.view["view"]["legal"], HANG_GUARD)
        if here.socket.closed:
            break
        seq = here.view["seq"]
        moved_on = lambda seq=seq: here.socket.closed or here.view["seq"] > seq  # noqa: E731
        await there.until(lambda seq=seq: there.view["seq"] >= seq, HANG_GUARD)
        # A page may send 4 messages a second (the server's flood limit), and each sends
        # every other move: no faster.
        await asyncio.sleep(max(0.0, last + PACE - time.monotonic()))
        relayed = len(timed) % 2 == 1
        sent = last = time.monotonic()
        await (there if relayed else here).act(seq, here.view["view"]["legal"][0]["id"])
        await there.until(lambda seq=seq: there.view["seq"] > seq, HANG_GUARD)
        received = time.monotonic()
        # The move's own announcement (its seq past the hand's next deal, if it ended a
        # hand), heard before the page's frame or just after.
        committed = await asyncio.wait_for(heard.first_past(game, seq), HANG_GUARD)
        timed.append((relayed, received - sent, received - committed))
        # The other process's page may hear of the move before this one: wait for it.
        await here.until(moved_on, HANG_GUARD)
    return timed


def percentile(samples: list[float], share: float) -> float:
    """The nearest-rank percentile: the least sample that ``share`` of them do not pass."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(len(ordered) * share) - 1)]


async def test_every_move_reaches_a_page_on_the_other_process(
    double: DiscordDouble, postgres: PostgresServer, tmp_path: Path
) -> None:
    database = await postgres.database()
    guild = double.add_guild("Shard 0 club", shard=(0, SHARDS))
    channel = double.add_channel(guild, "tuque")
    member = double.add_user("p0", guild=guild)
    links = Links(SECRET.encode(), "", 600)
    heard = Heard()
    listener = await asyncpg.connect(database)
    from_act: list[float] = []
    from_relayed: list[float] = []
    from_commit: list[float] = []
    async with (
        web_bot(double, tmp_path, database, 0) as running,
        web_bot(double, tmp_path, database, 1) as other,
        aiohttp.ClientSession() as http,
    ):
        await listener.add_listener(CHANNEL, heard.hear)
        store = await Store.open(database)
        # Every move is the member's click: none plays itself (the last trick's would).
        await store.set_autoplay(member.id, Autoplay.OFF)
        try:
            while len(from_commit) < MOVES:
                rec = await double.slash(member, channel, "tuque", "bot", target=5)
                await rec.response(timeout=HANG_GUARD)
                games = await store.active_games_for_user(guild.id, None, member.id)
                assert len(games) == 1
                game = games[0]
                seat = game.seat_of(member.id)
                assert seat is not None
                token = links.token(game.id, seat, member.id)
                here = await open_page(http, running, game.id, token)
                there = await open_page(http, other, game.id, token)
                for relayed, from_sent, from_heard in await timed_moves(
                    here, there, game.id, heard, MOVES - len(from_commit)
                ):
                    (from_relayed if relayed else from_act).append(from_sent)
                    from_commit.append(from_heard)
                await here.close()
                await there.close()
                if (await store.load_game(game.id)).status is GameStatus.ACTIVE:
                    break  # the pages closed for another reason than the game's end
        finally:
            await store.close()
            await listener.close()
    assert len(from_commit) >= MOVES, "a page closed before the game ended"
    figures = {
        name: (len(s), statistics.median(s) * 1000, percentile(s, 0.99) * 1000)
        for name, s in (
            ("act sent on the running process", from_act),
            ("act sent on the other, relayed", from_relayed),
            ("commit heard", from_commit),
        )
    }
    for name, (n, p50, p99) in figures.items():
        print(f"{n} moves, {name}, to the other process's page: p50 {p50:.1f}, p99 {p99:.1f} ms")
    assert "Traceback" not in "".join(p.read_text() for p in tmp_path.glob("bot-*.log"))
