"""A running game's state in the bot: the :class:`Session` and the helpers that read it.

No Discord calls here: the session manager, delivery, computer turns and timers all
share this state, and each owns what it changes.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import render, replies
from bot.store import DEFAULT_AUTOPLAY, Autoplay, GameRow, SeatKind, SeatRow
from engine.actions import Action
from engine.cards import Suit
from engine.game import RECORD_FORMAT, RECORD_VERSION, Game
from engine.view import Phase

__all__ = [
    "TOKEN_LIFETIME",
    "Call",
    "HandMessage",
    "Session",
    "ended",
    "forced_note",
    "post_nonce",
    "record_of",
]

TOKEN_LIFETIME = 14 * 60.0
"""Seconds an interaction token is trusted for edits (Discord allows 15 minutes)."""
Call = Callable[[], Awaitable[object]]


@dataclass(slots=True)
class HandMessage:
    """A seat's newest ephemeral hand view and the interaction that can edit it."""

    interaction: discord.Interaction
    message_id: int | None  # None: the interaction's original response
    issued: float  # time.monotonic() when the token was issued

    @property
    def expired(self) -> bool:
        return time.monotonic() - self.issued > TOKEN_LIFETIME


@dataclass(slots=True)
class Session:
    """A game in progress and what the bot needs to show it."""

    id: int
    guild_id: int
    channel_id: int
    seats: tuple[SeatRow, ...]
    game: Game
    seating: render.Seating
    table_message_id: int | None = None
    # The table message found deleted that the next table post replaces (0: none): part
    # of that post's nonce, so the replacement is a new message however often it is tried.
    table_replaces: int = 0
    # The game's thread, started from its table message (None: the game plays in the
    # channel), and whether starting one was tried (once per game: a refusal stands).
    thread_id: int | None = None
    thread_tried: bool = False
    # The message that mentions the member on turn, and that member's seat; deleted
    # once they act.
    ping_message_id: int | None = None
    ping_seat: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hands: dict[int, HandMessage] = field(default_factory=dict)
    computer: asyncio.Task[None] | None = None
    table_edit: asyncio.Task[None] | None = None
    # A change the table message does not show yet (the table edit's loop clears it).
    table_stale: bool = False
    # Channel posts waiting for delivery, in order, and the task delivering them.
    outbox: deque[Call] = field(default_factory=deque)
    courier: asyncio.Task[None] | None = None
    # Seats whose hand refresh is queued and not started: one queued edit shows them all.
    refreshing: set[int] = field(default_factory=set)
    # Members' seats the computer plays while they are away (the turn timer's forfeit
    # time passed on their turn), until they come back; docs/rulings.md R9.
    away: set[int] = field(default_factory=set)
    # Each member's choice of when their forced moves are played for them, by seat.
    autoplay: dict[int, Autoplay] = field(default_factory=dict)
    # A line for a member's next hand refresh (what was played for them).
    notes: dict[int, str] = field(default_factory=dict)
    # This turn's hint: the log length it is for and its search (the action id and every
    # action's share of the search).
    hint: tuple[int, asyncio.Future[tuple[int, dict[int, float]]]] | None = None
    # The hint shown this turn: the log length, the action it means and its words; the
    # hand message marks that action's button while the turn lasts.
    hinted: tuple[int, int, str] | None = None
    # The suit each seat chose in its hand message's suit select, with the log length it
    # was chosen at (Auction's bidding and call, RULES.md §7); a later turn forgets it.
    picked: dict[int, tuple[int, Suit]] = field(default_factory=dict)
    end_reason: str | None = None
    finished: bool = False

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` (resigned or not), or None for a stranger."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def is_computer(self, seat: int | None) -> bool:
        """Whether a computer plays ``seat``: a computer's seat, an away member's, or a
        resigned member's."""
        return seat is not None and (
            self.seats[seat].kind is SeatKind.COMPUTER
            or seat in self.away
            or self.seats[seat].resigned
        )

    def forced(self, seat: int | None) -> Action | None:
        """The move played for the member in ``seat`` now, if any: their only legal
        action, when their auto-play choice covers it (the last trick by default)."""
        if seat is None or self.is_computer(seat):
            return None
        choice = self.autoplay.get(seat, DEFAULT_AUTOPLAY)
        if choice is Autoplay.OFF:
            return None
        legal = self.game.legal_actions(seat)
        if len(legal) != 1:
            return None
        if choice is Autoplay.LAST and not self._last_trick:
            return None
        return legal[0]

    @property
    def _last_trick(self) -> bool:
        game = self.game
        return game.phase is Phase.PLAY and len(game.view(None).tricks) == game.variant.tricks - 1

    def moves_itself(self, seat: int | None) -> bool:
        """Whether the bot moves for ``seat`` now: a computer's (or an away member's)
        turn, or a member's forced move that their auto-play choice covers."""
        return self.is_computer(seat) or self.forced(seat) is not None

    @property
    def standin_level(self) -> str:
        """The level of the computer that plays for an away member: the table's
        computers' level, or normal at a table of members."""
        return next((s.level for s in self.seats if s.level), "normal")

    def goes_on_without(self, seat: int) -> bool:
        """Whether the game goes on with the computer in the away member's ``seat`` after
        the hand (docs/rulings.md R9): yes while another member plays beside them or two
        or more others remain; no when nobody else is left, or the one other member
        plays against them (the side forfeits, as a one-to-one challenge expects)."""
        sides = self.game.variant.sides
        others = [
            s.seat
            for s in self.seats
            if s.user_id is not None
            and s.seat != seat
            and s.seat not in self.away
            and not s.resigned
        ]
        return len(others) >= 2 or any(sides[o] == sides[seat] for o in others)

    def sides_out(self) -> set[int]:
        """The sides whose members all resigned: they can no longer win (R26)."""
        sides = self.game.variant.sides
        members = [s for s in self.seats if s.user_id is not None]
        return {sides[s.seat] for s in members} - {sides[s.seat] for s in members if not s.resigned}

    def winner_without(self, seat: int) -> int:
        """The side that wins when ``seat``'s side concedes: the other side in a game of
        two sides; in a game of more, the best score among the others still in it (the
        earliest side on a tie), as the game stands."""
        sides = self.game.variant.sides
        return self.best_side(exclude={sides[seat], *self.sides_out()})

    def best_side(self, exclude: Collection[int] = ()) -> int:
        """The side with the best score now, not in ``exclude`` (the earliest on a tie)."""
        scores = self.game.scores
        others = [side for side in range(len(scores)) if side not in exclude]
        return max(others, key=lambda side: (scores[side], -side))

    def winner(self) -> int | None:
        """The side that won the finished game: the engine's winner, unless its members
        all resigned (then the best of the sides still in it, R26)."""
        winner = self.game.winner
        if winner is None or winner not in self.sides_out():
            return winner
        return self.best_side(exclude=self.sides_out())

    def opponents_of(self, user_id: int) -> str:
        """The names of the seats on other sides than ``user_id``'s, joined with "and"."""
        sides = self.game.variant.sides
        mine = {sides[s.seat] for s in self.seats if s.user_id == user_id}
        return " and ".join(
            self.seating.names[s] for s in range(len(sides)) if sides[s] not in mine
        )


def forced_note(action: Action, before: Game, after: Game, session: Session) -> str:
    """The line a member reads after their forced move was played for them. It names
    the card only while its hand goes on: beside the next hand's cards it would read as
    one of them."""
    ended = after.phase in (Phase.HAND_OVER, Phase.GAME_OVER) or after.hand_no != before.hand_no
    if ended:
        return "Your last card was played for you."
    label = render.action_label(action, before.view(before.turn), session.seating)
    return f"Played for you, your only choice: {label}."


def post_nonce(session: Session, what: str, *n: int) -> str:
    """The nonce of the game's post ``what`` (its ``n``-th, for hand results): the
    same for every try and every announcement of that post (``replies.nonce``)."""
    return replies.nonce(what, session.id, session.game.seed, *n)


def ended(session: Session) -> str | None:
    """Why the session's game ended before its last hand (resigned, forfeited), if so."""
    if not session.finished or session.game.phase is Phase.GAME_OVER:
        return None
    return session.end_reason or "the game was stopped."


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
