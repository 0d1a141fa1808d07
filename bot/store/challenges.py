"""Challenges: one member invites another to a game, who accepts or declines in time.

``resolve_challenge`` is a compare-and-set update that reports whether it changed
anything: of two concurrent clicks exactly one wins, also from two processes on
PostgreSQL (the second waits for the challenge's row lock, and its transaction runs
again on the answered challenge). Accepting a challenge is
``create_game(..., accepting=id)`` (``bot.store.games``), which answers it with
``_resolve`` in the transaction that creates the game.

Two members have at most one open challenge between them in a channel:
``create_challenge`` looks for one, either way, in the transaction that creates the
new one, with both members locked (``lock_members``), so two clicks at once (a double
click on Rematch, or both members' challenges crossing) make one challenge.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import Row, and_, insert, or_, select, update

from bot.store.base import Connection, StoreBase, StoreError, _dump_options, _now, lock_members
from bot.store.schema import challenges


class ChallengeStatus(StrEnum):
    """Lifecycle of a challenge: ``OPEN`` until answered, withdrawn or expired."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


class ChallengeNotFound(StoreError, LookupError):
    """No challenge has this id."""

    def __init__(self, challenge_id: int) -> None:
        super().__init__(f"no challenge with id {challenge_id}")
        self.challenge_id = challenge_id


class ChallengeClosed(StoreError):
    """The challenge can no longer be accepted: it was answered, cancelled or has expired."""

    def __init__(self, challenge_id: int) -> None:
        super().__init__(f"challenge {challenge_id} is no longer open")
        self.challenge_id = challenge_id


class ChallengePending(StoreError):
    """The two members already have an open challenge in the channel (``challenge``, made
    by either of them): one at a time."""

    def __init__(self, challenge: ChallengeRow) -> None:
        super().__init__(f"challenge {challenge.id} between these members is open")
        self.challenge = challenge


@dataclass(frozen=True)
class ChallengeRow:
    """A challenge from ``challenger_id`` to ``opponent_id`` to play ``variant``."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger_id: int
    opponent_id: int
    variant: str
    options: dict[str, Any]
    status: ChallengeStatus
    created_at: float
    expires_at: float
    resolved_at: float | None


async def _resolve(db: Connection, challenge_id: int, status: ChallengeStatus, now: float) -> bool:
    """Move the open, unexpired challenge to ``status`` inside the caller's write
    transaction; return whether this call changed it. Raises ``ChallengeNotFound``.

    The challenge's row is locked first (``FOR UPDATE`` on PostgreSQL), so a second
    answer waits for the first one's transaction and then finds it answered."""
    locked = await db.execute(
        select(challenges.c.id).where(challenges.c.id == challenge_id).with_for_update()
    )
    if locked.first() is None:
        raise ChallengeNotFound(challenge_id)
    result = await db.execute(
        update(challenges)
        .where(
            challenges.c.id == challenge_id,
            challenges.c.status == ChallengeStatus.OPEN,
            challenges.c.expires_at > now,
        )
        .values(status=status.value, resolved_at=now)
    )
    return result.rowcount == 1


def _challenge(row: Row[Any]) -> ChallengeRow:
    return ChallengeRow(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        challenger_id=row.challenger_id,
        opponent_id=row.opponent_id,
        variant=row.variant,
        options=json.loads(row.options),
        status=ChallengeStatus(row.status),
        # float(): SQLite gives values read back through RETURNING without REAL affinity
        # (0.0 comes back as 0).
        created_at=float(row.created_at),
        expires_at=float(row.expires_at),
        resolved_at=None if row.resolved_at is None else float(row.resolved_at),
    )


class ChallengeQueries(StoreBase):
    """The ``Store`` methods on challenges."""

    async def create_challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        variant: str,
        options: Mapping[str, Any],
        *,
        lifetime: float,
        now: float | None = None,
    ) -> ChallengeRow:
        """Create an open challenge that expires ``lifetime`` seconds after ``now``.

        Raises ``ChallengePending`` if the two members have an open, unexpired challenge
        in the channel (either way), and ``ValueError`` if a user challenges themselves
        or ``lifetime`` < 0.
        """
        if challenger_id == opponent_id:
            raise ValueError("a player cannot challenge themselves")
        if lifetime < 0:
            raise ValueError("lifetime must be >= 0 seconds")
        now = _now(now)
        row = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "challenger_id": challenger_id,
            "opponent_id": opponent_id,
            "variant": variant,
            "options": _dump_options(options),
            "status": ChallengeStatus.OPEN.value,
            "created_at": now,
            "expires_at": now + lifetime,
        }

        async def work(db: Connection) -> Row[Any]:
            await lock_members(db, (challenger_id, opponent_id))
            pending = (
                await db.execute(
                    select(challenges).where(
                        challenges.c.channel_id == channel_id,
                        challenges.c.status == ChallengeStatus.OPEN,
                        challenges.c.expires_at > now,
                        or_(
                            and_(
                                challenges.c.challenger_id == challenger_id,
                                challenges.c.opponent_id == opponent_id,
                            ),
                            and_(
                                challenges.c.challenger_id == opponent_id,
                                challenges.c.opponent_id == challenger_id,
                            ),
                        ),
                    )
                )
            ).first()
            if pending is not None:
                raise ChallengePending(_challenge(pending))
            return (await db.execute(insert(challenges).values(row).returning(challenges))).one()

        return _challenge(await self._write(work))

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the Discord message showing the challenge. Raises ``ChallengeNotFound``."""

        async def work(db: Connection) -> None:
            result = await db.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id)
                .values(message_id=message_id)
            )
            if result.rowcount == 0:
                raise ChallengeNotFound(challenge_id)

        await self._write(work)

    async def load_challenge(self, challenge_id: int) -> ChallengeRow:
        """Return the challenge. Raises ``ChallengeNotFound``."""
        async with self._read() as db:
            row = (
                await db.execute(select(challenges).where(challenges.c.id == challenge_id))
            ).first()
        if row is None:
            raise ChallengeNotFound(challenge_id)
        return _challenge(row)

    async def resolve_challenge(
        self, challenge_id: int, status: ChallengeStatus, *, now: float | None = None
    ) -> bool:
        """Move an open, unexpired challenge to ``ACCEPTED``, ``DECLINED`` or
        ``CANCELLED``; return whether this call changed it.

        Compare-and-set: of two concurrent calls at most one returns True, and a
        challenge past ``expires_at`` can no longer be answered even before
        ``expire_challenges`` has run. Raises ``ChallengeNotFound``, and
        ``ValueError`` for ``OPEN`` or ``EXPIRED`` (use ``expire_challenges``).
        """
        status = ChallengeStatus(status)
        if status in (ChallengeStatus.OPEN, ChallengeStatus.EXPIRED):
            raise ValueError(f"resolve_challenge cannot set {status}")
        now = _now(now)

        async def work(db: Connection) -> bool:
            return await _resolve(db, challenge_id, status, now)

        return await self._write(work)

    async def open_challenges(self) -> list[ChallengeRow]:
        """Every open challenge of this process's shards, oldest first (including ones
        past ``expires_at`` that ``expire_challenges`` has not swept yet)."""
        async with self._read() as db:
            rows = await db.execute(
                select(challenges)
                .where(
                    challenges.c.status == ChallengeStatus.OPEN,
                    self.shards.clause(challenges.c.guild_id),
                )
                .order_by(challenges.c.id)
            )
            return [_challenge(r) for r in rows]

    async def expire_challenges(self, now: float | None = None) -> list[ChallengeRow]:
        """Mark this process's shards' open challenges with ``expires_at <= now``
        expired; return them (oldest first) so their messages can be updated."""
        now = _now(now)

        async def work(db: Connection) -> list[Row[Any]]:
            result = await db.execute(
                update(challenges)
                .where(
                    challenges.c.status == ChallengeStatus.OPEN,
                    challenges.c.expires_at <= now,
                    self.shards.clause(challenges.c.guild_id),
                )
                .values(status=ChallengeStatus.EXPIRED.value, resolved_at=now)
                .returning(challenges)
            )
            return list(result)

        # RETURNING yields rows in no defined order.
        return sorted((_challenge(r) for r in await self._write(work)), key=lambda c: c.id)
