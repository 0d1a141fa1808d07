"""The bot's Prometheus metrics (bot/metrics.py), end to end: the real bot against the
Discord double with metrics on a free port, ``/metrics`` scraped over HTTP as Prometheus
does; and the container's health check (bot/healthcheck.py) that reads them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import re
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from e2e import Table, play_turn, running_bot
from prometheus_client.parser import text_string_to_metric_families
from test_main import LAUNCHER, ROOT, assert_one_line
from test_resign import resign

from bot import healthcheck
from bot.client import TuqueBot
from bot.metrics import MetricsUnavailable
from tests.discord_double import DiscordDouble
from tests.discord_double.server import Fault

CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening_ports() -> set[int]:
    """The TCP ports this process listens on (read from Linux's /proc)."""
    sockets = set()
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # closed since the listing
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith("socket:["):
                sockets.add(target[len("socket:[") : -1])
    ports = set()
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        with open(table, encoding="ascii") as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in sockets:  # 0A: LISTEN
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def scrape(bot: TuqueBot) -> Samples:
    """Every sample at the bot's ``/metrics``, fetched over HTTP."""
    assert bot.metrics is not None and bot.metrics.address is not None
    async with aiohttp.ClientSession() as http, http.get(bot.metrics.address) as response:
        assert response.status == 200
        assert response.content_type == "text/plain"
        text = await response.text()
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples that have ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= ls)


def labelled(samples: Samples, name: str, label: str) -> Mapping[str, float]:
    """``name``'s values by the value of ``label`` (summed over its other labels)."""
    found: dict[str, float] = {}
    for (n, ls), v in samples.items():
        if n == name:
            key = dict(ls)[label]
            found[key] = found.get(key, 0) + v
    return found


async def bot_game(t: Table, bot: TuqueBot, **options: Any) -> int:
    """``/tuque bot`` for Ann; the new game's id."""
    rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", **options)
    await rec.settled()
    assert rec.original is not None
    found = re.search(r"#(\d+)", rec.original.text)
    assert found, rec.original.text
    return int(found.group(1))


async def play_until(
    t: Table, bot: TuqueBot, game_id: int, done: Callable[[Samples], bool]
) -> Samples:
    """Ann plays her turns until the metrics are ``done``; the metrics then."""
    rng = random.Random(3)
    for _ in range(40):
        samples = await scrape(bot)
        if done(samples):
            return samples
        session = bot.sessions.session(game_id)
        assert session is not None
        if session.game.turn == 0:
            await play_turn(t, bot, game_id, rng)
        else:
            await t.double.wait_until(lambda s=session: s.game.turn == 0, timeout=5)
            await t.double.idle()
    raise AssertionError("the game went on and the metrics never got there")


def decided(samples: Samples) -> bool:
    """Whether a computer has decided once."""
    return value(samples, "tuque_computer_decision_seconds_count") >= 1


async def test_a_game_moves_the_metrics(table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """A game against the computer: the interactions, their latency, the computer's
    decisions, the store's writes and the game in progress, then none."""
    t = table
    port = free_port()
    caplog.set_level(logging.INFO, logger="bot.metrics")
    async with running_bot(t, metrics_port=port, metrics_host="127.0.0.1") as bot:
        assert bot.metrics is not None
        assert bot.metrics.address == f"http://127.0.0.1:{port}/metrics"
        said = [r.getMessage() for r in caplog.records if r.name == "bot.metrics"]
        assert said == [f"Prometheus metrics at http://127.0.0.1:{port}/metrics"]
        before = await scrape(bot)
        in_progress = labelled(before, "tuque_games_in_progress", "variant")
        assert set(in_progress) >= {"tuque", "euchre"} and set(in_progress.values()) == {0}
        assert labelled(before, "tuque_discord_gateway_connected", "shard") == {"0": 1}
        assert value(before, "tuque_discord_requests_total") > 0  # the command sync

        game_id = await bot_game(t, bot, level="easy", target=5)
        during = await play_until(t, bot, game_id, decided)
        assert value(during, "tuque_games_in_progress", variant="tuque") == 1
        assert value(during, "tuque_games_in_progress") == 1
        commands = value(during, "tuque_interactions_total", kind="command", outcome="answered")
        assert commands == 1
        answered = value(during, "tuque_interactions_total", outcome="answered")
        assert value(during, "tuque_interactions_total") == answered  # none deferred or lost
        count = value(during, "tuque_interaction_response_seconds_count", kind="command")
        seconds = value(during, "tuque_interaction_response_seconds_sum", kind="command")
        assert count == 1 and 0 < seconds < 3
        assert value(during, "tuque_interaction_response_seconds_count") == answered
        decisions = labelled(during, "tuque_computer_decision_seconds_count", "level")
        assert decisions["easy"] >= 1 and decisions["hard"] == 0
        assert value(during, "tuque_computer_decision_seconds_sum", level="easy") > 0
        writes = value(during, "tuque_store_write_seconds_count")
        assert writes >= 2  # the new game and at least one move
        assert value(during, "tuque_store_write_seconds_sum") > 0
        assert value(during, "tuque_interaction_failures_total") == 0

        await resign(t, t.ann)
        after = await scrape(bot)
        assert value(after, "tuque_games_in_progress") == 0
        # /tuque resign and its confirm button.
        assert value(after, "tuque_interactions_total", outcome="answered") == answered + 2
        assert value(after, "tuque_interactions_total", kind="component") >= 1
        assert value(after, "tuque_interaction_response_seconds_count") == answered + 2
        assert value(after, "tuque_store_write_seconds_count") > writes
        assert port in listening_ports()
    # The endpoint stops with the bot.
    assert port not in listening_ports()


async def test_a_failed_discord_call_counts_as_an_error_and_a_retry(table: Table) -> None:
    """A table edit that Discord answers 503 is a REST error by status, and the outbox's
    second try of it a retry by reason."""
    t = table
    async with running_bot(t, metrics_port=free_port(), metrics_host="127.0.0.1") as bot:
        fault: Fault = t.double.fail(CHANNEL_EDIT, 503)  # the table's first edit
        game_id = await bot_game(t, bot, level="easy", target=5)
        # The retry comes 0.5 s after the failed try.
        samples = await play_until(
            t, bot, game_id, lambda s: value(s, "tuque_discord_retries_total") >= 1
        )
    assert fault.hits == 1
    assert labelled(samples, "tuque_discord_rest_errors_total", "status") == {"503": 1}
    retries = labelled(samples, "tuque_discord_retries_total", "reason")
    assert retries == {"server_error": 1, "rate_limited": 0, "timeout": 0, "network": 0}


async def test_failures_are_counted_by_reason(table: Table, monkeypatch: Any) -> None:
    """A refused command (a member's input) and one that fails unexpectedly."""
    t = table
    async with running_bot(t, metrics_port=free_port(), metrics_host="127.0.0.1") as bot:
        rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", target=7)
        await rec.settled()
        assert rec.original is not None and "not a target here" in rec.original.text

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("the leaderboard broke")

        monkeypatch.setattr(bot.store, "leaderboard", broken)
        rec = await t.double.slash(t.ann, t.channel, "tuque", "leaderboard")
        await rec.settled()
        assert rec.original is not None and "Error id" in rec.original.text
        await t.double.idle()
        samples = await scrape(bot)
    failures = labelled(samples, "tuque_interaction_failures_total", "reason")
    assert failures == {"refused": 1, "error": 1}
    assert value(samples, "tuque_interaction_failures_total", kind="command") == 2
    # Each was answered, with the explanation.
    assert value(samples, "tuque_interactions_total", outcome="answered") == 2


async def test_with_metrics_off_nothing_listens(table: Table) -> None:
    """No METRICS_PORT: no endpoint, no metrics object, no hook on the store."""
    t = table
    before = listening_ports()
    async with running_bot(t) as bot:
        assert bot.metrics is None
        assert bot.store.on_write is None
        assert bot.sessions.computers.on_decision is None
        assert listening_ports() == before


async def test_a_taken_port_stops_the_start(table: Table) -> None:
    """METRICS_PORT taken by another program: the bot does not start, and says where."""
    t = table
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(MetricsUnavailable, match=f"^127.0.0.1:{port}: Address already in use$"):
            async with running_bot(t, metrics_port=port, metrics_host="127.0.0.1"):
                pass


async def test_the_entry_point_names_a_taken_port(double: DiscordDouble, tmp_path: Path) -> None:
    """``tuque-bot`` with METRICS_PORT taken: one line naming the settings, exit code 2."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            **os.environ,
            "DISCORD_TOKEN": double.token,
            "DATABASE_PATH": str(tmp_path / "data" / "tuque.db"),
            "PYTHONPATH": str(ROOT),
            "METRICS_PORT": str(port),
            "METRICS_HOST": "127.0.0.1",
        }
        result = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, str(LAUNCHER), double.api_url, double.gateway_url],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert_one_line(
        result,
        "tuque-bot: cannot serve metrics (METRICS_HOST, METRICS_PORT): "
        f"127.0.0.1:{port}: Address already in use",
    )


async def run_healthcheck(tmp_path: Path, **env: str) -> tuple[int, str]:
    """``python -m bot.healthcheck`` as the container runs it, with ``env`` (no .env)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.healthcheck",
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", **env},
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode().strip()


async def test_the_health_check_reads_the_endpoint(table: Table, tmp_path: Path) -> None:
    """Healthy while the bot serves its metrics with its shard connected; unhealthy once
    the bot is gone; passing with nothing to ask when metrics are off."""
    t = table
    port = free_port()
    env = {"METRICS_PORT": str(port), "METRICS_HOST": "0.0.0.0"}
    async with running_bot(t, metrics_port=port, metrics_host="127.0.0.1"):
        code, said = await run_healthcheck(tmp_path, **env)
        assert (code, said) == (0, f"healthy: http://127.0.0.1:{port}/metrics")
    code, said = await run_healthcheck(tmp_path, **env)
    assert code == 1 and said.startswith(f"no answer from http://127.0.0.1:{port}/metrics")
    assert await run_healthcheck(tmp_path) == (
        0,
        "metrics off (METRICS_PORT unset): nothing to check",
    )


def test_the_verdict_needs_every_shard_connected() -> None:
    """One line per reason; healthy only with every shard of the process connected."""
    line = 'tuque_discord_gateway_connected{{shard="{}"}} {}\n'
    head = "# TYPE tuque_discord_gateway_connected gauge\n"
    assert healthcheck.verdict(head + line.format(0, 1) + line.format(1, 1)) is None
    assert (
        healthcheck.verdict(head + line.format(0, 1) + line.format(1, 0))
        == "gateway disconnected on shard 1"
    )
    assert healthcheck.verdict("# TYPE tuque_up gauge\ntuque_up 1\n") == (
        "no gateway connection yet"
    )
