"""The store's server settings on both backends (an SQLite file, a PostgreSQL
database): the bot's defaults under a server's own choices, the turn timer's pair, and
each server's timer in the sweep."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from bot.settings import Settings
from bot.store import GuildSettings, SeatRow, Store, TimerDue
from bot.store.schema import guild_settings

HERE, THERE = 1, 2
ANN, BOB = 100, 200
T0 = 1_000_000.0
DEFAULTS = GuildSettings(reminder_minutes=5, away_minutes=15, computer_delay_seconds=1.0)


@pytest.fixture
async def store(database: str | Path) -> AsyncIterator[Store]:
    async with await Store.open(database) as opened:
        yield opened


async def rows(store: Store) -> list[tuple[object, ...]]:
    """The ``guild_settings`` table as stored, read behind the store's methods."""
    async with store._read() as db:
        query = select(guild_settings).order_by(guild_settings.c.guild_id)
        return [tuple(row) for row in await db.execute(query)]


def test_defaults_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator's environment sets the timer and the computer's pace; the code the rest."""
    monkeypatch.setenv("TURN_REMINDER_MINUTES", "3")
    monkeypatch.setenv("TURN_AWAY_MINUTES", "20")
    monkeypatch.setenv("COMPUTER_MOVE_DELAY_SECONDS", "0.5")
    defaults = GuildSettings.defaults(Settings(_env_file=None))  # type: ignore[call-arg]
    assert defaults == GuildSettings(3, 20, 0.5, hints_in_rated=False, default_variant="tuque")
    assert (defaults.reminder_seconds, defaults.away_seconds) == (180, 1200)


async def test_a_server_without_settings_has_the_defaults(store: Store) -> None:
    assert await store.guild_settings(HERE, DEFAULTS) == DEFAULTS
    assert await store.all_guild_settings(DEFAULTS) == {}


async def test_own_choices_over_the_defaults(store: Store) -> None:
    """What a server set is its own; the rest follows the defaults, even when they change."""
    await store.update_guild_settings(
        HERE, by=ANN, hints_in_rated=True, default_variant="euchre", now=T0
    )
    mine = await store.guild_settings(HERE, DEFAULTS)
    assert (mine.hints_in_rated, mine.default_variant) == (True, "euchre")
    assert mine.computer_delay_seconds == 1.0
    slower = GuildSettings(reminder_minutes=10, away_minutes=30, computer_delay_seconds=3)
    assert (await store.guild_settings(HERE, slower)).computer_delay_seconds == 3
    assert await store.guild_settings(THERE, DEFAULTS) == DEFAULTS
    assert await store.all_guild_settings(DEFAULTS) == {HERE: mine}


async def test_later_changes_keep_the_earlier_ones(store: Store) -> None:
    """Each change touches only the settings it names, and records who made it and when."""
    await store.update_guild_settings(HERE, by=ANN, reminder_minutes=2, away_minutes=6, now=T0)
    await store.update_guild_settings(HERE, by=BOB, computer_delay_seconds=0, now=T0 + 1)
    mine = await store.guild_settings(HERE, DEFAULTS)
    assert (mine.reminder_minutes, mine.away_minutes, mine.computer_delay_seconds) == (2, 6, 0)
    assert await rows(store) == [(HERE, 2.0, 6.0, 0.0, None, None, T0 + 1, BOB, None, None)]


async def test_none_puts_a_setting_back_to_the_default(store: Store) -> None:
    await store.update_guild_settings(HERE, by=ANN, computer_delay_seconds=4, hints_in_rated=True)
    await store.update_guild_settings(HERE, by=ANN, computer_delay_seconds=None)
    mine = await store.guild_settings(HERE, DEFAULTS)
    assert (mine.computer_delay_seconds, mine.hints_in_rated) == (1.0, True)


async def test_reset_removes_every_choice(store: Store) -> None:
    await store.update_guild_settings(HERE, by=ANN, default_variant="british")
    await store.update_guild_settings(THERE, by=BOB, default_variant="euchre")
    assert await store.reset_guild_settings(HERE)
    assert not await store.reset_guild_settings(HERE)
    assert await store.guild_settings(HERE, DEFAULTS) == DEFAULTS
    assert (await store.guild_settings(THERE, DEFAULTS)).default_variant == "euchre"


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"reminder_minutes": 5}, "set together"),
        ({"reminder_minutes": 5, "away_minutes": None}, "set together"),
        ({"reminder_minutes": 10, "away_minutes": 10}, "before away_minutes"),
        ({"reminder_minutes": 0, "away_minutes": 10}, "above 0"),
        ({"computer_delay_seconds": -1}, "negative"),
        ({"default_variant": "pepper"}, "no variant"),
        ({"turn_minutes": 3}, "no such setting"),
    ],
)
async def test_values_the_table_refuses_write_nothing(
    store: Store, values: dict[str, object], message: str
) -> None:
    await store.update_guild_settings(HERE, by=ANN, hints_in_rated=True, now=T0)
    before = await rows(store)
    with pytest.raises(ValueError, match=message):
        await store.update_guild_settings(HERE, by=BOB, **values)  # type: ignore[arg-type]
    assert await rows(store) == before


async def test_the_table_itself_keeps_the_reminder_first(store: Store) -> None:
    """A write that bypasses the store still cannot put the reminder after the takeover."""
    insert = text(
        "INSERT INTO guild_settings (guild_id, reminder_minutes, away_minutes, updated_at)"
        " VALUES (1, 10, 5, 0)"
    )
    with pytest.raises(IntegrityError):
        await store._write(lambda db: db.execute(insert))
    assert await rows(store) == []


async def new_game(store: Store, guild: int, now: float) -> int:
    seats = [SeatRow.human(0, ANN, "ann"), SeatRow.human(1, BOB, "bob")]
    return await store.create_game(
        guild, 10, "tuque", {}, seed=7, first_dealer=0, seats=seats, now=now
    )


async def test_each_server_has_its_own_turn_timer(store: Store) -> None:
    """The sweep's delays are the defaults; a server with its own timer is due on its own."""
    here = await new_game(store, HERE, now=T0)
    there = await new_game(store, THERE, now=T0)
    await store.update_guild_settings(HERE, by=ANN, reminder_minutes=1, away_minutes=2)

    due = await store.due_turn_timers(T0 + 90, remind_after=300, forfeit_after=900)
    assert [(t.game_id, t.due, t.remind_after, t.forfeit_after) for t in due] == [
        (here, TimerDue.REMIND, 60, 120)
    ]
    due = await store.due_turn_timers(T0 + 400, remind_after=300, forfeit_after=900)
    assert [(t.game_id, t.due) for t in due] == [
        (here, TimerDue.FORFEIT),
        (there, TimerDue.REMIND),
    ]
    assert due[1].forfeit_after == 900
