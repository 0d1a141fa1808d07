"""``tuque-bot`` / ``python -m bot``: run the Discord bot with settings from ``.env``."""

from __future__ import annotations

import logging
import sys

import discord

from bot.settings import Settings

__all__ = ["main"]


def main() -> int:
    """Run the bot until it is stopped.

    Returns:
        2 when no token is set (after one line saying how to set it), else 0.
    """
    settings = Settings()
    if settings.discord_token is None:
        print(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token "
            "there (Discord developer portal → your application → Bot → Reset Token).",
            file=sys.stderr,
        )
        return 2
    from bot.client import TuqueBot, tune_gc

    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    bot = TuqueBot(settings)
    tune_gc()
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
