"""The options of the ``/tuque`` slash commands: choices checked at the edge.

Discord's client only offers the choices a command declares, but a modified client
(or a command changed while a member had it open) can send anything: every option
here refuses other values with an ephemeral explanation (``replies.UserError``).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import replies
from bot.store import Autoplay
from engine.variants import MAX_TARGET, VARIANTS

__all__ = [
    "AUTOPLAY_TOLD",
    "DISCORD_LEVELS",
    "DISCORD_VARIANTS",
    "GAME_CHOICE_HELP",
    "GAME_NUMBER_MAX",
    "TABLE_OPTION_HELP",
    "VARIANT_HELP",
    "AutoplayChoice",
    "Between",
    "Deals",
    "GameNumber",
    "Level",
    "OneOf",
    "Pack",
    "Players",
    "Points",
    "Target",
    "Variant",
    "YesNo",
    "game_options",
]

DISCORD_VARIANTS = tuple(VARIANTS)
"""Variant keys playable on Discord: every variant the engine plays."""
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


GAME_NUMBER_MAX = 2**53 - 1
"""The largest game number an option takes: Discord's integer options hold ±2^53
(its specification's ``Int53Type``), far above any game id the store gives."""


class GameNumberTransformer(app_commands.Transformer):
    """A game's number (``#12``), from 1 to ``GAME_NUMBER_MAX``; a forged value outside
    is refused with an ephemeral explanation, never sent on to the database."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return GAME_NUMBER_MAX

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        """Return ``value`` if it can be a game's number. Raises ``replies.UserError``."""
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 1 <= value <= GAME_NUMBER_MAX
        ):
            raise replies.UserError("That is not a game number: games are numbered #1, #2, …")
        return value


class Between(app_commands.Transformer):
    """A number option from ``low`` to ``high``, whole when both bounds are ints;
    anything else is refused with an ephemeral explanation.

    Args:
        what: the option in a member's words, e.g. "reminder".
        low, high: the bounds, both allowed.
        unit: what the number counts, e.g. "minutes".
    """

    def __init__(self, what: str, low: float, high: float, unit: str) -> None:
        self.what = what
        self.low = low
        self.high = high
        self.unit = unit
        self.whole = isinstance(low, int) and isinstance(high, int)

    @property
    def type(self) -> discord.AppCommandOptionType:
        if self.whole:
            return discord.AppCommandOptionType.integer
        return discord.AppCommandOptionType.number

    @property
    def min_value(self) -> float:
        return self.low

    @property
    def max_value(self) -> float:
        return self.high

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        """Return ``value`` if it is a number in range. Raises ``replies.UserError``."""
        kind = int if self.whole else (int, float)
        if (
            isinstance(value, bool)
            or not isinstance(value, kind)
            or not (self.low <= value <= self.high)
        ):
            whole = "a whole number " if self.whole else ""
            raise replies.UserError(
                f"The {self.what} is {whole}from {self.low:g} to {self.high:g} {self.unit}."
            )
        return value


class YesNo(app_commands.Transformer):
    """A true/false option; anything else is refused with an ephemeral explanation."""

    def __init__(self, what: str) -> None:
        self.what = what

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.boolean

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        """Return ``value`` if it is a bool. Raises ``replies.UserError``."""
        if not isinstance(value, bool):
            raise replies.UserError(f"Answer {self.what} with true or false.")
        return value


Variant = app_commands.Transform[str, OneOf("variant", *DISCORD_VARIANTS)]
GameNumber = app_commands.Transform[int, GameNumberTransformer]
GAME_CHOICE_HELP = "Which of your games (when you play several here)"
Target = app_commands.Transform[int, Points("target")]
Level = app_commands.Transform[str, OneOf("level", *DISCORD_LEVELS)]
Players = app_commands.Transform[int, OneOf("number of players", 4, 5, 6)]
AutoplayChoice = app_commands.Transform[str, OneOf("choice", *(a.value for a in Autoplay))]
AUTOPLAY_TOLD = {
    Autoplay.LAST: "Your last card of each hand is played for you after a short pause.",
    Autoplay.FORCED: "Every forced move (your only legal card or choice) is played for you "
    "after a short pause.",
    Autoplay.OFF: "Nothing is played for you: you click every move yourself.",
}
"""What ``/tuque autoplay`` answers for each choice."""
Pack = app_commands.Transform[int, OneOf("pack", 24, 25, 28, 32)]
Deals = app_commands.Transform[int, Points("number of deals")]

_TUQUE_TARGETS = (5, 10)
"""The targets offered for Tuque on Discord: the short and the full game."""


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


VARIANT_HELP = "Which game (default: the server's, Tuque unless changed); see /tuque rules"
"""What a member reads about the ``variant`` option of ``/tuque bot``, ``table`` and
``challenge`` (``/tuque settings`` sets the server's default game)."""

TABLE_OPTION_HELP = {
    "level": "The computers' level in the seats no member takes (default normal)",
    "target": "Points to win, where the game lets you choose (tuque: 5 or 10)",
    "players": "call_ace and jackpot: 4, 5 or 6 seats",
    "pack": "three_hand and two_hand: 25 (with the Benny) or 24; auction: 28 or 32",
    "stick_the_dealer": "euchre: the dealer must name trump if everyone passes",
    "no_alone_after_pass": "british and six_hand: no going alone after passing",
    "dealer_must_make": "almonte: the dealer must take a Ben they named the suit for",
    "deals": "jackpot: deals before the game ends without a march (default 12)",
    "double_pack": "six_hand: the 50-card double pack (two of each 9–A, two jokers)",
}
"""What a member reads about each game option of ``/tuque bot``, ``table`` and ``challenge``."""
