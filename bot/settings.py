"""The bot's configuration, read from environment variables and a ``.env`` file.

Every setting and its default is declared once, here; ``.env.example`` at the
repository root lists them all. Environment variables win over ``.env``, which is
read from the working directory. An empty value (``DEV_GUILD_ID=`` as copied
from ``.env.example``) counts as unset.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class Settings(BaseSettings):
    """Validated settings; field ``x`` is read from the variable ``X``.

    ``discord_token`` may be missing so that the entry point, not a validation
    traceback, tells the user what to do: it checks for None, prints one line
    and exits. The token is a ``SecretStr``: ``repr``, ``str`` and logs show
    ``**********``; call ``get_secret_value()`` only to log in. Raises
    ``pydantic.ValidationError`` for values of the wrong type or range.
    """

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
    )

    discord_token: SecretStr | None = None
    """The bot's token from the Discord developer portal; required to run the bot."""

    database_path: Path = Path("data/tuque.db")
    """SQLite file, relative to the working directory; its folder is created on start.
    The ``.db`` suffix is one the repository's ``.gitignore`` covers together with
    SQLite's ``-wal``/``-shm`` side files, and a ``data/`` folder keeps the three
    together (one volume to mount or back up)."""

    database_url: str | None = Field(default=None, pattern=r"^postgres(ql)?(\+asyncpg)?://")
    """A ``postgresql://`` URL: the database shared by the bot's shard processes (see
    docs/scale-out.md). When set it wins over ``DATABASE_PATH``; unset, the bot keeps its
    data in the SQLite file."""

    database_pool_size: int = Field(default=30, ge=1, le=100)
    """Connections this process keeps open to PostgreSQL (ignored for SQLite, which has
    one). The server's ``max_connections`` must cover every process's pool. At 150 busy
    tables, 10 made clicks queue for a connection (docs/scale-out.md)."""

    shard_count: int | None = Field(default=None, ge=1)
    """How many shards the whole bot runs (Discord requires sharding from 2,500 guilds).
    Unset: one process runs every shard, as many as Discord recommends."""

    shard_ids: list[int] | None = None
    """The shards this process runs, comma-separated (``SHARD_IDS=0,1``); needs
    ``SHARD_COUNT``. Unset: all of them. A process restores, times and plays the games
    of its shards' guilds only."""

    discord_requests_per_second: int = Field(default=50, ge=1)
    """Requests a second Discord allows the bot's token over every route but the
    interaction ones: its global rate limit, 50 unless Discord granted the bot more. The
    processes that share the token share it: a process that runs ``k`` of
    ``SHARD_COUNT`` shards paces its requests to ``k / SHARD_COUNT`` of it
    (:mod:`bot.budget`, docs/scale-out.md)."""

    computer_processes: int = Field(
        default_factory=lambda: len(os.sched_getaffinity(0)), ge=1, le=256
    )
    """Worker processes in which the computer players think; default the cores this
    process may use. Several bot processes on one machine share its cores: give each
    its part."""

    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    """A port on which to serve Prometheus metrics (``/metrics``); unset, none are served."""

    metrics_host: str = "0.0.0.0"
    """The address the metrics endpoint listens on."""

    web_port: int | None = Field(default=None, ge=0, le=65535)
    """A port on which to serve the web table (docs/web.md); unset, there is none, and
    no message carries a web link. 0 takes any free port (logged at start)."""

    web_host: str = "127.0.0.1"
    """The address the web table listens on: this machine only by default, for a
    reverse proxy (which adds HTTPS) in front of it; ``0.0.0.0`` for every network."""

    web_url: str | None = Field(default=None, pattern=r"^https?://[^\s/?#]+(/[^\s?#]*)?$")
    """Where members' browsers reach the web table, e.g. ``https://tuque.example.org``
    behind a reverse proxy; the links in messages start with it. Unset:
    ``http://WEB_HOST:WEB_PORT``, which only works on the bot's own machine or network.
    The server answers its name (and ``localhost``, and addresses in digits) only, and
    lets its origin's pages open sockets (docs/web.md, "Closed to other sites")."""

    web_secret: SecretStr | None = Field(default=None, min_length=16)
    """The key that signs the web links (HMAC-SHA256), at least 16 characters. Unset,
    a random one is made at each start, and the links of a run before stop working
    (a member opens a fresh one from their hand message). Set it to keep links across
    restarts, and the same in every process of a bot split into shards."""

    web_link_minutes: float = Field(default=60.0, gt=0, le=24 * 60)
    """Minutes a web link opens a seat after it is made. Every redraw of a hand or table
    message makes a fresh link, and an open page is sent fresh tokens as it plays."""

    discord_client_secret: SecretStr | None = None
    """The application's OAuth2 client secret (developer portal: OAuth2 > Client Secret),
    with which the web server exchanges an Activity's sign-in code (docs/web.md, "Inside
    Discord: the Activity"). Activities need it and ``WEB_PORT``; unset, the web table
    still works in browsers and no message offers "Open the table". A ``SecretStr``:
    never logged, never sent to a page."""

    dev_guild_id: int | None = Field(default=None, gt=0)
    """A guild to sync slash commands to instantly while developing; None syncs globally."""

    log_level: LogLevel = "INFO"
    """Root log level, any case (``debug`` works)."""

    turn_reminder_minutes: float = Field(default=5.0, gt=0)
    """Minutes into a member's turn before they are reminded in the channel; a server's
    own setting (``/tuque settings``) wins."""

    turn_away_minutes: float = Field(default=15.0, gt=0)
    """Minutes into a member's turn before they count as away and the computer plays
    their cards for the rest of the hand (docs/rulings.md R9); more than
    ``turn_reminder_minutes``. A server's own setting wins."""

    computer_move_delay_seconds: float = Field(default=1.0, ge=0)
    """Pause before each computer move so that humans can follow the play; a server's
    own setting wins. Up to three times longer while the bot asks Discord for more
    than its request budget gives (docs/bot.md, "Back-pressure")."""

    table_edit_delay_seconds: float = Field(default=0.25, ge=0)
    """How long a table edit waits after the change that asks for it, so that a burst of
    plays shares one edit."""

    table_edit_gap_seconds: float = Field(default=1.0, ge=0)
    """Seconds at least between two table edits in one channel (a game's thread, or a
    channel whose games play without threads, where they take turns: each is edited
    every (tables in the channel) seconds): Discord allows about 5 edits per 5 seconds
    in a channel, and a table drawn while it waits for its turn would be stale."""

    turn_ping_delay_seconds: float = Field(default=8.0, ge=0)
    """Seconds into a member's turn before the message that mentions them is posted: a
    member who acts sooner is at the table already and gets no notification."""

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        # The environment gives "0,1"; pydantic-settings would want JSON ("[0, 1]").
        if isinstance(value, str | int):
            return [part.strip() for part in str(value).split(",") if part.strip()]
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_log_level(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("discord_token")
    @classmethod
    def _blank_token_is_missing(cls, value: SecretStr | None) -> SecretStr | None:
        # A token of spaces (e.g. "DISCORD_TOKEN= ") would fail at login with a
        # confusing error; treat it as missing so the entry point explains.
        if value is None or not value.get_secret_value().strip():
            return None
        return SecretStr(value.get_secret_value().strip())

    @field_validator("discord_client_secret")
    @classmethod
    def _blank_secret_is_missing(cls, value: SecretStr | None) -> SecretStr | None:
        # As the token: a secret of spaces is no secret, and Discord would refuse it.
        if value is None or not value.get_secret_value().strip():
            return None
        return SecretStr(value.get_secret_value().strip())

    @model_validator(mode="after")
    def _shards_within_count(self) -> Self:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards in all")
        if not self.shard_ids or any(not 0 <= i < self.shard_count for i in self.shard_ids):
            raise ValueError(f"SHARD_IDS must be numbers from 0 to {self.shard_count - 1}")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("SHARD_IDS names a shard twice")
        return self

    @model_validator(mode="after")
    def _reminder_before_away(self) -> Self:
        if self.turn_away_minutes <= self.turn_reminder_minutes:
            raise ValueError(
                f"TURN_AWAY_MINUTES ({self.turn_away_minutes:g}) must be more than "
                f"TURN_REMINDER_MINUTES ({self.turn_reminder_minutes:g})"
            )
        return self

    @property
    def requests_per_second(self) -> float:
        """This process's share of ``discord_requests_per_second``: the part of the
        token's shards it runs (every shard in one process: all of it)."""
        if self.shard_count is None or self.shard_ids is None:
            return float(self.discord_requests_per_second)
        return self.discord_requests_per_second * len(self.shard_ids) / self.shard_count

    @property
    def turn_reminder_seconds(self) -> float:
        """Seconds of a turn before the reminder (``remind_after`` of the turn timer)."""
        return self.turn_reminder_minutes * 60

    @property
    def turn_forfeit_seconds(self) -> float:
        """Seconds of a turn before the member is away and the computer plays for them
        (``forfeit_after`` of the turn timer)."""
        return self.turn_away_minutes * 60

    @property
    def activities(self) -> bool:
        """Whether the web table also runs inside Discord as an Activity: it needs the web
        server (``WEB_PORT``) and the client secret (``DISCORD_CLIENT_SECRET``)."""
        return self.web_port is not None and self.discord_client_secret is not None

    @property
    def database(self) -> str | Path:
        """What ``Store.open`` opens: ``DATABASE_URL`` if set, else ``DATABASE_PATH``."""
        return self.database_url or self.database_path
