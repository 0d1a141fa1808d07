"""Shared fixtures for the Discord API double (see tests/discord_double/__init__.py).

The double is imported inside the fixtures so test runs that never use it (the engine's)
do not pay for importing discord.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from discord_double import DiscordDouble, LogGuard


@pytest.fixture
async def log_guard() -> AsyncIterator[LogGuard]:
    """Collect ERROR logs from `discord`/`asyncio` and loop exceptions; fail at teardown if any."""
    from discord_double import LogGuard

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
    from discord_double import DiscordDouble

    double = DiscordDouble()
    await double.start()
    try:
        yield double
    finally:
        await double.close()
    double.check()
