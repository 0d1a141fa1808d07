"""Challenges: one member invites another to a game, who accepts or declines in time.

``resolve_challenge`` is a compare-and-set update that reports whether it changed
anything: of two concurrent clicks exactly one wins. Accepting a challenge is
``create_game(..., accepting=id)`` (``bot.store.games``), which answers it with
``_resolve`` in the transaction that creates the game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import aiosqlite

from bot.store.base import StoreBase, StoreError, _dump_options, _now


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


async def _resolve(
    db: aiosqlite.Connection, challenge_id: int, status: ChallengeStatus, now: float
) -> bool:
    """Move the open, unexpired challenge to ``status`` inside the caller's transaction;
    return whether this call changed it. Raises ``ChallengeNotFound``."""
    cursor = await db.execute(
        """
        UPDATE challenges SET status = ?, resolved_at = ?
        WHERE id = ? AND status = 'open' AND expires_at > ?
        """,
        (status, now, challenge_id, now),
    )
    if cursor.rowcount == 1:
        return True
    exists = await db.execute_fetchall("SELECT 1 FROM challenges WHERE id = ?", (challenge_id,))
    if not exists:
        raise ChallengeNotFound(challenge_id)
    return False


def _challenge(row: aiosqlite.Row) -> ChallengeRow:
    return ChallengeRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        challenger_id=row["challenger_id"],
        opponent_id=row["opponent_id"],
        variant=row["variant"],
        options=json.loads(row["options"]),
        status=ChallengeStatus(row["status"]),
        # float(): values read back through RETURNING skip REAL affinity (0.0 comes back as 0).
        created_at=float(row["created_at"]),
        expires_at=float(row["expires_at"]),
        resolved_at=None if row["resolved_at"] is None else float(row["resolved_at"]),
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

        Raises ``ValueError`` if a user challenges themselves or ``lifetime`` < 0.
        """
        if challenger_id == opponent_id:
            raise ValueError("a player cannot challenge themselves")
        if lifetime < 0:
            raise ValueError("lifetime must be >= 0 seconds")
        now = _now(now)
        async with self._transaction(write=True) as db:
            rows = await db.execute_fetchall(
                """
                INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id,
                                        variant, options, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                RETURNING *
                """,
                (
                    guild_id,
                    channel_id,
                    challenger_id,
                    opponent_id,
                    variant,
                    _dump_options(options),
                    now,
                    now + lifetime,
                ),
            )
        return _challenge(next(iter(rows)))

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the Discord message showing the challenge. Raises ``ChallengeNotFound``."""
        async with self._transaction(write=True) as db:
            cursor = await db.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )
            if cursor.rowcount == 0:
                raise ChallengeNotFound(challenge_id)

    async def load_challenge(self, challenge_id: int) -> ChallengeRow:
        """Return the challenge. Raises ``ChallengeNotFound``."""
        async with self._transaction(write=False) as db:
            rows = list(
                await db.execute_fetchall("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
            )
        if not rows:
            raise ChallengeNotFound(challenge_id)
        return _challenge(rows[0])

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
        async with self._transaction(write=True) as db:
            return await _resolve(db, challenge_id, status, _now(now))

    async def open_challenges(self) -> list[ChallengeRow]:
        """Every open challenge, oldest first (including ones past ``expires_at``
        that ``expire_challenges`` has not swept yet)."""
        async with self._transaction(write=False) as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM challenges WHERE status = 'open' ORDER BY id"
            )
        return [_challenge(r) for r in rows]

    async def expire_challenges(self, now: float | None = None) -> list[ChallengeRow]:
        """Mark open challenges with ``expires_at <= now`` expired; return them
        (oldest first) so their messages can be updated."""
        now = _now(now)
        async with self._transaction(write=True) as db:
            rows = await db.execute_fetchall(
                """
                UPDATE challenges SET status = 'expired', resolved_at = :now
                WHERE status = 'open' AND expires_at <= :now
                RETURNING *
                """,
                {"now": now},
            )
        # RETURNING yields rows in no defined order.
        return sorted((_challenge(r) for r in rows), key=lambda c: c.id)
