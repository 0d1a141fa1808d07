"""Shared fixtures: the Discord API double (see tests/discord_double/__init__.py)."""

from discord_double.fixtures import double, log_guard

__all__ = ["double", "log_guard"]
