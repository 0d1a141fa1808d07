"""Lobbies: a table that members join (``/tuque table``), or a challenge of several
members (``/tuque challenge`` with more than one member), until its game starts.

Every change is one write transaction that first checks the lobby is open and
unexpired, then the seat: of two members taking the last seat at once, one has it
and the other's call raises ``SeatUnavailable`` with nothing written. Starting is
``create_game(..., lobby=id)`` (``bot.store.games``), which closes the lobby with
``_start_lobby`` in the transaction that creates the game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import aiosqlite

from bot.store.base import SEAT_COUNTS, SeatKind, StoreBase, StoreError, _dump_options, _now
from bot.store.records import _upsert_player


class LobbyStatus(StrEnum):
    """Lifecycle of a lobby: ``OPEN`` until started, cancelled, declined or expired."""

    OPEN = "open"
    STARTED = "started"
    CANCELLED = "cancelled"
    DECLINED = "declined"
    EXPIRED = "expired"


class LobbyNotFound(StoreError, LookupError):
    """No lobby has this id."""

    def __init__(self, lobby_id: int) -> None:
        super().__init__(f"no lobby with id {lobby_id}")
        self.lobby_id = lobby_id


class LobbyClosed(StoreError):
    """The lobby is no longer open: started, cancelled, declined or expired."""

    def __init__(self, lobby_id: int, status: LobbyStatus) -> None:
        super().__init__(f"lobby {lobby_id} is {status}")
        self.lobby_id = lobby_id
        self.status = status


class SeatUnavailable(StoreError):
    """The seat change cannot be made; the message says why, in a member's words."""


class LobbyNotReady(StoreError):
    """An invitation cannot start: ``waiting_for`` (user ids) have not accepted."""

    def __init__(self, lobby_id: int, waiting_for: Sequence[int]) -> None:
        super().__init__(f"lobby {lobby_id} waits for {len(waiting_for)} member(s) to accept")
        self.lobby_id = lobby_id
        self.waiting_for = tuple(waiting_for)


class LobbyChanged(StoreError):
    """The seats a start was built from are no longer the lobby's: a member joined,
    left or moved, or a computer was added, after the lobby was read. Read it again."""

    def __init__(self, lobby_id: int) -> None:
        super().__init__(f"lobby {lobby_id} changed since it was read")
        self.lobby_id = lobby_id


@dataclass(frozen=True)
class LobbySeat:
    """A taken seat of a lobby: a member (``accepted`` False while an invitation is
    unanswered) or a computer of ``level``."""

    seat: int
    kind: SeatKind
    user_id: int | None
    level: str | None
    accepted: bool
    display_name: str | None


@dataclass(frozen=True)
class LobbyRow:
    """A lobby of ``seats`` seats for ``variant``, hosted by ``host_id``; ``taken`` in
    seat order. Empty seats are filled with computers of ``level`` at the start."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    variant: str
    options: dict[str, Any]
    seats: int
    level: str
    invited: bool
    status: LobbyStatus
    game_id: int | None
    created_at: float
    expires_at: float
    resolved_at: float | None
    taken: tuple[LobbySeat, ...]
    rematch_of: int | None = None

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds, or None."""
        return next((s.seat for s in self.taken if s.user_id == user_id), None)

    @property
    def free(self) -> list[int]:
        """The empty seats, in order."""
        held = {s.seat for s in self.taken}
        return [seat for seat in range(self.seats) if seat not in held]

    @property
    def waiting_for(self) -> list[int]:
        """The invited members who have not accepted yet."""
        return [s.user_id for s in self.taken if s.user_id is not None and not s.accepted]


_SELECT_SEATS = """
    SELECT s.seat, s.kind, s.user_id, s.level, s.accepted, p.display_name
    FROM lobby_seats s
    JOIN lobbies l ON l.id = s.lobby_id
    LEFT JOIN players p ON p.guild_id = l.guild_id AND p.user_id = s.user_id
    WHERE s.lobby_id = ?
    ORDER BY s.seat
"""


async def _load(db: aiosqlite.Connection, lobby_id: int) -> LobbyRow:
    rows = list(await db.execute_fetchall("SELECT * FROM lobbies WHERE id = ?", (lobby_id,)))
    if not rows:
        raise LobbyNotFound(lobby_id)
    row = rows[0]
    taken = tuple(
        LobbySeat(
            seat=s["seat"],
            kind=SeatKind(s["kind"]),
            user_id=s["user_id"],
            level=s["level"],
            accepted=bool(s["accepted"]),
            display_name=s["display_name"],
        )
        for s in await db.execute_fetchall(_SELECT_SEATS, (lobby_id,))
    )
    return LobbyRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        host_id=row["host_id"],
        variant=row["variant"],
        options=json.loads(row["options"]),
        seats=row["seats"],
        level=row["level"],
        invited=bool(row["invited"]),
        status=LobbyStatus(row["status"]),
        game_id=row["game_id"],
        # float(): values read back through RETURNING skip REAL affinity.
        created_at=float(row["created_at"]),
        expires_at=float(row["expires_at"]),
        resolved_at=None if row["resolved_at"] is None else float(row["resolved_at"]),
        taken=taken,
        rematch_of=row["rematch_of"],
    )


async def _open_lobby(db: aiosqlite.Connection, lobby_id: int, now: float) -> LobbyRow:
    """The lobby, if it is open and unexpired. Raises ``LobbyNotFound``, ``LobbyClosed``."""
    lobby = await _load(db, lobby_id)
    if lobby.status is not LobbyStatus.OPEN:
        raise LobbyClosed(lobby_id, lobby.status)
    if lobby.expires_at <= now:
        raise LobbyClosed(lobby_id, LobbyStatus.EXPIRED)
    return lobby


def lobby_seating(lobby: LobbyRow) -> dict[int, tuple[SeatKind, int | None, str | None]]:
    """What sits in each seat when ``lobby`` starts: ``seat -> (kind, user_id, level)``,
    its members and computers where they sit and computers of the lobby's level in
    the empty seats."""
    held = {s.seat: s for s in lobby.taken}
    return {
        seat: (s.kind, s.user_id, s.level)
        if (s := held.get(seat)) is not None and s.kind is SeatKind.HUMAN
        else (SeatKind.COMPUTER, None, s.level if s is not None else lobby.level)
        for seat in range(lobby.seats)
    }


async def _ready_lobby(
    db: aiosqlite.Connection,
    lobby_id: int,
    seating: Mapping[int, tuple[SeatKind, int | None, str | None]],
    now: float,
) -> None:
    """Check, in the transaction that starts it, that the lobby may start with
    ``seating`` (as ``lobby_seating`` gives it). Raises ``LobbyNotFound``,
    ``LobbyClosed``, ``LobbyNotReady`` (an invited member has not accepted) and
    ``LobbyChanged`` (the lobby's seats are no longer ``seating``)."""
    lobby = await _open_lobby(db, lobby_id, now)
    if lobby.waiting_for:
        raise LobbyNotReady(lobby_id, lobby.waiting_for)
    if lobby_seating(lobby) != dict(seating):
        raise LobbyChanged(lobby_id)


async def _start_lobby(db: aiosqlite.Connection, lobby_id: int, game_id: int, now: float) -> None:
    """Close the open lobby as started by ``game_id`` inside the caller's transaction
    (which checked it with ``_ready_lobby``)."""
    await db.execute(
        """
        UPDATE lobbies SET status = 'started', game_id = ?, resolved_at = ?
        WHERE id = ? AND status = 'open'
        """,
        (game_id, now, lobby_id),
    )


async def _seat_member(
    db: aiosqlite.Connection, lobby_id: int, seat: int, user_id: int, accepted: bool
) -> None:
    await db.execute(
        "INSERT INTO lobby_seats (lobby_id, seat, kind, user_id, accepted) "
        "VALUES (?, ?, 'human', ?, ?)",
        (lobby_id, seat, user_id, int(accepted)),
    )


class LobbyQueries(StoreBase):
    """The ``Store`` methods on lobbies."""

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host: tuple[int, str],
        variant: str,
        options: Mapping[str, Any],
        *,
        seats: int,
        level: str,
        lifetime: float,
        invited: Sequence[tuple[int, int, str]] = (),
        now: float | None = None,
    ) -> LobbyRow:
        """Open a lobby of ``seats`` seats with the host ``(user_id, display_name)`` in
        seat 0; it expires ``lifetime`` seconds after ``now``.

        ``invited``: ``(seat, user_id, display_name)`` of the members a challenge
        invites; they hold their seats unaccepted and nobody else may join. Raises
        ``ValueError`` for a seat count not in ``SEAT_COUNTS``, a negative lifetime, an
        invited seat out of range or taken twice, or a member seated twice.
        """
        if seats not in SEAT_COUNTS:
            raise ValueError(f"seats must be one of {SEAT_COUNTS}")
        if lifetime < 0:
            raise ValueError("lifetime must be >= 0 seconds")
        places = [0, *(seat for seat, _, _ in invited)]
        members = [host[0], *(user for _, user, _ in invited)]
        if len(set(places)) != len(places) or not all(0 <= s < seats for s in places):
            raise ValueError("invited seats must be distinct seats other than the host's")
        if len(set(members)) != len(members):
            raise ValueError("a member cannot take two seats")
        now = _now(now)
        async with self._transaction(write=True) as db:
            cursor = await db.execute(
                """
                INSERT INTO lobbies (guild_id, channel_id, host_id, variant, options, seats,
                                     level, invited, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                (
                    guild_id,
                    channel_id,
                    host[0],
                    variant,
                    _dump_options(options),
                    seats,
                    level,
                    int(bool(invited)),
                    now,
                    now + lifetime,
                ),
            )
            lobby_id = cursor.lastrowid
            assert lobby_id is not None  # an INSERT into a rowid table always sets it
            await _seat_member(db, lobby_id, 0, host[0], accepted=True)
            for seat, user_id, _ in invited:
                await _seat_member(db, lobby_id, seat, user_id, accepted=False)
            for user_id, name in [host, *((user, name) for _, user, name in invited)]:
                await _upsert_player(db, guild_id, user_id, name, now)
            return await _load(db, lobby_id)

    async def open_rematch(
        self,
        game_id: int,
        host: tuple[int, str],
        *,
        lifetime: float,
        now: float | None = None,
    ) -> tuple[LobbyRow, bool]:
        """The open rematch invitation of finished game ``game_id`` for member
        ``host`` ``(user_id, display_name)``: the game's seats again, its computers at
        their levels, every other member invited.

        Of two members asking at once, one opens it and the other gets the same lobby:
        at most one rematch of a game is open. Returns ``(lobby, opened)``: ``opened``
        False when it was open already (the caller then accepts for ``host``).

        Raises:
            SeatUnavailable: no such game, ``host`` did not play it, it is not over
                (still active, or abandoned by the bot), or its rematch started already.
        """
        now = _now(now)
        async with self._transaction(write=True) as db:
            open_ = await db.execute_fetchall(
                "SELECT id FROM lobbies WHERE rematch_of = ? AND status = 'open' "
                "AND expires_at > ?",
                (game_id, now),
            )
            for (lobby_id,) in open_:
                return await _load(db, lobby_id), False
            started = await db.execute_fetchall(
                "SELECT game_id FROM lobbies WHERE rematch_of = ? AND status = 'started'",
                (game_id,),
            )
            for (rematch,) in started:
                raise SeatUnavailable(f"This game's rematch is game #{rematch}.")
            games = list(
                await db.execute_fetchall(
                    "SELECT guild_id, channel_id, variant, options, status FROM games WHERE id = ?",
                    (game_id,),
                )
            )
            if not games:
                raise SeatUnavailable(f"There is no game #{game_id}.")
            game = games[0]
            if game["status"] in ("active", "abandoned"):
                raise SeatUnavailable(f"Game #{game_id} is not over: no rematch yet.")
            seats = list(
                await db.execute_fetchall(
                    "SELECT seat, kind, user_id, level FROM seats WHERE game_id = ? ORDER BY seat",
                    (game_id,),
                )
            )
            if all(row["user_id"] != host[0] for row in seats):
                raise SeatUnavailable("Only the players of this game can ask for a rematch.")
            # An earlier rematch that expired unanswered no longer blocks this one.
            await db.execute(
                "UPDATE lobbies SET status = 'expired', resolved_at = ? "
                "WHERE rematch_of = ? AND status = 'open' AND expires_at <= ?",
                (now, game_id, now),
            )
            members = [row for row in seats if row["user_id"] is not None]
            cursor = await db.execute(
                """
                INSERT INTO lobbies (guild_id, channel_id, host_id, variant, options, seats,
                                     level, invited, created_at, expires_at, rematch_of)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                (
                    game["guild_id"],
                    game["channel_id"],
                    host[0],
                    game["variant"],
                    game["options"],
                    len(seats),
                    next((row["level"] for row in seats if row["level"]), "normal"),
                    int(len(members) > 1),
                    now,
                    now + lifetime,
                    game_id,
                ),
            )
            lobby_id = cursor.lastrowid
            assert lobby_id is not None  # an INSERT into a rowid table always sets it
            for row in seats:
                if row["user_id"] is None:
                    await db.execute(
                        "INSERT INTO lobby_seats (lobby_id, seat, kind, level) "
                        "VALUES (?, ?, 'computer', ?)",
                        (lobby_id, row["seat"], row["level"]),
                    )
                else:
                    accepted = row["user_id"] == host[0]
                    await _seat_member(db, lobby_id, row["seat"], row["user_id"], accepted)
            await _upsert_player(db, game["guild_id"], host[0], host[1], now)
            return await _load(db, lobby_id), True

    async def load_lobby(self, lobby_id: int) -> LobbyRow:
        """Return the lobby. Raises ``LobbyNotFound``."""
        async with self._transaction(write=False) as db:
            return await _load(db, lobby_id)

    async def set_lobby_message(self, lobby_id: int, message_id: int) -> None:
        """Remember the Discord message showing the lobby. Raises ``LobbyNotFound``."""
        async with self._transaction(write=True) as db:
            cursor = await db.execute(
                "UPDATE lobbies SET message_id = ? WHERE id = ?", (message_id, lobby_id)
            )
            if cursor.rowcount == 0:
                raise LobbyNotFound(lobby_id)

    async def take_seat(
        self,
        lobby_id: int,
        user: tuple[int, str],
        seat: int | None = None,
        *,
        now: float | None = None,
    ) -> LobbyRow:
        """Seat the member ``(user_id, display_name)``: in ``seat`` (moving them if they
        sit elsewhere; a computer there gives up its seat), or in the first empty seat.

        Raises ``LobbyNotFound``, ``LobbyClosed``, ``SeatUnavailable`` (the lobby is an
        invitation, the seat is a member's, the member is seated already, the table is
        full) and ``ValueError`` for a seat out of range. Nothing is written on error.
        """
        user_id, name = user
        now = _now(now)
        async with self._transaction(write=True) as db:
            lobby = await _open_lobby(db, lobby_id, now)
            if seat is not None and not 0 <= seat < lobby.seats:
                raise ValueError(f"seat {seat} is not a seat of lobby {lobby_id}")
            if lobby.invited:
                raise SeatUnavailable("Only the invited members sit at this table.")
            current = lobby.seat_of(user_id)
            if seat is None:
                if current is not None:
                    raise SeatUnavailable(f"You're already at this table, in seat {current + 1}.")
                if not lobby.free:
                    raise SeatUnavailable("This table is full.")
                seat = lobby.free[0]
            else:
                holder = next((s for s in lobby.taken if s.seat == seat), None)
                if holder is not None and holder.user_id == user_id:
                    raise SeatUnavailable(f"You're in seat {seat + 1} already.")
                if holder is not None and holder.kind is SeatKind.HUMAN:
                    raise SeatUnavailable(
                        f"Seat {seat + 1} is taken by {holder.display_name or 'a member'}."
                    )
                await db.execute(
                    "DELETE FROM lobby_seats WHERE lobby_id = ? AND (seat = ? OR user_id = ?)",
                    (lobby_id, seat, user_id),
                )
            await _seat_member(db, lobby_id, seat, user_id, accepted=True)
            await _upsert_player(db, lobby.guild_id, user_id, name, now)
            return await _load(db, lobby_id)

    async def leave_seat(
        self, lobby_id: int, user_id: int, *, now: float | None = None
    ) -> LobbyRow:
        """Free the member's seat. Raises ``LobbyNotFound``, ``LobbyClosed`` and
        ``SeatUnavailable`` (the host, a member not seated, an invitation)."""
        now = _now(now)
        async with self._transaction(write=True) as db:
            lobby = await _open_lobby(db, lobby_id, now)
            if user_id == lobby.host_id:
                raise SeatUnavailable("You're the host: **Cancel** closes the table.")
            if lobby.invited:
                raise SeatUnavailable("To say no to an invitation, use **Decline**.")
            if lobby.seat_of(user_id) is None:
                raise SeatUnavailable("You're not at this table.")
            await db.execute(
                "DELETE FROM lobby_seats WHERE lobby_id = ? AND user_id = ?", (lobby_id, user_id)
            )
            return await _load(db, lobby_id)

    async def add_computer(
        self, lobby_id: int, level: str, *, now: float | None = None
    ) -> LobbyRow:
        """Seat a computer of ``level`` in the first empty seat. Raises
        ``LobbyNotFound``, ``LobbyClosed`` and ``SeatUnavailable`` (full, invitation)."""
        now = _now(now)
        async with self._transaction(write=True) as db:
            lobby = await _open_lobby(db, lobby_id, now)
            if lobby.invited:
                raise SeatUnavailable("The computers join this table when everyone accepts.")
            if not lobby.free:
                raise SeatUnavailable("This table is full.")
            await db.execute(
                "INSERT INTO lobby_seats (lobby_id, seat, kind, level) "
                "VALUES (?, ?, 'computer', ?)",
                (lobby_id, lobby.free[0], level),
            )
            return await _load(db, lobby_id)

    async def accept_seat(
        self, lobby_id: int, user_id: int, *, now: float | None = None
    ) -> LobbyRow:
        """An invited member accepts. Raises ``LobbyNotFound``, ``LobbyClosed`` and
        ``SeatUnavailable`` (not invited, accepted already)."""
        now = _now(now)
        async with self._transaction(write=True) as db:
            lobby = await _open_lobby(db, lobby_id, now)
            seat = lobby.seat_of(user_id)
            if not lobby.invited or seat is None:
                raise SeatUnavailable("This invitation is not for you.")
            if user_id not in lobby.waiting_for:
                raise SeatUnavailable("You have accepted already.")
            await db.execute(
                "UPDATE lobby_seats SET accepted = 1 WHERE lobby_id = ? AND seat = ?",
                (lobby_id, seat),
            )
            return await _load(db, lobby_id)

    async def close_lobby(
        self, lobby_id: int, status: LobbyStatus, *, now: float | None = None
    ) -> LobbyRow:
        """Close the open lobby as ``CANCELLED`` or ``DECLINED`` and return it.

        Compare-and-set: of two concurrent calls one closes it, the other raises
        ``LobbyClosed``. Raises ``LobbyNotFound``, and ``ValueError`` for another status
        (a lobby starts with ``create_game(lobby=...)``, expires with ``expire_lobbies``).
        """
        status = LobbyStatus(status)
        if status not in (LobbyStatus.CANCELLED, LobbyStatus.DECLINED):
            raise ValueError(f"close_lobby cannot set {status}")
        now = _now(now)
        async with self._transaction(write=True) as db:
            await _open_lobby(db, lobby_id, now)
            await db.execute(
                "UPDATE lobbies SET status = ?, resolved_at = ? WHERE id = ?",
                (status, now, lobby_id),
            )
            return await _load(db, lobby_id)

    async def expire_lobbies(self, now: float | None = None) -> list[LobbyRow]:
        """Mark open lobbies with ``expires_at <= now`` expired; return them (oldest
        first) so their messages can say so."""
        now = _now(now)
        async with self._transaction(write=True) as db:
            rows = await db.execute_fetchall(
                """
                UPDATE lobbies SET status = 'expired', resolved_at = :now
                WHERE status = 'open' AND expires_at <= :now
                RETURNING id
                """,
                {"now": now},
            )
            return [await _load(db, lobby_id) for (lobby_id,) in sorted(rows)]
