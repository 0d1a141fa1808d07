"""End to end under faults: Discord answers 429s and 5xx, or drops the gateway, mid-game.

Each game is played to the end through the buttons while the double fails some of
every kind of call the bot makes. Then: the game is over in the database, each
applied click is one stored action, every hand result and the game over are
posted exactly once, the stored log replays, and no hidden card was shown.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import sqlite3
from types import SimpleNamespace
from typing import Any

import discord.http
import discord.webhook.async_
import pytest
from e2e import (
    Table,
    assert_nothing_hidden_shown,
    challenge_and_accept,
    dealt_from,
    game_posts,
    handling,
    play_turn,
    running_bot,
)

from bot import render, replies
from bot.client import TuqueBot
from bot.store import Autoplay
from engine.game import Game
from tests.discord_double import DiscordDouble, InteractionRecord
from tests.discord_double.ratelimits import TEST_SPEED
from tests.discord_double.server import Fault

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOW_UP = "POST /webhooks/{application_id}/{token}"
WEBHOOK_EDIT = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
CHANNEL_POST = "POST /channels/{channel_id}/messages"
CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"

FAULTS = {
    "429": {"status": 429},
    "global 429": {"status": 429, "global_": True},
    "500": {"status": 500},
    "503": {"status": 503},
}


def inject(double: DiscordDouble, routes: dict[str, int], fault: dict[str, Any]) -> list[Fault]:
    """Fail the next ``n`` requests of each route in ``routes`` with ``fault``."""
    return [double.fail(route, times=n, **fault) for route, n in routes.items()]


async def clicks_only(bot: TuqueBot, t: Table) -> None:
    """The members play every card themselves (no auto-play of their last card), so
    every member's action in the log is one of their clicks."""
    for member in (t.ann, t.bob):
        await bot.sessions.set_autoplay(member.id, Autoplay.OFF)


def applied(records: list[InteractionRecord]) -> int:
    """Clicks on action buttons that the bot applied: answered by updating the hand
    (a refusal is a new ephemeral message instead)."""
    return sum(
        1
        for r in records
        if str(r.data.get("custom_id", "")).startswith("tuque:act:") and r.response_type in (6, 7)
    )


def assert_game_whole(t: Table, game_id: int, human_seats: set[int], clicks: int) -> None:
    """The game is over, its log replays, each applied click is one stored action of a
    member, and each hand result and the game over were posted once."""
    with sqlite3.connect(t.db) as db:
        variant, options, seed, first_dealer, status = db.execute(
            "SELECT variant, options, seed, first_dealer, status FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        log = db.execute(
            "SELECT seq, action FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        hands = db.execute("SELECT COUNT(*) FROM hands WHERE game_id = ?", (game_id,)).fetchone()
    assert status == "finished"
    assert [seq for seq, _ in log] == list(range(len(log)))
    game = Game(variant, seed=seed, first_dealer=first_dealer, **json.loads(options))
    by_members = 0
    for _, entry in log:
        if not entry.startswith("deal "):
            by_members += game.turn in human_seats
        game.replay(entry)
    assert game.winner is not None
    assert by_members == clicks
    posts = [m.text for m in game_posts(t)]
    assert sum(bool(re.search(r"Hand \d+ result", p)) for p in posts) == hands[0]
    # The result is posted once in the channel, and once in the game's thread.
    places = [m.channel.id for m in game_posts(t) if "Game over" in m.text]
    assert sorted(places) == sorted({*places}) and t.channel.id in places


@pytest.fixture(autouse=True)
def quick_tries_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's pauses before it tries a failed call again, a tenth as long: what is
    tested here is that calls are tried again and land once, not how long the bot waits
    (the double's rate limits run at a test speed too)."""
    monkeypatch.setattr(replies, "RETRY_DELAYS", tuple(d / 10 for d in replies.RETRY_DELAYS))


@pytest.fixture(autouse=True)
def discord_py_waits_at_test_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py's own fixed waits at the double's test speed: its 1 + 2 × tries
    seconds before it sends a call again after a 5xx (bot REST and webhooks), and the 5 s
    before a new IDENTIFY. A 429's ``retry_after`` is the double's, already scaled, and
    is waited as given."""
    real_sleep = asyncio.sleep

    async def sleep(delay: float, result: Any = None) -> Any:
        # Only discord.py's backoffs are whole seconds: the double's waits are fractions.
        fixed = float(delay).is_integer() and delay >= 1
        return await real_sleep(delay * TEST_SPEED if fixed else delay, result)

    scaled = SimpleNamespace(**{**vars(asyncio), "sleep": sleep})
    for module in (discord.http, discord.webhook.async_):
        monkeypatch.setattr(module, "asyncio", scaled)

    async def before_identify_hook(self: TuqueBot, shard_id: int | None, *, initial: bool) -> None:
        if not initial:
            await real_sleep(5.0 * TEST_SPEED)

    monkeypatch.setattr(TuqueBot, "before_identify_hook", before_identify_hook)


@pytest.fixture(autouse=True)
def dealt_with_a_discard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game here is dealt from one seed, whose games have a dealer's discard for
    the hidden-card check to look for: with a seed drawn at random, a short game
    whose trump was always named in the second round has none."""
    # The sessions module's own: patched in ``secrets`` itself, it would give every
    # message discord.py sends one nonce, and Discord would take only the first.
    monkeypatch.setattr(
        "bot.sessions.manager.secrets", SimpleNamespace(randbits=lambda bits: 20261123)
    )


async def play_against_the_computer(t: Table, bot: TuqueBot, rng: random.Random) -> int:
    """Ann plays `/tuque bot` to 5 to the end; returns the game id."""
    rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", target=5)
    await rec.settled()
    game_id = int(re.search(r"#(\d+)", rec.original.text)[1])  # type: ignore[union-attr, index]
    while (session := bot.sessions.session(game_id)) is not None:
        if session.game.turn == 0:
            await play_turn(t, bot, game_id, rng)
        else:
            await t.double.wait_until(lambda s=session: s.finished or s.game.turn == 0, timeout=20)
    await t.double.wait_until(lambda: any("Game over" in m.text for m in public(t)), timeout=20)
    await t.double.idle(timeout=20)
    return game_id


def public(t: Table) -> list[Any]:
    return game_posts(t)


# discord.py tries a 500 again itself, after 1 s, then 3 s: the game between members
# meets it on every route this one does, and 500s are left to it.
AGAINST_THE_COMPUTER = {k: v for k, v in FAULTS.items() if k != "500"}
SEED_WITH_A_DISCARD = 1
"""A deal (``dealt_from``) whose game against the computer, Ann's moves drawn from
``random.Random(11)``, has a dealer's discard."""


@pytest.mark.parametrize("fault", AGAINST_THE_COMPUTER.values(), ids=AGAINST_THE_COMPUTER.keys())
async def test_a_game_against_the_computer_survives_faults(
    table: Table,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    fault: dict[str, Any],
) -> None:
    """Faults on the click's answer, the hand edits, the channel posts and the table
    edits: the game finishes and stays whole."""
    t = table
    # The same game every run, with a discard for the hidden-card check to look for (an
    # unseeded game to 5 can have none).
    dealt_from(monkeypatch, SEED_WITH_A_DISCARD)
    caplog.set_level(logging.DEBUG, logger="bot")
    faults = inject(
        t.double, {CALLBACK: 1, WEBHOOK_EDIT: 2, CHANNEL_POST: 2, CHANNEL_EDIT: 2}, fault
    )
    async with running_bot(t) as bot:
        await clicks_only(bot, t)
        game_id = await play_against_the_computer(t, bot, random.Random(11))
    assert [f.times for f in faults] == [0] * len(faults), "every fault was hit"
    assert_game_whole(t, game_id, {0}, applied(t.double.interactions))
    assert_nothing_hidden_shown(t, game_id, caplog.records, {0: t.ann})


@pytest.mark.parametrize("fault", FAULTS.values(), ids=FAULTS.keys())
async def test_a_game_between_members_survives_faults(
    table: Table,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    fault: dict[str, Any],
) -> None:
    """The same, with the follow-ups that bring both hands when a challenge is accepted."""
    t = table
    # The same game every run, one of the shortest to 5 (unseeded deals took up to twice
    # as long): it still meets every fault.
    dealt_from(monkeypatch, 2)
    caplog.set_level(logging.DEBUG, logger="bot")
    async with running_bot(t) as bot:
        await clicks_only(bot, t)
        faults = inject(
            t.double,
            {FOLLOW_UP: 1, CALLBACK: 1, WEBHOOK_EDIT: 2, CHANNEL_POST: 2, CHANNEL_EDIT: 2},
            fault,
        )
        game_id = await challenge_and_accept(t, target=5)
        rng = random.Random(12)
        while await play_turn(t, bot, game_id, rng):
            pass
        await t.double.wait_until(lambda: any("Game over" in m.text for m in public(t)), 20)
        await t.double.idle(timeout=20)
    assert [f.times for f in faults] == [0] * len(faults), "every fault was hit"
    assert_game_whole(t, game_id, {0, 1}, applied(t.double.interactions))
    assert_nothing_hidden_shown(t, game_id, caplog.records, {0: t.ann, 1: t.bob})


async def test_one_503_on_the_hand_result_post_does_not_hang_the_game(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """The harness's finding: a 503 on the first hand-result post used to skip the table
    edit, the hand refresh and the computer's move, leaving the game stuck."""
    t = table
    fault = t.double.fail(
        CHANNEL_POST, 503, match=lambda path, body: "result" in json.dumps(body or {})
    )
    async with running_bot(t) as bot:
        await clicks_only(bot, t)
        game_id = await play_against_the_computer(t, bot, random.Random(13))
    assert fault.hits == 1
    assert_game_whole(t, game_id, {0}, applied(t.double.interactions))


async def test_a_hand_result_post_that_always_fails_is_logged_once_and_skipped(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refusing one post for good: one warning naming the game, never a card, and
    the game still ends."""
    t = table
    t.double.fail(
        CHANNEL_POST, 503, times=4, match=lambda path, body: "Hand 1 result" in json.dumps(body)
    )
    caplog.set_level(logging.INFO, logger="bot")
    async with running_bot(t) as bot:
        await clicks_only(bot, t)
        game_id = await play_against_the_computer(t, bot, random.Random(14))
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [f"game {game_id}: hand result failed after 4 tries (503)"]
    assert not any("Hand 1 result" in m.text for m in public(t))
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT status FROM games").fetchone() == ("finished",)


@pytest.mark.parametrize("resumable", [True, False], ids=["resume", "reidentify"])
async def test_a_dropped_gateway_mid_game(table: Table, resumable: bool) -> None:
    """Discord drops the gateway mid-game; the bot reconnects and the game ends."""
    t = table
    rng = random.Random(15)
    async with running_bot(t) as bot:
        await clicks_only(bot, t)
        game_id = await challenge_and_accept(t, target=5)
        turns = 0
        while await play_turn(t, bot, game_id, rng):
            turns += 1
            if turns == 5:
                await t.double.disconnect_bot(resumable=resumable)
                await t.double.wait_until(lambda: bot.is_ready() and not bot.is_closed(), 10)
                await t.double.wait_until(lambda: any(s.open for s in t.double._sessions), 10)
    assert turns > 5
    assert_game_whole(t, game_id, {0, 1}, applied(t.double.interactions))


async def test_a_hand_result_that_cannot_be_drawn_is_skipped_and_the_game_goes_on(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the store write nothing can stop the game: a hand result whose embed raises
    (a rendering bug, like the one that drew five-seat Jackpot with four seats) is logged
    once per hand and skipped; the clicks are answered, the computer plays on, the game
    ends whole."""
    t = table
    caplog.set_level(logging.INFO, logger="bot")

    def broken(*_: object) -> None:
        raise RuntimeError("cannot draw this hand")

    monkeypatch.setattr(render, "hand_summary_embed", broken)
    async with running_bot(t) as bot:
        await clicks_only(bot, t)
        game_id = await play_against_the_computer(t, bot, random.Random(15))
    assert_game_whole_but_results(t, game_id)
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures and all(
        r.getMessage() == f"game {game_id}: the hand result could not be drawn" for r in failures
    )
    replies_failed = [i for i in t.double.interactions if "went wrong" in str(i.original)]
    assert not replies_failed, "a click after the commit was answered as a failure"


def assert_game_whole_but_results(t: Table, game_id: int) -> None:
    """The game finished in the store, with no hand-result post and one game-over post."""
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone() == (
            "finished",
        )
    assert not any(re.search(r"Hand \d+ result", m.text) for m in public(t))
    # The result is posted once in the channel, and once in the game's thread.
    places = [m.channel.id for m in public(t) if "Game over" in m.text]
    assert sorted(places) == sorted({*places}) and t.channel.id in places


# --- Discord did the post and lost its answer ------------------------------------------


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """``deliver``'s four tries within a fraction of a second."""
    monkeypatch.setattr(replies, "RETRY_DELAYS", (0.05, 0.05, 0.05))


def posted_as(t: Table, text: str) -> list[Any]:
    """The channel's messages whose first version (as posted, before any edit) holds
    ``text`` in its content, embeds or components."""
    found = []
    for message in public(t):
        first = message.history[0] if message.history else message.snapshot()
        if text in json.dumps([first.content, first.embeds, first.components]):
            found.append(message)
    return found


def assert_posts_carry_the_bots_nonces(t: Table) -> None:
    """Every channel post sent a nonce of ``replies.nonce`` with ``enforce_nonce``: not
    discord.py's default, a fresh random number in each try."""
    bodies = [r.body for r in t.double.requests if f"{r.method} {r.route}" == CHANNEL_POST]
    assert bodies
    for body in bodies:
        assert re.fullmatch(r"[a-z2-7]{24}", str(body.get("nonce"))), body.get("nonce")
        assert body.get("enforce_nonce") is True


@pytest.mark.parametrize("lost", [1, 3, 4])
async def test_a_hand_result_whose_answers_were_lost_is_posted_once(
    table: Table, quick_retries: None, lost: int
) -> None:
    """Discord posts "Hand 1 result" and its answer is lost ``lost`` times (a 503 after
    the write): every try sends the post's one nonce, so Discord returns the message it
    made, and the channel shows it once (it showed four after three lost answers)."""
    t = table
    fault = t.double.fail(
        CHANNEL_POST,
        503,
        times=lost,
        performed=True,
        match=lambda path, body: "Hand 1 result" in json.dumps(body),
    )
    async with running_bot(t) as bot:
        await clicks_only(bot, t)
        game_id = await play_against_the_computer(t, bot, random.Random(14))
    assert fault.hits == lost
    assert sum("Hand 1 result" in m.text for m in public(t)) == 1
    assert_game_whole(t, game_id, {0}, applied(t.double.interactions))
    assert_posts_carry_the_bots_nonces(t)


async def test_a_hand_result_post_that_timed_out_after_the_write_is_posted_once(
    table: Table, quick_retries: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same when the answer comes too late: the bot stops waiting, tries again with
    the same nonce, and the game goes on."""
    t = table
    monkeypatch.setattr(replies, "CALL_TIMEOUT", 0.3)
    fault = t.double.fail(
        CHANNEL_POST,
        503,
        times=2,
        performed=True,
        hold=1.0,
        match=lambda path, body: "Hand 1 result" in json.dumps(body),
    )
    async with running_bot(t) as bot:
        await clicks_only(bot, t)
        game_id = await play_against_the_computer(t, bot, random.Random(14))
    assert fault.hits == 2
    assert sum("Hand 1 result" in m.text for m in public(t)) == 1
    assert_game_whole(t, game_id, {0}, applied(t.double.interactions))


async def test_a_table_post_whose_answers_were_all_lost_is_found_by_the_next_one(
    table: Table, quick_retries: None
) -> None:
    """Every try of the first table post loses its answer, so the bot does not know the
    message; the next move's post carries the table's nonce again and gets that message
    back: one table for the whole game, edited to its end."""
    t = table
    fault = t.double.fail(
        CHANNEL_POST,
        503,
        times=4,
        performed=True,
        match=lambda path, body: "tuque:hand:" in json.dumps(body),
    )
    async with running_bot(t) as bot:
        await clicks_only(bot, t)
        game_id = await play_against_the_computer(t, bot, random.Random(11))
    assert fault.hits == 4
    (table_message,) = posted_as(t, "tuque:hand:")
    assert table_message.edit_count > 0
    assert_game_whole(t, game_id, {0}, applied(t.double.interactions))


async def test_a_lobby_post_whose_answer_was_lost_leaves_one_lobby(
    table: Table, quick_retries: None
) -> None:
    """The lobby's post is made and its answer lost twice: one lobby message, with one
    set of live buttons, and its Join and Start work."""
    t = table
    fault = t.double.fail(
        CHANNEL_POST,
        503,
        times=2,
        performed=True,
        match=lambda path, body: ": open table" in json.dumps(body),
    )
    async with running_bot(t) as bot:
        rec = await t.double.slash(t.ann, t.channel, "tuque", "table", variant="two_hand")
        await rec.settled()
        await t.double.idle()
        (lobby,) = posted_as(t, ": open table")
        join = next(b.custom_id for b in lobby.buttons if b.label == "Join")
        await (await t.double.click(t.bob, lobby, join or "")).settled()
        start = next(b.custom_id for b in lobby.buttons if b.label == "Start")
        await (await t.double.click(t.ann, lobby, start or "")).settled()
        await t.double.idle()
        assert "is on" in t.double.message(lobby.id).text
        assert len(bot.sessions.games_of(t.guild.id, t.channel.id, t.bob.id)) == 1
    assert fault.hits == 2
    assert len(posted_as(t, ": open table")) == 1
    assert_posts_carry_the_bots_nonces(t)


async def test_a_challenge_post_whose_answer_was_lost_is_one_challenge(
    table: Table, quick_retries: None
) -> None:
    """The same for a challenge of one member: one message to accept, and the game starts."""
    t = table
    fault = t.double.fail(
        CHANNEL_POST,
        503,
        times=3,
        performed=True,
        match=lambda path, body: "challenges you" in json.dumps(body),
    )
    async with running_bot(t) as bot:
        game_id = await challenge_and_accept(t, target=5)
        # The challenge's command still tries its lost post: it ends before the bot stops.
        await t.double.wait_until(lambda: not handling())
        await t.double.idle()
        assert bot.sessions.session(game_id) is not None
    assert fault.hits == 3
    assert len(posted_as(t, "challenges you")) == 1
