"""The web table of games another process runs (shards in several processes on PostgreSQL).

A game is run by one process, its guild's shard's; a page may connect to any (behind a
load balancer, whichever takes the socket). For a game this process does not run, the
page is shown the game as the store has it: :class:`RemoteTables` loads it (the store's
``load_game``, the log replayed as a restart replays it, read only), keeps it while pages
show it, and loads it again each time the running process announces a change
(``bot.store.changes``: PostgreSQL's ``NOTIFY``, sent in the change's own transaction),
then shows it on :class:`~bot.web.screen.WebScreen` like any change: each page its own
viewer's view. Announcements that come while a load is under way make one more load, not
one each: a page is sent the newest view, as a slow page is.

What only the running process knows is not shown here: a member away (the turn timer's,
docs/rulings.md R9, which is not stored) shows as playing. A move or hint from such a
page is decided by the running process, which holds the game's lock, plays the computers
and shows each move on Discord: :attr:`RemoteTables.relay` asks it (``bot.web.relay``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from dataclasses import dataclass

from sqlalchemy.exc import SQLAlchemyError

from bot.sessions import GameSessions
from bot.sessions.state import Session, record_of, seating_of, table_of
from bot.store import GameNotFound, GameRow, GameStatus, Store, StoreClosed
from bot.store.asks import ANSWERS, ASKS
from bot.store.changes import Announced, ChangeFeed
from bot.table import Ending, Table
from bot.web.relay import Relay
from bot.web.screen import WebScreen
from engine.errors import RecordError
from engine.game import Game

__all__ = ["RemoteTables", "stored_session"]

log = logging.getLogger(__name__)


def stored_session(row: GameRow) -> Session:
    """The session of a stored game as the store has it, to show (never to run): its log
    replayed, its seats' resignations, and its end if it ended.

    Raises:
        RecordError: the log no longer replays (the running process abandons the game).
    """
    game = Game.from_record(record_of(row))
    table = table_of(row.id, row.seats, game)
    if row.status is not GameStatus.ACTIVE:
        table = _ended(table, row)
    return Session(table, row.guild_id, row.channel_id, row.seats, seating_of(row.seats, table))


def _ended(table: Table, row: GameRow) -> Table:
    """``table`` as the game ended: with the result the running process stored."""
    settled = table.settle()
    if settled is not None and settled.after.result is not None:
        return settled.after  # played to its end: the engine's winner, as stored
    if row.winner_seat is not None and row.status.value in set(Ending):
        ending = Ending(row.status.value)
        winner = table.seats[row.winner_seat].side
        try:
            result = table.standings(ending, winner, by=_ended_by(table, winner))
        except ValueError:
            pass  # a winner side the table no longer agrees with: ended, no result shown
        else:
            return dataclasses.replace(table, result=result)
    return dataclasses.replace(table, stopped=True)


def _ended_by(table: Table, winner: int) -> int | None:
    """The member's seat whose resignation or absence ended the game, as
    far as the store tells: it keeps the resignations a game went on after, not the one
    that ended it, nor who was away. The one losing member still playing; None where
    several could be."""
    losers = [s.number for s in table.seats if s.playing and s.side != winner]
    return losers[0] if len(losers) == 1 else None


@dataclass(eq=False, slots=True)
class _Mirror:
    """A game shown here and run elsewhere: its session as last loaded, and whether a
    change was announced since the load under way began."""

    session: Session | None = None
    turn_started: float = 0.0
    stale: bool = True
    loader: asyncio.Task[None] | None = None


class RemoteTables:
    """The games shown on this process's pages and run by another process.

    Args:
        store: the shared database (PostgreSQL).
        sessions: the games this process runs (a game run here is never mirrored).
        screen: the web screen its changes are shown on.

    Attributes:
        relay: asks the running process to decide a page's moves and hints, and decides
            those of other processes' pages at the games this process runs.
        feed: listens for the changes, asks and answers of every process.
    """

    def __init__(self, store: Store, sessions: GameSessions, screen: WebScreen) -> None:
        self.store = store
        self.sessions = sessions
        self.screen = screen
        self.relay = Relay(store, sessions)
        self.feed = ChangeFeed(
            store.connect_raw,
            self.heard,
            self.resync,
            also={ASKS: self.relay.asked, ANSWERS: self.relay.answered},
        )
        self._mirrors: dict[int, _Mirror] = {}

    def start(self) -> None:
        """Listen for the changes other processes announce."""
        self.feed.start()

    async def close(self) -> None:
        """Stop listening and loading (the pages are closed by the server)."""
        await self.feed.close()
        await self.relay.close()
        loaders = [m.loader for m in self._mirrors.values() if m.loader is not None]
        self._mirrors.clear()
        for loader in loaders:
            loader.cancel()
        await asyncio.gather(*loaders, return_exceptions=True)

    def runs_elsewhere(self, game_id: int) -> bool:
        """Whether ``game_id`` is shown here as another process runs it."""
        return game_id in self._mirrors and self.sessions.session(game_id) is None

    def current(self, game_id: int) -> Session | None:
        """The game as last loaded, if it is shown here and still runs."""
        mirror = self._mirrors.get(game_id)
        if mirror is None or mirror.session is None or mirror.session.finished:
            return None
        return mirror.session

    async def open(self, game_id: int) -> Session | None:
        """The game ``game_id`` as the store has it, to show on a page connecting now,
        which joins the screen before anything else awaits (no change falls between).
        None if there is no such game or it is over.

        Raises:
            sqlalchemy.exc.SQLAlchemyError, StoreClosed: the store failed.
        """
        mirror = self._mirrors.get(game_id)
        if mirror is None:
            mirror = self._mirrors[game_id] = _Mirror()
            self._load_soon(game_id, mirror)
        while mirror.session is None and mirror.loader is not None and not mirror.loader.done():
            await asyncio.shield(mirror.loader)
        if mirror.session is None:
            if self._mirrors.get(game_id) is not mirror:
                return None  # no such game, or its log no longer replays
            # The load failed (logged): this page asks the store itself, and is told.
            try:
                row = await self.store.load_game(game_id)
                session = stored_session(row)
            except (GameNotFound, RecordError):
                self._mirrors.pop(game_id, None)
                return None
            except BaseException:
                self._mirrors.pop(game_id, None)
                raise
            self._take(game_id, mirror, session, row.turn_started_at)
        found = self.current(game_id)
        if found is None:
            self.release(game_id)
        return found

    def release(self, game_id: int) -> None:
        """Forget ``game_id`` once no page shows it here."""
        if not self.screen.viewers(game_id):
            self._mirrors.pop(game_id, None)

    def heard(self, announced: Announced) -> None:
        """A change of ``announced.game`` was stored: load it again if it is shown here
        (a game this process runs shows its changes itself)."""
        mirror = self._mirrors.get(announced.game)
        if mirror is not None:
            self._load_soon(announced.game, mirror)

    def resync(self) -> None:
        """The feed listens (again): whatever was announced while it did not is lost, so
        every game shown here is loaded again."""
        for game_id, mirror in list(self._mirrors.items()):
            self._load_soon(game_id, mirror)

    def _load_soon(self, game_id: int, mirror: _Mirror) -> None:
        mirror.stale = True
        if mirror.loader is None or mirror.loader.done():
            mirror.loader = asyncio.create_task(self._load(game_id, mirror), name=f"web-{game_id}")

    async def _load(self, game_id: int, mirror: _Mirror) -> None:
        """Load the game while changes were announced since the last load began, and
        show each load that differs from the one before."""
        while mirror.stale and self._mirrors.get(game_id) is mirror:
            mirror.stale = False
            if self.sessions.session(game_id) is not None:
                # The game runs here now (its process moved): the manager shows it.
                self._mirrors.pop(game_id, None)
                return
            try:
                row = await self.store.load_game(game_id)
                session = stored_session(row)
            except (GameNotFound, RecordError):
                self._mirrors.pop(game_id, None)
                return
            except (SQLAlchemyError, StoreClosed, OSError) as error:
                # The next announcement, or the feed's resync, loads it again.
                log.warning("game %d: cannot read it for the web (%s)", game_id, error)
                return
            self._take(game_id, mirror, session, row.turn_started_at)

    def _take(self, game_id: int, mirror: _Mirror, session: Session, turn_started: float) -> None:
        before = mirror.session
        mirror.session = session
        mirror.turn_started = turn_started
        table = session.table
        if before is not None and _same(before.table, table):
            return  # an announcement of what the pages show already
        self.screen.show_stored(session, turn_started)
        if table.finished:
            self._mirrors.pop(game_id, None)


def _same(a: Table, b: Table) -> bool:
    """Whether two loads of a game show the same (the log, the resignations, the end)."""
    return (
        a.seq == b.seq
        and a.finished == b.finished
        and [s.resigned for s in a.seats] == [s.resigned for s in b.seats]
    )
