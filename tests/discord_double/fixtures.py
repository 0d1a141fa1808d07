"""pytest fixtures: a started double and a log guard, both failing the test on problems."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from .logguard import LogGuard
from .server import DiscordDouble


@pytest.fixture
async def log_guard() -> AsyncIterator[LogGuard]:
    """Collect ERROR logs from `discord`/`asyncio` and loop exceptions; fail at teardown if any."""
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
    misuse of interactions, unacknowledged interactions and (via the log guard) logged errors."""
    double = DiscordDouble()
    await double.start()
    try:
        yield double
    finally:
        await double.close()
    double.check()
