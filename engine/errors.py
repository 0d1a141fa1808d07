"""The engine's errors. Every message is safe to show the player who caused it.

A message never names a card the player could not see; it may name the player's
own cards and anything public (the led suit, trump, the turned-down suit).
"""

from __future__ import annotations

__all__ = [
    "CardNotPlayable",
    "EngineError",
    "GameOver",
    "IllegalAction",
    "MustFollowSuit",
    "NotYourTurn",
    "RecordError",
    "TurnedDownSuit",
    "WrongPhase",
]


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class IllegalAction(EngineError):
    """The action is not legal in this state."""


class NotYourTurn(IllegalAction):
    """Another seat is to act."""


class WrongPhase(IllegalAction):
    """The action belongs to another phase (e.g. playing a card while trump is being made)."""


class MustFollowSuit(IllegalAction):
    """The player holds a card of the led suit and tried to play another."""


class TurnedDownSuit(IllegalAction):
    """Round 2 of bidding: the turned-down suit cannot be named."""


class CardNotPlayable(IllegalAction):
    """The card is not in the player's hand nor face-up on their tableau."""


class GameOver(IllegalAction):
    """The game has ended; no action applies."""


class RecordError(EngineError):
    """A saved game record is malformed, of an unknown version, or does not replay."""
