"""Scoring of both Tuque games (RULES.md §1, §2) and of Euchre (§3).

The scoring functions are checked against tables written from RULES.md; whole hands are
checked on explicit deals (a march and a sweep) and on seeded random hands that land on
every threshold.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.game import Game
from engine.variants import score_euchre, score_tuque, score_tuque61
from engine.view import HandResult, Phase

# RULES.md §1: m >= 9: maker 1; m >= 12: 2; m >= 15: 3. m < 9: defender 2; d >= 12: 3; d >= 15: 4.
TUQUE_THRESHOLDS = [
    pytest.param(17, (3, 0), id="march: maker 3"),
    pytest.param(15, (3, 0), id="maker 15: 3"),
    pytest.param(14, (2, 0), id="maker 14: 2"),
    pytest.param(12, (2, 0), id="maker 12: 2"),
    pytest.param(11, (1, 0), id="maker 11: 1"),
    pytest.param(9, (1, 0), id="maker 9: 1"),
    pytest.param(8, (0, 2), id="maker 8 (defender 9): defender 2"),
    pytest.param(6, (0, 2), id="defender 11: 2"),
    pytest.param(5, (0, 3), id="defender 12: 3"),
    pytest.param(3, (0, 3), id="defender 14: 3"),
    pytest.param(2, (0, 4), id="defender 15: 4"),
    pytest.param(0, (0, 4), id="defender 17: 4"),
]

# RULES.md §2: a point a trick each; a defender with 9 or more tricks scores 2 a trick.
TUQUE61_THRESHOLDS = [
    pytest.param(17, (17, 0), id="march"),
    pytest.param(15, (15, 2), id="maker 15"),
    pytest.param(14, (14, 3), id="maker 14"),
    pytest.param(12, (12, 5), id="maker 12"),
    pytest.param(9, (9, 8), id="maker 9"),
    pytest.param(8, (8, 18), id="defender 9 doubles"),
    pytest.param(11, (11, 6), id="defender 6"),
    pytest.param(0, (0, 34), id="defender 17 doubles"),
]


def tuque_points(m: int) -> tuple[int, int]:
    """RULES.md §1 restated: (maker, defender) points for ``m`` maker tricks of 17."""
    d = 17 - m
    if m >= 9:
        return 1 + (m >= 12) + (m >= 15), 0
    return 0, 2 + (d >= 12) + (d >= 15)


@pytest.mark.parametrize(("m", "points"), TUQUE_THRESHOLDS)
def test_tuque_scoring_thresholds(m: int, points: tuple[int, int]) -> None:
    """Tuque scores (maker, defender) at each threshold of RULES.md §1."""
    assert score_tuque(m, 17 - m, False) == points


@pytest.mark.parametrize("m", range(18))
def test_tuque_scoring_every_trick_count(m: int) -> None:
    """Tuque scoring agrees with the rulebook for every split of the 17 tricks."""
    assert score_tuque(m, 17 - m, False) == tuque_points(m)


@pytest.mark.parametrize(("m", "points"), TUQUE61_THRESHOLDS)
def test_tuque61_scoring(m: int, points: tuple[int, int]) -> None:
    """The 61-point game scores a point a trick, 2 a trick for a defender with 9 or more."""
    assert score_tuque61(m, 17 - m, False) == points


@pytest.mark.parametrize("m", range(18))
def test_tuque61_scoring_every_trick_count(m: int) -> None:
    """The 61-point game agrees with the rulebook for every split of the 17 tricks."""
    d = 17 - m
    assert score_tuque61(m, d, False) == (m, 2 * d if d >= 9 else d)


@pytest.mark.parametrize(
    ("m", "alone", "points"),
    [
        pytest.param(5, True, (4, 0), id="march alone 4"),
        pytest.param(5, False, (2, 0), id="march 2"),
        pytest.param(4, True, (1, 0), id="alone with 4 tricks 1"),
        pytest.param(4, False, (1, 0), id="4 tricks 1"),
        pytest.param(3, False, (1, 0), id="3 tricks 1"),
        pytest.param(2, False, (0, 2), id="euchred 2"),
        pytest.param(0, False, (0, 2), id="euchred with none 2"),
        pytest.param(2, True, (0, 2), id="euchred loner 2"),
    ],
)
def test_euchre_scoring(m: int, alone: bool, points: tuple[int, int]) -> None:
    """Euchre: 3–4 tricks 1, march 2, march alone 4; euchred: defenders 2."""
    assert score_euchre(m, 5 - m, alone) == points


# --- whole hands on explicit deals ----------------------------------------------------------

# Seat 0 holds all thirteen trumps of hearts and four sure winners: it takes every trick.
HEARTS_MARCH = {
    "hands": {0: "B1 B2 B3 JH JD AH KH"},
    "up": {0: "QH TH 9H 8H 7H"},
    "down": {0: "6H AC AS AD KD"},
    "up_card": "6C",
}
# Seat 0 holds all thirteen trumps of spades and four sure winners; seat 1 must name spades.
SPADES_SWEEP = {
    "hands": {0: "B1 B2 B3 JS JC AS KS"},
    "up": {0: "QS TS 9S 8S 7S"},
    "down": {0: "6S AC AD AH KH"},
    "up_card": "6C",
}


@pytest.mark.parametrize(("variant", "points"), [("tuque", (3, 0)), ("tuque61", (17, 0))])
def test_played_march(deal_tuque, act, play_out_hand, variant, points) -> None:
    """A maker who takes all 17 tricks scores 3 (§1) or 17 (§2)."""
    game = deal_tuque(variant=variant, **HEARTS_MARCH)
    act(game, "pass", "pass", "name H")
    play_out_hand(game)
    result = game.hand_results[-1]
    assert (result.maker, result.tricks, result.points) == (0, (17, 0), points)


@pytest.mark.parametrize(("variant", "points"), [("tuque", (4, 0)), ("tuque61", (34, 0))])
def test_played_defenders_sweep(deal_tuque, act, play_out_hand, variant, points) -> None:
    """A dealer stuck with trump who takes no trick gives the defender 4 (§1) or 34 (§2)."""
    game = deal_tuque(variant=variant, **SPADES_SWEEP)
    act(game, "pass", "pass", "pass", "name S")
    play_out_hand(game)
    result = game.hand_results[-1]
    assert (result.maker, result.tricks, result.points) == (1, (17, 0), points)


def test_points_add_to_the_game_score(deal_tuque, act, play_out_hand) -> None:
    """A hand's points are added to the side's game score."""
    game = deal_tuque(**HEARTS_MARCH)
    act(game, "pass", "pass", "name H")
    play_out_hand(game)
    assert game.scores == (3, 0)


# --- whole hands from seeded random play ---------------------------------------------------


def random_games(variant: str, count: int, **options) -> Iterator[Game]:
    """Games of ``variant`` played to the end by seeded random players, seeds 0, 1, 2, ..."""
    for seed in range(count):
        game = Game(variant, seed=seed, **options)
        rng = random.Random(seed)
        while game.phase is not Phase.GAME_OVER:
            if game.turn is None:
                game.deal()
            else:
                game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        yield game


@pytest.fixture(scope="module")
def tuque_hands() -> list[HandResult]:
    """The hands of 150 seeded random Tuque games to 5."""
    return [h for game in random_games("tuque", 150, target=5) for h in game.hand_results]


@pytest.fixture(scope="module")
def tuque61_hands() -> list[HandResult]:
    """The hands of 100 seeded random games of Tuque to 61."""
    return [h for game in random_games("tuque61", 100) for h in game.hand_results]


def maker_split(result: HandResult) -> tuple[int, int]:
    """(maker's points, defender's points) of a two-player hand."""
    assert result.maker is not None
    return result.points[result.maker], result.points[1 - result.maker]


@pytest.mark.parametrize(
    ("m", "points"), [p for p in TUQUE_THRESHOLDS if p.values[0] not in (0, 17)]
)
def test_played_hand_at_threshold(tuque_hands, m: int, points: tuple[int, int]) -> None:
    """A played Tuque hand where the maker took ``m`` tricks scores as RULES.md §1 says."""
    result = next(h for h in tuque_hands if h.tricks[h.maker] == m)
    assert maker_split(result) == points


@pytest.mark.parametrize("m", [8, 9, 11, 12, 14, 15])
def test_played_hand_at_threshold_of_the_61_game(tuque61_hands, m: int) -> None:
    """A played hand of the 61 game where the maker took ``m`` tricks scores as §2 says."""
    result = next(h for h in tuque61_hands if h.tricks[h.maker] == m)
    d = 17 - m
    assert maker_split(result) == (m, 2 * d if d >= 9 else d)


def test_every_played_hand_scores_as_the_rulebook_says(tuque_hands) -> None:
    """Each of the random hands scores exactly the rulebook's points, no more, no less."""
    wrong = [h for h in tuque_hands if maker_split(h) != tuque_points(h.tricks[h.maker])]
    assert wrong == []


def deciding_hands(both_tied: bool) -> Iterator[tuple[Game, int]]:
    """(game, hand index) where both players first reached 61 in the same hand."""
    for game in random_games("tuque61", 2000):
        before = (0, 0)
        for i, result in enumerate(game.hand_results):
            scores = result.scores
            if max(before) < 61 <= min(scores) and (scores[0] == scores[1]) == both_tied:
                yield game, i
            before = scores


def test_both_reaching_61_the_higher_total_wins() -> None:
    """Ruling: if both reach 61 in the same hand the higher total wins at once."""
    game, i = next(deciding_hands(both_tied=False))
    scores = game.hand_results[i].scores
    assert (len(game.hand_results) - 1, game.winner) == (i, scores.index(max(scores)))


def test_exact_tie_at_61_plays_another_hand() -> None:
    """Ruling: an exact tie at 61 or more plays another hand."""
    game, i = next(deciding_hands(both_tied=True))
    assert len(game.hand_results) > i + 1


def test_game_ends_when_a_side_reaches_the_target() -> None:
    """A Tuque game to 5 ends with the first hand that takes a player to 5."""
    for game in random_games("tuque", 20, target=5):
        reached = [max(h.scores) >= 5 for h in game.hand_results]
        assert (reached.index(True), max(game.scores) >= 5) == (len(reached) - 1, True)


def test_a_target_the_sources_never_name_ends_the_game_like_theirs(deal_game, act) -> None:
    """Ruling R30: a game may be played to any whole number up to 100 where the rules
    list no targets; Euchre to 2 (the sources play to 10) ends with a march of 2."""
    game = deal_game("euchre", options={"target": 2}, up_card="9H", hands={1: "JH JD AH KH QH"})
    act(game, "order", "pass", "discard 9C")
    while game.phase is Phase.PLAY:
        act(game, str(game.legal_actions(game.turn)[0]))
    assert (game.scores, game.phase, game.winner) == ((0, 2), Phase.GAME_OVER, 1)


@pytest.mark.parametrize(
    ("variant", "target", "refused"),
    [
        ("three_hand", 6, "must be 5, 7 or 10"),
        ("jackpot", 10, "no adjustable option"),
        ("euchre", 101, "from 1 to 100"),
    ],
)
def test_targets_the_rules_fix_are_kept(variant: str, target: int, refused: str) -> None:
    """Ruling R30: three-hand plays to its listed targets only (as British, tested with
    §4), Jackpot ends on deals, and no game goes past 100."""
    with pytest.raises(ValueError, match=refused):
        Game(variant, target=target)
