"""The double's rate limits: Discord's buckets and headers, 429 with ``retry_after``,
the global limit and 30046 for hour-old messages, against raw requests and against the
real discord.py client (which must wait them out without ever meeting a 429)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import MappingProxyType

import aiohttp
import discord
import pytest

from tests.discord_double import DiscordDouble
from tests.discord_double.ratelimits import Limit, Limiter, RateLimits, Refusal

POST = "POST /channels/{channel_id}/messages"
PATCH = "PATCH /channels/{channel_id}/messages/{message_id}"


async def _started(limits: RateLimits) -> AsyncIterator[DiscordDouble]:
    double = DiscordDouble(rate_limits=limits)
    await double.start()
    try:
        yield double
    finally:
        await double.close()
    double.check()


ROUTES = MappingProxyType({POST: Limit(2, 0.6), PATCH: Limit(2, 0.6)})
"""Two posts and two edits per 0.6 s in a channel."""


@pytest.fixture
async def tight(log_guard: object) -> AsyncIterator[DiscordDouble]:
    """`ROUTES`, and a global limit of four a second (too few for a client's login)."""
    async for double in _started(RateLimits(routes=ROUTES, global_per_second=4)):
        yield double


@pytest.fixture
async def paced(log_guard: object) -> AsyncIterator[DiscordDouble]:
    """`ROUTES`, and one edit of an hour-old message an hour in a channel."""
    async for double in _started(RateLimits(routes=ROUTES, old_message_edits=Limit(1, 3600.0))):
        yield double


def _auth(double: DiscordDouble) -> dict[str, str]:
    return {"Authorization": f"Bot {double.token}"}


async def test_a_bucket_answers_with_its_headers_and_refuses_past_its_limit(
    tight: DiscordDouble,
) -> None:
    guild = tight.add_guild("Dev")
    one, two = tight.add_channel(guild, "one"), tight.add_channel(guild, "two")
    async with aiohttp.ClientSession() as session:
        answers = []
        for channel in (one, one, one, two):
            url = f"{tight.api_url}/channels/{channel.id}/messages"
            async with session.post(url, json={"content": "hi"}, headers=_auth(tight)) as resp:
                answers.append((resp.status, dict(resp.headers), await resp.json()))
    (s1, h1, _), (s2, h2, _), (s3, h3, body), (s4, h4, _) = answers
    assert (s1, s2, s3, s4) == (200, 200, 429, 200)
    assert (h1["X-RateLimit-Limit"], h1["X-RateLimit-Remaining"]) == ("2", "1")
    assert h2["X-RateLimit-Remaining"] == "0"
    assert h1["X-RateLimit-Bucket"] == h3["X-RateLimit-Bucket"] == h4["X-RateLimit-Bucket"]
    assert 0 < float(h2["X-RateLimit-Reset-After"]) <= 0.6
    # The refusal: what discord.py needs to wait it out rather than take it for a ban.
    assert body["global"] is False and 0 < body["retry_after"] <= 0.6
    assert h3["Via"] and h3["X-RateLimit-Scope"] == "user"
    # Another channel is another bucket: its first post passes.
    assert h4["X-RateLimit-Remaining"] == "1"
    assert [r.route for r in tight.rate_limited] == [POST]
    assert len(tight.channel_messages(one)) == 2


async def test_the_global_limit_spans_routes_but_not_interactions(tight: DiscordDouble) -> None:
    guild = tight.add_guild("Dev")
    channels = [tight.add_channel(guild, f"c{i}") for i in range(5)]
    async with aiohttp.ClientSession() as session:
        statuses, last = [], {}
        for channel in channels:
            url = f"{tight.api_url}/channels/{channel.id}/messages"
            async with session.post(url, json={"content": "hi"}, headers=_auth(tight)) as resp:
                statuses.append(resp.status)
                last = {**resp.headers, **(await resp.json())}
    assert statuses == [200, 200, 200, 200, 429]
    assert last["global"] is True and last["X-RateLimit-Global"] == "true"
    assert last["X-RateLimit-Scope"] == "global"
    assert [r.scope for r in tight.rate_limited] == ["global"]


async def test_discord_py_waits_out_the_buckets_and_never_meets_a_429(
    paced: DiscordDouble,
) -> None:
    guild = paced.add_guild("Dev")
    channel = paced.add_channel(guild, "table")
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    async with paced.running(client):
        target = client.get_partial_messageable(channel.id)
        for n in range(5):
            await target.send(f"post {n}")
    posts = [r for r in paced.requests if r.route == "/channels/{channel_id}/messages"]
    assert [r.status for r in posts] == [200] * 5
    assert paced.rate_limited == []
    # Two a window: the fifth went out two windows after the first.
    assert posts[4].at - posts[0].at >= 2 * 0.6 - 0.05


async def test_an_hour_old_message_has_few_edits_left_30046(paced: DiscordDouble) -> None:
    guild = paced.add_guild("Dev")
    channel = paced.add_channel(guild, "table")
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    async with paced.running(client):
        message = await client.get_partial_messageable(channel.id).send("table")
        stored = paced.message(message.id)
        await message.edit(content="young: any number of edits")
        await message.edit(content="young: any number of edits")
        paced.age_message(stored, 3601)
        await message.edit(content="old: the first edit passes")
        with pytest.raises(discord.HTTPException) as raised:
            await message.edit(content="old: the second is refused")
    assert (raised.value.status, raised.value.code) == (429, 30046)
    assert stored.content == "old: the first edit passes"
    assert [r.scope for r in paced.rate_limited] == ["30046"]


async def test_the_limits_can_be_turned_off() -> None:
    double = DiscordDouble(rate_limits=None)
    await double.start()
    try:
        guild = double.add_guild("Dev")
        channel = double.add_channel(guild, "table")
        async with aiohttp.ClientSession() as session:
            url = f"{double.api_url}/channels/{channel.id}/messages"
            for _ in range(60):
                async with session.post(url, json={"content": "x"}, headers=_auth(double)) as r:
                    assert r.status == 200
    finally:
        await double.close()
    assert double.rate_limited == []


def test_the_global_limit_counts_a_request_when_it_arrived() -> None:
    """Discord counts a request in the second it arrives: fifty requests that arrived
    over a second but were counted together (the double's loop busy reading bodies) do
    not refuse one that arrives a tenth of a second later, and fifty that arrived within
    a second do."""
    clock = [1.5]
    limiter = Limiter(RateLimits(global_per_second=50), lambda: clock[0])
    edit = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
    for i in range(50):
        params = {"channel_id": str(i), "message_id": "1"}
        assert not isinstance(limiter.take(*edit, params, 0.5 + 0.02 * i), Refusal)
    clock[0] = 1.6
    later = limiter.take(*edit, {"channel_id": "50", "message_id": "1"}, 1.6)
    assert not isinstance(later, Refusal)
    clock[0] = 1.61
    refused = limiter.take(*edit, {"channel_id": "51", "message_id": "1"}, 1.49)
    assert isinstance(refused, Refusal) and refused.scope == "global"
