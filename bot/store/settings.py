"""Server settings (``/tuque settings``): one row per guild that changed any.

A column left NULL follows the bot's default, so an operator who changes the
environment (``TURN_REMINDER_MINUTES``, ``TURN_AWAY_MINUTES``,
``COMPUTER_MOVE_DELAY_SECONDS``) changes it for every server that kept the default.
The store knows the rules of the data, not the ranges a member may choose: those
are the command's (``bot.cogs.settings``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, delete, select

from bot.settings import Settings
from bot.store.base import Connection, StoreBase, _now, dialect_insert
from bot.store.schema import guild_settings
from engine.variants import VARIANTS

DEFAULT_VARIANT = "tuque"
"""The game ``/tuque bot``, ``table`` and ``challenge`` start when neither the member
nor the server names one."""


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """What a server plays with: its own choices, the bot's defaults for the rest.

    ``reminder_minutes`` into a member's turn they are reminded in the channel;
    ``away_minutes`` into it (always more) the computer plays their cards for the rest
    of the hand (docs/rulings.md R9). ``computer_delay_seconds``: the pause before
    each computer move. ``hints_in_rated``: whether a member may ask for a hint in a
    rated game (every seat a member). ``default_variant``: a key of
    ``engine.variants.VARIANTS``. ``threads``: whether each game gets a thread started
    from its table message, where its pings and hand results go (without the thread
    permissions a game stays in the channel). ``event_host_role_id``: the role whose
    members may create, start and cancel events as members with Manage Events may
    (``bot.cogs.events``); None: Manage Events alone.
    """

    reminder_minutes: float
    away_minutes: float
    computer_delay_seconds: float
    hints_in_rated: bool = False
    default_variant: str = DEFAULT_VARIANT
    threads: bool = True
    event_host_role_id: int | None = None

    @classmethod
    def defaults(cls, settings: Settings) -> GuildSettings:
        """The bot's defaults: the operator's environment, and the code's for the rest."""
        return cls(
            reminder_minutes=settings.turn_reminder_minutes,
            away_minutes=settings.turn_away_minutes,
            computer_delay_seconds=settings.computer_move_delay_seconds,
        )

    @property
    def reminder_seconds(self) -> float:
        return self.reminder_minutes * 60

    @property
    def away_seconds(self) -> float:
        return self.away_minutes * 60


SETTING_NAMES = tuple(f.name for f in dataclasses.fields(GuildSettings))
"""The names of the settings, as ``GuildSettings`` fields and ``guild_settings`` columns."""


def _merged(row: Row[Any] | None, defaults: GuildSettings) -> GuildSettings:
    if row is None:
        return defaults
    values = row._mapping
    own: dict[str, Any] = {name: values[name] for name in SETTING_NAMES if values[name] is not None}
    for flag in ("hints_in_rated", "threads"):
        if flag in own:
            own[flag] = bool(own[flag])
    return dataclasses.replace(defaults, **own)


def _check(values: dict[str, Any]) -> None:
    """Raise ``ValueError`` unless ``values`` fit the ``guild_settings`` table."""
    unknown = set(values) - set(SETTING_NAMES)
    if unknown:
        raise ValueError(f"no such setting: {', '.join(sorted(unknown))}")
    reminder, away = values.get("reminder_minutes"), values.get("away_minutes")
    if ("reminder_minutes" in values) != ("away_minutes" in values) or (
        (reminder is None) != (away is None)
    ):
        raise ValueError("reminder_minutes and away_minutes are set together")
    if reminder is not None and not 0 < reminder < away:
        raise ValueError("the reminder must come before away_minutes, both above 0")
    delay = values.get("computer_delay_seconds")
    if delay is not None and delay < 0:
        raise ValueError("computer_delay_seconds cannot be negative")
    variant = values.get("default_variant")
    if variant is not None and variant not in VARIANTS:
        raise ValueError(f"default_variant: no variant {variant!r}")


class SettingsQueries(StoreBase):
    """The ``Store`` methods on server settings."""

    async def guild_settings(self, guild_id: int, defaults: GuildSettings) -> GuildSettings:
        """The server's settings: its own choices, ``defaults`` for the others."""
        async with self._read() as db:
            row = (
                await db.execute(
                    select(guild_settings).where(guild_settings.c.guild_id == guild_id)
                )
            ).first()
        return _merged(row, defaults)

    async def all_guild_settings(self, defaults: GuildSettings) -> dict[int, GuildSettings]:
        """The settings of every server on this process's shards that changed any, by
        guild id (the others use ``defaults``)."""
        async with self._read() as db:
            query = select(guild_settings).where(self.shards.clause(guild_settings.c.guild_id))
            rows = (await db.execute(query)).all()
        return {row.guild_id: _merged(row, defaults) for row in rows}

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        by: int | None,
        now: float | None = None,
        **values: float | bool | str | None,
    ) -> None:
        """Set the named settings of the server (None: back to the bot's default); the
        others stay as they are. ``by``: the member who changed them.

        ``values`` are ``GuildSettings`` field names; ``reminder_minutes`` and
        ``away_minutes`` go together (both None, or the reminder first). Raises
        ``ValueError`` for an unknown name or values the table refuses; nothing is
        written then.
        """
        _check(values)
        # Column names come from SETTING_NAMES (checked above), never from a member.
        row = {name: int(v) if isinstance(v, bool) else v for name, v in values.items()}
        row |= {"guild_id": guild_id, "updated_at": _now(now), "updated_by": by}

        async def work(db: Connection) -> None:
            upsert = dialect_insert(db, guild_settings).values(row)
            changed = [name for name in row if name != "guild_id"]
            await db.execute(
                upsert.on_conflict_do_update(
                    index_elements=[guild_settings.c.guild_id],
                    set_={name: upsert.excluded[name] for name in changed},
                )
            )

        await self._write(work)

    async def reset_guild_settings(self, guild_id: int) -> bool:
        """Put every setting of the server back to the bot's defaults; return whether it
        had any of its own."""

        async def work(db: Connection) -> bool:
            result = await db.execute(
                delete(guild_settings).where(guild_settings.c.guild_id == guild_id)
            )
            return result.rowcount > 0

        return await self._write(work)
