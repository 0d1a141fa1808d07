"""Statements built once (``bot.store.prepared``): the same rows and the same errors on
SQLite, where they run straight on the DBAPI connection, as on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import Boolean, bindparam, literal, select
from sqlalchemy.exc import IntegrityError

from bot.store import GameNotFound, SeatRow, Store
from bot.store.base import Connection
from bot.store.games import _INSERT_ACTION, _LOCK_GAME, _NEXT_SEQ
from bot.store.prepared import Prepared
from bot.store.schema import games


@pytest.fixture
async def store(database: str | Path) -> AsyncIterator[Store]:
    """An open store on a fresh database, once on each backend."""
    async with await Store.open(database) as opened:
        yield opened


async def new_game(store: Store) -> int:
    seats = [SeatRow.human(0, 100), SeatRow.human(1, 200)]
    return await store.create_game(1, 10, "tuque", {}, 7, 0, seats, ["deal"], now=0.0)


async def test_rows_are_tuples_alike_on_both_databases(store: Store) -> None:
    """A prepared select's rows, with a constant of its own (``+ 1``), are plain tuples."""
    game = await new_game(store)

    async def read(db: Connection) -> list[list[tuple[object, ...]]]:
        return [
            await _LOCK_GAME.rows(db, {"game_id": game}),
            await _NEXT_SEQ.rows(db, {"game_id": game}),
            await _LOCK_GAME.rows(db, {"game_id": game + 1}),
        ]

    assert await store._write(read) == [[(1, "tuque", "active")], [(1,)], []]


async def test_a_broken_key_is_sqlalchemys_integrity_error(store: Store) -> None:
    """An insert that breaks a primary key raises SQLAlchemy's IntegrityError on both
    databases, and the write keeps none of its rows."""
    game = await new_game(store)

    async def twice(db: Connection) -> int:
        row = {"game_id": game, "seq": 1, "action": "pass"}
        return await _INSERT_ACTION.run(db, [row, row])

    with pytest.raises(IntegrityError):
        await store._write(twice)
    assert (await store.load_game(game)).actions == ("deal",)


async def test_changed_rows_are_counted(store: Store) -> None:
    """``run`` returns the rows a statement changed."""
    game = await new_game(store)
    rename = Prepared(
        games.update().where(games.c.id == bindparam("game_id")).values(variant=bindparam("v"))
    )
    for game_id, changed in ((game, 1), (game + 1, 0)):

        async def work(db: Connection, game_id: int = game_id) -> int:
            return await rename.run(db, {"game_id": game_id, "v": "tuque"})

        assert await store._write(work) == changed


async def test_a_statement_sqlite_would_convert_is_refused(tmp_path: Path) -> None:
    """A parameter or a column that SQLAlchemy converts for SQLite (a boolean, a list for
    ``IN``) cannot be run without it: refused at its first use on SQLite."""
    flag = Prepared(select(literal(True, Boolean)))
    among = Prepared(select(games.c.id).where(games.c.id.in_(bindparam("ids", expanding=True))))
    async with await Store.open(tmp_path / "tuque.db") as store:
        for statement, parameters in ((flag, {}), (among, {"ids": [1]})):

            async def work(
                db: Connection, statement: Prepared = statement, p: dict[str, object] = parameters
            ) -> None:
                await statement.rows(db, p)

            with pytest.raises(TypeError, match="SQLite would convert"):
                await store._write(work)


async def test_the_ping_is_remembered_and_forgotten(store: Store) -> None:
    """``set_ping_message`` keeps the message that pings the member on turn, and None
    once it is deleted; GameNotFound for a game that does not exist."""
    game = await new_game(store)
    await store.set_ping_message(game, 555)
    assert (await store.load_game(game)).ping_message_id == 555
    await store.set_ping_message(game, None)
    assert (await store.load_game(game)).ping_message_id is None
    with pytest.raises(GameNotFound):
        await store.set_ping_message(game + 1, 555)
