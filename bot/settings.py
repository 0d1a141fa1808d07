"""The bot's configuration, read from environment variables and a ``.env`` file.

Every setting and its default is declared once, here; ``.env.example`` at the
repository root lists them all. Environment variables win over ``.env``, which is
read from the working directory. An empty value (``DEV_GUILD_ID=`` as copied
from ``.env.example``) counts as unset.
"""

from __future__ import annotations

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
    own setting wins."""

    table_edit_delay_seconds: float = Field(default=0.5, ge=0)
    """How long a table edit waits so that quick plays share one edit (Discord allows
    about 5 edits per 5 seconds in a channel)."""

    turn_ping_delay_seconds: float = Field(default=8.0, ge=0)
    """Seconds into a member's turn before the message that mentions them is posted: a
    member who acts sooner is at the table already and gets no notification."""

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

    @model_validator(mode="after")
    def _reminder_before_away(self) -> Self:
        if self.turn_away_minutes <= self.turn_reminder_minutes:
            raise ValueError(
                f"TURN_AWAY_MINUTES ({self.turn_away_minutes:g}) must be more than "
                f"TURN_REMINDER_MINUTES ({self.turn_reminder_minutes:g})"
            )
        return self

    @property
    def turn_reminder_seconds(self) -> float:
        """Seconds of a turn before the reminder (``remind_after`` of the turn timer)."""
        return self.turn_reminder_minutes * 60

    @property
    def turn_forfeit_seconds(self) -> float:
        """Seconds of a turn before the member is away and the computer plays for them
        (``forfeit_after`` of the turn timer)."""
        return self.turn_away_minutes * 60
