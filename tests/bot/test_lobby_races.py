"""Lobbies, invitations, rematches and challenges under forged and racing clicks: end
to end through the bot (the store decides, in the transaction that creates the game,
who sits where), and at the store between processes, as several bot processes on one
PostgreSQL database race (the second half of this file)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import pytest
from e2e import Table, db_snapshot, game_posts, running_bot, started_game
from finish import finish_game
from sqlalchemy import func, select
from test_lobbies import _lobby_rows, click, component, lobby_message

from bot.store import (
    ChallengeClosed,
    ChallengeStatus,
    GameStatus,
    LobbyChanged,
    LobbyClosed,
    LobbyNotReady,
    LobbyRow,
    LobbyStatus,
    SeatRow,
    SeatUnavailable,
    Store,
    lobby_seating,
    schema,
)
from tests.discord_double.models import InteractionRecord, User

if TYPE_CHECKING:
    from tests.postgres import PostgresServer

RACES = 8
"""Tries of each race: the two clicks are dispatched at once and either may win."""

T = TypeVar("T")


async def jittered(click: Awaitable[T]) -> T:
    """``click`` after a pause of up to 4 ms, so that either of two racing clicks may
    reach the bot (or the database) first, and may do so while the other is between
    its reads and writes."""
    await asyncio.sleep(random.uniform(0, 0.004))
    return await click


def lobby_game(t: Table, lobby_id: int) -> tuple[str, int | None]:
    with sqlite3.connect(t.db) as db:
        row = db.execute("SELECT status, game_id FROM lobbies WHERE id = ?", (lobby_id,)).fetchone()
    return row[0], row[1]


def seated(t: Table, game_id: int) -> set[int]:
    with sqlite3.connect(t.db) as db:
        rows = db.execute(
            "SELECT user_id FROM seats WHERE game_id = ? AND user_id IS NOT NULL", (game_id,)
        ).fetchall()
    return {user_id for (user_id,) in rows}


def lobby_id_of(custom_id: str) -> int:
    return int(custom_id.split(":")[2])


def answered_ok(rec: InteractionRecord) -> bool:
    """Whether the click was answered with the lobby (a change) rather than a refusal."""
    assert rec.original is not None, "the click was not answered"
    return not rec.original.ephemeral


async def forged_refusal(t: Table, user: User, what: str, value: str | None = None) -> str:
    """A forged lobby click (a button or select value the message does not offer): an
    ephemeral explanation, and the database exactly as it was."""
    before = db_snapshot(t), _lobby_rows(t)
    message = lobby_message(t)
    custom_id = component(message, "decline" if message.buttons else "join")
    custom_id = custom_id.rsplit(":", 1)[0] + f":{what}"
    if value is None:
        rec = await t.double.forge_click(user, message, custom_id)
    else:
        rec = await t.double.forge_select(user, message, custom_id, [value])
    await rec.settled()
    assert rec.original is not None and rec.original.ephemeral, rec.original
    assert (db_snapshot(t), _lobby_rows(t)) == before
    return rec.original.text


@pytest.mark.parametrize(("what", "variant"), [("join", "two_hand"), ("leave", "three_hand")])
async def test_start_racing_a_seat_change_seats_exactly_what_the_members_were_told(
    table: Table, what: str, variant: str
) -> None:
    """Start and a member's Join (or Leave) at once, many times: a change answered with
    the table stands in the game; one that lost is told the game started, and the
    game seats the member as they were before it."""
    t = table
    won = 0
    async with running_bot(t):
        for i in range(RACES):
            member = t.double.add_user(f"{what}{i}", guild=t.guild)
            await (
                await t.double.slash(t.ann, t.channel, "tuque", "table", variant=variant)
            ).settled()
            if what == "leave":
                await click(t, member, "join")
            message = lobby_message(t)
            lobby_id = lobby_id_of(component(message, "join"))
            start, change = await asyncio.gather(
                jittered(t.double.click(t.ann, message, component(message, "start"))),
                jittered(t.double.click(member, message, component(message, what))),
            )
            await start.settled()
            await change.settled()
            await t.double.idle()
            status, game_id = lobby_game(t, lobby_id)
            assert status == "started" and game_id is not None and answered_ok(start)
            changed = answered_ok(change)
            assert (member.id in seated(t, game_id)) == (changed == (what == "join"))
            if not changed:
                assert "started already" in change.original.text  # type: ignore[union-attr]
            won += changed
            shown = t.double.message(message.id)
            assert f"Game #{game_id} is on" in str(shown.embeds)
            assert [b.label for b in shown.buttons] == ["Show my hand"]
    t.double.check()
    print(f"{what} won {won} of {RACES} races against Start")


async def test_a_join_committed_while_a_start_is_under_way_is_in_the_game(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Start read the lobby before a Join committed: the store refuses its stale
    seats, and the Start seats the lobby as it is, the joiner included."""
    t = table
    async with running_bot(t) as bot:
        await (await t.double.slash(t.ann, t.channel, "tuque", "table", variant="euchre")).settled()
        message = lobby_message(t)
        lobby_id = lobby_id_of(component(message, "join"))
        create_game = bot.store.create_game
        joined = asyncio.Event()
        attempts: list[int] = []

        async def after_the_join(*args: Any, **kwargs: Any) -> int:
            attempts.append(len(args[6]))
            await joined.wait()
            return await create_game(*args, **kwargs)

        monkeypatch.setattr(bot.store, "create_game", after_the_join)
        start = asyncio.ensure_future(t.double.click(t.ann, message, component(message, "start")))
        await t.double.wait_until(lambda: attempts)
        join = await t.double.click(t.bob, message, component(message, "join"))
        await join.settled()
        assert answered_ok(join)
        joined.set()
        await (await start).settled()
        await t.double.idle()
        status, game_id = lobby_game(t, lobby_id)
        assert status == "started" and game_id is not None
        assert seated(t, game_id) == {t.ann.id, t.bob.id}
        assert len(attempts) == 2  # the stale start, then the one the store took
    t.double.check()


async def test_a_forged_start_of_an_invitation_nobody_accepted_changes_nothing(
    table: Table,
) -> None:
    """The host sends Start from a modified client before anyone accepted: refused, and
    every other forged component of the invitation too; accepting then starts it."""
    t = table
    cat = t.double.add_user("cat", guild=t.guild)
    dan = t.double.add_user("dan", guild=t.guild)
    async with running_bot(t) as bot:
        rec = await t.double.slash(
            t.ann, t.channel, "tuque", "challenge", variant="euchre", opponent=t.bob,
            partner=cat, opponent2=dan,
        )  # fmt: skip
        await rec.settled()
        assert "Waiting for" in await forged_refusal(t, t.ann, "start")
        await click(t, cat, "accept")
        assert "Waiting for" in await forged_refusal(t, t.ann, "start")
        assert "Only the host" in await forged_refusal(t, t.bob, "start")
        assert "Only the host" in await forged_refusal(t, t.bob, "cancel")
        assert "Only the host" in await forged_refusal(t, t.eve, "computer", "hard")
        assert "when everyone accepts" in await forged_refusal(t, t.ann, "computer", "hard")
        assert "invited" in await forged_refusal(t, t.eve, "join")
        assert "invited" in await forged_refusal(t, t.eve, "seat", "3")
        assert "invited" in await forged_refusal(t, dan, "seat", "3")
        assert "Decline" in await forged_refusal(t, dan, "leave")
        assert "not for you" in await forged_refusal(t, t.eve, "accept")
        assert "not for you" in await forged_refusal(t, t.eve, "decline")
        assert "button isn't one" in await forged_refusal(t, t.ann, "explode")
        with sqlite3.connect(t.db) as db:
            assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
        await click(t, t.bob, "accept")
        await click(t, dan, "accept")
        await t.double.idle()
        status, game_id = lobby_game(t, _open_lobby_id(t))
        assert status == "started" and game_id is not None
        assert seated(t, game_id) == {t.ann.id, t.bob.id, cat.id, dan.id}
        assert bot.sessions.session(game_id) is not None
    t.double.check()


def _open_lobby_id(t: Table) -> int:
    with sqlite3.connect(t.db) as db:
        (lobby_id,) = db.execute("SELECT MAX(id) FROM lobbies").fetchone()
    return int(lobby_id)


async def test_a_forged_start_of_a_rematch_nobody_accepted_changes_nothing(
    table: Table,
) -> None:
    t = table
    async with running_bot(t) as bot:
        first, _, _ = await started_game(t, bot)
        await (await t.double.slash(t.bob, t.channel, "tuque", "resign")).settled()
        confirm = t.double.ephemerals_for(t.bob)[-1]
        await (await t.double.click(t.bob, confirm, confirm.buttons[0].custom_id)).settled()  # type: ignore[arg-type]
        await t.double.idle()
        over = next(
            m
            for m in reversed(game_posts(t))
            if any(b.custom_id == f"tuque:rematch:{first}" for b in m.buttons)
        )
        rematch = f"tuque:rematch:{first}"
        await (await t.double.click(t.ann, over, rematch)).settled()
        await t.double.idle()
        assert "Waiting for" in await forged_refusal(t, t.ann, "start")
        assert "Only the host" in await forged_refusal(t, t.bob, "start")
        assert "Only the host" in await forged_refusal(t, t.bob, "cancel")
        assert "when everyone accepts" in await forged_refusal(t, t.ann, "computer", "easy")
        assert "not for you" in await forged_refusal(t, t.eve, "accept")
        assert "not for you" in await forged_refusal(t, t.eve, "decline")
        assert "invited" in await forged_refusal(t, t.eve, "join")
        assert "invited" in await forged_refusal(t, t.eve, "seat", "1")
        assert "Decline" in await forged_refusal(t, t.bob, "leave")
        with sqlite3.connect(t.db) as db:
            assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
        await (await t.double.click(t.bob, over, rematch)).settled()
        await t.double.idle()
        status, game_id = lobby_game(t, _open_lobby_id(t))
        assert status == "started" and game_id is not None
        assert seated(t, game_id) == {t.ann.id, t.bob.id}
    t.double.check()


# Between processes: two stores on one PostgreSQL database, as two bot processes (one
# shard each) have, each with its own connections. The racing calls go to the database
# together; PostgreSQL decides, and the loser's transaction runs again on the new state.

ANN, BOB, CAT, DAN = (100, "Ann"), (200, "Bob"), (300, "Cat"), (400, "Dan")
T0 = 1_000_000.0


@pytest.fixture
async def stores(postgres: PostgresServer) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one new PostgreSQL database."""
    url = await postgres.database()
    async with await Store.open(url) as one, await Store.open(url) as two:
        yield one, two


async def count(store: Store, table: Any, *where: Any) -> int:
    """How many rows of ``table`` match ``where``, read behind the store's methods."""
    async with store._read() as db:
        query = select(func.count()).select_from(table).where(*where)
        return int((await db.execute(query)).scalar_one())


async def lobby_of(store: Store, guild: int, **kwargs: Any) -> LobbyRow:
    """A four-seat Euchre lobby hosted by Ann in ``guild``."""
    return await store.create_lobby(
        guild, 2, ANN, "euchre", {}, seats=4, level="easy", lifetime=900, now=T0, **kwargs
    )


def start(store: Store, lobby: LobbyRow) -> Awaitable[int]:
    """A Start of ``lobby`` as read: its game seated by ``lobby_seating``."""
    seats = [
        SeatRow.human(seat, user, side=seat % 2)
        if user is not None
        else SeatRow.computer(seat, level, side=seat % 2)
        for seat, (_, user, level) in sorted(lobby_seating(lobby).items())
    ]
    return store.create_game(
        lobby.guild_id, 2, "euchre", {}, 7, 0, seats, ["deal"], lobby=lobby.id, now=T0
    )


async def game_members(store: Store, game_id: int) -> set[int]:
    return {s.user_id for s in (await store.load_game(game_id)).seats} - {None}


async def test_processes_racing_for_the_last_seat_seat_one_member(
    stores: tuple[Store, Store],
) -> None:
    """Cat and Dan join through two processes for the last seat: one sits, the other is
    told the table is full, and the table holds four."""
    one, two = stores
    for guild in range(1, RACES + 1):
        lobby = await lobby_of(one, guild)
        await one.take_seat(lobby.id, BOB, now=T0)
        await one.add_computer(lobby.id, "easy", now=T0)
        results = await asyncio.gather(
            jittered(one.take_seat(lobby.id, CAT, now=T0)),
            jittered(two.take_seat(lobby.id, DAN, now=T0)),
            return_exceptions=True,
        )
        won = [r for r in results if isinstance(r, LobbyRow)]
        lost = [r for r in results if isinstance(r, SeatUnavailable)]
        assert len(won) == 1 and len(lost) == 1 and "full" in str(lost[0]), results
        final = await two.load_lobby(lobby.id)
        assert final == won[0] and final.free == []
        assert {s.user_id for s in final.taken} - {None} == {100, 200} | (
            {300} if results[0] is won[0] else {400}
        )


async def test_processes_joining_at_once_both_sit_when_there_is_room(
    stores: tuple[Store, Store],
) -> None:
    """Two joins through two processes for two empty seats: both sit, in different
    seats (the join that read the seats before the other's committed runs again)."""
    one, two = stores
    for guild in range(1, RACES + 1):
        lobby = await lobby_of(one, guild)
        await one.take_seat(lobby.id, BOB, now=T0)
        await asyncio.gather(
            jittered(one.take_seat(lobby.id, CAT, now=T0)),
            jittered(two.take_seat(lobby.id, DAN, now=T0)),
        )
        final = await one.load_lobby(lobby.id)
        assert [s.user_id for s in final.taken][:2] == [100, 200]
        assert {s.user_id for s in final.taken[2:]} == {300, 400} and final.free == []


@pytest.mark.parametrize("change", ["join", "leave", "move", "accept"])
async def test_a_start_racing_a_seat_change_in_another_process(
    stores: tuple[Store, Store], change: str
) -> None:
    """A Start built from the lobby as read, against a Join, Leave, seat change or an
    invited member's Accept through another process: the game starts only with every
    member accepted and exactly the seats the lobby has when it starts; a change that
    lost is refused and leaves no trace, one that won stands and the Start is refused."""
    one, two = stores
    outcomes: list[str] = []
    for guild in range(1, RACES + 1):
        if change == "accept":
            lobby = await lobby_of(one, guild, invited=[(1, *BOB), (2, *CAT)])
            await one.accept_seat(lobby.id, CAT[0], now=T0)
        else:
            lobby = await lobby_of(one, guild)
            await one.take_seat(lobby.id, BOB, now=T0)
        read = await one.load_lobby(lobby.id)
        match change:
            case "join":
                changing = two.take_seat(lobby.id, CAT, now=T0)
            case "leave":
                changing = two.leave_seat(lobby.id, BOB[0], now=T0)
            case "move":
                changing = two.take_seat(lobby.id, BOB, 3, now=T0)
            case _:
                changing = two.accept_seat(lobby.id, BOB[0], now=T0)
        started, changed = await asyncio.gather(
            jittered(start(one, read)), jittered(changing), return_exceptions=True
        )
        final = await two.load_lobby(lobby.id)
        games = await count(two, schema.games, schema.games.c.guild_id == guild)
        if isinstance(started, int):
            # The Start won, or came after an Accept it needed.
            assert final.status is LobbyStatus.STARTED and final.game_id == started
            assert games == 1 and final.waiting_for == []
            seated = {s.user_id for s in final.taken} - {None}
            assert await game_members(two, started) == seated
            if change == "accept":
                assert isinstance(changed, LobbyRow)
            else:
                assert isinstance(changed, LobbyClosed), changed
                assert final.taken == read.taken
            outcomes.append("start")
        else:
            # The change won: it stands, and the Start built before it is refused.
            expected = LobbyNotReady if change == "accept" else LobbyChanged
            assert isinstance(started, expected), started
            assert isinstance(changed, LobbyRow) and final == changed
            assert final.status is LobbyStatus.OPEN and games == 0
            outcomes.append(change)
    print(f"{change} against Start: {outcomes}")


async def test_two_starts_in_two_processes_make_one_game(stores: tuple[Store, Store]) -> None:
    one, two = stores
    for guild in range(1, RACES + 1):
        lobby = await lobby_of(one, guild)
        results = await asyncio.gather(
            jittered(start(one, lobby)), jittered(start(two, lobby)), return_exceptions=True
        )
        games = [r for r in results if isinstance(r, int)]
        assert len(games) == 1 and sum(isinstance(r, LobbyClosed) for r in results) == 1
        final = await one.load_lobby(lobby.id)
        assert final.status is LobbyStatus.STARTED and final.game_id == games[0]
        assert await count(one, schema.games, schema.games.c.guild_id == guild) == 1


async def test_two_rematch_presses_in_two_processes_open_one_rematch(
    stores: tuple[Store, Store],
) -> None:
    """Ann and Bob press Rematch through two processes at once: one opens the rematch,
    the other gets the same lobby to accept, and one rematch of the game is open."""
    one, two = stores
    for guild in range(1, RACES + 1):
        seats = [SeatRow.human(0, *ANN), SeatRow.human(1, *BOB)]
        game_id = await one.create_game(guild, 2, "tuque", {}, 7, 0, seats, ["deal"], now=T0)
        await finish_game(one, game_id, GameStatus.FINISHED, 0, {0: 61, 1: 40}, now=T0)
        (first, opened_first), (second, opened_second) = await asyncio.gather(
            jittered(one.open_rematch(game_id, ANN, lifetime=900, now=T0)),
            jittered(two.open_rematch(game_id, BOB, lifetime=900, now=T0)),
        )
        assert first.id == second.id and sorted([opened_first, opened_second]) == [False, True]
        lobbies = schema.lobbies
        assert await count(one, lobbies, lobbies.c.rematch_of == game_id) == 1
        assert (first if opened_first else second).host_id == (ANN[0] if opened_first else BOB[0])


async def test_a_challenge_accepted_twice_in_two_processes_makes_one_game(
    stores: tuple[Store, Store],
) -> None:
    one, two = stores
    seats = [SeatRow.human(0, *ANN), SeatRow.human(1, *BOB)]
    for guild in range(1, RACES + 1):
        challenge = await one.create_challenge(
            guild, 2, ANN[0], BOB[0], "tuque", {}, lifetime=900, now=T0
        )
        accepts = [
            store.create_game(
                guild, 2, "tuque", {}, 7, 0, seats, ["deal"], accepting=challenge.id, now=T0
            )
            for store in (one, two)
        ]
        results = await asyncio.gather(*map(jittered, accepts), return_exceptions=True)
        games = [r for r in results if isinstance(r, int)]
        assert len(games) == 1 and sum(isinstance(r, ChallengeClosed) for r in results) == 1
        assert await count(one, schema.games, schema.games.c.guild_id == guild) == 1
        answered = await two.load_challenge(challenge.id)
        assert answered.status is ChallengeStatus.ACCEPTED
