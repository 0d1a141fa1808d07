"""Variants as data: pack, deal shape, seats and sides, bidding switches, scoring.

A :class:`Variant` says *what* a game of the family is; :mod:`engine.game` runs any
of them with one set of phase rules. ``docs/variants.md`` explains how to add one.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.cards import BENS, CARDS, RANKS, Card, Rank

__all__ = ["MAX_TARGET", "VARIANTS", "Options", "Variant", "get_variant"]

MAX_TARGET = 100
"""The highest target a game may set: past any table's patience (the family plays
to 5–61), and the hard player's game-value table grows with the target squared."""


@dataclass(frozen=True, slots=True)
class Options:
    """A game's adjustable rules.

    Attributes:
        target: points that win the game.
        stick_the_dealer: in round 2 the dealer may not pass (RULES.md §3 option;
            always on in Tuque, §1).
    """

    target: int
    stick_the_dealer: bool


ScoreHand = Callable[[int, int, bool], tuple[int, int]]
"""``(maker_tricks, defender_tricks, alone) -> (maker_points, defender_points)``."""


def score_tuque(m: int, d: int, alone: bool) -> tuple[int, int]:
    """RULES.md §1 Scoring: maker 1/2/3 for 9/12/15 tricks; else defender 2/3/4 (d < 12/≥12/≥15)."""
    if m >= 15:
        return 3, 0
    if m >= 12:
        return 2, 0
    if m >= 9:
        return 1, 0
    if d >= 15:
        return 0, 4
    if d >= 12:
        return 0, 3
    return 0, 2


def score_tuque61(m: int, d: int, alone: bool) -> tuple[int, int]:
    """RULES.md §2: a point a trick each; a defender with 9 or more tricks scores 2 a trick."""
    return m, (2 * d if d >= 9 else d)


def score_euchre(m: int, d: int, alone: bool) -> tuple[int, int]:
    """RULES.md §3 Scoring: 3–4 tricks 1, march 2, march alone 4; euchred: defenders 2."""
    if m == 5:
        return (4 if alone else 2), 0
    if m >= 3:
        return 1, 0
    return 0, 2


@dataclass(frozen=True, slots=True)
class Variant:
    """One game of the family, as data.

    Attributes:
        name: the key used in commands and saved games (``"tuque"``).
        title: display name.
        rules: the RULES.md section this variant follows.
        players: seats, numbered clockwise from 0.
        sides: the side of each seat (partners share a side).
        pack: the cards in play, in index order.
        tableau_piles: piles of one face-down card under one face-up card per player.
        hand_size: cards dealt to the hand.
        alone: whether the maker may go alone (their partner sits out).
        contract: tricks the makers must take; fewer and they are euchred.
        score_hand: points for a finished hand.
        defaults: the options a new game starts from.
        adjustable: names of the options a game may change.
    """

    name: str
    title: str
    rules: str
    players: int
    sides: tuple[int, ...]
    pack: tuple[Card, ...]
    tableau_piles: int
    hand_size: int
    alone: bool
    contract: int
    score_hand: ScoreHand
    defaults: Options
    adjustable: frozenset[str] = field(default_factory=frozenset)

    @property
    def tricks(self) -> int:
        """Tricks in a hand: every player plays every card they were dealt."""
        return 2 * self.tableau_piles + self.hand_size

    @property
    def kitty_size(self) -> int:
        """Cards left after the deal and the up-card; never used, never shown."""
        return len(self.pack) - self.players * self.tricks - 1

    def options(self, /, **changes: Any) -> Options:
        """The default options with ``changes`` applied (``None`` values are ignored).

        ``target`` is a whole number of points from 1 to ``MAX_TARGET``;
        ``stick_the_dealer`` is True or False (not a truthy value: a saved ``"no"``
        must not read as yes).

        Raises:
            ValueError: an option this variant does not let a game change, or a bad value.
        """
        changes = {k: v for k, v in changes.items() if v is not None}
        fixed = set(changes) - self.adjustable
        if fixed:
            # Names may come from a saved file: repr keeps a newline from splitting the message.
            names = ", ".join(reprlib.repr(name) for name in sorted(fixed))
            raise ValueError(f"{self.title} has no adjustable option {names}")
        opts = replace(self.defaults, **changes)
        target = opts.target
        if isinstance(target, bool) or not isinstance(target, int):
            raise ValueError("the target must be a whole number of points")
        if not 1 <= target <= MAX_TARGET:
            raise ValueError(f"the target must be from 1 to {MAX_TARGET} points")
        if not isinstance(opts.stick_the_dealer, bool):
            raise ValueError("stick_the_dealer must be true or false")
        return opts


def _suited(low: Rank) -> tuple[Card, ...]:
    return tuple(c for c in CARDS[:36] if c.rank is not None and c.rank.index >= low.index)


TUQUE = Variant(
    name="tuque",
    title="Tuque",
    rules="RULES.md §1",
    players=2,
    sides=(0, 1),
    pack=_suited(RANKS[0]) + BENS,
    tableau_piles=5,
    hand_size=7,
    alone=False,
    contract=9,
    score_hand=score_tuque,
    defaults=Options(target=10, stick_the_dealer=True),
    adjustable=frozenset({"target"}),
)
# §2 is §1 with another scoring and target.
TUQUE61 = replace(
    TUQUE,
    name="tuque61",
    title="Tuque to 61",
    rules="RULES.md §2",
    score_hand=score_tuque61,
    defaults=Options(target=61, stick_the_dealer=True),
)
EUCHRE = Variant(
    name="euchre",
    title="Euchre (four-hand)",
    rules="RULES.md §3",
    players=4,
    sides=(0, 1, 0, 1),
    pack=_suited(Rank.NINE),
    tableau_piles=0,
    hand_size=5,
    alone=True,
    contract=3,
    score_hand=score_euchre,
    defaults=Options(target=10, stick_the_dealer=False),
    adjustable=frozenset({"target", "stick_the_dealer"}),
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (TUQUE, TUQUE61, EUCHRE)}
"""Every playable variant by name."""


def get_variant(name: str) -> Variant:
    """The variant called ``name``.

    Raises:
        ValueError: not a name, or no such variant (the message lists the known ones).
    """
    if not isinstance(name, str):
        raise ValueError(f"a variant is named by text; choose from {', '.join(VARIANTS)}")
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        raise ValueError(
            f"unknown variant {reprlib.repr(name)}; choose from {', '.join(VARIANTS)}"
        ) from None
