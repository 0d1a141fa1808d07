"""Run ``tuque-bot``'s entry point against a DiscordDouble in another process.

    python tests/bot/launch_bot.py API_URL GATEWAY_URL

Settings come from the environment, as for ``tuque-bot``; only discord.py's two
URLs are pointed at the double (the double itself does the same in-process).
"""

from __future__ import annotations

import sys

import discord
import yarl

from bot.__main__ import main

if __name__ == "__main__":
    discord.http.Route.BASE = sys.argv[1]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
    sys.exit(main([]))
