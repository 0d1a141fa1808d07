"""Server settings: ``/tuque settings`` shows a server's settings to any member (only to
them) and lets a member with Manage Server change them.

Discord's ``default_permissions`` cannot hide a subcommand (it applies to ``/tuque`` as
a whole), so the permission is checked here, on every change, from the interaction's
resolved permissions. A refused or invalid change is an ephemeral sentence and writes
nothing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import render, replies
from bot.cogs import TuqueCog
from bot.options import Between, Variant, YesNo
from bot.store import GuildSettings

if TYPE_CHECKING:
    from bot.client import TuqueBot

__all__ = ["MAX_DELAY_SECONDS", "MAX_MINUTES", "GuildSettingsCog", "setup"]

log = logging.getLogger(__name__)

MAX_MINUTES = 1440
"""The longest turn timer a server may set, in minutes (a day)."""
MAX_DELAY_SECONDS = 10.0
"""The longest pause a server may give the computer before each move, in seconds."""

ReminderMinutes = app_commands.Transform[int, Between("reminder", 1, MAX_MINUTES, "minutes")]
AwayMinutes = app_commands.Transform[int, Between("away time", 2, MAX_MINUTES, "minutes")]
DelaySeconds = app_commands.Transform[
    float, Between("computer's pause", 0.0, MAX_DELAY_SECONDS, "seconds")
]
HintsFlag = app_commands.Transform[bool, YesNo("hints_in_rated")]
ThreadsFlag = app_commands.Transform[bool, YesNo("threads")]
ResetFlag = app_commands.Transform[bool, YesNo("reset")]
ClearHostRoleFlag = app_commands.Transform[bool, YesNo("no_event_host_role")]


class GuildSettingsCog(TuqueCog, name="Settings"):
    """``/tuque settings``, and each server's computer pace handed to the sessions."""

    def defaults(self) -> GuildSettings:
        """The bot's defaults (the operator's environment)."""
        return GuildSettings.defaults(self.bot.settings)

    async def cog_load(self) -> None:
        await super().cog_load()
        # Before the sessions restore their games, so a computer on turn keeps its pace.
        for guild_id, own in (await self.bot.store.all_guild_settings(self.defaults())).items():
            self._hand_over(guild_id, own)

    def _hand_over(self, guild_id: int, settings: GuildSettings) -> None:
        """Give the sessions what they apply to games: the computer's pause, whether
        rated games offer hints, and whether new games get a thread."""
        sessions = self.bot.sessions
        sessions.computers.move_delays[guild_id] = settings.computer_delay_seconds
        if settings.hints_in_rated:
            sessions.rated_hints.add(guild_id)
        else:
            sessions.rated_hints.discard(guild_id)
        if settings.threads:
            sessions.delivery.threads_off.discard(guild_id)
        else:
            sessions.delivery.threads_off.add(guild_id)

    @app_commands.command(
        name="settings", description="This server's Tuque settings; Manage Server changes them."
    )
    @app_commands.describe(
        reminder_minutes="Minutes into a member's turn before they are reminded",
        away_minutes="Minutes into a turn before the computer plays for them to the hand's end",
        computer_delay="Seconds each computer waits before it plays (0 to 10)",
        hints_in_rated="Whether members may ask for hints in rated games",
        default_variant="The game /tuque bot, table and challenge start when none is named",
        threads="Whether each game gets its own thread for pings and hand results",
        event_host_role="A role whose members may create, start and cancel events",
        no_event_host_role="No event-host role: only Manage Events creates events",
        reset="Put every setting back to the bot's defaults",
    )
    async def settings_command(
        self,
        interaction: discord.Interaction,
        reminder_minutes: ReminderMinutes | None = None,
        away_minutes: AwayMinutes | None = None,
        computer_delay: DelaySeconds | None = None,
        hints_in_rated: HintsFlag | None = None,
        default_variant: Variant | None = None,
        threads: ThreadsFlag | None = None,
        event_host_role: discord.Role | None = None,
        no_event_host_role: ClearHostRoleFlag | None = None,
        reset: ResetFlag | None = None,
    ) -> None:
        """No option: the server's settings, to the member alone. Options (Manage Server):
        change those settings and show the result; ``reset``: every one back to the bot's
        defaults."""
        guild_id = interaction.guild_id
        assert guild_id is not None  # TuqueTree.interaction_check
        given = {
            "computer_delay_seconds": computer_delay,
            "hints_in_rated": hints_in_rated,
            "default_variant": default_variant,
            "threads": threads,
        }
        changes: dict[str, float | bool | str | None] = {
            k: v for k, v in given.items() if v is not None
        }
        if event_host_role is not None:
            changes["event_host_role_id"] = event_host_role.id
        if no_event_host_role:
            changes["event_host_role_id"] = None
        timer = reminder_minutes is not None or away_minutes is not None
        if not changes and not timer and not reset:
            settings = await self.guild_settings(guild_id)
            embed = render.settings_embed(settings, self.defaults())
            await replies.send(interaction, embed=embed, ephemeral=True)
            return
        if not interaction.permissions.manage_guild:
            await replies.deny(
                interaction,
                "Only members with the Manage Server permission can change these settings; "
                "`/tuque settings` alone shows them.",
            )
            return
        if reset and (changes or timer):
            await replies.deny(
                interaction, "`reset` puts every setting back to the bot's defaults: use it alone."
            )
            return
        if event_host_role is not None and no_event_host_role:
            await replies.deny(
                interaction, "Choose an `event_host_role` or `no_event_host_role`, not both."
            )
            return
        async with replies.deadline(interaction):
            current = await self.guild_settings(guild_id)
            if timer:
                # The pair is stored together, so an operator's later defaults never
                # put a server's reminder after its away time.
                reminder = reminder_minutes or current.reminder_minutes
                away = away_minutes or current.away_minutes
                if away <= reminder:
                    await replies.deny(
                        interaction,
                        f"The reminder comes first: away_minutes ({away:g}) must be more "
                        f"than reminder_minutes ({reminder:g}).",
                    )
                    return
                changes |= {"reminder_minutes": reminder, "away_minutes": away}
            if reset:
                await self.bot.store.reset_guild_settings(guild_id)
                note = "Every setting is back to the bot's default."
            else:
                await self.bot.store.update_guild_settings(
                    guild_id, by=interaction.user.id, **changes
                )
                note = (
                    "Saved. The turn timer, the computer's pause and hints apply to games in "
                    "play; threads, to games started from now on."
                )
            settings = await self.guild_settings(guild_id)
            self._hand_over(guild_id, settings)
            log.info(
                "guild %d: settings %s by member %d",
                guild_id,
                "reset" if reset else "changed: " + ", ".join(sorted(changes)),
                interaction.user.id,
            )
            embed = render.settings_embed(settings, self.defaults(), note)
            await replies.send(interaction, embed=embed, ephemeral=True)


async def setup(bot: TuqueBot) -> None:
    """The extension's entry point (``Bot.load_extension``)."""
    await bot.add_cog(GuildSettingsCog(bot))
