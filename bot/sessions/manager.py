"""The session manager: one engine game per session, one lock per game.

Data flows one way: an interaction reaches a handler here, the handler applies an
engine action to a *copy* of the game, the store records the new log entries, and
only then does the session take the new state. What follows goes through each room
once: :mod:`~bot.sessions.delivery` shows the change on Discord (the answer to the
click is made here, first), :mod:`~bot.sessions.computers` plays a computer on turn,
and :mod:`~bot.sessions.timers` watches the turn's clock. A failure before the store
write leaves the game and the database as they were; after it nothing can lose the
game.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Any

import discord

from bot import render, replies
from bot.emojis import TEXT_FACES, CardFaces
from bot.layout import resign_view, suit_choices
from bot.sessions.computers import Computers, advise
from bot.sessions.delivery import Background, Delivery, posting
from bot.sessions.state import HandMessage, Session, forced_note, record_of
from bot.sessions.timers import TurnTimers
from bot.store import (
    Autoplay,
    GameNotActive,
    GameNotFound,
    GameRow,
    GameStatus,
    HandRecord,
    SeatKind,
    SeatRow,
    Store,
)
from engine import advice
from engine.actions import ACTIONS, Action
from engine.cards import Suit
from engine.errors import IllegalAction, RecordError
from engine.game import Game
from engine.view import Phase, PlayerView

__all__ = ["GameSessions", "hint_text"]

log = logging.getLogger(__name__)


def hint_text(
    view: PlayerView, action_id: int, shares: Mapping[int, float], seating: render.Seating
) -> str:
    """A hint's line for ``view``'s seat: the hard computer's action as its button says
    it, why in a player's words, and how sure the search was, in words (a percentage
    read as a probability of winning): :mod:`engine.advice`."""
    action = ACTIONS[action_id]
    labels = {a.id: render.action_label(a, view, seating) for a in view.legal_actions}
    why = advice.reason(view, action)
    return advice.hint_text(labels[action_id], why, advice.certainty(shares, action_id, labels))


class GameSessions:
    """Every running game of the bot, and the handlers of every game interaction.

    Args:
        client: the client (for channels).
        store: the database.
        executor: where computer players think (a process pool in production).
        drawer: where the tables' pictures are drawn (a process pool in production).
        move_delay: seconds to wait before each computer move (a guild's own in
            ``move_delays`` wins).
        table_delay: seconds a table edit waits so that quick plays share one edit;
            Discord allows about 5 edits per 5 seconds in a channel.
        ping_delay: seconds into a member's turn before they are pinged.
        faces: how cards show now (the bot's card emojis, which start-up may still be
            uploading); asked at every render. Default: text.

    Attributes:
        delivery: what each stored change shows on Discord.
        computers: the moves the bot plays itself (``move_delays`` per guild).
        timers: the turn-timer sweep (``tick``).
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
        ping_delay: float = 0.0,
        faces: Callable[[], CardFaces] = lambda: TEXT_FACES,
    ) -> None:
        self.client = client
        self.store = store
        self.executor = executor
        self.rated_hints: set[int] = set()
        """The guilds that allow hints in rated games (``/tuque settings`` keeps it up to
        date); elsewhere only games with a computer offer them."""
        self._sessions: dict[int, Session] = {}
        self.background = Background()
        self.delivery = Delivery(
            client,
            store,
            self.background,
            drawer,
            table_delay=table_delay,
            ping_delay=ping_delay,
            faces=faces,
            hints_on=self.hints_on,
        )
        self.computers = Computers(
            executor, self.background, self._sessions, self, move_delay=move_delay
        )
        self.timers = TurnTimers(store, self._sessions, self.delivery, self.computers)

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
                thread_id=row.thread_id,
                # A game restored was opened before: its thread stands, or it has none.
                thread_tried=row.table_message_id is not None,
                ping_message_id=row.ping_message_id,
                # The newest ping is for the turn the game waits on (a crash between a
                # move and its ping's deletion aside): kept, not posted again.
                ping_seat=None if row.ping_message_id is None else game.turn,
            )
            await self._load_aids(session)
            self._sessions[row.id] = session
            # A crash between two writes can leave a hand to deal or a game to close.
            await self._settle(session)
            self.delivery.ping(session)
            self.computers.schedule(session)
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

    async def reload_autoplay(self) -> None:
        """Take up the auto-play choices of the members in this process's games afresh
        from the store: a choice is the member's in every server, and one made in a
        server of another shard was stored by another of the bot's processes. A forced
        move a new choice covers is played."""
        members = {s.user_id for g in self._sessions.values() for s in g.seats if s.user_id}
        if not members:
            return
        choices = await self.store.autoplay_of(members)
        for session in list(self._sessions.values()):
            for seat in session.seats:
                if seat.user_id is None:
                    continue
                # A game that began during the read is read at its start instead.
                choice = choices.get(seat.user_id)
                if choice is not None and session.autoplay.get(seat.seat) != choice:
                    session.autoplay[seat.seat] = choice
                    self.computers.schedule(session)

    def hints_on(self, session: Session) -> bool:
        """Whether members may ask for hints: in games with a computer (unrated), and in
        rated games where the guild allows it."""
        rated = all(s.kind is SeatKind.HUMAN for s in session.seats)
        return not rated or session.guild_id in self.rated_hints

    async def set_autoplay(self, user_id: int, choice: Autoplay) -> None:
        """Store ``user_id``'s auto-play choice and use it at once in their running games
        (a forced move waiting for them is played). Raises ``sqlalchemy.exc.SQLAlchemyError``."""
        await self.store.set_autoplay(user_id, choice)
        for session in self._sessions.values():
            seat = session.seat_of(user_id)
            if seat is not None:
                session.autoplay[seat] = choice
                self.computers.schedule(session)

    def running(self) -> list[Session]:
        """Every game in progress (the bot's metrics count them)."""
        return [s for s in self._sessions.values() if not s.finished]

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
            await self.delivery.send_hand_after_commit(interaction, session, seat, note)
        await self.delivery.update_table(session)
        await self.delivery.open_thread(session)
        self.delivery.ping(session)
        await self._touch(session)
        self.computers.schedule(session)

    # --- the hand view ----------------------------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """ "Show my hand": a fresh ephemeral view for a player of the game."""
        found = await self._player_seat(interaction, game_id, "You have no hand in this game.")
        if found is not None:
            await self.delivery.send_hand(interaction, *found)

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
            back = f"{session.seating.names[seat]} is back and plays their own cards again."
            self.delivery.post(session, "back notice", posting(content=back, nonce=replies.nonce()))
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
                await self.delivery.send_hand(
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
                await self._edit_clicked_hand(interaction, session, seat)

            await replies.deliver(f"game {session.id}: answer to the click", answer)
            self._after_change(session, before, actor=seat)

    async def hint(self, interaction: discord.Interaction, game_id: int, seq: int) -> None:
        """ "Hint": what the hard computer would do now, shown to the clicker only, and
        counted in the game (stats show it). The hand message clicked is redrawn with
        the action's button marked and the hint in words under "Your turn". Refused,
        changing nothing, to strangers, for an earlier turn, out of turn, and where
        hints are off (rated games)."""
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
            action_id, shares = await asyncio.shield(session.hint[1])
            if session.finished or len(session.game.log) != seq:
                await replies.deny(interaction, "That hint was for an earlier turn: it's over now.")
                return
            if not asked:
                try:
                    await self.store.record_hint(game_id, seat)
                except (GameNotActive, GameNotFound):
                    await replies.deny(interaction, f"Game #{game_id} is over.")
                    return
            words = hint_text(view, action_id, shares, session.seating)
            session.hinted = (seq, action_id, words)
            await self._edit_clicked_hand(interaction, session, seat)

    async def pick_suit(
        self, interaction: discord.Interaction, game_id: int, seq: int, suit: Suit
    ) -> None:
        """The suit select of a hand message (Auction's bidding and call, RULES.md §7):
        the clicked message is redrawn with that suit's bids or cards. It changes
        nothing in the game or the database; refused to strangers, for an earlier turn,
        out of turn, and for a suit the player has nothing to choose in."""
        found = await self._player_seat(
            interaction, game_id, "These aren't your cards: you're not in this game."
        )
        if found is None:
            return
        session, seat = found
        async with replies.deadline(interaction), session.lock:
            game = session.game
            if session.finished:
                await replies.deny(interaction, f"Game #{game_id} is over.")
                return
            if seq != len(game.log) or game.turn != seat:
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
            session.picked[seat] = (seq, suit)
            await self._edit_clicked_hand(interaction, session, seat)

    async def _edit_clicked_hand(
        self, interaction: discord.Interaction, session: Session, seat: int
    ) -> None:
        """Redraw the hand message whose component was used, and keep its token as the
        seat's newest: its edits reach the message the player is looking at."""
        # A hand sent before the component layout has an embed, which the layout's
        # message may not keep: cleared (nothing to clear on a newer one).
        layout = self.delivery.hand_message(session, seat)
        await replies.edit_clicked(interaction, content=None, embed=None, view=layout)
        session.hands[seat] = HandMessage(interaction, None, time.monotonic())

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
        self.delivery.announce(session, before)
        self.delivery.schedule_table_edit(session)
        new_hand = game.hand_no != before.hand_no
        forced = None if session.finished else session.forced(game.turn)
        for seat in range(len(session.seats)):
            if seat == actor or session.is_computer(seat):
                continue
            if forced is not None and seat == game.turn:
                continue  # its move is played in a moment, and that refreshes it
            if session.finished or new_hand or game.turn == seat or before.turn == seat:
                self.delivery.queue_refresh(session, seat)
        self.delivery.ping(session)
        self.computers.schedule(session)

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
                reason = session.end_reason or f"{name} resigned."
                self.delivery.announce_end(session, reason)
                for other in range(len(session.seats)):
                    if not session.is_computer(other):
                        session.notes[other] = reason
                        self.delivery.queue_refresh(session, other)

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
        nonce = replies.nonce("resigned", session.id, session.game.seed, seat)
        self.delivery.post(session, "resignation", posting(content=note, nonce=nonce))
        self.delivery.schedule_table_edit(session)
        for other in range(len(session.seats)):
            if not session.is_computer(other):
                session.notes[other] = note
                self.delivery.queue_refresh(session, other)
        self.delivery.ping(session)
        self.computers.schedule(session)

    # --- computer moves and the clock -------------------------------------------------

    async def move_for(self, session: Session, seq: int, seat: int, action: Action) -> bool:
        """Store and show a move the bot plays for ``seat`` (a computer's, or a member's
        forced move), unless the game moved on from log length ``seq`` meanwhile.

        Returns:
            whether the computer should keep moving (False: the member in ``seat`` came
            back while the computer thought for them, and has their buttons again).
        """
        async with session.lock:
            if session.finished or len(session.game.log) != seq:
                return True
            forced = session.forced(seat)
            if forced is None and not session.is_computer(seat):
                # The away member came back while the computer thought for them.
                self.refresh(session, seat)
                return False
            game = session.game
            new = game.copy()
            new.apply(seat, action)
            # Worded before the store write, so nothing can fail after it.
            note = None if forced is None else forced_note(forced, game, new, session)
            await self._commit(session, new)
            if note is not None:
                session.notes[seat] = note
            self._after_change(session, game, actor=None)
        return True

    def refresh(self, session: Session, seat: int) -> None:
        """Queue an update of the member's hand view in ``seat``."""
        self.delivery.queue_refresh(session, seat)

    async def close(self) -> None:
        """Stop the computer players, table edits and posts (the games stay in the store)."""
        await self.background.close()
