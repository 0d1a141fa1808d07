"""End to end: the play aids of a member's table — auto-play of forced moves, hints,
rematch and replays — through the real discord.py client and the Discord double."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from typing import Any

from e2e import (
    Table,
    action_buttons,
    assert_refused,
    game_posts,
    latest_post,
    newest_hand,
    play_turn,
    running_bot,
    started_game,
)
from finish import finish_game

from bot.client import TuqueBot
from bot.store import GameStatus, SeatRow
from engine.game import Game
from tests.discord_double import StoredMessage
from tests.discord_double.models import User

PLAYED_FOR_YOU = re.compile(
    r"Played for you, your only choice: |Your last card was played for you\."
)


def _told(t: Table, user: User, text: re.Pattern[str]) -> bool:
    """Whether any version of ``user``'s ephemerals ever said ``text``."""
    return any(
        text.search(json.dumps([version.embeds, version.components], ensure_ascii=False))
        for message in t.double.ephemerals_for(user)
        for version in (*message.history, message.snapshot())
    )


async def _bot_game(t: Table, bot: TuqueBot, variant: str = "euchre", **options: object) -> int:
    rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", variant=variant, **options)
    await rec.settled()
    assert rec.original is not None and rec.original.ephemeral, rec.original
    return int(re.search(r"#(\d+)", rec.original.text).group(1))  # type: ignore[union-attr]


def _in_last_trick(bot: TuqueBot, game_id: int) -> bool:
    session = bot.sessions.session(game_id)
    assert session is not None
    game = session.game
    return len(game.view(None).tricks) == game.variant.tricks - 1


async def _next_move(t: Table, bot: TuqueBot, game_id: int) -> None:
    """Wait for the game's next move (or its end), then for Discord to settle."""
    session = bot.sessions.session(game_id)
    assert session is not None
    seq = len(session.game.log)
    await t.double.wait_until(lambda: session.finished or len(session.game.log) > seq, timeout=5)
    await t.double.idle()


async def _ann_plays(
    t: Table, bot: TuqueBot, game_id: int, *, last_trick: bool, hands: int = 2
) -> None:
    """Ann clicks her turns for ``hands`` hands (or to the game's end); in the last trick
    of a hand only if ``last_trick``, else she waits for her card to be played for her."""
    rng = random.Random(5)
    while (session := bot.sessions.session(game_id)) is not None and session.game.hand_no <= hands:
        if session.game.turn == 0 and (last_trick or not _in_last_trick(bot, game_id)):
            await play_turn(t, bot, game_id, rng)
        else:
            await _next_move(t, bot, game_id)


async def test_the_last_card_of_a_hand_is_played_for_a_member_by_default(table: Table) -> None:
    """Auto-play is on for the last trick by default: Ann never clicks her last card, the
    game goes on, and her hand view says what was played for her."""
    t = table
    async with running_bot(t) as bot:
        game_id = await _bot_game(t, bot, target=10)
        await _ann_plays(t, bot, game_id, last_trick=False)
        session = bot.sessions.session(game_id)
        assert session is None or session.game.hand_no > 2
    assert _told(t, t.ann, PLAYED_FOR_YOU), "Ann was never told what was played for her"


async def test_a_member_who_turns_auto_play_off_clicks_every_card(table: Table) -> None:
    """``/tuque autoplay off``: the last trick waits for Ann's click."""
    t = table
    async with running_bot(t) as bot:
        rec = await t.double.slash(t.ann, t.channel, "tuque", "autoplay", when="off")
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert "Nothing is played for you" in rec.original.text
        game_id = await _bot_game(t, bot, target=10)
        rng = random.Random(3)
        waited = False
        while (session := bot.sessions.session(game_id)) is not None and session.game.hand_no == 1:
            if session.game.turn == 0:
                if _in_last_trick(bot, game_id) and not waited:
                    seq = len(session.game.log)
                    await t.double.idle(quiet=0.2)
                    assert len(session.game.log) == seq, "a card was played for Ann"
                    waited = True
                await play_turn(t, bot, game_id, rng)
            else:
                await _next_move(t, bot, game_id)
    assert not _told(t, t.ann, PLAYED_FOR_YOU)


async def test_an_unknown_auto_play_choice_is_refused(table: Table) -> None:
    """A forged choice is refused ephemerally and stores nothing."""
    t = table
    async with running_bot(t) as bot:
        rec = await t.double.forge_slash(t.ann, t.channel, "tuque", "autoplay", when="sometimes")
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert "That is not a choice here: choose `off`, `last`, `forced`." in rec.original.text
        assert await bot.store.autoplay_of([t.ann.id]) == {t.ann.id: "last"}


def _hint_button(message: StoredMessage) -> str | None:
    return next(
        (
            b.custom_id
            for b in message.buttons
            if b.custom_id and b.custom_id.startswith("tuque:hint:")
        ),
        None,
    )


async def _ann_to_act_with_a_choice(t: Table, bot: TuqueBot, game_id: int) -> StoredMessage:
    """Wait (clicking Ann's turns with one legal action) until Ann must choose among
    several actions; return her hand message then."""
    rng = random.Random(1)
    while True:
        session = bot.sessions.session(game_id)
        assert session is not None
        if session.game.turn == 0 and len(session.game.legal_actions(0)) > 1:
            await t.double.idle()
            hand = newest_hand(t, t.ann)
            if hand is not None and f":{len(session.game.log)}:" in action_buttons(hand)[0]:
                return hand
        if session.game.turn == 0:
            await play_turn(t, bot, game_id, rng)
        else:
            await _next_move(t, bot, game_id)


async def _forged(t: Table, user: User, custom_id: str, message: StoredMessage) -> Any:
    """A click Discord's own client would not send now: ``custom_id`` no longer on the
    message, or on a message ``user`` cannot see (a modified client)."""
    data = {"custom_id": custom_id, "component_type": 2}
    return await t.double._dispatch_interaction(3, user, t.channel, data, message, "forged click")


def _hints_taken(t: Table, game_id: int) -> list[int]:
    with sqlite3.connect(t.db) as db:
        return [
            h
            for (h,) in db.execute(
                "SELECT hints FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]


async def test_a_hint_shows_the_hard_computers_choice_to_the_member_only(table: Table) -> None:
    """On her turn Ann's hand has a Hint button; it redraws that message, to her only,
    with one of her legal actions marked and said in words, and the game counts the
    hint. A stranger's click, and a click from an earlier turn, are refused and change
    nothing."""
    t = table
    async with running_bot(t) as bot:
        game_id = await _bot_game(t, bot, target=10)
        hand = await _ann_to_act_with_a_choice(t, bot, game_id)
        hint = _hint_button(hand)
        assert hint is not None
        labels = {
            b.label for b in hand.buttons if b.custom_id and b.custom_id.startswith("tuque:act:")
        }
        text = await assert_refused(t, bot, game_id, lambda: _forged(t, t.eve, hint, hand))
        assert "not in this game" in text
        rec = await t.double.click(t.ann, hand, hint)
        await rec.settled()
        answer = t.double.message(hand.id)
        assert answer.ephemeral and not rec.followups
        line = next(line for line in answer.text.split("\n") if "**Hint:**" in line)
        assert any(line.startswith(f"💡 **Hint:** {label}") for label in labels), line
        assert _hints_taken(t, game_id) == [1, 0, 0, 0]
        # Asking again this turn repeats the answer: no second search, no second count.
        again_rec = await t.double.click(t.ann, answer, hint)
        await again_rec.settled()
        assert t.double.message(hand.id).text == answer.text
        assert _hints_taken(t, game_id) == [1, 0, 0, 0]
        # Ann opens her hand again (a second message) and plays from it: the first
        # message's Hint is from an earlier turn now.
        again = await t.double.slash(t.ann, t.channel, "tuque", "hand")
        await again.settled()
        assert again.original is not None
        assert line in again.original.text  # the hint stays with the turn
        await (
            await t.double.click(t.ann, again.original, action_buttons(again.original)[0])
        ).settled()
        await t.double.idle()
        # The first message was replaced (its controls gone); a client still showing
        # its Hint is refused.
        assert _hint_button(t.double.message(hand.id)) is None
        text = await assert_refused(
            t, bot, game_id, lambda: t.double.forge_click(t.ann, hand, hint)
        )
        assert "replaced by a newer one" in text
        assert _hints_taken(t, game_id) == [1, 0, 0, 0]
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT COUNT(*) FROM seats WHERE hints > 0").fetchone() == (1,)


async def test_a_rated_game_offers_no_hint(table: Table) -> None:
    """Between members only (rated), hints are off by default: no Hint button."""
    t = table
    async with running_bot(t) as bot:
        game_id, to_act, _ = await started_game(t, bot)
        hand = newest_hand(t, to_act)
        assert hand is not None and action_buttons(hand) and _hint_button(hand) is None
        session = bot.sessions.session(game_id)
        assert session is not None and not bot.sessions.hints_on(session)


async def _resign(t: Table, user: User) -> None:
    rec = await t.double.slash(user, t.channel, "tuque", "resign")
    await rec.settled()
    assert rec.original is not None
    await (await t.double.click(user, rec.original, rec.original.buttons[0].custom_id)).settled()  # type: ignore[arg-type]
    await t.double.idle()


def _game_over(t: Table) -> StoredMessage:
    """The newest post of a game's result with its Rematch (the table says "Game over"
    too, and its first post may come after the result's when the game ends at once)."""
    return _game_overs(t)[-1]


def _rematch_button(message: StoredMessage) -> str:
    found = next(b.custom_id for b in message.buttons if b.label == "Rematch")
    assert found is not None
    return found


async def test_rematch_against_the_computer_starts_at_once(table: Table) -> None:
    """Ann resigns her game against the computers; Rematch on the game-over message
    deals a new game of the same variant, options and seats, her hand the answer."""
    t = table
    async with running_bot(t) as bot:
        first = await _bot_game(t, bot, target=7, level="easy")
        await _resign(t, t.ann)
        over = _game_over(t)
        rematch = _rematch_button(over)
        rec = await t.double.click(t.ann, over, rematch)
        await rec.settled()
        answer = rec.followups[-1] if rec.followups else rec.original
        second = bot.sessions.games_of(t.guild.id, t.channel.id, t.ann.id)[0]
        assert (
            answer is not None and answer.ephemeral and f"Game #{second.id} · hand" in answer.text
        )
        # A second Rematch of the same game deals no third game. (Once the computers
        # have moved: a move of theirs during the click would change the database.)
        await t.double.wait_until(lambda: not second.table.bot_to_move, timeout=30)
        await t.double.idle()
        text = await assert_refused(
            t, bot, second.id, lambda: t.double.forge_click(t.ann, over, rematch)
        )
        assert f"This game's rematch is game #{second.id}." in text
        assert len(bot.sessions.games_of(t.guild.id, t.channel.id, t.ann.id)) == 1
        assert f"Game #{second.id} ·" in answer.text
        assert second.id != first and second.game.variant.name == "euchre"
        assert second.game.to_record()["options"]["target"] == 7
        assert [(s.user_id, s.level) for s in second.rows] == [
            (t.ann.id, None),
            (None, "easy"),
            (None, "easy"),
            (None, "easy"),
        ]


async def test_rematch_between_members_waits_for_every_member(table: Table) -> None:
    """After a challenge game, Bob asks for a rematch: an invitation names Ann; Eve's
    Rematch is refused, Bob's second one is told to wait; Ann's Rematch starts the game
    with the same seats."""
    t = table
    async with running_bot(t) as bot:
        first, _, _ = await started_game(t, bot)
        old_seats = [s.user_id for s in bot.sessions.session(first).rows]  # type: ignore[union-attr]
        await _resign(t, t.ann)
        over = _game_over(t)
        rematch = _rematch_button(over)
        rec = await t.double.click(t.bob, over, rematch)
        await rec.settled()
        await t.double.idle()
        invitation = latest_post(t)
        assert f"<@{t.ann.id}>" in invitation.text and "rematch" in invitation.text
        assert bot.sessions.games_of(t.guild.id, t.channel.id, t.bob.id) == []
        text = await assert_refused(t, bot, first, lambda: t.double.click(t.eve, over, rematch))
        assert "Only the players" in text
        text = await assert_refused(t, bot, first, lambda: t.double.click(t.bob, over, rematch))
        assert "waiting for" in text
        await (await t.double.click(t.ann, over, rematch)).settled()
        await t.double.idle()
        games = bot.sessions.games_of(t.guild.id, t.channel.id, t.ann.id)
        assert len(games) == 1 and games[0].id != first
        assert [s.user_id for s in games[0].rows] == old_seats


async def test_a_finished_game_replays_with_every_hand_and_a_record_that_rebuilds_it(
    table: Table,
) -> None:
    """``/tuque replay`` of a finished game posts its summary with two files: the record
    (which rebuilds the game) and the hand-by-hand story with every seat's dealt cards.
    A game still being played, a game of another server and an unknown number are
    refused ephemerally and post nothing."""
    t = table
    async with running_bot(t) as bot:
        running, _, _ = await started_game(t, bot)
        session = bot.sessions.session(running)
        assert session is not None
        dealt = session.game.hand_of(0)
        before = len(game_posts(t))
        for game, expected in ((running, "still being played"), (running + 5, "no game #")):
            rec = await t.double.slash(t.eve, t.channel, "tuque", "replay", game=game)
            await rec.settled()
            assert rec.original is not None and rec.original.ephemeral
            assert expected in rec.original.text
            assert not any(c.pretty() in rec.original.text for c in dealt)
        assert len(game_posts(t)) == before
        await _resign(t, t.ann)
        rec = await t.double.slash(t.eve, t.channel, "tuque", "replay", game=running)
        await rec.settled()
        post = rec.original
        assert post is not None and not post.ephemeral
        assert f"Replay of game #{running}" in post.text and "resignation" in post.text
        files = {a["filename"]: a for a in post.attachments}
        assert set(files) == {f"game-{running}.json", f"game-{running}.txt"}
        record = json.loads(t.double.attachment_bytes(files[f"game-{running}.json"]))
        rebuilt = Game.from_record(record)
        assert rebuilt.log == session.game.log
        story = t.double.attachment_bytes(files[f"game-{running}.txt"]).decode()
        assert story.startswith("Tuque: ann vs bob") or story.startswith("Tuque: bob vs ann")
        first_deal = story.split("\n\n")[1]
        assert "Hand 1 · dealer" in first_deal
        assert all(c.pretty() in first_deal for c in dealt)
        # A finished game of another server is not this server's to show.
        seats = [SeatRow.human(0, 7, "Zed"), SeatRow.computer(1, "easy")]
        elsewhere = await bot.store.create_game(99, 98, "tuque", {}, 1, 0, seats, ["deal"])
        await finish_game(bot.store, elsewhere, GameStatus.RESIGNED, 1, {0: 0, 1: 0})
        rec = await t.double.slash(t.eve, t.channel, "tuque", "replay", game=elsewhere)
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert f"There is no game #{elsewhere} on this server." in rec.original.text


def _game_overs(t: Table) -> list[StoredMessage]:
    """The posts of a game's result with their Rematch: in its thread, then in the channel."""
    return [m for m in game_posts(t) if any(b.label == "Rematch" for b in m.buttons)]


def _buttons(t: Table, message: StoredMessage) -> list[tuple[str | None, bool]]:
    """The labels of ``message``'s buttons as Discord shows them now, and whether each
    is disabled."""
    return [(b.label, b.disabled) for b in t.double.message(message.id).buttons]


async def test_a_started_rematch_takes_the_rematch_buttons_away(table: Table) -> None:
    """Issue 33: once Ann's rematch against the computers starts, both posts of the first
    game's result (in its thread and in the channel) show a disabled "Rematch started ·
    game #N" instead of Rematch; a stale Rematch click is still refused, naming it."""
    t = table
    async with running_bot(t) as bot:
        await _bot_game(t, bot, level="easy")
        await _resign(t, t.ann)
        overs = _game_overs(t)
        assert len(overs) == 2 and overs[0].channel is not overs[1].channel
        rematch = _rematch_button(overs[1])
        await (await t.double.click(t.ann, overs[1], rematch)).settled()
        [second] = bot.sessions.games_of(t.guild.id, None, t.ann.id)
        await t.double.wait_until(lambda: not second.table.bot_to_move, timeout=30)
        await t.double.idle()
        started = [(f"Rematch started · game #{second.id}", True)]
        assert [_buttons(t, over) for over in overs] == [started, started]
        text = await assert_refused(
            t, bot, second.id, lambda: t.double.forge_click(t.ann, overs[0], rematch)
        )
        assert f"This game's rematch is game #{second.id}." in text


async def test_after_a_restart_a_rematch_still_retires_the_buttons_an_old_post_keeps_its(
    table: Table,
) -> None:
    """Issue 33 after a restart: the game ended before it, so the bot knows its game-over
    posts from the store only. The channel's copy is an hour old and its channel has
    used its edits of old messages (Discord's 30046): the rematch starts all the same,
    Ann gets her hand, the thread's post loses its Rematch, and the channel's Rematch
    stays but is refused, naming the rematch."""
    t = table
    async with running_bot(t) as bot:
        await _bot_game(t, bot, level="easy")
        await _resign(t, t.ann)
    thread_post, channel_post = _game_overs(t)
    t.double.age_message(channel_post, 3601)
    assert t.double.limiter is not None
    while t.double.limiter.old_edit(t.channel.id) is None:
        pass  # the channel's edits of old messages this hour, spent elsewhere
    async with running_bot(t) as bot:
        rematch = _rematch_button(thread_post)
        rec = await t.double.click(t.ann, thread_post, rematch)
        await rec.settled()
        [second] = bot.sessions.games_of(t.guild.id, None, t.ann.id)
        answer = rec.followups[-1] if rec.followups else rec.original
        assert answer is not None and f"Game #{second.id} · hand" in answer.text
        await t.double.wait_until(lambda: not second.table.bot_to_move, timeout=30)
        await t.double.idle()
        assert _buttons(t, thread_post) == [(f"Rematch started · game #{second.id}", True)]
        assert _buttons(t, channel_post) == [("Rematch", False)]
        assert any(r.scope == "30046" for r in t.double.rate_limited)
        text = await assert_refused(
            t, bot, second.id, lambda: t.double.click(t.ann, channel_post, rematch)
        )
        assert f"This game's rematch is game #{second.id}." in text
