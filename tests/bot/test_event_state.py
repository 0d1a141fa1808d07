"""An event's life (bot/events/event.py): sign-up, rounds, late sign-ups, no-shows,
members who leave, the end; and every request refused where it does not fit, with the
event unchanged."""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from fractions import Fraction

import pytest

from bot.events.event import (
    AlreadyIn,
    AlreadyStarted,
    Event,
    EventClosed,
    NotIn,
    NotRunning,
    RoundNotOver,
    StaleRound,
    Status,
    TooFew,
)
from bot.events.model import (
    COMPUTERS,
    Config,
    EventError,
    Fill,
    Format,
    Round,
    TableResult,
    formats_for,
)
from engine.variants import get_variant


def new_event(fmt: Format = Format.PROGRESSIVE, members: int = 0, **options: object) -> Event:
    variant = "tuque" if fmt is Format.SWISS else "euchre"
    options = {"rounds": 4, "hands": 8, **options}
    event = Event(1, Config("Euchre night", variant, fmt, seed=11, **options))  # type: ignore[arg-type]
    for m in range(1, members + 1):
        event = event.join(m)
    return event


def points(round_no: int, table: int) -> tuple[int, int]:
    """A table's points, by side, made up for the test."""
    return (table + round_no, 10 - table)


def play_round(event: Event) -> Event:
    """Every table of the round in play records its made-up points; the round ends."""
    rnd = event.current
    assert rnd is not None
    for s in rnd.seatings:
        event = event.record(rnd.number, s.table, TableResult(points(rnd.number, s.table)))
    return event.end_round()


def partners(rnd: Round) -> list[frozenset[int | None]]:
    return [frozenset((s.seats[a], s.seats[a + 2])) for s in rnd.seatings for a in (0, 1)]


@pytest.mark.parametrize("fill", list(Fill))
def test_a_progressive_night_of_thirteen(fill: Fill) -> None:
    """13 members over 4 rounds: one does not show at round 1 and comes; 14 signs up
    during round 2 and plays from round 3; 3 leaves after round 2. Nobody partners
    twice; every score is its sides' points (a sit-out the round's average) in the
    rounds that count, by hand."""
    event = new_event(members=13, fill=fill).start()
    no_show = event.rounds[0].seatings[0].seats[0]
    assert no_show is not None
    event = event.away(no_show)
    assert next(s for s in event.standings() if s.members == (no_show,)).away
    event = play_round(event.back(no_show))
    event = event.next_round()
    event = event.join(14)
    assert event.waiting == (14,)
    event = play_round(event)
    event = event.leave(3)
    for _ in (3, 4):
        event = play_round(event.next_round())
    assert event.status is Status.FINISHED and event.current is None

    expected: Counter[int] = Counter()
    for rnd in event.rounds:
        playing = set(range(1, 15)) - ({14} if rnd.number < 3 else {3})
        seated = [m for s in rnd.seatings for m in s.seats if m is not None]
        out = [event.entries[e - 1].members[0] for e in rnd.sitting_out]
        assert sorted(seated + out) == sorted(playing)  # everyone once: a seat or out
        if fill is Fill.SIT_OUT:
            assert len(out) == len(playing) % 4 and None not in [
                m for s in rnd.seatings for m in s.seats
            ]
        else:
            assert out == [] and len(rnd.seatings) == math.ceil(len(playing) / 4)
        sides = [points(rnd.number, s.table) for s in rnd.seatings]
        for s in rnd.seatings:
            for seat, m in enumerate(s.seats):
                if m is not None:
                    expected[m] += sides[s.table - 1][seat % 2]
        average = Fraction(sum(map(sum, sides)), 2 * len(sides))
        for m in out:
            expected[m] += math.floor(average + Fraction(1, 2))
    all_partners = [p for rnd in event.rounds for p in partners(rnd) if None not in p]
    assert len(all_partners) == len(set(all_partners))

    lines = {s.members[0]: s for s in event.standings()}
    assert {m: int(s.score) for m, s in lines.items()} == dict(expected)
    assert lines[3].place is None and lines[3].left and lines[3].rounds[2:] == (None, None)
    assert lines[14].rounds[:2] == (None, None) and lines[14].place is not None
    assert not lines[no_show].away and lines[no_show].rounds[0] is not None


def test_a_member_who_leaves_during_a_round_scores_nothing_for_it() -> None:
    """Their partner keeps the side's points; they keep their earlier rounds."""
    event = play_round(new_event(members=8, fill=Fill.SIT_OUT).start()).next_round()
    seating, seat = event.seat_of(1) or (None, 0)
    assert seating is not None
    partner = seating.seats[(seat + 2) % 4]
    event = play_round(event.leave(1))
    lines = {s.members[0]: s for s in event.standings()}
    assert lines[1].rounds[1] is None and lines[1].rounds[0] is not None
    assert lines[partner].rounds[1] == points(2, seating.table)[seat % 2]
    assert event.member(1) == dataclasses.replace(event.member(1), left=2)  # type: ignore[arg-type]
    assert 1 not in {m for s in event.next_round().rounds[-1].seatings for m in s.seats}


def test_a_member_who_leaves_after_their_table_ends_keeps_the_round() -> None:
    """Their table's result is in, another table plays on: the round counts for them,
    and they are not seated in the next."""
    event = new_event(members=8).start()
    seating, _ = event.seat_of(1) or (None, 0)
    assert seating is not None
    event = event.record(1, seating.table, TableResult(points(1, seating.table)))
    event = event.leave(1)
    assert event.member(1) == dataclasses.replace(event.member(1), left=2)  # type: ignore[arg-type]
    rnd = event.current
    assert rnd is not None
    for s in rnd.seatings:
        if s.table != seating.table:
            event = event.record(1, s.table, TableResult(points(1, s.table)))
    event = event.end_round()
    line = next(s for s in event.standings() if s.members == (1,))
    assert line.left and line.place is None and line.rounds[0] is not None
    assert 1 not in {m for s in event.next_round().rounds[-1].seatings for m in s.seats}


def test_a_swiss_night_of_seven_with_byes_and_no_rematch() -> None:
    """Tuque, 7 members, 3 rounds: three tables and a bye a round, three different
    byes, no rematch, a bye scores a win; the lower user id wins each match here."""
    event = new_event(Format.SWISS, members=7, rounds=3, fill=Fill.SIT_OUT).start()
    met: list[frozenset[int]] = []
    for _ in range(3):
        rnd = event.current
        assert rnd is not None and len(rnd.seatings) == 3 and len(rnd.sitting_out) == 1
        for s in rnd.seatings:
            a, b = s.seats
            assert a is not None and b is not None
            met.append(frozenset(s.entries))
            result = TableResult((5, 2) if a < b else (2, 5))
            event = event.record(rnd.number, s.table, result)
        event = event.end_round()
        if event.status is Status.BETWEEN:
            event = event.next_round()
    assert len(met) == 9 == len(set(met))
    byes = [e for rnd in event.rounds for e in rnd.sitting_out]
    assert len(set(byes)) == 3
    lines = event.standings()
    wins = Counter(
        min(s.seats)
        for rnd in event.rounds
        for s in rnd.seatings  # type: ignore[type-var]
    )
    for line in lines:
        (member,) = line.members
        assert line.score == wins[member] + byes.count(line.entry)
    assert [s.place for s in lines] == sorted(s.place for s in lines)  # type: ignore[type-var]


def test_a_swiss_night_of_seven_with_computers_gives_nobody_a_bye() -> None:
    """With computers filling, the odd member plays the computers' entry instead."""
    event = new_event(Format.SWISS, members=7, rounds=3).start()
    rnd = event.current
    assert rnd is not None and rnd.sitting_out == () and len(rnd.seatings) == 4
    (vs_computers,) = [s for s in rnd.seatings if COMPUTERS in s.entries]
    assert vs_computers.seats.count(None) == 1
    assert len({s.seed for s in rnd.seatings}) == 4


def test_pairs_keep_a_left_members_seat_for_a_computer_and_pair_late_sign_ups() -> None:
    """Pairs drawn by lot at the start (9 members: one with a computer partner); one who
    leaves is a computer in their pair's seat from then on; two late sign-ups make a new
    pair."""
    event = new_event(Format.PAIRS, members=9, rounds=3, fill=Fill.SIT_OUT).start()
    assert [len([m for m in e.members if m is not None]) for e in event.entries] == [2, 2, 2, 2, 1]
    leaver = event.entries[0].members[0]
    assert leaver is not None
    event = play_round(event).join(10).join(11).leave(leaver)
    event = event.next_round()
    assert event.entries[-1].members in ((10, 11), (11, 10)) and event.entries[-1].first == 2
    pair = event.entries[0]
    rnd = event.rounds[-1]
    seats = [s for s in rnd.seatings if pair.number in s.entries]
    assert pair.number in rnd.sitting_out or None in seats[0].seats
    assert all(leaver not in s.seats for s in rnd.seatings)
    assert next(s for s in event.standings() if s.entry == pair.number).place is not None


def test_requests_that_do_not_fit_are_refused_and_change_nothing() -> None:
    """Start twice, join after the end, a second sign-up, a stale or double result, a
    round's end before its results, a next round during one."""
    event = new_event(members=4, rounds=1)
    with pytest.raises(AlreadyIn):
        event.join(2)
    with pytest.raises(NotIn):
        event.leave(9)
    with pytest.raises(NotRunning):
        event.next_round()
    started = event.start()
    with pytest.raises(AlreadyStarted):
        started.start()
    with pytest.raises(RoundNotOver):
        started.end_round()
    with pytest.raises(NotRunning):
        started.next_round()
    with pytest.raises(StaleRound):
        started.record(2, 1, TableResult((1, 0)))
    recorded = started.record(1, 1, TableResult((1, 0)))
    with pytest.raises(EventError, match="in already"):
        recorded.record(1, 1, TableResult((2, 0)))
    with pytest.raises(EventError, match="no table 2"):
        recorded.record(1, 2, TableResult((2, 0)))
    with pytest.raises(EventError, match="last round"):
        recorded.join(7)
    finished = recorded.end_round()
    assert finished.status is Status.FINISHED
    for request in (lambda e: e.join(8), lambda e: e.start(), lambda e: e.cancel()):
        with pytest.raises(EventClosed):
            request(finished)
    assert started.rounds[0].results == (None,)  # the refused requests left it as it was


def test_sign_up_leave_cancel_and_too_few() -> None:
    """Leaving before the start takes a member off the list; three can't start a
    progressive night; a cancelled event refuses everything."""
    event = new_event(members=4).leave(2)
    assert event.signed_up == (1, 3, 4)
    with pytest.raises(TooFew, match="needs 4"):
        event.start()
    cancelled = event.join(2).cancel()
    assert cancelled.status is Status.CANCELLED
    with pytest.raises(EventClosed):
        cancelled.join(5)


def test_a_late_sign_up_who_leaves_before_playing_is_forgotten_and_who_left_cant_rejoin() -> None:
    """A place is not taken back after the start."""
    event = new_event(members=4).start().join(5)
    assert event.leave(5).members == event.members[:4]
    left = event.leave(1)
    with pytest.raises(NotIn, match="not taken back"):
        left.join(1)
    with pytest.raises(NotIn):
        left.away(1)


def test_an_event_ends_early_between_rounds_only() -> None:
    """The host may end it after a round, not during one."""
    event = new_event(members=4).start()
    with pytest.raises(NotRunning):
        event.finish()
    assert play_round(event).finish().status is Status.FINISHED


def test_a_stored_event_seats_the_same_next_round() -> None:
    """The same requests give the same event: a restart that rebuilds it from its rounds
    seats the next round as before."""
    one = play_round(new_event(members=10, fill=Fill.SIT_OUT).start())
    rebuilt = Event(one.id, one.config, one.status, one.members, one.entries, one.rounds)
    assert rebuilt.next_round() == one.next_round()


def test_formats_fit_the_variants() -> None:
    """Four-seat partnership games: progressive, pairs, duplicate; two-player: Swiss."""
    assert formats_for(get_variant("british")) == (
        Format.PROGRESSIVE,
        Format.PAIRS,
        Format.DUPLICATE,
    )
    for two in ("tuque", "tuque61", "two_hand"):
        assert formats_for(get_variant(two)) == (Format.SWISS,)
    for other in ("call_ace", "six_hand", "three_hand", "auction"):
        assert formats_for(get_variant(other)) == ()
    with pytest.raises(EventError, match="Swiss"):
        Config("x", "tuque", Format.PROGRESSIVE, rounds=3, seed=1, hands=4)
    with pytest.raises(EventError, match="boards"):
        Config("x", "euchre", Format.DUPLICATE, rounds=3, seed=1, minutes=20)
    with pytest.raises(EventError, match="rounds"):
        Config("x", "euchre", Format.PAIRS, rounds=0, seed=1, hands=4)


def test_an_event_record_rebuilds_it_through_json() -> None:
    """Results, boards, a bye, a member away and one who left all come back as they were;
    anything else is refused."""
    event = new_event(Format.DUPLICATE, members=9, rounds=2, hands=2, fill=Fill.SIT_OUT)
    event = event.start()
    rnd = event.current
    assert rnd is not None and rnd.sitting_out
    event = event.record(1, 1, TableResult.of_boards((1, 0), (0, 4), loners=(1,)))
    away = rnd.seatings[1].seats[0]
    assert away is not None
    event = event.away(away).leave(rnd.seatings[1].seats[1])  # type: ignore[arg-type]
    assert Event.from_record(json.loads(json.dumps(event.to_record()))) == event
    for bad in (None, {"format": "tuque-game"}, {**event.to_record(), "members": [[1]]}):
        with pytest.raises(EventError):
            Event.from_record(bad)
