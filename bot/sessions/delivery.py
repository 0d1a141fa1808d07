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
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

import discord

from bot import render, replies
from bot.components import game_over_view, hand_layout, table_view
from bot.emojis import CardFaces
from bot.sessions.state import Call, HandMessage, Session, ended, post_nonce
from bot.store import Store
from engine.game import Game

__all__ = ["Background", "Delivery"]

log = logging.getLogger(__name__)


class Background:
    """The bot's background tasks (computer moves, table edits, outboxes): kept
    referenced while they run, and cancelled together by :meth:`close`."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """Run ``work`` in the background as task ``name``."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        """Cancel every task and wait for them to end."""
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
        table_delay: seconds a table edit waits so that quick plays share one edit;
            Discord allows about 5 edits per 5 seconds in a channel.
        faces: how cards show now (the bot's card emojis, which start-up may still be
            uploading); asked at every render.
        hints_on: whether a session's members may ask for hints.
    """

    def __init__(
        self,
        client: discord.Client,
        store: Store,
        background: Background,
        *,
        table_delay: float,
        faces: Callable[[], CardFaces],
        hints_on: Callable[[Session], bool],
    ) -> None:
        self.client = client
        self.store = store
        self.background = background
        self.table_delay = table_delay
        self.faces = faces
        self.hints_on = hints_on

    def post(self, session: Session, what: str, call: Call) -> None:
        """Queue a Discord call behind the game's earlier ones, delivered with retries."""
        self.queue(session, partial(replies.deliver, f"game {session.id}: {what}", call))

    def queue(self, session: Session, job: Call) -> None:
        """Queue work that never raises; the game's courier runs it in order."""
        session.outbox.append(job)
        if session.courier is None or session.courier.done():
            session.courier = self.background.spawn(self._courier(session), f"outbox-{session.id}")

    def queue_refresh(self, session: Session, seat: int) -> None:
        """Queue an edit of ``seat``'s hand view unless one is queued already (it is
        rendered when sent, so one edit covers every change before it)."""
        if seat in session.refreshing:
            return
        session.refreshing.add(seat)

        async def refresh() -> None:
            session.refreshing.discard(seat)
            await self.refresh_hand(session, seat, session.notes.pop(seat, None))

        self.queue(session, refresh)

    async def _courier(self, session: Session) -> None:
        while session.outbox:
            await session.outbox.popleft()()

    def hand_message(
        self, session: Session, seat: int, note: str | None = None
    ) -> discord.ui.LayoutView:
        """``seat``'s hand message as the game stands now (Components V2): its words, and
        while the game runs its controls, with the suit the seat chose this turn and the
        button this turn's hint means, marked."""
        game = session.game
        view = game.view(seat)
        seq = len(game.log)
        labels = [render.action_label(a, view, session.seating) for a in view.legal_actions]
        faces = self.faces()
        on_turn = not session.finished and view.turn == seat
        hinted = session.hinted if on_turn and session.hinted and session.hinted[0] == seq else None
        picked = session.picked.get(seat)
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
        )

    async def send_hand(
        self, interaction: discord.Interaction, session: Session, seat: int, note: str | None = None
    ) -> None:
        """A fresh ephemeral hand view as the answer to ``interaction``."""
        layout = self.hand_message(session, seat, note)
        message_id = await replies.send(interaction, view=layout, ephemeral=True)
        session.hands[seat] = HandMessage(interaction, message_id, time.monotonic())

    async def send_hand_after_commit(
        self, interaction: discord.Interaction, session: Session, seat: int, note: str
    ) -> None:
        await replies.deliver(
            f"game {session.id}: hand view of seat {seat}",
            lambda: self.send_hand(interaction, session, seat, note),
        )

    async def refresh_hand(self, session: Session, seat: int, note: str | None = None) -> None:
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
            layout = self.hand_message(session, seat, note)
            if handle.message_id is None:
                await handle.interaction.edit_original_response(view=layout)
            else:
                await handle.interaction.followup.edit_message(handle.message_id, view=layout)

        delivered = await replies.deliver(f"game {session.id}: hand view of seat {seat}", edit)
        if not delivered and session.hands.get(seat) is handle:
            # The player dismissed the message or the token died early: the table's
            # "Show my hand" button brings a fresh one.
            del session.hands[seat]

    def schedule_table_edit(self, session: Session) -> None:
        """Edit the table soon with the state of that moment; pending edits merge into one."""
        if session.table_edit is None or session.table_edit.done():
            session.table_edit = self.background.spawn(
                self._edit_table_later(session), f"table-{session.id}"
            )

    async def _edit_table_later(self, session: Session) -> None:
        await asyncio.sleep(self.table_delay)
        await self.update_table(session)

    async def update_table(self, session: Session) -> None:
        """Edit the table message to show the game now; post one if it has none or it is gone."""

        async def edit() -> None:
            assert session.table_message_id is not None
            public = session.game.view(None)
            channel = self.client.get_partial_messageable(session.channel_id)
            try:
                await channel.get_partial_message(session.table_message_id).edit(
                    content=render.table_content(public, session.seating, session.finished),
                    embed=render.table_embed(
                        public, session.seating, session.id, self.faces(), ended(session)
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
                public, session.seating, session.id, self.faces(), ended(session)
            ),
            view=table_view(session.id, session.finished),
            nonce=replies.nonce(*key),
        )
        session.table_message_id = message.id
        await self.store.set_table_message(session.id, message.id)

    def announce(self, session: Session, before: Game) -> None:
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
                post_nonce(session, "hand result", done + n),
                partial(render.hand_summary_embed, r, game.variant, session.seating),
            )
            for n, r in enumerate(game.hand_results[done:])
        ]
        if session.finished:
            over = partial(render.game_over_embed, game.view(None), session.seating)
            posts.append(
                ("game over", post_nonce(session, "game over"), partial(over, session.end_reason))
            )
        for what, nonce, draw in posts:
            try:
                embed = draw()
            except Exception:
                log.exception("game %d: the %s could not be drawn", session.id, what)
                continue
            view = game_over_view(session.id) if what == "game over" else None
            self.post(session, what, partial(channel.send, embed=embed, view=view, nonce=nonce))

    def announce_end(self, session: Session, reason: str) -> None:
        channel = self.client.get_partial_messageable(session.channel_id)
        embed = render.game_over_embed(session.game.view(None), session.seating, reason)
        nonce = post_nonce(session, "game over")
        post = partial(channel.send, embed=embed, view=game_over_view(session.id), nonce=nonce)
        self.post(session, "game over", post)
        self.schedule_table_edit(session)
        for seat in range(len(session.seats)):
            if not session.is_computer(seat):
                self.queue(session, partial(self.refresh_hand, session, seat, reason))
