"""Saved game records: format, versioning and refusal of records that do not replay."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RecordError
from engine.game import RECORD_FORMAT, RECORD_VERSION, Game


def played(game: Game, count: int) -> Game:
    """``game`` after ``count`` steps of always the first legal action (dealing when due)."""
    for _ in range(count):
        if game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, game.legal_actions(game.turn)[0])
    return game


def test_record_holds_the_header_and_every_entry_as_text() -> None:
    """A record names format, version, variant, options, seed and dealer, then the log."""
    game = played(Game("euchre", seed=5, first_dealer=2, stick_the_dealer=True), 4)
    record = game.to_record()
    assert (
        {k: v for k, v in record.items() if k != "actions"},
        record["actions"][0].startswith("deal "),
        record["actions"][1:],
    ) == (
        {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "variant": "euchre",
            "options": {"stick_the_dealer": True, "target": 10},
            "seed": 5,
            "first_dealer": 2,
        },
        True,
        [str(a) for a in game.log[1:]],
    )


def test_record_is_json() -> None:
    """A record survives a JSON round trip unchanged."""
    record = played(Game("tuque", seed=1), 30).to_record()
    assert json.loads(json.dumps(record)) == record


def test_rebuilt_game_deals_the_same_next_hand() -> None:
    """A game rebuilt from its record shuffles the next hand as the original would."""
    game = played(Game("tuque", seed=9), 45)
    while game.turn is not None:
        played(game, 1)
    rebuilt = Game.from_record(game.to_record())
    assert rebuilt.deal() == game.deal()


def test_new_game_rebuilt_deals_the_same_first_hand() -> None:
    """Even before any deal, the rebuilt game deals what the original would."""
    game = Game("euchre", seed=12)
    assert Game.from_record(game.to_record()).deal() == game.deal()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"format": "chess"}, "not a tuque-game record", id="format"),
        pytest.param({"version": 99}, "unsupported record version", id="version"),
        pytest.param({"variant": "pepper"}, "bad record header", id="variant"),
        pytest.param({"options": {"colour": "red"}}, "bad record header", id="option"),
        pytest.param({"actions": ["dance"]}, "does not replay", id="malformed entry"),
        pytest.param({"actions": ["pass"]}, "does not replay", id="action before the deal"),
        pytest.param({"variant": 7}, "bad record header: a variant is named", id="variant int"),
        pytest.param({"variant": ["tuque"]}, "a variant is named", id="variant list"),
        pytest.param({"seed": None}, "has no seed", id="seed null"),
        pytest.param({"first_dealer": None}, "has no first_dealer", id="first dealer null"),
        pytest.param(
            {"seed": None, "first_dealer": None}, "has no seed, first_dealer", id="both null"
        ),
        pytest.param({"seed": "12"}, "the seed must be a whole number", id="seed text"),
        pytest.param({"seed": 1.5}, "the seed must be a whole number", id="seed float"),
        pytest.param({"seed": True}, "the seed must be a whole number", id="seed bool"),
        pytest.param({"seed": [1]}, "the seed must be a whole number", id="seed list"),
        pytest.param({"seed": -1}, "the seed must be a whole number", id="seed negative"),
        pytest.param({"seed": 10**5000}, "the seed must be", id="seed of 5,000 digits"),
        pytest.param({"first_dealer": True}, "first_dealer must be a seat", id="dealer true"),
        pytest.param({"first_dealer": 2}, "first_dealer must be a seat", id="dealer 2"),
        pytest.param({"options": {"target": 10**30}}, "from 1 to 100", id="target 10**30"),
        pytest.param({"options": {"target": True}}, "whole number of points", id="target true"),
        pytest.param({"options": {"target": 0}}, "from 1 to 100", id="target 0"),
        pytest.param({"options": {"target": "10"}}, "whole number", id="target text"),
        pytest.param({"options": [1]}, "'options' must be an object", id="options list"),
        pytest.param({"options": {1: 10}}, "'options' must be an object", id="option name 1"),
        pytest.param(
            {"options": {"seed": 1}}, "no adjustable option 'seed'", id="option named seed"
        ),
        pytest.param(
            {"options": {"self": 1}}, "no adjustable option 'self'", id="option named self"
        ),
        pytest.param(
            {"options": {"a\nb": 1}}, r"no adjustable option 'a\\nb'$", id="option name newline"
        ),
        pytest.param({"version": True}, "unsupported record version", id="version true"),
        pytest.param({"version": 10**5000}, "a number too long to show", id="huge version"),
        pytest.param({"colour": "red"}, "unknown fields 'colour'", id="unknown field"),
        pytest.param({"actions": "deal"}, "actions must be a list", id="actions text"),
    ],
)
def test_bad_record_is_refused(change: dict, message: str) -> None:
    """A record that is malformed or does not replay raises RecordError."""
    record = Game("tuque", seed=1).to_record() | change
    with pytest.raises(RecordError, match=message):
        Game.from_record(record)


def test_record_with_an_illegal_action_is_refused() -> None:
    """A logged action that is illegal where it stands raises RecordError."""
    record = played(Game("tuque", seed=1), 1).to_record()
    record["actions"].append("name H")
    with pytest.raises(RecordError, match="action 1"):
        Game.from_record(record)


def test_stick_the_dealer_must_be_true_or_false() -> None:
    """A saved "no" does not read as yes: only JSON true/false are accepted."""
    record = Game("euchre", seed=3).to_record()
    for value in ("no", 0, 1, "false", None, [True]):
        with pytest.raises(RecordError):
            Game.from_record(record | {"options": {"stick_the_dealer": value}})
    assert not Game.from_record(
        record | {"options": {"stick_the_dealer": False}}
    ).options.stick_the_dealer


def test_a_missing_field_is_refused_by_name() -> None:
    """Every field is required: a record must rebuild the same game every time."""
    record = played(Game("tuque", seed=4), 3).to_record()
    for name in record:
        expected = f"has no {name}|not a tuque-game record|unsupported record version"
        with pytest.raises(RecordError, match=expected):
            Game.from_record({k: v for k, v in record.items() if k != name})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value."""


def load(value: object) -> Game | None:
    """``Game.from_record(value)``, or ``None`` if it raised RecordError (whose message,
    printed by ``tuque replay`` as one line, must hold no newline)."""
    try:
        return Game.from_record(value)
    except RecordError as error:
        assert "\n" not in str(error)
        return None


_VALID = [
    played(Game("tuque", seed=21), 40).to_record(),
    played(Game("euchre", seed=22, stick_the_dealer=True), 25).to_record(),
    played(Game("tuque61", seed=23), 10).to_record(),
]


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_any_json_value_is_a_game_or_a_record_error(value: object) -> None:
    """Whatever JSON the loader is given, the only error it raises is RecordError."""
    load(value)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(_VALID),
    st.sampled_from(["format", "version", "variant", "options", "seed", "first_dealer", "actions"]),
    st.one_of(st.just(None), JSON, st.integers(min_value=-(2**70), max_value=2**70)),
    st.booleans(),
)
def test_a_mutated_record_is_a_game_or_a_record_error(
    record: dict, field: str, value: object, drop: bool
) -> None:
    """One field replaced by any JSON, or dropped: a Game or RecordError, nothing else;
    and a record that loads still round-trips."""
    mutated = {k: v for k, v in record.items() if k != field}
    if not drop:
        mutated[field] = value
    game = load(mutated)
    if game is not None:
        assert Game.from_record(game.to_record()).to_record() == game.to_record()


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_VALID), st.data())
def test_a_mutated_option_or_entry_is_a_game_or_a_record_error(
    record: dict, data: st.DataObject
) -> None:
    """An option or a log entry replaced by any JSON: a Game or RecordError."""
    mutated = json.loads(json.dumps(record))
    if data.draw(st.booleans()):
        name = data.draw(st.sampled_from(["target", "stick_the_dealer"]) | st.text(max_size=8))
        mutated["options"][name] = data.draw(JSON)
    else:
        index = data.draw(st.integers(0, len(mutated["actions"]) - 1))
        mutated["actions"][index] = data.draw(JSON | st.text(max_size=20))
    load(mutated)


@pytest.mark.parametrize("record", _VALID, ids=["tuque", "euchre", "tuque61"])
def test_a_valid_record_round_trips(record: dict) -> None:
    """A record the engine wrote loads back to the same record."""
    assert Game.from_record(record).to_record() == record
