"""Telling the bot's other processes that a game changed: PostgreSQL's ``LISTEN``/``NOTIFY``.

With shards in several processes, a game is run by its guild's process only, but a web
page may be open at it on any process (behind a load balancer, any process serves the
page). So each write that changes a game, on a store whose ``announces`` is set,
notifies the channel :data:`CHANNEL` in its own transaction: PostgreSQL delivers a
notification when (and only if) its transaction commits, so none ever announces a change
that was not kept. The payload is :class:`Announced` as compact JSON, the game's id and
its log length (``{"game": 12, "seq": 41}``): never a card, since PostgreSQL may log
payloads and a page's hidden information must stay the store's. A listener reloads what
it needs from the store.

:class:`ChangeFeed` is the listening side: one connection of its own (not the pool's),
kept open, reopened after a loss with a doubling pause, its owner told after every
(re)connection so that it can read afresh what it may have missed meanwhile. It listens
to :data:`CHANNEL` and to any other channels its owner names (the web table's moves
relayed to the process that runs their game: ``bot.web.relay``).

SQLite has no notifications and one process: nothing here is used there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import asyncpg
from sqlalchemy import BigInteger, ColumnElement, Text, cast, func, literal, select

from bot.store.base import Connection
from bot.store.schema import game_actions

__all__ = ["CHANNEL", "Announced", "ChangeFeed", "announce", "announcement"]

log = logging.getLogger(__name__)

CHANNEL = "tuque_changes"
"""The ``NOTIFY`` channel of stored game changes."""


@dataclass(frozen=True, slots=True)
class Announced:
    """One stored change of a game, as announced: which game, and its log length after
    the change (a resignation or a game's end keeps the length of its last move)."""

    game: int
    seq: int

    @classmethod
    def parse(cls, payload: str) -> Announced | None:
        """The announcement in a notification's ``payload``; None if it is none (a
        notification on the channel from something else, or of another version)."""
        try:
            data = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        game, seq = data.get("game"), data.get("seq")
        if type(game) is not int or type(seq) is not int:
            return None
        return cls(game, seq)


def announcement(game_id: ColumnElement[int], seq: ColumnElement[int]) -> ColumnElement[Any]:
    """``pg_notify`` of :data:`CHANNEL` announcing that ``game_id`` stands at ``seq``,
    for a statement's select list (evaluated once per row it selects)."""
    payload = cast(func.json_build_object("game", game_id, "seq", seq), Text)
    return func.pg_notify(CHANNEL, payload)


async def announce(db: Connection, game_id: int) -> None:
    """Announce, in ``db``'s transaction, that ``game_id`` changed (delivered when it
    commits), with its log length as the transaction sees it. Nothing on SQLite."""
    if db.dialect.name != "postgresql":
        return
    length = (
        select(func.count())
        .select_from(game_actions)
        .where(game_actions.c.game_id == game_id)
        .scalar_subquery()
    )
    await db.execute(select(announcement(literal(game_id, BigInteger()), length)))


class ChangeFeed:
    """Listens to :data:`CHANNEL` (and ``also``) on a connection of its own, for as long
    as it runs.

    Args:
        connect: opens a new asyncpg connection to the store's database.
        heard: called with each announcement, in the order PostgreSQL delivers them
            (never waits: it schedules its work).
        also: other channels to listen to, each with what is called with each of its
            payloads (as ``heard``: in order, never waiting).
        connected: called each time the feed listens again (the first time too): what
            was announced while it was not listening is lost, so the owner reads afresh.
        first_pause, longest_pause: seconds between reconnection attempts, doubling from
            the first to the longest.
        keepalive: seconds between the checks that the connection still answers (a
            network that drops silently closes no socket).

    Attributes:
        listening: set while the feed listens.
    """

    def __init__(
        self,
        connect: Callable[[], Awaitable[asyncpg.Connection]],
        heard: Callable[[Announced], None],
        connected: Callable[[], None],
        *,
        also: Mapping[str, Callable[[str], None]] | None = None,
        first_pause: float = 0.5,
        longest_pause: float = 30.0,
        keepalive: float = 15.0,
    ) -> None:
        self._connect = connect
        self._heard = heard
        self._connected = connected
        self._also = dict(also or {})
        self.first_pause = first_pause
        self.longest_pause = longest_pause
        self.keepalive = keepalive
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._connection: asyncpg.Connection | None = None

    def start(self) -> None:
        """Start listening in the background (returns at once; ``listening`` says when)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="change-feed")

    async def close(self) -> None:
        """Stop listening and close the connection."""
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def drop(self) -> None:
        """Cut the connection as a network failure would (tests): the feed reconnects."""
        if self._connection is not None:
            self._connection.terminate()

    def _notified(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        announced = Announced.parse(payload)
        if announced is not None:
            self._heard(announced)

    async def _run(self) -> None:
        pause = self.first_pause
        lost_before = False
        while True:
            try:
                await self._listen(lost_before)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                # A single line: the feed is a view's freshness, not the game's safety.
                log.warning(
                    "listening for game changes failed (%s): again in %.1f s",
                    type(error).__name__,
                    pause,
                )
            else:
                pause = self.first_pause
                log.warning("lost the connection that listens for game changes: reconnecting")
            lost_before = True
            await asyncio.sleep(pause)
            pause = min(pause * 2, self.longest_pause)

    async def _listen(self, again: bool) -> None:
        """Listen on one connection until it is lost (returns) or fails (raises)."""
        connection = await asyncio.wait_for(self._connect(), timeout=10)
        lost = asyncio.Event()
        connection.add_termination_listener(lambda _connection: lost.set())
        self._connection = connection
        try:
            await connection.add_listener(CHANNEL, self._notified)
            for channel, handler in self._also.items():
                await connection.add_listener(channel, _payload_to(handler))
            self.listening.set()
            if again:
                log.info("listening for game changes again")
            # Listening first, then reading: a change between the two is read or heard.
            self._connected()
            while not lost.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), self.keepalive)
                if not lost.is_set():
                    await asyncio.wait_for(connection.fetchval("SELECT 1"), timeout=5)
        finally:
            self.listening.clear()
            self._connection = None
            # terminate, not close: a connection that stopped answering would hang close.
            connection.terminate()


def _payload_to(handler: Callable[[str], None]) -> Callable[[Any, int, str, str], None]:
    """An asyncpg listener that hands ``handler`` the notification's payload alone."""

    def notified(_connection: Any, _pid: int, _channel: str, payload: str) -> None:
        handler(payload)

    return notified
