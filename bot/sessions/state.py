"""A running game in the bot: the :class:`Session` and its parts, each with one writer.

- ``Session.table`` (the rules' state: :class:`bot.table.Table`), ``seating`` and
  ``aids``: written by the session manager only, which takes each stored change;
- ``Session.discord``: the game's Discord state (message ids, tokens, the outbox),
  written by delivery only.

No Discord calls here.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import render, replies
from bot.budget import Priority
from bot.store import GameRow, SeatRow
from bot.table import Seat, Table
from engine.cards import Suit
from engine.game import RECORD_FORMAT, RECORD_VERSION, Game
from engine.view import Phase

__all__ = [
    "NO_GUILD",
    "TOKEN_LIFETIME",
    "Aids",
    "Call",
    "DiscordState",
    "HandMessage",
    "InteractionToken",
    "Outbox",
    "Session",
    "ended",
    "post_nonce",
    "record_of",
    "seating_of",
    "table_of",
]

TOKEN_LIFETIME = 14 * 60.0
"""Seconds an interaction token is trusted for edits (Discord allows 15 minutes)."""
NO_GUILD = 0
"""The guild id stored for a game played outside a server (a DM or group DM, where the
bot answers only interactions): no snowflake is 0, and Discord routes direct messages to
shard 0, the shard of guild 0."""
Call = Callable[[], Awaitable[object]]


@dataclass(slots=True, eq=False)
class InteractionToken:
    """A player's interaction with a game played outside a server, whose token reaches
    the game's public messages there (the table) for 15 minutes."""

    interaction: discord.Interaction
    issued: float  # time.monotonic() when the interaction arrived
    followups: int = 0  # follow-ups made through it (Discord allows a user install 5)


@dataclass(slots=True)
class HandMessage:
    """A seat's newest ephemeral hand view and the interaction that can edit it."""

    interaction: discord.Interaction
    message_id: int | None  # None: the interaction's original response
    issued: float  # time.monotonic() when the token was issued


@dataclass(slots=True, eq=False)
class Outbox:
    """Calls delivered in order, one at a time, by one task (the courier)."""

    calls: deque[Call] = field(default_factory=deque)
    courier: asyncio.Task[None] | None = None

    @property
    def idle(self) -> bool:
        """Whether every call queued has been delivered."""
        return not self.calls and (self.courier is None or self.courier.done())


@dataclass(slots=True, eq=False)
class DiscordState:
    """What a game shows on Discord and how to reach it: written by delivery only."""

    table_message_id: int | None = None
    # The table message found deleted that the next table post replaces (0: none): part
    # of that post's nonce, so the replacement is a new message however often it is tried.
    table_replaces: int = 0
    # The game's thread, started from its table message (None: the game plays in the
    # channel), and whether starting one was tried (once per game: a refusal stands).
    thread_id: int | None = None
    thread_tried: bool = False
    # The message that mentions the member on turn, and that member's seat; deleted
    # once they act, where it was posted (None: not known, a ping a restart found).
    ping_message_id: int | None = None
    ping_seat: int | None = None
    ping_channel_id: int | None = None
    # Pings forgotten, their deletions under way (the lowest priority: they may wait).
    ping_deletions: set[asyncio.Task[None]] = field(default_factory=set)
    hands: dict[int, HandMessage] = field(default_factory=dict)
    # Each seat's newest hand message, even once its token is too old to edit it: the
    # only one whose controls count (an older one's clicks are refused).
    newest_hand: dict[int, int] = field(default_factory=dict)
    table_edit: asyncio.Task[None] | None = None
    # A change the table message does not show yet (the table edit's loop clears it),
    # the loop time the first of them was made, and how urgent the table's edit is: the
    # most urgent of those changes.
    table_stale: bool = False
    table_stale_since: float = 0.0
    table_priority: Priority = Priority.ROUTINE
    # Channel posts (pings, results, notices), which wait for the bot's request budget,
    # and the hand views (interaction webhooks, which never do): each in order, apart,
    # so that a member's hand keeps its pace however long the posts wait.
    outbox: Outbox = field(default_factory=lambda: Outbox())
    hand_outbox: Outbox = field(default_factory=lambda: Outbox())
    # Seats whose hand refresh is queued and not started: one queued edit shows them all.
    refreshing: set[int] = field(default_factory=set)
    # A line for a member's next hand refresh (what was played for them, a resignation).
    notes: dict[int, str] = field(default_factory=dict)
    # Outside a server: the players' newest interactions with the game, newest last,
    # whose tokens edit the table; and whether the table went without an edit because
    # every token was too old (the next click's answer then posts a fresh table).
    tokens: list[InteractionToken] = field(default_factory=list)
    table_waiting: bool = False

    @classmethod
    def of(cls, row: GameRow, turn: int | None) -> DiscordState:
        """The screen of a stored game being restored (``turn``: the seat it waits on):
        its table message, thread and ping as stored."""
        return cls(
            table_message_id=row.table_message_id,
            thread_id=row.thread_id,
            # A game restored was opened before: its thread stands, or it has none.
            thread_tried=row.table_message_id is not None,
            ping_message_id=row.ping_message_id,
            # The newest ping is for the turn the game waits on (a crash between a move
            # and its ping's deletion aside): kept, not posted again.
            ping_seat=None if row.ping_message_id is None else turn,
        )


@dataclass(slots=True, eq=False)
class Aids:
    """A member's aids this turn: written by the session manager only."""

    # This turn's hint: the log length it is for and its search (the action id and every
    # action's share of the search).
    hint: tuple[int, asyncio.Future[tuple[int, dict[int, float]]]] | None = None
    # The hint shown this turn: the log length, the action it means and its words; the
    # hand message marks that action's button while the turn lasts.
    hinted: tuple[int, int, str] | None = None
    # The suit each seat chose in its hand message's suit select, with the log length it
    # was chosen at (Auction's bidding and call, RULES.md §7); a later turn forgets it.
    picked: dict[int, tuple[int, Suit]] = field(default_factory=dict)


@dataclass(slots=True, eq=False)
class Session:
    """A game in progress: its table, where it plays and what shows it.

    Attributes:
        table: the table as the store has it (the manager takes each stored change).
        guild_id, channel_id: where the game was started.
        rows: the seats as the store created them (the members' names).
        seating: the names per seat, as the table stands (a resigned member's seat is
            the computer's "for" them).
        lock: held while an event is applied and stored, so one game's events queue.
        discord: the game's Discord state (delivery's).
        aids: this turn's hint and suit choice (the manager's).
        computer: the bot's moves under way at the table (the manager's).
    """

    table: Table
    guild_id: int
    channel_id: int
    rows: tuple[SeatRow, ...]
    seating: render.Seating
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    discord: DiscordState = field(default_factory=DiscordState)
    aids: Aids = field(default_factory=Aids)
    computer: asyncio.Task[None] | None = None

    @property
    def id(self) -> int:
        return self.table.id

    @property
    def game(self) -> Game:
        """The game as stored (never changed in place)."""
        return self.table.game

    @property
    def finished(self) -> bool:
        return self.table.finished

    @property
    def private(self) -> bool:
        """Whether the game is played outside a server (a DM or group DM): the bot posts
        nothing in its channel, and shows it only through its players' interactions."""
        return self.guild_id == NO_GUILD


def table_of(
    game_id: int, rows: tuple[SeatRow, ...], game: Game, guild_id: int | None = None
) -> Table:
    """The table of a stored game's seats, played in ``guild_id``: unrated outside a
    server (:data:`NO_GUILD`), where no server's leaderboard could hold it."""
    seats = tuple(
        Seat(r.seat, r.side or 0, r.user_id, r.level, r.resigned)
        for r in sorted(rows, key=lambda r: r.seat)
    )
    return Table(game_id, game, seats, ranked=guild_id != NO_GUILD)


def seating_of(rows: tuple[SeatRow, ...], table: Table) -> render.Seating:
    """The names per seat of ``rows`` as ``table`` stands (who resigned)."""
    return render.seating_of(
        [dataclasses.replace(r, resigned=table.seats[r.seat].resigned) for r in rows]
    )


def post_nonce(session: Session, what: str, *n: int) -> str:
    """The nonce of the game's post ``what`` (its ``n``-th, for hand results): the
    same for every try and every announcement of that post (``replies.nonce``)."""
    return replies.nonce(what, session.id, session.game.seed, *n)


def ended(session: Session) -> str | None:
    """Why the session's game ended before its last hand (resigned, forfeited), if so."""
    table = session.table
    if not table.finished or table.game.phase is Phase.GAME_OVER:
        return None
    return render.end_reason(table.result, session.seating, table.game.variant.sides)


def record_of(row: GameRow) -> dict[str, Any]:
    """The engine record (docs/records.md) of a stored game: it rebuilds the game."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "variant": row.variant,
        "options": row.options,
        "seed": row.seed,
        "first_dealer": row.first_dealer,
        "actions": list(row.actions),
    }
