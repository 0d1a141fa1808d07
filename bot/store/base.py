"""The store's connection: opening, migrating, closing, and one transaction at a time.

One ``Store`` wraps one aiosqlite connection to an SQLite file in WAL mode with
foreign keys on. Every method runs in its own transaction, under an asyncio lock
so that coroutines sharing the connection never see each other's half-done
work. Writes use ``BEGIN IMMEDIATE``, so a second process on the same file waits
(up to ``BUSY_TIMEOUT_MS``) instead of failing half-way.

Time is passed in as ``now``: seconds since the Unix epoch (a float); it
defaults to ``time.time()`` and tests pass fixed values.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from enum import StrEnum
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from bot.migrations import MIGRATIONS_DIR, MigrationFailed, apply_migrations

# The whole package logs under one name, as the single module it was split from did.
log = logging.getLogger("bot.store")

#: How long a write waits for another connection's lock before failing, in ms.
BUSY_TIMEOUT_MS = 5_000


SEAT_COUNTS = (2, 3, 4, 5, 6)
"""The seat counts of a table (RULES.md §1–§7: two to six players)."""


class SeatKind(StrEnum):
    """Who sits in a seat."""

    HUMAN = "human"
    COMPUTER = "computer"


class StoreError(Exception):
    """Base class for the store's own errors."""


class DatabaseUnusable(StoreError):
    """The database file cannot be used (``Store.open``): its folder cannot be made,
    the path is a folder, the file is not SQLite or is corrupt, it or its folder is
    read-only, or the disk is full. Nothing was changed or deleted. The message names
    the path, says what is wrong and what to do, and fits on one line."""

    def __init__(self, path: Path, problem: str) -> None:
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
    """The connection under ``Store``: open, close and ``_transaction``, which the
    aggregates' query classes (``GameQueries``, ``ChallengeQueries``, ``RecordQueries``)
    run every statement in."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        """Wrap an open, migrated connection; use ``Store.open`` instead."""
        self._db = db
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, migrations_dir: Traversable = MIGRATIONS_DIR) -> Self:
        """Open (creating it and its parent folder if needed) and migrate the database file.

        Raises ``DatabaseUnusable`` for a file or folder that cannot be used (see
        there), ``bot.migrations.DatabaseTooNew`` if the file was written by newer
        code, ``MigrationFailed``/``InvalidMigrations`` if the schema cannot be
        brought up to date, and ``StoreError`` if the file cannot use WAL mode
        (e.g. ``":memory:"``). Nothing is written to a file SQLite cannot read.
        """
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseUnusable(
                path, f"its folder cannot be created ({error.strerror or error})"
            ) from error
        if path.is_dir():
            raise DatabaseUnusable(path, "is a folder: set DATABASE_PATH to a file in it")
        try:
            # A failed aiosqlite.connect leaves its worker thread to call back into
            # the loop, which the caller may already have closed (a traceback at
            # exit); a plain connect finds the same faults without a thread.
            sqlite3.connect(path).close()
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as error:
            raise _unusable(path, error) from error
        try:
            db.row_factory = aiosqlite.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            journal = await db.execute_fetchall("PRAGMA journal_mode = WAL")
            if next(iter(journal))[0] != "wal":
                raise StoreError(f"{path}: SQLite refused WAL mode; use a real file")
            await db.execute("PRAGMA foreign_keys = ON")
            # In WAL mode NORMAL is durable against application crashes and much faster.
            await db.execute("PRAGMA synchronous = NORMAL")
            version = await apply_migrations(db, migrations_dir)
        except sqlite3.Error as error:
            await db.close()
            raise _unusable(path, error) from error
        except MigrationFailed as error:
            await db.close()
            # A full disk or a read-only file fails the first write, in a migration.
            cause = error.__cause__
            if isinstance(cause, sqlite3.Error) and _problem(cause) is not None:
                raise _unusable(path, cause) from error
            raise
        except BaseException:
            await db.close()
            raise
        log.info("database %s at schema version %d", path, version)
        return cls(db)

    async def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        async with self._lock:
            await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @asynccontextmanager
    async def _transaction(self, *, write: bool) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            try:
                # IMMEDIATE takes the write lock up front, so a write transaction never
                # fails half-way with SQLITE_BUSY; readers get a consistent snapshot.
                await self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                # Roll back whatever ``in_transaction`` says: a statement whose await was
                # cancelled (a task cancelled at shutdown, a timeout) still runs on
                # aiosqlite's thread, and this ROLLBACK queues behind it. A failing
                # rollback ("no transaction is active") must not hide the first error.
                with contextlib.suppress(sqlite3.Error):
                    await self._db.execute("ROLLBACK")
                raise
