"""End to end: where a member's hand message and the game's commands reach them: in the
game's thread, through autocomplete, and (test by test below) the ping of their turn,
through the Discord double."""

from __future__ import annotations

import logging

import pytest
from e2e import Table, challenge_and_accept, db_snapshot, opened, running_bot

from bot.layout import shortened


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
