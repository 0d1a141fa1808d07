"""The loopback Discord API: REST routes, the gateway websocket and the scripting API.

While a `DiscordDouble` is started, discord.py is pointed at it by swapping two class
attributes (`discord.http.Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY`; a plain
`discord.Client` never calls GET /gateway/bot, it connects straight to DEFAULT_GATEWAY)
and `socket.getaddrinfo` refuses every host but loopback, so nothing reaches the network.
All three are restored by `close()`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import datetime
import hashlib
import io
import json
import mimetypes
import os
import secrets
import socket
import time
import traceback
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

import discord
import yarl
from aiohttp import BodyPartReader, WSMsgType, web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .gateway import (
    GUILD_MEMBERS,
    GUILD_MESSAGES,
    GUILD_SCHEDULED_EVENTS,
    GUILDS,
    HEARTBEAT,
    HEARTBEAT_ACK,
    HEARTBEAT_INTERVAL_MS,
    HELLO,
    IDENTIFY,
    INVALID_SESSION,
    PRESENCE_UPDATE,
    PRIVILEGED_INTENTS,
    REQUEST_GUILD_MEMBERS,
    RESUME,
    GatewaySession,
    encode,
)
from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    APPLICATION_COMMAND_AUTOCOMPLETE,
    CANCELED,
    CHAT_INPUT_COMMAND_MESSAGE,
    COMPONENTS_V2,
    CREATE_PUBLIC_THREADS,
    DEFAULT_MESSAGE,
    DM,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    EXTERNAL,
    GROUP_DM,
    GUILD_ONLY,
    GUILD_TEXT,
    GUILD_VOICE,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    STAGE_INSTANCE,
    TOKEN_LIFETIME,
    USER_INSTALL_FOLLOWUPS,
    VOICE,
    ActivityInstance,
    ApplicationEmoji,
    Channel,
    Guild,
    InteractionRecord,
    Member,
    RequestRecord,
    Role,
    ScheduledEvent,
    SnowflakeFactory,
    StoredMessage,
    User,
    iso_now,
    number_components,
    walk_components,
)
from .ratelimits import Limiter, RateLimits, Refusal, Verdict
from .scheduled_events import (
    MISSING_PERMISSIONS,
    TOO_MANY,
    UNCOMPLETED_LIMIT,
    Rejection,
    apply_edit,
    create_rejection,
    edit_rejection,
    may_change,
    may_create,
    may_view,
    new_event,
    uncompleted,
    users_page,
)
from .spec import spec as discord_spec
from .validation import (
    FieldError,
    autocomplete_errors,
    command_errors,
    component_emoji_errors,
    emoji_errors,
    form_error_body,
    message_errors,
    modal_errors,
)

API_PREFIX = "/api/v10"
DISCORD_LIMITS = RateLimits()
"""Discord's rate limits, at Discord's speed (the default)."""
GATEWAY_PATH = "/gateway-ws"

SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
# Flags a message may carry from its creation payload; EPHEMERAL only via interactions.
_SENDABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2
LAUNCH_ACTIVITY = 12
"""The interaction callback that opens the application's Activity in the member's client."""
ENTRY_POINT = 4
"""An application's Entry Point command's type (PRIMARY_ENTRY_POINT)."""
ENTRY_POINT_DROPPED = 50240
"""Discord's error code for a bulk overwrite that would remove the Entry Point command
("Cannot remove your app's Entry Point command in a bulk update operation")."""
CLIENT_SECRET = "double-client-secret"
"""The application's OAuth2 client secret, as the developer portal would show it."""
OAUTH_FIELDS = frozenset({"grant_type", "code", "client_id", "client_secret", "redirect_uri"})
"""The fields of an authorization_code token request (Discord's OAuth2 documentation,
"Access Token Exchange"): the four first required, ``redirect_uri`` optional (an
Activity's code has none)."""
# Callback types Discord accepts for each interaction type.
_CALLBACK_TYPES = {
    APPLICATION_COMMAND: frozenset({4, 5, 9, LAUNCH_ACTIVITY}),
    APPLICATION_COMMAND_AUTOCOMPLETE: frozenset({8}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9, LAUNCH_ACTIVITY}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
_RATE_LIMIT = 10_000
APPLICATION_EMOJI_LIMIT = 2000
"""Emojis an application may own."""
# The middleware parses every body once (JSON or multipart) and hands it to the handlers.
BODY = web.RequestKey("body", object)
FILES = web.RequestKey("files", list)
# When the request arrived (loop time): the double's own work, such as checking the request
# against the specification, does not count toward the bot's acknowledgement latency.
ARRIVED = web.RequestKey("arrived", float)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_EVENT = "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}"

_active: DiscordDouble | None = None


def _loop_has_work(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether callbacks other than the caller's are queued to run (CPython's asyncio loop).

    Unlike timer lateness this does not mistake a loaded machine for a busy bot.
    """
    return bool(getattr(loop, "_ready", ()))


class ScriptError(AssertionError):
    """A test scripted something a real Discord user could not do (or that Discord rejects)."""


_FAULT_MESSAGES = {
    400: "400: Bad Request",
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


NONCE_WINDOW = 300.0
"""Seconds a message's nonce is remembered for `enforce_nonce` (Discord: "the past few
minutes")."""


@dataclasses.dataclass
class Fault:
    """Upcoming requests to `route` that fail with `status` instead of being served,
    or (`performed`) that are served and then answered with `status`: the work is
    done and its answer is lost, as when Discord fails after the write.

    `times` counts down as requests fail; `hits` counts them; `hold` is how many
    seconds the failed answer waits before it is sent (longer than the client's
    timeout: a timeout), `until` an event it waits for (the test's own moment). Made by
    `DiscordDouble.fail`.
    """

    route: str
    status: int
    times: int
    retry_after: float
    global_: bool
    match: Callable[[str, Any], bool] | None
    performed: bool = False
    hold: float = 0.0
    until: asyncio.Event | None = None
    hits: int = 0

    def response(self) -> web.Response:
        """The answer Discord gives: a JSON error; for 429 the headers discord.py needs
        to treat it as a rate limit (a 429 without `Via` is a Cloudflare ban to it)."""
        if self.status != 429:
            message = _FAULT_MESSAGES.get(self.status, f"{self.status}: Error")
            return _error(self.status, 0, message)
        response = _json(
            {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.global_,
                "code": 0,
            },
            status=429,
        )
        response.headers.update(
            {
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(self.retry_after))),
                "X-RateLimit-Scope": "global" if self.global_ else "user",
            }
        )
        if self.global_:
            response.headers["X-RateLimit-Global"] = "true"
        return response


def _image_size(data: bytes) -> dict[str, int]:
    """An image's `width` and `height` as Discord reports them (none if unreadable)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
    except (UnidentifiedImageError, OSError, ValueError):
        return {}
    return {"width": width, "height": height}


def _shard_of(value: Any) -> tuple[int, int] | None:
    """An IDENTIFY's `shard` as `(shard_id, shard_count)`; None if Discord would close the
    session with 4010 Invalid shard (not two integers, or not 0 <= id < count)."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in value):
        return None
    shard_id, shard_count = value
    return (shard_id, shard_count) if 0 <= shard_id < shard_count else None


def _snowflake_param(request: web.Request, name: str) -> int | None:
    value = request.match_info.get(name, "")
    return int(value) if value.isdigit() else None


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only if Content-Type is exactly "application/json".
    return web.Response(
        body=encode(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(
    status: int, code: int, message: str, body: dict[str, Any] | None = None
) -> web.Response:
    return _json(body or {"code": code, "message": message}, status=status)


class DiscordDouble:
    """An in-process fake of the Discord API that the real discord.py client talks to.

    Build the world (`add_guild`, `add_channel`, `add_user`), `await start()`, run a bot
    with `async with double.running(client)`, then script users with `slash`, `click`,
    `select` and `submit_modal` and inspect what the bot sent through the message store.
    """

    def __init__(
        self,
        *,
        token: str = "double-bot-token",
        bot_name: str = "TuqueBot",
        ack_deadline: float | None = 3.0,
        privileged_intents: int = PRIVILEGED_INTENTS,
        check_spec: bool = True,
        recommended_shards: int = 1,
        require_sharding: bool = False,
        rate_limits: RateLimits | None = DISCORD_LIMITS,
    ) -> None:
        """`ack_deadline` is Discord's 3-second rule (None disables it); `privileged_intents`
        are the ones "enabled in the developer portal" (others close the gateway with 4014);
        `check_spec` validates every request against Discord's API specification (`spec`).

        Sharding: GET /gateway/bot recommends `recommended_shards`; with `require_sharding`
        every IDENTIFY must name `[shard_id, recommended_shards]` (another shard count, or
        none, is closed with 4011 "Sharding required", as Discord does for a bot past its
        guild limit per session). Each session gets only its shard's guilds and events.

        `rate_limits` are Discord's limits the double applies (``ratelimits``: per-route
        buckets with their headers, 429 past them, the global limit, 30046 for edits of
        hour-old messages); None gives every route a bucket that never runs low. Every
        429 the limits answered is in `rate_limited`."""
        self.token = token
        self.ack_deadline = ack_deadline
        self.token_lifetime = TOKEN_LIFETIME
        """Seconds an interaction's token takes webhook calls (Discord's 15 minutes; a
        test of the expiry shortens it, as it shortens the rate limits' windows)."""
        self.privileged_intents = privileged_intents
        self.check_spec = check_spec
        self.recommended_shards = recommended_shards
        self.require_sharding = require_sharding
        self.spec_counts: collections.Counter[str] = collections.Counter()
        """Requests validated against the specification, by operationId."""
        self.spec_seconds = 0.0
        """Time spent validating them."""
        self.limiter = Limiter(rate_limits, time.monotonic) if rate_limits else None
        self.busy: list[Callable[[], bool]] = []
        """Checks `idle` asks too: whether the bot under test has work waiting that the
        double cannot see (a table edit waiting for its turn under the rate limits)."""
        self.quiet = 0.05
        """How long `idle` wants the loop calm unless told: long enough for a bot's work
        outside the loop (a thread) that no `busy` check reports to look unfinished. A
        bot whose thread work a `busy` check reports needs only a few turns of the loop."""
        self.rate_limited: list[Refusal] = []
        """The requests the rate limits refused, in order (faults scripted by `fail`
        aside)."""
        self._snowflake = SnowflakeFactory()
        self.bot_user = User(id=self._snowflake(), name=bot_name, bot=True)
        self.owner = User(id=self._snowflake(), name="app-owner")
        self.application_id = self.bot_user.id
        self.guilds: dict[int, Guild] = {}
        self.users: dict[int, User] = {u.id: u for u in (self.bot_user, self.owner)}
        self.channels: dict[int, Channel] = {}
        self._private_channels: dict[int, Channel] = {}
        self.interactions: list[InteractionRecord] = []
        self.rest_calls: collections.Counter[str] = collections.Counter()
        self.gateway_events: collections.Counter[str] = collections.Counter()
        self.requests: list[RequestRecord] = []
        self.unexpected: list[str] = []
        self.failures: list[str] = []
        self.faults: list[Fault] = []
        self.presence_updates: list[dict[str, Any]] = []
        self.application_emojis: dict[int, ApplicationEmoji] = {}
        self.emoji_uploads: list[str] = []
        """Names of the emojis the bot created, in order (pre-seeded ones are not counted)."""
        self.application_emoji_limit = APPLICATION_EMOJI_LIMIT
        self.gateway_connections: list[dict[str, str]] = []
        self.client_secret = CLIENT_SECRET
        """The application's OAuth2 client secret: the token endpoint takes no other."""
        self.activities_enabled = False
        """Whether Activities are enabled for the application (``enable_activities``)."""
        self.activity_instances: dict[str, ActivityInstance] = {}
        self._codes: dict[str, tuple[int, int]] = {}  # code -> (client id, user id)
        self._access_tokens: dict[str, int] = {}  # bearer token -> user id
        self.port = 0
        self._messages: dict[int, StoredMessage] = {}
        # (channel id, nonce) -> (message id, time.monotonic() of its creation), for
        # enforce_nonce; the author is always the bot on this route.
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self._attachment_data: dict[str, bytes] = {}
        self._ephemerals: dict[int, list[StoredMessage]] = collections.defaultdict(list)
        # user id -> the waits for its next ephemeral change (ephemeral_change)
        self._ephemeral_waits: dict[int, list[asyncio.Event]] = collections.defaultdict(list)
        self._commands: dict[int | None, dict[tuple[int, str], dict[str, Any]]] = {}
        self._interactions_by_id: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self._unacked: dict[int, InteractionRecord] = {}
        self._connections: set[GatewaySession] = set()
        self._sessions: list[GatewaySession] = []
        self._resumable: dict[str, GatewaySession] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._buckets: dict[str, str] = {}
        self._inflight = 0
        self._last_activity = 0.0
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL, Callable[..., Any]] | None = None

    # ------------------------------------------------------------------ lifecycle

    @property
    def api_url(self) -> str:
        """Base REST URL (what `Route.BASE` is set to while the double runs)."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """Gateway websocket URL (also returned by GET /gateway/bot and as resume URL)."""
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    async def start(self) -> None:
        """Listen on a free loopback port and point discord.py at it."""
        global _active
        if _active is not None:
            raise RuntimeError("another DiscordDouble is already running in this process")
        app = web.Application(middlewares=[self._middleware], client_max_size=32 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        for method, path, handler in self._routes():
            app.router.add_route(method, API_PREFIX + path, handler)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.1
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._last_activity = asyncio.get_running_loop().time()
        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, socket.getaddrinfo)
        Route.BASE = self.api_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        socket.getaddrinfo = self._guarded_getaddrinfo
        _active = self

    async def close(self) -> None:
        """Drop gateway connections, stop the server and restore discord.py's URLs."""
        global _active
        for task in list(self._tasks):
            task.cancel()
        for session in list(self._connections):
            await session.ws.close(code=1001, message=b"double shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, socket.getaddrinfo = self._saved
            self._saved = None
        if _active is self:
            _active = None
        self._report_spec_counts()

    def _report_spec_counts(self) -> None:
        """With DISCORD_SPEC_REPORT=<path>, append this double's validated requests per
        operation to that file as one JSON line (tests/conftest.py prints the totals)."""
        path = os.environ.get("DISCORD_SPEC_REPORT")
        if path and self.spec_counts:
            test = os.environ.get("PYTEST_CURRENT_TEST", "").removesuffix(" (teardown)")
            line = json.dumps(
                {"test": test, "counts": self.spec_counts, "seconds": self.spec_seconds}
            )
            with open(path, "a", encoding="utf-8") as file:
                file.write(line + "\n")
            self.spec_counts.clear()
            self.spec_seconds = 0.0

    async def __aenter__(self) -> DiscordDouble:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _guarded_getaddrinfo(self, host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name not in _LOOPBACK_HOSTS:
            self.unexpected.append(f"network: attempted to resolve {name!r}")
            raise socket.gaierror(
                socket.EAI_NONAME, f"DiscordDouble blocks network access to {name}"
            )
        assert self._saved is not None
        return self._saved[2](host, *args, **kwargs)

    @contextlib.asynccontextmanager
    async def running(self, client: discord.Client, *, timeout: float = 5.0) -> AsyncIterator[None]:
        """Start `client` against the double, wait for its `on_ready`, close it on exit.

        The client must be built with a small `guild_ready_timeout` (e.g. 0.05): discord.py
        waits that long after the last GUILD_CREATE before READY, 2 s by default.
        """
        if client._connection.guild_ready_timeout > 1.0:
            raise ValueError(
                "construct the client with guild_ready_timeout=0.05 (or so) for tests; "
                "the default makes every start wait 2 s"
            )
        task = asyncio.create_task(client.start(self.token), name="discord-double-client")

        async def ready() -> None:
            # client.start() creates the ready event in its first step; let it run first.
            await asyncio.sleep(0)
            await client.wait_until_ready()

        waiter = asyncio.create_task(ready())
        done, _ = await asyncio.wait(
            {task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if waiter not in done:
            waiter.cancel()
            await client.close()
            if not task.done():
                task.cancel()
            await asyncio.wait({task, waiter})
            if not task.cancelled():
                task.result()  # re-raises the client's own failure, e.g. PrivilegedIntentsRequired
            raise TimeoutError(f"client not ready within {timeout} s; problems: {self.problems()}")
        try:
            yield
        finally:
            await client.close()
            await task

    # ------------------------------------------------------------------ world building

    def _spawn(self, coro: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def add_guild(self, name: str = "Test Guild", *, shard: tuple[int, int] | None = None) -> Guild:
        """Create a guild the bot is a member of (with @everyone and an admin role for the bot).

        `shard` is `(shard_id, shard_count)`: the guild's id is one Discord routes to that
        shard (``(id >> 22) % shard_count == shard_id``); default any id."""
        if shard is None:
            guild_id = self._snowflake()
        else:
            shard_id, shard_count = shard
            if not 0 <= shard_id < shard_count:
                raise ScriptError(f"no shard {shard_id} among {shard_count}")
            guild_id = self._snowflake.on_shard(shard_id, shard_count)
        guild = Guild(id=guild_id, name=name, owner_id=self.owner.id)
        guild.roles[guild.id] = Role(
            id=guild.id, name="@everyone", permissions=EVERYONE_PERMISSIONS
        )
        bot_role = Role(
            id=self._snowflake(), name=self.bot_user.name, permissions=ADMINISTRATOR, position=1
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(
            user=self.bot_user, guild=guild, role_ids=[bot_role.id]
        )
        guild.members[self.owner.id] = Member(user=self.owner, guild=guild)
        self.guilds[guild.id] = guild
        for session in self._sessions:
            if session.covers_guild(guild.id):
                self._spawn(self._send(session, "GUILD_CREATE", self._guild_create(guild, session)))
        return guild

    def add_channel(
        self, guild: Guild, name: str, *, topic: str | None = None, kind: int = GUILD_TEXT
    ) -> Channel:
        """Create a channel in `guild`: a text channel, or of another `kind` (Discord's
        channel type: ``models.GUILD_VOICE``, ``models.GUILD_STAGE_VOICE``)."""
        channel = Channel(
            id=self._snowflake(),
            guild=guild,
            name=name,
            topic=topic,
            type=kind,
            position=len(guild.channels),
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self._broadcast_later(guild.id, "CHANNEL_CREATE", channel.payload(), GUILDS)
        return channel

    def add_private_channel(self, guild: Guild, *users: User, group: bool = True) -> Channel:
        """A group DM between `users` (or, without `group`, the first user's DM with the
        bot), members of `guild` as the double keeps users. The bot is no member of it:
        it gets no event from it, and every channel route on it is refused (403 Missing
        Access); it reaches it only by answering interactions from it (context 2 in a
        group DM, through the member's own install; context 1 in its DM)."""
        channel = Channel(
            id=self._snowflake(),
            guild=guild,
            name="group DM" if group else f"DM with {users[0].name}",
            type=GROUP_DM if group else DM,
            recipient_ids={u.id for u in users},
        )
        self._private_channels[channel.id] = channel
        return channel

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0) -> Role:
        """Create a role in `guild`."""
        role = Role(
            id=self._snowflake(), name=name, permissions=permissions, position=len(guild.roles)
        )
        guild.roles[role.id] = role
        self._broadcast_later(
            guild.id,
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            GUILDS,
        )
        return role

    def attachment_bytes(self, attachment: dict[str, Any]) -> bytes:
        """The uploaded content of ``attachment`` (an entry of a message's
        ``attachments``), as a client would download it from its URL."""
        return self._attachment_data[attachment["id"]]

    def add_user(
        self, name: str, *, bot: bool = False, guild: Guild | None = None, nick: str | None = None
    ) -> User:
        """Create a user; with `guild`, also make them a member of it."""
        user = User(id=self._snowflake(), name=name, bot=bot, global_name=name)
        self.users[user.id] = user
        if guild is not None:
            self.add_member(guild, user, nick=nick)
        return user

    def add_member(
        self, guild: Guild, user: User, *, nick: str | None = None, roles: Sequence[Role] = ()
    ) -> Member:
        """Make `user` a member of `guild`."""
        member = Member(user=user, guild=guild, nick=nick, role_ids=[role.id for role in roles])
        guild.members[user.id] = member
        self._broadcast_later(
            guild.id,
            "GUILD_MEMBER_ADD",
            {**member.payload(), "guild_id": str(guild.id)},
            GUILD_MEMBERS,
        )
        return member

    # ------------------------------------------------------------------ scheduled events

    def scheduled_event(self, event_id: int) -> ScheduledEvent:
        """The scheduled event with this id, in whichever guild (ScriptError if none)."""
        for guild in self.guilds.values():
            event = guild.scheduled_events.get(event_id)
            if event is not None:
                return event
        raise ScriptError(f"no scheduled event {event_id}")

    @staticmethod
    def _guild_permissions(guild: Guild, user: User) -> int:
        """A member's guild-level permissions; the guild's owner has every one."""
        if user.id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user.id)
        if member is None:
            raise ScriptError(f"{user.name} is no member of {guild.name}")
        return member.permissions

    def add_scheduled_event(
        self,
        guild: Guild,
        creator: User,
        name: str,
        *,
        start: datetime.datetime,
        end: datetime.datetime | None = None,
        location: str | None = None,
        channel: Channel | None = None,
        description: str | None = None,
    ) -> ScheduledEvent:
        """`creator` creates an event in Discord's UI: an external one at `location`
        (which needs `end`), or one in the voice or stage `channel`. Discord's rules and
        the creator's permissions apply as to the bot's requests (ScriptError where
        Discord would refuse); a connected bot gets GUILD_SCHEDULED_EVENT_CREATE."""
        if channel is None:
            entity_type, channel_id = EXTERNAL, None
        else:
            entity_type = VOICE if channel.type == GUILD_VOICE else STAGE_INSTANCE
            channel_id = str(channel.id)
        body: dict[str, Any] = {
            "name": name,
            "description": description,
            "privacy_level": GUILD_ONLY,
            "entity_type": entity_type,
            "channel_id": channel_id,
            "scheduled_start_time": start.isoformat(),
            "scheduled_end_time": None if end is None else end.isoformat(),
            "entity_metadata": None if location is None else {"location": location},
        }
        if not may_create(self._guild_permissions(guild, creator), entity_type):
            raise ScriptError(f"{creator.name} may not create events of type {entity_type}")
        rejection = create_rejection(body, guild, datetime.datetime.now(datetime.UTC))
        if rejection is not None:
            raise ScriptError(f"Discord refuses the event: {rejection}")
        event = new_event(self._snowflake(), guild, creator, body)
        guild.scheduled_events[event.id] = event
        self._broadcast_later(
            guild.id, "GUILD_SCHEDULED_EVENT_CREATE", event.payload(), GUILD_SCHEDULED_EVENTS
        )
        return event

    async def mark_interested(self, user: User, event: ScheduledEvent) -> None:
        """`user` marks themselves Interested in `event` (its users list gains them, and
        the bot gets GUILD_SCHEDULED_EVENT_USER_ADD); returns once that is sent."""
        if user.id not in event.guild.members:
            raise ScriptError(f"{user.name} is no member of {event.guild.name}")
        if event.finished or event.id not in event.guild.scheduled_events:
            raise ScriptError(f"event {event.name!r} is over: no one can mark interest")
        if user.id in event.interested:
            raise ScriptError(f"{user.name} is already interested in {event.name!r}")
        event.interested.append(user.id)
        await self._event_user(event, user, "GUILD_SCHEDULED_EVENT_USER_ADD")

    async def mark_not_interested(self, user: User, event: ScheduledEvent) -> None:
        """`user` takes back their interest in `event` (GUILD_SCHEDULED_EVENT_USER_REMOVE
        to the bot); returns once that is sent."""
        if user.id not in event.interested:
            raise ScriptError(f"{user.name} is not interested in {event.name!r}")
        event.interested.remove(user.id)
        await self._event_user(event, user, "GUILD_SCHEDULED_EVENT_USER_REMOVE")

    async def _event_user(self, event: ScheduledEvent, user: User, kind: str) -> None:
        payload = {
            "guild_scheduled_event_id": str(event.id),
            "user_id": str(user.id),
            "guild_id": str(event.guild.id),
        }
        await self._broadcast(event.guild.id, kind, payload, GUILD_SCHEDULED_EVENTS)

    async def edit_scheduled_event(
        self,
        event: ScheduledEvent,
        by: User | None,
        *,
        name: str | None = None,
        description: str | None = None,
        start: datetime.datetime | None = None,
        end: datetime.datetime | None = None,
        location: str | None = None,
        status: int | None = None,
    ) -> None:
        """`by` edits `event` in Discord's UI (or, with `by` None, Discord itself does, as
        when it starts an external event at its start time): the fields given change,
        under Discord's rules and `by`'s permissions (ScriptError where Discord would
        refuse); the bot gets GUILD_SCHEDULED_EVENT_UPDATE once it is sent."""
        body: dict[str, Any] = {}
        if name is not None:
            body["name"] = name
        if description is not None:
            body["description"] = description
        if start is not None:
            body["scheduled_start_time"] = start.isoformat()
        if end is not None:
            body["scheduled_end_time"] = end.isoformat()
        if location is not None:
            body["entity_metadata"] = {"location": location}
        if status is not None:
            body["status"] = status
        await self._script_edit(event, by, body)

    async def cancel_scheduled_event(self, event: ScheduledEvent, by: User | None) -> None:
        """`by` cancels `event` in Discord's UI (see `edit_scheduled_event`)."""
        await self._script_edit(event, by, {"status": CANCELED})

    async def _script_edit(
        self, event: ScheduledEvent, by: User | None, body: dict[str, Any]
    ) -> None:
        if by is not None and not may_change(
            self._guild_permissions(event.guild, by), event, by.id, event.entity_type
        ):
            raise ScriptError(f"{by.name} may not change event {event.name!r}")
        rejection = edit_rejection(event, body, datetime.datetime.now(datetime.UTC))
        if rejection is not None:
            raise ScriptError(f"Discord refuses the change: {rejection}")
        apply_edit(event, body)
        await self._broadcast(
            event.guild.id, "GUILD_SCHEDULED_EVENT_UPDATE", event.payload(), GUILD_SCHEDULED_EVENTS
        )

    async def delete_scheduled_event(self, event: ScheduledEvent, by: User) -> None:
        """`by` deletes `event` in Discord's UI (GUILD_SCHEDULED_EVENT_DELETE to the
        bot); the bot's later requests about it meet 10070 Unknown Guild Scheduled
        Event."""
        if not may_change(
            self._guild_permissions(event.guild, by), event, by.id, event.entity_type
        ):
            raise ScriptError(f"{by.name} may not delete event {event.name!r}")
        del event.guild.scheduled_events[event.id]
        await self._broadcast(
            event.guild.id, "GUILD_SCHEDULED_EVENT_DELETE", event.payload(), GUILD_SCHEDULED_EVENTS
        )

    # ------------------------------------------------------------------ message store

    def message(self, message_id: int) -> StoredMessage:
        """Return the stored message with this id (raises ScriptError if unknown)."""
        try:
            return self._messages[message_id]
        except KeyError:
            raise ScriptError(f"the bot never created message {message_id}") from None

    def channel_messages(
        self, channel: Channel, *, include_deleted: bool = False
    ) -> list[StoredMessage]:
        """Non-ephemeral messages in a channel or thread, oldest first."""
        out = []
        for message_id in channel.message_ids:
            message = self._messages[message_id]
            if message.ephemeral_for is None and (include_deleted or not message.deleted):
                out.append(message)
        return out

    def latest_message(self, channel: Channel) -> StoredMessage:
        """The newest non-ephemeral, non-deleted message in a channel or thread."""
        messages = self.channel_messages(channel)
        if not messages:
            raise ScriptError(f"no messages in #{channel.name}")
        return messages[-1]

    def ephemerals_for(self, user: User) -> list[StoredMessage]:
        """Ephemeral messages only `user` can see (responses and follow-ups), oldest first."""
        return [m for m in self._ephemerals[user.id] if not m.deleted]

    def latest_ephemeral(self, user: User) -> StoredMessage:
        """The newest ephemeral message shown to `user`."""
        messages = self.ephemerals_for(user)
        if not messages:
            raise ScriptError(f"{user.name} has no ephemeral messages")
        return messages[-1]

    def visible_messages(self, user: User, channel: Channel) -> list[StoredMessage]:
        """What `user` sees in a channel: public messages plus their ephemerals there, in order."""
        mine = [m for m in self.ephemerals_for(user) if m.channel is channel]
        return sorted(self.channel_messages(channel) + mine, key=lambda m: m.id)

    def thread_for(self, message: StoredMessage) -> Channel | None:
        """The thread started from `message`, if any."""
        return message.thread

    def synced_commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The commands the bot last synced globally (`guild=None`) or to `guild`."""
        scope = None if guild is None else guild.id
        return list(self._commands.get(scope, {}).values())

    def add_application_emoji(self, name: str, image: bytes) -> ApplicationEmoji:
        """Give the application an emoji, as if uploaded in the developer portal."""
        emoji = ApplicationEmoji(id=self._snowflake(), name=name, image=image, user=self.owner)
        self.application_emojis[emoji.id] = emoji
        return emoji

    def application_emoji(self, name: str) -> ApplicationEmoji | None:
        """The application's emoji called `name`, if any."""
        return next((e for e in self.application_emojis.values() if e.name == name), None)

    def remove_application_emoji(self, name: str) -> None:
        """Delete the application's emoji called `name`, as in the developer portal."""
        emoji = self.application_emoji(name)
        if emoji is None:
            raise ScriptError(f"the application has no emoji {name!r}")
        del self.application_emojis[emoji.id]

    # ------------------------------------------------------------------ Activities

    def enable_activities(self) -> dict[str, Any]:
        """Enable Activities for the application, as in the developer portal: Discord then
        makes its global Entry Point command (type 4, handled by Discord: it launches the
        Activity). Returns that command."""
        self.activities_enabled = True
        commands = self._commands.setdefault(None, {})
        key = (ENTRY_POINT, "launch")
        if key not in commands:
            commands[key] = {
                "id": str(self._snowflake()),
                "application_id": str(self.application_id),
                "version": str(self._snowflake()),
                "type": ENTRY_POINT,
                "name": "launch",
                "description": "",
                "handler": 2,  # DISCORD_LAUNCH_ACTIVITY
                "contexts": [0, 1, 2],
                "integration_types": [0, 1],
                "default_member_permissions": None,
                "nsfw": False,
            }
        return commands[key]

    def start_activity(
        self, channel: Channel, *users: User, private: bool = False
    ) -> ActivityInstance:
        """An Activity instance of the application running in ``channel`` with ``users``
        in it (as if one of them launched it and the others joined); ``private``: as in a
        DM or group DM, with no guild (its id names its location as Discord's do:
        ``gc-<guild>-<channel>`` in a server, ``pc-<channel>`` in a private channel)."""
        location = f"pc-{channel.id}" if private else f"gc-{channel.guild.id}-{channel.id}"
        instance = ActivityInstance(
            instance_id=f"i-{self._snowflake()}-{location}",
            launch_id=str(self._snowflake()),
            channel=channel,
            users=[user.id for user in users],
            private=private,
        )
        self.activity_instances[instance.instance_id] = instance
        return instance

    def authorize(self, user: User, *, client_id: int | None = None) -> str:
        """The code the Embedded App SDK's ``authorize`` gives ``user`` (scope
        ``identify``) for the application ``client_id`` (default this one: another
        id plays another application's Activity). Good once, at the token endpoint."""
        code = secrets.token_urlsafe(24)
        self._codes[code] = (client_id if client_id is not None else self.application_id, user.id)
        return code

    # ------------------------------------------------------------------ strictness

    def problems(self) -> list[str]:
        """Everything that should fail the test: unknown routes, rejected payloads,
        invalid interaction use and interactions the bot never acknowledged."""
        unanswered = [
            f"interaction {rec.label} (id {rec.id}) was never acknowledged"
            for rec in self._unacked.values()
            if not rec.unanswered_ok
        ]
        return [*self.unexpected, *self.failures, *unanswered]

    def take_problems(self) -> list[str]:
        """Return `problems()` and forget them, for tests that provoke problems on purpose."""
        found = self.problems()
        self.unexpected.clear()
        self.failures.clear()
        for rec in self._unacked.values():
            rec.unanswered_ok = True
        return found

    def check(self) -> None:
        """Raise AssertionError listing `problems()`, if there are any."""
        found = self.problems()
        if found:
            raise AssertionError("Discord double saw problems:\n  " + "\n  ".join(found))

    # ------------------------------------------------------------------ waiting

    def _touch(self) -> None:
        self._last_activity = asyncio.get_running_loop().time()
        self._changed.set()
        self._changed = asyncio.Event()

    def _ephemeral_touch(self, message: StoredMessage) -> None:
        if message.ephemeral_for is not None:
            for changed in self._ephemeral_waits.pop(message.ephemeral_for.id, ()):
                changed.set()

    async def ephemeral_change(self, users: Iterable[User], timeout: float) -> None:
        """Wait until an ephemeral message shown to one of `users` is posted, edited or
        deleted, or `timeout` seconds have passed. Many scripted members waiting at once
        each wake for their own messages only, not for every request the double serves."""
        changed = asyncio.Event()
        ids = [user.id for user in users]
        for user_id in ids:
            self._ephemeral_waits[user_id].append(changed)
        try:
            await asyncio.wait_for(changed.wait(), timeout)
        except TimeoutError:
            for user_id in ids:
                waits = self._ephemeral_waits.get(user_id, [])
                if changed in waits:
                    waits.remove(changed)

    async def idle(self, quiet: float | None = None, timeout: float = 5.0) -> None:
        """Wait until no request is in flight, every fresh interaction is acknowledged and
        the event loop has been calm for `quiet` seconds (default `self.quiet`): no traffic
        and no other work queued (the bot shares this loop, so queued callbacks mean the bot
        is still working).

        A heuristic: a bot waiting on something outside the loop for longer than `quiet`
        looks idle, unless a `busy` check reports it. Prefer `rec.response()` or
        `wait_until` when you know what to expect.
        """
        quiet = self.quiet if quiet is None else quiet
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        window = self.ack_deadline or 3.0
        calm_since: float | None = None
        while True:
            now = loop.time()
            waiting = [
                r
                for r in self._unacked.values()
                if not r.unanswered_ok and now - r.dispatched_at < window
            ]
            holding = (self.limiter is not None and self.limiter.holding()) or any(
                busy() for busy in self.busy
            )
            if self._inflight or self._tasks or waiting or holding or _loop_has_work(loop):
                calm_since = None
            else:
                calm_since = max(calm_since or now, self._last_activity)
                if now - calm_since >= quiet:
                    return
            if now >= deadline:
                raise TimeoutError(
                    f"double not idle after {timeout} s (in flight: {self._inflight}, "
                    f"unacknowledged: {[r.label for r in waiting]})"
                )
            await asyncio.sleep(0.005)

    async def wait_until(self, predicate: Callable[[], object], timeout: float = 3.0) -> None:
        """Wait until `predicate()` is truthy, re-checking after every request and gateway frame
        (and every 10 ms, since the bot updates its own state after the last frame)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"condition not met within {timeout} s; problems: {self.problems()}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.01))

    def ack_latencies(self) -> list[float]:
        """Dispatch-to-callback seconds of every acknowledged interaction, in dispatch order."""
        return [r.ack_latency for r in self.interactions if r.ack_latency is not None]

    # ------------------------------------------------------------------ faults

    def fail(
        self,
        route: str,
        status: int,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        global_: bool = False,
        match: Callable[[str, Any], bool] | None = None,
        performed: bool = False,
        hold: float = 0.0,
        until: asyncio.Event | None = None,
    ) -> Fault:
        """Make the next `times` requests to `route` fail with `status`, unserved; or,
        with `performed`, served (a message is posted, an emoji created) and then
        answered with `status` instead: the answer is lost, and a retry meets the
        work done. `hold` delays the failed answer by that many seconds: longer than
        the client waits, it is a timeout; `until` delays it until the test sets that
        event.

        `route` is "METHOD /template" as counted in `rest_calls`, e.g.
        "POST /channels/{channel_id}/messages"; `match(path, json_body)`, if given,
        picks which of them fail. 429 carries `retry_after` seconds (and is global with
        `global_`); 500/502/503/504 carry Discord's JSON error. A failed request stores
        nothing, acknowledges nothing and is recorded in `requests` with its status.

        What discord.py does by itself (2.7): on bot REST calls it waits out a 429
        and retries 500, 502 and 504 after 1, 3, 5, 7 s (five tries), but raises
        `DiscordServerError` at once on 503; on interaction callbacks, follow-ups and
        webhook edits it waits out a 429 and retries every 5xx the same way.
        """
        known = {f"{method} {path}" for method, path, _ in self._routes()}
        if route not in known:
            raise ScriptError(f"unknown route {route!r}; known: {sorted(known)}")
        fault = Fault(route, status, times, retry_after, global_, match, performed, hold, until)
        self.faults.append(fault)
        return fault

    def _fault_for(self, route: str, path: str, body: Any) -> Fault | None:
        for fault in self.faults:
            if fault.times > 0 and fault.route == route:
                if fault.match is not None and not fault.match(path, body):
                    continue
                fault.times -= 1
                fault.hits += 1
                return fault
        return None

    # ------------------------------------------------------------------ scripting users

    def _find_command(self, guild: Guild, name: str) -> dict[str, Any] | None:
        for scope in (guild.id, None):
            command = self._commands.get(scope, {}).get((1, name))
            if command is not None:
                return command
        return None

    def _option_value(
        self,
        spec: dict[str, Any],
        value: Any,
        guild: Guild,
        resolved: dict[str, dict[str, Any]],
        validate: bool = True,
    ) -> Any:
        kind = spec["type"]
        name = spec["name"]
        if not validate and not isinstance(value, User | Channel | Role):
            return value
        checks: dict[int, tuple[type | tuple[type, ...], str]] = {
            3: (str, "a str"),
            4: (int, "an int"),
            5: (bool, "a bool"),
            10: ((int, float), "a number"),
        }
        if kind in checks:
            expected, noun = checks[kind]
            if not isinstance(value, expected) or (kind in (4, 10) and isinstance(value, bool)):
                raise ScriptError(f"option {name!r} must be {noun}, got {value!r}")
            choices = spec.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise ScriptError(f"option {name!r} must be one of {[c['value'] for c in choices]}")
            if kind == 3 and not spec.get("min_length", 0) <= len(value) <= spec.get(
                "max_length", 6000
            ):
                raise ScriptError(f"option {name!r} has a length outside the allowed range")
            if kind in (4, 10) and not (
                spec.get("min_value", value) <= value <= spec.get("max_value", value)
            ):
                raise ScriptError(f"option {name!r} is outside the allowed range")
            return value
        if kind == 6:
            if not isinstance(value, User):
                raise ScriptError(f"option {name!r} needs a User from the double, got {value!r}")
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            member = guild.members.get(value.id)
            if member is not None:
                resolved.setdefault("members", {})[str(value.id)] = member.payload(
                    with_user=False, with_permissions=True
                )
            return str(value.id)
        if kind == 7:
            if not isinstance(value, Channel):
                raise ScriptError(f"option {name!r} needs a Channel from the double, got {value!r}")
            resolved.setdefault("channels", {})[str(value.id)] = {
                **value.payload(),
                "permissions": str(EVERYONE_PERMISSIONS),
            }
            return str(value.id)
        if kind == 8:
            if not isinstance(value, Role):
                raise ScriptError(f"option {name!r} needs a Role from the double, got {value!r}")
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        raise ScriptError(f"option type {kind} of {name!r} is not supported by the double")

    def _build_options(
        self,
        specs: list[dict[str, Any]],
        given: Mapping[str, Any],
        guild: Guild,
        resolved: dict[str, dict[str, Any]],
        validate: bool = True,
    ) -> list[dict[str, Any]]:
        by_name = {spec["name"]: spec for spec in specs}
        unknown = set(given) - set(by_name)
        if unknown:
            raise ScriptError(
                f"unknown options {sorted(unknown)}; the command takes {sorted(by_name)}"
            )
        missing = [s["name"] for s in specs if s.get("required") and s["name"] not in given]
        if missing and validate:
            raise ScriptError(f"missing required options {missing}")
        return [
            {
                "name": spec["name"],
                "type": spec["type"],
                "value": self._option_value(spec, given[spec["name"]], guild, resolved, validate),
            }
            for spec in specs
            if spec["name"] in given
        ]

    async def slash(
        self, user: User, channel: Channel, name: str, /, *path: str, **options: Any
    ) -> InteractionRecord:
        """Have `user` run `/name path... option=value` in `channel`, as synced by the bot.

        `path` names the subcommand group and/or subcommand; options take str, int, float,
        bool, or the double's User/Channel/Role objects (the first three parameters are
        positional-only, so options may be called `user`, `channel` or `name`).
        Returns once INTERACTION_CREATE is sent.
        """
        return await self._slash(user, channel, name, path, options, forged=False, dm=False)

    async def private_slash(
        self,
        user: User,
        channel: Channel,
        name: str,
        /,
        *path: str,
        group: bool = False,
        **options: Any,
    ) -> InteractionRecord:
        """Have `user` run a global command in their DM with the bot (context 1, the
        bot's install) or, with `group`, in a DM or group DM between users (context 2,
        where only the member's own install of the app reaches: ``authorizing_integration
        _owners`` names them alone). The command must be synced globally and allow that
        context and install (``contexts``, ``integration_types``), as a client shows it
        only then. The double files the bot's answers under `channel`."""
        command = self._commands.get(None, {}).get((1, name))
        if channel.is_private:
            group = channel.type == GROUP_DM
        context = 2 if group else 1
        if command is None:
            raise ScriptError(f"/{name} is not synced globally: DMs show global commands only")
        if context not in (command.get("contexts") or [0, 1]):
            raise ScriptError(f"/{name} is not offered in context {context}")
        if group and 1 not in (command.get("integration_types") or [0]):
            raise ScriptError(f"/{name} cannot be user-installed, so no group DM shows it")
        return await self._slash(
            user, channel, name, path, options, forged=False, dm=True, context=context
        )

    async def forge_slash(
        self,
        user: User,
        channel: Channel,
        name: str,
        /,
        *path: str,
        dm: bool = False,
        **options: Any,
    ) -> InteractionRecord:
        """Like `slash`, as a modified client could send it: option values go out raw (any
        JSON, outside the choices, ranges and types), required options may be missing.

        With `dm`, the interaction comes from the user's direct messages with the bot
        (no guild); the double files the bot's answer under `channel` for inspection.
        """
        return await self._slash(user, channel, name, path, options, forged=True, dm=dm)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        name: str,
        /,
        *path: str,
        focused: str,
        typed: str = "",
        forged: bool = False,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Have `user` type `typed` into the option `focused` of `/name path...` (the
        other options as given): the choices the bot offers, as the client shows them.
        Discord sends the typed text as a string whatever the option's type. With
        `forged`, as a modified client could send it: `focused` may name an option the
        command lacks, or one without autocomplete."""
        rec = await self._slash(
            user, channel, name, path, options, forged=forged, dm=False, focused=(focused, typed)
        )
        await rec.response()
        assert rec.choices is not None
        return rec.choices

    async def _slash(
        self,
        user: User,
        channel: Channel,
        name: str,
        path: Sequence[str],
        options: Mapping[str, Any],
        *,
        forged: bool,
        dm: bool,
        focused: tuple[str, str] | None = None,
        context: int = 1,
    ) -> InteractionRecord:
        guild = channel.guild
        command = self._find_command(guild, name)
        if command is None:
            synced = sorted({n for scope in self._commands.values() for (_, n) in scope})
            raise ScriptError(f"/{name} is not synced for {guild.name} (synced: {synced})")
        top: list[dict[str, Any]] = []
        target = top
        node = command
        for part in path:
            sub = next(
                (o for o in node.get("options", []) if o["name"] == part and o["type"] in (1, 2)),
                None,
            )
            if sub is None:
                raise ScriptError(f"/{name} has no subcommand {part!r} at this level")
            entry: dict[str, Any] = {"name": part, "type": sub["type"], "options": []}
            target.append(entry)
            target = entry["options"]
            node = sub
        if any(o["type"] in (1, 2) for o in node.get("options", [])):
            choices = [o["name"] for o in node["options"]]
            raise ScriptError(f"/{' '.join((name, *path))} needs a subcommand: one of {choices}")
        resolved: dict[str, dict[str, Any]] = {}
        target.extend(
            self._build_options(node.get("options", []), options, guild, resolved, not forged)
        )
        kind = APPLICATION_COMMAND
        if focused is not None:
            option, typed = focused
            spec = next((o for o in node.get("options", []) if o["name"] == option), None)
            if not forged and (spec is None or not spec.get("autocomplete")):
                raise ScriptError(f"option {option!r} of /{name} has no autocomplete")
            kind_of = spec["type"] if spec is not None else 3  # a string, as a client sends one
            target.append({"name": option, "type": kind_of, "value": typed, "focused": True})
            kind = APPLICATION_COMMAND_AUTOCOMPLETE
        data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1, "options": top}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        label = ("forged " if forged else "") + "/" + " ".join((name, *path))
        if focused is not None:
            label += f" (autocomplete {focused[0]})"
        return await self._dispatch_interaction(
            kind, user, channel, data, None, label, dm=dm, context=context if dm else 0
        )

    def _visible_component(
        self, user: User, message: StoredMessage | int, custom_id: str, kinds: tuple[int, ...]
    ) -> tuple[StoredMessage, dict[str, Any]]:
        stored = message if isinstance(message, StoredMessage) else self.message(message)
        if not stored.visible_to(user):
            raise ScriptError(f"{user.name} cannot see message {stored.id}")
        component = stored.component(custom_id)
        if component is None:
            ids = [
                c.get("custom_id") for c in walk_components(stored.components) if c.get("custom_id")
            ]
            raise ScriptError(f"message {stored.id} has no component {custom_id!r}; it has {ids}")
        if component["type"] not in kinds:
            raise ScriptError(f"component {custom_id!r} has type {component['type']}, not {kinds}")
        if component.get("disabled"):
            raise ScriptError(f"component {custom_id!r} is disabled")
        return stored, component

    async def click(
        self, user: User, message: StoredMessage | int, custom_id: str
    ) -> InteractionRecord:
        """Have `user` click the button `custom_id` on a message they can see."""
        stored, component = self._visible_component(user, message, custom_id, (2,))
        if component.get("style") == 5:
            raise ScriptError(
                f"{custom_id!r} is a link button; clicking it sends nothing to the bot"
            )
        data = {"custom_id": custom_id, "component_type": 2, "id": component.get("id")}
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT, user, stored.channel, data, stored, f"click {custom_id!r}"
        )

    async def forge_click(
        self, user: User, message: StoredMessage, custom_id: str, *, dm: bool = False
    ) -> InteractionRecord:
        """Have `user` click a button `custom_id` that `message` does not (or no longer) show,
        as a modified client replaying a tampered copy of the message could.

        The interaction carries `message` with its components replaced by that one button,
        since discord.py dispatches a click only to a button on the message it names.
        """
        payload = message.payload(self.application_id)
        button = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id, "id": 1}
        payload["components"] = [{"type": 1, "id": 2, "components": [button]}]
        data = {"custom_id": custom_id, "component_type": 2, "id": 1}
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT,
            user,
            message.channel,
            data,
            message,
            f"forged click {custom_id!r}",
            message_payload=payload,
            dm=dm,
        )

    async def forge_select(
        self, user: User, message: StoredMessage, custom_id: str, values: Sequence[str]
    ) -> InteractionRecord:
        """Have `user` pick `values` that the select `custom_id` does not offer, as a
        modified client could (the message's components become that one select)."""
        payload = message.payload(self.application_id)
        options = [{"label": v, "value": v} for v in values]
        select = {"type": 3, "custom_id": custom_id, "options": options, "id": 1}
        payload["components"] = [{"type": 1, "id": 2, "components": [select]}]
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values), "id": 1}
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT,
            user,
            message.channel,
            data,
            message,
            f"forged select {custom_id!r}",
            message_payload=payload,
        )

    async def select(
        self, user: User, message: StoredMessage | int, custom_id: str, values: Sequence[str]
    ) -> InteractionRecord:
        """Have `user` pick `values` in the string select `custom_id` on a message they can see."""
        stored, component = self._visible_component(user, message, custom_id, (3,))
        allowed = [option["value"] for option in component.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise ScriptError(f"{bad} are not options of {custom_id!r} (options: {allowed})")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ScriptError(f"{custom_id!r} takes between {low} and {high} values")
        data = {
            "custom_id": custom_id,
            "component_type": 3,
            "values": list(values),
            "id": component.get("id"),
        }
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT, user, stored.channel, data, stored, f"select {custom_id!r}"
        )

    async def submit_modal(
        self, user: User, opened_by: InteractionRecord, values: Mapping[str, str]
    ) -> InteractionRecord:
        """Have `user` fill in and submit the modal the bot showed in reply to `opened_by`.

        `values` maps each text input's custom_id to the text typed.
        """
        modal = opened_by.modal
        if modal is None or user is not opened_by.user:
            raise ScriptError(f"{user.name} was not shown a modal by interaction {opened_by.label}")
        inputs = {
            c["custom_id"]: c for c in walk_components(modal["components"]) if c.get("type") == 4
        }
        unknown = set(values) - set(inputs)
        if unknown:
            raise ScriptError(
                f"modal has no text inputs {sorted(unknown)}; it has {sorted(inputs)}"
            )
        for custom_id, spec in inputs.items():
            text = values.get(custom_id, "")
            if spec.get("required", True) and not text:
                raise ScriptError(f"modal input {custom_id!r} is required")
            if text and not spec.get("min_length", 0) <= len(text) <= spec.get("max_length", 4000):
                raise ScriptError(
                    f"modal input {custom_id!r} has a length outside the allowed range"
                )

        def submitted(component: dict[str, Any]) -> dict[str, Any]:
            custom_id = component["custom_id"]
            return {
                "type": 4,
                "id": component.get("id"),
                "custom_id": custom_id,
                "value": values.get(custom_id, ""),
            }

        rows: list[dict[str, Any]] = []
        for top in modal["components"]:
            if top.get("type") == 1:
                rows.append(
                    {
                        "type": 1,
                        "components": [submitted(c) for c in top["components"] if c["type"] == 4],
                    }
                )
            elif top.get("type") == 18 and top["component"].get("type") == 4:
                rows.append(
                    {"type": 18, "id": top.get("id"), "component": submitted(top["component"])}
                )
        data = {"custom_id": modal["custom_id"], "components": rows}
        return await self._dispatch_interaction(
            MODAL_SUBMIT,
            user,
            opened_by.channel,
            data,
            opened_by.source_message,
            f"modal {modal['custom_id']!r}",
        )

    async def _dispatch_interaction(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        source: StoredMessage | None,
        label: str,
        *,
        message_payload: dict[str, Any] | None = None,
        dm: bool = False,
        context: int = 1,
    ) -> InteractionRecord:
        """Send INTERACTION_CREATE; with `dm`, from outside the guild: `context` 1 (the
        bot's DM) or 2 (a DM or group DM between users, reached by a user install)."""
        guild = channel.guild
        member = guild.members.get(user.id)
        if member is None:
            raise ScriptError(f"{user.name} is not a member of {guild.name}")
        if channel.is_private:
            # Whatever is clicked or typed in a DM or group DM comes from there.
            if user.id not in channel.recipient_ids:
                raise ScriptError(f"{user.name} is not in {channel.name}")
            dm, context = True, (1 if channel.type == DM else 2)
        # Discord routes a guild's interactions to the guild's shard, direct messages to
        # shard 0.
        sessions = [
            s
            for s in self._sessions
            if s.open and (s.shard[0] == 0 if dm else s.covers_guild(guild.id))
        ]
        if not sessions:
            where = "shard 0 (direct messages)" if dm else f"the shard of {guild.name}"
            raise ScriptError(f"no bot is connected to the gateway on {where}")
        rec = InteractionRecord(
            id=self._snowflake(),
            token=f"double-{secrets.token_urlsafe(24)}",
            type=kind,
            user=user,
            channel=channel,
            data=data,
            source_message=source,
            label=label,
            context=context if dm else 0,
        )
        rec._settle = self.idle
        payload: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": rec.token,
            "version": 1,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": str(member.permissions)},
            "member": member.payload(with_permissions=True),
            "data": data,
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": str(guild.members[self.bot_user.id].permissions),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if source is not None:
            payload["message"] = message_payload or source.payload(self.application_id)
        if dm:
            # A bot DM as Discord sends it: the user instead of a member, no guild.
            for key in ("guild_id", "guild", "member", "guild_locale"):
                payload.pop(key)
            # Discord's owners: the bot's install reaches its own DM ("0" where no guild);
            # a DM or group DM between users only through the member's install.
            owners = {"0": "0"} if context == 1 else {"1": str(user.id)}
            if channel.is_private:
                dm_channel = channel.payload()
            else:
                dm_channel = {"id": str(self._snowflake()), "type": 1 if context == 1 else 3}
                dm_channel["flags"] = 0
            payload.update(
                user=user.payload(),
                channel=dm_channel,
                channel_id=dm_channel["id"],
                context=context,
                authorizing_integration_owners=owners,
            )
            payload["app_permissions"] = str(EVERYONE_PERMISSIONS)
        self.interactions.append(rec)
        self._interactions_by_id[rec.id] = rec
        self._interactions_by_token[rec.token] = rec
        self._unacked[rec.id] = rec
        rec.dispatched_at = asyncio.get_running_loop().time()
        # Discord delivers to every session of the shard: two live bot processes both get it.
        for session in sessions:
            await self._send(session, "INTERACTION_CREATE", payload)
        return rec

    async def disconnect_bot(self, *, resumable: bool = True, code: int = 4000) -> None:
        """Drop every gateway connection, as Discord does for maintenance.

        With `resumable` discord.py RESUMEs (the double sends RESUMED but replays nothing);
        otherwise its RESUME is refused with INVALID_SESSION and it identifies afresh.
        """
        if not resumable:
            self._resumable.clear()
        for session in list(self._connections):
            self._drop(session)
            await session.ws.close(code=code, message=b"double disconnect")

    # ------------------------------------------------------------------ gateway

    async def _send(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        if not session.open:
            return
        self.gateway_events[event] += 1
        try:
            await session.dispatch(event, data)
        except (ConnectionError, RuntimeError):
            # The client hung up between our check and the write; it will not see the event.
            self._drop(session)
        self._touch()

    async def _broadcast(
        self, guild_id: int, event: str, data: dict[str, Any], intent: int
    ) -> None:
        for session in list(self._sessions):
            if session.covers_guild(guild_id) and session.wants(intent):
                await self._send(session, event, data)

    def _broadcast_later(
        self, guild_id: int, event: str, data: dict[str, Any], intent: int
    ) -> None:
        # World building is synchronous; events for an already-connected bot go out in order
        # because tasks start FIFO and each session's send lock is fair.
        if self._sessions:
            self._spawn(self._broadcast(guild_id, event, data, intent))

    def _drop(self, session: GatewaySession) -> None:
        if session in self._sessions:
            self._sessions.remove(session)

    def _guild_create(self, guild: Guild, session: GatewaySession) -> dict[str, Any]:
        return guild.payload(
            include_members=session.wants(GUILD_MEMBERS), bot_user_id=self.bot_user.id
        )

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.gateway_connections.append(dict(request.query))
        if request.query.get("encoding", "json") != "json":
            self.unexpected.append(f"gateway: unsupported encoding {request.query['encoding']!r}")
            await ws.close(code=4002, message=b"Error while decoding payload.")
            return ws
        session = GatewaySession(ws, request.query.get("compress"))
        self._connections.add(session)
        try:
            await session.send(
                HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["double"]}
            )
            async for frame in ws:
                self._touch()
                if frame.type is not WSMsgType.TEXT:
                    self.unexpected.append(f"gateway: unexpected {frame.type.name} frame")
                    continue
                await self._gateway_frame(session, json.loads(frame.data))
        finally:
            self._connections.discard(session)
            self._drop(session)
        return ws

    async def _gateway_frame(self, session: GatewaySession, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            await session.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self._identify(session, data)
        elif op == RESUME:
            await self._resume(session, data)
        elif op == PRESENCE_UPDATE:
            self.presence_updates.append(data)
        elif op == REQUEST_GUILD_MEMBERS:
            await self._request_members(session, data)
        else:
            self.unexpected.append(f"gateway: unexpected op {op}: {frame}")

    async def _identify(self, session: GatewaySession, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await session.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        # No shard at all is an unsharded session: [0, 1].
        shard = _shard_of(data["shard"]) if data.get("shard") is not None else (0, 1)
        if shard is None:
            await session.ws.close(code=4010, message=b"Invalid shard.")
            return
        if self.require_sharding and shard[1] != self.recommended_shards:
            await session.ws.close(code=4011, message=b"Sharding required.")
            return
        session.intents = intents
        session.shard = shard
        self._sessions.append(session)
        self._resumable[session.session_id] = session
        guilds = [g for g in self.guilds.values() if session.covers_guild(g.id)]
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "session_type": "normal",
            "shard": list(session.shard),
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["double"],
        }
        await self._send(session, "READY", ready)
        for guild in guilds:
            await self._send(session, "GUILD_CREATE", self._guild_create(guild, session))

    async def _resume(self, session: GatewaySession, data: dict[str, Any]) -> None:
        previous = self._resumable.get(data.get("session_id", ""))
        if previous is None or data.get("token") != self.token:
            await session.send(INVALID_SESSION, False)
            return
        # Events sent while disconnected are not replayed: the double has no backlog.
        session.session_id = previous.session_id
        session.intents = previous.intents
        session.shard = previous.shard
        session.sequence = int(data.get("seq") or 0)
        self._drop(previous)
        self._sessions.append(session)
        self._resumable[session.session_id] = session
        await self._send(session, "RESUMED", {"_trace": ["double"]})

    async def _request_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        raw_ids = data.get("guild_id")
        guild_ids = raw_ids if isinstance(raw_ids, list) else [raw_ids]
        for raw in guild_ids:
            guild = self.guilds.get(int(raw))
            # Discord answers only for the guilds of the session's shard.
            if guild is None or not session.covers_guild(guild.id):
                continue
            members = list(guild.members.values())
            if data.get("user_ids"):
                wanted = {int(u) for u in data["user_ids"]}
                members = [m for m in members if m.user.id in wanted]
            else:
                query = (data.get("query") or "").lower()
                members = [
                    m
                    for m in members
                    if m.user.name.lower().startswith(query)
                    or (m.nick or "").lower().startswith(query)
                ]
                if data.get("limit"):
                    members = members[: int(data["limit"])]
            chunk = {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            await self._send(session, "GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ REST plumbing

    def _routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("GET", "/users/@me", self._get_me),
            ("POST", "/oauth2/token", self._oauth_token),
            (
                "GET",
                "/applications/{application_id}/activity-instances/{instance_id}",
                self._get_activity_instance,
            ),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/applications/{application_id}/commands", self._get_commands),
            ("PUT", "/applications/{application_id}/commands", self._put_commands),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._get_commands,
            ),
            (
                "PUT",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._put_commands,
            ),
            ("GET", "/applications/{application_id}/emojis", self._get_emojis),
            ("POST", "/applications/{application_id}/emojis", self._create_emoji),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("GET", "/channels/{channel_id}/messages", self._list_messages),
            ("POST", "/channels/{channel_id}/messages", self._create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._thread_from_message,
            ),
            ("POST", "/channels/{channel_id}/threads", self._thread_without_message),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member),
            ("GET", "/guilds/{guild_id}/scheduled-events", self._list_events),
            ("POST", "/guilds/{guild_id}/scheduled-events", self._create_event),
            ("GET", _EVENT, self._get_event),
            ("PATCH", _EVENT, self._edit_event),
            ("DELETE", _EVENT, self._delete_event),
            ("GET", _EVENT + "/users", self._event_users),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback),
            ("POST", "/webhooks/{application_id}/{token}", self._create_followup),
            (
                "GET",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self._get_webhook_message,
            ),
            (
                "PATCH",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self._edit_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self._delete_webhook_message,
            ),
        ]

    def _take(self, request: web.Request, route: str) -> Verdict | Refusal | None:
        """The request counted against Discord's rate limits (None: the limits are off)."""
        if self.limiter is None:
            return None
        verdict = self.limiter.take(request.method, route, request.match_info, request[ARRIVED])
        if isinstance(verdict, Refusal):
            self.rate_limited.append(verdict)
        return verdict

    @staticmethod
    def _too_many(refusal: Refusal) -> web.Response:
        """Discord's 429: the JSON body discord.py waits out, and the headers that tell
        it from a Cloudflare ban (`Via`)."""
        response = _json(
            {
                "message": "You are being rate limited.",
                "retry_after": round(refusal.retry_after, 3),
                "global": refusal.scope == "global",
                "code": 0,
            },
            status=429,
        )
        response.headers.update(refusal.headers)
        response.headers.update(
            {
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(refusal.retry_after))),
                "X-RateLimit-Scope": refusal.scope,
            }
        )
        return response

    def age_message(self, message: StoredMessage, seconds: float) -> None:
        """Make `message` `seconds` older, for Discord's limit on edits of old messages."""
        message.created -= seconds

    def _ratelimit_headers(self, route: str) -> dict[str, str]:
        # A huge bucket that never runs low: discord.py then never sleeps, and a Reset-After of
        # 1 s stays under any max_ratelimit_timeout a bot may set (minimum 30 s).
        bucket = self._buckets.get(route)
        if bucket is None:
            bucket = self._buckets[route] = hashlib.blake2s(
                route.encode(), digest_size=8
            ).hexdigest()
        return {
            "X-RateLimit-Limit": str(_RATE_LIMIT),
            "X-RateLimit-Remaining": str(_RATE_LIMIT - 1),
            "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
            "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": bucket,
        }

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        if request.content_type == "multipart/form-data":
            payload: Any = {}
            files: list[dict[str, Any]] = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    content = await part.read()
                    files.append(
                        {
                            "field": part.name,
                            "filename": part.filename,
                            "size": len(content),
                            "content_type": part.headers.get("Content-Type"),
                            "data": bytes(content),
                        }
                    )
            return payload, files
        if request.content_type == "application/x-www-form-urlencoded":
            # The OAuth2 token endpoint's body: each field's values (one, unless repeated).
            return urllib.parse.parse_qs(await request.text(), keep_blank_values=True), []
        if request.body_exists:
            text = await request.text()
            return (json.loads(text) if text else None), []
        return None, []

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == GATEWAY_PATH:
            return await handler(request)
        request[ARRIVED] = asyncio.get_running_loop().time()
        self._inflight += 1
        self._touch()
        route = "?"
        status = 500
        body: Any = None
        try:
            match = request.match_info
            if match.http_exception is not None:
                self.unexpected.append(f"unknown route: {request.method} {request.path_qs}")
                response: web.StreamResponse = _error(404, 0, "404: Not Found")
            else:
                route = match.route.resource.canonical.removeprefix(API_PREFIX)  # type: ignore[union-attr]
                self.rest_calls[f"{request.method} {route}"] += 1
                body, files = await self._read_body(request)
                request[BODY], request[FILES] = body, files
                # Interaction tokens are in the path; the token endpoint takes the client's
                # credentials in its body; /users/@me also takes a member's bearer token
                # (its handler checks it).
                token_route = route.startswith(("/interactions/", "/webhooks/")) or (
                    route == "/oauth2/token"
                )
                authorization = request.headers.get("Authorization", "")
                authorized = authorization == f"Bot {self.token}" or (
                    route == "/users/@me" and authorization.startswith("Bearer ")
                )
                rejected = self._against_spec(request, body, files)
                fault = (
                    None
                    if rejected is not None
                    else self._fault_for(f"{request.method} {route}", request.path, body)
                )
                private = self._private_channels.get(_snowflake_param(request, "channel_id") or 0)
                if rejected is not None:
                    response = rejected
                elif private is not None:
                    response = self._fail(
                        request,
                        403,
                        50001,
                        "Missing Access",
                        detail=f"the bot is no member of {private.name}: it may only answer "
                        "interactions there, through their tokens",
                    )
                elif fault is not None and not fault.performed:
                    response = fault.response()
                elif not token_route and not authorized:
                    response = _error(401, 0, "401: Unauthorized")
                else:
                    verdict = self._take(request, route)
                    if isinstance(verdict, Refusal):
                        response = self._too_many(verdict)
                    else:
                        response = await handler(request)
                        response.headers.update(
                            verdict.headers if verdict else self._ratelimit_headers(route)
                        )
                    if fault is not None and not isinstance(verdict, Refusal):
                        response = fault.response()  # performed, and the answer lost
                if fault is not None and fault.hold:
                    await asyncio.sleep(fault.hold)
                if fault is not None and fault.until is not None:
                    await fault.until.wait()
            status = response.status
            return response
        except Exception:
            # A 5xx would make discord.py retry with multi-second sleeps; fail fast instead.
            self.unexpected.append(
                f"double crashed on {request.method} {request.path}:\n{traceback.format_exc()}"
            )
            status = 400
            return _error(400, 0, "DiscordDouble internal error")
        finally:
            self._inflight -= 1
            self.requests.append(
                RequestRecord(request.method, route, request.path, status, body, time.monotonic())
            )
            self._touch()

    def _against_spec(
        self, request: web.Request, body: Any, files: list[dict[str, Any]]
    ) -> web.Response | None:
        """Validate the request against Discord's API specification; the rejection (recorded
        as a failure) if it does not conform, else None."""
        if not self.check_spec or request.path == API_PREFIX + "/oauth2/token":
            # Not in the specification: `_oauth_token` checks it against the OAuth2 docs.
            return None
        started = time.perf_counter()
        verdict = discord_spec().check(
            request.method,
            request.path.removeprefix(API_PREFIX),
            request.query,
            request.content_type if request.body_exists else None,
            body,
            [file["field"] for file in files],
        )
        self.spec_seconds += time.perf_counter() - started
        if verdict.operation is not None:
            self.spec_counts[verdict.operation] += 1
        if not verdict.status:
            return None
        rec = self._interactions_by_token.get(request.match_info.get("token", ""))
        detail = f"against Discord's API specification ({verdict.operation or 'no operation'})"
        if verdict.status in (404, 405):
            message = "404: Not Found" if verdict.status == 404 else "405: Method Not Allowed"
            detail = verdict.errors[0].message
            return self._fail(request, verdict.status, 0, message, rec=rec, detail=detail)
        return self._fail(
            request, 400, 50035, "Invalid Form Body", rec=rec, detail=detail, errors=verdict.errors
        )

    def _fail(
        self,
        request: web.Request,
        status: int,
        code: int,
        message: str,
        *,
        rec: InteractionRecord | None = None,
        detail: str = "",
        errors: list[FieldError] | None = None,
    ) -> web.Response:
        """Reject a request the way Discord would and record it as a test failure."""
        text = "; ".join(f"{e.path}: {e.message}" for e in errors or [])
        note = f"{request.method} {request.path}: {status} {code} {message}"
        extra = " — ".join(part for part in (detail, text) if part)
        if rec is not None:
            note += f" [interaction {rec.label}]"
        if extra:
            note += f" — {extra}"
        self.failures.append(note)
        if rec is not None:
            rec.problems.append(note)
        body = form_error_body(errors) if errors else None
        return _error(status, code, message, body)

    def _reject_message(
        self,
        request: web.Request,
        errors: list[FieldError],
        *,
        rec: InteractionRecord | None = None,
    ) -> web.Response:
        """Reject an invalid message payload; an empty message has its own error code."""
        if all(error.code == "MESSAGE_EMPTY" for error in errors):
            return self._fail(request, 400, 50006, "Cannot send an empty message", rec=rec)
        return self._fail(request, 400, 50035, "Invalid Form Body", rec=rec, errors=errors)

    # ------------------------------------------------------------------ REST: identity

    async def _get_me(self, request: web.Request) -> web.Response:
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Bearer "):
            user = self.users.get(self._access_tokens.get(authorization.removeprefix("Bearer "), 0))
            if user is None:
                return _error(401, 0, "401: Unauthorized")
            return _json({**user.payload(), "locale": "en-US", "mfa_enabled": False})
        return _json(
            {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"}
        )

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token``, the authorization_code grant as Discord's OAuth2
        documentation describes it ("Access Token Exchange"): form-encoded
        ``grant_type``, ``code``, ``client_id``, ``client_secret`` (``redirect_uri``
        optional). Errors are OAuth2's (RFC 6749 §5.2), as Discord sends them: a request
        not so formed is the bot's mistake (a test failure); a wrong client is 401
        ``invalid_client``; a code unknown, used already or made for another client is
        400 ``invalid_grant``."""
        form = request[BODY]
        if request.content_type != "application/x-www-form-urlencoded" or not isinstance(
            form, dict
        ):
            self._fail(request, 400, 0, "token request not form-encoded")
            return _json({"error": "invalid_request"}, status=400)
        fields = {key: values[0] for key, values in form.items() if len(values) == 1}
        required = OAUTH_FIELDS - {"redirect_uri"}
        unknown, repeated = set(form) - OAUTH_FIELDS, set(form) - set(fields)
        if unknown or repeated or not required <= set(fields):
            detail = f"unknown {sorted(unknown)}, repeated {sorted(repeated)}, " + (
                f"missing {sorted(required - set(fields))}"
            )
            self._fail(request, 400, 0, "invalid token request", detail=detail)
            return _json({"error": "invalid_request"}, status=400)
        if fields["grant_type"] != "authorization_code":
            self._fail(request, 400, 0, "unsupported grant_type", detail=fields["grant_type"])
            return _json({"error": "unsupported_grant_type"}, status=400)
        if fields["client_id"] != str(self.application_id) or (
            fields["client_secret"] != self.client_secret
        ):
            return _json({"error": "invalid_client"}, status=401)
        issued = self._codes.pop(fields["code"], None)  # a code is good once
        if issued is None or issued[0] != self.application_id:
            return _json(
                {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
                status=400,
            )
        token = secrets.token_urlsafe(24)
        self._access_tokens[token] = issued[1]
        return _json(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify",
            }
        )

    async def _get_activity_instance(self, request: web.Request) -> web.Response:
        _, error = self._command_scope(request)
        if error:
            return error
        instance = self.activity_instances.get(request.match_info["instance_id"])
        if instance is None:
            return _error(404, 0, "404: Not Found")
        return _json(instance.payload(self.application_id))

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(_snowflake_param(request, "user_id") or 0)
        return _json(user.payload()) if user else _error(404, 10013, "Unknown User")

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.owner.payload(),
                "team": None,
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": len(self.guilds),
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self.guilds.get(_snowflake_param(request, "guild_id") or 0)
        if guild is None:
            return _error(404, 10004, "Unknown Guild")
        member = guild.members.get(_snowflake_param(request, "user_id") or 0)
        return _json(member.payload()) if member else _error(404, 10007, "Unknown Member")

    # ------------------------------------------------------------------ REST: commands

    def _command_scope(self, request: web.Request) -> tuple[int | None, web.Response | None]:
        if _snowflake_param(request, "application_id") != self.application_id:
            return None, self._fail(
                request,
                403,
                20012,
                "You are not authorized to perform this action on this application",
            )
        if "guild_id" not in request.match_info:
            return None, None
        guild_id = _snowflake_param(request, "guild_id")
        if guild_id not in self.guilds:
            return None, self._fail(request, 404, 10004, "Unknown Guild")
        return guild_id, None

    async def _get_commands(self, request: web.Request) -> web.Response:
        scope, error = self._command_scope(request)
        return error or _json(list(self._commands.get(scope, {}).values()))

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope, error = self._command_scope(request)
        if error:
            return error
        body = request[BODY]
        if not isinstance(body, list):
            return self._fail(request, 400, 50109, "The request body contains invalid JSON.")
        errors = command_errors(body)
        if errors:
            return self._fail(request, 400, 50035, "Invalid Form Body", errors=errors)
        previous = self._commands.get(scope, {})
        kept = {(item.get("type", 1), item.get("name")) for item in body}
        dropped = [k for k in previous if k[0] == ENTRY_POINT and k not in kept]
        if dropped:
            return self._fail(
                request,
                400,
                ENTRY_POINT_DROPPED,
                "Cannot remove your app's Entry Point command in a bulk update operation. "
                "Please include the Entry Point command in your update request or delete "
                "it separately.",
            )
        synced: dict[tuple[int, str], dict[str, Any]] = {}
        for item in body:
            key = (item.get("type", 1), item["name"])
            old = previous.get(key)
            command = {
                "type": 1,
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **item,
                # Discord keeps a command's id across overwrites when name and type match.
                "id": old["id"] if old else str(self._snowflake()),
                "application_id": str(self.application_id),
                "version": str(self._snowflake()),
            }
            if scope is not None:
                command["guild_id"] = str(scope)
            synced[key] = command
        self._commands[scope] = synced
        return _json(list(synced.values()))

    # ------------------------------------------------------------------ REST: application emojis

    async def _get_emojis(self, request: web.Request) -> web.Response:
        _, error = self._command_scope(request)
        items = [emoji.payload() for emoji in self.application_emojis.values()]
        return error or _json({"items": items})

    async def _create_emoji(self, request: web.Request) -> web.Response:
        _, error = self._command_scope(request)
        if error:
            return error
        taken = {emoji.name for emoji in self.application_emojis.values()}
        errors, image = emoji_errors(request[BODY], taken)
        if errors:
            return self._fail(request, 400, 50035, "Invalid Form Body", errors=errors)
        if len(self.application_emojis) >= self.application_emoji_limit:
            # The world's state, not a malformed request: the bot is expected to cope.
            limit = self.application_emoji_limit
            return _error(400, 30018, f"Maximum number of emojis reached ({limit})")
        emoji = ApplicationEmoji(
            id=self._snowflake(), name=request[BODY]["name"], image=image, user=self.bot_user
        )
        self.application_emojis[emoji.id] = emoji
        self.emoji_uploads.append(emoji.name)
        return _json(emoji.payload(), status=201)

    # ------------------------------------------------------------------ REST: channels & messages

    def _channel(self, request: web.Request) -> Channel | None:
        return self.channels.get(_snowflake_param(request, "channel_id") or 0)

    def _channel_message(self, request: web.Request) -> tuple[Channel | None, StoredMessage | None]:
        channel = self._channel(request)
        message = self._messages.get(_snowflake_param(request, "message_id") or 0)
        if channel is None or message is None or message.channel is not channel:
            return channel, None
        # Ephemeral messages do not exist as far as the channel endpoints are concerned.
        if message.deleted or message.ephemeral:
            return channel, None
        return channel, message

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return _json(channel.payload()) if channel else _error(404, 10003, "Unknown Channel")

    async def _typing(self, request: web.Request) -> web.Response:
        return (
            web.Response(status=204)
            if self._channel(request)
            else _error(404, 10003, "Unknown Channel")
        )

    async def _list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        messages = [
            m
            for m in self.channel_messages(channel)
            if (before is None or m.id < before) and (after is None or m.id > after)
        ]
        # Newest first, except that `after` pages forward from the oldest match.
        picked = messages[:limit] if after is not None else messages[-limit:]
        return _json([m.payload(self.application_id) for m in reversed(picked)])

    async def _get_message(self, request: web.Request) -> web.Response:
        channel, message = self._channel_message(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if message is None:
            return _error(404, 10008, "Unknown Message")
        return _json(message.payload(self.application_id))

    def _new_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        files: list[dict[str, Any]],
        flags: int,
        *,
        ephemeral_for: User | None = None,
        interaction: InteractionRecord | None = None,
        message_type: int = DEFAULT_MESSAGE,
    ) -> StoredMessage:
        message = StoredMessage(
            id=self._snowflake(),
            channel=channel,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=[{"type": "rich", **embed} for embed in body.get("embeds") or []],
            components=body.get("components") or [],
            flags=flags,
            attachments=self._attachments(body, files, ephemeral=ephemeral_for is not None),
            ephemeral_for=ephemeral_for,
            interaction=interaction,
            via_webhook=interaction is not None,
            type=message_type,
        )
        number_components(message.components)
        if body.get("message_reference"):
            message.extra["message_reference"] = body["message_reference"]
        self._messages[message.id] = message
        channel.message_ids.append(message.id)
        if ephemeral_for is not None:
            self._ephemerals[ephemeral_for.id].append(message)
            self._ephemeral_touch(message)
        return message

    def _attachments(
        self, body: dict[str, Any], files: list[dict[str, Any]], *, ephemeral: bool
    ) -> list[dict[str, Any]]:
        """Discord's attachment objects for the uploaded `files`: each part `files[n]` takes
        the filename, description and spoiler flag of the payload's attachment `n` if
        given, its content type from the filename (as Discord guesses it, not the part's
        `application/octet-stream`), an image's width and height, and `ephemeral` on an
        ephemeral message."""
        described = {str(a.get("id")): a for a in body.get("attachments") or []}
        out = []
        for file in files:
            index = str(file["field"]).removeprefix("files[").removesuffix("]")
            entry = described.get(index, {})
            filename = str(entry.get("filename") or file["filename"] or "unknown")
            attachment_id = self._snowflake()
            self._attachment_data[str(attachment_id)] = file["data"]
            attachment: dict[str, Any] = {
                "id": str(attachment_id),
                "filename": filename,
                "size": file["size"],
                "url": f"https://cdn.discordapp.com/attachments/{attachment_id}/{filename}",
                "proxy_url": f"https://media.discordapp.net/attachments/{attachment_id}/{filename}",
            }
            content_type = mimetypes.guess_type(filename)[0]
            if content_type is not None:
                text = content_type.startswith("text/") or content_type == "application/json"
                attachment["content_type"] = content_type + ("; charset=utf-8" if text else "")
                if content_type.startswith("image/"):
                    attachment.update(_image_size(file["data"]))
            if entry.get("description"):
                attachment["description"] = entry["description"]
            if filename.startswith("SPOILER_") or entry.get("is_spoiler"):
                attachment["flags"] = 1 << 3  # IS_SPOILER
            if ephemeral:
                attachment["ephemeral"] = True
            out.append(attachment)
        return out

    @staticmethod
    def _is_empty(body: dict[str, Any], files: list[dict[str, Any]]) -> bool:
        return not (
            body.get("content")
            or body.get("embeds")
            or body.get("components")
            or files
            or body.get("sticker_ids")
            or body.get("poll")
        )

    def _create_errors(
        self, body: dict[str, Any], files: list[dict[str, Any]], flags: int
    ) -> list[FieldError]:
        errors = message_errors(body, flags)
        errors += component_emoji_errors(body.get("components") or [], self.application_emojis)
        if self._is_empty(body, files):
            errors.append(FieldError("content", "MESSAGE_EMPTY", "Cannot send an empty message"))
        return errors

    async def _create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        body, files = request[BODY] or {}, request[FILES]
        flags = int(body.get("flags") or 0) & _SENDABLE_FLAGS
        errors = self._create_errors(body, files, flags)
        if errors:
            return self._reject_message(request, errors)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            earlier = self._nonce_message(channel, str(nonce))
            if earlier is not None:
                # Discord's enforce_nonce: the message made with this nonce a moment ago,
                # and nothing new (no second MESSAGE_CREATE either).
                return _json(earlier.payload(self.application_id))
        message = self._new_message(channel, body, files, flags)
        if nonce is not None:
            message.extra["nonce"] = str(nonce)
            self._nonces[channel.id, str(nonce)] = (message.id, time.monotonic())
        payload = message.payload(self.application_id)
        await self._broadcast(channel.guild.id, "MESSAGE_CREATE", payload, GUILD_MESSAGES)
        return _json(payload)

    def _nonce_message(self, channel: Channel, nonce: str) -> StoredMessage | None:
        """The bot's message in `channel` created with `nonce` within `NONCE_WINDOW`
        seconds, unless it was deleted since."""
        found = self._nonces.get((channel.id, nonce))
        if found is None or time.monotonic() - found[1] > NONCE_WINDOW:
            return None
        message = self._messages[found[0]]
        return None if message.deleted else message

    def _apply_edit(
        self, message: StoredMessage, body: dict[str, Any], files: list[dict[str, Any]]
    ) -> list[FieldError]:
        """Apply an edit (only the fields present change), or return the errors if invalid."""
        content = (body.get("content") or "") if "content" in body else message.content
        embeds = (body.get("embeds") or []) if "embeds" in body else message.embeds
        components = (body.get("components") or []) if "components" in body else message.components
        flags = message.flags & ~LOADING
        if body.get("flags") is not None:
            flags = (flags & ~SUPPRESS_EMBEDS) | (
                int(body["flags"]) & (SUPPRESS_EMBEDS | COMPONENTS_V2)
            )
        if "attachments" in body:
            kept = {str(a.get("id")) for a in body.get("attachments") or []}
            attachments = [a for a in message.attachments if a["id"] in kept]
        else:
            attachments = list(message.attachments)
        attachments += self._attachments(body, files, ephemeral=message.ephemeral)
        merged = {"content": content, "embeds": embeds, "components": components}
        errors = message_errors(merged, flags)
        errors += component_emoji_errors(components, self.application_emojis)
        if self._is_empty(merged, attachments):
            errors.append(FieldError("content", "MESSAGE_EMPTY", "Cannot send an empty message"))
        if errors:
            return errors
        message.history.append(message.snapshot())
        message.content = content
        message.embeds = [{"type": "rich", **embed} for embed in embeds]
        message.components = components
        number_components(message.components)
        message.flags = flags
        message.attachments = attachments
        message.edited_timestamp = iso_now()
        self._ephemeral_touch(message)
        return []

    async def _announce_edit(self, message: StoredMessage) -> None:
        # The bot hears nothing of a DM or group DM it is no member of.
        if message.ephemeral_for is None and not message.channel.is_private:
            await self._broadcast(
                message.channel.guild.id,
                "MESSAGE_UPDATE",
                message.payload(self.application_id),
                GUILD_MESSAGES,
            )

    async def _announce_delete(self, message: StoredMessage) -> None:
        if message.ephemeral_for is None and not message.channel.is_private:
            data = {
                "id": str(message.id),
                "channel_id": str(message.channel.id),
                "guild_id": str(message.channel.guild.id),
            }
            await self._broadcast(message.channel.guild.id, "MESSAGE_DELETE", data, GUILD_MESSAGES)

    async def _edit_message(self, request: web.Request) -> web.Response:
        channel, message = self._channel_message(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if message is None:
            return _error(404, 10008, "Unknown Message")
        if message.author is not self.bot_user:
            return self._fail(request, 403, 50005, "Cannot edit a message authored by another user")
        if (
            self.limiter is not None
            and time.monotonic() - message.created > self.limiter.limits.old_message_age
        ):
            wait = self.limiter.old_edit(channel.id)
            if wait is not None:
                route = "PATCH /channels/{channel_id}/messages/{message_id}"
                self.rate_limited.append(Refusal(route, "30046", wait, {}))
                # A bare 429, without Via: discord.py raises it as an HTTPException.
                return _json(
                    {
                        "message": "Maximum number of edits to messages older than 1 hour "
                        "reached. Try again later.",
                        "code": 30046,
                        "retry_after": round(wait, 3),
                    },
                    status=429,
                )
        errors = self._apply_edit(message, request[BODY] or {}, request[FILES])
        if errors:
            return self._reject_message(request, errors)
        await self._announce_edit(message)
        return _json(message.payload(self.application_id))

    async def _delete_message(self, request: web.Request) -> web.Response:
        channel, message = self._channel_message(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if message is None:
            return _error(404, 10008, "Unknown Message")
        message.deleted = True
        self._ephemeral_touch(message)
        await self._announce_delete(message)
        return web.Response(status=204)

    def _new_thread(
        self, request: web.Request, parent: Channel, thread_id: int, kind: int
    ) -> Channel | web.Response:
        body = request[BODY] or {}
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            return self._fail(
                request,
                400,
                50035,
                "Invalid Form Body",
                errors=[
                    FieldError(
                        "name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                    )
                ],
            )
        thread = Channel(
            id=thread_id,
            guild=parent.guild,
            name=name,
            type=kind,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            thread_member_ids={self.bot_user.id},
        )
        parent.guild.threads[thread.id] = thread
        self.channels[thread.id] = thread
        return thread

    async def _thread_created(self, thread: Channel) -> web.Response:
        payload = thread.payload()
        await self._broadcast(
            thread.guild.id, "THREAD_CREATE", {**payload, "newly_created": True}, GUILDS
        )
        return _json(payload)

    async def _thread_from_message(self, request: web.Request) -> web.Response:
        channel, message = self._channel_message(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if message is None:
            return _error(404, 10008, "Unknown Message")
        if channel.type != GUILD_TEXT:
            return self._fail(request, 400, 50024, "Cannot execute action on this channel type")
        if not channel.guild.members[self.bot_user.id].permissions & CREATE_PUBLIC_THREADS:
            # Discord checks the bot's permissions in the channel; the double has no
            # channel overwrites, so the guild's are the channel's.
            return self._fail(request, 403, 50013, "Missing Permissions")
        if message.thread is not None:
            return self._fail(
                request, 400, 160004, "A thread has already been created for this message"
            )
        # A thread started from a message shares the message's id.
        thread = self._new_thread(request, channel, message.id, PUBLIC_THREAD)
        if isinstance(thread, web.Response):
            return thread
        message.thread = thread
        return await self._thread_created(thread)

    async def _thread_without_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if channel.type != GUILD_TEXT:
            return self._fail(request, 400, 50024, "Cannot execute action on this channel type")
        kind = int((request[BODY] or {}).get("type") or PRIVATE_THREAD)
        thread = self._new_thread(request, channel, self._snowflake(), kind)
        if isinstance(thread, web.Response):
            return thread
        return await self._thread_created(thread)

    async def _thread_member(self, request: web.Request) -> web.Response:
        thread = self._channel(request)
        if thread is None or not thread.is_thread:
            return _error(404, 10003, "Unknown Channel")
        raw = request.match_info["user_id"]
        user_id = self.bot_user.id if raw == "@me" else _snowflake_param(request, "user_id")
        if user_id not in thread.guild.members:
            return _error(404, 10013, "Unknown User")
        if request.method == "PUT":
            thread.thread_member_ids.add(user_id)
        else:
            thread.thread_member_ids.discard(user_id)
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: scheduled events

    def _refuse(self, request: web.Request, rejection: Rejection) -> web.Response:
        """Answer a refused scheduled-event request as Discord does. Field errors and
        missing permissions are the bot's mistakes (test failures); a finished event, a
        status moved on or the guild's limit are the world's state, which a member's
        change in Discord's UI can bring about under the bot's feet: only answered."""
        if rejection.status == 403 or any(
            error.code != "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION"
            for error in rejection.errors
        ):
            return self._fail(
                request,
                rejection.status,
                rejection.code,
                rejection.message,
                errors=rejection.errors or None,
            )
        body = form_error_body(rejection.errors) if rejection.errors else None
        return _error(rejection.status, rejection.code, rejection.message, body)

    def _event_guild(self, request: web.Request) -> tuple[Guild | None, web.Response | None]:
        guild = self.guilds.get(_snowflake_param(request, "guild_id") or 0)
        if guild is None:
            return None, self._fail(request, 404, 10004, "Unknown Guild")
        return guild, None

    def _event_of(
        self, request: web.Request
    ) -> tuple[ScheduledEvent | None, int, web.Response | None]:
        """The event the path names, the bot's guild permissions, or the answer."""
        guild, error = self._event_guild(request)
        if guild is None:
            return None, 0, error
        permissions = guild.members[self.bot_user.id].permissions
        event = guild.scheduled_events.get(
            _snowflake_param(request, "guild_scheduled_event_id") or 0
        )
        if event is None:
            # Deleted from Discord's UI, for one: the bot is expected to cope.
            return None, permissions, _error(404, 10070, "Unknown Guild Scheduled Event")
        if not may_view(permissions, event.entity_type):
            return None, permissions, self._refuse(request, MISSING_PERMISSIONS)
        return event, permissions, None

    @staticmethod
    def _with_user_count(request: web.Request) -> bool:
        return request.query.get("with_user_count", "false").lower() in ("true", "1")

    async def _list_events(self, request: web.Request) -> web.Response:
        guild, error = self._event_guild(request)
        if guild is None:
            assert error is not None
            return error
        permissions = guild.members[self.bot_user.id].permissions
        counts = self._with_user_count(request)
        return _json(
            [
                event.payload(with_user_count=counts)
                for event in guild.scheduled_events.values()
                if may_view(permissions, event.entity_type)
            ]
        )

    async def _create_event(self, request: web.Request) -> web.Response:
        guild, error = self._event_guild(request)
        if guild is None:
            assert error is not None
            return error
        body = request[BODY]
        if body.get("recurrence_rule") is not None:
            self.unexpected.append(
                f"{request.method} {request.path}: the double does not model recurring events"
            )
            return _error(400, 0, "recurrence_rule is not modelled by the double")
        if not may_create(guild.members[self.bot_user.id].permissions, body["entity_type"]):
            return self._refuse(request, MISSING_PERMISSIONS)
        rejection = create_rejection(body, guild, datetime.datetime.now(datetime.UTC))
        if rejection is not None:
            return self._refuse(request, rejection)
        if uncompleted(guild) >= UNCOMPLETED_LIMIT:
            return self._refuse(request, TOO_MANY)
        event = new_event(self._snowflake(), guild, self.bot_user, body)
        guild.scheduled_events[event.id] = event
        await self._broadcast(
            guild.id, "GUILD_SCHEDULED_EVENT_CREATE", event.payload(), GUILD_SCHEDULED_EVENTS
        )
        return _json(event.payload())

    async def _get_event(self, request: web.Request) -> web.Response:
        event, _, error = self._event_of(request)
        if event is None:
            assert error is not None
            return error
        return _json(event.payload(with_user_count=self._with_user_count(request)))

    async def _edit_event(self, request: web.Request) -> web.Response:
        event, permissions, error = self._event_of(request)
        if event is None:
            assert error is not None
            return error
        body = request[BODY]
        if body.get("recurrence_rule") is not None:
            self.unexpected.append(
                f"{request.method} {request.path}: the double does not model recurring events"
            )
            return _error(400, 0, "recurrence_rule is not modelled by the double")
        entity_type = int(body.get("entity_type") or event.entity_type)
        if not may_change(permissions, event, self.bot_user.id, entity_type):
            return self._refuse(request, MISSING_PERMISSIONS)
        rejection = edit_rejection(event, body, datetime.datetime.now(datetime.UTC))
        if rejection is not None:
            return self._refuse(request, rejection)
        apply_edit(event, body)
        await self._broadcast(
            event.guild.id, "GUILD_SCHEDULED_EVENT_UPDATE", event.payload(), GUILD_SCHEDULED_EVENTS
        )
        return _json(event.payload())

    async def _delete_event(self, request: web.Request) -> web.Response:
        event, permissions, error = self._event_of(request)
        if event is None:
            assert error is not None
            return error
        if not may_change(permissions, event, self.bot_user.id, event.entity_type):
            return self._refuse(request, MISSING_PERMISSIONS)
        del event.guild.scheduled_events[event.id]
        await self._broadcast(
            event.guild.id, "GUILD_SCHEDULED_EVENT_DELETE", event.payload(), GUILD_SCHEDULED_EVENTS
        )
        return web.Response(status=204)

    async def _event_users(self, request: web.Request) -> web.Response:
        event, _, error = self._event_of(request)
        if event is None:
            assert error is not None
            return error
        query = request.query
        before = int(query["before"]) if "before" in query else None
        after = int(query["after"]) if "after" in query else None
        with_member = query.get("with_member", "false").lower() in ("true", "1")
        page = users_page(
            event.interested, limit=int(query.get("limit", 100)), before=before, after=after
        )
        return _json(
            [
                event.user_payload(
                    self.users[user_id],
                    event.guild.members.get(user_id) if with_member else None,
                )
                for user_id in page
            ]
        )

    # ------------------------------------------------------------------ REST: interactions

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        now = request[ARRIVED]
        rec = self._interactions_by_id.get(_snowflake_param(request, "interaction_id") or 0)
        if rec is None or rec.token != request.match_info["token"]:
            return self._fail(request, 404, 10062, "Unknown interaction")
        if rec.acknowledged:
            return self._fail(
                request, 400, 40060, "Interaction has already been acknowledged.", rec=rec
            )
        if self.ack_deadline is not None and now - rec.dispatched_at > self.ack_deadline:
            return self._fail(
                request,
                404,
                10062,
                "Unknown interaction",
                rec=rec,
                detail=f"callback {now - rec.dispatched_at:.2f} s after dispatch "
                f"(limit {self.ack_deadline} s)",
            )
        body = request[BODY] or {}
        kind = body.get("type")
        data = body.get("data") or {}
        files = request[FILES]
        allowed = _CALLBACK_TYPES[rec.type]
        if kind in (6, 7) and rec.source_message is None:
            allowed = allowed - {6, 7}
        if kind not in allowed:
            return self._fail(
                request,
                400,
                50035,
                "Invalid Form Body",
                rec=rec,
                errors=[
                    FieldError(
                        "type",
                        "INTERACTION_RESPONSE_TYPE_INVALID",
                        f"Callback type {kind} is not valid for interaction type {rec.type}",
                    )
                ],
            )
        if kind == LAUNCH_ACTIVITY:
            if not self.activities_enabled:
                return self._fail(
                    request,
                    400,
                    50035,
                    "Invalid Form Body",
                    rec=rec,
                    detail="LAUNCH_ACTIVITY for an application without Activities enabled",
                )
            # The member who launched it is its first participant. From a DM or group
            # DM (a user install) the instance runs in that private channel, no guild.
            rec.activity_instance = self.start_activity(
                rec.channel, rec.user, private=rec.context != 0
            )
        elif kind == 8:
            errors = autocomplete_errors(data)
            if errors:
                return self._fail(request, 400, 50035, "Invalid Form Body", rec=rec, errors=errors)
            rec.choices = list(data.get("choices") or [])
        elif kind == 4:
            flags = int(data.get("flags") or 0) & (_SENDABLE_FLAGS | EPHEMERAL)
            errors = self._create_errors(data, files, flags)
            if errors:
                return self._reject_message(request, errors, rec=rec)
            message_type = (
                CHAT_INPUT_COMMAND_MESSAGE if rec.type == APPLICATION_COMMAND else DEFAULT_MESSAGE
            )
            rec.original = self._new_message(
                rec.channel,
                data,
                files,
                flags,
                ephemeral_for=rec.user if flags & EPHEMERAL else None,
                interaction=rec,
                message_type=message_type,
            )
        elif kind == 5:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message_type = (
                CHAT_INPUT_COMMAND_MESSAGE if rec.type == APPLICATION_COMMAND else DEFAULT_MESSAGE
            )
            rec.original = self._new_message(
                rec.channel,
                {},
                [],
                flags,
                ephemeral_for=rec.user if flags & EPHEMERAL else None,
                interaction=rec,
                message_type=message_type,
            )
        elif kind in (6, 7):
            assert rec.source_message is not None
            if kind == 7:
                errors = self._apply_edit(rec.source_message, data, files)
                if errors:
                    return self._reject_message(request, errors, rec=rec)
            # For component interactions @original is the message the component sits on.
            rec.original = rec.source_message
        else:
            errors = modal_errors(data)
            if errors:
                return self._fail(request, 400, 50035, "Invalid Form Body", rec=rec, errors=errors)
            number_components(data.get("components") or [])
            rec.modal = data
        rec.response_type = kind
        rec.acked_at = now
        self._unacked.pop(rec.id, None)
        rec._acked.set()
        if kind == 7:
            await self._announce_edit(rec.source_message)  # type: ignore[arg-type]
        elif (
            kind in (4, 5)
            and rec.original is not None
            and not rec.original.ephemeral
            and not rec.channel.is_private
        ):
            await self._broadcast(
                rec.guild.id,
                "MESSAGE_CREATE",
                rec.original.payload(self.application_id),
                GUILD_MESSAGES,
            )
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        shown = rec.original if kind in (4, 5, 7) else None
        result: dict[str, Any] = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(shown and shown.ephemeral),
            }
        }
        if shown is not None:
            result["interaction"]["response_message_id"] = str(shown.id)
            result["resource"] = {"type": kind, "message": shown.payload(self.application_id)}
        if rec.activity_instance is not None:
            instance_id = rec.activity_instance.instance_id
            result["interaction"]["activity_instance_id"] = instance_id
            result["resource"] = {"type": kind, "activity_instance": {"id": instance_id}}
        return _json(result)

    def _webhook_interaction(
        self, request: web.Request
    ) -> tuple[InteractionRecord | None, web.Response | None]:
        rec = self._interactions_by_token.get(request.match_info["token"])
        if rec is None or _snowflake_param(request, "application_id") != self.application_id:
            return None, self._fail(request, 404, 10015, "Unknown Webhook")
        if asyncio.get_running_loop().time() - rec.dispatched_at > self.token_lifetime:
            return None, self._fail(request, 401, 50027, "Invalid Webhook Token", rec=rec)
        if not rec.acknowledged:
            return None, self._fail(
                request,
                404,
                10015,
                "Unknown Webhook",
                rec=rec,
                detail="interaction webhook used before the interaction was acknowledged",
            )
        return rec, None

    def _webhook_message(
        self, request: web.Request, rec: InteractionRecord
    ) -> StoredMessage | None:
        raw = request.match_info["message_id"]
        if raw == "@original":
            message = rec.original
        else:
            message = self._messages.get(_snowflake_param(request, "message_id") or 0)
            # A token reaches its own messages, the message its component sits on, and public
            # application messages in its channel. Another interaction's ephemeral message is
            # out of reach (the strict reading: edit it through its own token, or respond to a
            # click on it).
            reachable = message is not None and (
                message.interaction is rec
                or message is rec.source_message
                or (
                    message.via_webhook and not message.ephemeral and message.channel is rec.channel
                )
            )
            if not reachable:
                message = None
        if message is None or message.deleted:
            return None
        return message

    async def _create_followup(self, request: web.Request) -> web.Response:
        rec, error = self._webhook_interaction(request)
        if error:
            return error
        assert rec is not None
        body, files = request[BODY] or {}, request[FILES]
        original = rec.original
        if original is not None and original.loading and rec.response_type == 5:
            # Discord resolves the "thinking" placeholder with the first follow-up, which keeps
            # the defer's visibility whatever flags the follow-up carries.
            errors = self._apply_edit(original, body, files)
            if errors:
                return self._reject_message(request, errors, rec=rec)
            await self._announce_edit(original)
            return _json(original.payload(self.application_id))
        if rec.context == 2 and len(rec.followups) >= USER_INSTALL_FOLLOWUPS:
            # The interaction reached the app through the member's install alone.
            return self._fail(
                request,
                400,
                40094,
                "This interaction has hit the maximum number of follow up messages",
                rec=rec,
            )
        flags = int(body.get("flags") or 0) & (_SENDABLE_FLAGS | EPHEMERAL)
        errors = self._create_errors(body, files, flags)
        if errors:
            return self._reject_message(request, errors, rec=rec)
        message = self._new_message(
            rec.channel,
            body,
            files,
            flags,
            ephemeral_for=rec.user if flags & EPHEMERAL else None,
            interaction=rec,
        )
        rec.followups.append(message)
        payload = message.payload(self.application_id)
        if not message.ephemeral and not rec.channel.is_private:
            await self._broadcast(rec.guild.id, "MESSAGE_CREATE", payload, GUILD_MESSAGES)
        return _json(payload)

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        rec, error = self._webhook_interaction(request)
        if error:
            return error
        assert rec is not None
        message = self._webhook_message(request, rec)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        return _json(message.payload(self.application_id))

    async def _edit_webhook_message(self, request: web.Request) -> web.Response:
        rec, error = self._webhook_interaction(request)
        if error:
            return error
        assert rec is not None
        message = self._webhook_message(request, rec)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        errors = self._apply_edit(message, request[BODY] or {}, request[FILES])
        if errors:
            return self._reject_message(request, errors, rec=rec)
        await self._announce_edit(message)
        return _json(message.payload(self.application_id))

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        rec, error = self._webhook_interaction(request)
        if error:
            return error
        assert rec is not None
        message = self._webhook_message(request, rec)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        message.deleted = True
        self._ephemeral_touch(message)
        await self._announce_delete(message)
        return web.Response(status=204)
