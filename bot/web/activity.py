"""Who opens the table inside Discord: the Activity's OAuth2 exchange.

The page inside Discord asks the Embedded App SDK's ``authorize`` for a code and posts
it here with its Activity instance's id. The server, as Discord's examples do
(``embedded-app-sdk-examples``: ``tokenHandler.ts``, ``getActivityInstanceHandler.ts``),
keeps the client secret and asks Discord:

1. ``POST /oauth2/token``, form-encoded ``grant_type=authorization_code``, ``code``,
   ``client_id``, ``client_secret``: the member's access token (a code is good once,
   for the application it was made for);
2. ``GET /users/@me`` with ``Authorization: Bearer <access token>``: who the member is;
3. ``GET /applications/{application id}/activity-instances/{instance id}`` with the
   bot's token: where the instance runs (its guild and channel) and who is in it.

Only a member in the instance gets a :class:`Seat` (the member, the guild and the
channel); what they may open follows from the channel, never from the page. A page
that starts a game sends the access token back instead of a code, and checks 2 and 3
run again (:meth:`ActivityAuth.recheck`): the token may be another member's, or its
member may have left the instance since. Every
failing check is an :class:`ActivityRefused` with a status and words to show, and
nothing else: a code, a token or Discord's own answer is never put in one, nor in a
log line.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.http import Route

__all__ = [
    "EXCHANGE_TIMEOUT",
    "ActivityAuth",
    "ActivityRefused",
    "InstanceLookup",
    "Seat",
    "bot_instance_lookup",
]

log = logging.getLogger(__name__)

EXCHANGE_TIMEOUT = 10.0
"""Seconds the whole exchange with Discord may take before it is given up (the page
then shows an error and may try again)."""

_MAX_FIELD = 512
"""The longest code or instance id taken from a page (Discord's are far shorter)."""


class ActivityRefused(Exception):
    """A sign-in to the Activity that opens nothing.

    Attributes:
        status: the HTTP status to answer with (400 malformed, 401 a code or token
            Discord refused, 403 not in the instance, 404 no such instance, 502/503
            Discord or the bot's own configuration failed).
        kind: a word a page can switch on (``malformed``, ``code``, ``token``,
            ``instance``, ``not_participant``, ``off``, ``discord``).
        reason: the words to show the member.
    """

    def __init__(self, status: int, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.kind = kind
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Seat:
    """A member signed in to an Activity instance they are in.

    Attributes:
        access_token: the member's OAuth2 access token, for the SDK's ``authenticate``.
        member: the member's user id.
        guild: the instance's guild, or None in a DM or group DM.
        channel: the channel (or thread) the instance runs in.
        instance: the instance's id.
        users: the instance's participants as Discord lists them, the member among them.
    """

    access_token: str
    member: int
    guild: int | None
    channel: int
    instance: str
    users: tuple[int, ...] = ()


InstanceLookup = Callable[[int, str], Awaitable[dict[str, Any] | None]]
"""``lookup(application_id, instance_id)``: the instance as Discord describes it
(``EmbeddedActivityInstance``), or None when Discord knows no such instance."""


def bot_instance_lookup(http: discord.http.HTTPClient) -> InstanceLookup:
    """The instance lookup through the bot's own HTTP client: its token, its rate limits
    and the API it talks to (``Route.BASE``)."""

    async def lookup(application_id: int, instance_id: str) -> dict[str, Any] | None:
        route = Route(
            "GET",
            "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=application_id,
            instance_id=instance_id,
        )
        try:
            return await http.request(route)  # type: ignore[no-any-return]
        except discord.NotFound:
            return None

    return lookup


class ActivityAuth:
    """Signs members in to the table inside Discord (the module's three checks).

    Args:
        client_id: the application's id (``client.application_id``).
        client_secret: the OAuth2 client secret (``DISCORD_CLIENT_SECRET``); kept here
            and sent to Discord's token endpoint only.
        instances: looks an instance up with the bot's token (:func:`bot_instance_lookup`).
        api_url: Discord's API base; None reads discord.py's ``Route.BASE`` at each
            exchange, so the Activity talks to the API the bot talks to (tests point
            that at the Discord double).
        timeout: seconds the exchange may take in all (:data:`EXCHANGE_TIMEOUT`).
    """

    def __init__(
        self,
        client_id: int,
        client_secret: str,
        instances: InstanceLookup,
        *,
        api_url: str | None = None,
        timeout: float = EXCHANGE_TIMEOUT,
    ) -> None:
        self.client_id = client_id
        self._client_secret = client_secret
        self._instances = instances
        self._api_url = api_url
        self._timeout = aiohttp.ClientTimeout(total=timeout)

    def __repr__(self) -> str:
        return f"ActivityAuth(client_id={self.client_id})"

    @property
    def api_url(self) -> str:
        """The Discord API base the exchange talks to, without a trailing slash."""
        return (self._api_url or Route.BASE).rstrip("/")

    async def sign_in(self, code: object, instance_id: object) -> Seat:
        """The seat of the member whose ``code`` this is, in the instance ``instance_id``
        (checks 1 to 3 of the module).

        Raises:
            ActivityRefused: a field is missing or not a short string; Discord refuses
                the code (forged, used already, expired, or made for another
                application) or the token; the instance is unknown, of another
                application, or the member is not in it; Discord fails or is slow.
        """
        code = _field(code, "code")
        return await self._checked(_field(instance_id, "instance_id"), code=code)

    async def recheck(self, access_token: object, instance_id: object) -> Seat:
        """The seat of the member whose ``access_token`` this is (as :meth:`sign_in`
        answered it), in the instance ``instance_id``, checked afresh at Discord: who the
        token is for and whether they are still in the instance.

        Raises:
            ActivityRefused: as :meth:`sign_in`, a token Discord refuses in place of a code.
        """
        token = _field(access_token, "access_token")
        return await self._checked(_field(instance_id, "instance_id"), token=token)

    async def _checked(
        self, instance_id: str, *, code: str | None = None, token: str | None = None
    ) -> Seat:
        """Checks 1 (with ``code``, else ``token`` is given) to 3 of the module."""
        try:
            async with aiohttp.ClientSession(timeout=self._timeout) as session:
                if token is None:
                    assert code is not None
                    token = await self._exchange(session, code)
                member = await self._member(session, token)
            instance = await self._instances(self.client_id, instance_id)
        except (aiohttp.ClientError, TimeoutError, discord.DiscordServerError) as error:
            log.warning("activity sign-in: Discord did not answer (%s)", type(error).__name__)
            raise ActivityRefused(
                502, "discord", "Discord did not answer the sign-in: try again in a moment."
            ) from None
        except discord.HTTPException as error:
            log.warning("activity sign-in: instance lookup refused (HTTP %d)", error.status)
            raise ActivityRefused(
                502, "discord", "Discord refused to describe this Activity: try again."
            ) from None
        return self._seat(token, member, instance_id, instance)

    async def _exchange(self, session: aiohttp.ClientSession, code: str) -> str:
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "client_id": str(self.client_id),
            "client_secret": self._client_secret,
        }
        async with session.post(f"{self.api_url}/oauth2/token", data=form) as response:
            body = await _json_or_none(response)
        if response.status == 401:
            # invalid_client: the secret is not this application's. The operator's to fix.
            log.error("activity sign-in: Discord refused DISCORD_CLIENT_SECRET (invalid_client)")
            raise ActivityRefused(
                503, "off", "The table inside Discord is misconfigured on this bot."
            )
        token = body.get("access_token") if isinstance(body, dict) else None
        if response.status != 200 or not isinstance(token, str) or not token:
            raise ActivityRefused(
                401,
                "code",
                "This sign-in code is not valid: it was used already, has expired, or is "
                "not for this app. Close the Activity and open it again.",
            )
        return token

    async def _member(self, session: aiohttp.ClientSession, token: str) -> int:
        headers = {"Authorization": f"Bearer {token}"}
        async with session.get(f"{self.api_url}/users/@me", headers=headers) as response:
            body = await _json_or_none(response)
        user_id = body.get("id") if isinstance(body, dict) else None
        if response.status != 200 or not isinstance(user_id, str) or not user_id.isdigit():
            raise ActivityRefused(
                401, "token", "Discord did not accept the sign-in: open the Activity again."
            )
        return int(user_id)

    def _seat(
        self, token: str, member: int, instance_id: str, instance: dict[str, Any] | None
    ) -> Seat:
        if instance is None or str(instance.get("application_id")) != str(self.client_id):
            raise ActivityRefused(
                404, "instance", "This Activity is not running (or is not Tuque's)."
            )
        users = tuple(int(user) for user in instance.get("users") or () if str(user).isdigit())
        if member not in users:
            raise ActivityRefused(
                403, "not_participant", "You are not in this Activity: join it in Discord first."
            )
        location = instance.get("location") or {}
        channel = location.get("channel_id")
        guild = location.get("guild_id")
        if channel is None:
            raise ActivityRefused(404, "instance", "This Activity runs in no channel.")
        return Seat(
            access_token=token,
            member=member,
            guild=int(guild) if guild is not None else None,
            channel=int(channel),
            instance=instance_id,
            users=users,
        )


def _field(value: object, name: str) -> str:
    if not isinstance(value, str) or not value or len(value) > _MAX_FIELD:
        raise ActivityRefused(400, "malformed", f"The sign-in needs `{name}`, a short string.")
    return value


async def _json_or_none(response: aiohttp.ClientResponse) -> Any:
    try:
        return await response.json(content_type=None)
    except (ValueError, aiohttp.ContentTypeError):
        return None
