"""Bot benchmark: many concurrent games through the loopback Discord double.

The bot runs in its own processes (``--processes``, one shard each) and the double
and the scripted members in this one. Members act only on what they can see: the
action buttons of their newest hand message. Prints the interaction latency (the
double's dispatch of INTERACTION_CREATE to the bot's callback request, so it includes
the gateway and HTTP hops) at p50/p99 over every action click, REST calls per card
played, how long the bot's store writes took (from asking for the database to the
commit, waiting for other writes included: what decides whether a click could miss
Discord's 3-second deadline), all of them and a click's game change alone
(``append_actions``), on PostgreSQL the round trips each write made (counted in the bot
process at asyncpg: each batch of messages sent, then waited on), computer decisions a
second, and the CPU each part used (the bot processes with their workers, PostgreSQL,
this process). A click not answered within 3 s is counted as missed.

``--mix`` sets the tables, cycled over the games: 2 is a Tuque challenge, 3
three-hand, 4 four-hand Euchre and 6 six-hand, each started by an invitation that
every member accepts; a ``c`` after the size (``2c``, ``4c``, ``6c``) is one member
and computers of ``--level`` (``/tuque bot``), pausing ``--computer-delay`` seconds.
``--database postgresql`` runs a PostgreSQL server for the bot (the tests' own,
``tests.postgres``). With one process the bot (and its workers) is pinned to one core
and this process to the others, unless ``--no-pin``; with more, nothing is pinned.

    .venv/bin/python -m bench.discord_load --games 300 --cards 20 --think 1
    .venv/bin/python -m bench.discord_load --games 300 --mix 2,3,4,6,2c,4c,6c --database postgresql
    .venv/bin/python -m bench.discord_load --games 300 --processes 2 --database postgresql
    .venv/bin/python -m bench.discord_load --games 150 --mix 2,3,4,6,2c,4c,6c --database sqlite
    .venv/bin/python -m bench.discord_load --games 20 --per-channel 20 --mix 2,4c --cards 15

The double applies Discord's rate limits (``tests.discord_double.ratelimits``) unless
``--no-limits``; ``--per-channel`` games start in each channel (10 by default). It prints
the table's lag (from a change's commit to the answer of the first table edit or post
that shows it), the 429s Discord would have answered, and the rate-limited requests per
card (every request but the interaction responses and their webhooks, which Discord
limits per interaction token).

Goals: p99 < 50 ms with 200 concurrent games on one core and at most 3 REST
calls per card played (issue #3); figures at 300 games (issue #8); SQLite against
PostgreSQL at 300 mixed tables, and one process against two (issue #22); a game change
in at most two round trips on PostgreSQL, and its click p99 within 1.5 times SQLite's
at 150 mixed tables on one core (the fourth command, and again with postgresql); with
1, 5 and 20 games in one channel, each change on the table within 1.5 s at p95, no 429,
and at most 1.5 rate-limited requests per card (issue #33; the last command).
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
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

import discord
import psutil
import yarl
from sqlalchemy import event
from sqlalchemy.pool import ConnectionPoolEntry, Pool

from bot import workers
from bot.budget import HEADROOM, RequestBudget, counts_globally
from bot.client import TuqueBot, tune_gc
from bot.sessions.computers import Computers
from bot.sessions.delivery import Delivery
from bot.sessions.state import Session
from bot.settings import Settings
from bot.store.base import StoreBase
from bot.store.games import GameQueries
from bot.table import Table
from engine.actions import ACTIONS, Action, Play
from tests.discord_double import DiscordDouble, InteractionRecord, StoredMessage
from tests.discord_double.models import Channel, Guild, User
from tests.discord_double.ratelimits import Refusal
from tests.discord_double.server import DISCORD_LIMITS
from tests.postgres import PostgresServer

T = TypeVar("T")

MANAGE_GUILD = 1 << 5
"""Discord's Manage Server permission, which ``/tuque settings`` asks of a change."""
EARLY = 40.0
"""Seconds of play, from the moment every game has started, whose changes' table lag
(and the requests asked and sent a second) are also printed apart from the rest's."""

ROOT = Path(__file__).resolve().parent.parent
"""The repository root: a bot process runs this module from there, as the bench runs."""


_COUNTERS: ContextVar[tuple[list[int], ...]] = ContextVar("counters", default=())
"""The round-trip counters (one number each) of what is under way in this task: the
store write, and the game change (``append_actions``) it is part of."""


def _count_round_trips(_dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
    """A pool's ``connect`` hook: from now on count, for what is under way, each batch of
    messages asyncpg sends on this connection. asyncpg sends each exchange whole in one
    write (a statement's Bind, Execute and Sync; a Parse and Describe; a simple query
    such as BEGIN or COMMIT), then waits for the server's answer: a write is a round trip
    (only a statement that fails while prepared sends a Sync more, and an executemany of
    over 128 kB several writes)."""
    transport = getattr(record.driver_connection, "_transport", None)
    if transport is None:  # SQLite's connection: no round trips
        return
    for name in ("write", "writelines"):
        send = getattr(transport, name)

        def counted(data: Any, send: Callable[[Any], None] = send) -> None:
            for trips in _COUNTERS.get():
                trips[0] += 1
            send(data)

        setattr(transport, name, counted)


def _recorded(
    method: Callable[..., Awaitable[T]], into: list[dict[str, Any]], by: Callable[..., str]
) -> Callable[..., Awaitable[T]]:
    """``method`` of the store, noting in ``into`` each call's start (seconds since the
    epoch), its seconds, its round trips to PostgreSQL (None on SQLite, where a write is
    one trip to the store's thread) and ``by(*args)``."""

    async def recorded(self: StoreBase, *args: Any, **kwargs: Any) -> T:
        trips = [0]
        token = _COUNTERS.set((*_COUNTERS.get(), trips))
        began, started = time.time(), time.perf_counter()
        try:
            return await method(self, *args, **kwargs)
        finally:
            _COUNTERS.reset(token)
            into.append(
                {
                    "began": began,
                    "seconds": time.perf_counter() - started,
                    "trips": trips[0] if self.backend == "postgresql" else None,
                    "by": by(*args),
                }
            )

    return recorded


def _made_by(work: Callable[..., Any], *_args: Any) -> str:
    """The store method and inner function whose write ``work`` is
    (``append_actions/change``)."""
    name = getattr(work, "__qualname__", "?")
    return name.split(".", 1)[-1].replace(".<locals>.", "/")


def _record_store_writes() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Record from now on every write of the store (``_write``: waiting for a connection
    included, ``by`` the method and function that made it) and every game change
    (``append_actions``: a click's, which may make two writes: see
    ``bot.store.games``), as ``_recorded`` notes them."""
    writes: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    event.listen(Pool, "connect", _count_round_trips)
    StoreBase._write = _recorded(StoreBase._write, writes, _made_by)  # type: ignore[method-assign]
    GameQueries.append_actions = _recorded(  # type: ignore[method-assign]
        GameQueries.append_actions, changes, lambda *_: "append_actions"
    )
    return writes, changes


def _record_table_shows() -> tuple[list[list[float]], list[list[float]], list[float]]:
    """Record from now on every stored change, ``[game, log length after it, when it was
    committed, cards it played]``, every table the bot showed, ``[game, log length
    drawn, when its edit or post was answered]`` (seconds since the epoch): a change's
    lag is the time to the first table shown that holds it; and when a table edit was
    asked for while one was waiting already, and merged into it (the edits the bot
    would have made with one a change: asked, beside the ones sent).

    A table is shown when Discord answers its edit (or post), which discord.py may
    return to the bot a second later: a request that leaves its rate-limit bucket
    empty sleeps until the bucket resets before it returns (``Ratelimit.__aexit__``),
    as a thread's fifth edit in five seconds does. So the time is taken as the
    answer's headers are read (``Ratelimit.update``), in the edit's own context."""
    stored: list[list[float]] = []
    shown: list[list[float]] = []
    merged: list[float] = []
    drawn: dict[int, int] = {}
    answered: ContextVar[list[float] | None] = ContextVar("answered", default=None)
    record_change = GameQueries.record_change
    draw = Delivery._table
    update = Delivery.update_table
    schedule = Delivery.schedule_table_edit
    read_answer = discord.http.Ratelimit.update

    def recorded_answer(self: discord.http.Ratelimit, *args: Any, **kwargs: Any) -> None:
        box = answered.get()
        if box is not None:
            box.append(time.time())
        read_answer(self, *args, **kwargs)

    def recorded_schedule(self: Delivery, session: Session, *args: Any) -> None:
        if session.discord.table_stale:
            merged.append(time.time())
        schedule(self, session, *args)

    async def recorded_change(self: GameQueries, change: Any) -> None:
        await record_change(self, change)
        cards = sum(entry.startswith("play ") for entry in change.entries)
        stored.append([change.before.id, len(change.after.game.log), time.time(), cards])

    async def recorded_draw(self: Delivery, session: Session) -> Any:
        seq = len(session.game.log)  # the table is drawn from the game as it is now
        result = await draw(self, session)
        drawn[session.id] = seq
        return result

    async def recorded_update(self: Delivery, session: Session) -> None:
        drawn.pop(session.id, None)
        box: list[float] = []
        token = answered.set(box)
        try:
            await update(self, session)
        finally:
            answered.reset(token)
        seq = drawn.pop(session.id, None)
        if seq is not None:
            # The last answer read: the edit's (or, for a replaced table, its post's).
            shown.append([session.id, seq, box[-1] if box else time.time()])

    GameQueries.record_change = recorded_change  # type: ignore[method-assign]
    Delivery._table = recorded_draw  # type: ignore[method-assign]
    Delivery.update_table = recorded_update  # type: ignore[method-assign]
    Delivery.schedule_table_edit = recorded_schedule  # type: ignore[method-assign]
    discord.http.Ratelimit.update = recorded_answer  # type: ignore[method-assign]
    return stored, shown, merged


def _table_lags(
    stored: list[list[float]], shown: list[list[float]]
) -> tuple[list[tuple[float, float]], int]:
    """Each stored change's ``(commit time, seconds until a table showing it was
    answered)``, by commit time, and how many changes no table showed (the run ended
    first)."""
    by_game: dict[int, list[tuple[float, float]]] = {}
    for game, seq, at in shown:
        by_game.setdefault(int(game), []).append((at, seq))
    lags, never = [], 0
    for game, seq, at, _cards in stored:
        first = min(
            (when for when, drawn in by_game.get(int(game), ()) if drawn >= seq and when >= at),
            default=None,
        )
        if first is None:
            never += 1
        else:
            lags.append((at, first - at))
    return sorted(lags), never


def _record_departures() -> tuple[list[float], list[float]]:
    """Record from now on, for each request that counts against the global limit, when
    the budget let it go and when its headers were written to the socket, in loop time
    (``time.monotonic``: one clock for every process of the machine, so comparable with
    the double's arrival stamps). Between the two the bot's loop may run late."""
    let_go: list[float] = []
    written: list[float] = []
    leave = RequestBudget._leave
    init = RequestBudget.__init__

    async def recorded_leave(self: RequestBudget, loop: asyncio.AbstractEventLoop) -> None:
        await leave(self, loop)
        if self.pace is not None:
            let_go.append(loop.time())

    async def headers_sent(session: Any, context: Any, params: Any) -> None:
        if counts_globally(str(params.url)):
            written.append(time.monotonic())

    def recorded_init(self: RequestBudget, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.trace.on_request_headers_sent.append(headers_sent)

    RequestBudget._leave = recorded_leave  # type: ignore[method-assign]
    RequestBudget.__init__ = recorded_init  # type: ignore[method-assign]
    return let_go, written


def _record_arrivals(double: DiscordDouble) -> list[float]:
    """Record from now on when each request the double counted against the global limit
    arrived (its loop time, as its limiter counts it)."""
    counted: list[float] = []
    limiter = double.limiter
    assert limiter is not None
    take = limiter.take

    def recorded_take(method: str, template: str, params: Any, arrived: float | None = None) -> Any:
        verdict = take(method, template, params, arrived)
        exempt = template.startswith(("/interactions/", "/webhooks/"))
        if not exempt and not isinstance(verdict, Refusal):
            counted.append(arrived if arrived is not None else time.monotonic())
        return verdict

    limiter.take = recorded_take  # type: ignore[method-assign]
    return counted


def _most_in_a_second(times: Sequence[float]) -> int:
    """The most of ``times`` (seconds) in any window of one second."""
    ordered = sorted(times)
    most = first = 0
    for last, at in enumerate(ordered):
        while ordered[first] <= at - 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


def _record_decisions() -> list[float]:
    """When each computer decision was made (a member's forced move aside), whether it
    was thought out in a worker or at once (``Computers.decide``)."""
    decided: list[float] = []
    decide = Computers.decide

    async def recorded(self: Computers, table: Table) -> Action:
        seat = table.game.turn
        thought = seat is not None and table.forced(seat) is None
        action = await decide(self, table)
        if thought:
            decided.append(time.time())
        return action

    Computers.decide = recorded  # type: ignore[method-assign]
    return decided


def _newest_buttons(
    double: DiscordDouble, user: User, game: int | None = None
) -> tuple[StoredMessage, list[str], int]:
    """The user's newest hand message with action buttons (of ``game``'s hands only, if
    given), the buttons and their seq."""
    prefix = "tuque:act:" if game is None else f"tuque:act:{game}:"
    for message in reversed(double.ephemerals_for(user)):
        buttons = [
            b.custom_id for b in message.buttons if b.custom_id and b.custom_id.startswith(prefix)
        ]
        if buttons:
            return message, buttons, int(buttons[0].split(":")[3])
    raise LookupError


TABLES = {
    2: ("tuque", ("opponent",)),
    3: ("three_hand", ("opponent", "opponent2")),
    4: ("euchre", ("partner", "opponent", "opponent2")),
    6: ("six_hand", ("partner", "partner2", "opponent", "opponent2", "opponent3")),
}
"""The table sizes ``--mix`` may name: the variant and the challenge's member options."""


def _table(token: str) -> tuple[int, bool]:
    """``--mix``'s ``4`` (four members) or ``4c`` (one member and computers)."""
    computers = token.endswith("c")
    size = int(token.removesuffix("c"))
    if size not in TABLES:
        raise ValueError(f"no table of {size} seats here; sizes are {sorted(TABLES)}")
    return size, computers


async def _answered(double: DiscordDouble, rec: InteractionRecord) -> bool:
    """Wait until the bot answered ``rec`` and went quiet; return whether it answered
    within Discord's 3 s. A later answer is refused, as Discord does, but the bot's work
    behind it goes on, so a start goes on after it."""
    try:
        await rec.response(timeout=10)
    except AssertionError:
        return False
    # The bot may still edit the invitation or send hands: the next click waits for it.
    with contextlib.suppress(TimeoutError):
        await double.idle(timeout=30)
    return True


async def _start_game(
    double: DiscordDouble, channel: Channel, members: list[User], seats: int, level: str
) -> int:
    """A member and computers (``/tuque bot``) when there is one member for several
    seats; else the first member challenges the others and each accepts. Returns how
    many of these clicks and commands the bot answered too late."""
    variant, options = TABLES[seats]
    if len(members) == 1:
        rec = await double.slash(members[0], channel, "tuque", "bot", variant=variant, level=level)
        return int(not await _answered(double, rec))
    invited = dict(zip(options, members[1:], strict=True))
    # This challenge's invitation is the first new post with Accept: computer games post
    # in the channel too.
    before = {m.id for m in double.channel_messages(channel)}

    def invitation() -> StoredMessage | None:
        return next(
            (
                m
                for m in double.channel_messages(channel)
                if m.id not in before and any(b.label == "Accept" for b in m.buttons)
            ),
            None,
        )

    rec = await double.slash(members[0], channel, "tuque", "challenge", variant=variant, **invited)
    late = int(not await _answered(double, rec))
    await double.wait_until(invitation, timeout=60)
    invite = invitation()
    assert invite is not None
    accept = next(x.custom_id for x in invite.buttons if x.label == "Accept")
    assert accept is not None
    # Each member's hand follows their Accept when the game starts: no Show my hand.
    for member in members[1:]:
        late += not await _answered(double, await double.click(member, invite, accept))
    return late


async def _play(
    double: DiscordDouble,
    players: list[User],
    cards: int,
    think: float,
    rng: random.Random,
    *,
    game: int | None = None,
    over: Callable[[], bool] = lambda: False,
) -> tuple[int, list[float]]:
    """Play ``cards`` cards of one game (``game``'s hands only, if given), or until
    ``over()``, a member thinking ``think`` seconds on average (exponentially
    distributed) before each click; return cards played and click latencies in seconds,
    ``math.inf`` for a click the bot did not answer within Discord's 3 s."""
    played = 0
    done_seq = -1
    latencies: list[float] = []
    deadline = time.monotonic() + 120 + 3 * cards * think
    while played < cards and time.monotonic() < deadline and not over():
        # The member to act is the one whose newest hand shows buttons for a new seq.
        ready = []
        for user in players:
            try:
                message, buttons, seq = _newest_buttons(double, user, game)
            except LookupError:
                continue
            if seq > done_seq:
                ready.append((seq, user, message, buttons))
        if not ready:
            # A member's buttons come in their own ephemeral messages: each game's
            # members wake for those alone (the second is a backstop, never relied on).
            await double.ephemeral_change(players, timeout=1.0)
            continue
        seq, user, message, buttons = max(ready, key=lambda r: r[0])
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
            # Computers move while a member thinks: their buttons may be gone by now.
            try:
                message, buttons, now_seq = _newest_buttons(double, user, game)
            except LookupError:
                continue
            if now_seq != seq:
                continue
        choice = rng.choice(buttons)
        rec = await double.click(user, message, choice)
        try:
            await rec.response(timeout=10)
        except AssertionError:
            # Past 3 s the double refuses the answer, as Discord does: a missed click. The
            # member goes on with what they see next, as a person would.
            latencies.append(math.inf)
            continue
        done_seq = seq
        if rec.ack_latency is not None:
            latencies.append(rec.ack_latency)
        if isinstance(ACTIONS[int(choice.rsplit(":", 1)[1])], Play):
            played += 1
    return played, latencies


async def _threads_off(double: DiscordDouble, guild: Guild, channel: Channel) -> None:
    """A manager of ``guild`` turns its games' threads off (``/tuque settings``): every
    table plays in its channel."""
    manager = double.add_user(f"manager-{guild.id}")
    role = double.add_role(guild, "Managers", permissions=MANAGE_GUILD)
    double.add_member(guild, manager, roles=[role])
    rec = await double.slash(manager, channel, "tuque", "settings", threads=False)
    await rec.settled(timeout=30)


def serve(config: dict[str, Any]) -> None:
    """One bot process: the real TuqueBot pointed at the double, with its shards."""
    discord.http.Route.BASE = config["api_url"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config["gateway_url"])
    settings = Settings(
        discord_token=config["token"],
        database_path=Path(config["database"]),
        database_url=config["database_url"],
        shard_count=config["shard_count"],
        shard_ids=config["shard_ids"],
        computer_processes=config["computer_processes"],
        computer_move_delay_seconds=config["computer_delay"],
        log_level="WARNING",
        _env_file=None,
    )
    writes, changes = _record_store_writes()
    stored, shown, merged = _record_table_shows()
    decided = _record_decisions()
    let_go, written = _record_departures()
    executor = workers.computer_pool(settings.computer_processes)

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # bot.run closes the bot cleanly on it

    signal.signal(signal.SIGTERM, stop)
    bot = TuqueBot(settings, executor=executor, guild_ready_timeout=0.05)
    tune_gc()
    try:
        bot.run(config["token"], log_handler=None)
    finally:
        executor.shutdown(cancel_futures=True)
        Path(config["report"]).write_text(
            json.dumps(
                {
                    "writes": writes,
                    "changes": changes,
                    "decided": decided,
                    "stored": stored,
                    "shown": shown,
                    "merged": merged,
                    "let_go": let_go,
                    "written": written,
                }
            )
        )


def steady_gc() -> None:
    """Keep the double's event loop from pausing: it stands for Discord, whose count of
    the bot's requests never stops. Its record of every request and message grows all
    run, and a full collection over it stopped its loop for up to half a second; the
    requests of that pause were then stamped as arriving together (60 "in one second"
    from a bot that sent 45 in every second: global 429s of the double's making). So
    the bot's own setting (``tune_gc``), and each full collection freezes what it found
    alive, so that the next one scans only what came since."""
    tune_gc()
    gc.callbacks.append(_freeze_survivors)


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()


def _quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of the sorted ``ordered`` (nearest rank)."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(milliseconds: float) -> str:
    """A latency as printed: ``math.inf`` is a missed click."""
    return "missed (over 3 s)" if math.isinf(milliseconds) else f"{milliseconds:.1f} ms"


def _writes_line(writes: Sequence[dict[str, Any]]) -> str:
    """How many ``writes`` (``_record_store_writes``'s) and their p50, p99 and slowest."""
    if not writes:
        return "none"
    ms = sorted(1000 * w["seconds"] for w in writes)
    return (
        f"{len(ms)}, p50 {statistics.median(ms):.1f} ms, "
        f"p99 {ms[int(0.99 * (len(ms) - 1))]:.1f} ms, slowest {ms[-1]:.1f} ms"
    )


def _trips_line(recorded: Sequence[dict[str, Any]]) -> str:
    """The round trips of ``recorded`` calls: mean, the commonest counts, the most."""
    if not recorded:
        return "none"
    trips = Counter(r["trips"] for r in recorded)
    common = sorted(n for n, _ in trips.most_common(4))
    spread = ", ".join(f"{n}: {trips[n] / len(recorded):.1%}" for n in common)
    return (
        f"mean {statistics.fmean(r['trips'] for r in recorded):.2f} ({spread}; "
        f"at most {max(trips)})"
    )


def _cpu_seconds(processes: list[psutil.Process], *, children: bool = True) -> float:
    """User and system CPU seconds of ``processes`` and (unless not ``children``) all
    their living children."""
    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            for each in [process, *(process.children(recursive=True) if children else ())]:
                with contextlib.suppress(psutil.Error):
                    times = each.cpu_times()
                    total += times.user + times.system
    return total


async def main(
    games: int,
    cards: int,
    think: float,
    seed: int,
    mix: list[tuple[int, bool]],
    database: str,
    processes: int,
    level: str,
    computer_processes: int,
    computer_delay: float,
    pin: bool,
    per_channel: int,
    limits: bool,
    threads: bool,
) -> None:
    rng = random.Random(seed)
    tables_of = [mix[i % len(mix)] for i in range(games)]
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        server = PostgresServer(Path(tmp) / "postgres") if database == "postgresql" else None
        if server is not None:
            # Stopped however the run ends: a server left behind outlives its folder.
            stack.callback(server.stop)
        url = await server.database() if server is not None else None
        # The suite checks every request against Discord's specification; here the
        # double's core would spend on it what the latencies are meant to show of the bot.
        async with DiscordDouble(
            check_spec=False, rate_limits=DISCORD_LIMITS if limits else None
        ) as double:
            shard_count = processes if processes > 1 else None
            guilds = [
                double.add_guild(f"Bench {i}", shard=(i, processes) if processes > 1 else None)
                for i in range(processes)
            ]
            channels = [
                double.add_channel(guilds[i % processes], f"table-{i}")
                for i in range(max(processes, -(-games // per_channel)))
            ]
            users_needed = sum(1 if computers else size for size, computers in tables_of)
            users = [double.add_user(f"p{i}") for i in range(users_needed)]
            for guild in guilds:
                for user in users:
                    double.add_member(guild, user)
            members, taken = [], 0
            for size, computers in tables_of:
                count = 1 if computers else size
                members.append(users[taken : taken + count])
                taken += count
            bots, reports = [], []
            for i in range(processes):
                report = Path(tmp) / f"bot-{i}.json"
                reports.append(report)
                config = {
                    "api_url": double.api_url,
                    "gateway_url": double.gateway_url,
                    "token": double.token,
                    "database": str(Path(tmp) / "bench.db"),
                    "database_url": url,
                    "shard_count": shard_count,
                    "shard_ids": [i] if shard_count else None,
                    "computer_processes": computer_processes,
                    "computer_delay": computer_delay,
                    "report": str(report),
                }
                bots.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "bench.discord_load", "--serve", json.dumps(config)],
                        cwd=ROOT,
                        env={**os.environ, "BENCH_PIN": "1" if pin else ""},
                    )
                )
            try:
                await double.wait_until(
                    lambda: sum(s.open for s in double._sessions) >= processes, timeout=60
                )
                await asyncio.sleep(0.5)  # the bot's READY waits for guild_ready_timeout
                if not threads:
                    for guild in guilds:
                        await _threads_off(double, guild, channels[0])
                late_starts = 0
                for i, (size, _) in enumerate(tables_of):
                    late_starts += await _start_game(
                        double, channels[i % len(channels)], members[i], size, level
                    )
                steady_gc()
                watched = [psutil.Process(b.pid) for b in bots]
                postgres = [psutil.Process(server.pid)] if server is not None else []
                cpu_before = (
                    _cpu_seconds(watched),
                    _cpu_seconds(postgres),
                    time.process_time(),
                    _cpu_seconds(watched, children=False),
                )
                requests_before = len(double.requests)
                arrivals = _record_arrivals(double) if double.limiter else []
                started = time.perf_counter()
                play_started = time.time()
                clock_started = time.monotonic()
                results = await asyncio.gather(
                    *(
                        _play(double, members[i], cards, think, random.Random(rng.random()))
                        for i in range(games)
                    )
                )
                await double.idle(timeout=60)
                # The bot's last table edits may still wait for their channel's turn
                # (TABLE_EDIT_GAP_SECONDS), unseen by the double: let them land.
                await asyncio.sleep(3)
                elapsed = time.perf_counter() - started
                play_ended = time.time()
                clock_ended = time.monotonic()
                cpu = (
                    _cpu_seconds(watched) - cpu_before[0],
                    _cpu_seconds(postgres) - cpu_before[1],
                    time.process_time() - cpu_before[2],
                    _cpu_seconds(watched, children=False) - cpu_before[3],
                )
                during = double.requests[requests_before:]
                rest = len(during)
                routes = Counter(f"{r.method} {r.route}" for r in during)
                counted = [
                    r.at - clock_started
                    for r in during
                    if not r.route.startswith(("/interactions/", "/webhooks/"))
                ]
                limited = len(counted)
                global_limit = double.limiter.limits.global_per_second if double.limiter else None
                too_many = sum(r.status == 429 for r in during)
                refused = Counter(f"{x.scope} {x.route}" for x in double.rate_limited)
            finally:
                for bot in bots:
                    bot.terminate()
                for bot in bots:
                    bot.wait(timeout=60)
            measured = [json.loads(report.read_text()) for report in reports]
    writes, changes = (
        [w for m in measured for w in m[kind] if play_started <= w["began"] <= play_ended]
        for kind in ("writes", "changes")
    )
    decided = [t for m in measured for t in m["decided"] if play_started <= t <= play_ended]
    stored = [x for m in measured for x in m["stored"] if play_started <= x[2] <= play_ended]
    timed_lags, never = _table_lags(stored, [x for m in measured for x in m["shown"]])
    lags = sorted(lag for _, lag in timed_lags)
    # The games start together (a crowd, an event's round): their first deals, bids and
    # the start's posts still waiting make the first seconds the busiest.
    early = sorted(lag for at, lag in timed_lags if at < play_started + EARLY)
    later = sorted(lag for at, lag in timed_lags if at >= play_started + EARLY)
    merged = sum(play_started <= t <= play_ended for m in measured for t in m["merged"])
    most = {
        kind: _most_in_a_second(
            [t for m in measured for t in m[kind] if clock_started <= t <= clock_ended]
        )
        for kind in ("let_go", "written")
    }
    most["counted"] = _most_in_a_second(arrivals)
    # Every card played, the computers' too (``played`` counts the members' clicks).
    all_cards = sum(int(x[3]) for x in stored)
    played = sum(p for p, _ in results)
    latencies = sorted(x * 1000 for _, lat in results for x in lat)
    p99 = _quantile(latencies, 0.99)
    kinds = Counter(f"{size}{'c' if computers else ''}" for size, computers in tables_of)
    pinned = "bot pinned to one core" if pin else "nothing pinned"
    print(f"database:                  {database}, {processes} bot process(es), {pinned}")
    print(f"load average:              {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"games at once:             {games} (tables: {dict(sorted(kinds.items()))}), "
        f"{per_channel} a channel, {'a thread each' if threads else 'threads off'}"
    )
    print(
        f"think time (mean):         {think:.2f} s a click; computers: {level}, "
        f"{computer_delay:g} s pause, {computer_processes} worker(s) a process"
    )
    print(
        f"clicks measured:           {len(latencies)} in {elapsed:.1f} s "
        f"({len(latencies) / elapsed:.0f} a second)"
    )
    missed = sum(math.isinf(x) for x in latencies)
    print(f"interaction latency p50:   {_ms(statistics.median(latencies))}")
    print(f"interaction latency p99:   {_ms(p99)}   (goal < 250 ms)")
    print(
        f"clicks missed:             {missed}   (not answered within Discord's 3 s; "
        f"{late_starts} more while the games started)"
    )
    print(f"cards played:              {played}")
    print(f"computer decisions:        {len(decided)} ({len(decided) / elapsed:.1f} a second)")
    print(
        f"REST calls per card:       {rest / max(played, 1):.2f}   (bids included; goal <= 3 in "
        "two-member games: a table of more members refreshes more hands a card)"
    )
    print(
        f"rate-limited per card:     {limited / max(all_cards, 1):.2f}   (goal <= 1.5, over "
        f"{all_cards} cards computers' included: every request but the interaction "
        "responses and their webhooks)"
    )
    sent = limited / elapsed
    asked = (limited + merged) / elapsed
    # The bot sends at most its pace, the budget less HEADROOM: both shares are shown.
    used = (
        f"{sent / global_limit:.0%} of {global_limit} a second, "
        f"{sent / (global_limit * (1 - HEADROOM)):.0%} of the bot's pace"
        if global_limit
        else "no limit"
    )
    print(
        f"global-limit requests:     asked {asked:.1f} a second, sent {sent:.1f}; "
        f"budget used {used}   ({merged} table edits merged into one waiting)"
    )
    print(f"429 answers:               {too_many}   (goal 0)")
    print(
        f"most in any second:        {most['let_go']} let go by the budget, "
        f"{most['written']} written to the socket, {most['counted']} counted by the double "
        f"on arrival (its limit {global_limit})"
    )
    for what, count in refused.most_common(4):
        print(f"    {count:5d}  {what}")
    if lags:
        limit = f" = {games / global_limit + 1.5:.1f} s" if global_limit else ""
        print(
            f"table lag p50 / p95 / p99: {statistics.median(lags):.2f} / "
            f"{_quantile(lags, 0.95):.2f} / {_quantile(lags, 0.99):.2f} s   "
            f"(goal p95 <= 1.5 s while demand fits the budget, else <= busy tables / "
            f"budget + 1.5 s{limit}; {len(lags)} changes, {never} not shown by the end)"
        )
        merges = [t - play_started for m in measured for t in m["merged"]]
        phases = (
            (f"first {EARLY:.0f} s", early, 0.0, EARLY),
            (f"after {EARLY:.0f} s", later, EARLY, elapsed),
        )
        for name, some, start, end in phases:
            if some and end > start:
                # Whether demand fitted the budget then: the lag's goal depends on it.
                sent_then = sum(start <= t < end for t in counted) / (end - start)
                merged_then = sum(start <= t < end for t in merges) / (end - start)
                print(
                    f"    {name:>10} of play: p50 / p95 {statistics.median(some):.2f} / "
                    f"{_quantile(some, 0.95):.2f} s ({len(some)} changes; global-limit "
                    f"requests asked {sent_then + merged_then:.1f} a second, sent "
                    f"{sent_then:.1f})"
                )
    for route, count in routes.most_common(8):
        print(f"    {count / max(played, 1):5.2f}  {route}")
    print(f"store writes during play:  {_writes_line(writes)}   (the click is deferred past 2 s)")
    print(f"game changes during play:  {_writes_line(changes)}   (append_actions: a click's)")
    if database == "postgresql":
        print("round trips (counted in asyncpg: each batch of messages sent, then waited on):")
        for label, some in (("a game change", changes), ("a store write", writes)):
            print(f"  {label + ':':24s} {_trips_line(some)}")
        kinds = Counter(w["by"] for w in writes)
        for by, count in kinds.most_common(8):
            mean = statistics.fmean(w["trips"] for w in writes if w["by"] == by)
            print(f"    {count:6d} writes {by:34s} {mean:5.2f} round trips")
    per_card = 1000 / max(all_cards, 1)
    print(
        f"bot CPU per card:          {cpu[0] * per_card:.1f} ms   (goal <= 5 ms; over every "
        f"card played): the bot's event loop and threads {cpu[3] * per_card:.1f} ms, its "
        f"workers (computers, drawing) {(cpu[0] - cpu[3]) * per_card:.1f} ms"
    )
    print(
        f"CPU seconds a second:      bots {cpu[0] / elapsed:.2f}, PostgreSQL "
        f"{cpu[1] / elapsed:.2f}, double and members {cpu[2] / elapsed:.2f} "
        f"(of {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        if os.environ.get("BENCH_PIN") and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {0})
        serve(json.loads(sys.argv[2]))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games played at once")
    parser.add_argument("--cards", type=int, default=20, help="cards to play in each game")
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a member takes to click (0: flat out)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-channel", type=int, default=10, help="games started in each channel")
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="without Discord's rate limits in the double (on by default)",
    )
    parser.add_argument(
        "--mix",
        type=lambda text: [_table(token) for token in text.split(",")],
        default=[(2, False)],
        help=f"tables cycled over the games: sizes from {sorted(TABLES)}, a c after the size "
        "for one member and computers (default 2)",
    )
    parser.add_argument(
        "--threads-off",
        action="store_true",
        help="the servers turn games' threads off: the tables of a channel share it",
    )
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--processes", type=int, default=1, help="bot processes, a shard each")
    parser.add_argument("--level", default="normal", help="the computers' level")
    parser.add_argument(
        "--no-pin", action="store_true", help="with one bot process, pin nothing either"
    )
    parser.add_argument(
        "--computer-processes", type=int, default=1, help="each bot's computer workers"
    )
    parser.add_argument(
        "--computer-delay",
        type=float,
        default=1.0,
        help="seconds a computer pauses before its move (the bot's default 1; 0: at once)",
    )
    args = parser.parse_args()
    pin = args.processes == 1 and not args.no_pin and hasattr(os, "sched_setaffinity")
    if pin and len(os.sched_getaffinity(0)) > 1:
        os.sched_setaffinity(0, os.sched_getaffinity(0) - {0})
    asyncio.run(
        main(
            args.games,
            args.cards,
            args.think,
            args.seed,
            args.mix,
            args.database,
            args.processes,
            args.level,
            args.computer_processes,
            args.computer_delay,
            pin,
            args.per_channel,
            not args.no_limits,
            not args.threads_off,
        )
    )
