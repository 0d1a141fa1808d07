"""The table's rules (bot/table.py), each on an explicit table: who a computer plays,
whose move the bot makes, who plays on (docs/rulings.md R9), who wins and in which
place (R26), and the one change each event makes."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from collections.abc import Callable

import pytest

from bot.table import (
    Autoplay,
    Change,
    Ending,
    NoteKind,
    NotTheBotsMove,
    Seat,
    StaleTurn,
    Table,
    TableClosed,
    TableError,
    places,
    standings,
)
from engine.actions import Action
from engine.errors import IllegalAction
from engine.game import Game
from engine.view import Phase

ANN, BOB, CAT, DAN, EVE, FAY = 1, 2, 3, 4, 5, 6


def member(n: int, user: int, side: int | None = None, *, resigned: bool = False) -> Seat:
    return Seat(n, n % 2 if side is None else side, user, resigned=resigned)


def computer(n: int, level: str = "easy", side: int | None = None) -> Seat:
    return Seat(n, n % 2 if side is None else side, level=level)


def table_of(variant: str, *seats: Seat, seed: int = 1, **options: object) -> Table:
    game = Game(variant, seed=seed, **options)
    game.deal()
    return Table(7, game, tuple(seats))


def moved_on(table: Table, until: Callable[[Game], bool]) -> Table:
    """``table`` with its game played on (a seeded random legal action each turn: the
    first would pass every bid and throw every hand in) until ``until``."""
    rng = random.Random(5)
    game = table.game.copy()
    while not until(game):
        if game.phase in (Phase.DEAL, Phase.HAND_OVER):
            game.deal()
            continue
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return dataclasses.replace(table, game=game)


def last_card(game: Game) -> bool:
    """Two players: the last trick's lead is down, its last card to play."""
    view = game.view(None)
    return (
        game.phase is Phase.PLAY
        and len(view.tricks) == game.variant.tricks - 1
        and view.trick is not None
        and len(view.trick.plays) == 1
    )


def challenge() -> Table:
    return table_of("tuque", member(0, ANN), member(1, BOB))


def euchre_with_partner() -> Table:
    """Ann and Cat partners against two computers."""
    return table_of("euchre", member(0, ANN), computer(1), member(2, CAT), computer(3))


def three_hand() -> Table:
    """Three members, each a side of their own (three-hand)."""
    return table_of("three_hand", member(0, ANN, 0), member(1, BOB, 1), member(2, CAT, 2))


# --- who plays each seat ----------------------------------------------------------------


def test_a_computer_plays_its_own_seat_an_away_members_and_a_resigned_members() -> None:
    """Only a member who plays and is not away plays their own cards."""
    t = table_of(
        "euchre", member(0, ANN), computer(1), member(2, CAT, resigned=True), member(3, DAN)
    )
    t = dataclasses.replace(t, away=frozenset({3}))
    assert [t.is_computer(s) for s in range(4)] == [False, True, True, True]
    assert not t.is_computer(None)


def test_which_forced_moves_play_themselves() -> None:
    """A forced move is the member's only legal action: ``forced`` plays every one,
    ``last`` only those of the hand's last trick, ``off`` none; a computer's seat is
    never a member's forced move."""
    rng = random.Random(4)
    game = Game("euchre", seed=4, target=10)
    game.deal()
    seats = (member(0, ANN), computer(1), member(2, CAT), computer(3))
    seen = {"mid-hand": False, "last trick": False}
    while game.hand_no <= 3 and not all(seen.values()):
        seat = game.turn
        if seat is None:
            game.deal()
            continue
        legal = game.legal_actions(seat)
        table = Table(1, game.copy(), seats)
        if seat in (1, 3):
            forced = table.with_autoplay(0, Autoplay.FORCED).with_autoplay(2, Autoplay.FORCED)
            assert forced.forced(seat) is None
        elif len(legal) == 1:
            last = len(game.view(None).tricks) == game.variant.tricks - 1
            seen["last trick" if last else "mid-hand"] = True
            for choice, plays in (
                (Autoplay.FORCED, True),
                (Autoplay.LAST, last),
                (Autoplay.OFF, False),
            ):
                chosen = table.with_autoplay(seat, choice)
                assert chosen.forced(seat) == (legal[0] if plays else None), (choice, last)
                assert chosen.moves_itself(seat) == plays
        else:
            assert table.with_autoplay(seat, Autoplay.FORCED).forced(seat) is None
        game.apply(seat, rng.choice(legal))
    assert all(seen.values()), seen


def test_the_computer_for_a_member_plays_at_the_tables_level_or_normal() -> None:
    """A computer seat plays at its own level; an away or resigned member's computer
    at the table's computers' level, or normal at a table of members."""
    t = table_of("euchre", member(0, ANN), computer(1, "hard"), member(2, CAT), computer(3, "hard"))
    assert t.level_of(1) == "hard" and t.level_of(0) == "hard"
    assert challenge().level_of(0) == "normal"


def test_a_members_table_is_rated_and_one_with_a_computer_is_not() -> None:
    assert challenge().rated
    assert not euchre_with_partner().rated


# --- who plays on (R9) and whether a resignation ends the game (R26) -------------------


@pytest.mark.parametrize(
    ("make", "away", "goes_on"),
    [
        (challenge, 0, False),  # the one other member plays against them
        (euchre_with_partner, 0, True),  # a partner member plays on
        (three_hand, 0, True),  # two other members remain
        (lambda: table_of("tuque", member(0, ANN), computer(1)), 0, False),  # nobody else
    ],
    ids=["challenge", "partner", "two others", "against computers"],
)
def test_the_game_goes_on_without_an_away_member_only_for_other_members(
    make: Callable[[], Table], away: int, goes_on: bool
) -> None:
    """R9: the game goes on with the computer in an away member's seat while a partner
    member or two other members play; else their side forfeits."""
    assert make().goes_on_without(away) is goes_on


def test_members_away_or_resigned_do_not_count_as_playing_on() -> None:
    """R9: of three members, with one away and one resigned, the third is alone."""
    t = dataclasses.replace(three_hand(), away=frozenset({1}))
    assert t.goes_on_without(0) is False
    t = table_of(
        "three_hand", member(0, ANN, 0), member(1, BOB, 1, resigned=True), member(2, CAT, 2)
    )
    assert t.goes_on_without(0) is False


@pytest.mark.parametrize(
    ("make", "goes_on"),
    [(challenge, False), (euchre_with_partner, False), (three_hand, True)],
    ids=["challenge", "two partners", "three members"],
)
def test_a_resignation_ends_the_game_unless_two_other_members_still_play(
    make: Callable[[], Table], goes_on: bool
) -> None:
    """R26."""
    assert make().resign_goes_on() is goes_on


# --- who wins, in which place (R26) ------------------------------------------------------


def test_places_share_ties_and_skip_the_next() -> None:
    assert places([3, 10, 7, 7], winner=1) == (4, 1, 2, 2)


def test_a_side_that_is_out_places_after_the_others_and_cannot_win() -> None:
    assert places([3, 10, 7], winner=1, out={2}) == (2, 1, 3)
    with pytest.raises(ValueError, match="cannot win"):
        places([3, 10, 7], winner=2, out={2})


def test_sides_of_computers_are_never_out_and_a_side_whose_members_all_resigned_is() -> None:
    t = table_of(
        "six_hand",
        member(0, ANN, 0),
        member(1, BOB, 1, resigned=True),
        computer(2, side=0),
        member(3, DAN, 1, resigned=True),
        computer(4, side=0),
        computer(5, side=1),
    )
    assert t.sides_out() == {1}


def test_the_winner_without_a_side_is_the_other_or_the_best_of_the_rest() -> None:
    """Two sides: the other side. More: the best score among the sides still in it,
    the earliest on a tie, the sides out left aside."""
    assert challenge().winner_without(0) == 1
    t = moved_on(three_hand(), lambda g: g.hand_no == 3)
    scores = t.game.scores
    best = max((s for s in (1, 2)), key=lambda s: (scores[s], -s))
    assert t.winner_without(0) == best
    out = dataclasses.replace(
        t, seats=(t.seats[0], dataclasses.replace(t.seats[1], resigned=True), t.seats[2])
    )
    assert out.winner_without(0) == 2


def test_standings_of_a_rated_game_with_a_resignation() -> None:
    """R26: the member who resigned loses and places last, rated as a team of one; their
    partner who played on keeps the side's win."""
    seats = (
        member(0, ANN),
        member(1, BOB),
        member(2, CAT, resigned=True),
        member(3, DAN),
    )
    result = standings(seats, [10, 6], Ending.FINISHED, winner=0)
    assert result.won == (True, False, False, False)
    assert result.places == (1, 2, 3, 2)
    assert result.scores == (10, 6, 10, 6)
    assert result.rated
    assert result.teams == ((ANN,), (BOB, DAN), (CAT,))
    assert result.ranks == (1, 2, 3)


def test_standings_against_computers_are_unrated() -> None:
    result = standings((member(0, ANN), computer(1)), [4, 10], Ending.RESIGNED, winner=1, by=0)
    assert not result.rated and result.teams == () and result.ranks == ()
    assert result.won == (False, True) and result.places == (2, 1) and result.by == 0


def test_the_engines_winner_loses_the_game_when_its_members_all_resigned() -> None:
    """R26: Ann and Cat both resigned; their computers win the game for side 0, but a
    side whose members all resigned cannot win: side 1 does, and side 0 places last."""
    t = table_of(
        "euchre",
        member(0, ANN, resigned=True),
        computer(1),
        member(2, CAT, resigned=True),
        member(3, DAN),
        seed=3,
        target=1,
    )
    t = moved_on(t, lambda g: g.phase is Phase.GAME_OVER)
    assert t.game.winner == 0 and t.sides_out() == {0}
    assert t.winner() == 1
    result = t.standings(Ending.FINISHED, 1)
    assert result.places == (2, 1, 2, 1) and result.won == (False, True, False, True)


# --- events and their changes ----------------------------------------------------------


def first_legal(t: Table) -> tuple[int, Action]:
    seat = t.game.turn
    assert seat is not None
    return seat, t.game.legal_actions(seat)[0]


def test_a_move_is_one_change_and_leaves_the_table_as_it_was() -> None:
    """The change holds the new log entries and the table after; the table asked is
    unchanged until the caller takes ``change.after``."""
    t = challenge()
    before = t.game.to_record()
    seat, action = first_legal(t)
    change = t.apply(seat, action, t.seq)
    assert isinstance(change, Change) and change.before is t
    assert t.game.to_record() == before
    assert change.entries and change.first_seq == t.seq
    assert len(change.after.game.log) == t.seq + len(change.entries)
    assert change.actor == seat and seat not in change.views
    assert change.new_turn and change.after.game.turn in change.views
    with pytest.raises(dataclasses.FrozenInstanceError):
        change.actor = None  # type: ignore[misc]


def test_refused_events_raise_and_change_nothing() -> None:
    """A stale turn, a move out of turn, a seat a computer plays, a game over."""
    t = challenge()
    seat, action = first_legal(t)
    with pytest.raises(StaleTurn):
        t.apply(seat, action, t.seq - 1)
    with pytest.raises(IllegalAction):
        t.apply(1 - seat, action, t.seq)
    resigned = dataclasses.replace(
        t, seats=(t.seats[0], dataclasses.replace(t.seats[1], resigned=True))
    )
    with pytest.raises(TableError):
        resigned.apply(1, action)
    with pytest.raises(TableClosed):
        t.stop().apply(seat, action)
    with pytest.raises(NotTheBotsMove):
        t.play_for(seat, action)


def test_a_forced_move_played_for_a_member_is_told_to_them() -> None:
    t = moved_on(
        challenge(), lambda g: len(g.legal_actions(g.turn)) == 1 if g.turn is not None else False
    )
    seat, action = first_legal(t)
    t = t.with_autoplay(seat, Autoplay.FORCED)
    change = t.play_for(seat, action, t.seq)
    assert [(n.kind, n.seat, n.action) for n in change.notes] == [
        (NoteKind.PLAYED_FOR, seat, action)
    ]
    assert change.actor is None


def test_a_hands_last_card_deals_the_next_hand_in_the_same_change() -> None:
    """The hand's result and the next deal are one change; both members' views change."""
    t = moved_on(challenge(), last_card)
    seat, action = first_legal(t)
    change = t.apply(seat, action)
    assert len(change.hands) == 1 and change.after.game.hand_no == t.game.hand_no + 1
    assert change.entries[-1].startswith("deal")
    assert change.new_turn and change.views == {0, 1} - {seat}


def test_an_away_member_whose_side_cannot_go_on_forfeits_at_the_hands_end() -> None:
    """R9: Ann is away in a challenge; when the hand ends, her side forfeits."""
    moved = dataclasses.replace(moved_on(challenge(), last_card), away=frozenset({0}))
    seat, action = first_legal(moved)
    change = moved.play_for(seat, action) if moved.is_computer(seat) else moved.apply(seat, action)
    assert change.result is not None and change.result.ending is Ending.FORFEITED
    assert change.result.by == 0 and change.result.winner == 1
    assert change.after.finished


def test_the_last_hand_ends_the_game_with_its_result() -> None:
    """The game's last card ends it with the engine's winner, every member told."""
    t = moved_on(table_of("tuque", member(0, ANN), member(1, BOB), target=1), last_card)
    while True:
        seat, action = first_legal(t)
        change = t.apply(seat, action)
        if change.result is not None:
            break
        t = moved_on(change.after, last_card)
    assert change.result.ending is Ending.FINISHED
    assert change.result.winner == change.after.game.winner
    assert change.after.finished and change.views == {0, 1} - {seat}


def test_away_back_and_the_turn_timer() -> None:
    """R9: only the member on turn goes away; their button brings them back."""
    t = challenge()
    seat = t.game.turn
    assert seat is not None
    with pytest.raises(TableError):
        t.leave(1 - seat)
    change = t.leave(seat)
    assert change.after.away == {seat} and not change.entries
    [note] = change.notes
    assert note.kind is NoteKind.AWAY and note.goes_on is False
    assert change.after.bot_to_move
    back = change.after.back(seat)
    assert back is not None and back.after.away == set()
    assert back.notes[0].kind is NoteKind.BACK
    assert t.back(seat) is None


def test_a_resignation_at_a_table_of_three_members_goes_on() -> None:
    """R26: a computer takes Ann's seat; the others are told."""
    t = dataclasses.replace(three_hand(), away=frozenset({0}))
    change = t.resign(0)
    assert change.result is None and change.resigned == 0
    assert change.after.seats[0].resigned and change.after.away == set()
    assert change.views == {1, 2}
    assert change.notes[0].kind is NoteKind.RESIGNED
    with pytest.raises(TableError, match="already"):
        change.after.resign(0)


def test_a_resignation_in_a_challenge_loses_the_game() -> None:
    change = challenge().resign(0)
    assert change.result is not None and change.result.ending is Ending.RESIGNED
    assert change.result.winner == 1 and change.result.by == 0
    assert change.after.finished and change.views == {0, 1}
    with pytest.raises(TableClosed):
        change.after.resign(1)


def test_settling_a_restored_game_deals_or_ends_it() -> None:
    """A crash between two writes can leave a hand to deal or a game to record."""
    game = Game("tuque", seed=3)
    t = Table(7, game, (member(0, ANN), member(1, BOB)))
    change = t.settle()
    assert change is not None and change.entries and change.after.game.phase is not Phase.DEAL
    assert change.after.settle() is None


def test_the_table_imports_no_discord_asyncio_or_sql() -> None:
    """The rules of a table are pure: importing them loads none of the bot's I/O."""
    code = (
        "import sys, bot.table\n"
        "bad = {m.split('.')[0] for m in sys.modules} & "
        "{'discord', 'asyncio', 'sqlalchemy', 'aiosqlite', 'asyncpg', 'aiohttp'}\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_event_rounds_game_ends_with_its_last_hand_on_the_scores() -> None:
    """A table ending after hand 2 (an event's round): the move that ends hand 2 ends
    the game, the best score winning, and deals no hand 3."""
    table = table_of("euchre", *(member(n, n + 1) for n in range(4)), target=100)
    table = table.ending_after(2)
    rng = random.Random(3)
    change = None
    while change is None or change.result is None:
        seat = table.game.turn
        assert seat is not None and table.game.hand_no <= 2
        change = table.apply(seat, rng.choice(table.game.legal_actions(seat)))
        table = change.after
    scores = table.game.scores
    assert table.finished and table.game.hand_no == 2 and len(change.hands) == 1
    assert change.result.winner == (0 if scores[0] >= scores[1] else 1)
    assert not any(e.startswith("deal") for e in change.entries)
