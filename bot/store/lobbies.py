"""Lobbies: a table that members join (``/tuque table``), or a challenge of several
members (``/tuque challenge`` with more than one member), until its game starts.

Every change is one write transaction that first locks the lobby's row and checks
it is open and unexpired, then the seat: of two members taking the last seat at once,
one has it and the other's call raises ``SeatUnavailable`` with nothing written (on
PostgreSQL the second waits for the first's lock, and a transaction that read the
seats before the other committed is run again by ``_write``). Starting is
``create_game(..., lobby=id)`` (``bot.store.games``), which checks the lobby with
``_ready_lobby`` and closes it with ``_start_lobby`` in the transaction that creates
the game, so a start and a concurrent Join or Leave are serialised the same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import Select, and_, delete, insert, or_, select, update

from bot.store.base import (
    SEAT_COUNTS,
    Connection,
    SeatKind,
    StoreBase,
    StoreError,
    _dump_options,
    _now,
    dialect_insert,
)
from bot.store.records import _upsert_player
from bot.store.schema import games, lobbies, lobby_seats, players
from bot.store.schema import seats as game_seats


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


def _seats_query(lobby_id: int) -> Select[Any]:
    s, lobby, p = lobby_seats, lobbies, players
    return (
        select(s.c.seat, s.c.kind, s.c.user_id, s.c.level, s.c.accepted, p.c.display_name)
        .select_from(
            s.join(lobby, lobby.c.id == s.c.lobby_id).outerjoin(
                p, and_(p.c.guild_id == lobby.c.guild_id, p.c.user_id == s.c.user_id)
            )
        )
        .where(s.c.lobby_id == lobby_id)
        .order_by(s.c.seat)
    )


async def _load(db: Connection, lobby_id: int, *, lock: bool = False) -> LobbyRow:
    """The lobby; with ``lock``, its row is locked for the rest of the write transaction
    (``FOR UPDATE`` on PostgreSQL; SQLite's writer holds the whole file already)."""
    query = select(lobbies).where(lobbies.c.id == lobby_id)
    row = (await db.execute(query.with_for_update() if lock else query)).first()
    if row is None:
        raise LobbyNotFound(lobby_id)
    taken = tuple(
        LobbySeat(
            seat=s.seat,
            kind=SeatKind(s.kind),
            user_id=s.user_id,
            level=s.level,
            accepted=bool(s.accepted),
            display_name=s.display_name,
        )
        for s in await db.execute(_seats_query(lobby_id))
    )
    return LobbyRow(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        host_id=row.host_id,
        variant=row.variant,
        options=json.loads(row.options),
        seats=row.seats,
        level=row.level,
        invited=bool(row.invited),
        status=LobbyStatus(row.status),
        game_id=row.game_id,
        # float(): SQLite gives values read back through RETURNING without REAL affinity.
        created_at=float(row.created_at),
        expires_at=float(row.expires_at),
        resolved_at=None if row.resolved_at is None else float(row.resolved_at),
        taken=taken,
        rematch_of=row.rematch_of,
    )


async def _open_lobby(db: Connection, lobby_id: int, now: float) -> LobbyRow:
    """The lobby, if it is open and unexpired, its row locked for the caller's write
    transaction (so racing changes of one lobby queue). Raises ``LobbyNotFound``,
    ``LobbyClosed``."""
    lobby = await _load(db, lobby_id, lock=True)
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
    db: Connection,
    lobby_id: int,
    seating: Mapping[int, tuple[SeatKind, int | None, str | None]],
    now: float,
) -> None:
    """Check, in the write transaction that starts it, that the lobby may start with
    ``seating`` (as ``lobby_seating`` gives it), and lock its row until that transaction
    ends. Raises ``LobbyNotFound``, ``LobbyClosed``, ``LobbyNotReady`` (an invited
    member has not accepted) and ``LobbyChanged`` (the lobby's seats are no longer
    ``seating``)."""
    lobby = await _open_lobby(db, lobby_id, now)
    if lobby.waiting_for:
        raise LobbyNotReady(lobby_id, lobby.waiting_for)
    if lobby_seating(lobby) != dict(seating):
        raise LobbyChanged(lobby_id)


async def _start_lobby(db: Connection, lobby_id: int, game_id: int, now: float) -> None:
    """Close the open lobby as started by ``game_id`` inside the caller's transaction
    (which checked it with ``_ready_lobby``)."""
    await db.execute(
        update(lobbies)
        .where(lobbies.c.id == lobby_id, lobbies.c.status == LobbyStatus.OPEN)
        .values(status=LobbyStatus.STARTED.value, game_id=game_id, resolved_at=now)
    )


async def _seat(db: Connection, lobby_id: int, seat: int, **values: object) -> None:
    """Insert the seat; the caller, holding the lobby's lock, has checked that it is free.

    Raises ``SeatUnavailable`` if it was taken all the same (the lock is every change's
    first step, so only a write that skipped it could): the constraint decides, and
    the member is told, rather than a unique violation failing the click."""
    inserted = await db.execute(
        dialect_insert(db, lobby_seats)
        .values(lobby_id=lobby_id, seat=seat, **values)
        .on_conflict_do_nothing()
        .returning(lobby_seats.c.seat)
    )
    if inserted.first() is None:
        raise SeatUnavailable(f"Seat {seat + 1} was taken just now.")


async def _seat_member(
    db: Connection, lobby_id: int, seat: int, user_id: int, accepted: bool
) -> None:
    await _seat(
        db, lobby_id, seat, kind=SeatKind.HUMAN.value, user_id=user_id, accepted=int(accepted)
    )


async def _seat_computer(db: Connection, lobby_id: int, seat: int, level: str) -> None:
    await _seat(db, lobby_id, seat, kind=SeatKind.COMPUTER.value, level=level, accepted=1)


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
        row = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "host_id": host[0],
            "variant": variant,
            "options": _dump_options(options),
            "seats": seats,
            "level": level,
            "invited": int(bool(invited)),
            "status": LobbyStatus.OPEN.value,
            "created_at": now,
            "expires_at": now + lifetime,
        }

        async def work(db: Connection) -> LobbyRow:
            lobby_id = (
                await db.execute(insert(lobbies).values(row).returning(lobbies.c.id))
            ).scalar_one()
            await _seat_member(db, lobby_id, 0, host[0], accepted=True)
            for seat, user_id, _ in invited:
                await _seat_member(db, lobby_id, seat, user_id, accepted=False)
            for user_id, name in [host, *((user, name) for _, user, name in invited)]:
                await _upsert_player(db, guild_id, user_id, name, now)
            return await _load(db, lobby_id)

        return await self._write(work)

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
        at most one rematch of a game is open (the game's row is locked while the
        rematch is looked for and opened, and the index ``lobbies_one_rematch`` backs
        the rule). Returns ``(lobby, opened)``: ``opened`` False when it was open
        already (the caller then accepts for ``host``).

        Raises:
            SeatUnavailable: no such game, ``host`` did not play it, it is not over
                (still active, or abandoned by the bot), or its rematch started already.
        """
        now = _now(now)

        async def work(db: Connection) -> tuple[LobbyRow, bool]:
            # Locked first: a second request waits here for the first one's lobby. NO
            # KEY UPDATE, as nothing changes the game's id: rows that refer to the game
            # may still be written meanwhile.
            game = (
                await db.execute(
                    select(
                        games.c.guild_id,
                        games.c.channel_id,
                        games.c.variant,
                        games.c.options,
                        games.c.status,
                    )
                    .where(games.c.id == game_id)
                    .with_for_update(key_share=True)
                )
            ).first()
            lobby_id = (
                await db.execute(
                    select(lobbies.c.id)
                    .where(
                        lobbies.c.rematch_of == game_id,
                        lobbies.c.status == LobbyStatus.OPEN,
                        lobbies.c.expires_at > now,
                    )
                    .order_by(lobbies.c.id)
                    .limit(1)
                )
            ).scalar_one_or_none()
            if lobby_id is not None:
                return await _load(db, lobby_id), False
            rematch = (
                await db.execute(
                    select(lobbies.c.game_id)
                    .where(
                        lobbies.c.rematch_of == game_id,
                        lobbies.c.status == LobbyStatus.STARTED,
                    )
                    .order_by(lobbies.c.id)
                    .limit(1)
                )
            ).first()
            if rematch is not None:
                raise SeatUnavailable(f"This game's rematch is game #{rematch.game_id}.")
            if game is None:
                raise SeatUnavailable(f"There is no game #{game_id}.")
            if game.status in ("active", "abandoned"):
                raise SeatUnavailable(f"Game #{game_id} is not over: no rematch yet.")
            played = (
                await db.execute(
                    select(game_seats.c.seat, game_seats.c.user_id, game_seats.c.level)
                    .where(game_seats.c.game_id == game_id)
                    .order_by(game_seats.c.seat)
                )
            ).all()
            if all(row.user_id != host[0] for row in played):
                raise SeatUnavailable("Only the players of this game can ask for a rematch.")
            # An earlier rematch that expired unanswered no longer blocks this one.
            await db.execute(
                update(lobbies)
                .where(
                    lobbies.c.rematch_of == game_id,
                    lobbies.c.status == LobbyStatus.OPEN,
                    lobbies.c.expires_at <= now,
                )
                .values(status=LobbyStatus.EXPIRED.value, resolved_at=now)
            )
            members = [row for row in played if row.user_id is not None]
            # The game's lock makes a second request wait and then find this lobby; the
            # unique index (one open rematch a game) is the backstop, as for a seat.
            lobby_id = (
                await db.execute(
                    dialect_insert(db, lobbies)
                    .values(
                        guild_id=game.guild_id,
                        channel_id=game.channel_id,
                        host_id=host[0],
                        variant=game.variant,
                        options=game.options,
                        seats=len(played),
                        level=next((row.level for row in played if row.level), "normal"),
                        invited=int(len(members) > 1),
                        status=LobbyStatus.OPEN.value,
                        created_at=now,
                        expires_at=now + lifetime,
                        rematch_of=game_id,
                    )
                    .on_conflict_do_nothing()
                    .returning(lobbies.c.id)
                )
            ).scalar_one()
            for row in played:
                if row.user_id is None:
                    await _seat_computer(db, lobby_id, row.seat, row.level)
                else:
                    accepted = row.user_id == host[0]
                    await _seat_member(db, lobby_id, row.seat, row.user_id, accepted)
            await _upsert_player(db, game.guild_id, host[0], host[1], now)
            return await _load(db, lobby_id), True

        return await self._write(work)

    async def rematch_of(self, game_id: int) -> int | None:
        """The game that started as game ``game_id``'s rematch, if one did."""
        async with self._read() as db:
            return (
                await db.execute(
                    select(lobbies.c.game_id)
                    .where(
                        lobbies.c.rematch_of == game_id,
                        lobbies.c.status == LobbyStatus.STARTED,
                    )
                    .order_by(lobbies.c.id)
                    .limit(1)
                )
            ).scalar_one_or_none()

    async def load_lobby(self, lobby_id: int) -> LobbyRow:
        """Return the lobby. Raises ``LobbyNotFound``."""
        async with self._read() as db:
            return await _load(db, lobby_id)

    async def set_lobby_message(self, lobby_id: int, message_id: int) -> None:
        """Remember the Discord message showing the lobby. Raises ``LobbyNotFound``."""

        async def work(db: Connection) -> None:
            result = await db.execute(
                update(lobbies).where(lobbies.c.id == lobby_id).values(message_id=message_id)
            )
            if result.rowcount == 0:
                raise LobbyNotFound(lobby_id)

        await self._write(work)

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

        async def work(db: Connection) -> LobbyRow:
            lobby = await _open_lobby(db, lobby_id, now)
            if seat is not None and not 0 <= seat < lobby.seats:
                raise ValueError(f"seat {seat} is not a seat of lobby {lobby_id}")
            if lobby.invited:
                raise SeatUnavailable("Only the invited members sit at this table.")
            current = lobby.seat_of(user_id)
            place = seat
            if place is None:
                if current is not None:
                    raise SeatUnavailable(f"You're already at this table, in seat {current + 1}.")
                if not lobby.free:
                    raise SeatUnavailable("This table is full.")
                place = lobby.free[0]
            else:
                holder = next((s for s in lobby.taken if s.seat == place), None)
                if holder is not None and holder.user_id == user_id:
                    raise SeatUnavailable(f"You're in seat {place + 1} already.")
                if holder is not None and holder.kind is SeatKind.HUMAN:
                    raise SeatUnavailable(
                        f"Seat {place + 1} is taken by {holder.display_name or 'a member'}."
                    )
                await db.execute(
                    delete(lobby_seats).where(
                        lobby_seats.c.lobby_id == lobby_id,
                        or_(lobby_seats.c.seat == place, lobby_seats.c.user_id == user_id),
                    )
                )
            await _seat_member(db, lobby_id, place, user_id, accepted=True)
            await _upsert_player(db, lobby.guild_id, user_id, name, now)
            return await _load(db, lobby_id)

        return await self._write(work)

    async def leave_seat(
        self, lobby_id: int, user_id: int, *, now: float | None = None
    ) -> LobbyRow:
        """Free the member's seat. Raises ``LobbyNotFound``, ``LobbyClosed`` and
        ``SeatUnavailable`` (the host, a member not seated, an invitation)."""
        now = _now(now)

        async def work(db: Connection) -> LobbyRow:
            lobby = await _open_lobby(db, lobby_id, now)
            if user_id == lobby.host_id:
                raise SeatUnavailable("You're the host: **Cancel** closes the table.")
            if lobby.invited:
                raise SeatUnavailable("To say no to an invitation, use **Decline**.")
            if lobby.seat_of(user_id) is None:
                raise SeatUnavailable("You're not at this table.")
            await db.execute(
                delete(lobby_seats).where(
                    lobby_seats.c.lobby_id == lobby_id, lobby_seats.c.user_id == user_id
                )
            )
            return await _load(db, lobby_id)

        return await self._write(work)

    async def add_computer(
        self, lobby_id: int, level: str, *, now: float | None = None
    ) -> LobbyRow:
        """Seat a computer of ``level`` in the first empty seat. Raises
        ``LobbyNotFound``, ``LobbyClosed`` and ``SeatUnavailable`` (full, invitation)."""
        now = _now(now)

        async def work(db: Connection) -> LobbyRow:
            lobby = await _open_lobby(db, lobby_id, now)
            if lobby.invited:
                raise SeatUnavailable("The computers join this table when everyone accepts.")
            if not lobby.free:
                raise SeatUnavailable("This table is full.")
            await _seat_computer(db, lobby_id, lobby.free[0], level)
            return await _load(db, lobby_id)

        return await self._write(work)

    async def accept_seat(
        self, lobby_id: int, user_id: int, *, now: float | None = None
    ) -> LobbyRow:
        """An invited member accepts. Raises ``LobbyNotFound``, ``LobbyClosed`` and
        ``SeatUnavailable`` (not invited, accepted already)."""
        now = _now(now)

        async def work(db: Connection) -> LobbyRow:
            lobby = await _open_lobby(db, lobby_id, now)
            seat = lobby.seat_of(user_id)
            if not lobby.invited or seat is None:
                raise SeatUnavailable("This invitation is not for you.")
            if user_id not in lobby.waiting_for:
                raise SeatUnavailable("You have accepted already.")
            await db.execute(
                update(lobby_seats)
                .where(lobby_seats.c.lobby_id == lobby_id, lobby_seats.c.seat == seat)
                .values(accepted=1)
            )
            return await _load(db, lobby_id)

        return await self._write(work)

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

        async def work(db: Connection) -> LobbyRow:
            await _open_lobby(db, lobby_id, now)
            await db.execute(
                update(lobbies)
                .where(lobbies.c.id == lobby_id)
                .values(status=status.value, resolved_at=now)
            )
            return await _load(db, lobby_id)

        return await self._write(work)

    async def expire_lobbies(self, now: float | None = None) -> list[LobbyRow]:
        """Mark this process's shards' open lobbies with ``expires_at <= now`` expired;
        return them (oldest first) so their messages can say so."""
        now = _now(now)

        async def work(db: Connection) -> list[LobbyRow]:
            expired = await db.execute(
                update(lobbies)
                .where(
                    lobbies.c.status == LobbyStatus.OPEN,
                    lobbies.c.expires_at <= now,
                    self.shards.clause(lobbies.c.guild_id),
                )
                .values(status=LobbyStatus.EXPIRED.value, resolved_at=now)
                .returning(lobbies.c.id)
            )
            return [await _load(db, lobby_id) for lobby_id in sorted(expired.scalars())]

        return await self._write(work)
