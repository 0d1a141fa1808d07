"""The table under Discord's rate limits (the double applies them, ten times faster in
tests): several games in one channel never meet a 429, each table plays in its own
thread and ends showing its game, and a table near an hour old is replaced before
Discord's limit on edits of old messages (30046), or when it meets that limit."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time

from bot.budget import Priority
from bot.client import TuqueBot
from bot.faces import EMOJI_NAMES, face_png
from bot.sessions import Session
from engine.cards import CARDS
from tests.bot.e2e import (
    Table,
    action_buttons,
    newest_hand,
    opened,
    running_bot,
    started_game,
    table_message,
)
from tests.discord_double import StoredMessage, User
from tests.discord_double.ratelimits import Limiter


async def _bot_game(t: Table, bot: TuqueBot, member: User, **options: object) -> Session:
    rec = await t.double.slash(member, t.channel, "tuque", "bot", **options)
    await rec.settled()
    (session,) = bot.sessions.games_of(t.guild.id, t.channel.id, member.id)
    await t.double.wait_until(lambda: session.discord.table_message_id is not None, 10)
    return session


def _newest_buttons(t: Table, member: User, session: Session) -> tuple[StoredMessage, list[str]]:
    """The member's newest hand of this game with buttons for its current turn."""
    seq = f":{session.id}:{len(session.game.log)}:"
    for message in reversed(t.double.ephemerals_for(member)):
        buttons = [b for b in action_buttons(message) if seq in b]
        if buttons:
            return message, buttons
    raise LookupError


async def _play_to_the_end(t: Table, member: User, session: Session, seed: int) -> None:
    """The member clicks a random legal action whenever their hand offers one; the
    computers (no pause in tests) play the other seats."""
    rng = random.Random(seed)
    while not session.finished:
        turn = session.game.turn
        if turn is None or session.table.seats[turn].member != member.id:
            await asyncio.sleep(0.005)
            continue
        try:
            message, buttons = _newest_buttons(t, member, session)
        except LookupError:
            await asyncio.sleep(0.005)  # the hand's edit is on its way
            continue
        # The answer only: with three games under way the double is never idle.
        await (await t.double.click(member, message, rng.choice(buttons))).response(10)


async def _three_games(t: Table, bot: TuqueBot, target: int) -> list[Session]:
    """Ann, Bob and Eve each play a game of Euchre to ``target`` against the computers,
    all three at once in the table's channel, to their ends."""
    members = (t.ann, t.bob, t.eve)
    sessions = [
        await _bot_game(t, bot, member, variant="euchre", target=target) for member in members
    ]
    await asyncio.wait_for(
        asyncio.gather(
            *(
                _play_to_the_end(t, member, session, seed)
                for seed, (member, session) in enumerate(zip(members, sessions, strict=True))
            )
        ),
        timeout=300,
    )
    return sessions


async def test_three_games_in_one_channel_never_meet_a_429(table: Table) -> None:
    t = table
    async with running_bot(t) as bot:
        sessions = await _three_games(t, bot, target=5)
        await t.double.idle(timeout=30)
    assert t.double.rate_limited == []
    assert not [r for r in t.double.requests if r.status == 429]
    threads = {s.discord.thread_id for s in sessions}
    assert None not in threads and len(threads) == 3
    for session in sessions:
        assert session.discord.table_message_id is not None
        shown = t.double.message(session.discord.table_message_id)
        # Each table plays in its own thread, and ends showing its game's end.
        assert shown.channel.id == session.discord.thread_id
        assert "won the game" in shown.text
    # The parent channel holds each game's start and result, no table edit.
    edits_in_channel = [
        r
        for r in t.double.requests
        if r.method == "PATCH" and r.path.startswith(f"/api/v10/channels/{t.channel.id}/")
    ]
    assert len(edits_in_channel) <= 3 * 2  # the invitations' and lobbies' own edits at most
    t.double.check()


async def test_tables_asking_past_the_global_limit_are_paced_not_refused(table: Table) -> None:
    """Three busy tables ask for more than a token's global limit allows (here 20
    requests a second, Discord's other limits thirty times faster as in every test): the
    bot's request budget paces them, so Discord answers no 429 of any kind; the tables
    are edited less often, each ending on its game's end, and every hand's result is
    posted (issue 41). The bot's budget is 16 a second: the double shares the bot's
    event loop here, and a stall of the loop hands it a quarter second's requests at once
    (in bench.discord_load the bot is a process of its own, on Discord's 50)."""
    t = table
    assert t.double.limiter is not None
    t.double.limiter = Limiter(
        dataclasses.replace(t.double.limiter.limits, global_per_second=20), time.monotonic
    )
    for name in EMOJI_NAMES:  # uploaded before: the start-up is not forty uploads long
        t.double.add_application_emoji(name, face_png(CARDS[0]))
    async with running_bot(t, discord_requests_per_second=16) as bot:
        sessions = await _three_games(t, bot, target=3)
        await t.double.idle(timeout=60)
    assert [r for r in t.double.requests if r.status == 429] == []
    assert bot.budget.merged > 0  # the tables asked for more edits than were made
    for session in sessions:
        assert session.discord.table_message_id is not None
        assert "won the game" in t.double.message(session.discord.table_message_id).text
        results = [
            m
            for m in t.double.channel_messages(t.double.channels[session.discord.thread_id])
            if m.embeds and "Hand" in (m.embeds[0].get("title") or "")
        ]
        assert len(results) == len(session.game.hand_results)
    t.double.check()


async def test_a_members_hand_keeps_its_pace_while_the_tables_wait(table: Table) -> None:
    """While the request budget is spoken for (here by thousands of results waiting
    ahead), a click's table edit waits its turn, but the answer to the click and the
    other member's hand view (interaction routes, outside the global limit) go at once
    (issue 41)."""
    t = table
    async with running_bot(t) as bot:
        game_id, to_act, other = await started_game(t, bot)
        await opened(t, bot, game_id)
        session = bot.sessions.session(game_id)
        assert session is not None
        # The other member's hand, with no move of theirs to make now.
        show = next(b.custom_id for b in table_message(t).buttons if b.label == "Show my hand")
        assert show is not None
        await (await t.double.click(other, table_message(t), show)).settled()
        before = t.double.ephemerals_for(other)[-1]
        shown = before.components
        # A few seconds' worth of turns, each for a more urgent request than a table's.
        ahead = [asyncio.create_task(bot.budget.turn(Priority.RESULT)) for _ in range(20_000)]
        try:
            await asyncio.sleep(0)
            seq = len(session.game.log)
            hand = newest_hand(t, to_act)
            assert hand is not None
            buttons = [b for b in action_buttons(hand) if f":{seq}:" in b]
            await (await t.double.click(to_act, hand, buttons[0])).response(10)
            # The other member's hand shows the move while the table still waits.
            await t.double.wait_until(lambda: t.double.message(before.id).components != shown, 10)
            assert session.discord.table_stale or bot.budget.waiting > len(ahead) // 2
            assert not any(task.done() for task in ahead[-100:])  # the budget was still spoken for
        finally:
            for task in ahead:
                task.cancel()
            await asyncio.gather(*ahead, return_exceptions=True)
        await t.double.idle()
    t.double.check()


async def _move(t: Table, member: User, session: Session) -> None:
    """One click of the member, once their turn's buttons are there."""
    await t.double.wait_until(lambda: session.game.turn == 0, 10)
    await t.double.wait_until(lambda: _has_buttons(t, member, session), 10)
    message, buttons = _newest_buttons(t, member, session)
    await (await t.double.click(member, message, buttons[0])).settled()
    await t.double.idle()


def _has_buttons(t: Table, member: User, session: Session) -> bool:
    try:
        _newest_buttons(t, member, session)
    except LookupError:
        return False
    return True


async def test_an_hour_old_table_meeting_30046_is_replaced(table: Table) -> None:
    """Discord allows few edits of a message over an hour old: once it refuses one
    (30046), the table is posted anew in the thread and the old one deleted; the game
    goes on and its table keeps up."""
    t = table
    async with running_bot(t) as bot:
        session = await _bot_game(t, bot, t.ann, variant="tuque")
        await t.double.idle()
        old = session.discord.table_message_id
        assert old is not None
        t.double.age_message(t.double.message(old), 3700)
        while not t.double.rate_limited:
            await _move(t, t.ann, session)
        new = session.discord.table_message_id
        assert new is not None and new != old
    assert [r.scope for r in t.double.rate_limited] == ["30046"]
    assert t.double.message(old).deleted
    shown = t.double.message(new)
    assert shown.channel.id == session.discord.thread_id and not shown.deleted
    t.double.check()


async def test_a_table_near_an_hour_old_is_replaced_before_discord_refuses(
    table: Table,
) -> None:
    """A table message past ``table_lifetime`` is replaced at its next edit, before any
    30046: a new table in the thread, the old one deleted, and no request refused."""
    t = table
    async with running_bot(t) as bot:
        session = await _bot_game(t, bot, t.ann, variant="tuque")
        await t.double.idle()
        old = session.discord.table_message_id
        bot.sessions.delivery.table_lifetime = 0.0
        await _move(t, t.ann, session)
        new = session.discord.table_message_id
    assert new is not None and new != old and old is not None
    assert t.double.message(old).deleted and not t.double.message(new).deleted
    assert t.double.message(new).channel.id == session.discord.thread_id
    assert t.double.rate_limited == []
    t.double.check()
