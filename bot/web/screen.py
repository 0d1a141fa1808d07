"""The web table's screen: each stored change pushed to every open page of its game,
each page sent only its viewer's view.

:class:`WebScreen` is one of :attr:`bot.sessions.GameSessions.screens`, beside
Discord's; both are shown every change that :meth:`GameSessions._take` stores, so a
move made on either shows on both. Nothing here waits on a socket: a change queues a
frame per page, and each page's writer sends them. A view frame replaces a view still
queued (each is the whole view), so a slow page costs one frame of memory, not a
backlog.

Each view frame carries the game's ``clock`` beside the view (not in it, so a resumed
page's tag still matches): when the turn began and the server's time, so a page draws
the turn timer whatever its own clock says.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from dataclasses import dataclass, field

from aiohttp import WSCloseCode, WSMsgType, web

from bot.sessions.state import Session
from bot.table import Change, Table
from bot.web.links import Grant, Links
from bot.web.protocol import encode, encoded_views, view_frame, view_of

__all__ = ["GAME_OVER", "Viewer", "WebScreen"]

log = logging.getLogger(__name__)

GAME_OVER = 4000
"""The close code once a page was sent the game's last view (the game is over)."""


@dataclass(eq=False, slots=True)
class Viewer:
    """One open page: its socket, what its link grants, and its frames to send.

    Attributes:
        socket: the page's websocket.
        grant: the link it opened with (game, seat, member).
        frames: frames waiting to be sent, oldest first; ``(is a view, JSON text in
            UTF-8)``.
        closing: the close code and reason to send once the frames are out, if any.
    """

    socket: web.WebSocketResponse
    grant: Grant
    frames: deque[tuple[bool, bytes]] = field(default_factory=deque)
    closing: tuple[int, str] | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    def seat_at(self, table: Table) -> int | None:
        """The seat whose view this page is sent at ``table``: the link's seat while its
        member plays it, else the public view (a member who resigned sees what a
        spectator does: a computer plays their cards now)."""
        seat = self.grant.seat
        if seat is None:
            return None
        s = table.seats[seat]
        return seat if s.member == self.grant.member and s.playing else None

    def send(self, text: bytes, *, view: bool = False) -> None:
        """Queue ``text`` (a frame's JSON in UTF-8, sent as a text frame); a ``view``
        drops any view still queued (it is out of date)."""
        if view and self.frames:
            self.frames = deque(f for f in self.frames if not f[0])
        self.frames.append((view, text))
        self._wake.set()

    def close(self, code: int, reason: str) -> None:
        """Close the page with ``code`` and ``reason`` once its queued frames are sent."""
        self.closing = (code, reason)
        self._wake.set()

    async def write(self) -> None:
        """Send the queued frames as they come, until closed (the page's writer task)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.frames and not self.socket.closed:
                _, text = self.frames.popleft()
                try:
                    # The frame is UTF-8 already: send_str would encode it again.
                    await self.socket.send_frame(text, WSMsgType.TEXT)
                except ConnectionError:
                    # The page went away: its reader sees the socket close and ends.
                    return
            if self.closing is not None:
                with contextlib.suppress(ConnectionError):
                    await self.socket.close(code=self.closing[0], message=self.closing[1].encode())
                return


class WebScreen:
    """Shows each stored change on every open page of its game (the manager's
    :class:`~bot.sessions.Screen` protocol).

    Args:
        links: renews each page's token with each view, so a page can reconnect as
            long as it stays open.
    """

    def __init__(self, links: Links) -> None:
        self.links = links
        self._viewers: dict[int, set[Viewer]] = {}
        # When each running game's turn began (seconds since the epoch), as the store
        # keeps it: learnt from each change that passes the turn, and from the store for
        # a game this process has not seen change (connect asks, turn_began).
        self._turn_started: dict[int, float] = {}

    def knows_turn(self, game_id: int) -> bool:
        """Whether the start of ``game_id``'s turn is known here."""
        return game_id in self._turn_started

    def turn_began(self, game_id: int, started: float) -> None:
        """Note that ``game_id``'s turn began at ``started`` (seconds since the epoch),
        read from the store: a change shown meanwhile knows better and stands."""
        self._turn_started.setdefault(game_id, started)

    def clock(self, game_id: int) -> dict[str, float] | None:
        """The ``clock`` of ``game_id``'s frames: ``turn_started`` (when its turn
        began) and ``now`` (the server's time), in seconds since the epoch; None if the
        turn's start is not known."""
        started = self._turn_started.get(game_id)
        return None if started is None else {"turn_started": started, "now": time.time()}

    def viewers(self, game_id: int) -> frozenset[Viewer]:
        """The pages open at ``game_id``."""
        return frozenset(self._viewers.get(game_id, ()))

    def add(self, viewer: Viewer) -> None:
        """Send ``viewer`` every change of its game from now on."""
        self._viewers.setdefault(viewer.grant.game, set()).add(viewer)

    def remove(self, viewer: Viewer) -> None:
        """Stop sending ``viewer`` changes (its page went away)."""
        pages = self._viewers.get(viewer.grant.game)
        if pages is not None:
            pages.discard(viewer)
            if not pages:
                del self._viewers[viewer.grant.game]

    def view_frame(self, session: Session, viewer: Viewer) -> tuple[bytes, str]:
        """``viewer``'s ``view`` frame of the game now, and the view's tag."""
        view_text, tag = encode(view_of(session, viewer.seat_at(session.table)))
        token = self.links.renewed(viewer.grant)
        clock = self.clock(session.id)
        return view_frame(session.table.seq, tag, token, view_text, clock), tag

    def show(self, session: Session, change: Change) -> None:
        """Queue each page of the game its view after ``change``; once the game is over,
        close the pages after that last view."""
        if change.after.finished:
            self._turn_started.pop(session.id, None)
        elif change.new_turn:
            # The store wrote this change with the same start a moment ago.
            self._turn_started[session.id] = time.time()
        self._push(session, change)

    def show_stored(self, session: Session, turn_started: float) -> None:
        """Queue each page of the game its view of ``session``, a game another process
        runs as this one just read it from the store (:mod:`bot.web.remote`), whose turn
        began at ``turn_started`` (seconds since the epoch, the store's); once the game
        is over, close the pages after that last view."""
        if session.finished:
            self._turn_started.pop(session.id, None)
        else:
            # The store's start, not this process's clock: the change was made elsewhere.
            self._turn_started[session.id] = turn_started
        self._push(session, Change(session.table, session.table))

    def _push(self, session: Session, change: Change) -> None:
        table = change.after
        pages = self._viewers.get(session.id)
        if not pages:
            return
        seats = [(viewer, viewer.seat_at(table)) for viewer in pages]
        # Each view built once, its shared parts built and encoded once (encoded_views),
        # and each distinct frame made once: pages of one seat, and spectators, share theirs.
        encoded = encoded_views(session, (s for _, s in seats))
        clock = self.clock(session.id)
        tokens: dict[tuple[int | None, int | None], str] = {}
        frames: dict[tuple[int | None, str], bytes] = {}
        for viewer, seat in seats:
            grant = viewer.grant
            token = tokens.get((grant.seat, grant.member))
            if token is None:
                token = tokens[grant.seat, grant.member] = self.links.renewed(grant)
            text = frames.get((seat, token))
            if text is None:
                view_text, tag = encoded[seat]
                text = frames[seat, token] = view_frame(table.seq, tag, token, view_text, clock)
            viewer.send(text, view=True)
            if table.finished:
                viewer.close(GAME_OVER, f"Game #{session.id} is over.")

    def close_all(self) -> None:
        """Close every page: the bot is stopping (a page reconnects to a restarted bot)."""
        for pages in self._viewers.values():
            for viewer in pages:
                viewer.close(WSCloseCode.GOING_AWAY, "The bot is restarting.")
