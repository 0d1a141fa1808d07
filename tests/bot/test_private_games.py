"""Games outside a server, against the Discord double: a challenge in a group DM and a
game with the computer in the bot's DM, played to their end by clicking, where the bot
is no member of the channel and every message is an answer to an interaction (a channel
post would be refused by the double); a stranger's click refused; the table posted anew
under the next click once every token of the game grew old."""

from __future__ import annotations

import logging
import random
import sqlite3

import pytest

from bot.client import TuqueBot
from bot.sessions.state import NO_GUILD
from tests.bot.e2e import (
    Table,
    action_buttons,
    assert_nothing_hidden_shown,
    assert_refused,
    dealt_from,
    newest_hand,
    running_bot,
)
from tests.discord_double import StoredMessage
from tests.discord_double.models import Channel, User

PRIVATE = {"dev_guild_id": None}
"""A bot whose commands are synced globally: a DM or group DM shows only those."""


def tables(t: Table, channel: Channel) -> list[StoredMessage]:
    """The table messages of ``channel`` (a DM or group DM), oldest first."""
    return [m for m in t.double.channel_messages(channel) if " · game #" in m.text]


async def play_private_turn(
    t: Table, bot: TuqueBot, channel: Channel, game_id: int, rng: random.Random
) -> bool:
    """The member on turn clicks one of the actions they see (their hand, else the
    newest table's Show my hand first); False once the game is over."""
    session = bot.sessions.session(game_id)
    if session is None:
        return False
    seat = session.game.turn
    assert seat is not None
    seq = len(session.game.log)
    if session.table.is_computer(seat) or session.table.forced(seat) is not None:
        await t.double.wait_until(lambda: session.finished or len(session.game.log) > seq, 20)
        await t.double.idle()
        return True
    members: dict[int, User] = {t.ann.id: t.ann, t.bob.id: t.bob}
    member = session.table.seats[seat].member
    assert member is not None
    user = members[member]
    message = newest_hand(t, user)
    buttons = [b for b in action_buttons(message) if f":{seq}:" in b] if message else []
    if not buttons:
        table = tables(t, channel)[-1]
        shown = await t.double.click(user, table, f"tuque:hand:{game_id}")
        await shown.settled()
        message = newest_hand(t, user)
        assert message is not None
        buttons = action_buttons(message)
    await (await t.double.click(user, message, rng.choice(buttons))).settled()
    return True


def stored_outside_a_server(t: Table, game_id: int) -> None:
    """The game is stored under no server, over, with results and no rating."""
    with sqlite3.connect(t.db) as db:
        guild, status = db.execute(
            "SELECT guild_id, status FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        assert (guild, status) == (NO_GUILD, "finished")
        vs = db.execute("SELECT vs_computer FROM results WHERE game_id = ?", (game_id,))
        assert {v for (v,) in vs} == {1}  # unrated
        assert db.execute("SELECT COUNT(*) FROM ratings").fetchone() == (0,)


def game_over(t: Table, channel: Channel, game_id: int) -> StoredMessage:
    """The game-over follow-up of ``game_id`` in ``channel``, with its Rematch."""
    (over,) = [
        m
        for m in t.double.channel_messages(channel)
        if any(b.custom_id == f"tuque:rematch:{game_id}" for b in m.buttons)
    ]
    assert not over.ephemeral
    return over


def no_channel_call(t: Table, channel: Channel) -> None:
    """The bot never called a channel route on ``channel`` (the double refuses them)."""
    assert not [r for r in t.double.requests if f"/channels/{channel.id}" in r.path]


async def test_a_challenge_in_a_group_dm_is_played_to_its_end(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann challenges Bob in their group DM; the challenge, the table and the hands are
    answers to their interactions; they play to the end; nothing public shows a hidden
    card; the game is unrated."""
    t = table
    # A dealt game with a discard to keep hidden (a random deal to 5 had none one run
    # in six, and the check of hidden cards then had nothing to check).
    dealt_from(monkeypatch, 1)
    rng = random.Random(7)
    caplog.set_level(logging.DEBUG, logger="bot")
    group = t.double.add_private_channel(t.guild, t.ann, t.bob, t.eve)
    async with running_bot(t, **PRIVATE) as bot:
        rec = await t.double.private_slash(
            t.ann, group, "tuque", "challenge", opponent=t.bob, target=5
        )
        await rec.settled()
        assert rec.context == 2 and rec.original is not None and rec.original.ephemeral
        (invite,) = rec.followups
        assert not invite.ephemeral and t.bob.mention in invite.text
        accept = next(b.custom_id for b in invite.buttons if b.label == "Accept")
        assert accept is not None
        clicked = await t.double.click(t.bob, invite, accept)
        await clicked.settled()
        session = next(iter(bot.sessions.running()))
        game_id = session.id
        assert session.private and session.channel_id == group.id
        # The table is drawn in a worker, after the answers.
        await t.double.wait_until(lambda: tables(t, group), 10)
        (first,) = tables(t, group)
        # A follow-up of Bob's Accept or of Ann's command, whose answers were the last.
        assert first.interaction in (clicked, rec)
        for user in (t.ann, t.bob):
            assert any(f"Game #{game_id} is on" in m.text for m in t.double.ephemerals_for(user))
        while await play_private_turn(t, bot, group, game_id, rng):
            pass
        await t.double.idle()
        final = tables(t, group)[-1]
        assert not final.buttons  # a finished table keeps no Show my hand
        assert any("won" in m.text.lower() for m in t.double.channel_messages(group))
        assert_nothing_hidden_shown(
            t,
            game_id,
            caplog.records,
            {0: t.ann, 1: t.bob},
            public=t.double.channel_messages(group),
        )
        # Rematch: Ann challenges Bob again; her second click and Bob's are told of it,
        # Eve's is refused.
        over = game_over(t, group, game_id)
        rematch = await t.double.click(t.ann, over, f"tuque:rematch:{game_id}")
        await rematch.settled()
        (again,) = rematch.followups
        assert t.bob.mention in again.text and "challenges you" in again.text
        for user, words in (
            (t.ann, "Your challenge to"),
            (t.bob, "has challenged you here"),
            (t.eve, "Only the players of this game"),
        ):
            refused = await t.double.click(user, over, f"tuque:rematch:{game_id}")
            await refused.settled()
            assert refused.original is not None and refused.original.ephemeral
            assert words in refused.original.text and not refused.followups
        accept = next(b.custom_id for b in again.buttons if b.label == "Accept")
        assert accept is not None
        await (await t.double.click(t.bob, again, accept)).settled()
        (rematched,) = bot.sessions.running()
        assert rematched.id != game_id and rematched.private
        assert rematched.table.game.variant.name == session.table.game.variant.name
    no_channel_call(t, group)
    stored_outside_a_server(t, game_id)
    t.double.check()


async def test_a_game_with_the_computer_in_the_bots_dm_is_played_to_its_end(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """/tuque bot in the bot's DM: the hand is the answer, the table a follow-up, and
    the game plays to its end through the member's clicks alone."""
    t = table
    rng = random.Random(3)
    caplog.set_level(logging.DEBUG, logger="bot")
    dm = t.double.add_private_channel(t.guild, t.ann, group=False)
    async with running_bot(t, **PRIVATE) as bot:
        rec = await t.double.private_slash(t.ann, dm, "tuque", "bot", target=5)
        await rec.settled()
        assert rec.context == 1
        assert rec.original is not None and rec.original.ephemeral
        (game_id,) = [s.id for s in bot.sessions.running()]
        await t.double.wait_until(lambda: tables(t, dm), 10)
        assert [m.interaction for m in tables(t, dm)] == [rec]
        while await play_private_turn(t, bot, dm, game_id, rng):
            pass
        await t.double.idle()
        assert_nothing_hidden_shown(
            t,
            game_id,
            caplog.records,
            {0: t.ann},
            public=t.double.channel_messages(dm),
            # A short game may see no discard of a hidden card: the group DM's test has them.
            expect_discards=False,
        )
        # Rematch: a game with the computer starts again at once, once.
        over = game_over(t, dm, game_id)
        rematch = await t.double.click(t.ann, over, f"tuque:rematch:{game_id}")
        await rematch.settled()
        (rematched,) = bot.sessions.running()
        assert rematched.id != game_id and rematched.private
        assert rematch.original is not None and rematch.original.ephemeral
        assert f"Game #{rematched.id}" in rematch.original.text
        twice = await t.double.click(t.ann, over, f"tuque:rematch:{game_id}")
        await twice.settled()
        assert twice.original is not None and f"#{rematched.id}" in twice.original.text
        assert [s.id for s in bot.sessions.running()] == [rematched.id]
    no_channel_call(t, dm)
    stored_outside_a_server(t, game_id)
    t.double.check()


async def test_a_strangers_click_in_the_group_dm_is_refused(table: Table) -> None:
    """Eve, in the group DM but not in the game: her Accept of a challenge to Bob and
    her Show my hand on the table are refused ephemerally and change nothing."""
    t = table
    group = t.double.add_private_channel(t.guild, t.ann, t.bob, t.eve)
    async with running_bot(t, **PRIVATE) as bot:
        rec = await t.double.private_slash(t.ann, group, "tuque", "challenge", opponent=t.bob)
        await rec.settled()
        (invite,) = rec.followups
        accept = next(b.custom_id for b in invite.buttons if b.label == "Accept")
        assert accept is not None
        refused = await t.double.click(t.eve, invite, accept)
        await refused.settled()
        assert refused.original is not None and refused.original.ephemeral
        assert "someone else" in refused.original.text
        await (await t.double.click(t.bob, invite, accept)).settled()
        (game_id,) = [s.id for s in bot.sessions.running()]
        await t.double.wait_until(lambda: tables(t, group), 10)
        await t.double.idle()
        table_message = tables(t, group)[-1]
        before = table_message.edit_count
        text = await assert_refused(
            t,
            bot,
            game_id,
            lambda: t.double.click(t.eve, table_message, f"tuque:hand:{game_id}"),
        )
        assert "no hand in this game" in text
        assert t.double.message(table_message.id).edit_count == before
    t.double.check()


async def test_the_table_comes_back_under_the_first_click_after_every_token_expired(
    table: Table,
) -> None:
    """With tokens that live 2 s (trusted for 1.5 s), a computer's move made once Ann's
    last token is too old edits nothing; Ann's next click posts the table afresh as its
    follow-up, showing the game as it stands; no expired token is ever used."""
    t = table
    t.double.token_lifetime = 2.0
    dm = t.double.add_private_channel(t.guild, t.ann, group=False)
    async with running_bot(t, computer_move_delay_seconds=1.8, **PRIVATE) as bot:
        bot.sessions.delivery.token_lifetime = 1.5
        rec = await t.double.private_slash(t.ann, dm, "tuque", "bot", variant="euchre")
        await rec.settled()
        (session,) = bot.sessions.running()
        await t.double.wait_until(lambda: tables(t, dm), 10)
        seq = len(session.game.log)
        seat = session.table.seat_of(t.ann.id)
        # The computer moves first, 1.8 s on, or Ann does; either way wait for a move
        # made after her token's trust ran out.
        if session.game.turn == seat:
            hand = newest_hand(t, t.ann)
            assert hand is not None
            await (await t.double.click(t.ann, hand, action_buttons(hand)[0])).settled()
            seq = len(session.game.log)
        await t.double.wait_until(lambda: len(session.game.log) > seq, 5)
        await t.double.idle()
        assert session.discord.table_waiting
        before = tables(t, dm)
        shown = await t.double.click(t.ann, before[-1], f"tuque:hand:{session.id}")
        await shown.settled()
        await t.double.wait_until(lambda: len(tables(t, dm)) == len(before) + 1, 5)
        fresh = tables(t, dm)[-1]
        assert fresh.interaction is shown and not fresh.ephemeral
        assert not session.discord.table_waiting
    t.double.check()
