"""The web table's server, in the bot's process: the page, its files and one websocket
route per table (``docs/web.md``).

Routes:

- ``GET /table/<game id>?t=<token>``: the page (``static/index.html``) for a valid link;
  a link refused (altered, expired, another game, a seat no longer its member's) is a
  403 page saying why.
- ``GET /static/...``: the page's files, from the package's ``static`` folder.
- ``GET /ws/<game id>?t=<token>[&seq=N&tag=T]``: the page's websocket; ``seq`` and ``tag``
  resume from the view the page holds.
- ``GET /activity``, and ``GET /`` where no home page takes it (the bot's server): the
  Activity's entry, the same page in its Activity mode (``static/js/activity.js``).
- ``GET /api/activity/config``: what the page inside Discord needs before it signs in
  (the application's id, which is public).
- ``POST /api/activity/token``: the table inside Discord signs a member in
  (:mod:`bot.web.activity`) and is told the games of the Activity's channel.
- ``POST /api/activity/tables``: a signed-in member is told the games of the
  Activity's channel again (the page's list, after a start refused for a game it lacks).
- ``POST /api/activity/start``: a signed-in member starts a game in the Activity's
  channel, against the computers or with the people in the Activity.
- ``GET /event/<event id>?t=<token>`` and ``GET /api/event/<event id>?t=<token>``: an
  event's live standings page and the data it polls (:mod:`bot.web.standings`).

Every route answers only the names the server is reached by, every socket opens only
from the server's own pages (and the Activity's), and every answer carries the
headers that close it to other sites (:mod:`bot.web.sites`).

An ``act`` goes to :meth:`bot.sessions.GameSessions.act`, the path a Discord click
takes; its outcome reaches every page through :class:`~bot.web.screen.WebScreen`. A
``hint`` goes to :meth:`~bot.sessions.GameSessions.web_hint`, the Hint button's search
and words, and is answered to its page alone. Both go there through the process that
runs the game where another does (:mod:`bot.web.relay`).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import discord
from aiohttp import WSCloseCode, WSMsgType, web
from sqlalchemy.exc import SQLAlchemyError
from zlib_ng import zlib_ng

from bot.options import DEFAULT_LEVEL, game_options, seat_rows
from bot.sessions import GameSessions, Session
from bot.sessions.manager import Refusal
from bot.sessions.state import NO_GUILD
from bot.store import AlreadyHere, AlreadyPlaying, GameNotFound, Store, StoreClosed
from bot.store.settings import GuildSettings
from bot.web.activity import ActivityAuth, ActivityRefused, Seat
from bot.web.links import Grant, LinkRefused, Links
from bot.web.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Act,
    Malformed,
    frame,
    parse,
    read_json,
)
from bot.web.relay import Unanswered
from bot.web.remote import RemoteTables
from bot.web.screen import Viewer, WebScreen
from bot.web.sites import ACTIVITY_POLICY, Sites, activity_origin, secure
from bot.web.standings import POLL_SECONDS, StandingsPages
from engine.variants import VARIANTS

__all__ = [
    "BURST",
    "ELSEWHERE",
    "LINK_REFUSED",
    "NO_GAME",
    "RATE_PER_SECOND",
    "STATIC",
    "WebServer",
    "WebUnavailable",
]

log = logging.getLogger(__name__)

_T = TypeVar("_T")

STATIC = Path(str(resources.files("bot.web") / "static"))
"""The page's files, shipped in the package (pyproject's package data)."""

RATE_PER_SECOND = 4.0
"""Messages a page may send per second, on average (a player clicks far fewer)."""
BURST = 8
"""Messages a page may send at once before :data:`RATE_PER_SECOND` applies."""

LINK_REFUSED = 4401
"""The close code of a socket whose link is refused (the ``refused`` frame says why)."""
NO_GAME = 4404
"""The close code of a socket to a game that does not run here."""
ELSEWHERE = "elsewhere"
"""The ``refused`` kind of an act or hint from a page of a game another process runs,
which no process running it answered in time."""


class WebUnavailable(Exception):
    """The web server cannot listen on ``WEB_HOST``:``WEB_PORT``; the message says why."""


class _Bucket:
    """A token bucket: ``burst`` messages at once, ``rate`` per second after."""

    def __init__(self, rate: float, burst: int) -> None:
        self._rate = rate
        self._burst = burst
        self._tokens = float(burst)
        self._at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


def _refused_page(reason: str, home: str | None) -> web.Response:
    body = (
        "<!doctype html><meta charset=utf-8><title>Tuque: link refused</title>"
        f"<h1>This table cannot open</h1><p>{html.escape(reason)}</p>"
    )
    if home is not None:
        body += f'<p><a href="{html.escape(home)}">Start or resume a game</a></p>'
    return web.Response(status=403, text=body, content_type="text/html", headers=_PRIVATE_HEADERS)


_ACTIVITY_OFF = (
    "The table inside Discord is off on this bot: its operator has not set DISCORD_CLIENT_SECRET."
)

_UNANSWERED = (
    "The bot's process that runs this game did not answer in time: try again in a moment. "
    "If your move was made, the table shows it."
)

_PRIVATE_HEADERS = {
    # The link's token is in the page's address: never sent on as a referrer or kept.
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class WebServer:
    """The web table: serves the page and its sockets, and shows changes on them.

    Args:
        sessions: the running games; an ``act`` is decided by :meth:`GameSessions.act`.
        links: checks the links (and makes the fresh tokens views carry).
        timer_defaults: the bot's turn timer, for a server with none of its own; None
            where no turn timer runs (``tuque-web``: ``hello`` says ``timer: null``).
        rate, burst: the messages a page may send per second on average, and at once
            (beyond them it floods: refused and closed).
        home: where a page starts another game (``hello``'s ``home``, and a link on the
            refused page): ``tuque-web``'s home page (``/``); None from the bot, whose
            games start on Discord.
        rematch: a game's Play again address, for ``hello``'s ``rematch`` (the page
            posts its link's token there once the game is over): ``tuque-web``'s
            ``/table/<id>/rematch``, or None for a game that has none; None from the
            bot, whose rematches are Discord's Rematch button.
        activity: signs members in to the table inside Discord; None where Activities
            are off (``POST /api/activity/token`` then says so with a 503).
        serves: whether a guild's games run in this process (the bot's
            ``serves_guild``); the Activity starts no game of another process's guild.
        remote: shows the games other processes run, as the store has them (shards
            in several processes on PostgreSQL: :mod:`bot.web.remote`); None where this
            process runs every game it shows (SQLite, ``tuque-web``).
        public_url: where members' browsers reach the server (``WEB_URL``), if
            elsewhere than where it listens: its name is answered and its origin let
            in (:mod:`bot.web.sites`).
        event_poll: seconds between two polls of an event's standings page
            (:mod:`bot.web.standings`).

    Attributes:
        screen: the screen to add to ``sessions.screens``.
        address: ``http://host:port`` once started.
        sites: the names answered and the origins let in: ``localhost`` and IP
            literals, ``public_url``'s, the name listened on (:meth:`start`), and the
            Activity's origin where Activities are on.
    """

    def __init__(
        self,
        sessions: GameSessions,
        links: Links,
        timer_defaults: GuildSettings | None,
        *,
        rate: float = RATE_PER_SECOND,
        burst: int = BURST,
        home: str | None = None,
        rematch: Callable[[Session], str | None] | None = None,
        activity: ActivityAuth | None = None,
        serves: Callable[[int], bool] = lambda guild: True,
        remote: bool = False,
        public_url: str | None = None,
        event_poll: float = POLL_SECONDS,
    ) -> None:
        self.sessions = sessions
        self.activity = activity
        self.serves = serves
        self.home = home
        self.rematch = rematch
        self.rate = rate
        self.burst = burst
        self.links = links
        self.timer_defaults = timer_defaults
        self.screen = WebScreen(links)
        self.remote = RemoteTables(sessions.store, sessions, self.screen) if remote else None
        self.address: str | None = None
        self._runner: web.AppRunner | None = None
        self.sites = Sites()
        if public_url is not None:
            self.sites.add_origin(public_url)
        if activity is not None:
            self.sites.add_origin(activity_origin(activity.client_id))
        self.app = web.Application(middlewares=[self.sites.middleware])
        self.app.on_response_prepare.append(secure)
        self.app.router.add_get(r"/table/{game:\d+}", self._page)
        self.app.router.add_get(r"/ws/{game:\d+}", self._socket)
        self.app.router.add_static("/static/", STATIC)
        self.app.router.add_get("/activity", self._activity_page)
        self.standings = StandingsPages(
            sessions.store, links, STATIC, sessions.client, poll=event_poll
        )
        self.standings.install(self.app)
        if home is None:
            # Discord opens an Activity at its URL mapping's root; tuque-web's home page
            # is there instead (and it has no Activity).
            self.app.router.add_get("/", self._activity_page)
        self.app.router.add_get("/api/activity/config", self._activity_config)
        self.app.router.add_post("/api/activity/token", self._activity_token)
        self.app.router.add_post("/api/activity/tables", self._activity_tables)
        self.app.router.add_post("/api/activity/start", self._activity_start)

    @classmethod
    def without_discord(
        cls,
        store: Store,
        executor: Executor,
        links: Links,
        timer_defaults: GuildSettings | None,
        *,
        move_delay: float = 0.0,
        **options: Any,
    ) -> WebServer:
        """A web table whose games no Discord shows: the session manager on ``store``
        with this server as its only screen (``tuque-web``, the screenshots, the tests).
        Its client never logs in (nothing reaches it: ``GameSessions.on_discord``), and
        no table picture is drawn, so ``executor`` is where the computers think and the
        manager's drawer alike. ``options`` are the server's own (``home``, ``rate``...).
        Start it, and close it and then ``server.sessions``, as any."""
        client = discord.Client(intents=discord.Intents.default())
        sessions = GameSessions(
            client, store, executor, executor, move_delay=move_delay, table_delay=0
        )
        server = cls(sessions, links, timer_defaults, **options)
        sessions.screens = [server.screen]
        return server

    async def start(self, host: str, port: int) -> str:
        """Listen on ``host``:``port`` (0: any free port) and return the address; a
        ``host`` given by name is answered to (:attr:`sites`).

        Raises:
            WebUnavailable: nothing can listen there.
        """
        self.sites.add_name(host)
        # Every page negotiates permessage-deflate, and deflating each view frame was
        # a sixth of a click's CPU with the stdlib's zlib (docs/web.md); zlib-ng
        # writes the same format in 0.6 of its time with 1,000 tables' compressors
        # interleaved (10% more bytes). Process-wide: aiohttp's
        # other (de)compression, the Discord client's included, takes it too.
        aiohttp.set_zlib_backend(zlib_ng)
        runner = web.AppRunner(
            self.app, access_log=None, handle_signals=False, shutdown_timeout=1.0
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as error:
            await runner.cleanup()
            known = error.errno is not None and error.errno > 0
            reason = os.strerror(error.errno) if known else error.strerror or str(error)
            raise WebUnavailable(f"{host}:{port}: {reason}") from error
        self._runner = runner
        if self.remote is not None:
            self.remote.start()
        bound_host, bound_port = runner.addresses[0][:2]
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        self.address = f"http://{shown}:{bound_port}"
        log.info("web table at %s", self.address)
        return self.address

    async def close(self) -> None:
        """Close every page and stop serving (the port is free when this returns)."""
        self.screen.close_all()
        if self.remote is not None:
            await self.remote.close()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    def _grant(self, request: web.Request) -> Grant:
        """The grant of the request's link to its game, as the table stands.

        Raises:
            LinkRefused: the link is refused, or its seat is no longer its member's.
        """
        game_id = int(request.match_info["game"])
        grant = self.links.check(request.query.get("t", ""), game_id)
        session = self.sessions.session(game_id)
        if grant.seat is not None and session is not None:
            seats = session.table.seats
            if grant.seat >= len(seats) or seats[grant.seat].member != grant.member:
                raise LinkRefused("This link is for another seat of this game.")
        return grant

    async def _page(self, request: web.Request) -> web.StreamResponse:
        try:
            self._grant(request)
        except LinkRefused as refused:
            return _refused_page(str(refused), self.home)
        return web.FileResponse(STATIC / "index.html", headers=_PRIVATE_HEADERS)

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not self.sites.lets_in(request.headers.get("Origin"), request.headers.get("Host")):
            # Another site's page, in a player's browser: no socket, nothing read.
            return web.Response(status=403, text="This table opens from its own pages only.")
        socket = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES, heartbeat=30.0)
        await socket.prepare(request)
        game_id = int(request.match_info["game"])
        # A browser cannot read a refused upgrade's body: the socket opens, says why
        # in a frame, and closes.
        try:
            grant = self._grant(request)
        except LinkRefused as refused:
            await self._refuse(socket, LINK_REFUSED, "link", str(refused))
            return socket
        session = self.sessions.session(game_id)
        if session is None and self.remote is not None:
            session = await self._elsewhere(socket, grant)
            if socket.closed:
                return socket
        if session is None:
            reason = f"Game #{game_id} is not running: it is over, or the bot restarted it."
            await self._refuse(socket, NO_GAME, "no_game", reason)
            return socket
        timer = None
        if self.timer_defaults is not None:
            settings = await self.sessions.store.guild_settings(
                session.guild_id, self.timer_defaults
            )
            timer = {
                "reminder_seconds": settings.reminder_seconds,
                "away_seconds": settings.away_seconds,
            }
        # An event's table says the round and its clock (docs/events.md, "On the web").
        event = await self.standings.for_table(game_id)
        if not self.screen.knows_turn(game_id):
            with contextlib.suppress(GameNotFound):
                self.screen.turn_began(game_id, await self.sessions.store.turn_started(game_id))
        if self.sessions.session(game_id) is None and self.remote is not None:
            # Another process's game: its newest load (each load is a new session).
            session = self.remote.current(game_id)
            if session is None:
                reason = f"Game #{game_id} is over."
                await self._refuse(socket, NO_GAME, "no_game", reason)
                return socket
        viewer = Viewer(socket, grant)
        # No await between the snapshot and joining the screen: no change falls between.
        view_text, tag = self.screen.view_frame(session, viewer)
        self.screen.add(viewer)
        viewer.send(
            frame(
                "hello",
                v=PROTOCOL_VERSION,
                game=game_id,
                seat=grant.seat,
                timer=timer,
                limits={
                    "max_message_bytes": MAX_MESSAGE_BYTES,
                    "rate_per_second": self.rate,
                    "burst": self.burst,
                },
                home=self.home,
                rematch=None if self.rematch is None else self.rematch(session),
                event=event,
            )
        )
        seq = session.table.seq
        if request.query.get("seq") == str(seq) and request.query.get("tag") == tag:
            token = self.links.renewed(grant)
            viewer.send(frame("resumed", seq=seq, token=token, clock=self.screen.clock(game_id)))
        else:
            viewer.send(view_text, view=True)
        writer = asyncio.create_task(viewer.write(), name=f"web-{game_id}")
        try:
            await self._read(socket, viewer)
        finally:
            self.screen.remove(viewer)
            if self.remote is not None:
                self.remote.release(game_id)
            if not writer.done():
                if viewer.closing is None:
                    viewer.close(WSCloseCode.OK, "")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(writer, 5)
        return socket

    async def _elsewhere(self, socket: web.WebSocketResponse, grant: Grant) -> Session | None:
        """The game of ``grant`` as the store has it, run by another process (None: no
        such game running); the socket is refused (and closed) if the link's seat is no
        longer its member's, or the store failed."""
        remote = self.remote
        if remote is None:
            return None
        try:
            session = await remote.open(grant.game)
        except Exception:
            log.exception("game %d: cannot read it for a page", grant.game)
            reason = "The game could not be read just now: reload the page to try again."
            await self._refuse(socket, WSCloseCode.TRY_AGAIN_LATER, "error", reason)
            return None
        if session is not None and grant.seat is not None:
            seats = session.table.seats
            if grant.seat >= len(seats) or seats[grant.seat].member != grant.member:
                reason = "This link is for another seat of this game."
                await self._refuse(socket, LINK_REFUSED, "link", reason)
                remote.release(grant.game)
                return None
        return session

    async def _refuse(
        self, socket: web.WebSocketResponse, code: int, kind: str, reason: str
    ) -> None:
        await socket.send_frame(frame("refused", kind=kind, reason=reason), WSMsgType.TEXT)
        await socket.close(code=code, message=reason.encode()[:120])

    async def _read(self, socket: web.WebSocketResponse, viewer: Viewer) -> None:
        """Decide each message of the page until it goes away or floods."""
        bucket = _Bucket(self.rate, self.burst)
        async for message in socket:
            if message.type is not WSMsgType.TEXT:
                # aiohttp answers pings and closes itself; binary is no message of ours.
                if message.type is WSMsgType.BINARY:
                    viewer.send(frame("refused", kind="malformed", reason="Send text frames."))
                continue
            if not bucket.take():
                viewer.send(frame("refused", kind="flood", reason="Too many messages."))
                viewer.close(WSCloseCode.POLICY_VIOLATION, "Too many messages: reconnect.")
                return
            try:
                asked = parse(message.data)
            except Malformed as error:
                viewer.send(frame("refused", kind="malformed", reason=str(error)))
                continue
            if isinstance(asked, Act):
                await self._act(viewer, asked.seq, asked.action)
            else:
                # Answered before the next message is read: a page waits for its hint.
                await self._hint(viewer, asked.seq)

    async def _act(self, viewer: Viewer, seq: int, action: int) -> None:
        grant = viewer.grant
        if grant.member is None:
            reason = "You are watching this game: only its players act."
            viewer.send(frame("refused", kind="spectator", reason=reason, seq=seq))
            return
        decide = self.sessions.act
        if self.remote is not None and self.remote.runs_elsewhere(grant.game):
            decide = self.remote.relay.act
        try:
            await decide(grant.game, grant.member, seq, action)
        except Refusal as refusal:
            viewer.send(frame("refused", kind=refusal.kind.value, reason=refusal.reason, seq=seq))
        except Unanswered:
            viewer.send(frame("refused", kind=ELSEWHERE, reason=_UNANSWERED, seq=seq))
        except Exception:
            # The store failed before the change was kept: nothing changed, say so.
            log.exception("game %d: a web action failed", grant.game)
            reason = "That move could not be saved: nothing changed, try again."
            viewer.send(frame("refused", kind="error", reason=reason, seq=seq))

    async def _hint(self, viewer: Viewer, seq: int) -> None:
        grant = viewer.grant
        if grant.member is None:
            reason = "You are watching this game: only its players ask for hints."
            viewer.send(frame("refused", kind="spectator", reason=reason, seq=seq))
            return
        advise = self.sessions.web_hint
        if self.remote is not None and self.remote.runs_elsewhere(grant.game):
            advise = self.remote.relay.hint
        try:
            action, text = await advise(grant.game, grant.member, seq)
        except Refusal as refusal:
            viewer.send(frame("refused", kind=refusal.kind.value, reason=refusal.reason, seq=seq))
        except Unanswered:
            viewer.send(frame("refused", kind=ELSEWHERE, reason=_UNANSWERED, seq=seq))
        except Exception:
            log.exception("game %d: a web hint failed", grant.game)
            reason = "That hint could not be counted: try again."
            viewer.send(frame("refused", kind="error", reason=reason, seq=seq))
        else:
            viewer.send(frame("hint", seq=seq, action=action, text=text))

    async def _activity_page(self, request: web.Request) -> web.StreamResponse:
        """The page in its Activity mode: it reads Discord's query itself (``frame_id``,
        ``instance_id``) and signs in; nothing here depends on the query. Discord's
        client frames it, and only Discord's (:data:`~bot.web.sites.ACTIVITY_POLICY`)."""
        return web.FileResponse(
            STATIC / "index.html",
            headers={**_PRIVATE_HEADERS, "Content-Security-Policy": ACTIVITY_POLICY},
        )

    async def _activity_config(self, request: web.Request) -> web.Response:
        """``{"client_id", "variants"}``: the application's id, which the SDK needs before
        it can ask for a sign-in code (public: it is in every install link), and the games
        a member may start (``{"name", "title"}``, the engine's order, Tuque first). A
        503 ``off`` where Activities are off, as a sign-in would be, so the page says so
        at once."""
        if self.activity is None:
            return _refusal(ActivityRefused(503, "off", _ACTIVITY_OFF))
        variants = [{"name": name, "title": v.title} for name, v in VARIANTS.items()]
        return web.json_response(
            {"client_id": str(self.activity.client_id), "variants": variants},
            headers=_PRIVATE_HEADERS,
        )

    async def _activity_asked(
        self, request: web.Request, fields: str
    ) -> tuple[ActivityAuth, dict[str, Any]]:
        """What signs members in, and the request's JSON object (naming its ``fields``).

        Raises:
            ActivityRefused: Activities are off (503), or the body is no JSON object.
        """
        if self.activity is None:
            raise ActivityRefused(503, "off", _ACTIVITY_OFF)
        return self.activity, await _json_object(request, fields)

    async def _activity_token(self, request: web.Request) -> web.Response:
        """Sign a member in to the table inside Discord: ``{"code", "instance_id"}`` in,
        the member's access token and their channel's games out (docs/web.md, "Inside
        Discord: the Activity"); any refusal is ``{"error", "reason"}`` alone."""
        try:
            seat, tables, events = await self._listed(request, "code")
        except ActivityRefused as refused:
            return _refusal(refused)
        answer = {
            "access_token": seat.access_token,
            "member": str(seat.member),
            "guild": None if seat.guild is None else str(seat.guild),
            "channel": str(seat.channel),
            "tables": tables,
            "events": events,
        }
        return web.json_response(answer, headers=_PRIVATE_HEADERS)

    async def _activity_tables(self, request: web.Request) -> web.Response:
        """The games of the Activity's channel again: ``{"access_token", "instance_id"}``
        in, ``{"tables"}`` out (as the sign-in's), the member checked afresh as a start
        checks them; any refusal is ``{"error", "reason"}`` alone."""
        try:
            _, tables, events = await self._listed(request, "access_token")
        except ActivityRefused as refused:
            return _refusal(refused)
        answer = {"tables": tables, "events": events}
        return web.json_response(answer, headers=_PRIVATE_HEADERS)

    async def _listed(
        self, request: web.Request, proof: str
    ) -> tuple[Seat, list[dict[str, object]], list[dict[str, Any]]]:
        """The member the request's ``proof`` signs in (a ``code``; or an ``access_token``,
        checked afresh at Discord) to its ``instance_id``, their channel's games and its
        events (:meth:`StandingsPages.here`: a DM has none).

        Raises:
            ActivityRefused: as :meth:`_activity_asked`, a sign-in refused, or the store
                failing.
        """
        auth, body = await self._activity_asked(request, f"`{proof}` and `instance_id`")
        check = auth.sign_in if proof == "code" else auth.recheck
        seat = await check(body.get(proof), body.get("instance_id"))
        tables = await self._tables(seat)
        if seat.guild is None:
            return seat, tables, []
        try:
            events = await self.standings.here(seat.guild, seat.channel, seat.member)
        except (SQLAlchemyError, StoreClosed):
            log.exception("the Activity's events could not be read")
            raise ActivityRefused(
                503, "error", "The events could not be read just now: try again."
            ) from None
        return seat, tables, events

    async def _tables(self, seat: Seat) -> list[dict[str, object]]:
        """The running games of the seat's channel (started there, or playing in a
        thread that is the channel; a DM's or group DM's are stored under no server),
        oldest first, whichever of the bot's processes runs them (a page on any process
        plays: :mod:`bot.web.relay`): each with the member's seat link where they play
        it, else a spectator's link. No other channel's game.

        Raises:
            ActivityRefused: the store failed (503).
        """
        guild = NO_GUILD if seat.guild is None else seat.guild
        try:
            rows = await self.sessions.store.active_games_here(guild, seat.channel)
        except (SQLAlchemyError, StoreClosed):
            log.exception("the Activity's games could not be read")
            raise ActivityRefused(
                503, "error", "The games could not be read just now: try again."
            ) from None
        found: list[dict[str, object]] = []
        for row in rows:
            mine = [s.seat for s in row.seats if s.user_id == seat.member and not s.resigned]
            number = mine[0] if mine else None
            link = (
                self.links.seat_link(row.id, number, seat.member)
                if number is not None
                else self.links.spectator_link(row.id)
            )
            found.append(
                {
                    "game": row.id,
                    "variant": row.variant,
                    "title": VARIANTS[row.variant].title,
                    "seat": number,
                    "link": link,
                }
            )
        return found

    async def _activity_start(self, request: web.Request) -> web.Response:
        """Start a game in the Activity's channel: ``{"access_token", "instance_id",
        "variant", "with"}`` in, ``{"game", "link"}`` out (the member's seat link); any
        refusal is ``{"error", "reason"}`` alone, and starts nothing (docs/web.md,
        "Starting a game")."""
        try:
            auth, body = await self._activity_asked(
                request, "`access_token`, `instance_id`, `variant` and `with`"
            )
            variant, mode = body.get("variant"), body.get("with")
            if not isinstance(variant, str) or variant not in VARIANTS:
                raise ActivityRefused(400, "variant", "There is no such game to start.")
            if mode not in ("computers", "people"):
                raise ActivityRefused(400, "malformed", "`with` is `computers` or `people`.")
            # Checked afresh: the page's token may be another member's, or its member
            # may have left the instance since they signed in.
            seat = await auth.recheck(body.get("access_token"), body.get("instance_id"))
            session = await self._start(seat, variant, with_people=mode == "people")
        except ActivityRefused as refused:
            return _refusal(refused)
        number = session.table.seat_of(seat.member)
        assert number is not None  # the member sits in every game they start
        link = self.links.seat_link(session.id, number, seat.member)
        return web.json_response({"game": session.id, "link": link}, headers=_PRIVATE_HEADERS)

    async def _start(self, seat: Seat, variant: str, *, with_people: bool) -> Session:
        """Start and show ``variant`` in the seat's channel: the member at seat 0, then
        (``with_people``) the instance's other participants (in a server, those who are
        members of the guild), up to the variant's seats, computers of the default level
        in the rest, as ``/tuque bot`` and a lobby seat them. In a server the table and
        its thread appear as for any game, and the people are pinged to it with "Show my
        hand"; in a DM or group DM the game is stored under no server (unrated) and its
        table comes with a player's next interaction there, as for any game outside a
        server (docs/bot.md, "Outside a server").

        Raises:
            ActivityRefused: a server Tuque is not in, or whose games (or DMs' games) run
                in another process; people at a game of more than two seats in a DM or
                group DM; fewer than two people for ``with_people``; two of them already
                playing together (AlreadyPlaying), or one of them already playing a game
                in this channel (AlreadyHere: a second click of a start); Discord failing
                to say who a member is.
        """
        options = game_options(variant)
        players = VARIANTS[variant].configured(VARIANTS[variant].options(**options)).players
        wanted = [seat.member]
        if with_people:
            wanted += [user for user in dict.fromkeys(seat.users) if user != seat.member]
        if seat.guild is None:
            guild_id = NO_GUILD
            people = await self._private_people(wanted, variant, players, with_people)
        else:
            guild_id = seat.guild
            people = await self._guild_people(seat.guild, wanted, players)
        if not people or people[0].id != seat.member:
            raise ActivityRefused(403, "not_member", "You are not a member of this server.")
        if with_people and len(people) < 2:
            raise ActivityRefused(
                400,
                "people",
                "Only you are here: ask the others to join this Activity first, or play "
                "the computers.",
            )
        names = {member.id: member.display_name for member in people}
        try:
            session = await self.sessions.start(
                guild_id,
                seat.channel,
                variant,
                options,
                seat_rows(variant, options, people, DEFAULT_LEVEL),
                once_here=True,
            )
        except AlreadyPlaying as playing:
            a, b = (names.get(user, "someone") for user in playing.user_ids)
            raise ActivityRefused(
                409,
                "already_playing",
                f"{a} and {b} are already playing together (game #{playing.game_id}): they "
                "finish or resign it first.",
            ) from None
        except AlreadyHere as here:
            who = "You are" if here.user_id == seat.member else f"{names[here.user_id]} is"
            raise ActivityRefused(
                409,
                "already_here",
                f"{who} already playing game #{here.game_id} here: open it from the list.",
            ) from None
        await self.sessions.open(session, [], pinged=list(range(len(people))))
        return session

    async def _guild_people(
        self, guild_id: int, wanted: list[int], players: int
    ) -> list[discord.abc.User]:
        """The members of the guild among ``wanted``, in order, at most ``players``.

        Raises:
            ActivityRefused: Tuque is not in the guild, or another process runs its
                games; Discord failed to say who is a member.
        """
        if not self.serves(guild_id):
            # The URL mapping reaches one process; the guild's shard runs in another,
            # where a game here must start (its page then plays from any process).
            raise ActivityRefused(
                400,
                "guild",
                "This server's games run in another of the bot's processes: start one with "
                "/tuque bot or /tuque challenge in the channel, then open it here.",
            )
        guild = self.sessions.client.get_guild(guild_id)
        if guild is None:
            raise ActivityRefused(
                400, "guild", "Tuque cannot start a game in this server: is the bot in it?"
            )
        people: list[discord.abc.User] = []
        for user in wanted:
            member = await _guild_member(guild, user)
            if member is not None:
                people.append(member)
            if len(people) == players:
                break
        return people

    async def _private_people(
        self, wanted: list[int], variant: str, players: int, with_people: bool
    ) -> list[discord.abc.User]:
        """The users ``wanted`` at a game in a DM or group DM, at most ``players``: there
        is no server to be a member of, the instance's participants are the people.

        Raises:
            ActivityRefused: another process runs the games outside a server (shard 0's);
                the people at a game of more than two seats (as ``/tuque challenge``
                there: an invitation of several needs a server); Discord failed to say
                who a user is.
        """
        if not self.serves(NO_GUILD):
            raise ActivityRefused(
                400,
                "guild",
                "Games in DMs run in another of the bot's processes: start this one with "
                "/tuque bot or /tuque challenge here.",
            )
        if with_people and players != 2:
            title = VARIANTS[variant].title
            raise ActivityRefused(
                400,
                "guild",
                f"In a DM or group DM you play the people here at a two-seat game only: "
                f"{title} with several people needs a server. Play the computers, or "
                "choose a two-seat game.",
            )
        people: list[discord.abc.User] = []
        for user_id in wanted[:players]:
            user = await _user(self.sessions.client, user_id)
            if user is not None:
                people.append(user)
        return people


async def _guild_member(guild: discord.Guild, user: int) -> discord.Member | None:
    """The guild's member ``user``, from the cache or Discord; None if not a member."""
    return await _known(guild.get_member(user), partial(guild.fetch_member, user), "server")


async def _user(client: discord.Client, user_id: int) -> discord.User | None:
    """The user ``user_id``, from the cache or Discord; None if Discord knows none."""
    return await _known(client.get_user(user_id), partial(client.fetch_user, user_id), "Activity")


async def _known(cached: _T | None, fetch: Callable[[], Awaitable[_T]], where: str) -> _T | None:
    """``cached``, else what ``fetch`` gets from Discord; None if Discord knows none.

    Raises:
        ActivityRefused: Discord failed to answer (502, naming ``where`` they are).
    """
    if cached is not None:
        return cached
    try:
        return await fetch()
    except discord.NotFound:
        return None
    except discord.HTTPException:
        raise ActivityRefused(
            502, "discord", f"Discord did not say who is in this {where}: try again."
        ) from None


async def _json_object(request: web.Request, fields: str) -> dict[str, Any]:
    """The request's JSON object, read as a page's messages are (:func:`read_json`).

    Raises:
        ActivityRefused: the body is not a JSON object, is nested too deep, or gives a
            key twice (400, naming its ``fields``).
    """
    asked = f"Send a JSON object with {fields}."
    try:
        body = read_json(await request.read())
    except Malformed as error:
        raise ActivityRefused(400, "malformed", f"{error} {asked}") from None
    if not isinstance(body, dict):
        raise ActivityRefused(400, "malformed", asked)
    return body


def _refusal(refused: ActivityRefused) -> web.Response:
    """A refusal's answer: ``{"error", "reason"}`` and its status, nothing else."""
    return web.json_response(
        {"error": refused.kind, "reason": refused.reason},
        status=refused.status,
        headers=_PRIVATE_HEADERS,
    )
