"""The store's events on both backends (an SQLite file, a PostgreSQL database): the
record kept whole, the Discord ids, and the races the store decides (two Starts, a
Join racing the Start, two openings of one table), from two stores on one database as
two of the bot's processes would race."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import TypeVar

import pytest
from sqlalchemy import func, select

from bot.events.event import AlreadyIn, AlreadyStarted, Event, EventClosed, StaleRound, Status
from bot.events.model import Config, Format
from bot.store import EventNotFound, SeatRow, Store, TableOpened, schema

T0 = 1_000_000.0
RACES = 4
"""Tries of each race: the two calls are made at once and either may win."""
T = TypeVar("T")


@pytest.fixture
async def stores(database: str | Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one database: two processes of the bot."""
    async with await Store.open(database) as one, await Store.open(database) as two:
        yield one, two


def swiss(rounds: int = 3) -> Config:
    return Config("Friday night", "tuque", Format.SWISS, rounds=rounds, seed=42, hands=2)


async def jittered(call: Awaitable[T]) -> T:
    """``call`` after up to 4 ms, so either of two racing calls may go first."""
    await asyncio.sleep(random.uniform(0, 0.004))
    return await call


async def test_an_event_is_kept_whole_and_each_change_is_one_write(
    stores: tuple[Store, Store],
) -> None:
    """The record comes back as stored; a refused request writes nothing; the Discord
    ids are remembered and find the event."""
    store, _ = stores
    row = await store.create_event(1, 2, 100, swiss(), starts_at=T0 + 3600, now=T0)
    assert row.event == Event(row.id, swiss()) and row.starts_at == T0 + 3600
    for member in (100, 200, 300):
        row = await store.change_event(row.id, lambda e, m=member: e.join(m), now=T0)
    assert row.event.signed_up == (100, 200, 300)
    with pytest.raises(AlreadyIn):
        await store.change_event(row.id, lambda e: e.join(200), now=T0 + 1)
    assert (await store.load_event(row.id)).updated_at == T0
    await store.set_event_messages(row.id, scheduled_event_id=77, signup_message_id=88)
    found = await store.event_by_scheduled_event(77)
    assert found is not None and found.signup_message_id == 88 and found.event == row.event
    assert [r.id for r in await store.open_events()] == [row.id]
    row = await store.change_event(row.id, lambda e: e.cancel())
    assert row.event.status is Status.CANCELLED and await store.open_events() == []
    with pytest.raises(EventNotFound):
        await store.load_event(row.id + 1)


async def test_two_starts_at_once_start_the_event_once(stores: tuple[Store, Store]) -> None:
    """Two hosts press Start at once (two processes): one starts round 1, the other is
    refused; a Join racing the Start is either in round 1 or a late sign-up, never lost."""
    one, two = stores
    for _ in range(RACES):
        row = await one.create_event(1, 2, 100, swiss(), starts_at=T0)
        for member in (100, 200, 300):
            await one.change_event(row.id, lambda e, m=member: e.join(m))
        results = await asyncio.gather(
            jittered(one.change_event(row.id, lambda e: e.start(), seated=True)),
            jittered(two.change_event(row.id, lambda e: e.start(), seated=True)),
            jittered(two.change_event(row.id, lambda e: e.join(400))),
            return_exceptions=True,
        )
        assert sum(isinstance(r, AlreadyStarted) for r in results[:2]) == 1
        event = (await one.load_event(row.id)).event
        assert event.status is Status.RUNNING and event.round_no == 1
        member = event.member(400)
        assert member is not None
        seated = {m for s in event.rounds[0].seatings for m in s.seats}
        assert (400 in seated) == (member.joined == 1)


async def test_a_member_racing_into_two_events_gets_one(stores: tuple[Store, Store]) -> None:
    """One seat a night (R37): a member's Joins of two open events at once, from two
    processes, sign them up for one; the other is refused and writes nothing. Once
    that event is over they may join another."""
    one, two = stores
    for n in range(RACES):
        member = 1000 + n
        first = await one.create_event(1, 2, 100, swiss(), starts_at=T0)
        second = await one.create_event(1, 3, 100, swiss(), starts_at=T0)
        results = await asyncio.gather(
            jittered(one.change_event(first.id, lambda e, m=member: e.join(m), joining=member)),
            jittered(two.change_event(second.id, lambda e, m=member: e.join(m), joining=member)),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["EventRow", "InAnother"]
        rows = [await one.load_event(x.id) for x in (first, second)]
        assert sum(r.event.member(member) is not None for r in rows) == 1
        joined, refused = rows if rows[0].event.member(member) else rows[::-1]
        assert refused.updated_at == (first if refused.id == first.id else second).updated_at
        await one.change_event(joined.id, lambda e: e.cancel())
        again = await two.change_event(refused.id, lambda e, m=member: e.join(m), joining=member)
        assert again.event.member(member) is not None
        await one.change_event(refused.id, lambda e: e.cancel())


async def test_a_table_opens_one_game_for_its_round_only(stores: tuple[Store, Store]) -> None:
    """Two openings of one table at once make one game, the other raises TableOpened
    and writes nothing; a table of a round no longer in play is refused."""
    one, two = stores
    row = await one.create_event(5, 2, 100, swiss(), starts_at=T0)
    for member in (100, 200, 300, 400):
        await one.change_event(row.id, lambda e, m=member: e.join(m))
    row = await one.change_event(row.id, lambda e: e.start(), seated=True)
    seating = row.event.rounds[0].seatings[0]
    seats = [SeatRow.human(n, m) for n, m in enumerate(seating.seats) if m is not None]

    def open_table(store: Store, round_no: int = 1) -> Awaitable[int]:
        return store.create_game(
            5, 2, "tuque", {}, seating.seed, 0, seats, ["deal"], event_table=(row.id, round_no, 1)
        )

    results = await asyncio.gather(
        jittered(open_table(one)), jittered(open_table(two)), return_exceptions=True
    )
    games = [r for r in results if isinstance(r, int)]
    assert len(games) == 1 and sum(isinstance(r, TableOpened) for r in results) == 1
    assert (await one.load_event(row.id)).tables == {(1, 1): games[0]}
    assert await one.event_of_game(games[0]) == (row.id, 1, 1)
    async with one._read() as db:
        count = select(func.count()).select_from(schema.games).where(schema.games.c.guild_id == 5)
        assert (await db.execute(count)).scalar_one() == 1
    with pytest.raises(StaleRound):
        await open_table(one, round_no=2)
    await one.change_event(row.id, lambda e: e.cancel())
    with pytest.raises(EventClosed):
        await open_table(two)
