"""Members' own choices, the same in every guild: when forced moves are played for them.

A member who never chose has the default (``Autoplay.LAST``); only a choice is stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from bot.store.base import StoreBase, _now


class Autoplay(StrEnum):
    """When a member's forced move (exactly one legal action) is played for them."""

    OFF = "off"
    """Never: the member always clicks."""
    LAST = "last"
    """The last trick only (every card is forced then); the default."""
    FORCED = "forced"
    """Every forced move: a lone legal card, or a decision with only one choice."""


DEFAULT_AUTOPLAY = Autoplay.LAST


class MemberQueries(StoreBase):
    """The ``Store`` methods on members' own choices."""

    async def autoplay_of(self, user_ids: Iterable[int]) -> dict[int, Autoplay]:
        """Each of ``user_ids``'s auto-play choice (``DEFAULT_AUTOPLAY`` if never set)."""
        users = sorted(set(user_ids))
        found = dict.fromkeys(users, DEFAULT_AUTOPLAY)
        if not users:
            return found
        marks = ", ".join("?" * len(users))
        async with self._transaction(write=False) as db:
            rows = await db.execute_fetchall(
                f"SELECT user_id, autoplay FROM member_prefs WHERE user_id IN ({marks})", users
            )
        found.update({row["user_id"]: Autoplay(row["autoplay"]) for row in rows})
        return found

    async def set_autoplay(
        self, user_id: int, choice: Autoplay, *, now: float | None = None
    ) -> None:
        """Store ``user_id``'s auto-play choice."""
        now = _now(now)
        async with self._transaction(write=True) as db:
            await db.execute(
                """
                INSERT INTO member_prefs (user_id, autoplay, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE
                SET autoplay = excluded.autoplay, updated_at = excluded.updated_at
                """,
                (user_id, choice.value, now),
            )
