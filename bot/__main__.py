"""``tuque-bot`` / ``python -m bot``: run the Discord bot with settings from ``.env``.

The database is opened before logging in, so a bad ``DATABASE_PATH`` (or
``DATABASE_URL``) is reported without touching the network. SIGINT (Ctrl-C) and
SIGTERM (``docker stop``) close the bot cleanly: timers and computer players stop, the
store closes, the worker processes end; then the process exits with code 0. Anything
that stops the bot from starting (no token, a token Discord refuses, Discord out of
reach, a database it cannot use, shards Discord refuses, a metrics or web port it
cannot listen on) is one line on stderr saying what to do, and exit code 2.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

import aiohttp
import discord
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError

from bot.client import TuqueBot, process_shards, tune_gc
from bot.metrics import MetricsUnavailable
from bot.migrations import MigrationError
from bot.settings import Settings
from bot.store import Store, StoreError
from bot.store.copy import copy_database
from bot.web.server import WebUnavailable

__all__ = ["main", "serve"]

log = logging.getLogger("bot")


_SHARDING_REFUSED = {
    4010: "4010 Invalid shard: SHARD_IDS must be below SHARD_COUNT",
    4011: "4011 Sharding required: set SHARD_COUNT to at least the number Discord "
    "recommends, or leave SHARD_COUNT and SHARD_IDS unset",
}
"""The gateway's close codes for shards it refuses, and what the operator should do."""


def _fail(text: str) -> int:
    print(f"tuque-bot: {text}", file=sys.stderr)
    return 2


def _settings_errors(error: ValidationError) -> str:
    """Each wrong setting as ``NAME: problem``, on one line; never the value given (it
    could be the token)."""
    problems = []
    for item in error.errors(include_input=False, include_url=False):
        name = "_".join(str(part) for part in item["loc"]).upper() or "settings"
        problems.append(f"{name}: {item['msg']}")
    return "; ".join(problems)


async def serve(settings: Settings, token: str) -> int:
    """Open the database, then run the bot until SIGINT or SIGTERM.

    Returns:
        0 after a clean stop; 2 (after one line on stderr) when the database cannot
        be used, Discord refuses the token or the shards (SHARD_IDS, SHARD_COUNT), or
        Discord cannot be reached (no network, or its servers fail until discord.py
        gives up).
    """
    try:
        store = await Store.open(
            settings.database,
            shards=process_shards(settings),
            pool_size=settings.database_pool_size,
        )
    except (StoreError, MigrationError) as error:
        used = "DATABASE_URL" if settings.database_url else "DATABASE_PATH"
        return _fail(f"cannot use the database ({used}): {error}")
    bot = TuqueBot(settings, store=store)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(token), name="bot")
        stopping = asyncio.create_task(stop.wait(), name="stop-signal")
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if stop.is_set():
            log.info("stop signal received; closing")
        await bot.close()
        try:
            await running
        except discord.LoginFailure:
            return _fail("Discord refused DISCORD_TOKEN: reset it in the developer portal")
        except MetricsUnavailable as error:
            return _fail(f"cannot serve metrics (METRICS_HOST, METRICS_PORT): {error}")
        except WebUnavailable as error:
            return _fail(f"cannot serve the web table (WEB_HOST, WEB_PORT): {error}")
        except discord.ConnectionClosed as error:
            if error.code not in _SHARDING_REFUSED:
                raise
            return _fail(f"Discord refused the shards ({_SHARDING_REFUSED[error.code]})")
        except (
            aiohttp.ClientError,
            OSError,
            discord.GatewayNotFound,
            discord.DiscordServerError,
        ) as error:
            # aiohttp's messages can span lines; the operator gets one.
            reason = " ".join(str(error).split()) or type(error).__name__
            return _fail(f"cannot reach Discord ({reason}): check the network and try again")
    return 0


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tuque-bot",
        description="Run the Tuque Discord bot (settings from the environment and .env).",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    copy = commands.add_parser(
        "copy-database",
        help="copy an SQLite database into an empty PostgreSQL one and check the counts",
        description="Copy the bot's SQLite database into an empty PostgreSQL database, "
        "keeping every id, and check each table's count. Stop the bot first.",
    )
    copy.add_argument("source", type=Path, help="the SQLite file, e.g. data/tuque.db")
    copy.add_argument(
        "target",
        nargs="?",
        help="the PostgreSQL database, postgresql://user:pw@host/db; default DATABASE_URL "
        "(from the environment or .env, which keeps the password off the command line)",
    )
    return parser.parse_args(argv)


def _copy_database(source: Path, target: str | None) -> int:
    if target is None:
        try:
            target = Settings().database_url
        except ValidationError as error:
            return _fail(f"fix these settings (environment or .env): {_settings_errors(error)}")
        if target is None:
            return _fail("copy-database: give the PostgreSQL URL, or set DATABASE_URL")
    try:
        counts = asyncio.run(copy_database(source, target))
    except (StoreError, MigrationError) as error:
        return _fail(f"copy-database: {error}")
    except DBAPIError as error:
        # One line, and the server's words only (hide_parameters keeps the rows out).
        reason = " ".join(str(error.orig).split())
        return _fail(f"copy-database: PostgreSQL refused the copy, nothing was kept: {reason}")
    except ValueError as error:
        return _fail(f"copy-database: not a database URL ({type(error).__name__})")
    for table, count in counts.items():
        print(f"{table:>15}  {count:>9,} rows, counts match")
    print(f"copied {sum(counts.values()):,} rows; set DATABASE_URL to use PostgreSQL")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot until it is stopped, or with ``copy-database SOURCE TARGET`` copy an
    SQLite database into PostgreSQL (``bot.store.copy``).

    Args:
        argv: the command-line arguments after the program's name; default
            ``sys.argv[1:]``.

    Returns:
        0 after a clean stop or a copy; 2 (after one line saying what to do) when a
        setting is wrong or no token is set, the database cannot be used or copied,
        Discord refuses the token or cannot be reached.
    """
    arguments = _arguments(sys.argv[1:] if argv is None else argv)
    if arguments.command == "copy-database":
        logging.basicConfig(level=logging.WARNING)
        return _copy_database(arguments.source, arguments.target)
    try:
        settings = Settings()
    except ValidationError as error:
        return _fail(f"fix these settings (environment or .env): {_settings_errors(error)}")
    if settings.discord_token is None:
        return _fail(
            "DISCORD_TOKEN is not set: put your bot's token after DISCORD_TOKEN= in .env "
            "(copy .env.example to .env if there is none). The token: Discord developer "
            "portal → your application → Bot → Reset Token."
        )
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    tune_gc()
    return asyncio.run(serve(settings, settings.discord_token.get_secret_value()))


if __name__ == "__main__":
    sys.exit(main())
