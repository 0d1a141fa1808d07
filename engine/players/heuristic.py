"""The ``normal`` and ``easy`` levels: a rule-based player and its casual, slip-prone cousin.

:class:`HeuristicPlayer` plays every variant (RULES.md §1 Tuque, §2 Tuque to 61,
§3 four-hand Euchre) from its :class:`~engine.view.PlayerView` alone:

* **bidding**: for each suit it may make trump in, a linear model estimates the
  tricks its side would take (weights fitted on simulated hands; see
  ``docs/players.md``), turns the estimate into expected points with the variant's
  own scoring, and makes trump when that beats a per-situation threshold;
* **going alone**: in four-hand Euchre whenever a rough lone-march chance is not
  small (three or more trumps, at most about one loser); elsewhere only with a
  near-certain march;
* **discard**: shortest off suit, lowest card, never a trump or an ace unless forced
  (in four-hand Euchre always voiding a suit when it can);
* **play**: win as cheaply as possible, play low when it cannot win or when its
  partner holds the trick, lead master trumps to draw trumps, cash safe off-suit
  masters, and in Tuque favour a tableau card that uncovers a face-down one. In
  four-hand Euchre a maker with three trumps leads its highest, and the top card of
  an off suit led is played at once, second hand too.

:class:`CasualPlayer` is the same player with occasional, human-like slips.

The players work on card bitmasks (:mod:`engine.cards`) so a decision takes tens
of microseconds, cheap enough for search rollouts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache

from engine.actions import (
    Action,
    Ask,
    Bid,
    CallCard,
    CallSuit,
    Discard,
    Give,
    GoAlone,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    TakeUp,
    TurnDown,
)
from engine.cards import EFFECTIVE_SUIT, POWER, RANK_INDEX, SUIT_MASK, Card, power_table
from engine.core import bits
from engine.variants import VARIANTS, Options, Variant, get_variant
from engine.view import Phase, PlayerView

__all__ = ["CasualPlayer", "HeuristicPlayer"]

_TRICKS = {name: v.tricks for name, v in VARIANTS.items()}
_JACK = 5
_KING = 7
_ACE = 8
# Every ace and every king, both copies of each in the double pack (RULES.md §6).
_ACES = sum(1 << c for c, rank in enumerate(RANK_INDEX) if rank == _ACE)
_KINGS = sum(1 << c for c, rank in enumerate(RANK_INDEX) if rank == _KING)
# Tuque: a face-up tableau card over a face-down one plays as if this many ranks
# cheaper, since playing it turns up one more card to use (self-play A/B: 1.5 beat a
# bare tie-break; 3 did no better).
_UNCOVER = 1.5

# --- bidding model ---------------------------------------------------------------------

# Expected tricks of the would-be maker's side = sum of weight * feature; fitted by
# least squares on hands whose trump and maker were forced and then played out by this
# player (docs/players.md "Calibration"). The SDs are the fits' residual spreads.
_TUQUE_MODEL: tuple[tuple[str, float], ...] = (
    ("bias", 8.37),
    ("holds B3", 1.16),
    ("holds B2", 1.05),
    ("holds B1", 0.94),
    ("holds the Right Bower", 0.77),
    ("holds the Left Bower", 0.53),
    ("holds the trump ace", 0.41),
    ("holds the trump king", 0.39),
    ("other trumps held", 0.39),
    ("opponent's face-up top-7 trumps", -0.75),
    ("opponent's other face-up trumps", -0.6),
    ("trumps nobody can see", -0.27),
    ("off-suit aces held", 0.68),
    ("off-suit kings held", 0.57),
    ("off suits held none of", 0.21),
    ("leads the first trick", -0.41),
    ("opponent's face-up off-suit aces", -0.32),
)
_TUQUE_WEIGHTS = tuple(w for _, w in _TUQUE_MODEL)
_TUQUE_SD = 1.9

_EUCHRE_MODEL: tuple[tuple[str, float], ...] = (
    ("bias", 1.15),
    ("holds the Right Bower", 1.08),
    ("holds the Left Bower", 0.81),
    ("holds the trump ace", 0.64),
    ("holds the trump king", 0.49),
    ("holds the trump queen", 0.46),
    ("other trumps held", 0.42),
    ("off-suit aces held", 0.38),
    ("off-suit kings held", 0.08),
    ("off suits held none of", 0.15),
    ("partner picks up", 0.53),
    ("partner picks up a Right Bower or ace", 0.42),
    ("an opponent picks up", -0.33),
    ("an opponent picks up a Right Bower or ace", -0.28),
    ("the side leads the first trick", -0.02),
)
_EUCHRE_WEIGHTS = tuple(w for _, w in _EUCHRE_MODEL)
_EUCHRE_SD = 1.1

# Expected-points margin a making action must beat, by (variant, bidding round, seats
# clockwise from the dealer to the bidder: 0 is the dealer). Passing is worth more
# than nothing: it leaves the others to make trump, and in round 2 it may stick the
# dealer with a forced make that favours the defenders. Tuned by self-play on
# duplicate deals (docs/players.md "Calibration").
_THRESHOLDS: dict[tuple[str, int, int], float] = {
    ("tuque", 1, 1): 0.75,
    ("tuque", 1, 0): 0.0,
    ("tuque", 2, 1): 0.0,
    ("tuque61", 1, 1): 4.5,
    ("tuque61", 1, 0): 0.0,
    ("tuque61", 2, 1): 6.0,
    ("euchre", 1, 1): 0.6,
    ("euchre", 1, 2): 0.6,
    ("euchre", 1, 3): 0.3,
    ("euchre", 1, 0): 0.0,
    ("euchre", 2, 1): -0.3,
    ("euchre", 2, 2): -0.3,
    ("euchre", 2, 3): -0.3,
    ("euchre", 2, 0): 0.0,
}


def _mask(cards: Sequence[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def _trump_order(trump: int, pack: int) -> list[int]:
    """The trumps of ``pack`` from highest to lowest (the double pack's jokers by colour)."""
    power = power_table(pack)[trump][trump]
    return sorted(bits(SUIT_MASK[trump][trump] & pack), key=lambda c: -power[c])


@cache
def _rules(name: str, options: Options | None) -> Variant:
    """The variant as the table plays it (Call-Ace and Jackpot seat 4 to 6 players)."""
    v = get_variant(name)
    return v.configured(options or v.defaults)


@cache
def _pack_of(name: str, options: Options | None) -> int:
    return _mask(_rules(name, options).pack)


def _pack(view: PlayerView) -> int:
    """The card mask of the pack ``view``'s game is played with."""
    return _pack_of(view.variant, view.options)


@cache
def _order(pack: int, trump: int) -> list[int]:
    return _trump_order(trump, pack)


def _partners(view: PlayerView) -> list[int]:
    """The seats the viewer knows to be on their side and in play (RULES.md §3–§7).

    Fixed partners (Euchre, six-hand). In Call-Ace and Auction the sides of a hand
    are the makers (the maker and the secret partner) against the rest: once the
    viewer knows the partner (see :func:`known_partner`), or the maker went alone,
    a maker's partner is the other maker and a defender's are the other defenders.
    """
    me = view.seat
    if len(set(view.sides)) < view.players:
        return [
            s
            for s in range(view.players)
            if s != me and view.sides[s] == view.sides[me] and s not in view.out  # type: ignore[index]
        ]
    maker = view.maker
    if maker is None or (view.called_suit is None and view.called_card is None):
        return []
    if view.alone is not None:
        makers = {maker}
    else:
        partner = known_partner(view)
        if partner is None:
            return []
        makers = {maker, partner}
    if me in makers:
        return [s for s in makers if s != me]
    return [s for s in range(view.players) if s != me and s not in makers and s not in view.out]


def known_partner(view: PlayerView) -> int | None:
    """The secret partner (RULES.md §7) if the viewer can tell it, else ``None``.

    Auction: the called card's holder knows; everyone once it is played. Call-Ace:
    the holder of the highest card of the called suit dealt to a hand; going down
    the suit from its top, cards the viewer knows were not dealt (a turned-down
    up-card, its own discards) are skipped, and the first other card tells the
    partner if the viewer holds it or it was played, else the viewer cannot know.
    The maker may be its own partner.
    """
    played = {card.index: seat for t in (*view.tricks, view.trick) for seat, card in t.plays}
    mine = _mask(view.hand)
    if view.called_card is not None:
        c = view.called_card.index
        if mine >> c & 1:
            return view.seat
        return played.get(c)
    assert view.called_suit is not None and view.trump is not None
    t, suit = view.trump.index, view.called_suit.index
    pack = _pack(view)
    power = power_table(pack)[t][suit]
    out = _mask(view.discards)
    if view.up_card is not None and view.up_card_turned_down:
        out |= 1 << view.up_card.index
    dealt = bits(SUIT_MASK[t][suit] & pack & ~out)
    if not dealt:
        return None
    top = max(dealt, key=lambda c: power[c])
    return view.seat if mine >> top & 1 else played.get(top)


# Tricks to add to the four-hand Euchre fit for the maker's side of another table, by
# (variant, seats): the mean of (tricks taken − estimate) over the hands the heuristic
# made in 120 self-play games per table (docs/players.md "Calibration"). The fit
# assumes one partner against two; two-hand has none on either side, three-hand two
# opponents together, Call-Ace a partner known only in play against more defenders,
# six-seat tables more opponents to overtrump.
_TABLE_BIAS = {
    ("two_hand", 2): 0.5,
    ("three_hand", 3): -0.1,
    ("call_ace", 4): 0.3,
    ("call_ace", 5): 0.05,
    ("call_ace", 6): -0.3,
    ("six_hand", 6): -0.15,
    ("almonte", 6): -0.45,
}


@cache
def _margin_table(variant: str, sd: float) -> tuple[float, ...]:
    """Expected points (makers minus defenders) for each mean trick estimate, in 1/20ths.

    The makers' tricks are taken as a normal law of the estimate's mean and ``sd``,
    rounded to whole tricks and clipped to ``0..tricks``; points come from the
    variant's own ``score_hand`` (RULES.md §1–§3 Scoring).
    """
    v = VARIANTS[variant]
    n = v.tricks
    margins = [m - d for m, d in (v.score_hand(k, n - k, False) for k in range(n + 1))]
    table = []
    for step in range(n * 20 + 1):
        mu = step / 20
        cdf = [0.5 * (1 + math.erf((k + 0.5 - mu) / (sd * math.sqrt(2)))) for k in range(n)]
        probs = [cdf[0], *(cdf[k] - cdf[k - 1] for k in range(1, n)), 1 - cdf[-1]]
        table.append(sum(p * g for p, g in zip(probs, margins, strict=True)))
    return tuple(table)


def _expected_margin(variant: str, tricks: float) -> float:
    # Tuque's 17 tricks spread wider than the five of every other variant.
    sd = _TUQUE_SD if variant in ("tuque", "tuque61") else _EUCHRE_SD
    table = _margin_table(variant, sd)
    step = round(min(max(tricks, 0.0), _TRICKS[variant]) * 20)
    return table[step]


# --- the player ------------------------------------------------------------------------------


class HeuristicPlayer:
    """The ``normal`` level: rule-based bidding, discard and card play for every variant.

    Args:
        seed: seeds the RNG that breaks exact ties between equally good cards, so a
            seed and the same views always give the same actions.
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The heuristic's action for ``view.seat``: always one of ``legal``."""
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.PLAY:
            return self._rank_plays(view, legal)[0]
        if phase is Phase.DISCARD:
            return self._rank_discards(view, legal)[0]
        if phase is Phase.GOING_ALONE:
            want = GoAlone if self._goes_alone(view) else Pass
            return next(a for a in legal if isinstance(a, want))
        if phase is Phase.BLIND_NAMING:
            return self._rng.choice(legal)  # the hand is unseen: every suit is alike
        if phase is Phase.CARD_REQUEST:
            return next(a for a in legal if isinstance(a, Ask))  # a free exchange
        if phase is Phase.GIVING:
            return max(legal, key=lambda a: _gift_value(view, a))
        if phase is Phase.CALLING:
            return self._call(view, legal)
        if phase is Phase.AUCTION:
            return self._auction_bid(view, legal)
        turn_down = next((a for a in legal if isinstance(a, TurnDown)), None)
        if turn_down is not None:
            assert view.bid_suit is not None
            lone = _march_hand(_mask(view.hand), view.bid_suit.index, _pack(view), False)
            return turn_down if lone else next(a for a in legal if isinstance(a, Pass))
        options, threshold = self._bid_options(view, legal)
        return _pick_bid(options, threshold, legal)

    # --- RULES.md §4–§7 decisions ------------------------------------------------------

    def _goes_alone(self, view: PlayerView) -> bool:
        """A maker's side goes alone on a likely march; a defender never does (§4)."""
        assert view.seat is not None and view.maker is not None
        if view.sides[view.seat] != view.sides[view.maker]:
            return False
        if view.variant == "euchre":
            return self._lone_march_chance(view) >= _LONE_CHANCE
        return self._march_likely(view)

    def _call(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """§7: Call-Ace: alone on a likely march, else the suit whose best card the
        maker lacks (trump first); Auction: the best trump not in hand."""
        assert view.trump is not None
        t = view.trump.index
        mine = _mask(view.hand)
        order = _order(_pack(view), t)
        if any(isinstance(a, GoAlone) for a in legal):
            if self._march_likely(view):
                return next(a for a in legal if isinstance(a, GoAlone))
            pack = _pack(view)
            power = POWER[t]
            for suit in (t, *(s for s in range(4) if s != t)):
                cards = bits(SUIT_MASK[t][suit] & pack)
                top = max(cards, key=lambda c: power[suit][c])
                if not mine >> top & 1:
                    return next(
                        a for a in legal if isinstance(a, CallSuit) and a.suit.index == suit
                    )
            return next(a for a in legal if isinstance(a, CallSuit))
        by_card = {a.card.index: a for a in legal if isinstance(a, CallCard)}
        for c in order:
            if c in by_card:
                return by_card[c]
        return max(legal, key=lambda a: RANK_INDEX[a.card.index] if isinstance(a, CallCard) else -1)

    def _auction_bid(self, view: PlayerView, legal: Sequence[Action], slip: float = 0.0) -> Action:
        """§7 Auction: the level the hand's expected tricks (with a called partner and
        the widow) support, in its best suit, if it beats the standing bid; else pass.
        ``slip`` (tricks) is added to the estimate: the easy level's timid or bold bid."""
        best_suit, best = 0, -1.0
        for suit in range(4):
            tricks = sum(
                w * f
                for w, f in zip(_EUCHRE_WEIGHTS, _euchre_features(view, suit, False), strict=True)
            )
            if tricks > best:
                best_suit, best = suit, tricks
        best += slip
        level = 0
        if best >= 3.6:
            level = 8 if best >= 5.0 else 5
        elif best >= 3.0:
            level = 4
        elif best >= 2.2:
            level = 3
        for action in legal:
            if isinstance(action, Bid) and action.level == level and action.suit.index == best_suit:
                return action
        return next(a for a in legal if isinstance(a, Pass))

    # --- bidding -------------------------------------------------------------------------

    def _bid_options(
        self, view: PlayerView, legal: Sequence[Action]
    ) -> tuple[list[tuple[float, Action]], float | None]:
        """Each making action with its expected points margin, and the threshold to beat.

        The threshold is ``None`` when passing is not allowed (stick the dealer).
        """
        assert view.seat is not None and view.up_card is not None
        first_round = view.phase is Phase.BIDDING_1
        up_suit = view.bid_suit
        options: list[tuple[float, Action]] = []
        for action in legal:
            if isinstance(action, OrderUp | TakeUp):
                suit = action.suit if action.suit is not None else up_suit
                assert suit is not None
                tricks = self._estimate(view, suit.index, pickup=True)
            elif isinstance(action, NameTrump):
                tricks = self._estimate(view, action.suit.index, pickup=False)
            else:
                continue
            options.append((_expected_margin(view.variant, tricks), action))
        threshold = None
        if any(isinstance(a, Pass) for a in legal):
            offset = (view.seat - view.dealer) % view.players
            rnd = 1 if first_round else 2
            threshold = _THRESHOLDS.get(
                (view.variant, rnd, offset), _THRESHOLDS["euchre", rnd, min(offset, 1)]
            )
        return options, threshold

    def _estimate(self, view: PlayerView, trump: int, *, pickup: bool) -> float:
        """Expected tricks of this seat's side if ``trump`` is made (RULES.md §1, §3)."""
        if view.variant not in ("tuque", "tuque61"):
            features = _euchre_features(view, trump, pickup)
            bias = _TABLE_BIAS.get((view.variant, view.players), 0.0)
            return bias + sum(w * f for w, f in zip(_EUCHRE_WEIGHTS, features, strict=True))
        features = _tuque_features(view, trump, pickup)
        return sum(w * f for w, f in zip(_TUQUE_WEIGHTS, features, strict=True))

    def _march_likely(self, view: PlayerView) -> bool:
        """Go alone only when the hand should take all five tricks by itself (RULES.md §3).

        Counts the unbroken run of top trumps the seat holds (the up-card included
        when the seat is the dealer picking it up); every other card must be a
        trump or an off-suit ace, and no more than one card may be a non-master.
        """
        assert view.seat is not None and view.trump is not None and view.up_card is not None
        t = view.trump.index
        pack = _pack(view)
        mine = _mask(view.hand)
        picks_up = (
            view.seat == view.dealer
            and not view.up_card_turned_down
            and view.phase is not Phase.CALLING
            and view.seat not in view.out
        )
        if picks_up:
            mine |= 1 << view.up_card.index
        return _march_hand(mine, t, pack, picks_up)

    def _lone_march_chance(self, view: PlayerView) -> float:
        """A rough chance that the seat takes all five tricks alone (RULES.md §3).

        Four-hand Euchre only. A march alone scores 4 against a partnered march's 2,
        and with three or more high trumps the loner is rarely euchred, so going alone
        pays from well below a certain march (see :data:`_LONE_CHANCE`).
        """
        assert view.seat is not None and view.trump is not None and view.up_card is not None
        t = view.trump.index
        mine = _mask(view.hand)
        picks_up = view.seat == view.dealer and not view.up_card_turned_down
        if picks_up:
            mine |= 1 << view.up_card.index
        return _lone_chance(mine, t, _pack(view), picks_up)

    # --- discard ------------------------------------------------------------------------

    def _rank_discards(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        """Discards best first: an off-suit loser from the shortest suit (RULES.md §1 Ruling)."""
        assert view.seat is not None and view.trump is not None
        t = view.trump.index
        mine = _mask(view.hand) | _mask(view.face_up(view.seat))
        rng = self._rng.random
        per_card = _EUCHRE_DISCARD_LENGTH if view.variant == "euchre" else 1.5

        def key(action: Action) -> tuple[float, ...]:
            assert isinstance(action, Discard)
            return (*_discard_key(action.card.index, mine, t, per_card), rng())

        return sorted(legal, key=key)

    # --- card play ----------------------------------------------------------------------

    def _rank_plays(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        """Legal plays best first (RULES.md "Following", "Trick winner")."""
        k = _Knowledge(view)
        cards = [a.card.index for a in legal if isinstance(a, Play)]
        keys = k.lead_keys(cards) if not view.trick.plays else k.follow_keys(cards)
        rng = self._rng.random
        order = sorted(range(len(cards)), key=lambda i: (*keys[i], rng()))
        return [legal[i] for i in order]


def _march_hand(mine: int, t: int, pack: int, picks_up: bool) -> bool:
    """Whether ``mine`` should take every trick alone with trump ``t`` (see ``_march_likely``)."""
    trumps = mine & SUIT_MASK[t][t]
    top = 0
    for c in _order(pack, t):
        if not trumps >> c & 1:
            break
        top += 1
    n_trumps = trumps.bit_count()
    off = bits(mine & ~trumps & pack)
    if any(RANK_INDEX[c] != _ACE for c in off) and not picks_up:
        return False
    if picks_up and sum(RANK_INDEX[c] != _ACE for c in off) > 1:
        return False  # the dealer can discard one loser, not two
    return n_trumps >= 5 or (n_trumps >= 4 and top >= 2) or (n_trumps >= 3 and top >= 3)


# Four-hand Euchre: the maker goes alone when its rough chance of a lone march
# (:func:`_lone_chance`) reaches this. Alone, a march scores 4 instead of 2 and three
# or four tricks still 1, so with little euchre risk going alone pays once the lone
# march is about a third as likely as the partnered one. The estimate is rough and
# pessimistic (a small off card counts as a near-sure loser, yet the defenders often
# lack the card to beat it), so the threshold was measured, and is low: in self-play
# against the old march-only rule (20,000 duplicate deals) it gained +0.008 points a
# hand at 0.5, +0.019 at 0.35, +0.034 at 0.08, +0.046 at 0.05 and 0.03, and lost
# 0.005 at 0.001 (alone on any three trumps).
_LONE_CHANCE = 0.05
# Four-hand Euchre: a maker with this many trumps leads its highest even when it is
# not a master, to draw the defenders' trumps (self-play: +0.006 points a hand at 3,
# +0.008 at 2 but with a wider interval).
_MAKER_LEADS = 3
# Four-hand Euchre: the discard's cost of each other card of its suit (1.5 elsewhere).
# At 6, more than any two ranks differ, the dealer always voids a suit when it can
# (self-play: +0.007 points a hand at 3, +0.011 at 6).
_EUCHRE_DISCARD_LENGTH = 6.0
# The chance that a missing higher trump beats the seat's j-th highest trump (j = 0,
# 1, 2, 3+) when it leads trumps from the top: the j-th trump loses only to a
# defender who still holds a higher one after j rounds of trumps (with a partner
# sitting out, a missing card is in a defender's hand about 10 times in 18).
_TRUMP_RISK = (0.55, 0.3, 0.12, 0.04)


def _lone_chance(mine: int, t: int, pack: int, picks_up: bool) -> float:
    """A rough chance that ``mine`` (six cards for a dealer picking up, who discards
    the worst) takes every trick alone with trump ``t``: the product of each card's
    chance to win its trick, trumps taken together (the same missing trump beats any
    of them). Fewer than three trumps: 0, a lone hand that could be euchred."""
    trumps = mine & SUIT_MASK[t][t]
    n_trumps = trumps.bit_count()
    if n_trumps < 3:
        return 0.0
    if n_trumps >= 5:
        return 1.0  # at least three tricks, whatever the defenders hold
    trump_risk = 0.0
    missing = j = 0
    for c in _order(pack, t):
        if trumps >> c & 1:
            if missing:
                risk = 1 - (1 - _TRUMP_RISK[min(j, 3)]) ** missing
                trump_risk = max(trump_risk, risk)
            j += 1
        else:
            missing += 1
    risks = []
    for c in bits(mine & ~trumps & pack):
        rank = RANK_INDEX[c]
        ace = 1 << (c - rank + _ACE)
        if rank == _ACE:
            risks.append(0.1 if n_trumps < 4 else 0.05)  # ruffed by a defender's last trump
        elif rank == _KING:
            risks.append(0.15 if mine & ace else 0.6)
        else:
            risks.append(0.9)
    risks.sort()
    if picks_up and risks:
        risks.pop()  # the dealer discards its worst card
    chance = 1 - trump_risk
    for risk in risks:
        chance *= 1 - risk
    return chance


def _pick_bid(
    options: list[tuple[float, Action]], threshold: float | None, legal: Sequence[Action]
) -> Action:
    """The best making action if it beats ``threshold`` (always when passing is barred)."""
    best_margin, best = max(options, key=lambda o: o[0])
    if threshold is not None and best_margin <= threshold:
        return next(a for a in legal if isinstance(a, Pass))
    return best


# --- bidding features ----------------------------------------------------------------


def _discard_key(card: int, mine: int, trump: int, per_card: float = 1.5) -> tuple[int, float]:
    """Sort key of a discard (lower is better): off-suit losers of short suits first.

    ``mine`` is every card the dealer may play (in Tuque the face-up tableau too), so
    a suit counts as short only if the tableau does not hold it either.
    """
    suit = EFFECTIVE_SUIT[trump][card]
    if suit == trump:
        return 2, POWER[trump][trump][card]
    rank = RANK_INDEX[card]
    if rank == _ACE:
        return 1, 0.0
    return 0, rank + per_card * ((mine & SUIT_MASK[trump][suit]).bit_count() - 1)


def _dealer_keeps(hand: int, mine: int, trump: int) -> int:
    """``mine`` less the card the dealer would discard from ``hand`` (RULES.md §1, §3)."""
    discard = min(bits(hand), key=lambda c: _discard_key(c, mine, trump))
    return mine & ~(1 << discard)


def _tuque_features(view: PlayerView, t: int, pickup: bool) -> list[float]:
    """The features of :data:`_TUQUE_MODEL`, in order, for making trump ``t`` (RULES.md §1)."""
    assert view.seat is not None and view.up_card is not None
    me = view.seat
    opp = 1 - me
    pack = _pack(view)
    up = 1 << view.up_card.index
    mine = _mask(view.hand) | _mask(view.face_up(me))
    theirs = _mask(view.face_up(opp))
    if pickup and view.dealer == me:
        mine = _dealer_keeps(_mask(view.hand) | up, mine | up, t)
    elif pickup:
        theirs |= up
    unseen = pack & ~(mine | theirs | up)
    trumps = SUIT_MASK[t][t]
    order = _order(pack, t)
    top, low = order[:7], trumps & ~sum(1 << c for c in order[:7])
    f: list[float] = [1.0]
    f += [float(mine >> c & 1) for c in top]
    f.append(float((mine & low).bit_count()))
    f.append(float(sum(theirs >> c & 1 for c in top)))
    f.append(float((theirs & low).bit_count()))
    f.append(float((unseen & trumps).bit_count()))
    aces = kings = voids = their_aces = 0
    for s in range(4):
        if s == t:
            continue
        sm = SUIT_MASK[t][s]
        ace, king = 1 << (s * 9 + _ACE), 1 << (s * 9 + _KING)
        aces += bool(mine & ace & sm)
        kings += bool(mine & king & sm)
        their_aces += bool(theirs & ace & sm)
        voids += not mine & sm
    f += [float(aces), float(kings), float(voids), float(view.dealer != me), float(their_aces)]
    return f


def _euchre_features(view: PlayerView, t: int, pickup: bool) -> list[float]:
    """The features of :data:`_EUCHRE_MODEL`, in order, for making trump ``t`` (RULES.md §3)."""
    assert view.seat is not None
    me = view.seat
    partners = _partners(view)
    up_card = view.up_card.index if view.up_card is not None else -1
    mine = _mask(view.hand)
    if pickup and view.dealer == me:
        mine = _dealer_keeps(mine | 1 << up_card, mine | 1 << up_card, t)
    order = _order(_pack(view), t)
    trumps = SUIT_MASK[t][t]
    f: list[float] = [1.0]
    f += [float(mine >> c & 1) for c in order[:5]]
    f.append(float((mine & trumps).bit_count() - sum(mine >> c & 1 for c in order[:5])))
    aces = kings = voids = 0
    for s in range(4):
        if s == t:
            continue
        sm = SUIT_MASK[t][s]
        aces += bool(mine & sm & _ACES)
        kings += bool(mine & sm & _KINGS)
        voids += not mine & sm
    # A jack up: the Right Bower (a Ben's rank is -1).
    high = float(up_card >= 0 and RANK_INDEX[up_card] in (_ACE, _JACK))
    to_partner = pickup and view.dealer in partners
    opponent_deals = view.dealer != me and view.dealer not in partners
    to_opp = pickup and opponent_deals
    f += [float(aces), float(kings), float(voids)]
    f += [float(to_partner), float(to_partner) * high, float(to_opp), float(to_opp) * high]
    f.append(float(opponent_deals))
    return f


# --- what the seat knows during play ------------------------------------------------------


class _Knowledge:
    """The seat's picture of the hand in play: its cards, who may hold what, voids.

    ``possible[s]`` holds every card seat ``s`` may still play: its face-up tableau
    cards (Tuque) plus the unseen cards, less any suit it has shown it lacks. Unseen
    cards include the seat's own face-down ones and the kitty, so the picture errs on
    the side of caution.
    """

    __slots__ = (
        "covering",
        "esuit",
        "mine",
        "opponents",
        "partners",
        "possible",
        "power",
        "seat",
        "trump",
        "trumps",
        "view",
        "visible",
    )

    def __init__(self, view: PlayerView) -> None:
        assert view.seat is not None and view.trump is not None
        self.view = view
        me = self.seat = view.seat
        t = self.trump = view.trump.index
        n = view.players
        esuit = self.esuit = EFFECTIVE_SUIT[t]
        pack = _pack(view)
        self.power = power_table(pack)[t]
        self.trumps = SUIT_MASK[t][t] & pack
        played = 0
        voids = [0] * n
        for trick in (*view.tricks, view.trick):
            plays = trick.plays
            if not plays:
                continue
            led = esuit[plays[0][1].index]
            for seat, card in plays:
                c = card.index
                played |= 1 << c
                if esuit[c] != led:
                    voids[seat] |= 1 << led
        visible = [0] * n
        self.covering = 0
        for s, piles in enumerate(view.tableaus):
            for pile in piles:
                if pile.up is not None:
                    visible[s] |= 1 << pile.up.index
                    if s == me and pile.face_down:
                        self.covering |= 1 << pile.up.index
        self.mine = _mask(view.hand) | visible[me]
        gone = played | sum(visible)
        for c in view.discards:
            gone |= 1 << c.index
        if view.up_card_turned_down and view.up_card is not None:
            gone |= 1 << view.up_card.index
        unseen = pack & ~(gone | self.mine)
        self.visible = visible
        partners = self.partners = _partners(view)
        self.opponents = [
            s for s in range(n) if s != me and s not in partners and s not in view.out
        ]
        self.possible = [0] * n
        for s in range(n):
            lacking = 0
            for suit in range(4):
                if voids[s] >> suit & 1:
                    lacking |= SUIT_MASK[t][suit]
            self.possible[s] = visible[s] | (unseen & ~lacking)

    def _count(self, mask: int) -> int:
        return (self.mine & mask).bit_count()

    def _beats(self, card: int, holders: Sequence[int], led: int) -> bool:
        """Whether any of ``holders``, playing after ``card`` (which can win: power > 0),
        may hold a card beating it on a ``led`` trick: a higher one, or in the double
        pack its twin (the second of two identical cards wins, RULES.md)."""
        power = self.power[led]
        p = power[card]
        led_mask = SUIT_MASK[self.trump][led]
        for s in holders:
            # A face-up card of the led suit (Tuque) forces the seat to follow: no ruff.
            reach = led_mask if self.visible[s] & led_mask else led_mask | self.trumps
            if any(power[c] >= p for c in bits(self.possible[s] & reach)):
                return True
        return False

    def _ruff_risk(self, suit: int) -> bool:
        """Whether an opponent may be out of ``suit`` yet hold a trump."""
        sm = SUIT_MASK[self.trump][suit]
        return any(
            not self.possible[s] & sm and self.possible[s] & self.trumps for s in self.opponents
        )

    def _master(self, card: int) -> bool:
        """No opponent may hold a higher card of ``card``'s suit, nor its twin."""
        suit = self.esuit[card]
        power = self.power[suit]
        sm = SUIT_MASK[self.trump][suit]
        p = power[card]
        return not any(power[c] >= p for s in self.opponents for c in bits(self.possible[s] & sm))

    def _keep_value(self, card: int) -> float:
        """How much the seat would miss ``card``: low for short-suit small cards."""
        t = self.trump
        suit = self.esuit[card]
        if suit == t:
            return 100.0 + self.power[t][card] - _UNCOVER * bool(self.covering >> card & 1)
        value = RANK_INDEX[card] + 0.5 * self._count(SUIT_MASK[t][suit])
        if self._master(card):
            value += 20
        return value - _UNCOVER * bool(self.covering >> card & 1)

    def lead_keys(self, cards: list[int]) -> list[tuple[float, ...]]:
        """Sort keys for leading each of ``cards`` (lower is better)."""
        view = self.view
        t = self.trump
        trumps_held = self._count(self.trumps)
        partner_made = view.maker in self.partners
        draws = view.variant == "euchre" and view.maker == self.seat
        draws = draws and trumps_held >= _MAKER_LEADS
        keys: list[tuple[float, ...]] = []
        for c in cards:
            cover = -_UNCOVER * bool(self.covering >> c & 1)
            suit = self.esuit[c]
            if suit == t:
                if self._master(c):
                    # Makers and defenders alike: drawing trumps beat saving them in
                    # self-play (docs/players.md "Calibration").
                    keys.append((0, -self.power[t][c] + cover))
                elif partner_made or draws:
                    keys.append((1, -self.power[t][c] + cover))
                else:
                    keys.append((4, self.power[t][c] + cover))
                continue
            if self._master(c) and not self._ruff_risk(suit):
                keys.append((2, RANK_INDEX[c] + cover))
                continue
            length = self._count(SUIT_MASK[t][suit])
            score = RANK_INDEX[c] + (6 if self._ruff_risk(suit) else 0)
            score += 0.3 * length if trumps_held else -0.3 * length
            keys.append((3, score + cover))
        return keys

    def follow_keys(self, cards: list[int]) -> list[tuple[float, ...]]:
        """Sort keys for playing each of ``cards`` to the trick in progress (lower is better)."""
        view = self.view
        t = self.trump
        plays = view.trick.plays
        led = self.esuit[plays[0][1].index]
        power = self.power[led]
        best, winner = _winning(plays, power)
        played_seats = {s for s, _ in plays}
        after = [s for s in self.opponents if s not in played_seats]
        partner_after = any(s not in played_seats for s in self.partners)
        keys: list[tuple[float, ...]] = []
        if winner in self.partners:
            held = next(card.index for s, card in plays if s == winner)
            partner_safe = not after or not self._beats(held, after, led)
            for c in cards:
                wins = power[c] >= best  # equal: the twin of the best card, played second
                ruffs = self.esuit[c] == t and led != t
                if wins and not partner_safe and not ruffs and not self._beats(c, after, led):
                    keys.append((0, power[c]))
                else:
                    keys.append((1 + wins, self._keep_value(c)))
            return keys
        # Four-hand Euchre: the top card of an off suit led is played at once, second
        # hand too: the suit seldom comes round again before someone can ruff it.
        cash = view.variant == "euchre" and led != t
        for c in cards:
            cover = -_UNCOVER * bool(self.covering >> c & 1)
            if power[c] < best:
                keys.append((2, self._keep_value(c)))
            elif (
                not after
                or not self._beats(c, after, led)
                or (cash and self.esuit[c] == led and self._master(c))
            ):
                keys.append((0, power[c] + cover))
            elif not partner_after or (self.esuit[c] == t and led != t):
                keys.append((1, power[c] + cover))
            else:
                keys.append((3, power[c] + cover))
        return keys


class CasualPlayer(HeuristicPlayer):
    """The ``easy`` level: the heuristic player with human-like slips.

    With probability ``slip`` per decision it plays the heuristic's second-best
    card or discard, or bids as if a little too timid or too bold. Slips are never
    absurd: it never trumps a trick its partner is winning, never discards a trump
    or an ace it could keep, and never goes alone unless the heuristic would.

    Args:
        seed: seeds every choice, so a seed and the same views give the same actions.
        slip: the chance of a slip at each decision, ``0 <= slip <= 1``.

    Raises:
        ValueError: ``slip`` outside ``[0, 1]``.
    """

    def __init__(self, seed: int | None = None, slip: float = 0.15) -> None:
        if not 0.0 <= slip <= 1.0:
            raise ValueError("slip must be between 0 and 1")
        super().__init__(seed)
        self.slip = slip

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The heuristic's action, or with probability ``slip`` a near miss (one of ``legal``)."""
        if len(legal) == 1 or self._rng.random() >= self.slip:
            return super().choose(view, legal)
        phase = view.phase
        if phase is Phase.PLAY:
            ranked = self._rank_plays(view, legal)
            if not _trumps_partner(view, ranked[1]):
                return ranked[1]
            return ranked[0]
        if phase is Phase.DISCARD:
            ranked = self._rank_discards(view, legal)
            trump = view.trump
            assert trump is not None
            second = ranked[1]
            assert isinstance(second, Discard)
            keeper = _discard_key(second.card.index, 0, trump.index)[0] > 0
            return ranked[0] if keeper else second
        if phase is Phase.GOING_ALONE:
            # A timid slip; a bold one would go alone on too little.
            return next(a for a in legal if isinstance(a, Pass))
        if phase is Phase.AUCTION:
            return self._auction_bid(view, legal, self._rng.choice((-1, 1)) * _AUCTION_SLIP)
        if phase not in _SLIP_BIDS or any(isinstance(a, TurnDown) for a in legal):
            return super().choose(view, legal)
        options, threshold = self._bid_options(view, legal)
        if threshold is not None:
            threshold += self._rng.choice((-1, 1)) * _BID_SLIP.get(view.variant, 0.35)
        return _pick_bid(options, threshold, legal)


_SLIP_BIDS = (Phase.BIDDING_1, Phase.BIDDING_2)
# How far a casual bid slip moves the threshold, in expected points of the variant.
_BID_SLIP = {"tuque": 0.35, "tuque61": 2.5, "euchre": 0.35}
# RULES.md §7 Auction: a bid slip moves the trick estimate behind the level by this
# much, about one step of the levels (3 at 2.2 tricks, 4 at 3.0, 5 at 3.6).
_AUCTION_SLIP = 0.6


def _trumps_partner(view: PlayerView, action: Action) -> bool:
    """Whether ``action`` puts a trump on a non-trump trick the seat's partner is winning."""
    if not view.trick.plays or view.trump is None or view.seat is None:
        return False
    assert isinstance(action, Play)
    t = view.trump.index
    esuit = EFFECTIVE_SUIT[t]
    plays = view.trick.plays
    led = esuit[plays[0][1].index]
    winner = _winning(plays, power_table(_pack(view))[t][led])[1]
    return winner in _partners(view) and esuit[action.card.index] == t != led


def _winning(plays: Sequence[tuple[int, Card]], power: list[int]) -> tuple[int, int]:
    """The power of the best card of a trick in progress and its seat (RULES.md "Trick
    winner"): the highest, or of two identical cards (equal power) the later."""
    best, winner = -1, -1
    for seat, card in plays:
        if power[card.index] >= best:
            best, winner = power[card.index], seat
    return best, winner


def _gift_value(view: PlayerView, action: Action) -> float:
    """RULES.md §6: how much a card helps the loner: trumps by rank, then aces."""
    assert isinstance(action, Give) and view.trump is not None
    t = view.trump.index
    c = action.card.index
    if EFFECTIVE_SUIT[t][c] == t:
        return 100.0 + power_table(_pack(view))[t][t][c]
    return float(RANK_INDEX[c])
