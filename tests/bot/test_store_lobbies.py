"""The store's lobbies on both backends (an SQLite file, a PostgreSQL database): seats,
races, invitations, the start in the game's transaction, expiry; and an upgrade of an
SQLite database made by 001. Races between processes: ``test_lobby_races.py``."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import Table, select

from bot.store import (
    LobbyChanged,
    LobbyClosed,
    LobbyNotFound,
    LobbyNotReady,
    LobbyRow,
    LobbySeat,
    LobbyStatus,
    SeatKind,
    SeatRow,
    SeatUnavailable,
    Store,
    lobby_seating,
    schema,
)

HOST, BOB, CAT, DAN = (100, "Ann"), (200, "Bob"), (300, "Cat"), (400, "Dan")
T0 = 1_000_000.0
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
async def store(database: str | Path) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def euchre_lobby(store: Store, **kwargs: object) -> int:
    lobby = await store.create_lobby(
        1, 2, HOST, "euchre", {"target": 5}, seats=4, level="easy", lifetime=900, now=T0, **kwargs
    )  # type: ignore[arg-type]
    return lobby.id


async def dump(store: Store, *tables: Table) -> dict[str, list[tuple[object, ...]]]:
    """Every row of ``tables`` (default: every table), read behind the store's methods."""
    async with store._read() as db:
        return {
            table.name: [
                tuple(row) for row in await db.execute(select(table).order_by(*table.primary_key))
            ]
            for table in tables or schema.metadata.sorted_tables
        }


async def test_a_lobby_opens_with_its_host_in_seat_0(store: Store) -> None:
    lobby = await store.load_lobby(await euchre_lobby(store))
    assert lobby.status is LobbyStatus.OPEN and lobby.seats == 4 and lobby.level == "easy"
    assert [(s.seat, s.user_id, s.display_name) for s in lobby.taken] == [(0, 100, "Ann")]
    assert lobby.free == [1, 2, 3] and lobby.expires_at == T0 + 900
    assert lobby.options == {"target": 5} and not lobby.invited


async def test_members_join_pick_seats_and_leave(store: Store) -> None:
    lobby_id = await euchre_lobby(store)
    lobby = await store.take_seat(lobby_id, BOB, now=T0)
    assert lobby.seat_of(200) == 1
    lobby = await store.take_seat(lobby_id, CAT, 2, now=T0)  # Ann's partner in Euchre
    assert lobby.seat_of(300) == 2
    lobby = await store.take_seat(lobby_id, BOB, 3, now=T0)  # a member moves
    assert lobby.seat_of(200) == 3 and lobby.free == [1]
    lobby = await store.leave_seat(lobby_id, 200, now=T0)
    assert lobby.free == [1, 3]


async def test_a_member_takes_a_computers_seat(store: Store) -> None:
    lobby_id = await euchre_lobby(store)
    lobby = await store.add_computer(lobby_id, "hard", now=T0)
    assert [(s.seat, s.kind, s.level) for s in lobby.taken][1] == (1, SeatKind.COMPUTER, "hard")
    lobby = await store.take_seat(lobby_id, BOB, 1, now=T0)
    assert [(s.seat, s.kind) for s in lobby.taken] == [(0, SeatKind.HUMAN), (1, SeatKind.HUMAN)]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda s, i: s.take_seat(i, HOST, now=T0), "already at this table"),
        (lambda s, i: s.take_seat(i, HOST, 0, now=T0), "in seat 1 already"),
        (lambda s, i: s.take_seat(i, CAT, 1, now=T0), "taken by Bob"),
        (lambda s, i: s.leave_seat(i, 100, now=T0), "host"),
        (lambda s, i: s.leave_seat(i, 300, now=T0), "not at this table"),
        (lambda s, i: s.accept_seat(i, 200, now=T0), "not for you"),
    ],
    ids=["join-twice", "own-seat", "members-seat", "host-leaves", "stranger-leaves", "accept"],
)
async def test_a_refused_change_says_why_and_writes_nothing(
    store: Store, change: object, reason: str
) -> None:
    lobby_id = await euchre_lobby(store)
    await store.take_seat(lobby_id, BOB, now=T0)
    before = await dump(store)
    with pytest.raises(SeatUnavailable, match=reason):
        await change(store, lobby_id)  # type: ignore[operator]
    assert await dump(store) == before


async def test_a_full_table_takes_nobody_more(store: Store) -> None:
    lobby_id = await euchre_lobby(store)
    for member in (BOB, CAT, DAN):
        await store.take_seat(lobby_id, member, now=T0)
    with pytest.raises(SeatUnavailable, match="full"):
        await store.take_seat(lobby_id, (500, "Eve"), now=T0)
    with pytest.raises(SeatUnavailable, match="full"):
        await store.add_computer(lobby_id, "easy", now=T0)


async def test_two_members_racing_for_the_last_seat_one_gets_it(store: Store) -> None:
    lobby_id = await euchre_lobby(store)
    await store.take_seat(lobby_id, BOB, now=T0)
    await store.add_computer(lobby_id, "easy", now=T0)
    results = await asyncio.gather(
        store.take_seat(lobby_id, CAT, now=T0),
        store.take_seat(lobby_id, DAN, now=T0),
        return_exceptions=True,
    )
    assert sum(isinstance(r, SeatUnavailable) for r in results) == 1
    lobby = await store.load_lobby(lobby_id)
    assert lobby.free == [] and len({s.user_id for s in lobby.taken}) == 4


async def test_the_game_starts_the_lobby_once(store: Store) -> None:
    """Two Start clicks at once: one game, the other click finds the lobby started."""
    lobby_id = await euchre_lobby(store)
    seats = [SeatRow.human(0, 100, "Ann", side=0), SeatRow.computer(1, "easy", side=1)]
    seats += [SeatRow.computer(2, "easy", side=0), SeatRow.computer(3, "easy", side=1)]

    def start() -> object:
        return store.create_game(1, 2, "euchre", {}, 7, 0, seats, ["deal"], lobby=lobby_id, now=T0)

    results = await asyncio.gather(start(), start(), return_exceptions=True)
    games = [r for r in results if isinstance(r, int)]
    assert len(games) == 1 and sum(isinstance(r, LobbyClosed) for r in results) == 1
    lobby = await store.load_lobby(lobby_id)
    assert lobby.status is LobbyStatus.STARTED and lobby.game_id == games[0]
    with pytest.raises(LobbyClosed):
        await store.take_seat(lobby_id, BOB, now=T0)


async def test_an_invitation_waits_for_every_member(store: Store) -> None:
    lobby_id = await euchre_lobby(store, invited=[(1, 200, "Bob"), (2, 300, "Cat")])
    lobby = await store.load_lobby(lobby_id)
    assert lobby.invited and lobby.waiting_for == [200, 300]
    with pytest.raises(SeatUnavailable, match="invited"):
        await store.take_seat(lobby_id, DAN, now=T0)
    lobby = await store.accept_seat(lobby_id, 300, now=T0)
    assert lobby.waiting_for == [200]
    with pytest.raises(SeatUnavailable, match="accepted already"):
        await store.accept_seat(lobby_id, 300, now=T0)
    lobby = await store.accept_seat(lobby_id, 200, now=T0)
    assert lobby.waiting_for == []


def seats_of_lobby(seating: dict[int, tuple[SeatKind, int | None, str | None]]) -> list[SeatRow]:
    """The game's seats as a Start builds them from ``lobby_seating``."""
    return [
        SeatRow.human(seat, user, side=seat % 2)
        if user is not None
        else SeatRow.computer(seat, level, side=seat % 2)
        for seat, (_, user, level) in sorted(seating.items())
    ]


async def game_rows(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """What a start writes: the game, its seats and log, the lobby and its seats."""
    s = schema
    return await dump(store, s.games, s.seats, s.game_actions, s.lobbies, s.lobby_seats)


async def test_an_invitation_starts_only_when_everyone_has_accepted(store: Store) -> None:
    """A forged Start of an invitation: refused in the game's transaction, nothing written."""
    lobby_id = await euchre_lobby(store, invited=[(1, 200, "Bob"), (2, 300, "Cat")])
    await store.accept_seat(lobby_id, 300, now=T0)
    lobby = await store.load_lobby(lobby_id)
    before = await game_rows(store)
    with pytest.raises(LobbyNotReady) as refused:
        await store.create_game(
            1, 2, "euchre", {}, 7, 0, seats_of_lobby(lobby_seating(lobby)), ["deal"],
            lobby=lobby_id, now=T0,
        )  # fmt: skip
    assert refused.value.waiting_for == (200,)
    assert await game_rows(store) == before
    lobby = await store.accept_seat(lobby_id, 200, now=T0)
    game_id = await store.create_game(
        1, 2, "euchre", {}, 7, 0, seats_of_lobby(lobby_seating(lobby)), ["deal"],
        lobby=lobby_id, now=T0,
    )  # fmt: skip
    game = await store.load_game(game_id)
    assert [s.user_id for s in game.seats] == [100, 200, 300, None]


@pytest.mark.parametrize("change", ["join", "leave", "move", "computer"])
async def test_a_start_built_from_an_old_read_of_the_lobby_is_refused(
    store: Store, change: str
) -> None:
    """A Join, Leave, seat change or computer committed after the Start read the lobby
    stands: the Start's seats no longer match and nothing is written."""
    lobby_id = await euchre_lobby(store)
    await store.take_seat(lobby_id, BOB, now=T0)
    stale = await store.load_lobby(lobby_id)
    match change:
        case "join":
            await store.take_seat(lobby_id, CAT, now=T0)
        case "leave":
            await store.leave_seat(lobby_id, 200, now=T0)
        case "move":
            await store.take_seat(lobby_id, BOB, 3, now=T0)
        case "computer":
            await store.add_computer(lobby_id, "hard", now=T0)
    before = await game_rows(store)
    with pytest.raises(LobbyChanged):
        await store.create_game(
            1, 2, "euchre", {}, 7, 0, seats_of_lobby(lobby_seating(stale)), ["deal"],
            lobby=lobby_id, now=T0,
        )  # fmt: skip
    assert await game_rows(store) == before
    fresh = await store.load_lobby(lobby_id)
    game_id = await store.create_game(
        1, 2, "euchre", {}, 7, 0, seats_of_lobby(lobby_seating(fresh)), ["deal"],
        lobby=lobby_id, now=T0,
    )  # fmt: skip
    seated = {s.user_id for s in (await store.load_game(game_id)).seats} - {None}
    assert seated == {s.user_id for s in fresh.taken} - {None}


def test_empty_seats_start_as_computers_of_the_lobbys_level() -> None:
    """``lobby_seating``: members and computers where they sit, the level elsewhere."""
    taken = (
        LobbySeat(0, SeatKind.HUMAN, 100, None, True, "Ann"),
        LobbySeat(2, SeatKind.COMPUTER, None, "hard", True, None),
    )
    lobby = LobbyRow(
        1, 1, 2, None, 100, "euchre", {}, 4, "easy", False, LobbyStatus.OPEN, None, T0,
        T0 + 900, None, taken,
    )  # fmt: skip
    assert lobby_seating(lobby) == {
        0: (SeatKind.HUMAN, 100, None),
        1: (SeatKind.COMPUTER, None, "easy"),
        2: (SeatKind.COMPUTER, None, "hard"),
        3: (SeatKind.COMPUTER, None, "easy"),
    }


async def test_closing_and_expiry(store: Store) -> None:
    first, second = await euchre_lobby(store), await euchre_lobby(store)
    closed = await store.close_lobby(first, LobbyStatus.CANCELLED, now=T0 + 1)
    assert closed.status is LobbyStatus.CANCELLED
    with pytest.raises(LobbyClosed):
        await store.close_lobby(first, LobbyStatus.CANCELLED, now=T0 + 2)
    with pytest.raises(LobbyClosed, match="expired"):
        await store.take_seat(second, BOB, now=T0 + 900)  # past expires_at, not yet swept
    assert [lobby.id for lobby in await store.expire_lobbies(T0 + 900)] == [second]
    assert await store.expire_lobbies(T0 + 901) == []
    with pytest.raises(LobbyNotFound):
        await store.load_lobby(999)


async def test_a_database_made_by_001_gains_lobbies(tmp_path: Path) -> None:
    """The SQLite file made by migration 001's code upgrades in place and takes lobbies."""
    path = tmp_path / "old.db"
    shutil.copy(FIXTURES / "db_001.sqlite3", path)
    async with await Store.open(path) as store:
        lobby_id = await euchre_lobby(store)
        assert (await store.take_seat(lobby_id, BOB, now=T0)).seat_of(200) == 1
