"""``tuque-bot copy-database``: an SQLite database from before PostgreSQL, copied into
PostgreSQL, gives the same stats and its games finish there (``bot/store/copy.py``)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest
import sqlalchemy
from finish import finish_game

from bot.__main__ import main
from bot.store import GameStatus, Store
from bot.store.copy import TABLES, CopyFailed, copy_database
from tests.postgres import PostgresServer

FIXTURES = Path(__file__).parent / "fixtures"
GUILD = 1
ANN, BOB = 100, 200


@pytest.fixture
def old_database(tmp_path: Path) -> Path:
    """A copy of what the store of schema 1 wrote (fixtures/make_db_001.py): rated and
    computer games, one resigned, one abandoned, one active, and challenges."""
    path = tmp_path / "tuque.db"
    shutil.copyfile(FIXTURES / "db_001.sqlite3", path)
    return path


async def counts(database: str | Path) -> dict[str, int]:
    """Each table's rows, read straight from the database."""
    async with await Store.open(database) as store, store._read() as db:
        return {
            table.name: (
                await db.execute(sqlalchemy.select(sqlalchemy.func.count()).select_from(table))
            ).scalar_one()
            for table in TABLES
        }


async def test_copy_keeps_every_row_and_the_games_play_on(
    old_database: Path, postgres: PostgresServer
) -> None:
    """Every table arrives whole, with its ids; stats and leaderboards are what the
    SQLite database gave; the active game finishes on PostgreSQL and a new game takes
    the next id, never an old one."""
    target = await postgres.database(migrated=False)
    copied = await copy_database(old_database, target)
    assert copied == await counts(old_database) == await counts(target)
    assert copied["games"] == 6 and copied["game_actions"] > 0

    expected = json.loads((FIXTURES / "db_001.json").read_text())
    async with await Store.open(target) as store:
        for key, stats in expected["stats"].items():
            user, variant = key.split(":")
            got = await store.player_stats(GUILD, int(user), None if variant == "None" else variant)
            assert vars(got) == {**stats, "hints": 0}, key
        for variant, rows in expected["leaderboard"].items():
            board = await store.leaderboard(GUILD, None if variant == "None" else variant)
            assert [vars(row) for row in board] == rows, variant
        assert [c.id for c in await store.open_challenges()] == [1]

        [active] = await store.active_games()
        before = await store.load_game(active.id)
        await store.append_actions(active.id, before.next_seq, ["order"])
        assert (await store.load_game(active.id)).actions == (*before.actions, "order")
        await finish_game(store, active.id, GameStatus.FINISHED, 2, {0: 10, 1: 7, 2: 10, 3: 7})
        assert await store.active_games() == []

        seats = (await store.load_game(active.id)).seats
        new = await store.create_game(GUILD, 11, "euchre", {}, 7, 0, seats)
        assert new == 7


async def test_copy_refuses_a_database_that_holds_data(
    old_database: Path, postgres: PostgresServer
) -> None:
    """A second copy into the same database is refused, and adds nothing."""
    target = await postgres.database(migrated=False)
    await copy_database(old_database, target)
    before = await counts(target)
    with pytest.raises(CopyFailed, match="already holds"):
        await copy_database(old_database, target)
    assert await counts(target) == before


async def test_copy_checks_the_counts_before_it_commits(
    old_database: Path, postgres: PostgresServer
) -> None:
    """A table that arrives short (here a rule on PostgreSQL drops one action as it is
    inserted) stops the copy, and PostgreSQL keeps nothing."""
    target = await postgres.database()
    rule = sqlalchemy.text(
        "CREATE RULE lose_one AS ON INSERT TO game_actions "
        "WHERE NEW.seq = 0 AND NEW.game_id = 1 DO INSTEAD NOTHING"
    )
    async with await Store.open(target) as store:
        await store._write(lambda db: db.execute(rule))
    with pytest.raises(CopyFailed, match=r"game_actions: .* nothing was kept"):
        await copy_database(old_database, target)
    assert set((await counts(target)).values()) == {0}


async def test_copy_needs_a_sqlite_file_and_a_postgresql_target(
    tmp_path: Path, old_database: Path
) -> None:
    """A missing file, or a target that is not PostgreSQL, is refused."""
    with pytest.raises(CopyFailed, match="no such SQLite file"):
        await copy_database(tmp_path / "missing.db", "postgresql://nowhere/db")
    mistyped = "postgresq://tuque:secret@host/tuque"
    with pytest.raises(CopyFailed, match="goes into PostgreSQL") as refused:
        await copy_database(old_database, mistyped)
    assert "secret" not in str(refused.value)
    assert list(tmp_path.iterdir()) == [old_database], "nothing is made of a mistyped URL"


def test_the_command_prints_the_counts(
    old_database: Path, postgres: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tuque-bot copy-database SOURCE TARGET`` prints each table's count; a failure
    is one line on stderr and exit code 2."""
    target = asyncio.run(postgres.database(migrated=False))
    assert main(["copy-database", str(old_database), target]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split() for line in out if line.split()[0] == "games"] == [
        ["games", "6", "rows,", "counts", "match"]
    ]
    assert out[-1].startswith("copied ") and "DATABASE_URL" in out[-1]
    assert main(["copy-database", str(old_database), target]) == 2
    assert "already holds" in capsys.readouterr().err


def test_the_command_takes_database_url_by_default(
    old_database: Path,
    postgres: PostgresServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without a target the copy goes to DATABASE_URL (no password on the command line);
    with neither, one line says what to give."""
    monkeypatch.chdir(old_database.parent)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["copy-database", str(old_database)]) == 2
    assert "set DATABASE_URL" in capsys.readouterr().err
    monkeypatch.setenv("DATABASE_URL", asyncio.run(postgres.database(migrated=False)))
    assert main(["copy-database", str(old_database)]) == 0
    assert "counts match" in capsys.readouterr().out
