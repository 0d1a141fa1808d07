"""Event scoring and standings (bot/events/scoring.py, standings.py), computed by hand:
matchpoints, a progressive round with loners and a sit-out, a Swiss table of five with
byes and Buchholz, and a duplicate night of three tables over two rounds."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.events.event import Event
from bot.events.model import (
    Config,
    Entry,
    Fill,
    Format,
    Member,
    Round,
    Seating,
    SitOut,
    TableResult,
)
from bot.events.scoring import (
    board_scores,
    match_points,
    matchpoints,
    progressive_points,
    sit_out_points,
)
from bot.events.standings import ranks, standings

HALF = Fraction(1, 2)


def config(fmt: Format = Format.PROGRESSIVE, **options: object) -> Config:
    variant = "tuque" if fmt is Format.SWISS else "euchre"
    return Config("Night", variant, fmt, rounds=4, seed=1, hands=2, **options)  # type: ignore[arg-type]


def test_matchpoints_one_per_score_beaten_and_a_half_per_tie() -> None:
    """ACBL: +2 beats three scores; the two 0s beat -1 and tie each other."""
    assert matchpoints([2, 0, -1, 0]) == (3, 1 + HALF, 0, 1 + HALF)
    assert matchpoints([4]) == (0,)


def test_a_match_is_won_on_points_unless_a_side_conceded() -> None:
    """More points win, equal points draw; a side that conceded loses anyway (R26)."""
    assert match_points(TableResult((5, 3))) == (1, 0)
    assert match_points(TableResult((4, 4))) == (HALF, HALF)
    assert match_points(TableResult((9, 2), conceded=0)) == (0, 1)


def progressive_round() -> Round:
    """Table 1: 1 and 3 make 7 (1 marched alone twice, 3 once) against 3; table 2: 5 and
    6 make 2 against 7 and a computer's 10; member 8 sits out."""
    return Round(
        1,
        (
            Seating(1, (1, 2, 3, 4), (1, 2, 3, 4), 0),
            Seating(2, (5, None, 6, 7), (5, 0, 6, 7), 0),
        ),
        sitting_out=(8,),
        results=(TableResult((7, 3), loners=(0, 2, 0)), TableResult((2, 10))),
    )


def test_a_progressive_member_scores_the_sides_points_and_the_loner_bonus() -> None:
    """Bonus 1: member 1 makes 7 + 2, member 3 7 + 1; nobody scores the computer's seat."""
    points = progressive_points(progressive_round(), config(loner_bonus=1))
    assert points == {1: 9, 2: 3, 3: 8, 4: 3, 5: 2, 6: 2, 7: 10}


def test_a_sit_out_scores_the_rounds_average_or_the_events_points() -> None:
    """(7 + 3 + 2 + 10) / 4 = 5.5: 6, halves up; or the points the event says; nothing
    until every table is in."""
    rnd = progressive_round()
    assert sit_out_points(rnd, config()) == 6
    assert sit_out_points(rnd, config(sit_out=SitOut.POINTS, sit_out_points=4)) == 4
    unfinished = Round(1, rnd.seatings, (8,), (rnd.results[0], None))
    assert sit_out_points(unfinished, config()) is None


def test_progressive_standings_share_places_and_leave_out_who_left() -> None:
    """2 and 4 tie on 3 and share 6th; 7 left during the round: no points, no place."""
    members = [Member(m) for m in range(1, 8)] + [Member(8)]
    members[6] = Member(7, left=1)
    entries = [Entry(m, (m,)) for m in range(1, 9)]
    lines = standings(config(loner_bonus=1), entries, members, [progressive_round()])
    assert [(s.entry, s.place, s.score) for s in lines] == [
        (1, 1, 9),
        (3, 2, 8),
        (8, 3, 6),
        (2, 4, 3),
        (4, 4, 3),
        (5, 6, 2),
        (6, 6, 2),
        (7, None, 0),
    ]
    assert lines[2].played == 0 and lines[2].rounds == (6,)
    assert lines[-1].left and lines[-1].rounds == (None,)


def swiss_rounds() -> list[Round]:
    """Five one-on-one entries over two rounds (by hand)::

    round 1: 1 beats 2 (5-3); 3 and 4 draw (4-4); 5 has the bye
    round 2: 1 beats 5 (5-2); 2 concedes to 3 although ahead (5-1); 4 has the bye
    """
    return [
        Round(
            1,
            (Seating(1, (1, 2), (1, 2), 0), Seating(2, (3, 4), (3, 4), 0)),
            (5,),
            (TableResult((5, 3)), TableResult((4, 4))),
        ),
        Round(
            2,
            (Seating(1, (5, 1), (5, 1), 0), Seating(2, (2, 3), (2, 3), 0)),
            (4,),
            (TableResult((2, 5)), TableResult((5, 1), conceded=0)),
        ),
    ]


def test_swiss_standings_by_points_then_buchholz_then_points_made() -> None:
    """Scores 1: 2, 3: 1½, 4: 1½ (a bye is a win), 5: 1, 2: 0. Buchholz: 4 has 3's 1½
    and its own 1½ for the bye, 3; 3 has 4's 1½ and 2's 0, 1½: 4 goes first."""
    entries = [Entry(m, (m,)) for m in range(1, 6)]
    members = [Member(m) for m in range(1, 6)]
    lines = standings(config(Format.SWISS), entries, members, swiss_rounds())
    got = [(s.entry, s.place, s.score, s.tiebreaks) for s in lines]
    assert got == [
        (1, 1, 2, (1, 10)),
        (4, 2, 1 + HALF, (3, 4)),
        (3, 3, 1 + HALF, (1 + HALF, 5)),
        (5, 4, 1, (3, 2)),
        (2, 5, 0, (3 + HALF, 8)),
    ]
    assert lines[1].rounds == (HALF, 1) and lines[1].played == 1


def test_ranks_share_a_place_and_skip_the_next() -> None:
    """Standard competition ranking: 1, 2, 2, 4."""
    assert ranks([(Fraction(3),), (Fraction(5),), (Fraction(3),), (Fraction(1),)]) == (2, 1, 2, 4)


# Each table's boards, by round, as (North-South, East-West) points: worked by hand below.
BOARDS = {
    1: [((1, 0), (0, 2)), ((2, 0), (0, 1)), ((0, 2), (0, 2))],
    2: [((4, 0), (1, 0)), ((0, 2), (1, 0)), ((4, 0), (0, 2))],
}
# Each side's matchpoints by (round, table, side). Round 1, board 1: North-South nets
# +1, +2, -2 give 1, 2, 0 (East-West the rest of 2: 1, 0, 2); board 2: nets -2, -1, -2
# give ½, 2, ½ (East-West 1½, 0, 1½). Round 2, board 1: +4, -2, +4 give 1½, 0, 1½
# (East-West ½, 2, ½); board 2: +1, +1, -2 give 1½, 1½, 0 (East-West ½, ½, 2).
MATCHPOINTS = {
    (1, 1, 0): 1 + HALF,
    (1, 2, 0): Fraction(4),
    (1, 3, 0): HALF,
    (1, 1, 1): 2 + HALF,
    (1, 2, 1): Fraction(0),
    (1, 3, 1): 3 + HALF,
    (2, 1, 0): Fraction(3),
    (2, 2, 0): 1 + HALF,
    (2, 3, 0): 1 + HALF,
    (2, 1, 1): Fraction(1),
    (2, 2, 1): 2 + HALF,
    (2, 3, 1): 2 + HALF,
}


def test_a_duplicate_night_of_three_tables_over_two_rounds() -> None:
    """Twelve members, six pairs, two boards a round: every table of a round deals the
    same boards, and each pair's matchpoints and percentage (of 4 boards, top 2 each)
    are the hand-worked ones above."""
    event = Event(1, Config("Dup", "euchre", Format.DUPLICATE, rounds=2, seed=4, hands=2))
    for m in range(101, 113):
        event = event.join(m)
    event = event.start()
    expected: dict[int, Fraction] = {}
    points: dict[int, int] = {}
    for round_no in (1, 2):
        rnd = event.current
        assert rnd is not None and len(rnd.seatings) == 3 and rnd.sitting_out == ()
        assert len({s.seed for s in rnd.seatings}) == 1  # the same boards at every table
        for seating, boards in zip(rnd.seatings, BOARDS[round_no], strict=True):
            event = event.record(round_no, seating.table, TableResult.of_boards(*boards))
            for side in (0, 1):
                entry = seating.entries[side]
                expected[entry] = (
                    expected.get(entry, Fraction(0)) + MATCHPOINTS[(round_no, seating.table, side)]
                )
                points[entry] = points.get(entry, 0) + sum(b[side] for b in boards)
        event = event.end_round()
        if round_no == 1:
            event = event.next_round()
    assert event.rounds[0].seatings[0].seed != event.rounds[1].seatings[0].seed
    lines = event.standings()
    assert {s.entry: s.tiebreaks for s in lines} == {e: (mp,) for e, mp in expected.items()}
    assert {s.entry: s.score for s in lines} == {e: mp / 8 for e, mp in expected.items()}
    assert {s.entry: s.points for s in lines} == points
    assert [s.score for s in lines] == sorted((s.score for s in lines), reverse=True)
    scores = board_scores(event.rounds[0])
    assert [(b.board, b.side, b.table, b.net, b.matchpoints, b.top) for b in scores[:3]] == [
        (1, 0, 1, 1, 1, 2),
        (1, 0, 2, 2, 2, 2),
        (1, 0, 3, -2, 0, 2),
    ]


def test_a_board_is_compared_among_the_tables_that_played_it() -> None:
    """Table 2 ran out of time after board 1: board 2 is compared between tables 1 and 3
    (top 1), and a table alone on a board has a top of 0."""
    seatings = tuple(Seating(t, (1, 2, 3, 4), (2 * t - 1, 2 * t) * 2, 0) for t in (1, 2, 3))
    results = (
        TableResult.of_boards((1, 0), (2, 0)),
        TableResult.of_boards((0, 1)),
        TableResult.of_boards((1, 0), (0, 1)),
    )
    scores = board_scores(Round(1, seatings, (), results))
    board2 = [(b.table, b.side, b.matchpoints, b.top) for b in scores if b.board == 2]
    assert board2 == [(1, 0, 1, 1), (3, 0, 0, 1), (1, 1, 0, 1), (3, 1, 1, 1)]


@settings(max_examples=30, deadline=None)
@given(
    results=st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), min_size=4, max_size=4),
    fmt=st.sampled_from([Format.PROGRESSIVE, Format.SWISS]),
)
def test_standings_are_sorted_and_places_follow_the_keys(
    results: list[tuple[int, int]], fmt: Format
) -> None:
    """Whatever the results: placed lines best first, each place one more than the
    lines strictly ahead."""
    seats = 2 if fmt is Format.SWISS else 4
    per = len(results) * seats
    seatings = tuple(
        Seating(
            t + 1,
            tuple(range(t * seats + 1, (t + 1) * seats + 1)),
            tuple(range(t * seats + 1, (t + 1) * seats + 1)),
            0,
        )
        for t in range(len(results))
    )
    rnd = Round(1, seatings, (), tuple(TableResult(r) for r in results))
    entries = [Entry(m, (m,)) for m in range(1, per + 1)]
    lines = standings(config(fmt), entries, [Member(m) for m in range(1, per + 1)], [rnd])
    keys = [s.key for s in lines]
    assert keys == sorted(keys, reverse=True)
    assert all(s.place == 1 + sum(k > s.key for k in keys) for s in lines)


@pytest.mark.parametrize("fill", list(Fill))
def test_a_pairs_line_is_placed_while_one_partner_is_in(fill: Fill) -> None:
    """A pair whose member left keeps its place through the partner still in; a pair
    whose members all left is listed last, unplaced."""
    rnd = Round(
        1,
        (Seating(1, (1, 3, 2, 4), (1, 2, 1, 2), 0),),
        (),
        (TableResult((6, 2)),),
    )
    members = [Member(1, left=2), Member(2), Member(3, left=2), Member(4, left=2)]
    lines = standings(
        config(Format.PAIRS, fill=fill), [Entry(1, (1, 2)), Entry(2, (3, 4))], members, [rnd]
    )
    assert [(s.entry, s.place, s.left) for s in lines] == [(1, 1, False), (2, None, True)]
