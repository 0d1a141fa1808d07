"""End to end: the play aids of a member's table — auto-play of forced moves, hints,
rematch and replays — through the real discord.py client and the Discord double."""

from __future__ import annotations

import json
import random
import re

from discord_double.models import User
from e2e import Table, play_turn, running_bot

from bot.client import TuqueBot

PLAYED_FOR_YOU = "Played for you, your only choice:"


def _told(t: Table, user: User, text: str) -> bool:
    """Whether any version of ``user``'s ephemerals ever said ``text``."""
    return any(
        text in json.dumps(version.embeds, ensure_ascii=False)
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
