"""Action records and their text notation."""

from __future__ import annotations

import pytest

from engine.actions import (
    ACTIONS,
    Action,
    Discard,
    GoAlone,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    TakeUp,
    parse_action,
)
from engine.cards import Card, Suit


@pytest.mark.parametrize("action", ACTIONS, ids=[str(a) for a in ACTIONS])
def test_text_round_trips(action: Action) -> None:
    """Every action parses back from its text to the interned instance."""
    assert parse_action(str(action)) is action


def test_there_are_299_actions_indexed_by_id() -> None:
    """ACTIONS holds 299 distinct actions, each at the position of its id."""
    assert (len(ACTIONS), len(set(ACTIONS)), [a.id for a in ACTIONS]) == (
        299,
        299,
        list(range(299)),
    )


def test_second_copies_take_ids_after_all_the_others() -> None:
    """The double pack's second copies (RULES.md §6) take ids from 203 on: discards, plays,
    gifts and calls of 9C' to AS' in turn, so no earlier id moves."""
    assert [str(ACTIONS[i]) for i in (202, 203, 226, 227, 251, 275, 298)] == [
        "call B3",
        "discard 9C'",
        "discard AS'",
        "play 9C'",
        "give 9C'",
        "call 9C'",
        "call AS'",
    ]


def test_the_first_94_ids_are_the_ones_saved_buttons_carry() -> None:
    """Ids are stable: the actions of §1–§3 keep the ids of stored component custom_ids."""
    assert [str(ACTIONS[i]) for i in (0, 1, 6, 11, 15, 16, 55, 93)] == [
        "pass",
        "order",
        "take",
        "name C",
        "alone",
        "discard 6C",
        "play 6C",
        "play B3",
    ]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("pass", Pass()),
        ("PASS", Pass()),
        ("order", OrderUp()),
        ("order h", OrderUp(Suit.HEARTS)),
        ("take spades", TakeUp(Suit.SPADES)),
        ("take", TakeUp()),
        ("name ♦", NameTrump(Suit.DIAMONDS)),
        ("Name Clubs", NameTrump(Suit.CLUBS)),
        ("alone", GoAlone()),
        ("discard 10c", Discard(Card.parse("TC"))),
        ("  play   b2 ", Play(Card.parse("B2"))),
        ("play 10H", Play(Card.parse("TH"))),
        ("play 10h'", Play(Card.parse("TH'"))),
    ],
)
def test_parse_is_lenient(text: str, action: Action) -> None:
    """Case, spacing, ``10`` and suit names or symbols are accepted."""
    assert parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    ["", "   ", "fold", "play", "play XX", "discard", "name", "name X", "order X", "pass now"],
)
def test_parse_rejects_what_is_no_action(text: str) -> None:
    """Anything else raises ValueError."""
    with pytest.raises(ValueError):
        parse_action(text)


def test_actions_are_equal_by_value_and_hashable() -> None:
    """Actions built twice are equal and hash alike (usable in sets and as keys)."""
    assert {Play(Card.parse("AS")), Play(Card.parse("AS")), NameTrump(Suit.HEARTS)} == {
        ACTIONS[Play(Card.parse("AS")).id],
        NameTrump(Suit.HEARTS),
    }
