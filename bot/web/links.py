"""Who may open a seat of the web table: signed, short-lived links.

A link is ``<base>/table/<game id>?t=<token>``. The token is
``<payload>.<signature>``, both unpadded base64url: the payload is compact JSON
``{"v": 1, "g": game, "s": seat, "m": member, "e": expiry}`` (``s`` and ``m`` null in a
spectator's link; ``e`` in whole seconds since the epoch), the signature HMAC-SHA256
of the payload's text with the bot's ``WEB_SECRET``. A token names no card, and only
the member it was made for is given a seat's (in their ephemeral hand message): the
table message, which anyone in the channel reads, carries only a spectator's.

An event's standings page (issue 42) has links of its own, ``<base>/event/<event
id>?t=<token>``, signed alike over ``{"v": 1, "ev": event, "e": expiry}``: a table's
token opens no standings and a standings token no table (each names its own key).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import orjson

__all__ = ["TOKEN_VERSION", "Grant", "LinkRefused", "Links"]

TOKEN_VERSION = 1
"""The token format's version (``v`` of the payload): a token of another is refused."""


class LinkRefused(ValueError):
    """A token that opens nothing: altered, expired, or for another game. The message
    says which, in words a member can act on."""


@dataclass(frozen=True, slots=True)
class Grant:
    """What a token lets its holder open.

    Attributes:
        game: the game's id.
        seat: the member's seat, or None for a spectator (the public view).
        member: the Discord user id of the member the seat's link was made for (None
            for a spectator).
        expires: when the link stops opening the table, in seconds since the epoch.
    """

    game: int
    seat: int | None
    member: int | None
    expires: int

    @property
    def spectator(self) -> bool:
        """Whether the grant is to watch (the public view), not to play a seat."""
        return self.seat is None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Links:
    """Makes and checks the web table's links.

    Args:
        secret: the HMAC-SHA256 key (``WEB_SECRET``; at least 16 bytes).
        base_url: where members' browsers reach the server, without a trailing
            slash (``WEB_URL``, e.g. ``https://tuque.example.org``).
        lifetime: seconds a link opens the table after it is made (``WEB_LINK_MINUTES``
            × 60); every redraw of a hand or table message makes a fresh one, and an
            open page is sent a fresh token with every view (``docs/web.md``).

    Raises:
        ValueError: the secret is shorter than 16 bytes or the lifetime not positive.
    """

    def __init__(self, secret: bytes, base_url: str, lifetime: float) -> None:
        if len(secret) < 16:
            raise ValueError("the web links' secret must be at least 16 bytes")
        if lifetime <= 0:
            raise ValueError("a web link's lifetime must be positive")
        self._secret = secret
        self.base_url = base_url.rstrip("/")
        self.lifetime = lifetime
        # renewed's tokens of the current minute, by (game, seat, member).
        self._minute = -1
        self._renewed: dict[tuple[int, int | None, int | None], str] = {}

    def token(
        self, game: int, seat: int | None, member: int | None, now: float | None = None
    ) -> str:
        """A token for ``member`` at ``seat`` of ``game`` (both None: a spectator's),
        opening it for :attr:`lifetime` seconds from ``now`` (default the clock)."""
        now = time.time() if now is None else now
        expires = int(now + self.lifetime)
        payload = {"v": TOKEN_VERSION, "g": game, "s": seat, "m": member, "e": expires}
        body = _b64(orjson.dumps(payload))
        return f"{body}.{self._sign(body)}"

    def renewed(self, grant: Grant, now: float | None = None) -> str:
        """A fresh token for the same game, seat and member as ``grant``: one made this
        minute of the clock is fresh enough (it opens the table for :attr:`lifetime`
        less at most a minute), and a page is sent a new token with every view, a
        signature a frame when made anew each time."""
        now = time.time() if now is None else now
        minute = int(now // 60)
        if minute != self._minute:
            self._minute = minute
            self._renewed = {}
        key = (grant.game, grant.seat, grant.member)
        token = self._renewed.get(key)
        if token is None:
            token = self._renewed[key] = self.token(grant.game, grant.seat, grant.member, now)
        return token

    def seat_link(self, game: int, seat: int, member: int) -> str:
        """The link that opens ``seat`` of ``game`` for the member ``member``."""
        return self._link(game, self.token(game, seat, member))

    def spectator_link(self, game: int) -> str:
        """The link that opens ``game``'s public view."""
        return self._link(game, self.token(game, None, None))

    def event_token(self, event: int, now: float | None = None) -> str:
        """A token for ``event``'s standings page, opening it for :attr:`lifetime`
        seconds from ``now`` (default the clock)."""
        now = time.time() if now is None else now
        payload = {"v": TOKEN_VERSION, "ev": event, "e": int(now + self.lifetime)}
        body = _b64(orjson.dumps(payload))
        return f"{body}.{self._sign(body)}"

    def event_link(self, event: int) -> str:
        """The link that opens ``event``'s standings page."""
        return f"{self.base_url}/event/{event}?t={quote(self.event_token(event), safe='')}"

    def check_event(self, token: str, event: int, now: float | None = None) -> int:
        """When ``token``, a link to ``event``'s standings, stops opening them (seconds
        since the epoch).

        Raises:
            LinkRefused: as :meth:`check`: not ours or altered, another version,
                another event (or a table's token), or expired.
        """
        payload = self._payload(token)
        try:
            grant = int(payload["ev"]), int(payload["e"])
        except (KeyError, TypeError, ValueError):
            raise LinkRefused("This link is not an event's standings.") from None
        if grant[0] != event:
            raise LinkRefused(f"This link is for event #{grant[0]}, not event #{event}.")
        if grant[1] < (time.time() if now is None else now):
            raise LinkRefused(
                "This link has expired: open a fresh one from the event's standings message."
            )
        return grant[1]

    def _payload(self, token: str) -> dict[str, Any]:
        """The signed payload of ``token``, of this format version.

        Raises:
            LinkRefused: not ours or altered, unreadable, or of another version.
        """
        body, dot, signature = token.partition(".")
        if not dot or not hmac.compare_digest(self._sign(body), signature):
            raise LinkRefused("This link is not valid: it was altered or cut short.")
        try:
            payload = orjson.loads(_unb64(body))
        except (binascii.Error, ValueError):
            payload = None
        if not isinstance(payload, dict):
            # Signed by us yet unreadable: only a change of format can do that.
            raise LinkRefused("This link is not valid: it was altered or cut short.")
        if payload.get("v") != TOKEN_VERSION:
            raise LinkRefused("This link is from an older version of the bot: ask for a new one.")
        return payload

    def _link(self, game: int, token: str) -> str:
        return f"{self.base_url}/table/{game}?t={quote(token, safe='')}"

    def _sign(self, body: str) -> str:
        return _b64(hmac.new(self._secret, body.encode(), hashlib.sha256).digest())

    def check(self, token: str, game: int, now: float | None = None) -> Grant:
        """The grant of ``token``, a link to ``game``, at ``now`` (default the clock).

        Raises:
            LinkRefused: the token is not one of ours or was altered, is of another
                format version, is for another game, or has expired.
        """
        body, dot, signature = token.partition(".")
        if not dot or not hmac.compare_digest(self._sign(body), signature):
            raise LinkRefused("This link is not valid: it was altered or cut short.")
        try:
            payload = orjson.loads(_unb64(body))
            grant = Grant(int(payload["g"]), payload["s"], payload["m"], int(payload["e"]))
            version = payload["v"]
        except (binascii.Error, ValueError, KeyError, TypeError):
            # Signed by us yet unreadable: only a change of format can do that.
            raise LinkRefused("This link is not valid: it was altered or cut short.") from None
        if version != TOKEN_VERSION:
            raise LinkRefused("This link is from an older version of the bot: ask for a new one.")
        if grant.game != game:
            raise LinkRefused(f"This link is for game #{grant.game}, not game #{game}.")
        if grant.expires < (time.time() if now is None else now):
            raise LinkRefused(
                "This link has expired: open a fresh one from your hand message "
                "(Show my hand) or the table message."
            )
        return grant
