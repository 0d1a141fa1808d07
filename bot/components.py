"""Persistent buttons: ``discord.ui.DynamicItem`` s with namespaced custom_ids.

Every custom_id starts with ``tuque:`` and carries only ids and public numbers:

==============================================  ===========================================
``tuque:act:<game>:<seq>:<action>``             an action in a player's ephemeral hand view;
                                                ``seq`` is the log length it was offered at
``tuque:pick:<game>:<seq>:<part>``              a select of actions, where more than 25
                                                are legal (an Auction call of a card); the
                                                option values are action ids
``tuque:suit:<game>:<seq>``                     the suit whose bids (Auction's bidding) or
                                                callable cards (its call of a card) a hand
                                                view shows; the option values are ``C``,
                                                ``D``, ``H``, ``S``
``tuque:hand:<game>``                           "Show my hand" on the public table
``tuque:hint:<game>:<seq>``                     "Hint" in a player's hand view on their turn
``tuque:rematch:<game>``                        "Rematch" on a finished game's message
``tuque:resign:<game>``                         confirm a resignation (ephemeral)
``tuque:challenge:<id>:accept|decline``         answer a one-to-one challenge
``tuque:lobby:<id>:<what>``                     a lobby's buttons: ``join``, ``leave``,
                                                ``start``, ``cancel``; an invited member's
                                                ``accept`` and ``decline``
``tuque:lobby:<id>:seat|computer``              a lobby's selects: the seat to take (values
                                                are seat numbers), the level of a computer
                                                to add (values are levels)
``tuque:lb:<variant>:<page>``                   leaderboard paging
``tuque:replay:<game>:<step>:<way>``            a finished game's replay: show step
                                                ``step``; ``way`` (``prev``, ``next``,
                                                ``prevhand``, ``nexthand``) tells the
                                                buttons of one message apart
==============================================  ===========================================

An action id names a card only on the ephemeral message of the player who may
play it, so a custom_id never shows anyone a card hidden from them. The items
are registered in ``setup_hook``, so buttons keep working after a restart or
after their view timed out. Callbacks hand over at once to the cog that owns the
feature (``GameControls``, ``LobbyControls``, ``RecordControls``), found by name on
the client, so this module imports no cog and no cog module imports another.

A custom_id is input like any other: a modified client, or a message from an
older version of the bot, can carry numbers out of range or names the bot does
not know. Each is answered with an ephemeral explanation (``UnknownButton``
catches the ``tuque:`` ids no other item matches) and changes nothing; an
unexpected failure gets ``replies.report_failure``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from functools import wraps
from typing import Any, Protocol, cast

import discord
from discord.ext import commands

from bot import replies
from bot.emojis import TEXT_FACES, CardFaces
from engine.actions import ACTIONS, Action, Bid, CallCard, Discard, Give, Play
from engine.cards import SUITS, Suit, is_trump
from engine.variants import VARIANTS
from engine.view import PlayerView

__all__ = [
    "DYNAMIC_ITEMS",
    "HINT_EMOJI",
    "LOBBY_BUTTONS",
    "OTHER_PROCESS",
    "ActionButton",
    "ActionSelect",
    "ChallengeButton",
    "GameControls",
    "HintButton",
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
    "default_suit",
    "game_over_view",
    "games_view",
    "hand_layout",
    "replay_row",
    "resign_view",
    "suit_choices",
    "suit_of",
    "table_layout",
]


LEADERBOARD_VARIANTS = ("all", *VARIANTS)
"""The variants a leaderboard button may name."""

_ID_RANGE = range(1, 2**63)  # SQLite's rowids and Discord's snowflakes
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


Callback = Callable[[Any, discord.Interaction], Awaitable[None]]


def _guarded(callback: Callback) -> Callback:
    """Answer any failure of a button's callback (discord.py would only log it), and
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


def _ids_in_range(*numbers: int) -> bool:
    return all(n in _ID_RANGE for n in numbers)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tuque:act:(?P<game>\d+):(?P<seq>\d+):(?P<action>\d+)",
):
    """One legal action in a player's hand view."""

    def __init__(
        self, game_id: int, seq: int, action_id: int, button: discord.ui.Button[Any] | None = None
    ) -> None:
        super().__init__(
            button or discord.ui.Button(custom_id=f"tuque:act:{game_id}:{seq}:{action_id}")
        )
        self.game_id = game_id
        self.seq = seq
        self.action_id = action_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> ActionButton:
        return cls(int(match["game"]), int(match["seq"]), int(match["action"]))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if not _ids_in_range(self.game_id, self.seq + 1):
            await replies.deny(interaction, _BAD_BUTTON)
            return
        action = ACTIONS[self.action_id] if self.action_id < len(ACTIONS) else None
        await _games(interaction).on_action(interaction, self.game_id, self.seq, action)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tuque:pick:(?P<game>\d+):(?P<seq>\d+):(?P<part>\d+)",
):
    """Part of a player's legal actions as a select, where buttons would not fit."""

    def __init__(
        self, game_id: int, seq: int, part: int, select: discord.ui.Select[Any] | None = None
    ) -> None:
        super().__init__(
            select or discord.ui.Select(custom_id=f"tuque:pick:{game_id}:{seq}:{part}")
        )
        self.game_id = game_id
        self.seq = seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> ActionSelect:
        return cls(int(match["game"]), int(match["seq"]), int(match["part"]))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        picked = values[0] if len(values) == 1 else ""
        if not _ids_in_range(self.game_id, self.seq + 1) or not picked.isdigit():
            await replies.deny(interaction, _BAD_BUTTON)
            return
        action_id = int(picked)
        action = ACTIONS[action_id] if action_id < len(ACTIONS) else None
        await _games(interaction).on_action(interaction, self.game_id, self.seq, action)


class SuitSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tuque:suit:(?P<game>\d+):(?P<seq>\d+)",
):
    """The suit whose bids or callable cards a player's hand view shows (RULES.md §7
    Auction): choosing one only redraws that message, it changes nothing in the game."""

    def __init__(
        self, game_id: int, seq: int, select: discord.ui.Select[Any] | None = None
    ) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"tuque:suit:{game_id}:{seq}"))
        self.game_id = game_id
        self.seq = seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> SuitSelect:
        return cls(int(match["game"]), int(match["seq"]))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        picked = str(values[0]) if len(values) == 1 else ""
        # Only the four codes the options carry; Suit() would also take other spellings.
        if not _ids_in_range(self.game_id, self.seq + 1) or picked not in _SUIT_CODES:
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _games(interaction).pick_suit(interaction, self.game_id, self.seq, Suit(picked))


_SUIT_CODES = frozenset(s.value for s in SUITS)


class ShowHandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tuque:hand:(?P<game>\d+)"
):
    """The public "Show my hand" button: a fresh ephemeral hand view for the clicker
    (``label``: another text, such as the game it is for)."""

    def __init__(self, game_id: int, label: str = "Show my hand") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="🃏",
                style=discord.ButtonStyle.primary,
                custom_id=f"tuque:hand:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> ShowHandButton:
        return cls(int(match["game"]))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if not _ids_in_range(self.game_id):
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _games(interaction).show_hand(interaction, self.game_id)


class HintButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tuque:hint:(?P<game>\d+):(?P<seq>\d+)",
):
    """A player's "Hint" on their turn: what the hard computer would do, to them only."""

    def __init__(self, game_id: int, seq: int, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label="Hint",
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"tuque:hint:{game_id}:{seq}",
                row=row,
            )
        )
        self.game_id = game_id
        self.seq = seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> HintButton:
        return cls(int(match["game"]), int(match["seq"]))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if not _ids_in_range(self.game_id, self.seq + 1):
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _games(interaction).hint(interaction, self.game_id, self.seq)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tuque:rematch:(?P<game>\d+)"
):
    """ "Rematch" on a finished game: the same seats again, once every member accepts."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Rematch",
                emoji="🔁",
                style=discord.ButtonStyle.success,
                custom_id=f"tuque:rematch:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if not _ids_in_range(self.game_id):
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _lobbies(interaction).rematch(interaction, self.game_id)


class ResignButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tuque:resign:(?P<game>\d+)"
):
    """Confirms ``/tuque resign`` (``label``: another text, such as the game it is for)."""

    def __init__(self, game_id: int, label: str = "Yes, resign") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.danger,
                custom_id=f"tuque:resign:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> ResignButton:
        return cls(int(match["game"]))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if not _ids_in_range(self.game_id):
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _games(interaction).resign(interaction, self.game_id)


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tuque:challenge:(?P<id>\d+):(?P<answer>accept|decline)",
):
    """Accept or Decline on a challenge; only the challenged member may use them."""

    def __init__(self, challenge_id: int, accept: bool) -> None:
        answer = "accept" if accept else "decline"
        super().__init__(
            discord.ui.Button(
                label="Accept" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"tuque:challenge:{challenge_id}:{answer}",
            )
        )
        self.challenge_id = challenge_id
        self.accept = accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> ChallengeButton:
        return cls(int(match["id"]), match["answer"] == "accept")

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if not _ids_in_range(self.challenge_id):
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _lobbies(interaction).answer_challenge(interaction, self.challenge_id, self.accept)


LOBBY_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
    "accept": ("Accept", discord.ButtonStyle.success),
    "decline": ("Decline", discord.ButtonStyle.secondary),
}
"""A lobby's buttons: what the custom_id says, and the label and style shown."""


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tuque:lobby:(?P<id>\d+):(?P<what>join|leave|start|cancel|accept|decline)",
):
    """A lobby's Join, Leave, Start and Cancel; an invited member's Accept and Decline."""

    def __init__(self, lobby_id: int, what: str, *, disabled: bool = False) -> None:
        label, style = LOBBY_BUTTONS[what]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"tuque:lobby:{lobby_id}:{what}",
                disabled=disabled,
            )
        )
        self.lobby_id = lobby_id
        self.what = what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["id"]), match["what"])

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if not _ids_in_range(self.lobby_id):
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _lobbies(interaction).on_lobby(interaction, self.lobby_id, self.what, None)


class LobbySelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tuque:lobby:(?P<id>\d+):(?P<what>seat|computer)",
):
    """A lobby's "pick a seat" select, and the host's "add a computer" select."""

    def __init__(
        self, lobby_id: int, what: str, select: discord.ui.Select[Any] | None = None
    ) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"tuque:lobby:{lobby_id}:{what}"))
        self.lobby_id = lobby_id
        self.what = what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> LobbySelect:
        return cls(int(match["id"]), match["what"])

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not _ids_in_range(self.lobby_id) or len(values) != 1:
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _lobbies(interaction).on_lobby(interaction, self.lobby_id, self.what, str(values[0]))


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tuque:lb:(?P<variant>[a-z0-9_]+):(?P<page>\d+)",
):
    """Previous/next page of a leaderboard (anyone may page a public leaderboard)."""

    def __init__(self, variant: str, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or f"Page {page + 1}",
                style=discord.ButtonStyle.secondary,
                custom_id=f"tuque:lb:{variant}:{page}",
                disabled=disabled,
            )
        )
        self.variant = variant
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> LeaderboardButton:
        return cls(match["variant"], int(match["page"]))

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.variant not in LEADERBOARD_VARIANTS:
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _records(interaction).page_leaderboard(interaction, self.variant, self.page)


REPLAY_WAYS = {
    "prevhand": ("⏮", "Hand"),
    "prev": ("◀", "Back"),
    "next": ("▶", "Next"),
    "nexthand": ("⏭", "Hand"),
}
"""A replay's buttons, in their row's order: what the custom_id says, the emoji and label."""


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tuque:replay:(?P<game>\d+):(?P<step>\d+):(?P<way>prevhand|prev|nexthand|next)",
):
    """A finished game's replay moves to step ``step`` (anyone in the channel may page a
    finished game: every card of it is public once it is over)."""

    def __init__(self, game_id: int, step: int, way: str, *, disabled: bool = False) -> None:
        emoji, label = REPLAY_WAYS[way]
        forward = way == "next"  # the usual click stands out
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=discord.ButtonStyle.primary if forward else discord.ButtonStyle.secondary,
                custom_id=f"tuque:replay:{game_id}:{step}:{way}",
                disabled=disabled,
            )
        )
        self.game_id = game_id
        self.step = step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(int(match["game"]), int(match["step"]), match["way"])

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if not _ids_in_range(self.game_id, self.step + 1):
            await replies.deny(interaction, _BAD_BUTTON)
            return
        await _records(interaction).show_replay(interaction, self.game_id, self.step)


def replay_row(
    game_id: int, step: int, hand_starts: Sequence[int], steps: int
) -> discord.ui.ActionRow[Any]:
    """The buttons under step ``step`` (0-based) of a replay of ``steps`` steps whose
    hands start at ``hand_starts``: the start of this hand (or, from there, of the one
    before), the step before, the step after, the start of the next hand (or the last
    step); each disabled where it would not move."""
    current = max((s for s in hand_starts if s <= step), default=0)
    back_hand = current if current < step else max((s for s in hand_starts if s < step), default=0)
    next_hand = min((s for s in hand_starts if s > step), default=steps - 1)
    targets = {
        "prevhand": back_hand,
        "prev": max(step - 1, 0),
        "next": min(step + 1, steps - 1),
        "nexthand": next_hand,
    }
    return discord.ui.ActionRow[Any](
        *(
            ReplayButton(game_id, target, way, disabled=target == step)
            for way, target in targets.items()
        )
    )


_KNOWN = (
    ActionButton,
    ActionSelect,
    SuitSelect,
    ShowHandButton,
    HintButton,
    RematchButton,
    ResignButton,
    ChallengeButton,
    LobbyButton,
    LobbySelect,
    LeaderboardButton,
    ReplayButton,
)
# The others' templates, their group names dropped (a name may appear only once in a regex).
_OTHERS = "|".join(
    re.sub(r"\(\?P<\w+>", "(?:", item.__discord_ui_compiled_template__.pattern) for item in _KNOWN
)


class UnknownButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # discord.py runs every item whose template matches, so this one excludes the others.
    template=rf"(?!(?:{_OTHERS})$)tuque:.*",
):
    """Any other ``tuque:`` custom_id: explained, never acted on."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> UnknownButton:
        return cls(item)

    @_guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await replies.deny(interaction, _BAD_BUTTON)


DYNAMIC_ITEMS = (*_KNOWN, UnknownButton)
"""Every persistent item, for ``Client.add_dynamic_items``."""


def _style(action: Action) -> discord.ButtonStyle:
    # Cards, discards included, are grey: a discard is a normal part of the hand, not
    # a danger; decisions (bids, calls, going alone) stand out in blue.
    if isinstance(action, Play | Discard):
        return discord.ButtonStyle.secondary
    return discord.ButtonStyle.primary


MAX_BUTTONS = 25
"""Discord's limit of components in a message: five rows of five buttons."""


def _emoji(action: Action, faces: CardFaces) -> discord.PartialEmoji | None:
    """The face of the card ``action`` moves or names, if it has one."""
    if isinstance(action, Play | Discard | Give | CallCard):
        return faces.emoji(action.card)
    return None


HINT_EMOJI = "💡"
"""The mark of the button a hint means (and of the Hint button itself)."""
HAND_ACCENT = discord.Colour.blurple()
"""The hand message's container colour (the table's is green)."""
ROW_SIZE = 5
"""Buttons in one action row (Discord's limit)."""
MAX_LAYOUT_COMPONENTS = 40
"""Discord's limit of components in a Components V2 message, nested ones included."""


def suit_of(action: Action) -> Suit | None:
    """The suit the compact controls file ``action`` under: a bid's trump, a called
    card's suit (RULES.md §7 Auction); None for every other action (and a joker)."""
    if isinstance(action, Bid):
        return action.suit
    if isinstance(action, CallCard):
        return action.card.suit
    return None


def suit_choices(view: PlayerView) -> list[Suit]:
    """The suits a hand view's suit select offers: those with a legal bid or call, in
    the order ♣ ♦ ♥ ♠; empty where the controls are plain buttons."""
    found = {suit_of(a) for a in view.legal_actions} - {None}
    return [s for s in SUITS if s in found]


def default_suit(view: PlayerView) -> Suit | None:
    """The suit shown before the player chooses one: trump when calling a card (a high
    trump is the usual call), else the suit they hold most of (the first on a tie)."""
    choices = suit_choices(view)
    if not choices:
        return None
    calling = any(isinstance(a, CallCard) for a in view.legal_actions)
    if calling and view.trump in choices:
        return view.trump
    return max(choices, key=lambda s: (sum(c.suit is s for c in view.hand), -s.index))


def _marked(button: discord.ui.Button[Any], marked: bool) -> discord.ui.Button[Any]:
    # The hint's mark: a colour and the bulb, the label as it was (so it reads the same).
    if marked:
        button.style = discord.ButtonStyle.success
        button.emoji = HINT_EMOJI
    return button


def _action_button(
    game_id: int,
    seq: int,
    action: Action,
    label: str,
    faces: CardFaces,
    marked: int | None,
) -> ActionButton:
    button = discord.ui.Button[Any](
        label=label,
        emoji=_emoji(action, faces),
        style=_style(action),
        custom_id=f"tuque:act:{game_id}:{seq}:{action.id}",
    )
    return ActionButton(game_id, seq, action.id, _marked(button, action.id == marked))


def _rows(items: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    return [discord.ui.ActionRow(*items[i : i + ROW_SIZE]) for i in range(0, len(items), ROW_SIZE)]


def _suit_controls(
    game_id: int,
    seq: int,
    view: PlayerView,
    pairs: Sequence[tuple[Action, str]],
    faces: CardFaces,
    suit: Suit | None,
    marked: int | None,
) -> list[discord.ui.Item[Any]]:
    """A suit select, the chosen suit's bids or calls as buttons, then the other actions."""
    choices = suit_choices(view)
    hinted = next((suit_of(a) for a, _ in pairs if a.id == marked), None)
    chosen = hinted or (suit if suit in choices else default_suit(view))
    calling = any(isinstance(a, CallCard) for a, _ in pairs)
    options = []
    for option in choices:
        count = sum(suit_of(a) is option for a, _ in pairs)
        held = sum(c.suit is option for c in view.hand)
        options.append(
            discord.SelectOption(
                label=f"{option.symbol} {option.noun}",
                value=option.value,
                description=f"{count} cards you may call" if calling else f"You hold {held}",
                emoji=HINT_EMOJI if option is hinted else None,
                default=option is chosen,
            )
        )
    select = discord.ui.Select[Any](
        custom_id=f"tuque:suit:{game_id}:{seq}",
        placeholder="The suit of the card to call" if calling else "The suit to bid in",
        options=options,
    )
    items: list[discord.ui.Item[Any]] = [discord.ui.ActionRow(SuitSelect(game_id, seq, select))]
    shown = [
        _action_button(game_id, seq, a, label, faces, marked)
        for a, label in pairs
        if suit_of(a) is chosen
    ]
    items += _rows(shown)
    others = [
        _action_button(game_id, seq, a, label, faces, marked)
        for a, label in pairs
        if suit_of(a) is None
    ]
    return [*items, *_rows(others)]


def _card_controls(
    game_id: int,
    seq: int,
    view: PlayerView,
    pairs: Sequence[tuple[Action, str]],
    faces: CardFaces,
    marked: int | None,
) -> list[discord.ui.Item[Any]]:
    """Buttons, five a row: the hand's actions, then under their own line the face-up
    tableau cards, labelled as such (not coloured: a colour would read as advice)."""
    tableau = set(view.face_up(view.seat)) if view.seat is not None and view.has_tableaus else set()
    from_tableau = [(a, label) for a, label in pairs if isinstance(a, Play) and a.card in tableau]
    from_hand = [pair for pair in pairs if pair not in from_tableau]
    items: list[discord.ui.Item[Any]] = list(
        _rows([_action_button(game_id, seq, a, label, faces, marked) for a, label in from_hand])
    )
    if from_tableau:
        items.append(discord.ui.TextDisplay("From your tableau:"))
        tableau_buttons = [
            _action_button(game_id, seq, a, _tableau_label(a, label, view), faces, marked)
            for a, label in from_tableau
        ]
        items += _rows(tableau_buttons)
    return items


def _tableau_label(action: Action, label: str, view: PlayerView) -> str:
    """A tableau card's button label: ``Play K♠ (tableau)``, and once trump is made
    ``Play J♣ (tableau, trump)`` for a trump: a face that shows another suit (the Left
    Bower) or none (a Ben) is trump all the same."""
    trump = isinstance(action, Play) and is_trump(action.card, view.trump)
    return f"{label} (tableau{', trump' if trump else ''})"


def _select_controls(
    game_id: int,
    seq: int,
    pairs: Sequence[tuple[Action, str]],
    faces: CardFaces,
    marked: int | None,
) -> list[discord.ui.Item[Any]]:
    """Selects of at most 25 actions each, in action order, where buttons would not fit."""
    parts = -(-len(pairs) // MAX_BUTTONS)
    size = -(-len(pairs) // parts)
    rows: list[discord.ui.Item[Any]] = []
    for part in range(parts):
        chunk = pairs[part * size : (part + 1) * size]
        select = discord.ui.Select[Any](
            custom_id=f"tuque:pick:{game_id}:{seq}:{part}",
            placeholder=f"{chunk[0][1]} … {chunk[-1][1]}",
            options=[
                discord.SelectOption(
                    label=label,
                    value=str(a.id),
                    emoji=HINT_EMOJI if a.id == marked else _emoji(a, faces),
                )
                for a, label in chunk
            ],
        )
        rows.append(discord.ui.ActionRow(ActionSelect(game_id, seq, part, select)))
    return rows


def _count(items: Sequence[discord.ui.Item[Any]]) -> int:
    """Components in ``items``, an action row's buttons included."""
    return sum(
        1 + len(item.children) if isinstance(item, discord.ui.ActionRow) else 1 for item in items
    )


def _with_hint(
    items: list[discord.ui.Item[Any]], game_id: int, seq: int
) -> list[discord.ui.Item[Any]]:
    """The Hint button after the controls: in the last row of buttons while it has room
    (and is not the tableau's, where it would read as a card), else in a row of its own."""
    hint = HintButton(game_id, seq)
    last = items[-1] if items else None
    tableau_row = len(items) >= 2 and isinstance(items[-2], discord.ui.TextDisplay)
    if (
        isinstance(last, discord.ui.ActionRow)
        and not tableau_row
        and not any(
            isinstance(c, discord.ui.Select | SuitSelect | ActionSelect) for c in last.children
        )
        and len(last.children) < ROW_SIZE
    ):
        last.add_item(hint)
        return items
    return [*items, discord.ui.ActionRow(hint)]


def hand_layout(
    game_id: int,
    seq: int,
    view: PlayerView,
    labels: Sequence[str],
    head: Sequence[str],
    footer: str = "",
    faces: CardFaces = TEXT_FACES,
    *,
    hint: bool = False,
    suit: Suit | None = None,
    marked: int | None = None,
    controls: bool = True,
) -> discord.ui.LayoutView:
    """A player's private hand message in Discord's component layout (Components V2).

    One container: the texts of ``head`` (what to do, the cards, the table's
    essentials; see :func:`bot.render.hand_text`), then the controls for exactly
    ``view.legal_actions`` (``labels`` in the same order), with ``hint`` a "Hint"
    button after them, then ``footer`` in small print.

    The controls: in Auction's bidding and its call of a card (RULES.md §7) a suit
    select, that suit's bids or cards as buttons, and Pass; elsewhere one button per
    action, five a row, the face-up tableau cards under a line of their own and
    labelled "(tableau)", or "(tableau, trump)" for a trump; selects of actions where
    buttons would not fit.

    Args:
        suit: the suit the player chose in the select (another falls back to
            :func:`default_suit`).
        marked: the id of the action a hint means: its button is green with 💡, and
            in the compact bidding its suit is the one shown.
        controls: False for a game that ended before its last hand (a resignation, a
            forfeit): the engine still has actions, but there is nothing to click.
    """
    layout = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container[Any](accent_colour=HAND_ACCENT)
    for text in head:
        container.add_item(discord.ui.TextDisplay(text))
    if view.legal_actions and controls:
        pairs = list(zip(view.legal_actions, labels, strict=True))
        if suit_choices(view):
            items = _suit_controls(game_id, seq, view, pairs, faces, suit, marked)
        else:
            items = _card_controls(game_id, seq, view, pairs, faces, marked)
            # The container, the separator, the footer and a row of its own for the hint.
            fixed = len(head) + 2 + bool(footer) + 2 * hint
            if fixed + _count(items) > MAX_LAYOUT_COMPONENTS:
                items = _select_controls(game_id, seq, pairs, faces, marked)
        if hint:
            items = _with_hint(items, game_id, seq)
        container.add_item(discord.ui.Separator())
        for item in items:
            container.add_item(item)
    if footer:
        container.add_item(discord.ui.TextDisplay(footer))
    layout.add_item(container)
    return layout


def game_over_view(game_id: int) -> discord.ui.View:
    """The game-over message's components: "Rematch"."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(RematchButton(game_id))
    return ui


TABLE_ACCENT = discord.Colour.dark_green()
TABLE_PICTURE = "table.jpg"
"""The file name of the table's picture, attached to the table message."""


def table_layout(
    game_id: int, title: str, status: str, description: str, *, finished: bool
) -> discord.ui.LayoutView:
    """The public table message in Discord's component layout (Components V2): ``title``,
    the table's picture (the attachment :data:`TABLE_PICTURE`, with ``description`` as
    its text for screen readers), one ``status`` line, and "Show my hand" while the
    game runs."""
    layout = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container[Any](accent_colour=TABLE_ACCENT)
    container.add_item(discord.ui.TextDisplay(title))
    gallery = discord.ui.MediaGallery[Any]()
    gallery.add_item(media=f"attachment://{TABLE_PICTURE}", description=description)
    container.add_item(gallery)
    container.add_item(discord.ui.TextDisplay(status))
    if not finished:
        container.add_item(discord.ui.ActionRow[Any](ShowHandButton(game_id)))
    layout.add_item(container)
    return layout


def resign_view(game_id: int) -> discord.ui.View:
    """The confirm button of ``/tuque resign``."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(ResignButton(game_id))
    return ui


CHOICES_SHOWN = 25
"""Games a choice of games offers at most: Discord's 5 rows of 5 buttons."""


def games_view(games: Sequence[tuple[int, str]], resign: bool) -> discord.ui.View:
    """One button per ``(game id, label)`` of a member's games (the first
    ``CHOICES_SHOWN``): "Show my hand" for that game, or with ``resign`` its confirm
    button. Labels are cut to Discord's 80 characters."""
    ui = discord.ui.View(timeout=None)
    for game_id, label in games[:CHOICES_SHOWN]:
        text = _fit(f"Resign {label}" if resign else label, 80)
        ui.add_item(ResignButton(game_id, text) if resign else ShowHandButton(game_id, text))
    return ui


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
