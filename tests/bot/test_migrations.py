"""The migration runner, on the fixture folders in ``fixtures/migrations``."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator
from importlib.resources.abc import Traversable
from pathlib import Path

import aiosqlite
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.migrations import (
    MIGRATIONS_DIR,
    POSTGRESQL_MIGRATIONS_DIR,
    DatabaseTooNew,
    InvalidMigrations,
    MigrationFailed,
    apply_migrations,
    discover,
    split_statements,
    user_version,
)

FIXTURES = Path(__file__).parent / "fixtures" / "migrations"


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """An autocommit connection to a fresh database file, foreign keys on like the store's."""
    async with aiosqlite.connect(tmp_path / "test.db", isolation_level=None) as db:
        await db.execute("PRAGMA foreign_keys = ON")
        yield db


async def scalar(db: aiosqlite.Connection, sql: str) -> object:
    """Return the first column of the first row of ``sql``."""
    rows = list(await db.execute_fetchall(sql))
    return rows[0][0]


async def tables(db: aiosqlite.Connection) -> set[str]:
    """Names of the database's tables."""
    rows = await db.execute_fetchall("SELECT name FROM sqlite_schema WHERE type = 'table'")
    return {r[0] for r in rows}


async def test_applies_every_migration_in_order(conn: aiosqlite.Connection) -> None:
    """A new database is brought to the newest version with every migration's effect."""
    assert await apply_migrations(conn, FIXTURES / "good") == 2
    assert await user_version(conn) == 2
    assert await scalar(conn, "SELECT tag FROM tags WHERE note_id = 1") == "first"


async def test_second_run_changes_nothing(conn: aiosqlite.Connection) -> None:
    """Running the runner again on an up-to-date database is a no-op."""
    await apply_migrations(conn, FIXTURES / "good")
    changes = conn.total_changes
    assert await apply_migrations(conn, FIXTURES / "good") == 2
    assert conn.total_changes == changes
    assert await scalar(conn, "SELECT COUNT(*) FROM notes") == 1


async def test_reopened_database_is_not_migrated_again(tmp_path: Path) -> None:
    """A database migrated by an earlier connection is left as it is."""
    for _ in range(2):
        async with aiosqlite.connect(tmp_path / "test.db", isolation_level=None) as db:
            assert await apply_migrations(db, FIXTURES / "good") == 2
            assert await scalar(db, "SELECT COUNT(*) FROM tags") == 1


async def test_statements_keep_literals_and_trigger_bodies_whole(
    conn: aiosqlite.Connection,
) -> None:
    """A ';' inside a string or a trigger body does not split the statement."""
    await apply_migrations(conn, FIXTURES / "good")
    assert await scalar(conn, "SELECT body FROM notes") == "semi; colon"
    await conn.execute("INSERT INTO notes (body) VALUES ('second')")
    assert await scalar(conn, "SELECT COUNT(*) FROM note_log") == 2


async def test_failing_migration_leaves_previous_version(conn: aiosqlite.Connection) -> None:
    """A migration that fails half-way is rolled back entirely; earlier ones stay."""
    with pytest.raises(MigrationFailed, match=r"002_broken\.sql"):
        await apply_migrations(conn, FIXTURES / "broken")
    assert await user_version(conn) == 1
    assert "tags" not in await tables(conn)
    assert await scalar(conn, "SELECT COUNT(*) FROM notes") == 1
    assert await scalar(conn, "SELECT COUNT(*) FROM note_log") == 0
    assert not conn.in_transaction


async def test_foreign_key_violation_fails_the_migration(conn: aiosqlite.Connection) -> None:
    """Rows left breaking a foreign key roll the migration back."""
    with pytest.raises(MigrationFailed, match="foreign key"):
        await apply_migrations(conn, FIXTURES / "fk_violation")
    assert await user_version(conn) == 1
    assert "tags" not in await tables(conn)


async def test_newer_database_is_refused(conn: aiosqlite.Connection) -> None:
    """A database from newer code raises DatabaseTooNew and is not touched."""
    await conn.execute("PRAGMA user_version = 7")
    with pytest.raises(DatabaseTooNew) as raised:
        await apply_migrations(conn, FIXTURES / "good")
    assert (raised.value.database_version, raised.value.code_version) == (7, 2)
    assert await user_version(conn) == 7
    assert await tables(conn) == set()


async def test_concurrent_starts_apply_each_migration_once(tmp_path: Path) -> None:
    """Two connections migrating the same file at once both end at the newest version."""
    async with (
        aiosqlite.connect(tmp_path / "test.db", isolation_level=None, timeout=10) as a,
        aiosqlite.connect(tmp_path / "test.db", isolation_level=None, timeout=10) as b,
    ):
        versions = await asyncio.gather(
            apply_migrations(a, FIXTURES / "good"), apply_migrations(b, FIXTURES / "good")
        )
        assert versions == [2, 2]
        assert await scalar(a, "SELECT COUNT(*) FROM tags") == 1


async def test_connection_must_be_in_autocommit_mode(tmp_path: Path) -> None:
    """A connection with implicit transactions is refused before anything runs."""
    async with aiosqlite.connect(tmp_path / "test.db") as db:
        with pytest.raises(ValueError, match="isolation_level=None"):
            await apply_migrations(db, FIXTURES / "good")


@pytest.mark.parametrize(
    ("folder", "message"),
    [
        ("gap", "without gaps"),
        ("duplicate", "both have number 1"),
        ("misnamed", "add-tags.sql"),
        ("transaction", "transaction control"),
        ("no_such_folder", "not found"),
    ],
)
async def test_invalid_folder_is_rejected_before_applying(
    conn: aiosqlite.Connection, folder: str, message: str
) -> None:
    """Gaps, duplicate numbers, bad names, COMMITs and a missing folder apply nothing."""
    with pytest.raises(InvalidMigrations, match=re.escape(message)):
        await apply_migrations(conn, FIXTURES / folder)
    assert await user_version(conn) == 0
    assert await tables(conn) == set()


async def test_folder_without_migrations_is_rejected(
    conn: aiosqlite.Connection, tmp_path: Path
) -> None:
    """A folder with no .sql file (an install that lost its package data) is an error,
    not a database left at version 0."""
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "__init__.py").write_text('"""Nothing else."""\n')
    with pytest.raises(InvalidMigrations, match="no migration"):
        await apply_migrations(conn, empty)
    assert await user_version(conn) == 0


def test_split_keeps_trailing_statement_without_semicolon() -> None:
    """The last statement of a script may omit its ';' and trailing comments are dropped."""
    assert split_statements("SELECT 1;\nSELECT 2\n-- done\n") == [
        "SELECT 1;",
        "SELECT 2\n-- done",
    ]


def test_split_drops_comment_only_tail() -> None:
    """Comments after the last ';' are not a statement."""
    assert split_statements("SELECT 1; -- the end\n/* really */") == ["SELECT 1;"]


@given(st.lists(st.text(alphabet="ab;'-/*\n "), min_size=1, max_size=8))
def test_split_matches_sqlite_on_tricky_literals(texts: list[str]) -> None:
    """Literals full of ';', quotes and comment markers split exactly where SQLite would."""
    quoted = ["'" + text.replace("'", "''") + "'" for text in texts]
    script = ";\n".join(f"INSERT INTO t VALUES ({q})" for q in quoted) + ";"
    statements = split_statements(script)
    assert len(statements) == len(texts)
    db = sqlite3.connect(":memory:")
    try:
        db.execute("CREATE TABLE t (v TEXT)")
        for statement in statements:
            db.execute(statement)
        assert [r[0] for r in db.execute("SELECT v FROM t ORDER BY rowid")] == texts
    finally:
        db.close()


@pytest.mark.parametrize("folder", [MIGRATIONS_DIR, POSTGRESQL_MIGRATIONS_DIR])
def test_repository_migrations_are_valid(folder: Traversable) -> None:
    """The bot's migrations for each database are found as the ``migrations`` package's
    data (``sqlite/``, ``postgresql/``), numbered 1..N."""
    migrations = discover(folder)
    assert folder.name in {"sqlite", "postgresql"}
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].path.name == "001_initial.sql"


async def test_table_rebuilds_keep_child_rows_under_enforced_foreign_keys(
    conn: aiosqlite.Connection, tmp_path: Path
) -> None:
    """Migration 002 rebuilds seats and hands while foreign keys are enforced (as the store
    migrates): dropping the old tables cascades to no child row, and enforcement holds."""
    only_001 = tmp_path / "only-001"
    only_001.mkdir()
    (only_001 / "001_initial.sql").write_text((MIGRATIONS_DIR / "001_initial.sql").read_text())
    await apply_migrations(conn, only_001)
    for statement in (
        "INSERT INTO games (guild_id, channel_id, variant, seed, first_dealer,"
        " created_at, updated_at, turn_started_at) VALUES (1, 2, 'tuque', 3, 0, 0, 0, 0)",
        "INSERT INTO seats VALUES (1, 0, 'computer', NULL, 'easy'), (1, 1, 'human', 7, NULL)",
        "INSERT INTO hands VALUES (1, 1, 1, 0, 1, 1, 0, 0, 0)",
        "INSERT INTO hand_tricks VALUES (1, 1, 0, 8), (1, 1, 1, 9)",
    ):
        await conn.execute(statement)
    assert await apply_migrations(conn, MIGRATIONS_DIR) == len(discover())
    assert await scalar(conn, "PRAGMA foreign_keys") == 1
    assert await scalar(conn, "SELECT COUNT(*) FROM hand_tricks") == 2
    assert await scalar(conn, "SELECT COUNT(*) FROM hand_points") == 1
    assert list(await conn.execute_fetchall("PRAGMA foreign_key_check")) == []
    with pytest.raises(sqlite3.IntegrityError):
        await conn.execute("INSERT INTO seats VALUES (99, 0, 0, 'computer', NULL, 'easy', 0, NULL)")
