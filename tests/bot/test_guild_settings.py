"""``/tuque settings`` end to end through the Discord double: a member with Manage Server
changes the server's settings, anyone sees them, a member without the permission and
invalid values are refused with nothing changed, and the settings act on games."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import pytest
from e2e import Table, game_posts, latest_post, newest_hand, running_bot, started_game

from bot.client import TuqueBot
from bot.store import GuildSettings
from tests.discord_double import InteractionRecord
from tests.discord_double.models import User

MANAGE_GUILD = 1 << 5


def make_manager(t: Table, user: User) -> None:
    """Give ``user`` a role with the Manage Server permission."""
    mods = t.double.add_role(t.guild, "Mods", permissions=MANAGE_GUILD)
    t.double.add_member(t.guild, user, roles=[mods])


def stored(t: Table) -> list[tuple[Any, ...]]:
    with sqlite3.connect(t.db) as db:
        return db.execute("SELECT * FROM guild_settings").fetchall()


async def settings(t: Table, user: User, *, forged: bool = False, **options: Any) -> str:
    """``user`` runs ``/tuque settings`` with ``options``; return the (ephemeral) answer."""
    send = t.double.forge_slash if forged else t.double.slash
    rec: InteractionRecord = await send(user, t.channel, "tuque", "settings", **options)
    await rec.settled()
    assert rec.original is not None and rec.original.ephemeral, "only the member sees it"
    return rec.original.text


async def server_settings(bot: TuqueBot, t: Table) -> GuildSettings:
    return await bot.store.guild_settings(t.guild.id, GuildSettings.defaults(bot.settings))


async def test_a_manager_changes_the_settings_and_everyone_sees_them(table: Table) -> None:
    t = table
    make_manager(t, t.ann)
    hosts = t.double.add_role(t.guild, "Hosts")
    async with running_bot(t) as bot:
        before = await settings(t, t.bob)
        assert "after 5 min" in before and "after 15 min" in before
        assert "Tuque" in before and "(bot default)" in before

        answer = await settings(
            t,
            t.ann,
            reminder_minutes=3,
            away_minutes=9,
            computer_delay=2.5,
            hints_in_rated=True,
            default_variant="euchre",
            threads=False,
            event_host_role=hosts,
        )
        assert "Saved" in answer
        shown_now = ("after 3 min", "after 9 min", "2.5 s", "allowed", "Euchre", "in the channel")
        shown_now += (f"<@&{hosts.id}> role",)
        for shown in shown_now:
            assert shown in answer, shown
        assert "(bot default)" not in answer

        assert await server_settings(bot, t) == GuildSettings(
            3,
            9,
            2.5,
            hints_in_rated=True,
            default_variant="euchre",
            threads=False,
            event_host_role_id=hosts.id,
        )
        assert "Euchre" in await settings(t, t.bob), "any member sees them"

        answer = await settings(t, t.ann, reminder_minutes=4, no_event_host_role=True)
        assert "after 4 min" in answer and "after 9 min" in answer
        assert "<@&" not in answer and (await server_settings(bot, t)).event_host_role_id is None

        answer = await settings(t, t.ann, reset=True)
        assert "back to the bot's default" in answer
        assert await server_settings(bot, t) == GuildSettings.defaults(bot.settings)
        assert stored(t) == []


async def test_a_member_without_manage_server_is_refused(table: Table) -> None:
    """Bob lacks the permission: every change is refused, ephemerally, and nothing changes."""
    t = table
    make_manager(t, t.ann)
    async with running_bot(t) as bot:
        await settings(t, t.ann, computer_delay=3)
        before = stored(t)
        for options in (
            {"default_variant": "euchre"},
            {"reminder_minutes": 1, "away_minutes": 2},
            {"reset": True},
        ):
            text = await settings(t, t.bob, **options)
            assert "Manage Server" in text, options
        assert stored(t) == before
        assert bot.sessions.computers.move_delays[t.guild.id] == 3


@pytest.mark.parametrize(
    ("options", "forged", "expected"),
    [
        ({"away_minutes": 4}, False, "The reminder comes first"),
        ({"reminder_minutes": 20}, False, "The reminder comes first"),
        ({"reminder_minutes": 8, "away_minutes": 8}, False, "must be more than"),
        ({"reset": True, "hints_in_rated": True}, False, "use it alone"),
        ({"reminder_minutes": 0}, True, "from 1 to 1440 minutes"),
        ({"away_minutes": 2.5}, True, "whole number"),
        ({"computer_delay": 60}, True, "from 0 to 10 seconds"),
        ({"hints_in_rated": "yes"}, True, "true or false"),
        ({"default_variant": "pepper"}, True, "not a variant here"),
    ],
)
async def test_invalid_values_are_refused_and_change_nothing(
    table: Table, options: dict[str, Any], forged: bool, expected: str
) -> None:
    """Values out of range (a modified client) or that contradict each other: a clear
    ephemeral sentence, and the settings stay as they were."""
    t = table
    make_manager(t, t.ann)
    async with running_bot(t) as bot:
        await settings(t, t.ann, default_variant="british")
        before = stored(t)
        text = await settings(t, t.ann, forged=forged, **options)
        assert expected in text
        assert stored(t) == before
        assert (await server_settings(bot, t)).default_variant == "british"


async def test_the_default_game_is_the_servers(table: Table) -> None:
    """``/tuque bot`` and ``/tuque table`` without a variant start the server's game;
    a variant named still wins."""
    t = table
    make_manager(t, t.ann)
    async with running_bot(t) as bot:
        await settings(t, t.ann, default_variant="euchre")
        rec = await t.double.slash(t.bob, t.channel, "tuque", "bot")
        await rec.settled()
        (game,) = bot.sessions.games_of(t.guild.id, t.channel.id, t.bob.id)
        assert game.game.variant.name == "euchre" and len(game.rows) == 4

        rec = await t.double.slash(t.ann, t.channel, "tuque", "table")
        await rec.settled()
        assert "Euchre" in latest_post(t).text

        rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", variant="tuque")
        await rec.settled()
        (game,) = bot.sessions.games_of(t.guild.id, t.channel.id, t.ann.id)
        assert game.game.variant.name == "tuque"


async def test_the_servers_turn_timer_reminds_and_hands_over(table: Table) -> None:
    """A server's 1-minute reminder and 2-minute away time act where the bot's defaults
    (5 and 15 minutes, the sweep's delays) would not yet."""
    t = table
    make_manager(t, t.eve)
    async with running_bot(t) as bot:
        bot.get_cog("Games").sweeper.cancel()  # type: ignore[union-attr]  # the test sweeps
        await settings(t, t.eve, reminder_minutes=1, away_minutes=2)
        game_id, to_act, _ = await started_game(t, bot)
        defaults = GuildSettings.defaults(bot.settings)
        now = time.time()

        await bot.sessions.tick(defaults.reminder_seconds, defaults.away_seconds, now=now + 61)
        await t.double.idle()
        reminder = latest_post(t)
        assert to_act.mention in reminder.content
        assert "Play within 1 minute or the computer plays for you" in reminder.content

        await bot.sessions.tick(defaults.reminder_seconds, defaults.away_seconds, now=now + 121)
        await t.double.idle()
        # The computer bids for Bob at once, and the next member on turn is pinged.
        assert any("is away" in m.content for m in game_posts(t))
        session = bot.sessions.session(game_id)
        assert session is not None and session.table.away == {session.table.seat_of(to_act.id)}


async def test_the_computers_pace_survives_a_restart(table: Table) -> None:
    """The server's computer pause is what its games wait, after a restart too; other
    servers keep the bot's."""
    t = table
    make_manager(t, t.ann)
    async with running_bot(t) as bot:
        await settings(t, t.ann, computer_delay=0.25)
        assert bot.sessions.computers.move_delays == {t.guild.id: 0.25}
    async with running_bot(t) as bot:
        assert bot.sessions.computers.move_delays == {t.guild.id: 0.25}
        assert bot.sessions.computers.move_delay == 0


async def test_settings_are_not_changed_from_direct_messages(table: Table) -> None:
    """Settings belong to a server: a (forged) command from a DM is refused."""
    t = table
    make_manager(t, t.ann)
    async with running_bot(t):
        rec = await t.double.forge_slash(
            t.ann, t.channel, "tuque", "settings", dm=True, default_variant="euchre"
        )
        await rec.settled()
        assert rec.original is not None and "needs a server's channel" in rec.original.text
        assert stored(t) == []


async def test_a_server_that_allows_hints_in_rated_games_gets_the_hint_button(
    table: Table,
) -> None:
    """Members only (rated): no Hint until a manager sets ``hints_in_rated``; then the
    member to act in the running game gets the button and a hint, and turning it off
    takes the button away again."""
    t = table
    make_manager(t, t.eve)
    async with running_bot(t) as bot:
        game_id, to_act, _ = await started_game(t, bot)

        async def hint_offered() -> bool:
            rec = await t.double.slash(to_act, t.channel, "tuque", "hand")
            await rec.settled()
            assert rec.original is not None
            return any((b.custom_id or "").startswith("tuque:hint:") for b in rec.original.buttons)

        assert not await hint_offered()
        assert "Saved" in await settings(t, t.eve, hints_in_rated=True)
        assert await hint_offered()
        hand = newest_hand(t, to_act)
        assert hand is not None
        hint = next(
            b.custom_id for b in hand.buttons if (b.custom_id or "").startswith("tuque:hint:")
        )
        rec = await t.double.click(to_act, hand, hint)  # type: ignore[arg-type]
        await rec.settled()
        answer = rec.followups[-1] if rec.followups else rec.original
        assert answer is not None and answer.ephemeral and "Hint:" in answer.text
        assert "Saved" in await settings(t, t.eve, hints_in_rated=False)
        assert not await hint_offered()
    with sqlite3.connect(t.db) as db:
        hints = db.execute("SELECT SUM(hints) FROM seats WHERE game_id = ?", (game_id,)).fetchone()
    assert hints == (1,)
