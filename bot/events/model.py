"""An event's data: its format and options, who entered, each round's tables and results.

Values only (frozen dataclasses of whole numbers and text), so the store keeps them as
they are and the other modules of :mod:`bot.events` compute everything else from them:
the movement (:mod:`bot.events.movement`), the scores (:mod:`bot.events.scoring`) and
the standings (:mod:`bot.events.standings`). ``docs/events.md`` explains the formats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.game import SEED_LIMIT
from engine.variants import MAX_TARGET, Variant, get_variant

__all__ = [
    "COMPUTERS",
    "MAX_HANDS",
    "MAX_MINUTES",
    "MAX_ROUNDS",
    "Config",
    "Entry",
    "EventError",
    "Fill",
    "Format",
    "Member",
    "Round",
    "Seating",
    "SitOut",
    "TableResult",
    "formats_for",
]

MAX_ROUNDS = 20
"""Rounds an event may have: an evening's worth and more."""
MAX_HANDS = 24
"""Hands a round may last. A duplicate round's boards are the hands of one game to
``MAX_TARGET`` (100) at each table: 24 boards of at most 4 points can't reach it."""
MAX_MINUTES = 180
"""Minutes a round may last."""
COMPUTERS = 0
"""The entry number of the computers that fill a table or face the odd entry: never a
stored entry, never placed."""

assert MAX_HANDS * 4 < MAX_TARGET


class EventError(ValueError):
    """A request the event refuses; its message is safe to show the member."""


class Format(StrEnum):
    """How an event seats its members and scores them (``docs/events.md``)."""

    PROGRESSIVE = "progressive"
    """Individual: four-seat partnership games, new partners and opponents every round,
    each member scores the points their side made."""
    PAIRS = "pairs"
    """Fixed partnerships of a four-seat game, paired on the standings (Swiss), or a
    round robin when every pair can meet every other."""
    DUPLICATE = "duplicate"
    """Fixed partnerships; every table of a round plays the same boards, and a pair is
    scored in matchpoints against the pairs that held the same cards."""
    SWISS = "swiss"
    """One-on-one matches of a two-player game, paired on the standings."""

    @property
    def label(self) -> str:
        """The format's name for members."""
        return _LABELS[self]

    @property
    def seats(self) -> int:
        """Seats at each table."""
        return 2 if self is Format.SWISS else 4

    @property
    def pairs(self) -> bool:
        """Whether an entry is a fixed partnership of two (else one member)."""
        return self in (Format.PAIRS, Format.DUPLICATE)

    @property
    def minimum(self) -> int:
        """Members an event needs to start: a table for progressive; two entries for
        pairs and one-on-one; two tables for duplicate, or no pair is compared with
        another (seven members: three pairs and one with a computer partner)."""
        return _MINIMUM[self]


_LABELS = {
    Format.PROGRESSIVE: "Progressive",
    Format.PAIRS: "Pairs",
    Format.DUPLICATE: "Duplicate",
    Format.SWISS: "Swiss (one-on-one)",
}
_MINIMUM = {Format.PROGRESSIVE: 4, Format.PAIRS: 3, Format.DUPLICATE: 7, Format.SWISS: 2}


def formats_for(variant: Variant) -> tuple[Format, ...]:
    """The formats that fit ``variant``: the four-seat partnership games (RULES.md §3,
    §4: two sides of two, partners opposite) run progressive, pairs and duplicate; the
    two-player games (§1, §2, §5 two-hand) run Swiss; the others none (each plays for
    themself, or three a side)."""
    if variant.players == 4 and variant.sides == (0, 1, 0, 1):
        return (Format.PROGRESSIVE, Format.PAIRS, Format.DUPLICATE)
    if variant.players == 2:
        return (Format.SWISS,)
    return ()


class Fill(StrEnum):
    """What an event does with a count of members that does not fill its tables."""

    COMPUTERS = "computers"
    """Computers take the empty seats (progressive), partner the odd member (pairs) or
    make the odd entry's opponent; they never win a place."""
    SIT_OUT = "sit out"
    """Members (progressive) or entries sit out in turn; in Swiss formats a bye."""


class SitOut(StrEnum):
    """What a progressive member who sits out a round scores for it."""

    AVERAGE = "average"
    """The average of the points every side made in the round, to the nearest point
    (halves up)."""
    POINTS = "points"
    """The event's ``sit_out_points``."""


@dataclass(frozen=True, slots=True)
class Config:
    """What the host chose for an event.

    Attributes:
        name: the event's name.
        variant: the game's variant name (``engine.variants.VARIANTS``).
        format: how members are seated and scored; must fit the variant
            (:func:`formats_for`).
        rounds: how many rounds, 1 to ``MAX_ROUNDS``.
        seed: the event's seed, 0 to ``SEED_LIMIT - 1``: the lot, every seating's
            tie-breaks and every table's deals follow from it.
        hands: a round's length in hands (duplicate: its boards, required), 1 to
            ``MAX_HANDS``; None: by ``minutes`` only.
        minutes: a round's length in minutes, after which the hand in play is
            finished, 1 to ``MAX_MINUTES``; None: by ``hands`` only.
        fill: computers or sit-outs for a count that does not fill the tables.
        loner_bonus: progressive: points a member adds for each going alone of theirs
            that marched (0: none).
        sit_out: progressive: what a member who sits out scores for the round.
        sit_out_points: the points for ``SitOut.POINTS``.

    Raises:
        EventError: a value out of range, no round length, or a format that does not
            fit the variant (the message says which).
    """

    name: str
    variant: str
    format: Format
    rounds: int
    seed: int
    hands: int | None = None
    minutes: int | None = None
    fill: Fill = Fill.COMPUTERS
    loner_bonus: int = 0
    sit_out: SitOut = SitOut.AVERAGE
    sit_out_points: int = 0

    def __post_init__(self) -> None:
        try:
            variant = get_variant(self.variant)
        except ValueError as error:
            raise EventError(str(error)) from None
        if self.format not in formats_for(variant):
            fits = ", ".join(f.label for f in formats_for(variant)) or "no event format"
            raise EventError(f"{variant.title} is played in: {fits}.")
        _check_range("rounds", self.rounds, 1, MAX_ROUNDS)
        _check_range("seed", self.seed, 0, SEED_LIMIT - 1)
        if self.hands is None and self.minutes is None:
            raise EventError("A round needs a length: a number of hands or of minutes.")
        if self.hands is not None:
            _check_range("hands", self.hands, 1, MAX_HANDS)
        if self.minutes is not None:
            _check_range("minutes", self.minutes, 1, MAX_MINUTES)
        if self.format is Format.DUPLICATE and self.hands is None:
            raise EventError("A duplicate round needs its number of boards (hands).")
        _check_range("loner bonus", self.loner_bonus, 0, 10)
        _check_range("sit-out points", self.sit_out_points, 0, MAX_TARGET)


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EventError(f"The {name} must be a whole number from {low} to {high}.")


@dataclass(frozen=True, slots=True)
class Member:
    """A member who signed up.

    Attributes:
        id: their Discord user id.
        joined: the first round they play (1: signed up before the start; a late
            sign-up joins at the round after the one in play).
        left: the first round that no longer counts for them (they left during it, or
            before it); None while they are in.
    """

    id: int
    joined: int = 1
    left: int | None = None

    def plays(self, round_no: int) -> bool:
        """Whether round ``round_no`` is one of theirs: joined and not left."""
        return self.joined <= round_no and (self.left is None or round_no < self.left)


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the standings: a member, or a fixed partnership.

    Attributes:
        number: from 1, in the order entered (``COMPUTERS``, 0, is never an entry).
        members: ``(member,)``, or a pair ``(a, b)`` whose ``b`` is None for a computer
            partner (an odd count).
        first: the first round it plays.
    """

    number: int
    members: tuple[int | None, ...]
    first: int = 1


@dataclass(frozen=True, slots=True)
class Seating:
    """One table of one round.

    Attributes:
        table: its number, from 1.
        seats: who plays each seat, by seat number as the engine numbers them: a
            member's user id, or None for a computer. Sides alternate (seats 0 and 2
            are side 0, "North-South" in duplicate; 1 and 3 side 1).
        entries: the entry each seat plays for, by seat (``COMPUTERS`` for a computer
            that fills in).
        seed: the game's seed. In duplicate every table of the round has the same:
            its boards are the hands of that game, dealt alike at every table (R4).
    """

    table: int
    seats: tuple[int | None, ...]
    entries: tuple[int, ...]
    seed: int

    def side(self, side: int) -> tuple[int | None, ...]:
        """The members (None: a computer) of ``side``, by seat."""
        return self.seats[side::2]

    def side_of(self, member: int) -> int | None:
        """The side ``member`` plays on here, or None if not at this table."""
        return next((n % 2 for n, m in enumerate(self.seats) if m == member), None)


@dataclass(frozen=True, slots=True)
class TableResult:
    """What a table made in a round.

    Attributes:
        points: each side's points at the round's end, by side (the game's scores).
        loners: the seat of each going alone that marched, once per march (the
            progressive loner bonus).
        boards: duplicate: each board played, in board order, as its points by side
            (a table that ran out of time played the first ones only). ``points`` must
            be their sums.
        conceded: the side that resigned or forfeited (R26, R9): it loses the match
            whatever the points. None: the points decide.

    Raises:
        ValueError: not two sides, a seat out of range, or boards that do not add up.
    """

    points: tuple[int, int]
    loners: tuple[int, ...] = ()
    boards: tuple[tuple[int, int], ...] = ()
    conceded: int | None = None

    def __post_init__(self) -> None:
        if len(self.points) != 2 or any(len(b) != 2 for b in self.boards):
            raise ValueError("a table's result gives the points of two sides")
        if any(not 0 <= seat < 4 for seat in self.loners):
            raise ValueError("a loner's seat is from 0 to 3")
        if self.boards and tuple(map(sum, zip(*self.boards, strict=True))) != self.points:
            raise ValueError("a table's points are the sums of its boards")
        if self.conceded not in (None, 0, 1):
            raise ValueError("the side that conceded is 0 or 1")

    @classmethod
    def of_boards(cls, *boards: tuple[int, int], loners: tuple[int, ...] = ()) -> TableResult:
        """A duplicate table's result from its boards' points, by side, in order."""
        points = (sum(b[0] for b in boards), sum(b[1] for b in boards))
        return cls(points, loners, tuple(boards))


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its tables and, as they come in, their results.

    Attributes:
        number: from 1.
        seatings: its tables, by table number.
        sitting_out: the entries that sit out (a progressive sit-out; a bye).
        results: each table's result, by table (None until it is recorded).
        away: members a computer plays for now, under the away rule (R9): no-shows
            until they come.
    """

    number: int
    seatings: tuple[Seating, ...]
    sitting_out: tuple[int, ...] = ()
    results: tuple[TableResult | None, ...] = field(default=())
    away: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if not self.results:
            object.__setattr__(self, "results", (None,) * len(self.seatings))

    @property
    def over(self) -> bool:
        """Whether every table's result is in."""
        return all(r is not None for r in self.results)

    def seating_of(self, member: int) -> Seating | None:
        """The table ``member`` sits at this round, or None."""
        return next((s for s in self.seatings if member in s.seats), None)
