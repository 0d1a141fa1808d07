"""The async session manager: one engine game per session, one lock per game.

Data flows one way: an interaction reaches a handler here, the handler applies an
engine action to a *copy* of the game, the store records the new log entries, and
only then does the session take the new state and update the Discord views. A
failure before the store write leaves the game and the database as they were.

After the store write nothing can lose the game. Every Discord call that follows
it (the answer to the click, channel posts, table edits, other players' hands) is
retried with backoff on rate limits, server errors and timeouts, and may fail
for good without stopping the rest: announcements go through a per-game outbox
delivered in order in the background, the next player's hand is refreshed and
the computer is scheduled whatever Discord answers, and the turn-timer loop
restarts a computer seat that is on turn with no move under way. Each failure
is logged once, with the game id and never a card.

Private views are ephemeral messages, which can only be edited through the
interaction token that created them, for 15 minutes. Each session remembers the
newest such token per seat; when it is too old the player is pointed to the
table's "Show my hand" button.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Coroutine, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import discord

from bot import render, replies
from bot.components import game_over_view, hand_buttons, resign_view, table_view
from bot.emojis import TEXT_FACES, CardFaces
from bot.store import (
    DEFAULT_AUTOPLAY,
    Autoplay,
    GameNotActive,
    GameNotFound,
    GameRow,
    GameStatus,
    HandRecord,
    SeatKind,
    SeatRow,
    Store,
    TimerDue,
)
from engine.actions import ACTIONS, Action
from engine.ai.search import SearchPlayer
from engine.errors import IllegalAction, RecordError
from engine.game import RECORD_FORMAT, RECORD_VERSION, Game
from engine.players import make_player
from engine.view import Phase, PlayerView

__all__ = ["GameSessions", "Session", "advise", "choose_action", "hint_text", "record_of"]

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 14 * 60.0
"""Seconds an interaction token is trusted for edits (Discord allows 15 minutes)."""
Call = Callable[[], Awaitable[object]]


def choose_action(level: str, seed: int, view: PlayerView) -> int:
    """A computer player's action id; runs in a worker so the event loop never waits on it.

    Takes only the seat's view: a computer seat sees no more than a person would.
    """
    player = make_player(level, seed)
    return player.choose(view, view.legal_actions).id


HINT_SECONDS = 1.0
"""How long the hard computer searches for a hint (twice its own move's budget)."""


def advise(seed: int, view: PlayerView) -> tuple[int, float | None]:
    """A hint for ``view``'s seat: the hard computer's action id and its share of the
    search (None where the hard level plays by the normal level's rule, as in the bidding
    of Auction, two- and three-hand).

    Runs in a worker, like ``choose_action``; takes only the seat's view.
    """
    player = SearchPlayer(seed=seed, time_budget=HINT_SECONDS)
    action = player.choose(view, view.legal_actions)
    return action.id, player.last_shares.get(action.id)


def hint_text(label: str, share: float | None) -> str:
    """What a hint says: the action, and how sure the hard computer is of it."""
    line = f"💡 **Hint:** {label}, the hard computer's choice."
    if share is None:
        return line + " Here it plays by the normal computer's rule of thumb."
    sure = "Sure" if share >= 0.6 else "Fairly sure" if share >= 0.35 else "A close call"
    return f"{line} {sure}: {share:.0%} of its search went there."


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
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hands: dict[int, HandMessage] = field(default_factory=dict)
    computer: asyncio.Task[None] | None = None
    table_edit: asyncio.Task[None] | None = None
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
    # This turn's hint: the log length it is for and its search (action id, share).
    hint: tuple[int, asyncio.Future[tuple[int, float | None]]] | None = None
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


def _forced_note(action: Action, before: Game, after: Game, session: Session) -> str:
    """The line a member reads after their forced move was played for them. It names
    the card only while its hand goes on: beside the next hand's cards it would read as
    one of them."""
    ended = after.phase in (Phase.HAND_OVER, Phase.GAME_OVER) or after.hand_no != before.hand_no
    if ended:
        return "Your last card was played for you."
    label = render.action_label(action, before.view(before.turn), session.seating)
    return f"Played for you, your only choice: {label}."


def _post_nonce(session: Session, what: str, *n: int) -> str:
    """The nonce of the game's post ``what`` (its ``n``-th, for hand results): the
    same for every try and every announcement of that post (``replies.nonce``)."""
    return replies.nonce(what, session.id, session.game.seed, *n)


def _ended(session: Session) -> str | None:
    """Why the session's game ended before its last hand (resigned, forfeited), if so."""
    if not session.finished or session.game.phase is Phase.GAME_OVER:
        return None
    return session.end_reason or "the game was stopped."


def _already_playing(name: str, game_id: int) -> str:
    return f"You're already playing {name} (game #{game_id}): finish or resign it first."


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


class GameSessions:
    """Every running game of the bot, and the handlers of every game interaction.

    Args:
        client: the client (for channels).
        store: the database.
        executor: where computer players think (a process pool in production).
        move_delay: seconds to wait before each computer move (a guild's own in
            ``move_delays`` wins).
        table_delay: seconds a table edit waits so that quick plays share one edit;
            Discord allows about 5 edits per 5 seconds in a channel.
        faces: how cards show now (the bot's card emojis, which start-up may still be
            uploading); asked at every render. Default: text.
    """

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        executor: Executor,
        *,
        move_delay: float,
        table_delay: float,
        faces: Callable[[], CardFaces] = lambda: TEXT_FACES,
    ) -> None:
        self.client = client
        self.faces = faces
        self.store = store
        self.executor = executor
        self.move_delay = move_delay
        self.move_delays: dict[int, float] = {}
        """Guild id -> its own computer move delay (``/tuque settings`` keeps it up to
        date); other guilds' computers wait ``move_delay``."""
        self.rated_hints: set[int] = set()
        """The guilds that allow hints in rated games (``/tuque settings`` keeps it up to
        date); elsewhere only games with a computer offer them."""
        self.table_delay = table_delay
        self._sessions: dict[int, Session] = {}
        # Background work (computer moves, table edits), cancelled by close().
        self._tasks: set[asyncio.Task[None]] = set()

    # --- start-up -----------------------------------------------------------------------

    async def restore(self) -> int:
        """Load every unfinished game from the store so its table and buttons work again.

        Returns:
            the number of games restored.
        """
        rows = await self.store.active_games()
        for row in rows:
            try:
                game = Game.from_record(record_of(row))
            except RecordError as error:
                await self._abandon(row, error)
                continue
            session = Session(
                id=row.id,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                seats=row.seats,
                game=game,
                seating=render.seating_of(row.seats),
                table_message_id=row.table_message_id,
            )
            await self._load_aids(session)
            self._sessions[row.id] = session
            # A crash between two writes can leave a hand to deal or a game to close.
            await self._settle(session)
            self._schedule_computer(session)
        log.info("restored %d unfinished games", len(rows))
        return len(rows)

    async def _abandon(self, row: GameRow, error: RecordError) -> None:
        """A stored game the engine no longer replays (its log breaks a rule fixed since
        it was played): end it without a result, so one game cannot keep the bot from
        starting, and say so in its channel. The log line names the game, not a card."""
        # The error's text can name an action of the log, and so a card: only its type.
        reason = type(error).__name__
        log.error("game %d no longer replays (%s): ended without a result", row.id, reason)
        await self.store.finish_game(row.id, GameStatus.ABANDONED, None)
        channel = self.client.get_partial_messageable(row.channel_id)
        text = (
            f"Game #{row.id} cannot go on after an update to the rules of the game: it ends "
            "without a result and counts for nobody. Sorry! Start a new one with /tuque."
        )
        nonce = replies.nonce("abandoned", row.id, row.seed)
        await replies.deliver(
            f"game {row.id}: abandoned notice", partial(channel.send, text, nonce=nonce)
        )

    async def _load_aids(self, session: Session) -> None:
        """The members' auto-play choices."""
        members = {s.user_id: s.seat for s in session.seats if s.user_id is not None}
        choices = await self.store.autoplay_of(members)
        session.autoplay = {members[user]: choice for user, choice in choices.items()}

    def hints_on(self, session: Session) -> bool:
        """Whether members may ask for hints: in games with a computer (unrated), and in
        rated games where the guild allows it."""
        rated = all(s.kind is SeatKind.HUMAN for s in session.seats)
        return not rated or session.guild_id in self.rated_hints

    async def set_autoplay(self, user_id: int, choice: Autoplay) -> None:
        """Store ``user_id``'s auto-play choice and use it at once in their running games
        (a forced move waiting for them is played). Raises ``sqlite3.Error``."""
        await self.store.set_autoplay(user_id, choice)
        for session in self._sessions.values():
            seat = session.seat_of(user_id)
            if seat is not None:
                session.autoplay[seat] = choice
                self._schedule_computer(session)

    def session(self, game_id: int) -> Session | None:
        """The running session of ``game_id``, if any."""
        return self._sessions.get(game_id)

    def games_of(self, guild_id: int, channel_id: int | None, user_id: int) -> list[Session]:
        """The games the user still plays in the guild (in ``channel_id`` unless None),
        newest first: not those they resigned."""
        found = [
            s
            for s in self._sessions.values()
            if s.guild_id == guild_id
            and (channel_id is None or s.channel_id == channel_id)
            and (seat := s.seat_of(user_id)) is not None
            and not s.seats[seat].resigned
        ]
        return sorted(found, key=lambda s: -s.id)

    # --- delivery after the commit -----------------------------------------------------

    def _post(self, session: Session, what: str, call: Call) -> None:
        """Queue a Discord call behind the game's earlier ones, delivered with retries."""
        self._queue(session, partial(replies.deliver, f"game {session.id}: {what}", call))

    def _queue(self, session: Session, job: Call) -> None:
        """Queue work that never raises; the game's courier runs it in order."""
        session.outbox.append(job)
        if session.courier is None or session.courier.done():
            session.courier = self._spawn(self._courier(session), f"outbox-{session.id}")

    def _queue_refresh(self, session: Session, seat: int) -> None:
        """Queue an edit of ``seat``'s hand view unless one is queued already (it is
        rendered when sent, so one edit covers every change before it)."""
        if seat in session.refreshing:
            return
        session.refreshing.add(seat)

        async def refresh() -> None:
            session.refreshing.discard(seat)
            await self._refresh_hand(session, seat, session.notes.pop(seat, None))

        self._queue(session, refresh)

    async def _courier(self, session: Session) -> None:
        while session.outbox:
            await session.outbox.popleft()()

    def _hand_message(
        self, session: Session, seat: int, note: str | None = None
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        view = session.game.view(seat)
        labels = [render.action_label(a, view, session.seating) for a in view.legal_actions]
        faces = self.faces()
        buttons = None
        if not session.finished:
            hint = self.hints_on(session) and view.turn == seat and len(view.legal_actions) > 1
            buttons = hand_buttons(
                session.id, len(session.game.log), view, labels, faces, hint=hint
            )
        ended = _ended(session)
        embed = render.hand_embed(view, session.seating, session.id, note, faces, ended)
        return embed, buttons

    async def _send_hand(
        self, interaction: discord.Interaction, session: Session, seat: int, note: str | None = None
    ) -> None:
        """A fresh ephemeral hand view as the answer to ``interaction``."""
        embed, buttons = self._hand_message(session, seat, note)
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
        if buttons is not None:
            kwargs["view"] = buttons
        message_id = await replies.send(interaction, **kwargs)
        session.hands[seat] = HandMessage(interaction, message_id, time.monotonic())

    async def _send_hand_after_commit(
        self, interaction: discord.Interaction, session: Session, seat: int, note: str
    ) -> None:
        await replies.deliver(
            f"game {session.id}: hand view of seat {seat}",
            lambda: self._send_hand(interaction, session, seat, note),
        )

    async def _refresh_hand(self, session: Session, seat: int, note: str | None = None) -> None:
        """Edit ``seat``'s newest ephemeral hand view, if its token still lives.

        Rendered when the edit is made, so it shows the game as it is then.
        """
        handle = session.hands.get(seat)
        if handle is None:
            return
        if handle.expired:
            del session.hands[seat]
            return

        async def edit() -> None:
            embed, buttons = self._hand_message(session, seat, note)
            if handle.message_id is None:
                await handle.interaction.edit_original_response(embed=embed, view=buttons)
            else:
                await handle.interaction.followup.edit_message(
                    handle.message_id, embed=embed, view=buttons
                )

        delivered = await replies.deliver(f"game {session.id}: hand view of seat {seat}", edit)
        if not delivered and session.hands.get(seat) is handle:
            # The player dismissed the message or the token died early: the table's
            # "Show my hand" button brings a fresh one.
            del session.hands[seat]

    def _schedule_table_edit(self, session: Session) -> None:
        """Edit the table soon with the state of that moment; pending edits merge into one."""
        if session.table_edit is None or session.table_edit.done():
            session.table_edit = self._spawn(self._edit_table_later(session), f"table-{session.id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _edit_table_later(self, session: Session) -> None:
        await asyncio.sleep(self.table_delay)
        await self._update_table(session)

    async def _update_table(self, session: Session) -> None:
        """Edit the table message to show the game now; post one if it has none or it is gone."""

        async def edit() -> None:
            assert session.table_message_id is not None
            public = session.game.view(None)
            channel = self.client.get_partial_messageable(session.channel_id)
            try:
                await channel.get_partial_message(session.table_message_id).edit(
                    content=render.table_content(public, session.seating, session.finished),
                    embed=render.table_embed(
                        public, session.seating, session.id, self.faces(), _ended(session)
                    ),
                    view=table_view(session.id, session.finished),
                )
            except discord.NotFound:
                # Deleted by a moderator: the players still need a table.
                session.table_replaces = session.table_message_id
                session.table_message_id = None

        if session.table_message_id is not None:
            await replies.deliver(f"game {session.id}: table edit", edit)
        if session.table_message_id is None and not session.finished:
            post = partial(self._post_table, session)
            await replies.deliver(f"game {session.id}: table post", post)

    async def _post_table(self, session: Session) -> None:
        public = session.game.view(None)
        channel = self.client.get_partial_messageable(session.channel_id)
        # One nonce per table of the game, not per try: a post whose answer was lost
        # in every try is found again by the next move's post instead of made twice.
        key = ("table", session.id, session.game.seed, session.table_replaces)
        message = await channel.send(
            content=render.table_content(public, session.seating, session.finished),
            embed=render.table_embed(
                public, session.seating, session.id, self.faces(), _ended(session)
            ),
            view=table_view(session.id, session.finished),
            nonce=replies.nonce(*key),
        )
        session.table_message_id = message.id
        await self.store.set_table_message(session.id, message.id)

    # --- starting games -------------------------------------------------------------------

    async def start(
        self,
        guild_id: int,
        channel_id: int,
        variant: str,
        options: dict[str, Any],
        seats: Sequence[SeatRow],
        *,
        accepting: int | None = None,
        lobby: int | None = None,
    ) -> Session:
        """Deal a new game, store it with its deal, and run it; show it with ``open``.

        ``options`` are checked already (``options.game_options``); ``seats`` as
        ``Store.create_game`` takes them, their sides the variant's. With ``accepting``
        (a challenge id) or ``lobby`` (a lobby id) the challenge is accepted or the
        lobby started in the transaction that creates the game.

        Raises:
            AlreadyPlaying: two of the members already share an active game here.
            ChallengeClosed, LobbyClosed: the challenge or lobby is no longer open.
        """
        game = Game(variant, seed=secrets.randbits(62), **options)
        game.deal()
        game_id = await self.store.create_game(
            guild_id,
            channel_id,
            variant,
            options,
            game.seed,
            game.first_dealer,
            seats,
            [str(e) for e in game.log],
            accepting=accepting,
            lobby=lobby,
        )
        if any(s.user_id is not None and not s.display_name for s in seats):
            # The names the store knows (a member's last seen display name).
            seats = (await self.store.load_game(game_id)).seats
        seats = tuple(sorted(seats, key=lambda s: s.seat))
        session = Session(game_id, guild_id, channel_id, seats, game, render.seating_of(seats))
        await self._load_aids(session)
        self._sessions[game_id] = session
        log.info("game %d started: %s, %d seats", game_id, variant, len(seats))
        return session

    async def open(
        self, session: Session, greetings: Sequence[tuple[discord.Interaction, int, str]]
    ) -> None:
        """Show a game ``start`` stored: each ``(interaction, seat, note)`` of
        ``greetings`` gets that seat's hand view as its answer (or a follow-up), the
        table is posted, the first turn's timer starts and a computer on turn plays.
        Discord's failures are logged and never raised: the game is stored already."""
        for interaction, seat, note in greetings:
            await self._send_hand_after_commit(interaction, session, seat, note)
        await self._update_table(session)
        await self._touch(session)
        self._schedule_computer(session)

    # --- the hand view ----------------------------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """ "Show my hand": a fresh ephemeral view for a player of the game."""
        found = await self._player_seat(interaction, game_id, "You have no hand in this game.")
        if found is not None:
            await self._send_hand(interaction, *found)

    async def _player_seat(
        self, interaction: discord.Interaction, game_id: int, stranger: str
    ) -> tuple[Session, int] | None:
        """The running game and the clicker's seat in it; else answer why not and return None."""
        session = self._sessions.get(game_id)
        if session is None:
            await replies.deny(interaction, await self._why_not_running(game_id))
            return None
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            names = " and ".join(session.seating.names)
            await replies.deny(interaction, f"{stranger} Game #{game_id} is between {names}.")
            return None
        if session.seats[seat].resigned:
            await replies.deny(
                interaction, f"You resigned game #{game_id}: a computer plays your seat now."
            )
            return None
        if seat in session.away:
            session.away.discard(seat)
            channel = self.client.get_partial_messageable(session.channel_id)
            back = f"{session.seating.names[seat]} is back and plays their own cards again."
            post = partial(channel.send, back, nonce=replies.nonce())
            self._post(session, "back notice", post)
        return session, seat

    async def _why_not_running(self, game_id: int) -> str:
        try:
            await self.store.load_game(game_id)
        except GameNotFound:
            return f"There is no game #{game_id}."
        return f"Game #{game_id} is over."

    # --- actions ------------------------------------------------------------------------------

    async def on_action(
        self, interaction: discord.Interaction, game_id: int, seq: int, action: Action | None
    ) -> None:
        """A click on an action button of a hand view.

        Strangers, stale or double clicks, clicks out of turn and illegal actions get
        an ephemeral explanation and change nothing. The click is answered first
        (deferred if the store is slow); what follows the store write cannot fail it.
        """
        found = await self._player_seat(
            interaction, game_id, "These aren't your cards: you're not in this game."
        )
        if found is None:
            return
        session, seat = found
        if action is None:
            await replies.deny(interaction, "That button isn't an action of this game.")
            return
        async with replies.deadline(interaction), session.lock:
            if session.finished:
                await replies.deny(interaction, f"Game #{game_id} is over.")
                return
            before = session.game
            if seq != len(before.log):
                await self._send_hand(
                    interaction,
                    session,
                    seat,
                    "That button was from an earlier turn: here is your hand now.",
                )
                return
            new = before.copy()
            try:
                new.apply(seat, action)
            except IllegalAction as err:
                await replies.deny(interaction, str(err))
                return
            await self._commit(session, new)

            async def answer() -> None:
                embed, buttons = self._hand_message(session, seat)
                await replies.edit_clicked(interaction, embed=embed, view=buttons)
                session.hands[seat] = HandMessage(interaction, None, time.monotonic())

            await replies.deliver(f"game {session.id}: answer to the click", answer)
            self._after_change(session, before, actor=seat)

    async def hint(self, interaction: discord.Interaction, game_id: int, seq: int) -> None:
        """ "Hint": what the hard computer would do now, shown to the clicker only, and
        counted in the game (stats show it). Refused, changing nothing, to strangers,
        for an earlier turn, out of turn, and where hints are off (rated games)."""
        found = await self._player_seat(
            interaction, game_id, "These aren't your cards: you're not in this game."
        )
        if found is None:
            return
        session, seat = found
        if not self.hints_on(session):
            await replies.deny(interaction, "Hints are off in rated games on this server.")
            return
        game = session.game
        if session.finished or seq != len(game.log) or game.turn != seat:
            await replies.deny(interaction, "That hint was for an earlier turn: it's over now.")
            return
        view = game.view(seat)
        async with replies.deadline(interaction):
            # One search and one count per turn: a repeated click shares the answer (and a
            # search under way), so clicks cannot queue searches ahead of the computers.
            asked = session.hint is not None and session.hint[0] == seq
            if not asked:
                seed = (game.seed * 1_000_003 + seq * 7 + seat) & ((1 << 62) - 1)
                work = asyncio.get_running_loop().run_in_executor(self.executor, advise, seed, view)
                session.hint = (seq, asyncio.ensure_future(work))
            assert session.hint is not None
            action_id, share = await asyncio.shield(session.hint[1])
            if session.finished or len(session.game.log) != seq:
                await replies.deny(interaction, "That hint was for an earlier turn: it's over now.")
                return
            if not asked:
                try:
                    await self.store.record_hint(game_id, seat)
                except (GameNotActive, GameNotFound):
                    await replies.deny(interaction, f"Game #{game_id} is over.")
                    return
            label = render.action_label(ACTIONS[action_id], view, session.seating)
            await replies.send(interaction, content=hint_text(label, share), ephemeral=True)

    async def _commit(self, session: Session, new: Game) -> None:
        """Deal on if a hand ended, store the new log entries, then take the new state."""
        before = session.game
        if new.phase is Phase.HAND_OVER:
            new.deal()
        finished = new.hand_results[len(before.hand_results) :]
        entries = [str(e) for e in new.log[len(before.log) :]]
        await self.store.append_actions(
            session.id,
            len(before.log),
            entries,
            hands=[HandRecord.from_result(r, new.variant.sides) for r in finished],
            new_turn=new.turn != before.turn or bool(finished),
        )
        session.game = new
        if new.phase is Phase.GAME_OVER:
            await self._finish(session, GameStatus.FINISHED, winner_side=session.winner())
        elif finished:
            for seat in sorted(session.away):
                if not session.goes_on_without(seat):
                    name = session.seating.names[seat]
                    session.end_reason = f"{name} did not come back and forfeits."
                    winner = session.winner_without(seat)
                    await self._finish(session, GameStatus.FORFEITED, winner_side=winner)
                    return

    async def _touch(self, session: Session) -> None:
        await self.store.touch_turn(session.id)

    async def _settle(self, session: Session) -> None:
        game = session.game
        if game.phase is Phase.GAME_OVER:
            await self._finish(session, GameStatus.FINISHED, winner_side=session.winner())
        elif game.phase in (Phase.DEAL, Phase.HAND_OVER):
            await self._commit(session, game.copy())

    async def _finish(
        self, session: Session, status: GameStatus, *, winner_side: int | None
    ) -> None:
        game = session.game
        sides = game.variant.sides
        winner_seat = sides.index(winner_side) if winner_side is not None else None
        scores = {s: game.scores[sides[s]] for s in range(len(sides))}
        try:
            await self.store.finish_game(session.id, status, winner_seat, scores)
        except GameNotActive:
            log.info("game %d was already finished", session.id)
        session.finished = True
        self._sessions.pop(session.id, None)
        log.info("game %d ended: %s", session.id, status)

    def _after_change(self, session: Session, before: Game, actor: int | None) -> None:
        """Announce finished hands and games, update the table and the waiting players'
        hands, and let a computer on turn play: none of it waits for Discord."""
        game = session.game
        self._announce(session, before)
        self._schedule_table_edit(session)
        new_hand = game.hand_no != before.hand_no
        forced = None if session.finished else session.forced(game.turn)
        for seat in range(len(session.seats)):
            if seat == actor or session.is_computer(seat):
                continue
            if forced is not None and seat == game.turn:
                continue  # its move is played in a moment, and that refreshes it
            if session.finished or new_hand or game.turn == seat or before.turn == seat:
                self._queue_refresh(session, seat)
        self._schedule_computer(session)

    def _announce(self, session: Session, before: Game) -> None:
        """Queue the channel posts of the hands (and the game) finished since ``before``.

        The store holds the change already: a post that cannot be drawn is logged and
        skipped, and the other posts, the table, the hands and the computer go on.
        """
        game = session.game
        channel = self.client.get_partial_messageable(session.channel_id)
        done = len(before.hand_results)
        # Each post's nonce names it (the game's nth hand result, its game over), so
        # its retries, and any second announcement of it, are one message.
        posts: list[tuple[str, str, Callable[[], discord.Embed]]] = [
            (
                "hand result",
                _post_nonce(session, "hand result", done + n),
                partial(render.hand_summary_embed, r, game.variant, session.seating),
            )
            for n, r in enumerate(game.hand_results[done:])
        ]
        if session.finished:
            over = partial(render.game_over_embed, game.view(None), session.seating)
            posts.append(
                ("game over", _post_nonce(session, "game over"), partial(over, session.end_reason))
            )
        for what, nonce, draw in posts:
            try:
                embed = draw()
            except Exception:
                log.exception("game %d: the %s could not be drawn", session.id, what)
                continue
            view = game_over_view(session.id) if what == "game over" else None
            self._post(session, what, partial(channel.send, embed=embed, view=view, nonce=nonce))

    # --- computer players -----------------------------------------------------------------------

    def _schedule_computer(self, session: Session) -> None:
        """Start the computer's moves if a computer is on turn and none is under way."""
        if session.finished or not session.moves_itself(session.game.turn):
            return
        if session.computer is not None and not session.computer.done():
            return
        session.computer = self._spawn(self._run_computer(session), f"computer-{session.id}")

    async def _run_computer(self, session: Session) -> None:
        loop = asyncio.get_running_loop()
        while not session.finished and session.moves_itself(session.game.turn):
            await asyncio.sleep(self.move_delays.get(session.guild_id, self.move_delay))
            game = session.game
            seat = game.turn
            assert seat is not None
            seq = len(game.log)
            forced = session.forced(seat)
            try:
                if forced is not None:
                    action_id = forced.id
                elif session.is_computer(seat):
                    level = session.seats[seat].level or session.standin_level
                    seed = hash((game.seed, seq, seat)) & ((1 << 62) - 1)
                    action_id = await loop.run_in_executor(
                        self.executor, choose_action, level, seed, game.view(seat)
                    )
                else:
                    # The member changed their auto-play choice during the pause: their
                    # hand, not refreshed for a move that was to play itself, needs its buttons.
                    self._queue_refresh(session, seat)
                    return
                async with session.lock:
                    if session.finished or len(session.game.log) != seq:
                        continue
                    if forced is None and not session.is_computer(seat):
                        # The away member came back while the computer thought for them.
                        self._queue_refresh(session, seat)
                        return
                    new = game.copy()
                    new.apply(seat, ACTIONS[action_id])
                    # Worded before the store write, so nothing can fail after it.
                    note = None if forced is None else _forced_note(forced, game, new, session)
                    await self._commit(session, new)
                    if note is not None:
                        session.notes[seat] = note
                    self._after_change(session, game, actor=None)
            except Exception:
                # The turn timer's sweep starts the computer again (rescue_computers); a
                # member whose forced move failed gets their buttons meanwhile.
                log.exception("game %d: computer player failed", session.id)
                if forced is not None:
                    self._queue_refresh(session, seat)
                return

    def rescue_computers(self) -> int:
        """Restart the moves of every computer on turn that has none under way.

        Returns:
            how many games were rescued (a worker or store failure had stopped them).
        """
        rescued = 0
        for session in list(self._sessions.values()):
            stopped = session.computer is None or session.computer.done()
            if stopped and not session.finished and session.moves_itself(session.game.turn):
                log.info("game %d: computer on turn with no move under way; restarting", session.id)
                self._schedule_computer(session)
                rescued += 1
        return rescued

    # --- resigning ---------------------------------------------------------------------------

    async def ask_resign(self, interaction: discord.Interaction, session: Session) -> None:
        """``/tuque resign``: an ephemeral confirm button for the member's game ``session``,
        saying what resigning does there (docs/rulings.md R26)."""
        user_id = interaction.user.id
        if self.resign_goes_on(session):
            then = "a computer takes your seat and the others play on"
        else:
            then = f"your side loses against {session.opponents_of(user_id)}"
        await replies.send(
            interaction,
            content=f"Resign game #{session.id}? It counts as a loss for you: {then}.",
            view=resign_view(session.id),
            ephemeral=True,
        )

    @staticmethod
    def resign_goes_on(session: Session) -> bool:
        """Whether the game goes on after a member resigns: while two or more other
        members still play it (docs/rulings.md R26); else their side loses, now."""
        return sum(s.user_id is not None and not s.resigned for s in session.seats) >= 3

    async def resign(self, interaction: discord.Interaction, game_id: int) -> None:
        """The resign confirmation (docs/rulings.md R26): at a table where two or more
        other members still play, a computer takes the member's seat and the game goes
        on; otherwise the member's side loses the game."""
        found = await self._player_seat(
            interaction, game_id, "You can only resign a game you're playing."
        )
        if found is None:
            return
        session, seat = found
        async with replies.deadline(interaction), session.lock:
            if session.finished:
                await replies.deny(interaction, f"Game #{game_id} is already over.")
                return
            if session.seats[seat].resigned:
                await replies.deny(interaction, f"You resigned game #{game_id} already.")
                return
            name = session.seating.names[seat]
            if self.resign_goes_on(session):
                await self._leave(session, seat)
                answer = f"You resigned game #{game_id}: a computer plays your seat now."
            else:
                session.end_reason = f"{name} resigned."
                await self._finish(
                    session, GameStatus.RESIGNED, winner_side=session.winner_without(seat)
                )
                answer = f"You resigned game #{game_id}."
            await replies.deliver(
                f"game {game_id}: answer to the resignation",
                lambda: replies.edit_clicked(interaction, content=answer, view=None),
            )
            if session.finished:
                self._announce_end(session, session.end_reason or f"{name} resigned.")

    async def _leave(self, session: Session, seat: int) -> None:
        """The member in ``seat`` resigned and the game goes on: store it, give the seat
        to a computer, and tell the table and the other members."""
        await self.store.resign_seat(session.id, seat)
        name = session.seating.names[seat]
        seats = list(session.seats)
        seats[seat] = dataclasses.replace(seats[seat], resigned=True)
        session.seats = tuple(seats)
        session.seating = render.seating_of(session.seats)
        session.away.discard(seat)
        session.hands.pop(seat, None)
        note = f"{name} resigned: a computer plays their seat from now on."
        channel = self.client.get_partial_messageable(session.channel_id)
        post = partial(
            channel.send, note, nonce=replies.nonce("resigned", session.id, session.game.seed, seat)
        )
        self._post(session, "resignation", post)
        self._schedule_table_edit(session)
        for other in range(len(session.seats)):
            if not session.is_computer(other):
                session.notes[other] = note
                self._queue_refresh(session, other)
        self._schedule_computer(session)

    def _announce_end(self, session: Session, reason: str) -> None:
        channel = self.client.get_partial_messageable(session.channel_id)
        embed = render.game_over_embed(session.game.view(None), session.seating, reason)
        nonce = _post_nonce(session, "game over")
        post = partial(channel.send, embed=embed, view=game_over_view(session.id), nonce=nonce)
        self._post(session, "game over", post)
        self._schedule_table_edit(session)
        for seat in range(len(session.seats)):
            if not session.is_computer(seat):
                self._queue(session, partial(self._refresh_hand, session, seat, reason))

    # --- timers -------------------------------------------------------------------------------

    async def tick(
        self, remind_after: float, forfeit_after: float, now: float | None = None
    ) -> None:
        """Remind slow players, forfeit games left too long, and restart computers that
        stopped (``now``: seconds since the epoch; tests pass their own). The delays are
        the bot's defaults, in seconds; a server's own turn timer wins (``/tuque settings``)."""
        now = time.time() if now is None else now
        for timer in await self.store.due_turn_timers(now, remind_after, forfeit_after):
            session = self._sessions.get(timer.game_id)
            if session is None or session.finished:
                continue
            seat = session.game.turn
            if seat is None or session.is_computer(seat):
                continue
            user = session.seats[seat].user_id
            channel = self.client.get_partial_messageable(session.channel_id)
            if timer.due is TimerDue.FORFEIT:
                async with session.lock:
                    if session.finished or session.game.turn != seat:
                        continue
                    session.away.add(seat)
                    then = (
                        "it keeps their seat for the rest of the game"
                        if session.goes_on_without(seat)
                        else "their side forfeits"
                    )
                    self._post(
                        session,
                        "away notice",
                        partial(
                            channel.send,
                            f"<@{user}> is away: the computer plays their cards for the rest "
                            f"of this hand. If they are not back by its end, {then}; "
                            "**Show my hand** brings them back.",
                            nonce=replies.nonce(),
                        ),
                    )
                    self._schedule_computer(session)
            elif await self.store.mark_reminded(session.id):
                minutes = max(1, round((timer.forfeit_after - timer.remind_after) / 60))
                self._post(
                    session,
                    "turn reminder",
                    partial(
                        channel.send,
                        f"<@{user}>, it's your turn in game #{session.id}. "
                        f"Play within {minutes} minute{'' if minutes == 1 else 's'} "
                        "or the computer plays for you.",
                        nonce=replies.nonce(),
                    ),
                )
        self.rescue_computers()

    async def close(self) -> None:
        """Stop the computer players, table edits and posts (the games stay in the store)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
