"""SQLite under the store: one connection in a thread of its own, a transaction a trip.

SQLAlchemy's async SQLite driver (aiosqlite) hands every cursor call to its thread and
back: creating the cursor, executing, fetching and closing are four trips through the
event loop for each statement, some seventy for a click's write and the reload that
follows. Under a few hundred tables each trip waits for its turn of the loop, and a
click took 630 ms at the median where the hand-written aiosqlite store took 6 ms
(bench/discord_load.py, 100 tables). So the store drives SQLite the other way round:
SQLAlchemy's synchronous engine on one ``sqlite3`` connection, used only from one thread of the
store's own, and a write transaction's ``work`` coroutine runs there whole, in one trip.

``work`` awaits only ``SQLiteConnection``'s methods, which in that thread return at
once, so the coroutine never suspends and ``_drive`` runs it to its end in one call. A
``work`` that awaited anything else would suspend there: ``_drive`` refuses that with a
``RuntimeError`` rather than block the thread. Outside the thread (a read in
``StoreBase._read``) each statement is one trip.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import Connection, CursorResult, Engine, Executable, RowMapping
from sqlalchemy.engine.interfaces import Dialect

T = TypeVar("T")


class SQLiteConnection:
    """The store's one SQLite connection, as the aggregates' queries use a connection:
    ``await db.execute(statement, parameters)`` returns SQLAlchemy's ``CursorResult``
    (``first()``, ``scalar()``, ``all()``, ``rowcount``, ...), as ``AsyncConnection``
    does on PostgreSQL.

    Each method runs in the store's thread, at once when called from it. A read's rows
    (``StoreBase._read``, ``stream``) are fetched as they are consumed, on the event
    loop's thread; the store's lock keeps the connection to one transaction, and so to
    one thread, at a time (``check_same_thread`` is off for that).
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite")
        self._thread_id: int | None = None
        self._connection: Connection | None = None

    async def connect(self) -> None:
        """Open the connection, in the store's thread."""

        def connect() -> Connection:
            self._thread_id = threading.get_ident()
            return self._engine.connect()

        self._connection = await self._run(connect)

    async def close(self) -> None:
        """Close the connection and end the thread; closing again does nothing."""
        if self._connection is None:
            return
        connection, self._connection = self._connection, None
        await self._run(connection.close)
        await self._run(self._engine.dispose)
        self._thread.shutdown()

    @property
    def dialect(self) -> Dialect:
        """SQLAlchemy's SQLite dialect."""
        return self._engine.dialect

    async def execute(
        self, statement: Executable, parameters: dict[str, Any] | list[dict[str, Any]] | None = None
    ) -> CursorResult[Any]:
        """Run ``statement`` (with ``parameters``, a list for many rows) and return its
        result; raises ``sqlalchemy.exc.DBAPIError`` for what SQLite refuses."""
        return await self._run(self._sync.execute, statement, parameters)

    async def begin(self, statement: str) -> None:
        """Start a transaction with ``statement`` (``BEGIN`` or ``BEGIN IMMEDIATE``)."""
        await self._run(self._begin, statement)

    def _begin(self, statement: str) -> None:
        if self._sync.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
            # A read cancelled before it ended left its snapshot open; it wrote nothing
            # (a write ends in its own trip, committed or rolled back).
            self._sync.exec_driver_sql("ROLLBACK")
        self._sync.exec_driver_sql(statement)

    async def exec_driver_sql(self, sql: str) -> CursorResult[Any]:
        """Run ``sql`` as it is (``BEGIN``, ``COMMIT``, ``PRAGMA``)."""
        return await self._run(self._sync.exec_driver_sql, sql)

    async def run_sync(self, function: Callable[[Connection], T]) -> T:
        """``function(connection)`` with SQLAlchemy's synchronous connection (an
        inspection, as ``AsyncConnection.run_sync``)."""
        return await self._run(function, self._sync)

    async def stream(self, statement: Executable, batch: int) -> Iterator[list[RowMapping]]:
        """``statement``'s rows as mappings, ``batch`` at a time, fetched as they are
        consumed (copying a whole table)."""
        result = await self.execute(statement)
        return result.mappings().partitions(batch)

    async def drive(self, work: Callable[[SQLiteConnection], Awaitable[T]]) -> T:
        """Run the coroutine ``work(self)`` to its end in the store's thread, in one trip."""
        # The coroutine is made in the thread: a call cancelled before the thread takes it
        # up leaves no coroutine behind that was never awaited.
        return await self._run(_drive, work, self)

    @property
    def _sync(self) -> Connection:
        if self._connection is None:
            raise RuntimeError("the SQLite connection is closed")
        return self._connection

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        if threading.get_ident() == self._thread_id:
            return function(*args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, functools.partial(function, *args))


def _drive(work: Callable[[SQLiteConnection], Awaitable[T]], db: SQLiteConnection) -> T:
    """Run the coroutine ``work(db)``, which must never suspend, to its end and return
    its value."""
    coroutine = work(db)
    assert isinstance(coroutine, Coroutine)
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("a store transaction awaited something other than its database")
