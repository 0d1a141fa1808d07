"""Moves and hints relayed between the bot's processes (PostgreSQL): a web page on one
process plays a game another process runs (``bot.web.relay``).

An ask is a row of ``web_asks``, written with a ``NOTIFY`` of :data:`ASKS` in its own
transaction; the answer is written into the row with a ``NOTIFY`` of :data:`ANSWERS`;
the asker takes the answer and the row goes. The notifications name the row and its
game, never its action or answer: an action may be a card (a discard is secret), and
PostgreSQL may log payloads. Rows an asker left (it stopped, or gave up) are swept by
the next ask after :data:`ASK_LIFETIME`.

On SQLite (one process) nothing asks; the table is there so that the schemas agree.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from bot.store.base import Connection, StoreBase, StoreError, _now
from bot.store.schema import web_asks

__all__ = ["ANSWERS", "ASKS", "ASK_LIFETIME", "Ask", "AskQueries"]

ASKS = "tuque_asks"
"""The ``NOTIFY`` channel of new asks: ``{"ask": row id, "game": game id}``."""
ANSWERS = "tuque_answers"
"""The ``NOTIFY`` channel of answered asks: ``{"ask": row id}``."""

ASK_LIFETIME = 60.0
"""Seconds after which an ask's row is swept, answered or not (an asker waits far less)."""


@dataclass(frozen=True, slots=True)
class Ask:
    """A move or a hint a page asks of the game's process.

    Attributes:
        id: the row's id, which the notifications name.
        game: the game's id.
        member: the member whose page asks (its link checked by the asking process).
        seq: the game's log length the page saw.
        action: the action id to play; None asks for a hint.
    """

    id: int
    game: int
    member: int
    seq: int
    action: int | None


class AskQueries(StoreBase):
    """The ``Store`` methods of relayed asks (PostgreSQL only)."""

    async def ask(
        self, game_id: int, member: int, seq: int, action: int | None, *, now: float | None = None
    ) -> int:
        """Store an ask and notify :data:`ASKS` of it on commit; sweep asks older than
        :data:`ASK_LIFETIME`.

        Returns:
            the ask's id, which its answer's notification names.

        Raises:
            StoreError: the store is on SQLite.
            StoreClosed, sqlalchemy.exc.SQLAlchemyError: the store failed.
        """
        self._check_relays()
        now = _now(now)

        async def work(db: Connection) -> int:
            await db.execute(delete(web_asks).where(web_asks.c.asked_at < now - ASK_LIFETIME))
            ask_id: int = (
                await db.execute(
                    insert(web_asks)
                    .values(game_id=game_id, member_id=member, seq=seq, action=action, asked_at=now)
                    .returning(web_asks.c.id)
                )
            ).scalar_one()
            await db.execute(select(func.pg_notify(ASKS, _payload(ask=ask_id, game=game_id))))
            return ask_id

        return await self._write(work)

    async def asked(self, ask_id: int) -> Ask | None:
        """The ask ``ask_id`` if it waits for its answer (None: answered, or its asker
        gave up)."""
        self._check_relays()
        query = select(web_asks).where(web_asks.c.id == ask_id, web_asks.c.answer.is_(None))
        async with self._read() as db:
            row = (await db.execute(query)).one_or_none()
        if row is None:
            return None
        return Ask(row.id, row.game_id, row.member_id, row.seq, row.action)

    async def answer(self, ask_id: int, answer: dict[str, Any]) -> bool:
        """Store the answer to ``ask_id`` and notify :data:`ANSWERS` on commit.

        Returns:
            False if the ask is gone (its asker gave up) or answered already: nothing
            was written or notified.
        """
        self._check_relays()

        async def work(db: Connection) -> bool:
            answered = (
                await db.execute(
                    update(web_asks)
                    .where(web_asks.c.id == ask_id, web_asks.c.answer.is_(None))
                    .values(answer=json.dumps(answer, separators=(",", ":")))
                )
            ).rowcount
            if answered:
                await db.execute(select(func.pg_notify(ANSWERS, _payload(ask=ask_id))))
            return bool(answered)

        return await self._write(work)

    async def take_answer(self, ask_id: int) -> dict[str, Any] | None:
        """The answer to ``ask_id``, its row deleted; None (and the row deleted all the
        same) if unanswered: the asker gives up, and a late answer finds no row."""
        self._check_relays()

        async def work(db: Connection) -> str | None:
            taken = await db.execute(
                delete(web_asks).where(web_asks.c.id == ask_id).returning(web_asks.c.answer)
            )
            return taken.scalar_one_or_none()

        text = await self._write(work)
        if text is None:
            return None
        answer = json.loads(text)
        return answer if isinstance(answer, dict) else None

    def _check_relays(self) -> None:
        if self.backend != "postgresql":
            raise StoreError("only a PostgreSQL store relays asks between processes")


def _payload(**ids: int) -> str:
    """A notification's payload: compact JSON of ids only."""
    return json.dumps(ids, separators=(",", ":"))
