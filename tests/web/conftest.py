"""Fixtures the web table's browser tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from browser import chromium
from playwright.async_api import Browser
from web_helpers import Web, running_web


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """Debian's Chromium, one for the test (tests/web/browser.py)."""
    async with chromium() as started:
        yield started


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[Web]:
    """The web server on a fresh database. A module with other needs has its own. The
    pages click the moment their turn shows, against computers that move at once:
    faster than the flood limit allows a person (the forged-message test keeps it)."""
    async with running_web(tmp_path / "tuque.db", rate=1000, burst=1000) as started:
        yield started
