"""The standings of an event: each entry's score, tie-breaks and place, from its rounds.

One function, :func:`standings`, for every format (``docs/events.md``):

* progressive: the points each member made (their sides' points, the loner bonus, what
  a sit-out scores); equal points share a place;
* pairs and Swiss: match points (1 a win, ½ a draw, a bye 1), then Buchholz (the sum of
  the opponents' match points, a bye counting as an opponent with one's own score, as
  FIDE's tie-break regulations count an unplayed round), then the points made;
* duplicate: the percentage of the matchpoints a pair could have had on the boards it
  played (a sit-out neither helps nor hurts), then the matchpoints.

Places go to entries with a member still in: a computer never wins a place, nor does a
member who left (R35); they are listed after the others. Ties share a place and the
next is skipped (1, 2, 2, 4), as :func:`bot.table.places` ranks a game's sides.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.events.model import Config, Entry, Format, Member, Round
from bot.events.scoring import BYE, board_scores, match_points, progressive_points, sit_out_points

__all__ = ["Standing", "ranks", "standings"]


@dataclass(frozen=True, slots=True)
class Standing:
    """One entry's line.

    Attributes:
        entry: the entry's number.
        members: its members (None: a computer partner).
        place: from 1, ties sharing one; None: not placed (every member left).
        score: what ranks it: progressive points; Swiss match points; duplicate, the
            fraction of the matchpoints it could have had (0 to 1; shown as a percent).
        tiebreaks: what ranks equal scores, in order: Swiss ``(Buchholz, points made)``;
            duplicate ``(matchpoints,)``; progressive none.
        points: the points its sides made at the table (progressive: the round scores,
            loner bonus and sit-outs included).
        played: the rounds it played whose table's result is in.
        rounds: what it scored each round, by round (progressive points, match points,
            or matchpoints); None for a round it was not in, or not yet scored.
        left: every member of it left the event.
        away: a computer plays for one of its members in the round in play (R9): a
            round whose tables are all in is over, and nobody is away any more.
    """

    entry: int
    members: tuple[int | None, ...]
    place: int | None
    score: Fraction
    tiebreaks: tuple[Fraction, ...]
    points: int
    played: int
    rounds: tuple[Fraction | None, ...]
    left: bool = False
    away: bool = False

    @property
    def key(self) -> tuple[Fraction, ...]:
        """What ranks it, best highest: the score, then the tie-breaks."""
        return (self.score, *self.tiebreaks)


def ranks(keys: Sequence[tuple[Fraction, ...]]) -> tuple[int, ...]:
    """Each key's place, the highest first, equal keys sharing the place and the next
    ones skipped (standard competition ranking: 1, 2, 2, 4)."""
    first: dict[tuple[Fraction, ...], int] = {}
    for place, key in enumerate(sorted(keys, reverse=True), 1):
        first.setdefault(key, place)
    return tuple(first[key] for key in keys)


@dataclass
class _Tally:
    rounds: dict[int, Fraction]
    points: int = 0
    played: int = 0
    top: int = 0  # duplicate: the matchpoints it could have had


def standings(
    config: Config,
    entries: Sequence[Entry],
    members: Sequence[Member],
    rounds: Sequence[Round],
) -> tuple[Standing, ...]:
    """The standings after ``rounds`` (the last may be in play: the tables recorded so
    far count), placed entries first by place, then the unplaced; equal lines by entry
    number. Every entry has a line (the computers' entry none)."""
    tally: defaultdict[int, _Tally] = defaultdict(lambda: _Tally({}))
    if config.format is Format.PROGRESSIVE:
        _progressive(config, entries, members, rounds, tally)
    elif config.format is Format.DUPLICATE:
        _duplicate(rounds, tally)
    else:
        _swiss(rounds, tally)
    score = {e: sum(t.rounds.values(), Fraction(0)) for e, t in tally.items()}
    gone = {m.id for m in members if m.left is not None}
    away = rounds[-1].away if rounds and not rounds[-1].over else frozenset()
    lines = []
    for entry in entries:
        t = tally[entry.number]
        tiebreaks: tuple[Fraction, ...] = ()
        line_score = score.get(entry.number, Fraction(0))
        if config.format.pairs or config.format is Format.SWISS:
            if config.format is Format.DUPLICATE:
                mp = line_score
                line_score = mp / t.top if t.top else Fraction(0)
                tiebreaks = (mp,)
            else:
                tiebreaks = (_buchholz(entry.number, rounds, score), Fraction(t.points))
        lines.append(
            Standing(
                entry=entry.number,
                members=entry.members,
                place=None,
                score=line_score,
                tiebreaks=tiebreaks,
                points=t.points,
                played=t.played,
                rounds=tuple(t.rounds.get(r.number) for r in rounds),
                left=all(m is None or m in gone for m in entry.members),
                away=any(m in away for m in entry.members if m is not None),
            )
        )
    placed = [s for s in lines if not s.left]
    places = dict(zip((s.entry for s in placed), ranks([s.key for s in placed]), strict=True))
    lines = [dataclasses.replace(s, place=places.get(s.entry)) for s in lines]
    return tuple(sorted(lines, key=lambda s: (s.left, *(-k for k in s.key), s.entry)))


def _progressive(
    config: Config,
    entries: Sequence[Entry],
    members: Sequence[Member],
    rounds: Sequence[Round],
    tally: defaultdict[int, _Tally],
) -> None:
    """A member's round: their table's points (and bonus), or what a sit-out scores; a
    round that no longer counts for them (they left during it) is left out."""
    entry_of = {e.members[0]: e.number for e in entries}
    member_of = {m.id: m for m in members}
    for rnd in rounds:
        for member, points in progressive_points(rnd, config).items():
            if member_of[member].plays(rnd.number):
                t = tally[entry_of[member]]
                t.rounds[rnd.number] = Fraction(points)
                t.points += points
                t.played += 1
        sat_out = sit_out_points(rnd, config)
        if sat_out is None:
            continue
        for number in rnd.sitting_out:
            sitter = next(e for e in entries if e.number == number).members[0]
            if sitter is not None and member_of[sitter].plays(rnd.number):
                tally[number].rounds[rnd.number] = Fraction(sat_out)
                tally[number].points += sat_out


def _swiss(rounds: Sequence[Round], tally: defaultdict[int, _Tally]) -> None:
    """An entry's match points each round (a bye a win), its points made, its matches."""
    for rnd in rounds:
        for seating, result in zip(rnd.seatings, rnd.results, strict=True):
            if result is None:
                continue
            for side, points in enumerate(match_points(result)):
                t = tally[seating.entries[side]]
                t.rounds[rnd.number] = points
                t.points += result.points[side]
                t.played += 1
        for number in rnd.sitting_out:
            tally[number].rounds[rnd.number] = BYE


def _buchholz(entry: int, rounds: Sequence[Round], score: dict[int, Fraction]) -> Fraction:
    """The sum of the scores of the entry's opponents in the matches recorded; each bye
    counts as an opponent with the entry's own score (FIDE's tie-break regulations,
    2023: an unplayed round is a game against oneself)."""
    total = Fraction(0)
    for rnd in rounds:
        if entry in rnd.sitting_out:
            total += score.get(entry, Fraction(0))
        for seating, result in zip(rnd.seatings, rnd.results, strict=True):
            if result is not None and entry in seating.entries[:2]:
                other = seating.entries[1 - seating.entries.index(entry)]
                total += score.get(other, Fraction(0))
    return total


def _duplicate(rounds: Sequence[Round], tally: defaultdict[int, _Tally]) -> None:
    """A pair's matchpoints each round, its points made on the boards, its rounds."""
    for rnd in rounds:
        for board in board_scores(rnd):
            t = tally[board.entry]
            t.rounds[rnd.number] = t.rounds.get(rnd.number, Fraction(0)) + board.matchpoints
            t.top += board.top
        for seating, result in zip(rnd.seatings, rnd.results, strict=True):
            if result is None:
                continue
            for side in (0, 1):
                t = tally[seating.entries[side]]
                t.points += result.points[side]
                t.played += 1
