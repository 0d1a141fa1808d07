"""Saved game records: format, versioning and refusal of records that do not replay."""

from __future__ import annotations

import json

import pytest

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
