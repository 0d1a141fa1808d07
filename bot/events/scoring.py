"""What each table's result is worth: a progressive member's points for a round, a
match's outcome in a Swiss event, a duplicate side's matchpoints on each board.

Pure functions of an event's rounds (:mod:`bot.events.model`); the standings add them
up (:mod:`bot.events.standings`). Sources and rulings: ``docs/events.md``,
``docs/rulings.md`` R31-R36.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.events.model import Config, Round, SitOut, TableResult

__all__ = [
    "BYE",
    "DRAW",
    "LOSS",
    "WIN",
    "BoardScore",
    "board_scores",
    "match_points",
    "matchpoints",
    "progressive_points",
    "sit_out_points",
]

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)
"""A Swiss match's points: 1 a win, ½ a draw, 0 a loss (FIDE C.04.1)."""
BYE = WIN
"""A bye scores a win (FIDE C.04.1 c: "as many points as are rewarded for a win")."""


def match_points(result: TableResult) -> tuple[Fraction, Fraction]:
    """A Swiss match's points by side: the side that conceded loses (R26, R9); else the
    side with more points wins, equal points a draw (a game played to its target never
    ends level: a round cut short by time may)."""
    if result.conceded is not None:
        return (LOSS, WIN) if result.conceded == 0 else (WIN, LOSS)
    first, second = result.points
    if first == second:
        return DRAW, DRAW
    return (WIN, LOSS) if first > second else (LOSS, WIN)


def matchpoints(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """Each of ``scores`` (one board's results of the sides that held the same cards)
    in matchpoints: 1 for each other score it beats and ½ for each it ties (ACBL's
    rule; "top" is one less than the scores compared)."""
    points = []
    for n, score in enumerate(scores):
        others = [o for i, o in enumerate(scores) if i != n]
        points.append(sum(score > o for o in others) + DRAW * sum(score == o for o in others))
    return tuple(points)


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One side's result on one duplicate board.

    Attributes:
        board: the board (hand) number, from 1.
        table: the table it was played at.
        side: 0 (North-South: seats 0 and 2) or 1 (East-West).
        entry: the pair that held that side's cards.
        net: the side's points less the other side's on the board.
        matchpoints: against every other side that held the same cards.
        top: the most it could have had: the other sides that held those cards.
    """

    board: int
    table: int
    side: int
    entry: int
    net: int
    matchpoints: Fraction
    top: int


def board_scores(rnd: Round) -> tuple[BoardScore, ...]:
    """Every side's matchpoints on every board of a duplicate round, from the tables'
    results recorded so far. A board is compared among the tables that played it (one
    cut short by time played its first boards only); each direction holds its own
    cards, so North-South sides are compared with North-South sides, East-West with
    East-West. Ordered by board, side, table."""
    boards = max((len(r.boards) for r in rnd.results if r is not None), default=0)
    scores = []
    for board in range(boards):
        played = [
            (s, r)
            for s, r in zip(rnd.seatings, rnd.results, strict=True)
            if r is not None and len(r.boards) > board
        ]
        for side in (0, 1):
            nets = [r.boards[board][side] - r.boards[board][1 - side] for _, r in played]
            for (s, _), net, mp in zip(played, nets, matchpoints(nets), strict=True):
                scores.append(
                    BoardScore(board + 1, s.table, side, s.entries[side], net, mp, len(nets) - 1)
                )
    return tuple(scores)


def progressive_points(rnd: Round, config: Config) -> dict[int, int]:
    """Each seated member's points for a progressive round, from the tables recorded so
    far: the points their side made, plus ``loner_bonus`` for each of their goings
    alone that marched. A computer's seat scores for nobody; an away member's counts
    for them as their side's (R9)."""
    points: dict[int, int] = {}
    for seating, result in zip(rnd.seatings, rnd.results, strict=True):
        if result is None:
            continue
        for seat, member in enumerate(seating.seats):
            if member is not None:
                bonus = config.loner_bonus * result.loners.count(seat)
                points[member] = result.points[seat % 2] + bonus
    return points


def sit_out_points(rnd: Round, config: Config) -> int | None:
    """What a member who sat out the progressive round ``rnd`` scores for it: the
    event's fixed points, or the average of the points every side made in the round,
    to the nearest point, halves up; None until every table's result is in."""
    if not rnd.over:
        return None
    if config.sit_out is SitOut.POINTS:
        return config.sit_out_points
    sides = [p for r in rnd.results if r is not None for p in r.points]
    return math.floor(Fraction(sum(sides), len(sides)) + DRAW) if sides else 0
