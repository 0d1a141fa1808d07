"""Run ``tuque-bot``'s entry point against a DiscordDouble in another process.

    python tests/bot/launch_bot.py API_URL GATEWAY_URL

Settings come from the environment, as for ``tuque-bot``; only discord.py's two
URLs are pointed at the double (the double itself does the same in-process).
With ``LAUNCH_READY_FILE`` set, a line is appended to that file each time the bot
is ready (discord.py's ``on_ready``), so a test can wait for readiness itself
instead of guessing how long it takes on a busy machine.

The bot is built with a ``guild_ready_timeout`` of 0.05 s, as every in-process test
builds its client (``tests/discord_double``): discord.py's default holds READY for 2 s
after the last GUILD_CREATE, for Discord's guilds that come late, and the double sends
them all at once.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import discord
import yarl

from bot.__main__ import main
from bot.client import TuqueBot


async def _note_ready(bot: TuqueBot) -> None:
    """Append a line to ``LAUNCH_READY_FILE``: the bot serves interactions from now on."""
    with Path(os.environ["LAUNCH_READY_FILE"]).open("a") as ready:
        ready.write(f"ready {os.getpid()}\n")


_build = TuqueBot.__init__


def _quick_ready(bot: TuqueBot, *args: Any, **options: Any) -> None:
    """TuqueBot's constructor with a READY held 0.05 s after the last GUILD_CREATE."""
    options.setdefault("guild_ready_timeout", 0.05)
    _build(bot, *args, **options)


if __name__ == "__main__":
    TuqueBot.__init__ = _quick_ready  # type: ignore[method-assign]
    discord.http.Route.BASE = sys.argv[1]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
    if "LAUNCH_READY_FILE" in os.environ:
        # discord.py calls a client's own on_ready coroutine on READY; TuqueBot has none.
        TuqueBot.on_ready = _note_ready  # type: ignore[attr-defined]
    sys.exit(main([]))
