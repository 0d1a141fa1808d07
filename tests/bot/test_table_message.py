"""The public side of a game on Discord (issue 21): the table message in the component
layout with its picture, the ping on a member's turn, and the game's thread.

Every request goes through the double, which checks it against Discord's published
specification and fails the test on any violation.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from collections.abc import AsyncIterator, Callable
from concurrent.futures import BrokenExecutor, ThreadPoolExecutor
from typing import Any

import pytest
from e2e import (
    Table,
    action_buttons,
    challenge_and_accept,
    game_posts,
    newest_hand,
    play_turn,
    running_bot,
    table_message,
)

from bot import budget as budget_module
from bot import render, replies
from bot.budget import Priority, RequestBudget
from bot.client import TuqueBot
from bot.sessions import Session
from tests.discord_double.models import (
    COMPONENTS_V2,
    CREATE_PUBLIC_THREADS,
    EVERYONE_PERMISSIONS,
    StoredMessage,
    User,
    walk_components,
)

JPEG = b"\xff\xd8\xff"


def _pings(t: Table, *, deleted: bool = False) -> list[StoredMessage]:
    """The game's pings, live ones only unless ``deleted``, wherever they were posted."""
    channels = [t.channel, *(c for c in t.guild.threads.values() if c.parent_id == t.channel.id)]
    return [
        m
        for c in channels
        for m in t.double.channel_messages(c, include_deleted=deleted)
        if "it's your turn to" in m.content
    ]


async def _settled(t: Table, session: Session) -> None:
    """Wait until the game's outboxes (pings, posts, hand views) are delivered and its
    old pings deleted."""
    state = session.discord
    await t.double.wait_until(
        lambda: state.outbox.idle and state.hand_outbox.idle and not state.ping_deletions, 10
    )
    await t.double.idle()


async def _computers_game(t: Table, bot: TuqueBot) -> Session:
    """Ann's ``/tuque bot`` game of Euchre in the channel, once its posts are delivered."""
    rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", variant="euchre")
    await rec.settled()
    (session,) = bot.sessions.games_of(t.guild.id, t.channel.id, t.ann.id)
    await _settled(t, session)
    return session


def _short_tries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tries of 0.5 s, 0.1 s apart, and turns that do not lapse while held."""
    monkeypatch.setattr(replies, "CALL_TIMEOUT", 0.5)
    monkeypatch.setattr(replies, "RETRY_DELAYS", (0.1,))
    monkeypatch.setattr(budget_module, "LEASE", 60.0)


async def _hold_every_turn(budget: RequestBudget) -> int:
    """Take every turn there is room for (whatever asks next waits); how many taken."""
    loop = asyncio.get_running_loop()
    held = 0
    while budget._room(loop):
        await budget.turn(Priority.RESULT)
        held += 1
    return held


def _give_up_turns(budget: RequestBudget, held: int) -> None:
    for _ in range(held):
        with budget.prepaid():  # a turn given up: its place is free
            pass


async def _pinged_member_acts(t: Table, session: Session) -> None:
    """The member on turn clicks their first legal action (the click's answer goes past
    the budget: its own)."""
    seq = len(session.game.log)
    user = {t.ann.id: t.ann, t.bob.id: t.bob}[session.table.seats[session.game.turn].member]  # type: ignore[index]
    message = newest_hand(t, user)
    assert message is not None
    mine = [b for b in action_buttons(message) if f":{seq}:" in b]
    await (await t.double.click(user, message, mine[0])).response()


async def _first_ping(t: Table, bot: TuqueBot) -> tuple[Session, StoredMessage]:
    """A challenge to 5 accepted, and its game's first ping: the game, and the ping."""
    game_id = await challenge_and_accept(t, target=5)
    session = bot.sessions.session(game_id)
    assert session is not None
    await t.double.wait_until(lambda: _pings(t), 10)
    (first,) = _pings(t)
    return session, first


@contextlib.asynccontextmanager
async def _turns_held_past_a_ping(
    t: Table, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[Session, StoredMessage, Callable[[], None]]]:
    """A running bot with short tries (:func:`_short_tries`) whose game pinged its member
    on turn, every turn of the budget then held, and the pinged member's click made.
    Yields the game, the first ping, and what gives the held turns up."""
    _short_tries(monkeypatch)
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        session, first = await _first_ping(t, bot)
        budget = bot.sessions.delivery.budget
        held = await _hold_every_turn(budget)
        await _pinged_member_acts(t, session)
        yield session, first, lambda: _give_up_turns(budget, held)


async def _play_out(t: Table, bot: TuqueBot, game_id: int, seed: int) -> list[int | None]:
    """Members click random legal actions to the game's end. Before each click, checks
    the ping: at most one live, and it mentions the member on turn. Returns who was on
    turn at each check (a seat, or None when the game waited on nobody)."""
    rng = random.Random(seed)
    session = bot.sessions.session(game_id)
    assert session is not None
    turns: list[int | None] = []
    while True:
        await _settled(t, session)
        live = _pings(t)
        assert len(live) <= 1, "one ping per game at a time"
        turn = None if session.finished else session.game.turn
        turns.append(turn)
        if live:
            assert turn is not None
            user = session.table.seats[turn].member
            assert live[0].content.startswith(f"<@{user}>, it's your turn to ")
        if not await play_turn(t, bot, game_id, rng):
            return turns


async def test_the_table_is_a_picture_with_one_status_line(table: Table) -> None:
    """The table message: Components V2, the drawn table as its attachment with a text
    alternative, one status line under it, and "Show my hand"."""
    t = table
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        game_id = await challenge_and_accept(t, target=5)
        session = bot.sessions.session(game_id)
        assert session is not None
        await _settled(t, session)
        shown = table_message(t)
        assert shown.flags & COMPONENTS_V2 and not shown.content and not shown.embeds
        (attachment,) = shown.attachments
        assert attachment["filename"] == "table.jpg"
        assert t.double.attachment_bytes(attachment).startswith(JPEG)
        (gallery,) = [c for c in walk_components(shown.components) if c.get("type") == 12]
        description = gallery["items"][0]["description"]
        assert "Tuque" in description and 0 < len(description) <= 1024
        turn = session.game.turn
        assert turn is not None
        assert f"**{session.seating.names[turn]}** to bid (round 1)" in shown.text
        assert f"### Tuque · game #{game_id} · hand 1" in shown.text
        assert [b.label for b in shown.buttons] == ["Show my hand"]
    t.double.check()


async def test_a_game_between_members_pings_each_turn_in_its_thread(table: Table) -> None:
    """One whole game between members. Discord notifies on a new message, never on an
    edit: each member's turn brings a new message that mentions them (never edited),
    deleted once they have acted; one a game at a time, none at the end. The
    challenge, which now says the game is on, starts the game's thread (no start
    message: one global-limit post fewer at each start); the table, the pings and hand
    results go there; the channel keeps the challenge and the game's result."""
    t = table
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        game_id = await challenge_and_accept(t, target=5)
        turns = await _play_out(t, bot, game_id, seed=3)
        assert turns[-1] is None, "the game ended"
    assert not _pings(t), "no ping outlives the game"
    every = _pings(t, deleted=True)
    assert len(every) >= 10, "a whole game between members pings many turns"
    assert all(m.deleted and not m.history for m in every), "pings are deleted, never edited"
    mentioned = {m.content.split(">", 1)[0] for m in every}
    assert mentioned == {f"<@{t.ann.id}", f"<@{t.bob.id}"}
    shown = table_message(t)
    (thread,) = t.guild.threads.values()
    assert shown.channel.id == thread.id and thread.parent_id == t.channel.id
    start = t.double.message(thread.id)
    assert start.channel.id == t.channel.id and not start.buttons
    assert start.text == f"bob accepted the challenge from <@{t.ann.id}>: game #{game_id} is on."
    assert "challenges you" in start.history[0].content, "the challenge's own message"
    assert thread.name == f"Game #{game_id} · Tuque"
    assert all(m.channel.id == thread.id for m in every)
    in_thread = [m.text for m in t.double.channel_messages(thread)]
    assert any("Hand 1 result" in text for text in in_thread)
    assert sum("Game over" in text for text in in_thread) == 1
    in_channel = [m.text for m in t.double.channel_messages(t.channel)]
    assert not any("Hand 1 result" in text or "it's your turn" in text for text in in_channel)
    assert sum("Game over" in text for text in in_channel) == 1
    assert not any("The table is in the thread" in text for text in in_channel)
    with_rematch = [m for m in game_posts(t) if any(b.label == "Rematch" for b in m.buttons)]
    assert len(with_rematch) == 2
    t.double.check()


async def test_a_game_against_the_computer_starts_its_thread_from_a_start_message(
    table: Table,
) -> None:
    """``/tuque bot`` has no public message of its own (its answer is the member's hand):
    a short message in the channel names the game and its players and starts its
    thread, where the table plays."""
    t = table
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        session = await _computers_game(t, bot)
        (thread,) = t.guild.threads.values()
        start = t.double.message(thread.id)
        assert start.channel.id == t.channel.id and not start.history
        text = render.start_text(session.game.view(None), session.seating, session.id)
        assert start.text == text and f" · game #{session.id}**: ann & " in text
        assert table_message(t).channel.id == thread.id == session.discord.thread_id
    t.double.check()


async def test_a_thread_made_by_a_try_whose_answer_was_lost_is_the_games(
    table: Table,
) -> None:
    """Discord starts the thread but its answer is lost (503): the try after it meets
    "a thread has already been created for this message" (160004), and that thread,
    which shares the message's id, is the game's: the table plays in it."""
    t = table
    t.double.fail("POST /channels/{channel_id}/messages/{message_id}/threads", 503, performed=True)
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        game_id = await challenge_and_accept(t, target=5)
        session = bot.sessions.session(game_id)
        assert session is not None
        await _settled(t, session)
        (thread,) = t.guild.threads.values()
        assert session.discord.thread_id == thread.id
        assert table_message(t).channel.id == thread.id
    problems = t.double.take_problems()
    assert len(problems) == 1 and "400 160004" in problems[0]
    t.double.check()


async def test_a_challenge_gone_before_its_thread_gives_way_to_a_start_message(
    table: Table,
) -> None:
    """The accepted challenge cannot start the thread (Discord answers 404: deleted by
    a moderator meanwhile): a start message in the channel starts it instead."""
    t = table
    t.double.fail("POST /channels/{channel_id}/messages/{message_id}/threads", 404)
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        game_id = await challenge_and_accept(t, target=5)
        session = bot.sessions.session(game_id)
        assert session is not None
        await _settled(t, session)
        (thread,) = t.guild.threads.values()
        start = t.double.message(thread.id)
        assert start.text == render.start_text(session.game.view(None), session.seating, game_id)
        assert table_message(t).channel.id == thread.id
    t.double.check()


async def test_a_ping_whose_deletion_discord_has_not_answered_holds_up_nothing(
    table: Table,
) -> None:
    """A ping's deletion waits at the lowest priority and holds up no post: while
    Discord has not answered the deletion of the first member's ping, the next member's
    turn is pinged; once it answers, the old ping is gone and one stands."""
    t = table
    answer = asyncio.Event()
    fault = t.double.fail(
        "DELETE /channels/{channel_id}/messages/{message_id}", 500, performed=True, until=answer
    )
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        session, first = await _first_ping(t, bot)
        # The member pinged acts until the turn passes; the deletion of their ping stays
        # unanswered, so the double is never idle: each click waits for its answer only.
        users = {t.ann.id: t.ann, t.bob.id: t.bob}
        pinged = session.table.seats[session.game.turn].member
        while session.table.seats[session.game.turn].member == pinged:
            seq = len(session.game.log)
            user = users[pinged]  # type: ignore[index]

            def offered(user: User = user, seq: int = seq) -> list[str]:
                message = newest_hand(t, user)
                return [b for b in action_buttons(message) if f":{seq}:" in b] if message else []

            await t.double.wait_until(offered, 10)
            clicked = await t.double.click(user, newest_hand(t, user), offered()[0])  # type: ignore[arg-type]
            await clicked.response()
            await t.double.wait_until(lambda seq=seq: len(session.game.log) > seq, 10)
        on_turn = session.table.seats[session.game.turn].member
        assert on_turn is not None
        await t.double.wait_until(
            lambda: any(m.content.startswith(f"<@{on_turn}>") for m in _pings(t)), 10
        )
        assert fault.hits == 1 and session.discord.ping_deletions, "still not answered"
        answer.set()
        await _settled(t, session)
        (standing,) = _pings(t)
        assert standing.content.startswith(f"<@{on_turn}>")
        assert t.double.message(first.id).deleted
    t.double.check()


async def test_a_ping_deletion_that_waits_longer_than_a_try_still_deletes_the_ping(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While every table waits for the budget, a ping's deletion lets them go first for
    up to a minute (``ALLOWANCE``): its wait for a turn stops its try's clock, so a wait
    longer than every try together still deletes the ping once a turn comes (a deletion
    whose wait counted against its tries gave up, and the ping stood)."""
    t = table
    async with _turns_held_past_a_ping(t, monkeypatch) as (session, first, give_up):
        # Forgotten as the turn passed, and its deletion waiting for a turn.
        await t.double.wait_until(lambda: session.discord.ping_message_id != first.id, 10)
        await asyncio.sleep(1.5)  # longer than both tries of 0.5 s and the pause between
        assert not t.double.message(first.id).deleted
        give_up()
        await t.double.wait_until(lambda: t.double.message(first.id).deleted, 10)


async def test_a_ping_that_waits_longer_than_every_try_for_its_turn_is_still_posted(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A post waits for the budget's turn while every table waits (seconds in a crowd):
    that wait stops its try's clock (``budget.pacing``), so a wait longer than every try
    together still posts it once a turn comes, once (a post whose wait counted against
    its tries failed them all: "ping failed after 2 tries", and nobody was pinged)."""
    t = table
    async with _turns_held_past_a_ping(t, monkeypatch) as (session, first, give_up):
        next_seat = session.game.turn
        assert next_seat is not None and not session.table.moves_itself(next_seat)
        next_member = session.table.seats[next_seat].member
        await asyncio.sleep(1.5)  # longer than both tries of 0.5 s and the pause between
        assert [m.id for m in _pings(t, deleted=True)] == [first.id], "nothing sent yet"
        give_up()
        await t.double.wait_until(
            lambda: any(m.content.startswith(f"<@{next_member}>") for m in _pings(t)), 10
        )
        await _settled(t, session)
    (pinged,) = [m for m in _pings(t, deleted=True) if m.id != first.id]
    assert pinged.content.startswith(f"<@{next_member}>")
    assert not [r for r in caplog.records if "ping failed" in r.getMessage()]
    t.double.check()


async def test_without_the_thread_permission_the_game_plays_in_the_channel(
    table: Table,
) -> None:
    """A server that did not give the bot Create Public Threads: Discord refuses the
    thread, once, and the game's posts and pings go to the channel (its first hand)."""
    t = table
    for role in t.guild.roles.values():
        role.permissions = EVERYONE_PERMISSIONS & ~CREATE_PUBLIC_THREADS
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        game_id = await challenge_and_accept(t, target=5)
        session = bot.sessions.session(game_id)
        assert session is not None
        rng = random.Random(5)
        while not session.finished and session.game.hand_no == 1:
            await _settled(t, session)
            await play_turn(t, bot, game_id, rng)
        await _settled(t, session)
    assert not t.guild.threads
    texts = [m.text for m in t.double.channel_messages(t.channel)]
    assert any("Hand 1 result" in text for text in texts)
    assert _pings(t, deleted=True), "pings in the channel"
    problems = t.double.take_problems()
    assert len(problems) == 1 and "403 50013 Missing Permissions" in problems[0]


async def test_a_server_with_threads_off_plays_in_the_channel(table: Table) -> None:
    """``/tuque settings threads:false``: games start no thread."""
    t = table
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        bot.sessions.delivery.threads_off.add(t.guild.id)
        game_id = await challenge_and_accept(t, target=5)
        session = bot.sessions.session(game_id)
        assert session is not None
        await _settled(t, session)
        assert session.discord.thread_id is None and not t.guild.threads
    t.double.check()


async def test_a_member_who_acts_within_the_ping_delay_is_not_pinged(table: Table) -> None:
    """``TURN_PING_DELAY_SECONDS``: a member at the table acts before the ping is due and
    gets none; one who does not gets it once the delay has passed."""
    t = table
    async with running_bot(t, turn_ping_delay_seconds=0.5) as bot:
        game_id = await challenge_and_accept(t, target=5)
        session = bot.sessions.session(game_id)
        assert session is not None
        rng = random.Random(2)
        for _ in range(6):
            await play_turn(t, bot, game_id, rng)
        await _settled(t, session)
        assert not _pings(t, deleted=True), "members who act at once are not pinged"
        await asyncio.sleep(0.8)
        await _settled(t, session)
        (ping,) = _pings(t)
        turn = session.game.turn
        assert turn is not None
        assert ping.content.startswith(f"<@{session.table.seats[turn].member}>, it's your turn")
    t.double.check()


async def test_a_rematch_clicked_in_the_games_thread_gets_a_table_and_thread_of_its_own(
    table: Table,
) -> None:
    """Rematch on the result posted in the thread: the new game plays in the first
    game's channel, with a table and a thread of its own; a game started in a thread
    plays in it. Nothing is refused."""
    t = table
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        first = await _computers_game(t, bot)
        resign = await t.double.slash(t.ann, t.channel, "tuque", "resign")
        await resign.settled()
        assert resign.original is not None
        confirm = resign.original.buttons[0].custom_id
        await (await t.double.click(t.ann, resign.original, confirm or "")).settled()
        await _settled(t, first)
        (thread,) = t.guild.threads.values()
        over, rematch = next(
            (m, b.custom_id)
            for m in t.double.channel_messages(thread)
            for b in m.buttons
            if b.label == "Rematch"
        )
        await (await t.double.click(t.ann, over, rematch or "")).settled()
        (second,) = bot.sessions.games_of(t.guild.id, None, t.ann.id)
        await _settled(t, second)
        assert second.id != first.id and second.channel_id == t.channel.id
        assert second.discord.thread_id is not None and second.discord.thread_id != thread.id
        assert second.discord.table_message_id is not None
        shown = t.double.message(second.discord.table_message_id)
        assert shown.channel.id == second.discord.thread_id
        # A game started in a thread plays there: Discord has no thread in a thread.
        rec = await t.double.slash(t.ann, thread, "tuque", "bot", variant="euchre")
        await rec.settled()
        (third,) = bot.sessions.games_of(t.guild.id, thread.id, t.ann.id)
        await _settled(t, third)
        assert third.discord.thread_id is None and len(t.guild.threads) == 2
        assert any(f" · game #{third.id}" in m.text for m in t.double.channel_messages(thread))
    t.double.check()


async def test_the_table_always_ends_up_showing_the_game_as_it_is(table: Table) -> None:
    """A computer moves the moment the member has: changes that come while the table is
    being drawn or uploaded still reach it, so once Discord is quiet the status line is
    the game's own, move after move."""
    t = table
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", variant="euchre")
        await rec.settled()
        (session,) = bot.sessions.games_of(t.guild.id, t.channel.id, t.ann.id)
        rng = random.Random(8)
        for _ in range(12):
            await _settled(t, session)
            await t.double.wait_until(
                lambda: session.discord.table_edit is None or session.discord.table_edit.done(), 10
            )
            await t.double.idle()
            if session.finished:
                break
            public = session.game.view(None)
            status = render.table_status(public, session.seating)
            assert status in table_message(t).text
            if not await play_turn(t, bot, session.id, rng):
                break
    t.double.check()


class _Broken(ThreadPoolExecutor):
    """An executor whose worker died: every submission is refused."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        raise BrokenExecutor("the drawing process died")


async def test_a_dead_drawing_process_does_not_stop_the_table(table: Table) -> None:
    """The drawing process killed mid-game: the table is drawn in the bot instead, and
    the game and its table go on."""
    t = table
    async with running_bot(t) as bot:
        game_id = await challenge_and_accept(t, target=5)
        session = bot.sessions.session(game_id)
        assert session is not None
        bot.sessions.delivery.drawer = _Broken()
        before = table_message(t).attachments[0]["id"]
        assert await play_turn(t, bot, game_id, random.Random(1))
        await _settled(t, session)
        await t.double.wait_until(
            lambda: session.discord.table_edit is None or session.discord.table_edit.done(), 10
        )
        await t.double.idle()
        shown = table_message(t)
        assert shown.attachments[0]["id"] != before, "a new picture"
        turn = session.game.turn
        assert turn is not None and f"**{session.seating.names[turn]}**" in shown.text
    t.double.check()


async def test_a_game_whose_thread_was_deleted_plays_on_in_the_channel(table: Table) -> None:
    """A moderator deletes the game's thread mid-game: Discord answers Unknown Channel,
    the game's posts (its pings, hand results, result) go to the channel from then on,
    and the game goes on."""
    t = table
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        game_id = await challenge_and_accept(t, target=5)
        session = bot.sessions.session(game_id)
        assert session is not None
        await _settled(t, session)
        (thread,) = t.guild.threads.values()
        del t.guild.threads[thread.id], t.double.channels[thread.id]
        rng = random.Random(5)
        while not session.finished and session.game.hand_no == 1:
            await _settled(t, session)
            await play_turn(t, bot, game_id, rng)
        await _settled(t, session)
        assert session.discord.thread_id is None
    texts = [m.text for m in t.double.channel_messages(t.channel)]
    assert any("Hand 1 result" in text for text in texts)
    assert any("it's your turn to" in m.content for m in _pings(t, deleted=True))
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT thread_id FROM games").fetchall() == [(None,)]
    t.double.check()
