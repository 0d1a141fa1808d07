"""The store's play aids on each backend (SQLite and PostgreSQL): hints counted per seat
and shown in stats, members' auto-play choices, and rematch invitations (one open per
game)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from finish import finish_game
from sqlalchemy import select

from bot.store import (
    DEFAULT_AUTOPLAY,
    Autoplay,
    GameNotActive,
    GameNotFound,
    GameStatus,
    LobbyStatus,
    SeatKind,
    SeatRow,
    SeatUnavailable,
    Store,
)
from bot.store.schema import metadata

T0 = 1_000_000.0
ANN, BOB, CAT = (100, "Ann"), (200, "Bob"), (300, "Cat")


@pytest.fixture
async def store(database: str | Path) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def dump(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a fixed order, read behind the store's back."""
    async with store._read() as db:
        return {
            table.name: [tuple(row) for row in await db.execute(select(table).order_by(*table.c))]
            for table in metadata.sorted_tables
        }


async def euchre(store: Store, *, finished: bool = True) -> int:
    """A four-hand Euchre game: Ann and Cat partners, Bob and an easy computer."""
    seats = [
        SeatRow(0, SeatKind.HUMAN, ANN[0], display_name=ANN[1]),
        SeatRow(1, SeatKind.HUMAN, BOB[0], display_name=BOB[1]),
        SeatRow(2, SeatKind.HUMAN, CAT[0], display_name=CAT[1]),
        SeatRow(3, SeatKind.COMPUTER, level="easy"),
    ]
    game_id = await store.create_game(1, 2, "euchre", {"target": 5}, 7, 0, seats, ["deal"], now=T0)
    if finished:
        await finish_game(store, game_id, GameStatus.FINISHED, 0, {0: 5, 1: 2, 2: 5, 3: 2}, now=T0)
    return game_id


async def test_hints_are_counted_per_seat_and_shown_in_stats(store: Store) -> None:
    game_id = await euchre(store, finished=False)
    assert await store.record_hint(game_id, 0) == 1
    assert await store.record_hint(game_id, 0) == 2
    assert await store.record_hint(game_id, 2) == 1
    assert (await store.player_stats(1, ANN[0])).hints == 2
    assert (await store.player_stats(1, ANN[0], "euchre")).hints == 2
    assert (await store.player_stats(1, ANN[0], "tuque")).hints == 0
    assert (await store.player_stats(1, BOB[0])).hints == 0
    with pytest.raises(ValueError):
        await store.record_hint(game_id, 4)
    assert (await store.load_game(game_id)).seats[0].display_name == ANN[1]


async def test_no_hint_is_counted_once_the_game_is_over(store: Store) -> None:
    game_id = await euchre(store)
    before = await dump(store)
    with pytest.raises(GameNotActive):
        await store.record_hint(game_id, 0)
    with pytest.raises(GameNotFound):
        await store.record_hint(game_id + 1, 0)
    assert await dump(store) == before


async def test_autoplay_defaults_to_the_last_trick_and_keeps_a_choice(store: Store) -> None:
    assert DEFAULT_AUTOPLAY is Autoplay.LAST
    assert await store.autoplay_of([ANN[0], BOB[0]]) == {
        ANN[0]: Autoplay.LAST,
        BOB[0]: Autoplay.LAST,
    }
    await store.set_autoplay(ANN[0], Autoplay.FORCED)
    await store.set_autoplay(BOB[0], Autoplay.OFF)
    await store.set_autoplay(BOB[0], Autoplay.FORCED)
    assert await store.autoplay_of([ANN[0], BOB[0], CAT[0]]) == {
        ANN[0]: Autoplay.FORCED,
        BOB[0]: Autoplay.FORCED,
        CAT[0]: Autoplay.LAST,
    }
    assert await store.autoplay_of([]) == {}


async def test_a_rematch_seats_everyone_again_and_invites_the_other_members(
    store: Store,
) -> None:
    game_id = await euchre(store)
    lobby, opened = await store.open_rematch(game_id, CAT, lifetime=900, now=T0 + 10)
    assert opened and lobby.rematch_of == game_id and lobby.invited
    assert lobby.host_id == CAT[0] and lobby.variant == "euchre" and lobby.options == {"target": 5}
    assert [(s.seat, s.kind, s.user_id, s.level, s.accepted) for s in lobby.taken] == [
        (0, SeatKind.HUMAN, ANN[0], None, False),
        (1, SeatKind.HUMAN, BOB[0], None, False),
        (2, SeatKind.HUMAN, CAT[0], None, True),
        (3, SeatKind.COMPUTER, None, "easy", True),
    ]
    assert sorted(lobby.waiting_for) == [ANN[0], BOB[0]]


async def test_two_members_asking_at_once_share_one_rematch(store: Store) -> None:
    game_id = await euchre(store)
    (first, a), (second, b) = await asyncio.gather(
        store.open_rematch(game_id, ANN, lifetime=900, now=T0),
        store.open_rematch(game_id, BOB, lifetime=900, now=T0),
    )
    assert first.id == second.id and sorted([a, b]) == [False, True]


async def test_an_expired_rematch_gives_way_to_a_new_one(store: Store) -> None:
    game_id = await euchre(store)
    old, _ = await store.open_rematch(game_id, ANN, lifetime=60, now=T0)
    new, opened = await store.open_rematch(game_id, BOB, lifetime=60, now=T0 + 61)
    assert opened and new.id != old.id
    assert (await store.load_lobby(old.id)).status is LobbyStatus.EXPIRED


async def test_a_rematch_alone_against_computers_needs_no_invitation(store: Store) -> None:
    seats = [
        SeatRow(0, SeatKind.HUMAN, ANN[0], display_name="Ann"),
        SeatRow(1, SeatKind.COMPUTER, level="hard"),
    ]
    game_id = await store.create_game(1, 2, "tuque", {}, 7, 0, seats, ["deal"], now=T0)
    await finish_game(store, game_id, GameStatus.RESIGNED, 1, {0: 3, 1: 0}, now=T0)
    lobby, opened = await store.open_rematch(game_id, ANN, lifetime=900, now=T0)
    assert opened and not lobby.invited and lobby.waiting_for == []
    assert [(s.kind, s.level) for s in lobby.taken] == [
        (SeatKind.HUMAN, None),
        (SeatKind.COMPUTER, "hard"),
    ]


async def test_a_rematch_is_refused_to_strangers_and_for_games_not_over(store: Store) -> None:
    finished = await euchre(store)
    running = await euchre(store, finished=False)
    before = await dump(store)
    with pytest.raises(SeatUnavailable, match="Only the players"):
        await store.open_rematch(finished, (999, "Zed"), lifetime=900, now=T0)
    with pytest.raises(SeatUnavailable, match="not over"):
        await store.open_rematch(running, ANN, lifetime=900, now=T0)
    with pytest.raises(SeatUnavailable, match="no game"):
        await store.open_rematch(running + 10, ANN, lifetime=900, now=T0)
    assert await dump(store) == before


async def test_a_games_result_posts_are_kept_for_its_rematch_to_retire(store: Store) -> None:
    """Issue 33: the posts of a game's result, in its thread and its copy in the channel,
    are remembered (a restart reads them) until its rematch starts, and the rematch's
    game is found then."""
    seats = [
        SeatRow(0, SeatKind.HUMAN, ANN[0], display_name="Ann"),
        SeatRow(1, SeatKind.COMPUTER, level="hard"),
    ]
    game_id = await store.create_game(1, 2, "tuque", {}, 7, 0, seats, ["deal"], now=T0)
    await store.set_table_message(game_id, 50, thread_id=60)
    await finish_game(store, game_id, GameStatus.RESIGNED, 1, {0: 3, 1: 0}, now=T0)
    assert await store.game_over_messages(game_id) == []
    await store.set_game_over_message(game_id, 70, channel=False)
    await store.set_game_over_message(game_id, 80, channel=True)
    assert await store.game_over_messages(game_id) == [(60, 70), (2, 80)]
    lobby, _ = await store.open_rematch(game_id, ANN, lifetime=900, now=T0)
    assert await store.rematch_of(game_id) is None
    rematch = await store.create_game(
        1, 2, "tuque", {}, 8, 0, seats, ["deal"], lobby=lobby.id, now=T0
    )
    assert await store.rematch_of(game_id) == rematch
    with pytest.raises(GameNotFound):
        await store.set_game_over_message(rematch + 1, 90, channel=False)
    with pytest.raises(GameNotFound):
        await store.game_over_messages(rematch + 1)
