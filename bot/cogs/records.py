"""Records: ``/tuque leaderboard`` (paged with buttons), ``/tuque stats`` and
``/tuque replay`` (a finished game's record and story)."""

from __future__ import annotations

import io
import json
import math
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import render, replies
from bot.cogs import TuqueCog
from bot.components import LeaderboardButton
from bot.options import GameNumber, Variant
from bot.sessions import record_of
from bot.store import GameNotFound, GameStatus, Store

if TYPE_CHECKING:
    from bot.client import TuqueBot

__all__ = ["LEADERBOARD_PAGE", "RecordsCog", "leaderboard_message", "setup"]

LEADERBOARD_PAGE = 10
"""Players per leaderboard page."""


def leaderboard_view(variant: str, page: int, pages: int) -> discord.ui.View | None:
    """Previous/next buttons for a leaderboard with ``pages`` pages (none if one page)."""
    if pages <= 1:
        return None
    ui = discord.ui.View(timeout=None)
    ui.add_item(LeaderboardButton(variant, max(page - 1, 0), "◀ Previous", disabled=page == 0))
    ui.add_item(
        LeaderboardButton(variant, min(page + 1, pages - 1), "Next ▶", disabled=page >= pages - 1)
    )
    return ui


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


class RecordsCog(TuqueCog, name="Records"):
    """The server's leaderboard and a member's record (``components.RecordControls``)."""

    async def page_leaderboard(
        self, interaction: discord.Interaction, variant: str, page: int
    ) -> None:
        """A leaderboard paging button: the message shows page ``page``."""
        if interaction.guild_id is None:
            await replies.deny(interaction, "Leaderboards belong to a server.")
            return
        embed, view = await leaderboard_message(
            self.bot.store, interaction.guild_id, None if variant == "all" else variant, page
        )
        await replies.edit_clicked(interaction, embed=embed, view=view)

    @app_commands.command(description="The server's top players.")
    @app_commands.describe(variant="Only this variant (default: all)")
    async def leaderboard(
        self, interaction: discord.Interaction, variant: Variant | None = None
    ) -> None:
        assert interaction.guild_id is not None  # TuqueTree.interaction_check
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
        assert interaction.guild_id is not None  # TuqueTree.interaction_check
        who = member or interaction.user
        stats = await self.bot.store.player_stats(interaction.guild_id, who.id, variant)
        await interaction.response.send_message(embed=render.stats_embed(stats, who.display_name))

    @app_commands.command(description="Replay a finished game: its record and every hand.")
    @app_commands.describe(game="The game's number (#12 on its table)")
    async def replay(self, interaction: discord.Interaction, game: GameNumber) -> None:
        """Post a finished game of this server in the channel: a summary, the record as
        a JSON file (``tuque replay FILE`` rebuilds it) and the hand-by-hand story with
        every card. A game still being played shows nothing beyond its public table."""
        assert interaction.guild_id is not None  # TuqueTree.interaction_check
        try:
            row = await self.bot.store.load_game(game)
        except GameNotFound:
            row = None
        if row is None or row.guild_id != interaction.guild_id:
            await replies.deny(interaction, f"There is no game #{game} on this server.")
            return
        if row.status is GameStatus.ACTIVE:
            await replies.deny(
                interaction,
                f"Game #{game} is still being played: its hands stay hidden until it ends. "
                f"Its table is in <#{row.channel_id}>.",
            )
            return
        record = record_of(row)
        seating = render.seating_of(row.seats)
        story = render.replay_story(record, seating)
        hands = story.count("\nHand ") + story.startswith("Hand ")
        files = [
            discord.File(
                io.BytesIO(json.dumps(record, indent=1).encode()), filename=f"game-{game}.json"
            ),
            discord.File(io.BytesIO(story.encode()), filename=f"game-{game}.txt"),
        ]
        await replies.send(interaction, embed=render.replay_embed(row, seating, hands), files=files)


async def setup(bot: TuqueBot) -> None:
    """The extension's entry point (``Bot.load_extension``)."""
    await bot.add_cog(RecordsCog(bot))
