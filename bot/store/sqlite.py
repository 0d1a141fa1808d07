"""SQLite under the store: one connection in a thread of its own, a batch of writes a trip.

SQLAlchemy's async SQLite driver (aiosqlite) hands every cursor call to its thread and
back: creating the cursor, executing, fetching and closing are four trips through the
event loop for each statement, some seventy for a click's write and the reload that
follows. Under a few hundred tables each trip waits for its turn of the loop, and a
click took 630 ms at the median where the hand-written aiosqlite store took 6 ms
(bench/discord_load.py, 100 tables). So the store drives SQLite the other way round:
SQLAlchemy's synchronous engine on one ``sqlite3`` connection, used only from one thread of the
store's own, and write transactions' ``work`` coroutines run there whole, in one trip.

The writes that arrive together share that trip and one transaction (``commit_together``,
fed by ``StoreBase._write``): each in a savepoint of its own, so that one that fails
rolls back alone, then one COMMIT for all. A trip and a COMMIT are paid per batch, not
per write.

``work`` awaits only ``SQLiteConnection``'s methods, which in that thread return at
once, so the coroutine never suspends and ``_drive`` runs it to its end in one call. A
``work`` that awaited anything else would suspend there: ``_drive`` refuses that with a
``RuntimeError`` rather than block the thread. Outside the thread (a read in
``StoreBase._read``) each statement is one trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, CursorResult, Engine, Executable, RowMapping
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.exc import DBAPIError

T = TypeVar("T")

#: A write transaction's work: an async function of the connection (``StoreBase._write``).
Work = Callable[["SQLiteConnection"], Awaitable[T]]


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    """What one write of a batch came to: its ``value`` once committed, or the ``error``
    that it raised or that lost it (nothing of it is in the database then)."""

    value: T | None = None
    error: BaseException | None = None


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
        if self._dbapi.in_transaction:
            # A read cancelled before it ended left its snapshot open; it wrote nothing
            # (a write ends in its own trip, committed or rolled back).
            self._raw("ROLLBACK")
        self._raw(statement)

    async def exec_driver_sql(self, sql: str) -> CursorResult[Any]:
        """Run ``sql`` as it is (``BEGIN``, ``COMMIT``, ``PRAGMA``)."""
        return await self._run(self._sync.exec_driver_sql, sql)

    async def run_sync(self, function: Callable[[Connection], T]) -> T:
        """``function(connection)`` with SQLAlchemy's synchronous connection (an
        inspection, as ``AsyncConnection.run_sync``)."""
        return await self._run(function, self._sync)

    async def stream(self, statement: Executable, batch: int) -> Iterator[Sequence[RowMapping]]:
        """``statement``'s rows as mappings, ``batch`` at a time, fetched as they are
        consumed (copying a whole table)."""
        result = await self.execute(statement)
        return result.mappings().partitions(batch)

    async def fetch_sql(self, sql: str, parameters: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """The rows of ``sql`` (SQLite's text, ``:name`` parameters) run on the DBAPI
        connection itself (``bot.store.prepared``); raises ``sqlalchemy.exc.DBAPIError``
        for what SQLite refuses, as SQLAlchemy would."""
        return await self._run(self._fetch_sql, sql, parameters)

    def _fetch_sql(self, sql: str, parameters: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        return self._dbapi_execute(sql, parameters).fetchall()

    async def change_sql(
        self, sql: str, parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]]
    ) -> int:
        """Run ``sql`` as ``fetch_sql`` does, once for each of ``parameters`` if a
        sequence; the rows it changed."""
        return await self._run(self._change_sql, sql, parameters)

    def _change_sql(
        self, sql: str, parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]]
    ) -> int:
        return self._dbapi_execute(sql, parameters).rowcount

    async def commit_together(self, works: Sequence[Work[Any]]) -> list[Outcome[Any]]:
        """Run the write transactions ``works`` in the store's thread, in one trip, one
        after another in their order, and commit them together; return one ``Outcome``
        each, in the same order, once committed.

        Each ``work(self)`` runs in a savepoint of its own: one that raises is rolled
        back alone and fails with its error, and the others go on. A BEGIN or COMMIT
        that fails (the file is locked past ``BUSY_TIMEOUT_MS``, the disk is full)
        fails every write it held with its error, ``sqlalchemy.exc.DBAPIError``; so does
        a write's failure after which SQLite rolled the whole transaction back (an I/O
        error), for the writes before it; the writes after it run in a new transaction.
        Raises only what is no write's own (``RuntimeError`` once closed).
        """
        # The coroutines are made in the thread: a call cancelled before the thread takes
        # it up leaves no coroutine behind that was never awaited.
        return await self._run(self._commit_together, works)

    def _commit_together(self, works: Sequence[Work[Any]]) -> list[Outcome[Any]]:
        outcomes: list[Outcome[Any]] = []
        while len(outcomes) < len(works):
            outcomes += self._transaction(works[len(outcomes) :])
        return outcomes

    def _transaction(self, works: Sequence[Work[Any]]) -> list[Outcome[Any]]:
        """Run ``works`` in one transaction, or as many of them as it can hold (at least
        one); their outcomes."""
        # IMMEDIATE takes the write lock up front, so a write never fails half-way with
        # SQLITE_BUSY (another process holding the file).
        try:
            self._begin("BEGIN IMMEDIATE")
        except DBAPIError as error:
            return [Outcome(error=error)] * len(works)
        outcomes: list[Outcome[Any]] = []
        try:
            for work in works:
                self._raw("SAVEPOINT write")
                try:
                    value = _drive(work, self)
                except Exception as error:
                    if not self._dbapi.in_transaction:
                        # SQLite ended the transaction itself (a full disk, an I/O error):
                        # the writes before this one went with it.
                        lost: Outcome[Any] = Outcome(error=error)
                        return [o if o.error is not None else lost for o in outcomes] + [lost]
                    self._raw("ROLLBACK TO write")
                    self._raw("RELEASE write")
                    outcomes.append(Outcome(error=error))
                else:
                    self._raw("RELEASE write")
                    outcomes.append(Outcome(value))
            self._raw("COMMIT")
        except BaseException as error:
            # A failing rollback ("no transaction is active") must not hide the first error.
            with contextlib.suppress(DBAPIError):
                self._raw("ROLLBACK")
            if not isinstance(error, DBAPIError):
                raise
            # The COMMIT (or a savepoint's statement) failed: nothing of the batch holds.
            failed: Outcome[Any] = Outcome(error=error)
            kept = [o if o.error is not None else failed for o in outcomes]
            return kept + [failed] * (len(works) - len(outcomes))
        return outcomes

    def _raw(self, sql: str) -> None:
        """Run ``sql``, a transaction's control (``SAVEPOINT``, ``COMMIT``)."""
        self._dbapi_execute(sql)

    def _dbapi_execute(
        self, sql: str, parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None
    ) -> sqlite3.Cursor:
        """Run ``sql`` on the DBAPI connection itself, once for each of ``parameters`` if a
        sequence of mappings, raising what SQLAlchemy would."""
        try:
            if parameters is None:
                return self._dbapi.execute(sql)
            if isinstance(parameters, Mapping):
                return self._dbapi.execute(sql, parameters)
            return self._dbapi.executemany(sql, parameters)
        except sqlite3.Error as error:
            # As the engine does (hide_parameters): they may hold a deal.
            raise DBAPIError.instance(
                sql, None, error, sqlite3.Error, hide_parameters=True, dialect=self.dialect
            ) from error

    @property
    def _sync(self) -> Connection:
        if self._connection is None:
            raise RuntimeError("the SQLite connection is closed")
        return self._connection

    @property
    def _dbapi(self) -> sqlite3.Connection:
        dbapi = self._sync.connection.dbapi_connection
        assert isinstance(dbapi, sqlite3.Connection)
        return dbapi

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        if threading.get_ident() == self._thread_id:
            return function(*args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, functools.partial(function, *args))


def _drive(work: Work[T], db: SQLiteConnection) -> T:
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
