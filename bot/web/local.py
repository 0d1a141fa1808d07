"""``tuque-web`` / ``python -m bot.web.local``: play against computers in a browser, with
no Discord token and no account (``docs/web.md``, "Play without Discord").

It serves the web table (:class:`~bot.web.server.WebServer`) on this machine with a
home page at ``/``: the person's unfinished games, and a form per game of the family
(:mod:`bot.web.home`) that starts one with the person at seat 0 and computers in the
other seats, then sends the browser to the person's seat. The games run as the bot's
do, on the same session manager, store and computer players; the web is their only
screen, so nothing is sent to Discord (no client logs in). The games are kept in an
SQLite file, by default in the user's data folder, and an unfinished one goes on at
the next start.

Ctrl-C (SIGINT) or SIGTERM stops it cleanly, exit code 0: stopping is how a server
ends, and every game is kept. A port it cannot listen on, a database it cannot use,
or the database of a Discord bot is one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import logging
import os
import secrets
import signal
import sys
import webbrowser
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from pathlib import Path

from aiohttp import web

from bot import render
from bot.client import tune_gc
from bot.migrations import MigrationError
from bot.sessions import GameSessions, Session
from bot.store import GameNotFound, GameStatus, SeatRow, Store, StoreError
from bot.web.home import DEFAULT_LEVEL, FormRefused, NewGame, YourGame, page, parse_new
from bot.web.links import LinkRefused, Links
from bot.web.server import BURST, RATE_PER_SECOND, WebServer, WebUnavailable
from bot.web.sites import Sites
from bot.workers import computer_pool
from engine.variants import VARIANTS

__all__ = [
    "DEFAULT_MOVE_DELAY",
    "DEFAULT_PORT",
    "LINK_LIFETIME",
    "LOCAL_CHANNEL",
    "LOCAL_GUILD",
    "LOCAL_MEMBER",
    "ForeignDatabase",
    "LocalTable",
    "default_database",
    "main",
    "running",
]

log = logging.getLogger(__name__)

DEFAULT_PORT = 8000
"""The port ``tuque-web`` listens on unless told (``--port``; 0: any free port)."""
DEFAULT_MOVE_DELAY = 0.8
"""Seconds before each computer move (``--delay``): long enough to follow each card."""
LINK_LIFETIME = 24 * 3600.0
"""Seconds a seat's link opens it (the home page makes a fresh one at every visit, and
an open page is sent fresh tokens as it plays): a tab left open overnight reconnects."""

LOCAL_GUILD = 0
"""The guild the store files ``tuque-web``'s games under: no Discord guild has id 0."""
LOCAL_CHANNEL = 0
"""The channel the store files ``tuque-web``'s games under."""
LOCAL_MEMBER = 1
"""The member id of the person at the browser (seat 0 of every game here)."""

_NAME_LENGTH = 32
"""The longest ``--name``: a Discord display name's limit, which the table's layout fits."""

_PRIVATE_HEADERS = {
    # The home page carries the seats' links: never sent to another site as a referrer,
    # never cached. Within this server a browser sends it: with no-referrer its forms
    # would post with "Origin: null", which the check of /new cannot tell from a forgery.
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


class ForeignDatabase(Exception):
    """The database holds games of a Discord bot: ``tuque-web`` would play their
    computers' moves where no member sees them."""


def default_database() -> Path:
    """Where ``tuque-web`` keeps its games unless told (``--db``):
    ``$XDG_DATA_HOME/tuque/web.db``, by default ``~/.local/share/tuque/web.db``
    (created, with its folder, at the first start)."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "tuque" / "web.db"


def _page_refused(reason: str) -> web.Response:
    body = (
        "<!doctype html><meta charset=utf-8><title>Tuque: no game started</title>"
        '<link rel="stylesheet" href="/static/home.css"><main>'
        f"<h1>No game started</h1><p>{html.escape(reason)}</p>"
        '<p><a href="/">Back to the games</a></p></main>'
    )
    return web.Response(status=400, text=body, content_type="text/html")


class LocalTable:
    """The home page's routes over the running games: ``GET /`` and ``POST /new``.

    Args:
        sessions: the running games (the web is their only screen).
        links: makes the person's seat links (relative: ``/table/<id>?t=<token>``).
        name: the person's name at the table.
        sites: the server's names and origins (:attr:`WebServer.sites`): a form is
            taken from the server's own pages only.

    Attributes:
        address: ``http://host:port`` once serving (set by :func:`running`).
    """

    def __init__(self, sessions: GameSessions, links: Links, name: str, sites: Sites) -> None:
        self.sessions = sessions
        self.links = links
        self.name = name
        self.sites = sites
        self.address = ""
        self._rematches: dict[int, int] = {}
        """Each game played again, and the game that plays it again (this run's)."""
        self._rematching = asyncio.Lock()

    def games(self) -> list[Session]:
        """The person's unfinished games, newest first."""
        found = [
            s
            for s in self.sessions.running()
            if s.guild_id == LOCAL_GUILD and s.table.seat_of(LOCAL_MEMBER) is not None
        ]
        return sorted(found, key=lambda s: -s.id)

    def seat_link(self, session: Session) -> str:
        """The link to the person's seat of ``session`` (``/table/<id>?t=<token>``)."""
        seat = session.table.seat_of(LOCAL_MEMBER)
        assert seat is not None
        return self.links.seat_link(session.id, seat, LOCAL_MEMBER)

    async def home(self, request: web.Request) -> web.Response:
        """``GET /``: the person's games to resume and the forms to start one."""
        listed = []
        for session in self.games():
            game = session.game
            # The score as the table writes it: by side name, never "0–0–0–0–0".
            state = render.score_line(game.view(None), session.seating)
            if game.turn == session.table.seat_of(LOCAL_MEMBER):
                state += "; your turn"
            title = f"Game #{session.id}: {game.variant.title}"
            listed.append(YourGame(self.seat_link(session), title, state))
        return web.Response(text=page(listed), content_type="text/html", headers=_PRIVATE_HEADERS)

    async def new(self, request: web.Request) -> web.Response:
        """``POST /new``: start the game the form asks for and send the browser to the
        person's seat (303); a form refused is a 400 page saying why, nothing started."""
        if not self.sites.lets_in(request.headers.get("Origin"), request.headers.get("Host")):
            # A page of another site can post a form here from the person's browser.
            return _page_refused("That form came from another site: start games here.")
        try:
            new = parse_new((name, value) for name, value in (await request.post()).items())
        except FormRefused as refused:
            return _page_refused(str(refused))
        session = await self.start(new)
        raise web.HTTPSeeOther(self.seat_link(session), headers=_PRIVATE_HEADERS)

    async def rematch(self, request: web.Request) -> web.Response:
        """``POST /table/<id>/rematch``, the table's Play again once the game is over:
        the same game, options and computers' level again, as Discord's Rematch of a
        member alone with computers; the browser is sent to the person's new seat (303).
        The form carries the seat's link token (``t``), which is the gate, as for the
        table itself: another site cannot know it. Asked twice (a double click, a second
        tab), it sends to the rematch already started while it runs. A refused link, or
        a game not over, is a 400 page saying why, nothing started."""
        game_id = int(request.match_info["game"])
        token = (await request.post()).get("t")
        try:
            grant = self.links.check(token if isinstance(token, str) else "", game_id)
        except LinkRefused as refused:
            return _page_refused(str(refused))
        if grant.member != LOCAL_MEMBER:
            return _page_refused("Only the player of this game can play it again.")
        async with self._rematching:
            started = self.sessions.session(self._rematches.get(game_id, -1))
            if started is None:
                try:
                    row = await self.sessions.store.load_game(game_id)
                except GameNotFound:
                    return _page_refused("This game no longer exists.")
                if row.status is GameStatus.ACTIVE:
                    return _page_refused("This game isn't over yet.")
                level = next((s.level for s in row.seats if s.level is not None), DEFAULT_LEVEL)
                started = await self.start(NewGame(row.variant, level, row.options))
                self._rematches[game_id] = started.id
        raise web.HTTPSeeOther(self.seat_link(started), headers=_PRIVATE_HEADERS)

    async def start(self, new: NewGame) -> Session:
        """Deal and store the game ``new`` asks for, the person at seat 0, and set its
        computers playing."""
        variant = VARIANTS[new.variant]
        sides = variant.configured(variant.options(**new.options)).sides
        seats = [SeatRow.human(0, LOCAL_MEMBER, self.name, side=sides[0])] + [
            SeatRow.computer(s, new.level, side=sides[s]) for s in range(1, len(sides))
        ]
        session = await self.sessions.start(
            LOCAL_GUILD, LOCAL_CHANNEL, new.variant, dict(new.options), seats
        )
        # A computer may deal or lead first: its moves start as they would after a
        # restart.
        self.sessions.rescue()
        log.info("game %d started at %s", session.id, new.variant)
        return session


@asynccontextmanager
async def running(
    database: Path,
    *,
    host: str,
    port: int,
    name: str,
    move_delay: float,
    executor: Executor,
    rate: float = RATE_PER_SECOND,
    burst: int = BURST,
) -> AsyncIterator[LocalTable]:
    """Serve the web table and its home page on ``host``:``port`` (0: any free port)
    with the games of ``database``, until the block ends; unfinished games go on.

    Args:
        database: the SQLite file (created with its folder; migrated as the bot's).
        name: the person's name in the games started now.
        move_delay: seconds before each computer move.
        executor: where the computers think (a process pool; a thread pool in tests).
        rate, burst: the messages a page may send, as :class:`WebServer` takes them
            (tests that click the moment a turn shows raise them).

    Yields:
        the home page's routes, with :attr:`LocalTable.address` set.

    Raises:
        bot.store.StoreError, bot.migrations.MigrationError: the database cannot be used.
        ForeignDatabase: it holds a Discord bot's games.
        WebUnavailable: nothing can listen at ``host``:``port``.
    """
    store = await Store.open(database)
    try:
        # A bot's games in DMs share guild 0 (NO_GUILD) but have a channel.
        rows = await store.active_games()
        if any((row.guild_id, row.channel_id) != (LOCAL_GUILD, LOCAL_CHANNEL) for row in rows):
            raise ForeignDatabase(f"{database} holds a Discord bot's games")
        links = Links(secrets.token_bytes(32), "", LINK_LIFETIME)
        # No turn timer: nobody else waits for the person, and no sweep runs here.
        server = WebServer.without_discord(
            store,
            executor,
            links,
            None,
            move_delay=move_delay,
            home="/",
            rematch=lambda session: f"/table/{session.id}/rematch",
            rate=rate,
            burst=burst,
        )
        sessions = server.sessions
        local = LocalTable(sessions, links, name, server.sites)
        server.app.router.add_get("/", local.home)
        server.app.router.add_post("/new", local.new)
        server.app.router.add_post(r"/table/{game:\d+}/rematch", local.rematch)
        try:
            # Listen first: a port in use stops the start before any game moves.
            local.address = await server.start(host, port)
            await sessions.restore()
            yield local
        finally:
            await server.close()
            await sessions.close()
    finally:
        await store.close()


def _fail(text: str) -> int:
    print(f"tuque-web: {text}", file=sys.stderr)
    return 2


def _name(text: str) -> str:
    name = " ".join(text.split())
    if not 1 <= len(name) <= _NAME_LENGTH:
        raise argparse.ArgumentTypeError(f"a name of 1 to {_NAME_LENGTH} characters")
    return name


def _delay(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= seconds <= 60:
        raise argparse.ArgumentTypeError("from 0 to 60 seconds")
    return seconds


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("from 0 to 65535 (0: any free port)")
    return port


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tuque-web",
        description="Play Tuque and the Euchre family against the computer in your browser: "
        "no Discord token, no account. Serves the table at a local address; Ctrl-C stops it, "
        "and an unfinished game goes on at the next start.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: %(default)s, this machine only; "
        "0.0.0.0 lets anyone on your network play as you)",
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help="the port to listen on (default: %(default)s; 0: any free port)",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"the SQLite file that keeps the games (default: {default_database()})",
    )
    parser.add_argument(
        "--open", action="store_true", help="open the home page in your web browser"
    )
    parser.add_argument(
        "--name", type=_name, default="You", help="your name at the table (default: %(default)s)"
    )
    parser.add_argument(
        "--delay",
        type=_delay,
        default=DEFAULT_MOVE_DELAY,
        metavar="SECONDS",
        help="the pause before each computer move (default: %(default)s)",
    )
    return parser


async def _serve(args: argparse.Namespace) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    database = args.db or default_database()
    # One process: one person plays one game at a time, and a computer moves at a time.
    executor = computer_pool(1)
    try:
        async with running(
            database,
            host=args.host,
            port=args.port,
            name=args.name,
            move_delay=args.delay,
            executor=executor,
        ) as local:
            home = f"{local.address}/"
            print(
                f"tuque-web: playing at {home} (Ctrl-C stops; games kept in {database})", flush=True
            )
            if args.open:
                await asyncio.to_thread(webbrowser.open, home)
            await stop.wait()
    except WebUnavailable as error:
        return _fail(f"cannot listen at {error}: choose another --port (0: any free one)")
    except (StoreError, MigrationError) as error:
        return _fail(f"cannot use the database (--db {database}): {error}")
    except ForeignDatabase as error:
        return _fail(f"{error}: give tuque-web a file of its own with --db")
    finally:
        # Waits for a computer's move in progress (a fraction of a second).
        await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
    print("tuque-web: stopped; unfinished games go on at the next start", flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the browser game until Ctrl-C or SIGTERM.

    Args:
        argv: the arguments after the program's name; default ``sys.argv[1:]``.

    Returns:
        0 after a clean stop; 2 for bad arguments, or (after one line on stderr) when
        the port is taken, the database cannot be used or is a Discord bot's.
    """
    try:
        args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    logging.basicConfig(
        level=logging.WARNING, format="tuque-web: %(levelname)s %(name)s: %(message)s"
    )
    # discord.py warns, as a client is made, of voice support this client never uses.
    logging.getLogger("discord").setLevel(logging.ERROR)
    # A click leaves cyclic garbage here as on the bot: its collector settings (the
    # bot's p99, bot.client.tune_gc).
    tune_gc()
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(_serve(args))
    # A Ctrl-C before the signal handlers were in place: nothing had started.
    return 0


if __name__ == "__main__":
    sys.exit(main())
