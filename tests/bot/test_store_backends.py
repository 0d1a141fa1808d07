"""The two databases under one store: ``bot/store/schema.py`` matches what each kind's
migrations build, and PostgreSQL's migrations behave as SQLite's do."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy

from bot.migrations import POSTGRESQL_MIGRATIONS_DIR, DatabaseTooNew, discover
from bot.store import DatabaseUnusable, Store
from bot.store.base import Shards
from bot.store.schema import metadata
from tests.postgres import PostgresServer


def _shape(sync: sqlalchemy.Connection) -> dict[str, Any]:
    """Each table's columns (name, nullable) and primary key, as the database has them."""
    inspector = sqlalchemy.inspect(sync)
    shape = {}
    for table in inspector.get_table_names():
        if table in {"sqlite_sequence", "schema_version"}:
            continue
        key = inspector.get_pk_constraint(table)["constrained_columns"]
        # SQLite reports an INTEGER PRIMARY KEY (a rowid) as nullable; it never is NULL.
        columns = [
            (c["name"], c["nullable"] and c["name"] not in key)
            for c in inspector.get_columns(table)
        ]
        shape[table] = {"columns": sorted(columns), "primary_key": sorted(key)}
    return shape


def _declared() -> dict[str, Any]:
    return {
        table.name: {
            "columns": sorted((c.name, bool(c.nullable)) for c in table.columns),
            "primary_key": sorted(c.name for c in table.primary_key.columns),
        }
        for table in metadata.sorted_tables
    }


async def test_the_declared_tables_are_what_the_migrations_build(database: str | Path) -> None:
    """Every table, column, NULL-ability and primary key of schema.py is in the migrated
    database, and nothing else, on SQLite and on PostgreSQL."""
    async with await Store.open(database) as store, store._read() as db:
        assert await db.run_sync(_shape) == _declared()


async def test_postgresql_migrates_once_when_processes_start_together(
    postgres: PostgresServer,
) -> None:
    """Shard processes starting at once on a new database: one migrates, the others
    wait for it and find the schema up to date."""
    url = await postgres.database(migrated=False)
    stores = await asyncio.gather(*(Store.open(url) for _ in range(4)))
    async with stores[0]._read() as db:
        versions = (await db.execute(sqlalchemy.text("SELECT version FROM schema_version"))).all()
    assert versions == [(len(discover(POSTGRESQL_MIGRATIONS_DIR)),)]
    for store in stores:
        await store.close()


async def test_postgresql_refuses_a_newer_database(postgres: PostgresServer) -> None:
    """A database migrated by newer code is refused with DatabaseTooNew, untouched."""
    url = await postgres.database()
    async with await Store.open(url) as store:
        await store._write(
            lambda db: db.execute(sqlalchemy.text("UPDATE schema_version SET version = 999"))
        )
    with pytest.raises(DatabaseTooNew):
        await Store.open(url)


async def test_an_unreachable_server_is_one_clear_error(tmp_path: Path) -> None:
    """A URL no server answers is DatabaseUnusable, naming the URL without its password."""
    url = f"postgresql://tuque:secret@/tuque?host={tmp_path}"
    with pytest.raises(DatabaseUnusable) as caught:
        await Store.open(url)
    message = str(caught.value)
    assert "secret" not in message and "DATABASE_URL" in message and "\n" not in message


@pytest.mark.parametrize(
    ("ids", "count", "guild", "owned"),
    [
        ({0}, 1, 123 << 22, True),
        ({0}, 2, 2 << 22, True),
        ({0}, 2, 3 << 22, False),
        ({1, 2}, 4, (6 << 22) | 12345, True),
    ],
)
async def test_shards_pick_their_guilds_in_python_and_in_sql(
    database: str | Path, ids: set[int], count: int, guild: int, owned: bool
) -> None:
    """A guild is on shard (guild_id >> 22) % count, in Python and in the SQL clause."""
    shards = Shards(frozenset(ids), count)
    assert shards.owns(guild) is owned
    async with await Store.open(database) as store, store._read() as db:
        column = sqlalchemy.literal(guild, sqlalchemy.BigInteger)
        assert (await db.execute(sqlalchemy.select(shards.clause(column)))).scalar() == owned


def test_shards_refuse_ids_outside_the_count() -> None:
    """Shard ids are 0..count-1, at least one."""
    for ids, count in (({2}, 2), (set(), 2), ({0}, 0)):
        with pytest.raises(ValueError):
            Shards(frozenset(ids), count)
