"""bench/choices.py: recorded hands replayed, and each choice valued double dummy.

The recordings here are games of the normal level on every seat (no OpenSpiel needed:
the replay knows every card)."""

from __future__ import annotations

import pytest

from bench import choices, crossplay
from engine.actions import ACTIONS, Pass
from engine.cards import Rank
from engine.game import Game
from engine.players import make_player
from engine.view import Phase


def _recorded(seed: int, our_side: int) -> tuple[choices.Hand, str]:
    """A hand of four normal players, recorded as crossplay.py --record writes it."""
    game = Game("euchre", seed=seed, stick_the_dealer=True)
    game.deal()
    players = [make_player("normal", seed=seed * 8 + s) for s in range(4)]
    actions = []
    while (seat := game.turn) is not None:
        action = players[seat].choose(game.view(seat), game.legal_actions(seat))
        game.apply(seat, action)
        actions.append(action.id)
    line = crossplay.record_line(seed, our_side, actions)
    return choices.Hand(seed, our_side, tuple(ACTIONS[i] for i in actions)), line


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> list[choices.Hand]:
    recorded = [_recorded(seed, seed % 2) for seed in range(40)]
    path = tmp_path_factory.mktemp("record") / "hands.jsonl"
    path.write_text("\n".join(line for _, line in recorded) + "\n")
    read = choices.read(path)
    assert read == [hand for hand, _ in recorded]
    return read


def _first_lead(hand: choices.Hand) -> Game:
    game = choices.deal(hand)
    actions = iter(hand.actions)
    while game.phase is not Phase.PLAY:
        game.apply(game.turn, next(actions))
    return game


def test_each_round_one_pass_of_ours_is_replayed_against_a_bid(
    hands: list[choices.Hand],
) -> None:
    """One entry per pass our side made in round 1, at its seat from the dealer, worth
    as played what the solver gives the position at the first lead."""
    normal = make_player("normal", seed=1)
    seen = 0
    for hand in hands:
        found = choices.passes(hand, normal)
        game = choices.deal(hand)
        ours = []
        for action in hand.actions:
            if game.phase is not Phase.BIDDING_1:
                break
            seat = game.turn
            if isinstance(action, Pass) and game.variant.sides[seat] == hand.our_side:
                ours.append((seat - game.dealer - 1) % 4 + 1)
            game.apply(seat, action)
        assert [p.seat for p in found] == ours
        worth = crossplay.double_dummy(_first_lead(hand), hand.our_side)
        assert all(p.played == worth for p in found)
        assert all(0 <= p.trumps <= 5 and -4 <= p.bid <= 4 for p in found)
        seen += len(found)
    assert seen > 20


def test_an_opening_lead_is_never_worth_more_than_the_best_card(
    hands: list[choices.Hand],
) -> None:
    """Our side's leads only: the card led and every rule's card are worth at most the
    best card's figure, and the card led is worth what the solver gives after it."""
    leads = 0
    for hand in hands:
        found = choices.lead(hand)
        game = _first_lead(hand)
        if game.variant.sides[game.turn] != hand.our_side:
            assert found is None
            continue
        assert found is not None
        leads += 1
        assert found.led <= found.best and all(v <= found.best for v in found.rules)
        after = game.copy()
        after.apply(game.turn, hand.actions[len(game.log) - 1])
        assert found.led == crossplay.double_dummy(after, hand.our_side)
    assert 10 < leads < 40


def test_a_rule_with_no_card_to_lead_falls_back_to_the_card_led() -> None:
    """The rules on a hand with no trump: the trump rules have nothing to lead."""
    pack = Game("euchre", seed=5).variant.pack
    cards = [c for c in pack if c.rank is Rank.ACE][:1] + [c for c in pack if c.rank is Rank.NINE]
    for name, rule in choices.RULES.items():
        card = rule([], [], cards)
        assert (card is None) == (name in ("highest trump", "lowest trump"))


def test_the_report_has_both_parts(hands: list[choices.Hand]) -> None:
    lines = choices.report(hands[:10])
    assert lines[0].startswith("10 hands")
    assert any(line.startswith("round-1 passes") for line in lines)
    assert any(line.startswith("our opening leads") for line in lines)
    assert lines[-1].lstrip().startswith("all")
