"""Every variant's rules in a player's words, for ``/tuque rules`` and ``tuque rules``.

RULES.md and docs/rulings.md are the project's reading of the sources; this is the
same reading told to a player, section by section (how to win, the cards and their
ranks, the deal, making trump, going alone, the play, the scoring table, the
legend), with cards written as the tables show them (``🃏3 > 🃏2 > 🃏1``, or
``B3 > B2 > B1`` in ASCII). Text only, no document references; lines that start
with ``- `` are the items of a list.

The scoring tables are not typed here: each is worked out by calling the variant's
own scoring function (:attr:`Variant.score_hand`) on the hands a player may meet
(made, a march, euchred, alone, each Auction bid), so the rules say what the engine
scores; the words come from :mod:`engine.wording`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.actions import BID_LEVELS
from engine.cards import RANKS, Card, Rank
from engine.variants import VARIANTS, Variant
from engine.wording import (
    BID_ALONE,
    EUCHRED,
    MARCH,
    capital,
    card_text,
    count,
    legend,
    rank_text,
    scores,
    signed,
)

__all__ = ["RulesSection", "rules_text"]


class RulesSection(NamedTuple):
    """One part of a variant's rules: a heading and its text (paragraphs and ``- `` items)."""

    heading: str
    text: str


def rules_text(variant: Variant | str, ascii_only: bool = False) -> tuple[RulesSection, ...]:
    """The rules of ``variant`` (a :data:`VARIANTS` entry or its name), section by section.

    The first section, "The game", says who plays, with which cards, and how to
    win: it stands alone as a summary. Cards are written as :func:`card_text` writes
    them (``ascii_only``: the notation).

    Raises:
        KeyError: no variant of that name.
    """
    v = VARIANTS[variant] if isinstance(variant, str) else VARIANTS[variant.name]

    def c(code: str) -> str:
        return card_text(Card.parse(code), ascii_only)

    sections = _RULES[v.name](v, c)
    lines = "\n".join(f"- {line}" for line in legend(v, ascii_only))
    if v.name == "six_hand":
        double = v.configured(v.options(double_pack=True))
        extra = [line for line in legend(double, ascii_only) if line not in legend(v, ascii_only)]
        lines += "\n" + "\n".join(f"- Double pack: {line}" for line in extra)
    return (*sections, RulesSection("Legend", lines))


Cards = Callable[[str], str]
"""A card's code (``"B3"``) to the text a table shows (``🃏3``)."""


def _ranks(v: Variant, c: Cards, *, joker: str, low: Rank | None = None, note: str = "") -> str:
    """The trump order and the other suits' order of ``v``'s pack (down to ``low``, for
    a table whose options add low cards, which ``note`` then explains)."""
    if low is None:
        low = min((card.rank for card in v.pack if card.rank is not None), key=_index)
    ranks = [r for r in reversed(RANKS) if r.index >= low.index]
    bens = [card for card in v.pack if card.is_ben]
    top = [c(b.code) for b in reversed(bens)]
    trumps = " > ".join(
        [*top, "Right Bower", "Left Bower", *(rank_text(r) for r in ranks if r is not Rank.JACK)]
    )
    trumps_too = (
        f"{joker} and the Left Bower are trumps for every purpose: a Left Bower"
        if bens
        else "The Left Bower is a trump for every purpose: it"
    )
    return (
        f"Trump, high to low: {trumps}. The Right Bower is the jack of trump, the Left "
        f"Bower the other jack of the same colour. {trumps_too} does not count as its "
        "printed suit.\n"
        f"The other suits: {' > '.join(map(rank_text, ranks))}.{note}"
    )


def _index(rank: Rank) -> int:
    return rank.index


def _play(first: str, *, tableau: bool = False, joker: str = "") -> str:
    where = " (from your hand or your face-up tableau cards)" if tableau else ""
    trump_lead = f"{joker} or the Left Bower" if joker else "The Left Bower"
    return (
        f"{first} Follow the suit led if you can{where}; if you can't, play any card. "
        f"{trump_lead} led is a trump lead. The highest trump wins the trick; with no "
        "trump in it, the highest card of the suit led. The winner leads the next trick."
    )


def _contract(v: Variant) -> str:
    """What the makers must take: ``3 of the 5 tricks``."""
    return f"{v.contract} of the {count(v.tricks, 'trick')}"


def _target(v: Variant) -> str:
    """How a game is won: ``10 points wins (or 11, or 21, as the table agrees)``."""
    others = [str(t) for t in v.choices.get("target", ()) if t != v.defaults.target]
    agreed = f" (or {', or '.join(others)}, as the table agrees)" if others else ""
    return f"{v.defaults.target} points wins{agreed}"


def _bids() -> str:
    """Auction's bids (RULES.md §7): ``3, 4 or 5 tricks, 8 (alone after the widow) or 15
    (alone as dealt)``."""
    tricks = [str(level) for level in BID_LEVELS if level not in BID_ALONE]
    alone = [f"{level} ({words})" for level, words in BID_ALONE.items()]
    return f"{_or(tricks)} tricks, {_or(alone)}"


def _or(words: list[str]) -> str:
    """``a, b or c``."""
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]


def _makers(v: Variant) -> tuple[str, bool]:
    """The makers' word and whether it is plural: ``the makers`` with partners, ``the
    maker`` alone (RULES.md §1, §5)."""
    plural = v.makers != "solo" and v.players > 2
    return ("the makers" if plural else "the maker"), plural


def _defenders(v: Variant) -> tuple[str, bool]:
    """The defenders' word and whether it is plural."""
    plural = v.players > 2
    return ("the defenders" if plural else "the defender"), plural


def _outcomes(v: Variant, made: int) -> tuple[tuple[int, int], ...]:
    """What ``v.score_hand`` gives makers who took ``made`` tricks: played as a side,
    by a maker alone, against a defender alone (only where the game allows each)."""
    n, score = v.tricks, v.score_hand
    said = [score(made, n - made, False)]
    if v.alone != "none" or v.makers == "call_suit":  # RULES.md §3–§7: a maker goes alone
        said.append(score(made, n - made, True))
    if v.alone == "anyone":  # RULES.md §4, §6: a defender goes alone
        said.append(score(made, n - made, False, True))
    return tuple(said)


def _runs(points: Callable[[int], object], n: int) -> list[list[int]]:
    """The makers' tricks from ``n`` down to 0, cut into runs that score alike."""
    runs: list[list[int]] = []
    for made in range(n, -1, -1):
        if runs and points(made) == points(runs[-1][0]):
            runs[-1].append(made)
        else:
            runs.append([made])
    return runs


def _run_text(run: list[int], n: int, contract: int, noun: str = "") -> str:
    """A run of the makers' tricks (most first) in words: ``all 5 (a march)``, ``3 or 4``,
    ``15 to 17``, ``6 to 8 (euchred)``, ``fewer than 3 (euchred)``; ``noun`` after the
    numbers (`` tricks``: ``3 to 5 tricks``)."""
    high, low = run[0], run[-1]
    if low == high == n:
        return f"all {n}{noun} ({MARCH})"
    if low == 0 and high == contract - 1:
        return f"fewer than {contract}{noun} ({EUCHRED})"
    words = str(high) if high == low else f"{low} or {high}" if high == low + 1 else ""
    words = (words or f"{low} to {high}") + noun
    return words + (f" ({EUCHRED})" if high == contract - 1 else "")


def _by_tricks(v: Variant) -> str:
    """``v``'s scoring table by the makers' tricks, each item worked out by
    ``v.score_hand``: ``- All 5 (a march): the makers score 2 points, or 4 playing
    alone``; a note where the defenders never score or a score can go below zero."""
    n = v.tricks
    makers, many_makers = _makers(v)
    defenders, many_defenders = _defenders(v)
    lines = [f"By the tricks {makers} {'take' if many_makers else 'takes'}:"]
    for run in _runs(lambda made: _outcomes(v, made), n):
        (ours, theirs), *others = _outcomes(v, run[0])
        alone = dict(zip(("maker", "defender"), others, strict=False))
        said = []
        if ours:
            words = f"{makers} {scores(ours, plural=many_makers)}"
            if "maker" in alone and alone["maker"][0] != ours:
                words += f", or {alone['maker'][0]} playing alone"
            said.append(words)
        if theirs:
            words = f"{defenders} {scores(theirs, plural=many_defenders)}"
            if "defender" in alone and alone["defender"][1] != theirs:
                words += f", or {alone['defender'][1]} with a defender playing alone"
            said.append(words)
        lines.append(f"- {capital(_run_text(run, n, v.contract))}: {' and '.join(said)}")
    everything = [score for made in range(n + 1) for score in _outcomes(v, made)]
    if not any(theirs for _, theirs in everything):
        lines.append(f"{capital(defenders)} {'score' if many_defenders else 'scores'} nothing.")
    if any(points < 0 for score in everything for points in score):
        lines.append("A score can go below zero.")
    return "\n".join(lines)


def _per_trick(v: Variant) -> str:
    """``v``'s scoring by the trick (RULES.md §2), worked out by ``v.score_hand``: ``- The
    defender scores 1 point a trick, or 2 a trick if they took 9 or more.``

    Raises:
        ValueError: ``v`` does not score a whole number of points a trick.
    """
    n, score = v.tricks, v.score_hand
    lines = []
    for who, points in (
        (_makers(v)[0], lambda took: score(took, n - took, False)[0]),
        (_defenders(v)[0], lambda took: score(n - took, took, False)[1]),
    ):
        rates: list[tuple[int, int]] = []  # (from how many tricks, points a trick)
        for took in range(1, n + 1):
            rate, rest = divmod(points(took), took)
            if rest:
                raise ValueError(f"{v.title} does not score by the trick")
            if not rates or rates[-1][1] != rate:
                rates.append((took, rate))
        (_, first), *more = rates
        words = f"- {capital(who)} {scores(first)} a trick"
        words += "".join(f", or {rate} a trick if they took {took} or more" for took, rate in more)
        lines.append(words + ".")
    return "\n".join(lines)


def _by_bid(v: Variant) -> str:
    """Auction's scoring (RULES.md §7), bid by bid, each worked out by ``v.score_hand``:
    ``- Bid 3: 3 to 5 tricks +3, fewer than 3 tricks (euchred) -3``."""
    n, score = v.tricks, v.score_hand
    lines = ["Each maker's points, by the bid and the tricks the makers take:"]
    for level in BID_LEVELS:

        def points(made: int, level: int = level) -> int:
            return score(made, n - made, level in BID_ALONE, False, level)[0]

        contract = min(level, n)
        said = ", ".join(
            f"{_run_text(run, n, contract, ' tricks')} {signed(points(run[0]))}"
            for run in _runs(points, n)
        )
        alone = f" ({BID_ALONE[level]})" if level in BID_ALONE else ""
        lines.append(f"- Bid {level}{alone}: {said}")
    return "\n".join(lines)


_LOW = " The 8s are played with five or six players, the 7s with six."
_EUCHRE_LEAD = (
    "The player on the dealer's left leads the first trick; if someone plays alone, the "
    "player on the loner's left."
)
_BRITISH_LEAD = (
    "The player on the dealer's left leads the first trick. With one loner, the player on "
    "the loner's left leads; with a loner on each side, the defender."
)
_EUCHRE_ROUNDS = (
    "Round 1, from the dealer's left: each passes or orders it up; the dealer takes it up "
    "or passes. Once someone accepts, the up-card's suit is trump: the dealer adds the "
    "up-card to their hand and discards a card face down.\n"
    "Round 2 (everyone passed): the up-card is turned down and each in turn may name another "
    "suit as trump, or pass."
)


def _tuque_deal() -> RulesSection:
    return RulesSection(
        "The deal and the tableau",
        "Each player gets a tableau of 5 piles, a face-up card on a face-down card, and 7 "
        "cards in hand. The next card is turned up: the up-card. The last 4 cards are never "
        "used or shown.\n"
        "You play the face-up cards of your tableau as if they were in your hand. When you "
        "play one, the card beneath turns face up once the trick is over. Nobody sees a "
        "face-down card before then, not even its owner.",
    )


def _tuque_trump() -> RulesSection:
    return RulesSection(
        "Making trump",
        "Round 1: the non-dealer orders it up or passes; then the dealer takes it up or "
        "passes. Once someone accepts, the up-card's suit is trump: the dealer adds the "
        "up-card to their hand and discards a hand card face down (never a tableau card).\n"
        "Round 2 (both passed): the up-card is turned down; the non-dealer names another suit "
        "as trump or passes, and then the dealer must name one (stick the dealer).\n"
        "A Ben turned up: whoever accepts it in round 1 names any suit as trump (the dealer "
        "still adds the Ben and discards); in round 2 any suit may be named.\n"
        "Whoever makes trump is the maker; the other player defends.",
    )


def _tuque_common(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection("The cards", _ranks(v, c, joker="The Bens")),
        _tuque_deal(),
        _tuque_trump(),
        RulesSection(
            "Playing",
            _play("The non-dealer leads the first trick.", tableau=True, joker="A Ben")
            + " Every card of the hand and the tableau is played: 17 tricks.",
        ),
    ]


def _tuque(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Two players, each for themself, with 39 cards: 6 to A in each suit and three "
            f"jokers, the Bens. The maker of trump must take at least {_contract(v)}. "
            f"First to {v.defaults.target} points wins.",
        ),
        *_tuque_common(v, c),
        RulesSection("Scoring", _by_tricks(v)),
    ]


def _tuque61(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            f"Tuque played to {v.defaults.target} points: two players, 39 cards (6 to A and "
            f"three jokers, the Bens), a tableau each, {v.tricks} tricks a hand. Both players "
            f"score every hand. First to {v.defaults.target} points wins.",
        ),
        *_tuque_common(v, c),
        RulesSection(
            "Scoring",
            _per_trick(v)
            + f"\nIf both reach {v.defaults.target} in the same hand, the higher total wins; "
            "an exact tie plays another hand.",
        ),
    ]


def _euchre(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Four players in two partnerships, partners sitting opposite, with 24 cards: 9 to "
            f"A in each suit. The side that makes trump must take at least {_contract(v)}. "
            f"First side to {v.defaults.target} points wins.",
        ),
        RulesSection("The cards", _ranks(v, c, joker="")),
        RulesSection(
            "Making trump",
            "Five cards each; the next card is turned up (the up-card), the other 3 are not "
            "used.\n"
            + _EUCHRE_ROUNDS
            + " If everyone passes again, the hand is thrown in and the deal passes left "
            "(with the stick-the-dealer option, the dealer must name a suit instead).",
        ),
        RulesSection(
            "Going alone",
            "Right after making trump, the maker may go alone: their partner lays their hand "
            "down and sits out the hand. A dealer whose partner goes alone does not pick up "
            "the up-card.",
        ),
        RulesSection("Playing", _play(_EUCHRE_LEAD)),
        RulesSection("Scoring", _by_tricks(v)),
    ]


def _british(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Four players in two partnerships, partners sitting opposite, with 25 cards: 9 to "
            f"A in each suit and one joker, the Benny ({c('B1')}). The side that makes trump "
            f"must take at least {_contract(v)}. First side to {_target(v)}.",
        ),
        RulesSection("The cards", _ranks(v, c, joker="The Benny")),
        RulesSection(
            "Making trump",
            "Five cards each; the next card is turned up (the up-card).\n"
            "Round 1, from the dealer's left: the first player passes or orders it up. The "
            "dealer's partner passes or turns it down: they go alone with the up-card's suit "
            "as trump and the dealer lays their hand down (the dealer's partner cannot order "
            "it up). The dealer's right passes or orders it up; the dealer takes it up or "
            "passes. Once someone accepts, the dealer adds the up-card and discards a card.\n"
            "Round 2 (everyone passed): the up-card is turned down and each may name another "
            "suit as trump, or pass; if everyone passes again, the hand is thrown in.\n"
            "The Benny turned up: the dealer's side makes trump at once. The dealer names "
            "trump before looking at their hand, then adds the Benny and discards.",
        ),
        RulesSection(
            "Going alone",
            "Once trump is made, each player in turn from the maker may go alone, maker or "
            "defender: one loner a side, whose partner lays their hand down. After a "
            "turn-down the defenders may still go alone. (Option: not a player who passed in "
            "the round trump was made.)",
        ),
        RulesSection("Playing", _play(_BRITISH_LEAD, joker="The Benny")),
        RulesSection("Scoring", _by_tricks(v)),
    ]


def _solo(v: Variant, c: Cards) -> list[RulesSection]:
    who = "Three players" if v.players == 3 else "Two players"
    others = "the other two together" if v.players == 3 else "the other player"
    return [
        RulesSection(
            "The game",
            f"{who}, each for themself, with 25 cards: 9 to A in each suit and the Benny "
            f"({c('B1')}), or 24 without it. The maker of trump plays alone against {others} "
            f"and must take at least {_contract(v)}. First to {_target(v)}.",
        ),
        RulesSection("The cards", _ranks(v, c, joker="The Benny")),
        RulesSection(
            "Making trump",
            "Five cards each; the next card is turned up (the up-card), the rest are not "
            "used.\n" + _EUCHRE_ROUNDS + " If everyone passes again, the hand is thrown in.\n"
            "The Benny turned up: the dealer names trump before looking at their hand and is "
            "the maker; they add the Benny and discard.\n"
            "Nobody announces going alone: the maker always plays alone.",
        ),
        RulesSection(
            "Playing",
            _play("The player on the dealer's left leads the first trick.", joker="The Benny"),
        ),
        RulesSection("Scoring", _by_tricks(v)),
    ]


def _six_hand(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Six players in two teams of three, seated alternately, with 33 cards: 7 to A in "
            f"each suit and the Benny ({c('B1')}). The team that makes trump must take at "
            f"least {_contract(v)}. First team to {_target(v)}.",
        ),
        RulesSection("The cards", _ranks(v, c, joker="The Benny")),
        RulesSection(
            "Making trump",
            "Five cards each; the next card is turned up (the up-card), 2 are not used.\n"
            + _EUCHRE_ROUNDS
            + " If everyone passes again, the hand is thrown in.\n"
            "The Benny turned up: the dealer names trump before looking at their hand and is "
            "the maker; they add the Benny and discard.",
        ),
        RulesSection(
            "Going alone",
            "Once trump is made, each player in turn from the maker may go alone, maker or "
            "defender, one loner a team. The loner's two partners lay their hands down. "
            "Then the dealer picks up and discards, unless they sit out. Then the loner may "
            "ask one of their partners for a card (that partner chooses which) and discards "
            "one face down; with a loner on each team, the maker's asks first. A dealer who "
            "plays alone and asks for a card discards twice: for the up-card, then for the "
            "card given. "
            "(Option: not a player who passed in the round trump was made.)",
        ),
        RulesSection("Playing", _play(_BRITISH_LEAD, joker="The Benny")),
        RulesSection("Scoring", _by_tricks(v)),
        RulesSection(
            "The double pack (option)",
            "50 cards: two of each card from 9 to A and two jokers, the Bennies: "
            f"{c('B1')} black and {c('B2')} red; still 5 cards each and one up-card. The "
            "Benny of trump's colour is the highest trump, the other the next. Both copies "
            "of trump's jack are Right Bowers, both of the other jack of its colour Left "
            "Bowers. A card played on its identical twin, while the twin is winning, takes "
            f"the trick ({c('KS')} then {c('KS')}': the second wins; {c('KS')}, "
            f"{c('AS')}, {c('KS')}': the ace keeps it).",
        ),
    ]


def _almonte(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Six players in two teams of three, seated alternately, with 31 cards: 8 to A in "
            "each suit and three jokers, the Bens. The team that makes trump must take at "
            f"least {_contract(v)}. First team to {v.defaults.target} points wins.",
        ),
        RulesSection("The cards", _ranks(v, c, joker="The Bens")),
        RulesSection(
            "Making trump",
            "Five cards each; the next card is turned up (the up-card).\n"
            + _EUCHRE_ROUNDS
            + " If everyone passes again, the hand is thrown in.\n"
            "A Ben turned up: the dealer names a suit before looking at their hand, and "
            "round 1 bids on that suit (option: if everyone else passes, the dealer must "
            "take it); if everyone passes it, round 2 names one of the other suits.",
        ),
        RulesSection(
            "Going alone",
            "Right after making trump, the maker may go alone: both partners lay their hands "
            "down and sit out the hand.",
        ),
        RulesSection("Playing", _play(_EUCHRE_LEAD, joker="A Ben")),
        RulesSection("Scoring", _by_tricks(v)),
    ]


def _call_ace(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Four, five or six players, each scoring for themself, with 25, 29 or 33 cards "
            f"(9, 8 or 7 to A in each suit, and the Benny, {c('B1')}). The maker of trump "
            f"calls a secret partner; together they must take at least {_contract(v)}. "
            f"First to {_target(v)}.",
        ),
        RulesSection("The cards", _ranks(v, c, joker="The Benny", low=Rank.SEVEN, note=_LOW)),
        RulesSection(
            "Making trump",
            "Five cards each; the next card is turned up (the up-card).\n"
            + _EUCHRE_ROUNDS
            + " If everyone passes again, the hand is thrown in.\n"
            "The Benny turned up: the dealer names trump before looking at their hand and is "
            "the maker; they add the Benny and discard.",
        ),
        RulesSection(
            "Calling a partner",
            "The maker then calls a suit, trump included: whoever holds that suit's best card "
            "among the hands (ranked as in play) is the maker's secret partner, known only "
            "when they play it. The maker may hold it and be their own partner; if nobody "
            "holds a card of that suit, the maker has no partner. Either way the maker plays "
            "against all the others, without the bonus of going alone. Instead of calling, "
            "the maker may go alone.",
        ),
        RulesSection("Playing", _play(_EUCHRE_LEAD, joker="The Benny")),
        RulesSection(
            "Scoring",
            "Each player of a side scores the side's points. "
            + _by_tricks(v)
            + f"\nWhen several players reach {v.defaults.target} in the same hand, the highest "
            "wins; a tie plays on.",
        ),
    ]


def _jackpot(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Four, five or six players, each for themself, with 25, 29 or 33 cards (9, 8 or 7 "
            f"to A in each suit, and the Benny, {c('B1')}). No bidding: take tricks to win "
            f"chips. After {v.defaults.hands} deals the most chips win, unless someone takes "
            "all five tricks of a hand first.",
        ),
        RulesSection("The cards", _ranks(v, c, joker="The Benny", low=Rank.SEVEN, note=_LOW)),
        RulesSection(
            "Trump",
            "Five cards each; the next card is turned up and its suit is trump (a Benny "
            "turned is passed over, unseen, and the next card turned instead). Nobody "
            "picks it up.",
        ),
        RulesSection(
            "Playing",
            _play("The player on the dealer's left leads the first trick.", joker="The Benny"),
        ),
        RulesSection(
            "Chips",
            "- Every deal, each player puts a chip in the pool.\n"
            "- Each trick won draws a chip from the pool, while it lasts.\n"
            "- At the end of the hand, a player who won no trick pays a chip into the pool.\n"
            "- Whoever takes all five tricks then sweeps the pool and ends the game.\n"
            "Scores are chips won less chips paid, and can go below zero. When the game "
            "ends (a sweep, or the last deal) the most chips win; a tie for the most plays "
            "one more deal, and another while the tie lasts.",
        ),
    ]


def _auction(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Five players, each for themself, with 28 cards: 8 to A in each suit (or 32, 7 "
            "to A). The highest bidder names trump and calls a partner; together they must "
            f"take the tricks they bid. First to {v.defaults.target} points wins.",
        ),
        RulesSection(
            "The cards",
            _ranks(v, c, joker="", low=Rank.SEVEN, note=" The 7s are played with 32 cards only."),
        ),
        RulesSection(
            "Bidding",
            "Five cards each and a widow of 3 face down (with 32 cards, a widow of 5 and 2 "
            "unused).\n"
            "Once round from the dealer's left, each bids or passes. A bid names trump and "
            f"beats the last: {_bids()}. If all five pass, the hand is thrown in.\n"
            "The maker takes the widow and discards as many cards (not with 15: the widow "
            "stays unused), then calls a card they don't hold: its holder is the partner. "
            "The call is said aloud, so the holder knows; the others learn it when the card "
            "is played. Alone, or if nobody holds the card, the maker has no partner.",
        ),
        RulesSection(
            "Playing",
            _play(
                "The player on the dealer's left leads the first trick, even when the maker "
                "plays alone."
            ),
        ),
        RulesSection(
            "Scoring",
            _by_bid(v)
            + f"\nWhen several players reach {v.defaults.target} in the same hand (the maker "
            "and their partner), the highest wins; a tie plays on.",
        ),
    ]


_RULES: dict[str, Callable[[Variant, Cards], list[RulesSection]]] = {
    "tuque": _tuque,
    "tuque61": _tuque61,
    "euchre": _euchre,
    "british": _british,
    "three_hand": _solo,
    "two_hand": _solo,
    "six_hand": _six_hand,
    "almonte": _almonte,
    "call_ace": _call_ace,
    "jackpot": _jackpot,
    "auction": _auction,
}
