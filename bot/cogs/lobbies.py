"""Lobbies and challenges: ``/tuque challenge`` and ``/tuque table``, their buttons,
and their expiry. A game starts here and runs in the session manager."""

from __future__ import annotations

import logging
import time
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot import replies
from bot.cogs import TuqueCog
from bot.components import ChallengeButton
from bot.options import CHALLENGE_VARIANTS, Target, Variant, game_options
from bot.store import AlreadyPlaying, ChallengeClosed, ChallengeNotFound, ChallengeStatus, SeatRow
from engine.variants import VARIANTS

if TYPE_CHECKING:
    from bot.client import TuqueBot

__all__ = ["CHALLENGE_LIFETIME", "LobbiesCog", "setup"]

log = logging.getLogger(__name__)

CHALLENGE_LIFETIME = 600.0
"""Seconds a challenge stays open (10 minutes)."""


def _already_playing(name: str, game_id: int) -> str:
    return f"You're already playing {name} (game #{game_id}): finish or resign it first."


def challenge_view(challenge_id: int) -> discord.ui.View:
    """Accept / Decline for a challenge message."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(ChallengeButton(challenge_id, True))
    ui.add_item(ChallengeButton(challenge_id, False))
    return ui


class LobbiesCog(TuqueCog, name="Lobbies"):
    """Challenges and lobbies until their game starts (``components.LobbyControls``)."""

    def __init__(self, bot: TuqueBot) -> None:
        super().__init__(bot)
        self.sessions = bot.sessions
        # The challenger's interaction, to show them their hand when the game starts.
        self._challengers: dict[int, discord.Interaction] = {}

    async def cog_load(self) -> None:
        await super().cog_load()
        self.expiry.start()

    async def cog_unload(self) -> None:
        self.expiry.cancel()
        await super().cog_unload()

    @tasks.loop(seconds=30)
    async def expiry(self) -> None:
        try:
            await self.expire()
        except Exception:
            log.exception("challenge and lobby expiry failed")

    @expiry.before_loop
    async def _before_expiry(self) -> None:
        await self.bot.wait_until_ready()

    async def expire(self, now: float | None = None) -> None:
        """Close the challenges and lobbies whose time ran out, and say so on their
        messages (``now``: seconds since the epoch; tests pass their own)."""
        now = time.time() if now is None else now
        for challenge in await self.bot.store.expire_challenges(now):
            self._challengers.pop(challenge.id, None)
            message_id = challenge.message_id
            if message_id is None:
                continue
            channel = self.bot.get_partial_messageable(challenge.channel_id)
            text = (
                f"The challenge from <@{challenge.challenger_id}> to "
                f"<@{challenge.opponent_id}> expired."
            )
            await replies.deliver(
                f"challenge {challenge.id}: expiry",
                partial(channel.get_partial_message(message_id).edit, content=text, view=None),
            )

    # --- /tuque challenge -----------------------------------------------------------------

    @app_commands.command(description="Challenge a member of this server to a game of Tuque.")
    @app_commands.describe(
        opponent="Who you want to play",
        variant="tuque (first to 5 or 10), tuque61 (first to 61) or two_hand (Euchre for two)",
        target="Points to win (tuque: 5 or 10, the default)",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        variant: Variant = "tuque",
        target: Target | None = None,
    ) -> None:
        if variant not in CHALLENGE_VARIANTS:
            v = VARIANTS[variant]
            raise replies.UserError(
                f"{v.title} seats {v.players} or more: play it with computers with `/tuque bot`."
            )
        options = game_options(variant, target=target)
        await self.start_challenge(interaction, opponent, variant, options)

    async def start_challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.abc.User,
        variant: str,
        options: dict[str, Any],
    ) -> None:
        """Post Accept/Decline for ``opponent``; expires in 10 minutes.

        ``options`` are the game's, already checked (``options.game_options``)."""
        user = interaction.user
        if interaction.guild_id is None or interaction.channel_id is None:
            await replies.deny(interaction, "Challenges are made in a server channel.")
            return
        if opponent.id == user.id:
            await replies.deny(interaction, "You can't challenge yourself. Try `/tuque bot`.")
            return
        if opponent.bot:
            await replies.deny(
                interaction, f"{opponent.display_name} is a bot. Play the computer: `/tuque bot`."
            )
            return
        async with replies.deadline(interaction):
            running = await self.bot.store.active_game_between(
                interaction.guild_id, user.id, opponent.id
            )
            if running is not None:
                await replies.deny(interaction, _already_playing(opponent.display_name, running.id))
                return
            await self.bot.store.upsert_player(interaction.guild_id, user.id, user.display_name)
            await self.bot.store.upsert_player(
                interaction.guild_id, opponent.id, opponent.display_name
            )
            challenge = await self.bot.store.create_challenge(
                interaction.guild_id,
                interaction.channel_id,
                user.id,
                opponent.id,
                variant,
                options,
                lifetime=CHALLENGE_LIFETIME,
            )
            self._challengers[challenge.id] = interaction
            await replies.deliver(
                f"challenge {challenge.id}: answer",
                lambda: replies.send(
                    interaction,
                    content=f"Challenge sent to {opponent.display_name}. "
                    "If they accept, your hand appears here.",
                    ephemeral=True,
                ),
            )
        title = VARIANTS[variant].title
        goal = VARIANTS[variant].options(**options).target
        channel = self.bot.get_partial_messageable(interaction.channel_id)

        async def post() -> None:
            message = await channel.send(
                f"{opponent.mention}, {user.mention} challenges you to **{title}** (to {goal}). "
                f"This challenge expires <t:{int(challenge.expires_at)}:R>.",
                view=challenge_view(challenge.id),
            )
            await self.bot.store.set_challenge_message(challenge.id, message.id)

        if not await replies.deliver(f"challenge {challenge.id}: post", post):
            # Nobody can accept a challenge that is not in the channel.
            await self.bot.store.resolve_challenge(challenge.id, ChallengeStatus.CANCELLED)
            self._challengers.pop(challenge.id, None)
            await replies.deliver(
                f"challenge {challenge.id}: cancellation",
                lambda: replies.send(
                    interaction,
                    content="Discord would not take the challenge post, so the challenge is "
                    "off. Please try again in a moment.",
                    ephemeral=True,
                ),
            )

    async def answer_challenge(
        self, interaction: discord.Interaction, challenge_id: int, accept: bool
    ) -> None:
        """Accept or Decline: only the challenged member; once; before it expires.

        Accepting re-checks, in the transaction that creates the game, that the two
        members have no active game together: of two challenges accepted at once,
        one starts a game and the other is answered why not.
        """
        async with replies.deadline(interaction):
            try:
                challenge = await self.bot.store.load_challenge(challenge_id)
            except ChallengeNotFound:
                await replies.deny(interaction, "This challenge no longer exists.")
                return
            if interaction.user.id != challenge.opponent_id:
                who = (
                    "your own challenge"
                    if interaction.user.id == challenge.challenger_id
                    else "a challenge made to someone else"
                )
                await replies.deny(interaction, f"You can't answer {who}.")
                return
            closed = "This challenge has expired or was already answered."
            if challenge.status is not ChallengeStatus.OPEN:
                await replies.deny(interaction, closed)
                return
            self_name = interaction.user.display_name
            if not accept:
                if not await self.bot.store.resolve_challenge(
                    challenge_id, ChallengeStatus.DECLINED
                ):
                    await replies.deny(interaction, closed)
                    return
                self._challengers.pop(challenge_id, None)
                await replies.deliver(
                    f"challenge {challenge_id}: decline",
                    lambda: replies.edit_clicked(
                        interaction,
                        content=f"{self_name} declined the challenge from "
                        f"<@{challenge.challenger_id}>.",
                        view=None,
                    ),
                )
                return
            challenger = self._challengers.get(challenge_id)
            challenger_name = challenger.user.display_name if challenger else None
            seats = [
                SeatRow.human(0, challenge.challenger_id, challenger_name),
                SeatRow.human(1, interaction.user.id, self_name),
            ]
            try:
                session = await self.sessions.start(
                    challenge.guild_id,
                    challenge.channel_id,
                    challenge.variant,
                    challenge.options,
                    seats,
                    accepting=challenge_id,
                )
            except ChallengeClosed:
                await replies.deny(interaction, closed)
                return
            except AlreadyPlaying as err:
                name = challenger_name or f"<@{challenge.challenger_id}>"
                await replies.deny(
                    interaction,
                    _already_playing(name, err.game_id)
                    + " This challenge stays open until it expires.",
                )
                return
            self._challengers.pop(challenge_id, None)
            await replies.deliver(
                f"game {session.id}: accept",
                lambda: replies.edit_clicked(
                    interaction,
                    content=f"{self_name} accepted the challenge from "
                    f"<@{challenge.challenger_id}>: game #{session.id} is on.",
                    view=None,
                ),
            )
        greetings = [(interaction, 1, f"Game #{session.id} is on.")]
        if challenger is not None:
            # The challenge's own interaction still lives (challenges expire first), so the
            # challenger's hand arrives as a follow-up under "Challenge sent".
            greetings.append((challenger, 0, f"Game #{session.id} is on."))
        await self.sessions.open(session, greetings)


async def setup(bot: TuqueBot) -> None:
    """The extension's entry point (``Bot.load_extension``)."""
    await bot.add_cog(LobbiesCog(bot))
