"""An event's life as data: sign-up, rounds, results, the end.

An :class:`Event` is a value, like :class:`bot.table.Table`: each request (a member
joins or leaves, the host starts or cancels, a table's result comes in, a round ends,
the next is seated) returns the event after it, or raises an :class:`EventError`
subclass whose message is safe to show, and changes nothing. The async runner asks, the
store keeps the answer in one transaction, and only then is it shown.

The states::

    SIGN_UP --start--> RUNNING (round 1) --end_round--> BETWEEN --next_round--> RUNNING (round n)
        \\                    \\                  \\--finish--> FINISHED
         \\--cancel--> CANCELLED   \\--end_round of the last round--> FINISHED

Joins after the start are late sign-ups: they play from the next round seated. A member
who leaves a round in play is replaced at their table by a computer (the runner resigns
their seat, R26); after that, their partnership or one-on-one entry is played by a
computer to the end, while a progressive member is simply no longer seated (R34).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from bot.events.model import (
    COMPUTERS,
    Config,
    Entry,
    EventError,
    Fill,
    Format,
    Member,
    Round,
    Seating,
    SitOut,
    TableResult,
)
from bot.events.movement import (
    Meetings,
    deal_seed,
    form_pairs,
    orient,
    pair_swiss,
    round_robin,
    seat_progressive,
)
from bot.events.standings import Standing, standings

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "AlreadyIn",
    "AlreadyStarted",
    "Event",
    "EventClosed",
    "InAnother",
    "NotIn",
    "NotRunning",
    "RoundNotOver",
    "StaleRound",
    "Status",
    "TooFew",
]


RECORD_FORMAT = "tuque-event"
RECORD_VERSION = 1
"""An event's record (:meth:`Event.to_record`): its format's name and version."""


class Status(StrEnum):
    """Where an event stands."""

    SIGN_UP = "sign-up"
    """Open for sign-ups; not started."""
    RUNNING = "running"
    """A round is in play (``Event.round_no``)."""
    BETWEEN = "between rounds"
    """The last round seated is over; the next is not seated yet."""
    FINISHED = "finished"
    """Every round played (or the host ended it between rounds): the standings are final."""
    CANCELLED = "cancelled"
    """Cancelled by the host: nothing more happens."""


class EventClosed(EventError):
    """The event is finished or cancelled."""


class AlreadyStarted(EventError):
    """Start asked of an event that started already (a second click, or two hosts)."""


class NotRunning(EventError):
    """A round's request when no round is in play."""


class StaleRound(EventError):
    """A request for a round that is no longer the one in play."""


class RoundNotOver(EventError):
    """The round's end asked before every table's result is in."""


class TooFew(EventError):
    """Not enough members to seat a round."""


class AlreadyIn(EventError):
    """A member signs up twice."""


class NotIn(EventError):
    """A member who is not (or no longer) in the event."""


class InAnother(EventError):
    """A member signs up while in another event not over yet: one seat a night
    (docs/rulings.md R37)."""


@dataclass(frozen=True, slots=True)
class Event:
    """An event and everything that happened in it.

    Attributes:
        id: the event's id (the store's).
        config: what the host chose.
        status: where it stands.
        members: everyone who signed up, in sign-up order (one who left during sign-up
            is forgotten; after the start, one who leaves keeps their line with
            ``left`` set).
        entries: the standings' lines: a member each (progressive, Swiss) or fixed
            partnerships (pairs, duplicate), formed as they are first seated.
        rounds: the rounds seated so far, the last one in play while ``RUNNING``.
    """

    id: int
    config: Config
    status: Status = Status.SIGN_UP
    members: tuple[Member, ...] = ()
    entries: tuple[Entry, ...] = ()
    rounds: tuple[Round, ...] = ()

    # --- what it is ------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Finished or cancelled: every request is refused."""
        return self.status in (Status.FINISHED, Status.CANCELLED)

    @property
    def round_no(self) -> int:
        """The last round seated (0 before the start)."""
        return len(self.rounds)

    @property
    def current(self) -> Round | None:
        """The round in play, or None."""
        return self.rounds[-1] if self.status is Status.RUNNING else None

    def member(self, member: int) -> Member | None:
        """The sign-up of ``member``, or None."""
        return next((m for m in self.members if m.id == member), None)

    @property
    def signed_up(self) -> tuple[int, ...]:
        """The members still in, in sign-up order (late sign-ups too)."""
        return tuple(m.id for m in self.members if m.left is None)

    @property
    def waiting(self) -> tuple[int, ...]:
        """Late sign-ups not seated yet: they play from the next round."""
        return tuple(
            m.id for m in self.members if m.left is None and m.joined > max(self.round_no, 1)
        )

    def seat_of(self, member: int) -> tuple[Seating, int] | None:
        """The table and seat of ``member`` in the round in play, or None: a member is
        never seated at two tables."""
        rnd = self.current
        seating = rnd.seating_of(member) if rnd else None
        return None if seating is None else (seating, seating.seats.index(member))

    def standings(self) -> tuple[Standing, ...]:
        """The standings so far (:func:`bot.events.standings.standings`)."""
        return standings(self.config, self.entries, self.members, self.rounds)

    # --- the store's record ------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The event as a JSON-ready record (``format`` ``tuque-event``, version 1): its
        config, status, members, entries and rounds with their results. It holds no
        card: every deal is rebuilt from the seatings' seeds."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "id": self.id,
            "config": dataclasses.asdict(self.config),
            "status": self.status.value,
            "members": [[m.id, m.joined, m.left] for m in self.members],
            "entries": [[e.number, list(e.members), e.first] for e in self.entries],
            "rounds": [_round_record(r) for r in self.rounds],
        }

    @classmethod
    def from_record(cls, record: Any) -> Event:
        """The event :meth:`to_record` gave (``record`` as ``json.loads`` reads it).

        Raises:
            EventError: not such a record, another version, or a field missing or of the
                wrong shape.
        """
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            raise EventError(f"not a {RECORD_FORMAT} record")
        if record.get("version") != RECORD_VERSION:
            raise EventError(f"unsupported {RECORD_FORMAT} version")
        try:
            config = dict(record["config"])
            config["format"] = Format(config["format"])
            config["fill"] = Fill(config["fill"])
            config["sit_out"] = SitOut(config["sit_out"])
            return cls(
                id=record["id"],
                config=Config(**config),
                status=Status(record["status"]),
                members=tuple(Member(m, j, left) for m, j, left in record["members"]),
                entries=tuple(Entry(n, tuple(ms), f) for n, ms, f in record["entries"]),
                rounds=tuple(_round_from(r) for r in record["rounds"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise EventError(f"a malformed {RECORD_FORMAT} record: {error}") from None

    # --- sign-up ---------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.closed:
            raise EventClosed(f"{self.config.name} is {self.status.value}.")

    def join(self, member: int) -> Event:
        """``member`` signs up: before the start, for round 1; after it, a late sign-up
        who plays from the next round seated.

        Raises:
            EventClosed: the event is over.
            AlreadyIn: they are in already.
            NotIn: they left after the start (a place is not taken back).
            EventError: the last round is in play; or not a user id.
        """
        self._check_open()
        if isinstance(member, bool) or not isinstance(member, int) or member <= 0:
            raise EventError("A member is a Discord user id.")
        known = self.member(member)
        if known is not None:
            if known.left is not None:
                raise NotIn(f"You left {self.config.name}: your place is not taken back.")
            raise AlreadyIn(f"You're in {self.config.name} already.")
        joined = self.round_no + 1 if self.status is not Status.SIGN_UP else 1
        if joined > self.config.rounds:
            raise EventError(f"The last round of {self.config.name} is under way.")
        return dataclasses.replace(self, members=(*self.members, Member(member, joined)))

    def leave(self, member: int) -> Event:
        """``member`` leaves. Before the start, or before their first round, they are
        simply off the list. After, their line stays (unplaced, R35) and a computer
        takes their seat: at their table for the rest of the round in play (which then
        does not count for them; once their table's result is in, it does), then in
        their partnership or one-on-one entry to the end; a progressive member is no
        longer seated (R34).

        Raises:
            EventClosed: the event is over.
            NotIn: they are not in (or left already).
        """
        self._check_open()
        known = self.member(member)
        if known is None or known.left is not None:
            raise NotIn(f"You're not in {self.config.name}.")
        if self.status is Status.SIGN_UP or known.joined > self.round_no:
            members = tuple(m for m in self.members if m.id != member)
            return dataclasses.replace(self, members=members)
        # A round counts for whoever leaves once their table's result is in (R34).
        left = self.round_no + 1
        if self.status is Status.RUNNING:
            rnd = self.rounds[-1]
            seating = rnd.seating_of(member)
            if seating is None or rnd.results[seating.table - 1] is None:
                left = self.round_no
        members = tuple(
            dataclasses.replace(m, left=left) if m.id == member else m for m in self.members
        )
        rounds = self.rounds
        if self.status is Status.RUNNING:
            last = rounds[-1]
            rounds = (*rounds[:-1], dataclasses.replace(last, away=last.away - {member}))
        return dataclasses.replace(self, members=members, rounds=rounds)

    def cancel(self) -> Event:
        """The host cancels the event (at any time before its end).

        Raises:
            EventClosed: it is over already.
        """
        self._check_open()
        return dataclasses.replace(self, status=Status.CANCELLED)

    # --- rounds ----------------------------------------------------------------------

    def start(self) -> Event:
        """Sign-up closes and round 1 is seated.

        Raises:
            EventClosed: the event is over.
            AlreadyStarted: it started already.
            TooFew: fewer members than the format needs (``Format.minimum``).
        """
        self._check_open()
        if self.status is not Status.SIGN_UP:
            raise AlreadyStarted(f"{self.config.name} has started already.")
        if len(self.members) < self.config.format.minimum:
            raise TooFew(
                f"{self.config.format.label} needs {self.config.format.minimum} members "
                f"or more; {len(self.members)} signed up."
            )
        return self._seat(1)

    def next_round(self) -> Event:
        """The next round is seated, late sign-ups in it.

        Raises:
            EventClosed: the event is over.
            NotRunning: not between rounds (still in sign-up, or a round in play).
            TooFew: a progressive event with fewer than 4 members left.
        """
        self._check_open()
        if self.status is not Status.BETWEEN:
            raise NotRunning("The next round is seated between rounds only.")
        return self._seat(self.round_no + 1)

    def finish(self) -> Event:
        """The host ends the event between rounds: the standings are final.

        Raises:
            EventClosed: the event is over.
            NotRunning: not between rounds.
        """
        self._check_open()
        if self.status is not Status.BETWEEN:
            raise NotRunning("An event ends between rounds.")
        return dataclasses.replace(self, status=Status.FINISHED)

    def _check_round(self, round_no: int) -> Round:
        self._check_open()
        if self.status is not Status.RUNNING:
            raise NotRunning(f"No round of {self.config.name} is in play.")
        if round_no != self.round_no:
            raise StaleRound(f"That was for round {round_no}; round {self.round_no} is in play.")
        return self.rounds[-1]

    def record(self, round_no: int, table: int, result: TableResult) -> Event:
        """Table ``table``'s result for round ``round_no``.

        Raises:
            EventClosed, NotRunning, StaleRound: not the round in play.
            EventError: no such table, its result is in already, or a result that does
                not fit the format (duplicate: one to ``hands`` boards; else none).
        """
        rnd = self._check_round(round_no)
        if not 1 <= table <= len(rnd.seatings):
            raise EventError(f"Round {round_no} has no table {table}.")
        if rnd.results[table - 1] is not None:
            raise EventError(f"Table {table}'s result for round {round_no} is in already.")
        duplicate = self.config.format is Format.DUPLICATE
        if duplicate and len(result.boards) > (self.config.hands or 0):
            raise EventError(f"A round has {self.config.hands} boards.")
        if not duplicate and result.boards:
            raise EventError("Only a duplicate table has boards.")
        if any(seat >= self.config.format.seats for seat in result.loners):
            raise EventError("A loner's seat is not at this table.")
        results = list(rnd.results)
        results[table - 1] = result
        return self._with_round(dataclasses.replace(rnd, results=tuple(results)))

    def end_round(self) -> Event:
        """The round in play ends: between rounds, or finished after the last.

        Raises:
            EventClosed, NotRunning: no round in play.
            RoundNotOver: a table's result is not in.
        """
        rnd = self._check_round(self.round_no)
        if not rnd.over:
            missing = [s.table for s, r in zip(rnd.seatings, rnd.results, strict=True) if not r]
            raise RoundNotOver(f"Round {rnd.number} goes on at table {missing[0]}.")
        last = self.round_no >= self.config.rounds
        return dataclasses.replace(self, status=Status.FINISHED if last else Status.BETWEEN)

    def away(self, member: int) -> Event:
        """``member`` is away in the round in play (a no-show at its start, or R9's turn
        timer): a computer plays their seat until they are back; the standings say so.

        Raises:
            EventClosed, NotRunning: no round in play.
            NotIn: not seated this round, or left.
        """
        return self._away(member, True)

    def back(self, member: int) -> Event:
        """``member`` came: they play their own seat again.

        Raises:
            EventClosed, NotRunning: no round in play.
            NotIn: not seated this round, or left.
        """
        return self._away(member, False)

    def _away(self, member: int, away: bool) -> Event:
        rnd = self._check_round(self.round_no)
        known = self.member(member)
        if rnd.seating_of(member) is None or known is None or known.left is not None:
            raise NotIn(f"You're not at a table in round {rnd.number}.")
        now = rnd.away | {member} if away else rnd.away - {member}
        return self._with_round(dataclasses.replace(rnd, away=now))

    def _with_round(self, rnd: Round) -> Event:
        return dataclasses.replace(self, rounds=(*self.rounds[:-1], rnd))

    # --- seating ---------------------------------------------------------------------

    def _seat(self, round_no: int) -> Event:
        """The event with round ``round_no`` seated and in play: new entries for the
        members who join at it, then the format's movement."""
        event = self._with_entries(round_no)
        if self.config.format is Format.PROGRESSIVE:
            rnd = event._seat_progressive(round_no)
        else:
            rnd = event._seat_matches(round_no)
        return dataclasses.replace(event, status=Status.RUNNING, rounds=(*event.rounds, rnd))

    def _with_entries(self, round_no: int) -> Event:
        """Entries for the members first seated at ``round_no``: one each, or fixed
        partnerships drawn by lot (late sign-ups among themselves, R33)."""
        entered = {m for e in self.entries for m in e.members}
        new = [m.id for m in self.members if m.plays(round_no) and m.id not in entered]
        if not new:
            return self
        number = len(self.entries) + 1
        if self.config.format.pairs:
            added = form_pairs(new, self.config.seed, number=number, first=round_no)
        else:
            added = tuple(Entry(number + i, (m,), round_no) for i, m in enumerate(new))
        return dataclasses.replace(self, entries=(*self.entries, *added))

    def _seat_progressive(self, round_no: int) -> Round:
        players = [m.id for m in self.members if m.plays(round_no)]
        if len(players) < Format.PROGRESSIVE.minimum:
            raise TooFew(f"Too few members are left to seat round {round_no}.")
        config = self.config
        tables, out = seat_progressive(
            players, self.rounds, round_no=round_no, fill=config.fill, seed=config.seed
        )
        entry_of = {e.members[0]: e.number for e in self.entries}
        seatings = tuple(
            Seating(
                table=n,
                seats=seats,
                entries=tuple(COMPUTERS if m is None else entry_of[m] for m in seats),
                seed=deal_seed(config.seed, round_no, n),
            )
            for n, seats in enumerate(tables, 1)
        )
        return Round(round_no, seatings, tuple(sorted(entry_of[m] for m in out)))

    def _seat_matches(self, round_no: int) -> Round:
        """A round of pairs, duplicate or Swiss: a round robin when every entry can meet
        every other in the event's rounds and nobody entered late; else a Swiss round
        on the standings (duplicate: on the percentage)."""
        config = self.config
        numbers = [e.number for e in self.entries]
        if len(numbers) % 2:
            numbers.append(COMPUTERS)
        past = Meetings.of(self.rounds, byes=True)
        late = any(e.first > 1 for e in self.entries)
        if not late and len(numbers) - 1 <= config.rounds:
            matches = round_robin(numbers, round_no)
        else:
            score = {s.entry: s.score for s in self.standings()}
            group = _groups(score.values())
            groups = {e: group[score[e]] for e in numbers if e != COMPUTERS}
            matches = pair_swiss(numbers, groups, past.met, round_no=round_no, seed=config.seed)
        byes = [a if b == COMPUTERS else b for a, b in matches if COMPUTERS in (a, b)]
        if config.fill is Fill.SIT_OUT and byes:
            matches = [m for m in matches if COMPUTERS not in m]
        else:
            byes = []
        seatings = []
        for n, (a, b) in enumerate(orient(matches, past.first_side), 1):
            seats, entries = self._match_seats(a, b, round_no)
            table_seed = 0 if config.format is Format.DUPLICATE else n
            seatings.append(
                Seating(n, seats, entries, deal_seed(config.seed, round_no, table_seed))
            )
        return Round(round_no, tuple(seatings), tuple(byes))

    def _match_seats(
        self, a: int, b: int, round_no: int
    ) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
        """The seats of entry ``a`` (side 0) against ``b``: partners opposite; a member
        who left, a computer partner, and the computers' entry are computers (None)."""
        per_side = self.config.format.seats // 2
        sides = []
        for number in (a, b):
            entry = next((e for e in self.entries if e.number == number), None)
            players = entry.members if entry else (None,) * per_side
            sides.append(tuple(self._still_in(m, round_no) for m in players))
        seats = tuple(m for pair in zip(*sides, strict=True) for m in pair)
        return seats, (a, b) * per_side

    def _still_in(self, member: int | None, round_no: int) -> int | None:
        known = None if member is None else self.member(member)
        return member if known is not None and known.plays(round_no) else None


def _groups(scores: Iterable[Fraction]) -> dict[Fraction, int]:
    """Each distinct score's group, 0 the highest (the Swiss score groups)."""
    return {s: n for n, s in enumerate(sorted(set(scores), reverse=True))}


def _round_record(rnd: Round) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "seatings": [[s.table, list(s.seats), list(s.entries), s.seed] for s in rnd.seatings],
        "sitting_out": list(rnd.sitting_out),
        "results": [
            None
            if r is None
            else {
                "points": list(r.points),
                "loners": list(r.loners),
                "boards": [list(b) for b in r.boards],
                "conceded": r.conceded,
            }
            for r in rnd.results
        ],
        "away": sorted(rnd.away),
    }


def _round_from(record: dict[str, Any]) -> Round:
    results = tuple(
        None
        if r is None
        else TableResult(
            (r["points"][0], r["points"][1]),
            tuple(r["loners"]),
            tuple((b[0], b[1]) for b in r["boards"]),
            r["conceded"],
        )
        for r in record["results"]
    )
    seatings = tuple(
        Seating(table, tuple(seats), tuple(entries), seed)
        for table, seats, entries, seed in record["seatings"]
    )
    return Round(
        record["number"], seatings, tuple(record["sitting_out"]), results, frozenset(record["away"])
    )
