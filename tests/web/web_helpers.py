"""Helpers of the web table's tests: the session manager on a real database with the
web server on a free loopback port (no Discord: the web is its only screen), pages
that connect with links, and the cards a frame shows."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.sessions import GameSessions, Session
from bot.settings import Settings
from bot.store import SeatKind, SeatRow, Store
from bot.store.settings import GuildSettings
from bot.web.links import Links
from bot.web.server import WebServer
from engine.cards import Card, Suit
from engine.variants import VARIANTS

SECRET = b"a test secret of enough bytes"
GUILD, CHANNEL = 1, 2
ANN, BOB, EVE = 101, 102, 103

CARD = re.compile(
    r"(?<![\w+/-])(?:[6-9TJQKA][CDHS]'?|B[123])(?![\w+/-])|(?:10|[6-9JQKA])[♣♦♥♠]'?|🃏[123]"
)
"""A card in a frame: its code (``TH``, ``AS'``, ``B2``) or a label's form (``10♥``, ``🃏2``)."""


@dataclass
class Web:
    """The session manager, its store and the web server, started."""

    sessions: GameSessions
    store: Store
    server: WebServer
    links: Links
    http: aiohttp.ClientSession

    async def start(self, variant: str, members: Sequence[int | None], **options: Any) -> Session:
        """A game of ``variant`` whose seat ``n`` is member ``members[n]`` (None: an easy
        computer), with the computer's first move under way if due."""
        sides = VARIANTS[variant].configured(VARIANTS[variant].options(**options)).sides
        seats = [
            SeatRow(n, SeatKind.HUMAN, m, display_name=f"P{m}", side=sides[n])
            if m is not None
            else SeatRow(n, SeatKind.COMPUTER, level="easy", side=sides[n])
            for n, m in enumerate(members)
        ]
        session = await self.sessions.start(GUILD, CHANNEL, variant, options, seats)
        self.sessions.rescue()
        return session

    async def page(self, game_id: int, token: str, **query: str) -> Page:
        """A page connected with ``token``; its first frames are read as they come."""
        assert self.server.address is not None
        url = f"{self.server.address.replace('http', 'ws', 1)}/ws/{game_id}"
        socket = await self.http.ws_connect(url, params={"t": token, **query})
        page = Page(socket)
        page.reader = asyncio.create_task(page.read())
        return page


@dataclass(eq=False)
class Page:
    """A page's socket and every frame it was sent, in order."""

    socket: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        async for message in self.socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(message.data))
                self.changed.set()
        self.changed.set()

    @property
    def views(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "view"]

    @property
    def view(self) -> dict[str, Any]:
        """The newest view frame."""
        return self.views[-1]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == kind]

    async def until(self, check: Any, timeout: float = 10) -> None:
        """Wait until ``check()`` holds (each new frame looks again)."""
        async with asyncio.timeout(timeout):
            while not check():
                self.changed.clear()
                if self.socket.closed and self.reader is not None and self.reader.done():
                    assert check(), "the socket closed first"
                await self.changed.wait()

    async def act(self, seq: int, action: int) -> None:
        await self.socket.send_json({"type": "act", "seq": seq, "action": action})

    async def close(self) -> None:
        await self.socket.close()
        if self.reader is not None:
            await self.reader


@asynccontextmanager
async def running_web(
    db: Path | str, *, remote: bool = False, **options: Any
) -> AsyncIterator[Web]:
    """The manager on a database at ``db`` (a path, or a PostgreSQL URL) with the web
    server on a free loopback port (``options``: the server's own, such as its ``rate``
    and ``burst``, ``activity`` or ``public_url``); computers think in a thread and move
    at once. ``remote``: as the bot on PostgreSQL, the store announces each change and
    the server shows games other processes run."""
    store = await Store.open(db)
    store.announces = remote
    pool = ThreadPoolExecutor(max_workers=1)
    links = Links(SECRET, "", 600)
    defaults = GuildSettings.defaults(Settings(discord_token=None))
    server = WebServer.without_discord(store, pool, links, defaults, remote=remote, **options)
    sessions = server.sessions
    links.base_url = await server.start("127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            yield Web(sessions, store, server, links, http)
    finally:
        await server.close()
        await sessions.close()
        await store.close()
        pool.shutdown(wait=True)


def cards_in(value: object) -> set[str]:
    """Every card a view frame's ``view`` shows, by code (a label's ``10♥`` as ``TH``)."""
    text = json.dumps(value, ensure_ascii=False)
    return {Card.parse(_code(match)).code for match in CARD.findall(text)}


def _code(text: str) -> str:
    """A card's code from its code or its label's form (``10♥`` → ``10H``, ``🃏2`` → ``B2``)."""
    for suit in Suit:
        text = text.replace(suit.symbol, suit.value)
    return text.replace("🃏", "B")


def engine_cards(value: object) -> set[str]:
    """Every card anywhere in an engine value (a ``PlayerView``), by code."""
    if isinstance(value, Card):
        return {value.code}
    if isinstance(value, tuple | list):
        return set().union(*(engine_cards(v) for v in value)) if value else set()
    if is_dataclass(value) and not isinstance(value, type):
        return engine_cards([getattr(value, f.name) for f in fields(value)])
    return set()
