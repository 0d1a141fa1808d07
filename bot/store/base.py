"""The store's connection: opening, migrating, closing, and its transactions.

One ``Store`` holds one database, through SQLAlchemy, of two kinds:

- **SQLite** (a file path), the embedded default: one connection in WAL mode with
  foreign keys on, in a thread of the store's own (``bot.store.sqlite``: a batch of
  write transactions is one trip to that thread), one transaction at a time under an
  asyncio lock. Writes use ``BEGIN IMMEDIATE``, so a second process on the same file
  waits (up to ``BUSY_TIMEOUT_MS``) instead of failing half-way. The writes that arrive
  while a trip is under way (up to ``BATCH_WRITES``) make the next one together: one
  transaction, each write in a savepoint of its own, in the order they came, and one
  COMMIT, after which each caller is answered (group commit: the trip and the COMMIT
  are paid once a batch, and writes under load no longer queue a trip each).
- **PostgreSQL** (a ``postgresql://`` URL; asyncpg), shared by the shard processes: a
  pool of connections, in READ COMMITTED. Every rule the store checks before it writes
  ("a click applied once", "start only when all accepted", "one rematch", "one game per
  pair") holds under concurrent writers from several processes as under SQLite's single
  writer because the write first locks what the rule is about: the aggregate's row
  (``SELECT ... FOR UPDATE`` on the game, lobby or challenge), or, where there is no
  row (the games two members share, a member's rating), the members
  (``lock_members``). Racing writers queue on the lock, and each statement after it
  sees what the one before committed. The constraints (primary keys, unique indexes)
  stay the backstop. (SERIALIZABLE was tried first: its predicate locks on shared index
  pages aborted clicks on different games against each other, and at 100 games at once
  a write could fail ten times in a row.)

Queries are SQLAlchemy Core on the tables of ``bot.store.schema``: one query per
need, on both databases. Each aggregate's methods run in ``_read()`` (a consistent
snapshot) or ``_write(work)`` (``work`` is an async function of the connection, run
again from the start after a deadlock or a dropped connection, so it must not act
outside the database). A write that is one statement, atomic on its own (a click's
``append_actions``), runs on PostgreSQL outside a transaction, ``_write(work,
atomic=True)``: one round trip instead of BEGIN, the statement and COMMIT.

PostgreSQL connections are not pinged when taken from the pool (a ping was a BEGIN, a
query and a ROLLBACK: three round trips before every write). A connection the server
closed (a restart, an idle timeout) is known to asyncpg without asking and is replaced
when taken (``_replace_closed``); connections are recycled after
``POOL_RECYCLE_SECONDS``, before the idle timeouts of the usual proxies and load
balancers; and a write whose connection drops before it committed runs again on a new
one (SQLAlchemy invalidates the dropped connection and every older one of the pool).
A read on a connection that drops mid-way fails once.

Time is passed in as ``now``: seconds since the Unix epoch (a float); it
defaults to ``time.time()`` and tests pass fixed values.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from enum import StrEnum
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import aiosqlite
import asyncpg
from sqlalchemy import (
    ClauseElement,
    ColumnElement,
    Table,
    create_engine,
    event,
    func,
    literal,
    select,
    true,
)
from sqlalchemy.dialects.postgresql import Insert as PostgresqlInsert
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.postgresql.asyncpg import PGDialect_asyncpg
from sqlalchemy.dialects.sqlite import Insert as SqliteInsert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL, AdaptedConnection, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool
from sqlalchemy.sql.compiler import SQLCompiler

from bot.migrations import (
    MIGRATIONS_DIR,
    POSTGRESQL_MIGRATIONS_DIR,
    MigrationFailed,
    apply_migrations,
    apply_postgresql_migrations,
)
from bot.store.sqlite import Outcome, SQLiteConnection

# The whole package logs under one name, as the single module it was split from did.
log = logging.getLogger("bot.store")

#: How long a write waits for another connection's lock before failing, in ms (SQLite).
BUSY_TIMEOUT_MS = 5_000

#: The most writes one SQLite transaction holds (group commit): the first of them is
#: answered only after the last, so a crowd's batch is cut into several.
BATCH_WRITES = 64

#: How a ``DATABASE_URL`` for PostgreSQL begins.
POSTGRESQL_SCHEMES = ("postgresql:", "postgres:", "postgresql+asyncpg:")

#: How many times a PostgreSQL write transaction runs before a deadlock, a serialization
#: failure or a dropped connection is raised.
WRITE_ATTEMPTS = 10

#: The age in seconds after which a pooled PostgreSQL connection is replaced when next
#: taken. A connection is never idle longer than it is old, so none outlives the idle
#: timeouts of the usual proxies and load balancers (from 4 minutes up); it costs a new
#: connection a pool slot every 4 minutes at most.
POOL_RECYCLE_SECONDS = 230

#: How many of a PostgreSQL store's pooled connections it keeps out of the pool for the
#: clicks' changes (``StoreBase._returns_row``), each one replaced when it is
#: ``POOL_RECYCLE_SECONDS`` old, closed or dropped: taking a connection from the pool
#: cost the event loop twice the change itself (0.19-0.20 ms of CPU against 0.09). The
#: changes take them in turn, so there are enough for a busy loop: at 300 games, whose
#: loop answers a statement tens of milliseconds late, 4 queued the clicks (p50 332 ms).
HELD_CONNECTIONS = 10

# SQLSTATEs after which a transaction may simply run again: serialization_failure and
# deadlock_detected.
_RETRYABLE = frozenset({"40001", "40P01"})


class TryAgain(Exception):
    """A statement run straight on asyncpg (``StoreBase._returns_row``) failed other
    than by a broken key: run it again through ``_write``."""


def _dropped(error: asyncpg.PostgresError) -> bool:
    """Whether the server ended the connection (class 08, or 57: shut down, terminated)."""
    state = error.sqlstate or ""
    return state.startswith(("08", "57"))


@functools.cache
def _postgres_sql(statement: ClauseElement) -> tuple[str, tuple[str, ...], dict[str, Any]]:
    """``statement`` compiled for asyncpg once: its SQL (``$1``, ``$2``, ...), its
    parameters' names in order, and the values of the constants it binds itself."""
    compiled = statement.compile(dialect=_ASYNCPG)
    assert isinstance(compiled, SQLCompiler)
    names = tuple(compiled.positiontup or ())
    constants = {
        name: bind.value
        for name, bind in compiled.binds.items()
        if name in names and not bind.required and bind.callable is None
    }
    return str(compiled), names, constants


_ASYNCPG = PGDialect_asyncpg()


async def _driver(connection: AsyncConnection) -> asyncpg.Connection | None:
    """``connection``'s asyncpg connection, ``None`` if the server closed it."""
    driver = (await connection.get_raw_connection()).driver_connection
    assert isinstance(driver, asyncpg.Connection)
    return None if driver.is_closed() else driver


T = TypeVar("T")

#: A connection in one of the store's transactions: SQLAlchemy's ``AsyncConnection`` on
#: PostgreSQL, ``SQLiteConnection`` on SQLite; both ``await db.execute(statement)``.
Connection = AsyncConnection | SQLiteConnection


SEAT_COUNTS = (2, 3, 4, 5, 6)
"""The seat counts of a table (RULES.md §1–§7: two to six players)."""


class SeatKind(StrEnum):
    """Who sits in a seat."""

    HUMAN = "human"
    COMPUTER = "computer"


@dataclass(frozen=True)
class Shards:
    """The shards one bot process runs: ``ids`` of ``count`` in all (Discord's sharding).

    A guild belongs to shard ``(guild_id >> 22) % count``; a process restores, times
    and expires only its own guilds' games, challenges and lobbies. Raises
    ``ValueError`` for an empty ``ids``, ``count`` < 1 or an id outside ``0..count-1``.
    """

    ids: frozenset[int]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {sorted(self.ids)} must be in 0..{self.count - 1}")

    @classmethod
    def all(cls, count: int = 1) -> Shards:
        """Every shard of ``count``: one process runs the whole bot."""
        return cls(frozenset(range(count)), count)

    def shard_of(self, guild_id: int) -> int:
        """The shard Discord routes ``guild_id``'s events to."""
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        """Whether ``guild_id``'s games are this process's."""
        return self.shard_of(guild_id) in self.ids

    def clause(self, guild_id: ColumnElement[int]) -> ColumnElement[bool]:
        """SQL for ``owns(guild_id)`` on a column; always true when this is every shard."""
        if len(self.ids) == self.count:
            return true()
        return (guild_id.op(">>")(literal(22)) % self.count).in_(sorted(self.ids))


class StoreError(Exception):
    """Base class for the store's own errors."""


class StoreClosed(StoreError):
    """The store was closed (the bot is stopping); nothing was read or written."""


class DatabaseUnusable(StoreError):
    """The database cannot be used (``Store.open``). For an SQLite file: its folder
    cannot be made, the path is a folder, the file is not SQLite or is corrupt, it or
    its folder is read-only, or the disk is full. For PostgreSQL: the server cannot be
    reached or refuses the login. Nothing was changed or deleted. The message names the
    path or the URL (without its password), says what is wrong and what to do, and fits
    on one line."""

    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path


# SQLite's messages for the causes a person can fix, in their words.
_SQLITE_PROBLEMS = (
    (
        "file is not a database",
        "is not an SQLite database, or is damaged; it was left "
        "as it is: move it away or set DATABASE_PATH to another file",
    ),
    ("readonly", "is read-only: the bot must be able to write the file and its folder"),
    ("disk is full", "the disk is full: free some space"),
    # What a full disk gives while SQLite writes its WAL index (seen on tmpfs).
    ("disk I/O error", "the disk cannot be written (is it full?): free some space"),
    ("unable to open", "cannot be opened: check that the bot may write to its folder"),
)


def _problem(error: sqlite3.Error) -> str | None:
    """What a person can fix about ``error``, in their words; None if nothing known."""
    return next((say for key, say in _SQLITE_PROBLEMS if key in str(error)), None)


def _unusable(path: Path, error: sqlite3.Error) -> DatabaseUnusable:
    return DatabaseUnusable(path, _problem(error) or f"SQLite: {error}")


def _now(now: float | None) -> float:
    return time.time() if now is None else float(now)


def _dump_options(options: Mapping[str, Any]) -> str:
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))


class StoreBase:
    """The connection under ``Store``: open, close, ``_read`` and ``_write``, which the
    aggregates' query classes (``GameQueries``, ``ChallengeQueries``, ...) run every
    statement in."""

    def __init__(self, database: AsyncEngine | SQLiteConnection, shards: Shards) -> None:
        """Wrap a migrated database; use ``Store.open`` instead."""
        self._database = database
        self._closed = False
        # SQLite has one connection: coroutines must not see each other's half-done work.
        self._lock = asyncio.Lock() if isinstance(database, SQLiteConnection) else None
        # SQLite's writes waiting for the next batch, each with its caller's future, and
        # the task that runs the batches while there are any.
        self._queued: list[tuple[Callable[[Connection], Awaitable[Any]], asyncio.Future[Any]]] = []
        self._committer: asyncio.Task[None] | None = None
        # PostgreSQL: the idle connections held out of the pool for the clicks' changes,
        # each with the loop time it was taken, and how many may be held.
        self._held: list[tuple[AsyncConnection, float]] = []
        self._held_max = 0
        # The clicks' changes wait their turn for one in order (a change that took a
        # connection from the pool instead would pass those waiting in the pool's queue).
        self._held_turns: asyncio.Semaphore | None = None
        self.shards = shards
        #: Called with each committed write's duration in seconds, from its call to its
        #: commit (metrics).
        self.on_write: Callable[[float], None] | None = None
        #: Whether each write that changes a game announces it to the bot's other
        #: processes (PostgreSQL's NOTIFY, ``bot.store.changes``; ignored on SQLite). Off
        #: unless set: a notifying commit takes PostgreSQL's notification queue lock.
        self.announces = False
        # asyncpg.connect's arguments for connections of our own (PostgreSQL only).
        self._connect_args: dict[str, Any] | None = None

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._database.dialect.name

    @classmethod
    async def open(
        cls,
        database: str | Path,
        *,
        shards: Shards | None = None,
        pool_size: int = 30,
        migrations_dir: Traversable | None = None,
    ) -> Self:
        """Open and migrate the database: an SQLite file path (created with its parent
        folder if needed) or a ``postgresql://`` URL.

        ``shards`` are the shards this process runs (default: all of one); ``pool_size``
        is PostgreSQL's number of connections; ``migrations_dir`` replaces the bot's own
        migrations for this kind of database (tests).

        Raises ``DatabaseUnusable`` for a file, folder or server that cannot be used (see
        there), ``bot.migrations.DatabaseTooNew`` if the database was written by newer
        code, ``MigrationFailed``/``InvalidMigrations`` if the schema cannot be brought
        up to date, and ``StoreError`` if the SQLite file cannot use WAL mode (e.g.
        ``":memory:"``). Nothing is written to a file SQLite cannot read.
        """
        shards = shards or Shards.all()
        if isinstance(database, str) and database.startswith(POSTGRESQL_SCHEMES):
            url = make_url(database)
            engine = await _open_postgresql(
                url, pool_size, migrations_dir or POSTGRESQL_MIGRATIONS_DIR
            )
            store = cls(engine, shards)
            store._connect_args = {**engine.dialect.create_connect_args(engine.url)[1], **_ssl(url)}
            # Most of the pool stays free for the rest: a small pool holds none.
            store._held_max = min(HELD_CONNECTIONS, pool_size // 3)
            if store._held_max:
                store._held_turns = asyncio.Semaphore(store._held_max)
            return store
        return cls(await _open_sqlite(Path(database), migrations_dir or MIGRATIONS_DIR), shards)

    async def close(self) -> None:
        """Close the connections; afterwards every method raises ``StoreClosed``."""
        self._closed = True
        if isinstance(self._database, SQLiteConnection):
            assert self._lock is not None
            if self._committer is not None:
                # The writes accepted before the close still run, as they would have.
                await asyncio.shield(self._committer)
            async with self._lock:
                await self._database.close()
        else:
            # The held connections go back to the pool, which closes them all.
            held, self._held = self._held, []
            for connection, _ in held:
                await connection.close()
            await self._database.dispose()

    async def connect_raw(self) -> asyncpg.Connection:
        """A new asyncpg connection of the caller's own, outside the pool (to ``LISTEN``:
        ``bot.store.changes.ChangeFeed``); the caller closes it.

        Raises:
            StoreError: the store is on SQLite.
            StoreClosed: the store is closed.
            OSError, asyncpg.PostgresError: the server cannot be reached or refuses.
        """
        self._check_open()
        if self._connect_args is None:
            raise StoreError("only a PostgreSQL store has connections of its own")
        return await asyncpg.connect(**self._connect_args)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def _check_open(self) -> None:
        # A click or a sweep still under way as the bot stops must not open a new
        # connection (PostgreSQL's engine would) or reach a closed one.
        if self._closed:
            raise StoreClosed("the store is closed: the bot is stopping")

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Connection]:
        """A read-only transaction on one consistent snapshot."""
        self._check_open()
        if isinstance(self._database, SQLiteConnection):
            assert self._lock is not None
            async with self._lock:
                db = self._database
                await db.begin("BEGIN")
                try:
                    yield db
                finally:
                    # Nothing was written: COMMIT and ROLLBACK end the snapshot alike.
                    await db.exec_driver_sql("ROLLBACK")
            return
        async with self._database.connect() as conn:
            conn = await conn.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
            async with conn.begin():
                yield conn

    async def _write(
        self, work: Callable[[Connection], Awaitable[T]], *, atomic: bool = False
    ) -> T:
        """Run ``work(connection)`` in one write transaction and return what it returns.

        On SQLite ``work`` runs whole in the store's database thread (``bot.store.sqlite``),
        so it must await nothing but the connection's methods, in a savepoint of the
        transaction that the writes queued with it share, after the writes queued before
        it: it returns (or raises what ``work`` raised, its changes rolled back alone)
        once that transaction committed. A COMMIT that fails raises its error
        (``sqlalchemy.exc.DBAPIError``) in every write it held. On PostgreSQL a deadlock
        or serialization failure, or a connection that drops before the commit is sent,
        runs ``work`` again from the start on another connection, up to
        ``WRITE_ATTEMPTS`` times. Either way ``work`` must only read and write the
        database. Whatever ``work`` raises rolls the transaction back and propagates.

        ``atomic``: ``work`` writes in one statement, atomic on its own, and may run
        again after its connection dropped even if that statement committed (it must
        find out, as ``append_actions`` does by its seq). On PostgreSQL it runs outside a
        transaction, without BEGIN and COMMIT (READ COMMITTED: the statement sees what
        was committed when it began, and waits for the rows it changes); on SQLite in a
        transaction like any other ``work``.
        """
        self._check_open()
        if isinstance(self._database, SQLiteConnection):
            started = time.perf_counter()
            result = await self._commit_with_others(work)
            if self.on_write is not None:
                self.on_write(time.perf_counter() - started)
            return result
        for attempt in range(1, WRITE_ATTEMPTS + 1):
            if attempt > 1:
                # Racing writers that all retried at once would likely clash again.
                await asyncio.sleep(random.uniform(0, 0.002 * attempt))
            started = time.perf_counter()
            # Once COMMIT is sent a dropped connection leaves unknown whether it
            # committed: such a transaction is not run again.
            committing = False
            try:
                if atomic:
                    async with self._database.connect() as conn:
                        conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                        result = await work(conn)
                else:
                    async with self._database.connect() as conn, conn.begin():
                        result = await work(conn)
                        committing = True
            except DBAPIError as error:
                dropped = error.connection_invalidated and not committing
                if attempt == WRITE_ATTEMPTS or not (
                    dropped or getattr(error.orig, "sqlstate", None) in _RETRYABLE
                ):
                    raise
                log.debug("write retried (attempt %d): %s", attempt, error.orig)
                continue
            if self.on_write is not None:
                self.on_write(time.perf_counter() - started)
            return result
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def _returns_row(self, statement: ClauseElement, parameters: Mapping[str, Any]) -> bool:
        """PostgreSQL: run ``statement``, one statement atomic on its own, with
        ``parameters`` outside a transaction (as ``_write``'s ``atomic``), straight on the
        asyncpg driver of a connection held for it (``HELD_CONNECTIONS``) or taken from
        the pool; return whether it returned a row.

        A click's change is the store's most frequent write, and SQLAlchemy's execution
        (its asyncpg adaptor, the result) cost the bot's event loop about four times
        asyncpg's own work (measured on one held connection: 1.35 ms of CPU a change
        through SQLAlchemy, 0.28 ms on the driver; with the pool's checkout,
        ``bench.store``'s write went from 1.45-1.55 to 0.74 ms), so the statement is
        compiled once (:func:`_postgres_sql`) and run by asyncpg, which keeps it prepared
        per connection. Only a statement outside a transaction may run so: inside one,
        SQLAlchemy begins the transaction with its first statement of its own. The
        pool's checkout then cost twice the statement (0.19-0.20 ms of CPU against
        0.09), so the changes run on connections held for them, in turn: a hundred
        games at once, 0.47-0.57 -> 0.31-0.34 ms of CPU a change, p99 395-411 -> 94-130
        ms (``bench.store``, alternated with the code before).

        Raises:
            sqlalchemy.exc.IntegrityError: the statement broke a key or a constraint.
            TryAgain: anything else went wrong, the connection dropped included (it is
                discarded): the statement may have committed, and the caller runs it
                again through ``_write``, which retries and raises as for any write.
        """
        self._check_open()
        assert isinstance(self._database, AsyncEngine)
        sql, names, constants = _postgres_sql(statement)
        values = {**constants, **parameters}
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        async with self._held_turns or contextlib.nullcontext():
            conn, opened = self._held.pop() if self._held else (None, 0.0)
            driver = None if conn is None else await _driver(conn)
            if conn is None or driver is None or loop.time() - opened > POOL_RECYCLE_SECONDS:
                if conn is not None:
                    await conn.close()  # closed by the server, or old: a fresh one instead
                conn, opened = await self._database.connect(), loop.time()
                driver = await _driver(conn)
                assert driver is not None
            kept = False
            try:
                row = await driver.fetchrow(sql, *[values[name] for name in names])
                kept = True
            except asyncpg.IntegrityConstraintViolationError as error:
                kept = True
                raise IntegrityError(sql, None, error) from error
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
                if isinstance(error, asyncpg.PostgresError) and not _dropped(error):
                    kept = True
                else:
                    await conn.invalidate()
                raise TryAgain(str(error)) from error
            finally:
                # Back to the pool: past the held ones, once the store closed, or when its
                # statement was cancelled half-way (its state unknown).
                if kept and not self._closed and len(self._held) < self._held_max:
                    self._held.append((conn, opened))
                else:
                    await conn.close()
        if self.on_write is not None:
            self.on_write(time.perf_counter() - started)
        return row is not None

    async def _commit_with_others(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """SQLite: queue ``work`` for the next batch and wait for its outcome."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queued.append((work, future))
        if self._committer is None:
            self._committer = asyncio.create_task(self._commit_queued())
        return await future

    async def _commit_queued(self) -> None:
        """Run the queued writes, a batch a trip, until none is left; answer each."""
        assert isinstance(self._database, SQLiteConnection) and self._lock is not None
        batch: list[tuple[Callable[[Connection], Awaitable[Any]], asyncio.Future[Any]]] = []
        try:
            while self._queued:
                # A caller that gave up before its batch began leaves its write unmade.
                waiting = [(w, f) for w, f in self._queued if not f.cancelled()]
                batch, self._queued = waiting[:BATCH_WRITES], waiting[BATCH_WRITES:]
                if not batch:
                    continue
                try:
                    async with self._lock:
                        outcomes = await self._database.commit_together([w for w, _ in batch])
                except Exception as error:
                    # No write's own (the connection closed under it): the batch fails.
                    outcomes = [Outcome(error=error)] * len(batch)
                for (_, future), outcome in zip(batch, outcomes, strict=True):
                    if future.done():
                        continue  # its caller was cancelled meanwhile
                    if outcome.error is not None:
                        future.set_exception(outcome.error)
                    else:
                        future.set_result(outcome.value)
        finally:
            # Cancelled (the loop is ending): no caller may wait for ever.
            for _, future in [*batch, *self._queued]:
                if not future.done():
                    future.cancel()
            self._queued.clear()
            self._committer = None


async def lock_members(db: Connection, user_ids: Iterable[int]) -> None:
    """Lock these members until the transaction ends (PostgreSQL; SQLite's single writer
    already excludes every other writer): for rules about members that no one row
    holds, such as the games two members share or a member's rating. Taken in id
    order, so two transactions never wait for each other's."""
    if db.dialect.name != "postgresql":
        return
    for user_id in sorted(set(user_ids)):
        # The one-key form: the migration lock uses the two-key one, another key space.
        await db.execute(select(func.pg_advisory_xact_lock(user_id)))


def dialect_insert(db: Connection, table: Table) -> SqliteInsert | PostgresqlInsert:
    """``INSERT`` into ``table`` in ``db``'s dialect, for ``on_conflict_do_update`` and
    ``on_conflict_do_nothing`` (an upsert), which both dialects write alike."""
    if db.dialect.name == "postgresql":
        return postgresql_insert(table)
    return sqlite_insert(table)


async def _open_sqlite(path: Path, migrations_dir: Traversable) -> SQLiteConnection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseUnusable(
            path, f"its folder cannot be created ({error.strerror or error})"
        ) from error
    if path.is_dir():
        raise DatabaseUnusable(path, "is a folder: set DATABASE_PATH to a file in it")
    try:
        # A failed aiosqlite.connect leaves its worker thread to call back into the
        # loop, which the caller may already have closed (a traceback at exit); a plain
        # connect finds the same faults without a thread.
        sqlite3.connect(path).close()
        db = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise _unusable(path, error) from error
    # The migrations run on a plain connection: the runner owns its transactions and
    # PRAGMA user_version, and WAL mode is set once, on the file.
    try:
        journal = await db.execute_fetchall("PRAGMA journal_mode = WAL")
        if next(iter(journal))[0] != "wal":
            raise StoreError(f"{path}: SQLite refused WAL mode; use a real file")
        await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        await db.execute("PRAGMA foreign_keys = ON")
        version = await apply_migrations(db, migrations_dir)
    except sqlite3.Error as error:
        raise _unusable(path, error) from error
    except MigrationFailed as error:
        # A full disk or a read-only file fails the first write, in a migration.
        cause = error.__cause__
        if isinstance(cause, sqlite3.Error) and _problem(cause) is not None:
            raise _unusable(path, cause) from error
        raise
    finally:
        await db.close()
    log.info("database %s (SQLite) at schema version %d", path, version)
    # One connection, as SQLite has one writer, used from the store's thread only (so
    # sqlite3 need not check which thread calls); the store's lock queues its users.
    engine = create_engine(
        URL.create("sqlite+pysqlite", database=str(path)),
        poolclass=StaticPool,
        isolation_level="AUTOCOMMIT",
        # A failed statement's parameters may hold a deal (the whole pack): not in a log.
        hide_parameters=True,
        connect_args={"check_same_thread": False},
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        cursor.execute("PRAGMA foreign_keys = ON")
        # In WAL mode NORMAL is durable against application crashes and much faster.
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    connection = SQLiteConnection(engine)
    await connection.connect()
    return connection


def _look_up_integer_arrays(dbapi_connection: AdaptedConnection, _record: Any) -> None:
    """The pool's ``connect`` hook. asyncpg knows text and oid arrays by itself and looks
    any other type up in the catalog on its first use on a connection: four round trips
    (with JIT turned off and on around the query). ``append_actions`` binds integer
    arrays: looked up here, with the rest of a new connection's set-up, they do not add
    to the first game change on it (two round trips: preparing it, running it)."""
    dbapi_connection.run_async(
        lambda connection: connection.fetchval("SELECT CAST($1 AS integer[])", None)
    )


def _replace_closed(_dbapi_connection: Any, record: ConnectionPoolEntry, _proxy: Any) -> None:
    """The pool's ``checkout`` hook: refuse a connection that asyncpg knows the server
    closed (a restart, an idle timeout), so that the pool replaces it. Asks the server
    nothing: asyncpg reads every connection all along and sees its end."""
    connection = record.driver_connection  # asyncpg's, None only once closed
    if connection is None or connection.is_closed():
        raise DisconnectionError("the server closed this connection")


def _ssl(url: URL) -> dict[str, Any]:
    """asyncpg's ``ssl`` argument from libpq's ``sslmode`` (as managed databases give
    their URLs), if the URL has one."""
    return {"ssl": url.query["sslmode"]} if "sslmode" in url.query else {}


async def _open_postgresql(url: URL, pool_size: int, migrations_dir: Traversable) -> AsyncEngine:
    shown = url.render_as_string(hide_password=True)
    engine = create_async_engine(
        url.set(drivername="postgresql+asyncpg").difference_update_query(["sslmode"]),
        connect_args=_ssl(url),
        pool_size=pool_size,
        max_overflow=0,
        pool_recycle=POOL_RECYCLE_SECONDS,
        # A failed statement's parameters may hold a deal (the whole pack): not in a log.
        hide_parameters=True,
    )
    event.listen(engine.sync_engine, "connect", _look_up_integer_arrays)
    event.listen(engine.sync_engine, "checkout", _replace_closed)
    try:
        version = await apply_postgresql_migrations(engine, migrations_dir)
    except (OSError, DBAPIError) as error:
        await engine.dispose()
        reason = error.orig if isinstance(error, DBAPIError) else error
        raise DatabaseUnusable(
            shown, f"PostgreSQL cannot be used ({reason}); check DATABASE_URL and the server"
        ) from error
    except BaseException:
        await engine.dispose()
        raise
    log.info("database %s (PostgreSQL) at schema version %d", shown, version)
    return engine
