"""The bot split into shard processes: each plays only its shard's guilds' games.

Two ``TuqueBot``s in one test stand for two ``tuque-bot`` processes, shard 0 and shard 1
of 2, on one shared database. The double routes each guild's events and interactions
to the session of that guild's shard, as Discord does. Guild ids are made for a shard
(``(id >> 22) % 2``). Each test runs on SQLite and on PostgreSQL (``database``).
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from e2e import (
    REQUESTS_PER_SECOND,
    Table,
    challenge_and_accept,
    newest_hand,
    play_turn,
    table_message,
)

from bot import emojis
from bot.buttons import OTHER_PROCESS
from bot.client import TuqueBot, process_shards
from bot.faces import EMOJI_NAMES
from bot.settings import Settings
from bot.store import Autoplay
from bot.store.base import Shards
from tests.discord_double import DiscordDouble

GLOBAL_SYNC = "PUT /applications/{application_id}/commands"


@pytest.fixture
def tables(double: DiscordDouble, database: str | Path) -> list[Table]:
    """A card club on shard 0 and one on shard 1 (of 2), each with its own members, and
    one database for both (``Table.db`` holds the database URL or path)."""
    found = []
    for shard in (0, 1):
        guild = double.add_guild(f"Club {shard}", shard=(shard, 2))
        channel = double.add_channel(guild, "tuque")
        users = [double.add_user(f"{name}{shard}", guild=guild) for name in ("ann", "bob", "eve")]
        found.append(Table(double, guild, channel, *users, db=database))  # type: ignore[arg-type]
    return found


def shard_settings(t: Table, shard: int, **settings_: Any) -> Settings:
    """Shard ``shard`` of 2 on the tables' database; commands synced globally (the two
    clubs share them); computers move at once, and table edits are not delayed."""
    values: dict[str, Any] = {
        "discord_token": "unused-by-the-double",
        "shard_count": 2,
        "shard_ids": [shard],
        "computer_move_delay_seconds": 0,
        "table_edit_delay_seconds": 0,
        "discord_requests_per_second": REQUESTS_PER_SECOND,
        "dev_guild_id": None,
        **settings_,
    }
    where = str(t.db)
    values["database_url" if where.startswith("postgresql") else "database_path"] = where
    return Settings(**values)


@asynccontextmanager
async def shard_bot(t: Table, shard: int, **options: Any) -> AsyncIterator[TuqueBot]:
    """One shard process against the double: shard ``shard`` of 2 (``options`` go to
    ``TuqueBot``); computers think and tables are drawn in threads."""
    pool = ThreadPoolExecutor(max_workers=1)
    drawer = ThreadPoolExecutor(max_workers=1)
    bot = TuqueBot(
        shard_settings(t, shard),
        executor=pool,
        drawer=drawer,
        guild_ready_timeout=0.05,
        **options,
    )
    try:
        async with t.double.running(bot):
            yield bot
    finally:
        pool.shutdown(wait=True)
        drawer.shutdown(wait=True)


@asynccontextmanager
async def both_shards(tables: list[Table]) -> AsyncIterator[list[TuqueBot]]:
    """Shard 0's process and shard 1's, started one after the other."""
    async with AsyncExitStack() as stack:
        yield [await stack.enter_async_context(shard_bot(t, n)) for n, t in enumerate(tables)]


def running(bot: TuqueBot) -> set[int]:
    """The ids of the games this process runs."""
    return set(bot.sessions._sessions)


def moves(bot: TuqueBot, game_id: int) -> int:
    session = bot.sessions.session(game_id)
    assert session is not None
    return len(session.game.log)


@pytest.fixture(autouse=True)
def quick_face_retries(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A shard process that finds faces missing looks again after 0.1 s, not 30 s."""
    monkeypatch.setattr(emojis, "RETRY_FIRST", 0.1)
    yield


async def test_each_shard_process_plays_only_its_guilds_games(
    tables: list[Table], caplog: pytest.LogCaptureFixture
) -> None:
    """A game in each club: the process of its shard has it and plays it; the other one
    never sees it. The start-up line names each process's shard and database."""
    rng = random.Random(22)
    with caplog.at_level(logging.INFO, logger="bot.client"):
        async with both_shards(tables) as bots:
            games = [await challenge_and_accept(t, target=5) for t in tables]
            for bot, game_id, other in zip(bots, games, reversed(games), strict=True):
                assert running(bot) == {game_id}
                assert bot.sessions.session(other) is None
            for _ in range(4):
                for t, bot, game_id in zip(tables, bots, games, strict=True):
                    before = moves(bot, game_id)
                    assert await play_turn(t, bot, game_id, rng)
                    assert moves(bot, game_id) > before
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("this process")]
    backend = "postgresql" if str(tables[0].db).startswith("postgresql") else "sqlite"
    # The tests run the editable install: the pure sources.
    engine = "pure Python (not compiled)"
    assert lines == [
        f"this process runs shard 0 of 2; database: {backend}; engine: {engine}",
        f"this process runs shard 1 of 2; database: {backend}; engine: {engine}",
    ]


async def test_a_restarted_shard_process_restores_only_its_own_games(
    tables: list[Table],
) -> None:
    """Both clubs have a game under way; each shard process, started alone, restores
    its own club's game only, and its member goes on with it."""
    rng = random.Random(7)
    async with both_shards(tables):
        games = [await challenge_and_accept(t, target=5) for t in tables]
    for shard, t in enumerate(tables):
        async with shard_bot(t, shard) as bot:
            assert running(bot) == {games[shard]}
            before = moves(bot, games[shard])
            assert await play_turn(t, bot, games[shard], rng)
            assert moves(bot, games[shard]) > before


async def test_only_the_process_of_shard_0_syncs_and_uploads(
    tables: list[Table], caplog: pytest.LogCaptureFixture
) -> None:
    """Shard 1's process, started first, neither syncs the commands nor uploads a card
    face: it shows text until shard 0's process has uploaded each face once, then
    finds them."""
    double = tables[0].double
    with caplog.at_level(logging.WARNING, logger="bot.emojis"):
        async with shard_bot(tables[1], 1) as second:
            assert double.rest_calls[GLOBAL_SYNC] == 0 and double.emoji_uploads == []
            assert second.faces.missing == list(EMOJI_NAMES)
            async with shard_bot(tables[0], 0) as first:
                assert first.faces.missing == []
                await double.wait_until(lambda: not second.faces.missing, timeout=10)
                assert second.faces == first.faces
    assert double.rest_calls[GLOBAL_SYNC] == 1
    assert sorted(double.emoji_uploads) == sorted(EMOJI_NAMES)
    # Faces on their way from the other process are no warning.
    assert [r for r in caplog.records if r.name == "bot.emojis"] == []


async def test_an_interaction_from_another_shards_guild_is_refused(
    tables: list[Table],
) -> None:
    """Discord never routes it, but a process that gets a click or a command from a guild
    of another shard refuses it, ephemerally, and plays nothing: here the process of shard
    0 (of 2) connects as the only shard, so the double sends it club 1's interactions."""
    t = tables[1]
    async with both_shards(tables) as bots:
        game_id = await challenge_and_accept(t, target=5)
        session = bots[1].sessions.session(game_id)
        assert session is not None
        log_length = len(session.game.log)
    async with shard_bot(t, 0, shard_count=1, shard_ids=[0]) as misrouted:
        assert misrouted.sessions.session(game_id) is None
        to_act = next(u for u in (t.ann, t.bob) if newest_hand(t, u) is not None)
        hand = newest_hand(t, to_act)
        assert hand is not None
        table = table_message(t)
        show = next(b.custom_id for b in table.buttons if b.label == "Show my hand")
        assert show is not None
        clicks = [
            await t.double.click(to_act, hand, hand.buttons[0].custom_id or ""),
            await t.double.click(to_act, table, show),
            await t.double.slash(t.ann, t.channel, "tuque", "bot", target=5),
        ]
        for rec in clicks:
            await rec.settled()
            assert rec.original is not None and rec.original.ephemeral
            assert rec.original.text == OTHER_PROCESS
        assert running(misrouted) == set()
    async with shard_bot(t, 1) as bot:
        session = bot.sessions.session(game_id)
        assert session is not None and len(session.game.log) == log_length
        assert re.search(r"#\d+", table_message(t).text)


async def test_an_autoplay_choice_made_through_the_other_process_reaches_the_game(
    tables: list[Table],
) -> None:
    """Ann of club 1 plays there (shard 1) and chooses ``/tuque autoplay forced`` in club
    0 (shard 0): a member's choice holds in every server, so shard 1's process takes it
    up at its next sweep."""
    club0, club1 = tables
    ann = club1.ann
    club0.double.add_member(club0.guild, ann)
    async with both_shards(tables) as (first, second):
        game_id = await challenge_and_accept(club1, target=5)
        session = second.sessions.session(game_id)
        assert session is not None
        seat = session.table.seat_of(ann.id)
        assert seat is not None and session.table.autoplay[seat] is Autoplay.LAST
        await (
            await club0.double.slash(ann, club0.channel, "tuque", "autoplay", when="forced")
        ).settled()
        games = second.get_cog("Games")
        assert games is not None
        await games.sweep()  # type: ignore[attr-defined]
        assert session.table.autoplay[seat] is Autoplay.FORCED
        assert first.sessions.session(game_id) is None


def test_the_shards_of_a_process_follow_its_settings(tmp_path: Path) -> None:
    """SHARD_IDS of SHARD_COUNT; every shard of the count without SHARD_IDS; and without
    SHARD_COUNT every guild (discord.py runs all the shards Discord recommends here)."""

    def shards(**values: Any) -> Shards:
        return process_shards(Settings(database_path=tmp_path / "tuque.db", **values))

    assert shards(shard_count=2, shard_ids=[1]) == Shards(frozenset({1}), 2)
    assert shards(shard_count=3) == Shards.all(3)
    alone = shards(shard_count=None, shard_ids=None)
    assert alone == Shards.all() and all(alone.owns(n << 22) for n in range(5))
