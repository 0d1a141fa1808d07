"""The session manager: one engine game per session, one lock per game.

Data flows one way: an interaction (or the clock, or a computer's decision) reaches
a handler here; under the game's lock the handler asks the table
(:class:`bot.table.Table`) for the event's :class:`~bot.table.Change`, which refuses
what the rules refuse; the store writes the change and decides races; only then does
the session take the new table, and every screen shows the change (the answer to the
click is made here, first; :mod:`~bot.sessions.delivery` does the rest on Discord).
:mod:`~bot.sessions.computers` decides the moves the bot plays, and this module plays
them through the same path. A failure before the store write leaves the game and the
database as they were; after it nothing can lose the game.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor
from enum import StrEnum
from functools import partial
from typing import Any, Protocol

import discord

from bot import render, replies
from bot.budget import RequestBudget
from bot.emojis import TEXT_FACES, CardFaces
from bot.layout import resign_view, suit_choices
from bot.sessions.computers import Computers, advise
from bot.sessions.delivery import Background, Delivery
from bot.sessions.state import (
    NO_GUILD,
    DiscordState,
    Session,
    record_of,
    seating_of,
    table_of,
)
from bot.store import (
    Autoplay,
    GameNotActive,
    GameNotFound,
    GameRow,
    GameStatus,
    SeatRow,
    Store,
    StoreClosed,
    TimerDue,
)
from bot.table import Change, NotTheBotsMove, StaleTurn, TableClosed, TableError
from engine import advice
from engine.actions import ACTIONS, Action
from engine.cards import Suit
from engine.errors import IllegalAction, RecordError
from engine.game import Game
from engine.view import PlayerView

__all__ = ["GameSessions", "Refusal", "RefusalKind", "Screen", "hint_text"]

log = logging.getLogger(__name__)

REPLACED = "That hand message was replaced by a newer one: use the newest one."
"""The refusal of a click on a hand message a newer one replaced."""


def hint_text(
    view: PlayerView,
    action_id: int,
    shares: Mapping[int, float],
    seating: render.Seating,
    *,
    markdown: bool = True,
) -> str:
    """A hint's line for ``view``'s seat: the hard computer's action as its button says
    it, why in a player's words, and how sure the search was, in words (a percentage
    read as a probability of winning): :mod:`engine.advice`. ``markdown``: Discord's
    bold head; the web page takes plain text."""
    action = ACTIONS[action_id]
    labels = {a.id: render.button_label(a, view, seating) for a in view.legal_actions}
    why = advice.reason(view, action)
    sure = advice.certainty(shares, action_id, labels)
    return advice.hint_text(labels[action_id], why, sure, markdown=markdown)


class RefusalKind(StrEnum):
    """Why an action from a screen other than Discord's buttons was refused (the web
    table's ``refused`` frames carry it, so a page can tell a stale view from a bug)."""

    NO_GAME = "no_game"
    """No such game runs in this process (never started, or over and closed)."""
    STRANGER = "stranger"
    """The member has no seat in the game."""
    RESIGNED = "resigned"
    """The member resigned: a computer plays their seat."""
    UNKNOWN = "unknown"
    """The action id names no action."""
    OVER = "over"
    """The game is over."""
    STALE = "stale"
    """The action was for an earlier turn (a stale view, a double or racing action)."""
    ILLEGAL = "illegal"
    """Out of turn, or not legal now (the engine's or the table's reason)."""
    NO_HINTS = "no_hints"
    """A hint asked where hints are off (rated games, unless the server allows them)."""


class Refusal(Exception):
    """An action refused before anything was stored: nothing changed.

    Attributes:
        kind: why, for a program.
        reason: why, in words safe to show the member (the same words a click gets).
    """

    def __init__(self, kind: RefusalKind, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class Screen(Protocol):
    """A screen of the games: it shows each stored change (Discord's messages are one)."""

    def show(self, session: Session, change: Change) -> None:
        """Show ``change``, already stored and taken by ``session``; never waits on I/O."""
        ...


class GameSessions:
    """Every running game of the bot, and the handlers of every game interaction.

    Args:
        client: the client (for channels).
        store: the database.
        executor: where computer players think (a process pool in production).
        drawer: where the tables' pictures are drawn (a process pool in production).
        move_delay: seconds to wait before each computer move (a guild's own in
            ``computers.move_delays`` wins).
        table_delay: seconds a table edit waits so that quick plays share one edit;
            Discord allows about 5 edits per 5 seconds in a channel.
        ping_delay: seconds into a member's turn before they are pinged.
        faces: how cards show now (the bot's card emojis, which start-up may still be
            uploading); asked at every render. Default: text.
        budget: the bot's request budget (Discord's global limit, :mod:`bot.budget`),
            which the table edits and posts wait for. Default: no limit (a process that
            shows the games on no Discord).

    Attributes:
        delivery: what each stored change shows on Discord.
        computers: decides the moves the bot plays itself (``move_delays`` per guild).
        screens: every screen that shows the changes (``delivery`` first).
    """

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        executor: Executor,
        drawer: Executor,
        *,
        move_delay: float,
        table_delay: float,
        table_gap: float = 0.0,
        ping_delay: float = 0.0,
        faces: Callable[[], CardFaces] = lambda: TEXT_FACES,
        budget: RequestBudget | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self.executor = executor
        self.rated_hints: set[int] = set()
        """The guilds that allow hints in rated games (``/tuque settings`` keeps it up to
        date); elsewhere only games with a computer offer them."""
        self._sessions: dict[int, Session] = {}
        self.last_hands: dict[int, int] = {}
        """The games that end with a given hand (an event's round, ``Table.last_hand``),
        by game id: filled by the events cog before :meth:`restore`, kept by :meth:`start`
        and :meth:`end_after`."""
        # Games that ended here whose last posts, hand views or table edit may still be
        # under way: ``showing`` looks at them too, until they are shown.
        self._ended: dict[int, Session] = {}
        self.background = Background()
        budget = budget or RequestBudget(None)
        self.delivery = Delivery(
            client,
            store,
            self.background,
            drawer,
            table_delay=table_delay,
            table_gap=table_gap,
            ping_delay=ping_delay,
            faces=faces,
            hints_on=self.hints_on,
            budget=budget,
        )
        self.computers = Computers(executor, move_delay=move_delay, backlog=lambda: budget.backlog)
        self.screens: list[Screen] = [self.delivery]

    @property
    def on_discord(self) -> bool:
        """Whether the games show on Discord (``delivery`` is one of the screens): without
        it (``tuque-web``, the web table's tests) nothing here posts to a channel."""
        return self.delivery in self.screens

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
            table = table_of(row.id, row.seats, game, row.guild_id)
            if row.id in self.last_hands:
                table = table.ending_after(self.last_hands[row.id])
            session = Session(
                table,
                row.guild_id,
                row.channel_id,
                row.seats,
                seating_of(row.seats, table),
                discord=DiscordState.of(row, game.turn),
            )
            await self._load_aids(session)
            self._sessions[row.id] = session
            # A crash between two writes can leave a hand to deal or a game to close.
            change = session.table.settle()
            if change is not None:
                await self._take(session, change)
            else:
                if self.on_discord:
                    self.delivery.ping(session)
                self._run_bot(session)
        log.info("restored %d unfinished games", len(rows))
        return len(rows)

    async def _abandon(self, row: GameRow, error: RecordError) -> None:
        """A stored game the engine no longer replays (its log breaks a rule fixed since
        it was played): end it without a result, so one game cannot keep the bot from
        starting, and say so in its channel. The log line names the game, not a card."""
        # The error's text can name an action of the log, and so a card: only its type.
        reason = type(error).__name__
        log.error("game %d no longer replays (%s): ended without a result", row.id, reason)
        await self.store.finish_game(row.id, GameStatus.ABANDONED)
        if not self.on_discord or row.guild_id == NO_GUILD:
            # Outside a server the bot can post nothing: the next click says it is over.
            return
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
        table = session.table
        members = {s.member: s.number for s in table.seats if s.member is not None}
        choices = await self.store.autoplay_of(members)
        for user, choice in choices.items():
            table = table.with_autoplay(members[user], choice)
        session.table = table

    async def reload_autoplay(self) -> None:
        """Take up the auto-play choices of the members in this process's games afresh
        from the store: a choice is the member's in every server, and one made in a
        server of another shard was stored by another of the bot's processes. A forced
        move a new choice covers is played."""
        members = {s.member for g in self._sessions.values() for s in g.table.seats if s.member}
        if not members:
            return
        choices = await self.store.autoplay_of(members)
        for user, choice in choices.items():
            await self._use_autoplay(user, choice)

    async def _use_autoplay(self, user_id: int, choice: Autoplay) -> None:
        """Take ``user_id``'s auto-play choice in their running games, each under its
        lock (a change being stored would otherwise put the old choice back)."""
        for session in list(self._sessions.values()):
            if session.table.seat_of(user_id) is None:
                continue
            async with session.lock:
                seat = session.table.seat_of(user_id)
                # A game that began during a read is read at its start instead.
                if seat is not None and session.table.autoplay[seat] != choice:
                    session.table = session.table.with_autoplay(seat, choice)
                    self._run_bot(session)

    def hints_on(self, session: Session) -> bool:
        """Whether members may ask for hints: in games with a computer (unrated), and in
        rated games where the guild allows it."""
        return not session.table.rated or session.guild_id in self.rated_hints

    async def set_autoplay(self, user_id: int, choice: Autoplay) -> None:
        """Store ``user_id``'s auto-play choice and use it at once in their running games
        (a forced move waiting for them is played). Raises ``sqlalchemy.exc.SQLAlchemyError``."""
        await self.store.set_autoplay(user_id, choice)
        await self._use_autoplay(user_id, choice)

    def running(self) -> list[Session]:
        """Every game in progress (the bot's metrics count them)."""
        return [s for s in self._sessions.values() if not s.finished]

    def showing(self) -> bool:
        """Whether a game's table edit, post, hand view or ping deletion is still to be
        made (waiting for its turn in the channel's rate limits or the request budget, or
        under way): what Discord shows lags the store until not."""
        self._forget_shown()
        return any(map(_showing, self._sessions.values())) or bool(self._ended)

    def _forget_shown(self) -> None:
        """Forget the ended games whose last posts and edits are made."""
        for game_id, session in list(self._ended.items()):
            if not _showing(session):
                del self._ended[game_id]

    def session(self, game_id: int) -> Session | None:
        """The running session of ``game_id``, if any."""
        return self._sessions.get(game_id)

    def games_of(self, guild_id: int, channel_id: int | None, user_id: int) -> list[Session]:
        """The games the user still plays in the guild (in ``channel_id`` unless None:
        started there, or with their thread there), newest first: not those they resigned."""
        found = [
            s
            for s in self._sessions.values()
            if s.guild_id == guild_id
            and (channel_id is None or channel_id in (s.channel_id, s.discord.thread_id))
            and (seat := s.table.seat_of(user_id)) is not None
            and s.table.seats[seat].playing
        ]
        return sorted(found, key=lambda s: -s.id)

    def opponents_of(self, session: Session, user_id: int) -> str:
        """The names of the seats on other sides than ``user_id``'s, joined with "and"."""
        return " and ".join(session.seating.names[s] for s in session.table.opponents(user_id))

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
        once_here: bool = False,
        seed: int | None = None,
        event_table: tuple[int, int, int] | None = None,
        last_hand: int | None = None,
    ) -> Session:
        """Deal a new game, store it with its deal, and run it; show it with ``open``.

        ``options`` are checked already (``options.game_options``); ``seats`` as
        ``Store.create_game`` takes them, their sides the variant's. With ``accepting``
        (a challenge id) or ``lobby`` (a lobby id) the challenge is accepted or the
        lobby started in the transaction that creates the game; with ``once_here``, no
        member may already play a game in the channel. An event's table (``docs/events.md``)
        gives its deals' ``seed`` (else a random one), ``event_table`` ``(event, round,
        table)``, linked in the transaction that creates the game, and ``last_hand``,
        the hand its game ends with (``Table.last_hand``).

        Raises:
            AlreadyPlaying: two of the members already share an active game here.
            AlreadyHere: with ``once_here``, a member plays a game in the channel.
            ChallengeClosed, LobbyClosed: the challenge or lobby is no longer open.
            TableOpened, StaleRound, EventClosed: the event's table has its game, or
                may no longer open.
        """
        game = Game(variant, seed=secrets.randbits(62) if seed is None else seed, **options)
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
            once_here=once_here,
            event_table=event_table,
        )
        if any(s.user_id is not None and not s.display_name for s in seats):
            # The names the store knows (a member's last seen display name).
            seats = (await self.store.load_game(game_id)).seats
        rows = tuple(sorted(seats, key=lambda s: s.seat))
        table = table_of(game_id, rows, game, guild_id)
        if last_hand is not None:
            self.last_hands[game_id] = last_hand
            table = table.ending_after(last_hand)
        session = Session(table, guild_id, channel_id, rows, seating_of(rows, table))
        await self._load_aids(session)
        self._sessions[game_id] = session
        log.info("game %d started: %s, %d seats", game_id, variant, len(seats))
        return session

    async def open(
        self,
        session: Session,
        greetings: Sequence[tuple[discord.Interaction, int, str]],
        pinged: Sequence[int] = (),
        *,
        starter: int | None = None,
    ) -> None:
        """Show a game ``start`` stored: each ``(interaction, seat, note)`` of
        ``greetings`` gets that seat's hand view as its answer (or a follow-up), the
        game's thread starts (from ``starter``, the id of a message in the game's
        channel that announces the game, else from a start message:
        ``Delivery.open_thread``), the table is posted, the members of the ``pinged``
        seats and of the greetings that failed are mentioned in the game's thread with a
        "Show my hand" button, the first turn's timer starts and a computer on turn
        plays. Discord's failures are logged and never raised: the game is stored
        already."""
        missed = list(pinged)
        for interaction, seat, note in greetings:
            if not await self.delivery.send_hand_after_commit(interaction, session, seat, note):
                missed.append(seat)
        await self.delivery.open_thread(session, starter)
        await self.delivery.update_table(session)
        if missed:
            self.delivery.call_to_hands(session, sorted(missed))
        self.delivery.ping(session)
        try:
            await self.store.touch_turn(session.id)
        except StoreClosed:
            # The bot is stopping: the game is stored, and a restart restores it.
            log.info("game %d: opened while the bot stops", session.id)
            return
        self._run_bot(session)

    async def end_after(self, game_id: int, hand_no: int | None = None) -> None:
        """The running game ``game_id`` ends when hand ``hand_no`` is over (None: the
        hand in play): an event round's clock ran out (``Table.last_hand``). Under the
        game's lock, as every change of its table."""
        session = self._sessions.get(game_id)
        if session is None:
            return
        async with session.lock:
            last = session.table.game.hand_no if hand_no is None else hand_no
            if session.table.last_hand is None or last < session.table.last_hand:
                self.last_hands[game_id] = last
                session.table = session.table.ending_after(last)

    async def resign_member(self, game_id: int, member: int) -> None:
        """``member`` leaves the running game ``game_id`` without a click there (they
        left its event, R34): as their resignation (R26), a computer plays their seat
        to the end or their side loses now. Nothing if they play no seat of it."""
        session = self._sessions.get(game_id)
        if session is None:
            return
        async with session.lock:
            seat = session.table.seat_of(member)
            if seat is None or session.finished or not session.table.seats[seat].playing:
                return
            await self._take(session, session.table.resign(seat))

    # --- the one path of a change ------------------------------------------------------

    async def _take(
        self,
        session: Session,
        change: Change,
        answer: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        """Store ``change`` (the store decides races and raises: nothing changed), then
        take it: the session's table moves on, the click that made it is answered
        (``answer``), every screen shows it, and the bot plays on if a move of its own
        is due. Called under the game's lock."""
        try:
            await self.store.record_change(change)
        except GameNotActive:
            if change.result is None:
                raise
            log.info("game %d was already finished", session.id)
        session.table = change.after
        if change.resigned is not None:
            session.seating = seating_of(session.rows, change.after)
        if change.after.finished:
            self._sessions.pop(session.id, None)
            self.last_hands.pop(session.id, None)
            self._forget_shown()
            self._ended[session.id] = session
            log.info("game %d ended", session.id)
        if answer is not None:
            await replies.deliver(f"game {session.id}: answer to the click", answer)
        for screen in self.screens:
            screen.show(session, change)
        self._run_bot(session)

    # --- the hand view ----------------------------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """ "Show my hand": a fresh ephemeral view for a player of the game."""
        found = await self._player_seat(interaction, game_id, "You have no hand in this game.")
        if found is not None:
            await self.delivery.send_hand(interaction, *found)

    async def _hand_seat(
        self, interaction: discord.Interaction, game_id: int
    ) -> tuple[Session, int] | None:
        """As :meth:`_player_seat`, for a control of a hand message: refused, changing
        nothing, from a hand message a newer one of the seat replaced."""
        found = await self._player_seat(
            interaction, game_id, "These aren't your cards: you're not in this game."
        )
        if found is not None and not self.delivery.is_newest_hand(*found, interaction):
            await replies.deny(interaction, REPLACED)
            return None
        return found

    async def _player_seat(
        self, interaction: discord.Interaction, game_id: int, stranger: str
    ) -> tuple[Session, int] | None:
        """The running game and the clicker's seat in it, the member back if they were
        away; else answer why not and return None."""
        session = self._sessions.get(game_id)
        if session is None:
            await replies.deny(interaction, await self._why_not_running(game_id))
            return None
        seat = session.table.seat_of(interaction.user.id)
        if seat is None:
            names = " and ".join(session.seating.names)
            await replies.deny(interaction, f"{stranger} Game #{game_id} is between {names}.")
            return None
        if session.table.seats[seat].resigned:
            await replies.deny(
                interaction, f"You resigned game #{game_id}: a computer plays your seat now."
            )
            return None
        await self._come_back(session, seat)
        return session, seat

    async def _come_back(self, session: Session, seat: int) -> None:
        """The away member in ``seat`` acted: they play their own cards again. Under the
        lock: a change being stored would otherwise put the away seat back."""
        if seat not in session.table.away:
            return
        async with session.lock:
            back = session.table.back(seat)
            if back is not None:
                # Nothing to store: being away lasts for this process's run only.
                session.table = back.after
                for screen in self.screens:
                    screen.show(session, back)

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
            # A forged id says so, wherever it was clicked.
            await replies.deny(interaction, "That button isn't an action of this game.")
            return
        if not self.delivery.is_newest_hand(session, seat, interaction):
            await replies.deny(interaction, REPLACED)
            return
        async with replies.deadline(interaction), session.lock:
            try:
                change = session.table.apply(seat, action, seq)
            except TableClosed:
                await replies.deny(interaction, f"Game #{game_id} is over.")
                return
            except StaleTurn:
                await self.delivery.send_hand(
                    interaction,
                    session,
                    seat,
                    "That button was from an earlier turn: here is your hand now.",
                )
                return
            except (IllegalAction, TableError) as err:
                await replies.deny(interaction, str(err))
                return
            answer = partial(self.delivery.answer_click, interaction, session, seat)
            await self._take(session, change, answer)

    async def act(self, game_id: int, member: int, seq: int, action_id: int) -> None:
        """The member ``member`` plays the action ``action_id`` in game ``game_id``, the
        game standing at log length ``seq``: a click made elsewhere than on a Discord
        button (the web table), decided as :meth:`on_action` decides a click. The same
        table event (``Table.apply``) goes through the same store write and the same
        screens (:meth:`_take`), so Discord shows the move like a click of the member's.
        An away member is back by acting. The member's Discord hand message, which no
        click of theirs answers, is redrawn.

        Raises:
            Refusal: the game does not run here, the member has no seat or resigned,
                the id is no action, the game is over, ``seq`` is stale, or the move
                is out of turn or illegal; nothing was stored or changed.
            sqlalchemy.exc.SQLAlchemyError, StoreClosed: the store failed; nothing
                changed.
        """
        session, seat = await self._member_seat(game_id, member)
        if not 0 <= action_id < len(ACTIONS):
            raise Refusal(RefusalKind.UNKNOWN, "That isn't an action of this game.")
        await self._come_back(session, seat)
        async with session.lock:
            try:
                change = session.table.apply(seat, ACTIONS[action_id], seq)
            except TableClosed:
                raise Refusal(RefusalKind.OVER, f"Game #{game_id} is over.") from None
            except StaleTurn:
                raise Refusal(
                    RefusalKind.STALE, "That was for an earlier turn: here is the game now."
                ) from None
            except (IllegalAction, TableError) as err:
                raise Refusal(RefusalKind.ILLEGAL, str(err)) from None
            await self._take(session, change)
            if self.on_discord:
                # The actor's own Discord screen is left to a click's answer
                # (Change.views), and there was no click: its hand message is redrawn
                # like any other. Queued, not awaited as an answer: no task or timeout
                # per web click, and none at all where no Discord shows the game.
                self.delivery.queue_refresh(session, seat)

    async def _member_seat(self, game_id: int, member: int) -> tuple[Session, int]:
        """The running game ``game_id`` and ``member``'s seat in it, for a screen other
        than Discord's buttons.

        Raises:
            Refusal: the game does not run here, the member has no seat, or resigned.
        """
        session = self._sessions.get(game_id)
        if session is None:
            raise Refusal(RefusalKind.NO_GAME, await self._why_not_running(game_id))
        seat = session.table.seat_of(member)
        if seat is None:
            names = " and ".join(session.seating.names)
            raise Refusal(
                RefusalKind.STRANGER,
                f"You're not in this game. Game #{game_id} is between {names}.",
            )
        if session.table.seats[seat].resigned:
            raise Refusal(
                RefusalKind.RESIGNED,
                f"You resigned game #{game_id}: a computer plays your seat now.",
            )
        return session, seat

    async def hint(self, interaction: discord.Interaction, game_id: int, seq: int) -> None:
        """ "Hint": what the hard computer would do now, shown to the clicker only, and
        counted in the game (stats show it). The hand message clicked is redrawn with
        the action's button marked and the hint in words under "Your turn". Refused,
        changing nothing, to strangers, for an earlier turn, out of turn, and where
        hints are off (rated games)."""
        found = await self._hand_seat(interaction, game_id)
        if found is None:
            return
        session, seat = found
        async with replies.deadline(interaction):
            try:
                await self._advise(session, seat, seq)
            except Refusal as refusal:
                await replies.deny(interaction, refusal.reason)
                return
            await self.delivery.answer_click(interaction, session, seat)

    async def web_hint(self, game_id: int, member: int, seq: int) -> tuple[int, str]:
        """The hint for ``member``'s seat in game ``game_id`` standing at log length
        ``seq``, asked elsewhere than on Discord (the web table): the same search, count
        and words as the hand message's Hint button (:meth:`hint`), whose hand message
        is redrawn with the hint too.

        Returns:
            the action the hard computer would play (an id of its legal actions) and
            the hint's words.

        Raises:
            Refusal: as :meth:`act` refuses a member, and where hints are off
                (``no_hints``), for an earlier turn or out of turn (``stale``), once the
                game is over (``over``); nothing was counted.
            sqlalchemy.exc.SQLAlchemyError, StoreClosed: the store failed.
        """
        session, seat = await self._member_seat(game_id, member)
        await self._come_back(session, seat)
        hinted = await self._advise(session, seat, seq, markdown=False)
        self.delivery.queue_refresh(session, seat)
        return hinted

    async def _advise(
        self, session: Session, seat: int, seq: int, *, markdown: bool = True
    ) -> tuple[int, str]:
        """What the hard computer would do for ``seat`` at log length ``seq``, counted
        once per turn in the game (stats show it) and kept in the session's aids (the
        hand message marks its button while the turn lasts).

        Returns:
            the action's id and the hint's words (:func:`hint_text`; ``markdown``:
            Discord's form, which the hand message shows whoever asked).

        Raises:
            Refusal: hints are off here (``no_hints``), ``seq`` is not the game's or
                ``seat`` is not on turn (``stale``), the game ended meanwhile (``over``).
        """
        if not self.hints_on(session):
            raise Refusal(RefusalKind.NO_HINTS, "Hints are off in rated games on this server.")
        game = session.game
        stale = Refusal(RefusalKind.STALE, "That hint was for an earlier turn: it's over now.")
        if not session.table.at(seq) or game.turn != seat:
            raise stale
        view = game.view(seat)
        aids = session.aids
        # One search and one count per turn: a repeated click shares the answer (and a
        # search under way), so clicks cannot queue searches ahead of the computers.
        asked = aids.hint is not None and aids.hint[0] == seq
        if not asked:
            seed = (game.seed * 1_000_003 + seq * 7 + seat) & ((1 << 62) - 1)
            work = asyncio.get_running_loop().run_in_executor(self.executor, advise, seed, view)
            aids.hint = (seq, asyncio.ensure_future(work))
        assert aids.hint is not None
        action_id, shares = await asyncio.shield(aids.hint[1])
        if not session.table.at(seq):
            raise stale
        if not asked:
            try:
                await self.store.record_hint(session.id, seat)
            except (GameNotActive, GameNotFound):
                raise Refusal(RefusalKind.OVER, f"Game #{session.id} is over.") from None
        words = hint_text(view, action_id, shares, session.seating)
        aids.hinted = (seq, action_id, words)
        if not markdown:
            words = hint_text(view, action_id, shares, session.seating, markdown=False)
        return action_id, words

    async def pick_suit(
        self, interaction: discord.Interaction, game_id: int, seq: int, suit: Suit
    ) -> None:
        """The suit select of a hand message (Auction's bidding and call, RULES.md §7):
        the clicked message is redrawn with that suit's bids or cards. It changes
        nothing in the game or the database; refused to strangers, for an earlier turn,
        out of turn, and for a suit the player has nothing to choose in."""
        found = await self._hand_seat(interaction, game_id)
        if found is None:
            return
        session, seat = found
        async with replies.deadline(interaction), session.lock:
            game = session.game
            if session.finished:
                await replies.deny(interaction, f"Game #{game_id} is over.")
                return
            if not session.table.at(seq) or game.turn != seat:
                await replies.deny(
                    interaction, "That choice was from an earlier turn: it's over now."
                )
                return
            choices = suit_choices(game.view(seat))
            if suit not in choices:
                why = (
                    f"There is no bid or call in {suit.symbol} {suit.noun} for you now."
                    if choices
                    else "There is no suit to choose now."
                )
                await replies.deny(interaction, why)
                return
            session.aids.picked[seat] = (seq, suit)
            await self.delivery.answer_click(interaction, session, seat)

    # --- resigning ---------------------------------------------------------------------------

    async def ask_resign(self, interaction: discord.Interaction, session: Session) -> None:
        """``/tuque resign``: an ephemeral confirm button for the member's game ``session``,
        saying what resigning does there (docs/rulings.md R26)."""
        if session.table.resign_goes_on():
            then = "a computer takes your seat and the others play on"
        else:
            against = self.opponents_of(session, interaction.user.id)
            # "Your side" only where the member has partners (a side of several seats).
            mine = [s.side for s in session.table.seats if s.member == interaction.user.id]
            alone = [s.side for s in session.table.seats].count(mine[0]) == 1
            then = f"you lose against {against}" if alone else f"your side loses against {against}"
        await replies.send(
            interaction,
            content=f"Resign game #{session.id}? It counts as a loss for you: {then}.",
            view=resign_view(session.id),
            ephemeral=True,
        )

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
            try:
                change = session.table.resign(seat)
            except TableClosed:
                await replies.deny(interaction, f"Game #{game_id} is already over.")
                return
            except TableError as err:
                await replies.deny(interaction, str(err))
                return
            if change.result is None:
                answer = f"You resigned game #{game_id}: a computer plays your seat now."
            else:
                answer = f"You resigned game #{game_id}."
            await self._take(
                session,
                change,
                partial(replies.edit_clicked, interaction, content=answer, view=None),
            )

    # --- the bot's own moves and the clock ------------------------------------------------

    def _run_bot(self, session: Session) -> None:
        """Start playing the bot's moves at the table if one is due and none is under way."""
        if not session.table.bot_to_move:
            return
        if session.computer is not None and not session.computer.done():
            return
        session.computer = self.background.spawn(self._bot_moves(session), f"computer-{session.id}")

    async def _bot_moves(self, session: Session) -> None:
        """Play the bot's moves one after another, the guild's move delay before each,
        while one is due: each decided by :class:`Computers` and taken like a click."""
        while session.table.bot_to_move:
            await asyncio.sleep(self.computers.delay(session.table, session.guild_id))
            table = session.table
            if not table.bot_to_move:
                # The member changed their auto-play choice during the pause: their hand,
                # not refreshed for a move that was to play itself, needs its buttons.
                self._refresh_turn(session)
                return
            seat = table.game.turn
            assert seat is not None
            try:
                action = await self.computers.decide(table)
                async with session.lock:
                    change = session.table.play_for(seat, action, table.seq)
                    await self._take(session, change)
            except StaleTurn:
                continue  # a member's own click moved the game on meanwhile: look again
            except (NotTheBotsMove, TableClosed):
                # The member came back while the computer thought for them: their
                # buttons stand.
                self._refresh_turn(session)
                return
            except Exception:
                # The clock's sweep starts the computer again (rescue); a member whose
                # forced move failed gets their buttons meanwhile.
                log.exception("game %d: computer player failed", session.id)
                self._refresh_turn(session)
                return

    def _refresh_turn(self, session: Session) -> None:
        """Redraw the hand of the member on turn, if the bot does not move for them."""
        seat = session.table.game.turn
        if seat is not None and not session.finished and not session.table.moves_itself(seat):
            self.delivery.queue_refresh(session, seat)

    def rescue(self) -> int:
        """Restart the bot's moves at every table where one is due and none is under way.

        Returns:
            how many games were rescued (a worker or store failure had stopped them).
        """
        rescued = 0
        for session in list(self._sessions.values()):
            stopped = session.computer is None or session.computer.done()
            if stopped and session.table.bot_to_move:
                log.info("game %d: computer on turn with no move under way; restarting", session.id)
                self._run_bot(session)
                rescued += 1
        return rescued

    async def tick(
        self, remind_after: float, forfeit_after: float, now: float | None = None
    ) -> None:
        """The turn timers' sweep (docs/rulings.md R9): remind slow members once, mark
        away the members whose forfeit time passed (the computer plays their cards),
        and restart computers that stopped. ``now``: seconds since the epoch (tests
        pass their own); the delays are the bot's defaults, in seconds, and a server's
        own turn timer wins (``/tuque settings``). The store keeps each turn's start and
        decides which turns are due, and ``mark_reminded`` that two sweeps cannot both
        remind."""
        now = time.time() if now is None else now
        for timer in await self.store.due_turn_timers(now, remind_after, forfeit_after):
            session = self._sessions.get(timer.game_id)
            if session is None or session.finished:
                continue
            seat = session.table.game.turn
            if seat is None or session.table.is_computer(seat):
                continue
            if timer.due is TimerDue.FORFEIT:
                async with session.lock:
                    try:
                        change = session.table.leave(seat)
                    except TableError:
                        continue  # the member acted meanwhile
                    await self._take(session, change)
            elif await self.store.mark_reminded(session.id):
                minutes = max(1, round((timer.forfeit_after - timer.remind_after) / 60))
                self.delivery.remind(session, seat, minutes)
        self.rescue()

    async def close(self) -> None:
        """Stop the computer players, table edits and posts (the games stay in the store)."""
        await self.background.close()


def _showing(session: Session) -> bool:
    """Whether ``session``'s table edit, posts, hand views or ping deletions are still
    to be made."""
    state = session.discord
    editing = state.table_edit is not None and not state.table_edit.done()
    outboxes = not state.outbox.idle or not state.hand_outbox.idle
    return editing or outboxes or bool(state.ping_deletions)
