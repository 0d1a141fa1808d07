"""Start-up when Discord says no: a refused command sync is one log line, and the bot
serves on with the commands Discord already had."""

from __future__ import annotations

import asyncio
import logging
import re

import pytest
from e2e import Table, running_bot

from bot import client

GUILD_SYNC = "PUT /applications/{application_id}/guilds/{guild_id}/commands"


def _client_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bot.client" and r.levelno >= logging.WARNING]


async def test_a_refused_command_sync_is_one_line_and_the_bot_serves_on(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord answers the sync with 400: one error line naming the sync and Discord's
    answer, no traceback; the bot is ready, and the commands Discord kept from the last
    start work (a game against the computer starts)."""
    t = table
    async with running_bot(t):
        pass
    synced = t.double.synced_commands(t.guild)
    fault = t.double.fail(GUILD_SYNC, 400)
    with caplog.at_level(logging.INFO, logger="bot"):
        async with running_bot(t) as bot:
            assert bot.is_ready()
            rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", target=5)
            await rec.settled()
            assert rec.original is not None
            assert re.search(r"#(\d+)", rec.original.text), rec.original.text
    assert fault.hits == 1
    assert t.double.synced_commands(t.guild) == synced
    (line,) = _client_lines(caplog)
    assert line.levelno == logging.ERROR and line.exc_info is None
    message = line.getMessage()
    assert message.startswith("slash commands not synced") and "400" in message
    assert "\n" not in message


async def test_a_first_start_whose_sync_fails_still_runs(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """No commands yet and a 503 on the sync: the bot starts all the same."""
    t = table
    t.double.fail(GUILD_SYNC, 503)
    with caplog.at_level(logging.INFO, logger="bot"):
        async with running_bot(t) as bot:
            assert bot.is_ready() and not bot.is_closed()
    assert t.double.synced_commands(t.guild) == []
    (line,) = _client_lines(caplog)
    assert "503" in line.getMessage() and line.exc_info is None


async def test_a_sync_that_failed_is_tried_again_and_a_refused_one_is_not(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 503 (twice) on the sync: the bot tries again in the background, pauses doubling,
    until Discord takes the commands. A 400 is Discord's verdict: not tried again."""
    t = table
    monkeypatch.setattr(client, "SYNC_RETRY_FIRST", 0.05)
    fault = t.double.fail(GUILD_SYNC, 503, times=3)
    async with running_bot(t):
        await t.double.wait_until(lambda: t.double.synced_commands(t.guild), timeout=5)
    assert fault.hits == 3
    refused = t.double.fail(GUILD_SYNC, 400, times=2)
    async with running_bot(t):
        await asyncio.sleep(0.3)
    assert refused.hits == 1
    t.double.take_problems()
