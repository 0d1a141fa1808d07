"""Forward-only SQL migrations, numbered files per database: SQLite and PostgreSQL.

A migrations folder holds files named ``NNN_description.sql`` numbered 1, 2, 3, ...
without gaps or duplicates. The bot's own are the ``migrations`` package's data,
``migrations/sqlite`` and ``migrations/postgresql``, read with ``importlib.resources``,
so they come with any install of the project (a wheel, an editable install or a
checkout). Each folder numbers its own files: PostgreSQL's 001 builds what SQLite's
001-007 built, since no PostgreSQL database predates them, and a later change of
schema is one new file in each folder.

- **SQLite** (``apply_migrations``): ``PRAGMA user_version`` is the number of the last
  migration applied. Each pending migration runs in its own ``BEGIN IMMEDIATE``
  transaction together with its ``user_version`` bump and a ``PRAGMA
  foreign_key_check``, so a failing migration leaves the database exactly at the
  previous version.
- **PostgreSQL** (``apply_postgresql_migrations``): the table ``schema_version`` holds
  the number, and each migration runs in its own transaction under an advisory lock,
  so shard processes starting together migrate once. PostgreSQL checks foreign keys
  as each statement runs, and its DDL is transactional: a failing migration rolls
  back whole.

Rules for migration files:

- No transaction control (``BEGIN``, ``COMMIT``, ``ROLLBACK``, ``SAVEPOINT``, ...) and
  no ``PRAGMA user_version``: the runner owns both. Such files are rejected
  before anything is applied.
- ``PRAGMA foreign_keys`` cannot change inside a transaction. A migration that
  rebuilds a table (SQLite's 12-step ``ALTER TABLE`` procedure) should use
  ``PRAGMA defer_foreign_keys = ON`` instead; the runner's foreign key check
  still runs before the commit.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

import aiosqlite
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

#: The bot's SQLite migrations: ``.sql`` files of the ``migrations`` package, wherever it
#: is installed. A ``pathlib.Path`` to another folder works as well (the tests' fixtures).
MIGRATIONS_DIR: Traversable = files("migrations") / "sqlite"

#: The bot's PostgreSQL migrations, numbered on their own (see the module's docstring).
POSTGRESQL_MIGRATIONS_DIR: Traversable = files("migrations") / "postgresql"

# The advisory lock that one migrating process holds: the two-key form ("tu", "qu"), a
# key space apart from the store's one-key locks on members.
_MIGRATION_LOCK = (0x7475, 0x7175)

_FILE_NAME = re.compile(r"^(\d+)_[A-Za-z0-9_]+\.sql$")
_LEADING_COMMENTS = re.compile(r"^(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/)*", re.DOTALL)
_FORBIDDEN = re.compile(
    r"(?:BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b|PRAGMA\s+user_version\b",
    re.IGNORECASE,
)


class MigrationError(Exception):
    """Base class for everything that stops the database from being brought up to date."""


class InvalidMigrations(MigrationError):
    """The migrations folder is missing, misnamed, has gaps or duplicate numbers,
    or a file contains a statement the runner reserves for itself."""


class DatabaseTooNew(MigrationError):
    """The database was written by newer code: its ``user_version`` is above the
    newest migration this code knows. Nothing was changed."""

    def __init__(self, database_version: int, code_version: int) -> None:
        super().__init__(
            f"database schema version {database_version} is newer than this code "
            f"(newest migration is {code_version}); upgrade the bot or restore a backup"
        )
        self.database_version = database_version
        self.code_version = code_version


class MigrationFailed(MigrationError):
    """A migration raised a database error or left broken foreign keys; it was rolled
    back and the database is still at ``version - 1``."""

    def __init__(self, migration: Migration, reason: str) -> None:
        super().__init__(f"migration {migration.path.name} failed: {reason}")
        self.migration = migration


@dataclass(frozen=True)
class Migration:
    """One migration file: ``version`` is its number, ``statements`` its SQL split
    into single statements in file order."""

    version: int
    path: Traversable
    statements: tuple[str, ...]


def split_statements(script: str) -> list[str]:
    """Split an SQL script into single statements, keeping trigger bodies whole.

    ``sqlite3.complete_statement`` knows about string literals, comments and
    ``CREATE TRIGGER ... BEGIN ... END``, so a ``;`` only ends a statement where
    SQLite itself would end it. A trailing statement without ``;`` is kept.
    """
    statements: list[str] = []
    start = 0
    for index, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : index + 1]):
            statement = script[start : index + 1].strip()
            if statement != ";":
                statements.append(statement)
            start = index + 1
    tail = script[start:].strip()
    if _LEADING_COMMENTS.sub("", tail):
        statements.append(tail)
    return statements


def discover(folder: Traversable = MIGRATIONS_DIR) -> list[Migration]:
    """Read and validate every ``NNN_name.sql`` file in ``folder``, sorted by number.

    Files not ending in ``.sql`` are ignored. Raises ``InvalidMigrations`` if the
    folder does not exist or holds no ``.sql`` file, a ``.sql`` file is misnamed, the
    numbers are not exactly 1..N, or a file uses transaction control or
    ``PRAGMA user_version``.
    """
    if not folder.is_dir():
        raise InvalidMigrations(f"migrations folder not found: {folder}")
    by_version: dict[int, Traversable] = {}
    sql_files = (p for p in folder.iterdir() if p.name.endswith(".sql") and p.is_file())
    for path in sorted(sql_files, key=lambda p: p.name):
        match = _FILE_NAME.match(path.name)
        if match is None:
            raise InvalidMigrations(f"{path.name}: expected a name like 001_description.sql")
        version = int(match.group(1))
        if version in by_version:
            raise InvalidMigrations(
                f"{path.name} and {by_version[version].name} both have number {version}"
            )
        by_version[version] = path
    if not by_version:
        # An install that lost its package data must not start on an empty schema.
        raise InvalidMigrations(f"no migration (NNN_description.sql) in {folder}")
    expected = list(range(1, len(by_version) + 1))
    if sorted(by_version) != expected:
        raise InvalidMigrations(
            f"migration numbers must be 1..{len(by_version)} without gaps, "
            f"found {sorted(by_version)}"
        )
    migrations = []
    for version in expected:
        path = by_version[version]
        statements = split_statements(path.read_text(encoding="utf-8"))
        for statement in statements:
            if _FORBIDDEN.match(_LEADING_COMMENTS.sub("", statement)):
                raise InvalidMigrations(
                    f"{path.name}: transaction control and PRAGMA user_version "
                    f"belong to the runner: {statement[:60]!r}"
                )
        migrations.append(Migration(version, path, tuple(statements)))
    return migrations


async def user_version(conn: aiosqlite.Connection) -> int:
    """Return the database's ``PRAGMA user_version`` (0 for a new database)."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None  # the pragma always returns one row
    return int(row[0])


async def apply_migrations(conn: aiosqlite.Connection, folder: Traversable = MIGRATIONS_DIR) -> int:
    """Bring the database up to the newest migration in ``folder``; return its version.

    ``conn`` must be in autocommit mode (``isolation_level=None``) with no open
    transaction, because the runner issues its own ``BEGIN IMMEDIATE``. The version
    is re-read under the write lock, so two processes starting at once don't apply
    a migration twice. Safe to call on every start: an up-to-date database is
    left untouched.

    Raises ``InvalidMigrations`` (bad folder, nothing applied), ``DatabaseTooNew``
    (nothing applied) or ``MigrationFailed`` (that migration rolled back; earlier
    ones in this call stay committed).
    """
    if conn.isolation_level is not None:
        raise ValueError("apply_migrations needs a connection opened with isolation_level=None")
    migrations = discover(folder)
    newest = len(migrations)
    while True:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            current = await user_version(conn)
            if current > newest:
                raise DatabaseTooNew(current, newest)
            if current == newest:
                await conn.execute("ROLLBACK")
                return current
            await _apply_one(conn, migrations[current])
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                # A failing rollback must not hide the error that caused it.
                with contextlib.suppress(sqlite3.Error):
                    await conn.execute("ROLLBACK")
            raise


async def _apply_one(conn: aiosqlite.Connection, migration: Migration) -> None:
    try:
        for statement in migration.statements:
            await conn.execute(statement)
        async with conn.execute("PRAGMA foreign_key_check") as cursor:
            violations = await cursor.fetchall()
        if violations:
            raise MigrationFailed(migration, f"foreign key violations: {list(violations)[:5]}")
        # The pragma takes no bound parameters; version is an int parsed from the name.
        await conn.execute(f"PRAGMA user_version = {migration.version:d}")
    except sqlite3.Error as error:
        raise MigrationFailed(migration, str(error)) from error


async def apply_postgresql_migrations(
    engine: AsyncEngine, folder: Traversable = POSTGRESQL_MIGRATIONS_DIR
) -> int:
    """Bring a PostgreSQL database up to the newest migration in ``folder``; return its
    version. Safe to call from several processes at once: each migration's transaction
    first takes an advisory lock, then re-reads the version.

    Raises ``InvalidMigrations``, ``DatabaseTooNew`` or ``MigrationFailed`` as
    ``apply_migrations`` does, and ``sqlalchemy.exc.DBAPIError`` if the server cannot
    be reached.
    """
    migrations = discover(folder)
    newest = len(migrations)
    async with engine.connect() as conn:
        while True:
            async with conn.begin():
                await conn.execute(
                    text("SELECT pg_advisory_xact_lock(:one, :two)"),
                    {"one": _MIGRATION_LOCK[0], "two": _MIGRATION_LOCK[1]},
                )
                await conn.execute(
                    text("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                )
                current = (
                    await conn.execute(text("SELECT max(version) FROM schema_version"))
                ).scalar()
                current = int(current or 0)
                if current > newest:
                    raise DatabaseTooNew(current, newest)
                if current == newest:
                    return current
                migration = migrations[current]
                try:
                    for statement in migration.statements:
                        await conn.exec_driver_sql(statement)
                except DBAPIError as error:
                    raise MigrationFailed(migration, str(error.orig)) from error
                await conn.execute(text("DELETE FROM schema_version"))
                await conn.execute(
                    text("INSERT INTO schema_version (version) VALUES (:version)"),
                    {"version": migration.version},
                )
