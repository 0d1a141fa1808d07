"""The bot's Prometheus metrics: what an operator watches, every metric declared here.

Opt-in: with ``METRICS_PORT`` set the bot builds one :class:`Metrics` and serves it at
``http://METRICS_HOST:METRICS_PORT/metrics`` (an aiohttp route on the bot's own event
loop, through prometheus_client's handler). A scrape is answered only while the event
loop turns, so a stuck bot fails its health check (``bot.healthcheck``). Unset, no
:class:`Metrics` exists: nothing listens and no hook is set.

Each :class:`Metrics` owns its ``CollectorRegistry``, not the library's global one, so
two bots in one process (tests) count apart.

=========================================== ========= ================= ===============
metric                                      type      labels            fed by
=========================================== ========= ================= ===============
``tuque_games_in_progress``                 gauge     variant           the session
                                                                        manager's live
                                                                        games, read at
                                                                        each scrape
``tuque_interactions_total``                counter   kind, outcome     receipt
                                                                        (``on_interaction``)
                                                                        and the first
                                                                        response
``tuque_interaction_response_seconds``      histogram kind              the same
``tuque_interaction_failures_total``        counter   kind, reason      ``replies.report_failure``
``tuque_discord_requests_total``            counter                     the bot's HTTP
                                                                        session (an
                                                                        aiohttp trace)
``tuque_discord_rest_errors_total``         counter   status            the same
``tuque_discord_retries_total``             counter   reason            ``replies.deliver``
                                                                        (``RETRY``), seen
                                                                        by the trace
``tuque_discord_invalid_requests``          gauge                       the request
                                                                        budget
                                                                        (``bot.budget``),
                                                                        read at each
                                                                        scrape
``tuque_discord_budget_requests_total``     counter                     the same
``tuque_discord_budget_waiting``            gauge                       the same
``tuque_discord_table_edits_merged_total``  counter                     the same
``tuque_computer_decision_seconds``         histogram level             ``Computers.on_decision``
``tuque_store_write_seconds``               histogram                   ``StoreBase.on_write``
``tuque_discord_gateway_connected``         gauge     shard             discord.py's
                                                                        shards, read at
                                                                        each scrape
``tuque_discord_gateway_latency_seconds``   gauge     shard             the same
=========================================== ========= ================= ===============

Plus the client library's process, platform and garbage-collector collectors
(``process_cpu_seconds_total``, ``process_resident_memory_bytes``, ``python_gc_*``...).
docs/bot.md ("Metrics") says what each one means.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import SimpleNamespace

import aiohttp
import discord
from aiohttp import web
from discord.ext import commands
from discord.http import Route
from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.aiohttp import make_aiohttp_handler
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot import replies
from bot.budget import RequestBudget
from bot.options import DISCORD_LEVELS
from bot.sessions import GameSessions
from bot.store.base import StoreBase
from engine.variants import VARIANTS

__all__ = [
    "GIVE_UP_SECONDS",
    "KINDS",
    "OUTCOMES",
    "Metrics",
    "MetricsUnavailable",
]

log = logging.getLogger(__name__)

KINDS: dict[discord.InteractionType, str] = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
    discord.InteractionType.autocomplete: "autocomplete",
}
"""The ``kind`` label of each interaction type the gateway delivers."""

OUTCOMES = ("answered", "deferred", "unanswered")
"""The ``outcome`` label of ``tuque_interactions_total``."""

FAILURES = ("refused", "error")
"""The ``reason`` label of ``tuque_interaction_failures_total`` (``replies.report_failure``)."""

GIVE_UP_SECONDS = 10.0
"""Seconds after its receipt when an interaction with no first response that Discord
took is counted ``unanswered`` (Discord allows 3; its own retries of a 5xx may take
longer)."""

RESPONSE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
"""Seconds: Discord allows 3 for a first response, and ``replies.deadline`` defers at 2."""
DECISION_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: the easy level decides in a millisecond, the hard one in about half a second."""
WRITE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0)
"""Seconds: a write takes a millisecond or so; from 2 s a click is deferred."""

# The first response to an interaction: discord.py's ``InteractionResponse`` calls.
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


class MetricsUnavailable(Exception):
    """The metrics endpoint cannot listen on ``METRICS_HOST``:``METRICS_PORT`` (the port
    is taken, the address is not this machine's...); the message says which and why."""


@dataclass(slots=True)
class _Pending:
    """An interaction received and not yet answered."""

    kind: str
    received: float  # time.perf_counter()
    interaction: discord.Interaction
    give_up: asyncio.TimerHandle | None = None


class Metrics:
    """The bot's metrics, in a registry of their own, and the endpoint that serves them.

    Built with the bot, on its request budget: its callbacks join the budget's aiohttp
    trace (which discord.py's client is given), after the budget's gate, so that the
    REST calls and the interactions' responses are seen as they are sent; :meth:`start`
    feeds it from the session manager and the store and serves it; :meth:`close` stops
    serving.

    Args:
        budget: the bot's request budget (:mod:`bot.budget`).

    Attributes:
        registry: every metric of this bot.
        address: ``http://host:port/metrics`` once serving, else None.
    """

    def __init__(self, budget: RequestBudget) -> None:
        self.registry = registry = CollectorRegistry()
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        self.interactions = Counter(
            "tuque_interactions_total",
            "Interactions received, by kind and by how the first response went: answered "
            "(the answer itself), deferred (a deferral: the answer took over 2 s), "
            "unanswered (no response Discord took within 10 s).",
            ["kind", "outcome"],
            registry=registry,
        )
        self.response_seconds = Histogram(
            "tuque_interaction_response_seconds",
            "Seconds from the receipt of an interaction to Discord's acknowledgement of its "
            "first response (answered or deferred ones).",
            ["kind"],
            buckets=RESPONSE_BUCKETS,
            registry=registry,
        )
        self.interaction_failures = Counter(
            "tuque_interaction_failures_total",
            "Interactions whose handling failed: refused (a member's input explained "
            "back to them) or error (unexpected, logged with an error id).",
            ["kind", "reason"],
            registry=registry,
        )
        self.rest_requests = Counter(
            "tuque_discord_requests_total",
            "REST requests made to Discord, retries included.",
            registry=registry,
        )
        self.rest_errors = Counter(
            "tuque_discord_rest_errors_total",
            "REST requests that Discord answered with an error, by HTTP status (no_answer: "
            "no status came back: a network error or a timeout).",
            ["status"],
            registry=registry,
        )
        self.retries = Counter(
            "tuque_discord_retries_total",
            "Discord calls after a stored change (posts, edits, hand views) tried again, by "
            "why the try before failed: rate_limited, server_error, timeout, network.",
            ["reason"],
            registry=registry,
        )
        self.computer_decisions = Histogram(
            "tuque_computer_decision_seconds",
            "Seconds a computer player's decision took, from asking the worker pool to its "
            "answer (a wait for a free worker included), by level.",
            ["level"],
            buckets=DECISION_BUCKETS,
            registry=registry,
        )
        self.store_writes = Histogram(
            "tuque_store_write_seconds",
            "Seconds of each committed write transaction of the store.",
            buckets=WRITE_BUCKETS,
            registry=registry,
        )
        # Every known series exists from the start (at 0), so rates need no special case.
        for kind in KINDS.values():
            self.response_seconds.labels(kind)
            for outcome in OUTCOMES:
                self.interactions.labels(kind, outcome)
            for reason in FAILURES:
                self.interaction_failures.labels(kind, reason)
        for reason in replies.RETRY_REASONS:
            self.retries.labels(reason)
        for level in DISCORD_LEVELS:
            self.computer_decisions.labels(level)

        registry.register(_Budget(budget))
        budget.trace.on_request_start.append(self._request_start)
        budget.trace.on_request_end.append(self._request_end)
        budget.trace.on_request_exception.append(self._request_exception)
        self.address: str | None = None
        self._pending: dict[int, _Pending] = {}
        self._runner: web.AppRunner | None = None

    async def start(
        self,
        client: commands.Bot | commands.AutoShardedBot,
        sessions: GameSessions,
        store: StoreBase,
        *,
        host: str,
        port: int,
    ) -> str:
        """Serve the metrics at ``http://host:port/metrics`` and feed them from ``client``
        (its interactions and gateway shards), ``sessions`` (games in progress, computer
        decisions) and ``store`` (write times). Logs the address once and returns it.

        Raises:
            MetricsUnavailable: nothing can listen there; nothing was hooked.
        """
        app = web.Application()
        app.router.add_get("/metrics", make_aiohttp_handler(self.registry))
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as error:
            await runner.cleanup()
            # asyncio wraps a bind's error with the address: its errno's words say it once.
            known = error.errno is not None and error.errno > 0
            reason = os.strerror(error.errno) if known else error.strerror or str(error)
            raise MetricsUnavailable(f"{host}:{port}: {reason}") from error
        self._runner = runner
        self.registry.register(_GamesInProgress(sessions))
        self.registry.register(_Gateway(client))
        store.on_write = self.store_writes.observe
        sessions.computers.on_decision = self._decided
        client.add_listener(self._received, "on_interaction")
        client.add_listener(self._failed, f"on_{replies.FAILURE_EVENT}")
        bound_host, bound_port = runner.addresses[0][:2]
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        self.address = f"http://{shown}:{bound_port}/metrics"
        log.info("Prometheus metrics at %s", self.address)
        return self.address

    async def close(self) -> None:
        """Stop serving (the port is free again when this returns); the counters stay."""
        for pending in self._pending.values():
            if pending.give_up is not None:
                pending.give_up.cancel()
        self._pending.clear()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    # --- interactions -------------------------------------------------------------------

    async def _received(self, interaction: discord.Interaction) -> None:
        kind = KINDS.get(interaction.type, "other")
        pending = _Pending(kind, time.perf_counter(), interaction)
        self._pending[interaction.id] = pending
        pending.give_up = asyncio.get_running_loop().call_later(
            GIVE_UP_SECONDS, self._give_up, interaction.id
        )

    def _give_up(self, interaction_id: int) -> None:
        pending = self._pending.pop(interaction_id, None)
        if pending is not None:
            self.interactions.labels(pending.kind, "unanswered").inc()

    def _answered(self, interaction_id: int) -> None:
        pending = self._pending.pop(interaction_id, None)
        if pending is None:
            return
        if pending.give_up is not None:
            pending.give_up.cancel()
        self.response_seconds.labels(pending.kind).observe(time.perf_counter() - pending.received)
        deferred = pending.interaction.extras.get(replies.DEFERRED, False)
        self.interactions.labels(pending.kind, "deferred" if deferred else "answered").inc()

    async def _failed(self, interaction: discord.Interaction, reason: str) -> None:
        self.interaction_failures.labels(KINDS.get(interaction.type, "other"), reason).inc()

    # --- Discord's REST API (the client's aiohttp session) ---------------------------------

    async def _request_start(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if not str(params.url).startswith(Route.BASE):
            return  # the gateway's websocket
        self.rest_requests.inc()
        retry = replies.RETRY.get()
        if retry is not None and not retry.counted:
            retry.counted = True
            self.retries.labels(retry.reason).inc()

    async def _request_end(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        if not str(params.url).startswith(Route.BASE):
            return
        status = params.response.status
        if status >= 400:
            # A failed first response may still be retried by discord.py: the interaction
            # stays pending until one is taken or it is given up.
            self.rest_errors.labels(str(status)).inc()
            return
        callback = _CALLBACK.search(params.url.path)
        if callback is not None:
            self._answered(int(callback[1]))

    async def _request_exception(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        if str(params.url).startswith(Route.BASE):
            self.rest_errors.labels("no_answer").inc()

    # --- computers ----------------------------------------------------------------------

    def _decided(self, level: str, seconds: float) -> None:
        self.computer_decisions.labels(level).observe(seconds)


class _Budget(Collector):
    """The request budget's figures (:mod:`bot.budget`), read at each scrape:
    ``tuque_discord_invalid_requests`` (the 401, 403 and 429 answers of the last ten
    minutes, which Discord blocks the bot's IP for past 10,000),
    ``tuque_discord_budget_requests_total`` (requests that counted against the global
    limit), ``tuque_discord_budget_waiting`` (requests waiting for their turn or to leave) and
    ``tuque_discord_table_edits_merged_total`` (table edits merged into one waiting)."""

    def __init__(self, budget: RequestBudget) -> None:
        self.budget = budget

    def describe(self) -> Iterator[Metric]:
        return self.collect()

    def collect(self) -> Iterator[Metric]:
        budget = self.budget
        yield GaugeMetricFamily(
            "tuque_discord_invalid_requests",
            "Answers of 401, 403 or 429 from Discord in the last ten minutes (Discord "
            "blocks the bot's IP past 10,000).",
            value=budget.invalid.recent(),
        )
        yield CounterMetricFamily(
            "tuque_discord_budget_requests",
            "Requests that counted against the token's global rate limit, each after "
            "its turn in this process's request budget.",
            value=budget.sent,
        )
        yield GaugeMetricFamily(
            "tuque_discord_budget_waiting",
            "Requests waiting for their turn, or to leave, in the request budget now.",
            value=budget.waiting,
        )
        yield CounterMetricFamily(
            "tuque_discord_table_edits_merged",
            "Table edits asked for while one was waiting, and merged into it.",
            value=budget.merged,
        )


class _GamesInProgress(Collector):
    """``tuque_games_in_progress``: the session manager's live games, counted at each
    scrape (every variant has a series, 0 when none is played)."""

    NAME = "tuque_games_in_progress"
    HELP = "Games in progress in this process, by variant."

    def __init__(self, sessions: GameSessions) -> None:
        self.sessions = sessions

    def describe(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(self.NAME, self.HELP, labels=["variant"])

    def collect(self) -> Iterator[Metric]:
        counts = dict.fromkeys(VARIANTS, 0)
        for session in self.sessions.running():
            name = session.game.variant.name
            counts[name] = counts.get(name, 0) + 1
        family = GaugeMetricFamily(self.NAME, self.HELP, labels=["variant"])
        for variant, count in counts.items():
            family.add_metric([variant], count)
        yield family


class _Gateway(Collector):
    """``tuque_discord_gateway_connected`` and ``..._latency_seconds``: each shard of this
    process, read from discord.py at each scrape."""

    CONNECTED = "tuque_discord_gateway_connected"
    CONNECTED_HELP = (
        "Whether the shard's gateway connection to Discord is open (1) or not (0): down "
        "while discord.py reconnects, and before the first connection."
    )
    LATENCY = "tuque_discord_gateway_latency_seconds"
    LATENCY_HELP = "Seconds between the shard's last heartbeat and Discord's acknowledgement."

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def describe(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(self.CONNECTED, self.CONNECTED_HELP, labels=["shard"])
        yield GaugeMetricFamily(self.LATENCY, self.LATENCY_HELP, labels=["shard"])

    def collect(self) -> Iterator[Metric]:
        connected = GaugeMetricFamily(self.CONNECTED, self.CONNECTED_HELP, labels=["shard"])
        latency = GaugeMetricFamily(self.LATENCY, self.LATENCY_HELP, labels=["shard"])
        for shard, is_open, seconds in _shards(self.client):
            connected.add_metric([str(shard)], 1 if is_open else 0)
            if is_open and math.isfinite(seconds):
                latency.add_metric([str(shard)], seconds)
        yield connected
        yield latency


def _shards(client: discord.Client) -> list[tuple[int, bool, float]]:
    """``(shard id, connection open, heartbeat latency)`` of each shard of ``client``: those
    it runs, and those it is to run but has not connected yet (closed)."""
    closing = client.is_closed()
    if isinstance(client, discord.AutoShardedClient):
        found = []
        for shard_id, info in sorted(client.shards.items()):
            try:
                is_open = not closing and not info.is_closed()
                seconds = info.latency
            except AttributeError:  # a shard whose websocket is not made yet
                is_open, seconds = False, float("nan")
            found.append((shard_id, is_open, seconds))
        expected = client.shard_ids or ()
        found += [(i, False, float("nan")) for i in expected if i not in client.shards]
        return sorted(found)
    ws = client.ws
    is_open = not closing and ws is not None and ws.open
    return [(client.shard_id or 0, is_open, client.latency)]
