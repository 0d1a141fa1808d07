"""Every variant's rules in a player's words, for ``/tuque rules`` and ``tuque rules``.

RULES.md and docs/rulings.md are the project's reading of the sources; this is the
same reading told to a player, section by section (how to win, the cards and their
ranks, the deal, making trump, going alone, the play, the scoring table, the
legend), with cards written as the tables show them (``🃏3 > 🃏2 > 🃏1``, or
``B3 > B2 > B1`` in ASCII). Text only, no document references; lines that start
with ``- `` are the items of a list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.cards import RANKS, Card, Rank
from engine.variants import VARIANTS, Variant
from engine.wording import card_text, legend, rank_text

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
            "jokers, the Bens. The maker of trump must take at least 9 of the 17 tricks. "
            f"First to {v.defaults.target} points wins.",
        ),
        *_tuque_common(v, c),
        RulesSection(
            "Scoring",
            "By the maker's tricks:\n"
            "- 15 to 17: the maker scores 3\n"
            "- 12 to 14: the maker scores 2\n"
            "- 9 to 11: the maker scores 1\n"
            "- 6 to 8 (euchred): the defender scores 2\n"
            "- 3 to 5: the defender scores 3\n"
            "- 0 to 2: the defender scores 4",
        ),
    ]


def _tuque61(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Tuque played to 61 points: two players, 39 cards (6 to A and three jokers, the "
            "Bens), a tableau each, 17 tricks a hand. Both players score every hand. "
            "First to 61 points wins.",
        ),
        *_tuque_common(v, c),
        RulesSection(
            "Scoring",
            "- The maker scores 1 point a trick.\n"
            "- The defender scores 1 point a trick, or 2 a trick if they took 9 or more.\n"
            "If both reach 61 in the same hand, the higher total wins; an exact tie plays "
            "another hand.",
        ),
    ]


def _euchre(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Four players in two partnerships, partners sitting opposite, with 24 cards: 9 to "
            "A in each suit. The side that makes trump must take at least 3 of the 5 tricks. "
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
        RulesSection(
            "Scoring",
            "- The makers take 3 or 4 tricks: 1 point\n"
            "- All 5 (a march): 2 points; a march alone: 4\n"
            "- Fewer than 3 (euchred): the defenders score 2",
        ),
    ]


def _british(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Four players in two partnerships, partners sitting opposite, with 25 cards: 9 to "
            f"A in each suit and one joker, the Benny ({c('B1')}). The side that makes trump "
            "must take at least 3 of the 5 tricks. First side to 10 points wins (or 11, or "
            "21, as the table agrees).",
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
        RulesSection(
            "Scoring",
            "- The makers take 3 or 4 tricks: 1 point\n"
            "- All 5 (a march): 2 points; a march alone: 4\n"
            "- Fewer than 3 (euchred): the defenders score 2, or 4 to a defender playing "
            "alone",
        ),
    ]


def _solo(v: Variant, c: Cards) -> list[RulesSection]:
    who = "Three players" if v.players == 3 else "Two players"
    others = "the other two together" if v.players == 3 else "the other player"
    return [
        RulesSection(
            "The game",
            f"{who}, each for themself, with 25 cards: 9 to A in each suit and the Benny "
            f"({c('B1')}), or 24 without it. The maker of trump plays alone against {others} "
            "and must take at least 3 of the 5 tricks. First to 10 points wins (or 5, or 7, "
            "as the table agrees).",
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
        RulesSection(
            "Scoring",
            "- The maker takes 3 or 4 tricks: 1 point\n"
            "- All 5 (a march): 2 points\n"
            "- Fewer than 3 (euchred): the maker loses 2 (a score can go below zero)\n"
            "The defenders score nothing.",
        ),
    ]


def _six_hand(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Six players in two teams of three, seated alternately, with 33 cards: 7 to A in "
            f"each suit and the Benny ({c('B1')}). The team that makes trump must take at "
            "least 3 of the 5 tricks. First team to 10 points wins.",
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
            "defender, one loner a team. The loner's two partners lay their hands down. The "
            "loner may ask one of them for a card (that partner chooses which), then "
            "discards one face down; with a loner on each team, the maker's asks first. "
            "(Option: not a player who passed in the round trump was made.)",
        ),
        RulesSection("Playing", _play(_BRITISH_LEAD, joker="The Benny")),
        RulesSection(
            "Scoring",
            "- The makers take 3 or 4 tricks: 1 point\n"
            "- All 5 (a march): 3 points; a march alone: 6\n"
            "- Fewer than 3 (euchred): the defenders score 3, or 6 to a defender playing "
            "alone",
        ),
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
            f"least 3 of the 5 tricks. First team to {v.defaults.target} points wins.",
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
        RulesSection(
            "Scoring",
            "- The makers take 3 or 4 tricks: 1 point\n"
            "- All 5 (a march): 3 points; a march alone: 6\n"
            "- Fewer than 3 (euchred): the defenders score 3",
        ),
    ]


def _call_ace(v: Variant, c: Cards) -> list[RulesSection]:
    return [
        RulesSection(
            "The game",
            "Four, five or six players, each scoring for themself, with 25, 29 or 33 cards "
            f"(9, 8 or 7 to A in each suit, and the Benny, {c('B1')}). The maker of trump "
            "calls a secret partner; together they must take at least 3 of the 5 tricks. "
            "First to 10 points wins.",
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
            "Each player of a side scores the side's points:\n"
            "- The makers take 3 or 4 tricks: 1 point\n"
            "- All 5 (a march): 2 points; a march alone: 4\n"
            "- Fewer than 3 (euchred): each defender scores 2\n"
            "When several players reach 10 in the same hand, the highest wins; a tie plays "
            "on.",
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
            "beats the last: 3, 4 or 5 tricks, 8 (alone, after taking the widow) or 15 "
            "(alone, with the hand as dealt). If all five pass, the hand is thrown in.\n"
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
            "- The makers take at least the tricks bid (8 and 15 need all five): each scores "
            "the bid\n"
            "- Fewer: the bid is taken off each maker's score",
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
