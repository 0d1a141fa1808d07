"""Variants as data: deal shapes, targets and adjustable options, hashing, switch types."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Literal, get_args, get_origin, get_type_hints

import pytest

from engine.game import Game
from engine.variants import VARIANTS, Choices, Variant, get_variant


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


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_hashes_and_serves_as_a_key(name: str) -> None:
    """Every variant hashes, so it can be a dict key and a set member."""
    v = get_variant(name)
    assert isinstance(hash(v), int) and {v: name}[v] == name and v in {v}


@pytest.mark.parametrize("name", VARIANTS)
def test_equal_variants_hash_equal(name: str) -> None:
    """A variant rebuilt field by field (its choices too) is equal and hashes equal."""
    v = get_variant(name)
    copy = replace(v, choices=Choices(dict(reversed(list(v.choices.items())))))
    assert copy is not v and copy == v and hash(copy) == hash(v)


def test_configured_variants_hash_by_their_table() -> None:
    """The same table configured twice is one key; another seat count is another."""
    v = get_variant("call_ace")
    five, again, six = (v.configured(v.options(players=n)) for n in (5, 5, 6))
    assert len({five, again, six}) == 2 and five == again and hash(five) == hash(again)


def test_variants_are_distinct_set_members() -> None:
    """No two registered variants are equal."""
    assert len(set(VARIANTS.values())) == len(VARIANTS)


def test_choices_read_as_a_mapping() -> None:
    """Choices read like the dict they are built from and compare equal to it."""
    choices = get_variant("three_hand").choices
    assert choices == {"target": (5, 7, 10), "pack": (25, 24)}
    assert (choices.get("pack"), choices.get("players"), "target" in choices) == (
        (25, 24),
        None,
        True,
    )


_HINTS = {f.name: get_type_hints(Variant)[f.name] for f in fields(Variant)}
"""Each field of :class:`Variant` and its type."""
_SWITCHES = {name: hint for name, hint in _HINTS.items() if get_origin(hint) is Literal}
"""The text switches of :class:`Variant` and their Literal types."""


def test_every_text_field_but_the_names_is_a_typed_switch() -> None:
    """A text field is a name, a title or a rule reference; each switch has a Literal type."""
    text = {name for name, hint in _HINTS.items() if hint is str}
    assert (text, set(_SWITCHES)) == (
        {"name", "title", "rules"},
        {"alone", "ben_up", "makers", "bidding"},
    )


@pytest.mark.parametrize("name", VARIANTS)
def test_switches_take_their_types_values(name: str) -> None:
    """Each switch of each variant is one of its Literal type's values."""
    v = get_variant(name)
    bad = {s: getattr(v, s) for s, hint in _SWITCHES.items() if getattr(v, s) not in get_args(hint)}
    assert not bad
