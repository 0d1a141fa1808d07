"""The store, on each backend: a real SQLite file in a temporary folder and a database on
the tests' PostgreSQL server (the ``database`` fixture). Tests about SQLite files
themselves (opening, PRAGMAs, migrating old files) use an SQLite path alone."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import shutil
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from pathlib import Path

import aiosqlite
import pytest
from finish import finish_game
from sqlalchemy import text

from bot.migrations import MIGRATIONS_DIR, DatabaseTooNew, apply_migrations, discover
from bot.ratings import DEFAULT_RATING, rate
from bot.store import (
    AlreadyHere,
    AlreadyPlaying,
    ChallengeClosed,
    ChallengeNotFound,
    ChallengePending,
    ChallengeStatus,
    GameNotActive,
    GameNotFound,
    GameStatus,
    HandRecord,
    Outcome,
    SeatKind,
    SeatRow,
    StaleAction,
    Store,
    TimerDue,
)
from bot.store import records as store_records
from bot.store.base import Connection, Shards
from bot.table import Ending, Result
from engine.cards import Suit, parse_cards
from engine.game import RECORD_FORMAT, RECORD_VERSION, Game
from engine.players.random import RandomPlayer
from engine.variants import VARIANTS
from engine.view import HandResult, Phase

GUILD = 1
CHANNEL = 10
ANN, BOB, CAT, DAN = 100, 200, 300, 400
T0 = 1_000_000.0


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the store's database file goes; its folder does not exist yet."""
    return tmp_path / "data" / "tuque.db"


@pytest.fixture
async def store(database: str | Path) -> AsyncIterator[Store]:
    """An open store on a fresh database, once on each backend."""
    async with await Store.open(database) as opened:
        yield opened


async def new_game(
    store: Store,
    *players: int | None,
    variant: str = "tuque",
    guild: int = GUILD,
    channel: int = CHANNEL,
    now: float = T0,
) -> int:
    """Create a game with one seat per player in order (None = computer); return its id."""
    seats = [
        SeatRow.computer(i, "normal") if p is None else SeatRow.human(i, p, f"user{p}")
        for i, p in enumerate(players)
    ]
    return await store.create_game(
        guild,
        channel,
        variant,
        {"points_to_win": 10},
        seed=7,
        first_dealer=0,
        seats=seats,
        now=now,
    )


def hand(
    hand_no: int,
    maker: int | None,
    tricks: dict[int, int],
    points_side: int | None = None,
    points: int = 0,
    *,
    march: bool = False,
    euchred: bool = False,
) -> HandRecord:
    """A hand record with the flags defaulting to an ordinary made hand, scoring
    ``points`` for ``points_side`` only."""
    scored = {} if points_side is None else {points_side: points}
    return HandRecord(hand_no, maker, tricks, scored, march=march, euchred=euchred)


async def play_out(
    store: Store, game_id: int, hands: Sequence[HandRecord], winner_seat: int, now: float = T0
) -> None:
    """Record one action per hand (with its stats), then finish the game for ``winner_seat``."""
    game = await store.load_game(game_id)
    seq = game.next_seq
    for record in hands:
        seq = await store.append_actions(game_id, seq, [f"hand {record.hand_no}"], hands=[record])
    scores = {s.seat: (10 if s.side == winner_seat % 2 else 4) for s in game.seats}
    await finish_game(store, game_id, GameStatus.FINISHED, winner_seat, scores, now=now)


async def sql(store: Store, statement: str, **params: object) -> list[tuple[object, ...]]:
    """Run ``statement`` on the store's database behind its back (to inspect or arrange
    rows, on either backend) and return its rows, if any."""

    async def run(db: Connection) -> list[tuple[object, ...]]:
        result = await db.execute(text(statement), params)
        return [tuple(row) for row in result] if result.returns_rows else []

    return await store._write(run)


@contextmanager
def raw(db_path: Path) -> Iterator[sqlite3.Connection]:
    """A plain second connection to inspect or arrange an SQLite file."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


# Opening and migrations


async def test_open_creates_folder_and_migrates(db_path: Path) -> None:
    """Opening a new path creates its folder and a database at the newest version."""
    async with await Store.open(db_path):
        pass
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(discover())
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopen_keeps_data_and_version(db_path: Path) -> None:
    """Reopening an existing database migrates nothing and keeps its rows."""
    async with await Store.open(db_path) as store:
        game_id = await new_game(store, ANN, BOB)
    async with await Store.open(db_path) as store:
        assert (await store.load_game(game_id)).seats[0].user_id == ANN
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(discover())


async def test_open_refuses_newer_database(db_path: Path) -> None:
    """A database from newer code raises DatabaseTooNew on open."""
    async with await Store.open(db_path):
        pass
    with raw(db_path) as conn:
        conn.execute("PRAGMA user_version = 999")
    with pytest.raises(DatabaseTooNew):
        await Store.open(db_path)


# Games


async def test_create_and_load_game(store: Store) -> None:
    """A created game loads back with its header, seats and names, active and empty."""
    game_id = await store.create_game(
        GUILD,
        CHANNEL,
        "tuque",
        {"points_to_win": 10, "stick_the_dealer": True},
        seed=2**63 - 1,
        first_dealer=1,
        seats=[SeatRow.human(0, ANN, "Ann"), SeatRow.computer(1, "hard")],
        now=T0,
    )
    game = await store.load_game(game_id)
    assert (game.guild_id, game.channel_id, game.variant) == (GUILD, CHANNEL, "tuque")
    assert game.options == {"points_to_win": 10, "stick_the_dealer": True}
    assert (game.seed, game.first_dealer) == (2**63 - 1, 1)
    assert game.status is GameStatus.ACTIVE
    assert (game.created_at, game.turn_started_at, game.reminded) == (T0, T0, False)
    assert game.seats == (SeatRow.human(0, ANN, "Ann"), SeatRow.computer(1, "hard"))
    assert game.actions == ()
    assert game.seat_of(ANN) == 0


async def test_game_ids_are_never_reused(store: Store) -> None:
    """A new game never takes the id of a deleted one (old buttons carry game ids)."""
    first = await new_game(store, ANN, BOB)
    await sql(store, "DELETE FROM games WHERE id = :id", id=first)
    assert await new_game(store, ANN, BOB) > first


@pytest.mark.parametrize(
    "seats",
    [
        [SeatRow.human(0, ANN), SeatRow.human(2, BOB)],
        [SeatRow.human(0, ANN)],
        [SeatRow.human(i, 100 + i) for i in range(7)],
        [SeatRow.human(0, ANN), SeatRow.human(1, ANN)],
        [SeatRow.human(0, ANN, side=0), SeatRow.human(1, BOB, side=2)],
    ],
    ids=["gap", "one seat", "seven seats", "same player twice", "side out of range"],
)
async def test_create_game_rejects_bad_seats(store: Store, seats: list[SeatRow]) -> None:
    """Seats must be 0..n-1 with n from 2 to 6, sides from 0 to n-1, no player twice;
    nothing is written."""
    with pytest.raises(ValueError):
        await store.create_game(GUILD, CHANNEL, "tuque", {}, 1, 0, seats)
    assert await store.active_games() == []


def test_seat_row_rejects_human_without_user() -> None:
    """A human seat needs a user id and a computer seat must not have one."""
    with pytest.raises(ValueError):
        SeatRow(0, SeatKind.HUMAN)
    with pytest.raises(ValueError):
        SeatRow(0, SeatKind.COMPUTER, user_id=ANN)


async def test_set_table_message(store: Store) -> None:
    """The table message and thread ids are stored on the game."""
    game_id = await new_game(store, ANN, BOB)
    await store.set_table_message(game_id, 5555, thread_id=6666)
    game = await store.load_game(game_id)
    assert (game.table_message_id, game.thread_id) == (5555, 6666)


async def test_set_table_message_unknown_game(store: Store) -> None:
    """Setting the table message of a missing game raises GameNotFound."""
    with pytest.raises(GameNotFound):
        await store.set_table_message(404, 1)


async def test_load_unknown_game(store: Store) -> None:
    """Loading a missing game raises GameNotFound."""
    with pytest.raises(GameNotFound):
        await store.load_game(404)


async def test_append_actions_in_order(store: Store) -> None:
    """Appended actions come back in seq order and the next seq is returned."""
    game_id = await new_game(store, ANN, BOB)
    assert await store.append_actions(game_id, 0, ["deal 9C AS", "pass"], now=T0 + 5) == 2
    assert await store.append_actions(game_id, 2, ["order"]) == 3
    game = await store.load_game(game_id)
    assert game.actions == ("deal 9C AS", "pass", "order")
    assert game.next_seq == 3


async def test_append_existing_seq_raises_and_changes_nothing(store: Store) -> None:
    """Re-using a seq raises StaleAction and writes neither actions, hands nor timestamps."""
    game_id = await new_game(store, ANN, BOB)
    await store.append_actions(game_id, 0, ["deal", "pass"], now=T0 + 1)
    before = await store.load_game(game_id)
    with pytest.raises(StaleAction) as raised:
        await store.append_actions(
            game_id, 1, ["order", "play AS"], hands=[hand(0, 0, {0: 3, 1: 2}, 0, 1)], now=T0 + 2
        )
    assert (raised.value.first_seq, raised.value.expected_seq) == (1, 2)
    assert await store.load_game(game_id) == before
    assert (await store.player_stats(GUILD, ANN)).hands_played == 0


async def test_append_with_gap_raises(store: Store) -> None:
    """Starting past the next free seq raises StaleAction."""
    game_id = await new_game(store, ANN, BOB)
    with pytest.raises(StaleAction):
        await store.append_actions(game_id, 1, ["deal"])


async def test_concurrent_appends_of_same_seq(store: Store) -> None:
    """Of two concurrent appends at the same seq exactly one lands."""
    game_id = await new_game(store, ANN, BOB)
    results = await asyncio.gather(
        store.append_actions(game_id, 0, ["play AS"]),
        store.append_actions(game_id, 0, ["play KS"]),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StaleAction) for r in results) == 1
    assert len((await store.load_game(game_id)).actions) == 1


@pytest.mark.parametrize(
    "record",
    [hand(0, 3, {0: 3}, 0, 1), hand(0, 0, {0: 3, 2: 1}, 0, 1), hand(0, 0, {0: 3, 1: 2}, 2, 1)],
    ids=["maker", "tricks", "points"],
)
async def test_append_bad_hand_rolls_back_actions(store: Store, record: HandRecord) -> None:
    """A hand naming a seat or side the game does not have raises ValueError; no action
    and no hand stays."""
    game_id = await new_game(store, ANN, BOB)
    with pytest.raises(ValueError):
        await store.append_actions(game_id, 0, ["play AS"], hands=[record])
    assert (await store.load_game(game_id)).actions == ()
    assert (await store.player_stats(GUILD, ANN)).hands_played == 0


async def test_append_to_finished_game(store: Store) -> None:
    """A game that has ended takes no more actions."""
    game_id = await new_game(store, ANN, BOB)
    await finish_game(store, game_id, GameStatus.RESIGNED, 1, {0: 3, 1: 5})
    with pytest.raises(GameNotActive):
        await store.append_actions(game_id, 0, ["pass"])


async def test_append_rejects_blank_action(store: Store) -> None:
    """Empty action lists and blank actions are refused."""
    game_id = await new_game(store, ANN, BOB)
    with pytest.raises(ValueError):
        await store.append_actions(game_id, 0, [])
    with pytest.raises(ValueError):
        await store.append_actions(game_id, 0, [" "])


def test_hand_record_rejects_contradictions() -> None:
    """A hand cannot be both march and euchre, nor score when thrown in."""
    with pytest.raises(ValueError):
        hand(0, 0, {0: 5, 1: 0}, 0, 2, march=True, euchred=True)
    with pytest.raises(ValueError):
        hand(0, None, {}, 0, 1)


def engine_hand(
    maker: int | None,
    tricks: tuple[int, ...],
    points: tuple[int, int],
    alone: int | None = None,
    *,
    march: bool = False,
    euchred: bool = False,
) -> HandResult:
    """An engine HandResult with the fields the store reads; the rest are placeholders."""
    return HandResult(
        hand_no=1,
        dealer=0,
        up_card=parse_cards("9C")[0],
        trump=None if maker is None else Suit.CLUBS,
        maker=maker,
        alone=alone,
        tricks=tricks,
        points=points,
        scores=points,
        march=march,
        euchred=euchred,
    )


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (engine_hand(0, (3, 2), (1, 0)), hand(1, 0, {0: 3, 1: 2}, 0, 1)),
        (engine_hand(1, (0, 5), (0, 2), march=True), hand(1, 1, {0: 0, 1: 5}, 1, 2, march=True)),
        (
            engine_hand(1, (3, 2), (2, 0), euchred=True),
            hand(1, 1, {0: 3, 1: 2}, 0, 2, euchred=True),
        ),
        (engine_hand(None, (0, 0), (0, 0)), hand(1, None, {})),
        (
            engine_hand(1, (0, 5, 0, 0), (0, 4), alone=1, march=True),
            HandRecord(1, 1, {0: 0, 1: 5, 2: 0}, {1: 4}, alone=True, march=True),
        ),
        (
            engine_hand(2, (1, 2, 1, 1), (0, 2), euchred=True),
            hand(1, 2, {0: 1, 1: 2, 2: 1, 3: 1}, 1, 2, euchred=True),
        ),
    ],
    ids=["made", "march", "euchred", "thrown in", "alone, partner sits out", "partners euchred"],
)
def test_hand_record_from_engine_result(result: HandResult, expected: HandRecord) -> None:
    """The engine's hand outcome converts to the stats the store keeps."""
    assert HandRecord.from_result(result) == expected


@pytest.mark.parametrize("variant", ["tuque", "euchre"])
async def test_engine_game_round_trips_through_store(store: Store, variant: str) -> None:
    """A seeded engine game stored step by step rebuilds exactly and its hands are counted."""
    game = Game(variant, seed=11)
    players = [ANN, BOB, CAT, DAN][: game.variant.players]
    game_id = await store.create_game(
        GUILD,
        CHANNEL,
        variant,
        {},
        game.seed,
        game.first_dealer,
        [SeatRow.human(seat, user) for seat, user in enumerate(players)],
    )
    rng = random.Random(3)
    seq = 0
    while game.phase is not Phase.GAME_OVER:
        finished_before = len(game.hand_results)
        if game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        seq = await store.append_actions(
            game_id,
            seq,
            [str(entry) for entry in game.log[seq:]],
            hands=[HandRecord.from_result(r) for r in game.hand_results[finished_before:]],
        )
    assert game.winner is not None
    scores = {seat: game.scores[seat % 2] for seat in range(len(players))}
    await finish_game(store, game_id, GameStatus.FINISHED, game.winner, scores)
    row = await store.load_game(game_id)
    rebuilt = Game.from_record(
        {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "variant": row.variant,
            "options": row.options,
            "seed": row.seed,
            "first_dealer": row.first_dealer,
            "actions": list(row.actions),
        }
    )
    assert rebuilt.hand_results == game.hand_results
    assert rebuilt.winner == game.winner
    stats = [await store.player_stats(GUILD, user) for user in players]
    called = [r for r in game.hand_results if r.maker is not None]
    assert sum(s.hands_called for s in stats) == len(called)
    assert sum(s.wins for s in stats) == len(players) // 2


# Active games


async def test_active_games_survive_restart(database: str | Path) -> None:
    """After reopening, active_games returns exactly the unfinished games with their logs."""
    async with await Store.open(database) as store:
        running = await new_game(store, ANN, BOB)
        await store.append_actions(running, 0, ["deal", "pass", "order"])
        other = await new_game(store, CAT, None)
        done = await new_game(store, ANN, CAT)
        await finish_game(store, done, GameStatus.ABANDONED, None)
    async with await Store.open(database) as store:
        games = await store.active_games()
    assert [g.id for g in games] == [running, other]
    assert games[0].actions == ("deal", "pass", "order")
    assert games[1].seats[1].level == "normal"


async def test_active_game_between(store: Store) -> None:
    """The active game seating both users is found, in either order, and only in its guild."""
    game_id = await new_game(store, ANN, BOB)
    await new_game(store, ANN, CAT)
    found = await store.active_game_between(GUILD, BOB, ANN)
    assert found is not None and found.id == game_id
    assert await store.active_game_between(GUILD + 1, ANN, BOB) is None
    assert await store.active_game_between(GUILD, BOB, CAT) is None


async def test_active_games_for_user(store: Store) -> None:
    """A user's active games are filtered by channel unless the channel is None."""
    here = await new_game(store, ANN, BOB)
    there = await new_game(store, ANN, None, channel=CHANNEL + 1)
    await new_game(store, BOB, CAT)
    ended = await new_game(store, ANN, CAT)
    await finish_game(store, ended, GameStatus.ABANDONED, None)
    in_channel = await store.active_games_for_user(GUILD, CHANNEL, ANN)
    anywhere = await store.active_games_for_user(GUILD, None, ANN)
    assert [g.id for g in in_channel] == [here]
    assert [g.id for g in anywhere] == [here, there]


# Turn timer


async def test_due_turn_timers(store: Store) -> None:
    """Turns past the reminder delay are due a reminder, past the forfeit delay a forfeit."""
    fresh = await new_game(store, ANN, BOB, now=T0 + 250)
    slow = await new_game(store, ANN, CAT, now=T0 + 100)
    gone = await new_game(store, BOB, CAT, now=T0)
    due = await store.due_turn_timers(T0 + 300, remind_after=150, forfeit_after=300)
    assert [(t.game_id, t.due) for t in due] == [(gone, TimerDue.FORFEIT), (slow, TimerDue.REMIND)]
    assert fresh not in {t.game_id for t in due}


async def test_reminded_turn_is_not_due_again(store: Store) -> None:
    """After mark_reminded a turn is only due again when it reaches the forfeit delay."""
    game_id = await new_game(store, ANN, BOB, now=T0)
    assert await store.mark_reminded(game_id)
    assert await store.due_turn_timers(T0 + 200, remind_after=150, forfeit_after=300) == []
    due = await store.due_turn_timers(T0 + 300, remind_after=150, forfeit_after=300)
    assert [t.due for t in due] == [TimerDue.FORFEIT]


async def test_mark_reminded_only_once(store: Store) -> None:
    """Of two racing reminders exactly one gets True."""
    game_id = await new_game(store, ANN, BOB)
    flags = await asyncio.gather(store.mark_reminded(game_id), store.mark_reminded(game_id))
    assert sorted(flags) == [False, True]


async def test_touch_turn_restarts_timer(store: Store) -> None:
    """touch_turn moves the turn start and clears the reminder."""
    game_id = await new_game(store, ANN, BOB, now=T0)
    await store.mark_reminded(game_id)
    assert await store.touch_turn(game_id, now=T0 + 400)
    game = await store.load_game(game_id)
    assert (game.turn_started_at, game.reminded) == (T0 + 400, False)
    assert await store.due_turn_timers(T0 + 450, remind_after=150, forfeit_after=300) == []


async def test_touch_turn_ignores_finished_game(store: Store) -> None:
    """A finished game's timer is not restarted."""
    game_id = await new_game(store, ANN, BOB)
    await finish_game(store, game_id, GameStatus.ABANDONED, None)
    assert not await store.touch_turn(game_id)


async def test_a_process_restores_and_times_only_the_games_of_its_shards(
    store: Store, database: str | Path
) -> None:
    """With two shards, each process's active games and due timers are those of the
    guilds on its shards ((guild_id >> 22) % 2); a game is still found by its id or its
    members from any process."""
    guilds = {0: 2 << 22, 1: 3 << 22}  # on shards 0 and 1 of two
    games = {shard: await new_game(store, ANN, BOB, guild=g) for shard, g in guilds.items()}
    for shard, game_id in games.items():
        async with await Store.open(database, shards=Shards(frozenset({shard}), 2)) as process:
            assert [g.id for g in await process.active_games()] == [game_id]
            due = await process.due_turn_timers(T0 + 300, remind_after=150, forfeit_after=300)
            assert [t.game_id for t in due] == [game_id]
            other = games[1 - shard]
            assert (await process.load_game(other)).guild_id == guilds[1 - shard]
            found = await process.active_game_between(guilds[1 - shard], ANN, BOB)
            assert found is not None and found.id == other
    assert [g.id for g in await store.active_games()] == sorted(games.values())


async def test_a_channels_active_games_are_listed_from_every_shard(
    store: Store, database: str | Path
) -> None:
    """``active_games_here``: the guild's active games started in the channel or playing
    in it (their thread), oldest first, those of every shard from any process; not
    another channel's or guild's, nor a finished one."""
    guild = 3 << 22  # on shard 1 of two
    started = await new_game(store, ANN, BOB, guild=guild)
    threaded = await new_game(store, CAT, DAN, guild=guild, channel=CHANNEL + 1)
    await store.set_table_message(threaded, 77, thread_id=CHANNEL)
    await new_game(store, ANN, CAT, guild=guild, channel=CHANNEL + 2)
    await new_game(store, BOB, CAT, guild=guild + (2 << 22), channel=CHANNEL)
    over = await new_game(store, BOB, DAN, guild=guild)
    await finish_game(store, over, GameStatus.RESIGNED, 1, {0: 0, 1: 0})
    async with await Store.open(database, shards=Shards(frozenset({0}), 2)) as process:
        here = await process.active_games_here(guild, CHANNEL)
    assert [g.id for g in here] == [started, threaded]


# Finishing games and ratings


async def test_finish_human_game_writes_results_and_ratings(store: Store) -> None:
    """A human game's end writes status, results and ratings together."""
    game_id = await new_game(store, ANN, BOB)
    changes = await finish_game(store, game_id, GameStatus.FINISHED, 1, {0: 6, 1: 10}, now=T0 + 60)
    game = await store.load_game(game_id)
    assert (game.status, game.winner_seat, game.finished_at) == (GameStatus.FINISHED, 1, T0 + 60)
    assert {c.user_id: c.delta > 0 for c in changes} == {ANN: False, BOB: True}
    assert all(c.before == DEFAULT_RATING for c in changes)
    board = await store.leaderboard(GUILD)
    assert [(r.user_id, r.wins, r.losses) for r in board] == [(BOB, 1, 0), (ANN, 0, 1)]
    bob = await store.player_stats(GUILD, BOB)
    assert (bob.games, bob.wins, bob.losses) == (1, 1, 0)


async def test_finish_is_atomic(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the rating update fails the game stays active with no results."""

    def broken(*_: object) -> None:
        raise RuntimeError("rating backend down")

    game_id = await new_game(store, ANN, BOB)
    monkeypatch.setattr(store_records, "rate", broken)
    with pytest.raises(RuntimeError):
        await finish_game(store, game_id, GameStatus.FINISHED, 0, {0: 10, 1: 2})
    assert (await store.load_game(game_id)).status is GameStatus.ACTIVE
    assert (await store.player_stats(GUILD, ANN)).games == 0
    assert await store.leaderboard_count(GUILD) == 0


async def test_finish_twice_raises(store: Store) -> None:
    """Of two finishes (e.g. last card and timer forfeit) only the first counts."""
    game_id = await new_game(store, ANN, BOB)
    await finish_game(store, game_id, GameStatus.FINISHED, 0, {0: 10, 1: 2})
    with pytest.raises(GameNotActive):
        await finish_game(store, game_id, GameStatus.FORFEITED, 1, {0: 10, 1: 2})
    assert (await store.player_stats(GUILD, ANN)).wins == 1


async def test_finish_against_computer_is_unrated(store: Store) -> None:
    """A game with a computer seat counts in the record against the computer only."""
    game_id = await new_game(store, ANN, None)
    assert await finish_game(store, game_id, GameStatus.FINISHED, 0, {0: 10, 1: 7}) == []
    stats = await store.player_stats(GUILD, ANN)
    assert (stats.games, stats.computer_wins, stats.computer_losses) == (0, 1, 0)
    assert stats.rating is None
    assert await store.leaderboard(GUILD) == []


async def test_abandoned_game_has_no_results(store: Store) -> None:
    """An abandoned game writes neither results nor ratings."""
    game_id = await new_game(store, ANN, BOB)
    assert await finish_game(store, game_id, GameStatus.ABANDONED, None) == []
    game = await store.load_game(game_id)
    assert (game.status, game.winner_seat) == (GameStatus.ABANDONED, None)
    assert (await store.player_stats(GUILD, ANN)).games == 0


def two_seat_result(
    winner: int = 0,
    scores: tuple[int, ...] = (10, 2),
    teams: tuple[tuple[int, ...], ...] = ((ANN,), (BOB,)),
) -> Result:
    """A result of a two-seat game between Ann and Bob, as the table gives it."""
    n = len(scores)
    return Result(
        ending=Ending.FINISHED,
        winner=winner,
        by=None,
        scores=scores,
        places=tuple(1 if s == winner else 2 for s in range(n)),
        won=tuple(s == winner for s in range(n)),
        rated=True,
        teams=teams,
        ranks=(1, 2)[: len(teams)],
    )


@pytest.mark.parametrize(
    ("status", "result"),
    [
        (GameStatus.ACTIVE, two_seat_result()),
        (GameStatus.FINISHED, two_seat_result(winner=2)),
        (GameStatus.FINISHED, two_seat_result(scores=(10,))),
        (GameStatus.FINISHED, two_seat_result(teams=((ANN,), (999,)))),
        (GameStatus.FINISHED, None),
        (GameStatus.ABANDONED, two_seat_result()),
    ],
    ids=[
        "not final",
        "no such side",
        "missing seat",
        "stranger rated",
        "no result",
        "abandoned with result",
    ],
)
async def test_finish_rejects_bad_arguments(
    store: Store, status: GameStatus, result: Result | None
) -> None:
    """Arguments that do not fit the game raise ValueError and leave it active."""
    game_id = await new_game(store, ANN, BOB)
    with pytest.raises(ValueError):
        await store.finish_game(game_id, status, result)
    assert (await store.load_game(game_id)).status is GameStatus.ACTIVE


async def test_partners_share_the_result(store: Store) -> None:
    """In a four-player game seats 0 and 2 win or lose together and are rated together."""
    game_id = await new_game(store, ANN, BOB, CAT, DAN, variant="euchre")
    changes = await finish_game(store, game_id, GameStatus.FINISHED, 2, {0: 10, 1: 8, 2: 10, 3: 8})
    assert {c.user_id for c in changes if c.delta > 0} == {ANN, CAT}
    board = await store.leaderboard(GUILD, "euchre")
    assert {r.user_id: r.wins for r in board} == {ANN: 1, BOB: 0, CAT: 1, DAN: 0}


async def test_resignation_is_rated(store: Store) -> None:
    """Resigning counts as a rated loss."""
    game_id = await new_game(store, ANN, BOB)
    await finish_game(store, game_id, GameStatus.RESIGNED, 1, {0: 9, 1: 2})
    ann = await store.player_stats(GUILD, ANN)
    assert (ann.losses, ann.rating is not None and ann.rating < 0) == (1, True)


async def test_ratings_accumulate(store: Store) -> None:
    """A second game starts from the rating the first one left."""
    first = await new_game(store, ANN, BOB)
    await finish_game(store, first, GameStatus.FINISHED, 0, {0: 10, 1: 2})
    second = await new_game(store, ANN, BOB)
    changes = await finish_game(store, second, GameStatus.FINISHED, 0, {0: 10, 1: 2})
    ann = next(c for c in changes if c.user_id == ANN)
    assert ann.before != DEFAULT_RATING
    assert (await store.leaderboard(GUILD))[0].wins == 2


# Writers racing from several processes (on PostgreSQL, SERIALIZABLE transactions and
# the game row locked FOR UPDATE; on SQLite, one writer at a time on the file)

RACERS = 3


@asynccontextmanager
async def processes(database: str | Path, count: int = RACERS) -> AsyncIterator[list[Store]]:
    """``count`` stores on one database, each with its own connections, as the bot's
    processes have."""
    async with AsyncExitStack() as stack:
        yield [await stack.enter_async_context(await Store.open(database)) for _ in range(count)]


async def test_appends_of_one_seq_from_several_processes_apply_once(
    store: Store, database: str | Path
) -> None:
    """The same click applied by several processes at once: one append lands, the others
    raise StaleAction, and the log holds exactly one action at that seq."""
    game_id = await new_game(store, ANN, BOB)
    await store.append_actions(game_id, 0, ["deal"])
    async with processes(database) as stores:
        results = await asyncio.gather(
            *(other.append_actions(game_id, 1, [f"play {i}"]) for i, other in enumerate(stores)),
            return_exceptions=True,
        )
    assert sum(r == 2 for r in results) == 1
    stale = [r for r in results if isinstance(r, StaleAction)]
    assert [(r.first_seq, r.expected_seq) for r in stale] == [(1, 2)] * (RACERS - 1)
    game = await store.load_game(game_id)
    assert len(game.actions) == 2 and game.actions[1] in {f"play {i}" for i in range(RACERS)}


async def test_games_for_one_pair_created_from_several_processes_are_one(
    store: Store, database: str | Path
) -> None:
    """Several processes start a game between the same two members at once: one game
    is created, every other call raises AlreadyPlaying naming it, and no seat of theirs
    stays behind."""
    # No names: no players row is written, so nothing but the rule's own check (the
    # seats read, then written) can make the creations conflict.
    seats = [SeatRow.human(0, ANN), SeatRow.human(1, BOB)]
    async with processes(database) as stores:
        results = await asyncio.gather(
            *(
                other.create_game(GUILD, CHANNEL + i, "tuque", {}, 7, 0, seats)
                for i, other in enumerate(stores)
            ),
            return_exceptions=True,
        )
    [game_id] = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if isinstance(r, AlreadyPlaying)]
    assert len(refused) == RACERS - 1
    assert {(r.game_id, r.user_ids) for r in refused} == {(game_id, (ANN, BOB))}
    assert await sql(store, "SELECT id FROM games") == [(game_id,)]
    assert await sql(store, "SELECT COUNT(*) FROM seats") == [(2,)]


async def test_finishes_from_several_processes_rate_the_game_once(
    store: Store, database: str | Path
) -> None:
    """The last card and a timer's forfeit from several processes at once: one finish
    wins, the others raise GameNotActive; one set of results and one rating update."""
    game_id = await new_game(store, ANN, BOB)
    async with processes(database) as stores:
        results = await asyncio.gather(
            *(
                finish_game(other, game_id, status, 0, {0: 10, 1: 2}, now=T0 + 1)
                for other, status in zip(
                    stores, [GameStatus.FINISHED, GameStatus.FORFEITED] * RACERS, strict=False
                )
            ),
            return_exceptions=True,
        )
    [changes] = [r for r in results if isinstance(r, list)]
    assert sum(isinstance(r, GameNotActive) for r in results) == RACERS - 1
    assert [c.before for c in changes] == [DEFAULT_RATING] * 2
    assert await sql(store, "SELECT COUNT(*) FROM results") == [(2,)]
    board = await store.leaderboard(GUILD)
    assert [(r.user_id, r.wins, r.losses) for r in board] == [(ANN, 1, 0), (BOB, 0, 1)]
    assert [r.rating for r in board] == pytest.approx([c.after.ordinal for c in changes])


# Leaderboard


async def seed_ratings(store: Store, rows: list[tuple[int, str, float, float, int, int]]) -> None:
    """Write rating rows (user, variant, mu, sigma, wins, losses) for GUILD directly."""
    for u, v, mu, sigma, w, lo in rows:
        await sql(
            store,
            """
            INSERT INTO ratings (guild_id, user_id, variant, mu, sigma, wins, losses, updated_at)
            VALUES (:guild, :user, :variant, :mu, :sigma, :wins, :losses, :now)
            """,
            guild=GUILD,
            user=u,
            variant=v,
            mu=mu,
            sigma=sigma,
            wins=w,
            losses=lo,
            now=T0,
        )


async def test_leaderboard_orders_by_rating_then_wins(store: Store) -> None:
    """Higher rating ranks first; equal ratings rank by wins, then user id."""
    await seed_ratings(
        store,
        [
            (ANN, "tuque", 30.0, 5.0, 3, 1),
            (BOB, "tuque", 35.0, 5.0, 1, 0),
            (CAT, "tuque", 30.0, 5.0, 5, 5),
            (DAN, "tuque", 30.0, 5.0, 5, 0),
        ],
    )
    board = await store.leaderboard(GUILD, "tuque")
    assert [r.user_id for r in board] == [BOB, CAT, DAN, ANN]
    assert [r.rank for r in board] == [1, 2, 3, 4]
    assert board[0].rating == pytest.approx(20.0)
    assert (board[3].games, board[3].win_rate) == (4, 0.75)


async def test_leaderboard_pages(store: Store) -> None:
    """limit and offset page through the board with ranks continuing across pages."""
    await seed_ratings(store, [(1000 + i, "tuque", 40.0 - i, 5.0, i, 0) for i in range(5)])
    page = await store.leaderboard(GUILD, limit=2, offset=2)
    assert [(r.rank, r.user_id) for r in page] == [(3, 1002), (4, 1003)]
    assert await store.leaderboard_count(GUILD) == 5
    assert await store.leaderboard(GUILD, limit=2, offset=6) == []


async def test_leaderboard_variant_filter(store: Store) -> None:
    """A variant's board has that variant's players; all variants sum records, best rating."""
    await seed_ratings(
        store,
        [
            (ANN, "tuque", 30.0, 5.0, 2, 1),
            (ANN, "euchre", 40.0, 5.0, 1, 1),
            (BOB, "euchre", 32.0, 5.0, 4, 0),
        ],
    )
    tuque = await store.leaderboard(GUILD, "tuque")
    overall = await store.leaderboard(GUILD)
    assert [r.user_id for r in tuque] == [ANN]
    assert [(r.user_id, r.wins, r.losses, r.rating) for r in overall] == [
        (ANN, 3, 2, pytest.approx(25.0)),
        (BOB, 4, 0, pytest.approx(17.0)),
    ]
    assert await store.leaderboard_count(GUILD, "tuque") == 1
    assert await store.leaderboard_count(GUILD) == 2


async def test_leaderboard_is_per_guild(store: Store) -> None:
    """Another guild's games do not appear on this guild's board."""
    game_id = await new_game(store, ANN, BOB, guild=GUILD + 1)
    await finish_game(store, game_id, GameStatus.FINISHED, 0, {0: 10, 1: 2})
    assert await store.leaderboard(GUILD) == []
    assert await store.leaderboard_count(GUILD + 1) == 2


async def test_leaderboard_shows_latest_name(store: Store) -> None:
    """The board shows the name last recorded for the player."""
    game_id = await new_game(store, ANN, BOB)
    await finish_game(store, game_id, GameStatus.FINISHED, 0, {0: 10, 1: 2})
    await store.upsert_player(GUILD, ANN, "Annie")
    assert (await store.leaderboard(GUILD))[0].display_name == "Annie"


# Player statistics


async def build_history(store: Store) -> None:
    """Ann and Bob's history: a Tuque game, Ann against the computer, a Euchre game.

    Tuque, Ann (seat 0) beats Bob: Ann marches; Bob calls and is euchred; Ann calls
    and is euchred; a thrown-in hand. Tuque, the computer beats Ann; Ann makes one
    hand. Euchre, Ann and Bob (seats 0, 2) beat Cat and Dan; Ann makes one hand.
    """
    tuque = await new_game(store, ANN, BOB)
    await play_out(
        store,
        tuque,
        [
            hand(0, 0, {0: 5, 1: 0}, 0, 2, march=True),
            hand(1, 1, {0: 3, 1: 2}, 0, 2, euchred=True),
            hand(2, 0, {0: 2, 1: 3}, 1, 2, euchred=True),
            hand(3, None, {}),
        ],
        winner_seat=0,
    )
    computer = await new_game(store, ANN, None)
    await play_out(store, computer, [hand(0, 0, {0: 4, 1: 1}, 0, 1)], winner_seat=1)
    euchre = await new_game(store, ANN, CAT, BOB, DAN, variant="euchre")
    await play_out(store, euchre, [hand(0, 0, {0: 1, 1: 1, 2: 2, 3: 1}, 0, 1)], winner_seat=0)


async def test_stats_all_variants(store: Store) -> None:
    """Ann's numbers over every variant add up from the constructed history."""
    await build_history(store)
    ann = await store.player_stats(GUILD, ANN)
    assert (ann.games, ann.wins, ann.losses) == (2, 2, 0)
    assert (ann.computer_wins, ann.computer_losses) == (0, 1)
    assert (ann.hands_played, ann.hands_called, ann.hands_made) == (5, 4, 3)
    assert (ann.hands_euchred, ann.marches) == (1, 1)
    assert ann.avg_tricks == pytest.approx(15 / 5)
    assert ann.win_rate == 1.0


async def test_stats_one_variant(store: Store) -> None:
    """Filtering by variant keeps only that variant's games and hands."""
    await build_history(store)
    ann = await store.player_stats(GUILD, ANN, "tuque")
    assert (ann.games, ann.wins, ann.computer_losses) == (1, 1, 1)
    assert (ann.hands_played, ann.hands_called, ann.hands_made) == (4, 3, 2)
    assert ann.avg_tricks == pytest.approx(14 / 4)


async def test_stats_of_a_partner(store: Store) -> None:
    """Bob's euchred call and his partnership win are counted as his."""
    await build_history(store)
    bob = await store.player_stats(GUILD, BOB)
    assert (bob.games, bob.wins, bob.losses) == (2, 1, 1)
    assert (bob.hands_called, bob.hands_made, bob.hands_euchred) == (1, 0, 1)
    assert bob.avg_tricks == pytest.approx(7 / 4)


async def test_stats_of_a_stranger(store: Store) -> None:
    """A user who never played gets zeros and no averages."""
    stats = await store.player_stats(GUILD, 999)
    assert (stats.games, stats.hands_played, stats.avg_tricks, stats.rating) == (0, 0, None, None)


async def test_hands_survive_abandoned_game(store: Store) -> None:
    """Hands recorded before a game is abandoned still count in the stats."""
    game_id = await new_game(store, ANN, BOB)
    await store.append_actions(game_id, 0, ["play"], hands=[hand(0, 0, {0: 3, 1: 2}, 0, 1)])
    await finish_game(store, game_id, GameStatus.ABANDONED, None)
    assert (await store.player_stats(GUILD, ANN)).hands_called == 1


async def test_results_record_outcome_per_seat(store: Store) -> None:
    """Each seat gets one result row with its outcome, score and computer flag."""
    game_id = await new_game(store, ANN, None)
    await finish_game(store, game_id, GameStatus.FORFEITED, 1, {0: 3, 1: 5})
    rows = await sql(
        store, "SELECT seat, user_id, outcome, score, vs_computer FROM results ORDER BY seat"
    )
    assert rows == [(0, ANN, Outcome.LOSS, 3, 1), (1, None, Outcome.WIN, 5, 1)]


# Challenges


async def new_challenge(store: Store, lifetime: float = 300, channel: int = CHANNEL) -> int:
    """Ann challenges Bob to Tuque at T0 in ``channel``; return the challenge id."""
    challenge = await store.create_challenge(
        GUILD, channel, ANN, BOB, "tuque", {"points_to_win": 5}, lifetime=lifetime, now=T0
    )
    return challenge.id


async def test_create_and_load_challenge(store: Store) -> None:
    """A challenge loads back open, with its message id once set."""
    challenge_id = await new_challenge(store)
    await store.set_challenge_message(challenge_id, 777)
    challenge = await store.load_challenge(challenge_id)
    assert challenge.status is ChallengeStatus.OPEN
    assert (challenge.challenger_id, challenge.opponent_id) == (ANN, BOB)
    assert challenge.options == {"points_to_win": 5}
    assert (challenge.message_id, challenge.created_at, challenge.expires_at) == (
        777,
        T0,
        T0 + 300,
    )


async def test_self_challenge_rejected(store: Store) -> None:
    """A player cannot challenge themselves."""
    with pytest.raises(ValueError):
        await store.create_challenge(GUILD, CHANNEL, ANN, ANN, "tuque", {}, lifetime=60)


async def test_one_open_challenge_between_two_members_in_a_channel(
    store: Store, database: str | Path
) -> None:
    """Two challenges between the same members in a channel at once, either way and from
    two processes' stores: one is made, the other raises ChallengePending naming it.
    Another channel, or the first answered, takes a new one."""
    async with await Store.open(database) as other:
        results = await asyncio.gather(
            store.create_challenge(GUILD, CHANNEL, ANN, BOB, "tuque", {}, lifetime=60, now=T0),
            other.create_challenge(GUILD, CHANNEL, BOB, ANN, "tuque", {}, lifetime=60, now=T0),
            return_exceptions=True,
        )
    (made,) = [r for r in results if not isinstance(r, BaseException)]
    (refused,) = [r for r in results if isinstance(r, ChallengePending)]
    assert refused.challenge == made
    elsewhere = await store.create_challenge(
        GUILD, CHANNEL + 1, ANN, BOB, "tuque", {}, lifetime=60, now=T0
    )
    assert elsewhere.id != made.id
    assert await store.resolve_challenge(made.id, ChallengeStatus.DECLINED, now=T0 + 1)
    await store.create_challenge(GUILD, CHANNEL, ANN, BOB, "tuque", {}, lifetime=60, now=T0 + 2)
    # An expired one, not swept yet, blocks nothing either.
    await store.create_challenge(GUILD, CHANNEL, BOB, CAT, "tuque", {}, lifetime=60, now=T0)
    await store.create_challenge(GUILD, CHANNEL, CAT, BOB, "tuque", {}, lifetime=60, now=T0 + 61)


async def test_accept_race_has_one_winner(store: Store) -> None:
    """Two concurrent accepts: exactly one returns True."""
    challenge_id = await new_challenge(store)
    results = await asyncio.gather(
        store.resolve_challenge(challenge_id, ChallengeStatus.ACCEPTED, now=T0 + 1),
        store.resolve_challenge(challenge_id, ChallengeStatus.ACCEPTED, now=T0 + 1),
    )
    assert sorted(results) == [False, True]
    assert (await store.load_challenge(challenge_id)).status is ChallengeStatus.ACCEPTED


async def test_accept_race_across_connections(store: Store, database: str | Path) -> None:
    """Accept and decline racing from two processes' stores: exactly one wins."""
    challenge_id = await new_challenge(store)
    async with await Store.open(database) as other:
        results = await asyncio.gather(
            store.resolve_challenge(challenge_id, ChallengeStatus.ACCEPTED, now=T0 + 1),
            other.resolve_challenge(challenge_id, ChallengeStatus.DECLINED, now=T0 + 1),
        )
    assert sorted(results) == [False, True]


async def test_expired_challenge_cannot_be_accepted(store: Store) -> None:
    """Past expires_at an accept fails even before the expiry sweep ran."""
    challenge_id = await new_challenge(store, lifetime=60)
    assert not await store.resolve_challenge(challenge_id, ChallengeStatus.ACCEPTED, now=T0 + 60)
    assert (await store.load_challenge(challenge_id)).status is ChallengeStatus.OPEN


def _accepting_seats() -> list[SeatRow]:
    return [SeatRow.human(0, ANN, "Ann"), SeatRow.human(1, BOB, "Bob")]


async def _accept(store: Store, challenge_id: int, now: float) -> int:
    return await store.create_game(
        GUILD,
        CHANNEL,
        "tuque",
        {"points_to_win": 5},
        7,
        0,
        _accepting_seats(),
        ["deal 1"],
        accepting=challenge_id,
        now=now,
    )


async def test_accepting_creates_the_game_and_its_deal_in_one_step(store: Store) -> None:
    """create_game(accepting=...) accepts the challenge and stores the game with its deal."""
    challenge_id = await new_challenge(store)
    game_id = await _accept(store, challenge_id, T0 + 1)
    assert (await store.load_challenge(challenge_id)).status is ChallengeStatus.ACCEPTED
    game = await store.load_game(game_id)
    assert game.actions == ("deal 1",)
    assert game.next_seq == 1


async def test_accept_race_creates_one_game(store: Store, database: str | Path) -> None:
    """Two accepts from two connections: one game; the other raises and writes nothing."""
    challenge_id = await new_challenge(store)
    async with await Store.open(database) as other:
        results = await asyncio.gather(
            _accept(store, challenge_id, T0 + 1),
            _accept(other, challenge_id, T0 + 1),
            return_exceptions=True,
        )
    assert sum(isinstance(r, ChallengeClosed) for r in results) == 1
    assert sum(isinstance(r, int) for r in results) == 1
    assert await sql(store, "SELECT COUNT(*) FROM games") == [(1,)]
    assert await sql(store, "SELECT COUNT(*) FROM game_actions") == [(1,)]


async def test_a_call_cancelled_mid_transaction_leaves_the_store_usable(store: Store) -> None:
    """A write cancelled part-way (while its BEGIN is on aiosqlite's thread, or its
    statement with PostgreSQL; a task cancelled at shutdown, a timeout) is rolled back; the
    next write works and nothing half-done stays."""
    for steps in range(6):
        task = asyncio.create_task(store.upsert_player(GUILD, ANN, "Ann", now=T0))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await store.upsert_player(GUILD, BOB, "Bob", now=T0)
    assert await sql(store, "SELECT COUNT(*) FROM players WHERE user_id = :bob", bob=BOB) == [(1,)]


async def test_two_challenges_accepted_at_once_start_one_game(
    store: Store, database: str | Path
) -> None:
    """Two open challenges between the same members (in two channels), accepted from two
    connections at once: one game; the other accept raises AlreadyPlaying and its
    challenge stays open."""
    first, second = await new_challenge(store), await new_challenge(store, channel=CHANNEL + 1)
    async with await Store.open(database) as other:
        results = await asyncio.gather(
            _accept(store, first, T0 + 1), _accept(other, second, T0 + 1), return_exceptions=True
        )
    games = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if isinstance(r, AlreadyPlaying)]
    assert len(games) == 1 and len(refused) == 1
    assert refused[0].game_id == games[0]
    assert refused[0].user_ids == (ANN, BOB)
    statuses = {(await store.load_challenge(c)).status for c in (first, second)}
    assert statuses == {ChallengeStatus.ACCEPTED, ChallengeStatus.OPEN}
    assert await sql(store, "SELECT COUNT(*) FROM games") == [(1,)]
    assert await sql(store, "SELECT COUNT(*) FROM seats") == [(2,)]


async def test_once_here_refuses_a_member_already_playing_in_the_channel(store: Store) -> None:
    """With ``once_here`` (a start from the Activity) a member seated in an active game
    of the channel, or of the game whose thread the channel is, is refused, naming the
    game; another channel, a resigned seat and a creation without it are not limited."""

    async def alone(user: int, channel: int = CHANNEL, *, once_here: bool = True) -> int:
        seats = [SeatRow.human(0, user), SeatRow.computer(1, "normal")]
        return await store.create_game(
            GUILD, channel, "tuque", {}, 7, 0, seats, once_here=once_here, now=T0
        )

    first = await alone(ANN)
    with pytest.raises(AlreadyHere) as refused:
        await alone(ANN)
    assert (refused.value.game_id, refused.value.user_id) == (first, ANN)
    pair = [SeatRow.human(0, BOB), SeatRow.human(1, ANN)]
    with pytest.raises(AlreadyHere) as refused:
        await store.create_game(GUILD, CHANNEL, "tuque", {}, 7, 0, pair, once_here=True)
    assert (refused.value.game_id, refused.value.user_id) == (first, ANN)
    other = await alone(ANN, CHANNEL + 1)
    await store.set_table_message(other, 5, thread_id=CHANNEL + 2)
    with pytest.raises(AlreadyHere) as refused:
        await alone(ANN, CHANNEL + 2)
    assert refused.value.game_id == other
    await alone(BOB)
    await store.resign_seat(first, 0)
    await alone(ANN)
    await alone(ANN, once_here=False)


async def test_one_active_game_between_two_members(store: Store) -> None:
    """A second active game for the same two members in a guild is refused; other
    guilds, other opponents, computer games and a finished game do not count."""
    game_id = await new_game(store, ANN, BOB)
    with pytest.raises(AlreadyPlaying):
        await new_game(store, BOB, ANN)
    with pytest.raises(AlreadyPlaying):
        await new_game(store, ANN, CAT, BOB, DAN, variant="euchre")
    await new_game(store, ANN, BOB, guild=GUILD + 1)
    await new_game(store, ANN, CAT)
    await new_game(store, ANN, None)
    await new_game(store, ANN, None)
    await finish_game(store, game_id, GameStatus.FINISHED, 0, {0: 10, 1: 3})
    await new_game(store, ANN, BOB)


async def test_accepting_a_closed_challenge_writes_nothing(store: Store) -> None:
    """An expired, declined or unknown challenge creates no game, seat or action."""
    expired = await new_challenge(store, lifetime=60)
    declined = await new_challenge(store, channel=CHANNEL + 1)
    await store.resolve_challenge(declined, ChallengeStatus.DECLINED, now=T0 + 1)
    for challenge_id in (expired, declined):
        with pytest.raises(ChallengeClosed):
            await _accept(store, challenge_id, T0 + 60)
    with pytest.raises(ChallengeNotFound):
        await _accept(store, 404, T0 + 1)
    assert (await store.load_challenge(expired)).status is ChallengeStatus.OPEN
    for table in ("games", "seats", "game_actions", "players"):
        assert await sql(store, f"SELECT COUNT(*) FROM {table}") == [(0,)], table


async def test_resolve_unknown_challenge(store: Store) -> None:
    """Resolving a missing challenge raises ChallengeNotFound."""
    with pytest.raises(ChallengeNotFound):
        await store.resolve_challenge(404, ChallengeStatus.DECLINED)


async def test_resolve_rejects_open_and_expired(store: Store) -> None:
    """resolve_challenge cannot reopen a challenge nor expire it."""
    challenge_id = await new_challenge(store)
    for status in (ChallengeStatus.OPEN, ChallengeStatus.EXPIRED):
        with pytest.raises(ValueError):
            await store.resolve_challenge(challenge_id, status)


async def test_expire_challenges(store: Store) -> None:
    """Only open challenges past their expiry are expired and returned."""
    short = await new_challenge(store, lifetime=60)
    long = await new_challenge(store, lifetime=600, channel=CHANNEL + 1)
    answered = await new_challenge(store, lifetime=60, channel=CHANNEL + 2)
    await store.resolve_challenge(answered, ChallengeStatus.CANCELLED, now=T0 + 1)
    expired = await store.expire_challenges(now=T0 + 60)
    assert [(c.id, c.status, c.resolved_at) for c in expired] == [
        (short, ChallengeStatus.EXPIRED, T0 + 60)
    ]
    assert [c.id for c in await store.open_challenges()] == [long]
    assert (await store.load_challenge(answered)).status is ChallengeStatus.CANCELLED


async def test_open_challenges_survive_restart(database: str | Path) -> None:
    """Open challenges are listed again after reopening the database."""
    async with await Store.open(database) as store:
        challenge_id = await new_challenge(store)
    async with await Store.open(database) as store:
        assert [c.id for c in await store.open_challenges()] == [challenge_id]


# Players


async def test_upsert_player_updates_name(store: Store) -> None:
    """Recording a player twice keeps one row with the newest name."""
    await store.upsert_player(GUILD, ANN, "Ann", now=T0)
    await store.upsert_player(GUILD, ANN, "Annie", now=T0 + 1)
    assert await sql(store, "SELECT display_name, updated_at FROM players") == [("Annie", T0 + 1)]


# Tables of two to six seats, any sides (migration 002)

FIXTURES = Path(__file__).parent / "fixtures"
#: Every table of the schema, each with its columns in a fixed order, as of 001 and 002.
COLUMNS_001 = {
    "players": "guild_id, user_id, display_name, updated_at",
    "games": "id, guild_id, channel_id, table_message_id, thread_id, variant, options, seed, "
    "first_dealer, status, winner_seat, created_at, updated_at, finished_at, turn_started_at, "
    "reminded",
    "seats": "game_id, seat, kind, user_id, level",
    "game_actions": "game_id, seq, action",
    "hands": "game_id, hand_no, maker_seat, alone, points_side, points, march, euchred, "
    "recorded_at",
    "hand_tricks": "game_id, hand_no, seat, tricks",
    "results": "game_id, seat, user_id, outcome, score, vs_computer",
    "ratings": "guild_id, user_id, variant, mu, sigma, wins, losses, updated_at",
    "challenges": "*",
}
COLUMNS_002 = {
    **COLUMNS_001,
    "seats": "game_id, seat, kind, user_id, level, side",
    "hands": "game_id, hand_no, maker_seat, alone, march, euchred, recorded_at",
    "hand_points": "game_id, hand_no, side, points",
    "results": "game_id, seat, user_id, outcome, score, vs_computer, side, rank",
}


def snapshot(path: Path, columns: dict[str, str]) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of ``columns``, in primary key order."""
    with raw(path) as db:
        return {
            table: db.execute(f"SELECT {cols} FROM {table} ORDER BY 1, 2, 3").fetchall()
            for table, cols in columns.items()
        }


def upgraded(rows: dict[str, list[tuple[object, ...]]]) -> dict[str, list[tuple[object, ...]]]:
    """What migration 002 makes of a 001 snapshot, as its header comment says: seats and
    results get side = seat % 2, results rank 1 for a win and 2 for a loss, and a hand's
    points_side/points become its one hand_points row."""
    return {
        **rows,
        "seats": [(*row, row[1] % 2) for row in rows["seats"]],
        "hands": [(*row[:4], *row[6:]) for row in rows["hands"]],
        "hand_points": [
            (g, h, side, p) for g, h, _, _, side, p, *_ in rows["hands"] if side is not None
        ],
        "results": [(*r, r[1] % 2, 1 if r[3] == "win" else 2) for r in rows["results"]],
    }


async def _database_of_001(path: Path, tmp_path: Path) -> None:
    """A database file at schema version 1 (the runner on a folder holding 001 alone),
    with rows of every kind: a finished rated Tuque game with a scoring and a thrown-in
    hand, tricks, results and ratings; an active four-seat Euchre game; an open challenge."""
    only_001 = tmp_path / "migrations-001"
    only_001.mkdir()
    first = discover(MIGRATIONS_DIR)[0]
    (only_001 / first.path.name).write_text(first.path.read_text())
    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await apply_migrations(conn, only_001)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.executescript(
            f"""
            INSERT INTO players VALUES ({GUILD}, {ANN}, 'ann', 0), ({GUILD}, {BOB}, 'bob', 0);
            INSERT INTO games (guild_id, channel_id, variant, seed, first_dealer, status,
                               winner_seat, created_at, updated_at, finished_at, turn_started_at)
            VALUES ({GUILD}, {CHANNEL}, 'tuque', 5, 0, 'finished', 1, 0, 0, 1, 0);
            INSERT INTO seats VALUES (1, 0, 'human', {ANN}, NULL), (1, 1, 'human', {BOB}, NULL);
            INSERT INTO game_actions VALUES (1, 0, 'deal'), (1, 1, 'pass');
            INSERT INTO hands VALUES (1, 1, 0, 0, 1, 2, 0, 1, 0), (1, 2, NULL, 0, NULL, 0, 0, 0, 0);
            INSERT INTO hand_tricks VALUES (1, 1, 0, 8), (1, 1, 1, 9);
            INSERT INTO results VALUES (1, 0, {ANN}, 'loss', 4, 0), (1, 1, {BOB}, 'win', 10, 0);
            INSERT INTO ratings VALUES ({GUILD}, {ANN}, 'tuque', 23.0, 8.0, 0, 1, 0),
                                       ({GUILD}, {BOB}, 'tuque', 27.0, 8.0, 1, 0, 0);
            INSERT INTO games (guild_id, channel_id, variant, seed, first_dealer,
                               created_at, updated_at, turn_started_at)
            VALUES ({GUILD}, {CHANNEL}, 'euchre', 6, 1, 0, 0, 0);
            INSERT INTO seats VALUES (2, 0, 'human', {ANN}, NULL), (2, 1, 'computer', NULL, 'easy'),
                                     (2, 2, 'computer', NULL, 'easy'),
                                     (2, 3, 'computer', NULL, 'hard');
            INSERT INTO game_actions VALUES (2, 0, 'deal');
            INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, variant,
                                    created_at, expires_at)
            VALUES ({GUILD}, {CHANNEL}, {ANN}, {BOB}, 'tuque', 0, 1e12);
            """
        )


def assert_clean(path: Path) -> None:
    """The file is at the newest version, sound, and every reference resolves."""
    with raw(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(discover())
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []


async def test_a_database_made_by_001_upgrades_in_place(db_path: Path, tmp_path: Path) -> None:
    """Migration 002 keeps every row of a 001 database, backfills sides and places,
    and the store reads the old games, stats and challenge as before."""
    await _database_of_001(db_path, tmp_path)
    before = snapshot(db_path, COLUMNS_001)
    async with await Store.open(db_path) as store:
        finished, active = await store.load_game(1), await store.load_game(2)
        assert [s.side for s in finished.seats] == [0, 1]
        assert [(s.seat, s.side, s.level) for s in active.seats] == [
            (0, 0, None),
            (1, 1, "easy"),
            (2, 0, "easy"),
            (3, 1, "hard"),
        ]
        assert [g.id for g in await store.active_games()] == [2]
        assert active.actions == ("deal",)
        bob = await store.player_stats(GUILD, BOB)
        assert (bob.games, bob.wins, bob.hands_played, bob.avg_tricks) == (1, 1, 1, 9.0)
        ann = await store.player_stats(GUILD, ANN)
        assert (ann.hands_called, ann.hands_euchred) == (1, 1)
        assert [r.user_id for r in await store.leaderboard(GUILD)] == [BOB, ANN]
        assert [c.id for c in await store.open_challenges()] == [1]
    assert_clean(db_path)
    assert snapshot(db_path, COLUMNS_002) == upgraded(before)


def test_the_001_fixture_is_a_version_1_database() -> None:
    """``fixtures/db_001.sqlite3`` is what the store of schema 1 wrote (make_db_001.py)."""
    with raw(FIXTURES / "db_001.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone() == (1,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        seats = [row[1] for row in db.execute("PRAGMA table_info(seats)")]
        assert seats == ["game_id", "seat", "kind", "user_id", "level"]
        statuses = db.execute("SELECT DISTINCT status FROM games ORDER BY 1").fetchall()
    assert statuses == [("abandoned",), ("active",), ("finished",), ("resigned",)]


async def test_the_001_fixture_upgrades_in_place_and_plays_on(db_path: Path) -> None:
    """A database the bot wrote before 002 (rated Tuque and Euchre games, one resigned,
    one against computers, one abandoned, one active, challenges) keeps every row, gives
    the stats and leaderboards its own code gave, and takes games of any size."""
    db_path.parent.mkdir(parents=True)
    shutil.copyfile(FIXTURES / "db_001.sqlite3", db_path)
    before = snapshot(db_path, COLUMNS_001)
    expected = json.loads((FIXTURES / "db_001.json").read_text())
    async with await Store.open(db_path) as store:
        for key, stats in expected["stats"].items():
            user, variant = key.split(":")
            got = await store.player_stats(GUILD, int(user), None if variant == "None" else variant)
            # The figures 001's code gave; hints (005) did not exist then: none were taken.
            assert vars(got) == {**stats, "hints": 0}, key
        for variant, rows in expected["leaderboard"].items():
            board = await store.leaderboard(GUILD, None if variant == "None" else variant)
            assert [vars(row) for row in board] == rows, variant
        assert_clean(db_path)
        assert snapshot(db_path, COLUMNS_002) == upgraded(before)
        # The active four-seat game plays on and finishes.
        [active] = await store.active_games()
        assert [s.side for s in active.seats] == [0, 1, 0, 1]
        record = hand(1, 2, {0: 1, 1: 1, 2: 2, 3: 1}, 0, 1)
        await store.append_actions(active.id, active.next_seq, ["order"], hands=[record])
        scores = {0: 10, 1: 7, 2: 10, 3: 7}
        assert await finish_game(store, active.id, GameStatus.FINISHED, 2, scores) == []
        # New tables of six and of three.
        six = await new_game(store, ANN, None, BOB, None, CAT, None, variant="six_hand")
        assert [s.side for s in (await store.load_game(six)).seats] == [0, 1, 0, 1, 0, 1]
        three = [SeatRow.human(s, u, side=s) for s, u in enumerate((DAN, 500, 600))]
        game_id = await store.create_game(GUILD, CHANNEL + 1, "three_hand", {}, 1, 0, three)
        assert (
            len(await finish_game(store, game_id, GameStatus.FINISHED, 2, {0: 1, 1: 2, 2: 5})) == 3
        )
    assert_clean(db_path)


@pytest.mark.parametrize(
    ("result", "sides", "expected"),
    [
        (
            HandResult(
                1,
                0,
                None,
                Suit.SPADES,
                5,
                5,
                (0, 0, 3, 0, 0, 2),
                (6, 0),
                (6, 0),
                euchred=True,
                lone_defender=2,
            ),
            (0, 1, 0, 1, 0, 1),
            HandRecord(1, 5, {2: 3, 5: 2}, {0: 6}, alone=True, euchred=True),
        ),
        (
            HandResult(
                2,
                1,
                None,
                Suit.HEARTS,
                3,
                None,
                (1, 0, 2, 2),
                (2, 2, 0, 0),
                (2, 2, 0, 0),
                partner=0,
            ),
            (0, 1, 2, 3),
            HandRecord(2, 3, {0: 1, 1: 0, 2: 2, 3: 2}, {0: 2, 1: 2}),
        ),
        (
            HandResult(
                3,
                0,
                None,
                Suit.CLUBS,
                None,
                None,
                (1, 0, 3, 1, 0),
                (0, -2, 2, 0, -2),
                (4, 5, 6, 7, 8),
                pool=9,
            ),
            (0, 1, 2, 3, 4),
            HandRecord(3, None, {0: 1, 1: 0, 2: 3, 3: 1, 4: 0}, {1: -2, 2: 2, 4: -2}),
        ),
        (
            HandResult(
                4,
                2,
                None,
                Suit.DIAMONDS,
                1,
                1,
                (0, 2, 2, 1, 0),
                (0, -15, 0, 0, 0),
                (0, -15, 0, 0, 0),
                euchred=True,
                bid=15,
            ),
            (0, 1, 2, 3, 4),
            HandRecord(4, 1, {0: 0, 1: 2, 2: 2, 3: 1, 4: 0}, {1: -15}, alone=True, euchred=True),
        ),
        (
            HandResult(5, 0, None, Suit.HEARTS, 0, None, (6, 11), (6, 22), (6, 22), euchred=True),
            None,
            HandRecord(5, 0, {0: 6, 1: 11}, {0: 6, 1: 22}, euchred=True),
        ),
        (
            HandResult(6, 0, None, None, None, None, (0, 0, 0), (0, 0, 0), (1, 2, 3)),
            (0, 1, 2),
            HandRecord(6, None, {}, {}),
        ),
    ],
    ids=[
        "six-hand loner and lone defender: four sit out",
        "call-ace partners share the points, nobody sits out",
        "jackpot: no maker, chips won and lost",
        "auction alone: nobody sits out, the bid is lost",
        "tuque to 61: both sides score",
        "three-hand thrown in",
    ],
)
def test_hand_record_from_any_variant(
    result: HandResult, sides: tuple[int, ...] | None, expected: HandRecord
) -> None:
    """Every side structure converts: who sat out, per-side points (negative too)."""
    assert HandRecord.from_result(result, sides) == expected


def test_hand_record_rejects_seats_and_sides_past_six() -> None:
    """Seats and sides run from 0 to 5; points are per side; zero points are dropped."""
    with pytest.raises(ValueError):
        HandRecord(0, 6, {6: 5}, {})
    with pytest.raises(ValueError):
        HandRecord(0, 0, {0: 5}, {6: 1})
    with pytest.raises(ValueError):
        HandRecord(0, 0, {0: 5}, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        HandRecord.from_result(engine_hand(0, (3, 2), (1, 0)), (0, 1, 0))
    assert HandRecord(0, 0, {0: 5}, {0: 0, 1: -1}).points == {1: -1}


async def test_a_six_seat_team_game_is_stored_and_rated_three_against_three(
    store: Store,
) -> None:
    """RULES.md §6: teams of three seated alternately; a loner's two partners sit out of
    the hand's tricks; the result ranks both teams and rates the six members as 3 vs 3."""
    members = [ANN, BOB, CAT, DAN, 500, 600]
    seats = [SeatRow.human(s, u, f"user{u}", side=s % 2) for s, u in enumerate(members)]
    game_id = await store.create_game(GUILD, CHANNEL, "six_hand", {}, 3, 0, seats, now=T0)
    result = HandResult(1, 0, None, Suit.SPADES, 1, 3, (0, 0, 0, 5, 0, 0), (0, 6), (0, 6), True)
    record = HandRecord.from_result(result, (0, 1, 0, 1, 0, 1))
    assert record.tricks == {0: 0, 2: 0, 3: 5, 4: 0}
    assert (record.points, record.alone, record.march) == ({1: 6}, True, True)
    await store.append_actions(game_id, 0, ["deal", "pass"], hands=[record])
    scores = {s: (10 if s % 2 else 4) for s in range(6)}
    changes = await finish_game(store, game_id, GameStatus.FINISHED, 1, scores, now=T0)
    assert [c.user_id for c in changes] == [BOB, DAN, 600, ANN, CAT, 500]
    after = rate([[DEFAULT_RATING] * 3, [DEFAULT_RATING] * 3], [1, 2])
    assert [c.after for c in changes] == after[0] + after[1]
    rows = await sql(
        store,
        "SELECT seat, side, rank, outcome FROM results WHERE game_id = :game ORDER BY seat",
        game=game_id,
    )
    assert await sql(store, "SELECT side, points FROM hand_points") == [(1, 6)]
    assert rows == [(s, s % 2, 2 - s % 2, "win" if s % 2 else "loss") for s in range(6)]
    dan = await store.player_stats(GUILD, DAN)
    assert (dan.wins, dan.hands_played, dan.marches, dan.avg_tricks) == (1, 1, 0, 5.0)
    assert (await store.player_stats(GUILD, BOB)).hands_played == 0
    board = await store.leaderboard(GUILD, "six_hand")
    assert [(r.wins, r.losses) for r in board] == [(1, 0)] * 3 + [(0, 1)] * 3


async def test_a_three_way_game_ranks_every_side_and_rates_a_ranking(store: Store) -> None:
    """RULES.md §5 three-hand, each for themself: places 1, 2, 3 by score (negative
    scores too); the ratings are OpenSkill's for three teams of one in that order."""
    seats = [SeatRow.human(s, u, side=s) for s, u in enumerate((ANN, BOB, CAT))]
    game_id = await store.create_game(GUILD, CHANNEL, "three_hand", {}, 4, 0, seats, now=T0)
    euchred = HandResult(
        1, 0, None, Suit.HEARTS, 2, None, (2, 1, 2), (0, 0, -2), (0, 0, -2), euchred=True
    )
    record = HandRecord.from_result(euchred, (0, 1, 2))
    assert (record.points, record.euchred) == ({2: -2}, True)
    await store.append_actions(game_id, 0, ["deal"], hands=[record])
    changes = await finish_game(store, game_id, GameStatus.FINISHED, 1, {0: 3, 1: 10, 2: -2})
    assert [c.user_id for c in changes] == [BOB, ANN, CAT]
    assert [c.after for c in changes] == [t[0] for t in rate([[DEFAULT_RATING]] * 3, [1, 2, 3])]
    assert changes[0].delta > changes[1].delta > changes[2].delta
    assert await sql(
        store,
        "SELECT seat, side, rank, outcome, score FROM results WHERE game_id = :game ORDER BY seat",
        game=game_id,
    ) == [(0, 0, 2, "loss", 3), (1, 1, 1, "win", 10), (2, 2, 3, "loss", -2)]
    assert await sql(store, "SELECT side, points FROM hand_points") == [(2, -2)]
    board = await store.leaderboard(GUILD, "three_hand")
    assert [(r.user_id, r.wins, r.losses) for r in board] == [(BOB, 1, 0), (ANN, 0, 1), (CAT, 0, 1)]
    cat = await store.player_stats(GUILD, CAT)
    assert (cat.games, cat.losses, cat.hands_called, cat.hands_euchred) == (1, 1, 1, 1)


async def test_tied_sides_share_a_place_and_the_next_is_skipped(store: Store) -> None:
    """Five each for themself: the winner 1, then by score with ties sharing (1, 2, 2, 4,
    5); the tied players' ratings move alike."""
    users = (ANN, BOB, CAT, DAN, 500)
    seats = [SeatRow.human(s, u, side=s) for s, u in enumerate(users)]
    game_id = await store.create_game(GUILD, CHANNEL, "jackpot", {"players": 5}, 4, 0, seats)
    scores = {0: -3, 1: 9, 2: 5, 3: 5, 4: -7}
    changes = await finish_game(store, game_id, GameStatus.FINISHED, 1, scores)
    ranks = await sql(store, "SELECT rank FROM results ORDER BY seat")
    assert [r for (r,) in ranks] == [4, 1, 2, 2, 5]
    after = {c.user_id: c.after for c in changes}
    expected = rate([[DEFAULT_RATING]] * 5, [4, 1, 2, 2, 5])
    assert [after[u] for u in users] == [team[0] for team in expected]
    assert after[CAT] == after[DAN]
    # Only the ends are compared: openskill 6.2's Plackett-Luce handles ties oddly (a
    # fourth place can gain as much as two tied seconds, vivekjoshy/openskill.py#155).
    assert max(after.values(), key=lambda r: r.mu) == after[BOB]
    assert min(after.values(), key=lambda r: r.mu) == after[500]
    board = await store.leaderboard(GUILD)
    assert sum(r.wins for r in board) == 1 and sum(r.losses for r in board) == 4


async def test_a_resignation_wins_for_the_side_named_even_on_fewer_points(store: Store) -> None:
    """A game conceded (resigned or forfeited) places the side named first, whatever the
    scores; the others follow by score."""
    seats = [SeatRow.human(s, u, side=s) for s, u in enumerate((ANN, BOB, CAT))]
    game_id = await store.create_game(GUILD, CHANNEL, "three_hand", {}, 4, 0, seats, now=T0)
    await finish_game(store, game_id, GameStatus.RESIGNED, 2, {0: 4, 1: 7, 2: 1}, now=T0)
    assert await sql(
        store,
        "SELECT seat, rank, outcome FROM results WHERE game_id = :game ORDER BY seat",
        game=game_id,
    ) == [(0, 3, "loss"), (1, 2, "loss"), (2, 1, "win")]
    assert (await store.player_stats(GUILD, CAT)).wins == 1


@pytest.mark.parametrize(
    "sides",
    [(0, 2), (1, 0), (0, 0), (0, 0, 1), (0, 1, 3, 1), (0, -1), (0, 1, 0, 1, 0, 1, 0)],
    ids=[
        "side past n",
        "side 0 not at seat 0",
        "one side",
        "side 1 at seat 2",
        "side gap",
        "negative",
        "seven seats",
    ],
)
async def test_create_game_rejects_bad_sides_and_writes_nothing(
    store: Store, sides: tuple[int, ...]
) -> None:
    """Sides must be the engine's (0..m-1, m >= 2, side k holding seat k) and seats at
    most six; the error leaves no game, seat or player behind."""
    seats = [SeatRow.human(s, 100 + s, f"user{s}", side=side) for s, side in enumerate(sides)]
    with pytest.raises(ValueError):
        await store.create_game(GUILD, CHANNEL, "six_hand", {}, 1, 0, seats)
    counts = [await sql(store, f"SELECT COUNT(*) FROM {t}") for t in COLUMNS_002]
    assert counts == [[(0,)]] * len(COLUMNS_002)


async def test_finish_rejects_partners_with_different_scores(store: Store) -> None:
    """A side has one score: partners given two raise ValueError and nothing is written."""
    game_id = await new_game(store, ANN, BOB, CAT, DAN, variant="euchre")
    result = dataclasses.replace(
        two_seat_result(scores=(10, 4, 9, 4), teams=((ANN, CAT), (BOB, DAN))),
        places=(1, 2, 1, 2),
        won=(True, False, True, False),
    )
    with pytest.raises(ValueError):
        await store.finish_game(game_id, GameStatus.FINISHED, result)
    assert (await store.load_game(game_id)).status is GameStatus.ACTIVE
    assert (await store.player_stats(GUILD, ANN)).games == 0


@pytest.mark.parametrize(
    ("variant", "options"),
    [(name, {}) for name in VARIANTS] + [("call_ace", {"players": 6}), ("jackpot", {"players": 5})],
    ids=[*VARIANTS, "call_ace-6", "jackpot-5"],
)
async def test_any_variant_round_trips_with_its_hands(
    store: Store, variant: str, options: dict[str, int]
) -> None:
    """A seeded game of every variant, stored hand by hand with its sides, rebuilds
    exactly; the hands' points add up to the scores, the callers' hands are counted,
    and the game finishes with the winner's side first (or is abandoned after 12 hands)."""
    game = Game(variant, seed=5, **options)
    v = game.variant
    users = [100 * (seat + 1) for seat in range(v.players)]
    seats = [SeatRow.human(seat, users[seat], side=v.sides[seat]) for seat in range(v.players)]
    game_id = await store.create_game(
        GUILD, CHANNEL, variant, options, game.seed, game.first_dealer, seats
    )
    player, seq, done = RandomPlayer(5), 0, 0
    while game.winner is None and len(game.hand_results) < 12:
        if game.turn is None:
            game.deal()
        else:
            seat = game.turn
            game.apply(seat, player.choose(game.view(seat), game.legal_actions(seat)))
        if len(game.hand_results) > done or game.winner is not None:
            new = game.hand_results[done:]
            seq = await store.append_actions(
                game_id,
                seq,
                [str(entry) for entry in game.log[seq:]],
                hands=[HandRecord.from_result(r, v.sides) for r in new],
            )
            done = len(game.hand_results)
    row = await store.load_game(game_id)
    assert Game.from_record({**game.to_record(), "actions": list(row.actions)}).hand_results == (
        game.hand_results
    )
    points = dict(await sql(store, "SELECT side, SUM(points) FROM hand_points GROUP BY side"))
    assert [points.get(side, 0) for side in range(len(game.scores))] == list(game.scores)
    stats = [await store.player_stats(GUILD, user) for user in users]
    assert sum(s.hands_called for s in stats) == sum(r.maker is not None for r in game.hand_results)
    if game.winner is None:
        await finish_game(store, game_id, GameStatus.ABANDONED, None)
        return
    scores = {seat: game.scores[v.sides[seat]] for seat in range(v.players)}
    changes = await finish_game(store, game_id, GameStatus.FINISHED, game.winner, scores)
    assert len(changes) == v.players
    winners = await sql(store, "SELECT side FROM results WHERE rank = 1")
    assert {side for (side,) in winners} == {game.winner}


async def test_a_member_who_resigned_loses_and_places_last_while_the_others_play_on(
    store: Store,
) -> None:
    """docs/rulings.md R26, three-hand: Ann resigns and a computer plays her seat; her
    computer scores best, yet Bob wins, Cat is second, and Ann is last, rated last."""
    seats = [SeatRow.human(s, u, side=s) for s, u in enumerate((ANN, BOB, CAT))]
    game_id = await store.create_game(GUILD, CHANNEL, "three_hand", {}, 4, 0, seats, now=T0)
    await store.resign_seat(game_id, 0, now=T0 + 1)
    assert [s.resigned for s in (await store.load_game(game_id)).seats] == [True, False, False]
    with pytest.raises(ValueError, match="no member still playing"):
        await store.resign_seat(game_id, 0, now=T0 + 2)
    with pytest.raises(ValueError, match="cannot win"):
        await finish_game(store, game_id, GameStatus.FINISHED, 0, {0: 10, 1: 7, 2: 3})
    changes = await finish_game(store, game_id, GameStatus.FINISHED, 1, {0: 10, 1: 7, 2: 3})
    assert [c.user_id for c in changes] == [BOB, CAT, ANN]
    assert [c.after for c in changes] == [t[0] for t in rate([[DEFAULT_RATING]] * 3, [1, 2, 3])]
    assert await sql(
        store,
        "SELECT seat, rank, outcome FROM results WHERE game_id = :game ORDER BY seat",
        game=game_id,
    ) == [(0, 3, "loss"), (1, 1, "win"), (2, 2, "loss")]


async def test_a_partner_who_plays_on_after_a_resignation_keeps_the_sides_result(
    store: Store,
) -> None:
    """docs/rulings.md R26, Euchre: Ann resigns, Cat (her partner) plays on with a
    computer and their side wins: Cat wins, Ann loses, rated as a team of her own."""
    game_id = await new_game(store, ANN, BOB, CAT, DAN, variant="euchre")
    await store.resign_seat(game_id, 0)
    changes = await finish_game(store, game_id, GameStatus.FINISHED, 0, {0: 10, 1: 8, 2: 10, 3: 8})
    assert [c.user_id for c in changes] == [CAT, BOB, DAN, ANN]
    assert changes[0].delta > 0 > changes[-1].delta
    assert await sql(
        store,
        "SELECT user_id, rank, outcome FROM results WHERE game_id = :game ORDER BY seat",
        game=game_id,
    ) == [(ANN, 3, "loss"), (BOB, 2, "loss"), (CAT, 1, "win"), (DAN, 2, "loss")]
    ann = await store.player_stats(GUILD, ANN)
    assert (ann.games, ann.wins, ann.losses) == (1, 0, 1)


async def test_only_a_member_still_playing_an_active_game_can_resign_a_seat(
    store: Store,
) -> None:
    game_id = await new_game(store, ANN, None, BOB, None, variant="euchre")
    with pytest.raises(ValueError):
        await store.resign_seat(game_id, 1)  # a computer's seat
    with pytest.raises(GameNotFound):
        await store.resign_seat(game_id + 1, 0)
    await finish_game(store, game_id, GameStatus.RESIGNED, 1, {0: 2, 1: 5, 2: 2, 3: 5})
    with pytest.raises(GameNotActive):
        await store.resign_seat(game_id, 0)
