"""The bot token's request budget: Discord's global rate limit, paced before it is met.

Discord lets a bot token make 50 requests a second over every route but the interaction
ones (an interaction's callback and its webhooks, which are limited per interaction),
more for a bot Discord granted a higher limit; each request past it is answered 429, and
429s, 401s and 403s together past 10,000 in ten minutes get the bot's IP blocked for a
while: every server loses the bot. The limit is the token's, so the processes that share
the token share it (a process running ``k`` of ``n`` shards takes ``k/n`` of it).

Every request the bot's HTTP session makes passes :class:`RequestBudget`'s gate (an
aiohttp trace, so discord.py's own retries pass it too). A request that counts against
the global limit first waits for its *turn*, then *leaves* (is sent):

- Requests leave so that no second holds more than ``pace`` of them (``pace``: the
  budget less ``HEADROOM``), counted over the last second of actual departures, and at
  least ``1 / (CATCH_UP * pace)`` apart: a loop that ran late sends what waited at up
  to ``CATCH_UP`` times the pace, never more than the pace in any second, and so loses
  no turns to its lateness.
- A turn lets a request start towards leaving: a table edit takes its turn *before* its
  picture is drawn (:meth:`RequestBudget.turn`, then :meth:`RequestBudget.prepaid`
  around the edit). Turns run at most ``AHEAD`` seconds of the pace ahead of the
  departures, so that a picture is drawn just before its request can leave, never to
  wait seconds behind others while its game moves on. The next turn goes to the most
  urgent request waiting (:class:`Priority`), unless a less urgent one has waited
  longer than its priority allows (:data:`ALLOWANCE`: no table starves).

While a table waits for its turn, the changes made meanwhile merge into its one edit
(``bot.sessions.delivery``). So when the bot asks for more than the budget, its tables
are edited less often, each showing its newest state, in priority order, and no request
meets a 429 of the bot's own making. A member's own hand (interaction responses and
their webhooks) never waits. A wait for a turn is no part of a try's time
(:func:`pacing`): a post that waits out a crowd is not given up.

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
from typing import Any

import aiohttp
from discord.http import Route

__all__ = [
    "AHEAD",
    "ALLOWANCE",
    "CATCH_UP",
    "DISCORD_GLOBAL_LIMIT",
    "HEADROOM",
    "INVALID_LIMIT",
    "INVALID_WARN_AT",
    "INVALID_WINDOW",
    "LEASE",
    "PRIORITY",
    "TRY_DEADLINE",
    "InvalidRequests",
    "Priority",
    "RequestBudget",
    "counts_globally",
    "pacing",
]

log = logging.getLogger(__name__)

DISCORD_GLOBAL_LIMIT = 50
"""Requests a second Discord allows a bot token over every route but the interaction
ones, unless it granted the bot more."""
HEADROOM = 0.08
"""The share of the budget left unused: requests leave at 92% of it (46 a second of 50),
so that requests that reach Discord bunched (the network's delay varies) still fall in
seconds that hold no more than the budget: no second of departures holds more than 46,
so Discord counts 51 only if five requests of the next second's arrive early enough to
join them. At 6% (47 of 50) the Discord double counted 50 in a second at 300 games (its
stamps bunch two requests or so when its loop is busy) and three runs of ten met a
single 429; at 8% it counted 49 at most, and the tables were edited 2% less often; at
10% (45) 4% less often, and the lag at 300 games passed its limit (``docs/bot.md``)."""
CATCH_UP = 1.25
"""How much faster than the pace requests may leave while a loop that ran late catches
up. At twice the pace, the bunches it sent came back a second later (no second holds
more than the pace, so a slot opens a second after each departure), and four
requests 11 ms apart were enough for a Discord that stamps arrivals 45 ms unevenly to
count a 51st; at 1.25 times it takes some 70 ms (the double counted 48 at most, where
at twice the pace it counted 50 and met 429s, ``docs/bot.md``)."""
AHEAD = 0.25
"""Seconds of the pace by which turns may run ahead of departures: enough to draw the
next tables while the last ones leave, too few for a picture to go stale waiting."""
LEASE = 2.0
"""Seconds after which a turn no request used (its edit failed before it was sent)
stops holding a place ahead of the departures."""


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
    the rest, and last the clean-up): the budget's next turn goes to the request whose
    wait is longest past its priority's :data:`ALLOWANCE`."""

    RESULT = 0
    """A post that carries a result (a hand's or the game's end, a notice), a table
    showing a hand's or the game's end, and anything a member's command asks for
    (challenges, lobbies, threads): the default of a request with no other."""
    TURN = 1
    """A table whose turn just passed to a member, and that turn's ping."""
    ROUTINE = 2
    """Any other table edit (a computer's card, a trick gathered mid-hand)."""
    CLEANUP = 3
    """Taking away what no longer matters (the ping of a turn that is over): nobody
    waits for it, so it goes after every table that waits, within its allowance (a
    minute: past the stretch of a crowd's start when every table waits, where its
    deletions took half the budget for ten seconds at an allowance of 5 s)."""


ALLOWANCE: dict[Priority, float] = {
    Priority.RESULT: 0.0,
    Priority.TURN: 0.25,
    Priority.ROUTINE: 1.0,
    Priority.CLEANUP: 60.0,
}
"""Seconds a request of each priority lets the more urgent ones that came after it go
first. A fresh result goes before a table that waited less than a second for a
computer's card, but no table waits behind results for ever: with more tables than
the budget's turns, each is still edited about every (tables ÷ pace) seconds."""

PRIORITY: ContextVar[Priority] = ContextVar("tuque_priority", default=Priority.RESULT)
"""The priority of the requests this task makes (set with :meth:`RequestBudget.priority`)."""


TRY_DEADLINE: ContextVar[tuple[asyncio.Timeout, asyncio.Task[Any]] | None] = ContextVar(
    "tuque_try_deadline", default=None
)
"""The timeout of the try a request is made in, and the task that made the try
(:func:`bot.replies.deliver` sets them): its clock stops while that task waits for the
bot's own pacing (:func:`pacing`)."""


@contextlib.contextmanager
def pacing() -> Iterator[None]:
    """A wait of the bot's own pacing (a turn of the budget, a channel's slot): the try's
    clock (:data:`TRY_DEADLINE`) stops inside, and the try keeps the time it had left.
    A try is given time for Discord to answer, not for the bot's queue: while a crowd's
    tables wait, a turn can take longer than every try together, and a post that must
    land (a result) would fail with none of it sent."""
    tried = TRY_DEADLINE.get()
    # Only in the try's own task: a task it started has a copy of its context, and may
    # outlive the try, whose timeout can then no longer be moved.
    deadline = tried[0] if tried is not None and tried[1] is asyncio.current_task() else None
    when = None if deadline is None or deadline.expired() else deadline.when()
    if deadline is None or when is None:
        yield
        return
    loop = asyncio.get_running_loop()
    left = when - loop.time()
    deadline.reschedule(None)
    try:
        yield
    finally:
        if not deadline.expired():
            deadline.reschedule(loop.time() + left)


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
        """Requests a second that may leave (``per_second`` less the headroom); None: no
        pacing."""
        # In any second at most `_per_window` leave, at least `_gap` apart; turns run at
        # most `_ahead` ahead of them.
        self._per_window = 0 if self.pace is None else max(1, int(self.pace))
        self._gap = 0.0 if self.pace is None else 1 / (CATCH_UP * self.pace)
        self._ahead = 0 if self.pace is None else max(2, round(self.pace * AHEAD))
        self._waiters: list[_Waiter] = []
        self._order = 0
        self._granted: deque[float] = deque()  # loop times of turns not yet used
        self._left: deque[float] = deque()  # loop times requests left, the last second's
        self._leaving: deque[asyncio.Future[None]] = deque()
        self._timer: asyncio.TimerHandle | None = None  # the next departure's
        self._expiry: asyncio.TimerHandle | None = None  # the oldest unused turn's lease
        self.invalid = InvalidRequests()
        self.sent = 0
        self.merged = 0
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_start.append(self._request_start)
        self.trace.on_request_end.append(self._request_end)

    @property
    def waiting(self) -> int:
        """Requests waiting now: for their turn, or to leave. Counted, not scanned (a
        computer asks before each move, while hundreds may wait): a wait granted or
        given up leaves its queue at once, but for a cancelled one whose task has not
        resumed yet, counted until it does."""
        return len(self._waiters) + len(self._leaving)

    @property
    def backlog(self) -> float:
        """Seconds of the pace the requests waiting now fill (0 without a pace): past a
        second or so, the bot asks more than the budget gives."""
        return 0.0 if self.pace is None else self.waiting / self.pace

    async def turn(self, priority: Priority | Callable[[], Priority]) -> None:
        """Wait for this process's next turn: at once if no request waits and turns are
        less than ``AHEAD`` seconds ahead of the departures, else when the turns before
        it have gone to the requests due before it (``ALLOWANCE``). ``priority`` may be
        a function, asked at each turn (a table's urgency rises while it waits). A
        cancelled wait gives up its place."""
        if self.pace is None:
            return
        loop = asyncio.get_running_loop()
        if not self._waiters and self._room(loop):
            self._grant(loop)
            return
        rank = priority if callable(priority) else _constant(priority)
        self._order += 1
        waiter = _Waiter(rank, loop.time(), self._order, loop.create_future())
        self._waiters.append(waiter)
        try:
            await waiter.future
        except asyncio.CancelledError:
            if waiter.future.cancelled():
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
            else:  # granted, then cancelled before it ran: the turn goes unused
                self._used(loop)
            raise

    def _room(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether another turn may be granted now (unused turns past ``LEASE`` lapse)."""
        horizon = loop.time() - LEASE
        while self._granted and self._granted[0] <= horizon:
            self._granted.popleft()
        return len(self._granted) < self._ahead

    def _grant(self, loop: asyncio.AbstractEventLoop) -> None:
        self._granted.append(loop.time())
        if self._expiry is None:
            self._expiry = loop.call_at(self._granted[0] + LEASE, self._lapse, loop)

    def _lapse(self, loop: asyncio.AbstractEventLoop) -> None:
        """The oldest unused turn's lease is over: its place goes to a waiting request."""
        self._expiry = None
        self._room(loop)  # drops the lapsed turns, waiters or none
        self._give_turns(loop)
        if self._granted and self._expiry is None:
            self._expiry = loop.call_at(self._granted[0] + LEASE, self._lapse, loop)

    def _used(self, loop: asyncio.AbstractEventLoop) -> None:
        """A turn was used (its request left) or given up: its place is free."""
        if self._granted:
            self._granted.popleft()
        self._give_turns(loop)

    def _give_turns(self, loop: asyncio.AbstractEventLoop) -> None:
        """Grant turns while there is room, each to the request most due."""
        waiters = self._waiters
        while waiters and self._room(loop):
            chosen = _most_due(waiters)
            if chosen is None:
                return
            waiters.remove(chosen)
            chosen.future.set_result(None)
            self._grant(loop)

    @contextlib.contextmanager
    def prepaid(self) -> Iterator[None]:
        """The first request counted globally made inside (in this task, or in tasks it
        starts) has had its turn already (:meth:`turn` just before, as a table takes
        its turn before its picture is drawn); any more wait for their own. A turn no
        request used inside (the edit failed before it was sent) frees its place."""
        ticket = _Ticket()
        token = _PREPAID.set(ticket)
        try:
            yield
        finally:
            _PREPAID.reset(token)
            if not ticket.used and self.pace is not None:
                ticket.used = True
                self._used(asyncio.get_running_loop())

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
        loop = asyncio.get_running_loop()
        with pacing():
            if ticket is not None and not ticket.used:
                ticket.used = True
            else:
                await self.turn(PRIORITY.get())
            try:
                await self._leave(loop)
            finally:
                self._used(loop)
        self.sent += 1

    def _departs(self, loop: asyncio.AbstractEventLoop) -> float:
        """The loop time from which the next request may leave (in the past: at once):
        ``_gap`` after the last one, and not while the last second already holds
        ``_per_window``."""
        horizon = loop.time() - 1.0
        while self._left and self._left[0] <= horizon:
            self._left.popleft()
        if not self._left:
            return -float("inf")
        at = self._left[-1] + self._gap
        if len(self._left) >= self._per_window:
            at = max(at, self._left[-self._per_window] + 1.0)
        return at

    async def _leave(self, loop: asyncio.AbstractEventLoop) -> None:
        """Wait, if need be, until the request may leave, in the order they came. The
        count is of actual departures: requests that woke together after a stall of
        the loop (a drawing held up, a collection) still leave ``_gap`` apart, and
        never more than the pace in a second, which Discord counts."""
        if self.pace is None:
            return
        if not self._leaving and self._departs(loop) <= loop.time():
            self._left.append(loop.time())
            return
        future: asyncio.Future[None] = loop.create_future()
        self._leaving.append(future)
        if self._timer is None:
            self._timer = loop.call_at(max(self._departs(loop), loop.time()), self._let_go, loop)
        try:
            await future
        except asyncio.CancelledError:
            with contextlib.suppress(ValueError):
                self._leaving.remove(future)
            raise

    def _let_go(self, loop: asyncio.AbstractEventLoop) -> None:
        """Let the first request waiting to leave go, and time the next one's."""
        self._timer = None
        while self._leaving and self._leaving[0].done():  # cancelled while it waited
            self._leaving.popleft()
        if not self._leaving:
            return
        if self._departs(loop) <= loop.time():
            self._leaving.popleft().set_result(None)
            self._left.append(loop.time())
        if self._leaving:
            self._timer = loop.call_at(max(self._departs(loop), loop.time()), self._let_go, loop)

    async def _request_end(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status in INVALID_STATUSES and str(params.url).startswith(Route.BASE):
            self.invalid.note(status, params.response.headers.get("X-RateLimit-Scope"))


def _most_due(waiters: list[_Waiter]) -> _Waiter | None:
    """The waiter most due (:meth:`_Waiter.due`) of ``waiters``, in the order they came;
    None if every one's wait is over (cancelled, its task not yet resumed).

    Hundreds wait while the bot asks more than its budget, and a turn is given dozens of
    times a second: the scan stops at the first waiter that came after the best due time
    found, since none after it can be due sooner (an allowance is never negative)."""
    best: _Waiter | None = None
    best_due = (float("inf"), 0)
    for waiter in waiters:
        if waiter.since >= best_due[0]:
            break
        if waiter.future.done():
            continue
        due = waiter.due()
        if due < best_due:
            best, best_due = waiter, due
    return best


def _constant(priority: Priority) -> Callable[[], Priority]:
    return lambda: priority
