"""The ``/tuque`` slash commands. Each hands over to the session manager or the store."""

from __future__ import annotations

import math
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.client import TuqueBot
from bot.components import leaderboard_view
from bot.store import Store

__all__ = ["LEADERBOARD_PAGE", "TuqueCog", "leaderboard_message"]

LEADERBOARD_PAGE = 10
"""Players per leaderboard page."""

Variant = Literal["tuque", "tuque61"]
Level = Literal["easy", "normal", "hard"]


async def leaderboard_message(
    store: Store, guild_id: int, variant: str | None, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed and paging buttons of leaderboard page ``page`` (0-based, clamped)."""
    total = await store.leaderboard_count(guild_id, variant)
    pages = max(1, math.ceil(total / LEADERBOARD_PAGE))
    page = min(max(page, 0), pages - 1)
    rows = await store.leaderboard(
        guild_id, variant, limit=LEADERBOARD_PAGE, offset=page * LEADERBOARD_PAGE
    )
    return (
        render.leaderboard_embed(rows, variant, page, pages),
        leaderboard_view(variant or "all", page, pages),
    )


def _target(variant: str, target: int | None) -> int | None:
    """The target option, or raise when it does not fit the variant (RULES.md §1, §2)."""
    if target is not None and variant == "tuque61":
        raise ValueError("Tuque to 61 is always played to 61: leave out `target`.")
    return target


@app_commands.guild_only()
class TuqueCog(commands.GroupCog, group_name="tuque", group_description="Play Tuque"):
    """``/tuque challenge|bot|hand|resign|leaderboard|stats|rules``."""

    def __init__(self, bot: TuqueBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Challenge a member of this server to a game of Tuque.")
    @app_commands.describe(
        opponent="Who you want to play",
        variant="tuque (first to 5 or 10) or tuque61 (points per trick, first to 61)",
        target="Points to win a tuque game: 5 (short) or 10 (full, the default)",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        variant: Variant = "tuque",
        target: Literal[5, 10] | None = None,
    ) -> None:
        try:
            goal = _target(variant, target)
        except ValueError as err:
            await self.bot.sessions.deny(interaction, str(err))
            return
        await self.bot.sessions.start_challenge(interaction, opponent, variant, goal)

    @app_commands.command(name="bot", description="Play a game of Tuque against the computer.")
    @app_commands.describe(
        variant="tuque (first to 5 or 10) or tuque61 (points per trick, first to 61)",
        target="Points to win a tuque game: 5 (short) or 10 (full, the default)",
        level="easy, normal (default) or hard",
    )
    async def computer_game(
        self,
        interaction: discord.Interaction,
        variant: Variant = "tuque",
        target: Literal[5, 10] | None = None,
        level: Level = "normal",
    ) -> None:
        try:
            goal = _target(variant, target)
        except ValueError as err:
            await self.bot.sessions.deny(interaction, str(err))
            return
        await self.bot.sessions.start_computer_game(interaction, variant, goal, level)

    @app_commands.command(description="See your hand and tableau in your game here (only you).")
    async def hand(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        games = self.bot.sessions.games_of(
            interaction.guild_id, interaction.channel_id, interaction.user.id
        )
        if not games:
            await self.bot.sessions.deny(
                interaction, "You have no game in progress in this channel."
            )
            return
        await self.bot.sessions.show_hand(interaction, games[0].id)

    @app_commands.command(description="Concede your game here (it counts as a loss).")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.bot.sessions.ask_resign(interaction)

    @app_commands.command(description="The server's top players.")
    @app_commands.describe(variant="Only this variant (default: all)")
    async def leaderboard(
        self, interaction: discord.Interaction, variant: Variant | None = None
    ) -> None:
        assert interaction.guild_id is not None
        embed, view = await leaderboard_message(self.bot.store, interaction.guild_id, variant, 0)
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(description="A player's record: games, wins, hands made and euchred.")
    @app_commands.describe(member="Whose record (default: yours)", variant="Only this variant")
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        variant: Variant | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        who = member or interaction.user
        stats = await self.bot.store.player_stats(interaction.guild_id, who.id, variant)
        await interaction.response.send_message(embed=render.stats_embed(stats, who.display_name))

    @app_commands.command(description="A short summary of the rules.")
    @app_commands.describe(variant="Which game (default: tuque)")
    async def rules(self, interaction: discord.Interaction, variant: Variant = "tuque") -> None:
        await interaction.response.send_message(embed=render.rules_embed(variant), ephemeral=True)
