"""The double's guild scheduled events, driven by the real discord.py client: the REST
routes under Discord's rules (status changes, entity types, permissions, the users list's
pages, rate limits), the gateway's scheduled-event dispatches behind their intent, and the
scripting API by which members mark interest and edit or cancel events in Discord."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import aiohttp
import discord
import pytest
from discord import EntityType, EventStatus, PrivacyLevel

from tests.discord_double import DiscordDouble, ScriptError
from tests.discord_double.models import (
    ACTIVE,
    CANCELED,
    COMPLETED,
    CONNECT,
    CREATE_EVENTS,
    EVERYONE_PERMISSIONS,
    GUILD_VOICE,
    MANAGE_EVENTS,
    SCHEDULED,
    Guild,
)
from tests.discord_double.ratelimits import Limit, RateLimits
from tests.discord_double.spec import spec

HOUR = datetime.timedelta(hours=1)
CREATE = "POST /guilds/{guild_id}/scheduled-events"


class EventsClient(discord.Client):
    """A client that notes every scheduled-event event discord.py dispatches to it, as
    (what, event id, detail)."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.seen: list[tuple[str, int, Any]] = []

    async def on_scheduled_event_create(self, event: discord.ScheduledEvent) -> None:
        self.seen.append(("create", event.id, event.name))

    async def on_scheduled_event_update(
        self, before: discord.ScheduledEvent, after: discord.ScheduledEvent
    ) -> None:
        self.seen.append(("update", after.id, (after.name, after.status)))

    async def on_scheduled_event_delete(self, event: discord.ScheduledEvent) -> None:
        self.seen.append(("delete", event.id, event.name))

    async def on_scheduled_event_user_add(
        self, event: discord.ScheduledEvent, user: discord.User
    ) -> None:
        self.seen.append(("user_add", event.id, user.id))

    async def on_scheduled_event_user_remove(
        self, event: discord.ScheduledEvent, user: discord.User
    ) -> None:
        self.seen.append(("user_remove", event.id, user.id))

    def of(self, what: str) -> Callable[[], list[tuple[int, Any]]]:
        """A predicate's source: the (event id, detail) of each `what` seen so far."""
        return lambda: [(event, detail) for kind, event, detail in self.seen if kind == what]


def _client() -> EventsClient:
    """The intents a bot running events asks for: scheduled events (not privileged) and
    members, without which discord.py has no user to hand a USER_ADD (it drops it)."""
    return EventsClient(discord.Intents(guilds=True, guild_scheduled_events=True, members=True))


async def _create_external(guild: discord.Guild, name: str) -> discord.ScheduledEvent:
    start = discord.utils.utcnow() + HOUR
    return await guild.create_scheduled_event(
        name=name,
        start_time=start,
        end_time=start + 3 * HOUR,
        entity_type=EntityType.external,
        privacy_level=PrivacyLevel.guild_only,
        location="#euchre",
    )


async def test_an_external_event_from_creation_to_completion(double: DiscordDouble) -> None:
    """The bot creates an external event, edits it, members mark interest (USER_ADD,
    USER_REMOVE, the users list), starts and completes it; Discord refuses an active
    event's cancellation and any change once it is over."""
    club = double.add_guild("Card club")
    ann = double.add_user("ann", guild=club)
    bob = double.add_user("bob", guild=club)
    client = _client()
    async with double.running(client):
        guild = client.get_guild(club.id)
        assert guild is not None
        event = await _create_external(guild, "Euchre night")
        stored = double.scheduled_event(event.id)
        assert (stored.creator, stored.location, stored.status) == (
            double.bot_user,
            "#euchre",
            SCHEDULED,
        )
        await double.wait_until(lambda: client.of("create")() == [(event.id, "Euchre night")])

        event = await event.edit(name="Euchre night: 4 rounds", location="#euchre-night")
        assert (stored.name, stored.location) == ("Euchre night: 4 rounds", "#euchre-night")

        await double.mark_interested(ann, stored)
        await double.mark_interested(bob, stored)
        await double.mark_not_interested(bob, stored)
        await double.wait_until(lambda: client.of("user_remove")() == [(event.id, bob.id)])
        assert client.of("user_add")() == [(event.id, ann.id), (event.id, bob.id)]
        assert [user.id async for user in event.users()] == [ann.id]
        assert (await guild.fetch_scheduled_event(event.id)).user_count == 1

        event = await event.start()
        assert event.status is EventStatus.active and stored.status == ACTIVE
        with pytest.raises(discord.HTTPException) as refused:
            await event.edit(status=EventStatus.cancelled)
        assert (refused.value.status, refused.value.code) == (400, 50035)
        event = await event.end()
        assert stored.status == COMPLETED
        with pytest.raises(discord.HTTPException) as finished:
            await event.edit(name="Once more")
        assert (finished.value.status, finished.value.code) == (400, 180000)
        await double.wait_until(lambda: len(client.of("update")()) == 3)
        statuses = [status for _, (_, status) in client.of("update")()]
        assert statuses == [EventStatus.scheduled, EventStatus.active, EventStatus.completed]
    with pytest.raises(ScriptError):
        await double.mark_interested(bob, stored)


async def test_members_act_on_events_in_discord_and_the_bot_hears_it(
    double: DiscordDouble,
) -> None:
    """An event a member made before the bot connected comes in GUILD_CREATE; members'
    edits and cancellations in Discord reach the bot as updates; the bot cancels its own
    event and deletes another, and a member's deletion leaves its id unknown."""
    club = double.add_guild("Card club")
    host = double.add_user("host", guild=club)
    host_role = double.add_role(club, "hosts", permissions=MANAGE_EVENTS | CREATE_EVENTS)
    club.members[host.id].role_ids.append(host_role.id)
    start = datetime.datetime.now(datetime.UTC) + HOUR
    theirs = double.add_scheduled_event(
        club, host, "Friday euchre", start=start, end=start + HOUR, location="Back room"
    )
    client = _client()
    async with double.running(client):
        guild = client.get_guild(club.id)
        assert guild is not None
        assert [e.name for e in guild.scheduled_events] == ["Friday euchre"]

        await double.edit_scheduled_event(theirs, host, name="Friday euchre night")
        # discord.py updates its cached event in place: one change at a time keeps each
        # update's state apart.
        await double.wait_until(lambda: len(client.of("update")()) == 1)
        await double.cancel_scheduled_event(theirs, host)
        await double.wait_until(lambda: len(client.of("update")()) == 2)
        assert client.of("update")() == [
            (theirs.id, ("Friday euchre night", EventStatus.scheduled)),
            (theirs.id, ("Friday euchre night", EventStatus.cancelled)),
        ]
        with pytest.raises(ScriptError, match="Discord refuses"):
            await double.edit_scheduled_event(theirs, host, status=ACTIVE)

        mine = await _create_external(guild, "Saturday euchre")
        mine = await mine.cancel()
        assert double.scheduled_event(mine.id).status == CANCELED
        gone = await _create_external(guild, "Typo")
        await gone.delete()
        await double.wait_until(lambda: client.of("delete")() == [(gone.id, "Typo")])
        assert [e.name for e in await guild.fetch_scheduled_events()] == [
            "Friday euchre night",
            "Saturday euchre",
        ]

        await double.delete_scheduled_event(double.scheduled_event(mine.id), host)
        with pytest.raises(discord.NotFound) as unknown:
            await guild.fetch_scheduled_event(mine.id)
        assert unknown.value.code == 10070


async def test_without_the_intent_no_scheduled_event_reaches_the_client(
    double: DiscordDouble,
) -> None:
    """GUILD_SCHEDULED_EVENTS (1 << 16) gates all five dispatches: a client without it
    creates and starts events through REST and hears none of it. With it but without the
    members intent, discord.py drops the USER_ADD of a member it has not cached (the
    frame is sent): the users list is where such a bot learns who is interested."""
    club = double.add_guild("Card club")
    ann = double.add_user("ann", guild=club)
    bob = double.add_user("bob", guild=club)
    client = EventsClient(discord.Intents(guilds=True, members=True))
    async with double.running(client):
        guild = client.get_guild(club.id)
        assert guild is not None
        event = await _create_external(guild, "Euchre night")
        await double.mark_interested(ann, double.scheduled_event(event.id))
        await event.start()
        await double.idle()
    assert client.seen == []
    assert not [kind for kind in double.gateway_events if "SCHEDULED_EVENT" in kind]

    client = EventsClient(discord.Intents(guilds=True, guild_scheduled_events=True))
    async with double.running(client):
        await double.mark_interested(bob, double.scheduled_event(event.id))
        await double.idle()
        again = client.get_guild(club.id).get_scheduled_event(event.id)  # type: ignore[union-attr]
        assert again is not None
        assert [user.id async for user in again.users()] == sorted([ann.id, bob.id])
    assert double.gateway_events["GUILD_SCHEDULED_EVENT_USER_ADD"] == 1
    assert client.seen == []


def _set_bot_permissions(double: DiscordDouble, guild: Guild, permissions: int) -> None:
    for role_id in guild.members[double.bot_user.id].role_ids:
        guild.roles[role_id].permissions = permissions


async def test_permissions_and_each_entity_types_fields(double: DiscordDouble) -> None:
    """Creating needs Create Events (a voice event also Connect and View Channel);
    changing another's event needs Manage Events; each entity type has its required and
    forbidden fields, a start must not be past, discord.py's own default (no
    privacy_level) is refused as Discord refuses it, and a guild holds 100 uncompleted
    events."""
    club = double.add_guild("Card club")
    voice = double.add_channel(club, "Voice", kind=GUILD_VOICE)
    text = double.add_channel(club, "tuque")
    start = datetime.datetime.now(datetime.UTC) + HOUR
    theirs = double.add_scheduled_event(
        club, double.owner, "Owner's night", start=start, end=start + HOUR, location="Hall"
    )
    _set_bot_permissions(double, club, EVERYONE_PERMISSIONS)
    client = _client()
    async with double.running(client):
        guild = client.get_guild(club.id)
        assert guild is not None
        with pytest.raises(discord.Forbidden):
            await _create_external(guild, "No right")

        _set_bot_permissions(double, club, EVERYONE_PERMISSIONS | CREATE_EVENTS)
        mine = await (await _create_external(guild, "Mine")).edit(name="Still mine")
        with pytest.raises(discord.Forbidden):
            await guild.get_scheduled_event(theirs.id).edit(name="Not mine")  # type: ignore[union-attr]
        channel = guild.get_channel(voice.id)
        assert isinstance(channel, discord.VoiceChannel)
        with pytest.raises(discord.Forbidden):
            await guild.create_scheduled_event(
                name="Voice",
                start_time=start,
                channel=channel,
                privacy_level=PrivacyLevel.guild_only,
            )

        _set_bot_permissions(
            double, club, EVERYONE_PERMISSIONS | CREATE_EVENTS | MANAGE_EVENTS | CONNECT
        )
        await guild.get_scheduled_event(theirs.id).edit(name="Now mine to edit")  # type: ignore[union-attr]
        in_voice = await guild.create_scheduled_event(
            name="Voice", start_time=start, channel=channel, privacy_level=PrivacyLevel.guild_only
        )
        assert double.scheduled_event(in_voice.id).channel_id == voice.id
        forbidden = len(double.take_problems())
        assert forbidden == 3 and mine.name == "Still mine"

        later = (start + HOUR).isoformat()
        bad_bodies: list[dict[str, Any]] = [
            {"entity_type": 2},  # voice without its channel
            {"entity_type": 2, "channel_id": text.id},  # a text channel
            {"entity_type": 3, "entity_metadata": {"location": "Hall"}},  # no end
            {
                "entity_type": 3,
                "channel_id": str(voice.id),
                "entity_metadata": {"location": "Hall"},
                "scheduled_end_time": later,
            },
        ]
        past = {
            "entity_type": 3,
            "entity_metadata": {"location": "Hall"},
            "scheduled_start_time": (start - 2 * HOUR).isoformat(),
            "scheduled_end_time": later,
        }
        for body in [*bad_bodies, past]:
            payload = {
                "name": "Bad",
                "privacy_level": 2,
                "scheduled_start_time": start.isoformat(),
                **body,
            }
            with pytest.raises(discord.HTTPException) as refused:
                await client.http.create_guild_scheduled_event(club.id, **payload)
            assert refused.value.code == 50035, body
        with pytest.raises(discord.HTTPException):
            await guild.create_scheduled_event(
                name="No privacy", start_time=start, end_time=start + HOUR, location="Hall"
            )
        for n in range(97):  # with the three above: the guild's 100 uncompleted events
            double.add_scheduled_event(
                club, double.owner, f"Night {n}", start=start, end=start + HOUR, location="Hall"
            )
        with pytest.raises(discord.HTTPException) as full:
            await _create_external(guild, "One too many")
        assert full.value.code == 30038
    reasons = [
        "channel_id: This field is required",
        "channel_id: Must be a voice channel of the guild.",
        "scheduled_end_time: This field is required",
        "channel_id: An external event has no channel",
        "scheduled_start_time: Cannot schedule event in the past.",
        "against Discord's API specification (create_guild_scheduled_event)",
    ]
    problems = double.take_problems()
    assert len(problems) == len(reasons)
    for problem, reason in zip(problems, reasons, strict=True):
        assert reason in problem


async def test_the_users_list_pages_in_ascending_user_ids(double: DiscordDouble) -> None:
    """Users come in ascending id order whatever the order of interest; ``before`` gives
    the nearest below it and wins over ``after``; ``with_member`` adds the member."""
    club = double.add_guild("Card club")
    users = [double.add_user(f"player{n}", guild=club, nick=f"P{n}") for n in range(5)]
    start = datetime.datetime.now(datetime.UTC) + HOUR
    event = double.add_scheduled_event(
        club, double.owner, "Euchre night", start=start, end=start + HOUR, location="Hall"
    )
    for user in reversed(users):
        await double.mark_interested(user, event)
    ids = [user.id for user in users]
    client = _client()
    async with double.running(client):

        async def page(**params: Any) -> list[int]:
            params = {"limit": 2, "with_member": False, **params}
            found = await client.http.get_scheduled_event_users(club.id, event.id, **params)
            return [int(entry["user_id"]) for entry in found]

        assert await page(limit=100) == ids
        assert await page() == ids[:2]
        assert await page(after=ids[1]) == ids[2:4]
        assert await page(before=ids[3]) == ids[1:3]
        assert await page(before=ids[3], after=ids[0]) == ids[1:3]
        [entry] = await client.http.get_scheduled_event_users(
            club.id, event.id, limit=1, with_member=True
        )
        assert entry["member"]["nick"] == "P0"


def test_payloads_have_the_shapes_of_discords_description() -> None:
    """The double's events (each entity type, with its user count) and users-list
    entries are what Discord's OpenAPI description says it answers, closed objects."""
    double = DiscordDouble()
    club = double.add_guild("Card club")
    ann = double.add_user("ann", guild=club)
    start = datetime.datetime.now(datetime.UTC) + HOUR
    external = double.add_scheduled_event(
        club, double.owner, "Night", start=start, end=start + HOUR, location="Hall"
    )
    voice = double.add_scheduled_event(
        club,
        double.owner,
        "Voice night",
        start=start,
        channel=double.add_channel(club, "Voice", kind=GUILD_VOICE),
    )
    external.interested.append(ann.id)
    schemas = spec()
    for name, payload in (
        ("ExternalScheduledEventResponse", external.payload(with_user_count=True)),
        ("VoiceScheduledEventResponse", voice.payload()),
        ("ScheduledEventUserResponse", external.user_payload(ann, club.members[ann.id])),
    ):
        errors = list(schemas.validator(f"/components/schemas/{name}").iter_errors(payload))
        assert errors == [], (name, [e.message for e in errors])


async def test_the_routes_draw_on_their_guilds_rate_limit_bucket(log_guard: object) -> None:
    """A per-guild bucket on Create Guild Scheduled Event: the second creation in a guild
    within its window is refused 429, another guild's is not."""
    double = DiscordDouble(
        rate_limits=RateLimits(routes=MappingProxyType({CREATE: Limit(1, 60.0)}))
    )
    await double.start()
    try:
        one, two = double.add_guild("One"), double.add_guild("Two")
        start = datetime.datetime.now(datetime.UTC) + HOUR
        body = {
            "name": "Night",
            "privacy_level": 2,
            "entity_type": 3,
            "scheduled_start_time": start.isoformat(),
            "scheduled_end_time": (start + HOUR).isoformat(),
            "entity_metadata": {"location": "Hall"},
        }
        headers = {"Authorization": f"Bot {double.token}"}
        statuses = []
        async with aiohttp.ClientSession() as session:
            for guild in (one, one, two):
                url = f"{double.api_url}/guilds/{guild.id}/scheduled-events"
                async with session.post(url, json=body, headers=headers) as answer:
                    statuses.append((answer.status, answer.headers.get("X-RateLimit-Limit")))
    finally:
        await double.close()
    double.check()
    assert statuses == [(200, "1"), (429, "1"), (200, "1")]
    assert [refusal.route for refusal in double.rate_limited] == [CREATE]
