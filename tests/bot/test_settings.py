"""Settings: defaults, environment and ``.env`` parsing, and the token kept secret."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from bot.settings import Settings

TOKEN = "MTIz.not-a-real-token.abc"
VARIABLES = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "TURN_REMINDER_MINUTES",
    "TURN_AWAY_MINUTES",
    "COMPUTER_MOVE_DELAY_SECONDS",
    "DATABASE_URL",
    "DATABASE_POOL_SIZE",
    "SHARD_COUNT",
    "SHARD_IDS",
    "COMPUTER_PROCESSES",
)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Run each test in an empty folder (no ``.env``) without the settings' variables."""
    monkeypatch.chdir(tmp_path)
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_defaults() -> None:
    """With nothing configured every setting has its documented default."""
    settings = Settings()
    assert settings.discord_token is None
    assert settings.database_path == Path("data/tuque.db")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.turn_reminder_minutes == 5
    assert settings.turn_away_minutes == 15
    assert settings.computer_move_delay_seconds == 1.0
    assert settings.shard_count is None and settings.shard_ids is None
    assert settings.database == Path("data/tuque.db")


def test_environment_variables_are_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each variable is read and converted to its field's type."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", "/var/lib/tuque/bot.db")
    monkeypatch.setenv("DEV_GUILD_ID", "123456789012345678")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("TURN_REMINDER_MINUTES", "2.5")
    monkeypatch.setenv("TURN_AWAY_MINUTES", "7.5")
    monkeypatch.setenv("COMPUTER_MOVE_DELAY_SECONDS", "0")
    settings = Settings()
    assert settings.discord_token == SecretStr(TOKEN)
    assert settings.database_path == Path("/var/lib/tuque/bot.db")
    assert settings.dev_guild_id == 123456789012345678
    assert settings.log_level == "DEBUG"
    assert settings.turn_reminder_minutes == 2.5
    assert settings.turn_away_minutes == 7.5
    assert settings.computer_move_delay_seconds == 0


def test_dotenv_file_is_read(tmp_path: Path) -> None:
    """A ``.env`` in the working directory supplies settings."""
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nDEV_GUILD_ID=42\n")
    settings = Settings()
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == TOKEN
    assert settings.dev_guild_id == 42


def test_environment_overrides_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An environment variable wins over the same key in ``.env``."""
    (tmp_path / ".env").write_text("LOG_LEVEL=ERROR\n")
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    assert Settings().log_level == "WARNING"


def test_empty_values_mean_default(tmp_path: Path) -> None:
    """Keys left empty, as in a copied ``.env.example``, fall back to the defaults."""
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nDEV_GUILD_ID=\nLOG_LEVEL=\n")
    settings = Settings()
    assert settings.discord_token is None
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"


def test_blank_token_counts_as_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A token of only spaces is treated as no token at all."""
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    assert Settings().discord_token is None


def test_token_hidden_in_repr_and_str(monkeypatch: pytest.MonkeyPatch) -> None:
    """The token never appears in the settings' repr, str or model dump."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    settings = Settings()
    assert TOKEN not in repr(settings)
    assert TOKEN not in str(settings)
    assert TOKEN not in str(settings.model_dump())


def test_turn_timer_in_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn timer reminds and hands the cards to the computer after the minutes set."""
    monkeypatch.setenv("TURN_REMINDER_MINUTES", "3")
    monkeypatch.setenv("TURN_AWAY_MINUTES", "8")
    settings = Settings()
    assert settings.turn_reminder_seconds == 180
    assert settings.turn_forfeit_seconds == 480


@pytest.mark.parametrize("away", ["5", "4"])
def test_away_must_come_after_the_reminder(monkeypatch: pytest.MonkeyPatch, away: str) -> None:
    """A member cannot be away before they were reminded."""
    monkeypatch.setenv("TURN_REMINDER_MINUTES", "5")
    monkeypatch.setenv("TURN_AWAY_MINUTES", away)
    with pytest.raises(ValidationError, match="TURN_AWAY_MINUTES"):
        Settings()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LOG_LEVEL", "LOUD"),
        ("TURN_REMINDER_MINUTES", "0"),
        ("TURN_AWAY_MINUTES", "-1"),
        ("COMPUTER_MOVE_DELAY_SECONDS", "-1"),
        ("DEV_GUILD_ID", "not-a-number"),
    ],
)
def test_invalid_values_are_rejected(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    """Out-of-range or malformed values raise ValidationError naming the setting."""
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=name.lower()):
        Settings()


@pytest.mark.parametrize(
    ("ids", "expected"), [("1", [1]), ("0,2", [0, 2]), (" 3 , 1 ", [3, 1]), ("2,", [2])]
)
def test_shard_ids_are_comma_separated(
    monkeypatch: pytest.MonkeyPatch, ids: str, expected: list[int]
) -> None:
    """``SHARD_IDS`` is a list of numbers separated by commas, spaces allowed."""
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", ids)
    settings = Settings()
    assert settings.shard_count == 4 and settings.shard_ids == expected


def test_a_shard_count_alone_runs_every_shard(monkeypatch: pytest.MonkeyPatch) -> None:
    """``SHARD_COUNT`` without ``SHARD_IDS``: this process runs all of them."""
    monkeypatch.setenv("SHARD_COUNT", "3")
    settings = Settings()
    assert settings.shard_count == 3 and settings.shard_ids is None


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        (None, "0", "SHARD_IDS needs SHARD_COUNT"),
        ("2", "2", "SHARD_IDS must be numbers from 0 to 1"),
        ("2", "-1", "SHARD_IDS must be numbers from 0 to 1"),
        ("2", "1,1", "SHARD_IDS names a shard twice"),
        ("2", "one", "shard_ids"),
        ("0", None, "shard_count"),
    ],
)
def test_shards_that_cannot_be_run_are_refused(
    monkeypatch: pytest.MonkeyPatch, count: str | None, ids: str | None, says: str
) -> None:
    """Shard ids outside the count, named twice or without a count, and a count below
    one are each refused with a reason."""
    for name, value in (("SHARD_COUNT", count), ("SHARD_IDS", ids)):
        if value is not None:
            monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=says):
        Settings()


def test_a_database_url_wins_over_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``DATABASE_URL`` set, the store opens PostgreSQL, not the SQLite file."""
    url = "postgresql://tuque:secret@db:5432/tuque"
    monkeypatch.setenv("DATABASE_URL", url)
    assert Settings().database == url
    monkeypatch.setenv("DATABASE_URL", "mysql://db/tuque")
    with pytest.raises(ValidationError, match="database_url"):
        Settings()


def test_the_client_secret_is_hidden_and_activities_need_the_web(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DISCORD_CLIENT_SECRET never shows in repr or str; blank counts as missing; the
    Activity is on only with the secret and WEB_PORT."""
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "  ")
    assert Settings().discord_client_secret is None
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "s3cret-of-the-portal")
    settings = Settings()
    assert "s3cret" not in repr(settings) and "s3cret" not in str(settings)
    assert not settings.activities
    monkeypatch.setenv("WEB_PORT", "0")
    assert Settings().activities
