"""A recorded game as a replay's steps (engine.replay): one per deal, bidding outcome,
complete trick and result, each with the public view and every hidden card."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.cards import parse_cards
from engine.errors import RecordError
from engine.game import Game
from engine.replay import Frame, FrameKind, hand_starts, replay_frames
from engine.view import Phase


def finished(variant: str, seed: int, *, passing: float = 0.0, **options: object) -> Game:
    """A game of ``variant`` played to its end with seeded random legal actions; with
    ``passing``, a seat passes that often when it may (so some hands are thrown in)."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed, **options)
    while game.phase is not Phase.GAME_OVER:
        if game.turn is None:
            game.deal()
            continue
        legal = game.legal_actions(game.turn)
        passes = [a for a in legal if str(a) == "pass"]
        choice = passes[0] if passes and rng.random() < passing else rng.choice(legal)
        game.apply(game.turn, choice)
    return game


def _per_hand(frames: tuple[Frame, ...]) -> list[list[FrameKind]]:
    starts = (*hand_starts(frames), len(frames))
    return [[f.kind for f in frames[a:b]] for a, b in itertools.pairwise(starts)]


@pytest.mark.parametrize(("variant", "seed"), [("euchre", 3), ("tuque", 4)])
def test_each_hand_is_its_deal_its_bidding_its_tricks_and_its_result(
    variant: str, seed: int
) -> None:
    """Per hand: the deal, the bidding's outcome, every trick, the result; a hand that
    everyone passed goes from its deal to its result."""
    game = finished(variant, seed, passing=0.85)
    frames = replay_frames(game.to_record())
    tricks = game.variant.tricks
    expected = [
        [FrameKind.DEAL, FrameKind.RESULT]
        if result.thrown_in
        else [FrameKind.DEAL, FrameKind.BIDDING, *[FrameKind.TRICK] * tricks, FrameKind.RESULT]
        for result in game.hand_results
    ]
    if variant == "euchre":
        assert any(r.thrown_in for r in game.hand_results), "the seed must throw a hand in"
    assert _per_hand(frames) == expected
    assert [f.hand_no for f in frames if f.kind is FrameKind.DEAL] == list(
        range(1, game.hand_no + 1)
    )


def test_the_last_step_is_the_final_score() -> None:
    """The last step is the last hand's result, with the game's winner and final scores."""
    game = finished("euchre", 7)
    last = replay_frames(game.to_record())[-1]
    assert last.kind is FrameKind.RESULT
    assert (last.view.winner, last.view.scores, last.view.last_hand) == (
        game.winner,
        game.scores,
        game.hand_results[-1],
    )


def test_a_trick_step_shows_the_complete_trick_before_the_hand_is_scored() -> None:
    """A trick step's trick holds every card with its winner, as the hand's tricks
    record it, and nobody is to act; the hand's last trick still shows the scores from
    before the hand."""
    game = finished("euchre", 11)
    frames = replay_frames(game.to_record())
    results = iter(game.hand_results)
    previous = (0, 0)
    for frame in frames:
        if frame.kind is FrameKind.TRICK:
            trick = frame.view.trick
            assert trick.winner is not None and frame.view.turn is None
            assert trick.plays and len(trick.plays) == len(frame.view.tricks[0].plays)
            assert frame.view.tricks[frame.trick_no - 1] == trick
            assert frame.view.scores == previous
        elif frame.kind is FrameKind.RESULT:
            result = next(results)
            assert frame.view.last_hand == result
            assert frame.view.scores == result.scores
            assert frame.view.tricks_won == result.tricks
            previous = result.scores


def test_a_deal_step_reveals_every_hand_and_face_down_card() -> None:
    """At a Tuque deal each seat's hand and face-down tableau cards are those dealt
    (Game.deal's layout: piles' face-down cards, their face-up ones, then the hand);
    the view itself stays public."""
    game = finished("tuque", 5)
    record = game.to_record()
    first = replay_frames(record)[0]
    dealt = parse_cards(record["actions"][0].removeprefix("deal "))
    v = game.variant
    per_seat = 2 * v.tableau_piles + v.hand_size
    for seat in range(v.players):
        cards = dealt[seat * per_seat : (seat + 1) * per_seat]
        assert list(first.face_down[seat]) == cards[: v.tableau_piles]
        assert [p.up for p in first.view.tableaus[seat]] == list(
            cards[v.tableau_piles : 2 * v.tableau_piles]
        )
        assert set(first.hands[seat]) == set(cards[2 * v.tableau_piles :])
    assert first.view.seat is None and first.view.hand == ()


def test_a_played_cover_turns_its_face_down_card_up_once_the_trick_ends() -> None:
    """``Game.face_down_of`` drops a pile's face-down card once its cover's trick ends
    (RULES.md §1 Play), and the view then shows the card face up."""
    game = finished("tuque", 5)
    frames = replay_frames(game.to_record())
    for before, after in itertools.pairwise(frames):
        if after.kind is not FrameKind.TRICK or before.hand_no != after.hand_no:
            continue
        for seat, piles in enumerate(after.view.tableaus):
            for pile, (was, now) in enumerate(
                zip(before.face_down[seat], after.face_down[seat], strict=True)
            ):
                if was is not None and now is None:
                    assert piles[pile].up == was
                else:
                    assert now == was
                    assert piles[pile].face_down is (now is not None)


def test_every_card_is_somewhere_once_at_every_step() -> None:
    """Revealed hands, face-down cards, face-up tableau cards and the trick on the
    table never hold a card twice (a replay shows each card in one place)."""
    game = finished("tuque", 6)
    for frame in replay_frames(game.to_record()):
        shown = [c for hand in frame.hands for c in hand]
        shown += [c for piles in frame.face_down for c in piles if c is not None]
        shown += [p.up for piles in frame.view.tableaus for p in piles if p.up is not None]
        if frame.kind is FrameKind.TRICK:
            shown += [c for _, c in frame.view.trick.plays]
        assert len(shown) == len(set(shown)), frame


def test_jackpot_turns_trump_without_a_bidding_step() -> None:
    """Jackpot has no bidding: each hand is its deal, its tricks and its result."""
    game = finished("jackpot", 2)
    frames = replay_frames(game.to_record())
    assert FrameKind.BIDDING not in {f.kind for f in frames}
    assert all(
        kinds == [FrameKind.DEAL, *[FrameKind.TRICK] * game.variant.tricks, FrameKind.RESULT]
        for kinds in _per_hand(frames)
    )


def test_a_record_that_stops_mid_hand_ends_where_it_stops() -> None:
    """A game resigned in the middle of a hand ends with a STOPPED step of that moment,
    the trick in progress on the table."""
    game = finished("euchre", 3)
    record = game.to_record()
    starts = [i for i, a in enumerate(record["actions"]) if a.startswith("deal ")]
    cut = {**record, "actions": record["actions"][: starts[1] + 9]}
    frames = replay_frames(cut)
    rebuilt = Game.from_record(cut)
    assert frames[-1].kind is FrameKind.STOPPED
    assert frames[-1].view == rebuilt.view(None)
    assert frames[-1].hands == tuple(rebuilt.hand_of(s) for s in range(4))


def test_hand_starts_are_the_deals() -> None:
    """``hand_starts`` gives each hand's first step, its deal."""
    frames = replay_frames(finished("euchre", 3).to_record())
    starts = hand_starts(frames)
    assert starts[0] == 0
    assert all(frames[i].kind is FrameKind.DEAL for i in starts)
    assert len(starts) == frames[-1].hand_no


def test_an_empty_record_has_no_steps() -> None:
    """A game stored before its first deal has nothing to show."""
    assert replay_frames(Game("euchre", seed=1).to_record()) == ()


@pytest.mark.parametrize(
    "actions",
    [["deal AS"], ["pass"], "deal", [3]],
)
def test_a_record_that_does_not_replay_is_refused(actions: object) -> None:
    """A bad entry, an action before the deal or a malformed list is a RecordError."""
    record = {**Game("euchre", seed=1).to_record(), "actions": actions}
    with pytest.raises(RecordError):
        replay_frames(record)
