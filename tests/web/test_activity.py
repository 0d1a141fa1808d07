"""The table inside Discord, against the Discord double: "Open the table" launches the
Activity, the server signs a member of the instance in (the OAuth2 exchange) and tells
them their channel's games, a member starts a game there with the computers or the
people present, every forged or misplaced sign-in or start is refused, the command
sync keeps the Entry Point, and commands from DMs and group DMs are answered."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
import pytest

from bot import render
from bot.client import PLAYED_IN_A_SERVER, TuqueBot
from tests.bot.e2e import Table, db_snapshot, game_posts, running_bot, started_game, table_message
from tests.discord_double import InteractionRecord
from tests.discord_double.models import ActivityInstance, User
from tests.discord_double.server import CLIENT_SECRET, ENTRY_POINT_DROPPED

ACTIVITY = {"web_port": 0, "discord_client_secret": CLIENT_SECRET}
"""The settings of a bot whose table also runs inside Discord."""


async def sign_in(bot: TuqueBot, body: object) -> tuple[int, dict[str, Any]]:
    """POST ``body`` to the bot's ``/api/activity/token``: the status and the JSON answer."""
    assert bot.web is not None and bot.web.address is not None
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{bot.web.address}/api/activity/token", json=body) as response,
    ):
        return response.status, await response.json()


async def launched(t: Table, bot: TuqueBot) -> tuple[int, InteractionRecord]:
    """A game between Ann and Bob, and Ann's click on its "Open the table"."""
    game_id, _, _ = await started_game(t, bot)
    message = table_message(t)
    (launch,) = [b.custom_id for b in message.buttons if b.label == "Open the table"]
    assert launch == "tuque:launch"  # names no game, no seat, no card
    rec = await t.double.click(t.ann, message, launch)
    await rec.settled()
    return game_id, rec


async def test_open_the_table_answers_launch_activity(table: Table) -> None:
    """The table message's "Open the table" answers with LAUNCH_ACTIVITY (type 12)."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        _, rec = await launched(t, bot)
        assert rec.response_type == 12
        assert rec.activity_instance is not None
        assert rec.activity_instance.channel is table_message(t).channel
        assert rec.activity_instance.users == [t.ann.id]


async def test_a_participant_gets_their_seat_and_a_spectator_the_public_view(
    table: Table,
) -> None:
    """Ann, seated, gets her seat's link to the game of the instance's channel; Eve, in
    the instance but not at the table, a spectator's link; each link opens."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        game_id, rec = await launched(t, bot)
        instance = rec.activity_instance
        assert instance is not None and bot.web is not None
        instance.users.append(t.eve.id)
        session = bot.sessions.session(game_id)
        assert session is not None
        seat = session.table.seat_of(t.ann.id)

        status, answer = await sign_in(
            bot, {"code": t.double.authorize(t.ann), "instance_id": instance.instance_id}
        )
        assert status == 200, answer
        assert set(answer) == {"access_token", "member", "guild", "channel", "tables"}
        assert answer["member"] == str(t.ann.id)
        assert answer["guild"] == str(t.guild.id)
        assert answer["channel"] == str(instance.channel.id)
        (game,) = answer["tables"]
        assert game["game"] == game_id and game["seat"] == seat
        assert game["variant"] == session.table.game.variant.name
        token = game["link"].split("?t=", 1)[1]
        grant = bot.web.links.check(token.replace("%2E", "."), game_id)
        assert (grant.seat, grant.member) == (seat, t.ann.id)

        status, answer = await sign_in(
            bot, {"code": t.double.authorize(t.eve), "instance_id": instance.instance_id}
        )
        assert status == 200, answer
        (game,) = answer["tables"]
        assert game["seat"] is None
        async with aiohttp.ClientSession() as http, http.get(game["link"]) as page:
            assert page.status == 200


@pytest.mark.parametrize(
    "case",
    ["forged", "replayed", "other_app", "not_participant", "unknown_instance", "malformed"],
)
async def test_a_bad_sign_in_is_refused_with_a_reason_and_nothing_else(
    table: Table, case: str
) -> None:
    """A forged or replayed code, a code of another application, an instance the member
    is not in, an unknown instance, a body that is no sign-in: a 4xx with a reason."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        _, rec = await launched(t, bot)
        instance = rec.activity_instance
        assert instance is not None
        body: object = {"code": t.double.authorize(t.ann), "instance_id": instance.instance_id}
        expected = {
            "forged": (401, "code"),
            "replayed": (401, "code"),
            "other_app": (401, "code"),
            "not_participant": (403, "not_participant"),
            "unknown_instance": (404, "instance"),
            "malformed": (400, "malformed"),
        }[case]
        if case == "forged":
            body = {"code": "made-up-code", "instance_id": instance.instance_id}
        elif case == "replayed":
            assert (await sign_in(bot, body))[0] == 200
        elif case == "other_app":
            code = t.double.authorize(t.ann, client_id=t.double.application_id + 1)
            body = {"code": code, "instance_id": instance.instance_id}
        elif case == "not_participant":
            body = {"code": t.double.authorize(t.eve), "instance_id": instance.instance_id}
        elif case == "unknown_instance":
            body = {"code": t.double.authorize(t.ann), "instance_id": "i-0-gc-0-0"}
        elif case == "malformed":
            body = {"code": 12, "instance_id": instance.instance_id}
        status, answer = await sign_in(bot, body)
        assert (status, answer.get("error")) == expected, answer
        assert set(answer) == {"error", "reason"} and answer["reason"]


async def test_an_instance_of_another_channel_shows_none_of_this_channels_games(
    table: Table,
) -> None:
    """Ann in an Activity of another channel signs in, and is told only that channel's
    games (none): the instance, not the page, says which games she may open."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        await launched(t, bot)
        elsewhere: ActivityInstance = t.double.start_activity(
            t.double.add_channel(t.guild, "lounge"), t.ann
        )
        status, answer = await sign_in(
            bot, {"code": t.double.authorize(t.ann), "instance_id": elsewhere.instance_id}
        )
        assert status == 200, answer
        assert answer["channel"] == str(elsewhere.channel.id) and answer["tables"] == []


async def test_without_the_client_secret_activities_are_off_and_the_rest_plays(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """WEB_PORT without DISCORD_CLIENT_SECRET: one start-up line, no "Open the table", a
    sign-in refused with a clear reason, and the game and its web links as ever."""
    t = table
    t.double.enable_activities()
    caplog.set_level(logging.INFO)
    async with running_bot(t, web_port=0) as bot:
        lines = [
            r.getMessage() for r in caplog.records if "DISCORD_CLIENT_SECRET" in r.getMessage()
        ]
        assert len(lines) == 1 and "off" in lines[0]
        await started_game(t, bot)
        labels = [b.label for b in table_message(t).buttons]
        assert "Open the table" not in labels and "Watch on the web" in labels
        status, answer = await sign_in(bot, {"code": "x", "instance_id": "y"})
        assert status == 503 and answer["error"] == "off"
        assert "DISCORD_CLIENT_SECRET" in answer["reason"]
        # A button kept from a run with Activities on is refused, not launched.
        rec = await t.double.forge_click(t.ann, table_message(t), "tuque:launch")
        await rec.settled()
        assert rec.original is not None and "off" in rec.original.text


async def test_the_client_secret_is_never_logged_or_sent(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """No log line and no answer of the web server carries the client secret."""
    t = table
    t.double.enable_activities()
    caplog.set_level(logging.DEBUG)
    async with running_bot(t, **ACTIVITY) as bot:
        _, rec = await launched(t, bot)
        assert rec.activity_instance is not None
        instance_id = rec.activity_instance.instance_id
        answers = [
            await sign_in(bot, {"code": t.double.authorize(t.ann), "instance_id": instance_id}),
            await sign_in(bot, {"code": "forged", "instance_id": instance_id}),
        ]
        t.double.client_secret = "rotated-in-the-portal"
        answers.append(
            await sign_in(bot, {"code": t.double.authorize(t.ann), "instance_id": instance_id})
        )
        assert answers[2][0] == 503
        assert CLIENT_SECRET not in repr(bot.settings) and CLIENT_SECRET not in repr(bot.web)
    assert all(CLIENT_SECRET not in str(a) for a in answers)
    assert all(CLIENT_SECRET not in r.getMessage() for r in caplog.records)


async def test_the_global_sync_keeps_the_entry_point(table: Table) -> None:
    """Synced globally, the commands keep Discord's Entry Point command (same id), and
    /tuque is offered to guild and user installs in every context."""
    t = table
    entry = t.double.enable_activities()
    async with running_bot(t, dev_guild_id=None) as bot:
        synced = {c["name"]: c for c in t.double.synced_commands()}
        assert synced["launch"]["id"] == entry["id"] and synced["launch"]["type"] == 4
        assert synced["tuque"]["contexts"] == [0, 1, 2]
        assert synced["tuque"]["integration_types"] == [0, 1]
        # What the sync keeps it from: Discord refuses an overwrite without it.
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.bulk_upsert_global_commands(bot.application_id, payload=[])
        assert refused.value.code == ENTRY_POINT_DROPPED
        assert len(t.double.take_problems()) == 1


async def test_commands_from_dms_and_group_dms_are_answered(table: Table) -> None:
    """In the bot's DM and in a group DM (a user install), a command that needs a server
    (the leaderboard, stats) says so and what works there, and /tuque rules answers."""
    t = table
    async with running_bot(t, dev_guild_id=None):
        rec = await t.double.private_slash(t.ann, t.channel, "tuque", "leaderboard")
        await rec.settled()
        assert rec.context == 1
        assert rec.original is not None and rec.original.ephemeral
        assert rec.original.text == PLAYED_IN_A_SERVER
        rec = await t.double.private_slash(t.ann, t.channel, "tuque", "stats", group=True)
        await rec.settled()
        assert rec.context == 2 and rec.original is not None
        assert rec.original.text == PLAYED_IN_A_SERVER
        rec = await t.double.private_slash(t.ann, t.channel, "tuque", "rules", group=True)
        await rec.settled()
        assert rec.original is not None and rec.original.embeds


async def test_an_open_lobby_offers_open_the_table(table: Table) -> None:
    """A lobby's message offers "Open the table" beside Join and Start, and it launches."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY):
        await (await t.double.slash(t.ann, t.channel, "tuque", "table", variant="euchre")).settled()
        lobby = t.double.latest_message(t.channel)
        launch = [b.custom_id for b in lobby.buttons if b.label == "Open the table"]
        assert launch == ["tuque:launch"]
        rec = await t.double.click(t.bob, lobby, "tuque:launch")
        await rec.settled()
        assert rec.response_type == 12


async def start(bot: TuqueBot, body: object) -> tuple[int, dict[str, Any]]:
    """POST ``body`` to the bot's ``/api/activity/start``: the status and the JSON answer."""
    assert bot.web is not None and bot.web.address is not None
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{bot.web.address}/api/activity/start", json=body) as response,
    ):
        return response.status, await response.json()


async def token_of(t: Table, bot: TuqueBot, user: User, instance: ActivityInstance) -> str:
    """``user``'s access token, as their page holds it once signed in to ``instance``."""
    status, answer = await sign_in(
        bot, {"code": t.double.authorize(user), "instance_id": instance.instance_id}
    )
    assert status == 200, answer
    token = answer["access_token"]
    assert isinstance(token, str)
    return token


@pytest.mark.parametrize("mode", ["computers", "people"])
async def test_a_member_starts_a_game_in_the_activitys_channel(table: Table, mode: str) -> None:
    """Ann, in an Activity with Bob, starts Euchre against the computers (she alone) or
    with the people here (Ann and Bob, computers in the other seats): the game runs in
    the instance's channel, its table is in its thread with a "Show my hand" call to
    its people, and the answer is Ann's own seat link."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        assert bot.web is not None
        instance = t.double.start_activity(t.channel, t.ann, t.bob)
        token = await token_of(t, bot, t.ann, instance)
        body = {
            "access_token": token,
            "instance_id": instance.instance_id,
            "variant": "euchre",
            "with": mode,
        }
        status, answer = await start(bot, body)
        assert status == 200, answer
        assert set(answer) == {"game", "link"}
        session = bot.sessions.session(answer["game"])
        assert session is not None
        assert (session.guild_id, session.channel_id) == (t.guild.id, t.channel.id)
        assert session.table.game.variant.name == "euchre"
        people = [t.ann.id] if mode == "computers" else [t.ann.id, t.bob.id]
        members = [seat.member for seat in session.table.seats]
        assert members == people + [None] * (4 - len(people))
        grant = bot.web.links.check(
            answer["link"].split("?t=", 1)[1].replace("%2E", "."), answer["game"]
        )
        assert (grant.game, grant.seat, grant.member) == (answer["game"], 0, t.ann.id)

        call = render.hand_call_text(people, session.id)
        await t.double.wait_until(lambda: any(m.text == call for m in game_posts(t)))
        posted = table_message(t)
        assert session.discord.thread_id is not None
        assert posted.channel.id == session.discord.thread_id
        (called,) = [m for m in game_posts(t) if m.text == call]
        assert called.channel.id == session.discord.thread_id
        assert [b.label for b in called.buttons] == ["Show my hand"]


@pytest.mark.parametrize(
    "case",
    [
        "forged",
        "other_member",
        "left",
        "variant",
        "alone",
        "already_playing",
        "private",
        "malformed",
    ],
)
async def test_a_refused_start_says_why_and_starts_nothing(table: Table, case: str) -> None:
    """A forged token; Eve's token for an Activity she is not in; Ann gone from the
    Activity since she signed in; a game that does not exist; the people of an Activity
    of one; Ann and Bob playing together already; an Activity in a DM; a body that is no
    start: a 4xx with a reason, and nothing stored or running."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        if case == "already_playing":
            await started_game(t, bot)
        users = (t.ann,) if case == "alone" else (t.ann, t.bob)
        instance = t.double.start_activity(t.channel, *users, private=case == "private")
        body: dict[str, object] = {
            "access_token": await token_of(t, bot, t.ann, instance),
            "instance_id": instance.instance_id,
            "variant": "tuque",
            "with": "people",
        }
        expected = {
            "forged": (401, "token"),
            "other_member": (403, "not_participant"),
            "left": (403, "not_participant"),
            "variant": (400, "variant"),
            "alone": (400, "people"),
            "already_playing": (409, "already_playing"),
            "private": (400, "guild"),
            "malformed": (400, "malformed"),
        }[case]
        if case == "forged":
            body["access_token"] = "made-up-token"
        elif case == "other_member":
            lounge = t.double.start_activity(t.double.add_channel(t.guild, "lounge"), t.eve)
            body["access_token"] = await token_of(t, bot, t.eve, lounge)
        elif case == "left":
            instance.users.remove(t.ann.id)
        elif case == "variant":
            body["variant"] = "poker"
        elif case == "malformed":
            body["with"] = "everyone"
        before, running = db_snapshot(t), bot.sessions.running()
        status, answer = await start(bot, body)
        assert (status, answer.get("error")) == expected, answer
        assert set(answer) == {"error", "reason"} and answer["reason"]
        assert db_snapshot(t) == before and bot.sessions.running() == running
        if case == "already_playing":
            assert "already playing together" in answer["reason"]
