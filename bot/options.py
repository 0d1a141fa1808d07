"""The options of the ``/tuque`` slash commands: choices checked at the edge.

Discord's client only offers the choices a command declares, but a modified client
(or a command changed while a member had it open) can send anything: every option
here refuses other values with an ephemeral explanation (``replies.UserError``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot import replies
from bot.store import DEFAULT_VARIANT, Autoplay, GuildSettings, SeatRow
from engine.variants import MAX_TARGET, VARIANTS

__all__ = [
    "AUTOPLAY_TOLD",
    "DEFAULT_LEVEL",
    "DISCORD_LEVELS",
    "DISCORD_VARIANTS",
    "GAME_CHOICE_HELP",
    "GAME_NUMBER_MAX",
    "TABLE_NUMBERS",
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
    "TableNumber",
    "Target",
    "Variant",
    "YesNo",
    "game_options",
    "seat_rows",
]

DISCORD_VARIANTS = tuple(VARIANTS)
"""Variant keys playable on Discord: every variant the engine plays."""
DISCORD_LEVELS = ("easy", "normal", "hard")
"""Computer levels offered on Discord (``random`` is for benchmarks)."""
DEFAULT_LEVEL = "normal"
"""The computers' level where a member names none (``/tuque bot``, the Activity's
"Play the computers" and "Deal in the people here")."""


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


GAME_NUMBER_MAX = 2**53 - 1
"""The largest game number an option takes: Discord's integer options hold ±2^53
(its specification's ``Int53Type``), far above any game id the store gives."""


class WholeNumber(app_commands.Transformer):
    """An integer option from 1 to ``high``, as Discord's client offers it; what a
    subclass's ``transform`` accepts of it is that subclass's."""

    high: int

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return self.high


class GameNumberTransformer(WholeNumber):
    """A game's number (``#12``), from 1 to ``GAME_NUMBER_MAX``; a forged value outside
    is refused with an ephemeral explanation, never sent on to the database."""

    high = GAME_NUMBER_MAX

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


class TableNumber(WholeNumber):
    """A game option that is a number (``target``, ``players``, ``pack``, ``hands``),
    offered by autocomplete with only the values the chosen variant takes (the
    ``variant`` option, else the server's default game): a variant that does not let a
    game change it offers nothing. A typed or forged value the variant refuses is
    refused with an ephemeral explanation.

    Args:
        option: the engine's name of the option (``Variant.adjustable``).
        what: the option in a member's words, e.g. "number of deals".
        unit: what the number counts, e.g. "points".
    """

    high = MAX_TARGET

    def __init__(self, option: str, what: str, unit: str) -> None:
        self.option = option
        self.what = what
        self.unit = unit

    def allowed(self, variant: str) -> Sequence[int]:
        """Every value ``variant`` takes for this option (RULES.md §1–§7, as the engine
        checks them); empty when a game of it cannot change the option."""
        v = VARIANTS[variant]
        if self.option not in v.adjustable:
            return ()
        if self.option == "target" and variant in _DISCORD_TARGETS:
            return _DISCORD_TARGETS[variant]
        return v.choices.get(self.option) or range(1, MAX_TARGET + 1)

    def offers(self, variant: str) -> list[int]:
        """What autocomplete offers for ``variant``: its default first, then the values
        it takes (the family's usual targets where it takes any)."""
        allowed = self.allowed(variant)
        if not allowed:
            return []
        v = VARIANTS[variant]
        default = getattr(v.defaults, self.option) or len(v.pack)
        usual = [n for n in _COMMON_TARGETS if n in allowed] if len(allowed) > 40 else allowed
        return [default, *(n for n in usual if n != default)]

    async def autocomplete(
        self, interaction: discord.Interaction, value: int | float | str, /
    ) -> list[app_commands.Choice[int | float | str]]:
        """The values the command's variant takes that start with what was typed."""
        variant = await chosen_variant(interaction)
        typed = str(value).strip()
        offered = self.offers(variant)
        return [
            app_commands.Choice(
                name=f"{n} {self.unit}" + (" (default)" if n == offered[0] else ""), value=n
            )
            for n in offered
            if str(n).startswith(typed)
        ][:25]

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        """Return ``value`` if the command's variant takes it. Raises ``replies.UserError``."""
        return self.check(await chosen_variant(interaction), value)

    def check(self, variant: str, value: object) -> int:
        """``value`` if ``variant`` takes it (:meth:`allowed`). Raises
        ``replies.UserError`` saying which values it takes, or that it takes none."""
        allowed = self.allowed(variant)
        if not allowed:
            title = VARIANTS[variant].title
            raise replies.UserError(f"{title} has no {self.what} to choose: leave it out.")
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            low, high = min(allowed), max(allowed)
            if len(allowed) > 5 and list(allowed) == list(range(low, high + 1)):
                listed = f"a number from {low} to {high}"
            else:
                listed = ", ".join(f"`{n}`" for n in allowed)
            raise replies.UserError(f"That is not a {self.what} here: choose {listed}.")
        return value


async def chosen_variant(interaction: discord.Interaction) -> str:
    """The variant a command being typed is for: its ``variant`` option when valid,
    else the server's default game (``/tuque settings``)."""
    named = getattr(interaction.namespace, "variant", None)
    if named in VARIANTS:
        return str(named)
    client: Any = interaction.client  # the TuqueBot (its module imports this one)
    if interaction.guild_id is None:
        return DEFAULT_VARIANT
    defaults = GuildSettings.defaults(client.settings)
    return (await client.store.guild_settings(interaction.guild_id, defaults)).default_variant


_COMMON_TARGETS = (5, 7, 10, 11, 15, 21, 25, 50)
"""Targets offered where a variant takes any from 1 to ``MAX_TARGET``: the family's
usual ones (RULES.md §1–§7 play to 5, 7, 10, 11, 21, 25 or 50)."""

TABLE_NUMBERS: dict[str, TableNumber] = {
    n.option: n
    for n in (
        TableNumber("target", "target", "points"),
        TableNumber("players", "number of players", "players"),
        TableNumber("pack", "pack", "cards"),
        TableNumber("hands", "number of deals", "deals"),
    )
}
"""The game options that are numbers, by the engine's name: the slash commands' and
``tuque-web``'s home page's (:mod:`bot.web.home`), so both offer and accept the same."""

Variant = app_commands.Transform[str, OneOf("variant", *DISCORD_VARIANTS)]
GameNumber = app_commands.Transform[int, GameNumberTransformer]
GAME_CHOICE_HELP = "Which of your games (when you play several here)"
Target = app_commands.Transform[int, TABLE_NUMBERS["target"]]
Level = app_commands.Transform[str, OneOf("level", *DISCORD_LEVELS)]
Players = app_commands.Transform[int, TABLE_NUMBERS["players"]]
AutoplayChoice = app_commands.Transform[str, OneOf("choice", *(a.value for a in Autoplay))]
AUTOPLAY_TOLD = {
    Autoplay.LAST: "Your last card of each hand is played for you after a short pause.",
    Autoplay.FORCED: "Every forced move (your only legal card or choice) is played for you "
    "after a short pause.",
    Autoplay.OFF: "Nothing is played for you: you click every move yourself.",
}
"""What ``/tuque autoplay`` answers for each choice."""
Pack = app_commands.Transform[int, TABLE_NUMBERS["pack"]]
Deals = app_commands.Transform[int, TABLE_NUMBERS["hands"]]

_DISCORD_TARGETS = {"tuque": (5, 10), "tuque61": ()}
"""Targets on Discord where the bot narrows the engine's: Tuque's short and full game,
and Tuque to 61 always to 61 (RULES.md §1–§2)."""


def game_options(variant: str, **given: object) -> dict[str, object]:
    """The options a command gave for ``variant`` (unset ones left out), checked as the
    engine checks them (RULES.md §1–§7; the numbers were checked for the variant by
    ``TableNumber`` already). Raises ``replies.UserError`` with the reason."""
    options = {name: value for name, value in given.items() if value is not None}
    try:
        VARIANTS[variant].options(**options)
    except ValueError as error:
        # The engine names options as the code does (stick_the_dealer): say them in words.
        said = str(error).replace("_", " ")
        raise replies.UserError(f"{said[:1].upper()}{said[1:]}.") from None
    return options


def seat_rows(
    variant: str, options: dict[str, object], members: Sequence[discord.abc.User], level: str
) -> list[SeatRow]:
    """The seats of a new game: ``members`` in seats 0, 1, … and computers of ``level``
    in the rest, each with the side the variant gives it (RULES.md §3–§7)."""
    v = VARIANTS[variant].configured(VARIANTS[variant].options(**options))
    return [
        SeatRow.human(s, m.id, m.display_name, side=v.sides[s]) for s, m in enumerate(members)
    ] + [SeatRow.computer(s, level, side=v.sides[s]) for s in range(len(members), v.players)]


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
