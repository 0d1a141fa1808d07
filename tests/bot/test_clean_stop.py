"""A clean stop under load (issue 41): the bot ends its sweepers and timers before it
closes the store, so that a stop in the middle of play logs no error.

The bot runs against the Discord double with games going (a member and computers, two
members), a challenge and a lobby open, computer moves and turn pings waiting on the
clock, and both cogs' sweepers running back to back: a sweep is due at every moment,
so one is due exactly as the bot closes the store, whatever the timing of the stop.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from e2e import (
    Table,
    challenge_and_accept,
    dealt_from,
    game_posts,
    offered,
    running_bot,
)

import bot as bot_package
from bot.client import TuqueBot
from bot.cogs import TuqueCog
from bot.sessions import Session
from tests.discord_double import StoredMessage
from tests.discord_double.models import Channel, User

BOT_CODE = Path(bot_package.__file__).parent
"""The bot's package: a task running code from there may still reach the store."""


def bot_tasks() -> list[asyncio.Task[object]]:
    """The pending tasks (other than the caller) in which the bot's own code runs: a
    sweep, a computer move, a table edit, a ping, a delivery."""
    return [
        task
        for task in asyncio.all_tasks()
        if task is not asyncio.current_task()
        and not task.done()
        and any(
            Path(frame.f_code.co_filename).is_relative_to(BOT_CODE) for frame in task.get_stack()
        )
    ]


def hand_of(t: Table, user: User, game_id: int, seq: int) -> StoredMessage:
    """``user``'s newest hand message of ``game_id`` with actions for turn ``seq``."""
    return next(m for m in reversed(t.double.ephemerals_for(user)) if offered(m, game_id, seq))


async def computer_game(t: Table, bot: TuqueBot, user: User, channel: Channel) -> Session:
    """``user`` starts a game with computers in ``channel``; returns it once the
    computers have moved and it is the member's turn."""
    await (await t.double.slash(user, channel, "tuque", "bot")).settled()
    (session,) = bot.sessions.games_of(t.guild.id, channel.id, user.id)
    await t.double.wait_until(lambda: not session.table.bot_to_move, timeout=10)
    return session


async def test_a_stop_mid_play_logs_no_error(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped while games play, a challenge and a lobby wait and every sweeper ticks,
    the bot logs no error and leaves none of its tasks running."""
    t = table
    dealt_from(monkeypatch, 5)
    # Members are reminded a tenth of a second into each turn: the games' sweep finds
    # turns due, and reminders are posted while the bot stops.
    async with running_bot(t, turn_reminder_minutes=0.002, turn_away_minutes=60) as bot:
        second = t.double.add_channel(t.guild, "tuque-2")
        third = t.double.add_channel(t.guild, "tuque-3")
        members_game = await challenge_and_accept(t)
        await computer_game(t, bot, t.bob, second)
        anns = await computer_game(t, bot, t.ann, third)
        # Ann and Bob play already: Eve's challenge to Bob stays open.
        await (await t.double.slash(t.eve, second, "tuque", "challenge", opponent=t.bob)).settled()
        assert any("Accept" in str(m.buttons) for m in t.double.channel_messages(second))
        await (await t.double.slash(t.eve, third, "tuque", "table")).settled()

        # Ann plays a card; the computers' next move then waits out its delay as the bot
        # stops (with no delay it would be over before the stop).
        bot.sessions.computers.move_delay = 3600.0
        seq = len(anns.game.log)
        hand = hand_of(t, t.ann, anns.id, seq)
        await (await t.double.click(t.ann, hand, offered(hand, anns.id, seq)[0][0])).settled()
        assert anns.computer is not None and not anns.computer.done()

        cogs = [c for c in bot.cogs.values() if isinstance(c, TuqueCog) and c.sweeper.is_running()]
        assert sorted(c.qualified_name for c in cogs) == ["Events", "Games", "Lobbies"]
        sweepers = [c.sweeper for c in cogs]
        for sweeper in sweepers:
            sweeper.change_interval(seconds=0)
        # The members' game's sweep reminds the member on turn: the timers are live.
        reminder = f"your turn in game #{members_game}"
        await t.double.wait_until(lambda: any(reminder in m.text for m in game_posts(t)), 10)
        tasks = [s.get_task() for s in sweepers]

    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []
    assert all(task is not None and task.done() for task in tasks)
    assert bot_tasks() == []
