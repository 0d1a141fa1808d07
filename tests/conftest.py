"""Shared fixtures for the Discord API double (see tests/discord_double/__init__.py).

The double is imported inside the fixtures so test runs that never use it (the engine's)
do not pay for importing discord.py.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

# Bytecode is cached whatever the environment says (PYTHONDONTWRITEBYTECODE, set in some
# containers): the suite starts many processes (xdist's workers, the bot's processes and
# their pools), and each would otherwise compile the sources and rewrite the test modules
# anew: 14 s of collection a worker instead of 6.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

if TYPE_CHECKING:
    from tests.bot.e2e import Table
    from tests.discord_double import DiscordDouble, LogGuard
    from tests.postgres import PostgresServer


def _spec_report(config: pytest.Config) -> Path | None:
    """DISCORD_SPEC_REPORT's file, in the controlling process only (not an xdist worker)."""
    path = os.environ.get("DISCORD_SPEC_REPORT")
    return Path(path) if path and not hasattr(config, "workerinput") else None


_SPEC_REPORT_START = pytest.StashKey[int]()


def pytest_report_header(config: pytest.Config) -> str | None:
    """One line when the browser tests cannot run here (they skip; the rest runs)."""
    from tests.web.browser import CHROMIUM, NO_CHROMIUM

    return None if CHROMIUM else NO_CHROMIUM


LONGEST_FIRST = (
    "test_compiled.py",
    "test_shard_processes.py",
    "test_process.py",
    "test_activity_page.py",
    "test_process_latency.py",
    "test_faults.py",
    "test_browser.py",
    "test_lobbies.py",
    "test_accessibility.py",
    "test_benches.py",
    "test_events.py",
    "test_table_page.py",
)
"""The modules of the suite's longest tests (some 10–40 s each), which run first."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first: the workers then end on short tests together, not
    one of them on a 30 s test while the other has nothing left to take."""
    items.sort(key=lambda item: item.path.name not in LONGEST_FIRST)


def pytest_sessionstart(session: pytest.Session) -> None:
    """With DISCORD_SPEC_REPORT=<path>, note where this run's part of the report starts:
    every double appends its validated requests per operation to it when it closes. (Not
    truncated: a pytest run inside a test, as tests/test_compiled.py makes, would erase
    what its parent's doubles wrote before.)"""
    path = _spec_report(session.config)
    if path is not None:
        session.config.stash[_SPEC_REPORT_START] = path.stat().st_size if path.exists() else 0


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """With DISCORD_SPEC_REPORT=<path>, print the run's requests validated against
    Discord's API specification, per operation."""
    path = _spec_report(config)
    if path is None or not path.exists():
        return
    from tests.discord_double.spec import report_totals

    with path.open("rb") as file:
        file.seek(config.stash.get(_SPEC_REPORT_START, 0))
        lines = file.read().decode("utf-8").splitlines()
    terminalreporter.section("Discord API specification")
    for line in report_totals(lines):
        terminalreporter.write_line(line)


@pytest.fixture
async def log_guard() -> AsyncIterator[LogGuard]:
    """Collect ERROR logs from `discord`/`asyncio` and loop exceptions; fail at teardown if any."""
    from tests.discord_double import LogGuard

    guard = LogGuard()
    guard.install(asyncio.get_running_loop())
    try:
        yield guard
    finally:
        guard.uninstall()
    guard.check()


@pytest.fixture
async def double(log_guard: LogGuard) -> AsyncIterator[DiscordDouble]:
    """A started DiscordDouble; teardown fails the test on unknown routes, rejected payloads,
    misuse of interactions, unacknowledged interactions and (via `log_guard`) logged errors."""
    from tests.discord_double import DiscordDouble
    from tests.discord_double.ratelimits import TEST_SPEED, RateLimits

    double = DiscordDouble(rate_limits=RateLimits().scaled(TEST_SPEED))
    await double.start()
    try:
        yield double
    finally:
        await double.close()
    double.check()


@pytest.fixture
def table(double: DiscordDouble, tmp_path: Path) -> Table:
    """A guild of the double with a channel and three members, and the bot's database
    path: where the bot's end-to-end tests (tests/bot, tests/web) play."""
    from tests.bot.e2e import Table

    guild = double.add_guild("Card club")
    channel = double.add_channel(guild, "tuque")
    return Table(
        double,
        guild,
        channel,
        double.add_user("ann", guild=guild),
        double.add_user("bob", guild=guild),
        double.add_user("eve", guild=guild),
        tmp_path / "data" / "tuque.db",
    )


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    """A real PostgreSQL server for this worker (tests/postgres.py), started on first use."""
    from tests.postgres import PostgresServer, data_folder

    server = PostgresServer(data_folder(tmp_path_factory.mktemp("postgres")))
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str | Path]:
    """Where a store under test keeps its data, once on each backend: a new SQLite file
    (its folder not made yet), or a new database on the tests' PostgreSQL server,
    dropped after the test (the server's data may be in memory)."""
    if request.param == "sqlite":
        yield tmp_path / "data" / "tuque.db"
        return
    server: PostgresServer = request.getfixturevalue("postgres")
    url = await server.database()
    yield url
    await server.drop(url)
