"""Members' own choices, the same in every guild: when forced moves are played for them.

A member who never chose has the default (``Autoplay.LAST``); only a choice is stored.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from bot.store.base import Connection, StoreBase, _now, dialect_insert
from bot.store.schema import member_prefs
from bot.table import DEFAULT_AUTOPLAY, Autoplay


class MemberQueries(StoreBase):
    """The ``Store`` methods on members' own choices."""

    async def autoplay_of(self, user_ids: Iterable[int]) -> dict[int, Autoplay]:
        """Each of ``user_ids``'s auto-play choice (``DEFAULT_AUTOPLAY`` if never set)."""
        users = sorted(set(user_ids))
        found = dict.fromkeys(users, DEFAULT_AUTOPLAY)
        if not users:
            return found
        query = select(member_prefs.c.user_id, member_prefs.c.autoplay).where(
            member_prefs.c.user_id.in_(users)
        )
        async with self._read() as db:
            rows = (await db.execute(query)).all()
        found.update({row.user_id: Autoplay(row.autoplay) for row in rows})
        return found

    async def set_autoplay(
        self, user_id: int, choice: Autoplay, *, now: float | None = None
    ) -> None:
        """Store ``user_id``'s auto-play choice."""
        now = _now(now)

        async def work(db: Connection) -> None:
            insert = dialect_insert(db, member_prefs).values(
                user_id=user_id, autoplay=choice.value, updated_at=now
            )
            await db.execute(
                insert.on_conflict_do_update(
                    index_elements=[member_prefs.c.user_id],
                    set_={
                        "autoplay": insert.excluded.autoplay,
                        "updated_at": insert.excluded.updated_at,
                    },
                )
            )

        await self._write(work)
