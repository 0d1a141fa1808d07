"""The search's view of the rules agrees with the public API's, and the playouts follow them.

``Game`` and the search play on one core (:class:`engine.core.HandState`); these tests
check the layers around it: ``Game``'s action lists are the core's legal ids, its
views report the core's trick winners and scores, and the flat playout loops of
:mod:`engine.ai.sim` play only legal cards and score as the core does.
"""

from __future__ import annotations

import random

import pytest

from engine.actions import ACTIONS, Play
from engine.ai.sim import rollout_heuristic, rollout_random
from engine.cards import CARDS
from engine.core import CARD_OF, CODE, DONE, DOUBLE_CARD_OF, DOUBLE_CODE, PLAY, TWIN_CODE, HandState
from engine.game import Game
from engine.variants import DOUBLE_PACK
from engine.view import Phase

GAMES = {"tuque": 300, "tuque61": 50, "euchre": 500, "six_hand": 150}
DOUBLE = {"double_pack": True}


def _sim_for(game: Game, order: list[int]) -> HandState:
    return HandState.from_deal(game.variant, game.options, order, game.dealer)


def _check_hand(game: Game, sim: HandState, rng: random.Random) -> None:
    winners = []
    while game.turn is not None:
        seat = game.turn
        assert sim.turn == seat
        legal = game.legal_actions(seat)
        assert sorted(a.id for a in legal) == sorted(sim.legal())
        action = rng.choice(legal)
        done = sim.done
        game.apply(seat, action)
        sim.apply(action.id)
        if sim.done > done:
            winners.append(sim.last_winner)
    assert sim.phase == DONE
    view = game.view(None)
    assert [t.winner for t in view.tricks] == winners
    assert tuple(sim.points) == game.hand_results[-1].points


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_random_games_agree(variant: str) -> None:
    """Hundreds of random games: every legal set, trick winner and hand score agree
    (six-hand with the double pack, RULES.md §6, and its tie rule)."""
    rng = random.Random(variant)
    options = {"target": 5} if variant == "tuque" else DOUBLE if variant == "six_hand" else {}
    for seed in range(GAMES[variant]):
        game = Game(variant, seed=seed, **options)
        while game.phase is not Phase.GAME_OVER:
            deal = game.deal()
            _check_hand(game, _sim_for(game, [c.index for c in deal.cards]), rng)


def _replay_trace(game: Game, sim: HandState, trace: list[int]) -> None:
    for code in trace:
        card = CARDS[sim.card_of[sim.trump][code]]
        game.apply(game.turn, ACTIONS[Play(card).id])  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["tuque", "euchre", "six_hand", "jackpot", "almonte"])
@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_rollouts_follow_the_rules(variant: str, rollout: str) -> None:
    """The flat playout loops (and the double pack's, RULES.md §6) play legal cards and
    score exactly as the engine does: Jackpot's chips drawn by each trick included (§7)."""
    rng = random.Random(7)
    options = DOUBLE if variant == "six_hand" else {}
    for seed in range(300):
        game = Game(variant, seed=seed, **options)
        deal = game.deal()
        sim = _sim_for(game, [c.index for c in deal.cards])
        stop = rng.randrange(40)
        while game.turn is not None and (game.phase is not Phase.PLAY or stop > 0):
            action = rng.choice(game.legal_actions(game.turn))
            stop -= game.phase is Phase.PLAY
            game.apply(game.turn, action)
            sim.apply(action.id)
        if game.turn is None:
            continue
        assert sim.phase == PLAY
        trace: list[int] = []
        if rollout == "random":
            rollout_random(sim, rng, trace)
        else:
            rollout_heuristic(sim, trace)
        _replay_trace(game, sim, trace)
        assert game.turn is None
        assert tuple(sim.points) == game.hand_results[-1].points
        assert tuple(sim.won) == game.hand_results[-1].tricks


def test_codes_are_a_bijection() -> None:
    """Card codes number the narrow packs' 39 cards and the double pack's 50 one to one."""
    for trump in range(4):
        narrow = CODE[trump][:39]
        assert sorted(narrow) == sorted(set(narrow))
        for card, code in enumerate(narrow):
            assert CARD_OF[trump][code] == card
        double = [DOUBLE_CODE[trump][c.index] for c in DOUBLE_PACK]
        assert len(set(double)) == 50
        for c, code in zip(DOUBLE_PACK, double, strict=True):
            assert DOUBLE_CARD_OF[trump][code] == c.index


def test_twins_have_neighbouring_codes() -> None:
    """The double pack's identical cards take codes side by side, first copy first."""
    for trump in range(4):
        for c in DOUBLE_PACK:
            if c.copy:
                first = DOUBLE_CODE[trump][c.index] - 1
                assert CARDS[DOUBLE_CARD_OF[trump][first]].code == c.code[:-1]
                assert TWIN_CODE[first] == first + 1 and TWIN_CODE[first + 1] == first
