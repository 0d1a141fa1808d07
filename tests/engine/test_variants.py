"""Variants as data: deal shapes, targets and adjustable options."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.variants import VARIANTS, get_variant


@pytest.mark.parametrize(
    ("name", "players", "tricks", "kitty", "target", "stick"),
    [
        ("tuque", 2, 17, 4, 10, True),
        ("tuque61", 2, 17, 4, 61, True),
        ("euchre", 4, 5, 3, 10, False),
    ],
)
def test_variant_shape_and_defaults(name, players, tricks, kitty, target, stick) -> None:
    """Each variant's seats, tricks, kitty and default options follow RULES.md."""
    v = VARIANTS[name]
    assert (v.players, v.tricks, v.kitty_size, v.defaults.target, v.defaults.stick_the_dealer) == (
        players,
        tricks,
        kitty,
        target,
        stick,
    )


def test_tuque_short_game_is_to_five() -> None:
    """Tuque may be played to 5 (the short game)."""
    assert Game("tuque", target=5).options.target == 5


def test_tuque_always_sticks_the_dealer() -> None:
    """Stick the dealer is not an option in Tuque: it is always on."""
    with pytest.raises(ValueError, match="stick_the_dealer"):
        Game("tuque", stick_the_dealer=False)


def test_euchre_stick_the_dealer_is_an_option() -> None:
    """Euchre can be played with stick the dealer."""
    assert Game("euchre", stick_the_dealer=True).options.stick_the_dealer is True


@pytest.mark.parametrize("target", [0, -5, "10", 2.5])
def test_bad_target_is_refused(target) -> None:
    """The target must be a positive whole number."""
    with pytest.raises(ValueError, match="target"):
        Game("tuque", target=target)


def test_unknown_variant_lists_the_known_ones() -> None:
    """An unknown variant's error names the variants there are."""
    with pytest.raises(ValueError, match="tuque, tuque61, euchre"):
        get_variant("pepper")


def test_variant_name_is_case_insensitive() -> None:
    """Variant names are looked up in any case."""
    assert get_variant("Euchre") is VARIANTS["euchre"]


def test_bad_first_dealer_is_refused() -> None:
    """The first dealer must be one of the seats."""
    with pytest.raises(ValueError, match="first_dealer"):
        Game("tuque", first_dealer=2)


def test_first_dealer_comes_from_the_seed() -> None:
    """The same seed picks the same first dealer."""
    assert Game("euchre", seed=11).first_dealer == Game("euchre", seed=11).first_dealer
