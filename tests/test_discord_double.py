"""End-to-end checks of the Discord double with the real, unmodified discord.py client.

A tiny bot defined here exercises what the Tuque bot will need: a command group with a
user option, a DynamicItem button, ephemeral responses, follow-ups, edits, deferrals,
a select, a modal and a thread under a table message.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.discord_double import DiscordDouble, LogGuard, ScriptError, StoredMessage, User
from tests.discord_double import server as double_server
from tests.discord_double.models import Channel, Guild
from tests.discord_double.spec import SPEC_FILE, Spec, report_totals, spec
from tests.discord_double.validation import command_errors, message_errors


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"table:(?P<table_id>[0-9]+):join",
):
    """A Join button that keeps working after a restart: its state lives in the custom_id."""

    def __init__(self, table_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join",
                emoji="🃏",
                style=discord.ButtonStyle.primary,
                custom_id=f"table:{table_id}:join",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
    ) -> JoinButton:
        return cls(int(match["table_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} joined table {self.table_id}", ephemeral=True
        )


def table_view(table_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(table_id))
    return view


class SettingsView(discord.ui.View):
    @discord.ui.select(
        custom_id="settings:variant",
        placeholder="Variant",
        options=[
            discord.SelectOption(label="Tuque", value="tuque"),
            discord.SelectOption(label="Euchre", value="euchre"),
        ],
    )
    async def variant(
        self, interaction: discord.Interaction, select: discord.ui.Select[SettingsView]
    ) -> None:
        await interaction.response.edit_message(content=f"Variant: {select.values[0]}", view=None)


class RenameModal(discord.ui.Modal, title="Rename table"):
    new_name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(
        label="New name", custom_id="rename:name", max_length=40
    )
    reason: discord.ui.Label[RenameModal] = discord.ui.Label(
        text="Why?", component=discord.ui.TextInput(custom_id="rename:reason", required=False)
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        assert isinstance(self.reason.component, discord.ui.TextInput)
        why = self.reason.component.value or "no reason"
        await interaction.response.send_message(
            f"Renamed to {self.new_name.value} ({why})", ephemeral=True
        )


class Tuque(app_commands.Group, name="tuque", description="Tuque card games"):
    @app_commands.command(description="Challenge someone to a game")
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        variant: Literal["tuque", "euchre"] = "tuque",
        points: int = 10,
    ) -> None:
        text = f"{interaction.user.mention} challenges {opponent.mention} to {variant} to {points}"
        await interaction.response.send_message(text, view=table_view(interaction.id))
        message = await interaction.original_response()
        thread = await message.create_thread(name=f"table {interaction.id}")
        await thread.send(f"Table for {variant} is open.")
        await interaction.followup.send("Challenge posted.", ephemeral=True)
        await interaction.edit_original_response(content=f"{text} — waiting for {opponent.name}")

    @app_commands.command(description="Open a table in this channel")
    async def table(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Opening a table…", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        rules = discord.File(io.BytesIO(b"first to ten"), filename="rules.txt")
        message = await channel.send("Table (0/4)", view=table_view(interaction.id), file=rules)
        await message.edit(content="Table (1/4)")

    @app_commands.command(description="Pick the variant")
    async def settings(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Settings", view=SettingsView(), ephemeral=True)

    @app_commands.command(description="Rename the table")
    async def rename(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @app_commands.command(description="Close the table")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Cancelling…", ephemeral=True)
        note = await interaction.followup.send("Table closed.", wait=True)
        await note.edit(content="Table closed for good.")
        await note.fetch()
        await interaction.delete_original_response()

    @app_commands.command(description="Say far too much")
    async def shout(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("A" * 2001)


@app_commands.command(description="Think before answering")
async def slow(interaction: discord.Interaction, private: bool = False, delay: float = 0.0) -> None:
    await asyncio.sleep(delay)
    await interaction.response.defer(ephemeral=private, thinking=True)
    if private:
        await interaction.edit_original_response(content="Done quietly.")
    else:
        # The first follow-up after a defer resolves the placeholder and keeps ITS
        # visibility: this message ends up public despite ephemeral=True.
        await interaction.followup.send("Done.", ephemeral=True)


@app_commands.command(description="Say where the command came from")
async def where(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"guild {interaction.guild_id}", ephemeral=True)


@app_commands.command(description="Look up something the double does not serve")
async def stray(interaction: discord.Interaction) -> None:
    assert interaction.guild_id is not None
    try:
        await interaction.client.fetch_guild(interaction.guild_id)
    except discord.NotFound:
        await interaction.response.send_message("lookup failed", ephemeral=True)


class MiniBot(discord.Client):
    def __init__(self, dev_guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.dev_guild = discord.Object(id=dev_guild_id)
        for command in (Tuque(), slow, stray, where):
            self.tree.add_command(command, guild=self.dev_guild)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        await self.tree.sync(guild=self.dev_guild)


@dataclass
class World:
    guild: Guild
    table: Channel
    alice: User
    bob: User
    bot: MiniBot


@pytest.fixture
def world(double: DiscordDouble) -> World:
    guild = double.add_guild("Dev")
    table = double.add_channel(guild, "tuque")
    alice = double.add_user("alice", guild=guild)
    bob = double.add_user("bob", guild=guild)
    return World(guild, table, alice, bob, MiniBot(guild.id))


async def test_login_ready_and_command_sync(double: DiscordDouble, world: World) -> None:
    async with double.running(world.bot):
        assert world.bot.user is not None and world.bot.user.id == double.bot_user.id
        assert world.bot.application_id == double.application_id
        cached = world.bot.get_guild(world.guild.id)
        assert cached is not None and cached.get_channel(world.table.id) is not None
        synced = {c["name"]: c for c in double.synced_commands(world.guild)}
        assert set(synced) == {"tuque", "slow", "stray", "where"}
        subcommands = {o["name"] for o in synced["tuque"]["options"]}
        assert subcommands == {"challenge", "table", "settings", "rename", "cancel", "shout"}
        assert double.synced_commands() == []
    assert double.gateway_connections[0]["compress"] == "zlib-stream"
    assert double.rest_calls["GET /users/@me"] == 1
    assert double.rest_calls["PUT /applications/{application_id}/guilds/{guild_id}/commands"] == 1


async def test_challenge_posts_table_thread_and_ephemeral_followup(
    double: DiscordDouble, world: World
) -> None:
    async with double.running(world.bot):
        rec = await double.slash(
            world.alice,
            world.table,
            "tuque",
            "challenge",
            opponent=world.bob,
            variant="euchre",
            points=7,
        )
        await rec.settled()
    assert rec.ack_latency is not None and rec.ack_latency < 3.0
    assert double.ack_latencies() == [rec.ack_latency]
    table_message = double.latest_message(world.table)
    assert table_message is rec.original
    assert table_message.content.endswith("— waiting for bob")
    assert (
        table_message.history[0].content
        == f"{world.alice.mention} challenges {world.bob.mention} to euchre to 7"
    )
    assert [(b.label, b.emoji, b.style) for b in table_message.buttons] == [("Join", "🃏", 1)]
    thread = double.thread_for(table_message)
    assert thread is not None and thread.id == table_message.id
    assert [m.content for m in double.channel_messages(thread)] == ["Table for euchre is open."]
    assert [m.content for m in double.ephemerals_for(world.alice)] == ["Challenge posted."]
    assert double.ephemerals_for(world.bob) == []


async def test_dynamic_button_click_and_ephemeral_visibility(
    double: DiscordDouble, world: World
) -> None:
    async with double.running(world.bot):
        await (await double.slash(world.alice, world.table, "tuque", "table")).settled()
        table_message = double.latest_message(world.table)
        assert (table_message.content, table_message.edit_count) == ("Table (1/4)", 1)
        assert table_message.attachments[0]["filename"] == "rules.txt"
        custom_id = table_message.buttons[0].custom_id
        assert custom_id is not None
        rec = await double.click(world.bob, table_message, custom_id)
        await rec.response()
        reply = double.latest_ephemeral(world.bob)
        assert reply.text.startswith("bob joined table") and reply.visible_to(world.bob)
        assert not reply.visible_to(world.alice)
        assert reply not in double.channel_messages(world.table)
        assert reply in double.visible_messages(world.bob, world.table)
        assert reply not in double.visible_messages(world.alice, world.table)
        with pytest.raises(ScriptError, match="no component"):
            await double.click(world.bob, table_message, "table:1:leave")
        opening = double.latest_ephemeral(world.alice)
        with pytest.raises(ScriptError, match="cannot see"):
            await double.click(world.bob, opening, custom_id)
        with pytest.raises(ScriptError, match="unknown options"):
            await double.slash(world.alice, world.table, "tuque", "challenge", rival=world.bob)
        with pytest.raises(ScriptError, match="one of"):
            await double.slash(
                world.alice, world.table, "tuque", "challenge", opponent=world.bob, variant="hearts"
            )


async def test_select_updates_ephemeral_and_modal_round_trip(
    double: DiscordDouble, world: World
) -> None:
    async with double.running(world.bot):
        await (await double.slash(world.alice, world.table, "tuque", "settings")).settled()
        settings = double.latest_ephemeral(world.alice)
        assert settings.selects[0].options == (("Tuque", "tuque"), ("Euchre", "euchre"))
        rec = await double.select(world.alice, settings, "settings:variant", ["euchre"])
        await rec.settled()
        assert rec.response_type == 7 and rec.original is settings
        assert (settings.content, settings.components) == ("Variant: euchre", [])

        opened = await double.slash(world.alice, world.table, "tuque", "rename")
        await opened.response()
        assert opened.modal is not None and opened.modal["title"] == "Rename table"
        with pytest.raises(ScriptError, match="required"):
            await double.submit_modal(world.alice, opened, {"rename:reason": "fun"})
        values = {"rename:name": "High table", "rename:reason": "fun"}
        submitted = await double.submit_modal(world.alice, opened, values)
        await submitted.settled()
        assert double.latest_ephemeral(world.alice).content == "Renamed to High table (fun)"


async def test_deferred_responses(double: DiscordDouble, world: World) -> None:
    async with double.running(world.bot):
        public = await double.slash(world.alice, world.table, "slow")
        await public.settled()
        private = await double.slash(world.bob, world.table, "slow", private=True)
        await private.settled()
    assert public.response_type == 5
    assert public.original is not None and not public.original.ephemeral
    assert (public.original.content, public.original.loading) == ("Done.", False)
    assert public.followups == []
    assert private.original is not None and private.original.ephemeral_for is world.bob
    assert private.original.content == "Done quietly."


async def test_follow_up_edit_fetch_and_original_deletion(
    double: DiscordDouble, world: World
) -> None:
    async with double.running(world.bot):
        rec = await double.slash(world.alice, world.table, "tuque", "cancel")
        await rec.settled()
    assert rec.original is not None and rec.original.deleted
    assert double.ephemerals_for(world.alice) == []
    (note,) = rec.followups
    assert note.content == "Table closed for good." and note.history[0].content == "Table closed."
    assert double.channel_messages(world.table) == [note]
    assert rec.messages == [rec.original, note]


async def test_rest_routes_outside_interactions(double: DiscordDouble, world: World) -> None:
    async with double.running(world.bot):
        bot = world.bot
        assert (await bot.fetch_user(world.bob.id)).name == "bob"
        channel = await bot.fetch_channel(world.table.id)
        assert isinstance(channel, discord.TextChannel)
        member = await channel.guild.fetch_member(world.alice.id)
        assert member.display_name == "alice"
        async with channel.typing():
            first = await channel.send("one")
        await channel.send(embed=discord.Embed(title="two"))
        assert [m.content async for m in channel.history(limit=5)] == ["", "one"]
        assert (await channel.fetch_message(first.id)).content == "one"
        await first.delete()
        side = await channel.create_thread(name="side", type=discord.ChannelType.private_thread)
        await side.add_user(discord.Object(world.bob.id))
        await side.remove_user(discord.Object(world.bob.id))
    assert [m.text for m in double.channel_messages(world.table)] == ["two"]
    assert double.channels[side.id].thread_member_ids == {double.bot_user.id}


async def test_intents_member_cache_and_live_world_changes(
    double: DiscordDouble, world: World
) -> None:
    intents = discord.Intents.default()
    intents.members = True
    client = discord.Client(intents=intents, guild_ready_timeout=0.05)
    async with double.running(client):
        guild = client.get_guild(world.guild.id)
        assert guild is not None and guild.get_member(world.alice.id) is not None
        assert [m.name for m in await guild.query_members("bo")] == ["bob"]
        carol = double.add_user("carol", guild=world.guild)
        lobby = double.add_channel(world.guild, "lobby")
        await double.wait_until(lambda: guild.get_member(carol.id) and guild.get_channel(lobby.id))
    async with double.running(world.bot):
        cached = world.bot.get_guild(world.guild.id)
        assert cached is not None and cached.get_member(world.alice.id) is None


async def test_sharded_client_global_commands_and_presence(
    double: DiscordDouble, world: World
) -> None:
    client = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    tree = app_commands.CommandTree(client)

    @tree.command(description="Where to play")
    async def where(
        interaction: discord.Interaction, channel: discord.TextChannel, role: discord.Role
    ) -> None:
        await interaction.response.send_message(f"#{channel.name} for {role.name}", ephemeral=True)

    players = double.add_role(world.guild, "players")
    async with double.running(client):
        await tree.sync()
        assert [c.name for c in await tree.fetch_commands()] == ["where"]
        await client.change_presence(activity=discord.Game("Tuque"))
        rec = await double.slash(
            world.alice, world.table, "where", channel=world.table, role=players
        )
        await rec.response()
        await double.wait_until(lambda: double.presence_updates)
    assert double.latest_ephemeral(world.alice).content == "#tuque for players"
    assert double.rest_calls["GET /gateway/bot"] == 1
    assert double.presence_updates[0]["activities"][0]["name"] == "Tuque"


class ShardBot(discord.AutoShardedClient):
    """One process of a bot split in shards, answering `/where` with the guild it came
    from; it identifies its shards without discord.py's 5 s pause between them."""

    def __init__(self, shard_ids: list[int] | None = None, shard_count: int | None = None) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            shard_ids=shard_ids,
            shard_count=shard_count,
            guild_ready_timeout=0.05,
        )
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(where)
        self.seen: list[int | None] = []
        """The guild of each interaction this process received (None: a DM)."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen.append(interaction.guild_id)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No pause: the double takes any number of IDENTIFYs at once."""


async def test_each_shard_gets_only_its_guilds_events_and_interactions(
    double: DiscordDouble,
) -> None:
    """Two processes of one bot, shard 0 and shard 1 of 2: each is told of its shard's
    guilds only, and a guild's channel events and slash commands reach its shard only;
    direct messages reach shard 0."""
    guilds = [double.add_guild(f"on shard {n}", shard=(n, 2)) for n in (0, 1)]
    assert [(g.id >> 22) % 2 for g in guilds] == [0, 1]
    channels = [double.add_channel(g, "tuque") for g in guilds]
    alice = double.add_user("alice", guild=guilds[0])
    double.add_member(guilds[1], alice)
    clients = [ShardBot([0], 2), ShardBot([1], 2)]
    async with double.running(clients[0]), double.running(clients[1]):
        await clients[0].tree.sync()
        assert [[g.id for g in c.guilds] for c in clients] == [[guilds[0].id], [guilds[1].id]]
        late = [double.add_channel(g, "late") for g in guilds]
        await double.wait_until(
            lambda: all(c.get_channel(ch.id) for c, ch in zip(clients, late, strict=True))
        )
        assert clients[0].get_channel(late[1].id) is None
        assert clients[1].get_channel(late[0].id) is None
        for channel in channels:
            await (await double.slash(alice, channel, "where")).settled()
            assert double.latest_ephemeral(alice).content == f"guild {channel.guild.id}"
        await (await double.forge_slash(alice, channels[1], "where", dm=True)).settled()
    # A direct message goes to shard 0, whatever guild the double files it under.
    assert [c.seen for c in clients] == [[guilds[0].id, None], [guilds[1].id]]
    assert double.gateway_events["GUILD_CREATE"] == 2


async def test_gateway_bot_recommends_the_shards_set(double: DiscordDouble) -> None:
    """An AutoShardedClient with no shard count asks GET /gateway/bot and runs every shard
    it recommends in one process: each guild on its own shard."""
    double.recommended_shards = 3
    guilds = [double.add_guild(f"on shard {n}", shard=(n, 3)) for n in (0, 1, 2)]
    client = ShardBot()
    async with double.running(client):
        assert client.shard_count == 3 and sorted(client.shards) == [0, 1, 2]
        assert sorted(g.id for g in client.guilds) == sorted(g.id for g in guilds)
        assert [client.get_guild(g.id).shard_id for g in guilds] == [0, 1, 2]  # type: ignore[union-attr]
    assert double.rest_calls["GET /gateway/bot"] == 1


async def test_an_invalid_shard_is_closed_with_4010(double: DiscordDouble) -> None:
    """IDENTIFY with shard id 2 of 2: Discord closes the session, 4010 Invalid shard."""
    client = discord.Client(
        intents=discord.Intents.default(), shard_id=2, shard_count=2, guild_ready_timeout=0.05
    )
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with double.running(client):
            pass
    assert closed.value.code == 4010


@pytest.mark.parametrize("shard_count", [None, 3])
async def test_a_shard_count_other_than_required_is_closed_with_4011(
    double: DiscordDouble, shard_count: int | None
) -> None:
    """The double requires 2 shards: an unsharded session, or one of 3 shards, is closed
    with 4011 Sharding required; shard 1 of 2 connects."""
    double.recommended_shards = 2
    double.require_sharding = True
    shard_id = None if shard_count is None else 0
    client = discord.Client(
        intents=discord.Intents.default(),
        shard_id=shard_id,
        shard_count=shard_count,
        guild_ready_timeout=0.05,
    )
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with double.running(client):
            pass
    assert closed.value.code == 4011
    async with double.running(ShardBot([1], 2)):
        pass


async def test_privileged_intents_must_be_enabled(double: DiscordDouble) -> None:
    double.privileged_intents = 0
    client = discord.Client(intents=discord.Intents.all(), guild_ready_timeout=0.05)
    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with double.running(client):
            pass


class EagerBot(MiniBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Skip discord.py's 5 s pause before every re-IDENTIFY."""


async def test_gateway_resume_and_reidentify(double: DiscordDouble, world: World) -> None:
    async with double.running(EagerBot(world.guild.id)):
        await double.disconnect_bot()
        await double.wait_until(lambda: double.gateway_events["RESUMED"] == 1)
        await (await double.slash(world.alice, world.table, "tuque", "settings")).response()
        await double.disconnect_bot(resumable=False)
        await double.wait_until(lambda: double.gateway_events["GUILD_CREATE"] == 2)
        await (await double.slash(world.bob, world.table, "tuque", "settings")).response()
    # initial, resumed, resume refused, fresh IDENTIFY
    assert len(double.gateway_connections) == 4


async def test_unknown_route_and_blocked_network_are_problems(
    double: DiscordDouble, world: World, log_guard: LogGuard
) -> None:
    async with double.running(world.bot):
        await (await double.slash(world.alice, world.table, "stray")).settled()
        assert double.latest_ephemeral(world.alice).content == "lookup failed"
    with pytest.raises(socket.gaierror):
        socket.getaddrinfo("discord.com", 443)
    with pytest.raises(AssertionError, match="unknown route: GET /api/v10/guilds/"):
        double.check()
    problems = double.take_problems()
    assert len(problems) == 2 and "network: attempted to resolve 'discord.com'" in problems[1]
    assert log_guard.records == []


async def test_double_ack_bad_token_and_oversized_message_are_caught(
    double: DiscordDouble, world: World, log_guard: LogGuard
) -> None:
    async with double.running(world.bot):
        rec = await double.slash(world.alice, world.table, "tuque", "settings")
        await rec.settled()
        async with aiohttp.ClientSession() as session:
            again = f"{double.api_url}/interactions/{rec.id}/{rec.token}/callback"
            async with session.post(again, json={"type": 4, "data": {"content": "again"}}) as resp:
                assert (resp.status, (await resp.json())["code"]) == (400, 40060)
            stranger = f"{double.api_url}/webhooks/{double.application_id}/not-a-token"
            async with session.post(stranger, json={"content": "hi"}) as resp:
                assert (resp.status, (await resp.json())["code"]) == (404, 10015)
            channel = f"{double.api_url}/channels/{world.table.id}/messages"
            auth = {"Authorization": f"Bot {double.token}"}
            async with session.post(channel, json={"content": ""}, headers=auth) as resp:
                assert (resp.status, (await resp.json())["code"]) == (400, 50006)
        shout = await double.slash(world.alice, world.table, "tuque", "shout")
        await double.wait_until(lambda: log_guard.records)
    assert not shout.acknowledged
    problems = double.take_problems()
    assert "Interaction has already been acknowledged" in problems[0]
    assert "Unknown Webhook" in problems[1]
    assert "Cannot send an empty message" in problems[2]
    assert "content: Must be 2000 or fewer in length." in problems[3]
    assert "never acknowledged" in problems[4]
    assert "In data.content: Must be 2000 or fewer in length." in log_guard.take()[0]


async def test_late_acknowledgement_is_rejected(
    double: DiscordDouble, world: World, log_guard: LogGuard
) -> None:
    double.ack_deadline = 0.05
    async with double.running(world.bot):
        rec = await double.slash(world.alice, world.table, "slow", delay=0.1)
        await double.wait_until(lambda: log_guard.records)
    assert not rec.acknowledged
    assert re.search(
        r"callback \d+\.\d+ s after dispatch \(limit 0\.05 s\)", double.take_problems()[0]
    )
    assert "404 Not Found (error code: 10062): Unknown interaction" in log_guard.take()[0]


async def test_restarted_client_handles_old_dynamic_button(
    double: DiscordDouble, world: World
) -> None:
    async with double.running(world.bot):
        await (await double.slash(world.alice, world.table, "tuque", "table")).settled()
        await (await double.slash(world.alice, world.table, "tuque", "settings")).settled()
    old_table = double.latest_message(world.table)
    old_settings = double.latest_ephemeral(world.alice)
    restarted = MiniBot(world.guild.id)
    async with double.running(restarted):
        custom_id = old_table.buttons[0].custom_id
        assert custom_id is not None
        rec = await double.click(world.bob, old_table, custom_id)
        await rec.response()
        assert double.latest_ephemeral(world.bob).content.startswith("bob joined table")
        # A plain View lives in the process that sent it: after a restart nobody answers.
        lost = await double.select(world.alice, old_settings, "settings:variant", ["tuque"])
        lost.expect_unanswered()
        await double.idle()
        assert not lost.acknowledged
    assert len(double.gateway_connections) == 2
    assert double.rest_calls["PUT /applications/{application_id}/guilds/{guild_id}/commands"] == 2


def _payload_errors(**payload: object) -> list[str]:
    return [f"{e.path}: {e.message}" for e in message_errors(dict(payload), 0)]


def test_validation_limits() -> None:
    embed = {
        "title": "t" * 257,
        "fields": [{"name": "n", "value": "v" * 1025}] + [{"name": "n", "value": "v"}] * 25,
        "footer": {"text": "f" * 2049},
    }
    assert _payload_errors(embeds=[embed]) == [
        "embeds.0.title: Must be 256 or fewer in length.",
        "embeds.0.footer.text: Must be 2048 or fewer in length.",
        "embeds.0.fields: Must be 25 or fewer in length.",
        "embeds.0.fields.0.value: Must be 1024 or fewer in length.",
    ]
    assert _payload_errors(embeds=[{"description": "d" * 4000}, {"description": "d" * 2001}]) == [
        "embeds: Embed size exceeds maximum size of 6000"
    ]
    button = {"type": 2, "style": 1, "label": "x", "custom_id": "c" * 101}
    rows = [
        {"type": 1, "components": [dict(button, custom_id=f"b{i}{j}") for j in range(6)]}
        for i in range(6)
    ]
    rows[0]["components"][0] = button
    errors = _payload_errors(components=rows)
    assert errors[0] == "components: Must be 5 or fewer in length."
    assert "components.0.components: Must be between 1 and 5 in length." in errors
    assert "components.0.components.0.custom_id: Must be 100 or fewer in length." in errors
    assert _payload_errors(embeds=[{}] * 11) == ["embeds: Must be 10 or fewer in length."]


def test_stored_message_helpers() -> None:
    guild = Guild(id=1, name="g", owner_id=2)
    channel = Channel(id=3, guild=guild, name="c")
    bot = User(id=4, name="bot", bot=True)
    message = StoredMessage(
        id=5,
        channel=channel,
        author=bot,
        embeds=[{"title": "Score", "fields": [{"name": "Us", "value": "7"}]}],
        components=[
            {
                "type": 1,
                "components": [{"type": 2, "style": 5, "label": "Rules", "url": "https://x"}],
            }
        ],
    )
    assert message.text == "Score\nUs\n7"
    assert message.buttons[0].url == "https://x" and message.buttons[0].custom_id is None


@pytest.mark.parametrize(
    ("status", "global_"), [(429, False), (429, True), (500, False), (502, False), (504, False)]
)
async def test_channel_post_survives_what_discord_py_retries(
    double: DiscordDouble, world: World, status: int, global_: bool
) -> None:
    """One 429 (per route or global) or 500/502/504 on a channel post: discord.py retries
    by itself; the failed attempt stored nothing, so the message exists once."""
    fault = double.fail("POST /channels/{channel_id}/messages", status, global_=global_)
    async with double.running(world.bot):
        channel = world.bot.get_channel(world.table.id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("after the fault")
    assert fault.hits == 1 and fault.times == 0
    assert [m.content for m in double.channel_messages(world.table)] == ["after the fault"]
    statuses = [r.status for r in double.requests if f"{r.method} {r.route}" == fault.route]
    assert statuses == [status, 200]


async def test_a_503_on_a_channel_post_raises_and_stores_nothing(
    double: DiscordDouble, world: World
) -> None:
    """discord.py does not retry a 503 on bot REST calls: the caller sees it."""
    double.fail("POST /channels/{channel_id}/messages", 503)
    async with double.running(world.bot):
        channel = world.bot.get_channel(world.table.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.DiscordServerError):
            await channel.send("lost")
        await channel.send("kept")
    assert [m.content for m in double.channel_messages(world.table)] == ["kept"]


async def test_interaction_callback_fault_is_retried_by_the_webhook_adapter(
    double: DiscordDouble, world: World
) -> None:
    """A 503 on the interaction callback: discord.py's webhook adapter retries every 5xx,
    so the command is acknowledged once; a `match` picks which requests fail."""
    fault = double.fail(
        "POST /interactions/{interaction_id}/{token}/callback",
        503,
        match=lambda path, body: body["type"] == 4,
    )
    async with double.running(world.bot):
        rec = await double.slash(world.alice, world.table, "where")
        await rec.settled(timeout=5)
    assert fault.hits == 1
    assert rec.original is not None and rec.original.ephemeral


async def test_unknown_fault_route_is_a_script_error(double: DiscordDouble) -> None:
    with pytest.raises(ScriptError, match="unknown route"):
        double.fail("POST /channels/{id}/nothing", 500)


async def test_forged_slash_and_click_reach_the_client(double: DiscordDouble, world: World) -> None:
    """Forged values skip the double's checks (a modified client), and a forged click names
    a button the message does not show; both reach discord.py as Discord would send them."""
    async with double.running(world.bot):
        with pytest.raises(ScriptError, match="one of"):
            await double.slash(
                world.alice, world.table, "tuque", "challenge", opponent=world.bob, variant="chess"
            )
        rec = await double.forge_slash(
            world.alice, world.table, "tuque", "challenge", opponent=world.bob, variant="chess"
        )
        await rec.settled()
        assert "to chess to 10" in double.latest_message(world.table).text
        message = double.latest_message(world.table)
        click = await double.forge_click(world.bob, message, "table:12345:join")
        await click.settled()
        assert double.latest_ephemeral(world.bob).text == "bob joined table 12345"


async def test_a_command_from_direct_messages_has_no_guild(
    double: DiscordDouble, world: World
) -> None:
    async with double.running(world.bot):
        rec = await double.forge_slash(world.alice, world.table, "where", dm=True)
        await rec.settled()
    assert rec.original is not None and rec.original.text == "guild None"


PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
"""Enough of a PNG for discord.py and the double (both read the signature only)."""


async def test_application_emojis_are_uploaded_listed_and_counted(
    double: DiscordDouble, world: World
) -> None:
    """An upload is listed with its id and image; seeded emojis are listed, not counted."""
    seeded = double.add_application_emoji("seeded", PNG)
    async with double.running(world.bot):
        made = await world.bot.create_application_emoji(name="tq_10h", image=PNG)
        listed = await world.bot.fetch_application_emojis()
    assert {(e.name, e.id) for e in listed} == {("seeded", seeded.id), ("tq_10h", made.id)}
    stored = double.application_emoji("tq_10h")
    assert stored is not None and stored.image == PNG and str(made) == stored.markdown
    assert double.emoji_uploads == ["tq_10h"]
    double.remove_application_emoji("seeded")
    assert double.application_emoji("seeded") is None


@pytest.mark.parametrize(
    ("name", "image", "error"),
    [
        ("tq_ah", PNG, "Emoji name is already taken"),
        ("x", PNG, "Must be between 2 and 32 in length"),
        ("tq-ah", PNG, "did not match validation regex"),
        ("tq_big", PNG + b"\0" * (256 * 1024), "cannot be larger than 256.0 kb"),
    ],
)
async def test_an_invalid_emoji_upload_is_rejected_as_discord_does(
    double: DiscordDouble, world: World, name: str, image: bytes, error: str
) -> None:
    """Name rule, duplicate names and the 256 KiB image limit: 400 Invalid Form Body."""
    double.add_application_emoji("tq_ah", PNG)
    async with double.running(world.bot):
        with pytest.raises(discord.HTTPException, match=error) as raised:
            await world.bot.create_application_emoji(name=name, image=image)
    assert raised.value.code == 50035 and double.emoji_uploads == []
    assert len(double.take_problems()) == 1


async def test_the_application_emoji_limit_refuses_more(
    double: DiscordDouble, world: World
) -> None:
    """Past the limit Discord answers 30018; that is the world's state, not a bad request."""
    double.application_emoji_limit = 1
    async with double.running(world.bot):
        await world.bot.create_application_emoji(name="one", image=PNG)
        with pytest.raises(discord.HTTPException) as raised:
            await world.bot.create_application_emoji(name="two", image=PNG)
    assert raised.value.code == 30018 and double.emoji_uploads == ["one"]
    assert double.problems() == []


async def test_a_button_may_show_only_the_applications_own_emojis(
    double: DiscordDouble, world: World
) -> None:
    """A button with an application emoji is stored; one with an unknown custom emoji is
    refused as Discord refuses it (a Unicode emoji is always fine)."""
    own = double.add_application_emoji("tq_ah", PNG)

    def view(emoji: discord.PartialEmoji | str) -> discord.ui.View:
        ui = discord.ui.View()
        ui.add_item(discord.ui.Button(label="A♥", emoji=emoji, custom_id="card"))
        return ui

    async with double.running(world.bot):
        channel = world.bot.get_channel(world.table.id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("mine", view=view(discord.PartialEmoji(name="tq_ah", id=own.id)))
        await channel.send("unicode", view=view("🃏"))
        with pytest.raises(discord.HTTPException, match="Invalid emoji"):
            await channel.send("stray", view=view(discord.PartialEmoji(name="x", id=own.id + 1)))
    assert [m.content for m in double.channel_messages(world.table)] == ["mine", "unicode"]
    assert double.channel_messages(world.table)[0].buttons[0].emoji == own.markdown
    assert len(double.take_problems()) == 1


# ---------------------------------------------------------------------- Discord's specification


def test_the_specification_knows_each_route_and_method() -> None:
    """A path the specification does not list is a 404, a method it does not list a 405;
    the most literal template wins (@original before {message_id})."""
    assert spec().check("GET", "/users/@me", {}, None, None).status == 0
    unknown = spec().check("GET", "/guilds/1/tuque", {}, None, None)
    assert (unknown.operation, unknown.status) == (None, 404)
    assert spec().check("PUT", "/users/@me", {}, None, None).status == 405
    original = spec().check("GET", "/webhooks/1/token/messages/@original", {}, None, None)
    assert original.operation == "get_original_webhook_message"


async def test_a_route_the_specification_lacks_is_refused_and_fails_the_test(
    double: DiscordDouble, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against a specification without GET /users/{user_id} and without the typing route's
    POST, the double answers those as Discord would (404, 405) and records both."""
    document = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    del document["paths"]["/users/{user_id}"]
    del document["paths"]["/channels/{channel_id}/typing"]["post"]
    narrower = Spec(document)
    monkeypatch.setattr(double_server, "discord_spec", lambda: narrower)
    async with double.running(world.bot):
        with pytest.raises(discord.NotFound):
            await world.bot.fetch_user(world.bob.id)
        channel = world.bot.get_channel(world.table.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as raised:
            await channel.typing()
    assert raised.value.status == 405
    problems = double.take_problems()
    assert len(problems) == 2
    assert f"GET /users/{world.bob.id}: no such path in Discord's API specification" in problems[0]
    assert "no such method in Discord's API specification" in problems[1]


def test_the_specification_checks_query_parameters() -> None:
    """Query values arrive as text: integers and booleans are read as such; unknown
    parameters and values out of range are refused."""
    assert spec().check("GET", "/channels/1/messages", {"limit": "100"}, None, None).errors == []
    verdict = spec().check("GET", "/channels/1/messages", {"limit": "101", "page": "2"}, None, None)
    assert [(e.path, e.code) for e in verdict.errors] == [
        ("query.limit", "NUMBER_TYPE_MAX"),
        ("query.page", "UNKNOWN_FIELD"),
    ]
    callback = "/interactions/1/token/callback"
    body = {"type": 6}
    verdict = spec().check("POST", callback, {"with_response": "true"}, "application/json", body)
    assert (verdict.status, verdict.errors) == (0, [])


def test_the_specification_allows_discord_py_differences_by_name_only() -> None:
    """discord.py's embed `flags`, `tts` on edits and numeric emoji and attachment ids pass,
    integer strings fit integer fields; any other field a schema does not list is refused."""
    button = {
        "type": 2,
        "style": 1,
        "label": "A",
        "custom_id": "a",
        "emoji": {"id": 7, "name": "x"},
    }
    edit = {
        "content": "x",
        "embeds": [{"title": "t", "flags": 0}],
        "components": [{"type": 1, "components": [button]}],
        "attachments": [{"id": 0, "filename": "a.txt"}],
        "tts": False,
    }
    path = "/channels/1/messages/2"
    assert spec().check("PATCH", path, {}, "application/json", edit).errors == []
    command = {"name": "x", "description": "d", "default_member_permissions": "8"}
    verdict = spec().check("PUT", "/applications/1/commands", {}, "application/json", [command])
    assert (verdict.status, verdict.errors) == (0, [])
    stray = {**edit, "embeds": [{"title": "t", "colour": 1}]}
    errors = spec().check("PATCH", path, {}, "application/json", stray).errors
    assert [(e.path, e.code) for e in errors] == [("embeds.0.colour", "UNKNOWN_FIELD")]


@pytest.mark.parametrize(
    "change",
    [
        {},
        {"content": 5},
        {"content": "x" * 2001},
        {"colour": 1},
        {"flags": "64"},
        {"flags": 1.5},
        {"embeds": [{"title": "t", "fields": [{"name": "n"}]}]},
        {"embeds": [{"title": "t" * 257}]},
        {"components": [{"type": 1, "components": [{"type": 2, "style": 9, "label": "A"}]}]},
        {"components": [{"type": 1, "components": [{"type": 99}]}]},
        {"components": [{"type": 10, "content": "a text display"}]},
        {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "A"}]}]},
        {"allowed_mentions": {"parse": ["everyone", "nobody"]}},
        {"message_reference": {"message_id": "12", "fail_if_not_exists": "no"}},
    ],
)
def test_the_compiled_check_accepts_only_what_the_full_check_accepts(
    change: dict[str, object],
) -> None:
    """The double's fast path (jsonschema-rs, strict 2020-12) passes a body only if the
    full check (jsonschema, Discord's field errors) finds nothing: it may refuse more (an
    integer written as digits), never less; and a plain body passes it."""
    body = {"content": "hello", **change}
    pointer = "/paths/~1channels~1{channel_id}~1messages/post/requestBody/content"
    pointer += "/application~1json/schema"
    fast = spec().fast_validator(pointer).is_valid(body)
    full = list(spec().validator(pointer).iter_errors(body)) == []
    assert full or not fast  # never less
    assert fast == full or change == {"flags": "64"}


async def test_a_request_against_the_specification_is_refused_and_fails_the_test(
    double: DiscordDouble, world: World
) -> None:
    """A wrong type and an unknown field: 400 Invalid Form Body with the errors object,
    nothing stored, and a problem that fails the test; a valid request passes and counts."""
    async with double.running(world.bot), aiohttp.ClientSession() as session:
        url = f"{double.api_url}/channels/{world.table.id}/messages"
        auth = {"Authorization": f"Bot {double.token}"}
        async with session.post(url, json={"content": 5}, headers=auth) as resp:
            assert resp.status == 400
            body = await resp.json()
        assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
        assert body["errors"]["content"]["_errors"][0]["code"] == "SPEC_TYPE"
        async with session.post(url, json={"content": "hi", "colour": 1}, headers=auth) as resp:
            assert resp.status == 400
            body = await resp.json()
        assert body["errors"]["colour"]["_errors"][0]["code"] == "UNKNOWN_FIELD"
        async with session.post(url, json={"content": "hi"}, headers=auth) as resp:
            assert resp.status == 200
    assert [m.content for m in double.channel_messages(world.table)] == ["hi"]
    with pytest.raises(AssertionError, match="colour: Unknown field 'colour'"):
        double.check()
    problems = double.take_problems()
    assert len(problems) == 2 and "content: 5 is not of type 'string', 'null'" in problems[0]
    assert "create_message" in problems[0]
    assert double.spec_counts["create_message"] == 3
    assert double.spec_counts["bulk_set_guild_application_commands"] == 1


async def test_a_command_sync_with_a_too_large_integer_bound_is_refused(
    double: DiscordDouble, world: World
) -> None:
    """An integer option's max_value beyond ±2^53 (the specification's Int53Type and the
    documented limit): the whole sync fails, as the bot's start-up would on Discord."""

    @app_commands.command(description="Look a game up")
    async def replay(
        interaction: discord.Interaction, game: app_commands.Range[int, 1, 2**62]
    ) -> None:
        raise AssertionError("never synced, never called")

    async with double.running(world.bot):
        world.bot.tree.add_command(replay, guild=world.bot.dev_guild)
        with pytest.raises(app_commands.CommandSyncFailure, match="max_value") as raised:
            await world.bot.tree.sync(guild=world.bot.dev_guild)
    assert raised.value.code == 50035
    assert "replay" not in {c["name"] for c in double.synced_commands(world.guild)}
    problems = double.take_problems()
    assert len(problems) == 1 and "options.0.max_value: Must be less than" in problems[0]


def test_documented_command_limits_beyond_the_specification() -> None:
    """Bounds within ±2^53 for number options too, a minimum above its maximum, choices
    with autocomplete, and 8,000 characters per command."""
    option = {"type": 10, "name": "x", "description": "d", "min_value": -(2.0**60)}
    ranged = {"type": 4, "name": "y", "description": "d", "min_value": 5, "max_value": 1}
    choices = [{"name": "a", "value": "a"}]
    both = {"type": 3, "name": "z", "description": "d", "choices": choices, "autocomplete": True}
    command = {"name": "c", "description": "d", "options": [option, ranged, both]}
    assert [(e.path, e.code) for e in command_errors([command])] == [
        ("0.options.0.min_value", "NUMBER_TYPE_MIN"),
        ("0.options.1.max_value", "APPLICATION_COMMAND_OPTION_RANGE_INVALID"),
        ("0.options.2.autocomplete", "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES"),
    ]
    wordy = [{"name": f"o{i}", "description": "d" * 100} for i in range(25)]
    subcommands = [{"type": 1, "name": f"s{i}", "description": "d" * 100} for i in range(4)]
    big = {"name": "c", "description": "d", "options": [*subcommands]}
    for sub in big["options"]:
        sub["options"] = [dict(o, type=3) for o in wordy]
    assert [e.code for e in command_errors([big])] == ["APPLICATION_COMMAND_TOO_LARGE"]


async def test_a_multipart_payload_json_is_checked_like_a_json_body(
    double: DiscordDouble, world: World
) -> None:
    """A file upload's payload_json against the operation's schema (an embed title over
    256 characters), and its file parts against the form's own fields."""
    async with double.running(world.bot):
        channel = world.bot.get_channel(world.table.id)
        assert isinstance(channel, discord.TextChannel)
        notes = discord.File(io.BytesIO(b"notes"), filename="notes.txt")
        long_title = discord.Embed(title="t" * 257)
        with pytest.raises(discord.HTTPException, match=r"embeds\.0\.title"):
            await channel.send("x", file=notes, embed=long_title)
        good = await channel.send("y", file=discord.File(io.BytesIO(b"ok"), filename="ok.txt"))
        form = aiohttp.FormData()
        form.add_field("payload_json", '{"content": "z"}', content_type="application/json")
        form.add_field("upload", b"data", filename="z.txt")
        url = f"{double.api_url}/channels/{world.table.id}/messages"
        auth = {"Authorization": f"Bot {double.token}"}
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, data=form, headers=auth) as resp,
        ):
            assert resp.status == 400
    assert [m.id for m in double.channel_messages(world.table)] == [good.id]
    problems = double.take_problems()
    assert len(problems) == 2
    assert "embeds.0.title: Must be 256 or fewer in length." in problems[0]
    assert "upload: Unknown form field 'upload'" in problems[1]


async def test_spec_counts_are_reported_when_asked(
    double: DiscordDouble, world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With DISCORD_SPEC_REPORT each double appends its counts on close; report_totals
    adds them up per operation, most used first."""
    report = tmp_path / "spec.jsonl"
    monkeypatch.setenv("DISCORD_SPEC_REPORT", str(report))
    async with double.running(world.bot):
        pass
    await double.close()
    lines = report.read_text().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["counts"]["bulk_set_guild_application_commands"] == 1
    totals = report_totals([*lines, *lines])
    assert totals[0].startswith("6 requests of 2 doubles validated")
    assert any(line.split() == ["2", "bulk_set_guild_application_commands"] for line in totals)


async def test_a_message_carries_discords_full_attachment_objects(
    double: DiscordDouble, world: World
) -> None:
    """Each upload comes back as Discord describes it: id, filename, size, url, proxy_url,
    the content type Discord guesses from the name, an image's size, the description."""
    from PIL import Image

    image = io.BytesIO()
    Image.new("RGB", (3, 2)).save(image, format="PNG")
    async with double.running(world.bot):
        channel = world.bot.get_channel(world.table.id)
        assert isinstance(channel, discord.TextChannel)
        files = [
            discord.File(io.BytesIO(b'{"a": 1}'), filename="game-1.json"),
            discord.File(io.BytesIO(image.getvalue()), filename="face.png", description="A♥"),
        ]
        sent = await channel.send("files", files=files)
    record, face = double.channel_messages(world.table)[0].attachments
    assert set(record) == {"id", "filename", "size", "url", "proxy_url", "content_type"}
    assert (record["filename"], record["size"]) == ("game-1.json", 8)
    assert record["content_type"] == "application/json; charset=utf-8"
    assert record["url"].endswith(f"/{record['id']}/game-1.json")
    assert (face["content_type"], face["width"], face["height"]) == ("image/png", 3, 2)
    assert face["description"] == "A♥"
    parsed = sent.attachments[1]
    assert (parsed.filename, parsed.width, parsed.height, parsed.description) == (
        "face.png",
        3,
        2,
        "A♥",
    )
    assert double.attachment_bytes(record) == b'{"a": 1}'


def test_documented_file_uploads_pass_where_the_specification_lists_no_file_part() -> None:
    """An interaction response and a follow-up may carry files[n] (Discord's documentation),
    though their multipart schemas in the specification list none; other names may not."""
    body = {"type": 4, "data": {"content": "x", "attachments": [{"id": 0, "filename": "a.txt"}]}}
    callback = "/interactions/1/token/callback"
    form = "multipart/form-data"
    assert spec().check("POST", callback, {}, form, body, ["files[0]"]).errors == []
    followup = {"content": "x", "attachments": [{"id": 0, "filename": "a.txt"}]}
    assert spec().check("POST", "/webhooks/1/token", {}, form, followup, ["files[0]"]).status == 0
    verdict = spec().check("POST", callback, {}, form, body, ["files[10]"])
    assert [e.path for e in verdict.errors] == ["files[10]"]
