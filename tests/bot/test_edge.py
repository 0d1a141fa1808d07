"""End to end: what reaches the bot's edge that it did not expect, and what it does then.

Races between members, failures inside a command or a button, a slow store and a
computer player that stops: each gets a clear answer and the game stays whole.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sqlite3
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from e2e import (
    Table,
    action_buttons,
    challenge_and_accept,
    db_snapshot,
    newest_hand,
    opened,
    running_bot,
    send_challenge,
    table_message,
)

from bot import replies
from bot.sessions import computers as computers_module
from tests.discord_double import InteractionRecord

ERROR_REPLY = re.compile(r"Something went wrong; the game is safe\. \(Error id `([0-9a-f]{8})`\.\)")


async def test_two_challenges_accepted_one_after_the_other_start_one_game(table: Table) -> None:
    """Challenged twice (in two channels), Bob accepts both: the second Accept is refused
    ephemerally, names the running game and writes nothing."""
    t = table
    async with running_bot(t) as bot:
        first, accept_first = await send_challenge(t)
        second, accept_second = await send_challenge(t, t.double.add_channel(t.guild, "more"))
        await (await t.double.click(t.bob, first, accept_first)).settled()
        await opened(t, bot, 1)
        before = db_snapshot(t)
        rec = await t.double.click(t.bob, second, accept_second)
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert "already playing" in rec.original.text and "game #1" in rec.original.text
        assert db_snapshot(t) == before
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
        statuses = sorted(s for (s,) in db.execute("SELECT status FROM challenges"))
    assert statuses == ["accepted", "open"]


async def test_two_challenges_accepted_at_the_same_moment_start_one_game(table: Table) -> None:
    """Both Accepts (of challenges in two channels) in flight at once: exactly one game,
    the other click told why."""
    t = table
    async with running_bot(t):
        first, accept_first = await send_challenge(t)
        second, accept_second = await send_challenge(t, t.double.add_channel(t.guild, "more"))
        one, two = await asyncio.gather(
            t.double.click(t.bob, first, accept_first), t.double.click(t.bob, second, accept_second)
        )
        await one.settled()
        await two.settled()
        refused = [r for r in (one, two) if r.original is not None and r.original.ephemeral]
        assert len(refused) == 1
        assert "already playing" in refused[0].original.text  # type: ignore[union-attr]
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)


async def test_a_failing_command_answers_with_an_error_id(
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An unexpected error in a slash command: an ephemeral "the game is safe" with an
    error id, and one log line with the same id."""
    t = table

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk caught fire")

    async with running_bot(t) as bot:
        monkeypatch.setattr(bot.store, "player_stats", broken)
        with caplog.at_level(logging.ERROR, logger="bot.replies"):
            rec = await t.double.slash(t.ann, t.channel, "tuque", "stats")
            await rec.settled()
    assert rec.original is not None and rec.original.ephemeral
    match = ERROR_REPLY.fullmatch(rec.original.text)
    assert match, rec.original.text
    logged = [r for r in caplog.records if r.name == "bot.replies"]
    assert len(logged) == 1
    assert logged[0].getMessage() == f"/tuque stats failed (error id {match[1]})"


async def test_a_failing_button_answers_with_an_error_id(
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An unexpected error behind a button: the same answer; the log names the button's
    kind only, never the numbers of its custom_id."""
    t = table

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    async with running_bot(t) as bot:
        rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", target=5)
        await rec.settled()
        hand = rec.original
        assert hand is not None
        monkeypatch.setattr(bot.sessions, "on_action", broken)
        with caplog.at_level(logging.ERROR, logger="bot.replies"):
            click = await t.double.click(t.ann, hand, action_buttons(hand)[0])
            await click.settled()
    assert click.original is not None and click.original.ephemeral
    assert ERROR_REPLY.fullmatch(click.original.text)
    (logged,) = [r for r in caplog.records if r.name == "bot.replies"]
    assert logged.getMessage().startswith("button tuque:act failed (error id ")


async def test_a_slow_store_write_defers_the_click_first(
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When storing an action outlasts the deferral delay, the click is deferred (so
    Discord's 3 seconds never run out) and the hand is edited once the write is done."""
    t = table
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    async with running_bot(t) as bot:
        rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", target=5)
        await rec.settled()
        hand = rec.original
        assert hand is not None
        store_write = bot.store.append_actions

        async def slow_write(*args: Any, **kwargs: Any) -> None:
            await asyncio.sleep(0.3)
            await store_write(*args, **kwargs)

        monkeypatch.setattr(bot.store, "append_actions", slow_write)
        clicked, edits = action_buttons(hand)[0], hand.edit_count
        click = await t.double.click(t.ann, hand, clicked)
        await click.response()
        assert click.response_type == 6  # DEFERRED_UPDATE_MESSAGE
        assert click.ack_latency is not None and click.ack_latency < 0.3
        # The store is still writing: the double looks idle meanwhile, so wait for the edit.
        await t.double.wait_until(lambda: hand.edit_count > edits)
        stale = clicked.split(":")[3]
        assert all(b.split(":")[3] != stale for b in action_buttons(hand))
        await t.double.idle()
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT COUNT(*) FROM game_actions").fetchone()[0] >= 2


class FlakyExecutor(ThreadPoolExecutor):
    """A worker pool whose ``fail_at``-th job fails, as a crashed worker process would."""

    def __init__(self, fail_at: int) -> None:
        super().__init__(max_workers=1)
        self.jobs = 0
        self.fail_at = fail_at

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs += 1
        if self.jobs == self.fail_at:
            failed: Future[Any] = Future()
            failed.set_exception(RuntimeError("worker died"))
            return failed
        return super().submit(fn, *args, **kwargs)


async def test_the_timer_loop_rescues_a_stopped_computer(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer whose move failed is on turn with no move under way; the timer sweep
    starts it again and the game goes on."""
    t = table
    # Every level thinks in the pool here, so that the pool's failure reaches this one.
    monkeypatch.setattr(computers_module, "QUICK_LEVELS", frozenset())
    executor = FlakyExecutor(fail_at=3)
    rng = random.Random(3)
    async with running_bot(t, executor) as bot:
        bot.get_cog("Games").sweeper.cancel()  # type: ignore[union-attr]  # the test sweeps
        rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", target=5)
        await rec.settled()
        game_id = int(re.search(r"#(\d+)", rec.original.text)[1])  # type: ignore[union-attr, index]
        session = bot.sessions.session(game_id)
        assert session is not None
        while executor.jobs < executor.fail_at:
            await t.double.wait_until(lambda: session.game.turn == 0)
            hand = newest_hand(t, t.ann)
            assert hand is not None
            click = await t.double.click(t.ann, hand, rng.choice(action_buttons(hand)))
            await click.settled()
        # The computer's move failed: it is on turn and nothing is running.
        assert session.game.turn == 1 and session.computer is not None
        assert session.computer.done()
        seq = len(session.game.log)
        await bot.sessions.tick(remind_after=600, forfeit_after=1200)
        await t.double.wait_until(lambda: len(session.game.log) > seq)
        assert bot.sessions.rescue() == 0


async def refused(t: Table, send: Callable[[], Awaitable[InteractionRecord]]) -> str:
    """Send a forged interaction; it must get an ephemeral answer and write nothing."""
    before = db_snapshot(t)
    rec = await send()
    await rec.settled()
    assert rec.original is not None and rec.original.ephemeral, rec.label
    assert db_snapshot(t) == before, rec.label
    return rec.original.text


@pytest.mark.parametrize(
    ("command", "options", "expected"),
    [
        ("bot", {"variant": "pepper"}, "not a variant here"),
        ("bot", {"level": "godlike"}, "not a level here"),
        ("bot", {"target": 7}, "not a target here"),
        ("bot", {"target": 10**30}, "not a target here"),
        ("bot", {"variant": "tuque61", "target": 5}, "Tuque to 61 has no target to choose"),
        ("challenge", {"variant": "pepper"}, "not a variant here"),
        ("challenge", {"target": -1}, "not a target here"),
        ("leaderboard", {"variant": "xyz"}, "not a variant here"),
        ("stats", {"variant": 5}, "not a variant here"),
        ("rules", {"variant": "pepper"}, "not a variant here"),
    ],
)
async def test_forged_options_are_refused_and_write_nothing(
    table: Table, command: str, options: dict[str, Any], expected: str
) -> None:
    """Option values Discord's own client never sends (a modified client): a clear
    ephemeral answer, nothing written, no traceback."""
    t = table
    if command == "challenge":
        options = {"opponent": t.bob, **options}
    async with running_bot(t):
        text = await refused(
            t, lambda: t.double.forge_slash(t.ann, t.channel, "tuque", command, **options)
        )
    assert expected in text


async def test_a_servers_commands_from_direct_messages_are_refused(table: Table) -> None:
    """A server's /tuque command sent from a DM says where it works and writes nothing
    (games in DMs: tests/bot/test_private_games.py)."""
    t = table
    async with running_bot(t):
        for command in ("leaderboard", "stats"):
            text = await refused(
                t, lambda c=command: t.double.forge_slash(t.ann, t.channel, "tuque", c, dm=True)
            )
            assert "needs a server's channel" in text


async def test_forged_custom_ids_are_explained(table: Table) -> None:
    """Custom_ids with out-of-range or malformed numbers, unknown names, or games that never
    existed: an ephemeral explanation each, and nothing written."""
    t = table
    async with running_bot(t) as bot:
        game_id = await challenge_and_accept(t, target=5)
        await opened(t, bot, game_id)
        message = table_message(t)
        bad_button = "isn't one this bot made"
        cases = {
            f"tuque:challenge:{10**30}:accept": bad_button,
            "tuque:challenge:0:accept": bad_button,
            "tuque:challenge:999:maybe": bad_button,
            "tuque:lb:xyz:0": bad_button,
            "tuque:act:abc:0:1": bad_button,
            f"tuque:act:{game_id}:{10**20}:1": bad_button,
            f"tuque:act:{game_id}:0:{10**6}": "you're not in this game",
            f"tuque:hand:{10**25}": bad_button,
            "tuque:hand:1001": "There is no game #1001.",
            "tuque:act:1001:0:1": "There is no game #1001.",
            "tuque:resign:1001": "There is no game #1001.",
            "tuque:": bad_button,
            "tuque:new-feature:1": bad_button,
            "tuque:challenge:999:accept": "no longer exists",
        }
        for custom_id, expected in cases.items():
            text = await refused(t, lambda c=custom_id: t.double.forge_click(t.eve, message, c))
            assert expected in text, (custom_id, text)
        forged_action = f"tuque:act:{game_id}:0:{10**6}"
        text = await refused(t, lambda: t.double.forge_click(t.ann, message, forged_action))
        assert text == "That button isn't an action of this game."
        assert bot.sessions.session(game_id) is not None


async def test_a_finished_game_says_it_is_over(table: Table) -> None:
    """A click on a game that ended says so (not "no such game")."""
    t = table
    async with running_bot(t):
        game_id = await challenge_and_accept(t, target=5)
        rec = await t.double.slash(t.ann, t.channel, "tuque", "resign")
        await rec.settled()
        assert rec.original is not None
        confirm = next(b.custom_id for b in rec.original.buttons if b.custom_id)
        await (await t.double.click(t.ann, rec.original, confirm)).settled()
        text = await refused(
            t, lambda: t.double.forge_click(t.bob, table_message(t), f"tuque:hand:{game_id}")
        )
    assert text == f"Game #{game_id} is over."
