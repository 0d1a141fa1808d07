"""Group commit: SQLite's writes that arrive together share one trip to the store's
thread and one COMMIT, each in a savepoint of its own, answered after that COMMIT.

The batches are made by holding the store's lock with a read: the writes started
meanwhile queue, and make one batch when the read ends."""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from bot.store import GameNotActive, GameStatus, SeatRow, StaleAction, Store, StoreClosed
from bot.store.base import BATCH_WRITES, Connection
from bot.store.sqlite import SQLiteConnection

GUILD, CHANNEL = 1, 10
T0 = 1_000_000.0


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """An open store on a new SQLite file."""
    async with await Store.open(tmp_path / "tuque.db") as opened:
        yield opened


@pytest.fixture
def batches(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each batch the store's thread is given, in order."""
    sizes: list[int] = []
    database = store._database
    assert isinstance(database, SQLiteConnection)
    commit_together = database.commit_together

    async def counted(works: Any) -> Any:
        sizes.append(len(works))
        return await commit_together(works)

    monkeypatch.setattr(database, "commit_together", counted)
    return sizes


async def new_game(store: Store, first: int) -> int:
    """A game of two members, ``first`` and ``first + 1``; its id."""
    seats = [SeatRow.human(0, first), SeatRow.human(1, first + 1)]
    return await store.create_game(GUILD, CHANNEL, "tuque", {}, 7, 0, seats, now=T0)


async def together(store: Store, *writes: Callable[[], Coroutine[Any, Any, Any]]) -> list[Any]:
    """Start ``writes`` while a read holds the store, wait until all are queued, end the
    read so that they make one batch; what each returned or raised, in order."""
    async with store._read():
        tasks = [asyncio.create_task(write()) for write in writes]
        while len(store._queued) < len(writes):
            await asyncio.sleep(0)  # a turn of the loop for each task to queue its write
    return await asyncio.gather(*tasks, return_exceptions=True)


async def test_a_stale_click_in_a_batch_fails_alone(store: Store, batches: list[int]) -> None:
    """Two clicks at one seq and a click on another game, in one batch: the first at the
    seq and the other game's commit, the second at the seq is StaleAction, writing nothing."""
    one, two = await new_game(store, 100), await new_game(store, 200)
    batches.clear()
    outcomes = await together(
        store,
        lambda: store.append_actions(one, 0, ["first"]),
        lambda: store.append_actions(one, 0, ["second"]),
        lambda: store.append_actions(two, 0, ["other"]),
    )
    assert batches == [3]
    assert outcomes[0] == 1 and outcomes[2] == 1
    assert isinstance(outcomes[1], StaleAction) and outcomes[1].expected_seq == 1
    assert (await store.load_game(one)).actions == ("first",)
    assert (await store.load_game(two)).actions == ("other",)


async def test_a_click_after_the_end_in_its_batch_fails_alone(
    store: Store, batches: list[int]
) -> None:
    """A game's end and a click on it, in one batch, in that order: the end commits,
    the click is GameNotActive, and a click on another game commits."""
    one, two = await new_game(store, 100), await new_game(store, 200)
    batches.clear()
    outcomes = await together(
        store,
        lambda: store.finish_game(one, GameStatus.ABANDONED),
        lambda: store.append_actions(one, 0, ["late"]),
        lambda: store.append_actions(two, 0, ["other"]),
    )
    assert batches == [3]
    assert outcomes[0] == [] and outcomes[2] == 1
    assert isinstance(outcomes[1], GameNotActive)
    game = await store.load_game(one)
    assert game.status is GameStatus.ABANDONED and game.actions == ()
    assert (await store.load_game(two)).actions == ("other",)


async def test_a_broken_constraint_rolls_back_its_write_alone(
    store: Store, batches: list[int]
) -> None:
    """A write that breaks a key half-way through (IntegrityError, as from a race) has
    none of its statements kept; the writes before and after it in the batch commit."""
    game = await new_game(store, 100)
    batches.clear()

    async def half_then_duplicate(db: Connection) -> None:
        await db.execute(text("UPDATE games SET thread_id = 5 WHERE id = :id"), {"id": game})
        await db.execute(text("INSERT INTO game_actions VALUES (:id, 0, 'again')"), {"id": game})

    outcomes = await together(
        store,
        lambda: store.append_actions(game, 0, ["first"]),
        lambda: store._write(half_then_duplicate),
        lambda: store.append_actions(game, 1, ["second"]),
    )
    assert batches == [3]
    assert outcomes[0] == 1 and outcomes[2] == 2
    assert isinstance(outcomes[1], IntegrityError)
    loaded = await store.load_game(game)
    assert loaded.actions == ("first", "second") and loaded.thread_id is None


async def test_each_caller_is_answered_after_the_commit_of_its_batch(
    store: Store, tmp_path: Path, batches: list[int]
) -> None:
    """When any write of a batch returns, every write of it is already committed: a
    second connection to the file reads them all, at that moment."""
    games = [await new_game(store, 100 + 2 * i) for i in range(4)]
    batches.clear()
    seen: list[int] = []
    reader = sqlite3.connect(tmp_path / "tuque.db", isolation_level=None)

    def click(game: int) -> Callable[[], Coroutine[Any, Any, None]]:
        async def write() -> None:
            await store.append_actions(game, 0, ["pass"])
            # No await between the answer and the look: nothing can commit meanwhile.
            seen.append(reader.execute("SELECT count(*) FROM game_actions").fetchone()[0])

        return write

    try:
        outcomes = await together(store, *(click(game) for game in games))
    finally:
        reader.close()
    assert outcomes == [None] * 4
    assert batches == [4]
    assert seen == [4] * 4


async def test_a_failing_commit_fails_every_write_of_its_batch(
    store: Store, batches: list[int]
) -> None:
    """A COMMIT that SQLite refuses (a foreign key checked at the commit) raises its
    error in every caller of the batch and keeps none of it; the next write commits."""
    one, two = await new_game(store, 100), await new_game(store, 200)
    batches.clear()

    async def orphan(db: Connection) -> None:
        # Checked at the COMMIT, not at the statement: the batch's COMMIT fails.
        await db.exec_driver_sql("PRAGMA defer_foreign_keys = ON")
        await db.execute(text("INSERT INTO game_actions VALUES (999999, 0, 'orphan')"))

    outcomes = await together(
        store,
        lambda: store.append_actions(one, 0, ["first"]),
        lambda: store._write(orphan),
        lambda: store.append_actions(two, 0, ["other"]),
    )
    assert batches == [3]

    assert all(isinstance(o, IntegrityError) for o in outcomes)
    assert outcomes[0] is outcomes[1] is outcomes[2]
    assert (await store.load_game(one)).actions == ()
    assert (await store.load_game(two)).actions == ()
    assert await store.append_actions(one, 0, ["again"]) == 1


async def test_a_write_given_up_before_its_batch_is_not_made(store: Store) -> None:
    """A caller cancelled while its write waits for the next batch leaves it unmade;
    the others of the batch commit."""
    game = await new_game(store, 100)
    async with store._read():
        gone = asyncio.create_task(store.append_actions(game, 0, ["gone"]))
        kept = asyncio.create_task(store.append_actions(game, 0, ["kept"]))
        while len(store._queued) < 2:
            await asyncio.sleep(0)
        gone.cancel()
    assert await kept == 1
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert (await store.load_game(game)).actions == ("kept",)


async def test_writes_queued_before_a_close_are_made(tmp_path: Path) -> None:
    """Closing waits for the writes already queued, which commit; later ones are refused."""
    path = tmp_path / "tuque.db"
    store = await Store.open(path)
    game = await new_game(store, 100)
    async with store._read():
        write = asyncio.create_task(store.append_actions(game, 0, ["last"]))
        while not store._queued:
            await asyncio.sleep(0)
        closing = asyncio.create_task(store.close())
        await asyncio.sleep(0)  # the close has begun: it waits for the queued write
        with pytest.raises(StoreClosed):
            await store.append_actions(game, 1, ["refused"])
    await closing
    assert await write == 1
    async with await Store.open(path) as reopened:
        assert (await reopened.load_game(game)).actions == ("last",)


async def test_a_write_that_ends_the_transaction_takes_the_earlier_ones_with_it(
    store: Store, batches: list[int]
) -> None:
    """A write after whose failure SQLite had rolled the whole transaction back (as a
    full disk or an I/O error does): the writes before it in the batch fail with its
    error, as nothing of them is kept; the writes after it commit in a new transaction."""
    one, two = await new_game(store, 100), await new_game(store, 200)
    batches.clear()
    failure = OSError("disk I/O error")

    async def ends_it(db: Connection) -> None:
        await db.exec_driver_sql("ROLLBACK")
        raise failure

    outcomes = await together(
        store,
        lambda: store.append_actions(one, 0, ["lost"]),
        lambda: store._write(ends_it),
        lambda: store.append_actions(two, 0, ["kept"]),
    )
    assert batches == [3]
    assert outcomes == [failure, failure, 1]
    assert (await store.load_game(one)).actions == ()
    assert (await store.load_game(two)).actions == ("kept",)


async def test_a_crowd_is_cut_into_batches_of_batch_writes(
    store: Store, batches: list[int]
) -> None:
    """More writes than BATCH_WRITES waiting at once make several batches, in order,
    so that the first is not kept waiting for the whole crowd; all commit."""
    games = [await new_game(store, 100 + 2 * i) for i in range(BATCH_WRITES + 3)]
    batches.clear()
    outcomes = await together(
        store, *(functools.partial(store.append_actions, game, 0, ["pass"]) for game in games)
    )
    assert outcomes == [1] * len(games)
    assert batches == [BATCH_WRITES, 3]


async def test_a_cancelled_committer_leaves_no_caller_waiting(store: Store) -> None:
    """When the task that runs the batches is cancelled (the event loop ending), the
    callers of its batch and of the queue are cancelled too, not left waiting; the next
    write starts another, and commits."""
    game = await new_game(store, 100)
    async with store._read():
        writes = [asyncio.create_task(store.append_actions(game, 0, [action])) for action in "ab"]
        while len(store._queued) < len(writes):
            await asyncio.sleep(0)
        while store._queued:
            await asyncio.sleep(0)  # the batch is taken: it waits for the read to end
        writes.append(asyncio.create_task(store.append_actions(game, 0, ["c"])))
        while not store._queued:
            await asyncio.sleep(0)
        assert store._committer is not None
        store._committer.cancel()
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert all(isinstance(o, asyncio.CancelledError) for o in outcomes)
    assert await store.append_actions(game, 0, ["d"]) == 1
    assert (await store.load_game(game)).actions == ("d",)
