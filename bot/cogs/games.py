"""Games: ``/tuque bot``, ``hand``, ``resign``, ``rules``, ``autoplay``, the game's
buttons, and the turn timers (the cog's sweep). The session manager runs the games; this cog hands
each Discord event over to it."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import layout, render, replies
from bot.cogs import TuqueCog, game_guild
from bot.options import (
    AUTOPLAY_TOLD,
    DEFAULT_LEVEL,
    GAME_CHOICE_HELP,
    TABLE_OPTION_HELP,
    VARIANT_HELP,
    AutoplayChoice,
    Deals,
    GameNumber,
    Level,
    Pack,
    Players,
    Target,
    Variant,
    game_options,
    seat_rows,
)
from bot.store import Autoplay
from engine.actions import Action
from engine.cards import Suit

if TYPE_CHECKING:
    from bot.client import TuqueBot
    from bot.sessions import Session

__all__ = ["GamesCog", "setup"]

log = logging.getLogger(__name__)


class GamesCog(TuqueCog, name="Games"):
    """Starts games with computers and answers every game's components
    (``buttons.GameControls``)."""

    def __init__(self, bot: TuqueBot) -> None:
        super().__init__(bot)
        self.sessions = bot.sessions

    async def sweep(self) -> None:
        """The turn timers: remind, hand an away member's cards to the computer, forfeit
        (docs/rulings.md R9), and restart a computer that stopped. In one of several
        shard processes, also the auto-play choices members made through the others."""
        settings = self.bot.settings
        if not self.bot.runs_every_shard:
            await self.sessions.reload_autoplay()
        await self.sessions.tick(settings.turn_reminder_seconds, settings.turn_forfeit_seconds)

    # --- components ---------------------------------------------------------------------

    async def on_action(
        self, interaction: discord.Interaction, game_id: int, seq: int, action: Action | None
    ) -> None:
        await self.sessions.on_action(interaction, game_id, seq, action)

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.sessions.show_hand(interaction, game_id)

    async def resign(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.sessions.resign(interaction, game_id)

    async def hint(self, interaction: discord.Interaction, game_id: int, seq: int) -> None:
        await self.sessions.hint(interaction, game_id, seq)

    async def pick_suit(
        self, interaction: discord.Interaction, game_id: int, seq: int, suit: Suit
    ) -> None:
        await self.sessions.pick_suit(interaction, game_id, seq, suit)

    async def launch(self, interaction: discord.Interaction) -> None:
        """ "Open the table": answer with Discord's LAUNCH_ACTIVITY callback, which opens
        the Activity in the clicker's client; refused where Activities are off now (a
        button kept from a run that had them)."""
        if not self.bot.activities:
            await replies.deny(
                interaction,
                "The table inside Discord is off on this bot now: use Show my hand instead.",
            )
            return
        await interaction.response.launch_activity()

    # --- slash commands -----------------------------------------------------------------

    @app_commands.command(name="bot", description="Play any game of the family with computers.")
    @app_commands.describe(variant=VARIANT_HELP, **TABLE_OPTION_HELP)
    async def computer_game(
        self,
        interaction: discord.Interaction,
        variant: Variant | None = None,
        level: Level = DEFAULT_LEVEL,
        target: Target | None = None,
        players: Players | None = None,
        pack: Pack | None = None,
        stick_the_dealer: bool | None = None,
        no_alone_after_pass: bool | None = None,
        dealer_must_make: bool | None = None,
        deals: Deals | None = None,
        double_pack: bool | None = None,
    ) -> None:
        """The member at seat 0 and computers of ``level`` in every other seat; the hand
        view is the answer, at once."""
        assert interaction.channel_id is not None
        guild_id = game_guild(interaction)
        variant = await self.variant_or_default(guild_id, variant)
        options = game_options(
            variant,
            target=target,
            players=players,
            pack=pack,
            stick_the_dealer=stick_the_dealer,
            no_alone_after_pass=no_alone_after_pass,
            dealer_must_make=dealer_must_make,
            hands=deals,
            double_pack=double_pack,
        )
        seats = seat_rows(variant, options, [interaction.user], level)
        against = "the computer" if len(seats) == 2 else f"{len(seats) - 1} computers"
        async with replies.deadline(interaction):
            session = await self.sessions.start(
                guild_id, interaction.channel_id, variant, options, seats
            )
            await self.sessions.open(
                session, [(interaction, 0, f"Game #{session.id} against {against}.")]
            )

    @app_commands.command(description="See your hand and tableau in your game here (only you).")
    @app_commands.describe(game=GAME_CHOICE_HELP)
    async def hand(self, interaction: discord.Interaction, game: GameNumber | None = None) -> None:
        session = await self._chosen(interaction, game, resign=False)
        if session is not None:
            await self.sessions.show_hand(interaction, session.id)

    @app_commands.command(
        name="resign", description="Concede your game here (it counts as a loss)."
    )
    @app_commands.describe(game=GAME_CHOICE_HELP)
    async def resign_command(
        self, interaction: discord.Interaction, game: GameNumber | None = None
    ) -> None:
        session = await self._chosen(interaction, game, resign=True)
        if session is not None:
            await self.sessions.ask_resign(interaction, session)

    @hand.autocomplete("game")
    @resign_command.autocomplete("game")
    async def _your_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The member's games in this server, this channel's first, matching what they
        typed (a number or a word of the label)."""
        typed = current.strip().lstrip("#").lower()
        return [
            app_commands.Choice(name=layout.shortened(label, 100), value=game_id)
            for game_id, label in self._labels(interaction)
            if typed in label.lower()
        ][: layout.CHOICES_SHOWN]

    def _labels(self, interaction: discord.Interaction) -> list[tuple[int, str]]:
        """``(game id, "#12 · Euchre vs Bob & Cat")`` of the member's games in this
        server (or outside any), this channel's first, newest first."""
        user_id = interaction.user.id
        games = self.sessions.games_of(game_guild(interaction), None, user_id)
        games.sort(key=lambda s: interaction.channel_id not in (s.channel_id, s.discord.thread_id))
        return [
            (s.id, f"#{s.id} · {s.game.variant.title} vs {self.sessions.opponents_of(s, user_id)}")
            for s in games
        ]

    async def _chosen(
        self, interaction: discord.Interaction, game: int | None, *, resign: bool
    ) -> Session | None:
        """The member's game that ``/tuque hand`` or ``resign`` is about: ``game`` if
        given (any of theirs in this server), else their one game in this channel (in a
        game's thread, that game's channel and thread). With
        several here and none named, or none at all, answer and return None."""
        guild_id = game_guild(interaction)
        user_id = interaction.user.id
        if game is not None:
            found = self.sessions.games_of(guild_id, None, user_id)
            session = next((s for s in found if s.id == game), None)
            if session is None:
                await replies.deny(interaction, f"You're not playing a game #{game} here.")
            return session
        here = self.sessions.games_of(guild_id, interaction.channel_id, user_id)
        if len(here) == 1:
            return here[0]
        if not here:
            await replies.deny(interaction, "You have no game in progress in this channel.")
            return None
        ids = {s.id for s in here}
        labels = [(i, label) for i, label in self._labels(interaction) if i in ids]
        what = "resign" if resign else "see"
        await replies.send(
            interaction,
            content=f"You play {len(here)} games in this channel: which do you want to {what}?",
            view=layout.games_view(labels, resign),
            ephemeral=True,
        )
        return None

    @app_commands.command(description="When your forced moves are played for you.")
    @app_commands.describe(
        when="last: your last card of each hand (default); forced: every forced move; off: never"
    )
    async def autoplay(self, interaction: discord.Interaction, when: AutoplayChoice) -> None:
        """A member's own choice, in every server: a forced move (one legal action) is
        played for them after a short pause with a line saying so."""
        choice = Autoplay(when)
        await self.sessions.set_autoplay(interaction.user.id, choice)
        await replies.send(interaction, content=AUTOPLAY_TOLD[choice], ephemeral=True)

    @app_commands.command(description="A game's rules: how to win, ranks, trump, scoring, symbols.")
    @app_commands.describe(variant="Which game (default: tuque)")
    async def rules(self, interaction: discord.Interaction, variant: Variant = "tuque") -> None:
        await interaction.response.send_message(embed=render.rules_embed(variant), ephemeral=True)


async def setup(bot: TuqueBot) -> None:
    """The extension's entry point (``Bot.load_extension``)."""
    await bot.add_cog(GamesCog(bot))
