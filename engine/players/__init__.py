"""Computer players: one interface for every level, each seeded and deterministic.

A player gets only a :class:`~engine.view.PlayerView` and the legal actions, and
returns one of those actions. The engine never knows which seats are computers.

Levels (``make_player``): ``random``; ``easy`` (a casual player with human-like
slips); ``normal`` (the heuristic player); ``hard`` (information-set Monte Carlo
tree search with a time or iteration budget).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any, Protocol

from engine.actions import Action
from engine.view import PlayerView

__all__ = ["LEVELS", "Player", "make_player"]


class Player(Protocol):
    """A computer player: ``choose`` returns one of ``legal`` for the seat that ``view`` shows."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Pick an action; ``legal`` is never empty and ``view.seat`` is to act."""
        ...


# Imported lazily so that loading the engine does not load the search code.
LEVELS: dict[str, str] = {
    "random": "engine.players.random:RandomPlayer",
    "easy": "engine.players.heuristic:CasualPlayer",
    "normal": "engine.players.heuristic:HeuristicPlayer",
    "hard": "engine.ai.search:SearchPlayer",
}
"""Level name -> ``module:class`` of its player."""


def make_player(level: str, seed: int | None = None, **settings: Any) -> Player:
    """A player of ``level`` seeded with ``seed``; ``settings`` go to its constructor.

    Raises:
        ValueError: unknown level (the message lists the known ones).
    """
    try:
        target = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}") from None
    module, name = target.split(":")
    factory: Callable[..., Player] = getattr(import_module(module), name)
    return factory(seed=seed, **settings)
