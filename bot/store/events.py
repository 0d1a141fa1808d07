"""Events ("euchre nights", issue 42): their records, Discord messages and tables' games.

An event is stored whole, as the JSON record of :class:`bot.events.event.Event`
(``Event.to_record``): its options, sign-ups, entries and every round's seating and
results. The rules of the event are :mod:`bot.events`'s; the store decides races:

- Every change is ``change_event(id, change)``: one write transaction that locks the
  event's row (``FOR UPDATE`` on PostgreSQL; SQLite's writer holds the file), reads the
  record, asks ``change(event)`` for the event after the request and writes it. A
  request the event refuses raises its ``EventError`` and writes nothing. Two racing
  changes queue on the lock and the second is asked of the first's event: of two hosts
  pressing Start, one starts the event and the other's Start raises ``AlreadyStarted``;
  a Join and the Start never lose each other.
- A table's game is linked to its table (``event_tables``) in the transaction that
  creates the game (``create_game(..., event_table=...)``), which first locks the
  event's row and finds it running that round with that table not opened yet
  (``_claim_table``): a table has one game, whichever process opens it, and a member
  is seated where the stored round says, at one table.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, insert, select, update

from bot.events.event import (
    AlreadyStarted,
    Event,
    EventClosed,
    InAnother,
    StaleRound,
    Status,
)
from bot.events.model import Config
from bot.store.base import Connection, StoreBase, StoreError, _now
from bot.store.schema import event_tables, events, players

__all__ = ["EventNotFound", "EventQueries", "EventRow", "TableOpened"]

_OPEN = (Status.SIGN_UP.value, Status.RUNNING.value, Status.BETWEEN.value)


class EventNotFound(StoreError, LookupError):
    """No event has this id."""

    def __init__(self, event_id: int) -> None:
        super().__init__(f"no event with id {event_id}")
        self.event_id = event_id


class TableOpened(StoreError):
    """The table of the round has its game already (``game_id``): another Start, or
    another process, opened it first."""

    def __init__(self, event_id: int, round_no: int, table_no: int, game_id: int) -> None:
        super().__init__(f"event {event_id} round {round_no} table {table_no} is game {game_id}")
        self.game_id = game_id


@dataclass(frozen=True)
class EventRow:
    """An event as stored.

    Attributes:
        event: the event (its rules and state: :class:`bot.events.event.Event`).
        guild_id, channel_id: where it runs (its posts and its tables' threads).
        host_id: the member who created it.
        starts_at: when it starts by itself, seconds since the epoch.
        round_started_at: when the round in play was seated (its clock), or None.
        scheduled_event_id: its Discord Scheduled Event, once created.
        signup_message_id, standings_message_id: its posts in the channel.
        tables: the game of each opened table, ``(round, table) -> game id``.
    """

    event: Event
    guild_id: int
    channel_id: int
    host_id: int
    starts_at: float
    round_started_at: float | None
    scheduled_event_id: int | None
    signup_message_id: int | None
    standings_message_id: int | None
    created_at: float
    updated_at: float
    tables: dict[tuple[int, int], int] = field(default_factory=dict)

    @property
    def id(self) -> int:
        """The event's id."""
        return self.event.id

    @property
    def round_ends_at(self) -> float | None:
        """When the round in play's clock runs out (seconds since the epoch): its seating
        time plus the event's minutes; None for rounds by hands only, or no round in
        play."""
        minutes = self.event.config.minutes
        if self.event.status is not Status.RUNNING or minutes is None:
            return None
        return None if self.round_started_at is None else self.round_started_at + minutes * 60

    def round_games(self, round_no: int) -> dict[int, int]:
        """The games of round ``round_no``'s opened tables, ``table -> game id``."""
        return {t: g for (r, t), g in self.tables.items() if r == round_no}


async def _load(db: Connection, event_id: int, *, lock: bool = False) -> EventRow:
    query = select(events).where(events.c.id == event_id)
    row = (await db.execute(query.with_for_update() if lock else query)).first()
    if row is None:
        raise EventNotFound(event_id)
    tables = {
        (t.round_no, t.table_no): t.game_id
        for t in await db.execute(
            select(event_tables.c.round_no, event_tables.c.table_no, event_tables.c.game_id)
            .where(event_tables.c.event_id == event_id)
            .order_by(event_tables.c.round_no, event_tables.c.table_no)
        )
    }
    return EventRow(
        event=Event.from_record(json.loads(row.record)),
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        host_id=row.host_id,
        starts_at=float(row.starts_at),
        round_started_at=None if row.round_started_at is None else float(row.round_started_at),
        scheduled_event_id=row.scheduled_event_id,
        signup_message_id=row.signup_message_id,
        standings_message_id=row.standings_message_id,
        created_at=float(row.created_at),
        updated_at=float(row.updated_at),
        tables=tables,
    )


async def _check_free(db: Connection, event_id: int, member: int) -> None:
    """Raise ``InAnother`` if ``member`` is in an open event other than ``event_id``.
    Every open event's row is locked, in id order (as a single event's change locks
    one row only, no two transactions wait on each other in a circle)."""
    open_events = (
        select(events.c.id, events.c.record)
        .where(events.c.status.in_(_OPEN))
        .order_by(events.c.id)
        .with_for_update()
    )
    for other in await db.execute(open_events):
        if other.id == event_id:
            continue
        event = Event.from_record(json.loads(other.record))
        known = event.member(member)
        if known is not None and known.left is None:
            raise InAnother(
                f"You're in **{event.config.name}** until it is over: one event at a time."
            )


def _dump(event: Event) -> str:
    return json.dumps(event.to_record(), separators=(",", ":"))


async def _claim_table(db: Connection, event_id: int, round_no: int, table_no: int) -> None:
    """Check, first in the transaction that creates a table's game, that the event's
    table may open now, and lock the event's row until that transaction ends (it then
    links the game with ``_link_table``): of two openings of one table the second
    waits here, then finds the table opened.

    Raises:
        EventNotFound: no such event.
        EventClosed: the event is over or cancelled.
        StaleRound: the event is not playing round ``round_no`` (not started, between
            rounds, or on another round), or the round has no such table.
        TableOpened: the table has its game already.
    """
    row = await _load(db, event_id, lock=True)
    event = row.event
    if event.closed:
        raise EventClosed(f"{event.config.name} is {event.status.value}.")
    if event.status is not Status.RUNNING or event.round_no != round_no:
        raise StaleRound(f"Round {round_no} of {event.config.name} is not in play.")
    if not 1 <= table_no <= len(event.rounds[-1].seatings):
        raise StaleRound(f"Round {round_no} has no table {table_no}.")
    opened = row.tables.get((round_no, table_no))
    if opened is not None:
        raise TableOpened(event_id, round_no, table_no, opened)


async def _link_table(
    db: Connection, event_id: int, round_no: int, table_no: int, game_id: int
) -> None:
    """Make ``game_id`` the event's table's game (after ``_claim_table``)."""
    await db.execute(
        insert(event_tables).values(
            event_id=event_id, round_no=round_no, table_no=table_no, game_id=game_id
        )
    )


class EventQueries(StoreBase):
    """The ``Store`` methods on events."""

    async def create_event(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        config: Config,
        *,
        starts_at: float,
        now: float | None = None,
    ) -> EventRow:
        """A new event in sign-up, with ``config``; it starts by itself at ``starts_at``
        (seconds since the epoch) unless its host starts it first."""
        now = _now(now)

        async def work(db: Connection) -> EventRow:
            event_id = (
                await db.execute(
                    insert(events)
                    .values(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=host_id,
                        status=Status.SIGN_UP.value,
                        record="{}",
                        starts_at=starts_at,
                        created_at=now,
                        updated_at=now,
                    )
                    .returning(events.c.id)
                )
            ).scalar_one()
            await db.execute(
                update(events)
                .where(events.c.id == event_id)
                .values(record=_dump(Event(event_id, config)))
            )
            return await _load(db, event_id)

        return await self._write(work)

    async def load_event(self, event_id: int) -> EventRow:
        """The event. Raises ``EventNotFound``."""
        async with self._read() as db:
            return await _load(db, event_id)

    async def change_event(
        self,
        event_id: int,
        change: Callable[[Event], Event],
        *,
        seated: bool = False,
        joining: int | None = None,
        now: float | None = None,
    ) -> EventRow:
        """Apply ``change`` (a request of :class:`Event`: ``lambda e: e.join(user)``) to
        the event as stored, in one transaction that locks its row first, and store the
        event it returns. ``seated``: the change seats a round (its clock starts now).
        ``joining``: the change signs this member up; refused while they are in another
        event not over (any server's: one seat a night, rulings R37), checked with
        every open event's row locked, so two sign-ups racing for two events cannot
        both pass.

        Raises:
            EventNotFound: no such event.
            InAnother: ``joining`` is in another open event.
            EventError: the event refused the request (``change`` raised it); nothing
                was written.
        """
        now = _now(now)

        async def work(db: Connection) -> EventRow:
            if joining is not None:
                await _check_free(db, event_id, joining)
            row = await _load(db, event_id, lock=True)
            after = change(row.event)
            values: dict[str, Any] = {
                "record": _dump(after),
                "status": after.status.value,
                "updated_at": now,
            }
            if seated:
                values["round_started_at"] = now
            await db.execute(update(events).where(events.c.id == event_id).values(values))
            return await _load(db, event_id)

        return await self._write(work)

    async def set_event_messages(
        self,
        event_id: int,
        *,
        scheduled_event_id: int | None = None,
        signup_message_id: int | None = None,
        standings_message_id: int | None = None,
    ) -> None:
        """Remember the event's Discord Scheduled Event and posts (the ids given; None
        leaves one as it is). Raises ``EventNotFound``."""
        values = {
            name: value
            for name, value in (
                ("scheduled_event_id", scheduled_event_id),
                ("signup_message_id", signup_message_id),
                ("standings_message_id", standings_message_id),
            )
            if value is not None
        }

        async def work(db: Connection) -> None:
            result = await db.execute(update(events).where(events.c.id == event_id).values(values))
            if result.rowcount == 0:
                raise EventNotFound(event_id)

        if values:
            await self._write(work)

    async def set_event_start(self, event_id: int, starts_at: float) -> EventRow:
        """Move the start of an event still in sign-up to ``starts_at`` (its Discord
        Scheduled Event was edited). Raises ``EventNotFound``; ``AlreadyStarted`` (an
        ``EventError``) once it started."""

        async def work(db: Connection) -> EventRow:
            row = await _load(db, event_id, lock=True)
            if row.event.status is not Status.SIGN_UP:
                raise AlreadyStarted(f"{row.event.config.name} has started already.")
            await db.execute(
                update(events).where(events.c.id == event_id).values(starts_at=starts_at)
            )
            return await _load(db, event_id)

        return await self._write(work)

    async def event_by_scheduled_event(self, scheduled_event_id: int) -> EventRow | None:
        """The event shown as Discord Scheduled Event ``scheduled_event_id``, if any."""
        async with self._read() as db:
            event_id = (
                await db.execute(
                    select(events.c.id).where(events.c.scheduled_event_id == scheduled_event_id)
                )
            ).scalar_one_or_none()
            return None if event_id is None else await _load(db, event_id)

    async def open_events(self) -> list[EventRow]:
        """The events of this process's shards in sign-up or running, oldest first: what
        the runner takes up after a restart."""
        async with self._read() as db:
            ids = (
                await db.execute(
                    select(events.c.id)
                    .where(events.c.status.in_(_OPEN), self.shards.clause(events.c.guild_id))
                    .order_by(events.c.id)
                )
            ).scalars()
            return [await _load(db, event_id) for event_id in list(ids)]

    async def open_events_here(self, guild_id: int, channel_id: int) -> list[EventRow]:
        """The events of a guild's channel in sign-up or running, oldest first: what the
        Activity launched there offers (its standings, the member's table)."""
        async with self._read() as db:
            ids = (
                await db.execute(
                    select(events.c.id)
                    .where(
                        events.c.status.in_(_OPEN),
                        events.c.guild_id == guild_id,
                        events.c.channel_id == channel_id,
                    )
                    .order_by(events.c.id)
                )
            ).scalars()
            return [await _load(db, event_id) for event_id in list(ids)]

    async def event_of_game(self, game_id: int) -> tuple[int, int, int] | None:
        """The event table game ``game_id`` plays, ``(event id, round, table)``, or None."""
        async with self._read() as db:
            row = (
                await db.execute(
                    select(
                        event_tables.c.event_id, event_tables.c.round_no, event_tables.c.table_no
                    ).where(event_tables.c.game_id == game_id)
                )
            ).first()
        return None if row is None else (row.event_id, row.round_no, row.table_no)

    async def player_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """The last known display names of ``user_ids`` in the guild (those known)."""
        async with self._read() as db:
            rows = await db.execute(
                select(players.c.user_id, players.c.display_name).where(
                    players.c.guild_id == guild_id, players.c.user_id.in_(list(user_ids))
                )
            )
            return {row.user_id: row.display_name for row in rows}

    async def finished_events(self, guild_id: int) -> list[Event]:
        """The guild's finished events, oldest first (places in ``/tuque stats``)."""
        async with self._read() as db:
            records = (
                await db.execute(
                    select(events.c.record)
                    .where(and_(events.c.guild_id == guild_id, events.c.status == Status.FINISHED))
                    .order_by(events.c.id)
                )
            ).scalars()
            return [Event.from_record(json.loads(r)) for r in records]
