"""Delivery: every Discord call that follows a stored action.

After the store write nothing can lose the game. Every Discord call that follows it
(the answer to the click aside: channel posts, table edits, other players' hands) is
queued on the game's outbox and delivered in order in the background, each retried
with backoff on rate limits, server errors and timeouts (``replies.deliver``); a call
that fails for good is logged once, with the game id and never a card, and the next
one goes on.

Private views are ephemeral messages, which can only be edited through the
interaction token that created them, for 15 minutes. Each session remembers the
newest such token per seat; when it is too old the player is pointed to the
table's "Show my hand" button.

Outside a server (a DM or group DM, ``Session.private``) the bot is no member of the
channel: the table is a follow-up of a player's interaction, edited through the
game's freshest token, and a click after every token grew old gets a fresh table;
there is no thread and no ping, and the other posts are follow-ups while a token
allows them (docs/bot.md, "Outside a server").
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import BrokenExecutor, Executor
from functools import partial
from typing import Any

import discord

from bot import render, replies
from bot.budget import Priority, RequestBudget, pacing
from bot.drawing import draw_table
from bot.emojis import CardFaces
from bot.layout import (
    TABLE_PICTURE,
    game_over_view,
    hand_layout,
    rematch_started_view,
    show_hand_button,
    table_layout,
)
from bot.sessions.state import (
    TOKEN_LIFETIME,
    Call,
    HandMessage,
    InteractionToken,
    Outbox,
    Session,
    ended,
    post_nonce,
)
from bot.store import Store
from bot.table import Change, Ending, NoteKind
from bot.web.links import Links

__all__ = ["Background", "Delivery", "Send", "posting"]

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel (or thread) that no longer exists."""
THREAD_EXISTS = 160004
"""Discord's error code for a thread started from a message that has one already."""
OLD_MESSAGE_EDITS = 30046
"""Discord's error code for an edit of a message older than an hour, past the few an
hour a channel is allowed."""
TABLE_LIFETIME = 50 * 60.0
"""Seconds a table message is edited before a new one replaces it (and it is deleted),
so that the table never meets Discord's limit on edits of hour-old messages."""
MOVED = "This hand moved to a newer message: use that one, or **Show my hand** on the table."
"""What a replaced hand message says instead of the hand."""
FOLLOWUPS_PER_TOKEN = 5
"""Follow-ups Discord allows an interaction that reached the bot through a member's own
install (a group DM): the bot keeps every game's interactions within it."""
TOKENS_KEPT = 4
"""A game's newest interactions kept outside a server: the freshest answers, and the
ones before it stand in while its answer is still being made."""
Send = Callable[[discord.PartialMessageable], Awaitable[discord.Message]]
"""A post, given where to make it (the game's thread or channel)."""


def posting(**fields: Any) -> Send:
    """The post of a message with ``fields`` (``content``, ``embed``, ``view``, ``nonce``...),
    wherever the game posts: ``posting(content="Hi", nonce=n)(channel)`` sends it there."""
    return partial(discord.PartialMessageable.send, **fields)


class Background:
    """The bot's background tasks (computer moves, table edits, outboxes): kept
    referenced while they run, and cancelled together by :meth:`close`."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """Run ``work`` in the background as task ``name``; once closed, never: the task
        is cancelled before it starts (an interaction handled while the bot stops may
        still ask for a computer move or a post, and the workers are gone)."""
        task = asyncio.create_task(work, name=name)
        if self._closed:
            task.cancel()
            return task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        """Cancel every task, wait for them to end, and start no other."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class Delivery:
    """What a game shows on Discord after each stored change: the table message, the
    members' hand views and the channel posts.

    Args:
        client: the client (for channels).
        store: the database (the table message's id is stored with the game).
        background: where queued deliveries and table edits run.
        drawer: where the tables' pictures are drawn, one at a time (in production a
            process of its own: see :func:`bot.workers.drawing_pool`).
        table_delay: seconds a table edit waits after the change that asks for it, so
            that a burst of plays shares one edit.
        table_gap: seconds at least between two table edits in one channel (a game's
            thread, or a channel where several tables may share it), and likewise
            between two of the games' posts and between two deletions: Discord allows
            about 5 of each per 5 seconds in a channel.
        ping_delay: seconds into a member's turn before the message that mentions them
            is posted (a member who acts sooner is at the table and needs none).
        faces: how cards show now (the bot's card emojis, which start-up may still be
            uploading); asked at every render.
        hints_on: whether a session's members may ask for hints.
        budget: the bot's request budget (Discord's global limit, :mod:`bot.budget`):
            each table edit waits there for its turn before its picture is drawn, the
            changes made meanwhile merging into it; posts wait at their priority.

    Where there is a thread per game (the default), a short message in the channel
    starts the game's thread, and the table message, the pings, hand results and notices
    go into the thread: each game's edits draw on its own thread's rate limits, so a
    channel of many games keeps every table up to date. The game's result goes into
    both. Where threads are off the table is in the channel, and the tables there share
    its edits (``table_gap``).
    """

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        background: Background,
        drawer: Executor,
        *,
        table_delay: float,
        table_gap: float,
        ping_delay: float,
        faces: Callable[[], CardFaces],
        hints_on: Callable[[Session], bool],
        budget: RequestBudget,
    ) -> None:
        self.client = client
        self.budget = budget
        self.store = store
        self.background = background
        self.table_delay = table_delay
        self.table_gap = table_gap
        self.table_lifetime = TABLE_LIFETIME
        # Per channel and kind of request (a table edit, a post, a deletion: each a
        # bucket of Discord's), the loop time from which the next may start.
        self._next: dict[tuple[int, str], float] = {}
        self.ping_delay = ping_delay
        self.faces = faces
        self.hints_on = hints_on
        self.drawer = drawer
        self.threads_off: set[int] = set()
        """The guilds whose games play in the channel (``/tuque settings threads``)."""
        self.links: Links | None = None
        """The web table's links, where the web table is on: a member's hand message
        links to their seat, the table message to the public view."""
        self.activity = False
        """Whether the table also runs inside Discord (an Activity): the table message
        then offers "Open the table"."""
        self.round_lines: dict[int, str] = {}
        """An event's tables' games, each with the line its table message shows under
        its status (``render.round_line``: the round and its clock), set by the events
        cog."""
        self.token_lifetime = TOKEN_LIFETIME
        """Seconds an interaction's token is trusted to reach a game's messages outside
        a server (Discord allows 15 minutes)."""

    # --- outside a server: the players' interactions -----------------------------------

    def saw(self, session: Session, interaction: discord.Interaction, followups: int = 0) -> None:
        """Keep ``interaction``, just answered (with ``followups`` follow-ups made), as the
        game's freshest way to its messages outside a server; a table that went without
        an edit for want of a token is shown now (posted anew as its follow-up)."""
        if not session.private:
            return
        tokens = session.discord.tokens
        known = next((t for t in tokens if t.interaction is interaction), None)
        if known is not None:
            known.followups += followups
            return
        # Trusted from its answer on: a little after Discord made it, inside the margin
        # that ``token_lifetime`` keeps below Discord's 15 minutes.
        tokens.append(InteractionToken(interaction, time.monotonic(), followups))
        del tokens[:-TOKENS_KEPT]
        if session.discord.table_waiting:
            self.schedule_table_edit(session)

    def _expired(self, handle: HandMessage) -> bool:
        """Whether a hand message's token is too old to trust (``token_lifetime``)."""
        return time.monotonic() - handle.issued > self.token_lifetime

    def _token(self, session: Session, *, followup: bool) -> InteractionToken | None:
        """The game's freshest answered interaction whose token still lives (with room
        for a follow-up, with ``followup``), or None."""
        now = time.monotonic()
        for token in reversed(session.discord.tokens):
            if now - token.issued > self.token_lifetime:
                break  # the older ones are older still
            if not token.interaction.response.is_done():
                continue
            if followup and token.followups >= FOLLOWUPS_PER_TOKEN:
                continue
            return token
        return None

    async def _followup(self, session: Session, what: str, **fields: Any) -> discord.Message | None:
        """A public follow-up in the game's DM or group DM through its freshest token with
        room for one; None (logged) when no token can make it."""
        token = self._token(session, followup=True)
        if token is None:
            log.info("game %d: %s not posted: no interaction to answer", session.id, what)
            return None
        token.followups += 1
        message: discord.Message = await token.interaction.followup.send(wait=True, **fields)
        return message

    def post(self, session: Session, what: str, send: Send, *, channel: bool = False) -> None:
        """Queue a post behind the game's earlier ones, delivered with retries: ``send``
        (see :func:`posting`) is given the game's thread, or its channel where it has
        none or with ``channel``. Outside a server it is a follow-up instead, made while
        a token of the game allows one."""

        async def call() -> None:
            if session.private:
                # posting()'s fields, less the nonce that follow-ups lack.
                fields = send.keywords if isinstance(send, partial) else {}
                shown = {k: v for k, v in fields.items() if k != "nonce"}
                await self._followup(session, what, **shown)
                return
            await self._in_game(session, send, channel=channel)

        self.queue(session, partial(replies.deliver, f"game {session.id}: {what}", call))

    async def _in_game(
        self, session: Session, send: Send, *, channel: bool = False
    ) -> discord.Message:
        """``send`` to the game's thread (or channel). A thread deleted by a moderator is
        Discord's Unknown Channel: the game falls back to its channel, for good."""
        if channel or session.discord.thread_id is None:
            await self._slot(session.channel_id, "post")
            return await send(self.client.get_partial_messageable(session.channel_id))
        try:
            await self._slot(session.discord.thread_id, "post")
            return await send(self.channel_of(session))
        except discord.NotFound as error:
            if error.code != UNKNOWN_CHANNEL:
                raise
        log.warning("game %d: its thread is gone; it plays in the channel", session.id)
        session.discord.thread_id = None
        if session.discord.table_message_id is not None:
            try:
                await self.store.set_table_message(
                    session.id, session.discord.table_message_id, None
                )
            except Exception:
                log.exception("game %d: the thread's end could not be stored", session.id)
        await self._slot(session.channel_id, "post")
        return await send(self.client.get_partial_messageable(session.channel_id))

    def queue(self, session: Session, job: Call, *, hands: bool = False) -> None:
        """Queue work that never raises; the game's courier runs it in order. With
        ``hands`` it is a hand view's, in the hand views' own outbox: those go through
        interaction webhooks, outside the request budget, and never wait behind a post
        waiting for its turn."""
        outbox = session.discord.hand_outbox if hands else session.discord.outbox
        outbox.calls.append(job)
        if outbox.courier is None or outbox.courier.done():
            lane = "hands" if hands else "outbox"
            outbox.courier = self.background.spawn(_courier(outbox), f"{lane}-{session.id}")

    def queue_refresh(self, session: Session, seat: int) -> None:
        """Queue an edit of ``seat``'s hand view unless one is queued already (it is
        rendered when sent, so one edit covers every change before it)."""
        if seat in session.discord.refreshing:
            return
        session.discord.refreshing.add(seat)

        async def refresh() -> None:
            session.discord.refreshing.discard(seat)
            await self.refresh_hand(session, seat, session.discord.notes.pop(seat, None))

        self.queue(session, refresh, hands=True)

    def hand_message(
        self, session: Session, seat: int, note: str | None = None
    ) -> discord.ui.LayoutView:
        """``seat``'s hand message as the game stands now (Components V2): its words, and
        while the game runs its controls, with the suit the seat chose this turn and the
        button this turn's hint means, marked."""
        game = session.game
        view = game.view(seat)
        seq = game.log_length
        labels = render.button_labels(view, session.seating)
        faces = self.faces()
        on_turn = not session.finished and view.turn == seat
        hinted = session.aids.hinted if on_turn else None
        if hinted is not None and hinted[0] != seq:
            hinted = None
        picked = session.aids.picked.get(seat)
        text = render.hand_text(
            view,
            session.seating,
            session.id,
            note,
            faces,
            ended(session),
            hint=hinted[2] if hinted else None,
        )
        return hand_layout(
            session.id,
            seq,
            view,
            labels,
            text.head,
            text.footer,
            faces,
            hint=on_turn and self.hints_on(session) and len(view.legal_actions) > 1,
            suit=picked[1] if picked is not None and picked[0] == seq else None,
            marked=hinted[1] if hinted else None,
            controls=not session.finished,
            web_link=self._seat_link(session, seat),
        )

    def _seat_link(self, session: Session, seat: int) -> str | None:
        """The member's link to ``seat`` at the web table: while the game runs and the
        member plays the seat, where the web table is on."""
        member = session.table.seats[seat]
        if self.links is None or session.finished or not member.playing:
            return None
        assert member.member is not None
        return self.links.seat_link(session.id, seat, member.member)

    async def send_hand(
        self, interaction: discord.Interaction, session: Session, seat: int, note: str | None = None
    ) -> None:
        """A fresh ephemeral hand view as the answer to ``interaction``; the seat's
        previous one says where its hand went and loses its controls (two quick "Show my
        hand" would otherwise leave two live hands)."""
        layout = self.hand_message(session, seat, note)
        sent = await replies.send(interaction, view=layout, ephemeral=True)
        self.saw(session, interaction, 0 if sent.followup is None else 1)
        old = session.discord.hands.get(seat)
        session.discord.hands[seat] = HandMessage(interaction, sent.followup, time.monotonic())
        if sent.message_id is not None:
            session.discord.newest_hand[seat] = sent.message_id
        if old is not None and not self._expired(old):
            self.queue(session, partial(self._retire_hand, session, old), hands=True)

    async def _retire_hand(self, session: Session, handle: HandMessage) -> None:
        """Turn a replaced hand message into a pointer to the newer one, without controls."""
        moved = discord.ui.LayoutView(timeout=None)
        moved.add_item(discord.ui.TextDisplay(MOVED))

        async def edit() -> None:
            if handle.message_id is None:
                await handle.interaction.edit_original_response(view=moved)
            else:
                await handle.interaction.followup.edit_message(handle.message_id, view=moved)

        await replies.deliver(f"game {session.id}: replaced hand view", edit)

    def is_newest_hand(self, session: Session, seat: int, interaction: discord.Interaction) -> bool:
        """Whether ``interaction`` comes from ``seat``'s newest hand message (or one the
        bot cannot tell apart: none is known since a restart)."""
        newest = session.discord.newest_hand.get(seat)
        return newest is None or interaction.message is None or interaction.message.id == newest

    async def answer_click(
        self, interaction: discord.Interaction, session: Session, seat: int
    ) -> None:
        """Redraw the hand message whose component was used, and keep its token as the
        seat's newest: its edits reach the message the player is looking at."""
        # A hand sent before the component layout has an embed, which the layout's
        # message may not keep: cleared (nothing to clear on a newer one).
        layout = self.hand_message(session, seat)
        await replies.edit_clicked(interaction, content=None, embed=None, view=layout)
        self.saw(session, interaction)
        session.discord.hands[seat] = HandMessage(interaction, None, time.monotonic())
        if interaction.message is not None:
            session.discord.newest_hand[seat] = interaction.message.id

    async def send_hand_after_commit(
        self, interaction: discord.Interaction, session: Session, seat: int, note: str
    ) -> bool:
        """Send ``seat``'s hand view as the answer to ``interaction`` (or a follow-up of
        it), after the change is stored; return whether Discord took it."""
        return await replies.deliver(
            f"game {session.id}: hand view of seat {seat}",
            lambda: self.send_hand(interaction, session, seat, note),
        )

    async def refresh_hand(self, session: Session, seat: int, note: str | None = None) -> None:
        """Edit ``seat``'s newest ephemeral hand view, if its token still lives.

        Rendered when the edit is made, so it shows the game as it is then.
        """
        handle = session.discord.hands.get(seat)
        if handle is None:
            return
        if self._expired(handle):
            del session.discord.hands[seat]
            return

        async def edit() -> None:
            layout = self.hand_message(session, seat, note)
            if handle.message_id is None:
                await handle.interaction.edit_original_response(view=layout)
            else:
                await handle.interaction.followup.edit_message(handle.message_id, view=layout)

        delivered = await replies.deliver(f"game {session.id}: hand view of seat {seat}", edit)
        if not delivered and session.discord.hands.get(seat) is handle:
            # The player dismissed the message or the token died early: the table's
            # "Show my hand" button brings a fresh one.
            del session.discord.hands[seat]

    def schedule_table_edit(self, session: Session, priority: Priority = Priority.ROUTINE) -> None:
        """Edit the table soon with the state of that moment, at ``priority`` (or the
        more urgent priority of a change it waits with); pending edits merge into one,
        and a change made while an edit is under way gets an edit of its own."""
        state = session.discord
        if state.table_stale:
            self.budget.merged += 1
        else:
            state.table_stale_since = asyncio.get_running_loop().time()
        state.table_stale = True
        state.table_priority = min(state.table_priority, priority)
        if state.table_edit is None or state.table_edit.done():
            state.table_edit = self.background.spawn(
                self._edit_table_later(session), f"table-{session.id}"
            )

    async def _edit_table_later(self, session: Session) -> None:
        # A change during the wait, the drawing or the upload sets table_stale again.
        loop = asyncio.get_running_loop()
        state = session.discord
        while state.table_stale:
            channel_id = state.thread_id or session.channel_id
            # table_delay after the first change it shows, not after the edit before
            # it: a change made while that edit was under way (or while discord.py held
            # it back as it emptied the thread's rate-limit bucket) has waited already.
            await self._slot(channel_id, "edit", state.table_stale_since + self.table_delay)
            if session.private:  # outside a server the table is a webhook's: no turn
                state.table_stale = False
                state.table_priority = Priority.ROUTINE
                await self.update_table(session)
                continue
            # Drawn only once its turn comes: it shows every change made meanwhile.
            await self.budget.turn(lambda: state.table_priority)
            with self.budget.prepaid():
                # A turn that came late (the budget was short) moves the channel's next
                # edit after this one.
                later = loop.time() + self.table_gap
                self._next[channel_id, "edit"] = max(self._next[channel_id, "edit"], later)
                priority, state.table_priority = state.table_priority, Priority.ROUTINE
                state.table_stale = False
                with self.budget.priority(priority):
                    await self.update_table(session)

    @staticmethod
    def urgency(session: Session, change: Change) -> Priority:
        """How urgent showing ``change`` on the table is: a hand or the game it ended
        first, then a turn it passed to a member, then the rest (issue 41)."""
        if change.hands or change.result is not None:
            return Priority.RESULT
        seat = session.game.turn
        if seat is not None and not session.table.moves_itself(seat):
            return Priority.TURN
        return Priority.ROUTINE

    async def _slot(self, channel_id: int, kind: str, not_before: float = 0.0) -> None:
        """Wait until ``not_before`` (loop time) and the channel's next slot for a request
        of ``kind`` (``edit``: a table edit, ``post``, ``delete``), ``table_gap`` after
        the one before, whichever is later. Each kind is a bucket of Discord's, about 5
        per 5 s in a channel: the games of a channel (threads off) take turns in it, in
        order, rather than meet a 429 or wait inside discord.py; and a table is drawn
        only once its turn comes, so it shows the game as it is then (waiting inside
        discord.py for the rate limit would send a picture drawn before the wait)."""
        loop = asyncio.get_running_loop()
        start = max(not_before, loop.time(), self._next.get((channel_id, kind), 0.0))
        self._next[channel_id, kind] = start + self.table_gap
        with pacing():  # a busy channel's turns are no part of a try's time
            await asyncio.sleep(start - loop.time())

    async def _table(self, session: Session) -> tuple[discord.ui.LayoutView, bytes]:
        """The table message as the game stands: its layout and its picture, drawn in
        the drawer (under 5 ms of CPU) from the public view only."""
        public = session.game.view(None)
        loop = asyncio.get_running_loop()
        names = session.seating.names
        # A resignation or a forfeit ends the game where the engine does not: the
        # picture shows it from the table's result.
        draw = partial(draw_table, public, names, result=session.table.result)
        try:
            picture = await loop.run_in_executor(self.drawer, draw)
        except BrokenExecutor:
            # The drawing process died (killed, out of memory): the table still shows
            # the game, drawn here until the bot restarts with a new process.
            log.warning("game %d: the drawing process is gone; drawn in a thread", session.id)
            picture = await asyncio.to_thread(draw)
        layout = table_layout(
            session.id,
            render.table_title(public, session.id),
            _with_round(
                render.table_status(public, session.seating, ended(session)),
                self.round_lines.get(session.id),
            ),
            picture.description,
            finished=session.finished,
            watch_link=None if self.links is None else self.links.spectator_link(session.id),
            activity=self.activity,
        )
        return layout, picture.jpeg

    async def update_table(self, session: Session) -> None:
        """Edit the table message to show the game now. Post one if it has none, if it
        is gone, or if it is old: an hour-old message may be edited only a few times an
        hour, so a table near that age is replaced by a new one (and deleted). Outside a
        server, through the game's interactions instead (:meth:`_show_private_table`)."""
        if session.private:
            show = partial(self._show_private_table, session)
            await replies.deliver(f"game {session.id}: table", show)
            return
        renewed: int | None = None

        async def edit() -> None:
            nonlocal renewed
            message_id = session.discord.table_message_id
            assert message_id is not None
            age = time.time() - discord.utils.snowflake_time(message_id).timestamp()
            if age > self.table_lifetime:
                renewed = message_id
            else:
                layout, image = await self._table(session)
                picture = discord.File(io.BytesIO(image), TABLE_PICTURE)
                message = self.channel_of(session).get_partial_message(message_id)
                try:
                    await message.edit(view=layout, attachments=[picture])
                    return
                except discord.NotFound as error:
                    # Deleted by a moderator, or its thread was: the players still need
                    # a table (a thread's loss also moves the game to its channel).
                    if error.code == UNKNOWN_CHANNEL:
                        log.warning(
                            "game %d: its thread is gone; it plays in the channel", session.id
                        )
                        session.discord.thread_id = None
                except discord.HTTPException as error:
                    if error.code != OLD_MESSAGE_EDITS:
                        raise
                    renewed = message_id
            session.discord.table_replaces = message_id
            session.discord.table_message_id = None

        if session.discord.table_message_id is not None:
            await replies.deliver(f"game {session.id}: table edit", edit)
        if session.discord.table_message_id is None and (not session.finished or renewed):
            post = partial(self._post_table, session)
            if await replies.deliver(f"game {session.id}: table post", post) and renewed:
                await replies.deliver(
                    f"game {session.id}: old table deletion",
                    partial(self._delete, session, renewed),
                )

    async def _show_private_table(self, session: Session) -> None:
        """The table outside a server: its message edited through the game's freshest
        token, or posted as that token's follow-up where it has none, was deleted, or
        went without an edit since every token grew old (the game's players saw nothing
        move there meanwhile, so the table comes back under the click that woke it).
        Without a live token nothing can be shown: the next click's answer shows it."""
        token = self._token(session, followup=False)
        if token is None:
            session.discord.table_waiting = True
            return
        waiting, session.discord.table_waiting = session.discord.table_waiting, False
        layout, image = await self._table(session)
        message_id = session.discord.table_message_id
        try:
            if message_id is not None and not waiting:
                try:
                    picture = discord.File(io.BytesIO(image), TABLE_PICTURE)
                    await token.interaction.followup.edit_message(
                        message_id, view=layout, attachments=[picture]
                    )
                    return
                except discord.NotFound:
                    log.info("game %d: its table is gone; posted anew", session.id)
            token = self._token(session, followup=True)
            if token is None:
                session.discord.table_waiting = True
                return
            token.followups += 1
            picture = discord.File(io.BytesIO(image), TABLE_PICTURE)
            message = await token.interaction.followup.send(view=layout, file=picture, wait=True)
        except discord.HTTPException as error:
            if error.status != 401:
                raise
            # Discord found the token dead before we did: the next click shows the table.
            session.discord.tokens.remove(token)
            session.discord.table_waiting = True
            return
        session.discord.table_message_id = message.id
        await self.store.set_table_message(session.id, message.id, None)

    async def _delete(self, session: Session, message_id: int) -> None:
        channel = self.channel_of(session)
        await self._slot(channel.id, "delete")
        # NotFound: deleted already, by a member or a moderator.
        with contextlib.suppress(discord.NotFound):
            await channel.get_partial_message(message_id).delete()

    async def _post_table(self, session: Session) -> None:
        layout, image = await self._table(session)
        # One nonce per table of the game, not per try: a post whose answer was lost
        # in every try is found again by the next move's post instead of made twice.
        key = ("table", session.id, session.game.seed, session.discord.table_replaces)

        def send(channel: discord.PartialMessageable) -> Awaitable[discord.Message]:
            picture = discord.File(io.BytesIO(image), TABLE_PICTURE)
            return channel.send(view=layout, file=picture, nonce=replies.nonce(*key))

        message = await self._in_game(session, send)
        session.discord.table_message_id = message.id
        await self.store.set_table_message(session.id, message.id, session.discord.thread_id)

    # --- the game's thread ------------------------------------------------------------

    def channel_of(self, session: Session) -> discord.PartialMessageable:
        """Where the game's posts go: its thread, or its channel when it has none."""
        return self.client.get_partial_messageable(session.discord.thread_id or session.channel_id)

    async def open_thread(self, session: Session, starter: int | None = None) -> None:
        """Start the game's thread, once per game, where the server keeps threads on
        (``threads_off``), for the table to play in. It starts from ``starter``, a
        message of the game's channel that announces the game already (an accepted
        challenge, a started lobby), or else from a short message posted in the channel
        that names the game and its players. Without the thread permissions (or any
        refusal) the game plays in the channel, and says why in the log only; a start
        message posted for it, which would point to no thread, is deleted."""
        if session.discord.thread_tried:
            return
        session.discord.thread_tried = True
        if session.guild_id in self.threads_off or session.private:
            return
        name = f"Game #{session.id} · {session.game.variant.title}"
        text = render.start_text(session.game.view(None), session.seating, session.id)
        started: list[discord.Message] = []

        async def start() -> None:
            nonlocal starter
            # A thread needs the guild's channel, not a partial one (its guild is known).
            channel = self.client.get_channel(
                session.channel_id
            ) or await self.client.fetch_channel(session.channel_id)
            if isinstance(channel, discord.Thread):
                return  # a game started in a thread (a Rematch clicked there) plays there
            if not isinstance(channel, discord.TextChannel):
                raise TypeError("a game's thread starts in a text channel")
            if starter is not None:
                try:
                    await self._thread_from(session, channel.get_partial_message(starter), name)
                    return
                except discord.NotFound as error:
                    if error.code == UNKNOWN_CHANNEL:
                        raise
                    # Deleted meanwhile: a start message takes the announcement's place.
                    starter = None
            if not started:
                await self._slot(channel.id, "post")
                started.append(await channel.send(text, nonce=post_nonce(session, "start")))
            await self._thread_from(session, started[0], name)

        if not await replies.deliver(f"game {session.id}: thread", start):
            log.info("game %d: no thread (refused or failed); it plays in the channel", session.id)
            if started:
                await replies.deliver(
                    f"game {session.id}: start message deletion", started[0].delete
                )

    @staticmethod
    async def _thread_from(
        session: Session, message: discord.Message | discord.PartialMessage, name: str
    ) -> None:
        """Start the game's thread from ``message`` (a public thread, archived after a
        day without a post). Raises what Discord refuses, but the refusal of a thread
        that a try whose answer was lost made already: that thread is the game's."""
        try:
            thread = await message.create_thread(name=name, auto_archive_duration=1440)
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                raise
            # A thread started from a message shares the message's id.
            session.discord.thread_id = message.id
            return
        session.discord.thread_id = thread.id

    # --- the ping on a member's turn ---------------------------------------------------

    def ping(self, session: Session) -> None:
        """Ping the member on turn: a short new message that mentions them (Discord
        notifies on a new message, never on an edit), posted ``ping_delay`` into their
        turn unless they have acted by then. The game's previous ping is deleted at
        once, so a game has one at a time, and none once nobody is waited for."""
        if session.private:
            # Nothing can be posted to mention them: the table says whose turn it is.
            return
        game = session.game
        seat = game.turn
        wanted = not session.finished and seat is not None and not session.table.moves_itself(seat)
        self.queue(session, partial(self._drop_ping, session, seat if wanted else None))
        if wanted and seat is not None:
            later = self._ping_later(session, seat, game.log_length)
            self.background.spawn(later, f"ping-{session.id}")

    async def _ping_later(self, session: Session, seat: int, seq: int) -> None:
        await asyncio.sleep(self.ping_delay)
        if session.table.at(seq):
            self.queue(session, partial(self._post_ping, session, seat, seq))

    async def _drop_ping(self, session: Session, keep: int | None) -> None:
        """Take the standing ping away unless it is for ``keep``'s turn (a restart finds
        it): forgotten at once, so the next turn's ping need not wait for it, and
        deleted in the background at the lowest priority. Nobody waits for that deletion:
        while the bot asks more than its budget, every table edit goes first, and the
        game's later posts (its next ping, a hand's result) never queue behind it."""
        state = session.discord
        if state.ping_message_id is None or (keep is not None and state.ping_seat == keep):
            return
        standing = (state.ping_message_id, state.ping_channel_id)
        state.ping_message_id = state.ping_seat = state.ping_channel_id = None
        deletion = self.background.spawn(self._unping(session, *standing), f"unping-{session.id}")
        state.ping_deletions.add(deletion)
        deletion.add_done_callback(state.ping_deletions.discard)

    async def _post_ping(self, session: Session, seat: int, seq: int) -> None:
        """Post the ping of ``seat``'s member, unless the game moved on from log length
        ``seq`` (that move's own ping decides) or the turn has its ping already."""
        if not session.table.at(seq) or session.discord.ping_message_id:
            return
        user = session.table.seats[seat].member
        if user is None:
            return
        text = render.ping_text(session.game.view(None), user, session.id)
        send = posting(content=text, nonce=post_nonce(session, "ping", seq))

        async def post() -> None:
            message = await self._in_game(session, send)
            session.discord.ping_message_id, session.discord.ping_seat = message.id, seat
            # The channel if the game's thread did not exist yet: deleted there, later.
            session.discord.ping_channel_id = message.channel.id

        with self.budget.priority(Priority.TURN):
            posted = await replies.deliver(f"game {session.id}: ping", post)
        if posted:
            await self._store_ping(session)

    async def _unping(self, session: Session, message_id: int, channel_id: int | None) -> None:
        """Delete the ping ``message_id``, posted in ``channel_id`` (None: not known, a
        ping a restart found), then forget it in the store unless a newer one stands."""
        # Where it was posted; a ping a restart found is in the thread, or in the channel
        # if it came before the thread: a 404 in one is looked for in the other.
        if channel_id is not None:
            places = [channel_id]
        else:
            state = session.discord
            places = list(
                dict.fromkeys((state.thread_id or session.channel_id, session.channel_id))
            )
        messages = [
            self.client.get_partial_messageable(place).get_partial_message(message_id)
            for place in places
        ]

        async def delete() -> None:
            for message in messages:
                await self._slot(message.channel.id, "delete")
                # NotFound: deleted already, by a member or a moderator, or not there.
                with contextlib.suppress(discord.NotFound):
                    await message.delete()
                    return

        # While every table waits, a clean-up waits longer than a try may take
        # (ALLOWANCE): its wait stops the try's clock (budget.pacing).
        with self.budget.priority(Priority.CLEANUP):
            await replies.deliver(f"game {session.id}: ping deletion", delete)
        # Forgotten even when Discord refused (a ping that cannot be deleted must not
        # keep the next one from being posted), and only if no newer ping stands.
        if session.discord.ping_message_id is None:
            await self._store_ping(session)

    async def _store_ping(self, session: Session) -> None:
        try:
            await self.store.set_ping_message(session.id, session.discord.ping_message_id)
        except Exception:
            # Only a restart needs it (to delete the ping): the game goes on.
            log.exception("game %d: its ping could not be stored", session.id)

    # --- channel posts -----------------------------------------------------------------

    def show(self, session: Session, change: Change) -> None:
        """Show a stored ``change`` on Discord, in order behind the game's earlier posts:
        what it tells the table (away, back, resigned), the hands and the game it
        finished, the table, the members' hands whose view changed (with a line for
        what was played for them) and the ping. Nothing here waits for Discord.

        The store holds the change already: a post that cannot be drawn is logged and
        skipped, and the other posts, the table, the hands and the computer go on.
        """
        table = change.after
        for note in change.notes:
            if note.kind is NoteKind.PLAYED_FOR:
                text = render.played_for_text(note, change.before.game, table.game, session.seating)
                session.discord.notes[note.seat] = text
                self.queue_refresh(session, note.seat)
                continue
            user = table.seats[note.seat].member
            text = render.table_note_text(note, session.seating, user)
            # A resignation is told once whatever the tries; away and back may recur.
            key = (
                replies.nonce("resigned", session.id, table.game.seed, note.seat)
                if note.kind is NoteKind.RESIGNED
                else replies.nonce()
            )
            self.post(session, f"{note.kind} notice", posting(content=text, nonce=key))
            if note.kind is NoteKind.RESIGNED:
                for seat in change.views:
                    session.discord.notes[seat] = text
        self._announce(session, change)
        if change.result is not None and change.result.ending is Ending.RESIGNED:
            reason = render.end_reason(change.result, session.seating, session.game.variant.sides)
            for seat in change.views:
                session.discord.notes[seat] = reason
        if change.resigned is not None:
            session.discord.hands.pop(change.resigned, None)
        for seat in sorted(change.views):
            self.queue_refresh(session, seat)
        # Away and back change no card: the table and the ping stand as they are.
        if change.result is None and (change.entries or change.resigned is not None):
            self.schedule_table_edit(session, self.urgency(session, change))
            self.ping(session)

    def _announce(self, session: Session, change: Change) -> None:
        """Queue the posts of the hands (and the game) ``change`` finished: hand results
        in the game's thread (or channel), the game's result there and, from a thread,
        in the channel too."""
        game = change.after.game
        done = len(change.before.game.hand_results)
        # Each post's nonce names it (the game's nth hand result, its game over), so
        # its retries, and any second announcement of it, are one message.
        for n, result in enumerate(change.hands):
            try:
                embed = render.hand_summary_embed(result, game.variant, session.seating)
            except Exception:
                log.exception("game %d: the hand result could not be drawn", session.id)
                continue
            nonce = post_nonce(session, "hand result", done + n)
            self.post(session, "hand result", posting(embed=embed, nonce=nonce))
        if change.result is not None:
            self.announce_end(session, ended(session))

    def call_to_hands(self, session: Session, seats: Sequence[int]) -> None:
        """Post, in the game's thread, a message that mentions the members of ``seats``
        with a "Show my hand" button: their hands could not be sent to them when the
        game started (no interaction of theirs whose token still lives)."""
        users = [m for s in seats if (m := session.table.seats[s].member) is not None]
        ui = discord.ui.View(timeout=None)
        ui.add_item(show_hand_button(session.id))
        text = render.hand_call_text(users, session.id)
        send = posting(content=text, view=ui, nonce=post_nonce(session, "hand call"))
        self.post(session, "hand call", send)

    def remind(self, session: Session, seat: int, minutes: int) -> None:
        """Post the turn reminder of the member in ``seat`` (R9)."""
        user = session.table.seats[seat].member
        assert user is not None
        text = render.reminder_text(user, session.id, minutes)
        self.post(session, "turn reminder", posting(content=text, nonce=replies.nonce()))

    def announce_end(self, session: Session, reason: str | None) -> None:
        """Queue the game's result (``reason``: why it ended before its last hand), with
        its Rematch button, in the game's thread and in the channel; delete the ping;
        show the table and the members' hands as the game ended."""
        try:
            embed = render.game_over_embed(session.game.view(None), session.seating, reason)
        except Exception:
            log.exception("game %d: the game over could not be drawn", session.id)
            embed = None
        places = [("game over", False)]
        if session.discord.thread_id is not None:
            places.append(("game over in the channel", True))
        if session.private:
            # A follow-up, through the freshest token: no message the bot posts itself, so
            # none whose Rematch a rematch's start could take away (a click on it then is
            # refused, naming the rematch).
            if embed is not None:
                self.post(
                    session, "game over", posting(embed=embed, view=game_over_view(session.id))
                )
            places = []
        for what, in_channel in places if embed is not None else ():
            view = game_over_view(session.id)
            send = posting(embed=embed, view=view, nonce=post_nonce(session, what))
            call = partial(self._post_game_over, session, send, in_channel)
            self.queue(session, partial(replies.deliver, f"game {session.id}: {what}", call))
        self.ping(session)
        self.schedule_table_edit(session, Priority.RESULT)

    async def _post_game_over(self, session: Session, send: Send, in_channel: bool) -> None:
        """Post a game over and remember it, so that the rematch's start (in this process
        or after a restart) can take its Rematch button away. A rematch that started
        while this post waited its turn takes it away at once."""
        message = await self._in_game(session, send, channel=in_channel)
        try:
            await self.store.set_game_over_message(session.id, message.id, channel=in_channel)
            rematch = await self.store.rematch_of(session.id)
        except Exception:
            # The post stands; only its button's retirement needs the store.
            log.exception("game %d: its game over could not be stored", session.id)
            return
        if rematch is not None:
            await self._retire_rematch_button(session.id, message.channel.id, message.id, rematch)

    async def retire_rematch_buttons(self, game_id: int, rematch_id: int) -> None:
        """Replace the Rematch button of game ``game_id``'s game-over posts with a disabled
        "Rematch started · game #N": its rematch, game ``rematch_id``, has started. An
        edit Discord refuses (a deleted post, an hour-old message past its few edits an
        hour: 30046) is logged and left: a click on that Rematch is still refused, with
        the rematch's number."""
        try:
            posts = await self.store.game_over_messages(game_id)
        except Exception:
            log.exception("game %d: its game-over posts could not be read", game_id)
            return
        for channel_id, message_id in posts:
            await self._retire_rematch_button(game_id, channel_id, message_id, rematch_id)

    async def _retire_rematch_button(
        self, game_id: int, channel_id: int, message_id: int, rematch_id: int
    ) -> None:
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        await replies.deliver(
            f"game {game_id}: rematch button",
            partial(message.edit, view=rematch_started_view(rematch_id)),
        )


async def _courier(outbox: Outbox) -> None:
    while outbox.calls:
        await outbox.calls.popleft()()


def _with_round(status: str, round_line: str | None) -> str:
    """The table message's status, with an event table's round line under it."""
    return status if round_line is None else f"{status}\n{round_line}"
