"""Events benchmark (issue 42): many euchre nights at once on one bot process.

The bot runs in its own process (``bench.discord_load``'s ``serve``, with the standings
edits it asked for recorded) against the loopback Discord double with Discord's rate
limits on; this process runs the double and the members, who act only on what they
see. Each event has its own server and channel: its host announces it with ``/tuque
event new``, every member clicks Join, and every host presses Start at the same moment.
At each round the members of a table click the "Show my hand" of its thread's call at
once, then play their hands as ``bench.discord_load``'s members do (a think time
exponentially distributed before each click), until the table's game is over; the
event's next round seats them at new tables, until the results post.

    .venv/bin/python -m bench.events_load --events 20 --members 24 --rounds 2 --hands 2
    .venv/bin/python -m bench.events_load --events 20 --format swiss --rounds 3 --hands 1

Prints, per event, the standings message's edits sent and the edits asked for that
merged into one waiting; the 429s Discord would have answered, by scope and route (goal
0); the click latency (the double's dispatch of INTERACTION_CREATE to the bot's
callback) of the card and bid clicks at p50/p99, and of Show my hand, Join and Start;
the round start time at p50 and its slowest (round 1: from Start pressed to every
member's hand shown; a later round: from the commit of the last change of the round
before to every hand of this one shown), the table lag and the bot's CPU per card
(``bench.discord_load``'s). Goal (issue 42): 20 events of 24 members with no 429.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from bench import discord_load
from bench.discord_load import (
    ROOT,
    _cpu_seconds,
    _ms,
    _play,
    _quantile,
    _start_game,
    _table_lags,
)
from bot.client import TuqueBot
from bot.events.model import Format
from tests.discord_double import DiscordDouble, InteractionRecord, StoredMessage
from tests.discord_double.models import MANAGE_EVENTS, Channel, User
from tests.discord_double.server import DISCORD_LIMITS

GAMES = {Format.SWISS: "tuque"}
"""Each format's game unless ``--game`` says: four-hand Euchre, and Tuque for Swiss."""

_ROUND = re.compile(r": round (\d+) of \d+\*\*")
"""A seating post's first line (``render.seating_text``), with the round's number."""
_MENTION = re.compile(r"<@(\d+)>")


@dataclass
class Night:
    """One event's server, channel and members (the first its host), and what they saw:
    times are seconds since the epoch."""

    number: int
    channel: Channel
    members: list[User]
    sign_up: StoredMessage | None = None
    event_id: int | None = None
    started: float | None = None
    tables: dict[int, int] = field(default_factory=dict)
    """Each table's game: its round."""
    shown: dict[int, float] = field(default_factory=dict)
    """Each table's game: when its last member's hand was shown."""
    finished: bool = False

    @property
    def host(self) -> User:
        return self.members[0]


def _button(message: StoredMessage, label: str) -> str:
    found = next(b.custom_id for b in message.buttons if b.label == label)
    assert found is not None
    return found


def _game_of(call: StoredMessage) -> int:
    """The game whose "Show my hand" a table's call carries."""
    show = next(b.custom_id for b in call.buttons if (b.custom_id or "").startswith("tuque:hand:"))
    assert show is not None
    return int(show.split(":")[2])


def _wall(double: DiscordDouble, loop_time: float) -> float:
    """A time of the double's loop clock (``InteractionRecord``'s) since the epoch."""
    return time.time() - (asyncio.get_running_loop().time() - loop_time)


async def _announce(
    double: DiscordDouble, night: Night, fmt: Format, game: str, rounds: int, hands: int
) -> None:
    """The host announces the event (it would start by itself in ten hours) and every
    member clicks Join."""
    rec = await double.slash(
        night.host, night.channel, "tuque", "event", "new", name=f"Night {night.number}",
        game=game, format=fmt.value, rounds=rounds, hands=hands, starts_in=600,
    )  # fmt: skip
    await rec.response(timeout=10)

    def sign_up() -> StoredMessage | None:
        posts = double.channel_messages(night.channel)
        return next((m for m in posts if any(b.label == "Join" for b in m.buttons)), None)

    await double.wait_until(sign_up, timeout=60)
    message = sign_up()
    assert message is not None
    night.sign_up = message
    join = _button(message, "Join")
    night.event_id = int(join.split(":")[2])
    for member in night.members:
        await (await double.click(member, message, join)).response(timeout=10)
    everyone = f"In ({len(night.members)})"
    await double.wait_until(lambda: everyone in str(double.message(message.id).embeds), 60)


async def _hand_shown(double: DiscordDouble, rec: InteractionRecord) -> float:
    """When the hand a Show my hand click asked for was shown (``math.inf``: never)."""
    try:
        await rec.response(timeout=10)
    except AssertionError:
        return math.inf
    if rec.messages:
        assert rec.acked_at is not None
        return _wall(double, rec.acked_at)
    with contextlib.suppress(TimeoutError):
        await double.wait_until(lambda: rec.messages, timeout=10)
        return time.time()
    return math.inf


async def _table(
    double: DiscordDouble, night: Night, call: StoredMessage, think: float, rng: random.Random
) -> None:
    """The members a table's call names show their hands at once, then play its game
    until its game over is posted."""
    game_id = _game_of(call)
    show = f"tuque:hand:{game_id}"
    players = [double.users[int(m)] for m in _MENTION.findall(call.content)]
    clicks = await asyncio.gather(*(double.click(p, call, show) for p in players))
    night.shown[game_id] = max(await asyncio.gather(*(_hand_shown(double, r) for r in clicks)))
    rematch = f"tuque:rematch:{game_id}"

    def over() -> bool:
        posts = double.channel_messages(call.channel)
        return night.finished or any(b.custom_id == rematch for m in posts for b in m.buttons)

    # Cards without end: the game over ends the play (the night's deadline a stall).
    await _play(double, players, sys.maxsize, think, rng, game=game_id, over=over)


async def _run(double: DiscordDouble, night: Night, think: float, rng: random.Random) -> None:
    """Play each table of the event as its call appears, until the results post."""
    called: set[int] = set()  # the threads whose call was found
    tables: list[asyncio.Task[None]] = []

    def news() -> list[StoredMessage]:
        calls = []
        for thread in night.channel.guild.threads.values():
            if thread.parent_id != night.channel.id or thread.id in called:
                continue
            # The call names the table's members; the table's picture has the button too.
            for message in double.channel_messages(thread):
                shows = any((b.custom_id or "").startswith("tuque:hand:") for b in message.buttons)
                if shows and _MENTION.search(message.content):
                    calls.append(message)
        return calls

    def failed() -> list[asyncio.Task[None]]:
        return [t for t in tables if t.done() and not t.cancelled() and t.exception()]

    def results() -> bool:
        return any(m.attachments for m in double.channel_messages(night.channel))

    try:
        while not night.finished:
            await double.wait_until(lambda: news() or results() or failed(), timeout=3600)
            for task in failed():
                task.result()  # raises what went wrong at the table
            night.finished = results()
            # A round's seating is posted before its tables open, and the next one only
            # once they are all over.
            posts = double.channel_messages(night.channel)
            round_no = max((int(x) for m in posts for x in _ROUND.findall(m.content)), default=1)
            for call in news():
                called.add(call.channel.id)
                night.tables[_game_of(call)] = round_no
                player = random.Random(rng.random())
                task = asyncio.create_task(_table(double, night, call, think, player))
                tables.append(task)
        await asyncio.gather(*tables)
    finally:
        for task in tables:
            task.cancel()


def _record_standings_asks() -> list[list[int]]:
    """Record from now on, in the bot process, every edit of a standings message the
    runner asks for (``EventsCog._refresh_standings``): ``[event, 1 if it merged into an
    edit already waiting, else 0]``. The cog's module is loaded anew by the bot (an
    extension): its instance is wrapped once the bot has loaded it."""
    asked: list[list[int]] = []
    setup_hook = TuqueBot.setup_hook

    async def recorded_setup(self: TuqueBot) -> None:
        await setup_hook(self)
        cog: Any = self.get_cog("Events")
        refresh = cog._refresh_standings

        def recorded(row: Any) -> None:
            waiting = cog._standings.get(row.id)
            asked.append([row.id, int(waiting is not None and waiting.wanted.is_set())])
            refresh(row)

        cog._refresh_standings = recorded

    TuqueBot.setup_hook = recorded_setup  # type: ignore[method-assign]
    return asked


def serve(config: dict[str, Any]) -> None:
    """The bot process: ``bench.discord_load``'s, with the standings asked recorded."""
    asked = _record_standings_asks()
    try:
        discord_load.serve(config)
    finally:
        Path(config["events_report"]).write_text(json.dumps({"standings": asked}))


def _spread(values: Sequence[float], unit: str = "s") -> str:
    """``p50 / slowest`` of ``values`` (``math.inf``: never)."""
    if not values:
        return "none"
    ordered = sorted(values)
    worst = "never" if math.isinf(ordered[-1]) else f"{ordered[-1]:.2f} {unit}"
    return f"p50 {statistics.median(ordered):.2f} {unit}, slowest {worst}"


def _clicks_line(records: Sequence[InteractionRecord]) -> str:
    """How many clicks, their latency at p50 and p99, and how many missed Discord's 3 s."""
    if not records:
        return "none"
    ms = sorted(
        math.inf if r.ack_latency is None or r.ack_latency > 3 else 1000 * r.ack_latency
        for r in records
    )
    missed = sum(math.isinf(x) for x in ms)
    return (
        f"{len(ms)}, p50 {_ms(statistics.median(ms))}, p99 {_ms(_quantile(ms, 0.99))}, "
        f"{missed} missed"
    )


def _round_starts(
    nights: Sequence[Night], stored: Sequence[Sequence[float]]
) -> tuple[list[float], list[float]]:
    """Each event's round start times: round 1's (Start pressed to every hand shown), and
    every later round's (the round before's last stored change to every hand shown)."""
    ended: dict[int, float] = {}
    for game, _seq, at, _cards in stored:
        ended[int(game)] = max(ended.get(int(game), 0.0), at)
    first, later = [], []
    for night in nights:
        rounds: dict[int, list[int]] = {}
        for game, round_no in night.tables.items():
            rounds.setdefault(round_no, []).append(game)
        for round_no, games in sorted(rounds.items()):
            shown = max(night.shown.get(g, math.inf) for g in games)
            if round_no == 1 and night.started is not None:
                first.append(shown - night.started)
            elif round_no - 1 in rounds:
                before = max(ended.get(g, math.inf) for g in rounds[round_no - 1])
                later.append(shown - before)
    return first, later


def _standings_edits(double: DiscordDouble, night: Night) -> int:
    """The edits of the event's standings message Discord took."""
    return sum(
        r.method == "PATCH" and r.status == 200 and r.path.endswith(f"/messages/{message.id}")
        for message in _standings(double, [night])
        for r in double.requests
    )


async def main(
    events: int,
    members: int,
    fmt: Format,
    game: str,
    rounds: int,
    hands: int,
    think: float,
    seed: int,
    pin: bool,
    limits: bool,
    deadline: float,
) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordDouble(
            check_spec=False, rate_limits=DISCORD_LIMITS if limits else None
        ) as double:
            nights = []
            for i in range(events):
                guild = double.add_guild(f"Euchre club {i}")
                hosts = double.add_role(guild, "hosts", permissions=MANAGE_EVENTS)
                people = [double.add_user(f"e{i}m{j}") for j in range(members)]
                for j, user in enumerate(people):
                    double.add_member(guild, user, roles=[hosts] if j == 0 else [])
                channel = double.add_channel(guild, "euchre-night")
                nights.append(Night(i + 1, channel, people))
            warm_guild = double.add_guild("Warm-up")
            warm_up = double.add_channel(warm_guild, "warm-up")
            warm_user = double.add_user("warm-up", guild=warm_guild)
            report, events_report = Path(tmp) / "bot.json", Path(tmp) / "events.json"
            config = {
                "api_url": double.api_url,
                "gateway_url": double.gateway_url,
                "token": double.token,
                "database": str(Path(tmp) / "bench.db"),
                "database_url": None,
                "shard_count": None,
                "shard_ids": None,
                "computer_processes": 1,
                "computer_delay": 1.0,
                "report": str(report),
                "events_report": str(events_report),
            }
            bot = subprocess.Popen(
                [sys.executable, "-m", "bench.events_load", "--serve", json.dumps(config)],
                cwd=ROOT,
                env={**os.environ, "BENCH_PIN": "1" if pin else ""},
            )
            try:
                await double.wait_until(lambda: any(s.open for s in double._sessions), 60)
                await asyncio.sleep(0.5)  # the bot's READY waits for guild_ready_timeout
                # A game against the computers first, until its table is posted: the
                # bot's drawing process starts with its first table (seconds on a loaded
                # machine), which is no round's.
                await _start_game(double, warm_up, [warm_user], 2, "normal")
                await double.wait_until(
                    lambda: any(
                        m.attachments
                        for thread in warm_guild.threads.values()
                        for m in double.channel_messages(thread)
                    ),
                    timeout=60,
                )
                await asyncio.gather(
                    *(_announce(double, n, fmt, game, rounds, hands) for n in nights)
                )
                discord_load.steady_gc()  # the double's count of requests never pauses
                watched = [psutil.Process(bot.pid)]
                cpu_before = (_cpu_seconds(watched), time.process_time())
                interactions_before = len(double.interactions)
                started = time.perf_counter()
                play_started = time.time()
                starts = []
                for night in nights:
                    assert night.sign_up is not None
                    start = _button(night.sign_up, "Start")
                    starts.append(double.click(night.host, night.sign_up, start))
                for night, rec in zip(nights, await asyncio.gather(*starts), strict=True):
                    night.started = _wall(double, rec.dispatched_at)
                runs = [
                    asyncio.create_task(_run(double, n, think, random.Random(rng.random())))
                    for n in nights
                ]
                _, stalled = await asyncio.wait(runs, timeout=deadline)
                for run in stalled:
                    run.cancel()
                # The last standings edits wait out their gap (STANDINGS_GAP).
                with contextlib.suppress(TimeoutError):
                    await double.wait_until(
                        lambda: all(
                            "Finished" in str(m.embeds) for m in _standings(double, nights)
                        ),
                        timeout=30,
                    )
                with contextlib.suppress(TimeoutError):
                    await double.idle(timeout=30)
                elapsed = time.perf_counter() - started
                play_ended = time.time()
                cpu = (_cpu_seconds(watched) - cpu_before[0], time.process_time() - cpu_before[1])
                clicks = double.interactions[interactions_before:]
                refused = Counter(f"{x.scope} {x.route}" for x in double.rate_limited)
                edits = [_standings_edits(double, n) for n in nights]
            finally:
                bot.terminate()
                bot.wait(timeout=60)
            measured = json.loads(report.read_text())
            asked = json.loads(events_report.read_text())["standings"]
    stored = [x for x in measured["stored"] if play_started <= x[2] <= play_ended]
    timed_lags, never = _table_lags(stored, measured["shown"])
    lags = sorted(lag for _, lag in timed_lags)
    all_cards = sum(int(x[3]) for x in stored)
    first, later = _round_starts(nights, stored)
    by_event = Counter(event for event, _ in asked)
    merged = Counter(event for event, into in asked if into)

    def kind(what: str) -> list[InteractionRecord]:
        return [r for r in clicks if str(r.data.get("custom_id", "")).startswith(what)]

    finished = sum(n.finished for n in nights)
    print(f"load average:              {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"events at once:            {events} of {members} members, {fmt.label} ({game}), "
        f"{rounds} round(s) of {hands} hand(s); one bot process"
        f"{', pinned to one core' if pin else ''}; Discord's limits {'on' if limits else 'off'}"
    )
    print(
        f"finished:                  {finished} of {events} in {elapsed:.1f} s "
        f"(think {think:.2f} s a click on average)"
    )
    print(
        f"standings edits per event: mean {statistics.fmean(edits):.1f}, {min(edits)} to "
        f"{max(edits)}; asked {sum(by_event.values()) / events:.1f}, of which merged into "
        f"one waiting {sum(merged.values()) / events:.1f}"
    )
    print(f"429 answers:               {sum(refused.values())}   (goal 0)")
    for what, count in refused.most_common(8):
        print(f"    {count:5d}  {what}")
    print(f"card and bid clicks:       {_clicks_line(kind('tuque:act:'))}")
    print(f"Show my hand clicks:       {_clicks_line(kind('tuque:hand:'))}")
    print(f"Start clicks:              {_clicks_line(kind('tuque:event:'))}")
    print(f"round 1 start:             {_spread(first)}   (Start pressed -> every hand shown)")
    print(
        f"later rounds' start:       {_spread(later)}   (the round before's last change "
        "-> every hand shown)"
    )
    if lags:
        print(
            f"table lag p50 / p95 / p99: {statistics.median(lags):.2f} / "
            f"{_quantile(lags, 0.95):.2f} / {_quantile(lags, 0.99):.2f} s   "
            f"({len(lags)} changes, {never} not shown by the end)"
        )
    per_card = 1000 / max(all_cards, 1)
    print(
        f"bot CPU per card:          {cpu[0] * per_card:.1f} ms   (over {all_cards} cards, "
        "its workers included)"
    )
    print(
        f"CPU seconds a second:      bot {cpu[0] / elapsed:.2f}, double and members "
        f"{cpu[1] / elapsed:.2f} (of {os.cpu_count()} cores)"
    )


def _standings(double: DiscordDouble, nights: Sequence[Night]) -> list[StoredMessage]:
    """The events' standings messages posted so far."""
    found = []
    for night in nights:
        title = f"Night {night.number}: standings"
        found += [m for m in double.channel_messages(night.channel) if title in str(m.embeds)]
    return found


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        if os.environ.get("BENCH_PIN") and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {0})
        serve(json.loads(sys.argv[2]))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20, help="events run at once")
    parser.add_argument("--members", type=int, default=24, help="members of each event")
    parser.add_argument(
        "--format",
        type=Format,
        choices=list(Format),
        default=Format.PROGRESSIVE,
        help="the events' format (default progressive)",
    )
    parser.add_argument(
        "--game", help="the events' game (default euchre; tuque for the swiss format)"
    )
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each event")
    parser.add_argument("--hands", type=int, default=2, help="hands of each round")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a member takes to click (0: at once)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-limits", action="store_true", help="without Discord's rate limits in the double"
    )
    parser.add_argument("--no-pin", action="store_true", help="pin the bot to no core")
    parser.add_argument(
        "--deadline", type=float, default=1800, help="seconds after which a night counts as stalled"
    )
    args = parser.parse_args()
    pin = not args.no_pin and hasattr(os, "sched_setaffinity")
    if pin and len(os.sched_getaffinity(0)) > 1:
        os.sched_setaffinity(0, os.sched_getaffinity(0) - {0})
    asyncio.run(
        main(
            args.events,
            args.members,
            args.format,
            args.game or GAMES.get(args.format, "euchre"),
            args.rounds,
            args.hands,
            args.think,
            args.seed,
            pin,
            not args.no_limits,
            args.deadline,
        )
    )
