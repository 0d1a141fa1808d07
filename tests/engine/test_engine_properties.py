"""Properties of the engine API over random states of every variant (hypothesis).

A state is reached from a hypothesis-chosen game seed by a hypothesis-chosen number of
steps, each step dealing when a deal is due or else taking a legal action picked by a
hypothesis-driven RNG.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from enum import Enum

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import ACTIONS, CallCard
from engine.cards import Card, cards_in
from engine.errors import IllegalAction
from engine.game import Game
from engine.view import Phase, PlayerView

CONFIGS = {
    "tuque to 5": ("tuque", {"target": 5}),
    "tuque61": ("tuque61", {}),
    "euchre": ("euchre", {}),
    "euchre, stick the dealer": ("euchre", {"stick_the_dealer": True}),
    "british": ("british", {}),
    "british, no alone after a pass": ("british", {"no_alone_after_pass": True}),
    "three_hand": ("three_hand", {"target": 5}),
    "three_hand, 24 cards": ("three_hand", {"pack": 24, "target": 5}),
    "two_hand": ("two_hand", {"target": 5}),
    "six_hand": ("six_hand", {}),
    "six_hand, double pack": ("six_hand", {"double_pack": True}),
    "almonte": ("almonte", {}),
    "almonte, dealer must make": ("almonte", {"dealer_must_make": True}),
    "call_ace": ("call_ace", {}),
    "call_ace for 5": ("call_ace", {"players": 5}),
    "call_ace for 6": ("call_ace", {"players": 6}),
    "jackpot": ("jackpot", {}),
    "jackpot for 6": ("jackpot", {"players": 6, "hands": 3}),
    "auction": ("auction", {}),
    "auction, 32 cards": ("auction", {"pack": 32}),
}

PROPERTY = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

configs = st.sampled_from(sorted(CONFIGS))
seeds = st.integers(min_value=0, max_value=2**32)
steps = st.integers(min_value=1, max_value=400)  # a Tuque game to 5 is ~180 steps
walks = st.integers(min_value=1, max_value=200)


def new_game(config: str, seed: int) -> Game:
    """A new game of ``config`` seeded with ``seed``."""
    variant, options = CONFIGS[config]
    return Game(variant, seed=seed, **options)


def step(game: Game, rng: random.Random) -> bool:
    """Deal if a deal is due, else apply a random legal action; False once the game is over."""
    if game.phase is Phase.GAME_OVER:
        return False
    if game.turn is None:
        game.deal()
    else:
        legal = game.legal_actions(game.turn)
        game.apply(game.turn, legal[rng.randrange(len(legal))])
    return True


def walk(config: str, seed: int, rng: random.Random, count: int) -> Iterator[Game]:
    """The game after each of up to ``count`` steps (the same object, mutated)."""
    game = new_game(config, seed)
    yield game
    for _ in range(count):
        if not step(game, rng):
            return
        yield game


def state(config: str, seed: int, rng: random.Random, count: int) -> Game:
    """The game after up to ``count`` steps."""
    game = new_game(config, seed)
    for _ in range(count):
        if not step(game, rng):
            break
    return game


def snapshot(game: Game) -> tuple:
    """Everything observable about a game: record, zones and every seat's view."""
    return game.to_record(), game.zones(), views(game)


def views(game: Game) -> list[PlayerView]:
    """Every seat's view, then the public one."""
    return [game.view(s) for s in [*range(game.variant.players), None]]


# --- every card in exactly one place ---------------------------------------------------------


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), walks)
def test_every_card_is_in_exactly_one_place(config, seed, rng, count) -> None:
    """After every deal and action the zones are disjoint and together hold the pack."""
    pack = sum(c.mask for c in new_game(config, seed).variant.pack)
    for game in walk(config, seed, rng, count):
        if game.phase is Phase.DEAL:
            continue
        union = 0
        for name, mask in game.zones().items():
            assert not union & mask, f"{name} overlaps another zone"
            union |= mask
        assert union == pack


# --- turns and legal actions --------------------------------------------------------------------


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), walks)
def test_seat_to_act_always_has_a_legal_action(config, seed, rng, count) -> None:
    """While a seat is to act it has a legal action and no other seat has any."""
    for game in walk(config, seed, rng, count):
        legal = [game.legal_actions(s) for s in range(game.variant.players)]
        if game.turn is None:
            assert game.phase in (Phase.DEAL, Phase.HAND_OVER, Phase.GAME_OVER)
            assert legal == [()] * game.variant.players
        else:
            assert [bool(a) for a in legal] == [s == game.turn for s in range(len(legal))]


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), steps)
def test_game_over_exactly_when_there_is_a_winner(config, seed, rng, count) -> None:
    """The game is over exactly when a side has won, with a score at least the target."""
    game = state(config, seed, rng, count)
    over = game.phase is Phase.GAME_OVER
    assert over == (game.winner is not None)
    if over:
        if game.variant.chips:  # Jackpot: the most chips, after a march or the last deal
            assert game.scores[game.winner] > max(
                s for side, s in enumerate(game.scores) if side != game.winner
            )
        else:
            assert game.scores[game.winner] >= game.options.target
        assert game.scores[game.winner] == max(game.scores) > min(game.scores)


@settings(PROPERTY, max_examples=80)
@given(configs, seeds, st.randoms(use_true_random=False), steps)
def test_listed_actions_apply_and_others_raise(config, seed, rng, count) -> None:
    """Of all the actions, every listed one applies (on a copy) and every other one raises."""
    game = state(config, seed, rng, count)
    before = snapshot(game)
    for seat in range(game.variant.players):
        legal = set(game.legal_actions(seat))
        for action in ACTIONS:
            if action in legal:
                game.copy().apply(seat, action)
            else:
                with pytest.raises(IllegalAction):
                    game.apply(seat, action)
    assert snapshot(game) == before


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), steps)
def test_check_agrees_with_the_legal_list(config, seed, rng, count) -> None:
    """``check`` and ``is_legal`` accept exactly the listed actions."""
    game = state(config, seed, rng, count)
    for seat in range(game.variant.players):
        legal = set(game.legal_actions(seat))
        accepted = set()
        for action in ACTIONS:
            try:
                game.check(seat, action)
            except IllegalAction:
                assert not game.is_legal(seat, action)
            else:
                accepted.add(action)
        assert accepted == legal


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), steps)
def test_copy_is_independent(config, seed, rng, count) -> None:
    """Acting on a copy leaves the original untouched."""
    game = state(config, seed, rng, count)
    before = snapshot(game)
    other = game.copy()
    for _ in range(40):
        if not step(other, rng):
            break
    assert snapshot(game) == before


@settings(PROPERTY, max_examples=20)
@given(configs, seeds, st.randoms(use_true_random=False), walks)
def test_a_kept_view_is_the_view_of_the_game_as_it_stands(config, seed, rng, count) -> None:
    """Views are built once a state and kept (issue 41): after every move each seat's
    view is the one a fresh copy builds, and a copy moved on alone shows its own state,
    never the kept views of the game it was copied from."""
    for game in walk(config, seed, rng, count):
        kept = views(game)
        assert views(game) == kept
        assert views(game.copy()) == kept
        other = game.copy()
        views(other)
        if step(other, rng):
            assert views(other) == views(other.copy())
            assert views(game) == kept


@settings(PROPERTY, max_examples=20)
@given(configs, seeds, st.randoms(use_true_random=False), walks)
def test_a_view_is_the_one_a_rebuilt_game_shows(config, seed, rng, count) -> None:
    """Views keep the hand's completed tricks from state to state (issue 41): after every
    move, each seat's view is the view of the game rebuilt from its record, whose tricks
    are built at once."""
    for game in walk(config, seed, rng, count):
        assert views(game) == views(Game.from_record(game.to_record()))


@settings(PROPERTY, max_examples=20)
@given(configs, seeds, st.randoms(use_true_random=False), walks)
def test_a_view_is_what_its_constructor_makes(config, seed, rng, count) -> None:
    """The engine builds a view from its fields' dict in one step (``PlayerView._of``,
    issue 41): each view has every field and no other, and equals, and reads as, the
    view that ``PlayerView(**fields)`` makes of the same values."""
    for game in walk(config, seed, rng, count):
        for view in views(game):
            values = {name: getattr(view, name) for name in VIEW_FIELDS}
            assert set(vars(view)) == VIEW_FIELDS
            made = PlayerView(**values)
            assert view == made
            assert repr(view) == repr(made)


# --- hidden information ---------------------------------------------------------------------------

VIEW_FIELDS = {
    "variant",
    "seat",
    "sides",
    "phase",
    "turn",
    "dealer",
    "hand_no",
    "hand",
    "hand_sizes",
    "tableaus",
    "up_card",
    "up_card_turned_down",
    "trump",
    "maker",
    "alone",
    "bids",
    "trick",
    "tricks",
    "tricks_won",
    "scores",
    "target",
    "stick_the_dealer",
    "discard",
    "last_hand",
    "legal_actions",
    "winner",
    "lone_defender",
    "out",
    "bid_suit",
    "called_suit",
    "called_card",
    "bid",
    "pool",
    "widow",
    "blind",
    "options",
    "discards",
    "tie_break",
    "bid_phases",
}


def cards_shown(value: object) -> set[Card]:
    """Every card reachable from ``value`` (a view field: tuples, records, actions, cards)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        return set().union(*map(cards_shown, value)) if value else set()
    if is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_shown(getattr(value, f.name)) for f in fields(value)))
    assert value is None or isinstance(value, int | str | Enum), f"unexpected {value!r}"
    return set()


def may_see(game: Game, seat: int | None) -> set[Card]:
    """The cards ``seat`` may see: own hand and discard, face-up tableaus, up-card, played."""
    zones = game.zones()
    public = zones["trick"] | zones["played"]
    for s in range(game.variant.players):
        public |= zones[f"tableau-up:{s}"]
    allowed = set(cards_in(public))
    if game.up_card is not None and game.phase is not Phase.DEAL:
        allowed.add(game.up_card)  # everyone saw it turned up, wherever it went
    if seat is not None:
        allowed |= set(cards_in(zones[f"hand:{seat}"]))
        allowed |= set(game.discards_of(seat))
    if game.view(None).called_card is not None:
        allowed.add(game.view(None).called_card)  # RULES.md §7 Auction: named aloud
    return allowed


def test_view_fields_are_the_audited_ones() -> None:
    """PlayerView has exactly the fields the hidden-information property audits."""
    assert {f.name for f in fields(PlayerView)} == VIEW_FIELDS


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), walks)
def test_view_never_shows_a_hidden_card(config, seed, rng, count) -> None:
    """No view shows another seat's hand, a face-down card, the kitty or another's discard."""
    for game in walk(config, seed, rng, count):
        for seat, view in zip([*range(game.variant.players), None], views(game), strict=True):
            shown = set()
            for f in fields(view):
                if f.name == "last_hand":  # the previous hand: its up-card was public then
                    continue
                value = getattr(view, f.name)
                if f.name == "legal_actions":
                    # RULES.md §7 Auction: the maker may call any card they do not hold, so
                    # the calls name the complement of their own hand, which they know,
                    # and nothing about where the other cards are (the widow's included).
                    calls = {a.card for a in value if isinstance(a, CallCard)}
                    if calls:
                        own = set(cards_in(game.zones()[f"hand:{seat}"]))
                        assert calls | own == set(game.variant.pack) and not calls & own
                    value = [a for a in value if not isinstance(a, CallCard)]
                shown |= cards_shown(value)
            assert shown <= may_see(game, seat), f"seat {seat} sees {shown - may_see(game, seat)}"


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), steps)
def test_view_shows_exactly_the_viewers_own_cards(config, seed, rng, count) -> None:
    """A seat's view holds its own hand, its own discard, and the true face-down counts."""
    game = state(config, seed, rng, count)
    zones = game.zones()
    for seat in range(game.variant.players):
        view = game.view(seat)
        hand = () if view.blind else tuple(cards_in(zones[f"hand:{seat}"]))
        assert view.hand == hand
        assert view.legal_actions == game.legal_actions(seat)
        assert view.discards == game.discards_of(seat)
        assert view.discard == (view.discards[-1] if view.discards else None)
        for s, piles in enumerate(view.tableaus):
            down = sum(pile.face_down for pile in piles)
            assert down == zones[f"tableau-down:{s}"].bit_count()


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), steps)
def test_public_view_has_no_hand(config, seed, rng, count) -> None:
    """The spectators' view holds no hand, no discard and no legal action."""
    game = state(config, seed, rng, count)
    view = game.view(None)
    assert (view.seat, view.hand, view.discard, view.legal_actions) == (None, (), None, ())


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), steps)
def test_last_hand_is_the_latest_result(config, seed, rng, count) -> None:
    """The views' ``last_hand`` is the latest finished hand, the same for everyone."""
    game = state(config, seed, rng, count)
    latest = game.hand_results[-1] if game.hand_results else None
    assert {v.last_hand for v in views(game)} == {latest}


# --- records ----------------------------------------------------------------------------------


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), steps)
def test_record_rebuilds_the_same_state(config, seed, rng, count) -> None:
    """A game rebuilt from its (JSON) record has the same record, zones and views."""
    game = state(config, seed, rng, count)
    rebuilt = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert snapshot(rebuilt) == snapshot(game)


@PROPERTY
@given(configs, seeds, st.randoms(use_true_random=False), steps)
def test_rebuilt_game_plays_on_like_the_original(config, seed, rng, count) -> None:
    """A rebuilt game and the original, given the same choices, stay identical (deals too)."""
    game = state(config, seed, rng, count)
    rebuilt = Game.from_record(game.to_record())
    choices = random.Random(seed)
    for _ in range(80):
        choice = choices.random()
        for g in (game, rebuilt):
            step(g, random.Random(choice))
    assert snapshot(rebuilt) == snapshot(game)


def test_replaying_the_log_entry_by_entry() -> None:
    """``replay`` of each logged entry rebuilds the game as ``from_record`` does."""
    game = state("tuque to 5", 7, random.Random(7), 120)
    record = game.to_record()
    replayed = Game("tuque", seed=record["seed"], first_dealer=record["first_dealer"], target=5)
    for entry in record["actions"]:
        replayed.replay(entry)
    assert snapshot(replayed) == snapshot(game)


@settings(PROPERTY, max_examples=20)
@given(configs, seeds, st.randoms(use_true_random=False), walks)
def test_the_log_read_in_part_is_the_log(config, seed, rng, count) -> None:
    """``log_length`` and ``log_from`` read the log without copying it whole."""
    for game in walk(config, seed, rng, count):
        log = game.log
        assert game.log_length == len(log)
        start = rng.randrange(len(log) + 2)
        assert game.log_from(start) == log[start:]
