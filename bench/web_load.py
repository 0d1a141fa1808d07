"""Web table benchmark: click latency at many open tables, bytes per card against the
Discord message path, and memory per open socket (issue 34, "Figures").

Three parts, each printed as a row of one compact table:

- ``latency``: the session manager and the web server, built as the web tests build them
  (``tests.web.web_helpers.running_web``: no Discord, the web the only screen), run in a
  bot process of their own pinned to core 0, hosting ``--tables`` two-member Tuque
  games (human seats only: no computer moves, so every change is a click). This process,
  pinned to the other cores, holds every socket of every table: each seat's page and a
  spectator's page, three sockets a table, negotiating permessage-deflate as a browser
  does. At each table the member on turn clicks a legal action (``legal[].id`` of the
  newest view, at its ``seq``; never a move the server plays for them, as a page shows
  none to click) after thinking ``--think`` seconds on average
  (exponentially distributed, from the moment the table showed the last change). A
  click's latency is measured in this process alone, on one clock: from sending the
  ``act`` frame to the moment the last of the table's three sockets has received a
  ``view`` frame past that ``seq``. Clicks sent in the ``--seconds`` after a warm-up are
  counted; refusals (``refused`` frames, by kind) and clicks with no update within 30 s
  are reported, with the bot process's CPU per counted click (all its threads, from
  the window's start to the last click's update).
- ``bytes``: the real bot (``TuqueBot``) against the Discord double, the web table on, a
  four-hand Euchre game of one member and three computers (``/tuque bot``): the member
  clicks their Discord hand message's buttons while their seat's page and a spectator's
  page are open. Each page is reached through a loopback relay that counts the bytes on
  the wire (HTTP upgrade, websocket headers, permessage-deflate), beside the frames'
  JSON text; the double counts the request bodies the bot sends it (JSON and multipart
  picture uploads: table edits and posts, hand messages, interaction answers), and a
  relay in front of its REST address the bytes on the wire, headers included. All of it
  divided by the cards played in the game, the computers' included. Discord's timings
  (computer pause, table edit delay and gap, turn ping, rate limits, the member's think
  time) run ``--speed`` times their real length, together, so edits coalesce as they do
  at full length; the picture's drawing time is not scaled.
- ``memory``: the bot process of the ``latency`` part with ``--sockets`` / 3 idle tables:
  its RSS and tracemalloc's traced memory before and after ``--sockets`` sockets opened
  (each past its first view), divided by the sockets.

    .venv/bin/python -m bench.web_load --tables 100,1000 --seconds 60
    .venv/bin/python -m bench.web_load --parts bytes,memory --sockets 1000
    .venv/bin/python -m bench.web_load --quick

Loopback only; every part stops by itself. The figures move with the machine's load: the
load average is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import psutil
from discord.http import Route
from zlib_ng import zlib_ng

from bench.discord_load import _newest_buttons
from bot.client import TuqueBot, tune_gc
from bot.settings import Settings
from engine.actions import ACTIONS, Play
from tests.discord_double import DiscordDouble
from tests.discord_double.ratelimits import RateLimits
from tests.web.web_helpers import running_web

ROOT = Path(__file__).resolve().parent.parent
"""The repository root: the bot process runs this module from there."""

SOCKETS_PER_TABLE = 3
"""Each table's sockets in the latency and memory parts: two seats and a spectator."""
UPDATE_TIMEOUT = 30.0
"""Seconds a click waits for its table's sockets before it counts as never updated."""
OPENING_AT_ONCE = 64
"""Sockets being opened at once (the server's listen backlog is 128)."""
DEFLATE = 15
"""The window bits a browser offers for permessage-deflate (aiohttp's ``compress``);
``--no-deflate`` sets it to 0 (no compression) in the latency part."""


# ---------------------------------------------------------------------- shared helpers


def _raise_open_files(needed: int) -> None:
    """Raise this process's open-file limit to ``needed`` (within the hard limit):
    every socket is a descriptor, and the default soft limit is often 1,024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile of sorted ``values`` (nearest rank), NaN if none."""
    if not values:
        return math.nan
    return values[min(len(values) - 1, int(share * len(values)))]


# ---------------------------------------------------------------------- the bot process


def _memory() -> dict[str, float]:
    """This process's RSS, tracemalloc's traced memory and its own overhead, in bytes,
    after a full collection (so garbage does not count as a socket's)."""
    gc.collect()
    tracing = tracemalloc.is_tracing()
    return {
        "rss": psutil.Process().memory_info().rss,
        "traced": tracemalloc.get_traced_memory()[0] if tracing else 0,
        "tracemalloc": tracemalloc.get_tracemalloc_memory() if tracing else 0,
    }


async def _serve(tables: int, pin: bool) -> None:
    """The bot process: ``tables`` two-member Tuque games on the session manager and the
    web server, as the web tests build them, on a database in a temporary folder.

    Prints one JSON line when ready (the server's address and, per table, its game id
    and the seat and spectator tokens), then answers each line of stdin: ``trace``
    starts tracemalloc, ``measure`` prints :func:`_memory`, ``quit`` (or the end of
    stdin) stops; ``untrace`` stops tracemalloc.
    """
    if pin:
        os.sched_setaffinity(0, {0})
    _raise_open_files(SOCKETS_PER_TABLE * tables + 1024)
    loop = asyncio.get_running_loop()
    commands = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
    with tempfile.TemporaryDirectory() as tmp:
        async with running_web(Path(tmp) / "bench.db") as web:
            opened = []
            for i in range(tables):
                members = (10_000 + 2 * i, 10_001 + 2 * i)
                session = await web.start("tuque", members)
                tokens = [web.links.token(session.id, s, m) for s, m in enumerate(members)]
                opened.append([session.id, *tokens, web.links.token(session.id, None, None)])
            print(json.dumps({"address": web.server.address, "tables": opened}), flush=True)
            while line := (await commands.readline()).decode().strip():
                if line == "trace":
                    tracemalloc.start()
                elif line == "untrace":
                    tracemalloc.stop()
                elif line == "measure":
                    print(json.dumps(_memory()), flush=True)
                elif line == "quit":
                    break


class _Bot:
    """The bot process of the latency and memory parts, and its stdin/stdout lines."""

    def __init__(self, process: asyncio.subprocess.Process, ready: dict[str, Any]) -> None:
        self.process = process
        self.address: str = ready["address"]
        self.tables: list[list[Any]] = ready["tables"]
        self.ps = psutil.Process(process.pid)

    @classmethod
    async def start(cls, tables: int, pin: bool) -> _Bot:
        """Start a bot process with ``tables`` games and wait until they run."""
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.web_load",
            "--serve",
            str(tables),
            "--pin" if pin else "--no-pin",
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            # The ready line lists every table's tokens: far past the 64 KiB default.
            limit=1 << 26,
        )
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 60 + tables / 10)
        if not line:
            raise RuntimeError(f"the bot process stopped (exit code {await process.wait()})")
        return cls(process, json.loads(line))

    async def command(self, line: str) -> dict[str, Any] | None:
        """Send ``line``; the JSON reply of a ``measure``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{line}\n".encode())
        await self.process.stdin.drain()
        if line != "measure":
            return None
        reply: dict[str, Any] = json.loads(await self.process.stdout.readline())
        return reply

    def cpu_seconds(self) -> float:
        """The bot process's CPU seconds so far (its store thread included)."""
        times = self.ps.cpu_times()
        return times.user + times.system

    async def stop(self) -> None:
        """Ask the process to stop, and make sure it does."""
        with contextlib.suppress(ConnectionError):
            await self.command("quit")
        try:
            await asyncio.wait_for(self.process.wait(), 30)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()


# ---------------------------------------------------------------------- pages (load generator)


@dataclass(eq=False)
class _Page:
    """One socket held by the generator: the newest view's ``seq`` and legal ids."""

    socket: aiohttp.ClientWebSocketResponse
    seq: int = -1
    legal: list[int] = field(default_factory=list)
    closed: bool = False
    viewed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class _Table:
    """One table's pages (seats, then the spectator) and the click under way."""

    game: int
    pages: list[_Page] = field(default_factory=list)
    sent_seq: int | None = None
    sent_at: float = 0.0
    waiting: set[_Page] = field(default_factory=set)
    refused: bool = False
    updated: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class _Load:
    """What the generator saw: latencies of counted clicks and what went wrong."""

    latencies: list[float] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    timeouts: int = 0
    finished: int = 0
    sent: int = 0


async def _read(page: _Page, table: _Table, load: _Load) -> None:
    """Read ``page``'s frames until its socket closes, noting views and refusals."""
    async for message in page.socket:
        if message.type is not aiohttp.WSMsgType.TEXT:
            continue
        received = orjson.loads(message.data)
        kind = received["type"]
        if kind == "view":
            page.seq = received["seq"]
            # Only the ids: another helper adds fields to legal entries. A move the
            # server plays for the member (auto-play) is not theirs to click: the page
            # shows it on its way, so the generator waits for it as a member would.
            view = received["view"]
            forced = view.get("played_for_you") is not None
            page.legal = [] if forced else [entry["id"] for entry in view["legal"]]
            page.viewed.set()
            table.changed.set()
            if table.sent_seq is not None and page.seq > table.sent_seq:
                table.waiting.discard(page)
                if not table.waiting:
                    table.updated.set()
        elif kind == "refused":
            load.refused[received["kind"]] += 1
            if table.sent_seq is not None and received.get("seq") == table.sent_seq:
                table.refused = True
                table.updated.set()
    page.closed = True
    page.viewed.set()
    table.changed.set()
    table.updated.set()


async def _open(
    http: aiohttp.ClientSession,
    address: str,
    row: Sequence[Any],
    load: _Load,
    gate: asyncio.Semaphore,
    readers: set[asyncio.Task[None]],
    compress: int,
) -> _Table:
    """Open the pages of a table row ``[game, seat 0's token, seat 1's, the
    spectator's]`` (``compress``: permessage-deflate's window bits, 0 for none) and wait
    for each one's first view."""
    game, *tokens = row
    table = _Table(game)
    url = f"{address.replace('http', 'ws', 1)}/ws/{game}"
    for token in tokens:
        async with gate:
            socket = await http.ws_connect(url, params={"t": token}, compress=compress)
            page = _Page(socket)
            table.pages.append(page)
            reader = asyncio.create_task(_read(page, table, load))
            readers.add(reader)
            await page.viewed.wait()
    return table


@dataclass
class _Window:
    """When clicks count: sent from ``start`` until ``end`` (perf_counter seconds)."""

    start: float
    end: float


async def _drive(
    table: _Table, think: float, rng: random.Random, window: _Window, load: _Load
) -> None:
    """Click at ``table`` as its members would until the window ends: the member on turn
    thinks, then clicks a legal action of their newest view; count the click's latency
    if it was sent within the window."""
    await asyncio.sleep(rng.uniform(0, 2 * think))  # spread the first clicks
    seats = table.pages[:2]
    while time.perf_counter() < window.end:
        if any(page.closed for page in table.pages):
            load.finished += 1  # the game is over (or a socket dropped)
            return
        newest = max(page.seq for page in table.pages)
        actor = next((p for p in seats if p.seq == newest and p.legal), None)
        if actor is None:
            # A view is still on its way to one of the pages.
            table.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.changed.wait(), 1)
            continue
        table.sent_seq, table.refused = newest, False
        table.waiting = set(table.pages)
        table.updated.clear()
        act = json.dumps({"type": "act", "seq": newest, "action": rng.choice(actor.legal)})
        table.sent_at = sent = time.perf_counter()
        await actor.socket.send_str(act)
        load.sent += 1
        try:
            await asyncio.wait_for(table.updated.wait(), UPDATE_TIMEOUT)
        except TimeoutError:
            load.timeouts += 1
        else:
            counted = window.start <= sent < window.end
            if counted and not table.refused and not table.waiting:
                load.latencies.append(time.perf_counter() - sent)
        table.sent_seq = None
        # No thinking past the window: the run ends with its last click's update.
        rest = window.end - time.perf_counter()
        await asyncio.sleep(min(rng.expovariate(1 / think), max(rest, 0.0)))


@dataclass
class MemoryRow:
    """The bot process's memory before and after ``sockets`` sockets opened (idle, each
    past its first view), from :func:`_memory`."""

    sockets: int
    before: dict[str, float]
    after: dict[str, float]
    played: dict[str, float] | None = None
    """After the clicks (tracemalloc stopped): the deflate windows in use by then."""

    def per_socket(self, key: str) -> float:
        """Bytes per socket of ``key`` (``rss`` less tracemalloc's own growth)."""
        grown = self.after[key] - self.before[key]
        if key == "rss":
            grown -= self.after["tracemalloc"] - self.before["tracemalloc"]
        return grown / self.sockets


@dataclass
class LatencyRow:
    """The figures at ``tables`` open tables: clicks, and memory before the clicks."""

    tables: int
    sockets: int
    seconds: float
    load: _Load
    bot_cpu: float
    generator_cpu: float
    open_seconds: float
    memory: MemoryRow
    cpu_per_click: float
    """The bot process's CPU seconds (every thread's) from the window's start to its
    last click's update, divided by the clicks counted."""


async def _open_all(
    http: aiohttp.ClientSession,
    bot: _Bot,
    load: _Load,
    readers: set[asyncio.Task[None]],
    compress: int,
) -> tuple[list[_Table], MemoryRow, float]:
    """Open every socket of every table; measure the bot's memory around it.

    The first table's sockets open before the first measure, so that what the first
    socket alone costs (modules imported, caches filled, the compressor's first use)
    is not counted as every socket's; tracemalloc runs only while the sockets open (it
    would slow every click after)."""
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    first = await _open(http, bot.address, bot.tables[0], load, gate, readers, compress)
    await bot.command("trace")
    before = await bot.command("measure")
    began = time.perf_counter()
    rest = await asyncio.gather(
        *(_open(http, bot.address, row, load, gate, readers, compress) for row in bot.tables[1:])
    )
    open_seconds = time.perf_counter() - began
    await asyncio.sleep(1)  # each page's writer is done with its first frames
    after = await bot.command("measure")
    await bot.command("untrace")
    assert before is not None and after is not None
    memory = MemoryRow(SOCKETS_PER_TABLE * len(rest), before, after)
    return [first, *rest], memory, open_seconds


async def _latency(
    tables: int,
    seconds: float,
    warmup: float,
    think: float,
    seed: int,
    pin: bool,
    compress: int,
) -> LatencyRow:
    """The latency part at ``tables`` open tables (see the module's docstring), with
    the memory per socket measured as they open."""
    _raise_open_files(SOCKETS_PER_TABLE * tables + 1024)
    bot = await _Bot.start(tables, pin)
    load = _Load()
    readers: set[asyncio.Task[None]] = set()
    try:
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            opened, memory, open_seconds = await _open_all(http, bot, load, readers, compress)
            rng = random.Random(seed)
            now = time.perf_counter()
            window = _Window(now + warmup, now + warmup + seconds)
            cpu_at: tuple[float, float] | None = None

            async def note_cpu() -> None:
                nonlocal cpu_at
                await asyncio.sleep(max(0.0, window.start - time.perf_counter()))
                cpu_at = (bot.cpu_seconds(), time.process_time())

            noting = asyncio.create_task(note_cpu())
            await asyncio.gather(
                *(_drive(t, think, random.Random(rng.random()), window, load) for t in opened)
            )
            await noting
            assert cpu_at is not None
            # Up to the last click's update: the window's end, or a little past it; read
            # before the measure, whose full collection is no click's work.
            elapsed = time.perf_counter() - window.start
            bot_seconds = bot.cpu_seconds() - cpu_at[0]
            bot_cpu = bot_seconds / elapsed
            generator_cpu = (time.process_time() - cpu_at[1]) / elapsed
            memory.played = await bot.command("measure")
            for table in opened:
                for page in table.pages:
                    await page.socket.close()
            await asyncio.wait(readers, timeout=30)
    finally:
        await bot.stop()
    load.latencies.sort()
    return LatencyRow(
        tables,
        SOCKETS_PER_TABLE * tables,
        seconds,
        load,
        bot_cpu,
        generator_cpu,
        open_seconds,
        memory,
        bot_seconds / max(len(load.latencies), 1),
    )


# ---------------------------------------------------------------------- bytes


class _Relay:
    """A loopback TCP relay to ``port`` that counts the bytes each way."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.up = 0
        """Bytes from the client to the server."""
        self.down = 0
        """Bytes from the server to the client."""
        self.port = 0
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        """Listen on a free loopback port; return it."""
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        """Stop listening and drop the connections still open."""
        if self._server is not None:
            self._server.close()
        for pipe in self._pipes:
            pipe.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream = await asyncio.open_connection("127.0.0.1", self.target)
        pipes = (
            asyncio.create_task(self._pipe(reader, upstream, up=True)),
            asyncio.create_task(self._pipe(upstream_reader, writer, up=False)),
        )
        self._pipes.update(pipes)
        await asyncio.gather(*pipes, return_exceptions=True)
        self._pipes.difference_update(pipes)

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, up: bool
    ) -> None:
        try:
            while data := await reader.read(1 << 16):
                if up:
                    self.up += len(data)
                else:
                    self.down += len(data)
                writer.write(data)
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()


class _CountingDouble(DiscordDouble):
    """The Discord double, counting the request bodies the bot sends it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.counting = False
        self.json_bytes = 0
        self.multipart_bytes = 0
        self.uploads = 0
        self.requests_counted = 0

    async def _read_body(self, request: Any) -> tuple[Any, list[dict[str, Any]]]:  # type: ignore[override]
        # discord.py sends every body with its length: a multipart one (a picture with
        # its message) is counted whole, boundaries and part headers included.
        if self.counting:
            self.requests_counted += 1
            size = request.content_length or 0
            if request.content_type == "multipart/form-data":
                self.multipart_bytes += size
                self.uploads += 1
            else:
                self.json_bytes += size
        return await DiscordDouble._read_body(request)


@dataclass
class _Viewer:
    """A web viewer of the bytes part: its socket, relay and the frames' text bytes."""

    name: str
    relay: _Relay
    socket: aiohttp.ClientWebSocketResponse | None = None
    text_bytes: int = 0
    frames: int = 0

    async def read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.text_bytes += len(message.data.encode())
                self.frames += 1


@dataclass
class BytesRow:
    """Bytes per card: each web viewer's and the Discord message path's, in one game."""

    cards: int
    members_cards: int
    actions: int
    finished: bool
    viewers: list[_Viewer]
    double: _CountingDouble
    rest_wire: int


async def _bytes_part(speed: float, think: float, max_cards: int, seed: int) -> BytesRow:
    """The bytes part (see the module's docstring)."""
    # The bot runs in this process here: it collects as the bot's does.
    tune_gc()
    rng = random.Random(seed)
    defaults = Settings.model_fields
    with tempfile.TemporaryDirectory() as tmp:
        double = _CountingDouble(check_spec=False, rate_limits=RateLimits().scaled(speed))
        await double.start()
        rest = _Relay(double.port)
        try:
            # The bot's REST calls go through the relay; its gateway goes straight.
            Route.BASE = double.api_url.replace(str(double.port), str(await rest.start()), 1)
            guild = double.add_guild("Bench")
            channel = double.add_channel(guild, "tuque")
            ann = double.add_user("ann", guild=guild)
            settings = Settings(
                discord_token="unused-by-the-double",
                database_path=Path(tmp) / "tuque.db",
                dev_guild_id=guild.id,
                computer_move_delay_seconds=defaults["computer_move_delay_seconds"].default * speed,
                table_edit_delay_seconds=defaults["table_edit_delay_seconds"].default * speed,
                table_edit_gap_seconds=defaults["table_edit_gap_seconds"].default * speed,
                turn_ping_delay_seconds=defaults["turn_ping_delay_seconds"].default * speed,
                web_port=0,
                web_secret="a bench secret of enough bytes",
                log_level="WARNING",
                _env_file=None,
            )
            pool, drawer = ThreadPoolExecutor(max_workers=1), ThreadPoolExecutor(max_workers=1)
            bot = TuqueBot(settings, executor=pool, drawer=drawer, guild_ready_timeout=0.05)
            try:
                async with double.running(bot):
                    row = await _play_both_screens(
                        double, bot, channel, ann, think * speed, max_cards, rng
                    )
                    row.rest_wire = rest.up
                    return row
            finally:
                pool.shutdown(wait=True)
                drawer.shutdown(wait=True)
        finally:
            await rest.close()
            await double.close()


async def _play_both_screens(
    double: _CountingDouble,
    bot: TuqueBot,
    channel: Any,
    member: Any,
    think: float,
    max_cards: int,
    rng: random.Random,
) -> BytesRow:
    """Start ``/tuque bot`` (four-hand Euchre, easy computers), open the member's seat
    page and a spectator's page, and let the member play on Discord until the game is
    over or ``max_cards`` cards were played; count what each screen was sent."""
    double.counting = True
    rec = await double.slash(member, channel, "tuque", "bot", variant="euchre", level="easy")
    await rec.response(timeout=10)
    await double.wait_until(lambda: bot.sessions.games_of(channel.guild.id, None, member.id), 10)
    session = bot.sessions.games_of(channel.guild.id, None, member.id)[0]
    assert bot.web is not None and bot.web.address is not None
    seat = session.table.seat_of(member.id)
    assert seat is not None
    web_port = int(bot.web.address.rsplit(":", 1)[1])
    tokens = {
        "seat page": bot.web.links.token(session.id, seat, member.id),
        "spectator page": bot.web.links.token(session.id, None, None),
    }
    viewers = [_Viewer(name, _Relay(web_port)) for name in tokens]
    readers = []
    async with aiohttp.ClientSession() as http:
        for viewer in viewers:
            port = await viewer.relay.start()
            viewer.socket = await http.ws_connect(
                f"ws://127.0.0.1:{port}/ws/{session.id}",
                params={"t": tokens[viewer.name]},
                compress=DEFLATE,
            )
            readers.append(asyncio.create_task(viewer.read()))
        members_cards, done_seq = 0, -1
        deadline = time.monotonic() + 600

        def cards() -> int:
            return sum(isinstance(entry, Play) for entry in session.game.log)

        while not session.finished and cards() < max_cards and time.monotonic() < deadline:
            try:
                message, buttons, seq = _newest_buttons(double, member)
            except LookupError:
                await asyncio.sleep(0.01)
                continue
            if seq <= done_seq or seq != session.table.seq:
                await asyncio.sleep(0.01)
                continue
            await asyncio.sleep(rng.expovariate(1 / think))
            if session.table.seq != seq:
                continue  # a computer moved meanwhile (or the turn ran out)
            choice = rng.choice(buttons)
            await (await double.click(member, message, choice)).response(timeout=10)
            done_seq = seq
            members_cards += isinstance(ACTIONS[int(choice.rsplit(":", 1)[1])], Play)
        played = cards()
        # The game's last changes reach both screens: the pages are sent the last view
        # (then closed, if the game is over) and the table's last edit waits its turn.
        with contextlib.suppress(TimeoutError):
            await double.idle(timeout=30)
        await asyncio.sleep(3 * bot.settings.table_edit_gap_seconds + 0.5)
        with contextlib.suppress(TimeoutError):
            await double.idle(timeout=30)
        double.counting = False
        for viewer in viewers:
            assert viewer.socket is not None
            await viewer.socket.close()
        await asyncio.gather(*readers)
        for viewer in viewers:
            await viewer.relay.close()
    return BytesRow(
        played,
        members_cards,
        len(session.game.log),
        session.finished,
        viewers,
        double,
        0,
    )


# ---------------------------------------------------------------------- report


def _kb(count: float) -> str:
    """Bytes as printed: kB (1,000 bytes) with one decimal, or bytes under 10 kB."""
    return f"{count:,.0f} B" if abs(count) < 10_000 else f"{count / 1000:.1f} kB"


def _print_latency(rows: Sequence[LatencyRow], think: float, warmup: float) -> None:
    """The latency rows as a table."""
    print(
        "click -> every socket of its table updated (2 seat pages + 1 spectator a table, "
        f"a click every {think:g} s a table on average, counted over the seconds after a "
        f"{warmup:g} s warm-up):"
    )
    print(
        f"  {'tables':>6} {'sockets':>7} {'clicks':>7} {'clicks/s':>8} {'p50':>8} {'p99':>8} "
        f"{'max':>8} {'refused':>8} {'no view':>7} {'bot CPU':>7} {'CPU/click':>9} "
        f"{'gen CPU':>7} {'open':>6}"
    )
    for row in rows:
        lat = [1000 * x for x in row.load.latencies]
        refused = sum(row.load.refused.values())
        print(
            f"  {row.tables:>6} {row.sockets:>7} {len(lat):>7} {len(lat) / row.seconds:>8.1f} "
            f"{_percentile(lat, 0.5):>5.1f} ms {_percentile(lat, 0.99):>5.1f} ms "
            f"{(lat[-1] if lat else math.nan):>5.0f} ms {refused:>8} {row.load.timeouts:>7} "
            f"{row.bot_cpu:>7.0%} {1000 * row.cpu_per_click:>6.3f} ms "
            f"{row.generator_cpu:>7.0%} {row.open_seconds:>5.1f}s"
        )
        if row.load.refused:
            kinds = ", ".join(f"{k} {n}" for k, n in row.load.refused.most_common())
            print(f"         refused by kind: {kinds} (of {row.load.sent} clicks sent)")
        if row.load.finished:
            print(f"         {row.load.finished} tables closed during the run (game over)")


def _print_bytes(row: BytesRow, speed: float) -> None:
    """The bytes row: each web viewer against the Discord message path, per card."""
    cards = max(row.cards, 1)
    over = "the whole game" if row.finished else f"the first {row.actions} actions"
    print(
        f"bytes per card, one four-hand Euchre game (1 member clicking on Discord, 3 easy "
        f"computers; {over}): {row.cards} cards played, the computers' included "
        f"({row.members_cards} the member's); Discord's timings at {speed:g}x:"
    )
    for viewer in row.viewers:
        print(
            f"  web {viewer.name + ':':16} {_kb(viewer.relay.down / cards):>9} on the wire "
            f"(permessage-deflate, headers and upgrade included); frames' JSON "
            f"{_kb(viewer.text_bytes / cards)} ({viewer.frames} frames)"
        )
    double = row.double
    bodies = double.json_bytes + double.multipart_bytes
    print(
        f"  Discord bodies:      {_kb(bodies / cards):>9} received by the double: multipart "
        f"{_kb(double.multipart_bytes / cards)} ({double.uploads} uploads with a picture), "
        f"JSON {_kb(double.json_bytes / cards)}; {double.requests_counted / cards:.2f} "
        f"requests a card; on the wire with headers {_kb(row.rest_wire / cards)}"
    )
    seat = row.viewers[0]
    print(
        f"  Discord bodies / web seat page: {bodies / max(seat.relay.down, 1):.0f}x on the "
        f"wire, {bodies / max(seat.text_bytes, 1):.0f}x its frames' JSON (no compression)"
    )


def _print_memory(rows: Sequence[LatencyRow]) -> None:
    """Memory per socket, from each latency run's opening of its sockets."""
    print("memory per open socket (idle, each past its first view; before any click):")
    for row in rows:
        memory = row.memory
        print(
            f"  {row.tables:>6} tables: {memory.sockets} sockets opened: RSS "
            f"{_kb(memory.per_socket('rss'))} a socket (less tracemalloc's own), traced by "
            f"tracemalloc {_kb(memory.per_socket('traced'))}; bot RSS "
            f"{memory.before['rss'] / 1e6:.0f} MB before, {memory.after['rss'] / 1e6:.0f} MB after"
        )
        if memory.played is not None:
            grown = (memory.played["rss"] - memory.before["rss"]) / memory.sockets
            print(
                f"         after the clicks: RSS {memory.played['rss'] / 1e6:.0f} MB, "
                f"{_kb(grown)} a socket over the RSS before opening them (the games' "
                "growth included)"
            )


async def main(args: argparse.Namespace) -> None:
    """Run the chosen parts, printing each as it is measured."""
    # The generator reads three deflated frames a click: zlib-ng and orjson keep it from
    # being the limit when the server saturates (the server sets its own backend).
    aiohttp.set_zlib_backend(zlib_ng)
    pin = not args.no_pin and hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) > 1
    if pin:
        os.sched_setaffinity(0, os.sched_getaffinity(0) - {0})
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    where = f"bot process on core 0, generator on cores {cores}" if pin else "nothing pinned"
    compress = 0 if args.no_deflate else DEFLATE
    deflate = "permessage-deflate" if compress else "no compression"
    print(
        f"web table bench: {where}; pages with {deflate}; load average {load} "
        f"({os.cpu_count()} cores)"
    )
    if "latency" in args.parts:
        rows = []
        for tables in args.tables:
            rows.append(
                await _latency(
                    tables, args.seconds, args.warmup, args.think, args.seed, pin, compress
                )
            )
        _print_latency(rows, args.think, args.warmup)
        _print_memory(rows)
    if "bytes" in args.parts:
        row = await _bytes_part(args.speed, args.think, args.cards, args.seed)
        _print_bytes(row, args.speed)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average after: {load}")


def _numbers(text: str) -> list[int]:
    """``--tables 100,1000``."""
    return [int(n) for n in text.split(",")]


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        # The server process collects as the bot's does (bot/__main__.py).
        tune_gc()
        asyncio.run(_serve(int(sys.argv[2]), sys.argv[3] == "--pin"))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--parts",
        type=lambda text: set(text.split(",")),
        default={"latency", "bytes"},
        help="which parts to run, of latency (memory too) and bytes (default both)",
    )
    parser.add_argument(
        "--tables", type=_numbers, default=[100, 1000], help="open tables, one run each"
    )
    parser.add_argument("--seconds", type=float, default=60, help="seconds of counted clicks")
    parser.add_argument("--warmup", type=float, default=5, help="seconds of clicks not counted")
    parser.add_argument(
        "--think", type=float, default=1.5, help="mean seconds between a table's clicks"
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=0.25,
        help="the bytes part's Discord timings (and think time) times this (default 0.25)",
    )
    parser.add_argument(
        "--cards", type=int, default=10_000, help="the bytes part stops after this many cards"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-pin", action="store_true", help="pin no process to a core")
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="the latency part's pages do not negotiate permessage-deflate (browsers do)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run of a few seconds: tiny figures"
    )
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.tables, arguments.seconds, arguments.warmup = [4], 1.5, 0.5
        arguments.think, arguments.cards = 0.3, 6
        arguments.speed = 0.1
    asyncio.run(main(arguments))
