"""The ``/tuque`` slash commands. Each hands over to the session manager or the store."""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render, replies
from bot.client import TuqueBot
from bot.components import leaderboard_view
from bot.store import Store
from engine.variants import MAX_TARGET, VARIANTS

__all__ = [
    "CHALLENGE_VARIANTS",
    "DISCORD_LEVELS",
    "DISCORD_VARIANTS",
    "LEADERBOARD_PAGE",
    "OneOf",
    "TuqueCog",
    "leaderboard_message",
]

LEADERBOARD_PAGE = 10
"""Players per leaderboard page."""

DISCORD_VARIANTS = tuple(VARIANTS)
"""Variant keys playable on Discord: every variant the engine plays."""
CHALLENGE_VARIANTS = tuple(k for k, v in VARIANTS.items() if v.players == 2)
"""Variants a one-to-one challenge can start: the two-seat games."""
DISCORD_LEVELS = ("easy", "normal", "hard")
"""Computer levels offered on Discord (``random`` is for benchmarks)."""


class OneOf(app_commands.Transformer):
    """A choice option that refuses any other value with an ephemeral explanation.

    Discord's own client only sends the choices, but a modified client (or a
    command changed while a member had it open) can send anything; discord.py
    passes plain ``Literal`` values through unchecked.

    Args:
        what: the option in a member's words, e.g. "variant".
        *values: the allowed values, all str or all int.
    """

    def __init__(self, what: str, *values: str | int) -> None:
        self.what = what
        self.values = values

    @property
    def type(self) -> discord.AppCommandOptionType:
        if isinstance(self.values[0], int):
            return discord.AppCommandOptionType.integer
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> list[app_commands.Choice[Any]]:
        return [app_commands.Choice(name=str(v), value=v) for v in self.values]

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        """Return ``value`` if it is one of the choices. Raises ``replies.UserError``."""
        if value not in self.values:
            listed = ", ".join(f"`{v}`" for v in self.values)
            raise replies.UserError(f"That is not a {self.what} here: choose {listed}.")
        return value


class Points(app_commands.Transformer):
    """A whole number option from 1 to ``MAX_TARGET``; anything else is refused."""

    def __init__(self, what: str) -> None:
        self.what = what

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return MAX_TARGET

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        """Return ``value`` if it is a whole number in range. Raises ``replies.UserError``."""
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TARGET:
            raise replies.UserError(
                f"That is not a {self.what} here: choose a number from 1 to {MAX_TARGET}."
            )
        return value


Variant = app_commands.Transform[str, OneOf("variant", *DISCORD_VARIANTS)]
Target = app_commands.Transform[int, Points("target")]
Level = app_commands.Transform[str, OneOf("level", *DISCORD_LEVELS)]
Players = app_commands.Transform[int, OneOf("number of players", 4, 5, 6)]
Pack = app_commands.Transform[int, OneOf("pack", 24, 25, 28, 32)]
Deals = app_commands.Transform[int, Points("number of deals")]

_TUQUE_TARGETS = (5, 10)
"""The targets offered for Tuque on Discord: the short and the full game."""


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


def game_options(variant: str, **given: object) -> dict[str, object]:
    """The options a command gave for ``variant`` (unset ones left out), checked as the
    engine checks them (RULES.md §1–§7). Raises ``replies.UserError`` with the reason."""
    options = {name: value for name, value in given.items() if value is not None}
    target = options.get("target")
    if target is not None and variant == "tuque61":
        raise replies.UserError("Tuque to 61 is always played to 61: leave out `target`.")
    if target is not None and variant == "tuque" and target not in _TUQUE_TARGETS:
        listed = ", ".join(f"`{t}`" for t in _TUQUE_TARGETS)
        raise replies.UserError(f"That is not a target here: choose {listed}.")
    try:
        VARIANTS[variant].options(**options)
    except ValueError as error:
        raise replies.UserError(f"{str(error)[:1].upper()}{str(error)[1:]}.") from None
    return options


@app_commands.guild_only()
class TuqueCog(commands.GroupCog, group_name="tuque", group_description="Play Tuque"):
    """``/tuque challenge|bot|hand|resign|leaderboard|stats|rules``."""

    def __init__(self, bot: TuqueBot) -> None:
        self.bot = bot
        super().__init__()

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
        await self.bot.sessions.start_challenge(interaction, opponent, variant, options)

    @app_commands.command(name="bot", description="Play any game of the family with computers.")
    @app_commands.describe(
        variant="Which game (default tuque); see /tuque rules",
        level="easy, normal (default) or hard: the computers' level",
        target="Points to win, where the game lets you choose (tuque: 5 or 10)",
        players="call_ace and jackpot: 4, 5 or 6 seats",
        pack="three_hand and two_hand: 25 (with the Benny) or 24; auction: 28 or 32",
        stick_the_dealer="euchre: the dealer must name trump if everyone passes",
        no_alone_after_pass="british and six_hand: no going alone after passing",
        dealer_must_make="almonte: the dealer must take a Ben they named the suit for",
        deals="jackpot: deals before the game ends without a march (default 12)",
        double_pack="six_hand: the 50-card double pack (two of each 9–A, two jokers)",
    )
    async def computer_game(
        self,
        interaction: discord.Interaction,
        variant: Variant = "tuque",
        level: Level = "normal",
        target: Target | None = None,
        players: Players | None = None,
        pack: Pack | None = None,
        stick_the_dealer: bool | None = None,
        no_alone_after_pass: bool | None = None,
        dealer_must_make: bool | None = None,
        deals: Deals | None = None,
        double_pack: bool | None = None,
    ) -> None:
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
        await self.bot.sessions.start_computer_game(interaction, variant, options, level)

    @app_commands.command(description="See your hand and tableau in your game here (only you).")
    async def hand(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None  # TuqueTree.interaction_check
        games = self.bot.sessions.games_of(
            interaction.guild_id, interaction.channel_id, interaction.user.id
        )
        if not games:
            await replies.deny(interaction, "You have no game in progress in this channel.")
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

    @app_commands.command(description="A short summary of the rules.")
    @app_commands.describe(variant="Which game (default: tuque)")
    async def rules(self, interaction: discord.Interaction, variant: Variant = "tuque") -> None:
        await interaction.response.send_message(embed=render.rules_embed(variant), ephemeral=True)
