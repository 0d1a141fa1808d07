"""Statements built once for the hot paths: a click's write runs no SQLAlchemy per call.

Profiled with py-spy (a click's write after another, issue 41), the store's SQLite
thread spent 7% of a write in SQLite: 48% went to SQLAlchemy building each statement
anew (``select``, ``==``, ``bindparam``; with the work's own Python) and 37% to running
it (its cache key, finding it compiled, the execution context and the result), 8% to
the trip itself. A ``Prepared`` statement is built once, at import, with named
parameters (``bindparam``); on SQLite it is compiled once, to SQL text that runs
straight on the ``sqlite3`` connection, which keeps it prepared (its statement cache).
On PostgreSQL SQLAlchemy runs it like any statement, finding it compiled at once
(asyncpg then prepares it once per connection). Either way the statement is SQLAlchemy
Core, one for both databases. Since, SQLite itself is a third of the thread's time,
and waking the event loop with each batch's answers the most of the rest.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Select, UpdateBase
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import processors
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store.sqlite import SQLiteConnection

# The SQLite text of a statement, with ``:name`` parameters, which sqlite3 binds from a
# dict as it is.
_SQLITE = SQLiteDialect_pysqlite(paramstyle="named")

# The conversions that may be skipped. A float column's turns an int or a Decimal into
# a float: SQLite's REAL columns store an int as a float themselves, and the store's
# times are floats already (``_now``).
_NEEDLESS = frozenset({None, processors.to_float})


class Prepared:
    """``statement``, built once with named parameters, run on either database.

    Its parameters and its columns must need no conversion between Python and SQLite
    (integers, floats and text, as the store's tables have them; floats bound as
    floats): the SQLite text is run without SQLAlchemy's conversions. ``TypeError`` at
    its first use on SQLite otherwise.
    """

    def __init__(self, statement: Select[Any] | UpdateBase) -> None:
        self.statement = statement

    async def rows(
        self, db: SQLiteConnection | AsyncConnection, parameters: Mapping[str, Any]
    ) -> list[tuple[Any, ...]]:
        """The statement's rows with ``parameters``, as tuples. Raises
        ``sqlalchemy.exc.DBAPIError`` for what the database refuses."""
        if isinstance(db, SQLiteConnection):
            sql, constants = self._sqlite
            return await db.fetch_sql(sql, {**constants, **parameters})
        return [tuple(row) for row in await db.execute(self.statement, dict(parameters))]

    async def run(
        self,
        db: SQLiteConnection | AsyncConnection,
        parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    ) -> int:
        """Run the statement with ``parameters`` (a sequence: once for each, as one
        ``executemany``); return the rows it changed (for one set of parameters). Raises
        ``sqlalchemy.exc.DBAPIError`` (``IntegrityError`` for a broken key, ...)."""
        if isinstance(db, SQLiteConnection):
            sql, constants = self._sqlite
            if isinstance(parameters, Mapping):
                return await db.change_sql(sql, {**constants, **parameters})
            return await db.change_sql(sql, [{**constants, **p} for p in parameters])
        given = (
            dict(parameters) if isinstance(parameters, Mapping) else [dict(p) for p in parameters]
        )
        return (await db.execute(self.statement, given)).rowcount

    @functools.cached_property
    def _sqlite(self) -> tuple[str, dict[str, Any]]:
        """The SQLite text and the values of the parameters the statement fixes itself
        (its literals, such as a status compared with)."""
        compiled = self.statement.compile(dialect=_SQLITE)
        columns = getattr(self.statement, "exported_columns", ())
        converted = [
            name
            for bind, name in compiled.bind_names.items()
            if bind.expanding or bind.type.bind_processor(_SQLITE) not in _NEEDLESS
        ] + [
            str(column.key)
            for column in columns
            if column.type.result_processor(_SQLITE, None) is not None
        ]
        if converted:
            raise TypeError(f"SQLite would convert {converted}: run it as any statement")
        constants = {
            name: bind.effective_value
            for bind, name in compiled.bind_names.items()
            if not bind.required
        }
        return str(compiled), constants
