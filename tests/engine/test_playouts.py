"""Thousands of seeded random-vs-random games per variant play to the end without error.

After every hand the cards are checked to be all accounted for, the points to be the
rulebook's (restated here, independently of ``engine.variants``), the scores to only
grow, and the dealer to move one seat on; at the end, the winner to have reached the
target. Each game's seed also seeds its players, so a failure names a reproducible game.
"""

from __future__ import annotations

import random

import pytest

from engine.cards import mask_of
from engine.game import Game
from engine.view import HandResult, Phase


def tuque_points(m: int, d: int, alone: bool) -> tuple[int, int]:
    """RULES.md §1: (maker, defender) points."""
    if m >= 9:
        return 1 + (m >= 12) + (m >= 15), 0
    return 0, 2 + (d >= 12) + (d >= 15)


def tuque61_points(m: int, d: int, alone: bool) -> tuple[int, int]:
    """RULES.md §2: a point a trick; a defender with 9 or more tricks scores 2 a trick."""
    return m, d * (2 if d >= 9 else 1)


def euchre_points(m: int, d: int, alone: bool) -> tuple[int, int]:
    """RULES.md §3: 3–4 tricks 1, march 2, march alone 4; euchred: defenders 2."""
    if m == 5:
        return (4 if alone else 2), 0
    return (1, 0) if m >= 3 else (0, 2)


RULEBOOK = {"tuque": tuque_points, "tuque61": tuque61_points, "euchre": euchre_points}


def check_hand(game: Game, result: HandResult, before: tuple[int, ...]) -> None:
    """Invariants of a finished hand (``before``: the scores before it)."""
    v = game.variant
    zones = game.zones()
    seen = 0
    for mask in zones.values():
        assert not seen & mask
        seen |= mask
    assert seen == mask_of(v.pack)
    assert result.dealer == (game.first_dealer + result.hand_no - 1) % v.players
    assert all(p >= 0 for p in result.points)
    assert result.scores == tuple(b + p for b, p in zip(before, result.points, strict=True))
    if result.thrown_in:
        assert v.name == "euchre" and not game.options.stick_the_dealer
        assert (result.points, zones["played"]) == ((0, 0), 0)
        return
    assert sum(result.tricks) == v.tricks
    out = None if result.alone is None else (result.alone + v.players // 2) % v.players
    held = [zones[f"hand:{s}"].bit_count() for s in range(v.players)]
    assert held == [v.hand_size if s == out else 0 for s in range(v.players)]
    side = v.sides[result.maker]
    made = sum(t for s, t in enumerate(result.tricks) if v.sides[s] == side)
    ours, theirs = RULEBOOK[v.name](made, v.tricks - made, result.alone is not None)
    assert (result.points[side], result.points[1 - side]) == (ours, theirs)


def play_random_game(variant: str, seed: int, **options) -> Game:
    """One game between seeded random players, checked after every hand."""
    game = Game(variant, seed=seed, **options)
    rng = random.Random(seed)
    scores = game.scores
    while game.phase is not Phase.GAME_OVER:
        if game.turn is None:
            game.deal()
            continue
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        if game.turn is None:
            check_hand(game, game.hand_results[-1], scores)
            scores = game.scores
    return game


def check_game_end(game: Game) -> None:
    """The game ended with the first hand that left one side alone at or above the target."""
    target = game.options.target
    decided = [
        max(h.scores) >= target and h.scores.count(max(h.scores)) == 1 for h in game.hand_results
    ]
    assert decided.index(True) == len(decided) - 1
    assert game.winner == game.scores.index(max(game.scores))
    assert game.scores[game.winner] >= target


@pytest.mark.parametrize(
    ("variant", "options", "seeds"),
    [
        pytest.param("tuque", {"target": 5}, range(0, 1000), id="tuque to 5, games 0-999"),
        pytest.param("tuque", {"target": 5}, range(1000, 2000), id="tuque to 5, games 1000-1999"),
        pytest.param("tuque", {}, range(300), id="tuque to 10, 300 games"),
        pytest.param("tuque61", {}, range(1000), id="tuque61, 1000 games"),
        pytest.param("euchre", {}, range(1000), id="euchre, 1000 games (~9500 hands)"),
        pytest.param("euchre", {"stick_the_dealer": True}, range(1000), id="euchre stick, 1000"),
    ],
)
def test_random_games_finish(variant: str, options: dict, seeds: range) -> None:
    """Seeded random games play to a proper end with every hand's invariants holding."""
    for seed in seeds:
        try:
            check_game_end(play_random_game(variant, seed, **options))
        except Exception as err:
            raise AssertionError(f"{variant} {options} game with seed {seed}: {err!r}") from err
