"""Skill ratings: OpenSkill's Plackett-Luce model, kept apart from SQL.

Why OpenSkill Plackett-Luce: it rates teams as well as single players, and
rankings of any number of teams, so the same code serves two-player Tuque (two
teams of one), the partnership games (two teams of two or three, the partners
sharing their side's place) and the each-for-themself games (a ranking of two to
six teams of one, ties sharing a place); it is Bayesian like TrueSkill (a mean
``mu`` and an uncertainty ``sigma`` per player, so new players move fast and
settle), and it is openly licensed. Plackett-Luce was the library's default model
before models became an explicit choice, and is the one its documentation's
examples use.

The model's ordinal ``mu - 3 * sigma`` is a conservative estimate that starts at 0
and rises as a player wins and as their uncertainty shrinks, so one lucky win does
not top the leaderboard. Members never see it as such: they see ``1000 + round(10 *
ordinal)`` (``bot.render.rating_text``): a new player reads 1000, a two-player game's
first winner 1034 and its loser 982 (not 3.4 and -1.8); the order and the gaps are
the ordinal's.

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
        """The conservative rating ``mu - 3 * sigma``; 0.0 for a new player, whom members
        see at 1000 (``bot.render.rating_text``)."""
        return self.mu - ORDINAL_Z * self.sigma


#: The rating of a player who has never played a rated game.
DEFAULT_RATING = Rating(MODEL.mu, MODEL.sigma)


def rate(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """Return every team's new ratings, in the order given.

    ``teams`` are the sides of a game (one player each in Tuque and the
    each-for-themself games, two or three partners in team games, who share the
    result); ``ranks`` their places, 1 the best, equal for a tie. Raises
    ``ValueError`` for fewer than two teams, an empty team or a rank per team missing.
    """
    if len(teams) < 2 or any(not team for team in teams) or len(ranks) != len(teams):
        raise ValueError("a rated game needs two or more teams of rated players, each ranked")
    models = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    new = MODEL.rate(models, ranks=list(ranks))
    return [[Rating(p.mu, p.sigma) for p in team] for team in new]
