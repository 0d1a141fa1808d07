"""Lobbies, invitations and rematches under forged and racing clicks, end to end: the
store decides, in the transaction that creates the game, who sits where."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Awaitable
from typing import Any

import pytest
from discord_double.models import InteractionRecord, User
from e2e import Table, db_snapshot, game_posts, running_bot, started_game
from test_lobbies import _lobby_rows, click, component, lobby_message

RACES = 8
"""Tries of each race: the two clicks are dispatched at once and either may win."""


async def jittered(click: Awaitable[InteractionRecord]) -> InteractionRecord:
    """``click`` after a pause of up to 4 ms, so that either of two racing clicks may
    reach the bot first, and may do so while the other is between its reads and writes."""
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
