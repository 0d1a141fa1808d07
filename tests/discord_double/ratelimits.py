"""Discord's rate limits, as the double applies them to the bot's requests.

Discord limits each route per *bucket*: the route with its major parameter (the channel,
the guild, or the webhook and its token), ``limit`` requests per window of ``per``
seconds that starts with the bucket's first request. Every answer carries the bucket's
state in ``X-RateLimit-*`` headers, and a request past the limit is refused with 429 and
``retry_after``. On top of that, every route but the interaction ones shares a global
limit of 50 requests a second, and a message older than an hour may be edited only a few
times an hour in its channel (error 30046, which Discord answers with a bare 429).

Discord publishes the mechanism, not the figures: the defaults are the ones commonly
observed (5 message posts and 5 edits per 5 s in a channel; 50 a second globally). The
number of edits of hour-old messages is unpublished; three an hour in a channel is a
guess on the strict side.
"""

from __future__ import annotations

import bisect
import collections
import hashlib
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["TEST_SPEED", "Limit", "Limiter", "RateLimits", "Refusal", "Verdict"]

TEST_SPEED = 0.03
"""How much shorter the end-to-end tests' rate-limit windows are than Discord's
(``RateLimits().scaled(TEST_SPEED)``); the tests' bot paces its table edits likewise."""


@dataclass(frozen=True, slots=True)
class Limit:
    """``requests`` per window of ``per`` seconds."""

    requests: int
    per: float


MESSAGE_ROUTES: Mapping[str, Limit] = MappingProxyType(
    {
        "POST /channels/{channel_id}/messages": Limit(5, 5.0),
        "PATCH /channels/{channel_id}/messages/{message_id}": Limit(5, 5.0),
        "DELETE /channels/{channel_id}/messages/{message_id}": Limit(5, 5.0),
        "POST /channels/{channel_id}/messages/{message_id}/threads": Limit(5, 5.0),
        "POST /channels/{channel_id}/threads": Limit(5, 5.0),
        "POST /webhooks/{application_id}/{token}": Limit(5, 2.0),
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}": Limit(5, 2.0),
    }
)
"""The routes a game uses most, with the limits commonly observed on them."""


@dataclass(frozen=True, slots=True)
class RateLimits:
    """Which limits the double applies.

    Attributes:
        routes: per-route limits, keyed ``"METHOD /template"`` as in ``rest_calls``.
        default: the limit of every other route.
        global_per_second: requests a second over every route but the interaction
            callback and the interaction webhooks (``None``: no global limit).
        old_message_age: seconds after which a message is old for 30046.
        old_message_edits: edits of old messages allowed in a channel.
    """

    routes: Mapping[str, Limit] = field(default_factory=lambda: MESSAGE_ROUTES)
    default: Limit = Limit(50, 1.0)
    global_per_second: int | None = 50
    old_message_age: float = 3600.0
    old_message_edits: Limit = Limit(3, 3600.0)

    def scaled(self, factor: float) -> RateLimits:
        """The same limits on a clock ``factor`` times as long: ``scaled(0.1)`` allows
        5 posts per 0.5 s in a channel and 500 requests a second. The end-to-end tests
        run Discord's limits thirty times faster, with the bot's pacing likewise, so that a
        whole game stays seconds long while every limit keeps its shape."""
        return RateLimits(
            routes=MappingProxyType(
                {route: Limit(x.requests, x.per * factor) for route, x in self.routes.items()}
            ),
            default=Limit(self.default.requests, self.default.per * factor),
            global_per_second=(
                None if self.global_per_second is None else round(self.global_per_second / factor)
            ),
            old_message_age=self.old_message_age,
            old_message_edits=self.old_message_edits,
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """A request within its limits, and the headers its answer carries."""

    headers: dict[str, str]


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request past a limit: answered 429 after ``retry_after`` seconds' wait is due;
    ``scope`` is Discord's ``X-RateLimit-Scope`` (``user`` or ``global``)."""

    route: str
    scope: str
    retry_after: float
    headers: dict[str, str]


_MAJOR = re.compile(r"\{(channel_id|guild_id|application_id|interaction_id|token)\}")
_INTERACTION_ROUTES = ("/interactions/", "/webhooks/")


@dataclass(slots=True)
class _Window:
    remaining: int
    resets_at: float  # time.monotonic()


class Limiter:
    """The buckets' state: :meth:`take` is asked once per request, in arrival order."""

    def __init__(self, limits: RateLimits, clock: collections.abc.Callable[[], float]) -> None:
        self.limits = limits
        self._clock = clock
        self._windows: dict[tuple[str, tuple[str, ...]], _Window] = {}
        self._global: list[float] = []  # arrival times of the requests counted, in order
        self._old_edits: dict[int, _Window] = {}
        self._refused_until = 0.0

    def take(
        self,
        method: str,
        template: str,
        params: Mapping[str, str],
        arrived: float | None = None,
    ) -> Verdict | Refusal:
        """Count a request to ``template`` (with its ``params``) against its limits.

        ``arrived``: when the request reached the double (this limiter's clock; default
        now). Discord counts a request against the global limit in the second it
        arrives; the double gets to count it only once its body is read and checked
        against the specification, later by however busy its event loop is, so
        requests that arrived apart would otherwise be counted together."""
        now = self._clock()
        at = now if arrived is None else min(arrived, now)
        route = f"{method} {template}"
        limit = self.limits.routes.get(route, self.limits.default)
        bucket = hashlib.blake2s(route.encode(), digest_size=8).hexdigest()
        if self.limits.global_per_second is not None and not template.startswith(
            _INTERACTION_ROUTES
        ):
            # Kept a while past a second: a request still being read may have arrived
            # before those counted last.
            del self._global[: bisect.bisect_right(self._global, now - 10.0)]
            first = bisect.bisect_right(self._global, at - 1.0)
            if bisect.bisect_right(self._global, at) - first >= self.limits.global_per_second:
                retry = self._global[first] + 1.0 - at
                self._refused_until = max(self._refused_until, now + retry)
                return Refusal(route, "global", retry, {"X-RateLimit-Global": "true"})
        major = tuple(params.get(name, "") for name in _MAJOR.findall(template))
        window = self._windows.get((route, major))
        if window is None or window.resets_at <= now:
            window = self._windows[(route, major)] = _Window(limit.requests, now + limit.per)
        reset_after = window.resets_at - now
        headers = {
            "X-RateLimit-Limit": str(limit.requests),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
        if window.remaining <= 0:
            headers["X-RateLimit-Remaining"] = "0"
            self._refused_until = max(self._refused_until, window.resets_at)
            return Refusal(route, "user", reset_after, headers)
        window.remaining -= 1
        if self.limits.global_per_second is not None and not template.startswith(
            _INTERACTION_ROUTES
        ):
            bisect.insort(self._global, at)
        headers["X-RateLimit-Remaining"] = str(window.remaining)
        return Verdict(headers)

    def holding(self) -> bool:
        """Whether a 429 told a client to wait and its wait is not over: its request is
        still to come, however quiet it is. (A client that waits before a spent bucket
        sends nothing the double can see: the bot under test tells it, `DiscordDouble.busy`.)"""
        return self._clock() < self._refused_until

    def old_edit(self, channel_id: int) -> float | None:
        """Count an edit of an old message in ``channel_id``: None if allowed, else the
        seconds until the channel may edit old messages again (Discord's 30046)."""
        now = self._clock()
        limit = self.limits.old_message_edits
        window = self._old_edits.get(channel_id)
        if window is None or window.resets_at <= now:
            window = self._old_edits[channel_id] = _Window(limit.requests, now + limit.per)
        if window.remaining <= 0:
            return window.resets_at - now
        window.remaining -= 1
        return None
