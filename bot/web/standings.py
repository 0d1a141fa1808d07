"""An event's live standings on the web (issue 42; ``docs/events.md``, "On the web"):
the page, the data it polls, and what a table and the Activity say of the event.

Routes (:meth:`StandingsPages.install`):

- ``GET /event/<event id>?t=<token>``: the page (``static/event.html``) for a valid
  standings link (:meth:`bot.web.links.Links.event_link`); a link refused is a 403 page
  saying why.
- ``GET /api/event/<event id>?t=<token>``: the standings as JSON
  (:func:`standings_data`, with ``now`` and a fresh ``token``), with an ``ETag``: a
  poll that names the standings it holds (``If-None-Match``) is answered ``304`` until
  they change.

The page polls, every ``poll`` seconds, rather than listening: an event's changes are
stored by whichever process runs its tables (``Store.change_event``), and a poll of the
store sees every one of them, after a restart or on another process alike; the round's
clock runs in the page from ``ends_at``. An event holds nothing hidden, yet the data is
built from its public parts only: names, scores, the seating's tables and the clock,
never a seed (the seed of a table's game deals its cards).
"""

from __future__ import annotations

import hashlib
import html
import logging
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import discord
import orjson
from aiohttp import web

from bot.events.event import Event, Status
from bot.events.model import Format
from bot.render import event_score, round_length
from bot.store import EventNotFound, EventRow, Store, StoreClosed
from bot.web.links import LinkRefused, Links
from engine.variants import VARIANTS

__all__ = ["POLL_SECONDS", "StandingsPages", "standings_data", "table_event"]

log = logging.getLogger(__name__)

POLL_SECONDS = 3.0
"""Seconds between two polls of a standings page: a table's end shows within them."""

_SCORE_NAMES = {
    Format.PROGRESSIVE: "Points",
    Format.PAIRS: "Match points",
    Format.SWISS: "Match points",
    Format.DUPLICATE: "Score",
}

_HEADLINES = {
    Status.SIGN_UP: "Sign-up is open",
    Status.BETWEEN: "Round {n} of {m} is over: the next is being seated",
    Status.RUNNING: "Round {n} of {m}",
    Status.FINISHED: "Final standings",
    Status.CANCELLED: "Cancelled",
}

_HEADERS = {
    # The page's address carries its token: never sent on as a referrer, never kept.
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _name(member: int | None, names: Mapping[int, str]) -> str:
    if member is None:
        return "a computer"
    return names.get(member, "a member")


def _this_round(event: Event, entry: int) -> str:
    """Where an entry is in the round in play: its table (finished or not), a sit-out."""
    rnd = event.current
    if rnd is None:
        return ""
    for seating, result in zip(rnd.seatings, rnd.results, strict=True):
        if entry in seating.entries:
            return f"Table {seating.table}" + (" · finished" if result is not None else "")
    if entry in rnd.sitting_out:
        return "Bye" if event.config.format is not Format.PROGRESSIVE else "Sits out"
    return ""


def standings_data(row: EventRow, names: Mapping[int, str]) -> dict[str, Any]:
    """What a standings page shows, JSON-ready.

    Shape: ``{"event": id, "name", "game" (the game's title), "format" (its label),
    "length" (a round's, in words), "status" (:class:`Status`'s value), "headline"
    ("Round 2 of 4"), "round", "rounds", "starts_at", "ends_at" (seconds since the
    epoch; None without a clock), "tables": {"finished", "of"} (the round in play's),
    "score_name", "lines": [{"place" (None: not placed), "name", "score" (as members
    read it), "played", "now" (its table this round), "away", "left"}]}``.
    ``names``: display names by user id (a member without one is "a member").
    """
    event, config = row.event, row.event.config
    rnd = event.rounds[-1] if event.rounds else None
    lines = [
        {
            "place": line.place,
            "name": " & ".join(_name(m, names) for m in line.members),
            "score": event_score(line.score, config),
            "played": line.played,
            "now": _this_round(event, line.entry),
            "away": line.away,
            "left": line.left,
        }
        for line in event.standings()
    ]
    return {
        "event": event.id,
        "name": config.name,
        "game": VARIANTS[config.variant].title,
        "format": config.format.label,
        "length": round_length(config),
        "status": event.status.value,
        "headline": _HEADLINES[event.status].format(n=event.round_no, m=config.rounds),
        "round": event.round_no,
        "rounds": config.rounds,
        "starts_at": row.starts_at,
        "ends_at": row.round_ends_at,
        "tables": {
            "finished": 0 if rnd is None else sum(r is not None for r in rnd.results),
            "of": 0 if rnd is None else len(rnd.seatings),
        },
        "score_name": _SCORE_NAMES[config.format],
        "lines": lines,
    }


def table_event(row: EventRow, links: Links, now: float) -> dict[str, Any]:
    """What a table of the event says of it (the web table's ``hello``): ``{"event",
    "name", "round", "rounds", "ends_at" (None without a clock), "now" (the server's
    clock, for the page's), "standings" (the standings link)}``."""
    return {
        "event": row.id,
        "name": row.event.config.name,
        "round": row.event.round_no,
        "rounds": row.event.config.rounds,
        "ends_at": row.round_ends_at,
        "now": now,
        "standings": links.event_link(row.id),
    }


class StandingsPages:
    """Serves the standings pages and tells a table or the Activity of their event.

    Args:
        store: where events are kept.
        links: makes and checks the standings links.
        static: the folder of the page's files (``event.html``).
        client: the bot's client, whose cache names a member the store has no name of.
        poll: seconds between two polls of a page (the data's ``poll``).
    """

    def __init__(
        self,
        store: Store,
        links: Links,
        static: Path,
        client: discord.Client | None = None,
        *,
        poll: float = POLL_SECONDS,
    ) -> None:
        self.store = store
        self.links = links
        self.static = static
        self.client = client
        self.poll = poll

    def install(self, app: web.Application) -> None:
        """Add the routes to ``app``."""
        app.router.add_get(r"/event/{event:\d+}", self._page)
        app.router.add_get(r"/api/event/{event:\d+}", self._data)

    async def names(self, row: EventRow) -> dict[int, str]:
        """The display names of the event's members: the store's, else the client's."""
        members = [m.id for m in row.event.members]
        names = await self.store.player_names(row.guild_id, members)
        if self.client is not None:
            for member in members:
                user = self.client.get_user(member) if member not in names else None
                if user is not None:
                    names[member] = user.display_name
        return names

    async def _page(self, request: web.Request) -> web.StreamResponse:
        event_id = int(request.match_info["event"])
        try:
            self.links.check_event(request.query.get("t", ""), event_id)
        except LinkRefused as refused:
            return web.Response(
                status=403,
                text=_refused_page(str(refused)),
                content_type="text/html",
                headers=_HEADERS,
            )
        return web.FileResponse(self.static / "event.html", headers=_HEADERS)

    async def _data(self, request: web.Request) -> web.Response:
        """The standings as JSON, or a 304 for a poll that holds them; a refused link is
        ``{"error": "link", "reason"}`` (403), an event gone ``"no_event"`` (404), the
        store failing ``"error"`` (503)."""
        event_id = int(request.match_info["event"])
        now = time.time()
        try:
            expires = self.links.check_event(request.query.get("t", ""), event_id, now)
            row = await self.store.load_event(event_id)
            names = await self.names(row)
        except LinkRefused as refused:
            return _error(403, "link", str(refused))
        except EventNotFound:
            return _error(404, "no_event", f"Event #{event_id} does not exist.")
        except (StoreClosed, OSError):
            log.exception("event %d: standings not read", event_id)
            return _error(503, "error", "The standings could not be read just now.")
        data = standings_data(row, names)
        tag = '"' + hashlib.sha256(orjson.dumps(data)).hexdigest()[:32] + '"'
        # A token in its second half of life is renewed even when nothing changed, so a
        # page left open on a quiet event keeps a token that opens it.
        fresh = expires - now > self.links.lifetime / 2
        headers = {**_HEADERS, "ETag": tag}
        if fresh and request.headers.get("If-None-Match") == tag:
            return web.Response(status=304, headers=headers)
        body = {**data, "now": now, "poll": self.poll, "token": self.links.event_token(event_id)}
        return web.json_response(body, headers=headers, dumps=lambda v: orjson.dumps(v).decode())

    async def for_table(self, game_id: int) -> dict[str, Any] | None:
        """What the web table of ``game_id`` says of its event (:func:`table_event`), or
        None: no event's table, or the store failed (the table opens all the same)."""
        try:
            where = await self.store.event_of_game(game_id)
            if where is None:
                return None
            row = await self.store.load_event(where[0])
        except (EventNotFound, StoreClosed):
            return None
        if row.event.round_no != where[1]:
            return None  # an earlier round's table, played on after its round
        return table_event(row, self.links, time.time())

    async def here(self, guild_id: int, channel_id: int, member: int) -> list[dict[str, Any]]:
        """The channel's events in sign-up or running, for the Activity: each as
        ``{"event", "name", "link" (its standings), "table" (the member's seat link at
        their table of the round in play, or None)}``, oldest first."""
        found = []
        for row in await self.store.open_events_here(guild_id, channel_id):
            found.append(
                {
                    "event": row.id,
                    "name": row.event.config.name,
                    "link": self.links.event_link(row.id),
                    "table": self._seat_link(row, member),
                }
            )
        return found

    def _seat_link(self, row: EventRow, member: int) -> str | None:
        seat = row.event.seat_of(member)
        if seat is None:
            return None
        seating, number = seat
        game = row.round_games(row.event.round_no).get(seating.table)
        return None if game is None else self.links.seat_link(game, number, member)


def _refused_page(reason: str) -> str:
    return (
        "<!doctype html><meta charset=utf-8><title>Tuque: link refused</title>"
        f"<h1>These standings cannot open</h1><p>{html.escape(reason)}</p>"
    )


def _error(status: int, kind: str, reason: str) -> web.Response:
    return web.json_response({"error": kind, "reason": reason}, status=status, headers=_HEADERS)
