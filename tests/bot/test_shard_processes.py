"""Two real ``tuque-bot`` processes, one shard each, on one PostgreSQL database.

Each process runs ``launch_bot.py`` against the loopback Discord double, which routes a
guild's events and interactions to the gateway session of the guild's shard, as Discord
does. A member plays against computers in a guild on each shard. Shard 0's process is
killed with SIGKILL while its member is to act: shard 1's game goes on untouched, and
when shard 0's process is started again its game resumes and both games finish, every
action stored once and in order. Then a game started by a bot on SQLite is copied into
PostgreSQL (``tuque-bot copy-database``) and finished there by the sharded bot.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy
from e2e import action_buttons
from test_process import HANG_GUARD, descendants, gone_within, readies

from bot.__main__ import main
from bot.store import GameStatus, Store
from engine.game import RECORD_FORMAT, RECORD_VERSION, Game
from tests.discord_double import DiscordDouble, StoredMessage
from tests.discord_double.models import Channel, Guild, User
from tests.postgres import PostgresServer

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).with_name("launch_bot.py")
SHARDS = 2


@dataclass
class Room:
    """A guild on one shard, with a channel and a member who plays there."""

    guild: Guild
    channel: Channel
    member: User


@asynccontextmanager
async def bot_process(
    double: DiscordDouble, folder: Path, database: str | Path, shard: int | None
) -> AsyncIterator[subprocess.Popen[bytes]]:
    """``tuque-bot`` for one shard of ``SHARDS`` (None: unsharded) on ``database`` (a
    PostgreSQL URL or an SQLite path), connected to the double and ready."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": double.token,
        "COMPUTER_MOVE_DELAY_SECONDS": "0",
        "TABLE_EDIT_DELAY_SECONDS": "0",
        "COMPUTER_PROCESSES": "1",
        "LOG_LEVEL": "INFO",
    }
    if isinstance(database, str):
        env["DATABASE_URL"] = database
    else:
        env["DATABASE_PATH"] = str(database)
    if shard is not None:
        env |= {"SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard)}
    # The launcher notes each READY here (discord.py holds it until the guilds have come).
    ready_file = folder / f"ready-{shard}.log"
    env["LAUNCH_READY_FILE"] = str(ready_file)
    before = readies(ready_file)
    log = (folder / f"bot-{shard}.log").open("ab")
    process = subprocess.Popen(
        [sys.executable, str(LAUNCHER), double.api_url, double.gateway_url],
        env=env,
        cwd=folder,
        stderr=log,
    )
    try:
        await double.wait_until(
            lambda: readies(ready_file) > before or process.poll() is not None,
            timeout=HANG_GUARD,
        )
        assert process.poll() is None, "the bot stopped before it was ready"
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=HANG_GUARD)
        log.close()


def newest_hand(double: DiscordDouble, user: User) -> StoredMessage | None:
    """``user``'s newest hand message if it shows action buttons (their turn)."""
    messages = double.ephemerals_for(user)
    return messages[-1] if messages and action_buttons(messages[-1]) else None


async def act(double: DiscordDouble, room: Room, timeout: float = HANG_GUARD) -> None:
    """The member waits for their turn, then presses their first legal button."""
    await double.wait_until(lambda: newest_hand(double, room.member) is not None, timeout=timeout)
    hand = newest_hand(double, room.member)
    assert hand is not None
    rec = await double.click(room.member, hand, action_buttons(hand)[0])
    await rec.response(timeout=HANG_GUARD)


def table_of(double: DiscordDouble, room: Room) -> StoredMessage | None:
    """The room's table message (the one with "Show my hand"), once posted: in its
    game's thread, or in the room's channel where the game has none."""
    threads = [c for c in double.channels.values() if c.parent_id == room.channel.id]
    messages = sorted(
        (m for c in (room.channel, *threads) for m in double.channel_messages(c)),
        key=lambda m: m.id,
        reverse=True,
    )
    shown = (m for m in messages if any(b.label == "Show my hand" for b in m.buttons))
    return next(shown, None)


async def show_hand(double: DiscordDouble, room: Room) -> None:
    """The member asks for their hand again, as a member does after a restart (the bot
    cannot edit the hands it sent before): the table's "Show my hand", or ``/tuque hand``
    while the table is not posted yet (a game whose table post the stop cut short gets
    it at its next move)."""
    table = table_of(double, room)
    if table is None:
        rec = await double.slash(room.member, room.channel, "tuque", "hand")
        await rec.response(timeout=HANG_GUARD)
        return
    show = next(b.custom_id for b in table.buttons if b.label == "Show my hand")
    assert show is not None
    await (await double.click(room.member, table, show)).response(timeout=HANG_GUARD)


async def play_to_the_end(double: DiscordDouble, database: str, room: Room) -> None:
    """The member plays until their game in the room is over."""
    deadline = time.monotonic() + 2 * HANG_GUARD
    # One store for the whole game: opening one checks the migrations, each time.
    async with await Store.open(database) as store:
        while time.monotonic() < deadline:
            games = await games_in(store)
            if games[room.guild.id][0] != GameStatus.ACTIVE:
                return
            if newest_hand(double, room.member) is None:
                await show_hand(double, room)
            if newest_hand(double, room.member) is not None:
                await act(double, room)
            else:
                await asyncio.sleep(0.1)
    raise AssertionError(f"the game in {room.guild.name} did not end")


async def stored_games(database: str | Path) -> dict[int, tuple[str, list[int], Game]]:
    """Each guild's game in ``database``: as :func:`games_in` reads them."""
    async with await Store.open(database) as store:
        return await games_in(store)


async def games_in(store: Store) -> dict[int, tuple[str, list[int], Game]]:
    """Each guild's game: its status, its action seqs and the game they replay to."""
    found = {}
    async with store._read() as db:
        games = (await db.execute(sqlalchemy.text("SELECT * FROM games ORDER BY id"))).all()
        for game in games:
            rows = await db.execute(
                sqlalchemy.text(
                    "SELECT seq, action FROM game_actions WHERE game_id = :id ORDER BY seq"
                ),
                {"id": game.id},
            )
            logged = rows.all()
            seqs = [row.seq for row in logged]
            actions = [row.action for row in logged]
            record = {
                "format": RECORD_FORMAT,
                "version": RECORD_VERSION,
                "variant": game.variant,
                "options": json.loads(game.options),
                "seed": game.seed,
                "first_dealer": game.first_dealer,
                "actions": actions,
            }
            found[game.guild_id] = (game.status, list(seqs), Game.from_record(record))
    return found


@pytest.fixture
def rooms(double: DiscordDouble) -> list[Room]:
    """A guild on each shard, each with a channel and a member."""
    found = []
    for shard in range(SHARDS):
        guild = double.add_guild(f"Shard {shard} club", shard=(shard, SHARDS))
        found.append(
            Room(
                guild, double.add_channel(guild, "tuque"), double.add_user(f"p{shard}", guild=guild)
            )
        )
    return found


async def test_a_killed_shard_resumes_and_the_other_plays_on(
    double: DiscordDouble, rooms: list[Room], postgres: PostgresServer, tmp_path: Path
) -> None:
    database = await postgres.database()
    zero, one = rooms
    async with (
        bot_process(double, tmp_path, database, 0) as first,
        bot_process(double, tmp_path, database, 1),
    ):
        for room in rooms:
            rec = await double.slash(
                room.member, room.channel, "tuque", "bot", target=5, level="easy"
            )
            await rec.response(timeout=HANG_GUARD)
            await act(double, room)
        # Shard 0's member is to act: kill its process, and every process it started.
        await double.wait_until(
            lambda: newest_hand(double, zero.member) is not None, timeout=HANG_GUARD
        )
        family = descendants(first.pid)
        first.kill()
        first.wait(timeout=HANG_GUARD)
        assert await gone_within(family) == set()
        frozen = (await stored_games(database))[zero.guild.id]
        # Shard 1 plays on, untouched.
        for _ in range(3):
            await act(double, one)
        assert (await stored_games(database))[zero.guild.id][1] == frozen[1]
        async with bot_process(double, tmp_path, database, 0):
            await asyncio.gather(
                play_to_the_end(double, database, zero), play_to_the_end(double, database, one)
            )
    games = await stored_games(database)
    for room in rooms:
        status, seqs, game = games[room.guild.id]
        assert status == GameStatus.FINISHED
        assert seqs == list(range(len(seqs))), "an action lost or applied twice"
        assert game.winner is not None
    assert "Traceback" not in "".join(p.read_text() for p in tmp_path.glob("bot-*.log"))


async def test_a_game_begun_on_sqlite_finishes_on_postgresql(
    double: DiscordDouble, rooms: list[Room], postgres: PostgresServer, tmp_path: Path
) -> None:
    sqlite = tmp_path / "data" / "tuque.db"
    sqlite.parent.mkdir()
    zero, one = rooms
    async with bot_process(double, tmp_path, sqlite, None) as bot:
        for room in rooms:
            rec = await double.slash(
                room.member, room.channel, "tuque", "bot", target=5, level="easy"
            )
            await rec.response(timeout=HANG_GUARD)
            await act(double, room)
        # The games are under way, each with its table posted, when the bot stops.
        await double.wait_until(lambda: all(table_of(double, r) for r in rooms), timeout=HANG_GUARD)
        bot.terminate()
        assert bot.wait(timeout=HANG_GUARD) == 0
    begun = await stored_games(sqlite)
    database = await postgres.database(migrated=False)
    assert await asyncio.to_thread(main, ["copy-database", str(sqlite), database]) == 0
    copied = await stored_games(database)
    assert {g: (s, q) for g, (s, q, _) in copied.items()} == {
        g: (s, q) for g, (s, q, _) in begun.items()
    }
    async with (
        bot_process(double, tmp_path, database, 0),
        bot_process(double, tmp_path, database, 1),
    ):
        await asyncio.gather(
            play_to_the_end(double, database, zero), play_to_the_end(double, database, one)
        )
    for status, seqs, game in (await stored_games(database)).values():
        assert status == GameStatus.FINISHED and game.winner is not None
        assert seqs == list(range(len(seqs)))
