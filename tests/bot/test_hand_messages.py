"""End to end: where a member's hand message and the game's commands reach them: in the
game's thread, through autocomplete, and (test by test below) the ping of their turn,
through the Discord double."""

from __future__ import annotations

import logging
import random

import pytest
from e2e import (
    Table,
    action_buttons,
    assert_refused,
    challenge_and_accept,
    db_snapshot,
    newest_hand,
    opened,
    play_turn,
    running_bot,
    send_challenge,
    table_message,
)
from test_table_message import _pings, _settled

from bot.client import TuqueBot
from bot.layout import shortened
from tests.discord_double import StoredMessage


async def test_hand_and_resign_in_the_games_thread_mean_that_game(table: Table) -> None:
    """``/tuque hand`` and ``/tuque resign`` with no game, typed in the game's thread
    (where its pings are), are about that game."""
    t = table
    async with running_bot(t) as bot:
        game_id = await challenge_and_accept(t)
        await opened(t, bot, game_id)
        (thread,) = t.guild.threads.values()
        rec = await t.double.slash(t.ann, thread, "tuque", "hand")
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert f"Game #{game_id}" in rec.original.text
        before = db_snapshot(t)
        rec = await t.double.slash(t.bob, thread, "tuque", "resign")
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert f"Resign game #{game_id}?" in rec.original.text
        assert db_snapshot(t) == before
    t.double.check()


async def test_a_forged_autocomplete_gets_no_choices_and_no_traceback(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """An autocomplete of an option the command lacks, or one it does not complete, is
    answered with no choices, and nothing is logged as a failure."""
    t = table
    caplog.set_level(logging.ERROR)
    async with running_bot(t):
        await (await t.double.slash(t.ann, t.channel, "tuque", "bot", variant="euchre")).settled()
        for option in ("nonsense", "variant"):
            choices = await t.double.autocomplete(
                t.ann, t.channel, "tuque", "hand", focused=option, forged=True
            )
            assert choices == []
        assert await t.double.autocomplete(t.ann, t.channel, "tuque", "hand", focused="game")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    t.double.check()


async def test_a_long_game_name_is_cut_at_a_word(table: Table) -> None:
    """A game's name in autocomplete keeps within Discord's 100 characters, cut after a
    whole word with "…" (a name cut mid-word can read as another)."""
    t = table
    async with running_bot(t) as bot:
        rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", variant="call_ace", players=6)
        await rec.settled()
        (session,) = bot.sessions.games_of(t.guild.id, None, t.ann.id)
        against = bot.sessions.opponents_of(session, t.ann.id)
        full = f"#{session.id} · {session.game.variant.title} vs {against}"
        (choice,) = await t.double.autocomplete(t.ann, t.channel, "tuque", "hand", focused="game")
    if len(full) <= 100:
        assert choice["name"] == full
    else:
        assert len(choice["name"]) <= 100 and choice["name"].endswith("…")
        kept = choice["name"].removesuffix("…")
        assert full.startswith(kept) and full[len(kept)] == " "
    t.double.check()


def test_a_shortened_text_ends_at_a_whole_word() -> None:
    assert shortened("Ann and Bob and Cat", 100) == "Ann and Bob and Cat"
    assert shortened("Ann and Bob and Cat", 14) == "Ann and Bob…"
    assert shortened("Ann and Bob and Cat", 12) == "Ann and Bob…"
    assert shortened("Annabelle", 5) == "Anna…"


async def test_a_ping_posted_before_the_thread_is_deleted_where_it_was_posted(
    table: Table,
) -> None:
    """The game's thread comes late (Discord rate-limits its creation) and a member acts
    meanwhile: the next member's ping goes to the channel. Once they act it is deleted
    there, not looked for in the thread (where Discord answers 404), so no "it's your
    turn" stays in the channel for good."""
    t = table
    t.double.fail("POST /channels/{channel_id}/messages/{message_id}/threads", 429, retry_after=1.5)
    async with running_bot(t, turn_ping_delay_seconds=0) as bot:
        invite, accept = await send_challenge(t)
        await (await t.double.click(t.bob, invite, accept)).response()
        await t.double.wait_until(lambda: bool(bot.sessions.running()), 10)
        (session,) = bot.sessions.running()
        rng = random.Random(1)
        await t.double.wait_until(lambda: any(newest_hand(t, u) for u in (t.ann, t.bob)), 10)
        await play_turn(t, bot, session.id, rng)
        await t.double.wait_until(lambda: bool(_pings(t)), 10)
        assert session.discord.thread_id is None, "the ping came before the thread"
        (early,) = _pings(t)
        await t.double.wait_until(lambda: session.discord.thread_id is not None, 10)
        seq = len(session.game.log)
        while not session.finished and len(session.game.log) == seq:
            await play_turn(t, bot, session.id, rng)
        await _settled(t, session)
        assert t.double.message(early.id).deleted
        assert all(p.channel.id == session.discord.thread_id for p in _pings(t))
    t.double.check()


async def _two_quick_hands(t: Table, bot: TuqueBot) -> tuple[int, StoredMessage, StoredMessage]:
    """Ann plays Tuque against the computer; on her turn she presses "Show my hand" twice.
    Returns the game's id and her two hand messages, older first."""
    rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", variant="tuque")
    await rec.settled()
    (session,) = bot.sessions.running()
    await t.double.wait_until(lambda: session.game.turn == 0, 10)
    await t.double.idle()
    show = next(b.custom_id for b in table_message(t).buttons if b.label == "Show my hand")
    hands = []
    for _ in range(2):
        clicked = await t.double.click(t.ann, table_message(t), show)  # type: ignore[arg-type]
        await clicked.settled()
        hands.append(t.double.ephemerals_for(t.ann)[-1])
    await t.double.idle()
    return session.id, hands[0], hands[1]


async def test_a_second_show_my_hand_replaces_the_first(table: Table) -> None:
    """Two quick "Show my hand": the older message says where the hand went and has no
    controls left; the newer one has them."""
    t = table
    async with running_bot(t) as bot:
        _, older, newer = await _two_quick_hands(t, bot)
        assert not action_buttons(t.double.message(older.id))
        assert "moved to a newer message" in t.double.message(older.id).text
        assert action_buttons(t.double.message(newer.id))
        greeting = t.double.ephemerals_for(t.ann)[0]
        assert not action_buttons(t.double.message(greeting.id))
    t.double.check()


async def test_a_replaced_hand_messages_buttons_are_refused(table: Table) -> None:
    """Where the older message could not be edited (dismissed, its token dead), its
    buttons still show: a click on one is refused, ephemerally, and changes nothing."""
    t = table
    t.double.fail("PATCH /webhooks/{application_id}/{token}/messages/{message_id}", 404, times=2)
    async with running_bot(t) as bot:
        game_id, older, _ = await _two_quick_hands(t, bot)
        stale = action_buttons(t.double.message(older.id))
        assert stale, "the older message kept its buttons"
        text = await assert_refused(
            t, bot, game_id, lambda: t.double.click(t.ann, older.id, stale[0])
        )
        assert "replaced by a newer one" in text
    t.double.take_problems()
