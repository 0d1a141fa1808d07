"""The Discord double when Discord does the work and the answer is lost, and its
``enforce_nonce``, which makes a retried post safe: checked with the real discord.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest
from discord.http import Route

from tests.discord_double import DiscordDouble
from tests.discord_double.models import Channel

POST = "POST /channels/{channel_id}/messages"


@pytest.fixture
async def posting(double: DiscordDouble) -> AsyncIterator[tuple[discord.TextChannel, Channel]]:
    """A plain client, running against the double, and a channel it can post in."""
    guild = double.add_guild("Dev")
    channel = double.add_channel(guild, "tuque")
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    async with double.running(client):
        found = client.get_channel(channel.id)
        assert isinstance(found, discord.TextChannel)
        yield found, channel


def _created(double: DiscordDouble, channel: Channel) -> list[str]:
    return [m.content for m in double.channel_messages(channel)]


async def test_a_repeated_nonce_returns_the_first_message(
    double: DiscordDouble, posting: tuple[discord.TextChannel, Channel]
) -> None:
    """``enforce_nonce`` (discord.py sends it with every nonce): the same nonce in the
    same channel answers 200 with the message made first, and creates nothing."""
    client_channel, channel = posting
    first = await client_channel.send("hand 1", nonce="g1h1")
    again = await client_channel.send("hand 1, again", nonce="g1h1")
    other = await client_channel.send("hand 2", nonce="g1h2")
    assert again.id == first.id and again.content == "hand 1" and again.nonce == "g1h1"
    assert other.id != first.id
    assert _created(double, channel) == ["hand 1", "hand 2"]
    statuses = [r.status for r in double.requests if f"{r.method} {r.route}" == POST]
    assert statuses == [200, 200, 200]


async def test_a_nonce_without_enforce_nonce_does_not_deduplicate(
    double: DiscordDouble, posting: tuple[discord.TextChannel, Channel]
) -> None:
    """A nonce alone only echoes back (Discord's default): two posts, two messages."""
    client_channel, channel = posting
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    for _ in range(2):
        await client_channel._state.http.request(route, json={"content": "hi", "nonce": "n1"})
    assert _created(double, channel) == ["hi", "hi"]


async def test_a_deleted_messages_nonce_makes_a_new_message(
    double: DiscordDouble, posting: tuple[discord.TextChannel, Channel]
) -> None:
    client_channel, channel = posting
    first = await client_channel.send("table", nonce="t1")
    await first.delete()
    second = await client_channel.send("table", nonce="t1")
    assert second.id != first.id
    assert _created(double, channel) == ["table"]


async def test_a_performed_fault_posts_and_loses_the_answer(
    double: DiscordDouble, posting: tuple[discord.TextChannel, Channel]
) -> None:
    """A 503 after the write: discord.py raises, yet the message is there; the retry with
    its nonce gets that message back, and there is one message."""
    client_channel, channel = posting
    fault = double.fail(POST, 503, performed=True)
    with pytest.raises(discord.DiscordServerError):
        await client_channel.send("result", nonce="g1h1")
    assert _created(double, channel) == ["result"]
    message = await client_channel.send("result", nonce="g1h1")
    assert message.id == double.channel_messages(channel)[0].id
    assert fault.hits == 1 and _created(double, channel) == ["result"]


async def test_discord_pys_own_retry_of_a_performed_500_keeps_one_message(
    double: DiscordDouble, posting: tuple[discord.TextChannel, Channel]
) -> None:
    """discord.py retries a 500 by itself with the same payload, nonce included."""
    client_channel, channel = posting
    double.fail(POST, 500, performed=True)
    message = await client_channel.send("once")
    assert _created(double, channel) == ["once"]
    assert message.id == double.channel_messages(channel)[0].id


async def test_a_held_answer_is_a_timeout_after_the_write(
    double: DiscordDouble, posting: tuple[discord.TextChannel, Channel]
) -> None:
    """``hold`` longer than the client waits: a timeout, and the post was made."""
    client_channel, channel = posting
    double.fail(POST, 503, performed=True, hold=1.0)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.2):
            await client_channel.send("late", nonce="n-late")
    assert _created(double, channel) == ["late"]
    await double.idle()
