"""The store on PostgreSQL: a game change in one round trip, and connections that drop
(no ping before each use: see ``bot.store.base``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.pool import ConnectionPoolEntry

from bot.store import HandRecord, SeatRow, StaleAction, Store
from bot.store import base as store_base
from bot.store import games as store_games
from tests.postgres import PostgresServer

ANN, BOB = 100, 200


@pytest.fixture
async def url(postgres: PostgresServer) -> str:
    """A new database on the tests' PostgreSQL server, with the bot's schema."""
    return await postgres.database()


@pytest.fixture
async def store(url: str) -> AsyncIterator[Store]:
    async with await Store.open(url, pool_size=2) as opened:
        yield opened


@pytest.fixture(params=[2, 8], ids=["pool of 2, none held", "pool of 8, 2 held"])
async def clicks_store(request: pytest.FixtureRequest, url: str) -> AsyncIterator[Store]:
    """A store whose clicks' changes take a pooled connection each (a small pool), or
    run on connections held for them (``HELD_CONNECTIONS``)."""
    async with await Store.open(url, pool_size=request.param) as opened:
        assert opened._held_max == request.param // 3
        yield opened


async def _new_game(store: Store) -> int:
    seats = [SeatRow.human(0, ANN, "ann"), SeatRow.human(1, BOB, "bob")]
    return await store.create_game(1, 10, "tuque", {}, 7, 0, seats)


async def test_a_game_change_is_one_round_trip(store: Store) -> None:
    """``append_actions`` (with a hand finished or not) sends PostgreSQL one batch of
    messages and waits once: no ping, no BEGIN or COMMIT, one statement; the first on a
    connection twice (it prepares the statement)."""
    sent: list[int] = []

    def count(_dbapi_connection: Any, record: ConnectionPoolEntry, _proxy: Any) -> None:
        transport = record.driver_connection._transport
        if hasattr(transport, "counted"):
            return
        write = transport.write

        def counted(data: Any) -> None:
            sent.append(1)
            write(data)

        transport.counted = transport.write = counted

    event.listen(store._database.sync_engine, "checkout", count)
    game_id = await _new_game(store)
    seq = 0
    for _ in range(4):  # whichever pooled connection it takes, it prepares the statement
        sent.clear()
        seq = await store.append_actions(game_id, seq, ["deal"])
        assert len(sent) <= 2
    finished = HandRecord(0, 0, {0: 5, 1: 0}, {0: 2}, march=True)
    for hands, new_turn in (((), False), ((), True), ((finished,), True)):
        sent.clear()
        seq = await store.append_actions(
            game_id, seq, ["play", "play"], hands=hands, new_turn=new_turn
        )
        assert len(sent) == 1
    assert (await store.load_game(game_id)).next_seq == seq == 10


async def test_connections_the_server_closed_are_replaced_unseen(
    clicks_store: Store, url: str
) -> None:
    """The server ends every pooled connection (a restart, an idle timeout): the next
    read and write take new ones, without an error."""
    game_id = await _new_game(clicks_store)
    admin = await asyncpg.connect(url)
    try:
        ended = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await admin.close()
    assert ended >= 1
    await asyncio.sleep(0.2)  # asyncpg reads the server's goodbye
    assert await clicks_store.append_actions(game_id, 0, ["deal"]) == 1
    assert (await clicks_store.load_game(game_id)).actions == ("deal",)


async def test_the_clicks_hold_a_few_connections_and_leave_the_pool_to_the_rest(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forty games' changes at once run on the two connections held for them (a pool of
    8), never more at a time, while a read still gets a pooled connection; a held
    connection past its age is replaced by a fresh one."""
    sql = store_base._postgres_sql(store_games._CHANGE)[0]
    run = asyncpg.Connection.fetchrow
    used: set[int] = set()
    running = most = 0
    both = asyncio.Event()
    waited = False

    async def fetchrow(self: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> Any:
        nonlocal running, most, waited
        if query != sql:
            return await run(self, query, *args, **kwargs)
        used.add(id(self))
        running += 1
        most = max(most, running)
        if running == 2:
            both.set()
        try:
            if not waited:
                # The first change waits for a second beside it (30 s if none can come):
                # on a loaded machine it could otherwise end before the next began.
                waited = True
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(both.wait(), 30)
            return await run(self, query, *args, **kwargs)
        finally:
            running -= 1

    monkeypatch.setattr(asyncpg.Connection, "fetchrow", fetchrow)
    async with await Store.open(url, pool_size=8) as store:
        games = []
        for i in range(40):  # each of two members of its own
            seats = [SeatRow.human(0, 1000 + 2 * i, "ann"), SeatRow.human(1, 1001 + 2 * i, "bob")]
            games.append(await store.create_game(1, 10 + i, "tuque", {}, 7, 0, seats))
        changes = [store.append_actions(game_id, 0, ["deal"]) for game_id in games]
        *seqs, loaded = await asyncio.gather(*changes, store.load_game(games[0]))
        assert seqs == [1] * 40
        assert loaded.actions in ((), ("deal",))
        assert most == 2 and len(used) == 2
        held = {id(connection) for connection, _ in store._held}
        assert len(held) == 2
        monkeypatch.setattr(store_base, "POOL_RECYCLE_SECONDS", -1.0)
        assert await store.append_actions(games[0], 1, ["pass"]) == 2
        assert len(store._held) == 2
        assert {id(connection) for connection, _ in store._held} != held


async def _drop_connection_after(
    monkeypatch: pytest.MonkeyPatch, chosen: Any, *, before: bool = False
) -> list[object]:
    """From now on the first statement for which ``chosen(statement)`` is true ends its
    own connection on the server, right after it ran (or ``before``)."""
    run = AsyncConnection.execute
    dropped: list[object] = []

    async def execute(self: AsyncConnection, statement: Any, *args: Any, **kwargs: Any) -> Any:
        drop = not dropped and chosen(statement)
        if drop:
            dropped.append(statement)
            if before:
                await run(self, text("SELECT pg_terminate_backend(pg_backend_pid())"))
        result = await run(self, statement, *args, **kwargs)
        if drop:
            await run(self, text("SELECT pg_terminate_backend(pg_backend_pid())"))
        return result

    monkeypatch.setattr(AsyncConnection, "execute", execute)
    return dropped


def _drop_change(monkeypatch: pytest.MonkeyPatch, *, before: bool) -> list[str]:
    """The next click's change (run straight on asyncpg: ``StoreBase._returns_row``)
    ends its own connection on the server, right after it ran (or ``before``), and its
    caller sees the connection gone, as when the server restarts mid-click."""
    sql = store_base._postgres_sql(store_games._CHANGE)[0]
    run = asyncpg.Connection.fetchrow
    dropped: list[str] = []

    async def fetchrow(self: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> Any:
        if dropped or query != sql:
            return await run(self, query, *args, **kwargs)
        dropped.append(query)
        if not before:
            await run(self, query, *args, **kwargs)
        # The server ends the connection: asyncpg reads its goodbye.
        with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError):
            await self.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        raise asyncpg.ConnectionDoesNotExistError("connection was closed mid-operation")

    monkeypatch.setattr(asyncpg.Connection, "fetchrow", fetchrow)
    return dropped


@pytest.mark.parametrize("before", [False, True], ids=["after it ran", "before it ran"])
async def test_a_change_whose_connection_dropped_is_applied_once(
    clicks_store: Store, monkeypatch: pytest.MonkeyPatch, before: bool
) -> None:
    """The change's connection dropped after it committed, before the answer came: run
    again, it finds its own actions at its seqs and reports success, not StaleAction.
    Dropped before it ran, it runs again and is made once. Either way the dropped
    connection is not used again."""
    game_id = await _new_game(clicks_store)
    dropped = _drop_change(monkeypatch, before=before)
    assert await clicks_store.append_actions(game_id, 0, ["deal", "pass"]) == 2
    assert dropped
    assert (await clicks_store.load_game(game_id)).actions == ("deal", "pass")
    for _ in range(4):  # every pooled connection is alive
        await clicks_store.load_game(game_id)
    assert await clicks_store.append_actions(game_id, 2, ["pass"]) == 3
    assert len(clicks_store._held) == min(1, clicks_store._held_max)  # a live one held again


async def test_a_change_that_breaks_a_key_is_refused_as_stale(
    clicks_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click's change that meets a broken key on asyncpg (a change at the same seq
    committed between its check and its insert) is refused as the transaction finds it:
    StaleAction, and the log as the winner left it."""
    game_id = await _new_game(clicks_store)
    assert await clicks_store.append_actions(game_id, 0, ["deal"]) == 1
    sql = store_base._postgres_sql(store_games._CHANGE)[0]
    run = asyncpg.Connection.fetchrow

    async def fetchrow(self: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> Any:
        if query == sql:
            raise asyncpg.UniqueViolationError("duplicate key value violates unique constraint")
        return await run(self, query, *args, **kwargs)

    monkeypatch.setattr(asyncpg.Connection, "fetchrow", fetchrow)
    with pytest.raises(StaleAction):
        await clicks_store.append_actions(game_id, 0, ["pass"])
    assert (await clicks_store.load_game(game_id)).actions == ("deal",)


async def test_a_transaction_whose_connection_dropped_before_commit_runs_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write transaction's connection drops before COMMIT: nothing was committed, so it
    runs again on a new connection and its change is made once."""
    game_id = await _new_game(store)
    dropped = await _drop_connection_after(
        monkeypatch, lambda s: getattr(s, "table", None) is store_games.games, before=True
    )
    await store.set_table_message(game_id, 555)
    assert dropped
    assert (await store.load_game(game_id)).table_message_id == 555
