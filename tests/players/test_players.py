"""Computer players: legality, determinism, and the heuristic's behaviour on explicit deals."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.actions import Action, Bid, Discard, GoAlone, OrderUp, Pass, Play, TakeUp
from engine.cards import Card, Suit
from engine.game import Game
from engine.players import make_player
from engine.players.heuristic import CasualPlayer, HeuristicPlayer
from engine.view import Phase

LEVELS = ("random", "easy", "normal")
CONFIGS = (
    ("tuque", {"target": 5}),
    ("tuque61", {"target": 15}),
    ("euchre", {}),
    ("euchre", {"stick_the_dealer": True}),
)


def play_game(variant: str, levels: list[str], seed: int, **options: object) -> Game:
    """A whole game with ``levels[seat]`` at each seat; every chosen action is checked legal."""
    game = Game(variant, seed=seed, **options)
    players = [make_player(level, seed * 10 + s) for s, level in enumerate(levels)]
    while game.phase is not Phase.GAME_OVER:
        seat = game.turn
        if seat is None:
            game.deal()
            continue
        view = game.view(seat)
        action = players[seat].choose(view, view.legal_actions)
        assert action in game.legal_actions(seat)
        game.apply(seat, action)
    return game


def decide(game: Game, player: HeuristicPlayer | None = None) -> Action:
    """What ``player`` (default: a seeded heuristic) does for the seat to act."""
    assert game.turn is not None
    view = game.view(game.turn)
    return (player or HeuristicPlayer(seed=1)).choose(view, view.legal_actions)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("variant", "options"), CONFIGS)
def test_never_makes_an_illegal_move(level: str, variant: str, options: dict) -> None:
    """Every level only picks legal actions, against itself and against random, in every variant."""
    players = 2 if variant.startswith("tuque") else 4
    for seed in range(4):
        play_game(variant, [level] * players, seed, **options)
        play_game(variant, [level, "random"] * (players // 2), seed, **options)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("variant", "options"), CONFIGS)
def test_same_seed_same_actions(level: str, variant: str, options: dict) -> None:
    """A level seeded alike plays a seeded game exactly alike."""
    players = 2 if variant.startswith("tuque") else 4
    first = play_game(variant, [level] * players, 7, **options).to_record()
    again = play_game(variant, [level] * players, 7, **options).to_record()
    assert first == again


def test_tuque_orders_up_a_strong_hand(deal) -> None:
    """Tuque: the non-dealer orders up with the Bens, both Bowers and high trumps."""
    game = deal(
        "tuque",
        dealer=1,
        hands={0: "B3 B2 B1 JH JD AH KH"},
        up={0: "QH TH AS AC AD"},
        up_card="9H",
    )
    assert decide(game) == OrderUp()


def test_tuque_passes_a_weak_hand(deal) -> None:
    """Tuque: the non-dealer passes with small cards and no trump."""
    game = deal(
        "tuque",
        dealer=1,
        hands={0: "6C 7C 6D 7D 6S 7S 8S"},
        up={0: "8C 8D 9S 9C 9D"},
        up_card="9H",
    )
    assert decide(game) == Pass()


def test_euchre_orders_up_a_strong_hand(deal) -> None:
    """Euchre: eldest orders up holding both Bowers, the ace of trumps and an off ace."""
    game = deal("euchre", dealer=3, hands={0: "JH JD AH KH AC"}, up_card="9H")
    assert decide(game) == OrderUp()


def test_euchre_passes_a_weak_hand(deal) -> None:
    """Euchre: eldest passes with no trump and no ace."""
    game = deal("euchre", dealer=3, hands={0: "9C TC 9S TD QD"}, up_card="9H")
    assert decide(game) == Pass()


def test_euchre_dealer_takes_up_a_strong_hand(deal, act) -> None:
    """Euchre: the dealer takes up the Right Bower with the Left, two trumps and two aces."""
    game = deal("euchre", dealer=3, hands={3: "JD AH KH AC AS"}, up_card="JH")
    act(game, "pass", "pass", "pass")
    assert decide(game) == TakeUp()


def test_discards_the_lowest_off_suit_card(deal, act) -> None:
    """The dealer discards its lowest off-suit card, keeping trumps and the off ace."""
    game = deal("euchre", dealer=3, hands={3: "JH KH 9C TC AS"}, up_card="AH")
    act(game, "pass", "pass", "pass", "take", "pass")
    assert decide(game) == Discard(Card.parse("9C"))


def test_plays_the_cheapest_winning_card(deal, act) -> None:
    """Tuque: following a led ten, it wins with the queen, not the ace."""
    game = deal(
        "tuque",
        dealer=1,
        hands={0: "TC", 1: "9C QC AC 8D 9D TD QD"},
        up={1: "6S 7S 8S 6D 7D"},
        up_card="9H",
    )
    act(game, "order", "discard 9H", "play TC")
    assert decide(game) == Play(Card.parse("QC"))


def _partner_winning(deal, act) -> Game:
    """Euchre, hearts trump: seat 3 last to a spade trick its partner wins with the ace."""
    game = deal(
        "euchre",
        dealer=3,
        hands={
            0: "9S TC QD KD AD",
            1: "AS 9C QC KC JD",
            2: "TS QS KS JC AC",
            3: "JH QH KH 9D TD",
        },
        up_card="9H",
    )
    act(game, "pass", "order", "pass", "discard 9D", "play 9S", "play AS", "play TS")
    return game


def test_does_not_trump_partners_winning_trick(deal, act) -> None:
    """Euchre: void in the led suit while partner wins, it throws its off-suit card."""
    game = _partner_winning(deal, act)
    assert decide(game) == Play(Card.parse("TD"))


def test_casual_slip_never_trumps_partners_trick(deal, act) -> None:
    """Even slipping at every decision, the easy level keeps its trumps off partner's trick."""
    game = _partner_winning(deal, act)
    for seed in range(10):
        assert decide(game, CasualPlayer(seed=seed, slip=1.0)) == Play(Card.parse("TD"))


def test_casual_slip_keeps_trumps_and_aces_in_the_discard(deal, act) -> None:
    """Slipping at every decision, the easy level still discards its small club, not an ace."""
    game = deal("euchre", dealer=3, hands={3: "JH KH 9C AC AS"}, up_card="AH")
    act(game, "pass", "pass", "pass", "take", "pass")
    for seed in range(10):
        assert decide(game, CasualPlayer(seed=seed, slip=1.0)) == Discard(Card.parse("9C"))


def test_casual_slip_never_goes_alone_on_a_fair_hand(deal, act) -> None:
    """Slipping at every decision, the easy level does not go alone without a lay-down."""
    game = deal("euchre", dealer=3, hands={0: "JH AH 9H AC KS"}, up_card="TH")
    act(game, "order")
    for seed in range(10):
        assert decide(game, CasualPlayer(seed=seed, slip=1.0)) == Pass()


def test_defender_leads_an_off_suit_ace(deal, act) -> None:
    """Euchre: a defender on lead with no trump leads its off-suit ace."""
    game = deal("euchre", dealer=3, hands={0: "AC 9S TS 9D TD"}, up_card="9H")
    act(game, "pass", "order", "pass")
    while game.phase is Phase.DISCARD:
        act(game, str(decide(game)))
    assert decide(game) == Play(Card.parse("AC"))


def test_maker_leads_high_trump(deal, act) -> None:
    """Euchre: a maker on lead with both Bowers leads the Right Bower to draw trumps."""
    game = deal("euchre", dealer=3, hands={0: "JH JD AH 9S AC"}, up_card="9H")
    act(game, "order", "pass")
    act(game, str(decide(game)))  # the dealer's discard
    assert decide(game) == Play(Card.parse("JH"))


def test_does_not_go_alone_on_a_fair_hand(deal, act) -> None:
    """Euchre: a maker with one Bower, two trumps, an ace and two small cards plays
    with its partner."""
    game = deal("euchre", dealer=3, hands={0: "JH AH AC 9S TD"}, up_card="TH")
    act(game, "order")
    assert decide(game) == Pass()


def test_goes_alone_with_three_trumps_and_one_loser(deal, act) -> None:
    """Four-hand Euchre: a maker with the Right Bower, the trump ace, a third trump, an
    off ace and a bare king goes alone: a lone march is likely enough to pay."""
    game = deal("euchre", dealer=3, hands={0: "JH AH 9H AC KS"}, up_card="TH")
    act(game, "order")
    assert decide(game) == GoAlone()


def test_euchre_dealer_discards_to_void_a_suit(deal, act) -> None:
    """Four-hand Euchre: taking up, the dealer throws its lone queen of spades, not
    the lower nine of clubs beside the ten: a void to ruff with."""
    game = deal("euchre", dealer=3, hands={3: "JH KH 9C TC QS"}, up_card="AH")
    act(game, "pass", "pass", "pass", "take", "pass")
    assert decide(game) == Discard(Card.parse("QS"))


def test_maker_with_three_trumps_leads_its_highest(deal, act) -> None:
    """Four-hand Euchre: a maker on lead with three trumps, neither Bower among them,
    leads its trump ace to draw trumps before cashing its off ace."""
    game = deal("euchre", dealer=3, hands={0: "AH KH 9H AC 9S"}, up_card="TH")
    act(game, "order", "pass")
    act(game, str(decide(game)))  # the dealer's discard
    assert decide(game) == Play(Card.parse("AH"))


def test_second_hand_cashes_the_top_card_of_the_suit_led(deal, act) -> None:
    """Four-hand Euchre: second to a club trick, it plays the master ace of clubs at
    once rather than the ten: the suit may not come round again unruffed."""
    game = deal(
        "euchre",
        dealer=3,
        hands={0: "9C QD KD 9S TS", 1: "AC TC 9D TD QS", 3: "JH QH KH JS AD"},
        up_card="9H",
    )
    act(game, "pass", "pass", "pass", "take", "pass", "discard JS", "play 9C")
    assert decide(game) == Play(Card.parse("AC"))


def test_goes_alone_on_a_lay_down(deal, act) -> None:
    """Euchre: a maker holding the five top trumps goes alone."""
    game = deal("euchre", dealer=3, hands={0: "JH JD AH KH QH"}, up_card="9H")
    act(game, "order")
    assert decide(game) == GoAlone()


def test_stuck_dealer_names_its_best_suit(deal, act) -> None:
    """Tuque: stuck in round 2, the dealer names the suit of its Bowers and aces."""
    game = deal(
        "tuque",
        dealer=1,
        hands={1: "JS JC AS KS QS 6D 7D"},
        up={1: "AC 6H 7H 8H 9D"},
        up_card="9H",
    )
    act(game, "pass", "pass", "pass")
    assert str(decide(game)) == "name S"


def test_casual_rejects_a_bad_slip() -> None:
    """The easy level's slip must be a probability."""
    with pytest.raises(ValueError, match="slip"):
        CasualPlayer(slip=1.5)


def test_heuristic_beats_random_at_tuque() -> None:
    """Smoke test: the normal level wins clearly more than half of 40 Tuque games to 5."""
    wins = 0
    for seed in range(20):
        wins += play_game("tuque", ["normal", "random"], seed, target=5).winner == 0
        wins += play_game("tuque", ["random", "normal"], seed, target=5).winner == 1
    assert wins >= 30


def test_names_its_suit_when_a_ben_is_turned_up(deal) -> None:
    """Tuque: with a Ben turned up, the non-dealer orders it up naming its long, strong suit."""
    game = deal(
        "tuque",
        dealer=1,
        hands={0: "JS JC AS KS QS TS 9S"},
        up={0: "AC AD AH 8S 7S"},
        up_card="B3",
    )
    assert str(decide(game)) == "order S"


def test_prefers_uncovering_a_face_down_card(deal, act) -> None:
    """Tuque: losing anyway, it plays its tableau eight (turning a card up), not the seven."""
    game = deal(
        "tuque",
        dealer=1,
        hands={0: "AC", 1: "7C 6D 7D 8D 9D TD QD"},
        up={1: "8C 6S 7S 8S 9S"},
        up_card="9H",
    )
    act(game, "order", "discard 9H", "play AC")
    assert decide(game) == Play(Card.parse("8C"))


def _call_ace_partner_last(deal, act) -> Game:
    """Call-Ace, clubs trump: maker seat 1 calls diamonds, whose ace the dealer (seat 0)
    holds, so seat 0 knows it is the secret partner; seat 1's AH wins the trick so far
    and seat 0, void in hearts, plays last."""
    game = deal(
        "call_ace",
        dealer=0,
        hands={
            0: "AD KD QD JD 9S",
            1: "JC JS AC AH TD",
            2: "B1 KC QC 9H TS",
            3: "KH QH AS KS 9D",
        },
        up_card="9C",
    )
    act(game, "order", "discard 9S", "call D", "play AH", "play 9H", "play QH")
    return game


def test_call_ace_partner_who_knows_itself_does_not_trump_the_makers_trick(deal, act) -> None:
    """§7: holding the called suit's ace, the partner throws off on the maker's winning
    trick instead of trumping it."""
    game = _call_ace_partner_last(deal, act)
    assert decide(game) == Play(Card.parse("JD"))


def test_call_ace_defender_trumps_the_maker_when_the_partner_is_unknown(deal, act) -> None:
    """§7: a seat that cannot tell it is on the maker's side takes the trick as usual."""
    game = _call_ace_partner_last(deal, act)
    view = game.view(0)
    # The same position, but the called suit's ace is not the viewer's: it cannot know.
    stranger = replace(view, called_suit=Suit.SPADES)
    assert HeuristicPlayer(seed=1).choose(stranger, view.legal_actions) == Play(Card.parse("9C"))


def test_casual_auction_bid_slips_one_level_either_way() -> None:
    """§7 Auction: where normal bids 4 spades, a slipping easy level bids 3 or 5 spades
    (a timid or a bold bid, as in the other games' bidding), never anything else."""
    game = Game("auction", seed=6)
    game.deal()
    view = game.view(1)
    assert game.turn == 1 and decide(game) == Bid(4, Suit.SPADES)
    slips = {CasualPlayer(seed=s, slip=1.0).choose(view, view.legal_actions) for s in range(20)}
    assert slips == {Bid(3, Suit.SPADES), Bid(5, Suit.SPADES)}


FAMILY = {
    "british": ("british", {}),
    "three_hand": ("three_hand", {"target": 5}),
    "two_hand": ("two_hand", {"target": 5}),
    "six_hand": ("six_hand", {}),
    "six_hand, double pack": ("six_hand", {"double_pack": True}),
    "almonte": ("almonte", {"dealer_must_make": True}),
    "call_ace": ("call_ace", {"players": 6}),
    "jackpot": ("jackpot", {"players": 5}),
    "auction": ("auction", {"pack": 32, "target": 25}),
}
"""Each table of RULES.md §4–§7 by name: its variant and options."""


def seats(variant: str, options: dict) -> int:
    return Game(variant, **options).variant.players


@pytest.mark.parametrize("table", FAMILY)
def test_many_seeded_games_of_every_family_variant_finish_legally(table: str) -> None:
    """RULES.md §4–§7: 60 seeded games per variant, levels mixed around the table; every
    action legal, every game over with its winner at the top (bench/soak.py runs thousands)."""
    variant, options = FAMILY[table]
    n = seats(variant, options)
    # An Auction table with a random bidder may never reach the target: its 15-point bids are
    # deducted from it and from the partner it calls, so every score can drift below zero.
    third = "easy" if variant == "auction" else "random"
    mixes = (["normal"] * n, ["easy", "normal"] * n, ["normal", "easy", third] * n)
    for seed in range(60):
        game = play_game(variant, mixes[seed % 3][:n], seed, **options)
        assert game.winner is not None
        assert game.scores[game.winner] == max(game.scores)


@pytest.mark.parametrize("table", FAMILY)
def test_hard_plays_every_family_variant(table: str) -> None:
    """The search player takes every §4–§7 decision legally (a small fixed budget)."""
    variant, options = FAMILY[table]
    n = seats(variant, options)
    game = Game(variant, seed=2, **options)
    players = [
        make_player("hard", seed=s, iterations=12) if s % 2 == 0 else make_player("normal", seed=s)
        for s in range(n)
    ]
    phases = set()
    while game.phase is not Phase.GAME_OVER and game.hand_no <= 4:
        seat = game.turn
        if seat is None:
            game.deal()
            continue
        view = game.view(seat)
        phases.add(view.phase)
        action = players[seat].choose(view, view.legal_actions)
        assert action in view.legal_actions
        game.apply(seat, action)
    assert Phase.PLAY in phases
