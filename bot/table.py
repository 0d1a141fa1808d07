"""A table: one game, who plays each seat, and every rule of the table.

The engine knows the game's rules; this module knows the table's: who is a member and
who a computer, who is away (docs/rulings.md R9) or resigned (R26), whose move the bot
plays, who plays on when a member leaves, and who wins, in which place, and on which
rating team when the game ends. It is pure and synchronous (no Discord, no asyncio, no
SQL) so every screen reads the same rules and every rule has a unit test
(``tests/bot/test_table.py``).

A :class:`Table` is a value. Each event at the table (a move, a member away, back or
resigned) is asked of it and answered by one frozen :class:`Change`, which holds the
table after the event and what every screen needs to show it. The caller stores the
change and only then takes ``change.after``: a refused event raises and changes nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.actions import Action
from engine.game import Game
from engine.view import HandResult, Phase

__all__ = [
    "DEFAULT_AUTOPLAY",
    "Autoplay",
    "Change",
    "Ending",
    "NotTheBotsMove",
    "Note",
    "NoteKind",
    "Result",
    "Seat",
    "StaleTurn",
    "Table",
    "TableClosed",
    "TableError",
    "places",
    "standings",
]


class Autoplay(StrEnum):
    """When a member's forced move (exactly one legal action) is played for them."""

    OFF = "off"
    """Never: the member always clicks."""
    LAST = "last"
    """The last trick only (every card is forced then); the default."""
    FORCED = "forced"
    """Every forced move: a lone legal card, or a decision with only one choice."""


DEFAULT_AUTOPLAY = Autoplay.LAST


class Ending(StrEnum):
    """How a game ended with a result (the store's status of the same name)."""

    FINISHED = "finished"
    """Played to its end: the engine's winner (R26: unless that side is out)."""
    RESIGNED = "resigned"
    """A member resigned and their side lost (R26)."""
    FORFEITED = "forfeited"
    """An away member did not come back by the hand's end and their side lost (R9)."""


class NoteKind(StrEnum):
    """What happened at the table beside the game's own log."""

    PLAYED_FOR = "played for"
    """The member's forced move was played for them (their auto-play choice)."""
    AWAY = "away"
    """The member on turn let the turn timer run out: the computer plays their cards."""
    BACK = "back"
    """An away member came back and plays their own cards again."""
    RESIGNED = "resigned"
    """A member resigned and a computer plays their seat to the end (R26)."""


@dataclass(frozen=True, slots=True)
class Note:
    """One thing to tell the table about ``seat``. ``action``: the move played for them
    (``PLAYED_FOR``); ``goes_on``: for ``AWAY``, whether the game goes on with the
    computer in their seat if they are not back by the hand's end (R9)."""

    kind: NoteKind
    seat: int
    action: Action | None = None
    goes_on: bool = False


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat at a table.

    Attributes:
        number: the seat, numbered clockwise from 0 as the engine numbers them.
        side: its scoring side (``Variant.sides[number]``).
        member: the Discord user id of the member who sat there (None: a computer's seat).
        level: a computer seat's level (``"easy"``...); None for a member's.
        resigned: the member resigned: a computer plays the seat to the end (R26).
    """

    number: int
    side: int
    member: int | None = None
    level: str | None = None
    resigned: bool = False

    @property
    def playing(self) -> bool:
        """A member who still plays the seat: seated and not resigned."""
        return self.member is not None and not self.resigned


@dataclass(frozen=True, slots=True)
class Result:
    """A game's end with a winner, and what it counts for each seat (R26).

    Attributes:
        ending: how it ended.
        winner: the winning side.
        by: the member's seat whose resignation or absence ended it, if so.
        scores: each seat's final score (its side's), by seat.
        places: each seat's place, by seat: 1 for the winning side alone (even on fewer
            points), the other sides from 2 by score with ties sharing a place (1, 2,
            2, 4), then the sides whose members all resigned, and last every member
            who resigned.
        won: each seat's outcome, by seat: a win for the winning side's seats, except
            a member who resigned, who loses whatever the end.
        rated: every seat is a member's: the result changes ratings.
        teams: the rating teams (members' user ids), best place first: each side with
            the members who played it to the end, then each member who resigned alone;
            empty when unrated.
        ranks: each team's place, as ``teams``.
    """

    ending: Ending
    winner: int
    by: int | None
    scores: tuple[int, ...]
    places: tuple[int, ...]
    won: tuple[bool, ...]
    rated: bool
    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]

    @property
    def winner_seat(self) -> int:
        """A seat of the winning side (side ``k`` always holds seat ``k``)."""
        return self.winner


def places(scores: Sequence[int], winner: int, out: Collection[int] = ()) -> tuple[int, ...]:
    """Each side's place, by side: ``winner`` 1, the others not in ``out`` from 2 by
    score, highest first, tied sides sharing a place and the next skipped (1, 2, 2, 4);
    the sides in ``out`` (their members all resigned) share the place after those.
    Raises ``ValueError`` if ``winner`` is out (R26: such a side cannot win)."""
    if winner in out:
        raise ValueError(f"side {winner}'s members all resigned: it cannot win")
    others = [side for side in range(len(scores)) if side != winner and side not in out]
    ranked = {winner: 1} | {
        side: 2 + sum(scores[o] > scores[side] for o in others) for side in others
    }
    last = len(ranked) + 1
    return tuple(ranked.get(side, last) for side in range(len(scores)))


def standings(
    seats: Sequence[Seat],
    scores: Sequence[int],
    ending: Ending,
    winner: int,
    by: int | None = None,
    *,
    ranked: bool = True,
) -> Result:
    """The result of a game that ends with ``winner`` (a side), its sides' final
    ``scores`` (by side): each seat's score, place and outcome, and the rating teams
    (docs/rulings.md R26; the fields are :class:`Result`'s). ``ranked``: whether a
    game of members only is rated (not outside a server).

    Raises:
        ValueError: ``winner`` is a side whose members all resigned.
    """
    out = _sides_out(seats)
    side_place = places(scores, winner, out)
    last = len(scores) - len(out) + 1  # after every side still in the game
    rated = ranked and all(s.member is not None for s in seats)
    teams: list[tuple[int, ...]] = []
    ranks: list[int] = []
    if rated:
        # Each side rated with the members who played it to the end; each member who
        # resigned as a team of one in the last place.
        for side in sorted(set(range(len(scores))) - out, key=lambda k: (side_place[k], k)):
            team = tuple(s.member for s in seats if s.side == side and s.member and s.playing)
            if team:
                teams.append(team)
                ranks.append(side_place[side])
        for s in seats:
            if s.resigned and s.member is not None:
                teams.append((s.member,))
                ranks.append(last)
    return Result(
        ending=ending,
        winner=winner,
        by=by,
        scores=tuple(scores[s.side] for s in seats),
        places=tuple(last if s.resigned else side_place[s.side] for s in seats),
        won=tuple(s.side == winner and not s.resigned for s in seats),
        rated=rated,
        teams=tuple(teams),
        ranks=tuple(ranks),
    )


def _sides_out(seats: Sequence[Seat]) -> frozenset[int]:
    """The sides whose members all resigned (R26). A side of computers only is never out."""
    members = [s for s in seats if s.member is not None]
    return frozenset(s.side for s in members) - {s.side for s in members if s.playing}


class TableError(ValueError):
    """An event the table refuses; its message is safe to show the player."""


class TableClosed(TableError):
    """The game is over: nothing more happens at its table."""


class StaleTurn(TableError):
    """The event was for an earlier turn (a stale or double click)."""


class NotTheBotsMove(TableError):
    """The bot was to move for a seat it no longer plays: its member came back, or
    changed their auto-play choice meanwhile."""


@dataclass(frozen=True, slots=True)
class Change:
    """One event at a table, as every screen and the store need it.

    Attributes:
        before: the table before the event.
        after: the table after it: the caller takes it once the change is stored.
        actor: the seat whose own click made the change (its screen answers the click
            itself), None for a move the bot played or an event of the clock.
        entries: the new log entries, in order, from seq ``len(before.game.log)``; a
            finished hand's next deal included.
        hands: the hands the entries finished.
        new_turn: the turn passed to another seat or a hand ended (the turn timer
            starts again).
        resigned: a member's seat resigned in this change (the game goes on).
        result: the game's end, if it ended.
        views: the members' seats whose hand view changed in what it offers: their
            turn came or went, a new hand was dealt, or the game ended (the actor's
            own screen aside).
        notes: what to tell the table beside the log.
    """

    before: Table
    after: Table
    actor: int | None = None
    entries: tuple[str, ...] = ()
    hands: tuple[HandResult, ...] = ()
    new_turn: bool = False
    resigned: int | None = None
    result: Result | None = None
    views: frozenset[int] = frozenset()
    notes: tuple[Note, ...] = ()

    @property
    def first_seq(self) -> int:
        """The seq of the first new log entry."""
        return self.before.game.log_length


@dataclass(frozen=True, slots=True)
class Table:
    """A game and its seats. A value: every event returns a :class:`Change` whose
    ``after`` is the new table, and the game held here is never changed in place.

    Attributes:
        id: the game's id.
        game: the engine game (read only: events apply to a copy).
        seats: every seat, by number.
        away: members' seats the computer plays while they are away (R9).
        autoplay: each seat's auto-play choice, by seat (computers' unused).
        result: the game's end, once it ended with a result.
        stopped: the game ended without a result (abandoned), or with one (``result``).
        ranked: whether a game of members only is rated (False outside a server).
        last_hand: an event's round (docs/events.md): the game ends when this hand is
            over, its scores deciding, with no next deal (the round's hands, or the
            hand in play when the round's clock ran out). None: to the target.
    """

    id: int
    game: Game
    seats: tuple[Seat, ...]
    away: frozenset[int] = frozenset()
    autoplay: tuple[Autoplay, ...] = ()
    result: Result | None = None
    stopped: bool = False
    ranked: bool = True
    last_hand: int | None = None

    def __post_init__(self) -> None:
        if not self.autoplay:
            object.__setattr__(self, "autoplay", (DEFAULT_AUTOPLAY,) * len(self.seats))

    # --- who sits where -----------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """Whether the game is over (with a result or without)."""
        return self.stopped or self.result is not None

    @property
    def seq(self) -> int:
        """The log's length: what a button of this turn carries."""
        return self.game.log_length

    def at(self, seq: int) -> bool:
        """Whether the game runs and still stands at log length ``seq``."""
        return not self.finished and self.game.log_length == seq

    def seat_of(self, member: int) -> int | None:
        """The seat of the member ``member`` (resigned or not), or None for a stranger."""
        for seat in self.seats:  # a loop, not next() of a generator: asked every click
            if seat.member == member:
                return seat.number
        return None

    @property
    def rated(self) -> bool:
        """Every seat a member's: the result changes ratings (the bot's computers are
        unrated opponents), in a game that counts (``ranked``)."""
        return self.ranked and all(s.member is not None for s in self.seats)

    def is_computer(self, seat: int | None) -> bool:
        """Whether a computer plays ``seat``: a computer's seat, an away member's, or a
        resigned member's."""
        if seat is None:
            return False
        s = self.seats[seat]
        return s.member is None or s.resigned or seat in self.away

    def forced(self, seat: int | None) -> Action | None:
        """The move played for the member in ``seat`` now, if any: their only legal
        action, when their auto-play choice covers it (the last trick by default)."""
        if seat is None or self.finished or self.is_computer(seat):
            return None
        choice = self.autoplay[seat]
        if choice is Autoplay.OFF:
            return None
        legal = self.game.legal_actions(seat)
        if len(legal) != 1:
            return None
        if choice is Autoplay.LAST and not self._last_trick:
            return None
        return legal[0]

    @property
    def _last_trick(self) -> bool:
        game = self.game
        return game.phase is Phase.PLAY and len(game.view(None).tricks) == game.variant.tricks - 1

    def moves_itself(self, seat: int | None) -> bool:
        """Whether the bot moves for ``seat`` now: a computer's (or an away or resigned
        member's) seat, or a member's forced move that their auto-play choice covers."""
        return self.is_computer(seat) or self.forced(seat) is not None

    @property
    def bot_to_move(self) -> bool:
        """Whether the game runs and waits on a move the bot plays itself."""
        return not self.finished and self.moves_itself(self.game.turn)

    def level_of(self, seat: int) -> str:
        """The level of the computer that plays ``seat``: a computer seat's own; for an
        away or resigned member, the table's computers' level, or normal at a table of
        members (R9, R26)."""
        own = self.seats[seat].level
        return own or next((s.level for s in self.seats if s.level), "normal")

    def opponents(self, member: int) -> tuple[int, ...]:
        """The seats on other sides than the member ``member``'s."""
        mine = {s.side for s in self.seats if s.member == member}
        return tuple(s.number for s in self.seats if s.side not in mine)

    # --- who plays on and who wins (R9, R26) ---------------------------------------------

    def goes_on_without(self, seat: int) -> bool:
        """Whether the game goes on with the computer in the away member's ``seat`` after
        the hand (R9): yes while another member plays beside them or two or more others
        remain; no when nobody else is left, or the one other member plays against them
        (the side forfeits, as a one-to-one challenge expects)."""
        side = self.seats[seat].side
        others = [
            s for s in self.seats if s.playing and s.number != seat and s.number not in self.away
        ]
        return len(others) >= 2 or any(s.side == side for s in others)

    def resign_goes_on(self) -> bool:
        """Whether the game goes on after a member resigns: while two or more other
        members still play it (R26); else their side loses, now. Asked of the table
        before the resignation, so the resigner counts as the third."""
        return sum(s.playing for s in self.seats) >= 3

    def sides_out(self) -> frozenset[int]:
        """The sides whose members all resigned: they can no longer win (R26). A side
        of computers only is never out."""
        return _sides_out(self.seats)

    def best_side(self, exclude: Collection[int] = ()) -> int:
        """The side with the best score now, not in ``exclude`` (the earliest on a tie)."""
        scores = self.game.scores
        others = [side for side in range(len(scores)) if side not in exclude]
        return max(others, key=lambda side: (scores[side], -side))

    def winner_without(self, seat: int) -> int:
        """The side that wins when ``seat``'s side concedes: the other side in a game of
        two sides; in a game of more, the best score among the others still in it (the
        earliest side on a tie), as the game stands."""
        return self.best_side(exclude={self.seats[seat].side, *self.sides_out()})

    def winner(self) -> int | None:
        """The side that won the finished game: the engine's winner, unless its members
        all resigned (then the best of the sides still in it, R26)."""
        winner = self.game.winner
        out = self.sides_out()
        if winner is None or winner not in out:
            return winner
        return self.best_side(exclude=out)

    def standings(self, ending: Ending, winner: int, by: int | None = None) -> Result:
        """The result of ending the game now with ``winner`` (a side): see
        :func:`standings`."""
        return standings(self.seats, self.game.scores, ending, winner, by, ranked=self.ranked)

    # --- events --------------------------------------------------------------------------

    def _check(self, seq: int | None) -> None:
        if self.finished:
            raise TableClosed(f"Game #{self.id} is over.")
        if seq is not None and seq != self.game.log_length:
            raise StaleTurn("That was for an earlier turn: it's over now.")

    def apply(self, seat: int, action: Action, seq: int | None = None) -> Change:
        """The member in ``seat`` plays ``action`` (their own click), the game standing at
        log length ``seq`` (None: now).

        Raises:
            TableClosed: the game is over.
            StaleTurn: the game moved on from ``seq``.
            TableError: ``seat`` is not a member's who plays (a computer's, or resigned).
            engine.errors.IllegalAction: the engine refuses the action (out of turn,
                not legal now).
        """
        self._check(seq)
        if not self.seats[seat].playing:
            raise TableError("A computer plays that seat.")
        return self._move(seat, action, actor=seat, note=None)

    def play_for(self, seat: int, action: Action, seq: int | None = None) -> Change:
        """The bot plays ``action`` for ``seat``: a computer's move, an away or resigned
        member's, or a member's forced move (told to them in a ``PLAYED_FOR`` note).

        Raises:
            TableClosed, StaleTurn: as :meth:`apply`.
            NotTheBotsMove: the bot does not move for ``seat`` now.
            engine.errors.IllegalAction: the engine refuses the action.
        """
        self._check(seq)
        if self.game.turn != seat or not self.moves_itself(seat):
            raise NotTheBotsMove("The bot does not play that seat now.")
        forced = None if self.is_computer(seat) else self.forced(seat)
        note = None if forced is None else Note(NoteKind.PLAYED_FOR, seat, action)
        return self._move(seat, action, actor=None, note=note)

    def _move(self, seat: int, action: Action, *, actor: int | None, note: Note | None) -> Change:
        game = self.game.copy()
        game.apply(seat, action)
        return self._advance(game, actor, (note,) if note else ())

    def settle(self) -> Change | None:
        """What a crash between two writes can leave to do: the next hand to deal, or
        the game's end to record (restoring a stored game). None: nothing."""
        if self.finished:
            return None
        phase = self.game.phase
        if phase is Phase.GAME_OVER or phase in (Phase.DEAL, Phase.HAND_OVER):
            return self._advance(self.game.copy(), None, ())
        return None

    def _advance(self, game: Game, actor: int | None, notes: tuple[Note, ...]) -> Change:
        """The change that leaves the game as ``game`` (a copy of ours, moved on): the
        next deal after a finished hand, and the end of the game when it is over or an
        away member's side forfeits at a hand's end (R9)."""
        before = self.game
        between = game.phase in (Phase.DEAL, Phase.HAND_OVER)
        last = between and self.last_hand is not None and game.hand_no >= self.last_hand
        if between and not last:
            game.deal()
        hands = game.hand_results[len(before.hand_results) :]
        moved = dataclasses.replace(self, game=game)
        result = None
        if game.phase is Phase.GAME_OVER:
            winner = moved.winner()
            assert winner is not None
            result = moved.standings(Ending.FINISHED, winner)
        elif last:
            # The round is over: the best score wins (an event scores the points).
            result = moved.standings(Ending.FINISHED, moved.best_side(moved.sides_out()))
        elif hands:
            for seat in sorted(self.away):
                if not moved.goes_on_without(seat):
                    winner = moved.winner_without(seat)
                    result = moved.standings(Ending.FORFEITED, winner, by=seat)
                    break
        # A running table has no result: ``moved`` is the table after unless this ends it.
        after = moved if result is None else dataclasses.replace(moved, result=result)
        return Change(
            before=self,
            after=after,
            actor=actor,
            entries=tuple(str(e) for e in game.log_from(before.log_length)),
            hands=hands,
            new_turn=game.turn != before.turn or bool(hands),
            result=result,
            views=after._views_changed(self, actor),
            notes=notes,
        )

    def _views_changed(self, before: Table, actor: int | None) -> frozenset[int]:
        """The members' seats whose hand view changed in what it offers between
        ``before`` and this table (the actor's own screen aside): everyone's at a new
        hand or the end, else the seats whose turn came or went. A member whose forced
        move is played next is left out: that move's change shows it."""
        game = self.game
        new_hand = game.hand_no != before.game.hand_no
        forced = None if self.finished else self.forced(game.turn)
        seats = set()
        for seat in range(len(self.seats)):
            if seat == actor or self.is_computer(seat):
                continue
            if forced is not None and seat == game.turn:
                continue
            if self.finished or new_hand or seat in (game.turn, before.game.turn):
                seats.add(seat)
        return frozenset(seats)

    def leave(self, seat: int) -> Change:
        """The member on turn in ``seat`` let the turn timer run out: they are away and
        the computer plays their cards until they come back, for the rest of the hand
        at least (R9).

        Raises:
            TableClosed: the game is over.
            TableError: it is not the member's turn, or a computer plays the seat already.
        """
        self._check(None)
        if self.game.turn != seat or self.is_computer(seat):
            raise TableError("Only the member on turn can be away.")
        after = dataclasses.replace(self, away=self.away | {seat})
        note = Note(NoteKind.AWAY, seat, goes_on=after.goes_on_without(seat))
        return Change(before=self, after=after, notes=(note,))

    def back(self, seat: int) -> Change | None:
        """The away member in ``seat`` used one of their buttons: they play their own
        cards again. None if they were not away."""
        if seat not in self.away or self.finished:
            return None
        after = dataclasses.replace(self, away=self.away - {seat})
        return Change(before=self, after=after, notes=(Note(NoteKind.BACK, seat),))

    def resign(self, seat: int) -> Change:
        """The member in ``seat`` resigns (R26): while two or more other members still
        play, a computer takes their seat to the end and the game goes on (the other
        members are told); otherwise their side loses now.

        Raises:
            TableClosed: the game is over.
            TableError: the seat is not a member's who plays (resigned already).
        """
        self._check(None)
        if not self.seats[seat].playing:
            raise TableError(f"You resigned game #{self.id} already.")
        if self.resign_goes_on():
            seats = list(self.seats)
            seats[seat] = dataclasses.replace(seats[seat], resigned=True)
            after = dataclasses.replace(self, seats=tuple(seats), away=self.away - {seat})
            members = {s.number for s in after.seats if not after.is_computer(s.number)}
            return Change(
                before=self,
                after=after,
                resigned=seat,
                views=frozenset(members),
                notes=(Note(NoteKind.RESIGNED, seat),),
            )
        result = self.standings(Ending.RESIGNED, self.winner_without(seat), by=seat)
        after = dataclasses.replace(self, result=result)
        members = {s.number for s in after.seats if not after.is_computer(s.number)}
        return Change(before=self, after=after, result=result, views=frozenset(members))

    def ending_after(self, hand_no: int) -> Table:
        """The table whose game ends when hand ``hand_no`` is over (``last_hand``): an
        event round's length, or its clock run out (the hand in play is finished)."""
        return dataclasses.replace(self, last_hand=hand_no)

    def stop(self) -> Table:
        """The table of a game ended without a result (abandoned)."""
        return dataclasses.replace(self, stopped=True)

    def with_autoplay(self, seat: int, choice: Autoplay) -> Table:
        """The table with the member in ``seat``'s auto-play choice ``choice``."""
        choices = list(self.autoplay)
        choices[seat] = choice
        return dataclasses.replace(self, autoplay=tuple(choices))
