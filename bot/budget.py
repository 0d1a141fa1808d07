"""The bot token's request budget: Discord's global rate limit, paced before it is met.

Discord lets a bot token make 50 requests a second over every route but the interaction
ones (an interaction's callback and its webhooks, which are limited per interaction),
more for a bot Discord granted a higher limit; each request past it is answered 429, and
429s, 401s and 403s together past 10,000 in ten minutes get the bot's IP blocked for a
while: every server loses the bot. The limit is the token's, so the processes that share
the token share it (a process running ``k`` of ``n`` shards takes ``k/n`` of it).

Every request the bot's HTTP session makes passes :class:`RequestBudget`'s gate (an
aiohttp trace, so discord.py's own retries pass it too). A request that counts against
the global limit waits for its turn there: turns are handed out evenly, one every
``1 / pace`` seconds (``pace``: the budget less ``HEADROOM``), and the next turn goes to
the most urgent request waiting (:class:`Priority`), unless a less urgent one has waited
longer than its priority allows (:data:`ALLOWANCE`: no table starves); and whatever the
turns, two requests leave the bot ``1 / pace`` apart at least, so that turns taken
before a table's drawing cannot bunch when their pictures are ready at once.
A member's own hand (interaction responses and their webhooks) never waits.

A table edit takes its turn *before* its picture is drawn (:meth:`RequestBudget.turn`,
then :meth:`RequestBudget.prepaid` around the edit), so that what it shows is the game
as it is when its turn comes: while a table waits, the changes made meanwhile merge into
its one edit (``bot.sessions.delivery``). So when the bot asks for more than the budget,
its tables are edited less often, each showing its newest state, in priority order, and
no request meets a 429 of the bot's own making.

The gate also counts what Discord counts against the bot: every 401, 403 and 429 in the
last ten minutes (:class:`InvalidRequests`), with a warning in the log from a tenth of
the 10,000 on.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import SimpleNamespace

import aiohttp
from discord.http import Route

__all__ = [
    "ALLOWANCE",
    "DISCORD_GLOBAL_LIMIT",
    "HEADROOM",
    "INVALID_LIMIT",
    "INVALID_WARN_AT",
    "INVALID_WINDOW",
    "PRIORITY",
    "InvalidRequests",
    "Priority",
    "RequestBudget",
    "counts_globally",
]

log = logging.getLogger(__name__)

DISCORD_GLOBAL_LIMIT = 50
"""Requests a second Discord allows a bot token over every route but the interaction
ones, unless it granted the bot more."""
HEADROOM = 0.1
"""The share of the budget left unused: turns are spaced for 90% of it, so that requests
that reach Discord bunched (the network's delay varies; a busy event loop sends what
waited at once) still fall in seconds that hold no more than the budget."""


INVALID_WINDOW = 600.0
"""Seconds over which Discord counts a bot's invalid requests (401, 403, 429)."""
INVALID_LIMIT = 10_000
"""Invalid requests in ``INVALID_WINDOW`` past which Discord blocks the bot's IP."""
INVALID_WARN_AT = INVALID_LIMIT // 10
"""Invalid requests in the window from which the log warns (once a minute at most)."""
INVALID_STATUSES = frozenset({401, 403, 429})

_EXEMPT = ("/interactions/", "/webhooks/")


class Priority(enum.IntEnum):
    """How urgent a request is (issue 41: a result, then a turn passed to a member, then
    the rest): the budget's next turn goes to the request whose wait is longest past its
    priority's :data:`ALLOWANCE`."""

    RESULT = 0
    """A post that carries a result (a hand's or the game's end, a notice), a table
    showing a hand's or the game's end, and anything a member's command asks for
    (challenges, lobbies, threads): the default of a request with no other."""
    TURN = 1
    """A table whose turn just passed to a member, and that turn's ping."""
    ROUTINE = 2
    """Any other table edit (a computer's card, a trick gathered mid-hand)."""


ALLOWANCE: dict[Priority, float] = {
    Priority.RESULT: 0.0,
    Priority.TURN: 0.25,
    Priority.ROUTINE: 1.0,
}
"""Seconds a request of each priority lets the more urgent ones that came after it go
first. A fresh result goes before a table that waited less than a second for a
computer's card, but no table waits behind results for ever: with more tables than
the budget's turns, each is still edited about every (tables ÷ pace) seconds."""

PRIORITY: ContextVar[Priority] = ContextVar("tuque_priority", default=Priority.RESULT)
"""The priority of the requests this task makes (set with :meth:`RequestBudget.priority`)."""


@dataclass(slots=True)
class _Ticket:
    """A turn taken before the request it is for (a table edit's, before its drawing)."""

    used: bool = False


_PREPAID: ContextVar[_Ticket | None] = ContextVar("tuque_prepaid", default=None)


@dataclass(slots=True, eq=False)
class _Waiter:
    priority: Callable[[], Priority]
    since: float  # loop time it began to wait
    order: int
    future: asyncio.Future[None] = field(repr=False)

    def due(self) -> tuple[float, int]:
        """When its wait is up (its start, plus its priority's allowance), then its order."""
        return self.since + ALLOWANCE[self.priority()], self.order


def counts_globally(url: str) -> bool:
    """Whether a request to ``url`` counts against the token's global limit: every REST
    route but an interaction's callback and webhooks (not the gateway's websocket)."""
    if not url.startswith(Route.BASE):
        return False
    return not url[len(Route.BASE) :].startswith(_EXEMPT)


class InvalidRequests:
    """The 401, 403 and 429 answers of the last ``INVALID_WINDOW`` seconds, as Discord
    counts them against the bot (a 429 of a ``shared`` resource aside: Discord does not
    count those). Warns in the log from ``INVALID_WARN_AT`` on, once a minute at most."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._times: deque[float] = deque()
        self._warned = -float("inf")
        self.total = 0
        """Every invalid request counted since start."""

    def note(self, status: int, scope: str | None) -> None:
        """Count an answer of HTTP ``status`` (``scope``: its ``X-RateLimit-Scope``)."""
        if status not in INVALID_STATUSES or (status == 429 and scope == "shared"):
            return
        now = self._clock()
        self._times.append(now)
        self.total += 1
        count = self.recent()
        if count >= INVALID_WARN_AT and now - self._warned >= 60.0:
            self._warned = now
            log.warning(
                "%d invalid requests (401, 403, 429) to Discord in the last %d minutes: "
                "Discord blocks the bot's IP at %d",
                count,
                INVALID_WINDOW // 60,
                INVALID_LIMIT,
            )

    def recent(self) -> int:
        """Invalid requests in the last ``INVALID_WINDOW`` seconds."""
        horizon = self._clock() - INVALID_WINDOW
        while self._times and self._times[0] <= horizon:
            self._times.popleft()
        return len(self._times)


class RequestBudget:
    """This process's share of the token's global limit, and the gate every request of
    the bot's HTTP session passes (:attr:`trace`).

    Args:
        per_second: requests a second this process may make (``None``: no limit, every
            request goes at once, as in a process that makes none).
        headroom: the share of ``per_second`` left unused (:data:`HEADROOM`).

    Attributes:
        trace: the aiohttp trace to give discord.py's client
            (``discord.Client(http_trace=...)``); other traces' callbacks may be added
            to it (the metrics'), after the gate's.
        invalid: the invalid requests Discord counts against the bot.
        sent: requests that counted against the limit, since start.
        merged: table edits asked for and merged into an edit already waiting.
    """

    def __init__(self, per_second: float | None, *, headroom: float = HEADROOM) -> None:
        if per_second is not None and per_second <= 0:
            raise ValueError("a request budget is a positive number of requests a second")
        self.per_second = per_second
        self.pace = None if per_second is None else per_second * (1 - headroom)
        """Turns a second (``per_second`` less the headroom); None: no pacing."""
        self._interval = 0.0 if self.pace is None else 1 / self.pace
        self._next = 0.0  # loop time of the next turn
        self._waiters: list[_Waiter] = []
        self._order = 0
        self._timer: asyncio.TimerHandle | None = None
        self._left = -float("inf")  # loop time the last request left
        self._leaving: deque[asyncio.Future[None]] = deque()
        self._release: asyncio.TimerHandle | None = None
        self.invalid = InvalidRequests()
        self.sent = 0
        self.merged = 0
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_start.append(self._request_start)
        self.trace.on_request_end.append(self._request_end)

    @property
    def waiting(self) -> int:
        """Requests waiting for their turn now."""
        return sum(not w.future.done() for w in self._waiters)

    async def turn(self, priority: Priority | Callable[[], Priority]) -> None:
        """Wait for this process's next free turn: at once if no request waits and the
        last turn is ``1 / pace`` ago, else when the turns before it have gone to the
        requests due before it (``ALLOWANCE``). ``priority`` may be a function, asked at
        each turn (a table's urgency rises while it waits). A cancelled wait gives up
        its place."""
        if self.pace is None:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        if not self._waiters and now >= self._next:
            self._next = now + self._interval
            return
        rank = priority if callable(priority) else _constant(priority)
        self._order += 1
        waiter = _Waiter(rank, now, self._order, loop.create_future())
        self._waiters.append(waiter)
        self._arm(loop)
        try:
            await waiter.future
        except asyncio.CancelledError:
            with contextlib.suppress(ValueError):
                self._waiters.remove(waiter)
            raise

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is None and self._waiters:
            self._timer = loop.call_at(self._next, self._give_turn, loop)

    def _give_turn(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        live = [w for w in self._waiters if not w.future.done()]
        self._waiters = live
        if not live:
            return
        chosen = min(live, key=_Waiter.due)
        live.remove(chosen)
        chosen.future.set_result(None)
        # Turns keep to their schedule when one comes late (a busy loop), or a loop
        # late by a few milliseconds at each turn would give far fewer turns than the
        # budget (67% of it at 300 games); but a long stall banks one turn at most,
        # and requests leave a turn apart whatever the turns (:meth:`_leave`).
        self._next = max(self._next + self._interval, loop.time() - self._interval)
        self._arm(loop)

    @contextlib.contextmanager
    def prepaid(self) -> Iterator[None]:
        """The first request counted globally made inside (in this task, or in tasks it
        starts) has had its turn already (:meth:`turn` before drawing a table); any more
        wait for their own."""
        token = _PREPAID.set(_Ticket())
        try:
            yield
        finally:
            _PREPAID.reset(token)

    @staticmethod
    @contextlib.contextmanager
    def priority(level: Priority) -> Iterator[None]:
        """The requests made inside (in this task, or in tasks it starts) wait at ``level``."""
        token = PRIORITY.set(level)
        try:
            yield
        finally:
            PRIORITY.reset(token)

    async def _request_start(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if not counts_globally(str(params.url)):
            return
        ticket = _PREPAID.get()
        if ticket is not None and not ticket.used:
            ticket.used = True
        else:
            await self.turn(PRIORITY.get())
        await self._leave()
        self.sent += 1

    async def _leave(self) -> None:
        """Wait, if need be, until ``1 / pace`` after the last request left, in the order
        they came: a table edit leaves a little after its turn (its picture is drawn in
        between), and a drawing held up (a busy worker, a collection) would otherwise
        send a second's worth of edits at once, which Discord counts in one second.
        The gap is kept from when the last one actually left: requests that woke
        together after a stall of the loop still leave a turn apart."""
        if self.pace is None:
            return
        loop = asyncio.get_running_loop()
        if not self._leaving and loop.time() >= self._left + self._interval:
            self._left = loop.time()
            return
        future: asyncio.Future[None] = loop.create_future()
        self._leaving.append(future)
        if self._release is None:
            self._release = loop.call_at(self._left + self._interval, self._let_go, loop)
        try:
            await future
        except asyncio.CancelledError:
            with contextlib.suppress(ValueError):
                self._leaving.remove(future)
            raise

    def _let_go(self, loop: asyncio.AbstractEventLoop) -> None:
        """Let the first request waiting to leave go, and the next one a turn later."""
        self._release = None
        while self._leaving and self._leaving[0].done():  # cancelled while it waited
            self._leaving.popleft()
        if not self._leaving:
            return
        self._leaving.popleft().set_result(None)
        self._left = loop.time()
        if self._leaving:
            self._release = loop.call_at(self._left + self._interval, self._let_go, loop)

    async def _request_end(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status in INVALID_STATUSES and str(params.url).startswith(Route.BASE):
            self.invalid.note(status, params.response.headers.get("X-RateLimit-Scope"))


def _constant(priority: Priority) -> Callable[[], Priority]:
    return lambda: priority
