"""Fixtures of the bot's tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e import Table

from tests.discord_double import DiscordDouble


@pytest.fixture
def table(double: DiscordDouble, tmp_path: Path) -> Table:
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
