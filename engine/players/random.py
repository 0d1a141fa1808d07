"""The ``random`` level: a uniformly random legal action, for benches and tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action
from engine.view import PlayerView

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Picks uniformly among the legal actions with its own seeded :class:`random.Random`.

    Args:
        seed: seeds the player's RNG; the same seed and the same calls give the same actions.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One of ``legal``, uniformly at random (the view is not looked at)."""
        return legal[self._rng.randrange(len(legal))]
