"""Moving a growing bot: copy an SQLite database into PostgreSQL, and check the counts.

``tuque-bot copy-database data/tuque.db postgresql://...`` runs ``copy_database``. The
SQLite file is first brought up to the newest schema (as the bot would on start), the
PostgreSQL database is migrated and must hold no data yet, then every table is copied
in one PostgreSQL transaction, parents before children, keeping every id (old buttons
carry game ids). The id sequences then continue after the highest id copied. Before
the commit each table's row count on PostgreSQL must equal SQLite's, or nothing is
kept. Stop the bot first: a game played during the copy would be left behind.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import Table, func, select, text

from bot.store import schema
from bot.store.base import POSTGRESQL_SCHEMES, Connection, StoreBase, StoreError
from bot.store.sqlite import SQLiteConnection

log = logging.getLogger("bot.store")

#: Every table, each after the tables its foreign keys point to.
TABLES: Sequence[Table] = (
    schema.players,
    schema.games,
    schema.seats,
    schema.game_actions,
    schema.hands,
    schema.hand_points,
    schema.hand_tricks,
    schema.results,
    schema.ratings,
    schema.challenges,
    schema.lobbies,
    schema.lobby_seats,
    schema.guild_settings,
    schema.member_prefs,
    schema.events,
    schema.event_tables,
)

#: Tables whose ``id`` comes from an identity sequence on PostgreSQL.
_IDENTITIES = (schema.games, schema.challenges, schema.lobbies, schema.events)

#: Rows sent to PostgreSQL per statement.
BATCH = 1_000


class CopyFailed(StoreError):
    """The copy was refused or did not add up; PostgreSQL was left as it was."""


async def copy_database(source: Path, target: str) -> dict[str, int]:
    """Copy the SQLite database at ``source`` into the PostgreSQL database at ``target``
    (a ``postgresql://`` URL). Returns each table's row count, as copied and checked.

    Raises ``CopyFailed`` if ``source`` does not exist, ``target`` is not PostgreSQL or
    already holds data, or a count differs after the copy (then nothing was kept);
    ``DatabaseUnusable`` and the migration errors as ``Store.open`` does.
    """
    if not target.startswith(POSTGRESQL_SCHEMES):
        # Not the target itself: a URL mistyped is still likely to hold a password.
        raise CopyFailed("the copy goes into PostgreSQL: give a postgresql://... URL")
    if not source.is_file():
        raise CopyFailed(f"{source}: no such SQLite file")
    sqlite = await StoreBase.open(source)
    try:
        postgresql = await StoreBase.open(target)
        try:
            async with sqlite._read() as reading:
                assert isinstance(reading, SQLiteConnection)
                return await postgresql._write(lambda writing: _copy(reading, writing))
        finally:
            await postgresql.close()
    finally:
        await sqlite.close()


async def _copy(source: SQLiteConnection, target: Connection) -> dict[str, int]:
    for table in TABLES:
        if (await target.execute(select(func.count()).select_from(table))).scalar_one():
            raise CopyFailed(
                f"the PostgreSQL database already holds {table.name}: copy into an empty one"
            )
    counts: dict[str, int] = {}
    for table in TABLES:
        copied = 0
        rows = await source.stream(select(table).order_by(*table.primary_key.columns), BATCH)
        for batch in rows:
            await target.execute(table.insert(), [dict(row) for row in batch])
            copied += len(batch)
        expected = (await source.execute(select(func.count()).select_from(table))).scalar_one()
        found = (await target.execute(select(func.count()).select_from(table))).scalar_one()
        if not copied == expected == found:
            raise CopyFailed(
                f"{table.name}: {expected} rows in SQLite, {copied} read, {found} in "
                "PostgreSQL; nothing was kept"
            )
        counts[table.name] = found
        log.info("copied %s: %d rows", table.name, found)
    for table in _IDENTITIES:
        # The next id follows the highest copied (a fresh sequence would reuse them).
        await target.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                f"COALESCE((SELECT max(id) FROM {table.name}), 0) + 1, false)"
            )
        )
    return counts
