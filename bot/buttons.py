"""Persistent components: each kind's custom_id, and the cog a click of it goes to.

Each kind is a ``discord.ui.DynamicItem`` (a ``Control``) declared with its
custom_id format (``bot.custom_ids``), which both builds its ids and parses them.
Every custom_id starts with ``tuque:`` and carries only ids and public numbers.

An action id names a card only on the ephemeral message of the player who may
play it, so a custom_id never shows anyone a card hidden from them. The kinds
are registered in ``setup_hook`` (``DYNAMIC_ITEMS``), so buttons keep working
after a restart or after their view timed out. A click goes at once to the cog
that owns the feature (``GameControls``, ``LobbyControls``, ``RecordControls``,
``EventControls``),
found by name on the client, so this module imports no cog and no cog module
imports another. How a component looks is the business of ``bot.layout`` and of
the cogs' own views: here a kind only wraps the button or select it is given.

A custom_id is input like any other: a modified client, or a message from an
older version of the bot, can carry numbers out of range or names the bot does
not know. Each is answered with an ephemeral explanation (``UnknownButton``
catches the ``tuque:`` ids no kind matches) and changes nothing; an unexpected
failure gets ``replies.report_failure``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Coroutine
from functools import wraps
from typing import Any, ClassVar, Protocol, Self, TypeVar, cast

import discord
from discord.ext import commands

from bot import replies
from bot.custom_ids import CustomId
from engine.actions import ACTIONS, Action
from engine.cards import SUITS, Suit
from engine.variants import VARIANTS

__all__ = [
    "DYNAMIC_ITEMS",
    "KINDS",
    "LEADERBOARD_VARIANTS",
    "OTHER_PROCESS",
    "ActionButton",
    "ActionSelect",
    "ChallengeButton",
    "Control",
    "EventButton",
    "EventControls",
    "GameControls",
    "HintButton",
    "LaunchButton",
    "LeaderboardButton",
    "LobbyButton",
    "LobbyControls",
    "LobbySelect",
    "RecordControls",
    "RematchButton",
    "ReplayButton",
    "ResignButton",
    "ShardedClient",
    "ShowHandButton",
    "SuitSelect",
    "UnknownButton",
]


LEADERBOARD_VARIANTS = ("all", *VARIANTS)
"""The variants a leaderboard button may name."""

_BAD_BUTTON = "That button isn't one this bot made (or it is from an older version)."


class GameControls(Protocol):
    """What the games cog (``"Games"``) does with a game's components."""

    async def on_action(
        self, interaction: discord.Interaction, game_id: int, seq: int, action: Action | None
    ) -> None: ...

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def resign(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def hint(self, interaction: discord.Interaction, game_id: int, seq: int) -> None: ...

    async def pick_suit(
        self, interaction: discord.Interaction, game_id: int, seq: int, suit: Suit
    ) -> None: ...

    async def launch(self, interaction: discord.Interaction) -> None: ...


class LobbyControls(Protocol):
    """What the lobbies cog (``"Lobbies"``) does with challenges' and lobbies' components."""

    async def answer_challenge(
        self, interaction: discord.Interaction, challenge_id: int, accept: bool
    ) -> None: ...

    async def on_lobby(
        self, interaction: discord.Interaction, lobby_id: int, what: str, value: str | None
    ) -> None: ...

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None: ...


class RecordControls(Protocol):
    """What the records cog (``"Records"``) does with leaderboard paging and replays."""

    async def page_leaderboard(
        self, interaction: discord.Interaction, variant: str, page: int
    ) -> None: ...

    async def show_replay(
        self, interaction: discord.Interaction, game_id: int, step: int
    ) -> None: ...


class EventControls(Protocol):
    """What the events cog (``"Events"``) does with an event's sign-up buttons."""

    async def on_event(
        self, interaction: discord.Interaction, event_id: int, what: str
    ) -> None: ...


class ShardedClient(Protocol):
    """The client as components see it: which guilds its process serves (``TuqueBot``)."""

    def serves_guild(self, guild_id: int) -> bool: ...


OTHER_PROCESS = (
    "This server is served by another of the bot's processes, not this one: try again in a moment."
)
"""The answer to a click in a guild of a shard this process does not run (Discord
routes none here; a misrouted one is refused and changes nothing)."""


def _cog(interaction: discord.Interaction, name: str) -> Any:
    cog = cast(commands.Bot, interaction.client).get_cog(name)
    if cog is None:
        raise RuntimeError(f"the {name} cog is not loaded")
    return cog


def _games(interaction: discord.Interaction) -> GameControls:
    return cast(GameControls, _cog(interaction, "Games"))


def _lobbies(interaction: discord.Interaction) -> LobbyControls:
    return cast(LobbyControls, _cog(interaction, "Lobbies"))


def _records(interaction: discord.Interaction) -> RecordControls:
    return cast(RecordControls, _cog(interaction, "Records"))


def _events(interaction: discord.Interaction) -> EventControls:
    return cast(EventControls, _cog(interaction, "Events"))


def _picked(interaction: discord.Interaction) -> str | None:
    """The one value chosen in a select, or None (none, or several: a forged click)."""
    values = cast(dict[str, Any], interaction.data or {}).get("values") or []
    return str(values[0]) if len(values) == 1 else None


def _action(action_id: int) -> Action | None:
    """The action of ``action_id``, or None for an id no action has (its cog refuses it)."""
    return ACTIONS[action_id] if action_id < len(ACTIONS) else None


Callback = Callable[[Any, discord.Interaction], Coroutine[Any, Any, None]]


def _guarded(callback: Callback) -> Callback:
    """Answer any failure of a component's callback (discord.py would only log it), and
    refuse a click from a guild another of the bot's processes serves."""

    @wraps(callback)
    async def run(item: Any, interaction: discord.Interaction) -> None:
        try:
            guild_id = interaction.guild_id
            client = cast(ShardedClient, interaction.client)
            if guild_id is not None and not client.serves_guild(guild_id):
                await replies.deny(interaction, OTHER_PROCESS)
                return
            await callback(item, interaction)
        except Exception as error:
            await replies.report_failure(interaction, error)

    return run


ItemT = TypeVar("ItemT", bound=discord.ui.Button[Any] | discord.ui.Select[Any])


class Control(
    discord.ui.DynamicItem[ItemT],
    # DynamicItem wants a template for every subclass: Control's matches nothing (it is
    # never registered); each kind gets its own from its format.
    template=r"(?!)",
):
    """A kind of persistent component: its custom_id format, and where a click goes.

    A kind is declared as ``class ShowHandButton(Control[discord.ui.Button[Any]],
    ids="tuque:hand:{game:id}")`` with a coroutine ``route(self, interaction, *,
    game: int)`` whose keyword-only parameters are the format's fields, typed as
    ``CustomId.parse`` gives them (checked when the class is made: ``TypeError``).
    A click of an id that ``ids`` parses is routed with its fields; one out of range
    is answered with an explanation and changes nothing.
    """

    ids: ClassVar[CustomId]
    """The kind's custom_id format: it builds the kind's ids and parses them."""
    route: Callable[..., Awaitable[None]]

    def __init_subclass__(cls, *, ids: str) -> None:
        spec = CustomId(ids)
        super().__init_subclass__(template=spec.pattern)
        cls.ids = spec
        parameters = inspect.signature(cls.route, eval_str=True).parameters.values()
        routed = {p.name: p.annotation for p in parameters if p.kind is p.KEYWORD_ONLY}
        if routed != spec.types:
            raise TypeError(f"{cls.__name__}.route takes {routed}, its ids give {spec.types}")

    @classmethod
    def of(cls, item: ItemT, **fields: int | str) -> Self:
        """``item`` (a button or select as it is to look) as this kind, its custom_id
        built from ``fields``; raises ``ValueError`` as ``CustomId.build`` does."""
        item.custom_id = cls.ids.build(**fields)
        return cls(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        # The button or select clicked, as discord.py rebuilt it from the message.
        return cls(cast(ItemT, item))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        fields = self.ids.parse(self.custom_id)
        if fields is None:
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await self.route(interaction, **fields)


class ActionButton(
    Control[discord.ui.Button[Any]], ids="tuque:act:{game:id}:{seq:int}:{action:int}"
):
    """One legal action in a player's ephemeral hand view; ``seq`` is the length of the
    game's log it was offered at."""

    async def route(
        self, interaction: discord.Interaction, *, game: int, seq: int, action: int
    ) -> None:
        await _games(interaction).on_action(interaction, game, seq, _action(action))


class ActionSelect(
    Control[discord.ui.Select[Any]], ids="tuque:pick:{game:id}:{seq:int}:{part:int}"
):
    """Part ``part`` of a player's legal actions as a select, where more than 25 are legal
    (an Auction call of a card); the option values are action ids."""

    async def route(
        self, interaction: discord.Interaction, *, game: int, seq: int, part: int
    ) -> None:
        picked = _picked(interaction)
        if picked is None or not picked.isdigit():
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _games(interaction).on_action(interaction, game, seq, _action(int(picked)))


_SUIT_CODES = frozenset(s.value for s in SUITS)


class SuitSelect(Control[discord.ui.Select[Any]], ids="tuque:suit:{game:id}:{seq:int}"):
    """The suit whose bids or callable cards a player's hand view shows (RULES.md §7
    Auction): the option values are ``C``, ``D``, ``H``, ``S``; choosing one only redraws
    that message, it changes nothing in the game."""

    async def route(self, interaction: discord.Interaction, *, game: int, seq: int) -> None:
        picked = _picked(interaction)
        # Only the four codes the options carry; Suit() would also take other spellings.
        if picked not in _SUIT_CODES:
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _games(interaction).pick_suit(interaction, game, seq, Suit(picked))


class ShowHandButton(Control[discord.ui.Button[Any]], ids="tuque:hand:{game:id}"):
    """The public "Show my hand" button: a fresh ephemeral hand view for the clicker."""

    async def route(self, interaction: discord.Interaction, *, game: int) -> None:
        await _games(interaction).show_hand(interaction, game)


class HintButton(Control[discord.ui.Button[Any]], ids="tuque:hint:{game:id}:{seq:int}"):
    """A player's "Hint" on their turn: what the hard computer would do, to them only."""

    async def route(self, interaction: discord.Interaction, *, game: int, seq: int) -> None:
        await _games(interaction).hint(interaction, game, seq)


class LaunchButton(Control[discord.ui.Button[Any]], ids="tuque:launch"):
    """ "Open the table" on a table message or lobby: opens the table inside Discord (the
    Activity) in the clicker's client. It names no game: the Activity lists the
    channel's games for whoever opens it."""

    async def route(self, interaction: discord.Interaction) -> None:
        await _games(interaction).launch(interaction)


class RematchButton(Control[discord.ui.Button[Any]], ids="tuque:rematch:{game:id}"):
    """ "Rematch" on a finished game: the same seats again, once every member accepts."""

    async def route(self, interaction: discord.Interaction, *, game: int) -> None:
        await _lobbies(interaction).rematch(interaction, game)


class ResignButton(Control[discord.ui.Button[Any]], ids="tuque:resign:{game:id}"):
    """Confirms ``/tuque resign`` (an ephemeral message)."""

    async def route(self, interaction: discord.Interaction, *, game: int) -> None:
        await _games(interaction).resign(interaction, game)


class ChallengeButton(
    Control[discord.ui.Button[Any]], ids="tuque:challenge:{challenge:id}:{answer:accept|decline}"
):
    """Accept or Decline on a challenge; only the challenged member may use them."""

    async def route(self, interaction: discord.Interaction, *, challenge: int, answer: str) -> None:
        await _lobbies(interaction).answer_challenge(interaction, challenge, answer == "accept")


class LobbyButton(
    Control[discord.ui.Button[Any]],
    ids="tuque:lobby:{lobby:id}:{what:join|leave|start|cancel|accept|decline}",
):
    """A lobby's Join, Leave, Start and Cancel; an invited member's Accept and Decline."""

    async def route(self, interaction: discord.Interaction, *, lobby: int, what: str) -> None:
        await _lobbies(interaction).on_lobby(interaction, lobby, what, None)


class LobbySelect(
    Control[discord.ui.Select[Any]], ids="tuque:lobby:{lobby:id}:{what:seat|computer}"
):
    """A lobby's "pick a seat" select (values are seat numbers), and the host's "add a
    computer" select (values are levels)."""

    async def route(self, interaction: discord.Interaction, *, lobby: int, what: str) -> None:
        picked = _picked(interaction)
        if picked is None:
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _lobbies(interaction).on_lobby(interaction, lobby, what, picked)


class LeaderboardButton(Control[discord.ui.Button[Any]], ids="tuque:lb:{variant:word}:{page:int}"):
    """Previous/next page of a leaderboard (anyone may page a public leaderboard)."""

    async def route(self, interaction: discord.Interaction, *, variant: str, page: int) -> None:
        if variant not in LEADERBOARD_VARIANTS:
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _records(interaction).page_leaderboard(interaction, variant, page)


class ReplayButton(
    Control[discord.ui.Button[Any]],
    ids="tuque:replay:{game:id}:{step:int}:{way:prevhand|prev|nexthand|next}",
):
    """A finished game's replay moves to step ``step`` (anyone in the channel may page a
    finished game: every card of it is public once it is over); ``way`` tells the buttons
    of one message apart."""

    async def route(
        self, interaction: discord.Interaction, *, game: int, step: int, way: str
    ) -> None:
        await _records(interaction).show_replay(interaction, game, step)


class EventButton(
    Control[discord.ui.Button[Any]], ids="tuque:event:{event:id}:{what:join|leave|start|cancel}"
):
    """An event's Join and Leave (anyone), Start and Cancel (its host, or a member who
    may manage events)."""

    async def route(self, interaction: discord.Interaction, *, event: int, what: str) -> None:
        await _events(interaction).on_event(interaction, event, what)


KINDS: tuple[type[Control[Any]], ...] = (
    ActionButton,
    ActionSelect,
    SuitSelect,
    ShowHandButton,
    HintButton,
    LaunchButton,
    RematchButton,
    ResignButton,
    ChallengeButton,
    LobbyButton,
    LobbySelect,
    LeaderboardButton,
    ReplayButton,
    EventButton,
)
"""Every kind of component with a custom_id format."""

# The kinds' templates, their group names dropped (a name may appear only once in a regex).
_KNOWN = "|".join(re.sub(r"\(\?P<\w+>", "(?:", kind.ids.pattern.pattern) for kind in KINDS)


class UnknownButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # discord.py runs every item whose template matches, so this one excludes the kinds.
    template=rf"(?!(?:{_KNOWN})$)tuque:.*",
):
    """Any other ``tuque:`` custom_id: explained, never acted on."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UnknownButton:
        return cls(cast(discord.ui.Button[Any], item))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await replies.deny(interaction, _BAD_BUTTON)


DYNAMIC_ITEMS = (*KINDS, UnknownButton)
"""Every persistent item, for ``Client.add_dynamic_items``."""
