"""The web server closed to other sites (``docs/web.md``, "Closed to other sites"): the
names it answers to, the origins whose pages may open its socket or post its forms, and
the headers every answer carries. Pure but for :meth:`Sites.middleware` and
:func:`secure`, which aiohttp calls.

- **The names it answers to.** A page of another site can point a name of its own at
  this machine (DNS rebinding: ``evil.example`` resolving to ``127.0.0.1``) and read
  what the server answers it; the browser then sends that name in ``Host``. The server
  answers only ``localhost``, the names it is configured with (``WEB_URL``'s, the
  address it listens on when that is a name), and any address written as an IP
  literal (``127.0.0.1``, ``[::1]``, ``192.168.1.5``): a browser connects to such an
  address itself, with no DNS answer to rebind. Another ``Host`` is a 421 with no
  content; none at all, a 400 (HTTP/1.1 requires one).
- **The origins it lets in.** A browser names the page that opens a websocket or
  posts a form in ``Origin``. Let in: the request's own host (checked above) at the
  same port, the trusted origins (``WEB_URL``'s, for a proxy that sends its own
  ``Host``; the Activity's, ``https://<application id>.discordsays.com``), and no
  ``Origin`` at all, which only a client that is not a browser sends (a browser
  always sends one on a websocket and on a post): such a client is no other site's
  page run in a player's browser, and the link's token is its gate, as for any page.
- **The headers.** Every answer carries a Content-Security-Policy that loads scripts,
  styles, images and connections from the server's own origin only (no inline
  script, no plugin, no ``<base>``), and ``X-Content-Type-Options: nosniff``. Nothing
  may frame a page (``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``) but the
  Activity's, which only Discord's client frames (:data:`ACTIVITY_POLICY`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urlsplit

from aiohttp import hdrs, web

__all__ = [
    "ACTIVITY_POLICY",
    "DISCORD_FRAMERS",
    "LOCAL_NAMES",
    "PAGE_POLICY",
    "Sites",
    "activity_origin",
    "secure",
]

LOCAL_NAMES = frozenset({"localhost"})
"""The names of this machine every server answers to, beside IP literals."""

DISCORD_FRAMERS = (
    "https://discord.com",
    "https://*.discord.com",
    "https://discordapp.com",
    "https://*.discordapp.com",
    "https://*.discordsays.com",
)
"""The origins that may frame the Activity: Discord's clients (web and desktop at
``discord.com``, ``ptb.`` and ``canary.`` too; the old ``discordapp.com`` names,
which the Embedded App SDK still takes messages from) and Discord's Activity proxy,
``<application id>.discordsays.com``, where Discord nests an Activity's frames."""

_SOURCES = (
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    # The page's icon is an empty data: URL (no request for /favicon.ico).
    "img-src 'self' data:",
    # 'self' covers the page's websocket (ws: and wss: to its own host and port).
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
)

PAGE_POLICY = "; ".join((*_SOURCES, "frame-ancestors 'none'"))
"""The Content-Security-Policy of every answer but the Activity's page."""

ACTIVITY_POLICY = "; ".join((*_SOURCES, f"frame-ancestors {' '.join(DISCORD_FRAMERS)}"))
"""The Content-Security-Policy of the Activity's page (``/activity``, and ``/`` on the
bot's server): the same sources, framed by :data:`DISCORD_FRAMERS` only."""

_DEFAULT_PORTS = {"http": 80, "https": 443}

Authority = tuple[str, int | None]
"""A host name (lower case, without a final dot; an IPv6 address without its brackets)
and its port, if one is given."""


def activity_origin(client_id: int) -> str:
    """The origin of the Activity's page inside Discord, its proxy for the application
    ``client_id``: ``https://<client_id>.discordsays.com``."""
    return f"https://{client_id}.discordsays.com"


def _authority(text: str) -> Authority | None:
    """The host name and port of a ``Host`` header (``example.org:8000``, ``[::1]``),
    or None if it is not one (user info, a path, a bad port...)."""
    if not text or any(c in text for c in "@/\\?# \t"):
        return None
    try:
        parts = urlsplit(f"//{text}")
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name:
        return None
    return name.removesuffix("."), port


def _origin(text: str) -> tuple[str, str, int] | None:
    """An ``Origin`` header's (or an address's) scheme, host name and port (the
    scheme's default where none is given); None for ``null``, another scheme, or no
    origin at all."""
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    authority = _authority(parts.netloc) if scheme in _DEFAULT_PORTS else None
    if authority is None:
        return None
    name, port = authority
    return scheme, name, port if port is not None else _DEFAULT_PORTS[scheme]


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Sites:
    """The names a server answers to and the origins it lets in (the module's rules).

    Args:
        names: host names beside :data:`LOCAL_NAMES` (any case; an IP literal adds
            nothing: every one is answered).
        origins: trusted origins beside the request's own (``https://host[:port]``,
            or any address: its path is ignored).
    """

    def __init__(self, names: Iterable[str] = (), origins: Iterable[str] = ()) -> None:
        self.names = set(LOCAL_NAMES)
        self.origins: set[tuple[str, str, int]] = set()
        for name in names:
            self.add_name(name)
        for origin in origins:
            self.add_origin(origin)

    def add_name(self, name: str) -> None:
        """Answer to ``name`` too (a host name, or an address: its name is taken)."""
        authority = _authority(urlsplit(name).netloc if "//" in name else name)
        if authority is not None and not _is_ip(authority[0]):
            self.names.add(authority[0])

    def add_origin(self, origin: str) -> None:
        """Let pages of ``origin`` in too, and answer to its name.

        Raises:
            ValueError: ``origin`` is no http(s) address.
        """
        parsed = _origin(origin)
        if parsed is None:
            raise ValueError(f"{origin!r} is not an http or https address")
        self.origins.add(parsed)
        self.add_name(parsed[1])

    def serves(self, host: str | None) -> bool:
        """Whether a request with this ``Host`` header is answered: an IP literal, or
        one of the names (any port)."""
        authority = _authority(host or "")
        if authority is None:
            return False
        name = authority[0]
        return name in self.names or _is_ip(name)

    def lets_in(self, origin: str | None, host: str | None) -> bool:
        """Whether a page of ``origin`` (an ``Origin`` header; None: none sent) may open
        the socket or post a form of a request whose ``Host`` header is ``host``: no
        origin, a trusted one, or the same name and port as ``host``, which this server
        :meth:`serves`. ``null`` (a sandboxed or opaque page) is refused."""
        if origin is None:
            return True
        parsed = _origin(origin)
        if parsed is None:
            return False
        if parsed in self.origins:
            return True
        own = _authority(host or "")
        if own is None or not self.serves(host):
            return False
        scheme, name, port = parsed
        return (name, port) == (own[0], own[1] if own[1] is not None else _DEFAULT_PORTS[scheme])

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Refuse a request whose ``Host`` this server does not :meth:`serves`: 421 with
        no content (400 with none at all), before any route sees it."""
        host = request.headers.get(hdrs.HOST)
        if host is None:
            return web.Response(status=400)
        if not self.serves(host):
            return web.Response(status=421)
        return await handler(request)


async def secure(request: web.Request, response: web.StreamResponse) -> None:
    """aiohttp's ``on_response_prepare``: every answer's headers (pages, files, JSON,
    errors, the socket's upgrade): ``nosniff``, and :data:`PAGE_POLICY` with
    ``X-Frame-Options: DENY`` unless the answer has a policy of its own (the
    Activity's page: :data:`ACTIVITY_POLICY`, which Discord frames, so without
    ``X-Frame-Options``, which can name no origin)."""
    headers = response.headers
    headers["X-Content-Type-Options"] = "nosniff"
    if hdrs.CONTENT_SECURITY_POLICY not in headers:
        headers[hdrs.CONTENT_SECURITY_POLICY] = PAGE_POLICY
        headers["X-Frame-Options"] = "DENY"
