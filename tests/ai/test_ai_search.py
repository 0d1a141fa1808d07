"""The hard level: legal moves in every phase, repeatable decisions, the endgame solver."""

from __future__ import annotations

import random

import pytest

from engine.actions import Play
from engine.ai.search import SearchPlayer, win_table
from engine.ai.solver import maker_tricks, winning_moves
from engine.cards import Card, Suit, mask_of, parse_cards
from engine.core import PLAY, HandState, to_codes
from engine.game import Game
from engine.players import make_player
from engine.variants import get_variant
from engine.view import Phase, PlayerView


@pytest.mark.parametrize("variant", ["tuque", "tuque61", "euchre"])
def test_never_an_illegal_move(variant: str) -> None:
    """Seeded hands with the search on every seat: apply() accepts every choice."""
    for seed in range({"tuque": 8, "tuque61": 4, "euchre": 30}[variant]):
        game = Game(variant, seed=seed)
        players = [SearchPlayer(seed=seed * 10 + s, iterations=12) for s in range(4)]
        game.deal()
        while game.turn is not None:
            view = game.view(game.turn)
            action = players[game.turn].choose(view, view.legal_actions)
            game.apply(game.turn, action)  # raises on an illegal action


def test_never_an_illegal_move_with_the_double_pack() -> None:
    """RULES.md §6 double pack: the search on all six seats, seeded hands, every choice legal
    (identical cards sampled, played out and solved as the core rules them)."""
    for seed in range(4):
        game = Game("six_hand", seed=seed, double_pack=True)
        players = [SearchPlayer(seed=seed * 10 + s, iterations=12) for s in range(6)]
        game.deal()
        while game.turn is not None:
            view = game.view(game.turn)
            action = players[game.turn].choose(view, view.legal_actions)
            game.apply(game.turn, action)  # raises on an illegal action


def test_ben_turned_up() -> None:
    """A Ben as the up-card: the search names a suit as it accepts, or later, legally."""
    played = 0
    for seed in range(400):
        game = Game("tuque", seed=seed)
        game.deal()
        if game.up_card is None or not game.up_card.is_ben:
            continue
        players = [SearchPlayer(seed=s, iterations=10) for s in range(2)]
        while game.turn is not None:
            view = game.view(game.turn)
            game.apply(game.turn, players[game.turn].choose(view, view.legal_actions))
        played += 1
        if played == 4:
            break
    assert played == 4


def test_euchre_stick_the_dealer_and_alone() -> None:
    """Euchre with stick the dealer: whole games end without an illegal move."""
    for seed in range(2):
        game = Game("euchre", seed=seed, stick_the_dealer=True, target=5)
        players = [SearchPlayer(seed=s, iterations=8) for s in range(4)]
        while game.phase is not Phase.GAME_OVER:
            if game.turn is None:
                game.deal()
                continue
            view = game.view(game.turn)
            game.apply(game.turn, players[game.turn].choose(view, view.legal_actions))


def test_fixed_seed_and_iterations_repeat() -> None:
    """Two players with the same seed and iteration budget decide identically, move for move."""
    game = Game("tuque", seed=11)
    game.deal()
    first = make_player("hard", seed=5, iterations=60)
    second = make_player("hard", seed=5, iterations=60)
    for _ in range(25):
        if game.turn is None:
            break
        view = game.view(game.turn)
        a, b = first.choose(view, view.legal_actions), second.choose(view, view.legal_actions)
        assert a == b
        assert first.choose(view, view.legal_actions) == a  # no hidden state between calls
        game.apply(game.turn, a)


def test_time_budget_is_kept() -> None:
    """Without an iteration count the player stops at its time budget."""
    import time

    game = Game("tuque", seed=2)
    game.deal()
    player = SearchPlayer(seed=1, time_budget=0.05)
    view = game.view(game.turn)  # type: ignore[arg-type]
    start = time.perf_counter()
    player.choose(view, view.legal_actions)
    assert time.perf_counter() - start < 0.5


def _endgame() -> HandState:
    """Tuque, hearts trump, seat 0 made it with 7 tricks and leads; 3 tricks left.

    Seat 0: 9♥ A♣ 7♣. Seat 1: T♥ Q♣ 6♠. Only A♣ first takes the two tricks seat 0
    needs for 9: 7♣ loses to Q♣ and 9♥ to T♥, after which seat 1 keeps the lead.
    """
    sim = HandState(get_variant("tuque"), get_variant("tuque").defaults, dealer=1)
    sim.phase = PLAY
    sim.trump = Suit.HEARTS.index
    sim.maker = 0
    sim.turn = sim.leader = 0
    sim.hand = [
        to_codes(sim.trump, mask_of(parse_cards("9H AC 7C"))),
        to_codes(sim.trump, mask_of(parse_cards("TH QC 6S"))),
    ]
    sim.won = [7, 7]
    sim.done = 14
    return sim


def test_solver_finds_the_only_winning_line() -> None:
    """The endgame solver finds the one lead that makes the contract."""
    sim = _endgame()
    assert winning_moves(sim, 9) == [Play(Card.parse("AC")).id]
    assert maker_tricks(sim, range(18)) == 9
    sim.apply(Play(Card.parse("7C")).id)
    assert maker_tricks(sim, range(18)) == 7


def test_win_table_is_a_probability_by_score() -> None:
    """Ahead is better than behind; level scores are even; near the target, one hand decides."""
    table = win_table(get_variant("tuque"), 10)
    assert table[0][0] == pytest.approx(0.5, abs=1e-9)
    assert table[9][0] > table[5][5] > table[0][9]
    assert all(0.0 <= p <= 1.0 for row in table for p in row)


def _minimax(sim: HandState) -> int:
    if sim.phase != PLAY:
        return sim.maker_tricks()
    values = []
    for action in sim.legal():
        child = sim.copy()
        child.apply(action)
        values.append(_minimax(child))
    makers = sim.sides[sim.turn] == sim.sides[sim.maker]
    return max(values) if makers else min(values)


@pytest.mark.parametrize(
    ("variant", "options", "tricks"),
    [("tuque", {}, 3), ("euchre", {}, 3), ("six_hand", {"double_pack": True}, 2)],
)
def test_solver_matches_plain_minimax(variant: str, options: dict, tricks: int) -> None:
    """On random endings (tableau reveals, loners included) the solver equals full minimax;
    with the double pack (RULES.md §6) the minimax of the core's tie rule, from at most
    ``tricks`` tricks left (six seats' plain minimax is slow)."""
    base = get_variant(variant)
    opts = base.options(**options)
    v = base.configured(opts)
    rng = random.Random(variant)
    checked = 0
    while checked < 60:
        order = [c.index for c in v.pack]
        rng.shuffle(order)
        sim = HandState.from_deal(v, opts, order, rng.randrange(v.players))
        while sim.phase != PLAY and sim.turn >= 0:
            sim.apply(rng.choice(sim.legal()))
        while sim.phase == PLAY and (sim.ntricks - sim.done > tricks or rng.random() < 0.3):
            sim.apply(rng.choice(sim.legal()))
        if sim.phase != PLAY:
            continue
        assert maker_tricks(sim, range(sim.ntricks + 1)) == _minimax(sim)
        checked += 1


def test_reward_near_the_end_of_a_game() -> None:
    """When the other side needs one point, any hand they score is a lost game (bid boldly)."""
    from dataclasses import replace

    from engine.ai.search import _Reward

    game = Game("tuque", seed=1)
    game.deal()
    view = game.view(game.turn)  # type: ignore[arg-type]
    me = view.sides[view.seat]  # type: ignore[index]
    variant = get_variant("tuque")
    table = win_table(variant, 10)

    def points(ours: int, theirs: int) -> list[int]:
        out = [0, 0]
        out[me], out[1 - me] = ours, theirs
        return out

    early = _Reward(view, variant, table)
    assert early.of(points(0, 1)) > early.of(points(0, 4))  # far from the end, margins count
    scores = [0, 0]
    scores[1 - me] = 9
    late = _Reward(replace(view, scores=tuple(scores)), variant, table)
    assert late.of(points(0, 1)) == late.of(points(0, 4)) == 0.0
    assert late.of(points(1, 0)) > 0.0


def test_auction_reward_counts_points_against_the_others_mean() -> None:
    """RULES.md §7 Auction: the searched play is rewarded by the seat's points less the
    others' mean, whatever the scores: a defender gains when the makers fail, a maker's
    partner when they make, and the same hand is worth the same late in a game."""
    from dataclasses import replace

    from engine.ai.search import _Reward

    game = Game("auction", seed=1)
    game.deal()
    view = game.view(game.turn)  # type: ignore[arg-type]
    me = view.seat
    assert me is not None
    maker, partner, *_ = [s for s in range(5) if s != me]
    variant = get_variant("auction")
    table = win_table(variant, 50)

    def points(**by_seat: int) -> list[int]:
        out = [0] * 5
        for name, n in by_seat.items():
            out[{"me": me, "maker": maker, "partner": partner}[name]] = n
        return out

    early = _Reward(view, variant, table)
    assert (
        early.of(points(maker=-4, partner=-4))
        > early.of(points())
        > early.of(points(maker=4, partner=4))
    )
    assert early.of(points(me=4, maker=4)) > early.of(points(me=-4, maker=-4))
    late = _Reward(replace(view, scores=tuple(points(maker=46, me=10))), variant, table)
    for hand in (points(maker=4, partner=4), points(me=5, maker=5), points(me=-3, maker=-3)):
        assert late.of(hand) == early.of(hand)


def test_jackpot_reward_is_the_chance_to_win_the_game() -> None:
    """RULES.md §7 Jackpot: the reward of a hand is the seat's chance to win the game after
    it: more chips are better, a chip taken from the game's leader counts more than one
    from the last, and a march or the last deal ends the game (1 on top, 0 below)."""
    from dataclasses import replace

    from engine.ai.search import _ChipReward

    game = Game("jackpot", seed=1)
    game.deal()
    view = game.view(game.turn)  # type: ignore[arg-type]
    me = view.seat
    assert me is not None
    leader, last, third = [s for s in range(4) if s != me]
    variant = get_variant("jackpot")

    def chips(**by_seat: int) -> list[int]:
        out = [0] * 4
        for name, n in by_seat.items():
            out[{"me": me, "leader": leader, "last": last, "third": third}[name]] = n
        return out

    scores = tuple(chips(leader=4, last=-3))
    mid = _ChipReward(replace(view, hand_no=6, scores=scores), variant)
    assert 0 < mid.of(chips()) < mid.of(chips(me=1)) < mid.of(chips(me=2)) < 1
    assert mid.of(chips(leader=-1, last=1)) > mid.of(chips(leader=1, last=-1))
    # The leader marches and stays on top: the game is over and lost; my march wins it.
    assert mid.of(chips(leader=7, me=-1, last=-1, third=-1), [0, 0, 0, 0]) > 0
    marched = [5 if s == leader else 0 for s in range(4)]
    assert mid.of(chips(leader=7, me=-1, last=-1, third=-1), marched) == 0.0
    mine = [5 if s == me else 0 for s in range(4)]
    assert mid.of(chips(me=7, leader=-1, last=-1, third=-1), mine) == 1.0
    final = _ChipReward(replace(view, hand_no=12, scores=scores), variant)
    assert final.of(chips(me=5)) == 1.0
    assert final.of(chips(me=4)) == 0.5  # tied at the top: another deal decides
    assert final.of(chips(me=3)) == 0.0
    # A deal breaking a tie for the most chips ends the game too, deals left or not.
    tie_break = _ChipReward(replace(view, hand_no=6, scores=scores, tie_break=True), variant)
    assert tie_break.of(chips(me=5)) == 1.0
    assert tie_break.of(chips(me=3)) == 0.0


@pytest.mark.parametrize("variant", ["three_hand", "two_hand", "auction"])
def test_solo_tables_bid_as_normal_and_search_the_play(variant: str) -> None:
    """Three- and two-hand (RULES.md §5) and Auction (§7): the normal level decides the
    bidding, the discard and the called card (its bids beat the search's, see
    ``NORMAL_BIDS``); the cards are searched."""
    from engine.players.heuristic import HeuristicPlayer

    hard = SearchPlayer(seed=3, iterations=20)
    searched = False
    for seed in range(3):
        game = Game(variant, seed=seed)
        game.deal()
        while game.turn is not None:
            seat = game.turn
            view = game.view(seat)
            action = hard.choose(view, view.legal_actions)
            bidding = view.phase in (
                Phase.BIDDING_1,
                Phase.BIDDING_2,
                Phase.DISCARD,
                Phase.AUCTION,
                Phase.CALLING,
            )
            if len(view.legal_actions) > 1 and bidding:
                assert action == HeuristicPlayer(hard._stream(view)).choose(
                    view, view.legal_actions
                )
                assert hard.last_iterations == 0
            elif len(view.legal_actions) > 1 and view.phase is Phase.PLAY:
                searched |= hard.last_iterations > 0
            game.apply(seat, action)
    assert searched


def test_the_search_reports_how_sure_it_is() -> None:
    """A hint's "how sure": after a searched decision ``last_shares`` gives each legal
    action's share of the search (summing to 1), and in play the chosen card is the
    most visited one; a forced move runs no search and reports nothing."""
    game = Game("tuque", seed=3)
    game.deal()
    player = SearchPlayer(seed=1, iterations=120)
    searched_play = False
    while (seat := game.turn) is not None:  # the first hand, to its end
        view = game.view(seat)
        action = player.choose(view, view.legal_actions)
        shares = player.last_shares
        if len(view.legal_actions) == 1:
            assert shares == {}
        else:
            assert set(shares) <= {a.id for a in view.legal_actions}
            assert abs(sum(shares.values()) - 1) < 1e-9
            if view.phase is Phase.PLAY:
                assert shares[action.id] == max(shares.values())
                searched_play = True
        game.apply(seat, action)
    assert searched_play


def _first_bids(variant: str, seeds: range) -> list[PlayerView]:
    """The first bidding view of each seed's deal."""
    views = []
    for seed in seeds:
        game = Game(variant, seed=seed)
        game.deal()
        views.append(game.view(game.turn))
    return views


def test_euchre_bids_without_a_maker_edge_by_default() -> None:
    """Four-hand Euchre's default ``maker_edge`` is 0 (MAKER_EDGE), Tuque's 0.4: on bids
    where the two edges choose differently, the default takes the variant's own."""
    for variant, own, other in (("euchre", 0.0, 0.4), ("tuque", 0.4, 0.0)):
        differ = 0
        for view in _first_bids(variant, range(40)):
            picks = {
                edge: SearchPlayer(seed=3, iterations=300, maker_edge=edge).choose(
                    view, view.legal_actions
                )
                for edge in (own, other)
            }
            if picks[own] != picks[other]:
                differ += 1
                default = SearchPlayer(seed=3, iterations=300).choose(view, view.legal_actions)
                assert default == picks[own]
        assert differ > 0
