"""One gateway websocket connection as the double sees it.

discord.py 2.7 asks for `compress=zlib-stream` (or `zstd-stream` when the `zstandard`
package is installed) but also accepts plain text frames whatever it asked for, since it
only decompresses binary frames. The double therefore honours zlib-stream (one shared
zlib stream, every frame ending in a Z_SYNC_FLUSH marker) and sends text frames otherwise.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import zlib
from typing import Any

from aiohttp import web

# Gateway opcodes.
DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
RESUME = 6
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

# Intents the double cares about.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
MESSAGE_CONTENT = 1 << 15
GUILD_SCHEDULED_EVENTS = 1 << 16
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

# discord.py's own keep-alive thread does the beating; Discord's usual interval keeps
# heartbeats out of short tests entirely.
HEARTBEAT_INTERVAL_MS = 41250


def encode(payload: dict[str, Any]) -> str:
    """Serialise a gateway payload compactly, as Discord does."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


class GatewaySession:
    """A connected websocket plus its session state (sequence, intents, shard)."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.session_id = secrets.token_hex(16)
        self.sequence = 0
        self.intents = 0
        self.shard: tuple[int, int] = (0, 1)
        self.compress = compress if compress == "zlib-stream" else None
        self._zlib = zlib.compressobj() if self.compress else None
        # Sequence numbers and the zlib stream must follow wire order, so a frame is
        # numbered, compressed and written under one lock.
        self._lock = asyncio.Lock()

    @property
    def open(self) -> bool:
        """Whether the socket can still carry frames."""
        return not self.ws.closed

    def covers_guild(self, guild_id: int) -> bool:
        """Whether this session's shard receives events for `guild_id`."""
        shard_id, shard_count = self.shard
        return (guild_id >> 22) % shard_count == shard_id

    def wants(self, intent: int) -> bool:
        """Whether the client identified with `intent`."""
        return bool(self.intents & intent)

    async def _write(self, payload: dict[str, Any]) -> None:
        text = encode(payload)
        if self._zlib is None:
            await self.ws.send_str(text)
        else:
            data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
            await self.ws.send_bytes(data)

    async def send(self, op: int, data: Any) -> None:
        """Send a non-dispatch frame (HELLO, HEARTBEAT_ACK, INVALID_SESSION...)."""
        async with self._lock:
            await self._write({"op": op, "d": data, "s": None, "t": None})

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH frame with the next sequence number."""
        async with self._lock:
            self.sequence += 1
            await self._write({"op": DISPATCH, "d": data, "s": self.sequence, "t": event})
