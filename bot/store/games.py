"""Games: their seats, action logs, hands, turn timers and ends.

Seats are the engine's seat numbers ``0..n-1`` with ``n`` from 2 to 6, each with
its scoring side (the engine's ``Variant.sides``): sides are numbered ``0..m-1``
(``m`` >= 2) and side ``k`` always holds seat ``k``, so a side's number is also a seat
of it. In Tuque each seat is its own side, in four-hand Euchre seats 0 and 2 are
partners against 1 and 3, six-hand has two teams of three seated alternately, and
the each-for-themself games (two- and three-hand, Call-Ace, Jackpot, Auction) give
every seat its own side. Games stored before migration 002 all had two sides,
``side = seat % 2``, which is also what a ``SeatRow`` gets when no side is given.

Decisions that shape the data (see also ``bot.ratings`` for who is rated):

- Hands are recorded with the actions that finish them (``append_actions(...,
  hands=...)``), in the same transaction, so hand statistics survive a crash or
  an abandoned game and can never be recorded twice or lost between two writes.
- A hand's points are kept per side (``hand_points``), as the engine scores them:
  several sides may score in one hand (Tuque to 61, Call-Ace's partners) and
  points are negative where the rules deduct (two- and three-hand, Auction,
  Jackpot's chips). Tricks are kept per seat that played (``hand_tricks``): seats
  sitting out a lone hand have none, so averages are per hand played.
- ``finish_game`` writes the status, one result per seat with the seat's side and
  that side's final place (``rank``: 1 for the winning side alone, then the others
  by score, ties sharing a place), and the rating updates (``bot.store.records``),
  in one transaction. ``outcome`` is ``win`` for the winning side's seats (place 1)
  and ``loss`` for every other. Resignations and forfeits are rated like any other
  loss, so resigning never dodges a rating drop. Abandoned games have no winner, no
  results and no rating change.
- One active game between two members: ``create_game`` refuses (``AlreadyPlaying``)
  a game that would seat two members who already share an active game in the
  guild, checked inside the transaction that creates it, so two challenges
  accepted at once cannot both start a game, even from two processes: SQLite has one
  writer, and on PostgreSQL the creation first locks its members (``lock_members``), so
  the second of two such creations waits for the first, then finds its game. Games
  against the computer seat one member and are not limited, but a start from the
  Activity (``once_here``) is refused (``AlreadyHere``) while one of its members plays
  an active game in its channel, checked after the same lock: of two starts clicked at
  once, one deals a game.
- Every write that changes a game in several steps (``append_actions``,
  ``finish_game``, ``resign_seat``, ``record_hint``) first locks the game's row (``FOR
  UPDATE``), so clicks on one game from several processes queue: the second append at a
  seq finds it taken (``StaleAction``), the second finish finds the game over
  (``GameNotActive``), and a game's results and ratings are written once.
- On PostgreSQL ``append_actions``, the write of every card played, is one statement
  outside a transaction: one round trip (``_CHANGE``). Its update of the game's row
  comes first and takes the row's lock, and only if the game is active, the log's next
  seq is ``first_seq`` and the hands name the game's seats and sides; every insert
  reads its row from that update. Two changes at one seq: the second waits for the
  first's lock, then breaks the log's primary key (game, seq). A refused or beaten
  change runs again as the transaction above, which raises what went wrong, as on
  SQLite. (SQLite has no data-modifying WITH, and its writes are one trip to the
  store's thread anyway.)
- ``mark_reminded`` is a compare-and-set update that reports whether it changed
  anything: of two racing timers exactly one sends the reminder. Accepting a
  challenge is ``create_game(..., accepting=id)``: the accept, the game, its seats
  and its first deal are one transaction.
- A process restores (``active_games``) and times (``due_turn_timers``) only the games
  of the guilds on its shards (``StoreBase.shards``); a game addressed by its id or its
  members is found from any process.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import (
    ARRAY,
    BigInteger,
    Boolean,
    ColumnElement,
    Double,
    Integer,
    Select,
    TableValuedAlias,
    Text,
    and_,
    bindparam,
    case,
    cast,
    exists,
    func,
    insert,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.types import TypeEngine

from bot.store.base import (
    SEAT_COUNTS,
    Connection,
    SeatKind,
    StoreBase,
    StoreError,
    TryAgain,
    _dump_options,
    _now,
    lock_members,
)
from bot.store.challenges import ChallengeClosed, ChallengeStatus, _resolve
from bot.store.changes import announce, announcement
from bot.store.events import _claim_table, _link_table
from bot.store.lobbies import _ready_lobby, _start_lobby
from bot.store.prepared import Prepared
from bot.store.records import RatingChange, _rate, _upsert_player
from bot.store.schema import (
    game_actions,
    games,
    guild_settings,
    hand_points,
    hand_tricks,
    hands,
    players,
    results,
)
from bot.store.schema import seats as seats_table

if TYPE_CHECKING:
    from bot.table import Change, Result
    from engine.view import HandResult

#: The seeds a game can have: the schema stores them as signed 64-bit integers.
_INT64 = range(-(2**63), 2**63)


class GameStatus(StrEnum):
    """Lifecycle of a game: ``ACTIVE`` until it ends one of the four other ways."""

    ACTIVE = "active"
    FINISHED = "finished"
    RESIGNED = "resigned"
    FORFEITED = "forfeited"
    ABANDONED = "abandoned"


class Outcome(StrEnum):
    """A seat's result in a game that ended with a winner."""

    WIN = "win"
    LOSS = "loss"


class TimerDue(StrEnum):
    """What the turn timer asks for: a reminder, or the forfeit of the game."""

    REMIND = "remind"
    FORFEIT = "forfeit"


class GameNotFound(StoreError, LookupError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class AlreadyPlaying(StoreError):
    """Two of the new game's members already play an active game together in the guild
    (``game_id``): one active game between two members at a time."""

    def __init__(self, game_id: int, user_ids: tuple[int, int]) -> None:
        super().__init__(f"users {user_ids[0]} and {user_ids[1]} already play game {game_id}")
        self.game_id = game_id
        self.user_ids = user_ids


class AlreadyHere(StoreError):
    """A member of the new game already plays (seated, not resigned) the active game
    ``game_id`` in the same channel: ``create_game(..., once_here=True)``, the start
    from the Activity, where a double click would otherwise deal two games."""

    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(f"user {user_id} already plays game {game_id} in its channel")
        self.game_id = game_id
        self.user_id = user_id


class GameNotActive(StoreError):
    """The game has already ended (``status``), so it takes no more actions or results."""

    def __init__(self, game_id: int, status: GameStatus) -> None:
        super().__init__(f"game {game_id} is {status}, not active")
        self.game_id = game_id
        self.status = status


class StaleAction(StoreError):
    """``append_actions`` was given ``first_seq`` but the log's next free seq is
    ``expected_seq``: the caller's copy of the game is out of date (or the same
    action is being applied twice). Nothing was written."""

    def __init__(self, game_id: int, first_seq: int, expected_seq: int) -> None:
        super().__init__(
            f"game {game_id}: actions start at seq {first_seq} "
            f"but the next free seq is {expected_seq}"
        )
        self.game_id = game_id
        self.first_seq = first_seq
        self.expected_seq = expected_seq


@dataclass(frozen=True)
class SeatRow:
    """One seat of a game. ``user_id`` is set for humans only; ``level`` (e.g.
    ``"easy"``) for computers only. ``display_name`` is the player's last known
    name in the guild: given to ``create_game`` it updates ``players``; on rows
    read back it comes from ``players`` (None if unknown). ``side`` is the seat's
    scoring side (``Variant.sides[seat]``); left out (None) it becomes ``seat % 2``,
    the two sides of Tuque and four-hand Euchre, so ``side`` is always an int on a
    constructed row. ``resigned``: the member resigned and a computer plays the seat
    for the rest of the game (``resign_seat``). Raises ``ValueError`` for a human
    without a user id, a computer with one, or a human with a level."""

    seat: int
    kind: SeatKind
    user_id: int | None = None
    level: str | None = None
    display_name: str | None = None
    side: int | None = None
    resigned: bool = False

    def __post_init__(self) -> None:
        if self.side is None:
            object.__setattr__(self, "side", self.seat % 2)
        if (self.kind is SeatKind.HUMAN) != (self.user_id is not None):
            raise ValueError(f"seat {self.seat}: a human seat needs a user_id, a computer none")
        if self.kind is SeatKind.HUMAN and self.level is not None:
            raise ValueError(f"seat {self.seat}: only computer seats have a level")

    @classmethod
    def human(
        cls, seat: int, user_id: int, display_name: str | None = None, *, side: int | None = None
    ) -> SeatRow:
        """A seat for the Discord user ``user_id`` (``side``: see the class)."""
        return cls(seat, SeatKind.HUMAN, user_id=user_id, display_name=display_name, side=side)

    @classmethod
    def computer(cls, seat: int, level: str | None = None, *, side: int | None = None) -> SeatRow:
        """A seat for a computer player of the given level (``side``: see the class)."""
        return cls(seat, SeatKind.COMPUTER, level=level, side=side)


@dataclass(frozen=True)
class GameRow:
    """A game as stored: header, seats ordered by seat number, and the engine's
    action log (``actions[i]`` has seq ``i``). ``(variant, options, seed,
    first_dealer, actions)`` is everything the engine needs to rebuild it."""

    id: int
    guild_id: int
    channel_id: int
    table_message_id: int | None
    thread_id: int | None
    variant: str
    options: dict[str, Any]
    seed: int
    first_dealer: int
    status: GameStatus
    winner_seat: int | None
    created_at: float
    updated_at: float
    finished_at: float | None
    turn_started_at: float
    reminded: bool
    seats: tuple[SeatRow, ...]
    actions: tuple[str, ...]
    ping_message_id: int | None = None

    @property
    def next_seq(self) -> int:
        """The ``first_seq`` to pass to the next ``append_actions`` call."""
        return len(self.actions)

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` sits in, or None if they are not in this game."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


@dataclass(frozen=True)
class HandRecord:
    """Statistics of one finished hand, as recorded with the action that ends it.

    ``maker_seat`` is the seat that named trump: None if the hand was thrown in (then
    ``tricks`` and ``points`` are empty) and in Jackpot, which has no makers but is
    played. ``tricks`` maps each seat that played the hand to the tricks it took (a
    seat sitting out while a partner plays alone is left out). ``points`` maps each
    side whose score the hand changed to the change, negative where the rules deduct;
    zero entries are dropped. ``alone``: the makers played alone; ``march``: the makers
    took every trick; ``euchred``: the makers failed their contract.

    Raises ``ValueError`` when these contradict each other or name a seat or side
    outside ``0..5`` (``append_actions`` also checks them against the game's seats).
    """

    hand_no: int
    maker_seat: int | None
    tricks: Mapping[int, int]
    points: Mapping[int, int] = field(default_factory=dict)
    alone: bool = False
    march: bool = False
    euchred: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.points, Mapping):
            raise ValueError("points must map each side to the points it scored")
        object.__setattr__(self, "tricks", dict(self.tricks))
        object.__setattr__(self, "points", {s: p for s, p in self.points.items() if p})
        seats = range(max(SEAT_COUNTS))
        if self.hand_no < 0:
            raise ValueError("hand_no must be >= 0")
        named = [*self.tricks, *([] if self.maker_seat is None else [self.maker_seat])]
        if any(seat not in seats for seat in named):
            raise ValueError(f"seats are numbered from 0 to {seats[-1]}")
        if any(side not in seats for side in self.points):
            raise ValueError(f"sides are numbered from 0 to {seats[-1]}")
        if any(t < 0 for t in self.tricks.values()):
            raise ValueError("tricks must be >= 0")
        if self.march and self.euchred:
            raise ValueError("a hand cannot be both a march and a euchre")
        if self.maker_seat is None and (self.alone or self.march or self.euchred):
            raise ValueError("a hand without a maker has no loner, march or euchre")
        if self.maker_seat is None and not self.tricks and self.points:
            raise ValueError("a thrown-in hand (no maker, no tricks) scores nothing")

    @classmethod
    def from_result(cls, result: HandResult, sides: Sequence[int] | None = None) -> HandRecord:
        """The record of the engine's ``HandResult`` for a finished hand, any variant.

        ``sides`` is the variant's side of each seat (``Variant.sides``; default
        ``seat % 2``, right for Tuque and four-hand Euchre only). A thrown-in hand
        (no trump) gets no tricks and no points. The partners of a loner sit out, and
        get no tricks entry: the seats on the side of ``result.alone`` and on the side
        of ``result.lone_defender`` other than those two (RULES.md §3–§6; in the
        each-for-themself games nobody sits out). ``points`` are ``result.points``
        per side, negative ones included. ``march`` and ``euchred`` are the engine's
        judgement. Raises ``ValueError`` if ``sides`` does not give one side per seat.
        """
        seats = range(len(result.tricks))
        side = tuple(sides) if sides is not None else tuple(seat % 2 for seat in seats)
        if len(side) != len(seats):
            raise ValueError(f"sides gives {len(side)} seats, the hand has {len(seats)}")
        if result.trump is None:
            return cls(result.hand_no, None, {}, {})
        loners = [s for s in (result.alone, result.lone_defender) if s is not None]
        sitting_out = {
            seat
            for seat in seats
            for loner in loners
            if seat != loner and side[seat] == side[loner]
        }
        return cls(
            hand_no=result.hand_no,
            maker_seat=result.maker,
            tricks={s: t for s, t in enumerate(result.tricks) if s not in sitting_out},
            points=dict(enumerate(result.points)),
            alone=result.alone is not None,
            march=result.march,
            euchred=result.euchred,
        )


@dataclass(frozen=True)
class TurnTimer:
    """An active game whose current turn has run too long: ``due`` says what to do.
    ``remind_after`` and ``forfeit_after``: the game's server's timer, in seconds."""

    game_id: int
    due: TimerDue
    turn_started_at: float
    remind_after: float
    forfeit_after: float


def _check_hand(hand: HandRecord, sides: Mapping[int, int]) -> None:
    """Raise ``ValueError`` if ``hand`` names a seat or side not in ``sides`` (seat -> side)."""
    seats = {hand.maker_seat, *hand.tricks} - {None}
    if not seats <= sides.keys():
        raise ValueError(f"hand {hand.hand_no}: seats {sorted(seats - sides.keys())} not in game")
    if not hand.points.keys() <= set(sides.values()):
        raise ValueError(f"hand {hand.hand_no}: points to a side the game does not have")


def _active(guild_id: int) -> ColumnElement[bool]:
    """The guild's active games."""
    return and_(games.c.status == GameStatus.ACTIVE.value, games.c.guild_id == guild_id)


def _seating(user_id: int) -> ColumnElement[bool]:
    """The games ``user_id`` has a seat in."""
    seated = seats_table.alias("seated")
    return games.c.id.in_(select(seated.c.game_id).where(seated.c.user_id == user_id))


class _LockedGame(NamedTuple):
    """What ``_lock_active`` reads of the game it locks."""

    guild_id: int
    variant: str
    status: str


# The statements of the hot writes, built once (``bot.store.prepared``), parameters
# ``game_id`` and ``now``; the inserts take one parameter a column, named as it. They
# are every click's write on SQLite; PostgreSQL runs ``_CHANGE`` for a click instead,
# and these where it is refused.
_LOCK_GAME = Prepared(
    select(games.c.guild_id, games.c.variant, games.c.status)
    .where(games.c.id == bindparam("game_id"))
    .with_for_update()
)
_NEXT_SEQ = Prepared(
    select(func.coalesce(func.max(game_actions.c.seq) + 1, 0)).where(
        game_actions.c.game_id == bindparam("game_id")
    )
)
_INSERT_ACTION = Prepared(insert(game_actions))
_TOUCH_GAME = Prepared(
    update(games).where(games.c.id == bindparam("game_id")).values(updated_at=bindparam("now"))
)
# A change that passed the turn restarts its timer, as touch_turn does.
_PASS_TURN = Prepared(
    update(games)
    .where(games.c.id == bindparam("game_id"))
    .values(updated_at=bindparam("now"), turn_started_at=bindparam("now"), reminded=0)
)
_SEAT_SIDES = Prepared(
    select(seats_table.c.seat, seats_table.c.side).where(
        seats_table.c.game_id == bindparam("game_id")
    )
)
_INSERT_HAND = Prepared(insert(hands))
_INSERT_HAND_POINTS = Prepared(insert(hand_points))
_INSERT_HAND_TRICKS = Prepared(insert(hand_tricks))
# Written as a member's turn is pinged and unpinged on Discord: twice a turn.
_SET_PING = Prepared(
    update(games)
    .where(games.c.id == bindparam("game_id"))
    .values(ping_message_id=bindparam("message_id"))
)


async def _lock_active(db: Connection, game_id: int) -> _LockedGame:
    """The active game's ``guild_id``, ``variant`` and ``status``, its row locked until the
    caller's write transaction ends (``FOR UPDATE`` on PostgreSQL; SQLite's writer holds
    the whole file), so writes to one game queue. Raises ``GameNotFound`` and
    ``GameNotActive``."""
    found = await _LOCK_GAME.rows(db, {"game_id": game_id})
    if not found:
        raise GameNotFound(game_id)
    row = _LockedGame(*found[0])
    status = GameStatus(row.status)
    if status is not GameStatus.ACTIVE:
        raise GameNotActive(game_id, status)
    return row


async def _insert_hand(db: Connection, game_id: int, hand: HandRecord, now: float) -> None:
    await _INSERT_HAND.run(
        db,
        {
            "game_id": game_id,
            "hand_no": hand.hand_no,
            "maker_seat": hand.maker_seat,
            "alone": int(hand.alone),
            "march": int(hand.march),
            "euchred": int(hand.euchred),
            "recorded_at": now,
        },
    )
    if hand.points:
        await _INSERT_HAND_POINTS.run(
            db,
            [
                {"game_id": game_id, "hand_no": hand.hand_no, "side": side, "points": n}
                for side, n in sorted(hand.points.items())
            ],
        )
    if hand.tricks:
        await _INSERT_HAND_TRICKS.run(
            db,
            [
                {"game_id": game_id, "hand_no": hand.hand_no, "seat": seat, "tricks": n}
                for seat, n in sorted(hand.tricks.items())
            ],
        )


def _unnest(
    name: str, *columns: tuple[str, TypeEngine[Any]], ordinality: str | None = None
) -> TableValuedAlias:
    """``unnest`` of array parameters into the rows of a table ``name``: one column a
    parameter, named as it, of the item type given (PostgreSQL cannot infer it)."""
    arrays = [cast(bindparam(column), ARRAY(item)) for column, item in columns]
    rows = func.unnest(*arrays).table_valued(
        *(column for column, _ in columns), with_ordinality=ordinality
    )
    return rows.render_derived(name=name)


def _change_statement(*, announced: bool) -> Select[Any]:
    """``append_actions`` on PostgreSQL in one statement: returns the game's id if it
    changed the game, no row if it did not (see the module's docstring). ``announced``:
    the row also notifies the change (``bot.store.changes``), so the notification is the
    statement's own and is delivered when it commits, with no round trip more.

    Parameters: ``game_id``, ``first_seq``, ``actions`` (the actions in order), ``now``,
    ``new_turn``; the hands as parallel arrays, one item a hand (``hand_no``,
    ``maker_seat``, ``alone``, ``march``, ``euchred``), a side scored (``points_hand``,
    ``points_side``, ``points``) and a seat that took tricks (``tricks_hand``,
    ``tricks_seat``, ``tricks``); and every seat and side the hands name
    (``seats_named``, ``sides_named``). The parameters are the same for any number of
    actions and hands, so each connection prepares the statement once.
    """
    game_id = bindparam("game_id", type_=BigInteger)
    first_seq = bindparam("first_seq", type_=Integer)
    now = bindparam("now", type_=Double)
    new_turn = bindparam("new_turn", type_=Boolean)
    named_seats = _unnest("named_seat", ("seats_named", Integer()))
    named_sides = _unnest("named_side", ("sides_named", Integer()))
    of_game = seats_table.c.game_id == game_id
    next_seq = (
        select(func.coalesce(func.max(game_actions.c.seq) + 1, 0))
        .where(game_actions.c.game_id == game_id)
        .scalar_subquery()
    )
    changed = (
        update(games)
        .where(
            games.c.id == game_id,
            games.c.status == GameStatus.ACTIVE.value,
            next_seq == first_seq,
            ~exists()
            .select_from(named_seats)
            .where(~exists().where(of_game, seats_table.c.seat == named_seats.c.seats_named)),
            ~exists()
            .select_from(named_sides)
            .where(~exists().where(of_game, seats_table.c.side == named_sides.c.sides_named)),
        )
        .values(
            updated_at=now,
            turn_started_at=case((new_turn, now), else_=games.c.turn_started_at),
            reminded=case((new_turn, 0), else_=games.c.reminded),
        )
        .returning(games.c.id)
        .cte("changed")
    )
    new = _unnest("new_action", ("actions", Text()), ordinality="ord")
    hand = _unnest(
        "new_hand",
        ("hand_no", Integer()),
        ("maker_seat", Integer()),
        ("alone", Integer()),
        ("march", Integer()),
        ("euchred", Integer()),
    )
    scored = _unnest(
        "new_points", ("points_hand", Integer()), ("points_side", Integer()), ("points", Integer())
    )
    took = _unnest(
        "new_tricks", ("tricks_hand", Integer()), ("tricks_seat", Integer()), ("tricks", Integer())
    )
    # changed has one row or none: joined to it, the rows to insert are all or none.
    inserts = [
        insert(game_actions).from_select(
            ["game_id", "seq", "action"],
            select(changed.c.id, first_seq + new.c.ord - 1, new.c.actions).select_from(
                changed.join(new, true())
            ),
        ),
        insert(hands).from_select(
            ["game_id", "hand_no", "maker_seat", "alone", "march", "euchred", "recorded_at"],
            select(changed.c.id, *hand.c, now).select_from(changed.join(hand, true())),
        ),
        insert(hand_points).from_select(
            ["game_id", "hand_no", "side", "points"],
            select(changed.c.id, *scored.c).select_from(changed.join(scored, true())),
        ),
        insert(hand_tricks).from_select(
            ["game_id", "hand_no", "seat", "tricks"],
            select(changed.c.id, *took.c).select_from(changed.join(took, true())),
        ),
    ]
    # Not read by the outer query: add_cte makes them part of it all the same.
    columns: list[ColumnElement[Any]] = [changed.c.id]
    if announced:
        # In the select list, over changed's one row or none: only a change announces.
        length = first_seq + func.cardinality(cast(bindparam("actions"), ARRAY(Text())))
        columns.append(announcement(changed.c.id, length))
    return select(*columns).add_cte(
        *(statement.cte(f"inserted_{i}") for i, statement in enumerate(inserts))
    )


_CHANGE = _change_statement(announced=False)
_CHANGE_ANNOUNCED = _change_statement(announced=True)


def _change_parameters(
    game_id: int,
    first_seq: int,
    actions: Sequence[str],
    records: Sequence[HandRecord],
    new_turn: bool,
    now: float,
) -> dict[str, Any]:
    """``_CHANGE``'s parameters."""
    return {
        "game_id": game_id,
        "first_seq": first_seq,
        "actions": list(actions),
        "now": now,
        "new_turn": new_turn,
        "hand_no": [r.hand_no for r in records],
        "maker_seat": [r.maker_seat for r in records],
        "alone": [int(r.alone) for r in records],
        "march": [int(r.march) for r in records],
        "euchred": [int(r.euchred) for r in records],
        "points_hand": [r.hand_no for r in records for _ in r.points],
        "points_side": [side for r in records for side in r.points],
        "points": [n for r in records for n in r.points.values()],
        "tricks_hand": [r.hand_no for r in records for _ in r.tricks],
        "tricks_seat": [seat for r in records for seat in r.tricks],
        "tricks": [n for r in records for n in r.tricks.values()],
        "seats_named": sorted(
            {s for r in records for s in (r.maker_seat, *r.tricks) if s is not None}
        ),
        "sides_named": sorted({side for r in records for side in r.points}),
    }


async def _logged(db: Connection, game_id: int, first_seq: int, actions: Sequence[str]) -> bool:
    """Whether the game's log holds ``actions`` at seqs ``first_seq``, ``first_seq + 1``, ..."""
    stored = await db.execute(
        select(game_actions.c.action)
        .where(
            game_actions.c.game_id == game_id,
            game_actions.c.seq.between(first_seq, first_seq + len(actions) - 1),
        )
        .order_by(game_actions.c.seq)
    )
    return list(stored.scalars()) == list(actions)


async def _require_no_shared_game(db: Connection, guild_id: int, user_ids: Sequence[int]) -> None:
    if len(user_ids) < 2:
        return
    a, b = seats_table.alias("a"), seats_table.alias("b")
    row = (
        await db.execute(
            select(a.c.game_id, a.c.user_id, b.c.user_id.label("other_id"))
            .select_from(
                a.join(b, and_(b.c.game_id == a.c.game_id, b.c.user_id > a.c.user_id)).join(
                    games, games.c.id == a.c.game_id
                )
            )
            .where(_active(guild_id), a.c.user_id.in_(user_ids), b.c.user_id.in_(user_ids))
            .order_by(a.c.game_id, a.c.user_id, b.c.user_id)
            .limit(1)
        )
    ).first()
    if row is not None:
        raise AlreadyPlaying(row.game_id, (row.user_id, row.other_id))


async def _require_none_here(
    db: Connection, guild_id: int, channel_id: int, user_ids: Sequence[int]
) -> None:
    """Raise ``AlreadyHere`` if one of ``user_ids`` plays (seated, not resigned) an
    active game of the guild started in ``channel_id`` or playing in it as its thread."""
    if not user_ids:
        return
    row = (
        await db.execute(
            select(seats_table.c.game_id, seats_table.c.user_id)
            .select_from(seats_table.join(games, games.c.id == seats_table.c.game_id))
            .where(
                _active(guild_id),
                or_(games.c.channel_id == channel_id, games.c.thread_id == channel_id),
                seats_table.c.user_id.in_(user_ids),
                seats_table.c.resigned_at.is_(None),
            )
            .order_by(seats_table.c.game_id, seats_table.c.user_id)
            .limit(1)
        )
    ).first()
    if row is not None:
        raise AlreadyHere(row.game_id, row.user_id)


async def _load_games(db: Connection, where: ColumnElement[bool]) -> list[GameRow]:
    # ``where`` is a condition on ``games``; three queries for any number of games.
    headers = (await db.execute(select(games).where(where).order_by(games.c.id))).all()
    if not headers:
        return []
    seat_rows: dict[int, list[SeatRow]] = {}
    for row in await db.execute(
        select(
            seats_table.c.game_id,
            seats_table.c.seat,
            seats_table.c.side,
            seats_table.c.kind,
            seats_table.c.user_id,
            seats_table.c.level,
            players.c.display_name,
            seats_table.c.resigned_at,
        )
        .select_from(
            seats_table.join(games, games.c.id == seats_table.c.game_id).outerjoin(
                players,
                and_(
                    players.c.guild_id == games.c.guild_id,
                    players.c.user_id == seats_table.c.user_id,
                ),
            )
        )
        .where(where)
        .order_by(seats_table.c.game_id, seats_table.c.seat)
    ):
        seat_rows.setdefault(row.game_id, []).append(
            SeatRow(
                seat=row.seat,
                kind=SeatKind(row.kind),
                user_id=row.user_id,
                level=row.level,
                display_name=row.display_name,
                side=row.side,
                resigned=row.resigned_at is not None,
            )
        )
    actions: dict[int, list[str]] = {}
    for row in await db.execute(
        select(game_actions.c.game_id, game_actions.c.action)
        .select_from(game_actions.join(games, games.c.id == game_actions.c.game_id))
        .where(where)
        .order_by(game_actions.c.game_id, game_actions.c.seq)
    ):
        actions.setdefault(row.game_id, []).append(row.action)
    return [
        GameRow(
            id=h.id,
            guild_id=h.guild_id,
            channel_id=h.channel_id,
            table_message_id=h.table_message_id,
            thread_id=h.thread_id,
            variant=h.variant,
            options=json.loads(h.options),
            seed=h.seed,
            first_dealer=h.first_dealer,
            status=GameStatus(h.status),
            winner_seat=h.winner_seat,
            created_at=h.created_at,
            updated_at=h.updated_at,
            finished_at=h.finished_at,
            turn_started_at=h.turn_started_at,
            reminded=bool(h.reminded),
            seats=tuple(seat_rows.get(h.id, ())),
            actions=tuple(actions.get(h.id, ())),
            ping_message_id=h.ping_message_id,
        )
        for h in headers
    ]


class GameQueries(StoreBase):
    """The ``Store`` methods on games, from their creation to their end."""

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        variant: str,
        options: Mapping[str, Any],
        seed: int,
        first_dealer: int,
        seats: Sequence[SeatRow],
        actions: Sequence[str] = (),
        *,
        accepting: int | None = None,
        lobby: int | None = None,
        once_here: bool = False,
        event_table: tuple[int, int, int] | None = None,
        now: float | None = None,
    ) -> int:
        """Create an active game and return its id (never reused).

        ``seats`` must be numbered ``0..n-1`` with ``n`` in ``SEAT_COUNTS`` (in any
        order) and no user may take two seats. Their sides must be the engine's: numbered
        ``0..m-1`` with ``2 <= m <= n``, side ``k`` holding seat ``k`` (so every side has a
        seat). ``options`` must be JSON-serialisable; ``seed`` must fit in a signed 64-bit
        integer; ``first_dealer`` must be a seat. The turn timer starts at ``now``. Names
        given on human seats update ``players``. ``actions`` open the game's log at seq 0
        (the first deal). With ``accepting`` (a challenge id) the challenge is accepted in
        the same transaction, compare-and-set like ``resolve_challenge``: a crash never
        leaves an accepted challenge without its game, and of two concurrent accepts one
        creates the game. With ``lobby`` (a lobby id) the open lobby is started by the game
        in the same transaction, so of two Start clicks one creates the game, and only
        when every invited member has accepted and ``seats`` are exactly the lobby's
        (``lobby_seating``) at that moment: a Join or Leave that committed first is
        never lost, nor a member seated who left. Raises
        ``ValueError`` for seats, sides or arguments that break these rules;
        ``AlreadyPlaying`` if two of the members already share an active game in the
        guild; with ``accepting``, ``ChallengeClosed`` or ``ChallengeNotFound``; with
        ``lobby``, ``LobbyClosed``, ``LobbyNotFound``, ``LobbyNotReady`` or
        ``LobbyChanged`` (read the lobby again and rebuild the seats); with
        ``once_here``, ``AlreadyHere`` if one of the members already plays an active game
        in the channel (``channel_id`` its channel or its thread), checked as
        ``AlreadyPlaying`` is, so of two such creations at once one makes a game. With
        ``event_table`` ``(event id, round, table)`` the game is that event table's,
        linked in the same transaction after the event's row is locked: of two openings
        of a table one creates its game, the other raises ``TableOpened``; a round no
        longer in play raises ``StaleRound``, an event over ``EventClosed``; members who
        share another game may meet at an event's table (no ``AlreadyPlaying``). Nothing
        is written on error.
        """
        ordered = sorted(seats, key=lambda s: s.seat)
        if len(ordered) not in SEAT_COUNTS or [s.seat for s in ordered] != list(
            range(len(ordered))
        ):
            raise ValueError(f"seats must be numbered 0..n-1 with n in {SEAT_COUNTS}")
        sides = [s.side for s in ordered]  # never None: SeatRow fills it in
        count = max(sides) + 1
        if min(sides) < 0 or count < 2 or any(sides[k] != k for k in range(count)):
            raise ValueError(
                f"sides {tuple(sides)}: sides must be numbered 0..m-1 with m >= 2, "
                "side k holding seat k"
            )
        humans = [s.user_id for s in ordered if s.user_id is not None]
        if len(set(humans)) != len(humans):
            raise ValueError("a player cannot take two seats in one game")
        if first_dealer not in range(len(ordered)):
            raise ValueError(f"first_dealer {first_dealer} is not a seat")
        if seed not in _INT64:
            raise ValueError("seed must fit in a signed 64-bit integer")
        if not all(isinstance(a, str) and a.strip() for a in actions):
            raise ValueError("actions must be non-blank strings")
        options_json = _dump_options(options)
        now = _now(now)

        async def work(db: Connection) -> int:
            if accepting is not None and not await _resolve(
                db, accepting, ChallengeStatus.ACCEPTED, now
            ):
                raise ChallengeClosed(accepting)
            if lobby is not None:
                seating = {s.seat: (s.kind, s.user_id, s.level) for s in ordered}
                await _ready_lobby(db, lobby, seating, now)
            if event_table is not None:
                await _claim_table(db, *event_table)
            # After the accept, so a closed challenge says so; a refusal rolls it back.
            # The members are locked first: of two creations racing for them, the second
            # waits, then finds the first's game.
            await lock_members(db, humans)
            if event_table is None:
                # An event seats its members where its movement says (docs/events.md),
                # whatever else they play together.
                await _require_no_shared_game(db, guild_id, humans)
            if once_here:
                await _require_none_here(db, guild_id, channel_id, humans)
            game_id: int = (
                await db.execute(
                    insert(games)
                    .values(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        variant=variant,
                        options=options_json,
                        seed=seed,
                        first_dealer=first_dealer,
                        status=GameStatus.ACTIVE.value,
                        reminded=0,
                        created_at=now,
                        updated_at=now,
                        turn_started_at=now,
                    )
                    .returning(games.c.id)
                )
            ).scalar_one()
            await db.execute(
                insert(seats_table),
                [
                    {
                        "game_id": game_id,
                        "seat": s.seat,
                        "side": s.side,
                        "kind": s.kind.value,
                        "user_id": s.user_id,
                        "level": s.level,
                        "hints": 0,
                    }
                    for s in ordered
                ],
            )
            for s in ordered:
                if s.user_id is not None and s.display_name:
                    await _upsert_player(db, guild_id, s.user_id, s.display_name, now)
            if actions:
                await db.execute(
                    insert(game_actions),
                    [
                        {"game_id": game_id, "seq": seq, "action": action}
                        for seq, action in enumerate(actions)
                    ],
                )
            if lobby is not None:
                await _start_lobby(db, lobby, game_id, now)
            if event_table is not None:
                await _link_table(db, *event_table, game_id)
            return game_id

        return await self._write(work)

    async def set_table_message(
        self, game_id: int, message_id: int, thread_id: int | None = None
    ) -> None:
        """Remember the Discord message (and thread, if any) showing the game's table.

        Raises ``GameNotFound``.
        """

        async def work(db: Connection) -> None:
            result = await db.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(table_message_id=message_id, thread_id=thread_id)
            )
            if result.rowcount == 0:
                raise GameNotFound(game_id)

        await self._write(work)

    async def set_ping_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the message that mentions the member on turn (None: there is none
        now), so a restart can still delete it. Raises ``GameNotFound``."""

        async def work(db: Connection) -> None:
            if not await _SET_PING.run(db, {"game_id": game_id, "message_id": message_id}):
                raise GameNotFound(game_id)

        await self._write(work)

    async def set_game_over_message(self, game_id: int, message_id: int, *, channel: bool) -> None:
        """Remember a post of the game's result, whose Rematch button goes once the
        rematch starts, even after a restart: the post in the game's thread (its channel
        where it has none), or with ``channel`` its copy in the channel. Raises
        ``GameNotFound``."""
        column = "over_channel_message_id" if channel else "over_message_id"

        async def work(db: Connection) -> None:
            result = await db.execute(
                update(games).where(games.c.id == game_id).values({column: message_id})
            )
            if result.rowcount == 0:
                raise GameNotFound(game_id)

        await self._write(work)

    async def game_over_messages(self, game_id: int) -> list[tuple[int, int]]:
        """The posts of the game's result as ``(channel_id, message_id)``: the game's
        thread's (or channel's) and the channel's copy, those remembered. Raises
        ``GameNotFound``."""
        async with self._read() as db:
            row = (
                await db.execute(
                    select(
                        games.c.channel_id,
                        games.c.thread_id,
                        games.c.over_message_id,
                        games.c.over_channel_message_id,
                    ).where(games.c.id == game_id)
                )
            ).first()
        if row is None:
            raise GameNotFound(game_id)
        places = [
            (row.thread_id or row.channel_id, row.over_message_id),
            (row.channel_id, row.over_channel_message_id),
        ]
        return [(channel, message) for channel, message in places if message is not None]

    async def append_actions(
        self,
        game_id: int,
        first_seq: int,
        actions: Sequence[str],
        *,
        hands: Iterable[HandRecord] = (),
        new_turn: bool = False,
        now: float | None = None,
    ) -> int:
        """Append ``actions`` to the game's log as seqs ``first_seq, first_seq+1, ...``
        and record the ``hands`` they finished, all in one transaction (on PostgreSQL
        one statement: a single round trip); return the next free seq. With
        ``new_turn`` the turn timer restarts as ``touch_turn`` does.

        ``first_seq`` must be the log's next free seq (``GameRow.next_seq``), which
        makes a double-applied action impossible. Raises ``StaleAction`` if it is
        not, ``GameNotActive`` if the game has ended, ``GameNotFound``, and
        ``ValueError`` for an empty or blank action or a hand whose maker, tricks or
        points name a seat or side the game does not have. Nothing is written on error.
        """
        if not actions or not all(isinstance(a, str) and a.strip() for a in actions):
            raise ValueError("actions must be a non-empty sequence of non-blank strings")
        records = list(hands)
        now = _now(now)
        of_game = {"game_id": game_id}

        async def work(db: Connection) -> int:
            # The game's row is locked: a second click on it waits for this one, then (the
            # seq read after the lock) finds its seq taken.
            await _lock_active(db, game_id)
            [(expected,)] = await _NEXT_SEQ.rows(db, of_game)
            if first_seq != expected:
                raise StaleAction(game_id, first_seq, expected)
            await _INSERT_ACTION.run(
                db,
                [
                    {"game_id": game_id, "seq": first_seq + i, "action": action}
                    for i, action in enumerate(actions)
                ],
            )
            if records:
                sides = dict(await _SEAT_SIDES.rows(db, of_game))
                for record in records:
                    _check_hand(record, sides)
                    await _insert_hand(db, game_id, record, now)
            touch = _PASS_TURN if new_turn else _TOUCH_GAME
            await touch.run(db, {"game_id": game_id, "now": now})
            if self.announces:
                await announce(db, game_id)
            return first_seq + len(actions)

        if self.backend == "postgresql":
            parameters = _change_parameters(game_id, first_seq, actions, records, new_turn, now)
            statement = _CHANGE_ANNOUNCED if self.announces else _CHANGE
            runs = 0

            async def change(db: Connection) -> bool:
                nonlocal runs
                runs += 1
                if (await db.execute(statement, parameters)).first() is not None:
                    return True
                # Run again after its connection dropped, it may find its first run's
                # change committed.
                return runs > 1 and await _logged(db, game_id, first_seq, actions)

            try:
                try:
                    changed = await self._returns_row(statement, parameters)
                except TryAgain:
                    # Its connection may have dropped after it committed: ``change``
                    # then finds its actions logged.
                    runs = 1
                    changed = await self._write(change, atomic=True)
            except IntegrityError:
                # Beaten to the seq by a change committed meanwhile (or a hand recorded
                # twice): the transaction finds out which.
                changed = False
            if changed:
                return first_seq + len(actions)
        # A refused change runs as a transaction, which raises what went wrong (or
        # writes, if the game reached first_seq meanwhile).
        return await self._write(work)

    async def load_game(self, game_id: int) -> GameRow:
        """Return the game with its seats and full action log. Raises ``GameNotFound``."""
        async with self._read() as db:
            found = await _load_games(db, games.c.id == game_id)
        if not found:
            raise GameNotFound(game_id)
        return found[0]

    async def active_games(self) -> list[GameRow]:
        """Every active game of this process's shards, oldest first: what to resume after
        a restart."""
        async with self._read() as db:
            return await _load_games(
                db,
                and_(
                    games.c.status == GameStatus.ACTIVE.value,
                    self.shards.clause(games.c.guild_id),
                ),
            )

    async def active_game_between(self, guild_id: int, user_a: int, user_b: int) -> GameRow | None:
        """The oldest active game in the guild where both users are seated, or None."""
        async with self._read() as db:
            found = await _load_games(
                db, and_(_active(guild_id), _seating(user_a), _seating(user_b))
            )
        return found[0] if found else None

    async def active_games_here(self, guild_id: int, channel_id: int) -> list[GameRow]:
        """The guild's active games started in ``channel_id`` or playing in it (their
        thread), oldest first, whichever process runs them (every shard's)."""
        here = or_(games.c.channel_id == channel_id, games.c.thread_id == channel_id)
        async with self._read() as db:
            return await _load_games(db, and_(_active(guild_id), here))

    async def active_games_for_user(
        self, guild_id: int, channel_id: int | None, user_id: int
    ) -> list[GameRow]:
        """The user's active games in the guild, oldest first; only those in
        ``channel_id`` unless it is None."""
        in_channel = true() if channel_id is None else games.c.channel_id == channel_id
        async with self._read() as db:
            return await _load_games(db, and_(_active(guild_id), in_channel, _seating(user_id)))

    # Turn timer

    async def resign_seat(self, game_id: int, seat: int, *, now: float | None = None) -> None:
        """The member in ``seat`` resigns and a computer plays the seat from now on, while
        the game goes on for the others (docs/rulings.md R26); ``finish_game`` counts it.

        Raises:
            GameNotActive: the game is over (of a resignation and an end racing, one wins).
            GameNotFound: no such game.
            ValueError: ``seat`` is not a member's seat of the game, or they resigned
                already. Nothing is written on error.
        """
        now = _now(now)

        async def work(db: Connection) -> None:
            await _lock_active(db, game_id)
            result = await db.execute(
                update(seats_table)
                .where(
                    seats_table.c.game_id == game_id,
                    seats_table.c.seat == seat,
                    seats_table.c.kind == SeatKind.HUMAN.value,
                    seats_table.c.resigned_at.is_(None),
                )
                .values(resigned_at=now)
            )
            if result.rowcount != 1:
                raise ValueError(f"seat {seat} of game {game_id} has no member still playing")
            await db.execute(update(games).where(games.c.id == game_id).values(updated_at=now))
            if self.announces:
                await announce(db, game_id)

        await self._write(work)

    async def record_hint(self, game_id: int, seat: int) -> int:
        """Count a hint the member in ``seat`` asked for; return their hints in the game.

        Raises:
            GameNotActive: the game is over: a hint helps no one then.
            GameNotFound: no such game.
            ValueError: the game has no seat ``seat``; nothing is written.
        """

        async def work(db: Connection) -> int:
            await _lock_active(db, game_id)
            hints = (
                await db.execute(
                    update(seats_table)
                    .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                    .values(hints=seats_table.c.hints + 1)
                    .returning(seats_table.c.hints)
                )
            ).scalar_one_or_none()
            if hints is None:
                raise ValueError(f"game {game_id} has no seat {seat}")
            return int(hints)

        return await self._write(work)

    async def touch_turn(self, game_id: int, *, now: float | None = None) -> bool:
        """Start the turn timer afresh (a new turn began) and clear the reminder flag.

        Returns False, changing nothing, if the game is not active or does not exist.
        """
        now = _now(now)

        async def work(db: Connection) -> bool:
            result = await db.execute(
                update(games)
                .where(games.c.id == game_id, games.c.status == GameStatus.ACTIVE.value)
                .values(turn_started_at=now, reminded=0, updated_at=now)
            )
            return result.rowcount == 1

        return await self._write(work)

    async def turn_started(self, game_id: int) -> float:
        """When the game's current turn began, in seconds since the epoch (the turn
        timer's start: :meth:`touch_turn`, or a change that passed the turn).

        Raises:
            GameNotFound: there is no such game.
        """
        async with self._read() as db:
            query = select(games.c.turn_started_at).where(games.c.id == game_id)
            started = (await db.execute(query)).scalar()
        if started is None:
            raise GameNotFound(game_id)
        return float(started)

    async def mark_reminded(self, game_id: int) -> bool:
        """Note that the current turn's reminder was sent.

        Returns True only for the call that flipped the flag, so of two timers racing
        exactly one sends the reminder; False if already reminded or not active.
        """

        async def work(db: Connection) -> bool:
            # A compare-and-set: a second UPDATE of the row waits for the first one's
            # transaction (on PostgreSQL, then runs again and finds the flag set).
            result = await db.execute(
                update(games)
                .where(
                    games.c.id == game_id,
                    games.c.status == GameStatus.ACTIVE.value,
                    games.c.reminded == 0,
                )
                .values(reminded=1)
            )
            return result.rowcount == 1

        return await self._write(work)

    async def due_turn_timers(
        self, now: float, remind_after: float, forfeit_after: float
    ) -> list[TurnTimer]:
        """Active games of this process's shards whose turn started at least
        ``forfeit_after`` seconds before ``now`` (due: forfeit), or ``remind_after``
        seconds and not yet reminded (due: remind); longest-waiting first. The two delays
        are the bot's defaults: a server whose settings have a turn timer of its own
        (``guild_settings``) uses it.

        The store knows only the clock: the caller skips games where a computer is
        to move and decides which seat forfeits.
        """
        now, remind_after, forfeit_after = float(now), float(remind_after), float(forfeit_after)
        timers = (
            select(
                games.c.id,
                games.c.turn_started_at,
                games.c.reminded,
                func.coalesce(guild_settings.c.reminder_minutes * 60, remind_after).label(
                    "remind_after"
                ),
                func.coalesce(guild_settings.c.away_minutes * 60, forfeit_after).label(
                    "forfeit_after"
                ),
            )
            .select_from(
                games.outerjoin(guild_settings, guild_settings.c.guild_id == games.c.guild_id)
            )
            .where(
                games.c.status == GameStatus.ACTIVE.value,
                self.shards.clause(games.c.guild_id),
            )
            .cte("timers")
        )
        forfeit = timers.c.turn_started_at <= now - timers.c.forfeit_after
        query = (
            select(
                timers.c.id,
                timers.c.turn_started_at,
                timers.c.remind_after,
                timers.c.forfeit_after,
                forfeit.label("forfeit"),
            )
            .where(
                or_(
                    forfeit,
                    and_(
                        timers.c.reminded == 0,
                        timers.c.turn_started_at <= now - timers.c.remind_after,
                    ),
                )
            )
            .order_by(timers.c.turn_started_at, timers.c.id)
        )
        async with self._read() as db:
            rows = (await db.execute(query)).all()
        return [
            TurnTimer(
                game_id=r.id,
                due=TimerDue.FORFEIT if r.forfeit else TimerDue.REMIND,
                turn_started_at=r.turn_started_at,
                remind_after=float(r.remind_after),
                forfeit_after=float(r.forfeit_after),
            )
            for r in rows
        ]

    # Game end, results and ratings

    async def record_change(self, change: Change) -> None:
        """Store one stored-worthy change of a table (``bot.table.Change``): its new log
        entries with the hands they finished (``append_actions``), a member's
        resignation (``resign_seat``) and the game's end (``finish_game``). A change of
        the clock (a member away or back) writes nothing.

        Raises what those raise, nothing written by the step that raised: ``StaleAction``
        (another event took the seq: of two racing clicks exactly one is stored),
        ``GameNotActive``, ``GameNotFound``, ``ValueError``.
        """
        game_id = change.before.id
        if change.entries:
            sides = change.before.game.variant.sides
            await self.append_actions(
                game_id,
                change.first_seq,
                change.entries,
                hands=[HandRecord.from_result(r, sides) for r in change.hands],
                new_turn=change.new_turn,
            )
        if change.resigned is not None:
            await self.resign_seat(game_id, change.resigned)
        if change.result is not None:
            await self.finish_game(game_id, GameStatus(change.result.ending), change.result)

    async def finish_game(
        self,
        game_id: int,
        status: GameStatus,
        result: Result | None = None,
        *,
        now: float | None = None,
    ) -> list[RatingChange]:
        """End an active game; return the rating changes (empty if unrated), one per
        player in the order of the teams.

        For ``FINISHED``, ``RESIGNED`` and ``FORFEITED``: ``result`` says what the game
        counts for each seat, as the table decided it (``bot.table.standings``,
        docs/rulings.md R26): one result row per seat is written with its side, score,
        place (``rank``) and outcome, and if ``result.rated`` the members' ratings are
        updated with ``result.teams`` as OpenSkill teams ranked by ``result.ranks``
        (``bot.ratings.rate``) and each player's rated wins (place 1) or losses counted.
        For ``ABANDONED``: no result; nothing else is written.
        Status, results and ratings are one transaction.

        Raises ``GameNotActive`` (already ended: of two racing finishes exactly
        one succeeds), ``GameNotFound``, and ``ValueError`` (nothing written) for an
        ``ACTIVE`` status, a result with ``ABANDONED`` or none with another status, a
        result whose seats are not the game's, partners' scores that differ, a rating
        team naming a user who has no seat, or a rated result for a game with a
        computer seat.
        """
        status = GameStatus(status)
        if status is GameStatus.ACTIVE:
            raise ValueError("finish_game needs a final status")
        if (status is GameStatus.ABANDONED) != (result is None):
            raise ValueError("an abandoned game has no result; any other end has one")
        now = _now(now)

        async def work(db: Connection) -> list[RatingChange]:
            game = await _lock_active(db, game_id)
            seated = [
                SeatRow(r.seat, SeatKind(r.kind), r.user_id, r.level, side=r.side)
                for r in await db.execute(
                    select(
                        seats_table.c.seat,
                        seats_table.c.side,
                        seats_table.c.kind,
                        seats_table.c.user_id,
                        seats_table.c.level,
                    )
                    .where(seats_table.c.game_id == game_id)
                    .order_by(seats_table.c.seat)
                )
            ]
            if result is not None:
                _check_result(result, seated)
            winner_seat = None if result is None else result.winner_seat
            await db.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(
                    status=status.value, winner_seat=winner_seat, finished_at=now, updated_at=now
                )
            )
            if self.announces:
                await announce(db, game_id)
            if result is None:
                return []
            vs_computer = not result.rated
            await db.execute(
                insert(results),
                [
                    {
                        "game_id": game_id,
                        "seat": s.seat,
                        "user_id": s.user_id,
                        "outcome": (Outcome.WIN if result.won[s.seat] else Outcome.LOSS).value,
                        "score": result.scores[s.seat],
                        "vs_computer": int(vs_computer),
                        "side": s.side,
                        "rank": result.places[s.seat],
                    }
                    for s in seated
                ],
            )
            if vs_computer:
                return []
            teams = [list(team) for team in result.teams]
            return await _rate(db, game.guild_id, game.variant, teams, list(result.ranks), now)

        return await self._write(work)


def _check_result(result: Result, seated: Sequence[SeatRow]) -> None:
    """Raise ``ValueError`` unless ``result`` fits the game's seats: one entry per seat,
    a winner among its sides, partners sharing a score, and rating teams of its members
    (in a game of members only)."""
    n = len(seated)
    if not len(result.scores) == len(result.places) == len(result.won) == n:
        raise ValueError(f"a result must give every one of the {n} seats")
    sides = {s.side for s in seated}
    if result.winner not in sides:
        raise ValueError(f"the winner {result.winner} is not a side of the game")
    side_score: dict[int | None, int] = {}
    for s in seated:
        if side_score.setdefault(s.side, result.scores[s.seat]) != result.scores[s.seat]:
            raise ValueError("partners (seats of one side) share their side's score")
    if result.rated and any(s.kind is SeatKind.COMPUTER for s in seated):
        raise ValueError("a game with a computer is unrated")
    members = {s.user_id for s in seated if s.user_id is not None}
    named = [user for team in result.teams for user in team]
    if len(result.teams) != len(result.ranks) or not set(named) <= members:
        raise ValueError("the rating teams must be the game's members, each with a place")
