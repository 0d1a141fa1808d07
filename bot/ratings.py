"""Skill ratings: OpenSkill's Plackett-Luce model, kept apart from SQL.

Why OpenSkill Plackett-Luce: it rates teams as well as single players, so the
same code serves two-player Tuque (two teams of one) and four-player partnership
Euchre (two teams of two, the partners sharing the result); it is Bayesian like
TrueSkill (a mean ``mu`` and an uncertainty ``sigma`` per player, so new players
move fast and settle), and it is openly licensed. Plackett-Luce was the
library's default model before models became an explicit choice, and is the one
its documentation's examples use.

The number shown to players is the ordinal ``mu - 3 * sigma``: a conservative
estimate that starts at 0 and rises as a player wins and as their uncertainty
shrinks, so one lucky win does not top the leaderboard.

Who is rated: only games in which every seat is a human. Games with a computer
seat are never rated and are not counted in the leaderboard's wins and losses;
``/stats`` shows them separately as the record against the computer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()

#: How many standard deviations the displayed rating sits below the mean.
ORDINAL_Z = 3.0


@dataclass(frozen=True)
class Rating:
    """A player's skill belief: mean ``mu`` and standard deviation ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The displayed rating, ``mu - 3 * sigma``; 0.0 for a new player."""
        return self.mu - ORDINAL_Z * self.sigma


#: The rating of a player who has never played a rated game.
DEFAULT_RATING = Rating(MODEL.mu, MODEL.sigma)


def rate_two_sides(
    winners: Sequence[Rating], losers: Sequence[Rating]
) -> tuple[list[Rating], list[Rating]]:
    """Return the new ratings of a winning and a losing team, in the order given.

    Each side is one or more players (partners share the result). Raises
    ``ValueError`` if a side is empty.
    """
    if not winners or not losers:
        raise ValueError("both sides need at least one rated player")
    teams = [
        [MODEL.rating(mu=r.mu, sigma=r.sigma) for r in winners],
        [MODEL.rating(mu=r.mu, sigma=r.sigma) for r in losers],
    ]
    new_winners, new_losers = MODEL.rate(teams, ranks=[0, 1])
    return (
        [Rating(p.mu, p.sigma) for p in new_winners],
        [Rating(p.mu, p.sigma) for p in new_losers],
    )
