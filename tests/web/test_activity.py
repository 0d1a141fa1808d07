"""The table inside Discord, against the Discord double: "Open the table" launches the
Activity, the server signs a member of the instance in (the OAuth2 exchange) and tells
them their channel's games, a member starts a game there with the computers or the
people present, every forged or misplaced sign-in or start is refused, the command
sync keeps the Entry Point, and commands from DMs and group DMs are answered; the
Activity in a group DM or the bot's DM lists that channel's games alone and starts games
there; two starts at once deal one game."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import aiohttp
import discord
import pytest
from web_helpers import Page

from bot import render
from bot.client import PLAYED_IN_A_SERVER, TuqueBot
from bot.sessions.state import NO_GUILD
from tests.bot.e2e import Table, db_snapshot, game_posts, running_bot, started_game, table_message
from tests.discord_double import InteractionRecord, StoredMessage
from tests.discord_double.models import ActivityInstance, Channel, User
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
        assert set(answer) == {"access_token", "member", "guild", "channel", "tables", "events"}
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
            "elsewhere": (400, "guild"),
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
    return await post(bot, "start", body)


async def post(bot: TuqueBot, route: str, body: object) -> tuple[int, dict[str, Any]]:
    """POST ``body`` to the bot's ``/api/activity/<route>``: the status and the JSON answer."""
    assert bot.web is not None and bot.web.address is not None
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{bot.web.address}/api/activity/{route}", json=body) as response,
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


async def start_body(
    t: Table,
    bot: TuqueBot,
    user: User,
    instance: ActivityInstance,
    variant: str = "tuque",
    mode: str = "computers",
) -> dict[str, object]:
    """What ``user``'s page, signed in to ``instance``, posts to start ``variant``."""
    return {
        "access_token": await token_of(t, bot, user, instance),
        "instance_id": instance.instance_id,
        "variant": variant,
        "with": mode,
    }


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
        "elsewhere",
    ],
)
async def test_a_refused_start_says_why_and_starts_nothing(table: Table, case: str) -> None:
    """A forged token; Eve's token for an Activity she is not in; Ann gone from the
    Activity since she signed in; a game that does not exist; the people of an Activity
    of one; Ann and Bob playing together already; the people of a group DM at a
    four-seat game; a body that is no start; a server whose games another of the bot's
    processes runs: a 4xx with a reason, and nothing stored or running."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        if case == "already_playing":
            await started_game(t, bot)
        users = (t.ann,) if case == "alone" else (t.ann, t.bob)
        private = case == "private"
        where = t.double.add_private_channel(t.guild, *users) if private else t.channel
        instance = t.double.start_activity(where, *users, private=private)
        # In a DM or group DM the people play a two-seat game only.
        variant = "euchre" if private else "tuque"
        body = await start_body(t, bot, t.ann, instance, variant, mode="people")
        expected = {
            "forged": (401, "token"),
            "other_member": (403, "not_participant"),
            "left": (403, "not_participant"),
            "variant": (400, "variant"),
            "alone": (400, "people"),
            "already_playing": (409, "already_playing"),
            "private": (400, "guild"),
            "malformed": (400, "malformed"),
            "elsewhere": (400, "guild"),
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
        elif case == "elsewhere":
            assert bot.web is not None
            bot.web.serves = lambda guild: False
        before, running = db_snapshot(t), bot.sessions.running()
        status, answer = await start(bot, body)
        assert (status, answer.get("error")) == expected, answer
        assert set(answer) == {"error", "reason"} and answer["reason"]
        assert db_snapshot(t) == before and bot.sessions.running() == running
        if case == "already_playing":
            assert "already playing together" in answer["reason"]
        if case == "elsewhere":
            assert "another of the bot's processes" in answer["reason"]


def private_tables(t: Table, channel: Channel) -> list[StoredMessage]:
    """The table messages of a DM or group DM, oldest first (follow-ups of interactions)."""
    return [m for m in t.double.channel_messages(channel) if " · game #" in m.text]


async def test_open_the_table_in_a_group_dm_lists_that_dms_game_only(table: Table) -> None:
    """Bob's "Open the table" on the table of his game with Ann in their group DM launches
    an instance there (no guild); signed in to it, Bob and Ann are told that game alone,
    not their server game nor Ann's game in her DM with the bot."""
    t = table
    t.double.enable_activities()
    group = t.double.add_private_channel(t.guild, t.ann, t.bob, t.eve)
    dm = t.double.add_private_channel(t.guild, t.ann, group=False)
    async with running_bot(t, dev_guild_id=None, **ACTIVITY) as bot:
        await started_game(t, bot)
        await (await t.double.private_slash(t.ann, dm, "tuque", "bot")).settled()
        rec = await t.double.private_slash(t.ann, group, "tuque", "challenge", opponent=t.bob)
        await rec.settled()
        (invite,) = rec.followups
        accept = next(b.custom_id for b in invite.buttons if b.label == "Accept")
        assert accept is not None
        await (await t.double.click(t.bob, invite, accept)).settled()
        await t.double.wait_until(lambda: private_tables(t, group), 10)
        await t.double.idle()
        (game,) = [s for s in bot.sessions.running() if s.channel_id == group.id]
        assert len(bot.sessions.running()) == 3

        message = private_tables(t, group)[-1]
        (launch,) = [b.custom_id for b in message.buttons if b.label == "Open the table"]
        clicked = await t.double.click(t.bob, message, launch)
        await clicked.settled()
        assert clicked.context == 2 and clicked.response_type == 12
        instance = clicked.activity_instance
        assert instance is not None and instance.private and instance.channel is group
        assert instance.instance_id.endswith(f"-pc-{group.id}")
        instance.users.append(t.ann.id)
        for user in (t.bob, t.ann):
            status, answer = await sign_in(
                bot, {"code": t.double.authorize(user), "instance_id": instance.instance_id}
            )
            assert status == 200, answer
            assert answer["guild"] is None and answer["channel"] == str(group.id)
            assert [(g["game"], g["seat"]) for g in answer["tables"]] == [
                (game.id, game.table.seat_of(user.id))
            ]
        # The page's list again, with the sign-in's token: checked afresh at Discord.
        again = {"access_token": answer["access_token"], "instance_id": instance.instance_id}
        assert await post(bot, "tables", again) == (200, {"tables": answer["tables"], "events": []})
        status, refused = await post(bot, "tables", {**again, "access_token": "made-up"})
        assert (status, refused["error"]) == (401, "token")
    t.double.check()


async def test_a_game_started_from_an_activity_in_a_dm_plays(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """Ann starts Tuque against the computers from an Activity in her DM with the bot: it
    is stored under no server, unrated, and nothing is posted (no interaction to answer
    yet: the call to her hand is skipped and logged); she moves through the web socket,
    and her next /tuque hand there brings the table as its follow-up."""
    t = table
    t.double.enable_activities()
    caplog.set_level(logging.INFO, logger="bot")
    dm = t.double.add_private_channel(t.guild, t.ann, group=False)
    async with running_bot(t, dev_guild_id=None, **ACTIVITY) as bot:
        instance = t.double.start_activity(dm, t.ann, private=True)
        body = await start_body(t, bot, t.ann, instance)
        status, answer = await start(bot, body)
        assert status == 200, answer
        session = bot.sessions.session(answer["game"])
        assert session is not None
        assert (session.guild_id, session.channel_id) == (NO_GUILD, dm.id)
        assert not session.table.ranked
        assert [seat.member for seat in session.table.seats] == [t.ann.id, None]
        await t.double.idle()
        assert session.discord.table_waiting and session.discord.table_message_id is None
        assert t.double.channel_messages(dm) == [] and t.double.ephemerals_for(t.ann) == []
        assert any("hand call not posted" in r.getMessage() for r in caplog.records)

        token = unquote(answer["link"].split("?t=", 1)[1])
        assert bot.web is not None and bot.web.address is not None
        url = f"{bot.web.address.replace('http', 'ws', 1)}/ws/{session.id}"
        async with aiohttp.ClientSession() as http:
            page = Page(await http.ws_connect(url, params={"t": token}))
            page.reader = asyncio.create_task(page.read())
            # The computer may lead first: it moves at once.
            await page.until(lambda: page.views and page.view["view"]["legal"])
            seq = page.view["seq"]
            await page.act(seq, page.view["view"]["legal"][0]["id"])
            await page.until(lambda: page.view["seq"] > seq)
            await page.close()
        assert session.discord.table_waiting

        rec = await t.double.private_slash(t.ann, dm, "tuque", "hand")
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        await t.double.wait_until(lambda: private_tables(t, dm), 10)
        (shown,) = private_tables(t, dm)
        assert shown.interaction is rec and not session.discord.table_waiting
    assert not [r for r in t.double.requests if f"/channels/{dm.id}" in r.path]
    t.double.check()


async def test_the_people_of_a_group_dm_start_a_two_seat_game(table: Table) -> None:
    """Ann, in an Activity of a group DM with Bob and Eve, deals in the people at Tuque:
    she and Bob, the first other participant, sit (no server to be a member of); Eve,
    not in the Activity of Ann's DM with the bot, cannot start a game there."""
    t = table
    t.double.enable_activities()
    group = t.double.add_private_channel(t.guild, t.ann, t.bob, t.eve)
    dm = t.double.add_private_channel(t.guild, t.ann, group=False)
    async with running_bot(t, dev_guild_id=None, **ACTIVITY) as bot:
        instance = t.double.start_activity(group, t.ann, t.bob, t.eve, private=True)
        body = await start_body(t, bot, t.ann, instance, mode="people")
        status, answer = await start(bot, body)
        assert status == 200, answer
        session = bot.sessions.session(answer["game"])
        assert session is not None and session.private and session.channel_id == group.id
        assert [seat.member for seat in session.table.seats] == [t.ann.id, t.bob.id]
        assert list(session.seating.names) == [t.ann.global_name, t.bob.global_name]

        mine = t.double.start_activity(dm, t.ann, private=True)
        stranger = {**body, "access_token": await token_of(t, bot, t.eve, instance)}
        status, answer = await start(bot, {**stranger, "instance_id": mine.instance_id})
        assert (status, answer["error"]) == (403, "not_participant")
        assert len(bot.sessions.running()) == 1
        await t.double.idle()
    t.double.check()


async def test_two_starts_at_once_deal_one_game(table: Table, database: str | Path) -> None:
    """Ann's two clicks on "Play the computers" reach the server at once (a double
    click, or a page that does not wait): one game starts, the other start is refused
    with that game's number, on SQLite and on PostgreSQL alike."""
    t = table
    t.double.enable_activities()
    where = "database_path" if isinstance(database, Path) else "database_url"
    async with running_bot(t, **ACTIVITY, **{where: database}) as bot:
        instance = t.double.start_activity(t.channel, t.ann)
        body = await start_body(t, bot, t.ann, instance)
        answers = sorted(
            await asyncio.gather(start(bot, body), start(bot, body)), key=lambda a: a[0]
        )
        (game_id,) = [s.id for s in bot.sessions.running()]
        assert [row.id for row in await bot.store.active_games()] == [game_id]
        assert answers[0][0] == 200 and answers[0][1]["game"] == game_id
        status, refused = answers[1]
        assert (status, refused["error"]) == (409, "already_here"), refused
        assert refused["reason"] == (
            f"You are already playing game #{game_id} here: open it from the list."
        )
        await t.double.idle()
    t.double.check()
