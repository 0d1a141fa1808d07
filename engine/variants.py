"""Variants as data: pack, deal shape, seats and sides, bidding switches, scoring.

A :class:`Variant` says *what* a game of the family is; :mod:`engine.game` runs any
of them with one set of phase rules. ``docs/variants.md`` explains how to add one.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from engine.cards import BENS, CARDS, SECOND, Card, Rank

__all__ = [
    "MAX_TARGET",
    "VARIANTS",
    "Alone",
    "BenUp",
    "Bidding",
    "Choices",
    "Makers",
    "Options",
    "Variant",
    "get_variant",
]

MAX_TARGET = 100
"""The highest target a game may set: past any table's patience (the family plays
to 5–61), and the hard player's game-value table grows with the target squared."""


@dataclass(frozen=True, slots=True)
class Options:
    """A game's adjustable rules (each variant lets a game change some of them).

    Attributes:
        target: points that win the game.
        stick_the_dealer: in round 2 the dealer may not pass (RULES.md §3 option;
            always on in Tuque, §1).
        no_alone_after_pass: a player who passed in the round in which trump was
            made may not go alone (RULES.md §4 option).
        dealer_must_make: Almonte: when the dealer named trump for a turned-up Ben
            and everyone else passed, the dealer must take it (RULES.md §6 option).
        players: seats at the table (Call-Ace and Jackpot: 4, 5 or 6, RULES.md §7).
        pack: cards in the pack (§5: 25 or 24; Auction: 28 or 32); 0 = the
            variant's own.
        hands: Jackpot: deals before the game ends without a march (RULES.md §7).
        double_pack: six-hand with the 50-card double pack (RULES.md §6 option).
    """

    target: int
    stick_the_dealer: bool
    no_alone_after_pass: bool = False
    dealer_must_make: bool = False
    players: int = 0
    pack: int = 0
    hands: int = 0
    double_pack: bool = False


class ScoreHand(Protocol):
    """``(made, defended, alone, lone_defender, bid) -> (maker_points, defender_points)``.

    ``made``/``defended``: tricks of the makers and of the defenders; ``alone``:
    a maker plays alone; ``lone_defender``: a defender plays alone (RULES.md §4);
    ``bid``: the Auction bid (0 elsewhere). Points go to each maker side and to
    each defender side (negative points are deducted). Called with positional arguments
    only, so a scorer may name its parameters as it likes (``m``, ``d``).
    """

    def __call__(
        self, made: int, defended: int, alone: bool, lone_defender: bool = False, bid: int = 0, /
    ) -> tuple[int, int]: ...


def score_tuque(
    m: int, d: int, alone: bool, lone_defender: bool = False, bid: int = 0
) -> tuple[int, int]:
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


def score_tuque61(
    m: int, d: int, alone: bool, lone_defender: bool = False, bid: int = 0
) -> tuple[int, int]:
    """RULES.md §2: a point a trick each; a defender with 9 or more tricks scores 2 a trick."""
    return m, (2 * d if d >= 9 else d)


def score_euchre(
    m: int, d: int, alone: bool, lone_defender: bool = False, bid: int = 0
) -> tuple[int, int]:
    """RULES.md §3 and §4 Scoring: 3–4 tricks 1, march 2, march alone 4; euchred:
    defenders 2, or 4 to a lone defender (§4; never happens in §3)."""
    if m == 5:
        return (4 if alone else 2), 0
    if m >= 3:
        return 1, 0
    return 0, (4 if lone_defender else 2)


def score_six(
    m: int, d: int, alone: bool, lone_defender: bool = False, bid: int = 0
) -> tuple[int, int]:
    """RULES.md §6: 3–4 tricks 1; march 3, alone 6; euchred 3, by a lone defender 6."""
    if m == 5:
        return (6 if alone else 3), 0
    if m >= 3:
        return 1, 0
    return 0, (6 if lone_defender else 3)


def score_solo(
    m: int, d: int, alone: bool, lone_defender: bool = False, bid: int = 0
) -> tuple[int, int]:
    """RULES.md §5: the maker scores 1 for 3–4 tricks, 2 for the march; euchred, loses 2."""
    if m == 5:
        return 2, 0
    if m >= 3:
        return 1, 0
    return -2, 0


def score_auction(
    m: int, d: int, alone: bool, lone_defender: bool = False, bid: int = 0
) -> tuple[int, int]:
    """RULES.md §7 Auction ruling: each maker scores the bid if the makers took
    at least the bid's tricks (8 and 15 need all five), else loses it."""
    return (bid if m >= min(bid, 5) else -bid), 0


def score_jackpot(
    m: int, d: int, alone: bool, lone_defender: bool = False, bid: int = 0
) -> tuple[int, int]:
    """Jackpot has no makers: chips move by tricks instead (RULES.md §7; see the core)."""
    return 0, 0


Alone = Literal["none", "maker", "anyone"]
"""Who may go alone (:attr:`Variant.alone`)."""
BenUp = Literal["order_naming", "dealer_makes", "dealer_names", "turn_next"]
"""What a turned-up Ben does (:attr:`Variant.ben_up`)."""
Makers = Literal["side", "solo", "call_suit", "call_card"]
"""Who plays with the maker (:attr:`Variant.makers`)."""
Bidding = Literal["rounds", "none", "auction"]
"""How trump is made (:attr:`Variant.bidding`)."""


class Choices(Mapping[str, tuple[int, ...]]):
    """The values some options may take, by option name (``{"pack": (25, 24)}``): a
    read-only mapping that hashes, so that a :class:`Variant` can be a key or a set member.

    Equal to any mapping with the same items, whatever their order; each tuple keeps
    its own order (the order in which a refusal lists the values).
    """

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, tuple[int, ...]] | None = None, /) -> None:
        self._values = dict(values or {})

    def __getitem__(self, name: str) -> tuple[int, ...]:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __hash__(self) -> int:
        # Order-free, as Mapping's equality is.
        return hash(frozenset(self._values.items()))

    def __repr__(self) -> str:
        return f"Choices({self._values!r})"


@dataclass(frozen=True, slots=True)
class Variant:
    """One game of the family, as data.

    The switches below each name one rule of RULES.md §4–§7 that the core's phase
    code applies (``engine/core.py``); the defaults are §3's. The text switches take
    the values of their types (:data:`Alone`, :data:`BenUp`, :data:`Makers`,
    :data:`Bidding`), so a type checker catches a misspelt one. Variants are equal
    when their fields are, and hash (a ``score_hand`` by identity).

    Attributes:
        name: the key used in commands and saved games (``"tuque"``).
        title: display name.
        rules: the RULES.md section this variant follows.
        players: seats, numbered clockwise from 0.
        sides: the scoring side of each seat (partners share a side; each seat its
            own in games played each for themself).
        pack: the cards in play, in index order.
        tableau_piles: piles of one face-down card under one face-up card per player.
        hand_size: cards dealt to the hand.
        alone: who may go alone: ``"none"``, ``"maker"`` (§3: the maker, after
            making trump) or ``"anyone"`` (§4: any player, maker or defender, one
            per side, after trump is made).
        contract: tricks the makers must take; fewer and they are euchred.
        score_hand: points for a finished hand.
        defaults: the options a new game starts from.
        adjustable: names of the options a game may change.
        choices: the values an option may take, where only some are allowed
            (:class:`Choices`, e.g. ``{"players": (4, 5, 6)}``).
        ben_up: a Ben turned up: ``"order_naming"`` (§1: whoever accepts it names
            trump), ``"dealer_makes"`` (§4: the dealer names trump before seeing their
            hand and is maker), ``"dealer_names"`` (§6 Almonte: the dealer names the
            suit for the bidding before seeing their hand) or ``"turn_next"`` (§7
            Jackpot ruling: the next card is turned instead).
        turn_down: §4: the dealer's partner may turn the up-card down and go alone.
        makers: who plays with the maker: ``"side"`` (their partners), ``"solo"`` (§5:
            nobody), ``"call_suit"`` (§7 Call-Ace: the secret partner holds the
            called suit's highest card), ``"call_card"`` (§7 Auction: the called
            card's holder).
        bidding: ``"rounds"`` (§3: order up, then name), ``"none"`` (§7 Jackpot: the
            up-card's suit is trump) or ``"auction"`` (§7: one bid each).
        card_request: §6: a loner asks a partner for a card and discards one.
        widow: cards the Auction maker takes (and discards), by pack size.
        chips: §7 Jackpot: each deal antes a chip, tricks draw chips from the pool.
        side_masks: derived: per side, the seat mask of its members.
        twins: derived: the pack holds two copies of some cards (§6 double pack), so
            the tie rule of RULES.md "Trick winner" applies.
    """

    name: str
    title: str
    rules: str
    players: int
    sides: tuple[int, ...]
    pack: tuple[Card, ...]
    tableau_piles: int
    hand_size: int
    alone: Alone
    contract: int
    score_hand: ScoreHand
    defaults: Options
    adjustable: frozenset[str] = field(default_factory=frozenset)
    choices: Choices = field(default_factory=Choices)
    ben_up: BenUp = "order_naming"
    turn_down: bool = False
    makers: Makers = "side"
    bidding: Bidding = "rounds"
    card_request: bool = False
    widow: int = 0
    chips: bool = False
    side_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    twins: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        masks = [0] * (max(self.sides) + 1)
        for seat, side in enumerate(self.sides):
            masks[side] |= 1 << seat
        # Derived once: the core asks for the maker's side at every hand's end.
        object.__setattr__(self, "side_masks", tuple(masks))
        object.__setattr__(self, "twins", any(c.index >= SECOND for c in self.pack))

    @property
    def tricks(self) -> int:
        """Tricks in a hand: every player plays every card they were dealt."""
        return 2 * self.tableau_piles + self.hand_size

    @property
    def up_card(self) -> bool:
        """Whether a card is turned up (every variant but Auction, which has a widow)."""
        return self.bidding != "auction"

    @property
    def kitty_size(self) -> int:
        """Cards left after the deal, the up-card and the widow; never used, never shown."""
        return len(self.pack) - self.players * self.tricks - self.up_card - self.widow

    @property
    def teams(self) -> bool:
        """Whether seats play in fixed partnerships (some side has two seats)."""
        return len(set(self.sides)) < self.players

    def options(self, /, **changes: Any) -> Options:
        """The default options with ``changes`` applied (``None`` values are ignored).

        ``target`` is a whole number of points from 1 to ``MAX_TARGET`` (or one of the
        variant's ``choices``); switches are True or False (not a truthy value: a
        saved ``"no"`` must not read as yes); ``players``, ``pack`` and ``hands``
        take the values in ``choices``.

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
        for name in ("target", "players", "pack", "hands"):
            value = getattr(opts, name)
            if isinstance(value, bool) or not isinstance(value, int):
                unit = " of points" if name == "target" else ""
                raise ValueError(f"the {name} must be a whole number{unit}")
            allowed = self.choices.get(name)
            if allowed is not None and value not in allowed:
                shown = ", ".join(map(str, allowed[:-1])) + f" or {allowed[-1]}"
                raise ValueError(f"the {name} in {self.title} must be {shown}")
        if not 1 <= opts.target <= MAX_TARGET:
            raise ValueError(f"the target must be from 1 to {MAX_TARGET} points")
        for name in ("stick_the_dealer", "no_alone_after_pass", "dealer_must_make", "double_pack"):
            if not isinstance(getattr(opts, name), bool):
                raise ValueError(f"{name} must be true or false")
        return opts

    def configured(self, options: Options) -> Variant:
        """This variant at the table ``options`` set: seats and pack for ``players``
        (RULES.md §7: 4, 5 or 6 with 25, 29 or 33 cards), ``pack``, and six-hand's
        ``double_pack`` (RULES.md §6: 50 cards, still 5 each and one up-card)."""
        v = self
        if options.players and options.players != v.players:
            n = options.players
            v = replace(v, players=n, sides=tuple(range(n)), pack=_PACK_FOR_PLAYERS[n])
        if options.pack and options.pack != len(v.pack):
            pack = _PACKS[options.pack]
            widow = v.widow and len(pack) - v.players * v.hand_size - 2
            v = replace(v, pack=pack, widow=widow)
        if options.double_pack:
            v = replace(v, pack=DOUBLE_PACK)
        return v


def _suited(low: Rank) -> tuple[Card, ...]:
    return tuple(c for c in CARDS[:36] if c.rank is not None and c.rank.index >= low.index)


_B1 = BENS[:1]
_PACKS: dict[int, tuple[Card, ...]] = {
    24: _suited(Rank.NINE),
    25: _suited(Rank.NINE) + _B1,
    28: _suited(Rank.EIGHT),
    29: _suited(Rank.EIGHT) + _B1,
    31: _suited(Rank.EIGHT) + BENS,
    32: _suited(Rank.SEVEN),
    33: _suited(Rank.SEVEN) + _B1,
    39: _suited(Rank.SIX) + BENS,
}
"""Every pack of RULES.md by its size (the six-hand double pack aside)."""
_PACK_FOR_PLAYERS = {4: _PACKS[25], 5: _PACKS[29], 6: _PACKS[33]}
DOUBLE_PACK: tuple[Card, ...] = _PACKS[24] + BENS[:2] + CARDS[SECOND:]
"""RULES.md §6 option: two copies of ``9``–``A`` and two jokers, ``B1`` black and ``B2`` red."""

TUQUE = Variant(
    name="tuque",
    title="Tuque",
    rules="RULES.md §1",
    players=2,
    sides=(0, 1),
    pack=_PACKS[39],
    tableau_piles=5,
    hand_size=7,
    alone="none",
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
    pack=_PACKS[24],
    tableau_piles=0,
    hand_size=5,
    alone="maker",
    contract=3,
    score_hand=score_euchre,
    defaults=Options(target=10, stick_the_dealer=False),
    adjustable=frozenset({"target", "stick_the_dealer"}),
)
BRITISH = replace(
    EUCHRE,
    name="british",
    title="British Euchre",
    rules="RULES.md §4",
    pack=_PACKS[25],
    alone="anyone",
    ben_up="dealer_makes",
    turn_down=True,
    adjustable=frozenset({"target", "no_alone_after_pass"}),
    choices=Choices({"target": (10, 11, 21)}),
)
THREE_HAND = replace(
    BRITISH,
    name="three_hand",
    title="Three-hand Euchre",
    rules="RULES.md §5",
    players=3,
    sides=(0, 1, 2),
    alone="none",
    turn_down=False,
    makers="solo",
    score_hand=score_solo,
    defaults=Options(target=10, stick_the_dealer=False, pack=25),
    adjustable=frozenset({"target", "pack"}),
    choices=Choices({"target": (5, 7, 10), "pack": (25, 24)}),
)
TWO_HAND = replace(THREE_HAND, name="two_hand", title="Two-hand Euchre", players=2, sides=(0, 1))
SIX_HAND = replace(
    BRITISH,
    name="six_hand",
    title="Six-hand Euchre (Cornish)",
    rules="RULES.md §6",
    players=6,
    sides=(0, 1, 0, 1, 0, 1),
    pack=_PACKS[33],
    turn_down=False,
    card_request=True,
    score_hand=score_six,
    adjustable=frozenset({"target", "no_alone_after_pass", "double_pack"}),
    choices=Choices(),
)
ALMONTE = replace(
    SIX_HAND,
    name="almonte",
    title="Almonte Euchre",
    pack=_PACKS[31],
    alone="maker",
    ben_up="dealer_names",
    card_request=False,
    defaults=Options(target=15, stick_the_dealer=False),
    adjustable=frozenset({"target", "dealer_must_make"}),
)
CALL_ACE = replace(
    BRITISH,
    name="call_ace",
    title="Call-Ace Euchre",
    rules="RULES.md §7",
    sides=(0, 1, 2, 3),
    alone="none",
    turn_down=False,
    makers="call_suit",
    defaults=Options(target=10, stick_the_dealer=False, players=4),
    adjustable=frozenset({"target", "players"}),
    choices=Choices({"players": (4, 5, 6)}),
)
JACKPOT = replace(
    CALL_ACE,
    name="jackpot",
    title="Jackpot Euchre",
    ben_up="turn_next",
    makers="solo",
    bidding="none",
    contract=0,
    score_hand=score_jackpot,
    chips=True,
    defaults=Options(target=MAX_TARGET, stick_the_dealer=False, players=4, hands=12),
    adjustable=frozenset({"players", "hands"}),
    choices=Choices({"players": (4, 5, 6), "hands": tuple(range(1, 41))}),
)
AUCTION = replace(
    CALL_ACE,
    name="auction",
    title="Auction Euchre",
    players=5,
    sides=(0, 1, 2, 3, 4),
    pack=_PACKS[28],
    makers="call_card",
    bidding="auction",
    widow=3,
    score_hand=score_auction,
    defaults=Options(target=50, stick_the_dealer=False, players=5, pack=28),
    adjustable=frozenset({"target", "pack"}),
    choices=Choices({"pack": (28, 32)}),
)

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        TUQUE,
        TUQUE61,
        EUCHRE,
        BRITISH,
        THREE_HAND,
        TWO_HAND,
        SIX_HAND,
        ALMONTE,
        CALL_ACE,
        JACKPOT,
        AUCTION,
    )
}
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
