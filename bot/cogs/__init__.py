"""The bot's features, one cog each: games, lobbies and challenges, records, settings,
events.

Every slash command is a subcommand of ``/tuque``. discord.py binds an
``app_commands.Group`` to one cog, and ``/tuque`` spans them all, so each cog declares
its commands as top-level ones (or a group of them: ``/tuque event new``) and moves
them into the bot's ``/tuque`` group when it loads (``TuqueCog``); the commands keep
their binding to the cog that owns them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.sessions.state import NO_GUILD
from bot.store import GuildSettings

if TYPE_CHECKING:
    from bot.client import TuqueBot

__all__ = ["EXTENSIONS", "SWEEP_SECONDS", "TuqueCog", "game_guild"]

log = logging.getLogger(__name__)

SWEEP_SECONDS = 30.0
"""Seconds between two runs of a cog's ``sweep`` (turn timers, expiry)."""

EXTENSIONS = (
    "bot.cogs.games",
    "bot.cogs.lobbies",
    "bot.cogs.records",
    "bot.cogs.settings",
    "bot.cogs.events",
)
"""The cogs' modules, loaded in this order by ``TuqueBot.setup_hook``."""


def game_guild(interaction: discord.Interaction) -> int:
    """The guild a game of ``interaction`` is stored under: its server's, or
    :data:`~bot.sessions.state.NO_GUILD` in a DM or group DM."""
    return NO_GUILD if interaction.guild_id is None else interaction.guild_id


class TuqueCog(commands.Cog):
    """A cog whose slash commands are subcommands of ``/tuque``.

    Args:
        bot: the bot; its ``tuque`` group receives the cog's commands on load and
            gives them back on unload.
    """

    def __init__(self, bot: TuqueBot) -> None:
        self.bot = bot
        self._subcommands: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (``/tuque settings``): its own, the bot's defaults for
        the rest."""
        defaults = GuildSettings.defaults(self.bot.settings)
        return await self.bot.store.guild_settings(guild_id, defaults)

    async def variant_or_default(self, guild_id: int, variant: str | None) -> str:
        """``variant``, or the server's default game when the member named none."""
        if variant is not None:
            return variant
        return (await self.guild_settings(guild_id)).default_variant

    async def sweep(self) -> None:
        """The cog's periodic work, every ``SWEEP_SECONDS`` once the bot is ready (none
        by default); a failure is logged and the next sweep runs as usual."""

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def sweeper(self) -> None:
        try:
            await self.sweep()
        except Exception:
            log.exception("%s: the sweep failed", self.qualified_name)

    @sweeper.before_loop
    async def _before_sweeper(self) -> None:
        await self.bot.wait_until_ready()

    async def stop_sweeping(self) -> None:
        """Stop the sweeper, a sweep under way included, and wait until it has ended:
        the bot calls this before it closes the store, which a sweep must not outlive."""
        self.sweeper.cancel()
        task = self.sweeper.get_task()
        if task is not None:
            # Not a suppressed CancelledError: that would also swallow a cancellation
            # of the stop itself.
            await asyncio.gather(task, return_exceptions=True)

    async def cog_load(self) -> None:
        # Emptied here so that Cog._inject does not add them to the tree at top level.
        moved, self.__cog_app_commands__ = self.__cog_app_commands__, []
        for command in moved:
            assert isinstance(command, app_commands.Command | app_commands.Group)
            self.bot.tuque.add_command(command)
            self._subcommands.append(command)
        if type(self).sweep is not TuqueCog.sweep:
            self.sweeper.start()

    async def cog_unload(self) -> None:
        self.sweeper.cancel()
        for command in self._subcommands:
            self.bot.tuque.remove_command(command.name)
        self._subcommands.clear()
