"""End to end: the real TuqueBot on discord.py, talking to the loopback Discord double.

Scripted members challenge, bid and play whole games by clicking the buttons they
can see; the tests then read the channel, each member's ephemerals and the SQLite file.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sqlite3
import time
from typing import Any

import pytest
from e2e import (
    Table,
    action_buttons,
    assert_nothing_hidden_shown,
    assert_refused,
    challenge_and_accept,
    db_snapshot,
    dealt_from,
    game_posts,
    latest_post,
    newest_hand,
    play_turn,
    running_bot,
    send_challenge,
    started_game,
    table_message,
)

from engine.game import Game
from tests.discord_double.server import MESSAGE_COMPONENT


async def test_challenge_accept_and_play_a_whole_game(table: Table) -> None:
    """Two members play a whole game: table, hand summaries, result, leaderboard rows."""
    t = table
    rng = random.Random(1)
    async with running_bot(t) as bot:
        game_id = await challenge_and_accept(t, target=5)
        assert newest_hand(t, t.ann) or newest_hand(t, t.bob)
        while await play_turn(t, bot, game_id, rng):
            pass
        texts = [m.text for m in game_posts(t)]
    assert any("Game over" in text for text in texts)
    assert any("Hand 1 result" in text for text in texts)
    assert sum("Show my hand" in str(m.buttons) for m in game_posts(t)) == 0
    with sqlite3.connect(t.db) as db:
        status, winner = db.execute(
            "SELECT status, winner_seat FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        results = db.execute("SELECT outcome FROM results WHERE game_id = ?", (game_id,)).fetchall()
        ratings = db.execute("SELECT user_id, wins, losses FROM ratings").fetchall()
        actions = [a for (a,) in db.execute("SELECT action FROM game_actions ORDER BY seq")]
    assert status == "finished" and winner is not None
    assert sorted(o for (o,) in results) == ["loss", "win"]
    assert sorted((wins, losses) for _, wins, losses in ratings) == [(0, 1), (1, 0)]
    record = {
        "format": "tuque-game",
        "version": 1,
        "variant": "tuque",
        "options": {"target": 5},
        "first_dealer": None,
        "seed": None,
        "actions": actions,
    }
    with sqlite3.connect(t.db) as db:
        record["seed"], record["first_dealer"] = db.execute(
            "SELECT seed, first_dealer FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    rebuilt = Game.from_record(record)
    assert rebuilt.winner is not None and max(rebuilt.scores) >= 5


async def test_play_a_whole_game_against_the_computer(table: Table) -> None:
    """/tuque bot starts at once and the member plays it to the end against the computer."""
    t = table
    rng = random.Random(2)
    async with running_bot(t) as bot:
        rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", target=5)
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        game_id = int(re.search(r"#(\d+)", rec.original.text).group(1))  # type: ignore[union-attr]
        while (session := bot.sessions.session(game_id)) is not None:
            if session.game.turn == 0:
                await play_turn(t, bot, game_id, rng)
            else:
                await t.double.wait_until(
                    lambda s=session: s.finished or s.game.turn == 0, timeout=5
                )
                await t.double.idle()
    with sqlite3.connect(t.db) as db:
        vs_computer = db.execute(
            "SELECT vs_computer FROM results WHERE game_id = ? AND seat = 0", (game_id,)
        ).fetchone()
        ratings = db.execute("SELECT COUNT(*) FROM ratings").fetchone()
    assert vs_computer == (1,)
    assert ratings == (0,)
    assert any("Game over" in m.text for m in game_posts(t))


async def test_a_stranger_cannot_accept_a_challenge(table: Table) -> None:
    """Only the challenged member may accept; the challenger and strangers are told so."""
    t = table
    async with running_bot(t):
        invite, accept = await send_challenge(t)
        before = db_snapshot(t)
        for user in (t.eve, t.ann):
            rec = await t.double.click(user, invite, accept)
            await rec.settled()
            assert rec.original is not None and rec.original.ephemeral
            assert "can't answer" in rec.original.text
        assert db_snapshot(t) == before


async def test_bad_clicks_get_an_explanation_and_change_nothing(table: Table) -> None:
    """Out of turn, double click, stale button, stranger's card: explained, nothing changes."""
    t = table
    async with running_bot(t) as bot:
        game_id, to_act, waiting = await started_game(t, bot)
        hand = newest_hand(t, to_act)
        assert hand is not None
        first = action_buttons(hand)[0]

        # A stranger forging a click on a player's card.
        async def stranger() -> Any:
            data = {"custom_id": first, "component_type": 2}
            return await t.double._dispatch_interaction(
                MESSAGE_COMPONENT, t.eve, t.channel, data, hand, "forged click"
            )

        text = await assert_refused(t, bot, game_id, stranger)
        assert "not in this game" in text

        # The waiting player has no buttons; their "Show my hand" gives none either.
        show = next(b.custom_id for b in table_message(t).buttons if b.label == "Show my hand")
        rec = await t.double.click(waiting, table_message(t), show)  # type: ignore[arg-type]
        await rec.settled()
        assert rec.original is not None and not action_buttons(rec.original)

        # A double click: the first applies, the second is stale.
        one, two = await asyncio.gather(
            t.double.click(to_act, hand, first), t.double.click(to_act, hand, first)
        )
        await one.settled()
        await two.settled()
        refusals = [
            r
            for r in (one, two)
            if r.original is not None and r.original.ephemeral and r.response_type == 4
        ]
        assert len(refusals) == 1
        assert "earlier turn" in refusals[0].original.text  # type: ignore[union-attr]


async def test_stale_button_from_an_earlier_trick(table: Table) -> None:
    """A button left on an old hand message is refused once play has moved on."""
    t = table
    rng = random.Random(5)
    async with running_bot(t) as bot:
        game_id, to_act, _ = await started_game(t, bot)
        old_hand = newest_hand(t, to_act)
        assert old_hand is not None
        old_button = action_buttons(old_hand)[0]
        old_snapshot = list(old_hand.components)
        # Play on until the old member has seen a fresh hand message of their own.
        for _ in range(6):
            await play_turn(t, bot, game_id, rng)
        # Show my hand gives a new message; the old one keeps its old components on screen.
        old_hand.components = old_snapshot
        text = await assert_refused(
            t, bot, game_id, lambda: t.double.click(to_act, old_hand, old_button)
        )
        assert "earlier turn" in text


async def test_resign_ends_the_game_as_a_loss(table: Table) -> None:
    """/tuque resign asks to confirm; confirming records a loss and announces it."""
    t = table
    async with running_bot(t) as bot:
        game_id, _, waiting = await started_game(t, bot)
        rec = await t.double.slash(waiting, t.channel, "tuque", "resign")
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        confirm = rec.original.buttons[0].custom_id
        # A stranger has no game here to resign.
        other = await t.double.slash(t.eve, t.channel, "tuque", "resign")
        await other.settled()
        assert "no game" in other.original.text  # type: ignore[union-attr]
        await (await t.double.click(waiting, rec.original, confirm)).settled()  # type: ignore[arg-type]
        assert bot.sessions.session(game_id) is None
        assert any("resigned" in m.text for m in game_posts(t))
    with sqlite3.connect(t.db) as db:
        status = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        loser = db.execute(
            "SELECT user_id FROM results WHERE game_id = ? AND outcome = 'loss'", (game_id,)
        ).fetchone()
    assert status == ("resigned",)
    assert loser == (waiting.id,)


async def test_bad_commands_are_explained(table: Table) -> None:
    """Challenging yourself, a bot, someone you already play, or tuque61 to 5: refused."""
    t = table
    robot = t.double.add_user("robot", guild=t.guild, bot=True)
    async with running_bot(t) as bot:
        await started_game(t, bot)
        cases = [
            (t.ann, {"opponent": t.ann}, "yourself"),
            (t.ann, {"opponent": robot}, "bot"),
            (t.ann, {"opponent": t.bob}, "already playing"),
            (t.eve, {"opponent": t.ann, "variant": "tuque61", "target": 5}, "61"),
        ]
        for user, options, expected in cases:
            before = db_snapshot(t)
            rec = await t.double.slash(user, t.channel, "tuque", "challenge", **options)
            await rec.settled()
            assert rec.original is not None and rec.original.ephemeral
            assert expected in rec.original.text
            assert db_snapshot(t) == before
        rec = await t.double.slash(t.eve, t.channel, "tuque", "hand")
        await rec.settled()
        assert "no game" in rec.original.text  # type: ignore[union-attr]


async def test_restart_mid_game_and_finish_with_the_old_buttons(table: Table) -> None:
    """A fresh bot on the same database restores the game; old buttons keep working."""
    t = table
    rng = random.Random(3)
    async with running_bot(t) as bot:
        game_id = await challenge_and_accept(t, target=5)
        for _ in range(10):
            await play_turn(t, bot, game_id, rng)
        before = bot.sessions.session(game_id).game.to_record()  # type: ignore[union-attr]
    async with running_bot(t) as bot:
        restored = bot.sessions.session(game_id)
        assert restored is not None and restored.game.to_record() == before
        # The member to act clicks a button of the message the old bot sent.
        seat = restored.game.turn
        user = t.ann if restored.table.seats[seat].member == t.ann.id else t.bob  # type: ignore[index]
        message = newest_hand(t, user)
        assert message is not None
        seq = len(restored.game.log)
        button = next(b for b in action_buttons(message) if f":{seq}:" in b)
        await (await t.double.click(user, message, button)).settled()
        assert len(bot.sessions.session(game_id).game.log) > seq  # type: ignore[union-attr]
        while await play_turn(t, bot, game_id, rng):
            pass
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone() == (
            "finished",
        )


async def test_a_stored_game_that_no_longer_replays_ends_and_the_others_are_restored(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """A game whose log a rules fix made illegal (here, a move appended by hand) cannot
    stop the bot from starting: it ends without a result, its channel is told, and the
    other games come back."""
    t = table
    async with running_bot(t) as bot:
        for _ in range(2):
            await (await t.double.slash(t.ann, t.channel, "tuque", "bot")).settled()
        broken, kept = sorted(s.id for s in bot.sessions.games_of(t.guild.id, None, t.ann.id))
    with sqlite3.connect(t.db) as db:
        (last,) = db.execute("SELECT MAX(seq) FROM game_actions WHERE game_id = ?", (broken,))
        db.execute(
            "INSERT INTO game_actions (game_id, seq, action) VALUES (?, ?, 'deal')",
            (broken, last[0] + 1),
        )
    caplog.set_level(logging.ERROR, logger="bot")
    async with running_bot(t) as bot:
        assert bot.sessions.session(broken) is None and bot.sessions.session(kept) is not None
        await t.double.idle()
        # In the game's channel, beside the other game's posts (its ping, say).
        notices = [m for m in t.double.channel_messages(t.channel) if "cannot go on" in m.text]
        assert [f"Game #{broken} cannot go on" in m.text for m in notices] == [True]
    with sqlite3.connect(t.db) as db:
        status = db.execute("SELECT id, status FROM games ORDER BY id").fetchall()
        assert status == [(broken, "abandoned"), (kept, "active")]
        assert db.execute("SELECT COUNT(*) FROM results").fetchone() == (0,)
    assert [r.getMessage() for r in caplog.records if "no longer replays" in r.getMessage()] == [
        f"game {broken} no longer replays (RecordError): ended without a result"
    ]
    t.double.check()


async def test_nothing_public_shows_a_hidden_card(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kitty and discards never reach a public message, a custom_id or a log line."""
    t = table
    # A deal in which a dealer takes the up-card up and discards: the check needs one.
    dealt_from(monkeypatch, 1)
    rng = random.Random(4)
    caplog.set_level(logging.DEBUG, logger="bot")
    async with running_bot(t) as bot:
        game_id = await challenge_and_accept(t, target=5)
        while await play_turn(t, bot, game_id, rng):
            pass
    assert_nothing_hidden_shown(t, game_id, caplog.records, {0: t.ann, 1: t.bob})


async def test_turn_timer_reminds_then_the_computer_plays_then_the_side_forfeits(
    table: Table,
) -> None:
    """docs/rulings.md R9: after N minutes the player to act is reminded; after 2N the
    computer plays their cards for the rest of the hand; not back by its end, their side
    forfeits (the one other member is their opponent, so the game does not go on)."""
    t = table
    rng = random.Random(9)
    async with running_bot(t) as bot:
        bot.get_cog("Games").sweeper.cancel()  # type: ignore[union-attr]  # the test sweeps
        game_id, to_act, other = await started_game(t, bot)
        session = bot.sessions.session(game_id)
        assert session is not None
        now = time.time()
        await bot.sessions.tick(300, 600, now=now + 301)
        await t.double.idle()
        reminder = latest_post(t)
        assert to_act.mention in reminder.content and "your turn" in reminder.content
        await bot.sessions.tick(300, 600, now=now + 302)
        await t.double.idle()
        assert latest_post(t).id == reminder.id, "reminded once only"
        hand_no = session.game.hand_no
        await bot.sessions.tick(300, 600, now=now + 601)
        await t.double.idle()
        assert any("is away" in m.text for m in game_posts(t))
        away = session.table.seat_of(to_act.id)
        while not session.finished:
            assert session.game.hand_no == hand_no, "the game ends with the hand"
            if session.game.turn == away:
                await t.double.wait_until(lambda: session.finished or session.game.turn != away)
                continue
            await play_turn(t, bot, game_id, rng)
        assert bot.sessions.session(game_id) is None
        await t.double.idle()
        assert "did not come back and forfeits" in latest_post(t).text
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT status FROM games").fetchone() == ("forfeited",)
        loser = db.execute("SELECT user_id FROM results WHERE outcome = 'loss'").fetchone()
    assert loser == (to_act.id,)
    assert other is not to_act


async def test_challenge_expires_after_ten_minutes(table: Table) -> None:
    """An unanswered challenge expires: its message says so and Accept no longer works."""
    t = table
    async with running_bot(t) as bot:
        invite, accept = await send_challenge(t)
        assert "expires" in invite.text
        await bot.get_cog("Lobbies").expire(now=time.time() + 601)  # type: ignore[union-attr]
        await t.double.idle()
        assert "expired" in t.double.message(invite.id).text
        invite.components = t.double.message(invite.id).history[0].components
        rec = await t.double.click(t.bob, invite, accept)
        await rec.settled()
        assert "expired" in rec.original.text  # type: ignore[union-attr]
        assert bot.sessions.games_of(t.guild.id, None, t.bob.id) == []


async def test_accept_after_expiry_before_the_sweep(table: Table) -> None:
    """Accept clicked past the expiry, before the timer sweep ran: refused, nothing written."""
    t = table
    async with running_bot(t) as bot:
        invite, accept = await send_challenge(t)
        with sqlite3.connect(t.db) as db:  # the clock runs out behind the bot's back
            db.execute(
                "UPDATE challenges SET created_at = created_at - 700, expires_at = ?",
                (time.time() - 1,),
            )
        before = db_snapshot(t)
        rec = await t.double.click(t.bob, invite, accept)
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert "expired" in rec.original.text
        assert bot.sessions.games_of(t.guild.id, None, t.bob.id) == []
        assert db_snapshot(t) == before


async def test_leaderboard_stats_and_rules(table: Table) -> None:
    """After a rated game the leaderboard ranks both members; stats and rules answer."""
    t = table
    rng = random.Random(6)
    async with running_bot(t) as bot:
        game_id = await challenge_and_accept(t, target=5)
        while await play_turn(t, bot, game_id, rng):
            pass
        board = await t.double.slash(t.eve, t.channel, "tuque", "leaderboard")
        await board.settled()
        assert board.original is not None and not board.original.ephemeral
        assert "ann" in board.original.text and "bob" in board.original.text
        assert "1 won · 0 lost" in board.original.text
        assert "0 won · 1 lost" in board.original.text
        stats = await t.double.slash(t.eve, t.channel, "tuque", "stats", member=t.ann)
        await stats.settled()
        assert "ann's record" in stats.original.text  # type: ignore[union-attr]
        assert "1 played" in stats.original.text  # type: ignore[union-attr]
        rules = await t.double.slash(t.eve, t.channel, "tuque", "rules", variant="tuque61")
        await rules.settled()
        assert rules.original is not None and rules.original.ephemeral
        assert "61" in rules.original.text
