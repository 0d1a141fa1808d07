"""The double's world: users, guilds, channels, stored messages and interaction records.

Every object renders itself as the JSON payload Discord would send, so the REST routes and
the gateway share one source of truth.
"""

from __future__ import annotations

import asyncio
import datetime
import itertools
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

# Interaction types (Discord's numbering).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
APPLICATION_COMMAND_AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Message types.
DEFAULT_MESSAGE = 0
CHAT_INPUT_COMMAND_MESSAGE = 20

# Channel types.
GUILD_TEXT = 0
GUILD_VOICE = 2
GUILD_STAGE_VOICE = 13
VOICE_TYPES = frozenset({GUILD_VOICE, GUILD_STAGE_VOICE})
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})
DM = 1
GROUP_DM = 3
PRIVATE_TYPES = frozenset({DM, GROUP_DM})

# A user-installed app's interaction (``authorizing_integration_owners`` naming only the
# user's install) may send this many follow-ups (Discord's "Create Followup Message";
# error 40094 past it).
USER_INSTALL_FOLLOWUPS = 5

# Interaction tokens live 15 minutes on Discord.
TOKEN_LIFETIME = 15 * 60.0

_PERMISSION_BITS = {
    "create_instant_invite": 0,
    "add_reactions": 6,
    "view_channel": 10,
    "send_messages": 11,
    "embed_links": 14,
    "attach_files": 15,
    "read_message_history": 16,
    "mention_everyone": 17,
    "use_external_emojis": 18,
    "change_nickname": 26,
    "use_application_commands": 31,
    "create_public_threads": 35,
    "send_messages_in_threads": 38,
}
EVERYONE_PERMISSIONS = sum(1 << bit for bit in _PERMISSION_BITS.values())
CREATE_PUBLIC_THREADS = 1 << _PERMISSION_BITS["create_public_threads"]
VIEW_CHANNEL = 1 << _PERMISSION_BITS["view_channel"]
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
CONNECT = 1 << 20
MUTE_MEMBERS = 1 << 22
MOVE_MEMBERS = 1 << 24
MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44
# What `Permissions.all()` reports for a 2.7-era client: every bit Discord defines today.
ALL_PERMISSIONS = (1 << 51) - 1


class SnowflakeFactory:
    """Hands out strictly increasing, time-based Discord snowflakes."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        """Return the next snowflake; ids created later always compare greater."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        self._last = max(ms << 22, self._last + 1)
        return self._last

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake of a guild Discord routes to shard `shard_id` of
        `shard_count` (``(id >> 22) % shard_count == shard_id``): the timestamp is moved
        on by at most `shard_count` ms, so ids still compare greater."""
        after = self()
        ms = -(-after >> 22)  # the first whole millisecond at or after it
        ms += (shard_id - ms) % shard_count
        self._last = ms << 22
        return self._last


def iso_now() -> str:
    """Return the current UTC time as Discord's ISO-8601 timestamp string."""
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass(eq=False)
class User:
    """A Discord user known to the double (a person or a bot account)."""

    id: int
    name: str
    bot: bool = False
    global_name: str | None = None

    @property
    def mention(self) -> str:
        """The `<@id>` mention string Discord renders as this user."""
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        """Return the user object as Discord serialises it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
        }


@dataclass(eq=False)
class Role:
    """A guild role; the @everyone role shares its guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        """Return the role object as Discord serialises it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    """A user's membership of one guild."""

    user: User
    guild: Guild
    nick: str | None = None
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    @property
    def permissions(self) -> int:
        """Guild-level permissions: @everyone's plus those of the member's roles."""
        value = self.guild.everyone.permissions
        for role_id in self.role_ids:
            value |= self.guild.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        """Return the member object; interactions add `permissions`, `resolved` omits `user`."""
        data: dict[str, Any] = {
            "nick": self.nick,
            "roles": [str(role_id) for role_id in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "avatar": None,
            "banner": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Channel:
    """A guild text channel or thread, or a DM or group DM between users (``DM``,
    ``GROUP_DM``: the bot is no member of it, and reaches it only by answering
    interactions; its ``guild`` is where the double keeps its users). Messages are kept
    in creation order."""

    id: int
    guild: Guild
    name: str
    type: int = GUILD_TEXT
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    auto_archive_duration: int = 1440
    created_at: str = field(default_factory=iso_now)
    thread_member_ids: set[int] = field(default_factory=set)
    message_ids: list[int] = field(default_factory=list)

    recipient_ids: set[int] = field(default_factory=set)

    @property
    def is_thread(self) -> bool:
        """Whether this channel is a thread."""
        return self.type in THREAD_TYPES

    @property
    def is_private(self) -> bool:
        """Whether this is a DM or group DM, outside any server."""
        return self.type in PRIVATE_TYPES

    @property
    def mention(self) -> str:
        """The `<#id>` mention string Discord renders as this channel."""
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        """Return the channel object as Discord serialises it."""
        last = str(self.message_ids[-1]) if self.message_ids else None
        if self.is_private:
            # The partial channel an interaction from a DM or group DM carries.
            return {"id": str(self.id), "type": self.type, "flags": 0}
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild.id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": last,
                "rate_limit_per_user": 0,
                "message_count": len(self.message_ids),
                "total_message_sent": len(self.message_ids),
                "member_count": len(self.thread_member_ids),
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_at,
                    "locked": False,
                    "create_timestamp": self.created_at,
                },
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "topic": self.topic,
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": last,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.type in VOICE_TYPES:
            data.update({"bitrate": 64000, "user_limit": 0, "rtc_region": None})
        return data


@dataclass(eq=False)
class Guild:
    """A guild (server) with its roles, channels, threads and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    threads: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    scheduled_events: dict[int, ScheduledEvent] = field(default_factory=dict)
    joined_at: str = field(default_factory=iso_now)

    @property
    def everyone(self) -> Role:
        """The @everyone role."""
        return self.roles[self.id]

    def payload(self, *, include_members: bool, bot_user_id: int) -> dict[str, Any]:
        """Return the GUILD_CREATE payload.

        Without the GUILD_MEMBERS intent Discord only sends the bot's own member, so
        `include_members` mirrors that: bots must not rely on a full member cache then.
        """
        if include_members:
            members = [member.payload() for member in self.members.values()]
        else:
            members = [self.members[bot_user_id].payload()]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "roles": [role.payload() for role in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [channel.payload() for channel in self.channels.values()],
            "threads": [thread.payload() for thread in self.threads.values()],
            "members": members,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [event.payload() for event in self.scheduled_events.values()],
            "soundboard_sounds": [],
        }


# Guild scheduled events (Discord's "Guild Scheduled Event" resource).
STAGE_INSTANCE = 1
VOICE = 2
EXTERNAL = 3
SCHEDULED = 1
ACTIVE = 2
COMPLETED = 3
CANCELED = 4
GUILD_ONLY = 2
"""The one privacy level Discord offers."""


@dataclass(eq=False)
class ScheduledEvent:
    """A guild scheduled event, with the members Interested in it.

    Times are aware UTC datetimes; ``channel_id`` is the voice or stage channel of a
    ``VOICE`` or ``STAGE_INSTANCE`` event (None for ``EXTERNAL``), ``location`` the
    place of an ``EXTERNAL`` one (its ``entity_metadata``); ``image`` a cover image's
    hash. ``interested`` holds user ids in the order they marked themselves."""

    id: int
    guild: Guild
    creator: User
    name: str
    entity_type: int
    scheduled_start_time: datetime.datetime
    scheduled_end_time: datetime.datetime | None = None
    description: str | None = None
    channel_id: int | None = None
    location: str | None = None
    status: int = SCHEDULED
    privacy_level: int = GUILD_ONLY
    image: str | None = None
    interested: list[int] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """Whether the event is COMPLETED or CANCELED (Discord changes it no more)."""
        return self.status in (COMPLETED, CANCELED)

    def payload(self, *, with_user_count: bool = False) -> dict[str, Any]:
        """Return the event as Discord serialises it (``user_count`` only when asked, as
        the REST routes' ``with_user_count``; the gateway never sends it)."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "guild_id": str(self.guild.id),
            "channel_id": None if self.channel_id is None else str(self.channel_id),
            "creator_id": str(self.creator.id),
            "creator": self.creator.payload(),
            "name": self.name,
            "description": self.description,
            "image": self.image,
            "scheduled_start_time": self.scheduled_start_time.isoformat(),
            "scheduled_end_time": (
                None if self.scheduled_end_time is None else self.scheduled_end_time.isoformat()
            ),
            "status": self.status,
            "entity_type": self.entity_type,
            "entity_id": None,
            "entity_metadata": (
                {"location": self.location} if self.entity_type == EXTERNAL else None
            ),
            "recurrence_rule": None,
            "privacy_level": self.privacy_level,
            "guild_scheduled_event_exceptions": [],
        }
        if with_user_count:
            data["user_count"] = len(self.interested)
        return data

    def user_payload(self, user: User, member: Member | None) -> dict[str, Any]:
        """One entry of the event's users list (``member`` with ``with_member``)."""
        data: dict[str, Any] = {
            "guild_scheduled_event_id": str(self.id),
            "user_id": str(user.id),
            "user": user.payload(),
            "response": 1,  # INTERESTED
        }
        if member is not None:
            data["member"] = member.payload()
        return data


@dataclass(eq=False)
class ApplicationEmoji:
    """An emoji the application owns (usable in every guild), with the image it was given."""

    id: int
    name: str
    image: bytes
    user: User

    @property
    def markdown(self) -> str:
        """The `<:name:id>` text Discord renders as this emoji."""
        return f"<:{self.name}:{self.id}>"

    def payload(self) -> dict[str, Any]:
        """Return the emoji object as Discord serialises it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": self.user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }


@dataclass(frozen=True)
class ButtonInfo:
    """What a user sees of one button: enough to decide what to click."""

    custom_id: str | None
    label: str | None
    emoji: str | None
    disabled: bool
    style: int
    url: str | None


@dataclass(frozen=True)
class SelectInfo:
    """What a user sees of one select menu."""

    custom_id: str
    component_type: int
    placeholder: str | None
    options: tuple[tuple[str, str], ...]
    min_values: int
    max_values: int
    disabled: bool


@dataclass(frozen=True)
class MessageVersion:
    """One earlier state of a message, kept when it is edited."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    timestamp: str


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every component, depth first, through rows, sections, containers and labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        accessory = component.get("accessory")
        if accessory is not None:
            yield accessory
        inner = component.get("component")
        if inner is not None:
            yield inner


def _emoji_text(emoji: dict[str, Any] | None) -> str | None:
    if not emoji:
        return None
    if emoji.get("id"):
        return f"<:{emoji.get('name')}:{emoji['id']}>"
    return emoji.get("name")


@dataclass(eq=False)
class StoredMessage:
    """A message the bot created, as the double stores it, with its edit history."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    attachments: list[dict[str, Any]] = field(default_factory=list)
    ephemeral_for: User | None = None
    interaction: InteractionRecord | None = None
    via_webhook: bool = False
    type: int = DEFAULT_MESSAGE
    thread: Channel | None = None
    deleted: bool = False
    timestamp: str = field(default_factory=iso_now)
    created: float = field(default_factory=time.monotonic)
    """When it was created (time.monotonic()); `DiscordDouble.age_message` moves it back."""
    edited_timestamp: str | None = None
    history: list[MessageVersion] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ephemeral(self) -> bool:
        """Whether only `ephemeral_for` can see this message."""
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        """Whether this is still a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & LOADING)

    @property
    def edit_count(self) -> int:
        """How many times the message was edited after creation."""
        return len(self.history)

    def visible_to(self, user: User) -> bool:
        """Whether `user` can see (and so click on) this message."""
        return not self.deleted and (self.ephemeral_for is None or self.ephemeral_for is user)

    def snapshot(self) -> MessageVersion:
        """Return the current state as a history entry."""
        return MessageVersion(
            content=self.content,
            embeds=self.embeds,
            components=self.components,
            flags=self.flags,
            timestamp=self.edited_timestamp or self.timestamp,
        )

    @property
    def buttons(self) -> list[ButtonInfo]:
        """Every button on the message, in display order."""
        return [
            ButtonInfo(
                custom_id=c.get("custom_id"),
                label=c.get("label"),
                emoji=_emoji_text(c.get("emoji")),
                disabled=bool(c.get("disabled", False)),
                style=int(c.get("style", 1)),
                url=c.get("url"),
            )
            for c in walk_components(self.components)
            if c.get("type") == 2
        ]

    @property
    def selects(self) -> list[SelectInfo]:
        """Every select menu on the message, in display order."""
        return [
            SelectInfo(
                custom_id=c["custom_id"],
                component_type=c["type"],
                placeholder=c.get("placeholder"),
                options=tuple((o["label"], o["value"]) for o in c.get("options", [])),
                min_values=int(c.get("min_values", 1)),
                max_values=int(c.get("max_values", 1)),
                disabled=bool(c.get("disabled", False)),
            )
            for c in walk_components(self.components)
            if c.get("type") in (3, 5, 6, 7, 8)
        ]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """Return the raw component with this custom_id, or None."""
        for component in walk_components(self.components):
            if component.get("custom_id") == custom_id:
                return component
        return None

    @property
    def text(self) -> str:
        """Content plus every embed's visible text, joined: handy for `in` assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts.append(embed.get("title", ""))
            parts.append(embed.get("description", ""))
            for embed_field in embed.get("fields", []):
                parts.append(embed_field.get("name", ""))
                parts.append(embed_field.get("value", ""))
            parts.append(embed.get("footer", {}).get("text", ""))
        for component in walk_components(self.components):
            if component.get("type") == 10:
                parts.append(component.get("content", ""))
        return "\n".join(part for part in parts if part)

    def payload(self, application_id: int) -> dict[str, Any]:
        """Return the message object as Discord serialises it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if not self.channel.is_private:
            data["guild_id"] = str(self.channel.guild.id)
        if self.via_webhook:
            data["webhook_id"] = str(application_id)
            data["application_id"] = str(application_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction.metadata()
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        data.update(self.extra)
        return data


def number_components(components: list[dict[str, Any]]) -> None:
    """Give components without one the numeric `id` Discord assigns (1, 2, ... in tree order)."""
    counter = itertools.count(1)
    for component in walk_components(components):
        component.setdefault("id", next(counter))


@dataclass(eq=False)
class ActivityInstance:
    """A running Activity of the application, as ``GET /applications/{application_id}/
    activity-instances/{instance_id}`` describes it: where it runs and who is in it.
    ``private``: it runs in a DM or group DM (a user install), whose location names no
    guild (kind ``pc``, a private channel)."""

    instance_id: str
    launch_id: str
    channel: Channel
    users: list[int] = field(default_factory=list)
    private: bool = False

    def payload(self, application_id: int) -> dict[str, Any]:
        """The instance as Discord serialises it (``EmbeddedActivityInstance``)."""
        guild_id, channel_id = str(self.channel.guild.id), str(self.channel.id)
        if self.private:
            return {
                "application_id": str(application_id),
                "instance_id": self.instance_id,
                "launch_id": self.launch_id,
                "location": {"id": f"pc-{channel_id}", "kind": "pc", "channel_id": channel_id},
                "users": [str(user) for user in self.users],
            }
        return {
            "application_id": str(application_id),
            "instance_id": self.instance_id,
            "launch_id": self.launch_id,
            "location": {
                "id": f"gc-{guild_id}-{channel_id}",
                "kind": "gc",
                "guild_id": guild_id,
                "channel_id": channel_id,
            },
            "users": [str(user) for user in self.users],
        }


@dataclass(eq=False)
class InteractionRecord:
    """One interaction the double dispatched, and everything the bot did with it.

    `await rec.response()` waits for the callback; `ack_latency` is the time from the
    INTERACTION_CREATE frame to the callback POST (Discord allows 3 seconds).
    """

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    data: dict[str, Any]
    source_message: StoredMessage | None = None
    label: str = ""
    dispatched_at: float = 0.0
    acked_at: float | None = None
    response_type: int | None = None
    original: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    """An autocomplete interaction's answer: the choices offered (``name``, ``value``)."""
    activity_instance: ActivityInstance | None = None
    """The Activity instance a LAUNCH_ACTIVITY answer (callback type 12) opened."""
    context: int = 0
    """Where the interaction came from (Discord's ``context``): 0 a server, 1 the bot's
    DM, 2 a DM or group DM between users."""
    problems: list[str] = field(default_factory=list)
    unanswered_ok: bool = False
    _acked: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    _settle: Callable[..., Awaitable[None]] | None = field(default=None, repr=False)

    @property
    def guild(self) -> Guild:
        """The guild the interaction happened in."""
        return self.channel.guild

    @property
    def acknowledged(self) -> bool:
        """Whether Discord accepted a callback for this interaction."""
        return self.response_type is not None

    @property
    def ack_latency(self) -> float | None:
        """Seconds between dispatch and the callback POST, or None if never acknowledged."""
        return None if self.acked_at is None else self.acked_at - self.dispatched_at

    @property
    def messages(self) -> list[StoredMessage]:
        """The original response (if it is a message) followed by the follow-ups."""
        head = [self.original] if self.original is not None else []
        return head + [m for m in self.followups if m is not self.original]

    def expect_unanswered(self) -> None:
        """Declare that the bot is meant to ignore this interaction, so teardown won't flag it."""
        self.unanswered_ok = True

    async def response(self, timeout: float = 3.0) -> InteractionRecord:
        """Wait until the bot acknowledged the interaction (any callback type); return self."""
        try:
            await asyncio.wait_for(self._acked.wait(), timeout)
        except TimeoutError:
            detail = f"; problems: {self.problems}" if self.problems else ""
            raise AssertionError(
                f"interaction {self.label} was not acknowledged within {timeout} s{detail}"
            ) from None
        return self

    async def settled(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait for the acknowledgement, then until the double has been idle for a moment."""
        await self.response(min(timeout, 3.0))
        assert self._settle is not None, "records are created by DiscordDouble"
        await self._settle(timeout=timeout)
        return self

    def metadata(self) -> dict[str, Any]:
        """The `interaction_metadata` Discord attaches to messages this interaction created."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": {"0": str(self.guild.id)},
        }
        if self.source_message is not None:
            data["interacted_message_id"] = str(self.source_message.id)
        return data


@dataclass(frozen=True)
class RequestRecord:
    """One HTTP request the bot made: route template, concrete path, status and JSON body."""

    method: str
    route: str
    path: str
    status: int
    body: Any
    at: float
