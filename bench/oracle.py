"""An oracle for the strength bench: the search player shown every other seat's hand.

Not a level and never offered to players. It answers one question: how much of a
match's result is within reach of *any* player? ``OraclePlayer`` is the hard level
with its sampler swapped for the true deal: every iteration sees the other seats'
real hands (face-down tableau cards, unknown to everyone, are still sampled). The
rest is unchanged — the same bidding playouts, the same tree search in play, the
same reward — so the gap between hard and the oracle is what hard loses by not
seeing the cards (docs/ai.md "How high can hard go").

Usage (through ``bench/strength.py``)::

    python -m bench.strength --variant euchre --a oracle --b normal --hands 1000 \\
        --setting a.iterations=300
"""

from __future__ import annotations

import random
from typing import Any

from engine.ai.sampler import Sampler
from engine.ai.search import SearchPlayer
from engine.game import Game
from engine.variants import Variant
from engine.view import PlayerView


class _TrueDeal(Sampler):
    """A sampler whose every draw is the real deal of ``game`` (face-down cards aside)."""

    def __init__(self, view: PlayerView, game: Game) -> None:
        super().__init__(view)
        zones = game.zones()
        self.true_hands = {
            seat: zones[f"hand:{seat}"] for seat in range(view.players) if seat != view.seat
        }
        self.up_holder = -1  # the real hands already hold the up-card where it is

    def _hands(self, rng: random.Random) -> tuple[dict[int, int], list[int]]:
        rest = self.pool
        for mask in self.true_hands.values():
            rest &= ~mask
        free = [c for c in range(rest.bit_length()) if rest >> c & 1]
        return dict(self.true_hands), free


class OraclePlayer(SearchPlayer):
    """The hard level, seeing the other seats' hands in ``game`` (bench only).

    Args:
        game: the game being played; read at each decision, never changed.
        seed, **settings: as :class:`~engine.ai.search.SearchPlayer`.
    """

    def __init__(self, game: Game, seed: int | None = None, **settings: Any) -> None:
        super().__init__(seed=seed, **settings)
        self.game = game

    def _sampler(self, view: PlayerView, variant: Variant) -> Sampler:
        return _TrueDeal(view, self.game)
