"""The bot: a ``commands.AutoShardedBot`` that opens the store, restores games and finds
its card faces in ``setup_hook``.

One process runs the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (unset: every shard Discord
recommends): it restores, times and plays the games of those shards' guilds only, and
refuses an interaction from another shard's guild. The work done once for the whole
bot, the slash commands' sync and the card faces' uploads, is the work of the process
that runs shard 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
from concurrent.futures import Executor
from typing import Any, cast

import aiohttp
import discord
from discord import app_commands
from discord.app_commands import AppCommand
from discord.ext import commands

import engine
from bot import replies
from bot.budget import RequestBudget
from bot.buttons import DYNAMIC_ITEMS, OTHER_PROCESS
from bot.cogs import EXTENSIONS, TuqueCog
from bot.emojis import CardFaces, FaceEmojis
from bot.metrics import Metrics
from bot.sessions import GameSessions
from bot.settings import Settings
from bot.store import Store
from bot.store.base import Shards
from bot.store.settings import GuildSettings
from bot.web.activity import ActivityAuth, bot_instance_lookup
from bot.web.links import Links
from bot.web.server import WebServer
from bot.workers import computer_pool, drawing_pool

__all__ = [
    "FACES_WAIT_SECONDS",
    "GC_YOUNG_THRESHOLD",
    "SYNC_RETRY_FIRST",
    "SYNC_RETRY_MOST",
    "TuqueBot",
    "TuqueTree",
    "process_shards",
    "tune_gc",
]

log = logging.getLogger(__name__)

GC_YOUNG_THRESHOLD = 50_000
"""Allocations between young-generation collections (CPython's default is 700)."""

SYNC_RETRY_FIRST = 60.0
"""Seconds before a command sync that failed (5xx, no answer) is tried again."""
SYNC_RETRY_MOST = 3600.0
"""The longest pause between two tries of a failed command sync (each pause doubles)."""

FACES_WAIT_SECONDS = 10.0
"""How long start-up waits for the first round of the card faces' emojis (a first start
uploads 40, and Discord may rate-limit that) before going on; the uploads, and the
retries of any that failed, go on meanwhile, and a card shows as text until its face
is there."""


def process_shards(settings: Settings) -> Shards:
    """The shards this process runs: ``SHARD_IDS`` of ``SHARD_COUNT``, all of them when
    ``SHARD_IDS`` is unset, and ``Shards.all()`` when ``SHARD_COUNT`` is unset (discord.py
    then asks Discord how many at login and runs them all in this process, so every
    guild is this process's whatever the count)."""
    if settings.shard_count is None:
        return Shards.all()
    ids = settings.shard_ids if settings.shard_ids is not None else range(settings.shard_count)
    return Shards(frozenset(ids), settings.shard_count)


def _described(shards: Shards, settings: Settings) -> str:
    """The shards this process runs, in words, for the start-up line."""
    if settings.shard_count is None:
        return "every shard (as many as Discord recommends)"
    ids = sorted(shards.ids)
    word = "shard" if len(ids) == 1 else "shards"
    return f"{word} {', '.join(map(str, ids))} of {shards.count}"


def tune_gc() -> None:
    """Set the process's garbage collector for a long-running bot; call once at start-up.

    Every click leaves cyclic garbage (discord.py rebuilds a View from the clicked
    message to dispatch a DynamicItem). With CPython's default thresholds it lives
    across an HTTP await, gets promoted, and only full collections of 30-80 ms free
    it: the bot's p99 latency. A large young generation lets it die young, and
    freezing the start-up heap keeps the rare full collections short.
    """
    gc.set_threshold(GC_YOUNG_THRESHOLD, 20, 20)
    gc.freeze()


def _completes(interaction: discord.Interaction[TuqueBot]) -> bool:
    """Whether an autocomplete interaction's focused option is one its command completes
    (a modified client can name any option, or none)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return False
    options: list[dict[str, Any]] = cast(dict[str, Any], interaction.data or {}).get("options", [])
    # A subcommand group's and a subcommand's options are nested in theirs.
    while options and options[0].get("type") in (1, 2):
        options = options[0].get("options", [])
    focused = [o.get("name") for o in options if o.get("focused")]
    completed = {p.display_name for p in command.parameters if p.autocomplete}
    return len(focused) == 1 and focused[0] in completed


class TuqueTree(app_commands.CommandTree["TuqueBot"]):
    """The slash-command tree: answers every failure, and every command from where the
    bot cannot post, and keeps the application's Entry Point command through a sync.

    The commands are offered everywhere (servers, the bot's DM, DMs and group DMs; guild
    and user installs). Outside a server that installed the bot, :data:`OUTSIDE_COMMANDS`
    answer anywhere and :data:`PRIVATE_COMMANDS` in DMs and group DMs (a game played
    through its interactions there); any other command is answered with
    :data:`PLAYED_IN_A_SERVER`, ephemeral, within its own interaction.
    """

    async def interaction_check(self, interaction: discord.Interaction[TuqueBot], /) -> bool:
        if not interaction.is_guild_integration():
            # A DM, a group DM, or a server where only the member installed the app: the
            # bot may only answer the interaction there (no channel to post a table in).
            command = interaction.command
            name = command.qualified_name if command is not None else None
            # A server the bot is not in keeps its games for when the bot is added.
            private = interaction.guild_id is None and name in PRIVATE_COMMANDS
            if name in OUTSIDE_COMMANDS or private:
                if interaction.type is not discord.InteractionType.autocomplete:
                    return True
                if _completes(interaction):
                    return True
                await interaction.response.autocomplete([])
                return False
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await replies.deny(interaction, PLAYED_IN_A_SERVER)
            return False
        assert interaction.guild_id is not None  # a guild integration has its guild
        if not self.client.serves_guild(interaction.guild_id):
            if interaction.type is not discord.InteractionType.autocomplete:
                await replies.deny(interaction, OTHER_PROCESS)
            return False
        if interaction.type is discord.InteractionType.autocomplete and not _completes(interaction):
            # discord.py would log a traceback and leave the member's client waiting.
            await interaction.response.autocomplete([])
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[TuqueBot], error: app_commands.AppCommandError, /
    ) -> None:
        await replies.report_failure(interaction, error)

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[AppCommand]:
        """Overwrite the commands of ``guild`` (None: the global ones) with the tree's,
        as ``CommandTree.sync`` does, keeping the application's Entry Point commands.

        Discord gives an application with Activities an Entry Point command (type 4,
        global only) and refuses a bulk overwrite that drops it (error 50240), so a
        global sync first reads the global commands and sends those back beside the
        tree's. Raises what ``CommandTree.sync`` raises.
        """
        if guild is not None:
            return await super().sync(guild=guild)
        application_id = self.client.application_id
        if application_id is None:
            raise app_commands.MissingApplicationID
        http = self.client.http
        existing = await http.get_global_commands(application_id)
        kept = [
            _update_request(cast(dict[str, Any], c))
            for c in existing
            if c.get("type") == ENTRY_POINT
        ]
        commands = self._get_all_commands(guild=None)
        translator = self.translator
        if translator is not None:
            payload = [await c.get_translated_payload(self, translator) for c in commands]
        else:
            payload = [c.to_dict(self) for c in commands]
        try:
            data = await http.bulk_upsert_global_commands(application_id, payload=[*payload, *kept])
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:
                raise app_commands.CommandSyncFailure(error, commands) from None
            raise
        state = self._state  # type: ignore[attr-defined]
        return [AppCommand(data=d, state=state) for d in data]


ENTRY_POINT = 4
"""The type of an application's Entry Point command (``PRIMARY_ENTRY_POINT``): the
Activity's launcher in Discord's App Launcher, made by Discord when Activities are
enabled."""

_UPDATE_FIELDS = frozenset(
    {
        "id",
        "type",
        "name",
        "name_localizations",
        "description",
        "description_localizations",
        "default_member_permissions",
        "contexts",
        "integration_types",
        "handler",
        "nsfw",
    }
)


def _update_request(command: dict[str, Any]) -> dict[str, Any]:
    """A command as Discord returned it, as a bulk overwrite sends it back: its id (so it
    is the same command) and the fields a command update takes."""
    return {k: v for k, v in command.items() if k in _UPDATE_FIELDS and v is not None}


OUTSIDE_COMMANDS = frozenset({"tuque rules"})
"""The commands that answer outside a server that installed the bot (a DM, a group DM,
a server where only the member installed the app): they only need their interaction."""

PRIVATE_COMMANDS = frozenset(
    {"tuque bot", "tuque challenge", "tuque hand", "tuque resign", "tuque autoplay"}
)
"""The commands that also answer in a DM or group DM, where a game is played through its
players' interactions (docs/bot.md, "Outside a server")."""

PLAYED_IN_A_SERVER = (
    "This needs a server's channel where the bot is: use it in one (or add the bot to this "
    "server). In a DM or group DM you can play: `/tuque bot`, `/tuque challenge` (one "
    "opponent), `/tuque hand`, `/tuque resign`, `/tuque autoplay` and `/tuque rules`."
)
"""The answer to any other command from outside such a server."""


class TuqueBot(commands.AutoShardedBot):
    """Hosts Tuque games: slash commands under ``/tuque``, persistent buttons, timers.

    The features are cogs (``bot.cogs``), loaded as extensions in ``setup_hook``;
    this class owns what they share: the settings, the store, the session manager,
    the ``/tuque`` group, the executor and the card faces (:attr:`faces`).

    The process runs the shards of ``settings`` (``SHARD_COUNT``, ``SHARD_IDS``; both
    unset: every shard Discord recommends) and serves only their guilds
    (:meth:`serves_guild`); :attr:`syncs` says whether it does the bot-wide work.

    Args:
        settings: the configuration.
        executor: where computer players think; default
            ``workers.computer_pool(settings.computer_processes)``, so a search never
            blocks the event loop (the bot shuts it down on close).
        drawer: where the tables' pictures are drawn; default
            ``workers.drawing_pool()`` (the bot shuts it down on close).
        store: the open database, opened with this process's shards
            (:func:`process_shards`); default ``settings.database``, opened in
            ``setup_hook``. Either way the bot closes it on close.
        **options: passed to ``commands.AutoShardedBot`` (e.g. ``guild_ready_timeout``
            in tests).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        executor: Executor | None = None,
        drawer: Executor | None = None,
        store: Store | None = None,
        **options: Any,
    ) -> None:
        # Slash commands and components need no privileged intents, and no message content.
        # Of the gateway's events the bot needs only its servers and their channels
        # (INTERACTION_CREATE comes whatever the intents), and their scheduled events (an
        # event's Discord event: members marking Interested sign up; not privileged):
        # the messages' events, which Discord would send back for every post and edit
        # the bot makes, cost the event loop a parse each and tell it nothing it uses.
        # No message cache: the bot edits its messages by id and never reads the cache,
        # and a thousand cached messages would only lengthen every garbage collection.
        options.setdefault("max_messages", None)
        options.setdefault("shard_count", settings.shard_count)
        options.setdefault("shard_ids", settings.shard_ids)
        budget = RequestBudget(settings.requests_per_second)
        # Every request passes the budget's gate (the metrics see it after its turn).
        options.setdefault("http_trace", budget.trace)
        metrics = Metrics(budget) if settings.metrics_port is not None else None
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True, guild_scheduled_events=True),
            tree_cls=TuqueTree,
            **options,
        )
        self.settings = settings
        self.budget = budget
        """This process's share of the token's global rate limit (:mod:`bot.budget`):
        every request to Discord but an interaction's waits there for its turn."""
        self.metrics = metrics
        """The Prometheus metrics (:mod:`bot.metrics`), served from ``setup_hook`` on;
        None unless ``METRICS_PORT`` is set."""
        self.own_shards = store.shards if store is not None else process_shards(settings)
        """The shards whose guilds this process serves (the store lists their games)."""
        self._executor = executor
        self._own_executor = executor is None
        self._drawer = drawer
        self._own_drawer = drawer is None
        self.store: Store
        if store is not None:
            self.store = store
        self.sessions: GameSessions
        self.tuque = app_commands.Group(
            name="tuque",
            description="Play Tuque and the Euchre family",
            # Installable by servers and by members, usable in servers, the bot's DM, DMs
            # and group DMs; TuqueTree.interaction_check answers where no game can run.
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
        )
        """The ``/tuque`` group: every cog's slash commands are its subcommands."""
        self.tree.add_command(self.tuque)
        self.card_emojis = FaceEmojis(self, uploads=self.syncs)
        """Finds the card faces' emojis, and uploads them in the process of shard 0 (see
        :mod:`bot.emojis`)."""
        self.web: WebServer | None = None
        """The web table's server (:mod:`bot.web`), from ``setup_hook`` on; None unless
        ``WEB_PORT`` is set."""
        self._faces_sync: asyncio.Task[None] | None = None
        self._sync_retry: asyncio.Task[None] | None = None
        self._transient_sync_failure = False

    @property
    def syncs(self) -> bool:
        """Whether this process does the work done once for the whole bot: it runs shard 0,
        so it syncs the slash commands and uploads the card faces; the others use them."""
        return 0 in self.own_shards.ids

    @property
    def runs_every_shard(self) -> bool:
        """Whether this process is the whole bot (no other process serves a guild)."""
        return len(self.own_shards.ids) == self.own_shards.count

    def serves_guild(self, guild_id: int) -> bool:
        """Whether ``guild_id``'s games are this process's (its guild is on our shards)."""
        return self.own_shards.owns(guild_id)

    @property
    def faces(self) -> CardFaces:
        """How cards appear in messages now: their faces' emojis, text for any missing."""
        return self.card_emojis.faces

    async def setup_hook(self) -> None:
        # Uploads overlap the rest of the start-up, and do not hold it up for long.
        self._faces_sync = asyncio.create_task(self.card_emojis.sync(), name="card-faces")
        if not hasattr(self, "store"):
            self.store = await Store.open(
                self.settings.database,
                shards=self.own_shards,
                pool_size=self.settings.database_pool_size,
            )
        compiled = engine.compiled_modules()
        log.info(
            "this process runs %s; database: %s; engine: %s",
            _described(self.own_shards, self.settings),
            self.store.backend,
            f"compiled ({', '.join(compiled)})" if compiled else "pure Python (not compiled)",
        )
        executor = self._executor or computer_pool(self.settings.computer_processes)
        self._executor = executor
        drawer = self._drawer or drawing_pool()
        self._drawer = drawer
        self.sessions = GameSessions(
            self,
            self.store,
            executor,
            drawer,
            move_delay=self.settings.computer_move_delay_seconds,
            table_delay=self.settings.table_edit_delay_seconds,
            table_gap=self.settings.table_edit_gap_seconds,
            ping_delay=self.settings.turn_ping_delay_seconds,
            faces=lambda: self.faces,
            budget=self.budget,
        )
        if self.metrics is not None and self.settings.metrics_port is not None:
            await self.metrics.start(
                self,
                self.sessions,
                self.store,
                host=self.settings.metrics_host,
                port=self.settings.metrics_port,
            )
        if self.settings.web_port is not None:
            await self._start_web(self.settings.web_port)
        self._tell_activities()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sessions.restore()
        if self.syncs:
            await self.sync_commands()
        # The first round only: a face that failed is retried in the background, minutes
        # later, and the bot does not wait for that.
        first_round = asyncio.create_task(self.card_emojis.first_round.wait())
        await asyncio.wait(
            {self._faces_sync, first_round},
            timeout=FACES_WAIT_SECONDS,
            return_when=asyncio.FIRST_COMPLETED,
        )
        first_round.cancel()

    async def _start_web(self, port: int) -> None:
        """Serve the web table on ``WEB_HOST``:``port``, show every change on it beside
        Discord, and put its links in the hand and table messages. Raises
        ``bot.web.server.WebUnavailable`` when nothing can listen there."""
        settings = self.settings
        secret = (
            settings.web_secret.get_secret_value().encode()
            if settings.web_secret is not None
            else secrets.token_bytes(32)
        )
        links = Links(secret, settings.web_url or "", settings.web_link_minutes * 60)
        activity = None
        if settings.discord_client_secret is not None and self.application_id is not None:
            activity = ActivityAuth(
                self.application_id,
                settings.discord_client_secret.get_secret_value(),
                bot_instance_lookup(self.http),
            )
        # On PostgreSQL other processes may run games (shards) that pages here show, and
        # pages there this process's: each change is announced, and each process listens.
        shared = self.store.backend == "postgresql"
        self.store.announces = shared
        self.web = WebServer(
            self.sessions,
            links,
            GuildSettings.defaults(settings),
            activity=activity,
            serves=self.serves_guild,
            remote=shared,
            public_url=settings.web_url,
        )
        address = await self.web.start(settings.web_host, port)
        if not settings.web_url:
            links.base_url = address
        self.sessions.screens.append(self.web.screen)
        self.sessions.delivery.links = links
        self.sessions.delivery.activity = activity is not None

    @property
    def activities(self) -> bool:
        """Whether the table runs inside Discord as an Activity here: the web server is
        up and signs members in (``WEB_PORT`` and ``DISCORD_CLIENT_SECRET`` set), so
        games offer "Open the table"."""
        return self.web is not None and self.web.activity is not None

    def _tell_activities(self) -> None:
        """One start-up line where Activities are half configured; nothing else changes."""
        settings = self.settings
        if settings.web_port is not None and settings.discord_client_secret is None:
            log.warning(
                "the table inside Discord (Activity) is off: DISCORD_CLIENT_SECRET is not "
                "set; the web table works in browsers, and no game offers 'Open the table'"
            )
        elif settings.web_port is None and settings.discord_client_secret is not None:
            log.warning(
                "the table inside Discord (Activity) is off: it needs the web table, and "
                "WEB_PORT is not set"
            )
        elif self.activities:
            log.info("the table inside Discord (Activity) is on")

    async def sync_commands(self) -> bool:
        """Send the slash commands to Discord (to the dev guild's, if set), in one request.

        Returns whether Discord took them. A refusal (a 400 Invalid Form Body, a missing
        scope) or a failure (5xx, no network) is one error line with Discord's answer,
        never raised: the bot serves on, its buttons and the commands Discord already
        had work. A failure is tried again in the background (``SYNC_RETRY_FIRST``
        seconds later, each pause twice the last, at most ``SYNC_RETRY_MOST``); a
        refusal would be refused again, so it waits for the next start.
        """
        if await self._sync_once():
            return True
        if self._transient_sync_failure and (self._sync_retry is None or self._sync_retry.done()):
            self._sync_retry = asyncio.create_task(self._retry_sync(), name="command-sync")
        return False

    async def _sync_once(self) -> bool:
        guild = None
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        try:
            await self.tree.sync(guild=guild)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            # A 5xx or no answer may pass; a 4xx is Discord's verdict on the commands.
            self._transient_sync_failure = not isinstance(error, discord.HTTPException) or (
                error.status >= 500
            )
            # discord.py puts each field's error on a line of its own: one line here.
            answer = "; ".join(str(error).splitlines()) or type(error).__name__
            log.error("slash commands not synced (Discord keeps the ones it had): %s", answer)
            return False
        return True

    async def _retry_sync(self) -> None:
        pause = SYNC_RETRY_FIRST
        while True:
            await asyncio.sleep(pause)
            if await self._sync_once():
                log.info("slash commands synced on a later try")
                return
            if not self._transient_sync_failure:
                return
            pause = min(2 * pause, SYNC_RETRY_MOST)

    async def close(self) -> None:
        # Whatever may reach the store ends before it closes, the clock first: discord.py
        # cancels the cogs' sweepers only in super().close(), without waiting, and a
        # sweep running then met a closed store (StoreClosed, logged as a failed sweep).
        sweeping = [c for c in self.cogs.values() if isinstance(c, TuqueCog)]
        await asyncio.gather(*(cog.stop_sweeping() for cog in sweeping))
        if self.metrics is not None:
            await self.metrics.close()
        if self.web is not None:
            await self.web.close()
        for task in (self._faces_sync, self._sync_retry):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if hasattr(self, "sessions"):
            await self.sessions.close()
        if hasattr(self, "store"):
            await self.store.close()
        if self._own_executor and self._executor is not None:
            # Waits for a search in progress (a fraction of a second), off the event loop.
            await asyncio.to_thread(self._executor.shutdown, wait=True, cancel_futures=True)
            self._executor = None
        if self._own_drawer and self._drawer is not None:
            await asyncio.to_thread(self._drawer.shutdown, wait=True, cancel_futures=True)
            self._drawer = None
        await super().close()
