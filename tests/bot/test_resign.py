"""Resigning, end to end (docs/rulings.md R26): at a table where two or more other
members play on, a computer takes the seat; otherwise the side loses at once and the
table pings nobody. A member with several games here chooses which one."""

from __future__ import annotations

import re
import sqlite3

from e2e import Table, db_snapshot, game_posts, running_bot, table_message
from test_lobbies import click, lobby_message

from bot.client import TuqueBot
from bot.sessions import Session
from tests.discord_double import StoredMessage
from tests.discord_double.models import User


async def resign(t: Table, user: User, **options: object) -> StoredMessage:
    """``/tuque resign`` and its confirm button; returns the answer to the confirm."""
    await (await t.double.slash(user, t.channel, "tuque", "resign", **options)).settled()
    confirm = t.double.ephemerals_for(user)[-1]
    assert confirm.buttons, confirm.text
    rec = await t.double.click(user, confirm, confirm.buttons[0].custom_id)  # type: ignore[arg-type]
    await rec.settled()
    await t.double.idle()
    assert rec.original is not None
    return rec.original


async def three_members(t: Table, bot: TuqueBot) -> Session:
    """Ann invites Bob and Eve to three-hand; both accept."""
    rec = await t.double.slash(
        t.ann, t.channel, "tuque", "challenge", variant="three_hand", opponent=t.bob,
        opponent2=t.eve,
    )  # fmt: skip
    await rec.settled()
    await click(t, t.bob, "accept")
    await click(t, t.eve, "accept")
    await t.double.idle()
    found = re.search(r"Game #(\d+) is on", str(lobby_message(t).embeds))
    assert found
    session = bot.sessions.session(int(found.group(1)))
    assert session is not None
    return session


def results(t: Table, game_id: int) -> list[tuple[int, str, int]]:
    with sqlite3.connect(t.db) as db:
        return db.execute(
            "SELECT seat, outcome, rank FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()


async def test_a_member_who_resigns_among_three_leaves_the_seat_to_a_computer(
    table: Table,
) -> None:
    t = table
    async with running_bot(t) as bot:
        session = await three_members(t, bot)
        await (await t.double.slash(t.ann, t.channel, "tuque", "resign")).settled()
        assert "a computer takes your seat" in t.double.ephemerals_for(t.ann)[-1].text
        answer = await resign(t, t.ann)
        assert "a computer plays your seat now" in answer.text
        assert not session.finished and session.table.is_computer(0)
        posts = [m.text for m in game_posts(t)]
        assert any("ann resigned: a computer plays their seat" in p for p in posts)
        # Ann no longer plays: her commands and buttons say so and change nothing.
        before = db_snapshot(t)
        rec = await t.double.slash(t.ann, t.channel, "tuque", "hand")
        await rec.settled()
        assert rec.original is not None and "no game in progress" in rec.original.text
        show = next(b.custom_id for b in table_message(t).buttons if b.label == "Show my hand")
        rec = await t.double.click(t.ann, table_message(t), show)  # type: ignore[arg-type]
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert "You resigned" in rec.original.text
        assert db_snapshot(t) == before
        # The computer plays her seat; the table never pings her.
        await t.double.wait_until(lambda: session.game.turn != 0, timeout=10)
        table = t.double.message(session.discord.table_message_id)  # type: ignore[arg-type]
        assert t.ann.mention not in table.text
        # Bob resigns too: one member is left, so the game ends and Eve wins.
        answer = await resign(t, t.bob)
        assert session.finished
        assert results(t, session.id) == [(0, "loss", 3), (1, "loss", 2), (2, "win", 1)]
        table = t.double.message(session.discord.table_message_id)  # type: ignore[arg-type]
        assert "<@" not in table.text and "Game over: bob resigned" in table.text
    t.double.check()


async def test_a_game_resigned_by_one_of_two_members_pings_nobody(table: Table) -> None:
    """Two partners and two computers: Ann resigns, the game is over, and neither the
    table nor Bob's hand says it is anyone's turn."""
    t = table
    async with running_bot(t) as bot:
        await (
            await t.double.slash(t.ann, t.channel, "tuque", "table", variant="euchre", level="easy")
        ).settled()
        await click(t, t.bob, "seat", "2")
        await click(t, t.ann, "start")
        (session,) = bot.sessions.games_of(t.guild.id, t.channel.id, t.bob.id)
        table = t.double.message(session.discord.table_message_id)  # type: ignore[arg-type]
        show = next(b.custom_id for b in table.buttons if b.label == "Show my hand")
        await (await t.double.click(t.bob, table, show)).settled()  # type: ignore[arg-type]
        await (await t.double.slash(t.ann, t.channel, "tuque", "resign")).settled()
        assert "your side loses" in t.double.ephemerals_for(t.ann)[-1].text
        await resign(t, t.ann)
        assert not bot.sessions.games_of(t.guild.id, t.channel.id, t.bob.id)
        table = t.double.message(table.id)
        assert "your turn" not in table.text and "<@" not in table.text
        hand = t.double.ephemerals_for(t.bob)[-1]
        assert "Your turn" not in hand.text and "Game over: ann resigned" in hand.text
        assert not hand.buttons
    t.double.check()


async def test_a_member_with_two_games_here_chooses_which(table: Table) -> None:
    t = table
    async with running_bot(t) as bot:
        for _ in range(2):
            await (
                await t.double.slash(t.ann, t.channel, "tuque", "bot", variant="euchre")
            ).settled()
        older, newer = sorted(s.id for s in bot.sessions.games_of(t.guild.id, None, t.ann.id))
        rec = await t.double.slash(t.ann, t.channel, "tuque", "hand")
        await rec.settled()
        assert rec.original is not None and "2 games in this channel" in rec.original.text
        labels = [b.label for b in rec.original.buttons]
        assert [label.split(" ")[0] for label in labels] == [f"#{newer}", f"#{older}"]
        pick = await t.double.click(t.ann, rec.original, rec.original.buttons[1].custom_id)  # type: ignore[arg-type]
        await pick.settled()
        assert pick.original is not None and f"Game #{older}" in pick.original.text
        choices = await t.double.autocomplete(
            t.ann, t.channel, "tuque", "resign", focused="game", typed=str(older)
        )
        assert [c["value"] for c in choices] == [older]
        assert choices[0]["name"].startswith(f"#{older} · Euchre (four-hand) vs CPU 2 and CPU 4")
        assert await t.double.autocomplete(t.bob, t.channel, "tuque", "hand", focused="game") == []
        answer = await resign(t, t.ann, game=older)
        assert f"resigned game #{older}" in answer.text
        assert bot.sessions.session(older) is None and bot.sessions.session(newer) is not None
        before = db_snapshot(t)
        for user, game in ((t.ann, older), (t.bob, newer), (t.ann, 999)):
            rec = await t.double.slash(user, t.channel, "tuque", "resign", game=game)
            await rec.settled()
            assert rec.original is not None and rec.original.ephemeral
            assert f"not playing a game #{game}" in rec.original.text
        for command, game in (("resign", 2**62), ("hand", 0), ("replay", 2**63)):
            rec = await t.double.forge_slash(t.ann, t.channel, "tuque", command, game=game)
            await rec.settled()
            assert rec.original is not None and rec.original.ephemeral
            assert "not a game number" in rec.original.text
        assert db_snapshot(t) == before
    t.double.check()
