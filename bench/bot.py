"""Bot benchmark: many concurrent games through the loopback Discord double.

The bot runs in its own process pinned to one core; the double and the scripted
members run in this process on the other core. Members act only on what they can
see: the action buttons of their newest hand message. Prints the interaction
latency (the double's dispatch of INTERACTION_CREATE to the bot's callback
request, so it includes the gateway and HTTP hops) at p50/p99 over every action
click, REST calls per card played, and how long the bot's store writes took
(from asking for the database to the commit, waiting for other writes
included: what decides whether a click could miss Discord's 3-second deadline),
with ``--games`` games of members only running at once. No computer moves.
``--mix`` sets the table sizes, cycled over the games: 2 is a Tuque challenge, 3
three-hand, 4 four-hand Euchre and 6 six-hand, each started by an invitation that
every member accepts.

    .venv/bin/python bench/bot.py --games 300 --cards 20 --think 1
    .venv/bin/python bench/bot.py --games 100 --mix 2,3,4,6

Goals: p99 < 50 ms with 200 concurrent games on one core and at most 3 REST
calls per card played (issue #3); figures at 300 games (issue #8).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

# Running this file puts bench/ first on sys.path, where this very file would shadow the
# bot package; the double lives in tests/.
# A worker process the bot spawns runs this file again without it there.
if str(Path(__file__).resolve().parent) in sys.path:
    sys.path.remove(str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import discord
import yarl
from discord_double import DiscordDouble, StoredMessage
from discord_double.models import Channel, User

from bot.client import TuqueBot, tune_gc
from bot.settings import Settings
from bot.store import Store
from engine.actions import ACTIONS, Play


def _time_store_writes() -> list[float]:
    """Record the seconds of every write transaction of the store from now on."""
    durations: list[float] = []
    transaction = Store._transaction

    @asynccontextmanager
    async def timed(self: Store, *, write: bool) -> AsyncIterator[Any]:
        started = time.perf_counter()
        async with transaction(self, write=write) as db:
            yield db
        if write:
            durations.append(time.perf_counter() - started)

    Store._transaction = timed  # type: ignore[method-assign]
    return durations


def _newest_buttons(double: DiscordDouble, user: User) -> tuple[StoredMessage, list[str], int]:
    """The user's newest hand message with action buttons, the buttons and their seq."""
    for message in reversed(double.ephemerals_for(user)):
        buttons = [
            b.custom_id
            for b in message.buttons
            if b.custom_id and b.custom_id.startswith("tuque:act:")
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


async def _start_game(double: DiscordDouble, channel: Channel, members: list[User]) -> None:
    """The first member challenges the others (an invitation above two seats); each accepts."""
    variant, options = TABLES[len(members)]
    invited = dict(zip(options, members[1:], strict=True))
    rec = await double.slash(members[0], channel, "tuque", "challenge", variant=variant, **invited)
    await rec.settled(timeout=30)
    invite = double.latest_message(channel)
    for member in members[1:]:
        accept = next(x.custom_id for x in invite.buttons if x.label == "Accept")
        assert accept is not None
        await (await double.click(member, invite, accept)).settled(timeout=30)
    if len(members) > 2:
        # Only the last to accept and the host got their hand; the others ask for theirs.
        invite = double.message(invite.id)
        show = next(x.custom_id for x in invite.buttons if x.label == "Show my hand")
        assert show is not None
        for member in members[1:-1]:
            await (await double.click(member, invite, show)).settled(timeout=30)


async def _play(
    double: DiscordDouble,
    players: list[User],
    cards: int,
    think: float,
    rng: random.Random,
) -> tuple[int, list[float]]:
    """Play ``cards`` cards of one game, a member thinking ``think`` seconds on average
    (exponentially distributed) before each click; return cards played and click latencies."""
    played = 0
    done_seq = -1
    latencies: list[float] = []
    deadline = time.monotonic() + 120 + 3 * cards * think
    while played < cards and time.monotonic() < deadline:
        # The member to act is the one whose newest hand shows buttons for a new seq.
        ready = []
        for user in players:
            try:
                message, buttons, seq = _newest_buttons(double, user)
            except LookupError:
                continue
            if seq > done_seq:
                ready.append((seq, user, message, buttons))
        if not ready:
            await asyncio.sleep(0.002)
            continue
        seq, user, message, buttons = max(ready, key=lambda r: r[0])
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        choice = rng.choice(buttons)
        rec = await double.click(user, message, choice)
        await rec.response(timeout=30)
        done_seq = seq
        if rec.ack_latency is not None:
            latencies.append(rec.ack_latency)
        if isinstance(ACTIONS[int(choice.rsplit(":", 1)[1])], Play):
            played += 1
    return played, latencies


def serve(api_url: str, gateway_url: str, token: str, guild_id: int, database: str) -> None:
    """The bot process: the real TuqueBot pointed at the double."""
    discord.http.Route.BASE = api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    settings = Settings(
        discord_token=token,
        database_path=Path(database),
        dev_guild_id=guild_id,
        computer_move_delay_seconds=0,
        log_level="WARNING",
    )
    writes = _time_store_writes()

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # bot.run closes the bot cleanly on it

    signal.signal(signal.SIGTERM, stop)
    with ThreadPoolExecutor(1) as executor:
        bot = TuqueBot(settings, executor=executor, guild_ready_timeout=0.05)
        tune_gc()
        bot.run(token, log_handler=None)
    Path(database + ".writes.json").write_text(json.dumps(writes))


async def main(games: int, cards: int, think: float, seed: int, mix: list[int]) -> None:
    rng = random.Random(seed)
    sizes = [mix[i % len(mix)] for i in range(games)]
    with tempfile.TemporaryDirectory() as tmp:
        # The suite checks every request against Discord's specification; here the
        # double's core would spend on it what the latencies are meant to show of the bot.
        async with DiscordDouble(check_spec=False) as double:
            guild = double.add_guild("Bench")
            channels = [double.add_channel(guild, f"table-{i}") for i in range(max(1, games // 10))]
            users = [double.add_user(f"p{i}", guild=guild) for i in range(sum(sizes))]
            tables = [users[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(games)]
            bot = subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--serve",
                    double.api_url,
                    double.gateway_url,
                    double.token,
                    str(guild.id),
                    str(Path(tmp) / "bench.db"),
                ]
            )
            try:
                # The double has no public "connected" flag; its gateway sessions say it.
                await double.wait_until(lambda: any(s.open for s in double._sessions), timeout=30)
                await asyncio.sleep(0.5)  # the bot's READY waits for guild_ready_timeout
                for i in range(games):
                    await _start_game(double, channels[i % len(channels)], tables[i])
                requests_before = len(double.requests)
                started = time.perf_counter()
                results = await asyncio.gather(
                    *(
                        _play(
                            double,
                            tables[i],
                            cards,
                            think,
                            random.Random(rng.random()),
                        )
                        for i in range(games)
                    )
                )
                await double.idle(timeout=60)
                elapsed = time.perf_counter() - started
                rest = len(double.requests) - requests_before
                routes = Counter(f"{r.method} {r.route}" for r in double.requests[requests_before:])
            finally:
                bot.terminate()
                bot.wait(timeout=30)
            writes = sorted(json.loads(Path(tmp, "bench.db.writes.json").read_text()))
    played = sum(p for p, _ in results)
    latencies = sorted(x * 1000 for _, lat in results for x in lat)
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    print(f"games at once:             {games} (seats: {Counter(sizes)})")
    print(f"think time (mean):         {think:.2f} s a click")
    print(
        f"clicks measured:           {len(latencies)} in {elapsed:.1f} s "
        f"({len(latencies) / elapsed:.0f} a second)"
    )
    print(f"interaction latency p50:   {statistics.median(latencies):.1f} ms")
    print(f"interaction latency p99:   {p99:.1f} ms   (goal < 50 ms)")
    print(f"cards played:              {played}")
    print(f"REST calls per card:       {rest / max(played, 1):.2f}   (goal <= 3; bids included)")
    for route, count in routes.most_common():
        print(f"    {count / max(played, 1):5.2f}  {route}")
    print(
        f"store writes:              {len(writes)}, p50 {1000 * statistics.median(writes):.1f} ms, "
        f"p99 {1000 * writes[int(0.99 * (len(writes) - 1))]:.1f} ms, "
        f"slowest {1000 * writes[-1]:.1f} ms   (the click is deferred past 2 s)"
    )


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "--serve":
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {0})
        serve(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6])
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
    parser.add_argument(
        "--mix",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[2],
        help=f"table sizes cycled over the games, from {sorted(TABLES)} (default 2)",
    )
    args = parser.parse_args()
    if bad := set(args.mix) - set(TABLES):
        parser.error(f"no table of {sorted(bad)} seats here")
    if hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) > 1:
        os.sched_setaffinity(0, os.sched_getaffinity(0) - {0})
    asyncio.run(main(args.games, args.cards, args.think, args.seed, args.mix))
